"""Commitment in other registers of English (issue 32, holdout60): the words a clinician, a lawyer, a British or an
Australian speaker or a texter commits with, which the doubt rules (:mod:`.hedging`) and the answer phrases
(:mod:`.choice`) would otherwise misread.

* **Certainty** (:data:`CERTAINTY`): the writer's own certainty about what they said, closing its clause ("I'm quite
  sure of it", "I'm 100% certain."; "I'm sure someone will check it" is about something else), a back-reference called a sure thing ("that's a lock", "it's a dead cert", "that's a no-brainer"),
  and the texter's intensifiers ("fr", "for real", "no cap"). Doubt voiced before such a statement about the same
  answer is resolved by it ("I rather think it's C -- and on reflection, I'm quite sure of it", "Reckon that's a
  lock"); doubt voiced after it is not (:func:`certainty_end`: only what follows the last certainty is read for doubt).
  A negated certainty ("not 100% sure", "I'm not quite certain") is doubt, not certainty.
* **A clinical note's sections** (:func:`note_section`): in a note with an "Impression:" / "Assessment:" /
  "Diagnosis:" heading, a later "Plan:" line is the note's management section, not a plan of work still to do, so it
  takes nothing from the impression; what the section says is still read ("Plan: recheck the count before
  committing" doubts).
* **The lawyer's answer phrase** (:data:`LEGAL_ANCHOR`): "the better view is C", "the preferred view is C" state the
  writer's answer as "the answer is C" does.
* **The texter's and the memo's summary label** (:data:`SUMMARY_ANCHOR`): "TL;DR: B (+6).", "Bottom line: D",
  "In short: C" closing the completion give the one-line result as "Answer: B" does (holdout102); one that opens the
  reply is a preview and is read as any line is; "Summary:" is not one, since it often opens a list of every option
  ("Summary: A ✗ B ✗ C ✓").

Reconstructed (ours) from how these registers read; closed classes named by their heads, bounded patterns.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_DEGREE = r"(?:(?:quite|very|fairly|pretty|really|absolutely|completely|totally|entirely|dead|100\s*%|a\s+hundred\s+per\s*cent)\s+)?"
# the writer's certainty, a back-reference called a sure thing, the texter's intensifiers (each class by its head)
CERTAINTY = re.compile(
    r"(?:\b(?:I'm|I\s+am|we're|we\s+are)\s+(?:now\s+)?" + _DEGREE + r"(?:sure|certain|confident|positive|convinced)\b(?:\s+(?:of|about)\s+(?:it|that|this))?"
    r"|\b(?:that|it|this)(?:'s|\s+is)\s+(?:a\s+)?(?:(?:dead|stone[\s-]cold|absolute)\s+)?(?:lock|cert|certainty|sure\s+thing|safe\s+bet|no[\s-]brainer)\b"
    r"|\b(?:no\s+doubt(?:\s+about\s+it)?|without\s+(?:a|any)\s+doubt|beyond\s+doubt|fr|for\s+real|no\s+cap|hands\s+down)\b)"
    # ... closing its clause, so that it is about what was said ("I'm sure someone will check it" is about something else)
    r"(?=\s*(?:[.,;:!)\u2014\u2013-]|\Z))",
    re.IGNORECASE,
)
# a negation within three words before the certainty: "not 100% sure", "I'm not quite certain", "can't be sure"
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever|\bhardly|\bfar\s+from)\s+(?:\S+\s+){0,3}\Z", re.IGNORECASE)


def certainty_end(clause: str) -> int | None:
    """Where the last certainty statement of ``clause`` (:data:`CERTAINTY`, not negated) ends, or ``None``: doubt
    before it about the same answer is resolved, so only ``clause[certainty_end:]`` is read for doubt."""
    last = None
    for found in CERTAINTY.finditer(clause):
        if _NEGATED.search(clause, max(0, found.start() - 40), found.start()) is None and not re.match(r"\s*\?", clause[found.end():]):
            last = found.end()
    return last


# a clinical note's answer heading, and its plan section after it
_IMPRESSION = re.compile(r"(?:^|\n)[^\S\n]*[*#]*[^\S\n]*(?:clinical\s+)?(?:impression|assessment|diagnosis|dx)[*]*[^\S\n]*:", re.IGNORECASE)
_PLAN_HEADING = re.compile(r"\A[\s*#]*(?:management\s+)?plan[*]*[^\S\n]*:", re.IGNORECASE)


def note_section(text: str, clause: str) -> str:
    """``clause`` with a "Plan:" heading that opens it masked when ``text`` is a clinical note (it has an
    "Impression:" / "Assessment:" / "Diagnosis:" heading): the note's next section, whose words are still read."""
    heading = _PLAN_HEADING.match(clause)
    if heading is None or _IMPRESSION.search(text) is None:
        return clause
    return " " * heading.end() + clause[heading.end():]


