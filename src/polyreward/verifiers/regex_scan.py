"""A one-character pattern searched by skipping to the characters it can consume (speed only; same results).

The clause readers (:mod:`.clauses`, :mod:`.commitment`, :mod:`.hypothetical`) cut every window around an answer at
its clause ends: patterns that consume exactly one character (``.``, ``!``, ``?``, ``;``, a line break) and look
around it (the period of "e.g." or "Fig. 2" ends no clause). Such a pattern opens with a look-around, so Python's
``re`` cannot skip ahead to a candidate character and tries every position of the text, about 40 ns each: most of
the cost of reading a clause. :func:`scanned` rewrites it, once at import, as

    [.!?;\\n](?<=(?:PATTERN))

the set of characters the pattern can consume (read off its own syntax tree), then the whole pattern as a
look-behind over that one character. A pattern that opens with a character set is scanned by ``re`` in C, a few
nanoseconds a character, and the look-behind decides exactly as the pattern did: its match is the same single
character, its look-arounds see the same text (a look-behind, like the original, sees before ``pos``; ``endpos``
ends the text for both). Only patterns of width exactly one whose consumed characters are a small set of uncased
characters are rewritten; any other is returned unchanged. tests/test_reading_fast_paths.py holds every rewritten
pattern to the plain one on generated hostile text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from polyreward.verifiers.regex_prefilter import _REPEATS, _ZERO_WIDTH, _sre, _sre_parse

_MAX_CHARS = 64  # a set larger than this is not worth scanning for (nor listed)


def consumed_characters(items: Any) -> set[str] | None:
    """A superset of the characters a match of the parsed pattern ``items`` can consume, or None when it cannot be
    told (a category such as ``\\w``, a negated set, any character)."""
    found: set[str] = set()
    for op, argument in items:
        if op in _ZERO_WIDTH:
            continue  # a look-around or anchor consumes nothing
        if op is _sre.LITERAL:
            found.add(chr(argument))
        elif op is _sre.IN:
            for kind, value in argument:
                if kind is _sre.LITERAL:
                    found.add(chr(value))
                elif kind is _sre.RANGE and value[1] - value[0] < _MAX_CHARS:
                    found.update(chr(code) for code in range(value[0], value[1] + 1))
                else:
                    return None
        elif op is _sre.BRANCH:
            for branch in argument[1]:
                inner = consumed_characters(branch)
                if inner is None:
                    return None
                found |= inner
        elif op is _sre.SUBPATTERN:
            _group, add_flags, _del_flags, body = argument
            inner = consumed_characters(body)
            if inner is None or add_flags & re.IGNORECASE and any(ch.lower() != ch.upper() for ch in inner):
                return None
            found |= inner
        elif op in _REPEATS:
            inner = consumed_characters(argument[2])
            if inner is None:
                return None
            found |= inner
        else:
            return None
        if len(found) > _MAX_CHARS:
            return None
    return found


class Scanned:
    """``compiled`` with :meth:`search` and :meth:`finditer` run by its character-set rewrite ``fast``; every other
    attribute (``pattern``, ``flags``, ``match`` ...) is the compiled pattern's own."""

    __slots__ = ("compiled", "fast", "characters")

    def __init__(self, compiled: re.Pattern, fast: re.Pattern, characters: frozenset[str]) -> None:
        self.compiled = compiled
        self.fast = fast
        self.characters = characters

    def search(self, text: str, *args: Any) -> re.Match | None:
        return self.fast.search(text, *args)

    def finditer(self, text: str, *args: Any) -> Iterator[re.Match]:
        return self.fast.finditer(text, *args)

    def findall(self, text: str, *args: Any) -> list[Any]:
        return self.fast.findall(text, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"Scanned({self.compiled!r})"


def scanned(compiled: re.Pattern | Scanned) -> re.Pattern | Scanned:
    """``compiled`` wrapped in :class:`Scanned` when it consumes exactly one character from a small set of uncased
    characters, else ``compiled`` itself."""
    if isinstance(compiled, Scanned) or not isinstance(compiled, re.Pattern) or not isinstance(compiled.pattern, str):
        return compiled
    try:
        parsed = _sre_parse.parse(compiled.pattern, compiled.flags)
        if parsed.getwidth() != (1, 1) or compiled.groups:
            return compiled
        characters = consumed_characters(parsed)
        if not characters or any(ch.lower() != ch.upper() for ch in characters) and compiled.flags & re.IGNORECASE:
            return compiled
        leading = "[" + "".join(re.escape(ch) for ch in sorted(characters)) + "]"
        fast = re.compile(leading + "(?<=(?:" + compiled.pattern + "))", compiled.flags)
    except (re.error, ValueError, TypeError, RecursionError):  # a construct this reader does not know: the plain way
        return compiled
    return Scanned(compiled, fast, frozenset(characters))


def scan_names(namespace: dict[str, Any], names: str) -> None:
    """Replace each module-level pattern named in ``names`` (space-separated) in ``namespace`` by :func:`scanned` of
    it (speed only; same results)."""
    for name in names.split():
        namespace[name] = scanned(namespace[name])
