"""Issue #35, twelfth pass: the exact gates in front of stop 51's readers against the readings without them.

Each gate says "nothing to find" only where the reader it guards provably finds nothing (the reasoning is in each
gate's docstring), so these tests hold every gate to the reading it skips: Hypothesis on text built from the patterns'
own words with hostile glue (look-alike letters that ``re`` matches ignoring case, other white space, line breaks), every
red-team completion (``tests/data/red_team.jsonl``) read gated and ungated, and the fresh-row benchmark's rows plus
every red-team completion scored with every gate of this pass on and with every gate open.
"""

from __future__ import annotations

import json
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from pathlib import Path
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st
from reader_probes import clear_reader_memories, fresh_and_red_team_batch, fresh_verdicts

from polyreward.verifiers import closing_checks, math_forms
from polyreward.verifiers.math_normalize import normalize_unicode
from polyreward.verifiers.reading import visible_text

_GLUE = ["", " ", "\n", "\t", "\u00a0", "\u2009", ".", "!", ":", ",", ")", "(", "$", "**", "ſ", "\u212a", "\u0130", "\u0131",
         "x", "5", "=", "✓", "✗", "\\boxed{", "}", "\\textbf{", "é"]


@lru_cache(maxsize=1)
def _red_team_completions() -> tuple[str, ...]:
    path = Path(__file__).resolve().parent / "data" / "red_team.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(dict.fromkeys(r["completion"] for r in rows if isinstance(r.get("completion"), str)))


# --- closing_checks.may_hold_heading: a closing check needs a word of checking ---------------------------------------

_CHECK_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["check", "Check", "CHECK", "checks", "Double-check", "re-check", "chec", "verify", "Verification", "VERIFICA", "verif",
     "vérification", "VÉRIFICATION", "comprobación", "Prüfung", "PRÜFUNG", "probe", "Probe", "controllo", "chec\u212a",
     "ver\u0130fy", "ver\u0131fy", "Domain", "Both", "Quick", " at x = 2", "4 - 10 + 6 = 0", "(-3)^{2} = 9", "so", "not",
     "The answer is 42"]), st.text(max_size=3)), max_size=25).map("".join)


@settings(max_examples=500, deadline=None)
@given(_CHECK_TEXT)
@example("x = 2.\nChec\u212a: 4 - 10 + 6 = 0")  # the Kelvin sign is "k" to re ignoring case: non-ASCII, searched
@example("x = 2. Ver\u0130fy: 2 + 2 = 4 ✓")
@example("x = 2. Vérification : 2 + 2 = 4 ✓")
@example("x = 2. Quick check: 56 / 7 = 8 ✓")
@example("x = 2. Probe: 2 + 2 = 4")  # each word of the gate once, at a sentence start (drawn text rarely puts it there)
@example("x = 2.\nControllo: 2 + 2 = 4")
@example("x = 2. Verifica: 2 + 2 = 4")
def test_the_check_heading_gate_never_changes_a_reading(text):
    window = text[max(0, len(text) - closing_checks.WINDOW):]
    assert closing_checks.may_hold_heading(window) or closing_checks._HEADING.search(window) is None
    gated = closing_checks.passing_check_start(text)
    with mock.patch.object(closing_checks, "may_hold_heading", lambda _window: True):
        assert closing_checks.passing_check_start(text) == gated


# --- math_forms.may_close_on_letter: a closing option letter ends the line ------------------------------------------

_LETTER_LINE = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["(C)", "C", "c", "(c)", "J", "K", "answer", "the answer is", "choice", "option", "→", "->", " ", ". ", "x = 6",
     "\\boxed{\\textbf{(B)}}", "\\text{E}", "(\u0130)", "\u0131", "\u00a0.", " !", "\u2028", "\u1680"]), st.text(max_size=2)),
    max_size=12).map("".join)


@settings(max_examples=500, deadline=None)
@given(_LETTER_LINE)
@example("x = 6. (C)")
@example("answer: (c) .")
@example("x = 3 → C\u00a0!\u00a0")
@example("So it is \u0130.")
@example("(D)\n")
def test_the_closing_letter_gate_never_changes_a_reading(line):
    assert math_forms.may_close_on_letter(line) or math_forms._CLOSING_LETTER.search(line[-120:]) is None
    gated = math_forms.closing_letter(line)
    with mock.patch.object(math_forms, "may_close_on_letter", lambda _line: True):
        assert math_forms.closing_letter(line) == gated


# --- every red-team completion, each reader gated and ungated --------------------------------------------------------

@contextmanager
def _gates_open():
    """Every gate of this pass open: each guarded reader reads every text."""
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(closing_checks, "may_hold_heading", lambda _window: True))
        stack.enter_context(mock.patch.object(math_forms, "may_close_on_letter", lambda _line: True))
        yield


def _readings(completions):
    out = []
    for completion in completions:
        seen = normalize_unicode(visible_text(completion))
        out.append((closing_checks.passing_check_start(seen), math_forms.closing_letter(completion)))
    return out


def test_red_team_completions_read_alike_gated_and_ungated():
    completions = _red_team_completions()
    gated = _readings(completions)
    with _gates_open():
        assert _readings(completions) == gated
    assert len(completions) > 5000
    assert sum(start is not None for start, _ in gated) > 0 and sum(letter is not None for _, letter in gated) > 0


def test_fresh_rows_and_red_team_completions_score_alike_with_every_gate_open():
    completions, golds, prompts = fresh_and_red_team_batch(seed=12)
    clear_reader_memories()
    gated = fresh_verdicts(completions, golds, prompts)
    with _gates_open():
        ungated = fresh_verdicts(completions, golds, prompts)
    clear_reader_memories()
    assert len(gated) > 1000 and gated == ungated
