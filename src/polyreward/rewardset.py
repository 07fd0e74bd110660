"""RewardSet: several named, weighted rewards with their ``when:`` rules.

The set is the rewards' part of the scoring contract; :class:`polyreward.pipeline.Scorer` holds it together with
the column names, the failure policy and the combiner, and is the one thing that scores it
(``Scorer(RewardSet([...])).score(batch)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from polyreward.reward import Reward
from polyreward.vocabulary import MissingColumnError, ScoredBatch, ScoreMatrix, weighted_total  # noqa: F401 -- re-exported


class RewardSet:
    """Scores a batch with several rewards; names must be unique (TRL logs by name)."""

    def __init__(self, rewards: Iterable[Reward], when: Mapping[str, Mapping[str, Sequence[Any]]] | None = None) -> None:
        """``when[name] = {column: accepted values}``: reward ``name`` scores only the rows whose every named column
        holds one of its values (compared as text, so ``3`` matches ``"3"`` of a CSV); the others get None,
        "not applicable". One config then serves a batch mixing data sources (``when: {source: medqa}``)."""
        self.rewards = list(rewards)
        if not self.rewards:
            raise ValueError("a RewardSet needs at least one reward")
        self.when = {name: {column: {str(v) for v in values} for column, values in rule.items()} for name, rule in (when or {}).items()}
        unknown = sorted(set(self.when) - {r.name for r in self.rewards})
        if unknown:
            raise ValueError(f"when: rules for {unknown}, which are not rewards of this set")
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
            seen.update(dict.fromkeys(self.when.get(reward.name, ())))
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

    def check_columns(self, columns: Iterable[str]) -> None:
        """A :class:`~polyreward.vocabulary.MissingColumnError` naming the first reward and column the batch lacks."""
        available = set(columns)
        for reward in self.rewards:
            for column in reward.columns:
                if column not in available:
                    raise MissingColumnError(reward.name, column, sorted(available))
            for column in self.when.get(reward.name, ()):
                if column not in available:
                    raise MissingColumnError(reward.name, column, sorted(available), hint=f"rewards {reward.name}: when")

    def applies(self, name: str, columns: Mapping[str, Sequence[Any]], n: int) -> np.ndarray | None:
        """(n,) bool: the rows reward ``name`` scores under its ``when`` rule; None when it has no rule (every row)."""
        rule = self.when.get(name)
        if not rule:
            return None
        mask = np.ones(n, dtype=bool)
        for column, accepted in rule.items():
            mask &= np.fromiter((v is not None and str(v) in accepted for v in columns[column]), dtype=bool, count=n)
        return mask

    @property
    def preload(self) -> tuple[str, ...]:
        """Modules the rewards' engine workers import once at start-up (:attr:`Reward.preload`)."""
        seen: dict[str, None] = {}
        for reward in self.rewards:
            seen.update(dict.fromkeys(getattr(reward, "preload", ())))
        return tuple(seen)

    def state_dict(self) -> dict[str, Any]:
        """Each stateful reward's :meth:`~polyreward.reward.Reward.state_dict`, by reward name (stateless ones left out)."""
        return {r.name: state for r in self.rewards if (state := r.state_dict())}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        unknown = sorted(set(state) - set(self.names))
        if unknown:
            raise ValueError(f"reward state for {unknown}, which this RewardSet does not have (rewards: {self.names})")
        for reward in self.rewards:
            reward.load_state_dict(state.get(reward.name, {}))

    def subset(self, names: Iterable[str]) -> RewardSet:
        """The named rewards, in the given order, with their ``when:`` rules (a KeyError names an unknown one)."""
        by_name = {r.name: r for r in self.rewards}
        names = list(names)
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise KeyError(f"no reward named {unknown[0]!r}; rewards: {self.names}")
        part = RewardSet([by_name[n] for n in names])
        part.when = {n: rule for n, rule in self.when.items() if n in names}
        return part