# "The better view is C", "the preferred view is that ...": the lawyer's answer phrase (choice._ANCHOR)
LEGAL_ANCHOR = r"(?:better|preferred|sounder|correct|right)\s+view"

# "TL;DR: B", "tl;dr -- C", "Bottom line: D", "In short: C": a label of the one-line result (choice._ANCHOR, holdout102),
# on the completion's last line only: a TL;DR that opens a reply ("TL;DR — B (12).\n\n## Detailed verdict ... **C**")
# is a preview the later verdict may overrule (holdout26), read as any other line is
SUMMARY_ANCHOR = r"(?:tl;?[^\S\n]?dr|bottom[^\S\n]+line|in[^\S\n]+short(?=[^\S\n]*[:\-–—]))(?=[^\n]*+\s*+\Z)"


# what may close a bare final letter and still leave it the answer (choice._AFFIRMING_TAIL): a clause of the writer's
# certainty ("C -- and on reflection, I'm quite sure of it") and emphasis or approval emoji ("it's E fr 😤"); the
# emoji of doubt (🤷, 🤔, 🤞, 😬: hedging._DOUBT) are not among them
CERTAIN_TAIL = (r"(?:\s*[,;:\u2014\u2013-]+\s*(?i:(?:and|so)\s+)?(?i:(?:on\s+(?:reflection|second\s+thought)|honestly|in\s+fact|now|yes)\W+)?"
                r"(?i:(?:I'm|I\s+am|we're|we\s+are)\s+" + _DEGREE + r"(?:sure|certain|confident|positive)(?:\s+(?:of|about)\s+(?:it|that|this))?))?")
AFFIRMING_EMOJI = r"(?:\s*[😤💪✅🔥👍💯😎🎯✔👌🙌])*"
# the pictographs a verse, a song or a chat closes a line with -- objects, food, animals, nature, music, transport,
# flags: "sing it with me: C! 🎵", "Me answer be C! 🏴‍☠️", "B 🐝" (holdout123). They carry no attitude to the answer,
# so they close it as a full stop does; faces, hands and marks (🤔, 😬, 🤷, ❌, ❓, 🚫, ⚠) are not among them: they
# are read as doubt or denial where they stand
DECORATIVE_EMOJI = (r"(?:\s*[\U0001F300-\U0001F43F\U0001F451-\U0001F58F\U0001F680-\U0001F6AA\U0001F6AC-\U0001F6FF"
                    r"\U0001F980-\U0001F9CF\U0001F9E0-\U0001F9FF\u2600\u2620\u266A-\u266C\u2728\u2764\u2B50]"
                    r"(?:[\ufe0f\u200d][\u2600-\u27BF\U0001F300-\U0001F9FF]?)*)*")


# a letter's commitment stated right after it, then a dash or colon and its explanation ("It's B, no doubt about it —
# Miranda is ...", "B ✅ — new construction counts ...", "Es B, sin duda — ..."; holdout68; French "sans doute" is
# "probably", so only "sans aucun doute"): the letter is affirmed as a line-final one would be
# (choice: the lookahead after the letter; never a word of doubt or withdrawal)
AFFIRMED_THEN_GLOSS = (r",?(?:[^\S\n]*(?:(?i:no\s+doubt(?:\s+about\s+it)?|without\s+(?:a\s+|any\s+)?doubt|for\s+sure|definitely|hands\s+down|"
                       r"no\s+question|for\s+real|no\s+cap|sin\s+(?:ninguna\s+)?duda|sem\s+dúvida|senza\s+(?:alcun\s+)?dubbio|ohne\s+(?:jeden\s+)?zweifel|"
                       r"sans\s+aucun\s+doute|без\s+сомнения)|[😤💪✅🔥👍💯😎🎯✔👌🙌☑]\ufe0f?))+[^\S\n]*(?:[\u2014\u2013:]|-{1,2}[^\S\n])")
