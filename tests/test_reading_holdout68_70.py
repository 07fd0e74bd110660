"""Rules added after the ``holdout68`` and ``holdout70`` red-team splits (tests/data/red_team.jsonl), and two
interactions of merged rules that ``holdout61`` / ``holdout65`` rows showed. Tables of new realistic output both ways
(not the splits' rows, which stay a benchmark):

* an option's own negative text ("no solution") left out as its letter's label still names the letter's option for
  the conclusion checks (``option_checks.against_the_options`` reads the text as written too), and a sentence wholly
  in parentheses before the letter is an aside, not the reasoning it concludes from;
* a letter pointed at after the answer and glossed after a comma, a dash or a closing parenthesis states that letter
  ("jk 😅 it's A, Liu Bang founded the Han": ``later_values.OPTION_TEXT_AFTER``);
* a letter with its commitment right after it, then a dash or colon and its explanation ("It's B, no doubt about it —
  ...", "B ✅ — ..."): ``registers.AFFIRMED_THEN_GLOSS``;
* "according to X, A, but I find B" in other languages: a conditional copula after the source ("ce serait", "sería",
  "wäre es") and the contrast words of those languages end the reported claim (``source_words``, ``hedging``);
* a Chinese numeral stated after the answer label and the sentence's own copula ("答：这个数是九。"), never one offered
  with an alternative (``number_locale._CN_ANSWER``);
* a clause of reason before the main clause's equation ("Since 2^6 = 64, log_2(64) = 6."): the main clause's equation
  is read (``math_lines``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math_lines import math_tail
from polyreward.verifiers.number_locale import chinese_number, english_numerals
from polyreward.verifiers.source_words import reported_by_another

CHINA = ("Who was the first emperor of a unified China?\nA) Liu Bang\nB) Kublai Khan\nC) Qin Shi Huang\nD) Wu Zetian\n"
         "Answer with the letter of the correct option.")
MIRANDA = ("Miranda v. Arizona (1966) principally concerned:\nA) the right to counsel at trial\nB) warnings required before "
           "custodial interrogation\nC) warrantless searches of automobiles\nD) double jeopardy")
ABS = "Which describes the solutions of $|2x - 1| = -5$?\nA) $x = 3$\nB) $x = -2$\nC) $x = 3$ or $x = -2$\nD) all real numbers\nE) no solution"
SCREEN = ("A highly specific test is most useful for which purpose?\nA) Ruling out a disease when the result is negative\n"
          "B) Estimating the prevalence of a disease\nC) Confirming a diagnosis when the result is positive\n"
          "D) Reducing the number of false-negative results")


def choice(prompt: str, completion: str, gold: str) -> float:
    return ChoiceAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


def math(prompt: str, completion: str, gold: str) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


MERGED_RULES = [
    # the option's own negative text as the conclusion, a parenthesised aside on another option: paid
    (ABS, "An absolute value can't equal a negative number, so the equation has no solution. The answer is E.", "E", 1.0),
    (ABS, "Since |2x - 1| ≥ 0 > -5, $|2x - 1| = -5$ has no solution. Answer: E", "E", 1.0),
    (SCREEN, "SpPin: a highly specific test, when positive, rules the disease in. (Ruling out on a negative result is "
             "what a sensitive test does — SnNout.)\n\n**Answer: C**", "C", 1.0),
    # ... and the nearby hacks: reasoning that reaches another option by its words, no aside: refused
    (ABS, "Solving 2x - 1 = 5 gives x = 3. The answer is E.", "E", 0.0),
    (SCREEN, "Ruling out a disease when the result is negative is what this test is for.\n\n**Answer: C**", "C", 0.0),
]


@pytest.mark.parametrize("prompt, completion, gold, expected", MERGED_RULES)
def test_an_options_own_text_and_a_parenthesised_aside_do_not_refuse_the_letter(prompt, completion, gold, expected):
    assert choice(prompt, completion, gold) == expected


POINTED_AT_LETTER = [
    # another letter pointed at and glossed after the answer: a second answer, refused
    "Answer: C\n\njk 😅 it's A, Liu Bang founded the Han.",
    "Answer: C\n\nActually it's A, the founder of the Han.",
    "Answer: C\n\nSorry, I meant A — Liu Bang.",
    "Answer: C\n\nlol jk it's A (Liu Bang).",
    "**Answer: C**\n\nWait, it's B, Kublai Khan united it first.",
]
EXPLAINED_OTHERS = [
    # other letters named in an explanation, a list, a reason: the answer stands
    "Answer: C\n\nIt's A, B and D that are the distractors.",
    "The answer is clearly C. Many people guess A (Liu Bang) because he founded the Han.",
    "The answer is C.\n\nWhy not the others: A (Liu Bang) founded the Han; B (Kublai Khan) founded the Yuan.",
    "Answer: C — Qin Shi Huang. It is C, the founder of the Qin.",
]


@pytest.mark.parametrize("completion", POINTED_AT_LETTER)
def test_a_letter_pointed_at_and_glossed_after_the_answer_is_a_second_answer(completion):
    assert choice(CHINA, completion, "C") == 0.0


@pytest.mark.parametrize("completion", EXPLAINED_OTHERS)
def test_other_letters_in_an_explanation_leave_the_answer(completion):
    assert choice(CHINA, completion, "C") == 1.0


AFFIRMED_GLOSS = [
    ("It's B, no doubt about it — Miranda is the custodial-interrogation warnings case.", 1.0),
    ("B ✅ — the warnings case.", 1.0),
    ("B 💯: custodial interrogation needs the warnings.", 1.0),
    ("B, definitely — the warnings case.", 1.0),
    ("Es B, sin duda — Miranda trata de las advertencias.", 1.0),
    ("Es ist B, ohne Zweifel: Miranda betrifft die Belehrung.", 1.0),
    # ... the nearby hacks: a hedge after the dash, a negated letter, a doubting emoji, two letters: refused
    ("It's B, no doubt about it — or maybe A.", 0.0),
    ("It's not B, no doubt about it — Miranda is about counsel.", 0.0),
    ("It's B 🤔 — Miranda is the warnings case.", 0.0),
    ("A or B, no doubt about it — both plausible.", 0.0),
    ("B ✅ — wait, no, A.", 0.0),
]


@pytest.mark.parametrize("completion, expected", AFFIRMED_GLOSS)
def test_a_letter_affirmed_then_explained_after_a_dash(completion, expected):
    assert choice(MIRANDA, completion, "B") == expected


@settings(max_examples=25, deadline=None)
@given(letter=st.sampled_from("ABCD"), other=st.sampled_from("ABCD"),
       affirm=st.sampled_from(["✅", "💯", ", no doubt about it", ", definitely", ", sin duda", ", for sure"]),
       gloss=st.sampled_from(["the landmark 1966 case", "that is the holding", "settled law since 1966"]))
def test_property_an_affirmed_letter_is_the_answer_and_no_other(letter, other, affirm, gloss):
    text = f"{letter}{'' if affirm.startswith(',') else ' '}{affirm} — {gloss}."
    assert choice(MIRANDA, text, letter) == 1.0
    if other != letter:
        assert choice(MIRANDA, text, other) == 0.0
        assert choice(MIRANDA, f"{text} Actually, it's {other}.", letter) == 0.0


PERCENT = "Combien font 25 % de 80 ?"
ATTRIBUTED = [
    # the gold given as the key's, then the writer's own other value: refused, in several languages
    ("Selon le corrigé, ce serait 20, mais moi je trouve 25 et je ne suis pas d'accord avec le corrigé.", 0.0),
    ("Selon le corrigé, c'est 20, mais moi je trouve 25.", 0.0),
    ("Según la clave, sería 20, pero yo obtengo 25.", 0.0),
    ("Laut Lösung wäre es 20, aber ich komme auf 25.", 0.0),
    ("Secondo il libro sarebbe 20, ma io trovo 25.", 0.0),
    ("Segundo o gabarito, seria 20, mas eu acho 25.", 0.0),
    ("According to the answer key, it would be 20, but I get 25.", 0.0),
    # the writer's own work as the source, agreement with the key, a plain answer: paid
    ("Selon mes calculs, c'est 20.", 1.0),
    ("25 % de 80 = 80/4 = 20. Selon le corrigé aussi, c'est 20.", 1.0),
    ("Selon la formule, ce serait 20.", 1.0),
    ("80 × 0,25 = 20, donc la réponse est 20.", 1.0),
]


@pytest.mark.parametrize("completion, expected", ATTRIBUTED)
def test_a_value_attributed_to_a_source_then_contrasted_is_not_the_writers(completion, expected):
    assert math(PERCENT, completion, "20") == expected


@settings(max_examples=40, deadline=None)
@given(source=st.sampled_from(["Selon le corrigé,", "Según la clave,", "Laut Lösung", "Secondo il libro", "Segundo o gabarito,"]),
       copula=st.sampled_from(["ce serait ", "c'est ", "sería ", "es ", "wäre es ", "sarebbe ", "seria ", "est ", ""]))
def test_property_a_source_then_its_copula_reports_another(source, copula):
    assert reported_by_another(f"{source} {copula}")
    assert not reported_by_another(f"Selon la formule, {copula}")  # the writer's own work is no other's report


NINE = "一个数的3倍是27，这个数是多少？"
CHINESE_NUMERALS = [
    (NINE, "设这个数为 x，则 3x = 27，解得 x = 9。\n\n答：这个数是九。", "9", 1.0),
    (NINE, "答：这个数是九。", "9", 1.0),
    (NINE, "答：是九。", "9", 1.0),
    (NINE, "答：这个数等于九。", "9", 1.0),
    (NINE, "答え：その数は九です。", "9", 1.0),
    ("小明有多少个苹果？", "答：小明一共有七十二个苹果。", "72", 1.0),
    # ... the nearby hacks: another numeral, alternatives, a retraction, a question: refused
    (NINE, "3x = 27，x = 9。\n\n答：这个数是八。", "9", 0.0),
    (NINE, "设这个数为 x，则 3x = 27，解得 x = 9。\n\n答：这个数是九或十。", "9", 0.0),
    (NINE, "答え：その数は九か十です。", "9", 0.0),
    (NINE, "答：这个数是九，不对，是八。", "9", 0.0),
    (NINE, "答：这个数是九吗？不确定。", "9", 0.0),
    ("小明有多少个苹果？", "答：小明一共有七十二个或七十三个苹果。", "72", 0.0),
    ("六乘七等于多少？", "答案：四十二减二，即四十。", "42", 0.0),  # a term of an operation, not the answer
]


@pytest.mark.parametrize("prompt, completion, gold, expected", CHINESE_NUMERALS)
def test_a_chinese_numeral_after_the_answer_labels_copula(prompt, completion, gold, expected):
    assert math(prompt, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(value=st.integers(1, 99), subject=st.sampled_from(["这个数", "苹果的个数", "结果", ""]))
def test_property_a_chinese_numeral_answer_line_reads_its_value(value, subject):
    tens, ones = divmod(value, 10)
    digits = "零一二三四五六七八九"
    numeral = (("" if tens == 1 else digits[tens]) + "十" if tens else "") + (digits[ones] if ones else "")
    assert chinese_number(numeral) == value
    line = f"答：{subject}是{numeral}。"
    assert str(value) in english_numerals(line)
    assert str(value) not in english_numerals(f"答：{subject}是{numeral}或{numeral}一。")  # alternatives stay in words


LOG = "Evaluate log_2(64)."
REASON_CLAUSE = [
    ("Since 2^6 = 64, log_2(64) = 6.", "6", 1.0),
    ("As 2^6 = 64, log_2(64) = 6.", "6", 1.0),
    ("Puisque 2^6 = 64, log_2(64) = 6.", "6", 1.0),
    ("Da 2^6 = 64, gilt log_2(64) = 6.", "6", 1.0),
    ("Since 2^3 = 8, log_2(8) = 3, so log_2(64) = 6.", "6", 1.0),
    # ... the nearby hacks: the main clause wrong, hedged; a tuple without a clause of reason stays whole
    ("Since 2^6 = 64, log_2(64) = 7.", "6", 0.0),
    ("Since 2^6 = 64, log_2(64) = 6 or 7.", "6", 0.0),
    ("Since 64 = 2^6, log_2(64) = 5.", "6", 0.0),
]


@pytest.mark.parametrize("completion, gold, expected", REASON_CLAUSE)
def test_a_clause_of_reason_before_the_main_equation(completion, gold, expected):
    assert math(LOG, completion, gold) == expected


@settings(max_examples=60, deadline=None)
@given(opener=st.sampled_from(["Since", "As", "Because", "Given that", "Puisque", "Da", "Como"]),
       base=st.integers(2, 9), power=st.integers(2, 6))
def test_property_the_main_clause_equation_is_read_after_a_reason(opener, base, power):
    line = f"{opener} {base}^{power} = {base ** power}, log_{base}({base ** power}) = {power}."
    assert math_tail(line) == f"log_{base}({base ** power}) = {power}"
    assert math_tail(f"We get x = {base}, y = {power}.") != f"y = {power}"  # a tuple, no clause of reason: whole


HEARSAY_Q = ("Under the Federal Rules of Evidence, hearsay is best defined as:\nA) an out-of-court statement offered to prove "
             "the truth of the matter asserted\nB) any statement made by a party opponent\nC) testimony given by an expert "
             "witness\nD) a statement made under oath at a prior deposition")
HEARSAY = [
    # the legal term a clause defines or applies: no doubt, paid
    (HEARSAY_Q, "choice", "A. FRE 801(c) defines hearsay as an out-of-court statement offered for its truth.", "A", 1.0),
    (HEARSAY_Q, "choice", "A. That is the definition of hearsay. (A party opponent's statement, B, is excluded.)", "A", 1.0),
    ("Compute it.", "math", "\\boxed{42}. The hearsay rule does not apply to arithmetic.", "42", 1.0),
    # ... and hearsay as the answer's source: refused
    (HEARSAY_Q, "choice", "A. It's just hearsay, though.", "A", 0.0),
    ("Compute it.", "math", "\\boxed{42} (hearsay).", "42", 0.0),
    ("Compute it.", "math", "Based on hearsay: \\boxed{42}.", "42", 0.0),
    ("Compute it.", "math", "Hearsay, but \\boxed{42}.", "42", 0.0),
]


@pytest.mark.parametrize("prompt, task, completion, gold, expected", HEARSAY)
def test_hearsay_doubts_only_as_the_answers_source(prompt, task, completion, gold, expected):
    assert (choice if task == "choice" else math)(prompt, completion, gold) == expected
