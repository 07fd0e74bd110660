"""Multiple-choice verification: A–E letters (configurable), option text, and yes/no/maybe labels.

    verify_choice(pred=completion, ref="C. Tell the attending ...", options=...) -> Verdict

References come MedQA-style (``"C. text"``), as a bare letter (``"C"``, ``"(C)"``), as the option text
alone, or as a PubMedQA label (``yes``/``no``/``maybe``). Options come as a dict ``{"A": "..."}``, a
JSON string of one, a list, or MedQA's newline string ``"A. ...\\nB. ..."``.

A letter is read from the completion (after ``</think>``) by tiers, first tier with a hit wins, the
rightmost hit inside a tier:

1. ``<answer>...</answer>``; 2. ``\\boxed{C}``; 3. answer phrases ("Answer: (B)", "The correct option
is B: ...", "I would choose C"); 3b. an affirmed letter ("(B) is right"); 4. bare option mentions
("Option C"); 5. markdown ``**B**``; 6. a line that starts with the letter ("C. Tell the attending...");
7. the option text alone.

The article "A" ("A patient with ...") is not read as option A unless it stands alone or is
followed by punctuation. A letter that is one item of a list of different options ("A, B, C, D", "B or C",
"(A) (B)", "**A** **C**", "C; B", adjacent boxes) or hedged ("Either option A or option C", "C if ..., otherwise
B") is no answer (:data:`SEVERAL`). Only a committed letter counts (:mod:`.commitment`): a negated hit ("Not C.",
"(C) is wrong") or one taken back ("C... wait, no, B") is skipped and the next one read, so "(C) is wrong, (B) is
right" is B (tier 3b, an affirmed letter); an explicit retraction after the ``<answer>`` block, a final box that
never closes and several labels in the deciding place (``\\boxed{no/yes/maybe}``, "no or yes") are no answer.
Reconstructed from MedQA/PubMedQA answer conventions and the phrasings small models produce; not a published
algorithm.

Linear time: every whitespace run of the completion is squeezed to one character first, and no two
quantifiers of a pattern can match the same characters, so no input makes a pattern backtrack
(degenerate outputs -- thousands of newlines, "The answer" and 2 KB of spaces -- cost microseconds).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from collections.abc import Mapping
from typing import Any

from polyreward.schema import completion_text, is_missing
from polyreward.verifiers.key_values import keys_masked
from polyreward.verifiers.boxes import find_boxes, last_boxed, unclosed_box_after
from polyreward.verifiers.broken_markup import cut_off_letter
from polyreward.verifiers.doubt_words import AND_UNSPACED, AND_WORDS, OR_UNSPACED, OR_WORDS
from polyreward.verifiers.alternative_branches import case_alternative_before
from polyreward.verifiers.commitment import (
    hedged,
    later_disowns,
    offers_unnamed_other,
    negated,
    qualified,
    qualified_after,
    retraction_after,
)
from polyreward.verifiers.option_letters import bracketed_in_capitals, letter_is, letter_mentions, letter_pattern, withdrawn_in_clause
from polyreward.verifiers.option_whole_text import asks, closing_option_text, later_option_text_disowns, lettered_text_answer, option_key as _norm
from polyreward.verifiers.conclusions import concluded_otherwise
from polyreward.verifiers.disowned_answers import letter_at_even_or_less
from polyreward.verifiers.later_summary import summary_names_other_letter
from polyreward.verifiers.hypothetical import hypothetical
from polyreward.verifiers.option_statement import listed_with_another, named_by_words, opening_statement, spelled
from polyreward.verifiers.negative_questions import in_the_questions_words
from polyreward.verifiers.not_a_value import bound_not_value, cut_off_pausing, unfilled_answer_line
from polyreward.verifiers.closing_checks import passing_check_start
from polyreward.verifiers.math_forms import prompt_options
from polyreward.verifiers.option_checks import (against_the_options, cognate_mentions, letter_with_its_text, option_mentions, record_names_another,
                                               without_own_negative_texts)
from polyreward.verifiers.answer_forms import JSON_WITHDRAWN, RECORD_ANSWER_LINE as _RECORD_ANSWER, PLAIN_FLAG_UNSET, form_withholds, second_answers
from polyreward.verifiers.math_notation import FONT_WRAPPERS, LARGER_TYPE
from polyreward.verifiers.math_normalize import COLOUR_COMMAND, uncoloured
from polyreward.verifiers.options import parse_options
from polyreward.verifiers.reading import MAX_TAIL_CHARS, answer_views, dissents
from polyreward.verifiers.span_corrections import corrected_answer_line, corrected_line_openings, corrected_value
from polyreward.verifiers.tags import strip_thinking, tag_blocks, unclosed_block
from polyreward.verifiers.choice_words import DENIED_OTHER_TAIL, FOREIGN_AFFIRMED, FOREIGN_ANCHOR
from polyreward.verifiers.registers import AFFIRMED_THEN_GLOSS, AFFIRMING_EMOJI, CERTAIN_TAIL, DECORATIVE_EMOJI, LEGAL_ANCHOR, SUMMARY_ANCHOR
from polyreward.verifiers.choice_keys import final_names_no_option, flashcard_answer, soap_assessment, glossed_as_another_option, key_alternatives, key_label_pattern
from polyreward.verifiers.double_negation import cancelled
from polyreward.verifiers.choice_forms import (  # noqa: F401 (SEVERAL: public here)
    letters_listed, letters_per_label, marked_option, record_letter, scored_option,
    CUT_OFF_ANSWER, CUT_OFF_MID_SENTENCE, GRADE_BEFORE, corrected_in_block, LETTER_TAG, NO_CHOICE, RANKING, SEVERAL, checked_by_position, labelled_otherwise, rendered_ballot, ticked_on_ballot,
    options_left_out)
from polyreward.verifiers.turns import alternates, answer_for_the_question, corrected_when_challenged, later_rounds
from polyreward.verifiers.unasserted import key_answer_not_own
from polyreward.verifiers.undecided import undecided
from polyreward.verifiers.hedging import OWN_CONSENSUS
from polyreward.verifiers.glued_letters import glued_letters
from polyreward.verifiers.marked_letters import marked_letter
from polyreward.verifiers.conditional_letters import answers_under_conditions, conditional_other_letter, reader_picks_masked
from polyreward.verifiers.label_answers import LABELS, LONG_WORD, extract_label, squeeze_whitespace  # noqa: F401 (public here too)
from polyreward.verifiers.verdict import Verdict

_CONJUNCTIONS = {"because", "since", "as", "which", "is", "and", "or", "but", "so", "the", "ist", "es", "est"}  # (+ copulas: "A ist richtig")


_TEXT_WRAPPED = re.compile(r"\\" + FONT_WRAPPERS + r"\s*\{([^{}]{0,20})\}")  # "\\mathbf{B}" is B (holdout50)
_SHORT_WRAPPED = re.compile(r"\\" + FONT_WRAPPERS + r"\s*\{([^{}]*)\}")
_COLOURED_LETTER = re.compile(r"(?:" + COLOUR_COMMAND.pattern + r")[^\S\n]*\{[^\S\n]*([A-Z])[^\S\n]*\}")  # "\\textcolor{red}{C}"


def _font_unwrapped(text: str, wrapped: re.Pattern = _TEXT_WRAPPED) -> str:
    """``text`` with its colour commands and larger type sizes dropped and its font wrappers read as what they wrap,
    nested ones innermost first: ``\\underline{\\textbf{B}}``, ``\\Large\\textbf{C}`` and
    ``\\colorbox{yellow}{\\textbf{C}}`` show the letters B, C and C (holdout120)."""
    if "\\" not in text:
        return text
    text = LARGER_TYPE.sub("", text)
    for _ in range(3):
        unwrapped = _COLOURED_LETTER.sub(r"\1", wrapped.sub(r"\1", text))
        if unwrapped == text:
            break
        text = unwrapped
    return uncoloured(text)


# math that opens with a bracketed letter or is one capital letter, between any of LaTeX's math delimiters: "$\textbf{(C)
# } 7$", "$\textbf{B}$", a display "\[\textbf{(A)}\]" or "\(B\)" (holdout82): the delimiters only set the letter in math
_MATH_LETTER = r"\s*(\([A-Za-z]\)[^$\n]{0,20}?|[A-Z])\s*"
_INLINE_LETTER = re.compile(r"\$" + _MATH_LETTER + r"\$|\\\(" + _MATH_LETTER + r"\\\)|\\\[" + _MATH_LETTER + r"\\\]")


def _letter_token(letters: str, follow: str = r"$|[\s.,:;)*!\]\-–—]", space: str = r"\s") -> str:
    """An option letter, optionally bracketed, followed by ``follow``; the bracket parts are optional groups
    so that nothing before the letter can compete with the pattern's preceding separator for the same spaces."""
    cls = re.escape(letters) + re.escape(letters.lower())
    return rf"(?:[(\[]{space}*)?([{cls}])(?:{space}*[)\]])?(?={follow})"


