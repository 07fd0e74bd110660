"""A chosen letter checked against the question's options (holdout17, holdout20): options the writer lists again under
other letters, a letter written beside another option's text, and a bare concluding letter after a sentence that names
another option by its text. Read by :func:`.choice.extract_letter` when the options are known.

Reconstructed rules (ours). Each check reads a window around the letter or one sentence before it: linear time.
"""

from __future__ import annotations

import functools
import os.path
import unicodedata
from collections.abc import Iterator, Mapping

from polyreward.verifiers.commitment import negated
from polyreward.verifiers.option_letters import letter_mentions, letter_pattern
from polyreward.verifiers.option_whole_text import signed_words
from polyreward.verifiers.language import STOP_WORDS
from polyreward.verifiers.options import options_in_prompt
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.remark_values import states_other_quantities


# a hyphen inside a compound word ("N-acetylcysteine", "low-molecular-weight"): a letter before it and two after it;
# it is no sign ("-cos x", "x-1" keep theirs)
_COMPOUND_HYPHEN = r"(?<=[^\W\d_])-(?=[^\W\d_]{2})"


def _option_key(text: str) -> str:
    return " ".join(re.findall(r"[-−]?[^\W_]+", re.sub(_COMPOUND_HYPHEN, " ", text.lower().replace("−", "-"))))


# what joins an option's text to its letter: "-cos x, which is C", "Saturn (C)", "C: Saturn", "C (Saturn)", "C = Saturn"
_JOIN_BEFORE = r"[^\w\s-]{0,2}(?:,?[^\S\n]*(?:which|that)[^\S\n]+(?:is|was|corresponds[^\S\n]+to|matches)[^\S\n]+|[^\S\n]*,[^\S\n]*(?=(?:option|choice)[^\S\n])|[^\S\n]+(?:is|=)[^\S\n]+|[^\S\n]*[(:=][^\S\n]*|[^\S\n]*[—–][^\S\n]*)(?:option[^\S\n]+|choice[^\S\n]+)?[(\[]?\Z"
_JOIN_AFTER = r"\A[)\]]?[}$*]{0,3}(?:[^\S\n]*[:=—–(][^\S\n]*(?:(?:i\.e\.|that\s+is|approx(?:imately|\.)?|about|≈)[,\s]*)?|[^\S\n]*,[^\S\n]+|[^\S\n]+(?:is[^\S\n]+|=[^\S\n]+)?|[^\S\n]*-[^\S\n]+)(?:(?:the|an?|el|la|los|las|les?|une?|una|uno|il|lo|gli|der|die|das|den|dem|ein|eine|os?|as|uma?)[^\S\n]+|l['’])?"


def _text_pattern(key: str) -> str:
    """An option's words ``key`` (:func:`_option_key`) as written in a text: whole words with their signs, any
    punctuation or space between them."""
    joiner = r"(?:[^\w-]+|" + _COMPOUND_HYPHEN + ")"  # "n-acetylcysteine" names "N-acetylcysteine"
    # not the "s" of "Sodium's", nor a number inside a longer one: "0.20" does not name "20" (holdout77)
    return r"(?<![\w'’-])(?<!\d[.,])" + joiner.join(re.escape(word) for word in key.split()) + r"(?![\w-])(?![.,]\d)"


def _beside(key: str, before: str, after: str) -> bool:
    """Is the option text with words ``key`` written right beside a letter (``before`` and ``after`` it, lowercased)?"""
    if not key:
        return False
    text = _text_pattern(key)
    joined = re.search(text + _JOIN_BEFORE, before.replace("−", "-"))
    if joined is not None and _DENIED_TEXT.search(before, 0, joined.start()) is None:
        return True  # ("Not Rubella, option C": the text is denied, the letter does not label it)
    return re.match(_JOIN_AFTER + text, after.replace("−", "-")) is not None


_DENIED_TEXT = re.compile(r"\b(?:not|never|nor|isn't|wasn't)[^\S\n]+(?:the[^\S\n]+)?\Z")


# "A" before a lowercase word is the article ("A compromise was ..."), not option A
_ARTICLE_A = re.compile(r"A[^\S\n]+[a-z]")


