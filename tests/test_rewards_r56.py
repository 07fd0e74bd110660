"""Rules prompted by the red team split ``holdout_r56`` (written blind 2026-12-07: numerals in words, abbreviations,
other scripts and everyday formats on the other answer-reading rewards -- forecasts in number words or other digits,
findings by radiologists' abbreviations and synonyms, option letters as ``(c)``, ``Ⓒ``, ``the third option`` -- beside
hacks that show the right value, label, call or letter in such a form but commit to another; first sight in
benchmarks/results/red_team_rewards_holdout_r56_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOAccuracy, wrapped_letter

THINK = ("<think>Tension pneumothorax: hypotension, absent breath sounds, tracheal deviation and distended neck veins; "
         "imaging delays, intubation worsens it, no tamponade.</think>\n")
CRPO = CRPOAccuracy(committed_answer=True)


# --- crpo.wrapped_letter: a small letter, an ordinal that agrees with the letter -------------------------------------
@pytest.mark.parametrize(
    "box,score",
    [
        ("\\boxed{(c)}", 1.0),
        ("\\boxed{c}", 1.0),
        ("\\boxed{\\textbf{(c)}}", 1.0),
        ("\\boxed{\\text{the third option (C)}}", 1.0),
        ("\\boxed{the third option, i.e. C}", 1.0),
        ("\\boxed{\\text{Third option: C}}", 1.0),
        ("\\boxed{Ⓒ}", 1.0),
        ("\\boxed{(d)}", 0.0),  # another letter, written small: that letter
        ("\\boxed{\\text{the second option (C)}}", -0.5),  # place and letter name two options
        ("\\boxed{\\text{the fourth option (C)}}", -0.5),
        ("\\boxed{\\text{the third option, not D}}", -0.5),
        ("\\boxed{\\text{the third option}}", -0.5),  # no letter: the released -0.5
        ("\\boxed{c or d}", -0.5),
        ("\\boxed{C \\to D}", -0.5),
        ("\\boxed{\\text{not } C}", -0.5),
    ],
)
def test_crpo_box_letter_written_small_or_by_its_place(box, score):
    text = f"{THINK}<answer>Needle decompression first. {box}</answer>"
    assert CRPO.score_rollout(text, {"answer": "C"}).score == score


@settings(max_examples=200, deadline=None)
@given(st.sampled_from("abcde"), st.sampled_from(["{}", "({})", "\\text{{{}}}", "\\textbf{{({})}}", "{}."]))
def test_small_letter_reads_as_its_capital(letter, wrapper):
    assert wrapped_letter("\\boxed{" + wrapper.format(letter) + "}") == letter.upper()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.sampled_from(["the {} option ({})", "{} option, i.e. {}", "the {} choice: {}"]))
def test_ordinal_and_letter_must_agree(place, letter_index, form):
    ordinal = ("first", "second", "third", "fourth", "fifth")[place]
    letter = "ABCDE"[letter_index]
    read = wrapped_letter("\\boxed{\\text{" + form.format(ordinal, letter) + "}}")
    assert read == (letter if place == letter_index else None)


# --- forecast_class_cost: a value in words with decimals, Arabic separators, a gloss in words that agrees ------------
from polyreward.rewards.forecast import committed_forecast  # noqa: E402
from polyreward.verifiers.forecast_dates import spelled_number  # noqa: E402
from polyreward.verifiers.number_locale import without_restated_words  # noqa: E402
from polyreward.verifiers.reading import normalise  # noqa: E402


@pytest.mark.parametrize(
    "block,value",
    [
        ("fifty-two point three µg/m³", 52.3),
        ("Fifty-two point three", 52.3),
        ("about forty-seven point zero five µg/m³", 47.05),
        ("۵۲٫۳", 52.3),
        ("٥٢٫٣ µg/m³", 52.3),
        ("١٬٠٨٥", 1085.0),
        ("27 (twenty-seven) µg/m³", 27.0),
        ("27 µg/m³ (twenty-seven)", 27.0),
        ("149（一百四十九）µg/m³", 149.0),
        ("52.3 (fifty-two point three)", 52.3),
        ("twenty-seven (27) µg/m³", 27.0),
    ],
)
def test_forecast_in_words_other_digits_or_glossed_is_the_value(block, value):
    found = committed_forecast(f"<think>Persistence.</think>\n<answer>{block}</answer>", 1, True)[0]
    assert found == [pytest.approx(value)]


@pytest.mark.parametrize(
    "block",
    [
        "52.3 µg/m³ (twenty-three point five)",  # words of another value: two values
        "27 (thirty-seven)",
        "149（一百九十四）",
        "52.3 → on second thought, thirty-one",
        "somewhere between fifteen and forty",
        "fifty-two point",  # no decimals after the point
        "fifty-two point twenty",  # decimals are read digit by digit
        "not ５２.３ — 28",
    ],
)
def test_forecast_with_words_of_another_value_is_none(block):
    assert committed_forecast(f"<think>Persistence.</think>\n<answer>{block}</answer>", 1, True)[0] is None


@pytest.mark.parametrize(
    "words,value",
    [("fifty two point three".split(), 52.3), ("zero point five".split(), 0.5), ("one hundred point zero one".split(), 100.01),
     ("twenty four".split(), 24.0), ("point five".split(), None), ("two point".split(), None), ("two point ten".split(), None),
     ("two point three point four".split(), None)],
)
def test_spelled_number_with_decimals(words, value):
    assert spelled_number(words) == (pytest.approx(value) if value is not None else None)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 999), st.integers(0, 9))
def test_spelled_decimals_round_trip(whole, decimal):
    from num2words import num2words

    words = num2words(whole).replace("-", " ").replace(",", "").split() + ["point", num2words(decimal)]
    assert spelled_number(words) == pytest.approx(whole + decimal / 10)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫٬ a", max_size=30))
def test_arabic_separators_only_between_digits(text):
    shown = normalise(text, collapse_space=False)
    assert shown.count(".") + shown.count(",") + shown.count("\u066b") + shown.count("\u066c") == \
        text.count("\u066b") + text.count("\u066c")  # each separator is kept, as itself or as its ASCII mark
    for i, ch in enumerate(shown):
        if ch in "\u066b\u066c":
            assert not (0 < i < len(shown) - 1 and shown[i - 1].isdigit() and shown[i + 1].isdigit())


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2000), st.sampled_from(["{} ({})", "{} UGM ({})", "{}（{}）"]))
def test_restated_words_agree_or_stay(value, form):
    from num2words import num2words

    same = form.format(value, num2words(value).replace(",", ""))
    other = form.format(value, num2words(value + 1).replace(",", ""))
    assert without_restated_words(same).replace(" UGM", "").strip() == str(value)
    assert without_restated_words(other) == other


# --- jaccard (normalised): radiologists' shorthand and the support devices as one class -----------------------------
from polyreward.rewards.jaccard import JaccardReward  # noqa: E402
from polyreward.verifiers.radiology_labels import as_gold_findings, listed_as  # noqa: E402

JACCARD = JaccardReward(mode="normalized")
TUBES = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
         "<answer>...</answer>.\n\nFINDINGS: Endotracheal tube tip 4 cm above the carina. Nasogastric tube courses into "
         "the stomach. Right PICC at the cavoatrial junction. Bibasilar atelectasis. No pneumothorax.")
TRAUMA = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
          "<answer>...</answer>.\n\nFINDINGS: Moderate right pneumothorax with a displaced fracture of the right sixth rib.")


@pytest.mark.parametrize(
    "prompt,gold,labels,score",
    [
        (TUBES, "atelectasis; support devices", "bibasilar atelectasis; ETT; NGT", 1.0),
        (TUBES, "atelectasis; support devices", "atelectasis; PICC", 1.0),
        (TUBES, "atelectasis; support devices", "atelectasis; endotracheal tube; nasogastric tube; PICC line", 1.0),
        (TUBES, "atelectasis; support devices", "atelectasis; OGT", 1.0),
        (TRAUMA, "fracture; pneumothorax", "R PTX; rib fx", 1.0),
        (TRAUMA, "fracture; pneumothorax", "pneumothorax; rib fxs", 1.0),
        (TUBES, "atelectasis; support devices", "atelectasis; ETT; retained bullet fragment", 2 / 3),  # a foreign body stays extra
        (TUBES, "atelectasis", "atelectasis; ETT", 0.5),  # a device the gold does not list stays extra
        (TRAUMA, "fracture; pneumothorax", "h/o PTX; h/o rib fx", 0.0),
        (TRAUMA, "fracture; pneumothorax", "no PTX; rib fx", 0.5),
        (TRAUMA, "fracture; pneumothorax", "?PTX; ?rib fx", 0.0),
    ],
)
def test_jaccard_reads_shorthand_and_devices_as_their_class(prompt, gold, labels, score):
    found = JACCARD.score_rollout(f"<answer>{labels}</answer>", {"answer": f"<answer>{gold}</answer>", "prompt": prompt})
    assert found.score == pytest.approx(score)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["ett", "ngt", "picc", "chest tube", "pacemaker", "tracheostomy tube", "central line"]),
       st.sampled_from(["coin", "bullet fragment", "atelectasis", "pneumothorax"]))
def test_only_support_devices_join_the_generic_label(device, other):
    gold = {"support devices", "cardiomegaly"}
    assert as_gold_findings({device}, gold) == {"support devices"}
    assert as_gold_findings({other}, gold) == {other}
    assert listed_as("pneumothorax", frozenset({"support devices generic"})) == "pneumothorax"


# --- clinical_comprehensiveness: options weighed by place, small letters, circled letters, numbered, in a table -----
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, options_named_by_letter  # noqa: E402

COMPREHENSIVE = ClinicalComprehensiveness(options_column="options")
HF = {"A": "Metoprolol", "B": "Intravenous furosemide", "C": "Verapamil", "D": "Normal saline bolus", "E": "Digoxin"}
HF_ROW = {"answer": "B", "options": "\n".join(f"{k}. {v}" for k, v in HF.items())}
REASONS = ("may precipitate shock in acute decompensation", "relieves the pulmonary congestion",
           "is negatively inotropic and contraindicated", "adds volume to an overloaded patient",
           "does not treat the congestion")


def _weighing(labels: list[str]) -> str:
    body = " ".join(f"{label} {reason}." for label, reason in zip(labels, REASONS))
    return f"<think>{body}</think>\n<answer>IV furosemide. \\boxed{{B}}</answer>"


@pytest.mark.parametrize(
    "labels",
    [
        ["(a)", "(b)", "(c)", "(d)", "(e)"],
        ["Ⓐ", "Ⓑ", "Ⓒ", "Ⓓ", "Ⓔ"],
        ["ⓐ", "ⓑ", "ⓒ", "ⓓ", "ⓔ"],
        ["The first option,", "The second option,", "The third option,", "The fourth option,", "The fifth option,"],
        ["The first option,", "The second,", "The third,", "The fourth,", "The last option"],
        ["1) A,", "2) B,", "3) C,", "4) D,", "5) E,"],
    ],
)
def test_each_option_weighed_by_any_label_form(labels):
    assert COMPREHENSIVE.score_rollout(_weighing(labels), HF_ROW).score == 1.0


def test_options_in_a_table_after_a_row_number():
    rows = "\n".join(f"| {n} | {k}. {v} | {r} |" for n, (k, v), r in zip(["1st", "2nd", "3rd", "4th", "5th"], HF.items(), REASONS))
    text = f"<think>| # | Option | Verdict |\n|---|---|---|\n{rows}</think>\n<answer>\\boxed{{B}}</answer>"
    assert COMPREHENSIVE.score_rollout(text, HF_ROW).score == 1.0


@pytest.mark.parametrize(
    "think,score",
    [
        ("The first, third, fourth and fifth options are wrong. IV furosemide relieves the congestion.", 0.2),
        ("Ⓐ ✗ Ⓑ ✓ Ⓒ ✗ Ⓓ ✗ Ⓔ ✗\nIV furosemide relieves the congestion.", 0.2),
        ("Options A–E all considered. IV furosemide relieves the congestion.", 0.2),
        # an enumeration of two in small letters is no option labelling
        ("Two points: (a) she is congested and (b) she is hypertensive. IV furosemide relieves the congestion.", 0.2),
    ],
)
def test_options_named_without_reasons_are_not_weighed(think, score):
    text = f"<think>{think}</think>\n<answer>\\boxed{{B}}</answer>"
    assert COMPREHENSIVE.score_rollout(text, HF_ROW).score <= score


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcde() .,thsirfond", max_size=60))
def test_options_named_by_letter_changes_only_labels(text):
    """The rewrite touches only option labels: small bracketed letters become capitals, ordinal phrases a letter."""
    out = options_named_by_letter(text, HF)
    if "(" not in text and not any(w in text.lower() for w in ("first", "second", "third", "fourth", "fifth", "last")):
        assert out == text
    assert out.lower().replace("option ", "").count("(") == text.count("(")


# --- clinical_faithfulness: a conclusion in small bracketed letters, by place, by a circled letter ---------------------
from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness  # noqa: E402

FAITHFUL = ClinicalFaithfulness(options_column="options")
_HF_WEIGHED = ("(a) metoprolol can precipitate shock in acute decompensation; (c) verapamil is negatively inotropic; "
               "(d) fluids worsen the overload; (e) digoxin does not relieve congestion.")


@pytest.mark.parametrize(
    "conclusion,box,score",
    [
        ("→ (b).", "B", 1.0),
        ("So (b).", "B", 1.0),
        ("→ Ⓑ.", "B", 1.0),
        ("So the second option.", "B", 1.0),
        ("→ (e).", "B", 0.0),  # the small letter of another option
        ("So the fifth option.", "B", 0.0),
    ],
)
def test_faithfulness_reads_small_circled_and_ordinal_conclusions(conclusion, box, score):
    text = f"<think>Congested and hypertensive. {_HF_WEIGHED} {conclusion}</think>\n<answer>\\boxed{{{box}}}</answer>"
    assert FAITHFUL.score_rollout(text, HF_ROW).score == score


# --- kg_triplet_consistency: a laterality abbreviation before a finding or a place is the side -----------------------
from polyreward.verifiers.radiology_kg import default_lexicon, extract_kg, spelled_sides  # noqa: E402


@pytest.mark.parametrize(
    "short,long",
    [
        ("Moderate R PTX.", "Moderate right pneumothorax."),
        ("Small L pleural effusion.", "Small left pleural effusion."),
        ("Bilat effusions.", "Bilateral effusions."),
        ("Rt apical pneumothorax.", "Right apical pneumothorax."),
        ("R PICC tip in the SVC.", "Right PICC tip in the SVC."),
    ],
)
def test_laterality_abbreviation_reads_as_the_side(short, long):
    assert extract_kg(short) == extract_kg(long)


@pytest.mark.parametrize(
    "tokens,kept",
    [
        (["on", "2", "l", "nasal", "cannula"], True),  # litres of oxygen
        (["option", "r", "is", "wrong"], True),
        (["r", "6th", "rib", "fx"], False),
        (["l", "pneumothorax"], False),
    ],
)
def test_laterality_abbreviation_only_before_a_lexicon_phrase(tokens, kept):
    assert (spelled_sides(tokens, default_lexicon()) == tokens) is kept


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["r", "l", "rt", "bil", "6th", "rib", "pneumothorax", "no", "2", "x"]), max_size=12))
def test_spelled_sides_changes_only_abbreviations(tokens):
    out = spelled_sides(tokens, default_lexicon())
    assert len(out) == len(tokens)
    assert all(a == b or (a in ("r", "l", "rt", "bil") and b in ("right", "left", "bilateral")) for a, b in zip(tokens, out))


# --- reading.normalise: a circled letter is the bracketed letter -----------------------------------------------------
@pytest.mark.parametrize(
    "text,shown",
    [("Ⓐ D-dimer: raised after surgery.", "(A) D-dimer: raised after surgery."), ("answer: ⓒ", "answer: (c)"),
     ("Ⓩ", "(Z)"), ("© 2026", "© 2026"), ("⒜ first", "(a) first")],
)
def test_circled_letter_is_the_bracketed_letter(text, shown):
    assert normalise(text) == shown


def test_circled_box_letter_still_boxes_its_letter():
    assert CRPO.score_rollout(f"{THINK}<answer>Needle decompression. \\boxed{{Ⓒ}}</answer>", {"answer": "C"}).score == 1.0
