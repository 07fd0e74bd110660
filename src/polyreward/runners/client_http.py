"""The reward client's HTTP/1.1: blocking sockets in the calling thread, keep-alive, a total deadline per exchange.

:class:`~polyreward.runners.client.RewardClient` sends one request per shard and waits for its answer. Done here
on the thread that asked (h11 for the framing, a plain socket for the bytes) instead of on an event loop in a
thread of its own, a batch wakes one thread when the answer arrives, not an I/O thread and then the caller (on a
loaded host each wake-up waits for a core), and skips a general-purpose client's layers.

- **deadline**: every connect, send and read of one exchange gets what is left of one total budget (the socket's
  timeout is set to the time left before each call), so a server that trickles its headers or body is cut off at
  the deadline, not reset by every byte: :class:`TimeoutError`.
- **keep-alive**: a connection whose answer was complete and not marked ``Connection: close`` goes back to the
  pool of its origin (a process forked from the client's leaves the parent's connections alone). One that became readable while idle (the server closed it, e.g. ``polyreward serve``'s
  header timeout) is dropped before use; a reused connection that fails before any byte of the answer arrived
  is replaced by a fresh one once, for the same exchange (the routes are stateless: sending again is safe).
- **errors**: :class:`ConnectError` (refused, unreachable, DNS), :class:`RemoteProtocolError` (a malformed or
  cut answer), :class:`TimeoutError`, other :class:`OSError` (reset).
- ``http://`` and ``https://`` (the system's trust store, :func:`ssl.create_default_context`); the connection goes
  to the URL's host itself (``HTTP_PROXY`` and the like are not read: put a reverse proxy's URL in the list).
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

READ_BYTES = 1 << 18


class ConnectError(OSError):
    """No connection to the server (refused, unreachable, name not resolved, or no connection before the deadline)."""


class RemoteProtocolError(OSError):
    """The server's bytes are not a well-formed HTTP/1.1 answer, or the connection ended in the middle of one."""


class _Stale(Exception):
    """A reused keep-alive connection failed before any byte of the answer: the exchange may go on a fresh one."""


@dataclass(frozen=True)
class Origin:
    scheme: str
    host: str
    port: int
    prefix: str  # the URL's path, put in front of every route ("" for none)
    authority: str  # the Host header

    @classmethod
    def parse(cls, url: str) -> Origin:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        authority = parts.netloc.rpartition("@")[2]
        return cls(parts.scheme, parts.hostname, port, parts.path.rstrip("/"), authority)


@dataclass
class Answer:
    status: int
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


class _Connection:
    def __init__(self, sock: socket.socket) -> None:
        import h11

        self.sock, self.http = sock, h11.Connection(h11.CLIENT)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("deadline passed")
    return left


