"""Hardened math answer verification on top of Math-Verify 0.9.0.

    verify(pred=completion, ref=gold) -> Verdict(score, reason, gold, pred, rule, source)

The check is asymmetric on purpose (Math-Verify README FAQ, docs/reference/libraries.md#math-verify-asymmetry): ``ref`` is trusted
gold, ``pred`` is untrusted model output. A gold inequality ``1<x<2`` accepts a predicted interval
``(1,2)``, a gold number accepts a predicted chain ``2+3=5``, but not the other way round.

Pipeline per (completion, reference) pair:

1. **Main process, cheap** (:func:`.math_answers.prepare_reference`, :func:`.math_answers.prepare_prediction`): strip
   ``<think>``, extract the final answer (:mod:`.answer_extraction`), normalise unicode/markdown/python
   syntax (:mod:`.math_normalize`). Plain numbers on both sides are compared exactly with
   :class:`fractions.Fraction` (+ 6-decimal rounding and a relative tolerance), and expanded
   polynomials with numeric coefficients term by term; neither reaches sympy;
   multiple-choice golds (``C``) are compared as letters ("The answer is (C)." is Math-Verify's
   known miss). Two answers of the same symbolic shape -- surds ``a\\sqrt{b}/c``, multiples of pi,
   trig values at rational multiples of pi, intervals, tuples and sets of such numbers, matrices of
   them, linear equations -- are compared by exact canonical forms (:mod:`.math_canonical`).
   An answer the completion does not commit to (negated, hedged, retracted, an empty or cut-off box:
   :mod:`.commitment`) is no answer, a false equation (``43 = 42``) is wrong, a word gold ("Paris") is
   compared as words, and with ``work_avoidance=True`` an answer that skips the work (the prompt's own
   expression, an expression or unsimplified fraction for a number: :mod:`.work_avoidance`) gets no credit.
   Formatting is read through before the numeric comparison and the guard (:mod:`.math_notation`:
   ``\\text{42}``, ``90^\\circ``, ``12\\text{ cm}^2``, ``10,\\!000``); a one-variable inequality is its interval
   (:mod:`.math_canonical`); words, lettered choices and candidate lists are read by :mod:`.math_forms`.
   Inputs that would explode (power towers, huge exponents, huge binomials) are refused here. A gold given as a
   list is a list of accepted alternatives. With a :func:`verdict_cache`, pool verdicts seen before
   (this run, an earlier step, another process) are read back instead of recomputed.
2. **Worker process** (:func:`~.math_worker.verify_latex` in a :class:`polyreward.engine.Engine`'s workers,
   hard timeout; pairs with the same gold go to the same worker, whose cache holds the gold's parse,
   so each distinct text is parsed about once per batch): Math-Verify ``parse`` of the answer wrapped
   as LaTeX (``$...$``); a numeric probe (both sides evaluated at a few rational points) rejects
   pairs that are clearly unequal before Math-Verify's costly ``verify``, which decides the rest
   (:mod:`.math_worker` says why answers are wrapped as LaTeX and number matches re-checked with a
   relative tolerance: Math-Verify issues #60 and #14).

Source: Math-Verify 0.9.0 (Apache-2.0), issues #14, #60, #65; reconstructed hardening described in
docs/reference/libraries.md#math-verify and #other-graders.
"""

from __future__ import annotations

import math
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Literal

from polyreward.schema import completion_text, is_missing, prompt_text
from polyreward.verifiers.key_values import no_better_than_masked
from polyreward.verifiers.answer_extraction import FINAL_BANGS, HEDGED_INSIDE, extract_answer
from polyreward.verifiers.asked_quantity import _STATED_VARIABLE, _answers_another_variable
from polyreward.verifiers.answer_structures import cases_equal, final_structure, gold_structure, listed_in_label_order, renamed
from polyreward.verifiers.tags import strip_thinking
from polyreward.verifiers.closing_checks import passing_check_start
from polyreward.verifiers.choice import extract_letter
from polyreward.verifiers.golds import alternatives, deciding
from polyreward.verifiers.clock_times import clock_times_agree
from polyreward.verifiers.math_canonical import canonical_equal, split_top
from polyreward.verifiers.math_labels import label_answer, label_gold
from polyreward.verifiers.math_forms import LETTERS as _LETTERS, closing_letter, lettered_choice, option_label, prompt_options, several_values, textual_meaning, word_answer  # noqa: F401 (public here too)
from polyreward.verifiers.math_answers import _LISTED, Prediction, Reference, _canonical, _prepared, prepare_prediction, prepare_reference
from polyreward.verifiers.math_normalize import Numeral, normalize_answer, normalize_unicode, numerals_equal, same_number, size_problem
from polyreward.verifiers.same_answer import written_alike
from polyreward.verifiers.polynomial import parse_polynomial
from polyreward.verifiers.math_worker import REL_TOL, raw_math_verify, verify_latex  # noqa: F401 (raw_math_verify: public)
from polyreward.verifiers.verdict import Verdict
from polyreward.verifiers.verdict_cache import VerdictCache, math_verdict_cache as verdict_cache, verifier_rules  # noqa: F401 (public here)
from polyreward.verifiers.verdict_rereadings import _reread
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.turns import answer_for_the_question
from polyreward.verifiers.work_avoidance import copy_candidates, prompt_form, squeeze, work_avoided

