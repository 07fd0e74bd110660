"""Workers never re-run the caller's main module: a script without an ``if __name__ == "__main__":``
guard, or one fed on standard input, scores with the worker pool instead of recursing or dying.

Before the fix, the standard forkserver child imported ``__main__`` again
(CPython ``Lib/multiprocessing/spawn.py``: ``prepare`` -> ``_fixup_main_from_path``), the script
scored again inside the worker, and the pool gave up with "worker processes die on start-up".
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# the examples (a gold list, radicals) are now decided without sympy; these three need the pool
SCRIPT = textwrap.dedent(
    r"""
    import os
    from polyreward.rewards.math_accuracy import MathAccuracy

    print("main ran in", os.getpid(), flush=True)
    reward = MathAccuracy()
    output = reward.evaluate([None] * 3, ["\\boxed{\\sqrt{3}+\\sqrt{2}}", "\\boxed{2\\sin(x)\\cos(x)}", "\\boxed{\\sin(x)}"],
                             answer=[["1/2", "\\sqrt{2}+\\sqrt{3}"], "\\sin(2x)", "\\sin(2x)"])
    print(output.scores)
    print("rules", sorted({reason.split("[", 1)[1].split("]", 1)[0] for reason in output.reasons}))
    print("pool", reward.engine.pool.workers, "workers, restarts", reward.engine.pool.restarts)
    """
)

DEFINED_IN_MAIN = textwrap.dedent(
    """
    from polyreward.engine import WorkerPool

    def double(x):
        return 2 * x

    with WorkerPool(workers=1, timeout=20.0) as pool:
        print(pool.map(double, [(21,)])[0].error)
    """
)


def _run(script: str, tmp_path: Path, stdin: bool) -> subprocess.CompletedProcess:
    env = {**os.environ, "POLYREWARD_WORKERS": "2", "PYTHONPATH": str(ROOT)}
    if stdin:
        return subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    path = tmp_path / "unguarded.py"
    path.write_text(script, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)


@pytest.mark.parametrize("stdin", [False, True], ids=["script_file", "stdin"])
def test_an_unguarded_script_scores_with_the_pool(tmp_path, stdin):
    done = _run(SCRIPT, tmp_path, stdin)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert sum(line.startswith("main ran in") for line in lines) == 1  # no worker re-ran the script
    assert "[1.0, 1.0, 0.0]" in lines
    assert "rules ['math_verify', 'numeric_probe']" in lines  # decided in the workers
    assert "pool 2 workers, restarts 0" in lines


def test_a_function_defined_in_main_is_a_clear_error(tmp_path):
    done = _run(DEFINED_IN_MAIN, tmp_path, stdin=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "must be defined in an importable module, not in __main__" in done.stdout


IN_A_POOL_WORKER = textwrap.dedent(
    r"""
    import multiprocessing as mp

    from polyreward.rewards.math_accuracy import MathAccuracy

    def score(_):
        output = MathAccuracy().evaluate([None] * 2, ["\\boxed{2\\sin(x)\\cos(x)}", "\\boxed{\\sin(x)}"], answer=["\\sin(2x)"] * 2)
        return output.scores

    if __name__ == "__main__":
        with mp.get_context("fork").Pool(1) as workers:  # daemonic, like datasets.map(num_proc=...)'s workers
            print(workers.map(score, [0])[0])
    """
)


def test_a_daemonic_pool_worker_scores_with_the_pool(tmp_path):
    """A ``multiprocessing.Pool`` worker is daemonic, and ``Process.start`` refuses children of one ("daemonic
    processes are not allowed to have children", CPython ``Lib/multiprocessing/process.py``); every rollout
    was NaN. The engine's workers exit when their parent's pipe closes, so they are started anyway."""
    done = _run(IN_A_POOL_WORKER, tmp_path, stdin=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "[1.0, 0.0]" in done.stdout.splitlines(), done.stdout[-2000:]


@pytest.mark.parametrize("how", ["python_c", "exec_like_a_notebook", "runpy"])
def test_code_run_without_a_script_file_scores_with_the_pool(tmp_path, how):
    """``python -c``, a notebook-like ``exec`` of a cell in ``__main__`` and ``runpy.run_path``: none has a main
    module a worker could (or should) re-run."""
    env = {**os.environ, "POLYREWARD_WORKERS": "2", "PYTHONPATH": str(ROOT)}
    (tmp_path / "cell.py").write_text(SCRIPT, encoding="utf-8")
    launcher = {
        "python_c": ["-c", SCRIPT],
        "exec_like_a_notebook": ["-c", "exec(compile(open('cell.py').read(), '<cell>', 'exec'), {'__name__': '__main__'})"],
        "runpy": ["-c", "import runpy; runpy.run_path('cell.py', run_name='__main__')"],
    }[how]
    done = subprocess.run([sys.executable, *launcher], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert sum(line.startswith("main ran in") for line in lines) == 1
    assert "[1.0, 1.0, 0.0]" in lines
    assert "pool 2 workers, restarts 0" in lines


FORKED_AFTER_USE = textwrap.dedent(
    r"""
    import multiprocessing as mp
    import os

    from polyreward.rewards.math_accuracy import MathAccuracy

    REWARD = MathAccuracy()

    def score(_):
        output = REWARD.evaluate([None] * 2, ["\\boxed{2\\sin(x)\\cos(x)}", "\\boxed{\\sin(x)}"], answer=["\\sin(2x)"] * 2)
        return output.scores

    if __name__ == "__main__":
        print("parent", score(0), REWARD.engine.pool.restarts, flush=True)  # the parent's workers run first
        with mp.get_context("fork").Pool(2) as workers:
            print("children", workers.map(score, range(4)))
        print("parent again", score(0))
    """
)


def test_a_reward_used_before_a_fork_scores_in_the_forked_children(tmp_path):
    """A reward whose pool started in the parent, then forked into workers (a DataLoader or ``datasets.map``
    with fork): each child drops the parent's workers and forkserver and starts its own. Before, every
    child rollout was NaN ("can only test a child process") and children could have read the parent's pipes."""
    done = _run(FORKED_AFTER_USE, tmp_path, stdin=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert "parent [1.0, 0.0] 0" in lines
    assert "children [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]" in lines
    assert "parent again [1.0, 0.0]" in lines
