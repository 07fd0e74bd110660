"""The one scoring contract: a :class:`Scorer` built from the config, a :class:`~polyreward.schema.Batch` in, a
:class:`ScoredBatch` out.

The scorer owns every rule of the contract, so no entry point re-decides one:

- the rewards and their ``when:`` rules (which rewards apply to which rows), held by a
  :class:`~polyreward.rewardset.RewardSet`;
- the column names (``columns:``: prompt, completion, group, and where a combiner's per-row columns live);
- the failure policy (``on_reward_error``);
- group identity (:func:`polyreward.vocabulary.group_key`: ``1``, ``1.0`` and ``"1"`` are one group) and, for an
  entry point without a group column, what names a group (the prompt's text: :meth:`Scorer.groups`, the same
  question in every step, as a combiner that remembers questions across steps needs);
- the combiner and the per-row data it reads (token lengths, DRPO's domain column).

Every entry point — ``polyreward score``, ``score_dataset``, the Ray actors, the reward server, the TRL and verl
adapters, the bundled trainer, :func:`polyreward.combiners.advantages` — turns its native batch into a ``Batch``
and calls :meth:`Scorer.score` (or, with scores already made, :meth:`Scorer.advantages`)::

    scorer = load_scorer("polyreward.yaml")            # polyreward.config.load_scorer, or Config.build_scorer()
    scored = scorer.score(Batch(prompts, completions, {"answer": answers}, groups=prompt_ids))
    scored.scores      # (N, K) float64, NaN = not applicable or failed
    scored.failed      # (N, K) bool: the rollouts each reward failed on; scored.failures counts them
    scored.advantages  # (N,) float64 (with a combiner), 0 where no reward applied

Failure policy: a reward that raises — for one rollout or for the whole batch, whatever the exception — or returns
a non-finite or non-numeric score has *failed* on those rollouts. ``"nan"`` (the default) scores them NaN with the
error as reason (:func:`~polyreward.vocabulary.failure_reason`) and counts them; the batch goes on. ``"raise"``
stops with a :class:`~polyreward.vocabulary.RewardError` naming the reward, the count and the first reason. None
from a reward means "not applicable": NaN in the matrix, never a failure. Before any reward runs, every column a
reward declares (and every column a ``when:`` rule reads) must be in the batch, else a one-line
:class:`~polyreward.vocabulary.MissingColumnError`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from polyreward.combiner import combine_scores
from polyreward.reward import RewardOutput
from polyreward.schema import Batch, ColumnMap, is_missing, prompt_text, redact_credentials
from polyreward.vocabulary import (  # noqa: F401 -- the vocabulary, re-exported for this module's users
    NOT_APPLICABLE,
    ON_REWARD_ERROR,
    MissingColumnError,
    OnRewardError,
    RewardError,
    ScoredBatch,
    ScoreMatrix,
    check_policy,
    failure_reason,
    group_ids,
    group_key,
)


@dataclass(frozen=True)
class Scorer:
    """The owner of the scoring contract (see the module docstring); built by
    :meth:`polyreward.config.Config.build_scorer` or :func:`polyreward.config.load_scorer`.

    ``rewards`` is a :class:`~polyreward.rewardset.RewardSet` (rewards, weights, ``when:`` rules); ``columns`` the
    structural column names; ``on_reward_error`` the failure policy; ``combiner`` the advantage combiner or None.
    """

    rewards: Any
    columns: ColumnMap = ColumnMap()
    on_reward_error: str = "nan"
    combiner: Any = None

    def __post_init__(self) -> None:
        check_policy(self.on_reward_error)

    @property
    def names(self) -> list[str]:
        return self.rewards.names

    @property
    def weights(self) -> np.ndarray:
        return self.rewards.weights

    def subset(self, names: Iterable[str]) -> Scorer:
        """The same contract (``when:`` rules, columns, policy, combiner) for the named rewards only, in their order."""
        return replace(self, rewards=self.rewards.subset(names))

    def with_policy(self, on_reward_error: str | None) -> Scorer:
        """This scorer under another failure policy (a command-line override); itself when None."""
        return self if on_reward_error is None or on_reward_error == self.on_reward_error else replace(self, on_reward_error=on_reward_error)

    def with_combiner(self, combiner: Any) -> Scorer:
        return replace(self, combiner=combiner)

    # -- the columns and groups of the contract --------------------------------------------------------------------
    def required_columns(self, *, combine: bool = True) -> tuple[str, ...]:
        """The data columns scoring reads besides prompt and completion: every reward's and ``when:`` rule's, and with a
        combiner the group column and its per-row columns."""
        seen = dict.fromkeys(self.rewards.columns)
        if combine and self.combiner is not None:
            seen.update(dict.fromkeys((self.columns.group, *self.combiner.data_columns())))
        return tuple(seen)

    def check_columns(self, columns: Iterable[str] | Mapping[str, Sequence[Any]], *, combine: bool = True) -> None:
        """A :class:`~polyreward.vocabulary.MissingColumnError` for the first column the data lacks (rewards first).

        Given the data itself (``{column: values}``), a reward whose ``when:`` rule routes every row away needs
        none of its own columns (only the rule's): a row scored alone (verl ``compute_score``, one OpenRLHF sample)
        is then checked as the same row inside a file is. Given only names, every reward's columns are needed."""
        available = set(columns)
        if isinstance(columns, Mapping):
            self._check_routed(columns, len(next(iter(columns.values()), ())))
        else:
            self.rewards.check_columns(available)
        if combine and self.combiner is not None:
            name = self.combiner.type_name or type(self.combiner).__name__
            for column in (self.columns.group, *self.combiner.data_columns()):
                if column not in available:
                    raise MissingColumnError(name, column, sorted(available), hint="config columns", kind="combiner")

    def _check_routed(self, columns: Mapping[str, Sequence[Any]], n: int) -> None:
        available = set(columns)
        rewards = self.rewards
        for reward in rewards:
            for column in rewards.when.get(reward.name, ()):  # the rule's own columns decide where the reward applies
                if column not in available:
                    raise MissingColumnError(reward.name, column, sorted(available), hint=f"rewards {reward.name}: when")
            rows = rewards.applies(reward.name, columns, n) if n else None
            if rows is not None and not rows.any():
                continue  # routed away from every row: it reads none of them (scored not applicable)
            for column in reward.columns:
                if column not in available:
                    raise MissingColumnError(reward.name, column, sorted(available))

    def batch(self, records: Sequence[Mapping[str, Any]]) -> Batch:
        """A batch from row dicts, read through the configured column names."""
        return Batch.from_records(records, self.columns, require=self.rewards.columns)

    def groups(self, prompts: Sequence[Any], columns: Mapping[str, Sequence[Any]]) -> list[Any]:
        """The group id of each row where the entry point has no batch groups of its own (TRL, a server request): the
        configured group column when the data has it, else the prompt's text, so the G rollouts of a prompt are one
        group and the same question keeps its id from step to step."""
        if self.columns.group in columns:
            return list(columns[self.columns.group])
        return [prompt_text(p) for p in prompts]

    # -- scoring ---------------------------------------------------------------------------------------------------
    def score(self, batch: Batch, *, combine: bool = True, lengths: Sequence[float] | None = None,
              diagnostics: bool = False) -> ScoredBatch:
        """Score ``batch`` with every reward and, with a combiner (and ``combine``), the advantages over ``batch.groups``.

        ``lengths`` (N response token counts) are the per-row token lengths when the entry point knows them; else
        they come from a ``completion_ids`` column (:func:`polyreward.combiner.token_lengths`). Raises
        MissingColumnError before scoring and RewardError under ``on_reward_error="raise"``.
        """
        combining = combine and self.combiner is not None
        self._check_routed(batch.columns, len(batch))
        if combining and batch.groups is None:
            raise ValueError("a combiner needs the batch's group ids (Batch(groups=...), the columns.group column of a file)")
        scored = _score_rewards(batch, self.rewards, self.on_reward_error)
        if combining:
            scored.advantages = self.advantages(scored.scores, batch.groups, columns=batch.columns, lengths=lengths)
            if diagnostics:
                from polyreward.combiners.diagnostics import diagnose

                summary = diagnose(scored.scores, group_ids(batch.groups), scored.advantages, scored.weights, names=scored.names).summary
                scored.diagnostics = {key: float(value) for key, value in summary.items()}
        return scored

    def advantages(self, scores: Any, groups: Sequence[Any], *, columns: Mapping[str, Sequence[Any]] | None = None,
                   lengths: Sequence[float] | None = None, weights: Any = None) -> np.ndarray:
        """The combiner's advantages (N,) for scores (N, K) already made, with the contract's per-row data: token lengths
        (``lengths``, else ``columns["completion_ids"]``) and the combiner's per-row columns read from ``columns``.
        ``weights`` default to the rewards' (an entry point that multiplies them in another precision passes its own)."""
        if self.combiner is None:
            raise ValueError("this scorer has no combiner; add `combiner: <type>` to the config")
        columns = columns if columns is not None else {}
        integer_codes = isinstance(groups, np.ndarray) and groups.dtype.kind in "iu"  # a part store's codes: none is empty
        empty = None if integer_codes else next((i for i, g in enumerate(groups) if is_missing(g)), None)
        if empty is not None:  # pooling every such row into one group would be silent and wrong
            raise ValueError(f"row {empty + 1} has an empty group id (null or NaN); give every row its group "
                             f"(column {self.columns.group!r}), or leave the column out to group rows by prompt")
        return combine_scores(self.combiner, scores, groups, self.weights if weights is None else weights,
                              lengths=lengths, columns=columns)


# -- the scoring loop ------------------------------------------------------------------------------------------------


def _score_value(raw: Any) -> tuple[float, str | None]:
    """(score, failure) of one raw reward output: None -> (NaN, None); a finite number -> (x, None); else a failure."""
    if raw is None:
        return math.nan, None
    if isinstance(raw, (bool, int, float, np.integer, np.floating)):
        value = float(raw)
        return (value, None) if math.isfinite(value) else (math.nan, "error: non-finite score")
    return math.nan, f"error: non-numeric score {str(raw)[:80]!r}"


def _checked_scores(raws: Sequence[Any], matrix: np.ndarray, k: int) -> Iterator[tuple[int, Any, float, str | None]]:
    """Put each raw score's value (:func:`_score_value`) in column ``k`` of ``matrix``; yield ``(i, raw, value,
    failure)`` for the rows that may have failed. When every raw score is a plain float (the common case) the column
    is written in one step and only the non-finite ones are yielded: the others are finite floats that cannot fail."""
    if all(type(raw) is float for raw in raws):
        column = np.array(raws, dtype=np.float64)
        matrix[:, k] = column
        for i in np.flatnonzero(~np.isfinite(column)).tolist():
            matrix[i, k] = math.nan
            yield i, raws[i], math.nan, "error: non-finite score"
        return
    for i, raw in enumerate(raws):
        value, failure = _score_value(raw)
        matrix[i, k] = value
        yield i, raw, value, failure


FAILURE_PREFIXES = ("error:", "timeout", "input:")
MISSING_COMPLETION = "input: the completion is missing (null)"


def _failure_text(own: str, failure: str | None) -> str:
    """The reason of a failed cell: the reward's own when it already names a failure (``error: ...``, ``timeout ...``,
    ``input: ...``), else the documented ``error: ...`` line with the reward's own words kept in brackets (a reward
    that returns NaN with an ordinary reason has failed, and its reason must say so)."""
    if own.startswith(FAILURE_PREFIXES):
        return own
    base = failure or "error: non-finite score"
    return f"{base} ({own[:200]})" if own else base


def _evaluate(reward: Any, batch: Batch, policy: str) -> RewardOutput:
    n = len(batch)
    try:
        output = reward.evaluate(batch.prompts, batch.completions, **batch.columns)
        if len(output.scores) != n:
            raise ValueError(f"returned {len(output.scores)} scores for {n} rollouts")
        return output
    except Exception as exc:  # MemoryError and RecursionError are Exceptions too: one policy for all of them
        reason = redact_credentials(failure_reason(exc))
        if policy == "raise":
            raise RewardError(reward.name, n, n, reason) from exc
        return RewardOutput([math.nan] * n, [reason] * n)


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


def _score_rewards(batch: Batch, reward_set: Any, policy: str) -> ScoredBatch:
    n = len(batch)
    matrix = np.full((n, len(reward_set)), np.nan, dtype=np.float64)
    failed_mask = np.zeros((n, len(reward_set)), dtype=bool)
    reasons: dict[str, list[str]] = {}
    details: dict[str, dict[str, list[Any]]] = {}
    failures: dict[str, int] = {}
    first_failure: dict[str, str] = {}
    seconds: dict[str, float] = {}
    # a row without a completion (null / NaN) is no answer to score: it fails for every reward that applies to it
    absent = np.zeros(n, dtype=bool)
    absent[[i for i, c in enumerate(batch.completions) if type(c) is not str and is_missing(c)]] = True
    for k, reward in enumerate(reward_set):
        started = time.perf_counter()
        rows = reward_set.applies(reward.name, batch.columns, n)
        failing = absent if rows is None else absent & rows
        if failing.any():
            rows = ~failing if rows is None else rows & ~failing
        output = _evaluate_where(reward, batch, policy, rows)
        if failing.any():
            reasons_k = list(output.reasons)
            scores_k = list(output.scores)
            for i in np.flatnonzero(failing).tolist():
                scores_k[i], reasons_k[i] = math.nan, MISSING_COMPLETION
            output = RewardOutput(scores_k, reasons_k, output.details)
        seconds[reward.name] = time.perf_counter() - started
        # (a str without "@" holds no credentials: redact_credentials would return it as it is)
        why = [r if type(r) is str and "@" not in r else redact_credentials(str(r)) if r is not None else "" for r in output.reasons]
        failed = 0
        for i, raw, value, failure in _checked_scores(output.scores, matrix, k):
            if failure is not None or (raw is not None and math.isnan(value)):
                failed += 1
                failed_mask[i, k] = True
                why[i] = _failure_text(why[i], failure)
                first_failure.setdefault(reward.name, why[i])
        if failed and policy == "raise":
            raise RewardError(reward.name, failed, n, first_failure[reward.name])
        failures[reward.name] = failed
        reasons[reward.name] = why
        if output.details:
            details[reward.name] = output.details
    return ScoredBatch(reward_set.names, reward_set.weights, matrix, reasons, details, failures, first_failure, failed_mask,
                       seconds=seconds)

