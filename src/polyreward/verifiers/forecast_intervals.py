"""A forecast's interval after its point, where the prompt allows one (red team ``holdout_r10``).

A prompt may ask for a point forecast and allow its uncertainty beside it ("Give a point forecast inside
<answer>...</answer>; you may add an 80% interval in parentheses after it."). The point is then the forecast and the
bracket after it states how sure the writer is, as the prompt invited: ``52 (80% interval 45–60)`` commits to 52.
:func:`without_allowed_interval` drops such a bracket before the numbers are counted, when

* the prompt's words hold ``interval`` (it asks for or allows one; without that, a range beside the value stays a
  second and third number, so the answer is no forecast, as ``52 ± 8`` is none);
* the bracket follows the value (its unit between them allowed) and holds only an interval's name (``interval``,
  ``CI``, ``PI``, ``prediction interval``, ``confidence interval``), an optional coverage (``80%``) and two bounds
  joined by a dash or ``to``, the unit after them allowed;
* the value lies inside the interval (an interval that leaves out its own point states another forecast).

Anything else (an interval without a point, a bracket with other words, a second value after it) is left to the
reader, which counts its numbers. Reconstructed rule (ours); one regex pass over the answer span.

After the block, the forecast's spread written with a plus-minus (``<answer>31</answer>`` then ``Uncertainty:
roughly ±6 µg/m³.``, ``(+/- 8 µg/m3)`` or ``plus or minus 5``; red team ``holdout_r33``) states
how sure the writer is of the committed value, not a second value: :func:`without_stated_spread` drops it before the
text after the block is read for another number, in any prompt (the score reads the point alone, so a spread pays
nothing). A spread as large as the value or larger (``31`` then ``±40``: anything from nothing up) says the level is
unknown and stays, as does every other number there (``±6, or 60 if the wind drops``; ``±6, so 25-37``), and
``52 ± 8`` inside the block is still a range; a bracketed spread after the value, ``56 µg/m³ (±6)``, is read past
when the whole band lies in the value's own class (:func:`without_spread_in_own_class`, red team ``holdout_r45``).
"""

from __future__ import annotations

import re

from polyreward.verifiers.forecast import pm_class

_VALUE = r"(?<![\d.])(\d+(?:\.\d+)?)"
# the value's unit as written between it and the bracket, and after the bounds: µg/m³, ug/m3, μg m-3 (rewards.forecast
# checks the unit itself; here it is only stepped over)
_UNIT = r"(?:\s*(?:µ|μ|u|micro)[^\s()]{0,20}(?:\s+m[^\s()]{0,6})?)?"
_NAME = r"(?:(?:prediction|confidence|forecast)\s+)?(?:interval|CI|PI)"
_INTERVAL = re.compile(
    rf"{_VALUE}({_UNIT})\s*\(\s*(?:(?:\d{{1,2}}(?:\.\d+)?\s*%\s*{_NAME}|{_NAME}\s*\(?\s*\d{{1,2}}(?:\.\d+)?\s*%\s*\)?|{_NAME})\s*:?\s*)"
    rf"(\d+(?:\.\d+)?)\s*(?:-|–|—|to)\s*(\d+(?:\.\d+)?){_UNIT}\s*\)",
    re.IGNORECASE)


def without_allowed_interval(span: str, prompt_words: frozenset[str]) -> str:
    """``span`` without a bracketed interval after its value that contains the value, when ``prompt_words`` (the
    prompt's case-folded words) hold ``interval`` (module docstring); any other span unchanged."""
    if "interval" not in prompt_words or "(" not in span:
        return span

    def drop(match: re.Match) -> str:
        value, low, high = float(match.group(1)), float(match.group(3)), float(match.group(4))
        return match.group(1) + match.group(2) if low <= value <= high else match.group()

    return _INTERVAL.sub(drop, span)


# a plus-minus and the spread's number: "±6", "+/- 8", "+- 8", "plus or minus 5" ("give or take 15" is a hedge to
# commitment.qualified, which reads the whole completion)
_SPREAD = re.compile(r"(?:±|\+\s?/\s?-|\+-|\bplus\s+or\s+minus)\s*+(?:about\s+|roughly\s+|around\s+)?"
                     r"(?<![\d.])(\d+(?:\.\d+)?)(?!\d|\.\d)", re.IGNORECASE)


def without_stated_spread(after: str, value: float) -> str:
    """``after`` (the text after a one-number ``<answer>`` block) without each plus-minus spread smaller than the
    committed ``value`` (module docstring): the spread's number is not a second forecast. A wider spread, or any
    other number, stays for the reader to refuse."""
    if not any(mark in after for mark in ("±", "+", "plus", "Plus", "PLUS")):
        return after
    return _SPREAD.sub(lambda m: " " if float(m.group(1)) < abs(value) else m.group(), after)


# (red team holdout_r40) what a sentence after a one-number block says about the committed value itself, in the
# ordinary explanation careful models add ("That is 45 µg/m³ (micrograms of particulate matter smaller than 2.5 µm per
# cubic metre of air) ... it falls in the 'bad' band, 36–75 µg/m³", "a plausible range is roughly 105–145 µg/m³, all
# within the 'bad' class (81–150 µg/m³)", "112 µg/m³ is in the 'very bad' class (76 µg/m³ and above)"): read by
# :func:`without_own_value_remarks`
_RANGE_AFTER = re.compile(
    rf"(?:\bbetween\s+{_VALUE}{_UNIT}\s+and\s+|{_VALUE}{_UNIT}\s*(?:-|–|—|\bto\b)\s*)(\d+(?:\.\d+)?)(?!\d|\.\d)",
    re.IGNORECASE)
