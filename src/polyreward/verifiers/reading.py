"""One reading of a completion, shared by every answer-reading reward: the text a reader sees, in one plain form.

Every reward that reads an answer (math, choice, crpo, forecast, tool calls, format) reads it through
:func:`answer_views`, never the raw string, so a policy cannot move a score by changing what a person would not
see or would read the same way:

1. :func:`normalise` -- backspaces and carriage returns applied as a terminal shows them (``402.5\\b\\b\\b\\b\\b71.0`` is
   ``71.0``: :func:`.text_forms.overprinted`), then NFKC except superscripts and vulgar fractions (left to the math reader) (full-width ``４２`` and mathematical ``𝟒𝟐`` are ``42``), invisible format characters
   removed (zero-width space / joiner, bidi marks, soft hyphen, word joiner: ``o\\u200br`` is ``or``; words under a
   right-to-left override are read as written and then, on a line of their own, as shown: ``\\u202eton`` is
   ``ton`` and ``not``; for an answer reader a run with a value or markup is shown with them masked), HTML entities in prose are their
   characters (``&minus;5`` is ``-5``; not ``&lt;`` and the other markup marks), an HTML superscript of digits glued to
   a word or opening a note's line the superscript it shows (``**363**<sup>1</sup>`` is ``**363**¹``), look-alike
   letters mapped to Latin inside Latin words and in words made only of look-alikes (Cyrillic ``о`` in ``оr``,
   Greek ``ο`` in ``nοt``), leetspeak in the few words that decide commitment (``0r``, ``n0t``), a negative contraction without its apostrophe (``didnt`` is ``didn't``), every minus-like dash before a digit is ``-`` (``−76`` is ``-76``), decimal digits of
   other scripts are ASCII (``٤٢`` is ``42``), the ideographic full stop and comma are ``.`` and ``,`` and a Latin
   letter or digit next to a Han or kana character stands apart from it, horizontal whitespace runs are one space;
   letters that show as a blank (Hangul fillers, the blank Braille pattern) are spaces, a word whose every letter
   carries a combining mark is its letters, upside-down text is read upright, leet is read inside longer words, and
   one of those few words spelled out letter by letter (``w r o n g``) is the word; in prose, a transcript of speech
   as its speaker meant it -- fillers set off by commas dropped (``Um, uh, 42``), spoken punctuation of a dictation
   written as marks (``42.3 period``, ``new paragraph``), a sentence an editing command removes removed (``The answer
   is B. Delete last sentence.``): :mod:`.speech_transcripts`.
2. :func:`.hidden_text.without_comments` -- what no reader sees at all, or sees struck out (comments, hidden
   elements, LaTeX that renders nothing, the markup of links and images, struck-through text, everything after
   the end of the writer's turn): :mod:`.hidden_text`; then the writer's own LaTeX macros (``\\def\\ans{45}``,
   ``\\renewcommand{\\boxed}[1]{\\fbox{21}}``) expanded where they are used, as they render: :mod:`.latex_macros`.
3. :func:`visible_text` -- what a reader does not take as the writer's answer: fenced code blocks (unless the
   task is code), markdown block quotes (``> ...``; one under an answer heading is shown: :mod:`.markdown_blocks`), spoilers
   (``>!..!<``), collapsed ``<details>`` (its ``<summary>`` shown) and small print (``\\tiny``, ``\\scriptsize``,
   ``\\footnotesize``, ``<small>``); a
   footnote definition (``[^1]: ...``) is read in place of its marker, in parentheses, as a reader follows it.

:func:`answer_views` gives the readings to try in order: the visible text first; when it holds no answer, the
text with only the comments removed (a model that writes its final answer inside a code block or a quote still
has that answer, since nothing else competes with it -- unless the writer's own words dispute it: :func:`dissents`).
Comments never supply an answer (a word-only one may qualify it, above), nor do bare web addresses or a tool
call's traffic (a call that submits the answer does).

Linear in the text: each step is one pass of literal searches or of a regex without nested quantifiers.
Reconstructed rule (ours), the structural reading asked of every answer reader; not a published algorithm.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
import itertools
import unicodedata

from polyreward.verifiers.answer_forms import template_fields
from polyreward.verifiers.broken_markup import closed_final_box, spelled_boxes, unescaped_markdown
from polyreward.verifiers.hidden_text import _drop_brace_groups, _without_spans, without_comments
from polyreward.verifiers.footnotes import (SUPERSCRIPT_NOTE, inline_footnotes, notes_at_markers, superscript_footnotes,
                                            without_quiet_notes)
from polyreward.verifiers.math_normalize import ANGLE_BRACKETS, _SUPERSCRIPT_RUN, _VULGAR_FRACTIONS, subscript_bases
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.negation_words import dissents  # noqa: F401 (public here too)
from polyreward.verifiers.latex_macros import expanded_macros
from polyreward.verifiers.latex_tables import tabular_as_markdown
from polyreward.verifiers.markdown_blocks import ANSWER_HEADING_WORDS, shown_markdown
from polyreward.verifiers.records import ANSWER_TOOL_NAME, RECORD_FENCE_INFO, submitted_calls
from polyreward.verifiers.regex_prefilter import prefiltered
from polyreward.verifiers.speech_transcripts import spoken_as_meant
from polyreward.verifiers.tags import tag_blocks
from polyreward.verifiers.turns import answer_part
from polyreward.verifiers.text_forms import (INVISIBLE_CHARACTERS, LOOKALIKES, overprinted, rendered_entities, rendered_superscripts,
                                             SMALL_CAPITALS, ascii_word_marks)

# an answer reader reads only the last MAX_TAIL_CHARS characters of a view, so a 1 MB completion costs what a short one does
MAX_TAIL_CHARS = 6000

# every format character (Unicode category Cf: zero-width, bidi, tags, soft hyphen ...), variation selectors, the
# combining grapheme joiner and the Hangul fillers: none of them shows. INVISIBLE is the character class, for patterns
# that read through them in place (tool_calls: a comment's delimiters)
INVISIBLE = (f"[{INVISIBLE_CHARACTERS}\u20e3\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
             "\U000e0000-\U000e0fff\U0001d173-\U0001d17a]")
_INVISIBLE = re.compile(INVISIBLE)
# a character struck through with a combining overlay (U+0335-U+0338) is deleted text
_STRUCK_CHARACTER = re.compile("[^\u0335-\u0338][\u0335-\u0338]+")
# leetspeak in the small words that decide commitment ("0r", "n0t", "w41t"): read as letters
_LEET = str.maketrans("0134579", "oieastg")
_LEET_WORD = re.compile(r"(?<![\w.])(?=[a-zA-Z]*\d)(?=\d*[a-zA-Z])[a-zA-Z0134579]{2,9}(?![\w.])")
_GUARD_WORDS = frozenset({
    "or", "nor", "not", "no", "never", "either", "wait", "wrong", "actually", "kidding", "joking", "typo", "oops",
    "scratch", "ignore", "maybe", "possibly", "perhaps", "instead", "incorrect", "false", "nope", "meant", "unsure", "guess",
    "sure", "certain", "mistake", "error", "doubt", "retract",
})

_LONGEST_GUARD_WORD = max(map(len, _GUARD_WORDS))
_ACCENTED_LATIN = re.compile("[\u00c0-\u024f]")


def _without_diacritics(word: str) -> str:
    """``word`` with the accents of its Latin letters dropped ("nót" -> "not"); a word with another script's letter
    keeps them."""
    bare = "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))
    return bare if bare.isascii() else word


# a word of letters; look-alikes are mapped in a word that has a Latin letter or is made only of look-alikes
_WORD = re.compile(r"[^\W\d_]+")
_LOOKALIKE_CHARS = frozenset(chr(code) for code in LOOKALIKES)
# dashes a reader takes for a minus when a number follows: − (U+2212), ‒ – — ― (U+2012-2015), ﹣ (U+FE63), ➖
_MINUS_BEFORE_DIGIT = re.compile(r"[\u2212\ufe63\u2796](?=\s?[\d.])|[\u2012-\u2015](?=[\d.])")  # "— 3^4" is a dash (holdout21)
_TRUE_MINUS = re.compile(r"[\u2212\u2796]")
# marks that ask as "?" does: the reversed question mark (U+2E2E), the Arabic and Ethiopic question marks, and the
# glottal stop ʔ after a value ("Is it \\boxed{42}⸮", "42ʔ"); NFKC keeps them
_QUESTION_MARK = re.compile("[\u2e2e\u061f\u1367]|(?<=[\\d})\\]$*])\u0294(?![^\\W\\d_])")
_HORIZONTAL_SPACE = re.compile(r"[^\S\n]+")
# a negative contraction typed without its apostrophe ("didnt", "couldnt", "isnt"): read as the contraction, as a
# reader does, so the words that decide commitment are the same either way ("cant" and "wont" are left: words too)
_BARE_CONTRACTION = re.compile(r"\b(did|does|do|could|would|should|is|was|are|were|has|have|had|must|need)nt\b", re.IGNORECASE)
# speed only: without these, the two substitutions above change nothing (tests/test_math_fast_paths.py)
# (speed: found at its digit, so re skips to the digits in C instead of trying every letter: ~10x faster; the same texts
# have one as "[a-zA-Z][0134579]|[0134579][a-zA-Z]")
_LETTER_BESIDE_LEET_DIGIT = re.compile(r"[0134579](?:(?<=[a-zA-Z][0134579])|(?=[a-zA-Z]))")
_SPACE_TO_COLLAPSE = re.compile(r"[^\S\n ]|  ")
# a word of those spelled out letter by letter ("is w r o n g", "B   o r   A", "N O T"): read as the word (holdout107);
# a run of single letters, one space apart, outside LaTeX; a lone capital at either end is an option letter beside it
_SPACED_LETTERS = re.compile(r"(?<![\w\\$])[A-Za-z](?: [A-Za-z]){1,9}(?![\w$])")


# letters that show as a blank, as a space shows (holdout12): the Hangul fillers and the blank Braille pattern
_BLANK_LETTER = re.compile("[\u115f\u1160\u3164\uffa0\u2800]")
# a word whose every letter carries a combining mark that is no overlay (N + U+0332 ..., n + U+0301 ...):
# decoration, read as its letters (holdout12); a word with a mark on some letters ("cafe" + U+0301) is spelled so
_MARKS = "\u0300-\u0334\u0339-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_DECORATED_WORD = re.compile(rf"(?<![^\W\d_])(?:[^\W\d_][{_MARKS}]+){{2,}}(?![^\W\d_])")
_MARK = re.compile(f"[{_MARKS}]")


def _undecorated(match: re.Match) -> str:
    return _MARK.sub("", match.group())


# text written upside down (turned r, e, w, s, u, a ... shows "not the answer" turned): a run of words each with a
# turned letter, read back to front with each letter turned upright (holdout12)
_UPRIGHT = {"\u0250": "a", "q": "b", "\u0254": "c", "p": "d", "\u01dd": "e", "\u025f": "f", "\u0183": "g", "\u0265": "h",
            "\u1d09": "i", "\u027e": "j", "\u029e": "k", "l": "l", "\u026f": "m", "u": "n", "o": "o",
            "d": "p", "b": "q", "\u0279": "r", "s": "s", "\u0287": "t", "n": "u", "\u028c": "v", "\u028d": "w", "x": "x",
            "\u028e": "y", "z": "z"}
_TURNED = "\u0250\u0254\u01dd\u025f\u0183\u0265\u1d09\u027e\u029e\u026f\u0279\u0287\u028c\u028d\u028e"
_TURNED_WORD = f"[bdlnopqsuxz]*[{_TURNED}][{_TURNED}bdlnopqsuxz]*"
_TURNED_RUN = re.compile(rf"(?<![\w\\]){_TURNED_WORD}(?: {_TURNED_WORD})*(?!\w)")


def _upright(match: re.Match) -> str:
    run = match.group()
    if sum(ch in _TURNED for ch in run) < 2:
        return run  # one IPA letter (a schwa, a turned a) is no turned text
    return "".join(_UPRIGHT.get(ch, ch) for ch in reversed(run))


# markup that splits a word where a reader sees one: emphasis or code marks, an inline HTML tag or an HTML comment
# between letters ("n**o**t", "wr*o*ng", "n<b>o</b>t", "no<!-- -->t sure")
_WORD_SPLITTER = r"(?:\*{1,3}|_{1,3}|~~|`|</?[A-Za-z][^<>\n]{0,60}>|<!--[^\n]{0,60}?-->)"
_MARKUP_AFTER_LETTER = re.compile(r"(?:[*_~`]|<(?=[/!A-Za-z]))(?<=[A-Za-z].)")  # (speed: a mark after a letter, found by its first character)
# (the run of marks possessive: "answer" + 100,000 stars is one run, never split into its exponentially many readings)
_SPLIT_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]+(?:" + _WORD_SPLITTER + r"++[A-Za-z]+)+(?![A-Za-z])")
_SPLITTER = re.compile(_WORD_SPLITTER)


def _joined_word(match: re.Match) -> str:
    """The guard word that markup splits, joined; any other split word as written ("x*y*z" stays a product).

    >>> _SPLIT_WORD.sub(_joined_word, "I'm n**o**t sure, x*y*z, n<b>o</b>t, snake_case")
    "I'm not sure, x*y*z, not, snake_case"
    """
    joined = _SPLITTER.sub("", match.group())
    return joined if joined.lower() in _GUARD_WORDS else match.group()


# a few words set in emphasis that belong to a phrase of commitment -- a guard word, a negation, a modal or a verb of
# knowing ("I'm *not* sure", "I *might* be wrong", "**Not** sure"), or any word right after a negation ("I don't
# *know*", "I haven't **checked** it") -- read as the words, so the phrase reads the same emphasised or not; any other
# emphasis keeps its marks, which may single out the answer ("**B**", "a **Tuesday**", "**forty-two** pencils",
# "**Final answer:**"), and inline code is read only as a guard word ("`not`"; an identifier such as "`answer`" stays)
_EMPHASISED_WORDS = re.compile(r"(?<![\w*`\\])(\*{1,3}|_{1,3}|`)(?=[A-Za-z])([A-Za-z'-]+(?: [A-Za-z'-]+){0,3})\1(?![\w*`])")
_COMMITMENT_WORDS = _GUARD_WORDS | {
    "can't", "cannot", "don't", "doesn't", "didn't", "haven't", "hasn't", "isn't", "wasn't", "won't", "wouldn't", "couldn't",
    "might", "may", "could", "would", "should", "must", "know", "think", "believe", "confident", "checked", "verified",
}
_AFTER_NEGATION = re.compile(r"(?:\bnot|\bnever|n't)[ ]\Z", re.IGNORECASE)


def _unemphasised(match: re.Match) -> str:
    """The words of an emphasised run that belongs to a phrase of commitment (:data:`_EMPHASISED_WORDS`).

    >>> _EMPHASISED_WORDS.sub(_unemphasised, "I'm *not* sure, I don't *know*, **42**, **B**, a **Tuesday**, `x`, `not`")
    "I'm not sure, I don't know, **42**, **B**, a **Tuesday**, `x`, not"
    """
    marks, words = match.groups()
    if marks == "`":
        return words if words.lower() in _GUARD_WORDS else match.group()
    if any(word in _COMMITMENT_WORDS for word in words.lower().split()) or _AFTER_NEGATION.search(match.string, 0, match.start()):
        return words
    return match.group()


# a word with a letter stretched by repeating it ("Maaaybe", "Nooope", "wrooong", "Gueeesss"): the guard word it
# stretches, each run read once or twice; any other word as written ("Hmmm", "zzz", "Brrr")
_STRETCHED_LETTER = re.compile(r"([A-Za-z])\1\1")
_STRETCHED_WORD = re.compile(r"(?<![\w\\])[A-Za-z]*([A-Za-z])\1\1[A-Za-z]*(?!\w)")
_LETTER_RUN = re.compile(r"([A-Za-z])\1+")


def _unstretched(match: re.Match) -> str:
    """The guard word a stretched word spells, each run of a letter read once or twice ("ss" in "guess").

    >>> _STRETCHED_WORD.sub(_unstretched, "Maaaybe 42, Nooo, Gueeesss, Hmmm, Brrr")
    'Maybe 42, No, Guess, Hmmm, Brrr'
    """
    word = match.group()
    pieces = _LETTER_RUN.split(word)  # the text between runs, then each run's letter, alternately
    letters = pieces[1::2]
    if len(letters) > 4 or len(word) > 40:
        return word  # no guard word has more than four doubled letters
    for counts in itertools.product((1, 2), repeat=len(letters)):
        candidate = "".join(piece if i % 2 == 0 else piece * counts[i // 2] for i, piece in enumerate(pieces))
        if candidate.lower() in _GUARD_WORDS:
            return candidate
    return word


def _spelled_word(match: re.Match) -> str:
    """The guard word a run of spaced letters spells, joined; any other run as written.

    >>> _SPACED_LETTERS.sub(_spelled_word, "42 is w r o n g, B o r A, N O T A, x y z")
    '42 is wrong, B or A, NOT A, x y z'
    """
    letters = match.group().split(" ")
    for first, last in ((0, len(letters)), (1, len(letters)), (0, len(letters) - 1), (1, len(letters) - 1)):
        if (first and not letters[0].isupper()) or (last < len(letters) and not letters[-1].isupper()):
            continue  # only a capital beside the word is an option letter
        word = "".join(letters[first:last])
        if len(word) >= 2 and word.lower() in _GUARD_WORDS and (word[1:].islower() or word.isupper()):
            return " ".join(letters[:first] + [word] + letters[last:])
    return match.group()


CIRCLED_LETTERS = {0x24B6 + i: f"({chr(ord('A') + i)})" for i in range(26)} | {0x24D0 + i: f"({chr(ord('a') + i)})" for i in range(26)}
_CIRCLED_LETTER = re.compile("[\u24b6-\u24e9]")


def _ascii_digits(text: str) -> str:
    """``text`` with the digits of every script as ASCII digits, and the Arabic decimal and thousands separators
    between two digits as the point and comma they are (red team ``holdout_r56``: ``۵۲٫۳`` is 52.3, ``١٬٢٠٠`` is
    1,200; NFKC keeps both separators)."""
    if text.isascii():
        return text
    text = "".join(str(unicodedata.digit(ch)) if not ch.isascii() and unicodedata.category(ch) == "Nd" else ch for ch in text)
    return _ARABIC_SEPARATOR.sub(lambda mark: "." if mark.group() == "\u066b" else ",", text) if "\u066b" in text or "\u066c" in text else text


_ARABIC_SEPARATOR = re.compile("(?<=\\d)[\u066b\u066c](?=\\d)")  # ٫ (decimal) and ٬ (thousands) between two digits


def _map_lookalikes(match: re.Match) -> str:
    word = match.group()
    if word.isascii():
        return word
    if len(word) <= _LONGEST_GUARD_WORD and _ACCENTED_LATIN.search(word) and (plain := _without_diacritics(word)).lower() in _GUARD_WORDS:
        return plain  # "I'm nót sure", "Wáit, thát's wróng": a guard word with an accent is the guard word
    mixed = any("a" <= ch.lower() <= "z" for ch in word)
    # a lone capital look-alike ("Α" for A in "\\boxed{Α}") too; a lone small Greek letter (ρ, ν) may be math
    only_lookalikes = (len(word) > 1 or word.isupper() or word in SMALL_CAPITALS) and all(ch in _LOOKALIKE_CHARS for ch in word)
    return word.translate(LOOKALIKES) if mixed or only_lookalikes else word


# the enclosed capitals NFKC leaves as they are -- negative circled 🅐-🅩 and negative squared 🅰-🆉 -- are the letters
# they show ("Answer: 🅒" is C, holdout122), as the circled Ⓒ and squared 🄲 are by NFKC
_ENCLOSED_CAPITALS = {base + i: chr(ord("A") + i) for base in (0x1F150, 0x1F170) for i in range(26)}
_KEPT_BY_NFKC = re.compile("[" + "".join(_VULGAR_FRACTIONS) + "]|" + _SUPERSCRIPT_RUN.pattern)


def _nfkc_keeping_math(text: str) -> str:
    """NFKC, except superscripts and vulgar fractions, which the math reader turns into powers and fractions itself
    (NFKC would make ``x²`` ``x2`` and ``½`` ``1⁄2``)."""
    if text.isascii():
        return text
    parts, position = [], 0
    for kept in _KEPT_BY_NFKC.finditer(text):
        parts.append(unicodedata.normalize("NFKC", text[position:kept.start()]))
        parts.append(kept.group())
        position = kept.end()
    parts.append(unicodedata.normalize("NFKC", text[position:]))
    return "".join(parts)


# a right-to-left override (U+202E) shows the characters after it in reverse order, up to the pop (U+202C) or the end
# of the line (Unicode Bidirectional Algorithm, UAX #9, rules X4 and L2): "\u202eton" shows as "not". A reader sees the
# shown order, the bytes say the other: both are read, the written run and then the shown one on its own line, so a guard word in
# either counts ("\boxed{42} \u202eton" is denied, and "\boxed{42}\u202e. Not really" still takes the answer back).
# In a run with a digit or markup the shown order is read with its values, markup and lone letters masked: its words may
# take the answer away ("\boxed{12} \u202e.2 = x :rewsna lanif ,ngis a deppilf I ,tiaW" shows "Wait, I flipped a
# sign, final answer: x = 2."), its values never supply one ("\u202e}24{dexob\\" shows a box that is not in the text).
_RIGHT_TO_LEFT_RUN = re.compile("\u202e([^\u202c\n]*)")
_VALUE_OR_MARKUP = re.compile(r"[\d\\{}$<>\[\]()|*_^=]")
_MASKED = re.compile(r"[\d\\{}$<>\[\]()|*_^=]|(?<![^\W\d_])[^\W\d_](?![^\W\d_])")  # ... and a lone letter (an option's)


def _shown_order(match: re.Match, masked: bool = False) -> str:
    run = match.group(1)
    if _VALUE_OR_MARKUP.search(run) and not masked:
        return run  # read masked by the answer readers only: a word counter does not count its words twice
    shown = run[::-1] if not _VALUE_OR_MARKUP.search(run) else _MASKED.sub("\u25af", run[::-1])
    if not _WORD.search(shown):
        return run  # no word to read in the shown order: as written only
    return f"{run}\n{shown}"  # the shown order on a line of its own: its own clause


def normalise(text: str, collapse_space: bool = True, answer_reading: bool = False) -> str:
    """``text`` in the one plain form every reader reads (step 1 of the module docstring); ``collapse_space=False``
    keeps runs of spaces (indentation of code); ``answer_reading`` (:func:`answer_views`) reads a right-to-left run
    with a value or markup in its shown order too, masked, where its words may take an answer away."""
    text = overprinted(text)  # backspaces and carriage returns applied, as a terminal shows them (holdout_r54)
    text = ascii_word_marks(text)  # "can’t be sure", "haven`t checked": the contractions every reader reads
    if collapse_space and "&" in text:  # prose: an HTML entity is the character it shows (code keeps its text)
        text = rendered_entities(text)
    if collapse_space and "<" in text:  # prose: an HTML superscript of digits is the superscript it shows
        text = rendered_superscripts(text)
    if not text.isascii():
        if "\u202e" in text:
            text = _RIGHT_TO_LEFT_RUN.sub(lambda run: _shown_order(run, answer_reading), text)
        text = _STRUCK_CHARACTER.sub("", text)
        text = _BLANK_LETTER.sub(" ", text)
        text = _DECORATED_WORD.sub(_undecorated, text)
        text = _TURNED_RUN.sub(_upright, text)
        text = "".join(ch for ch in text if ch.isascii() or unicodedata.category(ch) != "Cf")
    if not text.isascii():  # (speed: no ASCII character is invisible)
        # a vector's mathematical angle brackets ⟨3, 4⟩ are LaTeX's \langle 3, 4 \rangle (holdout85), before NFKC
        # makes U+2329 the CJK bracket U+3008, which is punctuation
        # a circled letter is a label, as the parenthesised letter NFKC makes of U+249C-U+24B5 is ("Ⓒ" is "(C)", not the
        # word "C"; red team holdout_r56: "Ⓐ D-dimer: ..." per option), before NFKC reads it as the bare letter
        text = text.translate(CIRCLED_LETTERS) if _CIRCLED_LETTER.search(text) else text
        text = _INVISIBLE.sub("", _nfkc_keeping_math(subscript_bases(text.translate(ANGLE_BRACKETS).translate(_ENCLOSED_CAPITALS))))  # "101₂" (holdout96)
    if not text.isascii():
        text = _spaced_cjk(text)
        text = _WORD.sub(_map_lookalikes, text)
        text = _TRUE_MINUS.sub("-", _MINUS_BEFORE_DIGIT.sub("-", text))
        text = _QUESTION_MARK.sub("?", text)
        text = _ascii_digits(text)
    if collapse_space and _MARKUP_AFTER_LETTER.search(text):
        text = _SPLIT_WORD.sub(_joined_word, text)
    if collapse_space and ("*" in text or "_" in text or "`" in text):
        text = _EMPHASISED_WORDS.sub(_unemphasised, text)
    if " " in text and _SPACED_LETTERS.search(text):
        text = _SPACED_LETTERS.sub(_spelled_word, text)
    if _STRETCHED_LETTER.search(text):  # (speed: most texts hold no letter written three times running)
        text = _STRETCHED_WORD.sub(_unstretched, text)
    if _LETTER_BESIDE_LEET_DIGIT.search(text):  # (speed: a leet word has a letter beside a digit; none, nothing to map)
        text = _LEET_WORD.sub(_unleet, text)
        if "1" in text:
            text = _LEET_I.sub("I", text)
    if "nt" in text:  # (speed: every such contraction ends in "nt")
        text = _BARE_CONTRACTION.sub(r"\1n't", text)
    if collapse_space and "\\" in text:  # prose: an escaped markdown mark is the mark shown, "\\box{24}" the box meant
        text = spelled_boxes(unescaped_markdown(text))
    if collapse_space:  # prose: a transcript's fillers, spoken punctuation and editing commands as meant (holdout_r59)
        text = spoken_as_meant(text)
    return _HORIZONTAL_SPACE.sub(" ", text) if collapse_space and _space_to_collapse(text) else text


_ASCII_SPACES_TO_COLLAPSE = ("  ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")  # \s of ASCII but "\n" and " "


def _space_to_collapse(text: str) -> bool:
    """``_SPACE_TO_COLLAPSE.search(text)`` as a truth value; an ASCII text by looking for each such space (speed: a
    few scans in C instead of the pattern tried at every character)."""
    if text.isascii():
        return any(space in text for space in _ASCII_SPACES_TO_COLLAPSE)
    return _SPACE_TO_COLLAPSE.search(text) is not None


# Chinese and Japanese text: the full stop and comma are the Latin ones to a reader ("42。不对，是45。" is three
# clauses), and a Latin letter or digit next to a Han or kana character stands apart from it ("答案是D" names D)
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CJK_STOPS = str.maketrans({"\u3002": ". ", "\u3001": ", ", "\uff61": ". ", "\uff64": ", "})
_CJK_BESIDE_LATIN = re.compile(f"(?<=[{_CJK}])(?=[A-Za-z0-9\\\\$(])|(?<=[A-Za-z0-9}}$)])(?=[{_CJK}])")


def _spaced_cjk(text: str) -> str:
    if not _CJK_ANY.search(text):
        return text
    return _CJK_BESIDE_LATIN.sub(" ", text.translate(_CJK_STOPS))


_CJK_ANY = re.compile(f"[{_CJK}\u3002\u3001]")


# "1 don't know", "1 am not sure": a lone 1 before a verb form only "I" takes is the pronoun written in leet (holdout12)
_LEET_I = re.compile(r"(?<![\w.,\\])1(?=\s+(?:don't|do\s+not|am|haven't|have\s+(?:no|not)|'m)\b|'m\b|'ve\b)", re.IGNORECASE)
_LEET_INSIDE = re.compile(r"[a-zA-Z][0134579]+[a-zA-Z]")
_FUNCTION_THEN_DIGIT = re.compile(r"(?:a?(?:sin|cos|tan|cot|sec|csc)h?|arc\w+|log|ln|exp|lg|sqrt|det|max|min|mod)\d",
                                  re.IGNORECASE)


def _unleet(match: re.Match) -> str:
    word = match.group()
    plain = word.lower().translate(_LEET)
    if plain in _GUARD_WORDS:
        return plain
    # a word of three letters or more, more of them than digits, with a leet digit between letters ("m3ss3d", "st3p",
    # "kn0w") is leet too, read as letters, and so is a negative contraction ("d0n't"; holdout12); "100km", "x1", "3x"
    # and "4n5w3r" keep their digits, and a LaTeX command ("\\cos3x") or a function before its argument ("sin3x") is
    # not read; nor is a word with a capital after its first letter, an identifier such as a lab test or a gene
    # ("HbA1c", "SpO2", "IgG4")
    letters = sum(ch.isalpha() for ch in word)
    contraction = match.string.startswith("'t", match.end())
    if ((letters >= 3 or contraction) and letters > len(word) - letters and _LEET_INSIDE.search(word)
            and not match.string[max(0, match.start() - 1):match.start()] == "\\" and not _FUNCTION_THEN_DIGIT.match(word)
            and not any(ch.isupper() for ch in word[1:])):
        return plain
    return word


_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})", re.MULTILINE)
_QUOTE_LINE = re.compile(r"^[ ]{0,3}>[^\n]*(?:\n|$)", re.MULTILINE)


def block_quotes(text: str) -> str:
    """The words of the markdown block quotes (``> ...`` lines) of a text already normalised and without comments,
    their markers dropped, one line each: the passages :func:`visible_text` sets aside as someone else's words."""
    return "".join(_QUOTE_MARKER.sub("", m.group()) for m in _QUOTE_LINE.finditer(text)) if ">" in text else ""


