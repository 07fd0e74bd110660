"""MC-GRPO: median-centred advantages scaled by the median absolute deviation.

Paper: Youngeun Kim, "MC-GRPO", arXiv 2601.22582; code lotusroot-kim/MC-GRPO
src/open_r1/grpo_trainer_gsm.py (~L2008-2150). Exact (code).

    R_i  = Σ_k w_k r^k_i                      (nansum; all-None rows excluded, A = 0; see ``unscorable``)
    med  = median_G(R)                        (torch.median: the lower middle element for an even count)
    MAD  = median_G(|R - med|) + 1e-3
    A_i  = (R_i - med) / MAD
    compensation: every A_i with |A_i| > 1e-6 is multiplied by n / #nonzero   (n = valid rollouts in the group)

The method samples G+1 rollouts and drops the pivot (the median rollout) from the loss; its advantage is
exactly 0 here, so dropping it is the trainer's choice. No std scaling. A constant group gives A = 0;
if more than half the group ties at the median, MAD = 0 and the other rollouts are divided by 1e-3
(large advantages, as in the source; raise ``eps`` to temper them).
Rows where every reward is None: the source takes ``nansum`` without TRL 1.16's unscorable mask, so such a
row is a reward of 0 that enters the median, the MAD and n; ``unscorable="zero"`` does that. The default
``"exclude"`` is the convention every polyreward combiner shares (A = 0, out of every statistic); the two agree
whenever no row is entirely None.
Bound: none. The division by MAD + eps is the source's; a MAD of 0 gives |A| up to range/eps (exempt from
the bounded-advantage property the other combiners are tested for).
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_lower_median
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts

NONZERO = 1e-6


class MedianCenteredCombiner(GroupedCombiner):
    """A_i = (R_i - median_G) / (MAD_G + eps), rescaled so the non-zero advantages keep the group's mass.

    Args:
        eps: added to the median absolute deviation it divides by
        compensate: rescale the non-zero advantages by n / (number non-zero), as the source
        unscorable: a row where every reward is None: exclude (A = 0, out of the median) or zero (a reward of 0)
    """

    type_name = "mc_grpo"
    exactness = "exact"
    description = "MC-GRPO: median baseline, MAD scale, mass compensation for ties (arXiv 2601.22582)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({},)
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact"
    summary = "(R − median)/(MAD + 1e-3), tie-mass compensation"
    key_parameters = (
        "`eps` 1e-3, `compensate` true, `unscorable` exclude \\| zero (the source's nansum: an all-None row is reward "
        "0 in the median)"
    )
    bound_text = "none: it divides by MAD + 1e-3 as its source (a MAD of 0 gives up to Δ/1e-3)"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return None  # MAD + eps as the source: a MAD of 0 gives up to Δ/eps

    def __init__(self, eps: float = 1e-3, compensate: bool = True, unscorable: str = "exclude") -> None:
        check_positive("eps", eps)
        check_choice("unscorable", unscorable, ("exclude", "zero"))
        self.eps = float(eps)
        self.compensate = bool(compensate)
        self.unscorable = unscorable

    reward_scale = "invariant"  # (R - median) / MAD (:mod:`polyreward.combiners.magnitudes`)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        if self.unscorable == "zero":  # the source's nansum: an all-None row is a reward of 0
            total = np.nan_to_num(total, nan=0.0)
        median = index.broadcast(group_lower_median(total, index))
        deviation = total - median
        mad = index.broadcast(group_lower_median(np.abs(deviation), index)) + self.eps
        advantages = deviation / mad
        if self.compensate:
            nonzero = np.abs(np.nan_to_num(advantages)) > NONZERO
            n_valid = index.count(~np.isnan(total))
            n_nonzero = index.count(nonzero)
            factor = np.where(n_nonzero > 0, n_valid / np.maximum(n_nonzero, 1), 1.0)
            advantages = np.where(nonzero, advantages * index.broadcast(factor), advantages)
        return advantages
