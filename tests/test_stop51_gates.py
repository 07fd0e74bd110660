"""Issue #35, twelfth pass: the exact gates in front of stop 51's readers against the readings without them.

Each gate says "nothing to find" only where the reader it guards provably finds nothing (the reasoning is in each
gate's docstring), so these tests hold every gate to the reading it skips: Hypothesis on text built from the patterns'
own words with hostile glue (look-alike letters that ``re`` matches ignoring case, other white space, line breaks), every
red-team completion (``tests/data/red_team.jsonl``) read gated and ungated, and the fresh-row benchmark's rows plus
every red-team completion scored with every gate of this pass on and with every gate open.
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from pathlib import Path
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st
from reader_probes import clear_reader_memories, fresh_verdicts

from polyreward.verifiers import answer_structures as structures
from polyreward.verifiers import closing_checks, hedging, math_forms
from polyreward.verifiers import math as verifier
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
@example("x = 2. Check at x = 2: 3 = 3")  # the point checked at, then the colon
@example("x = 2. Check\n: 3 = 3")  # a line break before the colon: no heading
@example("So x = 2; let me check it.\nCheck   at   x = 2  : 3 = 3")  # a later occurrence of the word has the heading
@example("<think>let me check it twice.</think>\nStep 2: 3 + 4 = 7. So x = 7.")
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


# --- answer_structures.final_structure: the reading before this pass's shortcuts ------------------------------------

def _word_alternatives_before(masked, start, end):
    colon = masked.rfind(":", start, end)
    start = colon + 1 if colon >= 0 else start
    pieces = [piece.strip() for piece in structures._WORD_JOIN.split(masked[start:end])]
    if len(pieces) < 2 or not all(re.fullmatch(r"[A-Za-z ]{2,40}", piece) for piece in pieces):
        return None
    return structures.Structure("alternatives", tuple(pieces), (), (), start + len(masked[start:end]) - len(masked[start:end].lstrip()), end)


def _labelled_block_before(text, line_start):
    starts, at = [], line_start
    while True:
        line = text[at:text.find("\n", at) if text.find("\n", at) >= 0 else len(text)]
        if not re.match(r"\s*\(([a-h])\)", line):
            first = structures._LETTER_LABEL.search(line)
            if starts and first is not None and first.group(1) == "a":
                starts.append(at + first.start())
            break
        starts.append(at)
        if at == 0:
            break
        previous = text.rfind("\n", 0, at - 1)
        while previous >= 0 and not text[previous + 1:at - 1].strip():
            at = previous + 1
            previous = text.rfind("\n", 0, at - 1)
        at = previous + 1
    return starts[-1] if len(starts) >= 2 else None


def _depths_before(text):
    """The bracket depths a character at a time."""
    depth, out = 0, []
    for char in text:
        out.append(depth)
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
    return out


def _final_structure_before(text):
    """:func:`final_structure` as it read before this pass (the trailing stops by a search, the letter label searched
    without its bracket, every depth counted, every line's first label searched, the word alternatives split)."""
    start, end = structures._final_line(text)
    if end - start > structures.MAX_CHARS or not structures.may_hold_structure(text, start, end):
        return None
    labelled_start = _labelled_block_before(text, start)
    masked = structures._masked(text)
    end = start + re.search(r"[\s.,;!]*\Z", masked[start:end]).start()
    if labelled_start is not None:
        parts = structures._parts(text, labelled_start, end)
        if parts is not None:
            return parts
    label = re.search(r":\s*(?=\S)", masked[start:end])
    letter = structures._LETTER_LABEL.search(masked, start, end)
    if letter or (label is not None and structures._word_parts(masked, start + label.end(), end)):
        parts = structures._parts(masked, start + (label.end() if label and not letter else 0), end)
        if parts is not None:
            return parts
    if structures._word_parts(masked, start, end):
        parts = structures._parts(masked, start, end)
        if parts is not None:
            return parts
    return structures._read(masked, start, end, lead_in=True) or _word_alternatives_before(masked, start, end)


def _structure_both_ways(text):
    text = normalize_unicode(text)
    gated = structures.final_structure(text)
    with mock.patch.object(structures, "_depths", _depths_before):
        assert _final_structure_before(text) == gated
    return gated


_STRUCTURE_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["x = 2", "x = 3", " or ", " and ", ", ", "; ", " / ", "(a) 5 ", "(b) 3", "(a)", "\\n(b) 4", "Center (3, -2), radius 4",
     "no solution", "all reals", "Answer:", "Solutions:", "\\quad", "\\\\", "\\in \\{0, 1\\}", "\\text{or}", "x < -2",
     "x > 2", "n \\in \\mathbb{Z}", "valid for x \\ne 1", "[1, 5)", "\\langle 1, 2 \\rangle", "yes", "So the total is 42.",
     "The answer is \\boxed{42}.", "#### ", "$$", "\\[", "\\]", "\u2003", "\u00a0", "\x1c"]), st.text(max_size=3)),
    max_size=20).map("".join)


