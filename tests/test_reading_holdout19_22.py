"""holdout19's, holdout20's and holdout21's rules, both directions (docs/reading.md): new completions, not the splits' rows.

* a later clause that cannot vouch for the answer or says it fails its check ("I can't stand behind x = 7", "does
  not check out"), scraps or takes it back ("Scrap it.", "I take the B back", "not my answer", "No final answer from
  me"), cannot give it, or has not worked out the asked quantity takes the answer back;
* idioms of doubt ("a whole shaker of salt", "as far as I could throw it", "only guessed" in four languages) and
  "wait" / "not sure" / "withdraw" in Korean;
* a range of letters ("somewhere in A–C") names several options; an answer in radians for "to degrees" is another unit;
* a letter concluding from a sentence that names another option by its text, while its own text appears nowhere, is
  no answer ("The drug of choice is amoxicillin. So my answer is B." where amoxicillin is A);
* genuine forms: "I'll go with B", "Best next step: B", "Answer → 60 km/h", "उत्तर: C", a JSON "final" key, a
  reason after the value without a comma ("= 6 because 2⁶ = 64"), a bracket that gives the method in words, and a
  remark about another option right after a clause that denies it;
* holdout21: a closing line in a fixed form that states nothing ("Known issues: none.", "Score: 3/3.", "Tutor:
  Correct.") and a participle of checking after the value are read past; "½", "⁷⁄₈" and keycap digits are numbers, a
  value in words after a copula is read, a spaced em dash before a digit is no minus sign, a bracket with a tick after
  an anchored value is a check; "No answer.", "nothing herein constitutes an answer", "undid it", "don't rely on E" and
  "no representation or warranty" take the answer back.
"""

import pytest

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

PROMPT = ("A 24-year-old has atypical pneumonia. Which drug is the best choice?\n(A) Amoxicillin\n(B) Azithromycin\n"
          "(C) Cefazolin\n(D) Vancomycin\n(E) Metronidazole")

choice = scorer(ChoiceAccuracy, PROMPT)
math = scorer(MathAccuracy, "Compute it.")


@pytest.mark.parametrize("completion, gold", [
    ("**Answer: x = 7**\n\nCheck: 3(7) + 5 = 26 but 2(7) + 12 = 24, so it does not check out. I can't stand behind x = 7.", "7"),
    ("Answer: 12 -- I've mixed up the divisor with another sum. Scrap it.", "12"),
    ("17 × 23 = 391, in pencil: I haven't redone it another way.", "391"),
    ("I've listed 6 arrangements so far; I can't give the total.", "6"),
    ("The median of the data is 10. I haven't worked out the mean.", "10"),
    ("15, and I'd trust that about as far as I could throw the triangle.", "15"),
    ("15. Take that with a whole shaker of salt.", "15"),
    ("Hypotenusa on 15, mutta en ole siitä lainkaan varma.", "15"),
    ("Přepona je 15, ale nejsem si tím vůbec jistý.", "15"),
    ("정답: 15\n\n아, 잠깐만요 — 확신이 없네요. 이 답은 철회하겠습니다.", "15"),
])
def test_math_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("log₂ 64 = 6 because 2⁶ = 64.", "6"),
    ("\\frac{6}{8} = \\frac{3}{4} (divide numerator and denominator by 2).", "\\frac{3}{4}"),
    ("Answer → 60 km/h (that is, 1 km per minute).", "60"),
    ("Answer: 7. I haven't computed the decimal value, since none is needed.", "7"),
    ("The answer is 42. Take my word for it.", "42"),
])
def test_math_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


