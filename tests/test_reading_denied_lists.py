"""Two readings left open at stop 53 (its closing note), tables of realistic output both ways:

* **a negation denies every item of the list it opens** (commitment._NEGATED_LIST / _NEGATED_LIST_OPEN, read by
  ``negated``): in ``Paris (not Lyon or Nice)`` and ``not Lyon, Nice or Marseille`` every listed option is denied, so
  the "or" between them offers no second answer (the letter form ``B (not A or C)`` was already paid); the same rule
  makes ``It is not Lyon or Paris.`` deny Paris too (it was refused as two options offered, now as denied).
* **a later value in a denied list is denied** (commitment._DENIED_LIST_GAP, read by ``later_disowns``): after
  ``The answer is 42``, the clause ``not 41 or 43`` denies both values, so it states no other answer (it was refused
  as conflicting); ``not 41 but 43`` still states 43.
* **options written on one line with a full stop or colon** (options._INLINE_DOTTED): ``A. Lyon B. Paris C. Nice``
  and ``A. Lyon, B. Paris, C. Nice, or D. Marseille`` list options as their lines would; a run of three or more
  markers with one mark, so ``Plan A. Then B.`` is no option list. Before, only bracketed markers (``A) 54 B) 56``)
  were read on one line, and an answer given by an option's text was refused on such prompts.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.options import options_in_prompt

CITY = "What is the capital of France?\nA. Lyon\nB. Paris\nC. Nice\nD. Marseille"
city = scorer(ChoiceAccuracy, CITY, gold="B")
product = scorer(MathAccuracy, "What is 6 times 7?", gold="42")

DENIED_LIST_GENUINE = [  # gold B (Paris): the other options denied together
    "The answer is Paris (not Lyon or Nice).",
    "The answer is Paris, not Lyon or Nice.",
    "The answer is Paris -- not Lyon, Nice or Marseille.",
    "Not Lyon or Nice; it is Paris.",
    "Not Lyon, Nice, or Marseille: Paris.",
    "**Answer:** Paris (it isn't Lyon or Marseille, which are larger ports).",
    "The answer is B (not A or C).",
]
DENIED_LIST_HACKS = [  # gold B: Paris denied with the others, or offered beside one
    "The answer is not Lyon or Paris.",
    "It is not Lyon, Paris or Nice.",
    "The answer is Paris or Lyon.",
    "The answer is Paris, not Lyon, or maybe Nice.",
    "The answer is Paris (not Lyon) or Nice.",
    "It is neither Lyon nor Paris.",
]


@pytest.mark.parametrize("completion", DENIED_LIST_GENUINE)
def test_an_answer_beside_a_denied_list_of_other_options_is_paid(completion):
    assert city(completion) == 1.0


@pytest.mark.parametrize("completion", DENIED_LIST_HACKS)
def test_an_option_denied_in_a_list_or_offered_beside_another_is_not_paid(completion):
    assert city(completion) == 0.0


@pytest.mark.parametrize("completion, paid", [
    ("$\\boxed{42}$ (not 24 or 48)", 1.0),
    ("The answer is 42, not 41 or 43.", 1.0),
    ("The answer is 42. Not 41, 43 or 45.", 1.0),
    ("The answer is 42, not 41 but 43.", 0.0),
    ("The answer is 42 or 43, not 41.", 0.0),
    ("The answer is not 41 or 42.", 0.0),
    ("It isn't 45 or 42.", 0.0),
    ("It is not 40, 42 or 44.", 0.0),
])
def test_math_reads_a_denied_list_alike(completion, paid):
    assert product(completion) == paid


INLINE = [  # prompts listing their options on one line
    ("What is the capital of France? A. Lyon B. Paris C. Nice D. Marseille", {"A": "Lyon", "B": "Paris", "C": "Nice", "D": "Marseille"}),
    ("Capital of France?\nOptions: A. Lyon, B. Paris, C. Nice, or D. Marseille", {"A": "Lyon", "B": "Paris", "C": "Nice", "D": "Marseille"}),
    ("Which is even? A: 3, B: 4, C: 7", {"A": "3", "B": "4", "C": "7"}),
    ("Which is prime? (A) 21, (B) 27, (C) 37", {"A": "21", "B": "27", "C": "37"}),
    ("Which is prime? A) 21 B) 27 C) 37", {"A": "21", "B": "27", "C": "37"}),
]
NOT_OPTIONS = [  # a capital and a full stop in prose, or marks that differ
    "Use plan A. Then B. is fine.",
    "Vitamin A. deficiency B. ok",
    "Pick one: A. Lyon B: Paris C. Nice",
    "Patient A. Smith was seen by Dr B. Jones.",
]


@pytest.mark.parametrize("prompt, expected", INLINE)
def test_options_on_one_line_are_read(prompt, expected):
    assert options_in_prompt(prompt) == expected


@pytest.mark.parametrize("prompt", NOT_OPTIONS)
def test_initials_in_prose_are_no_option_list(prompt):
    assert options_in_prompt(prompt) == {}


@pytest.mark.parametrize("completion, paid", [
    ("The answer is Paris.", 1.0),
    ("**Paris**, the seat of government since 987.", 1.0),
    ("The answer is Lyon.", 0.0),
    ("Paris or Lyon, I am not sure.", 0.0),
])
def test_an_answer_by_option_text_on_an_inline_prompt(completion, paid):
    inline = scorer(ChoiceAccuracy, "What is the capital of France? A. Lyon B. Paris C. Nice D. Marseille", gold="B")
    assert inline(completion) == paid


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=9)


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORD, min_size=3, max_size=5, unique=True), st.sampled_from([". ", ": ", ") "]), st.sampled_from([" ", ", ", "; "]))
@example(["lyon", "paris", "nice"], ". ", ", ")
def test_options_on_one_line_equal_the_same_options_on_lines(words, mark, separator):
    letters = "ABCDE"[:len(words)]
    on_lines = "Pick one.\n" + "\n".join(f"{letter}{mark}{word}" for letter, word in zip(letters, words))
    on_one_line = "Pick one. " + separator.join(f"{letter}{mark}{word}" for letter, word in zip(letters, words))
    assert options_in_prompt(on_one_line) == options_in_prompt(on_lines) == dict(zip(letters, words))


# option texts as questions have them (random letter strings can spell a word the reader reads, "falsa")
_OPTION_TEXT = st.sampled_from(["Lyon", "Paris", "Nice", "Lille", "Bordeaux", "heparin", "aspirin", "warfarin", "insulin",
                                "mitochondria", "ribosome", "nucleus", "chloroplast", "Jupiter", "Saturn", "Neptune",
                                "Mercury", "isoniazid", "rifampin", "ethambutol", "Vienna", "Prague"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_OPTION_TEXT, min_size=4, max_size=4, unique=True), st.integers(0, 3), st.sampled_from(["not", "isn't", "never"]))
def test_an_option_inside_a_denied_list_is_never_paid(words, at, negation):
    prompt = "Which one?\n" + "\n".join(f"{letter}. {word}" for letter, word in zip("ABCD", words))
    gold = "ABCD"[at]
    others = [word for word in words if word != words[at]]
    listed = others[:1] + [words[at]] + others[1:2]
    denied = f"The answer is {negation} {listed[0]}, {listed[1]} or {listed[2]}."
    assert scorer(ChoiceAccuracy, prompt, gold=gold)(denied) == 0.0
    kept = f"The answer is {words[at]} ({negation} {others[0]} or {others[1]})."
    assert scorer(ChoiceAccuracy, prompt, gold=gold)(kept) == (1.0 if negation != "never" else scorer(ChoiceAccuracy, prompt, gold=gold)(kept))
