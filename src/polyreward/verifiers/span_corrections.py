"""A correction inside one answer span (holdout93: ``<answer>16, no: 15</answer>``, ``<answer>(C), no: (E)</answer>``):
the writer names a value, takes it back with a correcting word and states another, all inside the block or on the
line that holds its answer. The span commits to the value after the correction, as the same words do after an answer
(:func:`.commitment.retraction_after`): ``<answer>16, no: 15</answer>`` answers 15 and is refused for 16, and
``<answer>(E), no: (C)</answer>`` answers C. Read by ``answer_extraction`` on a math answer block and on the span a
math answer was read from, by ``choice._letter_in_view`` on an answer block's text, and by ``choice._committed_letter``
on the line of the last answer phrase (:func:`corrected_answer_line`: ``Answer: (C), no: (E)``).

Only one shape is read: the whole span is a short first value, a correcting word (the interjection "no" with a colon
or comma after it, in the languages :mod:`.commitment` reads it in, or an explicit word of correction: "correction:",
"scratch that", "I mean", "make that", "actually", :data:`.withdrawal_words.CORRECTION_WORDS`), then a second value
that closes the span. What the second value says is read as any answer is (``16, no: 15?`` asks, ``16, no: 15 or
17`` offers two), and a span whose second part states no value (``(C), no, I'd rather not say``) is left as it was.
Reconstructed rule (ours), one bounded pattern on the normalised span."""

from __future__ import annotations

from collections.abc import Callable

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.withdrawal_words import CORRECTION_WORDS, NO_INTERJECTIONS

# the words that open a correction inside the span: "no:" / "no," (and the "no" of the languages commitment reads),
# or an explicit correction (English, then the other languages' own words of correction)
_CORRECTING = (r"(?:(?<![\w'])" + NO_INTERJECTIONS + r"[^\S\n]*[:,]|\b(?:correction|corrected|scratch\s+that|i\s+mean|make\s+that|"
               r"actually|wait|sorry|oops)\b[^\S\n]*:?|" + CORRECTION_WORDS + r"[^\S\n]*:?)")
# a short first value, what may join it to the correction (a comma, a dash, an arrow), the correction, the second value
_CORRECTED_SPAN = re.compile(
    r"\A[^\S\n]*(?P<first>[^\n]{1,40}?)[^\S\n]*(?:[,;.]|[-–—]{1,2}|→|\\(?:to|rightarrow|quad|qquad)(?![A-Za-z]))*[^\S\n]*"
    r"(?:\\text\s*\{[^\S\n]*)?(?:(?:sorry|oops|no)[^\S\n]*,?[^\S\n]*(?=i\s+mean|make\s+that))?" + _CORRECTING + r"[^\S\n]*\}?[^\S\n]*(?:[,:;]|[-–—]{1,2}(?=\s)|→)?[^\S\n]*(?P<second>[^\n]{1,60}?)[^\S\n.!]*\Z",
    re.IGNORECASE)
# a value the second part states: a digit, a math or markup opening before a word, or a lone capital letter
_STATES_VALUE = re.compile(r"\d|\\[A-Za-z]|\A[\s*$(\[]*[A-Z](?![\w'’])|\A[\s*$(\[]*[a-z][^\S\n]*=")
# a part that is more than one value: a sentence break, two words in a row ("The answer is 16"), or a correcting word
_CLAUSE = re.compile(r"[.!?;]\s+\w|(?<![\\\w])[^\W\d_]{2,}[^\S\n]+[^\W\d_]{2,}|" + _CORRECTING, re.IGNORECASE)


def corrected_value(span: str) -> str | None:
    """The value an answer span corrects itself to (``"16, no: 15"`` -> ``"15"``), or None when the span is not one
    value, a correcting word and one value (module docstring)."""
    if len(span) > 120 or "\n" in span.strip():
        return None
    found = _CORRECTED_SPAN.match(span)
    if found is None:
        return None
    first, second = found.group("first").strip(" ,;*"), found.group("second").strip()
    if not first or _CLAUSE.search(first) or not _STATES_VALUE.search(second) or re.search(r"[.!?;]\s+\w", second):
        return None
    return second


def corrected_answer_line(text: str, anchor: str) -> str:
    """``text`` with the span after its last answer phrase (``anchor``, a reader's answer-phrase pattern) read as the
    value it corrects itself to, up to the end of its line ("Answer: (C), no: (E)" -> "Answer: (E)"); ``text`` itself
    when that span is no correction (:func:`corrected_value`)."""
    last = None
    for last in re.compile(anchor).finditer(text):
        pass
    if last is None:
        return text
    line_end = text.find("\n", last.end())
    line_end = len(text) if line_end < 0 else line_end
    value = corrected_value(text[last.end():line_end])
    return text if value is None else f"{text[:last.end()]} {value}{text[line_end:]}"


# a box and, right after it, a correcting word (red team holdout_r59: "\\boxed{A} scratch that -- thiamine first.
# \\boxed{D}", "\\boxed{B}, sorry, \\boxed{C}")
_BOX_THEN_CORRECTION = re.compile(r"\\boxed\{([^{}\n]{1,40})\}(?=[^\S\n]*(?:[,;.]|[-–—]{1,2})?[^\S\n]*" + _CORRECTING + ")", re.IGNORECASE)


