"""A regular expression that skips its search when the text lacks every word the pattern needs (speed only).

The commitment readers (:mod:`.commitment`, :mod:`.hedging`) search each answer's surroundings with long
alternations of words ("not", "never", "rule out", "hunch", "reportedly" ...). Python's ``re`` tries such an
alternation at every position of the text, tens of microseconds per search, and on most answers none of the words
is there. :func:`prefiltered` reads the pattern's own syntax tree once (at import, or not at all when the pattern store
of :mod:`.pattern_cache` kept the result from an earlier run), and derives
(:func:`required_conjuncts`) sets of literal strings such that every match holds all the strings of one set:

    a literal run           "not"                  -> {"not"}
    a sequence              more\\s+or\\s+less       -> the strings of all its parts: {"more", "or", "less"}
    an alternation          not|never|n't          -> the sets of its branches (none if a branch has none)
    a group, a repeat {1,}  (?:...)  x+            -> the sets of its body
    anything else           [a-z], ., x*, \\1, ...   -> no set (may match without a fixed string)

Single strings would not do: on the doubt idioms' hundred alternatives the single words ("more", "for", "50") occur
in most worked solutions, whole sets almost never. When no set is
whole in the text, no match exists and the search is skipped; otherwise the real search runs. The set is derived from the compiled pattern itself, so a word added to the pattern later is in it
too. Case-insensitive patterns compare lower-cased ASCII only: a text with any non-ASCII character is always
searched (Unicode case folding maps some non-ASCII letters to ASCII ones, ``ſ`` to ``s``), and a word of the pattern
with a letter no ASCII letter matches (``уверен``, ``不是``) cannot occur in an ASCII text. Each wrapped pattern
gives exactly the results of the plain one (tests/test_math_fast_paths.py holds every pattern of the readers to it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from polyreward.verifiers.pattern_cache import kept_compile, remembered, source_fingerprint, sre_ops, sre_parser
from polyreward.verifiers.regex_scan import REPEATS, ZERO_WIDTH, TailScanned, first_scan, tail_scanned


_MAX_CONJUNCTS = 256  # a sequence of alternations multiplies out; past this, keep the most selective part only


def _conjunct_score(conjunct: frozenset[str]) -> int:
    return sum(len(literal) for literal in conjunct)


def required_conjuncts(items: Any) -> list[frozenset[str]] | None:
    """Sets of strings such that every match of the parsed pattern ``items`` contains all the strings of at least
    one set, or None when there are no such sets ("more\\s+or\\s+less" needs {"more", "or", "less"}, not "more"
    alone, and "for\\s+now" {"for", "now"}).

        a literal run        one set of one string
        a sequence           the strings every part needs, with each set of at most one part with several sets
        an alternation       the sets of all branches (none if a branch has none)
        a group, x{1,}       the sets of the body; anything else none
    """
    common: set[str] = set()
    several: list[list[frozenset[str]]] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            common.add("".join(run))
            run.clear()

    for op, argument in items:
        if op is sre_ops.LITERAL:
            run.append(chr(argument))
            continue
        if op in ZERO_WIDTH:  # consumes nothing: the literals on either side stay adjacent
            continue
        close_run()
        found: list[frozenset[str]] | None = None
        if op is sre_ops.SUBPATTERN:
            _group, add_flags, del_flags, body = argument
            found = required_conjuncts(body) if not add_flags and not del_flags else None
        elif op is sre_ops.BRANCH:
            branches = [required_conjuncts(branch) for branch in argument[1]]
            found = None if any(b is None for b in branches) else [c for b in branches for c in b]  # type: ignore[union-attr]
        elif op in REPEATS:
            low, _high, body = argument
            found = required_conjuncts(body) if low >= 1 else None
        elif op is sre_ops.IN and argument and all(kind is sre_ops.LITERAL for kind, _ in argument):
            found = [frozenset({chr(code)}) for _, code in argument]  # a set of single characters: [❌✗✘]
        if found and len(found) == 1:
            common |= found[0]
        elif found:
            several.append(found)
    close_run()
    if not common and not several:
        return None
    chosen: list[frozenset[str]] = [frozenset()]
    for options in sorted(several, key=lambda o: -min(_conjunct_score(c) for c in o)):  # the most selective first
        if len(chosen) > 1 and len(chosen) * len(options) > _MAX_CONJUNCTS:
            continue  # needing fewer strings is still a true requirement
        chosen = [made | option for made in chosen for option in options]
    return [made | common for made in chosen] if chosen != [frozenset()] or common else None


def _may_match_ascii(char: str) -> bool:
    """Can ``char`` match an ASCII character when case is ignored (``ſ`` matches ``s``, ``K`` (Kelvin) ``k``)?"""
    return char.isascii() or any(mapped.isascii() for form in (char.lower(), char.upper(), char.casefold()) for mapped in form)


# words of nearly every worked solution's answer sentence: a poor string to file a set under (speed only; any string of
# a set is a correct filing)
_COMMON_WORDS = frozenset({"answer", "the", "is", "a", "an", "so", "final", "to", "of", "and", "it", "this", "that", "we",
                           "i", "be", "in", "for", "total", "step", "then", "'s", ":", "=", "value", "result"})

# how rare each character is in English prose, in bits: -log2 of its share of the letters of English text (Lewand,
# "Cryptological Mathematics", 2000); a digit, a space or a sign of a worked solution counts as a common letter, any other
# character as a rare one. The filing string of a set is its rarest (speed only; any string of a set is a correct filing):
# "rul" for {"ing", "out", "rul"}, "no" for {"es", "no"}, not the longest with the first name
_LETTER_SHARES = dict(zip("etaoinshrdlcumwfgypbvkjxqz", (12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.1, 6.0, 4.3, 4.0, 2.8, 2.8, 2.4,
                                                        2.4, 2.2, 2.0, 2.0, 1.9, 1.5, 1.0, 0.8, 0.15, 0.15, 0.1, 0.07)))
_CHARACTER_BITS = {char: round(-math.log2(share / 100), 2) for char, share in _LETTER_SHARES.items()}
_COMMON_SIGN_BITS = 4.0  # a digit, white space, "=", ":", "$", "\\", braces, "'": in nearly every worked solution
_RARE_CHARACTER_BITS = 8.0


def _rarity(literal: str) -> float:
    """How rare ``literal`` is in a worked solution, in bits (the sum over its characters; see above)."""
    return sum(_CHARACTER_BITS.get(char, _COMMON_SIGN_BITS if char.isdigit() or char.isspace() or char in "=:$\\{}()'.,-+*/"
                                   else _RARE_CHARACTER_BITS) for char in literal.lower())


_SLICE_LIMIT = 512  # characters: a positioned call is filtered on its slice only up to this size (see _may_match_between)
_GATE_KEYS = 50  # filing strings: from this many on, the ones a text holds are found by one search (speed only; see _keys_in)
_SET_KEYS = 40  # filing strings: from this many on, an ASCII text's are found by one scan in C (speed only; see _set_scan)
_SET_MEMORY = 64 << 20  # bytes RE2 may give the scan's automaton (its default, 8 MiB, is ample; a failed scan is caught)


def any_of(strings: Iterable[str]) -> str:
    """A regular expression that matches where any of ``strings`` (non-empty, matched as written) starts, written as a
    trie so that ``re`` tries one branch per next character instead of every string at every position
    (``["bet", "best", "be"]`` -> ``be``; ``["cat", "cow"]`` -> ``c(?:at|ow)``). A string with a shorter one of the list
    as its prefix is left out: wherever it occurs, the shorter one does, so a search finds a match exactly when some
    string of the list is in the text."""
    by_first: dict[str, list[str]] = {}
    for string in sorted(set(strings)):
        by_first.setdefault(string[0], []).append(string[1:])
    branches = [re.escape(first) + ("" if "" in rests else any_of(rests)) for first, rests in by_first.items()]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


_LAST_LOWERED: tuple[str | None, str] = (None, "")  # the last ASCII text a case-insensitive filter lowered, and its lowered form


class Prefiltered:
    """``pattern`` with its searches skipped on texts that hold all the strings of none of its
    :func:`required_conjuncts`; every other attribute (``pattern``, ``flags``, ``sub`` ...) is the compiled pattern's own."""

    __slots__ = ("compiled", "literals", "conjuncts", "ignore_case", "_keys", "_rests", "_scan", "_tail", "_gate", "_by_start",
                 "_multi", "_set_match")

    def __init__(self, compiled: re.Pattern, conjuncts: tuple[frozenset[str], ...], ignore_case: bool) -> None:
        self.compiled = compiled
        # where the words are there, the search skips to the characters a match can start with (regex_scan.first_scan)
        self._scan = first_scan(compiled)
        # a pattern whose every match ends the text ("(?:or|either|...)\s*\Z", the words before an answer) starts its
        # search in the longest tail of the text made of characters it can consume (regex_scan.TailScanned: every
        # match consumes all of text[p:], so no match starts before that tail; the leftmost match is the same)
        tail = tail_scanned(compiled)
        self._tail = tail if isinstance(tail, TailScanned) else None
        self.ignore_case = ignore_case
        self.conjuncts = conjuncts  # as _derived gives them: no set a superset of another (it would be implied)
        self.literals = tuple(sorted(frozenset().union(*self.conjuncts)))
        # each set filed under one of its strings (the rarest one that is not a common word of worked solutions: a set
        # filed under "answer" would be tested on nearly every answer window): a text is tested for the filing strings
        # only, then, for each filing string it holds, for the other strings of the sets filed under it -- each such
        # string once per call, the sets as subsets of those found
        by_literal: dict[str, list[frozenset[str]]] = {}
        for conjunct in self.conjuncts:
            key = max(sorted(conjunct), key=lambda literal: (literal.lower() not in _COMMON_WORDS, _rarity(literal)))
            by_literal.setdefault(key, []).append(conjunct - {key})
        self._keys = tuple(sorted(by_literal))
        self._rests = {key: (tuple(rests), tuple(sorted(frozenset().union(*rests))), frozenset() in rests)
                       for key, rests in by_literal.items()}
        # with many filing strings, the strings a text holds are found by searching for any of them (any_of, compiled at
        # the first call) from each place found to the next, instead of testing every string one by one (287 strings of
        # IDIOM_DOUBT cost ~25 µs on a 160-character window; on most windows none is there and one search in C says so)
        self._gate: re.Pattern | None = None
        self._by_start: dict[str, tuple[str, ...]] | None = None
        if len(self._keys) >= _GATE_KEYS:
            by_start: dict[str, list[str]] = {}
            for key in self._keys:  # filed under their first two characters (a one-character string under itself)
                by_start.setdefault(key[:2], []).append(key)
            self._by_start = {start: tuple(keys) for start, keys in by_start.items()}
        # with more filing strings still, an ASCII text's are found by one scan of an RE2 set of them (_set_scan)
        self._multi = len(self._keys) >= _SET_KEYS
        self._set_match: Any = None  # the set's Match, compiled at the first call

    def _set_scan(self) -> Any:
        """The Match of an RE2 set (``google-re2``, a core dependency) of the filing strings as literals, unanchored,
        compiled at the first call: one scan in C gives the index of every string that occurs anywhere in an ASCII text,
        in linear time. A call into RE2 costs about 0.6 µs before it reads a character, about what the Python loop
        (each string tested in turn) costs for 12-40 strings on a 90-character window; from 40 strings on the scan is
        cheaper: 1.0 µs against 2.2 for the 61 of the negation words, 3 against 8 for the 390 of the second-hand
        report words (recorded windows of fresh rows, ``benchmarks/results/math_fresh_rows.md``, ninth pass). An empty pattern, last in
        the set (index ``len(self._keys)``), matches every text: no result is a scan that failed (RE2 gives up where
        its automaton outgrows its memory, and says so only by an empty result), and :meth:`may_match` then tests
        the strings one by one. A string that is not ASCII cannot occur in an ASCII text, and is not found in it."""
        import re2  # (google-re2: imported at the first call, ~4 ms, not at start-up)

        options = re2.Options()
        options.literal, options.max_mem, options.log_errors = True, _SET_MEMORY, False
        strings = re2.Set.SearchSet(options)
        for key in self._keys:
            strings.Add(key)
        strings.Add("")
        strings.Compile()  # (raises re2.error where it cannot: literals always compile)
        self._set_match = strings.Match
        return strings.Match

    def _keys_in(self, text: str) -> list[str]:
        """The filing strings that ``text`` holds (as ``[key for key in self._keys if key in text]``, in the order of
        their first place in the text): every place where one starts is a place where :func:`any_of` matches."""
        if self._gate is None:
            self._gate = kept_compile(any_of(self._keys))  # (kept in the pattern store: derived from a module-level pattern)
        search, by_start, found = self._gate.search, self._by_start, []
        assert by_start is not None
        match = search(text)
        while match is not None:
            at = match.start()
            pair = text[at:at + 2]
            for key in by_start.get(pair, ()) + (by_start.get(pair[0], ()) if len(pair) == 2 else ()):
                if key not in found and text.startswith(key, at):
                    found.append(key)
            match = search(text, at + 1)
        return found

    def may_match(self, text: str) -> bool:
        """False only when no match can exist in ``text`` (it holds all the strings of none of the sets)."""
        if self.ignore_case:
            global _LAST_LOWERED
            last = _LAST_LOWERED  # (speed: one window is filtered for several patterns in a row, lowered once)
            if last[0] is text:
                text = last[1]
            elif not text.isascii():
                return True
            else:
                lowered = text.lower()
                _LAST_LOWERED = (text, lowered)
                text = lowered
        keys: Any = self._keys if self._by_start is None else None
        if self._multi and text.isascii():
            found = (self._set_match or self._set_scan())(text)
            if found is not None and len(found) == 1:  # the empty pattern alone: none of the strings is there
                return False
            if found:  # (None: the scan failed, and the strings are tested one by one)
                keys = [self._keys[index] for index in found if index < len(self._keys)]
        for key in (keys if keys is not None else self._keys_in(text)):
            if key in text:
                rests, literals, alone = self._rests[key]
                if alone:
                    return True
                present = {literal for literal in literals if literal in text}
                for rest in rests:
                    if rest <= present:
                        return True
        return False

    def _may_match_between(self, text: str, args: tuple[Any, ...]) -> bool:
        """:meth:`may_match` on the part of ``text`` a call with ``pos`` / ``endpos`` can consume. The required strings
        come from what a match consumes (assertions give none), and a match lies between pos and endpos, so the
        slice decides alike. A call at a position in a long text (``match(text, at)`` once per clause) is not
        filtered at all: reading the rest of the text at every call would make the caller quadratic."""
        if not args:
            return self.may_match(text)
        size = len(text)
        start = min(max(int(args[0]), 0), size)
        end = min(max(int(args[1]), 0), size) if len(args) > 1 else size
        if end - start > _SLICE_LIMIT:
            return True
        return self.may_match(text[start:end])

    def search(self, text: str, *args: Any) -> re.Match | None:
        if not (self._may_match_between(text, args) if args else self.may_match(text)):
            return None
        if not args and self._tail is not None:
            args = (self._tail.tail_start(text),)  # (only the match's ``pos`` differs from the plain search's)
        if self._scan is None:
            return self.compiled.search(text, *args)
        found = self._scan.search(text, *args)
        return None if found is None else self.compiled.match(text, found.start(), *args[1:2])

    def match(self, text: str, *args: Any) -> re.Match | None:
        return self.compiled.match(text, *args) if self._may_match_between(text, args) else None

    def fullmatch(self, text: str, *args: Any) -> re.Match | None:
        return self.compiled.fullmatch(text, *args) if self._may_match_between(text, args) else None

    def finditer(self, text: str, *args: Any) -> Iterator[re.Match]:
        if not (self._may_match_between(text, args) if args else self.may_match(text)):
            return iter(())
        if self._scan is None:
            return self.compiled.finditer(text, *args)
        return self._scanned_matches(text, *args)

    def _scanned_matches(self, text: str, position: int = 0, *endpos: int) -> Iterator[re.Match]:
        """finditer by the scan: each match starts where the scan finds the next one (none is empty)."""
        assert self._scan is not None
        while (found := self._scan.search(text, position, *endpos)) is not None:
            match = self.compiled.match(text, found.start(), *endpos)
            yield match  # type: ignore[misc]
            position = match.end()  # type: ignore[union-attr]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"Prefiltered({self.compiled!r})"


