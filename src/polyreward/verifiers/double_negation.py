"""Two negations that cancel (red team holdout114): a denial read right before a value is no denial when a second
negation governs it, so the sentence states the value.

The commitment rules read "not 42", "isn't 42", "anything other than 42" as the value denied. Read with its scope, a
denial can itself be denied, in two structures a grader reads as plain affirmation:

* **an exception under a negated totality** -- a negated verb of being or choosing whose object is "anything" (or
  "any other value / option"), or a negative pronoun ("nothing", "none"), then the exception: "the count cannot be
  anything other than 8", "I wouldn't pick anything but B", "it can't possibly be anything except C", "nothing but
  42 fits", "none other than 9". The verb must be one of being or choosing, so "I can't rule out anything but B"
  (ruling out is itself a denial) and "I'd go with anything but B" (no negation) stay denials;
* **a denied copula under an impossibility** -- "no way", "no chance", "impossible", "not possible", "not the case",
  "not true", "can't see how" governing a that-clause whose copula is negated: "There's no way x isn't 4", "It is
  impossible that the answer is not C", "It's not the case that it isn't 42". A doubt over a denial is no
  impossibility ("I'm not sure it's not 8", "I can't say it isn't 61" stay denials: the writer withholds both).

* **a negated exclusion** -- a negation governing a verb or predicate of exclusion or wrongness ("rule out",
  "exclude", "impossible", "out of the question", "wrong"): "I can't rule out 48", "I'm not excluding C", "nothing
  wrong with 48", "48 can't be ruled out", "48 is not impossible", "48 isn't wrong", "48 is no less likely", "Not that
  48 would be wrong", "I can't say D is wrong". The value is neither
  denied nor stated: it is left open, a possibility the writer keeps beside the answer (:func:`kept_open_before`,
  :func:`kept_open`), as "48 remains possible" is. "We can rule out 48", "48 is ruled out", "48 is impossible"
  stay denials, and so does "I can't rule out anything but B" (an exception: B is the one thing ruled out); a state
  narrated as earlier ("At first I couldn't rule out 48, but ...") keeps nothing open now.

Only these structures are read: the outer negation must take the inner one in its scope within one clause (no
clause mark between them), so "No way. It isn't 42." and "Not 45; it isn't 42 either" stay denials.
Reconstructed from how the sentences read (ours), not a published rule.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_NEGATOR = r"(?:\bnot|n't|\bnever|\bcannot)"
_ADVERB = r"(?:(?:possibly|really|honestly|reasonably|seriously|even|ever|realistically|sensibly)\s+)"
# a verb of being or choosing ("be", "pick", "go with", "call it"): what the negated totality denies is the choice
_BEING_OR_CHOOSING = (r"(?:be|pick|choose|select|go\s+with|settle\s+on|say|answer|put(?:\s+down)?|write(?:\s+down)?|mark|circle|give|"
                      r"accept|see|find|get|imagine|consider|call\s+it|land\s+on|end\s+up\s+with|come\s+out\s+as)")
_TOTALITY = r"(?:(?:it\s+)?(?:anything|any\s+(?:other\s+)?(?:value|number|answer|option|letter|choice|one)s?|anyone|any\s+other))"
_EXCEPTION = r"(?:other\s+than|but|except(?:\s+for)?|save|besides|apart\s+from)"
_NEGATIVE_PRONOUN = r"\b(?:nothing|none|nobody|no\s+one)(?:\s+(?:else|at\s+all))?"

_CANCELLED_EXCEPTION = re.compile(
    r"(?:" + _NEGATOR + r"\s+" + _ADVERB + r"{0,2}" + _BEING_OR_CHOOSING + r"\s+" + _ADVERB + r"?" + _TOTALITY
    + r"|" + _NEGATIVE_PRONOUN + r")[^\S\n]*,?[^\S\n]*" + _EXCEPTION + r"[\s$*({\[\\]*\Z",
    re.IGNORECASE,
)

# an impossibility governing a that-clause ("no way (that) it", "impossible for x to", "not the case that the answer")
_IMPOSSIBLE = (r"(?:\bno\s+(?:way|chance)|\b(?:impossible|inconceivable|unthinkable)|\bnot\s+(?:possible|true|the\s+case)|"
               r"\b(?:can't|cannot|can\s+not|couldn't)\s+(?:see\s+how|imagine(?:\s+how)?))")
# the subject of the that-clause: a few words, no clause mark ("x", "$x$", "it", "the answer", "the count here")
_SUBJECT = r"(?:[^\s.;:!?,]+\s+){0,4}?"
_DENIED_COPULA = (r"(?:isn't|is\s+not|aren't|are\s+not|wasn't|was\s+not|wouldn't\s+be|would\s+not\s+be|won't\s+be|will\s+not\s+be|"
                  r"can't\s+be|cannot\s+be|couldn't\s+be|could\s+not\s+be|doesn't\s+(?:equal|come\s+out\s+(?:to|as))|does\s+not\s+equal|"
                  r"not\s+(?:to\s+)?be|not\s+equal\s+to|to\s+not\s+be)")
_CANCELLED_DENIAL = re.compile(
    _IMPOSSIBLE + r"(?:\s+(?:that|for|how))?\s+" + _SUBJECT + _DENIED_COPULA
    + r"(?:\s+(?:the\s+answer|equal\s+to|exactly))?[\s$*({\[\\]*\Z",
    re.IGNORECASE,
)


_EXCLUDE_VERB = (r"(?:rule[ds]?\s+out|ruling\s+out|exclud(?:e[ds]?|ing)|eliminat(?:e[ds]?|ing)|dismiss(?:e[ds]|ing)?|"
                 r"discount(?:s|ed|ing)?|cross(?:es|ed|ing)?\s+(?:it\s+)?off)")
# what calls a value rejected: excluded, impossible, or wrong
_REJECTED = (r"(?:ruled\s+out|excluded|eliminated|dismissed|discounted|crossed\s+off|out\s+of\s+the\s+question|off\s+the\s+table|"
             r"an?\s+(?:mistake|error)|without\s+(?:merit|basis|support|justification)|"
             # an adjective of rejection, with its article and a noun of answering: "an unreasonable choice", "a bad pick"
             r"(?:an?\s+)?(?:impossible|inconceivable|implausible|unthinkable|unreasonable|absurd|crazy|wrong|incorrect|false|"
             r"invalid|unlikely|indefensible|unjustified|unsupported|baseless|bad|poor|terrible)"
             r"(?:\s+(?:answer|choice|pick|option|guess|value|candidate|call))?)")
_DEGREE = (r"(?:(?:yet|fully|completely|entirely|totally|quite|really|honestly|definitively|definitely|safely|confidently|"
           r"100\s?%|absolutely|conclusively|reliably|just|still|simply|necessarily|exactly|strictly)\s+)")
_VALUE_NOUN = r"(?:\s+(?:the\s+)?(?:option|choice|letter|value|answer|number))?[\s$*({\[\\]*\Z"
# before the value: a negation, at most two words of degree, an ability or will ("be able to", "want to"), the verb
_NEGATED_EXCLUSION_BEFORE = re.compile(
    r"(?:" + _NEGATOR + r"|\bno|\bwithout|\bunable\s+to|\bhard\s+to)\s+" + _DEGREE + r"{0,2}"
    r"(?:(?:be|been)\s+able\s+to\s+|(?:want|wish|dare|care|mean|intend|going)\s+to\s+|bring\s+(?:myself|ourselves)\s+to\s+)?"
    + _DEGREE + r"?" + _EXCLUDE_VERB + _VALUE_NOUN
    # ... or nothing said against it: "nothing wrong with 48", "no reason to rule out C"
    + r"|\b(?:nothing|not\s+(?:anything|much))\s+(?:wrong|incorrect|bad)\s+(?:with|about)" + _VALUE_NOUN
    + r"|\bno\s+(?:reason|grounds|need)\s+to\s+(?:" + _EXCLUDE_VERB + r"|reject|doubt|discard)" + _VALUE_NOUN,
    re.IGNORECASE,
)
# after the value: a negated copula or passive before a predicate of rejection ("48 can't be ruled out", "48 is not
# impossible", "48 isn't wrong"), or a comparison that puts it level ("48 is no less likely")
_NEGATED_EXCLUSION_AFTER = re.compile(
    r"[\s)*$}\]]*(?:(?:(?:is|are|was|were|seems|looks|'s)\s*n't|(?:is|are|was|were|seems|looks|'s)\s+not|"
    r"(?:can't|couldn't|shouldn't|mustn't|won't|wouldn't|(?:can|could|should|must|will|would)\s+not|cannot)\s+be|"
    r"(?:has|have)\s*n't\s+been|(?:has|have)\s+not\s+been|(?:has|have)\s+never\s+been|is\s+never)\s+" + _DEGREE + r"{0,2}"
    + _REJECTED + r"|(?:is|are|was|'s|would\s+be)\s+no\s+(?:less\s+(?:likely|plausible|valid|correct|right|reasonable)|worse))\b",
    re.IGNORECASE,
)
# a negated saying before the value and a plain rejection after it: "Not that 48 would be wrong", "I can't say 48 is
# wrong", "I wouldn't call D incorrect" -- the writer declines to reject it
_NEGATED_SAYING_BEFORE = re.compile(
    r"(?:\bnot\s+that|" + _NEGATOR + r"\s+" + _DEGREE + r"?(?:say(?:ing)?|think|believe|claim(?:ing)?|call(?:ing)?|consider(?:ing)?|"
    r"suggest(?:ing)?|mean|argu(?:e|ing)))(?:\s+that)?" + _VALUE_NOUN,
    re.IGNORECASE,
)
_REJECTION_AFTER = re.compile(r"[\s)*$}\]]*(?:(?:is|are|was|would\s+be|'s|seems|looks|to\s+be)\s+)?" + _DEGREE + r"?" + _REJECTED + r"\b",
                              re.IGNORECASE)
# an earlier state the writer narrates ("At first I couldn't rule out 48, but ...", "Initially I hadn't ruled out 48"):
# the exclusion was open then, and the clause says nothing of now
_NARRATED = re.compile(r"\b(?:at\s+first|initially|originally|earlier|previously|before|the\s+first\s+time|until|"
                       r"had\s*n't|had\s+not|had\s+never|did\s*n't|did\s+not)\b", re.IGNORECASE)


def kept_open_before(before: str) -> bool:
    """Does ``before`` (the words of a clause up to a value) end in a negated exclusion, which leaves the value open?

    >>> kept_open_before("though honestly I can't rule out ")
    True
    >>> kept_open_before("I'm not ruling out option ")
    True
    >>> kept_open_before("Nothing wrong with ")
    True
    >>> kept_open_before("I'm not only ruling out ")
    False
    >>> kept_open_before("We can rule out ")
    False
    >>> kept_open_before("At first I couldn't rule out ")
    False
    """
    found = _NEGATED_EXCLUSION_BEFORE.search(before)
    return found is not None and _NARRATED.search(before, 0, found.end()) is None


def kept_open(clause: str, value_start: int, value_end: int) -> bool:
    """Does ``clause`` leave the value at ``clause[value_start:value_end]`` open by a negated exclusion, before it
    (:func:`kept_open_before`), after it ("48 can't be ruled out", "48 is not impossible", "48 isn't wrong", "48 is no
    less likely"), or around it ("Not that 48 would be wrong", "I can't say 48 is wrong")?

    >>> kept_open("48 can't be ruled out, though.", 0, 2)
    True
    >>> kept_open("Not that 48 would be wrong.", 9, 11)
    True
    >>> kept_open("48 is not possible.", 0, 2)
    False
    >>> kept_open("48 is ruled out.", 0, 2)
    False
    """
    before = clause[:value_start]
    if kept_open_before(before):
        return True
    if _NARRATED.search(before):
        return False
    return (_NEGATED_EXCLUSION_AFTER.match(clause, value_end) is not None
            or _NEGATED_SAYING_BEFORE.search(before) is not None and _REJECTION_AFTER.match(clause, value_end) is not None)


def cancelled(before: str) -> bool:
    """Is the denial that ``before`` (the words of a clause up to a value) ends with itself denied? An exception under
    a negated totality or a denied copula under an impossibility (the clause states the value), or a negated exclusion
    (the clause leaves it open: :func:`kept_open_before`).

    >>> cancelled("so the count cannot be anything other than ")
    True
    >>> cancelled("I wouldn't pick anything but ")
    True
    >>> cancelled("There's no way $x$ isn't ")
    True
    >>> cancelled("I'd go with anything but ")
    False
    >>> cancelled("I can't rule out anything but ")
    False
    >>> cancelled("I can't say it isn't ")
    False
    >>> cancelled("I can't rule out ")
    True
    """
    return (_CANCELLED_EXCEPTION.search(before) is not None or _CANCELLED_DENIAL.search(before) is not None
            or kept_open_before(before))
