"""GRPO: weighted sum of the rewards, then normalise within the group ("sum_then_normalize").

Source: TRL 1.16 ``GRPOTrainer._generate_and_score_completions`` with
``multi_objective_aggregation="sum_then_normalize"`` (the default), ``scale_rewards`` group | batch | none
Exact.

    r_i = Σ_k w_k R_ik            (nansum: a None reward adds 0; a row where every reward is None is NaN)
    μ_g = nanmean_{i∈g} r_i
    σ   = nanstd_{i∈g} r (scale="group")  |  nanstd over the batch (scale="batch")   (Bessel, n-1)
    A_i = (r_i - μ_g) / (σ + eps)      (scale="none": A_i = r_i - μ_g)

Edge cases (as TRL): a group with zero variance gives A = 0 exactly; a group (or batch) with one valid
value has an undefined std and gives A = 0; rows where every reward is None get A = 0 and are left out
of the statistics. ``singleton="raw"`` switches to verl's convention instead (a single-rollout group has
mean 0 and std 1, so A = r / (1 + eps), or A = r with scale="none"); verl also uses ``eps=1e-6``:
``GRPOCombiner(eps=1e-6, singleton="raw")`` = verl ``compute_grpo_outcome_advantage`` and
``GRPOCombiner(scale="none", singleton="raw")`` = the same with ``norm_adv_by_std_in_grpo=False``.

Bounds (n valid rollouts of the group, N of the batch, Δ the group's range max r - min r): scale="group"
|A| <= (n - 1)/sqrt(n) (a Bessel z-score never exceeds it); scale="batch" |A| <= sqrt(2 (N - 1)) (a group
deviation is at most the batch range, and a Bessel std is at least range/sqrt(2(N - 1))); scale="none"
|A| <= Δ; singleton="raw" lone rollouts get |r| (/(1 + eps)).
"""

from __future__ import annotations

import math

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments, nan_mean_std, standardise_per_group
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.magnitudes import scaled_advantages

SCALES = ("group", "batch", "none")


class GRPOCombiner(GroupedCombiner):
    """Weighted sum, then (r - group mean) / (std + eps); TRL's default multi-reward GRPO advantage.

    Args:
        scale: divide by the group's std (group), the batch's std (batch) or nothing (none)
        eps: added to the standard deviation it divides by
        singleton: a one-rollout group: zero (A = 0, as TRL) or raw (A = r / (1 + eps), as verl)
    """

    type_name = "grpo"
    exactness = "exact"
    reads_float32 = True  # only the weighted total reads the scores, and it widens each float32 product itself
    description = "GRPO: weighted reward sum normalised per group (TRL sum_then_normalize; scale group|batch|none)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"scale": "batch"}, {"scale": "none"}, {"eps": 1e-6, "singleton": "raw"})
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact (TRL `sum_then_normalize`)"
    summary = "weighted nansum, then (r − mean_G)/(std_G + eps)"
    key_parameters = "`scale`: group \\| batch \\| none; `eps` 1e-4; `singleton`: zero \\| raw (verl)"
    bound_text = (
        "scale group: (n − 1)/√n; batch: √(2(N − 1)); none: Δ (a lone rollout with `singleton: raw`: \\|r\\|)"
    )

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return params.get("scale", "group") != "batch"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        zn = z_bound(facts.n)
        scale = params.get("scale", "group")
        base = {"group": zn, "batch": np.full_like(zn, math.sqrt(2 * max(facts.N - 1, 0))), "none": facts.range}[scale]
        return base + (facts.lone_total if params.get("singleton") == "raw" else 0.0)

    def __init__(self, scale: str = "group", eps: float = 1e-4, singleton: str = "zero") -> None:
        check_choice("scale", scale, SCALES)
        check_choice("singleton", singleton, ("zero", "raw"))
        check_positive("eps", eps, allow_zero=True)
        self.scale = scale
        self.eps = float(eps)
        self.singleton = singleton

    @property
    def reward_scale(self) -> str | None:
        """How A follows rewards multiplied by c > 0 (:mod:`polyreward.combiners.magnitudes`): r - mean scales with
        them; z-scores do not; verl's lone rollouts (r / (1 + eps)) beside z-scores do neither."""
        if self.scale == "none":
            return "equivariant"
        return "invariant" if self.singleton == "zero" else None

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        return scaled_advantages(self, self._advantages, scores, index, weights)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        if self.scale == "group":
            return standardise_per_group(total, index, self.eps, ddof=1, singleton=self.singleton)
        count, _, _, centred = group_moments(total, index)
        if self.singleton == "raw":
            centred = np.where(index.broadcast(count) == 1, total, centred)  # verl: a lone rollout has mean 0
        if self.scale == "none":
            return centred
        # TRL: batch std over every row; a batch of a single row has std 0.
        std = nan_mean_std(total)[2] if len(total) > 1 else 0.0
        return centred / (std + self.eps)