def letter_with_its_text(view: str, letters: str, options: Mapping[str, str]) -> tuple[str, int, int, int] | None:
    """(letter, where its bracketed mention ends, where its option's text starts and ends) for the one option letter
    ``view`` names, in brackets right beside its own option's text ("Canberra (B)", "(B) Canberra"), when it names no
    other letter (holdout53): the pick states itself twice. :mod:`.choice` reads what follows it as it reads what
    follows an answer phrase, so other options' texts in an explanation ("Although Sydney is the largest city, ...")
    are no picks while a correction or a hedge to one still is."""
    mentions = [m for m in letter_pattern(letters).finditer(view) if not _ARTICLE_A.match(view, m.start())]
    if len({m.group(1) for m in mentions}) != 1:
        return None
    letter = mentions[0].group(1)
    key = _option_key(options.get(letter, ""))
    if not key:
        return None
    lowered = view.lower()
    for mention in mentions:
        if not (mention.group().startswith(("(", "[")) and mention.group().endswith((")", "]"))):
            continue
        if re.match(r"[^.!?\n]*\?", view[mention.end():]):  # a naming that asks is no pick: "Shall I explain why the photon (C) ...?"
            continue
        before = re.search(_text_pattern(key) + r"[^\S\n]*\Z", lowered[max(0, mention.start() - 120):mention.start()])
        if before is not None:
            return letter, mention.end(), max(0, mention.start() - 120) + before.start(), max(0, mention.start() - 120) + before.end()
        after = re.match(r"[^\S\n]*(" + _text_pattern(key) + ")", lowered[mention.end():])
        if after is not None:
            return letter, mention.end() + after.end(), mention.end() + after.start(1), mention.end() + after.end(1)
    return None


# a negation or doubt word inside an option's own text ("Not hearsay, as an opposing party's statement", "None of the
# above", "No change in quantity traded")
_OWN_NEGATION = re.compile(r"\b(?:not|no|none|never|neither|nor|without|unlikely|uncertain|wrong|incorrect|false)\b|n't\b", re.IGNORECASE)


def without_own_negative_texts(text: str, letters: str, options: Mapping[str, str]) -> str:
    """``text`` with the text of an option that holds a word of negation or doubt left out where it follows its own
    letter ("C. Not hearsay, as an opposing party's statement" reads "C."): the option's label is the answer itself, not
    a later clause that denies or doubts it. Only the option's exact text, right after its own letter and a join, is
    left out, so it can never supply or take away another option. Where that letter is the only one the text names
    (outside a ``<think>`` block), the option's negation and the word after it are its words too wherever they stand
    ("It is not hearsay." restates C, it does not deny it)."""
    named = None  # the letters the text names outside <think>, read only when an option holds a negation
    for letter, option in (options or {}).items():
        if letter not in letters or not (negation := _OWN_NEGATION.search(option)) or len(option.strip()) < 3:
            continue
        if named is None:
            shown = _THINK.sub("", text)
            named = {m.group(1) for m in letter_pattern(letters).finditer(shown) if not _ARTICLE_A.match(shown, m.start())}
        own = r"(?i:" + r"[^\S\n]*".join(re.escape(word) for word in option.split()) + ")"
        text = re.sub(r"(?<![\w-])(\(?" + letter + r"\)?(?:\*\*)?[^\S\n]*(?:[.:)—–-]|--)?[^\S\n]*)" + own, r"\1", text)
        phrase = re.match(r"\w+(?:[^\S\n]+\w{3,})?", option[negation.start():])
        if named == {letter} and phrase is not None and " " in phrase.group():
            text = re.sub(r"(?<![\w-])(?i:" + r"[^\S\n]+".join(map(re.escape, phrase.group().split())) + r")(?![\w-])", "", text)
    return text


_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)


