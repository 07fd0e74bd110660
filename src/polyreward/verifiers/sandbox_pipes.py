"""The scorer's ends of a sandboxed run's pipes: each read or written in its own thread, so a program that never reads
its input or writes without end cannot block the scorer, and what it writes is kept only up to a cap."""

from __future__ import annotations

import os
import threading


class CappedReader:
    """Reads a descriptor in a thread up to ``cap`` bytes, then closes it (the writer gets EPIPE and stops)."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd, self.cap = fd, cap
        self.chunks: list[bytes] = []
        self.size = 0
        self.truncated = False
        self._closed = False
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while True:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    break
                room = self.cap - self.size
                self.chunks.append(chunk[:room])
                self.size += min(len(chunk), room)
                if len(chunk) > room:
                    self.truncated = True
                    break
        except OSError:
            pass
        finally:
            self.close()

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                try:
                    os.close(self.fd)
                except OSError:
                    pass

    @property
    def data(self) -> bytes:
        return b"".join(self.chunks)


class PipeWriter:
    """Writes ``data`` to a descriptor in a thread (a pipe holds 64 KB; the reader is the sandboxed program)."""

    def __init__(self, fd: int, data: bytes) -> None:
        self.fd = fd
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, args=(data,), daemon=True)
        self.thread.start()

    def _run(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view[:65536]):]
        except OSError:  # the program closed its end or died: the rest of the input is not needed
            pass
        finally:
            self.close()

    def close(self) -> None:
        with self._lock:
            fd, self.fd = self.fd, -1
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
