"""NaN-aware statistics per group (:class:`~polyreward.combiners.group_index.GroupIndex`): ranks, medians,
extremes, moments, leave-one-out moments, per-group standardisation, and the one rule for a "constant" group.

NaN is "not applicable" and is left out of every statistic. "Constant" is decided on the values themselves, never
on a computed std: a group (or the batch, or the other rollouts of a leave-one-out baseline) is constant when its
range max - min is at most ``CONSTANT_RTOL`` times the largest |value| (:func:`within_noise`). Its deviations and std
are then exactly 0. A float mean is not exact (the mean of three 0.1s is 0.10000000000000002), so deciding on
``std > 0`` would divide float noise (~1e-17) by eps and blow advantages up; every combiner, the diagnostics and the
trainer's metrics share this one rule.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.inputs import from_float32, widened


# ------------------------------------------------------------------------------ order statistics
def ranks_within(values: np.ndarray, index: GroupIndex, ties: str = "average") -> np.ndarray:
    """1-based ascending rank of every row within its group (NaN rows get NaN).

    ``ties="average"`` gives tied values their mid-rank; ``ties="order"`` ranks them by row order
    (what a stable argsort does).
    """
    order = index.order_within(values)
    position = np.arange(index.n) - index.first_positions()[index.codes[order]]
    rank_sorted = position.astype(np.float64) + 1.0
    if ties == "average":
        rank_sorted = average_over_ties(rank_sorted, values[order], index.codes[order])
    ranks = np.empty(index.n)
    ranks[order] = rank_sorted
    ranks[np.isnan(values)] = np.nan
    return ranks


def snap_ties(values: np.ndarray, index: GroupIndex) -> np.ndarray:
    """``values`` (N,) with the near-ties of each group made exact ties: sorted within the group, a value whose step
    from the previous one is float noise by the shared constant rule (:func:`within_noise`, relative to the group's
    largest |value|) takes the value that starts its run. So ``0.1 + 0.7`` and ``0.3 + 0.5`` tie, as the constant
    rule already calls such a group constant, and the rank-based combiners rank by signal, not by rounding."""
    if index.n < 2:
        return values
    order = index.order_within(values)
    ordered, codes = values[order], index.codes[order]
    _, largest = group_extremes(np.abs(values), index)
    with np.errstate(invalid="ignore"):
        tie = (codes[1:] == codes[:-1]) & within_noise(ordered[1:] - ordered[:-1], largest[codes[1:]])
    starts = np.flatnonzero(np.concatenate(([True], ~tie)))
    snapped = np.empty_like(values)
    snapped[order] = ordered[starts][np.cumsum(np.concatenate(([True], ~tie))) - 1]
    return snapped


def average_over_ties(per_position: np.ndarray, sorted_values: np.ndarray, sorted_codes: np.ndarray) -> np.ndarray:
    """Replace each value by the mean over its run of equal (group, value) in sorted order."""
    if len(per_position) == 0:
        return per_position
    new_run = np.ones(len(per_position), dtype=bool)
    new_run[1:] = (sorted_values[1:] != sorted_values[:-1]) | (sorted_codes[1:] != sorted_codes[:-1])
    run = np.cumsum(new_run) - 1
    means = np.bincount(run, weights=per_position) / np.bincount(run)
    return means[run]


def group_lower_median(values: np.ndarray, index: GroupIndex) -> np.ndarray:
    """Per-group median ignoring NaN; the lower middle element for an even count (as ``torch.median``)."""
    order = index.order_within(values)
    count = index.count(~np.isnan(values)).astype(np.intp)
    position = index.first_positions() + np.maximum(count - 1, 0) // 2
    sorted_values = values[order]
    median = sorted_values[np.minimum(position, max(index.n - 1, 0))] if index.n else np.zeros(0)
    return np.where(count > 0, median, np.nan)


# ----------------------------------------------------------------------------- the "constant" rule
CONSTANT_RTOL = 1e-10  # rewards that differ by less than 1e-10 of their magnitude carry no signal


def within_noise(spread: Any, scale: Any) -> Any:
    """True where a range ``spread`` (max - min, >= 0) is float noise relative to ``scale`` (max |value|)."""
    return spread <= CONSTANT_RTOL * scale


def group_extremes(x: np.ndarray, index: GroupIndex) -> tuple[np.ndarray, np.ndarray]:
    """Per-group (min, max) of (N,) or (N, K) values ignoring NaN; NaN for a group without a valid value."""
    if index.n == 0:
        empty = np.zeros((0,) + x.shape[1:])
        return empty, empty
    if index.starts is not None:
        return np.fmin.reduceat(x, index.starts, axis=0), np.fmax.reduceat(x, index.starts, axis=0)
    low = np.full((index.n_groups,) + x.shape[1:], np.nan)
    high = low.copy()
    np.fmin.at(low, index.codes, x)
    np.fmax.at(high, index.codes, x)
    return low, high


def _extremes_where(x: np.ndarray, index: GroupIndex, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-group (and column) (min, max) over the selected cells only (NaN for groups without any)."""
    shape = (index.n_groups,) + x.shape[1:]
    cells = np.flatnonzero(rows)
    codes = index.codes[cells // x.shape[1]] * x.shape[1] + cells % x.shape[1] if x.ndim == 2 else index.codes[cells]
    low, high = np.full(int(np.prod(shape)), np.nan), np.full(int(np.prod(shape)), np.nan)
    values = x.reshape(-1)[cells]
    np.fmin.at(low, codes, values)
    np.fmax.at(high, codes, values)
    return low.reshape(shape), high.reshape(shape)


def constant_groups(x: np.ndarray, index: GroupIndex) -> np.ndarray:
    """Per group (and column): are the valid values equal up to float noise? (False for no valid value.)"""
    low, high = group_extremes(x, index)
    with np.errstate(invalid="ignore"):
        return within_noise(high - low, np.fmax(np.abs(low), np.abs(high)))


def is_constant(x: np.ndarray) -> bool:
    """Are the valid (non-NaN) values of a 1-D array equal up to float noise? (True for fewer than two.)"""
    x = np.asarray(x)
    if x.size - np.count_nonzero(np.isnan(x)) < 2:
        return True
    low, high = np.fmin.reduce(x, axis=None), np.fmax.reduce(x, axis=None)  # the valid extremes, without a copy of them
    return bool(within_noise(high - low, max(abs(low), abs(high))))


# --------------------------------------------------------------------------------- NaN-aware stats
def group_mean_std(x: np.ndarray, index: GroupIndex, ddof: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-group NaN-aware (count, mean, std) of (N,) or (N, K) values.

    mean is NaN for a group without valid values; std is NaN where count <= ddof (TRL's ``nanstd``
    returns NaN for <= 1 value).
    """
    count, mean, std, _ = group_moments(x, index, ddof)
    return count, mean, std


def unit_scale(x: np.ndarray) -> float:
    """A power of two bringing the largest |x| near 1 when squares of x would overflow (|x| > 2**500) or
    underflow (0 < |x| < 2**-500); 1.0 otherwise. Scaling by a power of two is exact, so statistics computed
    on ``x * scale`` and divided back by ``scale`` equal the unit-scale computation bit for bit (1e300 rewards
    otherwise give an infinite std and advantages of 0; 1e-300 rewards a std of 0)."""
    if from_float32(x):  # float32 values: 2**-149 <= |x| < 2**128 or 0, never near either limit
        return 1.0
    peak = 0.0
    if x.size:  # the largest |value| ignoring NaN, from fmax/fmin (no |x| or mask arrays)
        high, low = float(np.fmax.reduce(x, axis=None)), float(np.fmin.reduce(x, axis=None))
        peak = 0.0 if math.isnan(high) else max(abs(high), abs(low))
    return _power_of_two(peak) if peak > 2.0**500 or 0.0 < peak < 2.0**-500 else 1.0


def _power_of_two(peak: Any) -> Any:
    """2**-e with 2**(e-1) <= peak < 2**e, at most 2**1000 so that it stays finite for subnormal peaks
    (1 where peak is 0 or NaN)."""
    usable = np.isfinite(peak) & (peak > 0)
    return np.where(usable, np.ldexp(1.0, np.minimum(-np.frexp(np.where(usable, peak, 1.0))[1], 1000)), 1.0)


def group_unit_scale(x: np.ndarray, index: GroupIndex) -> np.ndarray | None:
    """Per group (and column) :func:`unit_scale` of (N,) or (N, K) values, or None when no value needs it
    (the common case costs one pass). Groups are independent, so each is scaled by its own power of two."""
    if unit_scale(x) == 1.0:
        return None
    low, high = group_extremes(x, index)
    with np.errstate(invalid="ignore"):
        return _power_of_two(np.fmax(np.abs(low), np.abs(high)))


def group_moments(x: np.ndarray, index: GroupIndex, ddof: int = 1):
    """(count, mean, std, x - group mean) with NaN left out of the statistics (and kept in the deviations).

    Two passes (mean, then squared deviations: no cancellation); a constant group (:func:`within_noise`)
    gets deviations and std exactly 0 and its mean is its smallest value. Only groups whose std is positive
    but within 1e-8 of their |mean| can be constant without already having exact zeros (a float mean off by
    an ulp), so only they are checked against their range: the common case costs nothing more. Values whose
    squares would overflow or underflow are computed at unit scale per group (:func:`group_unit_scale`).
    """
    scale = group_unit_scale(x, index)
    if scale is not None:
        row_scale = index.broadcast(scale)
        count, mean, std, dev = _group_moments(x * row_scale, index, ddof)
        return count, mean / scale, std / scale, dev / row_scale
    return _group_moments(x, index, ddof)


def _group_moments(x: np.ndarray, index: GroupIndex, ddof: int):
    nan = np.isnan(x)
    cells = np.flatnonzero(nan)  # row-major positions of the NaN cells: few, so zeroed by index, not by a masked pass
    has_nan = len(cells) > 0
    if has_nan:
        count = index.count(nan, invalid_cells=cells)  # (only the shape of the mask is read)
        filled = np.array(x, dtype=np.float64, order="C")
        filled.reshape(-1)[cells] = 0.0
        total = index.sum(filled)
    else:  # the common case needs no masking passes
        sizes = index.sizes().astype(np.float64)
        count = sizes if x.ndim == 1 else np.repeat(sizes[:, None], x.shape[1], axis=1)
        total = index.sum(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / count
        dev = x - index.broadcast(mean)
        # the squares go into the zero-filled copy once its sums are taken (a temporary): no second array of x's size
        squares = np.multiply(dev, dev, out=filled) if has_nan and filled.shape == dev.shape else dev * dev
        if has_nan:
            if squares.flags.c_contiguous:
                squares.reshape(-1)[cells] = 0.0
            else:
                np.copyto(squares, 0.0, where=nan)
        var = np.where(count > ddof, index.sum(squares) / (count - ddof), np.nan)
    with np.errstate(invalid="ignore"):
        suspect = (var > 0) & (var <= 1e-16 * mean * mean)
    if suspect.any():
        valid = ~nan
        low, high = _extremes_where(x, index, index.broadcast(suspect) & valid)
        with np.errstate(invalid="ignore"):
            constant = suspect & within_noise(high - low, np.fmax(np.abs(low), np.abs(high)))
        # a constant group's mean is its value, exactly: callers that subtract it themselves get 0 too
        mean = np.where(constant, low, mean)
        var = np.where(constant & (count > ddof), 0.0, var)
        dev = np.where(index.broadcast(constant) & valid, 0.0, dev)
    return count, mean, np.sqrt(var), dev


def leave_one_out_moments(x: np.ndarray, index: GroupIndex) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, r_i - mean of the others, Bessel std of the others) per row of a 1-D array, NaN-aware.

    From the deviations d_i from the group mean (Σ d = 0, D2 = Σ d²): r_i - mean_others = d_i n/(n-1),
    others' squared deviations = D2 - d_i² n/(n-1). That difference cancels when row i holds almost all of
    the group's variance, so those rows (others' ss < 1e-6 D2) are recomputed directly from their group;
    among them, others that are constant (:func:`within_noise` on their range) get std exactly 0. Others
    that are constant always land there (their true ss is 0). n <= 2 -> std 0. Computed at unit scale
    (:func:`group_unit_scale`).
    """
    scale = group_unit_scale(x, index)
    if scale is not None:
        row_scale = index.broadcast(scale)
        n, centred, std = leave_one_out_moments(x * row_scale, index)
        return n, centred / row_scale, std / row_scale
    count, mean, _, d = group_moments(x, index, ddof=1)
    n = index.broadcast(count)
    d2 = index.broadcast(index.sum(np.where(np.isnan(d), 0.0, d * d)))
    with np.errstate(invalid="ignore", divide="ignore"):
        centred = d * n / (n - 1)
        others_ss = np.maximum(d2 - d * d * n / (n - 1), 0.0)
    shaky = np.flatnonzero((n > 2) & ~np.isnan(x) & (others_ss < 1e-6 * d2))
    constant = np.zeros(len(x), dtype=bool)
    if len(shaky):
        others_ss[shaky], low, high = _others_direct(x, index, shaky)
        constant[shaky] = within_noise(high - low, np.fmax(np.abs(low), np.abs(high)))
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.where((n > 2) & ~constant, np.sqrt(others_ss / (n - 2)), 0.0)
    return n, centred, std


def _others_direct(x: np.ndarray, index: GroupIndex, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Σ_{j≠i} (x_j - mean_{j≠i} x)², min, max of the others) for the given rows, by an explicit two-pass
    over their groups' valid values."""
    order = index.order_within(x)
    count = index.count(~np.isnan(x)).astype(np.intp)
    first = index.first_positions()
    sizes = count[index.codes[rows]]
    owner = np.repeat(np.arange(len(rows)), sizes)  # which requested row each member belongs to
    offsets = np.arange(len(owner)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    members = order[np.repeat(first[index.codes[rows]], sizes) + offsets]
    keep = members != rows[owner]
    owner, values = owner[keep], x[members[keep]]
    others = np.bincount(owner, minlength=len(rows)).astype(np.float64)
    mean = np.bincount(owner, weights=values, minlength=len(rows)) / others
    low, high = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    np.fmin.at(low, owner, values)
    np.fmax.at(high, owner, values)
    return np.bincount(owner, weights=(values - mean[owner]) ** 2, minlength=len(rows)), low, high


def nan_mean_std(x: np.ndarray, ddof: int = 1) -> tuple[int, float, float]:
    """Batch (count, mean, std) ignoring NaN; std NaN when count <= ddof, mean NaN when count == 0,
    std exactly 0 when the values are constant (:func:`within_noise`)."""
    valid = x[~np.isnan(x)]
    n = len(valid)
    if n == 0:
        return 0, float("nan"), float("nan")
    scale = unit_scale(valid)
    if scale != 1.0:
        n, mean, std = nan_mean_std(valid * scale, ddof)
        return n, mean / scale, std / scale
    mean = float(valid.mean())
    if n <= ddof:
        return n, mean, float("nan")
    std = 0.0 if is_constant(valid) else float(np.sqrt(((valid - mean) ** 2).sum() / (n - ddof)))
    return n, mean, std


def centred_batch(x: np.ndarray) -> tuple[np.ndarray, float]:
    """(x - nanmean(x), Bessel nanstd(x)) with both exactly 0 for a constant batch (NaN stays NaN)."""
    n, mean, std = nan_mean_std(x)
    if n and std == 0.0:
        return np.where(np.isnan(x), np.nan, 0.0), 0.0
    return x - mean, std


def nan_to_zero(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x), 0.0, x)


_ROW_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def all_nan_rows(scores: np.ndarray) -> np.ndarray:
    """Rows of an (N, K) matrix where every value is NaN (column loop: ``.all(axis=1)`` is ~10x slower)."""
    k = scores.shape[1]
    if k in _ROW_WORDS and scores.flags.c_contiguous:  # each row's K NaN flags read as one k-byte word: all set <=> all NaN
        word = _ROW_WORDS[k]
        return np.isnan(scores).view(word)[:, 0] == np.frombuffer(b"\x01" * k, dtype=word)[0]
    missing = np.isnan(scores[:, 0])
    for k in range(1, scores.shape[1]):
        missing &= np.isnan(scores[:, k])
    return missing


def standardise_per_group(
    x: np.ndarray, index: GroupIndex, eps: float, ddof: int = 1, singleton: str = "zero"
) -> np.ndarray:
    """(x - mean_G) / (std_G + eps) per group and column; NaN where x is NaN or the std is undefined.

    ``singleton="raw"`` reproduces verl's ``compute_grpo_outcome_advantage``: a group with one valid
    value gets mean 0 and std 1 (so the advantage is r / (1 + eps), as verl divides by std + eps).
    """
    scale = group_unit_scale(x, index)
    if scale is not None:  # deviations of values near ±1.7e308 overflow: z-scores at unit scale, exact (eps scales along)
        z = standardise_per_group(x * index.broadcast(scale), index, eps * scale, ddof)
        if singleton == "raw":  # a lone rollout's r / (1 + eps) is not a z-score: from the raw value
            one = index.broadcast(group_moments(x, index, ddof)[0] == 1)
            z = np.where(one, x / (1.0 + eps), z)
        return z
    if index.starts is not None and index.n > block_rows(x) and np.ndim(eps) == 0:  # (the unit scale's eps is per group)
        return standardise_in_blocks(x, index, eps, ddof, singleton)
    return _standardise_at_unit_scale(widened(x), index, eps, ddof, singleton)


# Cells (rows x K) per run of whole groups in :func:`standardise_in_blocks`: its arrays (a few of 131,072 float64, 1 MB
# each) stay in the core's cache, where the same passes over a million rows x 4 go to memory (33 -> 23 ms). A per-group
# statistic has the same bits on any run of whole groups, so this size changes no bit
# (tests/test_combiners_blocks.py runs it at 1-40 rows against one run of the whole batch).
BLOCK_CELLS = 131_072


def block_rows(x: np.ndarray) -> int:
    """Rows per run of :func:`standardise_in_blocks` for (N,) or (N, K) values."""
    return max(1, BLOCK_CELLS // (x.shape[1] if x.ndim == 2 and x.shape[1] else 1))


def standardise_in_blocks(
    x: np.ndarray, index: GroupIndex, eps: float, ddof: int = 1, singleton: str = "zero", rows: int | None = None,
    then: Any = None,
) -> np.ndarray:
    """:func:`standardise_per_group` of contiguous groups whose values need no unit scale (checked by the caller),
    computed on runs of whole groups of about ``rows`` rows (:meth:`GroupIndex.row_blocks`). ``x`` may be float32: each
    run is widened to float64 (exact) on its own. ``then(lo, hi, z)``, when given, is called on each run's result
    ``z`` (rows lo:hi) while it is in cache, and may change it in place."""
    out = np.empty(x.shape)
    for lo, hi, run in index.row_blocks(block_rows(x) if rows is None else rows):
        part = x[lo:hi]
        if part.dtype != np.float64:
            part = part.astype(np.float64)
        z = _standardise_at_unit_scale(part, run, eps, ddof, singleton, out=out[lo:hi])
        if then is not None:
            then(lo, hi, z)
    return out


def _standardise_at_unit_scale(
    x: np.ndarray, index: GroupIndex, eps: float, ddof: int, singleton: str, out: np.ndarray | None = None
) -> np.ndarray:
    count, _, std, dev = _group_moments(x, index, ddof)  # unit scale already checked by the caller
    if singleton == "raw":
        one = count == 1
        std = np.where(one, 1.0, std)  # verl divides by (1 + eps): A = r / (1 + eps)
        dev = np.where(index.broadcast(one), x, dev)  # mean 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(dev, index.broadcast(std + eps), out=dev if out is None else out)
