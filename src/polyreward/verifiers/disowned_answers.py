"""The writer disowning the answer it just gave, in words no phrase list holds (holdout103, paraphrased commitment round
four). Two structural readings of a clause after the answer:

* a BELIEF BELOW EVEN (:func:`below_even_belief`): the writer states its own share of belief in the answer and the
  share is one half or less -- a confidence label with a number ("Confidence: 0.2", "credence 30 %"), a stake put on
  the answer ("I'd put maybe 30 % on 72", "I'd give it 40 %"), or odds that it is right ("Honest odds that it's
  right: about one in four", "a 1 in 3 chance I got it"). A share above one half ("Confidence: 0.9", "I'd put 80 % on
  it") is a degree of belief that still commits; odds *against* it are read as the complement ("odds against it are
  one in four" is 75 %). The share is the writer's: a bare "probability" or "chance" with no writer, answer or
  rightness in the clause (a word problem's own probability) is no belief;
* the answer CALLED NO ANSWER (:data:`NOT_AN_ANSWER`): a reference back to it (a pronoun, "that box", "the letter",
  "that 60") whose predicate says it is a stand-in -- a placeholder, decoration, filler, a formality -- or, negated,
  not a conclusion, an answer or a claim ("It isn't a conclusion", "not something I'd claim as my answer", "call it a
  placeholder"); or the answer given for the FORMAT's sake, its reason being what the grader, parser or template
  needs ("Putting E because the format needs a letter", "The box is there because the grader's parser needs one").
  "Boxed, as the grader asks" names the format and keeps the answer (no "because ... needs"); "This is not a trick
  question" and "It's not a conclusion I reached lightly" deny no answer noun at the end of the predicate.

* the answer SCOPED AWAY from the question (:func:`scoped_away`, holdout105): a reference back to it (a pronoun, "that
  count", "this number", or the answer's own value) whose predicate places it somewhere the question is not -- under
  the writer's misreading or another reading ("That is the count for the problem as I first misread it", "84 is the
  weekly figure under my reading"), in a special case ("a candidate for the special case a = b"), as a bound, an
  estimate or a candidate rather than the value ("4 is an upper estimate from the right sums"), as what an
  approximate source printed ("That's only what a quick estimate gives", "That's what the simulation printed"), or
  as the answer to a narrower question ("this number answers a narrower question than the one posed", "that only
  answers the anatomy sub-question"). "That's what the formula gives" names an exact source and keeps the answer;
  a bound said to be attained ("42 is an upper bound, and it is attained") keeps it too.

All are closed classes (belief nouns and stake verbs; stand-in nouns and answer nouns; scope nouns and approximate
sources), not a list of sentences.
"""

from __future__ import annotations

from polyreward.verifiers.number_keys import value_key
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_SMALL_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_COUNT = r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)"

# the writer's belief about the answer: a confidence noun, a stake put on it, or odds / a chance that it is right
_BELIEF = re.compile(
    r"\b(?:confidence|certainty|credence|odds|chances?|probability)\b(?!\s+(?:intervals?|bands?|bounds?|regions?|limits?|equivalents?|coefficients?)\b)(?:\s+(?:level|score))?"
    r"|\bI(?:'d|\s+would|'ll|\s+will)?\s+(?:only\s+)?(?:put|give|place|assign|bet)\b", re.IGNORECASE)
# ... for odds, a chance or a probability: a writer or the answer, and its rightness, named in the clause (a word
# problem's "probability" names neither; a confidence noun or a stake is the writer's by itself)
_OWN = re.compile(r"\b(?:I|I'd|I'm|my|me|it's|it|this|that|answer|right|correct|true|honest)\b", re.IGNORECASE)
_SHARE = re.compile(r"(?<![\w.])(?:(0?\.\d{1,3})|(\d{1,3}(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b)|(" + _COUNT + r")\s+(?:in|out\s+of)\s+(" + _COUNT + r"))(?![\w.])",
                    re.IGNORECASE)
_AGAINST = re.compile(r"\bagainst\b", re.IGNORECASE)
# a confidence noun's degree given in words, low (holdout109): "Confidence in the boxed answer: low.", "confidence:
# fairly low", "certainty: very low" -- the noun, a short phrase naming what it is about, a colon or a dash, then the
# level; "Confidence: high" and "low confidence intervals" say nothing of the kind
_LOW_LEVEL = re.compile(r"(?:\s+(?:in|on|about|for)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+)?\s*[:：—–-]\s*\**\s*(?:(?:very|fairly|quite|rather|pretty)\s+)?"
                        r"(?:low|poor|weak|shaky|minimal)\b", re.IGNORECASE)


