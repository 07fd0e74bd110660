"""What an answer's form says besides a plain value: words, a lettered choice, a list of values (pure Python, main process).

* :func:`word_answer` -- a word answer ("Paris", ``\\text{odd}``, "one half"), lower-case with single spaces;
* :func:`textual_meaning` -- "infinitely many (solutions)", "infinite" and ``\\infty`` state the same thing, and so do
  "no (real) solution(s)", "none", "the empty set", ``\\emptyset`` and ``\\{\\}``, and "all real numbers", "every
  real number", ``(-\\infty, \\infty)`` and ``\\mathbb{R}`` (the whole real line): a gold in one of these forms
  accepts the others (the trailing noun does not change the statement);
* :func:`lettered_choice` -- the one lettered choice a math answer is or starts with (``\\textbf{(B) } 12``);
* :func:`option_label` -- that choice's letter and the value written beside it (AMC's ``\\textbf{(C)}\\ 210``), and
  :func:`prompt_options` -- the options a math prompt lists (on lines of their own or AMC's one line of ``\\textbf``);
* :func:`several_values` -- an answer that lists two or more values at its top level (``41, 42``,
  ``42\\text{ cm}, 43\\text{ cm}``): a candidate list where the gold is one number.

Each reads the answer through its formatting first (:func:`~polyreward.verifiers.math_notation.read_through`).
Reconstructed rules (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.closing_remarks import magnitude
from polyreward.verifiers.commitment import hedged, negated
from polyreward.verifiers.math_canonical import canonical, split_top
from polyreward.verifiers.math_notation import read_through
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.options import options_in_prompt
from polyreward.verifiers.regex_scan import WHITE_SPACE
from polyreward.verifiers.remark_values import nearest_place_agrees

LETTERS = "ABCDEFGHIJ"

_TEXT_WRAPPER = re.compile(r"\\(?:text|textbf|textit|mathrm|mbox|operatorname)\s*\{([^{}]*)\}")
_NOT_WORDS = {"pi", "sqrt", "frac", "dfrac", "infty", "inf", "oo", "sin", "cos", "tan", "log", "ln", "exp", "mod", "and", "or"}


def word_answer(text: str) -> str | None:
    """``text`` as a word answer ("Paris", "one half", ``\\text{odd}``), lower-case with single spaces, or None
    when it is math (a number, a variable, a command, an expression)."""
    plain = _TEXT_WRAPPER.sub(r"\1", text).strip().strip(".")
    if not re.fullmatch(r"[A-Za-z][A-Za-z .,'\-]*", plain) or len(plain) > 200:
        return None
    words = re.findall(r"[A-Za-z]+", plain.lower())
    if not any(len(w) >= 3 and w not in _NOT_WORDS for w in words):
        return None
    return " ".join(words)


# "infinitely many (solutions)" and "no solution" / "none" said in words or symbols; the trailing noun does not
# change the statement ("infinitely many" = "infinitely many solutions" = \infty where the gold says so)
_COUNTED_NOUNS = {"solution", "solutions", "value", "values", "root", "roots", "answer", "answers", "pair", "pairs",
                  "number", "numbers", "integer", "integers", "point", "points", "way", "ways", "real", "such", "possible"}
_INFINITE_WORDS = {"infinitely many", "infinite", "infinity", "infinitely", "an infinite number of", "infinite number of",
                   "infinitely many real"}
_EMPTY_WORDS = {"none", "empty set", "the empty set", "empty"}
# the whole real line: "all real numbers" in words, (-\\infty, \\infty) or \\mathbb{R} in symbols (holdout85)
_EVERY_WORDS = {"all", "every", "any", "all the", "the set of all", "set of all", "x is any", "x can be any"}
_REAL_LINE = re.compile(r"\A(?:[A-Za-z]\s*\\in\s*)?(?:\\left\s*)?\(\s*-\s*\\infty\s*,\s*\+?\s*\\infty\s*(?:\\right\s*)?\)\Z"
                        r"|\A(?:[A-Za-z]\s*\\in\s*)?\\mathbb\s*\{?\s*R\s*\}?\Z")
_SYMBOLS = {"\\infty": "infinite", "+\\infty": "infinite", "\\emptyset": "empty", "\\varnothing": "empty", "\\{\\}": "empty",
            "\\{ \\}": "empty", "\\o": "empty"}


def textual_meaning(text: str) -> str | None:
    """``"infinite"`` for "infinitely many (solutions)", "infinite", ``\\infty``; ``"empty"`` for "no (real)
    solution(s)", "none", "the empty set", ``\\emptyset``, ``\\{\\}``; ``"real line"`` for "all real numbers", "every
    real number", "all reals", ``(-\\infty, \\infty)``, ``\\mathbb{R}``, ``x \\in \\mathbb{R}``; else None."""
    symbol = _SYMBOLS.get(text.strip().strip("$").strip())
    if symbol is not None:
        return symbol
    if _REAL_LINE.search(text.strip().strip("$").strip()):
        return "real line"
    words = word_answer(text)
    if words is None:
        return None
    tokens = words.split()
    if tokens[:2] in (["there", "are"], ["there", "is"]):
        tokens = tokens[2:]
    counted = False
    while tokens and tokens[-1] in _COUNTED_NOUNS:
        tokens, counted = tokens[:-1], True
    core = " ".join(tokens)
    if core in _INFINITE_WORDS:
        return "infinite"
    if core in _EMPTY_WORDS or (core == "no" and counted):
        return "empty"
    if core in _EVERY_WORDS and "real" in words.split() or core in ("all reals", "the reals", "every real"):
        return "real line"  # "all real numbers", "every real number", "all reals", "any real value"
    return None


