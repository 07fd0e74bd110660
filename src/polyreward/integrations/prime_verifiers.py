"""PrimeIntellect ``verifiers`` 0.4 (``verifiers.v1``, what prime-rl trains on): a polyreward config as a Task's
rewards, and the config's combiner over the environment's rollout groups.

verifiers 0.4.0 ships no ``vf.Rubric``: its wheel holds only ``verifiers.v1``, where a rubric is the set of a
``Task``'s ``@vf.reward(weight=...)`` methods. ``Task.score(trace)`` (``verifiers/v1/task.py``) seeds every reward
name, invokes the methods concurrently with ``task`` and ``trace`` passed by parameter name
(``verifiers/v1/utils/decorators.py``: ``invoke``), records each result as ``trace.rewards[name] = Reward(score,
weight)``, and ``trace.reward`` is Σ score·weight (``verifiers/v1/trace.py``). The rollout calls it after the agent
ran (``verifiers/v1/rollout.py``) and ``vf-replay`` calls it offline on saved traces (``verifiers/v1/cli/replay.py``).

:func:`task_class` turns any polyreward config into such a Task: one ``@vf.reward`` method per reward, named after it,
with the config's weight, so ``trace.reward`` is the config's weighted total. ``Task.score`` is overridden only to
score the trace once through the config's :class:`~polyreward.pipeline.Scorer` (the ``polyreward score`` path: the
``when:`` rules, column names and ``on_reward_error``) before the reward methods read their cell. A reward that does
not apply records nothing (as the NaN of the score matrix adds nothing to the weighted total); a failed one is left
at ``None``, verifiers' "did not run", with its reason in ``trace.info["polyreward"]``; under
``on_reward_error: raise`` the failure is a ``vf.TaskError`` and the rollout errors.

What a reward reads: the prompt is the task's ``prompt``; the completion is the trace's messages from the first
model-sampled one on (the assistant turns and any tool results between them); the columns are the task data's own
fields beyond ``vf.TaskData``'s, with ``answer`` and ``info`` filled as a ground truth without column names is
everywhere (:func:`polyreward.schema.label_columns`: a mapping gives one column per key, anything else fills
``answer_column`` or ``info``).

Groups: verifiers scores one trace at a time; a trainer forms the groups. prime-rl hands each finished group to its
algorithm's ``score_group(episodes)`` and writes credit with ``assign_advantages(trace, value)``
(``prime_rl/orchestrator/algo/{base,grpo,routing}.py`` at prime-rl 559b447). :func:`group_advantages` is what such a
hook calls to apply the config's combiner: it reads the per-reward scores the Task recorded on the traces and returns
the combiner's advantage of each one, grouped by the episode's ``group.id`` (else the task's key).
"""

from __future__ import annotations

import asyncio
import contextvars
import math
import sys
import types
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

try:
    import verifiers.v1 as vf
    from verifiers.v1.errors import boundary
    from verifiers.v1.task import task_key
except ImportError as exc:  # not installed, or a 0.1-0.3 verifiers (no verifiers.v1)
    raise ImportError(
        f"polyreward.integrations.prime_verifiers needs verifiers 0.4 (import failed: {exc}); install it with the "
        "--no-deps line of docs/prime-verifiers.md (scripts/install_dev.sh step 3b) or `pip install verifiers==0.4.0`"
    ) from exc

from polyreward.integrations._common import ConfigLike, as_config
from polyreward.pipeline import Scorer, ScoredBatch
from polyreward.schema import Batch, label_columns, plain_value

INFO_KEY = "polyreward"
_TASK_DATA_FIELDS = frozenset(vf.TaskData.model_fields)
# (trace, its ScoredBatch) while Task.score runs the reward methods; asyncio.gather copies it into each method's task.
_SCORING: contextvars.ContextVar[tuple[Any, ScoredBatch] | None] = contextvars.ContextVar("polyreward_scoring", default=None)


class PolyrewardTaskData(vf.TaskData):
    """Task data with the columns of a classic verifiers dataset: ``answer`` and an ``info`` mapping."""

    answer: Any = None
    info: dict[str, Any] = {}


