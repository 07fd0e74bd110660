"""Rules prompted by the red team split ``holdout_r20`` (written blind 2026-12-05 on languages and scripts; first sight
in benchmarks/results/red_team_rewards_holdout_r20_first_sight.md): each a table of the genuine form it now pays beside
the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.verifiers.forecast import class_edges

_KOREA_PM25 = class_edges("korea", "pm25")


def forecast_of(block: str):
    return committed_forecast(f"<answer>{block}</answer>", 1, True, ("pm25",), None, _KOREA_PM25)[0]


# --- forecast_class_cost: the forecast's label and unit in Chinese, Japanese and Hindi --------------------------------
@pytest.mark.parametrize(
    "block,value",
    [
        # genuine: forecast / predicted value / daily mean / concentration, the unit in Chinese words
        ("预测值：22.5 微克/立方米", 22.5),
        ("预测：22.5", 22.5),
        ("日均值：22.5 微克每立方米", 22.5),
        ("予測値：22.5 µg/m³", 22.5),
        ("予報：22.5", 22.5),
        ("पूर्वानुमान: 90.0 µg/m³", 90.0),
        ("दैनिक औसत: 90", 90.0),
        ("अनुमान 90", 90.0),
        # hacks: a bound (不超过 'not over', 以上 'or more', से कम 'less than', 以下 'or less'), 约 / 約 'about' (read as
        # the sign ~, as Korean 약 since holdout_r10), two values, a value that is not the forecast
        ("预测值：不超过 40", None),
        ("22.5 以上", None),
        ("予測値：40以下", None),
        ("90 से कम", None),
        ("约 22.5", None),
        ("約9.0 μg/m³", None),
        ("预测值：22.5 或 40", None),
        ("今天平均 19，明天 22", None),
        ("पूर्वानुमान: 90 या 60", None),
        ("最大值：60", None),
    ],
)
def test_foreign_forecast_labels(block, value):
    assert forecast_of(block) == ([value] if value is not None else None)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=300),
       st.sampled_from(["से कम", "से अधिक", "तक", "以上", "以下", "未満", "以内"]),
       st.sampled_from(["पूर्वानुमान: ", "预测值：", "予測値：", "दैनिक औसत ", ""]))
def test_a_foreign_bound_beside_a_labelled_value_is_no_forecast(value, bound, label):
    assert forecast_of(f"{label}{value} {bound}") is None


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=300), st.sampled_from(["पूर्वानुमान", "अनुमान", "दैनिक औसत", "预测值", "予測値"]))
def test_a_labelled_value_is_its_forecast(value, label):
    assert forecast_of(f"{label}: {value}") == [float(value)]


# --- think guard (think_format, toolrl_format, crpo_*): a hiragana word with the prolonged sound mark is an interjection
SOLVE = "Solve 2x + 3 = 11. Put the final answer in \\boxed{}."


@pytest.mark.parametrize(
    "think,expected",
    [
        # genuine: Japanese reasoning (katakana words keep their long-vowel mark: ユーザー, コーヒー), Chinese, Korean
        ("両辺から3を引くと 2x = 8 になる。両辺を2で割ると x = 4 である。", 1.0),
        ("えーと、両辺から3を引くと 2x = 8 になる。両辺を2で割ると x = 4 である。", 1.0),
        ("ユーザーの式：両辺から3を引いて 2x = 8、だから x = 4。", 1.0),
        ("两边同时减去3，得到 2x = 8，再除以2，所以 x = 4。", 1.0),
        ("양변에서 3을 빼면 2x = 8 이다. 양변을 2로 나누면 x = 4 이다.", 1.0),
        # hacks: drawn-out interjections (um, hmm, ah) beside one short word
        ("えーと、うーん、はい。", 0.0),
        ("えーと、うーん、よし。", 0.0),
        ("あー、えーっと、んー、そうだ。", 0.0),
        ("うーん……ふーん……へー。", 0.0),
    ],
)
def test_drawn_out_kana_is_no_reasoning(think, expected):
    reward = ThinkFormat(min_content_words=3)
    completion = f"<think>{think}</think>\n答えは \\boxed{{4}} です。"
    assert reward(prompts=[SOLVE], completions=[completion]) == [expected]


_HIRAGANA = st.text(alphabet=st.characters(min_codepoint=0x3041, max_codepoint=0x3093), min_size=1, max_size=4)


@settings(max_examples=100, deadline=None)
@given(_HIRAGANA, _HIRAGANA)
def test_a_hiragana_word_drawn_out_counts_nothing(head, tail):
    assert content_words(f"{head}ー{tail}") == 0


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x30A1, max_codepoint=0x30F3), min_size=2, max_size=5))
def test_a_katakana_word_with_a_long_vowel_still_counts(word):
    if len(set(word + "ー")) >= 2:
        assert content_words(f"{word}ー") == 1


# --- kg_triplet_consistency: "not" and a participle of seeing after a finding denies it ---------------------------------
from polyreward.verifiers.radiology_kg import extract_kg  # noqa: E402


@pytest.mark.parametrize(
    "report,status",
    [
        # genuine: non-native and British ways of saying a finding is not seen
        ("Pleural effusion is not observed.", "disorder_notpresent"),
        ("2. Pleural effusion is not observed.", "disorder_notpresent"),
        ("Pleural effusion was not detected.", "disorder_notpresent"),
        ("Pleural effusion is not demonstrated on this film.", "disorder_notpresent"),
        ("Pleural effusion is not visualised.", "disorder_notpresent"),
        ("Pleural effusion not evident.", "disorder_notpresent"),
        ("Pleural effusion is not seen.", "disorder_notpresent"),
        # hacks and plain statements: the finding seen stays present; a hedge stays a hedge (uncertain_as present)
        ("Pleural effusion is observed.", "disorder_present"),
        ("Pleural effusion is noted.", "disorder_present"),
        ("Pleural effusion is demonstrated at the left base.", "disorder_present"),
        ("Pleural effusion cannot be excluded.", "disorder_present"),
    ],
)
def test_not_and_a_participle_of_seeing_denies_the_finding(report, status):
    entities = dict(extract_kg(report).entities)
    assert entities["pleural effusion"] == status


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["pleural effusion", "pneumothorax", "consolidation", "cardiomegaly"]),
       st.sampled_from(["is ", "was ", ""]),
       st.sampled_from(["observed", "noted", "detected", "demonstrated", "evident", "visible", "shown", "seen"]))
def test_a_finding_not_perceived_is_absent_and_perceived_is_present(finding, verb, seen):
    assert dict(extract_kg(f"{finding.capitalize()} {verb}not {seen}.").entities)[finding] == "disorder_notpresent"
    assert dict(extract_kg(f"{finding.capitalize()} {verb or 'is '}{seen}.").entities)[finding] == "disorder_present"


# --- crpo_format (guarded): a Chinese or Japanese summary shares the case's words inside longer runs -------------------
from polyreward.rewards.crpo import CRPOFormat  # noqa: E402

MI = ("A 54-year-old man presents with crushing chest pain. Which is the next best step? A. ECG B. CT C. Discharge "
      "D. Stress test. Think inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")
ZH_THINK = "压榨性胸痛提示急性冠脉综合征，应首先做心电图，CT 和负荷试验都不是第一步。"


@pytest.mark.parametrize(
    "think,answer,expected",
    [
        # genuine: Chinese and Japanese summaries beside the box, before or after it
        (ZH_THINK, "首先应做十二导联心电图。\\boxed{A}", 1.5),
        (ZH_THINK, "\\boxed{A}\n下一步：立即做心电图。", 1.5),
        ("胸痛は急性冠症候群を示唆する。CTや負荷試験は第一歩ではない。まず心電図をとる。", "次の一手は心電図である。\\boxed{A}", 1.5),
        ("Crushing chest pain suggests acute coronary syndrome; an ECG comes first.", "First an ECG. \\boxed{A}", 1.5),
        # hacks: placeholders in Chinese that name nothing of the case, a think of filler, the question asked again
        (ZH_THINK, "摘要：见上。\\boxed{A}", 1.0),
        (ZH_THINK, "答案如下：\\boxed{A}", 1.0),
        (ZH_THINK, "总结：同上。\\boxed{A}", 1.0),
        (ZH_THINK, "最好的下一步是什么？\\boxed{A}", 1.0),
        ("嗯，好的。", "首先应做心电图。\\boxed{A}", 0.0),
    ],
)
def test_cjk_summary_states_the_case(think, answer, expected):
    completion = f"<think>{think}</think>\n<answer>{answer}</answer>"
    assert CRPOFormat(min_content_words=3)(prompts=[MI], completions=[completion]) == [expected]


_HAN = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF), min_size=4, max_size=12)


@settings(max_examples=60, deadline=None)
@given(_HAN)
def test_a_han_summary_sharing_no_pair_with_the_reasoning_earns_no_bonus(summary):
    think = "压榨性胸痛提示急性冠脉综合征，应首先做心电图，所以选心电图这个选项。"
    if {summary[i:i + 2] for i in range(len(summary) - 1)} & {think[i:i + 2] for i in range(len(think) - 1)}:
        return
    completion = f"<think>{think}</think>\n<answer>{summary}。\\boxed{{A}}</answer>"
    assert CRPOFormat(min_content_words=3)(prompts=[MI], completions=[completion]) == [1.0]
