"""Grader prompts and the parsing of a judge model's answer into verdicts.

The prompt follows HealthBench's approach (docs/reference/libraries.md#healthbench-grader; wording is ours): show the conversation
as ``role: content`` blocks ending with the assistant response to grade, one rubric item as
``[points] criterion``, and ask for a JSON object ``{"explanation": str, "criteria_met": bool}``.
All parts of a compound criterion must hold; "such as / for example / including" lists need not be
exhaustive; for a negative-points item the question is whether the undesirable behaviour is present.

The multi-criteria prompt (``criteria_per_call > 1``) lists numbered items and asks for
``{"results": [{"id": 1, "criteria_met": bool, "explanation": str}, ...]}`` (the single-call style of
RuscaRL's ``scaleai_batch_reward_fn``; docs/reference/libraries.md#rubric-rl).

Parsing is lenient about the wrapper and strict about the verdict: a reasoning model's
``<think>...</think>`` block is dropped first (its drafts must not count as the answer); then fenced or
bare JSON, a JSON object embedded in prose, the Python-dict / trailing-comma near-JSON that models
write (``{'criteria_met': True,}``), ``criteria_met`` as a bool or as ``"true"/"yes"/"false"/"no"``;
failing JSON, a leading or labelled ``yes``/``no`` (``Answer: yes``) or an answer that is only a
verdict word (``True``, ``Not met.``). Anything else is *unparsable* (None), never a guess.
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


_FENCE_LANGUAGE = re.compile(r"(?:json|JSON)?")
_TRUE = {"true", "yes", "met", "1", "y"}
_FALSE = {"false", "no", "not met", "unmet", "0", "n"}
_LABELLED_YES_NO = re.compile(
    r"\b(?:criteria[_ ]met|answer|verdict|met|decision)[\"']?\s*[:=][\s*]*[\"']?(yes|no|true|false)\b", re.IGNORECASE
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


_THINK_END = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_THINK_START = re.compile(r"<think(?:ing)?>", re.IGNORECASE)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_MAX_RELAXED_STARTS = 16  # bounds the near-JSON scan (quadratic in the worst case) on long answers
_MAX_JSON_STARTS = 32  # bounds the strict scan the same way: a verdict object is among the first ones
_MAX_FENCED_BLOCKS = 16  # a verdict sits in one of the first fenced blocks, never behind thousands of empty fences
MAX_OBJECT_CHARS = 20_000  # a near-JSON verdict object longer than this is not one
# where a verdict object can start: "{" then a quoted key (LaTeX braces and "{}" never hold a verdict)
_OBJECT_START = re.compile(r"\{(?=\s*[\"'])")


def strip_reasoning(text: str) -> str:
    """The answer after a reasoning model's thinking: the text after the last ``</think>``; an
    unfinished ``<think>`` (cut by the token limit) leaves only what came before it."""
    ends = list(_THINK_END.finditer(text))
    if ends:
        return text[ends[-1].end():]
    start = _THINK_START.search(text)
    return text[:start.start()] if start else text


def _relaxed_object(text: str, start: int) -> str | None:
    """The ``{...}`` span opening at ``start`` rewritten as JSON: single-quoted strings double-quoted,
    Python ``True/False/None`` as JSON literals, trailing commas dropped. None if it never closes."""
    out: list[str] = []
    depth, i, n = 0, start, min(len(text), start + MAX_OBJECT_CHARS)
    while i < n:
        ch = text[i]
        if ch in "\"'":  # copy a string literal, re-quoted with double quotes
            quote, i = ch, i + 1
            chunk: list[str] = []
            while i < n and text[i] != quote:
                if text[i] == "\\" and i + 1 < n:
                    nxt = text[i + 1]
                    chunk.append(nxt if (quote == "'" and nxt == "'") else text[i:i + 2])
                    i += 2
                    continue
                chunk.append('\\"' if (quote == "'" and text[i] == '"') else text[i])
                i += 1
            out.append('"' + "".join(chunk) + '"')
            i += 1
            continue
        if ch in "}]":
            while out and out[-1].isspace():
                out.pop()
            if out and out[-1] == ",":
                out.pop()
            out.append(ch)
            depth -= ch == "}"
            if depth == 0:
                return "".join(out)
        elif ch == "{":
            depth += 1
            out.append(ch)
        elif ch.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            out.append(_PY_LITERALS.get(word, word))
            i = j
            continue
        else:
            out.append(ch)
        i += 1
    return None


def _fenced_blocks(text: str) -> list[str]:
    """Bodies of the ```` ``` ```` fenced blocks (an optional ``json`` language tag and leading blanks dropped),
    found with forward literal searches: linear in ``text`` however many fences it opens."""
    blocks, position = [], 0
    while len(blocks) < _MAX_FENCED_BLOCKS and (open_at := text.find("```", position)) != -1:
        body_at = _FENCE_LANGUAGE.match(text, open_at + 3).end()
        close_at = text.find("```", body_at)
        if close_at == -1:
            break
        blocks.append(text[body_at:close_at].lstrip())
        position = close_at + 3
    return blocks


def _json_objects(text: str, relaxed: bool = False) -> list[Any]:
    """JSON values found in ``text``: fenced blocks first, then the whole text, then each ``{...}`` span
    that opens with a quoted key (the first ``_MAX_JSON_STARTS`` of them, so a long answer costs linear time).

    ``relaxed`` instead reads each such span as near-JSON (:func:`_relaxed_object`)."""
    candidates = _fenced_blocks(text) + [text]
    found: list[Any] = []
    for candidate in candidates:
        starts = _OBJECT_START.finditer(candidate)
        if relaxed:
            for tries, start in enumerate(starts):
                if len(found) >= 8 or tries >= _MAX_RELAXED_STARTS:
                    break
                span = _relaxed_object(candidate, start.start())
                try:
                    found.append(json.loads(span, strict=False)) if span is not None else None  # raw newlines in strings
                except (ValueError, RecursionError):
                    pass
            continue
        try:
            found.append(json.loads(candidate.strip()))
            continue
        except (ValueError, RecursionError):
            pass
        decoder = json.JSONDecoder()
        resume = 0
        for tries, start in enumerate(starts):
            if len(found) >= 8 or tries >= _MAX_JSON_STARTS:
                break
            if start.start() < resume:  # inside an object already read
                continue
            try:
                value, resume = decoder.raw_decode(candidate, start.start())
            except (ValueError, RecursionError):
                continue
            found.append(value)
    return found


def parse_single(text: str) -> tuple[bool | None, str]:
    """``(met, explanation)`` from a judge's answer to one item; ``met`` is None when unparsable."""
    if not isinstance(text, str) or not text.strip():
        return None, "empty judge answer"
    raw, text = text, strip_reasoning(text)
    if not text.strip():
        return None, f"judge answer has reasoning but no verdict after it: {raw.strip()[-200:]!r}"
    for relaxed in (False, True):
        for value in _json_objects(text, relaxed):
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
    bare = _as_bool(text.strip().strip("*`\"' \n!.").strip())  # the whole answer is one verdict word
    if bare is not None:
        return bare, text.strip()[:300]
    return None, f"unparsable judge answer: {text.strip()[:200]!r}"


def parse_multi(text: str, count: int) -> list[tuple[bool | None, str]]:
    """Verdicts for items 1..count from a multi-criteria answer; missing/garbled ids are None with a reason."""
    results: dict[int, tuple[bool | None, str]] = {}
    entries: list[Any] = []
    answer = strip_reasoning(text) if isinstance(text, str) else ""
    values = _json_objects(answer) + _json_objects(answer, relaxed=True)
    for value in values:
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
