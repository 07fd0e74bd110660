"""What ``holdout100`` (written blind: choice and math answers whose commitment is carried by structure -- per-option
probabilities, rankings, verdict tables, checklists, a final answer with an addendum, footnotes, ``<details>``, a
TL;DR, JSON with several keys) showed, tables of realistic output both ways:

* **a record's null answer field states no answer** (``records._walk``): ``{"answer": null, "candidates": ["C",
  "E"]}`` is the writer saying it has none, as ``"answer": ""`` is, whatever the rest of the record lists;
* **a key for a second answer beside the answer field is a second answer for math too**
  (``answer_forms.answer_fields_disagree``): ``{"answer": 56, "alternative": 336, "confidence": 0.5}`` keeps 336
  open (choice read it so since holdout57); ``"alternative": null`` offers nothing;
* **another value offered after the answer may carry its SI unit** (``clauses.offers_alternative``): ``Final answer:
  72 km/h`` then ``80 km/h is also a reasonable answer`` offers 80 as ``80 is also ...`` does.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

CARBON = ("Which element has atomic number 6?\nA. Oxygen\nB. Nitrogen\nC. Boron\nD. Helium\nE. Carbon")
carbon = scorer(ChoiceAccuracy, CARBON, gold="E")
BINOM = "Compute $\\binom{8}{3}$."
binom = scorer(MathAccuracy, BINOM, gold="56")
TRAIN = "A train travels 180 km in 2.5 hours. What is its average speed in km/h?"
train = scorer(MathAccuracy, TRAIN, gold="72")


@pytest.mark.parametrize("completion, paid", [
    # the answer field holds null: no answer, whatever else the record lists
    ('{\n  "answer": null,\n  "candidates": ["C", "E"],\n  "confidence": {"C": 0.5, "E": 0.5}\n}', 0.0),
    ('{"answer": null, "reasoning": "Carbon has 6 protons, so E.", "confidence": 0.9}', 0.0),
    ('```json\n{"final_answer": null, "shortlist": ["E", "C"]}\n```', 0.0),
    ('{"answer": null, "scores": {"A": 0.1, "B": 0.1, "C": 0.1, "D": 0.1, "E": 0.6}}', 0.0),
    # a record that answers
    ('{"reasoning": "Carbon has 6 protons; boron has 5.", "answer": "E", "alternative": null, "confidence": "high"}', 1.0),
    ('{"answer": "E", "confidence": 0.98}', 1.0),
    ('```json\n{"answer": "E", "note": null}\n```', 1.0),
    ('{"scores": {"A": 0.01, "B": 0.0, "C": 0.01, "D": 0.0, "E": 0.98}, "answer": "E"}', 1.0),
])
def test_a_null_answer_field_answers_nothing(completion, paid):
    assert carbon(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ('{"answer": 56, "alternative": 336, "confidence": {"56": 0.5, "336": 0.5}, "note": "depends on whether order matters"}', 0.0),
    ('{"answer": 56, "alternative": 336}', 0.0),
    ('```json\n{"answer": "56", "alt": "336", "confidence": 0.5}\n```', 0.0),
    ('{"answer": 56, "backup_answer": 28}', 0.0),
    ('{"answer": null, "candidates": [56, 336]}', 0.0),
    # one answer
    ('{"work": "8·7·6 / 3! = 336 / 6", "answer": 56, "alternative": null}', 1.0),
    ('{"answer": 56, "alternative": "none"}', 1.0),
    ('{"answer": 56, "confidence": 0.97}', 1.0),
    ('```json\n{"answer": "56", "check": "C(8,5) = 56 too"}\n```', 1.0),
    ('{"answer": 56, "alternative": 56}', 1.0),
])
def test_a_second_answer_key_beside_a_math_answer(completion, paid):
    assert binom(completion) == paid


INTERVAL = "Solve the inequality $3x - 7 > 2$. Express your answer in interval notation."


def test_an_alternative_interval_is_a_second_answer():
    ineq = scorer(MathAccuracy, INTERVAL, gold="(3,\\infty)")
    assert ineq('{"answer": "(3, \\\\infty)", "alternative": "[3, \\\\infty)", "confidence": 0.5}') == 0.0
    assert ineq('{"answer": "(3, \\\\infty)", "confidence": 0.95}') == 1.0


@given(a=st.integers(1, 10 ** 6), b=st.integers(1, 10 ** 6), key=st.sampled_from(["alternative", "alt", "backup", "fallback_answer", "second_choice"]))
@settings(max_examples=40, deadline=None)
def test_property_a_second_answer_key_never_pays(a, b, key):
    if a == b:
        return
    assert binom(json.dumps({"answer": a, key: b}), gold=str(a)) == 0.0
    assert binom(json.dumps({"answer": a, key: None}), gold=str(a)) == 1.0


@pytest.mark.parametrize("completion, paid", [
    ("Final answer: 72 km/h\n\n---\nErratum: the 2.5 h probably includes a stop, so the moving speed could be higher — "
     "80 km/h is also a reasonable answer.", 0.0),
    ("Final answer: 72 km/h. 80 km/h also works.", 0.0),
    ("The average speed is 72 km/h, though 75 km/h would also be acceptable.", 0.0),
    ("Final answer: 72 km/h. 80 km/h is still on the table.", 0.0),
    ("Final answer: 72 km/h\n\n80 is also a reasonable answer.", 0.0),
    # a value with its unit that is no offer
    ("Final answer: 72 km/h. (At 80 km/h the trip would take 2.25 h.)", 1.0),
    ("Final answer: 72 km/h\n\nA car at 80 km/h would also arrive sooner.", 1.0),
    ("Final answer: 72 km/h (that is 20 m/s).", 1.0),
    ("180 km ÷ 2.5 h = 72 km/h.", 1.0),
])
def test_another_value_offered_with_its_unit(completion, paid):
    assert train(completion) == paid


@given(a=st.integers(2, 900), b=st.integers(2, 900), unit=st.sampled_from(["km/h", "cm", "kg", "m/s", "mL", "km"]),
       offer=st.sampled_from(["is also a reasonable answer", "also works", "would also be acceptable", "is equally plausible"]))
@settings(max_examples=40, deadline=None)
def test_property_an_offer_after_a_unit_is_an_offer(a, b, unit, offer):
    if a == b:
        return
    score = scorer(MathAccuracy, "What is the quantity?", gold=str(a))
    assert score(f"Final answer: {a} {unit}. {b} {unit} {offer}.") == 0.0
    assert score(f"Final answer: {a} {unit}.") == 1.0


AUSTEN = "Who wrote 'Pride and Prejudice'?\nA. Jane Austen\nB. Charlotte Brontë\nC. Mary Shelley\nD. George Eliot"
austen = scorer(ChoiceAccuracy, AUSTEN, gold="A")
DONOR = "Which blood type is the universal donor for red blood cells?\nA. AB+\nB. O-\nC. A-\nD. B+\nE. O+"
donor = scorer(ChoiceAccuracy, DONOR, gold="B")
SIX_SEVENS = "What is 6 times 7?"
six_sevens = scorer(MathAccuracy, SIX_SEVENS, gold="42")


@pytest.mark.parametrize("completion, paid", [
    # another option named the speaker's answer after the final answer: an addendum that replaces it
    ("## Final answer\n\n**A**\n\n## Addendum\n\nOn reflection I'm mixing up the Brontë and Austen novels — please treat B "
     "as my answer instead.", 0.0),
    ("Final answer: A\n\nOn reflection, B is my answer instead.", 0.0),
    ("Final answer: A. Use B as my final answer.", 0.0),
    ("**Answer: A**\n\nP.S. Take C as my answer if the 1813 edition counts.", 0.0),
    # another option named, not as the speaker's answer now
    ("Final answer: A. B was my first answer, but Austen wrote it.", 1.0),
    ("Final answer: A. Earlier I wrote B as my answer by mistake.", 1.0),
    ("Final answer: A\n\nAddendum: B (Brontë) is a common confusion; my answer stays A.", 1.0),
    ("## Final answer\n\n**A — Jane Austen**\n\n## Addendum\n\nIt was published anonymously in 1813. Charlotte Brontë (B) "
     "wrote *Jane Eyre*, a common confusion.", 1.0),
])
def test_another_option_named_as_my_answer(completion, paid):
    assert austen(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("Answer: B¹\n\n¹ Retracted after re-reading the question — it says red cells *and* the Rh factor is irrelevant for "
     "plasma, so I now think E is what they want.", 0.0),
    ("Answer: B. I now think E is what the question is looking for.", 0.0),
    ("Answer: B[^1]\n\n[^1]: On second thought, E is what the examiner wants.", 0.0),
    # what they want *you* to pick is the distractor, not a second answer
    ("Answer: B. (E is what they want you to pick, but O+ carries the RhD antigen.)", 1.0),
    ("Answer: **B (O−)**¹\n\n¹ O+ (E) is the most common type but is not universal because it carries the RhD antigen.", 1.0),
])
def test_another_option_named_as_what_is_asked(completion, paid):
    assert donor(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("Final answer: 42\n\nPlease treat 45 as my answer instead.", 0.0),
    ("Final answer: 42\n\nOn reflection, 45 is my final answer.", 0.0),
    ("Answer: 42. On second thought 45 is what they are asking for.", 0.0),
    ("Final answer: 42. Earlier I wrote 45 as my answer by mistake.", 1.0),
    ("6 × 7 = 42. 42 is my final answer.", 1.0),
])
def test_another_value_named_as_my_answer(completion, paid):
    assert six_sevens(completion) == paid


@given(a=st.integers(1, 999), b=st.integers(1, 999), verb=st.sampled_from(["treat", "use", "take", "count"]),
       noun=st.sampled_from(["answer", "final answer", "choice"]))
@settings(max_examples=40, deadline=None)
def test_property_a_value_taken_as_my_answer_is_a_second_answer(a, b, verb, noun):
    if a == b:
        return
    assert six_sevens(f"Final answer: {a}. Please {verb} {b} as my {noun} instead.", gold=str(a)) == 0.0
    assert six_sevens(f"Final answer: {a}. Earlier I wrote {b} as my {noun} by mistake.", gold=str(a)) == 1.0


STARRY = "Who painted 'The Starry Night'?\nA. Vincent van Gogh\nB. Claude Monet\nC. Paul Cézanne\nD. Edvard Munch"
starry = scorer(ChoiceAccuracy, STARRY, gold="A")


@pytest.mark.parametrize("completion, paid", [
    # an edit note that declares the answer unchanged withdraws nothing
    ("Final answer: A (Vincent van Gogh, painted in June 1889 at Saint-Rémy).\n\nEdit: fixed a typo in the year; answer unchanged.", 1.0),
    ("Final answer: A.\n\nFixed a typo; the answer is unchanged.", 1.0),
    ("Final answer: A.\n\nEdit: corrected the date of the painting. This doesn't change the answer.", 1.0),
    ("Respuesta final: A.\n\nEdit: corregí una errata en el año; respuesta sin cambios.", 1.0),
    # a bare typo fix: the text shown is the edited one and the note names no other answer, so it withdraws nothing
    # (holdout_r38's reaffirmation rule; holdout100 first refused it as possibly an edit of the answer)
    ("Final answer: A.\n\nEdit: fixed a typo in the year.", 1.0),
    # an edit that names another option, or says the answer changed
    ("Final answer: A.\n\nEdit: fixed a typo — the answer is D; the reasoning is unchanged.", 0.0),
    ("Final answer: A.\n\nEdit: typo, I meant D. Answer unchanged? No.", 0.0),
])
def test_an_edit_that_leaves_the_answer_unchanged(completion, paid):
    assert starry(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("Final answer: 42.\n\nEdit: fixed a typo in the explanation; answer unchanged.", 1.0),
    ("Final answer: 42.\n\nEdit: fixed a typo. This does not change the answer.", 1.0),
    ("Final answer: 42.\n\nEdit: typo, it should be 45; answer unchanged otherwise.", 0.0),
    ("Final answer: 42.\n\nEdit: fixed a typo.", 1.0),  # a bare typo fix names no other value (holdout_r38)
])
def test_a_math_edit_that_leaves_the_answer_unchanged(completion, paid):
    assert six_sevens(completion) == paid


TYPE1 = ("Which of the following is a Type I error?\nA. Rejecting a true null hypothesis\nB. Failing to reject a false null "
         "hypothesis\nC. Accepting the alternative hypothesis when it is true\nD. Using a sample that is too small")
type1 = scorer(ChoiceAccuracy, TYPE1, gold="A")
SQRT = "Simplify $\\sqrt{20}$."
sqrt20 = scorer(MathAccuracy, SQRT, gold="2\\sqrt{5}")


@pytest.mark.parametrize("completion, paid", [
    # the answer behind a spoiler labelled as the answer, after work that states no answer
    ("Type I = false positive: you reject H₀ even though it is true. Type II = false negative.\n\n<details>\n"
     "<summary>Answer (click to reveal)</summary>\n\n**A**\n\n</details>", 1.0),
    ("Type I = false positive.\n\n<details><summary>Show answer</summary>A</details>", 1.0),
    ("Type I means rejecting H₀ when it holds.\n<details>\n<summary>**Final answer**</summary>\n\n(A)\n</details>", 1.0),
    # a body of two candidates, a visible answer beside another in the spoiler, a summary that is no answer label
    ("<details>\n<summary>Answer</summary>\n\nEither A or B — depends on the convention.\n\n</details>", 0.0),
    ("The answer is B.\n\n<details><summary>Answer</summary>A</details>", 0.0),
    ("Type I = false positive.\n\n<details><summary>hint</summary>A</details>\n\nNot sure which one, though.", 0.0),
])
def test_a_collapsed_answer_under_an_answer_label(completion, paid):
    assert type1(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("$20 = 4 \\cdot 5$ and $\\sqrt{4} = 2$.\n\n<details>\n<summary>Answer</summary>\n\n$2\\sqrt{5}$\n\n</details>", 1.0),
    ("$\\sqrt{20} = \\sqrt{4}\\sqrt{5}$\n\n<details><summary>Reveal answer</summary>$2\\sqrt{5}$</details>", 1.0),
    ("$\\sqrt{4} = 2$.\n\n<details><summary>Answer</summary>$4\\sqrt{5}$</details>", 0.0),
    ("$\\sqrt{4} = 2$.\n\n<details><summary>Answer</summary>$2\\sqrt{5}$ or $4\\sqrt{5}$</details>", 0.0),
])
def test_a_collapsed_math_answer(completion, paid):
    assert sqrt20(completion) == paid


@given(body=st.sampled_from(["$4\\sqrt{5}$", "$\\sqrt{20}$ maybe", "2 or 4", "5"]),
       label=st.sampled_from(["Answer", "Show answer", "Answer (spoiler)", "Final answer"]))
@settings(max_examples=20, deadline=None)
def test_property_a_collapsed_wrong_answer_is_never_paid(body, label):
    assert sqrt20(f"$\\sqrt{{4}} = 2$.\n\n<details><summary>{label}</summary>{body}</details>") == 0.0


FPRIME = "Let $f(x) = x^3 - 4x$. Find $f'(2)$."
fprime = scorer(MathAccuracy, FPRIME, gold="8")


@pytest.mark.parametrize("completion, paid", [
    # a one-line summary up front that states another value than the one concluded
    ("TL;DR: $f'(2) = 4$.\n\nBody: $f'(x) = 3x^2 - 4$, so $f'(2) = 12 - 4 = 8$. Keeping the TL;DR as my answer though.", 0.0),
    ("TL;DR: 4\n\nBody: f'(x) = 3x^2 - 4, so f'(2) = 12 - 4 = 8.", 0.0),
    ("Bottom line: 4.\n\nThe answer is \\boxed{8}.", 0.0),
    ("**Short answer:** 4\n\n$f'(x) = 3x^2 - 4$, so $f'(2) = 8$.", 0.0),
    ("Kurz gesagt: 4.\n\n$f'(2) = 3 \\cdot 4 - 4 = 8$", 0.0),
    # a summary that agrees, or states a method and no value
    ("TL;DR: 8\n\nBody: f'(x) = 3x^2 - 4, so f'(2) = 12 - 4 = 8.", 1.0),
    ("**Short answer:** 8.\n\nWork: 3(2)^2 - 4 = 8.", 1.0),
    ("TL;DR: plug x = 2 into the derivative.\n\nf'(2) = 3·4 - 4 = 8", 1.0),
    ("TL;DR: differentiate term by term (3 steps).\n\nf'(2) = 8", 1.0),
    ("$f'(x) = 3x^2 - 4 \\Rightarrow f'(2) = 3 \\cdot 4 - 4 = 8$.\n\n**TL;DR:** $f'(2) = 8$", 1.0),
])
def test_a_summary_up_front_that_states_another_value(completion, paid):
    assert fprime(completion) == paid


@given(a=st.integers(1, 999), b=st.integers(1, 999), label=st.sampled_from(["TL;DR", "TLDR", "Short answer", "Bottom line", "In short"]))
@settings(max_examples=40, deadline=None)
def test_property_a_summary_up_front_must_agree(a, b, label):
    score = scorer(MathAccuracy, "Compute the value.", gold=str(b))
    assert score(f"{label}: {b}.\n\nWorking it through, the result is {b}.") == 1.0
    if a != b:
        assert score(f"{label}: {a}.\n\nWorking it through, the result is {b}.") == 0.0


INVERSE = "If f(x) = 3x + 2, what is f^{-1}(11)?\nA. 3\nB. 35\nC. 11/3\nD. 9\nE. 1/35"
inverse = scorer(ChoiceAccuracy, INVERSE, gold="A")


@pytest.mark.parametrize("completion, gold, paid", [
    # two numbers of an option's text joined by their own mark: "(11) = 3" is no "11/3"
    ('Solve 3y + 2 = 11 → y = 3, so f^{-1}(11) = 3.\n\n```json\n{"final_answer": "A", "check": "f(3) = 11 ✓"}\n```', "A", 1.0),
    ("Solve 3y + 2 = 11, so f^{-1}(11) = 3.\n\n```json\n{\"answer\": \"A\"}\n```", "A", 1.0),
    # the fraction itself still names its option, as a slash, a \frac or with spaces
    ("The answer is 11/3.", "C", 1.0),
    ("It is $\\frac{11}{3}$.", "C", 1.0),
    ("$11 / 3$", "C", 1.0),
    # the prose naming another option's text beside a fenced record is still two answers
    ("So f^{-1}(11) = 11/3.\n\n```json\n{\"answer\": \"A\"}\n```", "A", 0.0),
])
def test_an_option_text_of_two_numbers_joined_by_a_mark(completion, gold, paid):
    assert inverse(completion, gold=gold) == paid


@given(a=st.integers(10, 99), b=st.integers(2, 99), glue=st.sampled_from([") = ", "), ", " + ", " → ", "] = "]))
@settings(max_examples=40, deadline=None)
def test_property_two_numbers_apart_name_no_fraction_option(a, b, glue):
    from polyreward.verifiers.option_checks import option_mentions
    assert not list(option_mentions(f"so g({a}{glue}{b}.", f"{a}/{b}", across_markup=True))
    assert list(option_mentions(f"so it is {a}/{b}.", f"{a}/{b}", across_markup=True))
