"""MO-GRPO: sum of per-objective group-normalised advantages (no batch re-normalisation).

Paper: Ichihara, Jinnai, Morimura, Sakamoto, Mitsuhashi, Uchibe, "MO-GRPO: Mitigating Reward Hacking of
Group Relative Policy Optimization on Multi-Objective Problems", arXiv 2509.22047. RECONSTRUCTED from the
abstract and summaries; no official code was available.

    Â^k_i = (r^k_i - mean_G r^k) / (std_G r^k + eps)
    A_i   = c · Σ_k w_k Â^k_i          c = 1, or 1/K with ``average=True``
    then optionally ``post_norm``: "batch" (A - mean_B)/(std_B + 1e-4) or "group" (per group, Bessel, + eps)

Assumptions: population std (``ddof=0``) and eps = 1e-4 as in the third-party implementation the reference
cites; no post-normalisation by default. Each reward is invariant to a positive affine transform
r^k -> a r^k + b and contributes evenly. A NaN cell contributes 0 and is excluded from μ and σ; a reward
that is constant in a group contributes 0.

Bounds (n valid rollouts of the group, N of the batch): post_norm="none" |A| <= c Σ_k |w_k| sqrt(n - 1)
with ddof=0 ((n - 1)/sqrt(n) with ddof=1); "group" |A| <= (n - 1)/sqrt(n); "batch" |A| <= (N - 1)/sqrt(N).
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import all_nan_rows, nan_to_zero, standardise_per_group
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.gdpo import batch_normalise
from polyreward.combiners.magnitudes import check_finite, overflow_scale


class MOGRPOCombiner(GroupedCombiner):
    """Σ_k w_k (r^k - mean_G) / (std_G + eps), without GDPO's batch normalisation (reconstruction).

    Args:
        ddof: degrees of freedom of each per-objective std (0 population, 1 Bessel)
        eps: added to each standard deviation it divides by
        post_norm: normalise the sum again: none, batch or group
        average: divide the sum by the number of objectives K
    """

    type_name = "mo_grpo"
    exactness = "reconstructed"
    description = "MO-GRPO: sum of per-objective group-normalised advantages, no batch norm (arXiv 2509.22047)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"post_norm": "batch"}, {"post_norm": "group"}, {"ddof": 1, "average": True})
    exactness_note = "reconstructed"
    summary = "Σ_k w_k group-normalised r^k, no batch norm"
    key_parameters = "`ddof` 0, `eps` 1e-4, `post_norm` none \\| batch \\| group, `average`"
    bound_text = "Σ\\|w_k\\|·√(n − 1) (ddof 0), or (n − 1)/√n / (N − 1)/√N with group / batch post-normalisation"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        post = params.get("post_norm", "none")
        if post == "batch":
            return z_bound(facts.N)
        if post == "group":
            return z_bound(facts.n)
        per = np.sqrt(np.maximum(facts.n - 1, 0)) if params.get("ddof", 0) == 0 else z_bound(facts.n)
        return facts.abs_w.sum() * per / (facts.k if params.get("average") else 1)

    def __init__(self, ddof: int = 0, eps: float = 1e-4, post_norm: str = "none", average: bool = False) -> None:
        check_choice("ddof", ddof, (0, 1))
        check_positive("eps", eps, allow_zero=True)
        check_choice("post_norm", post_norm, ("none", "batch", "group"))
        self.ddof = int(ddof)
        self.eps = float(eps)
        self.post_norm = post_norm
        self.average = bool(average)

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        per_reward = nan_to_zero(standardise_per_group(scores, index, self.eps, ddof=self.ddof))
        # the z-scores are bounded, but weights near the float64 limit (±1e308) overflow Σ_k w_k Â^k midway (inf, or
        # NaN from inf - inf): sum at an exact power-of-two scale (polyreward.combiners.magnitudes), normalise there
        # (scale-free), and without post_norm scale back and refuse in one line what does not fit
        scale = overflow_scale(per_reward, weights)
        summed = per_reward @ (weights * scale)
        if self.average:
            summed /= scores.shape[1]
        summed[all_nan_rows(scores)] = np.nan
        if self.post_norm == "group":
            return standardise_per_group(summed, index, self.eps, ddof=1)
        if self.post_norm == "batch":
            return batch_normalise(summed, "sample")
        if scale != 1.0:
            with np.errstate(over="ignore"):
                summed = summed / scale
        check_finite(self.type_name, summed, scores)
        return summed
