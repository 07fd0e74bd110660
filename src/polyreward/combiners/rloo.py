"""RLOO: REINFORCE with a leave-one-out baseline.

Source: TRL ``RLOOTrainer`` (Ahmadian et al. 2024, "Back to Basics"). Exact.

    r_i = Σ_k w_k R_ik                         (nansum; all-None rows excluded, A = 0)
    b_i = (Σ_{j∈g} r_j - r_i) / (k - 1)         k = number of valid rollouts in the group
    A_i = r_i - b_i = k/(k-1) · (r_i - mean_g r)
    k = 1 -> b = 0 (plain REINFORCE, A = r)    singleton="raw" (default; old TRL API, verl ``rloo``)
          -> A = 0                              singleton="zero" (TRL 1.16 ``RLOOTrainer``: 0/0 -> NaN -> 0)
    normalize=True:  A <- (A - mean_B A) / (std_B A + eps)   (nan-aware, Bessel; eps = 1e-4 as TRL 1.16
                     ``normalize_advantages``; the pre-1.0 TRL RLOOTrainer whitened with eps = 1e-8)

TRL 1.16 ``RLOOTrainer`` (beta=0, no reward clipping) = ``RLOOCombiner(singleton="zero")`` (with
``normalize=True`` for its ``normalize_advantages=True``);
verl 0.9.1 ``compute_rloo_outcome_advantage`` = ``RLOOCombiner()``. (verl's ``rloo_vectorized`` gives a
single-rollout group 0, i.e. ``singleton="zero"``.)

Bound: |A| <= the group's range max r - min r (k/(k-1) |r - mean| never exceeds it; |r| for a lone rollout
with singleton="raw"); normalize=True: |A| <= (N - 1)/sqrt(N), N the scored rollouts of the batch.

A zero-variance group gives A = 0 exactly. The KL term of TRL's ``rlhf_reward`` (score - β·KL) belongs to
the trainer and is not part of this combiner.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import centred_batch, group_moments
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound


class RLOOCombiner(GroupedCombiner):
    """A_i = r_i - mean of the other rollouts of the group (optionally batch-normalised).

    Args:
        normalize: whiten the advantages over the batch afterwards (TRL normalize_advantages)
        eps: added to the batch std when normalising
        singleton: a one-rollout group: raw (A = r, plain REINFORCE, as verl) or zero (as TRL 1.16)
    """

    type_name = "rloo"
    exactness = "exact"
    description = "RLOO: reward minus the leave-one-out mean of the group (TRL RLOOTrainer)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"normalize": True}, {"singleton": "zero", "eps": 1e-4})
    lone_rollout_zero = False
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact (verl / [RLOO](reference/algorithms.md#rloo); TRL 1.16 with `singleton: zero`)"
    summary = "r − leave-one-out mean; k = 1 → A = r"
    key_parameters = "`normalize` false, `eps` 1e-4 (TRL 1.16 `normalize_advantages`), `singleton`: raw \\| zero"
    bound_text = "Δ (\\|r\\| for a lone rollout with `singleton: raw`, the default; with `normalize`: (N − 1)/√N)"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return not params.get("normalize")  # the batch normalisation shifts every row

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        if params.get("normalize"):
            return z_bound(facts.N)
        return facts.range + (facts.lone_total if params.get("singleton", "raw") == "raw" else 0.0)

    def __init__(self, normalize: bool = False, eps: float = 1e-4, singleton: str = "raw") -> None:
        check_positive("eps", eps, allow_zero=True)
        check_choice("singleton", singleton, ("raw", "zero"))
        self.normalize = bool(normalize)
        self.eps = float(eps)
        self.singleton = singleton

    @property
    def reward_scale(self) -> str:
        """Leave-one-out differences scale with the rewards; whitened ones do not (:mod:`polyreward.combiners.magnitudes`)."""
        return "invariant" if self.normalize else "equivariant"

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        count, _, _, deviation = group_moments(total, index)
        k = index.broadcast(count)
        with np.errstate(invalid="ignore", divide="ignore"):
            # TRL 1.16: 0/0 = NaN, so a lone rollout also stays out of the batch normalisation (then A = 0).
            alone = total if self.singleton == "raw" else np.full_like(total, np.nan)
            advantages = np.where(k > 1, deviation * k / (k - 1), alone)
        if self.normalize:
            centred, batch_std = centred_batch(advantages)
            advantages = centred / (batch_std + self.eps)
        return advantages
