"""What ``holdout97`` (written blind: multiple choice as model families and chat UIs format it -- option text with or
without its letter, Roman-numeral combinations, options that are numbers or letters) showed, tables of realistic
output both ways:

* **a lone letter closing a sentence of prose ends its clause** (``option_letters._CLAUSE_END_LETTERS``): "..., which
  would make it B. I can't commit either way." states B at its clause's end and then declines, where the period after
  a capital was read as an option line's ("C. Warfarin ..."), which glued the two sentences into one clause in which
  neither was read; an option line and the answer's own sentence ("is C. Warfarin, ...") are read as before.
* **a negated imperative to take the letter withdraws it** (``option_letters.withdrawn_in_clause``): "Don't count C
  yet", "do not submit (C)", "No marques la C todavía", "Ne compte pas C"; advice that keeps it ("don't count C out",
  "don't pick C just because ...") and the same words about another option stay paid.
* **two glossed options joined by "or"** (``glossed_alternatives``): "14 if you go left to right (option A) or 11 with
  the usual order of operations (option B)" offers two answers; the "or" stands before what the chosen letter
  glosses, not before the letter. One glossed option, or a rejected one beside it, is still the answer.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.glossed_alternatives import glossed_alternative
from polyreward.verifiers.option_letters import withdrawn_in_clause

PRIME = "What is the smallest prime number?\nA. 0\nB. 1\nC. 2\nD. 3"
prime = scorer(ChoiceAccuracy, PRIME, gold="C")
PRIMES = ("Which of the following numbers are prime?\nI. 15\nII. 17\nIII. 19\n\nA. I only\nB. II only\nC. II and III only\n"
          "D. I and III only\nE. I, II and III")
primes = scorer(ChoiceAccuracy, PRIMES, gold="C")
ARITH = "What is the value of 3 + 4 × 2?\nA. 14\nB. 11\nC. 10\nD. 9"
arith = scorer(ChoiceAccuracy, ARITH, gold="B")
VITAMIN = "Which vitamin is produced in human skin on exposure to sunlight?\nA. Vitamin A\nB. Vitamin B12\nC. Vitamin C\nD. Vitamin D"
vitamin = scorer(ChoiceAccuracy, VITAMIN, gold="D")


@pytest.mark.parametrize("completion, paid", [
    ("Answer: C. Then again, some older texts counted 1 as prime, which would make it B. I can't commit either way.", 0.0),
    ("Answer: C. Then again, some older texts counted 1 as prime, which would make it B. Either way.", 0.0),
    ("Answer: C. Some older texts counted 1 as prime, which would make it B. I can't commit to either.", 0.0),
    ("Answer: C. Under the old convention it would be B. I'll leave the choice to you.", 0.0),
    ("Answer: C. Some older texts counted 1 as prime, so it would be B. I'm torn.", 0.0),
    ("Answer: C. 1 has only one divisor, so it is not prime, which rules out B. The smallest prime is 2.", 1.0),
    ("1 is not prime by definition, which rules out B. Then 2 is the smallest prime.\n\nAnswer: C", 1.0),
    ("Answer: C. Some old texts counted 1 as prime, but not since the 20th century, so not B. It is 2.", 1.0),
    ("The answer is C. Two is the only even prime.", 1.0),
])
def test_a_letter_that_closes_a_sentence_ends_its_clause(completion, paid):
    assert prime(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("Vitamin D. It is made in the skin when UVB light converts 7-dehydrocholesterol.\n\nAnswer: D", 1.0),
    ("The answer is D. Vitamin D is made in the skin under UVB light.", 1.0),
    ("D. Vitamin D: the skin makes it under UVB light.", 1.0),
    ("Answer: D. It's C, actually. I mixed them up.", 0.0),
    ("Answer: D. Hmm, that would make it C. I'm not sure.", 0.0),
])
def test_an_option_line_and_the_answers_own_sentence_are_read_as_before(completion, paid):
    assert vitamin(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("C. II and III only.\n\nWait, I might have slipped on 17 or 19. Don't count C yet; I'd need to recheck both before answering.", 0.0),
    ("C. II and III only.\n\nDon't count C.", 0.0),
    ("C. II and III only. Don't submit (C) yet.", 0.0),
    ("**Answer: C**\n\nDo not go with option C until I've rechecked 17.", 0.0),
    ("Answer: C. Never mark C on a guess like this one.", 0.0),
    ("Respuesta: C. No marques la C todavía, tengo que revisar el 17.", 0.0),
    ("Réponse : C. Ne compte pas C pour l'instant, je dois vérifier 19.", 0.0),
    ("Answer: C. Don't count C out just because it leaves out I.", 1.0),
    ("Answer: C. Don't pick C just because it looks familiar: 15 = 3 × 5 is composite, while 17 and 19 are prime.", 1.0),
    ("Answer: C. Don't pick E: 15 = 3 × 5 is composite.", 1.0),
    ("Don't pick E, since 15 = 3 × 5. The answer is C.", 1.0),
    ("Don't count 15: it is 3 × 5. II and III only, so C.", 1.0),
])
def test_a_negated_imperative_to_take_the_letter(completion, paid):
    assert primes(completion) == paid


@pytest.mark.parametrize("completion, paid", [
    ("It's 14 if you go left to right (option A) or 11 with the usual order of operations (option B). Depends on the convention you intend.", 0.0),
    ("It's 14 (A) or 11 (B).", 0.0),
    ("It's 11 (option B) or 14 (option A).", 0.0),
    ("Left to right gives 14, option A, or with PEMDAS 11, option B.", 0.0),
    ("Es 14 (opción A) o 11 (opción B), según la convención.", 0.0),
    ("C'est 14 (A) ou 11 (B) selon la convention.", 0.0),
    ("3 + 4 × 2 = 3 + 8 = 11 (B).", 1.0),
    ("Not 14 (A): multiplication comes before addition, so 3 + 8 = 11 (B).", 1.0),
    ("14 (A) is the left-to-right trap; the correct value is 11 (B).", 1.0),
    ("If you forget the order of operations you get 14 (A) or 10 (C); done correctly it's 11 (B).", 1.0),
    ("Multiplication first: 3 + 8 = 11 (B). Going left to right would give 14 (A), the usual trap.\n\nAnswer: B", 1.0),
    ("| Step | Result |\n|---|---|\n| 4 × 2 | 8 |\n| 3 + 8 | 11 |\n\n11 is option **B**.", 1.0),
])
def test_two_glossed_options_joined_by_or(completion, paid):
    assert arith(completion) == paid


def test_glossed_alternative_reads_the_letter_of_each_gloss():
    text = "It's 14 (A) or 11 (B)."
    assert glossed_alternative(text, text.index("B"))
    assert not glossed_alternative(text, text.index("A"))  # nothing joined before the first one
    same = "It's 11 (B) or eleven (B)."
    assert not glossed_alternative(same, same.rindex("B"))  # one option glossed twice
    assert not glossed_alternative("It's 14 (A) and 11 (B).", 19)


@given(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"), st.integers(0, 999), st.integers(0, 999),
       st.sampled_from(["({})", "(option {})", "[{}]"]), st.sampled_from([" or ", ", or ", " or maybe ", " ou "]))
def test_two_different_glossed_letters_joined_by_or_are_alternatives(first, second, x, y, gloss, join):
    text = f"It's {x} {gloss.format(first)}{join}{y} {gloss.format(second)}."
    at = text.rindex(second)
    assert glossed_alternative(text, at) == (first != second)


@given(st.text(alphabet="ABCabc ()[],.;orptin\n0123456789", max_size=120), st.integers(0, 130))
def test_glossed_alternative_never_fails_and_reads_only_a_capital(text, at):
    at = min(at, len(text))
    found = glossed_alternative(text, at)
    assert not found or text[at].isupper()


@given(st.sampled_from(["count", "take", "submit", "pick", "go with", "mark"]), st.sampled_from(["Don't", "Do not", "Never"]),
       st.sampled_from(["C", "(C)", "option C"]), st.sampled_from([" yet.", ".", " until I recheck 17.", " for now."]))
def test_a_negated_imperative_before_the_letter_withdraws_it(verb, negation, letter, tail):
    text = f"Answer: C. {negation} {verb} {letter}{tail}"
    at = text.rindex("C") - (1 if letter == "(C)" else 0)
    assert withdrawn_in_clause(text, at)
    kept = f"Answer: C. {negation} {verb} {letter} out just because it looks odd."
    assert not withdrawn_in_clause(kept, kept.rindex("C") - (1 if letter == "(C)" else 0))
