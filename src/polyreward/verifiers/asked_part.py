"""The part a prompt asks, in a completion that answers every part (red team ``holdout86``).

A prompt with labelled parts that asks for one of them ("(a) How much do 4 pens cost? (b) How many pens can you buy
with $27? Answer part (b).", "Question 1: ... Question 2: ... Give the answer to Question 2.") is often answered part
by part, every part on its own labelled line and no separate final line::

    **(a)** 4 × $3 = $12
    **(b)** $27 ÷ $3 = 9 pens

    Question 1: A (neon is a noble gas)
    Question 2: B (potassium is an alkali metal)

The last line is then the answer only when the asked part comes last, and a part's label in bold is no answer at all.
:func:`asked_part` reads such a completion at the part the prompt asks: the text under that part's label, without
the label. It does so only when

* the prompt asks one labelled part (an asking word -- answer, give, report, what, find, solve, only -- then "part
  (b)", "(b)", "question 2" in one sentence, on a line that is no part's own) and lists two labelled parts or more,
* the completion's lines open with two or more distinct labels of the same kind, the asked one once, and
* nothing comes after the labelled lines but follow-ups (:mod:`.follow_ups`) and no answer before them (a box, the
  word "answer", GSM8K's "####"; the working's own numbers are none: holdout119): a completion that concludes on its own ("So the answer to part (b) is 36.", "Answer: A") is read as before, by its
  conclusion, so the gold given under the wrong part, or a final taken from the other part, is still refused.

The asked part's own text goes on to the next label or the end, so a doubt written on its line ("(b) 150 ÷ 60 = 2.5
hours. Hmm, or is it 0.4?") is read with it. Reconstructed rule (ours); one pass over the lines: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.follow_ups import without_follow_ups
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a label: "part (b)", "Question 2", "Q2" (a word, then a letter or a number) or a bare "(b)", "b)" (a small letter)
_LABEL = r"(?:(?i:part|question|problem|item|q)[ \t]*\(?(?P<named>[A-Ha-h]|[1-9]\d?)\)?(?![\w(])|\((?P<paren>[a-h])\)|(?<![\w(])(?P<bare>[a-h])\))"
# the prompt asks one part: an asking word, then the label, in one sentence ("Answer part (b).", "What is x in part (b)?")
_ASKS = re.compile(r"\b(?i:answer|give|report|state|write|what|find|solve|only)\b[^.?!\n]{0,50}?(?<![\w(])" + _LABEL)
# a line that opens on a label (after a list mark and markup), with the text after it
# an answer stated before the labelled lines: a box, an answer word, GSM8K's "####" (the working's own numbers, "t = v/g
# = 2 s. h = 20 m.", state none: holdout119)
_ANSWER_STATED = re.compile(r"\\boxed\b|\\fbox\b|^\W*#{4}|\b(?i:answer)\b", re.MULTILINE)
_LABEL_LINE = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?[ \t]*" + _LABEL + r"[ \t]*(?:\*\*|__)?[ \t]*[:.—–-]?[ \t]*(?:\*\*|__)?[ \t]*",
                         re.MULTILINE)
_SPEAKS_OF_THE_ANSWER = re.compile(r"\b(?i:answer)\b")
# a part's label inside a line, in brackets or after its word ("(b)", "Question 2"), never a bare "b)"
_INLINE_LABEL = re.compile(r"(?:(?i:part|question|problem|item|q)[ \t]*\(?(?P<named>[A-Ha-h]|[1-9]\d?)\)?(?![\w(])|(?<![\w(])\((?P<paren>[a-h])\))(?P<bare>(?!))?")
# a completion's line that opens on a part's label, also under an answer label that names it ("Answer to Question 2:
# B", "**Answer (part b):** 840"; holdout119)
_PART_LINE = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?[ \t]*(?:(?i:answer)[ \t]*(?:\(|(?i:to|for)[ \t]+)[ \t]*)?" + _LABEL
                        + r"\)?[ \t]*(?:\*\*|__)?[ \t]*[:.—–-]?[ \t]*(?:\*\*|__)?[ \t]*", re.MULTILINE)


def _label(found: re.Match) -> tuple[bool, str]:
    """A label's kind (a number or a letter: "part (b)" is "(b)") and its number or letter, lowercased."""
    label = (found.group("named") or found.group("paren") or found.group("bare")).lower()
    return (label.isdigit(), label)


