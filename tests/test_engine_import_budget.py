"""A fresh worker's import of the item's function is not charged to the item's CPU budget.

Unpickling ``(fn, args, budget)`` in a worker imports ``fn``'s module the first time that worker sees it. Before
this rule the import's CPU counted toward the first item the worker ran, so the same row could time out as a fresh
worker's first item and pass as its second: a score that depended on the chunking and the order of the rows. The
worker now reports ``"loaded"`` after an unpickling that cost CPU, and the item's budget starts there.
"""

from __future__ import annotations

import sys
import textwrap
import time

import pytest

from polyreward.engine import WorkerPool

IMPORT_CPU_SECONDS = 1.5  # the module's import burns this much CPU; the item's budget is less than that
BUDGET = 1.0


@pytest.fixture
def slow_import_module(tmp_path, monkeypatch):
    """A module whose import burns :data:`IMPORT_CPU_SECONDS` of CPU (a heavy library's import, say) and whose
    functions are cheap."""
    name = f"polyreward_test_slow_import_{time.monotonic_ns()}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(f"""
        import time
        _start = time.process_time()
        while time.process_time() - _start < {IMPORT_CPU_SECONDS}:
            pass

        def double(x):
            return 2 * x

        def spin(seconds):
            start = time.process_time()
            while time.process_time() - start < seconds:
                pass
            return seconds
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = __import__(name)
    yield module
    sys.modules.pop(name, None)


def test_the_import_on_a_fresh_worker_is_not_the_first_items_budget(slow_import_module):
    pool = WorkerPool(workers=1, timeout=BUDGET)
    try:
        first = pool.map(slow_import_module.double, [(21,), (4,)])
        assert [o.ok for o in first] == [True, True], [o.error for o in first]
        assert [o.value for o in first] == [42, 8]
        assert first[0].cpu_seconds < BUDGET  # the item's own CPU, the import left out
        assert pool.stats["cpu_timeouts"] == 0
    finally:
        pool.close()


def test_an_item_over_its_budget_still_times_out_after_a_slow_import(slow_import_module):
    """The budget moved to after the import; it did not go away: an item that itself spins past it is stopped."""
    pool = WorkerPool(workers=1, timeout=BUDGET)
    try:
        outcomes = pool.map(slow_import_module.spin, [(BUDGET * 3,), (0.01,)])
        assert not outcomes[0].ok and outcomes[0].error == "timeout"
        assert outcomes[1].ok and outcomes[1].value == 0.01  # the replacement worker imports again, uncharged
        assert pool.stats["cpu_timeouts"] == 1
    finally:
        pool.close()
