"""An OpenAI-compatible judge server for a local transformers model (``polyreward serve-judge``).

Standard library ``http.server`` (ThreadingHTTPServer, HTTP/1.1 keep-alive) plus transformers; no web
framework. Endpoints:

* ``POST /v1/chat/completions``: ``model``, ``messages`` (content as a string or text parts),
  ``max_tokens`` / ``max_completion_tokens`` (default 256), ``temperature`` (default 0 = greedy, so a
  judge is deterministic unless asked otherwise), ``top_p``, ``seed``, ``stop``. ``stream`` and ``n > 1``
  are refused with 400. Errors use OpenAI's ``{"error": {"message", "type", "code"}}`` body.
  ``guided_choice: ["yes", "no"]`` (vLLM's extension, sent through the ``openai`` judge's ``extra_body``)
  answers with the choice of highest log-probability instead of free generation: a small local judge
  then always gives a parseable verdict.
* ``GET /v1/models``: the one served model. ``GET /health``: ``{"status": "ok"}``.

Request threads put jobs on a queue; one worker thread takes up to ``max_batch`` queued jobs with the
same sampling settings and generates them as one left-padded batch, so concurrent clients (the
``openai`` judge's thread pool) share forward passes.

Security, the rules of ``polyreward serve`` (:mod:`polyreward.judges.access`): loopback by default; on any
other interface a bearer token (the ``openai`` judge sends its ``api_key_env`` value as one) or a trust mode
given on purpose; every route but ``/health`` checks it, constant-time on UTF-8 bytes. Every connection has
deadlines, not per-read timeouts: request headers must be complete ``header_timeout`` seconds after a request
starts (an idle keep-alive connection is closed then too), the body ``body_timeout`` seconds after its headers
(408). The body size is enforced whatever the framing: a negative, malformed or repeated ``Content-Length`` is
400, a POST without ``Content-Length`` or chunked encoding is 411, a declared or chunked body over
``max_body_bytes`` is 413 (read no further), a body shorter than declared ends at the body deadline (408);
every such answer closes the connection. At most ``max_connections`` connections are served at once (each
holds a thread); more are closed on arrival.
"""

from __future__ import annotations

import io
import json
import queue
import socket
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from polyreward.judges.access import Access
from polyreward.judges.local_lm import Generation, LocalLM, shared_lm
from polyreward.schema import content_text

MAX_BODY_BYTES = 8 * 1024 * 1024