def _minimal(conjuncts: list[frozenset[str]]) -> tuple[frozenset[str], ...]:
    """The sets without duplicates and without any set that holds another (holding the smaller one is implied)."""
    unique = sorted(set(conjuncts), key=lambda c: (len(c), sorted(c)))
    # (speed, at import: IDIOM_DOUBT has 1,180 sets, a test of every pair 1.4 million) each set filed under its least
    # string: a set inside another has its least string in it, so only the sets filed under the other's strings can be
    # inside it (the empty set, filed under "", is inside every other)
    filed: dict[str, list[frozenset[str]]] = {}
    for conjunct in unique:
        filed.setdefault(min(conjunct) if conjunct else "", []).append(conjunct)
    return tuple(c for c in unique if not any(other < c for key in ("", *c) for other in filed.get(key, ())))


def _derived(compiled: re.Pattern, branches: str = "all") -> tuple[bool, tuple[frozenset[str], ...]] | None:
    """(whether case is ignored, the minimal sets of :func:`required_conjuncts`) for ``compiled``, or None when it is
    not filtered (no sets, or case-insensitive words that are not plain ASCII). Plain data: the pattern store keeps it.
    ``branches="unanchored"``: the sets of the top-level branches that do not open with ``\\A`` (:class:`LeadAnchored`)."""
    try:
        tree = sre_parser.parse(compiled.pattern, compiled.flags)
        if branches == "unanchored":
            rest = [branch for branch in tree[0][1][1] if not _opens_anchored(branch)]
            found = [required_conjuncts(branch) for branch in rest]
            conjuncts = None if any(c is None for c in found) else [c for sets in found for c in sets]  # type: ignore[union-attr]
        else:
            conjuncts = required_conjuncts(tree)
    except Exception:  # a construct this reader does not know: search the plain way
        return None
    if not conjuncts:
        return None
    ignore_case = bool(compiled.flags & re.IGNORECASE)
    if ignore_case:  # only ASCII texts are filtered: a set with a letter no ASCII letter matches cannot occur in them
        if any(_may_match_ascii(char) for c in conjuncts for literal in c if not literal.isascii() for char in literal if not char.isascii()):
            return None
        conjuncts = [frozenset(literal.lower() for literal in c) for c in conjuncts if all(literal.isascii() for literal in c)]
        if not conjuncts:
            return None  # (no ASCII text can match; left to the plain search all the same)
    return ignore_case, _minimal(conjuncts)


