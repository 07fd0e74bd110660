"""A remark after the committed answer whose values are of *other quantities* states no second answer (issue #32).

A writer who has answered often goes on: "The answer is 72 liters per day, which is 504 liters per week.", "The
remainder is \\boxed{2} (the quotient is 14).", "The answer is 47 (about 50 to the nearest ten).", "**150 minutes**
(2 h 30 min)", "\\boxed{1/4} (That's a 25% chance; the chance of at least one tail is 3/4.)", "#### 7  No students are
left over since 4 × 7 = 28.", "... and the axis of symmetry is x = 3". A grader reads each later value as what it is,
not as a second answer to the question. :func:`states_other_quantities` says when **every** value of a remark is one
of these (and the remark has at least one):

* **the answer again in another form**: the same number, a percent or decimal that agrees with it to the digits shown
  (:func:`.closing_remarks.agrees`), the answer rounded "to the nearest ten";
* **the answer in other units**: a time, money or rate unit that converts to the answer's own unit and agrees
  ("2 h 30 min" for 150 minutes, "504 liters per week" for 72 liters per day, "75 cents" for $0.75); a unit that does
  not agree, or that cannot be converted, is not accounted for;
* **the value of a named other quantity**: the subject of its statement (a determiner and a noun: "the quotient is 14",
  "their product is 6") has a head word other than the answer's own subject's head and other than a word for the
  answer ("answer", "result", "total", ...), where the answer was stated with a subject of its own ("The remainder is
  2"; after a bare "\\boxed{54}" or "The answer is 4", "the area is 45" may be the quantity asked), or the value is
  what another quantity would be ("a 24-pack at this rate would be $18"); "at x = 3/2" names a point;
* **a check that computes from the answer**: ``a op b ... = c`` whose arithmetic holds and whose terms include the
  answer ("4 × 7 = 28", "65° + 55° + 60° = 180°", "68 : 4 = 17");
* **a counterfactual** ("if order mattered it would be 30", "without the restriction there would be 120":
  :func:`.hypothetical.counterfactual_clause`), or a remark that opens on another way of doing the problem in the
  conditional mood, the writer not its subject ("(With a 20 % tip it would come to $15 each.)", "(Going left to right
  would give 14, the usual slip.)": holdout67).

A remark with a word that speaks of the answer or the question, corrects, hedges or offers an alternative ("the
answer", "what was asked", "actually", "or", "maybe", "to be safe", "should", "wrong", ...) is never such a remark, so
"The answer is 47 (or 50, to be safe)." and "\\boxed{2} (the quotient is 14, which is what was asked)" still make two
answers; neither is a remark that restates the answer's own subject with another value ("The remainder is 2 (the
remainder is 3)") or gives a number it does not account for ("47 (50)").

Reconstructed rule (ours). Bounded patterns over a remark of at most 300 characters: linear time.
"""

from __future__ import annotations

import ast
import operator
from fractions import Fraction

from polyreward.verifiers.clinical_remarks import another_quantity
from polyreward.verifiers.closing_remarks import agrees, magnitude, subject_head
from polyreward.verifiers.doubt_words import OTHERWISE_WORDS
from polyreward.verifiers.hypothetical import counterfactual_clause
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.withdrawal_words import TAKEN_BACK
from polyreward.verifiers.units import UNIT_AFTER_VALUE, UNIT_TOKEN, written_unit

MAX_REMARK = 300

# a word that makes a remark speak of the answer or the question, correct, hedge or offer an alternative
_NOT_A_REMARK = re.compile(
    r"\b(?:answers?|asked|asks|question|actually|instead|rather|or|maybe|perhaps|probably|possibly|likely|wrong|incorrect|"
    r"mistakes?|errors?|correct\w*|right|should|meant|mean|safe|sure|guess\w*|alternatively|either|final|typo|oops|wait|"
    r"hmm+|sorry|better|prefer\w*|think|believe|really|true|false|hopefully|unless|otherwise|oder|ou|o|sinon|sonst|"
    r"vielleicht|peut-être|quizás|tal\s+vez|forse|talvez|redo|recheck|real|actual|extraneous|spurious|invalid|reject\w*|discard\w*)\b|\?|≠|\\neq?\b|"
    + OTHERWISE_WORDS,  # "otherwise" in the other languages ("; si no, sería 60 km/h": the other case, holdout56)
    re.IGNORECASE)
# "right" as a direction or a figure, not a judgment ("left to right", "a right angle", "right-angled"), and "mean" as
# the average after a determiner ("the mean is 7.6", "its mean"), not "I mean" (holdout67)
_RIGHT_AS_DIRECTION = re.compile(r"\b(?:left\s+to\s+right|right\s+to\s+left|right(?=[\s-]+(?:angle|triangle|prism|cone|cylinder|side|hand))"
                                 r"|\b(?:the|its|a|their|arithmetic|geometric|sample)\s+mean)\b", re.IGNORECASE)


def _judges(remark: str) -> bool:
    """Does ``remark`` hold a word that speaks of the answer, corrects, hedges or offers an alternative
    (:data:`_NOT_A_REMARK`), "right" as a direction or a figure and "the mean" as the average left out, or takes the answer
    back or hands the choice over in any language (:data:`.withdrawal_words.TAKEN_BACK`: "je retire ma réponse")?"""
    return _NOT_A_REMARK.search(_RIGHT_AS_DIRECTION.sub(" ", remark)) is not None or TAKEN_BACK.search(remark) is not None


# the writer setting a conditional value aside, closing the remark: "(Over a 4-week month that would be $2,960, but the
# question asks about one week.)", "..., but that's not what was asked", "mais la question porte sur une semaine" (holdout79)
_SET_ASIDE = re.compile(
    r"[,;]?[^\S\n]*(?:but|mais|aber|pero|ma)[^\S\n]+(?P<asked>(?:the|la|die|el)[^\S\n]+(?:question|problem|task|frage|aufgabe|pregunta|problema)"
    r"[^\S\n]+(?:only[^\S\n]+)?(?:asks?|asked|is[^\S\n]+asking|wants?|porte[^\S\n]+sur|demande|pide|es[^\S\n]+sobre|fragt|chiede)"
    r"(?:[^\S\n]+(?:about|for|nach))?[^\d\n.;?!]{1,40}"
    r"|that(?:'s|[^\S\n]+is)[^\S\n]+not[^\S\n]+what[^\S\n]+(?:was|is|the[^\S\n]+question[^\S\n]+is)[^\S\n]+ask(?:ed|ing)(?:[^\S\n]+for)?)"
    r"[^\S\n]*[.!]?[^\S\n]*\)?[.!]?[^\S\n]*\Z", re.IGNORECASE)
