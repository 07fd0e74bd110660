"""TRL 1.16 adapter: polyreward rewards as TRL reward functions, any combiner inside ``GRPOTrainer``.

Two pieces (docs/reference/integrations.md#trl):

* :func:`reward_funcs` turns a config (or rewards) into one TRL reward function per reward. TRL calls
  each as ``f(prompts=..., completions=..., completion_ids=..., trainer_state=..., log_extra=...,
  log_metric=..., **dataset_columns)`` on the local slice of a generation batch and logs it under
  ``rewards/<__name__>/mean``. ``None`` = not applicable (TRL makes it NaN and leaves it out).
  :func:`reward_weights` gives the matching ``GRPOConfig.reward_weights``.
  :func:`async_reward_funcs` gives the same functions with ``async def __call__``, which TRL awaits
  together (slow judges overlap instead of running one after another).
* :class:`PolyGRPOTrainer` is a ``GRPOTrainer`` whose advantages come from a polyreward combiner
  (TRL has no advantage hook; the maintainers' advice, trl#4525, is to override
  ``_generate_and_score_completions``). The combiner sees the reward matrix gathered over every
  process, then each process keeps its own slice, exactly like TRL's built-in aggregation.

Failure semantics: each call scores its batch through the config's :class:`~polyreward.pipeline.Scorer` (its
one-reward subset: the reward's ``when:`` rule, the column names, the policy), so a reward that raises (any
exception), returns a non-finite score or whose isolated run passes ``timeout`` has failed on those rollouts
exactly as in ``polyreward score``. Under ``on_reward_error="nan"`` (the
default, or the config's ``on_reward_error``) they score ``None`` (``on_error="none"``: they leave that
reward's statistics) or ``0.0`` (``on_error="zero"``), the reason goes to the completions table
(``log_extra``) and the failure fraction to ``rewards/<name>/failed_frac`` (``log_metric``); the step goes
on. Under ``"raise"`` the step stops with a :class:`~polyreward.pipeline.RewardError`.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import math
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import torch
from trl import GRPOTrainer

from polyreward.integrations._common import (
    CombinerLike,
    IsolatedReward,
    RewardsLike,
    as_combiner,
    as_config,
    as_scorer,
    column_values,
    finite_or_none,
)
from polyreward.pipeline import MissingColumnError, OnRewardError, Scorer, group_ids
from polyreward.reward import Reward
from polyreward.rewardset import RewardSet
from polyreward.schema import Batch, ColumnMap

logger = logging.getLogger(__name__)

OnError = Literal["none", "zero"]
# Keyword arguments TRL adds to every call that are not dataset columns.
_TRL_CONTEXT = ("trainer_state", "log_extra", "log_metric", "environments")


class TRLRewardFunction:
    """One reward of a :class:`~polyreward.pipeline.Scorer` as a TRL reward function.

    A small picklable class (TRL's async path and AsyncGRPOTrainer ship reward functions to other
    processes), named after the reward so TRL logs it as ``rewards/<name>/mean``. It scores through the
    scorer's one-reward :meth:`~polyreward.pipeline.Scorer.subset`, so the reward's ``when:`` rule, the column
    names and the failure policy are the config's, as in ``polyreward score``. Completions pass
    through unchanged: plain strings, or message lists with ``tool_calls`` and ``role == "tool"``
    messages, which rewards read through :mod:`polyreward.schema`. Dataset columns arrive as TRL's
    keyword arguments and are handed to the reward by name; ``completion_ids`` is a column too. When
    the reward reads the group column (the config's ``columns.group``) and the dataset has none, it
    is made from the prompt text (:meth:`~polyreward.pipeline.Scorer.groups`), so group-relative rewards see
    TRL's G rollouts of a prompt as one group.

    Args:
        scorer: a one-reward Scorer (``scorer.subset([name])``), or a Reward (scored with the default contract).
        on_error: what a failed rollout scores (NaN from the reward, an exception, a timeout):
            ``"none"`` (not applicable; excluded from that reward's group statistics) or ``"zero"``.
        on_reward_error: overrides the scorer's failure policy (``"nan"``: go on; ``"raise"``: stop).
        timeout: seconds one batch may take. When set, the reward runs in a polyreward engine worker
            process that is killed past the deadline (a hang cannot stall training). Rewards that
            already use the engine for their risky parts (an ``engine`` attribute) run inline, since
            worker processes cannot start workers of their own.
    """

    def __init__(self, scorer: Scorer | Reward, on_error: OnError = "none", timeout: float | None = None,
                 group_column: str | None = None, on_reward_error: OnRewardError | None = None) -> None:
        if isinstance(scorer, Reward):
            scorer = Scorer(RewardSet([scorer]), ColumnMap(group=group_column or ColumnMap.group))
        if not isinstance(scorer, Scorer):
            raise TypeError(f"expected a polyreward Scorer or Reward, got {type(scorer).__name__}")
        if len(scorer.names) != 1:
            raise ValueError(f"a TRL reward function scores one reward; got {scorer.names} (use scorer.subset([name]))")
        if on_error not in ("none", "zero"):
            raise ValueError(f"on_error must be 'none' or 'zero', got {on_error!r}")
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds or None, got {timeout!r}")
        self.reward = next(iter(scorer.rewards))
        self.on_error = on_error
        self.timeout = timeout
        # a reward that already uses the engine for its risky parts runs inline: workers cannot start workers
        if timeout is not None and getattr(self.reward, "engine", None) is None:
            rewards = RewardSet([IsolatedReward(self.reward, timeout)], when=scorer.rewards.when)
            scorer = replace(scorer, rewards=rewards)
        self.scorer = scorer.with_combiner(None).with_policy(on_reward_error)
        self.__name__ = self.reward.name  # TRL's get_callable_name reads this attribute

    @property
    def name(self) -> str:
        return self.reward.name

    @property
    def on_reward_error(self) -> str:
        return self.scorer.on_reward_error

    def __repr__(self) -> str:
        return f"TRLRewardFunction({self.reward!r}, on_error={self.on_error!r}, timeout={self.timeout})"

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        completion_ids: Sequence[Sequence[int]] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        if completions is None:
            raise TypeError(f"reward {self.name!r} needs completions=")
        n = len(completions)
        log_extra, log_metric = kwargs.get("log_extra"), kwargs.get("log_metric")
        columns = column_values({k: v for k, v in kwargs.items() if k not in _TRL_CONTEXT})
        if completion_ids is not None:
            columns.setdefault("completion_ids", completion_ids)
        prompts = list(prompts) if prompts is not None else [None] * n
        group = self.scorer.columns.group
        if group in self.reward.columns and group not in columns:
            columns[group] = self.scorer.groups(prompts, columns)  # TRL repeats each prompt row G times
        try:
            scored = self.scorer.score(Batch(prompts, completions, columns))
        except MissingColumnError as exc:  # a configuration mistake, not a property of one rollout: fail loudly at step 1
            raise MissingColumnError(exc.reward, exc.column, exc.available,
                                     hint="TRL passes the dataset's columns; keep GRPOConfig.remove_unused_columns=False") from None
        failed = scored.failures[self.name]
        if failed:
            logger.warning("polyreward reward %r failed on %d of %d rollouts: %s", self.name, failed, n, scored.first_failure[self.name])
        values = self._to_trl(scored.column(self.name), scored.failed[:, 0])
        if log_extra is not None:
            log_extra(f"{self.name}/reason", scored.reasons[self.name])
        if log_metric is not None:
            log_metric(f"rewards/{self.name}/failed_frac", failed / n if n else 0.0)
            for sub, sub_values in sorted(scored.details.get(self.name, {}).items()):
                finite = [v for v in map(finite_or_none, sub_values) if v is not None]
                if finite:
                    log_metric(f"rewards/{self.name}/{sub}", float(np.mean(finite)))
        return values

    def _to_trl(self, scores: np.ndarray, failed: np.ndarray) -> list[float | None]:
        """None where the reward does not apply; a failed rollout scores None or 0.0 (``on_error``)."""
        fill = 0.0 if self.on_error == "zero" else None
        return [fill if bad else (None if math.isnan(v) else v) for v, bad in zip(scores.tolist(), failed.tolist())]


class AsyncTRLRewardFunction(TRLRewardFunction):
    """:class:`TRLRewardFunction` with an ``async def __call__``: TRL 1.16 runs such rewards together.

    TRL (``is_async_callable``) awaits every async reward function of a step concurrently with
    ``asyncio.gather`` on its daemon event loop, while sync ones run one after the other. The scoring
    itself runs in a thread (``asyncio.to_thread``), so slow rewards (LLM judges, remote verifiers)
    overlap each other instead of adding up. Same arguments, results and logging as the sync class.
    """

    async def __call__(  # type: ignore[override]
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        completion_ids: Sequence[Sequence[int]] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        score = super().__call__  # bound now: the thread runs the synchronous scoring
        return await asyncio.to_thread(score, prompts, completions, completion_ids, **kwargs)


def reward_funcs(
    config_or_rewards: RewardsLike, *, on_error: OnError = "none", timeout: float | None = None,
    on_reward_error: OnRewardError | None = None,
) -> list[TRLRewardFunction]:
    """One TRL reward function per configured reward (a YAML path, Config, Scorer, RewardSet or Rewards).

    Pass the result as ``GRPOTrainer(reward_funcs=...)`` and :func:`reward_weights` of the same source
    as ``GRPOConfig(reward_weights=...)``. Each function scores through the scorer's one-reward subset (its
    ``when:`` rule, the columns, the policy). See :class:`TRLRewardFunction` for ``on_error``/``timeout``;
    ``on_reward_error`` defaults to the config's (``"nan"`` for reward objects).
    """
    scorer = as_scorer(config_or_rewards, on_reward_error)
    return [TRLRewardFunction(scorer.subset([name]), on_error=on_error, timeout=timeout) for name in scorer.names]


def async_reward_funcs(
    config_or_rewards: RewardsLike, *, on_error: OnError = "none", timeout: float | None = None,
    on_reward_error: OnRewardError | None = None,
) -> list[AsyncTRLRewardFunction]:
    """:func:`reward_funcs` as async reward functions, which TRL scores concurrently (slow judges overlap).

    Async rewards run off the main thread; polyreward's own timeouts use killable worker processes,
    not SIGALRM, so they still hold there.
    """
    scorer = as_scorer(config_or_rewards, on_reward_error)
    return [AsyncTRLRewardFunction(scorer.subset([name]), on_error=on_error, timeout=timeout) for name in scorer.names]


def reward_weights(config_or_rewards: RewardsLike) -> list[float]:
    """The configured weights, in the order of :func:`reward_funcs` (for ``GRPOConfig.reward_weights``)."""
    return [float(w) for w in as_scorer(config_or_rewards).weights]


def combined_token_advantages(
    combiner: Any, rewards: torch.Tensor, mask: torch.Tensor, weights: torch.Tensor | None,
    columns: dict[str, list[Any]] | None = None, *, groups: Sequence[Any],
) -> torch.Tensor:
    """Advantages (N, T) of a token-level combiner over the gathered completion ``mask`` (N, T) (the outcome rewards on
    each row's last completion token; :func:`polyreward.combiner.combine_token_scores`), in the rewards' dtype."""
    from polyreward.combiner import combine_token_scores

    scorer = combiner if isinstance(combiner, Scorer) else Scorer(None, combiner=combiner)
    w = (np.ones(rewards.shape[1]) if weights is None
         else weights.detach().to(dtype=rewards.dtype).cpu().double().numpy())  # in the rewards' precision, as TRL
    tokens = combine_token_scores(scorer.combiner, rewards.detach().cpu().double().numpy(), groups, w, mask=mask.detach().cpu(),
                                  columns=columns or {})
    return torch.as_tensor(tokens, device=rewards.device, dtype=rewards.dtype)


def combined_advantages(
    combiner: Any, rewards: torch.Tensor, num_generations: int, weights: torch.Tensor | None,
    columns: dict[str, list[Any]] | None = None, *, groups: Sequence[Any] | None = None, lengths: Any = None,
) -> torch.Tensor:
    """Advantages (N,) of the gathered reward matrix (N, K) whose rows come in groups of ``num_generations``.

    ``combiner`` is a :class:`~polyreward.pipeline.Scorer` (its combiner and per-row contract) or a bare Combiner.
    ``groups`` (N ids; default: consecutive blocks ``arange(N) // num_generations``) name each row's question: the
    trainer passes :meth:`~polyreward.pipeline.Scorer.groups`, the same id for the same prompt in every step.
    ``lengths`` (N token counts) and ``columns`` (dataset columns, e.g. DRPO's domain) are the per-row data.
    NaN rewards are "not applicable" for the combiner; rows it leaves NaN (every reward None) get 0, as in TRL.
    """
    n = rewards.shape[0]
    if n % num_generations:
        raise ValueError(f"{n} rewards do not split into groups of {num_generations}")
    groups = np.arange(n) // num_generations if groups is None else groups
    scorer = combiner if isinstance(combiner, Scorer) else Scorer(None, combiner=combiner)
    # the weights in the rewards' precision, as TRL multiplies them; then the scorer's one combiner call
    w = None if weights is None else weights.detach().to(dtype=rewards.dtype).cpu().double().numpy()
    lengths = None if lengths is None else np.asarray(lengths.detach().cpu() if hasattr(lengths, "detach") else lengths, dtype=np.float64)
    advantages = scorer.advantages(rewards.detach().cpu().double().numpy(), groups, columns=columns or {}, lengths=lengths,
                                   weights=w if w is not None else np.ones(rewards.shape[1]))
    return torch.as_tensor(advantages, device=rewards.device, dtype=rewards.dtype)


def _diagnostics(
    rewards: np.ndarray, groups: np.ndarray, advantages: np.ndarray, weights: np.ndarray, names: list[str]
) -> dict[str, float]:
    """Batch-level numbers of :func:`polyreward.combiners.diagnostics.diagnose` (collapse, shares, sign flips)."""
    from polyreward.combiners.diagnostics import diagnose

    summary = diagnose(rewards, groups, advantages, weights, names=names).summary
    skip = ("rollouts", "groups")  # sizes, not signals; advantage_* duplicates poly/advantage_*
    return {key: float(value) for key, value in summary.items() if key not in skip and not key.startswith("advantage_")}


class PolyGRPOTrainer(GRPOTrainer):
    """``trl.GRPOTrainer`` whose advantages come from a polyreward combiner.

    Args (besides GRPOTrainer's):
        combiner: a registry name (``"dvao"``), a ``{type: ..., **params}`` mapping, a Combiner
            object, or None to use the combiner of ``polyreward_config``.
        polyreward_config: a YAML path or Config. When given and ``reward_funcs`` is not, the reward
            functions come from it; so do ``args.reward_weights`` when unset.

    Per generation batch (docs/reference/integrations.md#trl-hook): ``_calculate_rewards`` keeps the (N_global, K) matrix
    TRL gathered from every process; after TRL's own scoring, the combiner turns that matrix into
    advantages for the whole batch (groups = each row's question, :meth:`~polyreward.pipeline.Scorer.groups`: the
    config's group column when the dataset has it, else the prompt text, so an id does not restart every step;
    with ``batch_norm: whiten`` the token counts of ``completion_mask`` are the lengths), and this
    process keeps rows ``[process_index * B_local, (process_index + 1) * B_local)``. The completions
    table's ``advantage`` column and ``frac_reward_zero_std`` are replaced to match, and
    ``poly/advantage_mean|std|abs_mean`` plus the combiner diagnostics (``poly/<key>``) are logged.
    ``last_batch`` keeps the last matrix, group ids and both advantage vectors for inspection.
    A combiner with state across steps (``state_dict``) is saved with each checkpoint and restored on
    resume; evaluation batches use a copy, so they never move it. Rewards with state (``otc_tool_efficiency``
    with ``running_min``) are saved beside it, one file per process, and restored on resume.
    """

    STATE_FILE = "polyreward_combiner_state.json"
    # rewards score this process's rows, so each process keeps (and saves) its own reward state
    REWARD_STATE_FILE = "polyreward_reward_state_rank{rank}.json"

    def __init__(
        self, *args: Any, combiner: CombinerLike | None = None, polyreward_config: Any = None, **kwargs: Any
    ) -> None:
        config = as_config(polyreward_config) if polyreward_config is not None else None
        scorer = Scorer(None)  # the contract's columns and group identity, without rewards of its own
        if config is not None:
            if len(args) < 2 and kwargs.get("reward_funcs") is None:
                scorer = config.build_scorer()  # the rewards are built once, for the reward functions
                kwargs["reward_funcs"] = reward_funcs(scorer)
            else:
                scorer = Scorer(None, config.column_map, config.on_reward_error)
            train_args = kwargs.get("args", args[2] if len(args) > 2 else None)
            if train_args is not None and getattr(train_args, "reward_weights", None) is None:
                train_args.reward_weights = [float(entry.weight) for entry in config.rewards]
        if combiner is None:
            if config is None or config.combiner is None:
                raise ValueError("PolyGRPOTrainer needs combiner= or a polyreward_config with a combiner")
            combiner = config
        self.combiner = as_combiner(combiner)
        self.scorer = scorer.with_combiner(self.combiner)
        self.last_batch: dict[str, Any] = {}
        self._gathered_rewards: torch.Tensor | None = None
        super().__init__(*args, **kwargs)

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
        rewards = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
        self._gathered_rewards = rewards
        return rewards

    def _generate_and_score_completions(self, inputs):
        output = super()._generate_and_score_completions(inputs)
        mode = "train" if self.model.training else "eval"
        num_generations = self.num_generations if mode == "train" else self.num_generations_eval
        rewards = self._gathered_rewards
        # Evaluation batches must not move the statistics a stateful combiner (SA-MRPO, EBPO) carries.
        combiner = self.combiner if mode == "train" or not self.combiner.state_dict() else copy.deepcopy(self.combiner)
        groups = self._gathered_groups(inputs)
        lengths = self.accelerator.gather(output["completion_mask"].sum(dim=-1)) if self.combiner.uses_lengths else None
        all_advantages = combined_advantages(self.scorer.with_combiner(combiner), rewards, num_generations, self.reward_weights,
                                             self._row_columns(inputs), groups=groups, lengths=lengths)
        local = len(inputs)
        start = self.accelerator.process_index * local
        builtin = output["advantages"]
        output["advantages"] = all_advantages[start : start + local].to(device=builtin.device, dtype=builtin.dtype)
        if getattr(combiner, "token_level", False):  # REINFORCE++, process GRPO: (local rows, T) over the completion tokens
            mask = self.accelerator.gather(self.accelerator.pad_across_processes(output["completion_mask"], dim=1, pad_index=0))
            tokens = combined_token_advantages(self.scorer.with_combiner(combiner), rewards, mask, self.reward_weights,
                                               self._row_columns(inputs), groups=groups)
            width = output["completion_mask"].size(1)
            output["advantages"] = tokens[start : start + local, :width].to(device=builtin.device, dtype=builtin.dtype)
        self.last_batch = {
            "rewards": rewards.detach().cpu(),
            "groups": group_ids(groups),
            "builtin_advantages": builtin.detach().cpu(),
            "advantages": output["advantages"].detach().cpu(),
        }
        self._log_combined(mode, rewards, all_advantages, num_generations, self.last_batch["groups"])
        return output

    def _gathered_groups(self, inputs) -> list[Any]:
        """Each gathered row's question id (:meth:`~polyreward.pipeline.Scorer.groups`: the dataset's group column, else
        the prompt's text), in the order of the gathered reward matrix. The same prompt has the same id in every step,
        so a combiner that remembers questions (DRPO) finds them again, where ``arange(N) // G`` restarts at 0."""
        from accelerate.utils import gather_object

        group = self.scorer.columns.group
        columns = {group: [row[group] for row in inputs]} if inputs and all(group in row for row in inputs) else {}
        return gather_object(self.scorer.groups([row.get("prompt") for row in inputs], columns))

    def _row_columns(self, inputs) -> dict[str, list[Any]] | None:
        """The dataset columns a combiner with per-row columns reads (DRPO's domain), gathered from every process
        in the order of the gathered reward matrix; None for the usual combiner."""
        sources = self.combiner.row_source_columns()
        if not sources:
            return None
        from accelerate.utils import gather_object

        missing = [c for c in sources if any(c not in row for row in inputs)]
        if missing:
            raise MissingColumnError(f"combiner {self.combiner.type_name}", missing[0], sorted(inputs[0]) if inputs else [],
                                     hint="TRL passes the dataset's columns; keep GRPOConfig.remove_unused_columns=False", kind="combiner")
        return {c: gather_object([row[c] for row in inputs]) for c in sources}

    def _log_combined(self, mode: str, rewards: torch.Tensor, advantages: torch.Tensor, num_generations: int,
                      groups: np.ndarray) -> None:
        n = advantages.shape[0]
        logged = self._logs["advantages"]  # TRL appended its own values for this batch: swap them for ours
        for _ in range(min(n, len(logged))):
            logged.pop()
        logged.extend(advantages.tolist())
        metrics = self._metrics[mode]
        grouped = advantages.view(-1, num_generations)
        zero_signal = torch.all(grouped.abs() < 1e-8, dim=1).float().mean().item()
        if metrics.get("frac_reward_zero_std"):
            metrics["frac_reward_zero_std"][-1] = zero_signal
        metrics["poly/advantage_mean"].append(advantages.mean().item())
        metrics["poly/advantage_std"].append(advantages.std().item() if n > 1 else 0.0)
        metrics["poly/advantage_abs_mean"].append(advantages.abs().mean().item())
        weights = self.reward_weights.detach().cpu().numpy().astype(np.float64)
        try:
            extra = _diagnostics(
                rewards.detach().cpu().double().numpy(), groups,
                advantages.detach().cpu().double().numpy(), weights, list(self.reward_func_names),
            )
        except Exception as exc:  # diagnostics are for humans; never stop training for them
            logger.warning("polyreward combiner diagnostics failed: %s", exc)
            extra = {}
        extra.update(self.combiner.diagnostics())  # DRPO: each domain's share of the advantage mass
        for key, value in extra.items():
            metrics[f"poly/{key}"].append(value)

    def _stateful_rewards(self) -> dict[str, Any]:
        """Our rewards among ``reward_funcs`` by name (each carries ``state_dict`` / ``load_state_dict``)."""
        return {getattr(f, "__name__", ""): f.reward for f in self.reward_funcs
                if callable(getattr(getattr(f, "reward", None), "state_dict", None))}

    def _save_checkpoint(self, model, trial):
        super()._save_checkpoint(model, trial)
        from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

        folder = os.path.join(self._get_output_dir(trial=trial), f"{PREFIX_CHECKPOINT_DIR}-{self.state.global_step}")
        state = self.combiner.state_dict()
        if state and self.args.should_save:
            with open(os.path.join(folder, self.STATE_FILE), "w", encoding="utf-8") as handle:
                json.dump(state, handle)
        rewards = {name: reward.state_dict() for name, reward in self._stateful_rewards().items()}
        if any(rewards.values()):  # OTC's running minimum: a resumed run must continue from it exactly
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, self.REWARD_STATE_FILE.format(rank=self.accelerator.process_index))
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(rewards, handle)

    def _load_optimizer_and_scheduler(self, checkpoint):
        super()._load_optimizer_and_scheduler(checkpoint)
        path = os.path.join(checkpoint, self.STATE_FILE) if checkpoint is not None else None
        if path is not None and os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                self.combiner.load_state_dict(json.load(handle))
        path = os.path.join(checkpoint, self.REWARD_STATE_FILE.format(rank=self.accelerator.process_index)) if checkpoint else None
        if path is not None and os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                saved = json.load(handle)
            for name, reward in self._stateful_rewards().items():
                reward.load_state_dict(saved.get(name, {}))


__all__ = [
    "AsyncTRLRewardFunction",
    "PolyGRPOTrainer",
    "TRLRewardFunction",
    "async_reward_funcs",
    "combined_advantages",
    "combined_token_advantages",
    "reward_funcs",
    "reward_weights",
]
