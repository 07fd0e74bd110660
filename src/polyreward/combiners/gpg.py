"""GPG (Group Policy Gradient): the group-mean-centred reward, scaled up by the share of zero-reward rollouts.

Source: verl 0.9.1 ``verl/trainer/ppo/core_algos.py`` ``compute_gpg_outcome_advantage``
(``algorithm.adv_estimator=gpg``; method of Chu et al. 2025, arXiv 2504.02546, code AMAP-ML/GPG). Exact.

    r_i   = Σ_k w_k R_ik              (nansum; a row where every reward is None is left out, A = 0)
    α     = B / max(M, 1)             B = rollouts of the batch, M = those with r_i != 0 (exactly)
    A_i   = α (r_i - mean_{j∈g} r_j) / f_norm     (a group of one valid rollout: mean 0, A_i = α r_i / f_norm)

verl computes a group std as well but does not use it; ``f_norm`` is 1 in verl's trainer (its default).
B and M count the scored rows (a row where no reward applies takes part in neither). α corrects the
gradient for rollouts that carry no signal: when most rewards are 0 the rest are scaled up.

A constant group gives A = 0 exactly (the shared constant rule).

Bound: |A| <= B · (the group's range max r - min r) / f_norm (α <= B); B |r| / f_norm for a lone rollout.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts


class GPGCombiner(GroupedCombiner):
    """A_i = B / max(#nonzero rewards, 1) · (r_i - group mean) / f_norm; verl ``gpg``.

    Args:
        f_norm: the divisor of every advantage (verl's ``f_norm``, 1 by default)
    """

    type_name = "gpg"
    exactness = "exact"
    description = "GPG: (r - group mean) scaled by batch size / nonzero-reward count (verl gpg, arXiv 2504.02546)"
    reward_scale = "equivariant"  # α depends only on which rewards are 0 (:mod:`polyreward.combiners.magnitudes`)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"f_norm": 2.5})
    lone_rollout_zero = False
    reference_test = "tests/test_estimators_verl.py"  # the comparison with the source's code
    exactness_note = "exact (verl `gpg`)"
    summary = "α (r − mean_G) / f_norm, α = N / #(r ≠ 0) (a lone rollout: mean 0)"
    key_parameters = "`f_norm` 1"
    bound_text = "N·Δ/f_norm (α ≤ N; N·\\|r\\|/f_norm for a lone rollout)"

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # alpha counts the rewards that are exactly 0

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return facts.N * (facts.range + facts.lone_total) / params.get("f_norm", 1.0)

    def __init__(self, f_norm: float = 1.0) -> None:
        check_positive("f_norm", f_norm)
        self.f_norm = float(f_norm)

    def _params(self) -> dict:
        return {} if self.f_norm == 1.0 else {"f_norm": self.f_norm}

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        valid = ~np.isnan(total)
        alpha = valid.sum() / max(int(np.count_nonzero(total[valid])), 1)
        count, _, _, deviation = group_moments(total, index)
        centred = np.where(index.broadcast(count) == 1, total, deviation)  # verl: a lone rollout's mean is 0
        with np.errstate(over="ignore"):
            return alpha * centred / self.f_norm