_FROM_BOUND = re.compile(rf"{_VALUE}{_UNIT}\s*(?:\band\s+(?:above|over|higher|up)\b|\bor\s+(?:more|above|higher)\b|\+)",
                         re.IGNORECASE)
_UP_TO_BOUND = re.compile(rf"(?:\b(?:up\s+to|at\s+most|below|under)\s+|≤\s*){_VALUE}|{_VALUE}{_UNIT}\s*\b(?:and|or)\s+(?:below|under|less|lower)\b",
                          re.IGNORECASE)
# the particle size a pollutant is named by: "smaller than 2.5 µm", "10 micrometres"
_PARTICLE_SIZE = re.compile(r"(?<![\d.])(?:2\.5|10)\s*(?:µm|μm|um|microns?|micro-?met(?:er|re)s?)\b", re.IGNORECASE)
_PLAIN_VALUE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d]|\.\d)")


def without_own_value_remarks(after: str, value: float, edges) -> str:
    """``after`` (the text after a one-number ``<answer>`` block) without the numbers that describe the committed
    ``value`` and forecast nothing else (red team ``holdout_r40``):

    * the value restated as a statement (``That is 45 µg/m³``, ``My point forecast is 125 µg/m³``; not as a
      possibility: ``tomorrow it could also be 45`` stays);
    * a range whose two ends lie in the value's own class under the scored ``edges`` and around the value: its class
      band (``the 'bad' band, 36–75 µg/m³``) or a plausible range inside it (``roughly 105–145 µg/m³``);
    * the open band of the value's class when it is the top or the bottom one (``76 µg/m³ and above`` for 112 under
      Korea's PM2.5 edges; ``up to 15`` for 10);
    * the particle size in the pollutant's definition (``smaller than 2.5 µm``).

    The class score reads the value's class alone, so none of these can change what is paid. A range that crosses a
    class edge (``between a clean 15 and a hazardous 90``) or leaves the value out, and any other number (``about
    45 µg/m³`` after a block of 112), stays for the reader to refuse; so does every withdrawal word, read on the whole
    text as before. Without ``edges`` only the restatement and the particle size are read past."""
    if not any(ch.isdigit() for ch in after):
        return after
    own = pm_class(value, edges) if edges else None
    after = _PARTICLE_SIZE.sub(" ", after)

    def in_class(number: float) -> bool:
        return own is not None and pm_class(number, edges) == own

    def drop_range(match: re.Match) -> str:
        low = float(match.group(1) if match.group(1) is not None else match.group(2))
        high = float(match.group(3))
        return " " if low <= value <= high and in_class(low) and in_class(high) else match.group()

    def drop_from(match: re.Match) -> str:
        bound = float(match.group(1))
        return " " if own == len(edges) and in_class(bound) and bound <= value else match.group()

    def drop_up_to(match: re.Match) -> str:
        bound = float(match.group(1) if match.group(1) is not None else match.group(2))
        return " " if own == 0 and in_class(bound) and value <= bound else match.group()

    if edges:
        after = _RANGE_AFTER.sub(drop_range, after)
        after = _FROM_BOUND.sub(drop_from, after)
        after = _UP_TO_BOUND.sub(drop_up_to, after)
    from polyreward.verifiers.commitment import hedged, qualified

    # the value restated as a statement; offered as a possibility ("tomorrow it could also be 37") it stays
    return _PLAIN_VALUE.sub(lambda m: " " if float(m.group()) == value and not qualified(after, m.start(), m.end())
                            and not hedged(after, m.start(), m.end()) else m.group(), after)


def in_own_class(value: float, low: float, high: float, edges) -> bool:
    """True when ``low <= value <= high`` and both ends lie in ``value``'s class under ``edges`` (a band around the
    value that cannot move the class the score reads). ``in_own_class(56, 50, 62, (15, 35, 75))`` is True;
    ``in_own_class(45, 30, 60, (15, 35, 75))`` is False (30 is moderate)."""
    if not edges or not low <= value <= high:
        return False
    own = pm_class(value, edges)
    return pm_class(low, edges) == own == pm_class(high, edges)


# (red team holdout_r45) a plus-minus spread in a bracket right after the one value inside the block, the unit between
# them allowed: "56 µg/m³ (±6)", "56 (+/- 6 µg/m³)"
_SPREAD_AFTER_VALUE = re.compile(
    rf"{_VALUE}({_UNIT})\s*\(\s*(?:±|\+\s?/\s?-|\+-|\bplus\s+or\s+minus\b)\s*(?<![\d.])(\d+(?:\.\d+)?)(?!\d|\.\d){_UNIT}\s*\)",
    re.IGNORECASE)


def without_spread_in_own_class(span: str, edges) -> str:
    """``span`` (a one-number ``<answer>`` block) without a bracketed plus-minus spread after its value when the whole
    band, value minus to value plus the spread, lies in the value's own class under ``edges`` (red team
    ``holdout_r45``): ``56 µg/m³ (±6)`` under Korea's edges is 50–62, all 'bad'; the bracket annotates the value the
    sentence states, as a bracketed class range does (``50 (36–75)``), so it commits to the class the score reads. A
    band that crosses a class edge (``35 (±1)``, ``55 (±45)``) stays: a second number, so no forecast; so does a spread
    written into the value's own expression, ``48 ± 5`` or ``340.8 plus or minus 60``: an interval, not a value (red
    team ``holdout_r6``)."""
    if not edges or "(" not in span:
        return span

    def drop(match: re.Match) -> str:
        value, spread = float(match.group(1)), float(match.group(3))
        return match.group(1) + match.group(2) if in_own_class(value, value - spread, value + spread, edges) else match.group()

    return _SPREAD_AFTER_VALUE.sub(drop, span)
