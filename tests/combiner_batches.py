"""Hypothesis strategy of reward batches for the combiner property and fidelity tests.

A batch: 1-4 groups of 1-33 rollouts (any size, not only powers of two), K = 1-4 rewards that are binary,
continuous or non-dyadic fractions (k/7, tenths), some groups constant in every reward with values that are
not exactly representable (0.1, 1/3, 0.7, ...), NaN cells (some rows entirely NaN) and weights that may be
zero or negative. ``batch_sequences`` gives 1-3 batches of the same K for stateful combiners.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

NON_DYADIC = (0.1, 1 / 3, 0.7, 2.3, -0.6, 0.2, 1 / 7)
WEIGHTS = (1.0, 0.7, 2.5, 0.0, -0.3, -1.5)


@dataclass
class RewardBatch:
    scores: np.ndarray  # (N, K), NaN = not applicable
    groups: np.ndarray  # (N,) contiguous integer ids
    weights: np.ndarray  # (K,)
    constant: np.ndarray  # (N,) bool: the row's group repeats one score row (NaN pattern included)

    @property
    def n(self) -> int:
        return len(self.groups)


def build_batch(seed: int, sizes: list[int], k: int, kind: str, nan_rate: float, n_constant: int, weights: list[float]) -> RewardBatch:
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    n = len(groups)
    if kind == "binary":
        scores = rng.integers(0, 2, (n, k)).astype(float)
    elif kind == "fractions":
        scores = rng.integers(0, 8, (n, k)) / 7 + rng.integers(0, 3, (n, k)) * 0.1
    else:
        scores = rng.normal(size=(n, k)) * rng.choice([0.3, 1.0, 4.0])
    if nan_rate:
        scores[rng.random((n, k)) < nan_rate] = np.nan
    constant = np.zeros(n, dtype=bool)
    for g in rng.permutation(len(sizes))[:n_constant]:
        rows = groups == g
        row = rng.choice(NON_DYADIC, k)
        row[np.isnan(scores[rows][0])] = np.nan
        scores[rows] = row
        constant |= rows
    return RewardBatch(scores, groups, np.asarray(weights, dtype=float), constant)


@st.composite
def reward_batches(draw, k: int | None = None, max_groups: int = 4) -> RewardBatch:
    n_groups = draw(st.integers(1, max_groups))
    sizes = draw(st.lists(st.integers(1, 33), min_size=n_groups, max_size=n_groups))
    k = draw(st.integers(1, 4)) if k is None else k
    return build_batch(
        seed=draw(st.integers(0, 2**32 - 1)),
        sizes=sizes,
        k=k,
        kind=draw(st.sampled_from(["binary", "continuous", "fractions"])),
        nan_rate=draw(st.sampled_from([0.0, 0.0, 0.15, 0.4])),
        n_constant=draw(st.integers(0, n_groups)),
        weights=draw(st.lists(st.sampled_from(WEIGHTS), min_size=k, max_size=k)),
    )


@st.composite
def batch_sequences(draw) -> list[RewardBatch]:
    k = draw(st.integers(1, 4))
    length = draw(st.integers(1, 3))
    first = draw(reward_batches(k=k))
    return [first] + [draw(reward_batches(k=k)) for _ in range(length - 1)]
