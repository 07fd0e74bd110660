"""Properties of EVERY registered combiner on generated batches (see ``combiner_batches``): group sizes 1-33,
constant groups of values that are not exactly representable, binary and continuous rewards, NaN cells,
zero and negative weights, stateful combiners over several batches.

For each registered type and each listed parameter variant:
- finite output of shape (N,);
- documented zeros within 1e-9: rows without any reward always; constant groups where the method says so;
- |A| within the bound its docstring states (MC-GRPO and EBPO state that they have none and are exempt);
- permuting the rows permutes the advantages (stateful combiners fed the permuted sequence of batches);
- adding a constant to one objective inside one group leaves the advantages unchanged where the maths says so.

A combiner that declares per-row arrays in ``row_columns`` (DRPO's ``domain``) gets a label per group for each;
other keyword-only arrays of ``combine`` (GDPO's ``lengths``) get positive per-row counts; a combiner that refuses wide score matrices (PAPO takes K <= 2) gets the columns it
takes. A newly registered type must be added to the tables below (the test says so) with the bound and zero
cases its docstring documents.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combiner_batches import RewardBatch, batch_sequences, reward_batches
from polyreward import registry
from scipy.stats import norm

SETTINGS = settings(max_examples=50, derandomize=True, deadline=None, database=None)
ALL = registry.combiner_types()
CLASSES = {name: registry.combiner_class(name) for name in ALL}  # the registry scans entry points per lookup

# name -> parameter variants checked (the default first)
VARIANTS: dict[str, list[dict]] = {
    "grpo": [{}, {"scale": "batch"}, {"scale": "none"}, {"eps": 1e-6, "singleton": "raw"}],
    "dr_grpo": [{}, {"singleton": "raw"}],
    "rloo": [{}, {"normalize": True}, {"singleton": "zero", "eps": 1e-4}],
    "gdpo": [{}, {"variant": "nvlabs"}, {"variant": "verl"}, {"variant": "nemo_rl"}, {"batch_norm": "none"}],
    "sa_gdpo": [{}, {"none_policy": "zero"}, {"gamma": 2.0, "reward_mins": None}],
    "sa_mrpo": [{}, {"momentum": 0.5}, {"batch_norm": False}],
    "mo_grpo": [{}, {"post_norm": "batch"}, {"post_norm": "group"}, {"ddof": 1, "average": True}],
    "dvao": [{}, {"weighting": "variance"}],
    "papo": [{}, {"process_scope": "all"}],
    "mc_grpo": [{}],
    "gopo": [{}, {"ties": "average"}],
    "g2rpo": [{}, {"mapping": "w2"}],
    "ebpo": [{}],
    "drpo": [{}],
    "reinforce_plus_plus_baseline": [{}],
    "grpo_passk": [{}, {"normalize": False}, {"eps": 0.0}],
    "opo": [{}],
    "gpg": [{}, {"f_norm": 2.5}],
    "reinforce_plus_plus": [{}, {"gamma": 0.9}],
    "grpo_process": [{}, {"eps": 0.0}],
    "krpo": [{}, {"process_var": 1e-3, "meas_var": 0.5}],
    "aapo": [{}, {"scale_rewards": False}, {"clip_low": 1.0, "clip_high": 0.0}],
    "dgpo": [{}, {"scale_rewards": False}, {"dqw": False, "temperature": 0.5}],
    "edge_grpo": [{}, {"scale_rewards": False}],
}


def z_bound(n):
    """(n - 1)/sqrt(n): the largest |z-score| of n values with a Bessel std (0 for n <= 1)."""
    n = np.asarray(n, dtype=float)
    return np.where(n > 1, (n - 1) / np.sqrt(np.maximum(n, 1)), 0.0)


class Facts:
    """Per-row quantities the bounds are stated in."""

    def __init__(self, batch: RewardBatch, extra: dict) -> None:
        s, g, w = batch.scores, batch.groups, batch.weights
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


def bound(name: str, p: dict, f: Facts):
    """The |A| bound each docstring states (None: the method has none and says why)."""
    zn, zN = z_bound(f.n), z_bound(f.N)
    if name == "grpo":
        scale = p.get("scale", "group")
        base = {"group": zn, "batch": np.full_like(zn, math.sqrt(2 * max(f.N - 1, 0))), "none": f.range}[scale]
        return base + (f.lone_total if p.get("singleton") == "raw" else 0.0)
    if name in ("dr_grpo", "rloo"):
        if p.get("normalize"):
            return zN
        raw = p.get("singleton", "raw" if name == "rloo" else "zero") == "raw"
        return f.range + (f.lone_total if raw else 0.0)
    if name == "gdpo":
        if p.get("batch_norm") == "none":
            return f.abs_w.sum() * zn
        if p.get("variant") == "nvlabs" and f.k == 1:
            return zn
        return np.full_like(zn, z_bound(f.T)) if p.get("variant") == "verl" else zN
    if name == "sa_gdpo":
        return zn if f.k == 1 else zN
    if name == "sa_mrpo":
        return zN if p.get("batch_norm", True) else f.abs_w.sum() * zn
    if name == "mo_grpo":
        post = p.get("post_norm", "none")
        if post == "batch":
            return zN
        if post == "group":
            return zn
        per = np.sqrt(np.maximum(f.n - 1, 0)) if p.get("ddof", 0) == 0 else zn
        return f.abs_w.sum() * per / (f.k if p.get("average") else 1)
    if name == "dvao":
        return (math.sqrt(f.k) if p.get("weighting", "std") == "std" else 1.0) * zn
    if name == "papo":
        return f.abs_w[:2].sum() * zn
    if name == "gopo":
        return np.full_like(zn, 2.0)
    if name == "g2rpo":
        n = np.maximum(f.n, 1)
        if p.get("mapping", "quantile") == "quantile":
            return norm.ppf(1 - 0.5 / n)
        return np.where(n > 1, n * norm.pdf(norm.ppf(1 - 1 / n)), 0.0)
    if name == "drpo":
        return zN  # its final batch normalisation
    if name == "edge_grpo":  # GRPO's bound × the batch's mean entropy / the row's
        entropy = np.asarray(f.extra["entropy"], dtype=float)
        scale = entropy[f.scored].mean() / entropy if f.scored.any() else np.zeros_like(entropy)
        return (zn if p.get("scale_rewards", True) else f.range) * scale
    if name == "dgpo":  # n/2 (or the range) × the token ratio (<= T over tokens >= 1) × a softmax weight (<= groups)
        groups = len(np.unique(f.groups))
        return (f.n / 2 if p.get("scale_rewards", True) else f.range) * f.T * groups
    if name == "aapo":  # the group term plus the clipped momentum
        clip = max(p.get("clip_low", 0.2), p.get("clip_high", 0.28))
        return (zn if p.get("scale_rewards", True) else f.range) + clip
    if name == "krpo":  # (max(r ∪ 0) - min(r ∪ 0)) / sqrt(P_n), P_n the filter's variance after the group's n rollouts
        from polyreward.combiners.krpo import kalman_gains

        n = np.maximum(f.n, 1).astype(int)
        variances = kalman_gains(int(n.max()), p.get("process_var", 1e-5), p.get("meas_var", 1e-2))[1]
        return f.range_with_zero / np.sqrt(variances[n - 1])
    if name == "grpo_process":
        return zn  # one step per rollout: GRPO's z-score
    if name in ("reinforce_plus_plus_baseline", "reinforce_plus_plus"):
        return np.full_like(zn, z_bound(f.T))  # a whitening over the batch's T tokens
    if name == "grpo_passk":
        return np.sqrt(f.n) if p.get("normalize", True) else f.range
    if name == "opo":
        return f.range + f.lone_total
    if name == "gpg":
        return f.N * (f.range + f.lone_total) / p.get("f_norm", 1.0)
    if name in ("mc_grpo", "ebpo"):
        return None  # MAD + eps as the source / shrinkage over the group's own std: no fixed bound
    pytest.fail(f"combiner {name!r} has no documented |A| bound in this test: add it to bound()")


def zero_for_constant_groups(name: str, p: dict, k: int) -> bool:
    """Does the docstring promise A = 0 (to 1e-9) for a group that repeats one score row?"""
    table = {
        "grpo": True, "dr_grpo": True, "mo_grpo": True, "dvao": True, "papo": True, "mc_grpo": True,
        "g2rpo": True, "sa_gdpo": True, "sa_mrpo": True,
        "rloo": not p.get("normalize"),  # the batch normalisation shifts every row
        "gdpo": p.get("variant", "trl") in ("trl", "nvlabs") or p.get("batch_norm") == "none",
        "gopo": p.get("ties") == "average",  # the source's argsort order spreads a constant group over ±2
        "ebpo": False,  # the documented non-vanishing penalty
        "drpo": True,  # GRPO's zero, scaled
        "reinforce_plus_plus_baseline": False,  # the batch whitening shifts every row
        "grpo_passk": True, "opo": True, "gpg": True,
        "reinforce_plus_plus": False,  # no group baseline: a batch whitening of the rewards
        "grpo_process": True,
        "krpo": False,  # the filter's mean approaches a constant group's value from its prior 0
        "aapo": False,  # the momentum r - reference reward stays
        "dgpo": True,
        "edge_grpo": True,
    }
    if name not in table:
        pytest.fail(f"combiner {name!r}: say in zero_for_constant_groups() whether constant groups get 0")
    return table[name]


def shift_invariant(name: str, p: dict, k: int, column: int) -> bool:
    """Is the method unchanged by adding c to objective ``column`` in one group (its maths says so)?"""
    table = {
        "grpo": p.get("scale", "group") != "batch", "dr_grpo": True, "rloo": True, "gdpo": True,
        "mo_grpo": True, "dvao": True, "mc_grpo": True,
        # Ranks compare exact floats (as their sources do); with K > 1 a shifted sum can split an exact tie
        # such as 0.1 + 0.2 vs 0.3 + 0 by one ulp, so the property is exact for one objective only.
        "gopo": k == 1, "g2rpo": k == 1,
        "papo": column == 1,  # the outcome decides who is correct; the process part is group-relative
        "sa_gdpo": k == 1,  # saturation is a batch level of each reward
        "sa_mrpo": False, "ebpo": False,  # batch levels / a running prior
        "drpo": False,  # clusters questions by their reward levels
        "reinforce_plus_plus_baseline": True, "grpo_passk": True, "opo": True,  # deviations from a group baseline
        "gpg": False,  # alpha counts the rewards that are exactly 0
        "reinforce_plus_plus": False,  # no group baseline
        "grpo_process": True,
        "krpo": False,  # the filter's prior mean is 0
        "aapo": False,  # the momentum compares r with the reference model's reward
        "dgpo": column != 0,  # the question weights read the first reward's group mean
        "edge_grpo": True,  # group deviations and the entropies do not move
    }
    if name not in table:
        pytest.fail(f"combiner {name!r}: say in shift_invariant() whether a per-group shift leaves it unchanged")
    return table[name]


# ----------------------------------------------------------------------------------------- harness
NUMERIC_ROW_COLUMNS = {  # per-row numbers, not labels: the values drawn for them
    "reference_reward": [0.0, 0.5, 1.0, 1 / 3, -0.6, None],  # AAPO: the reference completion's reward total
    "entropy": [0.05, 0.3, 1.0, 2.7],  # EDGE-GRPO: each rollout's mean token entropy (> 0)
}
def make(name: str, params: dict):
    return CLASSES[name](**params)


def nan_is_zero(name: str, params: dict) -> bool:
    """Variants that, as their source, turn a None reward into 0 before any statistic (rows are never unscored)."""
    return params.get("none_policy") == "zero" or (name == "gdpo" and params.get("variant") == "nvlabs")


def extra_arrays(combiner, groups: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per-row arrays ``combine`` takes beyond (scores, groups, weights): a label per group (domains, ...) for
    each name the combiner declares in ``row_columns``, a positive count (token lengths, ...) for each other
    keyword-only parameter."""
    arrays = {name: rng.choice(np.array(["a", "b", "c"], dtype=object), groups.max() + 1)[groups]
              for name in getattr(combiner, "row_columns", ()) if name not in NUMERIC_ROW_COLUMNS}
    for name in set(getattr(combiner, "row_columns", ())) & set(NUMERIC_ROW_COLUMNS):  # one number per row
        arrays[name] = rng.choice(np.array(NUMERIC_ROW_COLUMNS[name], dtype=object), len(groups))
    for q in inspect.signature(combiner.combine).parameters.values():
        if q.kind is inspect.Parameter.KEYWORD_ONLY and q.name not in arrays:
            arrays[q.name] = rng.integers(1, 40, len(groups)).astype(float)
    return arrays


