"""A choice the writer does not make, read by its shape (issue 32, the ``fixhack`` round): the letter found is one of
two picks under two readings, a fallback after the writer calls no option correct, or one of the options of a
question the writer hands back to the reader. Read by :func:`.choice._committed_letter` on the letter it found.

* **Two readings** (:func:`two_readings`): two different letters, each under its own condition, answer first ("E in
  real life, B on the test", "C in left-dominant hearts, B in right-dominant ones"), or each after a label qualified
  by an adverb or a prepositional phrase that shares its head with the other label ("Pathophysiologically best: C;
  statistically best: B", "Clinically best for most patients: E ... Best answer for a board exam: B"), with no answer
  phrase after the second pick. "Correct answer: B. Common wrong answer: A" (no qualifier), "Most likely: B. Least
  likely: A" (the shared word is the label's only -ly word) and one letter under two readings are no two readings.
* **No option correct** (:data:`NO_OPTION_CORRECT`): a clause that calls none of the options correct, before the
  letter ("None of these is strictly correct ..., but the closest is B", "None of the options is correct as stated
  ... If I must choose the closest, C"): the letter is a fallback the writer has just disowned. Not when an option's
  own text is "None of the above", nor for "none of the other options" or "none of these except C".
* **A question handed back** (:data:`ASKED_BACK`): the completion ends on a question that offers two different
  letters ("Do you want the base unit (B) or the derived unit (A)?"): the writer leaves the choice to the reader.
* **Another letter restated** (:func:`restated_as_another`): an answer phrase after the letter whose answer is a
  short noun phrase closed by another letter ("So the answer is the circumflex, B."): a second answer.
* **No pick** (:func:`no_pick`): the writer says no pick is made ("I can't tell you which option it shows", "we're
  submitting without a final pick", "We couldn't agree", "The ensemble is evenly split", "I can't select an answer
  for a real patient"), lists the letter with another as one list ("Commonly cited
  answers include A (Sydney) and E (Canberra)"), offers it and another each under its own bracketed condition ("C
  (kelvin) or B (Celsius)"), answers with a range of options on the letter's line ("Answer: between B and D, most
  likely C"; holdout63), or ends by asking about it ("If you tell me the pivot rule I can
  confirm whether it's D.").
* **Another letter picked in the writer's voice** (:func:`own_pick_of_another`): after the letter, "I would lean
  toward C", "I'd go with C", "I'd pick C" names another letter as the writer's own pick: a second answer (an
  answer attributed to a source, then the writer's own different one).

Reconstructed rules (ours): bounded patterns over the view, linear time.
"""

from __future__ import annotations

from collections.abc import Mapping

from polyreward.verifiers.hypothetical import hypothetical
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_CONDITION = r"(?:in|on|for|under|with|if|when|at|during|among|per)"
# a letter, then its own condition, then (after a comma, a semicolon or "and" / "but" / "while") another letter with its own
_ANSWER_FIRST_CASES = re.compile(
    r"(?<![A-Za-z'\\])[(\[]?(?P<one>[A-Z])[)\]]?\**[^\S\n]+" + _CONDITION + r"[^\S\n]+[^,;.!?\n]{1,60}[,;][^\S\n]*"
    r"(?:(?:and|but|while|whereas)[^\S\n]+)?\**[(\[]?(?P<two>[A-Z])[)\]]?\**[^\S\n]+" + _CONDITION + r"\b")
# a labelled pick: a label of one to eight words opening a line or a sentence, a colon, the letter
_LABELLED_PICK = re.compile(r"(?:^|(?<=[.;!?])[^\S\n]+)[^\S\n]*(?:[-*][^\S\n]+)?\**(?P<label>[^\W\d_][^:\n.;!?]{0,80}?)\**[^\S\n]*:\**[^\S\n]*"
                            r"\**[(\[]?(?P<letter>[A-Z])[)\]]?\**(?![A-Za-z\d'])", re.MULTILINE)
_PREPOSITIONS = frozenset({"in", "for", "on", "under", "from", "per", "by", "according", "at", "with", "among", "during"})
_LY_NOT_ADVERBS = frozenset({"likely", "unlikely", "only", "early", "family", "apply", "supply", "reply", "rely", "fly", "ally", "daily",
                             "july", "italy", "assembly", "anomaly", "holy", "ugly", "silly", "friendly"})
