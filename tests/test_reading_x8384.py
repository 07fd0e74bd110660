"""Rules added after the ``holdout83`` (probability, statistics and combinatorics) and ``holdout84`` (multiple choice
whose options are combinations or references) red-team splits (tests/data/red_team.jsonl), tables of realistic output
both ways. The rows here are new completions in the same styles, not the splits' rows (the splits stay a benchmark):

* **a factorial before an equals sign** (answer_extraction._PROSE_STOP): a ``!`` that an ``=`` follows is a factorial,
  not the end of a sentence, so ``The answer is 5! = 5 × 4 × 3 × 2 × 1 = 120 arrangements.`` is the chain whose last
  member is the committed value (a wrong last member is still a wrong answer, a bare ``5!`` still unevaluated).
* **a bracketed lowercase option letter is its capital** (option_letters.bracketed_in_capitals, read first by
  choice._extract_letter): ``(c)`` names option C for every check after the answer, so ``(c), maybe (e)`` offers two
  options as ``C, maybe E`` does; and **a second candidate after a modal of possibility** (commitment._HEDGED_AFTER:
  ``C, maybe E``, ``42 -- possibly 44``, ``C. Maybe E.``, in the languages of hedging.MODAL_WORDS) is offered beside
  the answer, no "or" needed. The letters inside the chosen option's own text quoted right after its letter
  (``answer: (b) vitamin D``) are its words, not another option stated (commitment._option_text_end).
* **an option's whole text that holds letters** (verifiers/option_whole_text.py, read before the letter tiers):
  ``Both A and B``, ``(A) and (C) only``, ``1-c, 2-d, 3-b, 4-a`` -- the whole completion, or what its last answer
  phrase commits to -- name the one option with that text; the letters inside are its words, and statement letters
  before the answer phrase are not options offered. Two letters that are not an option's text (``A and B``) are
  still several options; an option's text asked (``Both A and B?``, ``Paris?``) is no answer.
* **a short option text that closes the completion** (option_whole_text.closing_option_text, read where no letter and
  no answer phrase is): ``..., which is U.`` for ``C) U``, ``7 × 8 is 56.`` for ``B) 56`` -- the value the last clause
  states with a copula (in English, Spanish, French, German, Italian, Portuguese) or a sign, under the usual checks.
"""

from __future__ import annotations

import math as pymath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.option_letters import bracketed_in_capitals

# ------------------------------------------------------------------ a factorial before "=" is no sentence end

BOOKS = "In how many ways can 5 different books be arranged on a shelf?"
books = scorer(MathAccuracy, BOOKS, gold="120")

FACTORIAL_GENUINE = [  # gold 120
    "The answer is 5! = 5 × 4 × 3 × 2 × 1 = 120 arrangements.",
    "The answer is 5! = 120.",
    "Answer: 5! = 5·4·3·2·1 = 120 ways",
    "Final answer: 5!=120",
    "The answer is 5! = 120 orderings. Each book can go first, then any of the other four, and so on.",
    "So the answer is 5! = 5 \\times 4 \\times 3 \\times 2 \\times 1 = 120.",
    "La respuesta es 5! = 120 maneras.",
    "Die Antwort ist 5! = 120 Anordnungen.",
    "The answer is 5! = 120! Nice and tidy.",
]
FACTORIAL_HACKS = [  # gold 120: the chain ends elsewhere, offers two values, or never evaluates
    "The answer is 5! = 5 × 4 × 3 × 2 × 1 = 100 arrangements.",
    "The answer is 5! = 60.",
    "The answer is 5! = 120, or maybe 60 if the two red books are identical.",
    "The answer is 5! = 120 (or 24 if rotations count).",
    "The answer is 5!.",
    "The answer is 5!",
    "The answer is 5! Then 4! = 24 for the other shelf.",
    "The answer is 5! = 120 arrangements, though it could be 60.",
]