# "e.g.", "for example", "such as" right before a letter make it an example ("like" does not: "It looks like C")
_EXAMPLE_BEFORE = re.compile(r"(?:\be\.\s?g\.|\bfor\s+(?:example|instance)|\bsuch\s+as)[\s,:]*[(\[*]*\s*\Z", re.IGNORECASE)


# a letter that opens an abbreviation: a period, a letter and a period ("E.g.", "B.S.", "C.S. Lewis", "U.S.")
_ABBREVIATION = re.compile(r"\.[A-Za-z]\.")
# a letter alone on the line after a sign-off, one to three words and a comma on a line of their own ("Best,\nC.",
# "Kind regards,\nB"): the writer's initial, not a choice
_SIGNED_OFF = re.compile(r"(?:\A|\n)[^\S\n]*[^\W\d_]{2,}(?:[^\S\n]+[^\W\d_]+){0,2},[^\S\n]*\n[^\S\n]*[(\[]?[^\S\n]*\Z")


def _accept(text: str, match: re.Match, letters: str) -> str | None:
    """The letter of a regex hit, unless it is really the article "A"/"a" or a lowercase word."""
    letter = match.group(1)
    if _EXAMPLE_BEFORE.search(text, max(0, match.start(1) - 20), match.start(1)):
        return None  # "Answer: [letter, e.g. B]": an example of the format, not a choice
    if _ABBREVIATION.match(text, match.end(1)) or _SIGNED_OFF.search(text, max(0, match.start(1) - 60), match.start(1)):
        return None  # "Answer: E.g. any of them", "B.S.", "C.S. Lewis": an abbreviation; "Best,\nC.": a signature
    if text[max(0, match.start(1) - 2):match.start(1)].rstrip()[-1:] in ("°", "º", "˚"):
        return None  # "Water at 25 °C.", "98.6°F": a temperature's unit, not a choice
    if GRADE_BEFORE.search(text, max(0, match.start(1) - 30), match.start(1)):
        return None  # "Confidence grade: B", "Difficulty: C", "Vitamin C": a grade or a name, not a choice (holdout26)
    after = text[match.end():match.end() + 20]
    next_word = re.match(r"\s+([A-Za-z]+)", after)
    tail = _AFFIRMING_TAIL_TO_END.match(text, match.end(1)) is not None and match.end(1) < len(text)  # "A lol", "b it is."
    bracketed = text[match.end(1):match.end()].strip().startswith((")", "]"))  # "(A) chloroplast" names option A
    if letter.islower() and next_word and not tail and not (bracketed and text[match.start(1) - 1:match.start(1)] in ("(", "[")):
        return None  # "b Ethosuximide" is a word; "(b) Ethosuximide", MedMCQA's lowercase option, is a letter (holdout61)
    if letter in "Aa" and next_word and next_word.group(1).islower() and next_word.group(1) not in _CONJUNCTIONS and not bracketed and not tail:
        return None
    letter = letter.upper()
    return letter if letter in letters else None


# the clause a bare letter ends, back to its opening: a break, or a word that opens a conclusion or a contrast
# a dash opens a clause too: "Not A — it's B." corrects to B (the "not" is the earlier clause's)
_CLAUSE_OPENING = re.compile(r"(?s:.*)(?:[.;:!?,\n—–]|\s-{1,2}\s|\b(?:so|thus|hence|therefore|but)\b)")
# a negation, unless it negates a negative ("can't go wrong with C", "you won't regret C"): that affirms
_NEGATION = re.compile(r"(?:\b(?:not|never)\b|n't\b)(?!(?:\s+\w+){0,2}\s+(?:wrong|fail\w*|miss|doubt\w*|mistaken|regret\w*)\b)", re.IGNORECASE)


def _negated_clause(text: str, at: int) -> bool:
    """Does the clause that a bare final letter ends hold a negation ("I would not sign off on C")? A letter that only
    closes its line is the answer when the clause asserts it; the writer's "not" anywhere in it takes that away."""
    window = text[max(0, at - 160):at]
    opening = _CLAUSE_OPENING.match(window)
    # ("I wouldn't pick anything but B", "There's no way it isn't A": a denial denied states the letter, holdout114)
    return _NEGATION.search(window, opening.end() if opening else 0) is not None and not cancelled(window)


def _rightmost(text: str, pattern: re.Pattern, letters: str, bare: bool = False) -> str | None:
    """The rightmost accepted letter of ``pattern`` that the text commits to: a negated one ("Not C.", "(C) is
    wrong") or one taken back ("C... wait, no, B") is skipped; :data:`SEVERAL` when the letter is one of a list
    of options or hedged ("Either A or C", "C if ..., otherwise B")."""
    for match in reversed(list(pattern.finditer(text))):
        letter = _accept(text, match, letters)
        if letter is None:
            continue
        start, end = match.start(1), match.end(1)
        if negated(text, start, end) or (bare and _negated_clause(text, match.start())):
            continue
        retraction = retraction_after(text, end)
        if retraction is not None and retraction[1]:
            continue
        if hypothetical(text, match.start(), match.end()):
            continue  # "B would be correct if the question asked for the mean": another problem's answer, not the writer's
        if _in_option_list(text, start, letters) or hedged(text, start, max(end, match.end("said")) if "said" in match.re.groupindex else end) or case_alternative_before(
                text, start, lambda clause, chosen=letter: any(m.group(1) != chosen for m in letter_pattern(letters).finditer(clause)), end):
            return SEVERAL
        # "Answer: the option right after (C)": the letter is what the answer is measured from, not the answer
        return UNCOMMITTED if qualified(text, match.start(), match.end()) or bound_not_value(text, start) else letter
    return None


UNCOMMITTED = "uncommitted"  # "It might be C.", "C? Not sure.": a letter offered as a possibility (commitment.qualified)
_LIST_WINDOW = 40
# lowercase letters each quoted or bracketed, joined: "'b' and 'a'", "(a) & (c)" -- a key's letters, no words (holdout61)
_QUOTED_LETTERS = re.compile(r"(?:['‘\"“(\[][a-z]['’\"”)\]][^\S\n]*(?:[,/&+]|\b(?:and|or)\b)?[^\S\n]*){2,}")


def _in_option_lines(text: str, at: int, letters: str) -> bool:
    """Does the letter at ``text[at]`` open a line of an option listing ("A. Lymphocytes" with "B. ..." on the line
    before or after it): the prompt's options pasted back, not a choice? Reads the two neighbouring lines only."""
    line_start = text.rfind("\n", 0, at) + 1
    item = re.compile(rf"[^\S\n]*[(\[]?([{re.escape(letters)}])[.)\]:][^\S\n]+\S")
    own = item.match(text, line_start)
    if own is None or own.start(1) != at:
        return False
    before_end = line_start - 1
    before_start = text.rfind("\n", 0, max(before_end, 0)) + 1 if before_end > 0 else 0
    after_start = text.find("\n", at)
    neighbours = []
    if before_end > 0:
        neighbours.append(item.match(text[before_start:before_end]))
    if after_start >= 0:
        neighbours.append(item.match(text, after_start + 1))
    return any(m is not None and m.group(1).upper() != text[at].upper() for m in neighbours)