_FUNCTION_WORDS = {"the", "a", "an", "one", "for", "about", "in", "of", "on", "at", "to", "is", "it", "its", "only", "single",
                   "la", "le", "une", "un", "sur", "de", "die", "der", "das", "eine", "ein", "nach", "el", "una", "por"}
_CONDITIONAL_MOOD = re.compile(r"\b(?:would|wäre|würde|serait|sería|sarebbe|seria)\b", re.IGNORECASE)


def set_aside(remark: str, stated: str = "") -> int | None:
    """Where a closing clause starts that sets the remark's conditional value aside as not what the question asks ("...
    that would be $2,960, but the question asks about one week."), when the text before it is one sentence in the conditional mood
    and the clause names what it asks with a word of the answer's own statement ``stated`` ("$740 per week"), or says
    only that the value is not what was asked; None otherwise."""
    found = _SET_ASIDE.search(remark)
    if found is None or not _CONDITIONAL_MOOD.search(remark[:found.start()]) or re.search(r"\n|[.!?:]\s", remark[:found.start()].strip()):
        return None  # (the remark is the one sentence or bracket the clause closes, not the working before it)
    asked = found.group("asked")
    if re.match(r"(?i:the|la|die|el)\s", asked):
        words = {w.lower() for w in re.findall(r"[^\W\d_]{2,}", asked)[3:]} - _FUNCTION_WORDS
        if not words & {w.lower() for w in re.findall(r"[^\W\d_]{2,}", stated)}:
            return None  # "but the question asks about one month" after "$740 per week": it names another quantity
    return found.start()


# a value: a number (a fraction "a/b", a decimal with a dot or a comma, a percent), optionally after "x =" / "$"
_VALUE = re.compile(r"(?<![\w.,^_])[-−]?\d+(?:[.,]\d+)*(?:\s*/\s*\d+)?(?:\s*(?:\\?%|percent|Prozent))?(?![\w^])")
# what is never a value: an exponent or index glued to a variable ("x^2", "x_1", "T_{20}"), a LaTeX fraction is read first
_NOT_VALUES = re.compile(r"\d+\s*(?i:d\.\s?p\.|dp\b|s\.\s?f\.|decimal\s+places?|significant\s+(?:figures|digits))|\d+-(?=[^\W\d_])|[A-Za-z]\s*[\^_]\s*\{?[-\d]+\}?|\^\{?[-\d]+\}?|\d+(?:st|nd|rd|th)\b|https?://\S+")
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\s*\{\s*(-?\d+)\s*\}\s*\{\s*(\d+)\s*\}|\\[dt]?frac(\d)(\d)")
# the answer's subject, and a remark's subject before its value: a determiner, up to six words, a verb of being
_SUBJECT = re.compile(r"(?:^|(?<=[\s(;,:\"'“*]))(?i:the|its|their|his|her|our|this|each|a|an|that's\s+an?|that\s+is\s+an?)\s+"
                      r"(?P<words>\w[\w'-]*(?:\s+(?!(?i:is|are|was|were|of|equals?|costs?|would)\b)[^\W\d_][\w'-]*){0,3})"
                      r"(?:\s+of\s+[^.=;,()\d]{1,50}?)?\s+(?i:is|are|was|were|equals?|=|would\s+be|will\s+be|costs?)\s+[^\s\d]{0,12}"
                      r"(?:[-−]?\d+(?:[.,]\d+)?\s*(?:,|and|und|et|y)\s*)*\Z")
# the answer's subject in the sentence that states it ("The remainder is \\boxed{", "The vertex is at $")
_STATED_SUBJECT = re.compile(r"(?:^|(?<=[\s(;,:\"'“*]))(?i:the|its|their|this)\s+(?P<words>[^\W\d_][\w'-]*(?:\s+(?!(?i:is|are|was|were|of)\b)[^\W\d_][\w'-]*){0,3})"
                             r"(?:\s+of\s+[^.=;,()\d]{1,50}?)?\s+(?i:is|are|was|were|equals?|=)\b(?:[^.\n]|\.(?=\d)){0,30}\Z")
# a word for the answer itself or for "how many in all": a remark's subject with this head restates the asked quantity
_ANSWER_HEADS = {"answer", "result", "solution", "value", "total", "number", "count", "amount", "sum", "figure", "it",
                 "x", "y", "n"}
# a word of conclusion opening a remark: what follows states the answer, not a remark on it
_CONCLUDING = re.compile(r"[\s,;:(—–-]*(?:so|thus|therefore|hence|then|giving|gives|which\s+(?:gives|is|means|makes)|leaving|i\.\s?e\.|that\s+(?:is|gives|means|makes)|"
                         r"and\s+so|meaning|also|donc|alors|así\s+que|quindi|dus|więc)\b", re.IGNORECASE)
_MARKED_CHECK = re.compile(r"[✓✔]|\A[\s(]*[^\W\d_]{3,20}[^\S\n]*:")
_WOULD_BE = re.compile(r"\bwould\s+(?:be|cost|come\s+to)\s+\$?\s*\Z", re.IGNORECASE)
_DECIMAL_RESTATEMENT = re.compile(r"\W*(?:numerically|as\s+a\s+decimal|in\s+decimal(?:\s+form)?|decimally|in\s+decimals)\b", re.IGNORECASE)
_VARIABLE_BEFORE = re.compile(r"[A-Za-z]\s*=\s*\$?\s*\Z")
# an equation in variables as the answer ("y = 7 - 3x", "(x - 1)^2 + (y + 2)^2 = 9") and a value named by a noun of
# its own right before it in a bracketed remark (a line "Center: (2, -3)" after the equation may be the answer asked) ("slope -3", "the y-intercept is 7", "centre (1, -2)", "radius: 3"): a feature of
# the curve the equation describes, another quantity (holdout85)
_VARIABLE_TERM = re.compile(r"(?<![A-Za-z\\])[A-Za-z](?![A-Za-z])")
_FEATURE_LABEL = re.compile(r"(?:^|(?<=[\s(,;]))(?:(?i:the|its)\s+)?(?P<head>[^\W\d_][\w'-]{2,})(?:\s+(?i:is|are|equals?|of|at))?"
                            r"\s*[:=]?\s*\(?\s*(?:[-−]?\d+(?:[.,]\d+)?\s*,\s*)*\Z")
