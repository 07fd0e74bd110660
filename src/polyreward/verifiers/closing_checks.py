"""A closing check that passes is no second value (issue #32, holdout67).

A writer who has answered often checks the answer in a sentence of its own, under a heading of checking: "Domain
check: x > 0 ✓.", "Check at x = 2: 3 · 1 = 3 and 4 − 1 = 3 ✓.", "Both check: (−3)² = 3² = 9.", "Quick check: 56 ÷ 7 =
8 ✓.", "Double-check: 10 % is 20 and 5 % is 10, total 30 ✓.". Its numbers are the check's, not the answer: the value
before it is. :func:`passing_check_start` says where such a sentence starts when

* it is the text's last sentence, opening a sentence or a line, or in brackets of its own ("... 8 cm. (Check: 2 × 23 = 46 ✓)")
  with a heading of checking: at most two words, then ``check`` / ``checks`` /
  ``checking`` / ``double-check`` / ``verification`` / ``verify`` (or ``vérification``, ``comprobación``,
  ``Probe``, ``Prüfung``, ``verifica``, ``controllo``), optionally the point it checks at ("Check at x = 2"),
  then a colon;
* it passes: a tick (✓, ✔, ✅) and no failing mark, or, without a tick, every equation of numbers in it holds (powers,
  absolute values and the four operations evaluated exactly) and there is at least one;
* it concludes nothing and fails nothing: no cross or not-equal sign (✗, ✘, ❌, ≠, ``\\neq``), no word of negation,
  contrast, correction or conclusion ("not", "but", "so", "must", "wrong", "recount", "answer", ...).

A check that fails ("8 − 12 + 6 = 3, so I need to recount"), one without a tick whose arithmetic is false ("Both
check: 4 − 10 + 6 = 1"), or one that concludes another value ("..., so the solution set is [2, ∞)") is not such a
sentence and is read as before. Reconstructed rule (ours); bounded patterns over the last 300 characters: linear time.
"""

from __future__ import annotations

import ast
import operator
from fractions import Fraction

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

WINDOW = 300

# a heading of checking at the start of a sentence or a line: "Check:", "Domain check:", "Both check:", "Quick check:",
# "Double-check:", "Sanity check:", "Check at x = 2:", "Verification:"
# (holdout79: or in brackets of its own, "The width is 8 cm. (Check: 2 × (15 + 8) = 46 ✓)", "12 bags. [check: 12 × 8 = 96 ✓]")
_HEADING = re.compile(r"(?:(?<=[.!\n])|\A)[^\S\n]*[(\[]?[^\S\n]*(?:[A-Za-z][A-Za-z-]*[^\S\n]+){0,2}?"
                      r"(?i:(?:double-?|re-?)?check(?:s|ing)?|verif(?:y|ying|ication)|vérification|comprobación|prüfung|probe|controllo|verifica)"
                      r"(?:[^\S\n]+(?i:at|with|for|of)[^\S\n]+[^:.\n]{1,30})?[^\S\n]*:")
# the check is the closing sentence: nothing after its own end ("Check: ... ✓. The larger root is 3." goes on)
_LATER_SENTENCE = re.compile(r"[.!?][^\S\n]+\S|\n|\\boxed")
_TICK = re.compile(r"[✓✔✅]")
# what makes a check fail, conclude or correct: a cross, a not-equal sign, a word of negation, contrast or conclusion
_FAILS_OR_CONCLUDES = re.compile(r"[✗✘❌≠]|\\neq?\b|n't\b|\b(?i:not|no|but|however|so|thus|hence|therefore|must|wrong|incorrect|fails?|failed|"
                                 r"false|mistake|error|oops|recount|redo|recheck|answer|instead|actually|rather|extraneous|reject\w*|"
                                 r"discard\w*|should|hmm+|wait|or|either|maybe|perhaps|means?)\b|\?")