class RequestError(Exception):
    def __init__(self, status: int, message: str, code: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status, self.message, self.code = status, message, code


@dataclass
class _Job:
    prompt: str
    settings: tuple[int, float, float, int | None, tuple[str, ...] | None]  # max_tokens, temperature, top_p, seed, choices
    done: threading.Event = field(default_factory=threading.Event)
    result: Generation | None = None
    error: str = ""


class _Batcher:
    """One worker thread turning queued jobs into batched ``generate`` calls."""

    def __init__(self, lm: LocalLM, max_batch: int, batch_wait: float) -> None:
        self.lm, self.max_batch, self.batch_wait = lm, max_batch, batch_wait
        self.jobs: queue.Queue[_Job | None] = queue.Queue()
        self._held: list[_Job] = []
        self.thread = threading.Thread(target=self._loop, name="judge-batcher", daemon=True)
        self.thread.start()

    def submit(self, job: _Job) -> None:
        self.jobs.put(job)

    def stop(self) -> None:
        self.jobs.put(None)

    def _next_batch(self) -> list[_Job] | None:
        """Up to ``max_batch`` jobs with the first job's settings; jobs with other settings wait their turn."""
        first = self._held.pop(0) if self._held else self.jobs.get()
        if first is None:
            for job in self._held:  # stopping: nobody will generate these
                job.error = "server stopping"
                job.done.set()
            return None
        batch = [first] + [j for j in self._held if j.settings == first.settings][: self.max_batch - 1]
        self._held = [j for j in self._held if not any(j is b for b in batch)]
        deadline = time.monotonic() + self.batch_wait
        while len(batch) < self.max_batch:
            try:
                job = self.jobs.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if job is None:
                self.jobs.put(None)
                break
            (batch if job.settings == first.settings else self._held).append(job)
        return batch

    def _loop(self) -> None:
        while (batch := self._next_batch()) is not None:
            max_tokens, temperature, top_p, seed, choices = batch[0].settings
            prompts = [j.prompt for j in batch]
            try:
                if choices:
                    results = self.lm.choose(prompts, choices, batch_size=len(batch))
                else:
                    results = self.lm.generate(prompts, max_tokens, temperature, top_p, seed, batch_size=len(batch))
                for job, result in zip(batch, results):
                    job.result = result
            except Exception as exc:  # report to every waiting request; the server keeps running
                for job in batch:
                    job.error = f"{type(exc).__name__}: {exc}"
            for job in batch:
                job.done.set()


def _number(body: Mapping[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = body.get(key, default)
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise RequestError(400, f"{key} must be a number in [{low}, {high}], got {value!r}")
    return float(value)


class JudgeServer:
    """Serve ``model_dir`` on ``host:port`` (port 0 = a free port). ``start()`` runs it in a thread."""

    def __init__(self, model_dir: str | Path, host: str = "127.0.0.1", port: int = 8000, served_model_name: str | None = None,
                 max_batch: int = 8, batch_wait: float = 0.005, device: str = "cpu", dtype: str = "auto",
                 request_timeout: float = 600.0, verbose: bool = False, access: Access | None = None,
                 header_timeout: float = 10.0, body_timeout: float = 30.0, max_body_bytes: int = MAX_BODY_BYTES,
                 max_connections: int = 64) -> None:
        self.lm: LocalLM = shared_lm(str(Path(model_dir).expanduser().resolve()), device, dtype)
        self.model_name = served_model_name or self.lm.name
        self.request_timeout, self.verbose = request_timeout, verbose
        self.access = access or Access()
        self.header_timeout, self.body_timeout, self.max_body_bytes = header_timeout, body_timeout, max_body_bytes
        self.batcher = _Batcher(self.lm, max_batch, batch_wait)
        self.httpd = _CappedHTTPServer((host, port), self._handler_class(), max_connections)
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        """The OpenAI base URL, ``http://host:port/v1``."""
        return f"http://{self.httpd.server_address[0]}:{self.port}/v1"

    def start(self) -> JudgeServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="judge-server", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.batcher.stop()

    def __enter__(self) -> JudgeServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- request handling -------------------------------------------------------------------------
    def complete(self, body: Any) -> dict[str, Any]:
        """The chat-completion response for a request body (raises RequestError for bad requests)."""
        if not isinstance(body, Mapping):
            raise RequestError(400, "the request body must be a JSON object")
        if body.get("model") not in (None, self.model_name):
            raise RequestError(404, f"model {body.get('model')!r} is not served here; available: {self.model_name!r}", "model_not_found")
        if body.get("stream"):
            raise RequestError(400, "stream=true is not supported by polyreward serve-judge")
        if body.get("n", 1) != 1:
            raise RequestError(400, "only n=1 is supported")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages or not all(isinstance(m, Mapping) and "role" in m for m in messages):
            raise RequestError(400, "messages must be a non-empty list of {role, content} objects")
        max_tokens = body.get("max_completion_tokens", body.get("max_tokens", 256))
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or not 1 <= max_tokens <= 32768:
            raise RequestError(400, f"max_tokens must be an integer in [1, 32768], got {max_tokens!r}")
        temperature = _number(body, "temperature", 0.0, 0.0, 2.0)
        top_p = _number(body, "top_p", 1.0, 0.0, 1.0)
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RequestError(400, f"seed must be an integer, got {seed!r}")
        stop = body.get("stop") or []
        stop = [stop] if isinstance(stop, str) else stop
        if not isinstance(stop, list) or not all(isinstance(s, str) and s for s in stop):
            raise RequestError(400, "stop must be a string or a list of strings")
        choices = body.get("guided_choice")
        if choices is not None and (not isinstance(choices, list) or not choices or not all(isinstance(c, str) and c for c in choices)):
            raise RequestError(400, "guided_choice must be a non-empty list of non-empty strings")
        chat = [{"role": str(m["role"]), "content": content_text(m.get("content"))} for m in messages]
        job = _Job(self.lm.chat_text(chat), (max_tokens, temperature, top_p, seed if temperature > 0 else None, tuple(choices) if choices else None))
        self.batcher.submit(job)
        if not job.done.wait(self.request_timeout):
            raise RequestError(503, f"generation did not finish within {self.request_timeout:g}s", "timeout")
        if job.result is None:
            raise RequestError(500, f"generation failed: {job.error}", "server_error")
        text, finish = job.result.text, job.result.finish_reason
        cut = min((text.find(s) for s in stop if s in text), default=-1)
        if cut >= 0:
            text, finish = text[:cut], "stop"
        usage = {"prompt_tokens": job.result.prompt_tokens, "completion_tokens": job.result.completion_tokens}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()), "model": self.model_name,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
            "usage": usage,
        }

    def models(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": self.model_name, "object": "model", "created": 0, "owned_by": "polyreward"}]}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            server_version = "polyreward-serve-judge"

            def setup(self) -> None:
                super().setup()
                self.rfile.close()  # the plain file from makefile(); reads go through the deadline reader instead
                self.reader = _DeadlineReader(self.connection)
                self.rfile = io.BufferedReader(self.reader)

            def handle_one_request(self) -> None:
                self.reader.deadline = time.monotonic() + server.header_timeout  # the request line and headers
                super().handle_one_request()

            def _send(self, status: int, payload: Mapping[str, Any]) -> None:
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if self.close_connection:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

            def _error(self, error: RequestError) -> None:
                self._send(error.status, {"error": {"message": error.message, "type": error.code, "code": error.status}})

            def _allowed(self) -> bool:
                authorization = self.headers.get("Authorization")
                raw = authorization.encode("latin-1", "replace") if authorization is not None else None  # the bytes sent
                if server.access.allows(self.client_address[0], raw):
                    return True
                self.close_connection = True  # the body (if any) is not read
                if server.access.token is None:
                    self._error(RequestError(403, f"client {self.client_address[0]} is not in this server's trusted networks", "forbidden"))
                else:
                    self._error(RequestError(401, "missing or wrong bearer token (Authorization: Bearer <token>)", "invalid_api_key"))
                return False

            def do_GET(self) -> None:  # noqa: N802 (http.server naming)
                path = self.path.split("?")[0].rstrip("/")
                if path == "/health":
                    self._send(200, {"status": "ok"})
                elif not self._allowed():
                    return
                elif path == "/v1/models":
                    self._send(200, server.models())
                else:
                    self._error(RequestError(404, f"no route GET {path}", "not_found"))

            def do_POST(self) -> None:  # noqa: N802
                path = self.path.split("?")[0].rstrip("/")
                if not self._allowed():
                    return
                try:
                    self.reader.deadline = time.monotonic() + server.body_timeout
                    try:
                        raw = self._body()
                    except TimeoutError:
                        self.close_connection = True
                        raise RequestError(408, f"the request body did not arrive within {server.body_timeout:g} s", "timeout") from None
                    if path != "/v1/chat/completions":
                        raise RequestError(404, f"no route POST {path}", "not_found")
                    try:
                        body = json.loads(raw or b"null")
                    except (ValueError, RecursionError) as exc:
                        raise RequestError(400, f"the request body is not valid JSON: {str(exc)[:200]}") from None
                    self.reader.deadline = None  # generation has its own request_timeout
                    self._send(200, server.complete(body))
                except RequestError as exc:
                    self._error(exc)
                except Exception as exc:  # never let one request take the server down
                    self._error(RequestError(500, f"{type(exc).__name__}: {exc}", "server_error"))

            def _body(self) -> bytes:
                """The request body within ``max_body_bytes`` whatever the framing; RequestError (connection closed) otherwise."""
                limit = server.max_body_bytes
                lengths = self.headers.get_all("Content-Length") or []
                chunked = self.headers.get("Transfer-Encoding")
                if chunked is not None:
                    if chunked.strip().lower() != "chunked" or lengths:
                        self.close_connection = True
                        raise RequestError(400, "only 'Transfer-Encoding: chunked' without Content-Length is accepted")
                    return _read_chunked(self.rfile, limit, self)
                if not lengths:
                    self.close_connection = True
                    raise RequestError(411, "a POST needs a Content-Length (or chunked transfer encoding)")
                if len(set(v.strip() for v in lengths)) != 1 or not lengths[0].strip().isdigit():
                    self.close_connection = True
                    raise RequestError(400, f"Content-Length must be one non-negative integer, got {lengths!r}")
                length = int(lengths[0])
                if length > limit:
                    self.close_connection = True
                    raise RequestError(413, f"request body of {length} bytes is over the limit of {limit}")
                raw = self.rfile.read(length) if length else b""
                if len(raw) < length:
                    self.close_connection = True
                    raise RequestError(400, f"the body ended after {len(raw)} of {length} declared bytes")
                return raw

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                if server.verbose:
                    super().log_message(format, *args)

        return Handler


class _DeadlineReader(io.RawIOBase):
    """A socket reader whose reads all end at one ``deadline`` (``time.monotonic()``; None = no limit): a client
    that trickles one byte at a time cannot hold a connection past it, as it could a per-read timeout."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.deadline = sock, None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.deadline is None:
            self.sock.settimeout(None)
        else:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the connection's read deadline passed")
            self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


def _read_chunked(rfile: Any, limit: int, handler: Any) -> bytes:
    """A chunked body (RFC 9112 section 7.1), refused with 413 as soon as it would pass ``limit`` bytes."""
    body = bytearray()
    while True:
        line = rfile.readline(1026)
        size_text = line.split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            size = -1
        if size < 0 or not line.endswith(b"\n"):
            handler.close_connection = True
            raise RequestError(400, f"malformed chunk size line {line[:40]!r}")
        if size == 0:
            while rfile.readline(1026) not in (b"\r\n", b"\n", b""):  # trailers
                pass
            return bytes(body)
        if len(body) + size > limit:
            handler.close_connection = True
            raise RequestError(413, f"chunked request body is over the limit of {limit} bytes")
        chunk = rfile.read(size)
        if len(chunk) < size or rfile.readline(3) not in (b"\r\n", b"\n"):
            handler.close_connection = True
            raise RequestError(400, "a chunk ended early")
        body.extend(chunk)


class _CappedHTTPServer(ThreadingHTTPServer):
    """A threading server that serves at most ``max_connections`` connections at once (more are closed on arrival)."""

    def __init__(self, address: tuple[str, int], handler: type, max_connections: int) -> None:
        self.max_connections, self.open = max_connections, 0
        self._count = threading.Lock()
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._count:
            if self.open >= self.max_connections:
                self.shutdown_request(request)
                return
            self.open += 1
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count:
                self.open -= 1
