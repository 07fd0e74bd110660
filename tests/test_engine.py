"""The worker pool: ordering, dedup, errors as data, hard timeouts with kill + respawn, crashes,
memory limits, inline mode, pickling and the shared pool."""

from __future__ import annotations

import os
import pickle
import threading
import time

import pytest

from polyreward.engine import Outcome, WorkerPool, shared_pool


def square(x):
    return x * x


def token(_):
    return os.urandom(8).hex()


def sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def fail(message):
    raise ValueError(message)


def crash(code):
    os._exit(code)


def allocate(megabytes):
    return len(bytearray(megabytes * 1024 * 1024))


def pid(_):
    return os.getpid()


def spin(cpu_seconds, value):
    """Burn ``cpu_seconds`` of this process's own CPU time (not wall time: the machine may be loaded)."""
    end = time.process_time() + cpu_seconds
    while time.process_time() < end:
        pass
    return value


def sleep_then_pid(seconds, value):
    time.sleep(seconds)
    return os.getpid(), value


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(workers=2, timeout=3.0) as p:
        yield p


def test_results_come_back_in_input_order(pool):
    outcomes = pool.map(square, [(i,) for i in range(50)])
    assert [o.value for o in outcomes] == [i * i for i in range(50)]
    assert all(o.ok and o.error == "" for o in outcomes)


def test_order_is_kept_when_items_finish_out_of_order(pool):
    items = [(0.3, "slow"), (0.0, "fast1"), (0.0, "fast2"), (0.1, "mid")]
    assert [o.value for o in pool.map(sleep_then, items)] == ["slow", "fast1", "fast2", "mid"]


def test_identical_items_run_once(pool):
    outcomes = pool.map(token, [(1,), (2,), (1,), (1,), (2,)])
    values = [o.value for o in outcomes]
    assert values[0] == values[2] == values[3] and values[1] == values[4] and values[0] != values[1]


def test_exceptions_become_error_outcomes_and_the_worker_survives(pool):
    before = pool.restarts
    outcomes = pool.map(fail, [("boom",), ("bang",)])
    assert [o.ok for o in outcomes] == [False, False]
    assert outcomes[0].error == "ValueError: boom" and outcomes[1].error == "ValueError: bang"
    assert pool.restarts == before
    assert pool.map(square, [(3,)])[0].value == 9


def test_hard_timeout_kills_respawns_and_the_batch_goes_on():
    with WorkerPool(workers=2, timeout=1.0) as pool:
        pool.map(square, [(1,), (2,)])
        outcomes = pool.map(spin, [(600, "stuck"), (0.01, "a"), (0.01, "b"), (0.01, "c")])
        assert outcomes[0] == Outcome(False, None, "timeout") and outcomes[0].timed_out
        cpu = outcomes[0].cpu_seconds  # None: the kernel's RLIMIT_CPU backstop ended it (a starved dispatcher)
        assert cpu is None or 1.0 <= cpu < 3.0  # killed on its CPU budget, not left to burn 600 s
        assert [o.value for o in outcomes[1:]] == ["a", "b", "c"]
        assert pool.restarts == 1 and pool.stats["cpu_timeouts"] == 1 and pool.stats["wall_retries"] == 0
        assert len({o.value for o in pool.map(pid, [(i,) for i in range(8)])}) <= 2
        assert pool.map(square, [(4,)])[0].value == 16


def test_per_call_timeout_overrides_the_default(pool):
    outcomes = pool.map(spin, [(600, "x")], timeout=0.5)
    cpu = outcomes[0].cpu_seconds
    assert outcomes[0].timed_out and (cpu is None or 0.5 <= cpu < 2.5)


def test_an_item_that_blocks_is_retried_once_at_the_wall_cap_then_times_out():
    """Sleeping uses no CPU: only the wall cap (wall_multiple x the budget) stops it, after one retry at the end.

    (Until stop 62 the first item a fresh worker ran paid for importing its function's module, here this test module
    with pytest, about 0.2 s of CPU; that import is now charged to no item: tests/test_engine_import_budget.py.)"""
    with WorkerPool(workers=1, timeout=1.0, wall_multiple=2.0) as pool:
        outcomes = pool.map(sleep_then, [(60, "stuck"), (0.0, "after")])
        assert outcomes[0].timed_out and outcomes[0].cpu_seconds < 1.0
        assert outcomes[1].value == "after"
        assert pool.stats == {"items": 2, "cpu_timeouts": 0, "wall_timeouts": 1, "wall_retries": 1}