OnTimeout = Literal["zero", "nan"]


# Imported once in the engine's forkserver, so a worker started after a kill is warm (no ~1 s math-verify
# import and ~300 ms of lazy sympy imports counted against its first item's timeout).
WORKER_PRELOAD = ("polyreward.verifiers.math", "math_verify", "polyreward.verifiers.math_warmup")


# a gold that is the text of a missing value (str(NaN), str(None), pandas' "<NA>") is no gold: scored, it would
# reward a policy for writing \boxed{nan}
MISSING_MARKERS = frozenset({"nan", "none", "null", "<na>", "nat", "n/a"})

def _as_option(prediction: Prediction | None, reference: Reference, prompt: Any, completion: str = "") -> Prediction | None:
    """The answer read against the options the prompt lists (:func:`.math_forms.prompt_options`), where the gold is a
    value: a letter written beside a value its option does not hold is no committed answer ("(C) 9" where (C) is 3:
    which of the two is meant?); a letter alone is its option's value ("answer (B)." where (B) is 6), and so is a
    letter that closes the completion's last line (:func:`.math_forms.closing_letter`: "x = 6. (C)", "**(C)**",
    "answer: (c)", "x = 3 → C"), unless the value that line states before it, or a boxed or anchored answer, is
    another. Without options in the prompt the value beside a letter is read, and a letter alone stays unread."""
    cut_off = prediction is not None and prediction.source == "truncated"  # "x = 0 → A" read as an article left hanging
    if prediction is None or not (prediction.text or cut_off) or reference.kind in ("letter", "invalid") or prompt is None or is_missing(prompt):
        return prediction
    closing = closing_letter(completion) if completion and not prediction.letter else None
    if cut_off and closing is None:
        return prediction
    if closing is not None and (options := prompt_options(prompt_text(prompt))).get(closing[0]):
        return _closing_option(prediction, options[closing[0]], closing)
    alone = None if prediction.letter else option_label(prediction.text)
    if not prediction.letter and (alone is None or alone[1]):
        return prediction
    options = prompt_options(prompt_text(prompt))
    if prediction.letter:
        option = options.get(prediction.letter)
        held = compare_cheap(prepare_reference(option), "", replace(prediction, letter="")) if option else None
        return Prediction("", "letter and value disagree") if held is not None and held.score == 0.0 and held.reason == "not_equal" else prediction
    option = options.get(alone[0]) if alone is not None else None
    return (_prepared(option, "option", alone[0]) or prediction) if option else prediction




def _closing_option(prediction: Prediction, option: str, closing: tuple[str, str]) -> Prediction:
    """The value of the option whose letter closes the answer (:func:`_as_option`), or no answer when a value stated
    for it disagrees: the one its line writes before it (``x = 5. (C)`` where (C) is 6) or an answer the reader found
    elsewhere (``\\boxed{5}`` then ``(C)``, ``x = 5`` then ``**(C)**``); neither the label itself nor the last number of
    the work (``1.25 × 0.8 = 1`` then ``**(C)**``: a factor, not the answer) states a value for it."""
    letter, stated = closing
    held = prepare_reference(option)
    found = [_prepared(stated, "option")] if stated else []
    if prediction.text and prediction.source != "last_number" and closing_letter(prediction.text) is None:
        found.append(replace(prediction, letter=""))
    for value in found:
        verdict = compare_cheap(held, "", value) if value is not None else None
        if verdict is not None and verdict.score == 0.0 and verdict.reason == "not_equal":
            return Prediction("", "letter and value disagree")
    return _prepared(option, "option", letter) or prediction


