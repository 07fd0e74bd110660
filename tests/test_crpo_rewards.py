"""Clinical-R1 (CRPO) rewards: tables of real-looking MedQA / MedMCQA / PubMedQA completions per reward, and the
exact rewards against the released code re-typed below (BoyangGu1/Clinical-R1-3B,
verl/utils/reward_score/medical_rule_based.py @ 5c068fdfa1f1bf7fa614a622136403ed18a7ea1d) on generated completions."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward import registry
from polyreward.config import parse_config
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness
from polyreward.rewards.crpo import CRPOAccuracy, CRPOEnglish, CRPOFormat

# ------------------------------------------------------------------ the released code, re-typed
LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"]


def released_accuracy(solution_str, gt_choice):
    if solution_str.count("\\boxed") == 1:
        match = re.search(r"\\boxed\{(.*?)\}", solution_str)
        if match:
            answer = match.group(1)
            if answer in LETTERS:
                accuracy_reward = 1.0 if answer == gt_choice else 0.0
            else:
                accuracy_reward = -0.5
        else:
            accuracy_reward = -1.0
    else:
        accuracy_reward = -solution_str.count("\\boxed")
    return accuracy_reward


def released_english(solution_str):
    english_chars = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,!?;:'\"()[]{}<>-_/\\|`~@#$%^&*+=~0123456789 \n")
    english_text = "".join(char for char in solution_str if char in english_chars)
    if len(solution_str) == 0:
        return 0.0
    return len(english_text) / len(solution_str)


def released_summary_and_box(s):
    s = s.strip()
    matches = re.findall(r"(\\boxed\{.*?\})", s)
    if len(matches) == 1:
        return matches[0] != s
    return False


def released_format(solution_str):
    match = re.search(r"^<think>.*?</think>\s*<answer>(.*?)</answer>$", solution_str, re.DOTALL)
    if match:
        format_reward = 1.0
        if released_summary_and_box(match.group(1)):
            format_reward += 0.5
    else:
        format_reward = 0.0
    return format_reward


def released_preprocess(solution_str, eos_token, add_bo_think_token):
    solution_str = solution_str.split(eos_token)[0].strip()
    solution_str = solution_str.replace("<\\think>", "</think>")
    solution_str = solution_str.replace("<\\answer>", "</answer>")
    if "## Final Response" in solution_str:
        solution_str = solution_str.split("## Final Response")[1].strip()
    if add_bo_think_token:
        solution_str = "<think>" + solution_str
    return solution_str


def released_compute_score(solution_str, ground_truth, add_bo_think_token, eos_token):
    """``compute_score`` for a train-split question (logging left out): 10·acc + fmt + 0.5·eng."""
    gt_choice = ground_truth.split("<SEP>", 1)[0]
    s = released_preprocess(solution_str, eos_token, add_bo_think_token)
    return released_accuracy(s, gt_choice) * 10 + released_format(s) + released_english(s) * 0.5


# ------------------------------------------------------------------ tables of completions
MEDQA_OPTIONS = (
    "A. Disclose the error to the patient but leave it out of the operative report\n"
    "B. Disclose the error to the patient and put it in the operative report\n"
    "C. Tell the attending that he cannot fail to disclose this mistake\n"
    "D. Report the physician to the ethics committee\n"
    "E. Refuse to dictate the operative report"
)
GOOD = (
    "<think>\nThe resident must be honest. Option A hides the error from the record, D escalates too early, and E is "
    "passive. B would be right eventually, but the first step is to talk to the attending. So the answer is C.\n</think>\n"
    "<answer>\nThe resident should first tell the attending that the mistake must be disclosed. \\boxed{C}\n</answer>"
)
EOS = "<|im_end|>"

ACCURACY_TABLE = [
    (GOOD, "C", 1.0),
    (GOOD, "B", 0.0),
    ("<think>x</think><answer>\\boxed{c}</answer>", "C", -0.5),  # lower case is not a letter answer
    ("<think>x</think><answer>\\boxed{C.}</answer>", "C", -0.5),
    ("<think>x</think><answer>\\boxed{ C }</answer>", "C", -0.5),
    ("<think>x</think><answer>\\boxed{\\text{C}}</answer>", "C", -0.5),  # the lazy regex stops at the inner brace
    ("<think>x</think><answer>The answer is \\boxed C</answer>", "C", -1.0),  # one \boxed but no braces
    ("<think>x</think><answer>C</answer>", "C", 0.0),  # no box at all
    ("<think>maybe \\boxed{B}</think><answer>\\boxed{C}</answer>", "C", -2.0),
    ("\\boxed{A} \\boxed{B} \\boxed{C}", "C", -3.0),
    ("The answer is \\boxed{C}" + EOS + "\\boxed{D}", "C", 1.0),  # cut at EOS first
    ("## Final Response\nThe answer is \\boxed{C}", "C", 1.0),
    ("<think>Hmm \\boxed{A}</think>\n## Final Response\n\\boxed{C}", "C", 1.0),  # HuatuoGPT: only after the marker
]
FORMAT_TABLE = [
    (GOOD, 1.5),
    ("<think>reasoning</think><answer>\\boxed{C}</answer>", 1.0),  # a box without a summary
    ("<think>reasoning</think>\n\n<answer>So C. \\boxed{C}</answer>", 1.5),
    ("<think>reasoning<\\think><answer>So C. \\boxed{C}<\\answer>", 1.5),  # <\think> normalised
    ("<think>reasoning</think><answer>C \\boxed{C} or \\boxed{D}</answer>", 1.0),
    ("<think>reasoning</think><answer>C</answer>", 1.0),
    ("<think>reasoning</think><answer>So C. \\boxed{C}</answer> trailing text", 0.0),
    ("reasoning</think><answer>So C. \\boxed{C}</answer>", 0.0),
    ("<think>reasoning</think>", 0.0),
    ("<think>reasoning</think><answer>So C. \\boxed{C}</answer>" + EOS + "junk", 1.5),
    ("   <think>reasoning</think><answer>So C. \\boxed{C}</answer>\n\n", 1.5),  # stripped first
]
ENGLISH_TABLE = [
    (GOOD, 1.0),
    ("", 0.0),
    ("<think>患者</think>", 15 / 17),
    ("The answer is C — clearly.", 25 / 26),  # the em dash is not in the whitelist
    ("Température élevée", 15 / 18),
]


@pytest.mark.parametrize("completion, gold, expected", ACCURACY_TABLE)
def test_accuracy_table(completion, gold, expected):
    reward = CRPOAccuracy(eos_token=EOS)
    assert reward(completions=[completion], answer=[gold]) == [expected]


@pytest.mark.parametrize("completion, expected", FORMAT_TABLE)
def test_format_table(completion, expected):
    assert CRPOFormat(eos_token=EOS)(completions=[completion]) == [expected]


@pytest.mark.parametrize("completion, expected", ENGLISH_TABLE)
def test_english_table(completion, expected):
    assert CRPOEnglish()(completions=[completion]) == [pytest.approx(expected)]


def test_prefilled_think_prepends_the_opening_tag():
    completion = "reasoning</think><answer>So C. \\boxed{C}</answer>"
    assert CRPOFormat(prefilled_think=True)(completions=[completion]) == [1.5]
    assert CRPOFormat()(completions=[completion]) == [0.0]


def test_accuracy_needs_a_letter_gold():
    out = CRPOAccuracy().evaluate([None, None], [GOOD, GOOD], answer=["yes", None])
    assert out.scores == [None, None] and "not a single capital letter" in out.reasons[0]


def test_chat_message_completions():
    messages = [{"role": "assistant", "content": GOOD}]
    assert CRPOAccuracy()(completions=[messages], answer=["C"]) == [1.0]


# ------------------------------------------------------------------ generated completions vs the released code
FRAGMENTS = [
    "<think>", "</think>", "<\\think>", "<answer>", "</answer>", "<\\answer>", "\\boxed{", "\\boxed", "}", "{", "A", "B", "C",
    "c", "AB", " ", "\n", "The answer is ", "Option ", ". ", "\\text{", "## Final Response", EOS, "患者", "é", "—", "١", "🙂",
    "so", "mitral stenosis", "\t", "$", "\\\\",
]
completions = st.one_of(st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("".join), st.text(max_size=80))
EXACT = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@EXACT
@given(batch=st.lists(completions, min_size=1, max_size=5), gold=st.sampled_from(LETTERS[:5]), prefilled=st.booleans())
def test_each_reward_equals_the_released_function(batch, gold, prefilled):
    kwargs = {"eos_token": EOS, "prefilled_think": prefilled}
    cleaned = [released_preprocess(c, EOS, prefilled) for c in batch]
    assert CRPOAccuracy(**kwargs)(completions=batch, answer=[gold] * len(batch)) == [released_accuracy(s, gold) for s in cleaned]
    assert CRPOFormat(**kwargs)(completions=batch) == [released_format(s) for s in cleaned]
    assert CRPOEnglish(**kwargs)(completions=batch) == [released_english(s) for s in cleaned]


@EXACT
@given(batch=st.lists(completions, min_size=1, max_size=5), gold=st.sampled_from(LETTERS[:5]))
def test_released_weights_reproduce_compute_score(batch, gold):
    """The recipe's rewards with weights 10 / 1 / 0.5 sum to the released train-split ``compute_score``."""
    config = parse_config({"rewards": [
        {"name": "accuracy", "type": "crpo_accuracy", "weight": 10, "eos_token": EOS},
        {"name": "format", "type": "crpo_format", "weight": 1, "eos_token": EOS},
        {"name": "english", "type": "crpo_english", "weight": 0.5, "eos_token": EOS},
    ]})
    rewards = config.build_rewards()
    ours = [sum(r.weight * r(completions=[c], answer=[gold])[0] for r in rewards) for c in batch]
    expected = [released_compute_score(c, f"{gold}<SEP>train-0<SEP>x<SEP>y", False, EOS) for c in batch]
    assert ours == pytest.approx(expected, abs=1e-12)