def test_an_item_slowed_past_the_wall_cap_gets_its_retry_and_its_value():
    """Within its CPU budget but over the wall cap the first time (a stall), in time on the retry: the value counts."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder, WorkerPool(workers=1, timeout=0.5, wall_multiple=2.0) as pool:
        marker = os.path.join(folder, "first-try")
        outcomes = pool.map(sleep_once, [(marker, 60, "late but right")])
        assert outcomes == [Outcome(True, "late but right")]
        assert pool.stats["wall_retries"] == 1 and pool.stats["wall_timeouts"] == 0


def test_an_item_slowed_by_load_past_the_wall_cap_keeps_running_to_its_cpu_budget():
    """At load 20 on 2 cores a process gets a tenth of a core: an item that computes slowly is not cut off by the
    wall cap (which is for items that block); it ends with its value, or at its CPU budget."""
    import subprocess
    import sys

    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3 * (os.cpu_count() or 1))]
    try:
        with WorkerPool(workers=1, timeout=1.0, wall_multiple=1.0) as pool:
            # 0.6 CPU s on a share of a core takes longer than the 1 s wall cap, and is still computing
            outcomes = pool.map(spin, [(0.6, "slow but done"), (600, "runaway")])
            assert outcomes[0] == Outcome(True, "slow but done")
            assert outcomes[1].timed_out and pool.stats["wall_timeouts"] == 0 and pool.stats["cpu_timeouts"] == 1
    finally:
        for process in busy:
            process.kill()
            process.wait()


def sleep_once(marker, seconds, value):
    """Blocks ``seconds`` the first time it runs (leaving ``marker`` behind), returns at once after that."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        time.sleep(seconds)
    return value


def test_the_kernel_cpu_limit_backstop_is_reported_as_a_timeout(monkeypatch):
    """RLIMIT_CPU, armed by the worker one second past its budget, ends it with SIGXCPU even when the dispatcher
    never kills it (its checks switched off here): that death is a timeout, not a crash."""
    monkeypatch.setattr(WorkerPool, "_enforce_limits", lambda *args: None)
    with WorkerPool(workers=1, timeout=0.5) as pool:
        outcomes = pool.map(spin, [(600, "stuck")])
        assert outcomes == [Outcome(False, None, "timeout")]
        assert pool.stats["cpu_timeouts"] == 1 and pool.restarts == 1
        assert pool.map(spin, [(0.7, "a budget per item, not per worker")], timeout=1.0)[0].ok


def test_process_cpu_seconds_reads_a_worker_s_own_time():
    from polyreward.engine import process_cpu_seconds

    mine = process_cpu_seconds(os.getpid())
    assert mine is not None and abs(mine - sum(os.times()[:2])) < 0.05
    assert process_cpu_seconds(2**22 + 12345) is None  # no such process


def test_a_crashing_worker_fails_only_its_item(pool):
    before = pool.restarts
    outcomes = pool.map(crash, [(3,)])
    assert outcomes == [Outcome(False, None, "worker crashed")]
    assert pool.restarts == before + 1
    assert pool.map(square, [(5,)])[0].value == 25


def test_unpicklable_items_fail_alone(pool):
    lock = threading.Lock()
    outcomes = pool.map(square, [(2,), (lock,)])
    assert outcomes[0].value == 4
    assert not outcomes[1].ok and outcomes[1].error.startswith("cannot send item to worker")


def test_memory_limit_turns_a_runaway_into_an_error():
    with WorkerPool(workers=1, timeout=10.0, memory_limit_mb=600) as pool:
        outcomes = pool.map(allocate, [(4000,), (1,)])
    assert outcomes[0] == Outcome(False, None, "memory limit exceeded")
    assert outcomes[1].value == 1024 * 1024


def test_inline_mode_runs_in_this_process():
    pool = WorkerPool(workers=0)
    outcomes = pool.map(pid, [(1,), (2,)])
    assert {o.value for o in outcomes} == {os.getpid()}
    assert pool.map(fail, [("inline",)])[0].error == "ValueError: inline"


def test_threads_can_share_a_pool(pool):
    results = {}

    def work(k):
        results[k] = [o.value for o in pool.map(square, [(k * 10 + i,) for i in range(10)])]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {k: [(k * 10 + i) ** 2 for i in range(10)] for k in range(3)}


def test_pickling_keeps_settings_not_processes():
    pool = WorkerPool(workers=3, timeout=7.0, memory_limit_mb=1000)
    clone = pickle.loads(pickle.dumps(pool))
    assert (clone.workers, clone.timeout, clone.memory_limit_mb) == (3, 7.0, 1000)
    assert clone._pool == []


def test_close_is_idempotent_and_the_pool_restarts_on_use():
    pool = WorkerPool(workers=1, timeout=5.0)
    assert pool.map(square, [(6,)])[0].value == 36
    pool.close()
    pool.close()
    assert pool.map(square, [(7,)])[0].value == 49
    pool.close()


