"""The reward server: a config's rewards behind HTTP, for any trainer (``polyreward serve``).

A stateless FastAPI app on uvicorn. Every route turns its payload into one :class:`~polyreward.schema.Batch` and
calls :func:`~polyreward.pipeline.score_batch`, so the scores are those of ``polyreward score``:

- ``POST /score`` — polyreward's own schema. Request ``{"rows": [{prompt, completion, <columns>...}, ...],
  "advantages": false}`` (column names as in the config's ``columns``). Response ``{"names", "weights",
  "scores" (N x K, null = NaN), "reasons" {name: [N]}, "total" [N], "failures" {name: count},
  "advantages" [N] or null, "timed_out"}``. Advantages (the config's combiner over the request's groups)
  only when asked for and the config names a combiner.
- ``POST /get_reward`` — OpenRLHF's remote reward contract (``--remote_rm_url``;
  openrlhf/utils/remote_rm_utils.py posts ``{"query": queries, "prompts": prompts, "labels": labels}`` and reads
  ``response["rewards"]``). ``query`` is prompt + response: the completion is ``query[len(prompt):]`` when the
  query starts with the prompt, else the whole query; ``labels`` fill the ``label_column``. Answers
  ``{"rewards": [N], "scores": [N], "extra_logs": {name: [N], "failed": [N]}}`` with weighted totals.
- ``POST /slime`` — slime's ``--rm-url`` payload (slime/rollout/rm_hub/__init__.py ``remote_rm``: one
  ``{"prompt", "response", "label"}`` per request, and the reward is ``await resp.json()``): answers one number.
- ``GET /health`` — ``{"status": "ok", "slots", "busy", "rewards"}``, without a token (for load-balancer probes).

Peer routes need a number for every rollout, so a NaN total (no reward applied, or every one failed) is sent as
``nan_reward`` (default 0.0, the advantage TRL and verl give such rows); ``/score`` keeps NaN as null with the reason.

Limits, each one clear status: a body over ``max_body_bytes`` -> 413 (read no further); ``concurrency``
requests scored at once, each on its own *slot* (its own RewardSet and worker pool, built at start-up), and a
request that finds every slot busy -> 429 with ``Retry-After`` at once (back-pressure: the caller retries
elsewhere or later, nothing queues unboundedly); each request has ``request_timeout`` seconds — rewards that run
in the engine's worker pool have hard per-item timeouts anyway, and a reward that hangs in-process past the
budget gets a bounded 200 answer: NaN for every rollout with the reason ``timeout: ...``. Its slot stays busy
until the hanging call returns (a thread cannot be killed), so a server whose rewards keep hanging answers 429,
which is the honest signal. A token (``Authorization: Bearer <token>``; read by the CLI from an environment
variable) is compared in constant time; missing or wrong -> 401. Malformed JSON or rows -> 400; a column a
reward needs is missing -> 422 naming it.
"""


import asyncio
import hmac
import json
import math
import queue
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future
from typing import Any

from polyreward.config import Config
from polyreward.pipeline import MissingColumnError, ScoredBatch, score_batch
from polyreward.schema import Batch

DEFAULT_MAX_BODY = 16 * 1024 * 1024


class RequestProblem(Exception):
    """A request the server answers with ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, dict(headers or {})


class Slot:
    """One request's worth of scoring capacity: a RewardSet (with its worker pool) and the thread that runs it."""

    def __init__(self, config: Config, workers: int | None) -> None:
        self.reward_set = config.build_rewards(workers=workers)
        self.combiner = config.build_combiner()
        self.column_map = config.column_map
        self._jobs: queue.Queue = queue.Queue()
        threading.Thread(target=self._run, daemon=True, name="polyreward-slot").start()

    def _run(self) -> None:
        while True:
            future, fn = self._jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(self))
                except BaseException as exc:  # reported to the request, the slot lives on
                    future.set_exception(exc)

    def submit(self, fn) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn))
        return future


