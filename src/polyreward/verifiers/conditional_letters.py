"""Another option offered under a condition after the chosen one (holdout57: "The answer is A.[^1]" with the
footnote "[^1]: Unless the question intends a different definition of side, in which case D."): the writer hands
the choice between two options to whoever reads the question, which is two answers, not one.

Read on the text after the chosen letter's last mention (a footnote is already read there, at its marker:
:func:`.footnotes.inline_footnotes`). Only a consequent that stands as the answer counts: a connective that opens the
other branch ("in which case", "otherwise", "else", "failing that", "if not") and then the other letter alone at the
end of its clause ("in which case D.", "otherwise, C"). A counterfactual about another question ("If the question
had asked for the hottest layer instead, that would be D") and a reason ("otherwise B would be true") name no other
answer to this one and are not read. Reconstructed rule (ours); linear time (one bounded search).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_OTHER_BRANCH = re.compile(
    r"\b(?:in\s+which\s+case|otherwise|else|failing\s+that|if\s+not)\b[\s,:]*"
    r"(?:(?:it(?:'s|\s+is|\s+would\s+be)|the\s+answer\s+(?:is|would\s+be)|(?:pick|choose|take|go\s+with)|answer)\s+)?"
    r"(?:(?:option|choice)\s+)?[(\[*]*(?P<letter>[A-Z])[)\]*]*(?=\s*(?:[.;!,)\n]|\Z))",
    re.IGNORECASE,
)


def conditional_other_letter(text: str, after: int, letter: str, letters: str) -> bool:
    """Does the text after ``after`` (the end of the chosen ``letter``'s last mention) offer another of ``letters``
    as the answer in another branch ("..., in which case D.", "Otherwise C.")?"""
    for found in _OTHER_BRANCH.finditer(text, after, min(len(text), after + 600)):
        other = found.group("letter")
        if other.isupper() and other != letter and other in letters:
            return True
    return False