def compare_cheap(
    reference: Reference, completion: str, prediction: Prediction | None, guard: bool = True, fast_paths: bool = True,
    work_avoidance: str | None = None,
) -> Verdict | None:
    """Decide without sympy when possible (numbers, polynomials, letters, no answer, oversized); else None.

    ``fast_paths=False`` leaves numbers and polynomials to Math-Verify (benchmarks use it to time the pool).
    ``work_avoidance`` (the row's prompt, ``""`` without one; None = off) refuses answers that skip the work
    (:mod:`.work_avoidance`).
    """
    if reference.kind == "invalid":
        return Verdict(None, "gold_unparseable", reference.text, rule=reference.problem)
    if reference.kind == "letter":
        letters = _LETTERS[: max(5, _LETTERS.index(reference.text) + 1)]
        letter, how = extract_letter(strip_thinking(completion), letters=letters)
        if letter is None and not how and prediction is not None and prediction.text:
            # nothing found as a letter (not a hedge): the committed math answer may start with one, "\textbf{(B) } 12"
            letter, how = (prediction.letter if prediction.letter in letters else None) if prediction.letter else lettered_choice(prediction.text, letters), prediction.source
        if letter is None:
            return Verdict(0.0, "no_answer", reference.text, rule="letter")
        return Verdict(float(letter == reference.text), "equal" if letter == reference.text else "not_equal", reference.text, letter, "letter", how)
    if prediction is None:
        return Verdict(0.0, "no_answer", reference.text)
    if not prediction.text:  # negated, hedged, retracted, conflicting, an empty or unclosed box, cut off
        return Verdict(0.0, "no_answer", reference.text, rule=prediction.source)
    if prediction.source.endswith(HEDGED_INSIDE) and not _LISTED.search(reference.text + " " + reference.kind):
        return Verdict(0.0, "no_answer", reference.text, rule="hedged")  # "42 \text{ (or 43)}" for a single gold
    if prediction.false_equation and "=" not in reference.text:  # "43 = 42" states no value (an equation gold is compared whole)
        return Verdict(0.0, "not_equal", reference.text, prediction.text, "false_equation", prediction.source)
    if (same_time := clock_times_agree(reference.text, prediction.text)) is not None:  # "10:35 PM" for 10:35 (holdout106)
        return Verdict(float(same_time), "equal" if same_time else "not_equal", reference.text, prediction.text, "clock time", prediction.source)
    meaning = textual_meaning(reference.text) if reference.kind in ("words", "latex") else None
    if meaning is not None and textual_meaning(prediction.text) is not None:
        # "infinitely many solutions" for \infty, "No solution" for \emptyset: the same statement in other words
        equal = textual_meaning(prediction.text) == meaning
        return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "words", prediction.source)
    if reference.kind == "words":
        equal = word_answer(prediction.text) == reference.text
        return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "words", prediction.source)
    problem = size_problem(prediction.text) if guard else None
    if problem:
        return Verdict(0.0, "too_large", reference.text, prediction.text[:200], problem, prediction.source)
    if reference.kind == "number" and several_values(prediction.text):
        # "\boxed{42\text{ cm}, 43\text{ cm}}" for 42: a candidate list, whatever Math-Verify makes of the units
        return Verdict(0.0, "not_equal", reference.text, prediction.text, "several values for one number", prediction.source)
    if work_avoidance is not None and "=" not in reference.text and _answers_another_variable(prediction.text, work_avoidance):
        # "Solve for x" answered with "y = 42": the value of another unknown, whatever its number
        return Verdict(0.0, "not_equal", reference.text, prediction.text, "another variable", prediction.source)
    if work_avoidance is not None:
        problem = work_avoided(reference, prediction, work_avoidance)
        if problem:
            return Verdict(0.0, "unevaluated", reference.text, prediction.text, problem, prediction.source)
    if fast_paths and reference.kind == "number" and prediction.numeral is not None:
        equal = numerals_equal(reference.numeral, prediction.numeral, REL_TOL)
        return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "numeric", prediction.source)
    if fast_paths and (reference.kind == "number" or reference.polynomial is not None):
        # exact polynomial arithmetic: "2 \times 21" for 42, "98z^{3}(61z - 38z^{2})" for its expansion
        polynomial = parse_polynomial(prediction.text)
        if polynomial is not None and reference.kind == "number":
            terms = dict(polynomial)
            if set(terms) <= {()}:  # a constant
                equal = numerals_equal(reference.numeral, Numeral(terms.get((), Fraction(0))), REL_TOL)
                return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "polynomial", prediction.source)
        elif polynomial is not None:
            equal = polynomial == reference.polynomial
            return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "polynomial", prediction.source)
    if fast_paths and reference.canonical is not None:
        # same symbolic shape on both sides (surds, intervals, sets, tuples, matrices, linear equations): exact
        equal = canonical_equal(reference.canonical, _canonical(prediction.text))
        if equal is not None:
            return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "canonical", prediction.source)
    return None


