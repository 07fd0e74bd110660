"""The scoring engine: a pool of persistent worker processes with a hard per-item timeout.

Untrusted parsing (sympy, LaTeX, huge integers) can hang inside C code where no signal reaches it,
and ``signal.alarm`` only works on the main thread. So CPU-heavy checks run in worker processes fed
over pipes; the dispatcher waits on the pipes with a deadline, and a worker that overruns its item's
deadline is killed and replaced, its item scored as a timeout, and the batch goes on. This is the
design docs/reference/libraries.md#math-verify-timeouts describes, measured (≈0.7 ms per call overhead) and that NeMo-Gym, OpenCompass and AReaL
moved to.

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
import pickle
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing import context, forkserver, popen_forkserver, reduction, spawn, util
from multiprocessing.connection import Connection, wait
from typing import Any



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
            payload = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            message = pickle.loads(payload)
        except Exception as exc:  # e.g. a function defined in the caller's __main__, which workers never import
            conn.send(("error", None, f"cannot load the item in a worker ({type(exc).__name__}: {exc}); "
                       "functions sent to the pool must be defined in an importable module, not in __main__"[:500]))
            continue
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
        preload: Sequence[str] = (),
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
        while any(queues) or any(w.task is not None for w in self._pool):
            for index, worker in enumerate(self._pool):
                while worker.ready and worker.task is None:
                    slot = self._next_job(queues, index)
                    if slot is None:
                        break
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
        return {"workers": self.workers, "timeout": self.timeout, "memory_limit_mb": self.memory_limit_mb, "preload": self._preload}

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


@atexit.register
def _close_shared() -> None:
    for pool in list(_shared.values()):
        pool.close()
    _shared.clear()
