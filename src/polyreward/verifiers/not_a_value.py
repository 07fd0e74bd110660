"""A value written in the answer's place but not stated as its value: a bound, a relation, a value measured from,
an approximation or an unfinished value (the commitment reading asks these of every candidate answer).

* a bound: "It must be at least \\boxed{10}", "between 40 and 42", "bounded above by 210";
* a relation other than identity: "The answer divides 42", "Answer ≤ 42";
* what the answer is measured from: "the option right after (C)", "one more than 42", "the square of 42";
* an approximation or an estimate: "Roughly \\boxed{42}", "My estimate is 42", "42 (approx.)";
* an unfinished value: "120... something", "40-odd".

Reconstructed rules (ours), each one pattern over a bounded window before or after the value: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.clauses import WINDOW, clause_before
from polyreward.verifiers.clauses import before_value as _before
from polyreward.verifiers.remark_values import nearest_place_agrees
from polyreward.verifiers.rounded_final import rounds_shown_value


# What the answer is said to be *related to* rather than equal to gives no value. Four kinds, one pattern each:
# a bound instead of a value: "It must be at least \\boxed{10}", "The count is no more than 7" -- only as what the
# answer *is* (after a copula, ":" or "="): "We need at least 5 colours" states a minimum (holdout10: after "has" /
# "have" too -- "It has no more than 24 divisors" -- and "greater than or equal to"; a range, "between 40 and 42"; "is
# bounded above by 210"; a tolerance, "within 5 of 42")
_BOUND_WORDS = (r"(?:\b(?:is|be|was|are|equals?|has|have|had)|'s|[:=])\s*(?:(?:exactly|surely|certainly|clearly|definitely|approximately|roughly|about|somewhere)\s+)?"
                r"(?:at\s+(?:least|most)|no\s+(?:less|more|fewer|greater|smaller)\s+than|(?:more|less|fewer|greater|larger|smaller)\s+than"
                r"(?:\s+or\s+equal\s+to)?|upwards\s+of|in\s+excess\s+of|between\s+[-+]?[\w.,/\\{}]+\s+and|"
                r"bounded(?:\s+(?:from\s+)?(?:above|below))?\s+by|capped\s+at|"
                # a tolerance around the value (holdout18): "the answer is within 5 of 42", "within a few units of 42"
                r"within\s+(?:[-+]?[\w.,/\\{}%]+\s+){1,3}?(?:of|from))\s*\Z")
# the answer in a relation other than identity (holdout14): "The answer divides 42", "The answer ends in the digits
# 42" -- a verb after "answer"/"result" that is no copula or verb of coming out ("write the answer as 42" states it)
_RELATION_VERB = (r"\b(?:answer|result)\s+(?!(?:is|was|equals|becomes|remains|stays|comes|turns|works|reads|gives|yields|totals|"
                  r"amounts|checks|matches|makes|seems|appears|looks|rounds|simplifies|reduces|evaluates|should|must|would|will|"
                  r"has\s+to\s+be|as|thus|always|is)\b)[a-z]+s(?:\s+[a-z]+){0,3}\s*\Z")
# an inequality sign after a word or a heading: "Answer ≤ 42", "The total: < 10" (holdout15); after a one-letter
# variable it is an inequality the interval reader takes ("x > 3"); a ">" that opens a line is a markdown quote, and
# one glued to a word closes an HTML tag ("<summary>Answer</summary>42")
_INEQUALITY_SIGN = (r"(?:\b[A-Za-z]{2,}|[:)])(?:[^\S\n]*(?:[≤≥⩽⩾≳≲⪆⪅]|\\(?:le|leq|ge|geq|lt|gt|leqslant|geqslant|gtrsim|lesssim)(?![A-Za-z]))|"
                    r"[^\S\n]+[<>])\s*\Z")
# the answer named by its position or by an operation on the value shown (holdout14): "Answer: the option right after
# (C)", "The answer is the number before 42", "is one more than 42", "is the square of 42", "is twice 21" -- the value
# written is the thing the answer is measured from. Without an article only a pointed position ("right after", "next
# to"), so "The tank is full after 6 minutes" keeps its 6
_MEASURED_FROM = (r"(?:(?:(?:the|an?|that|this)\s+(?:[\w-]+\s+){0,3}?(?:(?:right|just|immediately|directly)\s+)?|(?:right|just|immediately|directly)\s+)"
                  r"(?:after|before|following|preceding|next\s+to|prior\s+to|below|above|beyond|past|beside|adjacent\s+to)"
                  r"|(?:next|adjacent)\s+to"
                  r"|(?:the\s+|an?\s+)?[\w.]+\s+(?:more|less|fewer|greater|larger|smaller|bigger|higher|lower)\s+than"
                  r"|(?:twice|thrice|double|triple|half(?:\s+of)?|(?:the\s+|an?\s+)?(?:square|cube|successor|predecessor|reciprocal|"
                  r"negative|opposite|complement|inverse|multiple|divisor|factor|square\s+root|cube\s+root)\s+of))\s*\Z")
# ... only as what the answer is (after a copula, ":" or "=")
_RELATIVE_TO = r"(?:\b(?:is|be|was|are|equals?)|'s|[:=])\s*" + _MEASURED_FROM
# four patterns, not one alternation: each is prefiltered by its own words (regex_prefilter), so a window before an
# answer ("The answer is ") that holds "answer" and an "s" no longer runs the other three at every position
_BOUND_WORDS_BEFORE, _RELATION_VERB_BEFORE, _INEQUALITY_SIGN_BEFORE, _RELATIVE_TO_BEFORE = (
    re.compile(part, re.IGNORECASE) for part in (_BOUND_WORDS, _RELATION_VERB, _INEQUALITY_SIGN, _RELATIVE_TO))


# a bound after any other verb (holdout111): "the most I can say is that she baked at least 42 muffins" gives a bound
# on a count the question asks exactly. A verb of need or ability up to two words before the bound ("We need at least 5
# colours", "He can buy at most 12 pens", "we need to buy at least 9") or an extreme named in the clause ("the fewest
# moves: we make at least 7") states a minimum or a maximum, and it stands
_BOUND_PHRASE = r"(?:at\s+(?:least|most)|no\s+(?:more|fewer|less)\s+than)\s*\Z"
_BOUND_AFTER_VERB = re.compile(r"\b[a-z]{2,}\s+" + _BOUND_PHRASE, re.IGNORECASE)
_NEED_OR_ABILITY_BOUND = re.compile(
    r"\b(?:need\w*|requir\w*|must|ha(?:ve|s|d)\s+to|takes?|taken|took|can|could|enough|suffic\w*|guarantee\w*|ensure\w*|"
    r"allow\w*|fits?|hold|holds|afford)\s+(?:[\w']+\s+){0,2}" + _BOUND_PHRASE, re.IGNORECASE)
_EXTREME_WORD = re.compile(r"\b(?:minim\w*|maxim\w*|fewest|smallest|largest|greatest|least\s+(?:number|amount|possible)|"
                           r"most\s+(?:number|possible))\b", re.IGNORECASE)


def _bound_after_verb(text: str, start: int, before: str) -> bool:
    """Is the value at ``text[start:]`` given as a bound after a verb other than a copula ("she baked at least 42
    muffins"), with no need, ability or extreme that makes it a minimum or maximum ("We need at least 5 colours")?"""
    return (_BOUND_AFTER_VERB.search(before) is not None and _NEED_OR_ABILITY_BOUND.search(before) is None
            and _EXTREME_WORD.search(clause_before(text, start, WINDOW)) is None)


def bound_not_value(text: str, start: int) -> bool:
    """Is the answer at ``text[start:]`` given as a bound ("at least 10", "more than 7"), an example ("for example,
    24"), a relation ("The answer
    divides 42", "Answer ≤ 42") or a position or operation measured from it ("the option right after (C)", "the
    square of 42") rather than as a value?"""
    before = _before(text, start)
    if (ranged := _RANGE_BEFORE.search(before)) is not None and not _same_ends(ranged.group(), text, start):
        return True
    return any(pattern.search(before) is not None
               for pattern in (_BOUND_WORDS_BEFORE, _RELATION_VERB_BEFORE, _INEQUALITY_SIGN_BEFORE, _RELATIVE_TO_BEFORE, _EXAMPLE_BEFORE)
               ) or _bound_after_verb(text, start, before)


_FIRST_NUMBER = re.compile(r"-?\d[\d.,]*")


def _same_ends(lower: str, text: str, start: int) -> bool:
    """Are both ends of the "range" before ``text[start:]`` one number? "The answer is 360 — 360 degrees" restates the
    answer with its unit after a dash, and a range from a value to itself is that value (holdout78); "140–150" stays a
    range."""
    low, high = _FIRST_NUMBER.search(lower), _FIRST_NUMBER.match(text, start)
    return low is not None and high is not None and low.group().rstrip(".,") == high.group().rstrip(".,")


# a value given as an example of the form, not as the answer: "Answer: [YOUR NUMBER HERE] (for example, 24)" (holdout48)
_EXAMPLE_BEFORE = re.compile(r"\b(?:for\s+(?:example|instance)|e\.\s?g\.|such\s+as)\s*[,:]?\s*\$?\Z", re.IGNORECASE)


# the upper end of a range: "140–150 miles" (an en dash reads as "-" once normalised), "from 140 to 150" (holdout31);
# not after an operator or an equals sign ("x = 10-2" is arithmetic)
_RANGE_BEFORE = re.compile(r"(?<![\d.=+*/^-])(?<![=+*/^-]\s)\d+(?:\.\d+)?(?:\s*(?:[–—]|\bto\b)\s*|-)\$?\Z"
                           # "between 150 and 300", "first 150, then 300": one end of a range, one term of a sequence (holdout44);
                           # "between" in other languages: "entre 40 et 43", "zwischen 40 und 43", "между 40 и 43" (fixhack)
                           r"|\b(?:(?:between|entre|zwischen|между|tra|fra|tussen|między)\s+\$?-?\d[\d.,]*\$?\s+(?:and|et|y|e|und|и|en|a|i)|first\s+\$?-?\d[\d.,]*\$?\s*,?\s*(?:and\s+)?then)\s*\$?\Z", re.IGNORECASE)


_MEASURED_FROM_BEFORE = re.compile(r"(?:\A|(?<=[\s,;(]))" + _MEASURED_FROM, re.IGNORECASE)


def measured_from(text: str, start: int) -> bool:
    """Is the value at ``text[start:]`` named as what something is measured from ("42, the successor of 41", "43,
    one more than 42", "the option right after (C)"), with or without a copula before it?"""
    return _MEASURED_FROM_BEFORE.search(_before(text, start)) is not None


# the whole a percent answer is taken of, right after it (holdout53): "So 20 is **25%** of 80."
_PERCENT_BASE_BEFORE = re.compile(r"\A[\s*$}]*of[^\S\n]+(?:the[^\S\n]+)?\$?[^\S\n]*\Z", re.IGNORECASE)


def percent_base(clause: str, value: re.Match, answer: str) -> bool:
    """Is ``value``, in the clause right after the answer, the whole that the answer -- a percent -- is of ("**25%**
    of 80"): what the percent is measured from, not a second value?"""
    return answer.rstrip(" $*").endswith("%") and _PERCENT_BASE_BEFORE.match(clause[:value.start()]) is not None


# an approximation, not the value (holdout8): "Roughly \\boxed{42}", "it's in the neighbourhood of 64", "≈ 12",
# "Grob geschätzt: 8". A decimal with a fractional part is what rounding asks for ("\\pi \\approx 3.14") and stands;
# a casual tilde stays a value ("So the answer is ~42.", tests/test_reading.py)
_APPROXIMATE_BEFORE = re.compile(
    r"(?:(?:\b(?:is|be|was|are)|'s)\s+(?:about|close\s+to|near)|\bclose\s+to|"
    # a comparison of nearness ("between 1/5 and 1/4, closer to 1/4"): no value stated (holdout111)
    r"\b(?:closer|nearer)(?:\s+to)?|"
    r"\b(?:roughly|approximately|approx\.?|around|circa|ca\.|nearly|almost(?!\s+(?:surely|certainly|always|everywhere))|"
    r"something\s+like|in\s+the\s+(?:neighbou?rhood|vicinity|region|ballpark)\s+of|on\s+the\s+order\s+of|geschätzt|ungefähr|etwa|"
    r"environ|à\s+peu\s+près|au\s+pif|grosso\s+modo|más\s+o\s+menos|aproximadamente|примерно|около)|≈|\\(?:approx|sim|simeq)(?![A-Za-z])|約|(?:大约|约|大概|差不多)(?:是|为|有)?|およそ)\s*\Z",
    re.IGNORECASE,
)
FRACTIONAL_DECIMAL = re.compile(r"\d?\.\d")


# an estimate named as one in the answer's clause, before it ("Order-of-magnitude estimate only:", "**Answer
# (approximate, not exact):**", "My estimate is", "Estimated answer:", "Answer (estimate):") or right after it ("(approx.)",
# ", I'd estimate", "(rounded, exact value unknown)", ", maybe a bit less", ", give or take"). Read for exact answers only (math, options, sets), never by the
# forecast rewards, whose every answer is an estimate
_ESTIMATE_NAMED = re.compile(
    r"\border[\s-]+of[\s-]+magnitude\b|\b(?:rough|only\s+an?|just\s+an?)\s+estimate\b|\bestimate\s+only\b|\(\s*approx\w*\.?\s*(?:[,)]|not\b)|"
    r"\bnot\s+exact\b|\b(?:my|our|rough|ballpark|best|quick)\s+estimate\s+(?:is|was|would\s+be|:)|\bestimated\s+(?:answer|value|total|result|count)\b|"
    r"\(\s*(?:rough\s+)?estimat\w*\s*\)|\(\s*(?:-?ish|rough(?:ly)?|ballpark)\s*\)|\bI(?:'d|\s+would)?\s+estimate\b|\bexact\s+(?:value|answer)\s+(?:unknown|not\s+known)\b|"
    # an error of unknown size the writer puts on the value right after it ("about a half, maybe a bit less", "42,
    # give or take"; not "a bit more than last year", a comparison; holdout122: the number in words reads as digits do,
    # so the digits' gap showed in words)
    r"\b(?:maybe|perhaps|possibly|probably|or)\s+(?:a\s+)?(?:bit|little|tad|touch|shade|hair)\s+(?:less|more|lower|higher|under|over|below|above)\b(?!\s+than\b)|\bgive\s+or\s+take\b",
    re.IGNORECASE,
)
_CLAUSE_AFTER = re.compile(r"[^.;!?\n]{0,120}(?:\.\)?|[;!?\n]|\Z)")


# a value the writer leaves unfinished or vague right after it (holdout17): "120... something", "120-something",
# "40-odd", "42-ish" -- the digits shown are not all of the value (after an ellipsis only where "something" ends its
# clause: "\\boxed{42}... something to remember" goes on and stands); "8ish" glued too (holdout20)
_UNFINISHED_AFTER = re.compile(r"\s*(?:(?:\.{2,}|…)\s*something\b(?=\s*(?:[.;,!)]|\Z))|-\s*(?:something|odd|ish)\b|ish\b)", re.IGNORECASE)


_WHOLE = re.compile(r"\d+")
_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")


def rounded_as_shown(text: str, start: int, end: int) -> bool:
    """Is the approximated answer at ``text[start:end]`` ("CrCl ≈ 67 mL/min (nearest whole number)") the rounding the
    writer says it is, of a value the working shows before it (66.7)? Then "≈" marks the rounding asked for, not a
    guess (holdout55): the answer is committed as "\\pi \\approx 3.14" is. A guess has no shown value it rounds."""
    number = _WHOLE.search(text, start, end)
    if number is None:
        return False
    after = text[end:end + 60]
    return any(nearest_place_agrees(after, float(number.group()), float(shown.group())) is True
               for shown in _DECIMAL.finditer(text, max(0, start - 400), start))


# "about" opening a sentence or a clause after a semicolon ("≳ 40 cm, ≲ 45 cm; about 42 cm"; holdout111): no value
# stated -- unless the value is written at a scale ("About $\\boxed{1\\text{ million}}$ people.", "About 3 \\times 10^8"):
# an order of magnitude is an estimate's own form, and the question that takes it asks for one (after a label's colon
# "about" answers an approximate question and stands: "Answer: about $10^5$ seconds")
_ABOUT_OPENING_BEFORE = re.compile(r"(?:\A|[.;!?\n])[^\S\n]*(?:about|abt\.?)\s*\Z", re.IGNORECASE)
_AT_A_SCALE = re.compile(r"\b(?:thousand|million|billion|trillion)s?\b|\\times\s*10\s*\^|\d[eE][+-]?\d", re.IGNORECASE)


def approximate_not_value(text: str, start: int, end: int) -> bool:
    """Is the answer at ``text[start:end]`` given as an approximation of a whole number ("Roughly \\boxed{42}",
    "\\boxed{\\approx 12}") or named an estimate ("My estimate is 42", "42 (approx.)") rather than stated? A rounded
    decimal ("\\approx 3.14") is a value."""
    if FRACTIONAL_DECIMAL.search(text[start:end]):
        return False
    before = _before(text, start)
    if (_APPROXIMATE_BEFORE.search(before) is not None
            or _ABOUT_OPENING_BEFORE.search(before) is not None and _AT_A_SCALE.search(text, start, end) is None) and not (
            rounded_as_shown(text, start, end) or rounds_shown_value(text, start, end)):  # "≈ 48.6" ... "≈ 49" (holdout61)
        return True
    if _UNFINISHED_AFTER.match(text, end):
        return True
    after = _CLAUSE_AFTER.match(text, end)
    return bool(_ESTIMATE_NAMED.search(clause_before(text, start, WINDOW)) or _ESTIMATE_NAMED.search(after.group() if after else ""))


# an answer line left as a template (holdout22, holdout53): "Answer: [LETTER]", "**Final answer:** <number>", "Answer: ___",
# "The answer is ( ).", "The correct answer is: ___", a worksheet's "Your answer: ______ muffins" with the unit printed after
# the blank (holdout121) -- the line (or last sentence) that should commit to a value holds a slot for one,
# so the completion gives no answer (a value stated before it, "which is option B", is not put in the slot by the reader)
_UNFILLED_ANSWER_LINE = re.compile(
    r"(?:\A|\n|(?<=[.!?])[^\S\n])[^\S\n]*(?:\*\*)?[^\S\n]*(?i:(?:so|thus|therefore|hence),?[^\S\n]+)?(?i:the[^\S\n]+)?"
    r"(?i:(?:final|correct|right|best|my|your)[^\S\n]+)?(?i:answer|choice|option|selection|result)[^\S\n]*(?:\*\*)?"
    r"[^\S\n]*(?:(?i:is)[^\S\n]*:?|[:=])[^\S\n]*(?:\*\*)?[^\S\n]*(?:\[[^\S\n]*[A-Za-z][A-Za-z _/-]{1,24}\]|<[A-Za-z][A-Za-z _/-]{1,24}>|\{[A-Za-z][A-Za-z _/-]{1,24}\}|"
    r"_{2,}|\?{1,3}|\.{3}|…|\(\s*\)|\[\s*\])(?:[^\S\n]+[A-Za-z]{1,20}){0,2}[^\S\n]*(?:\*\*)?[^\S\n]*\.?\s*\Z"
    # GSM8K's answer marker left empty on the last line ("... so somewhere between 18 and 20 days.\n\n#### "; holdout33):
    # the text ends where the answer was to be written, whatever a format example before it shows ("`#### 19` style")
    r"|(?:\A|\n)[^\S\n]*####[^\S\n]*\s*\Z")


def unfilled_answer_line(text: str) -> bool:
    """Does ``text`` end on an answer line that holds a slot instead of a value ("Answer: [LETTER]")?"""
    return _UNFILLED_ANSWER_LINE.search(text[-200:]) is not None


# words a finished sentence does not end on: an article, a preposition, a conjunction, a copula
DANGLING_WORDS = r"the|an?|of|to|and|or|with|is|are|be"


def cut_off_after(words: str, marks: str = "", *, glued_to_a_stop: bool = False) -> str:
    """The one pattern (a ``str``, for a module body to compile) of a completion cut off where its answer was to be:
    the text ends, but for white space, on one of ``words`` (a regex alternation, each a whole word: "the best answer
    here is option", "we need to multiply by") or one of ``marks`` (a regex alternation of signs: "... = ", "x +").
    A word glued to the end of a sentence before it (".the", ")is") is no cut-off unless ``glued_to_a_stop``."""
    stop = "" if glued_to_a_stop else r"(?<![.!?)])"
    signs = f"|{marks}" if marks else ""
    return rf"(?:{stop}\b(?:{words}){signs})\s*\Z"


# a last sentence cut off while it still qualifies its value: no stop at the end, and after its last number a condition
# or a contrast ("so 8 - 6 = 2 slices would be left if nobody else ate, but then the host also eats": holdout54) --
# the writer was still taking the value back when the text ends, and commits to nothing
CUT_OFF_QUALIFYING = re.compile(r"\d(?:[^\d.!?\n]|\.(?=\d))*?\b(?:would|could|might)\b[^\d.!?\n]*\b(?:if|unless|but)\b[^\d.!?\n]*(?<=[A-Za-z])\s*\Z"
                                r"|\d(?:[^\d.!?\n]|\.(?=\d))*?(?:,|;|\s)[ \t]*(?:but|however|although|though|unless|except)\b[^\d.!?\n]*(?<=[A-Za-z])\s*\Z",
                                re.IGNORECASE)


# a last sentence cut off while the writer pauses to reconsider: it opens with a pause ("But wait", "Hmm, hold on",
# "Actually, the answer", "No wait", "Oops") and the text ends inside it, no stop at the end and no value, sign or letter in it
# ("\\boxed{8.25}. Actually, the answer is", "Final answer: 215. Hmm, hold on, I think I mis", "Answer: C. Wait,
# actually,": holdout116) -- a model that runs out of tokens while taking its answer back commits to nothing;
# "Actually, the answer is 42" (a value), "Wait -- yes, 42 stands." (a stop) and "I hope this helps and" (no pause) stay
_CUT_OFF_PAUSING = re.compile(r"(?:\A|[.!?:\n])[^\S\n]*[*_(\[\-–—]*[^\S\n]*(?:(?:but|and|no|oh|hmm+)[^\w\n]{1,3})?"
                              r"(?:(?:wait|hold[^\S\n]+on|hang[^\S\n]+on|oops|on[^\S\n]+second[^\S\n]+thought)\b"
                              # "Actually," and "Hmm," also open an aside ("Actually, a faster way to see this is"): they
                              # pause only toward the answer or a fault ("Actually, the answer is", "Hmm, I think I made")
                              r"|(?:hmm+|actually)\b(?=[^.!?\n]*\b(?:answer|result|correct|should|wrong|mistake|error|mis\w*|made|forgot)\b))"
                              # (a colon with words after it opens the correction: "Lyon... wait, no: Paris"; stop 63)
                              r"(?-i:[^.!?:\n\d=\\$A-E]|\B[A-E]|[A-E]\B)*:?\Z", re.IGNORECASE)


def cut_off_pausing(text: str) -> bool:
    """Does ``text`` end, cut off, inside a sentence that opens by pausing to reconsider (above)? Example: "The answer
    is 42.\\n\\nBut wait," is True; "The answer is 42.\\n\\nBut wait -- the check holds." and "Answer: Lyon... wait, no:
    Paris" (the correction after the colon) are False."""
    return _CUT_OFF_PAUSING.search(text.rstrip()[-160:]) is not None


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_BOUND_WORDS_BEFORE _RELATION_VERB_BEFORE _INEQUALITY_SIGN_BEFORE _RELATIVE_TO_BEFORE _MEASURED_FROM_BEFORE "
                "_APPROXIMATE_BEFORE _ESTIMATE_NAMED _RANGE_BEFORE _EXAMPLE_BEFORE _ABOUT_OPENING_BEFORE")
# (stop 61) the slot of an unfilled answer line: its last 200 characters searched plain ~4 µs a fresh row, filtered 0.1
prefilter_names(globals(), "_UNFILLED_ANSWER_LINE")
