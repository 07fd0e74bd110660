"""The worker pool's start: not imported with the engine, started in the background at a batch's first pair that
needs it (``Engine.start_soon``), with the same verdicts as a pool started on its first map."""

from __future__ import annotations

import subprocess
import sys
import time

from polyreward.engine import Engine, WorkerPool
from polyreward.verifiers.math import verify_batch


def test_importing_the_engine_and_the_math_reward_imports_no_multiprocessing():
    code = ("import sys, polyreward.engine, polyreward.rewards.math_accuracy; "
            "print(sorted(m for m in sys.modules if m.startswith('multiprocessing')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_start_soon_returns_at_once_and_the_workers_come_up_in_the_background():
    engine = Engine(workers=1, timeout=30.0, pool=WorkerPool(workers=1))
    try:
        engine.start_soon()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(w.process.is_alive() for w in list(engine.pool._pool)):
            time.sleep(0.05)
        assert any(w.process.is_alive() for w in engine.pool._pool)
    finally:
        engine.pool.close()
    assert engine.pool._pool == []


def test_a_pool_started_early_gives_the_verdicts_of_one_started_on_its_first_map():
    # pairs the cheap paths cannot decide (sympy in the pool) mixed with ones they can, first undecided in the middle
    preds = ["The answer is $42$.", r"The answer is $\frac{\sqrt{8}}{2}$.", "The answer is $7$.",
             r"The answer is $\sin(\pi/6)$.", "no answer here", r"The answer is $2\sqrt{2}$."]
    refs = ["42", r"\sqrt{2}", "8", r"\frac{1}{2}", "3", r"\sqrt{8}"]
    inline = verify_batch(preds, refs, pool=None)
    for make in (lambda: WorkerPool(workers=1), lambda: Engine(workers=1, timeout=30.0, pool=WorkerPool(workers=1))):
        pool = make()
        try:
            assert [repr(v) for v in verify_batch(preds, refs, pool=pool)] == [repr(v) for v in inline]
        finally:
            (pool.pool if isinstance(pool, Engine) else pool).close()