_DECIMAL_COMMA = re.compile(r"[-+]?0,\d+")  # "0,111" cannot be a thousands group: a decimal comma, one value
_WORD_LIST = re.compile(r"\b(?:or|and)\b")


@memoized_text()
def several_values(text: str) -> bool:
    """Does the answer (read through its formatting) list two or more values at its top level (``41, 42``,
    ``42\\text{ cm}, 43\\text{ cm}``, ``42 and 43``)? A tuple, interval or set in brackets is one value."""
    shown = read_through(text)
    if _DECIMAL_COMMA.fullmatch(shown):
        return False
    parts = [part for piece in split_top(shown, ",") for part in split_top(piece, ";")]
    parts = [word_part for part in parts for word_part in _WORD_LIST.split(part)]
    return sum(1 for part in parts if part.strip()) >= 2


def lettered_choice(text: str, letters: str = LETTERS) -> str | None:
    """The one lettered choice a math answer is or starts with: ``(B)``, ``\\text{(B)}``, ``\\textbf{(B) } 12``,
    ``(C) \\frac{1}{2}``, ``B) 12``, ``D. 7`` -> the letter; None when there is none or the answer names two (``(A) 3 (B) 12`` is a hedge)."""
    shown = read_through(text)
    if len(shown) == 1:
        return shown if shown in letters else None  # "(B)", "\\text{(B)}", "B"
    match = _LETTER_LEAD.match(shown)
    letter = (match.group(1) or match.group(2)) if match else None
    if letter is None or letter not in letters:
        return None
    named = {m.group(1) or m.group(2) for m in _LETTER_LABEL.finditer(shown)}
    return letter if named == {letter} else None


_LETTER_LEAD = re.compile(r"\s*(?:\(([A-J])\)|([A-J])[.:)])(?=\s|$)")
_LETTER_LABEL = re.compile(r"\(([A-J])\)|(?<![A-Za-z\\])([A-J])[.:)](?=\s|$)")
_OPTION_LETTER = re.compile(r"[A-J]")
# the option label an answer opens with, in its own markup, and the spacing after it: "(B) ", "\textbf{(C)}\ ",
# "\textbf{(B) } ", "**(A)** ", "B) ", "$\text{(D)}$ "
_LABEL_IN_MARKUP = re.compile(r"\s*\$?\s*(?:\*\*)?(?P<wrap>\\(?:textbf|text|mathbf|mathrm)\s*\{\s*)?(?:\([A-J]\)|[A-J][.:)])\s*"
                              r"(?(wrap)\}?)(?:\*\*)?\s*\$?(?:\s|\\[ ,;:!]|~|\\q?quad(?![A-Za-z]))*")


