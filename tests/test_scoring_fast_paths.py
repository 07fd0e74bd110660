"""The per-row shortcuts of numeric math scoring (issue #35, tenth and eleventh passes) against the long way.

Each shortcut skips work only where the skipped work provably finds nothing, so these tests hold it to the work it
skips: the proof obligation itself on hostile text drawn by Hypothesis (a text without "digit, dot or comma, digit"
holds no match of the five decimal-convention patterns; a pattern whose every match ends the text finds the same
leftmost match from the tail it can consume), and whole batches -- the fresh-row benchmark's rows and every red-team
completion -- scored with every shortcut on and with every shortcut off, each reader memory cleared between.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reader_probes import clear_reader_memories, fresh_verdicts

from polyreward.verifiers import closing_remarks, number_locale, reading, restated_prompt
from polyreward.verifiers import math as verifier
from polyreward.verifiers.regex_prefilter import Prefiltered, prefiltered
from polyreward.verifiers.regex_scan import WHITE_SPACE, TailScanned, tail_scanned

# --- the decimal-convention gate: no "d.d" / "d,d", no match of the patterns it skips --------------------------------

_NUMBERY = st.lists(st.one_of(st.sampled_from(list("0123456789.,;:'’ \u00a0\u202f\u2009\n-−+{}()[]$")), st.sampled_from(
    ["1,234", "1.5", "12 345,6", "3,25", "1.234.567", "2,5", "10{,}5", "(1,2)", "x_{1,2}", "٣", "１", "²", "e", "lakh", " "]),
    st.text(max_size=4)), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_NUMBERY)
@example("1 ,5 and 2. 5 and 3\u00a0456,7")
@example("٣,٥ and ١.٢")  # other scripts' digits are \d too: the gate is \d as well
def test_no_separated_digits_no_match_of_the_skipped_patterns(text):
    if number_locale._SEPARATED_DIGITS.search(text) is not None:
        return
    for pattern in (number_locale._DOT_DECIMAL, number_locale._COMMA_GROUPS, number_locale._COMMA_DECIMAL,
                    number_locale._SPACE_GROUPS_COMMA, number_locale._DOT_GROUPS, number_locale._LAKH_GROUPS):
        assert pattern.search(text) is None, (pattern.pattern, text)


@settings(max_examples=300, deadline=None)
@given(_NUMBERY)
def test_convention_and_numerals_with_the_gate_equal_the_long_way(text):
    fast = (number_locale.convention(text), number_locale.english_numerals.__wrapped__(text))
    with _long_way():
        slow = (number_locale.convention(text), number_locale.english_numerals.__wrapped__(text))
    assert fast == slow, text


# --- patterns that end the text, prefiltered and searched from their tail ---------------------------------------------

def _tail_patterns():
    import importlib
    import pkgutil

    import polyreward.verifiers as package

    found = {}
    for module in pkgutil.iter_modules(package.__path__):
        if module.name in ("sandbox_harness",):
            continue
        for name, value in vars(importlib.import_module(f"polyreward.verifiers.{module.name}")).items():
            if isinstance(value, Prefiltered) and value._tail is not None:
                found.setdefault(id(value), (f"{module.name}.{name}", value))
    return sorted(found.values(), key=lambda item: item[0])


TAIL_PATTERNS = _tail_patterns()
GLUE = st.sampled_from([" ", "", ", ", ". ", "\n", " 42 ", " \\boxed{", "'t ", "ſ", "\u212a", "İ", "ı", "\x1c", "\u00a0", "$", ":", "=",
                        "–", "或者", "oder "])


def test_the_tail_search_covers_the_slow_before_patterns():
    names = {name for name, _ in TAIL_PATTERNS}
    assert {"commitment._HEDGED_BEFORE", "commitment._NEGATED_BEFORE", "not_a_value._RANGE_BEFORE", "commitment.WITHDRAWN_OBJECT"} <= names
    assert tail_scanned(re.compile(r"[\s\S]{0,3}\Z")) is not None  # a pattern that consumes every ASCII character: left plain
    assert not isinstance(tail_scanned(re.compile(r"[\s\S]{0,3}\Z")), TailScanned)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_tail_searched_prefilters_equal_the_plain_search(data):
    for name, wrapped in TAIL_PATTERNS:
        words = list(wrapped.literals) or ["x"]
        piece = st.one_of(st.sampled_from(words), st.sampled_from(words).map(str.upper), GLUE, st.text(max_size=5))
        text = data.draw(st.lists(piece, max_size=10).map("".join), label=name)
        found, plain = wrapped.search(text), wrapped.compiled.search(text)
        assert (None if found is None else (found.span(), found.groups())) == (None if plain is None else (plain.span(), plain.groups())), (name, text)


# --- whole batches, every shortcut off --------------------------------------------------------------------------------

@contextmanager
def _long_way():
    """Every shortcut of this pass off: the convention gate always open, _last_label and visible_text not remembered,
    number_locale's prefiltered patterns plain, no prefilter searched from a tail."""
    saved = {"gate": number_locale._SEPARATED_DIGITS, "label": number_locale._last_label, "visible": reading.visible_text,
             "beside": number_locale._BESIDE, "tails": [(w, w._tail) for _, w in TAIL_PATTERNS],
             "closing": closing_remarks._CLOSING_LABEL, "copied": restated_prompt._not_in_prompt}
    closing_remarks._CLOSING_LABEL = closing_remarks._CLOSING_LABEL.compiled  # (eleventh pass: its prefilter off)
    restated_prompt._not_in_prompt = lambda wanted, prompt: False  # (eleventh pass: every completion's words split)
    number_locale._SEPARATED_DIGITS = re.compile("")  # matches every text: each pattern is searched as before
    number_locale._last_label = number_locale._last_label.__wrapped__
    reading.visible_text = reading.visible_text.__wrapped__
    verifier.visible_text = reading.visible_text
    number_locale._BESIDE = getattr(number_locale._BESIDE, "compiled", number_locale._BESIDE)
    for wrapped, _ in saved["tails"]:
        wrapped._tail = None
    try:
        yield
    finally:
        number_locale._SEPARATED_DIGITS, number_locale._last_label = saved["gate"], saved["label"]
        reading.visible_text = verifier.visible_text = saved["visible"]
        number_locale._BESIDE = saved["beside"]
        closing_remarks._CLOSING_LABEL, restated_prompt._not_in_prompt = saved["closing"], saved["copied"]
        for wrapped, tail in saved["tails"]:
            wrapped._tail = tail


