"""What closes a completion after its answer without stating a new one, when the answer is read from the last line
(no box, no answer phrase): the numbers of such a remark are never the answer, the value before it is.

* A **check** in its own sentence ending with a tick ("x = -7. Checking: 2(-7) + 14 = 0 ✓."), or a parenthesis that
  checks in numbers only ("x = -3 (checked: 2(-3) + 9 = 3)."): :data:`_CLOSING_CHECK`.
* An **aside that denies another value** ("64 cubic centimeters. (Not 16 -- that's one face.)"), a reason after a comma
  ("$5\\sqrt{2}$, since 50 = 25 · 2.") and a sentence that vouches for the answer and gives its reason in numbers:
  :data:`_CLOSING_ASIDE`.
* The **value again, rounded or in another form** (holdout17, holdout18): "19/12 ≈ 1.583", "7/2, i.e. 3.5", "1/6
  (about 16.7 %)", "5√2. (Numerically ≈ 7.07.)" -- a mark of approximation or of restatement, then one number that
  agrees with the value before it to the digits it shows (a percent as a hundredth). A remark that disagrees with the
  value ("42 (≈ 45)") is left in place and read as before.
* A **bracketed sentence about a part of the answer** (holdout17, holdout18): "The sum of the roots is 12. (The roots
  themselves are 5 and 7, and their product is 35.)", "... the vertex is (3, 4). (The minimum value 4 occurs at x =
  3.)" -- after the answer's sentence, a bracket whose sentence has its own subject (a determiner and a noun, after at
  most a label such as "Check:"), a subject that is not the answer's own (so "(The sum is 45.)" after "The sum is 12."
  still replaces it) and that either names something the answer's sentence mentions ("roots" in "the sum of the
  roots") or gives only numbers of the answer itself. A bracket with a word of negation or contrast, or one that
  speaks of "the answer", is no such remark.

Reconstructed rules (ours). Each test is a regular expression anchored at the end of the last 240 characters, or a
comparison of a few words: linear time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from polyreward.verifiers.closing_checks import passing_check_start
from polyreward.verifiers.math_canonical import canonical
from polyreward.verifiers.math_normalize import normalize_answer, parse_numeral
from polyreward.verifiers.negation_words import CONTRAST_WORDS
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

TAIL = 240

# a closing sentence that checks the answer with other numbers: "x = -7. Checking: 2(-7) + 14 = 0 ✓." -- the value it
# ends with is the check's, not the answer (a heading word of checking, then a colon, ending with a tick); or a closing
# parenthesis that checks in numbers only, with an equals sign: "x = -3 (checked: 2(-3) + 9 = 3).", "$x = 3$ (and I've
# double-checked: $5^3 = 125$)." (the writer's words only before the heading's colon, no word after it, so "(check:
# no, it's 45)" is no check and still read)
_CLOSING_CHECK = re.compile(r"(?:(?:(?<=[.!\n])|\A)\s*(?i:check(?:ing)?|verif(?:y|ying|ication)|sanity\s+check)\s*:[^\n]{0,200}?[✓✔]"
                            r"|\s*\(\s*(?i:(?:and\s+)?(?:(?:I|we)(?:'ve|\s+have)?\s+)?(?:double-?)?(?:check(?:ed|ing)?|verif(?:y|ied|ying|ication)))\s*:(?=[^\n]{0,200}?=)(?:[^()\nA-Za-z]|\([^()\nA-Za-z]{0,40}\)){1,200}\))\W*\Z")

# the rest of a reason to the end of its line: it ends where a sentence with a number of its own starts ("Most students
# get 4 because they forget to sort. Sorted: 3, 4, 5, 7, 9 -- the median is 5." states the answer after it; holdout21)
_ONE_SENTENCE = r"(?:[^\n.!?]|[.!?](?![^\S\n]+\S[^\n]*\d)){0,200}\Z"

# the words of a domain restriction in the languages the other conditions read ("para x ≠ -4", "pour x ≠ 1", "für x ≠ 0")
_RESTRICTION_WORDS = r"para|pour|für|per|при|wenn|cuando|quand|si|se"

# what closes a completion after its answer without stating one (holdout10, holdout17): an aside that denies another value ("64
# cubic centimeters. (Not 16 -- that's one face.)", "12 -- not 120 (that would be 150%)") and a sentence that vouches
# for the answer before it and gives its reason in numbers ("The sum is 210. I'm confident in this because ... 21.")
_CLOSING_ASIDE = re.compile(r"(?:\s*\(|\s*(?:[,;]|[—–]|--)\s*\(?)\s*(?i:not)\s+\$?[-+]?\d[^\n]{0,200}\Z"
                            # a reason after a comma ("$5\\sqrt{2}$, since 50 = 25 · 2."): its numbers are no answer (holdout17)
                            r"|,\s*(?i:since|because)\b" + _ONE_SENTENCE +
                            # ... without the comma right after a value ("log₂ 64 = 6 because 2⁶ = 64."), and a bracket that
                            # gives the method in words, no value of its own ("= 3/4 (divide numerator and denominator by 2).")
                            r"|(?<=[\d}$)])[^\S\n]+(?i:since|because)\b" + _ONE_SENTENCE +
                            # holdout23: where the value is taken, in brackets ("the minimum value is -3 (at x = 3).")
                            r"|(?<=[\d}$])[^\S\n]*\((?i:at|when|where|for|attained\s+at|reached\s+at)[^\S\n]+[A-Za-z][^\S\n]*=[^()\n]{1,40}\)[.!]?\s*\Z"
                            # holdout99: the domain the answer holds on, one variable excluded from one value, in brackets
                            # or after a comma with a condition word ("= x - 4 (for x ≠ -4).", "x + 3, provided x ≠ -2"):
                            # the excluded value is no answer (a bare ", x ≠ -3" is read by .answer_structures)
                            r"|(?<=[\w}$])(?:[^\S\n]*\((?i:(?:valid|defined|true)[^\S\n]+)?(?i:(?:for|where|when|with|provided|assuming|if|" + _RESTRICTION_WORDS + r")[^\S\n]+)?"
                            r"|[^\S\n]*,[^\S\n]*(?i:(?:valid|defined|true)[^\S\n]+)?(?i:for|where|when|provided|assuming|if|" + _RESTRICTION_WORDS + r")[^\S\n]+)"
                            r"\$?[A-Za-z][^\S\n]*(?:≠|!=|\\neq?(?![A-Za-z]))[^\S\n]*[-−+]?(?:\\pm)?[^\S\n]*[\w./\\{}]{1,20}\$?\)?[.!]?\s*\Z"
                            # holdout21: a participle of checking after the value ("(2, 5), checked in both equations ✔")
                            r"|(?<=[\d)\]}$])[^\S\n]*,[^\S\n]*(?i:checked|verified|confirmed|double-checked)\b[^\n]{0,120}\Z"
                            r"|(?<=[\d}$])[^\S\n]*\((?i:divid|multipl|simplif|cancel|reduc|factor|expand|us|apply|applied|add|subtract|"
                            r"combin|collect|rationali[sz])\w*\b[^()=\n]{0,120}\)[.!]?\s*\Z"
                            # holdout67: a bracket of a few words and nothing else names the form or the method
                            # ("= x^{2} - 1 (difference of squares).", "(exact)"); commitment still reads it
                            r"|(?<=[\d}$])[^\S\n]*\((?![^()\n]*\b(?i:or|maybe|perhaps|probably|possibly|likely|think|guess\w*|sure|un\w+ed|approx\w*|"
                            r"roughly|about|around|not|no|wrong|typo|ish|wip|placeholder|filler|draft|ignore|estimate\w*)\b)"
                            r"[^\W\d_][\w'-]*(?:[^\S\n]+[^\W\d_][\w'-]*){0,5}\)[.!]?\s*\Z"
                            r"|(?<=[.!])\s*(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:\w+\s+)?(?i:confident|sure|certain|positive)\s+"
                            r"(?i:in|of|about)\s+(?i:this|that|it)\b[^\n]{0,200}\Z")

# a closing line that states nothing, in a fixed form with no room for anything else (holdout21): a label with
# nothing under it ("Known issues: none."), a self-grade ("Score: 3/3."), a confirmation by another voice ("Tutor:
# Correct.") -- read past, and past for commitment too
_CLOSING_LABEL = re.compile(
    r"\n[^\S\n]*(?!(?i:answer|final|solution|result)\b)[A-Za-z][A-Za-z \-]{0,30}:[^\S\n]*(?i:none|n/a|nothing|no)\.?\s*\Z"
    r"|(?:\n|(?<=[.!}$)]))[^\S\n]*(?i:(?:self[- ]?)?(?:score|grade|marks?|rating|points))[^\S\n]*:[^\S\n]*\d+[^\S\n]*/[^\S\n]*\d+\.?\s*\Z"
    r"|\n[^\S\n]*(?:[A-Z][\w ]{0,20}:[^\S\n]*)?(?i:correct|right|yes|exactly|indeed|that's\s+right|well\s+done|perfect)[.!]*\s*\Z"
    # a letter's sign-off and its signature: "Kind regards,\nYour tutor", "Best,\nAlex" (holdout46)
    r"|\n[^\S\n]*(?i:(?:kind|best|warm|warmest)\s+(?:regards|wishes)|regards|best|cheers|sincerely|yours(?:\s+(?:truly|sincerely))?|"
    r"all\s+the\s+best|warmly|thanks|many\s+thanks|take\s+care)[^\S\n]*[,!.]?[^\S\n]*\n[^\S\n]*[^\W\d_][^\n\d]{0,38}\s*\Z")


# the value again: a word of restatement ("i.e.", "that is", "numerically", "as a decimal"; "or" only before a mark)
# and/or a mark of approximation, then one number, in brackets or after a comma, a dash or a space. Read from the end
# by steps (no pattern with runs of optional spaces side by side: those backtrack on a run of blanks)
RESTATING = r"(?i:i\.\s?e\.|that\s+is|numerically|as\s+a\s+decimal|in\s+decimal(?:\s+form)?|decimal(?:ly)?)"
_APPROXIMATELY = r"(?:≈|≃|~|\\approx|\\simeq|(?i:about|approx(?:\.|imately)?|roughly|around|nearly|circa))"
_NUMBER = r"[-+]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)"
_END_NUMBER = re.compile(r"(?<![\w.,])" + _NUMBER + r"\Z")
_MARKS_END = re.compile(r"(?:(?P<restating>" + RESTATING + r")[\s,:]*)?(?:(?i:or)\s+)?(?P<mark>" + _APPROXIMATELY + r")?\Z")
_OPENING_END = re.compile(r"(?:,|[—–]|--|\()\Z")
# a unit after a number, written as the answer writes it ("cm³", "cm^3", "square units")
_UNIT_END = re.compile(r"(?<=\d)[^\S\n]+(?P<unit>[^\W\d_]{1,12}(?:\^?\{?\d\}?)?(?:[^\S\n]+[^\W\d_]{1,12}(?:\^?\{?\d\}?)?)?)\Z")


def _unit_key(text: str) -> str:
    """A unit as compared: its power written plainly ("cm^{3}", "cm^3" and "cm³" are "cm3")."""
    return re.sub(r"[\^{}]", "", text).translate(_SUPERSCRIPT_DIGITS)


_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _rounded_tail(text: str) -> tuple[int, str, bool] | None:
    """Where a closing restatement of a value starts in ``text`` (module docstring), its number and whether it is a
    percent; None when ``text`` does not end with one (a mark or a word of restatement is required)."""
    rest = text.rstrip()
    rest = rest[:-1].rstrip() if rest.endswith((".", "!")) else rest
    bracket = rest.endswith(")")
    rest = (rest[:-1].rstrip() if bracket else rest).rstrip(".").rstrip()
    rest = rest[:-1].rstrip() if rest.endswith("$") else rest
    percent = rest.endswith(("%", "percent"))
    if percent:
        rest = rest[:-len("percent")] if rest.endswith("percent") else rest[:-2] if rest.endswith("\\%") else rest[:-1]
        rest = rest.rstrip()
    unit = _UNIT_END.search(rest)  # "16π cm³ (about 50.27 cm³)": the answer's own unit after the rounded value (holdout53)
    if unit is not None and _unit_key(unit.group("unit")) in _unit_key(rest[:unit.start()]):
        rest = rest[:unit.start()]
    number = _END_NUMBER.search(rest)
    if number is None:
        return None
    rest = rest[:number.start()].rstrip().rstrip("$").rstrip()
    marks = _MARKS_END.search(rest[-40:])
    if marks is None or not (marks.group("mark") or marks.group("restating")):
        return None
    rest = rest[:len(rest) - len(marks.group())].rstrip()
    opening = _OPENING_END.search(rest)
    if bracket and (opening is None or opening.group() != "("):
        return None
    return (opening.start() if opening is not None else len(rest)), number.group(), percent


def rounded_restatement(text: str) -> tuple[str, bool] | None:
    """The number of the restatement that closes ``text`` ("... = 8.04672 km ≈ 8.05 km", "\\n\\nEAR ≈ 12.68%") and
    whether it is a percent, or None (:func:`_rounded_tail` on the last :data:`TAIL` characters, a closing label
    left out); whether it agrees with the answer is the caller's to check (:func:`agrees`)."""
    rounded = _rounded_tail(without_closing_label(text)[-TAIL:])
    return None if rounded is None else (rounded[1], rounded[2])


