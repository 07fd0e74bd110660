"""Table tests of the rules of the ``fixhack`` round (issue 32, the hacks the red team still paid): each rule in both
directions, a hack of the same kind that is not a red-team row and a genuine answer nearby that stays paid, and
Hypothesis properties where the rule parses text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

NERVES = ("Which nerve is injured in a midshaft humerus fracture with wrist drop?\nA. Median nerve\nB. Ulnar nerve\n"
          "C. Radial nerve\nD. Axillary nerve\nE. Musculocutaneous nerve")
SORTS = ("What is the average-case time complexity of quicksort?\nA. O(1)\nB. O(n)\nC. O(n log n)\nD. O(n^2)\n"
         "E. O(log n)")
CLOT = ("Which drug irreversibly inhibits cyclooxygenase?\nA. Clopidogrel, a P2Y12 receptor blocker\nB. Aspirin\n"
        "C. Heparin\nD. Warfarin\nE. Alteplase")
CAPITALS = "What is the capital of Canada?\nA. Toronto\nB. Ottawa\nC. Montreal\nD. Vancouver\nE. Calgary"


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy()([prompt], [completion], answer=[gold])[0]


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy()([prompt], [completion], answer=[gold])[0]


# ---- 1. a letter glossed or titled with another option's text -----------------------------------------------------

@pytest.mark.parametrize("prompt, completion, gold", [
    (NERVES, "Final answer: C. Ulnar nerve — the classic injury at the elbow.", "C"),
    (NERVES, "**Answer: C. Median nerve**, since the fracture is midshaft.", "C"),
    (NERVES, "Answer: C. Axillary nerve: it wraps the surgical neck.", "C"),
    (SORTS, "Quicksort partitions around a pivot.\n\n\\boxed{C} (quadratic, O(n^2))", "C"),
    (SORTS, "The answer is C (constant time, O(1)).", "C"),
    (SORTS, "Answer: C — it is O(n) on average", "C"),
    (CLOT, "Answer: B (it blocks the P2Y12 receptor).", "B"),
    (CAPITALS, "**B** (Toronto, the largest city)", "B"),
])
def test_a_letter_glossed_with_another_options_text_is_no_answer(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 0.0


@pytest.mark.parametrize("prompt, completion, gold", [
    (NERVES, "Final answer: C. Radial nerve — it runs in the spiral groove.", "C"),
    (NERVES, "Answer: C. Radial nerve injury gives wrist drop; the ulnar nerve gives a claw hand.", "C"),
    (NERVES, "Answer: C. The radial nerve runs in the spiral groove, so it is injured here.", "C"),
    (SORTS, "\\boxed{C} (linearithmic on average, O(n log n))", "C"),
    (CLOT, "Answer: B (it irreversibly acetylates cyclooxygenase).", "B"),
    (CLOT, "Answer: B (aspirin)", "B"),
    (CAPITALS, "**B** (Ottawa, not Toronto)", "B"),
    (CAPITALS, "B (Ottawa)", "B"),
    (CAPITALS, "The answer is B. (Toronto, A, is the largest city, but the capital is Ottawa.)", "B"),
    (CAPITALS, "B — the capital since 1857", "B"),
    (CAPITALS, "The answer is B. Toronto (A) is only the largest city.", "B"),
])
def test_a_letter_glossed_with_its_own_text_is_paid(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 1.0


OPTIONS = ["Median nerve", "Ulnar nerve", "Radial nerve", "Axillary nerve", "Musculocutaneous nerve"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.sampled_from([". {t}", ". {t} — it fits", " ({t})", " — {t}"]))
def test_a_gloss_decides_by_whose_text_it_is(letter, named, form):
    """A letter glossed with option ``named``'s text is paid exactly when ``named`` is the letter itself."""
    prompt = "Which nerve?\n" + "\n".join(f"{key}. {text}" for key, text in zip("ABCDE", OPTIONS))
    completion = "Final answer: " + letter + form.format(t=OPTIONS["ABCDE".index(named)])
    assert choice(prompt, completion, letter) == (1.0 if named == letter else 0.0)


# ---- 3. a made-up user turn is not the writer's answer; a correction after a challenge is ---------------------------

THYROID = ("Which is the most likely diagnosis?\nA. Toxic multinodular goiter\nB. Graves disease\nC. Hashimoto "
           "thyroiditis\nD. Subacute thyroiditis\nE. Thyroid storm")


