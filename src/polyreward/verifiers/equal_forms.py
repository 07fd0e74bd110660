"""One value written in two equal forms: the answer found and a form of it the gold is written in (holdout63).

A writer often states a value and then the same value in another form, and a gold may be written in either:

* **the answer and its rounding**: "5 mi × 1.609344 km/mi = 8.04672 km ≈ 8.05 km", "... ≈ 2.04%\\n\\nTo the nearest
  tenth of a percent: ≈ 2.0%", "= 10,000 / 1.1025 ≈ $9,070.29", "EAR = ... = 0.126825\\n\\nEAR ≈ 12.68%". The reader
  takes the value before a closing rounding (:mod:`.closing_remarks`: "19/12 ≈ 1.583" is 19/12, so an exact gold is
  paid); :func:`rounding_is_gold` says when the rounding is the gold instead: a closing restatement that agrees with
  the answer to the digits it shows (:func:`.closing_remarks.agrees`), written to as many decimal places as the gold
  and equal to it. A gold with no decimal point is taken as exact and never matched by a rounding ("7.07 ≈ 7" is not
  7), and a closing value that does not agree with the answer ("8.1 ≈ 8.05") is not read here (the reader reads such a
  remark as it did before: :mod:`.closing_remarks`).
* **the answer in another unit of the gold's dimension**: "p = 250 kPa" for a gold of ``2.5 \\times 10^{5}\\ \\text{Pa}``,
  "1500 W" for ``1.5\\text{ kW}``. :func:`converts_to_gold` reads the unit written after the answer's value (in the
  answer, else after its last occurrence in the completion's tail) and the gold's own unit with the unit grammar of
  :mod:`.units` (:func:`.units.si_unit`: SI symbols with their prefixes and powers, so the two units must be one unit
  up to its prefixes: kPa and Pa, mmol/L and mol/L, g cm⁻³ and kg/m³); the answer converted to the gold's unit must
  equal the gold. A gold without a unit, an answer without one, units that differ in more than their prefixes (J and
  cal, M and mol/L), and a prompt that asks for a unit other than the answer's ("in kJ", answered "4500 J") are never
  converted.

  The same reading refuses the gold's number in the gold's unit with another prefix (:func:`another_prefix`: "4.5 J"
  for ``4.5\\text{ kJ}``, "2.0 mmol/L" for ``2\\text{ mol/L}``, "45 kN" for ``45\\,\\text{N}``), which a comparison of
  the numbers alone paid; and the answer in the gold's very unit is the gold ("45 N" for ``45\\,\\text{N}``, which
  Math-Verify reads as two different forms).

* **an angle in degrees for a gold in radians** (holdout117): "The angle between them is $90^\\circ$." for a gold
  ``\\frac{\\pi}{2}``, where the question fixes no unit: :func:`degrees_for_radians` reads a gold that is a rational
  multiple of π and an answer written with a degree mark (``^\\circ``, ``°``, "degrees") and compares the answer times
  π/180 with it. A question that asks for radians ("Express your answer in radians.") is answered in radians only
  (``60^\\circ`` for ``\\frac{\\pi}{3}`` stays refused), and a bare number (``90``) is no angle in degrees.

Only an answer already found not equal is read again for the gold's form, and only one found equal for another
prefix (:func:`.math.verify_batch`); all read the value the reader committed to, so a hedge, a retraction or a second
value still leaves no answer. Reconstructed rules (ours). Anchored patterns on the last 240 characters: linear time.
"""

from __future__ import annotations

from fractions import Fraction

from polyreward.verifiers.closing_remarks import agrees, rounded_restatement
from polyreward.verifiers.math_normalize import Numeral, normalize_answer, numerals_equal, parse_numeral
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.units import UNIT_AFTER_VALUE, si_unit

_DECIMALS = re.compile(r"\d\.(\d+)")
_PERCENT = re.compile(r"\\?%\s*\Z")


def _places(number: str) -> int:
    found = _DECIMALS.search(number)
    return len(found.group(1)) if found else 0


