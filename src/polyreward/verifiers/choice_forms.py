"""Forms a multiple-choice answer takes besides a sentence (red team holdout21, holdout25): a ballot of option lines
with check boxes, an answer line that opens a line ("Answer: A"), and a letter in a tag of its own
("<letter>D</letter>"). :mod:`.choice` reads them; reconstructed rules (ours), each one bounded pattern.
"""

from __future__ import annotations

from polyreward.verifiers.commitment import retraction_after
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.withdrawal_words import WITHDRAWAL

# "A, B, C, D", "B or C", "(A) (B)", "A/C": a hedge over several options is no answer (else listing every letter would
# score like a committed guess, and a policy learns to hedge); :mod:`.choice` reports it with this reason
SEVERAL = "several options"


# a ballot: the options as lines with a check box each ("[x] (A) Barometer", "[ ] (B) Hygrometer", "☑ C. ..."; holdout21)
_BALLOT_LINE = re.compile(r"^[ \t]*(?:[-*][ \t]+)?(?:\[(?P<mark>[ xX✓✔])\]|(?P<box>[☐☑☒✅]))[ \t]*\(?(?P<letter>[A-Za-z])\)?[.):]?(?:[ \t]|$)",
                          re.MULTILINE)


def ticked_on_ballot(text: str, letters: str) -> str | None:
    """The one letter ticked on a ballot of two or more option lines, :data:`SEVERAL` when more are ticked, "" when
    none is, None when the text holds no ballot."""
    lines = [line for line in _BALLOT_LINE.finditer(text) if line.group("letter").upper() in letters]
    if len(lines) < 2:
        return None
    ticked = {line.group("letter").upper() for line in lines if (line.group("mark") or "").strip() or line.group("box") in ("☑", "☒", "✅")}
    if len(ticked) > 1:
        return SEVERAL
    return ticked.pop() if ticked else ""


# an answer line that opens a line with a letter ("Answer: A", "**Final answer:** (C)") and a tag that holds one
# ("<letter>D</letter>", "<choice>D</choice>")
_ANSWER_LINE_LETTER = re.compile(r"^[ \t]*(?:\*\*)?[ \t]*(?:final[ \t]+)?answer[ \t]*(?:\*\*)?[ \t]*[:：][ \t]*(?:\*\*)?[ \t]*\(?([A-Za-z])\b",
                                 re.IGNORECASE | re.MULTILINE)
LETTER_TAG = re.compile(r"<(letter|choice|option|final|final_answer|selected)>\s*\(?([A-Za-z])\)?\s*</\1>", re.IGNORECASE)


def labelled_otherwise(view: str, at: int, letter: str, letters: str) -> bool:
    """Does an answer line before ``at`` give another letter, with nothing between taking it back ("Answer: A" then
    "Explanation: The answer is D.")?"""
    for line in _ANSWER_LINE_LETTER.finditer(view, 0, at):
        other = line.group(1).upper()
        if other != letter and other in letters and retraction_after(view[:at], line.end()) is None and (
                WITHDRAWAL.search(view, line.end(), at) is None):
            return True  # ("Answer: A\n[Ctrl+Z]\nAnswer: D" undoes A)
    return False
