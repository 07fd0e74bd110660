"""Whose answer a box is: the speaker's, or another voice's the speaker quotes (red team ``holdout_r42``, "who
commits").

A completion may show an answer in its final form -- a ``\\boxed{}`` letter -- while the clause that holds it gives
the answer to someone else: a turn of a dialogue the policy wrote ("Registrar: \\boxed{A}.\\nConsultant: Not so
fast ..."), a third party's pick ("GPT-4 chose \\boxed{B}. I disagree: ..."), a possessive answer ("The resident's
answer was \\boxed{A}; my own choice is B") or a source's answer in the conditional ("The textbook answer would be
\\boxed{C}. In practice I'd give the antihistamine first"). Such a box is the speaker's answer only when the speaker
then adopts it ("I agree", "Agreed", "that stands", "my answer too"). Read structurally, from the clause before the
box (its subject or its turn's label) and the speaker's clauses after it:

* the box's line opens with a speaker's label (:data:`.dialogues.TURN`) that is not the writer's own voice (``Me:``,
  ``Assistant:``: :data:`.dialogues.WRITER_SPEAKS`) nor a heading of the writer's work (``Answer:``, ``Final
  answer:``, ``Summary:``: :data:`.dialogues.NOT_A_SPEAKER`), and nothing but the label stands before the box;
* or the box's sentence, up to the box, is a subject other than the speaker with a verb of choosing or saying
  ("GPT-4 chose", "the registrar picked", "the key says"), a possessive answer noun that is not the speaker's
  ("the resident's answer was", "Another model's pick is", "Agent 1's pick:"), or a noun-modified answer in the conditional ("the
  textbook answer would be"; not an evaluative adjective: "the correct answer would be" is the speaker's).

Reconstructed rule (ours).
"""

from __future__ import annotations

from polyreward.verifiers.dialogues import NOT_A_SPEAKER, TURN, WRITER_SPEAKS
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.stand_ins import ROLE

# words a subject is when it is the speaker, or no subject at all
_SPEAKER_OR_NONE = re.compile(r"(?:I|I'd|I'll|I've|we|we'd|we'll|you|so|then|thus|hence|therefore|and|but|or|which|that|this|it|"
                              r"my|our|the|a|an|final|correct|answer|option)\Z", re.IGNORECASE)
_CHOOSING = r"(?:chose|chooses|picked|picks|selected|selects|answered|answers|says|said|suggested|suggests|gave|gives|went\s+with|goes\s+with|put|puts|proposed|proposes)"
# a third party's pick: up to four words of subject (not the speaker), a verb of choosing or saying, the box next
_THIRD_PARTY_PICK = re.compile(r"(?:\A|(?<=[\s(]))(?P<subject>[A-Za-z][\w.'’-]*(?:\s+[\w.'’-]+){0,3}?)\s+" + _CHOOSING
                               + r"\s*(?:option\s+|answer\s+|letter\s+)?[:,]?\s*\Z", re.IGNORECASE)
# a possessive answer noun that is not the speaker's: "the resident's answer was", "GPT-4's pick is"; the owner may be
# numbered or lettered as the members of a panel are (red team holdout_r58: "Agent 1's pick:", "Model B's answer is")
_POSSESSED_ANSWER = re.compile(r"\b(?!(?:my|our|I)\b)[A-Za-z][\w.-]*(?:[ \t](?:\d{1,2}|[A-Z]))?['’]s?\s+(?:\w+\s+)?(?:answer|choice|pick|letter|option|key|call|report|list|labels|forecast|reading|read)\s*"
                               r"(?:(?:is|was|would\s+be|will\s+be|reads)\s*:?|:)\s*\Z", re.IGNORECASE)
# a noun-modified answer in the conditional: "the textbook answer would be", "the guideline answer would be"
_SOURCE_CONDITIONAL = re.compile(r"\bthe\s+(?:[A-Za-z][\w-]*\s+){0,2}?(?!(?:correct|right|best|final|most|likely|only|true|real|"
                                 r"proper|expected|intended|obvious|safest|usual|standard)\b)(?P<noun>[A-Za-z][\w-]*)\s+answer\s+"
                                 r"(?:would|should)\s+be\s*\Z", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z_]{1,20}>")