def corrected_boxes(text: str) -> str:
    """``text`` with each box that a correcting word follows at once written as its bare content, when a later box
    follows it (the box the correction states); ``text`` itself otherwise. ``\\boxed{A} scratch that -- thiamine
    first. \\boxed{D}`` gives one box, D; ``\\boxed{C}. Correction: the answer is A.`` keeps its box (no later box:
    the readers of retraction read what the correction says)."""
    last_box = text.rfind("\\boxed")
    return _BOX_THEN_CORRECTION.sub(lambda m: m.group(1) if m.end() < last_box else m.group(), text)


# (red team holdout_r59) a spoken self-repair inside a one-value span, after a lead-in: "Tomorrow's mean 31, scratch
# that, 88.4", "Tomorrow's mean, twenty-eight -- sorry, forty-two point three." -- the lead-in, a first value (digits,
# or number words joined by hyphens and "point"), a correcting word, the second value closing the span
_SPELLED = r"[a-z]+(?:-[a-z]+)?(?:[^\S\n]+(?:point|hundred|and)[^\S\n]+[a-z]+(?:-[a-z]+)?)*"
_REPAIRED_SPAN = re.compile(
    r"\A(?P<lead>[^\n\d]{0,40}?)(?P<first>[-+]?\d+(?:[.,]\d+)*|" + _SPELLED + r")[^\S\n]*(?:[,;]|[-–—]{1,2})?[^\S\n]*"
    + _CORRECTING + r"[^\S\n]*(?:[,:;]|[-–—]{1,2})?[^\S\n]*(?P<second>[^\n]{1,60}?)[^\S\n]*\Z", re.IGNORECASE)


def repaired_span(span: str, is_value: Callable[[str], bool]) -> str:
    """``span`` with a self-repair read (:data:`_REPAIRED_SPAN`): the first value and the correcting word blanked
    (spaces, so positions in the span stay), leaving the lead-in and the value after the correction, when both values
    are one value each (``is_value``, the reader's own test): ``Tomorrow's mean 31, scratch that, 88.4`` reads
    ``Tomorrow's mean 88.4``; ``42.3 -- sorry, that's today's -- tomorrow is 28`` (no value after the correction) is
    left as it was, as is any other span."""
    if len(span) > 160 or "\n" in span.strip():
        return span
    found = _REPAIRED_SPAN.match(span)
    if found is None or not (is_value(found.group("first")) and is_value(found.group("second"))):
        return span
    return span[:found.start("first")] + " " * (found.start("second") - found.start("first")) + span[found.start("second"):]


# (red team holdout_r59) one item of a list repaired in speech: "pneumothorax -- scratch that -- cardiomegaly",
# "atelectasis -- sorry, consolidation": a short item, a dash, a word of repair, the item said instead ("effusion --
# actually small" qualifies its item: "actually" and "wait" are no repair of a label)
_REPAIR_WORD = r"(?i:sorry|scratch[^\S\n]+that|correction|I[^\S\n]+mean|make[^\S\n]+that)\b"
_REPAIRED_ITEM = re.compile(
    r"\A[^\S\n]*(?P<first>[^\n,;:]{1,40}?)[^\S\n]*[-–—]{1,2}[^\S\n]*" + _REPAIR_WORD
    + r"[^\S\n]*(?:[,:;]|[-–—]{1,2})?[^\S\n]*(?P<second>[^\n,;:]{1,40}?)[^\S\n.]*\Z")


def repaired_item(item: str) -> str:
    """The item a list's item repairs itself to (:data:`_REPAIRED_ITEM`): ``pneumothorax -- scratch that --
    cardiomegaly`` is ``cardiomegaly``, ``atelectasis -- sorry, consolidation`` is ``consolidation``; ``item`` itself
    when it is no such repair (``pleural effusion -- actually small``, or a second part that repairs again)."""
    found = _REPAIRED_ITEM.match(item) if len(item) <= 120 else None
    if found is None or re.search(_REPAIR_WORD, found.group("second")):
        return item
    return found.group("second").strip()
# a line's first sentence, after an opening tag and a speaker's label if any ("<answer>", "Student: ", "[00:03:12]
# Tutor: "), up to its stop and the space after it (or the line's end); the tag and the label stay
_FIRST_SENTENCE = re.compile(r"(?m)^(?P<label>[^\S\n]*(?:<[A-Za-z][\w-]{0,20}>[^\S\n]*)?(?:\[[\d:.]{4,12}\][^\S\n]*)?(?:[A-Za-z][\w .'-]{0,30}:[^\S\n]+)?)"
                             r"(?P<sentence>[^\n]*?)(?=[.!][^\S\n]+\S|[^\S\n]*$)")


def corrected_line_openings(text: str) -> str:
    """``text`` with each line whose first sentence is a correction span (:func:`corrected_value`) read as the value it
    corrects itself to: a spoken self-repair that opens its line, "A -- I mean B." -> "B.", "A -- sorry, I mean B, the
    cell. B." -> "B, the cell. B.", "Student: A -- I mean B." -> "Student: B." (holdout125); a line whose first sentence is no such span stays as written.
    Read on the lines of the last :data:`REPAIRED_TAIL_CHARS` characters, where the answer is (speed: linear)."""
    start = 0 if len(text) <= REPAIRED_TAIL_CHARS else text.find("\n", len(text) - REPAIRED_TAIL_CHARS) + 1 or len(text)
    head, text = text[:start], text[start:]
    if not _CORRECTING_WORD.search(text):
        return head + text

    def repaired(line: re.Match) -> str:
        value = corrected_value(line.group("sentence"))
        return line.group() if value is None else line.group("label") + value

    return head + _FIRST_SENTENCE.sub(repaired, text)


REPAIRED_TAIL_CHARS = 2_000


_CORRECTING_WORD = re.compile(_CORRECTING, re.IGNORECASE)
