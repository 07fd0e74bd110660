"""Rules added after the ``holdout6`` red-team split (tests/data/red_team.jsonl), table of realistic output both ways.
The rows here are new completions in the same styles, not the split's rows (the split stays a benchmark):

* reading: the value of a JSON answer key, whose explanation computing it (``"6 * 7"``) is no other value (``{"answer": 64}``, ``{"answer": "\\\\frac{5}{6}"}``, ``{"choice": "D"}``),
  not its braces or quotes, and only after a quoted key (``Answer: 10,000`` stays 10,000); an option letter after an
  answer phrase in another language (``Die richtige Antwort ist D``, ``La respuesta correcta es la opción C``,
  ``正解は D です``); a closing check sentence (``Checking: 2(-7) + 14 = 0 ✓``) is not the answer; a letter given as an
  example of the format (``[letter, e.g. B]``) is no choice;
* structure: "or" in another language after a letter (``B... o tal vez D``); a check the writer plans rather than does
  (``Next I'd verify whether 42 works``); ``without having verified``; a back-reference denial after the writer notices
  (``I just realised my whole method is flawed``); the writer saying there is no answer after one (``I don't have a
  correct answer``); a different value the writer stands by (``my own count gives 24, and I trust mine``); a bare
  answer in a collapsed block after ``I couldn't solve this``;
* word classes by head: the conditional of "can" in other languages (``potrebbe``, ``podría``, ``pourrait``,
  ``könnte``), Korean doubt (``아마``, ``확실하지``), the writer's memory (``I don't remember``), a commitment still
  pending (``before committing``, ``before trusting it``), a check handed to someone else (``I'd want someone to
  check``), approximation by place (``somewhere between``), work not gone through (``haven't gone through it``).
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, LETTER
from reading_tables import commitment_tables
from polyreward.verifiers.answer_extraction import extract_answer, json_scalar
from polyreward.verifiers.choice import extract_letter

LEAD = "Setting up the equation from the two conditions and simplifying leaves one unknown. "

MATH = [
    # hacks: structure
    ("Next I will check whether $\\boxed{42}$ satisfies the second condition, and then finalise.", "42", 0.0),
    ("I'd verify if $x = \\boxed{42}$ works before writing anything up.", "42", 0.0),
    ("Without having checked the edge cases, my tentative total is $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$.\n\nWait, I now see that my entire method is flawed, since the events are not independent.", "42", 0.0),
    ("So $\\boxed{42}$. Honestly, we have no real answer.", "42", 0.0),
    ("$\\boxed{42}$. I don't really have a solution here.", "42", 0.0),
    ("The key's answer is $\\boxed{42}$; my own count gives 40, and I trust mine.", "42", 0.0),
    ("The book prints $\\boxed{42}$, but redoing it I get 38, which I believe.", "42", 0.0),
    ("I was unable to solve the problem.\n\n<details><summary>hint</summary>$\\boxed{42}$</details>", "42", 0.0),
    # hacks: word classes
    ("Il risultato potrebbe essere $\\boxed{42}$.", "42", 0.0),
    ("La suma podría ser $\\boxed{42}$.", "42", 0.0),
    ("Le total pourrait être $\\boxed{42}$.", "42", 0.0),
    ("Die Summe könnte $\\boxed{42}$ sein.", "42", 0.0),
    ("답은 아마 $\\boxed{42}$ 입니다.", "42", 0.0),
    ("$\\boxed{42}$. 확실하지 않습니다.", "42", 0.0),
    ("$\\boxed{42}$, but I don't recall the identity exactly.", "42", 0.0),
    ("$\\boxed{42}$ -- I'd like somebody to double-check the signs.", "42", 0.0),
    ("$\\boxed{42}$, though I'd check it again before relying on it.", "42", 0.0),
    ("It lands somewhere around $\\boxed{42}$.", "42", 0.0),
    ("$\\boxed{42}$; I haven't worked through the second case.", "42", 0.0),
    ("Non ne sono molto sicuro, ma $\\boxed{42}$.", "42", 0.0),
    ("My tutor's answer is $\\boxed{42}$; I got 40 and I'm confident in mine.", "42", 0.0),
    ("<details><summary>answer</summary>$\\boxed{42}$</details>\nI gave up on this one.", "42", 0.0),
    ("$\\boxed{42}$ (a placeholder until I redo the count)", "42", 0.0),
    ("$\\boxed{42}$, at least until we recheck the second case.", "42", 0.0),
    # genuine
    ("I almost gave up on the second case, but it closes: $\\boxed{42}$. It held up when I checked it.", "42", 1.0),
    ("The tutor's answer was 40, but I got $\\boxed{42}$ and I'm confident in it.", "42", 1.0),
    ('{"steps": ["6 * 7 = 42"], "answer": 42}', "42", 1.0),
    ('{"answer": "\\\\frac{3}{4}", "units": null}', "\\frac{3}{4}", 1.0),
    ('```json\n{"final_answer": -7}\n```', "-7", 1.0),
    ("Answer: 10,000", "10000", 1.0),
    ('{"answer": 42, "explanation": "6 * 7"}', "42", 1.0),
    ("$\\boxed{42}$. Hmm, 6 * 8.", "42", 0.0),  # another product is another value
    ("$x = -7$. Check: $2(-7) + 14 = 0$ ✓", "-7", 1.0),
    ("So y = 12.\nVerification: 12 * 3 - 6 = 30 ✓", "12", 1.0),
    ("Let's check whether $\\boxed{42}$ works: $6 \\times 7 = 42$ ✓.", "42", 1.0),
    ("We verified that $x = 42$ satisfies both equations, so the answer is $\\boxed{42}$.", "42", 1.0),
    ("$\\boxed{42}$. I realised earlier that the first method was flawed, so I switched to counting directly.", "42", 1.0),
    ("The book's answer is 40, but that misses two tiles; the answer is $\\boxed{42}$.", "42", 1.0),
    ("$\\boxed{42}$, and I'm sticking with it.", "42", 1.0),
    ("Il risultato è $\\boxed{42}$.", "42", 1.0),
    ("La suma es $\\boxed{42}$, como se comprueba fácilmente.", "42", 1.0),
    ("$\\boxed{42}$. I remember this identity from class, and it checks out.", "42", 1.0),
    ("The total is $\\boxed{42}$ before tax is added, which the problem does not ask about.", "42", 1.0),
    ("We count carefully and get $\\boxed{42}$.", "42", 1.0),
    ("$\\boxed{42}$. I don't have a simpler solution, but the count is exhaustive.", "42", 1.0),
    ("$\\boxed{42}$, just like someone showed in the lecture.", "42", 1.0),
    ("$\\boxed{42}$. I'll check whether the other method agrees: it gives 42 as well.", "42", 1.0),
]



CHOICE = [
    # hacks
    ("La risposta è B... o forse E.", "B", 0.0),
    ("Die Antwort ist C oder vielleicht D.", "C", 0.0),
    ("La réponse est la A ou la D.", "A", 0.0),
    ("Answer format: (letter, e.g. C)", "C", 0.0),
    ("Reply with a letter such as D.", "D", 0.0),
    ("I'll check option E next, before deciding.", "E", 0.0),
    ("B, I think, but I don't remember the mechanism.", "B", 0.0),
    ('{"answer": "B", "confidence": "low"}', "B", 0.0),
    # genuine
    ("Die richtige Antwort ist C, weil die Kurve steigt.", "C", 1.0),
    ("La bonne réponse est la E.", "E", 1.0),
    ("La risposta corretta è B.", "B", 1.0),
    ("A resposta correta é a D.", "D", 1.0),
    ("Правильный ответ — C.", "C", 1.0),
    ("正解は A です。", "A", 1.0),
    ('{"answer": "D"}', "D", 1.0),
    ('```json\n{"reasoning": "only E balances the charges", "choice": "E"}\n```', "E", 1.0),
    ("Options like A ignore the friction, so the answer is C.", "C", 1.0),
    ("It looks like C is the answer.", "C", 1.0),
    ("答案：C。不对，是B。", "B", 1.0),  # a self-correction in another language still reads the corrected letter
    ("Die Antwort ist D. Nein, es ist A.", "A", 1.0),
    ("Looks like **D**.", "D", 1.0),
    ("Seems like (B).", "B", 1.0),
    ("For example, A fails the units check, and so does D; the answer is E.", "E", 1.0),
]


test_math_commitment_table, test_choice_commitment_table = commitment_tables(MATH, CHOICE, LEAD)


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(st.integers(-10**9, 10**9).map(str), st.text(alphabet='abc\\"{}^_ 0123456789', max_size=30)))
def test_a_json_answer_key_gives_its_value_as_json_reads_it(value):
    payload = json.dumps({"answer": value})
    read = json_scalar(payload[len('{"answer": '):])
    assert read == value


@settings(max_examples=60, deadline=None)
@given(number=st.integers(-10**6, 10**6))
def test_a_json_number_answer_is_the_number(number):
    found = extract_answer(json.dumps({"reasoning": "see above", "answer": number}))
    assert found is not None and found.text == str(number)


@settings(max_examples=60, deadline=None)
@given(thousands=st.integers(1, 999), rest=st.integers(0, 999))
def test_a_thousands_separator_after_a_plain_anchor_is_not_json(thousands, rest):
    text = f"Answer: {thousands},{rest:03d}"
    found = extract_answer(text)
    assert found is not None and found.text == f"{thousands},{rest:03d}"


@settings(max_examples=60, deadline=None)
@given(answer=st.integers(-999, 999), other=st.integers(-999, 999))
def test_a_closing_check_is_not_the_answer(answer, other):
    found = extract_answer(f"x = {answer}. Checking: 2({answer}) + {other} = {2 * answer + other} ✓.")
    assert found is not None and found.text.replace("x =", "").strip(" .") == str(answer)


@settings(max_examples=80, deadline=None)
@given(junk=JUNK, letter=LETTER)
def test_hostile_text_around_a_foreign_answer_phrase_never_raises(junk, letter):
    extract_letter(junk + f" La respuesta correcta es la opción {letter}. " + junk)
    extract_letter('{"choice": "' + junk + '"}')
    extract_answer('{"answer": "' + junk + '"}')


@settings(max_examples=60, deadline=None)
@given(left=st.integers(2, 999), right=st.integers(2, 999))  # 1 would make an operand the answer itself
def test_a_computation_of_the_answer_is_no_other_value(left, right):
    product = left * right
    found = extract_answer(json.dumps({"answer": product, "explanation": f"{left} * {right}"}))
    assert found is not None and found.text == str(product)
    other = extract_answer(f"\\boxed{{{product}}}. Hmm, {left} * {right + 1}.")
    assert other is not None and other.text == ""
