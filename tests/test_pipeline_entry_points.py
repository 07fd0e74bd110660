"""The same rollouts through every entry point give the same scores, reasons, failure counts and advantages.

Entry points: the ``polyreward score`` CLI on a file, :func:`polyreward.pipeline.score_batch`, TRL reward
functions (:func:`polyreward.integrations.trl.reward_funcs`, called the way TRL 1.16's
``GRPOTrainer._calculate_rewards`` calls them, trl/trainer/grpo_trainer.py: ``prompts=, completions=,
completion_ids=, **reward_kwargs`` with ``log_extra``/``log_metric``) plus ``combined_advantages`` for
``PolyGRPOTrainer``, verl (:func:`polyreward.integrations.verl.compute_score` per sample as verl 0.9.1's reward
loop calls it, verl/experimental/reward_loop/reward_manager/naive.py: ``data_source, solution_str, ground_truth,
extra_info``, then the ``polyreward`` advantage estimator with the per-reward components in
``non_tensor_batch`` as verl/trainer/ppo/ray_trainer.py ``compute_advantage`` passes them) and the bundled
trainer's scoring step (:func:`polyreward.trainer.loop.score_step`).

verl reports no reason for a reward that succeeded (its ``reward_extra_info`` holds floats only): its reasons
are the failure warnings it logs, compared for the failed cells.
"""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from polyreward.config import load_config
from polyreward.pipeline import RewardError, score_batch
from polyreward.schema import Batch

TESTS = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", "COLUMNS": "200"}
G = 4

CONFIG = """
columns: {prompt: prompt, completion: completion, group: qid}
rewards:
  - {name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", weight: 2.0}
  - {name: exact, type: "toy_rewards:AnswerMatch", answer_column: gold, weight: 0.5}
  - {name: choice, type: choice_accuracy, answer_column: gold}
  - {name: ex, type: "toy_rewards:Explodes", weight: 0.3}
combiner: {type: gdpo}
"""


def make_rows() -> list[dict]:
    """Three prompts of G rollouts; reference columns are per prompt (the trainer repeats a prompt's row G times)."""
    golds, skips = ["C", "yes", "B"], [False, False, True]
    outputs = ["The answer is C. yes", "C", "boom yes", "The answer is B.",
               "yes", "no", "yes boom", "The answer is A.",
               "The answer is B.", "B", "yes", "boom"]
    return [{"qid": i // G, "prompt": f"question {i // G}", "completion": outputs[i], "gold": golds[i // G], "skip": skips[i // G]}
            for i in range(3 * G)]


# ------------------------------------------------------------------ one function per entry point
def via_cli(rows, config_path, tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "-c", str(config_path), "-o", str(out), "--chunk-size", "5"],
                            capture_output=True, text=True, env=ENV)
    if result.returncode == 1 and "on_reward_error: raise" in result.stderr:
        raise RewardError("cli", 0, 0, result.stderr)
    assert result.returncode == 0, result.stderr
    written = [json.loads(line) for line in out.read_text().splitlines()]
    names = [r.name for r in load_config(config_path).rewards]
    scores = np.array([[math.nan if row[n] is None else row[n] for n in names] for row in written])
    reasons = {n: [row[f"{n}_reason"] or "" for row in written] for n in names}
    failures = {}
    for line in result.stdout.splitlines():  # the summary table: reward | n | mean | std | NaN | failed
        cells = [c.strip() for c in line.replace("┃", "│").split("│") if c.strip()]
        if cells and cells[0] in names:
            failures[cells[0]] = int(cells[-1])
    advantages = np.array([row.get("advantage", math.nan) for row in written])
    for row, source in zip(written, rows):
        assert {k: row[k] for k in source} == source  # input columns round-trip with their types
    return scores, reasons, failures, advantages


def via_score_batch(rows, config_path, tmp_path):
    config = load_config(config_path)
    scored = score_batch(Batch.from_records(rows, config.column_map), config.build_rewards(), config.build_combiner(),
                         on_reward_error=config.on_reward_error)
    return scored.scores, scored.reasons, scored.failures, scored.advantages