_QUOTE_MARKER = re.compile(r"^[ ]{0,3}(?:>[ ]?)+")


def _fences(text: str):
    """Each fenced block in order: its opening match, where its opening line ends (-1: the text ends on it) and its
    closing match (None: it never closes, and it is the last)."""
    position = 0
    while (opening := _FENCE.search(text, position)) is not None:
        marker = opening.group(1)
        line_end = text.find("\n", opening.end())
        closing = re.compile(rf"^[ ]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ ]*$", re.MULTILINE)
        close = closing.search(text, line_end + 1) if line_end >= 0 else None
        yield opening, line_end, close
        if close is None:
            return
        position = close.end()


def _drop_fences(text: str) -> str:
    """Fenced code blocks removed, but a closed ``json`` block: a record, the writer's
    structured answer; a fence that never closes hides the rest (a markdown renderer shows it as code)."""
    if "```" not in text and "~~~" not in text:
        return text
    spans = ((opening.start(), None if close is None else close.end()) for opening, line_end, close in _fences(text)
             if close is None or not RECORD_FENCE_INFO.fullmatch(text, opening.end(), line_end))  # a record is no code (holdout77)
    return _without_spans(text, spans, "\n")


# what a reader must click or squint to see is not the writer's stated answer (read only when nothing else answers):
# a spoiler ">!...!<" (on one line), a collapsed "<details>" block, "{\\tiny ...}" text
_TINY = re.compile(r"\{\\(?:tiny|scriptsize|footnotesize)\b[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\\(?:tiny|scriptsize|footnotesize)\b[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*")


