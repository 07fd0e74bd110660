"""An option letter with a mark that makes it another token (holdout115: "Answer: C'", "**Answer: A̅**", "Final
answer: B-cells.", "answer = !A"): a policy paid for the gold letter learns to put it inside a token that names something
else -- a prime (``C'``, ``C′``: another point, a derivative, a complement), an accent or bar over it (``A̅``, ``Ā``: a
complement or a mean; ``\\bar{A}``), a complement or a subscript (``A^c``, ``A₁``, ``B_2``), a plus sign
(``B+``: a blood type or a grade), a negation sign before it (``!A``, ``¬D``, ``~B``, ``\\neg B``), or a hyphen glued to a
lowercase word (``B-cells``, ``T-helper``: a compound noun, not the option). The reader's letter tiers need a break
after a letter and so skip such a token, then fall through to an option's text named in the reasoning. A final answer
phrase that states such a token states no option, so nothing is read from the reasoning instead.

A quoted letter (``'C'``, ``"C"``) is a letter, and a compound that is an option's own text (``C-reactive protein``
where an option says so) names that option. Read by :func:`.choice._extract_letter`; reconstructed rule (ours), one
bounded pattern per view."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# after the answer phrase: markup and separators, a negation sign, the letter, then its mark; a quote before the letter
# makes a quote after it a closing quote, not a prime
_MARKED = re.compile(
    r"[\s*:=\-–—]*(?P<open>['‘\"“])?[^\S\n]*\$?[^\S\n]*(?P<neg>!|¬|~|\\(?:neg|lnot)(?![A-Za-z])[^\S\n]*)?"
    r"(?P<accent>\\(?:bar|overline|hat|tilde|widetilde|widehat|dot)\s*\{\s*)?(?P<letter>[A-Z])"
    r"(?P<mark>['′″’]|[\u0300-\u036f]+|-[a-z]{2,}(?:[^\S\n]+[a-z]+)?|\+(?![\w+])|[₀-₉]|\d+(?![.,]?\d)|_\{?\d|\^\s*\{?\s*(?:c|C|\\prime|\\complement)\b)?")


_TAIL = 4000


def marked_letter(text: str, anchor: str, letters: str, options: Mapping[str, str]) -> bool:
    """Does the last answer phrase of ``text`` (``anchor``, the reader's answer-phrase pattern) state an option letter
    with a mark that makes it another token (module docstring)?

    >>> marked_letter("Answer: C'", r"(?i:answer)", "ABCDE", {})
    True
    >>> marked_letter("Answer: 'C'", r"(?i:answer)", "ABCDE", {})
    False
    >>> marked_letter("Answer: B's mechanism fits best.", r"(?i:answer)", "ABCDE", {})
    False
    >>> marked_letter("Final answer: B-cells.", r"(?i:answer)", "ABCDE", {})
    True
    >>> marked_letter("Answer: C-reactive protein", r"(?i:answer)", "ABCDE", {"C": "C-reactive protein"})
    False
    >>> marked_letter("Answer: B - it binds", r"(?i:answer)", "ABCDE", {})
    False
    """
    text = text[-_TAIL:]  # the last answer phrase is in the tail (speed: a megabyte of text is not searched)
    phrases = list(re.compile(anchor).finditer(text))
    if not phrases:
        return False
    end = phrases[-1].end()
    tail = unicodedata.normalize("NFD", text[end:end + 40])  # "Ā" as "A" and its mark
    found = _MARKED.match(tail)
    if found is None or found.group("letter") not in letters:
        return False
    mark = found.group("mark") or ""
    if found.group("neg") is None and found.group("accent") is None and not mark:
        return False
    if mark[:1] in "'’" and found.group("open"):
        return False  # "'C'": a quoted letter
    if mark[:1] in "'’" and re.match(r"s\b", tail[found.end():]):
        return False  # "B's mechanism fits best", "B’s the one": a possessive or "is", not a prime (stop 63)
    if mark.startswith("-"):
        token = found.group("letter") + mark
        return not any(token.lower() in option.lower() for option in options.values())  # "C-reactive protein" as an option's text
    return True
