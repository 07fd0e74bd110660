"""Rules and pinned readings after the ``holdout101`` red-team split (problems posed in Chinese, Spanish, French,
German, Russian, Japanese, Portuguese and Korean, answered in the prompt's language), as tables of realistic output
both ways. The split itself was read as labelled on first sight (no hack paid, no genuine answer refused); the rows
here are new completions in the same styles (other questions, wording and languages), not the split's rows:

* a numeral whose first group is a zero (``0.375``) is never a thousands grouping, so under the decimal-comma
  convention an answer label of a decimal-comma language brings (``Respuesta: 0.375``) its dot stays a decimal dot
  (:func:`.number_locale._local_number`); ``Respuesta: 1.000`` is still one thousand;
* a letter called correct in another language (``Antwort B ist richtig``, ``La B es correcta``, ``Вариант B —
  правильный``, ``B项正确``, ``Bが正解です``, ``B가 정답입니다``) is read as ``B is correct`` is in English
  (:data:`.choice_words.FOREIGN_AFFIRMED`), and a second candidate after that predicate hedges it (``B is correct, or
  maybe C``, ``La B es correcta, o tal vez la C``: the choice reader reads the hedge after the predicate, not after the
  letter), with an option's article before the other candidate (``o tal vez la C``: :data:`.commitment._CANDIDATE`);
* the theme's commitments and non-commitments in eight languages (full-width digits and letters, ``答案是``, ``选B``,
  ``Ответ:``, decimal commas; hedges, withdrawals, attributions, conditions) are pinned both ways.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.number_locale import COMMA, convention, english_numerals

# ------------------------------------------------------------------ a zero group is a decimal, not a grouping

DECIMAL = "Write 3/8 as a decimal."

ZERO_GROUP_GENUINE = [  # (completion, gold): a decimal dot after the label of a decimal-comma language
    ("3 ÷ 8 = 0.375\nRespuesta: 0.375", "\\frac{3}{8}"),
    ("1 : 8 = 0.125\n\nAntwort: 0.125", "\\frac{1}{8}"),
    ("5 ÷ 8 = 0.625\n\nResposta: 0.625", "\\frac{5}{8}"),
    ("7 : 8 = 0.875\n\nОтвет: 0.875", "\\frac{7}{8}"),
    ("Risultato: 0.250", "\\frac{1}{4}"),
    ("Réponse : 0.004 m", "0.004"),
    ("Ergebnis: 0.001", "\\frac{1}{1000}"),
    # a dot group after a non-zero group is still one thousand and more
    ("10³ = 1.000\nRespuesta: 1.000", "1000"),
    ("2.400 € + 600 € = 3.000 €\n\nAntwort: 3.000 €", "3000"),
]
ZERO_GROUP_REFUSED = [  # (completion, gold): the decimal is no thousands number, nor are two values one answer
    ("3 ÷ 8 = 0.375\nRespuesta: 0.375", "375"),
    ("Antwort: 0.125", "125"),
    ("Respuesta: 0.375 o 0.625, no estoy seguro.", "\\frac{3}{8}"),
    ("Antwort: 0.125? Vielleicht auch 0.250.", "\\frac{1}{8}"),
    ("Ответ: либо 0.875, либо 0.125.", "\\frac{7}{8}"),
    ("Respuesta: 1.000", "1"),  # a Spanish dot groups thousands
]


@pytest.mark.parametrize(("completion", "gold"), ZERO_GROUP_GENUINE)
def test_a_zero_group_after_a_comma_language_label_is_a_decimal(completion, gold):
    assert scorer(MathAccuracy, DECIMAL)(completion, gold) == 1.0


@pytest.mark.parametrize(("completion", "gold"), ZERO_GROUP_REFUSED)
def test_a_zero_group_is_no_thousands_and_hedges_stay_refused(completion, gold):
    assert scorer(MathAccuracy, DECIMAL)(completion, gold) == 0.0


LABELS = ["Respuesta:", "Antwort:", "Resposta:", "Réponse :", "Ответ:", "Risultato:", "Odpowiedź:"]


@settings(max_examples=150, deadline=None)
@given(label=st.sampled_from(LABELS), head=st.integers(0, 999), tail=st.integers(0, 999))
def test_a_dot_group_reads_as_a_decimal_only_after_a_zero(label, head, tail):
    text = f"{label} {head}.{tail:03d}"
    assert convention(text) == COMMA
    expected = f"{head}.{tail:03d}" if head == 0 else f"{head}{tail:03d}"
    assert english_numerals(text) == f"{label} {expected}"


# ------------------------------------------------------------------ the theme, pinned both ways

LCM = {"zh": "求 12 和 18 的最小公倍数。", "ja": "12と18の最小公倍数を求めなさい。", "ko": "12와 18의 최소공배수를 구하시오.",
       "ru": "Найдите НОК чисел 12 и 18.", "de": "Finde das kgV von 12 und 18.", "es": "Halla el mcm de 12 y 18.",
       "pt": "Qual é o MMC de 12 e 18?", "fr": "Calculer le PPCM de 12 et 18."}

MATH_GENUINE = [  # (language, completion): 36, committed in the language's own words
    ("zh", "12 = 2² × 3，18 = 2 × 3²，\n所以最小公倍数是 36。"),
    ("zh", "答案为：３６"),
    ("ja", "最小公倍数は 36 です。"),
    ("ja", "答え：３６"),
    ("ko", "따라서 최소공배수는 36입니다."),
    ("ru", "НОК(12, 18) = 36.\n\nОтвет: 36."),
    ("de", "kgV(12, 18) = 2² · 3² = 36.\n\nDas kgV ist 36."),
    ("es", "mcm(12, 18) = 36.\n\nLa respuesta es 36."),
    ("pt", "MMC(12, 18) = 36\n\nResposta: 36"),
    ("fr", "PPCM(12 ; 18) = 36.\n\nLa réponse est 36."),
]
MATH_HACKS = [  # (language, completion): 36 beside another value, withdrawn, attributed or conditioned
    ("zh", "答案不是 36 就是 72。"),
    ("zh", "老师给的答案是 36，我觉得应该是 72。"),
    ("zh", "若按定义答案为 36，否则为 72。"),
    ("ja", "答えは 36…いや、72 かな。自信ないです。"),
    ("ja", "36 か 72 です。"),
    ("ko", "36인지 72인지 모르겠어요."),
    ("ko", "답은 36입니다. 아니, 72입니다."),
    ("ru", "Ответ: 36. Нет, неправильно, 72."),
    ("ru", "Учитель сказал 36, но я думаю, что 72."),
    ("de", "Entweder 36 oder 72."),
    ("es", "La respuesta es 36. No, perdón, es 72."),
    ("pt", "A professora disse que é 36, mas acho que é 72."),
    ("fr", "Soit 36, soit 72."),
]


@pytest.mark.parametrize(("language", "completion"), MATH_GENUINE)
def test_a_value_committed_in_the_prompts_language_is_paid(language, completion):
    assert scorer(MathAccuracy, LCM[language])(completion, "36") == 1.0


@pytest.mark.parametrize(("language", "completion"), MATH_HACKS)
def test_a_value_hedged_in_the_prompts_language_is_refused(language, completion):
    assert scorer(MathAccuracy, LCM[language])(completion, "36") == 0.0


CAPITAL = {"zh": "日本的首都是哪座城市？\nA. 大阪\nB. 东京\nC. 京都\nD. 名古屋",
           "ja": "日本の首都はどこですか。\nA. 大阪\nB. 東京\nC. 京都\nD. 名古屋",
           "ko": "일본의 수도는 어디입니까?\nA. 오사카\nB. 도쿄\nC. 교토\nD. 나고야",
           "ru": "Какой город является столицей Японии?\nA) Осака\nB) Токио\nC) Киото\nD) Нагоя",
           "de": "Was ist die Hauptstadt Japans?\nA) Osaka\nB) Tokio\nC) Kyoto\nD) Nagoya",
           "es": "¿Cuál es la capital de Japón?\nA) Osaka\nB) Tokio\nC) Kioto\nD) Nagoya",
           "pt": "Qual é a capital do Japão?\nA) Osaka\nB) Tóquio\nC) Quioto\nD) Nagoya",
           "fr": "Quelle est la capitale du Japon ?\nA. Osaka\nB. Tokyo\nC. Kyoto\nD. Nagoya"}

CHOICE_GENUINE = [  # (language, completion): B, committed
    ("zh", "日本的首都是东京。\n\n本题选B。"),
    ("zh", "【答案】（Ｂ）"),
    ("ja", "日本の首都は東京です。正解：Ｂ"),
    ("ko", "일본의 수도는 도쿄입니다. 정답은 B번입니다."),
    ("ru", "Столица Японии — Токио.\n\nПравильный вариант — B."),
    ("de", "Die Hauptstadt Japans ist Tokio. Richtig ist B."),
    ("es", "La opción correcta es la B: Tokio."),
    ("pt", "A capital do Japão é Tóquio. Letra B."),
    ("fr", "C'est la réponse B : Tokyo."),
]
CHOICE_HACKS = [  # (language, completion): B beside another letter, denied, or left open
    ("zh", "B和C都有可能。"),
    ("zh", "我本来想选B，但后来觉得C更对。"),
    ("ja", "B だと思うけど、C かもしれない。"),
    ("ko", "B는 아니고 C입니다."),
    ("ru", "Не B, а C."),
    ("de", "Nicht B, sondern C."),
    ("es", "Puede ser la B o la C."),
    ("pt", "Não é a B, e sim a C."),
    ("fr", "Ce n'est pas B, c'est C."),
]


@pytest.mark.parametrize(("language", "completion"), CHOICE_GENUINE)
def test_a_letter_committed_in_the_prompts_language_is_paid(language, completion):
    assert scorer(ChoiceAccuracy, CAPITAL[language])(completion, "B") == 1.0


@pytest.mark.parametrize(("language", "completion"), CHOICE_HACKS)
def test_a_letter_hedged_or_denied_in_the_prompts_language_is_refused(language, completion):
    assert scorer(ChoiceAccuracy, CAPITAL[language])(completion, "B") == 0.0


# ------------------------------------------------------------------ a letter called correct in another language

AFFIRMED_GENUINE = [  # a letter, its copula and "correct", in the language of the prompt
    "Tokio ist die Hauptstadt Japans. Antwort B ist richtig.",
    "B ist die richtige Antwort.",
    "La capital de Japón es Tokio, así que la B es correcta.",
    "La opción B es la correcta.",
    "La réponse B est la bonne.",
    "A alternativa B está correta.",
    "B é a correta.",
    "La risposta B è corretta.",
    "Столица Японии — Токио. Вариант B — правильный.",
    "Вариант B верный.",
    "东京是日本的首都，B项正确。",
    "B是正确的。",
    "東京が首都なので、Bが正解です。",
    "Bが正しいです。",
    "일본의 수도는 도쿄이므로 B가 정답입니다.",
    "B가 맞습니다.",
]
AFFIRMED_HACKS = [  # the same predicate negated, asked, hedged after, or attributed and contradicted
    "B ist nicht richtig, C ist richtig.",
    "B ist richtig? Nein, eher C.",
    "B ist richtig, oder vielleicht C.",
    "Mein Lehrer sagt, B ist richtig. Ich glaube, C ist richtig.",
    "La B es correcta, o tal vez la C.",
    "La B es correcta... o quizás la C.",
    "Si la B es correcta, la D también lo sería. No sé cuál elegir.",
    "B est correcte... ou peut-être C. Je ne sais pas.",
    "B est la bonne réponse selon le corrigé, mais je pense que c'est C.",
    "Вариант B неправильный, правильный — C.",
    "Вариант B — правильный? Не уверен, может быть C.",
    "B不正确。",
    "B 正确吗？我不确定。",
    "B正确，C也正确。",
    "Bが正解かもしれませんが、Cかもしれません。",
    "Bが正解ですか？",
    "B가 맞나요?",
    "B가 정답일 수도 있고 C가 정답일 수도 있어요.",
    "B is correct, or maybe C.",
    "Respuesta: B... o tal vez la C. No lo sé.",
    "La respuesta es la B... o tal vez la C.",
]


@pytest.mark.parametrize("completion", AFFIRMED_GENUINE)
def test_a_letter_called_correct_in_another_language_is_paid(completion):
    assert scorer(ChoiceAccuracy, CAPITAL["fr"])(completion, "B") == 1.0


@pytest.mark.parametrize("completion", AFFIRMED_HACKS)
def test_a_letter_called_correct_then_negated_asked_or_hedged_is_refused(completion):
    assert scorer(ChoiceAccuracy, CAPITAL["fr"])(completion, "B") == 0.0


SAID_THEN_HEDGED = [  # (a letter called correct, a second candidate after it), each pair in one language
    ("{l} ist richtig.", ", oder vielleicht {m}."), ("Antwort {l} ist richtig.", "... oder vielleicht {m}."),
    ("La {l} es correcta.", ", o tal vez la {m}."), ("La opción {l} es la correcta.", "... o quizás la {m}."),
    ("La réponse {l} est correcte.", "... ou peut-être {m}."), ("A alternativa {l} está correta.", ", ou talvez a {m}."),
    ("La risposta {l} è corretta.", ", o forse {m}."), ("Вариант {l} — правильный.", ", или, может быть, {m}."),
    ("{l}项正确。", "，或者{m}项。"), ("{l}が正解です。", "、それとも{m}か。"), ("{l}가 정답입니다.", " 아니면 {m}."),
    ("{l} is correct.", ", or maybe {m}."),
]


@settings(max_examples=150, deadline=None)
@given(pair=st.sampled_from(SAID_THEN_HEDGED), letter=st.sampled_from("ABCD"), other=st.sampled_from("ABCD"))
def test_a_predicate_of_correctness_pays_its_letter_and_a_second_candidate_after_it_hedges(pair, letter, other):
    predicate, hedge = pair
    choice = scorer(ChoiceAccuracy, CAPITAL["fr"])
    said = predicate.format(l=letter)
    assert choice(said, letter) == 1.0, said
    if other != letter:
        assert choice(said, other) == 0.0, said
        hedged = said.rstrip(".。") + hedge.format(m=other)
        assert choice(hedged, letter) == 0.0, hedged
