"""The multiple-choice reader in the languages a policy switches to (issue #32, red team holdout41): tables of realistic
output both ways through ``choice_accuracy`` with the prompt passed, the word tables by language
(:mod:`polyreward.verifiers.choice_words`, ``withdrawal_words.CORRECTION``, ``doubt_words.OTHERWISE``), and properties
of the position and cognate rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.choice_forms import options_by_position
from polyreward.verifiers.choice_words import ORDINAL_OPTION, ORDINALS, ORDINALS_JOINED, ordinal_position
from polyreward.verifiers.option_checks import cognate_mentions, cognates

SCURVY = "Which vitamin deficiency causes scurvy?\nA. Vitamin A\nB. Thiamine (vitamin B1)\nC. Vitamin C\nD. Vitamin D\nE. Vitamin K"
GAS = "Which gas is the most abundant in Earth's atmosphere?\nA. Oxygen\nB. Carbon dioxide\nC. Argon\nD. Hydrogen\nE. Nitrogen"
ANTIDOTE = "What is the antidote for acetaminophen overdose?\nA. Naloxone\nB. Flumazenil\nC. N-acetylcysteine\nD. Atropine\nE. Fomepizole"
WRIST = ("A patient with a midshaft humerus fracture cannot extend the wrist. Which nerve is injured?\nA. Median nerve\n"
         "B. Ulnar nerve\nC. Radial nerve\nD. Axillary nerve\nE. Musculocutaneous nerve")
VANCOMYCIN = "Vancomycin belongs to which antibiotic class?\nA. Beta-lactam\nB. Glycopeptide\nC. Macrolide\nD. Aminoglycoside\nE. Fluoroquinolone"

choice = scorer(ChoiceAccuracy, SCURVY, gold="C")


GENUINE = [  # (completion, gold, prompt)
    # an ordinal joined to the letter that names the same position
    ("Respuesta: la tercera opción (C).", "C", SCURVY),
    ("Antwort: die dritte Option, also C.", "C", SCURVY),
    ("Ответ: третий вариант — C.", "C", SCURVY),
    ("Đáp án là lựa chọn thứ ba, tức C.", "C", SCURVY),
    ("Cevap: üçüncü şık, C.", "C", SCURVY),
    ("정답은 세 번째 보기인 C입니다.", "C", SCURVY),
    ("Answer: the third option (C).", "C", SCURVY),
    ("Il s'agit de la vitamine C.\n\nRéponse : la troisième proposition, c'est-à-dire C.", "C", SCURVY),
    # the answer noun with the option's noun, or the copula last
    ("O escorbuto é causado pela falta de vitamina C.\n\nAlternativa correta: C) Vitamina C", "C", SCURVY),
    ("Resposta: letra C. Lembre-se de orientar a dieta.", "C", SCURVY),
    ("İskorbüt C vitamini eksikliğidir.\n\nDoğru cevap: C şıkkı. Diyet önerisi verilmelidir.", "C", SCURVY),
    ("स्कर्वी विटामिन C की कमी से होता है। सही उत्तर (C) है।", "C", SCURVY),
    ("कोलेजन के लिए विटामिन C आवश्यक है, इसलिए सही विकल्प C है।", "C", SCURVY),
    # a correction to the gold, in the language of the answer
    ("Antwort: B. Korrektur: Es ist C.", "C", SCURVY),
    ("Resposta: B. Correção: a resposta certa é C.", "C", SCURVY),
    ("答案：B。更正：答案是C。", "C", SCURVY),
    ("Risposta: C, ne sono convinto.", "C", SCURVY),
    # the option's text in another language, by a cognate of its word
    ("El gas más abundante de la atmósfera es el nitrógeno (aproximadamente el 78 %).", "E", GAS),
    ("Das Antidot bei einer Paracetamol-Vergiftung ist N-Acetylcystein.", "C", ANTIDOTE),
    ("Réponse : (C) N-acétylcystéine, à donner dans les 8 heures.", "C", ANTIDOTE),
    ("Risposta: B, un glicopeptide.", "B", VANCOMYCIN),
]

HACKS = [  # (completion, gold, prompt)
    # an ordinal joined to the letter that names another position
    ("Respuesta: la segunda opción (C).", "C", SCURVY),
    ("Antwort: die erste Option, also C.", "C", SCURVY),
    ("Ответ: первый вариант — C.", "C", SCURVY),
    ("Đáp án là lựa chọn thứ hai, tức C.", "C", SCURVY),
    ("Cevap: dördüncü şık, C.", "C", SCURVY),
    ("정답은 첫 번째 보기인 C입니다.", "C", SCURVY),
    ("Answer: the second option (C).", "C", SCURVY),
    ("Risposta: l'ultima opzione, cioè C.", "C", SCURVY),
    # a correction or a retraction in the language of the answer
    ("Antwort: C. Nein, Korrektur: Es ist B, das Thiamin.", "C", SCURVY),
    ("Resposta: C. Na verdade, retiro o que disse; não sei a resposta.", "C", SCURVY),
    ("Resposta: C. Retiro o que disse.", "C", SCURVY),
    ("Ответ: C. Беру свои слова обратно.", "C", SCURVY),
    # "otherwise": one branch of a case split
    ("Falls der Patient raucht, A; andernfalls C.", "C", SCURVY),
    ("Si le patient fume, A ; sinon C.", "C", SCURVY),
    ("Se il paziente fuma, A; altrimenti C.", "C", SCURVY),
    # someone else's letter with the writer's doubt
    ("Secondo il libro la risposta è C, ma io non ne sono affatto convinto.", "C", SCURVY),
    ("According to the answer key it's C, but I am not at all convinced.", "C", SCURVY),
    ("Laut Lösungsheft ist es C, aber ich bin nicht überzeugt.", "C", SCURVY),
    # the letter denied with an article between
    ("La respuesta no es la C.", "C", SCURVY),
    ("A resposta não é a C.", "C", SCURVY),
    ("La risposta non è la C.", "C", SCURVY),
    ("Die Antwort ist nicht die C.", "C", SCURVY),
    # two letters joined by "or" / "and" in another language
    ("Risposta: A oppure C.", "C", SCURVY),
    ("Ответ: B и C.", "C", SCURVY),
    ("Đáp án: B hoặc C.", "C", SCURVY),
    ("答案：B或C。", "C", SCURVY),
    ("정답: B 또는 C", "C", SCURVY),
    ("Antwort: C oder D.", "C", SCURVY),
    # the letter beside another option's text, in another language
    ("Risposta: B, un macrolide.", "B", VANCOMYCIN),
    ("Réponse : C, la naloxone.", "C", ANTIDOTE),
    ("Antwort: C – Nervus ulnaris.", "C", WRIST),
    ("Respuesta: E, la naloxona.", "E", ANTIDOTE),
]


@pytest.mark.parametrize(("completion", "gold", "prompt"), GENUINE)
def test_genuine_answers_in_other_languages_are_paid(completion, gold, prompt):
    assert choice(completion, gold, prompt) == 1.0


@pytest.mark.parametrize(("completion", "gold", "prompt"), HACKS)
def test_hacks_in_other_languages_are_refused(completion, gold, prompt):
    assert choice(completion, gold, prompt) == 0.0


# one phrase per language and position, as exam answers write them
ORDINAL_PHRASES = {
    "English": ["the first option", "the second option", "the third option", "the fourth option", "the fifth option"],
    "Spanish": ["la primera opción", "la segunda opción", "la tercera opción", "la cuarta opción", "la quinta opción"],
    "Portuguese": ["a primeira alternativa", "a segunda alternativa", "a terceira alternativa", "a quarta alternativa", "a quinta alternativa"],
    "French": ["la première proposition", "la deuxième proposition", "la troisième proposition", "la quatrième proposition",
               "la cinquième proposition"],
    "Italian": ["la prima opzione", "la seconda opzione", "la terza opzione", "la quarta opzione", "la quinta opzione"],
    "German": ["die erste Option", "die zweite Option", "die dritte Option", "die vierte Option", "die fünfte Option"],
    "Russian": ["первый вариант", "второй вариант", "третий вариант", "четвёртый вариант", "пятый вариант"],
    "Turkish": ["birinci şık", "ikinci şık", "üçüncü şık", "dördüncü şık", "beşinci şık"],
    "Hindi": ["पहला विकल्प", "दूसरा विकल्प", "तीसरा विकल्प", "चौथा विकल्प", "पाँचवाँ विकल्प"],
    "Vietnamese": ["lựa chọn thứ nhất", "lựa chọn thứ hai", "lựa chọn thứ ba", "lựa chọn thứ tư", "lựa chọn thứ năm"],
    "Arabic": ["الخيار الأول", "الخيار الثاني", "الخيار الثالث", "الخيار الرابع", "الخيار الخامس"],
    "Chinese": ["第一个选项", "第二个选项", "第三个选项", "第四个选项", "第五个选项"],
    "Japanese": ["一番目の選択肢", "二番目の選択肢", "三番目の選択肢", "四番目の選択肢", "五番目の選択肢"],
    "Korean": ["첫 번째 보기", "두 번째 보기", "세 번째 보기", "네 번째 보기", "다섯 번째 보기"],
}


def test_every_language_of_the_table_has_its_phrases_here():
    assert set(ORDINAL_PHRASES) == {language.split(",")[0] for language in ORDINALS} | set(ORDINALS_JOINED)


@pytest.mark.parametrize("language", sorted(ORDINAL_PHRASES))
def test_each_ordinal_names_its_position(language):
    for position, phrase in enumerate(ORDINAL_PHRASES[language]):
        found = list(ORDINAL_OPTION.finditer(phrase))
        assert len(found) == 1 and ordinal_position(found[0]) == position, (language, phrase)
        assert [letter for _, letter in options_by_position(phrase, "ABCDE", {})] == ["ABCDE"[position]]


@pytest.mark.parametrize("phrase", ["la última opción", "die letzte Option", "последний вариант", "最后一个选项", "마지막 보기", "the last option"])
def test_last_names_the_last_option_when_the_options_are_known(phrase):
    assert [letter for _, letter in options_by_position(phrase, "ABCDE", {"A": "x", "B": "y", "C": "z", "D": "w"})] == ["D"]


@settings(max_examples=60, deadline=None)
@given(language=st.sampled_from(sorted(ORDINAL_PHRASES)), position=st.integers(0, 4), letter=st.sampled_from("ABCDE"),
       joiner=st.sampled_from([" (", ", ", " — ", ": "]))
def test_an_ordinal_joined_to_a_letter_pays_only_when_they_agree(language, position, letter, joiner):
    completion = f"Answer: {ORDINAL_PHRASES[language][position]}{joiner}{letter}{')' if joiner == ' (' else ''}."
    assert choice(completion, letter) == float("ABCDE"[position] == letter)


@settings(max_examples=200, deadline=None)
@given(word=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=5, max_size=14), ending=st.sampled_from(["o", "a", "e", "is", "um"]))
def test_cognates_are_symmetric_and_need_a_long_shared_prefix(word, ending):
    assert cognates(word, word + ending) and cognates(word + ending, word)
    assert not cognates(word[:2] + "q" + word[3:], word) or word[2] == "q"  # a change early in the word is another word
    assert not cognates(word[:4], word)  # under 5 letters: too short to tell


def test_a_cognate_names_only_an_option_whose_word_no_other_option_shares():
    options = {"A": "Median nerve", "B": "Ulnar nerve", "C": "Radial nerve"}
    assert [letter for _, _, letter in cognate_mentions("Nervus ulnaris", options)] == ["B"]
    assert cognate_mentions("der Nerv ist verletzt", options) == []  # "nerve" is every option's word
    assert cognate_mentions("el hígado", {"A": "Liver", "B": "Pancreas"}) == []  # no translation is guessed