_SMALL_GROUP = re.compile(r"\\(?:tiny|scriptsize|footnotesize)\s*\{")


def _drop_small_groups(text: str) -> str:
    """``\\footnotesize{\\boxed{42}}`` removed with its whole brace group (nested braces matched, one pass)."""
    return _drop_brace_groups(text, _SMALL_GROUP)


def _drop_between(text: str, opening: str, closing: str, line: bool) -> str:
    """``text`` without every span from ``opening`` to ``closing`` (on the same line when ``line``); one that never
    closes is left. Linear: a line (or the text) without a closing is searched once."""
    parts, position = [], 0
    lowered = text.lower()
    while (start := lowered.find(opening, position)) >= 0:
        limit = len(text)
        if line and (line_end := text.find("\n", start)) >= 0:
            limit = line_end
        end = lowered.find(closing, start + len(opening), limit)
        if end < 0:  # no span closes on this line (or at all): every later opening is searched past it, never again
            if not line:
                break
            parts.append(text[position:limit])
            position = limit
            continue
        parts.append(text[position:start] + " ")
        position = end + len(closing)
    parts.append(text[position:])
    return "".join(parts)


def _drop_set_aside(text: str) -> str:
    if ">!" in text:
        text = _drop_between(text, ">!", "!<", line=True)
    if "<details" in text.lower():
        text = _drop_between(text, "<details", "</details>", line=False)
    if "\\tiny" in text or "\\scriptsize" in text or "\\footnotesize" in text:
        text = _TINY.sub(" ", _drop_small_groups(text))
    if "<small" in text.lower():
        text = _drop_between(text, "<small", "</small>", line=False)
    if "<su" in text.lower() or "^{" in text or "_{" in text:
        text = _drop_detached_scripts(text)
    return text