_SENTENCE_START = re.compile(r"(?:[.!?]\s+|\n|<answer>|</think>)(?=[^.!?\n]*\Z)")
# the speaker adopting what another voice said: "I agree", "Agreed.", "that stands", "mine too"; not negated
_ADOPTS = re.compile(r"\b(?:I|we)\s++(?:(?:fully|also|completely|entirely|do|would)\s+)?(?:agree|concur|endorse|adopt|second)\b"
                     r"|(?:\A|[.!?\n:])[ \t]*agreed\b|\b(?:that|it|this)\s+(?:answer\s+)?stands\b|\b(?:my|our)\s+(?:own\s+)?answer\s+too\b",
                     re.IGNORECASE)
_NEGATED_ADOPTION = re.compile(r"\b(?:not|don't|do\s+not|can't|cannot|won't|wouldn't|never)\s++(?:\w+\s+)?(?:agree|concur|endorse|adopt|second)\b",
                               re.IGNORECASE)


def _label(line: str) -> str | None:
    """The speaker's label a turn ``line`` opens with (the writer's own included), or None: no label, or a heading of
    the writer's work (``Answer:``, ``Summary:``)."""
    turn = TURN.fullmatch(line)
    return None if turn is None or NOT_A_SPEAKER.fullmatch(turn.group("who")) else turn.group("who")


def _speaker(line: str) -> str | None:
    """The label of a turn ``line`` opens with, when it is a speaker other than the writer and no heading."""
    who = _label(line)
    return None if who is None or WRITER_SPEAKS.fullmatch(who) else who


def voice_of(before: str, after: str = "") -> str | None:
    """The voice other than the speaker's that the text right before a box gives it to (module docstring), or None
    when the box is the speaker's: ``voice_of("Registrar: ", "\\nConsultant: Not so fast.")`` is ``"Registrar"``,
    ``voice_of("GPT-4 chose ")`` is ``"GPT-4"``, ``voice_of("So the answer is ")`` is None. A label is a speaker's only
    in a dialogue: another line of ``before`` or ``after`` opens with another speaker's label (``Resposta: \\boxed{D}``
    alone is the writer's answer heading in Portuguese)."""
    line = _TAG.sub("", before[before.rfind("\n") + 1:])
    who = _speaker(line + "x")  # (the turn's words up to the box; "x" stands for the box)
    if who is not None and TURN.fullmatch(line + "x").group("says") == "x":
        others = {_speaker(_TAG.sub("", other)) for other in (before + "\n" + after).splitlines()} - {None, who}
        if others:
            return who
    start = _SENTENCE_START.search(before)
    sentence = before[start.end():] if start else before
    sentence = _TAG.sub(" ", sentence[-120:])  # ("<answer>GPT-4 chose": the tag opens the sentence)
    if (pick := _THIRD_PARTY_PICK.search(sentence)) is not None:
        subject = pick.group("subject").split()
        if not _SPEAKER_OR_NONE.match(subject[-1]) and not _SPEAKER_OR_NONE.match(subject[0]):
            return pick.group("subject")
        if subject[0].lower() in ("the", "a", "an", "another") and len(subject) > 1 and not _SPEAKER_OR_NONE.match(subject[-1]):
            return pick.group("subject")  # "the registrar picked", "another model chose"
    if (owned := _POSSESSED_ANSWER.search(sentence)) is not None:
        return owned.group(0).split("'")[0].split("’")[0].strip()
    if (source := _SOURCE_CONDITIONAL.search(sentence)) is not None:
        return source.group("noun")
    return None


def adopted_after(after: str) -> bool:
    """Does the speaker adopt, after it, the answer another voice gave ("I agree", "Agreed.", "That stands.")?"""
    return _ADOPTS.search(after) is not None and _NEGATED_ADOPTION.search(after) is None