def option_label(text: str) -> tuple[str, str] | None:
    """The letter of the one option label a math answer opens with and the value written after it, ``""`` when the
    label stands alone: ``(B) 5``, ``\\textbf{(C)}\\ 210``, ``(A) $(-2, 2)$`` -> (letter, value); ``(B)`` -> ("B", "").
    An AMC-style answer labels its value with the option's letter, so the value is what is graded (the letter is
    checked against the prompt's options where it lists them: :func:`prompt_options`). None when the answer opens
    with no label or names two (``(A) (-2, 2) and (B) (0, 2)`` is two answers, :func:`lettered_choice`)."""
    if _OPTION_LETTER.search(text) is None:  # (speed: no letter that could label an option, nothing to read)
        return None
    letter = lettered_choice(text)
    lead = _LABEL_IN_MARKUP.match(text) if letter is not None else None
    if lead is None:
        return None
    value = text[lead.end():].strip()
    if lead.group("wrap") and value.count("}") > value.count("{"):
        value = value[:value.rindex("}")] + value[value.rindex("}") + 1:]  # "\textbf{(C) 210}": the wrapper holds both
    value = value.strip().strip("$*").strip()
    return letter, value


def prompt_options(prompt: str) -> dict[str, str]:
    """The options a math prompt lists, {letter: value}: on lines of their own (``(A) 13``, ``A. 1``) or, read through
    their markup, in a run on one line (AMC's ``$\\textbf{(A)}\\ 16\\qquad\\textbf{(B)}\\ 17 ...$``); ``{}`` when none."""
    if _OPTION_MARK.search(prompt) is None:  # (speed: no bracket and no line that opens with "A." or "A:")
        return {}
    options = options_in_prompt(prompt) or options_in_prompt(read_through(prompt))
    return {letter: value.strip().strip("$").strip() for letter, value in options.items()}


_OPTION_MARK = re.compile(r"[()]|^[ \t]*A[.:]", re.MULTILINE)
# an option's letter that closes the last line of a math answer, read through its markup: "x = 6. (C)", "**(C)**",
# "1/8, choice (D).", "answer: (c)", "x = 3 → C", "roots 2 and 3; answer B", "$\\boxed{\\textbf{(B)}}$"
_LETTER_IN_MARKUP = re.compile(r"\\(?:boxed|textbf|text|mathbf|mathrm)\s*\{\s*(\([A-Ja-j]\)|[A-Ja-j])\s*\}")
_CLOSING_LETTER = re.compile(r"(?:\A|(?<=[\s,;:.]))(?P<word>(?:(?:the|my)\s+)?(?:final\s+)?(?:answer|choice|option)(?:\s+is)?\s*:?\s*)?"
                             r"(?:\((?P<bracketed>[A-Ja-j])\)|(?P<bare>[A-Ja-j]))[^\S\n]*[.!]?[^\S\n]*\Z", re.IGNORECASE)
_ARROW_BEFORE = re.compile(r"(?:→|->|=>|⇒|\\(?:Rightarrow|to|implies)(?![A-Za-z]))\s*\Z")
# where a value written after "=" ends: a comma, a semicolon, a full stop, an arrow, or a word after a space
_VALUE_END = re.compile(r"[,;]|\.(?=\s|\Z)|→|->|=>|⇒|\s(?=[^\W\d_]{2,})")

# what may stand between that value and the letter: punctuation, an arrow and the words that join a value to its label
_CONNECTIVES = re.compile(r"(?:[\s,;.:]|→|->|=>|⇒|\\(?:Rightarrow|to|implies)(?![A-Za-z])|i\.\s?e\.|\b(?:so|thus|hence|therefore|which|that|is|"
                          r"the|my|final|answer|choice|option|correct|gives?)\b)*", re.IGNORECASE)


