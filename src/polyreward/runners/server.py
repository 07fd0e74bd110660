"""The reward server: a config's rewards behind HTTP, for any trainer (``polyreward serve``).

A FastAPI app on uvicorn whose event loop only checks requests and moves bytes: every body is parsed, checked,
scored and answered inside a *slot process* (:mod:`polyreward.runners.server_slots`, the route logic in
:mod:`polyreward.runners.server_routes`) -- or, when every reward of the config is declared linear-time, by the
same route logic on the *front lane*, a thread of the front process (:mod:`polyreward.runners.server_front`; off
with ``--front-lane``) -- so the scores are those of ``polyreward score`` for the same config:

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
- **client address**: the socket's peer address (``::ffff:10.0.0.7`` read as ``10.0.0.7``). ``X-Forwarded-For``
  is read only from the proxies given with ``--forwarded-allow-ips`` (default: none), so a client cannot claim
  a trusted address by sending the header.
- **connections**: at most ``max_connections`` open at once; at the cap a newcomer closes the oldest
  header-waiting connection of the address holding the most connections, if that address holds more than the
  newcomer's (else the newcomer is closed), and ``--max-connections-per-client`` caps one address outright: a
  source stalling hundreds of sockets keeps its share, and the other clients are served. A connection whose
  request headers are not complete ``header_timeout`` seconds after it opened (or after its last answer) is
  closed — a slow-loris client holds a socket for seconds, not forever; a body that has not fully arrived
  ``body_timeout`` seconds after the headers -> 408, connection closed.
- **size**: a body over ``max_body_bytes`` -> 413, whatever the framing (Content-Length or chunked) and the
  load (checked before the 429); the rest of it (up to 64 MiB, 5 s) is read and dropped first, so the client
  reads the 413 instead of a reset connection; a body that is not JSON or nests deeper than 64 levels -> 400; a field over ``max_field_chars``
  characters -> that row NaN + reason (:mod:`polyreward.runners.server_routes`).
- **capacity**: ``concurrency`` slots; a request that finds every slot busy -> 429 with ``Retry-After`` at once
  (back-pressure: nothing queues unboundedly, and no body is read for it). A slot is taken only once the body
  has arrived, so slow uploads hold no slot; a slot whose process died while idle (killed from outside) is
  rebuilt and the request goes to another slot. With the front lane on, one more request is scored at once: the
  front lane takes a request when it is free, a slot otherwise.
- **state**: none between requests. A stateful combiner (DRPO, SA-MRPO, EBPO) starts fresh for every
  ``/score`` request, so an answer never depends on the requests before it or on the replica; a client that
  wants the history sends ``"combiner_state"`` (null at first, then the ``combiner_state`` of the previous
  answer) and gets the new state back.
- **time**: each request has ``request_timeout`` seconds in its slot. Past that, the answer is 200 with NaN
  for every rollout and the reason ``timeout: ...`` (``timed_out: true``), and the slot's process group is
  killed and rebuilt, so a reward stuck in C code or a regex holding the GIL costs one slot for the timeout
  plus a restart, never the event loop: ``/health`` keeps answering. A front-lane request gets the same answer at
  its deadline, but its work is not killed: the lane stays busy (requests go to the slots) until that bounded
  work ends.
- **errors**: a column a reward needs is missing from every row -> 422 naming it (as ``polyreward score``
  refuses such a file); under ``on_reward_error: raise`` a failing reward -> 422 with the
  :class:`~polyreward.pipeline.RewardError`'s one line (``error_type: "RewardError"``).
"""


import asyncio
import pickle
from collections.abc import Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from polyreward.judges.access import Access
from polyreward.runners.server_front import FrontLane
from polyreward.runners.server_routes import RequestProblem, RouteSettings, dumps, dumps_peer, peer_answer, timed_out_json
from polyreward.runners.server_slots import Slot, SlotDied, keep_freed_memory, start_slots

DEFAULT_MAX_BODY = 16 * 1024 * 1024
DRAIN_BYTES = 64 * 1024 * 1024  # an oversized body up to this size is read and dropped before its 413 ...
DRAIN_SECONDS = 5.0  # ... within this time
PEER_ROUTES = ("/score", "/get_reward", "/slime")


