"""The writer declining its own commitment after an answer (holdout91, issue #32 choice half): one reading of a clause
whose SUBJECT is the speaker ("I", "I'd", "I'll", "I'm going to", "we") and whose PREDICATE is about the speaker's
commitment, in three classes of predicates --

* a verb of WITHHOLDING, not negated: abstain, decline, pass, skip, refrain, hold off / back, sit out, withhold, opt
  out, bow out, demur, punt, leave open / unanswered ("so I'll abstain", "I'd rather pass on this one", "I'll refrain
  from choosing", "I'm going to skip this question"). Its object, when it has one, must be the answer or the act of
  answering ("on this one", "from choosing", "this question", "my answer", "judgement"): "we skip the derivation",
  "I'll pass the ball" and "the patient declined surgery" (no speaker) say nothing about the commitment. Negated, the
  verb reaffirms ("I won't abstain", "I'm not passing on this"): the negation is no modifier the subject may carry;
* a verb of COMMITTING under a negation or a withheld will: "I can't commit", "I'd rather not choose", "I'm not
  comfortable picking", "I'd hesitate to settle on one", "I don't stand behind this", "I'd rather not give a
  diagnosis" (giving an answer, a diagnosis or a verdict is committing; so are submitting, claiming, handing it in
  and justifying or defending it, holdout103: "I wouldn't hand this in", "I can't actually justify A" -- not "I can't
  justify it rigorously, but ..."), or the speaker acting "without committing"; not when its
  object is another option or anything else ("I can't pick any other option", "I can't choose anything but C") or the
  doubt is only about full certainty ("I can't answer with complete certainty, but C is the best fit");
* the call HANDED BACK to the reader or the reader's source ("I'll leave the final call to you", "I'd defer to your
  textbook", and with the verb left out "over to you to decide"): the choice handed over, as :data:`.withdrawal_words.HANDED_OVER_WORDS` reads "I'll let you choose" and
  "your call" (the value handed to a third party near the answer -- "I'd defer to the key" -- is
  :data:`.hedging.IDIOM_DOUBT`'s; "defer to local policy on pump programming" hands nothing back).

A clause that is only a verb of withholding, the speaker understood ("Pass.", "Abstaining."), or a withheld will with
its verb left out ("but I'd rather not.") is read by :func:`declined_in` as the same decline.

Built from the classes below rather than a list of phrasings, so a new wording of a known subject and a known verb is
read too. Plain English plus the few other-language forms holdout91 wrote (they stay in
:data:`.withdrawal_words.HANDED_OVER_WORDS`). What the clause must not be -- about another option, the option's own
text -- is :func:`.commitment.later_disowns`'s to say; this module only names the predicate.
"""

from __future__ import annotations

from collections.abc import Sequence

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# the speaker as subject, with the auxiliaries and adverbs a subject carries before its verb -- never a negation; not
# the subject of a relative clause whose object is something else ("the derivation, which I'll skip")
_NOT_RELATIVE = r"(?<!which\s)(?<!that\s)(?<!what\s)(?<!whom\s)"
_CARRIED = (r"(?:\s+(?:would|will|shall|must|should|am|are|have\s+to|has\s+to|need\s+to|going\s+to|gonna|rather|sooner|just|simply|"
            r"therefore|thus|then|instead|honestly|frankly|respectfully|hereby|ultimately|reluctantly|also|still|better|"
            r"prefer\s+to|want\s+to|(?:will|would|'ll|'d|must)\s+have\s+to|do)){0,3}\s+")
SPEAKER_I = r"\bI(?:'d|'ll|'m|'ve)?" + _CARRIED
SPEAKER = _NOT_RELATIVE + r"\b(?:I|we)(?:'d|'ll|'m|'ve|'re)?" + _CARRIED  # ("we can't choose x = 0": only "I" with the verbs of committing)

# a negation or a withheld will before a verb of committing
_WITHHELD = (r"(?:can't|cannot|can\s+not|couldn't|could\s+not|won't|will\s+not|wouldn't|would\s+not|don't|do\s+not|"
             r"(?:am\s+|'m\s+)?(?:not|un)\s*(?:able|going|willing|comfortable|prepared|ready|confident\s+enough|in\s+a\s+position)(?:\s+to)?|"
             r"rather\s+not|prefer\s+not\s+to|refuse\s+to|decline\s+to|hesitate\s+to|(?:haven't|have\s+not|hasn't|has\s+not)(?=\s+locked\b)|"
             # the progressive negated ("I'm not committing to it", "I am not standing behind it"; holdout_r34) and a
             # preference against committing ("I'd sooner eat my hat than stand behind that number"; holdout_r34)
             r"not(?=\s+(?:(?:actually|really|honestly|seriously)\s+)?\w+ing\b)|(?<=rather\s)(?:[\w'’]+\s+){1,6}?than|(?<=sooner\s)(?:[\w'’]+\s+){1,6}?than)\s+"
             r"(?:(?:really|honestly|actually|confidently|definitively|responsibly|safely|fully|want\s+to|need\s+to|dare\s+to)\s+){0,2}")
