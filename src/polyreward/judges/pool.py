"""Spread model-server requests over several endpoints, within rate limits and deadlines.

Used by the ``openai`` judge and by served reward models. One batch of requests runs in its own
asyncio event loop (:func:`run_batch`) with one HTTP client; when the batch ends — every request
answered, failed, or cut at the batch's time budget — every task is finished and the client closed,
so nothing is left running in the background and nothing keeps the process from exiting.

Each request (:meth:`EndpointPool.request`) gets ``1 + max_retries`` attempts:

* **Choice of endpoint**: of the endpoints that are not backed off and have room under their limits,
  the one with the fewest outstanding requests (then the fewest sent), so two servers are busy
  together and a slow one gets less.
* **Limits**, per endpoint and overall: requests in flight (``concurrency``), requests per minute
  and tokens per minute. A rate is a token bucket holding one second's worth (at least one
  request): over any window of ``t`` s at most ``capacity + rate * t`` units start. Tokens are
  estimated before the call (characters / 4 + ``max_tokens``) and corrected from the server's
  ``usage.total_tokens`` after it, so the token bound also carries what the estimate missed on the
  requests already in flight.
* **Deadline**: an attempt ends ``timeout`` seconds after it starts, or at the end of the batch's time
  budget if that comes first, however the server sends its bytes (a body trickling one byte every
  0.5 s cannot extend it): the whole exchange, connect to last byte, runs under one
  ``asyncio.timeout``, and the batch cancels what is left at its deadline, saying for each request
  what it was doing (waiting for a free endpoint, waiting for a server's headers, reading a body).
* **Failures**: a refused connection, a timeout, HTTP 408/409/425/5xx or a body that is not JSON
  backs the endpoint off for ``backoff * 2**(k-1)`` seconds (capped at ``max_backoff``; ``k`` counts
  its failures in a row, a success resets it) and the retry goes to another endpoint. HTTP 429 backs
  the endpoint off for its ``Retry-After`` (seconds or an HTTP date) when given. Other 4xx fail at
  once and leave the endpoint in service. An answer the caller cannot use (``check`` raises
  :class:`Unusable`) is retried at once, without blaming the endpoint.
* **Dead endpoints fail fast**: an endpoint that refused ``DOWN_AFTER`` (3) connections in a row (nothing
  listens there: a wrong port, a server not started) is *down* for ``DOWN_FOR`` (30) seconds: no request goes
  to it, and when every endpoint is down a request fails at once with the URLs and the cause, instead of
  backing off until the time budget ends (a refused judge URL used to cost 234 attempts and 252 s for 6 rows).
  Any answer from it, even an error status, ends the count.

Per-endpoint counts (sent, ok, failed, rate-limited, latency percentiles) accumulate in
:meth:`EndpointPool.summary`.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import math
import os
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from polyreward.locking import RebuildsLockWhenUnpickled

T = TypeVar("T")

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
_POLL = 0.005  # seconds between looks at the endpoints while every one is full or backed off
_CUT_GRACE = 0.05  # an attempt or wait that reaches the batch deadline outlives it by this, so the batch's cut comes first
DOWN_AFTER = 3  # refused connections in a row that mark an endpoint down
DOWN_FOR = 30.0  # seconds a down endpoint gets no requests
EVERY_ENDPOINT_DOWN = "every endpoint is down"


class Unusable(Exception):
    """The server answered, but the answer cannot be used (no verdict, wrong shape); retry without blame."""


class RequestFailed(Exception):
    """Every attempt failed; the message is the last cause and the attempt count."""


@dataclass
class JobState:
    """What one request is doing now: read when the batch budget cuts it, to say why it failed."""

    phase: str = "queued behind the concurrency limit"
    last_error: str = ""


def positive_rate(key: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or not math.isfinite(value):
        raise ValueError(f"{key}: must be a number > 0 (per minute) or null, got {value!r}")
    return float(value)


def whole_number(key: str, value: Any, low: int, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{key}: must be an integer >= {low}{' or null' if allow_none else ''}, got {value!r}")
    return value


def seconds(key: str, value: Any, strict: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or (value <= 0 if strict else value < 0):
        raise ValueError(f"{key}: must be a number of seconds {'> 0' if strict else '>= 0'}, got {value!r}")
    return float(value)


class TokenBucket:
    """``per_minute`` units per minute; holds one second's worth, at least ``1``. May go into debt, so one
    request larger than the bucket still passes once the bucket is full."""

    def __init__(self, per_minute: float) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate)
        self.level = self.capacity
        self.stamp = time.monotonic()

    def _refill(self, now: float) -> None:
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait(self, amount: float, now: float) -> float:
        """Seconds until ``amount`` may start (0 = now)."""
        self._refill(now)
        need = min(amount, self.capacity)
        return 0.0 if self.level >= need else (need - self.level) / self.rate

    def take(self, amount: float) -> None:
        self.level -= amount


@dataclass
class Limits:
    concurrency: int | None = None
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None


class _Gate:
    """One set of limits with its live counters (an endpoint's, or the pool's overall)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.outstanding = 0
        self.requests = TokenBucket(limits.requests_per_minute) if limits.requests_per_minute else None
        self.tokens = TokenBucket(limits.tokens_per_minute) if limits.tokens_per_minute else None

    def wait(self, tokens: float, now: float) -> float:
        """0 when a request of ``tokens`` may start now; else seconds to wait (``_POLL`` when only full)."""
        if self.limits.concurrency is not None and self.outstanding >= self.limits.concurrency:
            return _POLL
        waits = [b.wait(amount, now) for b, amount in ((self.requests, 1.0), (self.tokens, tokens)) if b is not None]
        return max(waits, default=0.0)

    def take(self, tokens: float) -> None:
        self.outstanding += 1
        if self.requests is not None:
            self.requests.take(1.0)
        if self.tokens is not None:
            self.tokens.take(tokens)

    def settle(self, estimate: float, used: float | None) -> None:
        self.outstanding -= 1
        if self.tokens is not None and used is not None:
            self.tokens.take(used - estimate)


