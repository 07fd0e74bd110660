"""Two antiderivatives of one function: equal up to the constant of integration (holdout117).

An indefinite integral has a family of answers: ``\\frac{\\sin^2 x}{2} + C`` and ``-\\frac{\\cos 2x}{4} + C`` are both
right for ``\\int \\sin x \\cos x \\, dx`` -- they differ by the constant 1/4, which the ``+ C`` absorbs. Math-Verify
compares the two expressions and finds them unequal. :func:`equal_up_to_constant` reads a gold and an answer that both
end in an added constant of integration (``+ C``, ``+ c``, ``+ K``, ``+ C_1``), takes both bodies, and calls them
equal when they have the same one variable and their difference has derivative 0 (it is a constant).

Only where the gold itself carries the constant: ``x^2 + 3x + C`` for the gold ``x^2 + 3x + 5`` (an initial condition
fixes the constant) is still compared as written and refused, and so is an answer without ``+ C`` for a gold with it
(as before). Reconstructed rule (ours); runs in the worker (sympy), after a cheap numeric probe.
"""

from __future__ import annotations

from typing import Any

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# the constant of integration added last: "+ C", "+C", "+ c", "+ K", "+ C_1", "+ \mathrm{C}"
_ADDED_CONSTANT = re.compile(r"\s*\+\s*(?:\\mathrm\{[CcK]\}|[CcK](?:_\{?\d\}?)?)\s*\Z")

_PROBES = ("0.37", "1.21", "2.03")


def constant_added(text: str) -> str | None:
    """``text`` without the constant of integration added at its end (``"x^2 + C"`` -> ``"x^2"``), else None."""
    found = _ADDED_CONSTANT.search(text)
    return text[:found.start()] if found is not None and found.start() > 0 else None


def equal_up_to_constant(gold: str, pred: str, parse: Any) -> bool | None:
    """True when ``gold`` and ``pred`` both add a constant of integration and their bodies differ by a constant,
    False when both add one and the bodies do not, None when the rule does not apply. ``parse(latex)``: the worker's
    parse of a body into a list of sympy objects (Math-Verify's)."""
    import sympy

    gold_body, pred_body = constant_added(gold), constant_added(pred)
    if gold_body is None or pred_body is None:
        return None
    gold_parsed, pred_parsed = parse(gold_body), parse(pred_body)
    if not gold_parsed or not pred_parsed:
        return None
    g, p = gold_parsed[0], pred_parsed[0]
    if not (isinstance(g, sympy.Expr) and isinstance(p, sympy.Expr)) or len(g.free_symbols) != 1 or g.free_symbols != p.free_symbols:
        return None
    (variable,) = g.free_symbols
    difference = g - p
    try:
        values = [complex(sympy.N(difference.subs(variable, sympy.Rational(point)), 30)) for point in _PROBES]
        if any(abs(value - values[0]) > 1e-9 * max(1.0, abs(values[0])) for value in values[1:]):
            return False
        return sympy.simplify(sympy.diff(difference, variable)) == 0
    except (TypeError, ValueError, ArithmeticError, AttributeError, RecursionError):
        return None
