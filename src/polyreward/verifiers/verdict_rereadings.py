"""Second readings of a math verdict against the completion and the prompt (issue 32): a verdict the first reading
found is turned when the completion or the prompt says more about the value it read.

* :func:`approximated_otherwise`: an answer found equal, followed by an approximation of another value, states two
  values (:func:`.math_forms.approximation_disagrees`);
* :func:`in_the_gold_form`: an answer found not equal, written again in the gold's form (rounded as the gold is, or in
  the gold's unit up to its prefix), is the gold; one found equal that is the gold's number with another prefix of its
  unit is not (:mod:`.equal_forms`);
* :func:`in_asked_unit`: an answer found equal, written in another unit than the prompt asks for, stated as another
  quantity, read in a restatement of the question only, or factored less far than the gold where the prompt asks to
  factor, is not equal.

Each is read by :func:`.math.verify_batch` on every verdict after the first reading (:func:`_reread`); an unreadable completion or
prompt leaves the verdict as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polyreward.schema import completion_text, is_missing, prompt_text
from polyreward.verifiers.asked_quantity import other_quantity
from polyreward.verifiers.base_claims import decimal_claim, may_be_based
from polyreward.verifiers.equal_forms import another_prefix, converts_to_gold, degrees_for_radians, may_change, rounding_is_gold
from polyreward.verifiers.math_forms import approximation_disagrees
from polyreward.verifiers.number_locale import english_numerals, scales_asked
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.polynomial import coarser_factorisation
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.restated_prompt import restates_only
from polyreward.verifiers.tags import strip_thinking
from polyreward.verifiers.units import wrong_unit
from polyreward.verifiers.verdict import Verdict


def approximated_otherwise(verdict: Verdict | None, pred: Any) -> Verdict | None:
    """``verdict``, or not_equal when the answer found equal is followed by an approximation that is not its value
    (:func:`.math_forms.approximation_disagrees`: the completion states two values)."""
    if verdict is None or verdict.score != 1.0 or not verdict.pred:
        return verdict
    try:
        disagrees = approximation_disagrees(verdict.pred, visible_text(completion_text(pred)))
    except Exception:  # an unreadable completion changes nothing here
        return verdict
    return Verdict(0.0, "not_equal", verdict.gold, verdict.pred, "an approximation of another value", verdict.source) if disagrees else verdict


def _seen_text(pred: Any, asked: str) -> str:
    """The completion as a reader sees it, in its own number convention ("3,14 L" in French) and with the scales the
    question asks in, without its thinking: what the gold-form readings look in."""
    return strip_thinking(visible_text(english_numerals(completion_text(pred), scales_asked(asked))))


def in_the_gold_form(verdict: Verdict | None, pred: Any, prompt: Any) -> Verdict | None:
    """``verdict``, or equal when the answer found not equal is written again in the gold's form: rounded as the gold is
    ("8.04672 km ≈ 8.05 km" for 8.05) or in the gold's unit up to its prefix ("250 kPa" for 2.5 × 10⁵ Pa); not equal
    when the answer found equal is the gold's number with another prefix of its unit ("4.5 J" for 4.5 kJ):
    :mod:`.equal_forms`."""
    if verdict is not None and verdict.score == 1.0 and verdict.pred:
        try:
            if not may_change(verdict.gold, found_equal=True):  # (the gold alone says nothing can turn: no text prepared)
                return verdict
            asked = "" if is_missing(prompt) else prompt_text(prompt)
            text = _seen_text(pred, asked)
            other = another_prefix(verdict.gold, verdict.pred, text)
        except Exception:  # an unreadable completion changes nothing here
            return verdict
        return Verdict(0.0, "not_equal", verdict.gold, verdict.pred, "the gold's unit with another prefix", verdict.source) if other else verdict
    if verdict is None or verdict.score != 0.0 or verdict.reason != "not_equal" or not verdict.pred or verdict.rule == "false_equation":
        return verdict
    try:
        if not may_change(verdict.gold, found_equal=False):
            return verdict
        asked = "" if is_missing(prompt) else prompt_text(prompt)
        text = _seen_text(pred, asked)
        how = ("the answer rounded as the gold" if rounding_is_gold(verdict.gold, verdict.pred, text) else
               "the answer in the gold's unit" if converts_to_gold(verdict.gold, verdict.pred, text, asked) else
               "the angle in degrees" if degrees_for_radians(verdict.gold, verdict.pred, text, asked) else "")
    except Exception:  # an unreadable completion changes nothing here
        return verdict
    return Verdict(1.0, "equal", verdict.gold, verdict.pred, how, verdict.source) if how else verdict


_FACTOR_ASKED = re.compile(r"\bfactor(?:i[sz]e|ed|ing|isation|ization)?\b", re.IGNORECASE)


def in_asked_unit(verdict: Verdict | None, pred: Any, prompt: Any) -> Verdict | None:
    """``verdict``, or not_equal when the answer it found equal is written in another unit than the one the prompt asks
    for ("42 lb" for "How many kilograms ...": :mod:`.units`), stated as another quantity ("the larger root is 7"
    for "the product of the roots": :mod:`.asked_quantity`), read in a restatement of the question only
    (:mod:`.restated_prompt`), the digits of a gold in another base called a decimal number (:mod:`.base_claims`), or,
    where the prompt asks to factor, a product of fewer factors than the gold's (:func:`.polynomial.coarser_factorisation`)."""
    if verdict is None or verdict.score != 1.0 or not verdict.pred or is_missing(prompt):
        return verdict
    try:
        text, asked = completion_text(pred), prompt_text(prompt)
        why = wrong_unit(verdict.pred, text, asked)
        why = f"another unit: {why}" if why else other_quantity(verdict.pred, visible_text(text), asked)
        why = why or restates_only(verdict.pred, visible_text(text), asked)  # "The question asks: ... packs of 1"
        # (speed: a gold in another base is written with "_" -- base_claims.may_be_based -- so no other gold asks for the visible text)
        why = why or ("the digits called a decimal number" if may_be_based(verdict.gold) and decimal_claim(verdict.gold, verdict.pred, visible_text(text)) else "")
        if not why and _FACTOR_ASKED.search(asked) and coarser_factorisation(verdict.pred, verdict.gold):
            why = "not factored as far as the gold"  # "(x^2-1)(x^2+1)" for "Factor x^4-1 completely"
    except Exception:  # an unreadable prompt changes nothing here
        return verdict
    return Verdict(0.0, "not_equal", verdict.gold, verdict.pred, why, verdict.source) if why else verdict


def _reread(verdict: Verdict | None, pred: Any, prompts: Sequence[Any] | None, i: int) -> Verdict | None:
    """Row ``i``'s verdict read again (the three rereadings above), a function of the row alone: asked of a row decided
    cheaply right after its first reading, which made the same visible text (remembered), else once its verdict is back."""
    verdict = approximated_otherwise(verdict, pred)
    if prompts is not None:
        verdict = in_asked_unit(verdict, pred, prompts[i])
    return in_the_gold_form(verdict, pred, "" if prompts is None else prompts[i])
