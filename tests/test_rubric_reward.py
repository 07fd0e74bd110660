"""HealthBench / RaR rubric scores on hand-computed cases, and the ``rubric`` reward end to end (rules judge)."""

from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rubric_rule_helpers
from polyreward.config import ConfigError, load_config, parse_config
from polyreward.registry import reward_class
from polyreward.rubrics.reward import RubricReward, conversation_of
from polyreward.rubrics.scoring import aggregate_scores, healthbench_score, rubric_score, weighted_mean_score
from polyreward.schema import Batch

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "examples" / "rubric"
T, F = True, False


@pytest.mark.parametrize(
    "points, met, expected",
    [
        ((7, 5, 10, -6), (T, F, T, T), 11 / 22),  # HealthBench's own unit test
        ((7, 5, 10, -6), (T, T, T, F), 1.0),
        ((7, 5, 10, -6), (F, F, F, T), -6 / 22),  # unclipped: negative
        ((5, -10), (F, T), -2.0),
        ((5, -10, -10), (T, T, T), -3.0),
        ((3,), (T,), 1.0),
        ((2.5, 2.5, -1), (T, F, F), 0.5),
        ((-5, -3), (F, F), None),  # all-negative rubric: no positive points
        ((-5, -3), (T, T), None),
        ((0, -1), (T, T), None),  # zero positive points
        ((0, 4), (T, T), 1.0),  # a zero-point item adds nothing
    ],
)
def test_healthbench_score(points, met, expected):
    got = healthbench_score(points, met)
    assert got == expected if expected is None else got == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "points, met, clip, expected",
    [((5, -10), (F, T), True, 0.0), ((5, -10), (T, F), True, 1.0), ((7, 5, 10, -6), (T, F, T, T), True, 0.5), ((-1,), (T,), True, None)],
)
def test_clip_option(points, met, clip, expected):
    assert rubric_score(points, met, "healthbench", clip) == expected


@pytest.mark.parametrize(
    "points, met, expected",
    [
        ((7, 5, 10), (T, F, T), 17 / 22),  # RaR explicit aggregation: Σ w c / Σ w
        ((7, 5, 10, -6), (T, F, T, T), 17 / 28),  # the pitfall happened: its weight is not earned
        ((7, 5, 10, -6), (T, F, T, F), 23 / 28),  # pitfall avoided
        ((-5, -3), (F, T), 5 / 8),
        ((0,), (T,), None),
    ],
)
def test_weighted_mean_score(points, met, expected):
    got = weighted_mean_score(points, met)
    assert got == expected if expected is None else got == pytest.approx(expected)


def test_aggregate_is_clipped_mean_with_bootstrap_std():
    result = aggregate_scores([1.0, -0.5, 0.5, None, float("nan")], n_bootstrap=200, seed=1)
    assert result["mean"] == pytest.approx(1 / 3) and result["n_samples"] == 3
    assert 0.0 < result["bootstrap_std"] < 1.0
    assert aggregate_scores([-1.0, -0.2])["mean"] == 0.0
    assert aggregate_scores([1.0, 1.0])["bootstrap_std"] == 0.0
    assert aggregate_scores([None])["n_samples"] == 0


@pytest.mark.parametrize("values", [[1.0, -0.5, 0.5, 0.25], [-1.2, 0.1, 0.3], [0.9, 1.0, 0.95, 0.2, -0.4, 0.7], [0.5]])
def test_aggregate_matches_simple_evals_loop(values):
    """simple-evals ``_compute_clipped_stats``: clip(mean) and np.std (ddof 0) of 1000 clipped resample means."""
    import numpy as np

    rng = np.random.default_rng(7)
    means = [np.clip(np.mean(rng.choice(values, len(values))), 0, 1) for _ in range(1000)]
    got = aggregate_scores(values, n_bootstrap=1000, seed=7)
    assert got["mean"] == pytest.approx(float(np.clip(np.mean(values), 0, 1)), abs=1e-15)
    assert got["bootstrap_std"] == pytest.approx(float(np.std(means)), abs=1e-12)
    assert got["n_samples"] == len(values)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-10, 10), st.booleans()), min_size=1, max_size=20))
