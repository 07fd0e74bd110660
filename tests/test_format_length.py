"""think_format (TRL semantics + prefilled/answer options) and overlong_penalty (DAPO Eq. 13)."""

from __future__ import annotations

import math
import pickle
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from trl.rewards import get_soft_overlong_punishment, think_format_reward

from polyreward.rewards.format import ThinkFormat
from polyreward.rewards.length import OverlongPenalty, soft_overlong_punishment

FORMAT_CASES = [
    # (completion, default, prefilled_think, require_answer)
    ("<think>\nThis is my reasoning.\n</think>\nThis is my answer.", 1.0, 0.0, 0.0),
    ("<think>\nThis is my reasoning.\nThis is my answer.", 0.0, 0.0, 0.0),
    ("<think>a</think>", 1.0, 0.0, 0.0),
    ("<think></think>answer", 1.0, 0.0, 0.0),
    ("<think>a</think><think>b</think>c", 0.0, 0.0, 0.0),
    ("<think>a<think>b</think>c", 0.0, 0.0, 0.0),
    ("text <think>a</think>b", 0.0, 0.0, 0.0),
    (" <think>a</think>b", 0.0, 0.0, 0.0),
    ("reasoning that was prefilled\n</think>\nThe answer is 4.", 0.0, 1.0, 0.0),
    ("prefilled</think><answer>4</answer>", 0.0, 1.0, 0.0),
    ("<think>\n2+2=4\n</think>\n<answer>\n4\n</answer>", 1.0, 0.0, 1.0),
    ("<think>\n2+2=4\n</think>\n<answer>\n4\n</answer>\n", 1.0, 0.0, 1.0),
    # open-r1's MULTILINE hole: trailing junk / a second block must not pass require_answer
    ("<think>\n2+2=4\n</think>\n<answer>\n4\n</answer>\ntrailing junk", 1.0, 0.0, 0.0),
    ("<think>\nx\n</think>\n<answer>\n4\n</answer>\n<answer>\n5\n</answer>", 1.0, 0.0, 0.0),
    ("<think>x</think>no answer tags", 1.0, 0.0, 0.0),
    ("<think>x</think><answer>unclosed", 1.0, 0.0, 0.0),
    ("", 0.0, 0.0, 0.0),
    ("</think>", 0.0, 1.0, 0.0),
    ("<THINK>x</THINK>y", 0.0, 0.0, 0.0),
]


@pytest.mark.parametrize("completion, default, prefilled, with_answer", FORMAT_CASES)
def test_think_format(completion, default, prefilled, with_answer):
    assert ThinkFormat()(completions=[completion]) == [default]
    assert ThinkFormat(prefilled_think=True)(completions=[completion]) == [prefilled]
    assert ThinkFormat(require_answer=True)(completions=[completion]) == [with_answer]


def test_prefilled_with_answer():
    reward = ThinkFormat(prefilled_think=True, require_answer=True)
    assert reward(completions=["r</think>\n<answer>4</answer>", "<think>r</think><answer>4</answer>", "r</think>4"]) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("completion", [c[0] for c in FORMAT_CASES])
def test_think_format_matches_trl(completion):
    assert ThinkFormat()(completions=[[{"role": "assistant", "content": completion}]]) == think_format_reward([[{"content": completion}]])


def test_open_r1_pattern_has_the_hole_we_close():
    open_r1 = r"^<think>\n.*?\n</think>\n<answer>\n.*?\n</answer>$"
    junk = "<think>\nx\n</think>\n<answer>\n4\n</answer>\ntrailing junk"
    assert re.match(open_r1, junk, re.DOTALL | re.MULTILINE)
    assert ThinkFormat(require_answer=True)(completions=[junk]) == [0.0]


def test_think_format_reasons():
    output = ThinkFormat(require_answer=True).evaluate([None] * 4, ["x", "<think>a", "<think>a</think><think>b</think>", "<think>a</think>b"])
    assert output.reasons == ["does not start with <think>", "no </think>", "more than one <think>", "no single <answer>...</answer> block at the end"]


def test_think_format_validates():
    with pytest.raises(ValueError, match="prefilled_think"):
        ThinkFormat(prefilled_think="yes")


# --- overlong penalty -----------------------------------------------------------------------------