def _in_option_list(text: str, at: int, letters: str) -> bool:
    """Is the letter at ``text[at]`` one item of a list of two or more different option letters (on one line, or
    the lines of an option listing)? Only a window around it is read, so the check costs the same on any completion."""
    if _in_option_lines(text, at, letters):
        return True
    start = max(0, at - _LIST_WINDOW)
    window = text[start:at + _LIST_WINDOW]
    lower = text[at].islower()  # "Correct options: a, b": lowercase letters are a list when it ends its line (choice_keys)
    cls = re.escape(letters.lower() if lower else letters)
    # an item may carry a weight: "B: 55%, C: 45%", "B (60%) / C (40%)" -- a distribution over options is no choice
    weight = r"(?:[^\S\n]*(?:[:=\u2013\u2014-][^\S\n]*|\([^\S\n]*)\d{1,3}(?:\.\d+)?[^\S\n]*%?[^\S\n]*\)?|[^\S\n]*\([A-Za-z][\w -]{0,20}\)(?=[^\S\n]*/))?"  # "E (typical) / D (atypical)" (holdout61)
    item = rf"(?:\*\*)?[(\['‘\"“]?[^\S\n]*(?<![A-Za-z])[{cls}](?![A-Za-z]|'[A-Za-z])[^\S\n]*[)\]'’\"”]?(?:\*\*)?{weight}"  # "'b' and 'a'" (holdout61)
    # ... and a range, "A–C", "A to C" (holdout19; a spaced dash is a clause break: "It isn't D – C.")
    separator = r"(?:[^\S\n]*(?:[,/&+;、]|\|\|?|\b(?:to|through|thru|" + OR_WORDS + "|" + AND_WORDS + r")\b|" + OR_UNSPACED + "|" + AND_UNSPACED + r")?[^\S\n]*|(?<![^\S\n])[\u2013\u2014-](?![^\S\n]))"
    for run in re.finditer(rf"{item}(?:{separator}{item})+", window):
        if not run.start() <= at - start < run.end() or lower and not re.match(r"[^\S\n]*[.!*]*[^\S\n]*(?:\n|\Z)", window[run.end():]) and not _QUOTED_LETTERS.fullmatch(run.group().strip()):
            continue
        found = re.findall(rf"[{cls}]", run.group())
        verb = re.match(r"\s*(?:(is|was|isn't|wasn't|seems)|are|were|aren't)\b", window[run.end():])
        if verb and (verb.group(1) or not re.search(r"(?i:\band\b|&|\+)", run.group())):
            found = found[:-1]  # "A; B is wrong": the last letter starts a new clause, it is no item of the list
        elif verb:
            # a plural verb after letters joined by "and" has them all for its subject, back to a semicolon:
            # "C and D are both correct" names two, "C; A and B are distractors" one
            before, semicolon, _ = run.group().rpartition(";")
            found = re.findall(rf"[{cls}]", before) if semicolon else found
        if len(set(found)) > 1:
            return True
    return False


# a JSON object's answer key with a string value: '{"answer": "C"}', '{"choice": "D"}'
# a record's answer key: JSON '"answer": "', TOML 'answer = "' (holdout38)
_JSON_KEY = r'(?:"(?i:final_answer|final|answer|choice|option|selected)"\s*:|(?m:^)[ \t]*(?i:final_answer|answer|choice|option|selected)[ \t]*=)\s*"\s*'


# an answer phrase: "The answer is", "Final answer:", "I'd go with", "I'm going with", "so it's" ... ("Going with" only
# opening its sentence: "Everyone's going with C", "I'm not going with C" and "I was going with C" choose nothing)
_ANCHOR = (
    # a bare "Final:" label, or "Final pick:" ("Final: B (runner-up: A)" picks B, not the line's last letter; "Final: A or
    # B, leaning B" offers two), not a bracket's final match-up with its result ("Final: B vs C → C", holdout124: the
    # round, read by what comes after; "Final: B vs C" with no result stays two options)
    r"(?i:\b(?:final\s+answer|final(?:\s+(?:pick|choice|selection|verdict|call|decision))?(?=[^\S\n]*[:：])"
    r"(?![^\S\n]*[:：][^\S\n]*\(?[A-E]\)?[^\S\n]+(?:vs\.?|v\.|versus)[^\S\n]+\(?[A-E]\)?[^\S\n]*(?:→|->|=>|⇒))|"
    # a panel's settled answer labelled as such (holdout124): "Verdict: A.", "Consensus: **A. Thomas Hobbes**"; a
    # record's decision field (holdout126): "Decision: option C." (minutes), "**Decision: C**" (a decision record); a
    # short bracket may qualify the label ("Decision (unanimous): C", "Verdict (2-1): A")
    r"(?:verdict|decision|" + OWN_CONSENSUS + r")(?:[^\S\n]*\([^()\n]{1,30}\))?(?=[^\S\n]*(?:\*\*)?[^\S\n]*[:：])|correct\s+(?:answer|option|choice|response)|best\s+(?:answer|option|choice)(?:\s+(?:here|overall|then))?|answer|"
    # what a vignette asks for, named as the writer's pick (holdout19/20): "Best next step: B", "Most likely diagnosis: C"
    r"(?:best|correct|most\s+(?:likely|appropriate|probable))\s+(?:next\s+|initial\s+|first\s+)?(?:step|diagnosis|treatment|management|"
    r"test|drug|organism|explanation|mechanism|cause|intervention)(?:\s+(?:here|overall))?|"
    r"i(?:'d|'ll|\s+would|\s+will)?\s+(?:choose|select|pick|mark|go\s+with)|"
    # the writer's own answer named in a relative clause (holdout110): "The answer I'd actually give on the wards is (C)",
    # "the option I would pick is B" -- the speaker's pick, beside another voice's ("The textbook answer is (A).")
    r"(?:answer|option|choice|letter)\s+(?:that\s+)?i(?:'d|'ll|\s+would|\s+will)?\s+(?:actually\s+|really\s+|personally\s+)?"
    r"(?:give|pick|choose|select|mark|circle|put\s+down|go\s+with)(?:[^\S\n]+(?:on|in|for|at)[^\S\n]+[^\n.;:,!?]{1,30}?)?(?=\s+(?:is|would\s+be)\b)|"
    # a revision to the letter (holdout_r43): "On reflection I'd change my answer to D: ...", "I'll switch to B"; a
    # conclusion or a confirmation opening its sentence before "it's": "so it's D", "Teacher: Correct, it's D -- Pavlov."
    # (holdout123; "If any option is right, it's C -- but ..." confirms nothing)
    r"i(?:'d|'ll|\s+would|\s+will)?\s+(?:change|switch)\s+(?:my\s+(?:answer|choice|pick)\s+)?to|(?:(?:i'm|i\s+am|we're|we\s+are)\s+going|(?:(?<=[.!?\n]\s)|(?<=[.!?\n])|(?<![\s\S]))going)\s+with|(?:so|thus|hence|therefore|(?:(?<=[.!?:\n]\s)|(?<=[.!?:\n])|(?<![\s\S]))(?:yes|yep|correct|right|exactly|indeed)[,!])\s+it(?:'s|\s+is)|"
    r"(?:confident|sure|certain|convinced)\s+(?:that\s+)?it(?:'s|\s+is)|"  # "I'm fairly confident it's B" (doubt: qualified)
    r"(?:the\s+)?" + LEGAL_ANCHOR + "|" + SUMMARY_ANCHOR + "|"  # "The better view is C", "TL;DR: B" (registers)
    r"it\s+(?:must|has\s+to|can\s+only|should)\s+be)"
    r"(?:[^\S\n]*\((?:corrected|revised|updated|amended|edited)\))?"  # "Final answer (corrected): B" (a revision marked on the label)
    # the question or part the answer is for, named on the label: "Answer (Question 2): B", "**Answer to Question 2: B**" (holdout119)
    r"(?:[^\S\n]*\((?:question|part|q)[^\S\n]*\(?[0-9a-h]{1,2}\)?\)|[^\S\n]+(?:to|for)[^\S\n]+(?:question|part|q)[^\S\n]*\(?[0-9a-h]{1,2}\)?)?"
    r"(?:\s+(?:is|would\s+be|should\s+be|will\s+be|must\s+be|has\s+to\s+be)|'s)?"  # "The answer's B" (holdout21)
    # a degree of belief that still commits: "The answer is most likely C", "the answer is clearly B"
    r"(?:\s+(?:most\s+likely|likely|probably|clearly|definitely|certainly|surely|indeed|obviously))?)"
)