# ------------------------------------------------------------------ reconstructed: faithfulness
STROKE_OPTIONS = {"A": "Aspirin", "B": "Heparin", "C": "Warfarin", "D": "Alteplase"}
FAITHFULNESS_TABLE = [
    (GOOD, MEDQA_OPTIONS, 1.0, "concludes C, as answered"),
    (GOOD.replace("\\boxed{C}", "\\boxed{B}"), MEDQA_OPTIONS, 0.0, "concludes C but the answer is B"),
    ("<think>Several options look plausible here.</think><answer>\\boxed{C}</answer>", MEDQA_OPTIONS, 0.5, "concludes no option"),
    ("<think>Option F, observation, is best. The answer is C.</think><answer>\\boxed{C}</answer>", MEDQA_OPTIONS, 0.0, "option F does not exist"),
    ('<think>Option C ("tell the attending he cannot fail to disclose") fits. The answer is C.</think><answer>\\boxed{C}</answer>',
     MEDQA_OPTIONS, 1.0, "as answered"),
    ('<think>Option C ("give intravenous alteplase") fits. The answer is C.</think><answer>\\boxed{C}</answer>',
     MEDQA_OPTIONS, 0.5, "is not option C"),
    ("<think>I am not sure.</think><answer>No idea.</answer>", MEDQA_OPTIONS, 0.0, "no final answer"),
    ("<think>Hmm.</think><answer>\\boxed{G}</answer>", MEDQA_OPTIONS, 0.0, "not one of the options"),
    ("<think>Alteplase within 4.5 hours. The correct answer is D.</think><answer>Thrombolysis. \\boxed{D}</answer>", STROKE_OPTIONS, 1.0,
     "concludes D"),
    # PubMedQA: no options -> yes / no / maybe
    ("<think>The cohort shows a clear association, so the answer is yes.</think><answer>\\boxed{yes}</answer>", None, 1.0, "concludes yes"),
    ("<think>The evidence is mixed; the answer is maybe.</think><answer>\\boxed{no}</answer>", None, 0.0, "concludes maybe but the answer is no"),
    ("<think>Outcomes differ by site.</think><answer>maybe</answer>", None, 0.5, "concludes no option"),
]