def against_the_options(view: str, result: tuple[str, str], letters: str, options: Mapping[str, str],
                        written: str = "", spelled_out: str = "") -> tuple[str | None, str]:
    """The letter read, checked against the question's options (holdout17):

    * options the writer lists again under other letters ("Sorted alphabetically: (A) Brisbane (B) Canberra ...
      Answer: D"): the letter is of the writer's list, and names the prompt's option with that text;
    * the letter is written beside another option's text and not its own ("The derivative is -cos x, which is C"
      where -cos x is B, "C (Jupiter)"): the text and the letter disagree, and neither is the answer.
    Option texts are compared as words with their signs ("-cos x" is not "cos x"). ``written`` is the text before an
    option's own negative text was left out (:func:`without_own_negative_texts`): the letter's own option is looked
    for there too, so "... so $|x| = -3$ has no solution. The answer is E." (E: no solution) names its own option, and
    so is ``spelled_out``, the view with its short forms written out ("4-factor PCC" for "Four-factor prothrombin complex
    concentrate": :func:`.option_statement.spelled`; holdout76)."""
    letter, how = result
    by_text = {_option_key(text): key for key, text in options.items() if _option_key(text)}
    listed = options_in_prompt(view, letters)
    if len(listed) >= 2 and letter in listed and all(_option_key(text) in by_text for text in listed.values()):
        meant = by_text[_option_key(listed[letter])]
        if any(by_text[_option_key(text)] != key for key, text in listed.items()):
            return meant, how + "+relettered"
    mentions = letter_mentions(view, letter, letters)
    if not mentions:
        return result
    mention = mentions[-1]
    before, after = view[max(0, mention.start(1) - 80):mention.start(1)].lower(), view[mention.end(1):mention.end(1) + 80].lower()
    beside = {key for key, text in options.items() if _beside(_option_key(text), before, after)}
    if not beside:  # the same text in another language: "Antwort: C – Nervus ulnaris." with B) Ulnar nerve (holdout41)
        phrase = re.match(_JOIN_AFTER + r"([^\n.;!?()]{1,60})", after)
        beside = {found for _, _, found in cognate_mentions(phrase.group(1), options)} if phrase and len(phrase.group(1).split()) <= 4 else set()
    if beside and letter not in beside:
        return None, ""  # the letter labels another option's text: "-cos x, which is C", "C (Jupiter)", "B, un macrolide"
    if _titled_as_another_option(view[mention.end(1):], letter, options):
        return None, ""  # "**Answer: C. Thalassemia trait**", "D. Ulnar nerve — it is ...": a title of another option
    if titled_as_no_option(view[mention.end(1):], options):
        return None, ""  # "E. Hypothalamus — it controls the pituitary" where E is Pituitary: a title of no option
    if _glossed_as_another_option(view, mention.end(1), letter, options):
        return None, ""  # "\\boxed{D} (linear time, O(n))", "B (it blocks the P2Y12 receptor, like clopidogrel)"
    if _own_option_named((view, written, spelled_out), letter, options):
        return result  # (the checks below read a letter whose own option the completion never names)
    if _concludes_from_another_option(view, mention, letter, options) or _explained_as_another_option(view, mention, letter, options):
        return None, ""
    return result


# the title after "C. ": a word, up to the end of the line or a separator that ends a title ("D. Ulnar nerve — it is
# ...", "C. Golgi apparatus**", "E. Iron, which has 26 protons"); "D. (O positive, C, is often used ...)" is an aside
_WHOLE_LINE = re.compile(r"\.[^\S\n]+([^\n]{1,80}?)[\s*.]*(?:\n|\Z)")  # "**Answer: A. (1, 3)**": the whole rest of the line
_TITLE = re.compile(r"\.[^\S\n]+(?=[*_]*[^\W_])([^\n]{1,80}?)(?:[^\S\n]*(?:[—–:;(,]|[^\S\n]-[^\S\n])|[\s*.]*(?:\n|\Z))")


def _titled_as_another_option(after: str, letter: str, options: Mapping[str, str]) -> bool:
    """Is the letter followed by ``. `` and a title that is another option's whole text, not the start of its own
    ("**Answer: C. Thalassemia trait**", "Final answer: D. Ulnar nerve — it is the nerve most often injured", Ulnar
    nerve being C; holdout33, holdout35)? The title ends at the end of the line or at a dash, colon, semicolon,
    parenthesis or comma, so a sentence that goes on ("D. Ulnar nerve injury would give a claw hand") is none. Not
    when the title is also the letter's own text ("A. (-1, 3)" where B is "[-1, 3]", same words: holdout42) or opens
    it ("A. 1, 2" where B is "1"), nor when its sentence names a letter ("C. Oxygen (A) is what plants release.")."""
    own = _option_key(options.get(letter, ""))
    for title in (_WHOLE_LINE.match(after), _TITLE.match(after)):
        key = _option_key(title.group(1)) if title is not None else ""
        if key and letter_pattern(_letters_of(options)).search(after[title.end(1):].split("\n", 1)[0].split(". ", 1)[0]):
            continue  # "The answer is C. Oxygen (A) is what plants release.": the sentence names the text's own letter
        if key and own != key and not own.startswith(key + " ") and any(
                other != letter and _option_key(text) == key for other, text in options.items()):
            return True
    return False


_NAME_WORD = re.compile(r"[A-Z][^\W\d_]*|of|the|and|de|la|le")
_NOT_A_NAME = frozenset({"Not", "No", "But", "And", "Or", "So", "Also", "Because", "Since", "This", "That", "It", "The", "Yes", "Both",
                         # a sign-off that closes the answer and names nothing ("The answer is B. Done.", "B. Final.")
                         "Done", "Finished", "Final", "Confirmed", "Certain", "Definitely", "Correct", "Right", "Exactly",
                         "Indeed", "Solved", "End", "Thanks", "Cheers", "Good", "Great", "Okay", "Ok", "Voilà", "Voila",
                         # ... or a label heading a remark about the answer ("The answer is B. Tip: eliminate ...")
                         "Verified", "Checked", "Check", "Tip", "Note", "Hint", "Reason", "Rationale", "Explanation", "Why"})


