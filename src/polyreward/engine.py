"""The scoring engine: a pool of persistent worker processes with a hard per-item timeout.

Untrusted parsing (sympy, LaTeX, huge integers) can hang inside C code where no signal reaches it,
and ``signal.alarm`` only works on the main thread. So CPU-heavy checks run in worker processes fed
over pipes; the dispatcher waits on the pipes with a deadline, and a worker that overruns its item's
deadline is killed and replaced, its item scored as a timeout, and the batch goes on. This is the
design docs/reference/libraries.md#math-verify-timeouts describes, measured (≈0.7 ms per call overhead) and that NeMo-Gym, OpenCompass and AReaL
moved to.

The per-item budget is **CPU time**, the worker's own: a loaded machine (a training node while the policy
generates runs at load 10x its cores) slows an item down but must not change its score. The dispatcher reads
each busy worker's CPU seconds from ``/proc/<pid>/stat`` (utime + stime) and kills the worker once the item
has used its budget; as a backstop the worker arms ``RLIMIT_CPU`` a second past the budget before each item,
so the kernel ends a runaway even when the dispatcher is starved. A wall-clock cap, ``wall_multiple`` times
the budget, remains for items that block instead of computing (an item still getting CPU at the cap, only
slowly on a loaded machine, is left to its CPU budget); an item that blocks until the wall cap is tried once
more, after the rest of the call, before it is reported as ``"timeout"``.
Every timeout is counted (:attr:`WorkerPool.stats`, :func:`timeout_summary`), so a run can say how many
there were and what share of its items they were. Where ``/proc`` is missing (macOS) CPU time cannot be read
and the budget falls back to wall time.

Workers come from a ``forkserver`` whose process has the ``preload`` modules imported once (the
default also runs one parse and one verify, so sympy's lazy imports are paid there, not by each
worker's first item), so a replacement worker starts in milliseconds, warm. The pool starts lazily, on
the first :meth:`WorkerPool.map` (or :meth:`WorkerPool.start`, which can start it in the background).

Workers never re-run the caller's main module. The standard library's forkserver children import
``__main__`` again (``multiprocessing.spawn.prepare``), which in a script without an
``if __name__ == "__main__":`` guard scores again and starts workers again, recursively; and a script
read from standard input has no file to import. So the preparation data sent to each child leaves
the main module out (:class:`_NoMainPopen`); the price is that functions sent to the pool must live
in an importable module, and one defined in ``__main__`` is reported as an error naming it.

Identical argument tuples inside one :meth:`WorkerPool.map` call are computed once (RL groups repeat
answers a lot); ``affinity`` routes items with the same key to the same worker (math: the gold answer,
so each worker's parse cache holds the golds it is sent), an idle worker takes work from the longest
other queue. Results come back in input order.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import multiprocessing as mp
import os
import math
import pickle
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing import context, forkserver, popen_forkserver, reduction, spawn, util
from multiprocessing.connection import Connection, wait
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """Result of one item: ``value`` when ``ok``; else ``error`` says why (``"timeout"`` for a kill)."""

    ok: bool
    value: Any = None
    error: str = ""
    cpu_seconds: float | None = field(default=None, compare=False)  # the worker's CPU time on the item, when known

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


def _own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def _arm_cpu_limit(budget: float | None) -> None:
    """The kernel's backstop for one item: ``RLIMIT_CPU`` (whole seconds of process CPU time) one second past the
    item's budget, so a worker whose dispatcher cannot get the CPU to kill it still ends (SIGXCPU) near its budget."""
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = resource.RLIM_INFINITY if budget is None else math.ceil(_own_cpu_seconds() + budget) + 1
        if hard != resource.RLIM_INFINITY:
            soft = hard if soft == resource.RLIM_INFINITY else min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ImportError, ValueError, OSError):  # not on this platform: the dispatcher's check alone
        pass


def _no_core_dumps() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU's default action would write a core file
    except (ImportError, ValueError, OSError):
        pass


def _worker_main(conn: Connection, memory_limit_mb: int | None) -> None:
    # Ctrl-C reaches the whole foreground process group; it is the parent's to act on (the trainer finishes its
    # step and saves a checkpoint), so a worker must not die of it mid-item and cost that item a NaN
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit_memory(memory_limit_mb)
    _no_core_dumps()
    conn.send(("ready", None, None, _own_cpu_seconds()))
    while True:
        try:
            payload = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            message = pickle.loads(payload)
        except Exception as exc:  # e.g. a function defined in the caller's __main__, which workers never import
            conn.send(("error", None, f"cannot load the item in a worker ({type(exc).__name__}: {exc}); "
                       "functions sent to the pool must be defined in an importable module, not in __main__"[:500],
                       _own_cpu_seconds()))
            continue
        if message is None:
            return
        fn, args, cpu_budget = message
        _arm_cpu_limit(cpu_budget)
        try:
            reply = ("ok", fn(*args), None)
        except MemoryError:
            reply = ("error", None, "memory limit exceeded")
        except BaseException as exc:  # report every failure as data; the worker stays alive
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            reply = ("error", None, detail[:500])
        conn.send((*reply, _own_cpu_seconds()))