_RIGHTNESS = re.compile(r"\b(?:right|correct|wrong|true|I\s+got\s+it)\b", re.IGNORECASE)


def _key_values(keys: set[str]) -> list[float]:
    """The numbers the answer's keys stand for, as shares too (``1/4`` is 0.25; ``25`` is 25 and 0.25)."""
    values = []
    for key in keys:
        top, _, bottom = key.replace("%", "").partition("/")
        try:
            value = float(top) / float(bottom) if bottom else float(top)
        except (ValueError, ZeroDivisionError):
            continue
        values += [value, value / 100]
    return values


def _count(word: str) -> int:
    return _SMALL_NUMBERS.get(word.lower(), 0) if not word.isdigit() else int(word)


def _share(found: re.Match) -> float | None:
    decimal, percent, top, bottom = found.groups()
    if decimal:
        return float(decimal)
    if percent:
        return float(percent) / 100
    return _count(top) / _count(bottom) if _count(bottom) else None


def below_even_belief(clause: str, keys: set[str]) -> bool:
    """Does ``clause`` state the writer's belief in the answer as a share of one half or less? ``keys`` are the answer's
    value keys: a share that is the answer itself (a probability answer restated as a percentage) is no belief.

    >>> below_even_belief("Confidence: 0.2 — well short of what I'd need to claim it.", {"-3"})
    True
    >>> below_even_belief("Confidence: high — I checked each case twice.", {"204"})
    False
    >>> below_even_belief("Confidence in the boxed answer: low.", {"30"})
    True
    """
    belief = _BELIEF.search(clause)
    if belief is None:
        return False
    if _LOW_LEVEL.match(clause, belief.end()):
        return True  # "Confidence in the boxed answer: low." -- a low degree in words (holdout109)
    if belief.group().lower().startswith(("chance", "probab", "odds")) and not (_RIGHTNESS.search(clause) and _OWN.search(clause)):
        return False  # "a 25 % chance of rain": the problem's probability, not the writer's belief
    for found in _SHARE.finditer(clause):
        share = _share(found)
        if share is None or not 0 <= share <= 1 or any(abs(share - value) < 1e-9 for value in _key_values(keys)):
            continue  # the answer itself restated ("\\boxed{\\frac{1}{4}}, a 25 % chance"), not a belief
        if abs(found.start() - belief.end()) > 60 and abs(belief.start() - found.end()) > 60:
            continue  # the share belongs to something else the clause says
        if _AGAINST.search(clause):
            share = 1 - share
        return share <= 0.5
    return False


_REFERENCE = (r"(?:\b(?:it|this|that|which)|\b(?:the|that|this|my)\s+(?:(?:final|boxed)\s+)?(?:box|boxed\s+\w+|letter|number|figure|value|answer|"
              r"result)|\b(?:that|this|the)\s+\$?-?\d[\d.,/]*\$?)")
_STAND_IN = r"(?:placeholders?|decorations?|decorative|filler|formality|dummy|stand-?in|a\s+prop|window\s+dressing|for\s+show)"
_ANSWER_NOUN = r"(?:conclusion|answer|claim|result|commitment|position)"
NOT_AN_ANSWER = re.compile(
    # "that box is decoration", "it's just a placeholder", "the letter is a formality"
    _REFERENCE + r"(?:'s|\s+is|\s+was)\s+(?:(?:just|only|merely|purely|simply|basically|really)\s+)?(?:(?:a|an)\s+)?(?:\w+\s+)?" + _STAND_IN + r"\b"
    # "call it a placeholder", "consider that box decoration"
    r"|\b(?:call|consider|treat|count)\s+(?:it|this|that|the\s+(?:box|letter|number))\s+(?:as\s+)?(?:(?:just|only|merely)\s+)?(?:(?:a|an)\s+)?" + _STAND_IN + r"\b"
    # "It isn't a conclusion", "that's not my answer" (the noun ends the predicate: "not a conclusion I reached lightly" goes on)
    r"|" + _REFERENCE + r"(?:'s|\s+is|\s+was)?\s*(?:n't|\s+not)\s+(?:(?:really|actually|meant\s+as|intended\s+as)\s+)?(?:a|an|my|the|our)\s+(?:(?:real|actual|final|considered)\s+)?"
    + _ANSWER_NOUN + r"(?=\s*(?:[.,;:!?)—–-]|\Z|(?:\s+(?:at\s+all|either|yet|here))))"
    # "not something I'd claim as my answer", "nothing I would stand behind"
    r"|\b(?:not\s+(?:something|anything|a\s+\w+)|nothing)\s+(?:that\s+)?I(?:'d|\s+would|\s+will|'ll|\s+can)\s+(?:actually\s+|really\s+)?(?:claim|defend|stand\s+behind|endorse|vouch\s+for|sign)\b"
    # the answer given for the format's sake: "because the format needs a letter", "because the grader's parser needs one"
    r"|\b(?:only\s+|just\s+|purely\s+)?because\s+(?:the\s+|a\s+)?(?:format|grader|parser|autograder|auto-grader|template|checker|instructions?|rubric)"
    r"(?:'s\s+\w+)?\s+(?:needs?|wants?|requires?|expects?|demands?|asks?\s+for)\s+(?:one|a|an)\b",
    re.IGNORECASE)