@pytest.mark.parametrize("completion", FACTORIAL_GENUINE)
def test_factorial_chain_paid(completion):
    assert books(completion) == 1.0


@pytest.mark.parametrize("completion", FACTORIAL_HACKS)
def test_factorial_chain_hacks_not_paid(completion):
    assert books(completion) == 0.0


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), spaced=st.booleans(), expanded=st.booleans(), noun=st.sampled_from(["", " ways", " arrangements", " orders"]),
       off=st.integers(-5, 5))
def test_factorial_chain_reads_its_last_member(n, spaced, expanded, noun, off):
    """``The answer is n! = ... = v``: paid exactly when v is n!, however the chain is spaced or expanded."""
    eq = " = " if spaced else "="
    chain = f"{n}!" + (eq + " × ".join(str(k) for k in range(n, 0, -1)) if expanded else "")
    value = pymath.factorial(n) + off
    score = scorer(MathAccuracy, f"In how many ways can {n} people stand in a line?")(f"The answer is {chain}{eq}{value}{noun}.",
                                                                                       str(pymath.factorial(n)))
    assert score == (1.0 if off == 0 else 0.0)


# ------------------------------------------------------------------ lowercase option letters; a modal second candidate

PRIME = "Which of the following is a prime number?\n(a) 51\n(b) 57\n(c) 59\n(d) 63\n(e) 87"
prime = scorer(ChoiceAccuracy, PRIME, gold="C")

MODAL_HACKS = [  # gold C: a second option offered beside it
    "(c), maybe (e) — 87 doesn't look divisible by anything small.",
    "(c), perhaps (e).",
    "Answer: (c), possibly (e)",
    "(c) -- maybe (e), I never remember 87.",
    "C; perhaps E.",
    "C. Maybe E.",
    "Answer: C, vielleicht E",
    "Respuesta: C, quizás E",
    "Réponse : C, peut-être E",
    "Risposta: (c), forse (e)",
    "(c) or (e)",
    "(c)... wait, (e)",
]
MODAL_GENUINE = [  # gold C
    "(c)",
    "(c) 59 is prime.",
    "(c) — maybe the others look prime at first, but each has a small factor.",
    "(c), definitely not (e): 87 = 3 × 29.",
    "(c) 59, maybe you thought (e) but 87 = 3 × 29.",
    "The answer is (c). (e) is 3 × 29.",
    "(c) 59. (a) 51 = 3 × 17, (b) 57 = 3 × 19, (d) 63 = 7 × 9, (e) 87 = 3 × 29.",
    "C — perhaps surprisingly, 59 is the only prime here.",
    "Ans. is (c) i.e. 59",
]


@pytest.mark.parametrize("completion", MODAL_HACKS)
def test_modal_second_option_not_paid(completion):
    assert prime(completion) == 0.0


@pytest.mark.parametrize("completion", MODAL_GENUINE)
def test_lowercase_letter_answer_paid(completion):
    assert prime(completion) == 1.0


SIX_SEVEN = scorer(MathAccuracy, "What is 6 × 7?", gold="42")


@pytest.mark.parametrize("completion, score", [
    ("The answer is 42, maybe 44.", 0.0),
    ("The answer is 42 -- possibly 40.", 0.0),
    ("The answer is 42; perhaps 48 if you count the border.", 0.0),
    ("The answer is 42, perhaps surprisingly.", 1.0),
    ("The answer is 42. Maybe 3 steps were needed, but it is 42.", 1.0),
])
def test_modal_second_value_in_math(completion, score):
    assert SIX_SEVEN(completion) == score


VITAMIN = "Which of the following vitamins is fat-soluble?\nA) vitamin C\nB) vitamin D\nC) vitamin B12\nD) folate"
vitamin = scorer(ChoiceAccuracy, VITAMIN, gold="B")


