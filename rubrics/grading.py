"""Grader prompts and the parsing of a judge model's answer into verdicts.

The prompt follows HealthBench's approach (LIBRARIES.md §4.2; wording is ours): show the conversation
as ``role: content`` blocks ending with the assistant response to grade, one rubric item as
``[points] criterion``, and ask for a JSON object ``{"explanation": str, "criteria_met": bool}``.
All parts of a compound criterion must hold; "such as / for example / including" lists need not be
exhaustive; for a negative-points item the question is whether the undesirable behaviour is present.

The multi-criteria prompt (``criteria_per_call > 1``) lists numbered items and asks for
``{"results": [{"id": 1, "criteria_met": bool, "explanation": str}, ...]}`` (the single-call style of
RuscaRL's ``scaleai_batch_reward_fn``; LIBRARIES.md §4.4).

Parsing is lenient about the wrapper and strict about the verdict: fenced or bare JSON, a JSON object
embedded in prose, ``criteria_met`` as a bool or as ``"true"/"yes"/"false"/"no"``; failing JSON, a
leading or labelled ``yes``/``no`` (``Answer: yes``). Anything else is *unparsable* (None), never a
guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.schema import prompt_text
from polyreward.rubrics.schema import RubricItem

GRADER_INSTRUCTIONS = """\
You grade one turn of a conversation against rubric criteria. Read the conversation; its last \
assistant message is the response being graded.

Rules:
- A criterion is met only if every part of it holds for the response.
- When a criterion gives examples ("such as", "for example", "including"), the response does not need \
to cover every example.
- A criterion with negative points describes an undesirable behaviour: it is met when the response \
shows that behaviour (the penalty then applies), and not met when the response avoids it.
"""

SINGLE_TEMPLATE = """\
{instructions}
# Conversation
{conversation}

# Rubric item
{item}

# Answer format
Reply with one JSON object in a ```json block and nothing else:
{{"explanation": "<why the response does or does not meet the criterion>", "criteria_met": true or false}}
"""

MULTI_TEMPLATE = """\
{instructions}
# Conversation
{conversation}

# Rubric items
{items}

# Answer format
Reply with one JSON object in a ```json block and nothing else, one entry per item id:
{{"results": [{{"id": 1, "explanation": "<why>", "criteria_met": true or false}}, ...]}}
"""

YES_NO_TEMPLATE = """\
{instructions}
# Conversation
{conversation}

# Rubric item
{item}

Does the response meet this rubric item? Answer yes or no.
Answer:"""


def conversation_text(conversation: Sequence[Mapping[str, Any]], response: str) -> str:
    """The conversation as ``role: content`` blocks, with the response as the last assistant turn."""
    turns = prompt_text(list(conversation))
    last = f"assistant: {response}"
    return f"{turns}\n\n{last}" if turns else last


def single_prompt(conversation: Sequence[Mapping[str, Any]], response: str, item: RubricItem) -> str:
    return SINGLE_TEMPLATE.format(
        instructions=GRADER_INSTRUCTIONS, conversation=conversation_text(conversation, response), item=str(item)
    )


def multi_prompt(conversation: Sequence[Mapping[str, Any]], response: str, items: Sequence[RubricItem]) -> str:
    listed = "\n".join(f"{i}. {item}" for i, item in enumerate(items, start=1))
    return MULTI_TEMPLATE.format(
        instructions=GRADER_INSTRUCTIONS, conversation=conversation_text(conversation, response), items=listed
    )


def yes_no_prompt(conversation: Sequence[Mapping[str, Any]], response: str, item: RubricItem) -> str:
    return YES_NO_TEMPLATE.format(
        instructions=GRADER_INSTRUCTIONS, conversation=conversation_text(conversation, response), item=str(item)
    )


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRUE = {"true", "yes", "met", "1", "y"}
_FALSE = {"false", "no", "not met", "unmet", "0", "n"}
_LABELLED_YES_NO = re.compile(
    r"\b(?:criteria[_ ]met|answer|verdict|met|decision)\"?\s*[:=]\s*\**\s*\"?(yes|no|true|false)\b", re.IGNORECASE
)
_LEADING_YES_NO = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().strip(".").lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    return None


def _json_objects(text: str) -> list[Any]:
    """JSON values found in ``text``: fenced blocks first, then the whole text, then each ``{...}`` span."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    found: list[Any] = []
    for candidate in candidates:
        try:
            found.append(json.loads(candidate.strip()))
            continue
        except ValueError:
            pass
        decoder = json.JSONDecoder()
        start = candidate.find("{")
        while start != -1 and len(found) < 8:
            try:
                value, end = decoder.raw_decode(candidate, start)
            except ValueError:
                start = candidate.find("{", start + 1)
                continue
            found.append(value)
            start = candidate.find("{", end)
    return found


def parse_single(text: str) -> tuple[bool | None, str]:
    """``(met, explanation)`` from a judge's answer to one item; ``met`` is None when unparsable."""
    if not isinstance(text, str) or not text.strip():
        return None, "empty judge answer"
    for value in _json_objects(text):
        if isinstance(value, Mapping):
            key = next((k for k in ("criteria_met", "met", "verdict", "answer") if k in value), None)
            if key is not None:
                met = _as_bool(value[key])
                if met is not None:
                    return met, str(value.get("explanation", value.get("reason", ""))).strip()
    labelled = _LABELLED_YES_NO.search(text)
    if labelled:
        return labelled.group(1).lower() in ("yes", "true"), text.strip()[:300]
    leading = _LEADING_YES_NO.match(text)
    if leading:
        return leading.group(1).lower() == "yes", text.strip()[:300]
    return None, f"unparsable judge answer: {text.strip()[:200]!r}"


def parse_multi(text: str, count: int) -> list[tuple[bool | None, str]]:
    """Verdicts for items 1..count from a multi-criteria answer; missing/garbled ids are None with a reason."""
    results: dict[int, tuple[bool | None, str]] = {}
    entries: list[Any] = []
    for value in _json_objects(text if isinstance(text, str) else ""):
        if isinstance(value, Mapping) and isinstance(value.get("results"), list):
            entries = value["results"]
            break
        if isinstance(value, list):
            entries = value
            break
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            continue
        raw_id = entry.get("id", position)
        try:
            index = int(raw_id)
        except (TypeError, ValueError):
            continue
        met = _as_bool(entry.get("criteria_met", entry.get("met")))
        if 1 <= index <= count and index not in results:
            explanation = str(entry.get("explanation", "")).strip()
            results[index] = (met, explanation) if met is not None else (None, f"unparsable verdict for item {index}: {entry!r}"[:300])
    if not entries:
        reason = f"unparsable judge answer: {str(text).strip()[:200]!r}"
        return [(None, reason)] * count
    return [results.get(i, (None, f"judge answer has no verdict for item {i}")) for i in range(1, count + 1)]
