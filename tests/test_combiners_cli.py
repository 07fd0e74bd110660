"""`polyreward advantages`, `polyreward report`, add_advantages (used by `polyreward score`) and diagnostics."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pandas as pd
import pytest

from polyreward.cli import main
from polyreward.combiners import GDPOCombiner, add_advantages, diagnose
from polyreward.config import ConfigError, parse_config

ROWS = [
    {"prompt_id": pid, "prompt": f"q{pid}", "completion": f"c{i}", "accuracy": acc, "format": fmt}
    for pid, block in (("p1", [(1, 1), (0, 1), (0, 0), (1, 0)]), ("p2", [(0, 1), (0, None), (0, 1), (1, 1)]))
    for i, (acc, fmt) in enumerate(block)
]


@pytest.fixture
def rollouts(tmp_path):
    path = tmp_path / "rollouts.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return path


def expected_gdpo(weights=None):
    scores = np.array([[r["accuracy"], np.nan if r["format"] is None else r["format"]] for r in ROWS], dtype=float)
    return GDPOCombiner().combine(scores, [r["prompt_id"] for r in ROWS], weights)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_advantages_cli_writes_every_format(rollouts, tmp_path, capsys, suffix):
    out = tmp_path / f"out{suffix}"
    assert main(["advantages", str(rollouts), "--combiner", "gdpo", "--rewards", "accuracy,format", "-o", str(out)]) == 0
    frame = {"jsonl": lambda p: pd.read_json(p, lines=True), "csv": pd.read_csv, "parquet": pd.read_parquet}[suffix[1:]](out)
    assert list(frame.columns) == ["prompt_id", "prompt", "completion", "accuracy", "format", "advantage"]
    np.testing.assert_allclose(frame["advantage"], expected_gdpo(), atol=1e-9)
    printed = capsys.readouterr().out
    assert "collapsed_group_fraction" in printed and "share/accuracy" in printed and "sign_flip_rate/format" in printed


def test_advantages_cli_weights_group_column_params_and_default_columns(rollouts, tmp_path):
    out = tmp_path / "out.jsonl"
    assert main(["advantages", str(rollouts), "--weights", "1,0.5", "--group-col", "prompt", "-o", str(out)]) == 0
    np.testing.assert_allclose(pd.read_json(out, lines=True)["advantage"], expected_gdpo([1, 0.5]), atol=1e-9)
    assert main(["advantages", str(rollouts), "--combiner", "gdpo", "--param", "variant=nvlabs", "-o", str(out)]) == 0
    scores = np.array([[r["accuracy"], r["format"] or 0] for r in ROWS], dtype=float)
    np.testing.assert_allclose(pd.read_json(out, lines=True)["advantage"], GDPOCombiner("nvlabs").combine(scores, [r["prompt_id"] for r in ROWS]), atol=1e-9)


def test_advantages_cli_uses_the_config(rollouts, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text(
        "rewards:\n  - {name: accuracy, type: think_format, weight: 2.0}\n  - {name: format, type: think_format, weight: 1.0}\n"
        "combiner: {type: grpo, scale: none}\n"
    )
    out = tmp_path / "out.csv"
    assert main(["advantages", str(rollouts), "--config", str(config), "-o", str(out)]) == 0
    totals = np.array([2 * r["accuracy"] + (r["format"] or 0) for r in ROWS], dtype=float)
    expected = totals - np.repeat([totals[:4].mean(), totals[4:].mean()], 4)
    np.testing.assert_allclose(pd.read_csv(out)["advantage"], expected, atol=1e-12)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--weights", "1,2,3", "--rewards", "accuracy,format"], "--weights has 3 value"),
        (["--rewards", "accuracy,missing"], r"reward column\(s\) \['missing'\] not in the data"),
        (["--group-col", "nope"], "group column 'nope' not in the data"),
        (["--combiner", "nope"], "unknown combiner type 'nope'"),
        (["--combiner", "gdpo", "--param", "variant=x"], "variant must be one of"),
        (["--rewards", "prompt"], "reward column 'prompt' is not numeric"),
    ],
)
def test_advantages_cli_errors_are_clear(rollouts, tmp_path, capsys, args, message):
    assert main(["advantages", str(rollouts), "-o", str(tmp_path / "o.jsonl"), *args]) == 2
    assert re.search(message, capsys.readouterr().err)
    assert not (tmp_path / "o.jsonl").exists()


def test_add_advantages_parses_csv_text_and_keeps_row_order():
    frame = pd.DataFrame(ROWS).astype(str).replace({"None": ""})  # what `polyreward score` reads back from CSV
    result = add_advantages(frame, ["accuracy", "format"], np.array([1.0, 1.0]), "prompt_id", GDPOCombiner())
    np.testing.assert_allclose(result["advantage"], expected_gdpo(), atol=1e-9)
    assert "advantage" not in frame.columns
    shuffled = pd.DataFrame(ROWS).sample(frac=1.0, random_state=0)
    again = add_advantages(shuffled, ["accuracy", "format"], None, "prompt_id", "gdpo")
    np.testing.assert_allclose(again["advantage"].to_numpy(), expected_gdpo()[shuffled.index.to_numpy()], atol=1e-9)


def test_config_names_a_combiner_for_score():
    config = parse_config({"rewards": [{"name": "fmt", "type": "think_format"}], "combiner": {"type": "gdpo", "variant": "verl"}})
    combiner = config.build_combiner()
    assert isinstance(combiner, GDPOCombiner) and combiner.eps == 1e-6 and combiner.batch_norm == "whiten"
    with pytest.raises(ConfigError, match="unknown key"):
        parse_config({"rewards": [{"name": "fmt", "type": "think_format"}], "combiner": {"type": "gdpo", "epsilon": 1}})


def test_diagnostics_table_and_summary():
    scores = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 1], [1, 1], [np.nan, np.nan], [0, 1]], dtype=float)
    groups = ["a"] * 4 + ["b"] * 4
    report = diagnose(scores, groups, np.array([0, 0, 1, -1, 0, 0, 0, 0.0]), names=["x", "y"])
    table = report.groups.set_index("group")
    assert table.loc["a", "profiles"] == 4 and table.loc["a", "advantage_values"] == 3 and table.loc["a", "collapsed"]
    assert table.loc["b", "scored"] == 3 and table.loc["b", "zero_signal"]
    assert report.summary["zero_signal_fraction"] == 0.5
    assert report.summary["share/x"] == pytest.approx(0.5) and report.summary["share/y"] == pytest.approx(0.5)


def test_report_for_rollouts_embeds_every_png(rollouts, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["report", str(rollouts), "-o", str(out), "--rewards", "accuracy,format", "--combiners", "grpo,gdpo,dvao"]) == 0
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert pngs == ["advantages.png", "collapse.png", "rewards.png"]
    page = (out / "report.html").read_text()
    embedded = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(embedded) == 3 and all(base64.b64decode(e).startswith(b"\x89PNG") for e in embedded)
    assert "collapsed_group_fraction" in page and "<th>dvao</th>" in page
    assert "wrote" in capsys.readouterr().out


def test_report_for_trainer_metrics(tmp_path):
    metrics = tmp_path / "metrics.jsonl"
    metrics.write_text("".join(json.dumps({"step": s, "loss": 1 / (s + 1), "rewards/accuracy/mean": s / 10, "note": "x"}) + "\n" for s in range(15)))
    out = tmp_path / "curves"
    assert main(["report", str(metrics), "-o", str(out)]) == 0  # --kind auto sees the step column
    assert [p.name for p in out.glob("*.png")] == ["curves_1.png"]
    assert "training curves" in (out / "report.html").read_text()
    assert main(["report", str(metrics), "-o", str(out), "--kind", "rollouts"]) == 2


def test_report_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "r")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_report_overlays_several_training_runs(tmp_path, capsys):
    """The GDPO and the sum-then-normalise run of one recipe, side by side on the same axes."""
    import matplotlib.pyplot as plt

    from polyreward.cli import report as report_cli

    paths = []
    for name, slope in [("medqa_gdpo", 0.02), ("medqa_grpo", 0.01)]:
        (tmp_path / name).mkdir()
        path = tmp_path / name / "metrics.jsonl"
        path.write_text("".join(json.dumps({"step": s, "loss": 1 / (s + 1), "reward/accuracy/mean": slope * s, "reward": slope * s})
                                + "\n" for s in range(1, 9)))
        paths.append(str(path))
    drawn = []
    original = plt.Axes.plot
    plt.Axes.plot = lambda ax, *a, **k: drawn.append((ax.get_title(), k.get("label"))) or original(ax, *a, **k)
    try:
        assert main(["report", *paths, "-o", str(tmp_path / "cmp")]) == 0
    finally:
        plt.Axes.plot = original
    # labelled by folder name, one line per run and series; the total and the per-objective mean share one panel
    assert {label for _, label in drawn} == {f"{run} {series}" for run in ("medqa_gdpo", "medqa_grpo")
                                             for series in ("reward", "reward/accuracy/mean")} | {"medqa_gdpo", "medqa_grpo"}
    assert report_cli.metric_panels(["loss", "reward", "reward/accuracy/mean", "kl"])[0][1] == ["reward", "reward/accuracy/mean"]
    assert "polyreward report: medqa_gdpo vs medqa_grpo" in (tmp_path / "cmp" / "report.html").read_text()
    assert main(["report", *paths, "-o", str(tmp_path / "cmp2"), "--labels", "gdpo,grpo"]) == 0
    capsys.readouterr()
    assert main(["report", *paths, "-o", str(tmp_path / "cmp3"), "--labels", "only-one"]) == 2
    assert "--labels needs 2 distinct name(s)" in capsys.readouterr().err


def test_report_refuses_several_rollout_files(rollouts, tmp_path, capsys):
    assert main(["report", str(rollouts), str(rollouts), "-o", str(tmp_path / "r")]) == 2
    assert "compared only as trainer metrics" in capsys.readouterr().err
