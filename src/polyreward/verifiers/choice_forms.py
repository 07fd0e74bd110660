"""Forms a multiple-choice answer takes besides a sentence (red team holdout21, holdout25): a ballot of option lines
with check boxes, an answer line that opens a line ("Answer: A"), and a letter in a tag of its own
("<letter>D</letter>"), and an option named by its position ("the second option"). :mod:`.choice` reads them;
reconstructed rules (ours), each one bounded pattern.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from polyreward.verifiers.choice_words import APPOSITION, LISTED_LETTERS, NUMBERED_OPTION, ORDINAL_OPTION, ordinal_position
from polyreward.verifiers.commitment import hedged, later_disowns, negated, qualified, retraction_after
from polyreward.verifiers.option_letters import letter_mentions, letter_pattern
from polyreward.verifiers.not_a_value import DANGLING_WORDS, cut_off_after
from polyreward.verifiers.option_checks import option_mentions, record_names_another, titled_as_no_option
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.records import record_answer
from polyreward.verifiers.speaker_declines import DECLINED
from polyreward.verifiers.withdrawal_words import WITHDRAWAL

# "A, B, C, D", "B or C", "(A) (B)", "A/C": a hedge over several options is no answer (else listing every letter would
# score like a committed guess, and a policy learns to hedge); :mod:`.choice` reports it with this reason
SEVERAL = "several options"


# a label that a letter grades or names: "Confidence grade: B", "Difficulty level: C", "Vitamin C", "Plan B"
GRADE_BEFORE = re.compile(r"\b(?:grade|graded|score|rating|level|tier|difficulty|confidence|class|category|rank|priority|"
                           r"vitamin|plan|type|stage|group|section|appendix|figure|table)\s*(?:grade|level)?\s*[:=]?\s*\(?\Z", re.IGNORECASE)
# cut off right after an answer phrase: "the best answer here is option", "my answer would be", "Answer:", or a choosing
# verb before the word for an option ("Judge: ... I select option", "the panel votes for option": a verdict cut off
# before its letter, holdout124)
CUT_OFF_ANSWER = re.compile(cut_off_after(r"(?:answer|choice|option|pick)\s+(?:here\s+)?(?:is|would\s+be)(?:\s+option)?|is\s+option|"
                                           r"(?:select|selects|choose|chooses|pick|picks|go\s+with|goes\s+with|vote\s+for|votes\s+for|rule\s+for|rules\s+for)"
                                           r"\s+(?:the\s+)?(?:option|choice|letter|answer)|"
                                           r"answer\s*(?:\*\*)?\s*:\s*(?:\*\*)?"), re.IGNORECASE)
# cut off mid-sentence after an answer phrase, an article or a conjunction: an option named by its text alone is no choice
CUT_OFF_MID_SENTENCE = re.compile(cut_off_after(r"option|choice|answer(?:\s+is)?|would\s+be|" + DANGLING_WORDS), re.IGNORECASE)
# a ranking of letters ("A > B > D > C", "C ≻ A ≻ B", a letter glossed: "E (fomepizole) > C (N-acetylcysteine) > A"): an
# order, not one choice
RANKING = re.compile(r"(?<![A-Za-z])[A-E](?:\s*\([^()\n]{1,40}\))?(?:\s*[>≻<≺]\s*[A-E](?:\s*\([^()\n]{1,40}\))?){2,}(?![A-Za-z])")


# the writer declining every option after naming one by its text: a refusal to choose, or no option called correct
NO_CHOICE = re.compile(r"\b(?:won't|will\s+not|refuse\s+to|not\s+going\s+to)\s+(?:\w+\s+)?(?:pick|choose|select|commit)\b"
                        r"|\bnone\s+of\s+(?:the\s+)?(?:options|choices|answers|above|these|them|listed)\b|(?:n't|\bnot)\s+(?:\w+\s+){0,3}?any\s+(?:option|choice)\b",
                        re.IGNORECASE)


# a ballot: the options as lines with a check box each ("[x] (A) Barometer", "[ ] (B) Hygrometer", "☑ C. ..."; holdout21)
_BALLOT_LINE = re.compile(r"^[ \t]*(?:[-*][ \t]+)?(?:\[(?P<mark>[ xX✓✔])\]|(?P<box>[☐☑☒✅]))[ \t]*\(?(?P<letter>[A-Za-z])\)?[.):]?(?:[ \t]|$)",
                          re.MULTILINE)


# a form control as a browser shows it (holdout112): a radio button or check box with an option letter for its value,
# ticked when the tag says "checked" ('<label><input type="radio" name="q" value="A" checked> Hydrogen bonds</label>')
_FORM_CONTROL = re.compile(r"(?:<label\b[^<>\n]{0,80}>[ \t]*)?<input\b(?P<attributes>[^<>\n]{0,200})>(?P<text>[^<\n]{0,120})(?:</label>)?", re.IGNORECASE)
_CONTROL_TYPE = re.compile(r"\btype\s*=\s*[\"']?(?:radio|checkbox)\b", re.IGNORECASE)
_CONTROL_VALUE = re.compile(r"\bvalue\s*=\s*[\"']?(?P<letter>[A-Za-z])\b[\"']?", re.IGNORECASE)
_CONTROL_CHECKED = re.compile(r"\bchecked\b", re.IGNORECASE)
# an answer sheet's row of bubbles, a letter then its bubble ("A ○   B ○   C ●   D ○"): filled or empty
_BUBBLE = re.compile(r"\(?(?P<letter>[A-Za-z])\)?[ \t]*(?P<mark>[○◯⚪●◉⚫])")
_BUBBLE_ROW = re.compile(r"^[ \t]*(?:\(?[A-Za-z]\)?[ \t]*[○◯⚪●◉⚫][ \t]*){2,}$", re.MULTILINE)


def rendered_ballot(text: str) -> str:
    """Form controls and answer-sheet bubbles read as the ballot lines they show (holdout112): an ``<input
    type="radio">`` or check box whose value is an option letter is ``[x] A Hydrogen bonds`` when the tag says
    ``checked`` and ``[ ] B ...`` when not; a row of lettered bubbles (``A ○   B ○   C ●   D ○``) is one ballot line a
    letter, ``●`` / ``◉`` ticked. :func:`ticked_on_ballot` then picks the one ticked, or none of two."""
    if "<input" in text.lower():
        text = _FORM_CONTROL.sub(_control_as_line, text)
    if _BUBBLE_ROW.search(text):
        text = _BUBBLE_ROW.sub(lambda row: "\n".join(f"[{'x' if bubble.group('mark') in '●◉⚫' else ' '}] {bubble.group('letter')}"
                                                      for bubble in _BUBBLE.finditer(row.group())), text)
    return text


def _control_as_line(control: re.Match) -> str:
    attributes = control.group("attributes")
    value = _CONTROL_VALUE.search(attributes)
    if not _CONTROL_TYPE.search(attributes) or value is None:
        return control.group()
    return f"[{'x' if _CONTROL_CHECKED.search(attributes) else ' '}] {value.group('letter')}.{control.group('text')}"


def ticked_on_ballot(text: str, letters: str) -> str | None:
    """The one letter ticked on a ballot of two or more option lines, :data:`SEVERAL` when more are ticked, "" when
    none is, None when the text holds no ballot."""
    lines = [line for line in _BALLOT_LINE.finditer(text) if line.group("letter").upper() in letters]
    if len(lines) < 2:
        return None
    ticked = {line.group("letter").upper() for line in lines if (line.group("mark") or "").strip() or line.group("box") in ("☑", "☒", "✅")}
    if len(ticked) > 1:
        return SEVERAL
    return ticked.pop() if ticked else ""


def options_left_out(text: str, letter: str, letters: str) -> str | None:
    """``text`` without the unticked lines of its ballot that follow the ticked ``letter``'s: the options the writer
    left, not later statements, so what is read after the ticked letter starts after the ballot ("- [ ] A / - [x] B /
    - [ ] C / - [ ] D" is B; holdout96: "- [ ] C" after it was read as another option stated). None when the words
    after the ballot hedge or qualify the ticked letter ("Not sure, maybe C."), which the ballot's tier does not read."""
    lines = [line for line in _BALLOT_LINE.finditer(text) if line.group("letter").upper() in letters]
    ticked = [line for line in lines if (line.group("mark") or "").strip() or line.group("box") in ("☑", "☒", "✅")]
    parts, position = [], 0
    for line in lines if len(ticked) == 1 else ():  # each unticked line after the ticked one, up to its end, dropped
        if line.start() > ticked[0].start():
            end = text.find("\n", line.start())
            parts.append(text[position:line.start()])
            position = len(text) if end < 0 else end
    text = "".join(parts) + text[position:]
    mention = [m for m in letter_mentions(text, letter, letters) if ticked and m.start() >= ticked[0].start()][:1]
    if mention and (hedged(text, mention[0].start(1), mention[0].end(1)) or qualified(text, mention[0].start(1), mention[0].end(1))):
        return None
    return text


# an answer line that opens a line with a letter ("Answer: A", "**Final answer:** (C)") and a tag that holds one
# ("<letter>D</letter>", "<choice>D</choice>")
# (GSM8K's final-answer mark "#### " opens such a line too: "#### A" then "#### C" are two finals, as "Answer: A" then
# "Answer: C" are, and as "#### 12" then "#### 13" are in math; holdout95)
_ANSWER_LINE_LETTER = re.compile(r"^[ \t]*(?:(?:\*\*)?[ \t]*(?:final[ \t]+)?answer[ \t]*(?:\*\*)?[ \t]*[:：]|####)[ \t]*(?:\*\*)?[ \t]*\(?([A-Za-z])\b",
                                 re.IGNORECASE | re.MULTILINE)
LETTER_TAG = re.compile(r"<(letter|choice|option|final|final_answer|selected)>\s*\(?([A-Za-z])\)?\s*</\1>", re.IGNORECASE)


def labelled_otherwise(view: str, at: int, letter: str, letters: str) -> bool:
    """Does an answer line before ``at`` give another letter, with nothing between taking it back ("Answer: A" then
    "Explanation: The answer is D.")?"""
    for line in _ANSWER_LINE_LETTER.finditer(view, 0, at):
        other = line.group(1).upper()
        if other != letter and other in letters and retraction_after(view[:at], line.end()) is None and (
                WITHDRAWAL.search(view, line.end(), at) is None):
            return True  # ("Answer: A\n[Ctrl+Z]\nAnswer: D" undoes A)
    return False


# an option named by its position in the list ("the second option", "the very first option listed", "the last one";
# holdout26), in the languages of :data:`.choice_words.ORDINALS` ("la segunda opción", "первый вариант"; holdout41)


def options_by_position(text: str, letters: str, options, start: int = 0, end: int | None = None, numbers: bool = False) -> list[tuple[re.Match, str]]:
    """Each option ``text[start:end]`` names by its position, with its letter (in the options' order when they are
    known, else ``letters``; "last" only when they are known): by an ordinal ("the third option") or, with ``numbers``,
    by its number ("option 4", :data:`.choice_words.NUMBERED_OPTION`), both counted through the one option list. A
    number is read only to check a letter it stands beside ("B, i.e. option 4"): alone, "option 1" may count from zero
    or from one (holdout21), so it names no option. An ordinal counts
    in the letters its sentence picks from right before it when it names them ("Between A and D, the second option"
    is D: :data:`.choice_words.LISTED_LETTERS`; holdout62)."""
    order = sorted(options) if options else list(letters)
    found = []
    stop = len(text) if end is None else end
    for match in ORDINAL_OPTION.finditer(text, start, stop):
        listed = LISTED_LETTERS.search(text[max(0, match.start() - 80):match.start()])
        among = re.findall(r"[A-J]", listed.group("list")) if listed else order
        position = ordinal_position(match)
        if position == -1:
            if options or listed:
                found.append((match, among[-1]))
        elif position < len(among):
            found.append((match, among[position]))
    for match in NUMBERED_OPTION.finditer(text, start, stop) if numbers else ():
        if int(match.group(1)) <= len(order):
            found.append((match, order[int(match.group(1)) - 1]))
    return sorted(found, key=lambda pair: pair[0].start())


# an answer given later by the option's position or number alone, after the letter was read ("Many students answer B
# here, but ... Answer: option 1", "29 (C) ... The correct option is the fourth.", "... so I'll pick the last one";
# holdout122): the answer word, its copula or colon, then the position ("the fourth", "the last one") or the number
# with its noun ("option 1", "choice #3"), the position closing its clause (not "answer the first question")
_ANSWERED_BY_POSITION = re.compile(
    r"\b(?:answer|final|pick|choose|select|go[^\S\n]+with|(?:correct|right|best)[^\S\n]+(?:option|choice|answer))\b[^\S\n]*"
    r"(?:is|would[^\S\n]+be|:)?[^\S\n]*(?:(?:the[^\S\n]+)?(?P<ordinal>first|second|third|fourth|fifth|last)\b"
    r"(?:[^\S\n]+(?:option|choice|one))?(?=[^\S\n]*(?:[.!,;)]|$))"
    r"|(?:option|choice)[^\S\n]*(?:#|no\.[^\S\n]*|number[^\S\n]+)?\(?(?P<number>[1-9])\)?(?![\d.,]\d|\w))", re.IGNORECASE)
_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth")


def answered_by_position(view: str, start: int, letters: str, options: Mapping[str, str]) -> list[str]:
    """The letters of the options an answer after ``start`` names by position or number alone
    (:data:`_ANSWERED_BY_POSITION`), counted from one through the option list, each not denied."""
    order = sorted(options) if options else list(letters)
    named = []
    for match in _ANSWERED_BY_POSITION.finditer(view, max(start, len(view) - 400)):  # (its last 400 characters: linear time)
        if match.group("ordinal"):
            word = match.group("ordinal").lower()
            position = -1 if word == "last" else _ORDINAL_WORDS.index(word)
        else:
            position = int(match.group("number")) - 1
        if position < len(order) and not negated(view, match.start(), match.end()):
            named.append(order[position])
    return named


def checked_by_position(view: str, result: tuple[str | None, str], letters: str, options: Mapping[str, str]) -> tuple[str | None, str]:
    """The letter read, checked against an option named by its position right after it ("The answer is E -- that is,
    the first option listed": they disagree, no answer); with no letter, the one option the last sentence names by
    its position ("That's the second option.") (holdout26)."""
    letter = result[0]
    if letter is not None:
        mentions = letter_mentions(view, letter, letters)
        if result[1] == "option_text" and any(titled_as_no_option(view[mention.end(1):], options) for mention in mentions):
            return None, ""  # '"E. Hypothalamus" -- it controls the pituitary': the letter quoted with no option's text (holdout62)
        if mentions:
            after = [named for match, named in options_by_position(view, letters, options, mentions[-1].end(), mentions[-1].end() + 100, True)
                     if not negated(view, match.start(), match.end())]
            # ... or right before it, joined to it as the same option ("the second option (C)", "die erste Option,
            # also E", "lựa chọn thứ hai, tức D"; holdout41)
            before = [named for match, named in options_by_position(view, letters, options, max(0, mentions[-1].start(1) - 80), mentions[-1].start(1), True)
                      if APPOSITION.fullmatch(view, match.end(), mentions[-1].start(1)) and not negated(view, match.start(), match.end())]
            if any(named != letter for named in after + before + answered_by_position(view, mentions[-1].end(), letters, options)):
                return None, ""  # (... or a later answer names another option by its position: holdout122)
        elif result[1] == "option_text" and options.get(letter):
            # the option named by its text, and in the same sentence another named by its position ("It's the third
            # option: ... giving O(log n)" where O(log n) is D): which one is meant? (holdout62)
            said = list(option_mentions(view, options[letter], across_markup=True))
            if said:
                start = max(view.rfind(stop, 0, said[-1].start()) for stop in (". ", "! ", "? ", "\n")) + 1
                ends = [at for at in (view.find(stop, said[-1].end()) for stop in (". ", "! ", "? ", "\n")) if at >= 0]
                if any(named != letter and not negated(view, match.start(), match.end())
                       for match, named in options_by_position(view, letters, options, start, min(ends, default=len(view)), True)):
                    return None, ""
        return result
    sentence = max(view.rstrip().rfind(stop, 0, len(view.rstrip()) - 1) for stop in (". ", "! ", "? ", "\n")) + 1
    named = options_by_position(view, letters, options, max(sentence, len(view) - 400))  # (its last 400 characters: linear time)
    if len(named) != 1:
        return result  # "the last option or the second one": several
    match, found = named[0]
    if (negated(view, match.start(), match.end()) or hedged(view, match.start(), match.end()) or qualified(view, match.start(), match.end())
            or re.match(r"\W*\bor\b", view[match.end():]) or re.search(r"\b(?:suggests?|might|may|could|perhaps|maybe)\b", view[sentence:match.start()], re.IGNORECASE)):
        return result  # "the third option, or possibly the fourth", "which suggests the first option, but ..."
    return found, "position"


# A verdict per option (holdout35, holdout38): a list, a table, CSV rows or one JSON record per line, each naming one
# option by its letter and marking it: "- **B. O(log n)**: correct", "| A. Einstein | ... | ✅ |", "C,yes",
# '{"option": "B", "correct": true}', "❌ A. Vitamin A". A row's value mark decides (✅ ✔ ☑ ✓, or yes / true as a
# whole cell or value / ❌ ✗ ✘, no / false); without one, its words do (correct, chosen, selected, right, best / incorrect, wrong, not); a row with
# both or neither is unmarked ("plausible, but not the best fit" is no pick).
_MARK_ROW = re.compile(r"^[ \t]*(?:[-*+][ \t]+|\d{1,2}[.)][ \t]+)?(?:[|{\[][ \t]*)?(?:[✅✔☑✓❌✗✘☐☒][\ufe0f]?[ \t]*)?(?:\*\*)?"
                       r"(?:\"?option\"?[ \t]*:[ \t]*)?\"?\(?(?P<letter>[A-Za-z])\)?\"?(?:\*\*)?(?=[.):,|\t ]|$)", re.MULTILINE)
_CELL_START = r"(?:^|(?<=[|,:→=>]))[ \t]*(?:\*\*)?[ \t]*"  # a yes/no that is a whole cell or value, not a word of prose
_CELL_END = r"[ \t]*(?:\*\*)?[ \t]*[.!]?[ \t]*(?=[|,}\]]|$)"
_YES_MARK = re.compile(r"[✅✔☑✓]|" + _CELL_START + r"(?:yes|true)" + _CELL_END, re.IGNORECASE)
_NO_MARK = re.compile(r"[❌✗✘☒]|" + _CELL_START + r"(?:no|false)" + _CELL_END, re.IGNORECASE)
_YES_WORD = re.compile(r"\b(?:correct|chosen|selected|right|best)\b", re.IGNORECASE)
_NO_WORD = re.compile(r"\b(?:incorrect|wrong|not|false|excluded|eliminated|ruled\s+out|unlikely)\b|n't\b", re.IGNORECASE)


MARKED_TWICE = "marked twice"
_TICK = re.compile(r"[✅✔☑✓]")  # a tick on every row still ticks them all (several)


def _row_mark(rest: str) -> bool | str | None:
    """True (a pick), False (rejected) or None (unmarked) for the rest of a row after its letter; a row marked twice
    (a table of criteria: "| B | Yes | Yes |") or with a questioned mark ("✓?") is unmarked."""
    if "?" in rest or len(_YES_MARK.findall(rest)) + len(_NO_MARK.findall(rest)) > 1:
        return MARKED_TWICE
    yes, no = bool(_YES_MARK.search(rest)), bool(_NO_MARK.search(rest))
    if yes or no:
        return None if yes and no else yes
    yes, no = bool(_YES_WORD.search(rest)), bool(_NO_WORD.search(rest))
    return None if yes == no else yes


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return end if end >= 0 else len(text)


def _passes(text: str, letters: str) -> list[dict[str, re.Match]]:
    """The passes of verdict rows in ``text``, in order, each the first row of each letter: a letter marked again opens
    a new pass ("A ✗ B ✓ C ✗ D ✗ ... Second pass: A ✓ B ✗ ..."; holdout110); a pass of fewer than three options is no
    pass of verdicts (a stray line that opens with a capital, "A patient ...")."""
    passes: list[dict[str, re.Match]] = [{}]
    for row in _MARK_ROW.finditer(text):
        letter = row.group("letter").upper()
        if letter not in letters:
            continue
        if letter in passes[-1]:
            passes.append({})
        passes[-1][letter] = row
    return [found for found in passes if len(found) >= 3]  # (speed) fewer than three rows: no verdicts, whatever their marks


def marked_option(text: str, letters: str) -> str | None:
    """The one option picked by a verdict per option (the comment above), :data:`SEVERAL` when two or more are
    picked, None when the text holds no such verdicts (three rows or more, each for another option), picks none, or
    marks every row alike ("| A | 4.76 | yes |" ... "| D | 6.35 | yes |" under a "Considered" column: the writer's
    own answer line decides)."""
    rows: dict[str, bool | str | None] = {}
    for found in reversed(_passes(text, letters)):  # the last pass of verdicts that marks any option
        rows = {letter: _row_mark(text[row.start():row.start() + (row.group(0).find(row.group("letter")))] + " "
                                  + text[row.end():_line_end(text, row.end())]) for letter, row in found.items()}
        if any(mark is not None for mark in rows.values()):
            break
    if MARKED_TWICE in rows.values():
        return None
    picked = [letter for letter, mark in rows.items() if mark is True]
    if len(picked) == len(rows) and not _TICK.search(text):
        return None  # every row's cell "yes" sets no option apart: a column of what was considered, not a pick (holdout126)
    if len(picked) > 1:
        return SEVERAL
    return picked[0] if picked else None


# an answer heading with nothing after it, then a list that gives a letter per label ("Answer:\n- First-line: **A**\n-
# Definitive: **C**"): one letter for each reading of the question, none for the question (holdout44)
_LABELLED_LETTERS = re.compile(r"^[ \t]*(?:\*\*)?(?:final[ \t]+)?answer[ \t]*(?:\*\*)?[ \t]*:?[ \t]*(?:\*\*)?[ \t]*\n"
                               r"(?P<items>(?:[ \t]*[-*+][ \t]+[^:\n]{1,40}:[ \t]*(?:\*\*)?\(?[A-Za-z]\)?(?:\*\*)?[ \t]*[.,;]?[ \t]*\n?){2,})",
                               re.IGNORECASE | re.MULTILINE)
_ITEM_LETTER = re.compile(r":[ \t]*(?:\*\*)?\(?([A-Za-z])\)?(?:\*\*)?[ \t]*[.,;]?[ \t]*$", re.MULTILINE)


def letters_per_label(text: str, letters: str) -> bool:
    """Does an answer heading give two or more different letters, one per labelled reading of the question?"""
    for block in _LABELLED_LETTERS.finditer(text):
        found = {letter.upper() for letter in _ITEM_LETTER.findall(block.group("items")) if letter.upper() in letters}
        if len(found) > 1:
            return True
    return False


# a row of a score table: an option letter and one number cell, CSV or markdown ("C,0.5", "| D | 50% |")
_SCORE_ROW = re.compile(r"^[ \t]*\|?[ \t]*\(?(?P<letter>[A-Za-z])\)?[ \t]*[,|;\t][ \t]*(?P<score>\d+(?:\.\d+)?)[ \t]*%?[ \t]*\|?[ \t]*$", re.MULTILINE)


def scored_option(text: str, letters: str) -> str | None:
    """The option a table of one score per option (a probability, a score, a confidence: "option,probability\nC,0.2\n
    D,0.8") gives its highest score, read as a verdict per option (:func:`marked_option`); :data:`SEVERAL` when two or
    more share it -- a tie at the top picks no option, whatever row comes last (holdout59); None when there is no
    such table, or when the words after it name that option and another ("C or D — hard to say.", "C, though D is
    close"): then the writer's words, not the table's top row, are the answer (holdout80)."""
    scores: dict[str, float] = {}
    rows = list(_SCORE_ROW.finditer(text))
    for row in rows:
        letter = row.group("letter").upper()
        if letter not in letters or letter in scores:
            return None  # a letter scored twice: no table of one score per option
        scores[letter] = float(row.group("score"))
    if len(scores) < 2:
        return None
    top = max(scores.values())
    best = [letter for letter, score in scores.items() if score == top]
    if len(best) == 1 and (undecided := _undecided_after(text, rows[-1].end())) is not None and not _PICKS.search(text, undecided.end()):
        return SEVERAL  # "| B | 0.35 | ... Too close to call between the blockers.": the writer reads no winner off its own table (holdout69)
    words = "\n".join(line for line in text[rows[-1].end():].splitlines() if not line.lstrip().startswith("|"))  # (not the table's other rows)
    after = {m.group(1) for m in letter_pattern(letters).finditer(words)}
    if len(best) == 1 and best[0] in after and len(after) > 1:
        return None  # "| C | 45% |\n| D | 40% |\n\nC or D — hard to say.": the words after the table decide (holdout80)
    return best[0] if len(best) == 1 else SEVERAL


# after a table of scores, the writer's words that its top row decides nothing (stop 52, #32): too close to call, a
# toss-up, a dead heat, a coin flip, "can't separate / decide between", "no clear winner" -- unless an answer follows
_SCORES_UNDECIDED = re.compile(
    r"\b(?:too\s+close\s+to\s+call|toss-?\s?up|dead\s+heat|coin\s+(?:flip|toss)|(?:can't|cannot|can\s+not|couldn't|unable\s+to)\s+"
    r"(?:\w+\s+)?(?:call|decide|separate|distinguish|choose|pick)\b|undecided|torn\s+between|no\s+clear\s+(?:winner|favou?rite|leader|pick|choice|answer))",
    re.IGNORECASE)


def _undecided_after(text: str, end: int) -> re.Match | None:
    """The writer's words after a table of scores that read no winner off it (:data:`_SCORES_UNDECIDED`) or decline to
    commit to one (:data:`.speaker_declines.DECLINED`: "The audience likes B, but I'm not locking anything in yet";
    holdout108, an Ask-the-Audience table of another voice's votes), or None.

    >>> _undecided_after("| B | 61% |\\n\\nThe audience likes B, but I'm not locking anything in yet.", 0) is not None
    True
    >>> _undecided_after("| B | 61% |\\n\\nThe audience likes B, and so do I.", 0) is None
    True
    """
    return _SCORES_UNDECIDED.search(text, end) or DECLINED.search(text, end)


_PICKS = re.compile(r"\b(?:answer|go(?:ing)?\s+with|pick|choose|choice|lean(?:ing)?|favou?r|I'd\s+say|select)\b|:\s*\(?[A-Z]\b", re.IGNORECASE)


def record_letter(view: str, letters: str, options: Mapping[str, str], short_letter: Callable, committed_letter: Callable) -> tuple[str | None, str] | None:
    """The letter of a completion that is one clean record or ends on one (:func:`~.records.record_answer`): its answer
    field read as a short letter (``short_letter``), ``(None, "")`` when that field is empty, names another option's
    text, or the prose before the record commits (``committed_letter``, a letter, not an option's text) to another
    option -- a submitted call and the prose are one statement; None when there is no such record or its value is
    no short letter (the text reader decides)."""
    record = record_answer(view)
    letter = short_letter(record.value, letters, options) if record is not None and record.value else None
    if record is None or (letter is None and record.value):
        return None
    if letter is None or record_names_another(view, letter, options):
        return None, ""  # '[example_output] answer = "A" ... [output] answer = ""': the answer field is empty
    said = committed_letter(view[:record.start], letters, options) if record.start else (None, "")
    if said[0] not in (None, letter) and (said[1] != "option_text" or view.startswith("```", record.start)):
        return None, ""  # the prose commits to B, the submitted call to C: two answers (holdout59); a fenced record
        # after prose that names another option's text is two answers too ("... is $-\\cos x$." then {"answer": "B"})
    return letter, "json"


def corrected_in_block(block: str, letter: str, letters: str, options: Mapping[str, str]) -> bool:
    """Does the answer block's own text take back its letter after naming it (``A... wait, no, B.``, ``(A). Actually,
    B``, ``A -- scratch that, C`` inside ``<answer>...</answer>``)? The block is read as the text after any answer is
    (:func:`.commitment.later_disowns`, from the letter's first naming), so the option's own text or a remark after
    the letter leaves it standing (``A. Paris``, ``A) Paris, the capital since 987``); found by the other-reward
    genuine sweep (stop 54), where ``choice_accuracy`` paid A for ``<answer>A... wait, no, B.</answer>``."""
    first = letter_mentions(block, letter, letters)[:1]
    return bool(first) and bool(later_disowns(block, first[0].end(), letter, letters=letters, option_text=options.get(letter, "")))


def letters_listed(text: str, letters: str) -> set[str]:
    """The capital option letters that ``text`` lists one to a line (a line naming exactly one letter, not the article of
    "A patient", not denied): with no letter stated by any tier, a list of two or more makes the option text the
    completion names one item of the list, not a choice. (Moved from :mod:`.choice`, unchanged.)"""
    found = set()
    for line in text.split("\n"):
        named = [m for m in letter_pattern(letters).finditer(line) if m.group(1).isupper()
                 and not (m.group(1) == "A" and re.match(r"\s+[a-z]", line[m.end():m.end() + 3]))]
        if len(named) == 1 and not negated(line, named[0].start(1), named[0].end(1)):
            found.add(named[0].group(1))
    return found
