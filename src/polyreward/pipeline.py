"""The one scoring path: a :class:`~polyreward.schema.Batch` in, a :class:`ScoredBatch` out.

Every entry point — ``polyreward score``, the TRL and verl adapters, the bundled trainer — builds a ``Batch``
from its native columns and calls :func:`score_batch`. Nothing else scores, so a batch gets the same scores,
reasons, failure counts, weighted total and advantages whichever way it came in::

    batch = Batch(prompts, completions, {"answer": answers}, groups=prompt_ids)
    scored = score_batch(batch, config.build_rewards(), config.build_combiner())
    scored.scores      # (N, K) float64, NaN = not applicable or failed
    scored.failures    # {"accuracy": 0, "format": 3}: rollouts each reward failed on
    scored.advantages  # (N,) float64 (with a combiner), 0 where no reward applied

Failure policy (``on_reward_error``, config key of the same name): a reward that raises — for one rollout
or for the whole batch, whatever the exception (``KeyError``, ``TypeError``, ``RecursionError``,
``MemoryError``, ...) — or returns a non-finite or non-numeric score has *failed* on those rollouts.
``"nan"`` (the default) scores them NaN with the error as reason and counts them in ``failures``; the
batch goes on. ``"raise"`` stops with a :class:`RewardError` naming the reward, the count and the first
reason. ``None`` from a reward means "not applicable": NaN in the matrix, never a failure.

Before any reward runs, every column a reward declares (:attr:`Reward.columns`) must be in the batch:
otherwise a :class:`MissingColumnError` names the reward and the column — a configuration mistake, not a
property of one rollout.
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from polyreward.reward import RewardOutput
from polyreward.rewardset import RewardSet, ScoreMatrix
from polyreward.schema import Batch

OnRewardError = Literal["nan", "raise"]
ON_REWARD_ERROR: tuple[str, ...] = ("nan", "raise")


class MissingColumnError(KeyError):
    """A reward reads a column the batch does not have (names the reward, the column and what is there)."""

    def __init__(self, reward: str, column: str, available: Sequence[str] = (), hint: str = "", kind: str = "reward") -> None:
        self.reward, self.column, self.available = reward, column, list(available)
        super().__init__(f"{kind} {reward!r} reads column {column!r}, which the data does not have; columns: {self.available}"
                         + (f" ({hint})" if hint else ""))

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class RewardError(RuntimeError):
    """A reward failed while ``on_reward_error="raise"``."""

    def __init__(self, reward: str, failed: int, n: int, reason: str) -> None:
        self.reward, self.failed, self.n, self.reason = reward, failed, n, reason
        super().__init__(f"reward {reward!r} failed on {failed} of {n} rollouts (on_reward_error: raise); first: {reason}")


@dataclass
class ScoredBatch(ScoreMatrix):
    """A scored batch: the :class:`~polyreward.rewardset.ScoreMatrix` plus failures and (with a combiner) advantages.

    ``failures[name]`` counts the rollouts reward ``name`` failed on (``failed[i, k]`` marks them) and
    ``first_failure[name]`` is the first of their reasons; ``advantages`` is (N,) float64 with 0 for rows where no reward applied (as TRL);
    ``diagnostics`` is :func:`polyreward.combiners.diagnostics.diagnose`'s summary when asked for.
    """

    failures: dict[str, int] = field(default_factory=dict)
    first_failure: dict[str, str] = field(default_factory=dict)
    failed: np.ndarray | None = None  # (N, K) bool: reward k failed on rollout i
    advantages: np.ndarray | None = None
    diagnostics: dict[str, float] | None = None
    seconds: dict[str, float] = field(default_factory=dict)  # wall-clock seconds each reward took on this batch

    def output_columns(self) -> dict[str, list[Any]]:
        """The columns ``polyreward score`` adds to each row, in order: each reward's score (None where NaN), ``reward``
        (the weighted total), ``<name>_reason`` (None where empty) and ``<name>.<sub>`` sub-scores."""
        out: dict[str, list[Any]] = {}
        for k, name in enumerate(self.names):
            out[name] = [None if math.isnan(v) else v for v in self.scores[:, k].tolist()]
        out["reward"] = [None if math.isnan(v) else v for v in self.total.tolist()]
        for name in self.names:
            out[f"{name}_reason"] = [r or None for r in self.reasons[name]]
        for name, subs in self.details.items():
            for sub, values in subs.items():
                out[f"{name}.{sub}"] = list(values)
        return out


def check_policy(on_reward_error: str) -> str:
    if on_reward_error not in ON_REWARD_ERROR:
        raise ValueError(f"on_reward_error must be one of {', '.join(ON_REWARD_ERROR)}, got {on_reward_error!r}")
    return on_reward_error


def _score_value(raw: Any) -> tuple[float, str | None]:
    """(score, failure) of one raw reward output: None -> (NaN, None); a finite number -> (x, None); else a failure."""
    if raw is None:
        return math.nan, None
    if isinstance(raw, (bool, int, float, np.integer, np.floating)):
        value = float(raw)
        return (value, None) if math.isfinite(value) else (math.nan, "error: non-finite score")
    return math.nan, f"error: non-numeric score {str(raw)[:80]!r}"


def _evaluate(reward: Any, batch: Batch, policy: str) -> RewardOutput:
    n = len(batch)
    try:
        output = reward.evaluate(batch.prompts, batch.completions, **batch.columns)
        if len(output.scores) != n:
            raise ValueError(f"returned {len(output.scores)} scores for {n} rollouts")
        return output
    except Exception as exc:  # MemoryError and RecursionError are Exceptions too: one policy for all of them
        reason = f"error: {type(exc).__name__}: {exc}"[:500]
        if policy == "raise":
            raise RewardError(reward.name, n, n, reason) from exc
        return RewardOutput([math.nan] * n, [reason] * n)


NOT_APPLICABLE = "not applicable"


def _evaluate_where(reward: Any, batch: Batch, policy: str, rows: np.ndarray | None) -> RewardOutput:
    """``reward`` on the ``rows`` of ``batch`` (all when None); the other rows are None, "not applicable"."""
    if rows is None:
        return _evaluate(reward, batch, policy)
    n = len(batch)
    picked = np.flatnonzero(rows).tolist()
    scores: list[Any] = [None] * n
    reasons: list[str | None] = [NOT_APPLICABLE] * n
    if not picked:
        return RewardOutput(scores, reasons)
    part = Batch([batch.prompts[i] for i in picked], [batch.completions[i] for i in picked],
                 {name: [values[i] for i in picked] for name, values in batch.columns.items()},
                 None if batch.groups is None else [batch.groups[i] for i in picked])
    output = _evaluate(reward, part, policy)
    details: dict[str, list[Any]] = {sub: [None] * n for sub in (output.details or {})}
    for j, i in enumerate(picked):
        scores[i], reasons[i] = output.scores[j], output.reasons[j]
        for sub, values in (output.details or {}).items():
            details[sub][i] = values[j]
    return RewardOutput(scores, reasons, details)


def score_batch(
    batch: Batch,
    reward_set: RewardSet,
    combiner: Any = None,
    *,
    on_reward_error: OnRewardError = "nan",
    lengths: Sequence[float] | None = None,
    diagnostics: bool = False,
) -> ScoredBatch:
    """Score ``batch`` with every reward of ``reward_set`` and, with a ``combiner``, compute advantages over ``batch.groups``.

    ``lengths`` (N response token counts) reach combiners whose ``combine`` takes them (GDPO's verl variant).
    Raises :class:`MissingColumnError` before scoring, and :class:`RewardError` under ``on_reward_error="raise"``.
    """
    policy = check_policy(on_reward_error)
    reward_set.check_columns(batch.columns)
    if combiner is not None and batch.groups is None:
        raise ValueError("a combiner needs the batch's group ids (Batch(groups=...), the columns.group column of a file)")
    n = len(batch)
    matrix = np.full((n, len(reward_set)), np.nan, dtype=np.float64)
    failed_mask = np.zeros((n, len(reward_set)), dtype=bool)
    reasons: dict[str, list[str]] = {}
    details: dict[str, dict[str, list[Any]]] = {}
    failures: dict[str, int] = {}
    first_failure: dict[str, str] = {}
    seconds: dict[str, float] = {}
    for k, reward in enumerate(reward_set):
        started = time.perf_counter()
        output = _evaluate_where(reward, batch, policy, reward_set.applies(reward.name, batch.columns, n))
        seconds[reward.name] = time.perf_counter() - started
        why = [str(r) if r is not None else "" for r in output.reasons]
        failed = 0
        for i, raw in enumerate(output.scores):
            value, failure = _score_value(raw)
            matrix[i, k] = value
            if failure is not None or (raw is not None and math.isnan(value)):
                failed += 1
                failed_mask[i, k] = True
                why[i] = why[i] or failure or "error: failed"
                first_failure.setdefault(reward.name, why[i])
        if failed and policy == "raise":
            raise RewardError(reward.name, failed, n, first_failure[reward.name])
        failures[reward.name] = failed
        reasons[reward.name] = why
        if output.details:
            details[reward.name] = output.details
    scored = ScoredBatch(reward_set.names, reward_set.weights, matrix, reasons, details, failures, first_failure, failed_mask,
                         seconds=seconds)
    if combiner is not None:
        scored.advantages = combine_scores(combiner, matrix, batch.groups, scored.weights, lengths=lengths, columns=batch.columns)
        if diagnostics:
            from polyreward.combiners.diagnostics import diagnose

            summary = diagnose(matrix, group_ids(batch.groups), scored.advantages, scored.weights, names=scored.names).summary
            scored.diagnostics = {key: float(value) for key, value in summary.items()}
    return scored


def hashable_id(value: Any) -> Any:
    """A group id read from JSON may be a list or dict: the same id as a hashable value; NaN -> None."""
    if isinstance(value, list):
        return tuple(hashable_id(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, hashable_id(v)) for k, v in value.items()))
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def group_ids(groups: Sequence[Any]) -> np.ndarray:
    """Group ids as a numpy array a combiner accepts (numbers stay numeric; anything else one object per id)."""
    if isinstance(groups, np.ndarray) and groups.dtype.kind in "iuU":
        return groups
    ids = [hashable_id(g) for g in groups]
    if ids and all(isinstance(g, (int, np.integer)) and not isinstance(g, bool) for g in ids):
        return np.asarray(ids, dtype=np.int64)
    array = np.empty(len(ids), dtype=object)
    array[:] = ids
    return array


def combine_scores(
    combiner: Any, scores: Any, groups: Sequence[Any], weights: Any = None, *, lengths: Sequence[float] | None = None,
    columns: Mapping[str, Sequence[Any]] | None = None,
) -> np.ndarray:
    """Advantages (N,) float64 from a combiner; NaN (a row where no reward applied) becomes 0, as in TRL and verl.

    A combiner whose ``combine`` takes ``lengths`` gets the token counts when given; one that declares
    ``row_columns`` (per-row metadata it reads, e.g. DRPO's domain label) gets each as a keyword argument read
    from ``columns`` through :func:`polyreward.combiner.row_arrays`.
    """
    matrix = np.asarray(scores, dtype=np.float64)
    extra: dict[str, Any] = {}
    if lengths is not None and "lengths" in inspect.signature(combiner.combine).parameters:
        extra["lengths"] = np.asarray(lengths, dtype=np.float64)
    if getattr(combiner, "row_columns", ()):
        from polyreward.combiner import row_arrays

        rows = row_arrays(combiner, columns if columns is not None else {})
        extra.update({name: np.asarray(list(values), dtype=object) for name, values in rows.items()})
    advantages = np.asarray(combiner.combine(matrix, group_ids(groups), weights, **extra), dtype=np.float64)
    if advantages.shape != (len(matrix),):
        raise ValueError(f"combiner {type(combiner).__name__} returned shape {advantages.shape}, expected ({len(matrix)},)")
    return np.nan_to_num(advantages, nan=0.0)