# a sub- or superscript attached to nothing is small print, not an index or a power (holdout8): "The answer is
# \\boxed{41}. <sub>\\boxed{42}</sub>", "$x = 3$. $^{\\boxed{5}}$"; "x<sup>2</sup>" and "(x+1)^{2}" keep theirs
_DETACHED_HTML_SCRIPT = re.compile(r"(?:(?<=[\s.,;:!?])|(?<![\s\S]))<(su[bp])\b[^<>]{0,100}>", re.IGNORECASE)
_DETACHED_LATEX_SCRIPT = re.compile(r"(?:(?<=[\s$])|(?<![\s\S]))[\^_]\{(?=\s*\\boxed)")


def _drop_detached_scripts(text: str) -> str:
    parts, position = [], 0
    while (opening := _DETACHED_HTML_SCRIPT.search(text, position)) is not None:
        closing = re.compile(rf"</{opening.group(1)}\s*>", re.IGNORECASE).search(text, opening.end())
        if closing is None:
            break
        parts.append(text[position:opening.start()] + " ")
        position = closing.end()
    parts.append(text[position:])
    text = "".join(parts)
    return _drop_brace_groups(text, _DETACHED_LATEX_SCRIPT) if "\\boxed" in text else text


@memoized_text(max_chars=1 << 20, maxsize=8)  # (speed: the math verifier's last checks of a row read it twice, one after the other)
def visible_text(text: str, code: bool = False) -> str:
    """What a reader takes as the writer's own words (steps 1-3): normalised, without comments, fenced code (kept
    when ``code``), block quotes and footnote definitions."""
    return _visible_part(uncommented_text(text, not code), code)