# --- public API -----------------------------------------------------------------------------------


def _outcome_verdict(outcome: Any, base: Verdict, on_timeout: OnTimeout) -> Verdict:
    if outcome.ok:
        verdict: Verdict = outcome.value
        return Verdict(verdict.score, verdict.reason, base.gold, base.pred, verdict.rule, base.source)
    if outcome.error in ("timeout", "memory limit exceeded"):
        score = 0.0 if on_timeout == "zero" else math.nan
        reason = "timeout" if outcome.error == "timeout" else "memory"
        return Verdict(score, reason, base.gold, base.pred, "worker_pool", base.source)
    return Verdict(math.nan, f"error: {outcome.error}"[:300], base.gold, base.pred, "worker_pool", base.source)


def verify_batch(
    preds: Sequence[Any],
    refs: Sequence[Any],
    *,
    pool: Any = None,
    timeout: float | None = None,
    on_timeout: OnTimeout = "zero",
    guard: bool = True,
    fast_paths: bool = True,
    cache: VerdictCache | None = None,
    prompts: Sequence[Any] | None = None,
    work_avoidance: bool = False,
    final_bang: str = "punctuation",
) -> list[Verdict]:
    """Verify completions ``preds`` (strings or chat messages) against gold answers ``refs``.

    ``work_avoidance=True`` refuses answers that skip the work (the prompt's own expression, given ``prompts``;
    an expression or an unsimplified fraction for a simplified number: :mod:`.work_avoidance`);
    ``final_bang="factorial"`` reads "The answer is 4!" as 4! (:func:`~.answer_extraction.extract_answer`).

    Cheap decisions happen here; the rest goes through ``pool`` (a :class:`polyreward.engine.Engine`, as a reward
    passes its own, or a :class:`polyreward.engine.WorkerPool`; ``None`` runs Math-Verify inline, without a hard
    timeout, relying on the size guard), each item with the budget ``timeout`` (None: the engine's or pool's own).
    Identical (gold, answer) pairs are verified once. With ``cache`` (see :func:`verdict_cache`), pool verdicts are
    looked up and stored there across calls and processes.
    """
    if len(preds) != len(refs):
        raise ValueError(f"verify_batch got {len(preds)} predictions but {len(refs)} references")
    if on_timeout not in ("zero", "nan"):
        raise ValueError(f"on_timeout must be 'zero' or 'nan', got {on_timeout!r}")
    if final_bang not in FINAL_BANGS:
        raise ValueError(f"final_bang must be one of {', '.join(FINAL_BANGS)}, got {final_bang!r}")
    if prompts is not None and len(prompts) != len(preds):
        raise ValueError(f"verify_batch got {len(preds)} predictions but {len(prompts)} prompts")
    if (keyed := no_better_than_masked(verify_batch, preds, refs, prompts, pool=pool, timeout=timeout, on_timeout=on_timeout, guard=guard,
                                       fast_paths=fast_paths, cache=cache, work_avoidance=work_avoidance, final_bang=final_bang)) is not None:
        return keyed  # a value given to the grader's key never pays (key_values, holdout78)
    if any(alternatives(ref) is not None for ref in refs):
        return _verify_alternatives(preds, refs, pool=pool, timeout=timeout, on_timeout=on_timeout, guard=guard, fast_paths=fast_paths,
                                    cache=cache, prompts=prompts, work_avoidance=work_avoidance, final_bang=final_bang)
    verdicts: list[Verdict | None] = [None] * len(preds)
    pending: list[tuple[int, Verdict]] = []
    items: list[tuple[str, str, bool]] = []
    forms: dict[str, str] = {}  # each distinct prompt squeezed once (a group shares its prompt)
    preds, twice = _for_the_questions(preds, prompts if prompts is not None else [""] * len(preds), final_bang)
    for i, (pred, ref) in enumerate(zip(preds, refs)):
        if i in twice:  # the question asked again in the completion, and answered otherwise (turns.answer_for_the_question)
            gold = prepare_reference(str(ref)).text if not is_missing(ref) else ""
            verdicts[i] = _reread(Verdict(0.0, "no_answer", gold, rule="conflicting"), pred, prompts, i)
            continue
        try:
            avoidance = _lazy_prompt_form(prompts[i] if prompts is not None else None, forms) if work_avoidance else None
            asked = prompt_text(prompts[i]) if prompts is not None and not is_missing(prompts[i]) else ""
            decided = _decide_cheaply(pred, ref, guard, fast_paths, avoidance, final_bang, asked)
        except Exception as exc:  # an unreadable rollout fails alone (NaN + reason); the batch goes on
            decided = Verdict(math.nan, f"error: {type(exc).__name__}: {exc}"[:300])
        if isinstance(decided, Verdict):
            verdicts[i] = _reread(decided, pred, prompts, i)  # (now: the completion's visible text is still remembered)
            continue
        base, item = decided
        if not items and pool is not None and cache is None:
            _start_pool_soon(pool)  # the first pair the pool must decide: it starts while the rest are decided cheaply
        pending.append((i, base))
        items.append(item)
    later = [i for i, _base in pending]  # read a second time once decided
    if items and cache is not None:
        stored = cache.get_many([(gold, pred) for gold, pred, _ in items])
        for (i, base), verdict in zip(pending, stored):
            if verdict is not None:
                verdicts[i] = Verdict(verdict.score, verdict.reason, base.gold, base.pred, verdict.rule, base.source)
        pending = [entry for entry, verdict in zip(pending, stored) if verdict is None]
        items = [item for item, verdict in zip(items, stored) if verdict is None]
    if items:
        if pool is None:
            from polyreward.engine import WorkerPool

            outcomes = WorkerPool(workers=0).map(verify_latex, items)
        else:
            add_preload = getattr(pool, "add_preload", None)
            if callable(add_preload):  # a pool not started yet gets warm workers (no import inside the timeout)
                add_preload(WORKER_PRELOAD)
            # pairs with the same gold go to the same worker, whose parse cache then holds that gold
            outcomes = pool.map(verify_latex, items, timeout=timeout, affinity=[item[0] for item in items])
        for (i, base), outcome in zip(pending, outcomes):
            verdicts[i] = _outcome_verdict(outcome, base, on_timeout)
        if cache is not None:  # only what the texts decide: never a timeout or an error
            cache.put_many((g, p, o.value) for (g, p, _), o in zip(items, outcomes) if o.ok)
    for i in later:
        verdicts[i] = _reread(verdicts[i], preds[i], prompts, i)
    return [v if v is not None else Verdict(math.nan, "not_run") for v in verdicts]


