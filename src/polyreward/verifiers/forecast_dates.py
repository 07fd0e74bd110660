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
    """The value of an English cardinal written in words (``twenty four``, ``three hundred and forty``), with its
    decimals read digit by digit after ``point`` (``fifty two point three``: 52.3; red team ``holdout_r56``), or None."""
    if "point" in words:
        at = list(words).index("point")
        whole, decimals = spelled_number(words[:at]), words[at + 1:]
        if whole is None or not decimals or any(_UNITS.get(word, 10) > 9 for word in decimals):
            return None
        return float(f"{whole:.0f}." + "".join(str(_UNITS[word]) for word in decimals))
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


# (red team holdout_r53) the day a forecast is asked for, and the day a block labels its number with
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ISO_DAY = re.compile(r"(?<![\d.])\d{4}([-/.])(\d{1,2})\1(\d{1,2})(?!\d|\.\d)")
_FORECAST_VERB = re.compile(r"\b(?:forecast|predict|estimate)", re.IGNORECASE)
_NUMBER_AT = r"[~≈]?\s*\d+(?:[.,]\d+)?"


def _month_day(text: str) -> tuple[int, int] | None:
    """The (month, day) an ISO date or a day-and-month's name spells, or None."""
    if (iso := _ISO_DAY.fullmatch(text.strip())) is not None:
        return int(iso.group(2)), int(iso.group(3))
    words = re.findall(r"[A-Za-z]+|\d+", text)
    month = next((_MONTHS.index(w[:3].lower()) + 1 for w in words if w[:3].lower() in _MONTHS and not w.isdigit()), None)
    day = next((int(w) for w in words if w.isdigit() and len(w) <= 2), None)
    return (month, day) if month and day else None


def _dates_in(text: str) -> list[re.Match]:
    return [*_ISO_DAY.finditer(text), *_MONTH_DATE.finditer(text)]


def asked_days(prompt: str) -> frozenset[tuple[int, int]]:
    """The (month, day) of each date in the prompt's sentences that ask for the forecast ("Forecast the mean PM2.5
    of 2022-01-17."); the series' dates in other sentences are the data, not the day asked."""
    days = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", prompt):
        if _FORECAST_VERB.search(sentence):
            days.update(day for m in _dates_in(sentence) if (day := _month_day(m.group())) is not None)
    return frozenset(days)


def labelled_for_another_day(span: str, asked: frozenset[tuple[int, int]]) -> str:
    """The date that labels the number of a block as another day's than the one asked, or "": ``Jan 18: 50`` (a
    date, a colon or dash, the number), ``50 for Jan 18`` (the block's first number, then ``for`` / ``on`` and the date)
    or ``50 (2022-01-18)`` (the date alone in a bracket after it) when the
    prompt asks for Jan 17 (:func:`asked_days`). A date that only compares (``50, up from 52 on Jan 16`` names the
    date of another number) is no label of the block's value; a block that also names the asked day keeps it."""
    if not asked or not any(ch.isdigit() for ch in span):
        return ""
    named = [(m, day) for m in _dates_in(span) if (day := _month_day(m.group())) is not None]
    if not named or any(day in asked for _, day in named):
        return ""
    for match, _ in named:
        before, after = span[:match.start()], span[match.end():]
        if not any(ch.isdigit() for ch in before) and re.match(rf"\s*(?:\([^()]{{0,20}}\))?\s*[:=\u2013\u2014-]\s*{_NUMBER_AT}", after) or re.fullmatch(
                rf"[^\d]*{_NUMBER_AT}\s*(?:µg/m³|ug/m3|µg/m3)?\s*(?:for|on)\s+", before) or (re.fullmatch(
                rf"[^\d]*{_NUMBER_AT}\s*(?:µg/m³|ug/m3|µg/m3)?\s*\(\s*(?:(?:for|on)\s+)?", before) and re.match(r"\s*\)", after)):
            return match.group()
    return ""


def lead_names_another_day(lead: str, asked: frozenset[tuple[int, int]]) -> str:
    """The date a label leading into a block names when it is another day than the one asked, or "": ``Forecast for
    Jan 18:`` then ``<answer>50</answer>`` when Jan 17 is asked. A lead-in that names the asked day too, or holds a
    number besides its dates (``Jan 16 was 52, so for tomorrow:``: a comparison), labels nothing."""
    if not asked:
        return ""
    named = [(m, day) for m in _dates_in(lead) if (day := _month_day(m.group())) is not None]
    if not named or any(day in asked for _, day in named):
        return ""
    undated = lead
    for match, _ in sorted(named, key=lambda item: -item[0].start()):
        undated = undated[:match.start()] + " " + undated[match.end():]
    return "" if any(ch.isdigit() for ch in undated) else named[0][0].group()
