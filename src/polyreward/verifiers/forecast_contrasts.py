"""A forecast block's negations that set another value or class aside, and its later sentences (red team ``holdout_r48``).

A negation beside a forecast's number withdraws it ("not 28", "anything but 28", "28 cannot be excluded"), so the
forecast reader refuses a block with a negation in it. A correction contrasts two things and commits to one of them:
the negation's scope is the other value or class, and the forecast stands outside it.

* ``28 µg/m³ — not the 35 that the evening peak would suggest``, ``28, not 35``: the value, then ``not`` and another
  number (a clause of no digit to its end): :func:`without_rejected_alternatives` reads ``28 µg/m³``;
* ``Not 20, but 12 µg/m³``: ``not`` and another number, then ``but`` and the value: ``12 µg/m³``;
* ``28 µg/m³ (moderate, not bad)``: a class named, then another class negated: ``28 µg/m³ (moderate)`` (the number
  is what the score reads; a class word beside it describes it, as ``28 µg/m³ (moderate)`` does).

The negation of the value itself stays: ``Not 28, but I can't say more`` (no value after ``but``), ``28, not 28``,
``Neither 102 nor 150``, ``Anything but 28``, ``28 (not moderate)`` (no class affirmed).

A block that states its value and then says more in a later sentence of no digit (``102 µg/m³. I have no doubt it
stays very bad.``) is read as the value and, after it, the text after a block (:func:`value_and_remark`), so a later
sentence that withdraws the value withdraws it there (``58. Not confident though.``) and one that keeps it keeps it.
"""

from __future__ import annotations

import re

_VALUE = r"(?<![\d.])\d+(?:\.\d+)?"
_UNIT = r"(?:[^\S\n]*(?:[µμu]g|micrograms?)[^\S\n]*(?:/|per)[^\S\n]*(?:m[^\S\n]*\^?[^\S\n]*[3³]|cubic[^\S\n]+met(?:re|er)))?"
# what sets a remark apart from the value before it: a comma, a semicolon, a dash
_APART = r"[^\S\n]*(?:[,;]|[^\S\n][—–-][^\S\n]|[—–])[^\S\n]*"
_CONTRAST_AFTER = re.compile(
    r"(?P<value>" + _VALUE + _UNIT + r")" + _APART + r"(?:but[^\S\n]+|and[^\S\n]+)?not[^\S\n]+(?:the[^\S\n]+|a[^\S\n]+)?"
    r"(?P<other>" + _VALUE + r")" + _UNIT + r"(?P<tail>[^\d.;!?\n)]*)", re.IGNORECASE)
_CONTRAST_BEFORE = re.compile(
    r"(?:\A|(?<=[\n:]))[^\S\n]*not[^\S\n]+(?:the[^\S\n]+|a[^\S\n]+)?(?P<other>" + _VALUE + r")" + _UNIT
    + r"[^\S\n]*[,;—–]?[^\S\n]*but[^\S\n]+(?:rather[^\S\n]+)?(?=(?P<value>" + _VALUE + r"))", re.IGNORECASE)
_CLASS = r"(?:very[^\S\n]+)?(?:good|moderate|bad|unhealthy|hazardous|fair|poor|excellent|light|heavy|severe|serious)\b"
_CLASS_CONTRAST = re.compile(r"(?P<affirmed>\b" + _CLASS + r")" + _APART + r"(?:but[^\S\n]+)?not[^\S\n]+(?P<other>" + _CLASS + r")",
                             re.IGNORECASE)


def _number(text: str) -> float:
    return float(re.match(_VALUE, text).group())


def without_rejected_alternatives(span: str) -> str:
    """``span`` with the negations that set another value or class aside from its value blanked (module docstring;
    the span keeps its length).

    >>> without_rejected_alternatives("28 µg/m³ — not the 35 that the evening peak would suggest.").split()
    ['28', 'µg/m³', '.']
    >>> without_rejected_alternatives("Not 20, but 12 µg/m³.").split()
    ['12', 'µg/m³.']
    >>> without_rejected_alternatives("28 µg/m³ (moderate, not bad).").split()
    ['28', 'µg/m³', '(moderate', ').']
    >>> without_rejected_alternatives("Anything but 28 µg/m³.")
    'Anything but 28 µg/m³.'
    >>> without_rejected_alternatives("28, not 28.")
    '28, not 28.'
    """
    if "not" not in span.casefold():
        return span
    span = _CONTRAST_AFTER.sub(lambda m: _blank_after(m, "value") if _number(m.group("other")) != _number(m.group("value"))
                               else m.group(), span)
    span = _CONTRAST_BEFORE.sub(lambda m: " " * len(m.group()) if _number(m.group("other")) != _number(m.group("value"))
                                else m.group(), span)
    return _CLASS_CONTRAST.sub(lambda m: _blank_after(m, "affirmed") if m.group("affirmed").casefold() != m.group("other").casefold()
                               else m.group(), span)


def _blank_after(match: re.Match, kept: str) -> str:
    """The match with what follows its ``kept`` group blanked (spaces: the span keeps its length, so a position in it
    is a position in the block)."""
    head = match.group(kept)
    return head + " " * (len(match.group()) - len(head))


# the end of a sentence: a stop, then a space and more text ("102 µg/m³. I have no doubt"; not "102.3")
_SENTENCE_STOP = re.compile(r"[.!?;](?=[^\S\n]+\S)")


def value_and_remark(span: str) -> tuple[str, str]:
    """(the block's sentence that holds its number, its later sentences) when those hold no digit, else (span, "").

    >>> value_and_remark("102 µg/m³. I have no doubt it stays very bad.")
    ('102 µg/m³.', 'I have no doubt it stays very bad.')
    >>> value_and_remark("58 µg/m³. Yesterday was 61.")
    ('58 µg/m³. Yesterday was 61.', '')
    """
    digit = re.search(r"\d", span)
    if digit is None:
        return span, ""
    stop = _SENTENCE_STOP.search(span, digit.end())
    if stop is None or re.search(r"\d", span[stop.end():]):
        return span, ""
    return span[:stop.end()], span[stop.end():].strip()
