"""Score a rollout file with a config: the library behind ``polyreward score`` (the CLI only parses and prints).

The input is read in chunks (:func:`polyreward.io.iter_chunks`), re-cut so no group is split
(:func:`group_aligned`), each chunk is scored by :func:`polyreward.pipeline.score_batch` and stored as a part
(:class:`polyreward.runners.parts.PartStore`), and the parts are joined into the output once every chunk is done, with
the combiner's advantages when the config names one. Each output row is written once; values of the input
columns round-trip unchanged (JSON ints stay ints, strings stay strings).

Checked before any reward runs, each a one-line :class:`~polyreward.io.InputError` or
:class:`~polyreward.pipeline.MissingColumnError`: the input is a readable file of a known format, the output
folder is writable and the output is none of the files the run reads (the input, the config file, any file a
reward loads: :func:`files_read`); on the first chunk, the completion column, every
column a reward declares, the group column when a combiner is set, and the ``by`` column. An input without
rows is an error for every format (scoring nothing is a wrong file far more often than a wish).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from polyreward.config import Config
from polyreward.io import InputError, ReadStats, check_readable, check_writable, iter_chunks
from polyreward.runners.parts import PartStore, chunk_key, group_keys
from polyreward.runners.read_ahead import read_ahead
from polyreward.pipeline import MissingColumnError, score_batch
from polyreward.rewardset import weighted_total
from polyreward.schema import Batch, is_missing, prompt_text
from polyreward.vocabulary import group_key as canonical_group_key

PARTS_VERSION = 3  # bump when the part format changes, so old parts are scored again instead of misread


@dataclass
class FileResult:
    """What a scored file holds: per-reward scores of every row (N, K), their weighted totals, failures, advantages."""

    rows: int
    names: list[str]
    scores: np.ndarray
    total: np.ndarray
    failures: dict[str, int]
    first_failure: dict[str, str]
    advantages: np.ndarray | None
    stats: ReadStats
    by_values: list[str] | None = None
    notes: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # per reward, summed over the chunks scored in this run
    reward_counts: list[str] = field(default_factory=list)  # rewards' own counts (judge endpoints, judge-decided share)

    def every_row_failed(self) -> list[str]:
        """Rewards that failed on every row (e.g. every judge call): a run that must not look like success."""
        return [name for name in self.names if self.rows and self.failures.get(name, 0) == self.rows]


def group_aligned(chunks: Iterable[list[dict[str, Any]]], group_column: str, on_split: Callable[[str, int], None] | None = None) -> Iterator[list[dict[str, Any]]]:
    """Re-cut chunks so no run of consecutive rows with the same group id is split between two chunks.

    Group-level rewards (e.g. OTC's minimal call count in a group) see whole groups as long as the
    file keeps each group's rows together, which rollout files do. With ``on_split``, a group id that
    comes back in a later chunk (the file is not grouped) is reported once: ``on_split(group_id, row)``,
    ``row`` being its 0-based position among the rows read. The last chunk is never cut.
    """
    carry: list[dict[str, Any]] = []
    closed: set[str] = set()
    emitted = 0

    def check(rows: list[dict[str, Any]]) -> None:
        nonlocal on_split
        ids = {canonical_group_key(r.get(group_column)) for r in rows if r.get(group_column) is not None}
        back = ids & closed
        if back and on_split is not None:
            first = next(i for i, r in enumerate(rows) if canonical_group_key(r.get(group_column)) in back)
            on_split(str(rows[first].get(group_column)), emitted + first)
            on_split = None  # once
        closed.update(ids)

    chunks = iter(chunks)
    upcoming = next(chunks, None)
    while upcoming is not None:
        chunk, upcoming = upcoming, next(chunks, None)
        rows = carry + chunk
        if upcoming is None:
            carry = rows
            break
        last = canonical_group_key(rows[-1].get(group_column))  # the one group key: 1, 1.0 and "1" are one group
        cut = len(rows)
        while cut > 0 and last is not None and canonical_group_key(rows[cut - 1].get(group_column)) == last:
            cut -= 1
        if cut == 0:  # the whole chunk is one group so far: keep collecting
            carry = rows
            continue
        carry = rows[cut:]
        if on_split is not None:
            check(rows[:cut])
        emitted += cut
        yield rows[:cut]
    if carry:
        if on_split is not None:
            check(carry)
        yield carry


def settings_fingerprint(config: Config, on_reward_error: str, kept_columns: tuple[str, ...] = ()) -> str:
    """Everything besides the input rows that decides a part's content: the scoring sections of the config, the
    failure policy, the contents of the files rewards read (``*_file``) and the per-row columns kept for the
    combiner. The combiner itself is not in it: advantages are computed when the parts are joined, so fixing
    only the combiner re-scores nothing."""
    sections = config.model_dump(include={"columns", "engine", "rewards"}, mode="json")
    files = {}
    for entry in config.rewards:
        for key, value in entry.params.items():
            path = Path(config.resolve_file(value)) if key.endswith("_file") and isinstance(value, str) else None
            if path is not None and path.is_file():
                files[f"{entry.name}.{key}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return json.dumps({"version": PARTS_VERSION, "config": sections, "on_reward_error": on_reward_error, "files": files,
                       "kept_columns": list(kept_columns)}, sort_keys=True)


def files_read(config: Config) -> dict[Path, str]:
    """Every existing file the run reads besides the input, each with what it is: the config file, and each reward
    parameter (at any depth: ``judge: {cache: ...}``) naming an existing file, resolved as the reward resolves it."""
    found: dict[Path, str] = {}
    source = getattr(config, "_source", None)
    config_file = Path(source.split(" with --set ", 1)[0]) if isinstance(source, str) else None
    if config_file is not None and config_file.is_file():
        found[config_file] = "the config file"

    def visit(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                visit(item, f"{where}.{key}")
        elif isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                visit(item, f"{where}.{index}")
        elif isinstance(value, str) and value and len(value) < 4096 and "\n" not in value:
            path = Path(config.resolve_file(value)).expanduser()
            if path.is_file():
                found.setdefault(path, f"the file of {where}")

    for entry in config.rewards:
        visit(entry.params, f"rewards[{entry.name}]")
    return found


def _warn(message: str) -> None:
    print(message, file=sys.stderr)


def group_alignment(rewardset, config: Config, warn: Callable[[str], None]):
    """The column chunks are aligned on (the group-level rewards' group column, else ``columns.group``) and, when
    some reward scores whole groups, a callback that warns if the file does not keep groups together."""
    group_columns = rewardset.group_columns
    if not group_columns:
        return config.columns.group, None
    if len(group_columns) > 1:
        warn(f"warning: group-level rewards group by different columns {list(group_columns)}; chunks keep "
             f"{group_columns[0]!r} groups together only")
    users = [r.name for r in rewardset if group_columns[0] in r.group_columns]

    def on_split(group_id: str, row: int) -> None:
        warn(f"warning: {group_columns[0]} {group_id!r} comes back at data row {row + 1} after other groups: the file "
             f"does not keep each group's rows together, so the group-level reward(s) {users} score that group in "
             f"pieces. Sort the file by {group_columns[0]!r} (or raise --chunk-size above the file's size).")

    return group_columns[0], on_split


def check_combiner_fits(combiner: Any, names: Sequence[str], weights: Any, what: str = "combiner") -> None:
    """Before any reward runs: the combiner takes a score matrix of this config's width (``sa_gdpo``'s
    ``reward_mins`` with one value per reward, say). A copy of it combines one 2-rollout group of dummy scores, so a
    stateful combiner's statistics are untouched; its ValueError becomes a one-line :class:`ConfigError`."""
    import copy

    from polyreward.config import ConfigError
    from polyreward.pipeline import combine_scores

    if combiner is None:
        return
    probe = np.array([[1.0] * len(names), [0.0] * len(names)])
    columns = {column: ["probe", "probe"] for column in combiner_columns(combiner)}
    try:
        combine_scores(copy.deepcopy(combiner), probe, ["g", "g"], np.asarray(weights, dtype=np.float64), columns=columns)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"{what} ({getattr(combiner, 'type_name', type(combiner).__name__)}): {exc}") from None