@dataclass
class Endpoint:
    url: str
    gate: _Gate
    sent: int = 0
    ok: int = 0
    failed: int = 0
    rate_limited: int = 0
    failures_in_a_row: int = 0
    backoff_until: float = 0.0
    epoch: int = 0  # bumped at each new back-off; a failure of a request sent before it does not escalate
    refused_in_a_row: int = 0  # connections refused since the last answer of any kind
    down_until: float = 0.0
    down_reason: str = ""
    latencies: deque = field(default_factory=lambda: deque(maxlen=10_000))

    @property
    def shown(self) -> str:
        """The URL as messages show it: without ``user:password@``."""
        from polyreward.schema import redact_credentials

        return redact_credentials(self.url)

    def counts(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)

        def percentile(q: float) -> float | None:
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else None

        return {"sent": self.sent, "ok": self.ok, "failed": self.failed, "rate_limited": self.rate_limited,
                "down": self.down_until > time.monotonic(),
                "outstanding": self.gate.outstanding, "latency_p50_s": percentile(0.5), "latency_p90_s": percentile(0.9),
                "latency_p99_s": percentile(0.99)}


def retry_after_seconds(value: str | None, now_wall: float | None = None) -> float | None:
    """``Retry-After`` as seconds from now: a number of seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now_wall is None else now_wall))


class EndpointPool(RebuildsLockWhenUnpickled):
    """Endpoints (full URLs) with limits, back-off and counts; see the module docstring."""

    def __init__(self, urls: Sequence[str], *, timeout: float = 60.0, max_retries: int = 2, backoff: float = 0.5,
                 max_backoff: float = 8.0, api_key_env: str | None = None, overall: Limits | None = None,
                 per_endpoint: Limits | None = None) -> None:
        if not urls:
            raise ValueError("base_url: give at least one URL")
        self.timeout, self.max_retries = timeout, max_retries
        self.backoff, self.max_backoff = backoff, max_backoff
        self.api_key_env = api_key_env  # the variable's name: the key is read per request, so it is never pickled
        self.per_endpoint = per_endpoint or Limits()
        self.overall = _Gate(overall or Limits())
        self.endpoints = [Endpoint(url, _Gate(self.per_endpoint)) for url in urls]
        self.attempts = 0
        self.retries = 0
        self.failures = 0
        self._lock = threading.Lock()  # batches of several threads may share one pool

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {os.environ.get(self.api_key_env, '')}"} if self.api_key_env else {}

    def summary(self) -> dict[str, Any]:
        with self._lock:
            return {"attempts": self.attempts, "retries": self.retries, "failures": self.failures,
                    "endpoints": {e.shown: e.counts() for e in self.endpoints}}

    # -- choosing an endpoint -------------------------------------------------------------------
    def _try_acquire(self, tokens: float, now: float) -> tuple[Endpoint | None, float, str]:
        """An endpoint taken for one request, or None and how long to wait and why."""
        with self._lock:
            overall = self.overall.wait(tokens, now)
            if overall > 0:
                return None, overall, "waiting for the overall limits"
            best: Endpoint | None = None
            wake = math.inf
            live = [e for e in self.endpoints if e.down_until <= now]
            if not live:
                causes = "; ".join(f"{e.shown}: {e.down_reason}" for e in self.endpoints)
                return None, math.inf, f"{EVERY_ENDPOINT_DOWN} ({causes})"
            for endpoint in live:
                wait = max(endpoint.backoff_until - now, endpoint.gate.wait(tokens, now))
                if wait > 0:
                    wake = min(wake, wait)
                elif best is None or (endpoint.gate.outstanding, endpoint.sent) < (best.gate.outstanding, best.sent):
                    best = endpoint
            if best is None:
                backed_off = all(e.backoff_until > now for e in live)
                return None, wake, "every endpoint backed off" if backed_off else "waiting for a free endpoint"
            self.overall.take(tokens)
            best.gate.take(tokens)
            best.sent += 1
            self.attempts += 1
            return best, 0.0, ""

    def _release(self, endpoint: Endpoint, estimate: float, used: float | None) -> None:
        with self._lock:
            self.overall.settle(estimate, used)
            endpoint.gate.settle(estimate, used)

    def _blame(self, endpoint: Endpoint, epoch: int, now: float, fault: _EndpointFault) -> None:
        with self._lock:
            endpoint.failed += 1
            endpoint.rate_limited += fault.status == 429
            endpoint.refused_in_a_row = endpoint.refused_in_a_row + 1 if fault.refused else 0
            if endpoint.refused_in_a_row >= DOWN_AFTER and endpoint.down_until <= now:
                endpoint.down_until = now + DOWN_FOR
                endpoint.down_reason = f"{endpoint.refused_in_a_row} connections refused in a row ({fault})"
            if fault.retry_after is not None:
                endpoint.backoff_until = max(endpoint.backoff_until, now + fault.retry_after)
                endpoint.epoch += 1
                return
            if not fault.retry or epoch != endpoint.epoch:  # a 4xx says nothing of the endpoint's health; a request
                return                                      # sent before the last back-off began already counted
            endpoint.failures_in_a_row += 1
            endpoint.epoch += 1
            pause = min(self.max_backoff, self.backoff * 2 ** (endpoint.failures_in_a_row - 1))
            endpoint.backoff_until = max(endpoint.backoff_until, now + pause)

    def _credit(self, endpoint: Endpoint, latency: float) -> None:
        with self._lock:
            endpoint.ok += 1
            endpoint.failures_in_a_row = 0
            endpoint.refused_in_a_row = 0
            endpoint.latencies.append(latency)

    # -- one request ----------------------------------------------------------------------------
    async def request(self, client: Any, body: Mapping[str, Any], check: Callable[[Any], T], deadline: float,
                      estimate: float, state: JobState | None = None, path: str = "") -> T:
        """POST ``body`` (JSON) to ``endpoint.url + path`` until ``check(parsed JSON)`` returns a value.

        Raises :class:`RequestFailed` naming the last cause when every attempt failed.
        """
        state = state or JobState()
        error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            if attempt:
                with self._lock:
                    self.retries += 1
            endpoint, why = await self._acquire(estimate, deadline, state)
            if endpoint is None:
                error = f"{error}; {why}" if attempt else why
                break
            with self._lock:
                epoch = endpoint.epoch
            used: float | None = None
            start = time.monotonic()
            try:
                value, used = await self._attempt(client, endpoint, path, body, check, deadline, state)
            except _EndpointFault as fault:
                error = str(fault)
                self._blame(endpoint, epoch, time.monotonic(), fault)
                if not fault.retry:
                    break
                continue
            except Unusable as exc:
                error = str(exc)
                self._credit(endpoint, time.monotonic() - start)
                continue
            finally:
                self._release(endpoint, estimate, used)
                state.last_error = error if error != "no attempt made" else ""
            self._credit(endpoint, time.monotonic() - start)
            return value
        with self._lock:
            self.failures += 1
        raise RequestFailed(f"{error} ({self.max_retries + 1} attempt(s) max)")

    async def _acquire(self, tokens: float, deadline: float, state: JobState) -> tuple[Endpoint | None, str]:
        while True:
            now = time.monotonic()
            endpoint, wait, why = self._try_acquire(tokens, now)
            if endpoint is not None:
                return endpoint, ""
            state.phase = why
            if why.startswith(EVERY_ENDPOINT_DOWN):  # nothing to wait for: say so now
                return None, why
            if now + wait >= deadline:  # inside run_batch the budget's cut comes first and names the phase
                await asyncio.sleep(max(0.0, deadline - now) + _CUT_GRACE)
                return None, f"time budget exhausted while {why}"
            await asyncio.sleep(wait)

    async def _attempt(self, client: Any, endpoint: Endpoint, path: str, body: Mapping[str, Any], check: Callable[[Any], T],
                       deadline: float, state: JobState) -> tuple[T, float | None]:
        import httpx

        left = deadline - time.monotonic()
        # past the deadline the batch's cut ends this attempt first, and its reason names the phase
        limit = self.timeout if left >= self.timeout else max(0.0, left) + _CUT_GRACE
        received = 0
        phase = "headers"
        state.phase = f"waiting for {endpoint.shown}"
        try:
            async with asyncio.timeout(limit):
                async with client.stream("POST", endpoint.url + path, json=body, headers=self._headers()) as response:
                    phase = "body"
                    chunks = []
                    state.phase = f"reading the response body from {endpoint.shown}"
                    async for chunk in response.aiter_bytes():
                        received += len(chunk)
                        state.phase = f"reading the response body from {endpoint.shown} ({received} bytes in)"
                        if received > MAX_RESPONSE_BYTES:
                            raise _EndpointFault(f"response body over {MAX_RESPONSE_BYTES} bytes from {endpoint.shown}")
                        chunks.append(chunk)
                    status, retry_after = response.status_code, response.headers.get("Retry-After")
        except TimeoutError:
            where = "no response headers yet" if phase == "headers" else f"response body still arriving, {received} bytes in"
            raise _EndpointFault(f"timeout after {limit:.3g}s ({where}; {endpoint.shown})") from None
        except httpx.ConnectError as exc:  # nothing answers there (refused, unknown host): counts towards "down"
            raise _EndpointFault(f"connection error: {type(exc).__name__}: {exc} ({endpoint.shown})", refused=True) from None
        except httpx.HTTPError as exc:
            raise _EndpointFault(f"connection error: {type(exc).__name__}: {exc} ({endpoint.shown})") from None
        raw = b"".join(chunks)
        text = raw[:200].decode("utf-8", "replace")
        if status != 200:
            message = f"HTTP {status}: {text!r}"
            if status == 429:
                wait = retry_after_seconds(retry_after)
                raise _EndpointFault(message + (f" (Retry-After {wait:.3g}s)" if wait is not None else ""), True, wait, status)
            raise _EndpointFault(message, status in RETRY_STATUS, status=status)
        try:
            data = json.loads(raw)
        except ValueError:
            raise _EndpointFault(f"malformed response (not JSON): {text!r}") from None
        used = None
        usage = data.get("usage") if isinstance(data, Mapping) else None
        if isinstance(usage, Mapping) and isinstance(usage.get("total_tokens"), (int, float)):
            used = float(usage["total_tokens"])
        return check(data), used


class _EndpointFault(Exception):
    """The endpoint failed this attempt: back it off; ``retry`` False for errors a retry cannot fix."""

    def __init__(self, message: str, retry: bool = True, retry_after: float | None = None, status: int | None = None,
                 refused: bool = False) -> None:
        from polyreward.schema import redact_credentials

        super().__init__(redact_credentials(message))  # an httpx error may quote the URL with its user:password@
        self.retry, self.retry_after, self.status, self.refused = retry, retry_after, status, refused


def estimate_tokens(text_parts: Sequence[str], max_tokens: int = 0) -> float:
    """Tokens a request will use, before the call: characters / 4 of the prompt plus the answer's limit."""
    return sum(len(t) for t in text_parts) / 4.0 + max_tokens