def titled_as_no_option(after: str, options: Mapping[str, str]) -> bool:
    """Is the letter followed by ``. `` and a title that is a name (one to three words, capitalised) naming no option:
    none of its words shares a stem (its first five letters, or the whole of a shorter word) with a word of any
    option's text, nor is a cognate of one (:func:`cognate_mentions`)? "E. Hypothalamus — it controls the pituitary"
    where E is Pituitary: the label quotes its option and quotes something else, so neither is the answer (holdout62).
    A title that is a clause ("B. RBCs carry oxygen") or holds a digit or sign is left to the other rules."""
    title = _TITLE.match(after)
    if title is None:
        return False
    words = title.group(1).strip(" \"'”“’‘*_").split()
    if not 1 <= len(words) <= 3 or not all(_NAME_WORD.fullmatch(word) and len(word) > 1 for word in words) or words[0] in _NOT_A_NAME:
        return False  # "C. Not B — ...", "B. A and C (...) are markers of ...": a sentence that weighs letters
    stems = {word.lower()[:5] for text in options.values() for word in re.findall(r"[^\W_]+", text)}
    if any(word.lower()[:5] in stems for word in words if word[0].isupper()) or cognate_mentions(title.group(1), options):
        return False
    return True


# a gloss after the letter: a parenthesis right after it, or a dash and the rest of its clause
_GLOSS = re.compile(r"[)\]]?[}$*]{0,3}[^\S\n]*(?:\(([^()\n]{1,120}(?:\([^()\n]{0,20}\)[^()\n]{0,60})*)\)|[—–][^\S\n]*([^\n.;!?]{1,120}))")
# words that set the other option named in a gloss against the letter's ("unlike", "rather than", "vs", "other")
_CONTRAST = re.compile(r"\b(?:not|no|unlike|rather|instead|vs|versus|than|other|others|over|confus\w*|mistak\w*|differ\w*|"
                       r"except|but)\b|n't\b")
_MAX_GLOSS_WORDS = 14


def _glossed_as_another_option(view: str, at: int, letter: str, options: Mapping[str, str]) -> bool:
    """Is the letter glossed, right after it, by words that name another option and not its own: a parenthesis
    ("\\boxed{D} (linear time, O(n))" where O(n) is B, "B (it blocks the P2Y12 receptor, like clopidogrel)" where the
    receptor is C's) or a dash and the rest of its clause? An option is named by its whole text (the longest one where
    two overlap: "O(n)" inside "O(n log n)" names only the latter) or by a word that is a cognate of one option's
    words only (:func:`cognate_mentions`: "receptor", "Nervus ulnaris"). The gloss says what the letter stands for,
    and it stands for another option: neither is the answer (holdout26, holdout29). A gloss that names another letter
    or sets the option against the letter's ("unlike", "not", "rather than", "other") weighs options and is left to
    the other rules; one longer than 14 words is an explanation, not a gloss. Nor is a remark whose values are of
    other quantities (:func:`.remark_values.states_other_quantities`: "Answer: B (the pOH would be 12)" where 12 is C,
    holdout119): it says what another quantity of the problem comes to, not what the letter stands for."""
    gloss = _GLOSS.match(view, at)
    if gloss is None or states_other_quantities(gloss.group(), letter, view[max(0, at - 60):at]):
        return False
    inner = gloss.group(1) if gloss.group(1) is not None else gloss.group(2)
    start = gloss.start(1) if gloss.group(1) is not None else gloss.start(2)
    lowered = inner.lower().replace("−", "-")
    if len(inner.split()) > _MAX_GLOSS_WORDS or _CONTRAST.search(lowered) or any(letter_pattern(_letters_of(options)).finditer(inner)):
        return False
    spans = [(found.start(), found.end(), key) for key, text in options.items()
             for found in option_mentions(lowered, text, view.lower(), start)]
    named = {key for begin, end, key in spans if not any(b <= begin and end <= e and (e - b) > (end - begin) for b, e, _ in spans)}
    named |= {key for _, _, key in cognate_mentions(inner, options)}
    return bool(named) and letter not in named


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def gloss_names_another(gloss: str, letter: str, options: Mapping[str, str]) -> bool:
    """Does ``gloss``, the words written right after option ``letter``, name another option (red team
    ``holdout_r51``): by that option's whole text, by a word that is a cognate of its words only
    (:func:`cognate_mentions`: "carbonate" of ``Oral calcium carbonate``), or by a number of its text that
    ``letter``'s text does not hold ("0.45" of ``Intravenous 0.45% sodium chloride`` beside ``... 0.9% ...``), or by a
    word of 4 letters or more that begins a word of its text and of none of ``letter``'s ("thyroid" of ``Hashimoto
    thyroiditis`` beside ``Graves disease``)? Words of no option's ("IV normal saline" for ``Intravenous 0.9% sodium chloride``) name none, so the letter keeps its own."""
    lowered = gloss.lower()
    own_numbers = set(_NUMBER.findall(options.get(letter, "")))
    own_words = set(_WORD.findall(options.get(letter, "").lower()))
    for key, text in options.items():
        if key == letter:
            continue
        if next(option_mentions(lowered, text), None) is not None:
            return True
        if set(_NUMBER.findall(gloss)) & (set(_NUMBER.findall(text)) - own_numbers):
            return True
        if any(len(said) >= 4 and theirs.startswith(said) and not any(mine.startswith(said) for mine in own_words)
               for said in _WORD.findall(lowered) for theirs in _WORD.findall(text.lower())):
            return True  # "thyroid", the start of "thyroiditis" (A and C), leans to those options
    return any(key != letter for _, _, key in cognate_mentions(gloss, options))


