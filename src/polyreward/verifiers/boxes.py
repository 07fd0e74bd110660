"""Boxed answers: every ``\\boxed{...}`` / ``\\fbox{...}`` / ``\\framebox{...}`` / ``\\boxed 5`` of a text with its
braces matched (nested braces, escaped ``\\{``), a box left open, and the last box with the boxes that join it.

Used by the math reader (:mod:`.answer_extraction`) and the choice reader (:mod:`.choice`).
"""

from __future__ import annotations

from polyreward.verifiers.closing_remarks import RESTATING
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.reading import MAX_TAIL_CHARS
from polyreward.verifiers.same_answer import same_value


def _brace_pairs(text: str) -> dict[int, int]:
    """Index of each ``{`` -> index of its matching ``}`` (unbalanced ones left out); skips ``\\{`` ``\\}``.

    One pass with a stack, so a completion of thousands of unclosed ``\\boxed{`` costs linear time (scanning
    for the closing brace from every box would be quadratic)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for brace in _BRACE_OR_ESCAPE.finditer(text):  # (speed: jumps from brace to brace; an escape skips its character)
        char = brace.group()
        if char == "{":
            stack.append(brace.start())
        elif char == "}" and stack:
            pairs[stack.pop()] = brace.start()
    return pairs


# (speed: opens with the set of its first characters, so re skips to them in C; matches as r"\\.|[{}]" with DOTALL does)
_BRACE_OR_ESCAPE = re.compile(r"[\\{}](?:(?<=\\)[\s\S]|(?<=[{}]))")


_BOX = re.compile(r"\\(?:boxed|fbox|framebox)\s*(\{|[^\s{])")
_BOX_TOKEN = re.compile(r"[^\s$]{1,100}")  # (bounded: "\\boxed}" repeated without a space would make each token the rest of the text)


def find_boxes(text: str) -> list[tuple[int, int, str]]:
    """Every ``\\boxed``/``\\fbox`` as (start, end, content), in order; unclosed boxes are skipped."""
    return list(_boxes(text))


@memoized_text(max_chars=2 * MAX_TAIL_CHARS, maxsize=64)  # one text is searched for boxes up to three times in a row
def _boxes(text: str) -> tuple[tuple[int, int, str], ...]:
    boxes = []
    pairs: dict[int, int] | None = None
    for match in _BOX.finditer(text):
        if match.group(1) == "{":
            pairs = _brace_pairs(text) if pairs is None else pairs
            open_at = match.start(1)
            close_at = pairs.get(open_at, -1)
            if close_at < 0:
                continue
            boxes.append((match.start(), close_at + 1, text[open_at + 1:close_at]))
        else:  # "\boxed 5": one token; "\boxed$" has none and is no box
            token = _BOX_TOKEN.match(text, match.start(1))
            if token is not None:
                boxes.append((match.start(), token.end(), token.group()))
    return tuple(boxes)


_BOX_OPEN = re.compile(r"\\(?:boxed|fbox|framebox)\s*\{")


def unclosed_box_after(text: str, boxes: list[tuple[int, int, str]]) -> int:
    """Where the ``\\boxed{`` that never closes after the last complete box ends (a final answer cut off); 0 if none."""
    opened = _BOX_OPEN.search(text, boxes[-1][1] if boxes else 0)
    return opened.end() if opened is not None else 0


# boxes next to each other form one list answer when the gap between them joins ("and", ",", "\\quad",
# "\\text{ for part (a) and }") and does not revise ("..., but re-checking gives ...", "so", "is")
MAX_BOX_GAP = 40
_BOX_GAP_JOINS = re.compile(r"\band\b|\bor\b|[,;&]|\\q?quad", re.IGNORECASE)
_BOX_GAP_REVISES = re.compile(
    r"\b(?:but|not|no|wait|actually|however|instead|so|then|thus|hence|therefore|is|are|was|gives?|gets?|got|"
    r"re-?check\w*|check\w*|correct\w*|mistake|wrong|again|final)\b|\n\s*\n",
    re.IGNORECASE,
)


def last_boxed(text: str) -> str | None:
    """The last box's content; boxes next to it that join (see above) are joined to it as ``"a, b"``."""
    boxes = find_boxes(text)
    if not boxes:
        return None
    chosen = [boxes[-1]]
    for box in reversed(boxes[:-1]):
        gap = text[box[1]:chosen[0][0]]
        joins = not gap.strip(" \t\n$") or (
            len(gap) <= MAX_BOX_GAP and _BOX_GAP_JOINS.search(gap) and not _BOX_GAP_REVISES.search(gap)
        )
        if not joins or box[2].strip() == chosen[0][2].strip() or restated_box(gap, box[2], chosen[0][2]):
            break
        chosen.insert(0, box)
    return ", ".join(b[2].strip() for b in chosen)


# the gap of a box restated in another form: a word of restatement alone, or "or" ("\\boxed{\\frac{3}{8}}, i.e.
# \\boxed{0.375}", ", that is, ", " (or, as a decimal, ", ", or equivalently ", " or ")
_RESTATING_WORD = r"(?:" + RESTATING + r"|(?i:equivalently|in\s+other\s+words))[\s,;:($]*"
_RESTATING_GAP = re.compile(r"\A[\s,;:($]*(?:(?i:or)[\s,]+(?:" + _RESTATING_WORD + r")?|" + _RESTATING_WORD + r")\Z")


def restated_box(gap: str, earlier: str, later: str) -> bool:
    """Is the box after ``gap`` the box before it restated in another form, one answer written twice rather than a
    list (holdout104)? The gap is a word of restatement alone or "or", and both hold the same value:
    ``\\boxed{\\frac{3}{8}}, i.e. \\boxed{0.375}`` is the answer 3/8 (the last box is read), while ``\\boxed{\\frac{3}{8}},
    i.e. \\boxed{0.5}`` and ``\\boxed{\\frac{3}{8}} or \\boxed{0.5}`` stay two values."""
    return len(gap) <= MAX_BOX_GAP and _RESTATING_GAP.match(gap) is not None and same_value(earlier.strip(), later.strip())


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_BOX_GAP_REVISES")