def run_batch(jobs: Sequence[Callable[[Any], Awaitable[T]]], deadline: float, on_cut: Callable[[int], T],
              active: int | None = None) -> list[T]:
    """Run ``job(client)`` for every job, at most ``active`` at a time (None: all), in a fresh event loop,
    until ``deadline`` (monotonic). A job not finished at the deadline is cancelled and its result is
    ``on_cut(index)``. Jobs beyond ``active`` wait their turn in a queue, not in the pool's polling loop.
    Runs in the calling thread, or in a helper thread when the caller is itself inside an event loop
    (an async TRL reward); either way every task and connection is closed on return.
    """
    async def main() -> list[T]:
        import httpx

        turns = asyncio.Semaphore(active or max(1, len(jobs)))

        async def take_turn(job: Callable[[Any], Awaitable[T]], client: Any) -> T:
            async with turns:
                return await job(client)

        limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)  # the pool's limits bound the requests in flight
        async with httpx.AsyncClient(limits=limits, timeout=None) as client:
            tasks = [asyncio.ensure_future(take_turn(job, client)) for job in jobs]
            left = max(0.0, deadline - time.monotonic())
            done, pending = await asyncio.wait(tasks, timeout=left) if tasks else (set(), set())
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        return [task.result() if task in done else on_cut(i) for i, task in enumerate(tasks)]

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(main())
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="judge-batch", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
