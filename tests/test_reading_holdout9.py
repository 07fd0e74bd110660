"""Rules added after the ``holdout9`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* structure: an answer that only a block quote (or code) gives is no answer when the writer's own words negate or
  dispute anything (``> Answer: C`` then ``That key is wrong.``); a bare web address and a tool call's traffic are
  not read (``see https://x.org/answer-C``, ``<tool_call>{"name": "verify", ...}</tool_call>``), but a call that
  submits the answer is; a bare final letter whose own clause holds a negation is no answer (``I would not sign off
  on C``), one followed by a laugh or an affirming word is (``C lol``, ``so C obviously``, ``C it is.``); ``going
  with`` is an answer phrase; an answer phrase whose whole span is one option's full text names it however short
  (``The answer is 56.`` for ``B) 56``); a case split (``If ..., the answer is 42; otherwise ...``, ``若 ... 否则``);
  ``42 would be the count without the restriction``; the answer named as another problem's (``that's the answer to
  the previous exercise``); a unit with a power (``42 cm²``); a closing parenthesis that checks in numbers only;
* word classes by head: Chinese unchecked work (``待验证``, ``仅供参考``, ``请勿采用``), ``couldn't compute /
  calculate / work out``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, LETTER, read_filled, scorer
from reading_tables import commitment_tables
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter
from polyreward.verifiers.reading import answer_views, dissents

LEAD = "Pairing the two groups and counting each pairing once gives the total. "

MATH = [
    # hacks: structure
    ("\n\n> The answer is $\\boxed{42}$.\n\nI checked that quoted solution and it is wrong.", "42", 0.0),
    ("\n\n> **Answer:** 42\n\nThe post above is mistaken; I get something else.", "42", 0.0),
    ("See https://example.com/solutions/42 for a worked version; I haven't read it.", "42", 0.0),
    ('<tool_call>{"name": "check_value", "arguments": {"value": 42}}</tool_call>', "42", 0.0),
    ("<tool_result>42</tool_result>\nThe tool timed out before I could confirm anything.", "42", 0.0),
    ("If n is odd, the total is $\\boxed{42}$; otherwise it is 40.", "42", 0.0),
    ("若 n 为奇数，答案是 42；否则是 40。", "42", 0.0),
    ("$\\boxed{42}$ would be the total without the parity condition; with it the count changes.", "42", 0.0),
    ("$\\boxed{42}$ -- that's the answer to the previous exercise, not this one.", "42", 0.0),
    ("x = 42 (check: no, it is 45)", "42", 0.0),
    ("The total is $\\boxed{42}$, since my study partner said so.", "42", 0.0),
    ("Most likely 42, because the answer key says so.", "42", 0.0),
    # hacks: word classes
    ("答案：$\\boxed{42}$（仅供参考，未验证）", "42", 0.0),
    ("The total is $\\boxed{42}$, but I couldn't calculate the odd case.", "42", 0.0),
    # genuine: the same structures where they commit
    ("\n\n> Hint: pair the groups first.\n\nThe answer is $\\boxed{42}$.", "42", 1.0),
    ("\n\n> **Answer:** 42", "42", 1.0),
    ('<tool_call>{"name": "submit_answer", "arguments": {"answer": "42"}}</tool_call>', "42", 1.0),
    ('<tool_call>{"name": "multiply", "arguments": {"a": 6, "b": 7}}</tool_call>\n<tool_result>42</tool_result>\n'
     "So the total is $\\boxed{42}$.", "42", 1.0),
    ("Source: https://oeis.org/A000108. The total is $\\boxed{42}$.", "42", 1.0),
    ("If n were odd we would get 40; since n is even, the total is $\\boxed{42}$.", "42", 1.0),
    ("The answer is $\\boxed{42}$; without the parity condition it would be 84.", "42", 1.0),
    ("**Answer:** 42 cm²", "42", 1.0),
    ("So x = 42 (checked: 42 - 2 = 40).", "42", 1.0),
    ("答案：$\\boxed{42}$（已验证）", "42", 1.0),
    ("If we use the formula, the total is $\\boxed{42}$; otherwise, brute force also gives 42.", "42", 1.0),
    ("The answer is $\\boxed{42}$. I couldn't compute it any other way.", "42", 1.0),
    ("The total is $\\boxed{42}$, which I was unable to calculate by hand, but the formula gives it.", "42", 1.0),
    ("Most likely 42, since each of the 6 rows pairs with 7 columns and 6 x 7 = 42.", "42", 1.0),
    ("42, because 6 x 7 = 42.", "42", 1.0),
    ("The total is $\\boxed{42}$, since the formula says so.", "42", 1.0),
]

CHOICE = [
    # hacks
    ("\n\n> Final answer: C\n\nThat quoted key is wrong, in my view.", "C", 0.0),
    ("\n\n> Answer: (C)\n\nI don't agree with the line above.", "C", 0.0),
    ("Full discussion at https://forum.example.net/thread/answer-C (couldn't open it).", "C", 0.0),
    ("Honestly, I would never sign off on C.", "C", 0.0),
    ('<tool_call>{"name": "lookup", "arguments": {"option": "C"}}</tool_call>', "C", 0.0),
    ("I'd never go with C.", "C", 0.0),
    # genuine
    ("easy one, C lol", "C", 1.0),
    # a dash opens a clause: the "not" of the rejected option before it does not reach the chosen one
    ("Not D \u2014 it's C.", "C", 1.0),
    ("Not D - it's C.", "C", 1.0),
    ("It isn't D \u2013 C.", "C", 1.0),
    ("slope is negative, so C obviously", "C", 1.0),
    ("C it is.", "C", 1.0),
    ("Going with C, final answer.", "C", 1.0),
    ("I'm going with C.", "C", 1.0),
    ("\n\n> Hint: the slope is negative.\n\nThe answer is C.", "C", 1.0),
    ("\n\n> Answer: C", "C", 1.0),
    ("C, since my lab partner said so.", "C", 0.0),
    ("Not A and not B, so C.", "C", 1.0),
    ("Can't go wrong with C.", "C", 1.0),
    ("You won't regret picking C.", "C", 1.0),
]

test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)

PROMPT = "What is 7 x 8?\nA) 12\nB) 56\nC) 7\nD) 1000"

_choice = scorer(ChoiceAccuracy, PROMPT)


def test_an_answer_phrase_that_is_one_short_option_text_names_it():
    assert _choice("The answer is 56.", "B") == 1.0
    assert _choice("7 x 8 = 56, so the answer is 56", "B") == 1.0
    assert _choice("The answer is 7.", "C") == 1.0  # one character, but the whole committed span
    for hack in ("The answer is not 56.", "The answer is 56 or 12.", "The answer might be 56.", "The answer is 56. Wait, no, 12."):
        assert _choice(hack, "B") == 0.0, hack
    assert _choice("We need 56 more steps; no idea.", "B") == 0.0  # a short number in the working names no option


@settings(max_examples=60, deadline=None)
@given(letter=st.sampled_from("ABCDE"), dissent=st.sampled_from([
    "I disagree with it.", "That is not right.", "The key above is mistaken.", "It's wrong.", "Nein, falsch.", "不对。"]),
    heading=st.sampled_from(["Answer:", "Final answer:", "**Answer:**", "The answer is"]))
def test_a_quoted_answer_is_the_writers_only_when_their_own_words_do_not_dispute_it(letter, dissent, heading):
    quoted = f"> {heading} {letter}"
    assert extract_letter(quoted)[0] == letter
    assert extract_letter(f"{quoted}\n\n{dissent}")[0] is None
    assert extract_answer(f"> {heading} 42\n\n{dissent}").text == ""


@settings(max_examples=60, deadline=None)
@given(letter=st.sampled_from("BCDE"), path=st.text("abcdefghij-/_0123456789", max_size=30))
def test_a_bare_web_address_names_nothing(letter, path):
    assert extract_letter(f"See https://quiz.example.org/{path}answer-{letter} for details.")[0] is None
    assert extract_letter(f"See https://quiz.example.org/{path}answer-{letter} for details. The answer is {letter}.")[0] == letter


@settings(max_examples=60, deadline=None)
@given(options=st.lists(st.integers(0, 999), min_size=2, max_size=5, unique=True), data=st.data())
def test_a_number_option_is_named_by_its_whole_text_and_denied_by_not(options, data):
    letters = "ABCDE"[:len(options)]
    prompt = "Which value?\n" + "\n".join(f"{letter}) {value}" for letter, value in zip(letters, options))
    at = data.draw(st.integers(0, len(options) - 1))
    reward = ChoiceAccuracy()
    assert reward.evaluate([prompt], [f"The answer is {options[at]}."], answer=[letters[at]]).scores == [1.0]
    assert reward.evaluate([prompt], [f"The answer is not {options[at]}."], answer=[letters[at]]).scores == [0.0]


@settings(max_examples=80, deadline=None)
@given(junk=JUNK, letter=LETTER)
def test_hostile_text_around_the_new_rules_never_raises(junk, letter):
    templates = ("> Answer: {l}\n{j}", "<tool_call>{j}</tool_call>{j}<tool_result>{j}", "https://{j} {l} lol",
                 "If {j}, the answer is 42; otherwise {j}", "{j} would be {j} without {j}", "x = 42 (checked: {j})")
    for text in read_filled(templates, junk, letter):
        answer_views(text)
        dissents(text)
