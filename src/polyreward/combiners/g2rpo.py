"""G²RPO: Gaussian GRPO. Each group's advantages are mapped onto N(0, 1) by rank (1-D optimal transport).

Paper: Hu, Chen, Gao-Tian, Deng, Peng, Chang, "OpenVLThinkerV2" (G²RPO), arXiv 2604.08539. RECONSTRUCTED from
the abstract and a summary; no code was available.

    R_i = Σ_k w_k r^k_i                  (nansum; all-None rows get 0 and are not ranked)
    u_i = (rank_i - 0.5) / G             mid-ranks for ties, rank 1 = lowest, G = valid rollouts
    A_i = Φ⁻¹(u_i)                       (``mapping="quantile"``, default)

``mapping="w2"``: the exact W2 barycentric projection of the k-th quantile bin,
A_(k) = G [φ(Φ⁻¹((k-1)/G)) - φ(Φ⁻¹(k/G))], averaged over a block of ties.

Assumptions: ties share one value, so a constant group gets A ≡ 0 (a constant group has no rank
information); values equal up to float noise are ties (the shared constant rule,
:func:`~polyreward.combiners.group_stats.snap_ties`: ``0.1 + 0.7`` and ``0.3 + 0.5`` tie); the paper's task-level length and entropy shaping are not part of the advantage. Both
mappings give zero-mean, symmetric advantages; their bounds differ (G = valid rollouts of the group):

    quantile:  |A| <= Φ⁻¹(1 - 0.5/G)          (0.67 for G = 2, 1.15 for G = 4, 2.17 for G = 33)
    w2:        |A| <= G φ(Φ⁻¹(1 - 1/G))       the mean of the top 1/G tail of N(0, 1), larger than the
                                              quantile bound (0.80 for G = 2, 1.27 for G = 4, 2.26 for G = 33)
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import average_over_ties, ranks_within, snap_ties
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts


def normal_quantile(u: np.ndarray) -> np.ndarray:
    from scipy.special import ndtri  # scipy comes with scikit-learn, a core dependency

    return ndtri(u)


def normal_density(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi)


class G2RPOCombiner(GroupedCombiner):
    """A_i = Φ⁻¹((midrank_i - 0.5) / G): each group's advantages follow a standard normal (reconstruction).

    Args:
        mapping: quantile (the normal quantile of each mid-rank) or w2 (the exact W2 projection of each rank bin)
    """

    type_name = "g2rpo"
    exactness = "reconstructed"
    description = "G²RPO: rank -> standard-normal quantile advantages per group, ties equal (arXiv 2604.08539)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"mapping": "w2"})
    exactness_note = "reconstructed"
    summary = "mid-rank → standard-normal quantile (ties equal)"
    key_parameters = "`mapping` quantile \\| w2"
    bound_text = (
        "quantile: Φ⁻¹(1 − 0.5/n) (2.17 at n = 33); w2: n·φ(Φ⁻¹(1 − 1/n)), the mean of the top 1/n tail of N(0, 1) "
        "(0.80 at n = 2, 2.26 at n = 33), larger than the quantile bound"
    )

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return k == 1  # ranks compare exact floats: see GOPO

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        from scipy.stats import norm

        n = np.maximum(facts.n, 1)
        if params.get("mapping", "quantile") == "quantile":
            return norm.ppf(1 - 0.5 / n)
        return np.where(n > 1, n * norm.pdf(norm.ppf(1 - 1 / n)), 0.0)

    def __init__(self, mapping: str = "quantile") -> None:
        check_choice("mapping", mapping, ("quantile", "w2"))
        self.mapping = mapping

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = snap_ties(weighted_total(scores, weights), index)  # float-noise differences are ties (the constant rule)
        n = index.broadcast(index.count(~np.isnan(total)))
        if self.mapping == "quantile":
            rank = ranks_within(total, index, ties="average")
            with np.errstate(invalid="ignore", divide="ignore"):
                return normal_quantile((rank - 0.5) / n)
        rank = ranks_within(total, index, ties="order")  # position k of each rollout, ties split below
        with np.errstate(invalid="ignore", divide="ignore"):
            value = n * (normal_density(normal_quantile((rank - 1) / n)) - normal_density(normal_quantile(rank / n)))
        order = index.order_within(total)
        value[order] = average_over_ties(np.nan_to_num(value[order]), total[order], index.codes[order])
        value[np.isnan(total)] = np.nan
        return value


GaussianQuantileCombiner = G2RPOCombiner  # the earlier name; the class is named after its type, `g2rpo`
