"""Find the final answer in a model completion with cheap regexes (no sympy; main process).

Priority, first hit wins (each searched right-to-left, i.e. the model's *last* statement counts):

1. ``<answer>...</answer>`` (last block; its inside is searched again with the rules below, else taken whole)
2. ``\\boxed{...}`` / ``\\fbox{...}`` / ``\\framebox{...}`` / ``\\boxed 5`` with brace matching (nested braces); boxes that
   sit next to each other ("\\boxed{1} and \\boxed{2}") are joined as a list, as Math-Verify does,
   unless the words between them revise ("..., but re-checking gives ..."); an answer phrase after the
   last box that states a different answer (not a piece of the box) wins over it ("\\boxed{255} ... The final answer is $10,455$.")
3. an anchor phrase: "final answer is X", "the answer is X", "Answer: X", "#### X" (GSM8K), with
   markdown bold around the phrase allowed; a sentence after the phrase ("Final Answer: The largest
   $n$ is 34.") yields its own last number or math
4. a LaTeX environment (``$...$``, ``$$...$$``, ``\\[...\\]``, ``\\(...\\)``) ending on the last line
   with no number after it
5. markdown bold ``**73**`` on the last line
6. a last line that is nothing but math (``x^2+3x``, ``1/2^98``, ``sqrt(2)/2``, ``x**2 + 3*x``,
   ``(1, 2]``, ``y = 2x + 1``) is read whole, so an expression is not cut down to its last number;
7. a short expression ending the last line after "is", "=" or ":" ("the result is -5 + 20i", "the
   value is sqrt(2)/2") or after any other word when it is more than plain arithmetic ("Thus we get
   x^2+3x", "It equals 2n+1"), else the last number on the last non-empty line with a power glued to
   it ("2^10 ways" is 2^10; an exponent of a unit is not the answer: "5 cm^2" is 5)

The completion is read through :func:`~polyreward.verifiers.reading.answer_views`: normalised, comments and hidden
or struck-out text never read, the answer found in the visible text (code fences and quotes set aside); the text
with code and quotes must then give the same committed answer (a fenced or quoted retraction or other answer leaves
none). Committed answers (:mod:`.commitment`): the answer found is checked against the words around it -- a negated or
hedged answer is no answer, one taken back gives way to the answer stated after the retraction, an ``<answer>``
block followed by a different boxed or anchored final answer (or by an explicit retraction) is no answer, and so
are an empty final box, a final box that never closes and a text cut off mid-sentence; the reason comes back as
the ``source`` of an empty :class:`Extracted`. Unicode roots are rewritten first (``√12`` is ``\\sqrt{12}``).

Thinking models: everything up to the last ``</think>`` is dropped; a ``<think>`` that is never
closed means the model ran out of budget mid-thought and there is no answer. Only the last
``MAX_TAIL_CHARS`` characters are searched, so a 1 MB completion costs the same as a short one.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from dataclasses import dataclass

from polyreward.verifiers.alternative_branches import case_alternative_before, depending_alternative_before, modal_alternative_before
from polyreward.verifiers.commitment import (
    hedged_inside,
    later_disowns,
    qualified_after,
    retraction_after,
    uncommitted,
)
from polyreward.verifiers.number_keys import _VALUE, answer_keys, value_is, value_key, value_keys
from polyreward.verifiers.conclusions import concluded_otherwise, reasoning_before
from polyreward.verifiers.asides import cut_reason_aside
from polyreward.verifiers.remark_values import (cut_other_quantity_remark, piece_of_notation, read_before_other_quantities,
                                                reference_bracket, term_of_arithmetic)
from polyreward.verifiers.restated_forms import MIXED_NUMBER, restated_after, restated_before
from polyreward.verifiers.closing_remarks import after_closing_words, read_before_remark, without_closing_label, without_rounding
from polyreward.verifiers.reaffirmation import without_reaffirmed  # ("I won't waver." after a bare value: #32)
from polyreward.verifiers.hypothetical import counterfactual_clause
from polyreward.verifiers.later_values import chain_end_after, check_section_opening, confirming_check_start, inside_command, marked_box_value, operand_after
from polyreward.verifiers.math_normalize import (NUMBER_WORD, VALUE_WORDS, number_from_words, parse_numeral, python_value_reprs, same_number,
                                                 spelled_numbers, unicode_roots, value_from_words)
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.negation_words import CONTRAST_WORDS
from polyreward.verifiers.not_a_value import CUT_OFF_QUALIFYING, DANGLING_WORDS, cut_off_after, cut_off_pausing, measured_from, unfilled_answer_line
from polyreward.verifiers.later_summary import summary_before_other, summary_concludes_other
from polyreward.verifiers.answer_forms import (
    AFFIRMING_ADVERB, ANSWER_SUBJECT_COPULA, EXPLANATION_OPENS, JSON_ANSWER_KEY, RECORD_ANSWER_LINE, form_withholds, answer_fields_disagree, explanation_start, JSON_NO_ANSWER, JSON_WITHDRAWN, LABEL_IN_BOLD,
    PART_OF_A_NUMBER, STATED_IN_WORDS, TO_THE_READER, closing_words_value, counted_items_cut, json_scalar, json_value, money_in_two_units, stated_number_words,
    top_level_equals)  # noqa: F401 (json_scalar: public here)
from polyreward.verifiers.boxes import find_boxes, last_boxed, unclosed_box_after
from polyreward.verifiers.reading import MAX_TAIL_CHARS, answer_views, dissents
from polyreward.verifiers.math_lines import math_line, math_tail
from polyreward.verifiers.program_output import output_then_remark
from polyreward.verifiers.records import record_answer
from polyreward.verifiers.tags import last_block, strip_thinking, tag_blocks, unclosed_block
from polyreward.verifiers.turns import alternates, corrected_when_challenged, later_rounds
from polyreward.verifiers.withdrawal_words import WITHDRAWAL, instruction_note
from polyreward.verifiers.unasserted import key_answer_not_own
from polyreward.verifiers.dialogues import without_time_marks
from polyreward.verifiers.span_corrections import corrected_value
from polyreward.verifiers.stated_then_boxed import box_after_stated_answer
from polyreward.verifiers.same_answer import chain_end, same_final_value, same_value, written_alike

@dataclass(frozen=True)
class Extracted:
    """An answer found in a completion: its raw ``text`` and where it came from (``source``)."""

    text: str
    source: str


# ("discarded_answer: 54", "old-answer: 12" name another key than the answer; "final_answer: 54" is the answer: holdout12;
# "#### Final answer", a line of words only, is a markdown heading, not GSM8K's marker: holdout77 -- unless its first
# word is a number's, "#### seven")
_ANCHOR = re.compile(
    r"(?:####(?![ \t]*(?!(?:" + NUMBER_WORD + r")\b)[^\W\d_]{2,}[^\d$\\\n]*(?:\n|\Z))|(?:final\s+answer|the\s+(?:correct\s+)?answer|(?:(?<=final[_-])|(?<![\w-]))answer)[\"']?\**"
    r"(?:\s*\((?:revised|updated|corrected|new|second\s+try|v\d)\))?\**\s*(?:is|:|=|→|->|⇒|=>|would\s+be|should\s+be|will\s+be)\**\s*:?\**"
    # a panel's settled answer labelled as such, with a colon only (holdout124): "Judge's verdict: $x = 4$.", "Panel
    # consensus: the maximum value is $3$." ("the consensus is 42" is others' vote: hedging.IDIOM_DOUBT); a record's
    # decision field (holdout126): "Decision: 9 referees to be booked." (minutes), "**Decision: 12**"
    r"|(?<![\w-])(?:verdict|consensus|decision)\**(?:\s*\([^()\n]{1,30}\))?\s*:\**)",
    re.IGNORECASE,
)
# prose that ends the answer after an anchor: "42 because ...", "12 apples, so ..."
_PROSE_STOP = re.compile(
    r"\.{2,}|…|\s*\((?=(?:or|not|i\.e\.|that\s+is|equivalently)\b)|\s*[(\[](?=\s*(?:confidence|certainty)\b)|"  # "42 [confidence 0.9]": a remark
    r"\s*(?:[—–]|--)\s*(?=[A-Za-z]{2})|"  # "42 -- that is six sevens": a spaced dash before a word
    r";\s+(?=I\b|I'|(?:my\s+|our\s+)?(?:confidence|certainty|credence)\b)|\s+with\s+(?=(?:probability|confidence|certainty|credence)\b)|"  # "42; I'm 95% confident"
    r"(?:,\s+|\s+)(?:because|since|as|which|so|and\s+(?:that|this|the)|but|for\s+(?:the|a|an|this)|if|when|that|this|where|after|"
    r"or|not|wait|actually|hmm|hold\s+on|unless|otherwise|"
    r"I\s+hope|hence|therefore|thus|no\s+doubt|of\s+course|for\s+sure|clearly|obviously|definitely|certainly)\b|"  # "42, no doubt"
    r"\.\s+(?=[A-Z])|\.\s*$|!(?=\s|$)(?![^\S\n]*=)|\n|"  # "5! = 5 × 4 × ... = 120": a "!" an equals sign follows is a factorial
    r"\s*[\u2600-\u27bf\u2b50-\u2b55\U0001f000-\U0001faff]",  # "42 🎉", "42 ✅": an emoji after the value is a remark (holdout16)
    re.IGNORECASE,
)
# final_bang="factorial": a "!" glued to a number or a closing bracket is a factorial, not the end of the sentence
_PROSE_STOP_FACTORIAL = re.compile(
    _PROSE_STOP.pattern.replace("|!(?=\\s|$)(?![^\\S\\n]*=)|", "|(?<![\\d)}\\]!])!(?=\\s|$)|(?<=!)(?=\\s+[A-Z])|"), re.IGNORECASE)
FINAL_BANGS = ("punctuation", "factorial")
# inline math ($...$, \\(...\\)) never spans a line break (as in Math-Verify): "$5 each.\nTotal $10" is currency
_MATH_ENV = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\(([^\n]+?)\\\)|(?<![\\$])\$([^$\n]+?)(?<!\\)\$", re.DOTALL)
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")
_ENVIRONMENT_NAME = re.compile(r"\\(?:begin|end)\s*\{[A-Za-z*]+\}")
_BOLD = re.compile(r"\*\*([^*\n]{1,80}?)\*\*")
# a number glued to letters on its left ("AZYUK2A", "x2") is part of a word, not an answer; one
# after "^" is an exponent ("5 cm^2")
# a power glued to a number is part of it ("There are 2^10 ways" is 2^10, not 2)
_NUMBER_POWER = r"(?:\^\s*(?:\{\s*[-+]?\d+\s*\}|[-+]?\d+))?"
# scientific notation's "× 10^n" after a mantissa ("3.2 \\times 10^{-4} amperes" is one number; a signed exponent is no answer)
_TIMES_TEN = r"[^\S\n]*\\(?:times|cdot)[^\S\n]*10\^\{?[-−+]?\d{1,3}\}?"
_WORD_ANSWER = re.compile(r"\b(infinitely\s+many|no\s+(?:real\s+)?solutions?|none)\b", re.IGNORECASE)
_WORD_CLOSING = re.compile(r"(?:\bthere\s+(?:is|are)|\bha(?:s|ve))\s+(infinitely\s+many|no\s+(?:real\s+)?solutions?)\b[^.!?]*[.!]?\s*\Z",
                           re.IGNORECASE)
# the first term of a ratio before the last number: "3:4", "3 : 4" (not a label's colon: "Step 2: 15")
_RATIO_BEFORE = re.compile(r"(?<![\d.:])(\d+(?:\.\d+)?)(?::|[^\S\n]:[^\S\n])\Z")
# (a sign after a hyphen is the second stroke of an ASCII dash, "--": "As the key says -- and I agree -- 130." ends on
# 130, not -130; holdout108)
_LAST_NUMBER = re.compile(
    r"(?<![A-Za-z_\d^])(?<!\^\{)(?<!\^\{[-−+])(?<!\^[-−+])(?:[-−+]?[^\S\n]*\d{1,4}[^\S\n]+\d{1,4}\s*/\s*\d{1,4}(?![\d.,/])|[-−+]?\\[dt]?frac\{\d+\}\{\d+\}"
    r"|(?:(?<!-)[-−+])?\$?\s*(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3}(?!\d))+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+(?![A-Za-z\d])|" + _TIMES_TEN + ")?" + _NUMBER_POWER
    + r"(?:\s*/\s*\d+(?:\.\d+)?" + _NUMBER_POWER + r")?\s*(?:\\?%|(?i:hundred|thousand|million|billion)\b)?|[-−+]?\.\d+)"
)
# "So the final result is -5 + 20i": a short expression of numbers and one-letter symbols ending the line
_TRAILING_EXPRESSION = re.compile(
    r"(?:\bis|=|:)\s*([-−+]?\s*(?:\d+(?:\.\d+)?[a-zA-Z]?|[a-zA-Z])(?:\s*[-−+*/^]\s*(?:\d+(?:\.\d+)?[a-zA-Z]?|[a-zA-Z]))*)\s*[.!]?\s*$"
)
# bold that runs to the end of the line may hold python powers: "**738 - 747*x**3**."
# a unit's power written in a math environment of its own, glued to the unit ("cm$^2$", "m$^{3}$", "s$^{-1}$")
_UNIT_POWER_IN_MATH = re.compile(r"(?<=[A-Za-z])\$\^\s*(\{\s*-?\d\s*\}|-?\d)\s*\$")
# a plus-minus sign right before the last number ("s = ±8", "x = \\pm 3"): the number read with it (a unary sign only:
# "12.5 ± 0.3" is a tolerance)
_PLUS_MINUS_BEFORE = re.compile(r"(?:±|\\pm(?![A-Za-z]))[^\S\n]*\Z")
_OPERAND_BEFORE = re.compile(r"(?:[\d)}\]]|(?<![A-Za-z\\])[A-Za-z])[^\S\n]*\Z")
# a last line that is one sentence in bold, a subject's words then a value ("**The LCM of 12 and 18 is 36.**", "**The price
# increased by 25%.**"): emphasis of the sentence, not a value of its own, so it is read as its plain sentence is
_BOLD_SENTENCE = re.compile(r"\*\*([^\W\d_][\w'’-]*(?:[^\S\n]+[^*\s]+){2,30}?)[.!]?\*\*[.!]?")
_BOLD_TO_END = re.compile(r"(?:^|\s)\*\*(\S(?:.*\S)?)\*\*[.!]?\s*$")

_SENTENCE_END = re.compile(r"(?<!\d)\.(?=\s|$)|\.(?=\s+[A-Z])|\n")


def _is_prose(text: str) -> bool:
    """Two or more words outside math: "The volume of $V$ is 120", not "14 dollars" or "x^2 + 1"."""
    return len(_PROSE_WORD.findall(_MATH_ENV.sub(" ", text))) >= 2


# an anchored answer that first denies a value and then states one: "not 45; it's 42", "not 45 -- rather 42", "nicht 45,
# sondern 42" -- the denied value, its separator and the pointer before the stated one (a value must follow)
_DENIED_THEN_STATED = re.compile(r"(?i:\b(?:" + CONTRAST_WORDS + r"))\s+\$?[-+]?\d[\d.,/]*\$?\s*(?:[;,:—–]|--|\(|\b(?:but|sondern|sino|mais|ma)\b)"
                                 r"\s*(?i:(?:it|that|this)(?:'s|\s+is|\s+was)|rather|instead|actually|but|sondern|sino|mais|ma|es|est|ist)?"
                                 r"[\s,:]*(?=\$?\\?[-+(]?[\d\\])")


def _answer_after_anchor(segment: str, final_bang: str = "punctuation") -> str:
    """Trim the text after an anchor to the answer: the first math environment, else up to prose.

    An anchor followed by a sentence ("Final Answer: The largest $n$ is 34.") yields that sentence's
    own final answer (its last math, expression or number), as Math-Verify's extraction does.
    """
    segment = cut_reason_aside(segment.lstrip())
    segment = ANSWER_SUBJECT_COPULA.sub("", segment, count=1)  # "Answer: it's 102", "Answer: I'm 53!" (holdout123)
    segment = AFFIRMING_ADVERB.sub("", segment, count=1)  # "the answer is indeed 12" (holdout31)
    bold_end = segment.find("**")
    if (0 < bold_end < 120 and re.search(r"\d", segment[:bold_end]) and "\n" not in segment[:bold_end]
            and re.match(r"\*\*[^\S\n]+[a-z]{2,}\b", segment[bold_end:])):  # the sentence goes on in prose after the bold
        segment = segment[:bold_end]  # "**Final answer: 4 cups of sugar** are needed for 6 batches.": the bold holds it (holdout34)
    segment = cut_other_quantity_remark(segment)  # "the mean is 7.2 (the median is 7).", "72 liters per day, which is 504 ..."
    corrected = _DENIED_THEN_STATED.match(segment)
    if corrected is not None:
        segment = segment[corrected.end():]  # "The answer is not 45; it's 42.": the denied value is no candidate
    env = _MATH_ENV.match(segment) or (_MATH_ENV.search(segment[:200]) if segment[:1] in "$\\" else None)
    if env:
        return next(g for g in env.groups() if g is not None)
    boxed = last_boxed(segment[:300])
    if boxed is not None:
        return boxed
    stop = (_PROSE_STOP_FACTORIAL if final_bang == "factorial" else _PROSE_STOP).search(segment)
    answer = segment[:stop.start()] if stop else segment[:300]
    if answer.rstrip(" .").endswith(")") and answer.count(")") + answer.count("]") > answer.count("(") + answer.count("["):
        # "(... in decimal, the answer is 154).": the aside's own bracket closes (holdout21); a half-open interval's
        # ")" closes its "[" ("The answer is [2, 5).": the afterwords sweep)
        answer = answer.rstrip(" .")[:-1]
    if _is_prose(answer):
        end = _SENTENCE_END.search(segment)
        found = _extract_from_line(segment[:end.start()] if end else segment[:300])
        if found is not None:
            return found.text
    return answer


def _last_lines(text: str, count: int) -> str:
    lines = [line for line in text.rstrip().split("\n") if line.strip()]
    return "\n".join(lines[-count:])


def extract_answer(text: str, final_bang: str = "punctuation", trusted: bool = False) -> Extracted | None:
    """The final answer of a completion (see module docstring for the rules), or None.

    An answer the completion does not commit to (see :mod:`.commitment`) comes back with empty ``text`` and the
    reason as ``source``: ``negated``, ``hedged``, ``retracted``, ``conflicting`` (an ``<answer>`` block and a
    later different final answer), ``empty_box``, ``unclosed_box``, ``truncated``. ``final_bang="factorial"``
    reads a ``!`` glued to a number at the end of an answer sentence ("The answer is 4!") as a factorial.
    ``trusted=True`` (a gold solution, not model output) reads the answer without those checks."""
    if not text:
        return None
    if trusted:
        text = unicode_roots(strip_thinking(text)[-MAX_TAIL_CHARS:])
        if not text.strip():
            return None
        tagged = last_block(text, "answer", ignore_case=True)
        return _extract_plain(tagged if tagged is not None else text, final_bang, trusted=True)
    texts = answer_views(text)
    views = [_extract_view(python_value_reprs(unicode_roots(strip_thinking(view)[-MAX_TAIL_CHARS:])), final_bang) for view in texts]
    found = views[0] if views[0] is not None else views[-1]  # code and quotes answer only when nothing else does
    if found is None and len(texts) > 1 and (closing := output_then_remark(strip_thinking(texts[-1]))) is not None:
        found = _extract_view(python_value_reprs(unicode_roots("\n\n".join(closing))), final_bang)  # "```output 91```  This confirms it." (holdout118)
    if views[0] is None and found is not None and found.text and dissents(strip_thinking(texts[0])):
        return Extracted("", "negated")  # "> Answer: 42" then "The quoted answer is wrong.": the writer argues with it
    if len(views) > 1 and views[0] is not None and views[0].text:
        # code and quotes are read too: they may not state another answer or take this one back
        whole = views[-1]
        if whole is not None and not whole.text:
            return whole
        if whole is not None and not same_final_value(whole.text, found.text):
            return Extracted("", "conflicting")
    if found is not None and found.text and found is views[0] and _reasoning_concludes_otherwise(texts[0], found):
        return Extracted("", "conflicting")  # "... So the answer is 11. </think> \\boxed{5}" (holdout13)
    if found is not None and found.text and (rounds := later_rounds(text)):
        # "The answer is 10.<|im_end|><|im_start|>assistant Sorry ... The answer is 12.": the writer's own later turn
        # takes it back or gives another (holdout25); it never supplies the answer; each round after an end-of-sequence
        # token is read on its own too ("64</s>Answer: 32</s>Answer: 64": never settled; holdout82)
        again = _round_answer(rounds, found.text, final_bang)
        if again is not None and (not again.text or not same_final_value(again.text, found.text)):  # (hedged, withdrawn, ...)
            return again if again.text and corrected_when_challenged(text) else Extracted("", "conflicting")
        if len(rounds) > 1 and not corrected_when_challenged(text) and any(
                (one_round := _round_answer([one], found.text, final_bang)) is not None and one_round.text and not same_final_value(one_round.text, found.text) for one in rounds):
            return Extracted("", "conflicting")
    if found is not None and found.text and alternates(strip_thinking(texts[0])):
        return Extracted("", "conflicting")  # "The answer is 6. The answer is 8. The answer is 6.": never settled (holdout82)
    if found is not None and found.text and cut_off_pausing(strip_thinking(texts[0])):
        return Extracted("", "truncated")  # "\\boxed{8.25} ... Actually, the answer is": cut off taking it back (holdout116)
    return found


# a text that ends confirming what it checked: "so both conditions hold.", "so yes.", "✓"
_ENDS_CONFIRMING = re.compile(r"\b(?:holds?|checks?\s+out|works|correct|confirmed|yes)\W*\Z|✓\W*\Z", re.IGNORECASE)


def _round_answer(rounds: list[str], answer: str, final_bang: str) -> Extracted | None:
    """The answer the writer's later rounds (after an end of turn) give together, read for conflicts with ``answer``;
    None where it is only the last number of a round that checks the answer (:func:`_checks_answer`) and the other
    rounds give no value ("Emma has **48** stickers. / User: Can you show how to check it? / Assistant: 48 + 16 = 64,
    and 48 is three times 16, so both conditions hold. / User: Great, thanks! / Assistant: You're" keeps 48;
    holdout116)."""
    again = extract_answer("\n\n".join(rounds), final_bang)
    if again is not None and again.text and again.source in _TRAILING_SOURCES and all(
            _checks_answer(one, answer, final_bang) or (said := extract_answer(one, final_bang)) is None or not said.text for one in rounds):
        return None
    return again


def _checks_answer(said: str, answer: str, final_bang: str) -> bool:
    """Does ``said`` check ``answer``: it ends confirming ("... hold.", "so yes.", "✓") and, read after a statement of
    ``answer``, leaves that answer standing ("Sorry, 48 was wrong; Emma has 16" does not)?"""
    if _ENDS_CONFIRMING.search(said) is None or "\n" in answer:
        return False
    after_answer = extract_answer(f"The answer is {answer}.\n\n{said}", final_bang)
    return after_answer is not None and bool(after_answer.text) and same_final_value(after_answer.text, answer)


def _reasoning_concludes_otherwise(view: str, found: Extracted) -> bool:
    """Does the reasoning before ``found`` (a think block included) conclude another value, never taken back
    (:mod:`.conclusions`)?"""
    if _CONCLUSION_WORD.search(view) is None:  # (speed: no conclusion word, nothing to read)
        return False
    full = unicode_roots(view)
    visible = unicode_roots(strip_thinking(view)[-MAX_TAIL_CHARS:])
    boxes = find_boxes(visible) if found.source.startswith("boxed") else []
    located = (boxes[-1][0], boxes[-1][1]) if boxes else locate_answer(visible, found)
    if located is None:
        return False
    answer = found.text

    def is_other(segment: str) -> bool | None:
        segment = _THINK_TAG.split(segment[:400], 1)[0]  # "So the answer is \\frac{11}{12}.\n</think>": the conclusion ends with the think
        stated = _answer_after_anchor(segment).strip().strip("$").strip()
        stated = chain_end(stated)
        if not stated or not re.search(r"[\d\\]", stated):
            return None
        same = same_value(stated, answer) or (
            parse_numeral(answer) is not None and not re.search(r"[\\\\/]", stated) and value_keys(answer) <= value_keys(stated))
        return not same
    return concluded_otherwise(reasoning_before(full, visible, located[0])[-MAX_TAIL_CHARS:], is_other)


_THINK_TAG = re.compile(r"</?think>", re.IGNORECASE)
_CONCLUSION_WORD = re.compile(r"\b(?:so|therefore|thus|hence|consequently)\b", re.IGNORECASE)


@memoized_text(max_chars=2000, maxsize=4096)  # the answer part of a group's rollouts often repeats (speed only)
def _extract_view(text: str, final_bang: str) -> Extracted | None:
    """:func:`extract_answer` on one normalised view of a completion."""
    if not text.strip():
        return None
    record = record_answer(text)  # '{"answer": {"value": 13}}', '"answer": "11/12", "decimal": 0.9167' (holdout59)
    if record is not None and not _PROSE_WORD.search(record.value):  # (a value in words: the text reader reads it)
        if not record.value:
            return Extracted("", "empty_answer")
        if record.start and (said := _prose_states(text[:record.start], final_bang)) is not None and not same_final_value(said, record.value):
            return Extracted("", "conflicting")  # "So the integral is 16." then a submitted call with 8: two answers (holdout59)
        return Extracted(record.value, "json")
    blocks = list(tag_blocks(text, "answer", ignore_case=True))
    if blocks:
        inner = corrected_value(blocks[-1][2].strip()) or blocks[-1][2].strip()  # "<answer>16, no: 15</answer>" (holdout93)
        found = _committed(inner, final_bang)
        prose = len(_PROSE_WORD.findall(_ENVIRONMENT_NAME.sub(" ", inner))) >= 2  # "pmatrix" is not prose
        if found is not None and not found.text:
            return found
        if found is not None and (found.source not in ("last_number", "math_line") or prose):
            found = Extracted(found.text, "answer_tag+" + found.source)
        else:
            found = Extracted(inner, "answer_tag") if inner else None
        retraction = retraction_after(text, blocks[-1][1])
        if found is not None and retraction is not None and retraction[1]:
            return Extracted("", "retracted")  # "<answer>42</answer> Scratch that."
        later = _strong_answer(text[blocks[-1][1]:], final_bang)
        if found is not None and later is not None and (not later.text or not written_alike(later.text, found.text)):
            return Extracted("", "conflicting")  # "<answer>42</answer> ... the final answer is \\boxed{45}"
        if found is not None and qualified_after(text, blocks[-1][1]):
            return Extracted("", "hedged")  # "<answer>42</answer> (just a guess)": the final statement is not vouched for
        if found is not None and (why := later_disowns(text, blocks[-1][1], found.text)):
            return Extracted("", why)  # "<answer>42</answer> (typo, I meant 45)"
        if found is not None and _earlier_block_differs(text, blocks, found.text, final_bang):
            return Extracted("", "conflicting")  # "<answer>18</answer> <answer>19</answer> if ...": two answer blocks (holdout113)
        before = text[:blocks[-1][0]]
        earlier = _strong_answer(before, final_bang)
        if found is not None and earlier is not None and not written_alike(earlier.text, found.text) and (
                retraction_after(before, 0) is None):
            return Extracted("", "conflicting")  # "\\boxed{68} <answer>6</answer>": two final answers, nothing withdrawn
        return found
    inner = unclosed_block(text, "answer", ignore_case=True)
    if inner is not None and not inner.strip():
        return Extracted("", "truncated")  # "... = 36.\n\n<answer>": cut off where the answer was to be (holdout27)
    if inner is not None:  # "<answer>So far the running value is 272": the answer block was cut off
        found = _committed(inner, final_bang)
        if found is not None and found.text and found.source not in _STRONG_SOURCES and _is_prose(inner):
            return Extracted("", "truncated")
    return _committed(text, final_bang)


_STRONG_SOURCES = ("boxed", "anchor")
_STATED_AFTER = re.compile(r"(?:\b(?:is|are|equals|gives|get)|=)\s*\$?\s*\Z", re.IGNORECASE)


def _prose_states(prose: str, final_bang: str) -> str | None:
    """The answer the prose before a closing record commits to, or None: a boxed or anchored answer, or a last value
    stated after a copula or ``=`` ("So the integral is 16", "5! = 120."); a last number of the working ("then
    subtract 1") states nothing."""
    found = _committed(prose, final_bang)
    if found is None or not found.text:
        return None
    if found.source in _STRONG_SOURCES:
        return found.text
    located = locate_answer(prose, found) if found.source == "last_number" else None
    return found.text if located is not None and _STATED_AFTER.search(prose[:located[0]]) else None

_NOT_FROM_LINES = ("boxed", "anchor", "answer_first")  # the other sources are read from the last lines (_extract_from_line)
HEDGED_INSIDE = "|or"  # suffix of the source of an answer that names alternatives itself
_CUT_OFF = re.compile(cut_off_after(DANGLING_WORDS + r"|by|from|for|that|which|we|into|at|plus|minus|times|equals|gives|get|gets|"
                                    r"have|has|multiply|divide|add|subtract", r"[-+/=,(\[{^\\:]|(?<!\*)\*", glued_to_a_stop=True), re.IGNORECASE)


# the sources read from the text's last number or line, which a check section after the answer would supply
_TRAILING_SOURCES = ("last_number", "math_line", "last_expression", "latex")
_LEADING_NUMBER = re.compile(r"-?\d[\d,]{0,20}(?:\.\d{1,12})?(?![\d,.])")


def _answer_before_check(text: str, final_bang: str, retractions: bool) -> Extracted | None:
    """The answer stated before a check section that confirms it and ends the text, or None (issue #32).

    Rule: the text before the first line with a heading of checking (:func:`.later_values.check_section_opening`)
    states an answer from a source of its own (bold, an answer label, a box, ...; not its last number), found
    before that line, the section confirms it (:func:`.later_values.confirming_check_start`) and nothing after it
    takes it away (:func:`.commitment.later_disowns`). Example: "**6,580 toys**\n\nEstimate: 200 × 28 = 5600 and 250 ×
    28 = 7000, so the answer should lie between 5,600 and 7,000 -- it does." reads 6,580, not 7,000."""
    opening = check_section_opening(text, 0, len(text))
    if opening is None:
        return None
    earlier = _committed(text[:opening], final_bang, retractions)
    if earlier is None or not earlier.text or earlier.source in _TRAILING_SOURCES:
        return None
    located = locate_answer(text[:opening], earlier)
    if located is None:
        return None
    number = _LEADING_NUMBER.match(earlier.text.strip("*$ "))  # "6,580 toys": the number of a bold answer with its noun
    keys = answer_keys(earlier.text) or (answer_keys(number.group()) if number is not None else frozenset())
    if not keys or confirming_check_start(text, located[1], len(text), lambda said: [value_key(v.group()) in keys for v in _VALUE.finditer(said)],
                                          earlier.text) != opening:
        return None
    return None if later_disowns(text, located[1], earlier.text) else earlier


def _earlier_block_differs(text: str, blocks: list[tuple[int, int, str]], last: str, final_bang: str) -> bool:
    """Does the answer block before the last one commit to another value, with nothing between the two that takes
    it back? Two answer blocks that disagree are two answers, as a box and a different answer block are: the
    writer closed its answer and opened another (``<answer>18</answer> <answer>19</answer> if (10, 10) is
    allowed.``, holdout113), while ``<answer>18</answer> Wait, (10, 10) counts too. <answer>19</answer>`` corrects
    the first and reads 19."""
    if len(blocks) < 2:
        return False
    start, end, body = blocks[-2]
    inner = corrected_value(body.strip()) or body.strip()
    earlier = _committed(inner, final_bang) if inner else None
    if earlier is None or not earlier.text or written_alike(earlier.text, last) or answer_keys(earlier.text) & answer_keys(last):
        return False  # ("<answer>\\frac{1}{2}</answer> ... <answer>0.5</answer>": one value in two notations)
    return retraction_after(text[:blocks[-1][0]], end) is None


def _strong_answer(text: str, final_bang: str) -> Extracted | None:
    """A boxed or anchored final answer in ``text`` (a restatement or a correction), or None."""
    found = _committed(text, final_bang, retractions=False)
    return found if found is not None and found.text and found.source in _STRONG_SOURCES else None


def _committed(text: str, final_bang: str, retractions: bool = True) -> Extracted | None:
    """:func:`_extract_plain`, then the words around the answer: a negated or hedged answer is none, and one
    taken back is replaced by the answer stated after the retraction (:mod:`.commitment`)."""
    found = _extract_plain(text, final_bang)
    if found is None or not found.text:
        return found
    if found.source in _TRAILING_SOURCES and (earlier := _answer_before_check(text, final_bang, retractions)) is not None:
        return earlier  # "**6,580 toys** ... Estimate: ... between 5,600 and 7,000 -- it does.": the check's last number is no answer
    if (corrected := corrected_value(found.text)) is not None:
        found = Extracted(corrected, found.source)  # "<answer>16, no: 15</answer>": the span corrects itself (holdout93)
    if found.source not in _NOT_FROM_LINES:
        text = text[:_read_lines(text)[2]]  # "19/12 ≈ 1.583": the rounding says nothing else
    else:
        text = without_closing_label(text)  # "\\boxed{12} Score: 3/3.": a fixed-form closing line says nothing else
    if found.source in ("last_number", "latex") and (listed := _OR_LIST.search(text[-300:].rstrip())) is not None:
        items = [item for item in re.split(r",|\b(?:or|and)\b", listed.group(1).replace("$", "")) if item.strip()]
        if "=" not in listed.group(1) and all(same_number(items[0], item) for item in items[1:]):
            return Extracted(items[0].strip(), found.source)  # "7/2, or 3.5": one value in two forms (holdout67)
        return Extracted(listed.group(1).replace("$", ""), found.source + HEDGED_INSIDE)  # "The roots are 2 and 3."
    if hedged_inside(found.text):  # "42 \\text{ (or 43)}": a hedge unless the gold itself is a union or list
        return Extracted(found.text, found.source + HEDGED_INSIDE)
    located = locate_answer(text, found)
    if located is None:
        return found
    start, end = located
    why = uncommitted(text, start, end) or ("hedged" if modal_alternative_before(text, start, found.text) or
                                            case_alternative_before(text, start, _states_other(found.text), end) or
                                            depending_alternative_before(text, start, found.text) else "")
    if why == "negated" and retractions and (contrast := _CONTRAST_TAIL.search(text, 0, start)) is not None:
        return _committed(text[:contrast.start()], final_bang, retractions=False)  # "10, not 12": the answer is 10
    if why == "hedged" and (restated_after(found.text, text[end:end + 80]) or restated_before(found.text, text[max(0, start - 80):start], text[end:end + 40])):
        why = ""  # "3/4, or 0.75", "$\\dfrac{3}{4}$, or 75%": the same value twice is no hedge
    if why == "hedged" and (listed := _OR_LIST.search(text[max(0, start - 200):end + 40])) is not None:
        return Extracted(listed.group(1).replace("$", ""), found.source + HEDGED_INSIDE)  # "x = 2 or x = 3": a list gold only
    if why:
        return Extracted("", why)
    if found.source == "boxed" and operand_after(text, end):
        return Extracted("", "conflicting")  # "$\\boxed{42} - 3 = 39$": the box is a term of what follows (holdout16)
    if found.source == "boxed" and inside_command(text, start):
        return Extracted("", "conflicting")  # "\\frac{1}{\\boxed{42}}": the box is the argument of another value (holdout115)
    if found.source == "boxed" and (marked := marked_box_value(text, start, end, found.text)) is not None:
        found = Extracted(marked, "boxed")  # "$$-\\boxed{15}$$", "\\boxed{42}\\%": the mark against the box is part of the value (holdout115)
    if found.source == "boxed" and (chain_end := chain_end_after(text, end)) is not None:
        found = Extracted(found.text + " = " + chain_end, "boxed")  # "$\\boxed{2^{10}} = 1024$": the chain ends on 1024 (holdout57)
    explained = explanation_start(text, end, lambda value: same_number(value, found.text))  # "\\boxed{54} Justification: w = 6 ..."
    retraction = retraction_after(text if explained is None else text[:explained], end) if retractions else None
    if retraction is not None:
        resume, explicit = retraction
        after = _committed(text[resume:], final_bang, retractions=False)
        if after is not None and after.text and (explicit or after.source in _STRONG_SOURCES) and not written_alike(after.text, found.text):
            return Extracted(after.text, "correction+" + after.source)
        if explicit and (after is None or not after.text):
            return Extracted("", "retracted")
    if why := later_disowns(text if explained is None else text[:explained], end, found.text):
        return Extracted("", why)  # "\\boxed{42} -- kidding! It's 45.", "(typo, I meant 45)"
    if any(rule(text, end, found.text, lambda value: same_number(value, found.text)) for rule in (summary_concludes_other, summary_before_other)):
        return Extracted("", "conflicting")  # "\\boxed{18} ... ## Summary ... so the speed is 16 km/h.", "TL;DR: 4 ... so 8" (later_summary)
    if key_answer_not_own(text, value_is(found.text)):
        return Extracted("", "hedged")  # "my own derivation gives 42 ..., but the reference solution is 84" (holdout11)
    return found


def _states_other(answer: str):
    """A test of whether a clause states a value other than ``answer`` (for :func:`case_alternative_before`)."""
    keys = answer_keys(answer)
    return lambda clause: bool(value_keys(clause) - keys)


_CONTRAST_TAIL = re.compile(r"(?<=[\w}$*)])[^\S\n]*(?:,|;|\bbut)[^\S\n]*(?:" + CONTRAST_WORDS + r")[^\S\n]*(?:\\boxed\{|\$|\*\*)?\Z",
                            re.IGNORECASE)
_LIST_VALUE = r"\$?(?:[a-zA-Z]\s*=\s*)?[-−+]?(?:" + MIXED_NUMBER + r"|\d+(?:\.\d+)?(?:\s*/\s*\d+)?|\\[dt]?frac\{\d+\}\{\d+\})\$?"
_OR_LIST = re.compile(
    rf"(?<![\w.])({_LIST_VALUE}(?:\s*(?:,\s*(?:(?:or|and)\s+)?|\b(?:or|and)\b)\s*{_LIST_VALUE})*\s*(?:,\s*)?\b(?:or|and)\b\s*{_LIST_VALUE})[$*\s.]*(?:(?<=\S)[^\S\n]+[a-z]{{2,12}}){{0,3}}[$*\s.!]*\Z"
)  # (a short predicate may follow the list: "Both 4 and 5 work." offers two values; holdout77)


def locate_answer(text: str, found: Extracted) -> tuple[int, int] | None:
    """Where ``found`` sits in ``text``: the last box for a boxed answer, else its last occurrence that is not part
    of a longer number or word ("0" is not the end of "50", "1" not the end of the signed "-1")."""
    if found.source == "boxed":
        boxes = find_boxes(text)
        return (boxes[-1][0], boxes[-1][1]) if boxes else None
    if found.source == "answer_first" and (first := _ANSWER_FIRST.match(text)) is not None:
        return first.start("value"), first.end("value")
    # a value read from the lines is read before a closing remark ("x = 6. Check: 3(6) + 7 = 25 ✓"), so it sits there:
    # the 6 inside the check is the check's substitution, not the answer (holdout11)
    end = len(text) if found.source == "anchor" else _read_lines(text)[1]
    explained = EXPLANATION_OPENS.search(text, 0, end)  # "The answer is 5. ## Check: 27 + 5 = 32": the 5 before the check
    if (explained is not None and (before := text.rfind(found.text, 0, explained.start())) >= 0
            and explanation_start(text, before + len(found.text), lambda value: same_number(value, found.text)) is not None):
        end = explained.start()
    with_suffix = in_arithmetic = in_piece = None  # "12cm", "8ish": a number with letters glued after it, where no bare one stands
    for _ in range(64):  # bounded: "1" in a run of thousands of 1s is not searched for ever
        start = text.rfind(found.text, 0, end)
        if start < 0:
            break
        stop = start + len(found.text)
        glued_before = start and found.text[0].isalnum() and (text[start - 1].isalnum() or text[start - 1] == "." or (
            found.text[0].isdigit() and text[start - 1] in "-+" and (start < 2 or not text[start - 2].isalnum())))  # "1" is not "-1"
        glued_after = stop < len(text) and found.text[-1].isalnum() and (
            text[stop].isalnum() or (text[stop] in ".," and text[stop + 1:stop + 2].isdigit()))  # "5" is not the start of "5.0"
        glued_after = glued_after or found.text.isdigit() and re.match(r"[^\S\n]+\d+\s*/\s*\d", text[stop:stop + 12]) is not None  # "4 1/2"
        if not glued_before and not glued_after and piece_of_notation(text, start, stop):
            in_piece, end = in_piece or (start, stop), stop - 1  # "$2$ or $\\frac{1}{2}$": the 2 of the fraction is not where
            continue  # the answer stands
        if not glued_before and not glued_after:  # (the 7 of a later check "4 × 7 = 28" is not where an anchored 7 stands)
            if (opening := reference_bracket(text, start, stop)) >= 0 and text.rfind(found.text, 0, opening) >= 0:
                end = opening  # "65 (target ≥ 65)": the bound is what the answer before it is compared with
                continue
            if found.source != "anchor" or not term_of_arithmetic(text, start, stop):
                return start, stop
            in_arithmetic = in_arithmetic or (start, stop)
        if with_suffix is None and not glued_before and found.text[-1].isdigit() and text[stop].isalpha():
            with_suffix = start, stop
        end = stop - 1
    return with_suffix or in_arithmetic or in_piece  # the value read from "maybe 12cm" is read with its words around it too (holdout20's "8ish")


def _extract_plain(text: str, final_bang: str = "punctuation", trusted: bool = False) -> Extracted | None:
    boxes = find_boxes(text)
    unclosed = 0 if trusted else unclosed_box_after(text, boxes)
    if boxes or unclosed:
        # an answer phrase after the last box restates the final answer ("\\boxed{255} ... The final answer is $10,455$.")
        boxed = last_boxed(text)
        anchored = _last_anchored(text, after=max(unclosed, boxes[-1][1] if boxes else 0), final_bang=final_bang)
        if anchored is not None and re.search(r"[\d\\]", anchored.text) and not _part_of(anchored.text, boxed or "") and (
                trusted or not _counterfactual_anchor(text, max(unclosed, boxes[-1][1] if boxes else 0))):
            return anchored
        if boxes and not trusted and boxed and _opens_aside(text, boxes[-1][0]):
            stated = _last_anchored(text[:boxes[-1][0]], final_bang=final_bang)
            if (stated is not None and re.search(r"[\d\\]", stated.text) and not _PROSE_WORD.search(stated.text)
                    and not _part_of(stated.text, boxed)):
                return stated  # "Final answer: 2\\sqrt{5} ... (\\boxed{5\\sqrt{2}} was the value before ...)" (holdout12)
        if boxes and not trusted and boxed and box_after_stated_answer(text, boxes[-1][0], boxed, lambda value: without_rounding(
                _answer_after_anchor(value, final_bang))):
            return Extracted("", "conflicting")  # "**Answer: 13.93 cm** ... Sanity check: ... = \\boxed{13}" (holdout58)
        if unclosed:
            return Extracted("", "unclosed_box")  # the final box was cut off: "... so \\boxed{4"
        if boxed is not None and boxed.strip():
            return Extracted(boxed, "boxed")
        if not trusted:
            return Extracted("", "empty_box")  # "\\boxed{}" is no answer, never a reason to read the last number
    if not trusted and (heading := EXPLANATION_OPENS.search(text)) is not None and re.search(r"\d", text[:heading.start()]):
        stated = _extract_plain(text[:heading.start()], final_bang)
        if stated is not None and stated.text and explanation_start(text, heading.start(), lambda value: same_number(value, stated.text)) is not None:
            return stated  # "The slope is **-2**.\n\n**Explanation:**\n...": the answer stands before its explanation (holdout34)
    if not trusted and answer_fields_disagree(text):
        return Extracted("", "conflicting")  # '{"answer": "(2, 3)", "answer_checked": "(-2, 3)"}' (holdout38)
    if not trusted and JSON_NO_ANSWER.search(text):
        return Extracted("", "empty_answer")  # '{"final": null, "draft": "13"}': the answer key holds nothing (holdout8)
    if not trusted and JSON_WITHDRAWN.search(text) and (JSON_ANSWER_KEY.search(text) or RECORD_ANSWER_LINE.search(text)):
        return Extracted("", "retracted")  # '{"answer": 24, "retracted": true}', 'answer = 46' / 'submitted = no': the record itself withdraws it (holdout10, holdout112)
    if not trusted and form_withholds(text):
        return Extracted("", "retracted")  # "Answer: 60 / [ ] Submit this answer / [x] Save as draft": not handed in (holdout112)
    if not trusted and unfilled_answer_line(text):
        return Extracted("", "truncated")  # "Answer: [NUMBER]", "... 20 days.\n\n#### ": the answer line holds no answer
    anchored = _last_anchored(text, final_bang=final_bang)
    if anchored is not None:
        return anchored
    if not trusted and (_CUT_OFF.search(without_closing_label(text)[-200:]) or CUT_OFF_QUALIFYING.search(text[-300:])):
        return Extracted("", "truncated")  # "..., then we need to multiply by", "... if nobody else ate, but": no final statement
    return _read_lines(text)[0]


def _counterfactual_anchor(text: str, after: int) -> bool:
    """Is the last answer phrase after ``after`` in a sentence of another problem, in the conditional mood ("For the
    related problem with n = 5 the answer would be 20"): no restatement of the final answer?"""
    anchors = list(_ANCHOR.finditer(text, after))
    if not anchors:
        return False
    at = anchors[-1].start()
    begin = max([after] + [m.end() for m in _SENTENCE_STOP.finditer(text, after, at)])
    stop = _SENTENCE_STOP.search(text, anchors[-1].end())
    return counterfactual_clause(text[begin:stop.start() if stop else len(text)])


_SENTENCE_STOP = re.compile(r"(?<!\d)\.(?!\d)|[!?;\n]")


_ASIDE_OPENING = re.compile(r"(?:\A|(?<=\n)|(?<=[.!?:;]\s))[ \t]*\((?![^()\n]*\))")


def _opens_aside(text: str, at: int) -> bool:
    """Is the box at ``at`` inside a parenthesis that opens its line or sentence and is not closed before the box?
    Such a box is an aside; after an answer phrase with another value it is not the writer's final statement, the
    phrase is."""
    line_start = text.rfind("\n", 0, at) + 1
    return _ASIDE_OPENING.search(text[line_start:at]) is not None


def _part_of(fragment: str, whole: str) -> bool:
    """``fragment`` occurs in ``whole`` ignoring spaces and ``$`` (a restatement that cuts the box short)."""
    def squash(text: str) -> str:
        return re.sub(r"[\s$]", "", text)

    return squash(fragment) in squash(whole)


# between two answers that are one statement: '{"answer": 45, "answer": 42}', "Answer: 45; Answer: 42"
_ALTERNATIVES_GAP = re.compile(r"[\s,;\"'{}\[\]|/&*]{0,12}")


def _last_anchored(text: str, after: int = 0, final_bang: str = "punctuation") -> Extracted | None:
    anchors = list(_ANCHOR.finditer(text, after))
    for index in range(len(anchors) - 1, -1, -1):
        anchor = anchors[index]
        answer = without_rounding((json_value(anchor, text) or _answer_after_anchor(text[anchor.end():anchor.end() + 600], final_bang)).strip())
        if answer.strip(" .*$:"):
            if index and _two_answers_in_one(text, anchors[index - 1], anchor, answer, final_bang):
                return Extracted("", "hedged")  # two values for one key: no committed answer
            return Extracted(answer, "anchor")
    return None


def _two_answers_in_one(text: str, previous: re.Match, anchor: re.Match, answer: str, final_bang: str) -> bool:
    """Does the anchor before ``anchor`` give a different answer, with nothing but punctuation between the two?"""
    earlier = _answer_after_anchor(text[previous.end():anchor.start()], final_bang).strip()
    one, other = earlier.strip(" ,;\"'{}"), answer.strip(" ,;\"'{}")
    if not re.search(r"[\d\\]", earlier) or _is_prose(earlier) or same_value(one, other):
        return False  # the same value again, with or without its unit ("is 12 cm^2. **Answer:** 12"), is one answer
    at = text.find(earlier, previous.end(), anchor.start())
    return at >= 0 and _ALTERNATIVES_GAP.fullmatch(text[at + len(earlier):anchor.start()]) is not None


# a bold label that opens the last line or a sentence of it ("**Respuesta:** 42", "**Antwort**: 42"): a heading, and
# what it heads is read for the value
# (or a part's label alone in bold, "**(b)** $27 ÷ $3 = 9 pens": it heads the part's value, holdout86)
_BOLD_LABEL = re.compile(r"(?:\A|(?<=[.!?]\s))[^\S\n]*\*\*(?:[^*\n]{1,40}?(?::[^\S\n]*\*\*|\*\*[^\S\n]*:)|[^\S\n]*(?:\((?-i:[a-h])\)|(?-i:[a-h])\))[^\S\n]*\*\*)")


# an answer given first, then its reason: "Most likely 2, since the powers of 2 cycle ...", "42, because 6 x 7 = 42"
# -- the value that opens the text (after at most a degree of belief) and a word of reason right after it
_ANSWER_FIRST = re.compile(r"\A\s*(?:(?:most\s+likely|probably|likely|clearly|definitely|certainly|surely)[\s,:]+)?"
                           r"(?P<value>[-+]?\d+(?:\.\d+)?(?:/\d+)?)[\s,;:]+(?:since|because|as)\b", re.IGNORECASE)


@memoized_text(max_chars=2 * MAX_TAIL_CHARS, maxsize=64)  # (speed: read up to three times per answer: found, cut, located)
def _read_lines(text: str) -> tuple[Extracted | None, int, int]:
    """:func:`_extract_from_line` on ``text`` before its closing remark (:func:`.closing_remarks.read_before_remark`)."""
    return read_before_remark(text, _extract_from_line, read_before_other_quantities)


def _extract_from_line(text: str) -> Extracted | None:
    """No box and no anchor: a value that opens the text with its reason after it, else the last math environment,
    bold, expression or number ending the text. A transcript's time marks are no value (``[00:02:10] Student: ...``)."""
    text = without_time_marks(text)
    first = _ANSWER_FIRST.match(text)
    if first is not None:
        return Extracted(first.group("value"), "answer_first")
    window = after_closing_words(text.rstrip()[-800:], _without_closing_words)  # (then an aside it hid: holdout99)
    if "$^" in window:
        window = _UNIT_POWER_IN_MATH.sub(r"^\1", window)  # "$16\\pi$ cm$^2$": the unit's power, not a math answer (holdout85)
    last_line = _last_lines(window, 1)
    labels = list(_BOLD_LABEL.finditer(last_line))
    if labels and last_line[labels[-1].end():].strip():
        last_line = last_line[labels[-1].end():]  # "**Respuesta:** 42 asientos": what the label heads (holdout16)
    envs = list(_MATH_ENV.finditer(window))
    if envs:
        # the last math environment counts if it ends on the last line with no number after it
        env = envs[-1]
        content = next(g for g in env.groups() if g is not None).strip()
        after = window[env.end():]
        if content and "\n" not in after.strip() and not re.search(r"\d", after):
            equals = top_level_equals(content)
            last_side = content[equals[-1] + 1:] if equals else ""
            if len(equals) >= 2 and re.search(r"[A-Za-z]", last_side) and "\\" not in last_side:
                # "$(2+i)^2 = 4 + 4i - 1 = 3 + 4i$": a chain that ends in a symbolic value is read as that value
                # (holdout28); a chain that ends in a number stays whole, for the check that it holds ("$2 + 2 = 4 = 5$")
                return Extracted(last_side.strip(), "latex")
            return Extracted(content, "latex")
    bold = [b for b in _BOLD_TO_END.findall(last_line) if not re.search(r"\*\*\s|\s\*\*", b)] or _BOLD.findall(last_line)
    if bold and (sentence := _BOLD_SENTENCE.fullmatch(last_line.strip())) is not None and not LABEL_IN_BOLD.match(sentence.group(1)):
        last_line, bold = sentence.group(1), []  # "**The LCM of 12 and 18 is 36.**": a whole sentence set in bold is read as written plain (holdout121)
    if bold and bold[-1].strip(" .:"):
        labelled = LABEL_IN_BOLD.match(bold[-1])  # "**Réponse : 36 €**": the label inside the bold heads the value (holdout30)
        value = labelled.group(1) if labelled else bold[-1]
        if not re.search(r"\d", value) and value_from_words(value.strip(" .!")) is None and (spelled := spelled_numbers(value)):
            return Extracted(spelled[-1], "number_words")  # "**Each friend gets half a dozen doughnuts.**" (holdout122)
        return Extracted(value, "bold")
    whole = math_line(last_line)
    if whole is not None:
        # "3 * 4 = 12", "x = 5": the value on the right; "x^2 - 1 = 0", "y = 2x + 1": the whole equation
        left, _, right = whole.rpartition("=")
        if left and _LAST_NUMBER.fullmatch(right.strip()) and re.fullmatch(r"[^A-Za-z,;]*|\s*[A-Za-z]\s*(?:=[^,;]*)?", left):
            return Extracted(right.strip(), "last_number")
        return Extracted(whole, "math_line")
    after = re.search(r"(?:\bis\b|=|:)\s*(?!.*(?:\bis\b|=|:))(.+?)\s*[.!]?\s*$", last_line)
    if after and (math_after := math_line(after.group(1))) is not None and re.search(r"[-+*/^(\\]", math_after.lstrip("-+")):
        return Extracted(math_after, "last_expression")
    expression = _TRAILING_EXPRESSION.search(last_line)
    if expression and re.search(r"[-+*/^]", expression.group(1).lstrip("-−+")):
        return Extracted(expression.group(1).strip(), "last_expression")
    tail = math_tail(last_line)
    if tail is not None:
        return Extracted(tail, "last_expression")
    numbers = list(_LAST_NUMBER.finditer(last_line))
    numbers = [n for n in numbers if not piece_of_notation(last_line, n.start())] or numbers  # "= 5_{10}": 10 names the base
    if (len(numbers) > 1 and re.search(r"[,;(]|\bwhich\b", last_line[numbers[-2].end():numbers[-1].start()])
            and measured_from(last_line, numbers[-1].start()) and not measured_from(last_line, numbers[-2].start())):
        # "42, the successor of 41", "43 (one more than 42)": an aside names what the answer is measured from ("42 less
        # than 100" is one expression and stays as it is)
        numbers.pop()
    closing = re.split(r"(?<=[.!])\s+(?=[A-Z])", last_line.rstrip())[-1]  # the line's last sentence
    if numbers and (stated := _WORD_CLOSING.search(closing)) is not None and not _LAST_NUMBER.search(closing):
        return Extracted(stated.group(1), "words")  # "2 = 5, a contradiction. There is no solution." (holdout65)
    if numbers and (spelled := closing_words_value(last_line, number_from_words)) is not None:  # "..., 17, leaving twenty-five apples."
        return Extracted(spelled, "number_words")
    if numbers and (amount := money_in_two_units(last_line, numbers[-1].start() + len(numbers[-1].group()) - len(numbers[-1].group().lstrip()))):
        return Extracted(amount, "last_number")  # "Each friend pays 12 dollars and 50 cents.": 12.50, not the cents (holdout122)
    if numbers:
        last = numbers[-1]
        word = re.match(r"\s*([A-Za-z]+)", last_line[last.end():last.end() + 40])
        if word and word.group(1).lower() in VALUE_WORDS:  # "5 factorial", "5 squared": not the number alone
            return Extracted(last_line[last.start():].strip(" .!"), "last_number")
        value = last.group().strip()
        sign = _PLUS_MINUS_BEFORE.search(last_line, 0, last.start())
        if sign is not None and value[:1].isdigit() and not _OPERAND_BEFORE.search(last_line, 0, sign.start()):
            value = "\\pm " + value  # "The side length is ±8 cm.": both signs, two values, not the 8 alone (holdout85)
        if re.match(r"\\pi(?![A-Za-z])", last_line[last.end():]):  # "16\\pi square units": a multiple of pi (holdout23)
            return Extracted(value + "\\pi", "last_number")
        begin = last.start() + len(last.group()) - len(last.group().lstrip())
        if (ratio := _RATIO_BEFORE.search(last_line, 0, begin)) is not None and not last_line[last.end():].lstrip().startswith(":"):
            return Extracted(f"{ratio.group(1)}:{last.group().strip()}", "last_number")  # "The simplified ratio is 3:4."
        return Extracted(value, "last_number")
    word_answer = _WORD_ANSWER.search(last_line)
    if word_answer is not None and not numbers:  # "There are infinitely many solutions.", "It has no solution."
        return Extracted(word_answer.group(1), "words")
    if value_from_words(last_line) is not None:  # a last line that is just "Twelve." or "Three quarters."
        return Extracted(last_line.strip(), "number_words")
    if closing != last_line.rstrip() and value_from_words(closing) is not None:
        return Extracted(closing.strip(), "number_words")  # "so, um, one twenty. One hundred twenty.": its last sentence (holdout125)
    counted = re.fullmatch(r"\s*([A-Za-z][A-Za-z -]{2,40}?)\s+([A-Za-z]{2,20})[.!]?\s*", counted_items_cut(last_line, number_from_words))
    if (counted is not None and number_from_words(counted.group(1)) is not None
            and not PART_OF_A_NUMBER.fullmatch(counted.group(2))):  # "Seven people." (holdout28); "one half" is a number
        return Extracted(counted.group(1), "number_words")
    stated = STATED_IN_WORDS.search(last_line)  # "Six times seven is forty-two." (holdout21), "... is thirty-two units." (#32)
    if stated is not None and (spelled := stated_number_words(stated.group(1), value_from_words)) is not None:
        return Extracted(spelled, "number_words")  # "... is three quarters." (holdout78)
    if ("\n" in window.strip() and (spelled := spelled_numbers(last_line))
            and not _HEADS_A_LIST.match(last_line, last_line.rfind(spelled[-1]) + len(spelled[-1]))):
        # "Tom now has forty-two stickers.", "She turned fourteen in two thousand and twelve.": the line's last number,
        # as for digits (holdout122), where it closes working above it (a lone sentence of prose, "Pairing the two
        # groups gives the total.", names its numbers in passing); a count heading a list the counted-items rule
        # above did not accept is none
        return Extracted(spelled[-1], "number_words")
    return None


# a count in words heading the list of what it counts: its noun, then a colon or ", namely" ("Seven months: ...")
_HEADS_A_LIST = re.compile(r"[^\S\n]*[A-Za-z]*[^\S\n]*(?::|,[^\S\n]*(?:namely|i\.e\.|that[^\S\n]+is)\b)")


# a word of a closing line: a run of text holding a letter or a digit (an emoji or a dash standing alone is none)
_WORD_TOKEN = re.compile(r"[^\s\w]*\w\S*")


def _without_closing_words(window: str) -> str:
    """``window`` without a last line of a few words (24 to the reader) that holds no value ("Hope this helps!", "Let me
    know if you have questions."; holdout26), when a line before it holds a number, in digits or in words ("... so x
    equals four.\nExaminer: Good."; holdout125). What decides commitment still reads it."""
    cut = window.rfind("\n")
    line = window[cut + 1:]
    note = instruction_note(line)  # "Safety: ... never give IV push." (holdout55): a note of care, any length
    # (an emoji is no word: "(Sorry, the meter got away from me there 😅)" is eight words; holdout123)
    if cut < 0 or len(_WORD_TOKEN.findall(line)) > (24 if TO_THE_READER.search(line) else 8) and not note or re.search(r"[\d\\$]", line) or not (re.search(r"\d", window[:cut]) or spelled_numbers(window[:cut])):
        return window
    stated = STATED_IN_WORDS.search(line)  # "... is forty-two.", not "That is a brisk pace." (holdout73)
    if (_WORD_ANSWER.search(line) is not None or number_from_words(line.strip(" .!")) is not None
            or stated is not None and stated_number_words(stated.group(1), number_from_words) is not None or spelled_numbers(line)
            or dissents(without_reaffirmed(line)) and not note or WITHDRAWAL.search(line) or any(ch.isalpha() and not ch.isascii() for ch in line)):
        # "No answer yet.", "Wrong.": a last line that takes something back is read, and so is one in words this
        # reader does not read as numbers ("答案是四十五。")
        return window
    return window[:cut].rstrip()


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_ANCHOR _WORD_ANSWER _CONTRAST_TAIL _ASIDE_OPENING")

# speed only (issue #35): clause ends searched by skipping to the characters they consume, a conclusion word by skipping
# to the letters it starts with (regex_scan; same results)
from polyreward.verifiers.regex_scan import first_scanned, scan_names  # noqa: E402

scan_names(globals(), "_SENTENCE_END _SENTENCE_STOP")
_CONCLUSION_WORD = first_scanned(_CONCLUSION_WORD)