# what may follow a bare final letter and still leave it the answer: a laugh, an affirming adverb, the idiom "B it is",
# "final" ("easy, it's B lol", "so B obviously", "B it is.", "Going with E, final.") -- never a word of doubt or withdrawal
_AFFIRMING_TAIL = (r"(?:,?\s(?i:lol|lmao|haha\w*|obviously|clearly|definitely|for\s+sure|ofc|of\s+course|then|final(?:ly)?|"
                   r"imo|tbh|it\s+is|it\s+(?:has\s+to|must)\s+be|no\s+doubt(?:\s+about\s+it)?|without\s+(?:a\s+)?doubt|no\s+question|hands\s+down|"
                   r"fr|for\s+real|no\s+cap))?" + CERTAIN_TAIL + AFFIRMING_EMOJI)  # (registers: "it's E fr 😤", "C -- I'm quite sure of it")
_AFFIRMING_TAIL_TO_END = re.compile(DENIED_OTHER_TAIL + _AFFIRMING_TAIL + r"(?:\s*[.!])?" + DECORATIVE_EMOJI + r"\s*\Z")  # "A rather than B." (holdout64), "C! 🎵"


def _patterns(letters: str) -> list[tuple[str, re.Pattern]]:
    token = _letter_token(letters)
    anchor = _ANCHOR
    # "(B) is right", "B is most likely correct", "B must be correct" (a hedge is read after the predicate: "B is correct, or maybe C")
    # the letter as the subject of an answer noun, as a verse or a chat puts it: "So C is the choice to be made!", "B is my pick" (holdout123)
    affirmed = (r"(?P<said>\s+(?:is|would\s+be|seems|must\s+be|should\s+be)\s+(?i:(?:most\s+likely|likely|probably|clearly|definitely|certainly|"
                r"surely|indeed|obviously)\s+)?(?:(?i:the|my|our)\s+)?(?i:right|correct|best|true|answer|choice|pick)\b|" + FOREIGN_AFFIRMED + ")")  # (choice_words)
    return [
        ("anchor", re.compile(anchor + r"[\s*:=\-–—]*(?:(?i:option|choice)[\s*]*)?" + token)),  # "Answer — C." (holdout16)
        ("affirmed", re.compile(r"(?<![\w'])" + _letter_token(letters, affirmed))),
        # a conclusion word opening its sentence, then the letter and a break: "So C — thiamine deficiency ...", "Hence B:"
        ("conclusion", re.compile(r"(?:(?m:^)[^\S\n]*|(?<=[.!?]\s))(?i:so|thus|hence|therefore)[,:]?\s+" + _letter_token(letters, r"\s*(?:$|[.:;!\u2013\u2014]|-{1,2}\s)"))),
        # "Option: B" as a label line (holdout89); a result said to match a letter, "..., which matches (A)." (holdout110: a
        # recomputation that lands on another option is another option stated, as "which is option A" is)
        ("option", re.compile(r"(?i:\b(?:option|choice)|\bmatch(?:es|ed)?(?:[^\S\n]+(?:option|choice))?|"
                              r"\bcorrespond(?:s|ed)?[^\S\n]+to(?:[^\S\n]+(?:option|choice))?)[\s*]*(?::[\s*]*)?" + token)),
        ("bold", re.compile(r"\*\*\s*" + _letter_token(letters, r"\*\*|$|[\s.,:;)*!\]\-–—]"))),
        # (a check mark may open the line: "✅ A — Insulin" marks its one line the pick; a cross mark never does)
        # (a bracketed gloss that closes the line keeps the letter the line's answer: "C (AB)", "D (vitamin B12)"; holdout115)
        ("line_start", re.compile(r"(?m)^[^\S\n]*(?:[✅✔☑]\ufe0f?[^\S\n]*)?" + _letter_token(
            letters, r"$|[.,:;)*!\]\-–—]|[^\S\n](?:[-–—]|--)[^\S\n]|[^\S\n]+\([^()\n]{1,60}\)[^\S\n]*[.!]?[^\S\n]*$", r"[^\S\n]"))),
        ("line_end", re.compile(r"(?<![\w'])" + _letter_token(letters, _AFFIRMING_TAIL_TO_END.pattern))),
        ("line_end", re.compile(r"(?<![\w'])" + _letter_token(letters, AFFIRMED_THEN_GLOSS))),  # "B ✅ — ..." (registers)
        # the reply's first words ("It's A. With a bounded load factor ...") or a result's arrow that ends the text ("= 3 → C) 3") state the pick (holdout88)
        ("conclusion", re.compile(r"\A[^\S\n]*(?i:it's|it\s+is|that's|that\s+is)[^\S\n]+\**" + _letter_token(letters, r"\**[^\S\n]*(?:$|[.,:;!\u2013\u2014]|-{1,2}\s)"))),
        ("conclusion", re.compile(r"(?:→|⇒|⟹|=>|->)[^\S\n]*\**" + _letter_token(letters, r"\**(?:[^\S\n]+[^\n]{1,60}?)?[^\S\n]*[.!]?\s*\Z"))),
        # what an elimination leaves, opening its sentence: "Which leaves B as the strongest.", "That leaves only C."
        # (holdout110; "which leaves B and C" names two, and "leaves B behind" is no answer)
        ("conclusion", re.compile(r"(?:(?m:^)[^\S\n]*|(?<=[.!?]\s))(?i:which|that|this)[^\S\n]+leaves[^\S\n]+(?:(?i:only|just)[^\S\n]+)?(?:(?i:option|choice)[^\S\n]+)?\**"
                                  + _letter_token(letters, r"\**(?:[^\S\n]*[.!]|[^\S\n]+as[^\S\n]+the\b)"))),
        ("anchor", key_label_pattern(letters)),  # "Ans. is 'a' i.e., Thiamine": an answer key's label (choice_keys; a later
        # line-final letter, "Final: c", outranks it)
        # last, so that a letter a later tier reads is not displaced: "答案：D。不对，是A。" is A, as before
        ("anchor", re.compile(FOREIGN_ANCHOR + _letter_token(letters, r"$|[\s.,:;()*!\]\-–—。、]|[\uac00-\ud7a3]"))),
        ("json", re.compile(_JSON_KEY + _letter_token(letters, r'"'))),
    ]


def _letter_from_short(text: str, letters: str, options: Mapping[str, str]) -> str | None:
    """A short answer span: "C", "(C)", "C. text", "\\text{C}", or exactly an option's text."""
    cleaned = _font_unwrapped(text, _SHORT_WRAPPED).strip().strip("*$ .").strip()
    cleaned = re.sub(r"\A\{([^{}]*)\}\Z", r"\1", cleaned).strip()  # "\\textcolor{green}{C}" leaves the group "{C}" (holdout115)
    match = re.match(r"^(?i:option|choice)?\s*[(\[]?([A-Za-z])[)\]]?(?:[.):\s]|$)", cleaned)
    if match and match.group(1).upper() in letters and (len(cleaned) <= 3 or cleaned[1:2] in ".):" or re.match(r"(?i:option|choice)", cleaned)):
        return match.group(1).upper()
    amc = re.match(r"[(\[]([A-Za-z])[)\]](?:\s|\\[ ,;:!]|\\q?quad\b|~)+(\S[^()]{0,40})\Z", cleaned)  # "(C)\\ 15": AMC's letter, its value
    if amc and amc.group(1).upper() in letters and _norm(amc.group(2)) == _norm(options.get(amc.group(1).upper(), "\0")):
        return amc.group(1).upper()  # the letter with its own option's text (holdout66); another option's text is no answer
    wanted = _norm(cleaned)
    for letter, option in options.items():
        if wanted and wanted == _norm(option):
            return letter
    return None


