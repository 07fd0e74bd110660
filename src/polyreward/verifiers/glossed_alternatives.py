"""Two options joined by "or", each named by its letter after what it holds (holdout97: "It's 14 if you go left to
right (option A) or 11 with the usual order of operations (option B).", "x is 5 (C) or 20 (E)"): the letter glosses
the value or reading before it, so the "or" stands before that value, not before the letter, and the reading of "A or
B" next to a letter (:func:`.commitment.hedged`) does not see it. Two glossed options offered so are two answers.

Read on the normalised text before the chosen letter, back to the last break of a sentence: the letter stands as a
gloss -- in brackets (``(B)``, ``(option B)``, ``[B]``) or after a comma and ``option`` / ``choice`` (``, option B``)
-- and at most 80 characters of text without a bracket or a sentence end before it follows an "or" (in the languages
of :data:`.doubt_words.OR_WORDS`), which follows another letter standing as a gloss. A letter glossed once
("11 (B), not 14") or a list of values without "or" ("14 (A) and 11 (B) are both sums; the answer is B") is not read.
Reconstructed rule (ours); linear time (one search over a bounded window, every repeat bounded).
"""

from __future__ import annotations

from polyreward.verifiers.doubt_words import OR_WORDS
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_WINDOW = 200
_LABEL = r"(?i:option|choice|opci[oó]n|op[cç][aã]o)"
# the other option's gloss, then "or" and what the chosen letter glosses, up to the chosen letter's own gloss mark
_GLOSSED_OR = re.compile(
    r"(?:[(\[](?:" + _LABEL + r"[^\S\n]+)?(?P<other>[A-Z])[)\]]|,[^\S\n]*" + _LABEL + r"[^\S\n]+(?P<other2>[A-Z])(?![\w']))"
    r"[^\S\n]*,?[^\S\n]*(?i:\b(?:" + OR_WORDS + r")\b)(?![^\S\n]*(?i:rather|equivalently|in\s+other\s+words)\b)"
    r"[^()\[\]\n.;!?]{1,80}?(?:[(\[](?:" + _LABEL + r"[^\S\n]+)?|,[^\S\n]*" + _LABEL + r"[^\S\n]+)\Z"
)


def glossed_alternative(text: str, start: int) -> bool:
    """Is the option letter at ``text[start]`` the gloss of one alternative whose other, joined by "or", is glossed by
    another letter ("14 (A) or 11 (B)", "..., option A, or 11 ..., option B")? See the module docstring."""
    letter = text[start:start + 1]
    if not letter.isupper():
        return False
    found = _GLOSSED_OR.search(text[max(0, start - _WINDOW):start])
    return found is not None and (found.group("other") or found.group("other2")) != letter
