"""The reward client's own HTTP/1.1 (``polyreward.runners.client_http``) against real sockets on 127.0.0.1.

- one keep-alive connection carries request after request (the server sees one connection);
- a connection the server closed while it sat idle (``polyreward serve``'s header timeout) is replaced, and the
  shard is answered on the first attempt, not counted as a failure nor the server marked down;
- a server that trickles its *headers* one byte at a time is cut off at the total deadline (the body case is in
  ``test_client.py``);
- an answer cut in the middle of its body is a ``RemoteProtocolError``, never a short body taken as whole;
- chunked answers (a proxy's framing) are read whole; the URL's path is put in front of the route;
- a ``Connection: close`` answer is not reused.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

pytest.importorskip("h11")

from polyreward.runners.client_http import HTTPPool, Origin, RemoteProtocolError  # noqa: E402


class RawServer:
    """A one-thread-per-connection socket server: ``handle(conn, request_bytes) -> bool`` answers one request and
    says whether to keep the connection open; counts connections and records request lines."""

    def __init__(self, handle) -> None:
        self.handle, self.connections, self.lines = handle, 0, []
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        buffer = b""
        with conn:
            while True:
                while b"\r\n\r\n" not in buffer:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buffer += data
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
                while len(buffer) < length:
                    buffer += conn.recv(65536)
                body, buffer = buffer[:length], buffer[length:]
                self.lines.append(head.split(b"\r\n")[0].decode())
                try:
                    if not self.handle(conn, body):
                        return
                except OSError:
                    return

    def close(self) -> None:
        self.sock.close()


def ok(conn: socket.socket, body: bytes) -> bool:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    return True


def test_one_keep_alive_connection_carries_request_after_request():
    server = RawServer(ok)
    pool = HTTPPool()
    try:
        origin = Origin.parse(server.url + "/rm/")
        answers = [pool.exchange(origin, "POST", "/score", b"[%d]" % i, {}, 5) for i in range(5)]
        assert [a.content for a in answers] == [b"[%d]" % i for i in range(5)] and {a.status for a in answers} == {200}
        assert server.connections == 1 and server.lines == ["POST /rm/score HTTP/1.1"] * 5
    finally:
        pool.close()
        server.close()


def test_a_connection_closed_by_the_server_while_idle_is_replaced_without_a_failed_attempt(tmp_path):
    pytest.importorskip("fastapi")
    from polyreward.runners.client import RewardClient
    from test_server import TOKEN, start_server, stop

    proc, url = start_server(tmp_path, "--header-timeout", "0.5")
    try:
        with RewardClient(url, token=TOKEN, retries=0) as client:
            first = client.score_rows([{"prompt": "p", "completion": "yes 4", "answer": "4"}])
            time.sleep(1.5)  # the server closes the idle keep-alive connection after 0.5 s
            second = client.score_rows([{"prompt": "p", "completion": "yes 4", "answer": "4"}])
            assert client.attempts == 2 and client.unscored_rows == 0 and not client._down
        assert first.total.tolist() == second.total.tolist()
    finally:
        stop(proc)


def test_a_server_trickling_its_headers_is_cut_off_at_the_total_deadline():
    def trickle(conn, body):
        for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 10_000:
            conn.sendall(bytes([byte]))
            time.sleep(0.05)
        return False

    server = RawServer(trickle)
    pool = HTTPPool()
    try:
        started = time.perf_counter()
        with pytest.raises(TimeoutError):
            pool.exchange(Origin.parse(server.url), "POST", "/score", b"{}", {}, 1.0)
        assert time.perf_counter() - started < 3  # each byte came in time; the whole answer would take 500 s
    finally:
        pool.close()
        server.close()


def test_an_answer_cut_mid_body_is_an_error_and_chunked_answers_are_read_whole():
    def cut(conn, body):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"names\": ")
        conn.shutdown(socket.SHUT_WR)
        return False

    def chunked(conn, body):
        conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\n[1,\r\n2\r\n2]\r\n0\r\n\r\n")
        return False

    pool = HTTPPool()
    servers = [RawServer(cut), RawServer(chunked)]
    try:
        with pytest.raises(RemoteProtocolError):
            pool.exchange(Origin.parse(servers[0].url), "POST", "/score", b"{}", {}, 5)
        for _ in range(2):  # Connection: close: a new connection for the second request, nothing reused
            assert pool.exchange(Origin.parse(servers[1].url), "GET", "/contract", b"", {}, 5).content == b"[1,2]"
        assert servers[1].connections == 2
    finally:
        pool.close()
        for server in servers:
            server.close()


def test_a_url_that_is_not_http_is_refused_at_once():
    from polyreward.runners.client import RewardClient

    with pytest.raises(ValueError, match="not an http"):
        RewardClient("ftp://127.0.0.1:21")


def test_a_large_body_to_a_slow_reader_arrives_whole_and_a_stalled_reader_hits_the_deadline():
    """The head and the body go out with gathering writes that the kernel takes in part when the server reads
    slowly: every byte must arrive once and in order; a server that never reads costs the deadline, no more."""
    received = []

    def count(conn, body):  # RawServer reads 64 KiB at a time: the client's send buffer fills and sends go in part
        received.append(body)
        return ok(conn, b"%d" % len(body))

    server = RawServer(count)
    pool = HTTPPool()
    body = bytes(range(256)) * 12_289  # about 3 MB, not a multiple of any buffer size
    try:
        answer = pool.exchange(Origin.parse(server.url), "POST", "/score", body, {}, 20)
        assert answer.content == b"%d" % len(body) and received == [body]
    finally:
        pool.close()
        server.close()

    stalled = socket.create_server(("127.0.0.1", 0))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    pool = HTTPPool()
    try:
        started = time.perf_counter()
        with pytest.raises((TimeoutError, OSError)):
            pool.exchange(Origin.parse(f"http://127.0.0.1:{stalled.getsockname()[1]}"), "POST", "/score", body * 8, {}, 1.0)
        assert time.perf_counter() - started < 3
    finally:
        pool.close()
        stalled.close()
