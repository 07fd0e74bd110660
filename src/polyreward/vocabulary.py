"""The vocabulary every layer shares: score matrices, the weighted total, group keys, failure policies and errors.

This module is the bottom floor. It imports nothing of polyreward, so the combiners, rubrics, rewards, runners
and adapters can all speak it without pulling each other in (``tests/test_layering.py`` holds the layer order).

- **Scores**: an (N, K) float64 matrix, NaN = not applicable or failed, with reasons, failures and advantages
  (:class:`ScoredBatch`, the one result type of scoring), and the one weighted total (:func:`weighted_total`).
- **Group identity**: :func:`group_key` says what one group is, everywhere (the scorer, the part store, the
  per-group retry of a group-level reward, the client): ``1``, ``1.0`` and ``"1"`` are one group; a list or
  dict id is keyed by its canonical JSON text, built without recursion, so a hostile nested id is one group,
  never a crash. :func:`group_ids` turns N ids into the array a combiner gets.
- **Failure policy** (config key ``on_reward_error``): ``"nan"`` scores a failed rollout NaN with a reason and
  counts it, ``"raise"`` stops with a :class:`RewardError`. A reason reads ``error: <Type>: <message>``
  (:func:`failure_reason`); a reward that does not apply to a row gives None, reason :data:`NOT_APPLICABLE`.
- **Errors**: :class:`MissingColumnError` (a reward or combiner reads a column the data lacks, found before any
  scoring), :class:`RewardError`, :class:`ConfigError`.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

# ------------------------------------------------------------------------------------------------ failure policy

Exactness = Literal["exact", "reconstructed"]  # how a reward or combiner follows its source (``polyreward list``)
OnRewardError = Literal["nan", "raise"]
ON_REWARD_ERROR: tuple[str, ...] = ("nan", "raise")
NOT_APPLICABLE = "not applicable"
REASON_LIMIT = 500  # characters of a failure reason


def check_policy(on_reward_error: str) -> str:
    """``on_reward_error`` when it is one of :data:`ON_REWARD_ERROR`; a ValueError naming the allowed values otherwise."""
    if on_reward_error not in ON_REWARD_ERROR:
        raise ValueError(f"on_reward_error must be one of {', '.join(ON_REWARD_ERROR)}, got {on_reward_error!r}")
    return on_reward_error


def failure_reason(exc: BaseException) -> str:
    """The reason a rollout failed, as every reward and the scorer write it: ``error: <Type>: <message>`` (500 characters at most)."""
    return f"error: {type(exc).__name__}: {exc}"[:REASON_LIMIT]


# ------------------------------------------------------------------------------------------------ errors


class UserError(Exception):
    """A mistake of the person running polyreward (a config, an input file, an argument), not of polyreward or of the model.

    Every such error subclasses this one beside its usual base (``ValueError``, ``KeyError``), so ``except ValueError``
    keeps catching it; the command line maps it once to ``error: <message>`` and exit status 2 (:func:`polyreward.cli.main`).
    """


class ConfigError(UserError, ValueError):
    """An invalid configuration; the message names the key and what is allowed."""


class UnknownTypeError(ConfigError, KeyError):
    """A reward or combiner type name the registry does not know (a KeyError too, as a registry lookup)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class MissingColumnError(UserError, KeyError):
    """A reward reads a column the batch does not have (names the reward, the column and what is there)."""

    def __init__(self, reward: str, column: str, available: Sequence[str] = (), hint: str = "", kind: str = "reward") -> None:
        self.reward, self.column, self.available = reward, column, list(available)
        super().__init__(f"{kind} {reward!r} reads column {column!r}, which the data does not have; columns: {self.available}"
                         + (f" ({hint})" if hint else ""))

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class RewardError(RuntimeError):
    """A reward failed while ``on_reward_error="raise"``."""

    def __init__(self, reward: str, failed: int, n: int, reason: str) -> None:
        self.reward, self.failed, self.n, self.reason = reward, failed, n, reason
        super().__init__(f"reward {reward!r} failed on {failed} of {n} rollouts (on_reward_error: raise); first: {reason}")

    def __reduce__(self):  # Ray and worker processes ship it back: rebuild from the fields, not the message
        return type(self), (self.reward, self.failed, self.n, self.reason)


def yaml_error_message(path: Any, exc: Exception) -> str:
    """``"FILE line N: invalid YAML: problem"`` (the line when PyYAML knows it)."""
    mark = getattr(exc, "problem_mark", None)
    where = f" line {mark.line + 1}" if mark is not None else ""
    return f"{path}{where}: invalid YAML: {getattr(exc, 'problem', exc)}"