def combiner_columns(combiner: Any) -> tuple[str, ...]:
    """The data columns a combiner reads per row besides scores and groups (DRPO's domain, the ``completion_ids`` of
    GDPO's token-weighted whitening: :meth:`polyreward.combiner.Combiner.data_columns`); () for most."""
    sources = getattr(combiner, "data_columns", None) or getattr(combiner, "row_source_columns", None)
    return tuple(sources()) if callable(sources) else ()


def check_columns(keys: set[str], rewardset, config: Config, combiner: Any, by: str | None, path: Path | str) -> None:
    """Before any reward runs: the data (its column names ``keys``) has the completion column, every column a reward
    reads, the group column and per-row columns when a combiner is set, and the ``by`` column."""
    columns = config.column_map
    if columns.completion not in keys:
        raise InputError(f"{path}: no row has the completion column {columns.completion!r} (config columns.completion); columns: {sorted(keys)}")
    if "prompt" in config.columns.model_fields_set and columns.prompt not in keys:  # a typo would switch the prompt off
        raise InputError(f"{path}: no row has the prompt column {columns.prompt!r} (config columns.prompt); columns: {sorted(keys)}")
    rewardset.check_columns(set(keys) - {columns.prompt, columns.completion})
    if combiner is not None:
        # without a group column a row's group is its prompt (the contract's rule, Scorer.groups); with neither: refused
        needed = [c for c in combiner_columns(combiner)] + ([columns.group] if columns.prompt not in keys else [])
        for column in needed:
            if column not in keys:
                raise MissingColumnError(config.combiner.type, column, sorted(keys), hint="config columns", kind="combiner")
    produced = set(rewardset.names) | {"reward"}
    if by and by not in keys and by not in produced:
        raise InputError(f"--by {by!r}: no such column in {path}; columns: {sorted(keys)}")


