"""EBPO: an empirical-Bayes baseline that shrinks each group's mean towards a running global prior.

Paper: Han, Zhou, Gao, Zhou, Li, Kumar, Fan, Li, Zhang, arXiv 2602.05165 (v3). RECONSTRUCTED from the
abstract and summaries; no code was available. Normal-normal empirical Bayes
(James-Stein form):

    R_i   = Σ_k w_k r^k_i   (nansum; all-None rows get 0 and stay out of every statistic)
    r̄_q   = mean_G(R) of prompt group q,  G_q its number of valid rollouts
    σ²_w  = pooled within-group variance  Σ_q Σ_i (R_i - r̄_q)² / Σ_q (G_q - 1)     (running, all steps)
    μ, τ² = running mean and variance of the group means r̄_q (Welford, all groups seen)
    S_q   = (σ²_w / G_q) / (σ²_w / G_q + τ² + ε)          S_q = 0 until two group means were seen
    b_q   = (1 - S_q) r̄_q + S_q μ
    A_i   = (R_i - b_q) / (s_q + ε),   s_q = std_G(R) if > 0 else sqrt(σ²_w)

Assumptions (low confidence on S_q and on the normaliser): the pooled σ²_w, not the group's own variance,
sets the shrinkage, which gives an all-zero group the stated non-vanishing penalty A = -S_q μ / s_q; the
state is updated with the current batch *before* its advantages are computed (so the first batch already
has a prior); ε = 1e-6. The state (Welford count/mean/M2 of group means, pooled within-group sums) is
JSON-serialisable through :meth:`state_dict` / :meth:`load_state_dict`.

Zero variance is decided by the shared constant rule, so a constant group of non-representable values
(0.1, 1/3) takes the pooled-variance fallback instead of dividing by float noise.
Bound: none fixed. |A_i| <= (n - 1)/sqrt(n) + S_q |r̄_q - μ| / (s_q + ε): the shrinkage term grows as the
group's own std s_q shrinks relative to its distance from the prior (exempt from the bounded property).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import group_moments
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts

STATE_KEYS = ("groups_seen", "prior_mean", "prior_m2", "within_ss", "within_df")


class EmpiricalBayesCombiner(GroupedCombiner):
    """GRPO-style advantage with a baseline shrunk towards a running global mean (reconstruction).

    Args:
        eps: added to the variances and standard deviations it divides by
    """

    type_name = "ebpo"
    exactness = "reconstructed"
    description = "EBPO: group baseline shrunk towards a running global prior (empirical Bayes; arXiv 2602.05165)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({},)
    exactness_note = "reconstructed, **stateful**"
    summary = "group baseline shrunk towards a running global prior (James–Stein)"
    key_parameters = "`eps` 1e-6"
    bound_text = "none: the shrinkage term S_q·\\|r̄_q − μ\\|/s_q grows as the group's own std shrinks"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return False  # the documented non-vanishing penalty

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # a running prior

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return None  # the shrinkage over the group's own std: no fixed bound

    def __init__(self, eps: float = 1e-6) -> None:
        check_positive("eps", eps)
        self.eps = float(eps)
        self._state: dict[str, float] = dict.fromkeys(STATE_KEYS, 0.0)

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        count, mean, std, deviation = group_moments(total, index, ddof=1)
        with np.errstate(over="ignore", invalid="ignore"):
            state = self._merged(count, mean, deviation)
            advantages = self._advantages(state, count, mean, std, deviation, index)
        if not all(np.isfinite(list(state.values()))) or np.isinf(advantages).any():
            # the running sums of squares are float64: refuse the batch and keep the state as it was
            peak = float(np.max(np.abs(total), initial=0.0, where=np.isfinite(total)))
            raise ValueError(f"ebpo: rewards of magnitude up to {peak:.3g} overflow its running variances (float64); "
                             "rescale the rewards")
        self._state = state
        return advantages

    def _advantages(self, state: dict[str, float], count: np.ndarray, mean: np.ndarray, std: np.ndarray,
                    deviation: np.ndarray, index: GroupIndex) -> np.ndarray:
        pooled_var = state["within_ss"] / state["within_df"] if state["within_df"] > 0 else 0.0
        if state["groups_seen"] >= 2:
            prior_var = state["prior_m2"] / (state["groups_seen"] - 1)
            with np.errstate(invalid="ignore", divide="ignore"):
                noise = pooled_var / count
                shrink = noise / (noise + prior_var + self.eps)
        else:
            shrink = np.zeros_like(mean)
        shrink = np.where(count > 0, shrink, 0.0)
        # R_i - b_q = (R_i - r̄_q) + S_q (r̄_q - μ), the first term exactly 0 in a constant group
        pull = index.broadcast(shrink * (mean - state["prior_mean"]))
        scale = np.where(np.nan_to_num(std) > 0, std, np.sqrt(pooled_var))
        return (deviation + pull) / (index.broadcast(scale) + self.eps)

    def _merged(self, count: np.ndarray, mean: np.ndarray, deviation: np.ndarray) -> dict[str, float]:
        """Chan/Welford merge of this batch's group means and within-group sums into (a copy of) the running state."""
        present = count > 0
        means = mean[present]
        n_new = len(means)
        if n_new == 0:
            return dict(self._state)
        within_ss = float(np.nansum(deviation * deviation))
        within_df = float(np.sum(np.maximum(count - 1, 0)))
        batch_mean = float(means.mean())
        batch_m2 = float(((means - batch_mean) ** 2).sum())
        s = self._state
        n_old = s["groups_seen"]
        n = n_old + n_new
        delta = batch_mean - s["prior_mean"]
        return {
            "groups_seen": float(n),
            "prior_mean": s["prior_mean"] + delta * n_new / n,
            "prior_m2": s["prior_m2"] + batch_m2 + delta * delta * n_old * n_new / n,
            "within_ss": s["within_ss"] + within_ss,
            "within_df": s["within_df"] + within_df,
        }

    def state_dict(self) -> dict[str, Any]:
        return dict(self._state)

    def load_state_dict(self, state: dict[str, Any]) -> None:
        missing = [key for key in STATE_KEYS if key not in state]
        extra = sorted(set(state) - set(STATE_KEYS))
        if missing or extra:
            raise ValueError(f"EBPO state needs keys {list(STATE_KEYS)}; missing {missing}, unexpected {extra}")
        values = {key: float(state[key]) for key in STATE_KEYS}
        if not all(np.isfinite(list(values.values()))) or values["groups_seen"] < 0 or values["within_df"] < 0:
            raise ValueError(f"EBPO state values must be finite with non-negative counts, got {values}")
        self._state = values
