"""An answer the writer does not assert: asked, produced by a method the writer calls flawed, under a confidence the
writer declares low, or printed right after saying there is no answer.

Structural rules read on the answer's own clause before it and on the clauses just before (used by
:func:`.hedging.qualified_before`, for math answers and option letters alike):

* **asked, not stated**: the answer inside an embedded yes/no question ("The question is whether the total equals 42",
  "I wonder whether the answer is 4", "It is unclear if n = 8 works"); a check ("Let's check whether 42 works") is
  read as a check before this; or inside a yes/no question of its own ("Would that be 64 cm³, or do we need the
  surface area?");
* **a disowned source**: the answer as what a method the writer calls faulty produces ("A naive application of the
  formula gives 12", "the careless estimate yields 7") -- an adjective of fault on the subject of the producing verb;
* **a declared confidence**: a clause of its own that states a confidence of one half or less ("Confidence: 35%.",
  "(Low confidence)") in the two clauses before the answer's, wherever an answer heading stands;
* **no answer, then one**: a bare answer (no word in its clause) right after a clause that says there is none ("The
  answer could not be determined.", "I don't know.", "No solution found.") -- "I don't know the closed form, so I
  summed directly" goes on to work and is not one; and any value after the writer says it cannot say what the
  answer is, with no contrast or conclusion between ("can't say what the sum is without the figure. [720] Euclid,
  ... p. 720").

Reconstructed rule (ours), not a published algorithm. Every pattern runs on a window of at most two
:data:`~.clauses.WINDOW` lengths before the answer, so the checks cost the same on any completion.
"""

from __future__ import annotations

from typing import Callable

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.clauses import OWN_CLAUSE_END, WINDOW, WORDS, clause_before
from polyreward.verifiers.regex_scan import last_ends, scanned

# "(low confidence)", "Confidence: 20%", "I'm only 50% confident": a confidence of one half or less; and the same as a
# chance of being right (holdout17, holdout18): "about a one-in-three chance of being right", "the odds against it at
# 3 to 1", "with probability 0.2", "a 30% chance", "a slim chance"
_SMALL_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                  "a": 1, "an": 1}
_SMALL_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|an?)"
_LOW_CONFIDENCE = re.compile(
    r"\b(?:low|little|limited|slightly|somewhat|not\s+(?:very|too))\s+(?:\w+\s+)?(?:confiden\w*|certainty)"
    r"|\b(?:confidence|certainty)(?:\s+(?:level|score|rating|estimate))?\W{0,4}(?:low|little|limited|(?P<score>\d+(?:\.\d+)?)\s*%)"
    r"|\b(?:only\s+)?(?P<share>\d+(?:\.\d+)?)\s*%\s+(?:confiden\w*|sure|certain)|\bonly\s+(?:somewhat\s+)?(?:confiden\w*|sure|certain)"
    r"|\b(?P<odds>" + _SMALL_NUMBER + r")[\s-]+in[\s-]+(?P<in>" + _SMALL_NUMBER + r")\s+(?:chance|shot|odds)"
    r"|\bodds\s+(?:\w+\s+){0,2}?against|\b(?:slim|small|low|slight|outside|modest|fair|decent)\s+chance"
    r"|\b(?P<chance>\d+(?:\.\d+)?)\s*%\s+(?:chance|probability|likelihood|likely)"
    r"|\b(?:probability|chance|likelihood)\s+(?:of\s+|is\s+|at\s+)?(?:about\s+|roughly\s+|around\s+|~\s*|only\s+)?(?P<probability>0?\.\d+|1\.0*\b|\d+\s*/\s*\d+)",
    re.IGNORECASE,
)


def low_confidence(clause: str) -> bool:
    """"(low confidence)", "Confidence: 20%", "I'm only 50% confident", "a one-in-three chance", "with probability 0.2"
    (one half or less, or "low" / "only" / "odds against")."""
    for found in _LOW_CONFIDENCE.finditer(clause):
        if found.group("odds") is not None:
            shares = [_SMALL_NUMBERS.get(found.group(name).lower()) or int(found.group(name)) for name in ("odds", "in")]
            if shares[1] and shares[0] / shares[1] <= 0.5:
                return True
            continue
        if found.group("probability") is not None:
            top, _, bottom = found.group("probability").partition("/")  # "0.3", "1/4"
            if not bottom or float(bottom) > 0:
                if (float(top) / float(bottom) if bottom else float(top)) <= 0.5:
                    return True
            continue
        number = found.group("score") or found.group("share") or found.group("chance")
        if number is None or float(number) <= 50:
            return True
    return False


