"""Small real HTTP servers on 127.0.0.1 for judge tests: scripted chat completions, rate limiting,
trickling bodies. Standard library ``http.server`` only.

Run as a script to serve in a separate process (so a test can ``kill -9`` it mid-batch)::

    python tests/judge_stubs.py --delay 0.05 --log requests.txt     # prints the port, then serves

Every request's arrival time (``time.time()``) is kept in ``server.arrivals`` (and appended to
``--log`` when serving as a script), so tests count requests per second as the server saw them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = Callable[[dict], str]


class QuietHandler(BaseHTTPRequestHandler):
    """The stub servers' request handler base: HTTP/1.1 keep-alive, no access log, the request's JSON body."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def json_body(self):
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))


class Gauge:
    """Requests in flight now and at most, over one server or several sharing the gauge."""

    def __init__(self) -> None:
        self.now = self.peak = 0
        self._lock = threading.Lock()

    def __enter__(self) -> Gauge:
        with self._lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        return self

    def __exit__(self, *exc) -> None:
        with self._lock:
            self.now -= 1

_SINGLE = re.compile(r"assistant: (.*?)\n\n# Rubric item\n\[-?[\d.]+\] (.*?)\n\n# Answer format", re.DOTALL)


def completion_body(content: str, prompt_tokens: int = 10, completion_tokens: int = 5) -> bytes:
    return json.dumps({
        "id": "stub", "object": "chat.completion", "model": "stub",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
    }).encode()


def word_grader(body: dict) -> str:
    """Met when the criterion's last word occurs in the response (the rubric single-item prompt)."""
    prompt = body["messages"][0]["content"]
    found = _SINGLE.search(prompt)
    met = bool(found) and found.group(2).rstrip(".").split()[-1].lower() in found.group(1).lower()
    return json.dumps({"explanation": "stub", "criteria_met": met})


class StubServer:
    """A chat-completions server: ``answer(body) -> content``; ``delay`` seconds per request;
    ``rate_limit_first`` requests answered 429 with ``Retry-After: retry_after``; ``usage_tokens`` as
    the total reported in ``usage``; requests in flight counted in ``in_flight`` and any shared ``gauges``."""

    def __init__(self, answer: Answer = word_grader, delay: float = 0.0, rate_limit_first: int = 0,
                 retry_after: str = "1", usage_tokens: int = 15, port: int = 0, gauges: tuple[Gauge, ...] = ()) -> None:
        self.answer, self.delay = answer, delay
        self.in_flight = Gauge()
        self.gauges = (self.in_flight, *gauges)
        self.rate_limit_first, self.retry_after, self.usage_tokens = rate_limit_first, retry_after, usage_tokens
        self.arrivals: list[float] = []
        self.statuses: list[int] = []
        self.authorizations: list[str | None] = []
        self.on_arrival: Callable[[float], None] | None = None
        self._lock = threading.Lock()
        server = self

        class Handler(QuietHandler):
            def do_POST(self):  # noqa: N802
                body = self.json_body()
                server.authorizations.append(self.headers.get("Authorization"))
                for gauge in server.gauges:
                    gauge.__enter__()
                try:
                    status, payload, headers = server.respond(body)
                    if server.delay:
                        time.sleep(server.delay)
                finally:
                    for gauge in server.gauges:
                        gauge.__exit__()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def respond(self, body: dict) -> tuple[int, bytes, dict[str, str]]:
        now = time.time()
        with self._lock:
            self.arrivals.append(now)
            limited = len(self.arrivals) <= self.rate_limit_first
            self.statuses.append(429 if limited else 200)
        if self.on_arrival is not None:
            self.on_arrival(now)
        if limited:
            return 429, b'{"error": {"message": "slow down", "type": "rate_limit"}}', {"Retry-After": self.retry_after}
        half = self.usage_tokens // 2
        return 200, completion_body(self.answer(body), half, self.usage_tokens - half), {}

    def start(self) -> StubServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class TrickleServer:
    """Answers 200 with a valid chat completion, but sends it one byte every ``interval`` seconds:
    ``mode="body"`` sends the headers at once and trickles the body, ``mode="headers"`` trickles
    everything from the status line on."""

    def __init__(self, mode: str = "body", interval: float = 0.5) -> None:
        self.mode, self.interval = mode, interval
        self.stop = threading.Event()
        server = self

        class Handler(QuietHandler):
            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                payload = completion_body(json.dumps({"criteria_met": True}))
                head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n").encode()
                data = payload if server.mode == "body" else head + payload
                try:
                    if server.mode == "body":
                        self.wfile.write(head)
                        self.wfile.flush()
                    for i in range(len(data)):
                        if server.stop.wait(server.interval):
                            return
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                except OSError:
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--log", default=None, help="append each request's arrival time to this file")
    args = parser.parse_args()
    server = StubServer(delay=args.delay)
    if args.log:
        log = open(args.log, "a", buffering=1)
        server.on_arrival = lambda t: log.write(f"{t}\n")
    print(server.port, flush=True)
    server.httpd.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
