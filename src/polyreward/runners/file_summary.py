"""The summary of a scored file, built part by part while the parts are joined: memory does not grow with rows.

``polyreward score`` prints, per reward and for the weighted total, the row count, mean, sample std and NaN count
(overall and per ``--by`` value), the failure counts, and ``--report-to`` logs the same statistics. Computed
from the whole (N, K) score matrix they cost N·K floats; here each part's scores are folded into a
:class:`Moments` per column as the part is read, and dropped.

Exact, so the figures never depend on how the rows were cut: a :class:`Moments` keeps the *exact* sum and sum
of squares of its finite values. Every finite float is an integer multiple of 2**-1074, so the sum is kept as the
Python integer ``Σx · 2**SUM_SCALE`` and the sum of squares as ``Σx² · 2**(2·SUM_SCALE)``: no rounding, however
many values. The mean is that exact sum divided by the count, rounded once to the nearest float (Python's
integer true division is correctly rounded); the sample variance is the exact ``(n·Σx² - (Σx)²) / (n·(n-1))``
rounded once, and the std its ``math.sqrt``. Any order of the same values — any chunk size, any worker count,
Ray actors or this process, one batch or a million rows — gives the same bits (``tests/test_file_summary.py``).
numpy's ``mean`` / ``std`` (pairwise sums) differ from these by a few units in the last place, and which units
depends on N.

How a chunk's exact sums are found cheaply (:func:`exact_sums`): each float is ``M·2**(e-53)`` with ``M`` a
53-bit integer (:func:`numpy.frexp`); the values are sorted by exponent, and per exponent numpy sums the
integers cut in pieces small enough that no int64 sum overflows (26-bit halves for the sum; 18-bit thirds, whose
products are the pieces of ``M²``, for the squares); Python's big integers then add the few per-exponent sums
shifted into place. About 0.06 µs per value; a handful of values (a ``--by`` value's rows in one part) go
through :func:`math.frexp` one by one instead, which is cheaper than numpy's fixed cost. Whole numbers below 2**16
in size (0/1 scores and their totals) are summed as int64 directly (a sixth of the cost): ``x · 2**SUM_SCALE`` is
``int(x) << SUM_SCALE`` there, and no int64 sum of up to 2**24 of them or of their squares overflows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HEAD_ROWS = 64  # score rows kept from the file's start: the sample-completions table of --report-to shows the first 8

_MASK_26, _MASK_18 = (1 << 26) - 1, (1 << 18) - 1
_MOST = 1 << 24  # values summed in one go (a piece's sums stay below 2**63 up to 2**26)
_FEW = 48  # up to this many values, one by one in Python
_SMALL_INT = 1 << 16  # whole numbers below this in size are summed as int64 (x * 2**SUM_SCALE = int(x) << SUM_SCALE)
SUM_SCALE = 1127  # 1074 + 53: x * 2**SUM_SCALE is an integer for every finite float x (M << (e + 1074) below)


def exact_sums(values: np.ndarray) -> tuple[int, int]:
    """The exact sum and sum of squares of finite floats ``values``, as the integers ``Σx · 2**SUM_SCALE`` and
    ``Σx² · 2**(2·SUM_SCALE)`` (see the module docstring)."""
    values = np.asarray(values, dtype=np.float64).ravel()
    if values.size <= _FEW:
        total = squares = 0
        for value in values.tolist():
            mantissa, exponent = math.frexp(value)
            integer = int(mantissa * 9007199254740992.0)  # m * 2**53: exact
            total += integer << (exponent + 1074)
            squares += (integer * integer) << (2 * (exponent + 1074))
        return total, squares
    if values.size > _MOST:  # the int64 sums below stay exact for up to 2**26 values: longer arrays go in slices
        pieces = [exact_sums(values[start:start + _MOST]) for start in range(0, values.size, _MOST)]
        return sum(p[0] for p in pieces), sum(p[1] for p in pieces)
    if float(np.abs(values).max()) < _SMALL_INT:  # whole numbers (0/1 scores, the usual cheap reward): plain int64 sums
        ints = values.astype(np.int64)
        if np.array_equal(ints, values):  # |x| < 2**16 and n <= 2**24: Σx < 2**40, Σx² < 2**56, exact in int64
            return int(ints.sum()) << SUM_SCALE, int((ints * ints).sum()) << (2 * SUM_SCALE)
    mantissas, exponents = np.frexp(values)  # x = m * 2**e, 0.5 <= |m| < 1 (0 for 0)
    ints = (mantissas * 9007199254740992.0).astype(np.int64)  # m * 2**53: an integer, exactly; x = ints * 2**(e - 53)
    order = np.argsort(exponents, kind="stable")
    exponents, ints = exponents[order], ints[order]
    starts = np.flatnonzero(np.concatenate(([True], exponents[1:] != exponents[:-1])))
    # per exponent, the sums of the integers' parts, each small enough that a sum of 2**26 of them fits in int64
    high = np.add.reduceat(ints >> 26, starts).tolist()  # ints = high * 2**26 + low, also for negative ints
    low = np.add.reduceat(ints & _MASK_26, starts).tolist()
    size = np.abs(ints)  # size = a * 2**36 + b * 2**18 + c, a < 2**17, b, c < 2**18
    a, b, c = size >> 36, (size >> 18) & _MASK_18, size & _MASK_18
    square_parts = [np.add.reduceat(part, starts).tolist() for part in (a * a, 2 * a * b, b * b + 2 * a * c, 2 * b * c, c * c)]
    total = squares = 0
    for i, exponent in enumerate(exponents[starts].tolist()):
        shift = exponent + 1074  # x * 2**SUM_SCALE = ints << shift; the smallest exponent (of 2**-1074) is -1073
        total += ((high[i] << 26) + low[i]) << shift
        square = ((square_parts[0][i] << 72) + (square_parts[1][i] << 54) + (square_parts[2][i] << 36)
                  + (square_parts[3][i] << 18) + square_parts[4][i])
        squares += square << (2 * shift)
    return total, squares


class Moments:
    """Order-free running statistics of one column: counts, exact sum and sum of squares of the finite values,
    their extremes, and the infinities apart (a total can overflow; a score never is infinite)."""

    __slots__ = ("count", "nan", "finite", "pos_inf", "neg_inf", "sum", "squares", "low", "high")

    def __init__(self) -> None:
        self.count = 0  # values seen, NaN included
        self.nan = 0
        self.finite = 0
        self.pos_inf = 0
        self.neg_inf = 0
        self.sum = 0  # Σx · 2**SUM_SCALE over the finite values, exactly
        self.squares = 0  # Σx² · 2**(2·SUM_SCALE)
        self.low = math.inf  # extremes of the finite values
        self.high = -math.inf

    def add(self, values: np.ndarray) -> Moments:
        values = np.asarray(values, dtype=np.float64).ravel()
        self.count += values.size
        finite_mask = np.isfinite(values)
        finite = values if finite_mask.all() else values[finite_mask]
        if finite.size != values.size:
            self.nan += int(np.count_nonzero(np.isnan(values)))
            self.pos_inf += int(np.count_nonzero(values == math.inf))
            self.neg_inf += int(np.count_nonzero(values == -math.inf))
        if finite.size:
            self.finite += finite.size
            total, squares = exact_sums(finite)
            self.sum += total
            self.squares += squares
            self.low = min(self.low, float(finite.min()))
            self.high = max(self.high, float(finite.max()))
        return self

    @property
    def valid(self) -> int:
        """Values that are not NaN (infinities included, as numpy's ``values[~isnan(values)]``)."""
        return self.count - self.nan

    def mean(self) -> float:
        """Mean of the non-NaN values (NaN for none; ±inf or NaN as IEEE arithmetic gives with infinities)."""
        if not self.valid:
            return math.nan
        if self.pos_inf or self.neg_inf:
            return math.nan if self.pos_inf and self.neg_inf else (math.inf if self.pos_inf else -math.inf)
        return self.sum / (self.finite << SUM_SCALE)  # int / int: correctly rounded

    def std(self, finite_only: bool = False) -> float:
        """Sample (Bessel, ddof=1) std of the non-NaN values (of the finite ones with ``finite_only``); NaN for fewer
        than two values or with an infinity among them."""
        n = self.finite if finite_only else self.valid
        if n < 2 or (not finite_only and (self.pos_inf or self.neg_inf)):
            return math.nan
        try:
            variance = (n * self.squares - self.sum * self.sum) / ((n * (n - 1)) << (2 * SUM_SCALE))  # exact, rounded once
        except OverflowError:  # beyond the float range (values near ±1.8e308): numpy's std is inf there too
            return math.inf
        return math.sqrt(variance)

    def constant(self, finite_only: bool = False) -> bool:
        """:func:`polyreward.combiners.is_constant` of the non-NaN values (of the finite ones with ``finite_only``):
        True for fewer than two, else whether max - min is float noise relative to max |value|."""
        from polyreward.combiners.group_stats import within_noise

        infinities = 0 if finite_only else self.pos_inf + self.neg_inf
        if self.finite + infinities < 2:
            return True
        low = -math.inf if infinities and self.neg_inf else (self.low if self.finite else math.inf)
        high = math.inf if infinities and self.pos_inf else (self.high if self.finite else -math.inf)
        with np.errstate(invalid="ignore"):
            return bool(within_noise(np.float64(high) - np.float64(low), max(abs(low), abs(high))))

    def sample_std(self, finite_only: bool = False) -> float:
        """:func:`polyreward.runners.run_metrics.sample_std`: exactly 0 for values constant by the combiners' rule."""
        return 0.0 if self.constant(finite_only) else self.std(finite_only)


@dataclass
class FileSummary:
    """What ``polyreward score`` reports about a file, folded part by part (:meth:`add`): rows, each reward's failure
    count and first failure reason, :class:`Moments` of each reward's scores and of the weighted total (``reward``),
    the same per value of the ``--by`` column (in order of first appearance), the first :data:`HEAD_ROWS` rows'
    scores, and the seconds each reward took in this run. Its size depends on the rewards and the number of
    ``--by`` values, never on the number of rows."""

    names: list[str]
    weights: np.ndarray
    by: str | None = None
    rows: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    first_failure: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    columns: dict[str, Moments] = field(default_factory=dict)
    groups: dict[str, dict[str, Moments]] = field(default_factory=dict)
    head: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.names = list(self.names)
        self.weights = np.asarray(self.weights, dtype=np.float64)
        self.failures = {name: self.failures.get(name, 0) for name in self.names}
        self.columns = self.columns or {name: Moments() for name in [*self.names, "reward"]}
        if self.head is None:
            self.head = np.zeros((0, len(self.names)))

    def add(self, scores: np.ndarray, failures: Mapping[str, int] | None = None, first_failure: Mapping[str, str] | None = None,
            by_values: Sequence[str] | None = None) -> FileSummary:
        """Fold in the next rows: their (n, K) ``scores``, the failure counts and first reasons of their batch, and
        (with ``by``) each row's ``--by`` value as text."""
        from polyreward.vocabulary import weighted_total

        scores = np.asarray(scores, dtype=np.float64)
        scores = scores.reshape(-1, len(self.names)) if scores.ndim != 2 else scores
        for name, value in (failures or {}).items():
            self.failures[name] = self.failures.get(name, 0) + int(value)
        for name, reason in (first_failure or {}).items():
            self.first_failure.setdefault(name, reason)
        if len(self.head) < HEAD_ROWS:
            self.head = np.concatenate([self.head, scores[:HEAD_ROWS - len(self.head)]])
        columns = {name: scores[:, k] for k, name in enumerate(self.names)}
        columns["reward"] = weighted_total(scores, self.weights)
        for name, values in columns.items():
            self.columns[name].add(values)
        if self.by is not None and by_values is not None:
            if len(by_values) != len(scores):
                raise ValueError(f"FileSummary.add: {len(by_values)} --by values for {len(scores)} rows")
            rows: dict[str, list[int]] = {}  # each value's rows, in order of first appearance: one pass, not one per value
            for i, key in enumerate(by_values):
                rows.setdefault(key, []).append(i)
            for key, where in rows.items():
                moments = self.groups.setdefault(key, {name: Moments() for name in columns})
                for name, values in columns.items():
                    moments[name].add(values[where])
        self.rows += len(scores)
        return self

    @classmethod
    def of(cls, names: Sequence[str], weights: Any, scores: np.ndarray, **kwargs: Any) -> FileSummary:
        """The summary of one whole score matrix (``kwargs`` as :meth:`add`'s, plus ``by``)."""
        summary = cls(list(names), np.asarray(weights, dtype=np.float64), by=kwargs.pop("by", None))
        return summary.add(scores, **kwargs)

    def every_row_failed(self) -> list[str]:
        """Rewards that failed on every row (e.g. every judge call): a run that must not look like success."""
        return [name for name in self.names if self.rows and self.failures.get(name, 0) == self.rows]
