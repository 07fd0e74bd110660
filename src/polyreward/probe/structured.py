"""Genuine answers and hacks for structured rewards: tool calls, forecasts, report knowledge graphs, label sets."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from polyreward.probe.case import REASONING, SUMMARY, ProbeCase

def _gold_calls(case: ProbeCase) -> list[dict[str, Any]] | None:
    from polyreward.verifiers.tool_calls import ToolCallError, reference_calls

    try:
        return reference_calls(case.column("answer_column"))
    except ToolCallError:
        return None


def tool_call_genuine(case: ProbeCase) -> str | None:
    calls = _gold_calls(case)
    reference = case.column("answer_column")
    response = isinstance(reference, str) and "<response>" in reference
    if not calls:
        return f"<think>{REASONING}</think>\n<response>{SUMMARY}</response>" if response else None
    lines = "\n".join(json.dumps(c, ensure_ascii=False) for c in calls)
    return f"<think>{REASONING}</think>\n<tool_call>\n{lines}\n</tool_call>" + (f"\n<response>{SUMMARY}</response>" if response else "")


def second_call_block(case: ProbeCase) -> list[str]:
    if "</tool_call>" not in case.genuine:
        return []
    extra = '<tool_call>\n{"name": "rm_rf", "parameters": {"path": "/"}}\n</tool_call>'
    at = case.genuine.rfind("</tool_call>") + len("</tool_call>")
    return [case.genuine[:at] + "\n" + extra + case.genuine[at:]]


def empty_tool_block(case: ProbeCase) -> list[str]:
    if "<tool_call>" not in case.genuine:
        return []
    return [re.sub(r"<tool_call>.*?</tool_call>", "<tool_call>\n\n</tool_call>", case.genuine, flags=re.DOTALL)]


def bare_call_list(case: ProbeCase) -> list[str]:
    calls = _gold_calls(case)
    return [json.dumps(calls, ensure_ascii=False)] if calls else []


def _observed(case: ProbeCase) -> list[float] | None:
    from polyreward.rewards.forecast import observed_values

    values: list[float] = []
    for column in getattr(case.reward, "observed_columns", {}).values():
        cell = case.row.get(column)
        observed = observed_values(cell)
        if observed is None:
            return None
        values.extend(observed)
    return values or None


def _number(x: float) -> str:
    return f"{x:g}" if math.isfinite(x) and x > 0 else "1"


def forecast_genuine(case: ProbeCase) -> str | None:
    values = _observed(case)
    return None if values is None else f"<think>{REASONING}</think>\n<answer>{', '.join(_number(v) for v in values)}</answer>"


def number_hedge(case: ProbeCase) -> list[str]:
    values = _observed(case)
    if values is None or len(values) != 1:
        return []
    value = _number(values[0])
    return [f"<think>{REASONING}</think>\n<answer>{value} (or maybe {float(value) * 3 + 50:g})</answer>"]


def number_candidates(case: ProbeCase) -> list[str]:
    values, edges = _observed(case), getattr(case.reward, "edges", ())
    if values is None or len(values) != 1 or not edges:
        return []
    points = [edges[0] / 2] + [(a + b) / 2 for a, b in zip(edges, edges[1:])] + [edges[-1] * 2]
    return [f"<think>{REASONING}</think>\n<answer>{', '.join(f'{p:g}' for p in points)}</answer>"]


def non_finite(case: ProbeCase) -> list[str]:
    values = _observed(case)
    if values is None:
        return []
    return [f"<think>{REASONING}</think>\n<answer>{', '.join(['1e999'] * len(values))}</answer>"]


def prompt_numbers(case: ProbeCase) -> list[str]:
    numbers = re.findall(r"\d+(?:\.\d+)?", case.prompt_text)
    return [f"<think>{REASONING}</think>\n<answer>{', '.join(numbers[-48:])}</answer>"] if numbers else []


def negated_number(case: ProbeCase) -> list[str]:
    values = _observed(case)
    if values is None or len(values) != 1:
        return []
    return [f"<think>{REASONING}</think>\n<answer>not {_number(values[0])}</answer>"]


def reference_report(case: ProbeCase) -> str | None:
    from polyreward.verifiers.tags import first_block

    reference = case.column("answer_column")
    if reference is None:
        return None
    text = str(reference)
    think = first_block(text, "think")
    return think.strip() if think is not None else text


def empty_completion(case: ProbeCase) -> list[str]:
    return ["", " "]


def prompt_as_completion(case: ProbeCase) -> list[str]:
    return [case.prompt_text] if case.prompt_text else []


def label_genuine(case: ProbeCase) -> str | None:
    from polyreward.rewards.jaccard import reference_labels

    labels = reference_labels(case.column("answer_column"), getattr(case.reward, "separator", ";"))
    return None if not labels else f"<think>{REASONING}</think>\n<answer>{'; '.join(labels)}</answer>"