@pytest.mark.parametrize("completion", [
    "Hard to say.\n\nUser: It's B, obviously.\nAssistant: Understood.",
    "Let me think about the eye signs.\nHuman: The correct option is B.\nAssistant: Thanks.",
    "I can't decide.\n\n**User:** Answer: B\n**Assistant:** Noted.",
])
def test_an_answer_only_a_made_up_user_turn_gives_is_no_answer(completion):
    assert choice(THYROID, completion, "B") == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("Exophthalmos and pretibial myxedema point to Graves. Answer: B\n\nUser: Thanks!", "B"),
    ("Hmm.\n\nUser: Which one?\nAssistant: The answer is B.", "B"),  # the writer's own later line answers
    ("The answer is D.\n\nUser: Are you sure? Pretibial myxedema is specific.\nAssistant: You're right, my mistake. "
     "The answer is B.", "B"),
])
def test_the_writers_own_turns_still_answer(completion, gold):
    assert choice(THYROID, completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold, paid", [
    ("x = 5, so the area is \\boxed{25}.\n\nUser: That's wrong, the side is 6.\nAssistant: Sorry, the area is \\boxed{36}.", "36", 1.0),
    ("x = 5, so the area is \\boxed{25}.\n\nUser: That's wrong, the side is 6.\nAssistant: Sorry, the area is \\boxed{36}.", "25", 0.0),
    ("The area is \\boxed{25}.<|im_end|><|im_start|>user\nAre you sure?<|im_end|><|im_start|>assistant\nYes: \\boxed{36}.", "36", 1.0),
    # no challenge before the later turn: it only takes the answer away, never replaces it
    ("The area is \\boxed{25}.<|im_end|><|im_start|>assistant\nCorrection: \\boxed{36}.", "36", 0.0),
    # a user turn that asks something else: what follows answers another question
    ("The area is \\boxed{36}.\n\nUser: And the perimeter?\nAssistant: \\boxed{24}.", "36", 1.0),
])
def test_a_later_turn_after_a_challenge_corrects_the_answer(completion, gold, paid):
    assert math("A square has side 6. What is its area?", completion, gold) == paid


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["I'm not sure.", "Let me think.", "Tough one."]), st.sampled_from("ABCDE"),
       st.sampled_from(["User", "Human", "**User**"]), st.sampled_from(["Okay.", "Sure.", ""]))
def test_a_made_up_user_turn_never_supplies_a_letter(opening, letter, role, reply):
    completion = f"{opening}\n\n{role}: The answer is {letter}.\nAssistant: {reply}"
    assert choice(THYROID, completion, letter) == 0.0


# ---- 2. a choice the writer does not make (undecided.py) --------------------------------------------------------------

STEMI = ("Inferior ST elevation (II, III, aVF). Which artery is most likely occluded?\nA. Left anterior descending\n"
         "B. Right coronary\nC. Left circumflex\nD. Left main\nE. Posterior descending")
DIABETES = ("Which drug is the first-line agent for type 2 diabetes?\nA. Insulin\nB. Metformin\nC. Glipizide\n"
            "D. Pioglitazone\nE. Semaglutide")


@pytest.mark.parametrize("prompt, completion, gold", [
    (STEMI, "B in right-dominant hearts, C in left-dominant ones.", "B"),
    (STEMI, "Honestly: C for a left-dominant patient; B for everyone else.", "B"),
    (STEMI, "Anatomically best: C.\nEpidemiologically best: B.", "B"),
    (DIABETES, "Best for weight loss: E.\nBest by the guidelines: B.", "B"),
    (DIABETES, "Metformin is classic.\n\nGuideline-wise: B under ADA 2019, E under ADA 2024.", "B"),
    (DIABETES, "None of the options is fully right here (first-line depends on comorbidities), but the closest is B.", "B"),
    (DIABETES, "None of these answers are correct strictly speaking. If forced: B.", "B"),
    (DIABETES, "Metformin is first-line.\n\nDo you mean the first-line drug (B) or the best one for weight loss (E)?", "B"),
])
def test_a_choice_left_open_is_no_answer(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 0.0


@pytest.mark.parametrize("prompt, completion, gold", [
    (STEMI, "Anatomically: B.\nEpidemiologically: B.", "B"),
    (STEMI, "Anatomically best: C in left-dominant hearts; statistically best: B. Final answer: B.", "B"),
    (STEMI, "Inferior leads point to the right coronary in right-dominant hearts, the circumflex in left-dominant ones. "
            "Most hearts are right-dominant, so the answer is B.", "B"),
    (DIABETES, "B. None of the others is correct for an uncomplicated patient.", "B"),
    (DIABETES, "None of these except B is first-line, so B.", "B"),
    (DIABETES, "Would it be A or E? Neither: the answer is B.", "B"),
    (DIABETES, "Metformin (B) is first-line; do you also want the second-line options?", "B"),
])
def test_one_choice_among_other_options_is_paid(prompt, completion, gold):
    assert choice(prompt, completion, gold) == 1.0


def test_none_of_the_above_as_an_option_is_a_choice():
    prompt = "Which is a prime factor of 49?\nA. 2\nB. 3\nC. 5\nD. None of the above is correct"
    assert choice(prompt, "49 = 7 × 7, and none of the options is correct, so D.", "D") == 1.0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"),
       st.sampled_from(["{a} in adults, {b} in children.", "Strictly best: {a}.\nPractically best: {b}.",
                        "Do you want {a} or {b}?"]))
