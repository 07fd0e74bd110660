"""Reward-hacking detectors on synthetic metrics streams (polyreward.runners.hacking), and their place in
``polyreward report`` and the trainer's end-of-run warnings."""

from __future__ import annotations

import json

import pytest

from polyreward.runners.hacking import hacking_signals, reward_roles, signals_html, warn_hacking_signals


def stream(steps: int = 12, **curves) -> list[dict]:
    """Rows ``{"step": s, key: curve(s)}``; each keyword is a metric name (``__`` for ``/``) and a function of the step."""
    return [{"step": s, **{k.replace("__", "/"): f(s) for k, f in curves.items()}} for s in range(1, steps + 1)]


def kinds(rows, **kwargs) -> dict[str, list[int]]:
    return {f"{s.kind}:{s.component}": s.steps for s in hacking_signals(rows, **kwargs)}


def test_format_rising_while_accuracy_flat():
    rows = stream(reward__accuracy__mean=lambda s: 0.30 + 0.001 * (s % 2), reward__format__mean=lambda s: min(1.0, 0.1 * s))
    found = kinds(rows)
    assert "cheap_rising_verifiable_flat:format" in found
    assert found["cheap_rising_verifiable_flat:format"] == [9, 10, 11, 12]  # the last third, where it shows


def test_healthy_run_has_no_signal():
    rows = stream(reward__accuracy__mean=lambda s: 0.05 * s, reward__format__mean=lambda s: 0.08 * s,
                  completions__mean_length=lambda s: 100 + s, advantage__share__format=lambda s: 0.2)
    assert hacking_signals(rows) == []


@pytest.mark.parametrize("curve, kind", [(lambda s: 200 / s, "length_collapse"), (lambda s: 20 * s, "length_blowup")])
def test_length_collapse_and_blowup(curve, kind):
    rows = stream(completions__mean_length=curve)
    found = kinds(rows)
    assert list(found) == [f"{kind}:completions/mean_length"]
    assert found[f"{kind}:completions/mean_length"]


def test_format_saturates_before_accuracy_moves():
    rows = stream(reward__accuracy__mean=lambda s: 0.0 if s < 9 else 0.1 * (s - 8), reward__format__mean=lambda s: min(1.0, 0.34 * s))
    found = kinds(rows)
    assert "format_saturates_first:format" in found and found["format_saturates_first:format"] == [1, 2, 3]
    assert "cheap_rising_verifiable_flat:format" not in found  # accuracy did move at the end


def test_cheap_component_dominating_the_advantage():
    rows = stream(advantage__share__format=lambda s: 0.2 if s < 7 else 0.8, advantage__share__accuracy=lambda s: 0.5)
    found = kinds(rows)
    assert found == {"cheap_dominates_advantage:format": [9, 10, 11, 12]}


def test_short_runs_and_missing_values_raise_no_signal():
    assert hacking_signals(stream(3, reward__format__mean=lambda s: s, reward__accuracy__mean=lambda s: 0.0)) == []
    rows = stream(reward__accuracy__mean=lambda s: float("nan"), reward__format__mean=lambda s: 0.1 * s)
    assert "cheap_rising_verifiable_flat:format" not in kinds(rows)  # no verifiable curve to be flat


def test_roles_by_type_or_by_name():
    assert reward_roles(["accuracy", "format", "overlong"]) == (["accuracy"], ["format", "overlong"])
    assert reward_roles(["acc", "style"], {"acc": "math_accuracy", "style": "think_format"}) == (["acc"], ["style"])


def test_signals_reach_report_html_and_trainer_warnings(capsys):
    rows = stream(reward__accuracy__mean=lambda s: 0.3, reward__format__mean=lambda s: 0.1 * s)
    assert "cheap_rising_verifiable_flat" in signals_html(rows)
    assert "no reward-hacking signature" in signals_html(stream(reward__accuracy__mean=lambda s: 0.05 * s))
    assert [s.kind for s in warn_hacking_signals(rows)] == ["cheap_rising_verifiable_flat"]
    assert "warning: reward-hacking signal cheap_rising_verifiable_flat (format)" in capsys.readouterr().err


def test_report_page_lists_the_signals(tmp_path):
    pytest.importorskip("matplotlib")
    from polyreward.cli.report import build_report

    metrics = tmp_path / "metrics.jsonl"
    rows = stream(reward__accuracy__mean=lambda s: 0.3, reward__format__mean=lambda s: 0.1 * s, loss=lambda s: 1.0 / s)
    metrics.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    page = build_report(metrics, tmp_path / "out")
    text = page.read_text()
    assert "reward-hacking signals" in text and "cheap_rising_verifiable_flat" in text