# a bracketed sentence after the answer's sentence, with a subject of its own: "(The roots themselves are 5 and 7 ...)",
# "(Check: the roots are 4 and 5; ...)"
_REMARK_SENTENCE = re.compile(r"(?<=[.!])[^\S\n]*\((?:[^\W\d_]{2,15}[^\S\n]*:[^\S\n]*)?(?P<sentence>(?i:the|its|their|both|each)\s[^()\n]{3,200})\)\W*\Z")
_NOUN_PHRASE = re.compile(r"(?i:the|its|their|both|each|a|an|this)\s+(?P<words>(?:[^\W\d_][\w'-]*\s+){0,3}?[^\W\d_][\w'-]*)"
                          r"(?=\s+(?:of\b|is\b|are\b|was\b|were\b|equals?\b|occurs?\b|=|[-−+]?\d|\$))")
_ANSWER_SUBJECT = re.compile(r"(?i:the|its|their|this|a|an)\s+(?P<words>(?:[^\W\d_][\w'-]*\s+){0,3}?[^\W\d_][\w'-]*)(?:\s+of\b[^.=]{0,60}?)?"
                             r"\s+(?:is|are|was|were|equals?|=)\s[^.]*\Z")
_NOT_A_HEAD = {"themselves", "itself", "alone", "here", "both", "each"}
_ANSWER_WORDS = {"answer", "result", "solution", "final", "value", "correct", "right", "true", "actual", "real"}
# a word that makes a bracketed sentence a contrast, a correction or a restatement of the answer itself, not a remark
# on a part of it: "(Actually the roots are 4 and 6)", "(The final answer is 12)"
_CORRECTION_OR_ANSWER_WORD = re.compile(r"\b(?:" + CONTRAST_WORDS + r"|actually|rather|instead|but|however|wrong|incorrect|mistake\w*|typo|meant|should|"
                                        r"sorry|oops|correct\w*|erratum|wait|answer\w*|result|solution|final)\b|n't\b", re.IGNORECASE)
