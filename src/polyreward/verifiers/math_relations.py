"""A one-variable inequality read as the interval it describes (for :func:`~polyreward.verifiers.math_canonical.canonical`).

    x > 3 -> (3, \\infty)      x \\le 3 -> (-\\infty, 3]      3 < x < 5 -> (3, 5)      5 \\ge x > 3 -> (3, 5]

Math-Verify compares a gold inequality with a predicted interval, not the other way round; a predicted inequality
for a gold interval is the same answer, so both sides are read in one shape here. The bounds are read by the
caller's element reader (surds and infinities of :mod:`.math_canonical`); a relation between two numbers, two
variables, a variable on both ends or mixed directions (``3 < x > 5``) is no interval. Reconstructed rule (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from collections.abc import Callable

INFINITY = ("inf", 1)
MINUS_INFINITY = ("inf", -1)

# a relation between a variable and numbers: "<", ">", "\le", "\geq", "\lt", "<=", ... (≤ ≥ are \le \ge after
# normalize_unicode); "less"/"greater" says which end is open
RELATION = re.compile(r"<=|>=|=<|=>|<|>|\\(?:leq?|geq?|leqslant|geqslant|lt|gt)(?![A-Za-z])")
_VARIABLE = re.compile(r"\s*[A-Za-z]\s*")


def _relation(token: str) -> tuple[int, bool]:
    """(+1 for "greater", -1 for "less", whether it includes equality) of a relation token."""
    token = token.lstrip("\\")
    less = token.startswith(("<", "=<", "l"))
    return (-1 if less else 1), ("=" in token or token[:2] in ("le", "ge")) and token not in ("lt", "gt")


def inequality_interval(text: str, element: Callable[[str], tuple | None]) -> tuple | None:
    """``("interval", (left, (low, high), right), True)`` for a one-variable inequality, else None; ``element`` reads a
    bound as ``(value, has_decimal)`` or None. Always inexact: unequal intervals are left to Math-Verify's relation rules."""
    relations = RELATION.findall(text)
    if not 1 <= len(relations) <= 2:
        return None
    sides = RELATION.split(text)
    variables = [i for i, side in enumerate(sides) if _VARIABLE.fullmatch(side)]
    if len(variables) != 1:
        return None
    where = variables[0]
    bounds: dict[int, tuple] = {}  # direction of the variable from the bound (+1 above it) -> (value, closed)
    for i, token in enumerate(relations):
        direction, closed = _relation(token)
        if i == where:  # "x < a": the variable is on the left of this relation
            bound_side = i + 1
        elif i + 1 == where:  # "a < x"
            bound_side, direction = i, -direction
        else:
            return None
        bound = element(sides[bound_side])
        if bound is None or isinstance(bound[0], tuple) or direction in bounds:  # a number, not an infinity
            return None
        bounds[direction] = (bound[0], closed)
    low, high = bounds.get(1, (MINUS_INFINITY, False)), bounds.get(-1, (INFINITY, False))
    return "interval", ("[" if low[1] else "(", (low[0], high[0]), "]" if high[1] else ")"), True


# the set of real numbers above or below a bound, said in words: "all real numbers less than $-2$", "every real x
# greater than or equal to 5", "the set of all reals strictly greater than \frac{1}{2}"
_IN_WORDS = re.compile(
    r"\b(?:all|every|any)\s+real(?:\s+numbers?|\s+values?|s)?(?:\s+[a-z])?(?:\s+(?:that\s+are|which\s+are))?\s+(?:strictly\s+)?"
    r"(?P<side>less|smaller|lower|greater|larger|bigger|more|higher)\s+than(?P<equal>\s+or\s+equal\s+to)?\s+"
    r"(?:\$(?P<math>[^$\n]{1,40})\$|(?P<number>[-+]?\d+(?:\.\d+)?(?:/\d+)?))", re.IGNORECASE)


def inequality_in_words(text: str) -> str:
    """``text`` with each set of reals said in words as its inequality (holdout106): "Final answer: all real numbers
    less than $-2$." reads "Final answer: $x < -2$.", "every real number greater than or equal to 5" reads
    "$x \\ge 5$"; the words around it (a negation, a hedge) stay for the commitment rules to read."""
    if "real" not in text.lower():
        return text

    def as_relation(match: re.Match) -> str:
        greater = match.group("side").lower() in ("greater", "larger", "bigger", "more", "higher")
        relation = ("\\ge" if greater else "\\le") if match.group("equal") else (">" if greater else "<")
        return f"$x {relation} {(match.group('math') or match.group('number')).strip()}$"

    return _IN_WORDS.sub(as_relation, text)
