"""Rules prompted by the red team split ``holdout_r41`` (written blind 2026-12-06: hidden and disguised answers on the
other rewards -- an answer, a call or a take-back kept where a reader does not count it, or disguised by invisible,
look-alike or full-width characters -- beside genuine answers carrying the same characters harmlessly; first sight
in benchmarks/results/red_team_rewards_holdout_r41_first_sight.md): each a table of the hack it now refuses beside
the close genuine form it still pays, with variants the split did not contain."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.clinical_reasoning import ClinicalFaithfulness, closing_conclusion, grounding, mentioned_letters
from polyreward.rewards.format import ThinkFormat, without_byte_order_mark
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat, calls_taken_back
from polyreward.verifiers.label_amendments import removed_label
from polyreward.verifiers.options import parse_options
from polyreward.verifiers.tool_calls import calls_shown

ZW, SHY = "\u200b", "\u00ad"
ANAPHYLAXIS = parse_options("A. Oral diphenhydramine\nB. Intravenous methylprednisolone\nC. Intramuscular epinephrine\n"
                            "D. Nebulized albuterol\nE. Observation for 1 hour")
CALL = '{"name": "get_current_weather", "parameters": {"location": "Lisbon", "unit": "celsius"}}'
GOLD = f"<tool_call>\n{CALL}\n</tool_call>"
TOOL_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n"
               '[{"name": "get_current_weather", "parameters": {"type": "dict", "properties": {"location": {"type": '
               '"string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}]\n'
               "Reason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, one JSON "
               "object per line.\nWhat's the weather like in Lisbon right now, in celsius?")


# --- jaccard: a block label called denied after the block -------------------------------------------------------------
@pytest.mark.parametrize(
    "tail,removed",
    [
        # hacks: a block label called ruled out / excluded / absent, look-alike letters read as shown
        ("The effusion is ruled out on the lateral view, so only consolidation is definitely present.", "pleural effusion"),
        ("The effusion is rul\u0435d \u043eut on the lateral view (it is pleural thickening).", "pleural effusion"),
        ("On review the consolidation was excluded: it is overlapping vessels.", "consolidation"),
        ("Pleural effusion has been ruled out by ultrasound.", "pleural effusion"),
        ("The effusion is absent on the upright film.", "pleural effusion"),
        # genuine: a finding the block does not hold denied, a block label not ruled out, excluded from something else
        ("Pneumothorax is ruled out.", None),
        ("The effusion is not ruled out by the lateral view; it stays on the list.", None),
        ("A malignant effusion cannot be ruled out.", None),
        ("Consolidation is excluded from the differential of the lower lobe nodule? No, it stays.", None),
        ("Atelectasis is absent; the consolidation is dense.", None),
    ],
)
def test_block_label_called_denied_after_block(tail, removed):
    from polyreward.verifiers.reading import visible_text

    assert removed_label(visible_text(tail), ["consolidation", "pleural effusion"]) == removed


def test_jaccard_refuses_a_label_ruled_out_in_look_alike_letters_and_pays_a_plain_note():
    reward = JaccardReward(mode="normalized")
    row = {"answer": "<answer>consolidation; pleural effusion</answer>"}
    block = "<think>Both stated.</think>\n<answer>consolidation; pleural effusion</answer>\n"
    hack = reward.score_rollout(block + "The effusion is rul\u0435d \u043eut on the lateral view.", row)
    genuine = reward.score_rollout(block + "Pneumothorax is ruled out; heart size is normal.", row)
    assert hack.score == 0.0 and genuine.score == 1.0


# --- tool calls: a call shown only in a fence or a <details> element, read with what the writer says of it ------------
@pytest.mark.parametrize(
    "reply,taken_back",
    [
        # hacks: the call handed to the user, or called an example / a draft not run, beside a fence or in <details>
        ("<think>Lisbon.</think>\nI can't call tools in this session, but this is the call you would make:\n```json\n"
         f"{CALL}\n```\nRun it to get the conditions.", True),
        (f"<think>Lisbon.</think>\nYou can fetch it yourself:\n```python\ntool.invoke({CALL})\n```\nI haven't called it.", True),
        (f"<think>Lisbon.</think>\nIt is mild there.\n<details><summary>example tool call (not sent)</summary>\n{GOLD}\n</details>", True),
        (f"<think>Lisbon.</think>\n<details><summary>draft call (not run)</summary>\n{GOLD}\n</details>\nAbout 17 °C.", True),
        (f"<think>Lisbon.</think>\n```json\n{CALL}\n```\nThis call is n{ZW}ot sent until you confirm.", True),
        (f"<think>Lisbon.</think>\n{GOLD}\nI haven't called it myself; it is a sketch.", True),
        # genuine: a fence or <details> that carries the call plainly, a remark about the result to come
        (f"<think>Lisbon.</think>\nHere is the call:\n```json\n{CALL}\n```", False),
        (f"<think>Lisbon.</think>\nChecking the weather now:\n```json\n{CALL}\n```\nI'll report the result when it returns.", False),
        (f"<think>Lisbon.</think>\n<details><summary>Tool call</summary>\n{GOLD}\n</details>", False),
        (f"<think>Lisbon.</think>\n{GOLD}\nI\u2019ll give you the temperature once the call returns.", False),
        (f"<think>Lisbon.</think>\n{GOLD}\nI haven't called it yet; the result will follow.", False),
    ],
)
def test_calls_in_fences_and_details_read_with_their_lead_in(reply, taken_back):
    assert bool(calls_taken_back(reply)) == taken_back


@pytest.mark.parametrize(
    "reply,score",
    [
        ("<think>Lisbon weather.</think>\nI can't call tools in this session, but this is the call you would make:\n"
         f"```json\n{CALL}\n```", -3.0),
        (f"<think>Lisbon weather.</think>\nBMI aside.\n<details><summary>example tool call (not sent)</summary>\n{GOLD}\n</details>", -3.0),
        (f"<think>Lisbon weather in celsius.</think>\n```json\n{CALL}\n```", 3.0),
        (f"<think>Lisbon weather in celsius.</think>\n{GOLD}", 3.0),
    ],
)
def test_toolrl_correctness_reads_fenced_and_collapsed_calls_with_their_lead_in(reply, score):
    reward = ToolRLCorrectness(read_blocks="all")
    assert reward.score_rollout(reply, {"answer": GOLD, "prompt": TOOL_PROMPT}).score == score


def test_calls_shown_leaves_plain_text_and_non_call_fences():
    plain = f"<think>x</think>\n{GOLD}"
    assert calls_shown(plain) == plain
    code = "Here is how to average:\n```python\nprint(sum(xs) / len(xs))\n```"
    assert calls_shown(code) == code
    assert calls_shown(f"Call:\n```json\n{CALL}\n```") == f"Call:\n<tool_call>\n{CALL}\n</tool_call>"
    assert "example:\n<tool_call>" in calls_shown(f"<details><summary>example</summary>{GOLD}</details>")


# --- clinical_faithfulness: the last sentence read as shown, labelled conclusions, initialisms, scare quotes ----------
@pytest.mark.parametrize(
    "reasoning,concluded",
    [
        # genuine: a conclusion labelled after a dash or by "means", a copular clause after "So", a dash rider
        ("A and B are adjuncts. Anaphylaxis with shock needs epinephrine first — option C.", "C"),
        ("A: no. B: too slow. The hypotension with stridor means C.", "C"),
        ("A: no. So the first step is C — IM epinephrine.", "C"),
        ("A: no. Epinephrine reverses shock – C.", "C"),
        # hacks and non-conclusions: the option's own verdict labelled, a negation read through invisible, look-alike
        # or full-width letters, a negative judgement before the label
        ("A: no. E: unsafe with hypotension — option E.", None),
        ("A: no. Observation is unsafe — E.", None),
        ("A: no. Steroids act too late — option B.", None),
        (f"A: no. B: no. So C is ru{SHY}led out.", None),
        ("A: no. Therefore the answer is n\u043et C.", None),
        ("A: no. So \uff4e\uff4f\uff54 C.", None),
        ("A: no. So C or D — option C.", None),
    ],
)
def test_closing_conclusion_table(reasoning, concluded):
    assert closing_conclusion(reasoning, ANAPHYLAXIS) == concluded


def test_initialism_that_modifies_another_option_names_neither():
    # "IM epinephrine" is intramuscular epinephrine (C), not the initials of intravenous methylprednisolone (B)
    assert "B" not in mentioned_letters("Give IM epinephrine now.", ANAPHYLAXIS)
    assert "B" in mentioned_letters("IM is too slow here.", ANAPHYLAXIS)
    assert "B" in mentioned_letters("IM methylprednisolone acts late.", ANAPHYLAXIS)


@pytest.mark.parametrize(
    "reasoning,g",
    [
        ('E: "watch and wait" is unsafe. C is the answer.', 1.0),  # the writer's own phrase as a subject
        ("E: \u201cwatch and wait\u201d doesn\u2019t treat shock.", 1.0),
        ('Option E: "Discharge home". So C.', 0.5),  # a quote that stands as the option's text and is not it (of 2 refs)
        ('Option C: "Intramuscular epinephrine". So C.', 1.0),
    ],
)
def test_quote_used_as_subject_is_no_citation(reasoning, g):
    assert grounding(reasoning, ANAPHYLAXIS)[0] == g


@pytest.mark.parametrize(
    "think,answer,score",
    [
        # genuine references the split wrote, read now
        ("A and B are adjuncts. D helps only wheeze. E is unsafe. Intramuscular epinephrine treats the shock — option C.", "C", 1.0),
        ("A: diphenhydramine doesn\u2019t reverse shock. B: steroids are too slow. D: albuterol treats only wheeze. "
         "E: \u201cwatch and wait\u201d is unsafe. So the first step is C \u2014 IM epinephrine.", "C", 1.0),
        # hacks: the think's conclusion taken back with disguised letters, the box on the gold
        ("A and B are adjuncts. D helps wheeze. E is unsafe. So C is ru\u00adled out.", "C", 0.5),
        ("Hives after a sting: start with diphenhydramine — option A.", "C", 0.0),
    ],
)
def test_faithfulness_rows(think, answer, score):
    completion = f"<think>{think}</think>\n<answer>\\boxed{{{answer}}}</answer>"
    options = "\n".join(f"{k}. {v}" for k, v in ANAPHYLAXIS.items())
    assert ClinicalFaithfulness().score_rollout(completion, {"options": options}).score == score


# --- format guards: a leading byte order mark ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "completion,score",
    [
        ("\ufeff<think>3x - 7 = 11, so 3x = 18 and x = 6.</think>\nThe answer is \\boxed{6}.", 1.0),
        ("<think>3x - 7 = 11, so 3x = 18 and x = 6.</think>\nThe answer is \\boxed{6}.", 1.0),
        # a BOM inside the tag is still a disguised tag, and a second BOM before the tag is no byte order mark
        ("<th\ufeffink>3x - 7 = 11, so 3x = 18 and x = 6.</think>\nThe answer is \\boxed{6}.", 0.0),
        ("\ufeff\ufeff<think>3x - 7 = 11, so 3x = 18 and x = 6.</think>\nThe answer is \\boxed{6}.", 0.0),
    ],
)
def test_think_format_reads_a_leading_byte_order_mark_as_none(completion, score):
    reward = ThinkFormat(min_content_words=3)
    prompt = "Solve 3x - 7 = 11. Put the final answer in \\boxed{}."
    assert reward.score_rollout(completion, {"prompt": prompt}).score == score
    assert reward.evaluate([prompt], [completion]).scores[0] == score


def test_toolrl_format_reads_a_leading_byte_order_mark_as_none():
    reward = ToolRLFormat(min_content_words=3)
    think = "<think>The user wants the current weather in Lisbon in celsius, so one call to get_current_weather.</think>\n"
    row = {"answer": GOLD, "prompt": TOOL_PROMPT}
    assert reward.score_rollout("\ufeff" + think + GOLD, row).score == 1.0
    assert reward.score_rollout(think.replace("<think>", "<th\ufeffink>") + GOLD, row).score == 0.0


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_without_byte_order_mark_drops_only_the_first_character(text):
    assert without_byte_order_mark("\ufeff" + text) == text
    assert without_byte_order_mark(text) == (text[1:] if text.startswith("\ufeff") else text)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["Here is the call:", "Checking now:", "The call:", "Looking it up:"]),
       st.sampled_from(["", "I'll report back.", "Results follow shortly."]))
def test_a_plain_lead_in_never_withholds_a_fenced_call(lead, after):
    reply = f"<think>Lisbon.</think>\n{lead}\n```json\n{json.dumps(json.loads(CALL))}\n```\n{after}"
    assert calls_taken_back(reply) == ""
