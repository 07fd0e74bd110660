"""Patterns searched by skipping to the characters their match can start with (speed only; same results).

Two rewrites, both made once per pattern: :func:`scanned` for a pattern that consumes exactly one character (the
clause ends, below) and :func:`first_scan` / :func:`first_scanned` for a pattern of any width that cannot match the
empty string (see the comment above :class:`FirstScanned`; used inside :class:`.regex_prefilter.Prefiltered`).

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
from itertools import islice
from typing import Any

from polyreward.verifiers.pattern_cache import kept_compile, remembered, source_fingerprint, sre_compiler, sre_ops, sre_parser

# the op codes of a parsed pattern that consume nothing, and those that repeat (both walkers of a parsed pattern read
# them: this module and :mod:`.regex_prefilter`)
ZERO_WIDTH = {sre_ops.AT, sre_ops.ASSERT, sre_ops.ASSERT_NOT}
REPEATS = {sre_ops.MAX_REPEAT, sre_ops.MIN_REPEAT} | (
    {sre_ops.POSSESSIVE_REPEAT} if hasattr(sre_ops, "POSSESSIVE_REPEAT") else set())

_MAX_CHARS = 64  # a set larger than this is not worth scanning for (nor listed)


def consumed_characters(items: Any) -> set[str] | None:
    """A superset of the characters a match of the parsed pattern ``items`` can consume, or None when it cannot be
    told (a category such as ``\\w``, a negated set, any character)."""
    told = _consumed(items, space_allowed=False, limit=_MAX_CHARS)
    return None if told is None else told[0]


def _consumed(items: Any, space_allowed: bool, limit: int) -> tuple[set[str], bool] | None:
    """The one walker of a parsed pattern: (a superset of the characters other than white space that a match of
    ``items`` can consume, whether it can consume white space ``\\s`` -- only read when ``space_allowed``), or None
    when they cannot be told (``\\w``, a negated set, any character, a scoped ignore-case over cased letters) or
    number more than ``limit``."""
    found: set[str] = set()
    space = False
    for op, argument in items:
        if op in ZERO_WIDTH:
            continue  # a look-around or anchor consumes nothing
        if op is sre_ops.LITERAL:
            found.add(chr(argument))
        elif op is sre_ops.IN:
            for kind, value in argument:
                if kind is sre_ops.LITERAL:
                    found.add(chr(value))
                elif kind is sre_ops.RANGE and value[1] - value[0] < _MAX_CHARS:
                    found.update(chr(code) for code in range(value[0], value[1] + 1))
                elif space_allowed and kind is sre_ops.CATEGORY and value is sre_ops.CATEGORY_SPACE:
                    space = True
                else:
                    return None
        elif op is sre_ops.BRANCH or op is sre_ops.SUBPATTERN or op in REPEATS:
            bodies = argument[1] if op is sre_ops.BRANCH else [argument[3] if op is sre_ops.SUBPATTERN else argument[2]]
            for body in bodies:
                inner = _consumed(body, space_allowed, limit)
                if inner is None or op is sre_ops.SUBPATTERN and argument[1] & re.IGNORECASE and any(
                        ch.lower() != ch.upper() for ch in inner[0]):
                    return None
                found |= inner[0]
                space = space or inner[1]
        else:
            return None
        if len(found) > limit:
            return None
    return found, space


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


_TAIL_CHARACTERS = 48  # per match asked for: the tail of a window read first by last_ends


def last_ends(pattern: re.Pattern | Scanned, text: str, count: int) -> list[int]:
    """``[m.end() for m in pattern.finditer(text)][-count:]``: where the last ``count`` matches end (a reader wants the
    last clause or two of a 300-character window). A :class:`Scanned` pattern matches exactly one character, so its
    matches from a position on are the plain scan's matches there (each position is tried alike, a look-behind sees
    before the position): a tail of the text holding ``count`` matches is read instead of the whole window."""
    if isinstance(pattern, Scanned):
        start = len(text) - _TAIL_CHARACTERS * count
        if start > 0:
            ends = [m.end() for m in pattern.fast.finditer(text, start)]
            if len(ends) >= count:
                return ends[-count:]
    return [m.end() for m in pattern.finditer(text)][-count:]


def first_ends(pattern: re.Pattern | Scanned, text: str, count: int) -> list[int]:
    """``[m.end() for m in pattern.finditer(text)][:count]``, the scan stopped after ``count`` matches."""
    return [m.end() for m in islice(pattern.finditer(text), count)]


def scanned(compiled: re.Pattern | Scanned) -> re.Pattern | Scanned:
    """``compiled`` wrapped in :class:`Scanned` when it consumes exactly one character from a small set of uncased
    characters, else ``compiled`` itself."""
    if isinstance(compiled, Scanned) or not isinstance(compiled, re.Pattern) or not isinstance(compiled.pattern, str):
        return compiled
    characters = _remembered("scanned", compiled, lambda: _consumed_set(compiled))
    if characters is None:
        return compiled
    leading = "[" + "".join(re.escape(ch) for ch in characters) + "]"
    try:
        fast = kept_compile(leading + "(?<=(?:" + compiled.pattern + "))", compiled.flags)
    except (re.error, ValueError, TypeError, RecursionError):  # a construct this reader does not know: the plain way
        return compiled
    return Scanned(compiled, fast, frozenset(characters))


def _consumed_set(compiled: re.Pattern) -> tuple[str, ...] | None:
    """The sorted characters :func:`scanned` scans for, or None when it leaves ``compiled`` as it is."""
    try:
        parsed = sre_parser.parse(compiled.pattern, compiled.flags)
        if parsed.getwidth() != (1, 1) or compiled.groups:
            return None
        characters = consumed_characters(parsed)
    except (re.error, ValueError, TypeError, RecursionError):
        return None
    if not characters or any(ch.lower() != ch.upper() for ch in characters) and compiled.flags & re.IGNORECASE:
        return None
    return tuple(sorted(characters))


# what this module derives is kept in the pattern store under a hash of this file: a change here drops it
_FINGERPRINT = source_fingerprint(__file__, "regex_scan")


def _remembered(kind: str, compiled: re.Pattern, derive: Any) -> Any:
    """``derive()`` for a module-level pattern, kept in the pattern store between runs (speed only: the parse it
    saves is what the store saves for the pattern itself)."""
    if _FINGERPRINT is None:
        return derive()
    return remembered(f"{_FINGERPRINT} {kind}", compiled.pattern, compiled.flags, derive)


# --- patterns of any width: skip to the characters a match can start with ---------------------------------------------
# A pattern that opens with a word boundary, a look-behind or a case-insensitive word ("\\b(?:final\\s+)?answer\\W{0,4}:")
# is tried at every position too. first_scan(compiled) is the same trick for a pattern of any width that cannot match
# the empty string: the characters its match can open with (read off the syntax tree, with their other cases when
# case is ignored), then a look-behind over that character that asks the whole pattern to match from there:
#     (?-i:[aAfF])(?<=(?=(?:PATTERN))[\s\S])
# It finds where the leftmost match starts; the pattern's own match() there is the match the plain search returns.

# the characters other than a letter's two cases that match it when case is ignored (Python's re: i/I with U+0130 and
# U+0131, s/S with U+017F, k/K with U+212A; tests/test_reading_fast_paths.py checks every code point)
_EXTRA_CASES = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}


def _with_cases(characters: set[str], ignore_case: bool) -> set[str] | None:
    if not ignore_case:
        return characters
    found: set[str] = set()
    for ch in characters:
        if ch.isascii():
            found.update((ch, ch.lower(), ch.upper()), _EXTRA_CASES.get(ch.lower(), ""))
        elif ch.lower() == ch.upper() == ch.casefold() == ch:
            found.add(ch)  # an uncased character (a digit of another script, a Han character, a symbol)
        else:
            return None  # a cased non-ASCII letter: its case variants are not listed here
    return found


def _first(items: Any, ignore_case: bool) -> tuple[set[str] | None, bool]:
    """(the characters a match of ``items`` can start with, whether it can match the empty string); None when the
    characters cannot be told."""
    found: set[str] = set()
    for op, argument in items:
        if op in ZERO_WIDTH:
            continue
        chars, nullable = _first_of(op, argument, ignore_case)
        if chars is None:
            return None, False
        found |= chars
        if len(found) > _MAX_CHARS:
            return None, False
        if not nullable:
            return found, False
    return found, True


def _first_of(op: Any, argument: Any, ignore_case: bool) -> tuple[set[str] | None, bool]:
    if op is sre_ops.LITERAL:
        return _with_cases({chr(argument)}, ignore_case), False
    if op is sre_ops.IN:
        chars = consumed_characters([(op, argument)])
        return (None if chars is None else _with_cases(chars, ignore_case)), False
    if op is sre_ops.BRANCH:
        found: set[str] = set()
        nullable = False
        for branch in argument[1]:
            chars, empty = _first(branch, ignore_case)
            if chars is None:
                return None, False
            found |= chars
            nullable = nullable or empty
        return found, nullable
    if op is sre_ops.SUBPATTERN:
        _group, add_flags, del_flags, body = argument
        return _first(body, bool((ignore_case or add_flags & re.IGNORECASE) and not del_flags & re.IGNORECASE))
    if op in REPEATS:
        low, _high, body = argument
        chars, empty = _first(body, ignore_case)
        return chars, empty or low == 0
    return None, False


class FirstScanned:
    """``compiled`` searched by first skipping to a character its match can start with (see above)."""

    __slots__ = ("compiled", "scan", "characters")

    def __init__(self, compiled: re.Pattern, scan: re.Pattern, characters: frozenset[str]) -> None:
        self.compiled = compiled
        self.scan = scan
        self.characters = characters

    def search(self, text: str, *args: Any) -> re.Match | None:
        found = self.scan.search(text, *args)
        if found is None:
            return None
        return self.compiled.match(text, found.start(), *args[1:2])

    def finditer(self, text: str, *args: Any) -> Iterator[re.Match]:
        position = args[0] if args else 0
        while (found := self.scan.search(text, position, *args[1:2])) is not None:
            match = self.compiled.match(text, found.start(), *args[1:2])
            yield match  # type: ignore[misc]
            position = match.end()  # type: ignore[union-attr]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"FirstScanned({self.compiled!r})"


def first_scan(compiled: re.Pattern) -> re.Pattern | None:
    """The scanning pattern of :class:`FirstScanned` for ``compiled``, or None when the characters its match starts with
    cannot be told, are many, or it can match the empty string."""
    characters = _first_characters(compiled)
    if characters is None:
        return None
    leading = "(?-i:[" + "".join(re.escape(ch) for ch in characters) + "])"
    try:
        return kept_compile(leading + r"(?<=(?=(?:" + compiled.pattern + r"))[\s\S])", compiled.flags)
    except (re.error, ValueError, TypeError, RecursionError):
        return None


def _first_characters(compiled: re.Pattern) -> tuple[str, ...] | None:
    """The sorted characters a match of ``compiled`` can start with, or None when they cannot be told, are many, or it
    can match the empty string (kept in the pattern store)."""
    if not isinstance(compiled, re.Pattern) or not isinstance(compiled.pattern, str):
        return None

    def derive() -> tuple[str, ...] | None:
        try:
            characters, nullable = _first(sre_parser.parse(compiled.pattern, compiled.flags), bool(compiled.flags & re.IGNORECASE))
        except (re.error, ValueError, TypeError, RecursionError):
            return None
        return None if characters is None or nullable or not characters else tuple(sorted(characters))

    return _remembered("first", compiled, derive)


def first_scanned(compiled: re.Pattern) -> re.Pattern | FirstScanned:
    """``compiled`` wrapped in :class:`FirstScanned` when :func:`first_scan` can be made for it, else itself."""
    scan = first_scan(compiled)
    if scan is None:
        return compiled
    return FirstScanned(compiled, scan, frozenset(_first_characters(compiled) or ()))


def scan_names(namespace: dict[str, Any], names: str) -> None:
    """Replace each module-level pattern named in ``names`` (space-separated) in ``namespace`` by :func:`scanned` of
    it (speed only; same results)."""
    for name in names.split():
        namespace[name] = scanned(namespace[name])


# --- patterns that end the text: skip to the tail they can consume ------------------------------------------------------
# A pattern whose every match runs to the end of the text and that can match the empty string -- the markup before an
# answer, "(?:[\\s$*(\\[{:=]|\\\\boxed\\s*\\{?|...)*\\Z" -- is tried by re at every position of its window, ~6 µs on
# 80 characters. Every match from a position p consumes all of text[p:], so p lies in the longest tail of the text made
# only of characters the pattern can consume; tail_scanned(compiled) searches from that tail's start (found with
# str.rstrip, in C) and so finds the leftmost match, the one the plain search finds (a look-behind, like the plain
# search's, sees before pos; only the match's ``pos`` attribute differs).


def _tail_set(compiled: re.Pattern) -> tuple[str, bool, bool] | None:
    """(the characters other than white space that :class:`TailScanned` strips, whether it strips white space, whether
    only an ASCII text is stripped), or None when ``compiled`` does not end every match at the end of the text with
    ``\\Z`` or its characters cannot be told. A pattern whose characters are few and listed strips any text; one with
    character classes (``\\w``, ``[^\\S\\n]``, ``.``) or a top-level alternation of ``\\Z`` branches strips ASCII texts
    by the ASCII characters it can consume (:func:`_ascii_consumed`), and any other text is searched the plain way."""
    try:
        parsed = sre_parser.parse(compiled.pattern, compiled.flags)
        items = list(parsed)
        if not items:
            return None
        ends = [list(branch) for branch in items[0][1][1]] if len(items) == 1 and items[0][0] is sre_ops.BRANCH else [items]
        if not all(branch and branch[-1] == (sre_ops.AT, sre_ops.AT_END_STRING) for branch in ends):
            return None
        told = _consumed(items, space_allowed=True, limit=4 * _MAX_CHARS) if len(ends) == 1 else None  # cases are added after
        characters = None if told is None else _with_cases(told[0], bool(compiled.flags & re.IGNORECASE))
        if characters is None or len(characters) > 4 * _MAX_CHARS:
            # many characters (a word list in several scripts, "(?:or|oder|或者|...)\s*\Z"): the ASCII ones, for ASCII texts
            ascii_told = _ascii_consumed(items, compiled.flags, parsed.state)
            return None if ascii_told is None else ("".join(sorted(ascii_told)), False, True)
    except (re.error, ValueError, TypeError, RecursionError):
        return None
    return "".join(sorted(characters)), told[1], False  # type: ignore[index]


# every character str.isspace (and so re's \s in a str pattern) holds, as this Python's Unicode data lists them
# (tests/test_scoring_fast_paths.py compares it with str.isspace over every code point)
WHITE_SPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
               "\u200a\u2028\u2029\u202f\u205f\u3000")
_ASCII = [chr(code) for code in range(128)]
_ATOMS = {sre_ops.LITERAL, sre_ops.NOT_LITERAL, sre_ops.IN, sre_ops.ANY}
_ATOM_ASCII: dict[tuple[Any, str, int], frozenset[str]] = {}  # the ASCII characters of each atom read so far


def _ascii_consumed(items: Any, flags: int, state: Any) -> set[str] | None:
    """A superset of the ASCII characters a match of the parsed pattern ``items`` can consume, or None when it cannot
    be told (a back-reference, a construct not listed). Each consuming item is compiled on its own and tried on every
    ASCII character, with and without ignoring case (a scoped ``(?i:...)`` or ``(?-i:...)`` flag is covered by
    both)."""
    found: set[str] = set()
    for op, argument in items:
        if op in ZERO_WIDTH:
            continue  # a look-around or anchor consumes nothing
        if op in _ATOMS:
            key = (op, str(argument), flags)  # (speed, at import: the same letters recur across the word lists)
            if key not in _ATOM_ASCII:
                atom: set[str] = set()
                for case in (flags & ~re.IGNORECASE, flags | re.IGNORECASE):
                    one = sre_compiler.compile(sre_parser.SubPattern(state, [(op, argument)]), case)
                    atom.update(ch for ch in _ASCII if one.fullmatch(ch) is not None)
                _ATOM_ASCII[key] = frozenset(atom)
            found |= _ATOM_ASCII[key]
        elif op is sre_ops.BRANCH or op is sre_ops.SUBPATTERN or op in REPEATS:
            bodies = argument[1] if op is sre_ops.BRANCH else [argument[3] if op is sre_ops.SUBPATTERN else argument[2]]
            scoped = (flags | argument[1]) & ~argument[2] if op is sre_ops.SUBPATTERN else flags  # "(?s:.)" consumes "\n"
            for body in bodies:
                inner = _ascii_consumed(body, scoped, state)
                if inner is None:
                    return None
                found |= inner
        else:
            return None
    return found


class TailScanned:
    """``compiled`` (every match ending the text with ``\\Z``) searched from the start of the longest tail of the text
    made of characters it can consume (see above); every other attribute is the compiled pattern's own."""

    __slots__ = ("compiled", "characters", "space", "ascii_only", "_stripped")

    def __init__(self, compiled: re.Pattern, characters: str, space: bool, ascii_only: bool = False) -> None:
        self.compiled = compiled
        self.characters = characters
        self.space = space
        self.ascii_only = ascii_only  # the characters are the ASCII ones a match can consume: other texts from the start
        # the characters and, where the pattern consumes white space, every character \s matches (str.isspace): one
        # rstrip finds the tail that stripping each in turn until nothing changes finds (speed: a window before an
        # answer, "... so the final answer is", alternated words and spaces, two calls a word)
        self._stripped = characters + WHITE_SPACE if space else characters

    def tail_start(self, text: str) -> int:
        """Where the longest tail of ``text`` made of the characters a match can consume starts (0 for a text that is
        not ASCII when only the ASCII characters are known)."""
        if self.ascii_only:
            return len(text.rstrip(self.characters)) if text.isascii() else 0
        return len(text.rstrip(self._stripped))

    def search(self, text: str, *args: Any) -> re.Match | None:
        if args:  # a positioned search: the plain way
            return self.compiled.search(text, *args)
        return self.compiled.search(text, self.tail_start(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"TailScanned({self.compiled!r})"


def tail_scanned(compiled: re.Pattern) -> re.Pattern | TailScanned:
    """``compiled`` wrapped in :class:`TailScanned` when every match of it ends the text (``\\Z`` last) and the
    characters it can consume can be told, else ``compiled`` itself."""
    if not isinstance(compiled, re.Pattern) or not isinstance(compiled.pattern, str):
        return compiled
    told = _remembered("tail", compiled, lambda: _tail_set(compiled))
    if told is None or (told[2] and len(told[0]) >= 128):  # (every ASCII character consumed: the tail is the whole text)
        return compiled
    return TailScanned(compiled, told[0], bool(told[1]), bool(told[2]))