def _for_the_questions(preds: Sequence[Any], prompts: Sequence[Any], final_bang: str) -> tuple[list[Any], set[int]]:
    """Each completion cut to its answer to the question its prompt asks, where it writes question headings itself
    (:func:`.turns.answer_for_the_question`: the last part that answers it), and the rows that answer it twice,
    differently (a loop that flips between two answers too, with or without a prompt)."""
    cut, twice = list(preds), set()
    for i, (pred, prompt) in enumerate(zip(preds, prompts)):
        if not isinstance(pred, (str, list)):
            continue
        try:
            text = completion_text(pred)
            asked = "" if is_missing(prompt) else prompt_text(prompt)
            answer, answered_twice = answer_for_the_question(asked, text, lambda part: _answer_key(part, final_bang))
        except Exception:  # an unreadable prompt changes nothing here
            continue
        if answer is not text:  # (a completion that asks no question of its own stays as it came: text or messages)
            cut[i] = answer
        if answered_twice:
            twice.add(i)
    return cut, twice


def _answer_key(part: str, final_bang: str) -> str | None:
    """The answer ``part`` gives, squeezed to compare with another part's, or None."""
    found = extract_answer(part, final_bang)
    return squeeze(found.text) if found is not None and found.text else None


def _start_pool_soon(pool: Any) -> None:
    """Start ``pool``'s workers (warm: :data:`WORKER_PRELOAD`) in the background, where it can (an
    :class:`~polyreward.engine.Engine` or a :class:`~polyreward.engine.WorkerPool`); a batch that needs them then
    decides its other pairs while the workers start and import sympy, instead of before."""
    add_preload = getattr(pool, "add_preload", None)
    if callable(add_preload):
        add_preload(WORKER_PRELOAD)
    start_soon = getattr(pool, "start_soon", None)
    if callable(start_soon):
        start_soon()
    else:
        from polyreward.engine import WorkerPool

        if isinstance(pool, WorkerPool):
            pool.start(wait=False)