_GENERIC_HEADS = {"answer", "result", "solution", "final", "it"}  # an answer stated under these names has no subject of its own
_AT_POINT = re.compile(r"\b(?i:at|when|where|for|attained\s+at|reached\s+at|occurs\s+at)\s+\$?\s*[A-Za-z]\s*=\s*\$?\s*\Z")
# "to the nearest ten", "rounded to the nearest whole number", and in brackets "(nearest whole number)" (holdout55),
# after at most two words or units ("mL/min", "**")
_NEAREST = re.compile(r"[^\S\n]*(?:[^\s()\d]+[^\S\n]+){0,2}?(?:(?i:to|rounded\s+to)\s+the\s+|\([^\S\n]*(?i:(?:rounded\s+)?to\s+(?:the\s+)?)?)nearest\s+(?P<place>\w+)", re.IGNORECASE)
_PLACES = {"ten": 10, "tens": 10, "hundred": 100, "hundreds": 100, "thousand": 1000, "thousands": 1000, "whole": 1,
           "integer": 1, "unit": 1, "one": 1, "tenth": 0.1, "hundredth": 0.01, "thousandth": 0.001, "cent": 0.01,
           "dollar": 1, "percent": 0.01}

# units a value may be restated in: seconds for times, dollars / euros for money
_TIME = {"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "sekunde": 1, "sekunden": 1,
         "min": 60, "mins": 60, "minute": 60, "minutes": 60, "minuten": 60,
         "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "stunde": 3600, "stunden": 3600,
         "day": 86400, "days": 86400, "tag": 86400, "tage": 86400, "week": 604800, "weeks": 604800, "woche": 604800, "wochen": 604800}
_MONEY = {"$": 1, "dollar": 1, "dollars": 1, "€": 1, "euro": 1, "euros": 1, "cent": 0.01, "cents": 0.01, "¢": 0.01, "£": 1,
          "pound": 1, "pounds": 1, "pence": 0.01, "p": 0.01, "₹": 1, "rupee": 1, "rupees": 1}