_PLAIN = frozenset({"the", "a", "an", "of", "to", "and", "is", "my", "our", "answer", "option", "choice", "pick"})
_FINAL_AFTER = re.compile(r"\b(?:answer|final|overall|pick|choose|go(?:ing)?\s+with|commit)\b", re.IGNORECASE)


def _words(label: str) -> list[str]:
    return re.findall(r"[a-z]+", label.lower())


def _qualifier(words: list[str], shared: set[str]) -> bool:
    """Does a label qualify its head: an adverb in -ly ("clinically") or a preposition ("for a board exam") that is
    not the word it shares with the other label?"""
    return any(word not in shared and (word in _PREPOSITIONS or len(word) >= 6 and word.endswith("ly") and word not in _LY_NOT_ADVERBS)
               for word in words)


def two_readings(view: str, letter: str, letters: str) -> bool:
    """Is ``letter`` one of two different letters picked under two readings, with no answer phrase after the second
    (module docstring)?"""
    for found in _ANSWER_FIRST_CASES.finditer(view):
        picks = {found.group("one"), found.group("two")}
        if len(picks) == 2 and picks <= set(letters) and letter in picks:
            return True
    labelled = [(set(_words(found.group("label"))), found.group("letter"), found.end()) for found in _LABELLED_PICK.finditer(view)
                if found.group("letter") in letters]
    for number, (words, one, _) in enumerate(labelled):
        for other_words, two, end in labelled[number + 1:]:
            shared = (words & other_words) - _PLAIN
            if one != two and letter in (one, two) and shared and _qualifier(list(words), shared) and _qualifier(list(other_words), shared) \
                    and not _FINAL_AFTER.search(view, end):
                return True
    return False


# none of the options called correct: "None of these is strictly correct", "None of the options is correct as stated";
# not "none of the other options" (no such noun), "none of these except C"
NO_OPTION_CORRECT = re.compile(
    r"\bnone\s+of\s+(?:the\s+|these\s+)?(?:options|choices|answers|answer\s+choices|listed\s+\w+|these|them|above)\b"
    r"(?![^\S\n]+(?:except|besides|apart\s+from|but|other\s+than|save)\b)[^.;!?\n]{0,40}?\b(?:is|are)\s+(?:\w+\s+){0,2}?"
    r"(?:correct|right|true|accurate|valid)\b", re.IGNORECASE)


def no_option_correct_before(view: str, at: int, options: Mapping[str, str]) -> bool:
    """Does a clause before ``at`` call none of the options correct (:data:`NO_OPTION_CORRECT`), the options holding
    no "None of the above" of their own?"""
    if any("none" in text.lower() for text in options.values()):
        return False
    return NO_OPTION_CORRECT.search(view, 0, at) is not None


# the completion ends on a question that offers two letters: "Do you want the base unit (B) or the derived unit (A)?"
ASKED_BACK = re.compile(r"(?:^|[.!?:\n])(?P<question>[^.!?\n]*\bor\b[^.!?\n]*)\?[\s*)\"'”]*\Z")


def asked_back(view: str, letters: str) -> bool:
    """Does ``view`` end on a question with "or" that names two different option letters (:data:`ASKED_BACK`)?"""
    found = ASKED_BACK.search(view[-400:])
    if found is None:
        return False
    named = {m.group(1) for m in re.finditer(r"(?<![A-Za-z'\\])[(\[]?([A-Z])[)\]]?(?![A-Za-z'\d])", found.group("question"))}
    return len(named & set(letters)) >= 2


# an answer phrase after the letter whose answer is a short noun phrase and a letter that closes it ("So the answer is
# the circumflex, B.", "the right choice would be respiration: A")
_RESTATED = re.compile(r"\b(?:answer|choice|option)\s+(?:is|would\s+be|must\s+be|=)\s+[^.;!?\n]{1,40}?[,:—–]\s*\**[(\[]?(?P<letter>[A-Z])[)\]]?\**"
                       r"\s*(?:[.!)]\s*)?(?:\n|\Z)", re.IGNORECASE)


