"""DRPO's fast rule (bounded window, warm-started k-means): the exact rule when the window holds the whole history,
and a per-call cost that does not grow with the run (counted in clustered points, not in seconds)."""

from __future__ import annotations

import numpy as np
import pytest

import polyreward.combiners.drpo as drpo
from polyreward.combiners import DRPOCombiner


def stream(steps: int, seed: int = 0):
    """Batches of 4 questions x 4 rollouts from two domains with different accuracies; new question ids each step."""
    rng = np.random.default_rng(seed)
    for step in range(steps):
        groups = np.repeat(np.arange(4) + 4 * step, 4)
        domain = np.where(groups % 4 == 0, "rare", "common")
        p = np.where(domain == "rare", 0.3, 0.7)
        yield (rng.random(16) < p).astype(float)[:, None], groups, domain


def test_a_window_holding_the_whole_history_gives_the_exact_advantages():
    exact, fast = DRPOCombiner(), DRPOCombiner(window=1000, refit_every=1)
    for scores, groups, domain in stream(6):
        np.testing.assert_array_equal(fast.combine(scores, groups, domain=domain), exact.combine(scores, groups, domain=domain))


def test_the_fast_rule_clusters_a_bounded_number_of_points(monkeypatch):
    seen: list[tuple[int, bool]] = []
    real = drpo.cluster_questions

    def counting(vectors, k_max, k=None, start=None):
        seen.append((len(vectors), k is None))
        return real(vectors, k_max, k=k, start=start)

    monkeypatch.setattr(drpo, "cluster_questions", counting)
    fast = DRPOCombiner(window=8, refit_every=4)
    for scores, groups, domain in stream(12):
        out = fast.combine(scores, groups, domain=domain)
        assert np.isfinite(out).all() and np.abs(out).max() > 0
    assert max(n for n, _ in seen) == 8  # the common domain has 36 questions by the end: only 8 are clustered
    searches = [search for _, search in seen]
    assert searches.count(True) < searches.count(False)  # most calls reuse the last k, warm-started
    history = fast._history["common"]
    assert len(history.vectors) == 36  # N_d still counts every question: domain rarity is kept


@pytest.mark.parametrize("params, message", [({"window": 1}, "window"), ({"refit_every": 0}, "refit_every"), ({"window": 2.5}, "window")])
def test_fast_rule_parameters_are_checked(params, message):
    with pytest.raises(ValueError, match=message):
        DRPOCombiner(**params)
