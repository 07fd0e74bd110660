"""The pieces of a completion the commitment checks read: clauses, the markup around an answer, and whose words
they are.

Shared by :mod:`.commitment` (negation, alternatives, what the text says after its answer) and :mod:`.hedging`
(soft hedges and second-hand answers), so both cut the text the same way:

* a **clause** ends at ``.`` (not a decimal point, nor the period of an abbreviation: "i.e.", "e.g.", "vs.", "approx.",
  "cf.", "Fig. 2", "No. 5", "etc." before a small letter), ``!``, ``?``, ``;`` or a line break (:func:`clauses`);
* **markup** between the words and the answer (``$``, ``**``, brackets, ``\\boxed{``) is stepped over;
* the **writer** of a clause is the author speaking of themselves or of their answer (``I``, ``we``, ``my``, "this
  answer", "the result"), or nobody ("(not sure)"): doubt about the world ("the evidence is uncertain") is not
  doubt about the answer (:data:`WRITER`);
* a **check** is a clause that computes or verifies (``6 \\times 7 = 42``, "let me verify"), which restates rather
  than qualifies an answer (:data:`CHECK`).

Reconstructed rule (ours), not a published algorithm. Every pattern is linear in its (bounded) window.
"""

from __future__ import annotations

from collections.abc import Iterable

from polyreward.verifiers.double_negation import kept_open
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.reading_memo import per_text
from polyreward.verifiers.regex_scan import last_ends, scanned
from polyreward.verifiers.units import UNIT_AFTER_VALUE, written_unit

WINDOW = 80  # characters read on either side of an answer

MARKUP_START = re.compile(r"\A(?:[\s$*)\]}]|\\[)\]])*")
# markup between the words and a value: "is not \\boxed{", "Not (", "is **"
MARKUP_END = re.compile(r"(?:[\s$*(\[{:=]|\\(?:boxed|fbox|framebox|text|textbf|mathbf|mathrm)\s*\{?|\\[(\[])*\Z")

# The period of an abbreviation ends no clause: "42, i.e. 6 times 7", "e.g. n = 3", "approx. 3.46", "A vs. B", "cf. the
# check above", "see Fig. 2", "Case No. 5", "Dr. Smith". Each word is one fixed-width look-behind (so the pattern stays
# linear: a few character comparisons at each period). Dotted letter pairs (i.e., e.g., a.m., U.S.) never end one;
# "No." / "p." / "pp." only before a number ("The answer is no." ends its clause); "etc." and "et al." only before a
# capital letter or the end of a line ("1, 2, 3, etc., and" does not end, "..., etc. The answer" does).
_NEVER_ENDING = ("cf", "vs", "viz", "approx", "appr", "resp", "fig", "figs", "eq", "eqs", "thm", "lem", "prop", "defn", "sec",
                 "incl", "esp", "dr", "mr", "mrs", "ms", "prof", "st", "wrt", "w.r.t", "ca")
_BEFORE_NUMBER = ("No", "Nos", "no", "p", "pp", "Ex", "ex", "Ch", "ch", "Vol", "vol")
_BEFORE_CAPITAL = ("etc", "al")
def _by_length(words: tuple[str, ...]) -> list[str]:
    """The words as alternations of words of one length (a look-behind has one width): one look-behind per length
    reads as the look-behinds of its words do (speed: 5 look-behinds at a period instead of 26, same results)."""
    lengths: dict[int, list[str]] = {}
    for word in words:
        lengths.setdefault(len(word), []).append(re.escape(word))
    return ["|".join(group) for _, group in sorted(lengths.items())]


