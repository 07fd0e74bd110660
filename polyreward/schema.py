"""The batch schema: what a rollout looks like to every reward.

A rollout is a prompt, a completion and reference columns. Prompts and completions come either as
plain strings or as chat-message lists (TRL's conversational format: ``[{"role": ..., "content": ...}]``,
possibly with ``tool_calls`` and ``role == "tool"`` messages). Rewards read text through
:func:`completion_text` / :func:`prompt_text` so both shapes behave the same.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Message = Mapping[str, Any]
Completion = str | Sequence[Message] | None


@dataclass(frozen=True)
class ColumnMap:
    """Names of the structural columns in a rollout table (config key ``columns``)."""

    prompt: str = "prompt"
    completion: str = "completion"
    group: str = "prompt_id"


def _content_to_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):  # multimodal content parts: [{"type": "text", "text": ...}, ...]
        parts = []
        for part in content:
            if isinstance(part, Mapping):
                text = part.get("text")
                if isinstance(text, str):
                    parts.append(text)
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return str(content)


def is_missing(value: Any) -> bool:
    """True for None and float NaN (pandas' marker for an empty cell)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def completion_text(completion: Completion) -> str:
    """The text a reward should judge: the string itself, or the assistant turns of a message list.

    For a conversational completion the assistant messages' contents are joined with newlines; tool
    messages and tool-call payloads are left out (tool rewards read them through
    :func:`completion_messages`). ``None``/NaN gives ``""``. A JSON string that holds a message list
    (how CSV files carry chat data) is decoded first.
    """
    if is_missing(completion):
        return ""
    if isinstance(completion, str):
        decoded = _maybe_decode_messages(completion)
        if decoded is None:
            return completion
        completion = decoded
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, Sequence):
        texts = [
            _content_to_text(m.get("content"))
            for m in completion
            if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"
        ]
        return "\n".join(t for t in texts if t)
    return str(completion)


def prompt_text(prompt: Completion) -> str:
    """The prompt as plain text: a string, or ``role: content`` lines of a message list."""
    if is_missing(prompt):
        return ""
    if isinstance(prompt, str):
        decoded = _maybe_decode_messages(prompt)
        if decoded is None:
            return prompt
        prompt = decoded
    if isinstance(prompt, Mapping):
        prompt = [prompt]
    if isinstance(prompt, Sequence):
        return "\n\n".join(
            f"{m.get('role', 'user')}: {_content_to_text(m.get('content'))}" for m in prompt if isinstance(m, Mapping)
        )
    return str(prompt)


def completion_messages(completion: Completion) -> list[dict[str, Any]]:
    """The completion as a message list (a plain string becomes one assistant message)."""
    if is_missing(completion):
        return []
    if isinstance(completion, str):
        decoded = _maybe_decode_messages(completion)
        return decoded if decoded is not None else [{"role": "assistant", "content": completion}]
    if isinstance(completion, Mapping):
        return [dict(completion)]
    return [dict(m) for m in completion if isinstance(m, Mapping)]


def _maybe_decode_messages(text: str) -> list[dict[str, Any]] | None:
    stripped = text.lstrip()
    if not stripped.startswith("[{"):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, list) and value and all(isinstance(m, dict) and "role" in m for m in value):
        return value
    return None


@dataclass
class Batch:
    """A column-wise batch of N rollouts: prompts, completions and named reference columns."""

    prompts: list[Any]
    completions: list[Any]
    columns: dict[str, list[Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.completions)
        if len(self.prompts) != n:
            raise ValueError(f"batch has {len(self.prompts)} prompts but {n} completions")
        for name, values in self.columns.items():
            if len(values) != n:
                raise ValueError(f"column {name!r} has {len(values)} values, expected {n}")

    def __len__(self) -> int:
        return len(self.completions)

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]], columns: ColumnMap = ColumnMap()) -> Batch:
        """Build a batch from row dicts, mapping the structural columns through ``columns``."""
        keys: dict[str, None] = {}
        for row in records:
            keys.update(dict.fromkeys(row))
        prompts = [row.get(columns.prompt) for row in records]
        completions = [row.get(columns.completion) for row in records]
        cols = {k: [row.get(k) for row in records] for k in keys if k not in (columns.prompt, columns.completion)}
        return cls(prompts, completions, cols)
