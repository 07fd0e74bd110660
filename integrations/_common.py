"""What the TRL and verl adapters share: turning "a config or some rewards" into objects.

One YAML file drives ``polyreward score``, TRL and verl. The adapters accept that file (a path or a
loaded :class:`~polyreward.config.Config`), a :class:`~polyreward.rewardset.RewardSet`, a list of
:class:`~polyreward.reward.Reward` objects or a single one, and a combiner given as a registry name, a
``{type: ..., **params}`` mapping, a :class:`~polyreward.combiner.Combiner` or the config's own.
Nothing here imports TRL or verl.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from polyreward.combiner import Combiner
from polyreward.config import Config, load_config, parse_config
from polyreward.reward import Reward
from polyreward.rewardset import RewardSet
from polyreward.schema import ColumnMap

ConfigLike = Config | str | os.PathLike | Mapping[str, Any]
RewardsLike = ConfigLike | RewardSet | Reward | Iterable[Reward]
CombinerLike = str | Mapping[str, Any] | Combiner | Config


def as_config(source: ConfigLike) -> Config:
    """A validated Config from a Config, a YAML path or a mapping (ConfigError on bad input)."""
    if isinstance(source, Config):
        return source
    if isinstance(source, (str, os.PathLike)):
        return load_config(source)
    if isinstance(source, Mapping):
        return parse_config(source)
    raise TypeError(f"expected a polyreward Config, a YAML path or a mapping, got {type(source).__name__}")


def as_reward_set(source: RewardsLike) -> tuple[RewardSet, ColumnMap]:
    """The rewards to score with and the column map that names the structural columns."""
    if isinstance(source, RewardSet):
        return source, ColumnMap()
    if isinstance(source, Reward):
        return RewardSet([source]), ColumnMap()
    if isinstance(source, (Config, str, os.PathLike, Mapping)):
        config = as_config(source)
        return config.build_rewards(), config.column_map
    rewards = list(source)
    if not all(isinstance(r, Reward) for r in rewards):
        bad = next(type(r).__name__ for r in rewards if not isinstance(r, Reward))
        raise TypeError(f"expected polyreward Reward objects, got a {bad}")
    return RewardSet(rewards), ColumnMap()


def as_combiner(spec: CombinerLike) -> Combiner:
    """A Combiner from a registry name, a ``{type: name, **params}`` mapping, an object or a config."""
    if isinstance(spec, Combiner):
        return spec
    if isinstance(spec, Config):
        combiner = spec.build_combiner()
        if combiner is None:
            raise ValueError("the config names no combiner; add `combiner: <type>` or pass one explicitly")
        return combiner
    if isinstance(spec, str):
        if spec.endswith((".yaml", ".yml")) or os.path.sep in spec:
            return as_combiner(load_config(spec))
        return _named(spec, {})
    if isinstance(spec, Mapping):
        params = dict(spec)
        if "type" not in params:
            raise ValueError(f"a combiner mapping needs a 'type' key, got keys {sorted(params)}")
        return _named(str(params.pop("type")), params)
    raise TypeError(f"expected a combiner name, mapping, Combiner or Config, got {type(spec).__name__}")


def _named(name: str, params: Mapping[str, Any]) -> Combiner:
    from polyreward import registry
    from polyreward.config import ConfigError

    cls = registry.combiner_class(name)
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"combiner ({name}): {exc}") from exc


class IsolatedBatch:
    """One reward evaluation shipped to an engine worker; hashed by identity (its lists are not hashable).

    It lives here, not in the TRL module, so a worker unpickling it imports no torch or TRL.
    """

    def __init__(self, reward: Reward, prompts: list, completions: list, columns: dict) -> None:
        self.reward, self.prompts, self.completions, self.columns = reward, prompts, completions, columns


def evaluate_isolated(batch: IsolatedBatch):
    """Engine worker entry point: run one reward on one batch (see :class:`IsolatedBatch`)."""
    return batch.reward.evaluate(batch.prompts, batch.completions, **batch.columns)


def finite_or_none(value: Any) -> float | None:
    """The float TRL should see: None for None/NaN/unparseable (not applicable or failed)."""
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


class CachedConfigs:
    """Built RewardSets per config file, rebuilt when the file changes; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, Config, RewardSet]] = {}

    def get(self, path: str | os.PathLike) -> tuple[Config, RewardSet]:
        resolved = str(Path(path).expanduser().resolve())
        try:
            mtime = os.stat(resolved).st_mtime
        except OSError as exc:
            raise FileNotFoundError(f"polyreward config {path} cannot be read: {exc.strerror or exc}") from None
        with self._lock:
            cached = self._cache.get(resolved)
            if cached is None or cached[0] != mtime:
                config = load_config(resolved)
                cached = self._cache[resolved] = (mtime, config, config.build_rewards())
            return cached[1], cached[2]