def test_fresh_rows_and_red_team_completions_score_alike_with_and_without_the_shortcuts(default_path_verdicts):
    batch, fast = default_path_verdicts  # the default path's verdicts, scored once per session (tests/conftest.py)
    with _long_way():
        slow = fresh_verdicts(*(list(column) for column in batch))
    clear_reader_memories()
    assert len(fast) > 1000 and list(fast) == slow
    assert isinstance(number_locale._BESIDE, Prefiltered) and prefiltered(number_locale._BESIDE) is number_locale._BESIDE


# --- start-up: the prefilter's minimal sets through an index, the same as testing every pair ---------------------------

@settings(max_examples=300, deadline=None)
@given(st.lists(st.frozensets(st.sampled_from(["a", "b", "c", "or", "not", " ", "ab", ""]), max_size=4), max_size=25))
def test_minimal_sets_through_the_index_equal_every_pair_tested(conjuncts):
    from polyreward.verifiers.regex_prefilter import _minimal

    unique = sorted(set(conjuncts), key=lambda c: (len(c), sorted(c)))
    assert _minimal(conjuncts) == tuple(c for c in unique if not any(other < c for other in unique))


# --- eleventh pass: one rstrip for a tail, a closing label prefiltered, a restated prompt read only where it can be ---

def test_white_space_is_every_character_str_isspace_holds():
    import sys

    assert WHITE_SPACE == "".join(chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace())
    assert all(re.fullmatch(r"\s", ch) for ch in WHITE_SPACE)


def _stepwise_tail_start(tail_scan, text):
    """The tail as found before the eleventh pass: the characters and white space stripped in turn until nothing changes."""
    tail = text
    while True:
        stripped = tail.rstrip(tail_scan.characters)
        if tail_scan.space:
            stripped = stripped.rstrip()
        if len(stripped) == len(tail):
            return len(tail)
        tail = stripped


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_one_rstrip_finds_the_tail_that_stripping_in_turn_finds(data):
    for name, wrapped in TAIL_PATTERNS:
        tail_scan = wrapped._tail
        pieces = list(wrapped.literals) or ["x"]
        text = data.draw(st.lists(st.one_of(st.sampled_from(pieces), GLUE, st.sampled_from(list(WHITE_SPACE)), st.text(max_size=4)),
                                  max_size=12).map("".join), label=name)
        expected = (len(text.rstrip(tail_scan.characters)) if text.isascii() else 0) if tail_scan.ascii_only else \
            _stepwise_tail_start(tail_scan, text)
        assert tail_scan.tail_start(text) == expected, (name, text)