# a closing sentence whose only numbers compare a computation with zero: it states a sign, not a value ("$$x^3 - 8 =
# (x - 2)(x^2 + 2x + 4).$$ The quadratic factor has discriminant 4 - 16 < 0, so it does not factor further.", "f''(2) =
# 12 > 0, so this is a minimum."; holdout85); a word of correction or of the answer keeps it read
_SIGN_REMARK = re.compile(r"(?:(?<=[.!\n])|\A)[^\S\n]*(?=[A-Za-z])[^\d\n]{3,120}?[-−(]?\d(?:[\w+\-−*/×·()^{}='$\\]|[^\S\n]|\.(?=\d)){0,60}?"
                          r"(?:<|>|≤|≥|\\[lg]eq?(?![A-Za-z])|\\[lg]t(?![A-Za-z]))[^\S\n]*\$?[^\S\n]*0(?!\d|[.,]\d)[^\d\n]{0,160}\Z")
_SIGN_REMARK_REJECTS = re.compile(r"\b(?i:answer\w*|result|solution|final|wrong|incorrect|mistake\w*|actually|instead|rather|typo|sorry|oops|"
                                  r"wait|meant|correct\w*|but|however|or|maybe|perhaps)\b|\?")
_SENTENCE_START = re.compile(r"(?s:.*)(?:[.!?:;\n]|,\s*(?=so\b|and\b|thus\b|hence\b))")
_NUMBERS = re.compile(r"\d+(?:\.\d+)?")