class Slots:
    """The slot processes; :meth:`take` never waits (a full server answers 429 instead of queueing)."""

    def __init__(self, slots: list[Slot], request_timeout: float) -> None:
        self.all, self.free, self.request_timeout = slots, list(slots), request_timeout
        self.restarts = 0
        self.contract = slots[0].process.contract

    def check_free(self) -> None:
        """429 at once when every slot is busy (before the body is read: a saturated server reads no more bodies)."""
        if not self.free:
            raise RequestProblem(429, f"all {len(self.all)} scoring slots are busy; retry later or on another replica",
                                 {"Retry-After": "1", "Connection": "close"})

    def take(self) -> Slot:
        """A free slot whose process is alive (one found dead, e.g. killed from outside, is rebuilt meanwhile), or 429.
        Taken only once the request's body has been read, so a slow upload holds no slot."""
        while self.free:
            slot = self.free.pop()
            if slot.process.alive():
                return slot
            self._rebuild(slot)
        self.check_free()
        raise AssertionError("unreachable")

    def _rebuild(self, slot: Slot) -> None:
        loop = asyncio.get_running_loop()
        self.restarts += 1
        slot.restart(lambda ready: loop.call_soon_threadsafe(self.give_back, ready))

    def give_back(self, slot: Slot) -> None:
        self.free.append(slot)

    @property
    def busy(self) -> int:
        return len(self.all) - len(self.free)

    async def run(self, slot: Slot, route: str, body: Sequence[bytes], retry: bool = True) -> tuple[int, bytes]:
        """(status, body) of ``route`` in ``slot`` within the time budget; the slot is given back or rebuilt. A slot
        whose process died before it read the request (killed while idle) is rebuilt and the request goes to another
        slot once (429 when none is free), never a 500 for a request nobody looked at."""
        loop = asyncio.get_running_loop()
        future = asyncio.ensure_future(slot.process.request(route, body))
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
            if not timed_out and rows is None and retry:  # the process was gone before it read this request: elsewhere
                return await self.run(self.take(), route, body, retry=False)
            if not timed_out:
                return 500, dumps({"error": "the scoring process ended while scoring this request (crashed or killed); it is being restarted"})
            return self.timed_out(route, rows)
        self.give_back(slot)
        return status, payload

    def timed_out(self, route: str, rows: int | None) -> tuple[int, bytes]:
        """The answer to a request whose time budget ran out: NaN + reason for each of its ``rows`` (503 when its body
        was not parsed yet, so the rows are unknown)."""
        if rows is None:
            return 503, dumps({"error": f"the request's time budget of {self.request_timeout:g} s ran out before its body was parsed"})
        answer = timed_out_json(self.contract["names"], self.contract["weights"], rows, self.request_timeout)
        return 200, dumps(answer) if route == "/score" else dumps_peer(peer_answer(route, answer, self.contract["nan_reward"]))

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


class ClientGone(Exception):
    """The client disconnected while its request body was being read."""


class ScoringRoutes:
    """Pure ASGI: ``POST`` to a scoring route is answered here, without FastAPI's routing, request object and
    response classes (a 256-row request spent milliseconds in them); everything else goes to the FastAPI app."""

    def __init__(self, app: Any, scored: Any) -> None:
        self.app, self.scored = app, scored

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in PEER_ROUTES:
            await self.app(scope, receive, send)
            return
        declared = next((value.decode("latin-1") for key, value in scope["headers"] if key == b"content-length"), None)

        async def stream():
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    raise ClientGone
                yield message.get("body", b"")
                if not message.get("more_body", False):
                    return

        try:
            status, payload, headers = await self.scored(declared, scope["path"], stream())
        except ClientGone:  # left before its body arrived: nobody reads an answer, and no slot was taken
            return
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                                *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items())]})
        await send({"type": "http.response.body", "body": payload})


