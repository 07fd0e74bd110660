"""A mark on the answer that only restates what the question asks (holdout115): the value read without it.

* **the base the question asks for** -- ``\\boxed{42_8}`` for "Express 34 in base 8." is the numeral 42 in base 8, as
  the question asks; the subscript names that base, it is no operation left undone. Another base than the one asked
  (``34_8`` for "Express $42_8$ as a base 10 integer.") keeps its subscript and stays another number.
* **a remainder written as a congruence** -- ``142 \\equiv \\boxed{42 \\pmod{50}}`` for "What is the remainder when
  142 is divided by 50?" is the remainder 42: the modulus is the divisor the question names and the value is a
  residue (0 <= value < modulus). A modulus the question does not name (``\\boxed{42 \\pmod{50}}`` for "What is
  4 × 23?") keeps the annotation, and the answer stays a congruence class, not the value.

Read by :func:`.math_answers.prepare_prediction` with the row's prompt; reconstructed rule (ours), anchored patterns
on the answer and the prompt.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_BASED = re.compile(r"\A\s*(?P<digits>[0-9A-Fa-f]+)\s*_\s*\{?\s*\(?\s*(?P<base>\d{1,2})\s*\)?\s*\}?\s*\Z")
_BASE_ASKED = re.compile(r"\b(?:in|to|into)\s+base[\s-]*(?:\$\s*)?(\d{1,2})\b|\bbase[\s-]*(\d{1,2})\s+(?:representation|numeral|form|notation)\b",
                         re.IGNORECASE)
_RESIDUE = re.compile(r"\A\s*(?P<value>\d{1,12})\s*(?:\\pmod\s*\{?\s*(?P<m1>\d{1,12})\s*\}?|\(\s*(?:\\bmod|\\mod|mod)\s*(?P<m2>\d{1,12})\s*\)"
                      r"|\\bmod\s*\{?\s*(?P<m3>\d{1,12})\s*\}?)\s*\Z")
_REMAINDER_ASKED = re.compile(r"\b(?:remainder|residue|modulo|mod|divided\s+by)\b", re.IGNORECASE)


def in_asked_notation(answer: str, prompt: str) -> str:
    """``answer`` without a base subscript or a modulus that only restates what ``prompt`` asks (module docstring),
    else ``answer`` itself.

    >>> in_asked_notation("42_8", "Express the decimal number 34 in base 8.")
    '42'
    >>> in_asked_notation("34_8", "Express $42_8$ as a base 10 integer.")
    '34_8'
    >>> in_asked_notation("42 \\\\pmod{50}", "What is the remainder when 142 is divided by 50?")
    '42'
    >>> in_asked_notation("42 \\\\pmod{50}", "What is $4 \\\\times 23$?")
    '42 \\\\pmod{50}'
    """
    if not prompt:
        return answer
    based = _BASED.match(answer)
    if based is not None:
        asked = {int(number) for found in _BASE_ASKED.finditer(prompt) for number in found.groups() if number}
        return based.group("digits") if int(based.group("base")) in asked else answer
    residue = _RESIDUE.match(answer)
    if residue is not None and _REMAINDER_ASKED.search(prompt):
        modulus = residue.group("m1") or residue.group("m2") or residue.group("m3")
        named = re.search(rf"(?<![\d.,]){modulus}(?![\d]|[.,]\d)", prompt) is not None
        return residue.group("value") if named and int(residue.group("value")) < int(modulus) else answer
    return answer