def _without_closing_check(text: str) -> str:
    """``text`` without a closing check sentence (see :data:`_CLOSING_CHECK`) or a closing aside that states no
    answer (:data:`_CLOSING_ASIDE`) or a closing sentence that only states a sign (:data:`_SIGN_REMARK`), when something
    stands before it."""
    sign = _SIGN_REMARK.search(text[-TAIL:])
    if sign is not None and not _SIGN_REMARK_REJECTS.search(sign.group()):
        rest = _rest(text, sign)
        if re.search(r"\d", rest):
            return _without_closing_check(rest)
    aside = _CLOSING_ASIDE.search(text[-TAIL:])
    if aside is not None:
        rest = _rest(text, aside)
        if re.search(r"\d", rest):
            return rest
    passing = passing_check_start(text)  # "Domain check: x > 0 ✓.", "Both check: (-3)^{2} = 3^{2} = 9." (holdout67)
    if passing is not None:
        return _without_closing_check(text[:passing])  # (an aside may close what stands before the check)
    check = _CLOSING_CHECK.search(text[-TAIL:])
    if check is None:
        return text
    rest = _rest(text, check)
    return rest if rest.strip() else text


def after_closing_words(window: str, cut: Callable[[str], str]) -> str:
    """``window`` after ``cut`` (which drops a closing line of words that states nothing, "Yes, it really is that
    easy."), and, when it dropped one, without the closing check or aside that line hid from :func:`read_before_remark`
    ("= x - 4 (for x ≠ -4).", holdout99)."""
    rest = cut(window)
    return _without_closing_check(rest) if rest != window else rest


