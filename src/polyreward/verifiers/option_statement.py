"""An option stated by its words alone in the completion's opening statement (issue #32).

A writer who knows the answer often states it without a letter, first, and then explains, naming other options on the
way: "Canberra is the capital of Australia; it was chosen as a compromise between Sydney and Melbourne.", "The largest
planet in our solar system is Jupiter. It is more than 11 times wider than Earth ...", "Inferior wall STEMI; the right
coronary artery is the likely culprit." Reading the option whose text comes *last* (:mod:`.choice`'s fallback) picks the
explanation's Melbourne or Earth. :func:`opening_statement` reads the statement instead:

* **the opening clause** of the visible text (up to ``.``, ``;``, ``!`` or a line break; one that ends on ``?`` asks)
  **names exactly one option by its words**: every distinctive content word of that option (a word of 3 letters or
  more, no function word, in no other option: "inferior" of "Inferior STEMI" beside "Anterior STEMI"; an English
  ending aside, "glucocorticoid" for "glucocorticoids") and no distinctive word of another option. An option with no
  such word (numbers, symbols: "O(n^2)") is never named so by words: its value opening the clause names it instead
  (:func:`named_by_value`: "pH 7", "51 — it is 3 × 17", "$\\sqrt{2}$ is irrational"). The clause is read with its
  short forms written out (:func:`spellings`: "The 13th Amendment" for "Thirteenth", "PCC" for "Prothrombin complex
  concentrate", "H-bonds" for "Hydrogen bonds" -- initials of one option's words and of no other's);
* the clause **states the answer to the question**: it shares a content word of 4 letters or more with the question's
  stem that no option has ("capital", "largest planet"), or it is the option's words and at most one word more
  ("Inferior wall STEMI"); "Sydney is the largest city" before "The capital is Canberra" restates nothing;
* the option's words are not negated, hedged, qualified or hypothetical there (:mod:`.commitment`).

What follows the clause is then read as it is read after an answer phrase (``"The answer is (B)" + rest`` through the
whole letter reader): a correction, a withdrawal, a second option offered still refuse, and other options named in an
explanation are no picks. The statement decides only when that reading keeps its option; a paraphrase that fits two
options decides nothing here, and a statement that offers two options' texts together ("The largest planet is Saturn
or Jupiter.", "... is Saturn and Jupiter.") is no answer, whatever the text names later. (:mod:`.choice` reads the
option named *last* under the same rule: a text offered beside another's with "or", or listed with another's, is no
pick: :func:`listed_with_another`.)

Reconstructed rule (ours). Word sets over one clause of at most 300 characters: linear time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from polyreward.verifiers.choice_forms import NO_CHOICE, SEVERAL
from polyreward.verifiers.choice_keys import key_label_pattern
from polyreward.verifiers.commitment import hedged, negated, qualified
from polyreward.verifiers.hypothetical import hypothetical
from polyreward.verifiers.math_normalize import unicode_roots
from polyreward.verifiers.option_checks import content_words, distinctive_content_words, has_word, option_mentions
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.reading import answer_views
from polyreward.verifiers.tags import strip_thinking

MAX_CLAUSE = 300
# an option's capital letter standing alone, as an option letter is written ("A", "(B)", "C.", "answer: D"); "A" before a lowercase
# word is the article ("A compromise was ...")
# (a capital joined by a dash to another capital names a pair, not an option: "A–T", "G–C" base pairs)
_LETTER = re.compile(r"(?<![\w-])(?<![A-Z][–—])[A-Z](?![\w-])(?![–—][A-Z](?!\w))(?:[^\S\n]+[a-z])?")
_ARTICLE_A = re.compile(r"A[^\S\n]+[a-z]")
_WRAPPED_LETTER = re.compile(r"['‘\"“(\[][a-e]['’\"”)\]]")  # a lowercase option letter in quotes or brackets: "'a'", "(b)"
_WORD = re.compile(r"[^\W\d_]+")  # (the words content_words reads)
# the opening clause: to a full stop (not a decimal point or an abbreviation's inner dot), ";", "!", "?", a line end or
# the end of its bold ("**Earth** Saturn and ...")
_OPENING = re.compile(r"\s*(?:[*_#>]+\s*)?(?P<clause>(?:[^.;!?\n*]|\.(?=\w))+)(?P<end>[.;!?\n*]|\Z)")


def named_by_words(clause: str, options: Mapping[str, str], asked: frozenset[str] = frozenset()) -> str | None:
    """The one option whose distinctive content words all stand in ``clause``, with no distinctive word of another
    option there; None when none or several fit. ``asked``: the question's own content words, no option's evidence."""
    words = content_words(clause)
    distinctive = distinctive_content_words(tuple(sorted(options.items())), asked)
    named = [letter for letter, own in distinctive.items() if own and all(has_word(words, word) for word in own)]
    if len(named) != 1:
        return None
    if any(has_word(words, word) for letter, own in distinctive.items() if letter != named[0] for word in own):
        return None
    return named[0]


def _stem(prompt: str, options: Mapping[str, str]) -> str:
    """The question without its option lines."""
    lines = [line for line in prompt.splitlines() if not any(text and text in line and len(line) < len(text) + 8 for text in options.values())]
    return "\n".join(lines)


def _offered_together(clause: str, prompt: str, options: Mapping[str, str]) -> bool:
    """Does ``clause``, stating the answer, offer two options' texts as alternatives or as a list ("Saturn or Jupiter",
    "Saturn and Jupiter")?"""
    named = [(found.end(), found.end() - found.start(), letter) for letter, text in options.items()
             for found in option_mentions(clause, text, clause, across_markup=True)]  # (denied ones offer nothing)
    if len({letter for _, _, letter in named}) < 2:
        return False
    together = {letter for end, length, letter in named
                if hedged(clause, end - length, end) or listed_with_another(clause, end - length, end, named, letter)}
    return len(together) >= 2 and _states_the_answer(clause, "", prompt, options, named={letter for _, _, letter in named})


def _states_the_answer(clause: str, letter: str, prompt: str, options: Mapping[str, str], named: set[str] = frozenset()) -> bool:
    """Does ``clause`` state the answer to the question: does it share a content word of 4 letters or more with the
    question's stem that no option has, or is it the words of option ``letter`` (or of the options ``named``) and at
    most one word more?"""
    own = content_words(" ".join(options[key] for key in {letter, *named} if key))
    extra = {word for word in content_words(clause) if not has_word(own, word)}
    if len(extra) <= 1:
        return True  # "Inferior wall STEMI": the option's words and one more
    in_options = content_words(" ".join(options.values()))
    asked = {word for word in content_words(_stem(prompt, options), least=4) if not has_word(in_options, word)}
    return any(has_word(asked, word) for word in extra if len(word) >= 4)


def opening_statement(text: str, prompt: str, letters: str, options: Mapping[str, str] | None,
                      read: Callable[[str], str | None]) -> str | None:
    """The option the opening clause of ``text`` states by its words (module docstring), when ``read`` -- the letter
    reader -- keeps it on ``"The answer is X"`` followed by the rest of the text; :data:`.choice_forms.SEVERAL` when
    the clause states the answer as two options offered together; None otherwise."""
    options = dict(options or {})  # (the options the reward reads: a column, or the prompt's unless turned off)
    if not options:
        return None
    views = answer_views(text)
    view = strip_thinking(views[0])
    keys = key_label_pattern("".join(options))
    if any(found.group()[0] in options and not _ARTICLE_A.match(found.group()) for seen in views for found in _LETTER.finditer(seen)) or any(
            keys.search(seen) or _WRAPPED_LETTER.search(seen) for seen in views):
        return None  # a letter anywhere (a code block and a quote too; "Ans is 'a'", "(b)"): the letter readers decide
    opening = _OPENING.match(view)
    if opening is None or opening.group("end") == "?" or len(opening.group("clause")) > MAX_CLAUSE:
        return None
    clause = spelled(opening.group("clause"), options)
    if _offered_together(clause, prompt, options):
        return SEVERAL  # "The largest planet is Saturn or Jupiter. Earth is ...": the statement names two options
    asked = frozenset(content_words(_stem(prompt, options)))
    letter = named_by_words(clause, options, asked)
    own = distinctive_content_words(tuple(sorted(options.items())), asked)
    spans = []
    if letter is None and (valued := named_by_value(clause, options, frozenset(content_words(_stem(prompt, options), least=1)), own)) is not None:
        letter, (start, stop) = valued
        spans = [(opening.start("clause") + start, opening.start("clause") + stop)]
    if letter is None or letter not in letters or not _states_the_answer(clause, letter, prompt, options):
        return None
    end = opening.end("clause")
    spans = spans or [word.span() for word in _WORD.finditer(view, opening.start("clause"), end) if has_word(own[letter], word.group().lower())] + [
        (opening.start("clause") + start, opening.start("clause") + stop) for start, stop, words in spellings(opening.group("clause"), options)
        if any(has_word(own[letter], word) for word in content_words(words))]
    if any(negated(view, *span) or hedged(view, *span) or qualified(view, *span) or hypothetical(view, *span) for span in spans):
        return None  # "It isn't Jupiter", "Maybe Jupiter", "Jupiter, I guess"
    rest = view[end:].lstrip("*")
    if NO_CHOICE.search(rest):
        return None  # "Radial nerve fits. I don't think any option is strictly right here.": every option declined
    if _bare_option_later(rest, letter, options, asked):
        return None  # "Jupiter\nEarth", "Jupiter. Hmm, Earth.": a second option stated alone, a second answer
    closed = "." if opening.group("end") == "*" else ""  # "**Earth** Saturn and ...": the bold closes the statement
    return letter if read(f"The answer is {letter}{closed}" + rest) == letter else None


# an ordinal written as a numeral ("13th", "21st") and its word ("thirteenth", "twenty first")
_ORDINAL = re.compile(r"\b(?P<number>\d{1,2})(?:st|nd|rd|th)\b")
_UNITS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
          "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_TENTHS = ("", "", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth")
# a short form of an option's words: their initials in capitals ("PCC" for "prothrombin complex concentrate"), or the
# initials of all but the last word, a hyphen and that word ("H-bonds" for "hydrogen bonds")
# a cardinal written as a numeral and joined by a hyphen to the word it counts ("4-factor" for "Four-factor", "3-drug"
# for "three-drug"; holdout76): its word
_CARDINAL = re.compile(r"(?<![\w.,-])(?P<number>1[0-9]|[1-9])(?=-[^\W\d_])")
_CARDINALS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
              "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_PLUS = re.compile(r"(?<=[^\W\d_])[^\S\n]+\+[^\S\n]+(?=[^\W\d_])")
_SHORT_FORM = re.compile(r"(?<![\w-])(?P<initials>[A-Z]{1,6})(?:-(?P<word>[a-z]{3,}))?(?![\w-])")


def _ordinal_words(number: int) -> str:
    """``13`` -> ``"thirteenth"``, ``21`` -> ``"twenty first"``; ``""`` for 0."""
    if number < 20:
        return _UNITS[number]
    tens, unit = divmod(number, 10)
    return _TENTHS[tens] if unit == 0 else f"{_TENS[tens]} {_UNITS[unit]}"


def _short_form_of(initials: str, word: str | None, options: Mapping[str, str]) -> str | None:
    """The words of exactly one option that ``initials`` (and ``word``, the run's last word) abbreviate, in order and
    consecutive; None where none or several options fit, or where the capitals are an option's own word ("IV")."""
    if word is None and len(initials) < 2:
        return None  # a capital alone is a letter
    if any(initials.lower() in {w.lower() for w in _WORD.findall(text)} for text in options.values()):
        return None  # "IV" of "IV vitamin K": the option's own word, no short form
    size = len(initials) + (word is not None)
    found = set()
    for text in options.values():
        words = _WORD.findall(text)
        for at in range(len(words) - size + 1):
            run = words[at:at + size]
            if "".join(w[0] for w in run[:len(initials)]).upper() == initials and (word is None or run[-1].lower() == word):
                found.add(" ".join(run).lower())
    return found.pop() if len(found) == 1 else None


def spellings(clause: str, options: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """Where ``clause`` writes words in a short form: (start, stop, the words) for an ordinal numeral ("13th" is
    "thirteenth"), a cardinal joined to its word ("4-factor" is "four-factor"), a "+" between words ("plus") and one option's words abbreviated (:func:`_short_form_of`: "PCC",
    "H-bonds")."""
    found = [(m.start(), m.end(), _ordinal_words(int(m.group("number")))) for m in _ORDINAL.finditer(clause) if int(m.group("number"))]
    found += [(m.start(), m.end(), _CARDINALS[int(m.group("number"))]) for m in _CARDINAL.finditer(clause)]  # "4-factor"
    found += [(m.start(), m.end(), " plus ") for m in _PLUS.finditer(clause)]  # "PCC + IV vitamin K": "+" between words is "plus"
    for m in _SHORT_FORM.finditer(clause):
        if (words := _short_form_of(m.group("initials"), m.group("word"), options)) is not None:
            found.append((m.start(), m.end(), words))
    return sorted(found)


def spelled(clause: str, options: Mapping[str, str]) -> str:
    """``clause`` with its short forms (:func:`spellings`) written out in words, read by the option's words."""
    for start, stop, words in reversed(spellings(clause, options)):
        clause = clause[:start] + words + clause[stop:]
    return clause


# the value that opens a clause: after words of the question ("pH 7" where it asks for a pH value) and an article, one
# token (a number, a symbol, a LaTeX form: "$\\sqrt{2}$") that ends the clause, stands before a dash, colon, comma or
# bracket (a spaced hyphen before a word: "51 - it is 3 × 17"), or before "is"/"are"/"was" -- never before an operator
# ("2 + 3 = 5", "10 - 5 = 5" open with a sum and a difference, not with 2 or 10)
_VALUE_HEAD = re.compile(r"\s*(?P<lead>(?:[^\W\d_]+\s+)*?)(?P<value>[^\s,;:(]+?)(?=\s*\Z|\s*[—–:(,]|\s+-\s+(?=[^\W\d_])|\s+(?:is|are|was)\b)")
_INLINE_MATH = re.compile(r"\A\$+|\$+\Z|\A\\\(|\\\)\Z")
_SPACES = re.compile(r"\s+|\\[,;! ]")
# what offers a second value right after the first: "7 or 5", "7/5", "7, 5", "7 and 5"
_ANOTHER_AFTER = re.compile(r"\s*(?:,|/|&|\b(?:or|and)\b)\s*(?P<other>[^\s,;:().]+)")


def _value_form(text: str) -> str:
    """``text`` as a value is compared: inline math delimiters off, roots written as LaTeX (``√2`` is ``\\sqrt{2}``),
    spaces and LaTeX spacing off; a plain number as its float (``7.0`` is ``7``)."""
    form = _SPACES.sub("", unicode_roots(_INLINE_MATH.sub("", text.strip())))
    try:
        return repr(float(form.replace(",", "")))
    except ValueError:
        return form


def named_by_value(clause: str, options: Mapping[str, str], asked: frozenset[str],
                   distinctive: Mapping[str, frozenset[str]]) -> tuple[str, tuple[int, int]] | None:
    """The one option with no distinctive word (a number, a symbol: "7", "√2", "51") whose value opens ``clause`` (after
    words of the question and an article: :data:`_VALUE_HEAD`) -- ``"pH 7"``, ``"51 — it is 3 × 17"``,
    ``"$\\sqrt{2}$ is irrational"`` -- with the value's span in ``clause``; None when no such option's value opens it,
    when two options have that value, or when a second option's value is offered right after it ("7 or 5"). ``asked``:
    the question's words (any length: "pH")."""
    head = _VALUE_HEAD.match(clause)
    if head is None or any(word.lower() not in asked and word.lower() not in ("the", "a", "an") for word in head.group("lead").split()):
        return None
    form = _value_form(head.group("value"))
    forms = {letter: _value_form(text) for letter, text in options.items() if text.strip() and not distinctive.get(letter)}
    named = [letter for letter, option in forms.items() if option == form]
    if len(named) != 1:
        return None
    another = _ANOTHER_AFTER.match(clause, head.end("value"))
    if another is not None and _value_form(another.group("other")) in forms.values():
        return None  # "7 or 5", "7, 5": two options' values offered together
    return named[0], head.span("value")


# what joins two items of one list: "Saturn and Earth", "Saturn, Earth", "Saturn / Earth", "Saturn & Earth"
_LIST_JOIN = re.compile(r"[^\S\n]*(?:,|/|&|\band\b|\bas\s+well\s+as\b)[^\S\n]*(?:(?:the|an?)[^\S\n]+)?\Z", re.IGNORECASE)


def listed_with_another(view: str, start: int, stop: int, named: list[tuple[int, int, str]], letter: str) -> bool:
    """Is the option text at ``view[start:stop]`` (of ``letter``) one item of a list with another option's text, joined
    right before or after it ("is Saturn and Earth")? ``named``: (end, length, letter) of every option text named."""
    for end, length, other in named:
        if other == letter:
            continue
        if end <= start and _LIST_JOIN.match(view[end:start]) is not None:
            return True
        if stop <= end - length and _LIST_JOIN.match(view[stop:end - length]) is not None:
            return True
    return False


_CLAUSE = re.compile(r"(?:[^.;!?\n]|\.(?=\w))+")


def _bare_option_later(rest: str, letter: str, options: Mapping[str, str], asked: frozenset[str]) -> bool:
    """Does a later clause of ``rest`` name another option by its words and say nothing else (no word of 4 letters or
    more beside that option's own: "Earth", "Hmm, Earth", "**Earth**")?"""
    for clause in _CLAUSE.finditer(rest[:2000]):
        other = named_by_words(clause.group(), options, asked)
        if other is not None and other != letter:
            own = content_words(options[other])
            if not any(len(word) >= 4 and not has_word(own, word) for word in content_words(clause.group())):
                return True
    return False
