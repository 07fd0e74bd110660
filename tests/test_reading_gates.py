"""The reader's cheap gates (issue #35) decide exactly as the long way, on hostile and generated text.

* :func:`polyreward.verifiers.regex_prefilter.any_of` and the prefilter's search for the filing strings a text holds
  (``Prefiltered._keys_in``, used for patterns with many strings) against testing every string one by one;
* the prefilter's one scan in C of an ASCII text for its filing strings (``Prefiltered._set_scan``, an RE2 set, used for
  patterns with 40 or more strings) against testing every string one by one, a failed scan included;
* :func:`polyreward.verifiers.regex_scan.tail_scanned` (a ``\\Z`` pattern searched from the tail it can consume) against
  the plain search, for the readers' patterns and generated ones;
* :func:`polyreward.verifiers.regex_prefilter.lead_anchored` (the branches anchored with ``\\A`` matched at the start only)
  against the plain search, on generated alternations and the reader's own;
* :func:`~polyreward.verifiers.regex_scan.last_ends` / :func:`~polyreward.verifiers.regex_scan.first_ends` against the
  whole list of clause ends;
* whole batches (the fresh-row benchmark's rows and every red-team completion) with every gate on and off.
"""

from __future__ import annotations

import re
import sys

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reader_probes import fresh_verdicts
from test_reading_fast_paths import PIECES, SCANNED, TEXT, _spans, _verifier_modules

from polyreward.verifiers import regex_prefilter
from polyreward.verifiers.regex_prefilter import Prefiltered, any_of
from polyreward.verifiers.regex_scan import Scanned, TailScanned, first_ends, last_ends, tail_scanned

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _named(kind):
    return sorted({id(value): (f"{module.__name__.rsplit('.', 1)[-1]}.{name}", value)
                   for module in _verifier_modules() for name, value in vars(module).items() if isinstance(value, kind)}.values(),
                  key=lambda item: item[0])


PREFILTERED = _named(Prefiltered)
GATED = [(name, pattern) for name, pattern in PREFILTERED if pattern._by_start is not None]
SCANNED_SETS = [(name, pattern) for name, pattern in PREFILTERED if pattern._multi]
TAILS = _named(TailScanned)


# --- any_of and the filing strings a text holds -------------------------------------------------------------------------

WORDS = st.text(alphabet=st.sampled_from(list("abeinorst'-.\\{ ")), min_size=1, max_size=6)


@FAST
@given(st.lists(WORDS, min_size=1, max_size=30), st.text(alphabet=st.sampled_from(list("abeinorst'-.\\{ XK\u212a")), max_size=60))
@example(["bet", "best", "be"], "a bes")
@example(["cat", "cow", "c"], "xc")
def test_any_of_finds_a_match_exactly_when_a_string_is_in_the_text(strings, text):
    assert (re.search(any_of(strings), text) is not None) == any(string in text for string in strings)


def test_the_long_word_lists_of_the_readers_are_gated():
    names = {name for name, _ in GATED}
    assert {"hedging.IDIOM_DOUBT", "hedging._DOUBT"} <= names
    assert names & {"commitment._WITHDRAWAL", "withdrawal_words.WITHDRAWAL"}  # one pattern, imported under both names
    assert all(len(pattern._keys) >= regex_prefilter._GATE_KEYS for _, pattern in GATED)


