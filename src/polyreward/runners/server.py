"""The reward server: a config's rewards behind HTTP, for any trainer (``polyreward serve``).

A FastAPI app on uvicorn whose event loop only checks requests and moves bytes: every body is parsed, checked,
scored and answered inside a *slot process* (:mod:`polyreward.runners.server_slots`, the route logic in
:mod:`polyreward.runners.server_routes`), so the scores are those of ``polyreward score`` for the same config:

- ``POST /score`` — polyreward's own schema. Request ``{"rows": [{prompt, completion, <columns>...}, ...],
  "advantages": false}`` (column names as in the config's ``columns``). Response ``{"names", "weights",
  "scores" (N x K, null = NaN), "reasons" {name: [N]}, "total" [N], "failures" {name: count}, "failed" [N]
  (rewards that failed on each row), "advantages" [N] or null, "timed_out", "elapsed_s"}``. Advantages (the
  config's combiner over the request's groups) only when asked for and the config names a combiner.
- ``POST /get_reward`` — OpenRLHF's remote reward contract (``--remote_rm_url``; OpenRLHF 0.11
  ``openrlhf/utils/agent.py`` posts ``{"query", "prompts", "labels"}`` and reads ``rewards``/``scores``/
  ``extra_logs``). ``query`` is prompt + response decoded with the special tokens kept: the completion is the
  query after its prompt, with special/EOS text (``<|im_end|>``, ``</s>``, ...) cut at either end (``--keep-special-text``
  turns that off); a label fills ``--label-column``, a dict label one column per key. Answers
  ``{"rewards": [N], "scores": [N], "extra_logs": {name: [N], "failed": [N]}}`` with weighted totals.
- ``POST /slime`` — slime's ``--rm-url`` payload (one ``{"prompt", "response", "label"}``): answers one number.
- ``GET /contract`` — what a client needs to send rows the way this server reads them: reward names and weights,
  column names, required columns, failure policy, label column, limits (``RewardClient`` reads it).
- ``GET /health`` — ``{"status": "ok", "slots", "busy", "restarts", "rewards"}``; the one route without a token.

Peer routes need a number for every rollout, so a NaN total (no reward applied, or every one failed) is sent as
``nan_reward`` (default 0.0, the advantage TRL and verl give such rows); ``/score`` keeps NaN as null with the reason.

Limits, each one clear status:

- **who may call**: :mod:`polyreward.judges.access` (loopback by default; a token on any other interface, or a
  trust mode given on purpose). Every route but ``/health`` (``/openapi.json`` included) needs the token:
  ``Authorization: Bearer <token>``, any letter case of the scheme, compared in constant time on UTF-8 bytes;
  missing or wrong -> 401 (403 for a client outside ``--trust-client`` when no token is set).
- **connections**: at most ``max_connections`` open at once (more are closed on arrival); a connection whose
  request headers are not complete ``header_timeout`` seconds after it opened (or after its last answer) is
  closed — a slow-loris client holds a socket for seconds, not forever; a body that has not fully arrived
  ``body_timeout`` seconds after the headers -> 408, connection closed.
- **size**: a body over ``max_body_bytes`` -> 413 (read no further), whatever the framing (Content-Length or
  chunked); a body that is not JSON or nests deeper than 64 levels -> 400; a field over ``max_field_chars``
  characters -> that row NaN + reason (:mod:`polyreward.runners.server_routes`).
- **capacity**: ``concurrency`` slots; a request that finds every slot busy -> 429 with ``Retry-After`` at once
  (back-pressure: nothing queues unboundedly, and no body is read for it).
- **time**: each request has ``request_timeout`` seconds in its slot. Past that, the answer is 200 with NaN
  for every rollout and the reason ``timeout: ...`` (``timed_out: true``), and the slot's process group is
  killed and rebuilt, so a reward stuck in C code or a regex holding the GIL costs one slot for the timeout
  plus a restart, never the event loop: ``/health`` keeps answering.
- **errors**: a column a reward needs is missing from every row -> 422 naming it (as ``polyreward score``
  refuses such a file); under ``on_reward_error: raise`` a failing reward -> 422 with the
  :class:`~polyreward.pipeline.RewardError`'s one line (``error_type: "RewardError"``).
"""