# a sentence wholly in parentheses: an aside, not the reasoning a letter after it concludes from (holdout61)
_PARENTHESISED = re.compile(r"\s*\([^()]*(?:\([^()]*\)[^()]*)*\)[\s.]*")


def _concludes_from_another_option(view: str, mention: re.Match, letter: str, options: Mapping[str, str]) -> bool:
    """Is the letter a bare conclusion ("So my answer is B.", "Final: C.", "I'd mark B.") of a sentence right before it
    that names one other option by its text, not denied ("The drug of choice ... is amoxicillin."), while the letter's
    own option text appears nowhere (:func:`_own_option_named`, read by the caller)? The reasoning reaches one option and
    the letter names another (holdout20). A sentence wholly in parentheses right before the letter is an aside ("(Confirming
    a diagnosis on a positive result is the role of a highly specific test.)"): the sentence before it is read instead."""
    lowered = view.lower().replace("−", "-")
    start = max(view.rfind(stop, 0, mention.start(1)) for stop in (". ", "!", "?", "\n", "; ")) + 1
    if start <= 0 or len(re.findall(r"[^\W\d_]+", view[start:mention.start(1)])) > 6:
        return False
    head = len(view[:start].rstrip())  # the sentence before, across blank lines ("... Brontë.\n\nAnswer: B")
    previous = max(view.rfind(stop, 0, max(head - 1, 0)) for stop in (". ", "!", "?", "\n")) + 1
    if _PARENTHESISED.fullmatch(view, previous, head):  # "(Confirming a diagnosis is the role of a specific test.)": an
        start, head = previous, len(view[:previous].rstrip())  # aside on another option; the sentence before concludes
        previous = max(view.rfind(stop, 0, max(head - 1, 0)) for stop in (". ", "!", "?", "\n")) + 1
    if any(letter_pattern(_letters_of(options)).finditer(view, previous, start)):
        return False  # a sentence that weighs letters ("Stack is LIFO (not A), ...") is an elimination, not one option's text
    if (colon := view.rfind(": ", previous, start)) >= 0 and not any(
            text.strip() and text.strip().casefold() in view[previous:colon].casefold() for text in options.values()):
        # "Penicillin anaphylaxis: a macrolide.": a label before the colon that holds no option's whole text (penicillin
        # V) is the premise (the patient's history), the words after it the conclusion; "Answer: amoxicillin." still
        # names A, and a label that is an option ("Aristotle: virtue ethics.") names it (red team holdout_r49)
        previous = colon + 2
    if view[previous:start].lstrip().startswith("|") and len(_options_in_rows(view[:start], options)) >= 2:
        return False  # "| Kant | ... |\n| Aristotle | virtue ethics |": the last row of a table of options, no conclusion
    named = {key for key, text in options.items() if any(option_mentions(lowered[previous:start], text, view, previous))
             or _named_in_words_not_denied(view, previous, start, key, options)}  # (in its words too: "exogenous glucocorticoid use")
    named = {key for key in named if not _computed_on_past(view[previous:start], options[key])}
    return len(named) == 1 and letter not in named


_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)*")


def _computed_on_past(sentence: str, option: str) -> bool:
    """Is ``option`` a number that ``sentence`` computes on past: not its last number ("5 × 4 = 20, ... so 0.20." names 20
    as a step, 0.20 as the result; holdout77)? The result of a computation is its last number."""
    if _NUMBER.fullmatch(option.strip()) is None:
        return False
    numbers = _NUMBER.findall(sentence)
    if not numbers:
        return False
    try:  # "0.20" is the number "0.2"; "1,5" is read as "1.5" (a thousands comma compares as written)
        return float(numbers[-1].replace(",", ".")) != float(option.strip().replace(",", "."))
    except ValueError:
        return numbers[-1] != option.strip()


