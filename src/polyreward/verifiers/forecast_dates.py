"""Calendar dates and English cardinals in a forecast's span (``forecast_class_cost``'s reading): a date names the
forecast's time and is no value; a cardinal written in words is the number it spells."""

from __future__ import annotations

import re
from collections.abc import Sequence

# red team holdout_r3: a calendar date names the forecast's time ("2010-01-19: 340", "for 2019-05-08"), no value;
# a decimal comma ("23,5": one or two digits after it, no space, no list around it) is a decimal point
_DATE = re.compile(r"(?<![\d.])\d{4}([-/.])\d{1,2}\1\d{1,2}(?!\d|\.\d)")
# (red team holdout_r8) a day and a month's name, either order, with an optional year ("for 4 March", "on March 4th,
# 2019", "4th of Mar."): the forecast's day, no value; the month's name capitalised, and "May" not before a lower-case
# word ("30 may be exceeded" keeps its number)
_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May(?!\s+[a-z])|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
          r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_MONTH_DATE = re.compile(rf"(?<![\w.])(?:{_DAY}\s+(?:of\s+)?{_MONTH}|{_MONTH}\s+{_DAY}\b)(?:,?\s+\d{{4}}\b)?")
_DECIMAL_COMMA = re.compile(r"(?<![\d,.])(\d+),(\d{1,2})(?![\d,.])")
_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                      "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}


def spelled_number(words: Sequence[str]) -> float | None:
    """The value of an English cardinal written in words (``twenty four``, ``three hundred and forty``), or None."""
    total = current = 0
    seen = False
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred" and seen:
            current *= 100
        elif word == "thousand" and seen:
            total, current = total + current * 1000, 0
        elif word != "and" or not seen:
            return None
        seen = True
    return float(total + current) if seen else None
