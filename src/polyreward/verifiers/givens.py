"""The numbers a prompt gives, restated in the sentence that closes an answer, are not the answer.

A model that has found the answer often closes with a sentence that restates the question around it: "There are 120
ways to arrange the 5 books on the shelf.", "Tom has 23 marbles left after giving 12 to his sister.", "The factory
makes 12,600 widgets in 30 days." (red team ``holdout53``). With no box and no answer phrase, the reader takes the
last number of the last line (:mod:`.answer_extraction`, the last-number fallback): 5, 12, 30 -- the prompt's own
**givens**, not the answer; and a reader that refuses such a plain answer biases training as much as one that pays a
hack.

:func:`past_givens` reads that sentence again with the prompt's givens: when the value read by the last-number
fallback is one of the numbers the prompt states, and the sentence it is read from holds exactly one other value (one
number, however often written, that the prompt does not state), the answer is read as if the givens of that sentence
were words (each written as ``some``): the whole completion is read again by the same reader, so every guard still
reads the whole sentence and the text around it -- a hedge ("23 or 24, from 35 and 12"), a second value ("23, not
24"), a withdrawal, an earlier conclusion of another value -- and the new reading stands only when it is that one
value (a percent, "20 is 25% of 80.", is its value; a decimal and its percent, "0.25, so 20 is 25 % of 80", are one
value, holdout67). Otherwise today's reading stands: a table row (cells, not a
sentence), a sentence of givens only ("Tom gave 12 of his 35 marbles"), a sentence with two values the prompt does
not give (a spray of candidates; a closing bracket whose values are other quantities', "500 mL of D5W (≈ 85
kcal)", holdout55, is not counted), a given offered in place of the value (after a condition or an alternative, "23
marbles, unless he has 12", or a correction, "23 marbles, actually 12": :func:`.commitment.later_disowns` on the
value as written), a value read any other way (a box, an answer phrase, a math line). The rule never reads a given:
a gold that is one of the prompt's numbers is no easier to be paid.

Without a prompt nothing changes. Reconstructed rule (ours). Bounded: one sentence of the last
``MAX_TAIL_CHARS`` characters, one more reading of the completion, and only when the fallback read a given.
"""

from __future__ import annotations

from fractions import Fraction

from polyreward.verifiers.answer_extraction import Extracted, extract_answer, locate_answer
from polyreward.verifiers.commitment import later_disowns
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.reading import MAX_TAIL_CHARS, answer_views, visible_text
from polyreward.verifiers.remark_values import states_other_quantities
from polyreward.verifiers.tags import strip_thinking

# a number as a prompt or a sentence writes it: "12", "-3", "2.5", "12,600" (not glued to a word: "x2", "cm3")
_NUMBER = re.compile(r"(?<![A-Za-z_\d.^])[-−]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?![\d])")
# where a sentence ends: a stop followed by a space or the end, or a line break
_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)|\n")
# after the value in its sentence, a word that makes what follows a condition or an alternative, not a restatement
_CONDITION_AFTER = re.compile(r"\b(?:if|unless|provided|assuming|depending|otherwise|else|or)\b", re.IGNORECASE)
# a bracket closing the sentence: a remark whose values may be other quantities' (:func:`.remark_values.states_other_quantities`)
_CLOSING_BRACKET = re.compile(r"\([^()\n]{1,120}\)[\s.!]*\Z")
# a percent sign after the value, glued or set apart by a space as SI writes it ("25%", "2.28 %")
_PERCENT_AFTER = re.compile(r"[^\S\n]?%")
PLACEHOLDER = "some"  # what a given restated in the answer sentence is read as (a word: no number, no variable)


def _value(number: str) -> Fraction:
    return Fraction(number.replace(",", "").replace("−", "-"))


@memoized_text(max_chars=8192, maxsize=256)  # the rollouts of a group share a prompt
def givens(prompt: str) -> frozenset[Fraction]:
    """The values of the numbers the prompt states (its visible, normalised text)."""
    return frozenset(_value(match.group()) for match in _NUMBER.finditer(visible_text(prompt)))