def called_no_answer(clause: str) -> bool:
    """Does ``clause`` call the answer before it no answer (:data:`NOT_AN_ANSWER`)?

    >>> called_no_answer("so that box is decoration until I go back and finish.")
    True
    >>> called_no_answer("Boxed, as the grader asks: 64.")
    False
    """
    return NOT_AN_ANSWER.search(clause) is not None


# the answer scoped away from the question (holdout105): the subject points back at the answer -- a pronoun or a noun
# of the answer ("that count", "this number") or a value (checked against the answer's keys) -- and the predicate
# places it under a misreading, another reading or a special case, calls it a bound, an estimate or a candidate, names
# an approximate source for it, or says it answers a narrower question
_SCOPE_SUBJECT = (r"(?:\b(?:it|this|that|which)|\b(?:the|that|this|my)\s+(?:(?:final|boxed)\s+)?(?:box|boxed\s+\w+|letter|number|figure|value|answer|"
                  r"result|count|total|option)|(?<![\w.])-?\d[\d.,/]*(?<![.,]))")
_SCOPE_COPULA = r"(?:'s|\s+is|\s+was|\s+would\s+be)\s+(?:(?:just|only|merely|simply|really|then|still|therefore|so)\s+)*"
_MISREAD = r"(?:as\s+I\s+(?:\w+\s+)?(?:mis)?read\s+it|I\s+(?:\w+\s+)?misread|(?:under|on|in|by|with)\s+my\s+(?:(?:first|own|initial|original)\s+)?(?:mis)?(?:reading|interpretation)|if\s+I\s+read\b)"
_PLACE = (r"(?:\b(?:for|to|of|in|under)\s+(?:the|a|this|that|my)\s+(?:\w+\s+){0,2}?(?:problem|question|version|case|reading|sub-?question|part)\s+" + _MISREAD +
          r"|" + _MISREAD +
          r"|\b(?:for|in|under)\s+(?:the|a)\s+special\s+case\b"
          r"|\b(?:for|to)\s+(?:a|the)\s+(?:different|other|misread|narrower|related)\s+(?:problem|question|version|reading)\b)")
# "4 is an upper estimate", "25 is a candidate", "that's a lower bound": the indefinite article -- an estimate, not the value
_NOT_THE_VALUE = (r"an?\s+(?:(?:upper|lower|rough|quick|crude|first|empirical|numerical|sanity)\s+)*(?:estimate|bound|candidate|guess)\b"
                  r"|an?\s+(?:empirical|rough|approximate|ballpark)\s+(?:figure|value|number)\b")
# "That's (only) what a quick estimate gives", "what the simulation printed": an approximate source, not a derivation
_APPROXIMATE_SOURCE = (r"what\s+(?:the|a|my|our)\s+(?:(?:quick|rough|crude|first|back-of-the-envelope|numerical)\s+)*"
                       r"(?:estimate|simulation|monte\s+carlo(?:\s+run)?|approximation|sampling|guess|heuristic)\s+(?:gives|gave|printed|prints|says|said|shows|showed|returned|returns|suggests|output)\b")
