"""A math gold and a completion's answer, read into what the comparison (:mod:`.math`) compares: the gold as a
:class:`Reference` (a number, an option letter, words, LaTeX or unusable: GSM8K ``#### 42`` and boxed solutions
reduced to the answer) and the completion's committed final answer as a :class:`Prediction` (``<think>`` stripped,
the answer extracted by :mod:`.answer_extraction`, normalised by :mod:`.math_normalize`, its value as a number where
it shows one, and whether it states two different numbers as equal). Both are read once per distinct text (cached).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.givens import past_givens
from polyreward.verifiers.math_canonical import canonical
from polyreward.verifiers.math_forms import LETTERS as _LETTERS, option_label, word_answer
from polyreward.verifiers.math_normalize import Numeral, normalize_answer, parse_numeral, size_problem
from polyreward.verifiers.math_notation import read_through
from polyreward.verifiers.math_relations import inequality_in_words
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.dialogues import unsettled_dialogue
from polyreward.verifiers.open_answers import left_open
from polyreward.verifiers.asked_notation import in_asked_notation
from polyreward.verifiers.number_locale import answer_line, english_numerals, scales_asked, words_disagree
from polyreward.verifiers.polynomial import parse_polynomial
from polyreward.verifiers.rounded_final import approximated_value
from polyreward.verifiers.closing_remarks import rounding_asked
from polyreward.verifiers.units import durations_in_asked_unit, past_dosing_verb
from polyreward.verifiers.work_avoidance import without_arguments


@dataclass(frozen=True)
class Reference:
    """A prepared gold answer. ``kind``: number, letter, latex or invalid (``problem`` says why)."""

    kind: str
    text: str
    numeral: Numeral | None = None
    problem: str = ""
    polynomial: tuple | None = None  # expanded polynomial (parse_polynomial) for the no-sympy path
    canonical: tuple | None = None  # exact normal form of a symbolic shape (math_canonical) for the no-sympy path


@dataclass(frozen=True)
class Prediction:
    """A prepared model answer (``text`` normalised, ``source`` = where it was found). ``text`` is empty when the
    completion does not commit to the answer it wrote, ``source`` then says why (negated, hedged, retracted, ...);
    ``false_equation`` when the answer states two different numbers as equal (``43 = 42``); ``letter`` the option
    label written before the value (``(B) 5``: text ``5``, letter ``B``; :func:`.math_forms.option_label`)."""

    text: str
    source: str
    numeral: Numeral | None = None
    false_equation: bool = False
    letter: str = ""


@lru_cache(maxsize=65536)
def prepare_reference(ref: str) -> Reference:
    """Normalise a gold answer: GSM8K ``#### 42`` and boxed solutions are reduced to the answer."""
    text = ref.strip()
    if "####" in text:
        text = text.rsplit("####", 1)[1].strip()
    elif "\\boxed" in text or "\\fbox" in text or "\\framebox" in text or "<answer>" in text or len(text) > 200:
        found = extract_answer(text, trusted=True)
        text = found.text if found is not None else text
    text = normalize_answer(text)
    if not text:
        return Reference("invalid", "", problem="empty reference")
    letter = _single_letter(text)
    if letter is not None:
        return Reference("letter", letter)
    numeral = parse_numeral(text)
    if numeral is not None:
        return Reference("number", text, numeral, canonical=_canonical(text))
    words = word_answer(text)
    if words is not None:
        return Reference("words", words)
    problem = size_problem(text)
    if problem:
        return Reference("invalid", text[:200], problem=problem)
    return Reference("latex", text, polynomial=parse_polynomial(text), canonical=_canonical(text))


_canonical = lru_cache(maxsize=65536)(canonical)


def _single_letter(text: str) -> str | None:
    stripped = text.strip().strip("()").strip()
    for wrapper in ("\\text{", "\\textbf{", "\\mathrm{"):
        if stripped.startswith(wrapper) and stripped.endswith("}"):
            stripped = stripped[len(wrapper):-1].strip().strip("()")
    return stripped if len(stripped) == 1 and stripped in _LETTERS else None

_LISTED = re.compile(r"[,;]|\\text|\b(?:or|and)\b|\\(?:lor|vee|quad|cup)")
def _constant(side: str) -> Fraction | None:
    numeral = parse_numeral(side)
    if numeral is not None:
        return numeral.value / 100 if numeral.percent else numeral.value
    polynomial = parse_polynomial(side)
    if polynomial is not None and set(dict(polynomial)) <= {()}:
        return dict(polynomial).get((), Fraction(0))
    return None