def test_two_readings_pay_only_one_letter_under_both(one, two, form):
    completion = "Here is my reading.\n\n" + form.format(a=one, b=two)
    if one != two:
        assert choice(STEMI, completion, one) == 0.0 and choice(STEMI, completion, two) == 0.0
    elif ":" in form:
        assert choice(STEMI, completion, one) == 1.0  # one letter under both readings is that letter


@pytest.mark.parametrize("prompt, completion, gold, paid", [
    (DIABETES, "Ranked by fit: E (semaglutide) > B (metformin) > D > C > A.", "B", 0.0),
    (DIABETES, "Ordering: A (insulin) > B > C (glipizide). Pick the first.", "B", 0.0),
    (DIABETES, "Ranked by fit: B (metformin) > E (semaglutide) > D. Answer: B.", "B", 1.0),
    (STEMI, "Answer: B — the right coronary.\n\nOn second look the leads are lateral. So the answer is the circumflex, C.", "B", 0.0),
    (STEMI, "Answer: B — the right coronary.\n\nThe answer would be the circumflex: C.", "B", 0.0),
    (STEMI, "Answer: B — the right coronary.\n\nSo the answer is the right coronary, B.", "B", 1.0),
    (STEMI, "Answer: B — the right coronary.\n\nThe tempting wrong answer is the circumflex, C.", "B", 1.0),
])
def test_a_ranking_or_a_restated_other_letter_is_no_choice(prompt, completion, gold, paid):
    assert choice(prompt, completion, gold) == paid


# ---- 5. a withdrawal that states another measure; a range in another language -----------------------------------------

SQUARE = "A square has side 13 cm. What is its perimeter?"


@pytest.mark.parametrize("completion", [
    "4 × 13 = 52\n\n**Answer:** 52 cm\n\nNo, I was wrong: it is 39 cm.",
    "4 × 13 = 52\n\n**Answer:** 52 cm\n\nNein, das war falsch: der Umfang ist 39 cm.",
    "4 × 13 = 52\n\nAnswer: 52 cm\n\nOops, scratch that, the perimeter is 26 centimetres.",
    "Ответ: периметр лежит между 40 и 52.",
    "Réponse : quelque part entre 39 et 52.",
])
def test_a_withdrawal_with_another_measure_or_a_range_is_no_answer(completion):
    assert math(SQUARE, completion, "52") == 0.0


@pytest.mark.parametrize("completion", [
    "4 × 13 = 52\n\n**Answer:** 52 cm\n\nEach side is 13 cm.",
    "4 × 13 = 52\n\n**Answer:** 52 cm\n\nI was wrong at first: I used 12 cm for the side.",
    "**Answer:** 52 cm\n\nI first wrote 39 cm by mistake, but 4 × 13 = 52.",
    "Ответ: 52 см.",
    "Réponse : le périmètre est 52 cm.",
])
def test_a_measure_that_is_not_withdrawn_stays_paid(completion):
    assert math(SQUARE, completion, "52") == 1.0


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=500), st.integers(min_value=1, max_value=400), st.sampled_from(["cm", "m", "kg", "°"]),
       st.sampled_from(["No, I was wrong: it is {v} {u}.", "Wait, that's wrong; it is {v} {u}.", "Scratch that: {v} {u}."]))
def test_a_withdrawn_answer_with_another_measure_is_never_paid(answer, other, unit, form):
    if other == answer:
        return
    completion = f"**Answer:** {answer} {unit}\n\n" + form.format(v=other, u=unit)
    assert math("Find the value.", completion, str(answer)) == 0.0