# the verbs of committing to an answer (a bare stem and its -ing form)
_COMMIT = (r"(?:choos(?:e|ing)|pick(?:ing)?|submit(?:ting)?|claim(?:ing)?|hand(?:ing)?\s+(?:it|this|that)\s+in|"
           r"(?:justify(?:ing)?|defend(?:ing)?)(?![^.;!?\n]{0,40}\b(?:but|rigorously|formally|completely|fully|in\s+detail|yet)\b)|select(?:ing)?|mark(?:ing)?|commit(?:ting)?|answer(?:ing)?|decid(?:e|ing)|"
           r"settl(?:e|ing)(?=\s+on\b)|lock(?:ing|ed)?\s+(?:(?:it|this|that|one|anything|an?\s+answer|(?:my|the|a|an)\s+(?:answer|option|letter|choice|pick))\s+)?in(?:\s+(?:anything|an?\s+answer|(?:my|the|a|an|any)\s+(?:answer|option|letter|choice|pick)))?|go(?:ing)?\s+with|endors(?:e|ing)|stand(?:ing)?\s+(?:behind|by)|vouch(?:ing)?\s+for|put(?:ting)?\s+my\s+name\s+to|sign(?:ing)?\s+off\s+on|"
           r"giv(?:e|ing)\s+(?:(?:a|an|the|my|one|any)\s+)?(?:(?:final|firm|definite|definitive|single)\s+)?(?:answer|diagnosis|verdict|ruling|choice|pick|letter))\b")
# ... whose object is not another option, anything else, or full certainty
_NOT_OTHER = (r"(?!\s+(?:(?:any|an|the|a|on)\s+)?(?:other|another|else|anything\s+(?:else|but)|otherwise|differently|against))"
              r"(?![^.;!?\n]{0,30}\b(?:certainty|certain|confidence|confident|sure|100\s*%)\b)")

# the verbs of withholding (not negated: the subject carries no negation)
_WITHHOLD = (r"(?:abstain(?:ing)?|declin(?:e|ing)|pass(?:ing)?|skip(?:ping)?|refrain(?:ing)?|hold(?:ing)?\s+(?:off|back)|"
             r"sit(?:ting)?\s+(?:(?:this|it|that)\s+(?:one\s+)?)?out|withhold(?:ing)?|opt(?:ing)?\s+out|bow(?:ing)?\s+out|"
             r"demur(?:ring)?|punt(?:ing)?|leav(?:e|ing)\s+(?:it|this|the\s+(?:question|answer|choice))\s+(?:open|unanswered|blank|undecided|unresolved))\b")
# what a verb of withholding may take: nothing (its clause ends), the answer, or the act of answering
_ANSWERING = r"(?:committ|choos|pick|select|answer|decid|mark|settl)ing"
_CLAUSE_GOES_ON = (r"\s*(?:[.!;,:)\]—–]|--|\Z|\s(?:here|now|for\s+now|today|this\s+time|entirely|altogether|too|as\s+well|though|then|"
                   r"instead|but|and|since|because|as|until|given|without|unless|pending|rather|so|for\s+(?:the\s+)?(?:moment|time\s+being))\b)")
_NOUN_PHRASE = (r"(?:(?:this|that|my|the|an?|any|our)\s+(?:(?:final|definite|definitive|firm|single|one)\s+)?"
                r"(?:answer|choice|question|item|one|pick|selection|verdict|judg(?:e)?ment|call|decision|letter|option)s?|judg(?:e)?ment)\b")
_ANSWER_NOUN = _NOUN_PHRASE + r"(?!\s+(?:of|about|to|on)\b)"  # ("skip the question of units" is about something else)
_WITHHOLD_OBJECT = (r"(?=" + _CLAUSE_GOES_ON + r"|\s+to\s+(?:answer|commit|choose|pick|select|guess|decide|speculate)\b)"
                    r"|\s+(?:on|from)\s+(?:" + _ANSWERING + r"|guessing)\b"
                    r"|\s+(?:(?:on|from)\s+)?(?:this|that|it)(?:\s+one)?(?=" + _CLAUSE_GOES_ON + r")"
                    r"|\s+(?:(?:on|from)\s+)?" + _ANSWER_NOUN)

# without committing, after the speaker in the same clause ("I'll leave it there without committing")
_WITHOUT = r"(?:[\w'’]+\s+){0,5}?without\s+(?:(?:really|actually|fully|firmly)\s+)?" + _ANSWERING + r"\b(?!\s+(?:to\s+)?(?:(?:any|an|the)\s+)?(?:other|another|else))"

