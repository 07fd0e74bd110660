"""OPO: reward minus the length-weighted mean reward of the group (the optimal baseline of On-Policy RL with
Optimal reward baseline).

Source: verl 0.9.1 ``verl/trainer/ppo/core_algos.py`` ``compute_opo_outcome_advantage``
(``algorithm.adv_estimator=opo``; method of Hao et al. 2025, arXiv 2505.23585). Exact.

    r_i = Σ_k w_k R_ik                  (nansum; a row where every reward is None is left out, A = 0)
    l_i = response token count of row i (verl: ``response_mask.sum(-1)``)
    b_g = Σ_{j∈g} l_j r_j / Σ_{j∈g} l_j  (a group of one valid rollout: b_g = 0)
    A_i = r_i - b_g                      (no std division, no batch normalisation)

Without ``lengths`` every rollout counts once (b_g is the plain group mean, Dr. GRPO's advantage with
verl's lone-rollout rule); every entry point of the project hands the token counts (:attr:`uses_lengths`).

Edge cases: a constant group (the shared constant rule) gives A = 0 exactly, where the weighted mean of three
0.1s is off by an ulp; a group whose valid rollouts all have zero tokens (verl: 0/0 = NaN) takes the plain
group mean; a lone rollout gets A = r as in verl.

Bound: |A| <= the group's range max r - min r (b_g is a convex combination of the group's values); |r| for
a lone rollout.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts
from polyreward.combiners.length_weighted import LengthWeightedCombiner


class OPOCombiner(LengthWeightedCombiner):
    """A_i = r_i - (token-length-weighted group mean of r); verl ``opo``."""

    type_name = "opo"
    exactness = "exact"
    description = "OPO: reward minus the length-weighted group mean (optimal baseline, verl opo)"
    reward_scale = "equivariant"  # r - a weighted mean (:mod:`polyreward.combiners.magnitudes`)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({},)
    lone_rollout_zero = False
    reference_test = "tests/test_estimators_verl.py"  # the comparison with the source's code
    exactness_note = "exact (verl `opo`)"
    summary = "r − length-weighted group mean Σ l r / Σ l (a lone rollout: A = r); reads token `lengths`"
    key_parameters = "none"
    bound_text = "Δ (the baseline is a convex combination of the group's values; \\|r\\| for a lone rollout)"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return facts.range + facts.lone_total

    # ``lengths``: (N,) response token counts weigh the group baseline.
    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray,
                    lengths: np.ndarray | None) -> np.ndarray:
        total = weighted_total(scores, weights)
        count, _, std, deviation = group_moments(total, index)
        if lengths is None:
            weighted = deviation
        else:
            valid = ~np.isnan(total)
            tokens = index.sum(np.where(valid, lengths, 0.0))
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                baseline = index.sum(np.where(valid, lengths * total, 0.0)) / tokens
                weighted = np.where(index.broadcast(tokens > 0), total - index.broadcast(baseline), deviation)
            # a constant group: exactly 0 (its token-weighted mean can be an ulp off the common value)
            weighted = np.where(index.broadcast(std == 0.0) & valid, 0.0, weighted)
        return np.where(index.broadcast(count) == 1, total, weighted)  # verl: a lone rollout's baseline is 0
