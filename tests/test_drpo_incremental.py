"""DRPO's exact rule, made cheaper (issue #35: the elbow search stops at the elbow and reuses its fit, the padded
history is one growing matrix, the distinct-row count stops once it reaches k_max), gives the advantages of the rule
as it was -- kept as ``drpo._reference_clusters`` -- bit for bit, over a long run with several domains, ragged
question sizes and NaN rewards (``benchmarks/drpo_scale.py`` checks the same to step 3,000)."""

from __future__ import annotations

import numpy as np

import polyreward.combiners.drpo as drpo
from polyreward.combiners import DRPOCombiner


class ReferenceDRPO(DRPOCombiner):
    """The exact rule before the speed work: stack every padded vector and run the full elbow search each call."""

    def _clusters(self, history):
        points = np.stack([history.pad(v) for v in history.vectors], axis=0)
        mu_d, labels, sizes, centroids = drpo._reference_clusters(points, self.k_max)
        return mu_d, labels.__getitem__, sizes, centroids


def run_stream(steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    for step in range(steps):
        sizes = rng.choice([3, 5, 6], 6) if step % 7 == 3 else np.full(6, 5)  # a wider question now and then
        groups = np.repeat(np.arange(6) + 6 * step, sizes)
        domain = np.asarray(["common", "common", "common", "rare", "mid", "mid"], dtype=object)[np.repeat(np.arange(6), sizes)]
        p = np.where(domain == "rare", 0.3, np.where(domain == "mid", 0.5, 0.7))
        scores = np.column_stack([(rng.random(len(groups)) < p).astype(float), (rng.random(len(groups)) < 0.8).astype(float)])
        scores[rng.random(scores.shape) < 0.03] = np.nan
        yield scores, groups, domain


def test_exact_rule_equals_the_reference_over_a_long_run():
    fast, reference = DRPOCombiner(), ReferenceDRPO()
    for step, (scores, groups, domain) in enumerate(run_stream(100)):
        got = fast.combine(scores, groups, [1.0, 0.2], domain=domain)
        want = reference.combine(scores, groups, [1.0, 0.2], domain=domain)
        assert got.tobytes() == want.tobytes(), f"step {step}: max |diff| {np.abs(got - want).max():.3g}"
    assert len(fast._history["common"].vectors) == 3 * 100
    np.testing.assert_array_equal(fast._history["common"].matrix(), np.stack(fast._history["common"].padded()))


def test_elbow_model_picks_the_reference_k_and_its_fit():
    rng = np.random.default_rng(3)
    for n, spread in ((40, 0.05), (200, 0.3), (9, 1.0), (3, 0.0)):
        centres = rng.random((4, 6)).astype(np.float32)
        points = (centres[rng.integers(0, 4, n)] + spread * rng.random((n, 6))).astype(np.float32)
        want = drpo._reference_clusters(points, 10)
        model = drpo.elbow_model(points, 10)
        assert model.n_clusters == len(want[3])
        np.testing.assert_array_equal(model.labels_, want[1])
        np.testing.assert_array_equal(model.cluster_centers_, want[3])