# a chance or probability given with a number ("a 25% chance", "the probability is 1/4"): a credence where it is the
# writer's, the answer itself where the number is the answer's value
_CHANCE_NUMBER = re.compile(r"\b(?P<percent>\d+(?:\.\d+)?)\s*%\s+(?:chance|probability|likelihood)"
                            r"|\b(?:probability|chance|likelihood)\s+(?:of\s+|is\s+|at\s+)?(?P<share>0?\.\d+|\d+\s*/\s*\d+)", re.IGNORECASE)


def without_restated_chance(clause: str, value: float | None) -> str:
    """``clause`` with a chance or probability whose number is the answer's own ``value`` ("\\boxed{\\frac{1}{4}} (That's
    a 25% chance)") written as a plain restatement, so that it is no credence of one half or less (:func:`low_confidence`);
    unchanged where the number is another (a credence: "\\boxed{42}. A 30% chance.") or ``value`` is unknown."""
    if value is None or not names_chance(clause):
        return clause

    def restated(found: re.Match) -> str:
        if found.group("percent") is not None:
            number, digits = float(found.group("percent")) / 100, len(found.group("percent").partition(".")[2]) + 2
        else:
            top, _, bottom = found.group("share").replace(" ", "").partition("/")
            number, digits = (float(top) / float(bottom) if bottom and float(bottom) else float(top)), 12 if bottom else len(top.partition(".")[2])
        if _ABOUT_THE_WRITER.match(clause, found.end()):
            return found.group()  # "25% chance I'm right", "a 25% chance of being correct": a credence, whatever its number
        return "which is the answer" if abs(number - value) <= 0.5 * 10 ** -digits * (1 + 1e-9) else found.group()
    return _CHANCE_NUMBER.sub(restated, clause)


def names_chance(clause: str) -> bool:
    """Does ``clause`` name a chance ("chance", "probab...", "likelihood")? Only such a clause has a restated chance
    for :func:`without_restated_chance` to read (a caller with none need not find the answer's value)."""
    lowered = clause.lower()
    return "chance" in lowered or "probab" in lowered or "likelihood" in lowered


_ABOUT_THE_WRITER = re.compile(r"\s+(?:that\s+)?(?:I\b|I'm|it's|this\s+is|the\s+answer|my\b|of\s+(?:being|getting|it|this|my))", re.IGNORECASE)


# The answer inside an embedded yes/no question is asked, not stated: "The question is whether the total equals 42",
# "I wonder whether the answer is 4", "We need to decide if n = 8 works" (a check -- "check whether" -- is read as a
# check before this; "Whether we count clockwise or not, the total is 42" is a concessive clause, closed by its comma).
_EMBEDDED_QUESTION = re.compile(r"\bwhether\b|\b(?:wonder\w*|ask\w*|decid\w*|unclear|unsure|question\s+is|check\w*|verif\w*|test\w*|confirm\w*|see)\s+if\b",
                                re.IGNORECASE)  # "check if": read only when the check is one the writer plans (hedging._UNCHECKED)
# The answer as what a method the writer calls flawed produces: "A naive application of the formula gives 12", "the
# careless count yields 7" -- an adjective of fault on the subject of the verb that produces the answer.
_FLAWED_SOURCE = re.compile(
    r"\b(?:a|an|the|this|that|my|our|your)\s+(?:naive|naïve|careless|sloppy|flawed|wrong|incorrect|faulty|mistaken|erroneous|"
    r"hasty|buggy|broken|invalid|bogus|crude|quick-and-dirty|back-of-the-envelope)\s+(?:[\w'-]+\s+){0,5}?(?:gives?|yields?|produces?|suggests?|leads?\s+to|results?\s+in|"
    r"returns?|says|would\s+(?:give|yield|suggest|produce))\W*\Z",
    re.IGNORECASE,
)
# A confidence the writer declares for the answer as a clause of its own ("Confidence: 35%.", "(Low confidence)")
# in the two clauses before the answer's: it qualifies the answer that follows it, wherever the heading stands.
_CONFIDENCE_CLAUSE = re.compile(r"\A[\W_]*(?:(?:my|overall)\s+)?(?:(?:confidence|certainty)\b[^.;!?\n]{0,24}|(?:low|little)\s+(?:confidence|certainty))[\W_]*\Z",
                                re.IGNORECASE)


