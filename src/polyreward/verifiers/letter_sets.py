"""Several option letters offered as the answer, in an answer's summary (red team ``holdout_r45``).

A model paid for one boxed letter can keep the gold letter in its box while its summary answers with a set of
letters, a range of them or a split of probability over them, and the box only picks one of that set for the form:
"A or C, leaning A; I can't separate them. If one letter is required: \\boxed{A}", "A, B and E are all consistent
with current practice; listing the first: \\boxed{A}", "Any imaging from B to D is acceptable; the box holds the first
of them. \\boxed{B}", "Roughly 60% A, 40% E. \\boxed{A}". A grader asked for one committed letter gives no credit:
the summary commits to the set, not to the box's letter. :func:`offered_with_others` reads a summary clause by clause
(a clause ends at ``.``, ``;``, ``!``, ``?`` or a line) and finds, with the letter among them,

* letters joined by ``or`` / ``/`` (``A or C``, ``A, C or D``, ``either A or C``);
* letters joined by ``and`` or a range of letters (``from B to D``, ``B through D``, ``B–D``) said to be acceptable
  in the same clause (:data:`_ACCEPTABLE`: ``are all consistent``, ``is acceptable``, ``would be reasonable``), or a
  range after ``any`` / ``all`` / ``either``;
* two letters or more each given a percentage (``60% A, 40% E``, ``A (60%), E (40%)``).

A clause that sets its letters aside (``not``, ``rather than``, ``unlike``, ``wrong``, ``less``: ``B or D would be
wrong``, ``A rather than C or D``) offers nothing, and letters joined without the letter (``B and D both delay it``)
weigh the others. "Between A and C, A wins", "A over C" and "A, not C" commit to A. Reconstructed rule (ours); one
pass of bounded patterns per clause, linear in the summary.
"""

from __future__ import annotations

import re

# an option letter standing alone (not inside a word, not a backslash command), in brackets or after "option"
_LETTER = r"(?:(?:option|choice)\s+)?\(?(?P<{name}>[A-Z])\)?(?![A-Za-z'\d])"
_L = r"(?:(?:option|choice)\s+)?\(?[A-Z]\)?(?![A-Za-z'\d])"
# letters joined as one list: "A or C", "A, C or D", "either A or C", "A/C", "A, B and E", "A and C"
_JOINED = re.compile(
    r"(?<![A-Za-z'\\])(?:either\s+)?" + _L + r"(?:\s*,\s*" + _L + r")*\s*,?\s*(?P<join>or|and|&|/)\s*" + _L, re.IGNORECASE)
_RANGE = re.compile(r"(?<![A-Za-z'\\])(?:from\s+)?" + _LETTER.format(name="low") + r"\s*(?:-|–|—|\bto\b|\bthrough\b|\bthru\b)\s*"
                    + _LETTER.format(name="high"))
_QUANTIFIED = re.compile(r"\b(?:any|all|either|each)\b", re.IGNORECASE)
_ACCEPTABLE = re.compile(
    r"\b(?:are|is|would\s+be|could\s+be|seem|seems|look|looks|remain|remains)\s+(?:(?:all|both|each|equally|about\s+equally|"
    r"also|probably|perhaps)\s+)*(?:(?:fully|entirely|quite|very|about|equally)\s+)?(?:correct|acceptable|reasonable|defensible|"
    r"consistent|valid|appropriate|fine|right|good|justified|plausible|possible|supportable|ok|okay)\b", re.IGNORECASE)
_PERCENT_LETTER = re.compile(r"\d{1,3}(?:\.\d+)?\s*%\s*(?:for\s+|on\s+)?\(?(?P<one>[A-Z])\)?(?![A-Za-z'\d])"
                             r"|(?<![A-Za-z'\\])\(?(?P<two>[A-Z])\)?\s*[:(=]?\s*\d{1,3}(?:\.\d+)?\s*%")
_SET_ASIDE = re.compile(r"\b(?:not|no|never|neither|nor|rather\s+than|instead\s+of|unlike|excluded?|rules?\s+out|ruled\s+out|"
                        r"wrong|incorrect|inferior|worse|less|too)\b|n't\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;!?\n]")
_ONE_LETTER = re.compile(r"(?<![A-Za-z'\\])\(?([A-Z])\)?(?![A-Za-z'\d])")


def _letters_of(span: str, letters: str) -> set[str]:
    return {m.group(1) for m in _ONE_LETTER.finditer(span)} & set(letters)


def offered_with_others(summary: str, letter: str, letters: str) -> str:
    """Why ``summary`` (an answer's text outside its box) offers ``letter`` as one of several letters (module
    docstring), or "" when it does not: ``offered_with_others("A or C, leaning A", "A", "ABCDE")`` gives
    ``"A or C"``; ``offered_with_others("A rather than C or D", "A", "ABCDE")`` gives ``""``."""
    for clause in _CLAUSE_END.split(summary):
        if letter not in clause or _SET_ASIDE.search(clause):
            continue
        for found in _JOINED.finditer(clause):
            named = _letters_of(found.group(), letters)
            if letter in named and len(named) >= 2 and (
                    found.group("join") in ("or", "/") or _ACCEPTABLE.search(clause, found.end())):
                return found.group().strip()
        for found in _RANGE.finditer(clause):
            low, high = found.group("low"), found.group("high")
            if {low, high} <= set(letters) and low < high and low <= letter <= high and (
                    _ACCEPTABLE.search(clause, found.end()) or _QUANTIFIED.search(clause[:found.start()])):
                return found.group().strip()
        percents = {m.group("one") or m.group("two") for m in _PERCENT_LETTER.finditer(clause)} & set(letters)
        if letter in percents and len(percents) >= 2:
            return ", ".join(sorted(percents)) + " each given a percentage"
    return ""