def _no_prompt() -> str:
    return ""


def _lazy_prompt_form(prompt: Any, forms: dict[str, str]) -> Callable[[], str]:
    """The row's prompt as :func:`~.work_avoidance.prompt_form` squeezes it, squeezed only when asked for (most
    answers cannot be copied from a prompt: :func:`_prompt_reads`) and once per distinct prompt in ``forms``.
    The prompt's text is read now, so an unreadable prompt fails its row as before."""
    if prompt is None or is_missing(prompt):
        return _no_prompt
    text = prompt_text(prompt)

    def form() -> str:
        if text not in forms:
            forms[text] = prompt_form(text)
        return forms[text]

    return form


def _prompt_reads(reference: Reference, prediction: Prediction) -> tuple[bool, tuple[str, ...]]:
    """What of the prompt can change :func:`compare_cheap`'s verdict from the one without a prompt
    (``work_avoidance=""``): whether the answer states a variable (``y = 42``, the another-variable check) and the
    answer forms :func:`~.work_avoidance.work_avoided` looks for in it. Neither: no prompt changes the verdict."""
    if not prediction.text:
        return False, ()
    stated = "=" not in reference.text and _STATED_VARIABLE.match(prediction.text) is not None
    return stated, copy_candidates(reference, prediction)


# compare_cheap's verdicts without a prompt, by (gold, answer, settings), with what of a prompt could change them
# (_prompt_reads), for golds and answers as prepare_reference and prepare_prediction make them (each fully given by its
# kind or source and its text): the rollouts of one prompt share a gold and often an answer. Bounded: cleared when
# full. Letter golds read the whole completion: not kept.
_CHEAP_VERDICTS: dict[tuple, tuple[Verdict | None, bool, tuple[str, ...]]] = {}
_CHEAP_VERDICTS_MAX = 65536
_MEMO_KINDS = ("number", "latex", "words")
_MEMO_MAX_CHARS = 400


def _compare_remembered(reference: Reference, completion: str, prediction: Prediction | None, guard: bool, fast_paths: bool,
                        work_avoidance: str | Callable[[], str] | None) -> Verdict | None:
    """:func:`compare_cheap`, ``work_avoidance`` given as the squeezed prompt or a function that makes it (called only
    when the answer could be read in a prompt); the verdict without a prompt is remembered (:data:`_CHEAP_VERDICTS`)
    and stands unless the prompt can change it."""
    no_prompt = None if work_avoidance is None else ""
    if reference.kind not in _MEMO_KINDS or prediction is None or len(prediction.text) > _MEMO_MAX_CHARS:
        # letter and unusable golds and a missing answer are decided before the prompt is read; a long answer: the long way
        if work_avoidance is not None and prediction is not None and reference.kind in _MEMO_KINDS:
            no_prompt = work_avoidance() if callable(work_avoidance) else work_avoidance
        return compare_cheap(reference, completion, prediction, guard, fast_paths, no_prompt)
    key = (reference.kind, reference.text, prediction.text, prediction.source, guard, fast_paths, no_prompt)
    known = _CHEAP_VERDICTS.get(key)
    if known is None:
        verdict = compare_cheap(reference, completion, prediction, guard, fast_paths, no_prompt)
        known = (verdict, *_prompt_reads(reference, prediction)) if work_avoidance is not None else (verdict, False, ())
        if len(_CHEAP_VERDICTS) >= _CHEAP_VERDICTS_MAX:
            _CHEAP_VERDICTS.clear()
        _CHEAP_VERDICTS[key] = known
    verdict, stated, needles = known
    if stated or needles:
        prompt = work_avoidance() if callable(work_avoidance) else work_avoidance
        if stated or any(needle in prompt for needle in needles):
            return compare_cheap(reference, completion, prediction, guard, fast_paths, prompt)
    return verdict


