"""DRPO's k-means (:mod:`polyreward.combiners.drpo`): QoQ-Med's elbow search over a domain's question vectors,
``_select_k_elbow`` and ``_cluster_info_question`` of DDVD233/QoQ_Med ``verl/trainer/core_algos.py`` @ddb4b14, with
the same sklearn fits (``KMeans(n_clusters=k, n_init="auto", random_state=0)``) made once each and on points prepared
once per search (:class:`SharedKMeans`), and the release's own computation kept as :func:`_reference_clusters` for the
tests and ``benchmarks/drpo_scale.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def select_k_elbow(points: np.ndarray, k_max: int = 10, tol: float = 0.10) -> int:
    """The reference's ``_select_k_elbow``: the first k whose inertia drop falls below ``tol`` of the previous one."""
    return elbow_model(points, k_max, tol).n_clusters


def elbow_model(points: np.ndarray, k_max: int = 10, tol: float = 0.10, distinct: int | None = None):
    """The fitted ``KMeans(n_clusters=k, n_init="auto", random_state=0)`` of the k :func:`select_k_elbow` picks -- the
    reference's search and its final fit, with the same fits and the same answer, but cheaper:

    - the reference fits every k up to ``k_cap = min(k_max, distinct vectors)`` and then scans the inertia drops
      ``drops[i] = inertia[i] - inertia[i + 1]`` for the first ``drops[i] < tol * drops[i - 1]``; deciding at ``i``
      needs the fits up to k = i + 2 only, so the fits stop there (each fit is seeded, independent of the others);
    - the reference's final fit repeats the search's fit of the chosen k (same data, same seed): that fit is returned;
    - what ``KMeans.fit`` derives from the points alone (the validated copy, the tolerance from their variance, the
      centring on their mean, the squared row norms) is the same for every k: :class:`SharedKMeans` derives it once
      per search instead of once per fit, and runs sklearn's own k-means++ and Lloyd steps on it.

    ``distinct`` (the number of distinct vectors, when the caller keeps it: :meth:`DomainHistory.distinct`) skips the row sort.
    """
    k_cap = min(k_max, len(np.unique(points, axis=0)) if distinct is None else distinct)
    fitter = SharedKMeans.for_points(points)
    models = [fitter.fit(1)]
    inertias = [models[0].inertia_]

    def fit(k: int) -> None:
        models.append(fitter.fit(k))
        inertias.append(models[-1].inertia_)

    if k_cap >= 2:
        fit(2)
    for i in range(1, k_cap - 1):  # the reference's loop over drops[1:], with the fit of k = i + 2 made on demand
        fit(i + 2)
        drop_before = float(np.float64(inertias[i]) - np.float64(inertias[i - 1])) * -1.0
        drop = float(np.float64(inertias[i + 1]) - np.float64(inertias[i])) * -1.0
        if drop < tol * drop_before:
            return models[i]  # k = i + 1
    return models[k_cap - 1]


class KMeansFit:
    """What the search reads of a fitted ``KMeans``: k, the labels, the centroids and the inertia."""

    __slots__ = ("n_clusters", "labels_", "cluster_centers_", "inertia_")

    def __init__(self, n_clusters: int, labels: np.ndarray, centers: np.ndarray, inertia: float) -> None:
        self.n_clusters, self.labels_, self.cluster_centers_, self.inertia_ = n_clusters, labels, centers, inertia


class SharedKMeans:
    """``KMeans(n_clusters=k, n_init="auto", random_state=0).fit(points)`` for several k on the same points, with the
    work that depends on the points alone done once (sklearn 1.9's ``KMeans.fit`` for dense input, step by step):
    a C-ordered float copy, the tolerance ``mean(var(X, axis=0)) * 1e-4``, unit sample weights, the copy centred on
    its mean, the squared row norms; then per k a fresh ``RandomState(0)``, sklearn's ``_kmeans_plusplus`` and
    ``_kmeans_single_lloyd``, and the mean added back to the centroids. Same functions on the same arrays, so the
    same fits bit for bit (``tests/test_drpo_incremental.py`` compares with ``KMeans``). Where sklearn's private
    steps are not importable (another release), :meth:`for_points` falls back to ``KMeans`` itself."""

    def __init__(self, points: np.ndarray) -> None:
        from sklearn.cluster._kmeans import _tolerance
        from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
        from sklearn.utils.extmath import row_norms

        X = np.array(points, dtype=points.dtype if points.dtype in (np.float32, np.float64) else np.float64, order="C", copy=True)
        self.tol = _tolerance(X, 1e-4)
        self.sample_weight = np.ones(X.shape[0], dtype=X.dtype)
        self.n_threads = _openmp_effective_n_threads()
        self.mean = X.mean(axis=0)
        X -= self.mean
        self.X = X
        self.x_squared_norms = row_norms(X, squared=True)

    @staticmethod
    def for_points(points: np.ndarray) -> "SharedKMeans | PlainKMeans":
        if not _shared_steps_match_kmeans():
            return PlainKMeans(points)
        return SharedKMeans(points)

    def fit(self, k: int) -> KMeansFit:
        from sklearn.cluster._kmeans import _kmeans_plusplus, _kmeans_single_lloyd

        if self.X.shape[0] < k:
            raise ValueError(f"n_samples={self.X.shape[0]} should be >= n_clusters={k}.")
        start, _ = _kmeans_plusplus(self.X, k, x_squared_norms=self.x_squared_norms, sample_weight=self.sample_weight,
                                    random_state=np.random.RandomState(0))
        labels, inertia, centers, _ = _kmeans_single_lloyd(self.X, self.sample_weight, start, max_iter=300, verbose=False,
                                                           tol=self.tol, n_threads=self.n_threads)
        centers += self.mean
        return KMeansFit(k, labels, centers, inertia)