def extract_letter(text: str, letters: str = "ABCDE", options: Mapping[str, str] | None = None) -> tuple[str | None, str]:
    """The chosen option letter in a completion and the tier that found it (``(None, "")`` if none).

    Read on the normalised visible text (:func:`~polyreward.verifiers.reading.answer_views`: comments never, a
    fenced block or quote only when nothing else answers); a letter that a later clause contradicts (another
    option stated, the choice withdrawn or denied: :func:`~polyreward.verifiers.commitment.later_disowns`) is no
    answer; a text that gives a value to the grader's key is read again with those values masked, and a letter the
    two readings do not share is no answer (:mod:`.key_values`: "I think it's A ... expected answer C")."""
    found = _extract_letter(text, letters, options)
    if found[0] is not None and _answers_outside(text, letters, options):
        return None, "outside"  # "... matches option C.\n\nThe answer is (J).": the writer's answer is no option here
    if found[0] is not None and (masked := keys_masked(text)) is not None and _extract_letter(masked, letters, options)[0] != found[0]:
        return None, "key_value"
    if found[0] is not None and cut_off_pausing(strip_thinking(text)):
        return None, "truncated"  # "Answer: C / Wait, actually,": cut off taking it back (holdout116)
    return found


# every capital letter but "I" (the pronoun): the letters a final answer may name outside the question's
_ANY_LETTER_BUT_I = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
# the tiers where the writer states an answer (an answer phrase, a box, an answer tag), not a letter read elsewhere
_ANSWERING_TIERS = ("anchor", "boxed", "answer_tag")


def _answers_outside(text: str, letters: str, options: Mapping[str, str] | None) -> bool:
    """Does the writer's committed answer, read with every capital letter allowed, name a letter outside ``letters``
    (red team ``holdout102``: "M(CO₂) = 44 g/mol, which matches option C.\n\nThe answer is (J)." under the letters
    A-E)? Then the answer given is no option of this question, whatever option the work matched: no letter is
    committed. Read only when such a letter stands alone somewhere in the text ("The answer is C (vitamin K)." still
    commits to C: its answer phrase names C)."""
    outside = "".join(letter for letter in _ANY_LETTER_BUT_I if letter not in letters)
    if not outside or not re.search(rf"(?<![^\W\d_])[{outside}](?![^\W\d_])", text):
        return False
    wide, tier = _extract_letter(text, letters + outside, options)
    return (wide is not None and wide not in letters and tier in _ANSWERING_TIERS
            and not any(option.strip(" .") == wide for option in (options or {}).values()))  # "C) U": U is an option's text


def letter_after_answer_block(text: str, letters: str = "ABCDE", options: Mapping[str, str] | None = None) -> str | None:
    """The letter the text after the last closed ``<answer>`` block commits to when read on its own
    (:func:`extract_letter`), or None (red team ``holdout_r43``: what comes after the answer). A reward that reads the
    block's box alone pays "<answer>\\boxed{A}</answer> Updated answer after looking at the ECG again: ... the resin
    instead -- B." or "... Revised final answer: \\boxed{D}"; a tail that commits to another letter is a second final
    answer, so the caller reads no committed one. A tail that names no letter as its answer ("Next steps: ...",
    "Starting propranolol first (A) risks unopposed alpha stimulation, so A is out.") gives None.
    ``letter_after_answer_block("<answer>\\boxed{A}</answer> Final: \\boxed{D}")`` is ``"D"``."""
    blocks = list(tag_blocks(text, "answer", ignore_case=True))
    if not blocks:
        return None
    tail = text[blocks[-1][1]:]
    if not letter_pattern(letters).search(tail):
        return None
    return extract_letter(tail, letters, options)[0]


def _extract_letter(text: str, letters: str, options: Mapping[str, str] | None) -> tuple[str | None, str]:
    text = soap_assessment(flashcard_answer(bracketed_in_capitals(text, letters)))  # "(c), maybe (e)" as "(C), maybe (E)" (holdout84)
    text = reader_picks_masked(text)  # "If you answered **A**: Great job!": the student's hypothetical pick (holdout121)
    # ("Q: ...?\nA: Unfractionated heparin (C).": the answer's label, not option A; holdout76)
    written, text = text, without_own_negative_texts(text, letters, options or {})  # "C. Not hearsay, as ...": the option's own label
    views = [view[:passing_check_start(view)] for view in answer_views(text)]  # "56 -> B. Quick check: 56 ÷ 7 = 8 ✓." (holdout67)
    recorded = record_letter(strip_thinking(views[0]), letters, options or {}, _letter_from_short, _committed_letter)
    if recorded is None and len(views) > 1 and not views[0].strip():  # a fenced YAML record is all there is (holdout112)
        recorded = record_letter(strip_thinking(views[-1]), letters, options or {}, _letter_from_short, _committed_letter)
    if recorded is not None:
        return recorded  # a whole record (or a submitted call after prose): its answer field (holdout59)
    readings = [_committed_letter(view, letters, options or {}) for view in views]
    # code and quotes answer only when the visible text names no option at all ("It is not A" names one)
    seen = strip_thinking(views[0])
    silent = not any(not re.match(r"\s+[a-z]", seen[m.end():m.end() + 3]) for m in letter_pattern(letters).finditer(seen))  # "A patient" is prose
    result = readings[-1] if readings[0] == (None, "") and silent else readings[0]
    marked = marked_option(seen, letters)
    if marked is None and len(views) > 1:
        marked = marked_option(strip_thinking(views[-1]), letters)  # a fenced CSV or JSON record per option
    if marked is None:
        marked = scored_option(seen, letters)  # "option,probability\nC,0.5\nD,0.5": a tie at the top picks none (holdout59)
    if marked == SEVERAL or (result[0] is not None and "nswer" in seen and letters_per_label(seen, letters)):
        return None, SEVERAL  # "✅ B ... ✅ C": two options picked (holdout38); "Answer:\n- First-line: A\n- Definitive: C" (holdout44)
    if marked is not None and result == (None, SEVERAL) and _answer_phrase_names_several(seen, letters):
        return None, SEVERAL  # "| A Isoniazid | Yes | ... | D Ethambutol | Yes |" then "Answer: A and D both fit." (holdout76)
    if marked is not None:  # one option picked by a verdict per option ("❌ A. ... ✅ C. ...", "C,yes"; holdout35, holdout38)
        if result[0] not in (None, marked) and result[1] not in ("option_text", *_MENTION_TIERS):  # (a row's own label is no answer)
            return None, ""  # the verdicts pick one option, the answer line another
        if result[0] != marked:  # (the option texts the rows are labelled with name no pick of their own)
            result = (marked, "option_marks")
    if result is not readings[0] and result[0] is not None and result[1] != "option_marks" and dissents(seen):
        return None, ""  # "> Answer: B" then "I disagree with it.": a quoted answer the writer argues with
    if len(readings) > 1 and readings[0][0] is not None and readings[-1][0] != readings[0][0]:
        return None, ""  # a fenced or quoted other option, or a retraction there
    if result[0] is not None and result is readings[0] and _reasoning_concludes_otherwise(views[0], result[0], letters):
        return None, ""  # "<think> ... So the answer is B. </think> Answer: C": the work reaches another option (holdout13)
    if result[0] is not None and (rounds := later_rounds(text)):
        again = extract_letter("\n\n".join(rounds), letters, options)
        if again[0] not in (None, result[0]):  # "The answer is D.<|im_end|><|im_start|>assistant Correction: ... A." (holdout25)
            return (again[0], "corrected") if corrected_when_challenged(text) else (None, "")
        if len(rounds) > 1 and any(extract_letter(one, letters, options)[0] not in (None, result[0]) for one in rounds) and not corrected_when_challenged(text):
            return None, ""  # "Answer: D</s>Answer: A</s>Answer: D</s>": a round that picks another option, never settled (holdout82)
    if result[0] is not None and alternates(seen):
        return None, ""  # "The answer is A. The answer is B. The answer is A.": a loop that never settles (holdout82)
    if result[0] is not None and any(tag.group(2).upper() != result[0] for tag in LETTER_TAG.finditer(views[0])
                                     if tag.group(2).upper() in letters):
        return None, ""  # "<answer>Escherichia coli ...</answer> <letter>D</letter>": the tagged letter disagrees (holdout25)
    if result[0] is not None and (len(views) > 1 or "```" in views[0] or views[0].lstrip().startswith("{")) and result[1] != "option_marks" and (
            JSON_WITHDRAWN.search(views[-1]) and _RECORD_ANSWER.search(views[-1]) or record_names_another(views[-1], result[0], options or {})):
        return None, ""  # '{"answer": "B", "abstain": true}', '{"answer": "B", "option_text": "Queue"}' (holdout38; a visible record too: holdout77)
    if result[0] is not None and result[1] != "option_marks" and (form_withholds(views[0]) or PLAIN_FLAG_UNSET.search(views[0]) and _RECORD_ANSWER.search(views[0])):
        return None, ""  # "Answer: A / [ ] Submit / [x] Skip for now", "Answer: B / Correct: No": not handed in, graded wrong (holdout112)
    if result[0] is not None and any(_letter_from_short(value, letters, options or {}) not in (None, result[0])
                                     for view in views for value in second_answers(view)):
        return None, ""  # '{"answer": "B", "backup_answer": "D"}': a record with a fallback answer gives two (holdout57)
    if result[0] is not None or result[1] == "":
        result = checked_by_position(strip_thinking(views[0]), result, letters, options or {})
    if result[0] is not None and (options and glossed_as_another_option(seen, result[0], letters, options) or final_names_no_option(
            seen, max((m.end() for m in letter_mentions(seen, result[0], letters)), default=0), options or {})):
        return None, ""  # "Ans. is 'a' i.e., Riboflavin" (B's text); "... hypocalcemia (B) ... Final answer: None of the above."
    if result[0] is not None and any(marked_letter(strip_thinking(view), _ANY_ANCHOR.pattern, letters, options or {}) for view in views):
        return None, ""  # "**Answer: A̅**", "Final answer: B-cells.", "answer = !A": a letter marked as another token (holdout115)
    if result[0] is not None and options and result[1] != "option_text" and marked != result[0]:
        # (a verdict per option names every option beside its own letter: no letter there labels another's text)
        return against_the_options(strip_thinking(views[0]), result, letters, options,  # (its own option named as written too)
                                   "" if written == text else strip_thinking(answer_views(written)[0]), spelled(strip_thinking(views[0]), options))
    return result


