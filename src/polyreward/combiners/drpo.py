"""DRPO: Domain-aware Relative Policy Optimization (QoQ-Med) -- GRPO advantages scaled by domain rarity and
question-difficulty clusters.

Paper: Dai, Chen, Ekbote, Liang, "QoQ-Med: Building Multimodal Clinical Foundation Models with Domain-Aware
GRPO Training", arXiv 2506.00711 (NeurIPS 2025). Code: DDVD233/QoQ_Med ``verl/trainer/core_algos.py``
``compute_drpo_outcome_advantage`` at commit ddb4b14308dce54db1e21ec803745d7221960b67 -- the release the
paper links to. Exact.

Which version: the authors' repositories hold several. An early one (DDVD233/EasyR1) scales by running
domain means ``(N_d/N)·(μ_d/μ)`` and damps by KL; a later one k-means-clusters scalar rewards; the released
one (this) clusters *questions* by their vector of rollout rewards within each domain, the "inter-domain ×
intra-domain K-means" hierarchy the paper describes; the verl ``@register_adv_est`` port of it differs only
in searching up to k = 20 clusters (``k_max=20``). The KL damping of the release is commented out there and
left out here.

Per question q (a group) of domain d with rollout rewards r_q = (r_q1, ..., r_qR):

    r_i   = Σ_k w_k R_ik                                   (nansum over objectives)
    Â_i   = (r_i - mean_q r) / (std_q r + ε)               (GRPO, Bessel std)
    history_d ← history_d + [r_q]                          (every question of d seen so far, all steps)
    k-means on history_d: k by the elbow rule (k ≤ min(k_max, distinct vectors); the first k whose drop
            in inertia is < 10 % of the previous drop), sklearn KMeans(n_init="auto", random_state=0)
    μ_c   = mean of centroid c's entries,  N_c = questions in cluster c,  N_d = |history_d|
    μ_d   = Σ_c μ_c / N_c  /  Σ_c 1 / N_c                  (inverse-cluster-size weighted)
    T_d   = max(√N_d · μ_d, ε)
    A_i   = Â_i / (T_d · √N_c · μ_c),   c = the cluster of q's first occurrence in history_d
    A_i  ← A_i / (std_batch A + ε)                         (Bessel std over the whole batch),  ε = 1e-6

Rare domains (small N_d) and rare or low-reward clusters get larger advantages. The histories are the state
(:meth:`state_dict`), so a resumed run clusters exactly as an uninterrupted one. They are never trimmed, as in the
release (its ``domain_qstats`` keeps every vector and it re-clusters every domain of that history at each call; here
only the batch's domains, which gives the same advantages): the k-means cost grows linearly with the run. The
search here stops at the elbow and keeps that fit instead of fitting every k up to k_max and then the chosen k once
more, and the padded history is one growing matrix: the same fits, so the same advantages bit for bit, at 10-35 %
less time per call (``benchmarks/drpo_scale.py`` compares both to step 3,000). No cheaper *exact* rule exists:
seeded k-means++ over the whole history starts from points drawn among all of them, so any fit over fewer points,
or warm-started from the last call, clusters differently.

The fast rule (an option; the exact one stays the default) bounds that cost: ``window=W`` clusters only the
last W questions of a domain (N_c scaled by N_d / W so the sizes stand for the whole history; N_d still counts
every question, so domain rarity is kept; a question older than the window takes its nearest centroid), and
``refit_every=R`` runs the elbow search every R calls of a domain, with one k-means warm-started at the last
centroids in between. With W at least the history and R = 1 it gives the exact advantages. Measured against
the exact rule on the same histories in ``benchmarks/drpo_scale.py``. The fast rule's fits are not part of the
state: a resumed run searches k again at its first call.

Beyond the reference (which has none of these cases): a row with no applicable reward gets A = 0 and stays
out of every statistic, and its slot in r_q holds the mean of q's valid rewards; a question shorter than the
longest vector of its domain is padded with its mean the same way; a single-rollout question (GRPO std
undefined) gets A = 0 and is left out of the batch std; a cluster term √N_c · μ_c ≤ ε is clamped to ε like
T_d (the reference divides by it: NaN for the whole batch at 0, flipped signs below). The method assumes
non-negative rewards, as in QoQ-Med. Diagnostics of the last call (:meth:`diagnostics`): each domain's share
of the advantage mass Σ|A|, its questions in history, its clusters and its mean scale A / Â.
Bound: |A| <= (N - 1)/sqrt(N) for N scored rollouts (the final batch normalisation).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex, ids_array
from polyreward.combiners.group_stats import group_mean_std
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import as_score_matrix, as_weights, check_positive, to_output
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound

STATE_VERSION = 1
FLOAT32_MAX = float(np.finfo(np.float32).max)


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

    ``distinct`` (the number of distinct vectors, when the caller knows it is at least ``k_max``) skips the row sort.
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
        try:
            return SharedKMeans(points)
        except ImportError:
            return PlainKMeans(points)

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


def label(value: Any) -> Any:
    """A domain label or question id as one hashable key: numpy scalars as the Python values they hold, lists (JSON
    tuples) as tuples, and every NaN -- whatever float object carries it -- as the one :data:`NAN_LABEL`, so that NaN
    labels are one domain (NaN != NaN would make each NaN object a domain of its own)."""
    value = _native(value)
    if isinstance(value, float) and math.isnan(value):
        return NAN_LABEL
    return value


NAN_LABEL = float("nan")


def _native(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (JSON-friendly state); lists (JSON tuples) back to tuples."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, list):
        return tuple(label(v) for v in value)
    return value


class DomainHistory:
    """One domain's question history: reward vectors (float32, as the reference), first positions of ids, the
    widest vector so far, and the fast rule's last fit (k and centroids, with the calls since its elbow search)."""

    __slots__ = ("vectors", "question_ids", "first", "width", "fit", "calls", "_rows", "_filled", "distinct")

    def __init__(self) -> None:
        self.vectors: list[np.ndarray] = []
        self.question_ids: list[Any] = []
        self.first: dict[Any, int] = {}
        self.width = 0
        self.fit: tuple[int, np.ndarray] | None = None
        self.calls = 0
        # The padded vectors as one growing float32 matrix (capacity doubles): each call appends its questions instead
        # of padding and stacking the whole history again; rebuilt only when a wider vector arrives.
        self._rows = np.zeros((0, 0), dtype=np.float32)
        self._filled = 0
        # Distinct padded vectors counted at the last elbow search: it never falls as the history grows (padding a
        # wider vector keeps distinct vectors distinct), so once it reaches k_max the row sort is not needed again.
        self.distinct = 0

    def add(self, question: Any, vector: np.ndarray) -> None:
        self.first.setdefault(question, len(self.vectors))  # the reference's list.index(): first occurrence
        self.vectors.append(vector)
        self.question_ids.append(question)
        self.width = max(self.width, len(vector))

    def matrix(self) -> np.ndarray:
        """Every vector padded (:meth:`pad`), stacked: (questions, width) float32, equal to ``np.stack(padded())``."""
        if self._rows.shape[1] != self.width:
            self._rows, self._filled = np.zeros((max(2 * len(self.vectors), 64), self.width), dtype=np.float32), 0
        if self._filled < len(self.vectors):
            new = self.vectors[self._filled:]
            if len(self.vectors) > len(self._rows):
                grown = np.zeros((2 * len(self.vectors), self.width), dtype=np.float32)
                grown[: self._filled] = self._rows[: self._filled]
                self._rows = grown
            self._rows[self._filled: len(self.vectors)] = [self.pad(v) for v in new]
            self._filled = len(self.vectors)
        return self._rows[: self._filled]

    def pad(self, vector: np.ndarray) -> np.ndarray:
        """A shorter vector padded with its own mean to the domain's widest (as the reference's list of vectors)."""
        if len(vector) == self.width:
            return vector
        return np.concatenate([vector, np.full(self.width - len(vector), vector.mean(), dtype=np.float32)])

    def padded(self, window: int | None = None) -> np.ndarray:
        """Every vector padded, or only the last ``window`` of them, as rows of one (n, width) matrix."""
        rows = self.matrix()
        return rows if window is None else rows[-window:]