def rounding_is_gold(gold: str, answer: str, completion: str) -> bool:
    """Is the restatement closing ``completion`` the ``answer`` rounded, written as ``gold`` (a number with a
    decimal point) is written, and equal to it? (module docstring)"""
    gold_value = parse_numeral(normalize_answer(gold))
    if gold_value is None or "." not in gold:
        return False
    restated = rounded_restatement(completion)
    if restated is None:
        return False
    number, percent = restated
    if _places(number) != _places(gold) or not agrees(answer, number, percent):
        return False
    return numerals_equal(gold_value, Numeral(parse_numeral(number.replace(",", "")).value, percent))


# the unit after a gold's value: in a text wrapper ("\\ \\text{Pa}", "\\,\\mathrm{kW}") or written plainly ("250 kPa")
_GOLD_UNIT = re.compile(r"(?:\\[ ,;:!]|~|\s)*(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*(?P<wrapped>[^{}]{1,20}?)\s*\}|(?P<plain>[µμA-Za-z][A-Za-z/^{}\d-]{0,15}))\s*\Z")
# a unit the prompt asks the answer in: "in kJ", "in kilopascals", "(in Pa)", "in units of kW"
_ASKED_IN = re.compile(r"\bin\s+(?:units\s+of\s+)?(?P<unit>[µμ]?[A-Za-z]{1,6}(?:/[A-Za-z]{1,6})?)\b")


def _gold_quantity(gold: str) -> tuple[Numeral, tuple] | None:
    """The value and the SI unit (:func:`.units.si_unit`) of a gold written with a unit, or None."""
    unit = _GOLD_UNIT.search(gold)
    if unit is None:
        return None
    si = si_unit(unit.group("wrapped") or unit.group("plain"))
    value = parse_numeral(normalize_answer(gold[:unit.start()]))
    return None if si is None or value is None or value.percent else (value, si)


def may_change(gold: str, found_equal: bool) -> bool:
    """Can :func:`another_prefix` (``found_equal``) or :func:`rounding_is_gold` / :func:`converts_to_gold` /
    :func:`degrees_for_radians` (not equal) turn a verdict for ``gold``? A necessary condition read from the gold
    alone, before the completion is prepared: each of them returns False first when the gold has no unit
    (:func:`_gold_quantity`), the rounding also when the gold has no decimal point, the angle when it has no π."""
    return _gold_quantity(gold) is not None or (not found_equal and ("." in gold or "\\pi" in gold))


def degrees_for_radians(gold: str, answer: str, completion: str, prompt: str = "") -> bool:
    """Is ``answer`` an angle written in degrees equal to ``gold``, a rational multiple of π, where ``prompt`` asks
    for no unit of angle? (module docstring)

    >>> degrees_for_radians("\\\\frac{\\\\pi}{2}", "90^\\\\circ", "... is $\\\\boxed{90^\\\\circ}$.", "What is the angle between u and v?")
    True
    >>> degrees_for_radians("\\\\frac{\\\\pi}{3}", "60^\\\\circ", "$\\\\boxed{60^\\\\circ}$", "Compute arccos(1/2). Express your answer in radians.")
    False
    """
    multiple = _PI_MULTIPLE.fullmatch(gold.replace(" ", ""))
    if multiple is None or _ANGLE_UNIT_ASKED.search(prompt):
        return False
    numerator = Fraction(multiple.group("num") or multiple.group("num2") or "1")
    gold_turns = numerator / Fraction(multiple.group("den") or multiple.group("den2") or "1") * (-1 if multiple.group("sign") else 1)
    degrees = _DEGREES_WRITTEN.fullmatch(answer.replace(" ", ""))
    if degrees is None:
        number = parse_numeral(normalize_answer(answer))
        marked = number is not None and not number.percent and any(
            _DEGREE_MARK.match(completion, found.end()) for found in re.finditer(rf"(?<![\d.]){re.escape(answer.strip())}(?![\d])", completion))
        value = number.value if marked else None
    else:
        value = Fraction(degrees.group(1))
    return value is not None and value / 180 == gold_turns