def _decide_cheaply(pred: Any, ref: Any, guard: bool, fast_paths: bool, work_avoidance: str | Callable[[], str] | None = None,
                    final_bang: str = "punctuation", prompt: str = "") -> Verdict | tuple[Verdict, tuple[str, str, bool]]:
    """One pair's verdict when it is decided without sympy, else (its base verdict, the worker item).
    ``work_avoidance``: the squeezed prompt, or a function that makes it (asked only when it can matter); ``prompt``:
    the row's prompt text ("" without one): its givens the answer is read past (:mod:`.givens`), its options an answer
    labelled with a letter is read against (:func:`_as_option`)."""
    if is_missing(ref) or (isinstance(ref, str) and (not ref.strip() or ref.strip().lower() in MISSING_MARKERS)):
        prediction = prepare_prediction(completion_text(pred))  # shown in the reason: the answer was read, the gold is missing
        return Verdict(None, "no_reference", pred=prediction.text if prediction else "", source=prediction.source if prediction else "")
    try:
        gold = str(ref)
    except ValueError:  # an int beyond Python's 4,300-digit str() limit
        return Verdict(None, "gold_unparseable", rule="a number too long to write out")
    reference = prepare_reference(gold)
    text = completion_text(pred)
    prediction = _as_option(prepare_prediction(text, final_bang, prompt), reference, prompt, text)
    if (labelled := label_answer(text, gold, prediction)) is not None:  # "No. 221 = 13 × 17, ..." for \text{no}: a label in words
        label, source = labelled
        return Verdict(float(label == label_gold(gold)), "equal" if label == label_gold(gold) else "not_equal", reference.text, label, "label", source)
    structured = _structured(reference, text, prediction, final_bang) if reference.kind in ("latex", "words", "number") else None
    if isinstance(structured, Verdict):
        return structured
    reference, prediction = structured or (reference, prediction)
    cheap = _compare_remembered(reference, text, prediction, guard, fast_paths, work_avoidance)
    if cheap is not None:
        return cheap
    return Verdict(None, "", reference.text, prediction.text, source=prediction.source), (reference.text, prediction.text, guard)


_STANDS_IN = "97531"  # a value put where a structure stood, to ask whether the completion commits to it