def _before_passing_check(text: str) -> str:
    """``text`` up to a closing check that passes (:func:`.closing_checks.passing_check_start`): the check's own
    quantities are no remark on the answer ("**$12,500** ... Quick check with a shortcut: each laptop plus case costs
    $500, and 25 × $500 = $12,500 ✓" does not end on the remark "costs $500"; holdout121)."""
    passing = passing_check_start(text)
    return text if passing is None else text[:passing]


def _rest(text: str, found: re.Match) -> str:
    """``text`` up to where ``found`` (a match in its last :data:`TAIL` characters) starts."""
    return text[:len(text) - TAIL + found.start()] if len(text) > TAIL else text[:found.start()]


def magnitude(answer: str) -> float | None:
    """The value of a plain number or of a surd (``5\\sqrt{2}``, ``\\frac{19}{12}``, ``3\\pi``), else None."""
    text = normalize_answer(answer)
    numeral = parse_numeral(text)
    if numeral is not None:
        return float(numeral.value) / (100 if numeral.percent else 1)
    form = canonical(text)
    if form is None or form[0] != "surd":
        return None
    return float(form[1])


# the value again as an exact sum of fractions in a closing bracket: "(as an Egyptian fraction, 1/2 + 1/4 + 1/8)"
_SUM_TAIL = re.compile(r"[^\S\n]*\((?:[^()\d\n]{0,40}[,:][^\S\n]*)?(?P<sum>\d{1,6}/\d{1,6}(?:[^\S\n]*\+[^\S\n]*\d{1,6}/\d{1,6}){1,8})"
                       r"[^\S\n]*\)[.!]?\s*\Z")


def _sums_to(terms: str, answer: str) -> bool:
    """Do the fractions of ``terms`` ("1/2 + 1/4 + 1/8") add up exactly to the plain number ``answer``?"""
    numeral = parse_numeral(answer.strip().strip("$"))
    if numeral is None or numeral.percent:
        return False
    total = sum((Fraction(int(a), int(b)) for a, b in re.findall(r"(\d+)/(\d+)", terms) if int(b)), Fraction(0))
    return total == numeral.value


