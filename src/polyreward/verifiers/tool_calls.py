"""Tool-call parsing: ``<tool_call>`` text blocks, JSON lists and TRL conversational ``tool_calls``.

Every parser except :func:`toolrl_block_json` returns calls normalised to ``{"name": str, "parameters": dict}``
(ToolRL's layout; an ``arguments`` key, as in OpenAI/TRL messages, is accepted for ``parameters`` and may be a
JSON string) or raises :class:`ToolCallError` whose message says what is malformed and where.

Two text parsers:

* :func:`toolrl_block_json` is ToolRL's exact rule (qiancheng0/ToolRL, NVlabs/GDPO ``rlla.py``):
  the first ``<tool_call>…</tool_call>`` block, stripped, split on ``"\\n"``, one JSON value per line,
  left as decoded (:func:`parse_toolrl_block` normalises them).
* :func:`parse_tool_call_text` is lenient: every block, each holding one JSON value (object or list)
  or one object per line; text without blocks may be a bare JSON list/object of calls.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.schema import completion_messages, is_missing
from polyreward.verifiers.tags import tag_blocks

Call = dict[str, Any]


class ToolCallError(ValueError):
    """A malformed tool call; the message names the problem."""


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise ToolCallError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:
        raise ToolCallError(f"{where}: invalid JSON ({exc})") from None


def normalize_call(obj: Any, where: str = "call") -> Call:
    """``{"name", "parameters"|"arguments"}`` or OpenAI's ``{"function": {...}}`` -> ``{"name", "parameters"}``."""
    if isinstance(obj, Mapping) and isinstance(obj.get("function"), Mapping) and "name" not in obj:
        obj = obj["function"]
    if not isinstance(obj, Mapping):
        raise ToolCallError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    name = obj.get("name")
    if not isinstance(name, str):
        raise ToolCallError(f"{where}: missing string 'name'")
    params = obj.get("parameters", obj.get("arguments", {}))
    if isinstance(params, str):
        params = _json(params, f"{where} arguments") if params.strip() else {}
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise ToolCallError(f"{where}: 'parameters' must be an object, got {type(params).__name__}")
    return {"name": name, "parameters": dict(params)}


def toolrl_block_json(text: str) -> list[Any]:
    """ToolRL's exact parse, values as decoded: the first block, stripped, one JSON value per line (blank
    lines are errors, as in the source). Nothing is normalised: ``rlla.py`` indexes these values itself."""
    if "<tool_call>" not in text or "</tool_call>" not in text:
        raise ToolCallError("missing <tool_call> or </tool_call> tag")
    body = text.split("<tool_call>")[1].split("</tool_call>")[0].strip()
    return [_json(line, f"tool call line {i + 1}") for i, line in enumerate(body.split("\n"))]


def parse_toolrl_block(text: str) -> list[Call]:
    """:func:`toolrl_block_json` with every value normalised to ``{"name", "parameters"}``."""
    return [normalize_call(value, f"tool call line {i + 1}") for i, value in enumerate(toolrl_block_json(text))]


def _calls_from_value(value: Any, where: str) -> list[Call]:
    if isinstance(value, list):
        return [normalize_call(v, f"{where} item {i + 1}") for i, v in enumerate(value)]
    return [normalize_call(value, where)]


def _block_calls(body: str, where: str) -> list[Call]:
    body = body.strip()
    if not body:
        raise ToolCallError(f"{where}: empty <tool_call> block")
    try:
        return _calls_from_value(json.loads(body), where)
    except (ValueError, RecursionError):
        pass
    lines = [line for line in body.split("\n") if line.strip()]
    return [normalize_call(_json(line, f"{where} line {i + 1}"), f"{where} line {i + 1}") for i, line in enumerate(lines)]


def parse_tool_call_text(text: str) -> list[Call]:
    """Lenient parse of every ``<tool_call>`` block; without blocks, a bare JSON list/object of calls; else []."""
    blocks = [body for _, _, body in tag_blocks(text, "tool_call")]
    if blocks:
        calls: list[Call] = []
        for i, body in enumerate(blocks):
            calls.extend(_block_calls(body, f"<tool_call> block {i + 1}"))
        return calls
    if "<tool_call>" in text:
        raise ToolCallError("<tool_call> without a closing </tool_call>")
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        value = _json(stripped, "completion")
        if isinstance(value, Mapping) and "name" not in value and "function" not in value:
            return []
        return _calls_from_value(value, "completion")
    return []


def message_tool_calls(messages: Sequence[Mapping[str, Any]], first_turn_only: bool = False) -> list[Call] | None:
    """Calls from the ``tool_calls`` fields of assistant messages (None when no message has that field)."""
    found = False
    calls: list[Call] = []
    for m, message in enumerate(messages):
        if message.get("role", "assistant") != "assistant" or not message.get("tool_calls"):
            continue
        found = True
        raw = message["tool_calls"]
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise ToolCallError(f"message {m + 1}: 'tool_calls' must be a list")
        calls.extend(normalize_call(c, f"message {m + 1} tool_calls[{i}]") for i, c in enumerate(raw))
        if first_turn_only:
            break
    return calls if found else None


def reference_calls(value: Any) -> list[Call] | None:
    """Gold calls from a reference cell: ToolRL text (None when it has no ``<tool_call>``), a list of calls,
    a JSON string of such a list, or BFCL-style ``[{"func": {"arg": value}}]``."""
    if is_missing(value):
        return None
    if isinstance(value, str):
        if "<tool_call>" in value:
            return parse_toolrl_block(value)
        stripped = value.strip()
        if not stripped.startswith(("[", "{")):
            return None
        value = _json(stripped, "reference")
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list):
        raise ToolCallError(f"reference: expected tool calls, got {type(value).__name__}")
    if not value:
        return None
    calls = []
    for i, item in enumerate(value):
        if isinstance(item, Mapping) and "name" not in item and "function" not in item and len(item) == 1:
            (name, params), = item.items()  # BFCL ground truth: {"func_name": {"arg": value}}
            item = {"name": name, "parameters": params}
        calls.append(normalize_call(item, f"reference call {i + 1}"))
    return calls


def count_tool_calls(completion: Any, extra_tags: Sequence[str] = ()) -> int:
    """How many tool calls a trajectory made (OTC's m): ``tool_calls`` entries of assistant messages if any,
    else the calls inside ``<tool_call>`` blocks (a block that does not parse counts as one attempt),
    plus ``<tag>…</tag>`` blocks for each tag in ``extra_tags`` (e.g. ``search``, ``code``). A text with neither
    counts the calls of a bare JSON list or object of calls, as :func:`parse_tool_call_text` reads them (so a
    trajectory that writes its calls without tags is not a zero-call one)."""
    messages = completion_messages(completion)
    count = sum(
        len(m["tool_calls"]) if isinstance(m.get("tool_calls"), Sequence) and not isinstance(m.get("tool_calls"), str) else 1
        for m in messages
        if m.get("role", "assistant") == "assistant" and m.get("tool_calls")
    )
    text = "\n".join(str(m.get("content") or "") for m in messages if m.get("role", "assistant") == "assistant")
    blocks = 0
    for i, (_, _, body) in enumerate(tag_blocks(text, "tool_call")):
        blocks += 1
        try:
            count += len(_block_calls(body, f"block {i + 1}"))
        except ToolCallError:
            count += 1
    if not count and not blocks and "<tool_call>" not in text:
        try:
            count = len(parse_tool_call_text(text))
        except ToolCallError:
            count = 0
    for tag in extra_tags:
        count += sum(1 for _ in tag_blocks(text, tag))
    return count