def _false_equation(text: str) -> bool:
    """Does ``text`` state two different numbers as equal (``43 = 42``, ``2 + 2 = 5``)?"""
    if not 1 <= text.count("=") <= 4 or re.search(r"[<>]|\\(?:[lg]eq?|neq?|approx)", text):
        return False
    sides = [(side, value) for side in text.split("=") if (value := _constant(side)) is not None]
    # two sides that differ by less than half a unit of the last place either shows are a rounding, written with "="
    # ("1.01^12 - 1 = 1.126825 - 1": holdout63), not two values
    return any(abs(one - other) > Fraction(1, 2 * 10 ** max(_shown_places(a), _shown_places(b)))
               for (a, one), (b, other) in zip(sides, sides[1:]) if one != other)


def _shown_places(side: str) -> int:
    """The most decimal places of a number written in ``side`` (0 for whole numbers only)."""
    return max((len(places) for places in re.findall(r"\d\.(\d+)", side)), default=0)


@memoized_text(max_chars=8192, maxsize=256)  # rollouts of one prompt often repeat a completion word for word
def prepare_prediction(completion: str, final_bang: str = "punctuation", prompt: str = "") -> Prediction | None:
    """Extract and normalise the final answer of a completion (None when there is none; empty ``text`` with the
    reason as ``source`` when the completion does not commit to it). With the row's ``prompt``, the numbers it gives
    restated in the answer sentence are read past (:func:`.givens.past_givens`)."""
    completion = english_numerals(completion, scales_asked(prompt))  # "3,25 m²" in a German answer is 3.25 (:mod:`.number_locale`)
    completion = inequality_in_words(completion)  # "all real numbers less than $-2$" is "$x < -2$" (holdout106)
    completion = durations_in_asked_unit(completion, prompt)  # "2 hours and 30 minutes" is 2.5 hours when hours are asked
    found = extract_answer(completion, final_bang)
    if prompt:
        found = past_givens(completion, found, prompt, final_bang)  # "There are 120 ways to arrange the 5 books."
    if found is None:
        return None
    if not found.text:
        return Prediction("", found.source)
    if words_disagree(answer_line(completion, found.text)):  # "63 (sechsunddreißig)": which number is the answer?
        return Prediction("", "words and digits disagree")
    if unsettled_dialogue(completion):  # "Student A: ... 18. / Student B: ... 24. / Teacher: Let's leave it." (holdout90)
        return Prediction("", "dialogue without a verdict")
    if left_open(completion, found.text):  # "Answer: $n = 1$, and possibly others.": not the whole answer (holdout90)
        return Prediction("", "left open")
    asked = rounding_asked(found.text, completion, prompt)  # "Round to the nearest minute": "41.67 ... about 42 minutes" is 42
    if asked is not None:
        return _prepared(asked, found.source)
    rounded = approximated_value(found.text, completion)  # "**CrCl ≈ 49 mL/min**" after "≈ 48.6": the rounding (holdout61)
    if rounded is not None:
        return _prepared(rounded, found.source)
    labelled = option_label(found.text)
    if labelled is not None and labelled[1]:  # "(B) 5", "\\textbf{(C)}\\ 210": the value, labelled with its option's letter
        return _prepared(labelled[1], found.source, labelled[0])
    return _prepared(in_asked_notation(found.text, prompt), found.source)  # "42_8" when base 8 is asked is 42 there (holdout115)


def _prepared(answer: str, source: str, letter: str = "") -> Prediction | None:
    """``answer`` normalised, with its value as a number where it shows one ("Give 7.5 mL" is 7.5 mL: :func:`.units.past_dosing_verb`)."""
    text = normalize_answer(past_dosing_verb(answer))
    if not text:
        return None
    numeral = parse_numeral(text)
    shown = read_through(text) if numeral is None else text  # "\text{42}", "90^\circ", "12\text{ cm}^2" show a number
    numeral = numeral or parse_numeral(shown)
    if numeral is None and "=" in shown and shown.count("=") <= 4:
        # "3 \times 5 = 15" or "x = 15": the value is the last right-hand side (only used against numeric golds);
        # not when the left side lists other values ("x=5, x=6" is two answers, not 6)
        left, _, right = shown.rpartition("=")
        if not _LISTED.search(without_arguments(left)):
            numeral = parse_numeral(right)
    return Prediction(text, source, numeral, _false_equation(text) if "=" in text else False, letter)

