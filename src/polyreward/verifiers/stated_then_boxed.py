"""A committed answer line followed by a box that states another value (red team holdout58): "**Answer: 13.93 cm**
(rounded to two decimals).\\n\\nSanity check on the 2D piece: $\\sqrt{12^2+5^2} = \\boxed{13}$". The box is read last
but the writer's final statement came first; a box after it that disagrees, with nothing taken back between them, is a
second answer, and two final answers leave none (as "\\boxed{68} <answer>6</answer>" does for an answer tag).
:mod:`.answer_extraction` reads it; a reconstructed rule (ours), one bounded pattern on the normalised text.
"""

from __future__ import annotations

from collections.abc import Callable

from polyreward.verifiers.boxes import find_boxes
from polyreward.verifiers.commitment import retraction_after
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.same_answer import same_value

# an answer label opening its line, bold or a heading allowed: "**Answer: 13.93 cm**", "Final answer: 12", "### Answer:"
_ANSWER_LINE = re.compile(r"(?im)^[^\S\n]*(?:[#>]+[^\S\n]*)?(?:\*\*|__)?[^\S\n]*(?:final[^\S\n]+)?answer[^\S\n]*(?:\*\*|__)?[^\S\n]*[:=][^\S\n]*(?:\*\*|__)?")
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")  # "13.93 cm" is a value with its unit; "the sides are 12 and 5" is prose


def _holds(whole: str, part: str) -> bool:
    """Does ``whole`` hold ``part`` (spaces, ``$`` and ``*`` aside), not as a piece of a longer number ("13" is no piece
    of "13.93")?"""
    whole, part = (re.sub(r"[\s$*]", "", side) for side in (whole, part))
    return bool(part) and re.search(r"(?<![\d.])" + re.escape(part) + r"(?![\d]|\.\d)", whole) is not None


def box_after_stated_answer(text: str, box_start: int, boxed: str, read: Callable[[str], str]) -> bool:
    """Does the answer line last before the box at ``box_start`` state a value other than ``boxed`` (``read`` reads
    the value after the label), with no box of its own and nothing taken back between the line and the box? The
    stated value must be a value (digits, at most a unit: no prose word); a box that restates it in another notation
    ("Answer: 1/2" then "\\boxed{0.5}") or holds it ("Answer: 13" then "\\boxed{13\\text{ cm}}") agrees with it."""
    lines = list(_ANSWER_LINE.finditer(text, 0, box_start))
    if not lines:
        return False
    after = lines[-1].end()
    if find_boxes(text[after:box_start]) or retraction_after(text[:box_start], after) is not None:
        return False  # "Answer: \\boxed{12}" is box against box; "Answer: 12. Wait, I slipped ... \\boxed{13}" corrects it
    stated = read(text[after:box_start]).strip(" .*$")
    if not re.search(r"\d", stated) or _PROSE_WORD.search(stated) or not re.search(r"\d", boxed):
        return False
    return not (same_value(stated, boxed) or _holds(boxed, stated) or _holds(stated, boxed))