# an equation of numbers: sides separated by "=", each made of digits, operators, brackets, bars and powers
_SIDE = r"[-(|\d][\d\s.+\-*/×·÷:()|^{}]*?"
_CHAIN = re.compile(r"(?<![\w^])(" + _SIDE + r"(?:\s*=\s*" + _SIDE + r")+)(?=\s*(?:[,;.!✓✔)\]]|\band\b|\Z))")  # (")": a bracketed check's end
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _value(expression: str) -> Fraction | None:
    """The exact value of an expression of numbers (+ − × · * / ÷, brackets, ``|..|``, small whole powers), or None."""
    text = expression.replace("−", "-").replace("×", "*").replace("·", "*").replace("÷", "/").replace(":", "/")
    text = re.sub(r"\^\{?(\d)\}?", r"**\1", text.replace(" ", ""))
    text = re.sub(r"\|([^|]+)\|", r"abs(\1)", text)
    if re.search(r"[^\d.+\-*/()absb]", text) or len(text) > 80:
        return None
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        return None

    def value(node) -> Fraction:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return Fraction(str(node.value))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = value(node.right)
            if exponent.denominator != 1 or not 0 <= exponent <= 9:
                raise ValueError(node)
            return value(node.left) ** int(exponent)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -value(node.operand) if isinstance(node.op, ast.USub) else value(node.operand)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "abs" and len(node.args) == 1
                and not node.keywords):
            return abs(value(node.args[0]))
        raise ValueError(node)
    try:
        return value(tree.body)
    except (ValueError, ZeroDivisionError, RecursionError, TypeError):
        return None


def equations_hold(body: str) -> bool:
    """Does ``body`` hold at least one equation of numbers, and does every one of them hold exactly ("(-3)^{2} = 3^{2} =
    9", "4 - 10 + 6 = 0 and 9 - 15 + 6 = 0")? A side that is not plain arithmetic makes it False."""
    chains = [m.group(1) for m in _CHAIN.finditer(body)]
    if not chains:
        return False
    for chain in chains:
        values = [_value(side) for side in chain.split("=")]
        if any(v is None for v in values) or len(set(values)) != 1:
            return False
    return True


def passing_check_start(text: str) -> int | None:
    """Where a closing sentence that checks the answer and passes starts in ``text`` (module docstring), when something
    with a digit stands before it; None when the text does not end with one."""
    start = max(0, len(text) - WINDOW)
    if not may_hold_heading(text[start:]):
        return None
    headings = list(_HEADING.finditer(text, start))
    if not headings:
        return None
    heading = headings[-1]
    body = text[heading.end():]
    if _LATER_SENTENCE.search(body.strip()) or _FAILS_OR_CONCLUDES.search(body):
        return None
    if not (_TICK.search(body) or equations_hold(body)):
        return None
    if not re.search(r"\d", text[:heading.start()]):
        return None
    return heading.start()


# the words one of which every heading of checking holds ("check" in "Double-check", "verif" in "verifica"), lower-case
_CHECK_WORDS = ("check", "verif", "probe", "controllo")


def may_hold_heading(window: str) -> bool:
    """False only where :data:`_HEADING` matches nothing in ``window`` (speed: its search tries every position of the
    300 characters, ~6 µs; this ~1 µs). Exact, not a heuristic: every match holds a word of its case-insensitive group,
    so a substring that equals, ignoring case, "check", "verif" (verify, verification, verifica), "probe", "controllo",
    "vérification", "comprobación" or "prüfung", and after it, on the same line, the heading's colon, with no other
    colon between (what may follow the word -- its ending, white space, "at"/"with"/"for"/"of" and up to 30 characters
    but ":", "." and a line break -- holds neither a colon nor a line break). So "let me check it twice.\n...Step 2:"
    holds none. In an ASCII window the last three words cannot occur (no character of an ASCII text matches "é", "ó"
    or "ü", ignoring case) and ``re``'s case-insensitive match of an ASCII letter is the ASCII letter of either case,
    what ``str.lower`` compares; any other window is searched as before."""
    if not window.isascii():
        return True
    lowered = window.lower()
    for word in _CHECK_WORDS:
        at = lowered.find(word)
        while at >= 0:
            colon = lowered.find(":", at)
            if colon < 0:
                break  # no colon after this word, none after a later one either
            if "\n" not in lowered[at:colon]:
                return True
            at = lowered.find(word, at + 1)
    return False
