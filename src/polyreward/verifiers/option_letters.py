"""Option letters and labels standing alone in a text: ``C``, ``(C)``, ``[C]`` (not the ``A`` of a word, not ``B12``),
``yes`` / ``No`` as words (not the "no" of "nobody"); every place a text names one, and whether its last mention is
the object of a word of withdrawal ("Scratch A"). Read by the choice and label readers (:mod:`.choice`,
:mod:`.choice_forms`, :mod:`.option_checks`, :mod:`.label_answers`) and by :mod:`.commitment` in the clauses after an
answer.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from typing import Callable

from polyreward.verifiers.clauses import WINDOW, clause_before


def letter_pattern(letters: str) -> re.Pattern:
    """An option letter standing alone: ``C``, ``(C)``, ``[C]`` (not the ``A`` of a word, not ``B12``)."""
    return re.compile(rf"(?<![A-Za-z'\\])[(\[]?([{re.escape(letters)}])[)\]]?(?![A-Za-z'\d])")


# option lines ("A. Aspirin") are one clause: a period right after a capital letter ends no clause -- unless a lone
# capital closes a sentence of prose, after a lowercase word and before a new sentence ("..., which would make it B. I
# can't commit either way": the B is stated at its clause's end, then the writer declines; holdout97)
_CLAUSE_END_LETTERS = re.compile(r"(?<![A-Z])\.(?!\d)|(?<=[a-z][^\S\n][A-Z])\.(?=[^\S\n]+[A-Z])|[!?;\n]")


def letter_mentions(text: str, letter: str, letters: str) -> list[re.Match]:
    """Every place ``text`` names option ``letter`` ("C", "(C)", "[C]"), in order."""
    if len(letter) != 1 or letter not in letters:
        return []
    # the pattern's guards do not depend on the other letters, so the letter's own pattern finds the same spans
    return list(letter_pattern(letter).finditer(text))


def letter_is(letter: str, letters: str) -> Callable[[str, int], bool | None]:
    """:func:`.number_keys.value_is` for an option letter: is the letter that starts at ``text[at]`` ``letter``?"""
    pattern = letter_pattern(letters)

    def test(text: str, at: int) -> bool | None:
        found = pattern.match(text, at)
        return None if found is None else found.group(1).upper() == letter
    return test



# a lowercase option letter in brackets, not glued to a word or another bracket before it ("(c)", "[b]"; not "f(a)")
_BRACKETED_LOWER = re.compile(r"(?<![\w)\]])([(\[])([a-z])([)\]])")


def bracketed_in_capitals(text: str, letters: str) -> str:
    """``text`` with each bracketed lowercase option letter written as its capital ("(c), maybe (e)" -> "(C), maybe
    (E)"): MedMCQA's lowercase option "(b)" is option B where a letter is read (:func:`.choice._accept`), so every
    later check that reads the letters a text names (another option stated after it, offered beside it, withdrawn)
    reads it too (holdout84). A letter outside ``letters`` and one glued to a word ("f(a)") stay as written."""
    if "(" not in text and "[" not in text:
        return text
    lower = letters.lower()
    return _BRACKETED_LOWER.sub(lambda m: m.group(1) + m.group(2).upper() + m.group(3) if m.group(2) in lower else m.group(0), text)


def label_pattern(labels: tuple[str, ...]) -> re.Pattern:
    """A label standing as a word: ``yes``, ``No``, ``maybe`` (not the "no" of "nobody")."""
    return re.compile(r"(?<![A-Za-z'])(" + "|".join(re.escape(label) for label in labels) + r")(?![A-Za-z'])", re.IGNORECASE)


# the verbs of withdrawal (not the adjectives: "(C) is wrong, (B) is right" withdraws nothing from B)
_WITHDRAWING_VERB = re.compile(r"\b(?:withdraw\w*|retract\w*|scratch|strike|ignore|disregard|forget|cancel\w*|delete|undo|never\s*mind)\b",
                               re.IGNORECASE)


# a choice the writer tells the reader not to make yet: a negated imperative of counting, taking or submitting with the
# letter as its object ("Don't count C yet", "do not submit (B)", "No marques la C todavía", "Ne compte pas C"; holdout97)
_NOT_TO_BE_TAKEN = re.compile(
    r"(?:\b(?:don't|do\s+not|never)\s+(?:count(?:\s+on)?|take|use|submit|pick|choose|select|mark|tick|circle|go\s+with|put\s+down|"
    r"write\s+down|lock\s+in|rely\s+on|trust|accept|record|enter)"
    r"|\bno\s+(?:cuentes|cuente|marques|marque|elijas|elija|tomes|tome|uses|use|env[ií]es|env[ií]e)(?:\s+(?:con|la|el|la\s+opci[oó]n))?"
    r"|\bne\s+(?:compte|comptez|prends|prenez|choisis|choisissez|coche|cochez|retiens|retenez|garde|gardez)\s+pas(?:\s+(?:sur|la|le|l'option))?)"
    r"(?:\s+(?:option|choice|opci[oó]n))?",
    re.IGNORECASE,
)
# ... read as a choice kept after all: "Don't count C out", "don't pick C just because it looks familiar"
_TAKEN_AFTER_ALL = re.compile(r"[)\]]?\s*(?:out|off|lightly|blindly|for\s+granted|(?:just\s+|simply\s+|only\s+)?because|just|simply|on\s+faith)\b",
                              re.IGNORECASE)


def withdrawn_in_clause(text: str, at: int) -> bool:
    """Is ``text[at]`` (the last mention of an option letter, which :func:`.commitment.later_disowns` reads only after) the object
    of a word of withdrawal right before it in its clause ("Edit: withdrawn, A contradicts ...", "Scratch A"), or of a
    negated imperative to take it ("Don't count C yet; I'd need to recheck")? A withdrawal that judges something else
    first ("Option A is wrong because ..., so the answer is C") is not, nor advice that keeps it ("don't count C out")."""
    clause = clause_before(text, at, WINDOW, _CLAUSE_END_LETTERS)
    attached = re.search(r"[\s,:;\u2013\u2014-]*\Z", clause)
    if any(word.end() == attached.start() for word in _WITHDRAWING_VERB.finditer(clause)):
        return True
    letter = re.match(r"[(\[]?[A-Za-z]", text[at:])
    return (letter is not None and not _TAKEN_AFTER_ALL.match(text, at + letter.end())
            and any(word.end() == attached.start() for word in _NOT_TO_BE_TAKEN.finditer(clause)))


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_WITHDRAWING_VERB _NOT_TO_BE_TAKEN")

# speed only (issue #35): clause ends searched by skipping to the characters they consume (regex_scan; same results)
from polyreward.verifiers.regex_scan import scan_names  # noqa: E402

scan_names(globals(), "_CLAUSE_END_LETTERS")