def _own_option_named(texts: tuple[str, ...], letter: str, options: Mapping[str, str]) -> bool:
    """Does any of ``texts`` name ``letter``'s own option, by its text or in its words ("exogenous glucocorticoid use")?
    Then the reasoning reaches the letter's option, and no other option it also names is the conclusion."""
    return any(text and (any(option_mentions(text.lower().replace("−", "-"), options.get(letter, ""))) or named_in_words(text, letter, options))
               for text in texts)


def _options_in_rows(text: str, options: Mapping[str, str]) -> set[str]:
    """The options named, one each, by the markdown table rows of ``text`` (by their text or a distinctive word)."""
    found = set()
    for row in re.finditer(r"(?m)^[^\S\n]*\|[^\n]*", text):
        words = content_words(row.group())
        named = {key for key, own in distinctive_content_words(tuple(sorted(options.items()))).items() if any(has_word(words, word) for word in own)}
        found |= named if len(named) == 1 else set()
    return found


def _explained_as_another_option(view: str, mention: re.Match, letter: str, options: Mapping[str, str]) -> bool:
    """Does the explanation after the letter end on another option ("Answer: C\n\nThe posterior pituitary hormone in
    this list is prolactin.", prolactin being D)? The last sentence names one other option by its text, not denied,
    and no option letter; the letter's own option text appears nowhere. The letter and the conclusion disagree, and
    neither is the answer (holdout23)."""
    after = view[mention.end(1):].rstrip()
    if not after.strip():
        return False
    start = max(after.rfind(stop, 0, len(after) - 1) for stop in (". ", "! ", "? ", "\n")) + 1
    if any(letter_pattern(_letters_of(options)).finditer(after, start)):
        return False  # "..., so not D" weighs letters: another rule reads it
    offset = mention.end(1) + start
    lowered = view.lower().replace("−", "-")
    named = [key for key, text in options.items() if any(option_mentions(lowered[offset:], text, view, offset))]
    if len(named) != 1 or named[0] == letter or _CONCESSION.search(lowered, offset):
        return False  # "Answer is B, though morphine is often given for the pain as well." concedes, states nothing
    last = list(re.finditer(_text_pattern(_option_key(options[named[0]])), lowered[offset:]))[-1]
    return bool(_STATED_AS_ANSWER.search(lowered[offset:offset + last.start()]))


# the other option stated as the conclusion: right after a copula ("... in this list is prolactin.") or after a word
# of conclusion in its sentence ("so losartan is the drug to stop"); a concession states nothing
_STATED_AS_ANSWER = re.compile(r"\b(?:is|are|was|were)\s+(?:the\s+|an?\s+)?\W*\Z|\b(?:so|therefore|thus|hence|which\s+is\s+why)\b")
_CONCESSION = re.compile(r"\b(?:though|although|even|also|too|as\s+well|while|whereas|unlike|except|besides)\b")


def _letters_of(options: Mapping[str, str]) -> str:
    return "".join(sorted(options))


def option_mentions(text: str, option: str, view: str = "", offset: int = 0, *, across_markup: bool = False) -> Iterator[re.Match]:
    """Every place ``text`` names the option text ``option`` and, where ``view`` is given (``text`` being the part of
    it from ``offset``), does not deny it there ("Heparin, not aspirin" names heparin only; "not reunification (1990)"
    names no 1990: a bracket that glosses a denied phrase). Two readings of naming:

    * by default (the checks of this module; ``text`` lowercased): the option's words as :func:`_option_key` gives
      them (letters and digits of any script), signs glued ("-cos x" is not "cos x"), not inside a longer word or a possessive;
    * ``across_markup`` (:mod:`.choice`, an option named by its text alone): its ASCII letters and digits in any
      case, any run of other characters between its words (markup, punctuation: "$-\\cos x$"), a sign before markup read as
      its sign ("$-\\cos x$" names "-cos x", not "cos x") and a number's own minus inside it the option's (``10^{-3}`` names
      "10^-3", not "10^3": :func:`.option_whole_text.signed_words`); an option under 3 letters or over 12 words is never named."""
    if across_markup:
        words = re.findall(r"[a-z0-9]+", option.lower())
        if len("".join(words)) < 3 or len(words) > 12:
            return
        pattern, flags = r"(?<![a-z0-9])(?<!\d[.,])" + _joined(option.lower(), words) + r"(?![a-z0-9])(?![.,]\d)", re.IGNORECASE
        signed = _SIGNED.match(option) is not None  # "-cos x" is not "cos x" (holdout22: "... is $\\cos x$")
    else:
        key = _option_key(option)
        if not key:
            return
        pattern, flags = _text_pattern(key), 0
    for found in re.finditer(pattern, text, flags):
        if view and negated(view, offset + found.start(), offset + found.end()):
            continue
        glossed = _GLOSS_OF.search(view, max(0, offset + found.start() - 80), offset + found.start()) if view else None
        if glossed is not None and any(negated(view, word.start(), offset + found.end()) for word in _WORD.finditer(view, glossed.start(), glossed.end())):
            continue  # "not reunification (1990)": a bracket that glosses a denied phrase is denied with it (holdout81)
        if across_markup and (_SIGN_BEFORE.search(text, max(0, found.start() - 4), found.start()) is not None) != signed:
            continue
        if across_markup and signed_words(found.group(0))[1:] != signed_words(option)[1:]:
            continue  # "1 × 10^3 M" names no "1 × 10^-3 M": a number's own sign inside the text is the option's (holdout117)
        yield found