class Recorder:
    def __init__(self):
        self.extra, self.metrics = {}, {}

    def log_extra(self, key, values):
        self.extra[key] = list(values)

    def log_metric(self, key, value):
        self.metrics[key] = value


def via_trl(rows, config_path, tmp_path):
    from polyreward.integrations.trl import combined_advantages, reward_funcs, reward_weights

    funcs = reward_funcs(str(config_path))
    recorder = Recorder()
    dataset = {k: [r[k] for r in rows] for k in ("qid", "gold", "skip")}
    columns = []
    for func in funcs:
        values = func(prompts=[r["prompt"] for r in rows], completions=[r["completion"] for r in rows],
                      completion_ids=[[1, 2]] * len(rows), trainer_state=None, log_extra=recorder.log_extra,
                      log_metric=recorder.log_metric, **dataset)
        columns.append([math.nan if v is None else v for v in values])
    scores = np.array(columns).T
    names = [f.__name__ for f in funcs]
    reasons = {n: recorder.extra[f"{n}/reason"] for n in names}
    failures = {n: round(recorder.metrics[f"rewards/{n}/failed_frac"] * len(rows)) for n in names}
    combiner = load_config(config_path).build_combiner()
    weights = torch.tensor(reward_weights(str(config_path)), dtype=torch.float64)
    advantages = combined_advantages(combiner, torch.tensor(scores, dtype=torch.float64), G, weights).numpy()
    return scores, reasons, failures, advantages


def via_verl(rows, config_path, tmp_path, caplog=None):
    from polyreward.integrations import verl as poly_verl

    names = [r.name for r in load_config(config_path).rewards]
    results = []
    handler = _Capture()
    logger = logging.getLogger("polyreward.integrations.verl")
    logger.addHandler(handler)
    try:
        for row in rows:
            handler.messages.append([])
            results.append(poly_verl.compute_score(data_source="toy", solution_str=row["completion"], ground_truth=row["gold"],
                                                   extra_info={"qid": row["qid"], "skip": row["skip"], "prompt": row["prompt"]},
                                                   config_path=str(config_path), ground_truth_column="gold"))
    finally:
        logger.removeHandler(handler)
    scores = np.array([[r[n] if r[f"{n}/applicable"] else math.nan for n in names] for r in results])
    failures = {n: int(sum(r[f"{n}/failed"] for r in results)) for n in names}
    reasons = {n: [next((m.split(": ", 1)[1] for m in logged if f"reward {n!r} failed" in m), "") for logged in handler.messages]
               for n in names}
    non_tensor = {key: np.array([r[key] for r in results]) for key in results[0]}
    token_rewards = torch.zeros(len(rows), 3, dtype=torch.float64)
    advantages, _ = poly_verl.compute_polyreward_advantage(token_rewards, torch.ones(len(rows), 3, dtype=torch.float64),
                                                           index=np.array([str(r["qid"]) for r in rows], dtype=object),
                                                           config={"polyreward_config": str(config_path)}, non_tensor_batch=non_tensor)
    return scores, reasons, failures, advantages[:, 0].numpy()


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[list[str]] = []

    def emit(self, record):
        self.messages[-1].append(record.getMessage())


def via_trainer(rows, config_path, tmp_path):
    from polyreward.trainer.loop import score_step
    from polyreward.trainer.policy import Rollouts

    config = load_config(config_path)
    prompt_rows = [{k: v for k, v in rows[i].items() if k != "completion"} for i in range(0, len(rows), G)]
    n = len(rows)
    rollouts = Rollouts(prompt_ids=torch.zeros(n, 1, dtype=torch.long), prompt_mask=torch.ones(n, 1, dtype=torch.long),
                        completion_ids=torch.ones(n, 2, dtype=torch.long), completion_mask=torch.ones(n, 2, dtype=torch.long),
                        texts=[r["completion"] for r in rows], terminated=torch.ones(n, dtype=torch.bool))
    groups = np.repeat(np.arange(len(prompt_rows)), G)
    scored = score_step(config.build_rewards(), prompt_rows, "prompt", rollouts, G, config.build_combiner(), groups, config.on_reward_error)
    return scored.scores, scored.reasons, scored.failures, scored.advantages


