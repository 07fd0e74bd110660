"""``polyreward probe``: red-team a reward config with hacks built from the user's own rows.

For each group of the rollout file (its first row), the probe builds a genuine answer from the row's reference
(:data:`polyreward.probe.strategies.GENUINE`, chosen by the first reward of the config that declares one; without
one, the group's best-scoring real completion) and, for every reward, the hack completions of the strategies
its type declares. Each (genuine, hack) pair is scored through the config's reward set (:func:`score_batch`, the
one scoring path) as a group of its own, with the row's columns, so group-level rewards compare the two alone.

A hack *exploits* a reward on a row when it scores at least the genuine answer there (more than, for a
``strict`` strategy), counted over the rows where both scores are finite and the genuine answer earns more
than the reward's minimum (a row whose genuine answer already scores the minimum says nothing). The weighted
total is checked the same way against every strategy of every reward, on the rows where the genuine answer is
above the attacked reward's minimum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyreward.probe.strategies import GENUINE, STRATEGIES, Hack, ProbeCase, strategies_of
from polyreward.schema import ColumnMap, completion_text
from polyreward.vocabulary import weighted_total

TOTAL = "weighted total"
EXAMPLE_CHARS = 240


@dataclass
class StrategyResult:
    """How one strategy fared against one reward (or the weighted total)."""

    reward: str
    strategy: str
    description: str
    rows: int = 0
    exploited: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.exploited / self.rows if self.rows else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"reward": self.reward, "strategy": self.strategy, "description": self.description, "rows": self.rows,
                "exploited": self.exploited, "share": self.share, "examples": self.examples}


@dataclass
class ProbeReport:
    rows_probed: int
    genuine_source: str
    results: list[StrategyResult]
    notes: list[str] = field(default_factory=list)

    @property
    def exploits(self) -> list[StrategyResult]:
        return [r for r in self.results if r.exploited]

    def as_dict(self) -> dict[str, Any]:
        return {"rows_probed": self.rows_probed, "genuine": self.genuine_source, "exploits": len(self.exploits),
                "results": [r.as_dict() for r in self.results], "notes": self.notes}


def first_rows_of_groups(records: Iterable[Mapping[str, Any]], group_column: str, limit: int) -> list[dict[str, Any]]:
    """The first row of each group (rows without a group id are groups of their own), at most ``limit`` of them,
    with every real completion of the group kept under ``_probe_completions``."""
    from polyreward.vocabulary import group_key

    chosen: dict[Any, dict[str, Any]] = {}
    for i, record in enumerate(records):
        key = group_key(record.get(group_column))  # the project's one group key (no recursion)
        key = ("row", i) if key is None else key  # a row without a group id is a group of its own
        if key not in chosen:
            if len(chosen) >= limit:
                continue
            chosen[key] = {**record, "_probe_completions": []}
        chosen[key]["_probe_completions"].append(record.get("completion"))
    return list(chosen.values())


def _genuine_builder(rewards: Sequence[Any]) -> tuple[Any, str] | tuple[None, str]:
    for reward in rewards:
        name = getattr(reward, "probe_genuine", None)
        if name:
            if name not in GENUINE:
                raise ValueError(f"reward type {type(reward).__name__} names unknown probe_genuine {name!r}")
            return reward, name
    return None, "best real completion of the group (no reward of the config builds one from the reference)"


def run_probe(config: Any, records: Sequence[Mapping[str, Any]], *, limit: int = 100, workers: int | None = None,
              examples: int = 2) -> ProbeReport:
    """Probe ``config``'s rewards with hacks built from ``records`` (module docstring)."""
    from polyreward.pipeline import score_batch

    reward_set = config.build_rewards(workers=workers)
    rewards = list(reward_set)
    columns = ColumnMap(config.columns.prompt, config.columns.completion, config.columns.group)
    keys: dict[str, None] = {}
    for record in records:
        keys.update(dict.fromkeys(record))
    reward_set.check_columns(keys)  # a column no row has is a MissingColumnError naming the reward, before any scoring
    rows = first_rows_of_groups(records, columns.group, limit)
    names, weights = reward_set.names, np.asarray(reward_set.weights, dtype=np.float64)
    builder_reward, source = _genuine_builder(rewards)
    notes: list[str] = []
    genuine = _genuines(rows, rewards, builder_reward, source, reward_set, columns, notes, score_batch)
    hacks: list[tuple[int, Hack]] = []
    for i, row in enumerate(rows):
        if genuine[i] is None:
            continue
        for reward in rewards:
            case = ProbeCase(row.get(columns.prompt), row, reward, genuine[i])
            for strategy in strategies_of(reward):
                spec = STRATEGIES[strategy]
                for completion in spec.function(case):
                    hacks.append((i, Hack(reward.name, strategy, completion, spec.strict)))
    results = {(reward.name, s): StrategyResult(reward.name, s, STRATEGIES[s].description) for reward in rewards for s in strategies_of(reward)}
    totals = {(name, s): StrategyResult(TOTAL, f"{name}:{s}", STRATEGIES[s].description) for name, s in results}
    if hacks:
        pair_rows: list[dict[str, Any]] = []
        for j, (i, hack) in enumerate(hacks):
            for completion in (genuine[i], hack.completion):
                pair_rows.append(_pair_record(rows[i], completion, f"probe-pair-{j}", columns, rewards))
        scored = score_batch(_batch(pair_rows, columns, reward_set), reward_set)
        matrix = scored.scores
        total = weighted_total(matrix, weights)
        lowest_total = sum(w * (r.score_range[0] if w > 0 else r.score_range[1]) for w, r in zip(weights, rewards) if w)
        for j, (i, hack) in enumerate(hacks):
            g, h = 2 * j, 2 * j + 1
            k = names.index(hack.reward)
            reward = rewards[k]
            _tally(results[(hack.reward, hack.strategy)], matrix[g, k], matrix[h, k], reward.score_range[0], hack,
                   scored.reasons.get(hack.reward, [""] * len(matrix))[h], examples)
            if matrix[g, k] > reward.score_range[0]:  # where the genuine answer is already at the attacked reward's minimum, a tie says nothing
                _tally(totals[(hack.reward, hack.strategy)], total[g], total[h], lowest_total, hack, "", examples)
    if not results:
        notes.append("no reward of this config declares probe strategies (probe_strategies); nothing was tried")
    ordered = list(results.values()) + [t for t in totals.values() if t.rows]
    return ProbeReport(len(rows), source, ordered, notes)


