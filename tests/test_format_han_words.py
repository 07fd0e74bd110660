"""The content guard's words in Chinese (stop 56, after holdout_r29 / holdout_r31 / holdout_r32 met in the merge):
Han characters are counted in pairs (:data:`polyreward.rewards.format._COUNTED_WORD`), with the characters of grammar
read as breaks and the two-character words of filler not counted (:func:`polyreward.rewards.format.counted_words`),
so a Chinese filler think ("嗯。好的。我知道了。") counts 0 as "Hmm. Okay. I see." does, and a sentence of reasoning
counts its words. Also: Latin is believed of the language detector only with Latin grammar words
(:func:`polyreward.verifiers.language.foreign`), so a shuffle of English schema words stays English."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.format import HAN_FILLER_WORDS, content_words
from polyreward.verifiers.language import foreign


@pytest.mark.parametrize("think", [
    "嗯。好的。我知道了。",
    "让我想想。嗯嗯。好的。",
    "好吧，我明白了，我想想。",
    "首先，然后，所以。",
])
def test_chinese_filler_counts_nothing(think: str) -> None:
    assert content_words(think) < 3


@pytest.mark.parametrize("think", [
    "患者有胸痛和呼吸困难，心电图显示ST段抬高，所以诊断为急性心肌梗死。",
    "首先分析选项，然后排除错误答案。B是正确的，因为甲状腺功能亢进。",
    "血糖升高伴多饮多尿，考虑糖尿病。",
])
def test_chinese_reasoning_counts_its_words(think: str) -> None:
    assert content_words(think) >= 3


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(sorted(HAN_FILLER_WORDS) + ["嗯", "好的", "我知道了", "。", "，", "的", "了"]), min_size=1, max_size=30))
def test_any_run_of_chinese_filler_counts_nothing(parts: list[str]) -> None:
    assert content_words("".join(parts)) == 0


@pytest.mark.parametrize("text, expected", [
    ("find_restaurants maximum returns there maximum maximum is", False),   # English schema words, called Latin
    ("maximum maximum optional default returns number", False),
    ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore.", True),
    ("Pondría la mano en el fuego por ambas opciones, pero no estoy seguro.", True),
    ("There is a function which takes a zip code and an optional maximum number of results.", False),
])
def test_latin_only_with_its_grammar(text: str, expected: bool) -> None:
    assert foreign(text) is expected