def _sentence_at(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence of ``text`` that holds ``text[start:end]``."""
    begin = 0
    for stop in _SENTENCE_END.finditer(text, max(0, start - 2000), start):
        begin = stop.end()
    after = _SENTENCE_END.search(text, end)
    return begin, after.start() if after is not None else len(text)


def _as_words(sentence: str, given: frozenset[Fraction]) -> str:
    """``sentence`` with each number of ``given`` written as :data:`PLACEHOLDER`, with the currency sign glued before
    it ("$240" is one given; "$5$", a number alone in math, keeps its delimiters)."""
    parts, last = [], 0
    for number in _NUMBER.finditer(sentence):
        if _value(number.group()) not in given:
            continue
        start = number.start()
        if start and sentence[start - 1] == "$" and sentence[number.end():number.end() + 1] != "$":
            start -= 1
        parts += [sentence[last:start], PLACEHOLDER]
        last = number.end()
    return "".join(parts) + sentence[last:]


# the given stated as the value of the sentence (holdout111): after a copula or "=", perhaps with an adverb of
# exactness, and closing the sentence but for its unit and a bracket or quote mark ("but the mean of these scores is
# exactly 42.)"); a sentence with a word of reason before it restates a given in the reason ("45 ways, since the
# number of books is 5") and is read as before
_COPULA_BEFORE = re.compile(r"(?:\b(?:is|are|was|were|equals?|remains?|stays?)|=)[^\S\n]*(?:(?:exactly|just|still|indeed|precisely|also)[^\S\n]+)?\$?[^\S\n]*\Z",
                            re.IGNORECASE)
_CLOSING_REST = re.compile(r"[^\S\n]*(?:[^\W\d_]+[^\S\n]*){0,2}[$)\]\"'*]*[.!]?[$)\]\"'*]*[^\S\n]*\Z")
_REASON_WORD = re.compile(r"\b(?:since|because|as)\b", re.IGNORECASE)


def stated_as_value(text: str, begin: int, start: int, end: int) -> bool:
    """Is the given at ``text[start:end]`` stated as the value of its sentence (which starts at ``begin``): after a
    copula or "=", closing the sentence (but for a unit word or two), with no word of reason before it in the
    sentence? Example: "(If these were a sample, a 95% interval would be 38 to 46, but the mean of these scores is
    exactly 42.)" states 42; "There are 120 ways to arrange the 5 books." does not state 5."""
    stop = _SENTENCE_END.search(text, end)
    rest = text[end:stop.end() if stop is not None else len(text)]
    return (_COPULA_BEFORE.search(text, max(begin, start - 40), start) is not None and _CLOSING_REST.match(rest) is not None
            and _REASON_WORD.search(text, begin, start) is None)


def past_givens(completion: str, found: Extracted | None, prompt: str, final_bang: str = "punctuation") -> Extracted | None:
    """``found`` (the reading of ``completion``), or the one value of its answer sentence the prompt does not give,
    read past the givens restated around it (module docstring)."""
    if found is None or found.source != "last_number" or not prompt:
        return found
    read = _NUMBER.fullmatch(found.text.strip(" $"))
    given = givens(prompt)
    if read is None or _value(read.group()) not in given:
        return found
    view = answer_views(completion)[0]
    tail = strip_thinking(view)[-MAX_TAIL_CHARS:]
    located = locate_answer(tail, found)
    if located is None:
        return found
    begin, end = _sentence_at(tail, *located)
    sentence = tail[begin:end]
    if stated_as_value(tail, begin, *located):
        return found  # "..., but the mean of these scores is exactly 42.)": the given is what the sentence says the answer is
    if "|" in sentence:
        return found  # a table row ("| confirm gcd = 42 | factor 126 |"): cells, not a sentence that restates the question
    counted = sentence
    bracket = _CLOSING_BRACKET.search(sentence)
    if bracket is not None and located[1] <= begin + bracket.start() and states_other_quantities(
            bracket.group(), found.text, tail[:located[1]], tail[located[1]:begin + bracket.start()]):
        counted = sentence[:bracket.start()]  # "25 g of dextrose in 500 mL of D5W (≈ 85 kcal)": another quantity's value
    numbers = list(_NUMBER.finditer(counted))
    others = {_value(number.group()) for number in numbers} - given
    shares = {_value(n.group()) / (100 if _PERCENT_AFTER.match(counted, n.end()) else 1) for n in numbers if _value(n.group()) in others}
    if len(others) != 1 and len(shares) != 1:
        return found  # givens only (today's reading), or two values the prompt does not give: no one answer
    # ("0.25, so 20 is 25 % of 80": a decimal and its percent are one value, holdout67; the last is read)
    value = [number for number in numbers if _value(number.group()) in others][-1]
    others = {_value(value.group())}
    percent = _PERCENT_AFTER.match(sentence, value.end())
    written = value.group() + ("%" if percent else "")  # "25%", "2.28 %": the percent is the value
    if _CONDITION_AFTER.search(sentence, value.end()) or later_disowns(tail, begin + (percent.end() if percent else value.end()), written):
        return found  # "23 marbles, unless he has 12", "23 marbles, actually 12": the given is offered instead of it
    at = completion.rfind(sentence)
    if at < 0:
        return found  # the sentence is written otherwise in the completion (normalised characters): today's reading
    restated = _as_words(sentence, given)
    again = extract_answer(completion[:at] + restated + completion[at + len(sentence):], final_bang)
    if again is None or again.source != "last_number":
        return found
    number = _NUMBER.fullmatch(again.text.strip(" $").removesuffix("%").removesuffix("\\").rstrip())  # "25%", "25\\%", "2.28 %"
    return again if number is not None and _value(number.group()) in others else found
