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

from polyreward.verifiers.forecast_evidence import PRODUCT_CODE_DIGITS

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


# the end of a sentence: a stop, then a space and more text ("102 µg/m³. I have no doubt"; not "102.3"); or a spaced
# dash that sets a remark of its own after the value, a clause of four words or more that does not open on a condition
# or a contrast ("46.9 µg/m³ -- notice how the evening rush ...": red team holdout_r55; "28 µg/m³ — moderate (보통)" is
# the value's gloss, "96 µg/m³ — unless the front arrives." its condition, read with it)
_SENTENCE_STOP = re.compile(r"[.!?;](?=[^\S\n]+\S)|[^\S\n](?:--?|[\u2013\u2014])"
                            r"(?![^\S\n]+(?:unless|if|provided|providing|assuming|except|until|when|whenever|depending|as\s+long|"
                            r"but|though|although|or|only|maybe|perhaps|possibly|probably)\b)(?=[^\S\n]+\S+(?:[^\S\n]+\S+){3})",
                            re.IGNORECASE)


# a digit of a quantity: not one of a product's code glued to capitals ("keep those KF94s handy", "N95 masks"; red team
# holdout_r57), which the text after a block leaves out too (forecast_evidence.other_quantities_left_out)
_PRODUCT_CODE = re.compile(PRODUCT_CODE_DIGITS)


def value_and_remark(span: str) -> tuple[str, str]:
    """(the block's sentence that holds its number, its later sentences) when those hold no digit of a quantity (a
    product's code, "KF94", is none), else (span, ""); a remark of four words or more set off by a spaced dash after
    the number counts as a later sentence.

    >>> value_and_remark("102 µg/m³. I have no doubt it stays very bad.")
    ('102 µg/m³.', 'I have no doubt it stays very bad.')
    >>> value_and_remark("58 µg/m³. Yesterday was 61.")
    ('58 µg/m³. Yesterday was 61.', '')
    """
    digit = re.search(r"\d", span)
    if digit is None:
        return span, ""
    stop = _SENTENCE_STOP.search(span, digit.end())
    if stop is None or re.search(r"\d", _PRODUCT_CODE.sub("", span[stop.end():])):
        return span, ""
    return span[:stop.end()], span[stop.end():].strip()


# (red team holdout_r49) a clause that reports the prompt's day (or an earlier one) by its time word, before the
# clause that gives the forecast by its own: "Today averaged 31; tomorrow: 28 µg/m³.", "Yesterday's mean was 40.
# Forecast: 28." -- ConText's historical modifier puts the first number off the forecast's day
_OBSERVED_DAY = re.compile(r"\b(?:today|yesterday|this[^\S\n]+(?:morning|afternoon|evening)|tonight|last[^\S\n]+(?:night|week)|"
                           r"earlier|so[^\S\n]+far)\b", re.IGNORECASE)
_FORECAST_DAY = re.compile(r"\b(?:tomorrow|forecast\w*|predict\w*|expect\w*|next[^\S\n]+day)\b", re.IGNORECASE)
_DIGITS = re.compile(_VALUE)


def without_observed_day(span: str) -> str:
    """``span`` from its forecast clause on when a first clause (to ``;`` or a sentence's full stop) reports an observed
    day's value by its time word (:data:`_OBSERVED_DAY`) and names no forecast day, and the clauses after it name the
    forecast's day or the forecast (:data:`_FORECAST_DAY`) and hold one number; else ``span`` unchanged.

    >>> without_observed_day("Today averaged 31; tomorrow: 28 µg/m³.")
    'tomorrow: 28 µg/m³.'
    >>> without_observed_day("Today's mean: 28 µg/m³. Tomorrow's depends on the wind.")
    "Today's mean: 28 µg/m³. Tomorrow's depends on the wind."
    """
    stop = _SENTENCE_STOP.search(span)
    if stop is None:
        return span
    first, rest = span[:stop.start()], span[stop.end():].lstrip()
    if not _OBSERVED_DAY.search(first) or _FORECAST_DAY.search(first) or len(_DIGITS.findall(first)) != 1:
        return span
    if not _FORECAST_DAY.search(rest) or _OBSERVED_DAY.search(rest) or len(_DIGITS.findall(rest)) != 1:
        return span
    return rest


# a clause that opens with an observed day's label and gives its number: "Today's mean: 28", "Yesterday was 40",
# "Today averaged 31 µg/m³"
_OBSERVED_LABEL = re.compile(r"\A\W*(?:today|yesterday)(?:['’]s)?(?:[^\S\n]+(?:daily[^\S\n]+)?(?:mean|average|level|value|"
                             r"reading|concentration))?[^\S\n]*(?:was|were|averaged|came[^\S\n]+in[^\S\n]+at|:|=)[^\S\n]*"
                             + _VALUE, re.IGNORECASE)


def labels_observed_day(span: str) -> bool:
    """Does the block's first clause (to ``;`` or a sentence's full stop) give its number as an observed day's value
    (:data:`_OBSERVED_LABEL`: ``Today's mean: 28 µg/m³. Tomorrow's depends on the wind.``), naming no forecast day? Then
    the number is today's, not the forecast (red team ``holdout_r49``; ConText's historical modifier); read after
    :func:`without_observed_day`, which keeps a forecast clause after it.

    >>> labels_observed_day("Today's mean: 28 µg/m³. Tomorrow's depends on the wind.")
    True
    >>> labels_observed_day("28 µg/m³, same as today")
    False
    """
    stop = _SENTENCE_STOP.search(span)
    first = span[:stop.start()] if stop else span
    return bool(_OBSERVED_LABEL.search(first)) and not _FORECAST_DAY.search(first)
