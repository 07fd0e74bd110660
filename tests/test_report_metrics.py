"""`polyreward report` on trainer metrics: few grouped panels, whole-number steps, no axis offsets, value tables.

The metrics rows are made by the trainer's own functions (reward_metrics, advantage_metrics) from
seeded random scores, plus the loss/time/memory keys the trainer writes, so the report sees the keys a
real run has.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from polyreward.cli import main
from polyreward.cli import report as report_cli

pytest.importorskip("matplotlib")
metrics_module = pytest.importorskip("polyreward.trainer.metrics")


def trainer_rows(steps: int = 5) -> list[dict]:
    rng = np.random.default_rng(0)
    names, weights = ["accuracy", "brevity"], np.array([1.0, 0.5])
    groups = np.repeat(np.arange(4), 4)
    rows = []
    for step in range(1, steps + 1):
        scores = np.column_stack([rng.integers(0, 2, 16).astype(float), -rng.random(16)])
        advantages = rng.standard_normal(16)
        row = {"step": step, "loss": 0.3 / step, "kl": 0.0, "entropy": 2.0 - 0.1 * step, "clip_ratio/low": 0.0,
               "clip_ratio/high": 0.0, "grad_norm": 3.0 + step, "learning_rate": 2e-5 * (1 - step / (steps + 1)),
               **metrics_module.reward_metrics(names, weights, scores, groups),
               **metrics_module.reward_errors(names, scores, {n: [""] * 16 for n in names})[0],
               **metrics_module.advantage_metrics(advantages, scores, groups, weights, names),
               "completions/mean_length": 20.0 - step, "completions/min_length": 3.0, "completions/max_length": 32.0,
               "completions/terminated": 0.5 + 0.1 * step, "time/step": 7.0 + step, "time/generation": 4.0,
               "time/scoring": 0.1 * step, "time/update": 3.0, "tokens_per_second": 30.0 + step,
               "peak_memory_mb": 4000.1 + 0.1 * step}  # a large value moving in the 4th digit: matplotlib's offset case
        rows.append({k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()})
    return rows


@pytest.fixture
def report(tmp_path, monkeypatch):
    path = tmp_path / "run" / "metrics.jsonl"
    path.parent.mkdir()
    rows = trainer_rows()
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    figures = []
    original = report_cli._save

    def keep(fig, directory, name):
        fig.canvas.draw()  # tick labels and offset texts exist only after a draw
        figures.append(fig)
        return original(fig, directory, name)

    monkeypatch.setattr(report_cli, "_save", keep)
    assert main(["report", str(path), "-o", str(tmp_path / "out")]) == 0
    return rows, figures, (tmp_path / "out" / "report.html").read_text()


def _used_axes(figures):
    return [ax for fig in figures for ax in fig.axes if ax.axison]


def test_metrics_are_grouped_into_few_panels(report):
    rows, figures, _ = report
    metrics = [k for k in rows[0] if k != "step" and any(r[k] is not None for r in rows)]
    axes = _used_axes(figures)
    assert len(metrics) >= 40 and len(axes) <= 15, (len(metrics), len(axes))  # was one panel per metric
    titles = [ax.get_title() for ax in axes]
    reward_panel = axes[titles.index("reward: weighted total and each objective's mean")]
    assert {line.get_label() for line in reward_panel.get_lines()} == {"reward", "reward/accuracy/mean", "reward/brevity/mean"}


def test_steps_are_whole_numbers_and_no_axis_has_an_offset(report):
    _, figures, _ = report
    for ax in _used_axes(figures):
        low, high = ax.get_xlim()
        ticks = [t for t in ax.get_xticks() if low <= t <= high]
        assert ticks and all(float(t).is_integer() for t in ticks), (ax.get_title(), ticks)
        # a multiplier such as "1e−5" is fine; an additive offset ("+4.0001e3", "1e−5+4000") is what made values unreadable
        assert not re.search(r"(?<!e)[+−]", ax.yaxis.get_offset_text().get_text()), ax.get_title()


def test_flat_metrics_are_tabled_not_drawn_and_final_values_are_listed(report):
    rows, figures, page = report
    drawn = {line.get_label() for ax in _used_axes(figures) for line in ax.get_lines()}
    assert "kl" not in drawn and "clip_ratio/low" not in drawn
    constant = page.split("constant during the run")[1]
    assert "<td style='text-align:left'>kl</td><td>0</td>" in constant
    finals = page.split("first and final values")[1].split("constant during the run")[0]
    last = rows[-1]["reward/accuracy/mean"]
    assert f"<td style='text-align:left'>reward/accuracy/mean</td>" in finals and f"{last:.4g} <small>(step 5)</small>" in finals
