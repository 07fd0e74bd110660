"""Answers that equal the gold without doing the work the question asks for (``math_accuracy``'s
``work_avoidance`` guard, on by default).

Math-Verify decides *equivalence*: ``478 / 1 + -682`` equals ``-204`` and ``\\frac{3910}{6885}`` equals
``\\frac{46}{81}``. A reward built on equivalence alone pays a policy for copying the question's own expression
into the box, which credits every arithmetic and fraction prompt without computing anything. The guard refuses
(score 0, reason ``unevaluated``):

* **the prompt's own expression**: the answer, with spacing, ``$``, braces, ``\\left``/``\\right`` and
  multiplication signs squeezed out, is a whole math expression of the prompt (not a part of a longer one) and
  is not the gold itself -- ``\\boxed{(7.0 + 4.0i) - (4.0 + 6.0i)}`` for "Subtract (7.0 + 4.0i) - (4.0 + 6.0i)";
* **not in the gold's form class**, where the gold is a number:

  - an expression (``2 \\times 21``, ``10^2``, ``4!``, ``\\sqrt{4}``) -- a number, a simplified fraction, a
    mixed number, a percent, a number with a unit, scientific notation (``6.02 \\times 10^{23}``) or a chain
    that ends in one (``9 \\times 2 = 18``: the work is shown and the value stated) are numbers;
  - an unsimplified fraction (``\\frac{3910}{6885}``, ``\\frac{10}{2}``, ``7/1``) unless the gold is written
    unsimplified too.

``work_avoidance: false`` restores plain equivalence (Math-Verify's semantics). Reconstructed rule (ours).
"""

from __future__ import annotations

import re
from math import gcd
from typing import Any

from polyreward.verifiers.math_normalize import normalize_unicode, parse_numeral, rewrite_python_syntax

MAX_PROMPT_CHARS = 100_000

_SQUEEZED = re.compile(r"\s+|\$|\\left(?![A-Za-z])|\\right(?![A-Za-z])|\\[,;!: ]|[{}*]|\\cdot(?![A-Za-z])|\\times(?![A-Za-z])")
_BARE_NUMBER = re.compile(r"[-+]?[\d.,]+%?")
_EXPRESSION = re.compile(r"[-+/^()\[\]\\]|\d[A-Za-z]|[A-Za-z]\d")
_CONTINUES_BEFORE = set("+-/^(=.0123456789")
_CONTINUES_AFTER = set("+-/^)=0123456789")
_FRACTION = re.compile(r"[-+]?\s*(?:(\d+)\s*/\s*(\d+)|\\[dt]?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\})")
_SCIENTIFIC = re.compile(r"[-+]?\d+(?:\.\d+)?\s*(?:\\times|\\cdot|\*|x)?\s*10\s*\^\s*\{?\s*[-+]?\d+\s*\}?|10\s*\^\s*\{?\s*[-+]?\d+\s*\}?")


def squeeze(text: str) -> str:
    """``text`` without spacing, ``$``, braces, ``\\left``/``\\right`` and multiplication signs; ``\\dfrac`` is ``\\frac``."""
    return _SQUEEZED.sub("", text.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac"))


def prompt_form(prompt: str) -> str:
    """A prompt squeezed like an answer (unicode and python syntax rewritten first), for :func:`copied_from_prompt`."""
    return squeeze(rewrite_python_syntax(normalize_unicode(prompt[-MAX_PROMPT_CHARS:])))


def copied_from_prompt(answer: str, squeezed_prompt: str) -> bool:
    """Is ``answer`` (normalised) an expression the prompt states whole (not a bare number, not part of a longer
    expression)?"""
    needle = squeeze(answer)
    if len(needle) < 3 or _BARE_NUMBER.fullmatch(needle) or not _EXPRESSION.search(needle):
        return False
    start = squeezed_prompt.find(needle)
    while start >= 0:
        end = start + len(needle)
        before = squeezed_prompt[start - 1] if start else ""
        after = squeezed_prompt[end] if end < len(squeezed_prompt) else ""
        continues_after = after in _CONTINUES_AFTER or (after == "." and squeezed_prompt[end + 1:end + 2].isdigit())
        if not (before and before in _CONTINUES_BEFORE) and not (after and continues_after):
            return True
        start = squeezed_prompt.find(needle, start + 1)
    return False


def _unbracketed(text: str) -> str:
    text = text.strip()
    while len(text) > 2 and text[0] + text[-1] in ("()", "{}", "[]"):
        text = text[1:-1].strip()
    return text


def _unsimplified(text: str) -> bool:
    match = _FRACTION.fullmatch(text.strip())
    if match is None:
        return False
    numerator, denominator = (int(g) for g in (match.group(1) or match.group(3), match.group(2) or match.group(4)))
    return denominator == 1 or gcd(numerator, denominator) > 1


def work_avoided(reference: Any, prediction: Any, prompt: str) -> str:
    """Why ``prediction`` skips the work (see the module docstring), or ``""``. ``reference`` and ``prediction``
    are :class:`~polyreward.verifiers.math.Reference` and ``Prediction``; ``prompt`` is squeezed by
    :func:`prompt_form` (``""`` when the row has none)."""
    if prompt and squeeze(prediction.text) != squeeze(reference.text) and copied_from_prompt(prediction.text, prompt):
        return "the prompt's own expression"
    if reference.kind != "number":
        return ""
    value = prediction.text
    if parse_numeral(_unbracketed(value)) is None and "=" in value:
        value = value.rpartition("=")[2]  # a chain that ends in its value: "9 \times 2 = 18"
    value = _unbracketed(value)
    if parse_numeral(value) is None and not _SCIENTIFIC.fullmatch(value):
        return "an expression where the gold is a number"
    if _unsimplified(value) and not _unsimplified(reference.text):
        return "an unsimplified fraction where the gold is simplified"
    return ""
