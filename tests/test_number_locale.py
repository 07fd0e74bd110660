"""Number conventions (polyreward.verifiers.number_locale), both directions: genuine answers written in a locale's
numerals are paid, answers whose own locale (or own words) says another number than the English reading are not,
and an English text reads as it always did."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math_answers import prepare_prediction
from polyreward.verifiers.number_locale import (
    COMMA, DOT, chinese_number, convention, english_numerals, scientific, words_disagree)


def math(completion: str, gold: str) -> float:
    return MathAccuracy().evaluate(["Compute it."], [completion], answer=[gold]).scores[0]


@pytest.mark.parametrize("completion, gold", [
    ("Umfang: 2 · (1,75 m + 2,5 m) = 8,5 m\n\nAntwort: 8,5 m", "8.5"),  # decimal comma (de)
    ("Prix : 4 × 2,35 € = 9,40 €\n\nRéponse : 9,40 €", "9.4"),  # decimal comma (fr), money
    ("Total: 3 · 0,75 = 2,25\n\nOdpowiedź: 2,25", "2.25"),  # decimal comma (pl)
    ("$7 : 4 = 1{,}75$\n\n$$\\boxed{1{,}75}$$", "1.75"),  # LaTeX decimal comma
    ("12.500 € · 0,04 = 500 €\n\nAntwort: 500,00 €", "500"),  # dot grouping, decimal comma
    ("1.234.567 + 1 = 1.234.568\n\nAntwort: 1.234.568", "1234568"),  # two dot groups
    ("Preço: 2.499,90 + 100,10 = 2.600,00\n\nResposta: R$ 2.600,00", "2600"),  # pt-BR money
    ("Giá: 120.000 + 30.000 = 150.000 đồng\n\nĐáp số: 150.000 đồng", "150000"),  # vi dot grouping, label only
    ("Total : 10 500,25 + 4 499,75 = 15 000,00\n\nRéponse : 15 000,00 €", "15000"),  # space groups, decimal comma
    ("Kosten: 12'500 + 7'250 = 19'750\n\nAntwort: CHF 19'750.–", "19750"),  # Swiss apostrophe groups
    ("Answer: 1'250'000 visitors", "1250000"),
    ("Total = 8 × ₹1,50,000 = ₹12,00,000\n\nAnswer: ₹12,00,000", "1200000"),  # Indian lakh groups
    ("Answer: ₹4 lakh", "400000"),
    ("答：一共有 2.5 万人。", "25000"),  # 万 = 10^4
    ("答：他吃了蛋糕的三分之二。", "\\frac{2}{3}"),  # a fraction in Chinese words
    ("Fünf mal sieben ergibt fünfunddreißig.\n\nAntwort: fünfunddreißig", "35"),  # words only (text2num)
    ("Respuesta: 48 (cuarenta y ocho).", "48"),  # words agree with the digits
    ("Ответ: 120 (сто двадцать).", "120"),
    ("答案：56（五十六）", "56"),
    ("9 × 7 = 63\n\n答案是六十三。", "63"),  # a Chinese numeral stated as the answer
    ("2.400 € + 600 € = 3.000 €\n\nDie Antwort lautet: 3.000 €.", "3000"),
    ("Answer: 3.2 × 10^{-4} m", "0.00032"),  # a power of ten
    ("Answer: 6.4e-5", "6.4\\times10^{-5}"),
    ("v = 3 · 10^8 m/s\n\n$\\boxed{2{,}5 \\cdot 10^{3}\\ \\text{m}}$", "2500"),
    # English stays English
    ("The total is 1,500 + 250 = 1,750.\n\nAnswer: 1,750", "1750"),
    ("The price is 3.25 dollars.\n\nAnswer: 3.25", "3.25"),
    ("Answer: 1,234,567.5", "1234567.5"),
])
def test_genuine_locale_answers_paid(completion, gold):
    assert math(completion, gold) == 1.0


@pytest.mark.parametrize("completion, gold", [
    ("500 · 2,50 € = 1,250 €\n\nAntwort: 1,250 €", "1250"),  # a German decimal comma: 1.25, not 1250
    ("2 · 1,250 = 2,500\n\nAntwort: 2,500 Liter", "2500"),  # the label's language writes a decimal comma
    ("0,5 kg + 0,25 kg = 0,750 kg\n\nRéponse : 0,750 kg", "750"),
    ("750 g = 0.750 kg\n\nAntwort: 2.250 kg", "2.25"),  # a German dot groups thousands: 2250
    ("Antwort: 1.750 kg (eintausendsiebenhundertfünfzig)", "1.75"),
    ("Answer: 4.500 dollars (four thousand five hundred dollars).", "4.5"),  # English words say 4500
    ("Antwort: 72 (siebenundzwanzig)", "72"),  # digits and words disagree
    ("Réponse : soixante-dix-huit (87).", "87"),
    ("Respuesta: 40 (catorce).", "40"),
    ("Ответ: сто двенадцать (121).", "121"),
    ("答案：38（八十三）", "38"),
    ("答：产量是 500 万件。", "500"),  # 500 万 is five million
    ("Answer: ₹3 lakh", "3"),
])
def test_locale_hacks_refused(completion, gold):
    assert math(completion, gold) == 0.0


@pytest.mark.parametrize("text, expected", [
    ("Antwort: 2,5", COMMA),
    ("x = 1,25", COMMA),
    ("\\boxed{7{,}5}", COMMA),
    ("Total: 1.234.500", COMMA),
    ("Réponse : 1 250,50", COMMA),
    ("Antwort: 1,500", COMMA),  # the label alone
    ("Answer: 1,500", DOT),
    ("The point (1,2) and the set \\{3,4\\}, x_{1,2}", DOT),  # pairs and subscripts are no decimal commas
    ("The list 1,2,3 and [0,1]", DOT),
    ("Antwort: 2.5 und 1,5", DOT),  # both conventions: today's reading
    ("Answer: 1,234,500", DOT),
])
def test_convention(text, expected):
    assert convention(text) == expected


@pytest.mark.parametrize("text, value", [
    ("七十二", 72), ("十五", 15), ("一千万", 10_000_000), ("三百零五", 305), ("两千", 2000), ("一亿二千万", 120_000_000),
])
def test_chinese_number(text, value):
    assert chinese_number(text) == value


def test_words_beside_digits():
    assert words_disagree("Antwort: 63 (sechsunddreißig)")
    assert not words_disagree("Antwort: 36 (sechsunddreißig)")
    assert not words_disagree("Answer: 42 (six sevens).")  # a product in words, not another number
    assert not words_disagree("Answer: 12 (one dozen)")
    assert not words_disagree("Answer: 42 (the total)")
    assert not words_disagree("Ответ: 6 000 (шесть тысяч).")


def test_scientific():
    assert scientific("1.5 \\times 10^{9}") == 1_500_000_000
    assert scientific("2.4 × 10^5 cells") == 240_000
    assert scientific("3 \\cdot 10^{-2}") == Fraction(3, 100)
    assert scientific("10^{9}") is None


# --- properties ---------------------------------------------------------------------------------------

def _grouped(whole: int, separator: str, lakh: bool = False) -> str:
    digits = str(whole)
    if not lakh or len(digits) <= 3:
        groups = []
        while digits:
            groups.insert(0, digits[-3:])
            digits = digits[:-3]
        return separator.join(groups)
    head, tail = digits[:-3], digits[-3:]
    groups = []
    while head:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return separator.join(groups + [tail])


def _written(value: Decimal, style: str) -> str:
    """``value`` as a locale writes it, with that locale's answer label."""
    whole, _, fraction = f"{value:f}".partition(".")
    whole = int(whole)
    if style == "de":
        return "Antwort: " + _grouped(whole, ".") + ("," + fraction if fraction else "") + " €"
    if style == "fr":
        return "Réponse : " + _grouped(whole, "\u202f") + ("," + fraction if fraction else "") + " m"
    if style == "ch":
        return "Answer: " + _grouped(whole, "'") + ("." + fraction if fraction else "") + " CHF"
    if style == "in":
        return "Answer: ₹" + _grouped(whole, ",", lakh=True) + ("." + fraction if fraction else "")
    return "Answer: " + _grouped(whole, ",") + ("." + fraction if fraction else "")  # en


