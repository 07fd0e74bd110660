"""``polyreward score`` with rewards that need no worker pool imports no pool, no progress bar it does not show and
nothing heavy: the start-up a one-row run pays is ``import polyreward`` and the config's rewards (the CPU figures
are ``benchmarks/scoring_floor.py``'s, in benchmarks/results/scoring_floor.md)."""

from __future__ import annotations

import json
import subprocess
import sys

LOADED = """
import json, sys
from polyreward.cli import main
code = main(sys.argv[1:])
names = ("polyreward.engine", "multiprocessing.forkserver", "rich.progress", "polyreward.runners.trackers", "pandas",
         "sympy", "torch", "transformers", "pyarrow")
print(json.dumps({"code": code, "loaded": [m for m in names if m in sys.modules]}))
"""


def score_in_fresh_interpreter(tmp_path, config: str, *extra: str) -> dict:
    (tmp_path / "in.jsonl").write_text(json.dumps({"prompt": "p", "completion": "<think>a b c</think> 4", "answer": "4",
                                                   "qid": 1}) + "\n", encoding="utf-8")
    (tmp_path / "cfg.yaml").write_text(config, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LOADED, "score", "in.jsonl", "-c", "cfg.yaml", "-o", "out.jsonl", *extra],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_cheap_reward_starts_no_pool_and_imports_nothing_heavy(tmp_path):
    run = score_in_fresh_interpreter(tmp_path, "rewards:\n  - {name: format, type: think_format}\n", "-q")
    assert run == {"code": 0, "loaded": []}
    assert json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))["format"] == 1.0


def test_a_pooled_reward_still_gets_its_pool_and_a_run_without_quiet_still_scores(tmp_path):
    run = score_in_fresh_interpreter(tmp_path, "rewards:\n  - {name: acc, type: math_accuracy, answer_column: answer}\n")
    assert run["code"] == 0 and "polyreward.engine" in run["loaded"]  # built with the reward, started on first use
    assert "rich.progress" not in run["loaded"]  # stderr is a pipe here: no bar to show
    assert json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))["acc"] == 1.0