def widest(name: str, params: dict, k: int) -> int:
    """The most reward columns (<= k) the combiner takes."""
    for width in range(k, 0, -1):
        combiner = make(name, params)
        try:
            combiner.combine(np.zeros((2, width)), [0, 0], **extra_arrays(combiner, np.zeros(2, dtype=int), np.random.default_rng(0)))
            return width
        except ValueError:
            continue
    pytest.fail(f"{name}{params} takes no score matrix of 1..{k} columns")


def prepared(name: str, params: dict, batch: RewardBatch, seed: int):
    width = widest(name, params, batch.scores.shape[1])
    batch = RewardBatch(batch.scores[:, :width], batch.groups, batch.weights[:width], batch.constant)
    return batch, extra_arrays(make(name, params), batch.groups, np.random.default_rng(seed))


def run(combiner, batch: RewardBatch, extra: dict) -> np.ndarray:
    return np.asarray(combiner.combine(batch.scores, batch.groups, batch.weights, **extra), dtype=float)


def permuted(batch: RewardBatch, extra: dict, perm: np.ndarray):
    return RewardBatch(batch.scores[perm], batch.groups[perm], batch.weights, batch.constant[perm]), {k: v[perm] for k, v in extra.items()}


def check_row_properties(name: str, params: dict, batch: RewardBatch, extra: dict, adv: np.ndarray) -> None:
    label = f"{name}{params}"
    assert adv.shape == (batch.n,), label
    assert np.all(np.isfinite(adv)), f"{label}: non-finite advantages {adv}"
    if nan_is_zero(name, params):
        batch = RewardBatch(np.nan_to_num(batch.scores, nan=0.0), batch.groups, batch.weights, batch.constant)
    facts = Facts(batch, extra)
    np.testing.assert_allclose(adv[~facts.scored], 0.0, atol=0, err_msg=f"{label}: rows without reward")
    if zero_for_constant_groups(name, params, batch.scores.shape[1]):
        rows = batch.constant & (facts.n >= 2)
        np.testing.assert_allclose(adv[rows], 0.0, atol=1e-9, err_msg=f"{label}: constant groups")
    limit = bound(name, params, facts)
    if limit is not None:
        excess = np.abs(adv) - (limit + 1e-9)
        assert np.all(excess <= 0), f"{label}: |A| above the documented bound by {excess.max():.3g} at row {int(np.argmax(excess))}"


