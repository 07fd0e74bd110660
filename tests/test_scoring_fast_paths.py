"""The per-row shortcuts of numeric math scoring (issue #35, tenth pass) against the long way.

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
from reader_probes import clear_reader_memories, fresh_and_red_team_batch, fresh_verdicts

from polyreward.verifiers import number_locale, reading
from polyreward.verifiers import math as verifier
from polyreward.verifiers.regex_prefilter import Prefiltered, prefiltered
from polyreward.verifiers.regex_scan import TailScanned, tail_scanned

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
             "beside": number_locale._BESIDE, "tails": [(w, w._tail) for _, w in TAIL_PATTERNS]}
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
        for wrapped, tail in saved["tails"]:
            wrapped._tail = tail


def test_fresh_rows_and_red_team_completions_score_alike_with_and_without_the_shortcuts():
    completions, golds, prompts = fresh_and_red_team_batch(seed=11)
    clear_reader_memories()
    fast = fresh_verdicts(completions, golds, prompts)
    with _long_way():
        slow = fresh_verdicts(completions, golds, prompts)
    clear_reader_memories()
    assert len(fast) > 1000 and fast == slow
    assert isinstance(number_locale._BESIDE, Prefiltered) and prefiltered(number_locale._BESIDE) is number_locale._BESIDE


# --- start-up: the prefilter's minimal sets through an index, the same as testing every pair ---------------------------

@settings(max_examples=300, deadline=None)
@given(st.lists(st.frozensets(st.sampled_from(["a", "b", "c", "or", "not", " ", "ab", ""]), max_size=4), max_size=25))
def test_minimal_sets_through_the_index_equal_every_pair_tested(conjuncts):
    from polyreward.verifiers.regex_prefilter import _minimal

    unique = sorted(set(conjuncts), key=lambda c: (len(c), sorted(c)))
    assert _minimal(conjuncts) == tuple(c for c in unique if not any(other < c for other in unique))