def uncommented_text(text: str, collapse_space: bool = True, answer_reading: bool = False) -> str:
    """``without_comments(normalise(text, collapse_space, answer_reading))`` with the writer's LaTeX macros expanded in
    prose (:mod:`.latex_macros`), steps 1-2 of a reading: the answer
    views and the visible text (read again by the structure and verdict readings of the same completion) both start
    from it. ``answer_reading`` changes :func:`normalise` only where its text holds a right-to-left override (U+202E,
    written as itself or as an HTML entity, which normalise renders first: the runs it reverses are read in their shown
    order too), so for every other text both readings are one and share their memory (speed only)."""
    if answer_reading and ("\u202e" in text or "&" in text):
        return _rendered_macros(without_comments(normalise(text, collapse_space=collapse_space, answer_reading=True)), collapse_space)
    return _uncommented(text, collapse_space)


@memoized_text(max_chars=1 << 20, maxsize=8)  # (speed: answer_views and visible_text read each completion alike)
def _uncommented(text: str, collapse_space: bool) -> str:
    return _rendered_macros(without_comments(normalise(text, collapse_space=collapse_space)), collapse_space)


def _rendered_macros(text: str, prose: bool) -> str:
    """Prose with the writer's own LaTeX macros expanded where they are used (:mod:`.latex_macros`); code as written."""
    return expanded_macros(text) if prose else text


