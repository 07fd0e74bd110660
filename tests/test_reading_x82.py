"""Rules added after the ``holdout82`` red-team split (output of small models and early GRPO training: broken LaTeX,
escaped markdown, degenerate endings; tests/data/red_team.jsonl), tables of realistic output both ways. The rows here
are new completions in the same styles, not the split's rows (the split stays a benchmark):

* **escaped markdown** (verifiers/broken_markup.py, read in ``reading.normalise``): ``\\*\\*Final Answer:\\*\\* 45`` shows
  ``**Final Answer:** 45`` and ``a\\_{10}`` shows ``a_{10}``, and is read so -- alternating answers stay alternating;
* **a misspelt box**: ``\\box{24}`` is ``\\boxed{24}`` (plain TeX's ``\\box`` never takes braces); a later well-formed
  box with another value still decides;
* **a final box cut off**: an unclosed ``\\boxed{`` at the very end is read closed only when what it holds is complete
  (the value the work reached at the end of an equation, or one option letter after work that names that option
  alone); two values, words, a line break, a brace group left open or a value the work never reached stay cut off;
* **a letter set in display or inline math** (choice.py): ``\\[\\textbf{(A)}\\]`` and ``\\(B\\)`` read as ``$(A)$`` was;
* **answers that alternate** (turns.alternates): a run of statements of one form that returns to a value it left
  never settles ("The answer is 6. The answer is 8. The answer is 6.");
* **rounds after an end-of-sequence token** (turns.later_rounds): each stretch between ``</s>`` / ``<|endoftext|>``
  tokens after the answer is read on its own, so answers that alternate across them never settle.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.broken_markup import closed_final_box, spelled_boxes, unescaped_markdown
from polyreward.verifiers.turns import alternates, later_rounds

math = scorer(MathAccuracy, "Compute it.")
CHOICE_Q = ("Which planet is known as the Red Planet?\nA. Venus\nB. Mars\nC. Jupiter\nD. Mercury\nE. Saturn")
choice = scorer(ChoiceAccuracy, CHOICE_Q)

# ------------------------------------------------------------------ escaped markdown

ESCAPED_GENUINE = [  # (completion, gold)
    ("Area = 12 × 7 = 84\n\n\\*\\*Final Answer:\\*\\* 84", "84"),
    ("So a\\_{12} = 2(12) + 5 = 29.\n\n\\*\\*Answer: 29\\*\\*", "29"),
    ("Perimeter = 2(8 + 3) = 22 cm\n\n\\*\\*Final answer:\\*\\* 22 cm", "22"),
    ("x\\_1 x\\_2 = c/a = 6\n\n\\_\\_Answer:\\_\\_ 6", "6"),
    ("\\#\\#\\# Final Answer\n\n\\*\\*\\frac{3}{4}\\*\\*", "\\frac{3}{4}"),
    ("On a: 15 − 4 = 11.\n\n\\*\\*Réponse :\\*\\* 11", "11"),
    ("Tenemos 9 · 7 = 63.\n\n\\*\\*Respuesta:\\*\\* 63", "63"),
    ("12 \\* 4 = 48\n\nAnswer: 48", "48"),
]
ESCAPED_HACKS = [
    ("29 = 6·4 + 5\n\n\\*\\*Final Answer:\\*\\* 5 \\*\\*Final Answer:\\*\\* 7 \\*\\*Final Answer:\\*\\* 5 \\*\\*Final Answer:\\*\\* 7", "5"),
    ("\\*\\*Final Answer:\\*\\* 84\n\nWait, I used the wrong width. \\*\\*Final Answer:\\*\\* 96", "84"),
    ("\\*\\*Answer: 29\\*\\* \\*(or 31 if the sequence starts at n = 0)\\*", "29"),
    ("\\*\\*Final answer:\\*\\* 22 or 24", "22"),
]


@pytest.mark.parametrize("completion, gold", ESCAPED_GENUINE)
def test_escaped_markdown_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", ESCAPED_HACKS)
def test_escaped_markdown_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, expected", [
    ("Mars is red from iron oxide.\n\n\\*\\*Answer: B\\*\\*", 1.0),
    ("\\*\\*Answer:\\*\\* B", 1.0),
    ("\\*\\*Answer:\\*\\* B \\*\\*Answer:\\*\\* A", 0.0),
    ("\\*\\*Answer:\\*\\* B\n\nHmm, no: \\*\\*Answer:\\*\\* C", 0.0),
])
def test_escaped_markdown_choice(completion, expected):
    assert choice(completion, "B") == expected


@settings(max_examples=80, deadline=None)
@given(text=st.text(alphabet="ab *_#\n:1", max_size=60))
def test_escaping_markdown_marks_is_read_as_the_marks(text):
    escaped = "".join("\\" + char if char in "*_#" else char for char in text)
    assert unescaped_markdown(escaped) == text
    assert unescaped_markdown(text) == text  # nothing escaped, nothing changed
    assert unescaped_markdown("\\\\" + "*") == "\\\\*"  # a doubled backslash escapes no mark (LaTeX's "\\\\*")


@settings(max_examples=40, deadline=None)
@given(gold=st.integers(0, 9999), shift=st.integers(1, 99), bold=st.sampled_from(["\\*\\*", "\\*"]))
def test_escaped_answer_label_reads_as_the_plain_one(gold, shift, bold):
    label = f"{bold}Final Answer:{bold}"
    assert math(f"{label} {gold}", str(gold)) == 1.0
    assert math(f"{label} {gold} {label} {gold + shift} {label} {gold} {label} {gold + shift}", str(gold)) == 0.0


# ------------------------------------------------------------------ \box for \boxed

BOX_GENUINE = [
    ("$5! = 120$, so the answer is $\\box{120}$.", "120"),
    ("The probability is \\box {\\frac{5}{6}}", "\\frac{5}{6}"),
    ("Total: \\box{3.5}", "3.5"),
]
BOX_HACKS = [
    ("A quarter of 60 is \\box{15}.\n\nHmm, maybe they mean what remains.\n\nFinal answer: \\boxed{45}", "15"),
    ("\\box{120} or \\box{24}", "120"),
    ("\\box{3.5}, maybe \\box{4}", "3.5"),
]


@pytest.mark.parametrize("completion, gold", BOX_GENUINE)
def test_misspelt_box_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", BOX_HACKS)
def test_misspelt_box_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


def test_misspelt_box_choice_both_ways():
    assert choice("Mars looks red, so \\box{B}.", "B") == 1.0
    assert choice("Mars looks red, so \\box{B}.\n\nFinal answer: \\boxed{C}", "B") == 0.0


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="\\boxedfmh{}24 ", max_size=40))
def test_only_box_before_a_brace_is_respelt(text):
    spelled = spelled_boxes(text)
    assert spelled.replace("\\boxed", "\\box") == text.replace("\\boxed", "\\box")  # only "\\box" -> "\\boxed"
    assert spelled.count("\\boxed") - text.count("\\boxed") == len([i for i in range(len(text)) if text.startswith("\\box", i)
                                                                     and text[i + 4:].lstrip(" \t").startswith("{")])


# ------------------------------------------------------------------ a final box cut off

CUT_GENUINE = [
    ("\\frac{2}{8} + \\frac{3}{8} = \\frac{5}{8}\n\nThe answer is \\boxed{\\frac{5}{8}", "\\frac{5}{8}"),
    ("So $n = 24$.\n\n$\\boxed{24$", "24"),
    ("x = 7, so the answer is \\boxed{7", "7"),
    ("d = \\sqrt{9 + 16} = 5.\n\n\\[\\boxed{5\\]", "5"),
    ("La somme est 3 + 4 = 7.\n\nRéponse : \\boxed{7", "7"),
]
CUT_HACKS = [
    ("Multiples of 4: 4, 8, 12\nMultiples of 6: 6, 12, 18\n\n\\boxed{12, 24", "12"),
    ("HT, TH out of 4.\n\n\\boxed{\\frac{1}{2}, \\frac{1}{4}", "\\frac{1}{2}"),
    ("10% of 20 is 2.\n\n\\boxed{2\n\nWait, the discount is on two shirts, so the answer is 4.", "2"),
    ("3n = 81 gives n = 27.\n\n\\boxed {27\n\nActually I'll go with \\boxed{81}", "27"),
    ("Speed = 144 / 3 = 48\n\n$$\\boxed{48$$ or $$\\boxed{36}$$", "48"),
    ("Seven continents.\n\n\\boxed{\\text{either 7 or 6", "7"),
    ("Sum = 50 \\cdot 101 = 5050, so the answer is \\boxed{50", "50"),   # 50 is never reached: cut off inside 5050
    ("The slope is 3/4 = 0.75.\n\n\\boxed{\\frac{3", "\\frac{3}{4}"),     # cut off inside the value
    ("By the distance formula the answer is \\boxed{2\\sqrt", "2\\sqrt{5}"),
    ("Hmm, 12 or 13. The answer is \\boxed{12", "12"),                      # never reached by an equation
    ("x = 7, so the answer is \\boxed{7 or 8", "7"),
]


@pytest.mark.parametrize("completion, gold", CUT_GENUINE)
def test_cut_off_final_box_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", CUT_HACKS)
def test_cut_off_final_box_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, expected", [
    ("Mars is red because of iron oxide.\n\n\\boxed{B", 1.0),
    ("Mars is red because of iron oxide.\n\n$\\boxed{(B)$", 1.0),
    ("Mars: \\fbox{B", 1.0),
    ("Noble gases: \\boxed{B, E", 0.0),
    ("\\boxed{B\n\nHmm, actually Jupiter has red spots too, so it's C.}", 0.0),
    ("Mars, I think.\n\n\\boxed{B or C", 0.0),
    ("\\boxed{B} \\boxed{C", 0.0),
    ("Weighing the options, the final answer is \\boxed{B", 0.0),  # the work names no option: B may be the first of two
    ("Jupiter is big but Mars is red.\n\n\\boxed{B", 0.0),          # the work names two options
    ("Venus is the hottest planet.\n\n\\boxed{B", 0.0),             # the work names another option
])
def test_cut_off_final_box_choice(completion, expected):
    assert choice(completion, "B") == expected


@settings(max_examples=60, deadline=None)
@given(reached=st.integers(0, 999), other=st.integers(0, 999))
def test_a_cut_off_box_is_closed_only_for_the_value_reached(reached, other):
    text = f"So x = {reached}.\n\nThe answer is \\boxed{{{other}"
    closed = closed_final_box(text)
    assert (closed == text + "}") == (other == reached)
    assert math(text, str(other)) == (1.0 if other == reached else 0.0)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="\\boxed{}x=12 \n$.", max_size=40))
def test_closing_a_box_only_ever_appends_one_brace(text):
    closed = closed_final_box(text)
    assert closed == text or closed.replace("}", "", 1) == text or len(closed) == len(text) + 1


# ------------------------------------------------------------------ a letter set in display or inline math

@pytest.mark.parametrize("completion, expected", [
    ("Mars is the Red Planet.\n\n\\[\\textbf{(B)}\\]", 1.0),
    ("Mars.\n\n\\[ \\mathbf{B} \\]", 1.0),
    ("The answer is \\(\\text{(B)}\\).", 1.0),
    ("Mars, so \\(B\\).", 1.0),
    ("\\[\\textbf{(B)}\\] or \\[\\textbf{(C)}\\]", 0.0),
    ("\\[\\textbf{(B)}\\]\n\nNo wait, Jupiter's spot is red: \\[\\textbf{(C)}\\]", 0.0),
    ("\\[\\textbf{(C)}\\]", 0.0),
])
def test_letter_in_display_math(completion, expected):
    assert choice(completion, "B") == expected


# ------------------------------------------------------------------ rounds after an end-of-sequence token

EOS = ["</s>", "<|endoftext|>", "<|im_end|>", "<|eot_id|>"]


@pytest.mark.parametrize("eos", EOS)
@pytest.mark.parametrize("completion, expected", [
    ("Mars.\n\nAnswer: B{e}{e}{e}", 1.0),
    ("Answer: B{e}Answer: B{e}Answer: B{e}", 1.0),
    ("The answer is B.{e}The answer is (B).{e}", 1.0),
    ("Answer: B{e}Answer: C{e}Answer: B{e}Answer: C{e}", 0.0),
    ("Answer: B{e}Answer: C{e}Answer: B{e}Answer: C{e}Answer: B{e}", 0.0),  # ends on the gold: still never settled
    ("B{e}C{e}B{e}", 0.0),
    ("Answer: B{e}Answer: B{e}Answer: D{e}Answer: B", 0.0),
])
def test_rounds_after_end_of_sequence_choice(completion, expected, eos):
    assert choice(completion.replace("{e}", eos), "B") == expected


@pytest.mark.parametrize("eos", EOS)
@pytest.mark.parametrize("completion, expected", [
    ("4^3 = 64\n\n\\boxed{64}{e}{e}{e}", 1.0),
    ("Answer: 64{e}Answer: 64{e}", 1.0),
    ("Answer: 64{e}Answer: 32{e}Answer: 64{e}", 0.0),
    ("\\boxed{64}{e}\\boxed{64}{e}\\boxed{46}{e}\\boxed{64}", 0.0),
    ("The answer is 64.{e}The answer is 46.{e}The answer is 64.{e}", 0.0),
])
def test_rounds_after_end_of_sequence_math(completion, expected, eos):
    assert math(completion.replace("{e}", eos), "64") == expected


def test_later_rounds_split_at_each_token():
    assert later_rounds("Answer: D</s>Answer: A</s></s>Answer: D</s>") == ["Answer: A", "Answer: D"]
    assert later_rounds("Answer: D") == []


@settings(max_examples=60, deadline=None)
@given(rounds=st.lists(st.sampled_from("BC"), min_size=1, max_size=8), eos=st.sampled_from(EOS))
def test_rounds_pay_only_when_every_round_agrees(rounds, eos):
    completion = "Answer: B" + "".join(f"{eos}Answer: {letter}" for letter in rounds) + eos
    assert choice(completion, "B") == (1.0 if set(rounds) == {"B"} else 0.0)


# ------------------------------------------------------------------ answers that alternate inside one turn

ALTERNATING_MATH = [  # gold 6: a run of one statement form that comes back to a value it left
    "48 ÷ 8 = 6. The answer is 6. The answer is 8. The answer is 6. The answer is 8. The answer is 6.",
    "48 ÷ 8 = 6\nFinal answer: 6\nFinal answer: 8\nFinal answer: 6",
    "La respuesta es 6. La respuesta es 8. La respuesta es 6.",
    "So x = 6. So x = 8. So x = 6. So x = 8. So x = 6.",
    "\\*\\*Final Answer:\\*\\* 6\n\\*\\*Final Answer:\\*\\* 7\n\\*\\*Final Answer:\\*\\* 6",
]
SETTLED_MATH = [  # gold 6
    "48 ÷ 8 = 6. The answer is 6. The answer is 6. The answer is 6.",
    "The answer is 8.\nThe answer is 6.\nThe answer is 6.",                  # changed once and stayed
    "The answer is 6. Hmm, could it be 8? No: 8 × 8 = 64. The answer is 6.",  # a check in words between
    "f(1) = 2. f(2) = 4. f(3) = 6.\n\nSo f(3) = 6.",
]


@pytest.mark.parametrize("completion", ALTERNATING_MATH)
def test_alternating_statements_not_paid(completion):
    assert math(completion, "6") == 0.0


@pytest.mark.parametrize("completion", SETTLED_MATH)
def test_settled_statements_paid(completion):
    assert math(completion, "6") == 1.0


@pytest.mark.parametrize("completion, expected", [
    ("The answer is B. The answer is C. The answer is B. The answer is C. The answer is B.", 0.0),
    ("Réponse : B\nRéponse : D\nRéponse : B", 0.0),
    ("The answer is B. The answer is B. The answer is B.", 1.0),
    ("The answer is C.\nThe answer is B.\nThe answer is B.", 1.0),
])
def test_alternating_letters(completion, expected):
    assert choice(completion, "B") == expected


@settings(max_examples=80, deadline=None)
@given(values=st.lists(st.sampled_from([6, 8, 9]), min_size=3, max_size=8))
def test_a_run_alternates_when_it_returns_to_a_value_it_left(values):
    completion = " ".join(f"The answer is {value}." for value in values)
    returns = any(values[k] == values[i] != values[j] for i in range(len(values)) for j in range(i + 1, len(values))
                  for k in range(j + 1, len(values)))
    assert alternates(completion) == returns


def test_a_closing_remark_after_an_alternating_run_is_read_past():
    assert math("The answer is 6. The answer is 8. The answer is 6. Hope this helps!", "6") == 0.0
    assert math("The answer is 6. The answer is 6. The answer is 6. Hope this helps!", "6") == 1.0
