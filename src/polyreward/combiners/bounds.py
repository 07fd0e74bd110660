"""The per-row quantities in which combiners state their bound on |A| (:meth:`Combiner.advantage_bound
<polyreward.combiner.Combiner.advantage_bound>`), computed from one batch.

Each combiner's module docstring states a bound on its advantages in terms of the group and the batch (n scored
rollouts of the row's group, N of the batch, Δ the group's range of the weighted total, T tokens, ...);
:class:`BatchFacts` computes those quantities so the class can return the bound as an array and the shared property
tests (``tests/test_combiners_properties.py``) can check |A| against it on every registered combiner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


def z_bound(n: Any) -> np.ndarray:
    """(n - 1)/sqrt(n): the largest |z-score| of n values with a Bessel std (0 for n <= 1)."""
    n = np.asarray(n, dtype=float)
    return np.where(n > 1, (n - 1) / np.sqrt(np.maximum(n, 1)), 0.0)


class BatchFacts:
    """Per-row quantities of one batch that bounds are stated in.

    Attributes:
        k: reward columns; scored: rows with at least one reward; n: scored rollouts of the row's group;
        N: scored rollouts of the batch; range: the group's max - min of the weighted total Σ_k w_k R_ik (0 for
        unscored rows); range_with_zero: the same with 0 added to the group's values; lone_total: |total| of a row
        alone in its group, else 0; abs_w: |weights|; T: the scored rows' token count (``lengths``, else one each);
        groups: integer group ids 0..G-1; extra: the per-row arrays given to ``combine`` (lengths, row columns).
    """

    def __init__(self, scores: np.ndarray, groups: np.ndarray, weights: np.ndarray,
                 extra: Mapping[str, Any] | None = None) -> None:
        s, g, w = np.asarray(scores, dtype=float), np.asarray(groups), np.asarray(weights, dtype=float)
        extra = dict(extra or {})
        self.k = s.shape[1]
        self.scored = ~np.all(np.isnan(s), axis=1)
        self.n = np.bincount(g, weights=self.scored)[g]  # scored rollouts of the row's group
        self.N = self.scored.sum()
        total = np.where(np.isnan(s), 0.0, s) @ w
        masked_hi = np.where(self.scored, total, -np.inf)
        masked_lo = np.where(self.scored, total, np.inf)
        hi = np.full(g.max() + 1, -np.inf)
        lo = np.full(g.max() + 1, np.inf)
        np.maximum.at(hi, g, masked_hi)
        np.minimum.at(lo, g, masked_lo)
        self.range = np.where(self.scored, (hi - lo)[g], 0.0)
        self.groups = g
        self.extra = extra
        self.range_with_zero = np.where(self.scored, (np.maximum(hi, 0.0) - np.minimum(lo, 0.0))[g], 0.0)
        self.lone_total = np.where(self.n == 1, np.abs(total), 0.0)
        self.abs_w = np.abs(w)
        self.T = float(np.sum(np.asarray(extra.get("lengths", np.ones(len(g))))[self.scored]))