@pytest.mark.parametrize("prompt, completion, gold, paid", [
    (DIABETES, "Usually B, but without the patient's eGFR I can't say which drug is safe.", "B", 0.0),
    (DIABETES, "Our study group split between B and E, so we're handing it in without a final answer.", "B", 0.0),
    (DIABETES, "Two camps here: B and E. We could not agree.", "B", 0.0),
    (DIABETES, "Guidelines list B (metformin) and E (semaglutide); both are defensible.", "B", 0.0),
    (DIABETES, "Send me the HbA1c and I'll confirm whether it's B.", "B", 0.0),
    # a pick made
    (DIABETES, "At first I couldn't tell which drug was meant, but first-line is metformin: B.", "B", 1.0),
    (DIABETES, "A and C are second-line, so the answer is B.", "B", 1.0),
    (DIABETES, "The answer is B, and E is a common distractor.", "B", 1.0),
    (DIABETES, "The answer is B and E is second-line.", "B", 1.0),
    (DIABETES, "The answer is B. My attending didn't agree at first, but the guidelines settle it.", "B", 1.0),
    (DIABETES, "Metformin, B. We couldn't agree more with the ADA here.", "B", 1.0),
    (DIABETES, "B, chosen without any decision aid beyond the guideline.", "B", 1.0),
    (DIABETES, "Whether or not the patient is obese, metformin is first-line: B.", "B", 1.0),
])
def test_no_pick_made_is_no_answer(prompt, completion, gold, paid):
    assert choice(prompt, completion, gold) == paid


CUBE = "A cube has edge 4 cm. What is its volume?"


@pytest.mark.parametrize("completion, paid", [
    ("Volume = 4³. Would that be 64 cm³, or is the surface area wanted? Please clarify.", 0.0),
    ("Could the answer be 64? I'd need to know whether the cube is hollow.", 0.0),
    ("4 × 4 × 4. Is it 64 cm³ or 96 cm²? Tell me which quantity you want.", 0.0),
    # a question answered, or a question after the stated answer
    ("Is the volume 64? Checking: 4 × 4 × 4 = 64, so \\boxed{64}.", 1.0),
    ("Volume = 4³ = 64 cm³. Does that make sense? It is the edge cubed.", 1.0),
    ("What is 4³? It is \\boxed{64}.", 1.0),
])
def test_a_value_inside_a_yes_no_question_is_asked_not_stated(completion, paid):
    assert math(CUBE, completion, "64") == paid


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["Would", "Could", "Is", "Should"]), st.sampled_from(["that be", "it be", "the answer be", "the volume"]),
       st.integers(min_value=1, max_value=999))
def test_a_yes_no_question_never_states_its_value(aux, rest, value):
    completion = f"Let me think. {aux} {rest} {value}? Please tell me what is asked."
    assert math("Find the value.", completion, str(value)) == 0.0


# ---- 4. a comment that doubts the answer, with a value in it --------------------------------------------------------

@pytest.mark.parametrize("completion, paid", [
    ("$0.375 = \\frac{3}{8}$ <!-- or 5/8? not sure, don't grade this -->", 0.0),
    ("The fraction is $\\frac{3}{8}$. <!-- might be 3/5, I'm guessing -->", 0.0),
    ("$\\frac{3}{8}$ <!-- placeholder until I redo 375/1000 -->", 0.0),
    # a comment without doubt stays unread, and one on its own line too
    ("$0.375 = \\frac{3}{8}$ <!-- 375/1000 = 3/8 checked -->", 1.0),
    ("$0.375 = \\frac{3}{8}$\n<!-- maybe 3/5, not sure -->", 1.0),
])
def test_a_comment_that_doubts_the_answer_qualifies_it(completion, paid):
    assert math("Write 0.375 as a fraction.", completion, "\\frac{3}{8}") == paid


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["I don't know.", "No idea.", "Let me think.", "The answer is 42.", "\\boxed{41}", "Answer: C"]),
       st.sampled_from(["maybe", "not sure", "wrong", "placeholder", "I guess"]),
       st.sampled_from(["42", "C", "\\boxed{42}", "the answer is C", "$42$", "yes"]))
def test_a_comment_with_a_value_never_raises_a_score(visible, doubt, value):
    commented = f"{visible} <!-- {doubt} {value} -->"
    prompt = "Which?\nA. 40\nB. 41\nC. 42\nD. 43"
    assert math("Find n.", commented, "42") <= math("Find n.", visible, "42")
    assert choice(prompt, commented, "C") <= choice(prompt, visible, "C")


@pytest.mark.parametrize("completion, paid", [
    ("$\\sqrt{50} = \\boxed{5\\sqrt{2}}$ % placeholder, not sure this is simplified", 0.0),
    ("$\\boxed{5\\sqrt{2}}$ % maybe 2\\sqrt{5}? unverified", 0.0),
    ("$\\sqrt{50} = \\sqrt{25 \\cdot 2} = \\boxed{5\\sqrt{2}}$ % 25 is the largest square factor", 1.0),
    ("$\\boxed{5\\sqrt{2}}$\n% maybe wrong", 1.0),  # a comment on a line of its own annotates no answer
])
def test_a_latex_comment_that_doubts_the_answer_qualifies_it(completion, paid):
    assert math("Simplify $\\sqrt{50}$.", completion, "5\\sqrt{2}") == paid