def agrees(answer: str, shown: str, percent: bool) -> bool:
    """Does the number ``shown`` (a percent when ``percent``) give the value of ``answer`` to the digits it shows?
    ``|value - shown| <= half a unit of its last digit`` (a percent compared in hundredths), with a relative slack of
    1e-9 for binary rounding."""
    value = magnitude(answer.rpartition("=")[2])  # "E[X] = 21/6 = 7/2": the chain's last side
    if value is None or not math.isfinite(value):
        return False
    digits = shown.split(".")[1] if "." in shown else ""
    number = float(shown.replace(",", ""))
    if percent:
        value *= 100
    return abs(value - number) <= 0.5 * 10 ** -len(digits) * (1 + 1e-9) + 1e-12 * abs(value)


# a prompt that asks for the value rounded (holdout111): "Round your answer to the nearest minute", "rounded to the
# nearest tenth", "to 3 significant figures", "correct to 2 decimal places" (not "a round-robin", "three rounds")
_ROUNDING_ASKED = re.compile(r"\bround(?:ed)?[^\S\n]+(?:your|the|each|it|off|up|down|to|answers?)\b|\bnearest[^\S\n]+[^\W\d_]+|"
                             r"\bsignificant[^\S\n]+(?:figures?|digits?)\b|\bdecimal[^\S\n]+places?\b|\b(?:s\.[^\S\n]?f|d\.[^\S\n]?p)\.|"
                             r"\bcorrect[^\S\n]+to[^\S\n]+(?:\d|one|two|three|four)", re.IGNORECASE)


def rounding_asked(answer: str, completion: str, prompt: str) -> str | None:
    """The rounded restatement that closes ``completion`` ("... = 41.67 minutes. So the walk takes about 42 minutes.",
    "$\\frac{2}{7} \\approx 0.286$") when ``prompt`` asks for a rounded value and the restatement rounds the answer read
    before it (``answer``, perhaps with the restatement still at its end) to the digits it shows; else None. The
    rounding is then the answer asked, not a remark on it: the exact value is the working. Example: "Round to the
    nearest minute" with "0.6944 × 60 = 41.67 minutes. So the walk takes about 42 minutes." gives 42."""
    if not prompt or _ROUNDING_ASKED.search(prompt) is None:
        return None
    restated = rounded_restatement(completion)
    if restated is None:
        return None
    number, percent = restated
    head = without_rounding(answer)
    if not head.strip() or not agrees(head, number, percent):
        return None
    return number + ("%" if percent else "")


def without_rounding(answer: str) -> str:
    """An answer read after an answer phrase, without a rounded restatement of itself at its end ("19/12 ≈ 1.583",
    "1/6 (about 16.7%)"); unchanged when there is none or it disagrees."""
    rounded = _rounded_tail(answer)
    if rounded is None or not answer[:rounded[0]].strip():
        return answer
    head = answer[:rounded[0]].rstrip()
    return head if agrees(head, rounded[1], rounded[2]) else answer


_MARK_BEFORE = re.compile(r"(?:" + _APPROXIMATELY + r"|" + RESTATING + r")[\s,:($]*\Z")


def rounds_answer(clause: str, value: re.Match, answer: str) -> bool:
    """Is the number ``value`` of ``clause`` (a clause after the answer ``answer``) the answer again, rounded, after a mark
    of approximation or restatement ("\\boxed{19/12} ≈ 1.583", "(about 16.7 %)")? Such a value states nothing else."""
    if not _MARK_BEFORE.search(clause[max(0, value.start() - 40):value.start()]):
        return False
    number = re.match(_NUMBER, value.group())
    if number is None:
        return False
    percent = re.match(r"\s*(?:\\?%|percent)", clause[value.start() + number.end():]) is not None or value.group().rstrip().endswith("%")
    return agrees(answer, number.group(), percent)


