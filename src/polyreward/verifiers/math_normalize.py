"""Cheap, pure-Python normalisation of extracted math answers (no sympy, runs in the main process).

Three jobs:

* :func:`normalize_answer` turns what a model wrote (unicode symbols, full-width digits, markdown bold,
  python syntax such as ``x**2 + 3*x``, currency, trailing punctuation) into LaTeX that math-verify's
  parser reads. Model output is never ``eval``-ed or ``sympify``-ed: python operators are rewritten as
  text.
* :func:`parse_numeral` reads plain numbers (``-1,234.5``, ``3/4``, ``\\frac{3}{4}``, ``75\\%``,
  ``18 apples``, repeating decimals ``0.\\overline{3}`` ``0.(3)`` ``0.\\dot{3}``) as exact :class:`fractions.Fraction`
  values, so the common case (GSM8K-style numeric answers) is decided without starting sympy at all.
* :func:`~polyreward.verifiers.math_size.size_problem` (re-exported here) refuses inputs whose value would be
  astronomically large before sympy sees them.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from polyreward.verifiers.math_size import size_problem  # noqa: F401 (public here too)
from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.number_locale import scientific
from polyreward.verifiers.units import COMPOUND_UNIT


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿ", "0123456789+-()n")
_UNICODE_SYMBOLS = {
    "−": "-", "–": "-", "—": "-", "‒": "-", "﹣": "-", "－": "-",
    "×": r" \times ", "✕": r" \times ", "⋅": r" \cdot ", "·": r" \cdot ", "∙": r" \cdot ",
    "÷": r" \div ", "π": r"\pi ", "∞": r"\infty ", "≤": r" \le ", "≥": r" \ge ",
    "≠": r" \ne ", "±": r"\pm ", "°": r"^\circ", "∈": r" \in ", "∪": r" \cup ", "∩": r" \cap ",
    "\u2009": " ", "\u202f": " ", "\u00a0": " ", "\u2044": "/", "\u2215": "/",
    # a Greek letter used as a variable or an angle is its LaTeX command, so "θ = π/4 or θ = 5π/4" names one variable
    # as "x = ..." does (holdout85); μ stays (a unit prefix: μm)
    **{char: "\\" + name + " " for char, name in zip("αβγδθϑφϕψωλ", ("alpha", "beta", "gamma", "delta", "theta", "theta", "phi", "phi", "psi", "omega", "lambda"))},
    # a vector's angle brackets (holdout85): \langle ... \rangle, read as the vector's tuple (_ANGLE_VECTOR); reading.normalise
    # maps them in the completion too (ANGLE_BRACKETS)
    "\u27e8": r"\langle ", "\u27e9": r" \rangle ", "\u2329": r"\langle ", "\u232a": r" \rangle ",
}
ANGLE_BRACKETS = {ord(char): _UNICODE_SYMBOLS[char] for char in "\u27e8\u27e9\u2329\u232a"}
_VULGAR_FRACTIONS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅛": "1/8"}
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿ]+")
# subscript digits right after a numeral name its base ("101₂", "13₁₀"): NFKC would glue them to it ("1012", "1310"),
# so they are written as LaTeX's subscript first ("101_{2}", "13_{10}"), which the math reader reads (holdout96); a
# subscript after a letter is an index or a formula's count ("x₁", "H₂O") and is left to NFKC
_BASE_SUBSCRIPT = re.compile("(?<=[0-9])[₀₁₂₃₄₅₆₇₈₉]+")


def subscript_bases(text: str) -> str:
    """``text`` with each run of subscript digits right after a digit written ``_{digits}`` (:data:`_BASE_SUBSCRIPT`)."""
    if not any("₀" <= char <= "₉" for char in text):
        return text
    return _BASE_SUBSCRIPT.sub(lambda run: "_{" + run.group().translate(_SCRIPT_DIGITS) + "}", text)


_ROOTS = {"√": "\\sqrt", "∛": "\\sqrt[3]", "∜": "\\sqrt[4]"}
_ROOT_OPERAND = re.compile(r"[^\S\n]*(?:(\()|(\{)|(\d+(?:\.\d+)?|[A-Za-zπ](?![A-Za-z])|\\[A-Za-z]+))")


def bracket_pairs(text: str, open_char: str = "(", close_char: str = ")") -> dict[int, int]:
    """Index of each ``open_char`` -> index of the ``close_char`` matching it (unbalanced ones left out), in one
    pass with a stack: linear however deeply or badly the brackets nest (a scan per bracket is quadratic)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i, char in enumerate(text):
        if char == open_char:
            stack.append(i)
        elif char == close_char and stack:
            pairs[stack.pop()] = i
    return pairs


_SCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉", "01234567890123456789")
_SCRIPT_FRACTION = re.compile("([⁰¹²³⁴⁵⁶⁷⁸⁹]+)[⁄/]([₀₁₂₃₄₅₆₇₈₉0-9]+)")
_VULGAR = re.compile("[" + "".join(_VULGAR_FRACTIONS) + "]")
# a currency sign before or after a plain number
# or its ISO 4217 code in capitals, "USD 2,128", "1,500 EUR" (holdout106)
_CURRENCY_CODE = r"(?:USD|EUR|GBP|JPY|CNY|INR|CAD|AUD|CHF|NZD|SGD|HKD|MXN|BRL|KRW|ZAR|SEK|NOK|DKK|RUB)"
_OTHER_CURRENCY = re.compile(r"(?:[€£¥₹₩]|\\euro\b|\\pounds\b|\\yen\b|\b" + _CURRENCY_CODE + r"(?![A-Za-z]))\s*(?=[\d.])"
                             r"|(?<=[\d.])\s*(?:[€£¥₹₩]|\\euro\b|(?<![A-Za-z])" + _CURRENCY_CODE + r"\b)")
_SLASHED_FRACTION = re.compile(r"(\d+)⁄(\d+)")
# a run of superscript digits glued after a letter, a digit or a closing bracket: a power, not a footnote mark
_GLUED_POWER = re.compile(r"(?<=[A-Za-z0-9)\]}])[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]{1,3}(?![⁰¹²³⁴⁵⁶⁷⁸⁹])")
_DOT_TIMES_TEN = re.compile(r"(?<=\d)[^\S\n]*·[^\S\n]*(?=10(?:[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]|\^))")
_UNIT_BEFORE = re.compile(r"\d[ \t]?[A-Za-z]{1,3}\Z")  # "12 cm²", "1,000.99m²": a unit's power, read with the unit


