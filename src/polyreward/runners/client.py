"""``RewardClient``: score rows on one or more ``polyreward serve`` replicas, with failures as NaN + reason.

    client = RewardClient(["http://10.0.0.5:8088", "http://10.0.0.6:8088"], token=os.environ["POLYREWARD_TOKEN"])
    result = client.score_rows(rows)                 # rows: {prompt, completion, answer, prompt_id, ...}
    result.scores, result.reasons, result.total      # (N, K) NaN-filled, per-reward reasons, weighted totals

    GRPOTrainer(reward_funcs=[client], ...)          # TRL: client(prompts=..., completions=..., **columns) -> totals
    compute_score = client.compute_score             # verl: (data_source, solution_str, ground_truth, extra_info) -> float

A batch is cut into shards of at most ``shard_size`` rows that never split a run of equal ``group_column``
values (group-level rewards and advantages see whole groups), and the shards go to the servers round-robin,
at most ``per_server`` at a time on each (a shard whose server is busy waits for it, so the client's own
load never makes a server answer 429). A shard that fails — connection refused or reset, a timeout, 429 or a 5xx —
is sent again, to the next server in turn (one that refused a connection or timed out is skipped for
``down_for`` seconds), after a capped, jittered exponential backoff
(``min(max_backoff, backoff * 2**attempt) * uniform(0.5, 1)``, the "equal jitter" of AWS's backoff note), at
most ``retries`` more times. A shard that still fails, or gets an answer no retry can change (400, 401, 413,
422), comes back as NaN for every reward with the reason, counted in ``failures``; the batch never raises and
never hangs past ``retries`` x ``timeout``.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

RETRYABLE = {429, 500, 502, 503, 504}


@dataclass
class ClientResult:
    """Scores of a batch from the servers: ``scores`` (N, K) with NaN, ``reasons[name][i]``, ``total`` (N,), failures."""

    names: list[str]
    scores: np.ndarray
    reasons: dict[str, list[str]]
    total: np.ndarray
    failures: dict[str, int] = field(default_factory=dict)
    advantages: np.ndarray | None = None
    failed_rows: int = 0  # rows no server could score (their reason says why)


def shards(rows: Sequence[Mapping[str, Any]], size: int, group_column: str | None) -> Iterator[tuple[int, int]]:
    """``(start, end)`` ranges of at most ``size`` rows (more when one group is larger) that keep each run of equal
    ``group_column`` values together."""
    start, n = 0, len(rows)
    while start < n:
        end = min(start + size, n)
        last = rows[end - 1].get(group_column) if group_column is not None and end < n else None
        if last is not None and rows[end].get(group_column) == last:  # the cut would split a group
            cut = end
            while cut > start and rows[cut - 1].get(group_column) == last:
                cut -= 1
            if cut > start:
                end = cut
            else:  # one group is larger than a shard: keep it whole
                while end < n and rows[end].get(group_column) == last:
                    end += 1
        yield start, end
        start = end


class ShardFailed(Exception):
    def __init__(self, reason: str, retryable: bool) -> None:
        super().__init__(reason)
        self.reason, self.retryable = reason, retryable


class RewardClient:
    """A client of one or more reward servers (see the module docstring); thread-safe."""

    def __init__(self, urls: str | Sequence[str], *, token: str | None = None, token_env: str = "POLYREWARD_TOKEN",
                 timeout: float = 60.0, retries: int = 4, backoff: float = 0.25, max_backoff: float = 8.0,
                 shard_size: int = 256, per_server: int = 2, group_column: str | None = "prompt_id",
                 label_column: str = "answer", name: str = "polyreward_remote", down_for: float = 10.0) -> None:
        import httpx

        self.urls = [u.rstrip("/") for u in ([urls] if isinstance(urls, str) else list(urls))]
        if not self.urls:
            raise ValueError("RewardClient needs at least one server URL")
        if shard_size < 1 or per_server < 1 or retries < 0:
            raise ValueError("shard_size and per_server must be >= 1 and retries >= 0")
        token = token if token is not None else os.environ.get(token_env) or None
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.timeout, self.retries, self.backoff, self.max_backoff = timeout, retries, backoff, max_backoff
        self.shard_size, self.per_server, self.group_column, self.label_column = shard_size, per_server, group_column, label_column
        self.__name__ = name  # TRL logs a reward function by __name__
        self._http = httpx.Client(timeout=timeout, limits=httpx.Limits(max_connections=per_server * len(self.urls)))
        self._turn = 0
        self._down: dict[str, float] = {}  # url -> until when it is skipped after a connection failure
        self.down_for = down_for
        self._in_flight = {url: threading.BoundedSemaphore(per_server) for url in self.urls}
        self._lock = threading.Lock()
        self.attempts = 0  # HTTP requests sent, retries included

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> RewardClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _post(self, url: str, rows: Sequence[Mapping[str, Any]], advantages: bool) -> dict[str, Any]:
        import httpx

        with self._lock:
            self.attempts += 1
        try:
            response = self._http.post(f"{url}/score", json={"rows": list(rows), "advantages": advantages}, headers=self.headers)
        except (TypeError, ValueError) as exc:  # a value JSON cannot hold: no server can help
            raise ShardFailed(f"error: rows are not JSON-serialisable: {exc}", False) from None
        except httpx.HTTPError as exc:  # refused, reset, timed out: skip this server for a while
            with self._lock:
                self._down[url] = time.monotonic() + self.down_for
            raise ShardFailed(f"error: {url}: {type(exc).__name__}: {exc}", True) from None
        if response.status_code != 200:
            try:
                detail = response.json().get("error", response.text)
            except ValueError:
                detail = response.text
            raise ShardFailed(f"error: {url}: HTTP {response.status_code}: {str(detail)[:300]}", response.status_code in RETRYABLE)
        return response.json()

    def _pick(self, turn: int) -> str:
        """The server in turn, skipping those that failed to connect in the last ``down_for`` seconds (unless all did)."""
        now = time.monotonic()
        order = [self.urls[(turn + i) % len(self.urls)] for i in range(len(self.urls))]
        with self._lock:
            return next((url for url in order if self._down.get(url, 0.0) <= now), order[0])

    def _score_shard(self, first: int, rows: Sequence[Mapping[str, Any]], advantages: bool) -> dict[str, Any] | str:
        """The server's answer for one shard, or the reason it could not be had."""
        attempt = 0
        while True:
            url = self._pick(first + attempt)
            try:
                with self._in_flight[url]:  # at most per_server requests on one server; the others wait here
                    return self._post(url, rows, advantages)
            except ShardFailed as exc:
                if not exc.retryable or attempt == self.retries:
                    return f"{exc.reason} (after {attempt + 1} attempt(s))"
            time.sleep(min(self.max_backoff, self.backoff * 2 ** attempt) * random.uniform(0.5, 1.0))
            attempt += 1

    def score_rows(self, rows: Sequence[Mapping[str, Any]], *, advantages: bool = False) -> ClientResult:
        """Score ``rows`` (polyreward's ``/score`` schema) over the servers; never raises for a server's failure.

        With ``advantages=True`` each server applies the config's combiner to its shard: whole groups, so
        per-group combiners (GRPO, RLOO, ...) give what one call would; batch-level statistics (GDPO's batch
        normalisation) see one shard only."""
        rows = list(rows)
        ranges = list(shards(rows, self.shard_size, self.group_column if rows and self.group_column in rows[0] else None))
        with self._lock:
            turn, self._turn = self._turn, self._turn + len(ranges)
        with ThreadPoolExecutor(max_workers=self.per_server * len(self.urls)) as pool:
            answers = list(pool.map(lambda item: self._score_shard(turn + item[0], rows[item[1][0]:item[1][1]], advantages),
                                    enumerate(ranges)))
        return self._join(rows, ranges, answers, advantages)

    def _join(self, rows, ranges, answers, advantages: bool) -> ClientResult:
        good = [a for a in answers if isinstance(a, dict)]
        names = list(good[0]["names"]) if good else ["reward"]
        weights = np.asarray(good[0]["weights"], dtype=np.float64) if good else np.ones(1)
        n, k = len(rows), len(names)
        scores = np.full((n, k), np.nan)
        reasons = {name: [""] * n for name in names}
        failures = dict.fromkeys(names, 0)
        adv = np.zeros(n) if advantages and good and all(a.get("advantages") is not None for a in good) else None
        failed_rows = 0
        for (start, end), answer in zip(ranges, answers):
            if isinstance(answer, str):
                failed_rows += end - start
                for name in names:
                    reasons[name][start:end] = [answer] * (end - start)
                    failures[name] += end - start
                continue
            block = np.array([[math.nan if v is None else v for v in row] for row in answer["scores"]], dtype=np.float64)
            scores[start:end] = block.reshape(end - start, k)
            for name in names:
                reasons[name][start:end] = answer["reasons"][name]
                failures[name] += answer["failures"].get(name, 0)
            if adv is not None:
                adv[start:end] = answer["advantages"]
        from polyreward.rewardset import weighted_total

        return ClientResult(names, scores, reasons, weighted_total(scores, weights), failures, adv, failed_rows)

    # TRL reward-function convention: reward(prompts=..., completions=..., **columns) -> list[float | None]
    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        if completions is None:
            raise TypeError("RewardClient needs completions=")
        n = len(completions)
        keep = {k: list(v) for k, v in columns.items() if isinstance(v, (list, tuple)) and len(v) == n}
        rows = [{"prompt": prompts[i] if prompts is not None else None, "completion": completions[i],
                 **{k: v[i] for k, v in keep.items()}} for i in range(n)]
        return [None if math.isnan(v) else float(v) for v in self.score_rows(rows).total.tolist()]

    # verl custom reward function: compute_score(data_source, solution_str, ground_truth, extra_info) -> float
    def compute_score(self, data_source: Any = None, solution_str: str = "", ground_truth: Any = None,
                      extra_info: Mapping[str, Any] | None = None, **_: Any) -> float:
        row = {**dict(extra_info or {}), "data_source": data_source, "completion": solution_str, self.label_column: ground_truth}
        return float(self.score_rows([row]).total[0])
