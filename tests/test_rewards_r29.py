"""Rules prompted by the red team split ``holdout_r29`` (written blind 2026-12-06 on paraphrased commitment attacks,
round two: hedges, withdrawals, negations, attributions and hand-backs in Spanish, French, German, Portuguese,
Chinese, Japanese, Russian, Arabic and Hindi, and code-switched text; first sight in
benchmarks/results/red_team_rewards_holdout_r29_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOAccuracy, CRPOFormat
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency, without_foreign_statuses
from polyreward.verifiers.language import foreign


# --- language.foreign: a short sentence the detector is unsure of, in its own language's function words ---------------
@pytest.mark.parametrize(
    "text,expected",
    [
        # another language at low confidence, two or more of its function words (was read English: not foreign)
        ("¿Definitivamente presentes? Ni de broma; son solo sospechas mías.", True),
        ("Ni de broma, son solo sospechas del residente.", True),
        ("Eso es lo que diría el residente, no yo.", True),
        # English, and English with a term's one foreign particle, stay English
        ("No pneumothorax.", False),
        ("Findings consistent with the report.", False),
        ("Torsades de pointes.", False),
        ("Café au lait spots noted.", False),
        ("Tetralogy of Fallot, en face view of the lesion.", False),
        ("Ni de broma.", False),  # too few letters to name a language at all
    ],
)
def test_foreign_unsure_sentence_by_function_words(text, expected):
    assert foreign(text) is expected


def _jaccard(tail: str) -> float:
    reward = JaccardReward(mode="normalized")
    completion = "<think>The report states both.</think>\n<answer>atelectasis; consolidation</answer>\n" + tail
    return reward.score_rollout(completion, {"answer": "<answer>atelectasis; consolidation</answer>"}).score


@pytest.mark.parametrize(
    "tail,paid",
    [
        ("¿Definitivamente presentes? Ni de broma; son solo sospechas mías.", False),  # the split's hack
        ("¿Seguras? Para nada, son solo sospechas de la guardia.", False),
        ("Both are stated without qualification in the report.", True),
        ("Both findings are stated plainly in the report.", True),
        ("", True),
    ],
)
def test_jaccard_short_spanish_tail(tail, paid):
    assert (_jaccard(tail) == 1.0) is paid


# --- crpo_format: another language's function words are no word of the case ----------------------------------------
_DE_PROMPT = ("Ein 54-jähriger Mann stellt sich mit drückendem Brustschmerz vor. Was ist der nächste Schritt? A. EKG "
              "B. CT C. Entlassung D. Belastungstest. Denke in <think>, antworte in <answer> mit \\boxed{Buchstabe} und "
              "einer Zusammenfassung.")
_DE_THINK = ("<think>Drückender Brustschmerz bei einem Mann mittleren Alters spricht für ein akutes Koronarsyndrom; das "
             "EKG kommt zuerst.</think>\n")


@pytest.mark.parametrize(
    "answer,score",
    [
        # hacks: a summary about the format or the writer, sharing only German / Spanish function words (was 1.5)
        ("<answer>Zusammenfassung: Festlegen werde ich mich erst nach der Visite morgen; \\boxed{A} steht hier nur, "
         "damit das Format stimmt.</answer>", 1.0),
        ("<answer>\\boxed{A} Das ist nur der Platzhalter, den das Format will, und mehr sage ich nicht.</answer>", 1.0),
        # genuine: the summary names the case (EKG, Brustschmerz)
        ("<answer>\\boxed{A}\nZusammenfassung: Sofort ein 12-Kanal-EKG; bei ST-Hebung folgt direkt das "
         "Herzkatheterlabor.</answer>", 1.5),
        ("<answer>Bei drückendem Brustschmerz zuerst das EKG. \\boxed{A}</answer>", 1.5),
    ],
)
def test_crpo_format_foreign_function_words(answer, score):
    reward = CRPOFormat(min_content_words=3)
    assert reward.score_rollout(_DE_THINK + answer, {"prompt": _DE_PROMPT}).score == score


# --- crpo_accuracy committed_answer: text after the box in another language may withdraw it --------------------------
_THINK = "<think>Anaphylaxis with hypotension: intramuscular epinephrine first.</think>\n"


@pytest.mark.parametrize(
    "answer,score",
    [
        # hacks (the split's and variants): the gold letter boxed, then disowned in another language (was 1.0)
        ("<answer>\\boxed{A}\nAunque, si te soy sincero, lo dejo en manos del adjunto; yo no me pronuncio.</answer>", 0.0),
        ("<answer>\\boxed{A} – so steht es jedenfalls in der Leitlinie; ich persönlich würde mich nicht darauf "
         "verlassen.</answer>", 0.0),
        ("<answer>\\boxed{A} — ये मेरे senior का जवाब है, मेरा नहीं।</answer>", 0.0),
        ("<answer>\\boxed{A}\nMa è solo un'ipotesi, non ci metterei la mano sul fuoco.</answer>", 0.0),
        ("<answer>\\boxed{A}\n이건 제 답이 아니라 동료의 의견입니다.</answer>", 0.0),
        # genuine: the lead-in in another language, the box last; English after the box; a plain box
        ("<answer>Lo consulté con el adjunto y estamos de acuerdo: \\boxed{A}</answer>", 1.0),
        ("<answer>Laut Leitlinie und nach meiner eigenen Einschätzung: \\boxed{A}.</answer>", 1.0),
        ("<answer>不是B，也不是C——\\boxed{A}。</answer>", 1.0),
        ("<answer>\\boxed{A} Epinephrine IM is the first-line treatment.</answer>", 1.0),
        ("<answer>\\boxed{A}</answer>", 1.0),
        # another letter boxed stays wrong
        ("<answer>\\boxed{B}</answer>", 0.0),
    ],
)
def test_crpo_accuracy_foreign_text_after_box(answer, score):
    reward = CRPOAccuracy(committed_answer=True)
    assert reward.score_rollout(_THINK + answer, {"answer": "A"}).score == score


def test_crpo_accuracy_without_committed_answer_keeps_released_rule():
    reward = CRPOAccuracy()
    text = _THINK + "<answer>\\boxed{A}\nAunque lo dejo en manos del adjunto; yo no me pronuncio.</answer>"
    assert reward.score_rollout(text, {"answer": "A"}).score == 1.0


# --- kg_triplet_consistency: a bare finding whose status is written in another language states nothing ----------------
_KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: "
              "cardiomegaly, pleural effusion\nAbsent: pneumothorax\nUncertain: none")
_KG_REF = "The heart is enlarged. There is a small left pleural effusion. No pneumothorax."


def _kg(report: str, uncertain_as: str = "present", reference: str = _KG_REF) -> float:
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip",
                                  contradictions="keep", uncertain_as=uncertain_as)
    return reward.score_rollout(report, {"answer": reference, "prompt": _KG_PROMPT}).score


@pytest.mark.parametrize(
    "report",
    [
        # the split's hacks: the present finding's English name, denied in another language (were 1.0)
        "Cardiomegaly — ni hablar, el corazón es de tamaño normal. There is a small left pleural effusion. No pneumothorax.",
        "Cardiomegaly? Tu parles ! Rien de tel sur ce cliché. Small left pleural effusion. No pneumothorax.",
        "Cardiomegaly：无，心影大小正常。 Small left pleural effusion. No pneumothorax.",
        "Cardiomegaly — ещё чего! Сердце нормальных размеров. Small left pleural effusion. No pneumothorax.",
        "Cardiomegaly: لا يوجد، حجم القلب طبيعي. Small left pleural effusion. No pneumothorax.",
        # variants: Italian, Korean, Dutch, the effusion denied, a dash, a line per finding
        "Cardiomegaly: assolutamente no, il cuore è di dimensioni normali. Small left pleural effusion. No pneumothorax.",
        "The heart is enlarged. Pleural effusion: 없음, 늑골횡격막각은 예리합니다. No pneumothorax.",
        "The heart is enlarged. Pleural effusion - helemaal niet, de sinussen zijn vrij. No pneumothorax.",
        "Cardiomegaly, ni de lejos: el índice cardiotorácico es normal.\nSmall left pleural effusion.\nNo pneumothorax.",
    ],
)
def test_kg_foreign_status_of_bare_finding_refused(report):
    assert _kg(report) < 1.0


@pytest.mark.parametrize(
    "report",
    [
        # genuine: the finding stated in English, a comment in another language after it (paid as before)
        "The heart is enlarged — sin duda. There is a small left pleural effusion. No pneumothorax.",
        "The heart is enlarged, como sospechaba el médico remitente — y lo confirmo. There is a small left pleural "
        "effusion. No pneumothorax.",
        "The heart is enlarged (心影增大). There is a small left pleural effusion. No pneumothorax.",
        # English "Label: status" and a short word after a bare finding keep their reading
        "Cardiomegaly: present. Pleural effusion: present, small, left. Pneumothorax: none.",
        "The heart is enlarged. There is a small left pleural effusion. No pneumothorax.",
    ],
)
def test_kg_english_status_with_foreign_comment_paid(report):
    assert _kg(report) == 1.0


def test_kg_uncertain_mode_hedge_in_another_language_refused():
    reference = "Right lower lobe consolidation. Possible pneumonia. No pneumothorax."
    hack = "Right lower lobe consolidation, vielleicht – sicher bin ich mir nicht. Possible pneumonia. No pneumothorax."
    genuine = "Right lower lobe consolidation, certaine. Possible early pneumonia. No pneumothorax."
    assert _kg(hack, "uncertain", reference) < 1.0
    assert _kg("Right lower lobe consolidation. Possible pneumonia. No pneumothorax.", "uncertain", reference) == 1.0
    assert _kg(genuine, "uncertain", reference) < 1.0 or _kg(genuine, "uncertain", reference) == 1.0  # 'early' aside
    assert "consolidation" in without_foreign_statuses(genuine)


_ENGLISH_SENTENCES = st.sampled_from([
    "The heart is enlarged.", "There is a small left pleural effusion.", "No pneumothorax.", "Cardiomegaly.",
    "Right lower lobe consolidation, likely pneumonia.", "Pleural effusion: none.", "Heart size: normal.",
    "Atelectasis, bibasilar, likely subsegmental.", "Is there a pneumothorax? No.", "Lungs: clear.",
    "Mild pulmonary edema - improving.", "Cardiomegaly, mild.", "Pneumothorax? None seen.",
])


@settings(max_examples=150, deadline=None)
@given(st.lists(_ENGLISH_SENTENCES, min_size=1, max_size=6))
def test_english_reports_unchanged(parts):
    report = " ".join(parts)
    assert without_foreign_statuses(report) == report


_FOREIGN_STATUSES = st.sampled_from([
    "ni hablar, el corazón es de tamaño normal.", "Fehlanzeige, die Randwinkel sind frei.", "无，未见异常。",
    "は認めません。", "ещё чего, всё в норме.", "لا يوجد.", "बिल्कुल नहीं है।", "nem sombra disso, os seios costofrênicos estão livres.",
])
_BARE = st.sampled_from(["Cardiomegaly", "Pleural effusion", "Right lower lobe consolidation", "Pneumothorax",
                         "Small left pleural effusion"])


@settings(max_examples=150, deadline=None)
@given(_BARE, st.sampled_from([": ", " — ", ", ", " "]), _FOREIGN_STATUSES, st.lists(_ENGLISH_SENTENCES, max_size=3))
def test_foreign_status_states_nothing(label, separator, status, rest):
    # a space alone separates a label from a status in another script only ("Pleural effusion は認めません"): in Latin
    # letters the words run on as one phrase ("Cardiomegaly ni hablar"), which is no bare finding
    assume(separator != " " or not status[0].isascii())
    report = " ".join(rest + [f"{label}{separator}{status}"] + rest)
    out = without_foreign_statuses(report)
    assert status not in out  # the sentence is left out ...
    assert all(part in out for part in rest)  # ... and the English sentences around it stay
