"""Experiment trackers behind one small interface: ``report_to: [jsonl, tensorboard, wandb, trackio]``.

The bundled trainer logs one row of metrics per step and ``polyreward score --report-to ...`` one summary row;
both also log a table of sample completions with their per-reward scores and reasons. Each tracker is imported
only when it is named, so none of them is a dependency of the core:

========================  =====================================================================================
``jsonl``                 ``metrics.jsonl`` (one JSON object per row, non-finite values as null) and
                          ``<table>.jsonl`` (one JSON object per table row, with its ``step``) in the run folder
``tensorboard``           event files in ``<run folder>/tensorboard`` (``tensorboard`` package, no TensorFlow):
                          scalars under the metric names, tables as Markdown text
``wandb``                 ``wandb.init(project, name, dir=<run folder>, config)``; honours ``WANDB_MODE``
                          (``offline`` writes ``<run folder>/wandb/offline-run-*`` and never touches the network)
``trackio``               ``trackio.init(project, name, config)``: local SQLite under ``TRACKIO_DIR``
========================  =====================================================================================

Usage::

    with open_trackers(["jsonl", "tensorboard"], "runs/exp1", config=cfg) as trackers:
        trackers.log({"reward": 0.4, "reward/accuracy/mean": 0.5}, step=1)
        trackers.log_table("completions", ["prompt", "completion", "accuracy"], [["1+1?", "2", 1.0]], step=1)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

TRACKERS = ("jsonl", "tensorboard", "wandb", "trackio")
INSTALL = {"tensorboard": "tensorboard", "wandb": "wandb", "trackio": "trackio"}


def finite_or_none(value: Any) -> Any:
    """A float that JSON and every tracker can hold: non-finite -> None, numpy scalars -> Python numbers."""
    if hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def check_report_to(report_to: Sequence[str], key: str = "report_to") -> list[str]:
    """``report_to`` as a list of known tracker names (duplicates dropped), checked before anything starts: a
    ValueError naming ``key`` for an unknown name, an ImportError naming the package of a tracker not installed."""
    import importlib.util

    names = [report_to] if isinstance(report_to, str) else list(report_to)
    unknown = [n for n in names if n not in TRACKERS]
    if unknown:
        raise ValueError(f"{key}: unknown tracker(s) {unknown}; allowed: {', '.join(TRACKERS)}")
    missing = [INSTALL[n] for n in names if n in INSTALL and importlib.util.find_spec(INSTALL[n]) is None]
    if missing:
        raise ImportError(f"{key} needs {', '.join(missing)}: pip install {' '.join(missing)}")
    return list(dict.fromkeys(names))


class JsonlTracker:
    """``metrics.jsonl`` and one ``<table>.jsonl`` per table; on resume, rows after ``resume_step`` are dropped first."""

    def __init__(self, folder: str | Path, resume_step: int | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "metrics.jsonl"
        self.tables: set[str] = set()
        self.resume_step = resume_step
        self._truncate(self.path)

    def _truncate(self, path: Path) -> None:
        if self.resume_step is None:
            path.write_text("", encoding="utf-8")
        elif path.exists():
            kept = [line for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip() and json.loads(line).get("step", 0) <= self.resume_step]
            path.write_text("".join(line + "\n" for line in kept), encoding="utf-8")

    def log(self, metrics: Mapping[str, Any], step: int) -> None:
        row = {"step": step, **{key: finite_or_none(value) for key, value in metrics.items() if key != "step"}}
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")

    def log_table(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], step: int) -> None:
        path = self.folder / f"{name}.jsonl"
        if name not in self.tables:
            self.tables.add(name)
            self._truncate(path)
        with path.open("a", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps({"step": step, **{c: finite_or_none(v) for c, v in zip(columns, row)}}, default=str) + "\n")

    def close(self) -> None:
        pass


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], width: int = 300) -> str:
    """A Markdown table (cells shortened to ``width`` characters, pipes and newlines escaped) for text dashboards."""
    def cell(value: Any) -> str:
        text = "" if value is None else f"{value:.4g}" if isinstance(value, float) else str(value)
        text = text if len(text) <= width else text[:width - 1] + "…"
        return text.replace("|", "\\|").replace("\n", "<br>")

    lines = ["| " + " | ".join(map(cell, columns)) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


class TensorBoardTracker:
    """Event files written with the ``tensorboard`` package's own writer (no TensorFlow, no torch)."""

    def __init__(self, folder: str | Path) -> None:
        from tensorboard.summary.writer.event_file_writer import EventFileWriter

        self.logdir = Path(folder) / "tensorboard"
        self.writer = EventFileWriter(str(self.logdir))

    def _write(self, values: list, step: int) -> None:
        import time

        from tensorboard.compat.proto import event_pb2, summary_pb2

        self.writer.add_event(event_pb2.Event(wall_time=time.time(), step=step, summary=summary_pb2.Summary(value=values)))

    def log(self, metrics: Mapping[str, Any], step: int) -> None:
        from tensorboard.compat.proto import summary_pb2

        values = [summary_pb2.Summary.Value(tag=key, simple_value=float(value)) for key, value in metrics.items()
                  if isinstance(finite_or_none(value), (int, float)) and not isinstance(value, bool)]
        self._write(values, step)

    def log_table(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], step: int) -> None:
        from tensorboard.compat.proto import summary_pb2, tensor_pb2, tensor_shape_pb2, types_pb2
        from tensorboard.plugins.text.metadata import create_summary_metadata

        tensor = tensor_pb2.TensorProto(dtype=types_pb2.DT_STRING, string_val=[markdown_table(columns, rows).encode("utf-8")],
                                        tensor_shape=tensor_shape_pb2.TensorShapeProto())
        self._write([summary_pb2.Summary.Value(tag=name, metadata=create_summary_metadata(name, ""), tensor=tensor)], step)

    def close(self) -> None:
        self.writer.close()


