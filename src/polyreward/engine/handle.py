"""The engine handle: the one object a reward that needs worker processes is given.

    Engine(workers, timeout, memory_limit_mb)  ->  engine.map(fn, items)  ->  one Outcome per item

A reward declares that it needs the engine with one fact: its constructor takes an ``engine`` parameter.
:meth:`polyreward.config.Config.build_rewards` then passes the config's engine (``engine: {workers, timeout}``)
there; ``engine`` is never a key of a reward's config entry. The handle is the one path the per-item budget takes:
every :meth:`Engine.map` runs with :attr:`Engine.timeout`, never with a default a pool was made with. A reward that
keeps a ``timeout`` parameter of its own (``math_accuracy``) turns it into an engine with that budget
(:meth:`Engine.with_timeout`: the same workers, another budget) instead of keeping a second copy.

The pool is made on first use: the process-wide pool for the engine's workers and memory cap
(:func:`~polyreward.engine.shared.shared_pool`, so three math rewards still start one set of workers), or the
:class:`~polyreward.engine.pool.WorkerPool` given as ``pool`` (tests, a command's private pool).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from polyreward.engine.outcome import Outcome
from polyreward.engine.pool import WorkerPool
from polyreward.engine.shared import shared_pool

DEFAULT_MEMORY_LIMIT_MB = 4096


class _Workers:
    """What engines derived from one another share: the worker settings, the modules to preload, the pool once made."""

    def __init__(self, workers: int | None, memory_limit_mb: int | None, pool: Any) -> None:
        self.workers, self.memory_limit_mb, self.given = workers, memory_limit_mb, pool
        self.preload: list[str] = []
        self.pool: Any = pool
        self.lock = threading.Lock()

    def get(self) -> Any:
        with self.lock:
            if self.pool is None:
                self.pool = shared_pool(self.workers, preload=self.preload, memory_limit_mb=self.memory_limit_mb)
            return self.pool


class Engine:
    """The worker processes a reward's CPU-heavy checks run in, and the budget of one check.

    Args:
        workers: worker processes; None: ``POLYREWARD_WORKERS`` or min(2, cores); 0 runs inline (no timeout,
            debugging only)
        timeout: CPU seconds (the worker's own) one item may use before its worker is killed
        memory_limit_mb: address-space cap per worker; None: uncapped
        pool: run in this pool (a :class:`~polyreward.engine.pool.WorkerPool`, or anything with its ``map``)
            instead of the shared one; its owner closes it
    """

    def __init__(self, workers: int | None = None, timeout: float = 5.0,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB, *, pool: Any = None) -> None:
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 0):
            raise ValueError(f"workers must be a whole number >= 0 or None, got {workers!r}")
        self.timeout = _budget(timeout)
        self._workers = _Workers(workers, memory_limit_mb, pool)

    @classmethod
    def of(cls, value: Engine | WorkerPool | None) -> Engine:
        """``value`` as an engine: an engine as it is, a pool as an engine running in it with the pool's own budget,
        None as the default engine."""
        if value is None:
            return cls()
        if isinstance(value, Engine):
            return value
        if callable(getattr(value, "map", None)):
            return cls(timeout=getattr(value, "timeout", 5.0), pool=value)
        raise TypeError(f"engine must be a polyreward Engine or WorkerPool, got {type(value).__name__}")

    def with_timeout(self, timeout: float) -> Engine:
        """This engine's workers (the same pool) with another per-item budget."""
        derived = Engine.__new__(Engine)
        derived.timeout = _budget(timeout)
        derived._workers = self._workers
        return derived

    @property
    def workers(self) -> int | None:
        given = self._workers.given
        return getattr(given, "workers", None) if given is not None else self._workers.workers

    @property
    def memory_limit_mb(self) -> int | None:
        given = self._workers.given
        return getattr(given, "memory_limit_mb", None) if given is not None else self._workers.memory_limit_mb

    @property
    def pool(self) -> Any:
        """The pool the items run in, made on first use."""
        return self._workers.get()

    def add_preload(self, modules: Sequence[str]) -> bool:
        """Modules the workers import once at start-up (:meth:`WorkerPool.add_preload`); only before they start."""
        workers = self._workers
        with workers.lock:
            if workers.pool is None:
                workers.preload.extend(m for m in modules if m not in workers.preload)
                return True
        add = getattr(workers.pool, "add_preload", None)
        return add(modules) if callable(add) else False

    def start_soon(self) -> None:
        """Start the workers in the background and return at once (:meth:`WorkerPool.start` with ``wait=False``): a
        caller that knows it will need them soon lets them start and import their preload while it goes on. A pool
        without ``start`` (anything with a ``map``) starts on its first map, as before."""
        start = getattr(self.pool, "start", None)
        if callable(start):
            start(wait=False)

    def map(self, fn: Callable[..., Any], items: Sequence[tuple[Hashable, ...]], timeout: float | None = None,
            affinity: Sequence[Hashable] | None = None) -> list[Outcome]:
        """:meth:`WorkerPool.map` with this engine's budget (``timeout`` only for a caller that sets its own per call)."""
        return self.pool.map(fn, items, timeout=self.timeout if timeout is None else timeout, affinity=affinity)

    def __getstate__(self) -> dict[str, Any]:
        # travels as its settings (TRL's async reward workers pickle rewards); a given pool travels as its settings too
        workers = self._workers
        return {"workers": workers.workers, "timeout": self.timeout, "memory_limit_mb": workers.memory_limit_mb,
                "pool": workers.given, "preload": list(workers.preload)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["workers"], state["timeout"], state["memory_limit_mb"], pool=state["pool"])
        self._workers.preload.extend(state["preload"])

    def __repr__(self) -> str:
        where = f"pool={self._workers.given!r}" if self._workers.given is not None else f"workers={self.workers!r}"
        return f"Engine({where}, timeout={self.timeout:g}, memory_limit_mb={self.memory_limit_mb!r})"


def _budget(timeout: Any) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r}")
    return float(timeout)
