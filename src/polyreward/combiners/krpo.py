"""KRPO: a one-dimensional Kalman filter run over each group's rewards in rollout order replaces GRPO's mean and std.

Source: "Kalman Filter Enhanced Group Relative Policy Optimization for Language Model Reasoning" (KRPO), code
billhhh/KRPO_LLMs_RL ``train.py`` (``KalmanFilter``, ``group_advantages``; process_var 1e-5, meas_var 1e-2,
eps 1e-8 as its ``main``). Exact (float64 where the source runs float32).

Per group, a fresh filter (x_0 = 0, P_0 = 1) reads the group's rewards r_1..r_n in row order:

    P⁻_k = P_{k-1} + Q                       Q = process_var
    K_k  = P⁻_k / (P⁻_k + R)                 R = meas_var
    x_k  = x_{k-1} + K_k (r_k - x_{k-1})
    P_k  = (1 - K_k) P⁻_k
    A_k  = (r_k - x_k) / (sqrt(P_k) + eps)

r_i = Σ_k w_k R_ik (nansum); a row where every reward is None is skipped by the filter and gets A = 0. The gain
sequence K_k does not depend on the rewards, so the filter runs over positions k (vectorised over groups).

Not GRPO's edge cases, as the source: the advantage depends on the rollouts' order (the first rollout is compared
with a prior mean of 0) and a constant group does not get 0 (x_k approaches the common value r from 0, so
A_k = r (1 - K_1)···(1 - K_k) / (sqrt(P_k) + eps), about 0.1 r at k = 1). A lone rollout gets ≈ 0.0995 r / 0.0995.

Bound: |A_k| <= (max(r_g ∪ {0}) - min(r_g ∪ {0})) / (sqrt(P_k) + eps) (x_k is a convex combination of 0 and
r_1..r_k), and P_k decreases with k, so the group's last position gives the bound of every row.
"""

from __future__ import annotations

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_positive
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts


def kalman_gains(n: int, process_var: float, meas_var: float) -> tuple[np.ndarray, np.ndarray]:
    """(K_k, P_k) for k = 1..n of the filter with P_0 = 1: they depend on the noise variances only."""
    gains, variances = np.empty(n), np.empty(n)
    p = 1.0
    for k in range(n):  # n = the largest group size: a loop over positions, never over groups
        predicted = p + process_var
        gains[k] = predicted / (predicted + meas_var)
        p = (1.0 - gains[k]) * predicted
        variances[k] = p
    return gains, variances


class KRPOCombiner(GroupedCombiner):
    """A_k = (r_k - Kalman mean x_k) / (sqrt(Kalman variance P_k) + eps), a filter per group in row order.

    Args:
        process_var: Q, the variance the filter's mean may drift by per rollout
        meas_var: R, the variance of one reward around the mean
        eps: added to sqrt(P_k)
    """

    type_name = "krpo"
    exactness = "exact"
    description = "KRPO: per-group 1-D Kalman filter mean/variance in row order instead of GRPO's mean/std"
    reward_scale = "equivariant"  # x_k is linear in the rewards, P_k does not depend on them (magnitudes)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"process_var": 1e-3, "meas_var": 0.5})
    row_order_dependent = True
    lone_rollout_zero = False
    reference_test = "tests/test_estimators_seed_papers.py"  # the comparison with the source's code
    exactness_note = "exact (KRPO release, billhhh/KRPO_LLMs_RL)"
    summary = (
        "a fresh 1-D Kalman filter per group reads its rewards in row order: A_k = (r_k − x_k)/(√P_k + eps); "
        "order-dependent, a constant group is not 0"
    )
    key_parameters = "`process_var` 1e-5, `meas_var` 1e-2, `eps` 1e-8"
    bound_text = (
        "(max(r ∪ {0}) − min(r ∪ {0}))/√P_n, P_n the filter's variance after the group's n rollouts (x_k is a convex "
        "combination of the prior 0 and the rewards)"
    )

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return False  # the filter's mean approaches a constant group's value from its prior 0

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # the filter's prior mean is 0

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        # (max(r ∪ 0) - min(r ∪ 0)) / sqrt(P_n), P_n the filter's variance after the group's n rollouts
        n = np.maximum(facts.n, 1).astype(int)
        variances = kalman_gains(int(n.max()), params.get("process_var", 1e-5), params.get("meas_var", 1e-2))[1]
        return facts.range_with_zero / np.sqrt(variances[n - 1])

    def __init__(self, process_var: float = 1e-5, meas_var: float = 1e-2, eps: float = 1e-8) -> None:
        check_positive("process_var", process_var, allow_zero=True)
        check_positive("meas_var", meas_var)
        check_positive("eps", eps, allow_zero=True)
        self.process_var = float(process_var)
        self.meas_var = float(meas_var)
        self.eps = float(eps)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        advantages = np.full(len(total), np.nan)
        valid = np.flatnonzero(~np.isnan(total))
        if not len(valid):
            return advantages
        codes = index.codes[valid]
        # position of each valid row among its group's valid rows, in row order (a stable sort by group)
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        starts = np.flatnonzero(np.concatenate(([True], sorted_codes[1:] != sorted_codes[:-1])))
        sizes = np.diff(np.append(starts, len(order)))
        position = np.arange(len(order)) - np.repeat(starts, sizes)
        gains, variances = kalman_gains(int(sizes.max()), self.process_var, self.meas_var)
        rows = valid[order]
        mean = np.zeros(len(starts))
        with np.errstate(over="ignore", invalid="ignore"):
            for k in range(int(sizes.max())):
                at = np.flatnonzero(position == k)  # the k-th rollout of every group that has one
                group = np.searchsorted(starts, at, side="right") - 1
                reward = total[rows[at]]
                mean[group] = mean[group] + gains[k] * (reward - mean[group])
                advantages[rows[at]] = (reward - mean[group]) / (np.sqrt(variances[k]) + self.eps)
        return advantages
