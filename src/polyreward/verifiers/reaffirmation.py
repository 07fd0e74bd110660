"""The writer reaffirming its answer, or wavering on it, after the answer (issue #32, the afterwords sweep).

One reading of a clause whose SUBJECT is the speaker ("I", "I'm", "I'll", "I am going to") and whose PREDICATE is a verb
about the speaker's own commitment, in two verb classes with opposite polarity:

* a verb of COMMITTING (:data:`_COMMIT`: commit, be committed, stick with / to / by, stand by, go with, lock in, settle
  on, keep it, hold to): not negated it REAFFIRMS ("I'm committing to it", "I'm firmly committed to this answer", "I'm
  sticking with this"); negated it WAVERS ("I'm not committing to it", "I'm not sticking with this", "I don't stand
  by this answer"; "I won't commit" / "I can't commit" are also :mod:`.speaker_declines`');
* a verb of WAVERING (:data:`_WAVER`: hedge, waver, second-guess, doubt, reconsider, back down, budge, flip-flop,
  change / revise my answer, retract, withdraw, take it back, have second thoughts): negated it REAFFIRMS ("I am not
  going to hedge", "I'm not going to second-guess it", "I won't waver", "I'm not backing down", "I don't need to
  reconsider this"), also with the speaker left out on its noun ("No hedging here.", "No second thoughts.", "This is
  not a guess."); not negated -- under a modal of possibility or not -- it WAVERS ("I'm hedging on this", "I might
  second-guess this later", "I may waver on this", "I might change my answer", "I'm having second thoughts").

A reaffirmation is the writer's commitment, so its words are no doubt (:func:`without_reaffirmed` blanks its span
before the doubt words are read: the "guess" of "I'm not going to second-guess it" doubts nothing, and "I'm committing
to it" is no state of the writer's instead of the problem's); the doubt words around it are still read ("I'm not
going to hedge, but I might be wrong"). A wavering is the writer's doubt (:func:`wavers`). Only the speaker's own
verb counts: "students often second-guess this" and "the sign can change" say nothing of the writer's commitment, and
"I doubt" stays with the doubt words (:mod:`.hedging`) since its object may be anything.

Built from verb classes and a negation, not from a list of the sentences seen, so a new wording of a known verb is
read too. Plain English; the other languages' sign-offs are courtesy and carry no such verb.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.speaker_declines import SPEAKER_I

# the verbs of committing to an answer (with their particle; the object is not part of the match)
_COMMIT = (r"(?:(?:firmly|fully|now|still|definitely|confidently|happily)\s+)?"
           r"(?:commit(?:s|ted|ting)?|stick(?:s|ing)?\s+(?:with|to|by)|stand(?:s|ing)?\s+(?:by|behind)|go(?:es|ing)?\s+with|"
           r"lock(?:s|ed|ing)?\s+(?:(?:it|this|that)\s+)?in|settl(?:e|es|ed|ing)\s+on|keep(?:s|ing)?\s+(?:it|this|that|my\s+answer)|"
           r"hold(?:s|ing)?\s+(?:to|firm))\b")
# the verbs of wavering on it; "doubt" only under a negation ("I don't doubt it"), "guess" only as "second-guess"
_WAVER_STEM = (r"(?:hedg(?:e|es|ed|ing)|waver(?:s|ed|ing)?|second[\s-]?guess(?:es|ed|ing)?|reconsider(?:s|ed|ing)?|"
               r"back(?:s|ed|ing)?\s+down|budg(?:e|es|ed|ing)|flip[\s-]?flop\w*|"
               r"(?:chang|revis)(?:e|es|ed|ing)\s+(?:it|this|that|my\s+(?:answer|mind|choice|pick|response))|"
               r"retract\w*|withdraw\w*|(?:tak|walk)(?:e|es|ing)\s+(?:it|this|that)\s+back|hav(?:e|ing)\s+second\s+thoughts)\b")
_WAVER = r"(?:" + _WAVER_STEM + r"|doubt(?:s|ed|ing)?\b)"
# a negation before the verb, with what may stand between ("am not going to", "won't even", "don't need to")
_NEGATION = (r"(?:won't|will\s+not|wouldn't|would\s+not|don't|do\s+not|didn't|did\s+not|can't|cannot|haven't|have\s+not|"
             r"(?:am\s+|'m\s+)?not|never|(?:have|see|feel)\s+no\s+(?:need|reason|intention)\s+to)\s+"
             r"(?:(?:going\s+to|gonna|need\s+to|have\s+to|want\s+to|plan\s+to|intend\s+to|about\s+to|really|even|ever|be|been)\s+){0,2}")
# a modal of possibility before a verb of wavering ("I might second-guess", "I may waver", "I could change my answer")
_POSSIBLY = r"(?:(?:might|may|could)\s+(?:well\s+|still\s+|later\s+)?)?"

# the speaker of a main clause: not under a subordinator ("Before I commit, let me look at option D" commits to nothing
# yet; "if I hedge", "unless I change my answer") nor the subject of a relative clause
_MAIN = r"(?<!before\s)(?<!until\s)(?<!till\s)(?<!unless\s)(?<!\bif\s)(?<!when\s)(?<!once\s)(?<!after\s)(?<!which\s)(?<!that\s)(?<!what\s)"
# ... and the same negation with the speaker left out, on the noun of wavering ("No hedging here.", "No second
# thoughts.", "There's no doubt about it.", "This is not a guess.")
_NO_WAVERING = r"\b(?:no|not\s+a)\s+(?:hedg(?:e|ing)|second[\s-]+(?:thoughts|guessing)|waver(?:ing)?|doubt|guess(?:work)?|backing\s+down)\b"
REAFFIRMED = re.compile(_MAIN + SPEAKER_I + r"(?:" + _NEGATION + _WAVER + r"|" + _COMMIT + r")|" + _NO_WAVERING, re.IGNORECASE)
WAVERING = re.compile(_MAIN + SPEAKER_I + r"(?:" + _NEGATION + _COMMIT + r"|" + _POSSIBLY + _WAVER_STEM + r")", re.IGNORECASE)


def without_reaffirmed(clause: str) -> str:
    """``clause`` with each reaffirmation (:data:`REAFFIRMED`) blanked, the same length: its words are the writer's
    commitment, never doubt ("I'm not going to second-guess it", "I'm committing to it")."""
    return REAFFIRMED.sub(lambda found: " " * len(found.group()), clause)


def wavers(clause: str) -> bool:
    """Does ``clause`` hold the speaker wavering on its answer: a verb of committing negated ("I'm not sticking with
    this", "I don't stand by this answer") or a verb of wavering not negated ("I'm hedging on this", "I might
    second-guess this later", "I may waver")? A reaffirmation's span ("I won't waver") is read as none."""
    return WAVERING.search(without_reaffirmed(clause)) is not None


# The answer declared unchanged (holdout100): "Edit: fixed a typo in the year; answer unchanged.", "the answer is
# unaffected", "this doesn't change the answer", "respuesta sin cambios", "Antwort unverändert". Its subject is the
# answer and its predicate says it stands, so the line it closes is a note about some other edit: a typo fixed there,
# or "Edit:", withdraws nothing (a value other than the answer in that line is still read as one).
_ANSWER_NOUN = r"(?:(?:the|my|our|final|overall)\s+)*(?:answer|result|conclusion|choice|pick)"
_UNCHANGED = re.compile(
    r"\b" + _ANSWER_NOUN + r"\s*(?:(?:is|was|stays|remains|still)\s+)*(?:unchanged|unaffected|the\s+same|not\s+affected|still\s+stands|stands)\b"
    r"|\b(?:doesn't|does\s+not|didn't|did\s+not|won't|will\s+not)\s+(?:change|affect|alter)\s+" + _ANSWER_NOUN + r"\b"
    r"|\bno\s+change\s+(?:to|in)\s+" + _ANSWER_NOUN + r"\b"
    # an edit of the form only: "Edit: corrected the spelling of 'effusion'." (red team holdout_r38)
    r"|\b(?:fixed|corrected)\s+(?:a\s+|the\s+|some\s+)?(?:typos?|spelling|misspelling|formatting|capitali[sz]ation|punctuation|grammar)\b"
    r"|\b(?:respuesta|resposta|réponse|risposta|Antwort)\s+(?:(?:queda|fica|reste|resta|bleibt)\s+)?"
    r"(?:sin\s+cambios|igual|inalterada|inchangée|la\s+même|invariata|unverändert|gleich)\b",
    re.IGNORECASE)


def unchanged_lines(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """The spans of the lines in ``text[start:stop]`` that declare the answer unchanged (:data:`_UNCHANGED`, not
    after a negation or a question mark): the line is a note about another edit, so its words withdraw nothing."""
    spans = []
    for found in _UNCHANGED.finditer(text, start, stop):
        if re.search(r"\b(?:not|no|never)\s+\Z|n't\s+\Z", text[max(start, found.start() - 12):found.start()]) or text[found.end():found.end() + 2].lstrip().startswith("?"):
            continue
        line_start = text.rfind("\n", start, found.start()) + 1 or start
        line_end = text.find("\n", found.end(), stop)
        spans.append((max(line_start, start), stop if line_end < 0 else line_end))
    return spans
