"""RewardSet: several named, weighted rewards scored into an (N, K) matrix."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyreward.reward import Reward, RewardOutput


@dataclass
class ScoreMatrix:
    """Scores of K rewards over N rollouts.

    ``scores[i, k]`` is NaN where reward k does not apply to rollout i or failed on it;
    ``reasons[name][i]`` says why. ``details[name][sub]`` holds named sub-scores.
    """

    names: list[str]
    weights: np.ndarray
    scores: np.ndarray
    reasons: dict[str, list[str]]
    details: dict[str, dict[str, list[float | None]]] = field(default_factory=dict)

    @property
    def total(self) -> np.ndarray:
        """Weighted sum per rollout over the rewards that apply (TRL's nansum); NaN if none applies."""
        weighted = self.scores * self.weights
        total = np.nansum(weighted, axis=1)
        total[np.all(np.isnan(self.scores), axis=1)] = np.nan
        return total

    def column(self, name: str) -> np.ndarray:
        return self.scores[:, self.names.index(name)]


def _as_float(value: Any) -> float:
    if value is None:
        return math.nan
    try:
        result = float(value)
    except (TypeError, ValueError):
        return math.nan
    return result


class RewardSet:
    """Scores a batch with several rewards; names must be unique (TRL logs by name)."""

    def __init__(self, rewards: Iterable[Reward]) -> None:
        self.rewards = list(rewards)
        if not self.rewards:
            raise ValueError("a RewardSet needs at least one reward")
        names = [r.name for r in self.rewards]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"reward names must be unique; repeated: {duplicates}")

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.rewards]

    @property
    def weights(self) -> np.ndarray:
        return np.array([r.weight for r in self.rewards], dtype=np.float64)

    @property
    def columns(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for reward in self.rewards:
            seen.update(dict.fromkeys(reward.columns))
        return tuple(seen)

    @property
    def group_columns(self) -> tuple[str, ...]:
        """The group columns of the group-level rewards (see :attr:`Reward.group_columns`), in order."""
        seen: dict[str, None] = {}
        for reward in self.rewards:
            seen.update(dict.fromkeys(getattr(reward, "group_columns", ())))
        return tuple(seen)

    def __len__(self) -> int:
        return len(self.rewards)

    def __iter__(self):
        return iter(self.rewards)

    def score(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> ScoreMatrix:
        """Run every reward; a reward that raises for the whole batch gets NaN with its error as reason."""
        n = len(completions)
        matrix = np.full((n, len(self.rewards)), np.nan, dtype=np.float64)
        reasons: dict[str, list[str]] = {}
        details: dict[str, dict[str, list[float | None]]] = {}
        for k, reward in enumerate(self.rewards):
            try:
                output = reward.evaluate(prompts, completions, **columns)
                if len(output.scores) != n:
                    raise ValueError(f"returned {len(output.scores)} scores for {n} rollouts")
            except KeyError as exc:  # a missing column is a configuration error: say so loudly
                raise KeyError(exc.args[0] if exc.args else str(exc)) from exc
            except Exception as exc:
                message = f"error: {type(exc).__name__}: {exc}"[:500]
                output = RewardOutput([math.nan] * n, [message] * n)
            matrix[:, k] = [_as_float(s) for s in output.scores]
            reasons[reward.name] = list(output.reasons)
            if output.details:
                details[reward.name] = output.details
        return ScoreMatrix(self.names, self.weights, matrix, reasons, details)