def _joined(option: str, words: list[str]) -> str:
    """The pattern of ``words`` (the option's letters and digits, in order) with any run of other characters between
    them -- except between two numbers joined by a mark of their own ("11/3", "2:1", "3.5"), which must be that mark,
    with markup around it ("$11 / 3$"; a slash also as ``\\frac``'s "}{"): "f^{-1}(11) = 3" names no option "11/3"
    (holdout100)."""
    pattern, at = re.escape(words[0]), option.find(words[0]) + len(words[0])
    for before, word in zip(words, words[1:]):
        start = option.find(word, at)
        mark = option[at:start].strip()
        if before.isdigit() and word.isdigit() and len(mark) == 1:
            own = r"(?:/|\}\s*\{)" if mark == "/" else re.escape(mark)
            pattern += r"[^a-z0-9" + re.escape(mark) + r"]*" + own + r"[^a-z0-9]*" + re.escape(word)
        else:
            pattern += r"[^a-z0-9]+" + re.escape(word)
        at = start + len(word)
    return pattern


# the words (six at most, no punctuation between them) right before the bracket a mention opens ("reunification ("
# before "1990)", "the dissolution of the USSR ("): the mention glosses them
_GLOSS_OF = re.compile(r"(?:[^\W\d_][\w'-]*[^\S\n]+){0,5}[^\W\d_][\w'-]*[^\S\n]*\([^\S\n]*\Z")
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_SIGNED = re.compile(r"[\s$\\{(]*[-−](?=[$\\{(]*\w)")  # a sign glued to the text ("$-\\cos x$"); "-- Mars" is a dash
_SIGN_BEFORE = re.compile(r"(?<![-−])[-−][$\\{(]*\Z")


# An option named in another language by a cognate of its own word (holdout41): "N-Acetylcystein" for N-acetylcysteine,
# "el nitrógeno" for Nitrogen, "la naloxona" for Naloxone, "Nervus ulnaris" for Ulnar nerve. Two words are cognates when,
# folded (case, accents), both have 5 letters or more, their lengths differ by 2 at most and the shorter one is the
# other's prefix whole (5 or 6 letters: "ulnar" of "ulnaris", not "median" of "medial") or but for its last letter
# (7 or more: "naloxon" of "naloxone" and "naloxona"); an option's word counts only when it is a cognate of no other
# option's word ("nerve" of "Ulnar nerve" and "Radial nerve" names neither). No translation is guessed: "hígado" is not
# "liver", "oxigênio" (prefix "ox") is not "oxygen". Reconstructed rule (ours).
_LETTERS_RUN = re.compile(r"[^\W\d_]+")


def _fold(word: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(char))


def cognates(one: str, other: str) -> bool:
    """Are the folded words ``one`` and ``other`` cognates (the rule above)?"""
    shorter = min(len(one), len(other))
    if shorter < 5 or abs(len(one) - len(other)) > 2:
        return False
    return len(os.path.commonprefix([one, other])) >= (shorter if shorter <= 6 else shorter - 1)


@functools.lru_cache(maxsize=256)
def _distinctive_words(options: tuple[tuple[str, str], ...]) -> tuple[dict[str, set[str]], frozenset[str]]:
    """Each option's words that are cognates of no other option's word, and their first 5 letters (speed: every
    cognate shares them)."""
    words = {letter: {_fold(word) for word in _LETTERS_RUN.findall(text)} for letter, text in options}
    distinctive = {letter: {word for word in own if len(word) >= 5 and not any(cognates(word, theirs) for other, their_words in words.items()
                                                                                 if other != letter for theirs in their_words)}
                   for letter, own in words.items()}
    return distinctive, frozenset(word[:5] for own in distinctive.values() for word in own)


_ENGLISH_ENDINGS = frozenset({"", "s", "es", "d", "ed", "er", "ly", "al", "ic", "y"})


