"""The Reward protocol.

A reward is a callable with the TRL reward-function convention::

    reward(prompts=[...], completions=[...], **columns) -> list[float | None]

``None`` means "not applicable" (TRL turns it into NaN and leaves it out of the statistics). Every
reward has a unique ``name`` (TRL logs by ``__name__``), a ``weight``, declares the columns it reads
(``columns``) and, through :meth:`Reward.evaluate`, returns a :class:`RewardOutput` with one reason
per rollout and optional named sub-scores for reports.

Most rewards judge one rollout at a time: subclass :class:`RolloutReward` and implement
:meth:`RolloutReward.score_rollout`. An exception raised while scoring one rollout becomes a NaN score
with the error as its reason; it never kills the batch. The same holds for rewards that score a whole
batch at once: every subclass's ``evaluate`` is wrapped by :func:`isolate_rollouts`, which retries a
batch that raised one rollout (or, for a group-level reward, one group) at a time.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from polyreward.schema import as_column, completion_text
from polyreward.vocabulary import Exactness, failure_reason, group_key  # noqa: F401 -- re-exported: rewards import them from here


def column_name(key: str, value: Any) -> str:
    """``value`` when it is a usable column name (a non-empty string); a ValueError naming ``key`` otherwise."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} must be a non-empty column name, got {value!r}")
    return value


def one_of(key: str, value: Any, allowed: Sequence[str]) -> Any:
    """``value`` when it is one of ``allowed``; a ValueError naming ``key`` and the allowed values otherwise."""
    if value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(allowed)}, got {value!r}")
    return value


