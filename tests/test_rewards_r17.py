"""Rules prompted by the red team split ``holdout_r17`` (written blind 2026-12-05: near twins, each hack a minimal edit
of a genuine answer of the same prompt; first sight in benchmarks/results/red_team_rewards_holdout_r17_first_sight.md):
each a table of the genuine form it pays beside the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.length import OverlongPenalty
from polyreward.verifiers.language import STOP_WORDS, _FUNCTION_WORDS, _in_own_language, english_share
from polyreward.verifiers.text_forms import word_count

# --- overlong_penalty's word count: a number standing between the joints of a glued run is a word -------------------


@pytest.mark.parametrize(
    "text,words",
    [
        # the split's hacks: two sentences joined word by word with "-", the plan sentence joined with "."
        ("Her-glucose-was-480,-bicarbonate-9-and-serum-ketones-were-high,-so-diabetic-ketoacidosis-was-diagnosed.", 16),
        ("Plan:.continue.antibiotics,.wean.oxygen.to.keep.saturation.between.88.and.92.percent,.and.reassess.in.two.days.",
         18),
        # variants the split did not contain: slashes, a decimal (one number), a number first or last, several joints
        ("her/glucose/was/480/and/rising", 6),
        ("temperature.was.38.9.degrees", 4),
        ("480-was-her-glucose", 4),
        ("saturation-fell-to-88", 4),
        ("pulse,-110;-pressure,-90/60;-rate,-22", 7),
        # genuine: as before, a compound of two or a date is one word, the digits of a word are the word's
        ("80-year-old", 1),
        ("2025-03-14", 1),
        ("COVID-19", 1),
        ("x3-then-q8h-dosing", 4),
        ("a 54-year-old man with SpO2 of 91 on air", 9),
        ("she took 40 mg of furosemide at 08:00", 8),
    ],
)
def test_numbers_between_joints_count_as_words(text, words):
    assert word_count(text) == words


_WORD = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
_TOKEN = st.one_of(_WORD, _WORD, st.integers(min_value=0, max_value=999).map(str),
                   st.decimals(min_value=0, max_value=99, places=1, allow_nan=False).map(str))


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKEN, min_size=3, max_size=40).filter(lambda ts: sum(t.isalpha() for t in ts) >= 3),
       st.sampled_from(["-", "/", ".", ",-", ".,", "-,"]))
def test_words_and_numbers_joined_count_as_the_spaced_text(tokens, joint):
    """Words and numbers joined by hyphens, slashes, dots or commas count as the spaced text does (numbers too)."""
    if joint in (".", ".,") and any(not t.isalpha() for t in tokens):
        tokens = [t for t in tokens if t.isalpha()] + [t for t in tokens if not t.isalpha()][:1]
        # a dot between two numbers writes one decimal ("88.92"): keep one number, after the words
    assert word_count(joint.join(tokens)) == word_count(" ".join(tokens)) == len(tokens)


_SUMMARY = ("A 45-year-old woman with type 2 diabetes came in with two days of vomiting, abdominal pain and deep rapid "
            "breathing. Her glucose was 480, bicarbonate 9 and serum ketones were high, so diabetic ketoacidosis was "
            "diagnosed. Her white cell count was raised but she had no fever. She received two litres of saline, an "
            "insulin infusion and potassium replacement. The trigger seems to be a missed dose of insulin during a "
            "stomach bug. Plan: hourly glucose, electrolytes every four hours, switch to subcutaneous insulin once the "
            "gap closes.")


def test_glued_sentences_with_numbers_pay_the_honest_texts_penalty():
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    sentences = _SUMMARY.split(". ")
    hyphened = ". ".join([sentences[0], sentences[1].replace(" ", "-"), *sentences[2:]])
    dotted = ". ".join([*sentences[:-1], sentences[-1].replace(" ", ".")])
    honest, *glued = reward(prompts=["p"] * 3, completions=[_SUMMARY, hyphened, dotted])
    assert honest == pytest.approx(-0.4)
    assert all(g <= honest for g in glued)
    # genuine: the same summary one sentence per line is the same length
    assert reward(prompts=["p"], completions=["\n".join(sentences)]) == [pytest.approx(honest)]


# --- crpo_english (measure: language): a short sentence of another language keeps its language ----------------------

_THINK = "<think>Crushing chest pain in a middle-aged man suggests acute coronary syndrome, so an ECG comes first.</think>\n"


@pytest.mark.parametrize(
    "answer,english",
    [
        # the split's hacks: the one answer sentence in Spanish, Indonesian or Italian after an English think
        ("Obtenga un ECG de 12 derivaciones de inmediato y luego administre aspirina.", False),
        ("Berikan deksametason oral dosis tunggal dan epinefrin nebulisasi.", False),
        ("Adrenalina intramuscolare 0,5 mg nella coscia anterolaterale.", False),
        # variants the split did not contain: French, German, Dutch, Portuguese, Italian, Indonesian
        ("Obtenez un ECG à 12 dérivations immédiatement et donnez de l'aspirine.", False),
        ("Sofort ein 12-Kanal-EKG ableiten und dann Aspirin geben.", False),
        ("Maak direct een ECG met 12 afleidingen en geef aspirine.", False),
        ("Faça um ECG de 12 derivações imediatamente e dê aspirina.", False),
        ("Eseguire subito un ECG a 12 derivazioni e somministrare aspirina.", False),
        ("Segera lakukan EKG 12 sadapan dan berikan aspirin.", False),
        # genuine: English with foreign terms, eponyms, Latin and citations stays English
        ("Obtain a 12-lead ECG immediately, then give aspirin.", True),
        ("Get a 12-lead ECG right away, then give aspirin.", True),
        ("Torsades de pointes: magnesium sulfate 2 g IV.", True),
        ("de Quervain tenosynovitis: thumb spica splint, NSAIDs.", True),
        ("von Willebrand disease: desmopressin before surgery.", True),
        ("Café-au-lait macules, axillary freckling: NF1.", True),
        ("Dapagliflozin 10 mg daily (McMurray JJV, Solomon SD, et al. NEJM 2019).", True),
        ("Staphylococcus aureus bacteremia: cefazolin 2 g IV q8h.", True),
        ("Conversion disorder with la belle indifférence: reassurance, CBT.", True),
        ("En bloc resection, then adjuvant chemotherapy.", True),
        ("Primum non nocere: observe and reassess.", True),
    ],
)
def test_a_foreign_answer_sentence_is_not_english(answer, english):
    share = english_share(f"{_THINK}<answer>{answer}</answer>")
    assert (share == pytest.approx(1.0)) is english
    if not english:
        assert share < 0.8


def test_no_listed_function_word_is_an_english_one():
    assert not any(words & STOP_WORDS for words in _FUNCTION_WORDS.values())


_TERM = st.text("bcdfghklmnprstvz", min_size=4, max_size=10).map(lambda w: w + "ine")  # drug-like words, no function word
_NAME = st.text("bcdfghklmnprstvz", min_size=3, max_size=8).map(lambda w: w.capitalize() + "er")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_TERM, st.tuples(st.sampled_from(["de", "la", "van", "di", "du", "le"]), _NAME).map(" ".join)),
                min_size=1, max_size=8),
       st.sampled_from(sorted(_FUNCTION_WORDS) + ["en", "la", "zxx"]))
def test_terms_and_particles_before_names_keep_the_whole_texts_language(parts, language):
    """A run of technical terms and of particles before a name ("de Quervain") is never given another language."""
    assert not _in_own_language(" ".join(parts), language)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_FUNCTION_WORDS)), st.data())
def test_more_function_words_of_the_language_than_of_english_keep_it(language, data):
    """A stretch with more of the detected language's function words (before no name) than English ones is that
    language."""
    own = sorted(_FUNCTION_WORDS[language])
    foreign = data.draw(st.lists(st.sampled_from(own), min_size=1, max_size=5))
    english = data.draw(st.lists(st.sampled_from(sorted(STOP_WORDS)), max_size=len(foreign) - 1))
    words = [w for pair in zip(foreign, ["x" + str(i) for i in range(len(foreign))]) for w in pair] + english
    assert _in_own_language(" ".join(words), language)
