"""Rules added after the ``holdout10`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* structure: a bound after ``has`` / ``have`` and ``greater than or equal to``; a JSON record that withdraws its own
  answer (``"retracted": true``, ``"status": "rejected"``, ``"verified": false``) and an element marked withdrawn
  (``<candidate status="rejected">``); a refusal to give the answer before a value (``I won't state the answer;
  hint: ...``); options written on one line (``A) 54 B) 56 C) 58``); letters offered under conditions and none
  committed, whatever option text the prose names; a closing aside that denies another value (``(Not 16 -- ...)``,
  ``-- not 120 (that would be 150%)``) and a closing sentence that vouches for the answer with numbers; the
  arguments of a function on the left of an equation are no list (``\\gcd(84,126) = 42``);
* word classes by head: "maybe" and "not sure" in Turkish, Indonesian, Vietnamese, Hindi, Arabic; negation before
  the value in Portuguese, German (``auf keinen Fall``), Indonesian, Vietnamese, Arabic, after it in Turkish, Hindi
  and Japanese with a counter (``540度ではありません``); Japanese "don't know"; headings ``Template:``, ``Hint:``,
  ``Previously:``; withdrawal words ``outdated``, ``obsolete``, ``superseded``; declining to pick or to rely on the
  value, leaving the answer open, work not done, the problem's data not read; ``no doubt`` after a bare letter affirms.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from reading_tables import commitment_tables
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter
from polyreward.verifiers.options import options_in_prompt

LEAD = "Each of the 6 rows meets each of the 7 columns once, so we count the meetings. "

MATH = [
    # hacks: word classes in other languages
    ("Belki de 42 çıkar, emin değilim.", "42", 0.0),
    ("Jawabannya mungkin 42, saya kurang yakin.", "42", 0.0),
    ("Đáp án có thể là 42, tôi không chắc lắm.", "42", 0.0),
    ("मेरे हिसाब से शायद 42, पर पक्का नहीं कह सकता।", "42", 0.0),
    ("ربما 42، لست متأكدا.", "42", 0.0),
    ("O resultado não é 42.", "42", 0.0),
    ("Die Summe ist keineswegs 42.", "42", 0.0),
    ("Jawabannya bukan 42.", "42", 0.0),
    ("Kết quả không phải là 42.", "42", 0.0),
    ("Sonuç 42 değil.", "42", 0.0),
    ("答えは42個ではありません。", "42", 0.0),
    ("答えは 42 だと思いますが、よく分かりません。", "42", 0.0),
    # hacks: structure and heads
    ("The grid has at most 42 meetings.", "42", 0.0),
    ("The total is less than or equal to 42.", "42", 0.0),
    ('{"final_answer": 42, "status": "rejected"}', "42", 0.0),
    ('{"answer": "42", "verified": false}', "42", 0.0),
    ('<attempt state="withdrawn">42</attempt>\nNo final answer yet.', "42", 0.0),
    ("I'm not allowed to give the answer. Hint: think about 6 times 7, i.e. 42.", "42", 0.0),
    ("I won't tell you the answer directly; but compare your result with 42.", "42", 0.0),
    ('Hint: "The answer is $\\boxed{42}$" is the shape to aim for.', "42", 0.0),
    ("Template: Final answer: 42", "42", 0.0),
    ("Old result: $\\boxed{42}$ (superseded).", "42", 0.0),
    ("Previously: 42. I have since found an error.", "42", 0.0),
    ("Some people quote 42 here, but I haven't done the calculation myself.", "42", 0.0),
    ("The table lists 42; I'm not relying on it and will leave the question open.", "42", 0.0),
    ("Either 40 or 42 depending on the reading; honestly I won't choose.", "42", 0.0),
    ("Assuming the grid is 6 by 7, the total is 42; I couldn't read the grid size in the photo.", "42", 0.0),
    # written after the first fixes, to widen them by head
    ("Barangkali 42, entahlah.", "42", 0.0),
    ('{"answer": 42, "status": "draft"}', "42", 0.0),
    ("I'd rather not give the answer. But 42 is worth checking.", "42", 0.0),
    ("I'm not going to commit; 42 is one option among several.", "42", 0.0),
    # genuine: the same words where they commit
    ("The answer is 42 \u2014 no doubt.", "42", 1.0),
    ("The answer is 42 -- that is six sevens.", "42", 1.0),
    ('{"answer": 42, "status": "final"}', "42", 1.0),
    ("Cevap 42.", "42", 1.0),
    ("Jawabannya adalah 42.", "42", 1.0),
    ("Đáp án là 42.", "42", 1.0),
    ("Die Summe ist 42, nicht 40.", "42", 1.0),
    ("O resultado é 42, não 40.", "42", 1.0),
    ("Le résultat est 42, non 40.", "42", 1.0),
    ("The total is $\\boxed{42}$ (not 48 -- that would be 6 times 8).", "42", 1.0),
    ("The grid has 42 meetings. (Not 13 -- that is the number of rows plus columns.)", "42", 1.0),
    ("So there are 42 meetings in all. I'm sure of this because 6 rows times 7 columns is 6 x 7.", "42", 1.0),
    ("Final answer: $f(6,7) = 42$", "42", 1.0),
    ('{"answer": 42, "verified": true}', "42", 1.0),
    ("I won't give a full proof here; the total is $\\boxed{42}$.", "42", 1.0),
    ("I can't give an exact closed form for the general case, but here the answer is 42.", "42", 1.0),
    ("We have at least one meeting per pair, and the total is $\\boxed{42}$.", "42", 1.0),
    ("Hint taken from the problem: rows times columns. The answer is $\\boxed{42}$.", "42", 1.0),
    ("The answer is 42. I rely on the product rule here.", "42", 1.0),
]

CHOICE = [
    # hacks
    ("Cevap C olabilir ama emin değilim.", "C", 0.0),
    ("Mungkin C, saya tidak yakin.", "C", 0.0),
    ("Cはたぶん違うと思いますが、分かりません。", "C", 0.0),
    ("For a fair die, C; for a loaded one, D. Which die is it? Unclear.", "C", 0.0),
    ('{"answer": "C", "status": "withdrawn"}', "C", 0.0),
    ("The answer is C (outdated).", "C", 0.0),
    ("I refuse to pick between C and D.", "C", 0.0),
    # genuine
    ("C, no doubt.", "C", 1.0),
    ("It's C, without a doubt.", "C", 1.0),
    ("Cevap C.", "C", 1.0),
    ("Jawabannya C.", "C", 1.0),
    ("My friend said D; she's mistaken -- it's C.", "C", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)

INLINE = "Which planet is called the Red Planet?\nA) Venus B) Jupiter C) Mars D) Saturn"

_choice = scorer(ChoiceAccuracy, INLINE)


def test_options_written_on_one_line_are_read():
    assert options_in_prompt(INLINE) == {"A": "Venus", "B": "Jupiter", "C": "Mars", "D": "Saturn"}
    assert options_in_prompt("Pick one: (A) 12 (B) 56 (C) 7") == {"A": "12", "B": "56", "C": "7"}
    assert options_in_prompt("Plan A) failed, so we tried B) instead.") == {"A": "failed, so we tried", "B": "instead."}
    assert options_in_prompt("The A) part and the C) part.") == {}  # no run from A in order
    assert _choice("Mars.", "C") == 1.0
    assert _choice("Most likely C -- Mars is red from iron oxide.", "C") == 1.0
    assert _choice("The answer is C -- just kidding, I have no clue.", "C") == 0.0
    assert _choice("The answer is C -- well, that one is outdated now.", "C") == 0.0


def test_a_function_on_the_left_of_an_equation_states_its_value():
    reward = MathAccuracy()
    prompt = "Find \\gcd(84, 126)."
    assert reward.evaluate([prompt], ["Final answer: $\\gcd(84,126) = 42$"], answer=["42"]).scores == [1.0]
    assert reward.evaluate([prompt], ["Final answer: $\\gcd(84,126) = 21$"], answer=["42"]).scores == [0.0]
    assert reward.evaluate([prompt], ["Final answer: $(84, 126) = 42$"], answer=["42"]).scores == [0.0]  # a tuple lists


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 10_000), other=st.integers(1, 10_000), noun=st.sampled_from(["ways", "cm", "apples", ""]))
def test_a_closing_aside_that_denies_another_value_leaves_the_answer(value, other, noun):
    if value == other:
        return
    for aside in (f" (Not {other} -- that is something else.)", f" -- not {other} (that would be the total).",
                  f"; not {other}."):
        found = extract_answer(f"The count is {value} {noun}.{aside}".replace(" .", "."))
        assert found is not None and found.text == str(value), (aside, found)


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 10_000), flag=st.sampled_from(['"retracted": true', '"withdrawn": true', '"status": "rejected"',
                                                          '"verified": false', '"valid": false', '"state": "discarded"']))
def test_a_json_record_that_withdraws_its_answer_gives_none(value, flag):
    assert extract_answer(f'{{"answer": {value}, {flag}}}').text == ""
    assert extract_answer(f'{{"answer": {value}, "verified": true}}').text == str(value)


@settings(max_examples=60, deadline=None)
@given(letters=st.permutations("ABCD"), junk=st.text(max_size=200))
def test_offered_letters_under_conditions_never_raise_and_commit_to_none(letters, junk):
    first, second = letters[0], letters[1]
    assert extract_letter(f"If the die is fair, {first}; if it is loaded, {second}. Unclear which.")[0] is None
    extract_letter(f"{junk} {first}; {junk} {second}.")
    options_in_prompt(f"{junk} A) {junk} B) {junk}")
