"""The worker side of math verification: Math-Verify parsing and comparison in a pool worker.

:func:`verify_latex` runs in the engine's workers (:class:`polyreward.engine.Engine`, hard timeout), on answers the
main process (:mod:`polyreward.verifiers.math`) has extracted, normalised and could not decide by
itself. Per pair: Math-Verify ``parse`` of each side wrapped as LaTeX (cached per worker; the pool
sends pairs with the same gold to the same worker), a polynomial identity by ``expand``, a numeric
probe that rejects clearly unequal expressions, then Math-Verify ``verify``, whose number matches are
re-checked with a relative tolerance.

Wrapping matters: Math-Verify's plain-expression parser turns ``3*x-1*y+13=0`` into ``0`` (issue #60),
so ``3*x-1*y+13=0`` and ``3x+4y+14=0`` "matched"; parsed as LaTeX they stay equations and are
compared as equations (``3x-y+13=0`` ≡ ``6x-2y+26=0``, ≢ ``3x+4y+14=0``). The relative tolerance is
there because Math-Verify rounds to 6 decimals and so accepts ``1/2^99`` for ``1/2^98`` (issue #14).

Source: Math-Verify 0.9.0 (Apache-2.0), ``src/math_verify/grader.py``; issues #14, #60.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.antiderivatives import equal_up_to_constant
from polyreward.verifiers.math_normalize import size_problem
from polyreward.verifiers.verdict import Verdict

REL_TOL = 1e-3  # numbers that Math-Verify calls equal must also agree to this relative tolerance


def _quiet_math_verify() -> None:
    import logging  # (here: only a worker that runs Math-Verify needs it, not every start-up)

    for name in ("math_verify", "math_verify.parser", "math_verify.grader", "latex2sympy2_extended"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


@lru_cache(maxsize=8192)
def _parse(text: str) -> tuple:
    """Math-Verify parse of an answer string as LaTeX (cached; references repeat across a batch)."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse

    _quiet_math_verify()
    parsed = parse(f"${text}$", extraction_config=[LatexExtractionConfig()], parsing_timeout=None)
    if not parsed and "=" not in text:
        # plain expressions the LaTeX grammar rejects; never for equations (issue #60: "3*x-1*y+13=0" -> 0)
        parsed = parse(text, extraction_config=[ExprExtractionConfig()], parsing_timeout=None)
    return tuple(parsed)


def _numeric_values_disagree(gold: Sequence[Any], pred: Sequence[Any]) -> bool:
    """True when every (number, number) pair differs by more than REL_TOL relative (tiny-number FP)."""
    import sympy

    pairs = 0
    for g in gold:
        for p in pred:
            if not (isinstance(g, sympy.Expr) and isinstance(p, sympy.Expr) and g.is_number and p.is_number):
                continue
            try:
                gv, pv = sympy.N(g, 30), sympy.N(p, 30)
                scale = max(abs(gv), abs(pv))
                if not (scale.is_finite and scale.is_real):
                    continue
                pairs += 1
                if scale == 0 or abs(gv - pv) <= REL_TOL * scale:
                    return False
            except (TypeError, ValueError, ArithmeticError):
                continue
    return pairs > 0


def _rounded_decimal_of_irrational_gold(gold: Sequence[Any], pred: str) -> bool:
    """Is ``pred`` a finite decimal that Math-Verify matched only by rounding (to 6 places) to an irrational gold --
    ``1.41421356`` for ``\\sqrt{2}``, ``3.14159265`` for ``\\pi``, ``7.389056`` for ``e^2``? Such a decimal is the gold
    cut short, never the gold (holdout117). A rational gold keeps Math-Verify's 6-place rounding (``0.333333`` for
    ``\\frac{1}{3}``, as the peer cases expect), and a gold written otherwise that equals the decimal exactly
    (``\\sqrt{6.25}`` for ``2.5``) still matches."""
    import sympy

    written = pred.strip()
    if _FINITE_DECIMAL.fullmatch(written) is None:
        return False
    numbers = [g for g in gold if isinstance(g, sympy.Expr) and g.is_number and not g.is_Rational]
    if not numbers:
        return False
    exact = sympy.Rational(written)
    try:
        return all(abs(sympy.N(g - exact, 60)) >= sympy.Rational(1, 10 ** 50) for g in numbers)
    except (TypeError, ValueError, ArithmeticError):
        return False


