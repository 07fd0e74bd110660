"""Issue #35, fifteenth pass: the shortcuts in front of the readers added by stops 54-60 against the readings without
them (docs/benchmarks.md, "Fresh rows: fifteenth pass").

* ``turns.alternates`` reads each statement's masked form and values at first use, from the end, and a cycle of
  ``period`` statements only where there are ``3 * period`` of them: against the code that read every statement first;
* ``units.durations_in_asked_unit`` reads the prompt's asked units before it searches the completion: against the
  search first;
* ``not_a_value._UNFILLED_ANSWER_LINE``, ``number_locale._SCALE_ASKED`` / ``_LABEL_BEFORE_COLON``,
  ``reading._LABEL_IN_TEXT`` and ``speaker_declines._DECLINES_NAMED`` are prefiltered by their own words (also held by
  tests/test_math_fast_paths.py's properties over every reader pattern): against the plain search;
* ``hedging._own_clause_before`` remembers the last (text, start) it read: against the reading itself;
* ``number_locale._SEPARATED_DIGITS`` written from its separator: against ``\\d[.,]\\d``.

Each by Hypothesis on text built from the readers' own words with hostile glue (look-alike letters, emoji, long texts),
every red-team completion (``tests/data/red_team.jsonl``) read both ways, and the fresh-row benchmark's rows plus every
red-team completion scored with every shortcut of this pass on and with every shortcut off.
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reader_probes import clear_reader_memories, fresh_and_red_team_batch, fresh_verdicts

from polyreward.verifiers import answer_extraction, choice, hedging, math_answers, not_a_value, number_locale, reading
from polyreward.verifiers import speaker_declines, turns, units
from polyreward.verifiers.regex_prefilter import Prefiltered

_GLUE = ["", " ", "  ", "\n", "\n\n", "\t", "\u00a0", ".", ". ", "!", "?", ":", ",", ")", "(", "$", "**", "_", "😊", "> ",
         "ſ", "\u212a", "\u0130", "\u0131", "x", "5", "42", "=", "\\boxed{42}", "é", "¿", "٣", "１"]


@lru_cache(maxsize=1)
def _red_team_rows() -> tuple[dict, ...]:
    path = Path(__file__).resolve().parent / "data" / "red_team.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return tuple(r for r in rows if isinstance(r.get("completion"), str))


# --- turns.alternates: forms and values read lazily, from the end -------------------------------------------------


def _two_form_cycle_long(statements: list[str]) -> bool:
    """``turns._two_form_cycle`` as it was before this pass: every statement's form and values read first."""
    forms = [turns._STATED_VALUE.sub("\u25af", statement) for statement in statements]
    values = [tuple(found.group() for found in turns._STATED_VALUE.finditer(statement)) for statement in statements]
    for period in (2, 3):
        run = 0
        while run + period < len(forms) and forms[-1 - run] == forms[-1 - run - period]:
            run += 1
        cycle = list(range(len(forms) - period, len(forms)))
        if (run + period >= 3 * period and len({forms[at] for at in cycle}) == period
                and all(len(values[at]) == 1 and len(forms[at]) <= 80 for at in cycle) and len({values[at] for at in cycle}) >= 2
                and len({values[at][0].isalpha() for at in cycle}) == 1):
            return True
    return False


def alternates_long(text: str) -> bool:
    """``turns.alternates`` as it was before this pass (the long way)."""
    statements = [part.strip() for part in turns._STATEMENT_BREAK.split(text[-4000:]) if part.strip()][-turns.MAX_STATEMENTS:]
    for _ in range(3):
        if statements and turns._STATED_VALUE.search(statements[-1]) is None:
            statements.pop()
    if len(statements) < 3:
        return False
    if _two_form_cycle_long(statements):
        return True
    form = turns._STATED_VALUE.sub("\u25af", statements[-1])
    if "\u25af" not in form or len(form) > 80:
        return False
    values: list[tuple[str, ...]] = []
    for statement in reversed(statements):
        if turns._STATED_VALUE.sub("\u25af", statement) != form:
            break
        values.append(tuple(found.group() for found in turns._STATED_VALUE.finditer(statement)))
    values.reverse()
    left: set[tuple[str, ...]] = set()
    for previous, value in zip(values, values[1:]):
        if value != previous:
            left.add(previous)
            if value in left:
                return True
    return False


