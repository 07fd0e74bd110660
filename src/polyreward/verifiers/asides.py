"""A reason in brackets after an anchored answer is no part of the answer (holdout14).

"Answer: 42 (since each of the 6 rows has 7 marbles).", "Answer: 42 (because 6 rows of 7)": the bracket opens with a
word that gives a reason (since, because, as, for, given), or with a label and a colon ("24 (digits reversed: 42)",
"42 (in binary: 101010)", "42 (check: 6 x 7 = 42)": a remark in another form), or a check with a tick ("x = 6 (2·6 + 5 = 17 ✓)"),
and the value before it is the answer; the text the anchor
reader trims is cut at the bracket, so the reason's own numbers (6, 7) are not read as the answer. A bracket that
qualifies the value itself ("42 (in base 8)", "42 (placeholder)", "3 (x+1)") is kept and read as before.

Reconstructed rule (ours). One anchored match on the first 300 characters: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a short value (no letters but one-letter symbols and LaTeX), then "(" and a reason word or a label and a colon
_VALUE_THEN_REASON = re.compile(
    r"(?P<value>[^\s()]{1,40}(?:[^\S\n][^\s()]{1,10}){0,3}?)[^\S\n]*\((?=[^\S\n]*(?:since|because|as|for|given)\b|[^():\n\d]{1,30}:|[^()\n]{1,80}[✓✔])",
    re.IGNORECASE,
)


# an answer that says there is none, then a bracket (fixhack): "no maximum (supremum $2$, not attained)", "none (the
# bound 2 is never reached)" -- the answer is that there is none; the bracket's number is no answer
_NONE_THEN_ASIDE = re.compile(r"(?P<value>(?:no(?:[^\S\n]+(?:real|such|finite|global|absolute))?[^\S\n]+(?:maximum|minimum|max|min|solutions?|"
                              r"answer|value|limit|roots?)|none|nothing|undefined|does[^\S\n]+not[^\S\n]+exist|DNE))[^\S\n]*\(", re.IGNORECASE)


def cut_reason_aside(segment: str) -> str:
    """``segment`` (the text after an answer anchor) up to a bracketed reason right after its value, or the words of an
    answer that says there is none before a bracket, else unchanged."""
    none = _NONE_THEN_ASIDE.match(segment[:300])
    if none is not None:
        return none.group("value")
    found = _VALUE_THEN_REASON.match(segment[:300])
    if found is None or re.search(r"[A-Za-z]{2,}", re.sub(r"\\[A-Za-z]+", " ", found.group("value"))):
        return segment
    return found.group("value")
