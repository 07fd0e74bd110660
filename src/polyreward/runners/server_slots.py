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
request ``{"kind": "accepted", "rows"}`` and ``{"kind": "answer", "status"}`` + the JSON body. The parent
never unpickles anything from a child.
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
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

FRAME = struct.Struct("!II")


def write_frame(stream: IO[bytes], head: dict[str, Any], body: bytes = b"") -> None:
    header = json.dumps(head).encode()
    stream.write(FRAME.pack(len(header), len(body)) + header)
    if body:
        stream.write(body)
    stream.flush()


async def read_frame_async(reader: asyncio.StreamReader) -> tuple[dict[str, Any], bytes]:
    """:func:`read_frame` from an asyncio stream; IncompleteReadError when the other side is gone."""
    head_len, body_len = FRAME.unpack(await reader.readexactly(FRAME.size))
    head = await reader.readexactly(head_len)
    body = await reader.readexactly(body_len) if body_len else b""
    return json.loads(head), body


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


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
    """One scoring child process: started with blocking calls on the slot's own thread, asked on the event loop."""

    def __init__(self, spec: bytes) -> None:
        self.spec = spec
        self.proc: subprocess.Popen | None = None
        self.contract: dict[str, Any] = {}
        self.accepted_rows: int | None = None  # rows of the request in flight, once the child has parsed it
        self.starts = 0
        self._pipes_of: subprocess.Popen | None = None  # the child whose pipes _pipe_transports hold
        self._pipe_transports: tuple[Any, Any] | None = None
        self._reader: asyncio.StreamReader | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> dict[str, Any]:
        """Start the child and wait until it has built the rewards; its contract, or SlotStartError."""
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen([sys.executable, "-m", "polyreward.runners.server_slots"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, start_new_session=True)
        self.starts += 1
        try:
            write_frame(self.proc.stdin, {"kind": "spec"}, self.spec)
            head, _ = read_frame(self.proc.stdout)
        except (EOFError, OSError):
            self.kill()
            raise SlotStartError("a scoring slot process exited while building the rewards (see its stderr above)") from None
        if head.get("kind") != "ready":
            self.kill()
            raise SlotStartError(str(head.get("error", "a scoring slot process could not start")))
        self.contract = head["contract"]
        return self.contract

    async def request(self, route: str, body: bytes) -> tuple[int, bytes]:
        """(status, JSON body) of one request, on the event loop (non-blocking pipes: no thread hop per request, which
        cost milliseconds of wake-up and GIL hand-over on a loaded host); SlotDied when the child ends first."""
        self.accepted_rows = None
        try:
            reader, writer = await self._pipes()
            header = json.dumps({"kind": "request", "route": route}).encode()
            writer.write(FRAME.pack(len(header), len(body)) + header)
            writer.write(body)
            head, payload = await read_frame_async(reader)
            if head.get("kind") == "accepted":
                self.accepted_rows = int(head["rows"])
                head, payload = await read_frame_async(reader)
        except (EOFError, OSError, ValueError, asyncio.IncompleteReadError):
            raise SlotDied("the scoring slot process ended before answering") from None
        return int(head["status"]), payload

    async def _pipes(self) -> tuple[asyncio.StreamReader, asyncio.WriteTransport]:
        """The running child's pipes as asyncio streams, connected on its first request (the child is started and its
        ready frame read with blocking calls on the slot's thread, before any event loop may run)."""
        proc = self.proc
        if self._pipes_of is not proc or self._pipe_transports is None:
            if proc is None or proc.stdout is None or proc.stdout.closed:
                raise EOFError("the slot process is gone")
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader(loop=loop)
            read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), proc.stdout)
            write_transport, _ = await loop.connect_write_pipe(asyncio.BaseProtocol, proc.stdin)
            self._pipes_of, self._pipe_transports, self._reader, self._loop = proc, (read_transport, write_transport), reader, loop
        return self._reader, self._pipe_transports[1]

    def alive(self) -> bool:
        """Whether the child is running (False once it exited or was killed, e.g. from outside the server)."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the child's whole process group (its forkserver and engine workers too)."""
        proc = self.proc
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        transports, self._pipe_transports = self._pipe_transports, None
        if transports is not None and self._pipes_of is proc and self._loop is not None and not _on_loop(self._loop):
            for transport in transports:  # they own the pipe files and the loop's selector entries: closed on their loop
                self._loop.call_soon_threadsafe(transport.close)
        else:
            for transport in transports or ():
                transport.close()  # on the loop: off the selector now, before the files close below
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        proc.wait()


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
    write_frame(answers, {"kind": "ready", "contract": scorer.contract()})
    while True:
        try:
            head, body = read_frame(requests)
        except EOFError:
            return 0
        status, payload = scorer.handle(head["route"], body, lambda n: write_frame(answers, {"kind": "accepted", "rows": n}))
        write_frame(answers, {"kind": "answer", "status": status}, payload)


if __name__ == "__main__":
    sys.exit(child_main())