def _as_power(found: re.Match) -> str:
    """A run of superscript characters as the power it writes: "²" -> "^{2}"."""
    return "^{" + found.group().translate(_SUPERSCRIPTS) + "}"


def _power_unless_unit(found: re.Match) -> str:
    return found.group() if _UNIT_BEFORE.search(found.string, max(0, found.start() - 5), found.start()) else _as_power(found)


_PI = re.compile("(?<![\u0370-\u03ff\u1f00-\u1fff])π(?![\u0370-\u03ff\u1f00-\u1fff])")


def unicode_roots(text: str) -> str:
    """``√12`` -> ``\\sqrt{12}``, ``√(x+1)`` -> ``\\sqrt{x+1}``, ``∛27`` -> ``\\sqrt[3]{27}``: a root sign takes its
    whole operand (a number, a letter, a command, a bracket group), so ``√12`` is never ``\\sqrt12`` (= √1·2). A ``π``
    outside a Greek word is ``\\pi`` (holdout18: "The area is 4π." is 4π, not 4); a vulgar fraction ``½`` and a fraction of
    script digits ``⁷⁄₈`` are ``1/2`` and ``7/8`` (holdout21); ``3⁄4`` is ``3/4``, ``×`` is ``\\times``, ``∞`` is ``\\infty`` and superscript
    digits glued to a letter, a digit or a bracket are a power (``x²`` is ``x^{2}``, ``10⁵`` is ``10^{5}``; holdout28)."""
    # (speed: every form read here holds a non-ASCII character -- π, ⁄, script and superscript digits, ½, ×, ∞, √ --: an
    # ASCII text is itself)
    return text if text.isascii() else _unicode_roots(text)


def _unicode_roots(text: str) -> str:
    """:func:`unicode_roots` read the long way (any text)."""
    if "π" in text:
        text = _PI.sub(r"\\pi ", text)
    if "⁄" in text or "/" in text and _SCRIPT_FRACTION.search(text):  # "⁷⁄₈" (or "⁷/8" after NFKC): script digits (holdout21)
        text = _SCRIPT_FRACTION.sub(lambda m: m.group(1).translate(_SCRIPT_DIGITS) + "/" + m.group(2).translate(_SCRIPT_DIGITS), text)
    if any(glyph in text for glyph in _VULGAR_FRACTIONS):  # "½" is 1/2; "2½" is 2 1/2 (holdout21)
        text = _VULGAR.sub(lambda m: (" " if m.start() and text[m.start() - 1].isdigit() else "") + _VULGAR_FRACTIONS[m.group()], text)
    if "⁄" in text:  # "3⁄4" (the fraction slash between plain digits) is 3/4 (holdout28)
        text = _SLASHED_FRACTION.sub(r"\1/\2", text)
    if "×" in text:  # "3.2 × 10⁵" is one product, read as the math reader reads "\\times" (holdout28)
        text = text.replace("×", " \\times ")
    if "·" in text:  # "3.2·10⁻⁴": a middle dot between a number and a power of ten is scientific notation's "×" (holdout63)
        text = _DOT_TIMES_TEN.sub(" \\\\times ", text)
    if "∞" in text:  # "[2, ∞)" (holdout28)
        text = text.replace("∞", "\\infty ")
    if _GLUED_POWER.search(text):  # "x² + 1", "3.2 × 10⁵": a power of what it is glued to (holdout28)
        text = _GLUED_POWER.sub(_power_unless_unit, text)
    if "√" not in text and "∛" not in text and "∜" not in text:
        return text
    pairs: dict[int, int] | None = None
    out: list[str] = []
    closers: set[int] = set()
    i = done = 0
    for i, char in enumerate(text):
        if i < done:
            continue
        if i in closers:
            out.append("}")
            continue
        if char not in _ROOTS:
            out.append(char)
            continue
        command = _ROOTS[char]
        operand = _ROOT_OPERAND.match(text, i + 1)
        if operand is None:
            out.append(command + " ")
        elif operand.group(1):
            pairs = bracket_pairs(text) if pairs is None else pairs
            close = pairs.get(operand.start(1), -1)
            out.append(command + ("{" if close >= 0 else "("))
            if close >= 0:
                closers.add(close)
            done = operand.end()
        elif operand.group(2):
            out.append(command + "{")
            done = operand.end()
        else:
            out.append(command + "{" + operand.group(3) + "}")
            done = operand.end()
    return "".join(out)


def normalize_unicode(text: str) -> str:
    """Map unicode math to ASCII/LaTeX: ``−`` ``×`` ``÷`` ``²`` ``½`` ``√``, full-width digits, NBSP."""
    if text.isascii():
        return text
    text = unicode_roots(text)
    for char, repl in _VULGAR_FRACTIONS.items():
        text = text.replace(char, repl)
    # superscripts first: NFKC would turn "x²" into "x2"
    text = _SUPERSCRIPT_RUN.sub(_as_power, text)
    for char, repl in _UNICODE_SYMBOLS.items():
        text = text.replace(char, repl)
    return unicodedata.normalize("NFKC", text)


_BOLD_WRAP = re.compile(r"^(\*\*|__)(.+?)(\*\*|__)$", re.DOTALL)
_PY_POWER = re.compile(r"\*\*")
_LEADING_SPACING = re.compile(r"(?:\s|\\[,;:! ]|\\q?quad(?![A-Za-z])|~)+")
_SPACING_COMMANDS = ("\\qquad", "\\quad", "\\,", "\\;", "\\:", "\\!", "\\ ", "~")
# an end-of-proof mark closing the answer's line ("= \\frac{3}{4}. \\qquad \\blacksquare", "x = 4 \\qed", "... 12 ∎": a
# textbook's solution ends so, holdout121): it ends the writer's work and states nothing, as in turns._END_OF_PROOF
_END_OF_PROOF_MARKS = ("\\blacksquare", "\\qedhere", "\\qed", "\\QED", "\\Box", "∎")