ABBREVIATION_GUARD = (
    r"(?=\.)"  # the look-arounds run only at a period (else they would run at every character: ~20x slower)
    r"(?<!\b[A-Za-z]\.[A-Za-z])(?!(?<=\b[A-Za-z])\.[A-Za-z]\.)"  # i.e. / e.g.: neither the inner nor the final period
    + "".join(rf"(?<!\b(?i:{words}))" for words in _by_length(_NEVER_ENDING))
    + r"(?!(?:" + "|".join(rf"(?<=\b(?:{words}))" for words in _by_length(_BEFORE_NUMBER)) + r")\.\s?[(#]?\d)"
    + r"(?!(?:" + "|".join(rf"(?<=\b(?:{words}))" for words in _by_length(_BEFORE_CAPITAL)) + r")\.(?![^\S\n]*(?:[A-Z]|\n|\Z)))"
)
# (speed: searched by skipping to the characters they consume, regex_scan; same results)
CLAUSE_END = scanned(re.compile(ABBREVIATION_GUARD + r"(?:(?<!\d)\.(?!\d)|\.(?=\s|$))|[!?;\n]"))
OWN_CLAUSE_END = scanned(re.compile(ABBREVIATION_GUARD + r"(?<!\d)\.(?!\d)|[!?;\n]"))
WORDS = re.compile(r"[A-Za-z]+")
WRITER = re.compile(
    r"\b(?:I|I'm|I'd|I've|me|my|we|we're|we've|our|this|that|answer|result|solution|value|estimate|calculation|derivation)\b"
    # ... or no subject at all, an auxiliary at most ("Can not be certain: A.", "Still can't say for sure")
    r"|\A[\W_]*(?:(?:but|though|although|and|just|still|honestly|to\s+be\s+honest|frankly|really|actually|well|"
    # ... or the chat's discourse markers ("A, ngl not sure", "42, tbh not sure", "B, um, not sure")
    r"tbh|tbf|ngl|imo|imho|fwiw|lol|ok(?:ay)?|yeah|um+|uh+|hmm+|eh)\W+)*"
    r"(?:(?:can|could|would|will|do|does|did|may|might|must|should)\s+)?\Z",
    re.IGNORECASE,
)
CHECK = re.compile(r"[\d)}]\s*=|(?<!not\s)\b(?:check(?!ers?\b)\w*|double-check\w*|verif(?:y|ied|ying)|confirm\w*|substitut\w*|plug\w*)\b", re.IGNORECASE)


def clause_before(text: str, start: int, width: int, ends: re.Pattern = OWN_CLAUSE_END) -> str:
    """The text of ``start``'s clause up to ``start``: what follows the last match of ``ends`` in the ``width``
    characters before it (all of them when none matches)."""
    window = text[max(0, start - width):start]
    found = window_last_end(text, start, width, ends)
    return window[found:] if found is not None else window


@per_text  # (speed: the soft-hedge checks cut the answer's clause more than once)
def window_last_end(text: str, start: int, width: int, ends: re.Pattern = OWN_CLAUSE_END) -> int | None:
    """Where the last match of ``ends`` in the window ``text[max(0, start - width):start]`` ends (a position in the
    window, the window searched on its own), or None (speed: a one-character pattern's last match is read from the
    window's tail, :func:`.regex_scan.last_ends`)."""
    found = last_ends(ends, text[max(0, start - width):start], 1)
    return found[-1] if found else None


def clauses(text: str, start: int, stop: int, ends: re.Pattern = CLAUSE_END):
    """``(start, end)`` of each clause of ``text[start:stop]`` (searched in the whole text, so a look-behind sees
    the character before ``start``)."""
    for end in ends.finditer(text, start, stop):
        yield start, end.start()
        start = end.end()
    yield start, stop


# A clause that denies the answer by pointing back at it instead of naming it ("This answer is not correct.", "None of
# this is right.", "These findings are not present.", "The opposite is true."): a reference to what came before (a
# pronoun, "the above", or a demonstrative or possessive with an answer noun) whose predicate says it is not the
# answer. The predicates are the closed class of truth and presence words, so "It is not hard to check" or "This is
# not a trick question" are no denial; the predicate must end its clause (or a comma follows), so "It is not the case
# that any smaller value works" is not read as one either.
_BACK_REFERENCE = (
    r"(?:this|that|it|these|those|they|the\s+above|everything(?:\s+above)?|all\s+(?:of\s+)?(?:this|that|it|these|those|them|the\s+above)"
    r"|(?:my|our|the|this|that|these|those)\s+(?:(?:final|whole|entire|original|earlier|previous)\s+)?(?:answers?|results?|values?|solutions?|choices?|options?|lists?|"
    r"findings?|labels?|diagnos[ie]s|numbers?|conclusions?|forecasts?|calls?|roots?|candidates?|work|reasoning|algebra|arithmetic|computations?|"
    r"calculations?|derivations?|arguments?|method|approach|logic|outputs?|printouts?|letters?)(?:\s+above)?)"
)
_OPENER = (r"\A[\W_]*(?:(?:but|and|so|well|ok|okay|actually|honestly|then\s+again|however|sadly|unfortunately|hmm+|wait|oh|no|"
           r"moment|momento|attends|attendez|warte|aspetta|espera|nein|non|"
           r"on\s+(?:second\s+thought|reflection|(?:closer\s+)?inspection)|in\s+hindsight|looking\s+back|come\s+to\s+think\s+of\s+it)\W+"
           # the writer noticing: "I just realized my whole approach is flawed", "we now see that this root is extraneous"
           r"|(?:I|we)\s+(?:(?:just|now|suddenly)\s+)?(?:realiz|realis|notic|see|saw)\w*(?:\s+that)?\s+)*")
