"""``RewardClient``: score rows on one or more ``polyreward serve`` replicas, with failures as NaN + reason.

    client = RewardClient(["http://10.0.0.5:8088", "http://10.0.0.6:8088"], token=os.environ["POLYREWARD_TOKEN"])
    scored = client.score_rows(rows)                 # a ScoredBatch; rows in the server's columns (GET /contract says which)
    scored.scores, scored.reasons, scored.total      # (N, K) NaN-filled, per-reward reasons, weighted totals
    scored.unscored                                  # (N,) bool: the rows no server scored

    GRPOTrainer(reward_funcs=[client], ...)          # TRL: client(prompts=..., completions=..., **columns) -> totals
    compute_score = client.compute_score             # verl: (data_source, solution_str, ground_truth, extra_info) -> float

**The server's contract.** Before its first batch the client reads ``GET /contract`` from a server: the column
names of the config (``columns: {completion: response}`` makes the TRL and verl entry points send
``response``), the label column, the group column it shards by, the value peers get for a row no reward
scored (``nan_reward``) and the failure policy. So the client used as a TRL reward function or as
``compute_score`` gives what the server gives for the same row.

**Sharding and retries.** A batch is cut into shards of at most ``shard_size`` rows that never split a run of
one group (group-level rewards and advantages see whole groups), and the shards go to the servers round-robin,
at most ``per_server`` at a time on each (so the client's own load never makes a server answer 429). A shard
that fails — connection refused or reset, a timeout, 429, a 5xx, or a 200 whose body is not ``/score``'s answer
(a proxy's HTML page, a truncated body) — is sent again, to the next server in turn (one that refused a
connection or timed out is skipped for ``down_for`` seconds), after a capped, jittered exponential backoff
(``min(max_backoff, backoff * 2**attempt) * uniform(0.5, 1)``, the "equal jitter" of AWS's backoff note), at
most ``retries`` more times. Each attempt has a **total** deadline of ``timeout`` seconds, from sending to the
last byte of the answer (a server that trickles its headers or body is cut off at the deadline, not reset by
every byte), so a batch never takes longer than about ``(retries + 1) x (timeout + max_backoff)``. A batch of one
shard is sent on the calling thread, several on the client's own threads, each over a keep-alive HTTP/1.1
connection (:mod:`polyreward.runners.client_http`; ``HTTP_PROXY`` is not read).

**Failure policy.** A shard that still fails, or gets an answer no retry can change (400, 401, 403, 413), is NaN
for every reward with the reason, counted in ``failures``, marked in ``unscored`` and counted in the client's
running ``unscored_rows``; ``score_rows`` never raises for it. The trainer-facing entry points never hand a NaN to a
trainer for such a row: ``on_server_error="fallback"`` (default) gives ``fallback_reward`` (default 0.0) and
logs a warning, ``"raise"`` raises :class:`RewardServerError` with the reason. Errors of the *data* are the
same one-line errors in-process scoring raises: a column the rewards need is missing -> ``MissingColumnError``;
the server's config says ``on_reward_error: raise`` and a reward failed -> ``RewardError`` with the server's line.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import accumulate, chain, compress
from operator import itemgetter, ne
from typing import Any, Literal

import numpy as np

from polyreward.runners.chunking import shards
from polyreward.runners.client_http import HTTPPool, Origin
from polyreward.vocabulary import ScoredBatch

logger = logging.getLogger("polyreward.runners.client")

RETRYABLE = {429, 500, 502, 503, 504}
DEFAULT_CONTRACT = {"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"},
                    "label_column": "answer", "nan_reward": 0.0, "on_reward_error": "nan"}


class RewardServerError(RuntimeError):
    """No server scored a shard (``on_server_error="raise"``); the message is the last reason."""


def encode_rows(rows: Sequence[Mapping[str, Any]], advantages: bool, share: Sequence[str] = ()) -> bytes:
    """``/score``'s request body: the bytes of ``json.dumps``, or orjson's (about 15x faster on a 256-row shard)
    when the server reads the same values from them — rows of plain JSON types only (exact ``dict`` with ``str``
    keys, ``list``, ``tuple``, ``str``, ``int``, ``float``, ``bool``, None) and no float NaN or infinity (orjson
    writes null for those, ``json`` the literals the server reads back as NaN). Anything else (numpy values,
    subclasses, datetimes: types the two write differently or only one writes) goes through ``json.dumps``, as
    before; so do integers past 64 bits and lone surrogates, which orjson refuses.

    ``share``: columns (the prompt's, when the server lists ``"shared_rows"`` in its contract's ``body_forms``) whose
    text goes once per run of rows holding the same text (a group's prompt, otherwise sent once per rollout;
    :func:`shared_columns`; the server puts it back, :func:`polyreward.runners.server_routes.unshare_rows`):
    half the bytes of a 256-row MedQA shard with 4 rollouts per prompt, the answer byte for byte the same."""
    import orjson

    rows = list(rows)
    if _plain_json(rows):
        shared = shared_columns(rows, share) if share else {}
        nulls = dict.fromkeys(shared)  # each shared column's place in the rows, holding null
        payload = ({"shared_rows": [{**row, **nulls} for row in rows], "advantages": advantages,
                    "shared": {column: {"values": values, "index": index} for column, (values, index) in shared.items()}}
                   if shared else {"rows": rows, "advantages": advantages})
        try:
            return orjson.dumps(payload)
        except orjson.JSONEncodeError:
            pass
    return json.dumps({"rows": rows, "advantages": advantages}, separators=(",", ":")).encode()


def shared_columns(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> dict[str, tuple[list[str], list[int]]]:
    """``{column: (texts, each row's index into them)}`` for those of ``columns`` worth sending once per run of
    equal values (a group's G rollouts sit together and share their prompt): every row holds an exact ``str``
    there, at most half as many runs as rows, and the text saved outweighs the indexes sent (about 4 bytes a row).
    Runs are found by comparing each value with the one before it (in C: no hashing of long texts).

    >>> shared_columns([{"prompt": "Which drug?", "completion": "A"}, {"prompt": "Which drug?", "completion": "B"}], ["prompt"])
    {'prompt': (['Which drug?'], [0, 0])}
    """
    n, found = len(rows), {}
    for column in columns if n > 1 else ():
        try:
            values = list(map(itemgetter(column), rows))
        except KeyError:  # a row without the column: sent as it is
            continue
        chars = sum(map(len, values)) if set(map(type, values)) <= {str} else 0
        if chars <= 8 * n:
            continue
        changed = list(map(ne, values[1:], values))  # True where a row's text differs from the row before
        index = list(accumulate(changed, initial=0))
        if 2 * (index[-1] + 1) > n:
            continue
        texts = [values[0], *compress(values[1:], changed)]
        if chars - sum(map(len, texts)) > 4 * n:
            found[column] = (texts, index)
    return found


_SCALARS = (str, int, bool, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)
_SCORE_TYPES = frozenset((int, float, type(None)))  # bool excluded: a score is a number or null


def _plain_json(value: Any) -> bool:
    """Whether ``value`` holds only plain JSON types and finite floats (see :func:`encode_rows`).

    A list of flat rows (exact dicts of str keys and scalar values, the usual shard) is classified by the set of
    its key and value types, gathered in C (``map``/``chain``); any container inside, or anything else, is walked."""
    if type(value) is list and set(map(type, value)) <= {dict}:
        key_types = set(map(type, chain.from_iterable(value)))
        values = list(chain.from_iterable(map(dict.values, value)))
        value_types = set(map(type, values))
        if key_types <= {str} and value_types <= _SCALAR_TYPES | {float}:
            return float not in value_types or all(v - v == 0.0 for v in values if type(v) is float)
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif kind is float:
            if item - item != 0.0:  # NaN and +-inf (inf - inf is NaN)
                return False
        elif kind not in _SCALARS:
            return False
    return True


class ShardFailed(Exception):
    def __init__(self, reason: str, retryable: bool, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.retryable, self.status = reason, retryable, status


class _DataError(Exception):
    """The server refused the data the way in-process scoring would (carries the exception to raise)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _checked(answer: Any, n: int) -> dict[str, Any]:
    """``answer`` when it has ``/score``'s shape for ``n`` rows; ValueError naming what is wrong otherwise."""
    if not isinstance(answer, dict):
        raise ValueError(f"the body is {type(answer).__name__}, not an object")
    names = answer.get("names")
    if not isinstance(names, list) or not names or not all(isinstance(x, str) for x in names):
        raise ValueError('"names" is not a list of reward names')
    k = len(names)
    scores, total, reasons = answer.get("scores"), answer.get("total"), answer.get("reasons")
    # types gathered in C (map/chain) rather than one isinstance per cell: a JSON parser gives exact types
    if not isinstance(scores, list) or len(scores) != n or not (set(map(type, scores)) <= {list} and set(map(len, scores)) <= {k}):
        raise ValueError(f'"scores" is not {n} rows of {k} values')
    if not isinstance(total, list) or len(total) != n:
        raise ValueError(f'"total" is not {n} values')
    if not set(map(type, chain.from_iterable(scores))) <= _SCORE_TYPES:
        raise ValueError('"scores" holds a value that is neither a number nor null')
    if not isinstance(reasons, dict) or any(not isinstance(reasons.get(x), list) or len(reasons[x]) != n for x in names):
        raise ValueError(f'"reasons" is not {n} reasons per reward')
    weights = answer.get("weights")
    if not isinstance(weights, list) or len(weights) != k:
        raise ValueError(f'"weights" is not {k} numbers')
    if not isinstance(answer.get("failures", {}), dict):
        raise ValueError('"failures" is not an object')
    adv = answer.get("advantages")
    if adv is not None and (not isinstance(adv, list) or len(adv) != n):
        raise ValueError(f'"advantages" is not {n} values')
    return answer


class RewardClient:
    """A client of one or more reward servers (see the module docstring); thread-safe."""

    def __init__(self, urls: str | Sequence[str], *, token: str | None = None, token_env: str = "POLYREWARD_TOKEN",
                 timeout: float = 60.0, retries: int = 4, backoff: float = 0.25, max_backoff: float = 8.0,
                 shard_size: int = 256, per_server: int = 2, group_column: str | None = None,
                 label_column: str | None = None, name: str = "polyreward_remote", down_for: float = 10.0,
                 on_server_error: Literal["fallback", "raise"] = "fallback", fallback_reward: float = 0.0) -> None:
        self.urls = [u.rstrip("/") for u in ([urls] if isinstance(urls, str) else list(urls))]
        if not self.urls:
            raise ValueError("RewardClient needs at least one server URL")
        self._origins = {url: Origin.parse(url) for url in self.urls}  # ValueError for a URL that is not http(s)
        if shard_size < 1 or per_server < 1 or retries < 0 or not timeout > 0:
            raise ValueError("shard_size and per_server must be >= 1, retries >= 0 and timeout > 0")
        if on_server_error not in ("fallback", "raise"):
            raise ValueError(f"on_server_error must be 'fallback' or 'raise', got {on_server_error!r}")
        if not math.isfinite(fallback_reward):
            raise ValueError(f"fallback_reward must be a finite number (a trainer cannot use NaN), got {fallback_reward!r}")
        token = token if token is not None else os.environ.get(token_env) or None
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"} if token else {"Content-Type": "application/json"}
        self.timeout, self.retries, self.backoff, self.max_backoff = timeout, retries, backoff, max_backoff
        self.shard_size, self.per_server = shard_size, per_server
        self._group_column, self._label_column = group_column, label_column
        self.on_server_error, self.fallback_reward = on_server_error, float(fallback_reward)
        self.__name__ = name  # TRL logs a reward function by __name__
        self.down_for = down_for
        self._down: dict[str, float] = {}  # url -> until when it is skipped after a connection failure
        self._turn = 0
        self._lock = threading.Lock()
        self.attempts = 0  # HTTP requests sent, retries included
        self.unscored_rows = 0  # rows no server scored, over the client's life
        self._contract: dict[str, Any] | None = None
        self._contract_retry_at = 0.0
        # requests run on the calling thread (one shard) or on this client's threads (several), blocking sockets
        # with a total deadline per attempt (polyreward.runners.client_http): no I/O thread to wake and wait for
        self._http = HTTPPool()
        self._slots = {url: threading.BoundedSemaphore(per_server) for url in self.urls}
        self._threads: ThreadPoolExecutor | None = None

    def close(self) -> None:
        with self._lock:
            threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=True)
        self._http.close()

    def __enter__(self) -> RewardClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- the server's contract ----------------------------------------------------------------------------
    @property
    def contract(self) -> dict[str, Any]:
        """The first reachable server's ``GET /contract`` (cached), or the default columns when none answers."""
        if self._contract is None:
            if time.monotonic() < self._contract_retry_at:
                return DEFAULT_CONTRACT
            found = self._fetch_contract()
            if found is None:  # not cached: asked again once down_for has passed
                self._contract_retry_at = time.monotonic() + self.down_for
                return DEFAULT_CONTRACT
            self._contract = found
        return self._contract

    def _fetch_contract(self) -> dict[str, Any] | None:
        for url in self.urls:
            try:
                response = self._http.exchange(self._origins[url], "GET", "/contract", b"", self.headers, self.timeout)
                body = json.loads(response.content) if response.status == 200 else None
            except Exception:  # unreachable, a proxy page, an old server without /contract: try the next one
                continue
            if isinstance(body, dict) and isinstance(body.get("columns"), dict):
                return body
        return None

    @property
    def group_column(self) -> str | None:
        return self._group_column or self.contract["columns"].get("group")

    @property
    def label_column(self) -> str:
        return self._label_column or self.contract.get("label_column", "answer")

    # -- one shard -----------------------------------------------------------------------------------------
    def _post(self, url: str, body: bytes, n: int) -> dict[str, Any]:
        import orjson

        with self._lock:
            self.attempts += 1
        try:  # the whole attempt within self.timeout: connect, send, headers and body
            response = self._http.exchange(self._origins[url], "POST", "/score", body, self.headers, self.timeout)
        except OSError as exc:  # refused, reset, timed out (TimeoutError), malformed: skip this server a while
            with self._lock:
                self._down[url] = time.monotonic() + self.down_for
            what = f"no complete answer within {self.timeout:g} s" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"
            raise ShardFailed(f"error: {url}: {what}", True) from None
        try:
            answer = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            answer = None
        if response.status != 200:
            detail = answer.get("error", response.text) if isinstance(answer, dict) else response.text
            if response.status == 422 and isinstance(answer, dict):
                raise _DataError(self._data_error(answer))
            raise ShardFailed(f"error: {url}: HTTP {response.status}: {str(detail)[:300]}", response.status in RETRYABLE, response.status)
        try:
            return _checked(answer, n)
        except ValueError as exc:  # a proxy's HTML page, a truncated or foreign body: maybe another server does better
            raise ShardFailed(f"error: {url}: HTTP 200 but not /score's answer ({exc}): {response.text[:120]!r}", True) from None

    @staticmethod
    def _data_error(answer: Mapping[str, Any]) -> Exception:
        from polyreward.vocabulary import MissingColumnError, RewardError

        message = str(answer.get("error", "the server refused the rows"))
        if answer.get("error_type") == "RewardError":
            error = RewardError(str(answer.get("reward")), int(answer.get("failed", 0)), int(answer.get("n", 0)), str(answer.get("reason")))
            error.args = (message,)  # the server's line, word for word
            return error
        error = MissingColumnError("?", "?")
        error.args = (message,)
        return error

    def _shared_columns(self) -> list[str]:
        """The columns whose repeated text goes once per run (:func:`encode_rows`): the prompt's, when the server
        reads that body form (its contract lists ``"shared_rows"``; an older server's does not)."""
        contract = self.contract
        return [contract["columns"]["prompt"]] if "shared_rows" in (contract.get("body_forms") or ()) else []

    def _pick(self, turn: int) -> str:
        """The server in turn, skipping those that failed to connect in the last ``down_for`` seconds (unless all did)."""
        now = time.monotonic()
        order = [self.urls[(turn + i) % len(self.urls)] for i in range(len(self.urls))]
        with self._lock:
            return next((url for url in order if self._down.get(url, 0.0) <= now), order[0])

    def _score_shard(self, first: int, rows: Sequence[Mapping[str, Any]], advantages: bool) -> dict[str, Any] | str | _DataError:
        """The server's answer for one shard, or the reason it could not be had (the data's own error, to raise)."""
        try:
            body = encode_rows(rows, advantages, self._shared_columns())
        except (TypeError, ValueError) as exc:  # a value JSON cannot hold: no server can help
            return f"error: rows are not JSON-serialisable: {exc}"
        attempt = 0
        while True:
            url = self._pick(first + attempt)
            try:
                with self._slots[url]:  # at most per_server requests on one server; the others wait here
                    return self._post(url, body, len(rows))
            except ShardFailed as exc:
                if exc.status == 400 and body.startswith(b'{"shared_rows"'):  # a replica older than the contract's server
                    body = encode_rows(rows, advantages)  # plain rows, to the same server at once
                    continue
                if not exc.retryable or attempt == self.retries:
                    return f"{exc.reason} (after {attempt + 1} attempt(s))"
            except _DataError as exc:
                return exc
            time.sleep(min(self.max_backoff, self.backoff * 2 ** attempt) * random.uniform(0.5, 1.0))
            attempt += 1

    def _pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(max_workers=self.per_server * len(self.urls), thread_name_prefix="polyreward-client")
            return self._threads

    # -- a batch -------------------------------------------------------------------------------------------
    def score_rows(self, rows: Sequence[Mapping[str, Any]], *, advantages: bool = False) -> ScoredBatch:
        """Score ``rows`` (polyreward's ``/score`` schema) over the servers; never raises for a server's failure
        (see the failure policy in the module docstring).

        With ``advantages=True`` each server applies the config's combiner to its shard: whole groups, so
        per-group combiners (GRPO, RLOO, ...) give what one call would; batch-level statistics (GDPO's batch
        normalisation) see one shard only."""
        rows = list(rows)
        group = self.group_column
        ranges = list(shards(rows, self.shard_size, group if rows and group in rows[0] else None))
        with self._lock:
            turn, self._turn = self._turn, self._turn + len(ranges)

        if len(ranges) <= 1:  # one request: sent and waited for on this thread
            answers = [self._score_shard(turn + i, rows[a:b], advantages) for i, (a, b) in enumerate(ranges)]
        else:  # shards in flight together, at most per_server on each server
            pool = self._pool()
            answers = [future.result() for future in [pool.submit(self._score_shard, turn + i, rows[a:b], advantages)
                                                      for i, (a, b) in enumerate(ranges)]]
        for answer in answers:
            if isinstance(answer, _DataError):
                raise answer.error
        result = self._join(rows, ranges, answers, advantages)
        lost = int(result.unscored.sum())
        if lost:
            with self._lock:
                self.unscored_rows += lost
            if self.on_server_error == "raise":
                raise RewardServerError(next(a for a in answers if isinstance(a, str)))
        return result

    def _join(self, rows, ranges, answers, advantages: bool) -> ScoredBatch:
        """The shards' answers as one batch (:meth:`ScoredBatch.concat`); a shard no server scored is NaN for every
        reward with the reason, failed and counted, and marked ``unscored``."""
        good = [a for a in answers if isinstance(a, dict)]
        names = list(good[0]["names"]) if good else list(self._contract["names"]) if self._contract else ["reward"]
        weights = np.asarray(good[0]["weights"] if good else self._contract["weights"] if self._contract else [1.0], dtype=np.float64)
        k = len(names)
        with_advantages = advantages and bool(good) and all(a.get("advantages") is not None for a in good)
        parts = [ScoredBatch(names, weights, np.zeros((0, k)), {name: [] for name in names}, failures=dict.fromkeys(names, 0),
                             advantages=np.zeros(0) if with_advantages else None, unscored=np.zeros(0, dtype=bool))]
        for (start, end), answer in zip(ranges, answers):
            n = end - start
            if isinstance(answer, str):
                parts.append(ScoredBatch(names, weights, np.full((n, k), np.nan), {name: [answer] * n for name in names},
                                         failures=dict.fromkeys(names, n), first_failure=dict.fromkeys(names, answer),
                                         advantages=np.zeros(n) if with_advantages else None, unscored=np.ones(n, dtype=bool)))
                continue
            parts.append(ScoredBatch(
                names, weights, np.array(answer["scores"], dtype=np.float64).reshape(n, k),  # null -> NaN
                {name: list(map(str, answer["reasons"].get(name, [""] * n))) for name in names},
                failures={name: int(answer.get("failures", {}).get(name, 0)) for name in names},
                advantages=np.asarray(answer["advantages"], dtype=np.float64) if with_advantages else None))
        return ScoredBatch.concat(parts)

    def _finite(self, result: ScoredBatch) -> list[float]:
        """Totals a trainer can use: ``fallback_reward`` for a row no server scored (logged), the server's
        ``nan_reward`` for a row no reward applied to."""
        lost = int(result.unscored.sum())
        if lost:
            first = next(result.reasons[name][i] for name in result.names for i in np.flatnonzero(result.unscored))
            logger.warning("%d of %d rollouts got no score from any server; using fallback_reward=%g: %s",
                           lost, len(result.total), self.fallback_reward, first)
        nan_reward = float(self.contract.get("nan_reward", 0.0))
        return [self.fallback_reward if lost else (nan_reward if math.isnan(v) else float(v))
                for v, lost in zip(result.total.tolist(), result.unscored.tolist())]

    # TRL reward-function convention: reward(prompts=..., completions=..., **columns) -> list[float | None]
    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        if completions is None:
            raise TypeError("RewardClient needs completions=")
        n = len(completions)
        names = self.contract["columns"]
        keep = {k: list(v) for k, v in columns.items() if isinstance(v, (list, tuple))}
        wrong = {k: len(v) for k, v in keep.items() if len(v) != n}
        if wrong:  # said here, rather than as a "missing column" once the column is dropped
            raise ValueError(f"column(s) {', '.join(f'{k!r} ({m} values)' for k, m in wrong.items())} do not have one value per "
                             f"completion ({n})")
        rows = [{**{k: v[i] for k, v in keep.items()}, names["prompt"]: prompts[i] if prompts is not None else None,
                 names["completion"]: completions[i]} for i in range(n)]
        result = self.score_rows(rows)
        finite = self._finite(result)
        # a row no reward applied to stays None (TRL's "not applicable"); a row no server scored gets the fallback
        return [None if math.isnan(t) and not lost else value for t, lost, value in zip(result.total.tolist(), result.unscored.tolist(), finite)]

    # verl custom reward function: compute_score(data_source, solution_str, ground_truth, extra_info) -> float
    def compute_score(self, data_source: Any = None, solution_str: str = "", ground_truth: Any = None,
                      extra_info: Mapping[str, Any] | None = None, **_: Any) -> float:
        """One verl sample, laid out as the verl adapter lays it out (extra_info keys as columns, a dict ground
        truth as one column per key); always a finite float (see the failure policy)."""
        from polyreward.schema import label_columns, plain_value

        grouped = self.contract.get("group_level_rewards") or []
        if grouped:  # the same refusal as the in-process verl compute_score: one sample has no group
            raise ValueError(f"polyreward compute_score: reward(s) {grouped} score whole groups, but verl's per-sample reward loop "
                             "hands compute_score one rollout; score whole batches with RewardClient.score_rows")
        row = plain_value(dict(extra_info or {}))
        row.update(label_columns(plain_value(ground_truth), self.label_column))
        row.setdefault("data_source", data_source)
        row[self.contract["columns"]["completion"]] = solution_str
        return self._finite(self.score_rows([row]))[0]