def _strip_edge_spacing(text: str) -> str:
    """``text`` without LaTeX spacing (``\\,`` ``\\;`` ``\\quad`` ``~``) and whitespace at either end, and without an
    end-of-proof mark at its right end after the value (``\\frac{3}{4}. \\qquad \\blacksquare``). The right end is
    peeled a token at a time (a ``$``-anchored regex would rescan every run: quadratic)."""
    match = _LEADING_SPACING.match(text)
    text = text[match.end():] if match else text
    end, changed = len(text), True
    while changed and end:
        changed = False
        if text[end - 1].isspace():
            end, changed = end - 1, True
            continue
        for command in _SPACING_COMMANDS + _END_OF_PROOF_MARKS:
            if text.endswith(command, 0, end) and text[end - len(command) - 1:end - len(command)] != "\\" \
                    and (command in _SPACING_COMMANDS or end > len(command)):
                end, changed = end - len(command), True
                break
    return text[:end]
_COLOUR_NAME = r"\s*(?:\[[A-Za-z]{1,10}\])?\s*\{[A-Za-z!\d]{0,20}\}"  # "{red}", "[HTML]{FFFF00}"
COLOUR_COMMAND = re.compile(r"\\(?:color|textcolor|colorbox)" + _COLOUR_NAME + r"|\\fcolorbox" + _COLOUR_NAME + _COLOUR_NAME)


def uncoloured(text: str) -> str:
    """``text`` without its colour commands, which change how a value looks, never what it is (white text is hidden
    before this, by :mod:`.hidden_text`): ``\\boxed{\\textcolor{green}{C}}`` shows the letter ``{C}``, and a highlight
    or a frame in colour (``\\colorbox{yellow}{..}``, ``\\fcolorbox{red}{white}{..}``: holdout120) is a colour command too."""
    return COLOUR_COMMAND.sub("", text)


# emphasis a reader reads through: underlined, bold, italic, in a colour a reader sees (a group of plain text, or one
# level of groups inside: "\\underline{\\text{B}}"); white or transparent text is hidden, not emphasised
_SHOWN_COLOUR = r"\{\s*(?!(?:white|transparent|#?fff|#?ffffff)\s*\})[A-Za-z!\d#]{0,20}\s*\}"
_EMPHASIS = re.compile(r"\\(?:underline|uline|textbf|textit|emph|textsl|textsf|texttt|mathbf|mathit|boldsymbol|"
                       r"textcolor\s*" + _SHOWN_COLOUR + r")\s*\{((?:[^{}]|\{[^{}]*\})*)\}", re.IGNORECASE)
_COLOUR_SWITCH = re.compile(r"\\color\s*" + _SHOWN_COLOUR, re.IGNORECASE)


def without_emphasis(text: str) -> str:
    """``text`` with its emphasis read as its text (red team ``holdout_r54``: ``$\\underline{47.2}$`` is the forecast
    47.2, ``\\boxed{\\textcolor{red}{D}}`` boxes D, ``{\\color{blue} 58.4}`` is 58.4): how a value is set, never what it
    is, for the readers of a forecast, an option letter and a conclusion. White or transparent text stays as written
    (hidden: :mod:`.hidden_text`).

    >>> without_emphasis(r"$\\underline{47.2}$ and \\textcolor{red}{\\text{D}} but \\textcolor{white}{B}")
    '$47.2$ and \\\\text{D} but \\\\textcolor{white}{B}'
    """
    if "\\" not in text:
        return text
    return _COLOUR_SWITCH.sub("", _EMPHASIS.sub(r"\1", text))


_TEXT_ONLY = re.compile(r"\\(?:text|textbf|mathrm|mbox)\{([A-Za-z \-]{1,80})\}")
_TIMES_X = re.compile(r"(?<=\d) +x +(?=\d)")
_APPROX_PREFIX = re.compile(r"^\s*(?:\\approx|≈|\\sim)\s*")
_SQRT_CALL = re.compile(r"(?<![\\a-zA-Z])sqrt\s*\(")
_PI_WORD = re.compile(r"(?<![\\a-zA-Z])pi(?![a-zA-Z])")
_FUNCTION_CALL = re.compile(r"(?<![\\a-zA-Z])(sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|sinh|cosh|tanh|log|ln|exp)\s*(?=\()")
# "1,234" but never "0,111" (no thousands group starts with 0)
_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,])(?:\.\d+)?")
_SPACE_THOUSANDS = re.compile(r"[-+]?[1-9]\d{0,2}(?: \d{3})+(?:\.\d+)?")
# "\mathrm{e}" is Euler's e to a reader; Math-Verify's parser chokes on it (parses "1-1/\mathrm{e}" as 1)
_UPRIGHT_LETTER = re.compile(r"\\(?:mathrm|rm|mathit|operatorname)\s*\{\s*([A-Za-z])\s*\}")
# "10\,000", "10{,}000", "10,\!000" (a comma followed by a negative thin space, often with a space after it)
_LATEX_THOUSANDS = re.compile(r"(?<=\d)(?:\{,\}|,?\\[,!] ?|\\ |~)(?=\d{3}(?!\d))")


def drop_thousands_separators(text: str) -> str:
    """``1,234`` ``10\\,000`` ``10{,}000`` ``10,\\!000`` -> the digits alone (a comma group inside a tuple, interval or
    set stays: ``(12,102)`` is a pair)."""
    return _THOUSANDS.sub(_drop_thousands_commas, _LATEX_THOUSANDS.sub("", text))


def rewrite_python_syntax(text: str) -> str:
    """``x**2`` -> ``x^{2}``, ``sqrt(x)`` -> ``\\sqrt{x}``, ``pi`` -> ``\\pi`` (text rewriting, no eval). Brackets
    are matched once per pass (:func:`bracket_pairs`), so the rewrite is linear in the text (``**(`` repeated
    thousands of times was quadratic)."""
    if "**" in text:
        pairs = bracket_pairs(text)
        out = []
        i = 0
        for match in _PY_POWER.finditer(text):
            if match.start() < i:  # inside an exponent already copied: "x**(2**3)"
                continue
            out.append(text[i:match.start()])
            j = match.end()
            while j < len(text) and text[j] == " ":
                j += 1
            if j < len(text) and text[j] == "(":
                end = pairs.get(j, -1)
                out.append("^{" + text[j:end + 1] + "}") if end >= 0 else out.append("^")
                i = end + 1 if end >= 0 else j
            else:
                k = j + (1 if j < len(text) and text[j] in "+-" else 0)
                while k < len(text) and (text[k].isalnum() or text[k] in "._"):
                    k += 1
                out.append("^{" + text[j:k] + "}")
                i = k
        out.append(text[i:])
        text = "".join(out)
    if _SQRT_CALL.search(text):
        pairs = bracket_pairs(text)
        edits = []  # (start, end, replacement), none overlapping: each "sqrt(" and the ")" closing it
        for match in _SQRT_CALL.finditer(text):
            close = pairs.get(match.end() - 1)
            if close is not None:
                edits += [(match.start(), match.end(), "\\sqrt{"), (close, close + 1, "}")]
        pieces, done = [], 0
        for start, end, replacement in sorted(edits):
            pieces += [text[done:start], replacement]
            done = end
        text = "".join(pieces) + text[done:]
    text = _FUNCTION_CALL.sub(r"\\\1", text)  # "log(2)" -> "\log(2)", else read as l*o*g*2
    return _PI_WORD.sub(r"\\pi", text)


