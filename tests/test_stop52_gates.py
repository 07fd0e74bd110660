"""Issue #35, thirteenth pass: the exact gates and shared readings in front of stop 52's readers against the readings
without them.

Each gate says "nothing to find" only where the reader it guards provably finds nothing (the reasoning is in each
gate's docstring): Hypothesis on text built from the readers' own words with hostile glue, every red-team completion
(``tests/data/red_team.jsonl``) read gated and ungated, and the fresh-row benchmark's rows plus every red-team
completion scored with every gate of this pass on and with every gate open.
"""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from pathlib import Path
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st
from reader_probes import clear_reader_memories, fresh_and_red_team_batch, fresh_verdicts

from polyreward.verifiers import base_claims, closing_remarks, hedging, markdown_blocks, verdict_rereadings
from polyreward.verifiers.reading import normalise, visible_text

_GLUE = ["", " ", "\n", "\t", "\u00a0", ".", ":", ",", ")", "(", "$", "**", "ſ", "\u212a", "\u0130", "\u0131", "x", "5", "=",
         "\\boxed{", "}", "é", "<", ">", "/", "_", "_{", "_2", "Σ", "ẞ"]


@lru_cache(maxsize=1)
def _red_team_rows() -> tuple[dict, ...]:
    path = Path(__file__).resolve().parent / "data" / "red_team.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(r for r in rows if isinstance(r.get("completion"), str))


# --- markdown_blocks.may_hold_summary: a summary element needs "<" ---------------------------------------------------

def test_no_character_but_the_bracket_lowers_to_a_bracket():
    """The reasoning of the gate: ``str.lower`` puts "<" only where the text has one (every code point read)."""
    offenders = [code for code in range(sys.maxunicode + 1) if code != ord("<") and "<" in chr(code).lower()]
    assert offenders == []


_SUMMARY_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["<summary>", "<SUMMARY>", "<Summary class='x'>", "<summar", "summary", "<details>", "</summary>", "Answer: 81", "hint",
     "<summ\u0430ry>", "<\u017fummary>", "\u0130", "<"]), st.text(max_size=3)), max_size=20).map("".join)


@settings(max_examples=500, deadline=None)
@given(_SUMMARY_TEXT)
@example("<details><summary>Answer: 81</summary>work</details>")
@example("<DETAILS><SUMMARY>Answer: E</SUMMARY></DETAILS>")
@example("summary: 81")  # the word without its bracket
def test_summary_gate_is_the_condition_it_replaces(text):
    assert markdown_blocks.may_hold_summary(text) == ("<summary" in text.lower())
    ungated = _shown_markdown_ungated(text)
    assert markdown_blocks.shown_markdown(text) == ungated


def _shown_markdown_ungated(text: str) -> str:
    with mock.patch.object(markdown_blocks, "may_hold_summary", lambda shown: "<summary" in shown.lower()):
        return markdown_blocks.shown_markdown(text)


def test_red_team_completions_show_the_same_markdown_gated_and_ungated():
    texts = list(dict.fromkeys(normalise(r["completion"], answer_reading=True) for r in _red_team_rows()))
    gated = [markdown_blocks.shown_markdown(text) for text in texts]
    assert [_shown_markdown_ungated(text) for text in texts] == gated
    assert sum(markdown_blocks.may_hold_summary(text) for text in texts) > 0  # the red team holds summaries: both ways read


# --- base_claims.may_be_based: a gold in another base is written with "_" --------------------------------------------

_GOLD = st.one_of(st.text(alphabet="0123456789ABFabf_{} $\\x.", max_size=12),
                  st.sampled_from(["1011_2", "1011_{2}", "$1011_2$", " 7A_{16} ", "1011_{10}", "1011", "12", "x_1", "_", "10_1"]))
_ANSWER = st.sampled_from(["1011", "7A", "1011_{10}", "\\boxed{1011}", "12", "5"])
_CLAIM_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["1011", "7A", "the decimal number", "in base 10:", "decimal", "(base 10)", "_{10}", "(one thousand eleven)", "denary",
     "\\boxed{1011}", "1011_2"])), max_size=15).map("".join)


@settings(max_examples=500, deadline=None)
@given(_GOLD, _ANSWER, _CLAIM_TEXT)
@example("1011_2", "1011", "The decimal number $\\boxed{1011}$.")
@example("1011", "1011", "The decimal number $\\boxed{1011}$.")
def test_a_decimal_claim_needs_a_based_gold(gold, answer, text):
    if not base_claims.may_be_based(gold):
        assert base_claims.decimal_claim(gold, answer, text) is False


