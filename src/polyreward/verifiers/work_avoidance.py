"""Answers that equal the gold without doing the work the question asks for (``math_accuracy``'s
``work_avoidance`` guard, on by default). The guard judges computation, not notation.

Math-Verify decides *equivalence*: ``478 / 1 + -682`` equals ``-204`` and ``\\frac{3910}{6885}`` equals
``\\frac{46}{81}``. A reward built on equivalence alone pays a policy for copying the question's own expression
into the box, which credits every arithmetic and fraction prompt without computing anything. A guard that refuses
a plain answer for its notation biases training as much as that hack, so the answer is first read through its
formatting (:func:`~polyreward.verifiers.math_notation.read_through`: ``\\text{42}``, ``\\textbf{5}``,
``\\displaystyle 42``, ``\\left( 3 \\right)``, ``10,\\!000``, ``12\\text{ cm}^2``, ``5 \\mathrm{m/s}``, ``90^\\circ``,
``- 5`` are the numbers they show), and only what remains is judged. The guard refuses (score 0, reason
``unevaluated``):

* **the prompt's own expression**: the answer, read through its formatting and with spacing, ``$``, braces and
  multiplication signs squeezed out, is a whole math expression of the prompt (not a part of a longer one) and
  is not the gold itself -- ``\\boxed{(7.0 + 4.0i) - (4.0 + 6.0i)}`` for "Subtract (7.0 + 4.0i) - (4.0 + 6.0i)";
* where the gold is a number, **a remaining operation on numbers**:

  - an expression (``2 \\times 21``, ``2^{10}``, ``4!``, ``\\sqrt{4}``, ``(9+1)``) -- a value is: a number, a
    simplified fraction, a mixed number, a percent, a number with a unit, a repeating decimal, scientific
    notation (``6.02 \\times 10^{23}``, ``1.5e8``, a power of ten ``10^{8}``), a closed form with an irrational value (``\\sqrt{17}``,
    ``\\frac{\\pi}{2}``: nothing left to evaluate), a decimal comma ``0,111``, words, or a chain that ends in
    one (``9 \\times 2 = 18``, ``\\sqrt{17} \\approx 4.12``: the work is shown and the value stated);
  - an unsimplified fraction (``\\frac{3910}{6885}``, ``\\frac{84}{2}``, ``7/1``) unless the gold is written
    unsimplified too.

``work_avoidance: false`` restores plain equivalence (Math-Verify's semantics). Reconstructed rule (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from math import gcd
from typing import Any

from polyreward.verifiers.math_canonical import canonical
from polyreward.verifiers.math_normalize import normalize_unicode, parse_numeral, rewrite_python_syntax
from polyreward.verifiers.math_notation import read_through

MAX_PROMPT_CHARS = 100_000

_SQUEEZED = re.compile(r"\s+|\$|\\left(?![A-Za-z])|\\right(?![A-Za-z])|\\[,;!: ]|[{}*]|\\cdot(?![A-Za-z])|\\times(?![A-Za-z])")
_BARE_NUMBER = re.compile(r"[-+]?[\d.,]+%?")
_EXPRESSION = re.compile(r"[-+/^()\[\]\\]|\d[A-Za-z]|[A-Za-z]\d")
_CONTINUES_BEFORE = set("+-/^(=.0123456789")
_CONTINUES_AFTER = set("+-/^)=0123456789")
_FRACTION = re.compile(r"[-+]?\s*(?:(\d+)\s*/\s*(\d+)|\\[dt]?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\})")
# "a = b = c", "a \\approx b": the sides of a chain (not <, >: an inequality states no value)
_RELATION = re.compile(r"=|\\approx(?![A-Za-z])|\\simeq(?![A-Za-z])")
_LISTED = re.compile(r"[,;]|\b(?:or|and)\b")
# the arguments of a function named on the left of an equation ("\\gcd(84,126) = 42"): their commas list nothing
_ARGUMENTS = re.compile(r"(?<=[A-Za-z}])\s*\([^()]{0,60}\)")


def without_arguments(text: str) -> str:
    """``text`` without the argument lists of the functions it applies (``\\gcd(84,126)`` -> ``\\gcd``; holdout10), so
    that a comma between arguments is not read as a list of values; a bare tuple ``(1, 2)`` stays."""
    return _ARGUMENTS.sub("", text)
# "0,111" cannot be a thousands group: a decimal comma, one value (equivalence decides it)
_DECIMAL_COMMA = re.compile(r"[-+]?0,\d+")
# an operation without digits: a power, quotient, product or factorial, a binary sign, any command but a constant
_OPERATION = re.compile(r"[\^/*!]|(?<=[\w})])\s*[-+]\s*(?=[\w\\({])|\\(?!(?:infty|pi|emptyset|varnothing)(?![A-Za-z]))[A-Za-z]+")
_SCIENTIFIC = re.compile(r"[-+]?\d+(?:\.\d+)?\s*(?:\\times|\\cdot|\*|x)?\s*10\s*\^\s*\{?\s*[-+]?\d+\s*\}?|10\s*\^\s*\{?\s*[-+]?\d+\s*\}?")


def squeeze(text: str) -> str:
    """``text`` without spacing, ``$``, braces, ``\\left``/``\\right`` and multiplication signs; ``\\dfrac`` is ``\\frac``."""
    return _SQUEEZED.sub("", text.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac"))


def prompt_form(prompt: str) -> str:
    """A prompt squeezed like an answer (unicode and python syntax rewritten first), for :func:`copied_from_prompt`."""
    return squeeze(rewrite_python_syntax(normalize_unicode(prompt[-MAX_PROMPT_CHARS:])))


def copied_from_prompt(answer: str, squeezed_prompt: str) -> bool:
    """Is ``answer`` (normalised) an expression the prompt states whole (not a bare number, not part of a longer
    expression)?"""
    needle = squeeze(answer)
    if not _could_be_copied(needle):
        return False
    start = squeezed_prompt.find(needle)
    while start >= 0:
        end = start + len(needle)
        before = squeezed_prompt[start - 1] if start else ""
        after = squeezed_prompt[end] if end < len(squeezed_prompt) else ""
        continues_after = after in _CONTINUES_AFTER or (after == "." and squeezed_prompt[end + 1:end + 2].isdigit())
        if not (before and before in _CONTINUES_BEFORE) and not (after and continues_after):
            return True
        start = squeezed_prompt.find(needle, start + 1)
    return False


def _could_be_copied(needle: str) -> bool:
    """Can the squeezed answer ``needle`` be a prompt's expression at all (3+ characters, not a bare number, an
    operation or a variable in it)? Not: :func:`copied_from_prompt` says no whatever the prompt."""
    return len(needle) >= 3 and not _BARE_NUMBER.fullmatch(needle) and _EXPRESSION.search(needle) is not None


def copy_candidates(reference: Any, prediction: Any) -> tuple[str, ...]:
    """The squeezed forms of the answer that :func:`work_avoided` looks for in a prompt: none when the answer equals
    the gold squeezed or no form of it could be copied. A prompt (squeezed) that holds none of them gives the same
    reason as no prompt (``copied_from_prompt`` finds nothing): a reader need not judge again (speed only;
    tests/test_math_fast_paths.py holds the two to each other)."""
    shown = read_through(prediction.text)
    squeezed = squeeze(shown)
    if squeezed == squeeze(read_through(reference.text)):
        return ()
    return tuple(needle for needle in dict.fromkeys((squeezed, squeeze(prediction.text))) if _could_be_copied(needle))


def _unbracketed(text: str) -> str:
    text = text.strip()
    while len(text) > 2 and text[0] + text[-1] in ("()", "{}", "[]"):
        text = text[1:-1].strip()
    return text


def _unsimplified(text: str) -> bool:
    match = _FRACTION.fullmatch(text.strip())
    if match is None:
        return False
    numerator, denominator = (int(g) for g in (match.group(1) or match.group(3), match.group(2) or match.group(4)))
    return denominator == 1 or gcd(numerator, denominator) > 1


def _stated_value(text: str) -> str:
    """The value a chain ends in: ``9 \\times 2 = 18`` -> ``18``, ``\\sqrt{17} \\approx 4.12`` -> ``4.12``; ``text``
    itself when it is no chain or the left side lists other values (``x=5, x=6`` is two answers)."""
    parts = _RELATION.split(text)
    if len(parts) < 2 or len(parts) > 6 or _LISTED.search(without_arguments(parts[0])):
        return text
    return parts[-1]


def _irrational_closed_form(text: str) -> bool:
    form = canonical(text)
    return form is not None and form[0] == "surd" and (form[1].s != 1 or form[1].k != 0)


def _is_value(text: str) -> bool:
    """Is ``text`` (read through its formatting) a value rather than an operation on numbers?"""
    text = _unbracketed(text)
    if not re.search(r"\d", text):
        return not _OPERATION.search(text)  # words, a variable, \infty, \pi -- but not \frac{\pi}{\pi}
    return bool(parse_numeral(text) is not None or _SCIENTIFIC.fullmatch(text) or _DECIMAL_COMMA.fullmatch(text)
                or _irrational_closed_form(text))


# plain TeX's fraction, "{7}\\over{3}" / "7 \\over 3": the notation of \\frac{7}{3}, no operation left (holdout8)
_PLAIN_TEX_FRACTION = re.compile(r"\{?\s*(\d+)\s*\}?\s*\\over(?![A-Za-z])\s*\{?\s*(\d+)\s*\}?")


def work_avoided(reference: Any, prediction: Any, prompt: str) -> str:
    """Why ``prediction`` skips the work (see the module docstring), or ``""``. ``reference`` and ``prediction``
    are :class:`~polyreward.verifiers.math_answers.Reference` and ``Prediction``; ``prompt`` is squeezed by
    :func:`prompt_form` (``""`` when the row has none)."""
    shown = _PLAIN_TEX_FRACTION.sub(r"\\frac{\1}{\2}", read_through(prediction.text))  # "{7}\\over{3}" is 7/3
    if prompt and prediction.source != "option" and squeeze(shown) != squeeze(read_through(reference.text)) and (
            # (an option's value read from its letter is the prompt's by construction: the choice is the work)
            copied_from_prompt(shown, prompt) or copied_from_prompt(prediction.text, prompt)):
        return "the prompt's own expression"
    if reference.kind != "number":
        return ""
    value = _unbracketed(_stated_value(shown))
    if not _is_value(value):
        return "an expression where the gold is a number"
    if _unsimplified(value) and not _unsimplified(reference.text):
        return "an unsimplified fraction where the gold is simplified"
    return ""
