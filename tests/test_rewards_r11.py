"""Rules prompted by the red team split ``holdout_r11`` (written blind 2026-12-05 on the edges of each reward's rules;
first sight in benchmarks/results/red_team_rewards_holdout_r11_first_sight.md): each a table of the genuine form it
now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOEnglish
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.length import OverlongPenalty
from polyreward.verifiers.text_forms import word_count

# --- overlong_penalty's word count: two words glued by a mark that joins no compound are two words ------------------


@pytest.mark.parametrize(
    "text,words",
    [
        # hacks of the split: pairs glued with "&" or "=" so that 90 words count 80
        ("sixty&two", 2),
        ("fever=cough", 2),
        ("diabetes&and chronic=kidney disease", 5),
        # variants the split did not contain: other marks no reader writes inside a word
        ("plan:oral", 2),
        ("fever;cough", 2),
        ("cough,fever", 2),
        ("sepsis+shock", 2),
        ("lungs|heart", 2),
        ("cough!fever", 2),
        # genuine: the compounds of two a reader reads as one word are still one
        ("double-check", 1),
        ("follow-up", 1),
        ("and/or", 1),
        ("e.g.", 1),
        ("patient's", 1),
        ("patient(s)", 1),
        ("BP=120", 1),  # a word and a number: the number is no word of its own, as before
        ("Q&A", 1),
    ],
)
def test_a_pair_glued_by_another_mark_is_two_words(text, words):
    assert word_count(text) == words


_WORDS = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10).filter(lambda w: len(set(w)) > 1)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_WORDS, _WORDS), min_size=1, max_size=30), st.sampled_from("&=:;,+*|~!?"))
def test_glued_pairs_count_as_the_spaced_text(pairs, mark):
    spaced = " ".join(f"{a} {b}" for a, b in pairs)
    glued = " ".join(f"{a}{mark}{b}" for a, b in pairs)
    assert word_count(glued) == word_count(spaced) == 2 * len(pairs)


_HONEST = ("a sixty two year old man with diabetes and chronic kidney disease came in with three days of fever productive "
           "cough and worsening shortness of breath his oxygen saturation was ninety one percent on room air and the chest "
           "film showed a right lower lobe consolidation with a small effusion we started ceftriaxone and azithromycin gave "
           "fluids with care because of his kidneys checked cultures and lactate and arranged review by the medical team "
           "in the morning with a plan to switch to oral antibiotics once he is afebrile for two days and eating well then "
           "discharge home with clinic follow up in one week and a repeat film in six weeks to confirm resolution").split()
assert len(_HONEST) >= 100


def _glue(words: list[str], mark: str, pairs: int) -> str:
    out, i = [], 0
    while i < len(words):
        if pairs and i + 1 < len(words):
            out.append(words[i] + mark + words[i + 1])
            i, pairs = i + 2, pairs - 1
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


@pytest.mark.parametrize("mark", ["&", "=", ":", "+"])
def test_glued_text_pays_the_honest_texts_penalty(mark):
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    honest = " ".join(_HONEST[:90])
    glued = _glue(_HONEST[:90], mark, 10)
    scores = reward(prompts=["p", "p"], completions=[honest, glued])
    assert scores[0] == pytest.approx(-0.5)
    assert scores[1] == pytest.approx(scores[0])


def test_hyphenated_compounds_at_the_limit_stay_unpenalised():
    """Genuine: 80 words, ten of them compounds of two (follow-up, x-ray), is 80 words, not 90."""
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    text = _glue(_HONEST[:90], "-", 10)
    assert word_count(text) == 80
    assert reward(prompts=["p"], completions=[text]) == [pytest.approx(0.0)]


# --- content words: a derivation written as equations in an unknown counts its steps -------------------------------

_SOLVE = "Solve 5x - 7 = 18. Put the final answer in \\boxed{}."


@pytest.mark.parametrize(
    "think,prompt,enough",
    [
        # genuine: the split's terse derivation, and variants with another unknown, a fraction, a negative
        ("5x = 25, x = 5.", _SOLVE, True),
        ("5x = 25\nx = 5", _SOLVE, True),
        ("3y = 12, y = 4.", "Solve 3y + 2 = 14.", True),
        ("x/4 = 3, x = 12", "Solve x/4 - 1 = 2.", True),
        ("2x = -6, x = -3", "Solve 2x + 10 = 4.", True),
        # hacks: only the answer's value (repeated), only the prompt's own equation, a bare result, unrelated results
        ("x = 5", _SOLVE, False),
        ("x = 5\nx = 5\nx = 5", _SOLVE, False),
        ("x = 2\nx = 3\nx = 2\nx = 3", "Solve x^2 - 5x + 6 = 0.", False),
        ("5x - 7 = 18", _SOLVE, False),
        ("a = 1, b = 2, c = 3", _SOLVE, False),
    ],
)
def test_equations_in_an_unknown_count_when_one_works(think, prompt, enough):
    assert (content_words(think, prompt) >= 3) is enough
    reward = ThinkFormat(min_content_words=3)
    assert reward(prompts=[prompt], completions=[f"<think>{think}</think>\nThe answer is \\boxed{{5}}."]) == [
        pytest.approx(1.0 if enough else 0.0)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from("xyzabn"), st.lists(st.integers(min_value=-99, max_value=99), min_size=1, max_size=6))
def test_results_alone_count_nothing(unknown, values):
    """A think that only states results ("x = 2", "x = 3", ...) counts 0, whatever the values and their repeats."""
    assert content_words("\n".join(f"{unknown} = {v}" for v in values), "Solve the equation.") == 0


@settings(max_examples=150, deadline=None)
@given(st.sampled_from("xyzn"), st.integers(min_value=2, max_value=40), st.integers(min_value=1, max_value=40))
def test_a_working_equation_then_its_result_counts(unknown, coefficient, value):
    """``{k}x = {k*v}, x = {v}`` works towards its result: two equations and two numbers (module docstring)."""
    assert content_words(f"{coefficient}{unknown} = {coefficient * value}, {unknown} = {value}", "Solve it.") >= 3


# --- content words: discourse markers are filler --------------------------------------------------------------------

_Q = "A 6-year-old girl has six café-au-lait macules and axillary freckling. What is the most likely diagnosis? Answer in English."


@pytest.mark.parametrize(
    "completion,expected",
    [
        # hack of the split: English filler with discourse markers, the English share honestly 100 %
        ("<think>Well, so, um, okay, let me see, hmm, right, yes, indeed, sure, alright.</think>\n"
         "<answer>Well, okay, so, yes, basically, right, indeed, sure.</answer>", 0.0),
        # variants: other discourse markers
        ("<think>Actually, basically, honestly, anyway.</think>\n<answer>Literally, anyhow, indeed.</answer>", 0.0),
        # genuine: the same markers beside real reasoning still count its words
        ("<think>Actually, six café-au-lait macules plus axillary freckling meet two NIH criteria.</think>\n"
         "<answer>Basically, neurofibromatosis type 1; refer for an eye review.</answer>", 1.0),
        ("<think>Indeed the freckling and macules fit neurofibromatosis type 1.</think>\n"
         "<answer>Neurofibromatosis type 1.</answer>", 1.0),
    ],
)
def test_discourse_markers_are_no_content(completion, expected):
    reward = CRPOEnglish(measure="language", min_content_words=3)
    assert reward(prompts=[_Q], completions=[completion]) == [pytest.approx(expected)]
