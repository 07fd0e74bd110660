"""RLOO: REINFORCE with a leave-one-out baseline.

Source: TRL ``RLOOTrainer`` (Ahmadian et al. 2024, "Back to Basics"); ALGORITHMS.md §12. Exact.

    r_i = Σ_k w_k R_ik                         (nansum; all-None rows excluded, A = 0)
    b_i = (Σ_{j∈g} r_j - r_i) / (k - 1)         k = number of valid rollouts in the group
    A_i = r_i - b_i = k/(k-1) · (r_i - mean_g r)
    k = 1 -> b = 0 (plain REINFORCE, A = r)
    normalize=True:  A <- (A - mean_B A) / (std_B A + 1e-8)   (TRL ``normalize_advantage``)

A zero-variance group gives A = 0 exactly. The KL term of TRL's ``rlhf_reward`` (score - β·KL) belongs to
the trainer and is not part of this combiner.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners._groups import GroupedCombiner, GroupIndex, check_positive, group_mean_std, nan_mean_std, weighted_total


class RLOOCombiner(GroupedCombiner):
    """A_i = r_i - mean of the other rollouts of the group (optionally batch-normalised)."""

    type_name = "rloo"
    exactness = "exact"
    description = "RLOO: reward minus the leave-one-out mean of the group (TRL RLOOTrainer)"

    def __init__(self, normalize: bool = False, eps: float = 1e-8) -> None:
        check_positive("eps", eps, allow_zero=True)
        self.normalize = bool(normalize)
        self.eps = float(eps)

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        count, mean, _ = group_mean_std(total, index)
        k = index.broadcast(count)
        with np.errstate(invalid="ignore", divide="ignore"):
            advantages = np.where(k > 1, (total - index.broadcast(mean)) * k / (k - 1), total)
        if self.normalize:
            n, batch_mean, batch_std = nan_mean_std(advantages)
            advantages = (advantages - batch_mean) / (batch_std + self.eps)
        return advantages
