"""verl 0.9.1 adapter: a ``compute_score`` for the reward loop and polyreward combiners as advantage estimators.

Reward side (docs/reference/integrations.md#verl-reward)::

    reward.custom_reward_function.path=pkg://polyreward.integrations.verl
    reward.custom_reward_function.name=compute_score          # or compute_score_async
    +reward.custom_reward_function.reward_kwargs.config_path=/abs/path/polyreward.yaml

verl calls :func:`compute_score` once per sample, in threads of the reward worker's event loop (a config with a
group-level reward is refused there: one sample has no group; :func:`compute_score_batch` scores a whole batch), and
builds its ``reward_extra_info`` columns from the keys of **sample 0**. So every call returns the same
keys with finite floats: ``score`` (weighted sum over the rewards that apply), then for each reward
``<name>`` (its score; ``not_applicable_value`` when it does not apply or failed), ``<name>/applicable``
(1.0 / 0.0) and ``<name>/failed`` (1.0 / 0.0). Failure reasons go to the ``polyreward`` logger. No
SIGALRM anywhere: rewards that parse untrusted text use the engine's killable worker processes.

Advantage side (docs/reference/integrations.md#verl-estimators): :func:`register` (run automatically at ``import verl`` through the
``verl.plugins`` entry point of this package) registers the estimator ``polyreward`` and wraps the
``gdpo`` slot. verl 0.9.1 hands the per-reward components (``non_tensor_batch``) only to the estimator
named ``gdpo`` and only in the legacy trainer (``trainer.use_v1=False``), so multi-objective combiners
run as ``algorithm.adv_estimator=gdpo`` with ``+algorithm.polyreward_combiner=<type>`` (or
``+algorithm.polyreward_config=<yaml>``); without those keys the ``gdpo`` slot is verl's own GDPO,
unchanged. ``adv_estimator=polyreward`` works in either trainer but sees only the summed token-level
reward (one objective).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from polyreward.integrations._common import CachedScorers, as_combiner, as_config
from polyreward.pipeline import Scorer
from polyreward.schema import Batch, label_columns, plain_value

logger = logging.getLogger("polyreward.integrations.verl")

APPLICABLE_SUFFIX = "/applicable"
FAILED_SUFFIX = "/failed"
CONFIG_ENV = "POLYREWARD_CONFIG"
ESTIMATOR_NAME = "polyreward"

_scorers = CachedScorers()


def _config_path(config_path: str | os.PathLike | None) -> str:
    path = config_path if config_path is not None else os.environ.get(CONFIG_ENV)
    if not path:
        raise ValueError(
            "polyreward compute_score needs a config: set "
            "+reward.custom_reward_function.reward_kwargs.config_path=/path/polyreward.yaml "
            f"(or the environment variable {CONFIG_ENV})"
        )
    return str(path)


def _check_keys(rewards: Any) -> None:
    """Refuse reward names whose result keys collide (a reward called ``score``, or ``a/applicable`` next to ``a``)."""
    keys = ["score"] + [r.name + suffix for r in rewards for suffix in ("", APPLICABLE_SUFFIX, FAILED_SUFFIX)]
    if len(set(keys)) != len(keys):
        clashes = sorted({k for k in keys if keys.count(k) > 1})
        raise ValueError(
            f"polyreward compute_score: reward names give duplicate result keys {clashes}; 'score' is the weighted "
            "total and '<name>/applicable', '<name>/failed' are each reward's flags, so rename the reward(s)"
        )


def compute_score(
    data_source: Any = None,
    solution_str: str = "",
    ground_truth: Any = None,
    extra_info: Mapping[str, Any] | None = None,
    config_path: str | os.PathLike | None = None,
    ground_truth_column: str = "answer",
    not_applicable_value: float = 0.0,
    **kwargs: Any,
) -> dict[str, float]:
    """Score one verl sample with the rewards of a polyreward config.

    Args:
        data_source, solution_str, ground_truth, extra_info: what verl's reward managers pass.
        config_path: the polyreward YAML (``reward_kwargs.config_path``; default ``$POLYREWARD_CONFIG``).
        ground_truth_column: the column name rewards read the ground truth under (``answer_column``
            of most rewards). A mapping ground truth instead provides one column per key.
        not_applicable_value: the finite value reported for a reward that does not apply or failed.

    The rewards also see every ``extra_info`` key as a column, ``data_source``, and the prompt when
    ``extra_info`` holds the config's prompt column. The sample is scored by the config's
    :class:`~polyreward.pipeline.Scorer`, as in ``polyreward score``: its ``when:`` rules (a reward that does
    not apply to this sample's source reports ``<name>/applicable=0``), its column names and its
    ``on_reward_error``. A column a reward reads that the sample lacks is the one-line
    :class:`~polyreward.vocabulary.MissingColumnError`, as everywhere. A list ground truth is a list gold, read
    by the rewards as accepted alternatives exactly as a list cell of a rollout file. Returns the fixed key set
    described in the module docstring.
    """
    fill = float(not_applicable_value)
    if not math.isfinite(fill):  # verl needs finite extras for every sample (docs/reference/integrations.md#verl-extra-info)
        raise ValueError(f"not_applicable_value must be a finite number, got {not_applicable_value!r}")
    _, scorer = _scorers.get(_config_path(config_path))
    _check_keys(scorer.rewards)
    grouped = [r.name for r in scorer.rewards if getattr(r, "group_columns", ())]
    if grouped:
        raise ValueError(f"polyreward compute_score: reward(s) {grouped} score whole groups, but verl's per-sample reward loop "
                         "hands compute_score one rollout; score whole batches with compute_score_batch (a batch reward manager)")
    return score_samples(scorer, [data_source], [solution_str], [ground_truth], [extra_info], ground_truth_column, fill)[0]


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
    config_path: str | os.PathLike | None = None,
    ground_truth_column: str = "answer",
    not_applicable_value: float = 0.0,
    **kwargs: Any,
) -> list[dict[str, float]]:
    """:func:`compute_score` for a reward manager that scores a batch at once, with the signature of verl's
    ``BatchRewardManager`` (verl/workers/reward_manager/batch.py: ``compute_score(data_sources=, solution_strs=,
    ground_truths=, extra_infos=, **reward_kwargs)``): the whole batch is one scorer call, so group-level rewards
    see their groups (the config's group column, read from ``extra_info``). One result dict per sample, the same
    keys as ``compute_score``."""
    fill = float(not_applicable_value)
    if not math.isfinite(fill):
        raise ValueError(f"not_applicable_value must be a finite number, got {not_applicable_value!r}")
    _, scorer = _scorers.get(_config_path(config_path))
    _check_keys(scorer.rewards)
    n = len(solution_strs)
    infos = list(extra_infos) if extra_infos is not None else [None] * n
    return score_samples(scorer, list(data_sources), list(solution_strs), list(ground_truths), infos, ground_truth_column, fill)


def score_samples(scorer: Scorer, data_sources: list[Any], solutions: list[str], ground_truths: list[Any],
                  extra_infos: list[Mapping[str, Any] | None], ground_truth_column: str, fill: float) -> list[dict[str, float]]:
    """verl samples as one batch: every ``extra_info`` key a column, the ground truth through
    :func:`~polyreward.schema.label_columns`, ``data_source``; scored by ``scorer`` (see :func:`score_result`)."""
    rows = []
    for data_source, ground_truth, extra_info in zip(data_sources, ground_truths, extra_infos):
        row = plain_value(dict(extra_info or {}))
        row.update(label_columns(plain_value(ground_truth), ground_truth_column))
        row.setdefault("data_source", data_source)
        rows.append(row)
    keys = dict.fromkeys(key for row in rows for key in row)
    columns = {key: [row.get(key) for row in rows] for key in keys}
    batch = Batch([row.get(scorer.columns.prompt) for row in rows], list(solutions), columns)
    return score_result(scorer, batch, fill, data_sources)


def score_result(scorer: Scorer, batch: Batch, fill: float, data_sources: Sequence[Any]) -> list[dict[str, float]]:
    """The fixed key set of each sample of ``batch`` scored by ``scorer`` (see the module docstring)."""
    scored = scorer.score(batch, combine=False)
    total = scored.total
    results = []
    for i in range(len(batch)):
        result: dict[str, float] = {"score": float(total[i]) if math.isfinite(total[i]) else fill}
        for k, name in enumerate(scored.names):
            failed, value = bool(scored.failed[i, k]), float(scored.scores[i, k])
            if failed:
                logger.warning("reward %r failed on a %s sample: %s", name, data_sources[i], scored.reasons[name][i])
            applicable = not failed and not math.isnan(value)
            result[name] = value if applicable else fill
            result[name + APPLICABLE_SUFFIX] = 1.0 if applicable else 0.0
            result[name + FAILED_SUFFIX] = 1.0 if failed else 0.0
        results.append(result)
    return results


async def compute_score_async(
    data_source: Any = None,
    solution_str: str = "",
    ground_truth: Any = None,
    extra_info: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, float]:
    """:func:`compute_score` for async reward managers; scoring runs in a thread, off the event loop."""
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)


# ---------------------------------------------------------------------------------------------
# Advantage estimators
# ---------------------------------------------------------------------------------------------

_combiners: dict[str, Scorer] = {}  # one combiner per spec, so stateful ones (SA-MRPO, EBPO) keep state across steps
_combiners_lock = threading.Lock()
_verl_gdpo: Any = None  # verl's own GDPO estimator, kept for configs that do not ask for polyreward


def _setting(config: Any, key: str) -> Any:
    if config is None:
        return None
    value = config.get(key, None)
    if value is not None and hasattr(value, "items") and not isinstance(value, dict):
        value = {k: v for k, v in value.items()}  # OmegaConf DictConfig -> dict
    return value


def _estimator_plan(config: Any) -> tuple[Scorer, list[str] | None, list[float] | None]:
    """(scorer with its combiner, component keys, weights) from the ``algorithm`` node."""
    combiner_spec = _setting(config, "polyreward_combiner")
    config_path = _setting(config, "polyreward_config")
    poly_config = as_config(str(config_path)) if config_path else None
    keys = _setting(config, "gdpo_reward_keys")
    weights = _setting(config, "gdpo_reward_weights")
    if poly_config is not None:
        configured = {r.name: r.weight for r in poly_config.rewards}
        keys = list(keys) if keys is not None else list(configured)
        if weights is None and all(str(k) in configured for k in keys):  # the config's weights, by reward name
            weights = [configured[str(k)] for k in keys]
    if combiner_spec is None and poly_config is None:
        raise ValueError(
            "the polyreward advantage estimator needs +algorithm.polyreward_combiner=<type> or "
            "+algorithm.polyreward_config=/path/polyreward.yaml"
        )
    cache_key = repr((combiner_spec, str(config_path)))
    with _combiners_lock:
        combiner = _combiners.get(cache_key)
        if combiner is None:
            built = as_combiner(combiner_spec if combiner_spec is not None else poly_config)
            columns = poly_config.column_map if poly_config is not None else Scorer(None).columns
            combiner = _combiners[cache_key] = Scorer(None, columns, combiner=built)
    keys = [str(k) for k in keys] if keys is not None else None
    weights = [float(w) for w in weights] if weights is not None else None
    if keys is not None and weights is not None and len(weights) != len(keys):
        raise ValueError(f"gdpo_reward_weights has {len(weights)} entries for {len(keys)} reward keys {keys}")
    return combiner, keys, weights


def component_matrix(non_tensor_batch: Mapping[str, Any], keys: Sequence[str]) -> np.ndarray:
    """(bs, K) float64 components; NaN where ``<key>/applicable`` is 0 or the value is None/NaN."""
    columns = []
    for key in keys:
        if key not in non_tensor_batch:
            raise KeyError(
                f"reward key {key!r} is not in the batch; available: {sorted(non_tensor_batch)}. Components reach the "
                "estimator only in the legacy trainer (trainer.use_v1=False) from a compute_score that returns them"
            )
        values = np.array([np.nan if v is None else v for v in non_tensor_batch[key]], dtype=np.float64)
        flags = non_tensor_batch.get(key + APPLICABLE_SUFFIX)
        if flags is not None:
            values[np.asarray(flags, dtype=np.float64) == 0] = np.nan
        columns.append(values)
    return np.stack(columns, axis=1)


def verl_groups(scorer: Scorer, non_tensor_batch: Mapping[str, Any] | None, index: Any, bs: int) -> list[Any]:
    """The group id of each sample of a verl batch, by the contract's rule (:meth:`Scorer.groups`):

    1. the config's group column (``columns.group``), as a ``non_tensor_batch`` key or a key of every sample's
       ``extra_info`` (where verl's dataset keeps a row's own columns);
    2. else the prompt's text: ``raw_prompt`` (the chat messages verl's dataset keeps) read as
       :func:`~polyreward.schema.prompt_text` reads a TRL prompt, or the ``prompt`` column;
    3. else verl's ``uid`` (one prompt's rollouts in this batch; a fresh uuid4 each step), then one group per sample.

    The rollouts of one prompt share a uid and a prompt, so 1-2 never split a uid group; a prompt sampled twice in
    one batch (two uids) is one group here, as it is in ``polyreward score``."""
    column = scorer.columns.group
    batch = non_tensor_batch or {}
    if column in batch and len(batch[column]) == bs:
        return [plain_value(v) for v in batch[column]]
    infos = batch.get("extra_info")
    if infos is not None and len(infos) == bs and all(isinstance(info, Mapping) and column in info for info in infos):
        return [plain_value(info[column]) for info in infos]
    for key in ("raw_prompt", scorer.columns.prompt):
        prompts = batch.get(key)
        if prompts is not None and len(prompts) == bs:
            return scorer.groups([plain_value(p) for p in prompts], {})
    if index is not None:
        return list(np.asarray(index).tolist())
    return list(range(bs))


def compute_polyreward_advantage(
    token_level_rewards: Any,
    response_mask: Any,
    index: Any = None,
    config: Any = None,
    non_tensor_batch: Mapping[str, Any] | None = None,
    batch: Any = None,
    **kwargs: Any,
) -> tuple[Any, Any]:
    """verl estimator: a polyreward combiner over per-reward components (or the summed reward).

    With ``non_tensor_batch`` (verl passes it to the ``gdpo`` slot only), the scores are the (bs, K)
    components named by ``gdpo_reward_keys`` or by the polyreward config's reward names, with NaN
    where a reward did not apply; otherwise they are ``token_level_rewards.sum(-1)`` as one objective.
    Groups are those of every other entry point (:func:`verl_groups`): the config's group column, else the prompt's
    text, never verl's per-batch ``uid`` alone (a fresh uuid4 each step), so a combiner that remembers questions
    across steps (DRPO, SA-MRPO) sees the same groups as under TRL. A combiner whose ``combine`` takes ``lengths`` (GDPO) gets the
    response token counts, so ``{type: gdpo, variant: verl}`` reproduces verl's token-weighted
    whitening. Advantages are broadcast over the response tokens and masked; returns equal
    advantages (outcome-only), as for verl's GRPO. A token-level combiner (``token_level``: REINFORCE++,
    process GRPO) gives its own (bs, T) advantages from ``token_level_rewards`` and the response mask.
    """
    import torch

    combiner, keys, weights = _estimator_plan(config)  # the scorer holding the combiner: its one combiner call
    if non_tensor_batch is not None and keys:
        scores = component_matrix(non_tensor_batch, keys)
    else:
        scores = token_level_rewards.detach().sum(dim=-1, keepdim=True).double().cpu().numpy()
        weights = None
    bs = scores.shape[0]
    groups = verl_groups(combiner, non_tensor_batch, index, bs)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    if getattr(combiner.combiner, "token_level", False):  # REINFORCE++, process GRPO: the method's own (bs, T) advantages
        from polyreward.combiner import combine_token_scores

        # verl's token_level_rewards are dense (0 = nothing on that token): only a method that reads them so gets them
        dense = getattr(combiner.combiner, "dense_token_rewards", False)
        tokens = combine_token_scores(combiner.combiner, scores, groups, w if w is not None else np.ones(scores.shape[1]),
                                      mask=response_mask, token_rewards=token_level_rewards if dense else None,
                                      columns=non_tensor_batch if non_tensor_batch is not None else {})
        per_token = torch.as_tensor(tokens, dtype=token_level_rewards.dtype, device=token_level_rewards.device)
        return per_token, per_token
    # token counts reach a combiner that takes them (GDPO variant=verl: token-weighted whitening)
    lengths = response_mask.detach().sum(dim=-1).double().cpu().numpy()
    advantages = combiner.advantages(scores, groups, columns=non_tensor_batch if non_tensor_batch is not None else {},
                                     lengths=lengths, weights=w if w is not None else np.ones(scores.shape[1]))
    per_sample = torch.as_tensor(advantages, dtype=token_level_rewards.dtype, device=token_level_rewards.device)
    per_token = per_sample.unsqueeze(-1) * response_mask
    return per_token, per_token


def compute_gdpo_or_polyreward_advantage(
    token_level_rewards: Any, response_mask: Any, index: Any = None, config: Any = None, **kwargs: Any
) -> tuple[Any, Any]:
    """The ``gdpo`` slot: a polyreward combiner when the config names one, else verl's own GDPO."""
    if config is not None and (config.get("polyreward_combiner", None) is not None or config.get("polyreward_config", None) is not None):
        return compute_polyreward_advantage(token_level_rewards, response_mask, index=index, config=config, **kwargs)
    return _verl_gdpo(token_level_rewards=token_level_rewards, response_mask=response_mask, index=index, config=config, **kwargs)


