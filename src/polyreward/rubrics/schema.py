"""Rubric items in HealthBench's format, and reading / writing / validating rubrics.

A rubric is a list of items ``{"criterion": str, "points": number, "tags": [str, ...]}``
(openai/simple-evals ``healthbench_eval.py``, docs/reference/libraries.md#healthbench-format). Positive points reward a desirable
behaviour; negative points are penalties whose criterion describes the *undesirable* behaviour, so a
"met" negative item subtracts. Tags follow HealthBench: ``axis:*`` (accuracy, completeness, ...),
``level:example|cluster``, ``theme:*``.

polyreward adds one optional key, ``rule``: a mapping that lets the ``rules`` judge check the item
without a model (grammar: :mod:`polyreward.rubrics.rule_grammar`; checked by :mod:`polyreward.rubrics.judge_rules`). Files without it are plain HealthBench.
A rubric read from rollout data (:func:`parse_rubric`'s default) is untrusted: a rule ``callable`` must
be a built-in one or in ``allowed_callables``, and its patterns must suit the linear-time regex engine;
the config's rubric file (:func:`load_rubric_file`) is trusted.

Where rubrics come from:

* a column of the rollout table, one rubric per example (a list of item dicts, or that list as a JSON
  string, as a CSV/parquet cell carries it) -- :func:`parse_rubric`;
* one rubric for every example, from a file -- :func:`load_rubric_file`: ``.json`` (a list of items, or
  an object with a ``rubrics`` list, i.e. one HealthBench row), ``.jsonl`` (one item per line) or
  ``.yaml``/``.yml`` (a list of items or a mapping with ``rubrics``);
* HealthBench eval files (JSONL rows with ``prompt``, ``rubrics``, ``prompt_id``, ...) --
  :func:`read_healthbench` / :func:`write_healthbench`.

Every error names the file, the line (JSONL) or item index, and the key (:class:`RubricError`).
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from polyreward.rubrics.rule_grammar import validate_rule
from polyreward.vocabulary import UserError, yaml_error_message

ITEM_KEYS = ("criterion", "points", "tags", "rule")


class RubricError(UserError, ValueError):
    """An invalid rubric; the message says where (file, line, item) and which key."""


@dataclass(frozen=True)
class RubricItem:
    """One rubric criterion. ``points`` < 0 marks a penalty (met = the undesirable behaviour is present)."""

    criterion: str
    points: float
    tags: tuple[str, ...] = ()
    rule: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)

    def __str__(self) -> str:  # the form a grader prompt shows: "[points] criterion" (HealthBench)
        return f"[{_format_points(self.points)}] {self.criterion}"

    @property
    def axes(self) -> tuple[str, ...]:
        """The ``axis:*`` tags without their prefix."""
        return tuple(t[len("axis:"):] for t in self.tags if t.startswith("axis:"))

    def to_dict(self) -> dict[str, Any]:
        """HealthBench JSON form (``rule`` only when set); integral points are written as ints."""
        out: dict[str, Any] = {"criterion": self.criterion, "points": _json_points(self.points), "tags": list(self.tags)}
        if self.rule is not None:
            out["rule"] = dict(self.rule)
        return out


def _format_points(points: float) -> str:
    return str(int(points)) if float(points).is_integer() else str(points)


def _json_points(points: float) -> int | float:
    return int(points) if float(points).is_integer() else float(points)


def parse_item(data: Any, where: str = "item", allowed_callables: Collection[str] | None = ()) -> RubricItem:
    """Validate one item mapping; ``where`` prefixes the error (e.g. ``rubric.jsonl line 3``).

    ``allowed_callables``: None for a trusted rubric (the config's); else the rule callables, besides the
    built-in ones, that this untrusted (rollout data) item may name."""
    if isinstance(data, RubricItem):
        return data
    if not isinstance(data, Mapping):
        raise RubricError(f"{where}: a rubric item must be a mapping with 'criterion' and 'points', got {type(data).__name__}")
    unknown = sorted(set(data) - set(ITEM_KEYS))
    if unknown:
        raise RubricError(f"{where}: unknown key(s) {unknown}; allowed: {', '.join(ITEM_KEYS)}")
    criterion = data.get("criterion")
    if not isinstance(criterion, str) or not criterion.strip():
        raise RubricError(f"{where}.criterion: must be a non-empty string, got {criterion!r}")
    if "points" not in data:
        raise RubricError(f"{where}.points: missing (a number; negative for a penalty)")
    points = data["points"]
    if isinstance(points, bool) or not isinstance(points, numbers.Real) or not _finite(points):
        shown = "an integer too large for a float" if isinstance(points, int) and points.bit_length() > 1024 else repr(points)
        raise RubricError(f"{where}.points: must be a finite number, got {shown}")
    tags = data.get("tags", [])
    if tags is None:
        tags = []
    if hasattr(tags, "tolist") and not isinstance(tags, (list, tuple)):  # numpy array from a parquet cell
        tags = tags.tolist()
    if isinstance(tags, str) or not isinstance(tags, Sequence) or not all(isinstance(t, str) for t in tags):
        raise RubricError(f"{where}.tags: must be a list of strings, got {tags!r}")
    rule = data.get("rule")
    if isinstance(rule, Mapping):  # parquet stores a struct with every key of every row's rule: drop the empty ones
        rule = {k: _plain(k, v) for k, v in rule.items() if v is not None}
    if rule is not None:
        try:
            validate_rule(rule, allowed_callables)
        except ValueError as exc:
            raise RubricError(f"{where}.rule: {exc}") from None
    return RubricItem(criterion.strip(), float(points), tuple(tags), rule)


def _finite(number: numbers.Real) -> bool:
    """A number that is finite as a float (an int such as 10**400 overflows a float: not finite)."""
    try:
        return math.isfinite(number)
    except OverflowError:
        return False


def _plain(key: str, value: Any) -> Any:
    """A rule value as JSON would give it: arrays as lists, whole-number float bounds (parquet) as ints."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if key.startswith(("min_", "max_")) and isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


def parse_rubric(value: Any, where: str = "rubric", allowed_callables: Collection[str] | None = ()) -> list[RubricItem]:
    """A rubric from a cell: a list of item mappings/:class:`RubricItem`, a JSON string of that list,
    or a mapping with a ``rubrics`` list (a HealthBench row). An empty rubric is an error.

    Untrusted by default (rollout data): see :func:`parse_item` for ``allowed_callables``."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise RubricError(f"{where}: not valid JSON ({exc})") from None
        except RecursionError:
            raise RubricError(f"{where}: JSON nested too deeply") from None
    if isinstance(value, Mapping):
        if "rubrics" not in value:
            raise RubricError(f"{where}: a mapping must hold a 'rubrics' list of items; keys: {sorted(value)}")
        value = value["rubrics"]
        where = f"{where}.rubrics"
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):  # numpy arrays from parquet cells
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise RubricError(f"{where}: must be a list of rubric items, got {type(value).__name__}")
    items = [parse_item(item, f"{where}[{i}]", allowed_callables) for i, item in enumerate(value)]
    if not items:
        raise RubricError(f"{where}: the rubric is empty")
    return items


def rubric_to_json(items: Sequence[RubricItem]) -> list[dict[str, Any]]:
    return [item.to_dict() for item in items]


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RubricError(f"cannot read rubric file {path}: {exc.strerror or exc}") from None


def _jsonl_records(path: Path) -> list[tuple[int, Any]]:
    records = []
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append((number, json.loads(line)))
        except (ValueError, RecursionError) as exc:
            raise RubricError(f"{path} line {number}: invalid JSON ({exc})") from None
    return records


def load_rubric_file(path: str | Path) -> list[RubricItem]:
    """One rubric for every example, from ``.json``, ``.jsonl`` (one item per line) or ``.yaml``; the file is
    named by the config, so its rule callables and patterns are trusted."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        records = _jsonl_records(path)
        items = [parse_item(record, f"{path} line {number}", allowed_callables=None) for number, record in records]
        if not items:
            raise RubricError(f"{path}: the rubric is empty")
        return items
    if suffix == ".json":
        text = _read_text(path)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise RubricError(f"{path}: invalid JSON ({exc})") from None
    elif suffix in (".yaml", ".yml"):
        text = _read_text(path)
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise RubricError(yaml_error_message(path, exc)) from None
    else:
        raise RubricError(f"{path}: unknown rubric file type {suffix or '(none)'}; allowed: .json, .jsonl, .yaml, .yml")
    return parse_rubric(data, where=str(path), allowed_callables=None)


def read_healthbench(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a HealthBench JSONL file with ``rubrics`` parsed into :class:`RubricItem` lists.

    Other keys (``prompt``, ``prompt_id``, ``example_tags``, ``ideal_completions_data``, ...) pass through.
    """
    path = Path(path)
    rows = []
    for number, record in _jsonl_records(path):
        where = f"{path} line {number}"
        if not isinstance(record, Mapping):
            raise RubricError(f"{where}: a HealthBench row must be a JSON object, got {type(record).__name__}")
        if "rubrics" not in record:
            raise RubricError(f"{where}: missing key 'rubrics'; keys: {sorted(record)}")
        row = dict(record)
        row["rubrics"] = parse_rubric(record["rubrics"], f"{where}.rubrics")
        rows.append(row)
    return rows


def write_healthbench(path: str | Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """Write rows as HealthBench JSONL (``rubrics`` as item dicts; other keys unchanged)."""
    with Path(path).open("w", encoding="utf-8") as handle:
        for row in rows:
            out = dict(row)
            out["rubrics"] = rubric_to_json(parse_rubric(row.get("rubrics"), "row.rubrics"))
            handle.write(json.dumps(out, ensure_ascii=False) + "\n")