def subject_head(words: str) -> str:
    """The head word of a subject's words, singular and lowercase ("roots" for "the roots themselves": "root")."""
    kept = [word for word in words.lower().split() if word not in _NOT_A_HEAD]
    return _singular(kept[-1]) if kept else ""


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _about_a_part(rest: str, sentence: str, answer: str) -> bool:
    """Is the bracketed ``sentence`` a remark on a part of the answer stated at the end of ``rest``? (module docstring)"""
    if _CORRECTION_OR_ANSWER_WORD.search(sentence):
        return False
    start = _SENTENCE_START.match(rest)
    stated = rest[start.end() if start else 0:]
    subject = _ANSWER_SUBJECT.search(stated)
    own = _NOUN_PHRASE.match(sentence)
    if subject is None or own is None:
        return False
    answer_head, remark_head = subject_head(subject.group("words")), subject_head(own.group("words"))
    if not answer_head or not remark_head or answer_head == remark_head or answer_head in _ANSWER_WORDS:
        return False
    mentioned = {_singular(word) for word in re.findall(r"[^\W\d_]+", stated.lower())}
    if remark_head in mentioned:
        return True  # "(The roots themselves are 5 and 7 ...)" after "The sum of the roots is 12."
    parts = set(_NUMBERS.findall(answer))
    return bool(parts) and set(_NUMBERS.findall(sentence)) <= parts  # "(The minimum value 4 occurs at x = 3.)" after (3, 4)


# where a match of _CLOSING_LABEL can open other than at a line break: right after one of ".!}$)" (the score line's
# look-behind), before a word of scoring (speed only: see closing_label)
_SCORE_AFTER_MARK = re.compile(r"[.!}$)](?=[^\S\n]*(?i:self|score|grade|mark|rating|point))")


def _may_name_a_score(lowered: str) -> bool:
    return "self" in lowered or "score" in lowered or "grade" in lowered or "mark" in lowered or "rating" in lowered or "point" in lowered


def closing_label(tail: str) -> re.Match | None:
    """``_CLOSING_LABEL.search(tail)``, the same match, tried only where a match can open (speed only). Every branch
    opens with a line break, except the score line's ("Score: 3/5"), which may open right after one of ".!}$)" and
    then needs a word of scoring (ignoring case: in an ASCII tail, one of those words in its lower-cased
    form; a tail that is not ASCII is scanned with the pattern's own words) and a ":" and a "/". Those places are
    tried in order with the pattern's ``match``, so the first match found is the leftmost, the one the search
    returns. The search tries all four branches at every position: ~40 µs on a 240-character tail of a fresh row,
    against ~1 µs for the one to three line breaks most tails hold."""
    starts = []
    at = tail.find("\n")
    while at >= 0:
        starts.append(at)
        at = tail.find("\n", at + 1)
    if "/" in tail and ":" in tail and (not tail.isascii() or _may_name_a_score(tail.lower())):
        starts = sorted({*starts, *(mark.end() for mark in _SCORE_AFTER_MARK.finditer(tail))})
    plain = getattr(_CLOSING_LABEL, "compiled", _CLOSING_LABEL)
    for start in starts:
        found = plain.match(tail, start)
        if found is not None:
            return found
    return None


def without_closing_label(text: str) -> str:
    """``text`` without a closing line in a fixed form that states nothing (:data:`_CLOSING_LABEL`), when a value
    stands before it."""
    label = closing_label(text[-TAIL:])
    if label is not None and re.search(r"\d", text[:len(text) - len(label.group())]):
        return text[:len(text) - len(label.group())]
    return text


# a closing remark that states a property of an expression and no value (stop 63): "Hence $x = 4$. Note that $2^t$
# is one-to-one.", "Thus $x = 4$ (as $2^t$ is injective).", "..., as $f(t) = 2^t$ is increasing.", "There's no way
# $x$ isn't 4: $2^t$ is one-to-one." -- after a clause mark (and at most a word that introduces a reason or a note),
# a math span holding a variable is the subject, and a copula and words with no digit, no math and no word that judges
# an answer are the predicate: the remark justifies the value before it and states none. The math span is not the
# answer the last line gives; the value before the remark is.
_PROPERTY_REMARK = re.compile(
    r"(?P<open>[,;:(\u2013\u2014]|[.!](?=\s))[^\S\n]*(?:(?:as|since|because|here|note(?:[^\S\n]+that)?|recall(?:[^\S\n]+that)?|where)"
    r"[^\S\n]*,?[^\S\n]+)?(?:the[^\S\n]+[a-z]{3,12}[^\S\n]+)?\$(?P<math>[^$\n]{1,80})\$[^\S\n]+(?:is|are|remains|stays)[^\S\n]+"
    r"(?P<predicate>[^\d$\n.;:()=]{2,60})[.)!\s]*\Z", re.IGNORECASE)