def restated_as_another(view: str, letter: str, letters: str, at: int) -> bool:
    """Does an answer phrase after ``at`` end on another letter after a short noun phrase (:data:`_RESTATED`): the
    writer states another option after the letter ("Answer: E — the right coronary. ... So the answer is the
    circumflex, B.")?"""
    return any(found.group("letter") in letters and found.group("letter") != letter
               and not _NOT_THE_ANSWER.search(view, max(0, found.start() - 30), found.start()) for found in _RESTATED.finditer(view, at))


# an answer phrase that names a wrong or tempting answer: "The wrong answer is the circumflex, B."
_NOT_THE_ANSWER = re.compile(r"\b(?:wrong|incorrect|tempting|common|trap|distractor|not|isn't|other)\W*(?:\w+\W+)?\Z", re.IGNORECASE)


# the writer says no pick is made: "I can't tell you which option it shows", "we're submitting without a final pick",
# "We couldn't agree", "no single answer", "I'll need the original wording before committing", "I can't select an answer"
_NO_PICK = re.compile(
    r"\b(?:can't|cannot|can\s+not|couldn't|could\s+not|unable\s+to)\s+(?:\w+\s+){0,2}?(?:tell|say|know|determine|decide|confirm)\s+"
    r"(?:\w+\s+)?(?:which|what)\b|\bwithout\s+(?:a\s+)?(?:(?:final|single|definitive)\s+(?:pick|choice|answer|decision)|picking|choosing)\b|"
    r"\b(?:we|they)\s+(?:couldn't|could\s+not|can't|cannot|didn't|did\s+not)\s+agree\b(?!\s+more)|\bno\s+(?:final|single)\s+(?:pick|choice|answer)\b|"
    # (red team holdout_r58) a panel, vote or ensemble left split now: "The ensemble is evenly split between Graves
    # disease and toxic goitre", "the vote remains tied" (not "was split", a past settled since, nor "split 3-2 in favour
    # of C"; nor what is no vote: "Opinions in the literature are divided on timing")
    r"\b(?:panel|vote|votes|voting|committee|team|ensemble|board|jury|samples|agents|experts|models|readers|raters|reviewers|group)\b"
    r"[^.;!?\n]{0,30}?\b(?:is|are|remains?|stays?)\s+(?:(?:still|evenly|equally|exactly)\s+)?(?:split|divided|tied|hung|deadlocked)\b"
    r"(?![^.;!?\n]{0,40}\b(?:in\s+favou?r|favou?ring|majority|leaning|towards?)\b)|"
    # a commitment still to come: "I'll need the original wording before committing", "Let me rerun it with the loop
    # fixed before answering", "I'll double-check this by hand before I give a final answer" (holdout118)
    r"(?:\b(?:I|we)(?:'d|'ll|\s+would|\s+will)?\s+(?:need|want|have\s+to)|\blet\s+me|\bI(?:'ll|\s+will))\b[^.;!?\n]{0,60}\bbefore\s+"
    r"(?:committing|I\s+commit|deciding|choosing|picking|answering|I\s+answer|finaliz\w+|"
    r"(?:giving|I\s+(?:can\s+)?give|submitting|I\s+submit)\s+(?:(?:a|an|my|the|any)\s+)?(?:final\s+)?(?:answer|pick|choice|letter))\b|"
    # the writer declines to choose: "I can't select an answer for a real patient", "I won't pick an option here"
    # (a verb of choosing whose object is an answer / option / letter; not "with certainty": a doubt, not a refusal,
    # nor "an answer other than B": the letter kept)
    r"\b(?:I|we)(?:'m|'re|\s+am|\s+are)?\s+(?:can't|cannot|can\s+not|won't|will\s+not|(?:not|un)able\s+to|not\s+(?:going|allowed)\s+to)\s+"
    r"(?:\w+\s+)?(?:select|choose|pick|give|provide|offer|endorse|commit\s+to|recommend)\s+(?:you\s+)?(?:an?|one|any|a\s+(?:single|final))\s+"
    r"(?:answer|option|letter|choice)\b(?!\s+(?:other\s+than|besides|except|but)\b)"
    r"(?![^.;!?\n]{0,30}\b(?:certainty|certain|confidence|confident|sure)\b)",
    re.IGNORECASE)
