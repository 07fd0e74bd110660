"""The summary of a scored file, built part by part while the parts are joined: memory does not grow with rows.

``polyreward score`` prints, per reward and for the weighted total, the row count, mean, sample std and NaN count
(overall and per ``--by`` value), the failure counts, and ``--report-to`` logs the same statistics. Computed
from the whole (N, K) score matrix they cost N·K floats; here each part's scores are folded into a
:class:`Moments` per column as the part is read, and dropped.

Exact, so the figures never depend on how the rows were cut: a :class:`Moments` keeps the *exact* sum and sum
of squares of its finite values (as :class:`fractions.Fraction`: every float is a dyadic rational, so the sum of
any number of them is one too). The mean is that exact sum divided by the count, rounded once to the nearest
float; the sample variance is the exact ``(n·Σx² - (Σx)²) / (n·(n-1))`` rounded once, and the std its
``math.sqrt``. Any order of the same values — any chunk size, any worker count, Ray actors or this process, one
batch or a million rows — gives the same bits (``tests/test_file_summary.py``). numpy's ``mean`` / ``std``
(pairwise sums) differ from these by a few units in the last place, and which units depends on N.

How a chunk's exact sum is found cheaply: :func:`math.fsum` returns the correctly rounded sum ``s`` of its
values; the values with ``-s`` appended sum exactly to the remainder, whose rounded value is taken the same way,
until the remainder is 0 — usually one or two passes over the chunk in C. A square ``x·x`` is split exactly
into ``hi + lo`` (Dekker's product: ``hi = fl(x·x)``, ``lo`` its rounding error; exact for 2**-450 < |x| <
2**450, the rare rest squared as fractions), so the exact sum of squares is the exact sum of the ``hi`` and ``lo``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

HEAD_ROWS = 64  # score rows kept from the file's start: the sample-completions table of --report-to shows the first 8

_SPLIT = 134217729.0  # 2**27 + 1: Dekker's splitter for float64
_SAFE_LOW, _SAFE_HIGH = 2.0 ** -450, 2.0 ** 450  # squares of |x| in this range split without overflow or underflow


def exact_sum(values: Sequence[float]) -> Fraction:
    """The exact sum of finite floats, as a fraction (see the module docstring)."""
    total = Fraction(0)
    found: list[float] = []
    try:
        while True:
            rest = math.fsum(list(values) + found) if found else math.fsum(values)
            if rest == 0.0:  # a nonzero exact sum is at least 2**-1074 and rounds to a nonzero float
                return total
            total += Fraction(rest)
            found.append(-rest)
    except OverflowError:  # a partial sum beyond the float range: the slow exact way
        return sum((Fraction(v) for v in values), Fraction(0))


def exact_sum_of_squares(values: np.ndarray) -> Fraction:
    """The exact sum of ``x * x`` over finite floats ``values``, as a fraction (Dekker's exact product)."""
    size = np.abs(values)
    safe = (size > _SAFE_LOW) & (size < _SAFE_HIGH)
    x = values[safe] if not safe.all() else values
    high = x * x
    split = _SPLIT * x
    x_high = split - (split - x)
    x_low = x - x_high
    low = ((x_high * x_high - high) + 2.0 * x_high * x_low) + x_low * x_low
    total = exact_sum(high.tolist() + low.tolist())
    for value in values[~safe & (values != 0.0)].tolist():  # beyond the split's range (or subnormal-small): exactly
        total += Fraction(value) ** 2
    return total


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
        self.sum = Fraction(0)
        self.squares = Fraction(0)
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
            self.sum += exact_sum(finite.tolist())
            self.squares += exact_sum_of_squares(finite)
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
        return float(self.sum / self.finite)

    def std(self, finite_only: bool = False) -> float:
        """Sample (Bessel, ddof=1) std of the non-NaN values (of the finite ones with ``finite_only``); NaN for fewer
        than two values or with an infinity among them."""
        n = self.finite if finite_only else self.valid
        if n < 2 or (not finite_only and (self.pos_inf or self.neg_inf)):
            return math.nan
        variance = (n * self.squares - self.sum * self.sum) / (n * (n - 1))
        return math.sqrt(float(variance))

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

        scores = np.asarray(scores, dtype=np.float64).reshape(-1, len(self.names))
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
            keys = np.asarray(by_values, dtype=object)
            for key in dict.fromkeys(by_values):
                mask = keys == key
                moments = self.groups.setdefault(key, {name: Moments() for name in columns})
                for name, values in columns.items():
                    moments[name].add(values[mask])
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