@pytest.mark.parametrize("completion, options, expected, reason", FAITHFULNESS_TABLE)
def test_faithfulness_table(completion, options, expected, reason):
    out = ClinicalFaithfulness().evaluate([None], [completion], options=[options])
    assert out.scores == [pytest.approx(expected)], out.reasons
    assert reason in out.reasons[0]


# ------------------------------------------------------------------ reconstructed: comprehensiveness
COMPREHENSIVENESS_TABLE = [
    (GOOD, MEDQA_OPTIONS, 1.0),
    ("<think>Option A hides the error. The answer is C.</think><answer>\\boxed{C}</answer>", MEDQA_OPTIONS, 2 / 5),
    ("<think>A. wrong\nB. wrong\nC. right\nD) too early</think><answer>\\boxed{C}</answer>", MEDQA_OPTIONS, 4 / 5),
    ("<think>Heparin risks bleeding; warfarin is chronic; aspirin later; alteplase now.</think><answer>\\boxed{D}</answer>", STROKE_OPTIONS, 1.0),
    ("<think>A patient with a stroke needs imaging first.</think><answer>\\boxed{D}</answer>", STROKE_OPTIONS, 0.0),  # the article "A"
    ("<think>Nothing to weigh.</think><answer>\\boxed{D}</answer>", STROKE_OPTIONS, 0.0),
    ('<think>"Yes" needs a trial; no, the cohort is small; maybe is most likely.</think><answer>\\boxed{maybe}</answer>', None, 1.0),
    ("<think>There is no randomised evidence, so the answer is no.</think><answer>no</answer>", None, 1 / 3),
    ("<think>The data are clear.</think><answer>yes</answer>", None, 0.0),
]