def create_app(config: Any, *, access: Access | None = None, concurrency: int = 2, workers: int | None = None,
               max_body_bytes: int = DEFAULT_MAX_BODY, request_timeout: float = 60.0, body_timeout: float = 30.0,
               settings: RouteSettings | None = None, front_lane: bool = False, on_lane=None):
    """The ASGI app serving ``config`` (see the module docstring): the access check, then the scoring routes answered
    in plain ASGI (:class:`ScoringRoutes`), then FastAPI for the rest. Its slot processes are started (and have built
    the rewards) when this returns. ``access`` None = loopback rule without a token. ``front_lane`` lets a config of
    linear-time rewards be scored in this process (:mod:`polyreward.runners.server_front`); ``on_lane(line)`` is
    told which lane the config got and why."""
    from fastapi import FastAPI, Request
    from fastapi.responses import Response

    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    settings = settings or RouteSettings()
    spec = pickle.dumps({"config": config, "workers": workers, "settings": settings})
    front, lane_line = FrontLane.build(config, settings) if front_lane else (None, "front lane: off (not asked for)")
    if on_lane is not None:
        on_lane(lane_line)
    slots = Slots(start_slots(spec, concurrency), request_timeout)
    limits = {"max_body_bytes": max_body_bytes, "request_timeout": request_timeout, "body_timeout": body_timeout,
              "concurrency": concurrency}

    @asynccontextmanager
    async def lifespan(app):
        yield
        slots.close()
        if front is not None:
            front.close()

    app = FastAPI(title="polyreward reward server", docs_url=None, redoc_url=None, lifespan=lifespan)

    def answer(body: bytes, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
        return Response(body, status_code=status, headers=dict(headers or {}), media_type="application/json")

    async def drain(stream: Any, budget: int) -> None:
        """Read and drop what is left of an oversized body (at most ``budget`` bytes, DRAIN_SECONDS), so the client
        has finished sending when the 413 goes out: closing on unread bytes resets the connection, and a client
        still uploading would see a transport error instead of the 413."""
        dropped = 0
        try:
            async with asyncio.timeout(DRAIN_SECONDS):
                async for piece in stream:
                    dropped += len(piece)
                    if dropped > budget:
                        return
        except (TimeoutError, Exception):  # a client that stops or disconnects: nothing more to do
            return

    async def read_body(declared: str | None, stream: Any) -> list[bytes]:
        """The body as the pieces it arrived in (handed to the slot as they are, never joined into one copy)."""
        drain_budget = max(DRAIN_BYTES, max_body_bytes)
        if declared is not None and int(declared) > max_body_bytes:  # h11 has refused a malformed length already
            if int(declared) <= drain_budget:
                await drain(stream, drain_budget)
            raise RequestProblem(413, f"request body of {declared} bytes is over the limit of {max_body_bytes}", {"Connection": "close"})
        pieces, size = [], 0
        try:
            async with asyncio.timeout(body_timeout):
                async for piece in stream:
                    pieces.append(piece)
                    size += len(piece)
                    if size > max_body_bytes:
                        del pieces[:]
                        await drain(stream, drain_budget)
                        raise RequestProblem(413, f"request body is over the limit of {max_body_bytes} bytes", {"Connection": "close"})
        except TimeoutError:
            raise RequestProblem(408, f"the request body did not arrive within {body_timeout:g} s", {"Connection": "close"}) from None
        return pieces

    @app.exception_handler(RequestProblem)
    async def problem(request: Request, exc: RequestProblem) -> Response:
        return answer(dumps(exc.body()), exc.status, exc.headers)

    @app.get("/health")
    async def health() -> Response:
        lane = {"on": front is not None, "busy": front is not None and front.busy, "answered": front.answered if front else 0}
        return answer(dumps({"status": "ok", "slots": len(slots.all), "busy": slots.busy, "restarts": slots.restarts,
                             "rewards": slots.contract["names"], "front_lane": lane}))

    @app.get("/contract")
    async def contract() -> Response:
        return answer(dumps({**slots.contract, "limits": limits}))

    async def scored(declared: str | None, path: str, stream: Any) -> tuple[int, bytes, Mapping[str, str]]:
        try:
            if (declared is None or int(declared) <= max_body_bytes) and (front is None or front.busy):
                slots.check_free()  # saturated: 429 before reading the body (an oversized body is a 413 whatever the load)
            body = await read_body(declared, stream)
            if front is not None and not front.busy:  # linear-time rewards: scored here, on the front lane's thread
                try:
                    answered = await front.run(path, body, request_timeout)
                except asyncio.TimeoutError:
                    answered = slots.timed_out(path, front.rows)
                if answered is not None:
                    return answered[0], answered[1], {}
            status, payload = await slots.run(slots.take(), path, body)  # a slot only once the body is here
        except RequestProblem as exc:
            return exc.status, dumps(exc.body()), exc.headers
        return status, payload, {}

    async def scored_route(request: Request) -> Response:  # reached only if ScoringRoutes passes a request on
        status, payload, headers = await scored(request.headers.get("content-length"), request.url.path, request.stream())
        return answer(payload, status, headers)

    for route in PEER_ROUTES:  # registered for GET's 405 and /openapi.json; POSTs are answered by ScoringRoutes
        app.add_api_route(route, scored_route, methods=["POST"])
    app.state.slots = slots
    return AccessMiddleware(ScoringRoutes(app, scored), access or Access())


def client_host(transport: Any) -> str:
    """The peer address of a connection, an IPv4-mapped IPv6 address (``::ffff:10.0.0.7``) read as its IPv4 form."""
    import ipaddress

    peer = transport.get_extra_info("peername")
    host = peer[0] if isinstance(peer, (tuple, list)) and peer else str(peer)
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    return str(getattr(address, "ipv4_mapped", None) or address)


def guarded_protocol(header_timeout: float, max_connections: int, max_per_client: int | None = None) -> type:
    """uvicorn's h11 protocol with a deadline for request headers, a cap on open connections and a fair share of
    that cap per client address.

    uvicorn's keep-alive timer is cancelled by any byte received, so a client that sends one header byte at a
    time keeps a connection forever; here a connection whose request headers are not complete ``header_timeout``
    seconds after it opened (or after its last response) is closed, however it trickles.

    Per client address: at most ``max_per_client`` connections (None = no fixed budget); and when a connection
    arrives at the cap, it is not simply refused: if another address holds more connections than the newcomer's
    (a slow-loris source), that address's oldest connection still waiting for request headers is closed to make
    room. One source stalling hundreds of sockets then keeps at most its share, and the other clients (the
    trainer with its token) are served; a newcomer from the heaviest address itself is closed on arrival."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    by_client: dict[str, dict[Any, None]] = {}  # address -> its open connections, oldest first (one event loop)

    class GuardedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None
        _client_key: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            key = self._client_key = client_host(transport)
            mine = by_client.setdefault(key, {})
            mine[self] = None
            if max_per_client is not None and len(mine) > max_per_client:
                transport.close()
                return
            if len(self.connections) > max_connections and not self._evict_for(key, len(mine)):
                transport.close()
                return
            self._arm()

        @staticmethod
        def _evict_for(key: str, held: int) -> bool:
            """Close the oldest header-waiting connection of the address holding the most, if it holds more than
            ``held`` (the newcomer's count); whether one was closed."""
            heaviest = max((k for k in by_client if k != key), key=lambda k: len(by_client[k]), default=None)
            if heaviest is None or len(by_client[heaviest]) <= held:
                return False
            for protocol in by_client[heaviest]:
                idle = protocol.cycle is None or protocol.cycle.response_complete
                if protocol.conn.their_state is h11.IDLE and idle and not protocol.transport.is_closing():
                    protocol.transport.close()
                    protocol._forget()
                    return True
            return False

        def _forget(self) -> None:
            mine = by_client.get(self._client_key or "")
            if mine is not None:
                mine.pop(self, None)
                if not mine:
                    by_client.pop(self._client_key, None)

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
            self._forget()
            super().connection_lost(exc)

    return GuardedH11Protocol


def run_server(app: Any, sock: Any, *, header_timeout: float = 10.0, max_connections: int = 256,
               max_per_client: int | None = None, forwarded_allow: Any = (), on_started=None) -> None:
    """Serve ``app`` on the bound socket ``sock`` until stopped; ``on_started()`` runs once it accepts connections.

    Forwarded headers (``X-Forwarded-For``, ``X-Forwarded-Proto``) are read only from the proxies in
    ``forwarded_allow`` (addresses or networks; ``polyreward serve --forwarded-allow-ips``): by default from nobody,
    so a client cannot name itself a trusted address (uvicorn's own default trusts 127.0.0.1 and
    ``$FORWARDED_ALLOW_IPS``, which this overrides)."""
    import uvicorn

    keep_freed_memory()  # the request bodies' buffers are reused, not faulted in afresh on every request
    allowed = [str(a) for a in forwarded_allow]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2,
                                           http=guarded_protocol(header_timeout, max_connections, max_per_client),
                                           lifespan="on", proxy_headers=bool(allowed), forwarded_allow_ips=allowed or [],
                                           server_header=False))
    original_startup = server.startup

    async def startup(sockets=None):
        await original_startup(sockets=sockets)
        if on_started is not None:
            on_started()

    server.startup = startup
    server.run(sockets=[sock])