# two letters joined as one list: "A (Sydney) and E (Canberra)", "B, or D", and two letters each under its own bracketed
# condition offered as alternatives: "C (kelvin) or B (Celsius)" (holdout63)
_GLOSSED_LETTER = r"\**[(\[]?(?P<{name}>[A-Z])[)\]]?\**(?:[^\S\n]*\([^()\n]{{1,40}}\))?"
# (no comma before "and", and no verb of one subject after: "The answer is B, and D is a distractor" states B)
_JOINED = re.compile(r"(?<![A-Za-z'\\])" + _GLOSSED_LETTER.format(name="one") + r"[^\S\n]+(?:and|&|or)[^\S\n]+"
                     + _GLOSSED_LETTER.format(name="two") + r"(?![A-Za-z'\d])(?![^\S\n]+(?:is|was|has|does|would|can|could|may|might|will|"
                     r"seems|looks|fits|causes|gives|remains)\b)")
# a range of options as the answer: "Answer: between B and D, most likely C", "the answer is anywhere from B to D" --
# an answer phrase, then two letters as the bounds of a range (holdout63); a pick after it in the line is one of them
_RANGE_ANSWER = re.compile(r"\b(?:answer|pick|choice)\**[^\S\n]*(?:is|:)\**[^\S\n]*(?:(?:somewhere|anywhere|roughly|probably)[^\S\n]+)?"
                           r"(?:between[^\S\n]+" + _GLOSSED_LETTER.format(name="one") + r"[^\S\n]+and[^\S\n]+" + _GLOSSED_LETTER.format(name="two")
                           + r"|from[^\S\n]+" + _GLOSSED_LETTER.format(name="low") + r"[^\S\n]+(?:to|through)[^\S\n]+"
                           + _GLOSSED_LETTER.format(name="high") + r")(?![A-Za-z'\d])", re.IGNORECASE)
# the letter asked about, not stated: "I can confirm whether it's D", "the question is whether D applies"
_WHETHER = re.compile(r"\bwhether\s+(?:(?:it|this|that)(?:'s|\s+is)\s+|the\s+answer\s+is\s+|(?:option|choice)\s+)?\**[(\[]?(?P<letter>[A-Z])[)\]]?\**"
                      r"(?![A-Za-z'\d])[^,\n]{0,40}?[.?!]?\s*\Z")


def no_pick(view: str, letter: str, letters: str, at: int) -> bool:
    """Does the writer say, after the letter, that no pick is made (:data:`_NO_PICK`), join the letter with another in one list ("A (Sydney) and
    E (Canberra)"), or only ask about the letter at the end ("If you tell me the rule I can confirm whether it's D.")?"""
    if _NO_PICK.search(view, at) is not None:  # (after the letter: "At first I couldn't tell which ..., but C" chooses)
        return True
    line_start = view.rfind("\n", 0, at) + 1
    for found in _RANGE_ANSWER.finditer(view, line_start):
        bounds = {found.group("one") or found.group("low"), found.group("two") or found.group("high")}
        if len(bounds) == 2 and bounds <= set(letters) and all(bound.isupper() for bound in bounds):
            return True  # "Answer: between B and D, most likely C": a range of options, no pick
    if any(letter in (found.group("one"), found.group("two")) and found.group("one") != found.group("two")
           and {found.group("one"), found.group("two")} <= set(letters) and at <= found.end() for found in _JOINED.finditer(view)):
        return True
    whether = _WHETHER.search(view)
    return whether is not None and whether.group("letter") == letter


# the writer's own pick in the first person: "I would lean toward C", "I'd go with C", "I'd pick C", "we favour C"
# (not "I wouldn't pick C", "I would never choose C": a denial)
_OWN_PICK = re.compile(
    r"\b(?:I|we)(?:'d|'ll|\s+would|\s+will|\s+still)?\s+(?!(?:not|never|no)\b)(?:(?:personally|probably|rather|actually|instead|myself)\s+)?"
    r"(?:lean(?:ing)?\s+(?:toward|towards|to)|go(?:ing)?\s+with|pick|choose|opt\s+for|favou?r|select|put\s+my\s+money\s+on)\s+"
    r"(?:(?:option|choice|answer)\s+)?\**[(\[]?(?P<letter>[A-Z])[)\]]?\**(?![A-Za-z'\d])", re.IGNORECASE)


