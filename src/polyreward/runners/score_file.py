"""Score a rollout file with a config: the library behind ``polyreward score`` (the CLI only parses and prints).

The input is read in chunks (:func:`polyreward.io.iter_chunks`), re-cut so no group is split
(:func:`polyreward.runners.chunking.group_aligned`), each chunk is scored by the config's
:class:`~polyreward.pipeline.Scorer` (:class:`ChunkScorer`: scores only; its output rows encoded by
:func:`polyreward.runners.row_text.encode_output_rows`) and stored as a part (:class:`polyreward.runners.parts.PartStore`:
appended to one rows file, which becomes the output once every chunk is done when the chunks lie there in order).
Without a combiner each part's scores are folded into the file's
:class:`~polyreward.runners.file_summary.FileSummary` and dropped (memory does not grow with rows); with one, the
parts' scores are read back as one :class:`~polyreward.vocabulary.ScoredBatch` and the same scorer computes the
advantages over the whole file (:meth:`~polyreward.pipeline.Scorer.advantages`). Each output row is written
once; values of the input columns round-trip unchanged (JSON ints stay ints, strings stay strings).

Checked before any reward runs, each a one-line :class:`~polyreward.io.InputError` or
:class:`~polyreward.pipeline.MissingColumnError`: the input is a readable file of a known format, the output
folder is writable and the output is none of the files the run reads (the input, the config file, any file a
reward loads: :func:`files_read`); on the first chunk, the completion column, every
column a reward declares, the group column when a combiner is set, and the ``by`` column. An input without
rows is an error for every format (scoring nothing is a wrong file far more often than a wish).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from polyreward.config import Config
from polyreward.io import InputError, ReadStats, check_readable, check_writable, iter_chunks_with_lines
from polyreward.runners.chunking import group_aligned_with_lines, group_alignment
from polyreward.runners.file_summary import FileSummary
from polyreward.runners.parts import PartStore, chunk_key, group_keys
from polyreward.runners.read_ahead import read_ahead
from polyreward.runners.row_text import encode_output_rows
from polyreward.pipeline import MissingColumnError, Scorer
from polyreward.schema import is_missing, prompt_text
from polyreward.vocabulary import ScoredBatch

PARTS_VERSION = 6  # bump when the part format changes, so old parts are scored again instead of misread
CHUNK_ROWS = 1000  # rows per chunk by default: a kill loses at most this many rows' scoring, a judge's calls included
# rows per chunk by default when every reward is linear-time (no model, network or engine worker: think_format, the
# length rewards): each chunk costs a fixed share besides its rows (its meta file, whose creation alone took 0.15-0.65
# ms on the benchmark machine's ext4, the summary's numpy calls, the meta's JSON); a kill loses at most a few
# milliseconds of scoring; the chunk's rows are held in memory (RSS 52 -> 67 MB, flat in rows)
CHEAP_CHUNK_ROWS = 4000


def default_chunk_size(rewards: Iterable[Any]) -> int:
    """:data:`CHEAP_CHUNK_ROWS` when every reward is linear-time (:attr:`polyreward.reward.Reward.linear_time`), else
    :data:`CHUNK_ROWS`. The output bytes and the summary never depend on the chunk size; ``--resume`` keeps the chunks
    of a run made with the same chunk size (other chunks are scored again)."""
    rewards = list(rewards)
    return CHEAP_CHUNK_ROWS if rewards and all(getattr(r, "linear_time", False) is True for r in rewards) else CHUNK_ROWS


@dataclass
class FileResult:
    """What scoring a file gave: its :class:`~polyreward.runners.file_summary.FileSummary` (rows, failure counts and
    first reasons, exact per-reward and total statistics overall and per ``--by`` value, the first rows' scores,
    the seconds each reward took on the chunks scored in this run; the reasons and scores of every row are in the
    output file), and what the run noted besides. ``scored`` is the whole file's
    :class:`~polyreward.vocabulary.ScoredBatch` (the (N, K) scores and the advantages) only when the config names a
    combiner, which needs every row's scores at once; without one it is None and memory does not grow with rows."""

    summary: FileSummary
    stats: ReadStats
    scored: ScoredBatch | None = None
    notes: list[str] = field(default_factory=list)
    reward_counts: list[str] = field(default_factory=list)  # rewards' own counts (judge endpoints, judge-decided share)

    @property
    def rows(self) -> int:
        return self.summary.rows

    @property
    def names(self) -> list[str]:
        return self.summary.names

    @property
    def failures(self) -> dict[str, int]:
        return self.summary.failures

    @property
    def first_failure(self) -> dict[str, str]:
        return self.summary.first_failure

    @property
    def seconds(self) -> dict[str, float]:
        return self.summary.seconds

    @property
    def advantages(self) -> np.ndarray | None:
        """(N,) advantages when the config names a combiner, else None."""
        return None if self.scored is None else self.scored.advantages

    def every_row_failed(self) -> list[str]:
        """Rewards that failed on every row (e.g. every judge call): a run that must not look like success."""
        return self.summary.every_row_failed()