DAPO_CASES = [  # (length, L_max, L_cache, expected)
    (0, 100, 20, 0.0), (80, 100, 20, 0.0), (81, 100, 20, -0.05), (90, 100, 20, -0.5), (100, 100, 20, -1.0), (101, 100, 20, -1.0),
    (16384, 20480, 4096, 0.0), (18432, 20480, 4096, -0.5), (20480, 20480, 4096, -1.0), (30000, 20480, 4096, -1.0),
    (100, 100, 0, 0.0), (101, 100, 0, -1.0), (5, 10, 1, 0.0), (10, 10, 1, -1.0),
]


@pytest.mark.parametrize("length, max_len, cache, expected", DAPO_CASES)
def test_soft_overlong_punishment(length, max_len, cache, expected):
    assert soft_overlong_punishment(length, max_len, cache) == pytest.approx(expected)
    reward = OverlongPenalty(max_completion_len=max_len, soft_punish_cache=cache)
    assert reward(completions=["x"], completion_ids=[[7] * length]) == [pytest.approx(expected)]


@pytest.mark.parametrize("length, max_len, cache, expected", [c for c in DAPO_CASES if c[2] > 0])
def test_overlong_matches_trl(length, max_len, cache, expected):
    trl = get_soft_overlong_punishment(max_completion_len=max_len, soft_punish_cache=cache)
    ours = OverlongPenalty(max_completion_len=max_len, soft_punish_cache=cache)
    assert ours(completions=["x"], completion_ids=[[1] * length]) == pytest.approx(trl(completion_ids=[[1] * length]))


PENALTY_FACTOR_CASES = [  # (length, L_max, L_cache, penalty_factor, expected) -- verl: factor * Eq. 13
    (80, 100, 20, 0.5, 0.0), (90, 100, 20, 0.5, -0.25), (100, 100, 20, 0.5, -0.5), (150, 100, 20, 0.5, -0.5),
    (18432, 20480, 4096, 2.0, -1.0), (20481, 20480, 4096, 2.0, -2.0), (90, 100, 20, 0.0, 0.0), (101, 100, 0, 0.25, -0.25),
]


@pytest.mark.parametrize("length, max_len, cache, factor, expected", PENALTY_FACTOR_CASES)
def test_overlong_penalty_factor(length, max_len, cache, factor, expected):
    assert soft_overlong_punishment(length, max_len, cache, factor) == pytest.approx(expected)
    reward = OverlongPenalty(max_completion_len=max_len, soft_punish_cache=cache, penalty_factor=factor)
    assert reward(completions=["x"], completion_ids=[[7] * length]) == [pytest.approx(expected)]
    assert reward.score_range == (-factor, 0.0)


def test_overlong_defaults_are_the_paper_ones():
    reward = OverlongPenalty()
    assert (reward.max_completion_len, reward.soft_punish_cache, reward.penalty_factor) == (20480, 4096, 1.0)
    assert reward(completions=["x"] * 3, completion_ids=[[1] * 16384, [1] * 16385, [1] * 20481]) == [0.0, pytest.approx(-1 / 4096), -1.0]


def test_length_sources_are_named_in_the_reason(tiny_qwen2_dir):
    text = "one two three four five six seven eight nine ten eleven twelve"
    by_ids = OverlongPenalty(max_completion_len=10, soft_punish_cache=5).evaluate([None], [text], completion_ids=[[1] * 7])
    assert by_ids.scores == [pytest.approx(-0.4)] and "(completion_ids)" in by_ids.reasons[0]
    by_words = OverlongPenalty(max_completion_len=10, soft_punish_cache=5).evaluate([None], [text])
    assert by_words.scores == [-1.0] and "length 12 (words)" in by_words.reasons[0]
    with_tok = OverlongPenalty(max_completion_len=10, soft_punish_cache=5, tokenizer=str(tiny_qwen2_dir))
    output = with_tok.evaluate([None], [text])
    from transformers import AutoTokenizer

    expected_len = len(AutoTokenizer.from_pretrained(str(tiny_qwen2_dir))(text, add_special_tokens=False)["input_ids"])
    assert output.details["length"] == [float(expected_len)] and "(tokenizer)" in output.reasons[0]
    assert output.scores == [pytest.approx(soft_overlong_punishment(expected_len, 10, 5))]
    clone = pickle.loads(pickle.dumps(with_tok))  # the loaded tokenizer is not pickled, it reloads
    assert clone._tokenizer is None and clone.evaluate([None], [text]).scores == output.scores