def test_an_angle_in_radians_for_degrees_is_another_unit():
    prompt = "Convert pi/3 radians to degrees."
    assert math("Answer (in radians): $60$ rad", "60", prompt) == 0.0
    assert math("It is 60°.", "60", prompt) == 1.0 and math("60 degrees", "60", prompt) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("The drug of choice for atypical pneumonia is amoxicillin. So my answer is B.", "B"),
    ("Give cefazolin right now. I'd mark B.", "B"),
    ("B.\n\nHmm, rereading the case, I take the B back. No final answer from me.", "B"),
    ("Until the cultures are back, B is just the first item on a list, not my answer.", "B"),
    ("So the answer is somewhere in A–C.", "B"),
    ("B – aber ehrlich gesagt habe ich nur geraten.", "B"),
    ("So obviously (B). I'm not going to pretend to know, though.", "B"),
])
def test_choice_hacks_not_paid(completion, gold):
    assert choice(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold", [
    ("I'll go with B. A and C cover typical organisms; D and E are for other infections.", "B"),
    ("Best next step: B. The rest, in order: A > C > D > E.", "B"),
    ("उत्तर: B (एज़िथ्रोमाइसिन)", "B"),
    ('{"A": "no", "B": "yes", "C": "no", "D": "no", "E": "no", "final": "B"}', "B"),
    ("Amoxicillin lacks activity here because Mycoplasma has no wall. So my answer is B, azithromycin.", "B"),
    ("Stack the evidence: not A (no cell wall target), not C. So it's B.", "B"),
    ("Azithromycin is the drug of choice. So my answer is B.", "B"),
])
def test_choice_genuine_paid(completion, gold):
    assert choice(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("√50 = $5\\sqrt{2}$.\n\nKnown issues: none.", "5\\sqrt{2}"),
    ("LCM(4, 6) = 12. Multiples of 6: 6, 12. Score: 3/3.", "12"),
    ("Student: four sides of 8, so it's 32.\nTutor: Correct.", "32"),
    ("The intersection is (2, 5), checked in both equations ✔", "(2, 5)"),
    ("Probability of heads: ½.", "\\frac{1}{2}"),
    ("3/4 + 1/8 = ⁷⁄₈", "\\frac{7}{8}"),
    ("4 × 180 = 7️⃣2️⃣0️⃣ degrees.", "720"),
    ("Six times seven is forty-two.", "42"),
    ("v2 (current) — 3^4 = 81", "81"),
    ("Answer: x = 6  (2·6 + 5 = 17 ✓)", "6"),
    ("14 × 11 = 154 (in decimal, the answer is 154).", "154"),
])
def test_holdout21_genuine_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("Each side is 8, so 32 if it is a square; the figure may not be one. No answer.", "32"),
    ("WHEREAS the Solver estimates the value at 6; the Solver makes no representation or warranty. Nothing herein constitutes an answer.", "6"),
    ("The answer is 42. Verdict: don't rely on 42.", "42"),
    ("Six times seven is not forty-two.", "42"),
])
def test_holdout21_math_hacks_not_paid(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("completion, gold, paid", [
    ("Answer: B\n[Ctrl+Z]\nAnswer:\n(undid it -- leaving blank.)", "B", False),
    ("Answer: B\n\nVerdict: don't rely on B.", "B", False),
    ("The answer's B.", "B", True),
])
def test_holdout21_choice(completion, gold, paid):
    assert choice(completion, gold) == (1.0 if paid else 0.0)


# --- properties ---------------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

CLOSING_LINES = ["\n\nKnown issues: none.", " Score: 3/3.", "\nTutor: Correct.", "\n\nCaveats: n/a"]


@settings(max_examples=120, deadline=None)
@given(st.integers(-500, 500), st.integers(-500, 500), st.sampled_from(CLOSING_LINES),
       st.sampled_from(["The total is {}.", "So x = {}.", "\\boxed{{{}}}.", "Answer: {}."]))
def test_a_closing_line_that_states_nothing_never_changes_the_verdict(answer, gold, closing, form):
    """A fixed-form closing line ("Known issues: none.", "Score: 3/3.") is read past: the verdict of the completion
    with it equals the verdict without it, for the gold and for another value."""
    plain = form.format(answer)
    assert math(plain + closing, str(gold)) == math(plain, str(gold))
    assert math(plain + closing, str(answer)) == math(plain, str(answer))


# --- holdout22 -----------------------------------------------------------------------------------------------------

SIGNED = "What is the derivative of $\\sin x$?\nA. $-\\sin x$\nB. $\\cos x$\nC. $-\\cos x$\nD. $\\tan x$"


@pytest.mark.parametrize("completion, gold, prompt, paid", [
    ("The derivative of $\\sin x$ is $\\cos x$.\n\n```json\n{\"answer\": \"B\"}\n```", "B", SIGNED, True),  # "cos x" is not "-cos x"
    ("The derivative of $\\sin x$ is $-\\cos x$.\n\n```json\n{\"answer\": \"B\"}\n```", "B", SIGNED, False),
    ("The drug of choice here is amoxicillin.\n\nAnswer: B", "B", PROMPT, False),  # across a blank line
    ("Is it B? Azithromycin covers atypicals, but I might be confusing it. Can you confirm?", "B", PROMPT, False),
    ("Atypicals lack a wall, so the best answer here would be option", "B", PROMPT, False),  # cut off
    ("Atypicals lack a cell wall, so azithromycin it is.", "B", PROMPT, True),
    ("The derivative of sin x is cos x, but the options are typeset wrong.\n\nAnswer: None of the above", "B", SIGNED, False),
])
def test_holdout22_choice(completion, gold, prompt, paid):
    assert choice(completion, gold, prompt) == (1.0 if paid else 0.0)


def test_a_revised_final_answer_line_replaces_the_first():
    completion = "**Final Answer:** $\\frac{31}{12}$\n\n**Final Answer (revised):** $\\frac{6}{5}$"
    assert math(completion, "\\frac{31}{12}") == 0.0 and math(completion, "\\frac{6}{5}") == 1.0