class HTTPPool:
    """Keep-alive connections per origin, shared by the threads of one client (:meth:`exchange` is thread-safe)."""

    def __init__(self, user_agent: str = "polyreward") -> None:
        self._idle: dict[Origin, list[_Connection]] = {}
        self._lock = threading.Lock()
        self._ssl = None
        self._pid = os.getpid()
        self.user_agent = user_agent
        self.closed = False

    def exchange(self, origin: Origin, method: str, route: str, body: bytes, headers: dict[str, str], timeout: float) -> Answer:
        """One request and its whole answer within ``timeout`` seconds (see the module docstring for the errors)."""
        deadline = time.monotonic() + timeout
        connection = self._take(origin)
        if connection is not None:
            try:
                return self._round_trip(connection, origin, method, route, body, headers, deadline, reused=True)
            except _Stale:
                pass
        return self._round_trip(self._connect(origin, deadline), origin, method, route, body, headers, deadline, reused=False)

    def close(self) -> None:
        with self._lock:
            self.closed = True
            idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                connection.close()

    def _take(self, origin: Origin) -> _Connection | None:
        if os.getpid() != self._pid:  # a forked copy of the client: the parent's sockets stay the parent's
            with self._lock:
                self._idle, self._pid = {}, os.getpid()
        while True:
            with self._lock:
                pool = self._idle.get(origin)
                if not pool:
                    return None
                connection = pool.pop()
            try:  # readable while idle: the server closed it (or sent what nobody asked for): not reusable
                readable = select.select([connection.sock], [], [], 0)[0]
            except (OSError, ValueError):
                readable = True
            if not readable:
                return connection
            connection.close()

    def _give_back(self, origin: Origin, connection: _Connection) -> None:
        with self._lock:
            if not self.closed:
                self._idle.setdefault(origin, []).append(connection)
                return
        connection.close()

    def _connect(self, origin: Origin, deadline: float) -> _Connection:
        try:
            sock = socket.create_connection((origin.host, origin.port), timeout=_left(deadline))
        except TimeoutError:
            raise
        except OSError as exc:
            raise ConnectError(str(exc)) from None
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if origin.scheme == "https":
                if self._ssl is None:
                    import ssl

                    self._ssl = ssl.create_default_context()
                sock.settimeout(_left(deadline))
                sock = self._ssl.wrap_socket(sock, server_hostname=origin.host)
        except BaseException:
            sock.close()
            raise
        return _Connection(sock)

    def _round_trip(self, connection: _Connection, origin: Origin, method: str, route: str, body: bytes,
                    headers: dict[str, str], deadline: float, reused: bool) -> Answer:
        import h11

        http, sock = connection.http, connection.sock
        fields = [("Host", origin.authority), ("User-Agent", self.user_agent), ("Content-Length", str(len(body))),
                  *headers.items()]
        started = False  # whether any byte of the answer arrived
        try:
            pieces = [http.send(h11.Request(method=method, target=origin.prefix + route, headers=fields)),
                      http.send(h11.Data(data=body)) if body else b"", http.send(h11.EndOfMessage())]
            try:
                _send_pieces(sock, pieces, deadline)
            except (BrokenPipeError, ConnectionResetError):
                if reused:
                    raise _Stale from None
                raise
            status, pieces = 0, []
            while True:
                event = http.next_event()
                if event is h11.NEED_DATA:
                    sock.settimeout(_left(deadline))
                    try:
                        data = sock.recv(READ_BYTES)
                    except ConnectionResetError:
                        if reused and not started:
                            raise _Stale from None
                        raise
                    if not data and reused and not started:
                        raise _Stale
                    started = started or bool(data)
                    http.receive_data(data)
                elif isinstance(event, h11.Response):
                    status = event.status_code
                elif isinstance(event, h11.Data):
                    pieces.append(bytes(event.data))
                elif isinstance(event, h11.EndOfMessage):
                    break
                elif isinstance(event, h11.ConnectionClosed):
                    raise RemoteProtocolError("the server closed the connection without an answer")
                # h11.InformationalResponse (100 Continue): wait for the real answer
        except h11.RemoteProtocolError as exc:
            connection.close()
            raise RemoteProtocolError(f"malformed answer: {exc}") from None
        except BaseException:
            connection.close()
            raise
        if http.our_state is h11.DONE and http.their_state is h11.DONE:
            http.start_next_cycle()
            self._give_back(origin, connection)
        else:
            connection.close()
        return Answer(status, pieces[0] if len(pieces) == 1 else b"".join(pieces))


def _send_pieces(sock: socket.socket, pieces: list[bytes], deadline: float) -> None:
    """Send ``pieces`` one after the other with gathering writes (``sendmsg``) before ``deadline``: the request's
    head and its body of hundreds of KB go out without being joined into a copy first (TLS: one joined buffer)."""
    sock.settimeout(_left(deadline))
    if type(sock) is not socket.socket or not hasattr(sock, "sendmsg"):
        sock.sendall(b"".join(pieces))
        return
    views = [memoryview(piece) for piece in pieces if piece]
    while views:
        sent = sock.sendmsg(views)
        if sent < sum(map(len, views)):
            sock.settimeout(_left(deadline))
        while sent:  # drop what went out; the rest of a piece sent in part stays first
            if sent >= len(views[0]):
                sent -= len(views.pop(0))
            else:
                views[0], sent = views[0][sent:], 0