_TRUTH = (r"(?:right|correct|true|valid|accurate|present|real|there|it|so|definite|certain|confirmed|the\s+(?:\w+\s+)?(?:answer|one|solution|result|case))"
          r"(?=\W*\Z|\s*,|\s+(?:either|at\s+all|though|after\s+all|anyway|really|any\s*more|any\s+longer|now|here)\b)")
_ADVERB = (r"(?:(?:actually|really|definitely|clearly|obviously|certainly|truly|even|quite|entirely|necessarily|probably|likely|"
           r"possibly|maybe|perhaps|most\s+likely)\s+)?")
_COPULA = r"(?:is|are|was|were|seems?|looks?|appears?|sounds?|feels?)"
DENIES_BY_REFERENCE = re.compile(
    _OPENER + "(?:"
    + _BACK_REFERENCE + r"(?:'s|'re|\s+" + _COPULA + r")\s+" + _ADVERB + r"(?:not\b|never\b)\s*" + _ADVERB + _TRUTH
    + "|" + _BACK_REFERENCE + r"\s+(?:isn't|aren't|wasn't|weren't|(?:do|does|did)(?:n't|\s+not)\s+(?:seem|look|appear|sound)(?:\s+to\s+be)?)\s+"
    + _ADVERB + _TRUTH
    + "|" + _BACK_REFERENCE + r"(?:'s|'re|\s+" + _COPULA + r")\s+" + _ADVERB
    + r"(?:absent|nonexistent|non-existent|made\s+up|fictional|fictitious|fabricated|invented|nonsense|garbage|rubbish|broken|flawed|"
    r"meaningless|worthless|unreliable|bogus|botched|invalid|extraneous|spurious|inadmissible|rejected)\b"
    # "this seems off", "that output looks off by one": off the mark (holdout118)
    + "|" + _BACK_REFERENCE + r"(?:'s|'re|\s+" + _COPULA + r")\s+" + _ADVERB + r"off(?=\W*\Z|\s*,|\s+by\b)"
    # "That output is from a previous, unrelated problem.", "this number was for another question": it answers
    # something else (a printed value pasted from another run; holdout118)
    + "|" + _BACK_REFERENCE + r"(?:'s|'re|\s+" + _COPULA + r")\s+" + _ADVERB + r"(?:from|for)\s+(?:(?:a|an|the|some|my)\s+)?"
    r"(?:(?:previous|earlier|different|other|another|unrelated|old|older|separate|last)\b[\s,]+){1,3}(?:\w+\s+)?"
    r"(?:problems?|questions?|cells?|runs?|exercises?|tasks?|parts?|prompts?|examples?|versions?|sessions?)\b"
    # "that can't be right", "it couldn't possibly be correct": a modal denial of the same predicates
    + "|" + _BACK_REFERENCE + r"\s+(?:can't|cannot|can\s+not|couldn't|could\s+not|mustn't|must\s+not)\s+" + _ADVERB + r"be\s+" + _ADVERB + _TRUTH
    # "the argument above does not establish it": the writer's work does not support what it gave
    + "|" + _BACK_REFERENCE + r"\s+(?:does|do|did)(?:n't|\s+not)\s+(?:actually\s+|really\s+)?(?:establish|prove|show|support|justify)\s+"
    r"(?:it|this|that|the\s+(?:answer|result|value|claim))\W*\Z"
    + r"|(?:none|neither|nothing)(?:\s+of\s+(?:them|these|those|the\s+options))?\s+(?:fits?|works?|applies|holds)\W*\Z"
    + r"|(?:none|neither|nothing)(?:\s+of\s+(?:this|that|it|these|those|them|the\s+above|my\s+\w+))?\s+(?:\w+\s+)?"
    + _COPULA + r"\s+" + _ADVERB + _TRUTH
    # "I don't have a correct answer.", "We have no solution.": the writer says there is no answer after giving one
    + r"|(?:I|we)\s+(?:(?:do|did)(?:n't|\s+not)\s+(?:really\s+|actually\s+)?have\s+(?:a|an|any|the)|have\s+no)\s+(?:(?!better|simpler|shorter|cleaner|nicer|faster|closed|general|elegant|different|other|second|neater)\w+\s+)?(?:answer|solution)(?:\s+(?:here|yet|at\s+all|for\s+(?:this|it|now)))?\W*\Z"
    + r"|(?:the\s+)?(?:opposite|reverse|contrary|converse)\s+(?:is\s+true|is\s+the\s+case|holds|is\s+correct|is\s+right)"
    + r"|(?:psych|sike|syke|gotcha|april\s+fools?)\b"
    # the same back-reference denial in the languages a policy switches to: "das stimmt nicht", "c'est faux",
    # "eso no es correcto", "non è giusto", "это неверно"
    + r"|(?:das|es|dies)\s+(?:stimmt|ist)\s+(?:so\s+)?(?:nicht(?:\s+(?:richtig|korrekt))?|falsch)\W*\Z|c'est\s+(?:faux|incorrect|pas\s+(?:bon|juste|correct))\W*\Z|(?:elle|il)\s+est\s+(?:fausse|faux|incorrecte?)\W*\Z"
    + r"|(?:eso|esto)\s+(?:no\s+es\s+(?:correcto|cierto)|es\s+(?:falso|incorrecto))\W*\Z|(?:non\s+è\s+(?:giusto|corretto)|è\s+sbagliato)\W*\Z"
    + r"|это\s+(?:неверно|неправильно|не\s+так)\W*\Z"
    + ")",
    re.IGNORECASE,
)