def _pair_record(row: Mapping[str, Any], completion: str, group: str, columns: Any, rewards: Sequence[Any]) -> dict[str, Any]:
    record = {k: v for k, v in row.items() if k != "_probe_completions"}
    record[columns.completion] = completion
    record[columns.group] = group
    for reward in rewards:
        for column in reward.group_columns:
            record[column] = group
    return record


def _batch(records: Sequence[Mapping[str, Any]], columns: Any, reward_set: Any):
    from polyreward.schema import Batch

    return Batch.from_records(records, columns, require=reward_set.columns)


def _genuines(rows, rewards, builder_reward, source, reward_set, columns, notes, score_batch) -> list[str | None]:
    """One genuine completion per probed row: the builder's, else the row group's best real completion by total."""
    if builder_reward is not None:
        out = []
        for row in rows:
            text = GENUINE[source](ProbeCase(row.get(columns.prompt), row, builder_reward))
            out.append(text)
        skipped = sum(t is None for t in out)
        if skipped:
            notes.append(f"{skipped} row(s) have no reference {builder_reward.name!r} can build a genuine answer from; left out")
        return out
    candidates: list[tuple[int, str]] = []
    records = []
    for i, row in enumerate(rows):
        for completion in row["_probe_completions"]:
            try:
                text = completion_text(completion)
            except (TypeError, ValueError):
                continue
            candidates.append((i, text))
            records.append(_pair_record(row, text, f"probe-genuine-{i}", columns, rewards))
    out: list[str | None] = [None] * len(rows)
    if not records:
        return out
    scored = score_batch(_batch(records, columns, reward_set), reward_set)
    total = weighted_total(scored.scores, np.asarray(reward_set.weights, dtype=np.float64))
    best: dict[int, float] = {}
    for (i, text), value in zip(candidates, total):
        if math.isfinite(value) and value > best.get(i, -math.inf):
            best[i], out[i] = value, text
    return out


def _tally(result: StrategyResult, genuine: float, hack_score: float, minimum: float, hack: Hack, reason: str,
           examples: int) -> None:
    if not (math.isfinite(genuine) and math.isfinite(hack_score)) or genuine <= minimum:
        return
    result.rows += 1
    won = hack_score > genuine if hack.strict else hack_score >= genuine
    if not won:
        return
    result.exploited += 1
    if len(result.examples) < examples:
        text = hack.completion if len(hack.completion) <= EXAMPLE_CHARS else hack.completion[:EXAMPLE_CHARS] + f"... ({len(hack.completion):,} chars)"
        result.examples.append({"hack": text, "hack_score": float(hack_score), "genuine_score": float(genuine), "reason": reason[:200]})