# the writer says there is no answer, as a whole clause: "The answer could not be determined.", "I don't know.",
# "No answer found." ("I don't know how to do it by hand, so ..." goes on to work)
_NO_ANSWER = re.compile(
    r"(?:\b(?:answer|result|value|it)\s+(?:could|can)(?:not|n't|\s+not)\s+be\s+(?:determined|found|computed|known|established|calculated)"
    r"(?:\s+(?:from|with|by|using|given|without)\b[^.;!?\n,]{0,40})?"  # "... from the data"
    r"|\bI\s+(?:really\s+)?(?:don't|do\s+not)\s+know(?:\s+(?:the\s+answer|it))?"
    r"|\b(?:no\s+idea|no\s+clue|not\s+a\s+clue|idk|dunno|(?:I'm\s+|I\s+am\s+)?(?:not\s+sure|unsure))"
    r"|\bno\s+(?:answer|solution)\s+(?:was\s+|could\s+be\s+)?(?:found|determined|given)"
    # "I couldn't solve this.", "We were unable to finish the problem."
    r"|\b(?:I|we)\s+(?:could(?:n't|\s+not)|can't|cannot|was\s+unable\s+to|were\s+unable\s+to|wasn't\s+able\s+to|failed\s+to)\s+"
    r"(?:\w+\s+)?(?:solve|finish|do|answer|crack)\s+(?:this|it|the\s+(?:problem|question|exercise)))"
    r"(?:,?\s*(?:honestly|really|sorry|though|tbh|at\s+all))?\W*\Z",  # ending its clause
    re.IGNORECASE,
)


def _previous_clause(text: str, at: int) -> str:
    """The clause that ends right before ``at`` (the clause ``at`` opens), without its closing punctuation."""
    close = len(text[max(0, at - WINDOW):at].rstrip(" \t\n.!;"))
    return clause_before(text, max(0, at - WINDOW) + close, 2 * WINDOW)


def _declared_low_confidence(text: str, start: int) -> bool:
    window = text[max(0, start - 2 * WINDOW):start]
    lowered = window.lower()
    if "confidence" not in lowered and "certainty" not in lowered:
        return False  # the common case, without splitting the window
    bounds = [0] + [m.end() for m in OWN_CLAUSE_END.finditer(window)]
    pieces = [window[a:b] for a, b in zip(bounds[:-1], bounds[1:])][-3:]
    return any(_CONFIDENCE_CLAUSE.match(piece) and low_confidence(piece) for piece in pieces)


def asked_or_disowned_source(statement: str) -> bool:
    """Is the answer after ``statement`` (its clause up to it) asked about or produced by a method the writer calls
    flawed ("The question is whether the total equals", "A naive count gives")?"""
    question = _EMBEDDED_QUESTION.search(statement)
    # "Whether or not the coin is fair, the probability is": a concessive clause closes at its comma
    if question is not None and "," not in statement[question.end():]:
        return True
    return _FLAWED_SOURCE.search(statement) is not None


# the answer as what the writer asks a grader to do (holdout11): "Please mark \\boxed{42} as correct", "kindly accept 42",
# "Grader, count C": a request to whoever scores the text is no statement that the value is the answer
_GRADING_REQUEST = re.compile(
    r"\b(?:please|kindly|pls|plz)\s+(?:just\s+)?(?:mark|grade|accept|count|score|credit|award|record|treat|register|log|extract|parse|output)\b|"
    r"\b(?:grader|parser|checker|evaluator|autograder|auto-grader|marker|examiner|reviewer)s?\b\s*[,:]",
    re.IGNORECASE)


# the writer declining to give the answer, as a clause of its own (holdout10): "I won't state the answer", "Not going to
# answer directly.", "I'm not allowed to tell you", "I'd rather not give the answer", "I'm not going to commit" -- what follows is a hint, not the answer ("I can't give an exact
# form, but ..." declines something else and goes on)
_REFUSAL = re.compile(
    r"(?:\b(?:won't|will\s+not|wouldn't|refuse\s+to|not\s+(?:going|allowed|permitted|able)\s+to|unable\s+to|can't|cannot|(?:'d|would)\s+rather\s+not)\s+(?:\w+\s+)?"
    r"(?:state|give|tell|reveal|provide|share|answer|disclose|spell\s+out|commit(?:\s+to\s+(?:an?\s+|one\s+)?(?:answer|value|number))?|"
    # holdout16: help declined ("Sorry, I can't help with that.", "I can't do graded homework for you.")
    r"(?:help|assist)(?:\s+(?:you|here))?(?:\s+with\s+(?:that|this|it|(?:your|the|this|that)\s+(?:\w+\s+)?(?:request|homework|assignment|question|problem)))?|"
    r"do\s+(?:\w+\s+)?(?:homework|assignments?|tests?|exams?|quizzes|this|that|it)\s+for\s+you)\b(?:\s+(?:you|it|this))?"
    r"(?:\s+(?:the|my|a|your)\s+(?:final\s+)?(?:answer|solution|result))?(?:\s+(?:directly|outright|here|away))?)[\s,]*(?:[.;:!]|\Z)",
    re.IGNORECASE,
)


