"""Formatting is not computation: an answer read through its notation, in one place.

    read_through(answer) -> the same answer with its formatting removed

A model writes the same number many ways: ``\\text{42}``, ``\\textbf{5}``, ``\\mathbf{42}``, ``\\displaystyle 42``,
``\\left( 3 \\right)``, ``10,\\!000``, ``10\\,000``, ``10{,}000``, ``12\\text{ cm}^2``, ``5 \\mathrm{m/s}``, ``90^\\circ``,
``90^{\\circ}``, ``- 5``. None of these is an operation on numbers, so none of them may make the ``work_avoidance`` guard
refuse the answer, and none may hide the value from the exact numeric comparison. :func:`read_through` removes
them, and only them:

* **text and font wrappers** (``\\text``, ``\\textbf``, ``\\textit``, ``\\textrm``, ``\\textnormal``, ``\\mathrm``,
  ``\\mathbf``, ``\\mathit``, ``\\mathsf``, ``\\boldsymbol``, ``\\bm``, ``\\mbox``, ``\\operatorname``, and the emphasis
  ``\\underline``, ``\\uline``, ``\\emph``: holdout120): a wrapper around
  math (digits, signs, brackets: ``\\text{42}``, ``\\text{(7+4i)}``) is read as that math; around a unit right after
  a value (``12\\text{ cm}^2``, ``5 \\mathrm{m/s}``, ``3\\text{ dollars}``) it is dropped with the unit's power; around
  other words (``\\text{ or }``, ``\\text{squared}``, ``\\text{five}``) the words stay, as words -- a word that changes
  the value or names an alternative is not formatting;
* **grouping braces** (``{42}``, a value alone in parentheses ``(3)``; a tuple ``(1, 2)`` stays);
* **style and sizing** (``\\displaystyle``, ``\\textstyle``, ``\\left``/``\\right``, ``\\big``..., a type size at or
  above normal: ``\\large 180``, ``\\Large``, ``\\huge``; holdout120) and **spacing**
  (``\\,`` ``\\;`` ``\\:`` ``\\!`` ``\\ `` ``~`` ``\\quad``): dropped, spacing read as one space;
* **degree marks** (``^\\circ``, ``^{\\circ}``, ``\\degree``; ``°`` is ``^\\circ`` after
  :func:`~polyreward.verifiers.math_normalize.normalize_unicode`): a unit, dropped;
* a **spaced sign** at the start of a value (``- 5``, ``x = - 5``): joined to the number;
* a **base-ten subscript** on a numeral (``11_{10}``, ``11_10``, ``3.5_{10}``: holdout90): it names the base the digits
  are already read in, so it is dropped; a subscript of another base (``1011_2``) is the numeral of that base and
  stays, as does an index on a letter (``a_{10}``, ``\\log_{10}``).

Thousands separators (``1,234``, ``1 234``, ``10,\\!000``, ``10{,}000``) and currency (``\\$5``) are read by
:func:`~polyreward.verifiers.math_normalize.normalize_answer` for gold and prediction alike; ``\\cfrac`` is ``\\frac``
there too. What is left after :func:`read_through` is what the guard judges (:mod:`.work_avoidance`): a number, or a
remaining operation on numbers.

Bounded: an answer over :data:`MAX_CHARS` is returned unchanged (no plain number is that long), and wrappers are
unwrapped innermost first at most :data:`MAX_DEPTH` levels deep; every step is one regex pass without nested
quantifiers. Reconstructed rule (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.math_normalize import VALUE_WORDS, bracket_pairs, drop_thousands_separators, number_from_words
from polyreward.verifiers.memo import memoized_text

MAX_CHARS = 1_000
MAX_DEPTH = 12

# the text and font wrappers: what they wrap is read as itself (a letter in \\mathbf{B} is the letter B; choice.py too)
FONT_WRAPPERS = (r"(?:text|textrm|textnormal|textbf|textit|textsf|texttt|textup|mathrm|mathbf|mathit|mathsf|mathtt|mathnormal"
                 r"|boldsymbol|bm|mbox|hbox|operatorname|underline|uline|emph)")
_WRAPPER = re.compile(r"\\" + FONT_WRAPPERS + r"\s*\{")
# a type size at or above normal ("\\large 180", "\\Large\\textbf{C}"): how big the value is printed (small print is
# another matter: reading.py sets "\\tiny" text aside; choice.py too)
_LARGER_SIZES = r"normalsize|large|Large|LARGE|huge|Huge"
LARGER_TYPE = re.compile(r"\\(?:" + _LARGER_SIZES + r")(?![A-Za-z])")
_STYLE = re.compile(
    r"\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle|left|right|[Bb]igg?[lr]?|middle|" + _LARGER_SIZES + r")(?![A-Za-z])"
)
_SPACING = re.compile(r"(?<!\\)\\[,;:! ]|\\q?quad(?![A-Za-z])|~")
# a degree mark, with the temperature scale after it ("-7^\\circ C", "-7^\\circ\\mathrm{C}", "451\\degree F"; holdout24)
_SCALE = r"(?:\s*(?:\\(?:text|mathrm)\s*\{\s*[CFK]\s*\}|[CFK](?![A-Za-z])))?"
_DEGREES = re.compile(r"(?:\^\s*(?:\{\s*\\circ\s*\}|\\circ(?=[CFK](?![A-Za-z])|(?![A-Za-z])))|\\(?:text)?degree(?=[CFK](?![A-Za-z])|(?![A-Za-z])))" + _SCALE)
# a unit: letters with slashes, dots, spaces or a power ("cm", "m/s", "km/h", "sq ft", "m/s^2")
_UNIT = re.compile(r"\s*[A-Za-z]+(?:\s*[./ ]\s*[A-Za-z]+){0,3}\s*(?:\^\s*\{?\s*-?\d\s*\}?)?\s*")
_UNIT_POWER = re.compile(r"\s*\^\s*(?:\{\s*-?\d\s*\}|-?\d)")
# words that are never a unit: they name alternatives, negate, or change the value
_NOT_UNITS = {"or", "and", "not", "either", "possibly", "maybe", "otherwise", "else", "but", "plus", "minus", "times", "over",
              "of", "per", "hundred", "thousand", "million", "billion"} | VALUE_WORDS  # scale words change the value
# braces that only group (not a command's argument, an exponent or a subscript): "{42}", "\text{{0}}"
_GROUP = re.compile(r"(?<![\w}\]^_\\])\{([^{}\\]*)\}")
_BASE_TEN = re.compile(r"(?<![\w.^{\\])(\d+(?:\.\d+)?)\s*_\s*(?:\{\s*10\s*\}|10(?![\d.]))")  # "11_{10}": base ten named
_SPACED_SIGN = re.compile(r"(^|[=(\[{,])\s*([-+])\s+(?=[\d.])")


def _after_value(text: str, end: int) -> bool:
    """Does a value (a digit, a closing bracket, ``%``) end right before ``end``, spaces aside?"""
    i = end - 1
    while i >= 0 and text[i] == " ":
        i -= 1
    return i >= 0 and text[i] in "0123456789})%."


def _unwrapped(content: str, after_value: bool) -> str:
    """What a text or font wrapper around ``content`` reads as (module docstring)."""
    stripped = content.strip()
    if not stripped:
        return " "
    if re.fullmatch(r"[A-Za-z]", stripped):
        return "\x00" if after_value else stripped  # a one-letter unit after a value (5\text{ m}, 45^\circ\text{C}), else a symbol
    if not re.search(r"[A-Za-z]", stripped):
        return stripped  # \text{42}, \mathbf{(3)}: the math itself
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", stripped)}
    is_unit = _UNIT.fullmatch(content) is not None and not words & _NOT_UNITS and number_from_words(stripped) is None
    if is_unit and after_value:
        return "\x00"  # a unit after a value: dropped below with its power ("12\text{ cm}^2")
    return f" {stripped} "


def _unwrap_once(text: str) -> str:
    """Each outermost wrapper replaced by what it reads as (one level; brackets matched once: linear)."""
    pairs = bracket_pairs(text, "{", "}")
    out, done = [], 0
    for match in _WRAPPER.finditer(text):
        close = pairs.get(match.end() - 1)
        if match.start() < done or close is None:
            continue  # inside a wrapper replaced in this pass (the next pass reads it), or unclosed
        out += [text[done:match.start()], _unwrapped(text[match.end():close], _after_value(text, match.start()))]
        done = close + 1
    return "".join(out) + text[done:] if out else text


@memoized_text()
def read_through(text: str) -> str:
    """``text`` (an answer already :func:`~polyreward.verifiers.math_normalize.normalize_answer`-ed) with its
    formatting removed (module docstring)."""
    if len(text) > MAX_CHARS or "\x00" in text:
        return text
    text = _DEGREES.sub("", text)
    text = _STYLE.sub("", text)
    text = _SPACING.sub(" ", text)
    for _ in range(MAX_DEPTH):
        unwrapped = _unwrap_once(_GROUP.sub(r"\1", text))
        if unwrapped == text:
            break
        text = unwrapped
    if "\x00" in text:
        text = re.sub("\x00(?:" + _UNIT_POWER.pattern + ")?", " ", text)  # a space: "2\text{x}21" is not 221
    if "_" in text:
        text = _BASE_TEN.sub(r"\1", text)
    text = _SPACED_SIGN.sub(r"\1\2", " ".join(text.split()))
    return drop_thousands_separators(_outer_group(text))


def _outer_group(text: str) -> str:
    """``{42}`` -> ``42`` (braces only group), ``(3)`` -> ``3`` (one value in parentheses); a tuple ``(1, 2)`` and
    ``(x+1)(x-1)`` stay."""
    for _ in range(MAX_DEPTH):
        if len(text) < 2 or text[0] + text[-1] not in ("{}", "()"):
            return text
        if bracket_pairs(text, text[0], text[-1]).get(0) != len(text) - 1:
            return text
        inner = text[1:-1].strip()
        if text[0] == "(" and re.search(r"[,;]", inner):
            return text
        text = inner
    return text
