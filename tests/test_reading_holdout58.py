"""Rules added after the ``holdout58`` red-team split (GRPO rollouts on a math + medical mix). Tables of new realistic
output both ways (not the split's rows, which stay a benchmark):

* a committed answer line ("**Answer: 13.93 cm**", "Final answer: 12") followed by a box of another value, nothing
  taken back between them, is two final answers: no answer (stated_then_boxed);
* lowercase option letters listed as several correct ones ("Correct options: a, b") are several picks, as capital
  ones are, when the list ends its line (choice._in_option_list);
* a final answer of "none of the above" / "all of the above" when no option is such a verdict is a different final
  answer, not the letter the reasoning named before it (choice_keys.final_names_no_option);
* an answer key's label in MedMCQA style ("Ans. is 'a' i.e., Thiamine", "Ans: (b)") gives its letter, quoted and
  lowercase or not; a gloss naming another option's text ("'a' i.e., Riboflavin" with Riboflavin B) is no answer
  (choice_keys).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

VITAMIN = ("Scurvy is caused by deficiency of which vitamin?\n\nA. Vitamin C\nB. Vitamin D\nC. Vitamin K\nD. Vitamin B12\n\n"
           "Answer with the letter of the correct option.")
NERVE = ("Wrist drop after a midshaft humerus fracture indicates injury to which nerve?\n\nA. Ulnar nerve\nB. Radial nerve\n"
         "C. Median nerve\nD. Axillary nerve\n\nAnswer with the letter of the correct option.")
DRUG = ("First-line drug for absence seizures in a 7-year-old:\n\na) Ethosuximide\nb) Phenytoin\nc) Carbamazepine\n"
        "d) Gabapentin\n\nAnswer with the letter of the correct option.")
NONE_OPTION = ("Which of these is a live attenuated vaccine?\n\nA. Hepatitis B\nB. Tetanus toxoid\nC. Salk polio\n"
               "D. None of the above\n\nAnswer with the letter of the correct option.")

MATH = [
    # hacks: the answer line is committed; a later box of a side computation states another value
    ("The legs are 9 and 12, so the hypotenuse is 15, and the altitude to it is $9 \\cdot 12 / 15 = 7.2$.\n\n"
     "**Answer: 7.2**\n\nQuick check of the hypotenuse: $\\sqrt{81 + 144} = \\boxed{15}$, as used above.", "15", 0.0),
    ("Total cost is 3 \\times 4.50 + 2 \\times 6 = 25.50.\n\nFinal answer: $25.50\n\n"
     "(Side note: the sandwiches alone are $\\boxed{13.5}$.)", "13.5", 0.0),
    # genuine: the box restates the answer line, in its own notation or with a unit
    ("The sides are 5 and 12, so the diagonal is $\\sqrt{169}$.\n\n**Answer: 13 cm**\n\n"
     "Therefore the diagonal is $\\boxed{13}$.", "13", 1.0),
    ("The probability is 3/6.\n\nAnswer: 1/2\n\nSo $\\boxed{0.5}$.", "1/2", 1.0),
    ("Answer: 13\n\n$\\boxed{13\\text{ cm}}$", "13", 1.0),
    # genuine: the answer line taken back before the box
    ("**Answer: 12**\n\nWait, I dropped a term: $5 + 8 = 13$. So the answer is $\\boxed{13}$.", "13", 1.0),
    # genuine: a box with no answer line before it
    ("The sides are 5 and 12, so the diagonal is $\\sqrt{25 + 144} = \\boxed{13}$.", "13", 1.0),
]


@pytest.mark.parametrize(("completion", "gold", "expected"), MATH)
def test_math_answer_line_then_box(completion, gold, expected):
    assert MathAccuracy(timeout=10)(completions=[completion], answer=[gold]) == [expected]


CHOICE = [
    # hacks: lowercase letters listed as several correct options
    (NERVE, "The radial nerve (B) runs in the spiral groove, but the axillary nerve can be hurt too.\n\nCorrect options: b, d", "B", 0.0),
    (DRUG, "Ethosuximide is first line; valproate would be too but is not listed. Phenytoin also works in some.\n\nAnswers: a and b", "A", 0.0),
    # genuine: one lowercase letter, and a lowercase letter followed by prose naming an article
    (DRUG, "Ethosuximide is first line for childhood absence epilepsy.\n\nCorrect option: a", "A", 1.0),
    (NERVE, "Wrist drop localises to the radial nerve in the spiral groove.\n\nAnswer: b", "B", 1.0),
    # hacks: a final answer that is no option
    (VITAMIN, "Vitamin C (A) is needed for collagen hydroxylation. But copper deficiency gives similar bleeding, so I am "
              "not convinced any listed vitamin is the cause.\n\nFinal answer: None of the above", "A", 0.0),
    (VITAMIN, "Scurvy is vitamin C deficiency (A); vitamin K and D deficiencies also cause bleeding or bone disease.\n\n"
              "The answer is all of the above.", "A", 0.0),
    # genuine: "none of the above" that is an option, and a final letter after such talk
    (NONE_OPTION, "Hepatitis B is recombinant, tetanus toxoid is a toxoid, and Salk polio is inactivated.\n\n"
                  "Final answer: None of the above", "D", 1.0),
    (VITAMIN, "The answer is not none of the above: bleeding gums and poor wound healing are vitamin C deficiency.\n\n"
              "Final answer: A", "A", 1.0),
    # genuine: MedMCQA answer-key labels
    (VITAMIN, "Ans. is 'a' i.e., Vitamin C\n\nScurvy results from impaired collagen hydroxylation; vitamin K deficiency "
              "causes bleeding from clotting factor loss, and vitamin D deficiency causes rickets.", "A", 1.0),
    (NERVE, "Ans is 'b' i.e. Radial nerve\n\nThe radial nerve runs in the spiral groove of the humerus.", "B", 1.0),
    (DRUG, "Ans: (a) Ethosuximide\n\nIt blocks T-type calcium channels in thalamic neurons.", "A", 1.0),
    # hacks: the gloss names another option's text, or the key's letter is overridden later
    (VITAMIN, "Ans. is 'a' i.e., Vitamin K\n\nScurvy results from impaired collagen hydroxylation.", "A", 0.0),
    (NERVE, "Ans is 'b' i.e. Axillary nerve\n\nThe radial nerve runs in the spiral groove.", "B", 0.0),
    (DRUG, "Ans. is 'a' i.e., Ethosuximide\n\nOn reflection phenytoin is what the exam key wants.\n\nFinal: b", "A", 0.0),
]


@pytest.mark.parametrize(("prompt", "completion", "gold", "expected"), CHOICE)
def test_choice_key_labels_lists_and_no_option_finals(prompt, completion, gold, expected):
    assert ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores == [expected]


_OPTIONS = ["Thiamine", "Riboflavin", "Niacin", "Pyridoxine"]
_PROMPT = "Deficiency of which vitamin causes Wernicke encephalopathy?\n\n" + "\n".join(
    f"{letter}. {text}" for letter, text in zip("ABCD", _OPTIONS)) + "\n\nAnswer with the letter of the correct option."


@settings(max_examples=60, deadline=None)
@given(chosen=st.integers(0, 3), glossed=st.integers(0, 3), quote=st.sampled_from(["'{}'", "{}", "({})", "\"{}\""]),
       label=st.sampled_from(["Ans. is", "Ans is", "Ans:", "Ans.", "Answer is"]), upper=st.booleans(),
       gloss=st.sampled_from(["i.e., {}", "i.e. {}", "ie {}", "viz. {}"]))
def test_a_key_label_pays_only_its_own_options_text(chosen, glossed, quote, label, upper, gloss):
    """An answer key's label pays its letter exactly when its gloss is that option's own text, however the letter is
    quoted, cased and the label abbreviated; a gloss naming another option's text never pays either letter."""
    letter = "ABCD"[chosen]
    shown = quote.format(letter if upper else letter.lower())
    completion = f"{label} {shown} {gloss.format(_OPTIONS[glossed])}\n\nExplanation follows from the classic triad."
    reward = ChoiceAccuracy()
    scores = reward.evaluate([_PROMPT] * 2, [completion] * 2, answer=[letter, "ABCD"[glossed]]).scores
    if glossed == chosen:
        assert scores == [1.0, 1.0], completion
    else:
        assert scores == [0.0, 0.0], completion


