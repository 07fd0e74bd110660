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
only the batch's domains, which gives the same advantages).

Cost per call of the exact rule. What the maths lets a call update from the last one, it does, exactly: the padded
history is one growing matrix (a call appends its questions), the number of distinct vectors (which caps k) is a set
of rows a call adds to (the release sorts the whole history again), and the elbow search prepares the points once
for every k it fits (the validated copy, its mean, the variance tolerance, the squared norms, which ``KMeans.fit``
recomputes per k) and stops at the elbow, keeping that fit (the release fits every k up to k_max, then the chosen k
again). Same fits, so the same advantages bit for bit (``tests/test_drpo_incremental.py``).

The fits themselves cannot be bounded exactly, and their cost grows linearly with the domain's history N_d: the
release's clusters are the output of seeded k-means over all N_d points, and every step of it reads all of them.
The first centre is ``RandomState(0).choice(N_d)``, so which point it is changes with every question added; each
further centre is the point where a uniform draw falls in the float64 running sum of squared distances over the
history in its order; Lloyd's iterations assign every point and average each cluster in float32; the stopping
tolerance is the mean variance of all points. No part of call t's fit is part of call t + 1's, and a fit over a
summary of bounded size (weighted distinct vectors, the last W questions, centroids warm-started from the last
call) draws other starting points or sums in another order, so it can reach other clusters -- other advantages,
not the same ones to rounding. The only exact bound is the one the data gives: cost ∝ N_d · k · iterations per
fitted k, for the batch's domains only.

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
from polyreward.combiners.drpo_kmeans import (  # noqa: F401 -- drpo.elbow_model etc. as before the split
    KMeansFit, PlainKMeans, SharedKMeans, _reference_clusters, cluster_questions, elbow_model, select_k_elbow,
)

STATE_VERSION = 1
FLOAT32_MAX = float(np.finfo(np.float32).max)


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

    __slots__ = ("vectors", "question_ids", "first", "width", "fit", "calls", "_rows", "_filled", "_distinct")

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
        # The distinct padded vectors (their bytes, -0.0 as 0.0: np.unique's float equality on finite rows), kept with
        # the matrix: each call adds its own rows instead of sorting the whole history again; rebuilt with the matrix.
        self._distinct: set[bytes] = set()

    def add(self, question: Any, vector: np.ndarray) -> None:
        self.first.setdefault(question, len(self.vectors))  # the reference's list.index(): first occurrence
        self.vectors.append(vector)
        self.question_ids.append(question)
        self.width = max(self.width, len(vector))

    def matrix(self) -> np.ndarray:
        """Every vector padded (:meth:`pad`), stacked: (questions, width) float32, equal to ``np.stack(padded())``."""
        if self._rows.shape[1] != self.width:
            self._rows, self._filled = np.zeros((max(2 * len(self.vectors), 64), self.width), dtype=np.float32), 0
            self._distinct = set()
        if self._filled < len(self.vectors):
            new = self.vectors[self._filled:]
            if len(self.vectors) > len(self._rows):
                grown = np.zeros((2 * len(self.vectors), self.width), dtype=np.float32)
                grown[: self._filled] = self._rows[: self._filled]
                self._rows = grown
            self._rows[self._filled: len(self.vectors)] = [self.pad(v) for v in new]
            self._distinct.update(row.tobytes() for row in self._rows[self._filled: len(self.vectors)] + np.float32(0.0))
            self._filled = len(self.vectors)
        return self._rows[: self._filled]

    def distinct(self) -> int:
        """How many distinct padded vectors the history holds (``len(np.unique(self.matrix(), axis=0))``), kept up to
        date as the matrix grows."""
        self.matrix()
        return len(self._distinct)

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
            mu_d, labels, sizes, centroids = cluster_questions(points, self.k_max, distinct=history.distinct())
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
