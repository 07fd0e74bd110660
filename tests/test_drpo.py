"""DRPO (QoQ-Med) against its released code, re-typed below: DDVD233/QoQ_Med verl/trainer/core_algos.py
``compute_drpo_outcome_advantage`` (+ ``_select_k_elbow``, ``_cluster_info_question``) at commit
ddb4b14308dce54db1e21ec803745d7221960b67, on generated batches: skewed domain mixes, rare domains, one-domain
batches, NaN cells; several steps (the per-domain history); state round-trip and exact resume."""

from __future__ import annotations

import json
import math
from collections import defaultdict

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.cluster import KMeans

from polyreward import registry
from polyreward.combiner import row_arrays
from polyreward.combiners.drpo import DRPOCombiner

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


# ------------------------------------------------------------------ the released code, re-typed (prints left out)
class ReleasedDRPO:
    """``compute_drpo_outcome_advantage`` with its module-level ``domain_qstats`` as an attribute."""

    def __init__(self, k_max: int = 10, clamp_cluster: bool = False):
        self.domain_qstats = defaultdict(lambda: {"vectors": [], "q_ids": [], "count": 0})
        self.k_max = k_max
        self.clamp_cluster = clamp_cluster  # polyreward's one change: max(√N_c·μ_c, eps), as the reference does for T_d

    @staticmethod
    def _select_k_elbow(vals, k_max=10, tol=0.10):
        unique_cnt = len(np.unique(vals, axis=0))
        k_cap = min(k_max, unique_cnt)
        ks = range(1, k_cap + 1)
        inertias = [KMeans(n_clusters=k, n_init="auto", random_state=0).fit(vals).inertia_ for k in ks]
        if len(inertias) == 1:
            return 1
        drops = np.diff(inertias) * -1.0
        for i in range(1, len(drops)):
            if drops[i] < tol * drops[i - 1]:
                return i + 1
        return ks[-1]

    def _cluster_info_question(self, vectors):
        X = np.stack(vectors, axis=0)
        k_opt = self._select_k_elbow(X, k_max=self.k_max)
        km = KMeans(n_clusters=k_opt, n_init="auto", random_state=0).fit(X)
        centroids = km.cluster_centers_
        assignments = km.labels_
        _, counts = np.unique(assignments, return_counts=True)
        counts = counts.astype(float)
        centroid_means = centroids.mean(axis=1)
        weights = 1.0 / counts
        mu_d = float((weights * centroid_means).sum() / weights.sum())
        return mu_d, assignments, counts, centroids

    def __call__(self, token_level_rewards, response_mask, index, domain_info, eps=1e-6):
        B, L = token_level_rewards.shape
        raw_scores = token_level_rewards.sum(dim=-1)
        q2rollouts = defaultdict(list)
        q2domain = {}
        for i in range(B):
            qid = index[i]
            q2rollouts[qid].append(raw_scores[i].item())
            q2domain[qid] = domain_info[i]
        rollout_lens = {len(v) for v in q2rollouts.values()}
        assert len(rollout_lens) == 1, "Inconsistent rollout counts per question in batch!"
        q_vectors = {qid: np.asarray(v, dtype=np.float32) for qid, v in q2rollouts.items()}
        for qid, vec in q_vectors.items():
            dstat = self.domain_qstats[q2domain[qid]]
            dstat["vectors"].append(vec)
            dstat["q_ids"].append(qid)
            dstat["count"] += 1
        scores = raw_scores.clone()
        id2mean = {qid: torch.mean(torch.tensor(v)) for qid, v in q2rollouts.items()}
        id2std = {qid: torch.std(torch.tensor(v)) for qid, v in q2rollouts.items()}
        for i in range(B):
            qid = index[i]
            scores[i] = (scores[i] - id2mean[qid]) / (id2std[qid] + eps)
        domain_cluster_cache = {}
        for dom, dstat in self.domain_qstats.items():
            if dstat["count"] == 0:
                continue
            mu_d, assign, counts, centroids = self._cluster_info_question(dstat["vectors"])
            domain_cluster_cache[dom] = {"mu_d": mu_d, "assign": assign, "counts": counts, "centroids": centroids, "q_ids": dstat["q_ids"]}
        for i in range(B):
            qid = index[i]
            dom = q2domain[qid]
            cache = domain_cluster_cache[dom]
            q_idx = cache["q_ids"].index(qid)
            cluster_idx = cache["assign"][q_idx]
            N_d = float(self.domain_qstats[dom]["count"])
            mu_d = cache["mu_d"]
            T_d = max(math.sqrt(N_d) * mu_d, eps)
            N_c = float(cache["counts"][cluster_idx])
            mu_c = float(cache["centroids"][cluster_idx].mean())
            factor = T_d * max(math.sqrt(N_c) * mu_c, eps) if self.clamp_cluster else T_d * math.sqrt(N_c) * mu_c
            scores[i] = scores[i] / factor
        scores_std = torch.std(scores)
        scores = scores / (scores_std + eps)
        returns = scores.unsqueeze(-1) * response_mask
        return returns, returns