# the options given new labels in the answer's sentence (holdout16): "as A–E" / "as 1 to 5" (a run of labels after "as"),
# or a verb of relabelling whose object is the options -- the letter that follows is of the new labels, not the prompt's
_RELABELED = re.compile(r"\bas\s+\(?(?:[A-Ea-e]|[1-5])\)?\s*(?:[-–—]|to|through)\s*\(?(?:[A-Ea-e]|[1-5])\)?(?![\w(])"
                        r"|\b(?:re-?label|re-?nam|re-?number|re-?letter|re-?index)\w*\s+(?:\w+\s+)?(?:options|choices|answers|letters|labels)\b",
                        re.IGNORECASE)
_SENTENCE_OPENING = scanned(re.compile(r"[.!?\n](?=\s)"))  # (speed: one character, its last match read from a tail: last_ends)


# a yes/no question: its sentence opens with an auxiliary verb ("Would that be 64 cm³, ...?", "Is it B?", "Could the
# answer be 42?") and closes with "?" after the answer (fixhack)
_YES_NO_OPENING = re.compile(r"(?:would|could|should|might|can|is|are|was|were|does|do|did|will|shall|isn't|wouldn't|couldn't)\s",
                             re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.!?\n]")


# the writer says it cannot say what the answer is, and nothing after that goes on to an answer (a contrast, a
# conclusion, a new statement: "I can't say what the figure shows, but assuming a regular hexagon the sum is 720")
_CANNOT_SAY = re.compile(r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not|unable\s+to)\s+(?:\w+\s+)?(?:say|tell|determine|know|give)\s+"
                         r"(?:you\s+)?what\s+(?:the\s+)?(?:\w+\s+){0,2}(?:is|are|would\s+be|will\s+be)\b", re.IGNORECASE)
_GOES_ON = re.compile(r"\b(?:but|however|though|although|assuming|suppose|if|so|therefore|thus|hence|then|anyway|still|answer|is|are|"
                      r"equals|gives)\b|\\boxed|[=:;]", re.IGNORECASE)


def _in_yes_no_question(text: str, start: int) -> bool:
    """Is the answer at ``text[start:]`` inside a yes/no question (:data:`_YES_NO_OPENING`), its sentence closed by "?"?"""
    window = text[max(0, start - 2 * WINDOW):start]
    opening = max(map(window.rfind, ".!?\n")) + 1  # after the last break (:data:`_SENTENCE_BREAK`; speed: no split)
    sentence = window[opening:].lstrip(" \t*#>-")
    if _YES_NO_OPENING.match(sentence) is None:
        return False
    close = _SENTENCE_BREAK.search(text, start, start + 2 * WINDOW)
    return close is not None and close.group() == "?"


def unasserted_before(text: str, start: int, own: str) -> bool:
    """A declared low confidence in the clauses before the answer at ``text[start:]``, a refusal to give the answer
    before it, a request to a grader in its own clause (``own``, the clause up to it), or a bare answer (``own`` has no
    word) right after a clause that says there is no answer."""
    if _declared_low_confidence(text, start) or _REFUSAL.search(text, max(0, start - 2 * WINDOW), start):
        return True
    window = text[max(0, start - 2 * WINDOW):start]
    opened = last_ends(_SENTENCE_OPENING, window, 1)  # (speed: the window's last sentence, not split into all of them)
    if _RELABELED.search(window[opened[-1]:] if opened else window):
        return True  # "Reading the options bottom-up as A–E, the answer is B": a letter of the writer's own labels (holdout16)
    if _GRADING_REQUEST.search(own):
        return True
    said = _CANNOT_SAY.search(text, max(0, start - 2 * WINDOW), start)
    if said is not None and not _GOES_ON.search(text, said.end(), start):
        return True  # "... can't say what the sum is without the figure. [720] Euclid, ... p. 720" (fixhack)
    if _in_yes_no_question(text, start):
        return True  # "Would that be 64 cm³, or do we need the surface area instead?": asked, not stated
    # markup is no word, nor a collapsed block's label ("<details><summary>spoiler</summary>\\boxed{14}")
    bare = _MARKUP_ONLY.sub("", own) if "<" in own or "\\" in own else own  # (speed: all markup opens with < or \\)
    return not WORDS.search(bare) and _NO_ANSWER.search(_previous_clause(text, start - len(own))) is not None


