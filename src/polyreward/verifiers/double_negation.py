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

Only the two structures are read: the outer negation must take the inner one in its scope within one clause (no
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


def cancelled(before: str) -> bool:
    """Is the denial that ``before`` (the words of a clause up to a value) ends with itself denied, so the clause
    states the value? An exception under a negated totality or a denied copula under an impossibility.

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
    """
    return _CANCELLED_EXCEPTION.search(before) is not None or _CANCELLED_DENIAL.search(before) is not None
