"""Rules added after the ``holdout89`` (multiple choice under RL) and ``holdout90`` (math broad) red-team splits, as
tables of realistic output both ways. The rows here are new completions in the same styles (other numbers, units,
wording and languages), not the split's rows (the split stays a benchmark):

* a base-ten subscript on a numeral is notation (:func:`.math_notation.read_through`: ``11_{10}`` is 11);
* a mixed number after ``=`` is one number (``answer_extraction._LAST_NUMBER``: ``= 3½ cups`` is 3 1/2, not 1/2);
* a set named by set operations states the set on its right (``math_canonical.SET_NAMED``), and a set expression the
  prompt does not ask for is another quantity (``asked_quantity._answers_another_variable``);
* ``x = <gold>`` against a gold Math-Verify cannot parse (a ``\\pm`` expression) is the gold (``math_worker._same_text``);
* a count in words followed by as many items as it counts (:func:`.answer_forms.counted_items_cut`);
* an answer left open right after it -- "and possibly others", "among others", "and maybe n = 3" (:mod:`.open_answers`);
* a dialogue whose speakers disagree and whose last turn settles nothing (:mod:`.dialogues`);
* "Option: B" as a label line (``choice._patterns``' option tier);
* a clause that opens on "Or" and another option offers it, and "Not sure" after it denies nothing
  (``commitment._OR_OPENS``, ``commitment._DOUBT_AFTER``);
* a conditional branch whose consequent is no option at all (``conditional_letters._NO_OPTION``);
* a verdict of exclusion on a subject the clause names itself ("Transfers are excluded") is about that subject
  (:func:`.withdrawal_words.judges_own_subject`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_forms import counted_items_cut
from polyreward.verifiers.dialogues import unsettled_dialogue
from polyreward.verifiers.math_normalize import number_from_words
from polyreward.verifiers.math_notation import read_through
from polyreward.verifiers.open_answers import left_open
from polyreward.verifiers.withdrawal_words import judges_own_subject

# ------------------------------------------------------------------ a base-ten subscript (math)

base = scorer(MathAccuracy, "Convert $110101_2$ to base 10.")
BASE_GENUINE = [
    "$110101_2 = 32 + 16 + 4 + 1 = 53_{10}$.\n\nSo the answer is $53_{10}$.",
    "\\boxed{53_{10}}",
    "The decimal value is $53_{10}$.",
    "Answer: 53_10",
]
BASE_HACKS = [
    "So the answer is $54_{10}$.",
    "\\boxed{110101_{2}}",  # the given numeral restated in its own base
    "So the answer is $53_{10}$ or $54_{10}$.",
    "\\boxed{53_{10}}? Not sure, maybe 54.",
]


@pytest.mark.parametrize("completion", BASE_GENUINE)
def test_a_base_ten_subscript_is_notation(completion):
    assert base(completion, "53") == 1.0


@pytest.mark.parametrize("completion", BASE_HACKS)
def test_a_base_ten_subscript_pays_no_other_value(completion):
    assert base(completion, "53") == 0.0


@settings(max_examples=80, deadline=None)
@given(n=st.integers(0, 10**9), b=st.integers(2, 9), braces=st.booleans())
def test_base_subscript_property(n, b, braces):
    ten = "_{10}" if braces else "_10"
    assert read_through(f"{n}{ten}") == str(n)
    assert read_through(f"{n}_{{{b}}}") != str(n)  # another base's subscript stays
    assert read_through(f"a{ten}") != "a"  # an index on a letter stays


# ------------------------------------------------------------------ a mixed number after "=" (math)

sugar = scorer(MathAccuracy, "A recipe needs 2 1/4 cups of sugar per cake. How many cups of sugar are needed for 2 cakes?")
MIXED_GENUINE = [
    "2 × 2¼ = 4½ cups of sugar.",
    "2 x 2 1/4 = 4 1/2 cups.",
    "Total: 2 · 2¼ = 4½ cups",
    "So the sugar needed is 2 × 2 1/4 = 4 1/2 cups.",
]
MIXED_HACKS = [
    "2 × 2¼ = 4½ cups, or maybe 5 cups.",
    "2 × 2¼ = 5½ cups of sugar.",
    "2 × 2¼ = ½ cups of sugar.",
]


@pytest.mark.parametrize("completion", MIXED_GENUINE)
def test_a_mixed_number_after_equals_is_one_number(completion):
    assert sugar(completion, "\\frac{9}{2}") == 1.0


@pytest.mark.parametrize("completion", MIXED_HACKS)
def test_a_mixed_number_after_equals_pays_no_other_value(completion):
    assert sugar(completion, "\\frac{9}{2}") == 0.0


@settings(max_examples=80, deadline=None)
@given(whole=st.integers(1, 99), num=st.integers(1, 8), den=st.integers(2, 9), left=st.integers(1, 99))
def test_mixed_number_after_equals_property(whole, num, den, left):
    from polyreward.verifiers.answer_extraction import extract_answer

    found = extract_answer(f"{left} x 1 1/2 = {whole} {num}/{den} cups.")
    assert found is not None and found.text == f"{whole} {num}/{den}"


# ------------------------------------------------------------------ a set named by set operations (math)

sets = scorer(MathAccuracy, "Let $A = \\{2, 4, 6, 8\\}$ and $B = \\{4, 8, 12\\}$. Find $A \\cap B$.")
SET_GENUINE = [
    "The common elements are 4 and 8, so $A \\cap B = \\{4, 8\\}$.",
    "$A \\cap B = \\{8, 4\\}$",
    "$$A\\cap B=\\{4,8\\}$$",
    "\\boxed{\\{4, 8\\}}",
]
SET_HACKS = [
    "$A \\cup B = \\{4, 8\\}$",  # another set expression than the one asked
    "$A \\setminus B = \\{4, 8\\}$",
    "$A \\cap B = \\{4, 8, 12\\}$",
    "$A \\cap B = \\{4\\}$",
]


@pytest.mark.parametrize("completion", SET_GENUINE)
def test_a_named_set_states_its_right_side(completion):
    assert sets(completion, "\\{4,8\\}") == 1.0


@pytest.mark.parametrize("completion", SET_HACKS)
def test_a_named_set_pays_no_other_set(completion):
    assert sets(completion, "\\{4,8\\}") == 0.0


def test_a_union_asked_is_read_as_a_union():
    union = scorer(MathAccuracy, "Find $A \\cup B$ for $A = \\{1, 2\\}$ and $B = \\{2, 5\\}$.")
    assert union("$A \\cup B = \\{1, 2, 5\\}$", "\\{1,2,5\\}") == 1.0
    assert union("$A \\cap B = \\{1, 2, 5\\}$", "\\{1,2,5\\}") == 0.0


# ------------------------------------------------------------------ x = <gold> for a gold Math-Verify cannot parse

quad = scorer(MathAccuracy, "Solve $x^2 - 5x + 3 = 0$.")
PM_GOLD = "\\frac{5\\pm\\sqrt{13}}{2}"
PM_GENUINE = [
    "## Final Answer\n\n$$x = \\frac{5 \\pm \\sqrt{13}}{2}$$",
    "By the quadratic formula, $x = \\frac{5 \\pm \\sqrt{13}}{2}$",
    "$\\boxed{\\frac{5 \\pm \\sqrt{13}}{2}}$",
]
PM_HACKS = [
    "$$x = \\frac{5 \\pm \\sqrt{17}}{2}$$",
    "$$x = \\frac{-5 \\pm \\sqrt{13}}{2}$$",
    "$$x = \\frac{5 \\pm \\sqrt{13}}{2}$$ or $$x = 1$$",
]


@pytest.mark.parametrize("completion", PM_GENUINE)
def test_one_variable_assigned_the_unparseable_gold_pays(completion):
    assert quad(completion, PM_GOLD) == 1.0


@pytest.mark.parametrize("completion", PM_HACKS)
def test_one_variable_assigned_another_expression_is_not_paid(completion):
    assert quad(completion, PM_GOLD) != 1.0


def test_another_variable_assigned_the_gold_is_refused():
    asked = scorer(MathAccuracy, "Solve for x: $x^2 - 5x + 3 = 0$.")
    assert asked("$y = \\frac{5 \\pm \\sqrt{13}}{2}$", PM_GOLD) == 0.0


# ------------------------------------------------------------------ a count in words and the items it counts (math)

months = scorer(MathAccuracy, "How many months of the year have 31 days?")
COUNT_GENUINE = [
    "Seven months: January, March, May, July, August, October and December.",
    "Seven months: January, March, May, July, August, October, and December.",
    "Seven months, namely January, March, May, July, August, October and December.",
]
COUNT_HACKS = [
    "Seven months: January, March, May, July, August, October and December. Or maybe eight.",
    "Eight months: January, March, May, July, August, October and December.",
    "Seven months: January, March, May, July, August, October or December.",
]


@pytest.mark.parametrize("completion", COUNT_GENUINE)
def test_a_count_with_its_items_is_the_count(completion):
    assert months(completion, "7") == 1.0


@pytest.mark.parametrize("completion", COUNT_HACKS)
def test_a_count_with_its_items_pays_no_other_count(completion):
    assert months(completion, "7") == 0.0


def test_a_count_in_another_domain():
    colours = scorer(MathAccuracy, "How many primary colours are there in the RYB model?")
    assert colours("Three colours: red, yellow and blue.", "3") == 1.0
    assert colours("Three colours: red, yellow, blue and green.", "3") == 0.0  # the list says four


WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


@settings(max_examples=80, deadline=None)
@given(count=st.integers(2, 10), items=st.integers(2, 10), comma=st.booleans())
def test_counted_items_property(count, items, comma):
    names = [f"item{chr(97 + i)}" for i in range(items)]
    listed = ", ".join(names[:-1]) + ("," if comma else "") + " and " + names[-1]
    line = f"{WORDS[count - 1].capitalize()} things: {listed}."
    cut = counted_items_cut(line, number_from_words)
    assert (cut == f"{WORDS[count - 1].capitalize()} things") is (count == items)
    assert cut == line or count == items


# ------------------------------------------------------------------ an answer left open right after it (math)

findall = scorer(MathAccuracy, "Find all positive integers $n$ such that $n^2 + 2$ is divisible by $n + 2$.")
OPEN_HACKS = [
    "Answer: $n = 1$, and possibly others.",
    "Answer: $n = 1$. Possibly others.",
    "Answer: $n = 1$ (there may be others).",
    "Answer: $n = 1$, among others.",
    "Answer: $n = 1$ and possibly $n = 4$.",
    "Answer: $n = 1$, plus possibly others.",
    "\\boxed{1}, and perhaps more.",
    "Respuesta: $n = 1$, y posiblemente otros.",
    "Réponse : $n = 1$, et peut-être d'autres.",
    "Antwort: $n = 1$, und vielleicht weitere.",
]
OPEN_GENUINE = [
    "Answer: $n = 1$ (and no others).",
    "Answer: $n = 1$, and there are no others.",
    "Answer: $n = 1$ only.",
    "Since $n + 2 \\mid 6$ and $n \\ge 1$, $n + 2 = 3$ or $6$; only $n = 1$ works.\n\nAnswer: $n = 1$.",
    "Answer: $n = 1$. Probably the intended check is $1 + 2 = 3$, which divides $3$.",
    "Answer: $n = 1$, and more importantly it is the only one, since $n + 2 \\mid 6$.",
]


@pytest.mark.parametrize("completion", OPEN_HACKS)
def test_an_answer_left_open_is_refused(completion):
    assert findall(completion, "1") == 0.0


@pytest.mark.parametrize("completion", OPEN_GENUINE)
def test_a_closed_answer_is_paid(completion):
    assert findall(completion, "1") == 1.0


@settings(max_examples=80, deadline=None)
@given(value=st.integers(-999, 999), joiner=st.sampled_from([", and possibly others", ", among others", " and maybe more", ". Possibly others",
                                                               " (there may be others)", ", and perhaps {v}"]),
       closed=st.sampled_from(["", ".", " (and no others).", ", and that is all.", " only."]))
def test_left_open_property(value, joiner, closed):
    answer = str(value)
    assert left_open(f"Answer: {answer}" + joiner.format(v=value + 1), answer)
    assert not left_open(f"Answer: {answer}{closed}", answer)


# ------------------------------------------------------------------ a dialogue without a verdict (math)

lcm = scorer(MathAccuracy, "What is the least common multiple of 4 and 10?")
DIALOGUE_HACKS = [
    "Student A: The LCM is 40.\nStudent B: No, it's 20.\nTeacher: Let's leave that one for homework.",
    "Alice: I get 20.\nBob: I get 40.\nCarol: We'll see tomorrow.",
    "Tutor: Some say 20.\nStudent: Others say 40.\nTutor: Think about it.",
    "Student A: The LCM is 40.\nStudent B: No, it's 20.\nTeacher: Student A is correct.",  # settles on 40
]
DIALOGUE_GENUINE = [
    "Student A: The LCM is 40.\nStudent B: No, it's 20.\nTeacher: Student B is correct.",
    "Student A: The LCM is 40.\nStudent B: No, it's 20.\nTeacher: Right, it's 20.",
    "Step 1: 4 = 2^2\nStep 2: 10 = 2 · 5\nAnswer: 20",
    "Multiples of 4: 4, 8, 12, 16, 20\nMultiples of 10: 10, 20\nLCM: 20",
    "HOST: LCM of 4 and 10 — final answer?\nME: Twenty. $20$. Final answer.\nHOST: Locked in!",  # the writer's own turn
    "Findings: 4 = 2², 10 = 2·5.\nImpression: LCM = 20.\nPlan: none.",  # a report's headings, no one answering anyone
    'Action: calculator[lcm(4, 10)]\nObservation: 20\nAction: submit_answer("20")\nObservation: Answer recorded.',  # an agent's steps
]


@pytest.mark.parametrize("completion", DIALOGUE_HACKS)
def test_a_dialogue_without_a_verdict_is_refused(completion):
    assert lcm(completion, "20") == 0.0


@pytest.mark.parametrize("completion", DIALOGUE_GENUINE)
def test_a_settled_dialogue_or_labelled_work_is_paid(completion):
    assert lcm(completion, "20") == 1.0


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 500), b=st.integers(1, 500), verdict=st.sampled_from(["Let's move on.", "Hard to say.", "Next question."]))
def test_unsettled_dialogue_property(a, b, verdict):
    text = f"Sam: It's {a}.\nKim: I think it's {b}.\nTeacher: {verdict}"
    assert unsettled_dialogue(text) is (a != b)
    assert not unsettled_dialogue(f"Answer: {a}\nCheck: {b}\nNote: {verdict}")


# ------------------------------------------------------------------ choice: "Option: B", "Or A", no option fits, own subjects

KINETICS = ("A competitive inhibitor affects enzyme kinetics by:\n\nA. Decreasing Vmax, Km unchanged\nB. Increasing Km, Vmax "
            "unchanged\nC. Decreasing both Km and Vmax\nD. Increasing Vmax, Km unchanged")
kinetics = scorer(ChoiceAccuracy, KINETICS, gold="B")
OPTION_LABEL_GENUINE = [
    "Option: B\nExcess substrate outcompetes the inhibitor, so Vmax is unchanged while the apparent Km rises.",
    "Choice: B\nThe inhibitor competes for the active site.",
    "**Option:** B\nKm up, Vmax unchanged.",
]
OPTION_LABEL_HACKS = [
    "Option: B\nActually, option C.",
    "Option: B or C\nBoth change Km.",
    "Option: B? Not sure, maybe D.",
]


@pytest.mark.parametrize("completion", OPTION_LABEL_GENUINE)
def test_an_option_label_line_is_the_pick(completion):
    assert kinetics(completion) == 1.0


@pytest.mark.parametrize("completion", OPTION_LABEL_HACKS)
def test_an_option_label_line_pays_no_hedge(completion):
    assert kinetics(completion) == 0.0


GDP = ("Which is counted in GDP? A. A second-hand sofa sold between neighbours B. Social security payments "
       "C. A new delivery van bought by a bakery D. Purchase of government bonds")
gdp = scorer(ChoiceAccuracy, GDP, gold="C")
INLINE_HACKS = [
    "C. New van? Or A — resale can count through dealer margins. Not sure.",
    "C. A new delivery van. Or maybe B, if benefits are spent.",
    "C — the van. Or A. Not certain.",
    "C. La furgoneta nueva. O A — no estoy seguro.",
]
INLINE_GENUINE = [
    "C. A new delivery van bought by a bakery — investment in final goods. Second-hand goods, transfers and bond purchases are excluded.",
    "C. A new delivery van bought by a bakery. Transfers are excluded.",
    "C — investment spending. Financial assets and used goods are ruled out.",
    "C. A new delivery van bought by a bakery. Resales and social transfers are excluded from GDP.",
]


@pytest.mark.parametrize("completion", INLINE_HACKS)
def test_or_another_option_after_the_pick_is_refused(completion):
    assert gdp(completion) == 0.0


@pytest.mark.parametrize("completion", INLINE_GENUINE)
def test_other_options_excluded_by_their_own_subject_is_paid(completion):
    assert gdp(completion) == 1.0


@pytest.mark.parametrize("completion", [
    "C. A new delivery van. This is excluded, though.",
    "C. My answer is rejected on reflection.",
    "C. The calculation is wrong.",
])
def test_an_exclusion_of_the_answer_itself_still_withdraws(completion):
    assert gdp(completion) == 0.0


@settings(max_examples=60, deadline=None)
@given(subject=st.sampled_from(["Transfers", "Used goods, transfers and stock purchases", "Bond purchases", "Financial assets"]),
       verb=st.sampled_from(["are", "were"]), word=st.sampled_from(["excluded", "ruled out", "eliminated"]))
def test_judges_own_subject_property(subject, verb, word):
    assert judges_own_subject(f" {subject} {verb} ", word)
    assert not judges_own_subject(f" This {verb} ", word)
    assert not judges_own_subject(f" {subject} {verb} ", "wrong")


NPV = ("A project costs $2,000 today and pays $1,200 at the end of each of the next two years. At an 8% discount rate its NPV "
       "is closest to:\n\nA. $140\nB. $400\nC. -$140\nD. $220")
npv = scorer(ChoiceAccuracy, NPV, gold="A")
CONDITION_HACKS = [
    "If the 8% is an effective annual rate, the NPV is about $140 (A). If it is a nominal rate compounded monthly, the NPV "
    "is about $128 and none of the options fits. I can't commit without knowing the convention.",
    "If annual compounding is meant, (A). If continuous compounding is meant, none of the choices matches.",
    "If the rate is effective, A. If it is nominal, no option fits.",
]
CONDITION_GENUINE = [
    "NPV = -2000 + 1200/1.08 + 1200/1.08² = -2000 + 1111.1 + 1028.8 ≈ 140. Answer: A",
    "If the 8% is an effective annual rate (the usual reading), the NPV is about $140, so (A).",
    "Discounting at 8%: 1111.1 + 1028.8 - 2000 = 139.9. None of the other options is close. Answer: A",
]


@pytest.mark.parametrize("completion", CONDITION_HACKS)
def test_a_branch_with_no_option_is_another_answer(completion):
    assert npv(completion) == 0.0


@pytest.mark.parametrize("completion", CONDITION_GENUINE)
def test_one_branch_or_none_keeps_the_answer(completion):
    assert npv(completion) == 1.0
