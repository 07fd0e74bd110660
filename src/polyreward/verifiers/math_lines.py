"""A line of the completion that is nothing but math, and the math tail of a line of prose.

The last-line readers of :mod:`.answer_extraction` read an answer written as math without an answer phrase: a whole
line of numbers, one-letter variables, function names, LaTeX commands and operators (``x^2 + 3x``, ``= 2\\sqrt{3}``,
```n(n+1)/2```), or the longest such tail after the last word of a sentence (``Thus we get x^2+3x``), so that an
expression is not cut down to its last number. Bounded work: a line over MAX_MATH_LINE characters is no math line,
and tails start in its last MAX_MATH_LINE characters.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.units import COMPOUND_UNIT

# a line of nothing but math: numbers, one-letter variables, function names, LaTeX commands, operators
# (the relation signs ≤ ≥ ≠ too: "-2 ≤ x ≤ 2" is an interval written as a compound inequality, holdout85)
_MATH_LINE_TOKEN = re.compile(r"\\[A-Za-z]+|[A-Za-z]+|\d+(?:\.\d+)?|\\[{}\\ ,;!]|[-+*/^=<>!%,.;:()\[\]{}|&_'\s≤≥≠⩽⩾]")
_MATH_LINE_WORDS = {
    "sqrt", "pi", "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "log", "ln", "exp", "infty", "inf", "oo", "mod",
}
MAX_MATH_LINE = 200
# a line that ends on a number and its unit (:data:`.units.COMPOUND_UNIT`, SI's spaced products included)
_NUMBER_WITH_UNIT = re.compile(r"(?<![\w.^{])\d+(?:\.\d+)?[^\S\n]+(?:" + COMPOUND_UNIT + r")[^\S\n]*\Z")


def math_line(line: str) -> str | None:
    """``line`` stripped of a leading ``=``/``:`` when it is all math (see module docstring), else None."""
    line = line.strip()
    if len(line) > 2 and line[0] == line[-1] == "`":  # markdown inline code: `x^2+3x`
        line = line[1:-1]
    line = line.strip().lstrip("=:").strip()
    if not line or len(line) > MAX_MATH_LINE or not re.search(r"[\dA-Za-z]", line):
        return None
    tokens = _MATH_LINE_TOKEN.findall(line)
    if "".join(tokens) != line:
        return None
    words = [t for t in tokens if t[0].isalpha()]
    if any(len(w) > 1 and w.lower() not in _MATH_LINE_WORDS for w in words):
        return None
    return line


def math_tail(line: str) -> str | None:
    """The longest tail of ``line`` after a word that is math beyond plain arithmetic ("Thus we get x^2+3x",
    "It equals 2n+1": a power, a variable, a command or a product), so it is not cut down to its last number.
    Tails start at spaces in the last MAX_MATH_LINE characters: bounded work whatever the line."""
    line = re.sub(r"[.!]?\s*$", "", line)[-MAX_MATH_LINE:]
    for start in re.finditer(r"\s(?=\S)", line):
        tail = math_line(line[start.end():])
        if tail is not None and _balanced(tail):
            if re.fullmatch(r"[A-Z][A-Za-z]*\d+[A-Za-z]+", tail.strip()):
                return None  # "500 mL of D5W", "a dose of NaCl09X": a name with digits in it, not a product of a variable
            if _NUMBER_WITH_UNIT.search(line):
                return None  # "R = 8.31 J mol⁻¹ K⁻¹": "K^{-1}" is the end of the value's unit, not an expression (holdout63)
            if re.search(r"(?:\b(?:and|or)|,)\s*$", line[:start.end()]):
                return None  # the last item of a list ("x = 2 or x = 3"), not the answer
            plain = "=" not in tail and re.fullmatch(r"[-−+]?[\d\s.,]+(?:[-+/][\d\s.,]+)*%?", tail)
            first, _, rest = tail.partition("=")
            if rest and re.fullmatch(r"\s*[\d.,]+\s*", first) and re.search(r"\b(?:of|in|from|for)\s*\Z", line[:start.end()]):
                tail = rest.strip()  # "15% of 80 = 0.15 × 80 = 12": the first side is the end of a phrase (holdout20)
            if not plain and _REASON_BEFORE.search(line[:start.end()]) and (main := _main_clause(tail)) is not None:
                return main  # "Since 2^6 = 64, log_2(64) = 6.": the reason's equation, then the main clause's (holdout68)
            return None if plain or not (re.search(r"[A-Za-z\\^*(]", tail) or _INTERVAL.fullmatch(tail)) else tail
    return None


# an interval written with its brackets, open or closed at either end ("[2, 5)", "(-3, 7]", "[0, 1]"): read whole, not
# cut down to its last bound
_INTERVAL = re.compile(r"[(\[][^\S\n]*[-−+]?[^,()\[\]\s][^,()\[\]]{0,40},[^\S\n]*[-−+]?[^,()\[\]\s][^,()\[\]]{0,40}[)\]]")


# a word that opens a clause of reason or condition before its comma ("Since 2^6 = 64, log_2(64) = 6.", "As x = 2,
# 3x = 6", "Puisque 2^6 = 64, log_2(64) = 6", "Da 2^6 = 64, ...", "Como 2^6 = 64, ...", "Так как 2^6 = 64, ...")
_REASON_BEFORE = re.compile(r"(?:\A|\s)(?i:since|because|as|given(?:\s+that)?|now\s+that|puisque|comme|étant\s+donné\s+que|weil|da|"
                            r"porque|ya\s+que|como|puesto\s+que|poiché|siccome|visto\s+che|так\s+как|поскольку)\s*\Z")


def _main_clause(tail: str) -> str | None:
    """The equation after the comma that closes a subordinate clause's equation in ``tail`` ("2^6 = 64, log_2(64) =
    6" -> "log_2(64) = 6"): one top-level comma, an equation on each side; else None (a tuple, "x = 2, y = 3", is read
    whole by its caller only when no clause of reason opens it)."""
    depth, commas = 0, []
    for at, char in enumerate(tail):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            commas.append(at)
    if len(commas) != 1 or "=" not in tail[:commas[0]]:
        return None
    main = math_line(tail[commas[0] + 1:])
    return main if main is not None and "=" in main else None


def _balanced(text: str) -> bool:
    """Does every bracket of ``text`` close, braces among themselves and round and square brackets as one kind, so
    an interval open at one end and closed at the other ("[2, 5)", "(0, 1] \\cup [2, 3)") is balanced too?"""
    depth = {"(": 0, "{": 0}
    for char in text:
        if char in "([{":
            depth["{" if char == "{" else "("] += 1
        elif char in ")]}":
            depth["{" if char == "}" else "("] -= 1
            if min(depth.values()) < 0:
                return False
    return not any(depth.values())
