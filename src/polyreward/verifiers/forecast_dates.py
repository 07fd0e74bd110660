"""Calendar dates, English cardinals and scientific notation in a forecast's span (``forecast_class_cost``'s reading):
a date names the forecast's time and is no value; a cardinal written in words is the number it spells; a number in
scientific notation is one number, and ``24-h`` is the daily mean's name, no value."""

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


# (red team holdout_r9) a number in scientific notation is one number: "5.0 × 10¹", "5 x 10^1", "5.0 \\times 10^{1}"
# (the mantissa and the power of ten are not two values); a bare "× 10" (no exponent) stays a factor
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SCIENTIFIC = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:×|x|\*|·|\\times|\\cdot)\s*10\s*"
                         r"(?:\^\s*\{?\s*([-−]?\d{1,2})\s*\}?|([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2}))(?![\d⁰¹²³⁴⁵⁶⁷⁸⁹])")
# (red team holdout_r9) "24-h mean", "24-hour average": the daily mean's own name (the averaging period), no value; any
# other period ("8-h mean", an ozone statistic) or statistic ("24-h max") keeps its number
DAILY_PERIOD = re.compile(r"(?<![\d.])24\s*-?\s*(?:h|hrs?|hours?)\b(?=[\s-]*(?:mean|average|avg)\b)", re.IGNORECASE)


def _scientific(match: re.Match) -> str:
    exponent = int((match.group(2) or match.group(3).translate(_SUPERSCRIPT_DIGITS)).replace("−", "-"))
    return f" {float(match.group(1)) * 10.0 ** exponent:g} "


def scientific_read(span: str) -> str:
    """``span`` with each number in scientific notation written as the one number it is (``5.0 × 10¹`` -> ``50``)."""
    return _SCIENTIFIC.sub(_scientific, span)