_CONCLUSION = re.compile(r"(?:,|\b(?:so|thus|hence|therefore|which\s+means))\s+", re.IGNORECASE)


def denies_by_reference(clause: str) -> bool:
    """Does ``clause`` deny the answer before it by referring back to it (see the comment above)? The denial may be
    the conclusion the clause draws after a comma or "so" ("substituting gives 3 on the left but -3 on the right, so
    this root is extraneous")."""
    if DENIES_BY_REFERENCE.search(clause) is not None:
        return True
    return any(DENIES_BY_REFERENCE.match(clause[found.end():]) is not None for found in _CONCLUSION.finditer(clause))


# Another value offered beside the answer: "45 also works.", "Then again, 45 is also defensible.", "B is just as
# likely." -- right after the other value, an additive particle (with at most a copula or modal before it), and a
# predicate of fitness after it; so "adding 6 seven times also works" (6 is not what works) offers nothing. The caller
# has checked that the value is not the answer and is not denied.
_FIT_WORDS = (r"(?:works?|fits?|holds?|satisf\w+|correct|right|valid|possible|plausible|likely|defensible|acceptable|"
              r"fine|reasonable|an?\s+(?:option|candidate|answer|possibility|alternative)|"
              r"(?:has|have)\s+(?:some\s+|real\s+|its\s+own\s+)?merits?|(?:has|have)\s+a\s+(?:case|point))")
_ADDITIVE_AFTER = re.compile(r"\A[\s)*$}\]]*(?:(?:is|was|would\s+be|could\s+be|might\s+be|may\s+be|seems|looks|'s)\s+)?"
                             r"(?:also|too|as\s+well|equally|just\s+as)\b"
                             # the particle inside the modal ("C could also be right") or after the predicate ("C is
                             # possible too", "41 works as well"; the afterwords sweep, #32)
                             r"|\A[\s)*$}\]]*(?:could|might|may|would|can)\s+(?:also|equally)\s+(?=be\b)"
                             r"|\A[\s)*$}\]]*(?:(?:is|was|would\s+be|could\s+be|might\s+be|may\s+be|'s)\s+)?(?=" + _FIT_WORDS + r"\s+(?:too|as\s+well)\b)",
                             re.IGNORECASE)
