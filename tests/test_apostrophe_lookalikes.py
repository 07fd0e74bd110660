"""A contraction or compound written with a look-alike mark is the contraction (text_forms.ascii_word_marks), and
small capitals are the capitals they show (text_forms.SMALL_CAPITALS).

Every reader's doubt, retraction and negation words are written with the ASCII apostrophe ("can't", "haven't",
"don't know"). GPT-4o and Claude write the right single quote instead ("can’t"), and a policy may pick any mark that
shows as one (the modifier letter apostrophe, the prime, the acute accent, a backtick). Until stop 68,
"\\boxed{42}, but I haven’t checked it." and "\\boxed{42}. I can’t be sure." were paid while their ASCII spellings
were refused. The reading now straightens an apostrophe between two letters before any reader sees the text; a quote
around a word or a prime after a digit is left alone. The same for a hyphen inside a word ("a toss\u2010up: 42" with
U+2010 was paid) and for small capitals ("I'm \u0274\u1d0f\u1d1b sure: \\boxed{42}" was paid; NFKC keeps them), and for a
guard word written with an accent ("I'm n\u00f3t sure: \\boxed{42}" was paid; reading._without_diacritics, for the words
that decide commitment only: "La r\u00e9ponse est 42" and the other languages' own words keep their accents), a guard word
stretched by repeating a letter ("Maaaybe 42"), a question asked with a mark that shows as "?" ("\u2e2e", "\u061f"),
markup that splits a guard word ("n**o**t", "n<b>o</b>t", "no<!-- -->t"), and a few words set in emphasis ("I'm *not*
sure", "I don't *know*", "I haven't **checked** it": each was paid, the emphasis breaking the phrase).

The same stop: "Can't be certain: A." had no subject before its doubt (the doubt's match began at "n't", after
"Can"), so it was read as the world's doubt and paid; "Couldn't be more certain" is certainty, not doubt; "It can't be
anything else: 42" offers no other candidate; "Can not be certain: A." (an auxiliary and no subject) is the
writer's doubt as "Cannot be certain: A." was, and so is one after a chat's discourse marker ("A, ngl not sure"); a clinical reasoning's "Hard to say: C." concludes nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.clinical_reasoning import closing_conclusion
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.reading import _COMMITMENT_WORDS, normalise
from polyreward.verifiers.text_forms import plain_text, ascii_word_marks

SILVER = "Which is the chemical symbol for silver?\nA. Ag\nB. Au\nC. Si\nD. Sn\n\nAnswer with the letter."
PRODUCT = "What is 6 times 7?"
MARKS = ["\u2019", "\u2018", "\u02bc", "\u201b", "\u2032", "\u00b4", "\uff07"]

# (completion with "'" where a mark goes, paid?)
MATH = [
    ("\\boxed{42}, but I haven't checked it.", 0.0),
    ("\\boxed{42}. I can't be sure.", 0.0),
    ("I don't know, maybe \\boxed{42}", 0.0),
    ("I wouldn't bet on it, but \\boxed{42}", 0.0),
    ("\\boxed{42} (I don't trust this)", 0.0),
    ("It's 42, but I'm not confident.", 0.0),
    ("\\boxed{42}. Wait, that's wrong.", 0.0),
    ("It's \\boxed{42}.", 1.0),
    ("The answer's 42.", 1.0),
    ("I'm sure it's \\boxed{42}.", 1.0),
    ("Here's the answer: \\boxed{42}", 1.0),
    ("I'd say 42, and I'm confident.", 1.0),
    ("It can't be anything else: 42.", 1.0),
    ("6 × 7 = 42, and I've checked it twice. \\boxed{42}", 1.0),
]

CHOICE = [
    ("Can't be certain: A.", 0.0),
    ("Can't be sure: A.", 0.0),
    ("Can't be certain, but A.", 0.0),
    ("Can't be totally certain: A.", 0.0),
    ("I can't be certain, but A.", 0.0),
    ("Can not be certain: A.", 0.0),  # no subject but the auxiliary: the writer's doubt (clauses.WRITER)
    ("Could not be sure, but A.", 0.0),
    ("Can not be more certain: A.", 1.0),
    ("A, ngl not sure", 0.0),  # a chat's discourse marker is no subject (clauses.WRITER)
    ("A, tbh not sure", 0.0),
    ("A, um, not sure", 0.0),
    ("A, lol. Super sure.", 1.0),
    ("Couldn't be more certain: A.", 1.0),
    ("I couldn't be more sure: A.", 1.0),
    ("I can't be more certain: the answer is A.", 1.0),
    ("It can't be anything else: A.", 1.0),
    ("Silver's symbol is Ag, so the answer is A.", 1.0),
]


@pytest.mark.parametrize("mark", ["'"] + MARKS)
@pytest.mark.parametrize(("completion", "expected"), MATH)
def test_math_reads_every_apostrophe(completion, expected, mark):
    assert scorer(MathAccuracy, PRODUCT)(completion.replace("'", mark), "42") == expected


@pytest.mark.parametrize("mark", ["'", "\u2019", "\u02bc"])
@pytest.mark.parametrize(("completion", "expected"), CHOICE)
def test_choice_reads_every_apostrophe(completion, expected, mark):
    assert scorer(ChoiceAccuracy, SILVER)(completion.replace("'", mark), "A") == expected


@pytest.mark.parametrize(("completion", "expected"), [
    ("It's a toss\u2010up: 42.", 0.0),
    ("Fifty\u2011fifty: \\boxed{42}", 0.0),
    ("\\boxed{42}, but I'm second\u2012guessing it.", 0.0),
    ("I'm \u0274\u1d0f\u1d1b sure: \\boxed{42}", 0.0),
    ("It is 42 \u1d0f\u0280 so.", 0.0),
    ("\u1d1b\u029c\u1d07 \u1d00\u0274s\u1d21\u1d07\u0280 \u026as 42", 1.0),
    ("A well\u2010known identity gives 6 \u00d7 7 = \\boxed{42}.", 1.0),
])
def test_hyphens_and_small_capitals(completion, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, "42") == expected


@pytest.mark.parametrize(("completion", "expected"), [
    ("Answer: \u1d00", 1.0),
    ("\u0274\u1d0f\u1d1b \u1d00", 0.0),
    ("The answer is \u1d00 \u1d0f\u0280 B.", 0.0),
])
def test_small_capital_letters_are_options(completion, expected):
    assert scorer(ChoiceAccuracy, SILVER)(completion, "A") == expected


@pytest.mark.parametrize(("completion", "expected"), [
    ("I'm n\u00f3t sure: \\boxed{42}", 0.0),
    ("I'm not s\u00fare: \\boxed{42}", 0.0),
    ("\\boxed{42}. W\u00e1it, th\u00e1t's wr\u00f3ng; it's 45.", 0.0),
    ("\\boxed{42} \u00f6r \\boxed{45}", 0.0),
    ("\\boxed{42}. W\u00e1it, let me check: 6 \u00b7 7 = 42.", 1.0),
    ("La r\u00e9ponse est 42.", 1.0),
    ("\\boxed{42}, a na\u00efve count but right.", 1.0),
    ("R\u00e9sum\u00e9 of the work: 6 \u00d7 7 = \\boxed{42}", 1.0),
])
def test_accented_guard_words(completion, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, "42") == expected


@pytest.mark.parametrize(("completion", "expected"), [
    ("Maaaybe 42.", 0.0),
    ("Maybeee \\boxed{42}", 0.0),
    ("\\boxed{42}. Waaait, that's wrooong: 45.", 0.0),
    ("Gueeesss: \\boxed{42}", 0.0),
    ("Sooo the answer is \\boxed{42}!", 1.0),
    ("Yesss, \\boxed{42}!!!", 1.0),
    ("Hmmm, 6 \u00d7 7 = \\boxed{42}.", 1.0),
    ("Is it \\boxed{42}\u2e2e", 0.0),
    ("Is it 42\u0294", 0.0),
    ("\u0647\u0644 \u0647\u0648 42\u061f", 0.0),
    ("The glottal stop \u0294 is a letter; 6 \u00d7 7 = \\boxed{42}", 1.0),
])
def test_stretched_guard_words_and_question_marks(completion, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, "42") == expected


@settings(max_examples=150, deadline=None)
@given(word=st.sampled_from(["maybe", "wait", "wrong", "guess", "nope", "perhaps"]), stretch=st.integers(3, 9),
       at=st.integers(0, 10))
def test_any_stretch_of_a_guard_word_is_read(word, stretch, at):
    at %= len(word)
    stretched = word[:at] + word[at] * stretch + word[at + 1:]
    assert normalise(f"{stretched} 42").split()[0] == word


@pytest.mark.parametrize(("completion", "expected"), [
    ("I'm n**o**t sure: \\boxed{42}", 0.0),  # markup splitting a guard word (reading._joined_word)
    ("I'm n<b>o</b>t sure: \\boxed{42}", 0.0),
    ("I'm no<!-- -->t sure: \\boxed{42}", 0.0),
    ("I'm not sur<span>e</span>: \\boxed{42}", 0.0),
    ("I'm *not* sure: \\boxed{42}", 0.0),  # words in emphasis read as words (reading._unemphasised)
    ("I am __not__ sure: \\boxed{42}", 0.0),
    ("I'm `not` sure: \\boxed{42}", 0.0),
    ("**Not** sure: \\boxed{42}", 0.0),
    ("I don't *know*: \\boxed{42}", 0.0),
    ("\\boxed{42}, but I haven't **checked** it.", 0.0),
    ("\\boxed{42} (**not** sure)", 0.0),
    ("**Answer**: 42", 1.0),
    ("**Final answer:** \\boxed{42}", 1.0),
    ("The answer is **42**.", 1.0),
    ("I'm *quite* sure: \\boxed{42}", 1.0),
    ("I *might* be wrong, but \\boxed{42}", 0.0),
    ("March 30 is a **Tuesday**, and 6 \u00d7 7 = **forty-two**: \\boxed{42}", 1.0),
    ("6 \u00d7 7 = 42, *not* 48. \\boxed{42}", 1.0),
])
def test_markup_inside_and_around_words(completion, expected):
    assert scorer(MathAccuracy, PRODUCT)(completion, "42") == expected


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, len(MATH) - 1), marks=st.sampled_from(["*", "**", "_", "__"]), at=st.integers(0, 30))
def test_emphasis_on_a_word_never_changes_the_score(index, marks, at):
    completion, _ = MATH[index]
    words = completion.split(" ")
    at %= len(words)
    if not words[at].replace("'", "").isalpha() or words[at].lower() not in _COMMITMENT_WORDS:
        return  # emphasis elsewhere may single out the answer ("a **Tuesday**") and is kept
    words[at] = f"{marks}{words[at]}{marks}"
    score = scorer(MathAccuracy, PRODUCT)
    assert score(" ".join(words), "42") == score(completion, "42")


def test_backtick_only_in_a_contraction():
    assert ascii_word_marks("I haven`t checked; I`m unsure") == "I haven't checked; I'm unsure"
    assert ascii_word_marks("use `int`s and `x`y") == "use `int`s and `x`y"  # code spans stay closed
    assert scorer(MathAccuracy, PRODUCT)("\\boxed{42}, but I haven`t checked it.", "42") == 0.0


@pytest.mark.parametrize("text", ["\u201842\u2019", "5\u203211\u2033", "students\u2019 answers", "\u2018Tis so", "f\u2032(x) = 2x",
                                  "pages 3\u20107", "x\u2010 2"])
def test_quotes_and_primes_left_alone(text):
    assert ascii_word_marks(text) == text


def test_both_normalisers_straighten():
    assert "can't" in normalise("I can\u2019t be sure") and "can't" in plain_text("I can\u2019t be sure")
    assert "I'm" in plain_text("I\u00b4m not sure")  # before NFKC, which would make the accent a space and a mark


OPTIONS = {"A": "Central diabetes insipidus", "B": "Primary polydipsia", "C": "Nephrogenic diabetes insipidus",
           "D": "SIADH"}


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Hard to say: C.", None),
    ("Hard to tell, really: C.", None),
    ("My pick, though I can\u2019t be sure: C.", None),
    ("My best guess here: C.", None),
    ("I agree with the resident: C.", "C"),
    ("Putting it all together: C.", "C"),
    ("The note's diagnosis is mine: A.", "A"),
])
def test_clinical_colon_conclusion_is_not_a_hedge(sentence, expected):
    assert closing_conclusion(sentence, OPTIONS) == expected


@settings(max_examples=120, deadline=None)
@given(mark=st.sampled_from(MARKS), index=st.integers(0, len(MATH) - 1))
def test_any_mark_scores_as_the_ascii_apostrophe(mark, index):
    completion, _ = MATH[index]
    score = scorer(MathAccuracy, PRODUCT)
    assert score(completion.replace("'", mark), "42") == score(completion, "42")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 '`-") + MARKS + ["\u2010", "\u2011"]), max_size=40))
def test_straightening_changes_only_marks_between_letters(text):
    out = ascii_word_marks(text)
    assert len(out) == len(text)
    for before, after in zip(text, out):
        assert before == after or after in "'-"
    assert ascii_word_marks(out) == out
