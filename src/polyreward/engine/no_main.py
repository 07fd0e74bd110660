"""Forkserver children that never re-run the caller's main module, and the fork hygiene they need.

The standard library's forkserver children import ``__main__`` again (``multiprocessing.spawn.prepare``), which in a
script without an ``if __name__ == "__main__":`` guard scores again and starts workers again, recursively; and a
script read from standard input has no file to import. So the preparation data sent to each child leaves the main
module out (:class:`NoMainPopen`); the price is that functions sent to the pool must live in an importable module,
and one defined in ``__main__`` is reported as an error naming it (:func:`polyreward.engine.worker.worker_main`).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import threading
from collections.abc import Iterator
from multiprocessing import context, forkserver, popen_forkserver, reduction, spawn, util
from typing import Any


def preparation_data_without_main(name: str) -> dict[str, Any]:
    data = spawn.get_preparation_data(name)
    data.pop("init_main_from_path", None)
    data.pop("init_main_from_name", None)
    return data


class NoMainPopen(popen_forkserver.Popen):
    """``multiprocessing.popen_forkserver.Popen._launch`` (CPython 3.9-3.13, unchanged) with the main
    module left out of the child's preparation data, so the child never re-runs the caller's script."""

    def _launch(self, process_obj: Any) -> None:
        prep_data = preparation_data_without_main(process_obj._name)
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


class NoMainProcess(context.ForkServerProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> NoMainPopen:
        return NoMainPopen(process_obj)


@contextlib.contextmanager
def children_allowed() -> Iterator[None]:
    """Let a daemonic process (a ``multiprocessing.Pool`` worker, e.g. ``datasets.map(num_proc=...)``) start workers.

    ``BaseProcess.start`` refuses children of a daemonic process because it would not outlive them; ours need
    not: a worker leaves its loop when its pipe to the parent closes (:func:`~polyreward.engine.worker.worker_main`),
    so none is orphaned. The flag is the one ``multiprocessing.process`` reads (``_config["daemon"]``, CPython 3.8-3.13)."""
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