_STATEMENTS = ["The answer is 6.", "The answer is 8.", "Answer: A", "Answer: B", "Total = 260.", "Or 240?", "So \\boxed{42}.",
               "\\boxed{41}.", "Hope this helps!", "Wait, no.", "It is C.", "It is 7.5.", "x = -3.", "1,000 apples.",
               "Step 2: 3 + 4 = 7.", "So the total is 7.", "The answer is \\fbox{7}.", "Option D", "😊", "A", "B", "42", "43"]
_ALTERNATING_TEXT = st.lists(st.one_of(st.sampled_from(_STATEMENTS), st.sampled_from(_GLUE), st.text(max_size=3)),
                             max_size=40).map("".join)


@settings(max_examples=600, deadline=None)
@given(_ALTERNATING_TEXT, st.integers(0, 2))
@example("The answer is 6. The answer is 8. The answer is 6.", 0)
@example("Total = 260. Or 240? Total = 260. Or 240? Total = 260. Or 240?", 0)
@example("A. B. C. A. B. C. A. B. C.", 0)
@example("x = 1. y = 2. x = 1. y = 2. x = 1. y = 2.", 1)
@example("Answer: A\nAnswer: B\nAnswer: A\nHope this helps!", 2)
def test_alternates_is_the_long_reading(text, pad):
    """``pad``: the text after 300 statements (past MAX_STATEMENTS) or after a 4,000-character paragraph."""
    text = ("", "Work 1. " * 300, "w" * 4000 + " ")[pad] + text
    assert turns.alternates(text) is alternates_long(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_STATEMENTS + ["Or 7?", "Or B?", "Maybe 9.", "Hmm."]), min_size=0, max_size=14))
def test_the_cycle_reading_is_the_long_one_on_any_statements(statements):
    assert turns._two_form_cycle(statements) is _two_form_cycle_long(statements)


def test_red_team_completions_alternate_alike():
    texts = [r["completion"] for r in _red_team_rows()]
    fast = [turns.alternates(text) for text in texts]
    assert fast == [alternates_long(text) for text in texts]
    assert sum(fast) >= 5  # (the red team holds alternating answers: both readings were exercised)


# --- units.durations_in_asked_unit: the prompt first --------------------------------------------------------------


_DURATIONS_READ = units.durations_in_asked_unit


def durations_in_asked_unit_long(text: str, prompt: str) -> str:
    """The reading with the completion searched before the prompt is read (before this pass)."""
    if not prompt or units._COMPOUND_DURATION.search(text) is None:
        return text
    return _DURATIONS_READ(text, prompt)


_DURATION_WORDS = ["2 hours and 30 minutes", "2 h 30 min", "1 minute, 30 seconds", "90 minutes 75 seconds", "3 hrs 5 mins",
                   "45 min 15 s", "hours", "minutes", "seconds", "minus", "How many hours", "How many minutes",
                   "in seconds", "How long, in hours and minutes", "km", "How many apples"]
_DURATION_TEXT = st.lists(st.one_of(st.sampled_from(_DURATION_WORDS), st.sampled_from(_GLUE), st.text(max_size=3)),
                          max_size=14).map("".join)


@settings(max_examples=400, deadline=None)
@given(_DURATION_TEXT, _DURATION_TEXT)
@example("She ran for 2 hours and 30 minutes.", "How many hours did she run?")
@example("It took 1 minute, 30 seconds.", "How many seconds did it take?")
@example("2 h 30 min", "")
def test_durations_read_the_prompt_first_alike(text, prompt):
    assert units.durations_in_asked_unit(text, prompt) == durations_in_asked_unit_long(text, prompt)


def test_red_team_durations_alike():
    for row in _red_team_rows():
        prompt = row.get("prompt") or ""
        if isinstance(prompt, str):
            assert units.durations_in_asked_unit(row["completion"], prompt) == durations_in_asked_unit_long(row["completion"], prompt)


# --- the patterns prefiltered by this pass --------------------------------------------------------------------------

_PREFILTERED = ((not_a_value, "_UNFILLED_ANSWER_LINE"), (number_locale, "_SCALE_ASKED"), (number_locale, "_LABEL_BEFORE_COLON"),
                (reading, "_LABEL_IN_TEXT"), (speaker_declines, "_DECLINES_NAMED"))


def test_this_pass_prefiltered_patterns_are_prefiltered():
    for module, name in _PREFILTERED:
        assert isinstance(getattr(module, name), Prefiltered), name