_FINITE_DECIMAL = re.compile(r"-?\d*\.\d+")


def _polynomial_identity(gold: Any, pred: Any) -> bool | None:
    """Exact answer for two polynomials with rational coefficients: ``expand(gold - pred) == 0``.

    ``expand`` is canonical for such polynomials and far cheaper than the ``simplify`` inside
    Math-Verify (a degree-9 product: ~5 ms vs ~100 ms). Anything else (floats, functions,
    relations, sets) returns None and goes to Math-Verify, and so do sides with different symbols
    (``\\text{odd}`` is one symbol, ``odd`` the product o*d*d; ``\\text{e}`` a symbol, ``e`` Euler's
    number), where Math-Verify's own string and symbol rules decide.
    """
    import sympy

    if not (isinstance(gold, sympy.Expr) and isinstance(pred, sympy.Expr)):
        return None
    try:
        if gold.atoms(sympy.Float) or pred.atoms(sympy.Float) or not (gold.is_polynomial() and pred.is_polynomial()):
            return None
        if gold.atoms(sympy.Function) or pred.atoms(sympy.Function) or not (gold.free_symbols or pred.free_symbols):
            return None
        if gold.free_symbols != pred.free_symbols:
            return None
        if any(side.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan) for side in (gold, pred)):
            return None  # oo - oo is nan, never 0: Math-Verify's own rules compare infinities
        # doit(): the LaTeX parser keeps number products unevaluated (\frac{1}{2} \cdot 5 is Mul(1/2, 5)), and
        # expand leaves such a product beside its evaluated negation ("-5/2 + 5/2"), which is no 0
        return sympy.expand(gold.doit() - pred.doit()) == 0
    except (TypeError, ValueError, AttributeError, sympy.PolynomialError):
        return None


_PROBE_POINTS = ((37, 100), (121, 100), (-83, 100))  # rationals where few textbook answers are singular


def _probe_values(expr: Any, symbols: list) -> list[complex] | None:
    """``expr`` evaluated (30 digits) with every symbol set to each probe point; None if any is not finite."""
    import sympy

    values = []
    for point in (_PROBE_POINTS if symbols else _PROBE_POINTS[:1]):
        value = complex(sympy.N(expr.subs({s: sympy.Rational(*point) for s in symbols}), 30))
        if not (math.isfinite(value.real) and math.isfinite(value.imag)):
            return None
        values.append(value)
    return values


def _clearly_different(gold: Sequence[Any], pred: Sequence[Any]) -> bool:
    """True when every gold/answer pair Math-Verify would compare is numerically far apart.

    A cheap probe before ``verify`` (whose ``simplify`` costs most on pairs that turn out unequal):
    both sides are plain expressions over the same symbols (not relations, sets, matrices, lone symbols
    or percentages, which Math-Verify compares by its own rules), evaluated at a few rational points,
    and they differ by more than REL_TOL relative and 1e-6 absolute at one of them. Equal
    expressions agree at every point, so this never rejects a pair Math-Verify accepts by value;
    only rejections are decided here, every acceptance still goes through ``verify``.
    """
    import sympy

    compared = 0
    for g in gold:
        for p in pred:
            if isinstance(g, str) and isinstance(p, str):
                if g.strip() and g.strip() == p.strip():
                    return False
                continue
            if isinstance(g, str) or isinstance(p, str):
                continue  # Math-Verify never matches a string against an expression
            if not (isinstance(g, sympy.Expr) and isinstance(p, sympy.Expr)) or isinstance(g, sympy.Symbol) or isinstance(p, sympy.Symbol):
                return False
            if g.has(sympy.UnevaluatedExpr) or p.has(sympy.UnevaluatedExpr) or g.free_symbols != p.free_symbols:
                return False
            try:
                symbols = sorted(g.free_symbols, key=str)
                gv, pv = _probe_values(g, symbols), _probe_values(p, symbols)
            except (TypeError, ValueError, ArithmeticError, AttributeError, RecursionError):
                return False
            if gv is None or pv is None:
                return False
            if not any(abs(a - b) > max(1e-6, REL_TOL * max(abs(a), abs(b))) for a, b in zip(gv, pv)):
                return False
            compared += 1
    return compared > 0


