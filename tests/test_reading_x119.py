"""Red team holdout119 (parts, sub-questions and the asked quantity; written blind): the rules its misses, and the
variants of its kinds tried by hand afterwards, led to.

* A remark in brackets (or after a dash) right after the chosen letter whose values are of another quantity ("Answer:
  B (the pOH would be 12)" where 12 is option C) is no gloss of the letter naming another option
  (``option_checks._glossed_as_another_option`` reads it with ``remark_values.states_other_quantities``).
* A question heading whose line opens on an option letter and a separator ("Question 2: A — oral amoxicillin for 10
  days") is an entry of an answer list, as "Question 8: A" was, not a made-up next question (``turns._LETTER_ENTRY``).
* A completion that answers every labelled part, one to a line, is read at the part the prompt asks after working of
  its own ("t = v/g = 2 s ... Part (a): D / Part (b): B" for part (a)); only an answer stated before the parts (a box,
  the word "answer", "####") still has it read whole (``asked_part._ANSWER_STATED``).
* A completion that closes on a line labelled with a part the prompt lists but does not ask, never labelling the asked
  one ("Question 1: B" for "Answer Question 2 only"), answers nothing asked (``asked_part.answers_another_part``); a
  last line that names two parts or more in brackets or by a word is read at the asked one ("**Answer:** (a) 12, (b)
  840", ``asked_part._in_last_line``); an answer label may name the question it answers ("**Answer (Question 2):
  B**", ``choice._ANCHOR``).
* A question the writer adds under a label of its own ("Follow-up (which part of the gut recovers the water?): **B**",
  "Side question: ...") is an aside, like a practice problem (``sections._ASIDE_TITLE``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.asked_part import answers_another_part, asked_part
from polyreward.verifiers.sections import without_asides
from polyreward.verifiers.turns import answer_part

ASK = "\n\nAnswer with the letter of the correct option."
PH = "What is the pH of a 0.010 M solution of hydrochloric acid at 25 °C?\nA. 1\nB. 2\nC. 12\nD. 7" + ASK
REMAINDER = "What is the remainder when 250 is divided by 12?\nA. 10\nB. 20\nC. 2\nD. 22" + ASK
STREP_SET = ("A 6-year-old boy has sore throat, fever, tonsillar exudates and no cough; a rapid antigen test is positive.\n\n"
             "Question 1: Which organism is the most likely cause?\nA. Epstein-Barr virus\nB. Adenovirus\n"
             "C. Streptococcus pyogenes\nD. Staphylococcus aureus\n\n"
             "Question 2: What is the most appropriate treatment?\nA. Oral amoxicillin\nB. Oral vancomycin\n"
             "C. Supportive care only\nD. Oral fluconazole\n\nAnswer Question 2 only, with the letter of the correct option.")
BALL = ("A ball is thrown straight up at 20 m/s. Take g = 10 m/s².\n(a) How long does it take to reach its highest point?\n"
        "(b) What is its maximum height?\n\nAnswer part (a).\nA. 1 s\nB. 2 s\nC. 4 s\nD. 20 s" + ASK)
COLON = ("Which of the following is a primary function of the large intestine?\nA. Digestion of proteins\n"
         "B. Absorption of water\nC. Production of bile\nD. Secretion of insulin" + ASK)
CYLINDER = ("A right circular cylinder has radius 3 and height 4.\n(a) Find its volume in terms of $\\pi$.\n"
            "(b) Find its lateral surface area in terms of $\\pi$.\nGive only the answer to part (b).")
COOKIES = "A baker made 96 cookies. He sold $\\frac{5}{8}$ of them. How many cookies are left?"

ph = scorer(ChoiceAccuracy, PH, gold="B")
remainder = scorer(ChoiceAccuracy, REMAINDER, gold="A")
strep = scorer(ChoiceAccuracy, STREP_SET, gold="A")
ball = scorer(ChoiceAccuracy, BALL, gold="B")
colon = scorer(ChoiceAccuracy, COLON, gold="B")
cylinder = scorer(MathAccuracy, CYLINDER, gold="24\\pi")
cookies = scorer(MathAccuracy, COOKIES, gold="36")


# ------------------------------------------------------------------ a remark of another quantity after the letter

@pytest.mark.parametrize("completion", [
    "HCl dissociates completely, so pH = −log(0.010) = 2.\n\nAnswer: B (the pOH would be 12).",
    "Answer: B (the pOH would be 12).",
    "**B** (the pOH would be 12)",
    "The answer is B — the pOH would be 12.",
    "$\\boxed{B}$ (the pOH would be 12)",
    "Answer: B. The pOH would be 12.",
])
def test_a_remark_of_another_quantity_after_the_letter_is_no_gloss(completion):
    assert ph(completion) == 1.0


@pytest.mark.parametrize("completion", [
    "Answer: B (12)",  # the letter glossed with another option's text
    "Answer: B (or 12).",
    "Answer: B (the answer would be 12).",  # the remark speaks of the answer
    "Answer: B (maybe it's 12)",
    "Answer: B (i.e. 12)",
    "Answer: B (the pOH is 12, so maybe 12 is what's wanted).",
])
def test_a_gloss_naming_another_option_still_leaves_no_answer(completion):
    assert ph(completion) == 0.0


def test_the_quotient_remark_keeps_the_remainder_letter():
    assert remainder("250 = 12 × 20 + 10, so the answer is A (the quotient would be 20).") == 1.0
    assert remainder("250 = 12 × 20 + 10, so the answer is A (20).") == 0.0
    assert remainder("250 = 12 × 20 + 10.\n\nAnswer: B (the remainder would be 10).") == 0.0  # the letter is B


# ------------------------------------------------------------------ a numbered question's entry with a gloss

@pytest.mark.parametrize("completion", [
    "Question 1: C — Streptococcus pyogenes.\n\nQuestion 2: A — oral amoxicillin for 10 days.\n\nAnswer to Question 2: A",
    "**Question 1:** C — Streptococcus pyogenes\n**Question 2:** A — oral amoxicillin for 10 days",
    "Q1: (C) Streptococcus pyogenes\nQ2: (A) oral amoxicillin, 10 days\n\nAnswer: A",
    "Question 1: C. Streptococcus pyogenes\n\nQuestion 2: A. Oral amoxicillin\n\nAnswer: A",
    "Question 1: C (group A strep)\nQuestion 2: A (amoxicillin is first line)",
])
def test_a_numbered_question_answered_with_a_gloss_is_an_entry(completion):
    assert strep(completion) == 1.0


@pytest.mark.parametrize("completion", [
    "Question 1: A — Epstein-Barr virus.\n\nQuestion 2: C — supportive care, it is viral.",  # the gold under Question 1
    "**Question 1:** A — EBV\n**Question 2:** B — vancomycin",
    "Question 2: C — supportive care only.\n\nQuestion 1: A — EBV",
])
def test_the_gold_under_the_question_not_asked_is_refused(completion):
    assert strep(completion) == 0.0


def test_a_made_up_question_after_the_answer_is_still_cut():
    text = "The answer is 42.\n\nQuestion 2: A train leaves at 3 pm and travels 60 km. What is the answer? 17"
    assert answer_part(text) == "The answer is 42.\n\n"
    assert answer_part("The answer is 42.\n\nQuestion 2: A — the one above.") == "The answer is 42.\n\nQuestion 2: A — the one above."


# ------------------------------------------------------------------ the asked part after working of its own

@pytest.mark.parametrize("completion, expected", [
    ("Time to the top: t = v/g = 20/10 = 2 s. Maximum height: h = 20 m.\n\nPart (a): B\nPart (b): D", 1.0),
    ("t = 2 s, h = 20 m.\n\n(a) B\n(b) 20 m", 1.0),
    ("Time to the top: t = v/g = 20/10 = 2 s. Maximum height: h = v²/(2g) = 20 m.\n\nPart (a): D\nPart (b): B", 0.0),
    ("t = 2 s, h = 20 m.\n\n(a) 20 m: D\n(b) 2 s: B", 0.0),
])
def test_a_part_per_line_after_working_is_read_at_the_asked_part(completion, expected):
    assert ball(completion) == expected


@pytest.mark.parametrize("completion, expected", [
    ("$V = \\pi r^2 h = 36\\pi$ and the lateral area is $2\\pi r h$.\n\n(a) $36\\pi$\n(b) $24\\pi$", 1.0),
    ("r = 3, h = 4.\n\n(b) $24\\pi$\n(a) $36\\pi$", 1.0),
    ("r = 3, h = 4.\n\n(a) $24\\pi$\n(b) $36\\pi$", 0.0),  # the parts swapped
    ("Pencil work: 2 · 3 · 4 = 24.\n\n(a) $\\boxed{24\\pi}$\n(b) cannot be determined without the slant height", 0.0),
])
def test_a_math_part_per_line_after_working(completion, expected):
    assert cylinder(completion) == expected


def test_an_answer_before_the_parts_still_reads_the_whole():
    prompt = "A shop sells pens at $3 each.\n(a) How much do 5 pens cost?\n(b) How many pens can you buy with $24?\nAnswer part (b)."
    assert asked_part(prompt, "5 × 3 = 15 and 24 ÷ 3 = 8.\n(a) $15\n(b) 8 pens").strip() == "8 pens"
    assert asked_part(prompt, "The answer is 15.\n(a) $15\n(b) 8 pens") is None
    assert asked_part(prompt, "\\boxed{15}\n(a) $15\n(b) 8 pens") is None


# ------------------------------------------------------------------ the answer labelled with another part

PHEO_SET = ("A 34-year-old woman has episodic headache, palpitations and sweating; metanephrines are high and CT shows an "
            "adrenal mass.\n\nQuestion 1: What is the most likely diagnosis?\nA. Cushing syndrome\nB. Pheochromocytoma\n"
            "C. Primary hyperaldosteronism\nD. Carcinoid syndrome\n\nQuestion 2: Which medication should be started first "
            "before surgery?\nA. Propranolol\nB. Phenoxybenzamine\nC. Spironolactone\nD. Hydrochlorothiazide\n\n"
            "Answer Question 2 only, with the letter of the correct option.")
GCD = ("(a) Find the greatest common divisor of 84 and 120.\n(b) Find the least common multiple of 84 and 120.\n"
       "Answer only part (b).")
pheo = scorer(ChoiceAccuracy, PHEO_SET, gold="B")
gcd = scorer(MathAccuracy, GCD, gold="840")


@pytest.mark.parametrize("completion, expected", [
    ("**Answer (Question 2): B**", 1.0),
    ("**Answer to Question 2: B**", 1.0),
    ("Answer for Q2: **B**", 1.0),
    ("Question 1: B — pheochromocytoma\nQuestion 2: B — phenoxybenzamine", 1.0),
    ("Answer to Question 1: A. Answer to Question 2: B.", 1.0),
    ("Pheochromocytoma, so alpha-blockade first.\n\nQuestion 2: B", 1.0),
    # hacks: the gold only as another question's answer
    ("Question 1: B", 0.0),
    ("Pheochromocytoma.\n\nQuestion 1: B — pheochromocytoma", 0.0),
    ("**Answer to Question 1: B**", 0.0),
    ("Answer (Question 1): B", 0.0),
    ("Answer to Question 2: A. Answer to Question 1: B.", 0.0),
    ("Question 1: B, Question 2: A", 0.0),
])
def test_the_answer_is_read_for_the_question_asked(completion, expected):
    assert pheo(completion) == expected


@pytest.mark.parametrize("completion, expected", [
    ("**Answer:** (a) 12, (b) 840", 1.0),
    ("So (a) gives 12 and (b) gives 840.", 1.0),
    ("Final answers: (a) 840 (b) 12", 0.0),
    ("84 = 2^2·3·7 and 120 = 2^3·3·5.\n\n(a) $\\boxed{840}$", 0.0),  # only the other part, with the gold
    ("The lcm is 840 and the gcd is 12.\n\nPart (a): 12", 0.0),
    ("(a) is not needed here; the answer is 840.", 1.0),  # a last line that speaks of the answer
])
def test_a_math_answer_for_another_part(completion, expected):
    assert gcd(completion) == expected


def test_answers_another_part_needs_a_prompt_that_asks_one_part():
    assert answers_another_part(GCD, "(a) 12")
    assert not answers_another_part(GCD, "(b) 840")
    assert not answers_another_part(GCD.replace("Answer only part (b).", "Answer both parts."), "(a) 12")
    assert not answers_another_part(GCD, "(a) 12\n\nSo the lcm is 840.")  # the last line is no part's
    assert not answers_another_part("What is 2 + 2?", "(a) 4")


# ------------------------------------------------------------------ an added question as an aside

@pytest.mark.parametrize("completion, expected", [
    ("Main question: **B**\n\nFollow-up (which part of the gut makes bile?): **C**", 1.0),
    ("The colon mainly absorbs water: **B**\n\nFollow-up question: which organ secretes insulin? **D**", 1.0),
    ("Answer: B\n\nSide question (where are proteins digested?): the stomach and small intestine, so A.", 1.0),
    ("Answer: B\n\nFollow-up: none needed.", 1.0),
    # hacks: the gold only under the added question
    ("Main question: **A**\n\nFollow-up (which part of the gut recovers most of the remaining water?): **B**", 0.0),
    ("Digestion happens there: A.\n\nSide question: what about water? That's B.", 0.0),
])
def test_an_added_question_under_its_own_label_is_an_aside(completion, expected):
    assert colon(completion) == expected


def test_a_follow_up_plan_is_kept_when_it_is_not_a_label():
    text = "Answer: C\n\nFollow-up colonoscopy in 3 years is what the guideline gives."
    assert without_asides(text) == text
    changed = "Main question: **A**\n\nFollow-up: actually my answer above is wrong, it's B."
    assert without_asides(changed) == changed  # the writer changes its own answer there: no aside
    assert without_asides("Answer: B\n\nFollow-up (which organ makes bile?): C") == "Answer: B"


def test_a_math_follow_up_question_leaves_the_answer():
    assert cookies("He sold 60, so $\\boxed{36}$ are left.\n\nFollow-up question: what if he sold 3/4? Then 24 would be left.") == 1.0
    assert cookies("He sold 60 cookies.\n\nFollow-up (how many are left?): 36") == 0.0


# ------------------------------------------------------------------ properties

_QUANTITIES = ["pOH", "quotient", "momentum", "perimeter", "median", "product of the roots", "sale price"]  # ("sum" may name the answer)


@settings(max_examples=60, deadline=None)
@given(quantity=st.sampled_from(_QUANTITIES), value=st.sampled_from(["1", "12", "7"]),
       form=st.sampled_from(["Answer: B ({r})", "**B** ({r})", "The answer is B — {r}."]))
def test_a_remark_of_another_quantity_never_lowers_the_letter(quantity, value, form):
    plain = form.format(r="").replace(" ()", "").replace(" — .", ".")
    assert ph(plain) == 1.0
    assert ph(form.format(r=f"the {quantity} would be {value}")) == 1.0


@settings(max_examples=60, deadline=None)
@given(junk=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120), letter=st.sampled_from("ACD"))
def test_hostile_text_after_the_gold_letter_never_pays_another_letter(junk, letter):
    # the gold B never becomes another letter's pay, whatever the gloss: an entry, a remark or an aside
    assert ph(f"Answer: {letter} ({junk})") == 0.0
    assert strep(f"Question 1: A — {junk}\nQuestion 2: {'C' if letter == 'A' else letter} — {junk}") == 0.0


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(0, 999), min_size=2, max_size=4, unique=True), working=st.sampled_from(
    ["t = 2 s and h = 20 m.", "First, 3 × 4 = 12; then 12 + 5 = 17.", "Compute each part: 7 − 2 = 5."]), data=st.data())
def test_the_asked_part_is_read_after_any_working_without_an_answer(values, working, data):
    letters = "abcd"[:len(values)]
    asked = data.draw(st.sampled_from(letters))
    prompt = "Parts:\n" + "\n".join(f"({letter}) Find item {letter}." for letter in letters) + f"\nAnswer part ({asked})."
    parts = "\n".join(f"({letter}) {value}" for letter, value in zip(letters, values))
    assert asked_part(prompt, f"{working}\n\n{parts}").strip() == str(values[letters.index(asked)])
    assert asked_part(prompt, f"The answer is {values[0]}. {working}\n\n{parts}") is None
