"""GOPO: rank-based (ordinal) advantages, linearly spaced in [-2, 2] within each group.

Paper: Choi, Saha, Kim, Agarwal, Dwivedi, "Group Ordinal Policy Optimization", arXiv 2602.03876; code
friendshipkim/gopo src/open_r1/grpo_trainer.py (~L1320-1332). Exact (code).

    R_i  = Σ_k w_k r^k_i            (nansum; all-None rows get A = 0 and are not ranked, see ``unscorable``)
    ρ(i) = rank of R_i in its group, 1 = highest (double argsort, descending)
    A_i  = 2 - 4 (ρ(i) - 1) / (G - 1)            G = valid rollouts in the group; G = 1 -> A = 0

Independent of reward magnitudes; zero mean; |A| <= 2. Ties: the source breaks them by the order of
``torch.argsort``, so even a constant group gets the full ±2 spread (unlike GRPO). ``ties="order"``
(default) breaks them by row order (a stable sort: the earlier row ranks higher). That reproduces the
source only where torch's default sort keeps tied rows in order — groups of at most 16 on the CPU; for
larger groups torch's default sort is not stable and the source's order of tied rollouts is unspecified
(ours then equals ``torch.argsort(..., stable=True)``). ``ties="average"`` gives tied rollouts their
mid-rank (a documented deviation under which a constant group gets A = 0). Values that differ only by float noise
(``0.1 + 0.7`` vs ``0.3 + 0.5``, within the shared constant rule's 1e-10 of the group's largest |R|:
:func:`~polyreward.combiners.group_stats.snap_ties`) are ties here; the source's ``argsort`` ranks them by their last
bit (the one deviation from the source's code, under which a group the constant rule calls constant is ranked).

Rows where every reward is None: the source (a TRL 0.18-era fork) takes ``nansum``, so such a row has R = 0
and is ranked like any other; ``unscorable="zero"`` does that. The default ``"exclude"`` is the convention
every polyreward combiner shares (as TRL 1.16: the row gets A = 0 and G counts only scored rollouts); the
two agree whenever no row is entirely None.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import ranks_within, snap_ties
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts


class GOPOCombiner(GroupedCombiner):
    """A_i = 2 - 4 (rank_i - 1) / (G - 1), rank 1 = best rollout of the group.

    Args:
        ties: order (tied rollouts ranked by row order, as the source) or average (mid-ranks: a constant group gets
            0)
        unscorable: a row where every reward is None: exclude (A = 0, not ranked) or zero (a reward of 0, as the
            source)
    """

    type_name = "gopo"
    exactness = "exact"
    description = "GOPO: rank-based advantages linearly spaced in [-2, 2] per group (arXiv 2602.03876)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"ties": "average"})
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact"
    summary = (
        "rank → linearly spaced advantages in [−2, 2] (ties by row order: the source's order for groups of ≤ 16, "
        "where torch's default sort keeps ties in order)"
    )
    key_parameters = (
        "`ties` order \\| average; `unscorable` exclude \\| zero (the source's nansum: an all-None row is reward 0, "
        "ranked)"
    )
    bound_text = "2"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return params.get("ties") == "average"  # the source's argsort order spreads a constant group over ±2

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        # Ranks compare exact floats (as the source does); with K > 1 a shifted sum can split an exact tie such as
        # 0.1 + 0.2 vs 0.3 + 0 by one ulp, so the property is exact for one objective only.
        return k == 1

    @classmethod
    def ties_by_row_order(cls, params: dict) -> bool:
        return params.get("ties", "order") == "order"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return np.full(np.shape(facts.n), 2.0)

    def __init__(self, ties: str = "order", unscorable: str = "exclude") -> None:
        check_choice("ties", ties, ("order", "average"))
        check_choice("unscorable", unscorable, ("exclude", "zero"))
        self.ties = ties
        self.unscorable = unscorable

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        if self.unscorable == "zero":  # the source's nansum: an all-None row is a reward of 0, ranked
            total = np.nan_to_num(total, nan=0.0)
        total = snap_ties(total, index)  # values equal up to float noise (the constant rule) are ties
        rank = ranks_within(-total, index, ties=self.ties)  # ascending rank of -R = descending rank of R
        n = index.broadcast(index.count(~np.isnan(total)))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 1, 2.0 - 4.0 * (rank - 1.0) / (n - 1.0), np.where(np.isnan(total), np.nan, 0.0))


RankCombiner = GOPOCombiner  # the earlier name; the class is named after its type, `gopo`
