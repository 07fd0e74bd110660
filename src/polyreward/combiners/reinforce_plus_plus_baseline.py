"""REINFORCE++-baseline: reward minus the group mean, then whitened over every response token of the batch.

Source: verl 0.9.1 ``verl/trainer/ppo/core_algos.py`` ``compute_reinforce_plus_plus_baseline_outcome_advantage``
(``algorithm.adv_estimator=reinforce_plus_plus_baseline``) with ``verl/utils/torch_functional.py``
``masked_whiten``; method of Hu et al. 2025, arXiv 2501.03262. Exact.

    r_i = Σ_k w_k R_ik                      (nansum; a row where every reward is None is left out, A = 0)
    d_i = r_i - mean_{j∈g} r_j              (a group of one valid rollout has mean 0: d_i = r_i)
    verl tiles d_i over the response tokens and whitens over the batch's tokens, l_i = token count of row i,
    T = Σ_i l_i:
    μ   = Σ_i l_i d_i / (T + 1e-8)
    σ²  = Σ_i l_i (d_i - μ)² / (T + 1e-8) · T / (T - 1)
    A_i = (d_i - μ) / sqrt(σ² + 1e-8)

Without ``lengths`` every rollout counts as one token (a sequence-level whitening, l_i = 1); every entry
point of the project hands the response token counts (:attr:`uses_lengths`). Per token verl's advantage is
A_i on each of row i's response tokens and 0 elsewhere: this combiner's ``A_i`` is that per-sequence value.

Edge cases: T <= 1 (verl raises in ``masked_var``) gives A = 0; a batch whose deviations are all equal
(every group constant) gives A = 0 exactly, where verl's T + 1e-8 denominator leaves ~1e-4·d/T; a
zero-length row gets the value its deviation would have (verl masks it to 0 on its no tokens).

Bound (rows with tokens): |A| <= (T - 1)/sqrt(T), a Bessel z-score of T token values.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.gdpo import batch_normalise
from polyreward.combiners.length_weighted import LengthWeightedCombiner


class ReinforcePlusPlusBaselineCombiner(LengthWeightedCombiner):
    """A = token-weighted batch whitening of (r - group mean); verl ``reinforce_plus_plus_baseline``."""

    type_name = "reinforce_plus_plus_baseline"
    exactness = "exact"
    description = "REINFORCE++-baseline: r - group mean, whitened over the batch's tokens (verl reinforce_plus_plus_baseline)"
    reward_scale = "invariant"  # a whitening (:mod:`polyreward.combiners.magnitudes`)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({},)
    lone_rollout_zero = False
    reference_test = "tests/test_estimators_verl.py"  # the comparison with the source's code
    exactness_note = "exact (verl `reinforce_plus_plus_baseline`)"
    summary = "r − mean_G (a lone rollout: mean 0), whitened over the batch's response tokens; reads token `lengths`"
    key_parameters = "none"
    bound_text = "(T − 1)/√T over the T response tokens of the batch (a whitening)"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return False  # the batch whitening shifts every row

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return np.full(np.shape(facts.n), z_bound(facts.T))  # a whitening over the batch's T tokens

    # ``lengths``: (N,) response token counts weigh the batch whitening.
    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray,
                    lengths: np.ndarray | None) -> np.ndarray:
        total = weighted_total(scores, weights)
        count, _, _, deviation = group_moments(total, index)
        deviation = np.where(index.broadcast(count) == 1, total, deviation)  # verl: a lone rollout's mean is 0
        return batch_normalise(deviation, "whiten", lengths)
