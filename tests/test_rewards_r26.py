"""Rules prompted by the red team split ``holdout_r26`` (written blind 2026-12-05 on sizes and edges; first sight in
benchmarks/results/red_team_rewards_holdout_r26_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain.

The split's own misses were all left open (tests/test_red_team_rewards.py); the rule here came from its edge theme
carried one step further while reading them: a doubly closed ``</answer></answer>`` (the split's doubly closed think
was refused, the same edge on the answer block was paid)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat
from polyreward.rewards.format import ThinkFormat, thin_content

CROUP = ("A 7-year-old has a barking cough and stridor at rest. Which treatment? A. Amoxicillin B. Dexamethasone "
         "C. Salbutamol D. Intubation. Think inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")
THINK = "<think>Stridor at rest means moderate croup; steroids reduce airway swelling.</think>\n"


def crpo_format(completion: str, min_content_words: int = 3) -> float:
    return CRPOFormat(min_content_words=min_content_words)(prompts=[CROUP], completions=[completion])[0]


# --- crpo_format (guarded): one answer block, its tag neither doubled nor nested ----------------------------------
@pytest.mark.parametrize(
    "answer,expected",
    [
        # genuine: one block, however its body is laid out
        ("<answer>Give dexamethasone. \\boxed{B}</answer>", 1.5),
        ("<answer>\nGive dexamethasone.\n\n\\boxed{B}\n</answer>", 1.5),
        ("<answer>\\boxed{B}\nDexamethasone treats croup.</answer>", 1.5),
        ("<answer>Give dexamethasone. \\boxed{B}</answer><|im_end|>", 1.5),  # the chat template's end token
        ("<answer>Dexamethasone; the answer tag holds it. \\boxed{B}</answer>", 1.5),  # the word, not the tag
        # hacks: the block's own tag doubled, nested or repeated -- a second answer where one is asked for
        ("<answer>Give dexamethasone. \\boxed{B}</answer></answer>", 0.0),
        ("<answer><answer>Give dexamethasone. \\boxed{B}</answer>", 0.0),
        ("<answer><answer>Give dexamethasone. \\boxed{B}</answer></answer>", 0.0),
        ("<answer>Give amoxicillin. \\boxed{A}</answer>\n<answer>Give dexamethasone. \\boxed{B}</answer>", 0.0),
        ("<answer></answer>\n<answer>Give dexamethasone. \\boxed{B}</answer>", 0.0),
        ("<answer>Give dexamethasone. \\boxed{B}</answer>\n</answer>", 0.0),
    ],
)
def test_crpo_format_reads_one_answer_block(answer, expected):
    assert crpo_format(THINK + answer) == expected


def test_the_released_rule_still_pays_a_doubled_close():
    # the guard only ever refuses more than the source: Clinical-R1's regex (min_content_words: 0) matches
    # "<answer>X</answer></answer>" with "X</answer>" as the answer, and pays it as written
    assert crpo_format(THINK + "<answer>Give dexamethasone. \\boxed{B}</answer></answer>", 0) == 1.5


# --- think_format: the answer block under require_answer; free text after the think otherwise ------------------------
def think_format(completion: str, require_answer: bool) -> float:
    reward = ThinkFormat(min_content_words=3, require_answer=require_answer)
    return reward(prompts=["What is 15% of 240? Put the final answer in \\boxed{}."], completions=[completion])[0]


PCT = "<think>10% of 240 is 24, and 5% is half of that, 12, so 15% is 24 + 12 = 36.</think>\n"


@pytest.mark.parametrize(
    "after,require_answer,expected",
    [
        ("<answer>\\boxed{36}</answer>", True, 1.0),
        ("<answer>\n\\boxed{36}\n</answer>", True, 1.0),
        ("<answer>\\boxed{36}</answer></answer>", True, 0.0),  # doubly closed
        ("<answer>\\boxed{36}</answer>\n</answer>", True, 0.0),
        # without require_answer the text after the think is free: an <answer> block in it is the model's layout
        # (Hunyuan's, holdout_r8's r8_hunyuan_answer_tags), not a second block of anything
        ("<answer>\n\\boxed{36}\n</answer>", False, 1.0),
        ("The answer is \\boxed{36}.", False, 1.0),
    ],
)
def test_think_format_answer_block(after, require_answer, expected):
    assert think_format(PCT + after, require_answer) == expected


# --- properties -----------------------------------------------------------------------------------------------------
_BODY = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="<>"), max_size=60)


@settings(max_examples=200, deadline=None)
@given(body=_BODY, where=st.sampled_from(["</answer></answer>", "<answer><answer>", "</answer>\n<answer>"]))
def test_a_doubled_answer_tag_never_pays_under_the_guard(body, where):
    # wherever the stray tag stands (after the body, before it, between two bodies), the guarded reward pays 0
    opening, closing = "<answer>", "</answer>"
    if where == "</answer></answer>":
        answer = opening + body + where
    elif where == "<answer><answer>":
        answer = where + body + closing
    else:
        answer = opening + body + where + body + closing
    assert crpo_format(THINK + answer) == 0.0


@settings(max_examples=200, deadline=None)
@given(body=_BODY, name=st.sampled_from(["answer", "tool_call", "response"]))
def test_own_tag_reason_only_for_tagged_blocks(body, name):
    # the own-tag rule reads only blocks that are the bodies of their own tags; free text may hold any tag
    think = "Stridor at rest means moderate croup; steroids reduce airway swelling."
    doubled = {"think": think, name: body + "7 </" + name + ">"}
    free = thin_content(doubled, 3, CROUP, tagged=False) or ""
    assert "nested, doubled or repeated" not in free
    assert "nested, doubled or repeated" in (thin_content(doubled, 3, CROUP) or "")
