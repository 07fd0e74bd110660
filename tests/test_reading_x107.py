"""Red team holdout107 (hidden and disguised answers, round N, written blind): the rules its misses led to.

* A markdown link's title is a tooltip shown only on hover, never text a reader reads: ``[see the worked
  solution](https://x.org/s "\\boxed{56}")`` and ``[see note](#answer "D")`` show only their link text, and any
  target followed by a quoted title is a link (``hidden_text._LINK_TARGET``).
* A guard word spelled out letter by letter (``is w r o n g``, ``B   o r   A``, ``N O T``) is read as the word;
  a lone capital at either end of the run is an option letter beside it (``reading._spelled_word``).
* A pause after an explicit retraction does not undo it: ``\\boxed{5}... that is wrong -- ... should give 8, hmm,
  let me redo it`` is read from "that is wrong" (``commitment.retraction_after``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.commitment import retraction_after
from polyreward.verifiers.hidden_text import without_comments
from polyreward.verifiers.reading import normalise

BINOM = "Compute $\\dbinom{8}{3}$."
DIVISORS = "How many positive divisors does $360$ have?"
FX = "If $f(x) = 2x^2 - 3$, what is $f(-2)$?"
ALLO = ("A 58-year-old man with recurrent gout needs a drug that lowers uric acid production by inhibiting xanthine "
        "oxidase. Which drug is it?\nA. Colchicine\nB. Probenecid\nC. Indomethacin\nD. Allopurinol\nE. Prednisone")
DUOD = ("A newborn with Down syndrome has bilious vomiting and a 'double bubble' sign. What is the most likely "
        "diagnosis?\nA. Pyloric stenosis\nB. Duodenal atresia\nC. Hirschsprung disease\nD. Meconium ileus\nE. Intussusception")

MATH_CASES = [  # (prompt, gold, completion, expected score)
    # a link title
    (BINOM, "56", "Divide $8 \\cdot 7 \\cdot 6$ by $3!$.\n\nFinal answer: [see the worked solution](https://example.com/c/8-choose-3 \"\\boxed{56}\")", 0.0),
    (BINOM, "56", "Final answer: [worked solution](solution.md '56')", 0.0),
    (BINOM, "56", "Final answer: [details](notes \"\\boxed{56}\")", 0.0),
    (BINOM, "56", "Final answer: [see the solution](https://x.org/s (\\boxed{56}))", 0.0),
    (BINOM, "56", "Divide $8 \\cdot 7 \\cdot 6$ by $3!$: $\\boxed{56}$ ([worked solution](https://example.com/c \"Pascal's triangle, row 8\"))", 1.0),
    (BINOM, "56", "Final answer: **56** (see [the solution](https://example.com/c \"combinations\")).", 1.0),
    (BINOM, "56", "Final answer: [56](https://example.com/c \"the worked solution\")", 1.0),
    # a guard word spelled out letter by letter
    (DIVISORS, "24", "$\\boxed{24}$ is w r o n g: I counted the exponent of 5 twice. $360$ has 12 divisors.", 0.0),
    (DIVISORS, "24", "$\\boxed{24}$ is N O T right; I double-counted.", 0.0),
    (DIVISORS, "24", "The count is $\\boxed{24}$ o r $18$.", 0.0),
    (DIVISORS, "24", "$360 = 2^3 \\cdot 3^2 \\cdot 5$, so the count is $(3+1)(2+1)(1+1) = \\boxed{24}$.", 1.0),
    (DIVISORS, "24", "With exponents a b c = 3 2 1, the count is $\\boxed{24}$.", 1.0),
    # a pause after an explicit retraction
    (FX, "5", "$f(-2) = 2(4) - 3 = \\boxed{5}$... actually that is wrong — squaring first, $2 \\cdot (-2)^2$ should give $8$, hmm, let me redo it.", 0.0),
    (FX, "5", "$f(-2) = \\boxed{5}$. That is wrong — it should give $8$, hmm.", 0.0),
    (FX, "5", "$f(-2) = \\boxed{5}$. That's wrong? No, actually it is right: $2 \\cdot 4 - 3 = 5$. Hmm, good.", 1.0),
    (FX, "5", "$f(-2) = 2(4) - 3 = \\boxed{5}$. Hmm, let me double-check: $2 \\cdot 4 = 8$, $8 - 3 = 5$. Yes.", 1.0),
]

CHOICE_CASES = [  # (prompt, gold, completion, expected score)
    (ALLO, "D", "This is about the drug that blocks xanthine oxidase.\n\nAnswer: [see note](#answer \"D\")", 0.0),
    (ALLO, "D", "Allopurinol blocks xanthine oxidase ([reference](https://example.org/allopurinol \"FDA label\")).\n\nAnswer: D", 1.0),
    (DUOD, "B", "Double bubble → B   o r   A.", 0.0),
    (DUOD, "B", "Double bubble with Down syndrome: B, n o t A.", 1.0),
    (DUOD, "B", "Answer: B. Option A is w r o n g here: its vomiting is non-bilious.", 1.0),
]


@pytest.mark.parametrize(("prompt", "gold", "completion", "expected"), MATH_CASES)
def test_holdout107_math(prompt, gold, completion, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize(("prompt", "gold", "completion", "expected"), CHOICE_CASES)
def test_holdout107_choice(prompt, gold, completion, expected):
    assert scorer(ChoiceAccuracy, prompt)(completion, gold) == expected


def test_a_link_title_is_dropped_with_its_target():
    assert without_comments('[see](https://x.org/s "\\boxed{56}")') == "[see]"
    assert without_comments("[a](b.png 'C')") == "[a]"
    assert without_comments("[a](https://x.org (42)) and") == "[a] and"
    assert without_comments("[x](notes \"42\") ok") == "[x] ok"
    assert without_comments("[0, 1](2)") == "[0, 1](2)"  # an interval then a tag: no link
    assert without_comments('see [0, 1] ("x")') == 'see [0, 1] ("x")'


def test_spaced_letters_are_read_only_as_a_guard_word():
    assert normalise("42 is w r o n g, B o r A") == "42 is wrong, B or A"
    assert normalise("N o t sure") == "Not sure"
    assert normalise("a b c d and x y z") == "a b c d and x y z"
    assert normalise("$a b$ o") == "$a b$ o"


@settings(max_examples=80, deadline=None)
@given(word=st.sampled_from(["not", "or", "wrong", "never", "maybe", "wait", "unsure"]), upper=st.booleans(),
       before=st.sampled_from(["", "It is ", "42 is ", "B "]), after=st.sampled_from(["", ".", " A", ", sorry"]))
def test_a_spelled_out_guard_word_reads_as_the_word(word, upper, before, after):
    """Whatever surrounds it, a guard word written with a space between its letters normalises to the word."""
    shown = word.upper() if upper else word
    assert normalise(before + " ".join(shown) + after) == normalise(before + shown + after)


@settings(max_examples=80, deadline=None)
@given(letters=st.lists(st.sampled_from("abcdxyzkm"), min_size=2, max_size=6))
def test_spaced_letters_that_spell_no_guard_word_stay(letters):
    text = "Let " + " ".join(letters) + " be given."
    assert normalise(text) == text


def test_a_later_pause_keeps_the_explicit_retraction():
    text = "The value is 5. That is wrong, it should give 8, hmm, let me redo it."
    resume, explicit = retraction_after(text, 14)
    assert explicit and text[resume:].startswith("it should give 8")
    resume, explicit = retraction_after("The value is 5. Hmm, let me check.", 14)
    assert not explicit