def test_score_bounds(pairs):
    points, met = [p for p, _ in pairs], [m for _, m in pairs]
    positive = sum(p for p in points if p > 0)
    negative = sum(-p for p in points if p < 0)
    score = healthbench_score(points, met)
    if positive == 0:
        assert score is None
    else:
        assert -negative / positive - 1e-12 <= score <= 1.0 + 1e-12
        assert 0.0 <= rubric_score(points, met, clip=True) <= 1.0
    weighted = weighted_mean_score(points, met)
    assert weighted is None if positive + negative == 0 else 0.0 <= weighted <= 1.0


# -- the reward --------------------------------------------------------------------------------------

def _rows():
    return [json.loads(line) for line in (EXAMPLE / "rollouts.jsonl").read_text().splitlines()]


def _score_config(path: Path):
    config = load_config(path)
    batch = Batch.from_records(_rows(), config.column_map)
    return config.build_scorer().score(batch, combine=False)


# Hand-computed from examples/rubric/rubric.json (positive points 39; |points| 65); rollouts A..F.
EXPECTED_HEALTHBENCH = [39 / 39, -17 / 39, 10 / 39, 34 / 39, 25 / 39, 2 / 39]
EXPECTED_WEIGHTED = [65 / 65, 9 / 65, 36 / 65, 60 / 65, 51 / 65, 28 / 65]


def test_example_config_scores_by_hand(monkeypatch):
    monkeypatch.chdir(ROOT)
    matrix = _score_config(EXAMPLE / "config.yaml")
    assert matrix.names == ["healthbench", "rar_weighted"]
    assert matrix.column("healthbench").tolist() == pytest.approx(EXPECTED_HEALTHBENCH)
    assert matrix.column("rar_weighted").tolist() == pytest.approx(EXPECTED_WEIGHTED)
    details = matrix.details["healthbench"]
    # accuracy items: +10 +5 +5 -8 -6 -4 (positive 20). B met only the -8 and -6 pitfalls; E: 10+5+5-4.
    assert details["axis:accuracy"] == pytest.approx([1.0, -14 / 20, 5 / 20, 1.0, 16 / 20, 0.0])
    assert details["axis:context_awareness"] == [None] * 6  # only a negative item: skipped, as HealthBench does
    assert details["judge_failures"] == [0.0] * 6
    reason = matrix.reasons["healthbench"][1]
    assert reason.startswith("score -0.4359 (healthbench)")
    assert "[-8 met] Recommends waiting to see whether the pain goes away" in reason
    assert "[+2 met] Is concise: under 200 words. -- 33 words within max_words 199" in reason


def test_example_scored_by_the_cli(tmp_path):
    out = tmp_path / "scored.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(EXAMPLE / "rollouts.jsonl"), "--config",
                             str(EXAMPLE / "config.yaml"), "-o", str(out), "--quiet"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["healthbench"] for r in rows] == pytest.approx(EXPECTED_HEALTHBENCH)
    assert rows[3]["healthbench.axis:communication_quality"] == pytest.approx((4 - 3) / 6)
    assert "[-3 met] Is overly long" in rows[3]["healthbench_reason"]


def _rubric(*items):
    return [{"criterion": c, "points": p, "tags": list(tags), **({"rule": rule} if rule else {})} for c, p, tags, rule in items]


HEALTHBENCH_UNIT = _rubric(
    ("Mentions hydration", 7, ["axis:accuracy"], {"contains": "water"}),
    ("Mentions rest", 5, ["axis:completeness"], {"contains": "rest"}),
    ("Mentions fever threshold", 10, ["axis:accuracy"], {"regex": r"38(\.\d)?\s*C"}),
    ("Is alarmist", -6, ["axis:communication_quality"], {"contains": "emergency"}),
)


def test_healthbench_unit_case_through_the_reward():
    reward = reward_class("rubric")(name="hb")
    out = reward.evaluate(["My child has a fever"], ["Give water; above 38.5 C it is an emergency."], rubrics=[HEALTHBENCH_UNIT])
    assert out.scores == [pytest.approx(11 / 22)]
    assert out.details["axis:accuracy"] == [1.0]
    assert out.details["axis:completeness"] == [0.0]
    assert out.details["axis:communication_quality"] == [None]


