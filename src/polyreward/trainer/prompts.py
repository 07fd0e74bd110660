"""Prompt rows for the trainer: read them, order them per epoch, render them for the model.

A row is a dict holding the prompt (a string, or a chat-message list in TRL's conversational format)
and the reference columns the rewards read (``answer``, ``options``, ...). Rows come from a JSONL file
or from a loader of :mod:`polyreward.runners.packaged_datasets`.

The order is a pure function of (seed, step): epoch ``e`` is a permutation drawn from
``numpy.random.default_rng([seed, e])``, and step ``s`` takes the next ``prompts_per_step`` rows of
the concatenated epochs. Resuming at step ``s`` therefore sees exactly the prompts an uninterrupted
run would, without storing any sampler state. Dynamic sampling draws extra prompts in some steps; the cursor
position (prompts drawn so far) is then saved with the checkpoint.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from polyreward.config import ConfigError
from polyreward.trainer.config import DatasetSpec


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file; a bad line raises :class:`ConfigError` naming the file and line."""
    return _read_jsonl_lines(path)[0]


def _read_jsonl_lines(path: str | Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Rows of a JSONL file and the (1-based) line each came from."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"train.dataset.path: cannot read {path}: {exc.strerror or exc}") from None
    rows, numbers = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path} line {number}: invalid JSON: {exc.msg}") from None
        if not isinstance(row, dict):
            raise ConfigError(f"{path} line {number}: each line must be a JSON object, got {type(row).__name__}")
        rows.append(row)
        numbers.append(number)
    return rows, numbers


def prompt_problem(prompt: Any) -> str | None:
    """Why ``prompt`` cannot be rendered (None when it can): a string, or a list of ``{role, content}`` messages."""
    if isinstance(prompt, str):
        return None
    if isinstance(prompt, list) and prompt:
        for index, message in enumerate(prompt):
            if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
                return f"chat message {index} must be an object with 'role' and 'content', got {json.dumps(message, default=str)[:80]}"
        return None
    if isinstance(prompt, list):
        return "the chat-message list is empty"
    return f"a prompt must be a string or a list of chat messages, got {type(prompt).__name__}"


def _from_loader(name: str, args: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        data = importlib.import_module("polyreward.runners.packaged_datasets")
    except ImportError as exc:
        raise ConfigError(f"train.dataset.loader: polyreward.runners.packaged_datasets is not available ({exc})") from None
    loader = getattr(data, f"load_{name}", None)
    if not callable(loader):
        known = sorted(n.removeprefix("load_") for n in dir(data) if n.startswith("load_"))
        raise ConfigError(f"train.dataset.loader: unknown loader {name!r}; allowed: {', '.join(known)}")
    try:
        rows = loader(**args)
    except TypeError as exc:
        raise ConfigError(f"train.dataset.args: {exc}") from None
    return [dict(r) for r in rows]


def load_rows(spec: DatasetSpec, prompt_column: str, needed_columns: Sequence[str]) -> list[dict[str, Any]]:
    """All prompt rows, checked up front: every row has the prompt and the columns the rewards read."""
    if spec.path is not None:
        rows, numbers = _read_jsonl_lines(spec.path)
        where = [f"{spec.path} line {n}" for n in numbers]
    else:
        rows = _from_loader(spec.loader, spec.args)
        where = [f"loader {spec.loader} row {i}" for i in range(len(rows))]
    if spec.limit is not None:
        rows = rows[: spec.limit]
    if not rows:
        raise ConfigError(f"train.dataset: {spec.path or f'loader {spec.loader}'} holds no rows")
    for row, place in zip(rows, where):
        missing = [c for c in (prompt_column, *needed_columns) if c not in row]
        if missing:
            raise ConfigError(f"train.dataset: {place} lacks column(s) {missing}; it has {sorted(row)}")
        problem = prompt_problem(row[prompt_column])
        if problem:
            raise ConfigError(f"train.dataset: {place}, column {prompt_column!r}: {problem}")
    return rows


@functools.lru_cache(maxsize=4)
def _epoch_order(seed: int, epoch: int, num_rows: int) -> np.ndarray:
    return np.random.default_rng([seed, epoch]).permutation(num_rows)


def prompt_indices(step: int, prompts_per_step: int, num_rows: int, seed: int) -> list[int]:
    """Row indices of the prompts used at ``step`` (0-based): consecutive slices of per-epoch permutations."""
    return rows_at(range(step * prompts_per_step, (step + 1) * prompts_per_step), num_rows, seed)


def rows_at(positions: range | list[int], num_rows: int, seed: int) -> list[int]:
    """Row indices at cursor ``positions`` of the concatenated per-epoch permutations. Without dynamic sampling step
    ``s`` reads positions ``s·P .. s·P + P − 1``; with it the cursor also advances by every refill round's prompts
    (trainer/dynamic_sampling.py) and is saved with each checkpoint."""
    indices = []
    for position in positions:
        epoch, offset = divmod(position, num_rows)
        indices.append(int(_epoch_order(seed, epoch, num_rows)[offset]))
    return indices


def render_prompt(prompt: Any, tokenizer: Any, use_chat_template: bool, system_prompt: str | None) -> str:
    """The text fed to the model: the chat template with a generation prompt when there is one, else the raw text."""
    problem = prompt_problem(prompt)
    if problem:
        raise ConfigError(problem)
    messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else [dict(m) for m in prompt]
    if system_prompt and not any(m.get("role") == "system" for m in messages):
        messages.insert(0, {"role": "system", "content": system_prompt})
    if use_chat_template and getattr(tokenizer, "chat_template", None):
        return tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return "\n\n".join(str(m.get("content", "")) for m in messages)
