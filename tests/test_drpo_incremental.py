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


# ------------------------------------------------------------------ property: incremental == from scratch, any stream

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@st.composite
def streams(draw):
    """A run of 3-12 steps: ragged question sizes 1-7 (non-powers of two), 1-3 domains, discrete or continuous
    rewards, NaN cells and whole NaN rows, a question id now and then seen again in a later step."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    steps, n_domains = draw(st.integers(3, 12)), draw(st.integers(1, 3))
    discrete, nan_share = draw(st.booleans()), draw(st.sampled_from([0.0, 0.05, 0.3]))
    sign = -1.0 if draw(st.booleans()) else 1.0  # negated: -0.0 rewards, which np.unique counts as 0.0
    out, next_id = [], 0
    for _ in range(steps):
        questions = int(rng.integers(1, 6))
        sizes = rng.integers(1, 8, questions)
        ids = np.arange(next_id, next_id + questions)
        next_id += questions
        if next_id - questions > 0 and rng.random() < 0.2:
            ids[0] = rng.integers(0, next_id - questions)  # an earlier question asked again
        groups = np.repeat(ids, sizes)
        domain = np.repeat(np.asarray([f"d{i}" for i in rng.integers(0, n_domains, questions)], dtype=object), sizes)
        values = rng.integers(0, 2, (len(groups), 2)).astype(float) if discrete else rng.random((len(groups), 2))
        values[rng.random(values.shape) < nan_share] = np.nan
        out.append((sign * values, groups, domain))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams())
def test_incremental_equals_from_scratch_on_any_stream(stream):
    """Every call of the incremental exact rule (growing matrix, distinct count kept, elbow stop, one data preparation
    for every k) against a from-scratch one (every vector padded and stacked again, every k fitted by ``KMeans``)."""
    incremental, scratch = DRPOCombiner(), ReferenceDRPO()
    for step, (scores, groups, domain) in enumerate(stream):
        got = incremental.combine(scores, groups, [1.0, 0.3], domain=domain)
        want = scratch.combine(scores, groups, [1.0, 0.3], domain=domain)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9, err_msg=f"step {step}")
        assert got.tobytes() == want.tobytes(), f"step {step}"  # in fact equal bit for bit
        for d, history in incremental._history.items():  # the distinct count kept as rows arrive = a full sort's
            assert history.distinct() == len(np.unique(history.matrix(), axis=0)), (step, d)


def test_shared_kmeans_fits_equal_sklearn_kmeans():
    """One data preparation for every k gives ``KMeans(k, n_init="auto", random_state=0).fit`` bit for bit."""
    from sklearn.cluster import KMeans

    rng = np.random.default_rng(5)
    for n, width, dtype in ((7, 3, np.float32), (97, 8, np.float32), (250, 5, np.float64), (33, 1, np.float32)):
        points = (rng.integers(0, 4, (n, width)) * 0.25 + 0.01 * rng.random((n, width))).astype(dtype)
        shared = drpo.SharedKMeans(points)
        for k in range(1, 7):
            want = KMeans(n_clusters=k, n_init="auto", random_state=0).fit(points)
            got = shared.fit(k)
            np.testing.assert_array_equal(got.labels_, want.labels_)
            assert got.cluster_centers_.tobytes() == want.cluster_centers_.tobytes()
            assert got.inertia_ == want.inertia_


def test_the_shared_steps_are_checked_against_kmeans_once_and_used():
    """The once-per-process self-check passes on the installed sklearn, so the search uses the shared preparation."""
    from polyreward.combiners import drpo_kmeans

    assert drpo_kmeans._shared_steps_match_kmeans()
    assert isinstance(drpo_kmeans.SharedKMeans.for_points(np.zeros((3, 2), dtype=np.float32)), drpo_kmeans.SharedKMeans)
