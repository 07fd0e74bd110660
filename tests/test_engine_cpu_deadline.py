"""A busy machine slows scoring down but never changes a score: the worker pool's per-item budget is the
worker's own CPU time, so rows that need real sympy work score the same while other processes saturate
every core as on a quiet machine, and none times out.

The rows are valid and hard on purpose: ``(x+\\pi)^n`` and ``\\sqrt{2}(x+1)^n`` against their expansions written
out, which no exact fast path decides (pi and surds are not polynomial coefficients), so Math-Verify expands them
in a worker: 0.1-0.6 CPU seconds each, measured on the 2-core machine this was written on. With a wall-clock
budget the same rows time out as soon as the load leaves each worker a fraction of a core."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import sympy

from polyreward.engine import WorkerPool, process_cpu_seconds
from polyreward.verifiers.math import verify_batch

BUSY = "while True: pass"
CPU_BUDGET = 2.0  # seconds of the worker's own CPU per item; each row needs well under half of it


def expansion_rows() -> tuple[list[str], list[str]]:
    """Golds ``(x+\\pi)^n`` (n = 16..23) and ``\\sqrt{2}(x+1)^n`` (n = 12, 18), each with its expansion boxed
    as the completion (label 1 by construction)."""
    x = sympy.Symbol("x")
    shapes = [(f"(x+\\pi)^{{{n}}}", (x + sympy.pi) ** n) for n in range(16, 24)]
    shapes += [(f"\\sqrt{{2}}(x+1)^{{{n}}}", sympy.sqrt(2) * (x + 1) ** n) for n in (12, 18)]
    completions = [f"Expanding, the result is $\\boxed{{{sympy.latex(sympy.expand(value))}}}$." for _, value in shapes]
    return completions, [gold for gold, _ in shapes]


def score(completions: list[str], golds: list[str]) -> tuple[list[float], list[str], dict[str, int]]:
    with WorkerPool(workers=2, timeout=CPU_BUDGET) as pool:  # a fresh pool: no parse cache from an earlier run
        verdicts = verify_batch(completions, golds, pool=pool, timeout=CPU_BUDGET)
        return [v.score for v in verdicts], [v.reason for v in verdicts], dict(pool.stats)


@pytest.fixture
def saturated_cpus():
    """Four busy-loop processes (twice the cores of the machine this suite was written on, and at least two per
    core of this one): every core has more runnable processes than it can serve."""
    count = max(4, 2 * (os.cpu_count() or 1))
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(count)]
    try:
        yield busy
    finally:
        for process in busy:
            process.kill()
            process.wait()


def test_same_scores_on_a_saturated_machine_as_on_a_quiet_one(saturated_cpus):
    completions, golds = expansion_rows()
    for process in saturated_cpus:  # pause the load for the quiet run
        os.kill(process.pid, 19)  # SIGSTOP
    try:
        quiet_scores, quiet_reasons, quiet_stats = score(completions, golds)
    finally:
        for process in saturated_cpus:
            os.kill(process.pid, 18)  # SIGCONT
    assert quiet_scores == [1.0] * len(golds), list(zip(quiet_reasons, golds))
    assert quiet_stats["items"] == len(golds)  # every row was decided in the pool, none by a fast path
    assert quiet_stats["cpu_timeouts"] == quiet_stats["wall_timeouts"] == 0

    load_before = sum(process_cpu_seconds(p.pid) or 0.0 for p in saturated_cpus)
    busy_scores, busy_reasons, busy_stats = score(completions, golds)
    load_cpu = sum(process_cpu_seconds(p.pid) or 0.0 for p in saturated_cpus) - load_before
    assert load_cpu > 1.0  # the load really ran beside the scoring
    assert busy_scores == quiet_scores and busy_reasons == quiet_reasons
    assert busy_stats["cpu_timeouts"] == busy_stats["wall_timeouts"] == 0
