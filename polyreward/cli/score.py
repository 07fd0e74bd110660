"""``polyreward score IN --config CFG -o OUT``: score a rollout file with the rewards of a config.

Streaming and crash safety: the input is read in chunks; each scored chunk is written as a numbered
part file (written to a temporary name, fsynced, then renamed) inside ``.OUT.parts/`` next to OUT,
beside a manifest naming the input, config and chunk size. When every chunk is done the parts are
joined into OUT (again through a temporary file and a rename) and the folder is removed. After an
interruption, even ``kill -9``, ``--resume`` keeps the finished parts and scores only the rest, so no
row is lost or duplicated and the output equals an uninterrupted run's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import sys
from pathlib import Path
from typing import Any

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="rollout file: .jsonl, .parquet or .csv")
    parser.add_argument("--config", "-c", required=True, help="YAML config naming the rewards")
    parser.add_argument("--output", "-o", required=True, help="output file (.jsonl, .parquet or .csv)")
    parser.add_argument("--workers", type=int, default=None, help="verification worker processes (default: config engine.workers, else min(2, cores))")
    parser.add_argument("--on-error", choices=["fail", "skip"], default="fail", help="malformed input lines: stop with the line number (default) or skip and count them")
    parser.add_argument("--resume", action="store_true", help="finish an interrupted run, keeping the rows already scored")
    parser.add_argument("--chunk-size", type=int, default=1000, help="rows scored and saved per chunk (default 1000)")
    parser.add_argument("--by", default=None, help="also summarise per value of this column (e.g. task or prompt_id)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _fingerprint(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def group_aligned(chunks, group_column: str, on_split=None):
    """Re-cut chunks so no run of consecutive rows with the same group id is split between two chunks.

    Group-level rewards (e.g. OTC's minimal call count in a group) see whole groups as long as the
    file keeps each group's rows together, which rollout files do. With ``on_split``, a group id that
    comes back in a later chunk (the file is not grouped) is reported once: ``on_split(group_id, row)``,
    ``row`` being its 0-based position among the rows read.
    """
    carry: list[dict[str, Any]] = []
    closed: set[str] = set()
    emitted = 0

    def check(rows: list[dict[str, Any]]) -> None:
        nonlocal on_split
        ids = {str(r.get(group_column)) for r in rows if r.get(group_column) is not None}
        back = ids & closed
        if back:
            first = next(i for i, r in enumerate(rows) if str(r.get(group_column)) in back)
            on_split(str(rows[first].get(group_column)), emitted + first)
            on_split = None  # once
        closed.update(ids)

    chunks = iter(chunks)
    upcoming = next(chunks, None)
    while upcoming is not None:
        chunk, upcoming = upcoming, next(chunks, None)
        rows = carry + chunk
        if upcoming is None:  # the last chunk: nothing left to keep together with
            carry = rows
            break
        last = rows[-1].get(group_column)
        cut = len(rows)
        while cut > 0 and last is not None and rows[cut - 1].get(group_column) == last:
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


def _group_alignment(rewardset, config):
    """The column chunks are aligned on (the group-level rewards' group column, else ``columns.group``) and,
    when some reward scores whole groups, a callback that warns if the file does not keep groups together."""
    group_columns = rewardset.group_columns
    if not group_columns:
        return config.columns.group, None
    if len(group_columns) > 1:
        print(f"warning: group-level rewards group by different columns {list(group_columns)}; chunks keep "
              f"{group_columns[0]!r} groups together only", file=sys.stderr)
    users = [r.name for r in rewardset if group_columns[0] in getattr(r, "group_columns", ())]

    def warn(group_id: str, row: int) -> None:
        print(f"warning: {group_columns[0]} {group_id!r} comes back at data row {row + 1} after other groups: the file "
              f"does not keep each group's rows together, so the group-level reward(s) {users} score that group in "
              f"pieces. Sort the file by {group_columns[0]!r} (or raise --chunk-size above the file's size).", file=sys.stderr)

    return group_columns[0], warn


def score_rows(rewardset, records: list[dict[str, Any]], column_map) -> list[dict[str, Any]]:
    """Score one chunk of row dicts; returns the rows with reward, total and reason columns added."""
    from polyreward.schema import Batch

    if records and not any(column_map.completion in record for record in records):
        from polyreward.io import InputError

        available = sorted({k for record in records for k in record})
        raise InputError(
            f"no row has the completion column {column_map.completion!r} (config columns.completion); columns: {available}"
        )
    batch = Batch.from_records(records, column_map)
    matrix = rewardset.score(batch.prompts, batch.completions, **batch.columns)
    totals = matrix.total
    out = []
    for i, record in enumerate(records):
        row = dict(record)
        for k, name in enumerate(matrix.names):
            value = matrix.scores[i, k]
            row[name] = None if math.isnan(value) else float(value)
        row["reward"] = None if math.isnan(totals[i]) else float(totals[i])
        for name in matrix.names:
            reason = matrix.reasons[name][i]
            row[f"{name}_reason"] = reason or None
        for name, subs in matrix.details.items():
            for sub, values in subs.items():
                row[f"{name}.{sub}"] = values[i]
        out.append(row)
    return out


class PartStore:
    """Numbered, atomically written chunk files of an output in progress (see module docstring)."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self.folder = output.with_name(f".{output.name}.parts")
        self.manifest_path = self.folder / "manifest.json"

    def part(self, index: int) -> Path:
        return self.folder / f"part-{index:06d}.jsonl"

    def start(self, manifest: dict[str, Any], resume: bool) -> int:
        """Prepare the folder; returns how many chunks are already done."""
        from polyreward.io import write_atomic

        if self.folder.exists():
            if not resume:
                raise SystemExit(f"error: {self.folder} holds an unfinished run; add --resume to finish it, or delete the folder to start over")
            try:
                previous = json.loads(self.manifest_path.read_text())
            except (OSError, ValueError):
                previous = None
            if previous != manifest:
                raise SystemExit(f"error: cannot resume: {self.folder} was made with a different input, config or chunk size")
            done = 0
            while self.part(done).exists():
                done += 1
            return done
        self.folder.mkdir(parents=True)
        write_atomic(self.manifest_path, json.dumps(manifest, sort_keys=True).encode())
        return 0

    def write(self, index: int, rows: list[dict[str, Any]]) -> None:
        from polyreward.io import encode_rows, write_atomic

        write_atomic(self.part(index), encode_rows(rows, "jsonl"))

    def parts(self) -> list[Path]:
        found = []
        while self.part(len(found)).exists():
            found.append(self.part(len(found)))
        return found

    def iter_rows(self):
        for part in self.parts():
            with open(part, encoding="utf-8") as handle:
                for line in handle:
                    yield json.loads(line)

    def finish(self) -> None:
        """Join the parts into the output file atomically and remove the folder."""
        from polyreward.io import file_format

        kind = file_format(self.output)
        tmp = self.output.with_name(f".{self.output.name}.tmp{os.getpid()}")
        if kind == "jsonl":
            with open(tmp, "wb") as out:
                for part in self.parts():
                    with open(part, "rb") as handle:
                        shutil.copyfileobj(handle, out)
                out.flush()
                os.fsync(out.fileno())
        elif kind == "csv":
            self._write_csv(tmp)
        else:
            self._write_parquet(tmp)
        os.replace(tmp, self.output)
        shutil.rmtree(self.folder)

    def _write_csv(self, tmp: Path) -> None:
        from polyreward.io import encode_rows

        columns: dict[str, None] = {}
        for row in self.iter_rows():
            columns.update(dict.fromkeys(row))
        template = dict.fromkeys(columns)
        with open(tmp, "wb") as out:
            out.write(encode_rows([template], "csv").split(b"\n", 1)[0] + b"\n")
            for part in self.parts():
                rows = [{**template, **json.loads(line)} for line in open(part, encoding="utf-8")]
                out.write(encode_rows(rows, "csv", header=False))
            out.flush()
            os.fsync(out.fileno())

    def _write_parquet(self, tmp: Path) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from polyreward.io import parquet_table

        def tables():
            for part in self.parts():
                yield parquet_table([json.loads(line) for line in open(part, encoding="utf-8")])

        schema = pa.unify_schemas([t.schema for t in tables()], promote_options="permissive")
        with pq.ParquetWriter(tmp, schema) as writer:
            for table in tables():
                for field in schema:
                    if field.name not in table.column_names:
                        table = table.append_column(field.name, pa.nulls(len(table), field.type))
                writer.write_table(table.select(schema.names).cast(schema))


def run(args: argparse.Namespace) -> int:
    from polyreward.config import ConfigError, load_config
    from polyreward.io import InputError, ReadStats, count_rows, file_format, iter_chunks

    input_path, output = Path(args.input), Path(args.output)
    try:
        config = load_config(args.config)
        file_format(input_path)
        file_format(output)
        if not input_path.exists():
            raise InputError(f"{input_path}: no such file")
        if args.workers is not None and args.workers < 0:
            raise ConfigError(f"--workers must be >= 0 (0 = inline, no timeout), got {args.workers}")
        rewardset = config.build_rewards(workers=args.workers)
    except (ConfigError, InputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.chunk_size < 1:
        print("error: --chunk-size must be >= 1", file=sys.stderr)
        return 2
    manifest = {
        "input": str(input_path.resolve()),
        "input_sha256": _fingerprint(input_path),
        "config": Path(args.config).read_text(encoding="utf-8"),
        "chunk_size": args.chunk_size,
        "on_error": args.on_error,
    }
    store = PartStore(output)
    done = store.start(manifest, args.resume)
    stats = ReadStats()
    progress = _progress(args.quiet)
    try:
        with progress:
            task = progress.add_task("scoring", total=count_rows(input_path))
            chunks = group_aligned(iter_chunks(input_path, args.chunk_size, args.on_error, stats), *_group_alignment(rewardset, config))
            for index, records in enumerate(chunks):
                if index >= done:
                    store.write(index, score_rows(rewardset, records, config.column_map))
                progress.advance(task, len(records))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(f"rows scored so far are kept in {store.folder}; fix the input and rerun with --resume, or use --on-error skip", file=sys.stderr)
        return 2
    summary = _summarise(store.iter_rows(), rewardset.names, args.by or None)
    store.finish()
    if config.combiner is not None:
        _write_advantages(output, config, rewardset)
    _print_summary(summary, stats, output)
    return 0


def _progress(quiet: bool):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, disable=quiet or not console.is_terminal, transient=True,
    )


def _write_advantages(output: Path, config, rewardset) -> None:
    import pandas as pd

    from polyreward.combiners.apply import add_advantages
    from polyreward.io import file_format, write_rows

    kind_reader = {"jsonl": lambda p: pd.read_json(p, lines=True, dtype=False), "csv": lambda p: pd.read_csv(p, dtype=str), "parquet": pd.read_parquet}
    frame = kind_reader[file_format(output)](output)
    frame = add_advantages(frame, rewardset.names, rewardset.weights, config.columns.group, config.build_combiner())
    write_rows(output, frame.astype(object).where(frame.notna(), None).to_dict(orient="records"))


def _summarise(rows, names: list[str], by: str | None) -> dict[str, Any]:
    """Mean / std / NaN count per reward, overall and per value of ``by``."""
    import numpy as np

    columns = names + ["reward"]
    values: dict[str, list[float]] = {c: [] for c in columns}
    keys: list[Any] = []
    for row in rows:
        for c in columns:
            v = row.get(c)
            values[c].append(math.nan if v is None else float(v))
        if by:
            keys.append(row.get(by))
    overall = {c: np.asarray(v, dtype=float) for c, v in values.items()}
    summary: dict[str, Any] = {"overall": overall, "by": by, "groups": {}}
    if by:
        key_array = np.asarray([str(k) for k in keys], dtype=object)
        for key in dict.fromkeys(key_array.tolist()):
            mask = key_array == key
            summary["groups"][key] = {c: v[mask] for c, v in overall.items()}
    return summary


def _stats(values) -> tuple[str, str, str, str]:
    import numpy as np

    finite = values[~np.isnan(values)]
    if finite.size == 0:
        return str(values.size), "-", "-", str(values.size)
    std = float(np.std(finite, ddof=1)) if finite.size > 1 else 0.0
    return str(values.size), f"{float(np.mean(finite)):.4f}", f"{std:.4f}", str(int(values.size - finite.size))


def _print_summary(summary: dict[str, Any], stats, output: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"scored {stats.rows} rows -> {output}")
    for header in ("reward", "n", "mean", "std", "NaN"):
        table.add_column(header, justify="left" if header == "reward" else "right")
    for name, values in summary["overall"].items():
        table.add_row(name, *_stats(values))
    console.print(table)
    if summary["by"] and summary["groups"]:
        if len(summary["groups"]) > 50:
            console.print(f"({len(summary['groups'])} values of {summary['by']}; per-value table left out)")
        else:
            by_table = Table(title=f"per {summary['by']}")
            by_table.add_column(summary["by"])
            by_table.add_column("reward")
            for header in ("n", "mean", "std", "NaN"):
                by_table.add_column(header, justify="right")
            for key, columns in summary["groups"].items():
                for name, values in columns.items():
                    by_table.add_row(key, name, *_stats(values))
            console.print(by_table)
    if stats.skipped:
        console.print(f"skipped {stats.skipped} malformed line(s) (first at line {stats.first_skipped_line})")