@settings(max_examples=500, deadline=None)
@given(_STRUCTURE_TEXT)
@example("Answer: no solution / all reals")
@example("Answer: yes or no ,;!\u2003")
@example("We get (a) 5\n(b) 3")
@example("(a) 5 (b) 3")
@example("Center: (3, -2), radius: 4")
@example("x = 2 or x = 3.\u00a0;")
def test_the_structure_reading_equals_the_reading_before_its_shortcuts(text):
    _structure_both_ways(text)


def test_white_space_read_past_is_what_backslash_s_matches():
    """The trailing stops read by ``rstrip`` and the word-alternatives gate's ``\\s`` name the same characters:
    ``re``'s ``\\s`` is exactly what ``str.isspace`` holds (so ``strip`` removes nothing the gate lets pass)."""
    import sys

    assert all(bool(re.fullmatch(r"\s", chr(code))) == chr(code).isspace() for code in range(sys.maxunicode + 1))


# --- every red-team completion, each reader gated and ungated --------------------------------------------------------

@contextmanager
def _gates_open():
    """Every shortcut of this pass off: each guarded reader reads every text, the structure reading as before."""
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(closing_checks, "may_hold_heading", lambda _window: True))
        stack.enter_context(mock.patch.object(math_forms, "may_close_on_letter", lambda _line: True))
        stack.enter_context(mock.patch.object(verifier, "final_structure", _final_structure_before))
        stack.enter_context(mock.patch.object(structures, "_depths", _depths_before))
        stack.enter_context(mock.patch.object(hedging, "names_chance", lambda _clause: True))  # the answer's value always read
        yield


def _readings(completions):
    out = []
    for completion in completions:
        seen = normalize_unicode(visible_text(completion))
        out.append((closing_checks.passing_check_start(seen), math_forms.closing_letter(completion)))
    return out


def test_red_team_completions_read_the_same_structure_as_before():
    found = [_structure_both_ways(visible_text(completion)) for completion in _red_team_completions()]
    assert sum(structure is not None for structure in found) > 100


def test_red_team_completions_read_alike_gated_and_ungated():
    completions = _red_team_completions()
    gated = _readings(completions)
    with _gates_open():
        assert _readings(completions) == gated
    assert len(completions) > 5000
    assert sum(start is not None for start, _ in gated) > 0 and sum(letter is not None for _, letter in gated) > 0


def test_fresh_rows_and_red_team_completions_score_alike_with_every_gate_open(default_path_verdicts):
    batch, gated = default_path_verdicts  # the gated (default) path, scored once per session (tests/conftest.py)
    with _gates_open():
        ungated = fresh_verdicts(*(list(column) for column in batch))
    clear_reader_memories()
    assert len(gated) > 1000 and list(gated) == ungated
