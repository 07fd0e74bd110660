"""Exact polynomial arithmetic for the no-sympy fast path.

:func:`parse_polynomial` reads an answer built from numbers, single-letter variables, ``+ - *``,
implicit multiplication, division by a number, parentheses/braces and small integer powers -- e.g.
``-896x^{5} + 2240x^{4}``, ``98 z^{3} (-38 z^{2} + 61 z)``, ``2 \\times 21``, ``(x+1)^2`` -- and
returns its expanded canonical form: sorted ``(monomial, coefficient)`` pairs with exact
:class:`fractions.Fraction` coefficients. Two answers are equal as polynomials exactly when these
forms are equal, so "expand this product" answers are checked without sympy (whose ``simplify`` takes
~0.1 s on a degree-9 product). Anything outside that grammar (functions, ``\\frac`` of variables,
roots, the constants e/I/pi, relations, sets) returns None and goes to Math-Verify.

This is a parser of a tiny grammar, not ``eval``: nothing in the text is executed, and exponents,
term counts and digit counts are capped so no input can make it slow.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from fractions import Fraction

Monomial = tuple[tuple[str, int], ...]
Poly = dict[Monomial, Fraction]

MAX_POWER = 64
MAX_TERMS = 2000
MAX_CHARS = 1000
MAX_DEPTH = 50  # nested brackets / unary signs; deeper answers go to Math-Verify (and never reach RecursionError)

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([a-zA-Z])|(\\left|\\right|\\cdot|\\times|\\,|\\!|\\ )|([-+*/^(){}]))")
# Math-Verify reads e as Euler's number and I as the imaginary unit; i and j stay plain symbols there
# (i^2 is not -1 in Math-Verify), so they are plain variables here too and both paths agree.
_CONSTANT_LETTERS = set("eEI")


class _NotPolynomial(Exception):
    pass


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise _NotPolynomial
        number, letter, command, op = match.groups()
        if number is not None:
            out.append(("num", number))
        elif letter is not None:
            if letter in _CONSTANT_LETTERS:
                raise _NotPolynomial
            out.append(("var", letter))
        elif command in (r"\cdot", r"\times"):
            out.append(("op", "*"))
        elif op is not None:
            out.append(("op", op))
        position = match.end()
    return out


def _add_term(poly: Poly, monomial: Monomial, coef: Fraction) -> None:
    """``coef`` times ``monomial`` added into ``poly`` in place; a coefficient that cancels to 0 leaves no term."""
    value = poly.get(monomial, Fraction(0)) + coef
    if value:
        poly[monomial] = value
    else:
        poly.pop(monomial, None)


def _add(a: Poly, b: Poly, sign: int = 1) -> Poly:
    result = dict(a)
    for monomial, coef in b.items():
        _add_term(result, monomial, sign * coef)
    return result


def _mul(a: Poly, b: Poly) -> Poly:
    if len(a) * len(b) > MAX_TERMS * 4:
        raise _NotPolynomial
    result: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            powers = dict(ma)
            for var, p in mb:
                powers[var] = powers.get(var, 0) + p
            _add_term(result, tuple(sorted(powers.items())), ca * cb)
    if len(result) > MAX_TERMS:
        raise _NotPolynomial
    return result


def _constant(poly: Poly) -> Fraction | None:
    if not poly:
        return Fraction(0)
    if len(poly) == 1 and () in poly:
        return poly[()]
    return None


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None or (value is not None and token[1] != value):
            raise _NotPolynomial
        self.i += 1
        return token

    def expr(self) -> Poly:
        sign = 1
        if self.peek() in (("op", "+"), ("op", "-")):
            sign = -1 if self.take()[1] == "-" else 1
        result = _add({}, self.term(), sign)
        while self.peek() in (("op", "+"), ("op", "-")):
            sign = -1 if self.take()[1] == "-" else 1
            result = _add(result, self.term(), sign)
        return result

    def term(self) -> Poly:
        result = self.factor()
        previous_was_number = self.tokens[self.i - 1][0] == "num"
        while True:
            token = self.peek()
            if token == ("op", "*"):
                self.take()
                result = _mul(result, self.factor())
            elif token == ("op", "/"):
                self.take()
                divisor = _constant(self.factor())
                if not divisor:
                    raise _NotPolynomial
                result = {m: c / divisor for m, c in result.items()}
            elif token is not None and (token[0] in ("num", "var") or token[1] in ("(", "{")):
                if token[0] == "num" and previous_was_number:  # "1 000" is not 1*000
                    raise _NotPolynomial
                result = _mul(result, self.factor())
            else:
                return result
            previous_was_number = self.tokens[self.i - 1][0] == "num"

    def factor(self) -> Poly:
        base = self.base()
        if self.peek() == ("op", "^"):
            self.take()
            exponent = _constant(self.base())
            if exponent is None or exponent.denominator != 1 or not 0 <= exponent <= MAX_POWER:
                raise _NotPolynomial
            if self.peek() == ("op", "^"):  # towers are for sympy (and the size guard)
                raise _NotPolynomial
            result: Poly = {(): Fraction(1)}
            for _ in range(int(exponent)):
                result = _mul(result, base)
            return result
        return base

    def base(self) -> Poly:
        kind, value = self.take()
        if kind == "num":
            return {(): Fraction(value)} if Fraction(value) else {}
        if kind == "var":
            return {((value, 1),): Fraction(1)}
        if value not in ("(", "{", "-"):
            raise _NotPolynomial
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _NotPolynomial
        if value == "-":
            result = {m: -c for m, c in self.factor().items()}
        else:
            result = self.expr()
            self.take(")" if value == "(" else "}")
        self.depth -= 1
        return result


def parse_polynomial(text: str) -> tuple[tuple[Monomial, Fraction], ...] | None:
    """The expanded canonical form of ``text`` (see module docstring), or None outside the grammar."""
    if len(text) > MAX_CHARS or not text.strip() or re.search(r"\d{60,}", text):
        return None
    try:
        tokens = _tokens(text)
        parser = _Parser(tokens)
        poly = parser.expr()
        if parser.i != len(tokens):
            return None
    except (_NotPolynomial, ZeroDivisionError, ValueError):
        return None
    return tuple(sorted(poly.items()))


# A factorisation counted (fixhack): the non-constant factors of a product at the top level, a power counted by its
# exponent ("(x-1)^2" is two); a sum at the top level is one factor. "(x^2-1)(x^2+1)" has two, "(x-1)(x+1)(x^2+1)" three.
_FACTOR = re.compile(r"\((?P<group>[^()]*(?:\([^()]*\)[^()]*)*)\)|(?P<letter>[a-zA-Z])|(?P<number>\d+(?:\.\d+)?)")
_POWER = re.compile(r"\^\{?(\d{1,2})\}?")


def factor_count(text: str) -> int | None:
    """How many non-constant factors ``text`` is written as (the comment above), or None outside a plain product of
    parenthesised factors, letters and numbers (functions, fractions, relations)."""
    plain = re.sub(r"\\left|\\right|\\cdot|\\times|\\[,!; ]|\s|\*", "", text).replace("{", "(").replace("}", ")") if len(text) <= MAX_CHARS else ""
    plain = re.sub(r"\^\((\d{1,2})\)", r"^\1", plain)  # "^{2}" read back as "^2"
    if not plain or "\\" in plain or re.search(r"[^-+a-zA-Z0-9().^]", plain):
        return None
    plain = plain[1:] if plain[0] in "+-" else plain
    count, at = 0, 0
    while at < len(plain):
        found = _FACTOR.match(plain, at)
        if found is None:
            return 1 if plain[at] in "+-" else None  # a sum at the top level is one factor
        at = found.end()
        power = _POWER.match(plain, at)
        times = int(power.group(1)) if power else 1
        at = power.end() if power else at
        if found.group("number") is None:
            count += times
    return count


def coarser_factorisation(pred: str, gold: str) -> bool:
    """Is ``pred`` a product of fewer non-constant factors than ``gold``, itself a product of two or more (an
    equal polynomial not factored as far: "(x^2-1)(x^2+1)" for "(x-1)(x+1)(x^2+1)")?"""
    wanted = factor_count(gold)
    if wanted is None or wanted < 2:
        return False
    found = factor_count(pred)
    return found is not None and found < wanted
