"""Dr. GRPO ("GRPO Done Right"): mean-centred group advantage without the std division.

Source: Liu et al. 2025, arXiv 2503.20783 (code sail-sg/understand-r1-zero); TRL ``scale_rewards="none"``
Exact.

    r_i = Σ_k w_k R_ik  (nansum; all-None rows excluded, A = 0)
    A_i = r_i - mean_G(r)

The other half of Dr. GRPO, the constant loss normaliser (sum of token losses / (B · L_max)), belongs to
the loss (``loss_type="dr_grpo"``), not to the advantage. A zero-variance group gives A = 0 exactly.
A single-rollout group gives 0 as in TRL; ``singleton="raw"`` gives A = r as verl
``compute_grpo_outcome_advantage(norm_adv_by_std_in_grpo=False)``.

Bound: |A| <= the group's range max r - min r (|r| for a lone rollout with ``singleton="raw"``).
"""

from __future__ import annotations

from polyreward.combiners.bounds import BatchFacts
from polyreward.combiners.grpo import GRPOCombiner


class DrGRPOCombiner(GRPOCombiner):
    """A_i = r_i - mean_G(r) (no std scaling).

    Args:
        singleton: a one-rollout group: zero (A = 0, as TRL) or raw (A = r, as verl)
    """

    type_name = "dr_grpo"
    exactness = "exact"
    description = "Dr. GRPO: weighted reward sum minus the group mean, no std division (arXiv 2503.20783)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"singleton": "raw"})
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact"
    summary = "r − mean_G (no std)"
    key_parameters = "`singleton`: zero (TRL) \\| raw (verl `norm_adv_by_std_in_grpo=False`)"
    bound_text = "Δ (a lone rollout with `singleton: raw`: \\|r\\|)"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return True

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return True

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return facts.range + (facts.lone_total if params.get("singleton", "zero") == "raw" else 0.0)

    def __init__(self, singleton: str = "zero") -> None:
        super().__init__(scale="none", singleton=singleton)

    def _params(self) -> dict:
        return {} if self.singleton == "zero" else {"singleton": self.singleton}
