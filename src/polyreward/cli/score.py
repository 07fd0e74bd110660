"""``polyreward score IN --config CFG -o OUT``: score a rollout file with the rewards of a config.

Argument parsing and printing only; the work is :func:`polyreward.runners.score_file.score_file` (streamed chunks,
crash-safe parts, ``--resume``, advantages when the config names a combiner).

Exit codes: 0 done; 2 a bad input, config or argument (one line naming the file, line, key or column, before any
scoring where it can be checked), also when another run is writing the same output (one run per output: the
second is refused, naming the first one's pid); 1 a run that failed while scoring — a reward failed under
``--on-reward-error raise``, some reward failed on every row (e.g. every judge call), or the output could not
be written (the finished chunks are kept: fix the cause and rerun with ``--resume``).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import sys
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("input", help="rollout file (.jsonl, .parquet, .csv, a datasets .arrow file) or a Dataset.save_to_disk folder")
    parser.add_argument("--config", "-c", required=True, help="YAML config naming the rewards")
    parser.add_argument("--output", "-o", required=True, help="output file (.jsonl, .parquet or .csv)")
    parser.add_argument("--workers", type=int, default=None, help="verification worker processes (default: config engine.workers, else min(2, cores))")
    parser.add_argument("--on-error", choices=["fail", "skip"], default="fail", help="malformed input lines: stop with the line number (default) or skip and count them")
    parser.add_argument("--on-reward-error", choices=["nan", "raise"], default=None,
                        help="a reward that raises: NaN + reason, counted (default: the config's on_reward_error, else nan) or stop")
    parser.add_argument("--resume", action="store_true", help="finish an interrupted run, keeping the chunks whose input and settings are unchanged")
    parser.add_argument("--chunk-size", type=int, default=None,
                        help="rows scored and saved per chunk (default 4000 when every reward is linear-time, e.g. think_format; else 1000)")
    parser.add_argument("--by", default=None, help="also summarise per value of this column (e.g. task or prompt_id)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_set_argument(parser)
    parser.add_argument("--report-to", default="", metavar="TRACKERS",
                        help="also log the summary (per-reward stats, seconds per reward, advantage diagnostics) and a table of "
                        "sample completions to these trackers: comma-separated jsonl, tensorboard, wandb, trackio")
    parser.add_argument("--report-dir", default=None, metavar="DIR",
                        help="where the trackers write (default: OUTPUT's folder / OUTPUT's stem + '-run')")
    parser.add_argument("--backend", choices=["local", "ray"], default="local",
                        help="who scores the chunks: this process (default) or actors on a Ray cluster (needs the ray extra)")
    parser.add_argument("--address", default=None,
                        help="--backend ray: the cluster to join, auto or HOST:PORT (default: RAY_ADDRESS, else start Ray locally)")
    parser.add_argument("--actors", type=int, default=2, help="--backend ray: scoring actors, one CPU and one local worker pool each (default 2)")
    parser.epilog = ("Exit status: 0 done; 2 a bad input, config or argument (one line, before scoring where it can be checked), or "
                     "another run writing the same output; 1 a run that failed while scoring (finished chunks are kept for --resume).")


def run(args: argparse.Namespace) -> int:
    from polyreward.config import ConfigError, load_config
    from polyreward.io import InputError, count_rows
    from polyreward.runners.parts import OutputError, PartStore
    from polyreward.pipeline import RewardError
    from polyreward.runners.allocator import SCORE_MMAP_BYTES, SCORE_TRIM_BYTES, keep_freed_memory
    from polyreward.runners.score_file import score_file

    keep_freed_memory(SCORE_MMAP_BYTES, SCORE_TRIM_BYTES)  # each chunk's output buffers reused, not faulted in afresh
    output = Path(args.output)
    try:
        if args.workers is not None and args.workers < 0:
            raise ConfigError(f"--workers must be >= 0 (0 = inline, no timeout), got {args.workers}")
        if args.chunk_size is not None and args.chunk_size < 1:
            raise ConfigError("--chunk-size must be >= 1")
        if args.actors < 1:
            raise ConfigError(f"--actors must be >= 1, got {args.actors}")
        report_to = _report_to(args.report_to)
        config = load_config(args.config, args.overrides)
        progress = _progress(args.quiet)
        with progress, _backend(args, config) as chunk_scorer:
            task = progress.add_task("scoring", total=_row_count(count_rows, args.input))
            result = score_file(args.input, output, config, chunk_size=args.chunk_size, on_error=args.on_error, resume=args.resume,
                                workers=args.workers, on_reward_error=args.on_reward_error, by=args.by or None,
                                progress=lambda n: progress.advance(task, n), chunk_scorer=chunk_scorer)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        if PartStore(output).folder.exists():
            print(f"finished chunks are kept in {PartStore(output).folder}; run the same command with --resume to finish "
                  "from where it stopped", file=sys.stderr)
        else:
            print("nothing was written yet; run the same command again (add --resume to keep the chunks of a longer run)",
                  file=sys.stderr)
        return 130
    except InputError as exc:  # other UserErrors (a ConfigError, OutputLockedError) are reported by polyreward.cli.main
        print(f"error: {exc}", file=sys.stderr)
        if PartStore(output).folder.exists():
            print(f"rows scored so far are kept in {PartStore(output).folder}; fix the input and rerun with --resume, "
                  "or use --on-error skip", file=sys.stderr)
        return 2
    except OutputError as exc:
        print(f"error: {exc.strerror or exc}", file=sys.stderr)  # the message, without Python's "[Errno N]" prefix
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return 2
        fix = "free space" if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) else "fix the cause above"
        print(f"finished chunks are kept in {PartStore(output).folder}; {fix} and rerun with --resume", file=sys.stderr)
        return 1
    except RewardError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(f"finished chunks are kept in {PartStore(output).folder}; fix the cause and rerun with --resume", file=sys.stderr)
        return 1
    for note in result.notes:
        print(f"warning: {note}", file=sys.stderr)
    _print_summary(result, args.by or None, output)
    for line in result.reward_counts:
        print(line)
    if report_to:
        from polyreward.runners.trackers import log_scored_file

        folder = Path(args.report_dir) if args.report_dir else output.with_name(f"{output.stem}-run")
        log_scored_file(result, output, config, report_to, folder)
        print(f"summary logged to {', '.join(report_to)} in {folder}", file=sys.stderr)
    failed = result.every_row_failed()
    if failed:
        for name in failed:
            print(f"error: reward {name!r} failed on every one of the {result.rows} rows; first reason: {result.first_failure.get(name, '?')}",
                  file=sys.stderr)
        return 1
    return 0


@contextlib.contextmanager
def _backend(args: argparse.Namespace, config):
    """The chunk scorer of ``--backend``: None (this process) or a Ray actor pool, closed when scoring ends."""
    if args.backend == "local":
        yield None
        return
    import os

    from polyreward.config import ConfigError
    from polyreward.runners.ray_backend import RayActorPool, RayChunkScorer, import_ray

    from polyreward.io import check_readable, check_writable

    check_writable(args.output, [check_readable(args.input)])  # a wrong path is reported before Ray starts
    try:
        import_ray()
    except ImportError as exc:
        raise ConfigError(str(exc)) from None
    address = args.address or os.environ.get("RAY_ADDRESS") or None
    try:
        pool = RayActorPool(config, on_reward_error=args.on_reward_error or config.on_reward_error, workers=args.workers,
                            actors=args.actors, address=address).__enter__()
    except (ValueError, ConnectionError) as exc:
        raise ConfigError(f"--backend ray: {exc}") from None
    try:
        yield RayChunkScorer(pool)
    finally:
        pool.__exit__()


def _report_to(text: str) -> list[str]:
    """``--report-to jsonl,tensorboard`` as a checked list, each tracker's package present (a ConfigError otherwise)."""
    from polyreward.config import ConfigError

    if not text.strip():
        return []
    from polyreward.runners.trackers import check_report_to

    try:
        return check_report_to([n.strip() for n in text.split(",") if n.strip()], "--report-to")
    except (ValueError, ImportError) as exc:
        raise ConfigError(str(exc)) from None


