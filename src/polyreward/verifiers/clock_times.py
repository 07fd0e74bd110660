"""Clock times: a time of day written with am/pm where the gold writes it without ("10:35 PM" for ``10:35``).

A gold ``H:MM`` with no meridiem is a 12-hour reading (``10:35``) or a 24-hour one (``22:35``); an answer that adds
"a.m." or "p.m." to the same time is the same time of day when it agrees with one of those readings
(``10:35 PM`` is 22:35, so it answers both ``10:35`` and ``22:35``; ``10:35 AM`` answers ``10:35`` but not
``22:35``). A gold that writes its own meridiem, or an answer without one, is left to the other rules (holdout106).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_CLOCK = re.compile(r"\s*(?P<hour>\d{1,2}):(?P<minute>[0-5]\d)(?:[^\S\n]*(?P<meridiem>[AaPp])\.?[^\S\n]?[Mm]\.?)?\s*")
_HALF_DAY = 12 * 60


def _clock(text: str) -> tuple[int, str] | None:
    """(minutes after the hour 0 as written, "a"/"p"/"") of a lone clock time, else None."""
    match = _CLOCK.fullmatch(text.replace("\\text{", "").replace("}", "").replace("\\,", " ").replace("~", " "))
    if match is None or int(match.group("hour")) > 23:
        return None
    return int(match.group("hour")) * 60 + int(match.group("minute")), (match.group("meridiem") or "").lower()


def clock_times_agree(gold: str, answer: str) -> bool | None:
    """Is ``answer``, a clock time with a meridiem, the gold's time of day ("10:35 PM" for ``10:35``)? None when
    the gold is no clock time, writes a meridiem itself, or the answer writes none (then other rules decide)."""
    if ":" not in gold or ":" not in answer:
        return None
    ours, theirs = _clock(gold), _clock(answer)
    if ours is None or theirs is None or ours[1] or not theirs[1]:
        return None
    hour_minutes, meridiem = theirs
    if hour_minutes >= 13 * 60:
        return False  # "13:05 PM": no 12-hour clock reads so
    of_day = hour_minutes % _HALF_DAY + (_HALF_DAY if meridiem == "p" else 0)
    gold_minutes = ours[0]
    return of_day == gold_minutes or (gold_minutes < 13 * 60 and of_day % _HALF_DAY == gold_minutes % _HALF_DAY)
