"""EDGE-GRPO's entropy-driven advantage (EDA): GRPO's advantage divided by the rollout's mean token entropy, relative
to the batch's mean entropy, so confident rollouts get larger updates than uncertain ones. RECONSTRUCTED.

Source: Zhang et al. 2025, "EDGE-GRPO: Entropy-Driven GRPO with Guided Error Correction for Advantage Diversity",
arXiv 2507.21848; code ZhangXJ199/EDGE-GRPO ``trl_edge/trainer/grpo_aha_trainer.py`` (``_compute_loss`` with
``EDA``; the group advantage of ``_generate_and_score_completions``).

    r_i   = Σ_k w_k R_ik (nansum; a row where every reward is None is left out, A = 0)
    Â_i   = (r_i - mean_G r) / (std_G r + 1e-4)                 (TRL's GRPO, Bessel std; scale_rewards=False: r - mean)
    H_i   = the rollout's mean token entropy (the per-row ``entropy`` column)
    A_i   = Â_i / H_i · mean_B(H)                                 (mean over the scored rollouts of the batch)

Why reconstructed: the release computes H_i inside its loss, from the policy being trained, on each micro-batch (the
mean over every position of the padded completion, padding included) and without detaching it, so gradient flows
through 1/H_i, and mean_B is over the gathered micro-batch. A combiner gets the entropies as data (e.g. from the
sampling policy's log-probabilities, over the response tokens), normalises over the batch it is given and passes no
gradient through them. The formula on those inputs is the release's. Guided Error Correction, the paper's other
half, edits wrong completions before training and is not an advantage estimator.

Edge cases: a constant group and a lone rollout get 0 (GRPO's term); an entropy that is missing (None/NaN) for a
scored row, negative, zero or not finite is a one-line ValueError (the release would divide by it).

Bound: |A_i| <= (n - 1)/sqrt(n) · mean_B(H) / H_i (n - 1)/sqrt(n) the z-score bound (Δ without scale_rewards).
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


class EDGEGRPOCombiner(GroupedCombiner):
    """GRPO's advantage × mean batch entropy / the rollout's entropy (EDGE-GRPO's EDA); reads ``entropy`` per row.

    Args:
        scale_rewards: divide r - group mean by the group std + eps
        eps: added to the group std (1e-4, TRL's)
    """

    type_name = "edge_grpo"
    exactness = "reconstructed"
    description = "EDGE-GRPO entropy-driven advantage: GRPO advantage × batch mean entropy / rollout entropy (RECONSTRUCTED)"
    row_columns = ("entropy",)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"scale_rewards": False})
    example_row_values = {"entropy": (0.05, 0.3, 1.0, 2.7)}  # each rollout's mean token entropy (> 0)
    exactness_note = (
        "reconstructed (EDGE-GRPO's entropy-driven advantage on given entropies), reads a per-row `entropy`"
    )
    summary = "GRPO's advantage × mean batch entropy / the rollout's mean token entropy: confident rollouts move more"
    key_parameters = "`scale_rewards` true, `eps` 1e-4; `columns: {entropy: <column>}`"
    bound_text = "(n − 1)/√n · mean_B(H)/H_i (Δ · the same without `scale_rewards`)"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        # GRPO's bound × the batch's mean entropy / the row's
        entropy = np.asarray(facts.extra["entropy"], dtype=float)
        scale = entropy[facts.scored].mean() / entropy if facts.scored.any() else np.zeros_like(entropy)
        return (z_bound(facts.n) if params.get("scale_rewards", True) else facts.range) * scale

    def __init__(self, scale_rewards: bool = True, eps: float = 1e-4) -> None:
        check_positive("eps", eps, allow_zero=True)
        self.scale_rewards = bool(scale_rewards)
        self.eps = float(eps)

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, entropy: Any) -> Any:
        """Advantages (N,); ``entropy`` (N,) each rollout's mean token entropy (> 0)."""
        matrix = as_score_matrix(scores)
        w = as_weights(weights, matrix.shape[1])
        index = GroupIndex.from_ids(groups, len(matrix))
        total = weighted_total(matrix * overflow_scale(matrix, w), w)
        entropies = _entropies(entropy, len(matrix), ~np.isnan(total))
        if self.scale_rewards:
            group_term = standardise_per_group(total, index, self.eps, ddof=1)
        else:
            group_term = group_moments(weighted_total(matrix, w), index)[3]
        scored = ~np.isnan(total)
        group_term = np.where(np.isnan(group_term) & scored, 0.0, group_term)  # a lone rollout: 0, as TRL
        if scored.any():
            group_term = group_term / np.where(scored, entropies, 1.0) * entropies[scored].mean()
        with np.errstate(invalid="ignore"):
            if np.isinf(group_term).any():
                raise ValueError("edge_grpo: advantages exceed the float64 range (an entropy far below the batch mean)")
        return to_output(np.where(np.isnan(group_term), 0.0, group_term), scores)


def _entropies(values: Any, n: int, scored: np.ndarray) -> np.ndarray:
    """(N,) float64 entropies; a one-line ValueError unless every scored row has a finite entropy > 0."""
    raw = values.detach().cpu().numpy() if hasattr(values, "detach") else values
    items = list(raw) if not isinstance(raw, np.ndarray) or raw.dtype == object else raw
    try:
        out = np.asarray([np.nan if v is None else v for v in items] if isinstance(items, list) else items, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("entropy must hold one number per rollout: its mean token entropy") from None
    if out.shape != (n,):
        raise ValueError(f"entropy must hold {n} values (one per rollout), got shape {out.shape}")
    bad = scored & ~(np.isfinite(out) & (out > 0))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"entropy must be a finite number > 0 for every scored rollout; row {row} has {float(out[row])}")
    return out