_JUDGES_AN_ANSWER = re.compile(r"\b(?:not|no|never|wrong|incorrect|false|invalid|right|correct|true|valid|answer|result|solution|value|final|equal|"
                               r"undefined|unknown|unclear|ambiguous|actually|instead|guess|approximate|uncertain|unsure)\b|n't", re.IGNORECASE)
_VALUE_AT_END = re.compile(r"=[^\S\n]*[-+]?\d+(?:\.\d+)?[^\S\n]*\Z")


def property_remark_start(window: str) -> int | None:
    """Where a closing remark that states a property of an expression opens in ``window`` (comment above), else None.

    >>> window = "Thus $x = 4$ (as $2^t$ is injective)."
    >>> window[:property_remark_start(window)]
    'Thus $x = 4$ '
    >>> property_remark_start("So $x = 4$. $x$ is wrong.") is None
    True
    """
    if "$" not in window:
        return None
    remark = _PROPERTY_REMARK.search(window)
    if remark is None or not re.search(r"[A-Za-z]", remark.group("math")) or _VALUE_AT_END.search(remark.group("math")) \
            or _JUDGES_AN_ANSWER.search(remark.group("predicate")):
        return None
    return remark.end("open") if remark.group("open") in ".!" else remark.start("open")


def read_before_remark(text: str, read: Callable[[str], object],
                       other_quantities: Callable[[str, Callable], tuple | None] | None = None) -> tuple[object, int, int]:
    """``read`` (a reader of the last line, returning an answer with a ``text``, or None) applied to ``text`` without
    what closes it after the answer without stating a new one (module docstring): the answer, where the text it read
    ends, and where a closing restatement or remark on a part starts (``len(text)`` when there is none; a check or
    an aside stays in the text that decides commitment, a restatement or a remark on a part, which says nothing else,
    does not). ``other_quantities`` reads past a remark that states only other quantities (the same triple, or None)."""
    text = without_closing_label(text)  # (the caller cuts its text at the returned remark start)
    window = text[-TAIL:]
    rounded = _rounded_tail(window)
    if rounded is not None:
        remark_start = len(text) - len(window) + rounded[0]
        rest = _without_closing_check(text[:remark_start])
        found = read(rest) if re.search(r"\d", rest) else None
        if found is not None and agrees(found.text, rounded[1], rounded[2]):
            return found, len(rest), remark_start  # "19/12 ≈ 1.583", "1/6 (about 16.7 %)": the rounded value restates it
    summed = _SUM_TAIL.search(window)
    if summed is not None:
        remark_start = len(_rest(text, summed))
        rest = _without_closing_check(text[:remark_start])
        found = read(rest) if re.search(r"\d", rest) else None
        if found is not None and _sums_to(summed.group("sum"), found.text):
            return found, len(rest), remark_start  # "7/8 (as an Egyptian fraction, 1/2 + 1/4 + 1/8)." (holdout21)
    remark = _REMARK_SENTENCE.search(window)
    if remark is not None:
        remark_start = len(_rest(text, remark))
        rest = _without_closing_check(text[:remark_start])
        found = read(rest) if re.search(r"\d", rest) else None
        if found is not None and _about_a_part(rest.rstrip(" .!"), remark.group("sentence"), found.text):
            return found, len(rest), remark_start
    if other_quantities is not None and (before := other_quantities(_before_passing_check(text), read)) is not None:
        return before  # "... is 5 (and their product is 6)", ", attained at x = 3/2" (:mod:`.remark_values`)
    if (remark_start := property_remark_start(window)) is not None:
        rest = text[:len(text) - len(window) + remark_start]
        found = read(rest) if re.search(r"\d", rest) else None
        if found is not None and found.text:
            return found, len(rest), len(text)  # (the remark stays in the text that decides commitment)
    rest = _without_closing_check(text)
    return read(rest), len(rest), len(text)


# speed only (issue #35): a closing label is searched only in a text that holds a line break or both ":" and "/" (its
# prefilter: every branch opens with a line break but the score's "Score: 3/5"; ~9 µs a 200-character tail without)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_CLOSING_LABEL")