@settings(max_examples=300, deadline=None)
@given(st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
       st.sampled_from(["de", "fr", "ch", "in", "en"]))
def test_any_value_in_any_convention_reads_back(value, style):
    prediction = prepare_prediction(_written(value, style))
    assert prediction is not None and prediction.numeral is not None, _written(value, style)
    assert prediction.numeral.value == Fraction(value), _written(value, style)


_ENGLISH_NUMBER = st.one_of(
    st.integers(0, 10**9).map(lambda n: f"{n:,}"),
    st.decimals(min_value=0, max_value=10**6, places=2, allow_nan=False, allow_infinity=False).map(lambda d: f"{d:,f}"),
    st.integers(0, 999).map(str),
)
_ENGLISH_WORD = st.sampled_from(["the", "total", "is", "Answer:", "so", "=", "+", "×", "apples", "(", ")", "cost", "$", "km", "\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_ENGLISH_NUMBER, _ENGLISH_WORD), min_size=1, max_size=20), st.decimals(
    min_value=0, max_value=1000, places=2, allow_nan=False, allow_infinity=False).filter(lambda d: d != d.to_integral()))
def test_english_text_reads_as_before(tokens, decimal):
    text = " ".join(tokens + ["Check:", f"{decimal:f}"])  # a decimal dot: the text is English
    assert convention(text) == DOT
    assert english_numerals(text) == text


@pytest.mark.parametrize("completion, gold", [
    ("Réponse : (x ; y) = (3 ; 0,5)", "(3, 0.5)"),  # ";" separates the pair where "," is the decimal mark
    ("2 < x ≤ 7\n\nS = ]2 ; 7]", "(2, 7]"),  # French outward brackets
    ("x ≥ 1,5\n\nS = [1,5 ; +∞[", "[1.5, \\infty)"),
])
def test_semicolon_groups_paid(completion, gold):
    assert math(completion, gold) == 1.0


def test_semicolon_groups_refused():
    assert math("Réponse : (x ; y) = (3 ; 5)", "(3, 0.5)") == 0.0
    assert math("S = [2 ; 7]", "(2, 7]") == 0.0  # closed, not half-open


@pytest.mark.parametrize("make", [
    lambda n: "Antwort: 2,5 [1" + " " * n + ";",  # whitespace inside a ";" group
    lambda n: "一" * n + "x三分之一",  # a run of Chinese numerals before a fraction in words
    lambda n: "Antwort: 2,5 " + "123 " * (n // 4),  # space groups that never end in a decimal comma
    lambda n: ":" * n,  # colons with no label
    lambda n: "Antwort:" * (n // 8),
    lambda n: "1," * (n // 2),
    lambda n: "1'" * (n // 2),
    lambda n: "Answer: 12" + " " * n + "(zwölf)",
], ids=["semicolon-spaces", "chinese-run", "space-groups", "colons", "labels", "commas", "apostrophes", "beside"])
def test_adversarial_text_is_read_in_linear_time(make):
    import time

    text = make(100_000)
    start = time.process_time()
    words_disagree(english_numerals(text)[-400:])
    prepare_prediction(text)
    assert time.process_time() - start < 1.5