def released(reference: ReleasedDRPO, totals: np.ndarray, groups: np.ndarray, domains: np.ndarray) -> np.ndarray:
    """One verl call: (bs, 3) token rewards whose sum is each rollout's total, uid = group id.

    torch's default dtype is float64 during the call: the reference builds its group means with
    ``torch.tensor(list)`` (float32 by default), which alone moves results by ~1e-6; the k-means inputs stay
    float32 as the reference casts them explicitly."""
    token = torch.zeros((len(totals), 3), dtype=torch.float64)
    token[:, -1] = torch.as_tensor(totals)
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        advantages, _ = reference(token, torch.ones_like(token), list(groups), list(domains))
    finally:
        torch.set_default_dtype(default)
    return advantages[:, 0].numpy()


# ------------------------------------------------------------------ generated batches
DOMAINS = ["medqa", "medmcqa-Anatomy", "medmcqa-Surgery", "pubmedqa"]


MIXES = ("skewed", "one_domain", "rare", "uniform")


@st.composite
def steps(draw, max_steps: int = 3, floor: float = 0.0, mix: str | None = None, nan_cells: bool | None = None):
    """1-3 batches of Q questions x G rollouts (G fixed, as the reference asserts), K rewards, skewed domain mixes;
    every reward >= ``floor`` (a floor > 0 keeps every cluster mean positive, where the reference is finite)."""
    G = draw(st.sampled_from([2, 3, 5, 7]))
    K = draw(st.integers(1, 3))
    weights = np.asarray(draw(st.lists(st.sampled_from([1.0, 0.5, 2.0, 0.3]), min_size=K, max_size=K)))
    mix = draw(st.sampled_from(MIXES)) if mix is None else mix
    nan_cells = draw(st.booleans()) if nan_cells is None else nan_cells
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    batches = []
    for step in range(draw(st.integers(1, max_steps))):
        Q = draw(st.integers(2, 6))
        p = {"skewed": [0.7, 0.1, 0.1, 0.1], "one_domain": [1, 0, 0, 0], "rare": [0.85, 0.15, 0, 0], "uniform": [0.25] * 4}[mix]
        question_domains = rng.choice(DOMAINS, Q, p=p)
        # non-negative rewards (as QoQ-Med's): binary accuracy, tenths, sevenths; some questions all-correct
        scores = np.where(rng.random((Q * G, K)) < 0.5, rng.integers(0, 2, (Q * G, K)), rng.integers(0, 11, (Q * G, K)) / 10 + rng.integers(0, 8, (Q * G, K)) / 7)
        scores = scores + floor
        if nan_cells:  # cells, never whole rows: the reference has no missing rewards
            mask = rng.random((Q * G, K)) < 0.2
            mask[:, 0] = False
            scores = np.where(mask, np.nan, scores)
        groups = np.repeat(np.arange(step * 100, step * 100 + Q), G)
        batches.append((scores.astype(float), groups, np.repeat(question_domains, G), weights))
    return batches


def nansum_totals(scores, weights):
    return np.where(np.isnan(scores), 0.0, scores) @ weights