_SCOPED = re.compile(
    _SCOPE_SUBJECT + _SCOPE_COPULA + r"(?:(?:(?:the|a|an|my|our)\s+)?(?:[\w'-]+\s+){0,2}?" + _PLACE + r"|" + _NOT_THE_VALUE + r"|" + _APPROXIMATE_SOURCE + r")"
    # "treat 1/6 as an empirical figure only", "\\boxed{42} as an upper bound", "\\boxed{84}, under my reading of the
    # figure": the answer itself named so, or scoped to the writer's reading, right after it
    r"|\A[\s$*)}]*,?\s*(?:(?:only\s+|just\s+)?as\s+(?:" + _NOT_THE_VALUE + r")|" + _MISREAD + r")"
    # "this number answers a narrower question than the one posed", "that only answers the anatomy sub-question"
    r"|" + _SCOPE_SUBJECT + r"\s+(?:(?:only|just|merely)\s+)?(?:answers|covers|addresses|settles)\s+(?:only\s+)?(?:(?:a|the|one)\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:(?:narrower|different|other|another|easier|simpler|related|first|second)\s+(?:[\w-]+\s+)?(?:question|problem|part|half)|sub-?question|half)\b"
    # the writer saying a bound is all it gives: "so I can only give the bound", "we can only offer a rough estimate"
    # (holdout114: after "It takes no fewer than 36 minutes", a verb of need that otherwise states a minimum)
    r"|\b(?:I|we)\s+can\s+only\s+(?:give|offer|state|provide|report)\s+(?:(?:the|a|an)\s+)?(?:(?:upper|lower|rough|crude)\s+)?"
    r"(?:bound|estimate)\b(?!\s+(?:on|for|of)\b)",  # ("we can only give a lower bound on the cost" bounds something else)
    re.IGNORECASE)
# ... unless the clause says the bound or the case reaches the value: "42 is an upper bound, and it is attained"
# ("a good estimate", "an accurate estimate": the estimate the question asks for)
_REACHED = re.compile(r"\b(?:attain\w*|achiev\w*|reached|tight|sharp|agrees?|too|also|as\s+well|in\s+general|for\s+all|every|good|close|accurate|reasonable|best)\b",
                      re.IGNORECASE)


# a value as the subject, without a trailing full stop or comma ("84." in "84. That is ...")
_LEADING_VALUE = re.compile(r"-?\d[\d.,/]*(?<![.,])")


def scoped_away(clause: str, keys: set[str]) -> bool:
    """Does ``clause`` place the answer before it away from the question asked (:data:`_SCOPED`)? ``keys`` are the
    answer's value keys: a value as the subject must be the answer's own.

    >>> scoped_away("That is the count for the problem as I first misread it.", {"47"})
    True
    >>> scoped_away("So 4 is an upper estimate from the right sums", {"4"})
    True
    >>> scoped_away("That's what the formula gives.", {"12"})
    False
    >>> scoped_away("42 is an upper bound, and it is attained.", {"42"})
    False
    """
    if _REACHED.search(clause):
        return False
    for found in _SCOPED.finditer(clause):
        subject = _LEADING_VALUE.match(found.group())
        if subject is None or value_key(subject.group()) in keys:
            return True
    return False


# a degree of belief split over the options, each letter with its share: "Confidence: C 50 %, B 50 %", "probabilities:
# A 0.3, C 0.6" (holdout109)
_LETTER_SHARES = re.compile(r"\b(?:confidence|certainty|credence|probabilit(?:y|ies))\b[^\S\n]*[:：-]?[^\S\n]*"
                            r"((?:[(\[]?[A-Z][)\]]?[^\S\n]*[:=]?[^\S\n]*(?:0?\.\d{1,3}|\d{1,3}(?:\.\d+)?[^\S\n]*%)[,;/]?[^\S\n]*){2,})", re.IGNORECASE)
_LETTER_SHARE = re.compile(r"[(\[]?([A-Z])[)\]]?[^\S\n]*[:=]?[^\S\n]*(0?\.\d{1,3}|\d{1,3}(?:\.\d+)?[^\S\n]*%)")


def letter_at_even_or_less(text: str, letter: str) -> bool:
    """Does ``text`` split the writer's belief over two or more option letters, giving ``letter`` one half or less?

    >>> letter_at_even_or_less("Answer: C. Confidence: C 50 %, B 50 % -- the vignette doesn't say.", "C")
    True
    >>> letter_at_even_or_less("Confidence: C 90 %, B 10 %.", "C")
    False
    """
    for found in _LETTER_SHARES.finditer(text):
        for pair in _LETTER_SHARE.finditer(found.group(1)):
            if pair.group(1) == letter:
                share = pair.group(2).replace(" ", "")
                value = float(share[:-1]) / 100 if share.endswith("%") else float(share)
                return value <= 0.5
    return False