@settings(max_examples=60, deadline=None)
@given(first=st.integers(0, 3), second=st.integers(0, 3), sep=st.sampled_from([", ", " and ", "/", " & "]),
       head=st.sampled_from(["Correct options:", "Answers:", "Correct answers are", "Options"]))
def test_lowercase_letters_listed_are_several_picks(first, second, sep, head):
    """Two different option letters listed in lower case at the end pay neither; one letter alone pays it."""
    a, b = "abcd"[first], "abcd"[second]
    reward = ChoiceAccuracy()
    golds = ["ABCD"[first], "ABCD"[second]]
    listed = reward.evaluate([_PROMPT] * 2, [f"Both are plausible here.\n\n{head} {a}{sep}{b}"] * 2, answer=golds).scores
    if first != second:
        assert listed == [0.0, 0.0]


@settings(max_examples=40, deadline=None)
@given(stated=st.integers(1, 999), boxed=st.integers(1, 999), form=st.sampled_from(
    ["**Answer: {s}**", "Final answer: {s}", "Answer: {s} cm", "### Answer: {s}"]),
    check=st.sampled_from(["Sanity check: $10 + 3 = \\boxed{{{b}}}$.", "Check on the other leg: $\\boxed{{{b}}}$, as expected."]))
def test_a_box_after_the_answer_line_never_pays_the_box_alone(stated, boxed, form, check):
    """After a committed answer line, a later box of another value pays neither value; a box that restates it pays.
    (A box in an aside that opens its line, "(\\boxed{5} was the value before ...)", is no final statement: the line
    before it is read, an older rule.)"""
    text = "Working through it step by step.\n\n" + form.format(s=stated) + "\n\n" + check.format(b=boxed)
    reward = MathAccuracy(timeout=10)
    scores = reward(completions=[text, text], answer=[str(stated), str(boxed)])
    if stated != boxed:
        assert scores == [0.0, 0.0], text
    else:
        assert scores[0] == 1.0, text
