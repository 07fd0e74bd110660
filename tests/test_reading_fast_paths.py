"""The reader's speed-only paths (issue #35) give exactly what the plain paths give, on generated hostile text.

* :mod:`polyreward.verifiers.regex_scan`: a one-character pattern (the clause ends) searched by skipping to the
  characters it consumes equals the plain search, for every such pattern of the readers and for generated ones;
* the per-completion memories of the readers (windows and clause ends of the text around one answer) equal fresh
  readings, and whole batches score alike with them and without them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reader_probes import clear_reader_memories, fresh_verdicts

import polyreward.verifiers as verifiers_package
from polyreward.verifiers.regex_scan import Scanned, consumed_characters, scanned

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _verifier_modules():
    modules = []
    for info in pkgutil.iter_modules(verifiers_package.__path__):
        try:
            modules.append(importlib.import_module(f"polyreward.verifiers.{info.name}"))
        except ImportError:  # an optional dependency (a sandbox backend): its patterns are not the reader's
            continue
    return modules


SCANNED = sorted({id(value): (f"{module.__name__.rsplit('.', 1)[-1]}.{name}", value)
                  for module in _verifier_modules() for name, value in vars(module).items() if isinstance(value, Scanned)}.values(),
                 key=lambda item: item[0])

# the pieces clause ends are made of: abbreviations, numbers, dotted letters, capitals after "etc.", scripts and spaces
PIECES = ["e.g.", "i.e.", "etc.", "et al.", "Fig.", "No.", "no.", "p.", "pp.", "vs.", "approx.", "w.r.t.", "Dr.", "cf.", "St.",
          "3.5", "42.", ".5", "U.S.", "a.m.", " ", "  ", "\n", "\t", "\u00a0", ". ", "!", "?", ";", ",", "5", "(3)", "#2",
          "The", "answer", "is", "A", "x", "\u017f", "\u212a", "\u0130", "\u3002", "\u200b", "$", "\\boxed{42}", "...", "!?", ".\n"]
TEXT = st.one_of(st.lists(st.sampled_from(PIECES), max_size=24).map("".join), st.text(max_size=80),
                 st.text(alphabet=st.sampled_from(list(".!?;,\n \tAaeEgiINo0125()#$\u017f\u212a")), max_size=60))


def _spans(found):
    return None if found is None else (found.span(), found.group(), found.groups())


def test_the_clause_ends_of_the_readers_are_scanned():
    names = {f"{module.__name__.rsplit('.', 1)[-1]}.{name}" for module in _verifier_modules()
             for name, value in vars(module).items() if isinstance(value, Scanned)}
    assert {"clauses.CLAUSE_END", "clauses.OWN_CLAUSE_END", "alternative_branches._CASE_END", "hypothetical._SENTENCE_END"} <= names
    for _, pattern in SCANNED:
        assert pattern.characters <= frozenset(".!?;,\n")
        assert pattern.pattern == pattern.compiled.pattern  # what other patterns are built from is the plain text


@FAST
@given(st.data())
@example(None)
def test_every_scanned_pattern_equals_the_plain_search(data):
    texts = ["see Fig. 2. Then etc. The end", "1, 2, 3, etc., and", "No. 5 is no. The answer is no.\n", "x.y. w.r.t. a", ""]
    if data is not None:
        texts = [data.draw(TEXT, label="text")]
    for name, pattern in SCANNED:
        plain = pattern.compiled
        for text in texts:
            assert [_spans(m) for m in pattern.finditer(text)] == [_spans(m) for m in plain.finditer(text)], (name, text)
            assert _spans(pattern.search(text)) == _spans(plain.search(text)), (name, text)
            size = len(text)
            for start, end in ((0, size), (size // 2, size), (1, max(0, size - 1)), (size // 3, size // 2 + 1), (-2, size + 3)):
                assert [_spans(m) for m in pattern.finditer(text, start, end)] == [_spans(m) for m in plain.finditer(text, start, end)], (name, text, start, end)
                assert _spans(pattern.search(text, start, end)) == _spans(plain.search(text, start, end)), (name, text, start, end)
                assert _spans(pattern.search(text, start)) == _spans(plain.search(text, start)), (name, text, start)


def _one_character_patterns():
    char = st.sampled_from([r"\.", "!", r"\?", ";", r"\n", ",", "[.!]", "[,;]", "a", "[a-c]"])
    look = st.sampled_from([r"(?<!\d)", r"(?!\d)", r"(?<=\s)", r"(?=\s|$)", r"(?<!\bvs)", r"(?<!\b(?i:fig))", r"(?!(?<=\bNo)\.\s?\d)",
                            r"(?=[A-Z])", r"\b", r"\B", r"(?<![A-Z])", r"(?!\Z)", r"(?=\Z)", "^", "$", r"\A"])
    branch = st.tuples(st.lists(look, max_size=3), char, st.lists(look, max_size=2)).map(lambda t: "".join(t[0]) + t[1] + "".join(t[2]))
    return st.lists(branch, min_size=1, max_size=3).map("|".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_one_character_patterns(), st.booleans(), st.booleans(), TEXT)
def test_generated_one_character_patterns_scan_like_the_plain_search(pattern, ignore_case, multiline, text):
    flags = (re.IGNORECASE if ignore_case else 0) | (re.MULTILINE if multiline else 0)
    compiled = re.compile(pattern, flags)
    wrapped = scanned(compiled)
    if isinstance(wrapped, Scanned):
        found = {m.group() for m in compiled.finditer(text)}
        assert found <= wrapped.characters  # the set read off the syntax tree holds every character a match consumes
    assert [_spans(m) for m in wrapped.finditer(text)] == [_spans(m) for m in compiled.finditer(text)], (pattern, text)
    assert _spans(wrapped.search(text)) == _spans(compiled.search(text)), (pattern, text)
    middle = len(text) // 2
    assert [_spans(m) for m in wrapped.finditer(text, middle)] == [_spans(m) for m in compiled.finditer(text, middle)]
    assert [_spans(m) for m in wrapped.finditer(text, 1, middle)] == [_spans(m) for m in compiled.finditer(text, 1, middle)]


def test_only_one_character_patterns_of_known_characters_are_rewritten():
    from polyreward.verifiers.pattern_cache import sre_parser

    assert not isinstance(scanned(re.compile(r"\.\s")), Scanned)  # two characters
    assert not isinstance(scanned(re.compile(r"\w")), Scanned)  # a category: no small set of characters
    assert not isinstance(scanned(re.compile(r"[^.]")), Scanned)
    assert not isinstance(scanned(re.compile(r"(\.)")), Scanned)  # a group: left alone
    assert not isinstance(scanned(re.compile(r"a|\.", re.IGNORECASE)), Scanned)  # a cased letter under IGNORECASE
    assert isinstance(scanned(re.compile(r"(?<!\d)\.(?!\d)|[!?;\n]")), Scanned)
    assert consumed_characters(sre_parser.parse(r"(?=x)\.|[;!]")) == {".", ";", "!"}
    assert consumed_characters(sre_parser.parse(r"\.|\w")) is None
    huge = "x" * 100_000 + ". " + "y" * 100_000
    assert [m.start() for m in scanned(re.compile(r"(?<!\d)\.(?!\d)")).finditer(huge)] == [100_000]


# --- the per-completion memories of the readers ----------------------------------------------------------------------


def _plain_patterns():
    """Every scanned pattern of the reader modules swapped for its plain pattern (and back)."""
    swapped = []
    for module in _verifier_modules():
        for name, value in list(vars(module).items()):
            if isinstance(value, Scanned):
                swapped.append((module, name, value))
    return swapped


def test_fresh_rows_and_red_team_completions_score_alike_with_and_without_the_fast_paths(monkeypatch,
                                                                                         default_path_verdicts):
    """Whole batches, every memory cleared between the two ways: the fresh-row benchmark's rows and the red-team
    completions, scored with the fast paths (the default path, scored once per session: tests/conftest.py) and with
    every scanned pattern plain and every memory of a completion off."""
    from polyreward.verifiers import reading_memo

    batch, fast = default_path_verdicts
    swapped = _plain_patterns()
    assert len(swapped) >= 6
    for module, name, value in swapped:
        monkeypatch.setattr(module, name, value.compiled)
    monkeypatch.setattr(reading_memo, "ENABLED", False)
    assert fresh_verdicts(*(list(column) for column in batch)) == list(fast)


@pytest.mark.parametrize("text", ["", "x" * 50_000 + " The answer is \\boxed{42}. " + "Wait. " * 5_000])
def test_huge_completions_read_alike(text):
    from polyreward.verifiers import answer_extraction, reading_memo

    clear_reader_memories()
    fast = answer_extraction.extract_answer(text)
    reading_memo.ENABLED = False
    try:
        clear_reader_memories()
        assert answer_extraction.extract_answer(text) == fast
    finally:
        reading_memo.ENABLED = True


@FAST
@given(st.one_of(st.text(alphabet=st.sampled_from(list("ab0134579268 .\nZz\u00e9\u0663\uff14")), max_size=40), st.text(max_size=60)))
@example("w41t")
@example("4a")
@example("a 4")
def test_the_leet_gate_finds_the_texts_the_plain_pattern_finds(text):
    from polyreward.verifiers import reading

    plain = re.compile(r"[a-zA-Z][0134579]|[0134579][a-zA-Z]")
    assert bool(reading._LETTER_BESIDE_LEET_DIGIT.search(text)) == bool(plain.search(text))


@FAST
@given(st.text(alphabet=st.sampled_from([" ", "\n", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\u00a0", "\u2003", "a", "4"]),
               max_size=12))
def test_the_space_gate_finds_the_spaces_the_pattern_finds(text):
    from polyreward.verifiers import reading

    assert reading._space_to_collapse(text) == (reading._SPACE_TO_COLLAPSE.search(text) is not None)
    for code in range(128):  # every ASCII character the pattern calls a space is looked for
        assert reading._space_to_collapse(chr(code)) == (reading._SPACE_TO_COLLAPSE.search(chr(code)) is not None)


@FAST
@given(st.lists(st.sampled_from(["<summary>", "</summary>", "<b>", "\\boxed", "\\", "<", ">", "x", " ", "42", "$", "I don't know."]),
                max_size=8).map("".join))
def test_a_clause_without_markup_is_read_as_it_is(own):
    from polyreward.verifiers import unasserted

    if "<" not in own and "\\" not in own:
        assert unasserted._MARKUP_ONLY.sub("", own) == own


def _guard_word_by_word():
    """The abbreviation guard as it was first written: one look-around per word."""
    from polyreward.verifiers import clauses

    return (r"(?=\.)(?<!\b[A-Za-z]\.[A-Za-z])(?!(?<=\b[A-Za-z])\.[A-Za-z]\.)"
            + "".join(rf"(?<!\b(?i:{re.escape(word)}))" for word in clauses._NEVER_ENDING)
            + "".join(rf"(?!(?<=\b{word})\.\s?[(#]?\d)" for word in clauses._BEFORE_NUMBER)
            + "".join(rf"(?!(?<=\b{word})\.(?![^\S\n]*(?:[A-Z]|\n|\Z)))" for word in clauses._BEFORE_CAPITAL))


@FAST
@given(TEXT, st.booleans())
@example("see Fig. 2. No. 5 and no.7 etc. Then w.r.t. x, et al. and vs. y", False)
@example("VS. FIG. 2 NO. 5 ETC. the", True)
def test_the_guard_grouped_by_word_length_reads_like_one_look_around_per_word(text, ignore_case):
    from polyreward.verifiers import clauses

    flags = re.IGNORECASE if ignore_case else 0
    for tail in (r"(?:(?<!\d)\.(?!\d)|\.(?=\s|$))|[!?;\n]", r"(?<!\d)\.(?!\d)|[!?;\n]"):
        grouped = re.compile(clauses.ABBREVIATION_GUARD + tail, flags)
        word_by_word = re.compile(_guard_word_by_word() + tail, flags)
        assert [m.span() for m in grouped.finditer(text)] == [m.span() for m in word_by_word.finditer(text)], text


def test_the_other_cases_of_ascii_letters_are_the_ones_re_matches():
    """Every character that Python's re matches to an ASCII letter when case is ignored is in the first-character sets
    (the candidates: characters whose case mappings hold an ASCII letter)."""
    import string

    from polyreward.verifiers.regex_scan import _with_cases

    candidates = [chr(code) for code in range(0x80, 0x110000)
                  if any(ch in string.ascii_letters for form in (chr(code).lower(), chr(code).upper(), chr(code).casefold()) for ch in form)]
    for letter in string.ascii_lowercase:
        pattern = re.compile(letter, re.IGNORECASE)
        assert {ch for ch in candidates if pattern.fullmatch(ch)} <= _with_cases({letter}, True), letter
        assert {ch for ch in string.ascii_letters if pattern.fullmatch(ch)} <= _with_cases({letter}, True)


def _any_width_patterns():
    word = st.sampled_from(["answer", "final", "not", "so", "is", "k", "s", "i", "#", ":", "42", "\u4e0d", "\u00e9"]).map(re.escape)
    atom = st.one_of(word, st.sampled_from([r"\s+", r"\s*", r"\w*", r"\b", r"[a-z]", r"[ks]", r"\W{0,4}", r"\d+", r"(?<!\bto\s)", r"\A", "$"]))

    def grow(inner):
        return st.one_of(st.lists(inner, min_size=1, max_size=4).map("".join),
                         st.lists(inner, min_size=2, max_size=3).map(lambda parts: "(?:" + "|".join(parts) + ")"),
                         inner.map(lambda p: "(?:" + p + ")?"), inner.map(lambda p: "(?:" + p + ")+"),
                         inner.map(lambda p: "(?i:" + p + ")"), inner.map(lambda p: "(?-i:" + p + ")"), inner.map(lambda p: "(" + p + ")"))

    return st.recursive(atom, grow, max_leaves=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_any_width_patterns(), st.booleans(), st.lists(st.sampled_from(["Answer", "FINAL", "final answer:", "to answer:", " ", "\n", "K", "\u212a",
                                                                       "\u017f", "\u0130", "\u0131", "S", "42", "x", "\u00c9", ":"]),
                                                      max_size=10).map("".join))
def test_first_character_scans_find_what_the_plain_search_finds(pattern, ignore_case, text):
    from polyreward.verifiers.regex_scan import first_scanned

    try:
        compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    except re.error:
        return
    wrapped = first_scanned(compiled)
    assert _spans(wrapped.search(text)) == _spans(compiled.search(text)), (pattern, text)
    assert [_spans(m) for m in wrapped.finditer(text)] == [_spans(m) for m in compiled.finditer(text)], (pattern, text)
    middle = len(text) // 2
    assert _spans(wrapped.search(text, middle)) == _spans(compiled.search(text, middle)), (pattern, text)
    assert [_spans(m) for m in wrapped.finditer(text, 1, middle)] == [_spans(m) for m in compiled.finditer(text, 1, middle)]


CONCLUDING = ["So", "so", "Thus,", "THEREFORE", "hence", "Consequently", "the", "final", "answer", "result", "best option",
              "is", "=", ":", " ", "\n", "also", "thesis", "42", "\u017f", "\u212a", "</think>", ".", "soon"]


@FAST
@given(st.one_of(st.lists(st.sampled_from(CONCLUDING), max_size=16).map(" ".join), TEXT))
@example("Also, so the answer is 42. Thus the final answer: 7")
def test_the_first_scanned_reader_patterns_equal_the_plain_search(text):
    from polyreward.verifiers.regex_scan import FirstScanned

    named = [(f"{module.__name__.rsplit('.', 1)[-1]}.{name}", value) for module in _verifier_modules()
             for name, value in vars(module).items() if isinstance(value, FirstScanned)]
    assert {"answer_extraction._CONCLUSION_WORD", "conclusions._CONCLUSION", "hedging._CONTRAST"} <= {name for name, _ in named}
    for name, pattern in named:
        plain = pattern.compiled
        assert _spans(pattern.search(text)) == _spans(plain.search(text)), (name, text)
        assert [_spans(m) for m in pattern.finditer(text)] == [_spans(m) for m in plain.finditer(text)], (name, text)


@FAST
@given(st.text(alphabet=st.sampled_from(list("\\{}ab\n $")), max_size=30))
@example("\\")
@example("\\\\{}\\\n")
def test_the_brace_scan_matches_as_the_plain_pattern(text):
    from polyreward.verifiers import boxes

    plain = re.compile(r"\\.|[{}]", re.DOTALL)
    assert [m.span() for m in boxes._BRACE_OR_ESCAPE.finditer(text)] == [m.span() for m in plain.finditer(text)]
