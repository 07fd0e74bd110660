"""Reading rules added after the blind split holdout59 (structured output), table of realistic output both ways:

* a completion that is one record (JSON, TOML, plain ``key: value`` lines) or ends on one after prose is read as the
  record reads: the answer key at any depth, a nested answer object's value / letter field; fields that restate the
  answer (a decimal, the work, a reason) are no second answer; sections or fields named example / alternative /
  rejected / distractor are no answer; an empty answer field answers nothing (records.py);
* a tool call that submits the answer (Hermes ``<tool_call>``, a bare call, an OpenAI ``tool_calls`` list with its
  arguments as a JSON string) is its arguments' record, one statement that must agree with the answer the prose before
  it commits to (records.submitted_calls, answer_extraction._prose_states, choice_forms.record_letter);
* a tie at the top of a per-option score table picks no option (choice_forms.scores_tied);
* a LaTeX tabular is read as the markdown table it typesets (latex_tables.py).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.latex_tables import tabular_as_markdown
from polyreward.verifiers.records import record_answer, submitted_calls

OPTIONS = "\nA) Venus\nB) Mars\nC) Jupiter\nD) Saturn\nE) Mercury"
CHOICE_PROMPT = "Which planet is the largest in the Solar System?" + OPTIONS


def _hermes(arguments: dict) -> str:
    return "<tool_call>\n" + json.dumps({"name": "submit_answer", "arguments": arguments}) + "\n</tool_call>"


def _openai(*arguments: dict) -> str:
    calls = [{"id": f"call_{i}", "type": "function", "function": {"name": "final_answer", "arguments": json.dumps(args)}}
             for i, args in enumerate(arguments)]
    return json.dumps({"tool_calls": calls})


MATH = [
    # genuine: a nested answer object, a restating field, the answer at depth, a submitted call agreeing with the prose
    ('{"result": {"work": ["3 * 7 = 21", "21 + 4 = 25"], "answer": {"value": 25, "unit": "cm"}}}', "25", 1.0),
    ('{"answer": "5/8", "as_decimal": 0.625, "explanation": "5 of the 8 outcomes are favourable."}', "\\frac{5}{8}", 1.0),
    ('[solution]\nsteps = ["6 * 7 = 42"]\n\n[solution.output]\nanswer = 42\n', "42", 1.0),
    ("There are 4! = 24 orderings.\n\n" + _openai({"answer": 24, "work": "4*3*2*1"}), "24", 1.0),
    ("The hypotenuse is sqrt(36 + 64) = 10.\n\n" + _hermes({"answer": "10"}), "10", 1.0),
    ("I'll submit it.\n\n" + _hermes({"answer": 10}), "10", 1.0),  # the prose commits to nothing
    # hacks: an example or alternative section, an empty answer field, a call that disagrees with the prose
    ('{"example": {"answer": 42}, "answer": ""}', "42", 0.0),
    ('[example_output]\nanswer = 42\n\n[output]\nanswer = ""\n', "42", 0.0),
    ('{"answer": 40, "alternative_answer": 42}', "42", 0.0),
    ('{"rejected": {"answer": 42}, "answer": {"value": 40}}', "42", 0.0),
    ("So the total cost is $18, and I'm sure of it.\n\n" + _hermes({"answer": "24"}), "24", 0.0),
    ("Summing the series gives 2 + 4 + 8 = 14.\n\n" + _openai({"answer": 16}), "16", 0.0),
    (_openai({"answer": 16}, {"answer": 14}), "16", 0.0),  # two submitted calls: two answers
    ('{"answer": {"value": 16}, "note": "or maybe 14, 16 is a guess"}', "16", 0.0),  # a second thought in a field
    ('{"answer": "16?", "steps": ["2^4"]}', "16", 0.0),
    ('answer = 16  # placeholder until the script runs\n', "16", 0.0),
    # hacks: a record that grades its own confidence low or calls the answer provisional is read by the text reader
    ('{"answer": 16, "confidence": "low"}', "16", 0.0),
    ("answer: 16\nconfidence: low", "16", 0.0),
    ('{"answer": {"value": 16}, "certain": false}', "16", 0.0),
    ('{"answer": 16, "note": "unverified"}', "16", 0.0),
    ('{"answer": 16, "confidence": "high", "steps": ["2^4 = 16"]}', "16", 1.0),
    # a field in another form must restate the answer; an alternative offered beside it is read by the text reader
    ('{"answer": "3/8", "decimal": 0.375, "percent": "37.5%"}', "\\frac{3}{8}", 1.0),
    ('{"answer": "3/8", "decimal": 0.6}', "\\frac{3}{8}", 0.0),
    ('{"answer": 42, "alternatives": [41, 43]}', "42", 0.0),
    ("\\begin{tabular}{ll}\nStep & Value \\\\\n\\hline\nFirst guess & 16 \\\\\nCorrected & 14 \\\\\n\\end{tabular}", "16", 0.0),
    # genuine: a LaTeX tabular whose last row is the answer
    ("\\begin{tabular}{lr}\n\\toprule\nItem & Cost \\\\\n\\midrule\nBooks & 12 \\\\\nPens & 3 \\\\\n\\midrule\n"
     "\\textbf{Total} & \\textbf{15} \\\\\n\\bottomrule\n\\end{tabular}", "15", 1.0),
]

CHOICE = [
    # genuine: a nested answer object, plain key-value lines with a reason, a submitted call that agrees
    ('{"answer": {"letter": "C", "text": "Jupiter"}, "why": "about 318 Earth masses"}', "C", 1.0),
    ("answer: C\nreason: m ≈ 1.9 × 10^27 kg, over twice all other planets combined", "C", 1.0),
    ("Jupiter is the largest planet; the answer is C.\n\n" + _openai({"choice": "C"}), "C", 1.0),
    ("Jupiter is far larger than Saturn or Mars.\n\n" + _hermes({"answer": "C", "note": "Jupiter"}), "C", 1.0),
    ("option,score\nA,0.05\nB,0.05\nC,0.85\nD,0.05", "C", 1.0),
    ("\\begin{tabular}{lll}\nOption & Planet & Largest? \\\\\n\\hline\nA & Venus & no \\\\\nB & Mars & no \\\\\n"
     "C & Jupiter & yes \\\\\nD & Saturn & no \\\\\n\\hline\n\\multicolumn{2}{l}{Answer} & C \\\\\n\\end{tabular}", "C", 1.0),
    # hacks: an example section, an empty answer, a distractor field, a tie, a call that disagrees with the prose
    ('[sample_response]\nanswer = "C"\n\n[response]\nanswer = ""\nreason = "not sure which is larger"\n', "C", 0.0),
    ('{"distractor": "C", "answer": ""}', "C", 0.0),
    ("option,probability\nB,0.4\nC,0.4\nD,0.2", "C", 0.0),
    ("| Option | Confidence |\n|---|---|\n| C | 45% |\n| D | 45% |\n| A | 10% |", "C", 0.0),
    ("The answer is D, Saturn, by volume.\n\n" + _hermes({"answer": "C"}), "C", 0.0),
    (_openai({"answer": "C"}, {"answer": "D"}), "C", 0.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), MATH)
def test_math_structured_table(completion, gold, expected):
    assert MathAccuracy(timeout=10)(completions=[completion], answer=[gold]) == [expected]


@pytest.mark.parametrize(("completion", "gold", "expected"), CHOICE)
def test_choice_structured_table(completion, gold, expected):
    assert ChoiceAccuracy()(prompts=[CHOICE_PROMPT], completions=[completion], answer=[gold]) == [expected]


def test_record_and_call_readings():
    assert record_answer('{"answer": {"value": 13}}').value == "13"
    assert record_answer('{"answer": {"letter": "D", "text": "x"}}').value == "D"
    assert record_answer('{"answer": 3, "answer_checked": 4}') is None  # two answer fields: the text reader decides
    assert record_answer("Just prose, no record at all.") is None
    found = record_answer("Some prose.\n\n{\"answer\": 7}")
    assert found is not None and found.value == "7" and found.start > 0
    assert submitted_calls('{"name": "calculator", "arguments": {"expression": "2+2"}}').strip() == ""  # input to a tool
    assert json.loads(submitted_calls(_openai({"answer": 5}))) == {"answer": 5}
    assert tabular_as_markdown("\\begin{tabular}{ll}a & b \\\\ \\hline c & d \\\\\\end{tabular}") == "| a | b |\n|---|---|\n| c | d |"
    assert tabular_as_markdown("$\\begin{array}{cc} 1 & 2 \\end{array}$").startswith("$\\begin{array}")  # math, no table


_FIELDS = st.lists(st.sampled_from([("reasoning", "Adding the parts gives the total."), ("steps", ["first", "then"]),
                                    ("confidence", "high"), ("units", "cm"), ("check", "verified by substitution")]),
                   unique_by=lambda field: field[0], max_size=4)


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 9999), fields=_FIELDS, at=st.integers(0, 4), nested=st.booleans(), data=st.data())
def test_any_key_order_gives_the_same_reading(value, fields, at, nested, data):
    """The answer field's place among the other fields, and its nesting in an answer object, never change the
    reading: each order pays the answer."""
    answer = {"value": value} if nested else value
    items = list(fields)
    items.insert(min(at, len(items)), ("answer", answer))
    shuffled = data.draw(st.permutations(items))
    reward = MathAccuracy(timeout=10)
    for record in (dict(items), dict(shuffled)):
        assert reward(completions=[json.dumps(record)], answer=[str(value)]) == [1.0]


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 9999), other=st.integers(1, 9999), key=st.sampled_from(["answer_checked", "final_answer", "result"]),
       before=st.booleans())
def test_a_second_disagreeing_answer_field_never_pays(value, other, key, before):
    """A record with a second answer field of another value pays neither value."""
    if value == other:
        return
    items = [("answer", value), (key, other)]
    record = dict(reversed(items) if before else items)
    reward = MathAccuracy(timeout=10)
    for gold in (value, other):
        assert reward(completions=[json.dumps(record)], answer=[str(gold)]) == [0.0]


@settings(max_examples=40, deadline=None)
@given(letters=st.lists(st.sampled_from("ABCDE"), min_size=2, max_size=5, unique=True), top=st.integers(30, 60), data=st.data())
def test_a_tie_at_the_top_picks_no_option(letters, top, data):
    """Whatever rows share the top score, and in whatever order, a tied score table pays no option."""
    tied = letters[:2]
    rows = [(letter, top if letter in tied else data.draw(st.integers(0, top - 1))) for letter in letters]
    rows = data.draw(st.permutations(rows))
    table = "option,probability\n" + "\n".join(f"{letter},{score / 100:.2f}" for letter, score in rows)
    for gold in tied:
        assert ChoiceAccuracy()(prompts=[CHOICE_PROMPT], completions=[table], answer=[gold]) == [0.0]


@settings(max_examples=40, deadline=None)
@given(said=st.integers(1, 9999), submitted=st.integers(1, 9999), openai=st.booleans(), as_string=st.booleans())
def test_a_submitted_call_and_the_prose_are_one_statement(said, submitted, openai, as_string):
    """Prose that concludes one value, then a call that submits another, pays neither; the same value pays."""
    value = str(submitted) if as_string else submitted
    call = _openai({"answer": value}) if openai else _hermes({"answer": value})
    completion = f"Adding the terms, the total is {said}.\n\n{call}"
    reward = MathAccuracy(timeout=10)
    if said == submitted:
        assert reward(completions=[completion], answer=[str(said)]) == [1.0]
    else:
        for gold in (said, submitted):
            assert reward(completions=[completion], answer=[str(gold)]) == [0.0]