def _pattern_text(words):
    return st.lists(st.one_of(st.sampled_from(words), st.sampled_from(words).map(str.upper), st.sampled_from(_GLUE),
                              st.text(max_size=3)), max_size=16).map("".join)


def _spans(found):
    return None if found is None else (found.span(), found.groups())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_this_pass_prefiltered_patterns_equal_the_plain_search(data):
    for module, name in _PREFILTERED:
        wrapped = getattr(module, name)
        words = list(wrapped.literals) + ["I'm not actually picking ", "The answer is ( ).", "\\text{Answer: } 6", "Answer: ___",
                                          "用万作单位", "多少万", "Total: ", "#### ", "I wouldn't submit "]
        text = data.draw(_pattern_text(words))
        for method in ("search", "match", "fullmatch"):
            assert _spans(getattr(wrapped, method)(text)) == _spans(getattr(wrapped.compiled, method)(text)), (name, method, text)
        assert [_spans(m) for m in wrapped.finditer(text)] == [_spans(m) for m in wrapped.compiled.finditer(text)], (name, text)
        assert wrapped.sub("#", text) == wrapped.compiled.sub("#", text)
        start = data.draw(st.integers(-2, len(text) + 2))
        assert _spans(wrapped.search(text, start, start + 24)) == _spans(wrapped.compiled.search(text, start, start + 24))


def test_red_team_completions_searched_alike_by_this_pass_prefilters():
    texts = [r["completion"] for r in _red_team_rows()]
    for module, name in _PREFILTERED:
        wrapped = getattr(module, name)
        for text in texts:
            for piece in (text, text[-200:], text[-80:]):
                assert _spans(wrapped.search(piece)) == _spans(wrapped.compiled.search(piece)), (name, piece)


# --- hedging._own_clause_before: the last reading remembered ---------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["Maybe 41. ", "Answer: ", "Final answer: ", "I think ", "so ", "but ", ", ", "; ",
                                           "\n", "42", "to answer: ", "I'll submit "]), st.sampled_from(_GLUE)), max_size=20).map("".join),
       st.lists(st.integers(0, 200), min_size=1, max_size=6))
def test_the_remembered_own_clause_is_the_reading(text, starts):
    for start in starts + starts[::-1]:
        start = min(start, len(text))
        assert hedging._own_clause_before(text, start) == hedging._read_own_clause_before(text, start)
        other = text + " "  # another text, then the first again
        assert hedging._own_clause_before(other, start) == hedging._read_own_clause_before(other, start)


# --- number_locale._SEPARATED_DIGITS: found from its separator -----------------------------------------------------

_SEPARATED_PLAIN = re.compile(r"\d[.,]\d")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0159.,;: \n-x") + ["٣", "１", "²", "\u00a0", "𝟙"]), max_size=30))
@example("1.5")
@example(",5")
@example("5,")
@example("٣,١")
@example("１.５")
@example("².5")
def test_the_separated_digits_gate_finds_what_the_plain_pattern_finds(text):
    found = number_locale._SEPARATED_DIGITS.search(text)
    plain = _SEPARATED_PLAIN.search(text)
    assert (found is None) == (plain is None)
    if found is not None:
        assert found.start() == plain.start() + 1


# --- the whole reading ---------------------------------------------------------------------------------------------


@contextmanager
def shortcuts_off():
    """Every shortcut of this pass off: each reader reads the long way."""
    with ExitStack() as stack:
        for module in (answer_extraction, choice):
            stack.enter_context(mock.patch.object(module, "alternates", alternates_long))
        for module in (units, math_answers):
            stack.enter_context(mock.patch.object(module, "durations_in_asked_unit", durations_in_asked_unit_long))
        for module, name in _PREFILTERED:
            stack.enter_context(mock.patch.object(module, name, getattr(module, name).compiled))
        stack.enter_context(mock.patch.object(hedging, "_own_clause_before", hedging._read_own_clause_before))
        stack.enter_context(mock.patch.object(number_locale, "_SEPARATED_DIGITS", _SEPARATED_PLAIN))
        yield


def test_fresh_rows_and_red_team_completions_score_alike_with_every_shortcut_off():
    completions, golds, prompts = fresh_and_red_team_batch(seed=15)
    clear_reader_memories()
    fast = fresh_verdicts(completions, golds, prompts)
    with shortcuts_off():
        slow = fresh_verdicts(completions, golds, prompts)
    clear_reader_memories()
    assert len(fast) > 1000 and fast == slow