_FITS = re.compile(r"\b" + _FIT_WORDS + r"\b", re.IGNORECASE)


# ... or as still open (holdout60): "Option A remains under active consideration.", "45 is still on the table.", "B stays
# in play": right after the other value, "still" / "remains" and a predicate of a candidate not yet ruled out
_STILL_OPEN_AFTER = re.compile(
    r"\A[\s)*$}\]]*(?:(?:is|was|'s|are)\s+still|(?:still\s+)?(?:remains?|stays?))\s+(?:(?:very\s+)?(?:actively|still|quite|very)\s+)?"
    r"(?:under\s+(?:\w+\s+)?(?:consideration|review|discussion)|open|in\s+(?:play|contention|the\s+running)|on\s+the\s+table|"
    r"possible|viable|plausible|live|an?\s+(?:\w+\s+)?(?:option|candidate|possibility|contender|alternative))\b", re.IGNORECASE)


# ... or as a possibility the writer leaves open (holdout99): a modal of possibility and "be" right before the other
# value ("It could easily be C", "Might just as well be 13"), and after it nothing but the speaker's stance ("for all I
# know", "though", "too", "honestly", "I guess") -- the value closes its clause as "Could be C." does. A negation ("It
# couldn't be C", "could hardly be C") or a predicate of its own after the value ("It would be C for bubble sort", "it
# could easily be C in the worst case of quicksort") offers nothing
_MAY_BE_BEFORE = re.compile(r"\b(?:(?:could|might|may|can)(?:\s+(?:easily|well|very\s+well|just|also|equally|possibly|conceivably|plausibly|"
                            r"still|even|just\s+as\s+(?:well|easily|likely)|as\s+well))*\s+be"
                            # ... and in Spanish, Portuguese, French and Italian ("Podría ser la C, la verdad.", "Ça pourrait
                            # tout aussi bien être C, honnêtement.", "Pode muito bem ser C, sei lá.")
                            r"|(?:podría|podria|puede|poderia|pode)(?:\s+(?:muy\s+bien|muito\s+bem|perfectamente|perfeitamente|también|também|"
                            r"igualmente|igual|fácilmente|facilmente))*\s+ser(?:\s+(?:la|el|a|o))?"
                            r"|(?:pourrait|peut)(?:\s+(?:tout\s+aussi\s+bien|très\s+bien|aussi|bien|également|facilement))*\s+être"
                            r"|(?:potrebbe|può)(?:\s+(?:benissimo|anche|tranquillamente|facilmente|pure))*\s+essere)[\s*$(]*\Z", re.IGNORECASE)
# ... German puts the verb after the value ("Könnte aber genauso gut C sein."), read only as the clause's opening (so
# "Bei Quicksort könnte es C sein." is about quicksort)
_MAY_BE_BEFORE_DE = re.compile(r"\A[\W_]*(?:(?:aber|doch|und|oder|naja|hmm|es|das)[\W_]+)*könnte(?:\s+(?:es|aber|auch|genauso\s+gut|ebenso\s+gut|"
                               r"durchaus|gut|vielleicht))*[\s*$(]+\Z", re.IGNORECASE)
_SEIN_AFTER = re.compile(r"[\s*$)]*sein\b", re.IGNORECASE)
_NOTHING_MORE = re.compile(r"[\s.,!?…)*$]*\Z")
_STANCE_TAIL = re.compile(r"(?:[\s,;)*$}\]—–-]*(?:for\s+all\s+(?:I|we)\s+know|though|tho|too|as\s+well|also|either|instead|honestly|"
                          r"to\s+be\s+honest|tbh|ngl|lol|I\s+(?:guess|suppose|think|reckon)|who\s+knows|for\s+that\s+matter|really|"
                          r"equally|just\s+as\s+(?:easily|well|likely)|for\s+what\s+it'?s\s+worth|"
                          r"la\s+verdad|sinceramente|quién\s+sabe|también|também|honnêtement|franchement|qui\s+sait|aussi|sei\s+lá|quem\s+sabe|"
                          r"chissà|onestamente|anche|ehrlich\s+gesagt|wer\s+weiß|auch)(?![^\W\d_]))+[\s.,!?…)*$]*\Z", re.IGNORECASE)