@functools.lru_cache(maxsize=1)
def package_fingerprint() -> str:
    """SHA-256 of every file of the installed polyreward package (its code and the data it reads, by relative path),
    so that parts scored by another version of the readers are scored again on resume instead of mixed with this
    version's verdicts. Hashing the ~250 files costs a few milliseconds, once per process."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def reward_code_fingerprints(rewards: Iterable[Any]) -> dict[str, str]:
    """SHA-256 of the source file of each reward class defined outside polyreward (a ``type: "module:Class"`` entry),
    by module name: the user's own reward code decides a part's content too. A class without a readable source file
    is named with no hash."""
    found: dict[str, str] = {}
    for reward in rewards:
        module = type(reward).__module__
        if module.split(".")[0] == "polyreward" or module in found:
            continue
        try:
            source = inspect.getsourcefile(type(reward))
            found[module] = hashlib.sha256(Path(source).read_bytes()).hexdigest() if source else ""
        except (OSError, TypeError):
            found[module] = ""
    return found


def settings_fingerprint(config: Config, on_reward_error: str, kept_columns: tuple[str, ...] = (), rewards: Iterable[Any] = ()) -> str:
    """Everything besides the input rows that decides a part's content: the scoring sections of the config, the
    failure policy, the contents of the files rewards read (``*_file``), the per-row columns kept for the
    combiner, and the code that scores (:func:`package_fingerprint`, and :func:`reward_code_fingerprints` of
    ``rewards``). The combiner itself is not in it: advantages are computed when the parts are joined, so fixing
    only the combiner re-scores nothing."""
    sections = config.model_dump(include={"columns", "engine", "rewards"}, mode="json")
    files = {}
    for entry in config.rewards:
        for key, value in entry.params.items():
            path = Path(config.resolve_file(value)) if key.endswith("_file") and isinstance(value, str) else None
            if path is not None and path.is_file():
                files[f"{entry.name}.{key}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return json.dumps({"version": PARTS_VERSION, "config": sections, "on_reward_error": on_reward_error, "files": files,
                       "kept_columns": list(kept_columns), "code": package_fingerprint(),
                       "reward_code": reward_code_fingerprints(rewards)}, sort_keys=True)


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
    """A scored chunk as the part store keeps it: the output rows (input columns, scores, reasons, sub-scores) as
    JSONL bytes and their count, its :class:`~polyreward.vocabulary.ScoredBatch` without the reasons and sub-scores
    (the rows hold them; the (n, K) scores, failure counts and first reasons, seconds), the group keys and the
    per-row columns of the combiner. The rows are encoded where the chunk is scored (a Ray actor encodes its own)."""

    data: bytes
    count: int
    scored: ScoredBatch
    groups: list[str] | None
    row_values: dict[str, list[Any]] | None


TIMED_OUT = ("timeout", "memory")  # reasons of a check the worker pool stopped (math_accuracy's on_timeout: zero keeps 0.0)


def count_timed_out_as_failed(scored: ScoredBatch) -> None:
    """Count a finite score whose check was stopped (``timeout``, ``memory``) as failed too, in ``scored``'s failed
    mask, failure counts and first reasons: the summary's ``failed`` column says how many rows were not really judged."""
    for k, name in enumerate(scored.names):
        reasons = scored.reasons.get(name, ())
        joined = "\x00" + "\x00".join(reasons)  # one C search rules out most batches (a reason's own \x00 only costs the loop)
        if not any(f"\x00{word}" in joined for word in TIMED_OUT):
            continue
        stopped = [i for i, why in enumerate(reasons) if why.startswith(TIMED_OUT) and np.isfinite(scored.scores[i, k])]
        if stopped:
            scored.failures[name] = scored.failures.get(name, 0) + len(stopped)
            scored.first_failure.setdefault(name, scored.reasons[name][stopped[0]])
            if scored.failed is not None:
                scored.failed[stopped, k] = True


class ChunkScorer:
    """Scores one chunk's rows with the config's :class:`~polyreward.pipeline.Scorer` (scores only: the advantages are
    one call over the whole file) into a :class:`ChunkPart`; the same object runs in this process or, built once per
    actor, inside each Ray actor."""

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer

    def __call__(self, records: list[dict[str, Any]]) -> ChunkPart:
        scorer = self.scorer
        combiner = scorer.combiner
        batch = scorer.batch(records)
        scored = scorer.score(batch, combine=False)
        # the output rows: each input row, less the advantage column the join appends when a combiner is set, then
        # the added columns (scores, total, reasons, sub-scores); encoded without building those rows
        data = encode_output_rows(records, scored.output_columns(), drop="advantage" if combiner is not None else None)
        if batch.groups is None and combiner is not None:  # no group column: the prompt's text names the group
            batch.groups = [prompt_text(p) for p in batch.prompts]
        groups = group_keys(batch.groups) if batch.groups is not None else None
        row_values = {c: batch.columns.get(c, [None] * len(batch)) for c in combiner_columns(combiner)} if combiner is not None else None
        count_timed_out_as_failed(scored)
        return ChunkPart(data, len(records), replace(scored, reasons={}, details={}), groups, row_values)  # the rows carry those