class Slots:
    """A fixed set of slots; :meth:`take` never waits (a full server answers 429 instead of queueing)."""

    def __init__(self, config: Config, concurrency: int, workers: int | None) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {concurrency}")
        self.all = [Slot(config, workers) for _ in range(concurrency)]
        self.free = list(self.all)
        self.lock = threading.Lock()

    def take(self) -> Slot:
        with self.lock:
            if not self.free:
                raise RequestProblem(429, f"all {len(self.all)} scoring slots are busy; retry later or on another replica",
                                     {"Retry-After": "1"})
            return self.free.pop()

    def give_back(self, slot: Slot) -> None:
        with self.lock:
            self.free.append(slot)

    @property
    def busy(self) -> int:
        return len(self.all) - len(self.free)


def _finite_or_none(value: float) -> float | None:
    return None if math.isnan(value) else value


def _filled(value: float, nan_reward: float) -> float:
    return nan_reward if math.isnan(value) else value


def scored_json(scored: ScoredBatch, timed_out: bool = False) -> dict[str, Any]:
    """``/score``'s answer: the matrix with null for NaN, reasons, totals, failure counts, advantages."""
    return {
        "names": scored.names,
        "weights": scored.weights.tolist(),
        "scores": [[_finite_or_none(v) for v in row] for row in scored.scores.tolist()],
        "reasons": scored.reasons,
        "total": [_finite_or_none(v) for v in scored.total.tolist()],
        "failures": scored.failures,
        "advantages": scored.advantages.tolist() if scored.advantages is not None else None,
        "timed_out": timed_out,
    }


def timed_out_batch(slot: Slot, n: int, budget: float) -> ScoredBatch:
    """Every rollout NaN with the reason that the request's time budget ran out (the rewards' names kept)."""
    import numpy as np

    names = slot.reward_set.names
    reason = f"timeout: the request's time budget of {budget:g} s ran out before the rewards finished"
    return ScoredBatch(names, slot.reward_set.weights, np.full((n, len(names)), np.nan), {name: [reason] * n for name in names},
                       {}, {name: n for name in names}, {name: reason for name in names}, np.ones((n, len(names)), dtype=bool))


def rows_of(payload: Any) -> list[dict[str, Any]]:
    rows = payload.get("rows") if isinstance(payload, dict) else None
    if not isinstance(rows, list) or not rows:
        raise RequestProblem(400, 'the body must be a JSON object with a non-empty list "rows"')
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise RequestProblem(400, f"rows[{i}] is {type(row).__name__}, not an object")
    return rows


def openrlhf_rows(payload: Any, config: Config, label_column: str) -> list[dict[str, Any]]:
    """OpenRLHF's ``{query, prompts, labels}`` as rows (the completion is the query after its prompt)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("query"), list) or not payload["query"]:
        raise RequestProblem(400, 'the body must hold a non-empty list "query" (OpenRLHF remote reward contract)')
    queries = payload["query"]
    prompts = payload.get("prompts") or [None] * len(queries)
    labels = payload.get("labels") or [None] * len(queries)
    if not isinstance(prompts, list) or not isinstance(labels, list) or not len(prompts) == len(labels) == len(queries):
        raise RequestProblem(400, f'"query", "prompts" and "labels" must be lists of one length, got {len(queries)}, '
                                  f'{len(prompts) if isinstance(prompts, list) else prompts!r}, {len(labels) if isinstance(labels, list) else labels!r}')
    columns = config.column_map
    rows = []
    for query, prompt, label in zip(queries, prompts, labels):
        if not isinstance(query, str):
            raise RequestProblem(400, f"every query must be a string, got {type(query).__name__}")
        completion = query[len(prompt):] if isinstance(prompt, str) and query.startswith(prompt) else query
        rows.append({columns.prompt: prompt, columns.completion: completion, label_column: label})
    return rows


def slime_rows(payload: Any, config: Config, label_column: str) -> list[dict[str, Any]]:
    """slime's one-sample ``{prompt, response, label}`` as one row."""
    if not isinstance(payload, dict) or "response" not in payload:
        raise RequestProblem(400, 'the body must be a JSON object with "prompt", "response" and "label" (slime --rm-url payload)')
    columns = config.column_map
    return [{columns.prompt: payload.get("prompt"), columns.completion: payload["response"], label_column: payload.get("label")}]


