"""The batch schema: what a rollout looks like to every reward.

A rollout is a prompt, a completion and reference columns. Prompts and completions come either as
plain strings or as chat-message lists (TRL's conversational format: ``[{"role": ..., "content": ...}]``,
possibly with ``tool_calls`` and ``role == "tool"`` messages). Rewards read text through
:func:`completion_text` / :func:`prompt_text` so both shapes behave the same.
"""

from __future__ import annotations

import itertools
import json
import math
import re
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


def content_text(content: Any) -> str:
    """The text of one message's ``content``: a string, or the text parts of a multimodal parts list."""
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


def _text_or_messages(value: Any, what: str) -> Any:
    """``value`` as a string or a message list, the two shapes rewards read.

    Bytes (a Parquet binary column) are UTF-8 text (undecodable bytes become U+FFFD); a JSON string holding a
    message list is decoded; a single message dict is a list of one. A list whose items are not messages (e.g.
    a list of strings) is neither shape: a TypeError, which fails that rollout with a reason instead of being
    read as an empty text.
    """
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, str):
        decoded = decode_messages(value)
        return value if decoded is None else decoded
    if isinstance(value, Mapping):
        if not any(key in value for key in ("role", "content", "tool_calls")):
            raise TypeError(f"a {what} must be a string or a list of chat messages, got a dict with keys "
                            f"{sorted(map(str, value))[:5]} (no role or content)")
        return [value]
    if isinstance(value, Sequence):
        odd = next((m for m in value if not isinstance(m, Mapping)), None)
        if odd is not None:
            raise TypeError(f"a {what} must be a string or a list of chat messages (dicts with role and content), "
                            f"got a list holding a {type(odd).__name__}")
        return value
    return str(value)


def completion_text(completion: Completion) -> str:
    """The text a reward should judge: the string itself, or the assistant turns of a message list.

    For a conversational completion the assistant messages' contents are joined with newlines; tool
    messages and tool-call payloads are left out (tool rewards read them through
    :func:`completion_messages`). ``None``/NaN gives ``""``. A JSON string that holds a message list
    (how CSV files carry chat data) is decoded first; bytes are UTF-8 text; a list of non-messages is a
    TypeError (see :func:`_text_or_messages`).
    """
    if is_missing(completion):
        return ""
    completion = _text_or_messages(completion, "completion")
    if isinstance(completion, str):
        return completion
    texts = [content_text(m.get("content")) for m in completion if m.get("role", "assistant") == "assistant"]
    return "\n".join(t for t in texts if t)


def prompt_text(prompt: Completion) -> str:
    """The prompt as plain text: a string, or ``role: content`` lines of a message list."""
    if is_missing(prompt):
        return ""
    prompt = _text_or_messages(prompt, "prompt")
    if isinstance(prompt, str):
        return prompt
    return "\n\n".join(f"{m.get('role', 'user')}: {content_text(m.get('content'))}" for m in prompt)


def completion_messages(completion: Completion) -> list[dict[str, Any]]:
    """The completion as a message list (a plain string becomes one assistant message)."""
    if is_missing(completion):
        return []
    completion = _text_or_messages(completion, "completion")
    if isinstance(completion, str):
        return [{"role": "assistant", "content": completion}]
    return [dict(m) for m in completion]


def decode_messages(text: str) -> list[dict[str, Any]] | None:
    """The message list a JSON string holds (how CSV files carry chat data), else None."""
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


