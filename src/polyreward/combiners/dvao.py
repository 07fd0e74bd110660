"""DVAO: per-objective group normalisation with variance-adaptive objective weights.

Paper: Jiang, Song, Quan, Hao, Liu, Zhang, "Dynamic Variance-adaptive Advantage Optimization",
arXiv 2605.25604 (2026). RECONSTRUCTED from the abstract and secondary summaries; no code
or full text was available. Confidence in the exact weight formula is low.

Reconstruction ("DVAO-σ", the default ``weighting="std"``), per group g and objective k:

    σ_k  = std_G(w_k r^k)                   (Bessel; NaN cells excluded; undefined -> 0)
    Â^k_i = (w_k r^k_i - mean_G(w_k r^k)) / (σ_k + ε)
    ω_k  = σ_k / sqrt(Σ_j σ_j² + ε)          (Σ_k ω_k² = 1)
    A_i  = Σ_k ω_k Â^k_i  ≈  Σ_k w_k (r^k_i - μ_k) / sqrt(Σ_j σ_j²)

``weighting="variance"``: ω_k = σ_k² / (Σ_j σ_j² + ε).

Assumptions (documented, unverified against the paper):
- the user weights w_k scale the rewards *before* the adaptive weighting (DVAO applied to w_k r^k);
- ε = 1e-6; std with Bessel correction like GRPO; no batch-level normalisation afterwards;
- a NaN (not applicable) cell contributes 0 and is excluded from μ_k and σ_k.
Properties: E_G[A] = 0; E_G[A²] ∈ [0, K] (= 1 for uncorrelated objectives); objectives with a larger
within-group spread weigh more; all σ_k = 0 -> A ≡ 0; K = 1 -> GRPO.
Bound: |A| <= sqrt(K) (n - 1)/sqrt(n) for "std" (Cauchy-Schwarz with Σ ω² <= 1 and each |Â^k| <= (n - 1)/sqrt(n)),
|A| <= (n - 1)/sqrt(n) for "variance" (Σ ω <= 1); n = valid rollouts of the group.
"""

from __future__ import annotations

import math

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import all_nan_rows, group_moments, nan_to_zero
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.combiners.bounds import BatchFacts, z_bound


class DVAOCombiner(GroupedCombiner):
    """Per-objective group normalisation with weights proportional to each objective's group std (reconstruction).

    Args:
        weighting: objective weights proportional to each objective's group std (std) or variance (variance)
        eps: added to each standard deviation it divides by
    """

    type_name = "dvao"
    exactness = "reconstructed"
    description = "DVAO: per-objective normalisation, weights adapt to each objective's within-group std (arXiv 2605.25604)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"weighting": "variance"})
    exactness_note = "reconstructed"
    summary = "per-objective normalisation, weights ∝ within-group std (or variance)"
    key_parameters = "`weighting` std \\| variance, `eps` 1e-6"
    bound_text = "√K·(n − 1)/√n (`variance` weighting: (n − 1)/√n)"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return (math.sqrt(facts.k) if params.get("weighting", "std") == "std" else 1.0) * z_bound(facts.n)

    def __init__(self, weighting: str = "std", eps: float = 1e-6) -> None:
        check_choice("weighting", weighting, ("std", "variance"))
        check_positive("eps", eps)
        self.weighting = weighting
        self.eps = float(eps)

    reward_scale = "invariant"  # per-objective z-scores (:mod:`polyreward.combiners.magnitudes`)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        x = scores * weights
        _, _, std, deviation = group_moments(x, index, ddof=1)
        sigma = np.where(np.isnan(std), 0.0, std)  # (groups, K)
        # ω from σ / max_k σ so that σ² cannot overflow (1e300 rewards) -- the same numbers otherwise
        peak = sigma.max(axis=1, keepdims=True) if sigma.shape[1] else np.ones((len(sigma), 1))
        peak = np.where(peak > 0, peak, 1.0)
        unit = sigma / peak
        with np.errstate(over="ignore", divide="ignore"):
            total_var = (unit * unit).sum(axis=1, keepdims=True) + self.eps / (peak * peak)
        if self.weighting == "std":
            omega = unit / np.sqrt(total_var)
        else:
            omega = unit * unit / total_var
        normalised = deviation / (index.broadcast(sigma) + self.eps)
        contributions = nan_to_zero(normalised * index.broadcast(omega))
        advantages = contributions @ np.ones(scores.shape[1])
        advantages[all_nan_rows(scores)] = np.nan
        return advantages