def create_app(config: Config, *, token: str | None = None, concurrency: int = 2, workers: int | None = None,
               max_body_bytes: int = DEFAULT_MAX_BODY, request_timeout: float = 60.0, label_column: str = "answer",
               nan_reward: float = 0.0):
    """The FastAPI app serving ``config`` (see the module docstring); ``token`` None = no authentication."""
    from fastapi import FastAPI, Request
    from fastapi.responses import Response

    slots = Slots(config, concurrency, workers)
    app = FastAPI(title="polyreward reward server", docs_url=None, redoc_url=None)
    expected = f"Bearer {token}".encode() if token else None

    def answer(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
        return Response(json.dumps(body, allow_nan=False, default=str), status_code=status, headers=dict(headers or {}),
                        media_type="application/json")

    async def read_json(request: Request) -> Any:
        if expected is not None and not hmac.compare_digest(request.headers.get("authorization", "").encode(), expected):
            raise RequestProblem(401, "missing or wrong bearer token (Authorization: Bearer <token>)", {"WWW-Authenticate": "Bearer"})
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > max_body_bytes:
            raise RequestProblem(413, f"request body of {declared} bytes is over the limit of {max_body_bytes}")
        body = bytearray()
        async for piece in request.stream():
            body.extend(piece)
            if len(body) > max_body_bytes:
                raise RequestProblem(413, f"request body is over the limit of {max_body_bytes} bytes")
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RequestProblem(400, f"the body is not valid JSON: {exc}") from None

    async def score(rows: list[dict[str, Any]], advantages: bool) -> tuple[ScoredBatch, bool]:
        """(scored batch, whether the time budget ran out) on a free slot; 429 when none is free."""
        slot = slots.take()

        def work(slot: Slot) -> ScoredBatch:
            batch = Batch.from_records(rows, slot.column_map, require=slot.reward_set.columns)
            slot.reward_set.check_columns(batch.columns)
            combiner = slot.combiner if advantages and slot.combiner is not None and batch.groups is not None else None
            return score_batch(batch, slot.reward_set, combiner)

        future = slot.submit(work)
        future.add_done_callback(lambda _: slots.give_back(slot))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), request_timeout), False
        except asyncio.TimeoutError:
            return timed_out_batch(slot, len(rows), request_timeout), True
        except MissingColumnError as exc:
            raise RequestProblem(422, str(exc)) from None

    @app.exception_handler(RequestProblem)
    async def problem(request: Request, exc: RequestProblem) -> Response:
        return answer({"error": exc.message}, exc.status, exc.headers)

    @app.get("/health")
    async def health() -> Response:
        return answer({"status": "ok", "slots": len(slots.all), "busy": slots.busy, "rewards": slots.all[0].reward_set.names})

    @app.post("/score")
    async def score_route(request: Request) -> Response:
        payload = await read_json(request)
        started = time.perf_counter()
        scored, timed_out = await score(rows_of(payload), bool(payload.get("advantages")))
        return answer({**scored_json(scored, timed_out), "elapsed_s": time.perf_counter() - started})

    @app.post("/get_reward")
    async def openrlhf_route(request: Request) -> Response:
        scored, _ = await score(openrlhf_rows(await read_json(request), config, label_column), False)
        rewards = [_filled(v, nan_reward) for v in scored.total.tolist()]
        logs = {name: [_filled(v, nan_reward) for v in scored.scores[:, k].tolist()] for k, name in enumerate(scored.names)}
        logs["failed"] = scored.failed.sum(axis=1).astype(float).tolist() if scored.failed is not None else [0.0] * len(rewards)
        return answer({"rewards": rewards, "scores": rewards, "extra_logs": logs})

    @app.post("/slime")
    async def slime_route(request: Request) -> Response:
        scored, _ = await score(slime_rows(await read_json(request), config, label_column), False)
        return answer(_filled(float(scored.total[0]), nan_reward))

    app.state.slots = slots
    return app


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
