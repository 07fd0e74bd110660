"""A committed final that rounds the unrounded value the working shows right before it (red team holdout61):
"CrCl = 4200 / 86.4 ≈ 48.6" then "**CrCl ≈ 49 mL/min**", "MAP = 80 + 40/3 ≈ 93.3 mm Hg" then "**MAP ≈ 93 mm Hg**".

The approximation sign before such a final marks the rounding of a value the reader has just seen, not a guess: the
last number written before the final is a decimal with more places than the final, and rounds to it at the final's
own precision (48.6 to the whole number 49, 22.86 to the tenth 22.9). A guess has no such value before it ("Roughly
42" stays an approximation, ``not_a_value.approximate_not_value``), and a final that is not that rounding ("≈ 48.6"
then "≈ 50", "≈ 48") is no rounding of it. The one function :func:`rounds_shown_value` is read by the commitment
reading (an approximation before the answer) and by the math reader (a label then ``≈`` then the value inside a bold
final line: :func:`approximated_value`). A reconstructed rule (ours): bounded windows, linear time.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a number as written in the working: not an exponent ("m^{2}", "m^2") and not glued to a word ("SCr1", "D5W"); a
# decimal whose digits go on after an ellipsis ("33.33...%") is shown too (holdout111)
_NUMBER = re.compile(r"(?<![\w^.{])(?<!\^\{)-?\d+(?:\.\d+)?(?!\w|\.(?!\.\.(?!\.)))")
_VALUE = re.compile(r"\s*(-?\d+(?:\.\d+)?)")
# how far back the unrounded value may stand: the working's last line before the final
_WINDOW = 300
# "CrCl ≈ 49 mL/min", "MAP \approx 93 mm Hg": a short label, an approximation sign, the value (with its unit)
_LABEL_APPROX = re.compile(r"\A[^\S\n]*(?P<label>[A-Za-z][\w ./()-]{0,24}?)[^\S\n]*(?:≈|\\approx(?![A-Za-z]))[^\S\n]*(?P<value>-?\d.*)\Z")


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def rounds_shown_value(text: str, start: int, end: int) -> bool:
    """Is the value at ``text[start:end]`` (a number, perhaps with its unit after it) the rounding, to its own
    places, of the last number written before it -- a decimal with more places ("≈ 48.6" ... "≈ 49")? Then an
    approximation sign before it marks that rounding, and the value is the writer's committed final."""
    final = _VALUE.match(text, start, end)
    if final is None:
        return False
    shown = None
    for shown in _NUMBER.finditer(text, max(0, start - _WINDOW), start):
        pass
    if shown is None:
        return False
    value, unrounded = _decimal(final.group(1)), _decimal(shown.group())
    if value is None or unrounded is None:
        return False
    places = -value.as_tuple().exponent
    if -unrounded.as_tuple().exponent <= places:
        return False  # not a value with more places: "48 ... ≈ 49" is another value, not its rounding
    return abs(unrounded - value) <= Decimal(5) * Decimal(10) ** -(places + 1)


def approximated_value(answer: str, text: str) -> str | None:
    """The value of an answer written as a label, an approximation sign and the value ("CrCl ≈ 49 mL/min"), when that
    value rounds the number the working shows before the answer's last place in ``text`` (:func:`rounds_shown_value`);
    else None (a label with ``≈`` and no shown value to round is an approximation, no value)."""
    match = _LABEL_APPROX.match(answer)
    if match is None or re.search(r"\d", match.group("label")):
        return None
    number = _VALUE.match(answer, match.start("value"))
    shown = answer[:number.end()]  # up to the number: its unit may be written otherwise in the raw text ("m²", "m^{2}")
    at = text.rfind(shown)
    if at < 0:
        return None
    return match.group("value") if rounds_shown_value(text, at + match.start("value"), at + len(shown)) else None
