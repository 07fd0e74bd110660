"""An answer to a question in another base that the writer calls a decimal number (red team holdout28, stop 52 / #32).

    gold "1011_2":  "The digits are 1011, and the answer is the decimal number $\\boxed{1011}$ (one thousand eleven)."

A gold written with a base subscript other than ten (``1011_2``, ``1011_{2}``, ``17_8``, ``FF_{16}``) is compared by
its digits, so the same digits pay whatever the writer says they mean. Read structurally next to the answer: the
words right before it or right after it name base ten (``decimal``, ``base 10`` / ``base ten``, ``denary``, a
subscript ``_{10}``), or a bracket right after it spells the digits read in base ten as an English number word
(``(one thousand eleven)``) -- the writer states the number one thousand eleven, not the binary numeral, and is not
paid for it. Saying where the digits come from (``converting the decimal number 11 ...``) names another value and
leaves the answer alone; a claim of the gold's own base (``1011 in binary``) is no decimal claim.
"""

from __future__ import annotations

from polyreward.verifiers.math_normalize import number_from_words
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# the gold's digits and a base other than ten: "1011_2", "1011_{2}", "FF_{16}", "$1011_2$"
_BASED_GOLD = re.compile(r"\A\$?\s*(?P<digits>[0-9A-Fa-f]+)\s*_\s*\{?\s*(?P<base>\d{1,2})\s*\}?\s*\$?\Z")
_DECIMAL = r"(?:decimal|denary|base[\s-]*(?:10|ten)|in\s+base\s+(?:10|ten))"
# base ten named right before the answer: "the decimal number $\\boxed{1011}$", "in base 10: 1011", "decimal 1011"
_DECIMAL_BEFORE = re.compile(_DECIMAL + r"(?:\s+(?:number|numeral|value|integer|form|representation|notation))?"
                             r"(?:\s+(?:is|=|of))?[\s:=$(*]*(?:\\boxed\{|\\fbox\{)?\s*\Z", re.IGNORECASE)
# ... or right after it: "1011 in decimal", "1011 (base 10)", "1011_{10}", "1011, a decimal number"
_DECIMAL_AFTER = re.compile(r"\A[\s$}*]*(?:_\{?10\}?|[,(]?\s*(?:(?:which\s+is\s+|i\.e\.\s+|as\s+|a\s+|in\s+)?(?:the\s+)?)" + _DECIMAL + r"\b)",
                            re.IGNORECASE)
# a bracket of English number words right after it: "(one thousand eleven)"
_WORDS_BRACKET = re.compile(r"\A[\s$}*]*\(\s*(?P<words>[A-Za-z][A-Za-z\s,-]{2,80}?)\s*\)")


def may_be_based(gold: str) -> bool:
    """Can :func:`decimal_claim` find a claim for ``gold`` at all? (speed: a caller skips making the visible text it
    reads) It reads only a gold that :data:`_BASED_GOLD` matches, and that pattern cannot match without its "_"."""
    return not isinstance(gold, str) or "_" in gold  # (anything but a string: the long way, as before)


def decimal_claim(gold: str, answer: str, text: str) -> bool:
    """Is ``answer`` (the gold's digits, found equal to a ``gold`` in a base other than ten) called a base-ten number
    in ``text`` (the visible completion) right before or after its last occurrence?"""
    based = _BASED_GOLD.match(gold.strip())
    if based is None or int(based.group("base")) in (0, 1, 10):
        return False
    digits = based.group("digits")
    written = re.sub(r"[\s${}]|\\boxed", "", answer)
    if written == digits + "_10":
        return True  # "\\boxed{1011_{10}}": the subscript names base ten
    if written != digits:
        return False  # (only the bare digits: "1011_2" as written names its base)
    at = -1
    for found in re.finditer(rf"(?<![0-9A-Za-z_]){re.escape(digits)}(?![0-9A-Za-z])", text):
        if not re.search(r"base[\s-]*\Z", text[max(0, found.start() - 8):found.start()], re.IGNORECASE):
            at = found.start()  # (the "10" of "(base 10)" names the base: digits "10" are the answer before it)
    if at < 0:
        return False
    end = at + len(digits)
    if re.match(r"\s*_", text[end:]) and not re.match(r"\s*_\{?10\}?", text[end:]):
        return False  # "1011_2": the gold's own base written after it
    if _DECIMAL_BEFORE.search(text[max(0, at - 80):at]) or _DECIMAL_AFTER.match(text[end:end + 60]):
        return True
    bracket = _WORDS_BRACKET.match(text[end:end + 100])
    return bracket is not None and digits.isdigit() and number_from_words(bracket.group("words")) == int(digits)
