"""The numbers of a clinical remark after a committed answer with a unit name other quantities, not a second answer
(issue #32, holdout69).

A clinician who has computed a value goes on: "BMI = 22.9 kg/m² — within the WHO normal range (18.5–24.9 kg/m²)",
"Bolus = 7,200 units IV. Then start the infusion at 18 units/kg/h (1,620 units/h) and check aPTT 6 h later.", "Max
single dose: 330 mg per dose, every 4–6 h, no more than 4 doses (60 mg/kg/day = 1320 mg) in 24 h.", "IBW = 73 kg. For
lung-protective ventilation, Vt 6–8 mL/kg IBW = 438–584 mL." A grader reads each later number as what its form says it
is. :func:`another_quantity` reads two forms, on normalised text (a dash between digits is ``-``):

* **a range** ``a-b`` (two numbers joined by a dash with no space, or by "to"): an interval -- a reference range, a
  dosing interval, a span of a scale -- never one value, so neither end is a second answer;
* **a unit of another dimension** than the answer's own (:func:`.units.written_unit`): after "7,200 units", a rate
  "units/h" or "units/kg/h", a time "6 h"; after "330 mg", a count of "doses" or a rate "mg/kg/day"; after "31
  drops/min", "125 mL/h" -- another quantity, wherever the remark says it; and the value a quantity of another
  dimension is equated with ("60 mg/kg/day = 1320 mg": the daily amount, though written in mg). A value after an
  arrow or in bold is stated as a result, not remarked on ("150 mg; q6h → **600 mg/day**" may answer the daily dose). (In a bracket this was read already by
  :func:`.remark_values._other_dimension`; here it is read in the clauses and sentences after the answer too.)

What stays a second answer: a value in the answer's own dimension that is no range ("7200 units (7,500 units)"; a
prefix is no other dimension: "1260 mg ... Final: 1260 mcg" is read in mcg, which :mod:`.units` refuses where the
question asks for mg), and, since only the numbers are read here, any
remark with a word of correction, doubt or alternative (:data:`.remark_values._NOT_A_REMARK` is read first). A bare
number (no unit on the answer) gets neither reading ("Current answer: 2 (steps 3–4 still open)" keeps its bracket), and
a remark that is a sentence of its own gets only the range reading: such a sentence may state the answer in its own
unit after a check in another ("Check: 72 km/h × 2.5 h = 180 km ✓ The train's speed is 72 km/h.").

Reconstructed rule (ours). Anchored patterns around one number: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.units import written_unit

# the start of a range before the value: "18.5-", "4 to ", "440-" (a number, an optional unit, a dash glued to both
# numbers or "to"); and its end after the value: "-24.9", " to 6"
_NUMBER = r"\d+(?:[.,]\d+)?"
_RANGE_BEFORE = re.compile(r"(?<![\d.,/^_-])" + _NUMBER + r"(?:-|[^\S\n]+to[^\S\n]+)\Z")
_RANGE_AFTER = re.compile(r"(?:-|[^\S\n]+to[^\S\n]+)" + _NUMBER + r"(?![\d.,/^_-])")
# a value with its unit and "=" right before the value: "60 mg/kg/day = ", "6-8 mL/kg IBW = "
_EQUALS_BEFORE = re.compile(r"(?<![\d.,])(?P<value>\d+(?:[.,]\d+)?)[^\S\n]*[^\W\d][^=\d\n]{0,16}?[^\S\n]*=[^\S\n]*\Z")
# a value stated as a result, not remarked on: after an arrow or in bold ("150 mg; q6h → **600 mg/day**": the daily
# dose may be the answer asked, in its own unit)
_STATED_BEFORE = re.compile(r"(?:→|⇒|=>|->|\*\*)[^\S\n]*(?:\*\*)?[^\S\n]*\Z")
# what makes "a-b" arithmetic rather than a range: an operator or an equals sign right after it ("12-4 = 8")
_ARITHMETIC_AFTER = re.compile(r"[^\S\n]*(?:[=+×*/÷]|\\times|\\cdot)")


def range_end(plain: str, start: int, end: int) -> bool:
    """Is the number at ``plain[start:end]`` an end of a range ("18.5-24.9", "4-6 h", "6 to 8 mL/kg")? Not when the
    range is a term of arithmetic ("140-128 = 12") or a date-like chain of three numbers ("2024-12-05")."""
    before = _RANGE_BEFORE.search(plain, max(0, start - 16), start)
    after = _RANGE_AFTER.match(plain, end)
    if before is None and after is None:
        return False
    stop = after.end() if after is not None else end
    return _ARITHMETIC_AFTER.match(plain, stop) is None and (before is None or after is None)


def another_quantity(plain: str, start: int, end: int, answer_dimension, sentence: bool = False) -> bool:
    """Is the number at ``plain[start:end]`` of a remark after an answer with a unit (``answer_dimension``, the
    answer's :func:`.units.written_unit`; None when it has none, and then nothing is read here) another quantity by its
    form (module docstring): an end of a range, or a value with a unit of another dimension? In a remark that is a
    sentence of its own (``sentence``) only a range is read: such a sentence may state the answer itself in its unit
    after a check in another ("Check: 72 km/h × 2.5 h = 180 km ✓ The train's speed is 72 km/h.")."""
    if answer_dimension is None:
        return False
    if range_end(plain, start, end):
        return True
    if sentence or _STATED_BEFORE.search(plain, max(0, start - 12), start):
        return False
    theirs = written_unit(plain, end)
    if theirs is not None and theirs[:2] != answer_dimension[:2]:
        return True
    left = _EQUALS_BEFORE.search(plain, max(0, start - 40), start)
    given = written_unit(plain, left.end("value")) if left is not None else None
    return given is not None and given[:2] != answer_dimension[:2]  # "(60 mg/kg/day = 1320 mg)": that quantity's value

