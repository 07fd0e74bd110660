"""The size guard: refuse a math answer whose value would be astronomically large before sympy sees it.

:func:`size_problem` is a cheap cost estimate on the text (main process and worker, before any parse): power towers
such as Math-Verify issue #65, huge exponents, powers and binomials of literals with more than
:data:`MAX_RESULT_DIGITS` digits, factorials above :data:`MAX_FACTORIAL` and thousand-digit literals are refused;
the worker pool's hard timeout stays as the last line of defence.
"""

from __future__ import annotations

import math
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

MAX_ANSWER_CHARS = 1000  # an extracted answer longer than this is not an answer
MAX_EXPONENT = 10_000  # 2^10000 has ~3,000 digits: fine; larger exponents of numerals are refused
MAX_FACTORIAL = 5_000
MAX_DIGITS = 2_000
MAX_RESULT_DIGITS = 10_000  # a power or binomial of literals whose value has more digits is refused (cost estimate)


def _matching(text: str, start: int, open_char: str, close_char: str) -> int:
    """Index of the bracket closing the one at ``start`` (-1 if unbalanced)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_char:
            depth += 1
        elif text[i] == close_char:
            depth -= 1
            if depth == 0:
                return i
    return -1


_COMMANDS = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg|cdot|times|div|,|;|!| )")
_DIGIT_RUN = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))
_BRACKET_FACTORIAL = re.compile(r"[)}\]]\s*!")  # (10^{10})!: the factorial of a bracketed expression
# an unbraced or braced chain of numeric powers: 9^9^9, 5^{5}^{5}
_POWER_CHAIN = re.compile(r"\d\s*\^\s*(?:\{\s*[-+]?[\d.]+\s*\}|[-+]?[\d.]+)\s*\^")


def _bracket_before(text: str, close_at: int) -> tuple[int, str]:
    """Where the bracket group closing at ``close_at`` opens, and the text inside it (scanned backwards; to the
    start if unbalanced)."""
    depth = 0
    for i in range(close_at, -1, -1):
        if text[i] in ")}]":
            depth += 1
        elif text[i] in "({[":
            depth -= 1
            if depth == 0:
                return i, text[i + 1:close_at]
    return 0, text[:close_at]


_FACTORIAL_CHAIN = re.compile(r"(?<![\d.])(\d+)((?:\s*!)+)")


def _chain_too_large(n: int, bangs: int) -> bool:
    """Is ``n`` followed by ``bangs`` factorial signs ((n!)!...) over the limit? Every operand must be at most
    MAX_FACTORIAL; only operands up to 7 (7! = 5040) are evaluated, a larger one behind another ``!`` is too large."""
    value = n
    for step in range(bangs):
        if value > MAX_FACTORIAL:
            return True
        if step < bangs - 1:
            value = _SMALL_FACTORIALS[value] if value < len(_SMALL_FACTORIALS) else MAX_FACTORIAL + 1
    return False


_SMALL_FACTORIALS = [1, 1, 2, 6, 24, 120, 720, 5040]


def _bracket_factorial_problem(text: str, close_at: int) -> str | None:
    """Why the factorial of the bracket group closing at ``close_at`` is too large to evaluate, or None.

    Numeric operands only (a letter makes it symbolic: ``(n+1)!``): a power (``(10^{10})!``, ``10^{10}!``, whose
    braces close the exponent), a factorial inside (``(10!)!``) unless it is small, or a long digit run."""
    open_at, inner = _bracket_before(text, close_at)
    plain = re.sub(r"\s+", "", _COMMANDS.sub("", inner))
    if re.search(r"[A-Za-z]", plain):
        return None
    chain = re.fullmatch(r"\(*(\d+)((?:\)*!)+)\)*", plain)
    if chain:
        return f"factorial of {plain[:20]}" if _chain_too_large(int(chain.group(1)), chain.group(2).count("!") + 1) else None
    if re.search(r"\d\s*\^\s*$", text[:open_at]):
        return f"factorial of a power ^{{{plain[:20]}}}"
    if "^" in plain or "!" in plain or re.search(r"\d{%d,}" % len(str(MAX_FACTORIAL)), plain):
        return f"factorial of {plain[:20]}"
    return None


def _exponent_groups(text: str):
    """Yield (base_text, exponent_text) for every ``^`` (exponent = a braced group or one token)."""
    for match in re.finditer(r"\^", text):
        j = match.end()
        while j < len(text) and text[j] == " ":
            j += 1
        if j < len(text) and text[j] in "{(":
            end = _matching(text, j, text[j], "}" if text[j] == "{" else ")")
            exponent = text[j + 1:end] if end >= 0 else text[j + 1:]
        else:
            exponent = re.match(r"[-+]?\d+|\\?[A-Za-z]+|.?", text[j:]).group()
        base = re.search(r"(\d+|[A-Za-z]|[)}\]])\s*$", text[:match.start()])
        yield (base.group(1) if base else ""), exponent


def size_problem(text: str) -> str | None:
    """Why ``text`` is too big to hand to sympy (a reason string), or None if it is safe.

    Refused: answers over MAX_ANSWER_CHARS characters, digit runs over MAX_DIGITS, numeric power
    towers (an exponent that itself holds a numeric ``^``), numeric exponents above MAX_EXPONENT and
    factorials above MAX_FACTORIAL. Symbolic towers such as ``e^{x^2}`` are fine.
    """
    if _DIGIT_RUN.search(text):
        return f"number with more than {MAX_DIGITS} digits"
    if len(text) > MAX_ANSWER_CHARS:
        return f"answer longer than {MAX_ANSWER_CHARS} characters"
    for match in _FACTORIAL_CHAIN.finditer(text):
        if _chain_too_large(int(match.group(1)), match.group(2).count("!")):
            operand = match.group(1) if match.group(2).count("!") == 1 else match.group().replace(" ", "")
            return f"factorial of {operand[:20]} (limit {MAX_FACTORIAL})"
    for match in _BRACKET_FACTORIAL.finditer(text):
        problem = _bracket_factorial_problem(text, match.start())
        if problem:
            return f"{problem} (limit {MAX_FACTORIAL})"
    for match in _BINOMIAL.finditer(text):
        problem = _binomial_problem(match.group(1) or match.group(3), match.group(2) or match.group(4))
        if problem:
            return problem
    if "^" not in text:
        return None
    plain = _COMMANDS.sub(" ", text.replace("**", "^"))
    if _POWER_CHAIN.search(plain):
        return "numeric power tower"
    for base, exponent in _exponent_groups(plain):
        symbolic = re.search(r"[A-Za-z]", _COMMANDS.sub("", exponent).replace("frac", "").replace("sqrt", ""))
        if "^" in exponent and not symbolic:
            return "numeric power tower"
        digits = re.sub(r"[\s{}()]", "", exponent).lstrip("+-")
        if digits.isdigit() and len(digits) > 6 or digits.isdigit() and int(digits) > MAX_EXPONENT and not base.isalpha():
            return f"exponent {digits[:12]} above {MAX_EXPONENT}"
        if digits.isdigit() and base.isdigit() and int(base) > 1 and int(digits) * math.log10(int(base)) > MAX_RESULT_DIGITS:
            return f"{base[:12]}^{digits} has more than {MAX_RESULT_DIGITS} digits"
    return None


# \binom{n}{k}, \dbinom, \tbinom, {n \choose k}: C(n, k) has log10(n! / (k! (n-k)!)) digits, estimated with lgamma
_ARGUMENT = r"\{((?:[^{}]|\{[^{}]{0,20}\}){1,60})\}"
_BINOMIAL = re.compile(r"\\[dt]?binom\s*" + _ARGUMENT + r"\s*" + _ARGUMENT + r"|\{((?:[^{}]|\{[^{}]{0,20}\}){1,60})\\choose((?:[^{}]|\{[^{}]{0,20}\}){1,60})\}")
_SMALL_POWER = re.compile(r"(\d{1,6})\^\(?(\d{1,3})\)?")


def _small_integer(text: str) -> int | None:
    """``text`` as an integer when it is digits or a power of digits below 10^18 (``10^9``), else None."""
    if text.isdigit() and len(text) <= 18:
        return int(text)
    power = _SMALL_POWER.fullmatch(text)
    if power and int(power.group(2)) * math.log10(max(int(power.group(1)), 1)) <= 18:
        return int(power.group(1)) ** int(power.group(2))
    return None


def _binomial_problem(n_text: str, k_text: str) -> str | None:
    """Why C(n, k) is too large to evaluate (over MAX_RESULT_DIGITS digits by the lgamma estimate, or numeric
    arguments too large to estimate), or None; symbolic arguments (``\\binom{n}{2}``) are fine."""
    n_plain, k_plain = (re.sub(r"[\s{}]+", "", _COMMANDS.sub("", side)) for side in (n_text, k_text))
    if re.search(r"[A-Za-z]", n_plain + k_plain):
        return None
    n, k = _small_integer(n_plain), _small_integer(k_plain)
    if n is None or k is None:
        return f"binomial of {n_plain[:20]} and {k_plain[:20]}" if re.search(r"[\^!]|\d{19}", n_plain + k_plain) else None
    if not 0 <= k <= n:
        return None
    digits = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(10)
    return f"binomial C({n_plain[:20]}, {k_plain[:20]}) has about {digits:.0f} digits" if digits > MAX_RESULT_DIGITS else None
