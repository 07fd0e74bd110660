"""Rubric score formulas (the functional core of the ``rubric`` reward).

HealthBench [EXACT-CODE, openai/simple-evals ``healthbench_eval.py:calculate_score``; docs/reference/algorithms.md#healthbench]::

    score = Σ_{j met} points_j / Σ_{j: points_j > 0} points_j        (None when no item has positive points)

Negative-points items are "met" when the undesirable behaviour is present, so they subtract; the
per-example score is not clipped (it lies in [-Σ|neg| / Σpos, 1]). The eval aggregate over examples is
the mean clipped to [0, 1], with the std of that clipped mean over 1,000 bootstrap resamples.

RaR explicit aggregation [arXiv 2507.17746; weights of negative items RECONSTRUCTED]::

    score = Σ_j w_j · c_j / Σ_j w_j,   w_j = |points_j|,
    c_j = met_j for positive items and (not met_j) for negative items (the pitfall was avoided)

With only positive points this is exactly RaR's weighted mean of binary criteria; a negative item
counts as a criterion "avoids <pitfall>" with weight |points|, which keeps the score in [0, 1].
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

AGGREGATIONS = ("healthbench", "weighted_mean")


def healthbench_score(points: Sequence[float], met: Sequence[bool]) -> float | None:
    """HealthBench ``calculate_score``: achieved / total positive points; None if no positive points."""
    if len(points) != len(met):
        raise ValueError(f"{len(points)} items but {len(met)} verdicts")
    total_possible = sum(p for p in points if p > 0)
    if total_possible == 0:
        return None
    achieved = sum(p for p, m in zip(points, met) if m)
    return achieved / total_possible


def weighted_mean_score(points: Sequence[float], met: Sequence[bool]) -> float | None:
    """RaR explicit aggregation with |points| as weights (see module docstring); None if all weights are 0."""
    if len(points) != len(met):
        raise ValueError(f"{len(points)} items but {len(met)} verdicts")
    total = sum(abs(p) for p in points)
    if total == 0:
        return None
    satisfied = sum(abs(p) for p, m in zip(points, met) if (m if p > 0 else not m))
    return satisfied / total


def rubric_score(points: Sequence[float], met: Sequence[bool], aggregation: str = "healthbench", clip: bool = False) -> float | None:
    """The score of one example under ``aggregation``; ``clip`` bounds it to [0, 1]."""
    if aggregation == "healthbench":
        score = healthbench_score(points, met)
    elif aggregation == "weighted_mean":
        score = weighted_mean_score(points, met)
    else:
        raise ValueError(f"aggregation: {aggregation!r} is not allowed; allowed: {', '.join(AGGREGATIONS)}")
    if score is not None and clip:
        score = min(1.0, max(0.0, score))
    return score


def aggregate_scores(values: Sequence[float | None], n_bootstrap: int = 1000, seed: int = 0) -> dict[str, float]:
    """HealthBench's eval aggregate: clipped mean of the example scores and its bootstrap std.

    ``mean = clip(mean(values), 0, 1)``; ``bootstrap_std`` = std of the clipped mean over ``n_bootstrap``
    resamples with replacement. None/NaN values are left out (``n_samples`` counts the rest).
    """
    finite = np.array([v for v in values if v is not None and np.isfinite(v)], dtype=np.float64)
    if finite.size == 0:
        return {"mean": float("nan"), "bootstrap_std": float("nan"), "n_samples": 0}
    rng = np.random.default_rng(seed)
    samples = rng.choice(finite, size=(n_bootstrap, finite.size), replace=True)
    clipped_means = np.clip(samples.mean(axis=1), 0.0, 1.0)
    return {"mean": float(np.clip(finite.mean(), 0.0, 1.0)), "bootstrap_std": float(clipped_means.std()), "n_samples": int(finite.size)}