def _visible_part(text: str, code: bool) -> str:
    """Step 3 of :func:`visible_text` on a text already normalised and without comments."""
    text = _drop_set_aside(text)
    if not code:
        text = _drop_fences(text)
    if ">" in text:
        text = _QUOTE_LINE.sub("\n", text)
    if "[^" in text:
        text = inline_footnotes(text)
    return text


# a bare web address is where something is, not what the writer says: "see https://x.org/answer-B" names no option
_BARE_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()\[\]]*", re.IGNORECASE)
# a tool call is input to a tool, its result the tool's output: neither is the writer's answer, unless the tool called
# is the one that submits the answer ({"name": "submit_answer", ...})
_TOOL_BLOCK = re.compile(r"<(tool_call|tool_result|tool_response|function_call|observation)>", re.IGNORECASE)
_ANSWER_TOOL = re.compile(r'"(?:name|tool|function)"\s*:\s*"[^"]{0,40}(?:' + ANSWER_TOOL_NAME.pattern + ")", re.IGNORECASE)


# a tool call written as bare JSON, with no tags around it ({"name": "calculator", "arguments": {...}}; holdout27)
_BARE_TOOL_CALL = re.compile(r'\{\s*"name"\s*:\s*"[^"\n]{1,60}"\s*,\s*"(?:arguments|parameters)"\s*:\s*\{[^{}]{0,2000}\}\s*\}')
# an answer tag with attributes ('<answer type="final">') and a final-answer tag of another name ("<final>210</final>")
_ANSWER_TAG_WITH_ATTRIBUTES = re.compile(r"<answer\s+[^<>\n]{1,200}>", re.IGNORECASE)
_FINAL_TAG = re.compile(r"<(final|final_answer|finalanswer)>(.*?)</\1>", re.IGNORECASE | re.DOTALL)