def check_group_ids(records: Sequence[Mapping[str, Any]], column: str, path: Path | str, first_row: int) -> None:
    """An InputError for a row whose group id is empty (null, NaN, a blank CSV cell, the key left out) in a file that
    has the group column: the combiner would otherwise pool every such row into one group without a word."""
    if not any(column in record for record in records):
        return
    for i, record in enumerate(records):
        if is_missing(record.get(column)):
            raise InputError(f"{path}: data row {first_row + i + 1} has an empty group id in column {column!r} (null, NaN "
                             "or missing); give every row its group, or leave the column out to group rows by prompt")


@dataclass(frozen=True)
class ChunkJob:
    """One chunk of whole groups to score: its part number, its key (:func:`~polyreward.runners.parts.chunk_key`), its rows."""

    index: int
    key: str
    records: list[dict[str, Any]]


@dataclass
class ChunkPart:
    """A scored chunk as the part store keeps it: output rows, the (n, K) scores, group keys, failures, combiner columns."""

    rows: list[dict[str, Any]]
    scores: np.ndarray
    groups: list[str] | None
    failures: dict[str, int]
    first_failure: dict[str, str]
    row_values: dict[str, list[Any]] | None
    seconds: dict[str, float] = field(default_factory=dict)  # per reward, as score_batch timed it


TIMED_OUT = ("timeout", "memory")  # reasons of a check the worker pool stopped (math_accuracy's on_timeout: zero keeps 0.0)


def timed_out_as_failed(scored) -> tuple[dict[str, int], dict[str, str]]:
    """The chunk's failure counts and first reasons, a finite score whose check was stopped (``timeout``, ``memory``)
    counted as failed too: the summary's ``failed`` column says how many rows were not really judged."""
    failures, first = dict(scored.failures), dict(scored.first_failure)
    for k, name in enumerate(scored.names):
        stopped = [why for i, why in enumerate(scored.reasons.get(name, ())) if why.startswith(TIMED_OUT)
                   and np.isfinite(scored.scores[i, k])]
        if stopped:
            failures[name] = failures.get(name, 0) + len(stopped)
            first.setdefault(name, stopped[0])
    return failures, first


class ChunkScorer:
    """Scores one chunk's rows through :func:`~polyreward.pipeline.score_batch` into a :class:`ChunkPart`; the same
    object runs in this process or, built once per actor, inside each Ray actor."""

    def __init__(self, rewardset, column_map, policy: str, combiner: Any = None) -> None:
        self.rewardset, self.column_map, self.policy, self.combiner = rewardset, column_map, policy, combiner

    def __call__(self, records: list[dict[str, Any]]) -> ChunkPart:
        combiner = self.combiner
        batch = Batch.from_records(records, self.column_map, require=self.rewardset.columns)
        scored = score_batch(batch, self.rewardset, on_reward_error=self.policy)
        added = scored.output_columns()
        names = list(added)
        rows = []
        for record, values in zip(records, zip(*added.values())):
            row = dict(record)
            if combiner is not None:
                row.pop("advantage", None)  # the advantage column is appended when the parts are joined
            row.update(zip(names, values))
            rows.append(row)
        if batch.groups is None and combiner is not None:  # no group column: the prompt's text names the group
            batch.groups = [prompt_text(p) for p in batch.prompts]
        groups = group_keys(batch.groups) if batch.groups is not None else None
        row_values = {c: batch.columns.get(c, [None] * len(batch)) for c in combiner_columns(combiner)} if combiner is not None else None
        failures, first_failure = timed_out_as_failed(scored)
        return ChunkPart(rows, scored.scores, groups, failures, first_failure, row_values, scored.seconds)