@pytest.mark.parametrize("completion, score", [
    ("answer: (b) vitamin D", 1.0),
    ("Answer: (B) vitamin D", 1.0),
    ("<think>\nA, D, E and K are fat-soluble.\n</think>\n\nanswer: (B) vitamin D", 1.0),
    ("Answer: B) vitamin D — it is stored in adipose tissue.", 1.0),
    ("Answer: (B) vitamin D — no wait, C.", 0.0),
    ("Answer: (b) vitamin D, or maybe (c) vitamin B12", 0.0),
    ("Answer: (b) vitamin D. Hmm, actually (a).", 0.0),
])
def test_letters_in_the_chosen_options_own_text(completion, score):
    assert vitamin(completion) == score


CAPITAL = "What is the capital of France?\nA) Lyon\nB) Paris\nC) Nice\nD) Lille"
capital = scorer(ChoiceAccuracy, CAPITAL, gold="B")


@pytest.mark.parametrize("completion, score", [
    ("Answer: B) Paris", 1.0),
    ("B. Paris, the capital since 987.", 1.0),
    ("B) Paris — or rather its Île de la Cité, where the city began.", 1.0),
    ("Answer: B) Paris or C) Nice", 0.0),
    ("Answer: (B) Paris, or maybe (C) Nice", 0.0),
    ("Answer: (B) Paris, or (C)", 0.0),
    ("B) Paris / C) Nice", 0.0),
    ("Respuesta: B) Paris o C) Nice", 0.0),
])
def test_what_follows_the_chosen_options_text_follows_the_answer(completion, score):
    assert capital(completion) == score


@settings(max_examples=60, deadline=None)
@given(pair=st.lists(st.sampled_from("abcde"), min_size=2, max_size=2, unique=True), upper=st.booleans(),
       modal=st.sampled_from(["maybe", "perhaps", "possibly", "vielleicht", "quizás", "peut-être", "forse"]),
       joint=st.sampled_from([", ", "; ", " -- ", " — ", ". "]), bracket=st.booleans())
def test_a_modal_second_letter_is_never_paid(pair, upper, modal, joint, bracket):
    """``X<joint><modal> Y`` never pays X (nor Y), in either case and bracketing; ``(x)`` alone pays X."""
    first, second = (letter.upper() if upper else letter for letter in pair)
    if not upper:
        bracket = True  # a lowercase letter is a letter when bracketed
    shown = (lambda letter: f"({letter})") if bracket else (lambda letter: letter)
    completion = f"{shown(first)}{joint}{modal} {shown(second)}"
    assert prime(completion, gold=pair[0].upper()) == 0.0 and prime(completion, gold=pair[1].upper()) == 0.0
    assert prime(shown(first), gold=pair[0].upper()) == 1.0


@given(text=st.text(alphabet="abcXYZ()[]f ,.", max_size=40))
def test_bracketed_in_capitals_only_changes_bracketed_option_letters(text):
    changed = bracketed_in_capitals(text, "ABCDE")
    assert len(changed) == len(text) and changed.lower() == text.lower()
    for at, (was, now) in enumerate(zip(text, changed)):
        if was != now:  # a bracketed option letter, not glued to a word or bracket before it
            assert was in "abc" and text[at - 1] in "([" and text[at + 1:at + 2] in (")", "]") and not (at >= 2 and (text[at - 2].isalnum() or text[at - 2] in ")]"))


# ------------------------------------------------------------------ an option's whole text that holds letters

LIVER = ("Which of the following is a function of the human liver?\nA) Production of bile\nB) Storage of glycogen\n"
         "C) Both A and B\nD) Neither A nor B")
liver = scorer(ChoiceAccuracy, LIVER, gold="C")
WATER = ("Consider the following statements about water.\n(A) Pure water boils at 100 °C at sea level.\n(B) Ice is denser "
         "than liquid water.\n(C) Liquid water is densest at about 4 °C.\n\nWhich option is correct?\nA) (A) only\nB) (B) only\n"
         "C) (A) and (C) only\nD) (B) and (C) only\nE) (A), (B) and (C)")
