"""Rewards near the end of the float64 range (up to ±1.7e308): a weighted sum Σ_k w_k R_ik of finite rewards can
overflow to inf, and a deviation r - mean can exceed the range even when every r is finite.

A combiner whose advantages do not change when every reward is multiplied by c > 0 (``"invariant"``: z-scores,
MAD scaling, batch whitening) or change by the same factor (``"equivariant"``: r - mean, leave-one-out
baselines) is computed on the rewards multiplied by an exact power of two that brings the bound
Σ_k |w_k| max_i |R_ik| down to 2**1000, and an equivariant result is divided back. A power of two changes no
mantissa, and 2**1000 (≈1e301) is large enough that an ``eps`` of 1e-4 next to a standard deviation stays as
negligible as it is at the original scale. Nothing changes below that bound (the common case costs one pass).

A result that still does not fit (an equivariant advantage beyond ±1.8e308) is a one-line :class:`ValueError`
naming the combiner, never an inf handed to a trainer (:func:`check_finite`).
"""

from __future__ import annotations

import math

import numpy as np

from polyreward.combiners.inputs import extremes, from_float32, widened

BOUND_EXPONENT = 1000  # scaled rewards keep Σ_k |w_k| max|R_k| <= 2**1000


def overflow_scale(scores: np.ndarray, weights: np.ndarray) -> float:
    """The power of two that brings Σ_k |w_k| max_i |R_ik| (NaN left out) to at most 2**1000; 1.0 when it already is.

    Computed on binary exponents (``frexp``), so the bound itself never overflows."""
    if not scores.size:
        return 1.0
    magnitudes = np.abs(np.asarray(weights, dtype=np.float64))
    if from_float32(scores) and np.isfinite(magnitudes).all():  # |R| < 2**128: the bound below with that, no pass
        weighted = magnitudes[magnitudes > 0]
        if not len(weighted) or int(np.frexp(weighted)[1].max()) + 128 + math.ceil(math.log2(len(weighted))) <= BOUND_EXPONENT:
            return 1.0
    # The common case in two fast passes: the largest |R| of the whole matrix bounds every column's, so when the bound
    # holds with it the per-column peaks (a slow strided reduction) cannot exceed it either.
    high, low = extremes(scores)
    overall = 0.0 if math.isnan(high) else max(abs(high), abs(low))
    weighted = magnitudes[magnitudes > 0]
    if overall == 0.0 or not len(weighted):
        return 1.0
    if math.isfinite(overall) and np.isfinite(weighted).all():
        upper = int(np.frexp(weighted)[1].max() + np.frexp(overall)[1]) + math.ceil(math.log2(len(weighted)))
        if upper <= BOUND_EXPONENT:
            return 1.0
    with np.errstate(invalid="ignore"):
        peaks = np.max(np.abs(scores), axis=0, initial=0.0, where=~np.isnan(scores))
    used = (magnitudes > 0) & (peaks > 0)
    if not used.any() or not np.isfinite(peaks[used]).all() or not np.isfinite(magnitudes[used]).all():
        return 1.0  # nothing to scale, or an infinite input that no scale makes finite
    # |w| < 2**e_w and peak < 2**e_p, so each term is below 2**(e_w + e_p) and the sum of K terms below 2**exponent
    exponent = int((np.frexp(magnitudes[used])[1] + np.frexp(peaks[used])[1]).max()) + math.ceil(math.log2(used.sum()))
    if exponent <= BOUND_EXPONENT:
        return 1.0
    return math.ldexp(1.0, BOUND_EXPONENT - exponent)


def scaled_advantages(combiner, advantages_np, scores: np.ndarray, index, weights: np.ndarray) -> np.ndarray:
    """``advantages_np(scores, index, weights)``, computed at a safe scale as ``combiner.reward_scale`` allows (see
    the module docstring; None, for thresholds on raw reward values, computes as given), and checked finite."""
    behaviour = combiner.reward_scale
    scale = overflow_scale(scores, weights) if behaviour in ("invariant", "equivariant") else 1.0
    if scale == 1.0:
        result = advantages_np(scores, index, weights)
    else:
        result = advantages_np(widened(scores) * scale, index, weights)  # float64 before scaling (a float32 product rounds)
        if behaviour == "equivariant":
            with np.errstate(over="ignore"):
                result = result / scale
    check_finite(combiner.type_name, result, scores)
    return result


def check_finite(name: str, advantages: np.ndarray, scores: np.ndarray) -> None:
    """One line instead of an inf: advantages that do not fit float64 although every reward is finite."""
    if not np.isinf(advantages).any():  # NaN marks rows the combiner leaves out (0 later), not an overflow
        return
    with np.errstate(invalid="ignore"):
        peak = float(np.max(np.abs(scores), initial=0.0, where=np.isfinite(scores))) if scores.size else 0.0
    infinite = "" if np.isfinite(scores[~np.isnan(scores)]).all() else " (some rewards are infinite)"
    raise ValueError(f"{name}: advantages exceed the float64 range for rewards of magnitude up to {peak:.3g}{infinite}; "
                     "rescale the rewards")