def _structured(reference: Reference, completion: str, prediction: Prediction | None,
                final_bang: str) -> Verdict | tuple[Reference, Prediction] | None:
    """The completion's final line read as one structured answer (:mod:`.answer_structures`), where the plain reading
    took one piece of it or none: a list of one variable's values, a tuple of named values, a union of inequalities, a
    value with its parameter or restriction clause, labelled parts (compared part by part, each label to its gold's),
    each compared as the gold's shape. The completion must commit to the structure as it would to one value standing
    in its place. Values joined by "or" that are not one variable's solutions are alternatives: a reading of one of
    them is no answer. None: the plain reading stands."""
    if prediction is not None and prediction.text and (equal := cases_equal(reference.text, prediction.text)) is not None:
        return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, prediction.text, "cases", prediction.source)
    text = normalize_unicode(visible_text(completion))
    text = text[:passing_check_start(text)]  # "..., so x = 2 or x = 3. Both check: 4 - 10 + 6 = 0 and ...": the check is no list
    found = final_structure(text)
    if found is None:
        return None
    read = squeeze(prediction.text) if prediction is not None and prediction.text else ""
    if found.variable and read and not _LISTED.search(reference.text) and "\\pm" not in reference.text and len(
            {squeeze(normalize_answer(item)) for item in found.items}) > 1:
        return reference, Prediction("", "several values")  # "x = 0, x = 1" for a single gold: which one?
    if found.kind == "alternatives":
        named = read and any(read == squeeze(normalize_answer(item)) or squeeze(normalize_answer(item)).endswith("=" + read) for item in found.items)
        sides = [item.rsplit("=", 1)[-1] for item in found.items]  # "P = \\frac{3}{8}, or 37.5%": one value twice
        distinct = len({squeeze(normalize_answer(side)) for side in sides}) > 1 and not any(
            same_number(a, b) for a in sides for b in sides if a is not b)
        return (reference, Prediction("", "hedged")) if named and distinct else None
    if read and read == squeeze(reference.text):
        return None  # the plain reading is the gold as written
    span = squeeze(normalize_answer(text[found.start:found.end]))
    if read and read not in span and span not in read and read not in {squeeze(normalize_answer(item)) for item in found.items}:
        return None  # the plain reading found its answer elsewhere (a later box, an anchor)
    committed = extract_answer(text[:found.start] + _STANDS_IN + text[found.end:], final_bang)
    if committed is None or _STANDS_IN not in committed.text or committed.source.endswith(HEDGED_INSIDE):
        return None
    gold = gold_structure(reference.text)
    if gold is None or (gold.kind == "list" and not gold.variable):
        gold = listed_in_label_order(reference.text, found) or gold  # "7, 6" for "(a) ... 7 (b) ... 6"
    if found.kind == "parts" or (gold is not None and gold.kind == "parts"):
        if gold is None or found.kind != "parts" or gold.labels != found.labels:
            return None
        verdicts = [compare_cheap(prepare_reference(g), "", _prepared(p, "structure")) for g, p in zip(gold.items, found.items)]
        wrong = any(v is not None and v.score == 0.0 for v in verdicts)
        equal = all(v.score == 1.0 if v is not None else written_alike(g, p) for v, g, p in zip(verdicts, gold.items, found.items))
        if not wrong and not equal:
            return None  # a part only Math-Verify can decide: the plain reading stands
        return Verdict(float(equal), "equal" if equal else "not_equal", reference.text, "; ".join(found.items), "parts", "structure")
    shape = reference.canonical[0] if reference.canonical else ""
    values = renamed(found, gold)
    if values is None:
        return None
    gold_text = reference.text.strip()
    if found.kind == "tuple" and gold_text[:1] == "(" and gold_text[-1:] == ")" and len(split_top(gold_text[1:-1], ",")) == len(values):
        answer = "(" + ", ".join(values) + ")"
    elif found.kind == "list" and shape == "set":
        answer = "\\{" + ", ".join(values) + "\\}"
    elif found.kind == "list" and (_LISTED.search(reference.text) or "\\pm" in reference.text) and shape not in ("tuple", "interval"):
        answer = ", ".join(values)
        if gold is not None and gold.variable:  # the gold lists one variable's values too: "x = 1, x = 4"
            reference = prepare_reference(", ".join(gold.items))
    elif found.kind == "union" and shape in ("union", "interval"):
        answer = " \\cup ".join(values)
    elif found.kind == "value" and reference.kind == "latex" and (gold is not None or not _RELATION_OR_CLAUSE.search(reference.text)):
        answer = values[0]
    else:
        return None
    answered = _prepared(answer, "structure+" + committed.source)
    if answered is None:
        return None
    return (prepare_reference(gold.items[0]) if gold is not None and gold.kind == "value" else reference), answered


_RELATION_OR_CLAUSE = re.compile(r"\\ne|\\in|<|>|\\[lg]e|=")


def verify_each_gold(preds: Sequence[Any], refs: Sequence[Any], **settings: Any) -> list[list[Verdict]]:
    """Each completion's verdicts against its gold: one verdict for a single gold, one per usable alternative for
    a gold list (:func:`~polyreward.verifiers.golds.alternatives`; [] when none is usable). ``settings`` are
    :func:`verify_batch`'s; every pair of the batch is verified in one call."""
    options = [alternatives(ref) for ref in refs]
    options = [[ref] if opts is None else opts for ref, opts in zip(refs, options)]
    if settings.get("prompts") is not None:
        settings = {**settings, "prompts": [p for p, opts in zip(settings["prompts"], options) for _ in opts]}
    flat = iter(verify_batch([pred for pred, opts in zip(preds, options) for _ in opts], [o for opts in options for o in opts], **settings))
    return [[next(flat) for _ in opts] for opts in options]


def _verify_alternatives(preds: Sequence[Any], refs: Sequence[Any], **settings: Any) -> list[Verdict]:
    """A gold list scores its best alternative (``match: any``; a wrong answer beats an unreadable alternative)."""
    result = []
    for verdicts in verify_each_gold(preds, refs, **settings):
        index = deciding([v.score for v in verdicts])
        result.append(verdicts[index] if index is not None else verdicts[0] if verdicts else Verdict(None, "no_reference"))
    return result


def verify(*, pred: Any, ref: Any, pool: Any = None, timeout: float | None = None, on_timeout: OnTimeout = "zero") -> Verdict:
    """Is the final answer of completion ``pred`` equal to gold answer ``ref``? (keyword-only: the
    check is asymmetric, ``ref`` is trusted gold). See the module docstring for the rules."""
    return verify_batch([pred], [ref], pool=pool, timeout=timeout, on_timeout=on_timeout)[0]