@pytest.mark.parametrize("nan_cells", [False, True])
@pytest.mark.parametrize("mix", MIXES)
@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_equals_the_released_code_over_steps(mix, nan_cells, data):
    """Every domain mix (skewed, one domain, a rare domain, uniform), with and without NaN cells, 1-3 steps."""
    batches = data.draw(steps(floor=0.1, mix=mix, nan_cells=nan_cells))
    ours, reference = DRPOCombiner(), ReleasedDRPO()
    for scores, groups, domains, weights in batches:
        got = ours.combine(scores, groups, weights, domain=domains)
        expected = released(reference, nansum_totals(scores, weights), groups, domains)
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batches=steps(max_steps=2))
def test_all_wrong_questions_clamp_the_cluster_term(batches):
    """With zero rewards a cluster mean can be 0: the reference then divides 0 by 0 and the whole batch is NaN;
    polyreward clamps the cluster term like the reference's T_d and equals the reference with that one change."""
    ours, exact, clamped = DRPOCombiner(), ReleasedDRPO(), ReleasedDRPO(clamp_cluster=True)
    for scores, groups, domains, weights in batches:
        totals = nansum_totals(scores, weights)
        got = ours.combine(scores, groups, weights, domain=domains)
        np.testing.assert_allclose(got, released(clamped, totals, groups, domains), rtol=0, atol=1e-6)
        reference = released(exact, totals, groups, domains)
        if np.isfinite(reference).all():
            np.testing.assert_allclose(got, reference, rtol=0, atol=1e-6)


def test_rare_domain_gets_the_larger_scale():
    """One batch, 9 MedQA questions and 1 PubMedQA question with the same reward pattern: the rare one is scaled up
    by √9 at the domain level and √9 again at the cluster level (one cluster per domain), so both get half the mass."""
    pattern = np.array([1.0, 0.0, 1.0, 0.0])
    scores = np.tile(pattern, 10)[:, None]
    groups = np.repeat(np.arange(10), 4)
    domains = np.repeat(["medqa"] * 9 + ["pubmedqa"], 4)
    combiner = DRPOCombiner()
    advantages = combiner.combine(scores, groups, domain=domains)
    medqa, pubmed = np.abs(advantages[:36]).max(), np.abs(advantages[36:]).max()
    assert pubmed == pytest.approx(9 * medqa)
    mass = combiner.diagnostics()
    assert mass["advantage_mass/pubmedqa"] == pytest.approx(0.5) and mass["advantage_mass/medqa"] == pytest.approx(0.5)
    assert mass["questions/medqa"] == 9 and mass["clusters/pubmedqa"] == 1
    np.testing.assert_allclose(advantages, released(ReleasedDRPO(), scores[:, 0], groups, domains), atol=1e-6)


def test_one_domain_one_question():
    scores = np.array([[1.0], [0.0], [0.5]])
    advantages = DRPOCombiner().combine(scores, [7, 7, 7], domain=["medqa"] * 3)
    np.testing.assert_allclose(advantages, released(ReleasedDRPO(), scores[:, 0], np.array([7, 7, 7]), ["medqa"] * 3), atol=1e-6)


def test_rows_without_any_reward_get_zero_and_leave_the_statistics():
    scores = np.array([[1.0], [0.0], [np.nan], [1.0], [0.2], [0.6], [0.6], [0.9]])
    groups = np.repeat([0, 1], 4)
    advantages = DRPOCombiner().combine(scores, groups, domain=["a"] * 8)
    assert advantages[2] == 0.0 and np.isfinite(advantages).all() and np.abs(advantages[[0, 1, 3]]).min() > 0


def test_singletons_unequal_groups_and_negative_rewards_stay_finite():
    scores = np.array([[1.0], [0.0], [0.5], [-2.0], [-1.0], [0.3], [0.4], [0.4], [0.4], [0.9]])
    groups = [0, 0, 0, 1, 1, 2, 3, 3, 3, 3]
    combiner = DRPOCombiner()
    for _ in range(2):
        advantages = combiner.combine(scores, groups, domain=["a", "a", "a", "b", "b", "a", "b", "b", "b", "b"])
        assert np.isfinite(advantages).all() and advantages[5] == 0.0  # a singleton has no GRPO advantage


def test_torch_in_torch_out():
    scores = torch.tensor([[1.0], [0.0], [0.0], [1.0]], dtype=torch.float32)
    out = DRPOCombiner().combine(scores, torch.tensor([0, 0, 1, 1]), domain=["a", "a", "b", "b"])
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float32 and out.shape == (4,)