def permutation_invariant(name: str) -> bool:
    """DRPO's reference clusters each question's vector of rewards in rollout order (and questions in order of
    first appearance), so reordering rows can change its k-means clusters: the source is order-dependent."""
    return name not in ("drpo", "krpo")  # KRPO's Kalman filter reads each group in rollout order, as its source


def assert_permuted(name: str, params: dict, got: np.ndarray, expected: np.ndarray, groups: np.ndarray) -> None:
    if name == "gopo" and params.get("ties", "order") == "order":
        # row order breaks ties: only each group's multiset of advantages is invariant
        for g in np.unique(groups):
            np.testing.assert_allclose(np.sort(got[groups == g]), np.sort(expected[groups == g]), atol=1e-9)
        return
    np.testing.assert_allclose(got, expected, atol=1e-9, rtol=1e-9, err_msg=f"{name}{params}: row permutation")


CASES = [(name, params) for name in ALL for params in VARIANTS.get(name, [{}])]


@pytest.mark.parametrize("name", ALL)
@SETTINGS
@given(batches=batch_sequences(), seed=st.integers(0, 2**16))
def test_properties_over_batches(name, batches, seed):
    for params in VARIANTS.get(name, [{}]):
        combiner, twin = make(name, params), make(name, params)
        for step, raw in enumerate(batches):
            batch, extra = prepared(name, params, raw, seed + step)
            adv = run(combiner, batch, extra)
            check_row_properties(name, params, batch, extra, adv)
            if permutation_invariant(name):
                perm = np.random.default_rng(seed + step).permutation(batch.n)
                moved, moved_extra = permuted(batch, extra, perm)
                assert_permuted(name, params, run(twin, moved, moved_extra), adv[perm], moved.groups)


@pytest.mark.parametrize("name", ALL)
@SETTINGS
@given(raw=reward_batches(), seed=st.integers(0, 2**16), shift=st.sampled_from([0.37, -2.1, 5.0]))
def test_per_group_shift_of_one_objective(name, raw, seed, shift):
    for params in VARIANTS.get(name, [{}]):
        batch, extra = prepared(name, params, raw, seed)
        rng = np.random.default_rng(seed)
        column = int(rng.integers(batch.scores.shape[1]))
        if not shift_invariant(name, params, batch.scores.shape[1], column):
            continue
        full = [g for g in np.unique(batch.groups)
                if np.sum(batch.groups == g) >= 2 and not np.isnan(batch.scores[batch.groups == g, column]).any()]
        if not full:
            continue
        group = full[int(rng.integers(len(full)))]
        shifted = batch.scores.copy()
        shifted[batch.groups == group, column] += shift
        moved = RewardBatch(shifted, batch.groups, batch.weights, batch.constant)
        base = run(make(name, params), batch, extra)
        np.testing.assert_allclose(run(make(name, params), moved, extra), base, atol=1e-7, rtol=1e-7,
                                   err_msg=f"{name}{params}: shift {shift} of objective {column} in group {group}")