# ... or as one a grader should pay (stop 65): a verdict of credit on the other value, after it ("48 should also get full
# marks", "48 would be accepted", "48 counts too") or before it ("I'd accept 48 too", "A grader should accept C as
# well", "Accept 48 as well", "Full marks for 48"; partial credit is no credit), with no negation over it ("48 gets no credit", "I wouldn't accept 48", "No grader
# should accept 48" deny it)
_CREDIT = (r"(?:accepted|acceptable|marked\s+(?:as\s+)?(?:correct|right)|graded\s+(?:as\s+)?(?:correct|right)|"
           r"(?:given|get|gets|getting|earn|earns|deserves?|receives?)\s+(?:full\s+)?(?:credit|marks|points)|"
           r"counts?\s+(?:too|as\s+well|also|as\s+(?:correct|right|valid))|credited)")
_CREDIT_AFTER = re.compile(r"[\s)*$}\]]*(?:(?:should|would|could|must|will|can|may|might)\s+)?(?:also\s+|equally\s+)?"
                           r"(?:be\s+)?(?:also\s+|equally\s+)?" + _CREDIT + r"\b", re.IGNORECASE)
_CREDIT_BEFORE = re.compile(
    r"(?:\b(?:I'?d|I\s+would|we'?d|we\s+would|I'?ll|I\s+will|graders?|markers?|examiners?|you|they|(?:should|would|could|must|will|can|may))"
    r"\s+(?:(?:should|would|could|must|will|can|may)\s+)?(?:also\s+|happily\s+|gladly\s+|equally\s+)?"
    r"(?:accept|allow|credit|mark\s+(?:as\s+)?(?:correct|right)|give\s+(?:full\s+)?(?:credit|marks)\s+(?:to|for))"
    r"|\A[\W_]*(?:please\s+)?(?:also\s+)?(?:accept|allow)|\bfull\s+(?:credit|marks)\s+(?:for|to))"
    r"\s+(?:the\s+)?(?:answer\s+|value\s+|option\s+)?[\s$*({\[\\]*\Z",
    re.IGNORECASE)
_NEGATION_IN_CLAUSE = re.compile(r"(?:\b(?:no|not|never|nobody|none|neither|nor|without)\b|n't)", re.IGNORECASE)
# a contrast later in the clause that sets the values apart takes the verdict back: it names the other value again, or
# says "only", or calls something wrong ("A careless grader would accept 48, but 48 is 6 × 8", "B and D are both
# plausible at first glance, though D fails the check", "42 and 48 are both even, but only 42 is 6 × 7"); a contrast
# that only picks ("42 and 48 both work, but I'd go with 42") or doubts ("..., but I'm not sure") keeps the offer
_CONTRAST = re.compile(r"\b(?:but|however|though|although|yet|except|until|unless)\b", re.IGNORECASE)
_SETS_APART = re.compile(r"\b(?:only|wrong|incorrect|fails?|failed|false|invalid|ruled\s+out|excluded|impossible)\b", re.IGNORECASE)


def set_apart_later(clause: str, at: int, others: Iterable[str]) -> bool:
    """Does a contrast in ``clause`` after ``at`` set the values apart (the comment above)? ``others``: the texts of
    the other values, any of which named again after the contrast sets it apart.

    >>> set_apart_later("B and D are both plausible, but D is 6 × 8.", 26, ["D"])
    True
    >>> set_apart_later("42 and 48 both work, but I'd go with 42.", 19, ["48"])
    False
    """
    contrast = _CONTRAST.search(clause, at)
    if contrast is None:
        return False
    rest = clause[contrast.end():]
    if _SETS_APART.search(rest) is not None:
        return True
    for other in (other.strip() for other in others):
        named = re.search(r"(?<![\w.])" + re.escape(other) + r"(?![\w.])", rest) if other else None
        if named is not None and _PREFERRED_AFTER.match(rest, named.end()) is None:
            return True  # "..., but D is 6 × 8" (not "..., but D is the better answer": a pick of D)
    return False