# a rational multiple of pi: "\\pi", "-\\pi", "\\frac{\\pi}{2}", "\\frac{2\\pi}{3}", "\\dfrac{3\\pi}{4}", "2\\pi/3", "\\pi/6"
_PI_MULTIPLE = re.compile(r"(?P<sign>-)?(?:\\[dt]?frac\{(?P<num>\d+)?\\pi\}\{(?P<den>\d+)\}|(?P<num2>\d+)?\\pi(?:/(?P<den2>\d+))?)")
_DEGREES_WRITTEN = re.compile(r"(-?\d+(?:\.\d+)?)(?:\^\{?\\circ\}?|°|\\degree)")
_DEGREE_MARK = re.compile(r"[^\S\n]*(?:\^\s*\{?\s*\\circ\s*\}?|°|\\degree\b|degrees?\b|deg\b)")
_ANGLE_UNIT_ASKED = re.compile(r"\b(?:in|as|to)\s+(?:radians?|degrees?)\b|\bradian\s+measure\b|\bin\s+terms\s+of\s+\\?\$?\\?pi\b|\bnumber\s+of\s+(?:radians|degrees)\b",
                               re.IGNORECASE)


def _unit_at(text: str, at: int) -> tuple | None:
    found = UNIT_AFTER_VALUE.match(text, at)
    return si_unit(found.group("unit")) if found is not None else None


def _answer_unit(answer: str, completion: str) -> tuple | None:
    """The SI unit written after the answer's value: in the answer, else after its last occurrence in the last 240
    characters of the completion."""
    value = re.match(r"\s*\$?\s*[-+]?\d[\d,]*(?:\.\d+)?", answer)
    if value is None:
        return None
    if answer[value.end():].strip(" .$}"):
        return _unit_at(answer, value.end())
    tail = completion[-240:]
    number = re.escape(value.group().strip(" $"))
    found = list(re.finditer(r"(?<![\d.,])" + number + r"(?![\d])", tail))
    return _unit_at(tail, found[-1].end()) if found else None


def _answer_quantity(answer: str, completion: str) -> tuple[Numeral, tuple] | None:
    """The value the answer states ("P = 1500 W": the right side) and the SI unit written after it
    (:func:`_answer_unit`), or None without a plain number (a percent is none) or a unit."""
    answer = answer.rpartition("=")[2]
    value = parse_numeral(normalize_answer(re.sub(r"(?<=\d)\s*[µμA-Za-z].*\Z", "", answer)))
    unit = _answer_unit(answer, completion)
    return None if value is None or value.percent or unit is None else (value, unit)


def converts_to_gold(gold: str, answer: str, completion: str, prompt: str = "") -> bool:
    """Is ``answer``, in the unit written after it, the gold's value in the gold's unit? (module docstring)"""
    quantity = _gold_quantity(gold)
    if quantity is None:
        return False
    gold_value, (bases, gold_factor) = quantity
    stated = _answer_quantity(answer, completion)
    if stated is None or stated[1][0] != bases:
        return False
    answer_value, unit = stated  # (the same prefix too: "45 N" for ``45\\,\\text{N}``, which Math-Verify reads as two forms)
    for asked in _ASKED_IN.finditer(prompt):
        si = si_unit(asked.group("unit"))
        if si is not None and si[0] == bases and si[1] != unit[1]:
            return False  # "What is the energy in kJ?" answered "4500 J": not the unit asked
    return numerals_equal(gold_value, Numeral(answer_value.value * Fraction(unit[1] / gold_factor).limit_denominator(10 ** 12)))


def another_prefix(gold: str, answer: str, completion: str) -> bool:
    """Is ``answer`` the gold's number in the gold's unit with another prefix ("4.5 J" for ``4.5\\text{ kJ}``, "2.0
    mmol/L" for ``2\\text{ mol/L}``)? Then the numbers agree and the quantities do not: another value."""
    quantity = _gold_quantity(gold)
    if quantity is None:
        return False
    gold_value, (bases, gold_factor) = quantity
    stated = _answer_quantity(answer, completion)
    if stated is None or stated[1][0] != bases or abs(stated[1][1] / gold_factor - 1) < 1e-9:
        return False
    return numerals_equal(gold_value, stated[0])
