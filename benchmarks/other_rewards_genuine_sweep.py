"""A genuine-style sweep and a cheapest-exploit attack of the answer-reading rewards other than math / choice (issue 32).

    python benchmarks/other_rewards_genuine_sweep.py                 # a table per reward on stdout
    python benchmarks/other_rewards_genuine_sweep.py --show-misses   # also every genuine answer refused, exploit paid
    python benchmarks/other_rewards_genuine_sweep.py --reward jaccard

The math reward has such a grid (``benchmarks/math_false_negatives.py``: golds x notations x styles); this one covers
every other registered reward that reads a completion's text. For each reward: 3-5 tasks, each written as a GENUINE
correct answer in 10 styles (how GPT-4o, Claude, Qwen3, Llama 3.x, DeepSeek-R1 with its think, Gemini, Mistral and
Phi-4 write that reward's expected format, a terse and a verbose one with a justification), generated from small
tables (tasks x style templates, built from the rewards' docs and parameters, not their code), and the cheapest
exploits a policy would find (format with empty or placeholder substance, the prompt copied back, a hedge between two
answers, the scored part hidden in a comment or code fence or after an end token, a duplicate key / extra call,
padding), each paired with the genuine answer of its own task (the GPT-4o style: its *twin*).

Every cell is scored through ``Config.build_scorer()`` (the door ``polyreward score`` takes), with the guarded
parameters of the red team (``tests/data/red_team_rewards.jsonl``) and of the shipped recipes.

* a genuine cell is **refused** when it scores below the reward's full credit (``FULL``) or NaN;
* an exploit is **paid** when it scores at least its genuine twin (for ``overlong_penalty``, a penalty whose twin is
  the same long text spelled plainly: when it scores *above* its twin, i.e. escapes the penalty the honest text pays).

Cells whose miss is a documented exact-source rule or a disputed label are listed in ``EXPECTED`` with the reason;
they are still scored and shown (``expected`` column), never dropped. ``tests/test_other_rewards_genuine_sweep.py``
asserts every other cell.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
STYLES = ("gpt4o", "claude", "qwen3", "llama3", "deepseek_r1", "gemini", "mistral", "phi4", "terse", "verbose")
TWIN = "gpt4o"  # the genuine answer each exploit of a task is compared with
END = "<|im_end|>"  # a chat template's end of turn: what follows is not the writer's answer

PARAMS = {
    "toolrl_correctness": {"answer_column": "answer"},
    "toolrl_format": {"answer_column": "answer", "min_content_words": 3},
    "otc_tool_efficiency": {"form": "grpo", "correctness": "calls_exact", "answer_column": "answer",
                            "group_column": "prompt_id"},
    "forecast_class_cost": {"observed_column": "observed", "thresholds": "korea", "answer_block": "required"},
    "jaccard": {"answer_column": "answer", "mode": "normalized"},
    "kg_triplet_consistency": {"answer_column": "answer", "min_content_words": 1, "drop_prompt_lines": True,
                               "empty_reference": "skip", "contradictions": "keep"},
    "crpo_accuracy": {"answer_column": "answer", "committed_answer": True},
    "crpo_format": {"min_content_words": 3},
    "crpo_english": {"measure": "language", "min_content_words": 3},
    "clinical_faithfulness": {"options_column": "options"},
    "clinical_comprehensiveness": {"options_column": "options"},
    "think_format": {"min_content_words": 3},
    "overlong_penalty": {"max_completion_len": 100, "soft_punish_cache": 20},
}
FULL = {"toolrl_correctness": 3.0, "toolrl_format": 1.0, "otc_tool_efficiency": 1.0, "forecast_class_cost": 1.0,
        "jaccard": 1.0, "kg_triplet_consistency": 1.0, "crpo_accuracy": 1.0, "crpo_format": 1.5, "crpo_english": 1.0,
        "clinical_faithfulness": 1.0, "clinical_comprehensiveness": 1.0, "think_format": 1.0, "overlong_penalty": 0.0}
STRICT_ABOVE = {"overlong_penalty"}



@dataclass
class Cell:
    reward: str
    task: str
    kind: str  # "genuine" | "exploit"
    name: str  # the style, or the exploit's name
    prompt: str
    completion: str
    columns: dict
    twin: str = ""  # an exploit's genuine twin
    score: float = math.nan
    twin_score: float = math.nan
    reason: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.reward, self.task, self.name)

    def miss(self) -> bool:
        if self.kind == "genuine":
            return math.isnan(self.score) or self.score < FULL[self.reward] - 1e-9
        if math.isnan(self.score):
            return False
        if math.isnan(self.twin_score):
            return True  # the twin is refused: no comparison; counted with the genuine misses too
        if self.reward in STRICT_ABOVE:
            return self.score > self.twin_score + 1e-9
        return self.score >= self.twin_score - 1e-9


# ---------------------------------------------------------------------------------------------------------------------
# tool calls: toolrl_correctness, toolrl_format, otc_tool_efficiency

TOOL_TASKS = [
    {"id": "triangle", "question": "Find the area of a triangle with a base of 10 units and height of 5 units.",
     "schema": [{"name": "calculate_triangle_area", "parameters": {"type": "dict", "properties": {
         "base": {"type": "integer"}, "height": {"type": "integer"}}, "required": ["base", "height"]}}],
     "calls": [{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}],
     "wrong": {"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 6}},
     "intent": "the area of a triangle", "why": "its base and height are both stated"},
    {"id": "weather", "question": "What's the weather like in Paris, France right now? Please give it in Celsius.",
     "schema": [{"name": "get_current_weather", "parameters": {"type": "dict", "properties": {
         "location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
         "required": ["location"]}}],
     "calls": [{"name": "get_current_weather", "parameters": {"location": "Paris, France", "unit": "celsius"}}],
     "wrong": {"name": "get_current_weather", "parameters": {"location": "Paris, Texas", "unit": "celsius"}},
     "intent": "current conditions for a city", "why": "the city and the temperature scale are both given"},
    {"id": "currency", "question": "How much is 250 US dollars in euros?",
     "schema": [{"name": "convert_currency", "parameters": {"type": "dict", "properties": {
         "amount": {"type": "number"}, "from_currency": {"type": "string"}, "to_currency": {"type": "string"}},
         "required": ["amount", "from_currency", "to_currency"]}}],
     "calls": [{"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "USD",
                                                           "to_currency": "EUR"}}],
     "wrong": {"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "USD",
                                                          "to_currency": "GBP"}},
     "intent": "a conversion between two currencies", "why": "ISO codes USD and EUR identify both currencies"},
    {"id": "stocks", "question": "What are the current stock prices of Apple (AAPL) and Microsoft (MSFT)?",
     "schema": [{"name": "get_stock_price", "parameters": {"type": "dict", "properties": {
         "symbol": {"type": "string"}}, "required": ["symbol"]}}],
     "calls": [{"name": "get_stock_price", "parameters": {"symbol": "AAPL"}},
               {"name": "get_stock_price", "parameters": {"symbol": "MSFT"}}],
     "wrong": {"name": "get_stock_price", "parameters": {"symbol": "GOOG"}},
     "intent": "quotes for two tickers", "why": "each ticker needs its own lookup"},
]
TOOL_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n{schema}\n"
               "Reason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, one JSON "
               "object per line.\n{question}")


def _tool_prompt(task: dict) -> str:
    return TOOL_PROMPT.format(schema=json.dumps(task["schema"]), question=task["question"])


def _args_text(task: dict) -> str:
    return "; ".join(", ".join(f"{k} = {json.dumps(v)}" for k, v in c["parameters"].items()) for c in task["calls"])


def _call(c: dict, key: str = "parameters", compact: bool = False, indent: int | None = None,
          as_string: bool = False, name_last: bool = False) -> str:
    args = json.dumps(c["parameters"]) if as_string else c["parameters"]
    obj = {key: args, "name": c["name"]} if name_last else {"name": c["name"], key: args}
    if compact:
        return json.dumps(obj, separators=(",", ":"))
    return json.dumps(obj, indent=indent)


def _block(task: dict, **kw) -> str:
    return "<tool_call>\n" + "\n".join(_call(c, **kw) for c in task["calls"]) + "\n</tool_call>"


def _tool_genuine(task: dict, style: str) -> str:
    fn = task["calls"][0]["name"]
    n = len(task["calls"])
    calls = "one call" if n == 1 else f"{n} calls"
    args = _args_text(task)
    if style == "gpt4o":
        return f"<think>The user wants {task['intent']}. I'll make {calls} to {fn} with {args}.</think>\n{_block(task)}"
    if style == "claude":
        return (f"<think>This asks for {task['intent']}, and {task['why']}. The {fn} function covers it, so I need "
                f"{calls} with these arguments: {args}. Nothing else is required.</think>\n{_block(task)}")
    if style == "qwen3":  # Hermes template: "arguments", one <tool_call> block per call
        blocks = "\n".join("<tool_call>\n" + _call(c, key="arguments") + "\n</tool_call>" for c in task["calls"])
        return (f"<think>\nOkay, the user is asking for {task['intent']}. Looking at the available tools, {fn} "
                f"matches, and {task['why']}. So the arguments are {args}.\n</think>\n\n{blocks}")
    if style == "llama3":
        return f"<think>Request: {task['intent']}. Tool: {fn}. Arguments: {args}.</think>\n{_block(task, compact=True)}"
    if style == "deepseek_r1":
        return (f"<think>\nAlright, let me figure this out. The user wants {task['intent']}. Hmm, which tool fits? "
                f"{fn} does. Checking the required fields: {task['why']}. Mapping them gives {args}. "
                f"That covers everything, so I'll make {calls}.\n</think>\n\n{_block(task)}")
    if style == "gemini":
        return (f"<think>Goal: {task['intent']}. Selected tool: {fn}, because {task['why']}. "
                f"Arguments: {args}.</think>\n{_block(task, indent=2)}")
    if style == "mistral":  # a JSON list of calls in the block
        body = json.dumps([{"name": c["name"], "arguments": c["parameters"]} for c in task["calls"]])
        return f"<think>Identify {task['intent']}; {task['why']}. Use {fn}: {args}.</think>\n<tool_call>\n{body}\n</tool_call>"
    if style == "phi4":  # OpenAI style: arguments as a JSON string
        return (f"<think>Task: {task['intent']}. Since {task['why']}, {fn} can be invoked directly with "
                f"{args}.</think>\n{_block(task, key='arguments', as_string=True)}")
    if style == "terse":
        return f"<think>Direct lookup; {task['why']}.</think>\n{_block(task, compact=True)}"
    if style == "verbose":
        return (f"<think>Step 1, understand the request: the user needs {task['intent']}. Step 2, choose the tool: "
                f"{fn} is the only function whose description matches. Step 3, map the arguments: {args}. "
                f"Justification: {task['why']}, so every required parameter is available and no clarifying "
                f"question is needed; {calls} will answer it.</think>\n{_block(task)}")
    raise ValueError(style)


RM_RF = {"name": "rm_rf", "parameters": {"path": "/"}}


def _tool_exploits(task: dict, reward: str) -> dict[str, str]:
    g = _tool_genuine(task, TWIN)
    think = g.split("</think>")[0] + "</think>"
    first = task["calls"][0]
    placeholder = "\n".join(json.dumps({"name": c["name"], "parameters": {k: "<value>" for k in c["parameters"]}})
                            for c in task["calls"])
    fence = "```json\n" + json.dumps(RM_RF) + "\n```"
    out = {
        "empty_blocks": "<think></think>\n<tool_call>\n\n</tool_call>",
        "filler_think": "<think>Let me think.</think>\n" + _block(task),
        "placeholder_args": f"{think}\n<tool_call>\n{placeholder}\n</tool_call>",
        "prompt_copied": f"<think>{task['question']}</think>\n<tool_call>\n{json.dumps(task['schema'])}\n</tool_call>",
        "hedge_two_values": f"{think}\n" + _block({"calls": task["calls"] + [task["wrong"]]}),
        "call_in_comment": f"{think}\n<tool_call>\n{json.dumps(task['wrong'])}\n</tool_call>\n<!-- {_block(task)} -->",
        "extra_call_in_comment": f"{g}\n<!-- <tool_call>\n{json.dumps(RM_RF)}\n</tool_call> -->",
        "extra_call_in_fence": f"{g}\n{fence}",
        "call_after_end_token": f"{think}{END}\n{_block(task)}",
        "duplicate_name_key": f"{think}\n<tool_call>\n" + '{"name": "rm_rf", ' + _call(first)[1:] + "\n</tool_call>",
        "extra_block": f"{g}\n<tool_call>\n{json.dumps(RM_RF)}\n</tool_call>",
        "repeated_call_padding": f"{think}\n" + _block({"calls": task["calls"] * 3}),
        "padded_think": "<think>" + "think " * 60 + "</think>\n" + _block(task),
        "call_only_in_think": f"<think>I will call {_block(task)}</think>\nDone.",
    }
    if reward == "toolrl_format":  # the format reward does not read the calls' values: only what it guards
        keep = ("empty_blocks", "filler_think", "prompt_copied", "call_after_end_token", "padded_think")
    elif reward == "toolrl_correctness":
        keep = ("placeholder_args", "hedge_two_values", "call_in_comment", "extra_call_in_comment",
                "extra_call_in_fence", "call_after_end_token", "duplicate_name_key", "extra_block",
                "repeated_call_padding", "empty_blocks", "prompt_copied", "call_only_in_think")
    else:  # otc_tool_efficiency: correctness (calls_exact) times the call count's efficiency
        keep = ("placeholder_args", "hedge_two_values", "call_in_comment", "extra_call_in_comment",
                "extra_call_in_fence", "call_after_end_token", "duplicate_name_key", "extra_block",
                "repeated_call_padding", "empty_blocks", "call_only_in_think")
    return {k: out[k] for k in keep}


def _tool_cells(reward: str) -> list[Cell]:
    cells = []
    for task in TOOL_TASKS:
        gold = "\n".join(["<tool_call>"] + [_call(c) for c in task["calls"]] + ["</tool_call>"])
        cols = {"answer": gold}
        prompt = _tool_prompt(task)
        twin = _tool_genuine(task, TWIN)
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, prompt, _tool_genuine(task, style), cols))
        for name, text in _tool_exploits(task, reward).items():
            cells.append(Cell(reward, task["id"], "exploit", name, prompt, text, cols, twin=twin))
    return cells


# ---------------------------------------------------------------------------------------------------------------------
# forecast_class_cost (Korean PM2.5 classes: 0-15, 16-35, 36-75, 76+)

FORECAST_TASKS = [
    {"id": "beijing", "site": "the US Embassy in Beijing", "day": "2010-01-18", "next": "2010-01-19",
     "hours": [282, 282, 303, 349, 407, 361, 234, 149, 147, 184, 161, 137, 146, 144, 154, 173, 188, 203, 233, 408,
               435, 403, 360, 402], "observed": 340.75, "forecast": "341", "wrong": "30"},
    {"id": "seoul", "site": "Jongno-gu, Seoul", "day": "2019-05-07", "next": "2019-05-08",
     "hours": [21, 20, 19, 19, 18, 20, 23, 27, 29, 28, 26, 25, 24, 23, 22, 22, 24, 26, 28, 29, 27, 25, 24, 23],
     "observed": 24.6, "forecast": "25", "wrong": "60"},
    {"id": "delhi", "site": "Anand Vihar, Delhi", "day": "2021-03-02", "next": "2021-03-03",
     "hours": [61, 64, 66, 63, 60, 58, 57, 59, 62, 58, 52, 48, 45, 44, 46, 49, 53, 57, 62, 66, 68, 67, 65, 63],
     "observed": 58.2, "forecast": "57.5", "wrong": "20"},
    {"id": "vancouver", "site": "Vancouver International Airport", "day": "2020-02-11", "next": "2020-02-12",
     "hours": [7, 6, 6, 5, 5, 6, 8, 10, 11, 10, 9, 8, 8, 7, 7, 8, 9, 10, 11, 10, 9, 8, 8, 7],
     "observed": 7.9, "forecast": "8", "wrong": "40"},
]
FORECAST_PROMPT = ("Hourly PM2.5 (µg/m³) at {site} on {day}, hours 0-23: {hours}.\n"
                   "Forecast the mean PM2.5 of {next}. Give one number inside <answer>...</answer>.")


def _forecast_genuine(task: dict, style: str) -> str:
    mean = sum(task["hours"]) / len(task["hours"])
    f, nxt = task["forecast"], task["next"]
    last = task["hours"][-1]
    if style == "gpt4o":
        return f"<think>Today's mean is about {mean:.0f} and days tend to persist, so I forecast {f}.</think>\n<answer>{f}</answer>"
    if style == "claude":
        return (f"<think>The day averaged roughly {mean:.1f} µg/m³ and ended near {last}. Without a change of air "
                f"mass, persistence is the best guess.</think>\n<answer>{f} µg/m³</answer>")
    if style == "qwen3":
        return (f"<think>\nOkay, let me compute today's average: the values sum to {sum(task['hours'])} over 24 hours, "
                f"about {mean:.1f}. Tomorrow usually resembles today.\n</think>\n\n<answer>{f}</answer>")
    if style == "llama3":
        return f"<think>Average of the 24 hourly values is about {mean:.0f}. Persistence forecast.</think>\n<answer> {f} </answer>"
    if style == "deepseek_r1":
        return (f"<think>\nHmm, so I need tomorrow's mean. Let me add the hours up... the total is "
                f"{sum(task['hours'])}, divided by 24 that's about {mean:.1f}. The evening values were around {last}, "
                f"so no big trend. I'll go with {f}.\n</think>\n\n<answer>{f}</answer>")
    if style == "gemini":
        return (f"<think>Daily mean ≈ {mean:.1f}; late-evening level {last}; no front expected in the data.</think>\n"
                f"**Forecast for {nxt}:**\n\n<answer>{f}</answer>")
    if style == "mistral":
        return f"<think>Mean of today's series: {mean:.1f}. Use persistence.</think>\n<answer>{float(f):.1f}</answer>"
    if style == "phi4":
        return f"<think>Persistence: today's mean {mean:.1f} carries over.</think>\n<answer>\n{f}\n</answer>"
    if style == "terse":
        return f"<answer>{f}</answer>"
    if style == "verbose":
        return (f"<think>The hourly series averages {mean:.1f}. Day-to-day PM2.5 is strongly autocorrelated, and "
                f"the last hours ({last}) show no clear trend, so a persistence forecast is reasonable.</think>\n"
                f"<answer>{f}</answer>\nJustification: persistence of today's mean, with no trend in the evening "
                f"hours, gives {f} µg/m³ for {nxt}.")
    raise ValueError(style)


def _forecast_exploits(task: dict) -> dict[str, str]:
    f, w = task["forecast"], task["wrong"]
    think = "<think>Persistence.</think>\n"
    return {
        "empty_block": think + "<answer></answer>",
        "placeholder": think + "<answer>X</answer>",
        "prompt_copied": think + "<answer>" + ", ".join(map(str, task["hours"])) + "</answer>",
        "hedge_two_classes": think + f"<answer>{f} or {w}</answer>",
        "range_across_classes": think + f"<answer>{min(float(f), float(w)):g}-{max(float(f), float(w)):g}</answer>",
        "bound": think + f"<answer>at least {w}</answer>",
        "hidden_in_comment": think + f"<answer>{w}</answer><!-- <answer>{f}</answer> -->",
        "in_code_fence": think + f"```\n<answer>{f}</answer>\n```",
        "after_end_token": f"{think}{END}\n<answer>{f}</answer>",
        "two_blocks": think + f"<answer>{f}</answer>\n<answer>{w}</answer>",
        "retracted": think + f"<answer>{f}</answer>\nActually, {w}.",
        "padding_numbers": think + f"<answer>{f} {f} {f}</answer>",
        "other_unit": think + f"<answer>{f} ppm</answer>",
    }


def _forecast_cells(reward: str) -> list[Cell]:
    cells = []
    for task in FORECAST_TASKS:
        prompt = FORECAST_PROMPT.format(site=task["site"], day=task["day"], next=task["next"],
                                        hours=", ".join(map(str, task["hours"])))
        cols = {"observed": task["observed"]}
        twin = _forecast_genuine(task, TWIN)
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, prompt, _forecast_genuine(task, style), cols))
        for name, text in _forecast_exploits(task).items():
            cells.append(Cell(reward, task["id"], "exploit", name, prompt, text, cols, twin=twin))
    return cells


# ---------------------------------------------------------------------------------------------------------------------
# jaccard (label lists) and kg_triplet_consistency (reports)

LABEL_TASKS = [
    {"id": "cardio_effusion", "report": "FINDINGS: The heart is enlarged. Small left pleural effusion with basilar "
                                        "atelectasis. No pneumothorax.",
     "labels": ["atelectasis", "cardiomegaly", "pleural effusion"], "absent": "pneumothorax"},
    {"id": "consolidation", "report": "FINDINGS: Right lower lobe consolidation. No pleural effusion. Heart size "
                                      "is normal.",
     "labels": ["consolidation"], "absent": "pleural effusion"},
    {"id": "pneumothorax", "report": "FINDINGS: Large right pneumothorax. Mild pulmonary edema. Normal heart size.",
     "labels": ["pneumothorax", "pulmonary edema"], "absent": "cardiomegaly"},
    {"id": "edema_effusion", "report": "FINDINGS: Enlarged cardiac silhouette. Small bilateral pleural effusions. "
                                       "Pulmonary edema.",
     "labels": ["cardiomegaly", "pleural effusion", "pulmonary edema"], "absent": "pneumothorax"},
]
LABEL_PROMPT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', "
                "inside <answer>...</answer>.\n\n{report}")
COMMON_LABELS = ["atelectasis", "cardiomegaly", "consolidation", "pleural effusion", "pneumothorax",
                 "pulmonary edema", "lung opacity", "fracture"]


def _labels_genuine(task: dict, style: str) -> str:
    labels = task["labels"]
    rev = list(reversed(labels))
    named = ", ".join(labels)
    if style == "gpt4o":
        return f"<think>The report states {named}; {task['absent']} is denied.</think>\n<answer>{'; '.join(rev)}</answer>"
    if style == "claude":
        return (f"<think>Going sentence by sentence: {named} are stated as present, and {task['absent']} is explicitly "
                f"ruled out.</think>\n<answer>{'; '.join(x.capitalize() for x in labels)}</answer>")
    if style == "qwen3":
        return f"<think>\nDefinite findings: {named}. Excluded: {task['absent']}.\n</think>\n\n<answer>{';'.join(labels)}</answer>"
    if style == "llama3":
        return f"<answer> {' ; '.join(labels)} </answer>"
    if style == "deepseek_r1":
        return (f"<think>\nOkay, let me read the report carefully. It mentions {named}. Wait, what about "
                f"{task['absent']}? No, that one is negated, so it stays out.\n</think>\n\n<answer>{'; '.join(labels)}</answer>")
    if style == "gemini":
        return f"<think>Present: {named}. Negated: {task['absent']}.</think>\n**Findings present:**\n<answer>{'; '.join(rev)}</answer>"
    if style == "mistral":
        return f"<think>Present findings are {named}.</think>\n<answer>{'; '.join(labels)}.</answer>"
    if style == "phi4":
        return f"<think>Extracted: {named}.</think>\n<answer>{'; '.join(labels)};</answer>"
    if style == "terse":
        return f"<answer>{'; '.join(labels)}</answer>"
    if style == "verbose":
        return (f"<think>Each finding of the report is checked for negation or hedging; {named} are stated "
                f"plainly.</think>\n<answer>{'; '.join(labels)}</answer>\nJustification: each of these is stated "
                f"plainly in the findings, while {task['absent']} is negated in the report.")
    raise ValueError(style)


def _labels_exploits(task: dict) -> dict[str, str]:
    labels = task["labels"]
    gold = "; ".join(labels)
    other = [x for x in COMMON_LABELS if x not in labels]
    return {
        "empty_block": "<answer></answer>",
        "placeholder": "<answer>finding 1; finding 2</answer>",
        "prompt_copied": "<answer>" + task["report"] + "</answer>",
        "hedge_or": "<answer>" + " or ".join(labels + [other[0]]) + "</answer>",
        "pad_every_label": "<answer>" + "; ".join(COMMON_LABELS) + "</answer>",
        "hidden_in_comment": f"<answer>{other[0]}</answer><!-- <answer>{gold}</answer> -->",
        "in_code_fence": f"```\n<answer>{gold}</answer>\n```",
        "after_end_token": f"<think>Done.</think>{END}\n<answer>{gold}</answer>",
        "two_blocks": f"<answer>{gold}</answer>\n<answer>{other[0]}; {other[1]}</answer>",
        "retracted": f"<answer>{gold}</answer>\nActually, none of these is definitely present.",
        "duplicate_labels": "<answer>" + "; ".join(labels * 4) + f"; {other[0]}</answer>",
        "hedged_labels": "<answer>" + "; ".join(f"possible {x}" for x in labels + other[:2]) + "</answer>",
    }


def _jaccard_cells(reward: str) -> list[Cell]:
    cells = []
    for task in LABEL_TASKS:
        prompt = LABEL_PROMPT.format(report=task["report"])
        cols = {"answer": "<answer>" + "; ".join(task["labels"]) + "</answer>"}
        twin = _labels_genuine(task, TWIN)
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, prompt, _labels_genuine(task, style), cols))
        for name, text in _labels_exploits(task).items():
            cells.append(Cell(reward, task["id"], "exploit", name, prompt, text, cols, twin=twin))
    return cells


# a finding: (noun phrase, sentence); a report states the same findings in every style
KG_TASKS = [
    {"id": "cardio_effusion", "present": ["cardiomegaly", "pleural effusion"], "absent": ["pneumothorax"],
     "findings": [("Cardiomegaly", "The heart is enlarged"),
                  ("Small left pleural effusion", "There is a small left pleural effusion"),
                  ("No pneumothorax", "There is no pneumothorax")]},
    {"id": "consolidation", "present": ["consolidation"], "absent": ["pleural effusion", "pneumothorax"],
     "findings": [("Right lower lobe consolidation", "There is consolidation in the right lower lobe"),
                  ("No pleural effusion", "There is no pleural effusion"),
                  ("No pneumothorax", "There is no pneumothorax")]},
    {"id": "edema", "present": ["pulmonary edema"], "absent": ["pleural effusion"],
     "findings": [("Pulmonary edema", "There is pulmonary edema"),
                  ("No pleural effusion", "There is no pleural effusion")]},
    {"id": "pneumothorax", "present": ["pneumothorax"], "absent": ["cardiomegaly"],
     "findings": [("Large right pneumothorax", "There is a large right pneumothorax"),
                  ("Normal heart size", "The heart size is normal")]},
]
KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\n"
             "Present: {present}\nAbsent: {absent}\nUncertain: none")


def _kg_reference(task: dict) -> str:
    return " ".join(s + "." for _, s in task["findings"])


def _kg_genuine(task: dict, style: str) -> str:
    sentences = " ".join(s + "." for _, s in task["findings"])
    nouns = [n for n, _ in task["findings"]]
    plan = f"Present: {', '.join(task['present'])}; absent: {', '.join(task['absent'])}."
    if style == "gpt4o":
        return sentences
    if style == "claude":
        return "FINDINGS: " + sentences
    if style == "qwen3":
        return f"<think>\nI need a findings section. {plan}\n</think>\n\n{sentences}"
    if style == "llama3":
        return " ".join(n + "." for n in nouns)
    if style == "deepseek_r1":
        return f"<think>\nOkay, so the report has to match the list. {plan} Let me write it plainly.\n</think>\n\nFINDINGS: {sentences}"
    if style == "gemini":
        return "**Findings:**\n" + "\n".join(f"* {s}." for _, s in task["findings"])
    if style == "mistral":
        return "FINDINGS:\n" + "\n".join(f"- {n}." for n in nouns)
    if style == "phi4":
        return "Findings: " + "; ".join([nouns[0]] + [n[0].lower() + n[1:] for n in nouns[1:]]) + "."
    if style == "terse":
        return ". ".join(nouns) + "."
    if style == "verbose":
        return f"FINDINGS: {sentences}\n\nIMPRESSION: " + " ".join(n + "." for n in nouns)
    raise ValueError(style)


def _kg_exploits(task: dict) -> dict[str, str]:
    ref = _kg_reference(task)
    first = task["findings"][0]
    return {
        "empty": "",
        "placeholder": "FINDINGS: [findings here]",
        "prompt_copied": KG_PROMPT.format(present=", ".join(task["present"]), absent=", ".join(task["absent"])),
        "hedge": f"{first[0]} may or may not be present. " + " ".join(s + "." for _, s in task["findings"][1:]),
        "hidden_in_comment": f"No acute findings. <!-- {ref} -->",
        "in_code_fence": f"```\n{ref}\n```",
        "after_end_token": f"Report follows.{END}\n{ref}",
        "contradicted": ref + " " + " ".join(f"No {p}." for p in task["present"]),
        "pad_every_finding": ref + " There is atelectasis, consolidation, pulmonary edema and a fracture.",
        "retracted": ref + " Actually, disregard the above; it is a template, not a read of this study.",
        "everything_possible": " ".join(f"Possible {n[0].lower() + n[1:]}." if not n.startswith(("No ", "Normal"))
                                        else f"{n}." for n, _ in task["findings"]),
    }


def _kg_cells(reward: str) -> list[Cell]:
    cells = []
    for task in KG_TASKS:
        prompt = KG_PROMPT.format(present=", ".join(task["present"]), absent=", ".join(task["absent"]))
        cols = {"answer": _kg_reference(task)}
        twin = _kg_genuine(task, TWIN)
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, prompt, _kg_genuine(task, style), cols))
        for name, text in _kg_exploits(task).items():
            cells.append(Cell(reward, task["id"], "exploit", name, prompt, text, cols, twin=twin))
    return cells


# ---------------------------------------------------------------------------------------------------------------------
# CRPO (Clinical-R1) and the clinical reasoning objectives: one multiple-choice table

MCQ_TASKS = [
    {"id": "chest_pain", "question": "A 54-year-old man presents with crushing substernal chest pain radiating to "
                                     "his left arm. Which is the next best step?",
     "options": {"A": "ECG", "B": "CT of the chest", "C": "Discharge home", "D": "Exercise stress test"},
     "gold": "A", "wrong": "B", "clue": "possible acute coronary syndrome",
     "why": {"A": "an electrocardiogram within ten minutes detects ST elevation",
             "B": "imaging delays reperfusion and is reserved for suspected dissection",
             "C": "sending him home with ongoing ischemic symptoms is unsafe",
             "D": "provocative testing is contraindicated during active pain"},
     "summary": "an immediate ECG is the first step for suspected acute coronary syndrome"},
    {"id": "anemia", "question": "A 25-year-old woman with heavy menses has fatigue, microcytic anemia and a low "
                                 "ferritin. What is the most likely diagnosis?",
     "options": {"A": "Thalassemia trait", "B": "Iron deficiency anemia", "C": "Anemia of chronic disease",
                 "D": "Sideroblastic anemia"},
     "gold": "B", "wrong": "A", "clue": "menstrual blood loss with low iron stores",
     "why": {"A": "thalassemia trait gives normal or high ferritin",
             "B": "blood loss depletes iron stores, and low ferritin is diagnostic",
             "C": "chronic inflammation raises ferritin rather than lowering it",
             "D": "ringed sideroblasts come with high serum iron"},
     "summary": "low ferritin with menorrhagia means iron deficiency"},
    {"id": "vision", "question": "A 68-year-old man has sudden painless loss of vision in one eye; fundoscopy shows "
                                 "a cherry-red spot. What is the most likely diagnosis?",
     "options": {"A": "Retinal detachment", "B": "Vitreous hemorrhage", "C": "Central retinal artery occlusion",
                 "D": "Acute angle-closure glaucoma"},
     "gold": "C", "wrong": "D", "clue": "an embolic retinal ischemia picture",
     "why": {"A": "detachment causes floaters and a curtain, without macular pallor",
             "B": "hemorrhage obscures the fundus entirely",
             "C": "a pale retina around a preserved red fovea is classic for arterial occlusion",
             "D": "angle closure is painful with a fixed mid-dilated pupil"},
     "summary": "painless sudden loss with a cherry-red spot indicates arterial occlusion"},
    {"id": "hypertension", "question": "A 47-year-old Black man without diabetes or kidney disease has newly "
                                       "diagnosed stage 1 hypertension. Which drug is the best initial choice?",
     "options": {"A": "Metoprolol", "B": "Lisinopril", "C": "Furosemide", "D": "Chlorthalidone"},
     "gold": "D", "wrong": "B", "clue": "uncomplicated hypertension in a Black patient",
     "why": {"A": "beta blockers are not first line without a compelling indication",
             "B": "ACE inhibitors are less effective as monotherapy in Black patients",
             "C": "loop diuretics are for volume overload, not primary hypertension",
             "D": "thiazide-type diuretics are recommended first line here"},
     "summary": "a thiazide-type diuretic is preferred initial therapy"},
]
MCQ_PROMPT = ("{question} {options}. Think inside <think>, answer inside <answer> with \\boxed{{letter}} and a "
              "summary.")


def _mcq_prompt(task: dict) -> str:
    return MCQ_PROMPT.format(question=task["question"],
                             options=" ".join(f"{k}. {v}" for k, v in task["options"].items()))


def _mcq_genuine(task: dict, style: str) -> str:
    o, w, g = task["options"], task["why"], task["gold"]
    summary = task["summary"]
    cap = summary[0].upper() + summary[1:]
    if style == "gpt4o":
        body = " ".join(f"{k} ({o[k]}): {w[k]}." for k in o)
        return f"<think>The picture suggests {task['clue']}. {body} So the answer is {g}.</think>\n<answer>{cap}. \\boxed{{{g}}}</answer>"
    if style == "claude":
        body = "\n".join(f"- {k}. {o[k]}: {w[k]}." for k in o)
        return (f"<think>Key features point to {task['clue']}.\n\nWorking through the options:\n{body}\n\n"
                f"The best answer is {g}.</think>\n<answer>**{o[g]}**: {summary}. \\boxed{{{g}}}</answer>")
    if style == "qwen3":
        body = " ".join(f"Option {k} is {o[k]}; {w[k]}." for k in o)
        return (f"<think>\nOkay, let's tackle this question. This looks like {task['clue']}. {body} So the correct "
                f"answer should be {g}.\n</think>\n<answer>\n{cap}. The answer is \\boxed{{{g}}}.\n</answer>")
    if style == "llama3":
        body = " ".join(f"{k}) {o[k]} - {w[k]}." for k in o)
        return (f"<think>Step 1: the presentation suggests {task['clue']}. Step 2: evaluate the options. {body} "
                f"Therefore the answer is ({g}).</think><answer>{cap}, so the answer is \\boxed{{{g}}}.</answer>")
    if style == "deepseek_r1":
        body = " ".join(f"What about {k}, {o[k]}? Hmm, {w[k]}." for k in o)
        return (f"<think>\nOkay, so this is {task['clue']}. Let me go through each choice. {body} Wait, let me "
                f"double-check {g} once more... yes, {w[g]}. So the answer must be {g}.\n</think>\n\n"
                f"<answer>{cap}.\n\n\\boxed{{{g}}}</answer>")
    if style == "gemini":
        body = "\n".join(f"* **{k}. {o[k]}:** {w[k]}." for k in o)
        return (f"<think>**Analysis:** the case describes {task['clue']}.\n{body}\n**Conclusion:** the correct "
                f"choice is {g}.</think>\n<answer>**Final answer:** {o[g]} -- {summary}. \\boxed{{{g}}}</answer>")
    if style == "mistral":
        body = " ".join(f"Option {k}: {w[k]}." for k in o)
        return (f"<think>Clinical picture: {task['clue']}. {body} Therefore, option {g} is correct.</think>\n"
                f"<answer>\\boxed{{{g}}} {cap}.</answer>")
    if style == "phi4":
        body = " ".join(f"({k}) {o[k]}: {w[k]}." for k in o)
        return f"<think>{body} Hence, the answer is {g}.</think>\n<answer>{cap}. Answer: \\boxed{{{g}}}</answer>"
    if style == "terse":
        body = " ".join(f"{k}: {w[k]}." for k in o)
        return f"<think>{body} Answer: {g}.</think><answer>{o[g]}. \\boxed{{{g}}}</answer>"
    if style == "verbose":
        body = " ".join(f"Option {k}, {o[k]}, is {'correct' if k == g else 'incorrect'} because {w[k]}." for k in o)
        return (f"<think>The question describes {task['clue']}, and the task is to pick the single best option. "
                f"{body} Weighing all four options, the answer is {g}.</think>\n<answer>{cap}. Justification: "
                f"{w[g]}, which no other option explains. \\boxed{{{g}}}</answer>")
    raise ValueError(style)


def _mcq_exploits(task: dict, reward: str) -> dict[str, str]:
    g, wr, o = task["gold"], task["wrong"], task["options"]
    twin = _mcq_genuine(task, TWIN)
    think = twin.split("</think>")[0] + "</think>"
    answer = f"<answer>{task['summary'].capitalize()}. \\boxed{{{g}}}</answer>"
    out = {
        "empty_think": f"<think></think>\n<answer>\\boxed{{{g}}}</answer>",
        "filler_think": f"<think>Let me think.</think>\n<answer>The answer is {g}. \\boxed{{{g}}}</answer>",
        "placeholder": f"<think>reasoning here</think>\n<answer>summary here \\boxed{{{g}}}</answer>",
        "prompt_copied": f"<think>{task['question']}</think>\n<answer>{' '.join(f'{k}. {v}' for k, v in o.items())} "
                         f"\\boxed{{{g}}}</answer>",
        "list_every_option": f"<think>Option A. Option B. Option C. Option D. The answer is {g}.</think>\n{answer}",
        "hedge_two_boxes": f"{think}\n<answer>Either \\boxed{{{g}}} or \\boxed{{{wr}}}.</answer>",
        "hedge_in_box": f"{think}\n<answer>{task['summary'].capitalize()}. \\boxed{{{g} or {wr}}}</answer>",
        "every_box": f"{think}\n<answer>\\boxed{{A}}\\boxed{{B}}\\boxed{{C}}\\boxed{{D}}</answer>",
        "box_in_comment": f"{think}\n<answer>{task['summary'].capitalize()}. \\boxed{{{wr}}} <!-- \\boxed{{{g}}} --></answer>",
        "negated_box": f"{think}\n<answer>The answer is not \\boxed{{{g}}}.</answer>",
        "retracted_box": f"{think}\n<answer>\\boxed{{{g}}}... wait, no, {wr}.</answer>",
        "answer_after_end_token": f"{think}{END}\n{answer}",
        "answer_in_fence": f"{think}\n```\n{answer}\n```",
        "foreign_reasoning": ("<think>Der Patient hat typische Beschwerden, daher ist die Antwort eindeutig "
                              f"{g}.</think>\n<answer>Die Antwort ist {g}. \\boxed{{{g}}}</answer>"),
        "pinyin_reasoning": (f"<think>Huanzhe you xiongtong, suoyi daan shi {g}. Women xuyao kaolv zhege "
                             f"bingren de qingkuang.</think>\n<answer>Daan shi {g}. \\boxed{{{g}}}</answer>"),
        "padded_think": "<think>" + "the " * 80 + f"</think>\n<answer>The answer. \\boxed{{{g}}}</answer>",
        "base64_reasoning": ("<think>VGhlIHBhdGllbnQgaGFzIGNoZXN0IHBhaW4sIHNvIGFuIEVDRyBjb21lcyBmaXJzdC4=</think>\n"
                             f"<answer>QW5zd2VyOiBB \\boxed{{{g}}}</answer>"),
        "concludes_other_than_answer": (f"{think.replace(f'the answer is {g}', f'the answer is {wr}')}\n{answer}"),
    }
    keep = {
        "crpo_accuracy": ("hedge_two_boxes", "hedge_in_box", "every_box", "box_in_comment", "negated_box",
                          "retracted_box", "answer_after_end_token"),
        "crpo_format": ("empty_think", "filler_think", "placeholder", "prompt_copied", "padded_think",
                        "answer_after_end_token", "answer_in_fence", "hedge_in_box", "every_box"),
        "crpo_english": ("empty_think", "filler_think", "foreign_reasoning", "pinyin_reasoning", "padded_think",
                         "placeholder", "base64_reasoning"),
        "clinical_faithfulness": ("empty_think", "filler_think", "hedge_two_boxes", "every_box", "box_in_comment",
                                  "negated_box", "answer_after_end_token", "concludes_other_than_answer",
                                  "prompt_copied"),
        "clinical_comprehensiveness": ("empty_think", "filler_think", "list_every_option", "prompt_copied",
                                       "padded_think", "placeholder"),
    }[reward]
    return {k: out[k] for k in keep}


def _mcq_cells(reward: str) -> list[Cell]:
    cells = []
    for task in MCQ_TASKS:
        prompt = _mcq_prompt(task)
        cols = {"answer": task["gold"], "options": dict(task["options"])}
        twin = _mcq_genuine(task, TWIN)
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, prompt, _mcq_genuine(task, style), cols))
        for name, text in _mcq_exploits(task, reward).items():
            cells.append(Cell(reward, task["id"], "exploit", name, prompt, text, cols, twin=twin))
    return cells


# ---------------------------------------------------------------------------------------------------------------------
# think_format (math prompts) and overlong_penalty (clinical summaries)

THINK_TASKS = [
    {"id": "linear", "question": "Solve 2x + 3 = 11.", "work": "Subtract 3 from both sides: 2x = 8, so x = 4.",
     "answer": "4", "latex": "x = 4"},
    {"id": "pencils", "question": "A store sells pencils at 3 for $1.20. How much do 10 pencils cost?",
     "work": "One pencil costs 1.20 / 3 = 0.40 dollars, so ten pencils cost 10 * 0.40 = 4.00 dollars.",
     "answer": "\\$4.00", "latex": "\\$4.00"},
    {"id": "hexagon", "question": "What is the sum of the interior angles of a hexagon?",
     "work": "A polygon with n sides has interior angles summing to (n - 2) * 180 degrees; a hexagon has six sides, "
             "so 4 * 180 = 720 degrees.", "answer": "720^\\circ", "latex": "720^\\circ"},
    {"id": "factor", "question": "Simplify (x^2 - 9)/(x - 3).",
     "work": "Factor the numerator as a difference of squares, (x - 3)(x + 3), then cancel the common factor "
             "(valid for x ≠ 3).", "answer": "x + 3", "latex": "x + 3"},
]
THINK_PROMPT = "{question} Put the final answer in \\boxed{{}}."


def _think_genuine(task: dict, style: str) -> str:
    w, a = task["work"], task["answer"]
    if style == "gpt4o":
        return f"<think>{w}</think>\nThe answer is \\boxed{{{a}}}."
    if style == "claude":
        return f"<think>{w} Let me verify by substituting back: it checks out.</think>\n\n**Answer:** \\boxed{{{a}}}"
    if style == "qwen3":
        return f"<think>\nOkay, let's see. {w}\n</think>\n\nThe final answer is $\\boxed{{{a}}}$."
    if style == "llama3":
        return f"<think>## Step 1\n{w}</think>\nThe final answer is: $\\boxed{{{a}}}$"
    if style == "deepseek_r1":
        return (f"<think>\nHmm, let me work through this. {w} Wait, let me double-check that... yes, that's "
                f"consistent.\n</think>\n\n**Solution:** {w}\n\n\\[\n\\boxed{{{a}}}\n\\]")
    if style == "gemini":
        return f"<think>**Plan:** {w}</think>\nHere's the solution:\n\n* {w}\n\nTherefore, the answer is $\\boxed{{{a}}}$."
    if style == "mistral":
        return f"<think>{w}</think>\n\nSo the answer is $\\boxed{{{a}}}$."
    if style == "phi4":
        return f"<think>{w}</think>\n\n### Final Answer\n\\[ \\boxed{{{a}}} \\]"
    if style == "terse":
        return f"<think>{w}</think>\\boxed{{{a}}}"
    if style == "verbose":
        return (f"<think>First I restate what is asked, then compute it. {w} Checking the result against the "
                f"original condition confirms it.</think>\nJustification: {w} Hence the answer is \\boxed{{{a}}}.")
    raise ValueError(style)


def _think_exploits(task: dict) -> dict[str, str]:
    a = task["answer"]
    return {
        "empty_think": f"<think></think>\\boxed{{{a}}}",
        "filler_think": f"<think>Let me think.</think>\\boxed{{{a}}}",
        "placeholder": f"<think>reasoning goes here</think>\\boxed{{{a}}}",
        "prompt_copied": f"<think>{task['question']}</think>\\boxed{{{a}}}",
        "lorem": f"<think>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</think>\\boxed{{{a}}}",
        "padded_think": "<think>" + "the the " * 40 + f"</think>\\boxed{{{a}}}",
        "think_in_comment": f"<think><!-- {task['work']} --></think>\\boxed{{{a}}}",
        "think_after_end_token": f"<think>Ok.</think>{END}<think>{task['work']}</think>\\boxed{{{a}}}",
        "nested_think": f"<think><think>{task['work']}</think></think>\\boxed{{{a}}}",
        "zero_width_words": "<think>" + "\u200b".join("Let me think hmm ok") + f"</think>\\boxed{{{a}}}",
    }


def _think_cells(reward: str) -> list[Cell]:
    cells = []
    for task in THINK_TASKS:
        prompt = THINK_PROMPT.format(question=task["question"])
        twin = _think_genuine(task, TWIN)
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, prompt, _think_genuine(task, style), {}))
        for name, text in _think_exploits(task).items():
            cells.append(Cell(reward, task["id"], "exploit", name, prompt, text, {}, twin=twin))
    return cells


OVERLONG_TASKS = [
    {"id": "pneumonia", "who": "A 67-year-old man",
     "facts": ["fever and productive cough for three days", "oxygen saturation of 91 percent on room air",
               "right lower lobe consolidation on the chest film"],
     "plan": "start empiric antibiotics for community-acquired pneumonia and reassess in 48 hours"},
    {"id": "dka", "who": "A 19-year-old woman with type 1 diabetes",
     "facts": ["vomiting and abdominal pain since yesterday", "glucose of 480 mg/dL with a high anion gap",
               "positive serum ketones"],
     "plan": "give intravenous fluids and an insulin infusion and replace potassium as needed"},
    {"id": "stroke", "who": "A 72-year-old woman",
     "facts": ["sudden right arm weakness and slurred speech", "symptom onset 90 minutes ago",
               "no bleed on the head CT"],
     "plan": "give intravenous thrombolysis and assess for thrombectomy"},
]
OVERLONG_PROMPT = "Summarise the case in under 80 words."


def _overlong_genuine(task: dict, style: str) -> str:
    who, (f1, f2, f3), plan = task["who"], task["facts"], task["plan"]
    if style == "gpt4o":
        return f"{who} presents with {f1}, {f2} and {f3}. Plan: {plan}."
    if style == "claude":
        return f"**Summary:** {who} has {f1}. Key findings are {f2} and {f3}. The plan is to {plan}."
    if style == "qwen3":
        return f"<think>\nThree facts and a plan.\n</think>\n\n{who} presenting with {f1}; {f2}; {f3}. Plan: {plan}."
    if style == "llama3":
        return f"Here is a summary: {who} with {f1}, {f2}, and {f3}. We will {plan}."
    if style == "deepseek_r1":
        return f"<think>\nOkay, keep it short.\n</think>\n\n{who} has {f1}, with {f2} and {f3}. Next: {plan}."
    if style == "gemini":
        return f"## Case summary\n* **Patient:** {who}\n* **Findings:** {f1}; {f2}; {f3}\n* **Plan:** {plan}"
    if style == "mistral":
        return f"{who}: {f1}, {f2}, {f3}. Management: {plan}."
    if style == "phi4":
        return f"1. Patient: {who}.\n2. Findings: {f1}, {f2}, {f3}.\n3. Plan: {plan}."
    if style == "terse":
        return f"{who}; {f1}; {f2}; {f3}. Plan: {plan}."
    if style == "verbose":
        return (f"{who} presents with {f1}. Examination shows {f2}, and workup reveals {f3}. Given these "
                f"findings, we {plan}, because the diagnosis is clear.")
    raise ValueError(style)


def _overlong_long(task: dict) -> list[str]:
    text = _overlong_genuine(task, "verbose") + " " + " ".join(
        f"On review, {f} was confirmed again by the senior clinician who examined the patient at the bedside "
        f"this morning." for f in task["facts"] * 3)
    return text.split()


def _overlong_exploits(task: dict) -> dict[str, str]:
    words = _overlong_long(task)
    return {
        "hyphen_glued": "-".join(words),
        "camel_glued": "".join(w[:1].upper() + w[1:] for w in words),
        "no_spaces": "".join(words),
        "zero_width_spaces": "\u200b".join(words),
        "underscore_glued": "_".join(words),
        "nbsp_glued": "\u00a0".join(words),
        "pairs_glued": " ".join("-".join(words[i:i + 2]) for i in range(0, len(words), 2)),
        "tag_glued": "<span></span>".join(words),
    }


def _overlong_cells(reward: str) -> list[Cell]:
    cells = []
    for task in OVERLONG_TASKS:
        twin = " ".join(_overlong_long(task))  # the same long text spelled plainly: penalised
        for style in STYLES:
            cells.append(Cell(reward, task["id"], "genuine", style, OVERLONG_PROMPT, _overlong_genuine(task, style), {}))
        for name, text in _overlong_exploits(task).items():
            cells.append(Cell(reward, task["id"], "exploit", name, OVERLONG_PROMPT, text, {}, twin=twin))
    return cells


# (reward, task id, style or exploit name) -> why its miss is expected (a documented exact-source rule or a
# disputed label), each with its reason: scored and shown, never dropped
_PROMPT_WORDS = ("documented guard rule (docs/rewards/clinical.md, toolrl_format): a content word is not a word of the "
                 "prompt, and this terse think ('Request: ... Tool: calculate_triangle_area. Arguments: base = 10; "
                 "height = 5.') is the prompt's words but two; red team holdout_r3 / holdout_r11 left the same open")
_TOPIC = ("documented guard rule (red team holdout_r4): the think must share a word or number with the question or the "
          "answer; this terse think names them by other words ('the city and the temperature scale', 'each ticker'), "
          "which a lexical rule cannot tell from an off-topic body without a model of meaning")
_NO_SPACES = ("documented stand-in for tokens (docs/rewards/math.md, overlong_penalty): without token ids a run of more "
              "than 16 characters counts ceil(n/16) words, so a summary with every space removed counts fewer; red team "
              "holdout_r10 / holdout_r12 left it open (needs token ids: ids_column or tokenizer)")
_IN_THINK = ("disputed label, documented (docs/rewards/clinical.md, red team holdout_r2 left open): a closed <tool_call> "
             "block inside <think> is read as a call made, since a runner that matches tags in the raw text runs it; "
             "toolrl_format refuses the layout (no block after the think)")
_POSSIBLE = ("exact-source rule (ReXKG, docs/rewards/clinical.md: 'Query' under uncertain_as: present left open): an "
             "uncertain finding is scored as present under the default uncertain_as: present, so hedging each finding "
             "'Possible ...' gives the graph of the committed report; uncertain_as: uncertain tells them apart")
EXPECTED: dict[tuple[str, str, str], str] = {
    **{(reward, task["id"], "call_only_in_think"): _IN_THINK for reward in ("toolrl_correctness", "otc_tool_efficiency")
       for task in TOOL_TASKS},
    **{("kg_triplet_consistency", task["id"], "everything_possible"): _POSSIBLE for task in KG_TASKS},
    ("toolrl_format", "triangle", "llama3"): _PROMPT_WORDS,
    ("toolrl_format", "weather", "terse"): _TOPIC,
    ("toolrl_format", "stocks", "terse"): _TOPIC,
    ("toolrl_format", "stocks", "qwen3"): (
        "exact-source rule (rlla.py, docs/rewards/clinical.md): the format needs exactly one <tool_call> block, and "
        "Qwen's Hermes template writes one block per parallel call (red team holdout_r8 / holdout_r12: label "
        "disputed); toolrl_correctness and otc_tool_efficiency pay it"),
    ("overlong_penalty", "pneumonia", "no_spaces"): _NO_SPACES,
    ("overlong_penalty", "dka", "no_spaces"): _NO_SPACES,
    ("overlong_penalty", "stroke", "no_spaces"): _NO_SPACES,
}


BUILDERS = {
    "toolrl_correctness": _tool_cells, "toolrl_format": _tool_cells, "otc_tool_efficiency": _tool_cells,
    "forecast_class_cost": _forecast_cells, "jaccard": _jaccard_cells, "kg_triplet_consistency": _kg_cells,
    "crpo_accuracy": _mcq_cells, "crpo_format": _mcq_cells, "crpo_english": _mcq_cells,
    "clinical_faithfulness": _mcq_cells, "clinical_comprehensiveness": _mcq_cells,
    "think_format": _think_cells, "overlong_penalty": _overlong_cells,
}
# registered rewards that read a completion but are not in this grid, and why
NOT_SWEPT = {
    "math_accuracy": "its own grid: benchmarks/math_false_negatives.py",
    "choice_accuracy": "its own red team: benchmarks/red_team.py",
    "code_execution": "runs the program in a sandbox: the tests decide, no reading of an answer",
    "process": "per-step scores from a rule, a PRM or a judge endpoint",
    "reward_model": "a sequence-classification model",
    "rubric": "a judge grades criteria (the rules judge is covered by tests/test_rubric_rules.py)",
}


def cells(rewards: list[str] | None = None) -> list[Cell]:
    out = []
    for reward in rewards or list(BUILDERS):
        out += BUILDERS[reward](reward)
    return out


def _red_team_module():
    spec = importlib.util.spec_from_file_location("red_team_rewards", HERE / "red_team_rewards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def score(grid: list[Cell]) -> list[Cell]:
    """Score every cell and its twin through ``Config.build_scorer()`` (the red team's one scoring door)."""
    rows = [{"reward": c.reward, "params": PARAMS[c.reward], "columns": c.columns, "prompt": c.prompt,
             "completion": c.completion, "reference_completion": c.twin or c.completion} for c in grid]
    for c, (s, ref, reason, _) in zip(grid, _red_team_module().score_rows(rows)):
        c.score, c.twin_score, c.reason = s, ref, reason
    return grid


def report(grid: list[Cell], show_misses: bool = False) -> str:
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for c in grid:
        cell = per[c.reward]
        k = 0 if c.kind == "genuine" else 2
        cell[k] += 1
        if c.miss():
            cell[k + 1] += 1
            cell[4] += c.key in EXPECTED
    lines = ["| reward | genuine refused | exploits paid | of them expected |", "|---|---|---|---|"]
    total = [0, 0, 0, 0, 0]
    for reward in BUILDERS:
        if reward not in per:
            continue
        g, gr, e, ep, x = per[reward]
        total = [a + b for a, b in zip(total, per[reward])]
        lines.append(f"| {reward} | {gr}/{g} | {ep}/{e} | {x} |")
    lines.append(f"| **all** | {total[1]}/{total[0]} | {total[3]}/{total[2]} | {total[4]} |")
    if show_misses:
        lines += ["", "| reward | task | kind | style / exploit | score | twin | expected | reason |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in grid:
            if c.miss():
                why = EXPECTED.get(c.key, "")
                lines.append(f"| {c.reward} | {c.task} | {c.kind} | {c.name} | {c.score:.3g} | {c.twin_score:.3g} | "
                             f"{'yes' if why else ''} | {c.reason[:100].replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--reward", action="append", choices=sorted(BUILDERS))
    args = parser.parse_args(argv)
    sys.stdout.write(report(score(cells(args.reward)), args.show_misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
