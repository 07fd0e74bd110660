"""What the TRL and verl adapters share: turning "a config or some rewards" into the one scorer.

One YAML file drives ``polyreward score``, TRL and verl. The adapters accept that file (a path or a
loaded :class:`~polyreward.config.Config`), a :class:`~polyreward.pipeline.Scorer`, a
:class:`~polyreward.rewardset.RewardSet`, a list of :class:`~polyreward.reward.Reward` objects or a single one
(:func:`as_scorer`), and a combiner given as a registry name, a ``{type: ..., **params}`` mapping, a
:class:`~polyreward.combiner.Combiner` or the config's own. Scoring itself is the scorer's, as everywhere:
nothing here decides a rule of the contract. Nothing here imports TRL or verl.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from polyreward.combiner import Combiner
from polyreward.config import Config, build_combiner, load_config, parse_config
from polyreward.pipeline import Scorer
from polyreward.reward import Reward, RewardOutput
from polyreward.rewardset import RewardSet
from polyreward.schema import as_column

ConfigLike = Config | str | os.PathLike | Mapping[str, Any]
RewardsLike = ConfigLike | Scorer | RewardSet | Reward | Iterable[Reward]
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


def as_scorer(source: RewardsLike, on_reward_error: str | None = None) -> Scorer:
    """The scorer to score with: a config's (rewards with ``when:``, columns, policy, combiner), a Scorer itself, or
    given rewards with the default columns and policy. ``on_reward_error`` overrides the policy when given."""
    if isinstance(source, Scorer):
        scorer = source
    elif isinstance(source, RewardSet):
        scorer = Scorer(source)
    elif isinstance(source, Reward):
        scorer = Scorer(RewardSet([source]))
    elif isinstance(source, (Config, str, os.PathLike, Mapping)):
        scorer = as_config(source).build_scorer()
    else:
        rewards = list(source)
        if not all(isinstance(r, Reward) for r in rewards):
            bad = next(type(r).__name__ for r in rewards if not isinstance(r, Reward))
            raise TypeError(f"expected polyreward Reward objects, got a {bad}")
        scorer = Scorer(RewardSet(rewards))
    return scorer.with_policy(on_reward_error)


def as_combiner(spec: CombinerLike) -> Combiner:
    """A Combiner from a registry name, a ``{type: name, **params}`` mapping, an object, a config or a YAML path."""
    if isinstance(spec, Config):
        combiner = spec.build_combiner()
        if combiner is None:
            raise ValueError("the config names no combiner; add `combiner: <type>` or pass one explicitly")
        return combiner
    if isinstance(spec, str) and (spec.endswith((".yaml", ".yml")) or os.path.sep in spec):
        return as_combiner(load_config(spec))
    return build_combiner(spec)


def column_values(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments that are columns (sequences, arrays, tensors); scalars and callables are left out."""
    out = {}
    for key, value in kwargs.items():
        try:
            as_column(value, key)
        except TypeError:
            continue
        out[key] = value
    return out


class IsolatedBatch:
    """One reward evaluation shipped to an engine worker; hashed by identity (its lists are not hashable).

    It lives here, not in the TRL module, so a worker unpickling it imports no torch or TRL.
    """

    def __init__(self, reward: Reward, prompts: list, completions: list, columns: dict) -> None:
        self.reward, self.prompts, self.completions, self.columns = reward, prompts, completions, columns


def evaluate_isolated(batch: IsolatedBatch):
    """Engine worker entry point: run one reward on one batch (see :class:`IsolatedBatch`)."""
    return batch.reward.evaluate(batch.prompts, batch.completions, **batch.columns)


class IsolatedReward(Reward):
    """Another reward run in an engine worker process that is killed past ``timeout`` seconds (a hang cannot stall
    training): the whole batch is one item of an :class:`~polyreward.engine.Engine` with that budget. A timeout or a
    dead worker fails every rollout of the batch with the reason, which :func:`~polyreward.pipeline.score_batch`
    treats like any other failure."""

    def __init__(self, reward: Reward, timeout: float) -> None:
        from polyreward.engine import Engine

        super().__init__(reward.name, reward.weight)
        self.reward, self.engine = reward, Engine(timeout=timeout)

    @property
    def columns(self) -> tuple[str, ...]:
        return self.reward.columns

    @property
    def group_columns(self) -> tuple[str, ...]:
        return self.reward.group_columns

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        job = (IsolatedBatch(self.reward, list(prompts), list(completions), dict(columns)),)
        outcome = self.engine.map(evaluate_isolated, [job])[0]
        if outcome.ok:
            return outcome.value
        message = f"timeout after {self.engine.timeout:g} s" if outcome.timed_out else f"error: {outcome.error}"
        return RewardOutput([math.nan] * len(completions), [message] * len(completions))


def finite_or_none(value: Any) -> float | None:
    """The float TRL should see: None for None/NaN/unparseable (not applicable or failed)."""
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


class CachedScorers:
    """The scorer of each config file, rebuilt when the file changes; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, Config, Scorer]] = {}

    def get(self, path: str | os.PathLike) -> tuple[Config, Scorer]:
        resolved = str(Path(path).expanduser().resolve())
        try:
            mtime = os.stat(resolved).st_mtime
        except OSError as exc:
            raise FileNotFoundError(f"polyreward config {path} cannot be read: {exc.strerror or exc}") from None
        with self._lock:
            cached = self._cache.get(resolved)
            if cached is None or cached[0] != mtime:
                config = load_config(resolved)
                cached = self._cache[resolved] = (mtime, config, config.build_scorer())
            return cached[1], cached[2]