import asyncio
import pickle
from collections.abc import Mapping
from contextlib import asynccontextmanager
from typing import Any

from polyreward.judges.access import Access
from polyreward.runners.server_routes import RequestProblem, RouteSettings, dumps, dumps_peer, peer_answer, timed_out_json
from polyreward.runners.server_slots import Slot, SlotDied, start_slots

DEFAULT_MAX_BODY = 16 * 1024 * 1024
PEER_ROUTES = ("/score", "/get_reward", "/slime")


class Slots:
    """The slot processes; :meth:`take` never waits (a full server answers 429 instead of queueing)."""

    def __init__(self, slots: list[Slot], request_timeout: float) -> None:
        self.all, self.free, self.request_timeout = slots, list(slots), request_timeout
        self.restarts = 0
        self.contract = slots[0].process.contract

    def take(self) -> Slot:
        if not self.free:
            raise RequestProblem(429, f"all {len(self.all)} scoring slots are busy; retry later or on another replica",
                                 {"Retry-After": "1", "Connection": "close"})  # its body is never read
        return self.free.pop()

    def give_back(self, slot: Slot) -> None:
        self.free.append(slot)

    @property
    def busy(self) -> int:
        return len(self.all) - len(self.free)

    async def run(self, slot: Slot, route: str, body: bytes) -> tuple[int, bytes]:
        """(status, body) of ``route`` in ``slot`` within the time budget; the slot is given back or rebuilt."""
        loop = asyncio.get_running_loop()
        future = asyncio.wrap_future(slot.submit(route, body))
        try:
            status, payload = await asyncio.wait_for(asyncio.shield(future), self.request_timeout)
        except asyncio.CancelledError:  # the server is stopping this request: the slot comes back when its answer does
            future.add_done_callback(lambda done: self.give_back(slot) if not done.cancelled() and done.exception() is None
                                     else slot.restart(lambda ready: loop.call_soon_threadsafe(self.give_back, ready)))
            raise
        except (asyncio.TimeoutError, SlotDied) as exc:
            timed_out = not isinstance(exc, SlotDied)
            future.add_done_callback(lambda done: done.cancelled() or done.exception())  # the SlotDied to come is expected
            rows = slot.process.accepted_rows
            self.restarts += 1
            slot.restart(lambda ready: loop.call_soon_threadsafe(self.give_back, ready))
            if not timed_out:
                return 500, dumps({"error": "the scoring process ended while scoring this request (crashed or killed); it is being restarted"})
            if rows is None:
                return 503, dumps({"error": f"the request's time budget of {self.request_timeout:g} s ran out before its body was parsed"})
            answer = timed_out_json(self.contract["names"], self.contract["weights"], rows, self.request_timeout)
            return 200, dumps(answer) if route == "/score" else dumps_peer(peer_answer(route, answer, self.contract["nan_reward"]))
        self.give_back(slot)
        return status, payload

    def close(self) -> None:
        for slot in self.all:
            slot.close()


