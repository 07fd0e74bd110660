"""Does a completion commit to the answer found in it? The words around an answer, read like a grader would.

An answer reader (:mod:`.answer_extraction` for math, :mod:`.choice` for options and labels) finds a candidate
and where it sits, ``text[start:end]``; these checks read a bounded window on either side of it and say why the
candidate is not a committed answer, or nothing:

    negated    "The answer is not \\boxed{42}."  "It can't be 42."  "Not C."  "(C) is wrong"  "42 is not the answer"
    hedged     "\\boxed{42} or 43"  "**41** or **42**"  "Either option A or option C."  "C if ..., otherwise B"
               "\\boxed{42}. Alternatively, \\boxed{43}"
               "\\boxed{42 \\text{ (or 43)}}" (an "or" inside the answer, :func:`hedged_inside`)

:func:`retraction_after` finds where a completion withdraws what it said ("42... wait, no, 45", "scratch that",
"I made a mistake"); the reader then takes the answer stated after that point, and when there is none the
withdrawn answer is no answer when the retraction is explicit ("wait, no", "that's wrong") and stays when it is
only a pause ("wait, let me double-check").

Why: a reward that pays for an answer the text denies, hedges or takes back teaches a policy to deny, hedge
and take back (list both candidates, negate the wrong one, say "or"). Reconstructed from how such completions
read; not a published algorithm. Every pattern runs on a window of at most :data:`WINDOW` characters (or the
reader's already capped tail), so the checks cost the same on any completion.
"""

from __future__ import annotations

import re

WINDOW = 80

# markup between the words and the answer itself: "is not \\boxed{", "Not (", "is **"
_MARKUP_END = re.compile(r"(?:[\s$*(\[{:=]|\\(?:boxed|fbox|framebox|text|textbf|mathbf|mathrm)\s*\{?|\\[(\[])*\Z")
_MARKUP_START = re.compile(r"\A(?:[\s$*)\]}]|\\[)\]])*")
_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|n't|\bnever|\bno\s+longer)(?:\s+(?:be|equal|equals|equal\s+to|to|the|correct|right|answer|option|choice|"
    r"is|simply|just))*\Z",
    re.IGNORECASE,
)
_NEGATED_AFTER = re.compile(
    r"\A[\s.,:;]*(?:(?:is|was|are|would\s+be|seems|looks)\s+(?:not|n't)|isn't|wasn't|aren't|can't\s+be|cannot\s+be)\s+"
    r"(?:the\s+|a\s+|an\s+)?(?:correct\s+|right\s+|final\s+|best\s+)?(?:answer|option|choice|solution|it|true|valid|right|correct|possible)\b"
    r"|\A[\s.,:;]*(?:is|was|are|would\s+be|seems|looks)\s+(?:wrong|incorrect|false|a\s+mistake|ruled\s+out|eliminated|excluded|impossible)\b",
    re.IGNORECASE,
)
# "41 or 42", "A or option C", "x = 2 or x = 3", "A/C": another candidate joined to this one
_CANDIDATE = r"[\s$*(\[{]*(?:\\(?:boxed|text|textbf|mathbf|frac|sqrt|dfrac)\b|[-−+]?\.?\d|(?:option\s+|choice\s+)?[A-Za-z](?![A-Za-z])|yes\b|no\b|maybe\b)"
_HEDGED_BEFORE = re.compile(
    r"(?:\b(?:or|either|otherwise|else|and/or|alternatively)|/)(?:\s+(?:maybe|possibly|perhaps|option|choice|answer|[A-Za-z]\s*=))*[,:]?\Z",
    re.IGNORECASE,
)
_HEDGED_AFTER = re.compile(r"\A[\s.,;:(]*(?:\b(?:or|and/or)\b|/)\s*(?:maybe\s+|possibly\s+|perhaps\s+|even\s+)?" + _CANDIDATE, re.IGNORECASE)
_CONDITIONAL_AFTER = re.compile(r"\A[\s.,;:]*(?:if|unless|when|provided|assuming|depending)\b", re.IGNORECASE)
_OTHERWISE = re.compile(r"\b(?:otherwise|else|if\s+not|or)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<!\d)\.(?!\d)|[!?\n]")
_INSIDE_OR = re.compile(r"\b(?:or(?!\s*,?\s*(?:equivalently|equally|in\s+other\s+words|simply)\b)|either|and/or)\b", re.IGNORECASE)

# explicit retractions, and pauses that only withdraw an answer when a different one follows
_RETRACTION = re.compile(
    r"\b(?:wait|hold\s+on|hmm|actually|oops|scratch\s+that|correction|on\s+second\s+thought|"
    r"i\s+made\s+(?:a|an)\s+(?:mistake|error)|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right))\b",
    re.IGNORECASE,
)
_EXPLICIT = re.compile(
    r"(?:(?:wait|hold\s+on|hmm|actually)[\s,.!]*(?:no\b|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right)|"
    r"i\s+(?:was\s+wrong|made\s+(?:a|an)\s+(?:mistake|error)))|oops|scratch\s+that|correction|on\s+second\s+thought|"
    r"i\s+made\s+(?:a|an)\s+(?:mistake|error)|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right))",
    re.IGNORECASE,
)
_PUNCTUATION_RUN = re.compile(r"(?:[\s,.;:!–—]|-(?![\d.]))*")  # "wait, no, -1": the minus stays


def _before(text: str, start: int) -> str:
    window = text[max(0, start - WINDOW):start]
    return window[:_MARKUP_END.search(window).start()]


def _after(text: str, end: int) -> str:
    window = text[end:end + WINDOW]
    return window[_MARKUP_START.match(window).end():]


def negated(text: str, start: int, end: int) -> bool:
    """Does the text deny the answer at ``text[start:end]`` ("not 42", "can't be C", "C is wrong")?"""
    return bool(_NEGATED_BEFORE.search(_before(text, start)) or _NEGATED_AFTER.match(_after(text, end)))


def hedged(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` one of several candidates ("41 or 42", "Either A or C", "C if ...,
    otherwise B")?"""
    if _HEDGED_BEFORE.search(_before(text, start)) or _HEDGED_AFTER.match(_after(text, end)):
        return True
    after = text[end:end + 2 * WINDOW]
    if _CONDITIONAL_AFTER.match(after):
        stop = _SENTENCE_END.search(after)
        return bool(_OTHERWISE.search(after[:stop.start()] if stop else after))
    return False


def hedged_inside(answer: str) -> bool:
    """An answer that names alternatives itself: ``42 \\text{ (or 43)}``, ``2 or 3``."""
    return bool(_INSIDE_OR.search(answer))


def uncommitted(text: str, start: int, end: int) -> str:
    """``"negated"``, ``"hedged"`` or ``""`` for the answer at ``text[start:end]``."""
    if negated(text, start, end):
        return "negated"
    if hedged(text, start, end):
        return "hedged"
    return ""


def retraction_after(text: str, end: int) -> tuple[int, bool] | None:
    """Where the last retraction after ``text[:end]`` ends and whether it is explicit (it takes the answer back
    even when no new answer follows); None when the text never takes anything back after ``end``."""
    last = None
    for last in _RETRACTION.finditer(text, end):
        pass
    if last is None:
        return None
    explicit = _EXPLICIT.match(text, last.start())
    resume = _PUNCTUATION_RUN.match(text, explicit.end() if explicit else last.end()).end()
    return resume, explicit is not None