@pytest.mark.parametrize("completion, options, expected", COMPREHENSIVENESS_TABLE)
def test_comprehensiveness_table(completion, options, expected):
    out = ClinicalComprehensiveness().evaluate([None], [completion], options=[options])
    assert out.scores == [pytest.approx(expected)], out.reasons


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(st.one_of(completions, st.none()), min_size=1, max_size=4),
       options=st.one_of(st.none(), st.just(MEDQA_OPTIONS), st.just(STROKE_OPTIONS), st.text(max_size=30)))
def test_reconstructed_rewards_stay_in_range_on_hostile_text(batch, options):
    for reward in (ClinicalFaithfulness(), ClinicalComprehensiveness()):
        out = reward.evaluate([None] * len(batch), batch, options=[options] * len(batch))
        for score, reason in zip(out.scores, out.reasons):
            assert score is not None and (0.0 <= score <= 1.0 or (math.isnan(score) and reason)), (score, reason)


# ------------------------------------------------------------------ registry / listing
@pytest.mark.parametrize("name, exactness", [
    ("crpo_accuracy", "exact"), ("crpo_format", "exact"), ("crpo_english", "exact"),
    ("clinical_faithfulness", "reconstructed"), ("clinical_comprehensiveness", "reconstructed"),
])
def test_registered_with_source_and_tag(name, exactness):
    from polyreward.cli.list_types import describe

    cls = registry.reward_class(name)
    assert cls.exactness == exactness
    row = next(r for r in describe("rewards") if r[0] == name)
    assert row[1] == exactness and ("Clinical-R1-3B" in row[2] or "2512.00601" in row[2])


def test_bad_parameters_are_clear_errors():
    with pytest.raises(ValueError, match="eos_token"):
        CRPOAccuracy(eos_token="")
    with pytest.raises(ValueError, match="options_column"):
        ClinicalFaithfulness(options_column=3)