class WandbTracker:
    """A wandb run in the run folder (``WANDB_MODE=offline`` keeps it local)."""

    def __init__(self, folder: str | Path, project: str, name: str | None, config: Mapping[str, Any] | None) -> None:
        import wandb

        self.wandb = wandb
        self.run = wandb.init(project=project, name=name, dir=str(folder), config=dict(config or {}), reinit="finish_previous")

    def log(self, metrics: Mapping[str, Any], step: int) -> None:
        self.run.log({key: finite_or_none(value) for key, value in metrics.items() if key != "step"}, step=step)

    def log_table(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], step: int) -> None:
        table = self.wandb.Table(columns=list(columns), data=[[finite_or_none(v) for v in row] for row in rows], allow_mixed_types=True)
        self.run.log({name: table}, step=step)

    def close(self) -> None:
        self.run.finish()


class TrackioTracker:
    """A trackio run (local SQLite database under ``TRACKIO_DIR``; no server is started)."""

    def __init__(self, project: str, name: str | None, config: Mapping[str, Any] | None) -> None:
        import trackio

        self.trackio = trackio
        self.run = trackio.init(project=project, name=name, config=dict(config or {}), embed=False,
                                 auto_log_cpu=False, auto_log_gpu=False)

    def log(self, metrics: Mapping[str, Any], step: int) -> None:
        self.trackio.log({key: finite_or_none(value) for key, value in metrics.items() if key != "step"}, step=step)

    def log_table(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], step: int) -> None:
        table = self.trackio.Table(columns=list(columns), data=[[finite_or_none(v) for v in row] for row in rows], allow_mixed_types=True)
        self.trackio.log({name: table}, step=step)

    def close(self) -> None:
        self.trackio.finish()


class Trackers:
    """The trackers of one run; every call goes to each of them (a context manager that closes them all)."""

    def __init__(self, trackers: Sequence[Any]) -> None:
        self.trackers = list(trackers)

    def log(self, metrics: Mapping[str, Any], step: int) -> None:
        for tracker in self.trackers:
            tracker.log(metrics, step)

    def log_table(self, name: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], step: int) -> None:
        for tracker in self.trackers:
            tracker.log_table(name, columns, rows, step)

    def close(self) -> None:
        for tracker in self.trackers:
            tracker.close()

    def __enter__(self) -> Trackers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_trackers(report_to: Sequence[str], folder: str | Path, *, project: str = "polyreward", run_name: str | None = None,
                  config: Mapping[str, Any] | None = None, resume_step: int | None = None) -> Trackers:
    """Start the named trackers (checked first by :func:`check_report_to`) for a run whose files go to ``folder``."""
    names = check_report_to(report_to)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    started: list[Any] = []
    for name in names:
        if name == "jsonl":
            started.append(JsonlTracker(folder, resume_step))
        elif name == "tensorboard":
            started.append(TensorBoardTracker(folder))
        elif name == "wandb":
            started.append(WandbTracker(folder, project, run_name, config))
        else:
            started.append(TrackioTracker(project, run_name, config))
    return Trackers(started)