@dataclass
class RewardOutput:
    """Scores of one reward over a batch: ``None`` = not applicable, NaN = failed (see ``reasons``)."""

    scores: list[float | None]
    reasons: list[str]
    details: dict[str, list[float | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.reasons) != len(self.scores):
            raise ValueError("RewardOutput needs one reason per score")


@dataclass(frozen=True)
class Scored:
    """One rollout's result from :meth:`RolloutReward.score_rollout`."""

    score: float | None
    reason: str = ""
    details: Mapping[str, float | None] = field(default_factory=dict)


def isolate_rollouts(evaluate):
    """Wrap a reward's ``evaluate`` so that one bad rollout never fails the others of its batch.

    The batch is scored in one call as usual. If that call raises, the batch is scored again one unit at a
    time -- a rollout, or for a reward with :attr:`Reward.group_columns` all rollouts of one group -- and a
    unit that still raises scores NaN with :func:`failure_reason` for its rollouts only. A declared column
    that the batch lacks is a configuration error and is raised, not retried. A reward that fails on every
    rollout is called once per unit before it reports so.
    """

    @functools.wraps(evaluate)
    def isolated(self: Reward, prompts: Sequence[Any], completions: Sequence[Any], **columns: Any) -> RewardOutput:
        if any(c not in columns for c in self.columns):
            return evaluate(self, prompts, completions, **columns)  # the reward names the missing column
        try:
            return evaluate(self, prompts, completions, **columns)
        except Exception as exc:  # noqa: BLE001 -- whatever the rollout data made the reward raise
            batch_error = exc
        n = len(completions)
        units = _retry_units(self, columns, n)
        if len(units) <= 1:
            return RewardOutput([math.nan] * n, [failure_reason(batch_error)] * n)
        lists = column_lists(columns, n)
        scores: list[float | None] = [math.nan] * n
        reasons: list[str] = [""] * n
        details: dict[str, list[float | None]] = {}
        for unit in units:
            sub_columns = {k: ([lists[k][i] for i in unit] if k in lists else v) for k, v in columns.items()}
            sub_prompts = [prompts[i] if i < len(prompts) else None for i in unit]
            try:
                output = evaluate(self, sub_prompts, [completions[i] for i in unit], **sub_columns)
                if len(output.scores) != len(unit):
                    raise ValueError(f"returned {len(output.scores)} scores for {len(unit)} rollouts")
            except Exception as exc:  # noqa: BLE001
                for i in unit:
                    reasons[i] = failure_reason(exc)
                continue
            for j, i in enumerate(unit):
                scores[i], reasons[i] = output.scores[j], output.reasons[j]
            for key, values in output.details.items():
                column = details.setdefault(key, [None] * n)
                for j, i in enumerate(unit):
                    column[i] = values[j]
        return RewardOutput(scores, reasons, details)

    return isolated


def _retry_units(reward: Reward, columns: Mapping[str, Any], n: int) -> list[list[int]]:
    """Rollout indices scored together when a batch is retried: one group each for a group-level reward, else one rollout."""
    keys = [c for c in reward.group_columns if c in columns]
    if not keys:
        return [[i] for i in range(n)]
    lists = column_lists(columns, n)
    groups: dict[tuple[str, ...], list[int]] = {}
    for i in range(n):
        groups.setdefault(tuple(group_key(lists[k][i]) if k in lists else "" for k in keys), []).append(i)
    return list(groups.values())


class Reward:
    """Base class of every reward. Subclasses set the class attributes and implement :meth:`evaluate`.

    Class attributes:
        type_name: the registry key used in YAML configs (``type: math_accuracy``).
        exactness: ``"exact"`` when the formula follows the source's code/paper, ``"reconstructed"`` otherwise.
        description: one line for ``polyreward list``.
        score_range: (low, high) bounds every finite score stays within (the fuzz test holds every type to it).
        preload: modules the engine's worker processes import once at start-up for this reward (its verifier).

    Facts the shared tests and ``polyreward probe`` read, so a new type needs no edit elsewhere (docs/extending.md):
        probe_genuine: how the probe writes a correct answer for this reward (a key of ``polyreward.probe.strategies.GENUINE``).
        probe_strategies: the named hacks the probe tries on it (keys of ``polyreward.probe.strategies.STRATEGIES``).
        example_params: parameters that build a working instance when the defaults do not (the fuzz, pipeline and
            linear-time tests build every registered type with them).
        example_cells: realistic cells of each column the type reads that the shared tests do not already know
            (``{"gold_labels": ("a; b", "c")}``); the tests mix them with hostile values.
        optional_columns: columns read when the batch has them, besides the declared ``columns`` (the overlong
            penalty's ``completion_ids``).

    Cost:
        linear_time: True only for a type whose scoring costs time linear in the text it reads (forward literal
            searches, counts, regexes that cannot backtrack over the text more than a bounded number of times), with no
            model, network, subprocess or engine worker. The reward server scores a config made only of such rewards in
            its front process, without the slot process it could kill at the deadline, when asked to (``polyreward serve
            --front-lane``; docs/scaling-out.md). An instance narrows it in ``__init__``
            (``self.linear_time = False``) for a parameter that loads a model; ``tests/test_linear_time.py`` times every
            type declaring it on hostile 100 KB inputs, with its parameter variants.
    """

    type_name: ClassVar[str] = ""
    exactness: ClassVar[Exactness] = "exact"
    description: ClassVar[str] = ""
    score_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    preload: ClassVar[tuple[str, ...]] = ()
    probe_genuine: ClassVar[str | None] = None
    probe_strategies: ClassVar[tuple[str, ...]] = ()
    example_params: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    example_cells: ClassVar[Mapping[str, tuple[Any, ...]]] = MappingProxyType({})
    optional_columns: ClassVar[tuple[str, ...]] = ()
    linear_time: bool = False  # a class fact an instance may narrow (see the class docstring); not a ClassVar for that

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "evaluate" in cls.__dict__:
            cls.evaluate = isolate_rollouts(cls.__dict__["evaluate"])  # type: ignore[method-assign]

    def __init__(self, name: str | None = None, weight: float = 1.0) -> None:
        self.name = name or self.type_name or type(self).__name__
        if not isinstance(weight, (int, float)) or isinstance(weight, bool) or not math.isfinite(weight):
            raise ValueError(f"weight must be a finite number, got {weight!r}")
        self.weight = float(weight)

    # TRL logs reward functions by __name__; make every instance answer with its own name.
    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name

    @property
    def columns(self) -> tuple[str, ...]:
        """Dataset columns this reward reads besides prompt and completion."""
        return ()

    def state_dict(self) -> dict[str, Any]:
        """What the reward carries from batch to batch (e.g. OTC's running minimum), JSON-serialisable; empty for
        stateless rewards. The trainer checkpoints it so a resumed run continues exactly."""
        return {}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        if state:
            raise ValueError(f"reward {self.name!r} is stateless but got state keys {sorted(state)}")

    @property
    def group_columns(self) -> tuple[str, ...]:
        """Columns whose value groups rollouts this reward scores together (a group-level reward such as OTC's
        GRPO form needs every row of a group in one call); ``polyreward score`` keeps such groups in one chunk."""
        return ()

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        raise NotImplementedError

    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None, **kwargs: Any) -> list[float | None]:
        if completions is None:
            raise TypeError(f"reward {self.name!r} needs completions=")
        # the TRL boundary: numpy, pandas, pyarrow or torch columns arrive as Python lists, as from a Batch
        completions = as_column(completions, "completions")
        prompts = as_column(prompts, "prompts") if prompts is not None else [None] * len(completions)
        columns = column_lists(kwargs, len(completions))
        for name in self.columns:  # a column this reward reads, given with the wrong length: say so, not "no column"
            if name in kwargs and name not in columns and hasattr(kwargs[name], "__len__") and not isinstance(kwargs[name], (str, bytes)):
                raise ValueError(f"reward {self.name!r}: column {name!r} has {len(kwargs[name])} values for "
                                 f"{len(completions)} completions (one value per completion)")
        return self.evaluate(prompts, completions, **columns).scores

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, weight={self.weight})"