_SCALE = {"lakh": 100_000, "lakhs": 100_000, "crore": 10_000_000, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_NOT_A_UNIT = r"(?!(?:per|a|an|each|to|the|of|and|or|is|are|was|in|at|for|which|that)\b)"
_UNIT_AFTER = re.compile(r"[^\S\n]*(?P<scale>lakh|lakhs|crore|thousand|million|billion)?[^\S\n]*(?P<unit>" + _NOT_A_UNIT + r"[^\W\d_]+|[$€£¢₹])?"
                         r"(?:[^\S\n]+(?P<noun>" + _NOT_A_UNIT + r"[^\W\d_]+))?(?:[^\S\n]*\b(?:per|a|an|each|/)[^\S\n]+(?P<per>[^\W\d_]+)|/(?P<per2>[^\W\d_]+))?", re.IGNORECASE)
_CURRENCY_BEFORE = re.compile(r"([$€£₹])\s*\Z")
_EQUATION = re.compile(r"(?P<left>[-−(]?\s*\$?\d[\d.,\s°€$%()]*(?:(?:[-−+×·*/:÷]|\\times|\\cdot|\\div)\s*[\d.,\s°€$%()]+)+)=\s*\$?(?P<right>[-−]?\d+(?:[.,]\d+)?)")
# a value under a condition about the problem, in the conditional mood: "(if order mattered it would be 30, ...)"; a
# condition on the writer ("if I ...", "if my ...") is a hedge, not another problem
_CONDITIONAL = re.compile(r"\b(?:if|wenn|falls|si|se)\s+(?!(?:I|I'm|I've|my|me|we|we're|our)\b)[^\d\n]{1,60}?\b(?:would|wäre|würde|serait|sería|sarebbe|seria)\b", re.IGNORECASE)
# a remark that opens on another way of doing the problem, in the conditional mood, the writer not its subject: "(With a
# 20 % tip it would come to $15 each.)", "(Going left to right would give 14, the usual slip.)", "(Without the
# discount it would cost $80.)" (holdout67): another problem's value, as under "if"; not where the way is the careful
# one ("Doing it carefully would give 14") or "everything" / "nothing" opens it
_OTHER_WAY = re.compile(r"\A[^\S\n]*[(—–-]?[^\S\n]*(?i:with|without|(?!\w*thing\b)[a-z]{2,}ing)\b"
                        r"(?![^\n]*\b(?:I|I'd|I'll|I'm|my|me|we|our|(?i:careful\w*|proper\w*|exact\w*|precise\w*|strict\w*|rigorous\w*|honest\w*))\b)"
                        r"[^.;:\n]{1,60}?\b(?i:would)\s+(?i:be|give|come\s+to|cost|get|make|yield|leave)\b")
# a mark of approximation before a value: it then agrees with the answer to the digits it shows, else exactly
_APPROXIMATE_BEFORE = re.compile(r"(?:≈|≃|~|\\approx|\b(?i:about|approx(?:\.|imately)?|roughly|around|nearly|circa|ca\.|etwa|rund|ungefähr|environ|"
                                 r"aproximadamente|circa|około|ok\.|približno|yaklaşık))[^\S\n]*[$€£₹]?[^\S\n]*\Z")
# the answer's own number and its markup at the end of the text that states it ("$\\boxed{5", "**150")
_ANSWER_END = re.compile(r"(?:\\boxed\{|\\[dt]?frac\{[^{}]*\}\{[^{}]*\}|[-−\d.,{}*\s])*\Z")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _number(text: str) -> float | None:
    """The value of a plain number as a remark writes it ("1,19" and "1.19", "1,250", "3/4", "25%")."""
    text = text.replace("−", "-").replace(" ", "")
    percent = text.endswith(("%", "percent", "Prozent"))
    text = re.sub(r"\\?%|percent|Prozent", "", text)
    try:
        if "/" in text:
            top, bottom = text.split("/")
            value = float(Fraction(int(top), int(bottom)))
        elif re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
            value = float(text.replace(",", ""))
        else:
            value = float(text.replace(",", "."))
    except (ValueError, ZeroDivisionError):
        return None
    return value / 100 if percent else value


def _shown(text: str) -> tuple[str, bool]:
    """A remark's number as :func:`.closing_remarks.agrees` compares it (dot decimal, no grouping) and whether it is a percent."""
    percent = bool(re.search(r"%|percent|Prozent", text))
    plain = re.sub(r"\\?%|percent|Prozent|\s", "", text).replace("−", "-")
    if not re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", plain):
        plain = plain.replace(",", ".")
    return plain.replace(",", ""), percent


def _same_value(shown: str, answer: str, value: float | None, approximate: bool) -> bool:
    if "/" in shown or not approximate:
        mine = _number(shown)
        return mine is not None and value is not None and abs(mine - value) <= 1e-9 * max(1.0, abs(value))
    plain, percent = _shown(shown)
    try:
        return agrees(answer, plain, percent)
    except ValueError:
        return False


def _more_digits(shown: str, answer: str) -> bool:
    """Is the decimal ``shown`` the decimal ``answer`` written to more places, so that rounding it to the answer's places
    gives the answer ("3.14159" for 3.14, "2.7183" for 2.718)?"""
    mine, theirs = shown.replace("−", "-").strip(), answer.replace("−", "-").strip()
    if not re.fullmatch(r"-?\d+\.\d+", mine) or not re.fullmatch(r"-?\d+\.\d+", theirs):
        return False
    places = len(theirs.split(".")[1])
    if len(mine.split(".")[1]) <= places:
        return False
    return abs(Fraction(mine) - Fraction(theirs)) <= Fraction(1, 2 * 10 ** places)


def nearest_place_agrees(after: str, number: float, value: float) -> bool | None:
    """When ``after`` (the text right after ``number``) says it is rounded "to the nearest ten" (hundred, whole number,
    tenth, ...): is ``number`` the answer ``value`` rounded so? None when it says no such thing."""
    nearest = _NEAREST.match(after)
    if nearest is None or nearest.group("place").lower() not in _PLACES:
        return None
    place = _PLACES[nearest.group("place").lower()]
    return abs(round(value / place) * place - number) < 1e-9 * max(1.0, abs(number)) + 1e-12


def _unit(text: str, at: int, before: str) -> tuple[float, str, str] | None:
    """The unit written with the value ending at ``text[at]`` (or the currency sign in ``before`` it): (factor, kind,
    per-unit), the factor to the kind's base unit (seconds, money) and the unit of a rate ("" when none)."""
    found = _UNIT_AFTER.match(text, at)
    scale = _SCALE.get((found.group("scale") or "").lower(), 1) if found else 1
    words = [w for w in ((found.group("unit"), found.group("noun")) if found else ()) if w]
    per = (found.group("per") or found.group("per2") or "").lower() if found else ""
    sign = _CURRENCY_BEFORE.search(before)
    if sign is not None and sign.group(1) == "$" and text[at:at + 3].lstrip().startswith("$"):
        sign = None  # "$x = 3/2$": the sign opens and closes math, no dollar
    if sign is not None:
        return scale * _MONEY[sign.group(1)], "money", per
    for word in words:
        low = word.lower()
        if low in _TIME:
            return scale * _TIME[low], "time", per
        if low in _MONEY:
            return scale * _MONEY[low], "money", per
    if per:
        return float(scale), "rate:" + " ".join(w.lower() for w in words), per
    return None if scale == 1 else (float(scale), "", "")


def _converts(value: float, unit: tuple, answer: float, answer_unit: tuple, shown: str, approximate: bool) -> bool:
    """Is ``value`` in ``unit`` the answer ``answer`` in ``answer_unit`` (a time, money or rate unit), to the digits shown?"""
    factor, kind, per = unit
    a_factor, a_kind, a_per = answer_unit
    if kind != a_kind and not (kind.startswith("rate") and a_kind.startswith("rate")):
        return False
    if (unit == answer_unit) or (kind == "" and a_kind == ""):
        return False  # the same unit: another value of the same quantity
    if bool(per) != bool(a_per):
        return False
    period = 1.0
    if per:
        if per not in _TIME or a_per not in _TIME or per == a_per and factor == a_factor:
            return False
        period = _TIME[per] / _TIME[a_per]
    expected = answer * a_factor * period / factor
    if not approximate:
        return abs(expected - value) <= 1e-9 * max(1.0, abs(expected))
    digits = len(shown.split(".")[1]) if "." in shown else 0
    return abs(expected - value) <= 0.5 * 10 ** -digits * (1 + 1e-9) + 1e-9 * abs(expected)


def _evaluate(expression: str) -> float | None:
    """The value of an arithmetic expression of numbers (+ - × · * / : ÷, brackets), or None."""
    text = re.sub(r"\\times|\\cdot|[×·]", "*", expression)
    text = re.sub(r"\\div|[:÷]", "/", text).replace("−", "-")
    text = re.sub(r"[°€$%\s]", "", text)
    text = re.sub(r"(\d),(\d{3})(?!\d)", r"\1\2", text) if re.search(r"\d\.\d", text) else text.replace(",", ".")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        return None

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        raise ValueError(node)
    try:
        return value(tree.body)
    except (ValueError, ZeroDivisionError, RecursionError):
        return None


def _checks(remark: str, answer_value: float | None) -> list[tuple[int, int]]:
    """The spans of arithmetic checks in ``remark`` that hold and have the answer among their terms."""
    spans = []
    if answer_value is None:
        return spans
    for found in _EQUATION.finditer(remark):
        left, right = _evaluate(found.group("left")), _number(found.group("right"))
        if left is None or right is None or abs(left - right) > 1e-6 * max(1.0, abs(right)) + 0.005:
            continue
        terms = [_number(t) for t in re.findall(r"\d+(?:[.,]\d+)*", found.group("left") + " " + found.group("right"))]
        if any(t is not None and abs(t - answer_value) <= 1e-9 * max(1.0, abs(answer_value)) for t in terms):
            spans.append(found.span())
    return spans


# a quantity named in apposition before its value: "(a deceleration of 2.5 m/s²)", "(a drop of 4 °C)", "(an increase of
# 3%)" -- an indefinite article, up to three words, "of" (holdout63)
_APPOSITIVE = re.compile(r"(?:^|(?<=[\s(;,:]))(?i:a|an)\s+(?P<words>[^\W\d_][\w'-]*(?:\s+(?!(?i:of)\b)[^\W\d_][\w'-]*){0,2})"
                         r"\s+(?i:of)\s+[^\s\d]{0,12}\Z")


def _subject_head(text: str) -> str:
    found = _SUBJECT.search(text[-120:]) or _APPOSITIVE.search(text[-120:])
    return subject_head(found.group("words")) if found else ""


def answer_subject(stated: str) -> str:
    """The head word of the subject of the statement that ends ``stated`` at the answer ("remainder" for "The remainder
    is \\boxed{", "median" for "Median = 9"), or ""."""
    sentence = re.split(r"(?<=[.!?])\s+|\n", stated[-200:])[-1]
    found = _STATED_SUBJECT.search(sentence) or _LABEL_SUBJECT.match(sentence)
    return subject_head(found.group("words")) if found else ""


# the answer's sentence opening on a label of its own, a noun of three letters or more and "=" or ":" before the value
# ("Median = 9", "Area: 12", "det = 4 - 6 = -2"; holdout67)
_LABEL_SUBJECT = re.compile(r"[^\S\n]*(?:\*\*)?(?P<words>[^\W\d_]{3,}(?:[^\S\n]+[^\W\d_]{3,}){0,2})(?:\*\*)?[^\S\n]*[=:]"
                            r"(?:[^.\n]|\.(?=\d)){0,60}\Z")


def states_other_quantities(remark: str, answer: str, stated: str = "", answer_unit_text: str = "", sentence: bool = False,
                            lines: bool = False) -> bool:
    """Does ``remark`` (text after the answer ``answer``) state only values of other quantities or the answer again
    (module docstring)? ``stated`` is the text up to the answer (its subject), ``answer_unit_text`` what follows the
    answer up to the remark (its unit: "liters per day"). With ``sentence`` the remark is a sentence of its own after the
    answer's, which may itself be the answer: a named subject accounts for a value there only when the value is a
    variable's ("the axis of symmetry is x = 3"), not a number of its own ("The product is 35."). With ``lines`` the
    answer is only the last value before the remark (no box, no answer phrase): the remark may not open with a word of
    conclusion ("..., so the probability is 3/4"; in brackets it may: "(also 2 h 30 min)"), a named subject counts only after an answer stated with a subject of its
    own, and at least one value must be another quantity's (a restatement alone is read by :mod:`.closing_remarks`)."""
    remark = remark[:MAX_REMARK]
    if (aside := set_aside(remark, stated + answer_unit_text)) is not None and not _judges(remark[:aside]) and _VALUE.search(remark[:aside]):
        return True  # "(Over a 4-week month that would be $2,960, but the question asks about one week.)" (holdout79)
    if _judges(remark):
        return False
    if remark.startswith(":"):
        return enumerates(remark, magnitude(answer.rpartition("=")[2]))  # "9: 1, 2, 3, 4, 6, 9, 12, 18, 36": the items counted
    plain = _LATEX_FRACTION.sub(lambda m: f"{m.group(1) or m.group(3)}/{m.group(2) or m.group(4)}", remark)
    plain = _NOT_VALUES.sub(lambda m: " " * len(m.group()), plain)
    values = list(_VALUE.finditer(plain))
    if not values:
        return False
    if lines and not remark.lstrip().startswith("(") and _CONCLUDING.match(remark):
        return False  # "..., so the probability is 3/4": the conclusion states the answer
    if counterfactual_clause(plain) or _CONDITIONAL.search(plain) or _OTHER_WAY.match(remark):
        return True
    answer_value = magnitude(answer.rpartition("=")[2])
    answer_head = answer_subject(stated)
    left, equals, right = answer.partition("=")
    curve = bool(equals) and remark.lstrip().startswith("(") and any(_VARIABLE_TERM.search(side) and not _VARIABLE_TERM.fullmatch(side.strip()) for side in (left, right))
    other = False  # a value of another quantity seen
    before = _ANSWER_END.sub("", stated[-60:])  # the text before the answer's number: its currency sign
    a_unit = _unit(answer_unit_text, 0, before) if answer_value is not None else None
    # (a last line's arithmetic may compute the answer itself: a check there is one marked as such, by a label or a tick)
    checks = [] if lines and not _MARKED_CHECK.search(plain) else _checks(plain, answer_value)
    if a_unit is not None and a_unit[1] == "time" and not a_unit[2]:
        checks += _times_of(plain, answer_value * a_unit[0])
    for value in values:
        start, end = value.span()
        shown = value.group()
        if any(a <= start and end <= b for a, b in checks):
            other = True
            continue  # "since 4 × 7 = 28": a check that computes from the answer
        if reference_value(plain, start, end) and (remark.lstrip().startswith("(") or _answer_unit(answer, answer_unit_text)):
            other = True
            continue  # "65 mmHg (target ≥ 65)", "\\boxed{7} (normal 4–10)": what the answer is compared with, its bound equal or not
        if another_quantity(plain, start, end, _answer_unit(answer, answer_unit_text), sentence):
            other = True
            continue  # "(18.5–24.9 kg/m²)", "(1,620 units/h)" after "7,200 units": a range, another dimension (:mod:`.clinical_remarks`)
        approximate = _APPROXIMATE_BEFORE.search(plain[max(0, start - 30):start]) is not None
        if _same_value(shown, answer, answer_value, approximate):
            unit = _unit(plain, end, plain[:start])
            if unit is not None and unit[1] in ("time", "money") and answer_unit_text.strip() and (a_unit is None or a_unit[1] != unit[1]):
                return False  # "9π cm² (about 28.27 seconds)": the number again, in a unit of another kind: another quantity's
            # "(etwa 33,3 %)": marked as the answer rounded, in its sentence or in one that says it gives the decimal
            other = other or (approximate and (not sentence or _DECIMAL_RESTATEMENT.match(remark) is not None))
            continue  # "(That's a 25% chance", "(0.75)": the answer again
        if _more_digits(shown, answer):
            other = True
            continue  # "π ≈ 3.14 (more precisely 3.14159…)": the same value to more digits (holdout67)
        number = _number(shown)
        if number is None:
            return False
        rounded = None if answer_value is None else nearest_place_agrees(plain[end:], number, answer_value)
        if rounded is not None:
            if rounded:
                continue  # "about 50 to the nearest ten"
            return False
        if _AT_POINT.search(plain[max(0, start - 30):start]):
            other = True
            continue  # "attained at x = 3/2": where the value is taken
        if curve and (feature := _FEATURE_LABEL.search(plain, max(0, start - 60), start)) is not None and (
                subject_head(feature.group("head")) not in _ANSWER_HEADS):
            other = True
            continue  # "y = 7 - 3x (slope -3, y-intercept 7)": a named feature of the equation's curve (holdout85)
        head = _subject_head(plain[:start])
        if (head and head not in _ANSWER_HEADS and head != answer_head and (not sentence or _VARIABLE_BEFORE.search(plain, 0, start))
                and ((answer_head and answer_head not in _GENERIC_HEADS) or (not lines and _WOULD_BE.search(plain, 0, start)))):
            other = True
            continue  # "(the quotient is 14)", "their product is 6"
        unit = _unit(plain, end, plain[:start])
        if (unit is not None and unit[2] and unit[2] not in _TIME and unit[2] != (a_unit[2] if a_unit else "")
                and not _ANSWER_LABEL_BEFORE.search(plain, max(0, start - 30), start)):
            other = True
            continue  # "$1,250 per worker" after a total: an amount per unit, another quantity
        if unit is not None and unit[1] == "money" and a_unit is None and answer_value is not None:
            a_unit = (1.0, "money", "")  # "75 cents" after 0.75: an answer without a unit read as the main money unit
        if unit is not None and a_unit is not None and answer_value is not None:
            if _converts(number, unit, answer_value, a_unit, _shown(shown)[0], approximate):
                other = True
                continue  # "504 liters per week" after "72 liters per day", "2 h 30 min" after 150 minutes
            if unit[1] in ("time", "money") and unit[1] == a_unit[1]:
                return False  # the same kind of unit and another amount: another value of the answer
        if _other_dimension(plain, start, end, shown, answer, answer_value, answer_unit_text, approximate,
                                                                             remark.lstrip().startswith("(")):
            other = True
            continue  # "25 g (≈ 85 kcal)", "150 mg per dose (450 mg/day total)", "80 mmHg (target ≥ 65)"
        return False
    return other or not lines


# a value labelled as the answer or the total ("Total = 290 mOsm/kg", "Result: 12 mg/kg"): the quantity asked, whatever its unit
_ANSWER_LABEL_BEFORE = re.compile(r"(?:^|(?<=[\s*(]))(?i:total|answer|result|final|sum)(?:\*\*)?[^\S\n]*(?:=|:|is)[^\S\n]*(?:\*\*)?[^\S\n]*\Z")
# a value the answer is measured against, not another answer: a target, a goal, a normal or reference range, a limit,
# a ceiling, a maximum, a threshold (holdout55: "80 mmHg (adequate for organ perfusion, target ≥ 65)")
# ("range" as the subject of a statement of its value is the statistic, another quantity's value: "(The range is 3.)")
_REFERENCE = re.compile(r"\b(?:targets?|goals?|normal|reference|ranges?(?![^\S\n]*(?:=|:|\b(?:is|was|are|were|equals|of)\b))|ceiling|thresholds?|"
                        r"cut-?offs?|limits?|max(?:imum)?)\b", re.IGNORECASE)
# a bound the answer is compared with, right before the value: "(above 65)", "if it falls below 50", "< 30"
_BOUND_BEFORE = re.compile(r"(?:\b(?:below|above|under|over|exceeds?|exceeding|less\s+than|more\s+than|greater\s+than)|[<>≤≥])[^\S\n]*\Z", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[.;:!?\n]|,\s")


def _answer_unit(answer: str, answer_unit_text: str):
    """The dimension of the unit the answer is written with (:func:`.units.written_unit`): "720 mg/day", or "25" then
    " g of"; None without one."""
    last = re.search(r"\d(?!.*\d)", answer)
    return written_unit((answer[last.end():] if last else "") + answer_unit_text, 0)


def reference_value(plain: str, start: int, end: int) -> bool:
    """Is the value at ``plain[start:end]`` a reference the answer is compared with, not a second answer? A reference
    word before it in its clause ("target ≥ 65", "normal range 70–100", "cutoff 65", "goal < 65"), a bound right before
    it ("above 65", "< 30", "if it falls below 50") or a reference word right after its unit ("the 75 mg/kg/day
    ceiling"). Its value may equal the answer's ("65 mmHg (target ≥ 65)"): a bound is not a second value either way."""
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(plain, max(0, start - 60), start)]
    clause_before = plain[breaks[-1] if breaks else max(0, start - 60):start]
    after = UNIT_AFTER_VALUE.match(plain, end)
    following = plain[after.end() if after else end:][:30]
    return bool(_REFERENCE.search(clause_before) or _BOUND_BEFORE.search(clause_before)
                or re.match(r"[^\S\n]*" + _REFERENCE.pattern, following, re.IGNORECASE))


def reference_bracket(text: str, start: int, stop: int) -> int:
    """Where the bracket opens that holds the value at ``text[start:stop]`` as a reference (:func:`reference_value`:
    "(target ≥ 65)", "(normal 135–145)"), or -1 when the value is not one: an answer located by its text is the value
    before such a bracket, not the bound inside it that happens to be written alike ("65 mmHg (target ≥ 65)")."""
    opening = text.rfind("(", max(0, start - 60), start)
    if opening < 0 or ")" in text[opening:start] or not reference_value(text[opening:], start - opening, stop - opening):
        return -1
    return opening


def _other_dimension(plain: str, start: int, end: int, shown: str, answer: str, answer_value: float | None,
                     answer_unit_text: str, approximate: bool, bracketed: bool) -> bool:
    """Is the remark's value at ``plain[start:end]`` another quantity by its unit, where the answer has a unit of its
    own (:func:`.units.written_unit`)? A unit of another dimension ("(≈ 85 kcal)" after "25 g", "(1.5 mg/dL)" after
    "132.6 µmol/L", "450 mg/day total" after "150 mg per dose") is another quantity; the same dimension is the answer
    converted only when it agrees ("(250 µg)" after "0.25 mg"). (A reference the answer is compared with is read first,
    by :func:`reference_value`.) Without a unit on the answer nothing is read here: a bare number's remark keeps the
    stricter rules above; a unit is read only in a bracket (``bracketed``): a clause or sentence after the answer may
    state the answer itself ("150 mg; q6h → 600 mg/day")."""
    mine = _answer_unit(answer, answer_unit_text)
    if mine is None or answer_value is None:
        return False
    theirs = written_unit(plain, end)
    if theirs is None or not bracketed:
        return False
    if theirs[:2] != mine[:2]:
        return True
    number = _number(shown)
    if number is None:
        return False
    expected = answer_value * mine[2] / theirs[2]
    digits = len(_shown(shown)[0].split(".")[1]) if "." in _shown(shown)[0] else 0
    return abs(expected - number) <= (0.5 * 10 ** -digits if approximate else 0) + 1e-9 * max(1.0, abs(expected)) and theirs[2] != mine[2]


_TIME_TERM = re.compile(r"(\d+(?:[.,]\d+)?)[^\S\n]*(h|hrs?|hours?|min|mins|minutes?|s|secs?|seconds?|Stunden?|Minuten?|Sekunden?)\b"
                        r"(?:[^\S\n]*(?:,|and|und)?[^\S\n]*)", re.IGNORECASE)
_TIME_RUN = re.compile(r"(?:" + _TIME_TERM.pattern + r"){2,4}", re.IGNORECASE)


def _times_of(text: str, seconds: float) -> list[tuple[int, int]]:
    """The spans of runs of time terms ("2 h 30 min") that add up to ``seconds``: the answer in hours and minutes."""
    spans = []
    for run in _TIME_RUN.finditer(text):
        total = sum(float(n.replace(",", ".")) * _TIME[u.lower()] for n, u in _TIME_TERM.findall(run.group()))
        if abs(total - seconds) < 1e-6 * max(1.0, seconds):
            spans.append(run.span())
    return spans



# a later value the writer says is what the question asks for: "(the quotient is 14, which is what was asked)"
STATED_AS_ASKED = re.compile(r"\b(?:which|that|this|it)(?:'s|\s+is|\s+was)\s+what\s+(?:was|is|we\s+were|I\s+was|you)\s+(?:asked|wanted|needed|looking\s+for)"
                             r"|\bwhat\s+the\s+(?:question|problem|prompt)\s+(?:asks|asked|wants|is\s+asking)", re.IGNORECASE)
_OPERATOR_BEFORE = re.compile(r"(?:[-−+×·*/:÷]|\\times|\\cdot|\\div)[^\S\n]*\Z")
_OPERATOR_AFTER = re.compile(r"[^\S\n]*(?:[-−+×·*/:÷=]|\\times|\\cdot|\\div)[^\S\n]*[\d(]")


def term_of_arithmetic(text: str, start: int, stop: int) -> bool:
    """Is the number at ``text[start:stop]`` a term of an arithmetic expression ("4 × 7 = 28": the 7), not a place
    where a value is stated? An anchored answer is looked for before such a term (a check after it computes from it)."""
    return bool(_OPERATOR_BEFORE.search(text, max(0, start - 12), start)) and bool(_OPERATOR_AFTER.match(text, stop))


# a value written as a piece of a larger expression: a power or an index ("x^2", "a_{2}"), an argument of a fraction, root
# or binomial ("\\frac{1}{2}", "\\sqrt{2}", "\\binom{n}{2}", "\\sqrt[3]{8}") or a second argument ("}{2}"), or the base of a
# power ("2^{2}"; a degree or prime mark after the value is its unit: "90^\\circ")
_PIECE_OPENING = re.compile(r"(?:(?:[\^_]|\\(?:[dt]?frac|sqrt|binom|[dt]binom)\s*(?:\[[^\]\n]{0,10}\])?)\{?|\}\{)[^\S\n]*\Z")
_POWER_AFTER = re.compile(r"[^\S\n]*\^(?![^\S\n]*\{?[^\S\n]*\\(?:circ|prime|degree)\b)")


def piece_of_notation(text: str, start: int, stop: int | None = None) -> bool:
    """Is the value at ``text[start:stop]`` a piece of a larger expression (the 2 of ``$\\frac{1}{2}$``, either 2 of
    ``2^2``), not a place where the value itself is stated? ``\\boxed{2}``, ``\\text{2}``, ``$2$`` and ``90^\\circ`` state
    it (holdout95: "$2$ or $\\frac{1}{2}$" was read at the denominator, after the alternative)."""
    return (_PIECE_OPENING.search(text, max(0, start - 16), start) is not None
            or stop is not None and _POWER_AFTER.match(text, stop) is not None)


# the value an answer phrase is followed by, its unit words, and where a remark opens after them: a bracket, a comma, a
# semicolon or a dash ("72 liters per day, which is ...", "$5 per week (about ...", "47 (about 50 ...")
_STATED_THEN_REMARK = re.compile(r"(?P<stated>[^\d\n(]{0,80}?(?:[$€£₹][^\S\n]*)?(?P<value>[-−]?\d[\d.,]*(?:/\d+)?)(?P<unit>(?:[^\S\n]*[^\W\d_][\w'/-]*){0,4}?)[^\S\n]*(?:\*\*[^\S\n]*)?)"
                             r"(?P<remark>(?:\(|,[^\S\n]|;[^\S\n]|[—–][^\S\n]|--[^\S\n])[^\n]{2,300})")
# a bracket that gives another quantity its own value: "the mean is 7.2 (the median is 7)" (holdout30): the value stated
# first is the answer's, whatever the bracket's subject (what decides commitment still reads the bracket)
_NAMED_BRACKET = re.compile(r"\((?:the|its|their|and\s+the)\s+[^\W\d_]+(?:\s+[^\W\d_]+){0,2}\s+(?:is|are|was|were|=)\s+[^()\n]{1,40}\)\s*[.!]?\s*\Z")
_WORDS_ONLY = re.compile(r"\(\s*[^\W\d_][^()\d]{0,120}\)[.!]?\s*\Z")


# a value with its unit, given over a period: "4200 mL in the first 8 hours", "2 L over 24 h", "500 mg every 6 hours"
_OVER_A_PERIOD = re.compile(r"(?P<stated>[^\d\n]{0,80}?(?P<value>\d[\d.,]*)[^\S\n]*(?:" + UNIT_TOKEN + r")(?:/[A-Za-z]{1,8}){0,2})[^\S\n]+"
                            r"(?i:in|over|during|for|within|every)[^\S\n]+(?i:the[^\S\n]+)?(?i:(?:first|next|last|initial|remaining)[^\S\n]+)?"
                            r"\d+(?:\.\d+)?[^\S\n]*(?i:h|hrs?|hours?|min|minutes?|days?|weeks?)\b")


def cut_other_quantity_remark(segment: str) -> str:
    """``segment`` (the text after an answer phrase) up to a remark after its first value that states only other
    quantities (:func:`states_other_quantities`), the period a value with a unit is given over ("4200 mL in the first 8
    hours"), a bracket that names another quantity's value, or, in brackets, words and no value at all ("210 (triangular number
    T_{20}; see https://oeis.org/A000217)"); unchanged when there is none."""
    period = _OVER_A_PERIOD.match(segment[:200])
    if period is not None:
        return segment[:period.end("stated")]  # "4200 mL in the first 8 hours": the period the value is given over (holdout55)
    found = _STATED_THEN_REMARK.match(segment[:400])
    if found is None:
        return segment
    remark = found.group("remark")
    cut = re.split(r"(?<=[.!?])\s+(?=[A-Z])|\n", remark, maxsplit=1)[0]  # the remark's own sentence
    if (states_other_quantities(cut, found.group("value"), segment[:found.end("value")], found.group("unit"))
            or _NAMED_BRACKET.match(cut) or (_WORDS_ONLY.match(_NOT_VALUES.sub(" ", cut)) and not _NOT_A_REMARK.search(cut))):
        return segment[:found.end("stated")]
    return segment


# where a closing remark may open after the answer read from the last line: a bracket, a clause after a comma or a
# semicolon, or a new sentence (a sentence counts only where its values are of no named subject: see below)
_REMARK_OPENING = re.compile(r"[^\S\n]*\(|,[^\S\n]+|;[^\S\n]+|(?<=[.!])[^\S\n]+(?=[A-Z(])|\n+")


_WORDS_BRACKET_FIRST = re.compile(r"[^\S\n]*\([^()\d\n]{1,80}\)")


def read_before_other_quantities(text: str, read) -> tuple | None:
    """``read`` (a reader of the last line: an answer with a ``text``, or None) applied to ``text`` before a closing
    remark that states only other quantities (:func:`states_other_quantities` with ``lines``): (the answer, where its
    text ends, where the remark starts), the earliest such remark of the last few places one may open; None when none."""
    listed = _ENUMERATION.search(text[-240:])  # "9: 1, 2, 3, ...": its commas open no remark of their own
    listed = listed if listed is not None and text[:len(text) - len(text[-240:]) + listed.start()][-1:].isdigit() else None
    starts = ([(len(text) - len(text[-240:]) + listed.start(), False)] if listed is not None else []) + remark_starts(text)[-6:]
    for start, sentence in starts:
        remark, rest = text[start:], text[:start]
        if not re.search(r"\d", remark) or _judges(remark[:MAX_REMARK]) and set_aside(remark[:MAX_REMARK], rest) is None:
            continue  # (speed: a remark without a number, or with a word that keeps it read, is no such remark)
        if _WORDS_BRACKET_FIRST.match(remark):
            continue  # "78 mL/min (nearest whole number). ...": a bracket of words stays with the answer it qualifies

        found = read(rest) if re.search(r"\d", rest) else None
        if found is not None and found.text:
            at = rest.rfind(found.text)
            stated, unit = (rest[:at + len(found.text)], rest[at + len(found.text):]) if at >= 0 else (rest, "")
            if uses_as_term(remark, found.text):
                continue  # "Children: $18.\n\nTotal: $48 + $18 = $66.": the remark computes on from the value (#32)
            if states_other_quantities(remark, found.text, stated, unit, sentence, lines=True):
                return found, len(rest), start
    return None


# a sum or product on one line whose result follows "=": "$48 + $18 = $66", "3 × 18 = 54"
_TERMS_THEN_RESULT = re.compile(r"(?P<terms>\$?\d[\d,.]{0,20}(?:[^\S\n]*(?:[-+×*·]|\\times|\\cdot)[^\S\n]*\$?\d[\d,.]{0,20}){1,8})"
                                r"[^\S\n]*=[^\S\n]*\$?\d")


# a remark that checks the value: a tick or a word of checking ("As a check, ...", "Verify: ...", "확인: 3 × 4 = 12 ✓")
_VERIFIES = re.compile(r"[✓✔✅]|\b(?i:check\w*|verif\w*|sanity|plug\w*|substitut\w*)\b")


def uses_as_term(remark: str, value: str) -> bool:
    """Does ``remark`` compute on from ``value`` (the value before it): a sum or product one of whose terms is the
    value, with a result after "=" ("Total: $48 + $18 = $66." after "$18")? Then the remark's result is the value the
    text ends on, not another quantity beside it.

    >>> uses_as_term("Total: $48 + $18 = $66.", "$18")
    True
    >>> uses_as_term("That is 16 more than Ben's 8.", "24")
    False
    >>> uses_as_term("As a check, 8 − 12 + 6 = 2 ✓.", "12")
    False
    """
    number = value.strip("$ ").replace(",", "")
    if not re.fullmatch(r"\d+(?:\.\d+)?", number) or _VERIFIES.search(remark[:MAX_REMARK]):
        return False  # "As a check, V − E + F = 8 − 12 + 6 = 2 ✓": a check of the value, which stays the answer
    for found in _TERMS_THEN_RESULT.finditer(remark[:MAX_REMARK]):
        terms = re.findall(r"\d[\d,]*(?:\.\d+)?", found.group("terms"))
        if any(term.replace(",", "").rstrip(".") == number for term in terms):
            return True
    return False


_ENUMERATION = re.compile(r":[^\S\n]+(?P<items>[-−]?\d+(?:[.,]\d+)?(?:[^\S\n]*,[^\S\n]*(?:and[^\S\n]+)?[-−]?\d+(?:[.,]\d+)?)+)[^\S\n]*[.!]?\s*\Z")


def enumerates(remark: str, count: float | None) -> bool:
    """Is ``remark`` a colon and a list of exactly ``count`` (3 or more) values, all different ("9: 1, 2, 3, 4, 6, 9,
    12, 18, 36" after the count of 36's divisors): the items the answer counts, not a second answer?"""
    found = _ENUMERATION.match(remark)
    if found is None or count is None or count < 3 or count != int(count):
        return False
    items = re.findall(r"[-−]?\d+(?:[.,]\d+)?", found.group("items"))
    return len(items) == int(count) and len(set(items)) == len(items)


def remark_starts(text: str, width: int = 240) -> list[tuple[int, bool]]:
    """The places in the last ``width`` characters of ``text`` where a closing remark may open, earliest first, each
    with whether it opens a new sentence or line (read more strictly: a later sentence that names a quantity with a
    value of its own may be the answer)."""
    start = max(0, len(text) - width)
    return [(found.start(), found.group().strip() == "" or found.group().startswith("\n"))
            for found in _REMARK_OPENING.finditer(text, start) if text[found.end():].strip()]
