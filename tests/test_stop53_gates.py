"""Issue #35, fourteenth pass: the shortcuts in front of stop 53's readers (and the shared readings of the answer's
surroundings) against the readings without them.

Each shortcut says "nothing to find" only where the reader it guards provably finds nothing, or reads once what was
read several times: Hypothesis on text built from the readers' own words with hostile glue, every red-team completion
(``tests/data/red_team.jsonl``) read both ways, and the fresh-row benchmark's rows plus every red-team completion scored
with every shortcut of this pass on and with every shortcut off.
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

from polyreward.verifiers import follow_ups, reading, turns, units
from polyreward.verifiers.regex_prefilter import Prefiltered

_GLUE = ["", " ", "  ", "\n", "\n\n", "\t", "\u00a0", ".", ". ", "!", "?", ":", ",", ")", "(", "$", "**", "_", "😊", "> ",
         "ſ", "\u212a", "\u0130", "\u0131", "x", "5", "42", "=", "\\boxed{42}", "é", "¿"]


@lru_cache(maxsize=1)
def _red_team_rows() -> tuple[dict, ...]:
    path = Path(__file__).resolve().parent / "data" / "red_team.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(r for r in rows if isinstance(r.get("completion"), str))


# --- follow_ups: the four searches of a completion's tail prefiltered by their words -----------------------------------

_FOLLOW_UP_NAMES = ("OFFER", "_PLEASANTRY", "_TO_THE_READER", "_AI_DISCLAIMER")


def _follow_up_words() -> list[str]:
    words = {"Would you like me to", "want me to", "Shall I", "let me know if you", "If you'd like, I can", "I can also",
             "Hope this helps", "Any questions", "happy to help", "Quick check for understanding", "Can you plug",
             "Try this yourself", "Your turn", "I'm an AI", "As an AI", "¿Quieres que", "Voulez-vous que je", "Soll ich",
             "Möchtest du, dass ich", "Quer que eu", "answer", "instead", "Note:", "P.S.", "The answer is 42."}
    for name in _FOLLOW_UP_NAMES:
        pattern = getattr(follow_ups, name)
        if isinstance(pattern, Prefiltered):
            words.update(pattern.literals)
    return sorted(words)


_FOLLOW_UP_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(_follow_up_words()), st.text(max_size=3)),
                           max_size=24).map("".join)


@contextmanager
def _follow_ups_plain():
    """follow_ups' four tail searches as the plain patterns (no word filter)."""
    with ExitStack() as stack:
        for name in _FOLLOW_UP_NAMES:
            pattern = getattr(follow_ups, name)
            stack.enter_context(mock.patch.object(follow_ups, name, getattr(pattern, "compiled", pattern)))
        yield


def test_the_follow_up_searches_are_prefiltered():
    assert all(isinstance(getattr(follow_ups, name), Prefiltered) for name in _FOLLOW_UP_NAMES)
    fresh = "Step 2: a friend gives 740 more, so 274 + 740 = 1014. So the total is 1014. The answer is \\boxed{1014}."
    assert not any(getattr(follow_ups, name).may_match(fresh) for name in _FOLLOW_UP_NAMES)


@settings(max_examples=400, deadline=None)
@given(_FOLLOW_UP_TEXT, st.integers(0, 2))
@example("x = 9π. Would you like me to also compute the circumference (6π)?", 0)
@example("The answer is 42. Hope this helps!", 0)
@example("The answer is 42. I'm an AI, double-check.", 1)
@example("The answer is 42. ¿Quieres que también calcule el área?", 0)
@example("The answer is 42. Soll ich auch die Fläche berechnen?", 2)
def test_without_follow_ups_is_the_plain_reading(text, pad):
    """Filtered and plain, the same text back; ``pad`` puts the text behind a long first sentence (over 2,000
    characters: the positioned search of the tail, which is not filtered, and 512-2,000: filtered from the start)."""
    text = ("Work. " * (0, 120, 400)[pad]) + text
    filtered = follow_ups.without_follow_ups(text)
    with _follow_ups_plain():
        assert follow_ups.without_follow_ups(text) == filtered


def test_red_team_completions_lose_the_same_follow_ups():
    texts = [r["completion"] for r in _red_team_rows()]
    filtered = [follow_ups.without_follow_ups(text) for text in texts]
    with _follow_ups_plain():
        assert [follow_ups.without_follow_ups(text) for text in texts] == filtered
    assert sum(a != b for a, b in zip(filtered, texts)) > 5


# --- reading.uncommented_text: the answer views and the visible text start from one reading ----------------------------

