"""The scoring engine: a pool of persistent worker processes with a hard per-item timeout.

Untrusted parsing (sympy, LaTeX, huge integers) can hang inside C code where no signal reaches it,
and ``signal.alarm`` only works on the main thread. So CPU-heavy checks run in worker processes fed
over pipes; the dispatcher waits on the pipes with a deadline, and a worker that overruns its item's
budget (CPU seconds, its own) is killed and replaced, its item scored as a timeout, and the batch goes on.
This is the design docs/reference/libraries.md#math-verify-timeouts describes, measured (≈0.7 ms per call
overhead) and that NeMo-Gym, OpenCompass and AReaL moved to.

One concern per module:

* :mod:`~polyreward.engine.outcome` — :class:`Outcome`, the result of one item.
* :mod:`~polyreward.engine.worker` — the worker process's loop and resource limits (address space, ``RLIMIT_CPU``
  backstop, no core files), and :func:`process_cpu_seconds`, how the parent reads a worker's CPU time.
* :mod:`~polyreward.engine.no_main` — forkserver children that never re-run the caller's ``__main__`` (so
  functions sent to the pool must live in an importable module), and fork hygiene.
* :mod:`~polyreward.engine.pool` — :class:`WorkerPool`, the dispatcher: CPU budget, wall cap, retries, affinity.
* :mod:`~polyreward.engine.shared` — :func:`shared_pool`, the process-wide pools rewards share, and
  :func:`timeout_summary`, the run summary's line about their timeouts.
* :mod:`~polyreward.engine.handle` — :class:`Engine`, the one object a reward that needs workers is given (workers,
  per-item budget, memory cap; the pool made on first use): the one path the timeout takes.
"""

from __future__ import annotations

from polyreward.engine.handle import Engine
from polyreward.engine.outcome import Outcome
from polyreward.engine.pool import COMPUTING_SHARE, WorkerPool
from polyreward.engine.shared import shared_pool, timeout_summary
from polyreward.engine.worker import process_cpu_seconds

__all__ = ["COMPUTING_SHARE", "Engine", "Outcome", "WorkerPool", "process_cpu_seconds", "shared_pool", "timeout_summary"]
