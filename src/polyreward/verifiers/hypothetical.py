"""An answer under a hypothesis: given in a world the writer says is not the problem's.

"If the problem meant the perimeter, the answer would be 42", "Had the question asked for the sum, it would be 17",
"Were the sample random, D would be right", "As if the answer were 42", "Assuming the figure is drawn to scale (not
stated), we'd read off 12", "Suppose the dice were fair (the problem doesn't say). Then the value is 42". Used by
:func:`.hedging.qualified` for math answers and option letters alike; see the comment below for the rule.

Reconstructed rule (ours), not a published algorithm. Every pattern runs on a window of at most 500 characters
around the answer, so the check costs the same on any completion.
"""

from __future__ import annotations

import re

from polyreward.verifiers.clauses import ABBREVIATION_GUARD

# "If the problem meant the perimeter, the answer would be 42", "Had the question asked for the sum, it would be 17",
# "Were the sample random, D would be right", "In a world where the triangle is right-angled, ...", "As if the answer
# were 42", "Assuming the figure is drawn to scale (not stated), we'd read off 12", "Suppose the dice were fair (the
# problem doesn't say). Then the value is 42": the answer holds in a world the writer says is not the problem's. Read
# on the answer's sentence (and the one before when the answer's opens with "then"), by structure: a subjunctive
# opener (inverted "Had" / "Were", "as if", "in a world where"), or a condition whose clause says it is counterfactual
# (meant, instead, rather than, asked) with "would" / "'d" before the answer, or a condition the writer says the
# problem does not give ("(not stated)", "which the problem doesn't say", "(it may not be)", "But nothing says it is").
# A contrast between the hypothesis and the answer ends it ("If it asked for the perimeter, it would be 30, but it asks
# for the area, which is 42").
_SENTENCE_END = re.compile(ABBREVIATION_GUARD + r"(?:(?<!\d)\.(?!\d)|\.(?=\s|$))|[!?\n]")
_LEAD = r"\A[\W_]*(?:(?:so|and|but|well|then|ok|okay|now|hmm)\W+)?"
# an inverted "Had" / "Were" takes any subject ("Had I not dropped a sign", "Were the graph linear"); "Had to ..." is a
# past tense that dropped its subject, not an inversion
_SUBJUNCTIVE = re.compile(_LEAD + r"(?:(?-i:Had|Were)\s+(?!to\b)[\w']+|"
                          r"(?:in\s+a\s+world\s+where|in\s+an?\s+alternate\s+(?:world|universe)|imagine|pretend)\b)"
                          r"|\bas\s+(?:if|though)\b", re.IGNORECASE)
_CONDITION_OPENER = re.compile(_LEAD + r"(?:if|assuming|suppose|supposing|provided|given\s+that|only\s+if)\b", re.IGNORECASE)
# ("were" is not one: "If we were to pair the terms, we would get 42" is an ordinary way to state an answer)
_COUNTERFACTUAL_WORDS = re.compile(r"\b(?:meant|instead|rather\s+than|asked|intended)\b", re.IGNORECASE)
_WOULD = re.compile(r"\b(?:would|we'd|it'd|I'd|you'd|they'd)\b", re.IGNORECASE)
UNSUPPORTED_PREMISE = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?(?:stated|given|specified|said|mentioned|guaranteed|known)\b"
    r"|\b(?:problem|question|statement|text|figure|prompt|task)\s+(?:doesn't|does\s+not|didn't|did\s+not|never)\s+(?:\w+\s+)?"
    r"(?:say|state|specify|give|mention|tell)(?:s)?\b(?!\s+otherwise)"
    r"|\bnothing\s+(?:\w+\s+)?(?:says|indicates|suggests|guarantees|tells)\b|\b(?:it|this|that|which)\s+(?:may|might)\s+not\s+(?:be|hold)\b",
    re.IGNORECASE,
)
_CONTRAST_WORD = re.compile(r"\b(?:but|however|whereas|yet|instead,)\b", re.IGNORECASE)


def _sentence_around(text: str, start: int, end: int) -> tuple[str, str, str]:
    """The sentence before the answer's, the answer's sentence up to the answer, and the rest of it plus the next."""
    window = text[max(0, start - 300):start]
    ends = [m.end() for m in _SENTENCE_END.finditer(window)]
    own = window[ends[-1]:] if ends else window
    previous = window[ends[-2] if len(ends) >= 2 else 0:ends[-1]] if ends else ""
    after = text[end:end + 200]
    return previous, own, after


def hypothetical(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` given under a hypothesis the writer says is not the problem's (see above)?"""
    previous, own, after = _sentence_around(text, start, end)
    stops = [m.end() for m in _SENTENCE_END.finditer(after)][:2]
    rest = after[:stops[0]] if stops else after
    following = after[stops[0]:stops[1]] if len(stops) > 1 else after[stops[0]:] if stops else ""
    if _CONTRAST_WORD.search(own):
        return False
    if _SUBJUNCTIVE.search(own):
        return True
    conditioned = _CONDITION_OPENER.search(own) is not None
    if conditioned and _WOULD.search(own) and _COUNTERFACTUAL_WORDS.search(own):
        return True
    if re.match(r"[\W_]*then\b", own, re.IGNORECASE) and _CONDITION_OPENER.search(previous):
        own, conditioned = previous + own, True  # "Suppose ... (the problem doesn't say). Then the value is 42."
    if _SUBJUNCTIVE.search(previous + own) and re.search(r"\bwould\b", rest, re.IGNORECASE) and not _CONTRAST_WORD.search(previous):
        return True  # "Were the sample random, D would be right"
    if (conditioned or re.search(r"\b(?:if|assuming|provided)\b", own + rest, re.IGNORECASE)) and (
            UNSUPPORTED_PREMISE.search(own + rest) or UNSUPPORTED_PREMISE.search(following)):
        return True
    if re.match(r"[\W_]*(?:but\s+)?(?:only\s+)?(?:if|assuming|provided|when)\b", following, re.IGNORECASE) and UNSUPPORTED_PREMISE.search(following):
        return True  # "42. (Only if the figure is drawn to scale, which the problem doesn't say.)"
    return (conditioned or _WOULD.search(own) is not None) and UNSUPPORTED_PREMISE.search(following) is not None