_MARKUP_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["\u202e", "\u202c", "&#8238;", "&#x202E;", "&amp;", "&lt;", "&", "<!-- 41 -->", "<!--", "-->", "% 41\n", "\\phantom{41}",
     "~~41~~", "<span style='display:none'>41</span>", "<|im_end|>", "Answer: 42", "\\boxed{42}", "\n```\n41\n```\n",
     "> 41\n", "[^1]: 41", "\\*", "  ", "\t", "41"]), st.text(max_size=3)), max_size=20).map("".join)


@settings(max_examples=500, deadline=None)
@given(_MARKUP_TEXT, st.booleans(), st.booleans())
@example("\u202e24 si rewsna ehT", True, True)
@example("&#8238;24 si rewsna ehT", True, True)
@example("&#x202e;24 si rewsna ehT", False, True)
def test_the_shared_reading_is_the_long_one(text, collapse_space, answer_reading):
    long_way = reading.without_comments(reading.normalise(text, collapse_space=collapse_space, answer_reading=answer_reading))
    assert reading.uncommented_text(text, collapse_space, answer_reading) == long_way
    for code in (False, True):
        assert reading.visible_text(text, code) == reading._visible_part(
            reading.without_comments(reading.normalise(text, collapse_space=not code)), code)


def test_the_override_is_the_only_difference_the_answer_reading_makes():
    """The reasoning of the shared memory: ``answer_reading`` is read by normalise only in its right-to-left branch."""
    import inspect

    source = inspect.getsource(reading.normalise)
    uses = [line for line in source.splitlines() if "answer_reading" in line and not line.lstrip().startswith(("def ", '"""'))]
    assert [line.strip() for line in uses if "``answer_reading``" not in line] == [
        "text = _RIGHT_TO_LEFT_RUN.sub(lambda run: _shown_order(run, answer_reading), text)"]


@contextmanager
def _uncommented_long_way():
    # (the writer's LaTeX macros expanded in prose after the comments are dropped, as uncommented_text defines it since
    # holdout120: reading._rendered_macros)
    long_way = lambda text, collapse_space=True, answer_reading=False: reading._rendered_macros(reading.without_comments(  # noqa: E731
        reading.normalise(text, collapse_space=collapse_space, answer_reading=answer_reading)), collapse_space)
    with mock.patch.object(reading, "uncommented_text", long_way):
        yield


# --- turns._END_OF_PROOF: searched from the tail it can consume ------------------------------------------------------

_PROOF_TEXT = st.lists(st.one_of(st.sampled_from(_GLUE), st.sampled_from(
    ["\\qed", "\\qedhere", "\\QED", "\\blacksquare", "\\square", "\\Box", "$\\square$", "$ \\blacksquare $", "∎", "□",
     "Q.E.D.", "Q.E.D", "q.e.d.", "\\boxed{5}", "}", "$", ")", "7", "\\Boxed", "\u2028", "\u3000"]), st.text(max_size=2)),
    max_size=12).map("".join)


@settings(max_examples=800, deadline=None)
@given(_PROOF_TEXT)
@example("So x = 5. \\qed")
@example("So x = 5.$\\square$ \n")
@example("x = 5 ∎ ∎")
@example("x = 5.\u3000□")
def test_the_end_of_proof_is_the_plain_search(text):
    plain = turns._END_OF_PROOF.compiled
    found = turns._END_OF_PROOF.search(text)
    assert (None if found is None else found.span()) == (None if (m := plain.search(text)) is None else m.span())
    assert (text if found is None else text[:found.start()]) == plain.sub("", text)


# --- the whole reading ---------------------------------------------------------------------------------------------


@contextmanager
def _shortcuts_off():
    """Every shortcut of this pass off: each reader reads the long way."""
    with ExitStack() as stack:
        stack.enter_context(_follow_ups_plain())
        stack.enter_context(_uncommented_long_way())
        stack.enter_context(mock.patch.object(turns, "_END_OF_PROOF", turns._END_OF_PROOF.compiled))
        stack.enter_context(mock.patch.object(units, "_PERCENT_ASKED", units._PERCENT_ASKED.compiled))
        yield


def test_fresh_rows_and_red_team_completions_score_alike_with_every_shortcut_off():
    completions, golds, prompts = fresh_and_red_team_batch(seed=14)
    clear_reader_memories()
    fast = fresh_verdicts(completions, golds, prompts)
    with _shortcuts_off():
        slow = fresh_verdicts(completions, golds, prompts)
    clear_reader_memories()
    assert len(fast) > 1000 and fast == slow