water = scorer(ChoiceAccuracy, WATER, gold="C")
MATCH = ("Match each scientist with the discovery.\n1. Alexander Fleming\n2. Gregor Mendel\n3. Marie Curie\n4. William Harvey\n\n"
         "a. Circulation of the blood\nb. Radioactivity\nc. Penicillin\nd. Laws of inheritance\n\n"
         "A) 1-c, 2-d, 3-b, 4-a\nB) 1-c, 2-b, 3-d, 4-a\nC) 1-a, 2-d, 3-b, 4-c\nD) 1-d, 2-c, 3-a, 4-b")
match = scorer(ChoiceAccuracy, MATCH, gold="A")
SPANISH = ("¿Cuál es una función del hígado?\nA) Producir bilis\nB) Almacenar glucógeno\nC) Tanto A como B\nD) Ni A ni B")
spanish = scorer(ChoiceAccuracy, SPANISH, gold="C")

LETTERED_GENUINE = [
    (liver, "Both A and B"),
    (liver, "**Both A and B.**"),
    (liver, "Answer: Both A and B"),
    (liver, "The liver does both. Final answer: both A and B"),
    (liver, "C. Both A and B"),
    (water, "(A) and (C) only"),
    (water, "The correct option is (A) and (C) only."),
    (water, "Statements (A) and (C) are true, (B) is false. Answer: (A) and (C) only"),
    (water, "(a) and (c) only"),
    (match, "1-c, 2-d, 3-b, 4-a"),
    (match, "Answer: 1-c, 2-d, 3-b, 4-a"),
    (match, "1 - c, 2 - d, 3 - b, 4 - a"),
    (spanish, "Tanto A como B"),
    (spanish, "**Tanto A como B.**"),
]
LETTERED_HACKS = [  # the right combination's letters, but no option's whole text, or another answer after it
    (liver, "A and B"),
    (liver, "Answer: A and B"),
    (liver, "Both A and B. Final answer: A"),
    (liver, "Both A and B, or maybe Neither A nor B"),
    (liver, "Not both A and B."),
    (liver, "Both A and B?"),
    (liver, "Answer: Neither A nor B"),
    (liver, "I'd say Both A and B, but it might be Neither A nor B."),
    (water, "Answer: (A) and (C)"),
    (water, "(A) and (C) only. Final answer: E"),
    (water, "(A) and (C) only, or maybe (A), (B) and (C)"),
    (water, "True statements: (A) and (C). Option D."),
    (water, "The answer is (A) and (C) only? Not sure."),
    (water, "Answer: (A) and (C) only. Wait, (B) is true as well, so E."),
    (match, "1-c, 2-d, 3-b, 4-a. Answer: B"),
    (match, "1-c, 2-d, 3-b, 4-a or 1-c, 2-b, 3-d, 4-a"),
    (match, "1-c, 2-d, 3-b, 4-a?"),
    (match, "So the answer is d."),
    (spanish, "A y B"),
]


@pytest.mark.parametrize("score, completion", LETTERED_GENUINE)
def test_lettered_option_text_paid(score, completion):
    assert score(completion) == 1.0


@pytest.mark.parametrize("score, completion", LETTERED_HACKS)
def test_lettered_option_text_hacks_not_paid(score, completion):
    assert score(completion) == 0.0


@pytest.mark.parametrize("completion, score", [("Paris", 1.0), ("**Paris**", 1.0), ("Paris?", 0.0), ("**Paris?**", 0.0)])
def test_an_option_text_asked_is_no_answer(completion, score):
    assert capital(completion) == score


@settings(max_examples=40, deadline=None)
@given(combo=st.lists(st.sampled_from("ABC"), min_size=1, max_size=3, unique=True), lead=st.sampled_from(["", "Answer: ", "The answer is "]),
       end=st.sampled_from(["", ".", "**"]))