def _same_text(gold: str, pred: str) -> bool:
    """Equal up to whitespace and ``\\left``/``\\right`` (for golds sympy cannot parse); an answer that assigns the
    value to one variable (``x = \\frac{-3 \\pm \\sqrt{17}}{2}``) states its right side, as ``x = 5`` states 5 (holdout90:
    a gold with ``\\pm`` is such a gold; a variable the prompt does not ask for was refused before, in :mod:`.math`)."""
    def canonical(text: str) -> str:
        return "".join(text.replace("\\left", "").replace("\\right", "").split())

    if "=" not in gold and (assigned := _ASSIGNED.match(pred)) is not None:
        pred = pred[assigned.end():]
    return bool(gold.strip()) and canonical(gold) == canonical(pred)


_ASSIGNED = re.compile(r"\s*[A-Za-z]\s*=(?=[^=]+\Z)")


def verify_latex(gold: str, pred: str, guard: bool = True) -> Verdict:
    """Compare two normalised answers with Math-Verify (runs in a worker; picklable, module-level).

    ``guard=False`` skips the size guard (tests use it to prove the pool's hard kill works).
    """
    from math_verify import verify as mv_verify

    if guard:
        for side, text in (("gold", gold), ("pred", pred)):
            problem = size_problem(text)
            if problem:
                return Verdict(None if side == "gold" else 0.0, "gold_unparseable" if side == "gold" else "too_large", gold, pred, problem)
    gold_parsed = _parse(gold)
    if all(isinstance(x, str) for x in gold_parsed):  # nothing but the raw-string fallback
        if _same_text(gold, pred):  # Math-Verify's string fallback: an identical answer still matches
            return Verdict(1.0, "equal", gold, pred, "string")
        return Verdict(None, "gold_unparseable", gold, pred, "math_verify")
    pred_parsed = _parse(pred)
    if not pred_parsed:
        return Verdict(0.0, "pred_unparseable", gold, pred, "math_verify")
    antiderivative = equal_up_to_constant(gold, pred, _parse)
    if antiderivative is not None:  # "-\\frac{\\cos 2x}{4} + C" for "\\frac{\\sin^2 x}{2} + C" (holdout117)
        return Verdict(float(antiderivative), "equal" if antiderivative else "not_equal", gold, pred, "up_to_constant")
    decided = _polynomial_identity(gold_parsed[0], pred_parsed[0])
    if decided is not None:
        return Verdict(float(decided), "equal" if decided else "not_equal", gold, pred, "sympy_expand")
    if _clearly_different(gold_parsed, pred_parsed):
        return Verdict(0.0, "not_equal", gold, pred, "numeric_probe")
    if not mv_verify(list(gold_parsed), list(pred_parsed), timeout_seconds=None):
        return Verdict(0.0, "not_equal", gold, pred, "math_verify")
    if _numeric_values_disagree(gold_parsed, pred_parsed):
        return Verdict(0.0, "not_equal", gold, pred, "relative_tolerance")
    if _rounded_decimal_of_irrational_gold(gold_parsed, pred):
        return Verdict(0.0, "not_equal", gold, pred, "finite_decimal")
    return Verdict(1.0, "equal", gold, pred, "math_verify")


def raw_math_verify(gold: str, completion: str) -> bool:
    """Plain Math-Verify ``verify(parse(gold), parse(completion))`` with no guard and no extraction.

    The unprotected baseline: used by the benchmark and by the test that the pool kills the
    Math-Verify #65 power tower.
    """
    from math_verify import parse, verify as mv_verify

    _quiet_math_verify()
    return bool(mv_verify(parse(gold, parsing_timeout=None), parse(completion, parsing_timeout=None), timeout_seconds=None))
