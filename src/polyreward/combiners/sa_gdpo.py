"""SA-GDPO ("Self-Adaptive GDPO"): GDPO whose objective weights shrink as the objective saturates.

Source: NVlabs/GDPO @41f74c53a640a743d0b37d23cbc14d4e9c431669, trl-GDPO grpo_trainer.py / grpo_config.py
(``apply_sa_gdpo``, ``sa_gdpo_gamma``, ``reward_mins``, ``reward_maxs``). Exact (code).

    Â^k_i  = (r^k_i - mean_G r^k) / (std_G r^k + 1e-4)                (GDPO step 2)
    range_k = max(r_max,k - r_min,k, 1e-4)
    s_k    = clip((mean_B r^k - r_min,k) / range_k, 0, 1)              (batch-level saturation)
    w'_k   = w_k · (1 - s_k)^γ
    S_i    = Σ_k w'_k Â^k_i ;   A_i = (S_i - mean_B S) / (std_B S + 1e-4)

A fully saturated objective (s_k = 1) gets weight 0; if every objective is saturated, A ≡ 0.
With one reward (K = 1) the fork takes TRL 0.18's plain GRPO path, as here: A_i = (w r_i - mean_G) / (std_G + 1e-4)
(the SA-GDPO branch sits inside ``apply_gdpo and len(reward_weights) > 1``), without saturation or batch norm.
Bound: |A| <= (n - 1)/sqrt(n) for K = 1 (n valid rollouts of the group), |A| <= (N - 1)/sqrt(N) otherwise (N
scored rollouts of the batch): a Bessel-standardised value never exceeds that.

Deviations / switches:
- ``none_policy="exclude"`` (default, TRL semantics as in our GDPO): NaN is left out of every mean and
  std; ``"zero"`` is the fork's own ``nan_to_num`` (None -> reward 0) and reproduces it exactly.
- ``reward_mins`` / ``reward_maxs`` are the user-supplied known range of each reward. The fork requires
  them; here, when omitted, the batch's own min/max of each reward is used instead (a deviation).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import all_nan_rows, nan_to_zero, standardise_per_group
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.gdpo import batch_normalise

RANGE_FLOOR = 1e-4


def column_means(scores: np.ndarray) -> np.ndarray:
    """Per-reward nanmean over the batch (NaN for a reward with no value)."""
    columns = np.ascontiguousarray(scores.T)  # row reductions are much faster than axis-0 ones
    valid = ~np.isnan(columns)
    count = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(valid, columns, 0.0).sum(axis=1) / count


def saturation(means: np.ndarray, mins: np.ndarray, maxs: np.ndarray) -> np.ndarray:
    """s_k = clip((m_k - min_k) / max(max_k - min_k, 1e-4), 0, 1); 0 for an objective without a mean."""
    level = np.clip((means - mins) / np.maximum(maxs - mins, RANGE_FLOOR), 0.0, 1.0)
    return np.where(np.isnan(level), 0.0, level)


def batch_range(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-reward (nanmin, nanmax) of a batch; (0, 0) for a reward with no value."""
    columns = np.ascontiguousarray(scores.T)
    valid = ~np.isnan(columns)
    has = valid.any(axis=1)
    mins = np.where(has, np.min(np.where(valid, columns, np.inf), axis=1, initial=np.inf), 0.0)  # initial: N = 0
    maxs = np.where(has, np.max(np.where(valid, columns, -np.inf), axis=1, initial=-np.inf), 0.0)
    return mins, maxs


def check_range(name: str, values: Sequence[float] | None) -> list[float] | None:
    if values is None:
        return None
    try:
        out = [float(v) for v in values]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a list of numbers, one per reward, got {values!r}") from None
    if not all(np.isfinite(out)):
        raise ValueError(f"{name} must be finite, got {out}")
    return out


def range_for(name: str, values: list[float] | None, k: int) -> np.ndarray | None:
    if values is None:
        return None
    if len(values) != k:
        raise ValueError(f"{name} has {len(values)} value(s) but scores have {k} reward column(s)")
    return np.asarray(values, dtype=np.float64)


def saturation_weighted_advantages(
    scores: np.ndarray, index: GroupIndex, weights: np.ndarray, level: np.ndarray, gamma: float, batch_norm: bool
) -> np.ndarray:
    """GDPO with weights w_k (1 - s_k)^γ (shared by SA-GDPO and SA-MRPO)."""
    per_reward = standardise_per_group(scores, index, eps=1e-4, ddof=1)
    discounted = weights * (1.0 - level) ** gamma
    summed = nan_to_zero(per_reward) @ discounted
    summed[all_nan_rows(scores)] = np.nan
    return batch_normalise(summed, "sample" if batch_norm else "none")


class SelfAdaptiveGDPOCombiner(GroupedCombiner):
    """GDPO with weights w_k (1 - s_k)^γ, s_k the batch saturation of objective k (NVlabs SA-GDPO).

    Args:
        gamma: exponent of the saturation discount (1 - s_k)^gamma
        reward_mins: the known minimum of each reward, one value per reward in config order; null: the batch's own
        reward_maxs: the known maximum of each reward, one value per reward in config order; null: the batch's own
        none_policy: a None reward: exclude (out of every statistic) or zero (a reward of 0, as the fork)
    """

    type_name = "sa_gdpo"
    exactness = "exact"
    description = "SA-GDPO: GDPO with objective weights discounted by batch saturation (NVlabs/GDPO @41f74c5)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"none_policy": "zero"}, {"gamma": 2.0, "reward_mins": None})
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact (NVlabs/GDPO @41f74c5)"
    summary = "GDPO with weights w_k (1 − s_k)^γ, s_k = batch saturation"
    key_parameters = "`gamma` 1, `reward_mins`/`reward_maxs` (default: batch min/max), `none_policy` exclude \\| zero"
    bound_text = "(N − 1)/√N after the batch normalisation (K = 1: (n − 1)/√n)"

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return k == 1  # saturation is a batch level of each reward

    @classmethod
    def none_is_zero(cls, params: dict) -> bool:
        return params.get("none_policy") == "zero"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return z_bound(facts.n) if facts.k == 1 else z_bound(facts.N)

    def __init__(
        self,
        gamma: float = 1.0,
        reward_mins: Sequence[float] | None = None,
        reward_maxs: Sequence[float] | None = None,
        none_policy: str = "exclude",
    ) -> None:
        check_positive("gamma", gamma, allow_zero=True)
        check_choice("none_policy", none_policy, ("exclude", "zero"))
        self.gamma = float(gamma)
        self.reward_mins = check_range("reward_mins", reward_mins)
        self.reward_maxs = check_range("reward_maxs", reward_maxs)
        self.none_policy = none_policy

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        if self.none_policy == "zero":
            scores = np.nan_to_num(scores, nan=0.0)
        k = scores.shape[1]
        if k == 1:  # the fork applies (SA-)GDPO only when K > 1
            return standardise_per_group(scores[:, 0] * weights[0], index, eps=1e-4, ddof=1)
        observed_min, observed_max = batch_range(scores)
        mins = range_for("reward_mins", self.reward_mins, k)
        maxs = range_for("reward_maxs", self.reward_maxs, k)
        level = saturation(column_means(scores), observed_min if mins is None else mins, observed_max if maxs is None else maxs)
        return saturation_weighted_advantages(scores, index, weights, level, self.gamma, batch_norm=True)
