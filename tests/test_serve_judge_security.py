"""``polyreward serve-judge`` follows the reward server's security rules, against a real subprocess on 127.0.0.1
serving the tiny random Qwen2 (real tokenizer): loopback by default and a token (or a printed trust mode) on any
other interface; the token on every route but ``/health``, any case of ``Bearer``, UTF-8 bytes; the body size
enforced for every framing (negative, missing, lying or over-limit Content-Length, chunked); header and body
deadlines; a connection cap."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("transformers")

from connection_cap import assert_over_the_cap_closed_on_arrival  # noqa: E402

TOKEN = "judge-t\u00f6ken"  # non-ASCII on purpose: compared as UTF-8 bytes


def start_judge(*args: str, token: str | None = TOKEN) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if k != "POLYREWARD_JUDGE_TOKEN"}
    if token is not None:
        env["POLYREWARD_JUDGE_TOKEN"] = token
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve-judge", "--model", "tiny-qwen2", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    match = re.search(r"at (http://\S+)/v1", line)
    if not match:
        proc.kill()
        raise AssertionError(f"serve-judge did not start: {line!r} {proc.stderr.read()}")
    return proc, match.group(1)


@pytest.fixture(scope="module")
def judge(tiny_qwen2_dir):
    proc, url = start_judge("--header-timeout", "1.5", "--body-timeout", "1.5", "--max-body-bytes", "20000", "--max-connections", "6")
    yield url
    proc.terminate()
    proc.wait(20)


def raw(url: str, data: bytes, *, token: str | None = TOKEN, wait: float = 20) -> bytes:
    """Send ``data`` after the request line's headers (auth added) and read until the server closes or ``wait`` passes."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=wait)
    head = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
    if token is not None:
        head += b"Authorization: Bearer " + token.encode() + b"\r\n"
    sock.sendall(head + data)
    reply = b""
    try:
        while chunk := sock.recv(65536):
            reply += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    sock.close()
    return reply


CHAT = b'{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2}'
AUTH = {"Authorization": f"Bearer {TOKEN}".encode()}


def test_beyond_loopback_without_a_token_is_refused_before_the_model_loads():
    env = {k: v for k, v in os.environ.items() if k != "POLYREWARD_JUDGE_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "polyreward", "serve-judge", "--model", "tiny-qwen2", "--host", "0.0.0.0", "--port", "0"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "POLYREWARD_JUDGE_TOKEN" in done.stderr and done.stderr.count("\n") == 1


def test_the_token_guards_every_route_but_health(judge):
    assert httpx.get(f"{judge}/health").json() == {"status": "ok"}
    assert httpx.get(f"{judge}/v1/models").status_code == 401
    assert httpx.post(f"{judge}/v1/chat/completions", content=CHAT, headers={"Authorization": "Bearer wrong"}).status_code == 401
    for scheme in (b"bearer", b"BEARER"):
        assert httpx.get(f"{judge}/v1/models", headers={"Authorization": scheme + b" " + TOKEN.encode()}).status_code == 200
    reply = httpx.post(f"{judge}/v1/chat/completions", content=CHAT, headers=AUTH, timeout=60)
    assert reply.status_code == 200 and reply.json()["object"] == "chat.completion"


@pytest.mark.parametrize("framing, status", [
    (b"Content-Length: -1\r\n\r\n" + CHAT, b"400"),
    (b"Content-Length: 314572800\r\n\r\n" + CHAT, b"413"),  # 300 MiB declared: refused before reading
    (b"Content-Length: 12\r\nContent-Length: 13\r\n\r\n" + CHAT, b"400"),
    (b"\r\n" + CHAT, b"411"),  # no Content-Length, not chunked
    (b"Transfer-Encoding: chunked\r\n\r\n" + b"".join(b"3e8\r\n" + b"x" * 1000 + b"\r\n" for _ in range(30)), b"413"),
    (b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n", b"400"),
    (b"Content-Length: 10000\r\n\r\n" + CHAT, b"408"),  # lying: declares more than it sends
])
def test_the_body_size_holds_for_every_framing(judge, framing, status):
    reply = raw(judge, framing)
    assert reply.startswith(b"HTTP/1.1 " + status), reply[:200]
    assert b"connection: close" in reply.lower()


def test_a_chunked_body_within_the_limit_is_served(judge):
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (CHAT[:10], CHAT[10:]))
    reply = raw(judge, b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks + b"0\r\n\r\n", wait=60)
    assert reply.startswith(b"HTTP/1.1 200") and b"chat.completion" in reply


def test_slow_loris_headers_are_dropped_at_the_deadline(judge):
    host, port = judge.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.sendall(b"GET /v1/models HTTP/1.1\r\n")
    started, closed = time.perf_counter(), False
    try:
        while time.perf_counter() - started < 20:  # a byte every 0.2 s: a per-read timeout would never fire
            sock.sendall(b"X")
            time.sleep(0.2)
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    if not closed:
        sock.settimeout(5)
        closed = sock.recv(100) == b""
    sock.close()
    assert closed and time.perf_counter() - started < 15


def test_connections_over_the_cap_are_closed_on_arrival(judge):
    assert_over_the_cap_closed_on_arrival(judge, 6)


def test_no_token_trust_mode_is_printed(tiny_qwen2_dir):
    proc, url = start_judge("--no-token", token=None)
    try:
        assert httpx.get(f"{url}/v1/models").status_code == 200
    finally:
        proc.terminate()
        proc.wait(20)
    assert "WARNING: --no-token: anyone who can reach 127.0.0.1 may call this server" in proc.stderr.read()
