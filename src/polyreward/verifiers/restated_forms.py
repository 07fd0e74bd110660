"""One value said twice, joined by "or": "3/4, or 0.75", "$\\dfrac{3}{4}$, or 75%", "5/4 cups of butter, or 1 1/4 cups".

A writer often gives the answer and then the same value in another form after "or"; that is no hedge between two
candidates (:mod:`.answer_extraction` reads "X or Y" as a hedge otherwise). Read here:

* the value on the other side of "or" (after the answer: :func:`restated_after`; before it: :func:`restated_before`)
  is the same number (:func:`.math_normalize.same_number`: a fraction, a decimal, a percent of it);
* a **mixed number** is one value (:data:`MIXED_NUMBER`: "4 1/2", "1 1/4"), so "4 or 4 1/2 cups" offers 9/2 beside 4
  -- two candidates -- and "5/4, or 1 1/4" one value twice (holdout79);
* "or" in the languages of :data:`.doubt_words.OR_WORDS` ("9/2 tasses, ou 4 1/2", "4 1/2 oder 9/2");
* a unit may stand between the first value and ", or" ("5/4 cups, or 1.25 cups"): then the other value carries the
  same unit's first word or none ("4 cups, or 4 litres" is two amounts).

Reconstructed rules (ours); anchored patterns over at most 80 characters each side: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.doubt_words import OR_WORDS
from polyreward.verifiers.math_normalize import same_number
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a whole number and a proper fraction, one value: "4 1/2", "1 1/4" (not the "1 1/4" of "1 1/4.5")
MIXED_NUMBER = r"\d+[^\S\n]+\d+\s*/\s*\d+(?![\d/]|\.\d)"
_ALTERNATIVE = re.compile(r"(?P<unit>(?:[^\S\n]+[^\W\d_]+){1,3}(?=,\s*(?:" + OR_WORDS + r")\b))?[\s$*)}\]]*[\s.,;:(]*(?:\b(?:" + OR_WORDS + r")\b|/)\s*(?:equivalently\s+)?\$?"
                          r"(?P<value>[-−+]?(?:" + MIXED_NUMBER + r"|\d[\d.,]*(?:\s*/\s*\d+)?%?|\\[dt]?frac\{\d+\}\{\d+\}))(?![\d.]*[A-Za-z(^])(?![^\S\n]*\d+\s*/)")

_ALTERNATIVE_BEFORE = re.compile(r"(?<![\w.])(?<![\w.][-–—])([-−+]?(?:" + MIXED_NUMBER + r"|\d[\d.,]*(?:\s*/\s*\d+)?%?|\\[dt]?frac\{\d+\}\{\d+\}))"
                                 r"(?P<unit>(?:[^\S\n]+[^\W\d_]+){1,3}(?=,\s*(?:" + OR_WORDS + r")\s*\$?\Z))?[\s$*)}\]]*[\s.,;:(]*(?:\b(?:" + OR_WORDS + r")|/)\s*(?:equivalently\s+)?\$?\Z")


def restated_before(answer: str, before: str, after: str = "") -> bool:
    """Is the value right before ``answer`` and joined to it by "or" ("$\\dfrac{3}{4}$, or 75%", "5/4 cups, or 1.25 cups")
    the same number, a unit after it being the one after ``answer`` (``after``) or none? The end of a range is not a
    value of its own ("(target 19–21, or 21 mmHg)" offers 21 beside 20)."""
    match = _ALTERNATIVE_BEFORE.search(before)
    if match is None or not same_number(match.group(1), answer):
        return False
    return _same_unit(match.group("unit"), after)


def restated_after(answer: str, after: str) -> bool:
    """Is the alternative after ``answer`` ("3/4, or 0.75", "\\frac{1}{2} or 0.5") the same number written again?"""
    match = _ALTERNATIVE.match(after)
    if match is None or not same_number(answer, match.group("value")):
        return False
    return _same_unit(match.group("unit"), after[match.end():])  # "5/4 cups of butter, or 1 1/4 cups"


def _same_unit(unit: str | None, then: str) -> bool:
    """No unit was skipped, or the words right after the other value (``then``) open with the skipped unit's first word
    or hold none ("4 cups or 4 litres" is two amounts)."""
    again = re.match(r"[^\S\n]*([^\W\d_]+)", then)
    return not unit or again is None or again.group(1).lower() == unit.split()[0].lower()