RECIPE_ENGLISH = [
    # the shipped CRPO recipes measure English, not length: a short English answer is as English as a long one
    ("<answer>Tell the attending. \\boxed{C}</answer>", 1.0),
    ("<think>Disclosure is required; the attending cannot waive it.</think><answer>Tell the attending. \\boxed{C}</answer>", 1.0),
    ("<answer>Checked against every condition. So far the running value is C", 1.0),  # the format reward charges this
    # junk and other languages stay refused
    ("zzzz zzzz zzzz", 0.0),
    ("<answer>\\boxed{C}</answer>", 0.0),  # no word at all
    ("<think>Der Patient hat Brustschmerzen, die in den linken Arm ausstrahlen.</think><answer>Die Antwort ist \\boxed{B}</answer>", 0.0),
]


@pytest.mark.parametrize("completion, expected", RECIPE_ENGLISH)
def test_recipe_english_measures_language_not_length(completion, expected):
    """examples/train/medqa_crpo*.yaml: ``min_content_words: 1`` on crpo_english (3 charged a short answer for its
    length, so dropping the reasoning looked like an English exploit to the probe; the format reward needs 3)."""
    from pathlib import Path

    import yaml

    for recipe in ("medqa_crpo.yaml", "medqa_crpo_drpo.yaml"):
        spec = yaml.safe_load((Path(__file__).parents[1] / "examples" / "train" / recipe).read_text())
        english = next(r for r in spec["rewards"] if r["type"] == "crpo_english")
        reward = CRPOEnglish(min_content_words=english["min_content_words"], measure=english["measure"])
        assert reward(completions=[completion]) == [pytest.approx(expected)]


# red team holdout_r1: a lone Greek letter in English prose is a symbol (µg, β-blocker), a Greek sentence is Greek
@pytest.mark.parametrize(
    "text,expected",
    [
        ("<think>The dose of 5 µg/kg is not relevant to this presentation.</think>\n<answer>Obtain an ECG now.</answer>", 1.0),
        ("<think>Start a β-blocker and check TNF-α levels in this patient.</think>\n<answer>Start the β-blocker.</answer>", 1.0),
        ("<think>Η ασθένεια είναι σοβαρή και χρειάζεται άμεση θεραπεία.</think>\n<answer>Η θεραπεία.</answer>", 0.0),
    ],
)
def test_english_language_greek_symbols(text, expected):
    assert CRPOEnglish(measure="language")(completions=[text]) == [pytest.approx(expected)]


# red team holdout_r8: a block quote is set aside from the reading as someone else's words, but it is text of the
# answer: a passage in another Latin-script language there counts as not English; an English quote is no cost
_GERMAN_QUOTE = ("> Fachinformation: Bei Patienten mit nicht-valvulärem Vorhofflimmern und mindestens zwei der folgenden "
                 "Merkmale beträgt die empfohlene Dosis zweimal täglich 2,5 mg.\n> Bei einer Kreatinin-Clearance von 15 "
                 "bis 29 ml/min ist Vorsicht geboten.\n\n")
_ENGLISH_QUOTE = ("> Label: In patients with non-valvular atrial fibrillation and at least two of the following "
                  "characteristics, the recommended dose is 2.5 mg twice daily.\n\n")


@pytest.mark.parametrize(
    "quote,english",
    [
        (_GERMAN_QUOTE, False),  # hack: the reasoning in German, quoted, beside a one-line English answer
        (_ENGLISH_QUOTE, True),  # genuine: an English passage quoted
        ("> \"No chest pain,\" she said.\n\n", True),  # a short English quote
    ],
)
def test_english_language_reads_block_quotes(quote, english):
    text = f"<think>The label settles the dose.</think>\n<answer>\n{quote}Apixaban 2.5 mg BID.\n</answer>"
    score = CRPOEnglish(measure="language")(completions=[text])[0]
    assert (score == pytest.approx(1.0)) is english
    if not english:
        assert score < 0.5