def log_scored_file(result: Any, output: str | Path, config: Any, report_to: Sequence[str], folder: str | Path, *,
                    run_name: str | None = None, samples: int = 8) -> Trackers:
    """Log what ``polyreward score`` produced (a :class:`~polyreward.runners.score_file.FileResult` written to ``output``)
    as one row at step 0 — per-reward statistics, the weighted total, failures, seconds per reward and, with a
    combiner, advantage statistics and diagnostics over the config's group column — and a ``completions`` table
    of the first ``samples`` output rows (at most :data:`~polyreward.runners.file_summary.HEAD_ROWS`) with their
    scores and reasons. Returns the closed trackers.

    The statistics are the result's :class:`~polyreward.runners.file_summary.FileSummary` (folded while the parts
    were joined); ``frac_reward_zero_std`` streams the output once for each row's group id and total, keeping one
    (low, high, count) per group: memory grows with the number of groups, not rows. A row without a group id is a
    group of its own. With a combiner the whole file's scores are held already and the group ids are kept too,
    for the advantage diagnostics."""
    import numpy as np

    from polyreward.combiners.group_stats import within_noise
    from polyreward.io import iter_chunks
    from polyreward.runners.file_summary import HEAD_ROWS
    from polyreward.runners.run_metrics import advantage_metrics, sample_table, summary_metrics, timing_metrics
    from polyreward.vocabulary import group_ids, group_key

    columns = config.column_map
    summary = result.summary
    samples = min(samples, HEAD_ROWS)
    head: list[dict[str, Any]] = []
    extremes: dict[Any, list[float]] = {}  # group key -> [low, high, rows with a total]
    lone_groups = 0  # rows without a group id: each a group of its own (constant: one value or none)
    all_groups: list[Any] | None = [] if result.scored is not None else None
    seen = 0
    for chunk in iter_chunks(output, 4096):
        head += chunk[:max(samples - len(head), 0)]
        for row in chunk:
            value = row.get(columns.group)
            if all_groups is not None:
                all_groups.append(value if value is not None else f"row {seen}")
            seen += 1
            if value is None:
                lone_groups += 1
                continue
            total = row.get("reward")
            total = float(total) if total is not None and total != "" else math.nan
            state = extremes.setdefault(group_key(value), [math.inf, -math.inf, 0])
            if not math.isnan(total):
                state[0] = min(state[0], total)
                state[1] = max(state[1], total)
                state[2] += 1
    flat = lone_groups
    with np.errstate(invalid="ignore"):
        for low, high, valid in extremes.values():
            flat += valid == 0 or bool(within_noise(np.float64(high) - np.float64(low), max(abs(low), abs(high))))
    n_groups = lone_groups + len(extremes)
    weights = np.asarray([e.weight for e in config.rewards])
    row = {"rows": result.rows, **summary_metrics(summary, flat / n_groups if n_groups else math.nan),
           **{f"reward/{name}/errors": summary.failures.get(name, 0) / max(result.rows, 1) for name in summary.names},
           **timing_metrics(summary.seconds)}
    if result.scored is not None and result.scored.advantages is not None:
        ids = group_ids(all_groups)
        row.update(advantage_metrics(result.scored.advantages, result.scored.scores, ids, weights, summary.names))
    reasons = {name: [r.get(f"{name}_reason") or "" for r in head] for name in summary.names}
    advantages = result.advantages
    table = sample_table(summary.names, [r.get(columns.prompt) for r in head], [r.get(columns.completion) for r in head],
                         summary.head[:len(head)], reasons, None if advantages is None else advantages[:len(head)], samples)
    config_dump = config.model_dump(mode="json", include={"rewards", "combiner", "columns"})
    with open_trackers(report_to, folder, run_name=run_name or Path(output).stem, config=config_dump) as trackers:
        trackers.log(row, step=0)
        trackers.log_table("completions", *table, step=0)
    return trackers