def _gated_texts(pattern: Prefiltered):
    """Text built from the pattern's own strings: its filing strings and the strings of its sets, in both cases,
    run together, cut in the middle, with the letters re folds into ASCII ones."""
    words = sorted(pattern.literals) + ["K", "\u212a", "\u017f", "\u0130", " ", "  ", "\n", "'", "-", ".", "50", "I"]
    return st.lists(st.one_of(st.sampled_from(words), st.sampled_from(words).map(str.upper),
                              st.sampled_from(words).map(lambda w: w[: max(1, len(w) // 2)])), max_size=20).map("".join)


@FAST
@given(st.data())
def test_the_filing_strings_found_by_one_search_are_the_ones_tested_one_by_one(data):
    for name, pattern in GATED:
        text = data.draw(_gated_texts(pattern), label=name)
        lowered = text.lower() if pattern.ignore_case else text
        assert set(pattern._keys_in(lowered)) == {key for key in pattern._keys if key in lowered}, (name, text)
        gated = pattern.may_match(text)
        by_start, pattern._by_start = pattern._by_start, None  # the gate off: every string tested one by one
        try:
            assert pattern.may_match(text) == gated, (name, text)
        finally:
            pattern._by_start = by_start
        if not gated:
            assert pattern.compiled.search(text) is None, (name, text)


def test_the_patterns_with_many_filing_strings_scan_for_them_in_c():
    names = {name for name, _ in SCANNED_SETS}
    assert {"hedging.IDIOM_DOUBT", "hedging._DOUBT"} <= names
    assert all(len(pattern._keys) >= regex_prefilter._SET_KEYS for _, pattern in SCANNED_SETS)
    assert all(len(pattern._keys) < regex_prefilter._SET_KEYS for _, pattern in PREFILTERED if not pattern._multi)


def _one_by_one(pattern: Prefiltered, text: str) -> bool:
    """may_match with every string of the pattern tested in turn (no scan in C, no search for the filing strings)."""
    multi, by_start = pattern._multi, pattern._by_start
    pattern._multi, pattern._by_start = False, None
    try:
        return pattern.may_match(text)
    finally:
        pattern._multi, pattern._by_start = multi, by_start


def _ascii_texts(pattern: Prefiltered):
    """ASCII text built from the pattern's own strings (the scan reads ASCII texts only), run together, cut, upper-cased."""
    words = sorted(literal for literal in pattern.literals if literal.isascii()) + [" ", "\n", "'", "-", ".", "50", "I", "s"]
    return st.lists(st.one_of(st.sampled_from(words), st.sampled_from(words).map(str.upper),
                              st.sampled_from(words).map(lambda w: w[: max(1, len(w) // 2)]),
                              st.text(alphabet=st.characters(max_codepoint=127), max_size=4)), max_size=24).map("".join)


@FAST
@given(st.data())
@example(data=None)
def test_the_filing_strings_found_by_one_scan_in_c_are_the_ones_tested_one_by_one(data):
    for name, pattern in SCANNED_SETS:
        texts = [" ".join(pattern.literals), "", "x" * 3000 + pattern._keys[-1]] if data is None else \
            [data.draw(_ascii_texts(pattern), label=name)]
        for text in texts:
            lowered = text.lower() if pattern.ignore_case else text
            found = (pattern._set_match or pattern._set_scan())(lowered)
            assert len(pattern._keys) in found, (name, text)  # the empty pattern: the scan did not fail
            assert {pattern._keys[i] for i in found if i < len(pattern._keys)} == {k for k in pattern._keys if k in lowered}
            scanned = pattern.may_match(text)
            assert scanned == _one_by_one(pattern, text), (name, text)
            if not scanned:
                assert pattern.compiled.search(text) is None, (name, text)


def test_a_failed_scan_tests_the_strings_one_by_one(monkeypatch):
    """RE2 says that a set's scan failed (its automaton outgrew its memory) only by an empty result (None from
    ``re2.Set.Match``): then the strings are tested one by one, not taken as absent."""
    from polyreward.verifiers import hedging

    pattern = hedging.IDIOM_DOUBT
    text = "I think the answer is more or less 42, but for now it is a rough guess."
    assert pattern.may_match(text) and pattern.compiled.search(text)
    monkeypatch.setattr(pattern, "_set_match", lambda text: None)
    assert pattern.may_match(text)
    assert not pattern.may_match("So the total is 42. The answer is 42.")


# --- \Z patterns searched from their tail ---------------------------------------------------------------------------------

TAIL_PIECES = PIECES + ["\\boxed{", "\\boxed {", "\\text{", "\\textbf", "\\mathrm{", "\\(", "\\[", "\\fbox", "\\framebox{", ":",
                        "=", "!=", "\u2260", "\\ne", "\\neq", "$", "*", "(", "[", "{", "\u2003", "\u3000", "\x1c", "\x85", "**",
                        "not", "quite", "is", "answer"]
TAIL_TEXT = st.one_of(st.lists(st.sampled_from(TAIL_PIECES), max_size=16).map("".join), st.text(max_size=60))


def test_the_markup_ends_of_the_readers_are_tail_scanned():
    names = {name for name, _ in TAILS}
    assert {"clauses.MARKUP_END", "commitment._TIGHT_MARKUP_END"} <= names
    for _, pattern in TAILS:
        assert pattern.pattern == pattern.compiled.pattern


@FAST
@given(TAIL_TEXT)
@example(" The answer is \\boxed{")
@example("so \\neq \u3000\\boxed {")
def test_every_tail_scanned_pattern_equals_the_plain_search(text):
    for name, pattern in TAILS:
        plain = pattern.compiled
        assert _spans(pattern.search(text)) == _spans(plain.search(text)), (name, text)
        assert _spans(pattern.search(text, len(text) // 2)) == _spans(plain.search(text, len(text) // 2)), (name, text)


def test_white_space_for_str_rstrip_is_what_re_calls_white_space():
    space = re.compile(r"\s")
    assert [code for code in range(sys.maxunicode + 1) if (space.match(chr(code)) is not None) != chr(code).isspace()] == []


def _tail_patterns():
    item = st.sampled_from([r"[\s$*(\[{:=]", r"\\(?:boxed|text|mathrm)\s*\{?", r"\\[(\[]", r"\s", "x", "[a-c]", r"(?:ab|b)",
                            r"(?<!\d)\.", r"(?![A-Za-z])", r"(?<=\s)", r"\b", r"[\u2003K]", "k", "\u212a", r"\w", r"[^a]", ".",
                            r"(?s:.)", r"(?-i:x)"])
    body = st.lists(item, min_size=1, max_size=3).map("|".join)
    repeat = st.sampled_from(["*", "+", "?", "{0,2}", ""])
    return st.lists(st.tuples(body, repeat), min_size=1, max_size=3).map(lambda parts: "".join(f"(?:{b}){r}" for b, r in parts) + r"\Z")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tail_patterns(), st.booleans(), st.text(alphabet=st.sampled_from(list(" \u2003\t\n$*({[:=\\boxedtxmrahkK\u212aS\u017f.5")), max_size=30))
def test_generated_tail_patterns_search_like_the_plain_search(pattern, ignore_case, text):
    compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    wrapped = tail_scanned(compiled)
    if isinstance(wrapped, TailScanned):
        start = wrapped.tail_start(text)
        for found in compiled.finditer(text):  # every character a match consumes is in the tail the scan keeps
            assert found.end() != len(text) or found.start() >= start, (pattern, text)
    assert _spans(wrapped.search(text)) == _spans(compiled.search(text)), (pattern, text)


def test_only_patterns_that_end_the_text_with_known_characters_are_tail_scanned():
    assert isinstance(tail_scanned(re.compile(r"(?:[\s$]|\\boxed\{)*\Z")), TailScanned)
    assert not isinstance(tail_scanned(re.compile(r"(?:[\s$])*$")), TailScanned)  # $ also matches before a final newline
    assert not isinstance(tail_scanned(re.compile(r"a\Z|b")), TailScanned)  # not every match ends the text
    assert not isinstance(tail_scanned(re.compile(r"(a)\1\Z")), TailScanned)  # a back-reference: not read
    # a category, scoped flags or an alternation of \Z branches: the ASCII characters they consume, for ASCII texts only
    assert tail_scanned(re.compile(r"a(?s:.)*\Z")).search("xa\nb") is not None  # a scoped DOTALL consumes line breaks
    for pattern in (r"\w*\Z", r"(?i:[a-z])*\Z", r"\na:\s*\Z|(?<=\.)[^\S\n]*b\d\Z"):
        wrapped = tail_scanned(re.compile(pattern))
        assert isinstance(wrapped, TailScanned) and wrapped.ascii_only, pattern
        assert wrapped.tail_start("x\u212a" + "a" * 5) == 0  # not ASCII: from the start
    assert tail_scanned(re.compile(r"(?i:[a-z])*\Z")).tail_start("1, 2: aBc") == len("1, 2: ")


CLOSINGS = ["\n", "  ", "Score: 3/3", "Grade : 10 / 10.", "Known issues: none.", "Answer: none", "\nCorrect!", "Yes", "that's\nright",
            "Well done.", "\\boxed{12}", ".", "}", "$", ")", "42", "Notes: n/a", "Self-score: 9/10", "\u00e9", "\u212a", "\t", "-"]


@FAST
@given(st.lists(st.sampled_from(CLOSINGS), max_size=12).map("".join))
@example("\\boxed{12}.\nScore: 3/3.")
@example("x = 4.\nKnown issues: none.\n")
def test_the_closing_label_is_searched_from_its_tail_as_the_plain_search(text):
    from polyreward.verifiers import closing_remarks

    # (a sign-off's signature, "[^\n\d]{0,38}", consumes every ASCII character: there is no tail to skip to, and
    # tail_scanned leaves the pattern plain; a narrower closing label would be TailScanned again. Since the eleventh
    # pass it is prefiltered by its words: a line break, or ":" and "/")
    label = closing_remarks._CLOSING_LABEL
    plain = getattr(label, "compiled", label)
    assert isinstance(label, (TailScanned, Prefiltered)) or label is plain
    assert _spans(label.search(text)) == _spans(plain.search(text)), text


# --- alternations with branches anchored at the start ---------------------------------------------------------------------

def _lead_patterns():
    anchored = st.sampled_from([r"\A[\W_]*(?:so\W+)?(?-i:Had)\s+\w+", r"\A(?:if|as)\b", r"\Aa", r"\A", r"\A(x)(?=y)", r"\A\s*(?:were|as)"])
    other = st.sampled_from([r"\bas\s+(?:if|though)\b", r"(?<=a)s", r"as", r"\bif\b", r"(y)", r"[^a]", r"(?<!\w)x", r"\w*", r"K"])
    return st.lists(st.one_of(anchored, other), min_size=2, max_size=4).map("|".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lead_patterns(), st.booleans(), st.text(alphabet=st.sampled_from(list(" \nashifthoughHadwerexyK\u212a\u017f,.")), max_size=24))
@example(r"\Aa|as", False, "xas")
@example(r"\Aa|(?<=a)s", False, "as")
def test_a_search_with_anchored_branches_is_the_plain_search(pattern, ignore_case, text):
    compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    wrapped = regex_prefilter.lead_anchored(compiled)
    assert _spans(wrapped.search(text)) == _spans(compiled.search(text)), (pattern, text)
    assert _spans(wrapped.search(text, 1)) == _spans(compiled.search(text, 1)), (pattern, text)


@FAST
@given(st.one_of(st.lists(st.sampled_from(["Had", "had", "I", "known", "Were", "so", ",", " ", "as", "if", "though", "Should", "we",
                                            "the", "answer", "is", "42", "\n", "imagine", "In a world where"]), max_size=14).map(" ".join),
                 TEXT))
@example("so Had I known, it is 42")
@example("it works as if it were 42")
def test_the_subjunctive_opener_searches_as_the_plain_pattern(text):
    from polyreward.verifiers import hypothetical

    assert isinstance(hypothetical._SUBJUNCTIVE, regex_prefilter.LeadAnchored)
    assert _spans(hypothetical._SUBJUNCTIVE.search(text)) == _spans(hypothetical._SUBJUNCTIVE.compiled.search(text)), text


# --- the last and first clause ends -------------------------------------------------------------------------------------


@FAST
@given(st.one_of(TEXT, st.lists(st.sampled_from(PIECES + ["Step 3: 17 + 25 = 42. ", "so the total is 42; ", "If n is odd, "]),
                                max_size=40).map("".join),
                st.tuples(TEXT, st.integers(0, 240), TEXT).map(lambda t: t[0] + "x" * t[1] + t[2])), st.integers(1, 4))
@example("e.g. " * 40 + "Then 3.5. So 42. The answer is", 3)
@example("First. " + "x" * 100, 1)  # no end in the tail read first: the whole scan
@example("A. B. " + "x" * 130 + " C. D.", 3)
def test_the_last_and_first_clause_ends_are_those_of_the_whole_scan(text, count):
    for name, pattern in SCANNED:
        every = [m.end() for m in pattern.compiled.finditer(text)]
        assert last_ends(pattern, text, count) == every[-count:], (name, text)
        assert first_ends(pattern, text, count) == every[:count], (name, text)
    assert isinstance(SCANNED[0][1], Scanned)


# --- whole batches ------------------------------------------------------------------------------------------------------


def test_fresh_rows_and_red_team_completions_score_alike_with_every_gate_off(monkeypatch, default_path_verdicts):
    """The fresh-row benchmark's rows and every red-team completion, every memory cleared between the two ways: with
    the gates (the default path, scored once per session: tests/conftest.py), and with every tail-scanned pattern
    plain, every prefilter testing its strings one by one and the clause-end helpers reading the whole scan."""
    from polyreward.verifiers import alternative_branches, hypothetical, regex_scan

    batch, fast = default_path_verdicts
    for module in _verifier_modules():
        for name, value in list(vars(module).items()):
            if isinstance(value, TailScanned):
                monkeypatch.setattr(module, name, value.compiled)
    for _, pattern in GATED:
        monkeypatch.setattr(pattern, "_by_start", None)
    for _, pattern in SCANNED_SETS:
        monkeypatch.setattr(pattern, "_multi", False)

    def every_last(pattern, text, count):
        return [m.end() for m in pattern.compiled.finditer(text)][-count:] if isinstance(pattern, Scanned) else \
            [m.end() for m in pattern.finditer(text)][-count:]

    for module in (alternative_branches, hypothetical, regex_scan):
        monkeypatch.setattr(module, "last_ends", every_last)
    assert fresh_verdicts(*(list(column) for column in batch)) == list(fast)
