"""GRPO pass@k: only the best rollout of each group gets an advantage, its margin over the runner-up.

Source: verl 0.9.1 ``verl/trainer/ppo/core_algos.py`` ``compute_grpo_passk_outcome_advantage``
(``algorithm.adv_estimator=grpo_passk``; method of arXiv 2503.19595). Exact.

    r_i = Σ_k w_k R_ik                       (nansum; a row where every reward is None is left out, A = 0)
    per group g of n >= 2 valid rollouts, r_(1) >= r_(2) its two largest values and i* the row holding r_(1):
    A_{i*} = (r_(1) - r_(2)) / (std_g(r) + eps)     std Bessel (torch.std), eps = 1e-6 (verl's default)
    A_{i*} = r_(1) - r_(2)                          normalize=False (verl ``norm_adv_by_std_in_grpo=False``)
    A_i    = 0 for every other row

Edge cases: a group with fewer than two valid rollouts gets A = 0 (verl raises "Pass@k requires at least
2 samples per group"); a tie for the top gives A = 0 whichever row holds it (verl's ``torch.topk`` picks one
of the tied rows; its advantage is 0 either way); a constant group (the shared constant rule) gives A = 0
exactly, where a float-noise margin of one ulp would otherwise survive.

Bound: |A| <= sqrt(n) with normalize=True (the runner-up and every other value at most r_(2) leave
std >= (r_(1) - r_(2))/sqrt(n)); |A| <= the group's range max r - min r with normalize=False.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts


class GRPOPassKCombiner(GroupedCombiner):
    """The best rollout of a group gets (best - runner-up) / (std + eps); every other rollout 0.

    Args:
        normalize: divide the margin by the group's std + eps (verl ``norm_adv_by_std_in_grpo``)
        eps: added to the standard deviation it divides by
    """

    type_name = "grpo_passk"
    exactness = "exact"
    description = "GRPO pass@k: the group's best rollout gets its margin over the runner-up / std (verl grpo_passk)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"normalize": False}, {"eps": 0.0})
    reference_test = "tests/test_estimators_verl.py"  # the comparison with the source's code
    exactness_note = "exact (verl `grpo_passk`)"
    summary = (
        "only each group's best rollout gets (r_max − r_second)/(std_G + eps), every other 0; a group of one gets 0 "
        "(verl raises)"
    )
    key_parameters = "`normalize` true, `eps` 1e-6"
    bound_text = "√n (normalize: the runner-up and every other value at most it leave std ≥ margin/√n); Δ without"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return np.sqrt(facts.n) if params.get("normalize", True) else facts.range

    def __init__(self, normalize: bool = True, eps: float = 1e-6) -> None:
        check_positive("eps", eps, allow_zero=True)
        self.normalize = bool(normalize)
        self.eps = float(eps)

    @property
    def reward_scale(self) -> str:
        """A margin scales with the rewards; a margin over the std does not (:mod:`polyreward.combiners.magnitudes`)."""
        return "invariant" if self.normalize else "equivariant"

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        advantages = np.where(np.isnan(total), np.nan, 0.0)
        if index.n == 0:
            return advantages
        count, _, std, _ = group_moments(total, index)
        # ascending within each group, NaN last: a group's valid values occupy its first `count` positions
        order = index.order_within(total)
        first = index.first_positions()
        scored = np.flatnonzero(count >= 2)
        n = count[scored].astype(np.intp)
        best = order[first[scored] + n - 1]
        runner_up = order[first[scored] + n - 2]
        margin = total[best] - total[runner_up]
        margin = np.where(std[scored] == 0.0, 0.0, margin)  # a constant group (shared rule): no float-noise margin
        if self.normalize:
            with np.errstate(invalid="ignore", divide="ignore"):  # eps = 0 on a constant group: 0/0, kept 0
                margin = np.where(margin == 0.0, 0.0, margin / (std[scored] + self.eps))
        advantages[best] = margin
        return advantages