def test_non_string_gold_goes_the_long_way():
    assert base_claims.may_be_based(None) and base_claims.may_be_based(12)  # type: ignore[arg-type]


def test_red_team_golds_read_alike_gated_and_ungated():
    claims = 0
    for row in _red_team_rows():
        gold = row.get("gold")
        if not isinstance(gold, str):
            continue
        found = base_claims.decimal_claim(gold, gold.split("_")[0].strip("$ "), visible_text(row["completion"]))
        claims += found
        assert base_claims.may_be_based(gold) or not found


# --- hedging.qualified_before: the contrasts of the answer's clause found once ---------------------------------------

_CLAUSE = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["but", "But", "however", "though", "so", "so far", "like so", "thus", "yet", "whereas", "hence", "therefore", "Answer:",
     "final answer is", "maybe", "I think", "butter", "sot"])), max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(_CLAUSE)
def test_last_contrast_end_is_the_greatest(own):
    """``own_before`` was cut at the greatest end of any contrast; it is now cut at the last one's (matches do not overlap)."""
    found = list(hedging._CONTRAST.finditer(own))
    assert max((m.end() for m in hedging._CONTRAST.finditer(own)), default=0) == (found[-1].end() if found else 0)


# --- closing_remarks.closing_label: the closing label tried where it can open -----------------------------------------

_LABEL_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE + ["\r", "\x0b", "\u2028", "\u3000", "!", "}", "$", ")", "/"]), st.sampled_from(
    ["Score: 3/5", "score:3 / 5.", "Self-score: 4/4", "ſcore: 1/2", "mar\u212a: 2/2", "Marks : 10/10", "Rating: 5/5", "points: 3/3",
     "Known issues: none", "Caveats: N/A.", "Open questions: nothing", "Correct!", "Yes.", "That's\nright", "Well done",
     "Verdict: perfect", "Kind regards,", "Best,", "All the\nbest,", "Many thanks!", "Alex", "Your tutor", "Answer: none",
     "x = 4.", "\\boxed{12}", "42"]), st.text(max_size=3)), max_size=14).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_LABEL_TEXT)
@example("\\boxed{12}.\nScore: 3/3.")
@example("x = 4. Score: 5/5")  # the score line opened by its look-behind, no line break
@example("x = 4.ſcore: 5/5")  # a look-alike of "s" that re matches ignoring case: not ASCII, scanned
@example("x = 4.\nKnown issues: none.\n")
@example("Best,\nAlex\n\n")
@example("x = 4.\nAll the\nbest,\nAlex")
@example("x = 4. \u2028Score: 1/2")
def test_the_closing_label_is_the_plain_search(text):
    plain = getattr(closing_remarks._CLOSING_LABEL, "compiled", closing_remarks._CLOSING_LABEL)
    assert _spans(closing_remarks.closing_label(text)) == _spans(plain.search(text)), text


def _spans(found):
    return None if found is None else (found.span(), found.group())


def test_red_team_tails_hold_the_same_closing_label():
    plain = getattr(closing_remarks._CLOSING_LABEL, "compiled", closing_remarks._CLOSING_LABEL)
    tails = list(dict.fromkeys(text[-closing_remarks.TAIL:] for r in _red_team_rows()
                               for text in (r["completion"], visible_text(r["completion"]))))
    found = [_spans(plain.search(tail)) for tail in tails]
    assert [_spans(closing_remarks.closing_label(tail)) for tail in tails] == found
    assert sum(label is not None for label in found) > 10


# --- the whole reading ---------------------------------------------------------------------------------------------


@contextmanager
def _gates_open():
    """Every gate of this pass open: each guarded reader reads every text."""
    with ExitStack() as stack:
        stack.enter_context(mock.patch.object(markdown_blocks, "may_hold_summary", lambda shown: "<summary" in shown.lower()))
        stack.enter_context(mock.patch.object(verdict_rereadings, "may_be_based", lambda _gold: True))
        stack.enter_context(mock.patch.object(closing_remarks, "closing_label", lambda tail: closing_remarks._CLOSING_LABEL.search(tail)))
        yield


def test_fresh_rows_and_red_team_completions_score_alike_with_every_gate_open():
    completions, golds, prompts = fresh_and_red_team_batch(seed=13)
    clear_reader_memories()
    gated = fresh_verdicts(completions, golds, prompts)
    with _gates_open():
        ungated = fresh_verdicts(completions, golds, prompts)
    clear_reader_memories()
    assert len(gated) > 1000 and gated == ungated
