"""What each route of ``polyreward serve`` does with a body: parse, check, turn into rows, score, answer.

These functions run inside a slot process (:mod:`polyreward.runners.server_slots`), never on the server's event
loop, so a hostile body or a slow reward costs that process only, and the front can kill it at the deadline.

Checks, each one clear answer:

- the body is JSON (stdlib ``json``: ``NaN`` literals from Python clients are accepted) nested at most
  :data:`MAX_DEPTH` levels (checked without recursion; a deeper body, or one the parser itself finds too deep,
  is 400);
- the rows have the shape of the route (400 naming the problem) and the batch has every column the rewards
  read (422 naming the reward and the column, as ``polyreward score`` refuses such a file);
- **per-field cap**: a row whose field holds more than ``max_field_chars`` characters of text (strings inside a
  chat list counted together) is not scored: NaN for every reward with the reason
  ``input: column 'completion' holds 1,200,000 characters, over this server's limit of 1,048,576 (--max-field-chars)``,
  counted as a failure of every reward; the other rows are scored as usual (under ``on_reward_error: raise``
  the request is refused with that line instead);
- ``on_reward_error: raise``: a failing reward makes the answer 422 with the :class:`RewardError`'s one line and
  its fields, which :class:`~polyreward.runners.client.RewardClient` raises again as the same error.

Peer routes (``/get_reward``, ``/slime``) receive text a tokenizer decoded with its special tokens kept
(OpenRLHF decodes ``prompt + response`` token ids with ``skip_special_tokens=False``), so the special/EOS text at
either end of the completion (``<|im_end|>``, ``</s>``, ``<|endoftext|>``, ... :data:`SPECIAL_TEXT`) is cut
before scoring, in linear time; a dict label becomes one column per key, the rule of the verl adapter
(:func:`polyreward.schema.label_columns`).
"""

from __future__ import annotations

import copy
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from polyreward.schema import Batch, ColumnMap, label_columns, redact_credentials
from polyreward.vocabulary import weighted_total

MAX_DEPTH = 64
_NO_STATE = object()  # a /score request that did not send "combiner_state"
DEFAULT_MAX_FIELD_CHARS = 1 << 20
# Special-token text tokenizers of common model families decode at the ends of a sequence (EOS, end of turn,
# padding, BOS): Qwen/ChatML, Llama 2/3, Mistral, Gemma, Phi-3, DeepSeek, GPT-2/NeoX, gpt-oss, BERT-style pads.
SPECIAL_TEXT: tuple[str, ...] = (
    "<|im_end|>", "<|endoftext|>", "</s>", "<s>", "<|eot_id|>", "<|eom_id|>", "<|end_of_text|>", "<|begin_of_text|>",
    "<end_of_turn>", "<eos>", "<bos>", "<|end|>", "<|return|>", "<\uff5cend\u2581of\u2581sentence\uff5c>",
    "<\uff5cbegin\u2581of\u2581sentence\uff5c>", "<|pad|>", "<pad>", "[PAD]", "<|finetune_right_pad_id|>",
)


def tokenizer_special_text(folder: str | Path) -> tuple[str, ...]:
    """The special tokens of a Hugging Face tokenizer folder, read from its JSON files (no transformers import): the
    ``added_tokens`` marked special in ``tokenizer.json`` and ``added_tokens_decoder`` of ``tokenizer_config.json``,
    and its ``eos``/``bos``/``pad``/``unk`` tokens. A ValueError names a folder that holds neither file."""
    folder = Path(folder).expanduser()
    found: dict[str, None] = {}
    files = [folder / "tokenizer.json", folder / "tokenizer_config.json"]
    if not any(f.is_file() for f in files):
        raise ValueError(f"--tokenizer {folder}: no tokenizer.json or tokenizer_config.json there")
    for file in files:
        if not file.is_file():
            continue
        data = json.loads(file.read_text(encoding="utf-8"))
        added = data.get("added_tokens") or list((data.get("added_tokens_decoder") or {}).values())
        found.update(dict.fromkeys(t["content"] for t in added if isinstance(t, dict) and t.get("special") and t.get("content")))
        for key in ("eos_token", "bos_token", "pad_token", "unk_token"):
            token = data.get(key)
            token = token.get("content") if isinstance(token, dict) else token
            if isinstance(token, str) and token:
                found[token] = None
    return tuple(found)


