"""Group ids -> integer codes, and the fast per-group reductions every combiner uses (:class:`GroupIndex`).

Nothing here loops over groups in Python. Group ids of any hashable type, in any order, become integer codes (order
of first appearance). When every group's rows are contiguous (the usual layout of TRL/verl batches: G consecutive
rollouts per prompt) the per-group sums use ``np.add.reduceat``; otherwise ``np.bincount`` per column. Per-row
broadcasting of a group statistic is one gather.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiners.inputs import is_torch


class GroupIndex:
    """Integer group codes of N rows plus the fast reductions over them.

    Attributes:
        codes: (N,) group index of every row, numbered by first appearance.
        n_groups: number of distinct ids.
        starts: offsets of each group's run when every group is one contiguous run, else None.
    """

    __slots__ = ("_codes", "n_groups", "starts", "n", "uniform_size", "_sizes")

    def __init__(self, codes: np.ndarray | None, n_groups: int, starts: np.ndarray | None, n: int | None = None) -> None:
        """``codes`` None (with ``starts`` and ``n``): contiguous groups whose codes are built on first use only
        (most combiners on contiguous groups never read them: reduceat, repeat and :meth:`codes_of` do without)."""
        self._codes = codes
        self.n_groups = n_groups
        self.starts = starts
        self.n = len(codes) if codes is not None else int(n)
        # Contiguous groups of one common size (TRL/verl layout) allow reshaped sorts.
        size = self.n // n_groups if n_groups else 0
        uniform = starts is not None and size > 0 and size * n_groups == self.n
        self.uniform_size = size if uniform and np.array_equal(starts, np.arange(0, self.n, size)) else None
        self._sizes: np.ndarray | None = None

    @classmethod
    def from_ids(cls, groups: Any, n: int) -> GroupIndex:
        ids = ids_array(groups)
        if ids.ndim != 1 or len(ids) != n:
            raise ValueError(f"groups must be a 1-D sequence of {n} ids (one per row of scores), got shape {ids.shape}")
        if n == 0:
            return cls(np.zeros(0, dtype=np.intp), 0, np.zeros(0, dtype=np.intp))
        if ids.dtype.kind in "iufbUSM":
            # Fast path for numeric/str arrays: contiguous runs need no hashing at all.
            change = ids[1:] != ids[:-1]
            if ids.dtype.kind == "f":
                change &= ~(np.isnan(ids[1:]) & np.isnan(ids[:-1]))
            runs = np.count_nonzero(change) + 1
            size = n // runs
            if size * runs == n and change[size - 1::size].all():  # runs of one size (G rollouts per prompt)
                starts = np.arange(0, n, size)  # every multiple of the size is a change, and there are no others
            else:
                starts = np.concatenate(([0], np.flatnonzero(change) + 1))
            heads = ids[starts]
            increasing = ids.dtype.kind in "iuf" and bool(np.all(heads[1:] > heads[:-1]))
            if increasing or len(np.unique(heads)) == len(heads):
                return cls(None, len(starts), starts, n)
        codes, uniques = _factorize(ids)
        n_groups = len(uniques)
        contiguous = n < 2 or bool(np.all(np.diff(codes) >= 0))
        starts = np.concatenate(([0], np.flatnonzero(np.diff(codes)) + 1)) if contiguous else None
        return cls(codes.astype(np.intp, copy=False), n_groups, starts)

    @property
    def codes(self) -> np.ndarray:
        """(N,) group index of every row (numbered by first appearance)."""
        if self._codes is None:  # contiguous runs: 0 before the second start, 1 before the third, ...
            codes = np.zeros(self.n, dtype=np.intp)
            codes[self.starts[1:]] = 1
            np.cumsum(codes, out=codes)
            self._codes = codes
        return self._codes

    def codes_of(self, rows: np.ndarray) -> np.ndarray:
        """The group codes of some rows (``codes[rows]``), without building every row's code for contiguous groups."""
        if self._codes is None:
            if self.uniform_size is not None:
                return rows // self.uniform_size
            return np.searchsorted(self.starts, rows, side="right") - 1
        return self._codes[rows]

    # Reductions -------------------------------------------------------------------------------
    def sum(self, values: np.ndarray) -> np.ndarray:
        """Per-group sum of (N,) or (N, K) values -> (n_groups,) or (n_groups, K). No NaN handling."""
        if self.n == 0:
            return np.zeros((0,) + values.shape[1:])
        if values.ndim == 1 and self.uniform_size is not None and 2 <= self.uniform_size <= MAX_RUN_SUM:
            sums = sum_equal_runs(values, self.uniform_size)
            if np.isfinite(sums).all():  # finite sums had only finite terms: reduceat's bits (below)
                return sums
        if self.starts is not None:
            return np.add.reduceat(values, self.starts, axis=0)
        if values.ndim == 1:
            return np.bincount(self.codes, weights=values, minlength=self.n_groups)
        out = np.empty((self.n_groups,) + values.shape[1:])
        for k in range(values.shape[1]):  # loop over objectives, never over groups
            out[:, k] = np.bincount(self.codes, weights=values[:, k], minlength=self.n_groups)
        return out

    def count(self, valid: np.ndarray, invalid_cells: np.ndarray | None = None) -> np.ndarray:
        """Per-group number of True in (N,) or (N, K) ``valid`` as float64: the group sizes less the few invalid cells
        (whole numbers, so equal to summing 1.0s, without a float pass over every cell). ``invalid_cells``: the
        row-major positions of the False cells when the caller has them."""
        sizes = self.sizes().astype(np.float64)
        cells = np.flatnonzero(~valid) if invalid_cells is None else invalid_cells
        if valid.ndim == 1:
            return sizes - np.bincount(self.codes_of(cells), minlength=self.n_groups)
        k = valid.shape[1]
        rows = cells // k
        missing = np.bincount(self.codes_of(rows) * k + (cells - rows * k), minlength=self.n_groups * k)
        return sizes[:, None] - missing.reshape(self.n_groups, k)

    def broadcast(self, stat: np.ndarray) -> np.ndarray:
        """Per-group statistic back to one value per row (a repeat for equal contiguous groups, else a gather)."""
        if self.uniform_size is not None:
            return np.repeat(stat, self.uniform_size, axis=0)
        return np.take(stat, self.codes, axis=0)

    def sizes(self) -> np.ndarray:
        if self._sizes is None:
            if self.uniform_size is not None:
                self._sizes = np.full(self.n_groups, self.uniform_size, dtype=np.intp)
            elif self._codes is None:  # contiguous runs: the distances between their starts
                self._sizes = np.diff(self.starts, append=self.n)
            else:
                self._sizes = np.bincount(self.codes, minlength=self.n_groups)
        return self._sizes

    def order_within(self, values: np.ndarray) -> np.ndarray:
        """Permutation sorting rows by (group, value): NaN last within each group, ties in row order."""
        if self.uniform_size is not None:
            size = self.uniform_size
            local = np.argsort(values.reshape(-1, size), axis=1, kind="stable")
            return (local + np.arange(0, self.n, size)[:, None]).ravel()
        return np.lexsort((values, self.codes))  # lexsort is stable: ties keep row order

    def row_blocks(self, rows: int):
        """Contiguous groups cut into runs of whole groups of about ``rows`` rows (at least one group each): yields
        (first row, end row, the :class:`GroupIndex` of that run). A statistic computed per group gives the same bits
        on every run as on the whole batch, and a run's arrays stay in cache. Equal groups reuse one index."""
        if self.starts is None:
            raise ValueError("row blocks need contiguous groups")
        if self.uniform_size is not None:
            size = self.uniform_size
            per_block = max(1, rows // size)
            full = GroupIndex(None, min(per_block, self.n_groups), np.arange(0, min(per_block, self.n_groups) * size, size),
                              min(per_block, self.n_groups) * size)
            for first in range(0, self.n_groups, per_block):
                count = min(per_block, self.n_groups - first)
                sub = full if count == full.n_groups else GroupIndex(None, count, np.arange(0, count * size, size), count * size)
                yield first * size, (first + count) * size, sub
            return
        cuts = np.unique(np.searchsorted(self.starts, np.arange(0, self.n, max(1, rows)), side="right") - 1)
        bounds = np.append(cuts, self.n_groups)
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            lo = int(self.starts[a])
            hi = int(self.starts[b]) if b < self.n_groups else self.n
            yield lo, hi, GroupIndex(None, b - a, self.starts[a:b] - lo, hi - lo)

    def first_positions(self) -> np.ndarray:
        """Position of each group's first row in the order of :meth:`order_within`."""
        first = np.zeros(self.n_groups, dtype=np.intp)
        first[1:] = np.cumsum(self.sizes())[:-1]
        return first


MAX_RUN_SUM = 8  # runs of up to 8 values: numpy sums the 7 after the first one by one (below 8 it does not pair them)


def sum_equal_runs(values: np.ndarray, size: int) -> np.ndarray:
    """``np.add.reduceat(values, np.arange(0, N, size))`` of (N,) values for 2 <= size <= 8 wherever a run's sum is
    finite, bit for bit, ~2x faster: reduceat adds a run as a_0 + pairwise(a_1 ... a_{size-1}), and numpy's pairwise
    sum of fewer than 8 values is ((-0.0 + a_1) + a_2) + ... (left to right; -0.0 + a = a for every a), so
    a_0 + (((a_1 + a_2) + a_3) + ...) computed one position of all the runs at a time is the same sum, from
    (N / size,) strided slices instead of a call per run. A NaN or inf term (a sum that is not finite) can come out
    as a NaN of another sign or payload: :meth:`GroupIndex.sum` then uses reduceat
    (tests/test_combiners_blocks.py against reduceat, -0.0, subnormal and overflowing values included)."""
    runs = values.reshape(-1, size)
    tail = runs[:, 1].copy()
    for j in range(2, size):
        tail += runs[:, j]
    return np.add(runs[:, 0], tail, out=tail)


def ids_array(groups: Any) -> np.ndarray:
    """Group ids as a 1-D numpy array (a torch tensor moved to the CPU; tuples, mixed types and None as objects)."""
    if is_torch(groups):
        return groups.detach().cpu().numpy()
    if isinstance(groups, np.ndarray):
        return groups
    ids = list(groups)
    try:
        arr = np.asarray(ids)
    except (ValueError, TypeError):
        arr = None
    if arr is not None and arr.dtype.kind == "f" and any(type(i) is int and abs(i) > 2**53 for i in ids):
        arr = None  # ints past 2**53 beside floats would round to one float and merge two groups
    if arr is not None and arr.dtype.kind == "U" and not all(isinstance(i, str) for i in ids):
        arr = None  # numbers beside strings would become their text ("1" and 1 one group)
    if arr is None or arr.ndim != 1 or arr.dtype.kind not in "iufbU":
        # Tuples, mixed types, None...: keep each id as one Python object.
        arr = np.empty(len(ids), dtype=object)
        arr[:] = [i if not isinstance(i, list) else tuple(i) for i in ids]
    return arr


def _factorize(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import pandas as pd  # lazy: importing pandas costs ~0.3 s

    try:
        codes, uniques = pd.factorize(ids, use_na_sentinel=False)
    except TypeError as exc:
        raise ValueError(f"group ids must be hashable: {exc}") from None
    return codes, np.asarray(uniques)