# what this module derives is kept in the pattern store under a hash of this file: a change here drops it
_FINGERPRINT = source_fingerprint(__file__, "prefilter")


def prefiltered(compiled: re.Pattern | Prefiltered, *, remember: bool = False) -> re.Pattern | Prefiltered:
    """``compiled`` wrapped in :class:`Prefiltered`, or ``compiled`` itself when no required strings can be derived
    (or the pattern is on bytes, or its case-insensitive words are not plain ASCII). With ``remember``, the derived
    sets are kept between runs in the pattern store (:mod:`.pattern_cache`; for a module's own patterns, not for
    patterns made per call)."""
    if isinstance(compiled, Prefiltered) or not isinstance(compiled.pattern, str):
        return compiled
    if remember and _FINGERPRINT is not None:
        derived = remembered(_FINGERPRINT, compiled.pattern, compiled.flags, lambda: _derived(compiled))
    else:
        derived = _derived(compiled)
    return compiled if derived is None else Prefiltered(compiled, derived[1], derived[0])


def _opens_anchored(items: Any) -> bool:
    """Does the parsed pattern ``items`` open with ``\\A`` (so it can match only at the start of the text)?"""
    return len(items) > 0 and items[0][0] is sre_ops.AT and items[0][1] is sre_ops.AT_BEGINNING_STRING