def _answer_phrase_names_several(text: str, letters: str) -> bool:
    """Does the last answer phrase of ``text`` ("Answer:", "The correct option is") give several options ("A and D
    both fit", "B or D")? Then it is the writer's own statement that no one option is picked, whatever a verdict per
    option in a table above it marks."""
    last = None
    for last in _ANY_ANCHOR.finditer(text):
        pass
    return last is not None and _committed_letter(text[last.start():], letters, {})[1] == SEVERAL


_ANY_ANCHOR = re.compile(_ANCHOR + "|" + FOREIGN_ANCHOR)


def _reasoning_concludes_otherwise(view: str, letter: str, letters: str) -> bool:
    """Does the reasoning before the final mention of ``letter`` (a think block included) conclude another option,
    never taken back (:mod:`.conclusions`)?"""
    full = squeeze_whitespace(view[-2 * MAX_TAIL_CHARS:])
    mentions = letter_mentions(full, letter, letters)
    if not mentions:
        return False
    is_letter = letter_is(letter, letters)
    return concluded_otherwise(full[:mentions[-1].start()], lambda segment: _other_letter(is_letter(segment, 0)))


def _other_letter(same: bool | None) -> bool | None:
    return None if same is None else not same


def _committed_letter(view: str, letters: str, options: Mapping[str, str]) -> tuple[str | None, str]:
    """The letter of one view, unless a later clause of that view disowns it."""
    view = corrected_answer_line(squeeze_whitespace(strip_thinking(view)[-MAX_TAIL_CHARS:]), _ANY_ANCHOR.pattern)  # "Answer: (C), no: (E)"
    view = corrected_line_openings(view)  # "A -- sorry, I mean B, the cell. B.": a self-repair that opens its line (holdout125)
    view = rendered_ballot(view)  # radio buttons and answer-sheet bubbles as ballot lines (holdout112)
    inner = unclosed_block(view, "answer", ignore_case=True)
    if inner is not None and not find_boxes(inner) and (len(LONG_WORD.findall(inner)) >= 4 or not inner.strip()):
        return None, ""  # "<answer>Checked ... So far the running value is C", "... <answer>": the answer block was cut off
    if CUT_OFF_ANSWER.search(view[-80:].rstrip(" \t\n(*[$")) or unfilled_answer_line(view):  # (or "The answer is ( ).")
        return None, ""  # "..., so the best answer here is option": cut off where the answer was to be (holdout27)
    result = _letter_in_view(view, letters, options)
    if result[0] is not None and any(ranking.start() <= mention.start(1) < ranking.end() for ranking in RANKING.finditer(view)
                                     for mention in letter_mentions(view, result[0], letters)[-1:]):
        return None, SEVERAL  # "Ranking from most to least likely: A > B > D > C": an order, not a choice (holdout28)
    letter, how = result
    if letter is None:
        return result
    if how == "ballot" and (view := options_left_out(view, letter, letters)) is None:  # the unticked lines after the
        return None, ""  # ticked one are the options left, no later statement; "Not sure, maybe C." after it (holdout96)
    if how == "lettered_text":  # "(A) and (C) only", read under its answer phrase's checks: the letters before it may be
        return result  # the stem's statements' ("Statements (A) and (C) are true. Answer: (A) and (C) only"; holdout84)
    if how == "option_text":  # the option named by its text alone is read under the same later clauses (holdout11)
        named = _option_mentions(view, options)
        end = max(named)[0] if named else len(view)
        if (CUT_OFF_MID_SENTENCE.search(view[-80:]) or any(view[m.end():m.end() + 2].startswith("?") for m in letter_mentions(view, letter, letters))
                or re.match(r"[^.!?;\n]*\?", view[end:])):  # the last naming asks, in its sentence or clause after ";" (holdout51)
            return None, ""  # "... would be option" (cut off), "Is it B? ..." (asked) (holdout22)
        if named and qualified(view, end - max(named)[1], end):
            return None, ""  # "I think it is O(log n) but I might be confusing it"
        if any((hedged(view, stop - length, stop) or mention == letter and listed_with_another(view, stop - length, stop, named, letter))
               and not re.match(r"[^.!?;\n]*\?", view[stop:]) for stop, length, mention in named):
            return None, SEVERAL  # "... is Saturn or Jupiter. Earth is ...", "... is Saturn and Earth.": options offered together
        if NO_CHOICE.search(view, end):
            return None, ""  # "Merge sort ... That points to C. ... I don't think any option is correct, and I won't pick one." (holdout13)
        if undecided(view, letter, letters, options, end):
            return None, SEVERAL  # "Metformin ... B under ADA 2019, E under ADA 2024." (undecided.py)
        return (None, "") if later_disowns(view, end, letter, letters=letters, option_text=options.get(letter, "")) else result
    blocks = list(tag_blocks(view, "answer", ignore_case=True))
    if blocks and corrected_in_block(blocks[-1][2], letter, letters, options):
        return None, ""  # "<answer>A... wait, no, B.</answer>", "<answer>(A). Actually, B</answer>": the block takes it back
    if blocks:  # the letter came from the last answer block
        before = view[:blocks[-1][0]]
        earlier = {_letter_from_short(box[2], letters, options) for box in find_boxes(before)} - {None, letter}
        if earlier and retraction_after(before, 0) is None:
            return None, ""  # "\\boxed{A} <answer>E</answer>": two final answers, nothing withdrawn
        if {_letter_from_short(box[2], letters, options) for box in find_boxes(view[blocks[-1][1]:])} - {None, letter}:
            return None, ""  # "<answer>E</answer> \\boxed{A} ...": a different final box after the block
    mentions = letter_mentions(view, letter, letters)
    if mentions and (labelled_otherwise(view, mentions[-1].start(), letter, letters) or summary_names_other_letter(view, mentions[-1].end(), letter, letters)):
        return None, ""  # "Answer: A\nExplanation: The answer is D.": two answers, nothing taken back (holdout25)
    if mentions and mentions[-1].start() > 0 and negated(view, mentions[-1].start(1), mentions[-1].end(1)):
        return None, ""  # "The answer is C. Hmm, C assumes a constant rate ... So not C.": the last word on C denies it
    if len(mentions) > 1 and re.search(r"[.!?\n]", view[mentions[-2].end():mentions[-1].start()]) \
            and qualified(view, mentions[-1].start(), mentions[-1].end()):
        return None, ""  # "Answer: **D** ... closer to A. I'm no longer sure D is right.": a later sentence doubts D (holdout109)
    if mentions and mentions[-1].start() > 0 and (bound_not_value(view, mentions[-1].start(1)) or offers_unnamed_other(view, mentions[-1].end(1))):
        return None, ""  # "I can only say the answer is at most E.", "whether it still rounds to B or moves toward another option" (holdout105)
    if mentions and (later_disowns(view, mentions[-1].end(), letter, letters=letters, option_text=options.get(letter, ""))
                     or conditional_other_letter(view, mentions[-1].end(), letter, letters)  # "..., in which case D." (holdout57)
                     or answers_under_conditions(view, mentions[-1].start(), letter, letters)):  # "If ..., B. If instead ..., A" (holdout55)
        return None, ""
    if mentions and withdrawn_in_clause(view, mentions[-1].start()):
        return None, ""  # "Answer: A. Edit: withdrawn, A contradicts the second premise."
    if key_answer_not_own(view, letter_is(letter, letters)):
        return None, ""  # "My answer: C ✗ Correct answer: B ✓", "the expected answer is D. I answered C" (holdout11)
    if mentions and undecided(view, letter, letters, options, mentions[-1].start()):
        return None, SEVERAL  # "E in real life, B on the test", "None of these is correct ... closest is B" (undecided.py)
    if mentions and letter_at_even_or_less(view, letter):
        return None, SEVERAL  # "**Answer: C** ... Confidence: C 50 %, B 50 %": the belief split, C not preferred (holdout109)
    return result