def test_missing_ids_give_nan_with_reason():
    output = OverlongPenalty(max_completion_len=10, soft_punish_cache=5).evaluate([None, None], ["a", "b"], completion_ids=[[1, 2], None])
    assert output.scores[0] == 0.0 and math.isnan(output.scores[1]) and output.reasons[1] == "no completion_ids for this rollout"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_completion_len": -1}, "max_completion_len"),
        ({"soft_punish_cache": 1.5}, "soft_punish_cache"),
        ({"max_completion_len": 10, "soft_punish_cache": 20}, "soft_punish_cache <= max_completion_len"),
        ({"tokenizer": "Qwen/Qwen2.5-0.5B"}, "local tokenizer directory"),
        ({"penalty_factor": -1.0}, "penalty_factor"),
        ({"penalty_factor": float("nan")}, "penalty_factor"),
    ],
)
def test_overlong_validates(kwargs, message):
    with pytest.raises(ValueError, match=message):
        OverlongPenalty(**kwargs)


def test_cache_equal_to_max_warns_and_follows_the_formula():
    with pytest.warns(UserWarning, match="penalises every non-empty completion"):
        reward = OverlongPenalty(max_completion_len=10, soft_punish_cache=10)
    out = reward.evaluate([None] * 3, ["a", "b", "c"], completion_ids=[[], [1] * 5, [1] * 11])
    assert out.scores == [0.0, -0.5, -1.0]


# red team holdout_r1 (benchmarks/red_team_rewards.py): words joined so that a split does not see them still count;
# a compound of two, tags and LaTeX commands count as before (the shipped math example's lengths do not move)
_PLAIN_WORDS = "the patient presents with fever cough and shortness of breath".split()


@pytest.mark.parametrize(
    "text,expected",
    [
        ("-".join(_PLAIN_WORDS), 10),
        ("/".join(_PLAIN_WORDS), 10),
        (".".join(_PLAIN_WORDS), 10),
        ("".join(w.capitalize() for w in _PLAIN_WORDS), 10),
        (" ".join(_PLAIN_WORDS), 10),
        ("double-check days/month re-verify", 3),  # compounds of two: one word each
        ("<answer>\\frac{47}{81}</answer>", 2),  # markup is no word: ceil(30 / 16)
        ("state-of-the-art", 4),
        ("a" * 10_000, 625),
        ("the-patient presents-with fever-cough and-shortness of-breath for-three days-and the-chest", 16),  # pairs
        ("thePatient presentsWith feverCough andShortness ofBreath forThree daysAnd theChest", 16),
        ("state-of-the-art care, a well-known follow-up; x-ray and check-up", 11),  # a few compounds: one each
        ("and,a,second,film,if", 5),  # a single letter between joints is a word
        ("Electrocardiographically", 2),  # a long English word: ceil(24 / 16)
        ("PaO2/FiO2 and SpO2", 3),  # a capital before digits only is a formula's element, not a word
    ],
)
def test_word_count_joined_words(text, expected):
    from polyreward.verifiers.text_forms import word_count

    assert word_count(text) == expected


def test_overlong_hyphen_joined_text_is_as_long_as_spaced():
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    words = (_PLAIN_WORDS * 15)[:150]
    assert reward(completions=["-".join(words), " ".join(words)]) == [-1.0, -1.0]


@pytest.mark.parametrize(
    "completion,expected",
    [
        ("<think>foo bar baz qux</think>\nThe answer is \\boxed{4}.", 0.0),  # placeholder names are no content
        ("<think>Subtract 3 from both sides: 2x = 8, so x = 4.</think>\n＜think＞\nThe answer is \\boxed{4}.", 0.0),
        ("<think>Subtract 3 from both sides: 2x = 8, so x = 4.</think>\nThe answer is \\boxed{4}.", 1.0),
        ("<think>Resto 3 de ambos lados: 2x = 8, luego x = 4.</think>\nLa respuesta es \\boxed{4}.", 1.0),
    ],
)
def test_think_format_guard_red_team(completion, expected):
    reward = ThinkFormat(min_content_words=3)
    assert reward(prompts=["Solve 2x + 3 = 11."], completions=[completion]) == [expected]


