"""A completion written as a dialogue whose speakers disagree and whose last turn gives no verdict (red team
holdout90, #32).

    Student A: The LCM is 18.
    Student B: No, it's 24.
    Teacher: Let's leave that one for homework.

Each value there is a speaker's claim; the writer, who only reports them, answers nothing unless the dialogue settles
it. Read structurally: every non-blank line opens with a speaker's label (one to three capitalised words and a colon:
``Student A:``, ``Teacher:``, ``Alice:``, ``Q:`` is none), two or more speakers -- one speaking twice, or a turn that answers another (``No, ...``, ``I get
40``): headings of a report (``Findings:``, ``Impression:``, ``Plan:``) answer no one --, none of them the writer
(``ME:``, ``Assistant:``: its turn is its answer), two turns that state different values
(a number, a box, an option letter standing alone), and a last turn that states no value and does not affirm one
(``Teacher: Right, it's 24.``, ``Teacher: Yes.`` do; one that names a speaker, ``Teacher: Student A is right.``, settles
on that speaker's value, and is unsettled for the reader when another speaker stated a value after it). A label that heads the writer's own work (``Answer:``,
``Step 1:``, ``Solution:``, ``Check:``, ``Note:``) or an agent's step (``Action:``, ``Observation:``: :mod:`.agent_steps`)
makes no dialogue. Reconstructed rule (ours); bounded: the last 40
lines.
"""

from __future__ import annotations

from polyreward.verifiers.agent_steps import AGENT_STEP
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a transcript's time mark opening a line before its words ("[00:03:12] Student: ...", "(12:03) um, so ..."): when it
# was said, no value of the answer (holdout125); one mark alone is one only before a speaker's label ("[12:30] is when
# the train leaves" states a time)
TIME_MARK = re.compile(r"(?m)^[ \t]*[\[(]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?[\])][ \t]*(?=[A-Za-z])")
_BEFORE_LABEL = re.compile(r"[A-Z][\w.'-]{0,20}(?:[ \t][A-Z0-9][\w.'-]{0,20}){0,2}[ \t]*:")


def without_time_marks(text: str) -> str:
    """``text`` without the time marks that open its lines (:data:`TIME_MARK`), when two lines or more open with one or
    a speaker's label follows: ``"[00:02:10] Student: so x equals four.\n[00:02:18] Examiner: Good."`` ->
    ``"Student: so x equals four.\nExaminer: Good."``; ``"[12:30] is when the train leaves"`` stays."""
    if ":" not in text:
        return text
    marks = list(TIME_MARK.finditer(text))
    if len(marks) >= 2 or marks and _BEFORE_LABEL.match(text, marks[0].end()):
        return TIME_MARK.sub("", text)
    return text


TURN = re.compile(r"[ \t]*(?:[-*>][ \t]*)?\**(?P<who>[A-Z][\w.'-]{0,20}(?:[ \t][A-Z0-9][\w.'-]{0,20}){0,2})\**[ \t]*:\**[ \t]*(?P<says>\S.*)")
# labels of the writer's own work, not speakers
NOT_A_SPEAKER = re.compile(r"(?:final\s+)?(?:answer|solution|step|steps|check|note|notes|result|results|total|work|working|proof|hint|"
                           r"given|find|explanation|reasoning|rationale|summary|conclusion|verification|q|a|question|problem|part|case|"
                           r"option|options|example|method|approach|formula|therefore|so|thus|hence|lcm|gcd|sum|product|"
                           # (red team holdout_r60) a record's fields: "Severity: SEV2.", "Status: executed", "Plan: ..."
                           r"status|severity|priority|impact|decision|plan|assessment|impression|findings|technique|"
                           r"comparison|indication|action|actions|outcome|owner|date|time|ticket|incident|request)(?:\s+\S+)?",
                           re.IGNORECASE)
_VALUE = re.compile(r"\\boxed\{[^{}\n]{0,40}\}|-?\d+(?:[.,]\d+)*(?:\s*/\s*\d+)?|(?<![\w'])[A-E](?![\w'])")
# the writer as a speaker ("ME:", "Assistant:"): its turns are the writer's own answer
WRITER_SPEAKS = re.compile(r"me|i|myself|assistant|ai|model|bot|answer(?:er)?", re.IGNORECASE)
# a turn that answers another: a reply word or a person speaking ("No, it's 24.", "I get 40.", "You're wrong.")
_REPLY = re.compile(r"\A\W*(?:no|yes|yeah|nope|well|but|actually|hmm+|wait|right|wrong)\b|\b(?:I|I'm|I'd|I've|me|my|we|we're|you|you're|your)\b",
                    re.IGNORECASE)
_AFFIRMS = re.compile(r"\b(?:right|correct|exactly|yes|yep|agreed|indeed|that's\s+it|well\s+done|good\s+job|wins?)\b", re.IGNORECASE)


def unsettled_dialogue(text: str) -> bool:
    """Is ``text`` a dialogue whose speakers state different values and whose last turn settles none (module
    docstring)?"""
    if text.count(":") < 2:
        return False
    lines = [line for line in text.strip().splitlines()[-40:] if line.strip()]
    turns = [TURN.fullmatch(line) for line in lines]
    if len(turns) < 3 or any(turn is None or NOT_A_SPEAKER.fullmatch(turn.group("who")) for turn in turns):
        return False
    if any(AGENT_STEP.match(line) for line in lines):
        return False  # "Action: calculator[23*19]" / "Observation: 437": an agent's steps (agent_steps.py), not speakers
    speakers = [turn.group("who").lower() for turn in turns]
    if len(set(speakers)) < 2 or WRITER_SPEAKS.fullmatch(" ".join(set(speakers))) or any(WRITER_SPEAKS.fullmatch(who) for who in speakers):
        return False  # ("ME: ... Final answer."): the writer's own turn is its answer
    if len(set(speakers)) == len(speakers) and not any(_REPLY.search(turn.group("says")) for turn in turns[1:]):
        return False  # "Findings: ... / Impression: ... / Plan: ...": headings of a report, no one answering anyone
    names = re.compile("|".join(r"(?<!\w)" + re.escape(who) + r"(?!\w)" for who in {turn.group("who") for turn in turns}), re.IGNORECASE)
    said = [(turn.group("who").lower(), tuple(v.group() for v in _VALUE.finditer(names.sub(" ", turn.group("says"))))) for turn in turns[:-1]]
    stated = {values for _, values in said} - {()}
    last = turns[-1].group("says")
    if len(stated) < 2 or _VALUE.search(names.sub(" ", last)):  # ("Student A is right": a speaker's name is no value)
        return False
    if not _AFFIRMS.search(last):
        return True
    # the verdict names a speaker: settled on that speaker's value, which the reader reads only if it was stated last
    named = [who for who, _ in said if re.search(r"(?<!\w)" + re.escape(who) + r"(?!\w)", last, re.IGNORECASE)]
    final = next(values for _, values in reversed(said) if values)
    return bool(named) and next((values for who, values in reversed(said) if who == named[-1] and values), final) != final