# ------------------------------------------------------------------------------------------------ group identity

_INT64 = (-(2**63), 2**63)
_CANONICAL_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,18})")


def _integral(value: int) -> int | str:
    """An integer group id: itself within int64; beyond, its decimal text (hex past str()'s 4,300-digit limit)."""
    if _INT64[0] <= value < _INT64[1]:
        return value
    try:
        return str(value)
    except ValueError:
        return f"int:{value.to_bytes((value.bit_length() + 8) // 8, 'big', signed=True).hex()}"


def _scalar_key(value: Any) -> int | str | None:
    """The key of one non-container id (see :func:`group_key`)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return _integral(int(value))
    if isinstance(value, numbers.Real):
        number = float(value)
        if math.isnan(number):
            return None
        if math.isfinite(number) and number.is_integer():
            return _integral(int(number))
        return repr(number)
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, str):
        if _CANONICAL_INT.fullmatch(value):
            return _integral(int(value))
        return value
    return f"{type(value).__name__}:{value!r}"[:10_000]


def _json_text(value: Any) -> str:
    """Canonical JSON-like text of a nested list/dict id, built with an explicit stack (no recursion)."""
    import json

    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Token):
            parts.append(item.text)
        elif isinstance(item, Mapping):
            entries = sorted(((str(k), v) for k, v in item.items()), key=lambda kv: kv[0])
            stack.append(_Token("}"))
            for i in range(len(entries) - 1, -1, -1):
                stack.append(entries[i][1])
                stack.append(_Token(("," if i else "") + json.dumps(entries[i][0]) + ":"))
            stack.append(_Token("{"))
        elif isinstance(item, (list, tuple)) or (isinstance(item, np.ndarray) and item.ndim):
            items = list(item)
            stack.append(_Token("]"))
            for i in range(len(items) - 1, -1, -1):
                stack.append(items[i])
                if i:
                    stack.append(_Token(","))
            stack.append(_Token("["))
        else:
            key = _scalar_key(item)
            parts.append("null" if key is None else str(key) if isinstance(key, int) else json.dumps(key))
    return "".join(parts)


class _Token:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def group_key(value: Any) -> int | str | None:
    """What one group is: the key of a group id, the same wherever the id came from.

    - a number that is an integer (``1``, ``1.0``, ``np.int64(1)``) and a string holding one in canonical form
      (``"1"``, not ``"01"`` or ``"1.0"``) are that int (beyond int64: its text);
    - another float is its ``repr`` text (``0.5`` and ``"0.5"`` are one group); NaN and None are None;
    - a list, tuple or dict (an id read from JSON) is its canonical JSON text (keys sorted), built with an explicit
      stack: a nested id of any depth is one group, never a RecursionError;
    - any other string is itself; booleans are ``"true"``/``"false"``.
    """
    if isinstance(value, (list, tuple, Mapping)) or (isinstance(value, np.ndarray) and value.ndim):
        return _json_text(value)
    if isinstance(value, np.ndarray):
        value = value.item()
    return _scalar_key(value)


def group_ids(groups: Sequence[Any]) -> np.ndarray:
    """N group ids as the array a combiner gets: each id's :func:`group_key` (int64 when every key is an int,
    else one object per row). Keys, not per-batch codes: a combiner that remembers questions across steps (DRPO)
    sees the same key for the same question in every batch."""
    if type(groups).__module__.startswith("torch") and hasattr(groups, "detach"):
        groups = groups.detach().cpu().numpy()  # a tensor of ids: its values, as a numpy array of them would be
    if isinstance(groups, np.ndarray) and groups.ndim == 1:
        if groups.dtype.kind in "iu":
            return groups.astype(np.int64, copy=False)
        if groups.dtype.kind == "f":  # whole floats within int64 are those ints (group_key of each), in one pass
            with np.errstate(invalid="ignore"):
                whole = np.isfinite(groups) & (np.abs(groups) < 2.0**63) & (np.floor(groups) == groups)
            if whole.all():
                return groups.astype(np.int64)
    if isinstance(groups, (list, tuple)) and groups:
        kinds = set(map(type, groups))
        if kinds == {int}:  # Python ints (not bools): each is its own key within int64
            try:
                return np.asarray(groups, dtype=np.int64)
            except OverflowError:
                pass
        elif kinds == {str}:  # strings: the key of each distinct one, looked up per row
            key_of = {text: group_key(text) for text in set(groups)}
            keys = [key_of[text] for text in groups]
            if all(type(k) is int for k in key_of.values()):
                return np.asarray(keys, dtype=np.int64)
            array = np.empty(len(keys), dtype=object)
            array[:] = keys
            return array
    keys = [group_key(g) for g in groups]
    if keys and all(type(k) is int for k in keys):
        return np.asarray(keys, dtype=np.int64)
    array = np.empty(len(keys), dtype=object)
    array[:] = keys
    return array


# ------------------------------------------------------------------------------------------------ scores


def weighted_total(scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """TRL's combined reward, Σ_k w_k R_ik over the rewards that apply (a NaN score adds 0: ``nansum``); NaN for a
    row where no reward applies. The one weighted total of the project (files, adapters, trainer, combiners).

    The sum runs left to right over the rewards, ``((0 + w_1 R_i1) + w_2 R_i2) + ...``, one column at a time,
    so a row's total is a function of that row alone: the same bits in a batch of one as in a file of a million, in
    a chunk of 7 as in a chunk of 1,000, in the server as in TRL's adapter. A BLAS matrix-vector product (this
    function's ``scores @ weights`` until 2026-12-03) rounds a row differently by the number of rows around it (29 of
    64 rows of 4 random rewards changed their last bit between a 1-row and a 1,000-row product on the CI machine).
    For up to 4 rewards the order is also that of TRL's ``(rewards_per_func * weights).nansum(dim=1)`` on CPU, so the
    totals equal TRL's bit for bit. The raw columns are summed first; only the rows that come out NaN (a reward that
    does not apply, or ``inf - inf``) are summed again with their NaN scores as 0. float32 scores are read as they
    are: each product widens its float32 operand to float64 first (exact), so they give what their float64 copy gives.
    """
    scores = np.asarray(scores)
    if scores.dtype != np.float32:
        scores = np.asarray(scores, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    if not scores.shape[1]:
        return np.full(len(scores), np.nan)
    total = np.empty(len(scores))
    block = min(len(scores), _SUM_BLOCK)
    products = np.empty((block, scores.shape[1]))  # one block's products w_k R_ik, computed contiguously
    tiled = np.tile(weights, block)  # w_1 ... w_K w_1 ... w_K: the weight of every cell of a block, row-major
    for start in range(0, len(scores), _SUM_BLOCK):  # blocks of rows that stay in cache across the K column passes
        rows, out = scores[start:start + _SUM_BLOCK], total[start:start + _SUM_BLOCK]
        _left_to_right(rows, tiled, out, products[:len(out)])
        nan_rows = np.flatnonzero(np.isnan(out))  # a reward that does not apply (or inf - inf): summed again
        if len(nan_rows):
            _sum_applicable(rows, tiled, out, nan_rows)
    return total


def _sum_applicable(scores: np.ndarray, tiled: np.ndarray, total: np.ndarray, rows: np.ndarray) -> None:
    """``total[rows]`` summed again with the NaN scores of those rows as 0; NaN where none applies."""
    block = np.take(scores, rows, axis=0)  # ~5x faster than scores[rows] for (N, K) rows
    missing = np.isnan(block)
    total[rows] = _left_to_right(np.where(missing, 0.0, block), tiled)
    k = scores.shape[1]
    if k in (1, 2, 4, 8):  # a row's k NaN flags read as one k-byte word: all set <=> 0x01..01
        word = np.dtype(f"u{k}")
        none_applies = missing.view(word)[:, 0] == np.frombuffer(b"\x01" * k, dtype=word)[0]
    else:
        none_applies = missing.all(axis=1)
    total[rows[none_applies]] = np.nan


def _left_to_right(
    scores: np.ndarray, tiled: np.ndarray, out: np.ndarray | None = None, products: np.ndarray | None = None
) -> np.ndarray:
    """``((0 + w_1 s_i1) + w_2 s_i2) + ...`` with element-wise multiplies and adds (no fused or reordered arithmetic);
    the leading 0 is TRL's (torch's sum starts from +0.0), so an all-zero row sums to +0.0, never -0.0. ``tiled``: the
    K weights repeated for at least N rows; ``out`` (N,) and ``products`` (N, K): float64 arrays to use.

    The products are taken over the whole (N, K) block at once (a float64 copy of it, then one contiguous multiply by
    the tiled weights; a float32 score widens exactly), and the columns of products added one at a time: the same
    operations on the same values as column by column, in about half the time of strided column multiplies."""
    n, k = scores.shape
    out = np.empty(n) if out is None else out
    products = np.empty((n, k)) if products is None else products
    cells = products.reshape(-1)
    if scores.dtype == np.float64 and scores.flags.c_contiguous:
        np.multiply(scores.reshape(-1), tiled[:len(cells)], out=cells)
    else:  # float32 (or strided) scores: a float64 copy first, then the same products
        np.copyto(products, scores)
        np.multiply(cells, tiled[:len(cells)], out=cells)
    np.add(products[:, 0], 0.0, out=out)  # x + 0 = x, and -0.0 + 0.0 = +0.0
    for column in range(1, k):
        out += products[:, column]
    return out


_SUM_BLOCK = 65_536  # rows per block of the weighted total (an element-wise sum: the block size never changes a bit)


@dataclass
class ScoredBatch:
    """Scores of K rewards over N rollouts, and what happened to them: the one result type of scoring.

    ``scores[i, k]`` is NaN where reward k does not apply to rollout i or failed on it; ``reasons[name][i]`` says
    why; ``details[name][sub]`` holds named sub-scores. ``failed[i, k]`` marks the rollouts reward k failed on,
    ``failures[name]`` counts them and ``first_failure[name]`` is the first of their reasons; ``advantages`` is (N,)
    float64 with 0 for rows where no reward applied (as TRL), when a combiner ran; ``diagnostics`` is
    :func:`polyreward.combiners.diagnostics.diagnose`'s summary when asked for; ``seconds[name]`` the wall-clock
    seconds each reward took on this batch; ``unscored`` (N,) bool marks rows nothing scored (a shard no reward
    server answered: every reward failed there with the reason why), None when every row was scored.

    Every path that holds rows in pieces (a file's chunks and parts, the Ray actors, the reward server's shards of a
    client's batch) joins the pieces with :meth:`concat` and picks rows with :meth:`take`; concatenating the takes of
    a partition of the rows, put back in order, gives the batch back (``tests/test_scored_batch.py``). A batch read
    back from a file's parts holds the scores and the failure counts only (``reasons`` empty, ``failed`` None): the
    reasons are in the output file.
    """

    names: list[str]
    weights: np.ndarray
    scores: np.ndarray
    reasons: dict[str, list[str]]
    details: dict[str, dict[str, list[float | None]]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    first_failure: dict[str, str] = field(default_factory=dict)
    failed: np.ndarray | None = None  # (N, K) bool: reward k failed on rollout i
    advantages: np.ndarray | None = None
    diagnostics: dict[str, float] | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    unscored: np.ndarray | None = None  # (N,) bool: rows nothing scored (a client's shard no server answered)

    @classmethod
    def concat(cls, parts: Sequence[ScoredBatch]) -> ScoredBatch:
        """The rows of ``parts`` one after the other; every part scores the same rewards, in the same order.

        Scores, reasons, sub-scores, advantages and the masks are joined, failure counts and seconds summed, and each
        reward's first failure is the first part's that has one. A sub-score some parts lack is None in their rows;
        reasons, ``failed`` and ``advantages`` are kept when every part has them (else ``{}`` / None); ``unscored``
        is False in the rows of a part without one; ``diagnostics`` (statistics of one batch) are None."""
        parts = list(parts)
        if not parts:
            raise ValueError("ScoredBatch.concat needs at least one part (its rewards name the columns)")
        first = parts[0]
        names = list(first.names)
        for part in parts[1:]:
            if list(part.names) != names:
                raise ValueError(f"ScoredBatch.concat: a part scores rewards {list(part.names)}, the first {names}")
        sizes = [part.scores.shape[0] for part in parts]
        reasons = {name: [r for part in parts for r in part.reasons[name]] for name in names
                   if all(name in part.reasons for part in parts)}
        subs: dict[str, dict[str, None]] = {}
        for part in parts:
            for name, values in part.details.items():
                subs.setdefault(name, {}).update(dict.fromkeys(values))
        details = {name: {sub: [v for part, n in zip(parts, sizes) for v in part.details.get(name, {}).get(sub, [None] * n)]
                          for sub in found} for name, found in subs.items()}
        failures = {name: sum(part.failures.get(name, 0) for part in parts) for name in names}
        first_failure: dict[str, str] = {}
        seconds: dict[str, float] = {}
        for part in parts:
            for name, reason in part.first_failure.items():
                first_failure.setdefault(name, reason)
            for name, spent in part.seconds.items():
                seconds[name] = seconds.get(name, 0.0) + spent
        k = len(names)
        scores = np.concatenate([np.asarray(part.scores, dtype=np.float64).reshape(-1, k) for part in parts])
        failed = None if any(p.failed is None for p in parts) else np.concatenate([p.failed.reshape(-1, k) for p in parts])
        advantages = None if any(p.advantages is None for p in parts) else np.concatenate([p.advantages for p in parts])
        unscored = None
        if any(p.unscored is not None for p in parts):
            unscored = np.concatenate([np.zeros(n, dtype=bool) if p.unscored is None else p.unscored for p, n in zip(parts, sizes)])
        return cls(names, first.weights, scores, reasons, details, failures, first_failure, failed, advantages, None, seconds,
                   unscored)

    def take(self, rows: Sequence[int] | np.ndarray) -> ScoredBatch:
        """The rows at ``rows`` (positions, in their order, repeats allowed; or an (N,) bool mask), as a batch of their own.

        The failure counts and first reasons are those of the rows taken (counted from ``failed``, which a batch
        must have to be taken from); ``seconds`` and ``diagnostics`` belong to the whole batch and are left out."""
        index = np.asarray(rows)
        if index.dtype == bool:
            if index.shape != (self.scores.shape[0],):
                raise ValueError(f"a row mask needs {self.scores.shape[0]} values, got shape {index.shape}")
            index = np.flatnonzero(index)
        index = index.astype(np.int64, copy=False).reshape(-1)
        if self.failed is None:
            raise ValueError("ScoredBatch.take needs the failed mask to count the failures of the rows taken "
                             "(a batch read back from a file's parts holds the counts only)")
        positions = index.tolist()
        failed = self.failed[index]
        reasons = {name: [values[i] for i in positions] for name, values in self.reasons.items()}
        details = {name: {sub: [values[i] for i in positions] for sub, values in subs.items()} for name, subs in self.details.items()}
        failures, first_failure = {}, {}
        for k, name in enumerate(self.names):
            hits = np.flatnonzero(failed[:, k])
            failures[name] = int(hits.size)
            if hits.size and name in reasons:
                first_failure[name] = reasons[name][int(hits[0])]
        return type(self)(list(self.names), self.weights, self.scores[index], reasons, details, failures, first_failure, failed,
                          None if self.advantages is None else self.advantages[index], None, {},
                          None if self.unscored is None else self.unscored[index])

    @property
    def total(self) -> np.ndarray:
        """Weighted sum per rollout over the rewards that apply (:func:`weighted_total`)."""
        return weighted_total(self.scores, self.weights)

    def column(self, name: str) -> np.ndarray:
        return self.scores[:, self.names.index(name)]

    def output_columns(self) -> dict[str, list[Any]]:
        """The columns ``polyreward score`` adds to each row, in order: each reward's score (None where NaN), ``reward``
        (the weighted total), ``<name>_reason`` (None where empty) and ``<name>.<sub>`` sub-scores."""
        out: dict[str, list[Any]] = {}
        for k, name in enumerate(self.names):
            out[name] = _none_for_nan(self.scores[:, k])
        out["reward"] = _none_for_nan(self.total)
        for name in self.names:
            reasons = self.reasons[name]
            out[f"{name}_reason"] = list(reasons) if all(reasons) else [r or None for r in reasons]
        for name, subs in self.details.items():
            for sub, values in subs.items():
                out[f"{name}.{sub}"] = list(values)
        return out


def _none_for_nan(values: np.ndarray) -> list[float | None]:
    """A float column as Python floats, None where NaN (the list in one step when it holds no NaN, the usual)."""
    floats = values.tolist()
    return [None if math.isnan(v) else v for v in floats] if np.isnan(values).any() else floats


ScoreMatrix = ScoredBatch  # the earlier name of the same type, kept for code that imports it


def import_callable(spec: str, what: str) -> Any:
    """The callable ``"package.module:name"`` names, from a config's text (trusted, as ``type: mypkg:Class``; never
    model output); a ValueError naming ``what`` when it cannot be imported or is not callable."""
    import importlib

    module_name, _, attr = spec.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{what}: cannot import {spec!r}: {exc}") from None
    if not callable(found):
        raise ValueError(f"{what}: {spec!r} is not callable")
    return found
