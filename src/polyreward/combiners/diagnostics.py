"""Diagnostics of any combiner's output: does it keep the information in the rewards?

For scores (N, K), group ids and the advantages a combiner produced, per group:

- ``profiles``: distinct reward profiles (rows of the score matrix, over the rewards whose weight is not 0)
  among the scored rollouts; ``advantage_values``: distinct advantage values. Two values are "the same"
  when a chain of gaps of at most ``tol`` joins them (so 4.9e-7 and 5.1e-7 are one value, whatever rounding
  grid they straddle); rewards are compared with the combiners' constant rule (equal up to 1e-10 of their
  magnitude). ``collapsed`` is True when different profiles share an advantage (fewer distinct advantages
  than profiles): the GDPO paper's "collapse" of sum-then-normalise, e.g. (1, 0) and (0, 1) both becoming 0.
  A group with a single scored rollout is collapsed too: it has nothing to be compared with, so every
  group-relative method gives it no signal (a group column that makes every group one rollout, say).
  ``single_rollout_group_fraction`` counts those groups on their own.
- ``share/<reward>``: each objective's share of the advantage, |Σ_i A_i Â^k_i| / Σ_j |Σ_i A_i Â^j_i|,
  with Â^k the objective's own group-normalised advantage (GRPO on that reward alone): how much of the
  advantage points along each objective. NaN for a group where no objective varies (rank ties, a None cell
  lowering a sum): the advantage there points along none of them.
- ``sign_flips/<reward>``: rollouts whose advantage has the opposite sign of that single-objective
  advantage (both beyond ``tol``): the combination pushes against that objective there.
- ``zero_signal``: every advantage of the group is within ``tol`` of 0 (no learning signal).

The batch fractions ``collapsed_group_fraction`` and ``zero_signal_fraction`` share one denominator: the
groups with at least one scored rollout (a group without any reward has neither profiles nor signal).
Every summary number over an empty denominator is NaN, never 0: the fractions and means for a batch without
a scored rollout, ``share/*`` when no objective carries advantage, ``sign_flip_rate/<reward>`` when no
rollout has both a non-zero advantage and a non-zero single-objective advantage.

:func:`diagnose` returns the per-group table (pandas) and a dict of summary numbers over the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex, ids_array
from polyreward.combiners.group_stats import (
    CONSTANT_RTOL,
    all_nan_rows,
    constant_groups,
    nan_to_zero,
    standardise_per_group,
)
from polyreward.combiners.inputs import as_score_matrix, as_weights


@dataclass
class Diagnostics:
    """``summary``: batch-level numbers (flat dict of floats); ``groups``: one row per group (DataFrame)."""

    summary: dict[str, float]
    groups: Any = field(repr=False)

    def to_dict(self) -> dict[str, float]:
        return dict(self.summary)


def _distinct_per_group(index: GroupIndex, keys: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Number of distinct integer key rows (``keys`` (N,) or (N, J)) per group among ``rows`` (boolean mask)."""
    keys = keys.reshape(len(keys), -1) if len(keys) else keys.reshape(0, 1)  # N = 0: no key rows
    pairs = np.unique(np.column_stack([index.codes[rows], keys[rows]]), axis=0)
    return np.bincount(pairs[:, 0], minlength=index.n_groups) if len(pairs) else np.zeros(index.n_groups, dtype=np.int64)


def value_clusters(values: np.ndarray, index: GroupIndex, atol: float, rtol: float = 0.0) -> np.ndarray:
    """(N,) integer id per row: rows of a group whose sorted values are joined by gaps <= atol + rtol·|value|
    share an id; NaN rows share one id of their own."""
    order = index.order_within(values)
    ordered, codes = values[order], index.codes[order]
    new = np.ones(len(order), dtype=bool)
    if len(order):
        gap = np.abs(ordered[1:] - ordered[:-1])
        scale = np.fmax(np.abs(ordered[1:]), np.abs(ordered[:-1]))
        with np.errstate(invalid="ignore"):
            same = (gap <= atol + rtol * scale) | (np.isnan(ordered[1:]) & np.isnan(ordered[:-1]))
        new[1:] = ~same | (codes[1:] != codes[:-1])
    ids = np.empty(len(order), dtype=np.int64)
    ids[order] = np.cumsum(new)
    return ids