# ------------------------------------------------------------------ state: round trip and exact resume
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batches=steps(max_steps=3))
def test_resume_from_saved_state_is_exact(batches):
    straight = DRPOCombiner()
    expected = [straight.combine(s, g, w, domain=d) for s, g, d, w in batches]
    for cut in range(1, len(batches)):
        first = DRPOCombiner()
        for s, g, d, w in batches[:cut]:
            first.combine(s, g, w, domain=d)
        resumed = DRPOCombiner()
        resumed.load_state_dict(json.loads(json.dumps(first.state_dict())))  # through JSON, as a checkpoint
        for (s, g, d, w), want in zip(batches[cut:], expected[cut:]):
            np.testing.assert_array_equal(resumed.combine(s, g, w, domain=d), want)
    assert json.loads(json.dumps(straight.state_dict())) == straight.state_dict()


def test_state_keeps_tuple_ids_and_first_occurrence():
    combiner = DRPOCombiner()
    ids = [("q", 1)] * 3 + [("q", 2)] * 3
    combiner.combine(np.array([[1.0], [0.0], [1.0], [0.2], [0.4], [0.9]]), ids, domain=["a"] * 6)
    restored = DRPOCombiner()
    restored.load_state_dict(json.loads(json.dumps(combiner.state_dict())))
    assert restored.state_dict() == combiner.state_dict()
    scores = np.array([[0.0], [1.0], [1.0]])
    np.testing.assert_array_equal(restored.combine(scores, [("q", 1)] * 3, domain=["a"] * 3), combiner.combine(scores, [("q", 1)] * 3, domain=["a"] * 3))


@pytest.mark.parametrize("state, message", [
    ({}, "version"),
    ({"version": 1, "domains": [{"domain": "a", "question_ids": [1], "vectors": []}]}, "1 question ids for 0 vectors"),
    ({"version": 1, "domains": [{"domain": "a", "question_ids": [1], "vectors": [[float("nan")]]}]}, "finite"),
    ({"version": 1, "domains": [{"question_ids": [], "vectors": []}]}, "domains\\[0\\]"),
])
def test_bad_state_is_a_clear_error(state, message):
    with pytest.raises(ValueError, match=message):
        DRPOCombiner().load_state_dict(state)


# ------------------------------------------------------------------ protocol
def test_needs_a_domain_and_declares_it():
    assert registry.combiner_class("drpo") is DRPOCombiner and DRPOCombiner.row_columns == ("domain",)
    with pytest.raises(ValueError, match="columns: {domain"):
        DRPOCombiner().combine([[1.0], [0.0]], [0, 0])
    with pytest.raises(ValueError, match="one label per row"):
        DRPOCombiner().combine([[1.0], [0.0]], [0, 0], domain=["a"])
    assert row_arrays(DRPOCombiner(), {"source": ["a", "b"]}, {"domain": "source"}) == {"domain": ["a", "b"]}
    with pytest.raises(ValueError, match="needs a per-row 'domain' column"):
        row_arrays(DRPOCombiner(), {"answer": [1]})
    assert row_arrays(registry.combiner_class("gdpo")(), {}) == {}


@pytest.mark.parametrize("params, message", [({"eps": 0}, "eps"), ({"k_max": 0}, "k_max"), ({"k_max": 2.5}, "k_max")])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        DRPOCombiner(**params)


def test_config_columns_map_the_domain_column():
    from polyreward.config import ConfigError, parse_config

    config = parse_config({"columns": {"group": "prompt_id", "domain": "source"}, "combiner": "drpo",
                           "rewards": [{"name": "accuracy", "type": "crpo_accuracy"}]})
    combiner = config.build_combiner()
    assert combiner.row_sources == {"domain": "source"}
    assert row_arrays(combiner, {"source": ["medqa"], "prompt_id": [0]}) == {"domain": ["medqa"]}
    assert parse_config({"combiner": "drpo", "rewards": [{"name": "a", "type": "crpo_format"}]}).build_combiner().row_sources == {"domain": "domain"}
    with pytest.raises(ConfigError, match="columns.domian: unknown key; allowed: completion, group, prompt, domain"):
        parse_config({"columns": {"domian": "source"}, "rewards": [{"name": "a", "type": "crpo_format"}]})