class DRPOCombiner(GroupedCombiner):
    """QoQ-Med's DRPO: GRPO advantages divided by domain and difficulty-cluster temperatures (module docstring).

    Args:
        eps: added to the standard deviations and temperatures it divides by
        k_max: largest number of difficulty clusters the elbow search tries per domain
        window: cluster only the last W questions of a domain (the fast rule); null: the whole history (exact)
        refit_every: run the elbow search every R calls of a domain, warm-started k-means in between; 1: every call
            (exact)
    """

    type_name = "drpo"
    exactness = "exact"
    description = ("DRPO (QoQ-Med): GRPO scaled by domain rarity x k-means question-difficulty clusters, batch-normalised; "
                   "needs columns.domain (DDVD233/QoQ_Med core_algos.py @ddb4b14)")
    row_columns = ("domain",)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({},)
    row_order_dependent = True
    reference_test = "tests/test_drpo.py"  # the comparison with the source's code
    exactness_note = "exact (QoQ-Med release), **stateful**, reads a per-row `domain`"
    summary = (
        "GRPO ÷ (domain temperature × k-means difficulty-cluster temperature), batch-normalised; see [Clinical "
        "objectives](clinical-objectives.md)"
    )
    key_parameters = (
        "`eps` 1e-6, `k_max` 10; `columns: {domain: <column>}`; fast rule: `window`, `refit_every` (below)"
    )
    bound_text = "(N − 1)/√N after the batch normalisation"

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # clusters questions by their reward levels

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return z_bound(facts.N)  # its final batch normalisation

    def __init__(self, eps: float = 1e-6, k_max: int = 10, window: int | None = None, refit_every: int = 1) -> None:
        check_positive("eps", eps)
        for name, value, low in (("k_max", k_max, 1), ("refit_every", refit_every, 1), ("window", window, 2)):
            if value is None and name == "window":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
        self.eps = float(eps)
        self.k_max = k_max
        self.window = window
        self.refit_every = refit_every
        self._history: dict[Any, DomainHistory] = {}
        self._last: dict[str, float] = {}

    def combine(self, scores: Any, groups: Any, weights: Any = None, domain: Any = None) -> Any:
        matrix = as_score_matrix(scores)
        if domain is None:
            raise ValueError("drpo needs a domain label per row: combine(..., domain=[...]); "
                             "in a config, name the column with `columns: {domain: <column>}`")
        domains = ids_array(domain)
        if domains.ndim != 1 or len(domains) != len(matrix):
            raise ValueError(f"domain must hold one label per row of scores ({len(matrix)}), got shape {domains.shape}")
        if not len(matrix):  # N = 0: nothing to scale, the history stays as it was
            self._last = {}
            return to_output(np.zeros(0), scores)
        index = GroupIndex.from_ids(groups, len(matrix))
        result = self.advantages_with_domains(matrix, index, as_weights(weights, matrix.shape[1]), domains, ids_array(groups))
        return to_output(np.where(np.isnan(result), 0.0, result), scores)

    def advantages_with_domains(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray, domains: np.ndarray,
                                ids: np.ndarray) -> np.ndarray:
        total = weighted_total(scores, weights)
        largest = float(np.max(np.abs(total), initial=0.0, where=~np.isnan(total)))
        if largest > FLOAT32_MAX:  # checked before the history changes, so a refused batch leaves the state as it was
            raise ValueError(f"drpo keeps each question's rewards in float32 (as QoQ-Med does) for its k-means; a weighted "
                             f"reward of magnitude {largest:.3g} exceeds the float32 range ({FLOAT32_MAX:.3g}): rescale the rewards")
        count, mean, std = group_mean_std(total, index, ddof=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            grpo = (total - index.broadcast(mean)) / (index.broadcast(std) + self.eps)
        order = np.argsort(index.codes, kind="stable")
        starts = np.concatenate(([0], np.cumsum(index.sizes())[:-1]))
        rows_of = np.split(order, starts[1:])
        group_domain, group_id = [], []
        for g, rows in enumerate(rows_of):  # one history entry per question, in order of first appearance
            d, q = label(domains[rows[-1]]), label(ids[rows[0]])
            group_domain.append(d)
            group_id.append(q)
            if count[g] > 0:
                vector = np.where(np.isnan(total[rows]), mean[g], total[rows]).astype(np.float32)
                self._history.setdefault(d, DomainHistory()).add(q, vector)
        factor = np.full(index.n_groups, np.nan)
        clusters: dict[Any, tuple[float, np.ndarray, np.ndarray, np.ndarray]] = {}
        for g in range(index.n_groups):
            if count[g] == 0:
                continue
            d = group_domain[g]
            history = self._history[d]
            if d not in clusters:
                clusters[d] = self._clusters(history)
            mu_d, cluster_of, sizes, centroids = clusters[d]
            c = cluster_of(history.first[group_id[g]])
            temperature = max(math.sqrt(len(history.vectors)) * mu_d, self.eps)
            factor[g] = temperature * max(math.sqrt(float(sizes[c])) * float(centroids[c].mean()), self.eps)
        scaled = grpo / index.broadcast(factor)
        valid = ~np.isnan(scaled)
        if valid.sum() < 2:
            self._last = {}
            return np.where(valid, 0.0, np.nan)
        advantages = scaled / (float(np.std(scaled[valid], ddof=1)) + self.eps)
        self._last = self._summary(advantages, grpo, domains, clusters)
        return advantages

    def _clusters(self, history: DomainHistory):
        """(μ_d, cluster of the question at a history position, N_c per cluster, centroids) for one domain.

        Exact rule (``window=None, refit_every=1``): k-means with the elbow search over the whole history, every
        call. Fast rule: the last ``window`` questions only, the cluster sizes scaled by N_d / window to stand for
        the whole history (μ_d is a ratio of inverse sizes, so the scaling leaves it as it is), a question older
        than the window placed at its nearest centroid; the elbow search runs every ``refit_every`` calls of a
        domain, and in between one k-means with the last k warm-started at the last centroids. Per-call cost is
        then bounded by the window, not by the length of the run."""
        if self.window is None and self.refit_every == 1:
            points = history.padded()
            if history.distinct < self.k_max:
                history.distinct = len(np.unique(points, axis=0))
            mu_d, labels, sizes, centroids = cluster_questions(points, self.k_max, distinct=history.distinct)
            return mu_d, labels.__getitem__, sizes, centroids
        sample = history.padded(self.window)
        offset = len(history.vectors) - len(sample)
        warm = history.fit if history.calls % self.refit_every else None
        if warm is not None and (warm[1].shape[1] != history.width or warm[0] > len(np.unique(sample, axis=0))):
            warm = None  # wider vectors, or fewer distinct questions than clusters: search k again
        if warm is None:
            mu_d, labels, sizes, centroids = cluster_questions(sample, self.k_max)
            history.calls = 0
        else:
            mu_d, labels, sizes, centroids = cluster_questions(sample, self.k_max, k=warm[0], start=warm[1])
        history.fit = (len(centroids), np.asarray(centroids, dtype=np.float64))
        history.calls += 1
        sizes = sizes * (len(history.vectors) / len(sample))

        def cluster_of(position: int) -> int:
            if position >= offset:
                return int(labels[position - offset])
            vector = history.pad(history.vectors[position]).astype(np.float64)
            return int(np.argmin(((centroids - vector) ** 2).sum(axis=1)))

        return mu_d, cluster_of, sizes, centroids

    def _summary(self, advantages: np.ndarray, grpo: np.ndarray, domains: np.ndarray, clusters: dict) -> dict[str, float]:
        magnitude = np.abs(np.nan_to_num(advantages))
        mass = magnitude.sum()
        labels = np.asarray([str(label(d)) for d in domains], dtype=object)
        out: dict[str, float] = {}
        for d in dict.fromkeys(labels):
            rows = labels == d
            with np.errstate(invalid="ignore", divide="ignore"):
                ratio = advantages[rows] / (grpo[rows] + self.eps)
            out[f"advantage_mass/{d}"] = float(magnitude[rows].sum() / mass) if mass > 0 else 0.0
            out[f"scale/{d}"] = float(np.nanmean(ratio)) if np.isfinite(ratio).any() else 0.0
        for d, (_, _, sizes, _) in clusters.items():
            out[f"questions/{d}"] = float(len(self._history[d].vectors))
            out[f"clusters/{d}"] = float(len(sizes))
        return out

    def diagnostics(self) -> dict[str, float]:
        return dict(self._last)

    def state_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "domains": [
                {"domain": d, "question_ids": list(h.question_ids), "vectors": [v.tolist() for v in h.vectors]}
                for d, h in self._history.items()
            ],
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION or not isinstance(state.get("domains"), list):
            raise ValueError(f"DRPO state must be {{'version': {STATE_VERSION}, 'domains': [...]}} as state_dict() writes it")
        history: dict[Any, DomainHistory] = {}
        for i, entry in enumerate(state["domains"]):
            try:
                ids, vectors = entry["question_ids"], entry["vectors"]
                h = history.setdefault(label(entry["domain"]), DomainHistory())
                if len(ids) != len(vectors):
                    raise ValueError(f"{len(ids)} question ids for {len(vectors)} vectors")
                for q, v in zip(ids, vectors):
                    vector = np.asarray(v, dtype=np.float32)
                    if vector.ndim != 1 or not len(vector) or not np.isfinite(vector).all():
                        raise ValueError("each vector must be a non-empty list of finite numbers")
                    h.add(label(q), vector)
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"DRPO state domains[{i}]: {exc}") from None
        self._history = history
        self._last = {}

    def _params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"eps": self.eps, "k_max": self.k_max}
        if self.window is not None or self.refit_every != 1:
            params.update(window=self.window, refit_every=self.refit_every)
        return params
