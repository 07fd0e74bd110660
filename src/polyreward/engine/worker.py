"""One worker process: its main loop, the resource limits it runs under, and how the parent reads its CPU time.

A worker receives ``(fn, args, cpu_budget, number)`` over its pipe, arms ``RLIMIT_CPU`` a second past the budget
(the kernel's backstop when the dispatcher is starved), runs the item and sends back the result with its own CPU
seconds. Unpickling the message imports ``fn``'s module (and the modules of the arguments' classes) the first time
a worker sees them; that import is not the item's: the worker writes the item's number and its CPU seconds once
loaded into a small shared array (:class:`ItemStart`), and the dispatcher charges the item only from there (a
row's score must not depend on whether it happened to be a fresh worker's first item). Then
every failure is sent as data and the worker stays alive. Its address space is capped (a runaway bignum gets
``MemoryError``, not the host), it writes no core files and it ignores Ctrl-C (the parent's to act on).
"""

from __future__ import annotations

import math
import os
import pickle
import signal
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING


if TYPE_CHECKING:  # multiprocessing is imported when a pool starts, not by importing the engine (most runs start none)
    import multiprocessing as mp
    from multiprocessing.connection import Connection


LOADING = -1.0  # ItemStart.number while a message is being unpickled (its imports run)


class ItemStart:
    """What a worker shares with its dispatcher about the item it runs, without a message: ``number`` (the item's
    number once its message is loaded, :data:`LOADING` while it loads, an earlier item's number before the worker
    has read it) and ``cpu`` (the worker's own CPU seconds when the item began, after loading). Written by the
    worker (``cpu`` first), read by the dispatcher; aligned doubles, so each read sees a whole value."""

    def __init__(self, ctx: mp.context.BaseContext) -> None:
        self.values = ctx.RawArray("d", 2)
        self.values[0] = LOADING - 1  # no item yet

    def loading(self) -> None:
        self.values[0] = LOADING

    def began(self, number: float, cpu: float) -> None:
        self.values[1] = cpu
        self.values[0] = number

    def read(self) -> tuple[float, float]:
        return self.values[0], self.values[1]


def _limit_memory(megabytes: int | None) -> None:
    if not megabytes:
        return
    try:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this platform or not allowed: run unlimited
        pass


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def _arm_cpu_limit(budget: float | None) -> None:
    """The kernel's backstop for one item: ``RLIMIT_CPU`` (whole seconds of process CPU time) one second past the
    item's budget, so a worker whose dispatcher cannot get the CPU to kill it still ends (SIGXCPU) near its budget."""
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = resource.RLIM_INFINITY if budget is None else math.ceil(own_cpu_seconds() + budget) + 1
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


def worker_main(conn: Connection, memory_limit_mb: int | None, start: ItemStart) -> None:
    # Ctrl-C reaches the whole foreground process group; it is the parent's to act on (the trainer finishes its
    # step and saves a checkpoint), so a worker must not die of it mid-item and cost that item a NaN
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit_memory(memory_limit_mb)
    _no_core_dumps()
    conn.send(("ready", None, None, own_cpu_seconds()))
    while True:
        try:
            payload = conn.recv_bytes()
        except (EOFError, OSError):
            return
        start.loading()
        try:
            message = pickle.loads(payload)
        except Exception as exc:  # e.g. a function defined in the caller's __main__, which workers never import
            conn.send(("error", None, f"cannot load the item in a worker ({type(exc).__name__}: {exc}); "
                       "functions sent to the pool must be defined in an importable module, not in __main__"[:500],
                       own_cpu_seconds()))
            continue
        if message is None:
            return
        fn, args, cpu_budget, number = message
        start.began(number, own_cpu_seconds())  # the item's budget counts from here, after the imports
        _arm_cpu_limit(cpu_budget)
        try:
            reply = ("ok", fn(*args), None)
        except MemoryError:
            reply = ("error", None, "memory limit exceeded")
        except BaseException as exc:  # report every failure as data; the worker stays alive
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            reply = ("error", None, detail[:500])
        conn.send((*reply, own_cpu_seconds()))


class Worker:
    """The parent's handle of one worker process: its pipe, the item it runs and its CPU seconds at its last report."""

    def __init__(self, ctx: mp.context.BaseContext, memory_limit_mb: int | None) -> None:
        from polyreward.engine.no_main import NoMainProcess, children_allowed

        self.conn, child = ctx.Pipe(duplex=True)
        self.start = ItemStart(ctx)
        process_class = NoMainProcess if ctx.get_start_method() == "forkserver" else ctx.Process
        self.process = process_class(target=worker_main, args=(child, memory_limit_mb, self.start), daemon=True)
        with children_allowed():
            self.process.start()
        child.close()
        self.ready = False
        self.task: Task | None = None
        self.cpu_base = 0.0  # the worker's own CPU seconds when it reported last (before its next item loads)

    def item_cpu(self, task: Task, cpu_now: float) -> tuple[float, bool]:
        """The CPU seconds ``task`` has used at ``cpu_now`` (the worker's own), and whether its message is still
        loading (its imports run, charged to no item)."""
        number, began = self.start.read()
        if number == task.number:
            return max(0.0, cpu_now - began), False
        return max(0.0, cpu_now - self.cpu_base), number == LOADING

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.join(timeout=5)
        finally:
            self.conn.close()


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100


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
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except (IndexError, ValueError):
        return None


@dataclass
class Task:
    """An item in flight on a worker: when it started, when to look at its CPU time next, whether it is a retry."""

    slot: int
    started: float
    next_check: float
    wall_deadline: float
    retry: bool = False
    cpu_used: float = 0.0  # the item's own, since it was loaded
    cpu_since_sent: float = 0.0  # with the loading (imports) of its message
    number: float = 0.0  # the item's number in its message (:class:`ItemStart`)