def test_bar_is_a_unit_not_a_placeholder_word():
    # "bar" is a unit of pressure, not the placeholder "foo bar"; the prompt is about the valve (a reasoning about
    # something else than the question is refused since red team holdout_r4)
    reward = ThinkFormat(min_content_words=3)
    completion = "<think>The pressure is 5 bar above ambient, so the valve opens.</think>\nYes."
    assert reward(prompts=["Does a relief valve set at 4 bar open at 5 bar?"], completions=[completion]) == [1.0]


_PIECES = ["<think>", "</think>", "<think", "think>", "</", "<", ">", "x", " ", "\n", "[", "<answer>", "</answer>", "é"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
@example("<think><think>a</think>b")
@example("<think></think>")
@example("<think>a</think")
@example("<think>a</think><think>")
def test_think_format_plain_rule_is_the_regex(completion):
    """TRL's rule without options, decided by two substring searches for a string opening with <think>: the same
    score and reason as the regex and the verdict, alone and in a batch with rows that take the regex."""
    reward = ThinkFormat()
    matched = re.match(r"^<think>(?!.*<think>)(.*?)</think>(.*)$", completion, re.DOTALL) is not None
    assert reward.evaluate([None], [completion]).scores == [1.0 if matched else 0.0]
    batch = [completion, "<think>a</think>b", " " + completion, completion + "<think>", "\n [" + completion,
             '\n[{"role": "assistant", "content": "<think>a</think>b"}]', "\t[{" + completion]
    output = reward.evaluate([None] * len(batch), batch)  # (a string opening with "[{" is read as a message list)
    assert output.scores == [reward.score_rollout(reward.text_of(c), {}).score for c in batch]
    assert output.reasons == [reward.score_rollout(reward.text_of(c), {}).reason for c in batch]
    assert output.scores[5] == 1.0


# red team holdout_r8: the alphabets that space their words count words, not letters (a 47-word Russian summary
# counted 270); joining such words without a space still counts them, as a Latin run's words are
_RUSSIAN = ("пациент мужчина шестидесяти лет с лихорадкой кашлем и одышкой в течение трёх дней").split()


@pytest.mark.parametrize(
    "text,expected",
    [
        (" ".join(_RUSSIAN), 13),  # genuine: one word a word
        ("बुखार, खांसी और सांस फूलने की शिकायत है।", 8),  # Hindi: vowel signs belong to their word
        ("بیمار مردی شصت‌ساله است", 5),  # Persian: the zero-width non-joiner parts a word as before
        ("ο ασθενής έχει πυρετό", 4),  # Greek
        ("β-blocker and α-agonist", 3),  # a Greek letter in English prose: one run as before
        ("-".join(_RUSSIAN), 13),  # hack: hyphen-joined words still count their words
        ("".join(w.capitalize() for w in _RUSSIAN), 13),  # camel case, one-letter words included ("СЛихорадкой": 2)
        ("".join(_RUSSIAN), 5),  # no separator at all: ceil(65 / 16), as a Latin run
        ("\u0640".join(["the", "patient", "is", "a", "man"]), 9),  # Latin words joined by the tatweel: a word each
        ("患者有胸痛", 5),  # a script without spaces: one word a character, unchanged
    ],
)
def test_word_count_spaced_scripts(text, expected):
    from polyreward.verifiers.text_forms import word_count

    assert word_count(text) == expected


def test_overlong_russian_summary_is_as_long_as_its_words():
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    camel = "".join(w.capitalize() for w in _RUSSIAN * 9)
    assert reward(completions=[" ".join(_RUSSIAN * 5), " ".join(_RUSSIAN * 9), camel]) == [0.0, -1.0, -1.0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="абвгдежзиклмнопрстуфхцчшщыэюя", min_size=1, max_size=40), max_size=30),
       st.sampled_from([" ", "\n", "_", "\u200b", "\u2060", "\ufeff", " \u200b "]))
def test_spaced_script_word_count_does_not_depend_on_the_separator(words, separator):
    """Cyrillic words joined by any separator, visible or not, count as Latin words do: ceil(n / 16) a run."""
    from polyreward.verifiers.text_forms import word_count

    assert word_count(separator.join(words)) == sum(-(-len(w) // 16) for w in words)
