"""PAPO: outcome advantage over the whole group plus a process advantage normalised among the correct only.

Paper: Tan et al., "Stabilizing Rubric Integration Training via Decoupled Advantage Normalization",
arXiv 2603.26535; reproduction README github ScopeHLS/Process-Aware-Policy-Optimization (verl-based).
Core formula from the paper (exact); edge cases and defaults RECONSTRUCTED.

Scores have K = 2 columns: outcome o (verifier, e.g. {0, 1}) and process p (rubric / PRM score);
K = 1 means outcome only. Per group:

    A_out,i  = (o_i - mean_G o) / (std_G o + ε)                              over all responses
    C        = { j : o_j >= correct_threshold }                              the correct responses
    A_proc,i = (p_i - mean_{j∈C} p_j) / (std_{j∈C} p_j + ε)  if i ∈ C, else 0
    A_i      = w_out · A_out,i + λ · w_proc · A_proc,i                        λ = 1 ("dual_lambda1")

Edge cases: |C| <= 1 -> A_proc = 0 (no contrast among the correct); equal p within C -> 0; an
all-correct group keeps its process signal although A_out = 0 (the stated motivation); an all-wrong group
gets A = 0, so wrong answers never earn process credit. ``process_scope="all"`` is the paper's
"full normalization" ablation (A_proc over every response). ε = 1e-6 and Bessel std as verl's GRPO.
A NaN outcome counts as not correct and is left out; a NaN process score contributes 0.
Bound: |A| <= (|w_out| + λ |w_proc|) (n - 1)/sqrt(n), n = rollouts of the group (each part is a Bessel z-score).
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import all_nan_rows, standardise_per_group
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_choice, check_positive
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.magnitudes import check_finite, overflow_scale


class PAPOCombiner(GroupedCombiner):
    """Outcome advantage over all + λ · process advantage among the correct responses only.

    Args:
        lam: lambda, the weight of the process advantage
        correct_threshold: an outcome at or above it counts as correct
        eps: added to each standard deviation it divides by
        process_scope: normalise the process score among the correct responses (correct) or over all (all, an
            ablation)
    """

    type_name = "papo"
    exactness = "reconstructed"
    description = "PAPO: outcome advantage over all + process advantage normalised among correct only (arXiv 2603.26535)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"process_scope": "all"})
    max_reward_columns = 2
    exactness_note = "core exact, details reconstructed"
    summary = "outcome advantage over all + λ · process advantage among the correct only (K = 2: outcome, process)"
    key_parameters = "`lam` 1, `correct_threshold` 1, `eps` 1e-6, `process_scope` correct \\| all"
    bound_text = "(\\|w_out\\| + λ\\|w_proc\\|)·(n − 1)/√n"

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return column == 1  # the outcome decides who is correct; the process part is group-relative

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return facts.abs_w[:2].sum() * z_bound(facts.n)

    def __init__(self, lam: float = 1.0, correct_threshold: float = 1.0, eps: float = 1e-6, process_scope: str = "correct") -> None:
        check_positive("lam", lam, allow_zero=True)
        check_positive("eps", eps, allow_zero=True)
        check_choice("process_scope", process_scope, ("correct", "all"))
        if not np.isfinite(correct_threshold):
            raise ValueError(f"correct_threshold must be finite, got {correct_threshold!r}")
        self.lam = float(lam)
        self.correct_threshold = float(correct_threshold)
        self.eps = float(eps)
        self.process_scope = process_scope

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        if scores.shape[1] > 2:
            raise ValueError(f"PAPO takes 2 reward columns (outcome, process), got {scores.shape[1]}")
        outcome = scores[:, 0]
        a_out = self._z_scores(outcome, index)
        advantages = weights[0] * np.where(np.isnan(a_out), 0.0, a_out)
        if scores.shape[1] == 2:
            process = scores[:, 1]
            with np.errstate(invalid="ignore"):
                correct = outcome >= self.correct_threshold
            if self.process_scope == "correct":
                process = np.where(correct, process, np.nan)
            a_proc = self._z_scores(process, index)
            advantages = advantages + self.lam * weights[1] * np.where(np.isnan(a_proc), 0.0, a_proc)
        advantages[all_nan_rows(scores)] = np.nan
        check_finite(self.type_name, advantages, scores)
        return advantages

    def _z_scores(self, values: np.ndarray, index: GroupIndex) -> np.ndarray:
        """Group z-scores of one column, computed at a safe scale (exact: eps scales along; the correctness threshold
        is applied to the raw outcome before), so rewards up to ±1.7e308 give finite advantages."""
        scale = overflow_scale(values[:, None], np.ones(1))
        return standardise_per_group(values * scale, index, self.eps * scale, ddof=1)
