"""Trackers behind ``report_to``: what each one wrote is read back from its real files.

TensorBoard event files through TensorBoard's own ``EventAccumulator``; wandb's offline run folder (the run file
holds the metric keys, the table is its JSON file); trackio's local SQLite database; jsonl as JSON lines. For
``polyreward score --report-to`` and the bundled trainer's ``train.report_to``.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3

import pytest
import yaml

from polyreward.runners.trackers import markdown_table, open_trackers
from test_cli_score import CONFIG, ENV, polyreward, rollouts

tensorboard = pytest.importorskip("tensorboard")

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


def _events(logdir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    accumulator = EventAccumulator(str(logdir), size_guidance={"tensors": 0, "scalars": 0})
    accumulator.Reload()
    return accumulator


def _text(accumulator, tag):
    return [(e.step, e.tensor_proto.string_val[0].decode()) for e in accumulator.Tensors(tag)]


def test_tensorboard_and_jsonl_hold_every_step_and_the_table(tmp_path):
    with open_trackers(["jsonl", "tensorboard"], tmp_path) as trackers:
        trackers.log({"reward": 0.25, "reward/acc/mean": math.nan, "rows": 3}, step=1)
        trackers.log({"reward": 1 / 3}, step=2)
        trackers.log_table("completions", ["prompt", "completion", "acc"], [["a|b", "line1\nline2", 1.0], ["c", "d", None]], step=2)
    events = _events(tmp_path / "tensorboard")
    assert [(e.step, e.value) for e in events.Scalars("reward")] == [(1, 0.25), (2, pytest.approx(1 / 3, rel=1e-6))]
    assert "reward/acc/mean" not in events.Tags()["scalars"]  # NaN is not a point of the curve
    assert _text(events, "completions") == [(2, markdown_table(["prompt", "completion", "acc"], [["a|b", "line1\nline2", 1.0], ["c", "d", None]]))]
    assert "| a\\|b | line1<br>line2 | 1 |" in _text(events, "completions")[0][1]
    lines = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert lines == [{"step": 1, "reward": 0.25, "reward/acc/mean": None, "rows": 3}, {"step": 2, "reward": 1 / 3}]
    table = [json.loads(line) for line in (tmp_path / "completions.jsonl").read_text().splitlines()]
    assert table[1] == {"step": 2, "prompt": "c", "completion": "d", "acc": None}


def test_unknown_or_missing_trackers_are_named_before_anything_starts(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match=r"report_to: unknown tracker\(s\) \['mlflow'\]; allowed: jsonl, tensorboard, wandb, trackio"):
        open_trackers(["jsonl", "mlflow"], tmp_path / "run")
    assert not (tmp_path / "run").exists()
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wandb" else real(name, *a))
    with pytest.raises(ImportError, match="report_to needs wandb: pip install wandb"):
        open_trackers(["tensorboard", "wandb"], tmp_path / "run")
    assert not (tmp_path / "run").exists()


@pytest.fixture()
def scored_setup(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG + "combiner: gdpo\n")
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rollouts(40)))
    return tmp_path, cfg, src


def test_score_report_to_every_tracker(scored_setup):
    tmp, cfg, src = scored_setup
    env = {**ENV, "WANDB_MODE": "offline", "TRACKIO_DIR": str(tmp / "trackio"), "WANDB_SILENT": "true"}
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "-c", str(cfg), "-o", str(tmp / "out.jsonl"), "-q",
                             "--report-to", "jsonl,tensorboard,wandb,trackio", "--report-dir", str(tmp / "run")],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert f"summary logged to jsonl, tensorboard, wandb, trackio in {tmp / 'run'}" in result.stderr

    (row,) = [json.loads(line) for line in (tmp / "run" / "metrics.jsonl").read_text().splitlines()]
    assert row["rows"] == 40 and row["reward/has_yes/nan_share"] == pytest.approx(5 / 40)  # the 5 rows with skip
    assert row["reward/has_yes/applicable"] == pytest.approx(35 / 40) and row["reward/exact/errors"] == 0.0
    assert row["time/reward/has_yes"] > 0 and row["time/reward/exact"] > 0
    assert set(row) >= {"advantage/mean", "advantage/std", "advantage/collapsed_group_fraction", "advantage/share/exact"}
    out_rows = [json.loads(line) for line in (tmp / "out.jsonl").read_text().splitlines()]
    assert row["reward/exact/mean"] == pytest.approx(sum(r["exact"] for r in out_rows) / 40)
    table = [json.loads(line) for line in (tmp / "run" / "completions.jsonl").read_text().splitlines()]
    assert len(table) == 8 and table[1]["has_yes_reason"] == "no 'yes'" and table[1]["advantage"] == pytest.approx(out_rows[1]["advantage"])

    events = _events(tmp / "run" / "tensorboard")
    assert events.Scalars("reward/exact/mean")[0].value == pytest.approx(row["reward/exact/mean"], rel=1e-6)
    assert "time/reward/has_yes" in events.Tags()["scalars"] and "no 'yes'" in _text(events, "completions")[0][1]

    (run_folder,) = (tmp / "run" / "wandb").glob("offline-run-*")
    (run_file,) = run_folder.glob("run-*.wandb")
    data = run_file.read_bytes()
    assert b"time/reward/has_yes" in data and b"advantage/collapsed_group_fraction" in data
    (table_file,) = (run_folder / "files" / "media" / "table").glob("completions_*.table.json")
    wandb_table = json.loads(table_file.read_text())
    assert wandb_table["columns"][:4] == ["prompt", "completion", "has_yes", "has_yes_reason"] and len(wandb_table["data"]) == 8

    with sqlite3.connect(tmp / "trackio" / "polyreward.db") as db:
        logged = [(run, step, json.loads(metrics)) for run, step, metrics in db.execute("select run_name, step, metrics from metrics")]
    scalars = next(m for _, _, m in logged if "reward" in m)
    assert {run for run, _, _ in logged} == {"out"} and scalars["reward/exact/mean"] == pytest.approx(row["reward/exact/mean"])
    assert any("completions" in m for _, _, m in logged)


def test_score_refuses_an_unknown_tracker_before_scoring(scored_setup):
    tmp, cfg, src = scored_setup
    result = polyreward("score", src, "-c", cfg, "-o", tmp / "out.jsonl", "--report-to", "jsonl,mlflow", check=False)
    assert result.returncode == 2 and "--report-to: unknown tracker(s) ['mlflow']" in result.stderr
    assert not (tmp / "out.jsonl").exists()


def test_trainer_report_to_tensorboard_and_wandb(tiny_qwen2_dir, tmp_path, monkeypatch):
    from test_trainer import _config

    from polyreward.trainer.loop import train

    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"prompt": f"What is {i} + {i}?", "answer": str(2 * i)}) + "\n" for i in range(4)))
    config = _config(tiny_qwen2_dir, prompts, tmp_path / "run")
    config["train"].update(max_steps=2, num_generations=2, prompts_per_step=2, max_new_tokens=3, report_to=["tensorboard", "wandb"],
                           run_name="tiny", log_completions=3)
    path = tmp_path / "train.yaml"
    path.write_text(yaml.safe_dump(config))
    result = train(path, progress=False)
    names = [r["name"] for r in config["rewards"]]

    events = _events(tmp_path / "run" / "tensorboard")
    assert [e.step for e in events.Scalars("reward")] == [1, 2]
    assert [e.value for e in events.Scalars("loss")] == pytest.approx([m["loss"] for m in result.metrics], rel=1e-5)
    assert all(f"time/reward/{name}" in events.Tags()["scalars"] for name in names)
    steps_and_tables = _text(events, "completions")
    assert [step for step, _ in steps_and_tables] == [1, 2] and steps_and_tables[0][1].count("\n") == 1 + 3
    assert (tmp_path / "run" / "metrics.jsonl").read_text().count("\n") == 2  # always written
    assert (tmp_path / "run" / "completions.jsonl").read_text().count("\n") == 6
    (run_folder,) = (tmp_path / "run" / "wandb").glob("offline-run-*")
    assert b"tokens_per_second" in next(run_folder.glob("run-*.wandb")).read_bytes()
    assert os.environ["WANDB_MODE"] == "offline"


def test_trainer_refuses_a_tracker_that_is_not_installed_before_the_model_loads(tmp_path, monkeypatch):
    import importlib.util

    from polyreward.config import ConfigError
    from polyreward.trainer.loop import train

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "trackio" else real(name, *a))
    config = {"rewards": [{"name": "f", "type": "think_format"}],
              "train": {"model": "no-such-model-folder", "dataset": {"path": "none.jsonl"}, "report_to": ["trackio"],
                        "output_dir": str(tmp_path / "o")}}
    with pytest.raises(ConfigError, match="train.report_to needs trackio: pip install trackio"):
        train(config, progress=False)
