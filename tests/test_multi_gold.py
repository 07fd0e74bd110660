"""Several acceptable golds: a list in ``answer_column`` is a list of alternatives (open-instruct #596, rLLM).

``match: any`` (the default) scores the best gold and ``match: all`` the worst; the reason names the deciding gold
(1-based) and the details hold each gold's score (``gold_scores``) and the deciding index (``gold_index``, 0-based).
One table of real cases per reward (Math-Verify style): a regression is one more row.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.engine import WorkerPool
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.golds import alternatives, deciding


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(workers=1, timeout=5.0) as p:
        yield p


def _one(reward, completion, gold, **columns):
    out = reward.evaluate([None], [completion], answer=[gold], **{k: [v] for k, v in columns.items()})
    details = {k: v[0] for k, v in out.details.items()}
    return out.scores[0], out.reasons[0], details


MATH_CASES = [
    # completion, gold, match, score, deciding gold index, reason starts with
    ("\\boxed{0.5}", ["1/3", "1/2"], "any", 1.0, 1, "gold 2 of 2 ('1/2') matched: equal"),
    ("The answer is $\\frac{\\sqrt{2}}{2}$", ["\\frac{1}{\\sqrt{2}}", "0.7071"], "any", 1.0, 0, "gold 1 of 2"),
    ("\\boxed{x=2}", ["2", "x=2", "two"], "any", 1.0, 0, "gold 1 of 3 ('2') matched"),
    ("\\boxed{0.6}", ["1/2", "0.5"], "any", 0.0, 0, "no gold matched; gold 1 of 2 ('1/2'): not_equal"),
    ("\\boxed{3}", ["\\frac{6}{2}", "3.0", "3"], "all", 1.0, 0, "gold 1 of 3 ('\\\\frac{6}{2}') is the weakest"),
    ("\\boxed{3}", ["3", "4"], "all", 0.0, 1, "gold 2 of 2 ('4') is the weakest: not_equal"),
    ("\\boxed{3}", ("3", None, " "), "any", 1.0, 0, "gold 1 of 1 ('3') matched"),  # None and blanks are dropped
    ("\\boxed{3}", [None, " "], "any", None, None, "no usable gold in the list"),
]


@pytest.mark.parametrize("completion, gold, match, score, index, reason", MATH_CASES)
def test_math_accuracy_multi_gold_table(pool, completion, gold, match, score, index, reason):
    got, why, details = _one(MathAccuracy(engine=pool, match=match), completion, gold)
    assert (got, details["gold_index"]) == (score, index)
    assert why.startswith(reason), why
    usable = alternatives(gold)
    assert len(details["gold_scores"]) == len(usable)


def test_math_single_and_list_golds_in_one_batch(pool):
    """A batch mixing a plain gold and a gold list: the plain row reads as before, without per-gold details."""
    out = MathAccuracy(engine=pool).evaluate([None] * 3, ["\\boxed{3}", "\\boxed{1/2}", "\\boxed{7}"],
                                           answer=["3", np.array(["0.25", "0.5"]), ["8", "9"]])
    assert out.scores == [1.0, 1.0, 0.0]
    assert out.reasons[0].startswith("equal [numeric]") and out.details["gold_index"] == [None, 1, 0]
    assert out.details["gold_scores"] == [None, [0.0, 1.0], [0.0, 0.0]]


CHOICE_CASES = [
    ("The answer is (D).", ["B", "D"], "any", 1.0, 1, "gold 2 of 2 ('D') matched: equal [letter]"),
    ("Final answer: B", ["B. Aspirin", "D. Heparin"], "any", 1.0, 0, "gold 1 of 2 ('B. Aspirin') matched"),
    ("Answer: C", ["B", "D"], "any", 0.0, 0, "no gold matched; gold 1 of 2 ('B'): not_equal"),
    ("I think nothing fits", ["B", "D"], "any", 0.0, 0, "no gold matched; gold 1 of 2 ('B'): no_answer"),
    ("The answer is yes", ["yes", "maybe"], "any", 1.0, 0, "gold 1 of 2 ('yes') matched: equal [label]"),
    ("The answer is B", ["B", "D"], "all", 0.0, 1, "gold 2 of 2 ('D') is the weakest"),
    ("The answer is B", ["??", "B"], "any", 1.0, 1, "gold 2 of 2 ('B') matched"),  # an unreadable gold never decides
    ("The answer is B", ["??", "!!"], "any", None, None, "none of the 2 golds could be read: gold_unparseable"),
    ("The answer is B", [], "any", None, None, "no usable gold in the list in column 'answer'"),
]


@pytest.mark.parametrize("completion, gold, match, score, index, reason", CHOICE_CASES)
def test_choice_accuracy_multi_gold_table(completion, gold, match, score, index, reason):
    got, why, details = _one(ChoiceAccuracy(match=match), completion, gold)
    assert got == score and why.startswith(reason), why
    assert details.get("gold_index") == index


def test_choice_gold_list_with_options_column():
    options = "A. Rest\nB. Aspirin\nC. Surgery\nD. Heparin"
    got, why, details = _one(ChoiceAccuracy(options_column="options"), "I would give heparin.", ["B", "D"], options=options)
    assert (got, details["gold_scores"]) == (1.0, [0.0, 1.0]) and "gold 2 of 2 ('D') matched" in why


JACCARD_CASES = [
    # a list of label lists (or of <answer> blocks) lists alternatives; a flat list is ONE label set
    ("<answer>AF; HF</answer>", [["AF", "HF"], ["AF"]], "any", 1.0, 0, "gold 1 of 2"),
    ("<answer>AF</answer>", [["AF", "HF"], ["AF"]], "any", 1.0, 1, "gold 2 of 2 (\"['AF']\") matched: 1 of 1"),
    ("<answer>AF</answer>", [["AF", "HF"], ["AF"]], "all", 0.5, 0, "gold 1 of 2"),
    ("<answer>MI</answer>", [["AF", "HF"], ["AF"]], "any", 0.0, 0, "no gold matched; gold 1 of 2"),
    ("<answer>AF; LBBB</answer>", ["<answer>AF; LBBB</answer>", "<answer>AF</answer>"], "any", 1.0, 0, "gold 1 of 2"),
    ("<answer>AF; LBBB</answer>", '[["AF"], ["LBBB", "AF"]]', "any", 1.0, 1, "gold 2 of 2"),  # a CSV cell: JSON text
    ("no block", [["AF"], ["HF"]], "any", 0.0, 0, "no gold matched; gold 1 of 2 (\"['AF']\"): no <answer> block"),
]


@pytest.mark.parametrize("completion, gold, match, score, index, reason", JACCARD_CASES)
def test_jaccard_multi_gold_table(completion, gold, match, score, index, reason):
    got, why, details = _one(JaccardReward(match=match), completion, gold)
    assert got == pytest.approx(score) and why.startswith(reason), why
    assert details["gold_index"] == index and details["jaccard"] == pytest.approx(details["gold_scores"][index])


def test_a_flat_label_list_is_still_one_label_set():
    got, why, details = _one(JaccardReward(), "<answer>AF</answer>", ["AF", "HF"])
    assert got == 0.5 and "gold_index" not in details and why == "1 of 2 reference labels found, 0 extra"


@pytest.mark.parametrize("cls", [MathAccuracy, ChoiceAccuracy, JaccardReward])
def test_match_is_checked(cls):
    with pytest.raises(ValueError, match="match must be one of any, all, got 'best'"):
        cls(match="best")


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(allow_infinity=False), st.sampled_from([0.0, 0.5, 1.0])), max_size=7),
       st.sampled_from(["any", "all"]))
def test_deciding_picks_the_first_best_or_worst_score(scores, match):
    index = deciding(scores, match)
    ranked = [s for s in scores if s is not None]
    if not ranked:
        assert index is None
        return
    numbers = [s for s in ranked if not math.isnan(s)]
    target = (max(numbers) if match == "any" else min(numbers)) if numbers else None
    if match == "all" and any(math.isnan(s) for s in ranked):
        assert math.isnan(scores[index])  # a NaN (timeout) ranks below every number
    elif target is None:
        assert math.isnan(scores[index])
    else:
        assert scores[index] == target and index == scores.index(target)