# the other value named after the contrast as the better one: "but 48 is the intended one", "but D is more likely"
_PREFERRED_AFTER = re.compile(r"[\s)*$}\]]*(?:is|'s|seems|looks|would\s+be|feels)\s+(?:(?:probably|slightly|a\s+bit|somewhat|much)\s+)?"
                              r"(?:the\s+(?:intended|expected|better|best|right|correct|real|actual|likelier|more\s+likely)|better|"
                              r"right|correct|likelier|more\s+(?:likely|correct|accurate|common|standard)|preferred|"
                              r"my\s+(?:answer|pick|choice))\b", re.IGNORECASE)


# ... or ranked right behind the answer (stop 65): "B, with D a close second", "My second choice would be D" -- a
# ranking, not a choice, as "A > B > D" is (holdout28); "D is a distant second at best" and "the second option, B" rank
# nothing
_CLOSE_SECOND = r"(?:a|the|my)\s+(?:very\s+)?(?:close|near)\s+(?:second|runner[\s-]?up)\b"  # "a close second"
_NEXT_CHOICE = r"\b(?:my|our)\s+(?:second|next|runner[\s-]?up|backup|fallback)\s+(?:choice|pick|answer|guess|option|best)"  # "my second choice"
_RUNNER_UP_AFTER = re.compile(r"[\s,)*$}\]]*(?:(?:is|as|being)\s+)?" + _CLOSE_SECOND, re.IGNORECASE)
_RUNNER_UP_BEFORE = re.compile(_NEXT_CHOICE + r"\s*(?:would\s+be|is|will\s+be|:)\s*(?:option\s+)?[\s$*({\[\\]*\Z", re.IGNORECASE)
_RUNNER_UP_WORDS = re.compile(r"\b" + _CLOSE_SECOND + r"|" + _NEXT_CHOICE + r"\b", re.IGNORECASE)


def ranks_a_runner_up(clause: str) -> bool:
    """Does ``clause`` rank something right behind the answer ("with 48 a close second", "my second choice")? Such a
    clause is read for its values even where it would otherwise describe other quantities (``commitment``)."""
    return _RUNNER_UP_WORDS.search(clause) is not None


def credited(clause: str, value_start: int, value_end: int) -> bool:
    """Does ``clause`` give the value at ``clause[value_start:value_end]`` a grader's credit (see the comment above)?

    >>> credited("I'd accept 48 too.", 11, 13)
    True
    >>> credited("48 should also get full marks.", 0, 2)
    True
    >>> credited("I wouldn't accept 48.", 19, 21)
    False
    >>> credited("48 gets no credit.", 0, 2)
    False
    """
    before = clause[:value_start]
    if _CREDIT_AFTER.match(clause, value_end) is None and _CREDIT_BEFORE.search(before) is None:
        return False  # (speed: the credit itself first; most values get none)
    return not _NEGATION_IN_CLAUSE.search(before) and not set_apart_later(clause, value_end, [clause[value_start:value_end]])


# Two values joined as one subject of a predicate of fitness or credit: "42 and 48 both work", "Either 42 or 48 is
# correct", "42 or 48, either works", "Both 42 and 48 should be accepted" -- the answer and another value offered
# together (stop 65). The joint is a coordinator between them and the predicate right after the second; a negation
# anywhere in the clause ("42 and 48 are not both correct", "Neither 42 nor 48 ...") offers nothing.
_JOINED = re.compile(r"[\s)*$}\]]*(?:,\s*)?(?:and|or|&|/|,)\s*(?:(?:also|maybe|perhaps)\s+)?[\s(*${\\]*\Z", re.IGNORECASE)
_JOINT_FIT_AFTER = re.compile(
    r"[\s)*$}\]]*,?\s*(?:(?:are|is|were|was|would\s+be|could\s+be|should\s+be|can\s+be|may\s+be|might\s+be|seem|seems|look|looks)\s+)?"
    r"(?:(?:both|either(?:\s+one)?|each|all|equally|also)\s+)?(?:(?:are|is|would\s+be|should\s+be|be)\s+)?"
    r"(?:(?:equally|also|fully)\s+)?(?:" + _FIT_WORDS + r"|" + _CREDIT + r"|(?:should|would|could|must|will|can|may)\s+(?:also\s+)?be\s+" + _CREDIT + r")\b",
    re.IGNORECASE)


