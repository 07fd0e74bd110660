"""Formatting is not computation: an answer read through its notation, in one place.

    read_through(answer) -> the same answer with its formatting removed

A model writes the same number many ways: ``\\text{42}``, ``\\textbf{5}``, ``\\mathbf{42}``, ``\\displaystyle 42``,
``\\left( 3 \\right)``, ``10,\\!000``, ``10\\,000``, ``10{,}000``, ``12\\text{ cm}^2``, ``5 \\mathrm{m/s}``, ``90^\\circ``,
``90^{\\circ}``, ``- 5``. None of these is an operation on numbers, so none of them may make the ``work_avoidance`` guard
refuse the answer, and none may hide the value from the exact numeric comparison. :func:`read_through` removes
them, and only them:

* **text and font wrappers** (``\\text``, ``\\textbf``, ``\\textit``, ``\\textrm``, ``\\textnormal``, ``\\mathrm``,
  ``\\mathbf``, ``\\mathit``, ``\\mathsf``, ``\\boldsymbol``, ``\\bm``, ``\\mbox``, ``\\operatorname``): a wrapper around
  math (digits, signs, brackets: ``\\text{42}``, ``\\text{(7+4i)}``) is read as that math; around a unit right after
  a value (``12\\text{ cm}^2``, ``5 \\mathrm{m/s}``, ``3\\text{ dollars}``) it is dropped with the unit's power; around
  other words (``\\text{ or }``, ``\\text{squared}``, ``\\text{five}``) the words stay, as words -- a word that changes
  the value or names an alternative is not formatting;
* **style and sizing** (``\\displaystyle``, ``\\textstyle``, ``\\left``/``\\right``, ``\\big``...) and **spacing**
  (``\\,`` ``\\;`` ``\\:`` ``\\!`` ``\\ `` ``~`` ``\\quad``): dropped, spacing read as one space;
* **degree marks** (``^\\circ``, ``^{\\circ}``, ``\\degree``; ``°`` is ``^\\circ`` after
  :func:`~polyreward.verifiers.math_normalize.normalize_unicode`): a unit, dropped;
* a **spaced sign** at the start of a value (``- 5``, ``x = - 5``): joined to the number.

Thousands separators (``1,234``, ``1 234``, ``10,\\!000``, ``10{,}000``) and currency (``\\$5``) are read by
:func:`~polyreward.verifiers.math_normalize.normalize_answer` for gold and prediction alike; ``\\cfrac`` is ``\\frac``
there too. What is left after :func:`read_through` is what the guard judges (:mod:`.work_avoidance`): a number, or a
remaining operation on numbers.

Bounded: an answer over :data:`MAX_CHARS` is returned unchanged (no plain number is that long), and wrappers are
unwrapped innermost first at most :data:`MAX_DEPTH` levels deep; every step is one regex pass without nested
quantifiers. Reconstructed rule (ours).
"""

from __future__ import annotations

import re

from polyreward.verifiers.math_normalize import VALUE_WORDS, number_from_words

MAX_CHARS = 1_000
MAX_DEPTH = 12

_WRAPPER = re.compile(
    r"\\(?:text|textrm|textnormal|textbf|textit|textsf|texttt|textup|mathrm|mathbf|mathit|mathsf|mathtt|mathnormal"
    r"|boldsymbol|bm|mbox|hbox|operatorname)\s*\{([^{}]*)\}"
)
_STYLE = re.compile(
    r"\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle|left|right|[Bb]igg?[lr]?|middle)(?![A-Za-z])"
)
_SPACING = re.compile(r"(?<!\\)\\[,;:! ]|\\q?quad(?![A-Za-z])|~")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\degree(?![A-Za-z])|\\textdegree(?![A-Za-z])")
# a unit: letters with slashes, dots, spaces or a power ("cm", "m/s", "km/h", "sq ft", "m/s^2")
_UNIT = re.compile(r"\s*[A-Za-z]+(?:\s*[./ ]\s*[A-Za-z]+){0,3}\s*(?:\^\s*\{?\s*-?\d\s*\}?)?\s*")
_UNIT_POWER = re.compile(r"\s*\^\s*(?:\{\s*-?\d\s*\}|-?\d)")
# words that are never a unit: they name alternatives, negate, or change the value
_NOT_UNITS = {"or", "and", "not", "either", "possibly", "maybe", "otherwise", "else", "but", "plus", "minus", "times", "over",
              "of", "per"} | VALUE_WORDS
_SPACED_SIGN = re.compile(r"(^|[=(\[{,])\s*([-+])\s+(?=[\d.])")
_AFTER_VALUE = re.compile(r"[\d})%.]\s*$")


def _unwrap(match: re.Match) -> str:
    content = match.group(1)
    stripped = content.strip()
    if not stripped:
        return " "
    if not re.search(r"[A-Za-z]", stripped) or re.fullmatch(r"[A-Za-z]", stripped):
        return stripped  # \text{42}, \mathbf{(3)}, \mathrm{e}: the math itself
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", stripped)}
    is_unit = _UNIT.fullmatch(content) is not None and not words & _NOT_UNITS and number_from_words(stripped) is None
    if is_unit and _AFTER_VALUE.search(match.string, 0, match.start()):
        return "\x00"  # a unit after a value: dropped below with its power ("12\text{ cm}^2")
    return f" {stripped} "


def read_through(text: str) -> str:
    """``text`` (an answer already :func:`~polyreward.verifiers.math_normalize.normalize_answer`-ed) with its
    formatting removed (module docstring)."""
    if len(text) > MAX_CHARS or "\x00" in text:
        return text
    text = _DEGREES.sub("", text)
    text = _STYLE.sub("", text)
    text = _SPACING.sub(" ", text)
    for _ in range(MAX_DEPTH):
        unwrapped = _WRAPPER.sub(_unwrap, text)
        if unwrapped == text:
            break
        text = unwrapped
    if "\x00" in text:
        text = re.sub("\x00(?:" + _UNIT_POWER.pattern + ")?", "", text)
    text = _SPACED_SIGN.sub(r"\1\2", text)
    return " ".join(text.split())