ENTRY_POINTS = {"cli": via_cli, "score_batch": via_score_batch, "trl": via_trl, "verl": via_verl, "trainer": via_trainer}


def _normalised(reasons):
    return {name: [r or "" for r in values] for name, values in reasons.items()}


@pytest.fixture()
def config_path(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(CONFIG)
    return path


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    path = tmp_path_factory.mktemp("ref") / "cfg.yaml"
    path.write_text(CONFIG)
    return via_score_batch(make_rows(), path, None)


def test_the_reference_batch_exercises_every_case(reference):
    scores, reasons, failures, advantages = reference
    assert np.isnan(scores[8:, 0]).all() and not np.isnan(scores[:8, 0]).any()  # not applicable (skip)
    assert failures == {"has_yes": 0, "exact": 0, "choice": 0, "ex": 3}
    assert reasons["ex"][2] == "error: RuntimeError: boom" and np.count_nonzero(advantages) > 6


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_every_entry_point_gives_the_same_scores_reasons_failures_and_advantages(entry, reference, config_path, tmp_path):
    scores, reasons, failures, advantages = ENTRY_POINTS[entry](make_rows(), config_path, tmp_path)
    ref_scores, ref_reasons, ref_failures, ref_advantages = reference
    np.testing.assert_array_equal(scores, ref_scores)
    if entry == "verl":  # verl carries reasons of failures only (see the module docstring)
        ref_reasons = {n: [r if np.isnan(ref_scores[i, k]) and r.startswith("error") else "" for i, r in enumerate(v)]
                       for k, (n, v) in enumerate(ref_reasons.items())}
    assert _normalised(reasons) == _normalised(ref_reasons)
    assert failures == ref_failures
    np.testing.assert_allclose(advantages, ref_advantages, rtol=0, atol=1e-12)


FAILING = """
columns: {{prompt: prompt, completion: completion, group: qid}}
rewards:
  - {{name: has_yes, type: "toy_rewards:ContainsWord", word: "yes"}}
  - {{name: bad, type: "toy_rewards:Raises", error: {error}}}
combiner: grpo
on_reward_error: {policy}
"""


@pytest.mark.parametrize("policy", ["nan", "raise"])
@pytest.mark.parametrize("error", ["KeyError", "TypeError", "ValueError", "RecursionError", "MemoryError"])
def test_a_raising_reward_is_handled_the_same_at_every_entry_point(error, policy, tmp_path):
    config_path = tmp_path / "cfg.yaml"
    config_path.write_text(FAILING.format(error=error, policy=policy))
    rows = make_rows()
    if policy == "raise":
        for name, entry in ENTRY_POINTS.items():
            with pytest.raises(RewardError, match=f"failed on|{error}") as caught:
                entry(rows, config_path, tmp_path)
            assert "bad" in str(caught.value) and error in str(caught.value), name
        return
    results = {name: entry(rows, config_path, tmp_path) for name, entry in ENTRY_POINTS.items()}
    scores, reasons, failures, advantages = results["score_batch"]
    assert failures == {"has_yes": 0, "bad": 3}
    assert [r for r in reasons["bad"] if r] == [f"error: {error}: " + ("'bad rollout'" if error == "KeyError" else "bad rollout")] * 3
    for name, (s, r, f, a) in results.items():
        np.testing.assert_array_equal(s, scores, err_msg=name)
        assert f == failures, name
        assert _normalised(r)["bad"] == _normalised(reasons)["bad"], name
        np.testing.assert_allclose(a, advantages, rtol=0, atol=1e-12, err_msg=name)