def column_lists(columns: Mapping[str, Any], n: int) -> dict[str, list[Any]]:
    """The keyword arguments that are columns of n values, as Python lists (numpy, pandas, pyarrow and torch
    columns of a direct call read like lists); others (TRL's ``trainer_state``, callbacks) are left out."""
    lists = {}
    for key, values in columns.items():
        try:
            column = as_column(values, key)
        except TypeError:
            continue
        if len(column) == n:
            lists[key] = column
    return lists


class RolloutReward(Reward):
    """A reward computed independently for each rollout.

    ``score_rollout`` gets the completion text and that rollout's row (prompt and every column,
    keyed by column name). Missing declared columns raise a clear error for the whole batch, since
    that is a configuration mistake, not a property of one rollout.
    """

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        raise NotImplementedError

    def text_of(self, completion: Any) -> str:
        """How this reward turns a completion into text (override to keep tool messages, etc.)."""
        return completion_text(completion)

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        missing = [c for c in self.columns if c not in columns]
        if missing:
            raise KeyError(
                f"reward {self.name!r} reads column(s) {missing} that the batch does not have; "
                f"available: {sorted(columns)}"
            )
        lists = column_lists(columns, len(completions))
        scores: list[float | None] = []
        reasons: list[str] = []
        details: dict[str, list[float | None]] = {}
        for i, completion in enumerate(completions):
            row = {k: v[i] for k, v in lists.items()}
            row["prompt"] = prompts[i] if i < len(prompts) else None
            try:
                result = self.score_rollout(self.text_of(completion), row)
            except Exception as exc:  # one bad rollout must not kill the batch
                result = Scored(math.nan, failure_reason(exc))
            scores.append(result.score)
            reasons.append(result.reason)
            for key, value in result.details.items():
                details.setdefault(key, [None] * len(completions))[i] = value
        return RewardOutput(scores, reasons, details)
