"""The scoring engine: a pool of persistent worker processes with a hard per-item timeout.

Untrusted parsing (sympy, LaTeX, huge integers) can hang inside C code where no signal reaches it,
and ``signal.alarm`` only works on the main thread. So CPU-heavy checks run in worker processes fed
over pipes; the dispatcher waits on the pipes with a deadline, and a worker that overruns its item's
deadline is killed and replaced, its item scored as a timeout, and the batch goes on. This is the
design LIBRARIES.md §1.4 measured (≈0.7 ms per call overhead) and that NeMo-Gym, OpenCompass and AReaL
moved to.

Workers come from a ``forkserver`` whose process has the ``preload`` modules imported once, so a
replacement worker starts in milliseconds with math-verify already loaded. Identical argument tuples
inside one :meth:`WorkerPool.map` call are computed once (RL groups repeat answers a lot). Results come
back in input order.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

# Imported once in the forkserver, so a worker started after a kill is warm (no ~1 s math-verify
# import counted against its first item's timeout).
DEFAULT_PRELOAD = ("polyreward.verifiers.math", "math_verify")


@dataclass(frozen=True)
class Outcome:
    """Result of one item: ``value`` when ``ok``; else ``error`` says why (``"timeout"`` for a kill)."""

    ok: bool
    value: Any = None
    error: str = ""

    @property
    def timed_out(self) -> bool:
        return self.error == "timeout"


def _limit_memory(megabytes: int | None) -> None:
    if not megabytes:
        return
    try:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this platform or not allowed: run unlimited
        pass


def _worker_main(conn: Connection, memory_limit_mb: int | None) -> None:
    _limit_memory(memory_limit_mb)
    conn.send(("ready", None, None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, args = message
        try:
            conn.send(("ok", fn(*args), None))
        except MemoryError:
            conn.send(("error", None, "memory limit exceeded"))
        except BaseException as exc:  # report every failure as data; the worker stays alive
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            conn.send(("error", None, detail[:500]))


class _Worker:
    def __init__(self, ctx: mp.context.BaseContext, memory_limit_mb: int | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, memory_limit_mb), daemon=True)
        self.process.start()
        child.close()
        self.ready = False
        self.task: tuple[int, float] | None = None  # (slot, start time)

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.join(timeout=5)
        finally:
            self.conn.close()


class WorkerPool:
    """Persistent worker processes with a hard timeout per item.

    Args:
        workers: number of worker processes; 0 runs items inline in the calling thread (no timeout,
            for debugging only).
        timeout: seconds one item may run before its worker is killed.
        memory_limit_mb: address-space cap per worker (a runaway bignum gets MemoryError, not the host).
        preload: modules imported once in the forkserver so new workers start warm.
    """

    def __init__(
        self,
        workers: int = 2,
        timeout: float = 5.0,
        memory_limit_mb: int | None = 4096,
        preload: Sequence[str] = DEFAULT_PRELOAD,
    ) -> None:
        if workers < 0:
            raise ValueError(f"workers must be >= 0, got {workers}")
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        self.workers = workers
        self.timeout = float(timeout)
        self.memory_limit_mb = memory_limit_mb
        self._preload = list(preload)
        self._ctx: mp.context.BaseContext | None = None
        self._pool: list[_Worker] = []
        self._lock = threading.Lock()
        self.restarts = 0
        self._startup_failures = 0

    def _context(self) -> mp.context.BaseContext:
        if self._ctx is None:
            method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
            ctx = mp.get_context(method)
            if method == "forkserver":
                ctx.set_forkserver_preload(self._preload)
            self._ctx = ctx
        return self._ctx

    def _ensure_workers(self) -> None:
        self._pool = [w for w in self._pool if w.process.is_alive()]
        while len(self._pool) < self.workers:
            self._pool.append(_Worker(self._context(), self.memory_limit_mb))

    def map(
        self,
        fn: Callable[..., Any],
        items: Sequence[tuple[Hashable, ...]],
        timeout: float | None = None,
    ) -> list[Outcome]:
        """Run ``fn(*item)`` for every item; one :class:`Outcome` per item, in input order.

        ``fn`` must be a picklable module-level function. Identical items are run once.
        """
        limit = self.timeout if timeout is None else float(timeout)
        unique: dict[Hashable, int] = {}
        slots = [unique.setdefault(item, len(unique)) for item in items]
        jobs = list(unique)
        if self.workers == 0:
            done = [self._run_inline(fn, job) for job in jobs]
        else:
            with self._lock:
                done = self._run_pool(fn, jobs, limit)
        return [done[s] for s in slots]

    @staticmethod
    def _run_inline(fn: Callable[..., Any], job: tuple) -> Outcome:
        try:
            return Outcome(True, fn(*job))
        except Exception as exc:
            return Outcome(False, error=f"{type(exc).__name__}: {exc}"[:500])

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self._pool.remove(worker)
        self.restarts += 1
        self._pool.append(_Worker(self._context(), self.memory_limit_mb))

    def _run_pool(self, fn: Callable[..., Any], jobs: list[tuple], limit: float) -> list[Outcome]:
        self._ensure_workers()
        results: list[Outcome | None] = [None] * len(jobs)
        queue = deque(range(len(jobs)))
        while queue or any(w.task is not None for w in self._pool):
            for worker in self._pool:
                if worker.ready and worker.task is None and queue:
                    slot = queue.popleft()
                    try:
                        worker.conn.send((fn, jobs[slot]))
                    except Exception as exc:  # unpicklable arguments: that item fails, not the batch
                        results[slot] = Outcome(False, error=f"cannot send item to worker: {exc}"[:500])
                        continue
                    worker.task = (slot, time.monotonic())
            now = time.monotonic()
            deadlines = [w.task[1] + limit for w in self._pool if w.task is not None]
            wait_for = max(0.0, min(deadlines) - now) if deadlines else 1.0
            ready = wait([w.conn for w in self._pool], timeout=wait_for)
            for worker in list(self._pool):
                if worker.conn not in ready:
                    continue
                try:
                    status, value, error = worker.conn.recv()
                except (EOFError, OSError):  # the worker died (segfault, OOM kill): its item fails
                    if worker.task is not None:
                        results[worker.task[0]] = Outcome(False, error="worker crashed")
                    elif not worker.ready:  # died before it could start: respawning forever would hang
                        self._startup_failures += 1
                        if self._startup_failures > 3:
                            for other in self._pool:
                                other.kill()
                            self._pool = []
                            raise RuntimeError("worker processes die on start-up (see their stderr); cannot score")
                    self._replace(worker)
                    continue
                if status == "ready":
                    worker.ready = True
                    self._startup_failures = 0
                elif worker.task is not None:
                    slot = worker.task[0]
                    results[slot] = Outcome(status == "ok", value, error or "")
                    worker.task = None
            now = time.monotonic()
            for worker in list(self._pool):
                if worker.task is not None and now - worker.task[1] >= limit:
                    results[worker.task[0]] = Outcome(False, error="timeout")
                    self._replace(worker)
        return [r if r is not None else Outcome(False, error="not run") for r in results]

    def close(self) -> None:
        with self._lock:
            for worker in self._pool:
                try:
                    worker.conn.send(None)
                except Exception:
                    pass
                worker.kill()
            self._pool = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        # A pool travels (TRL's async reward workers pickle reward objects) as its settings only.
        return {"workers": self.workers, "timeout": self.timeout, "memory_limit_mb": self.memory_limit_mb, "preload": self._preload}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)


_shared: dict[tuple, WorkerPool] = {}
_shared_lock = threading.Lock()


def shared_pool(workers: int | None = None, timeout: float = 5.0) -> WorkerPool:
    """A process-wide pool for ``workers`` processes (default: ``POLYREWARD_WORKERS`` or min(2, cores)).

    Rewards share pools so a RewardSet with three math rewards still starts only one set of workers.
    ``timeout`` is the pool's default; each ``map`` call may pass its own.
    """
    if workers is None:
        workers = int(os.environ.get("POLYREWARD_WORKERS", min(2, os.cpu_count() or 1)))
    key = (workers, os.getpid())
    with _shared_lock:
        pool = _shared.get(key)
        if pool is None:
            pool = _shared[key] = WorkerPool(workers=workers, timeout=timeout)
        return pool


@atexit.register
def _close_shared() -> None:
    for pool in list(_shared.values()):
        pool.close()
    _shared.clear()