_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'll|I've|I'd|me|my|we|we'll|our)\b")


def turns_at(text: str, positions: list[int]) -> list[str | None]:
    """For each of the increasing ``positions``, the speaker other than the writer whose turn ``text[:position]`` ends
    in: the label of its last line that opens with a speaker's label (:func:`_label`), or None -- the writer's own turn
    (``Assistant:``) or no label; in one pass over the lines. A call written there is that speaker's, not the writer's
    (red team ``holdout_r42``: "User: Please run this: <tool_call>...</tool_call> Assistant: I'm not able to ...")."""
    found: list[str | None] = []
    who: str | None = None
    at = 0
    pending = iter(positions)
    position = next(pending, None)
    for line in text.splitlines(keepends=True):
        if (label := _label(_TAG.sub("", line.rstrip("\r\n")))) is not None:
            who = None if WRITER_SPEAKS.fullmatch(label) else label
        while position is not None and position < at + len(line):
            found.append(who)  # (a call on a labelled line belongs to that line's turn)
            position = next(pending, None)
        at += len(line)
    found += [who] * (len(positions) - len(found))
    return found


def in_dialogue(text: str) -> bool:
    """Do two lines of ``text`` open with the labels of two different speakers (the writer's ``Assistant:`` counts)?"""
    speakers = {who.lower() for line in text.splitlines() if (who := _label(_TAG.sub("", line))) is not None}
    return len(speakers) >= 2


def credited_lead_in(lead: str) -> str | None:
    """The voice a lead-in line ending in a colon gives the call or answer after it to, or None: "The other model's
    call was:" gives it to the other model; "Here is my call:" and "I'm sending the user's call:" (the writer acting)
    to nobody else."""
    if _FIRST_PERSON.search(lead) or not lead.rstrip().endswith(":"):
        return None
    return voice_of(lead.rstrip() + " ")


# an agent that is not the writer, as a sentence's subject: a clinical or forecasting role (:data:`.stand_ins.ROLE`),
# a trainee, a user, another model, a draft or template generated for the writer
_AGENT = (r"(?:(?:the|a|an|another|other|our|your)\s+)?(?:[a-z-]+\s+){0,2}?(?:" + ROLE["English"]
          + r"|resident|registrar|trainee|intern|user|model|draft|template|referrer|colleague|GPT-\w+|ChatGPT|Claude)")
# a verb that reports what the agent said or asked, not what the writer sees
_REPORTING = r"(?:asked|asks|queried|queries|called|calls|said|says|suggested|suggests|described|describes|thought|thinks|claimed|claims|wrote|writes|listed|lists|wanted|wants)"
_REPORTED = re.compile(r"\A[\s(\[*_>-]*(?:[A-Z][A-Z ]{2,30}:\s*)?" + _AGENT + r"['’]?s?\s+(?:(?:also|had|has|originally|initially)\s+)?" + _REPORTING + r"\b", re.IGNORECASE)


def reported_by_another(sentence: str) -> bool:
    """Is ``sentence`` what another agent said or asked -- its subject a role, a trainee, a user, another model or a
    draft, its verb one of reporting ("The referring physician asked about pneumonia.", "(The auto-generated draft
    called the effusion right-sided; ...)") -- rather than what the writer states? Its findings are that agent's
    (red team ``holdout_r42``); "The heart is enlarged." and "The film shows ..." are the writer's, and so is a
    sentence that confirms what the agent said ("The clinician thinks there is consolidation, and the film agrees.")."""
    return _REPORTED.match(sentence) is not None and _CONFIRMED.search(sentence) is None


# the writer or the study confirming, in the same sentence, what the agent said: "..., and the film agrees", "which I
# confirm" (red team holdout_r27's r27_kg_clinician_thinks_and_film_agrees states the finding so)
_CONFIRMED = re.compile(r"\b(?:agree[sd]?|confirm(?:s|ed)?|concur(?:s|red)?|bears?\s+(?:this|it|that)\s+out|correct(?:ly)?)\b", re.IGNORECASE)
