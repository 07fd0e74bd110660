"""The ``rule`` step scorer of the ``process`` reward: is the arithmetic a step writes down true?

    step score = 1.0  every checkable equation of the step holds
                 0.0  one of them does not
                 None the step has no checkable equation (left out of the summary)

A *checkable equation* is a chain ``e1 = e2 (= e3 ...)`` (or ``≈`` / ``\\approx``, which also holds within
:data:`APPROX_TOLERANCE`: red team ``holdout_r38``) of plain arithmetic: numbers (integers, decimals), ``+ - * /``
and the signs a reader takes for them (``×``, ``÷``, ``·``, ``⋅``, ``∗``, ``∕``, LaTeX ``\\times``, ``\\cdot``, ``\\div`` and
``\\frac{a}{b}`` of two whole numbers), with parentheses. A link ``a = b`` of the chain is checked when both sides
parse and at least one has an operator (``12 = 12`` says nothing); it holds when both sides have the same exact
value (rational arithmetic, no floats), or when one side is a decimal with d digits after the point and the other
rounds to it at d digits (``10 / 3 = 3.33``). A division by zero makes the link false.

What the rule will not read, so that a correct step is never marked wrong for context it cannot see: a side that
touches a letter, a variable or another symbol (``2x + 3 = 7``, ``f(2) = 4``, ``3² = 9``, ``4! = 24``, ``50% = 0.5``),
a side after a word that makes the number part of something bigger (``half of 8 = 4``, ``3 times 4 = 12``), a side
before such a word (``= 4 squared``), and thousands separators (``1,000 + 1 = 1,001``). Those links are unscored.

Three layouts of an equation are read as the equation they write (red team ``holdout_r25``): a currency sign
before a number is the amount (``0.25 × $80 = $20`` is ``0.25 × 80 = 20``); an arrow (``→``, ``->``, ``⇒``, ``=>``)
from a computation to a bare number is its result (``3 × 4 → 12``; an arrow between two expressions, ``24 → 24 +
1 = 25``, is "then" and links nothing); and a line that opens with ``=`` or an arrow continues the line above
(``0.25 × 80`` / ``= 20``), so an equation split over two lines is one equation (:func:`polyreward.process.
segment_steps` keeps such a line in its step). A unit word inside an equation (``3 rows × 4 apples = 12 apples``)
stays unscored: mixed units (``1 hour + 30 minutes = 90 minutes``) make a unit-stripped equation false.

The text is read as a person sees it (:func:`polyreward.verifiers.reading.normalise` and
:func:`polyreward.verifiers.hidden_text.without_comments`): zero-width characters, full-width or other-script digits and look-alike minus signs cannot hide a wrong equation,
and an equation inside an HTML/LaTeX comment or struck through earns nothing. Markdown emphasis (``**2 + 2 = 5**``)
does not hide one either. Nothing is evaluated as code: a hand-written tokenizer and recursive-descent parser read at
most ``MAX_SIDE_CHARS`` characters per side, numbers of at most ``MAX_DIGITS`` digits and ``MAX_DEPTH`` nested
parentheses (beyond: unscored), so the work is linear in the text and no input raises.

The policy's cheapest moves against this rule, and what stops them: writing no arithmetic (the rollout has no
scored step; the ``process`` reward gives it ``unscored``, 0.0 by default, never full marks); hiding a wrong step in
prose or notation the rule does not read (it is unscored, not credited); padding with trivially true equations
(``1 + 1 = 2``): NOT stopped by this rule alone -- pair it with an outcome reward (PAPO credits the process only among
correct answers) or use the ``model`` / ``judge`` step scorers. Reconstructed rule (ours), not a published algorithm.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from polyreward.verifiers.hidden_text import without_comments
from polyreward.verifiers.reading import normalise

MAX_SIDE_CHARS = 200
MAX_DIGITS = 30
MAX_DEPTH = 16

# a maximal run of arithmetic characters on one line (no nested quantifier: one pass); "→" is a result arrow
_RUN = re.compile(r"[0-9.+\-*/×÷·() \t=→≈]+")
_LINK = re.compile(r"([=→≈])")
# spellings of "approximately equal" read as "≈" (a link that holds within APPROX_TOLERANCE, red team holdout_r38)
_APPROX = (("\\approx", "≈"), ("\\simeq", "≈"), ("≃", "≈"), ("≅", "≈"), ("~=", "≈"))
APPROX_TOLERANCE = Fraction(2, 100)
# arrow spellings read as "→"; a currency sign opening an amount; a line break before a continuing "=" or arrow
_ARROWS = (("->", "→"), ("=>", "→"), ("⇒", "→"), ("⟶", "→"), ("⟹", "→"), ("➔", "→"), ("➜", "→"))
_CURRENCY = re.compile(r"(?<![\w$€£¥])[$€£¥](?=\d)")
_CONTINUED = re.compile(r"\n[ \t]*(?=[=→])")
_LATEX = (("\\times", "×"), ("\\cdot", "·"), ("\\div", "÷"), ("\\left", ""), ("\\right", ""), ("\\(", " "),
          ("\\)", " "), ("\\[", " "), ("\\]", " "), ("\\,", " "), ("\\!", ""), ("\\;", " "), ("**", " "), ("__", " "))
# operator look-alikes NFKC leaves alone: dot operators, the asterisk operator, division and fraction slashes, crosses
_SIGNS = str.maketrans({"\u22c5": "·", "\u2219": "·", "\u2217": "*", "\u2215": "/", "\u2044": "/", "\u2715": "×",
                        "\u2716": "×", "\u2a2f": "×"})
_FRAC = re.compile(r"\\[dt]?frac\{\s*(\d{1,30})\s*\}\{\s*(\d{1,30})\s*\}")
# a markdown emphasis marker (*x* or _x_), opening after a space or closing before one: not a multiplication
_EMPHASIS = re.compile(r"(?:(?<=\s)|^)[*_](?=[^\s*_])|(?<=[^\s*_])[*_](?=[\s.,;:!?)]|$)", re.MULTILINE)
_OPERATORS = frozenset("+-*/×÷·")
# characters next to a run that end a clause: the run's edge is the start or end of an expression
_CLAUSE_EDGE = frozenset(",;:$\"'`?.")
# words that make a number next to them part of a bigger expression ("half of 8", "3 times 4", "4 squared")
_BINDING_WORDS = frozenset({
    "of", "times", "plus", "minus", "over", "by", "divided", "squared", "cubed", "half", "twice", "double", "triple",
    "thrice", "sqrt", "root", "log", "ln", "sin", "cos", "tan", "exp", "mod", "modulo", "percent", "factorial",
    "power", "th", "st", "nd", "rd", "than", "per",
})


def arithmetic_step_scores(prompt: Any, steps: Sequence[str], row: Mapping[str, Any]) -> list[float | None]:
    """The rule step scorer: :func:`check_step` of each step (the ``(prompt, steps, row)`` step-scorer signature)."""
    return [check_step(step) for step in steps]


def check_step(text: str) -> float | None:
    """1.0 when every checkable equation in ``text`` holds, 0.0 when one does not, None when none is checkable."""
    if not isinstance(text, str) or (text.isascii() and "=" not in text and "->" not in text and "\\approx" not in text
                                     and "\\simeq" not in text):
        return None
    text = _plain(text)  # full-width "＝" and the like become "=" here
    verdicts = [ok for line in text.split("\n") if "=" in line or "→" in line or "≈" in line for ok in _line_links(line)]
    if not verdicts:
        return None
    return 1.0 if all(verdicts) else 0.0


def _plain(text: str) -> str:
    text = without_comments(normalise(text))
    if not text.isascii():
        text = text.translate(_SIGNS)
    for approx, sign in _APPROX:
        text = text.replace(approx, sign)
    if "\\" in text or "**" in text or "__" in text:
        text = _FRAC.sub(r"(\1)/(\2)", text)
        for latex, sign in _LATEX:
            text = text.replace(latex, sign)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(" ", text)
    if ">" in text or not text.isascii():
        for arrow, sign in _ARROWS:
            text = text.replace(arrow, sign)
    if "$" in text or not text.isascii():
        text = _CURRENCY.sub("", text)
    return _CONTINUED.sub(" ", text) if "\n" in text else text


def _line_links(line: str) -> list[bool]:
    """Checked links (True: holds) of every equation chain on one line."""
    out: list[bool] = []
    for run in _RUN.finditer(line):
        if "=" not in run.group() and "→" not in run.group() and "≈" not in run.group():
            continue
        start, end = run.start(), run.end()
        while start < end and (line[start] in " \t" or (line[start] == "." and not line[start + 1:start + 2].isdigit())):
            start += 1  # spaces, or a sentence's full stop, before the equation
        while end > start and line[end - 1] in " \t":
            end -= 1
        while end > start and line[end - 1] == "." and (end == len(line) or not line[end].isdigit()):
            end -= 1  # "... = 12." ends a sentence
        pieces = _LINK.split(line[start:end])
        sides, links = pieces[::2], pieces[1::2]
        if len(sides) < 2:
            continue
        values = [_value(side) for side in sides]
        if not _left_edge_free(line, start, sides[0]):
            values[0] = None
        if not _right_edge_free(line, end, sides[-1]):
            values[-1] = None
        for k in range(len(sides) - 1):
            left, right = values[k], values[k + 1]
            if left is None or right is None or not (_has_operator(sides[k]) or _has_operator(sides[k + 1])):
                continue
            if links[k] == "→" and (not _has_operator(sides[k]) or _has_operator(sides[k + 1])):
                continue  # an arrow gives a computation's result; between two expressions it is "then"
            out.append(_holds(left, right, sides[k], sides[k + 1]) or (links[k] == "≈" and _close(left, right)))
    return out


def _left_edge_free(line: str, start: int, side: str) -> bool:
    """True when nothing before the run binds its first side (module docstring)."""
    if start == 0:
        return True
    before = line[start - 1]
    first = side.lstrip(" \t")[:1]
    if before in _CLAUSE_EDGE:
        # "1,000 + 1": a digit, a comma, a digit is a thousands separator
        return not (before == "," and start >= 2 and line[start - 2].isdigit() and first.isdigit())
    if before not in " \t":
        return False  # a letter, a variable's subscript, a power, a factorial, a percent sign touches it
    j = start - 1
    while j >= 0 and line[j] in " \t":
        j -= 1
    if j < 0:
        return True
    if line[j] in _CLAUSE_EDGE:
        return first not in _OPERATORS or first == "-"
    if not line[j].isalpha():
        return False
    word_start = j
    while word_start > 0 and j - word_start < 24 and line[word_start - 1].isalpha():
        word_start -= 1
    word = line[word_start:j + 1].lower()
    if first in _OPERATORS:  # "x - 3 = 7", "2x + 3 = 7": the side continues an expression; "so -1 + 2" does not
        signed = side.lstrip(" \t")
        return first == "-" and signed[1:2].isdigit() and len(word) > 1 and word not in _BINDING_WORDS
    return len(word) > 1 and word not in _BINDING_WORDS


def _right_edge_free(line: str, end: int, side: str) -> bool:
    """True when nothing after the run binds its last side (module docstring)."""
    if end >= len(line):
        return True
    after = line[end]
    last = side.rstrip(" \t")[-1:]
    if after in _CLAUSE_EDGE and after != ".":
        return not (after == "," and end + 1 < len(line) and line[end + 1].isdigit() and last.isdigit())
    if after == ".":
        return True  # the full stop left in place after digits ("= 12.x" is rare prose)
    if after not in " \t":
        return False
    j = end
    while j < len(line) and line[j] in " \t":
        j += 1
    if j >= len(line) or line[j] in _CLAUSE_EDGE or line[j] in "([{":
        return True
    if not line[j].isalpha():
        return False
    word_end = j
    while word_end < len(line) and word_end - j < 24 and line[word_end].isalpha():
        word_end += 1
    word = line[j:word_end].lower()
    return len(word) > 1 and word not in _BINDING_WORDS


def _has_operator(side: str) -> bool:
    stripped = side.strip(" \t")
    return any(ch in _OPERATORS for ch in stripped[1:]) or any(ch in "*/×÷·" for ch in stripped[:1])


def _holds(left: Fraction | str, right: Fraction | str, left_text: str, right_text: str) -> bool:
    if isinstance(left, str) or isinstance(right, str):  # a division by zero: the equation is false
        return False
    if left == right:
        return True
    for value, other_text in ((left, right_text), (right, left_text)):
        places = _decimal_places(other_text)
        if places:
            other = _value(other_text)
            if isinstance(other, Fraction) and abs(value - other) <= Fraction(1, 2 * 10 ** places):
                return True
    return False


def _close(left: Fraction | str, right: Fraction | str) -> bool:
    """An approximate link ``a ≈ b`` holds within :data:`APPROX_TOLERANCE` of the larger magnitude, besides the
    rounding of :func:`_holds`: ``4800 / 72 ≈ 67`` and ``1234 × 0.98 ≈ 1200`` hold, ``85 / 2.89 ≈ 24.9`` (29.4) does
    not. Without this reading a wrong step written with ``≈`` / ``\\approx`` was unscored (red team ``holdout_r38``)."""
    if isinstance(left, str) or isinstance(right, str):
        return False
    return abs(left - right) <= APPROX_TOLERANCE * max(abs(left), abs(right))


def _decimal_places(side: str) -> int:
    """Digits after the point when the side is one decimal literal (``3.33``, ``-0.5``), else 0."""
    literal = side.strip(" \t").lstrip("-")
    whole, dot, fraction = literal.partition(".")
    return len(fraction) if dot and fraction.isdigit() and (whole.isdigit() or whole == "") and fraction else 0


class _Unreadable(Exception):
    """The side is not plain arithmetic the parser reads (or it is too long, too deep, a number too long)."""


_ZERO_DIVISION = "division by zero"


def _value(side: str) -> Fraction | str | None:
    """The exact value of one side; the string ``_ZERO_DIVISION`` for a division by zero; None when unreadable."""
    if len(side) > MAX_SIDE_CHARS or not side.strip(" \t"):
        return None
    try:
        tokens = _tokens(side)
        parser = _Parser(tokens)
        value = parser.expression(0)
        if parser.position != len(tokens):
            return None
        return value
    except _Unreadable:
        return None
    except ZeroDivisionError:
        return _ZERO_DIVISION


def _tokens(side: str) -> list[Fraction | str]:
    out: list[Fraction | str] = []
    i, n = 0, len(side)
    while i < n:
        ch = side[i]
        if ch in " \t":
            i += 1
        elif ch.isdigit() or ch == ".":
            j = i
            while j < n and (side[j].isdigit() or side[j] == "."):
                j += 1
            literal = side[i:j]
            if literal.count(".") > 1 or literal == "." or literal.endswith(".") or len(literal) > MAX_DIGITS + 1:
                raise _Unreadable(literal)
            if out and isinstance(out[-1], Fraction):
                raise _Unreadable("two numbers in a row")  # "3 4" is not arithmetic
            out.append(Fraction(literal))
            i = j
        elif ch in "+-*/×÷·()":
            out.append({"×": "*", "·": "*", "÷": "/"}.get(ch, ch))
            i += 1
        else:
            raise _Unreadable(ch)
    return out


class _Parser:
    """expression := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*; factor := '-' factor | number | '(' expression ')'."""

    def __init__(self, tokens: list[Fraction | str]) -> None:
        self.tokens, self.position = tokens, 0

    def _peek(self) -> Fraction | str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def expression(self, depth: int) -> Fraction:
        value = self.term(depth)
        while self._peek() in ("+", "-"):
            operator = self.tokens[self.position]
            self.position += 1
            right = self.term(depth)
            value = value + right if operator == "+" else value - right
        return value

    def term(self, depth: int) -> Fraction:
        value = self.factor(depth)
        while self._peek() in ("*", "/"):
            operator = self.tokens[self.position]
            self.position += 1
            right = self.factor(depth)
            value = value * right if operator == "*" else value / right
        return value

    def factor(self, depth: int) -> Fraction:
        if depth > MAX_DEPTH:
            raise _Unreadable("too deep")
        token = self._peek()
        if token == "-":
            self.position += 1
            return -self.factor(depth + 1)
        if token == "(":
            self.position += 1
            value = self.expression(depth + 1)
            if self._peek() != ")":
                raise _Unreadable("unclosed parenthesis")
            self.position += 1
            return value
        if isinstance(token, Fraction):
            self.position += 1
            return token
        raise _Unreadable(str(token))