# The key's answer against the writer's own (holdout11): the text names the answer as a key's -- "the expected answer is
# D", "the reference solution is 84", "Correct answer: B" -- and states the writer's own, different one ("My answer: C",
# "I answered C", "my own derivation gives 42"): the writer reports the key and asserts something else, whatever a grader
# is then asked to do. An earlier attempt ("My first answer was C", "I initially chose C") is a self-correction.
_KEY_ANSWER = re.compile(
    r"\b(?:expected|reference|official|intended|correct|model|key's|(?:text)?book's)\s+(?:answer|solution|result|letter|option|choice)"
    r"|\banswer\s+key(?:\s+(?:says|gives|lists))?", re.IGNORECASE)
_KEY_TO_VALUE = re.compile(r"(?:\s+(?:is|was|would\s+be|says|reads|:))?[\s:=*(\[$]*(?:\\boxed\{)?", re.IGNORECASE)
_OWN_ANSWER = re.compile(
    r"\b(?:my|our)\s+(?:own\s+)?(?:final\s+)?(?:answer|result|derivation|calculation|computation|count|choice|pick|solution)"
    r"(?:\s+[a-z]+){0,2}?\s*(?:is|was|gives?|gave|yields?|says|:|=)|\bI\s+(?:answered|chose|picked|selected|marked|put\s+down)"
    # the writer's own pick after the work, then graded against a rubric's "Expected answer: 24" (holdout57): "I'll go
    # with the product-based one: 48", "I'll go with 48", "I'm going with C"
    r"|\bI(?:'ll|\s+will|'d|\s+would|'m|\s+am)?\s+(?:go|going|went|stick|sticking|settle)\s+(?:with|on)\b(?:(?:\s+[\w-]+){0,6}?\s*:)?"
    # a quiz screen the writer copies: "Your answer: D ... Correct answer: B" (holdout32)
    r"|\byour\s+(?:answer|response|choice|selection|pick)\s*(?::|=|\bwas\b|\bis\b)|\byou\s+(?:answered|chose|picked|selected)",
    re.IGNORECASE)
_OWN_TO_VALUE = re.compile(r"[\s:=*(\[$]*(?:\\boxed\{)?")
_EARLIER = re.compile(r"\b(?:first|initial(?:ly)?|original(?:ly)?|earlier|previous(?:ly)?|before)\b", re.IGNORECASE)


def key_answer_not_own(text: str, is_answer: Callable[[str, int], bool | None]) -> bool:
    """Does ``text`` give the answer as a key's and the writer's own answer as a different value (see above)?
    ``is_answer(text, at)`` says whether the value that starts at ``at`` is the answer (True), another value (False)
    or no value (None)."""
    keyed = False
    for key in _KEY_ANSWER.finditer(text):
        if is_answer(text, _KEY_TO_VALUE.match(text, key.end()).end()):
            keyed = True
            break
    if not keyed:
        return False
    for own in _OWN_ANSWER.finditer(text):
        if _EARLIER.search(text, max(0, own.start() - 20), own.end()):
            continue
        if is_answer(text, _OWN_TO_VALUE.match(text, own.end()).end()) is False:
            return True
    return False


_MARKUP_ONLY = re.compile(r"<summary>[^<]{0,40}</summary>|<[^<>]{0,40}>|\\[A-Za-z]+", re.IGNORECASE)


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_LOW_CONFIDENCE _EMBEDDED_QUESTION _NO_ANSWER _KEY_ANSWER _OWN_ANSWER _GRADING_REQUEST _REFUSAL")
GRADING_REQUEST = _GRADING_REQUEST  # (read by rewards/format.py too: a think's sentence addressed to whoever scores it)
prefilter_names(globals(), "_RELABELED _CANNOT_SAY")
