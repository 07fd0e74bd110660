"""The forms an answer takes on its line and in a record, read by :mod:`.answer_extraction` (moved out of it,
stop 48): a JSON record that holds no answer or withdraws it, a heading or label that opens the explanation of an answer
given before it, a bracket after the value that gives another quantity its value, an affirming adverb after an answer phrase,
a word that goes on a number rather than counting things, a label inside a bold value, and where ``=`` stands outside
every bracket; the value a JSON answer key holds. Patterns and small scans; reconstructed rules (ours), each bounded.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.units import OPENS_WITH_UNIT



# an explanation that opens on a line after the answer, as a heading of its own or a label the line goes on after
# ("**Explanation**", "Justification: Perimeter = 30, so ...", "**Why:** ..."): the values in it derive the answer (holdout37)
EXPLANATION_OPENS = re.compile(r"^[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*)?[ \t]*(?:Explanation|Reasoning|Justification|Rationale|Derivation|"
                               r"Work(?:ing)?|Why|Proof|(?P<check>Check|Verification))[ \t]*(?:\*\*)?[ \t]*(?::|$)", re.IGNORECASE | re.MULTILINE)
# a second thought in an explanation: then it is read as any text after the answer is ("Why: ... Actually, 45.")
SECOND_THOUGHT = re.compile(r"\b(?:actually|wait|instead|wrong|mistake\w*|error|incorrect\w*|correct(?:ion|ed)|should\s+(?:be|read)|oops|"
                            r"scratch|typo|meant|rather|revis\w*|retract\w*|hmm+|however|but|mismatch\w*|unresolved|fail\w*|answer\w*|final\w*)\b"
                            r"|n't\b|\bnot\b|[✗❌≠?]|\\boxed", re.IGNORECASE)
# a change of mind anywhere in an explanation, whatever value it ends on
CHANGE_OF_MIND = re.compile(r"\b(?:actually|wait|instead|wrong|mistake\w*|incorrect\w*|correct(?:ion|ed)|should\s+(?:be|read)|oops|scratch|typo|"
                            r"meant|rather|revis\w*|retract\w*|mismatch\w*|unresolved|fail\w*|could\s+be|might\s+be|maybe|perhaps|either|"
                            r"unsure|guess\w*|scrap\w*|or(?=\s*\$?\s*-?\d))\b|not\s+sure|[✗❌≠]|\\neq?\b"
                            # a denied value or a verdict against one: "not 56", "391 is not right", "doesn't match"
                            r"|\bnot\s+\$?-?\d|\bnot\s+(?:right|correct|valid|true)\b"
                            r"|\b(?:is|are|does|do)(?:n't|\s+not)\s+(?:\w+\s+)?(?:right|correct|valid|work|hold|match|agree|equal)\b", re.IGNORECASE)
# an answer stated again: a paragraph that holds one is no part of the explanation before it
_ANSWER_AGAIN = re.compile(r"\banswer\b|\bfinal\b|\\boxed|^#{4}", re.IGNORECASE | re.MULTILINE)
# a number of a text, its sign with it
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def explanation_start(text: str, end: int, same: Callable[[str], bool]) -> int | None:
    """Where an explanation of the answer that ends at ``end`` opens (:data:`EXPLANATION_OPENS`), when it only
    derives or checks that answer; None otherwise ("Explanation: Since 2^5 = 64, log_2 64 = 5." concludes another
    value: holdout25). The explanation may run through several labelled parts ("## Explanation ... ## Check ...");
    none may change its mind (:data:`CHANGE_OF_MIND`), and each either ends on the answer (``same``: "... Area = 9
    x 6 = 54", "Check: ... Is 45 three times 15? Yes. So Sam is 45.") or is a check with no second thought
    (:data:`SECOND_THOUGHT`: "Check: 4(8) - 7 = 25 ... then 2x = 16."); a paragraph after it with a number of its
    own is no part of it."""
    labels = list(EXPLANATION_OPENS.finditer(text, end))
    if not labels or CHANGE_OF_MIND.search(text, labels[0].end()):
        return None
    for number, label in enumerate(labels):
        part = text[label.end():labels[number + 1].start() if number + 1 < len(labels) else len(text)]
        paragraphs = part.strip().split("\n\n")
        if any(_NUMBER.search(paragraph) for paragraph in paragraphs[1:]) and (
                not same_last(paragraphs, same) or any(_ANSWER_AGAIN.search(paragraph) for paragraph in paragraphs[1:])):
            return None  # "Check: ...\n\nThe price of one notebook is what is asked, so: $7.", "... ✓.\n\nAnswer: 12 -- scrap it" (holdout19)
        if not same_last(paragraphs, same) and not (label.group("check") and not SECOND_THOUGHT.search(part) and not affirms_other(part, same)):
            return None
    return labels[0].start()


# a value the text calls right or the answer: "265 is correct", "264 was the right count", "265 is the answer"
_AFFIRMED_VALUE = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])[\s$*)]*(?:is|was|'s|are)\s+(?:(?:the\s+)?(?:right|correct|true)\b|"
                             r"the\s+(?:(?:right|correct|true|real|actual|final)\s+)?(?:answer|result|count|total|value|one)\b)", re.IGNORECASE)


def affirms_other(part: str, same: Callable[[str], bool]) -> bool:
    """Does ``part`` call a value other than the answer (``same``) right or the answer ("Check: 263 + 97 = 360 ✓.
    265 is correct.")? A check that does ends on a second answer, whatever its last number (stop 61)."""
    return any(not same(found.group(1)) for found in _AFFIRMED_VALUE.finditer(part))


def same_last(paragraphs: list[str], same: Callable[[str], bool]) -> bool:
    """Is the last number of these paragraphs the answer (``same``)?"""
    last = None
    for last in _NUMBER.finditer("\n\n".join(paragraphs)):
        pass
    return last is not None and same(last.group())


# a JSON answer key that holds nothing ('"final": null', '"answer": ""'): the writer gives no answer, and a number
# under another key (a draft, a note) is never read in its place
JSON_NO_ANSWER = re.compile(r'"(?:final(?:[ _]answer)?|answer)"\s*:\s*(?:null|""|"none"|"n/a")\s*[,}]', re.IGNORECASE)


# a JSON record that withdraws or disowns its own answer: a flag of withdrawal set ('"retracted": true'), a status
# that names one or calls the answer provisional ('"status": "rejected"', '"status": "draft"'), or a flag of
# confirmation unset ('"verified": false', '"final": false')
WITHDRAWN_WORD = (r"(?:retracted|withdrawn|rejected|discarded|invalid|wrong|incorrect|superseded|outdated|obsolete|deprecated|abandoned|"
                   # the record declines to answer (holdout38: '{"answer": "B", "abstain": true}')
                   r"abstain(?:ed|s)?|abstention|skip(?:ped)?|declined?|refused?|withheld|no_answer|unanswered|unsure|uncertain|not_sure)")
PROVISIONAL_WORD = r"(?:draft|tentative|provisional|unverified|unconfirmed|pending|guess|guessed|placeholder|wip|todo|tbd)"
# a flag that the answer was handed in ("submitted", "submit", "is_submitted"): unset, the record holds a draft (holdout112)
_SUBMITTED = r"(?:is_)?submit(?:ted)?"
_FLAG_UNSET_LINE = r'^[ \t]*(?:verified|confirmed|checked|correct|right|' + _SUBMITTED + r')\??[ \t]*[:=][ \t]*(?:false|no)[ \t.]*$'
JSON_WITHDRAWN = re.compile(r'"' + WITHDRAWN_WORD + r'"\s*:\s*true\b|^[ \t]*' + WITHDRAWN_WORD + r'[ \t]*[:=][ \t]*true\b|"(?:status|state|verdict)"\s*:\s*"(?:' + WITHDRAWN_WORD + "|"
                             + PROVISIONAL_WORD + r')"|'
                             r'"(?:verified|valid|correct|final|confirmed|checked|' + _SUBMITTED + r')"\s*:\s*false\b|'
                             + _FLAG_UNSET_LINE, re.IGNORECASE | re.MULTILINE)
# the same flag unset on a plain record or template line ("submitted = no" in an INI block, "verified: false", a
# filled template's "Correct?: No"; holdout112)
PLAIN_FLAG_UNSET = re.compile(_FLAG_UNSET_LINE, re.IGNORECASE | re.MULTILINE)
# a form's check box about the answer itself, on a line of its own ("[ ] Submit this answer", "- [x] Save as draft")
_FORM_BOX = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?\[(?P<mark>[ xX✓✔])\][ \t]+(?P<label>[^\n]{1,80}?)[ \t]*$", re.MULTILINE)
# the act of handing the answer in, as a box's label opens ("Submit", "Finalise answer", "Confirm", "Lock in")
_HAND_IN = re.compile(r"(?:submit|finali[sz]e|confirm|send|lock\s+in|commit|hand\s+in)\b", re.IGNORECASE)
# a label that keeps the answer back ("Save as draft", "Skip for now", "Come back to it later", "Mark for review")
_KEEP_BACK = re.compile(r"\b(?:" + PROVISIONAL_WORD + r"|skip\w*|later|come\s+back|for\s+review|not\s+(?:yet|now))\b", re.IGNORECASE)


def form_withholds(text: str) -> bool:
    """Does a form's check box keep the answer from being handed in (holdout112): the box that hands it in left empty
    (``[ ] Submit this answer``), or a box that keeps it back ticked (``[x] Save as draft (recheck later)``,
    ``[x] Skip for now``)? A ticked ``[x] Submit`` with an empty ``[ ] Save as draft`` hands it in. A box whose label
    is an option or a value is a ballot (``choice_forms``), not about handing in, and is left alone."""
    if "[" not in text:
        return False
    for box in _FORM_BOX.finditer(text):
        ticked, label = box.group("mark") != " ", box.group("label")
        if not ticked and _HAND_IN.match(label) or ticked and _KEEP_BACK.search(label) and not re.search(r"\d|\b[A-E]\b", label):
            return True
    return False


# one field of a filled answer template: "Answer: 102", "Correct?: Yes", "Confidence: high", "Check: 12 × 8 = 96"
_TEMPLATE_FIELD = re.compile(r"[ \t]*[A-Za-z][A-Za-z' ()/-]{0,30}\??[ \t]*:[ \t]*\S[^\n]*")
# a line of such fields joined by "|" that opens with the answer's field (no table row: those open with "|")
_TEMPLATE_LINE = re.compile(r"^(?=[ \t]*(?:\*\*)?(?:final[ \t]+)?answer\b)[^\n|]*:[^\n]*\|[^\n]*$", re.IGNORECASE | re.MULTILINE)
# a template's yes / no question answered in its field ("Correct?: Yes"): the question is the label's, not the writer's doubt
_ANSWERED_LABEL = re.compile(r"^([ \t]*[A-Za-z][A-Za-z ]{0,30})\?([ \t]*:[ \t]*(?:yes|no|true|false)\b)", re.IGNORECASE | re.MULTILINE)


def template_fields(text: str) -> str:
    """A filled answer template read as its fields, one a line (holdout112): ``Answer: 102 | Correct?: Yes | Check:
    12 × 8 = 96, plus 6 for the half hour`` reads ``Answer: 102`` / ``Correct: Yes`` / ``Check: ...``, so the check
    is a check after the answer and a number in it no second answer, and the label's question answered yes or no is
    no doubt of the writer's (``Correct?: No`` is read as ``Correct: No``, a flag of confirmation unset:
    :data:`PLAIN_FLAG_UNSET`). A line whose parts are not all ``Label: value`` fields is left as written."""
    if "|" in text and ":" in text:
        text = _TEMPLATE_LINE.sub(_fields_as_lines, text)
    if "?" in text:
        text = _ANSWERED_LABEL.sub(r"\1\2", text)
    return text


def _fields_as_lines(line: re.Match) -> str:
    parts = line.group().split("|")
    if not all(_TEMPLATE_FIELD.fullmatch(part) for part in parts):
        return line.group()
    return "\n".join(part.strip() for part in parts)


# a word that makes a record's key a second answer beside the first: "backup_answer", "alternative_answer",
# "fallback", "alt_answer", "second_choice" (holdout57: '{"answer": "B", "backup_answer": "D"}' gives two answers)
SECOND_ANSWER_KEY = r"(?:backup|alternat(?:e|ive)|alt|fallback|second(?:ary)?|plan[ _]?b)"
# every key of a record that names an answer ("answer", "final_answer", "answer_checked", "result_v2",
# "backup_answer") and its value
_ANSWER_FIELD = re.compile(r'"(?:' + SECOND_ANSWER_KEY + r'[ _-]?)?(?:final[ _]?)?(?:answer|result)[\w ]{0,20}"\s*:\s*("(?:[^"\\\n]|\\.){0,80}"|-?[\d.]+)', re.IGNORECASE)
# a record's key for a second answer and its value: '"backup_answer": "D"', '"fallback": "D"', '"alternative": 48'
_SECOND_FIELD = re.compile(r'"' + SECOND_ANSWER_KEY + r'(?:[ _-]?(?:final[ _]?)?(?:answer|result|choice|option|letter|value))?"\s*:\s*'
                           r'(?:"((?:[^"\\\n]|\\.){1,80})"|(-?[\d.]+))', re.IGNORECASE)


def second_answers(text: str) -> list[str]:
    """The values a record holds under a key for a second answer ('{"answer": "B", "backup_answer": "D"}' holds
    "D"; holdout57): an answer with a fallback beside it is two answers, whatever the record asks the grader to do
    with them. Empty values and "none" / "null" are no second answer."""
    if '"' not in text:
        return []
    return [value for field in _SECOND_FIELD.finditer(text)
            if (value := (field.group(1) or field.group(2) or "").strip()) and value.lower() not in ("none", "null", "n/a", "-")]


def answer_fields_disagree(text: str) -> bool:
    """Do the answer fields of a record hold different values ('{"answer": "(2, 3)", "answer_checked": "(-2, 3)"}':
    the record gives two answers; holdout38), or does a key for a second answer beside them hold another value
    (:func:`second_answers`: '{"answer": 56, "alternative": 336, "confidence": 0.5}' keeps 336 open; holdout100)?"""
    if '"' not in text:
        return False
    values = {re.sub(r"\s+", "", field.group(1).strip('"')) for field in _ANSWER_FIELD.finditer(text)}
    if values:
        values |= {re.sub(r"\s+", "", value) for value in second_answers(text)}
    return len(values) > 1


JSON_ANSWER_KEY = re.compile(r'"(?:final[ _]?answer|answer|final|result)"\s*:', re.IGNORECASE)
# a record line that holds the answer, quoted or plain ('"answer": "B"', 'answer = 46', 'selected: C'): a withdrawal
# flag beside it (:data:`JSON_WITHDRAWN`) withdraws that answer (holdout38; plain lines, holdout112)
RECORD_ANSWER_LINE = re.compile(r"""^[ \t{,]*["']?(?:final[ _]?answer|answer|choice|option|selected)["']?[ \t]*[:=]""", re.IGNORECASE | re.MULTILINE)


# an adverb that affirms the value after an answer phrase: "is indeed 12", "is definitely 12", "is clearly $12$",
# "is almost certainly 12" (holdout35: a degree of belief that commits, as "most likely" does)
AFFIRMING_ADVERB = re.compile(r"\A(?:indeed|definitely|clearly|(?:almost\s+)?certainly|(?:almost\s+)?surely|truly|really|simply|exactly|precisely|still)[^\S\n]+(?=[-−+$\\\d(])",
                               re.IGNORECASE)

# a subject pronoun and its copula opening the span after an answer phrase, the value right after them: "Answer: it's
# 102", "Answer: It is 102.", "Answer: That's 102!", a riddle's "Answer: I'm 53!" (holdout123) -- the sentence's frame,
# not part of the value; a word between ("it's not 102", "it's about 100") keeps the frame, so it is read as before
ANSWER_SUBJECT_COPULA = re.compile(r"\A(?:it|that|this|I|we)(?:['’](?:s|m|re)|[^\S\n]+(?:is|am|are|was))[^\S\n]+(?=[-−+$\\\d(])",
                                   re.IGNORECASE)

# a word that goes on a number rather than counting things: "one half", "two thirds", "five squared", "three hundred"
PART_OF_A_NUMBER = re.compile(r"(?:halves|half|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|"
                               r"hundredths?|thousandths?|percent|squared|cubed|dozens?|hundreds?|thousands?|millions?|billions?|"
                               r"factorial|times|plus|minus|over)", re.IGNORECASE)


def top_level_equals(content: str) -> list[int]:
    """Where ``=`` stands outside every brace and bracket of ``content`` ("F_n = \\sum_{k=0}^{n-1} ..." has one)."""
    depth, found = 0, []
    for at, char in enumerate(content):
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        elif char == "=" and depth == 0:
            found.append(at)
    return found

# a label inside a bold value: a word or two and a colon, spaced in French ("Réponse : 36 €", "Total: 12")
LABEL_IN_BOLD = re.compile(r"\s*[^\W\d_][^\W\d_ ]{1,20}(?:\s[^\W\d_]{1,20})?\s?:\s*(\S.*)")


# a JSON value after an "answer" key: '"answer": 64}', '"answer": "\\\\frac{5}{6}"}' -- the value, unescaped, not its braces
JSON_SCALAR = re.compile(r'"((?:[^"\\\n]|\\.){0,200})"(?=\s*[,}\]])|(-?\d+(?:\.\d+)?)(?=\s*[,}\]])')


def json_value(anchor: re.Match, text: str) -> str | None:
    """The value of a JSON answer key ('"answer": 64}'), or None when the anchor is no quoted key."""
    return json_scalar(text[anchor.end():anchor.end() + 300].lstrip()) if re.search(r"answer[\"']", anchor.group(), re.IGNORECASE) else None


def json_scalar(segment: str) -> str | None:
    """The string or number a JSON object gives its answer key, read as JSON reads it, or None when
    ``segment`` does not open with one (a value closed by ``,``, ``}`` or ``]``)."""
    match = JSON_SCALAR.match(segment)
    if match is None:
        return None
    if match.group(2) is not None:
        return match.group(2)
    try:
        return json.loads(f'"{match.group(1)}"')
    except ValueError:
        return None


# a value in words that closes the last line after a copula or an equals sign, the copula contracted too ("so that's two
# hundred ten minutes", "it's negative seven"; not "let's"; holdout125)
STATED_IN_WORDS = re.compile(r"(?:\b(?:is|are|equals|makes|gives)|(?<=[A-Za-z])(?<![Ll]et)['’]s|=)\s+([A-Za-z][A-Za-z\s-]{2,60}?)[\s.!]*\Z", re.IGNORECASE)


# a closing line spoken to the reader ("Hope this helps -- let me know if you'd like ..."): read past at greater length
TO_THE_READER = re.compile(r"\b(?:you|your|you'd|you're|you'll)\b", re.IGNORECASE)

# a closing clause that states a value in words after every digit of its line: "..., gives away 17, leaving twenty-five
# apples.", "... so she has twelve left." (holdout36): a word of result, the number in words, at most two words after it
_CLOSING_WORDS_VALUE = re.compile(r"(?:,|\b(?:so|and|thus|hence))\s+(?:(?:she|he|they|we|it|there)\s+(?:has|have|had|is|are|were)\s+|"
                                  r"(?:leaving|leaves|giving|gives|making|makes|for\s+a\s+total\s+of|a\s+total\s+of|which\s+(?:is|makes|gives))\s+)"
                                  r"(?P<words>[A-Za-z][A-Za-z -]{2,60}?)(?:\s+[A-Za-z]+){0,2}?[\s.!]*\Z", re.IGNORECASE)


_NOT_A_COUNT_AFTER = {"of", "more", "less", "fewer", "than", "another", "or", "and", "to"}


def closing_words_value(line: str, number_from_words: Callable[[str], int | None]) -> str | None:
    """The value a line's closing clause states in words after all its digits (:data:`_CLOSING_WORDS_VALUE`), as the
    words, or None ("one half" and other parts of a number are no count)."""
    found = _CLOSING_WORDS_VALUE.search(line[-160:])
    if found is None or re.search(r"\d", found.group()):
        return None
    words = re.findall(r"[A-Za-z][A-Za-z-]*", line[-160:][found.start("words"):])  # the words and what follows them
    for size in range(len(words), 0, -1):  # the longest run of words that is a number
        run = " ".join(words[:size])
        if number_from_words(run) is not None:
            after = words[size:]  # "one half", "one of the options", "two more than": no count of its own
            return None if after and (PART_OF_A_NUMBER.fullmatch(after[0]) or after[0].lower() in _NOT_A_COUNT_AFTER) or len(after) > 2 else run
    return None


def stated_number_words(phrase: str, number_from_words: Callable[[str], int | None]) -> str | None:
    """The number words of a phrase stated after a copula (:data:`STATED_IN_WORDS`), with at most one noun after them
    ("thirty-two units", "forty-two", not "one half") or a known unit of two words ("negative seven degrees Celsius"), or None: the prose states the value in words (stop 52, #32:
    "Written out: the perimeter is thirty-two units." after a figure of 24 states 32)."""
    if number_from_words(phrase) is not None:
        return phrase
    head, _, noun = phrase.strip().rpartition(" ")
    if head and noun.isalpha() and not PART_OF_A_NUMBER.fullmatch(noun) and number_from_words(head) is not None:
        return head
    head, _, unit = head.rpartition(" ")  # a known unit of two words: "negative seven degrees Celsius", "forty-two years old" (holdout125)
    if head and OPENS_WITH_UNIT.match(f"{unit} {noun}") and noun.isalpha() and number_from_words(head) is not None:
        return head
    return None


# an amount of money in its unit and the unit's hundredths, joined by "and" ("12 dollars and 50 cents", "3 pounds and 5
# pence", "7 euros and 20 cents"; holdout122): one amount, 12.50, not the cents alone
_MONEY_IN_TWO_UNITS = re.compile(r"(?<![\w.])(?P<whole>\d+)[^\S\n]*(?:dollars?|euros?|pounds?|rupees?|bucks?)[^\S\n]+and[^\S\n]+"
                                 r"(?P<hundredths>\d{1,2})[^\S\n]*(?:cents?|pence|paise|p)\b(?![^\S\n]*(?:each|per|a\b|an\b))", re.IGNORECASE)


def money_in_two_units(line: str, at: int) -> str | None:
    """The amount whose hundredths is the number at ``line[at]`` when ``line`` gives it in a currency's unit and its
    hundredths (:data:`_MONEY_IN_TWO_UNITS`), as one decimal ("12 dollars and 50 cents" -> "12.50"), else None; a
    price per item ("... 50 cents each") is none."""
    for found in _MONEY_IN_TWO_UNITS.finditer(line, max(0, at - 60), at + 20):
        if found.start("hundredths") == at:
            return f"{found.group('whole')}.{int(found.group('hundredths')):02d}"
    return None


# a count in words followed by the items it counts ("Four months: April, June, September and November.", holdout90):
# the count, its noun, then a colon or ", namely" / ", i.e." and a list of words joined by commas and "and"
_COUNTED_LIST = re.compile(r"\s*(?P<count>[A-Za-z][A-Za-z -]{2,40}?\s+[A-Za-z]{2,20})\s*(?::|,\s*(?:namely|i\.e\.,?|that\s+is,?))\s*"
                           r"(?P<items>[A-Za-z][A-Za-z' -]{0,40}(?:\s*,\s*[A-Za-z][A-Za-z' -]{0,40}){0,30}?(?:,?\s+(?:and|&)\s+[A-Za-z][A-Za-z' -]{0,40}))"
                           r"[.!]?\s*")


def counted_items_cut(line: str, number_from_words: Callable[[str], int | None]) -> str:
    """``line`` up to its count when it is a count in words whose list of the items counted follows and has as many
    items as the count says ("Four months: April, June, September and November." -> "Four months"); else ``line``.
    The list is what was counted, not a second answer; a list of another length (or with a value, a doubt word) is
    left to the reading of the whole line."""
    found = _COUNTED_LIST.fullmatch(line) if len(line) <= 400 and (":" in line or "," in line) else None  # (bounded)
    if found is None:
        return line
    words = found.group("count").split()
    count = number_from_words(" ".join(words[:-1]))
    items = [item for item in re.split(r"\s*,\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+", found.group("items").strip()) if item.strip()]
    return found.group("count") if count is not None and count == len(items) else line