def offered_together(clause: str, answer_spans: list[tuple[int, int]], other_spans: list[tuple[int, int]]) -> bool:
    """Does ``clause`` join an answer value and another value as one subject of fitness or credit (the comment above)?
    Spans are (start, end) in ``clause``.

    >>> offered_together("42 and 48 both work.", [(0, 2)], [(7, 9)])
    True
    >>> offered_together("Either 42 or 48 is correct.", [(7, 9)], [(13, 15)])
    True
    >>> offered_together("42 is right and 48 is wrong.", [(0, 2)], [(16, 18)])
    False
    >>> offered_together("42 and 48 are not both correct.", [(0, 2)], [(7, 9)])
    False
    >>> offered_together("B and D are both plausible at first, but D is 6 × 8.", [(0, 1)], [(6, 7)])
    False
    """
    if not answer_spans or not other_spans or _NEGATION_IN_CLAUSE.search(clause):
        return False
    spans = sorted([(a, b, True) for a, b in answer_spans] + [(a, b, False) for a, b in other_spans])
    others = [clause[start:end] for start, end in other_spans]
    for (_, first_end, first_is_answer), (second_start, second_end, second_is_answer) in zip(spans, spans[1:]):
        if first_is_answer != second_is_answer and _JOINED.match(clause[first_end:second_start]) \
                and (fit := _JOINT_FIT_AFTER.match(clause, second_end)) and not set_apart_later(clause, fit.end(), others):
            return True
    return False


def offers_alternative(clause: str, value_end: int, value_start: int | None = None) -> bool:
    """Does ``clause`` offer the value ending at ``value_end`` as another fitting answer, or as one still open, or (with
    ``value_start``) as a possibility left open (see the comments above), or as one a negated exclusion keeps open
    ("I can't rule out 48", "48 isn't out of the question": :mod:`.double_negation`)? A number's SI unit (:func:`.units.written_unit`)
    is read past first: the offer follows the quantity, "80 km/h is also a reasonable answer" as "80 is also ..."
    (holdout100)."""
    if value_end and clause[value_end - 1].isdigit() and written_unit(clause, value_end) is not None:
        value_end = UNIT_AFTER_VALUE.match(clause, value_end).end()  # "80 km/h is also a reasonable answer" (holdout100)
    if _STILL_OPEN_AFTER.match(clause[value_end:]):
        return True
    if value_start is not None and kept_open(clause, value_start, value_end):
        return True  # "though I can't rule out 48", "48 isn't wrong", "Not that C would be wrong" (.double_negation)
    if value_start is not None and credited(clause, value_start, value_end):
        return True  # "I'd accept 48 too", "48 should also get full marks" (stop 65)
    if _RUNNER_UP_AFTER.match(clause, value_end) or value_start is not None and _RUNNER_UP_BEFORE.search(clause, 0, value_start):
        return True  # "B, with D a close second", "My second choice would be D" (stop 65)
    if value_start is not None and _STANCE_TAIL.match(clause, value_end) and _MAY_BE_BEFORE.search(clause, 0, value_start):
        return True
    if value_start is not None and (sein := _SEIN_AFTER.match(clause, value_end)) and _MAY_BE_BEFORE_DE.search(clause, 0, value_start) \
            and (_STANCE_TAIL.match(clause, sein.end()) or _NOTHING_MORE.match(clause, sein.end())):
        return True  # "Könnte aber genauso gut C sein.", "..., ehrlich gesagt."
    particle = _ADDITIVE_AFTER.match(clause[value_end:])
    return particle is not None and _FITS.search(clause, value_end + particle.end()) is not None


@per_text  # (speed: the negation, alternative and bound checks read the same window)
def before_value(text: str, start: int) -> str:
    """The words before the value at ``text[start:]`` (at most :data:`WINDOW` characters), without the markup that
    leads into it (``\\boxed{``, ``$``, ``**``, ``(``, ``:``)."""
    window = text[max(0, start - WINDOW):start]
    return window[:MARKUP_END.search(window).start()]


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "CHECK")

# speed only (issue #35): the markup end searched from the end of the window (regex_scan; same results)
from polyreward.verifiers.regex_scan import tail_scanned  # noqa: E402

MARKUP_END = tail_scanned(MARKUP_END)
