"""Values after an answer that state no other answer (holdout11): the values a later clause holds when it is a check
the writer did and ticked, the explanation of a value the writer has just denied, or a declared degree of belief.

:func:`.commitment.later_disowns` reads every clause after an answer for another value; these say which values of a
clause are not one:

    TICKED_CHECK       "Sanity check: perimeter 2(9 + 6) = 30 ✓" -- a check heading, an operation before "=", a tick
    explains_denied    "\\boxed{6} (not 8: 2^8 = 256)", "not 24 (24 = 4! would be ...)" -- the denied number named
                       again between the denial and the value ("not 45, it's 46" names none and still conflicts)
    degree_of_belief   "[confidence 0.95]", "(confidence: 95%)" -- a share after a word of confidence
    names_a_part       "wrong, I messed up step 2" -- a numeral naming a part of the work is a label (holdout12)
    without_apology    "EDIT: 45, sorry." -- an apology after a value does not stop it closing its clause (holdout12)
    fractions_as_values "EDIT: \\frac{2}{3}" -- a LaTeX fraction of two numbers is the value 2/3 (holdout12)
    operand_after      "\\boxed{42} - 3 = 39" -- a box that arithmetic goes on from is a term, not the value (holdout16)
    lead_ins_only      "Actually, on reflection, (D)." -- short lead-ins set off by commas before a bare value are, like
                       "Hmm, 45.", no words of the clause's own: the value is the whole clause (holdout66)

Reconstructed rule (ours), not a published algorithm; every pattern runs on one clause.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs


# a check the writer did and ticked: a check heading, an operation before "=", a tick at the end ("Sanity check:
# perimeter 2(9 + 6) = 30 ✓"): it confirms what the problem gave, whatever quantity it computes, and states no answer
TICKED_CHECK = re.compile(r"\A\W*(?:sanity\s+|double[\s-]?|quick\s+)?(?:check(?:ing)?|verif(?:y|ying|ication)|proof)\b[^\n=]{0,80}?"
                          r"\d\s*\)?\s*(?:[-+*×·/]|\\times|\\cdot)[^\n=]{0,60}=[^\n]{0,40}?[✓✔]\W*\Z", re.IGNORECASE)
# a degree of belief, not a value: "[confidence 0.95]", "(confidence: 95%)", "certainty: 0.9"
_CONFIDENCE_BEFORE = re.compile(r"\b(?:confidence|certainty|credence|probability|sure)(?:\s+(?:level|score))?\W{0,3}\Z", re.IGNORECASE)


# ... or right after it: "I'm 95% confident", "a 90% chance of being right" (holdout18)
_CONFIDENCE_AFTER = re.compile(r"\s*%?\s*(?:confiden\w*|sure|certain|chance|likely|probability)\b", re.IGNORECASE)


def degree_of_belief(clause: str, value: re.Match) -> float | None:
    """The share (0-1) that ``value`` declares when a word of confidence stands right before or after it, else None."""
    if _CONFIDENCE_BEFORE.search(clause, max(0, value.start() - 30), value.start()) is None and (
            _CONFIDENCE_AFTER.match(clause, value.end()) is None):
        return None
    number = value.group().rstrip("%")
    try:
        top, _, bottom = number.partition("/")  # "with probability 3/4"
        share = float(top) / float(bottom) if bottom else float(number) / (100 if value.group().endswith("%") or float(number) > 1 else 1)
    except (ValueError, ZeroDivisionError):
        return None
    return share if 0 <= share <= 1 else None


def explains_denied(clause: str, value: re.Match, denied: list[re.Match]) -> bool:
    """Is ``value`` part of the explanation of a value the clause denied before it: the stretch from the denial to it
    names the denied number again ("not 8: 2^8 = 256", "not 24 (24 = 4! ...)")? A new value after a denial ("not 45,
    it's 46") names none and still conflicts."""
    for earlier in denied:
        if earlier.end() <= value.start():
            number = re.escape(earlier.group().strip("%"))
            if re.search(rf"(?<![\d.]){number}(?![\d.])", clause[earlier.end():value.start()]):
                return True
    return False


_LATEX_FRACTION = re.compile(r"\\[dt]?frac\{(\d+)\}\{(\d+)\}")
# an apology or interjection closing the clause after a value: "EDIT: 45, sorry.", "Update: 45 (my bad)."
_APOLOGY_TAIL = re.compile(r"\A[\s)*$]*[,(\-\u2014]\s*(?:sorry|so\s+sorry|my\s+bad|apologies|oops|whoops"
                          # holdout23: an admission of the earlier error ("It's E, I was wrong."; French, Spanish, German,
                          # Italian, Portuguese), and a reason after a comma ("is E, since ...", "es E, porque ...")
                          r"|I\s+was\s+wrong|I\s+made\s+a\s+mistake|je\s+me\s+suis\s+tromp[ée]e?|me\s+equivoqu[ée]|"
                          r"ich\s+habe\s+mich\s+geirrt|mi\s+sono\s+sbagliat[oa]|eu\s+errei|"
                          r"(?:since|because|given\s+that|porque|ya\s+que|car|parce\s+que|puisque|weil|denn|perch[ée]|poich[ée])\b[^\n]*)"
                          r"\W*\Z", re.IGNORECASE)
# a numeral that names a part of the work ("step 2", "line 3", "case 1", "Eq. 4"): a label, not a value
_PART_LABEL_BEFORE = re.compile(r"\b(?:steps?|lines?|parts?|cases?|equations?|eqs?|rows?|columns?|items?|pages?|figures?|figs?|"
                                r"stages?|attempts?|methods?|approach|problems?|questions?|exercises?|lemmas?|sections?|"
                                r"paragraphs?|sub-?questions?)\.?\s*\(?\Z", re.IGNORECASE)


def fractions_as_values(clause: str) -> str:
    """``clause`` with each LaTeX fraction of two numbers written ``a/b``, the form a later value is read in."""
    return _LATEX_FRACTION.sub(r"\1/\2", clause) if "frac" in clause else clause


def without_apology(after: str) -> str:
    """The text after a value without a closing apology (", sorry", "(my bad)"), which states nothing of its own."""
    return _APOLOGY_TAIL.sub("", after)


# a clause that opens a check of the answer ("Let me verify: LHS = ... = 29", "Check: plugging in, ..."), and words that
# turn a check into a correction ("Check: actually 45", "Verify: that's wrong, it should be 45")
_CHECK_WORDS = (r"(?:let(?:'s|\s+me|\s+us)\s+)?(?:verify(?:ing)?|check(?:ing)?|double[- ]check(?:ing)?|sanity[- ]check|"
                r"verification|plugging|plug|substituting|substitute)\b")
VERIFYING = re.compile(r"\W*" + _CHECK_WORDS, re.IGNORECASE)
# a check that ends on a clause confirming the answer ("Wait -- let me double-check by counting directly: by 2: 50, by 5:
# 20 ... Coprime: 100 - 60 = 40. Confirmed, the answer is 40."; holdout52), its work arriving at the answer (the clause
# before the confirmation ends on it): the values inside it are the check's work; a clause that corrects, or names an
# answer without confirming it, ends the check unconfirmed. It may open after a pause ("Wait -- let me verify")
CHECK_OPENER = re.compile(r"\W*(?:(?:wait|hmm+|ok(?:ay)?|now)\W+)?" + _CHECK_WORDS, re.IGNORECASE)
CONFIRMING = re.compile(r"\bconfirm(?:s|ed)?\b|\bverified\b|\bchecks\s+out\b|\bconsistent\b|\bas\s+(?:before|expected|claimed)\b|[✓✔]",
                        re.IGNORECASE)
_CHECK_OVERTURNED = re.compile(r"\b(?:answer|actually|instead|wrong|incorrect|mistake|error|typo|oops|should\s+be|correct(?:ed|ion)|"
                               r"revis\w*|redo|but|however|it's|it\s+is)\b", re.IGNORECASE)


def confirmed_check_end(clause_spans, text: str, answers) -> int | None:
    """Where a check ends when it ends on a clause that confirms the answer (:data:`CONFIRMING`; the clause's values
    are all the answer, and the clause before it ends on the answer or states no value), read over ``clause_spans``
    (the clauses of the check from the one that opens it, at most 12); ``answers(clause)`` says of each value of a clause,
    in order, whether it is the answer. None when a clause corrects or names an answer first (:data:`_CHECK_OVERTURNED`)."""
    arrived = True
    for number, (first, last) in enumerate(clause_spans):
        clause = text[first:last]
        flags = answers(clause)
        if CONFIRMING.search(clause) and flags and all(flags):
            return last if arrived else None
        if number >= 12 or _CHECK_OVERTURNED.search(clause):
            return None
        if clause.strip():
            arrived = not flags or flags[-1]
    return None


# a label that opens the explanation of the answer given before it ("Justification: Perimeter = 30, so ...",
# "**Why:** ..."): what follows derives the answer, as under a heading of its own (holdout37)
EXPLANATION_LABEL = re.compile(r"\W*(?:Explanation|Reasoning|Justification|Rationale|Derivation|Working|Work|Why|Proof)[ \t]*(?:\*\*)?[ \t]*:(?:\*\*)?",
                               re.IGNORECASE)
# a verdict against a candidate ("so this candidate is inadmissible", "this root is spurious")
REJECTED = re.compile(r"\b(?:inadmissible|spurious|extraneous|invalid|impossible|rejected|ruled\s+out|discard\w*|not\s+a\s+solution)\b", re.IGNORECASE)
CORRECTING = re.compile(r"\b(?:actually|instead|wrong|incorrect|mistake|error|should\s+be|not|no|never|fails?|but|however|extraneous|"
                         r"reject\w*|invalid|contradict\w*|≠)\b|n't\b|≠|\\neq?\b", re.IGNORECASE)


# a value the writer then says they stand by: "..., and I believe mine", "..., which I trust", "and I'm sticking with it"
STANDS_BY_AFTER = re.compile(
    r"[\s)*$]*,?\s*(?:and|which|so)\s+(?:I|we)(?:'m|\s+am|'ll|\s+will)?\s+(?:\w+\s+)?(?:believe|trust|stand(?:ing)?\s+by|stick(?:ing)?\s+(?:with|to)|"
    r"maintain|keep|prefer|go(?:ing)?\s+with|confident|sure|certain|convinced)\b", re.IGNORECASE)


# "in words", "written out", "spelled out" after a number in words: how it is written, not another word of it
IN_WORDS_TAIL = re.compile(r"\s+(?:in\s+words|written\s+out|spelled\s+out|in\s+full)(?=[\s.!?)]*\Z)", re.IGNORECASE)


# the modulus of a congruence: "2^{2024} \\equiv \\boxed{216} \\pmod{1000}", "\\equiv 3 \\bmod 7", "x ≡ 4 (mod 9)" (holdout52)
_MODULUS_BEFORE = re.compile(r"(?:\\[pb]?mod(?![A-Za-z])|\bmod(?:ulo)?\b|\\text\s*\{\s*mod\s*\})[\s{$]*\Z", re.IGNORECASE)


def names_a_part(clause: str, at: int) -> bool:
    """Is the numeral at ``at`` the label of a part of the work ("step 2", "Eq. (4)"), the point where the answer
    is taken ("the minimum value is -3 (at x = 3)"; holdout23) or the modulus of a congruence ("\\pmod{1000}";
    holdout52), or the bound of a condition on a named quantity ("More generally, for $ax - b = c$ with $a \\neq 0$ the
    solution is $x = (b + c)/a$", "for all n ≥ 1", "pour a ≠ 0"; holdout74), not a value?"""
    window = max(0, at - 24)
    return (_PART_LABEL_BEFORE.search(clause, window, at) is not None or _AT_POINT_BEFORE.search(clause, window, at) is not None
            or _MODULUS_BEFORE.search(clause, window, at) is not None or _CONDITION_BOUND_BEFORE.search(clause, max(0, at - 40), at) is not None)


# a condition on a named quantity: a word of condition, one symbol (a letter, a subscripted letter, a Greek command), a
# relation other than "=" -- the value after it bounds the symbol's domain, it states nothing ("with $a \\neq 0$", "for
# n > 2", "whenever k ≥ 1", "für a ≠ 0"); without the condition word ("Actually x ≥ 9.") a later bound is still read
_CONDITION_BOUND_BEFORE = re.compile(
    r"(?:\b(?:with|for|where|if|when|whenever|given|assuming|provided|unless|as\s+long\s+as|pour|für|con|para|per|mit|si|wenn|при|для)"
    r"\s+(?:all\s+|every\s+|any\s+|each\s+)?)\$?\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w{1,3}\}?)?\s*"
    r"(?:≠|≤|≥|<|>|!=|\\(?:neq?|geq?|leq?|gt|lt|geqslant|leqslant)(?![A-Za-z]))\s*\Z", re.IGNORECASE)


def of_a_denied_quantity(clause: str, at: int) -> bool:
    """Is the value at ``at`` what a quantity the writer just denied being asked would be ("The question asks for
    daily earnings, not weekly earnings (which would be $126)"; holdout25)?"""
    return _DENIED_QUANTITY_BEFORE.search(clause, max(0, at - 80), at) is not None


_DENIED_QUANTITY_BEFORE = re.compile(r"\bnot\s+(?:the\s+|an?\s+)?(?:[A-Za-z-]+\s+){0,3}[A-Za-z-]+\s*[,(]?\s*(?:which|that)\s+would\s+(?:be|have\s+been)"
                                     r"\s*(?:about\s+|roughly\s+)?\$?\Z", re.IGNORECASE)
_AT_POINT_BEFORE = re.compile(r"\b(?:at|when|where|attained\s+at|reached\s+at|occurs\s+at)\s+[A-Za-z]\s*=\s*\Z", re.IGNORECASE)


# arithmetic that goes on from a box on its line: "$\\boxed{42} - 3 = 39$", "\\boxed{42} \\times 2" -- an operator and a
# number (or a box, a fraction, a root) right after the box make the box a term of a longer expression, not the value
# stated ("\\boxed{42}^\\circ", "\\boxed{42} \\text{ cm}", "\\boxed{x^2} + C", "\\boxed{42}\n- Step 2" go on with no number)
_GAP = r"(?:[^\S\n]|\\[,;:! ]|\\q?quad(?![A-Za-z])|\$)*"  # spaces, LaTeX spacing, the end of the math
_OPERAND_AFTER = re.compile(_GAP + r"(?:[-+*/×÷−]|\\(?:times|cdot|div|pm)(?![A-Za-z])|(?i:minus|plus|times|(?:divided|multiplied)\s+by)\b(?:\s+(?i:the)\b)?)"
                            + _GAP + r"(?:\d|\\(?:boxed|[dt]?frac|sqrt)(?![A-Za-z]))")


def operand_after(text: str, end: int) -> bool:
    """Does arithmetic go on from the answer ending at ``text[end]`` (see :data:`_OPERAND_AFTER`)?"""
    return _OPERAND_AFTER.match(text, end) is not None


# a mark against a box that changes the value it shows (holdout115): a sign right before it that no operand precedes
# ("$$-\\boxed{15}$$", "x = -\\boxed{15}", "\\mp\\boxed{7}"); right after it a percent sign, a power, a prime, a base
# subscript, a scale word or suffix ("\\boxed{42}\\%", "\\boxed{12}^{2}", "\\boxed{42}^{\\prime}", "\\boxed{42}_{8}",
# "\\boxed{42}\\text{ thousand}", "\\boxed{42}k"), or a factorial sign inside the math ("$\\boxed{42}!$"; "$\\boxed{42}$!"
# outside it is an exclamation); a degree, an ordinal or a unit after the box ("\\boxed{24}^\\circ", "\\boxed{15}^{th}",
# "\\boxed{42}\\text{ cm}") keeps the value
_SIGN_BEFORE = re.compile(r"(?:\A|[=({\[:]|\\[\[(]|\b(?:is|be|was|are)\b)" + _GAP
                          + r"(?P<sign>[-−]|\\mp|\\pm)(?![A-Za-z])" + _GAP + r"\Z")
_SCALE_WORD = r"(?:thousand|million|billion|trillion|dozen|hundred)s?"
_MARK_AFTER = re.compile(
    r"[^\S\n]*(?P<mark>\\?%|\^(?:\{[^\S\n]*-?\d{1,3}[^\S\n]*\}|\d)|\^\s*\{?\s*\\prime\s*\}?|_\{?\d{1,2}\}?|!(?=[^\S\n]*(?:\$|\\\]|\\\)))"
    r"|\\(?:text|mathrm|mbox)\s*\{\s*" + _SCALE_WORD + r"\s*\}|k(?![A-Za-z])|[^\S\n]+" + _SCALE_WORD + r"\b)")
# a box inside the argument of a command that makes a new value of it: "\\frac{1}{\\boxed{42}}", "\\sqrt{\\boxed{42}}",
# "\\overline{\\boxed{42}}", "10^{\\boxed{3}}"
_INSIDE_COMMAND = re.compile(r"(?:\\[dt]?frac\s*\{[^{}]{0,40}\}\s*|\\(?:[dt]?frac|sqrt(?:\[[^\]]{0,5}\])?|overline|bar|log|ln|sin|cos|tan)\s*|[\^_]\s*)\{" + _GAP + r"\Z")


def inside_command(text: str, start: int) -> bool:
    """Is the box starting at ``text[start]`` the argument of a command that makes another value of it
    (:data:`_INSIDE_COMMAND`: ``\\frac{1}{\\boxed{42}}`` is 1/42, not 42)?"""
    return _INSIDE_COMMAND.search(text[max(0, start - 60):start]) is not None


def _scale_written(mark: str) -> str:
    """A scale word or suffix after a box as plain text to glue to its value: "\\text{ thousand}" -> " thousand", "k" -> "k"."""
    word = re.sub(r"\\(?:text|mathrm|mbox)\s*\{|\}", "", mark).strip()
    return word if len(word) == 1 else " " + word


def marked_box_value(text: str, start: int, end: int, value: str) -> str | None:
    r"""The value a box at ``text[start:end]`` shows with the marks against it, when a sign before it or a percent
    sign or power after it changes ``value`` (:data:`_SIGN_BEFORE`, :data:`_MARK_AFTER`), else None: the mark is
    part of what the writer answers, so ``$$-\boxed{15}$$`` answers -15 and ``\boxed{42}\%`` answers 42%.

    >>> marked_box_value("$$-\\boxed{15}$$", 3, 13, "15")
    '-15'
    >>> marked_box_value("So $\\boxed{42}\\%$ of the seats.", 4, 14, "42")
    '42\\%'
    >>> marked_box_value("$$\\boxed{24}^\\circ$$", 2, 12, "24") is None
    True
    """
    sign = _SIGN_BEFORE.search(text[max(text.rfind("\n", 0, start) + 1, start - 200):start])  # on the box's own line
    mark = _MARK_AFTER.match(text, end)
    if sign is None and mark is None:
        return None
    shown = value if mark is None else value + (mark.group("mark") or _scale_written(mark.group()))
    if sign is None:
        return shown
    if sign.group("sign") not in "-−":
        return f"{sign.group('sign')} {shown}"  # "\mp\boxed{7}": both signs
    if re.fullmatch(r"-?\d+(?:\.\d+)?", shown):
        return shown[1:] if shown.startswith("-") else "-" + shown  # "-\boxed{15}" is -15, "-\boxed{-3}" is 3
    return f"-({shown})"


# a chain that goes on from a box to a plain number ending it: "$\\boxed{2^{10}} = 1024$ subsets" (holdout57)
_CHAIN_END_AFTER = re.compile(r"[^\S\n]*=[^\S\n]*(-?\d+(?:\.\d+)?)(?=[^\S\n]*(?:\$|\\\)|\\\]|[.,;!?\n]|\Z|[^\S\n]+[^\W\d_]))")


def chain_end_after(text: str, end: int) -> str | None:
    """The number a chain ends on when it goes on from the box ending at ``text[end]`` with "= value" and stops
    there ("\\boxed{2^{10}} = 1024"): the box and its value are one chain, and the chain's end is what the writer
    answers, so the work-avoidance guard judges that end (a value) and a wrong end is a wrong answer."""
    found = _CHAIN_END_AFTER.match(text, end)
    return found.group(1) if found is not None else None


# a word that points at the value after it ("it is 73", "I meant 45", "the answer is actually D"), the strong ones
# ("meant", "answer", "actually"), and the text of an option or a gloss after a letter pointed at ("D. Repeat troponin",
# "it's A, Liu Bang founded the Han", "I meant A — Liu Bang", "it's A (Liu Bang)." closing its clause; holdout68), never
# a list that goes on with another letter ("it's A, B and D that are wrong"), a comma before a reason or a relative
# clause ("people guess A, because ...") or a parenthesis the clause goes on after ("A (LAD) would show ...")
_GLOSS_TEXT = r"(?![A-Z]\b)[A-Za-z][^.;!?\n]{0,80}?[*\s]*[.!]?[*\s]*\Z"
OPTION_TEXT_AFTER = re.compile(
    r"[*\s]*(?:[.)][^\S\n]*|,[^\S\n]*(?!(?i:because|since|as|which|who|that|but|though|although|while|when|if|and|or|so|unless)\b)|"
    r"[^\S\n]*(?:[\u2014\u2013:]|-{1,2}[^\S\n])[^\S\n]*)" + _GLOSS_TEXT + r"|[^\S\n]*\([^()\n]{1,80}\)[*\s]*[.!]?[*\s]*\Z")
POINTER = re.compile(
    r"(?:\b(?:is|be|was|were|are|equals?|meant|mean|means|guess|answer|result|value|it|it's|its|says?|read|reads|"
    r"becomes?|gives?|gets?|yields?|makes?(?:\s+(?:that|it))?|choose|pick|go\s+with|instead|as|to|so|thus|hence|therefore|"
    r"ist|est|es|é|è|sind|son|это|rather|plutôt|eher|piuttosto|más\s+bien|(?:typo|slip|misprint|mistake|error)\s+for)|'s|=|:|->|→|⇒|是|为|は)"
    r"(?:\s+(?:actually|really|in\s+fact|truly|definitely|clearly))?\W*\Z",  # "the best answer is actually D" (holdout44)
    re.IGNORECASE,
)
# ("That box is a typo for 45": the value the writer meant)
STRONG_POINTER = re.compile(r"(?:\b(?:meant|mean|guess|answer|it's|it\s+is|instead|actually|should\s+(?:read|say|be)|"
                            r"(?:typo|slip|misprint|mistake|error)\s+for)|:)\W*\Z", re.IGNORECASE)


# a clause that only relates other values to the answer: "That is 16 more than Ben's 8." (holdout45); never one that
# names the answer, a correction or a verdict
OTHER_VALUE_CLAUSE = re.compile(
    r"(?=[^\n]*\b\d+(?:\.\d+)?\s+(?:more|less|fewer|greater|smaller|larger|higher|lower|older|younger)\s+than\b)"
    r"(?![^\n]*\b(?:answer|actually|instead|wrong|correct|right|mistake|error)\b)",
    re.IGNORECASE)


# short lead-ins, each of one to three words and set off by a comma, up to three of them: "Actually, on reflection,",
# "Hmm, on second look,", "OK, after all," -- the words of no statement of the clause's own
_LEAD_INS = re.compile(r"\A\W*(?:[A-Za-z']+(?:[^\S\n]+[A-Za-z']+){0,2}[^\S\n]*,[^\S\n]*){1,3}\Z")


def lead_ins_only(before: str) -> bool:
    """Is ``before`` (a clause up to its value) only short lead-ins set off by commas ("Actually, on reflection,")?
    A value after them closes the clause as a statement, as after at most two words."""
    return _LEAD_INS.match(before) is not None


# a line the writer labels as beyond the question, in a parenthesis after its label (holdout109): "Bonus (not part of
# the question): their sum is 124.", "**Extra (not asked):** ...", "Side note (beyond what was asked): ..."
_UNASKED_LABEL = re.compile(
    r"^[^\S\n]*[*_>#-]*[^\S\n]*(?:[A-Za-z][A-Za-z-]*[^\S\n]+){0,2}?[A-Za-z][A-Za-z-]*[^\S\n]*[*_]*[^\S\n]*\("
    r"(?:not\s+(?:part\s+of\s+(?:the|this|your)\s+(?:question|problem|task)|(?:what\s+(?:was|you)\s+)?asked(?:\s+for)?|required|needed)|"
    r"beyond\s+(?:the\s+question|what\s+(?:was|you)\s+asked)|outside\s+the\s+question|unasked)\)[^\S\n]*[*_]*[^\S\n]*:",
    re.IGNORECASE | re.MULTILINE)


def unasked_lines(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """The spans of the lines in ``text[start:stop]`` whose label says, in a parenthesis, that they go beyond the
    question ("Bonus (not part of the question): their sum is 124."): their values are another quantity's, so they
    state no other answer (a clause of theirs that withdraws or doubts is still read as one).

    >>> text = "So 10 divisors.\\n\\nBonus (not part of the question): their sum is 124."
    >>> [text[a:b] for a, b in unasked_lines(text, 0, len(text))]
    ['Bonus (not part of the question): their sum is 124.']
    >>> unasked_lines("Bonus: counting negatives too, 18.", 0, 35)
    []
    """
    spans = []
    for found in _UNASKED_LABEL.finditer(text, start, stop):
        line_end = text.find("\n", found.end(), stop)
        spans.append((found.start(), stop if line_end < 0 else line_end))
    return spans


# A check section after the answer (issue #32, holdout109): a paragraph that opens at a line with a heading of checking
# -- at most three words, then a word of checking ("check", "verify", "recount", "estimate", "method", "approach"; "Second
# method (by the position of the first 7):", "Small-case check of the formula:", "Final check -- wait", "**Method 2.**")
_CHECK_SECTION_HEADING = re.compile(
    r"[^\S\n]*[*_#>-]*[^\S\n]*(?:[A-Za-z][\w-]*[^\S\n]+){0,3}?"
    r"(?i:(?:re-?|double-?|cross-?)?check(?:s|ing)?|verif(?:y|ying|ication)|recount(?:ing)?|recomput\w*|recalculat\w*|"
    r"estimat(?:e|ion)|method|approach)\b"
    r"[^\n:]{0,80}?(?::|[^\S\n]+(?:--|[\u2014\u2013])|\.?\*\*)")
# a verdict of disagreement in a check: its result differs from the answer ("10 off from the boxed value", "one fewer
# than above", "the two disagree", "a mismatch", "that's wrong") -- words of withdrawal are read clause by clause as before
_DISAGREES = re.compile(r"\b(?:off|differ\w*|disagree\w*|mismatch\w*|discrepan\w*|inconsistent|wrong|incorrect|mistake|error|slip|"
                        r"instead|but|however|(?:lower|higher|fewer|more|less|greater|smaller|larger)\s+than)\b|n't\b|[≠✗✘❌]|\\neq?\b",
                        re.IGNORECASE)
# a check done at another instance of the formula ("for $n = 4$ it gives 10", "with x = 2:", "at n = 3") ...
_OTHER_INSTANCE = re.compile(r"\b(?:for|with|at|when|take|taking)[^\S\n]+\$?[^\S\n]*[A-Za-z][^\S\n]*=[^\S\n]*\$?[^\S\n]*\d")
# ... that says its two sides agree ("and indeed 1 + 2 + 3 + 4 = 10", "both give 10", "as expected")
_AGREES = re.compile(r"\b(?:indeed|agree[sd]?|same|match(?:es|ed)?|confirm(?:s|ed)?|consistent|checks\s+out|as\s+expected)\b|[✓✔]",
                     re.IGNORECASE)
_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n\s*")


def confirming_check_start(text: str, start: int, stop: int, answers, answer: str = "") -> int | None:
    """Where a check section that confirms the answer starts in ``text[start:stop]`` (the text after the answer), or
    None. ``answers(paragraph)`` says of each value of a paragraph, in order, whether it is the answer (``answer``).

    Rule: from a line that opens with a heading of checking (:data:`_CHECK_SECTION_HEADING`) to the end, no
    paragraph states a verdict of disagreement (:data:`_DISAGREES`), and every paragraph that states a value ends on
    the answer or on a range that holds it ("between 5,600 and 7,000 -- it does") -- a paragraph that ends in a colon
    goes on in the next ("Recount by blocks (...):" and its table) -- or, done at another instance of the formula ("for n = 4"), says its sides agree (:data:`_AGREES`). Its values are
    then the check's work, no other answer: "\\boxed{252}. Second method: first digit 7: 100; ... Total 100 + 80 + 72
    = 252, the same." A check that ends on another value ("Alternative method: ... = 40 - 10 = 30."), or says it
    differs ("The recount gives 46, one fewer than above."), confirms nothing; withdrawals and denials inside a
    confirming check are still read clause by clause.

    >>> is_252 = lambda part: [value == "252" for value in re.findall(r"\\d+", part)]
    >>> text = "So \\\\boxed{252}.\\n\\nSecond method: 100 + 80 + 72 = 252, the same."
    >>> confirming_check_start(text, 15, len(text), is_252)
    17
    >>> text = "So \\\\boxed{252}.\\n\\nSecond method: 100 + 80 + 70 = 250."
    >>> confirming_check_start(text, 15, len(text), is_252) is None
    True
    """
    opens = check_section_opening(text, start, stop)
    return opens if opens is not None and _confirms(text[opens:stop], answers, answer) else None


def check_section_opening(text: str, start: int, stop: int) -> int | None:
    """Where the first line of ``text[start:stop]`` after its first line break that opens with a heading of checking
    (:data:`_CHECK_SECTION_HEADING`) starts, or None."""
    line = text.find("\n", start, stop)
    while line >= 0:
        opens = line + 1
        if _CHECK_SECTION_HEADING.match(text, opens, stop) is not None:
            return opens
        line = text.find("\n", opens, stop)
    return None


# a value the check states as its result under a label of the whole ("Total: 45", "the sum is 45", "Answer = 45"), not
# the first term of a sum ("Total 100 + 80 + 72 = 252"): a check whose own total is another value confirms nothing
_RESULT_STATED = re.compile(r"\b(?:total|sum|result|answer)\b[^\S\n]*(?:is|=|:)?[^\S\n]*\$?[^\S\n]*"
                            r"(?P<value>-?\d[\d,]{0,20}(?:\.\d{1,12})?)(?![\d,.]*[^\S\n]*[-+*/×·=^\\\d])", re.IGNORECASE)


def _confirms(section: str, answers, answer: str) -> bool:
    """Does ``section`` (a check section to the end of the text) confirm the answer (see :func:`confirming_check_start`)?"""
    if _DISAGREES.search(section):
        return False
    for stated in _RESULT_STATED.finditer(section):
        flags = answers(stated.group("value"))
        if flags and not all(flags):
            return False  # "Let me double-check: 40 + 2 = 42. Total: 45. Confirmed, 42 is right.": the check's own total differs
    paragraph = ""
    for part in _PARAGRAPH_BREAK.split(fractions_as_values(section)):
        paragraph += part + "\n"
        if part.rstrip(" *_").endswith(":"):
            continue  # "Recount by blocks of 15 (...):": the table after it is its body
        if not _ends_on_answer(paragraph, answers, answer):
            return False
        paragraph = ""
    return _ends_on_answer(paragraph, answers, answer)


def _ends_on_answer(paragraph: str, answers, answer: str) -> bool:
    """Does ``paragraph`` state no value, end on the answer or on a range that holds it, or agree at another instance
    of the formula?"""
    flags = answers(paragraph)
    return (not flags or flags[-1] or _ends_on_range_holding(paragraph, answer)
            or (_OTHER_INSTANCE.search(paragraph) is not None and _AGREES.search(paragraph) is not None))


# a range the check ends on: "so the answer should lie between 5,600 and 7,000 -- it does", "from 1,200 to 1,400"
_RANGE = re.compile(r"\b(?:between|from)[^\S\n]+\$?(-?\d[\d,]{0,20}(?:\.\d{1,12})?)\$?[^\S\n]+(?:and|to)[^\S\n]+\$?(-?\d[\d,]{0,20}(?:\.\d{1,12})?)")


_PLAIN_NUMBER = re.compile(r"-?\d[\d,]{0,20}(?:\.\d{1,12})?")


def _ends_on_range_holding(paragraph: str, answer: str) -> bool:
    """Is the last value of ``paragraph`` the top of a range ("between 5,600 and 7,000") that holds ``answer`` (a plain
    number, "6,580")? An estimate that brackets the answer confirms it; one that misses it does not."""
    number = _PLAIN_NUMBER.search(answer)
    if number is None:
        return False
    value = float(number.group().replace(",", ""))
    for found in _RANGE.finditer(paragraph):
        if re.search(r"\d", paragraph[found.end():]) is None:
            low, high = (float(end.replace(",", "")) for end in found.groups())
            return low <= value <= high
    return False