# the decision handed back: leave / hand / pass / defer it to the reader or the reader's source ("I'll leave the final
# call to you", "I'd defer to your textbook on this"); "we pass to the limit" and "leave it to cool" hand nothing back
_HAND_BACK = (r"(?:leav(?:e|ing)|hand(?:ing)?|pass(?:ing)?|defer(?:ring)?|turn(?:ing)?)(?:\s+(?:it|this|that|" + _NOUN_PHRASE + r"))?"
              r"(?:\s+(?:over|back))?\s+to\s+(?:you\b|your\s+(?:own\s+)?(?:judg(?:e)?ment|call|textbook|book|teacher|instructor|key|answer\s+key|notes|course|syllabus)\b|"
              r"the\s+(?:reader|user|grader|examiner|teacher|instructor|textbook|answer\s+key|key)\b)")
# ... and elliptical, the verb left out, with the decision named ("so over to you to decide", "back to you to choose")
_HANDED_BACK_ELLIPTICAL = r"\b(?:over|back)\s+to\s+you\s+to\s+(?:decide|choose|judge|pick|settle|make\s+the\s+call)\b"

SPEAKER_DECLINES = (SPEAKER_I + r"(?:" + _WITHHELD + _COMMIT + _NOT_OTHER + r"|"
                    r"(?:choose|pick|select|mark|tick|circle)\s+(?:none|neither|no\s+(?:option|letter|answer|choice))\b(?!\s+of\s+the\s+others?\b|\s+other\b))"
                    r"|" + SPEAKER + r"(?:" + _WITHHOLD + r"(?:" + _WITHHOLD_OBJECT + r")|" + _WITHOUT + r"|" + _HAND_BACK + r")"
                    r"|" + _HANDED_BACK_ELLIPTICAL)
DECLINED = re.compile(SPEAKER_DECLINES, re.IGNORECASE)

# with another option named in the clause, a decline counts only with no object of its own or the question as its
# object ("A Giffen good breaks it, so I'll abstain"); "B is tempting, but I'll pass on it" passes on B, not the answer
_NO_OBJECT_AFTER = re.compile(_CLAUSE_GOES_ON, re.IGNORECASE)
_PRONOUN_OBJECT = re.compile(r"\b(?:it|this|that|them|those|these)\Z", re.IGNORECASE)


# a clause that is only a verb of withholding, the speaker understood ("Pass.", "Abstaining.", "-- skip."), or a
# withheld will with its verb left out ("but I'd rather not.")
_BARE_DECLINE = re.compile(r"[\W_]*(?:(?:but|so|and|though|then|honestly|well)\W+)?(?:abstain(?:ing)?|pass(?:ing)?|skip(?:ping)?|declin(?:e|ing)|withhold(?:ing)?|"
                           r"I(?:'d|\s+would)\s+(?:rather|prefer)\s+not(?:\s+to)?|no\s+commitment(?:\s+(?:here|from\s+me))?)[\W_]*", re.IGNORECASE)


# holdout103: the decline whose object is the answer itself, named right after it ("I'm not actually picking C");
# holdout114: and a negated verb of saying whose that-clause is the answer ("I'm not saying it's $15.25", "I won't
# say that the answer is 42"), only right before the answer ("I wouldn't say it's hard, but 42" says nothing of 42)
_NOT_SAYING = (SPEAKER_I + _WITHHELD + r"(?:say(?:ing)?|stat(?:e|ing)|assert(?:ing)?)(?:\s+that)?"
               r"(?:\s+(?:it|this|that|the\s+(?:final\s+)?answer)(?:'s|\s+is|\s+will\s+be|\s+should\s+be))?")
_DECLINES_NAMED = re.compile(r"(?:" + SPEAKER_DECLINES + r"|" + _NOT_SAYING + r")\s*(?:(?:option|letter|answer|choice)\s+)?[(*$\\{\s]*\Z", re.IGNORECASE)


def declines_mention(before: str) -> bool:
    """Does ``before`` (a clause up to a mention of the answer) end with the speaker declining to commit, the mention
    being its object ("I'm not actually picking C", "I wouldn't submit 42")?

    >>> declines_mention("Ha. I'm not actually picking ")
    True
    >>> declines_mention("I'm picking ")
    False
    """
    return _DECLINES_NAMED.search(before) is not None


def declined_in(clause: str, start: int, others: Sequence[re.Match]) -> bool:
    """Does ``clause[start:]`` (a clause after the answer, from after its last mention of the answer or the option's
    own text) hold the speaker declining its commitment (:data:`SPEAKER_DECLINES`)? ``others`` are the other options
    or values the clause names: a decline before which one stands ("I'd pass on B") judges that one, and beside one a
    decline must take no object but the question ("..., so I'll abstain", "I'll pass on this one")."""
    if _BARE_DECLINE.fullmatch(clause, start):
        return True
    for found in DECLINED.finditer(clause, start):
        if any(other.start() >= found.start() for other in others):
            continue
        if others and (_PRONOUN_OBJECT.search(found.group()) or not _NO_OBJECT_AFTER.match(clause, found.end())):
            continue
        return True
    return False


# speed only (issue #35, stop 61): the decline that names the answer is searched on clauses that hold one of its sets of
# words (regex_prefilter: the strings read off the pattern itself; same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_DECLINES_NAMED")
