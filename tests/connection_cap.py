"""The connection-cap check both HTTP servers' hostile-client tests make (``test_server_hostile.py``: the reward
server; ``test_serve_judge_security.py``: the judge server)."""

from __future__ import annotations

import socket
import time

import httpx


def assert_over_the_cap_closed_on_arrival(url: str, cap: int) -> None:
    """With ``cap`` connections to the server at ``url`` held open, one more is closed on arrival (it reads nothing
    back, or its request is refused); once the held ones close, the server serves ``/health`` again."""
    host, port = url.removeprefix("http://").split(":")
    held = [socket.create_connection((host, int(port)), timeout=10) for _ in range(cap)]
    try:
        time.sleep(0.3)
        extra = socket.create_connection((host, int(port)), timeout=10)
        try:
            extra.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert extra.recv(100) == b""
        except (BrokenPipeError, ConnectionResetError):
            pass
        extra.close()
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.5)
    assert httpx.get(f"{url}/health", timeout=10).status_code == 200
