"""Exact canonical forms of common symbolic answers, decided without sympy (main process, pure Python).

:func:`canonical` reads an answer in one of these shapes, or returns None:

* a **surd**: ``q * sqrt(s) * pi^k`` with ``q`` rational, ``s`` a square-free integer and ``k`` an
  integer -- ``\\frac{3\\sqrt{2}}{4}``, ``3\\sqrt{2}/4``, ``\\sqrt{\\frac{9}{8}}``, ``\\frac{3\\pi}{4}``,
  ``0.75\\pi``, ``\\frac{1}{\\sqrt{2}}``, sums of like terms, and sin/cos/tan of rational multiples
  of pi whose value is such a number (``\\sin(\\pi/3)`` is ``\\sqrt{3}/2``);
* an **interval or tuple** ``(a, b]``, ``[a, b]``, ``(a, b, c)`` of surds or ``\\pm\\infty`` (``x \\in (a, b]`` too);
  a **one-variable inequality** is the interval it describes: ``x > 3`` is ``(3, \\infty)``, ``x \\le 3`` is
  ``(-\\infty, 3]``, ``3 < x < 5`` is ``(3, 5)`` (Math-Verify compares a gold inequality with a predicted interval
  only; a predicted inequality for a gold interval is the same answer and is read so here);
* a **finite set** ``\\{a, b, c\\}`` of surds;
* a **matrix** (``pmatrix``/``bmatrix``/``matrix``/``Bmatrix``, never the determinant ``vmatrix``) of surds;
* a **linear equation** ``y = 2x + 1``, ``2x - y + 1 = 0`` (one ``=``, both sides polynomials of
  degree <= 1 with rational coefficients), kept as its coefficients scaled so the first is 1.

Each shape is a normal form: two answers of the same shape are equal exactly when their forms are
equal (``sqrt`` of a square-free integer is irrational and independent of the others, pi is
transcendental). The forms follow Math-Verify 0.9.0's rules (``math_verify/grader.py``): intervals
compare endpoints and openness, finite sets ignore order, tuples compare in order, equations are
equal when one is a multiple of the other (``sympy_solve_and_compare``). Only pairs of the *same*
shape are decided here; anything else (one side a set, the other a list; an inequality; a decimal
that would need Math-Verify's 6-digit rounding) is left to Math-Verify.

A parser of a tiny grammar, not ``eval``: nothing in the text is executed, and integers, exponents and
nesting are capped so no input can make it slow.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from polyreward.verifiers.math_relations import INFINITY, MINUS_INFINITY, RELATION, inequality_interval
from polyreward.verifiers.polynomial import parse_polynomial

MAX_CHARS = 400
MAX_INTEGER = 10**12  # larger radicands are not factored
MAX_EXPONENT = 12
MAX_DEPTH = 30


@dataclass(frozen=True)
class Surd:
    """``q * sqrt(s) * pi^k`` (``s`` square-free, ``s = 1`` and ``k = 0`` for a rational)."""

    q: Fraction
    s: int = 1
    k: int = 0

    def __post_init__(self) -> None:
        if self.q == 0:
            object.__setattr__(self, "s", 1)
            object.__setattr__(self, "k", 0)

    def __float__(self) -> float:
        """Its value on the real line (a bound's position, a remark's value compared)."""
        return float(self.q) * math.sqrt(self.s) * math.pi ** self.k



_TOKEN = re.compile(
    r"\s*(?:(\d+(?:\.\d+)?|\.\d+)|(\\(?:d|t)?frac|\\sqrt|\\pi|\\infty|\\sin|\\cos|\\tan|\\cdot|\\times|\\div)(?![A-Za-z])"
    r"|([-+*/^(){}\[\],=])|(\\\{|\\\}))"
)
_SPACING = re.compile(r"\\left(?![A-Za-z])|\\right(?![A-Za-z])|(?<!\\)\\[,;!: ]|~|\\displaystyle")  # not the row break "\\\\ "
_MATRIX = re.compile(r"\\begin\{([pbB]?matrix)\}(.*)\\end\{\1\}", re.DOTALL)


class _Unreadable(Exception):
    pass


def _tokens(text: str) -> list[str]:
    out, position = [], 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            if text[position:].strip() == "":
                break
            raise _Unreadable
        out.append(next(g for g in match.groups() if g is not None))
        position = match.end()
    return out


def _square_free(n: int) -> tuple[int, int]:
    """``n = outside^2 * inside`` with ``inside`` square-free."""
    if n > MAX_INTEGER:
        raise _Unreadable
    outside, inside, f = 1, 1, 2
    while f * f <= n:
        while n % (f * f) == 0:
            n //= f * f
            outside *= f
        if n % f == 0:
            n //= f
            inside *= f
        f += 1
    return outside, inside * n


def _multiply(a: Surd, b: Surd) -> Surd:
    common = _gcd(a.s, b.s)
    s = (a.s // common) * (b.s // common)
    return Surd(a.q * b.q * common, s, a.k + b.k)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _inverse(a: Surd) -> Surd:
    if a.q == 0:
        raise _Unreadable
    return Surd(1 / (a.q * a.s), a.s, -a.k)


def _sqrt(a: Surd) -> Surd:
    if a.q < 0 or a.s != 1 or a.k % 2:
        raise _Unreadable
    p, q = a.q.numerator, a.q.denominator
    outside, inside = _square_free(p * q)
    return Surd(Fraction(outside, q), inside, a.k // 2)


def _power(a: Surd, n: int) -> Surd:
    if abs(n) > MAX_EXPONENT:
        raise _Unreadable
    result = Surd(Fraction(1))
    for _ in range(abs(n)):
        result = _multiply(result, a)
    return _inverse(result) if n < 0 else result


# sin(r * pi) for r in [0, 2) with denominators 1, 2, 3, 4, 6: (r -> Surd)
_HALF, _ROOT2, _ROOT3 = Fraction(1, 2), Surd(Fraction(1, 2), 2), Surd(Fraction(1, 2), 3)
_SIN = {Fraction(0): Surd(Fraction(0)), Fraction(1, 6): Surd(_HALF), Fraction(1, 4): _ROOT2, Fraction(1, 3): _ROOT3,
        Fraction(1, 2): Surd(Fraction(1))}


def _sin(r: Fraction) -> Surd:
    r %= 2
    sign = 1
    if r >= 1:
        r, sign = r - 1, -1
    if r > Fraction(1, 2):
        r = 1 - r
    if r not in _SIN:
        raise _Unreadable
    value = _SIN[r]
    return Surd(sign * value.q, value.s, 0)


def _trig(name: str, argument: Surd) -> Surd:
    if argument.s != 1 or argument.k not in (0, 1) or (argument.k == 0 and argument.q != 0):
        raise _Unreadable
    r = argument.q if argument.k == 1 else Fraction(0)
    if name == "\\sin":
        return _sin(r)
    if name == "\\cos":
        return _sin(r + Fraction(1, 2))
    cosine = _sin(r + Fraction(1, 2))
    if cosine.q == 0:
        raise _Unreadable
    return _multiply(_sin(r), _inverse(cosine))


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.i, self.depth, self.decimal = tokens, 0, 0, False

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise _Unreadable
        self.i += 1
        return token

    def expression(self) -> Surd:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Unreadable
        total = self.term()
        while self.peek() in ("+", "-"):
            sign = 1 if self.take() == "+" else -1
            term = self.term()
            if term.q == 0:
                continue
            if total.q != 0 and (term.s, term.k) != (total.s, total.k):
                raise _Unreadable  # unlike terms: not one surd
            total = Surd(total.q + sign * term.q, term.s, term.k) if total.q != 0 else Surd(sign * term.q, term.s, term.k)
        self.depth -= 1
        return total

    def term(self) -> Surd:
        sign = 1
        while self.peek() in ("+", "-"):
            sign = sign if self.take() == "+" else -sign
        value, literal = self.power_literal()
        while True:
            token = self.peek()
            if token in ("*", "\\cdot", "\\times"):
                self.take()
                value = _multiply(value, self.power())
                literal = False
            elif token in ("/", "\\div"):
                self.take()
                value = _multiply(value, _inverse(self.power()))
                literal = False
            elif token is not None and token not in ("+", "-", ")", "}", "]", ",", "=", "\\}", "^"):
                if literal and (token[0].isdigit() or token[0] == "." or token.endswith("frac")):
                    # "3\frac{1}{2}" is the mixed number 7/2 and "2 3" is no product: left to Math-Verify
                    raise _Unreadable
                value, literal = _multiply(value, self.power()), False  # implicit: 3\sqrt{2}, 2\pi
            else:
                return Surd(sign * value.q, value.s, value.k)

    def power_literal(self) -> tuple[Surd, bool]:
        """:meth:`power`, and whether it was a bare number ("3", not "3^2" or "\\pi")."""
        start = self.i
        value = self.power()
        token = self.tokens[start]
        return value, self.i == start + 1 and (token[0].isdigit() or token[0] == ".")

    def power(self) -> Surd:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.group() if self.peek() == "{" else self.atom()
            if exponent.s != 1 or exponent.k != 0 or exponent.q.denominator not in (1, 2):
                raise _Unreadable
            if exponent.q.denominator == 2:
                base = _sqrt(base)
            base = _power(base, exponent.q.numerator)
        return base

    def group(self) -> Surd:
        self.take("{")
        value = self.expression()
        self.take("}")
        return value

    def atom(self) -> Surd:
        token = self.take()
        if token[0].isdigit() or token[0] == ".":
            if "." in token:
                self.decimal = True
            if len(token) > 30:
                raise _Unreadable
            return Surd(Fraction(token))
        if token == "\\pi":
            return Surd(Fraction(1), 1, 1)
        if token in ("(", "{"):
            value = self.expression()
            self.take(")" if token == "(" else "}")
            return value
        if token.endswith("frac"):
            if self.peek() == "{":
                numerator = self.group()
                denominator = self.group() if self.peek() == "{" else self.atom_digit()
            else:  # \frac12
                numerator, denominator = self.atom_digit(), self.atom_digit()
            return _multiply(numerator, _inverse(denominator))
        if token == "\\sqrt":
            if self.peek() == "[":
                raise _Unreadable  # n-th roots
            return _sqrt(self.group() if self.peek() == "{" else self.atom_digit())
        if token in ("\\sin", "\\cos", "\\tan"):
            if self.peek() == "^":
                raise _Unreadable  # \sin^2 x
            argument = self.power() if self.peek() in ("(", "{") else self.trig_argument()
            return _trig(token, argument)
        raise _Unreadable

    def atom_digit(self) -> Surd:
        token = self.take()
        if not token.isdigit():
            raise _Unreadable
        if len(token) > 1:  # "\frac12": the first digit is the numerator, the rest come back
            self.tokens[self.i - 1:self.i] = [token[0], token[1:]]
        return Surd(Fraction(int(token[0])))

    def trig_argument(self) -> Surd:
        """``\\sin \\frac{\\pi}{6}``, ``\\cos 2\\pi``: a product up to the next + - or end."""
        value = self.power()
        while self.peek() not in (None, "+", "-", ")", "}", "]", ",", "=", "\\}"):
            if self.peek() in ("/", "\\div"):
                self.take()
                value = _multiply(value, _inverse(self.power()))
            else:
                if self.peek() in ("*", "\\cdot", "\\times"):
                    self.take()
                value = _multiply(value, self.power())
        return value


def _surd(text: str) -> tuple[Surd, bool] | None:
    """A surd and whether a decimal literal was in it, or None."""
    try:
        parser = _Parser(_tokens(text))
        value = parser.expression()
        if parser.peek() is not None:
            return None
        return value, parser.decimal
    except (_Unreadable, ZeroDivisionError, ValueError, OverflowError, RecursionError):
        return None


def _element(text: str) -> tuple | None:
    stripped = text.strip()
    if stripped in ("\\infty", "+\\infty", "\\infinity", "oo"):
        return INFINITY, False
    if stripped in ("-\\infty", "-oo"):
        return MINUS_INFINITY, False
    return _surd(stripped)


def split_top(text: str, separator: str) -> list[str]:
    parts, depth, start = [], 0, 0
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and text[i + 1:i + 2] in ("{", "}"):  # an escaped brace (a trailing "\\" is none)
            depth += 1 if text[i + 1] == "{" else -1
            i += 2
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            start = i + len(separator)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _elements(inner: str) -> tuple[tuple, bool] | None:
    values, decimal = [], False
    for part in split_top(inner, ","):
        element = _element(part)
        if element is None:
            return None
        values.append(element[0])
        decimal = decimal or element[1]
    return tuple(values), decimal


def _linear_equation(text: str) -> tuple | None:
    if text.count("=") != 1 or "." in text or re.search(r"[<>]|\\[lg]e|\\neq", text):
        return None
    left, right = (parse_polynomial(side) for side in text.split("="))
    if left is None or right is None:
        return None
    terms = dict(left)
    for monomial, coefficient in right:
        terms[monomial] = terms.get(monomial, Fraction(0)) - coefficient
    terms = {m: c for m, c in terms.items() if c != 0}
    if any(sum(power for _, power in m) > 1 for m in terms) or not any(m for m in terms):
        return None
    lead = terms[min(m for m in terms if m)]
    return tuple(sorted((m, c / lead) for m, c in terms.items()))


# what joins the intervals of a union: "\\cup", "or" spelled in prose or in \\text{}, "\\lor"
_UNION_JOIN = re.compile(r"\\cup(?![A-Za-z])|(?:\\quad|\\,|\\;|~)*\s*(?:\\text\{\s*or\s*\}|\bor\b|\\lor(?![A-Za-z]))\s*(?:\\quad|\\,|\\;|~)*")
_MEMBER = re.compile(r"\s*[A-Za-z]\s*\\in(?![A-Za-z])\s*")
# a set named by set operations on named sets, then "=": "A \\cap B = \\{3, 4\\}" states the set on its right, as "x = 5" states 5
# (holdout90; a name the prompt does not ask for is another quantity: asked_quantity._answers_another_variable)
SET_NAMED = re.compile(r"\s*[A-Z](?:\s*\\(?:cap|cup|setminus)(?![A-Za-z])\s*[A-Z])+\s*=\s*(?=\\\{)")
_SET_BUILDER = re.compile(r"\\\{\s*([A-Za-z])\s*(?:\\in\s*(?:\\mathbb\{R\}|\\mathbb R|R)\s*)?(?::|\\mid(?![A-Za-z])|\|)\s*(.+?)\s*\\\}")


# what joins the conditions of a set-builder: a comma, "and" (in prose or \\text{}), \\land, \\wedge
_CONDITION_JOIN = re.compile(r",|\\text\{\s*and\s*\}|\band\b|\\land(?![A-Za-z])|\\wedge(?![A-Za-z])")


def _position(value: Any) -> float:
    """Where a bound lies on the real line (an infinity is a tuple)."""
    if isinstance(value, tuple):
        return float("-inf") if value == MINUS_INFINITY else float("inf")
    return float(value)


def _with_exclusions(condition: str, variable: str) -> tuple | None:
    """The set a set-builder's conditions describe when they are one inequality (or none) and points left out:
    ``x \\ge 3, x \\neq 7`` is ``[3, 7) \\cup (7, \\infty)`` (holdout106); None for anything else."""
    pieces = [piece for piece in _CONDITION_JOIN.split(condition) if piece.strip()]
    excluded, intervals = [], []
    for piece in pieces:
        left_out = re.fullmatch(r"\s*" + re.escape(variable) + r"\s*(?:\\neq?(?![A-Za-z])|\\not\s*=|≠)\s*(.+?)\s*", piece)
        element = _element(left_out.group(1)) if left_out else None
        if left_out and element is not None and not isinstance(element[0], tuple):
            excluded.append(element[0])
            continue
        form = canonical(piece)
        if left_out or form is None or form[0] != "interval":
            return None
        intervals.append(form)
    if not excluded or len(intervals) > 1:
        return None
    left, (low, high), right = intervals[0][1] if intervals else ("(", (MINUS_INFINITY, INFINITY), ")")
    pieces_left = [(left, low, high, right)]
    for point in sorted(excluded, key=_position):
        at = _position(point)
        split = []
        for opening, lo, hi, closing in pieces_left:
            if _position(lo) < at < _position(hi):
                split += [(opening, lo, point, ")"), ("(", point, hi, closing)]
            else:
                split.append(("(" if point == lo else opening, lo, hi, ")" if point == hi else closing))
        pieces_left = split
    forms = [(opening, (lo, hi), closing) for opening, lo, hi, closing in pieces_left]
    inexact = bool(intervals) and intervals[0][2]
    if len(forms) == 1:
        return "interval", forms[0], inexact
    return "union", tuple(sorted(forms, key=repr)), inexact


def canonical(text: str) -> tuple | None:
    """``(shape, form, inexact)`` for the shapes in the module docstring, else None. ``inexact``: unequal forms are
    left to Math-Verify (a decimal literal it would round, an inequality read as an interval)."""
    if not text or len(text) > MAX_CHARS:
        return None
    text = _SPACING.sub(" ", text).strip()
    if "\\c" in text or "\\setminus" in text:
        named = SET_NAMED.match(text)
        text = text[named.end():] if named is not None else text
    if "cup" in text or "or" in text:
        parts = _UNION_JOIN.split(text)
        if len(parts) > 1:  # "(-\\infty,-1) \\cup (4,\\infty)", "x < -1 \\text{ or } x > 4": a union of intervals, in any order
            forms = [canonical(part.strip()) for part in parts]
            if not all(form is not None and form[0] == "interval" for form in forms):
                return None
            return "union", tuple(sorted((form[1] for form in forms), key=repr)), any(form[2] for form in forms)
    builder = _SET_BUILDER.fullmatch(text)
    if builder:  # "\\{x \\in \\mathbb{R} : x > 2\\}": the set its condition describes
        condition = canonical(builder.group(2)) or _with_exclusions(builder.group(2), builder.group(1))
        return condition if condition is not None and condition[0] in ("interval", "union") and builder.group(1) in builder.group(2) else None
    if RELATION.search(text):
        return inequality_interval(text, _element)
    member = _MEMBER.match(text)  # "x \in (3, \infty)" states the set
    if member:
        text = text[member.end():]
    matrix = _MATRIX.fullmatch(text)
    if matrix:
        rows = [row for row in re.split(r"\\\\", matrix.group(2)) if row.strip()]
        cells = [[_surd(cell) for cell in row.split("&")] for row in rows]
        if not cells or any(cell is None for row in cells for cell in row) or len({len(row) for row in cells}) != 1:
            return None
        return "matrix", tuple(tuple(cell[0] for cell in row) for row in cells), any(cell[1] for row in cells for cell in row)
    if "=" in text:
        equation = _linear_equation(text)
        return ("equation", equation, False) if equation is not None else None
    if text.startswith("\\{") and text.endswith("\\}"):
        elements = _elements(text[2:-2])
        if elements is None or any(isinstance(e, tuple) for e in elements[0]):
            return None
        return "set", frozenset(elements[0]), elements[1]
    if text[:1] in "([" and text[-1:] in ")]" and "," in text:
        elements = _elements(text[1:-1])
        if elements is None or len(split_top(text[1:-1], ",")) != len(elements[0]):
            return None
        values, decimal = elements
        if len(values) == 2:
            return "interval", (text[0], values, text[-1]), decimal
        if text[0] == "(" and text[-1] == ")" and not any(isinstance(v, tuple) for v in values):
            return "tuple", values, decimal
        return None
    surd = _surd(text)
    if surd is None:
        return None
    return "surd", surd[0], surd[1]


def _as_tuple(form: tuple | None, other: tuple | None) -> tuple | None:
    """A matrix of one column or one row as the tuple of its entries, where it is compared with a tuple (a vector
    written as a column ``\\begin{pmatrix} 5 \\\\ 1 \\\\ 3 \\end{pmatrix}`` for the gold ``(5, 1, 3)``)."""
    if form is None or other is None or form[0] != "matrix" or other[0] != "tuple":
        return form
    rows = form[1]
    if all(len(row) == 1 for row in rows):
        return "tuple", tuple(row[0] for row in rows), form[2]
    return ("tuple", rows[0], form[2]) if len(rows) == 1 else form


def _open_pair_as_tuple(form: tuple | None, other: tuple | None) -> tuple | None:
    """An open pair ``(a, b)`` read as an interval is the tuple (a, b) where it is compared with a matrix of one
    column or one row: ``\\langle -5, 9 \\rangle`` (read ``(-5, 9)``) for the gold ``\\begin{pmatrix} -5 \\\\ 9
    \\end{pmatrix}`` is the vector, not the interval (holdout106)."""
    if form is None or other is None or form[0] != "interval" or other[0] != "matrix" or (form[1][0], form[1][2]) != ("(", ")"):
        return form
    return "tuple", form[1][1], form[2]


def canonical_equal(gold: tuple | None, pred: tuple | None) -> bool | None:
    """Exactly decided equality of two canonical forms of the same shape, else None.

    Unequal forms marked inexact are left undecided: an inequality read as an interval (Math-Verify has its own
    relation rules), and a decimal literal, since Math-Verify rounds floats to 6
    places, so ``0.333333`` matches ``\\frac{1}{3}`` there.
    """
    gold, pred = (_open_pair_as_tuple(form, other) for form, other in ((gold, pred), (pred, gold)))
    gold, pred = (_as_tuple(form, other) for form, other in ((gold, pred), (pred, gold)))
    if gold is None or pred is None or gold[0] != pred[0]:
        return None
    if gold[1] == pred[1]:
        return True
    if gold[2] or pred[2]:
        return None
    return False
