"""``import polyreward`` and the quick commands stay light: neither pandas nor torch is imported (checked in a fresh
interpreter's ``sys.modules``), and the import's CPU time is measured there. The comparison with ``math_verify`` and
``trl.rewards`` is ``benchmarks/import_time.py`` (results in benchmarks/results/import_time.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from reader_probes import PARSE_COUNTER

HEAVY = ("pandas", "torch", "transformers", "trl", "verl", "ray", "pyarrow")

IMPORT = """
import json, sys, time
started = time.process_time()
import polyreward
cpu = time.process_time() - started
from polyreward import Batch, Config, Scorer, load_scorer  # the public names need nothing heavy either
print(json.dumps({"cpu": cpu, "heavy": [m for m in HEAVY if m in sys.modules]}))
"""

COMMAND = """
import json, sys
from polyreward.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "heavy": [m for m in HEAVY if m in sys.modules]}), file=sys.stderr)
"""


def _run(code: str, *args: str, tmp_path) -> dict:
    done = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{code}", *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    return json.loads((done.stdout if "cpu" in done.stdout else done.stderr).strip().splitlines()[-1])


def test_import_polyreward_loads_no_pandas_no_torch(tmp_path):
    result = _run(IMPORT, tmp_path=tmp_path)
    assert result["heavy"] == []
    assert result["cpu"] < 2.0  # a guard against an import that pulls a framework in; the figure is the benchmark's


@pytest.mark.parametrize("argv, code", [
    (["--version"], 0),
    (["list"], 0),
    (["verify", "--gold", "1/2", "--pred", "0.5"], 0),
    (["score", "missing.jsonl", "-c", "missing.yaml", "-o", "out.jsonl"], 2),  # an error found before any work
])
def test_quick_commands_load_no_pandas_no_torch(argv, code, tmp_path):
    result = _run(COMMAND, *argv, tmp_path=tmp_path)
    assert result == {"code": code, "heavy": []}


def test_score_dataset_is_still_there_on_first_use():
    import polyreward

    assert callable(polyreward.score_dataset) and polyreward.score_dataset.__module__ == "polyreward.runners.datasets_io"



@pytest.mark.parametrize("command, preset, expected", [
    ("score", None, "1"),            # a scoring command: numpy's OpenBLAS starts no busy threads
    ("verify", None, "1"),
    ("score", "4", "4"),             # the user's own setting wins
    ("train", None, None),           # a model's command keeps the library's default
    ("serve-judge", None, None),
])
def test_blas_threads_are_off_for_scoring_commands_only(command, preset, expected, monkeypatch):
    """The command line sets OPENBLAS_NUM_THREADS=1 before numpy is imported (about 70 ms of CPU at start-up on 2 cores),
    unless the user set it, and never for the commands that run a model."""
    from polyreward import cli

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    if preset is not None:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", preset)
    seen = {}

    class Stop(Exception):
        pass

    def stop_at_parse(command):
        seen["value"] = os.environ.get("OPENBLAS_NUM_THREADS")
        raise Stop

    monkeypatch.setattr(cli, "build_parser", stop_at_parse)
    with pytest.raises(Stop):
        cli.main([command, "--help"])
    assert seen["value"] == expected


SCORE_COUNTING_PARSES = PARSE_COUNTER + """from polyreward.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
DEFERRED = ("sympy", "math_verify", "multiprocessing", "concurrent.futures", "polyreward.rewards.math_judge", "polyreward.rubrics")
print(json.dumps({"code": code, "parses": len(parses), "heavy": [m for m in HEAVY if m in sys.modules],
                  "deferred": [m for m in DEFERRED if m in sys.modules]}), file=sys.stderr)
"""


def test_a_second_math_score_run_compiles_no_reader_pattern(tmp_path):
    """Start-up: a numeric math run imports neither sympy nor the pool's machinery (``multiprocessing``,
    ``concurrent.futures``) nor the judge fallback's (``math_judge``, the rubrics); the math reader's ~300 regular expressions (and the prefilter's word sets) come from the pattern
    store (``verifiers/pattern_cache.py``) written beside the bytecode by the first run; the second run parses none
    of them (about 150 ms of a one-row run on the benchmark machine; docs/benchmarks.md, Start-up)."""
    (tmp_path / "rows.jsonl").write_text(json.dumps({"prompt": "1+1?", "completion": "The answer is \\boxed{2}", "answer": "2"}) + "\n")
    (tmp_path / "math.yaml").write_text("rewards:\n  - {name: accuracy, type: math_accuracy, answer_column: answer}\n")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{SCORE_COUNTING_PARSES}", "score", "rows.jsonl", "-c",
                               "math.yaml", "-o", "out.jsonl", "-q"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
        runs.append(json.loads(done.stderr.strip().splitlines()[-1]))
        assert json.loads((tmp_path / "out.jsonl").read_text())["accuracy"] == 1.0
    assert runs[0]["code"] == runs[1]["code"] == 0 and runs[0]["heavy"] == runs[1]["heavy"] == []
    assert runs[0]["parses"] > 200 and runs[1]["parses"] == 0
    assert runs[0]["deferred"] == runs[1]["deferred"] == []