def test_advantages_cli_reads_the_mapped_domain_column(tmp_path, capsys):
    from polyreward.cli import main

    rows = [{"prompt_id": f"q{q}", "source": "medqa" if q < 5 else "pubmedqa", "accuracy": float((q + i) % 2), "format": float(i > 0)}
            for q in range(6) for i in range(4)]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "drpo.yaml"
    config.write_text("columns: {domain: source}\nrewards:\n  - {name: accuracy, type: crpo_accuracy}\n"
                      "  - {name: format, type: crpo_format}\ncombiner: drpo\n")
    out = tmp_path / "out.jsonl"
    assert main(["advantages", str(data), "--config", str(config), "-o", str(out)]) == 0
    assert "advantage_mass/pubmedqa" in capsys.readouterr().out
    got = np.array([json.loads(line)["advantage"] for line in out.read_text().splitlines()])
    scores = np.array([[r["accuracy"], r["format"]] for r in rows])
    expected = DRPOCombiner().combine(scores, [r["prompt_id"] for r in rows], domain=[r["source"] for r in rows])
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert main(["advantages", str(data), "--combiner", "drpo", "--rewards", "accuracy", "-o", str(out)]) == 2
    assert "needs a per-row 'domain' column" in capsys.readouterr().err


@pytest.mark.slow
def test_trainer_resume_with_drpo_is_exact(tiny_qwen2_dir, tmp_path):
    """The bundled trainer carries DRPO's domain histories in its checkpoint: resuming at step 1 gives the
    uninterrupted run's advantages (per-domain masses, advantage std) at step 2."""
    import shutil
    from pathlib import Path

    from polyreward.trainer import train
    from polyreward.trainer.checkpoint import load_trainer_state

    source = Path(__file__).parent.parent / "examples" / "train" / "medqa_crpo_train.jsonl"
    lines = source.read_text(encoding="utf-8").splitlines()
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("\n".join(lines[:4] + lines[300:302] + lines[-2:]) + "\n", encoding="utf-8")

    def config(out):
        return {"columns": {"domain": "domain"}, "combiner": "drpo",
                "rewards": [{"name": "english", "type": "crpo_english"}, {"name": "format", "type": "crpo_format", "weight": 0.5}],
                "train": {"model": str(tiny_qwen2_dir), "dataset": str(prompts), "prompts_per_step": 3, "num_generations": 3,
                          "max_new_tokens": 8, "max_steps": 2, "save_steps": 1, "learning_rate": 1e-3, "output_dir": str(out)}}

    full = train(config(tmp_path / "full"), progress=False)
    resumed_dir = tmp_path / "resumed"
    resumed_dir.mkdir()
    shutil.copytree(tmp_path / "full" / "checkpoint-1", resumed_dir / "checkpoint-1")
    assert load_trainer_state(resumed_dir / "checkpoint-1")["combiner"]["domains"]  # the histories are in the checkpoint
    resumed = train(config(resumed_dir), progress=False, resume=True)
    assert len(resumed.metrics) == 1
    for a, b in zip(full.metrics[1:], resumed.metrics):
        keys = [k for k in a if k.startswith("combiner/")] + ["advantage/std", "reward"]
        assert any(k.startswith("combiner/advantage_mass/") for k in keys)
        for key in keys:
            assert a[key] == pytest.approx(b[key], rel=1e-9, abs=1e-12), key


def test_rewards_beyond_float32_are_a_clear_error_and_leave_the_state():
    """The history holds float32 vectors (as the release); 1e150 used to overflow to inf and crash inside k-means."""
    combiner = DRPOCombiner()
    groups, domains = np.repeat([0, 1], 3), ["a"] * 6
    combiner.combine(np.array([0.0, 1.0, 2.0, 1.0, 1.0, 0.0]), groups, domain=domains)
    before = combiner.state_dict()
    with pytest.raises(ValueError, match="float32 range"):
        combiner.combine(np.array([0.0, 1e150, 2.0, 1.0, 1.0, 0.0]), groups, domain=domains)
    assert combiner.state_dict() == before
