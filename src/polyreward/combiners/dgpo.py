"""DGPO (MathForge): difficulty-balanced group advantages (mean absolute deviation instead of the std) and
difficulty-aware question weights (a softmax that favours groups with a low mean accuracy).

Source: Dai et al. 2026, "Harder Is Better: Boosting Mathematical Reasoning via Difficulty-Aware GRPO and Multi-Aspect
Question Reformulation", arXiv 2601.20614; code AMAP-ML/MathForge @83edda0 ``trl-0.20.0/trl/trainer/grpo_trainer.py``
(``enable_dgpo``, ``enable_dgpo_dqw``, ``dgpo_dqw_temp`` = 2.0 as its run_dgpo.sh). Exact on one process.

    r_i   = Σ_k w_k R_ik (nansum; a row where every reward is None is left out, A = 0);  n_g the group's rollouts
    zero_g  ⇔ isclose(std_g(r), 0) (Bessel std <= 1e-8), or n_g <= 1
    DGAE:  A_i = n_g (r_i - mean_g r) / (Σ_{j∈g} |r_j - mean_g r| + 1e-4)      (scale_rewards=False: r_i - mean_g r)
    ratio = Σ_i l_i / Σ_{i in groups not zero} l_i    (l_i the completion token counts; 1 when every group is zero)
    DQW:   m_g = mean_g of the first reward R_i0 (unweighted, the source's "main" reward), m'_g = 1 where isclose(m_g, 0)
           u_g = G' · softmax_{g not zero}(-m'_g / T) with G' the number of groups that are not zero;  u_g = 1 for zero groups
    A_i  ← A_i · ratio · u_g                                                   (dqw=False: A_i · ratio)

DGAE gives every group the same total |A| (n_g), where GRPO's std lets easy and hard groups differ; DQW then shifts
weight to the groups the policy solves least (T = 2). A constant group gets 0.

The source multiplies each process's slice by ``num_processes · its tokens / all tokens`` after slicing; that factor
is 1 on one process and rescales per-process loss normalisation, so it is left to the loss. Deviations, for rows the
source has no notion of: a row where no reward applies is left out of every statistic (the source's nansum makes it
reward 0); a group whose first reward is None everywhere counts as unsolved (m' = 1); a lone rollout is a zero group
(the source's groups have num_generations >= 2).

Bound: |A_i| <= n_g/2 · ratio · G' (positive and negative deviations of a group have equal sums, so one deviation is at
most half of Σ|dev|; a softmax weight is at most 1); without scale_rewards the group's range in place of n_g/2.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments
from polyreward.combiners.inputs import check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts
from polyreward.combiners.length_weighted import LengthWeightedCombiner

ISCLOSE_ATOL = 1e-8  # torch.isclose(x, 0)'s default atol, which the source uses for "std is zero" and "accuracy is zero"


class DGPOCombiner(LengthWeightedCombiner):
    """MathForge DGPO: n (r - mean)/(Σ|r - mean| + 1e-4) per group, × token ratio × difficulty softmax weight.

    Args:
        scale_rewards: divide by the group's summed absolute deviation (DGAE); False keeps r - mean
        dqw: apply the difficulty-aware question weights
        temperature: the softmax temperature T of the question weights
    """

    type_name = "dgpo"
    exactness = "exact"
    description = "MathForge DGPO: mean-absolute-deviation group advantages, weighted towards hard questions (arXiv 2601.20614)"
    reward_scale = None  # the question weights read the first reward's raw level

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"scale_rewards": False}, {"dqw": False, "temperature": 0.5})
    reference_test = "tests/test_estimators_seed_papers.py"  # the comparison with the source's code
    exactness_note = "exact (MathForge release, one process); reads token `lengths`"
    summary = (
        "n (r − mean_G)/(Σ_G \\|r − mean_G\\| + 1e-4) (every group the same total \\|A\\|), × all tokens / tokens of "
        "groups with signal, × G'·softmax(−accuracy/T) over those groups (accuracy: the first reward's group mean; 0 "
        "counts as 1)"
    )
    key_parameters = "`scale_rewards` true, `dqw` true, `temperature` 2"
    bound_text = (
        "n/2 · ratio · G' (ratio = all tokens / tokens of groups with signal, G' those groups; the range in place of "
        "n/2 without `scale_rewards`)"
    )

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return column != 0  # the question weights read the first reward's group mean

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        # n/2 (or the range) × the token ratio (<= T over tokens >= 1) × a softmax weight (<= groups)
        groups = len(np.unique(facts.groups))
        return (facts.n / 2 if params.get("scale_rewards", True) else facts.range) * facts.T * groups

    def __init__(self, scale_rewards: bool = True, dqw: bool = True, temperature: float = 2.0) -> None:
        check_positive("temperature", temperature)
        self.scale_rewards = bool(scale_rewards)
        self.dqw = bool(dqw)
        self.temperature = float(temperature)

    # ``lengths``: (N,) completion token counts (the ratio of all tokens to the informative ones).
    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray,
                    lengths: np.ndarray | None) -> np.ndarray:
        total = weighted_total(scores, weights)
        valid = ~np.isnan(total)
        count, _, std, deviation = group_moments(total, index)
        with np.errstate(invalid="ignore"):
            zero = (count <= 1) | (std <= ISCLOSE_ATOL)
        if self.scale_rewards:
            spread = index.sum(np.where(valid, np.abs(deviation), 0.0))  # Σ_g |r - mean|
            with np.errstate(invalid="ignore", over="ignore"):
                deviation = index.broadcast(count) * deviation / index.broadcast(spread + 1e-4)
        advantages = np.where(index.broadcast(zero), np.where(valid, 0.0, np.nan), deviation)
        tokens = np.where(valid, 1.0 if lengths is None else lengths, 0.0)
        informative = tokens[~index.broadcast(zero)].sum()
        ratio = tokens.sum() / informative if informative > 0 else 1.0
        advantages = advantages * ratio
        if self.dqw and (~zero).any():
            advantages = advantages * index.broadcast(self._question_weights(scores[:, 0], index, zero))
        return advantages

    def _question_weights(self, main: np.ndarray, index: GroupIndex, zero: np.ndarray) -> np.ndarray:
        """u_g: G' · softmax(-m'_g / T) over the groups with signal, 1 for the rest."""
        _, accuracy, _, _ = group_moments(main, index)
        accuracy = np.where(np.isnan(accuracy) | (np.abs(accuracy) <= ISCLOSE_ATOL), 1.0, accuracy)  # unsolved: m' = 1
        logits = -accuracy[~zero] / self.temperature
        softmax = np.exp(logits - logits.max())
        weights = np.ones(index.n_groups)
        weights[~zero] = len(logits) * softmax / softmax.sum()
        return weights