class AccessMiddleware:
    """Pure ASGI: every request but ``GET /health`` must pass :meth:`Access.allows` before any route runs."""

    def __init__(self, app: Any, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] != "/health":
            authorization = next((value for key, value in scope["headers"] if key == b"authorization"), None)
            client = scope.get("client")
            if not self.access.allows(client[0] if client else None, authorization):
                if self.access.token is None:
                    status, message, extra = 403, f"client {client[0] if client else '?'} is not in this server's trusted networks", []
                else:
                    status, message, extra = 401, "missing or wrong bearer token (Authorization: Bearer <token>)", [(b"www-authenticate", b"Bearer")]
                body = dumps({"error": message})
                await send({"type": "http.response.start", "status": status,  # the body is never read: close after
                            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                        (b"connection", b"close"), *extra]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def create_app(config: Any, *, access: Access | None = None, concurrency: int = 2, workers: int | None = None,
               max_body_bytes: int = DEFAULT_MAX_BODY, request_timeout: float = 60.0, body_timeout: float = 30.0,
               settings: RouteSettings | None = None):
    """The FastAPI app serving ``config`` (see the module docstring); its slot processes are started (and have built
    the rewards) when this returns. ``access`` None = loopback rule without a token."""
    from fastapi import FastAPI, Request
    from fastapi.responses import Response

    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    settings = settings or RouteSettings()
    spec = pickle.dumps({"config": config, "workers": workers, "settings": settings})
    slots = Slots(start_slots(spec, concurrency), request_timeout)
    limits = {"max_body_bytes": max_body_bytes, "request_timeout": request_timeout, "body_timeout": body_timeout,
              "concurrency": concurrency}

    @asynccontextmanager
    async def lifespan(app):
        yield
        slots.close()

    app = FastAPI(title="polyreward reward server", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.add_middleware(AccessMiddleware, access=access or Access())

    def answer(body: bytes, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
        return Response(body, status_code=status, headers=dict(headers or {}), media_type="application/json")

    async def read_body(request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and int(declared) > max_body_bytes:  # h11 has refused a malformed length already
            raise RequestProblem(413, f"request body of {declared} bytes is over the limit of {max_body_bytes}", {"Connection": "close"})
        body = bytearray()
        try:
            async with asyncio.timeout(body_timeout):
                async for piece in request.stream():
                    body.extend(piece)
                    if len(body) > max_body_bytes:
                        raise RequestProblem(413, f"request body is over the limit of {max_body_bytes} bytes", {"Connection": "close"})
        except TimeoutError:
            raise RequestProblem(408, f"the request body did not arrive within {body_timeout:g} s", {"Connection": "close"}) from None
        return bytes(body)

    @app.exception_handler(RequestProblem)
    async def problem(request: Request, exc: RequestProblem) -> Response:
        return answer(dumps(exc.body()), exc.status, exc.headers)

    @app.get("/health")
    async def health() -> Response:
        return answer(dumps({"status": "ok", "slots": len(slots.all), "busy": slots.busy, "restarts": slots.restarts,
                             "rewards": slots.contract["names"]}))

    @app.get("/contract")
    async def contract() -> Response:
        return answer(dumps({**slots.contract, "limits": limits}))

    async def scored(request: Request) -> Response:
        slot = slots.take()
        try:
            body = await read_body(request)
        except BaseException:
            slots.give_back(slot)
            raise
        status, payload = await slots.run(slot, request.url.path, body)
        return answer(payload, status)

    for route in PEER_ROUTES:
        app.add_api_route(route, scored, methods=["POST"])
    app.state.slots = slots
    return app


def guarded_protocol(header_timeout: float, max_connections: int) -> type:
    """uvicorn's h11 protocol with a deadline for request headers and a cap on open connections.

    uvicorn's keep-alive timer is cancelled by any byte received, so a client that sends one header byte at a
    time keeps a connection forever; here a connection whose request headers are not complete ``header_timeout``
    seconds after it opened (or after its last response) is closed, however it trickles."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            self._header_timer = self.loop.call_later(header_timeout, self._headers_overdue)

        def _headers_overdue(self) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            super().connection_lost(exc)

    return GuardedH11Protocol


def run_server(app: Any, sock: Any, *, header_timeout: float = 10.0, max_connections: int = 256, on_started=None) -> None:
    """Serve ``app`` on the bound socket ``sock`` until stopped; ``on_started()`` runs once it accepts connections."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2,
                                           http=guarded_protocol(header_timeout, max_connections), lifespan="on"))
    original_startup = server.startup

    async def startup(sockets=None):
        await original_startup(sockets=sockets)
        if on_started is not None:
            on_started()

    server.startup = startup
    server.run(sockets=[sock])