def plain_value(value: Any) -> Any:
    """numpy arrays and scalars inside a value as Python lists and scalars (deeply), everything else unchanged.

    verl's ``non_tensor_batch`` and pandas object columns hold numpy values; rewards then read a list ground
    truth the same from there as from a Python list (``[42, 43]``, not numpy's ``[42 43]``).
    """
    if type(value) in (str, int, float, bool) or value is None:
        return value
    if hasattr(value, "dtype") and hasattr(value, "tolist") and type(value).__module__ == "numpy":
        return plain_value(value.tolist())
    if isinstance(value, Mapping):
        return {key: plain_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    return value


def label_columns(label: Any, column: str) -> dict[str, Any]:
    """The columns one sample's label fills: a mapping gives one column per key (``{"answer": "4", "unit": "m"}``),
    anything else fills ``column``. The one rule for a ground truth that arrives without column names (verl's
    ``ground_truth``, OpenRLHF's ``labels``, slime's ``label``)."""
    if isinstance(label, Mapping):
        return dict(label)
    return {column: label}


def as_column(values: Any, name: str) -> list[Any]:
    """One column as a Python list, from a list, tuple, numpy array, pandas Series, pyarrow array or torch tensor.

    Values come back as Python objects (``int`` stays ``int``); a 2-D array or tensor gives one list per row.
    """
    if isinstance(values, list):
        return values
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__len__"):
        raise TypeError(f"column {name!r} must be a sequence with one value per rollout, got {type(values).__name__}")
    to_pylist = getattr(values, "to_pylist", None)  # pyarrow Array / ChunkedArray
    if callable(to_pylist):
        return to_pylist()
    if hasattr(values, "detach"):  # torch
        return values.detach().cpu().tolist()
    dtype = getattr(values, "dtype", None)
    if dtype is not None and hasattr(values, "tolist"):  # numpy array, pandas Series
        items = values.tolist()
        return [plain_value(v) for v in items] if getattr(dtype, "kind", "") == "O" else items
    return list(values)


@dataclass
class Batch:
    """A column-wise batch of N rollouts: prompts, completions, named reference columns and optional group ids.

    Every entry point (file, TRL, verl, trainer) builds one; columns may be lists, tuples, numpy arrays, pandas
    Series, pyarrow arrays or torch tensors and are stored as Python lists (:func:`as_column`). ``groups`` (N
    hashable ids) are what a combiner groups by.
    """

    prompts: list[Any]
    completions: list[Any]
    columns: dict[str, list[Any]] = field(default_factory=dict)
    groups: list[Any] | None = None

    def __post_init__(self) -> None:
        self.completions = as_column(self.completions, "completions")
        self.prompts = as_column(self.prompts, "prompts") if self.prompts is not None else [None] * len(self.completions)
        self.columns = {str(name): as_column(values, str(name)) for name, values in self.columns.items()}
        n = len(self.completions)
        if len(self.prompts) != n:
            raise ValueError(f"batch has {len(self.prompts)} prompts but {n} completions")
        for name, values in self.columns.items():
            if len(values) != n:
                raise ValueError(f"column {name!r} has {len(values)} values, expected {n}")
        if self.groups is not None:
            self.groups = as_column(self.groups, "groups")
            if len(self.groups) != n:
                raise ValueError(f"batch has {len(self.groups)} group ids but {n} completions")

    def __len__(self) -> int:
        return len(self.completions)

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]], columns: ColumnMap = ColumnMap(), require: Sequence[str] = ()) -> Batch:
        """Build a batch from row dicts, mapping the structural columns through ``columns``.

        A key some rows lack is None in those rows; a name in ``require`` is a column even when no row has it
        (a file whose first chunk had the column keeps it in every chunk). Group ids are the ``columns.group``
        values when any row has that key.
        """
        keys = dict.fromkeys(itertools.chain.from_iterable(records))  # each key at its first appearance, in one C loop
        keys.update(dict.fromkeys(require))
        prompts = [row.get(columns.prompt) for row in records]
        completions = [row.get(columns.completion) for row in records]
        cols = {k: [row.get(k) for row in records] for k in keys if k not in (columns.prompt, columns.completion)}
        groups = cols.get(columns.group)
        return cls(prompts, completions, cols, list(groups) if groups is not None else None)


_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s'\"<>]+@")


def redact_credentials(text: str) -> str:
    """``text`` with the ``user:password@`` part of every URL in it replaced by ``***@`` (a judge's ``base_url``
    may carry credentials; no reason, log line, error or response repeats them)."""
    if "@" not in text or "://" not in text:
        return text
    return _CREDENTIALS.sub(r"\1***@", text)