def _asked(prompt: str) -> tuple[bool, str] | None:
    """The label of the one part ``prompt`` asks, where it lists two labelled parts or more; else None."""
    listed = list(_LABEL_LINE.finditer(prompt))
    starts = {prompt.rfind("\n", 0, found.start()) for found in listed}
    asks = [found for found in _ASKS.finditer(prompt) if prompt.rfind("\n", 0, found.start()) not in starts]  # not a part's own line
    if not asks or len({_label(found) for found in listed}) < 2:
        return None
    return _label(asks[-1])


def _part_lines(completion: str, kind: bool) -> tuple[str, list[re.Match]]:
    """The completion without its closing follow-ups, and its lines that open on a part's label of ``kind``."""
    body = without_follow_ups(completion).rstrip()
    return body, [found for found in _PART_LINE.finditer(body) if _label(found)[0] == kind]


def _asked_with_parts(prompt: str, completion: str) -> tuple[bool, str] | None:
    """The part ``prompt`` asks (:func:`_asked`), where the pair can hold part labels at all (a bracket, or "Question
    2" / "Part 2" / "Q2" in the completion); else None."""
    if not prompt or not completion or ")" not in prompt + completion and not re.search(r"(?i:question|part|q)\s*\d", completion):
        return None
    return _asked(prompt)


def asked_part(prompt: str, completion: str) -> str | None:
    """The text of ``completion`` under the label of the part ``prompt`` asks, or None where the module's conditions
    do not hold (then the completion is read whole)."""
    asked = _asked_with_parts(prompt, completion)
    if asked is None:
        return None
    body, lines = _part_lines(completion, asked[0])
    labels = [_label(found) for found in lines]
    if len(set(labels)) < 2 or len(set(labels)) != len(labels) or labels.count(asked) != 1:
        return _in_last_line(body, asked)
    if _ANSWER_STATED.search(body, 0, lines[0].start()) or "\n" in body[lines[-1].end():]:
        return None  # an answer before the parts, or a conclusion after the last part's line
    at = labels.index(asked)
    end = lines[at + 1].start() if at + 1 < len(lines) else len(completion)
    return completion[lines[at].end():end]


def _in_last_line(body: str, asked: tuple[bool, str]) -> str | None:
    """The text after the asked part's label in ``body``'s last line, up to the next label, where that line names two
    parts or more in brackets or by a word, each once ("**Answer:** (a) 12, (b) 840", "Answer to Question 2: A. Answer
    to Question 1: B."; holdout119) and no line before it states an answer; else None. A bare "a)" is not read there:
    "(x - a)" is no label."""
    start = body.rfind("\n") + 1
    labels = [found for found in _INLINE_LABEL.finditer(body, start) if _label(found)[0] == asked[0]]
    named = [_label(found) for found in labels]
    if len(set(named)) < 2 or len(set(named)) != len(named) or asked not in named or _ANSWER_STATED.search(body, 0, start):
        return None
    at = named.index(asked)
    return body[labels[at].end():labels[at + 1].start() if at + 1 < len(labels) else len(body)]


def answers_another_part(prompt: str, completion: str) -> bool:
    """Does ``completion`` close on a line labelled with a part ``prompt`` lists but does not ask, having labelled no
    line with the asked part ("Question 1: B" for "Answer Question 2 only", "(a) \\boxed{24\\pi}" for part (b); red
    team ``holdout119``)? Its last word answers another question, and nothing answers the one asked. A last line that
    speaks of the answer ("(a) is not needed; the answer is 840") is left to the other rules."""
    asked = _asked_with_parts(prompt, completion)
    if asked is None:
        return False
    body, lines = _part_lines(completion, asked[0])
    if not lines or any(_label(found) == asked for found in lines) or "\n" in body[lines[-1].end():]:
        return False
    return _SPEAKS_OF_THE_ANSWER.search(body, lines[-1].end()) is None and bool(body[lines[-1].end():].strip())