def diagnose(
    scores: Any,
    groups: Any,
    advantages: Any,
    weights: Any = None,
    names: Sequence[str] | None = None,
    tol: float = 1e-6,
) -> Diagnostics:
    """Collapse, objective shares, sign flips and zero-signal groups of ``advantages`` (see module docstring)."""
    import pandas as pd

    matrix = as_score_matrix(scores)
    n, k = matrix.shape
    w = as_weights(weights, k)
    names = list(names) if names is not None else [f"r{j}" for j in range(k)]
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries but scores have {k} reward column(s)")
    adv = as_score_matrix(advantages)[:, 0]
    if len(adv) != n:
        raise ValueError(f"advantages has {len(adv)} rows but scores have {n}")
    adv = np.where(np.isnan(adv), 0.0, adv)
    ids = ids_array(groups)
    index = GroupIndex.from_ids(ids, n)
    scored = ~all_nan_rows(matrix)

    # Distinct reward profiles (weight-0 rewards left out; NaN is its own value) and distinct advantages.
    weighted = [j for j in range(k) if w[j] != 0]
    reward_ids = np.column_stack([value_clusters(matrix[:, j], index, 0.0, CONSTANT_RTOL) for j in weighted] or [np.zeros(n, dtype=np.int64)])
    profiles = _distinct_per_group(index, reward_ids, scored)
    values = _distinct_per_group(index, value_clusters(np.where(scored, adv, np.nan), index, tol), scored)

    size = index.sizes()
    n_scored = index.count(scored).astype(np.int64)
    zero_signal = index.count(np.abs(adv) > tol) == 0
    varies = ~constant_groups(matrix, index) & (index.count(~np.isnan(matrix)) > 1)  # (groups, K)

    single = standardise_per_group(matrix, index, eps=1e-4, ddof=1)  # Â^k (N, K), NaN where undefined
    single = nan_to_zero(single) * np.sign(w)  # a negative weight means "less is better"
    alignment = index.sum(adv[:, None] * single)  # (groups, K)
    total_alignment = np.abs(alignment).sum(axis=0)
    both = (np.abs(single) > tol) & (np.abs(adv)[:, None] > tol)
    flips = both & (np.sign(single) != np.sign(adv)[:, None])
    flips_per_group = index.count(flips).astype(np.int64)

    first_row = np.unique(index.codes, return_index=True)[1] if n else np.zeros(0, dtype=np.intp)
    table = pd.DataFrame(
        {
            "group": ids[first_row],
            "size": size,
            "scored": n_scored,
            "profiles": profiles,
            "advantage_values": values,
            "collapsed": (values < profiles) | (n_scored == 1),
            "zero_signal": zero_signal,
        }
    )
    group_abs = np.abs(alignment)
    group_total = group_abs.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        for j, name in enumerate(names):
            table[f"share/{name}"] = np.where(varies.any(axis=1) & (group_total > 0), group_abs[:, j] / group_total, np.nan)
        for j, name in enumerate(names):
            table[f"sign_flips/{name}"] = flips_per_group[:, j] if flips_per_group.ndim == 2 else flips_per_group

    n_groups = index.n_groups
    with_signal = n_scored > 0
    nan = float("nan")  # a statistic over no group / no scored rollout / no pair is undefined, not 0
    summary: dict[str, float] = {
        "rollouts": float(n),
        "groups": float(n_groups),
        "collapsed_group_fraction": float(np.mean((values < profiles)[with_signal] | (n_scored[with_signal] == 1)))
        if with_signal.any() else nan,
        "single_rollout_group_fraction": float(np.mean(n_scored[with_signal] == 1)) if with_signal.any() else nan,
        "mean_profiles": float(profiles[with_signal].mean()) if with_signal.any() else nan,
        "mean_advantage_values": float(values[with_signal].mean()) if with_signal.any() else nan,
        "zero_signal_fraction": float(np.mean(zero_signal[with_signal])) if with_signal.any() else nan,
        "advantage_mean": float(adv[scored].mean()) if scored.any() else nan,
        "advantage_std": float(adv[scored].std()) if scored.any() else nan,
        "advantage_abs_max": float(np.abs(adv).max()) if n else nan,
    }
    denominator = total_alignment.sum()
    both_count = both.sum(axis=0)
    for j, name in enumerate(names):
        summary[f"share/{name}"] = float(total_alignment[j] / denominator) if denominator > 0 else float("nan")
        summary[f"sign_flip_rate/{name}"] = float(flips[:, j].sum() / both_count[j]) if both_count[j] else nan
    return Diagnostics(summary=summary, groups=table)