def closing_letter(completion: str) -> tuple[str, str] | None:
    """The option letter that closes a math answer's last line, upper-cased, and the value that line states for it
    right before (the right side of its last ``=``, up to a comma, a stop, an arrow or a word; ``""`` when it states
    none): ``x = 6. (C)`` -> ("C", "6"), ``**(C)**`` -> ("C", ""), ``x = 3 → C`` -> ("C", "3"). The letter is one in
    brackets, a line that is only the letter, or one after an arrow or an answer word ("answer: (c)", "choice (D)",
    "answer B"); a lower-case letter is read in brackets or after an answer word only ("the constant c" is no
    option). None when the last line ends on no such letter. The caller reads it through the prompt's options."""
    lines = [line for line in completion.strip().splitlines() if line.strip()]
    if not lines:
        return None
    line = _LETTER_IN_MARKUP.sub(r"\1", _LETTER_IN_MARKUP.sub(r"\1", lines[-1]))  # (twice: "\\boxed{\\textbf{(B)}}")
    line = line.replace("**", "").replace("__", "").replace("$", "").rstrip()
    if not may_close_on_letter(line):
        return None
    match = _CLOSING_LETTER.search(line[-120:])
    if match is None:
        return None
    before = line[:len(line) - len(line[-120:]) + match.start()]
    letter = match.group("bracketed") or match.group("bare")
    if match.group("bare") and not (match.group("word") or _ARROW_BEFORE.search(before) or not before.strip()):
        return None  # "... the constant C", "x + C": a letter in the prose, not a label
    if match.group("bare") and letter.islower() and not match.group("word"):
        return None
    at = len(line) - len(line[-120:]) + match.start("bracketed" if match.group("bracketed") else "bare")
    if negated(line, at, at + 1) or hedged(line, at, at + 1):
        return None  # "So the answer is not (C).", "maybe (B)": no letter chosen
    rest = before.rpartition("=")[2].strip() if "=" in before else ""
    value = _VALUE_END.split(rest, maxsplit=1)[0].strip() if rest else ""
    if value and not _CONNECTIVES.fullmatch(rest[rest.index(value) + len(value):]):
        value = ""  # "(x-2)(x-3) = 0, roots 2 and 3; answer B": the clause after "= 0" states other things
    return letter.upper(), value


# what ``[A-Ja-j]`` matches ignoring case, as ``re`` does: the ten letters of either case, and "İ" and "ı" (for "i")
_OPTION_LETTERS = frozenset("ABCDEFGHIJabcdefghij\u0130\u0131")
_SPACE_IN_LINE = WHITE_SPACE.replace("\n", "")  # what [^\S\n] matches


def may_close_on_letter(line: str) -> bool:
    """False only where :data:`_CLOSING_LETTER` finds nothing at the end of ``line`` (speed: its search tries each of
    the last 120 positions; this looks at the last few characters). Exact: every match ends the line with the letter,
    or the letter and ")", then white space other than a line break, at most one "." or "!", and white space again; so
    without that white space, its "." or "!" and the white space before, the line ends with the letter or its ")"."""
    end = line.rstrip(_SPACE_IN_LINE)
    end = end[:-1].rstrip(_SPACE_IN_LINE) if end[-1:] in (".", "!") else end
    end = end[:-1] if end[-1:] == ")" else end
    return end[-1:] in _OPTION_LETTERS


_APPROXIMATION_WORD = re.compile(r"approx|about|≈|~|roughly|around|nearly")  # (speed: none of them, nothing to read)
# an approximation of the answer written right after it: "\boxed{2\sqrt{3}} (approximately 2.83)", "9\pi (about 28.3)"
_APPROXIMATION_AFTER = re.compile(r"\A[\s$*}\])]*[(,;]?\s*(?:i\.e\.,?\s*|that\s+is,?\s*)?(?:approximately|approx\.?|about|roughly|around|nearly|"
                                  r"≈|~|\\approx)\s*\$?\s*(-?\d+(?:\.\d+)?)(?![\d.]*\s*(?:%|percent|times|×|\\times))", re.IGNORECASE)


def approximation_disagrees(answer: str, completion: str) -> bool:
    """Is the answer followed, where it is last written, by an approximation that is not its value rounded or cut
    to the places shown ("\\boxed{2\\sqrt{3}} (approximately 2.83)": 2\\sqrt{3} is 3.46; holdout45)? Only answers of
    the shape q·√s·π^k are valued (:func:`~polyreward.verifiers.math_canonical.canonical`, their value by
    :func:`~polyreward.verifiers.closing_remarks.magnitude`); others are not read."""
    if _APPROXIMATION_WORD.search(completion) is None:
        return False
    form = canonical(answer)
    value = magnitude(answer) if form is not None and form[0] == "surd" else None
    at = max(completion.rfind("\\boxed"), completion.rfind(answer))
    if value is None or at < 0:
        return False
    written = completion.find(answer, at)
    end = written + len(answer) if written >= 0 else completion.find("}", at) + 1
    stated = _APPROXIMATION_AFTER.match(completion[end:end + 80])
    if stated is None:
        return False
    rounded = nearest_place_agrees(completion[end + stated.end():end + stated.end() + 40], float(stated.group(1)), value)
    if rounded is not None:
        return not rounded  # "47 (about 50 to the nearest ten)": the answer rounded as it says
    places = len(stated.group(1).partition(".")[2])
    return abs(value - float(stated.group(1))) > 10 ** -places + 1e-9
