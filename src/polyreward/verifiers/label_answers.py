"""A yes / no / maybe label in a completion (PubMedQA-style questions), read as a letter is read.

:func:`extract_label` finds the label a completion commits to: on the normalised visible text (code and quotes only
when the visible text names no label), in the deciding place -- an answer block, the last box, an answer phrase, a
bare final label -- and takes it away when a later clause contradicts, withdraws or denies it, when several different
labels share the deciding place (``\\boxed{no/yes/maybe}``, "no or yes": a hedge), or when the answer is cut off.
The commitment rules are :mod:`.commitment`'s, shared with the letter reader (:mod:`.choice`).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.boxes import find_boxes, last_boxed, unclosed_box_after
from polyreward.verifiers.choice_forms import SEVERAL
from polyreward.verifiers.commitment import hedged, later_disowns, negated, qualified, qualified_after, retraction_after
from polyreward.verifiers.option_letters import label_pattern
from polyreward.verifiers.reading import MAX_TAIL_CHARS, answer_views
from polyreward.verifiers.tags import strip_thinking, tag_blocks, unclosed_block

LABELS = ("yes", "no", "maybe")
LONG_WORD = re.compile(r"\b[A-Za-z]{3,}\b")  # four of them make a sentence, not a bare "C" or "(C) Text"
_WHITESPACE_RUN = re.compile(r"\s+")


def squeeze_whitespace(text: str) -> str:
    """Every whitespace run as one character: a newline if the run holds one, else a space."""
    return _WHITESPACE_RUN.sub(lambda m: "\n" if "\n" in m.group() else " ", text)


def extract_label(text: str, labels: tuple[str, ...] = LABELS) -> tuple[str | None, str]:
    """A yes/no/maybe-style label in a completion (PubMedQA) and how it was found. Several different labels in the
    deciding place (``\\boxed{no/yes/maybe}``, "no or yes") are a hedge (``(None, SEVERAL)``); a negated one
    ("The answer is not yes") is no answer. Read like a letter (:func:`extract_letter`): on the normalised visible
    text, code and quotes only when it names no label; a label that a later clause contradicts, withdraws or
    denies, a different box before the answer block, or an answer cut off is no answer."""
    views = answer_views(text)
    readings = [_committed_label_in_view(view, labels) for view in views]
    if len(readings) > 1 and readings[0][0] is not None and readings[-1][0] != readings[0][0]:
        return None, ""  # a fenced or quoted other label, or a retraction there
    if readings[0] == (None, "") and not label_pattern(labels).search(strip_thinking(views[0])):
        return readings[-1]
    return readings[0]


def _committed_label_in_view(view: str, labels: tuple[str, ...]) -> tuple[str | None, str]:
    """The label of one view, unless the view's structure or a later clause takes it away."""
    view = squeeze_whitespace(strip_thinking(view)[-MAX_TAIL_CHARS:])
    inner = unclosed_block(view, "answer", ignore_case=True)
    if inner is not None and not find_boxes(inner) and len(LONG_WORD.findall(inner)) >= 4:
        return None, ""  # "<answer>Checked ... So far the running value is no": the answer block was cut off
    blocks = list(tag_blocks(view, "answer", ignore_case=True))
    offset, body = 0, view
    if blocks:
        block_start, block_end, body = blocks[-1]
        offset = view.index(body, block_start) if body else block_start
    found, how, at = _label_in_text(body, labels)
    if found is None:
        return None, how
    if blocks:
        if qualified_after(view, blocks[-1][1]):
            return None, ""  # "<answer>yes</answer> (just a guess)"
        retraction = retraction_after(view, blocks[-1][1])
        if retraction is not None and retraction[1]:
            return None, ""  # "<answer>yes</answer> Oops -- that is wrong; no instead."
        before = view[:blocks[-1][0]]
        earlier = {m.group(1).lower() for box in find_boxes(before) for m in label_pattern(labels).finditer(box[2])} - {found}
        if earlier and retraction_after(before, 0) is None:
            return None, ""  # "\\boxed{no} <answer>yes</answer>": two final answers, nothing withdrawn
        if {m.group(1).lower() for box in find_boxes(view[blocks[-1][1]:]) for m in label_pattern(labels).finditer(box[2])} - {found}:
            return None, ""  # "<answer>yes</answer> \\boxed{no} ...": a different final box after the block
    if later_disowns(view, offset + at, found, labels=labels):
        return None, ""
    return found, how


def _label_in_text(text: str, labels: tuple[str, ...]) -> tuple[str | None, str, int]:
    """(label, how, where the label ends in ``text``) at the deciding place of ``text``."""
    label_word = label_pattern(labels)
    alternatives = "|".join(re.escape(label) for label in labels)
    boxes = find_boxes(text)
    if unclosed_box_after(text, boxes):
        return None, "", 0  # the final box was cut off: "\\boxed{no"
    if boxes:
        found = {m.lower() for m in label_word.findall(last_boxed(text) or "")}  # adjacent boxes join: a hedge
        if len(found) > 1:
            return None, SEVERAL, 0
        if found:
            return _committed_label(text, boxes[-1][0], boxes[-1][1], found.pop(), "boxed", labels)
    anchor = re.compile(rf"\b(?:final\s+answer|answer|conclusion|verdict)[\s*:]*(?:is\b[\s*:]*)?\(?({alternatives})\b", re.IGNORECASE)
    hits = list(anchor.finditer(text))
    if hits:
        return _committed_label(text, hits[-1].start(1), hits[-1].end(1), hits[-1].group(1).lower(), "anchor", labels)
    first = re.match(rf"\W*({alternatives})\b", text, re.IGNORECASE)
    if first:
        return _committed_label(text, first.start(1), first.end(1), first.group(1).lower(), "first_word", labels)
    lines = [(m.start(), m.group()) for m in re.finditer(r"[^\n]+", text) if m.group().strip()]
    if lines:
        start, line = lines[-1]
        hits = list(label_word.finditer(line))
        found = {m.group(1).lower() for m in hits}
        if len(found) == 1:
            return _committed_label(text, start + hits[-1].start(1), start + hits[-1].end(1), found.pop(), "last_line", labels)
    return None, "", 0


def _committed_label(text: str, start: int, end: int, label: str, how: str, labels: tuple[str, ...]) -> tuple[str | None, str, int]:
    """``label`` unless the text denies, hedges or takes it back; taken back explicitly ("yes... wait, no, no"),
    the label stated after the retraction counts (none: no answer)."""
    if negated(text, start, end):
        return None, "", 0
    if hedged(text, start, end):
        return None, SEVERAL, 0
    if qualified(text, start, end):
        return None, "", 0  # "The answer might be yes.", "yes (just a guess)"
    retraction = retraction_after(text, end)
    if retraction is not None and retraction[1]:
        found, how, at = _label_in_text(text[retraction[0]:], labels)
        return found, how, retraction[0] + at
    return label, how, end