def score_file(
    input_path: str | Path,
    output: str | Path,
    config: Config,
    *,
    chunk_size: int | None = None,
    on_error: str = "fail",
    resume: bool = False,
    workers: int | None = None,
    on_reward_error: str | None = None,
    by: str | None = None,
    progress: Callable[[int], None] | None = None,
    warn: Callable[[str], None] = _warn,
    chunk_scorer: Callable[[Iterator[ChunkJob]], Iterable[tuple[ChunkJob, ChunkPart]]] | None = None,
) -> FileResult:
    """Score ``input_path`` into ``output`` (see the module docstring). Raises InputError / MissingColumnError /
    ConfigError before scoring, :class:`~polyreward.pipeline.RewardError` under ``on_reward_error="raise"``, and
    :class:`~polyreward.runners.parts.OutputError` when a part or the output cannot be written (parts kept for ``resume``).
    ``chunk_size`` None: :func:`default_chunk_size` of the config's rewards.

    ``chunk_scorer`` decides who scores the chunks that are not already stored: it takes the lazy stream of
    :class:`ChunkJob` and yields ``(job, part)`` pairs in any order, each job exactly once (the Ray backend,
    :class:`polyreward.runners.ray_backend.RayChunkScorer`, fans them out to actors). By default a :class:`ChunkScorer`
    scores them here, one after the other."""
    if chunk_size is not None and chunk_size < 1:
        raise InputError("--chunk-size must be >= 1")
    input_path = check_readable(input_path)
    output = check_writable(output, [input_path], reads=files_read(config))
    combiner = config.build_combiner()
    check_combiner_fits(combiner, [e.name for e in config.rewards], [e.weight for e in config.rewards])
    scorer = config.build_scorer(workers, combiner=combiner).with_policy(on_reward_error)
    rewardset = scorer.rewards
    chunk_size = default_chunk_size(rewardset) if chunk_size is None else chunk_size
    settings = settings_fingerprint(config, scorer.on_reward_error, combiner_columns(combiner) if combiner is not None else (), rewardset)
    store = PartStore(output)
    stats = ReadStats()
    chunks = group_aligned_with_lines(iter_chunks_with_lines(input_path, chunk_size, on_error, stats), *group_alignment(rewardset, config, warn))
    notes: list[str] = []
    count = 0

    def jobs() -> Iterator[ChunkJob]:
        nonlocal count
        rows_before = 0
        for index, (records, lines) in enumerate(chunks):
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
            key = chunk_key(settings, records, lines)  # a JSONL input's lines as read: no second encoding of the rows
            count = index + 1
            if store.done(index, key):
                if progress is not None:
                    progress(len(records))
                continue
            yield ChunkJob(index, key, records)

    if chunk_scorer is None:
        local = ChunkScorer(scorer)
        chunk_scorer = lambda pending: ((job, local(job.records)) for job in pending)  # noqa: E731
    seconds = dict.fromkeys(rewardset.names, 0.0)
    try:  # the store holds the output's lock from its start() until the output is in place (or this run fails)
        for job, part in chunk_scorer(read_ahead(jobs())):  # chunk k+1 is read and keyed while chunk k is scored
            for name, value in part.scored.seconds.items():
                seconds[name] = seconds.get(name, 0.0) + value
            store.write(job.index, job.key, part.data, part.count, part.scored, part.groups, part.row_values)
            if progress is not None:
                progress(len(job.records))
        if count == 0:
            skipped = f" ({stats.skipped} malformed line(s) skipped)" if stats.skipped else ""
            raise InputError(f"{input_path}: no rows to score{skipped}")
        summary = FileSummary(list(rewardset.names), rewardset.weights, by=by)
        scored = None
        if combiner is None:  # each part's scores are folded into the summary and dropped: memory flat in rows
            sizes = store.summarise(count, summary)
            store.finish(sizes)
        else:  # one combiner call over the whole file, with the contract's per-row data: the (N, K) scores are held
            scored, groups, row_values, sizes = store.read_back(count, rewardset.names, rewardset.weights)
            scored.advantages = scorer.advantages(scored.scores, groups, columns=row_values)
            store.summarise(count, summary, scored.scores)
            store.finish(sizes, scored.advantages)
    finally:
        store.release()
    if store.rescored:
        notes.append(f"{len(store.rescored)} stored chunk(s) did not match their row count or checksum (first: part "
                     f"{store.rescored[0]}) and were scored again")
    if stats.surrogates:
        notes.append(f"{stats.surrogates} line(s) held lone UTF-16 surrogates (e.g. \"\\ud800\"), read as U+FFFD "
                     f"(first at line {stats.first_surrogate_line})")
    summary.seconds = seconds  # this run's: parts kept from an earlier run took no time now
    if scored is not None:
        scored.seconds = dict(seconds)
    return FileResult(summary, stats, scored, notes, reward_summaries(rewardset))


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