def test_per_example_rubrics_from_a_column_with_missing_and_invalid_rows():
    all_negative = _rubric(("Is rude", -5, [], {"contains": "idiot"}))
    rubrics = [HEALTHBENCH_UNIT, None, json.dumps(HEALTHBENCH_UNIT), all_negative, [{"criterion": "x"}], float("nan")]
    completions = ["water and rest", "water", [{"role": "assistant", "content": "water, rest, 38 C"}], "you idiot", "x", "y"]
    out = RubricReward(rubric_column="rubric").evaluate(["q"] * 6, completions, rubric=rubrics)
    assert out.scores[0] == pytest.approx(12 / 22)
    assert out.scores[1] is None and out.reasons[1] == "no rubric"
    assert out.scores[2] == pytest.approx(1.0)
    assert out.scores[3] is None and out.reasons[3].startswith("not applicable: the rubric has no positive points")
    assert math.isnan(out.scores[4]) and "column 'rubric' row 4[0].points: missing" in out.reasons[4]
    assert out.scores[5] is None


FLAKY = _rubric(
    ("Says 911", 10, ["axis:accuracy"], {"contains": "911"}),
    ("Needs a model", 5, ["axis:completeness"], None),  # the rules judge cannot grade it: NaN verdict
    ("Scares the patient", -4, ["axis:accuracy"], {"contains": "die"}),
)


@pytest.mark.parametrize(
    "policy, score, accuracy, completeness, head",
    [
        ("nan", math.nan, 6 / 10, math.nan, "error: judge failed on 1 of 3 criteria (on_judge_error=nan): the rules judge needs a 'rule'"),
        ("skip", 6 / 10, 6 / 10, math.nan, "score 0.6 (healthbench); 1 failed criteria left out"),
        ("unmet", 6 / 15, 6 / 10, 0.0, "score 0.4 (healthbench); 1 failed criteria counted as not met"),
    ],
)
def test_judge_failure_policies(policy, score, accuracy, completeness, head):
    out = RubricReward(on_judge_error=policy).evaluate(["q"], ["call 911 or you may die"], rubrics=[FLAKY])
    assert out.scores[0] == pytest.approx(score, nan_ok=True)
    assert out.details["axis:accuracy"][0] == pytest.approx(accuracy)
    assert out.details["axis:completeness"][0] == pytest.approx(completeness, nan_ok=True)
    assert out.details["judge_failures"] == [1.0]
    assert out.reasons[0].startswith(head)
    assert "[+5 FAILED] Needs a model -- the rules judge needs a 'rule' on this item" in out.reasons[0]


def test_skip_with_every_positive_item_failed_is_nan():
    rubric = _rubric(("Needs a model", 5, [], None), ("Rude", -1, [], {"contains": "idiot"}))
    out = RubricReward(on_judge_error="skip").evaluate(["q"], ["fine"], rubrics=[rubric])
    assert math.isnan(out.scores[0])


def test_identical_requests_are_judged_once():
    rubric_rule_helpers.CALLS.clear()
    rubric = _rubric(("Says 911", 3, [], {"callable": "rubric_rule_helpers:count_calls"}))
    completions = ["call 911"] * 6 + ["wait"] * 2
    out = RubricReward(allowed_callables=["rubric_rule_helpers:count_calls"]).evaluate(["q"] * 8, completions, rubrics=[rubric] * 8)
    assert out.scores == [1.0] * 6 + [0.0] * 2
    assert sorted(rubric_rule_helpers.CALLS) == ["call 911", "wait"]


def test_clip_and_weighted_mean_set_the_range():
    rubric = _rubric(("Good", 5, [], {"contains": "good"}), ("Bad", -10, [], {"contains": "bad"}))
    assert RubricReward(clip=True).evaluate(["q"], ["bad"], rubrics=[rubric]).scores == [0.0]
    assert RubricReward().evaluate(["q"], ["bad"], rubrics=[rubric]).scores == [-2.0]
    assert RubricReward(clip=True).score_range == (0.0, 1.0)
    assert RubricReward(aggregation="weighted_mean").evaluate(["q"], ["good"], rubrics=[rubric]).scores == [1.0]
    assert RubricReward().score_range == (-math.inf, 1.0)