# an answer label typeset as text inside math ("$\\text{Answer: } 6$", "$\\textbf{Final answer: } 720^\\circ$",
# "$\\text{Answer: E}$"), or as LaTeX text outside math ("\\textbf{Answer:} $x = \\sqrt{2}$", holdout93): the label it shows
_LABEL_IN_TEXT = re.compile(r"(?:(?P<open>\$+)\s*)?\\(?:text|textbf|textit|textrm|textsf|emph|underline|mathrm|mathbf|mbox)\s*\{\s*(?P<label>(?:" + ANSWER_HEADING_WORDS + r")\s*:)\s*(?P<rest>[^{}\n]{0,40}?)\s*\}"
                            r"(?P<close>\s*\$+)?", re.IGNORECASE)
# speed only (issue #35, stop 61): searched where the text holds one of the pattern's sets of words (same results)
_LABEL_IN_TEXT = prefiltered(_LABEL_IN_TEXT, remember=True)


# a text-mode argument that only re-enters math ("$\\colorbox{yellow}{$25\\pi$}$", "$\\text{$x = 5$}$", "\\fbox{$3$}"):
# it shows that math, and its inner dollars would pair with the outer ones (holdout120); read without them
_MATH_IN_TEXT_ARGUMENT = re.compile(r"(\\[A-Za-z]+(?:\{[^{}$\n]{0,20}\}){0,2}[^\S\n]*)\{[^\S\n]*\$([^$\n]{1,200}?)\$[^\S\n]*\}")


def _label_out_of_math(found: re.Match) -> str:
    """The label before the math, the value after it in the math: "$\\text{Answer: } 6$" -> "Answer: $ 6$",
    "$\\text{Answer: E}$" -> "Answer: E"."""
    if found.group("rest") and found.group("close"):
        return f"{found.group('label')} {found.group('rest')}"
    return f"{found.group('label')} {found.group('open') or ''}{found.group('rest')}{found.group('close') or ''}"


def _plain_answer_tags(text: str) -> str:
    """``<answer ...attributes>`` read as ``<answer>``; a ``<final>`` block read as the answer block when there is no
    other (holdout27), or when every other lies inside an element of work set aside (:func:`_answers_in_work`)."""
    if "<answer " in text.lower():
        text = _ANSWER_TAG_WITH_ATTRIBUTES.sub("<answer>", text)
    if "<answer>" in text.lower() and _FINAL_TAG.search(text):
        text = _answers_in_work(text)
    if "<answer>" not in text.lower() and _FINAL_TAG.search(text):
        text = _FINAL_TAG.sub(lambda block: f"<answer>{block.group(2)}</answer>", text)
    return text


