"""AAPO (Advantage-Augmented Policy Optimization): GRPO's group advantage plus a clipped "advantage momentum", the
rollout's reward minus the reward of a reference model's completion of the same prompt.

Source: Xiong et al. 2025, "AAPO: Enhancing the Reasoning Capabilities of LLMs with Advantage Momentum",
arXiv 2505.14264; code JianxXiong/AAPO ``open-rs/trainer/AAPOTrainer.py`` and ``open-r1/trainer/AAPOTrainer.py``
(``_generate_and_score_completions``: ``advantages``, ``advantage_constrain``; ``compute_loss`` adds the two). Exact.

    r_i   = Σ_k w_k R_ik                                  (nansum, as the source)
    r̂_i   = the reward of the reference model's completion of row i's prompt (the per-row ``reference_reward``
            column: its weighted reward total, which the source computes with the same weights)
    A_i   = (r_i - mean_G r) / (std_G r + 1e-4)  +  clip(r_i - r̂_i, -0.2, 0.28)
            (scale_rewards=False: r_i - mean_G r instead of the z-score; std Bessel, as ``torch.std``)

The source adds the clipped momentum inside its loss (``advantages + clamp(advantage_constrain, -0.2, 0.28)``); this
combiner returns that sum, the advantage the loss uses. The reference completions are generated and scored by the
trainer (one per rollout); the combiner reads their totals from the ``reference_reward`` column (configs map another
column with ``columns: {reference_reward: <column>}``).

Edge cases: a row where no reward applies gets A = 0 (the source would count it as reward 0); a missing reference
reward (None/NaN) gives no momentum term; a constant group gets the momentum alone (its group term is 0 by the
shared constant rule; the source's float32 std leaves ~1e-4 there); a lone rollout's group term is 0 (TRL).

Bound: |A| <= (n - 1)/sqrt(n) + 0.28 (scale_rewards) or the group's range + 0.28 (without).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments, standardise_per_group
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import as_score_matrix, as_weights, check_positive, to_output
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.magnitudes import overflow_scale


class AAPOCombiner(GroupedCombiner):
    """GRPO's group z-score plus clip(r - reference reward, -clip_low, clip_high); reads ``reference_reward`` per row.

    Args:
        scale_rewards: divide r - group mean by the group std + eps (the source's ``scale_rewards``)
        clip_low: the momentum is clipped below at -clip_low (0.2 in the source)
        clip_high: the momentum is clipped above at clip_high (0.28 in the source)
        eps: added to the group std (1e-4, TRL's)
    """

    type_name = "aapo"
    exactness = "exact"
    description = "AAPO: GRPO advantage + clip(r - reference model's reward, -0.2, 0.28) (advantage momentum, arXiv 2505.14264)"
    row_columns = ("reference_reward",)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"scale_rewards": False}, {"clip_low": 1.0, "clip_high": 0.0})
    example_row_values = {"reference_reward": (0.0, 0.5, 1.0, 1 / 3, -0.6, None)}  # the reference completion's reward total
    lone_rollout_zero = False
    reference_test = "tests/test_estimators_seed_papers.py"  # the comparison with the source's code
    exactness_note = "exact (AAPO release, JianxXiong/AAPO), reads a per-row `reference_reward`"
    summary = (
        'GRPO\'s (r − mean_G)/(std_G + 1e-4) plus the clipped "advantage momentum" clip(r − r_ref, −0.2, 0.28), r_ref '
        "the reward of a reference model's completion of the same prompt"
    )
    key_parameters = (
        "`scale_rewards` true, `clip_low` 0.2, `clip_high` 0.28, `eps` 1e-4; `columns: {reference_reward: <column>}`"
    )
    bound_text = "(n − 1)/√n + max(clip_low, clip_high) (Δ + the same without `scale_rewards`)"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return False  # the momentum r - reference reward stays

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # the momentum compares r with the reference model's reward

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        clip = max(params.get("clip_low", 0.2), params.get("clip_high", 0.28))  # the group term plus the clipped momentum
        return (z_bound(facts.n) if params.get("scale_rewards", True) else facts.range) + clip

    def __init__(self, scale_rewards: bool = True, clip_low: float = 0.2, clip_high: float = 0.28, eps: float = 1e-4) -> None:
        check_positive("clip_low", clip_low, allow_zero=True)
        check_positive("clip_high", clip_high, allow_zero=True)
        check_positive("eps", eps, allow_zero=True)
        self.scale_rewards = bool(scale_rewards)
        self.clip_low = float(clip_low)
        self.clip_high = float(clip_high)
        self.eps = float(eps)

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, reference_reward: Any) -> Any:
        """Advantages (N,); ``reference_reward`` (N,) the weighted reward total of the reference completion of each row."""
        matrix = as_score_matrix(scores)
        w = as_weights(weights, matrix.shape[1])
        index = GroupIndex.from_ids(groups, len(matrix))
        reference = reference_rewards(reference_reward, len(matrix))
        result = self._advantages(matrix, index, w, reference)
        return to_output(np.where(np.isnan(result), 0.0, result), scores)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray, reference: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        if self.scale_rewards:  # a z-score does not depend on the scale: totals that would overflow, at a power of two
            scaled = weighted_total(scores * overflow_scale(scores, weights), weights)
            group_term = standardise_per_group(scaled, index, self.eps, ddof=1)
        else:
            group_term = group_moments(total, index)[3]
        group_term = np.where(np.isnan(group_term) & ~np.isnan(total), 0.0, group_term)  # a lone rollout: 0, as TRL
        with np.errstate(invalid="ignore", over="ignore"):
            momentum = np.clip(total - reference, -self.clip_low, self.clip_high)
        return group_term + np.where(np.isnan(momentum), 0.0, momentum)


def reference_rewards(values: Any, n: int) -> np.ndarray:
    """(N,) float64 reference rewards (None -> NaN); a one-line ValueError for anything that is not a number."""
    raw = values.detach().cpu().numpy() if hasattr(values, "detach") else values
    items = list(raw) if not isinstance(raw, np.ndarray) or raw.dtype == object else raw
    try:
        out = np.asarray([np.nan if v is None else v for v in items] if isinstance(items, list) else items, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("reference_reward must hold one number (or None) per rollout: the reference completion's "
                         "weighted reward total") from None
    if out.shape != (n,):
        raise ValueError(f"reference_reward must hold {n} values (one per rollout), got shape {out.shape}")
    if np.isinf(out).any():
        raise ValueError("reference_reward contains inf; use None/NaN for a missing reference reward")
    return out
