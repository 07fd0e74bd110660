"""``polyreward probe CONFIG ROLLOUTS``: red-team a reward config before training with it.

For each group of ROLLOUTS (its first row) the probe builds a genuine answer from the row's reference and the hacks
each reward type declares (hedges, negations, retractions, candidate lists, prompt copies, empty or junk format,
keyword stuffing, invisible padding, ...), scores them through the config's rewards, and reports per reward and
strategy the share of rows where the hack scores at least the genuine answer (:mod:`polyreward.probe.runner`).

Exit codes: 0 no exploit found; 1 at least one (so it can gate CI); 2 a bad config, file or argument (one line).
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("config", help="YAML config naming the rewards")
    parser.add_argument("rollouts", help="rollout file (.jsonl, .parquet, .csv, ...) whose rows give the prompts and references")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON instead of a table")
    parser.add_argument("--limit", type=int, default=100, help="probe at most this many groups (first row of each; default 100)")
    parser.add_argument("--examples", type=int, default=2, help="hack completions shown per exploited strategy (default 2)")
    parser.add_argument("--workers", type=int, default=None, help="verification worker processes (default: the config's engine.workers)")
    add_set_argument(parser, "; e.g. --set rewards.1.min_content_words=0 to probe the source rule")


def run(args: argparse.Namespace) -> int:
    from polyreward.config import ConfigError, load_config
    from polyreward.io import InputError, iter_chunks
    from polyreward.pipeline import MissingColumnError
    from polyreward.probe import run_probe

    try:
        if args.limit < 1:
            raise ConfigError(f"--limit must be >= 1, got {args.limit}")
        if args.examples < 0:
            raise ConfigError(f"--examples must be >= 0, got {args.examples}")
        if args.workers is not None and args.workers < 0:
            raise ConfigError(f"--workers must be >= 0 (0 = inline), got {args.workers}")
        config = load_config(args.config, args.overrides)
        records = [row for chunk in iter_chunks(args.rollouts) for row in chunk]
        if not records:
            raise InputError(f"{args.rollouts}: no rows to probe")
        report = run_probe(config, records, limit=args.limit, workers=args.workers, examples=args.examples)
    except (ConfigError, InputError, MissingColumnError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        _print_table(report)
    return 1 if report.exploits else 0


def _print_table(report) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"probe: {report.rows_probed} row(s); genuine answer: {report.genuine_source}")
    for header in ("reward", "strategy", "rows", "exploited", "share"):
        table.add_column(header, justify="left" if header in ("reward", "strategy") else "right")
    for result in report.results:
        share = f"{result.share:.0%}" if result.rows else "-"
        style = "bold red" if result.exploited else None
        table.add_row(result.reward, result.strategy, str(result.rows), str(result.exploited), share, style=style)
    console.print(table)
    for note in report.notes:
        console.print(f"note: {note}")
    for result in report.exploits:
        console.print(f"[bold]{result.reward} / {result.strategy}[/bold]: {result.description}")
        for example in result.examples:
            console.print(f"  hack {example['hack_score']:.4g} >= genuine {example['genuine_score']:.4g}: {example['hack']!r}", markup=False)
    verdict = f"{len(report.exploits)} exploit(s) found" if report.exploits else "no exploit found"
    console.print(verdict)