class LeadAnchored:
    """A top-level alternation some of whose branches open with ``\\A`` (``\\A(?:so\\W+)?Had\\s+\\w+|\\bas\\s+if\\b``),
    searched without a position: ``re`` tries every branch at every position, though the anchored ones can match only at
    the start. The search is the match at the start (every branch there, in order: what the plain search tries
    first), else, where the text holds a set of strings that one of the other branches needs (:func:`required_conjuncts`
    of those branches), the plain search from position 1, where no anchored branch matches: the same match (the
    plain search's own), a look-behind seeing the first character alike. Calls with a position are the plain ones."""

    __slots__ = ("compiled", "_rest")

    def __init__(self, compiled: re.Pattern, rest: Prefiltered | None) -> None:
        self.compiled = compiled
        self._rest = rest  # the filter of the unanchored branches (None: every text may match them)

    def search(self, text: str, *args: Any) -> re.Match | None:
        if args:
            return self.compiled.search(text, *args)
        found = self.compiled.match(text)
        if found is not None or (self._rest is not None and not self._rest.may_match(text)):
            return found
        return self.compiled.search(text, 1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"LeadAnchored({self.compiled!r})"


def lead_anchored(compiled: re.Pattern) -> re.Pattern | LeadAnchored:
    """``compiled`` wrapped in :class:`LeadAnchored` when it is a top-level alternation with branches that open with
    ``\\A`` and branches that do not, else itself (speed only; same results). What is read off the pattern is kept in
    the pattern store (a warm start parses nothing)."""
    if not isinstance(compiled, re.Pattern) or not isinstance(compiled.pattern, str):
        return compiled

    def derive() -> tuple[bool, Any] | None:
        try:
            tree = sre_parser.parse(compiled.pattern, compiled.flags)
        except Exception:
            return None
        if len(tree) != 1 or tree[0][0] is not sre_ops.BRANCH:
            return None
        anchored = [_opens_anchored(branch) for branch in tree[0][1][1]]
        if not any(anchored) or all(anchored):
            return None
        return True, _derived(compiled, "unanchored")

    told = remembered(_FINGERPRINT, compiled.pattern, compiled.flags | _UNANCHORED_KEY, derive) if _FINGERPRINT is not None else derive()
    if told is None:
        return compiled
    derived = told[1]
    return LeadAnchored(compiled, None if derived is None else Prefiltered(compiled, derived[1], derived[0]))


_UNANCHORED_KEY = 1 << 20  # (in the store's key beside the flags: the sets of the unanchored branches, not of the whole)


def prefilter_names(namespace: dict[str, Any], names: str) -> None:
    """Replace each module-level pattern named in ``names`` (space-separated) in ``namespace`` by
    :func:`prefiltered` of it (speed only; same results), its sets kept between runs. A reader module calls it last,
    on the patterns it searches with long word lists: ``prefilter_names(globals(), "IDIOM_DOUBT _DOUBT")``."""
    for name in names.split():
        namespace[name] = prefiltered(namespace[name], remember=True)