@pytest.mark.parametrize("kwargs, message", [({"workers": -1}, "workers"), ({"timeout": 0}, "timeout"), ({"timeout": -2.0}, "timeout")])
def test_invalid_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        WorkerPool(**kwargs)


def test_shared_pool_is_shared_per_worker_count():
    assert shared_pool(1) is shared_pool(1)
    assert shared_pool(1) is not shared_pool(2)
    assert shared_pool(1).map(square, [(8,)])[0].value == 64


def test_timeouts_are_counted_in_the_run_summary():
    """A timeout is never silent: the summary line of a run names how many items timed out, of how many, the share."""
    from polyreward.engine import timeout_summary

    pool = shared_pool(3)
    before = dict(pool.stats)
    outcomes = pool.map(spin, [(600, "stuck"), (0.0, "a"), (0.0, "b"), (0.0, "c")], timeout=0.3)
    assert [o.timed_out for o in outcomes] == [True, False, False, False]
    assert pool.stats["items"] - before["items"] == 4 and pool.stats["cpu_timeouts"] - before["cpu_timeouts"] == 1
    line = timeout_summary()
    assert line is not None and line.startswith("worker pool: ") and "timed out" in line and "%" in line


def test_empty_map(pool):
    assert pool.map(square, []) == []


def test_affinity_sends_equal_keys_to_one_worker_while_both_are_busy(pool):
    # two keys with equal work: each key's items stay on its worker, except a few taken at the very
    # end by whichever worker ran dry first (int keys: hash(k) % 2 differs)
    items = [(0.02, (key, i)) for key in (0, 1) for i in range(20)]
    keys = [item[1][0] for item in items]
    outcomes = pool.map(sleep_then_pid, items, affinity=keys)
    assert [o.value[1] for o in outcomes] == [item[1] for item in items]
    for key in (0, 1):
        pids = [o.value[0] for o, k in zip(outcomes, keys) if k == key]
        assert max(pids.count(p) for p in set(pids)) >= 16, pids
    first = {o.value[0] for o, k in zip(outcomes, keys) if k == 0}
    assert first != {o.value[0] for o, k in zip(outcomes, keys) if k == 1}


def test_an_idle_worker_takes_work_routed_to_a_busy_one(pool):
    items = [(0.05, i) for i in range(20)]
    outcomes = pool.map(sleep_then_pid, items, affinity=["same"] * 20)
    assert [o.value[1] for o in outcomes] == list(range(20))
    assert len({o.value[0] for o in outcomes}) == 2


def test_affinity_must_match_the_items(pool):
    with pytest.raises(ValueError, match="affinity has 1 keys for 2 items"):
        pool.map(square, [(1,), (2,)], affinity=["x"])


def test_submit_returns_a_future_and_calls_run_in_order(pool):
    first = pool.submit(square, [(i,) for i in range(10)])
    second = pool.submit(square, [(11,)])
    assert [o.value for o in first.result(timeout=30)] == [i * i for i in range(10)]
    assert second.result(timeout=30)[0].value == 121


def test_start_in_the_background_then_map():
    with WorkerPool(workers=1, timeout=5.0) as fresh:
        fresh.start(wait=False)
        assert fresh.map(square, [(9,)])[0].value == 81
        assert len(fresh._pool) == 1


def test_preload_comes_from_the_work_not_the_engine():
    """The engine names no verifier (layering): a pool preloads what its users ask for before it first starts —
    a config's rewards (Reward.preload) or the math verifier before its first map — and nothing after."""
    import importlib
    import inspect
    import pkgutil

    import polyreward.engine as engine
    from polyreward.config import parse_config
    from polyreward.rewards.math_accuracy import MathAccuracy
    from polyreward.verifiers.math import WORKER_PRELOAD, verify_batch

    for module in (engine, *(importlib.import_module(f"polyreward.engine.{m.name}") for m in pkgutil.iter_modules(engine.__path__))):
        assert "verifiers" not in inspect.getsource(module) and "math_verify" not in inspect.getsource(module), module.__name__
    assert MathAccuracy.preload == WORKER_PRELOAD
    rewards = parse_config({"rewards": [{"name": "acc", "type": "math_accuracy"}]}).build_rewards(workers=5)  # a pool no test started
    assert rewards.preload == WORKER_PRELOAD
    assert all(m in rewards.rewards[0].engine.pool.__getstate__()["preload"] for m in WORKER_PRELOAD)
    with WorkerPool(workers=1, timeout=20.0) as pool:
        assert pool.__getstate__()["preload"] == []
        verify_batch(["\\boxed{\\sqrt{2}/2 + x}"], ["\\frac{1}{\\sqrt{2}} + x"], pool=pool, timeout=20.0)
        assert pool.__getstate__()["preload"] == list(WORKER_PRELOAD)
        assert pool.add_preload(["json"]) is False  # started: too late to add
