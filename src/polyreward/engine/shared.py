"""The process-wide shared pools, and the one line a run's summary gets when any of them timed an item out.

Rewards share pools so a RewardSet with three math rewards still starts only one set of workers (through their
:class:`~polyreward.engine.handle.Engine`). A pool belongs to the process that made it (a forked child makes its
own); every shared pool is closed at exit.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Sequence

from polyreward.engine.pool import WorkerPool

_shared: dict[tuple, WorkerPool] = {}
_shared_lock = threading.Lock()


def shared_pool(workers: int | None = None, timeout: float = 5.0, preload: Sequence[str] = (),
                memory_limit_mb: int | None = 4096) -> WorkerPool:
    """A process-wide pool for ``workers`` processes (default: ``POLYREWARD_WORKERS`` or min(2, cores)) capped at
    ``memory_limit_mb`` each.

    ``timeout`` is the pool's default for a ``map`` call that passes none; an :class:`~polyreward.engine.handle.Engine`
    always passes its own. ``preload``: modules the caller's work needs in the workers (:meth:`WorkerPool.add_preload`).
    """
    if workers is None:
        workers = int(os.environ.get("POLYREWARD_WORKERS", min(2, os.cpu_count() or 1)))
    key = (workers, memory_limit_mb, os.getpid())
    with _shared_lock:
        pool = _shared.get(key)
        if pool is None:
            pool = _shared[key] = WorkerPool(workers=workers, timeout=timeout, memory_limit_mb=memory_limit_mb)
        pool.add_preload(preload)
        return pool


def timeout_summary() -> str | None:
    """One line for a run's summary when any shared pool of this process timed an item out: how many, of how many
    items, the share, and how many reached the CPU budget vs the wall cap; None when none did (a timeout is never
    silent, and a run without one stays quiet)."""
    pools = [p for key, p in list(_shared.items()) if key[-1] == os.getpid()]  # (workers, memory cap, owner)
    items = sum(p.stats["items"] for p in pools)
    cpu = sum(p.stats["cpu_timeouts"] for p in pools)
    wall = sum(p.stats["wall_timeouts"] for p in pools)
    if not cpu + wall:
        return None
    return (f"worker pool: {cpu + wall} of {items} items timed out ({(cpu + wall) / max(items, 1):.2%}): {cpu} used their "
            f"CPU budget, {wall} reached the wall-clock cap twice")


@atexit.register
def _close_shared() -> None:
    for pool in list(_shared.values()):
        pool.close()
    _shared.clear()
