"""``polyreward verify`` and ``polyreward score`` give the same verdict and reason for the same pair and config.

Each pair goes through ``polyreward verify --json`` in a fresh interpreter and through ``polyreward score`` on a
one-row file; the score and the reason must be identical (before, ``verify`` called the verifier directly and skipped
the work-avoidance guard: it said CORRECT for ``\\boxed{2 \\times 21}`` against 42, which ``score`` gives 0).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from polyreward.cli import main

ROOT = Path(__file__).resolve().parent.parent
ARITHMETIC = "Calculate 478 / 1 + -682."

# (gold, completion, prompt or None, extra verify arguments, config rewards line or None, expected score)
PAIRS = [
    ("42", "So the answer is \\boxed{42}.", None, [], None, 1.0),
    ("42", "\\boxed{2 \\times 21}", None, [], None, 0.0),  # the guard: verify used to say CORRECT
    ("42", "The answer is $\\boxed{\\text{42}}$.", None, [], None, 1.0),  # formatting is read through
    ("90", "\\angle ABC = \\boxed{90^\\circ}", None, [], None, 1.0),
    ("-204", "\\boxed{478 / 1 + -682}", ARITHMETIC, [], None, 0.0),  # the prompt's own expression
    ("-204", "478 - 682 = -204, so \\boxed{-204}", ARITHMETIC, [], None, 1.0),
    ("(3, \\infty)", "Hence \\boxed{x > 3}.", None, [], None, 1.0),
    ("\\frac{1}{3}", "\\boxed{0.\\overline{3}}", None, [], None, 1.0),
    ("", "so \\boxed{2}", None, [], None, None),  # no gold: not scored
    ("C", "The answer is (B).", None, ["--type", "choice"], None, 0.0),
    ("C", "Answer: C", None, ["--type", "choice"], None, 1.0),
    # a config's reward: its parameters (the guard off) and its column names
    ("42", "\\boxed{2 \\times 21}", None, ["--reward", "acc"], "{name: acc, type: math_accuracy, answer_column: gold, work_avoidance: false}", 1.0),
]


def _verify(gold: str, completion: str, prompt: str | None, extra: list[str], config: Path | None) -> dict:
    argv = [sys.executable, "-m", "polyreward", "verify", "--gold", gold, "--pred", completion, "--json", *extra]
    argv += ["--prompt", prompt] if prompt is not None else []
    argv += ["--config", str(config)] if config is not None else []
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode in (0, 1, 3), done.stderr
    return json.loads(done.stdout)


def _score(tmp_path: Path, gold: str, completion: str, prompt: str | None, extra: list[str], config_line: str | None) -> tuple[float | None, str]:
    name, column = "verify", "answer"
    if config_line is not None:
        name, column = "acc", "gold"
        config_text = f"rewards:\n  - {config_line}\n"
    else:
        kind = "choice_accuracy" if "choice" in extra else "math_accuracy"
        config_text = f"rewards:\n  - {{name: verify, type: {kind}}}\n"
    config = tmp_path / "score.yaml"
    config.write_text(config_text)
    row = {"completion": completion, column: gold, **({"prompt": prompt} if prompt is not None else {})}
    rows = tmp_path / "one.jsonl"
    rows.write_text(json.dumps(row) + "\n")
    out = tmp_path / "scored.jsonl"
    assert main(["score", str(rows), "--config", str(config), "-o", str(out), "--quiet"]) == 0
    scored = json.loads(out.read_text().splitlines()[0])
    score = scored[name]
    return (None if score is None or (isinstance(score, float) and math.isnan(score)) else score), scored[f"{name}_reason"]


@pytest.mark.parametrize("gold, completion, prompt, extra, config_line, expected", PAIRS)
def test_verify_and_score_agree(tmp_path, gold, completion, prompt, extra, config_line, expected):
    config = None
    if config_line is not None:
        config = tmp_path / "verify.yaml"
        config.write_text(f"rewards:\n  - {config_line}\n  - {{name: fmt, type: think_format}}\n")  # --reward picks one
    verified = _verify(gold, completion, prompt, extra, config)
    score, reason = _score(tmp_path, gold, completion, prompt, extra, config_line)
    assert (verified["score"], verified["reason"]) == (score, reason)
    assert verified["score"] == expected, verified["reason"]
    assert verified["correct"] == (expected == 1.0)


def test_verify_usage_errors(capsys, tmp_path):
    config = tmp_path / "two.yaml"
    config.write_text("rewards:\n  - {name: acc, type: math_accuracy}\n  - {name: fmt, type: think_format}\n")
    assert main(["verify", "--gold", "1", "--pred", "1", "--config", str(config)]) == 2  # which reward?
    assert "--reward" in capsys.readouterr().err
    assert main(["verify", "--gold", "1", "--pred", "1", "--config", str(config), "--reward", "fmt"]) == 2  # no gold to compare
    assert "answer_column" in capsys.readouterr().err
    assert main(["verify", "--gold", "1", "--pred", "1", "--reward", "acc"]) == 2  # --reward without --config
    assert main(["verify", "--gold", "1", "--pred", "1", "--config", str(tmp_path / "missing.yaml")]) == 2
