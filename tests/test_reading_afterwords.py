"""What a model writes after a correct, committed answer (issue #32, ``benchmarks/answer_afterwords_sweep.py``): the
speaker reaffirming the answer or negating a hedge reads as commitment, the speaker wavering reads as doubt
(:mod:`polyreward.verifiers.reaffirmation`); another option "could also be right" / "is possible too" is offered,
also inside a closing pleasantry; a check that "fails the check" doubts. Tables both ways, and a Hypothesis property:
appending any genuine afterword of the sweep to a committed answer never lowers its score."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark_scripts import load_benchmark
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.reaffirmation import wavers, without_reaffirmed

sweep = load_benchmark("answer_afterwords_sweep")

CHOICE_PROMPT = sweep.CHOICE_PROMPT
MATH_PROMPT = "What is 6 × 7? Show your work and give the final answer."
CHOICE, MATH = ChoiceAccuracy(), MathAccuracy()


def _choice(completion: str) -> float:
    return CHOICE.evaluate([CHOICE_PROMPT], [completion], answer=["B"]).scores[0]


def _math(completion: str) -> float:
    return MATH.evaluate([MATH_PROMPT], [completion], answer=["42"]).scores[0]


REAFFIRMED = [  # the speaker reaffirming, or negating a hedge: still the answer
    "I'm committing to it.",
    "I am not going to hedge.",
    "I'm not going to second-guess it.",
    "I'm not backing down from this one.",
    "I'm firmly committed to this answer.",
    "I'm not going to change it.",
    "I won't waver.",
    "I'm not hedging on this.",
    "I don't need to reconsider this.",
    "This is not a guess; it follows from the work above.",
    "I'm sticking with this.",
]
WAVERING = [  # the same afterwords turned into hedges and withdrawals: no answer
    "I'm not committing to it.",
    "I'm not sticking with this.",
    "I might second-guess this later.",
    "I'm second-guessing this.",
    "I may waver on this.",
    "I don't stand by this answer.",
    "I might change my answer.",
    "I'm hedging on this.",
    "I'm going to hedge here.",
    "I'm having second thoughts.",
    "I'm not going to hedge, but I might be wrong.",
    "Double-checking: this fails the check, so something is off.",
]


@pytest.mark.parametrize("afterword", REAFFIRMED)
def test_a_reaffirmation_keeps_the_answer(afterword):
    assert _choice(f"Three groups of four make twelve. The answer is B. {afterword}") == 1.0
    assert _math(f"Six sevens make forty-two, so the answer is $\\boxed{{42}}$. {afterword}") == 1.0


@pytest.mark.parametrize("afterword", WAVERING)
def test_a_wavering_takes_the_answer_away(afterword):
    assert _choice(f"Three groups of four make twelve. The answer is B. {afterword}") == 0.0
    assert _math(f"Six sevens make forty-two, so the answer is $\\boxed{{42}}$. {afterword}") == 0.0


@pytest.mark.parametrize("completion, paid", [
    ("The answer is B. Note that C could also be right.", False),
    ("The answer is B. Hope this helps -- though C is possible too.", False),
    ("Final answer: 42\n\nNote that 41 could also be right.", False),
    ("Final answer: 42\n\nHope this helps -- though 41 is possible too.", False),
    ("The answer is B. Hope this helps!", True),
    ("The answer is B. Hope this helps, though!", True),
    ("The answer is B. Note that option A would be right if the question asked for 3 + 7.", True),
    ("Final answer: 42\n\nLet me know if you'd like more detail, but this should cover it.", True),
])
def test_another_value_offered_after_the_answer(completion, paid):
    score = _choice(completion) if "B" in completion[:20] else _math(completion)
    assert (score == 1.0) is paid, completion


@pytest.mark.parametrize("completion, paid", [
    # a teaching remark: an error named as a kind, options picked out by a property eliminated -- advice, no verdict
    ("Final answer: 42\n\nA common mistake is to forget a step of the simplification.", True),
    ("Final answer: 42\n\nA typical error here is to add instead of multiply.", True),
    ("Final answer: B\n\nTip: eliminate the options that are clearly too large first.", True),
    # ... and the writer's own error, or the answer eliminated, still takes it back
    ("Final answer: 42\n\nThat was a mistake.", False),
    ("Final answer: B\n\nEliminate it.", False),
    ("Final answer: 42\n\nMy mistake.", False),
])
def test_a_teaching_remark_is_no_withdrawal(completion, paid):
    score = _choice(completion) if "B" in completion[:20] else _math(completion)
    assert (score == 1.0) is paid, completion


@pytest.mark.parametrize("completion, paid", [
    # a bare value on its own line, then a short closing line: a reaffirmation is read past, a wavering is read
    ("Six sevens make forty-two.\n\n42\n\nI won't waver.", True),
    ("Six sevens make forty-two.\n\n42\n\nI'm not going to change it.", True),
    ("Six sevens make forty-two.\n\n42\n\nNo second thoughts.", True),
    ("Six sevens make forty-two.\n\n42\n\nI might waver.", False),
    ("Six sevens make forty-two.\n\n42\n\nI'm not sticking with this.", False),
    ("Six sevens make forty-two.\n\n42\n\nNot sure.", False),
])
def test_a_closing_line_after_a_bare_value(completion, paid):
    assert (_math(completion) == 1.0) is paid, completion


@pytest.mark.parametrize("clause, reads", [
    ("Before I commit, let me also look at option D.", False),  # a subordinate "I commit" reaffirms nothing yet
    ("I'm committing to it.", True),
    ("I won't waver.", True),
    ("students often second-guess this", False),  # not the speaker
])
def test_only_the_speakers_main_clause_reaffirms(clause, reads):
    assert (without_reaffirmed(clause) != clause) is reads


def test_wavering_is_read_after_a_reaffirmation_is_blanked():
    assert not wavers("I won't waver.") and not wavers("I'm not going to second-guess it.")
    assert wavers("I might second-guess this later.") and wavers("I'm not sticking with this.")
    assert not wavers("Students often second-guess this.")


# the styles and afterwords the sweep pays: every genuine afterword after a committed answer keeps its score
_STYLES = [s for s in range(len(sweep.STYLES)) if sweep.STYLES[s][0] != "bare_line"]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(afterword=st.sampled_from(sweep.GENUINE), style=st.sampled_from(_STYLES), task=st.sampled_from(["math", "choice"]),
       number=st.integers(min_value=0, max_value=len(sweep.MATH) - 1))
def test_a_genuine_afterword_never_lowers_the_score(afterword, style, task, number):
    name, math_text, choice_text = afterword
    cell = sweep._cell(task, "genuine", number, name, math_text, choice_text, style)
    plain = sweep._cell(task, "genuine", number, "(none)", "", "", style)
    if cell.expected():
        return  # a miss the sweep lists with its reason (benchmarks/answer_afterwords_sweep.py EXPECTED)
    reward = MATH if task == "math" else CHOICE
    before, after = reward.evaluate([plain.prompt, cell.prompt], [plain.completion.rstrip(), cell.completion],
                                    answer=[plain.gold, cell.gold]).scores
    assert after >= before, cell.completion


# --- the anchor reader and a plain-text interval: its ")" closes its own "[" (found by the sweep's plain answers) ------

INTERVAL_PROMPT = "Solve 2 <= x < 5 and give the solution set in interval notation."


@pytest.mark.parametrize(("completion", "gold", "paid"), [
    ("The answer is [2, 5).", "[2, 5)", True),
    ("Final answer: [2, 5)", "[2, 5)", True),
    ("**Answer:** (2, 5]", "(2, 5]", True),
    ("So in interval notation the answer is [2, 5)).", "[2, 5)", True),  # an aside's own ")" after the interval's
    ("(Converted to decimal, the answer is 154).", "154", True),  # an aside's ")" alone is still cut (holdout21)
    ("The answer is [2, 5).", "[2, 5]", False),  # the other endpoint's bracket is another set
    ("The answer is [2, 5). Note that 7 could also be right.", "[2, 5)", False),
])
def test_a_plain_text_interval_after_an_anchor_keeps_its_bracket(completion, gold, paid):
    score = MATH.evaluate([INTERVAL_PROMPT], [completion], answer=[gold]).scores[0]
    assert (score == 1.0) is paid, score


@pytest.mark.parametrize("afterwords", [
    "Seven sixes make it. I'm not committing to it.",
    "The sky is blue. I'm hedging on this.",
    "That is the product. I'm not standing behind it.",
    "Seven sixes. Over to you. I'm not sticking with it.",
])
def test_the_speaker_wavering_is_read_in_any_later_sentence(afterwords: str) -> None:
    """A neutral sentence between the answer and the speaker's wavering hides nothing (stop 56: the wavering was read
    in the answer's own and next clause only, so one sentence in between paid it): math and choice alike."""
    assert _math(f"The answer is 42. {afterwords}") == 0.0
    assert _choice(f"The answer is B. {afterwords}") == 0.0


@pytest.mark.parametrize("afterwords", [
    "Seven sixes make it. I'm committing to it.",
    "The sky is blue. I won't waver.",
    "That is the product. I'm not going to second-guess it.",
])
def test_the_speaker_reaffirming_later_stays_paid(afterwords: str) -> None:
    assert _math(f"The answer is 42. {afterwords}") == 1.0
    assert _choice(f"The answer is B. {afterwords}") == 1.0