def register() -> None:
    """Register ``polyreward`` with verl's estimator registry and wrap the ``gdpo`` slot (idempotent).

    ``register_adv_est`` refuses to replace a name, so the ``gdpo`` slot is swapped in the registry
    dict itself; the original function stays reachable when no polyreward key is configured.
    """
    global _verl_gdpo
    from verl.trainer.ppo import core_algos

    registry = core_algos.ADV_ESTIMATOR_REGISTRY
    current = registry.get(ESTIMATOR_NAME)
    if _is_ours(current):  # this module, or another copy of it (importlib.reload, a file-path load): replace
        registry[ESTIMATOR_NAME] = compute_polyreward_advantage
    elif current is not compute_polyreward_advantage:
        core_algos.register_adv_est(ESTIMATOR_NAME)(compute_polyreward_advantage)  # refuses a foreign "polyreward"
    current = registry.get("gdpo")
    if current is not compute_gdpo_or_polyreward_advantage:
        if _is_ours(current):  # keep verl's original, which the other copy saved, rather than wrapping a wrapper
            current = current.__globals__.get("_verl_gdpo")
        _verl_gdpo = current if current is not None else core_algos.compute_gdpo_outcome_advantage
        registry["gdpo"] = compute_gdpo_or_polyreward_advantage


def _is_ours(fn: Any) -> bool:
    """Whether a registry entry is one of this module's estimators (from any copy of the module)."""
    return getattr(fn, "_polyreward_estimator", False) is True


compute_polyreward_advantage._polyreward_estimator = True  # type: ignore[attr-defined]
compute_gdpo_or_polyreward_advantage._polyreward_estimator = True  # type: ignore[attr-defined]


__all__ = [
    "APPLICABLE_SUFFIX",
    "FAILED_SUFFIX",
    "component_matrix",
    "compute_gdpo_or_polyreward_advantage",
    "compute_polyreward_advantage",
    "compute_score",
    "compute_score_async",
    "compute_score_batch",
    "register",
]
