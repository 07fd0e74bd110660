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
``52 ± 8`` inside the block is still a range.
"""

from __future__ import annotations

import re

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
