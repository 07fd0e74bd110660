"""The reward server's scoring slots: one child process each, killed and replaced when a request runs out of time.

``polyreward serve``'s event loop never runs a reward. Each *slot* is a child process
(``python -m polyreward.runners.server_slots``) that builds the config's rewards once (with their own engine
worker pool) and then answers one request at a time: it parses the body, checks it, scores it and encodes the
answer (:mod:`polyreward.runners.server_routes`); the front only moves bytes. A request that overruns the
server's ``request_timeout`` gets its bounded answer from the front at once, and the slot's whole process group
(the child, its forkserver and engine workers) is killed with SIGKILL, so nothing keeps computing; a fresh child
takes the slot, which is free again once that child has built its rewards. A regular expression holding the GIL
or a parser stuck in C code therefore costs one slot for ``request_timeout`` plus a restart, never the server.

Wire format on the child's stdin/stdout (the child's own prints go to stderr): frames of
``struct("!II")`` = (header length, body length), a JSON header, then the body bytes. The parent sends a
pickled start-up spec (its own config object, never data from a client) once, then requests
``{"route"}`` + raw body; the child answers ``{"kind": "ready", "contract"}`` (or ``"failed"``) once, then per
request ``{"kind": "answer", "status"}`` + the JSON body. Once it has parsed a request's body the child also
writes the row count (``struct("!I")``) on a side pipe (its descriptor number is the child's one argument) that
the parent reads only when a request fails or runs out of time: a frame for it on stdout would wake the front in
the middle of every request. The parent never unpickles anything from a child.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

from polyreward.runners import allocator

FRAME = struct.Struct("!II")
ROWS = struct.Struct("!I")  # a request's row count on the side pipe (4 bytes: one atomic pipe write)
WRITEV_PIECES = 512
PIPE_BYTES = 1 << 20  # the unprivileged maximum on Linux (/proc/sys/fs/pipe-max-size)
MMAP_KEEP_BYTES = 16 << 20  # keep_freed_memory: blocks up to this size come from the reusable heap
TRIM_KEEP_BYTES = 64 << 20  # keep_freed_memory: free heap top kept before it is given back to the system


def write_frame(stream: IO[bytes], head: dict[str, Any], body: bytes = b"") -> None:
    """One frame in one write: the reader wakes once for it, not once for the header and again for the body."""
    header = json.dumps(head).encode()
    stream.write(b"".join((FRAME.pack(len(header), len(body)), header, body)))
    stream.flush()


def keep_freed_memory() -> None:
    """Have glibc's allocator keep freed memory for reuse instead of giving it back to the system at once
    (:func:`polyreward.runners.allocator.keep_freed_memory`).

    Each request moves its body (hundreds of KB) through several buffers in the front and the slot; by default
    glibc serves blocks over 128 KiB with a fresh ``mmap`` and trims the heap as soon as its top is free, so every
    such buffer is new memory, faulted in page by page (measured here: copying a 426 KB body into a new buffer
    and out again, 240 µs; with the memory kept, 40 µs). Blocks of up to ``MMAP_KEEP_BYTES`` are served from the
    heap, and up to ``TRIM_KEEP_BYTES`` of free heap top is kept: a server holds at most that much more memory.
    Without glibc (another libc or OS) nothing changes."""
    allocator.keep_freed_memory(MMAP_KEEP_BYTES, TRIM_KEEP_BYTES)


def widen_pipe(stream: IO[bytes]) -> None:
    """Give the pipe ``PIPE_BYTES`` of buffer (Linux ``F_SETPIPE_SZ``) so a request body or an answer of up to that
    size crosses in one write and one wake-up of the reader, instead of one per 64 KiB (the default); kept as it is
    where the system refuses (another OS, or the user's pipe budget spent)."""
    try:
        import fcntl

        fcntl.fcntl(stream.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass


def read_frame(stream: IO[bytes]) -> tuple[dict[str, Any], bytes]:
    """The next frame; EOFError when the other side is gone."""
    prefix = stream.read(FRAME.size)
    if len(prefix) < FRAME.size:
        raise EOFError("the other end of the slot pipe closed")
    head_len, body_len = FRAME.unpack(prefix)
    head = stream.read(head_len)
    body = stream.read(body_len) if body_len else b""
    if len(head) < head_len or len(body) < body_len:
        raise EOFError("the other end of the slot pipe closed mid-frame")
    return json.loads(head), body


class SlotStartError(RuntimeError):
    """A slot process could not build the config's rewards (the message is the child's one line)."""


class SlotDied(RuntimeError):
    """The slot process ended while a request was in it (killed at the deadline, or crashed)."""


class SlotProcess:
    """One scoring child process: started with blocking calls on the slot's own thread, asked on the event loop.

    The parent's two pipe ends are plain file descriptors that this object alone closes, once: requests read and
    write them with ``os.read``/``os.write`` and the loop's ``add_reader``/``add_writer``, never an asyncio pipe
    transport. A transport owns its descriptor and closes it on the loop some time after it is told to (uvloop's
    closes it twice), while the slot's thread may already be creating the next child's pipes, which reuse the freed
    numbers: the late close then cut the new child's pipes and the slot never came back (a CI failure)."""

    def __init__(self, spec: bytes) -> None:
        self.spec = spec
        self.proc: subprocess.Popen | None = None
        self.contract: dict[str, Any] = {}
        self._accepted_rows: int | None = None  # rows of the request in flight, once the child has parsed it
        self.starts = 0
        self._in_request: subprocess.Popen | None = None  # the child a request is reading or writing right now

    def start(self) -> dict[str, Any]:
        """Start the child and wait until it has built the rewards; its contract, or SlotStartError."""
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        rows_read, rows_write = os.pipe()
        try:
            self.proc = proc = subprocess.Popen([sys.executable, "-m", "polyreward.runners.server_slots", str(rows_write)],
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True,
                                                pass_fds=(rows_write,))
        except BaseException:
            os.close(rows_read)
            raise
        finally:
            os.close(rows_write)
        os.set_blocking(rows_read, False)
        proc.rows_fd = rows_read  # type: ignore[attr-defined]  # closed with the other pipes (_close_pipes)
        self.starts += 1
        for stream in (proc.stdin, proc.stdout):
            widen_pipe(stream)
        try:
            write_frame(proc.stdin, {"kind": "spec"}, self.spec)
            head, _ = read_frame(proc.stdout)
        except (EOFError, OSError):
            self.kill()
            raise SlotStartError("a scoring slot process exited while building the rewards (see its stderr above)") from None
        if head.get("kind") != "ready":
            self.kill()
            raise SlotStartError(str(head.get("error", "a scoring slot process could not start")))
        for stream in (proc.stdin, proc.stdout):  # from here on read and written with os.read/os.write on the loop
            os.set_blocking(stream.fileno(), False)  # (the buffered reader holds nothing: the child waits for a request)
        self.contract = head["contract"]
        return self.contract

    @property
    def accepted_rows(self) -> int | None:
        """The rows of the request in flight once the child has parsed its body (None before: the request may go to
        another slot). The child reports them on a side pipe that nobody waits on, so the front is not woken in the
        middle of every request's scoring to read them; they are read here, only when a request fails."""
        self._take_rows(self.proc)
        return self._accepted_rows

    def _take_rows(self, proc: subprocess.Popen | None) -> None:
        fd = getattr(proc, "rows_fd", None)
        if fd is None:
            return
        try:
            unread = os.read(fd, 1 << 16)
        except (BlockingIOError, OSError):
            return
        if len(unread) >= ROWS.size:
            (self._accepted_rows,) = ROWS.unpack_from(unread, len(unread) - len(unread) % ROWS.size - ROWS.size)

    async def request(self, route: str, body: bytes | Sequence[bytes]) -> tuple[int, bytes]:
        """(status, JSON body) of one request, on the event loop (non-blocking pipes: no thread hop per request, which
        cost milliseconds of wake-up and GIL hand-over on a loaded host); SlotDied when the child ends first. ``body``
        may be the pieces it arrived in: they are written as they are (``os.writev``), not joined into a copy."""
        proc = self.proc
        self._take_rows(proc)  # the previous request's count, still unread: dropped
        self._accepted_rows = None
        if proc is None or proc.stdout is None or proc.stdout.closed:
            raise SlotDied("the scoring slot process ended before answering")
        self._in_request = proc
        try:
            pieces = [body] if isinstance(body, (bytes, bytearray, memoryview)) else list(body)
            header = json.dumps({"kind": "request", "route": route}).encode()
            await self._write(proc, [FRAME.pack(len(header), sum(map(len, pieces))), header, *pieces])
            unread = bytearray()  # this request's bytes read from the child and not yet taken (none are left at its end:
            head, payload = await self._read_frame(proc, unread)  # the child writes nothing until the next request)
            if head.get("kind") == "accepted":  # a child started without the side pipe reports here
                self._accepted_rows = int(head["rows"])
                head, payload = await self._read_frame(proc, unread)
        except (EOFError, OSError, ValueError):
            self._take_rows(proc)  # before the pipes close: whether the child had parsed this request
            raise SlotDied("the scoring slot process ended before answering") from None
        finally:
            self._in_request = None
            if self.proc is not proc or proc.returncode is not None:  # killed meanwhile: its pipes are closed here
                _close_pipes(proc)
        return int(head["status"]), payload

    async def _write(self, proc: subprocess.Popen, pieces: list[bytes]) -> None:
        """Write ``pieces`` one after the other with gathering writes (a body of up to the pipe's size: one call)."""
        fd = proc.stdin.fileno()
        if len(pieces) > WRITEV_PIECES:  # more pieces than one writev takes (IOV_MAX is 1024 on Linux)
            pieces = [b"".join(pieces)]
        views = [memoryview(piece) for piece in pieces if piece]
        while views:
            try:
                written = os.writev(fd, views)
            except BlockingIOError:
                await _ready(fd, writable=True)
                continue
            while written:  # drop what went out; the rest of a piece written in part stays first
                if written >= len(views[0]):
                    written -= len(views.pop(0))
                else:
                    views[0], written = views[0][written:], 0

    async def _read_exactly(self, proc: subprocess.Popen, unread: bytearray, size: int) -> bytes:
        fd = proc.stdout.fileno()
        while len(unread) < size:
            try:
                chunk = os.read(fd, max(size - len(unread), 1 << 16))
            except BlockingIOError:
                await _ready(fd, writable=False)
                continue
            if not chunk:
                raise EOFError("the slot process closed its end of the pipe")
            unread += chunk
        taken = bytes(unread[:size])
        del unread[:size]
        return taken

    async def _read_frame(self, proc: subprocess.Popen, unread: bytearray) -> tuple[dict[str, Any], bytes]:
        head_len, body_len = FRAME.unpack(await self._read_exactly(proc, unread, FRAME.size))
        head = await self._read_exactly(proc, unread, head_len)
        return json.loads(head), (await self._read_exactly(proc, unread, body_len) if body_len else b"")

    def alive(self) -> bool:
        """Whether the child is running (False once it exited or was killed, e.g. from outside the server)."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the child's whole process group (its forkserver and engine workers too). Its pipes are closed now,
        or by the request still waiting on them once it has seen the end (it stops watching them first)."""
        proc = self.proc
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        if self._in_request is not proc:
            _close_pipes(proc)


async def _ready(fd: int, *, writable: bool) -> None:
    """Wait until ``fd`` can be read (or written) without blocking; the loop stops watching it before this returns,
    so the descriptor may be closed right after."""
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    watch, unwatch = (loop.add_writer, loop.remove_writer) if writable else (loop.add_reader, loop.remove_reader)
    watch(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        unwatch(fd)


def _close_pipes(proc: subprocess.Popen) -> None:
    for stream in (proc.stdin, proc.stdout):
        try:
            stream.close()
        except OSError:
            pass
    fd, proc.rows_fd = getattr(proc, "rows_fd", None), None  # type: ignore[attr-defined]
    if fd is not None:
        os.close(fd)


class Slot:
    """A slot process plus the one thread that starts (and restarts) it, so its blocking start-up never runs on the
    event loop; requests go over non-blocking pipes on the loop (:meth:`SlotProcess.request`)."""

    def __init__(self, spec: bytes) -> None:
        self.process = SlotProcess(spec)
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="polyreward-slot")
        self.restarting = False

    def restart(self, on_ready) -> None:
        """Kill the child now; a new one is built on the slot's thread, then ``on_ready(self)`` is called there."""
        self.restarting = True
        self.process.kill()

        def rebuild() -> None:
            delay = 0.5
            while True:
                try:
                    self.process.start()
                    break
                except SlotStartError:  # e.g. a transient resource shortage: keep trying, the slot stays out of use
                    time.sleep(delay)
                    delay = min(delay * 2, 30.0)
            self.restarting = False
            on_ready(self)

        self.thread.submit(rebuild)

    def close(self) -> None:
        self.process.kill()
        self.thread.shutdown(wait=False, cancel_futures=True)


def start_slots(spec: bytes, count: int) -> list[Slot]:
    """``count`` slots started in parallel; SlotStartError (after stopping them all) if any cannot build the rewards.

    Each child is started from its slot's own long-lived thread: Linux delivers the parent-death signal
    (:func:`_die_with_parent`) when the *thread* that forked the child ends, not only the process."""
    slots = [Slot(spec) for _ in range(count)]
    starts = [slot.thread.submit(slot.process.start) for slot in slots]
    errors = [future.exception() for future in starts]
    failed = next((exc for exc in errors if exc is not None), None)
    if failed is not None:
        for slot in slots:
            slot.close()
        raise failed if isinstance(failed, SlotStartError) else SlotStartError(str(failed))
    return slots


# ------------------------------------------------------------------------------------------------ the child


def _die_with_parent() -> None:
    """Linux: SIGKILL this process when the server process dies (it is in a session of its own)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def child_main() -> int:
    _die_with_parent()
    keep_freed_memory()
    requests = sys.stdin.buffer
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a reward's print() must not corrupt the frames
    sys.stdout = sys.stderr
    head, spec = read_frame(requests)
    try:
        from polyreward.runners.server_routes import SlotScorer

        scorer = SlotScorer(**pickle.loads(spec))
    except Exception as exc:  # the config's rewards cannot be built here: one line for the operator
        write_frame(answers, {"kind": "failed", "error": f"{type(exc).__name__}: {exc}"[:2000]})
        return 2
    rows_fd = int(sys.argv[1]) if len(sys.argv) > 1 else None
    if rows_fd is None:
        def accepted(n: int) -> None:
            write_frame(answers, {"kind": "accepted", "rows": n})
    else:
        def accepted(n: int) -> None:
            os.write(rows_fd, ROWS.pack(min(n, 0xFFFFFFFF)))
    write_frame(answers, {"kind": "ready", "contract": scorer.contract()})
    while True:
        try:
            head, body = read_frame(requests)
        except EOFError:
            return 0
        status, payload = scorer.handle(head["route"], body, accepted)
        write_frame(answers, {"kind": "answer", "status": status}, payload)


if __name__ == "__main__":
    sys.exit(child_main())