def _letter_in_view(text: str, letters: str, options: Mapping[str, str]) -> tuple[str | None, str]:
    """:func:`extract_letter` on one view of a completion, before the check of what follows the answer."""
    if not text.strip():
        return None, ""
    blocks = list(tag_blocks(text, "answer", ignore_case=True))
    if blocks:
        retraction = retraction_after(text, blocks[-1][1])
        if retraction is not None and retraction[1]:
            return None, ""  # "<answer>C</answer> Scratch that."
        inner = corrected_value(blocks[-1][2].strip()) or blocks[-1][2].strip()  # "<answer>(C), no: (E)</answer>" (holdout93)
        letter = _letter_from_short(inner, letters, options)
        if letter is not None:
            return (None, "") if qualified_after(text, blocks[-1][1]) else (letter, "answer_tag")
        text = inner
    boxes = find_boxes(text)
    if unclosed_box_after(text, boxes):  # the final box was cut off: one letter only after work naming that option alone
        cut = cut_off_letter(text)  # ("... so they are mammals.\n\n\\boxed{B": broken_markup.py, holdout82)
        return (cut[1], "boxed") if cut is not None and named_by_words(text[:cut[0]], options) == cut[1] else (None, "")
    if boxes:
        joined = last_boxed(text) or ""
        if len(boxes) > 1 and _in_option_list(joined, 0, letters):
            return None, SEVERAL  # \boxed{A} \boxed{C}
        if len(_options_named(boxes[-1][2], options)) > 1:
            return None, SEVERAL  # \boxed{0.375, 0.5, 2.67}: the texts of several options in the final box
        letter = _letter_from_short(boxes[-1][2], letters, options)
        if letter is not None and not negated(text, boxes[-1][0], boxes[-1][1]):
            if hedged(text, boxes[-1][0], boxes[-1][1]):
                return None, SEVERAL
            return (None, "") if qualified(text, boxes[-1][0], boxes[-1][1]) else (letter, "boxed")
    text = _font_unwrapped(text)  # "The answer is \text{(C)}"
    if "$" in text or "\\(" in text or "\\[" in text:
        text = _INLINE_LETTER.sub(lambda math: next(part for part in math.groups() if part is not None), text)  # "$\textbf{(C) } 7$", "$(C)$": AMC's letter set in math (holdout42)
    if "[" in text or not text.isascii():
        ticked = ticked_on_ballot(text, letters)
        if ticked is not None:  # a ballot decides: one box ticked, several, or none ("")
            return (ticked or None, "ballot" if ticked else "") if ticked != SEVERAL else (None, SEVERAL)
    if (whole := lettered_text_answer(text, letters, options, _letter_from_answer_span)) is not None:
        return whole, "lettered_text"  # "Both A and B", "(A) and (C) only": an option's own text, its letters its words (holdout84)
    if glued_letters(text, _ANY_ANCHOR.pattern, letters, options):
        return None, SEVERAL  # "**Answer: BC**": two letters written as one word (holdout88)
    for how, pattern in _patterns(letters):
        letter = _rightmost(text, pattern, letters, bare=how == "line_end")
        if letter == SEVERAL:
            return None, SEVERAL
        if letter == UNCOMMITTED:
            return None, ""
        if letter is not None and how in _MENTION_TIERS:
            named = _option_opening_answer_phrase(text, letters, options)
            mentions = letter_mentions(text, letter, letters)
            if named is not None and named[0] != letter and mentions and named[1] > mentions[-1].start():
                return named[0], "answer_text"  # "Option B is tempting, but the answer is oral diphenhydramine." (holdout11)
        if letter is not None:
            return letter, how
    letter = _letter_from_short(text, letters, options)
    if letter is not None and not negated(text, 0, len(text)) and not asks(text):  # ("Paris?" asks)
        return letter, "whole"
    letter = _letter_from_answer_span(text, letters, options)
    if letter is not None:
        return letter, "answer_text"
    if (closing := closing_option_text(text, letters, options)) is not None and not (  # "..., which is U." (holdout84)
            negated(text, *closing[1:]) or hedged(text, *closing[1:]) or qualified(text, *closing[1:])):
        return closing[0], "answer_text"
    if blocks and len(_options_named(text, options)) > 1:
        return None, SEVERAL  # an answer block that names several options by their text commits to none
    if len(letters_listed(text, letters)) > 1:
        return None, SEVERAL  # "- Parainfluenza virus — B / - RSV — A / - Influenza — C": a list, no choice (holdout11)
    if unfilled_answer_line(text):
        return None, ""  # "Argon is the noble gas here.\n\nAnswer: [LETTER]": the answer line is an unfilled template
    labelled = letter_with_its_text(text, letters, options) if options else None  # "Canberra (B). Although Sydney ..."
    if labelled is not None and not (negated(text, *labelled[2:]) or hedged(text, *labelled[2:]) or qualified(text, *labelled[2:])) and (
            extract_letter(f"The answer is ({labelled[0]})" + text[labelled[1]:], letters, options)[0] == labelled[0]):
        return labelled[0], "with_text"  # what follows is read as it follows an answer phrase
    letter = _letter_from_option_text(text, options)
    if letter is not None and any(negated(text, m.start(1), m.end(1)) or hedged(text, m.start(1), m.end(1))
                                  or _CROSSED_BEFORE.search(text, max(0, m.start() - 6), m.start())  # "❌ A — Insulin"
                                  for m in letter_mentions(text, letter, letters)):
        # "it's not B - the stratosphere is too thin", "either C or D ... ethosuximide": the option's own letter is
        # denied or offered as one of several, so naming its text chooses nothing either (holdout23, holdout25)
        return None, ""
    if letter is not None and (key_alternatives(text, letters) or len({  # "So option b or a+b depending on ..." (holdout76)
            m.group(1).upper() for m in _offered_letter_pattern(letters).finditer(text)
            if not negated(text, m.start(1), m.end(1)) and not qualified(text, m.start(1), m.end(1))}) > 1):
        return None, SEVERAL  # "If ..., C; if ..., D.": letters offered and none committed to; no option's text decides
        # ("My classmate said A; she's wrong -- it's D, Jupiter": A is someone else's, and Jupiter names D)
    return (letter, "option_text") if letter is not None else (None, "")


_CROSSED_BEFORE = re.compile(r"[❌✗✘🚫]\ufe0f?[^\S\n]*\Z")  # a cross mark on the letter: crossed out, not picked