class NeedsSlot(Exception):
    """A request the front lane does not score (:mod:`polyreward.runners.server_front`): it goes to a slot as it came."""


class RequestProblem(Exception):
    """A request answered with ``status`` and a one-line ``message`` (``fields`` go into the JSON body too)."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.headers, self.fields = status, message, dict(headers or {}), fields

    def body(self) -> dict[str, Any]:
        return {"error": self.message, **self.fields}


@dataclass
class RouteSettings:
    """What the routes need besides the rewards (the ``polyreward serve`` flags)."""

    label_column: str = "answer"
    nan_reward: float = 0.0
    max_field_chars: int = DEFAULT_MAX_FIELD_CHARS
    special_text: tuple[str, ...] = SPECIAL_TEXT  # () = keep the completions as sent


def dumps(body: Any) -> bytes:
    """Compact JSON bytes (orjson: several times faster than the standard library on a batch's answer)."""
    import orjson

    return orjson.dumps(body, default=str)


def parse_body(raw: bytes) -> Any:
    """The JSON value of ``raw``; 400 when it is not JSON or nests deeper than :data:`MAX_DEPTH`.

    orjson parses first (fast; strict JSON, at most 1024 levels); what it refuses is read again by the standard
    library, which also takes the ``NaN``/``Infinity`` literals Python clients write and gives the error message."""
    import orjson

    try:
        payload = orjson.loads(raw)
    except orjson.JSONDecodeError:
        try:
            payload = json.loads(raw)
        except RecursionError:
            raise RequestProblem(400, f"the body nests deeper than {MAX_DEPTH} levels") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise RequestProblem(400, f"the body is not valid JSON: {str(exc)[:200]}") from None
    level, depth = ([payload] if isinstance(payload, (list, dict)) else []), 1
    while level:  # depth check without recursion, one level of containers at a time
        if depth > MAX_DEPTH:
            raise RequestProblem(400, f"the body nests deeper than {MAX_DEPTH} levels")
        # the values one level down, gathered in C; the containers among them picked out only if there are any
        # (a level of rows of strings ends here after one pass over their types)
        values = list(chain.from_iterable(value.values() if type(value) is dict else value for value in level))
        kinds = set(map(type, values))
        level, depth = ([v for v in values if type(v) is list or type(v) is dict] if list in kinds or dict in kinds else []), depth + 1
    return payload


def text_chars(value: Any) -> int:
    """Characters of text in one field: a string's length, or the total over the strings inside a list/dict."""
    if isinstance(value, str):
        return len(value)
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return total


def oversized(rows: Sequence[Mapping[str, Any]], limit: int) -> dict[int, str]:
    """``{row index: reason}`` for the rows with a field over ``limit`` characters of text."""
    found = {}
    for i, row in enumerate(rows):
        for column, value in row.items():
            chars = text_chars(value)
            if chars > limit:
                found[i] = (f"input: column {column!r} holds {chars:,} characters, over this server's limit of "
                            f"{limit:,} (--max-field-chars)")
                break
    return found


def strip_special_text(text: Any, markers: Sequence[str]) -> Any:
    """``text`` without the special-token text (and the whitespace between such markers) at either end; linear time."""
    if not isinstance(text, str) or not markers:
        return text
    start, end = 0, len(text)
    while True:  # the end: markers, optionally separated by whitespace ("<|im_end|>\n<|endoftext|>")
        cut = end
        while cut > start and text[cut - 1].isspace():
            cut -= 1
        marker = next((m for m in markers if text.endswith(m, start, cut)), None)
        if marker is None:
            break
        end = cut - len(marker)
    while True:  # the start: BOS / padding
        marker = next((m for m in markers if text.startswith(m, start, end)), None)
        if marker is None:
            break
        start += len(marker)
    return text[start:end] if (start, end) != (0, len(text)) else text


BODY_FORMS = ("rows", "shared_rows")  # the /score bodies this server reads (GET /contract: "body_forms")


def rows_of(payload: Any) -> list[dict[str, Any]]:
    """``/score``'s rows: ``"rows"`` as sent, or ``"shared_rows"`` with the text of their ``"shared"`` columns put back
    (:func:`unshare_rows`)."""
    shared = isinstance(payload, dict) and "shared_rows" in payload and "rows" not in payload
    rows = payload.get("shared_rows" if shared else "rows") if isinstance(payload, dict) else None
    if not isinstance(rows, list) or not rows:
        raise RequestProblem(400, 'the body must be a JSON object with a non-empty list "rows"')
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise RequestProblem(400, f"rows[{i}] is {type(row).__name__}, not an object")
    return unshare_rows(rows, payload.get("shared")) if shared else rows


def unshare_rows(rows: list[dict[str, Any]], shared: Any) -> list[dict[str, Any]]:
    """The rows of a ``"shared_rows"`` body, each shared column's text put back in place (400 for a malformed one).

    A client sends a text column that repeats within a request (the prompt of a group's G rollouts) once per
    distinct value: ``"shared": {column: {"values": [text, ...], "index": [i, ...]}}``, one index per row, and the
    rows hold null in that column, so each key keeps its place and the rows read back exactly as the client's
    (the answer is byte for byte that of a ``"rows"`` body). Rows are changed in place.

    >>> unshare_rows([{"prompt": None, "completion": "a"}, {"prompt": None, "completion": "b"}],
    ...              {"prompt": {"values": ["Q"], "index": [0, 0]}})
    [{'prompt': 'Q', 'completion': 'a'}, {'prompt': 'Q', 'completion': 'b'}]
    """
    if not isinstance(shared, dict):
        raise RequestProblem(400, '"shared_rows" needs an object "shared": {column: {"values": [...], "index": [...]}}')
    n = len(rows)
    for column, table in shared.items():
        values = table.get("values") if isinstance(table, dict) else None
        index = table.get("index") if isinstance(table, dict) else None
        if not isinstance(values, list) or not set(map(type, values)) <= {str}:
            raise RequestProblem(400, f'shared[{column!r}]["values"] must be a list of strings')
        if not isinstance(index, list) or len(index) != n or not set(map(type, index)) <= {int} or \
                (index and not 0 <= min(index) <= max(index) < len(values)):
            raise RequestProblem(400, f'shared[{column!r}]["index"] must hold one index into "values" per row ({n})')
        if any(row.get(column, 0) is not None for row in rows):
            raise RequestProblem(400, f'every row of "shared_rows" must hold null in the shared column {column!r}')
        for row, at in zip(rows, index):
            row[column] = values[at]
    return rows


def _peer_row(columns: ColumnMap, settings: RouteSettings, prompt: Any, completion: Any, label: Any) -> dict[str, Any]:
    return {columns.prompt: prompt, columns.completion: strip_special_text(completion, settings.special_text),
            **label_columns(label, settings.label_column)}


def openrlhf_rows(payload: Any, columns: ColumnMap, settings: RouteSettings) -> list[dict[str, Any]]:
    """OpenRLHF's ``{query, prompts, labels}`` as rows: the completion is the query after its prompt (special-token
    text at the start of the query, e.g. a BOS the prompt lacks, does not hide the prompt)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("query"), list) or not payload["query"]:
        raise RequestProblem(400, 'the body must hold a non-empty list "query" (OpenRLHF remote reward contract)')
    queries = payload["query"]
    prompts = payload.get("prompts") or [None] * len(queries)
    labels = payload.get("labels") or [None] * len(queries)
    if not isinstance(prompts, list) or not isinstance(labels, list) or not len(prompts) == len(labels) == len(queries):
        raise RequestProblem(400, f'"query", "prompts" and "labels" must be lists of one length, got {len(queries)}, '
                                  f'{len(prompts) if isinstance(prompts, list) else prompts!r}, {len(labels) if isinstance(labels, list) else labels!r}')
    rows = []
    for query, prompt, label in zip(queries, prompts, labels):
        if not isinstance(query, str):
            raise RequestProblem(400, f"every query must be a string, got {type(query).__name__}")
        if isinstance(prompt, str) and not query.startswith(prompt):
            query = strip_special_text(query, settings.special_text)
        completion = query[len(prompt):] if isinstance(prompt, str) and query.startswith(prompt) else query
        rows.append(_peer_row(columns, settings, prompt, completion, label))
    return rows


def slime_rows(payload: Any, columns: ColumnMap, settings: RouteSettings) -> list[dict[str, Any]]:
    """slime's one-sample ``{prompt, response, label}`` as one row."""
    if not isinstance(payload, dict) or "response" not in payload:
        raise RequestProblem(400, 'the body must be a JSON object with "prompt", "response" and "label" (slime --rm-url payload)')
    return [_peer_row(columns, settings, payload.get("prompt"), payload["response"], payload.get("label"))]


def _filled(value: float, nan_reward: float) -> float:
    return nan_reward if math.isnan(value) else value


def scored_json(names: Sequence[str], weights: Sequence[float], scores: np.ndarray, reasons: Mapping[str, list[str]],
                total: np.ndarray, failures: Mapping[str, int], failed: np.ndarray, advantages: np.ndarray | None,
                timed_out: bool = False) -> dict[str, Any]:
    """``/score``'s answer: the matrix, reasons, totals, failure counts, failed rewards per row, advantages. NaN stays
    a float here: :func:`dumps` (orjson) writes it as null, as it writes None (no pass over the cells for it)."""
    return {
        "names": list(names),
        "weights": [float(w) for w in weights],
        "scores": scores.tolist(),
        "reasons": {name: list(values) for name, values in reasons.items()},
        "total": total.tolist(),
        "failures": dict(failures),
        "failed": failed.sum(axis=1).astype(int).tolist(),
        "advantages": advantages.tolist() if advantages is not None else None,
        "timed_out": timed_out,
    }


def timed_out_json(names: Sequence[str], weights: Sequence[float], n: int, budget: float) -> dict[str, Any]:
    """Every rollout NaN with the reason that the request's time budget ran out (the rewards' names kept)."""
    reason = f"timeout: the request's time budget of {budget:g} s ran out before the rewards finished"
    k = len(names)
    return scored_json(names, weights, np.full((n, k), np.nan), {name: [reason] * n for name in names}, np.full(n, np.nan),
                       dict.fromkeys(names, n), np.ones((n, k), dtype=bool), None, timed_out=True)


def peer_answer(route: str, scored: Mapping[str, Any], nan_reward: float) -> Any:
    """``/get_reward``'s ``{rewards, scores, extra_logs}`` or ``/slime``'s one number, from ``/score``'s answer.

    ``extra_logs`` carry applicability, so the per-reward means a trainer logs are over the rollouts each reward
    scored: ``<name>`` holds the reward's score, NaN where it did not apply or failed, and is left out when it scored
    no rollout of the request (OpenRLHF sends one sample per request and averages each key over the samples that
    have it); ``<name>/applicable`` is 1.0 / 0.0 per rollout (its mean is the share of rollouts the reward scored);
    ``failed`` counts the rewards that failed on each rollout. Encode with :func:`dumps_peer` (NaN literals)."""
    rewards = [_filled(math.nan if v is None else v, nan_reward) for v in scored["total"]]
    if route == "/slime":
        return rewards[0]
    logs: dict[str, list[float]] = {}
    for k, name in enumerate(scored["names"]):
        values = [math.nan if row[k] is None else float(row[k]) for row in scored["scores"]]
        applicable = [0.0 if math.isnan(v) else 1.0 for v in values]
        if any(applicable):
            logs[name] = values
        logs[f"{name}/applicable"] = applicable
    logs["failed"] = [float(f) for f in scored["failed"]]
    return {"rewards": rewards, "scores": rewards, "extra_logs": logs}


def dumps_peer(body: Any) -> bytes:
    """A peer route's answer as JSON with ``NaN`` literals for cells no reward scored (Python's ``json``, which
    OpenRLHF's aiohttp/requests clients read back as float NaN; orjson would write null, which torch refuses)."""
    return json.dumps(body, allow_nan=True, separators=(",", ":")).encode()


def blank_label(value: Any) -> bool:
    """A label that carries no reference: None, NaN or the empty string (OpenRLHF sends ``""`` for every sample when
    ``--data.label_key`` is not set). Whitespace is kept as a label: it may be the reference itself."""
    return value is None or value == "" or (isinstance(value, float) and math.isnan(value))


class SlotScorer:
    """One slot process's rewards (built once from the config) and what each route does with a body."""

    def __init__(self, config: Any, workers: int | None, settings: RouteSettings) -> None:
        self.config, self.settings = config, settings
        self.scorer = config.build_scorer(workers)  # the contract's owner: rewards, when: rules, columns, policy, combiner
        self.reward_set = self.scorer.rewards
        self.columns: ColumnMap = self.scorer.columns
        self.policy: str = self.scorer.on_reward_error
        # the combiner as built, never used itself: every request combines with a fresh copy (the server keeps no
        # history between requests; a client that wants a stateful combiner's history sends it: "combiner_state")
        self.pristine_combiner = copy.deepcopy(self.scorer.combiner)
        for reward in self.reward_set:  # the engine's worker processes start now, not on the first request
            pool = getattr(reward, "pool", None)
            if pool is not None and hasattr(pool, "start"):
                pool.start()

    def contract(self) -> dict[str, Any]:
        """What a client needs to send rows this server scores as ``polyreward score`` would (``GET /contract``)."""
        return {
            "names": self.scorer.names,
            "weights": self.scorer.weights.tolist(),
            "columns": {"prompt": self.columns.prompt, "completion": self.columns.completion, "group": self.columns.group,
                        **self.config.columns.rows},
            "required_columns": list(self.scorer.required_columns(combine=False)),
            "group_level_rewards": [r.name for r in self.scorer.rewards if getattr(r, "group_columns", ())],
            "on_reward_error": self.policy,
            "combiner": getattr(self.scorer.combiner, "type_name", None) or (type(self.scorer.combiner).__name__ if self.scorer.combiner else None),
            "label_column": self.settings.label_column,
            "nan_reward": self.settings.nan_reward,
            "special_text": list(self.settings.special_text),
            "max_field_chars": self.settings.max_field_chars,
            "max_depth": MAX_DEPTH,
            "body_forms": list(BODY_FORMS),
        }

    def handle(self, route: str, raw: bytes, accepted, *, combiner: bool = True) -> tuple[int, bytes]:
        """(status, JSON body) for one request; ``accepted(n)`` is called once the body is parsed into n rows.
        ``combiner=False`` (the front lane): a ``/score`` request asking for the config's combiner's advantages raises
        :class:`NeedsSlot` instead (a combiner declares no bound on its cost: DRPO's k-means reads a client's history)."""
        from polyreward.vocabulary import MissingColumnError, RewardError

        started = time.perf_counter()
        try:
            payload = parse_body(raw)
            state: Any = _NO_STATE
            if route == "/score":
                rows, advantages = rows_of(payload), bool(payload.get("advantages"))
                state = payload.get("combiner_state", _NO_STATE)
                if advantages and not combiner and self.scorer.combiner is not None:
                    raise NeedsSlot
            elif route == "/get_reward":
                rows, advantages = openrlhf_rows(payload, self.columns, self.settings), False
            elif route == "/slime":
                rows, advantages = slime_rows(payload, self.columns, self.settings), False
            else:
                raise RequestProblem(404, f"no route {route}")
            unlabeled = self.unlabeled(rows) if route != "/score" else {}
            accepted(len(rows))
            scored = self.score(rows, advantages, state, unlabeled, body_bytes=len(raw))
            if route == "/score":
                return 200, dumps({**scored, "elapsed_s": time.perf_counter() - started})
            return 200, dumps_peer(peer_answer(route, scored, self.settings.nan_reward))
        except RequestProblem as problem:
            return problem.status, dumps(problem.body())
        except MissingColumnError as exc:
            return 422, dumps({"error": redact_credentials(str(exc)), "error_type": "MissingColumnError"})
        except RewardError as exc:
            return 422, dumps({"error": redact_credentials(str(exc)), "error_type": "RewardError", "reward": exc.reward,
                               "failed": exc.failed, "n": exc.n, "reason": redact_credentials(exc.reason)})
        except NeedsSlot:
            raise
        except Exception as exc:  # a bug, not the client's fault: 500 with the one line; the slot lives on
            return 500, dumps({"error": redact_credentials(f"{type(exc).__name__}: {exc}")[:500]})

    def unlabeled(self, rows: list[dict[str, Any]]) -> dict[str, list[int]]:
        """``{reward: row indices}`` of peer rows whose label is blank (:func:`blank_label`) for a reward that reads
        the label column and applies to them: those cells fail with a reason instead of scoring the answer against
        nothing. A request in which *every* such row lacks its label is refused (422): the trainer is not sending
        labels at all (OpenRLHF without ``--data.label_key``), and a run of silent zeros must not start."""
        column = self.settings.label_column
        readers = [r for r in self.reward_set if column in r.columns]
        if not readers:
            return {}
        n = len(rows)
        blank = [i for i, row in enumerate(rows) if column in row and blank_label(row[column])]
        if not blank:
            return {}
        keys = dict.fromkeys(key for row in rows for key in row)
        data = {key: [row.get(key) for row in rows] for key in keys}
        found: dict[str, list[int]] = {}
        needed = set()
        for reward in readers:
            if any(c not in data for c in self.reward_set.when.get(reward.name, ())):
                continue  # the scorer's column check names the missing when: column
            mask = self.reward_set.applies(reward.name, data, n)
            rows_needing = range(n) if mask is None else np.flatnonzero(mask).tolist()
            needed.update(rows_needing)
            hit = [i for i in blank if mask is None or mask[i]]
            if hit:
                found[reward.name] = hit
        if needed and needed <= set(blank):
            names = sorted(found)
            raise RequestProblem(422, f"no label for the {len(needed)} rollout(s) of this request that reward(s) {names} score "
                                      f"against column {column!r} (labels missing, null or empty): OpenRLHF sends labels only "
                                      "with --data.label_key set (slime: the sample's label); refusing rather than scoring "
                                      "every answer 0", error_type="MissingLabel")
        return found

    def fresh_scorer(self, state: Any) -> tuple[Any, Any]:
        """(scorer, combiner) for one request: the config's scorer with a fresh copy of its combiner, loaded with the
        client's ``combiner_state`` when it sent one (400 for a state the combiner refuses)."""
        if self.pristine_combiner is None:
            return self.scorer, None
        combiner = copy.deepcopy(self.pristine_combiner)
        if state is not _NO_STATE and state is not None:
            if not isinstance(state, dict):
                raise RequestProblem(400, f'"combiner_state" must be a JSON object (the "combiner_state" of an earlier answer) or null, got {type(state).__name__}')
            try:
                combiner.load_state_dict(state)
            except (ValueError, TypeError, KeyError) as exc:
                raise RequestProblem(400, f'"combiner_state" refused by the combiner: {str(exc)[:300]}') from None
        return self.scorer.with_combiner(combiner), combiner

    def score(self, rows: list[dict[str, Any]], advantages: bool, state: Any = None,
              unlabeled: Mapping[str, list[int]] | None = None, body_bytes: int | None = None) -> dict[str, Any]:
        """``/score``'s answer for ``rows``: rows over the per-field cap are NaN + reason, the others are scored by the
        config's scorer (with ``advantages``, over the rows' groups: the group column, else the prompt's text).

        Stateless per request: the combiner starts fresh (or from the request's ``combiner_state``) every time, so
        the same request gets the same advantages whatever came before it, on any replica; the state after this
        request comes back as ``combiner_state`` when the request sent that key."""
        scorer, combiner = self.fresh_scorer(state) if advantages else (self.scorer, None)
        structural = {self.columns.prompt, self.columns.completion}
        keys = dict.fromkeys(key for row in rows for key in row if key not in structural)
        # with the values, so a reward whose when: rule routes every row away needs none of its columns (as in a file)
        self.scorer.check_columns({key: [row.get(key) for row in rows] for key in keys}, combine=False)
        # a field's text cannot be longer than the body that carried it (JSON takes at least a byte per character)
        rejected = oversized(rows, self.settings.max_field_chars) if body_bytes is None or body_bytes > self.settings.max_field_chars else {}
        if rejected and self.policy == "raise":
            index, reason = next(iter(rejected.items()))
            raise RequestProblem(413, f"rows[{index}]: {reason}")
        names, weights, n = self.reward_set.names, self.reward_set.weights, len(rows)
        keep = [i for i in range(n) if i not in rejected]
        part = rows if not rejected else [rows[i] for i in keep]
        if not part:
            scores, total, failed = np.full((n, len(names)), np.nan), np.full(n, np.nan), np.zeros((n, len(names)), dtype=bool)
            reasons, failures, adv = {name: [""] * n for name in names}, dict.fromkeys(names, 0), None
        else:
            batch = scorer.batch(part)
            combine = advantages and scorer.combiner is not None
            if combine and batch.groups is None:
                batch = Batch(batch.prompts, batch.completions, batch.columns, scorer.groups(batch.prompts, batch.columns))
            try:
                scored = scorer.score(batch, combine=combine)
            except ValueError as exc:  # the contract refused the batch (an empty group id, a combiner's input): the data's fault
                raise RequestProblem(422, redact_credentials(str(exc))[:500], error_type="ValueError") from None
            scores, total, failed, reasons, failures, adv = (scored.scores, scored.total, scored.failed, scored.reasons,
                                                             dict(scored.failures), scored.advantages)
            if failed is None:
                failed = np.zeros(scores.shape, dtype=bool)
            if rejected:  # put the scored rows back in place among the refused ones
                at = np.asarray(keep)
                scores, total, failed = _scatter(scores, at, n, np.nan), _scatter(total, at, n, np.nan), _scatter(failed, at, n, False)
                adv = None if adv is None else _scatter(adv, at, n, 0.0)
                reasons = {name: _scatter_list(values, keep, n) for name, values in reasons.items()}
        for name, indices in (unlabeled or {}).items():
            k = names.index(name)
            for i in indices:
                if i in rejected or failed[i, k]:
                    continue
                scores[i, k], failed[i, k] = np.nan, True
                reasons[name][i] = f"input: no label in column {self.settings.label_column!r} for this rollout"
                failures[name] = failures.get(name, 0) + 1
            total = weighted_total(scores, weights)
        for i, reason in rejected.items():
            failed[i, :] = True
            for name in names:
                reasons[name][i] = reason
                failures[name] = failures.get(name, 0) + 1
        answer = scored_json(names, weights, scores, reasons, total, failures, failed, adv)
        if combiner is not None and state is not _NO_STATE:
            answer["combiner_state"] = combiner.state_dict()
        return answer


def _scatter(values: np.ndarray, at: np.ndarray, n: int, fill: Any) -> np.ndarray:
    out = np.full((n, *values.shape[1:]), fill, dtype=values.dtype)
    out[at] = values
    return out


def _scatter_list(values: Sequence[Any], at: Sequence[int], n: int) -> list[Any]:
    out: list[Any] = [""] * n
    for j, i in enumerate(at):
        out[i] = values[j]
    return out
