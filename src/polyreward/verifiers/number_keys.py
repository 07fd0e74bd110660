"""Numbers as keys: a number written two ways is one key ('45', '+45', '45.0' and '90/2' alike), so a clause that
restates the answer is told from one that states another value. Read by :mod:`.commitment` (the values of the clauses
after an answer), :mod:`.alternative_branches` and :mod:`.answer_extraction` (does a clause state a value other than
the answer?).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from typing import Callable

from polyreward.verifiers.memo import memoized_text

# a plain value standing alone: not part of a word, a power or an index, braced or not ("13_{10}": the base named,
# holdout96) (the values :mod:`.commitment` reads in the clauses after an answer)
_VALUE = re.compile(
    r"(?<![\w.^_\\])(?<![\^_]\{)(?<!\^\{[-+])(?<!\^[-+])[-+]?(?:\d+(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?|\.\d+)%?(?![\w.]*[A-Za-z])(?!\s*[\^_])"
)


@memoized_text(max_chars=64)  # (speed: the same few values are keyed again in every clause and rollout)
def value_key(value: str) -> str:
    """A number written two ways is one key: '45', '+45', '45.0' and '90/2' alike."""
    from fractions import Fraction

    text = value.replace(" ", "").lstrip("+")
    percent = text.endswith("%")
    text = text.rstrip("%")
    try:
        if "/" in text:
            top, bottom = text.split("/", 1)
            number = Fraction(top) / Fraction(bottom)
        else:
            number = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text
    return f"{number}{'%' if percent else ''}"


def value_keys(text: str) -> set[str]:
    """The keys of every plain value in ``text`` ("Case 1 gives 45" has 1 and 45)."""
    return {value_key(v.group()) for v in _VALUE.finditer(text)}


def answer_keys(answer: str) -> set[str]:
    """The value keys a later clause may restate ``answer`` with (its numbers when it is one value)."""
    return set(_answer_keys(answer))


def value_is(answer: str) -> Callable[[str, int], bool | None]:
    """A test of the plain value that starts at ``text[at]``: is it ``answer`` (True), another value (False), or is
    there no value there (None)? For options, :func:`.option_letters.letter_is`."""
    keys = answer_keys(answer)

    def test(text: str, at: int) -> bool | None:
        value = _VALUE.match(text, at)
        return None if value is None else value_key(value.group()) in keys
    return test


@memoized_text()  # (speed: a reader asks for one answer's keys several times)
def _answer_keys(answer: str) -> frozenset[str]:
    plain = re.sub(r"\\[dt]?frac\{(\d+)\}\{(\d+)\}", r"\1/\2", answer)
    plain = re.sub(r"\\[a-zA-Z]+|[{}$\s]|(?<=\d),(?=\d{3})", "", plain)
    keys = {value_key(v.group()) for v in _VALUE.finditer(plain)}
    whole = _VALUE.fullmatch(plain)
    return frozenset({value_key(whole.group())} if whole else keys)