def _row_count(count_rows, path: str) -> int | None:
    try:
        return count_rows(path)
    except Exception:  # an unreadable file is reported by score_file, with its name
        return None


class _NoProgress(contextlib.nullcontext):
    """What ``--quiet`` or a redirected stderr shows: nothing (and rich.progress is not imported for it)."""

    def add_task(self, *args: Any, **kwargs: Any) -> int:
        return 0

    def advance(self, task: int, advance: float = 1) -> None:
        pass


def _progress(quiet: bool):
    import os

    if quiet or not (sys.stderr.isatty() or any(os.environ.get(v) for v in ("FORCE_TERMINAL", "TTY_COMPATIBLE", "TTY_INTERACTIVE"))):
        return _NoProgress()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, disable=quiet or not console.is_terminal, transient=True,
    )


def _stats(moments) -> tuple[str, str, str, str]:
    """n, mean, std, NaN count of one column's :class:`~polyreward.runners.file_summary.Moments` (exact: the same
    figures for any chunk size, worker count or backend)."""
    n = str(moments.count)
    if not moments.valid:
        return n, "-", "-", n
    std = moments.std() if moments.valid > 1 else 0.0
    return n, f"{moments.mean():.4f}", f"{std:.4f}", str(moments.nan)


def _print_summary(result, by: str | None, output: Path) -> None:
    from polyreward.cli.text_table import render_table

    summary, stats = result.summary, result.stats
    rows = [[name, *_stats(moments), str(summary.failures.get(name, "-"))] for name, moments in summary.columns.items()]
    print(render_table(f"scored {result.rows} rows -> {output}", ["reward", "n", "mean", "std", "NaN", "failed"], rows,
                       right=range(1, 6)))
    if by and summary.groups:
        if len(summary.groups) > 50:
            print(f"({len(summary.groups)} values of {by}; per-value table left out)")
        else:
            rows = [[key, name, *_stats(moments)] for key, columns in summary.groups.items() for name, moments in columns.items()]
            print(render_table(f"per {by}", [by, "reward", "n", "mean", "std", "NaN"], rows, right=range(2, 6)))
    if stats.skipped:
        print(f"skipped {stats.skipped} malformed line(s) (first at line {stats.first_skipped_line})")
