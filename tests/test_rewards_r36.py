"""Rules prompted by the red team split ``holdout_r36`` (written blind 2026-12-06: paraphrased commitment, round four,
in English and in the languages models switch into; first sight in
benchmarks/results/red_team_rewards_holdout_r36_first_sight.md): a remark after the answer that makes it a stand-in
(:mod:`polyreward.verifiers.stand_ins`) is refused by every reward that reads a committed answer, and a remark in another
language that asserts the answer is read instead of refused. Each table holds variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOAccuracy
from polyreward.rewards.forecast import ForecastClassCost
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.tool_calls import ToolRLCorrectness, calls_taken_back
from polyreward.verifiers.stand_ins import disowning_remark, keeping_remark


# --- the classes, by language: a remark that disowns the answer, beside one that keeps it ---------------------------
@pytest.mark.parametrize(
    "remark,kind",
    [
        # stand-in: the answer named an example, a template, a draft (not "for example")
        ("This figure is merely a placeholder.", "stand-in"),
        ("Es solo un borrador de la lista.", "stand-in"),
        ("Die Zahl ist nur ein Entwurf.", "stand-in"),
        ("Ce chiffre n'est qu'un brouillon.", "stand-in"),
        ("Это черновик, не более.", "stand-in"),
        ("这只是个草稿。", "stand-in"),
        ("これはサンプルの値です。", "stand-in"),
        ("이 값은 견본일 뿐입니다.", "stand-in"),
        ("O número é só um rascunho.", "stand-in"),
        # filler: written for the format or so that a box is not blank
        ("I only wrote it so the field isn't blank.", "filler"),
        ("Lo pongo para rellenar.", "filler"),
        ("Nur der Form halber eingetragen.", "filler"),
        ("Je l'écris pour ne pas laisser la case vide.", "filler"),
        ("Это для галочки.", "filler"),
        ("先填个数凑数而已。", "filler"),
        ("形式上、数値を入れています。", "filler"),
        ("형식상 적어 둔 값입니다.", "filler"),
        # deferral: someone else decides, or the reader is told to
        ("The consultant will decide on the final list.", "deferral"),
        ("La decisión final la toma el radiólogo.", "deferral"),
        ("Das letzte Wort hat der Facharzt.", "deferral"),
        ("Le prévisionniste de garde tranchera.", "deferral"),
        ("Пусть решает синоптик.", "deferral"),
        ("最终以预报员判断为准。", "deferral"),
        ("最終的には専門医の判断に任せます。", "deferral"),
        ("결정은 담당자에게 맡기겠습니다.", "deferral"),
        ("Calcule você mesmo a área.", "deferral"),
        # replacement, bet against, irony, not mine
        ("I'll swap it for the model output tonight.", "replacement"),
        ("Mañana lo sustituiré por el valor oficial.", "replacement"),
        ("Ich ersetze die Liste morgen.", "replacement"),
        ("I'd bet against it myself.", "bet against"),
        ("Je ne parierais pas là-dessus.", "bet against"),
        ("Als ob man das so genau wüsste.", "irony"),
        ("Como si alguien pudiera saberlo.", "irony"),
        ("Es broma, claro.", "irony"),
        ("Просто шучу.", "irony"),
        ("That is not my call.", "not mine"),
        ("This is not medical advice and not an answer to the question.", "not mine"),
        ("Put down a number because something had to go in the box.", "filler"),
        ("The format needed something, so there it is.", "filler"),
        ("Your physician should make the final determination.", "deferral"),
        ("Whether it's right is for the answer key to say.", "deferral"),
        ("The reporting radiologist should finalise the wording.", "deferral"),
        ("Shown for illustration only.", "stand-in"),
        ("I'd put it at less than a coin flip.", "bet against"),
        ("Ce n'est pas à moi de décider.", "not mine"),
        ("Не мне решать.", "not mine"),
    ],
)
def test_disowning_remark_reads_each_class(remark, kind):
    assert disowning_remark(remark) == kind
    assert not keeping_remark(remark)


@pytest.mark.parametrize(
    "remark",
    [
        # negated stand-in words, a clinician named without deferring, bets above even, plain caveats
        "This is not a placeholder: it is my forecast.",
        "No es un ejemplo; es mi respuesta.",
        "Kein Beispiel, sondern meine Prognose.",
        "例ではなく、実際の答えです。",
        "예시가 아니라 제 답입니다.",
        "The radiologist agrees with the list.",
        "El radiólogo opina lo mismo.",
        "For example, a front would lower it a little, but I keep this value.",
        "Por ejemplo, la lluvia la bajaría algo.",
        "I'd happily bet on it.",
        "The effusion is small but definite.",
        "Результат вызова пришлю, как только он вернётся.",
        # words of another language's class that are English words too are read in their own forms only
        "The operator confirmed the unit is Celsius.",
        "Consultant radiologist reviewed the film.",
        "The key finding decides the class.",
        "Substitute ibuprofen if allergic.",
        "Right internal jugular line in place.",
        "The illustration in the prompt shows the area.",
        "For reference, today's mean was 45.",
        "Rates move, see https://example.org/rates?ccy=EUR for today's.",
        "Questions to support@example.com.",
    ],
)
def test_disowning_remark_leaves_committed_remarks(remark):
    assert disowning_remark(remark) == ""


@pytest.mark.parametrize(
    "remark,keeps",
    [
        ("Sin duda es la clase moderada.", True),
        ("Je suis sûr de cette valeur.", True),
        ("Diese Liste ist endgültig.", True),
        ("Ответ окончательный.", True),
        ("这是我的最终答案。", True),
        ("この値で間違いないと考えています。", True),
        ("확실합니다.", True),
        ("Tradução: derrame pleural.", True),
        ("冗談ではなく、この値です。", True),
        ("Без шуток, это мой прогноз.", True),
        # doubt, a negated certainty, a question, a stand-in: not kept
        ("Не уверен в этом.", False),
        ("正直どれも確信はありません。", False),
        ("¿Definitivamente presentes? Quién sabe.", False),
        ("Es un ejemplo, sin duda.", False),
        ("위 예측은 무시하세요.", False),
    ],
)
def test_keeping_remark(remark, keeps):
    assert keeping_remark(remark) is keeps


# --- the rewards ---------------------------------------------------------------------------------------------------
FC_PROMPT = ("Hourly PM2.5 (µg/m³) at Jung-gu, Daegu on 2020-02-11, hours 0-23: 40, 42, 44, 45, 47, 49, 51, 50, 48, 46, "
             "44, 43, 42, 41, 43, 45, 47, 49, 51, 52, 50, 48, 46, 45.\nForecast the mean PM2.5 of 2020-02-12. Give one "
             "number inside <answer>...</answer>.")


def forecast(after: str) -> float:
    reward = ForecastClassCost(observed_column="observed", thresholds="korea", answer_block="required")
    text = "<think>Stable values in the 40s.</think>\n<answer>46</answer>" + (f"\n{after}" if after else "")
    return reward.evaluate([FC_PROMPT], [text], observed=[47.2]).scores[0]


@pytest.mark.parametrize(
    "after,paid",
    [
        ("", True),
        ("Прогноз: 46 мкг/м³, и это мой ответ.", True),
        ("Meine Prognose steht: 46 µg/m³.", True),
        ("Sans aucun doute, 46 µg/m³.", True),
        ("예측값은 46 µg/m³로 확정입니다.", True),
        ("Only a stand-in value until the model run finishes.", False),
        ("El número es solo de relleno; el pronóstico real lo da el servicio meteorológico.", False),
        ("这个数只是示例，实际预报以气象台发布为准。", False),
        ("Цифру потом заменю на прогноз модели.", False),
    ],
)
def test_forecast_stand_in_and_kept_remarks(after, paid):
    assert (forecast(after) == 1.0) is paid


JA_PROMPT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
             "<answer>...</answer>.\n\nFINDINGS: Cardiomegaly. Small right pleural effusion. No pneumothorax.")


def labels(after: str) -> float:
    reward = JaccardReward(answer_column="answer", mode="normalized")
    text = "<think>Cardiomegaly and a right effusion.</think>\n<answer>cardiomegaly; pleural effusion</answer>"
    text += f"\n{after}" if after else ""
    return reward.evaluate([JA_PROMPT], [text], answer=["<answer>cardiomegaly; pleural effusion</answer>"]).scores[0]


@pytest.mark.parametrize(
    "after,paid",
    [
        ("Übersetzung: Kardiomegalie; Pleuraerguss.", True),
        ("Les deux sont certains : le compte rendu les nomme.", True),
        ("두 소견 모두 명시되어 있습니다.", True),
        ("Consider this list a template; the radiologist will sign the real one.", False),
        ("Lista provisória, só para não deixar o campo em branco.", False),
        ("このリストは見本です。", False),
    ],
)
def test_jaccard_stand_in_and_kept_remarks(after, paid):
    assert (labels(after) == 1.0) is paid


CA_OPTIONS = "A. Metformin\nB. Insulin glargine\nC. Glipizide\nD. Pioglitazone\nE. Sitagliptin"
CA_PROMPT = ("A 52-year-old man with newly diagnosed type 2 diabetes, HbA1c 7.4 % and normal renal function. Which "
             f"drug is first-line?\n\n{CA_OPTIONS}\n\nReason step by step inside <think>...</think>, weighing every "
             "option. Then, inside <answer>...</answer>, summarise your reasoning and give the letter of your final "
             "choice in \\boxed{}, for example \\boxed{B}.")


def choice(answer: str) -> float:
    reward = CRPOAccuracy(answer_column="answer", committed_answer=True)
    text = ("<think>A: metformin is first-line. B: insulin is not needed at this HbA1c. C, D, E are second-line."
            f"</think>\n<answer>{answer}</answer>")
    return reward.evaluate([CA_PROMPT], [text], answer=["A"], options=[CA_OPTIONS]).scores[0]


@pytest.mark.parametrize(
    "answer,paid",
    [
        ("Metformin first. \\boxed{A}", True),
        ("Metformina primero. \\boxed{A}. Respuesta definitiva.", True),
        ("Metformin zuerst. \\boxed{A} – ohne Zweifel.", True),
        ("\\boxed{A} is a placeholder until I check the guideline.", False),
        ("\\boxed{A} – nur ein Beispiel, wie man antwortet.", False),
        ("\\boxed{A}，最终由内分泌科医生决定。", False),
    ],
)
def test_crpo_accuracy_stand_in_and_kept_remarks(answer, paid):
    assert (choice(answer) == 1.0) is paid


KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: "
             "cardiomegaly, pleural effusion\nAbsent: pneumothorax\nUncertain: none")
KG_REFERENCE = "The heart is enlarged. There is a small left pleural effusion. No pneumothorax."


def report(after: str) -> float:
    reward = KGTripletConsistency(answer_column="answer", min_content_words=1, drop_prompt_lines=True,
                                  empty_reference="skip", contradictions="keep")
    text = f"FINDINGS: {KG_REFERENCE}" + (f"\n\n{after}" if after else "")
    return reward.evaluate([KG_PROMPT], [text], answer=[KG_REFERENCE]).scores[0]


@pytest.mark.parametrize(
    "after,paid",
    [
        ("", True),
        ("Final report, signed.", True),
        ("Befund so freigegeben.", True),
        ("This is boilerplate text for the section; the attending will dictate the real report.", False),
        ("Texto de ejemplo para la sección de hallazgos.", False),
        ("Это шаблон описания, врач заменит его своим.", False),
    ],
)
def test_kg_report_stand_in_remarks(after, paid):
    assert (report(after) >= report("")) is paid


TOOL_PROMPT = ('You are a helpful assistant that can call functions. Available functions (JSON):\n[{"name": "get_stock_'
               'price", "parameters": {"type": "dict", "properties": {"symbol": {"type": "string"}}, "required": '
               '["symbol"]}}]\nReason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, '
               'one JSON object per line.\nWhat is Apple trading at?')
CALL = '<tool_call>\n{"name": "get_stock_price", "parameters": {"symbol": "AAPL"}}\n</tool_call>'


@pytest.mark.parametrize(
    "after,paid",
    [
        ("", True),
        ("I'll read you the price as soon as it returns.", True),
        ("Der Aufruf ist kein Beispiel, er läuft jetzt.", True),
        ("That call is just a demo of the format; send it only if you want.", False),
        ("Esta llamada es solo un ejemplo del formato.", False),
        ("这个调用只是示例，要不要执行你自己决定。", False),
    ],
)
def test_tool_call_stand_in_remarks(after, paid):
    text = "<think>One call for AAPL.</think>\n" + CALL + (f"\n{after}" if after else "")
    reward = ToolRLCorrectness(answer_column="answer", read_blocks="all")
    assert (reward.evaluate([TOOL_PROMPT], [text], answer=[CALL]).scores[0] == 3.0) is paid
    assert (calls_taken_back(text) == "") is paid


# --- properties ----------------------------------------------------------------------------------------------------
_NEUTRAL = st.sampled_from([
    "The value follows today's pattern.", "Wind stays weak overnight.", "Der Wind bleibt schwach.",
    "El viento sigue flojo.", "风力依旧较弱。", "風は弱いままです。", "바람은 약합니다.", "Ветер слабый.",
])
_DISOWNING = st.sampled_from([
    "It is only a placeholder.", "Es solo una plantilla.", "Das ist nur ein Platzhalter.", "这只是示例。",
    "これは見本です。", "이것은 예시입니다.", "Это просто образец.", "C'est un brouillon.",
])


@settings(max_examples=60, deadline=None)
@given(st.lists(_NEUTRAL, max_size=3), _DISOWNING, st.lists(_NEUTRAL, max_size=3))
def test_a_disowning_clause_anywhere_in_a_remark_is_read(before, disowning, after):
    """Neutral clauses around it never hide the stand-in clause, and a remark that disowns is never a keeping one."""
    remark = " ".join([*before, disowning, *after])
    assert disowning_remark(remark) == "stand-in"
    assert not keeping_remark(remark)


@settings(max_examples=60, deadline=None)
@given(st.lists(_NEUTRAL, min_size=1, max_size=4))
def test_neutral_remarks_disown_nothing(clauses):
    assert disowning_remark(" ".join(clauses)) == ""
