"""A regular expression that skips its search when the text lacks every word the pattern needs (speed only).

The commitment readers (:mod:`.commitment`, :mod:`.hedging`) search each answer's surroundings with long
alternations of words ("not", "never", "rule out", "hunch", "reportedly" ...). Python's ``re`` tries such an
alternation at every position of the text, tens of microseconds per search, and on most answers none of the words
is there. :func:`prefiltered` reads the pattern's own syntax tree once, at import, and derives a set of literal
strings at least one of which every match must contain:

    a literal run           "not"                  -> {"not"}
    a sequence              \\bno\\s+longer          -> the most selective of its parts' sets ({"longer"})
    an alternation          not|never|n't          -> the union of its branches' sets (none if a branch has none)
    a group, a repeat {1,}  (?:...)  x+            -> the set of its body
    anything else           [a-z], ., x*, \\1, ...   -> no set (may match without a fixed string)

When none of the strings occurs in the text, no match exists and the search is skipped; otherwise the real
search runs. The set is derived from the compiled pattern itself, so a word added to the pattern later is in it
too. Case-insensitive patterns compare lower-cased ASCII only: a text with any non-ASCII character is always
searched (Unicode case folding maps some non-ASCII letters to ASCII ones, ``ſ`` to ``s``), and a word of the pattern
with a letter no ASCII letter matches (``уверен``, ``不是``) cannot occur in an ASCII text. Each wrapped pattern
gives exactly the results of the plain one (tests/test_math_fast_paths.py holds every pattern of the readers to it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

try:  # Python 3.11+
    from re import _constants as _sre, _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

_ZERO_WIDTH = {_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT}
_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT} | ({_sre.POSSESSIVE_REPEAT} if hasattr(_sre, "POSSESSIVE_REPEAT") else set())


def _selectivity(options: frozenset[str]) -> tuple[int, int]:
    return min(len(option) for option in options), -len(options)


def required_literals(items: Any) -> frozenset[str] | None:
    """Strings one of which every match of the parsed pattern ``items`` contains, or None when there is no such set."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            candidates.append(frozenset({"".join(run)}))
            run.clear()

    for op, argument in items:
        if op is _sre.LITERAL:
            run.append(chr(argument))
            continue
        if op in _ZERO_WIDTH:  # consumes nothing: the literals on either side stay adjacent
            continue
        close_run()
        found: frozenset[str] | None = None
        if op is _sre.SUBPATTERN:
            _group, add_flags, del_flags, body = argument
            found = required_literals(body) if not add_flags and not del_flags else None
        elif op is _sre.BRANCH:
            branches = [required_literals(branch) for branch in argument[1]]
            found = None if any(b is None for b in branches) else frozenset().union(*branches)  # type: ignore[arg-type]
        elif op in _REPEATS:
            low, _high, body = argument
            found = required_literals(body) if low >= 1 else None
        elif op is _sre.IN and argument and all(kind is _sre.LITERAL for kind, _ in argument):
            found = frozenset(chr(code) for _, code in argument)  # a set of single characters: [❌✗✘]
        if found:
            candidates.append(found)
    close_run()
    return max(candidates, key=_selectivity) if candidates else None


def _may_match_ascii(char: str) -> bool:
    """Can ``char`` match an ASCII character when case is ignored (``ſ`` matches ``s``, ``K`` (Kelvin) ``k``)?"""
    return char.isascii() or any(mapped.isascii() for form in (char.lower(), char.upper(), char.casefold()) for mapped in form)


class Prefiltered:
    """``pattern`` with its searches skipped on texts that hold none of its :func:`required_literals`; every other
    attribute (``pattern``, ``flags``, ``sub`` ...) is the compiled pattern's own."""

    __slots__ = ("compiled", "literals", "ignore_case")

    def __init__(self, compiled: re.Pattern, literals: frozenset[str], ignore_case: bool) -> None:
        self.compiled = compiled
        self.literals = tuple(sorted(literals))
        self.ignore_case = ignore_case

    def may_match(self, text: str) -> bool:
        """False only when no match can exist in ``text`` (none of the required strings occurs in it)."""
        if self.ignore_case:
            if not text.isascii():
                return True
            text = text.lower()
        return any(literal in text for literal in self.literals)

    def search(self, text: str, *args: Any) -> re.Match | None:
        return self.compiled.search(text, *args) if self.may_match(text) else None

    def match(self, text: str, *args: Any) -> re.Match | None:
        return self.compiled.match(text, *args) if self.may_match(text) else None

    def fullmatch(self, text: str, *args: Any) -> re.Match | None:
        return self.compiled.fullmatch(text, *args) if self.may_match(text) else None

    def finditer(self, text: str, *args: Any) -> Iterator[re.Match]:
        return self.compiled.finditer(text, *args) if self.may_match(text) else iter(())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"Prefiltered({self.compiled!r})"


def prefiltered(compiled: re.Pattern) -> re.Pattern | Prefiltered:
    """``compiled`` wrapped in :class:`Prefiltered`, or ``compiled`` itself when no required strings can be derived
    (or the pattern is on bytes, or its case-insensitive words are not plain ASCII)."""
    if not isinstance(compiled.pattern, str):
        return compiled
    try:
        literals = required_literals(_sre_parse.parse(compiled.pattern, compiled.flags))
    except Exception:  # a construct this reader does not know: search the plain way
        return compiled
    if not literals:
        return compiled
    ignore_case = bool(compiled.flags & re.IGNORECASE)
    if ignore_case:  # only ASCII texts are filtered: a word with a letter no ASCII letter matches cannot occur in them
        ascii_only = frozenset(literal for literal in literals if literal.isascii())
        if any(_may_match_ascii(char) for literal in literals - ascii_only for char in literal if not char.isascii()):
            return compiled
        literals = frozenset(literal.lower() for literal in ascii_only)
    return Prefiltered(compiled, literals, ignore_case)