def as_scorer(source: Scorer | ConfigLike) -> Scorer:
    """A Scorer as given, or the one a config (object, YAML path or mapping) builds."""
    return source if isinstance(source, Scorer) else as_config(source).build_scorer()


def _message(message: Any) -> dict[str, Any]:
    return message.model_dump(mode="json", exclude_none=True) if hasattr(message, "model_dump") else dict(message)


def trace_completion(trace: vf.Trace) -> list[dict[str, Any]]:
    """What the model produced: the final branch's messages from the first sampled one on, as message dicts."""
    branches = trace.branches
    nodes = branches[-1].nodes if branches else []
    first = next((i for i, node in enumerate(nodes) if node.sampled), len(nodes))
    return [_message(node.message) for node in nodes[first:]]


def task_columns(data: vf.TaskData, answer_column: str = "answer") -> dict[str, Any]:
    """The columns a task's data gives its rewards: its own fields beyond ``vf.TaskData``'s (and any extra ones of a
    wire row), ``answer`` and ``info`` expanded by :func:`~polyreward.schema.label_columns`."""
    values = {name: getattr(data, name) for name in type(data).model_fields if name not in _TASK_DATA_FIELDS}
    values.update(data.model_extra or {})
    columns: dict[str, Any] = {}
    for name, value in values.items():
        value = plain_value(value.model_dump(mode="json") if hasattr(value, "model_dump") else value)
        if name == "answer":
            columns.update(label_columns(value, answer_column))
        elif name == "info":
            columns.update(label_columns(value, "info"))
        else:
            columns[name] = value
    return columns


def trace_batch(data: vf.TaskData, trace: vf.Trace, answer_column: str = "answer") -> Batch:
    """The one-row polyreward batch of a trace of the task with ``data``."""
    prompt = data.prompt if data.prompt is None or isinstance(data.prompt, str) else [_message(m) for m in data.prompt]
    columns = {name: [value] for name, value in task_columns(data, answer_column).items()}
    return Batch([prompt], [trace_completion(trace)], columns)


def _score_trace(scorer: Scorer, data: vf.TaskData, trace: vf.Trace, answer_column: str) -> ScoredBatch:
    return scorer.score(trace_batch(data, trace, answer_column), combine=False)


def _reward_method(index: int, name: str, weight: float):
    async def reward(self: vf.Task, trace: vf.Trace) -> float | dict:
        current = _SCORING.get()
        if current is not None and current[0] is trace:
            scored = current[1]
        else:  # called outside Task.score: score the trace here
            scored = await asyncio.to_thread(_score_trace, self.scorer, self.data, trace, self.answer_column)
        value = float(scored.scores[0, index])
        return {} if math.isnan(value) else value  # an empty mapping records nothing: "does not apply"

    reward.__name__ = reward.__qualname__ = name
    reward.__doc__ = f"polyreward reward {name!r} (weight {weight:g})."
    return vf.reward(reward, weight=weight)


async def _score(self: vf.Task, trace: vf.Trace, runtime: Any = None) -> None:
    """Score the trace once with the polyreward config, then run ``vf.Task.score`` (the reward methods read it)."""
    if self.scoring_deferred:
        return await super(self._polyreward_class, self).score(trace, runtime)
    async with boundary(vf.TaskError, f"task {type(self).__name__} polyreward scoring"):
        scored = await asyncio.to_thread(_score_trace, self.scorer, self.data, trace, self.answer_column)
    token = _SCORING.set((trace, scored))
    try:
        await super(self._polyreward_class, self).score(trace, runtime)
    finally:
        _SCORING.reset(token)
    failed = [name for k, name in enumerate(scored.names) if scored.failed[0, k]]
    for name in failed:
        trace.rewards[name] = None  # verifiers' "did not run"; trace.reward skips it
    reasons = {name: scored.reasons[name][0] for name in scored.names if scored.reasons[name][0]}
    trace.info[INFO_KEY] = {"reasons": reasons, "failed": failed}