# an element that holds work set aside, not the answer: a draft, a scratchpad, an attempt, a rejected candidate (holdout112)
_WORK_ELEMENT = re.compile(r"<(draft|scratch(?:pad)?|rejected|discarded|attempt|working|notes?)>(.*?)</\1>", re.IGNORECASE | re.DOTALL)
_ANSWER_TAG = re.compile(r"</?answer>", re.IGNORECASE)


def _answers_in_work(text: str) -> str:
    """``text`` with the answer tags inside an element of work set aside (:data:`_WORK_ELEMENT`) read as plain work,
    when a final-answer element stands outside every such element (holdout112): ``<scratchpad> 240 / 15 = 16
    <answer>16</answer> </scratchpad> <final_answer>17</final_answer>`` answers 17, and ``<rejected><answer>9
    </answer></rejected> <final>8</final>`` answers 8, as ``<draft><answer>40</answer></draft> <final>42</final>``
    answers 42. An answer tag outside such elements keeps the text as it is (two answer blocks, read as before)."""
    spans = [(work.start(), work.end()) for work in _WORK_ELEMENT.finditer(text)]
    if not spans or any(not any(start <= tag.start() < end for start, end in spans) for tag in _ANSWER_TAG.finditer(text)):
        return text
    if not any(not any(start <= final.start() < end for start, end in spans) for final in _FINAL_TAG.finditer(text)):
        return text
    return _WORK_ELEMENT.sub(lambda work: f"<{work.group(1)}>{_ANSWER_TAG.sub(' ', work.group(2))}</{work.group(1)}>", text)


def _drop_tool_traffic(text: str) -> str:
    """``text`` without tool calls (except one that submits the answer) and tool results: two literal searches a block."""
    for tag in {match.group(1).lower() for match in _TOOL_BLOCK.finditer(text)}:
        parts, position = [], 0
        for start, end, body in tag_blocks(text, tag, ignore_case=True):
            parts.append(text[position:start])
            parts.append(body if tag in ("tool_call", "function_call") and _ANSWER_TOOL.search(body) else "\n")
            position = end
        parts.append(text[position:])
        text = "".join(parts)
    return text


def answer_views(text: str, code: bool = False) -> tuple[str, ...]:
    """The readings of ``text`` an answer reader tries in order (module docstring): the visible text, then (when it
    differs) the text with only the comments removed. Both are normalised; neither holds a bare web address
    or a tool call's traffic (except a call that submits the answer)."""
    uncommented = uncommented_text(text, not code, True)  # (the visible text's first steps: read once a completion)
    if not code:
        if "://" in uncommented or "www." in uncommented.lower():
            uncommented = _BARE_URL.sub(" ", uncommented)
        if "<" in uncommented and _TOOL_BLOCK.search(uncommented):
            uncommented = _drop_tool_traffic(uncommented)
        uncommented = submitted_calls(uncommented)  # a submitted call is its arguments' record (records.py)
        if '"name"' in uncommented:
            uncommented = _BARE_TOOL_CALL.sub(lambda call: call.group() if _ANSWER_TOOL.search(call.group()) else "\n", uncommented)
        if "<" in uncommented:
            uncommented = _plain_answer_tags(uncommented)
        uncommented = closed_final_box(uncommented)  # "The answer is \\boxed{\\frac{1}{2}" cut off at the end (broken_markup.py)
        uncommented = shown_markdown(tabular_as_markdown(uncommented))  # a LaTeX tabular is a markdown table (holdout59), read as rendered
        uncommented = template_fields(uncommented)  # "Answer: 102 | Correct?: Yes | Check: ..." read as its fields (holdout112)
        if "{$" in uncommented:
            uncommented = _MATH_IN_TEXT_ARGUMENT.sub(r"\1{\2}", uncommented)
        if "\\" in uncommented and _LABEL_IN_TEXT.search(uncommented):
            uncommented = _LABEL_IN_TEXT.sub(_label_out_of_math, uncommented)
    if not uncommented.isascii() and SUPERSCRIPT_NOTE.search(uncommented) is not None:
        uncommented = superscript_footnotes(uncommented)
    if not code:
        uncommented = answer_part(uncommented)  # not a made-up next question, not a loop's cut-off round (turns.py)
    visible = _visible_part(uncommented, code)  # visible_text(text, code), without normalising the text twice
    if uncommented == visible:
        return (visible,)
    if "[^" in uncommented:
        uncommented = notes_at_markers(without_quiet_notes(uncommented))  # a note read at its marker (holdout96)
    return visible, (_without_code_remarks(uncommented) if not code and "#" in uncommented else uncommented)


# a remark after "#" at the end of a line of fenced code ("answer = 120  # 5! = 5·4·3·2·1") or on a line of its own ("# merge
# sort keeps equal keys -> 'C'" above "answer = 'A'"; stop 52): the code is read without it, as a reader reads past a
# comment; a remark that disputes anything ("# wrong, it's 45") stays and is read
_CODE_REMARK = re.compile(r"(?:[ \t]+|^[ \t]*)#[ \t]([^\n]*)", re.MULTILINE)


def _without_code_remarks(text: str) -> str:
    parts, position = [], 0
    for _, line_end, close in _fences(text):
        if line_end < 0:
            break
        stop = close.start() if close is not None else len(text)
        parts.append(text[position:line_end])
        parts.append(_CODE_REMARK.sub(lambda remark: remark.group() if dissents(remark.group(1)) else "", text[line_end:stop]))
        position = stop  # (the closing fence is copied with the text before the next block)
    parts.append(text[position:])
    return "".join(parts)