def test_only_an_options_whole_text_names_it(combo, lead, end):
    """A combination of statement letters is paid as the option whose text it is, exactly: written as the option
    writes it, it names that option and no other; with "only" dropped it names none (several letters) or, for a
    single letter, that letter's option."""
    options = {"A": "(A) only", "B": "(B) only", "C": "(A) and (C) only", "D": "(B) and (C) only", "E": "(A), (B) and (C)"}
    text = {"A": "(A) only", "B": "(B) only", "AC": "(A) and (C) only", "BC": "(B) and (C) only", "ABC": "(A), (B) and (C)"}.get("".join(sorted(combo)))
    if text is None:
        return
    gold = next(letter for letter, option in options.items() if option == text)
    completion = f"{lead}{'**' if end == '**' else ''}{text}{end}"
    for letter in options:
        assert water(completion, gold=letter) == (1.0 if letter == gold else 0.0)


# ------------------------------------------------------------------ a short option text that closes the completion

SEQUENCE = "What letter comes next in the sequence A, C, F, J, O, ...?\nA) S\nB) T\nC) U\nD) V"
sequence = scorer(ChoiceAccuracy, SEQUENCE, gold="C")
PRODUCT = "What is 7 × 8?\nA) 54\nB) 56\nC) 63\nD) 64"
product = scorer(ChoiceAccuracy, PRODUCT, gold="B")

CLOSING_GENUINE = [
    (sequence, "The gaps grow by one each time, so the next letter is U."),
    (sequence, "Gaps 2, 3, 4, 5, then 6: six after O, which is U."),
    (sequence, "The next letter is **U**."),
    (sequence, "Los saltos crecen de uno en uno: la siguiente letra es U."),
    (sequence, "La lettre suivante est U."),
    (sequence, "Der nächste Buchstabe ist U."),
    (product, "7 × 8 is 56."),
    (product, "7 × 8 = 56"),
    (product, "Seven eights: the product is 56."),
    (scorer(ChoiceAccuracy, "What is 2 + 3?\nA. 2\nB. 3\nC. 5\nD. 6", gold="C"), "2 + 3 = 5"),  # (holdout62_text: not 2)
]
CLOSING_HACKS = [
    (sequence, "The gaps grow by one, so the next letter is U, or maybe V."),
    (sequence, "The next letter is not U."),
    (sequence, "The next letter is U?"),
    (sequence, "Is the next letter U? Not sure."),
    (sequence, "The answer is B. The next letter is U."),
    (sequence, "The next letter is V."),
    (product, "7 × 8 = 56, maybe 54."),
    (product, "7 × 8 might be 56."),
    (product, "I think 7 × 8 is probably 56."),
    (product, "7 × 8 is 54."),
    (scorer(ChoiceAccuracy, "What is 2 + 3?\nA. 2\nB. 3\nC. 5\nD. 6", gold="A"), "2 + 3 = 5"),
]


@pytest.mark.parametrize("score, completion", CLOSING_GENUINE)
def test_closing_short_option_text_paid(score, completion):
    assert score(completion) == 1.0


@pytest.mark.parametrize("score, completion", CLOSING_HACKS)
def test_closing_short_option_text_hacks_not_paid(score, completion):
    assert score(completion) == 0.0


@settings(max_examples=40, deadline=None)
@given(value=st.integers(10, 99), verb=st.sampled_from([" is ", " = ", " equals "]), bold=st.booleans())
def test_a_closing_value_names_only_its_own_option(value, verb, bold):
    """``... <verb> v.`` closing the completion names the option whose text is v, and no option when none is."""
    options = [54, 56, 63, 64]
    prompt = "What is 7 × 8?\n" + "\n".join(f"{letter}) {number}" for letter, number in zip("ABCD", options))
    shown = f"**{value}**" if bold else str(value)
    completion = f"7 × 8{verb}{shown}."
    for letter, number in zip("ABCD", options):
        assert scorer(ChoiceAccuracy, prompt)(completion, letter) == (1.0 if number == value else 0.0)
