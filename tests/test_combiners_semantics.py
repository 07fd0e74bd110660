"""Shared semantics of every combiner, hypothesis properties, the GDPO-paper demonstration and state."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward import registry
from polyreward.combiner import Combiner
from polyreward.combiners import (
    EmpiricalBayesCombiner,
    GDPOCombiner,
    GRPOCombiner,
    RankCombiner,
    SaturationAwareCombiner,
    SelfAdaptiveGDPOCombiner,
    advantages,
    diagnose,
)

ALL = registry.combiner_types()
# a combiner keeps state across batches when it answers state_dict itself (SA-MRPO, EBPO, DRPO)
STATEFUL = {n for n in ALL if registry.combiner_class(n).state_dict is not Combiner.state_dict}
# A class that reads rows in order as its source says so in ``row_order_dependent``: DRPO clusters each question's
# rewards in rollout order (tests/test_drpo.py covers it against the released code instead), KRPO's Kalman filter
# reads each group in rollout order.
ROW_ORDER_DEPENDENT = {n for n in ALL if registry.combiner_class(n).row_order_dependent}
ORDER_FREE = [n for n in ALL if n not in ROW_ORDER_DEPENDENT]


class WithRowLabels:
    """A combiner whose ``row_columns`` (DRPO's domain) get a label per group, two domains alternating, so the
    shared semantics below run unchanged over every registered combiner."""

    def __init__(self, combiner):
        self.combiner = combiner

    def __getattr__(self, attribute):
        return getattr(self.combiner, attribute)

    def combine(self, scores, groups, *args, **kwargs):
        for name in self.combiner.row_columns:
            if name in self.combiner.example_row_values:  # AAPO, EDGE-GRPO: a number per row
                kwargs.setdefault(name, np.full(len(scores), 0.5))
                continue
            labels = np.array(["a", "b"], dtype=object)[np.unique(np.asarray(groups), return_inverse=True)[1] % 2]
            kwargs.setdefault(name, np.resize(labels, len(scores)))  # one per row even when groups has the wrong length
        return self.combiner.combine(scores, groups, *args, **kwargs)


def make(name, **params):
    combiner = registry.combiner_class(name)(**params)
    return WithRowLabels(combiner) if combiner.row_columns else combiner


def test_registry_lists_every_method_with_metadata():
    assert set(ALL) >= {"grpo", "dr_grpo", "rloo", "gdpo", "dvao", "sa_mrpo", "sa_gdpo", "mo_grpo", "papo", "mc_grpo", "gopo", "g2rpo", "ebpo"}
    for name in ALL:
        cls = registry.combiner_class(name)
        assert cls.type_name == name
        assert cls.exactness in ("exact", "reconstructed")
        assert cls.description and cls.__doc__ and cls.__module__
        module_doc = __import__(cls.__module__, fromlist=["x"]).__doc__
        assert "Source" in module_doc or "Paper" in module_doc, name
        assert ("RECONSTRUCTED" in module_doc) == (cls.exactness == "reconstructed") or name == "papo", name
    reconstructed = {n for n in ALL if registry.combiner_class(n).exactness == "reconstructed"}
    assert {"dvao", "sa_mrpo", "mo_grpo", "g2rpo", "ebpo"} <= reconstructed


def two_reward_batch(seed=0, n_groups=5, g=4):
    rng = np.random.default_rng(seed)
    scores = np.column_stack([rng.integers(0, 2, n_groups * g), rng.uniform(0, 1, n_groups * g).round(3)]).astype(float)
    return scores, np.repeat(np.arange(n_groups), g)


# ------------------------------------------------------------------------------ shared semantics
@pytest.mark.parametrize("name", ALL)
def test_nan_cells_are_excluded_and_all_nan_rows_get_zero(name):
    scores, groups = two_reward_batch()
    with_nan = scores.copy()
    with_nan[3, 1] = np.nan
    with_nan[6, :] = np.nan
    result = make(name).combine(with_nan, groups)
    assert np.all(np.isfinite(result))
    assert result[6] == 0.0
    # An extra all-NaN row changes nothing for the other rows (it is out of every statistic).
    extra = np.vstack([with_nan, [[np.nan, np.nan]]])
    result_extra = make(name).combine(extra, np.append(groups, 0))
    np.testing.assert_allclose(result_extra[:-1], result, atol=1e-12)
    assert result_extra[-1] == 0.0


@pytest.mark.parametrize("name", ALL)
def test_single_rollout_groups(name):
    scores = np.array([[1.0, 0.5], [0.0, 0.2], [1.0, 1.0]])
    result = make(name).combine(scores, ["a", "b", "c"])
    if name in ("rloo", "opo", "gpg"):  # k = 1: baseline 0, plain REINFORCE (verl; TRL 1.16 RLOO = singleton="zero")
        np.testing.assert_allclose(result, scores.sum(1))  # GPG: alpha = 3 rollouts / 3 nonzero = 1
    elif name == "aapo":  # no group term; the momentum clip(r - reference 0.5, -0.2, 0.28)
        np.testing.assert_allclose(result, np.clip(scores.sum(1) - 0.5, -0.2, 0.28))
    elif name == "krpo":  # the source's filter starts at mean 0: a lone rollout keeps ~(1 - K_1) of its reward / sqrt(P_1)
        np.testing.assert_allclose(result, scores.sum(1) * 0.01 / (1.00001 + 0.01) / np.sqrt(1.00001 * 0.01 / 1.01001), rtol=1e-6)
    elif name in ("reinforce_plus_plus_baseline", "reinforce_plus_plus"):  # baseline 0 / none: the batch whitening
        total = scores.sum(1)
        np.testing.assert_allclose(result, (total - total.mean()) / np.sqrt(total.var(ddof=1) + 1e-8), rtol=1e-6)
    elif registry.combiner_class(name).lone_rollout_zero:  # no group-relative signal
        np.testing.assert_allclose(result, 0.0, atol=1e-12)
    else:  # a type that says lone rollouts get a nonzero advantage and has no known values here
        assert np.all(np.isfinite(result))
    # the class's declared fact agrees with what it does
    assert np.allclose(result, 0.0, atol=1e-12) == registry.combiner_class(name).lone_rollout_zero, name
    # verl's convention as a switch: a single rollout has mean 0 and std 1
    np.testing.assert_allclose(GRPOCombiner(singleton="raw").combine(scores[:, 0], [1, 2, 3]), scores[:, 0] / (1 + 1e-4))


# no zero for a constant group in a mixed batch (a batch whitening, a running prior), but 0 when every group is constant
CONSTANT_BATCH_ZERO = {"reinforce_plus_plus_baseline", "ebpo"}


@pytest.mark.parametrize("name", ALL)
def test_zero_variance_groups(name):
    scores = np.array([[1.0, 0.5]] * 4 + [[0.0, 0.0]] * 4)
    result = make(name).combine(scores, [0] * 4 + [1] * 4)
    if name == "gopo":  # the source breaks ties by argsort order: full ±2 spread even in a constant group
        np.testing.assert_allclose(result, [2, 2 / 3, -2 / 3, -2] * 2)
        np.testing.assert_allclose(RankCombiner(ties="average").combine(scores, [0] * 4 + [1] * 4), 0.0)
    elif name == "aapo":  # the group term is 0; the momentum against the reference reward 0.5 remains
        np.testing.assert_allclose(result, [0.28] * 4 + [-0.2] * 4)
    elif name == "krpo":  # the filter's mean approaches the common value from 0: a decaying, nonzero advantage
        assert np.all(result[4:] == 0.0) and np.all(np.diff(result[:4]) < 0) and result[3] > 0
    elif name == "reinforce_plus_plus":  # no group baseline: the batch whitening of the rewards 1.5 and 0
        np.testing.assert_allclose(result * np.sqrt(8 / 7), np.sign(result), rtol=1e-6)  # a Bessel z-score of 8 values
    elif registry.combiner_class(name).zero_for_constant_groups({}, 2) or name in CONSTANT_BATCH_ZERO:
        np.testing.assert_allclose(result, 0.0, atol=1e-9)
    else:  # a type that says constant groups keep an advantage and has no known values here
        assert np.all(np.isfinite(result))


@pytest.mark.parametrize("name", ALL)
def test_inf_is_a_clear_error(name):
    scores, groups = two_reward_batch()
    scores[2, 1] = np.inf
    with pytest.raises(ValueError, match=r"inf.*row 2, column 1"):
        make(name).combine(scores, groups)


@pytest.mark.parametrize("name", ALL)
def test_weights_length_mismatch_is_a_clear_error(name):
    scores, groups = two_reward_batch()
    with pytest.raises(ValueError, match="weights has length 3 but scores have 2"):
        make(name).combine(scores, groups, [1.0, 1.0, 1.0])


@pytest.mark.parametrize("name", ALL)
def test_groups_length_mismatch_is_a_clear_error(name):
    scores, groups = two_reward_batch()
    with pytest.raises(ValueError, match="groups must be"):
        make(name).combine(scores, groups[:-1])


@pytest.mark.parametrize("name", ORDER_FREE)
def test_hashable_ids_in_any_order(name):
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(24, 2))  # continuous: no ties, so the tie order of GOPO does not matter
    groups = np.repeat(np.arange(6), 4)
    reference = make(name).combine(scores, groups)
    perm = rng.permutation(24)
    labels = [("prompt", int(g)) if g % 2 else f"id-{g}" for g in groups[perm]]
    shuffled = make(name).combine(scores[perm], labels)
    np.testing.assert_allclose(shuffled, reference[perm], atol=1e-9)


@pytest.mark.parametrize("name", ALL)
def test_numpy_in_numpy_out_and_1d_scores(name):
    scores, groups = two_reward_batch()
    out64 = make(name).combine(scores, groups)
    assert isinstance(out64, np.ndarray) and out64.dtype == np.float64 and out64.shape == (len(scores),)
    out32 = make(name).combine(scores.astype(np.float32), groups)
    assert out32.dtype == np.float32
    from_lists = make(name).combine(scores.tolist(), groups.tolist())
    np.testing.assert_allclose(from_lists, out64)
    np.testing.assert_allclose(make(name).combine(scores[:, 0], groups), make(name).combine(scores[:, :1], groups))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_torch_in_torch_out(name, dtype):
    torch = pytest.importorskip("torch")
    scores, groups = two_reward_batch()
    tensor = torch.tensor(scores, dtype=getattr(torch, dtype))
    out = make(name).combine(tensor, torch.tensor(groups), torch.tensor([1.0, 0.5]))
    assert isinstance(out, torch.Tensor) and out.dtype == tensor.dtype and out.device == tensor.device and out.shape == (len(scores),)
    expected = make(name).combine(tensor.double().numpy(), groups, [1.0, 0.5])
    np.testing.assert_allclose(out.double().numpy(), expected, rtol=1e-2 if dtype == "bfloat16" else 1e-5, atol=1e-2 if dtype == "bfloat16" else 1e-5)


def test_convenience_and_bad_parameters():
    np.testing.assert_allclose(advantages([[1, 0], [0, 1], [1, 1], [0, 0]], ["a", "a", "b", "b"]), [0, 0, 1.2246388, -1.2246388], atol=1e-6)
    np.testing.assert_allclose(advantages([1, 0], [0, 0], combiner={"type": "grpo", "scale": "none"}), [0.5, -0.5])
    with pytest.raises(ValueError, match="scale must be one of"):
        GRPOCombiner(scale="global")
    with pytest.raises(ValueError, match="variant must be one of"):
        GDPOCombiner(variant="openrlhf")
    with pytest.raises(KeyError, match="unknown combiner type"):
        advantages([1.0], [0], combiner="nope")
    with pytest.raises(ValueError, match="PAPO takes 2 reward columns"):
        advantages(np.zeros((4, 3)), [0] * 4, combiner="papo")
    with pytest.raises(ValueError, match="reward_mins has 1 value"):
        SelfAdaptiveGDPOCombiner(reward_mins=[0], reward_maxs=[1]).combine(np.zeros((4, 2)), [0] * 4)
    with pytest.raises(ValueError, match="lengths must be"):
        GDPOCombiner("verl").combine(np.zeros((4, 2)), [0] * 4, lengths=[1, 2])


# ------------------------------------------------------------------------------------ properties
def grouped_scores(max_k=3, binary=False):
    values = st.integers(0, 3).map(float) if binary else st.floats(-100, 100, allow_nan=False, width=32)
    cell = st.one_of(values, values, values, st.just(float("nan")))

    @st.composite
    def build(draw):
        k = draw(st.integers(1, max_k))
        sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=6))
        rows = [[draw(cell) for _ in range(k)] for _ in range(sum(sizes))]
        groups = [g for g, size in enumerate(sizes) for _ in range(size)]
        return np.array(rows, dtype=float).reshape(-1, k), np.array(groups), draw(st.randoms(use_true_random=False))

    return build()


def property_combiners():
    for name in ALL:
        cls = registry.combiner_class(name)
        if cls.max_reward_columns is not None:
            continue  # a fixed set of columns (PAPO: outcome, process): covered by its own property below
        # row-order tie breaking (GOPO's default) is not permutation invariant by design: its first declared
        # variant that breaks ties by value
        variant = next((dict(p) for p in cls.example_params if not cls.ties_by_row_order(p)), None)
        if variant is not None:  # every variant breaks ties by row order (S-GRPO's equal exits): the multiset
            yield name, variant  # property of tests/test_combiners_properties.py covers it


PROPERTY_COMBINERS = list(property_combiners())


ORDER_FREE_PROPERTY = [(n, p) for n, p in PROPERTY_COMBINERS if n not in ROW_ORDER_DEPENDENT]


@pytest.mark.parametrize("name, params", ORDER_FREE_PROPERTY, ids=[n for n, _ in ORDER_FREE_PROPERTY])
@settings(max_examples=25, deadline=None)
@given(data=grouped_scores(binary=True))
def test_property_permutation_within_group_permutes_output(name, params, data):
    scores, groups, rnd = data
    perm = np.arange(len(scores))
    for g in np.unique(groups):
        members = np.flatnonzero(groups == g)
        perm[members] = rnd.sample(list(members), len(members))
    base = make(name, **params).combine(scores, groups)
    np.testing.assert_allclose(make(name, **params).combine(scores[perm], groups[perm]), base[perm], atol=1e-7)


@pytest.mark.parametrize("name, params", PROPERTY_COMBINERS, ids=[n for n, _ in PROPERTY_COMBINERS])
@settings(max_examples=25, deadline=None)
@given(data=grouped_scores())
def test_property_group_order_does_not_matter_and_outputs_are_finite(name, params, data):
    scores, groups, rnd = data
    base = make(name, **params).combine(scores, groups)
    assert np.all(np.isfinite(base))
    order = rnd.sample(sorted(set(groups.tolist())), len(set(groups.tolist())))
    perm = np.concatenate([np.flatnonzero(groups == g) for g in order])
    np.testing.assert_allclose(make(name, **params).combine(scores[perm], groups[perm]), base[perm], atol=1e-6, rtol=1e-6)


@settings(max_examples=25, deadline=None)
@given(data=grouped_scores(max_k=2))
def test_property_papo_permutations_and_finite(data):
    scores, groups, rnd = data
    scores = np.column_stack([np.nan_to_num(scores[:, 0]) > 0, scores[:, -1]]).astype(float)
    base = make("papo").combine(scores, groups)
    assert np.all(np.isfinite(base))
    perm = np.array(rnd.sample(range(len(scores)), len(scores)))
    np.testing.assert_allclose(make("papo").combine(scores[perm], groups[perm]), base[perm], atol=1e-7)


@settings(max_examples=60, deadline=None)
@given(data=grouped_scores(max_k=1))
def test_property_gdpo_with_one_reward_is_grpo_then_batch_norm(data):
    scores, groups, _ = data
    scores = scores[~np.isnan(scores[:, 0])]  # GRPO gives all-None rows 0 *inside* the batch stats; GDPO leaves them out
    groups = groups[: len(scores)]
    if len(scores) == 0:
        return
    grpo = GRPOCombiner().combine(scores, groups)
    expected = (grpo - grpo.mean()) / (grpo.std(ddof=1) + 1e-4) if len(grpo) > 1 else np.zeros(1)
    np.testing.assert_allclose(GDPOCombiner().combine(scores, groups), expected, atol=1e-6, rtol=1e-6)


@settings(max_examples=30, deadline=None)
@given(data=grouped_scores())
def test_property_gopo_order_ties_is_a_linear_spread(data):
    scores, groups, _ = data
    result = RankCombiner().combine(scores, groups)
    for g in np.unique(groups):
        valid = ~np.isnan(scores[groups == g]).all(axis=1)
        n = int(valid.sum())
        if n > 1:
            np.testing.assert_allclose(np.sort(result[groups == g][valid]), np.linspace(-2, 2, n), atol=1e-9)


# ---------------------------------------------------------------------- GDPO-paper demonstration
def test_gdpo_paper_demonstration_two_binary_rewards_g4():
    """Different reward profiles collapse to one advantage under sum-then-normalise, not under GDPO."""
    scores = np.array(
        [[0, 0], [0, 0], [0, 0], [1, 0],  # prompt A: one rollout solves reward 1 only
         [0, 0], [0, 0], [0, 0], [1, 1],  # prompt B: one rollout solves both rewards
         [1, 0], [0, 1], [0, 1], [0, 0]],  # prompt C: (1,0) and (0,1) differ in how rare they are
        dtype=float,
    )
    groups = np.repeat(["A", "B", "C"], 4)
    grpo = GRPOCombiner().combine(scores, groups)
    gdpo = GDPOCombiner().combine(scores, groups)
    # Across groups: profile (1,0) in A and (1,1) in B get the same GRPO advantage (up to eps = 1e-4) ...
    assert grpo[3] == pytest.approx(grpo[7], abs=2e-4)
    exact_grpo = GRPOCombiner(eps=0.0).combine(scores, groups)
    assert exact_grpo[3] == exact_grpo[7] == 1.5
    # ... GDPO rewards solving both objectives more.
    assert gdpo[7] > gdpo[3] + 0.5
    # Within a group: (1,0) and (0,1) tie under GRPO, GDPO separates them (the rarer success counts more).
    assert grpo[8] == pytest.approx(grpo[9], abs=1e-12)
    assert gdpo[8] > gdpo[9] + 0.1
    report_grpo = diagnose(scores, groups, grpo, names=["r1", "r2"])
    report_gdpo = diagnose(scores, groups, gdpo, names=["r1", "r2"])
    assert report_grpo.groups.set_index("group").loc["C", "collapsed"]
    assert not report_gdpo.groups.set_index("group").loc["C", "collapsed"]
    assert report_gdpo.summary["collapsed_group_fraction"] < report_grpo.summary["collapsed_group_fraction"]


def test_saturation_discount_reverses_a_sign_flip():
    """docs/reference/algorithms.md#sa-mrpo: better on the open objective, slightly worse on a saturated one."""
    scores = np.array([[0.98, 0.8], [1.0, 0.2], [1.0, 0.3], [1.0, 0.4]])
    groups = [0, 0, 0, 0]
    assert GDPOCombiner().combine(scores, groups)[0] < 0
    assert GRPOCombiner().combine(scores, groups)[0] > 0  # the sum keeps the raw scale
    ranges = {"reward_mins": [0, 0], "reward_maxs": [1, 1]}
    assert SelfAdaptiveGDPOCombiner(**ranges).combine(scores, groups)[0] > 0
    assert SaturationAwareCombiner(**ranges).combine(scores, groups)[0] > 0
    report = diagnose(scores, groups, GDPOCombiner().combine(scores, groups), names=["acc", "quality"])
    assert report.groups.loc[0, "sign_flips/quality"] >= 1


def test_dvao_weights_follow_the_within_group_spread():
    scores = np.array([[1, 0.50], [0, 0.52], [1, 0.48], [0, 0.50]])
    result = make("dvao").combine(scores, [0] * 4)
    np.testing.assert_allclose(np.sign(result), [1, -1, 1, -1])  # the wide objective dominates
    np.testing.assert_allclose(make("dvao").combine(scores[:, :1], [0] * 4), GRPOCombiner(eps=1e-6).combine(scores[:, :1], [0] * 4), atol=1e-5)
    assert np.mean(result**2) <= 2 + 1e-9  # bounded by K


def test_papo_edge_cases():
    # outcome, process: all-correct group keeps process signal; all-wrong group gets 0; wrong never gets process credit.
    scores = np.array([[1, 0.9], [1, 0.1], [1, 0.5], [1, 0.5], [0, 0.9], [0, 0.8], [1, 0.2], [1, 0.6], [0, 1.0], [0, 0.0], [0, 0.3], [0, 0.4]])
    groups = np.repeat([0, 1, 2], 4)
    result = make("papo").combine(scores, groups)
    assert result[0] > 0 > result[1] and result[2] == pytest.approx(0, abs=1e-9)
    np.testing.assert_allclose(result[8:], 0.0)
    outcome_only = (scores[4:8, 0] - 0.5) / (np.std([0, 0, 1, 1], ddof=1) + 1e-6)
    np.testing.assert_allclose(result[4:6], outcome_only[:2])  # wrong rollouts: outcome term only
    assert result[7] > result[6]


def test_ebpo_non_vanishing_penalty_for_an_all_zero_group():
    ebpo = EmpiricalBayesCombiner()
    warmup = np.array([1, 0, 1, 0, 1, 1, 1, 0, 0.0, 1, 0, 0])
    ebpo.combine(warmup, np.repeat([0, 1, 2], 4))
    result = ebpo.combine(np.array([0.0, 0, 0, 0, 1, 0, 1, 0]), np.repeat([0, 1], 4))
    assert np.all(result[:4] < 0) and np.allclose(result[:4], result[0])  # GRPO would give exactly 0
    assert GRPOCombiner().combine(np.zeros(4), [0] * 4).tolist() == [0.0] * 4


# ------------------------------------------------------------------------------ state save/load
@pytest.mark.parametrize("name, params", [("sa_mrpo", {"momentum": 0.7}), ("sa_mrpo", {}), ("ebpo", {})])
def test_state_round_trips_through_json(name, params):
    batches = [two_reward_batch(seed) for seed in range(4)]
    continuous = make(name, **params)
    for scores, groups in batches[:2]:
        continuous.combine(scores, groups)
    saved = json.loads(json.dumps(continuous.state_dict()))
    restored = make(name, **params)
    restored.load_state_dict(saved)
    for scores, groups in batches[2:]:
        np.testing.assert_allclose(restored.combine(scores, groups), continuous.combine(scores, groups), atol=1e-12)
    assert restored.state_dict() == continuous.state_dict()
    fresh = make(name, **params)
    first = fresh.combine(*batches[2])
    assert not np.allclose(first, restored.combine(*batches[2])) or name == "sa_mrpo" and not params


def test_state_validation_and_stateless_combiners():
    with pytest.raises(ValueError, match="missing"):
        SaturationAwareCombiner().load_state_dict({"steps": 1})
    with pytest.raises(ValueError, match="unexpected"):
        EmpiricalBayesCombiner().load_state_dict({**EmpiricalBayesCombiner().state_dict(), "bogus": 1})
    sa = SaturationAwareCombiner()
    sa.combine(np.zeros((4, 2)), [0] * 4)
    with pytest.raises(ValueError, match="tracks 2 rewards but scores have 3"):
        sa.combine(np.zeros((4, 3)), [0] * 4)
    for name in sorted(set(ALL) - STATEFUL):
        combiner = make(name)
        assert combiner.state_dict() == {}
        combiner.load_state_dict({})
        with pytest.raises(ValueError, match="stateless"):
            combiner.load_state_dict({"x": 1})
