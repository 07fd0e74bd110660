"""The worker pool: persistent worker processes with a hard per-item timeout, and the dispatcher that feeds them.

The per-item budget is **CPU time**, the worker's own: a loaded machine (a training node while the policy
generates runs at load 10x its cores) slows an item down but must not change its score. The dispatcher reads
each busy worker's CPU seconds from ``/proc/<pid>/stat`` (utime + stime) and kills the worker once the item
has used its budget; as a backstop the worker arms ``RLIMIT_CPU`` a second past the budget before each item
(:mod:`polyreward.engine.worker`), so the kernel ends a runaway even when the dispatcher is starved. A wall-clock
cap, ``wall_multiple`` times the budget, remains for items that block instead of computing (an item still getting
CPU at the cap, only slowly on a loaded machine, is left to its CPU budget); an item that blocks until the wall cap
is tried once more, after the rest of the call, before it is reported as ``"timeout"``. The budget starts once the
worker has loaded the item's message: the imports that unpickling runs the first time a worker sees a function or a
class are charged to no item (up to :data:`LOADING_CPU_BUDGET`; :class:`~polyreward.engine.worker.ItemStart`), so an
item's verdict does not depend on being a fresh worker's first. Every timeout is counted
(:attr:`WorkerPool.stats`). Where ``/proc`` is missing (macOS) CPU time cannot be read and the budget falls back to
wall time.

Workers come from a ``forkserver`` whose process has the ``preload`` modules imported once, so a replacement
worker starts in milliseconds, warm, and never re-runs the caller's main module (:mod:`polyreward.engine.no_main`).
The pool starts lazily, on the first :meth:`WorkerPool.map` (or :meth:`WorkerPool.start`, which can start it in
the background).

Identical argument tuples inside one :meth:`WorkerPool.map` call are computed once (RL groups repeat answers a
lot); ``affinity`` routes items with the same key to the same worker (math: the gold answer, so each worker's parse
cache holds the golds it is sent), an idle worker takes work from the longest other queue. Results come back in
input order.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from polyreward.engine.outcome import Outcome
from polyreward.engine.worker import CLOCK_TICKS, Task, Worker, process_cpu_seconds

if TYPE_CHECKING:  # multiprocessing is imported when the pool starts (most runs of the command line start none)
    import multiprocessing as mp
    from concurrent.futures import Future  # (and concurrent.futures, which imports logging, on the first map_async)

COMPUTING_SHARE = 0.02  # an item that got at least this share of a core is computing, not blocked
LOADING_CPU_BUDGET = 60.0  # CPU seconds a worker may spend importing an item's modules before that item fails


class WorkerPool:
    """Persistent worker processes with a hard timeout per item.

    Args:
        workers: number of worker processes; 0 runs items inline in the calling thread (no timeout,
            for debugging only).
        timeout: CPU seconds (the worker's own) one item may use before its worker is killed.
        memory_limit_mb: address-space cap per worker (a runaway bignum gets MemoryError, not the host).
        preload: modules imported once in the forkserver so new workers start warm.
        wall_multiple: the wall-clock cap per item, as a multiple of ``timeout``, for items that block
            (sleep, I/O) instead of computing; such an item is tried once more at the end of the call.

    ``stats`` counts, over the pool's life, the items run, the CPU-budget timeouts, the wall-cap timeouts and the
    wall-cap retries.
    """

    def __init__(
        self,
        workers: int = 2,
        timeout: float = 5.0,
        memory_limit_mb: int | None = 4096,
        preload: Sequence[str] = (),
        wall_multiple: float = 10.0,
    ) -> None:
        if workers < 0:
            raise ValueError(f"workers must be >= 0, got {workers}")
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        if not wall_multiple >= 1:
            raise ValueError(f"wall_multiple must be >= 1, got {wall_multiple}")
        self.workers = workers
        self.timeout = float(timeout)
        self.wall_multiple = float(wall_multiple)
        self.stats = {"items": 0, "cpu_timeouts": 0, "wall_timeouts": 0, "wall_retries": 0}
        self.memory_limit_mb = memory_limit_mb
        self._preload = list(preload)
        self._ctx: mp.context.BaseContext | None = None
        self._pool: list[Worker] = []
        self._lock = threading.Lock()
        self.restarts = 0
        self._startup_failures = 0
        self._owner = os.getpid()
        self._numbered = 0  # items sent so far (each message carries its number: ItemStart)

    def _adopt(self) -> None:
        """In a process forked after the workers started (a ``multiprocessing.Pool`` or DataLoader worker that
        inherited a reward), the workers, their pipes and the lock are the parent's: sharing them would mix the
        two processes' results, and ``Process.is_alive`` refuses a child of another process. Drop them (the
        parent's copies stay open) so this process starts workers of its own."""
        if self._owner == os.getpid():
            return
        for worker in self._pool:
            try:
                worker.conn.close()
            except OSError:
                pass
        self._pool, self._lock, self._owner = [], threading.Lock(), os.getpid()

    def add_preload(self, modules: Sequence[str]) -> bool:
        """Ask for ``modules`` to be imported once in the forkserver, so workers (also replacements after a
        kill) start warm. The engine names no verifier: the users of a pool say what their workers need
        (:attr:`polyreward.reward.Reward.preload`, or the verifier before its first ``map``). Only possible
        before the workers first start; returns whether the modules will be preloaded."""
        if self._ctx is not None:
            return all(m in self._preload for m in modules)
        self._preload.extend(m for m in modules if m not in self._preload)
        return True

    def _context(self) -> mp.context.BaseContext:
        if self._ctx is None:
            import multiprocessing as mp

            method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
            ctx = mp.get_context(method)
            if method == "forkserver":
                ctx.set_forkserver_preload(self._preload)
            self._ctx = ctx
        return self._ctx

    def _ensure_workers(self) -> None:
        self._adopt()
        for i, worker in enumerate(self._pool):
            if not worker.process.is_alive():
                worker.kill()
                self._pool[i] = Worker(self._context(), self.memory_limit_mb)
        while len(self._pool) < self.workers:
            self._pool.append(Worker(self._context(), self.memory_limit_mb))

    def start(self, wait: bool = True) -> None:
        """Start the workers now instead of on the first :meth:`map`; ``wait=False`` returns at once
        (the forkserver imports and warms up in the background while the caller reads its input)."""
        if self.workers == 0:
            return
        self._adopt()

        def run() -> None:
            with self._lock:
                self._ensure_workers()

        def run_quietly() -> None:
            try:
                run()
            except Exception:  # noqa: BLE001 -- not lost: the first map starts the workers again and raises it there
                pass

        if wait:
            run()
        else:
            threading.Thread(target=run_quietly, name="polyreward-pool-start", daemon=True).start()

    def map(
        self,
        fn: Callable[..., Any],
        items: Sequence[tuple[Hashable, ...]],
        timeout: float | None = None,
        affinity: Sequence[Hashable] | None = None,
    ) -> list[Outcome]:
        """Run ``fn(*item)`` for every item; one :class:`Outcome` per item, in input order.

        ``fn`` must be a picklable function defined in an importable module. Identical items are run
        once. ``affinity`` (one key per item) sends items with equal keys to the same worker while
        the others have work of their own.
        """
        if affinity is not None and len(affinity) != len(items):
            raise ValueError(f"affinity has {len(affinity)} keys for {len(items)} items")
        limit = self.timeout if timeout is None else float(timeout)
        unique: dict[Hashable, int] = {}
        keys: list[Hashable] = []
        slots = []
        for i, item in enumerate(items):
            slot = unique.setdefault(item, len(unique))
            if slot == len(keys):
                keys.append(affinity[i] if affinity is not None else slot)
            slots.append(slot)
        jobs = list(unique)
        if self.workers == 0:
            done = [self._run_inline(fn, job) for job in jobs]
        else:
            self._adopt()
            with self._lock:
                done = self._run_pool(fn, jobs, keys, limit)
        return [done[s] for s in slots]

    def submit(
        self,
        fn: Callable[..., Any],
        items: Sequence[tuple[Hashable, ...]],
        timeout: float | None = None,
        affinity: Sequence[Hashable] | None = None,
    ) -> Future:
        """:meth:`map` in a background thread: a Future of the outcomes, so the caller can prepare the
        next chunk while the workers run this one (calls run one after another, in order)."""
        from concurrent.futures import Future

        future: Future = Future()

        def run() -> None:
            try:
                future.set_result(self.map(fn, items, timeout, affinity))
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)

        threading.Thread(target=run, name="polyreward-pool-map", daemon=True).start()
        return future

    @staticmethod
    def _run_inline(fn: Callable[..., Any], job: tuple) -> Outcome:
        try:
            return Outcome(True, fn(*job))
        except Exception as exc:
            return Outcome(False, error=f"{type(exc).__name__}: {exc}"[:500])

    def _replace(self, worker: Worker) -> None:
        worker.kill()
        self.restarts += 1
        self._pool[self._pool.index(worker)] = Worker(self._context(), self.memory_limit_mb)

    @staticmethod
    def _next_job(queues: list[deque], index: int) -> int | None:
        """The worker's own next item, else one from the end of the longest other queue."""
        if queues[index]:
            return queues[index].popleft()
        longest = max(range(len(queues)), key=lambda q: len(queues[q]))
        return queues[longest].pop() if queues[longest] else None

    def _run_pool(self, fn: Callable[..., Any], jobs: list[tuple], keys: list[Hashable], limit: float) -> list[Outcome]:
        from multiprocessing.connection import wait as connection_wait

        self._ensure_workers()
        results: list[Outcome | None] = [None] * len(jobs)
        queues: list[deque] = [deque() for _ in self._pool]
        for slot, key in enumerate(keys):
            queues[hash(key) % len(queues)].append(slot)
        wall_cap = limit * self.wall_multiple
        blocked: list[int] = []  # reached the wall cap within their CPU budget: tried once more at the end
        retried: set[int] = set()
        self.stats["items"] += len(jobs)
        while True:
            if not any(queues) and all(w.task is None for w in self._pool):
                if not blocked:
                    break
                queues[0].extend(blocked)
                retried.update(blocked)
                blocked = []
            for index, worker in enumerate(self._pool):
                while worker.ready and worker.task is None:
                    slot = self._next_job(queues, index)
                    if slot is None:
                        break
                    self._numbered += 1
                    try:
                        worker.conn.send((fn, jobs[slot], limit, float(self._numbered)))
                    except Exception as exc:  # unpicklable arguments: that item fails, not the batch
                        results[slot] = Outcome(False, error=f"cannot send item to worker: {exc}"[:500])
                        continue
                    now = time.monotonic()
                    worker.task = Task(slot, now, now + limit, now + wall_cap, slot in retried, number=float(self._numbered))
            busy = [w.task for w in self._pool if w.task is not None]
            wake = [min(t.next_check, t.wall_deadline) for t in busy]
            wait_for = max(0.0, min(wake) - time.monotonic()) if wake else 1.0
            ready = connection_wait([w.conn for w in self._pool], timeout=wait_for)
            for worker in list(self._pool):
                if worker.conn not in ready:
                    continue
                try:
                    status, value, error, cpu_now = worker.conn.recv()
                except (EOFError, OSError):  # the worker died (segfault, OOM kill, RLIMIT_CPU): its item fails
                    if worker.task is not None:
                        results[worker.task.slot] = self._death_outcome(worker)
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
                    used = worker.item_cpu(worker.task, cpu_now)[0]
                    results[worker.task.slot] = Outcome(status == "ok", value, error or "", cpu_seconds=used)
                    worker.task = None
                worker.cpu_base = cpu_now
            self._enforce_limits(results, blocked, limit, wall_cap)
        return [r if r is not None else Outcome(False, error="not run") for r in results]

    def _enforce_limits(self, results: list[Outcome | None], blocked: list[int], limit: float, wall_cap: float) -> None:
        """Kill every worker whose item used its CPU budget (a timeout) or blocked until the wall cap (a retry the
        first time, a timeout the second). CPU time grows at most as fast as wall time (one thread), so a worker's CPU
        is read again only when its remaining budget could be spent, which keeps the ``/proc`` reads few.

        An item at the wall cap that got at least :data:`COMPUTING_SHARE` of a core over its life is computing, only
        slowed down by the machine's load (at load 20 on 2 cores a process gets a tenth of a core): it keeps running
        and its CPU budget stops it, at the latest after 1 / COMPUTING_SHARE times the budget in wall time. Only an
        item that mostly waits (I/O, a sleep, a lock) is stopped by the wall cap."""
        now = time.monotonic()
        for worker in list(self._pool):
            task = worker.task
            if task is None:
                continue
            if now >= task.next_check or now >= task.wall_deadline:
                cpu = process_cpu_seconds(worker.process.pid)
                task.cpu_used, loading = (now - task.started, False) if cpu is None else worker.item_cpu(task, cpu)
                task.cpu_since_sent = now - task.started if cpu is None else max(0.0, cpu - worker.cpu_base)
                if task.cpu_used >= (LOADING_CPU_BUDGET if loading else limit):
                    self.stats["cpu_timeouts"] += 1
                    results[task.slot] = Outcome(False, error="timeout", cpu_seconds=task.cpu_used)
                    self._replace(worker)
                    continue
                task.next_check = now + (0.05 if loading else max(0.01, limit - task.cpu_used))
            if now >= task.wall_deadline:
                # (its loading counted: a slow import on a loaded machine is computing too)
                if task.cpu_since_sent - 2.0 / CLOCK_TICKS >= COMPUTING_SHARE * (now - task.started):  # ticks: /proc's resolution
                    task.wall_deadline = now + wall_cap  # computing, slowed by load: the CPU budget decides
                    continue
                if task.retry:
                    self.stats["wall_timeouts"] += 1
                    results[task.slot] = Outcome(False, error="timeout", cpu_seconds=task.cpu_used)
                else:
                    self.stats["wall_retries"] += 1
                    blocked.append(task.slot)
                self._replace(worker)

    def _death_outcome(self, worker: Worker) -> Outcome:
        """A worker that died on its item: a timeout when the kernel's CPU limit ended it (SIGXCPU), else a crash."""
        worker.process.join(timeout=1.0)
        if worker.process.exitcode == -getattr(signal, "SIGXCPU", -1):
            self.stats["cpu_timeouts"] += 1
            return Outcome(False, error="timeout")
        return Outcome(False, error="worker crashed")

    def close(self) -> None:
        self._adopt()  # never shut down a parent's workers from a forked child
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
        return {"workers": self.workers, "timeout": self.timeout, "memory_limit_mb": self.memory_limit_mb, "preload": self._preload,
                "wall_multiple": self.wall_multiple}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)