def english_form(one: str, other: str) -> bool:
    """Do the two words differ only by English endings ("stacks", "queued", "ethical" for "stack", "queue", "ethics")?"""
    shared = len(os.path.commonprefix([one, other]))
    return one[shared:] in _ENGLISH_ENDINGS and other[shared:] in _ENGLISH_ENDINGS


def cognate_mentions(text: str, options: Mapping[str, str], *, other_forms_only: bool = False) -> list[tuple[int, int, str]]:
    """``(start, end, letter)`` of every word of ``text`` that is a cognate of a word of one option only (the comment
    above), not denied; ``other_forms_only``: not the option's word itself or an English form of it ("stacks", "ethical" for "ethics"), nor a
    word with an apostrophe after it (an option's own words are read by :func:`option_mentions`, which leaves
    "Sodium's" and "stacks" out on purpose)."""
    distinctive, prefixes = _distinctive_words(tuple(sorted(options.items())))
    found = []
    for word in _LETTERS_RUN.finditer(text):
        if len(word.group()) < 5:
            continue
        folded = _fold(word.group())
        if folded[:5] not in prefixes:
            continue
        if other_forms_only and (text[word.end():word.end() + 1] in ("'", "’") or any(
                english_form(folded, theirs) for own in distinctive.values() for theirs in own)):
            continue
        named = [letter for letter, own in distinctive.items() if any(cognates(folded, theirs) for theirs in own)]
        if len(named) == 1 and not negated(text, word.start(), word.end()):
            found.append((word.start(), word.end(), named[0]))
    return found


# An option named by its words (issue #32, :mod:`.option_statement`): its content words (3 letters or more, no English
# function word), compared with an English ending aside ("glucocorticoid" for "glucocorticoids")
_WORD_RUN = re.compile(r"[^\W\d_]+")


def content_words(text: str, least: int = 3) -> set[str]:
    """The lowercased words of ``text`` of ``least`` letters or more that are no function word."""
    return {word for word in (w.lower() for w in _WORD_RUN.findall(text)) if len(word) >= least and word not in STOP_WORDS}


def has_word(words: set[str], word: str) -> bool:
    """Is ``word`` in ``words``, an English ending aside?"""
    return word in words or any(english_form(word, other) for other in words)


@functools.lru_cache(maxsize=256)
def distinctive_content_words(options: tuple[tuple[str, str], ...], asked: frozenset[str] = frozenset()) -> dict[str, frozenset[str]]:
    """Each option's content words that no other option has (an English ending aside) and the question does not use
    (``asked``: "sin" of "$-\\sin x$" names nothing where the question asks for the derivative of sin x)."""
    words = {letter: content_words(text) for letter, text in options}
    return {letter: frozenset(word for word in own if not has_word(asked, word)
                              and not any(has_word(theirs, word) for other, theirs in words.items() if other != letter))
            for letter, own in words.items()}


def named_in_words(text: str, letter: str, options: Mapping[str, str]) -> bool:
    """Does ``text`` hold every distinctive content word of ``letter``'s option ("exogenous glucocorticoid use" for
    "Exogenous glucocorticoids")? False for an option with none ("O(n^2)")."""
    own = distinctive_content_words(tuple(sorted(options.items()))).get(letter, frozenset())
    words = content_words(text) if own else set()
    return bool(own) and all(has_word(words, word) for word in own)


def _named_in_words_not_denied(view: str, start: int, stop: int, letter: str, options: Mapping[str, str]) -> bool:
    """:func:`named_in_words` on ``view[start:stop]``, where no word of it is denied ("not exogenous glucocorticoid use")."""
    if not named_in_words(view[start:stop], letter, options):
        return False
    own = distinctive_content_words(tuple(sorted(options.items())))[letter]
    return not any(negated(view, word.start(), word.end()) for word in _WORD_RUN.finditer(view, start, stop) if has_word(own, word.group().lower()))


# a quoted value in a record ('"option_text": "Queue"', 'text = "Queue"', "explanation: 'Queue'")
_RECORD_VALUE = re.compile(r"""[:=][ \t]*["']([^"'\n]{1,80})["']""")


def record_names_another(view: str, letter: str, options: Mapping[str, str]) -> bool:
    """Does a record in ``view`` hold, as a whole quoted value, the text of another option than ``letter``'s and not
    that of ``letter`` ('{"answer": "B", "option_text": "Queue"}' where Queue is A: its fields disagree; holdout38)?"""
    if not options or ('"' not in view and "'" not in view):
        return False
    own = _option_key(options.get(letter, ""))
    named = {_option_key(value.group(1)) for value in _RECORD_VALUE.finditer(view)}
    return own not in named and any(key != letter and _option_key(text) in named for key, text in options.items() if _option_key(text))