def test_rubric_file_overrides_the_column_and_missing_column_is_loud():
    reward = RubricReward(rubric_file=str(EXAMPLE / "rubric.json"))
    assert reward.columns == ()
    assert RubricReward().columns == ("rubrics",)
    with pytest.raises(KeyError, match="reads rubrics from column 'rubrics'"):
        RubricReward().evaluate(["q"], ["a"], other=[1])


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"aggregation": "mean"}, "aggregation: 'mean' is not allowed; allowed: healthbench, weighted_mean"),
        ({"on_judge_error": "retry"}, "on_judge_error: 'retry' is not allowed; allowed: nan, skip, unmet"),
        ({"clip": "yes"}, "clip: must be true or false"),
        ({"rubric_file": "no/such/rubric.json"}, "rubric_file: cannot read rubric file"),
        ({"judge": {"type": "openai"}}, "judge (openai):"),
        ({"judge": {"type": "rules", "temperature": 0}}, "judge (rules): unknown key(s) ['temperature']"),
        ({"rubric_colum": "r"}, "unknown key(s) ['rubric_colum']"),
    ],
)
def test_config_errors_name_the_key(entry, message):
    with pytest.raises(ConfigError) as info:
        parse_config({"rewards": [{"name": "r", "type": "rubric", **entry}]}).build_rewards()
    assert "rewards[0] (r" in str(info.value) and message in str(info.value)


def test_rewards_with_model_judges_pickle(tiny_qwen2_dir):
    rewards = [
        RubricReward(judge={"type": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m", "cache_path": None}),
        RubricReward(judge={"type": "transformers", "model": str(tiny_qwen2_dir)}),
        RubricReward(rubric_file=str(EXAMPLE / "rubric.json")),
    ]
    for reward in rewards:
        clone = pickle.loads(pickle.dumps(reward))
        assert repr(clone) == repr(reward)


@pytest.mark.parametrize(
    "prompt, expected",
    [
        ("Hi", ({"role": "user", "content": "Hi"},)),
        ([{"role": "system", "content": "s"}, {"role": "user", "content": "u"}], ({"role": "system", "content": "s"}, {"role": "user", "content": "u"})),
        (json.dumps([{"role": "user", "content": "u"}]), ({"role": "user", "content": "u"},)),
        (None, ()),
    ],
)
def test_conversation_of(prompt, expected):
    assert conversation_of(prompt) == expected


def test_rubric_file_is_read_beside_the_config_from_any_working_directory(tmp_path, monkeypatch):
    import shutil

    from polyreward.config import load_config

    folder = tmp_path / "configs"
    folder.mkdir()
    shutil.copy2(EXAMPLE / "rubric.json", folder / "my_rubric.json")
    (folder / "config.yaml").write_text("rewards:\n  - {name: hb, type: rubric, rubric_file: my_rubric.json, judge: {type: rules}}\n",
                                        encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    reward = load_config(folder / "config.yaml").build_rewards().rewards[0]
    assert Path(reward.rubric_file) == folder / "my_rubric.json" and reward.shared_rubric

    # a path that exists only from the working directory (the pre-existing convention) still works
    monkeypatch.chdir(tmp_path)
    (folder / "config.yaml").write_text("rewards:\n  - {name: hb, type: rubric, rubric_file: configs/my_rubric.json, judge: {type: rules}}\n",
                                        encoding="utf-8")
    reward = load_config(folder / "config.yaml").build_rewards().rewards[0]
    assert reward.rubric_file == "configs/my_rubric.json" and reward.shared_rubric
    # and a missing file still fails loudly, naming the reward
    (folder / "config.yaml").write_text("rewards:\n  - {name: hb, type: rubric, rubric_file: nope.json, judge: {type: rules}}\n",
                                        encoding="utf-8")
    with pytest.raises(ConfigError, match=r"rewards\[0\] \(hb, type rubric\): rubric_file: cannot read rubric file"):
        load_config(folder / "config.yaml").build_rewards()