def own_pick_of_another(view: str, letter: str, letters: str, at: int) -> bool:
    """Does the writer, after the letter's last mention at ``at``, pick another letter in their own voice
    (:data:`_OWN_PICK`: "According to First Aid, the answer is E. In my experience, though, I would lean toward C")?
    An answer attributed to a source and the writer's own different pick are two answers; a pick under a hypothesis
    the writer says is not the problem's ("If it asked for the adult dose instead, I'd pick C") is not read."""
    return any(found.group("letter").isupper() and found.group("letter") != letter and found.group("letter") in letters
               and not hypothetical(view, found.start("letter"), found.end("letter")) for found in _OWN_PICK.finditer(view, at))


# a letter and its own option's text as written, joined by "or" / "and" to another letter (holdout98: "So the answer is
# (B) Rs. 600 or (A) Rs. 576, depending on convention."): the texts are each letter's gloss, the two letters one list
_LETTER_MENTION = re.compile(r"(?<![A-Za-z'\\])\**[(\[]?([A-Z])[)\]]?\**(?![A-Za-z'\d])")
_JOIN = re.compile(r"[^\S\n]*(?:[,—–][^\S\n]*(?=or\b))?(?:and|&|or)(?:[^\S\n]+(?:possibly|maybe|perhaps|else|alternatively))?[^\S\n]+"
                   r"(?:(?:option|choice)[^\S\n]+)?")
_VERB_AFTER = re.compile(r"[^\S\n]+(?:is|was|has|does|would|can|could|may|might|will|seems|looks|fits|causes|gives|remains)\b")


def _own_text_after(view: str, at: int, letter: str, options: Mapping[str, str]) -> int:
    """Where ``letter``'s own option text, written right after ``at`` (spaces and a colon or dash between), ends; ``at``
    when it is not there. An option that holds one number may be written as that number alone ("(B) 600" for
    "Rs. 600", "C) 240" for "240 m")."""
    text = options.get(letter) or ""
    numbers = _NUMBER.findall(text)
    for written in [text.split()] + ([[numbers[0]]] if len(numbers) == 1 else []):
        if not written:
            continue
        own = re.compile(r"(?:[^\S\n]*[:\-–—])?[^\S\n]*" + r"[^\S\n]+".join(re.escape(word) for word in written) + r"(?![\w.])", re.IGNORECASE)
        found = own.match(view, at)
        if found:
            return found.end()
    return at


_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)*%?")


def joined_with_own_texts(view: str, letter: str, letters: str, options: Mapping[str, str], at: int) -> bool:
    """Is the letter's last mention (at ``at``) one of two letters joined by "or" / "and" where either carries its own
    option text in between ("(B) Rs. 600 or (A) Rs. 576", "B) Lyon or C")? A letter with its text and a verb after the
    other ("(B) Rs. 600, and A is a distractor") is no list, nor is a list that ends before the last mention."""
    line_start = view.rfind("\n", 0, at) + 1
    for one in _LETTER_MENTION.finditer(view, line_start, min(len(view), at + 400)):
        first = one.group(1)
        if first not in letters or first not in options:
            continue
        glossed = _own_text_after(view, one.end(), first, options)
        join = _JOIN.match(view, glossed)
        two = _LETTER_MENTION.match(view, join.end()) if join else None
        if two is None or two.group(1) == first or two.group(1) not in letters or letter not in (first, two.group(1)) or two.end() < at:
            continue  # (a list before the letter's last mention is weighed, not offered: "Comparing (A) ... and (B) ..., the answer is (B)")
        second_glossed = _own_text_after(view, two.end(), two.group(1), options)
        if (glossed > one.end() or second_glossed > two.end()) and not _VERB_AFTER.match(view, second_glossed):
            return True
    return False


def undecided(view: str, letter: str, letters: str, options: Mapping[str, str], at: int) -> bool:
    """Is ``letter``, last mentioned at ``at``, a choice the writer does not make (module docstring)?"""
    return (two_readings(view, letter, letters) or no_option_correct_before(view, at, options) or asked_back(view, letters)
            or restated_as_another(view, letter, letters, at) or no_pick(view, letter, letters, at)
            or own_pick_of_another(view, letter, letters, at) or joined_with_own_texts(view, letter, letters, options, at))