_SHARED_CHECKED: list[bool] = []


def _shared_steps_match_kmeans() -> bool:
    """Once per process: do :class:`SharedKMeans`'s steps give ``KMeans.fit``'s result on a small fixed set (k = 1..4)?
    Another sklearn release may name, sign or order its private steps differently; then every fit goes through
    ``KMeans`` itself (:class:`PlainKMeans`), slower but the same clusters."""
    if not _SHARED_CHECKED:
        try:
            from sklearn.cluster import KMeans

            rng = np.random.default_rng(0)
            points = (rng.integers(0, 3, (40, 4)) * 0.5 + 0.05 * rng.random((40, 4))).astype(np.float32)
            shared = SharedKMeans(points)
            same = True
            for k in range(1, 5):
                want, got = KMeans(n_clusters=k, n_init="auto", random_state=0).fit(points), shared.fit(k)
                same &= bool(np.array_equal(want.labels_, got.labels_)
                             and want.cluster_centers_.tobytes() == got.cluster_centers_.tobytes()
                             and float(want.inertia_) == float(got.inertia_))
        except (ImportError, AttributeError, TypeError, ValueError):
            same = False
        _SHARED_CHECKED.append(same)
    return _SHARED_CHECKED[0]


class PlainKMeans:
    """:class:`SharedKMeans`'s fallback: one ``KMeans`` per k."""

    def __init__(self, points: np.ndarray) -> None:
        self.points = points

    def fit(self, k: int):
        from sklearn.cluster import KMeans

        return KMeans(n_clusters=k, n_init="auto", random_state=0).fit(self.points)


def _reference_clusters(points: np.ndarray, k_max: int) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The exact rule as it was before :func:`elbow_model` and the cached history matrix (every k fitted, the chosen
    one fitted again, the distinct rows sorted every call): kept only so that tests and ``benchmarks/drpo_scale.py``
    check that today's exact rule gives the same advantages. (μ_d, labels, cluster sizes, centroids)."""
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        k_cap = min(k_max, len(np.unique(points, axis=0)))
        inertias = [KMeans(n_clusters=k, n_init="auto", random_state=0).fit(points).inertia_ for k in range(1, k_cap + 1)]
        k = k_cap
        if len(inertias) == 1:
            k = 1
        else:
            drops = np.diff(inertias) * -1.0
            for i in range(1, len(drops)):
                if drops[i] < 0.10 * drops[i - 1]:
                    k = i + 1
                    break
        model = KMeans(n_clusters=k, n_init="auto", random_state=0).fit(points)
    counts = np.unique(model.labels_, return_counts=True)[1].astype(float)
    inverse = 1.0 / counts
    mu_d = float((inverse * model.cluster_centers_.mean(axis=1)).sum() / inverse.sum())
    return mu_d, model.labels_, counts, model.cluster_centers_


_THREADPOOLS: list[Any] = []


def _single_thread():
    """``threadpool_limits(limits=1)`` from one controller made once (after sklearn's k-means modules, and so their
    OpenMP runtime, are loaded): building a new one scans the loaded libraries, ~10 ms per domain and call."""
    if not _THREADPOOLS:
        import sklearn.cluster  # noqa: F401 -- loads the OpenMP/BLAS libraries the limit must see
        from threadpoolctl import ThreadpoolController

        _THREADPOOLS.append(ThreadpoolController())
    return _THREADPOOLS[0].limit(limits=1)


def cluster_questions(vectors: list[np.ndarray] | np.ndarray, k_max: int, k: int | None = None,
                      start: np.ndarray | None = None, distinct: int | None = None) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The reference's ``_cluster_info_question``: (μ_d, cluster of each question, cluster sizes, centroids).

    ``k`` skips the elbow search and ``start`` (k centroids) warm-starts the fit: the fast rule's refits between
    two searches (:class:`DRPOCombiner` ``refit_every``). sklearn runs single-threaded here: the ~10 small fits per
    domain and step are ~8x faster without OpenMP start-up (the tests compare with the reference run on sklearn's
    default threads). ``vectors``: a list of equal-length vectors or their (n, width) matrix; ``distinct``: see
    :func:`elbow_model`.
    """
    from sklearn.cluster import KMeans

    points = vectors if isinstance(vectors, np.ndarray) else np.stack(vectors, axis=0)
    with _single_thread():
        if k is None:
            model = elbow_model(points, k_max, distinct=distinct)
        elif start is not None:
            model = KMeans(n_clusters=k, init=start, n_init=1, random_state=0).fit(points)
        else:
            model = KMeans(n_clusters=k, n_init="auto", random_state=0).fit(points)
    if k is None:
        counts = np.unique(model.labels_, return_counts=True)[1].astype(float)
    else:  # a warm start can leave a cluster empty: it then stands for one question
        counts = np.maximum(np.bincount(model.labels_, minlength=model.n_clusters), 1).astype(float)
    inverse = 1.0 / counts
    mu_d = float((inverse * model.cluster_centers_.mean(axis=1)).sum() / inverse.sum())
    return mu_d, model.labels_, counts, model.cluster_centers_