# a printed Python or sympy value written as the call that makes it (red team holdout118: a list, a tuple or sympy's
# str prints these): ``Rational(1, 3)``, ``Fraction(7, 12)``, ``np.float64(0.5)``, ``Integer(12)``, ``Float('0.25')``,
# ``mpf('0.5')``, ``Decimal('1.10')``, ``Interval.open(2, 5)``, ``Interval.Ropen(-oo, 3)``
_NUMBER_TEXT = r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"
_FRACTION_CALL = re.compile(r"(?<![\w.])(?:(?:sympy|sp)\.)?(?:Rational|Fraction)\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_NUMBER_CALL = re.compile(r"(?<![\w.])(?:(?:np|numpy|sympy|sp|mpmath|decimal)\.)?(?:float(?:16|32|64|128)|int(?:8|16|32|64)|uint(?:8|16|32|64)|"
                          r"Integer|Float|mpf|Decimal)\(\s*(['\"]?)(" + _NUMBER_TEXT + r")\1(?:\s*,\s*\d+)?\s*\)")
_INTERVAL_CALL = re.compile(r"(?<![\w.])(?:(?:sympy|sp)\.)?Interval(?:\.(open|Lopen|Ropen))?\(\s*([^(),\n]{1,40}?)\s*,\s*([^(),\n]{1,40}?)\s*\)")
_INTERVAL_BRACKETS = {None: "[]", "open": "()", "Lopen": "(]", "Ropen": "[)"}


def python_value_reprs(text: str) -> str:
    """A value written as the Python call that makes it, read as the value: ``Rational(1, 3)`` and ``Fraction(1, 3)``
    are ``\\frac{1}{3}``, ``np.float64(0.5)``, ``Integer(12)``, ``Float('0.25')``, ``mpf('0.5')`` and ``Decimal('0.5')``
    the number, ``Interval.open(2, 5)`` is ``(2, 5)`` (``Interval(2, 5)`` ``[2, 5]``, ``Lopen`` ``(2, 5]``, ``Ropen``
    ``[2, 5)``, ``oo`` ``\\infty``); so a printed ``Interval.open(2, 5)`` is not read as its last number, 5."""
    if "(" not in text:
        return text
    text = _FRACTION_CALL.sub(r"\\frac{\1}{\2}", text)
    text = _NUMBER_CALL.sub(r"\2", text)
    return _INTERVAL_CALL.sub(_interval, text)


def _interval(found: re.Match) -> str:
    opening, closing = _INTERVAL_BRACKETS[found.group(1)]
    low, high = (re.sub(r"(?<![\w\\])oo(?!\w)", r"\\infty", end) for end in (found.group(2), found.group(3)))
    opening = "(" if "infty" in low else opening  # an infinite end is open: Interval(-oo, 3) is (-oo, 3]
    closing = ")" if "infty" in high else closing
    return f"{opening}{low}, {high}{closing}"


def _drop_thousands_commas(match: re.Match) -> str:
    """``1,234`` -> ``1234``, except as an element of a tuple/interval/set: ``(12,102)`` stays a pair."""
    before = match.string[:match.start()].rstrip()[-1:]
    after = match.string[match.end():].lstrip()[:1]
    if before in ("(", "[", "{", ",") or after in (")", "]", "}", ","):
        return match.group()
    return match.group().replace(",", "")


_SMALL_NUMBERS = {
    word: value for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split())
}
_TENS = {word: 10 * (i + 2) for i, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
# a word that may open a number written in words ("seven", "Twenty-one", "minus three", "a half" is not one)
NUMBER_WORD = "|".join(sorted([*_SMALL_NUMBERS, *_TENS, "minus", "negative"], key=len, reverse=True))


def number_from_words(text: str) -> int | None:
    """``"twelve"`` -> 12, ``"two hundred and five"`` -> 205, ``"minus forty-two"`` -> -42; None if
    ``text`` is anything but a number written in English words."""
    tokens = re.sub(r"[-,]", " ", text.strip().lower().rstrip(".!")).split()
    sign = -1 if tokens[:1] in (["minus"], ["negative"]) else 1
    tokens = [t for t in tokens[1:] if t != "and"] if sign < 0 else [t for t in tokens if t != "and"]
    if not tokens or tokens[0] in _SCALES:
        return None
    total = current = 0
    last = ""  # "one two" and "twenty thirty" are not numbers
    for token in tokens:
        if token in _SMALL_NUMBERS and last != "small":
            current, last = current + _SMALL_NUMBERS[token], "small"
        elif token in _TENS and last not in ("small", "tens"):
            current, last = current + _TENS[token], "tens"
        elif token == "hundred" and last in ("small",):
            current, last = current * 100, "hundred"
        elif token in _SCALES and token != "hundred" and last:
            total, current, last = total + current * _SCALES[token], 0, "scale"
        else:
            return None
    return sign * (total + current)


# the denominators of a fraction in words: "one half", "three quarters", "five eighths" (holdout78)
_PARTS = {"half": 2, "halves": 2, "quarter": 4, "quarters": 4, **{
    word + ending: value for value, word in enumerate(
        "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), start=3) for ending in ("", "s")}}
_FRACTION_WORDS = re.compile(r"(?:(?P<whole>[a-z -]+?)\s+and\s+)?(?P<count>an?|[a-z -]+?)[\s-]+(?P<part>[a-z]+)")
# a decimal in words, its digits one word each after "point" ("two point five", "zero point seven five")
_DECIMAL_WORDS = re.compile(r"(?P<whole>[a-z -]+?)\s+point\s+(?P<digits>[a-z]+(?:\s+[a-z]+){0,11})")
# a number in words and the word percent ("twenty-five percent", "seventy-five per cent")
_PERCENT_WORDS = re.compile(r"(?P<value>[a-z -]+?)\s+per\s?cent")
# a count of dozens ("a dozen", "half a dozen", "three dozen"; "a baker's dozen" is 13, no count of dozens)
_DOZEN_WORDS = re.compile(r"(?:minus\s+|negative\s+)?(?P<count>half\s+a|an?|[a-z -]+?)\s+dozen")


def value_from_words(text: str) -> str | None:
    """A number written in English words as the math reader compares it: :func:`number_from_words`' integer, or a
    fraction in words -- ``"three quarters"`` -> ``"3/4"``, ``"one half"`` / ``"a half"`` -> ``"1/2"``, ``"two and a
    half"`` -> ``"5/2"``, ``"negative two thirds"`` -> ``"-2/3"`` (a count of parts, then the part: a half, a third ...
    a twelfth). None for anything else ("three quarters of the cake" is a quantity of cake, read by its own words)."""
    if (whole := number_from_words(text)) is not None:
        return str(whole)
    words = re.sub(r"\s+", " ", text.strip().lower().rstrip(".!"))
    sign = "-" if words.startswith(("minus ", "negative ")) else ""
    if (percent := _PERCENT_WORDS.fullmatch(words)) is not None:  # "twenty-five percent" -> 25\%
        value = value_from_words(percent.group("value"))
        return None if value is None else f"{value}\\%"
    if (decimal := _DECIMAL_WORDS.fullmatch(words)) is not None:  # "two point five" -> 2.5
        whole = number_from_words(decimal.group("whole"))
        digits = "".join(str(_SMALL_NUMBERS.get(digit, 10)) for digit in decimal.group("digits").split())
        return None if whole is None or not digits.isdigit() else f"{'-' if whole < 0 else ''}{abs(whole)}.{digits}"
    if (dozens := _DOZEN_WORDS.fullmatch(words)) is not None:  # "a dozen", "half a dozen", "three dozen"
        count = {"a": 2, "one": 2, "half a": 1}.get(dozens.group("count")) or 2 * (number_from_words(dozens.group("count")) or 0)
        return f"{sign}{6 * count}" if count else None
    found = _FRACTION_WORDS.fullmatch(words.split(" ", 1)[1] if sign else words)
    if found is None or found.group("part") not in _PARTS:
        return None
    count = 1 if found.group("count") in ("a", "an") else number_from_words(found.group("count"))
    whole = 0 if found.group("whole") is None else number_from_words(found.group("whole"))
    if count is None or whole is None or count == 0 or (whole and found.group("count") not in ("a", "an") and count >= _PARTS[found.group("part")]):
        return None
    parts = _PARTS[found.group("part")]
    return f"{sign}{whole * parts + count}/{parts}"


# a word that may open a number in words inside prose: a number word, or "a" / "an" / "half" before a part or a dozen
_SPELLED_START = frozenset([*_SMALL_NUMBERS, *_TENS, "minus", "negative", "a", "an", "half"])
# a word after a number that makes it part of another quantity ("a dozen more than Tom", "two times as many")
_OTHER_QUANTITY_AFTER = frozenset("more less fewer than times another fold".split())
_PROSE_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def spelled_numbers(text: str) -> list[str]:
    """The numbers written in English words inside a line of prose, in order, each the longest run of words that
    :func:`value_from_words` reads: "Tom now has forty-two stickers." -> ["forty-two"], "She turned fourteen in two
    thousand and twelve." -> ["fourteen", "two thousand and twelve"], "Each gets half a dozen." -> ["half a dozen"],
    "The mean is two point five." -> ["two point five"]. A number that is part of another quantity ("a dozen more than
    Tom", "two times as many", a fraction of a whole: "three quarters of the cases") is none, and a lone "one" (a pronoun as often as a number: "the same
    one", "one of them") is not read; nor is a run that joins words across punctuation. At most eleven words a run,
    so the search stays linear in the text."""
    words = list(_PROSE_WORD.finditer(text))
    found, at = [], 0
    while at < len(words):
        if words[at].group().lower().split("-")[0] not in _SPELLED_START:
            at += 1
            continue
        for end in range(min(at + 11, len(words)) - 1, at - 1, -1):
            run = text[words[at].start():words[end].end()]
            if end + 1 < len(words) and re.fullmatch(r"\s+", text[words[end].end():words[end + 1].start()]) and words[end + 1].group().lower() == "percent":
                run = text[words[at].start():words[end + 1].end()]  # "Twenty-five percent": the percent is part of the value
            if re.search(r"[^\sA-Za-z-]", run) is None and run.lower() != "one" and value_from_words(run) is not None:
                following = words[end + 1].group().lower() if end + 1 < len(words) else ""
                part_of_a_whole = following == "of" and "/" in (value_from_words(run) or "")  # "three quarters of the cases"
                if following not in _OTHER_QUANTITY_AFTER and not part_of_a_whole:
                    found.append(run)
                at = end + 1
                break
        else:
            at += 1
    return found


def strip_trailing_punctuation(text: str) -> str:
    """``text`` without trailing sentence punctuation (``. , ; : ? 。`` and ``!``), except that a ``!`` run right
    after a digit, a letter or a closing bracket is a factorial and stays: ``10!``, ``(n+1)!``, ``5!!``."""
    end = len(text)
    while end:
        char = text[end - 1]
        if char == "!":
            start = end - 1
            while start and text[start - 1] == "!":
                start -= 1
            if start and (text[start - 1].isalnum() or text[start - 1] in ")}]"):
                break
            end = start - 1 if start and text[start - 1] == "\\" else start  # "\!" is a negative space
        elif char in ".,;:?。":
            end -= 2 if end >= 2 and text[end - 2] == "\\" and text[end - 3:end - 2] != "\\" else 1  # a trailing "\," is a spacing command: both go
        else:
            break
    return text[:end]


# "9!!" is the double factorial 9*7*5*3*1 = 945; Math-Verify (latex2sympy) reads it as (9!)!, so a gold (5!)!
# would accept 5!! and 15 would not. An integer's double factorial is written out as its value instead.
_DOUBLE_FACTORIAL = re.compile(r"(?<![\d.!])(\d{1,4})\s*!!(?!!)")
MAX_DOUBLE_FACTORIAL = 1_000  # 1000!! has ~1,300 digits


def double_factorials(text: str) -> str:
    """``5!!`` -> ``15``: each integer's double factorial (up to :data:`MAX_DOUBLE_FACTORIAL`) by its value."""
    if "!!" not in text:
        return text

    def value(match: re.Match) -> str:
        n = int(match.group(1))
        if n > MAX_DOUBLE_FACTORIAL:
            return match.group()
        product = 1
        for k in range(n, 1, -2):
            product *= k
        return str(product) if match.group() == text else f"({product})"

    return _DOUBLE_FACTORIAL.sub(value, text)


_EULER_EXPONENT = re.compile(r"(?<![\\A-Za-z])e\s*\^\s*\{")
_LONE_I = re.compile(r"(?<![\\A-Za-z])i(?![A-Za-z])")


# a lone i right before a sine: the imaginary unit of a polar form, r(cos θ + i sin θ) (holdout75)
_TRIG_I = re.compile(r"(?<![\\A-Za-z_^])i(?=[^\S\n]*(?:\\[,;:! ][^\S\n]*)*(?:\\cdot[^\S\n]*)?\\sin(?![A-Za-z]))")


def euler_imaginary_unit(text: str) -> str:
    """``e^{i\\pi}`` -> ``e^{I\\pi}``: a lone ``i`` in a braced exponent of e is the imaginary unit, which
    Math-Verify only reads as ``I`` (it keeps ``i`` a plain symbol, so ``e^{i\\pi}`` would not equal -1); so is a
    lone ``i`` right before ``\\sin``, the polar form ``\\sqrt{2}(\\cos\\frac{\\pi}{4} + i\\sin\\frac{\\pi}{4})`` of
    ``\\sqrt{2}e^{i\\pi/4}`` (holdout75)."""
    if "i" not in text:
        return text
    if "\\sin" in text:
        text = _TRIG_I.sub("I", text)
    out, done = [], 0
    pairs = bracket_pairs(text, "{", "}")
    for match in _EULER_EXPONENT.finditer(text):
        if match.start() < done:  # inside an exponent already rewritten
            continue
        close = pairs.get(match.end() - 1, -1)
        if close < 0:
            break
        out.append(text[done:match.end()] + _LONE_I.sub("I", text[match.end():close]))
        done = close
    return "".join(out) + text[done:]


@memoized_text()
def normalize_answer(text: str) -> str:
    """Clean one extracted answer into LaTeX-ish text math-verify parses (see module docstring)."""
    text = normalize_unicode(text.strip()).replace("\\cfrac", "\\frac")  # a continued-fraction layout is a fraction
    text = _ROW_SKIP.sub(r"\\\\", text)  # "-2 & 1 \\[2pt] 3 & 4": extra space after a matrix row is layout (holdout106)
    # markdown bold / italics around the whole answer: "**73**", "__73__", "73**"
    for _ in range(2):
        match = _BOLD_WRAP.match(text)
        if match:
            text = match.group(2).strip()
    text = re.sub(r"^\*\*|\*\*$", "", text).strip()
    text = re.sub(r"^\*(?=\S)(.*?)(?<=\S)\*$", r"\1", text)
    text = rewrite_python_syntax(text)
    text = _strip_edge_spacing(text)  # "\\, 1,000 \\," -> "1,000": spacing commands at either end mean nothing
    text = _TIMES_X.sub(r" \\times ", text)  # "6.02 x 10^23": an x between two numbers is a times sign
    text = _APPROX_PREFIX.sub("", text)  # "\approx 3.14" states the value 3.14
    # "\$" is a dollar sign, never a math delimiter: gone before the delimiters are read ("$\$18$" is 18)
    text = text.replace(r"\$", "")
    # surrounding math delimiters and trailing sentence punctuation
    for _ in range(3):
        before = text
        text = strip_trailing_punctuation(text.strip()).strip()
        if text.startswith("$$") and text.endswith("$$") and len(text) > 4:
            text = text[2:-2]
        elif text.startswith("$") and text.endswith("$") and len(text) > 2 and text.count("$") == 2:
            text = text[1:-1]
        elif text.startswith(r"\[") and text.endswith(r"\]") or text.startswith(r"\(") and text.endswith(r"\)"):
            text = text[2:-2]
        elif len(text) > 2 and text[0] == text[-1] and text[0] in "'\"`" and text.count(text[0]) == 2:
            text = text[1:-1]  # a record's quoted string: "final_answer: '-7'", '"answer": "36"' (holdout38)
        if text == before:
            break
    # a lone "$" in front of a number is currency ("$18"), not a math delimiter
    if text.count("$") % 2 == 1 or re.fullmatch(r"\$\s*[\d.,]+", text):
        text = re.sub(r"\$(?=\s*[\d.])", "", text)
    if _OTHER_CURRENCY.search(text):  # "36 €", "€36", "£12.50", "¥500" (holdout30): the sign of a currency, as "$" is
        text = _OTHER_CURRENCY.sub("", text).strip()
    text = _TEXT_LABEL.sub("", text)  # "\text{Simplified: } \tfrac{3}{4}": a label inside the math heads the value (holdout18)
    text = drop_thousands_separators(text)
    text = _UPRIGHT_LETTER.sub(r"\1", text)
    text = COLOUR_COMMAND.sub("", text).strip()  # "\color{red}5", "\textcolor{red}{5}"
    text = _VALUE_TEXT.sub(r" \1", text)  # "5\text{ dozen}": no unit to drop (Math-Verify drops \text units)
    if (wrapped := _TEXT_ONLY.fullmatch(text)) and number_from_words(wrapped.group(1)) is not None:
        text = wrapped.group(1).strip()  # "\text{five}"
    text = _ANGLE_VECTOR.sub(r"(\1)", text)  # "\\langle 0, 0, 1 \\rangle": a vector written with angle brackets (holdout65)
    text = unit_vector_components(text) or text  # "-6\\mathbf{i} - \\mathbf{j} + 3\\mathbf{k}" is (-6, -1, 3) (holdout106)
    text = euler_imaginary_unit(text)
    text = double_factorials(text)
    if text[:1].isalpha() and (spelled := value_from_words(text)) is not None:
        text = spelled  # "twelve" -> 12, "three quarters" -> 3/4
    elif "(" in text and (both := _WORDS_AND_DIGITS.fullmatch(text.strip())) is not None:
        words, digits = both.group("w1") or both.group("w2"), both.group("d1") or both.group("d2")
        if number_from_words(words) == int(digits):
            text = digits  # "twelve (12)", "12 (twelve)": one number written twice (holdout52); "twelve (13)" stays two
    return text.strip()


# a row break with extra vertical space, "\\[2pt]", "\\[0.5em]" (a dimension, never a value)
_ROW_SKIP = re.compile(r"\\\\\s*\[\s*[-+]?\d*\.?\d+\s*(?:pt|em|ex|mm|cm|in|bp|mu|pc|dd|sp)\s*\]")
# a unit vector written as such: \mathbf{i}, \hat{\jmath}, \vec{k}, \hat{\mathbf{i}}, \mathbf{\hat{k}} (never a plain i or j)
_UNIT_VECTOR = re.compile(r"\\(?:mathbf|hat|vec|boldsymbol|bm)\s*\{\s*(?:\\(?:mathbf|hat)\s*\{\s*)?\\?([ijk])(?:math)?\s*\}?\s*\}|\\(?:hat|vec)\s+\\?([ijk])(?:math)?(?![A-Za-z])")
_SIGNED_TERM = re.compile(r"\s*([-+]?)\s*([^-+]*?)\s*(?:\\cdot|\\,|\\!|\\;|\s)*\s*\x00([ijk])\s*")


def unit_vector_components(text: str) -> str | None:
    """A vector written as a sum of the unit vectors i, j, k as the tuple of its components, else None:
    ``-6\\mathbf{i} - \\mathbf{j} + 3\\mathbf{k}`` is ``(-6, -1, 3)``, ``2\\hat{i} + \\tfrac{1}{2}\\hat{j}`` is
    ``(2, \\tfrac{1}{2})`` (a missing unit vector is a component 0; with k the vector has three components). Each unit
    vector at most once, two of them at least, each term a coefficient then its unit vector, nothing else in the text."""
    if "\\" not in text or _UNIT_VECTOR.search(text) is None:
        return None
    marked = _UNIT_VECTOR.sub(lambda m: "\x00" + (m.group(1) or m.group(2)), text.strip())
    components: dict[str, str] = {}
    at = 0
    while at < len(marked):
        term = _SIGNED_TERM.match(marked, at)
        if term is None or term.end() == at or term.group(3) in components or "\x00" in term.group(2):
            return None
        coefficient = term.group(2).strip() or "1"
        if re.search(r"[()\[\]=,;]", coefficient) or coefficient.count("{") != coefficient.count("}"):
            return None  # "(2\\mathbf{i} + \\mathbf{j}) \\cdot \\mathbf{k}": an expression, not one coefficient
        components[term.group(3)] = ("-" if term.group(1) == "-" else "") + coefficient
        at = term.end()
    if len(components) < 2:
        return None  # "3\\mathbf{i}" alone: a plane's or space's vector?
    names = "ijk" if "k" in components else "ij"
    return "(" + ", ".join(components.get(name, "0") for name in names) + ")"


_ANGLE_VECTOR = re.compile(r"\\langle(?![A-Za-z])\s*([^\\]*?)\s*\\rangle(?![A-Za-z])")
# a number in words with its digits in brackets, or the other way round
_WORDS_AND_DIGITS = re.compile(r"(?P<w1>[A-Za-z][A-Za-z -]{0,60}?)\s*\(\s*(?P<d1>\d{1,12})\s*\)|(?P<d2>\d{1,12})\s*\(\s*(?P<w2>[A-Za-z][A-Za-z -]{0,60}?)\s*\)")


# --- plain numerals -------------------------------------------------------------------------------

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?"
_NUMERAL = re.compile(rf"\s*(?P<num>{_NUMBER})\s*(?P<pct>\\?%|\s+percent)?\s*")
_FRACTION = re.compile(rf"\s*(?P<sign>[-+]?)\s*(?:(?P<a>{_NUMBER})\s*/\s*(?P<b>{_NUMBER})|\\[dt]?frac\s*\{{\s*(?P<c>{_NUMBER})\s*\}}\s*\{{\s*(?P<d>{_NUMBER})\s*\}}|\\[dt]?frac(?P<e>\d)(?P<f>\d))\s*(?P<pct>\\?%)?\s*")
# words that may follow a number as a unit ("18 apples", "5 cm", "108 cm^{2}" from "108 cm²"); letters that are
# variables don't qualify
_UNIT_TAIL = re.compile(r"^(?P<head>.*?\d\s*(?:\\?%)?)\s*(?:\\(?:text|mathrm|textbf|mbox)\{\s*[A-Za-z][A-Za-z .]*\}|" + COMPOUND_UNIT + r"|(?:[^\W\d_]{2,}\.?)(?:\s+[^\W\d_]{2,}\.?){0,3}(?:\^\{?[23]\}?)?"
                        # (a unit word in any alphabet: "42 páginas", "12 Äpfel"; holdout121);
                        # a one-letter SI unit set apart by a space ("12 m", "5 g", "3 s", "2 L"; holdout24; "6000 U" of heparin, holdout55;
                        # "2.0 M", molar, holdout63): no variable
                        r"|(?<=[\d%]\s)[mgsLKNJWVAUM](?:\^\{?[23]\}?)?)$")
# a label written as text at the start of the math, ending with a colon: "\text{Simplified: }", "\textbf{Answer:}"
_TEXT_LABEL = re.compile(r"\A\\(?:text|textbf|mathrm|mbox)\s*\{\s*[A-Za-z][A-Za-z ]{0,30}:\s*\}\s*(?=\S)")
VALUE_WORDS = {"squared", "cubed", "factorial", "inverse", "reciprocal", "dozen", "dozens"}
_VALUE_TEXT = re.compile(r"\\(?:text|mathrm|mbox|textbf)\s*\{\s*(" + "|".join(sorted(VALUE_WORDS)) + r")\s*\}", re.IGNORECASE)
_MATH_WORDS = {"pi", "sqrt", "frac", "times", "cdot", "div", "or", "and", "infty", "le", "ge", "ne", "pm", "mod", "log", "ln", "sin", "cos", "tan", "exp", "in", "cup", "cap"}


@dataclass(frozen=True)
class Numeral:
    """An exact plain number: ``value`` plus whether it was written as a percent."""

    value: Fraction
    percent: bool = False


@memoized_text()
def parse_numeral(text: str) -> Numeral | None:
    """Read ``text`` as one plain number (exact), or None if it is anything more (a variable, a set...).

    Accepts signs, decimals, scientific notation, ``a/b``, ``\\frac{a}{b}``, ``\\frac34``, ``%``/``\\%``
    and a trailing unit word (``18 apples``, ``5\\text{ cm}``). Thousands separators must already be
    removed (:func:`normalize_answer`).
    """
    if len(text) > 120:
        return None
    match = _UNIT_TAIL.match(text)
    scale = 1
    # the words after the number, not the wrapper's name ("1\text{ million}" is scaled by "million", not "text")
    tail = [word.lower() for word in re.findall(r"[^\W\d_]+", re.sub(r"\\[A-Za-z]+", " ", text[len(match.group("head")):]))] if match else []
    if any(word in VALUE_WORDS for word in tail):
        return None  # "5 squared", "5 factorial", "5 dozen": words that change the value, never a unit
    if match and not any(word in _MATH_WORDS for word in tail):
        text = match.group("head")
        scale = _SCALES.get(tail[0].lower(), 1)  # "2 million people" is 2000000, not 2 with a unit
    numeral = _plain_numeral(text)
    return Numeral(numeral.value * scale, numeral.percent) if numeral is not None and scale != 1 else numeral


# a mixed number: a whole number before a proper fraction, "2 3/4" or "2\frac{3}{4}" = 11/4 (never 2 * 3/4)
# and a percent sign after it, "37\tfrac{1}{2}\%" = 37.5 % (holdout106)
_MIXED = re.compile(r"\s*(?P<sign>[-+]?)\s*(?P<whole>\d+)(?:\s+(?P<a>\d+)\s*/\s*(?P<b>\d+)|\s*\\[dt]?frac\s*\{\s*(?P<c>\d+)\s*\}\s*\{\s*(?P<d>\d+)\s*\})\s*(?P<pct>\\?%)?\s*")


def _mixed_number(text: str) -> Numeral | None:
    match = _MIXED.fullmatch(text)
    if match is None:
        return None
    numerator, denominator = int(match.group("a") or match.group("c")), int(match.group("b") or match.group("d"))
    if not 0 < numerator < denominator:
        return None  # "2 5/4" is no mixed number
    value = int(match.group("whole")) + Fraction(numerator, denominator)
    return Numeral(-value if match.group("sign") == "-" else value, bool(match.group("pct")))


# a repeating decimal: 0.\overline{3}, 0.1\overline{6}, 0.\bar{3}, 0.(3), 0.1(6), 0.\dot{3}, 0.\dot{1}4285\dot{7}
_REPEATING = re.compile(
    r"\s*(?P<sign>[-+]?)\s*(?P<whole>\d{0,30})\.(?P<fixed>\d{0,30})"
    r"(?:\\(?:overline|bar)\s*(?:\{\s*(?P<a>\d{1,30})\s*\}|(?P<b>\d))|\((?P<c>\d{1,30})\)"
    r"|\\dot\s*\{\s*(?P<d>\d)\s*\}(?:(?P<middle>\d{0,28})\\dot\s*\{\s*(?P<e>\d)\s*\})?)\s*"
)


def repeating_decimal(text: str) -> Fraction | None:
    """The exact value of a repeating decimal (:data:`_REPEATING`'s forms), else None: ``0.1\\overline{6}`` is 1/6.

        value = whole + (int(fixed + block) - int(fixed)) / (10^len(fixed) * (10^len(block) - 1))
    """
    match = _REPEATING.fullmatch(text)
    if match is None:
        return None
    groups = match.groupdict()
    block = groups["a"] or groups["b"] or groups["c"] or ((groups["d"] or "") + (groups["middle"] or "") + (groups["e"] or "") if groups["e"] else groups["d"])
    fixed = groups["fixed"]
    value = int(groups["whole"] or 0) + Fraction(int(fixed + block) - int(fixed or 0), 10 ** len(fixed) * (10 ** len(block) - 1))
    return -value if groups["sign"] == "-" else value


def _plain_numeral(text: str) -> Numeral | None:
    text = text.replace("{,}", "").strip()
    if "." in text and ("\\" in text or "(" in text) and (repeating := repeating_decimal(text)) is not None:
        return Numeral(repeating)
    if _SPACE_THOUSANDS.fullmatch(text):  # "1 000 000"
        text = text.replace(" ", "")
    if len(text) < 60 and (mixed := _mixed_number(text)) is not None:
        return mixed
    if "10" in text and (power := scientific(text)) is not None:  # "1.5 \times 10^{9}", "2.4 × 10^5"
        return Numeral(power)
    try:
        numeral = _NUMERAL.fullmatch(text)
        if numeral:
            return Numeral(Fraction(numeral.group("num")), bool(numeral.group("pct")))
        frac = _FRACTION.fullmatch(text)
        if frac:
            a = frac.group("a") or frac.group("c") or frac.group("e")
            b = frac.group("b") or frac.group("d") or frac.group("f")
            denominator = Fraction(b)
            if denominator == 0:
                return None
            value = Fraction(a) / denominator
            return Numeral(-value if frac.group("sign") == "-" else value, bool(frac.group("pct")))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return None


def numerals_equal(gold: Numeral, pred: Numeral, rel_tol: float = 1e-3) -> bool:
    """Exact equality, else math-verify's 6-decimal rounding *and* a relative tolerance.

    The relative check is what Math-Verify lacks for tiny magnitudes (``1/2^99`` vs ``1/2^98`` both
    round to 0). A percent on exactly one side also matches the /100 value (``75%`` vs ``0.75``);
    ``75%`` vs ``75`` matches like in Math-Verify 0.9.0.
    """
    if gold.percent == pred.percent and getattr(gold.value, "denominator", 0) == 1 == getattr(pred.value, "denominator", 0):
        return gold.value == pred.value  # (speed) two whole numbers: rounded to 6 places each is itself, so only equal ones match
    candidates = [gold.value]
    if gold.percent != pred.percent:
        candidates.append(gold.value / 100 if gold.percent else gold.value * 100)
    for value in candidates:
        if value == pred.value:
            return True
        scale = max(abs(value), abs(pred.value))
        if round(value, 6) == round(pred.value, 6) and abs(value - pred.value) <= rel_tol * scale:
            return True
    return False


def same_number(one: str, other: str) -> bool:
    """Are two numerals the same number, a percent being its share ("3/4" and "75%")?"""
    first, second = (parse_numeral(normalize_answer(side)) for side in (one, other))
    if first is None or second is None:
        return False
    if first.percent != second.percent:  # "3/4, or 75%": a share written as a percent is the same value
        fraction, percent = (second, first) if first.percent else (first, second)
        return fraction.value * 100 == percent.value
    return first.value == second.value