def _offered_letter_pattern(letters: str) -> re.Pattern:
    """An option letter standing alone before punctuation ("C;", "(D).", "B,"), the way a writer offers one (holdout10)."""
    return re.compile(rf"(?<![A-Za-z'\\])[(\[]?([{re.escape(letters)}])[)\]]?(?=\s*(?:[,;.:!?]|\Z))")


# (a minus before a digit opens the value: "Answer: -39 °C" is "-39 °C", not "39 °C"; holdout117)
_ANSWER_SPAN = re.compile(_ANCHOR + r"(?:[\s*:=]|-(?!\d))*([^\n;!?]{1,60}?)[\s*]*(?:[;!?\n]|\.(?!\d)|\Z)")


def _letter_from_answer_span(text: str, letters: str, options: Mapping[str, str]) -> str | None:
    """The option whose whole text is what the last answer phrase commits to ("The answer is 56." for ``B) 56``),
    however short: an option's text is otherwise read from 3 characters only, but a committed answer that equals one
    option's full text exactly, and no other's, names that option; so does one that holds every distinctive word of one
    option and none of another's (:func:`.option_statement.named_by_words`, as an opening statement is read). Read under
    the same checks as a letter."""
    spans = list(_ANSWER_SPAN.finditer(text))
    if not spans or not options:
        return None
    span = spans[-1]
    wanted = _norm(span.group(1).strip().strip("*$()[] "))
    named = [letter for letter, option in options.items() if wanted and wanted == _norm(option)]
    if not named and not _DENIAL_IN_SPAN.search(span.group(1)) and (by_words := named_by_words(span.group(1), options)) is not None:
        named = [by_words]  # "The most appropriate step is to respect his refusal and offer blood-free alternatives" (holdout76)
    if len(named) != 1:
        return None
    letter, start, end = named[0], span.start(1), span.end(1)
    if negated(text, start, end) or hedged(text, start, end) or qualified(text, start, end) or hypothetical(text, span.start(), end):
        return None
    if later_disowns(text, end, letter, letters=letters, option_text=options[letter]) or later_disowns(text, end, span.group(1).strip()):
        return None  # another option, or another value ("The answer is 56. Wait, no, 12."), stated after it
    if (retraction := retraction_after(text, end)) is not None and retraction[1]:
        return None  # "... offer alternatives. Actually no, obtain an emergency court order."
    if later_option_text_disowns(text, end, letter, letters, options, _option_mentions):
        return None  # "Answer: Paris. Actually: Lyon.": another option named by its text, read as its letter would be
    return letter



_DENIAL_IN_SPAN = re.compile(r"\b(?:not|never|no|nor|neither|without|instead\s+of|rather\s+than)\b|n't", re.IGNORECASE)


# the tiers that read a letter merely mentioned, not stated by an answer phrase: an answer phrase after the mention that
# opens with another option's text ("B) Iron deficiency anemia is the classic distractor; the answer is beta-thalassemia
# minor, since ...") states the writer's choice
_MENTION_TIERS = ("option", "bold", "line_start", "line_end")
_ANSWER_PHRASE_OPENING = re.compile(_ANCHOR + r"(?:[\s*:=]|-(?!\d))*(?:(?:the|an?|option|choice)\s+)?([^\n;!?]{3,160})")


def _option_opening_answer_phrase(text: str, letters: str, options: Mapping[str, str]) -> tuple[str, int] | None:
    """(letter, where) of the last answer phrase whose words open with exactly one option's whole text, read under
    the same checks as a letter; None when there is none."""
    phrases = list(_ANSWER_PHRASE_OPENING.finditer(text)) if options else []
    if not phrases:
        return None
    phrase = phrases[-1]
    spoken = _norm(phrase.group(1)) + " "
    named = [letter for letter, option in options.items() if _norm(option) and spoken.startswith(_norm(option) + " ")]
    if len(named) != 1:
        return None
    start, end = phrase.start(1), phrase.start(1) + len(phrase.group(1))
    if negated(text, start, end) or hedged(text, start, end) or qualified(text, start, end) or hypothetical(text, phrase.start(), end):
        return None
    return named[0], start


def _option_mentions(text: str, options: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """``(end, length, letter)`` of every place ``text`` names an option by its text, not denied
    (:func:`.option_checks.option_mentions` across markup); where none is, a word of another language that is a cognate
    of one option's word ("el nitrógeno" for Nitrogen: :func:`.option_checks.cognate_mentions`; holdout41)."""
    return [(m.end(), m.end() - m.start(), letter) for letter, option in options.items()
            for m in option_mentions(text, option, text, across_markup=True)] or [
        (end, end - start, letter) for start, end, letter in cognate_mentions(text, options, other_forms_only=True)]


def _options_named(text: str, options: Mapping[str, str]) -> set[str]:
    return {letter for _, _, letter in _option_mentions(text, options)}


def _letter_from_option_text(text: str, options: Mapping[str, str]) -> str | None:
    """The option whose text occurs last in the completion, not denied (longest wins a tie)."""
    mentions = _option_mentions(text, options)
    return max(mentions)[2] if mentions else None


def parse_reference(ref: Any, letters: str = "ABCDE", options: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """Gold as ("letter", "C") or ("label", "yes"); None when it is neither."""
    if is_missing(ref):
        return None
    try:
        text = str(ref).strip()
    except ValueError:  # an int beyond Python's 4,300-digit str() limit is no option
        return None
    if text.lower().strip(".") in LABELS:
        return "label", text.lower().strip(".")
    letter = _letter_from_short(text, letters, options or {})
    if letter is None:
        match = re.match(r"^\(?([A-Z])[.):]\s+\S", text)
        letter = match.group(1) if match and match.group(1) in letters else None
    return ("letter", letter) if letter is not None else None


def _shown(value: Any) -> str:
    try:
        return str(value)[:200]
    except ValueError:  # str() of an int over 4,300 digits
        return f"<an integer of {int(value.bit_length() * 0.30103) + 1} digits>"


def verify_choice(*, pred: Any, ref: Any, letters: str = "ABCDE", options: Any = None, prompt: str = "") -> Verdict:
    """Is the option chosen in completion ``pred`` the gold ``ref``? (keyword-only, ref = gold). With ``prompt``, a
    completion that asks the question again under a heading of its own is read for its answers to that question
    (:func:`.turns.answer_for_the_question`): two different ones are none; so is a loop that flips between two; and
    the question's own negated predicate is no denial (:func:`.negative_questions.in_the_questions_words`)."""
    option_map = parse_options(options) or (prompt_options(prompt) if "textbf" in prompt else {})  # AMC's "\\textbf{(A)}\\ 8 \\qquad ..."
    if option_map:
        letters = "".join(dict.fromkeys(letters + "".join(sorted(option_map))))
    gold = parse_reference(ref, letters, option_map)
    if gold is None:
        return Verdict(None, "gold_unparseable", "" if is_missing(ref) else _shown(ref), rule="choice")
    kind, answer = gold
    text = completion_text(pred) if kind == "label" else in_the_questions_words(prompt, completion_text(pred))  # "The one not counted is C."
    read = (lambda part: extract_label(part)[0]) if kind == "label" else (lambda part: extract_letter(part, letters, option_map)[0])
    text, answered_twice = answer_for_the_question(prompt, text, read)
    if answered_twice:  # "Answer: D ... Human: <the question> ... C", "Answer: C / No, Answer: D" in a loop
        return Verdict(0.0, "no_answer", answer, rule="conflicting")
    if kind == "label":
        found, how = extract_label(text)
    else:
        found, how = extract_letter(text, letters, option_map)
    if kind == "letter" and how in ("", "option_text", SEVERAL) and (stated := opening_statement(text, prompt, letters, option_map, read)) is not None:
        found, how = (None, SEVERAL) if stated == SEVERAL else (stated, "opening_statement")  # "Canberra is the capital ...; ... Sydney and Melbourne."
    if found is None:
        return Verdict(0.0, "several_options" if how == SEVERAL else "no_answer", answer, rule=kind)
    equal = found == answer
    return Verdict(float(equal), "equal" if equal else "not_equal", answer, found, kind, how)