def task_class(config: Scorer | ConfigLike, base: type[vf.Task] = vf.Task, *, answer_column: str = "answer",
               name: str = "PolyrewardTask") -> type[vf.Task]:
    """A ``vf.Task`` subclass of ``base`` whose ``@vf.reward`` methods are the config's rewards, with its weights.

    ``base`` may be a task class of one's own (its own rewards and metrics still run, and its data type is kept);
    with ``vf.Task`` the data type is :class:`PolyrewardTaskData`. ``answer_column`` names the column the task's
    ``answer`` fills (the ``answer_column`` of most rewards). A reward whose name is already an attribute of
    ``base`` (``score``, ``data``, ...) is refused: the method would replace it.
    """
    scorer = as_scorer(config)
    if base is vf.Task:
        base = vf.Task[PolyrewardTaskData]
    clashes = [reward.name for reward in scorer.rewards if hasattr(base, reward.name)]
    if clashes:
        raise ValueError(f"polyreward reward name(s) {clashes} are attributes of {base.__name__}; rename the reward(s)")
    namespace: dict[str, Any] = {
        "scorer": scorer,
        "answer_column": answer_column,
        "score": _score,
        "__doc__": f"A verifiers Task scored by the polyreward rewards {scorer.names}.",
        "__module__": sys._getframe(1).f_globals.get("__name__", __name__),  # the caller's module, as namedtuple does
    }
    for index, (reward_name, weight) in enumerate(zip(scorer.names, scorer.weights.tolist())):
        namespace[reward_name] = _reward_method(index, reward_name, float(weight))
    cls = types.new_class(name, (base,), exec_body=lambda ns: ns.update(namespace))  # base may be Task[Data]
    cls._polyreward_class = cls
    return cls


def trace_scores(traces: Sequence[vf.Trace], names: Sequence[str]) -> np.ndarray:
    """(N, K) per-reward scores recorded on the traces; NaN where a reward did not apply, failed or did not run."""
    scores = np.full((len(traces), len(names)), np.nan)
    for i, trace in enumerate(traces):
        for k, name in enumerate(names):
            reward = trace.rewards.get(name)
            if reward is not None:
                scores[i, k] = reward.score
    return scores


def _task_identity(trace: vf.Trace) -> str:
    """The task's key as the trace records it, else its content hash (``Task.hash``)."""
    return trace.task.key or task_key(trace.task.data.model_dump(mode="json", exclude_none=True))


def group_advantages(config: Scorer | ConfigLike, episodes: Iterable[vf.Episode], *,
                     answer_column: str = "answer") -> list[tuple[vf.Trace, float]]:
    """The config combiner's advantage of each scored trace of ``episodes`` (a prime-rl ``score_group`` cohort).

    Traces that errored (their rewards did not run) or are not trainable (another agent's, e.g. a judge's) are left
    out, as prime-rl's ``iter_trainable_traces`` leaves them out of its GRPO. The scores are the ones the Task
    recorded (``trace.rewards``, by reward name); the groups are each episode's ``group.id``, else its task's key (or
    content hash); the combiner's per-row columns come from the task data (:func:`task_columns`) and token lengths
    from the traces when every one has them.
    """
    scorer = as_scorer(config)
    pairs = [(episode, trace) for episode in episodes for trace in episode.traces
             if not trace.has_error and trace.agent.trainable]
    if not pairs:
        return []
    traces = [trace for _, trace in pairs]
    groups = [episode.group.id if episode.group is not None else _task_identity(trace) for episode, trace in pairs]
    rows = [task_columns(trace.task.data, answer_column) for trace in traces]
    columns = {key: [row.get(key) for row in rows] for key in dict.fromkeys(k for row in rows for k in row)}
    lengths = [trace.num_output_tokens for trace in traces]
    advantages = scorer.advantages(trace_scores(traces, scorer.names), groups, columns=columns,
                                   lengths=lengths if all(lengths) else None)
    return list(zip(traces, np.asarray(advantages, dtype=np.float64).tolist()))


__all__ = ["PolyrewardTaskData", "task_class", "group_advantages", "trace_batch", "trace_completion", "task_columns",
           "trace_scores", "as_scorer"]