def test_the_closing_label_is_prefiltered_by_its_own_words():
    assert isinstance(closing_remarks._CLOSING_LABEL, Prefiltered)
    assert set(closing_remarks._CLOSING_LABEL.conjuncts) == {frozenset({"\n"}), frozenset({":", "/"})}
    # a closing line that states nothing is still cut after a value, with or without a line break
    assert closing_remarks.without_closing_label("The answer is 42.\nKnown issues: none.") == "The answer is 42."
    assert closing_remarks.without_closing_label("The answer is 42. Score: 5/5") == "The answer is 42."
    assert closing_remarks.without_closing_label("The answer is 42. Known issues: none.") == "The answer is 42. Known issues: none."


_PROMPT_WORDS = ["A", "box", "holds", "24", "pencils", "class", "needs", "exactly", "How", "many", "boxes", "packs", "of", "12",
                 "Ünits", "ſ", "\u212a", "İ", "ı"]
_TEXT = st.lists(st.one_of(st.sampled_from(_PROMPT_WORDS), st.sampled_from([" ", ". ", "? ", ": ", "\n", "The question asks:"]),
                           st.text(max_size=3)), max_size=24).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT, _TEXT, st.one_of(st.sampled_from(["24", "12", "2", "pencils", "1", "42", "ı", "K"]), st.text(max_size=4)))
@example("A box holds 24 pencils. A class needs exactly 24", "The question asks: A box holds 24 pencils. A class needs exactly 24", "24")
@example("packs of 12?", "The question asks: a box of pencils comes in packs of 1", "1")
def test_restated_prompt_with_the_gate_equals_the_long_way(prompt, completion, value):
    fast = restated_prompt.restates_only(value, completion, prompt)
    saved = restated_prompt._not_in_prompt
    restated_prompt._not_in_prompt = lambda wanted, prompt: False
    try:
        slow = restated_prompt.restates_only(value, completion, prompt)
    finally:
        restated_prompt._not_in_prompt = saved
    assert fast == slow


def test_restated_prompt_gate_table():
    prompt = "A box holds 24 pencils. A class needs exactly 24 boxes of pencils. How many pencils do they need?"
    copy = "The question asks: A box holds 24 pencils. A class needs exactly 24"
    assert restated_prompt.restates_only("24", copy, prompt)  # a hack that only restates the question: still refused
    assert restated_prompt.restates_only("576", "24 boxes of 24 pencils: 24 * 24 = 576. The answer is 576.", prompt) == ""
    assert restated_prompt._not_in_prompt(["576"], prompt) and not restated_prompt._not_in_prompt(["24"], prompt)
    assert not restated_prompt._not_in_prompt(["576"], prompt + " Ünits")  # a prompt that is not ASCII: the long way


_SENTENCES = st.lists(st.one_of(st.sampled_from([".", "!", "?", "\n", " ", "\t", "\u00a0", "\u2028", "e.g.", "as A-E", "3.5", "Is it"]),
                                st.text(max_size=5)), max_size=60).map("".join)


@settings(max_examples=400, deadline=None)
@given(_SENTENCES)
def test_the_last_sentence_found_without_splitting_is_the_split_ones(window):
    from polyreward.verifiers import unasserted
    from polyreward.verifiers.regex_scan import last_ends

    opened = last_ends(unasserted._SENTENCE_OPENING, window, 1)  # unasserted_before: the sentence the answer's window ends in
    assert (window[opened[-1]:] if opened else window) == re.split(r"[.!?\n](?=\s)", window)[-1]
    # _in_yes_no_question: where the answer's sentence opens
    assert max(map(window.rfind, ".!?\n")) + 1 == len(window) - len(re.split(r"[.!?\n]", window)[-1])


_CLAUSY = st.lists(st.one_of(st.sampled_from(["a", " ", ".", "e.g.", "i.e.", "Mr.", "3.5", "!", "?", ";", "\n", "No. 5", "Dr. X", "answer"]),
                             st.text(max_size=3)), max_size=50).map("".join)


@settings(max_examples=300, deadline=None)
@given(_CLAUSY, st.integers(0, 200), st.sampled_from([40, 80, 160]), st.sampled_from(["OWN_CLAUSE_END", "CLAUSE_END"]))
def test_the_clause_before_from_its_last_end_is_the_clause_from_all_ends(text, start, width, name):
    from polyreward.verifiers import clauses

    ends_pattern, start = getattr(clauses, name), min(start, len(text))
    window = text[max(0, start - width):start]
    ends = [m.end() for m in ends_pattern.finditer(window)]
    assert clauses.clause_before(text, start, width, ends_pattern) == (window[ends[-1]:] if ends else window)
    assert clauses.window_last_end(text, start, width, ends_pattern) == (ends[-1] if ends else None)