def score_file(
    input_path: str | Path,
    output: str | Path,
    config: Config,
    *,
    chunk_size: int = 1000,
    on_error: str = "fail",
    resume: bool = False,
    workers: int | None = None,
    on_reward_error: str | None = None,
    by: str | None = None,
    progress: Callable[[int], None] | None = None,
    warn: Callable[[str], None] = _warn,
    scorer: Callable[[Iterator[ChunkJob]], Iterable[tuple[ChunkJob, ChunkPart]]] | None = None,
) -> FileResult:
    """Score ``input_path`` into ``output`` (see the module docstring). Raises InputError / MissingColumnError /
    ConfigError before scoring, :class:`~polyreward.pipeline.RewardError` under ``on_reward_error="raise"``, and
    :class:`~polyreward.runners.parts.OutputError` when a part or the output cannot be written (parts kept for ``resume``).

    ``scorer`` decides who scores the chunks that are not already stored: it takes the lazy stream of
    :class:`ChunkJob` and yields ``(job, part)`` pairs in any order, each job exactly once (the Ray backend,
    :class:`polyreward.runners.ray_backend.RayChunkScorer`, fans them out to actors). By default a :class:`ChunkScorer`
    scores them here, one after the other."""
    if chunk_size < 1:
        raise InputError("--chunk-size must be >= 1")
    input_path = check_readable(input_path)
    output = check_writable(output, [input_path], reads=files_read(config))
    policy = on_reward_error or config.on_reward_error
    combiner = config.build_combiner()
    check_combiner_fits(combiner, [e.name for e in config.rewards], [e.weight for e in config.rewards])
    rewardset = config.build_rewards(workers=workers)
    settings = settings_fingerprint(config, policy, combiner_columns(combiner) if combiner is not None else ())
    store = PartStore(output)
    stats = ReadStats()
    chunks = group_aligned(iter_chunks(input_path, chunk_size, on_error, stats), *group_alignment(rewardset, config, warn))
    notes: list[str] = []
    count = 0

    def jobs() -> Iterator[ChunkJob]:
        nonlocal count
        rows_before = 0
        for index, records in enumerate(chunks):
            if combiner is not None:  # before the first chunk starts the part store: a bad file leaves nothing behind
                check_group_ids(records, config.columns.group, input_path, rows_before)
            rows_before += len(records)
            if index == 0:
                keys: dict[str, None] = {}
                for record in records:
                    keys.update(dict.fromkeys(record))
                check_columns(set(keys), rewardset, config, combiner, by, input_path)
                note = store.start(resume)
                if note:
                    warn(note)
            key = chunk_key(settings, records)
            count = index + 1
            if store.done(index, key):
                if progress is not None:
                    progress(len(records))
                continue
            yield ChunkJob(index, key, records)

    if scorer is None:
        local = ChunkScorer(rewardset, config.column_map, policy, combiner)
        scorer = lambda pending: ((job, local(job.records)) for job in pending)  # noqa: E731
    seconds = dict.fromkeys(rewardset.names, 0.0)
    try:  # the store holds the output's lock from its start() until the output is in place (or this run fails)
        for job, part in scorer(read_ahead(jobs())):  # chunk k+1 is read and keyed while chunk k is scored
            for name, value in part.seconds.items():
                seconds[name] = seconds.get(name, 0.0) + value
            store.write(job.index, job.key, part.rows, part.scores, part.groups, part.failures, part.first_failure, part.row_values)
            if progress is not None:
                progress(len(job.records))
        if count == 0:
            skipped = f" ({stats.skipped} malformed line(s) skipped)" if stats.skipped else ""
            raise InputError(f"{input_path}: no rows to score{skipped}")
        by_values = [str(row.get(by)) for row in store.iter_rows(count)] if by else None
        assembled = store.finish(count, rewardset.names, rewardset.weights, combiner)
    finally:
        store.release()
    if store.rescored:
        notes.append(f"{len(store.rescored)} stored chunk(s) did not match their row count or checksum (first: part "
                     f"{store.rescored[0]}) and were scored again")
    if stats.surrogates:
        notes.append(f"{stats.surrogates} line(s) held lone UTF-16 surrogates (e.g. \"\\ud800\"), read as U+FFFD "
                     f"(first at line {stats.first_surrogate_line})")
    return FileResult(len(assembled.scores), rewardset.names, assembled.scores, weighted_total(assembled.scores, rewardset.weights),
                      assembled.failures, assembled.first_failure, assembled.advantages, stats, by_values, notes, seconds,
                      reward_summaries(rewardset))


def reward_summaries(rewardset: Iterable[Any]) -> list[str]:
    """One line per reward that keeps counts of its own (a judge pool's requests and failures per endpoint, the
    share of math rows the judge decided, a served reward model's calls), for the run summary. Rewards scored
    in other processes (``--backend ray``) keep their counts there, so only local rewards report."""
    lines = []
    for reward in rewardset:
        summary = getattr(reward, "summary", None)
        info = summary() if callable(summary) else None
        if info:
            lines.append(f"{reward.name}: {json.dumps(info, default=str, sort_keys=True)}")
    engine = sys.modules.get("polyreward.engine")  # not imported: no worker pool ran, nothing timed out
    timeouts = engine.timeout_summary() if engine is not None else None  # never silent: items timed out, their share
    return lines + ([timeouts] if timeouts else [])
