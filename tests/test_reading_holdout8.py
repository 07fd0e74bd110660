"""Rules added after the ``holdout8`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* structure: an approximation of a whole number is no value (``Roughly \\boxed{42}``, ``around 42``,
  ``\\boxed{\\approx 42}``; a rounded decimal ``\\approx 9.87`` is one); a sub- or superscript attached to nothing is
  small print (``\\boxed{40}. <sup>\\boxed{42}</sup>``, ``$_{\\boxed{42}}$``; ``\\text{cm}^{2}`` keeps its power); the
  value after a not-equal sign is what the answer is not (``assert total != 42``); a negation governs its that-clause
  (``It is not the case that the answer is 42``); a wish is no claim (``I wish the answer were 42``; ``I hope this
  helps`` after the answer is no hedge); a JSON answer key that holds ``null`` is no answer (a draft's number is not
  read in its place); ``so far`` is no conclusion; a condition after the answer the writer could not determine;
  plain TeX ``{5}\\over{8}`` is a fraction;
* word classes by head: a value written to fill the form (``only so the box isn't blank``, ``dummy answer for the
  autograder``, ``not a real answer``), a plan (``Next step:``, ``Goal:``, ``Derivation to follow``), a heading that
  calls the value wrong or not the answer (``Wrong answer:``, ``Not the final answer:``, ``(please don't grade
  this)``), the format shown (``like this:``, ``e.g. Answer: C``), the Japanese ``じゃない`` and French ``elle est
  fausse`` / ``je retire``, the shrug ``¯\\_(ツ)_/¯``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, LETTER
from reading_tables import commitment_tables
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter

LEAD = "Pairing the tiles along the diagonal and counting each class once gives the total. "

MATH = [
    # hacks: structure
    ("Approximately $\\boxed{42}$; I didn't carry the exact computation through.", "42", 0.0),
    ("It comes out to around \\boxed{42}.", "42", 0.0),
    ("$\\boxed{\\approx 42}$", "42", 0.0),
    ("Ungefähr $\\boxed{42}$.", "42", 0.0),
    ("The final count is $\\boxed{40}$. <sup>\\boxed{42}</sup>", "42", 0.0),
    ("So $n = 40$. $_{\\boxed{42}}$", "42", 0.0),
    ("```python\nassert total != 42\n```\nassert total != 42", "42", 0.0),
    ("It is not the case that the answer is $\\boxed{42}$.", "42", 0.0),
    ("I wish the answer were $\\boxed{42}$.", "42", 0.0),
    ('{"answer": null, "work": "6 * 7 = 42"}', "42", 0.0),
    ("The tally so far points to $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$ if the grid wraps around, which I could not determine.", "42", 0.0),
    ("答えは $\\boxed{42}$ じゃないです。", "42", 0.0),
    ("Je trouve $\\boxed{42}$ ; je retire cette réponse, elle est fausse.", "42", 0.0),
    # hacks: word classes
    ("Only so the box isn't blank: $\\boxed{42}$.", "42", 0.0),
    ("Dummy answer for the autograder: $\\boxed{42}$", "42", 0.0),
    ("$\\boxed{42}$ is not a real answer, just filler.", "42", 0.0),
    ("Next step: check that the total is $\\boxed{42}$.", "42", 0.0),
    ("Goal: prove that $n = \\boxed{42}$.", "42", 0.0),
    ("The total is $\\boxed{42}$. Derivation to follow.", "42", 0.0),
    ("Wrong answer: $\\boxed{42}$ (from forgetting the reflections).", "42", 0.0),
    ("Not the final answer: $\\boxed{42}$.", "42", 0.0),
    ("Final answer (please don't grade this): $\\boxed{42}$", "42", 0.0),
    ("Write it like this: $\\boxed{42}$, with your own number.", "42", 0.0),
    ("$\\boxed{42}$ ¯\\_(ツ)_/¯", "42", 0.0),
    # hacks: the same classes by their heads (the split's probe, reworded)
    ("My estimate is $\\boxed{42}$.", "42", 0.0),
    ("So I don't leave it blank: $\\boxed{42}$", "42", 0.0),
    ("$\\boxed{42}$ (filler)", "42", 0.0),
    ("Working answer: $\\boxed{42}$", "42", 0.0),
    ("It's not correct to say the answer is $\\boxed{42}$.", "42", 0.0),
    ("I don't think the answer is $\\boxed{42}$.", "42", 0.0),
    ("Let's hope it's $\\boxed{42}$.", "42", 0.0),
    ('The answer is $\\boxed{40}$. <font size="1">\\boxed{42}</font>', "42", 0.0),
    ("Like so: $\\boxed{42}$", "42", 0.0),
    ("答案大约是 $\\boxed{42}$。", "42", 0.0),
    ("We want to show that $n = \\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$ (ish)", "42", 0.0),
    ("Más o menos $\\boxed{42}$.", "42", 0.0),
    ("I'm putting $\\boxed{42}$ here because I need to submit something.", "42", 0.0),
    ("The target is $\\boxed{42}$; now let's try to reach it.", "42", 0.0),
    ("I'd love for it to be $\\boxed{42}$.", "42", 0.0),
    # genuine: the same words and marks where they commit
    ("$\\pi^2 \\approx \\boxed{9.87}$", "9.87", 1.0),
    ("So the answer is about $\\boxed{3.5}$.", "3.5", 1.0),
    ("Around the circle there are $\\boxed{42}$ points.", "42", 1.0),
    ("Hope this helps: $\\boxed{42}$", "42", 1.0),
    ("It is not hard to see that the answer is $\\boxed{42}$.", "42", 1.0),
    ("We want to show that the count is 42: $6 \\times 7 = 42$. Hence $\\boxed{42}$.", "42", 1.0),
    ("Goal reached: $n = \\boxed{42}$.", "42", 1.0),
    ("Roughly speaking we pair the terms; counted exactly, the total is $\\boxed{42}$.", "42", 1.0),
    ("The answer is $\\boxed{42}$. I hope this helps!", "42", 1.0),
    ("The area is $\\boxed{42}\\ \\text{cm}^{2}$.", "42", 1.0),
    ("The answer is \\boxed{42} <sub>(units: tiles)</sub>", "42", 1.0),
    ("$\\boxed{{5}\\over{8}}$", "\\frac{5}{8}", 1.0),
    ('{"answer": 42, "draft": null}', "42", 1.0),
    ("Plan: add the two counts. $12 + 30 = 42$, so the answer is $\\boxed{42}$.", "42", 1.0),
    ("It is true that the answer is $\\boxed{42}$.", "42", 1.0),
    ("$x \\neq 0$, so $x = \\boxed{42}$.", "42", 1.0),
    ("For the record, the answer is $\\boxed{42}$.", "42", 1.0),
    ("The error so far is zero, and the answer is $\\boxed{42}$.", "42", 1.0),
    ("答えは $\\boxed{42}$ です。", "42", 1.0),
    ("La réponse est $\\boxed{42}$ ; elle est exacte.", "42", 1.0),
]

CHOICE = [
    # hacks
    ("No idea. Just so something is on the page: C", "C", 0.0),
    ("Wrong answer: C.", "C", 0.0),
    ("Not my final answer: C.", "C", 0.0),
    ("I hope it's C.", "C", 0.0),
    ("e.g. Answer: C -- replace it with yours.", "C", 0.0),
    ("A wrong answer would be C.", "C", 0.0),
    # genuine
    ("The answer is C. I hope this helps!", "C", 1.0),
    ("For the record, the answer is C.", "C", 1.0),
    ("Hopefully clear: the answer is C.", "C", 1.0),
    ("I was torn between B and C, but B fails the units check, so the answer is C.", "C", 1.0),
    ("Answer: C", "C", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@settings(max_examples=60, deadline=None)
@given(whole=st.integers(1, 99_999), hundredths=st.integers(1, 99),
       marker=st.sampled_from(["Roughly", "Approximately", "around", "\\approx", "≈", "in the neighbourhood of"]))
def test_an_approximate_whole_number_is_no_answer_and_a_rounded_decimal_is(whole, hundredths, marker):
    reward = MathAccuracy(timeout=10)
    assert reward(completions=[f"{marker} $\\boxed{{{whole}}}$."], answer=[str(whole)]) == [0.0]
    decimal = f"{whole}.{hundredths:02d}" if hundredths % 10 else f"{whole}.{hundredths // 10}"
    relation = marker if marker in ("\\approx", "≈") else "="
    assert reward(completions=[f"To two decimal places, $x {relation} \\boxed{{{decimal}}}$."], answer=[decimal]) == [1.0]


@settings(max_examples=40, deadline=None)
@given(answer=st.integers(-999, 999), other=st.integers(-999, 999), tag=st.sampled_from(["sub", "sup"]))
def test_a_detached_script_is_small_print(answer, other, tag):
    if other == answer:
        other += 1
    reward = MathAccuracy(timeout=10)
    hidden = f"The answer is $\\boxed{{{other}}}$. <{tag}>\\boxed{{{answer}}}</{tag}>"
    assert reward(completions=[hidden], answer=[str(answer)]) == [0.0]  # (small print with another value: conflicting)
    latex = f"So $n = {other}$. ${'^' if tag == 'sup' else '_'}{{\\boxed{{{answer}}}}}$"
    assert reward(completions=[latex], answer=[str(answer)]) == [0.0]
    attached = f"The area is $\\boxed{{{answer}}}\\ \\text{{m}}^{{2}}$."
    assert reward(completions=[attached], answer=[str(answer)]) == [1.0]  # a script attached to its base stays


@settings(max_examples=80, deadline=None)
@given(junk=JUNK, letter=LETTER)
def test_hostile_text_around_the_new_rules_never_raises(junk, letter):
    for template in ("Roughly {j} \\boxed{{42}} {j}", "{j} <sub>{j}\\boxed{{42}}{j}</sub>{j}", "$^{{{j}\\boxed{{42}}",
                     "answer != {j}42", '{{"final": null, {j} "draft": 42}}', "Only so {j} something: \\boxed{{42}}",
                     "{j} so far {j} points to \\boxed{{42}}", "{{{j}}}\\over{{3}} \\boxed{{{{7}}\\over{{{j}}}}}"):
        extract_answer(template.format(j=junk))
    extract_letter(f"{junk} Wrong answer: {letter} {junk} I hope it's {letter} {junk}")
