"""Reward integrity, round 3 (the non-math rewards): tables of realistic model output in both directions -- the hack
scores lower, genuine answers in varied styles keep full marks -- for tool calls, forecasts, crpo_english, content
words and the length fallback; hypothesis: zero-width or look-alike characters and text hidden in comments never
raise a score; and every shipped config pays a careful answer at least as much as one that skips the reasoning
(scored through the real Scorer built from the config file).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.config import load_config
from polyreward.rewards.crpo import CRPOEnglish, CRPOFormat
from polyreward.rewards.forecast import ForecastClassCost, committed_forecast
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.length import OverlongPenalty, word_count
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.language import english_share
from polyreward.verifiers.tool_calls import ToolCallError, count_tool_calls, parse_tool_call_text

ROOT = Path(__file__).resolve().parents[1]
FILLER = "<think>Let me think.</think>"

# ------------------------------------------------------------------ every shipped config: careful >= terse

MATH_PROMPT = "What is 6 times 7? Put the final answer in \\boxed{}."
MATH_CAREFUL = ("<think>Six groups of seven: 7 + 7 = 14, doubling gives 28, and one more 14 makes 42. Check by division: "
                "42 / 6 = 7.</think>\nThe answer is \\boxed{42}.")
STROKE_OPTIONS = "A. Aspirin\nB. Heparin\nC. Warfarin\nD. Alteplase"
STROKE_PROMPT = ("A 67-year-old man with atrial fibrillation had a minor stroke two weeks ago. Which drug best prevents "
                 f"another stroke?\n\n{STROKE_OPTIONS}")
STROKE_THINK = ("<think>Option A, aspirin, is weaker than anticoagulation in atrial fibrillation. Option B, heparin, is a "
                "short bridge, not long-term prevention. Option D, alteplase, dissolves an acute clot and is too late "
                "now. Option C, warfarin, gives lasting anticoagulation, so it fits.</think>")
TOOL_PROMPT = "Find the area of a triangle with a base of 10 units and height of 5 units."
TOOL_CALL = '<tool_call>\n{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}\n</tool_call>'
TOOL_THINK = "<think>The helper takes base and height as integers; units default, so two arguments suffice.</think>"

# config -> (row columns, careful completion, terse completion); the terse one skips the reasoning
CASES = {
    "examples/math/config.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    "examples/trl/polyreward.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    "examples/train/arithmetic_gdpo.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    "examples/train/arithmetic_grpo.yaml": ({"prompt": MATH_PROMPT, "answer": "42"}, MATH_CAREFUL, FILLER + "\\boxed{42}"),
    # the first run asks for the number alone: the careful answer is the bare number, the filler think is the extra
    "examples/train/first_run.yaml": ({"prompt": "What is 6 * 7? Reply with only the number.", "answer": "42"}, "42",
                                      FILLER + "\\boxed{42}"),
    "examples/medqa/config.yaml": ({"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS},
                                   STROKE_THINK + "\nThe answer is C.", FILLER + "\nThe answer is C."),
    "examples/train/medqa_gdpo.yaml": ({"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS},
                                       STROKE_THINK + "\n<answer>C</answer>", FILLER + "\n<answer>C</answer>"),
    "examples/train/medqa_grpo.yaml": ({"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS},
                                       STROKE_THINK + "\n<answer>C</answer>", FILLER + "\n<answer>C</answer>"),
    "examples/train/medqa_crpo.yaml": (
        {"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS, "domain": "medqa"},
        STROKE_THINK + "<answer>Long-term anticoagulation is needed, so the answer is \\boxed{C}</answer>",
        FILLER + "<answer>So the answer is \\boxed{C}</answer>"),
    "examples/train/medqa_crpo_drpo.yaml": (
        {"prompt": STROKE_PROMPT, "answer": "C", "options": STROKE_OPTIONS, "domain": "medqa"},
        STROKE_THINK + "<answer>Long-term anticoagulation is needed, so the answer is \\boxed{C}</answer>",
        FILLER + "<answer>So the answer is \\boxed{C}</answer>"),
    "examples/tools/config.yaml": ({"prompt": TOOL_PROMPT, "answer": TOOL_CALL, "prompt_id": "q"},
                                   f"{TOOL_THINK}\n{TOOL_CALL}", f"{FILLER}\n{TOOL_CALL}"),
    "examples/forecast/config.yaml": ({"prompt": "Forecast tomorrow's mean PM2.5.", "observed": 80.0, "prompt_id": "q"},
                                      "<think>A stagnant high keeps yesterday's haze in place.</think>\n<answer>82</answer>",
                                      FILLER + "\n<answer>82</answer>"),
    "examples/jaccard/config.yaml": ({"prompt": "List the diagnoses.", "answer": "<answer>AF; Hypertension</answer>",
                                      "labels": ["atrial fibrillation", "hypertension"], "prompt_id": "q"},
                                     "<think>Irregular rhythm and high pressure readings.</think><answer>AF; Hypertension</answer>",
                                     FILLER + "<answer>AF; Hypertension</answer>"),
    "examples/kg/config.yaml": ({"prompt": "Write the FINDINGS section.", "answer": "Small right pleural effusion. Heart size is normal.",
                                 "prompt_id": "q"}, "There is a small right pleural effusion. The heart size is normal.",
                                "Small right pleural effusion."),
}


def test_every_shipped_config_with_an_objective_is_covered():
    shipped = {str(p.relative_to(ROOT)) for p in ROOT.glob("examples/**/*.yaml")}
    assert shipped - set(CASES) == {"examples/rubric/config.yaml"}  # rubric: judged against its rubric, no answer key


@pytest.mark.parametrize("config_path", sorted(CASES))
def test_skipping_the_reasoning_never_pays_more(config_path):
    row, careful, terse = CASES[config_path]
    scorer = load_config(ROOT / config_path).build_scorer()
    prompt_column, completion_column = scorer.columns.prompt, scorer.columns.completion
    rows = [{**row, prompt_column: row["prompt"], completion_column: text} for text in (careful, terse)]
    scored = scorer.score(scorer.batch(rows), combine=False)
    assert scored.total[0] >= scored.total[1], (config_path, scored.total, scored.reasons)
    accuracy = [name for name in scored.names if name in ("accuracy", "correctness", "kg", "jaccard", "pm25_korea")]
    assert accuracy and all(scored.scores[0][scored.names.index(n)] == max(scored.scores[:, scored.names.index(n)]) for n in accuracy)


LONG_CAREFUL = ("<think>We need the product of 6 and 7. Multiplication is repeated addition, so add seven six times: 7, "
                "14, 21, 28, 35, 42. Another route: 6 times 7 equals 6 times 5 plus 6 times 2, which is 30 plus 12, "
                "giving 42. A third check uses the commutative law: 7 times 6 is 7 times 3 doubled, 21 doubled is 42. "
                "Division confirms it, since 42 divided by 6 leaves 7 with no remainder, and 42 divided by 7 leaves 6. "
                "The last digit agrees too: 6 times 7 ends in 2 because 42 does. Every method gives the same value, "
                "so the product is settled and no rounding or sign issue arises here.</think>\nThe answer is \\boxed{42}.")


@pytest.mark.parametrize("config_path", ["examples/math/config.yaml", "examples/trl/polyreward.yaml"])
def test_a_careful_answer_past_the_length_budget_still_beats_skipping_the_reasoning(config_path):
    """The length penalty weighs less than the format bonus: even a careful answer the penalty fully charges is paid
    at least as much as the terse one."""
    scorer = load_config(ROOT / config_path).build_scorer()
    rows = [{"prompt": MATH_PROMPT, "answer": "42", "completion": text} for text in (LONG_CAREFUL, FILLER + "\\boxed{42}")]
    scored = scorer.score(scorer.batch(rows), combine=False)
    overlong = scored.names.index("overlong")
    assert scored.scores[0][overlong] == -1.0  # past the budget
    assert scored.total[0] >= scored.total[1], scored.reasons