def _preparation_data_without_main(name: str) -> dict[str, Any]:
    data = spawn.get_preparation_data(name)
    data.pop("init_main_from_path", None)
    data.pop("init_main_from_name", None)
    return data


class _NoMainPopen(popen_forkserver.Popen):
    """``multiprocessing.popen_forkserver.Popen._launch`` (CPython 3.9-3.13, unchanged) with the main
    module left out of the child's preparation data, so the child never re-runs the caller's script."""

    def _launch(self, process_obj: Any) -> None:
        prep_data = _preparation_data_without_main(process_obj._name)
        buf = io.BytesIO()
        context.set_spawning_popen(self)
        try:
            reduction.dump(prep_data, buf)
            reduction.dump(process_obj, buf)
        finally:
            context.set_spawning_popen(None)
        self.sentinel, w = forkserver.connect_to_new_process(self._fds)
        _parent_w = os.dup(w)  # the child watches this end to notice its parent is gone
        self.finalizer = util.Finalize(self, util.close_fds, (_parent_w, self.sentinel))
        with open(w, "wb", closefd=True) as f:
            f.write(buf.getbuffer())
        self.pid = forkserver.read_signed(self.sentinel)


class _NoMainProcess(context.ForkServerProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> _NoMainPopen:
        return _NoMainPopen(process_obj)


@contextlib.contextmanager
def _children_allowed() -> Iterator[None]:
    """Let a daemonic process (a ``multiprocessing.Pool`` worker, e.g. ``datasets.map(num_proc=...)``) start workers.

    ``BaseProcess.start`` refuses children of a daemonic process because it would not outlive them; ours need
    not: a worker leaves its loop when its pipe to the parent closes (:func:`_worker_main`), so none is orphaned.
    The flag is the one ``multiprocessing.process`` reads (``_config["daemon"]``, CPython 3.8-3.13)."""
    config = mp.current_process()._config  # noqa: SLF001 -- the only switch multiprocessing offers
    daemon = config.get("daemon")
    if daemon:
        config["daemon"] = False
    try:
        yield
    finally:
        if daemon:
            config["daemon"] = daemon


def _forget_parent_forkserver() -> None:
    """After ``os.fork``: the parent's forkserver is no child of this process, so the standard library's
    ``ensure_running`` would fail on it (``os.waitpid``: ChildProcessError); this process starts its own when it
    needs one. The parent's end of the server's liveness pipe is closed here only (the parent keeps its own)."""
    server = forkserver._forkserver  # noqa: SLF001 -- the module's one instance, which its functions are bound to
    if server._forkserver_pid is None:  # noqa: SLF001
        return
    try:
        os.close(server._forkserver_alive_fd)  # noqa: SLF001
    except (OSError, TypeError):
        pass
    server._forkserver_address = server._forkserver_alive_fd = server._forkserver_pid = None  # noqa: SLF001
    server._lock = threading.Lock()  # noqa: SLF001 -- may have been held by another thread at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parent_forkserver)


class _Worker:
    def __init__(self, ctx: mp.context.BaseContext, memory_limit_mb: int | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        process_class = _NoMainProcess if ctx.get_start_method() == "forkserver" else ctx.Process
        self.process = process_class(target=_worker_main, args=(child, memory_limit_mb), daemon=True)
        with _children_allowed():
            self.process.start()
        child.close()
        self.ready = False
        self.task: _Task | None = None
        self.cpu_base = 0.0  # the worker's own CPU seconds when it reported last (the start of its next item)

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.join(timeout=5)
        finally:
            self.conn.close()


COMPUTING_SHARE = 0.02  # an item that got at least this share of a core is computing, not blocked

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` from ``/proc/<pid>/stat`` (fields 14 and 15, in clock ticks;
    proc(5)); None where there is no ``/proc`` or the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()  # the command name in parentheses may hold spaces
    try:
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    except (IndexError, ValueError):
        return None


@dataclass
class _Task:
    """An item in flight on a worker: when it started, when to look at its CPU time next, whether it is a retry."""

    slot: int
    started: float
    next_check: float
    wall_deadline: float
    retry: bool = False
    cpu_used: float = 0.0


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
        self._pool: list[_Worker] = []
        self._lock = threading.Lock()
        self.restarts = 0
        self._startup_failures = 0
        self._owner = os.getpid()

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
                self._pool[i] = _Worker(self._context(), self.memory_limit_mb)
        while len(self._pool) < self.workers:
            self._pool.append(_Worker(self._context(), self.memory_limit_mb))

    def start(self, wait: bool = True) -> None:
        """Start the workers now instead of on the first :meth:`map`; ``wait=False`` returns at once
        (the forkserver imports and warms up in the background while the caller reads its input)."""
        if self.workers == 0:
            return
        self._adopt()

        def run() -> None:
            with self._lock:
                self._ensure_workers()

        if wait:
            run()
        else:
            threading.Thread(target=run, name="polyreward-pool-start", daemon=True).start()

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

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self.restarts += 1
        self._pool[self._pool.index(worker)] = _Worker(self._context(), self.memory_limit_mb)

    @staticmethod
    def _next_job(queues: list[deque], index: int) -> int | None:
        """The worker's own next item, else one from the end of the longest other queue."""
        if queues[index]:
            return queues[index].popleft()
        longest = max(range(len(queues)), key=lambda q: len(queues[q]))
        return queues[longest].pop() if queues[longest] else None

    def _run_pool(self, fn: Callable[..., Any], jobs: list[tuple], keys: list[Hashable], limit: float) -> list[Outcome]:
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
                    try:
                        worker.conn.send((fn, jobs[slot], limit))
                    except Exception as exc:  # unpicklable arguments: that item fails, not the batch
                        results[slot] = Outcome(False, error=f"cannot send item to worker: {exc}"[:500])
                        continue
                    now = time.monotonic()
                    worker.task = _Task(slot, now, now + limit, now + wall_cap, slot in retried)
            busy = [w.task for w in self._pool if w.task is not None]
            wake = [min(t.next_check, t.wall_deadline) for t in busy]
            wait_for = max(0.0, min(wake) - time.monotonic()) if wake else 1.0
            ready = wait([w.conn for w in self._pool], timeout=wait_for)
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
                    used = max(0.0, cpu_now - worker.cpu_base)
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
                task.cpu_used = now - task.started if cpu is None else max(0.0, cpu - worker.cpu_base)
                if task.cpu_used >= limit:
                    self.stats["cpu_timeouts"] += 1
                    results[task.slot] = Outcome(False, error="timeout", cpu_seconds=task.cpu_used)
                    self._replace(worker)
                    continue
                task.next_check = now + max(0.01, limit - task.cpu_used)
            if now >= task.wall_deadline:
                if task.cpu_used - 2.0 / _CLOCK_TICKS >= COMPUTING_SHARE * (now - task.started):  # ticks: /proc's resolution
                    task.wall_deadline = now + wall_cap  # computing, slowed by load: the CPU budget decides
                    continue
                if task.retry:
                    self.stats["wall_timeouts"] += 1
                    results[task.slot] = Outcome(False, error="timeout", cpu_seconds=task.cpu_used)
                else:
                    self.stats["wall_retries"] += 1
                    blocked.append(task.slot)
                self._replace(worker)

    def _death_outcome(self, worker: _Worker) -> Outcome:
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


_shared: dict[tuple, WorkerPool] = {}
_shared_lock = threading.Lock()


def shared_pool(workers: int | None = None, timeout: float = 5.0, preload: Sequence[str] = ()) -> WorkerPool:
    """A process-wide pool for ``workers`` processes (default: ``POLYREWARD_WORKERS`` or min(2, cores)).

    Rewards share pools so a RewardSet with three math rewards still starts only one set of workers.
    ``timeout`` is the pool's default; each ``map`` call may pass its own. ``preload``: modules the caller's
    work needs in the workers (:meth:`WorkerPool.add_preload`).
    """
    if workers is None:
        workers = int(os.environ.get("POLYREWARD_WORKERS", min(2, os.cpu_count() or 1)))
    key = (workers, os.getpid())
    with _shared_lock:
        pool = _shared.get(key)
        if pool is None:
            pool = _shared[key] = WorkerPool(workers=workers, timeout=timeout)
        pool.add_preload(preload)
        return pool


def timeout_summary() -> str | None:
    """One line for a run's summary when any shared pool of this process timed an item out: how many, of how many
    items, the share, and how many reached the CPU budget vs the wall cap; None when none did (a timeout is never
    silent, and a run without one stays quiet)."""
    pools = [p for (_, owner), p in list(_shared.items()) if owner == os.getpid()]
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
