"""``polyreward probe CONFIG ROLLOUTS``: red-team a reward config before training with it.

For each group of ROLLOUTS (its first row) the probe takes a genuine answer (built from the row's reference, else the
group's best completion) and (1) searches compositions of reward-agnostic mutations of it -- a different answer
appended, the answer hidden in a comment, withdrawn, negated, among alternatives, disguised letters, the reasoning
stripped, padding, re-encoded tool calls -- keeping those a reward pays at least the genuine score although it
charges the same flaw shown plainly; (2) flags the file's own completions that score as high while a second reading
says they do not commit to the answer; (3) runs the named strategies each reward type declares
(:mod:`polyreward.probe.runner`).

Exit codes: 0 nothing found; 1 at least one exploit or suspicious score (so it can gate CI); 2 a bad config, file or
argument (one line).
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("config", help="YAML config naming the rewards")
    parser.add_argument("rollouts", help="rollout file (.jsonl, .parquet, .csv, ...) whose rows give the prompts and references")
    parser.add_argument("--json", nargs="?", const="-", default=None, metavar="PATH",
                        help="also write the full result as JSON to PATH (without PATH, or '-': print it instead of the table)")
    parser.add_argument("--limit", type=int, default=100, help="probe at most this many groups (first row of each; default 100)")
    parser.add_argument("--examples", type=int, default=2, help="shortest hack completions shown per exploit (default 2)")
    parser.add_argument("--budget", type=int, default=64, help="search candidates per probed row (0: no search; default 64)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the search's draws: one seed, one report (default 0)")
    parser.add_argument("--no-named", action="store_true", help="leave out the named strategies of the reward types (search only)")
    parser.add_argument("--workers", type=int, default=None, help="verification worker processes (default: the config's engine.workers)")
    add_set_argument(parser, "; e.g. --set rewards.1.min_content_words=0 to probe the source rule")


def run(args: argparse.Namespace) -> int:
    from polyreward.config import ConfigError, load_config
    from polyreward.io import InputError, iter_chunks
    from polyreward.probe import run_probe

    try:
        if args.limit < 1:
            raise ConfigError(f"--limit must be >= 1, got {args.limit}")
        if args.examples < 0:
            raise ConfigError(f"--examples must be >= 0, got {args.examples}")
        if args.budget < 0:
            raise ConfigError(f"--budget must be >= 0, got {args.budget}")
        if args.workers is not None and args.workers < 0:
            raise ConfigError(f"--workers must be >= 0 (0 = inline), got {args.workers}")
        config = load_config(args.config, args.overrides)
        records = [row for chunk in iter_chunks(args.rollouts) for row in chunk]
        if not records:
            raise InputError(f"{args.rollouts}: no rows to probe")
        report = run_probe(config, records, limit=args.limit, workers=args.workers, examples=args.examples,
                           budget=args.budget, seed=args.seed, named=not args.no_named)
        text = json.dumps(report.as_dict(), indent=2, ensure_ascii=False)
        if args.json not in (None, "-"):
            with open(args.json, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
    except (ValueError, OSError) as exc:  # a UserError that is no ValueError is reported by polyreward.cli.main
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json == "-":
        print(text)
    else:
        _print_table(report)
    return 1 if report.found else 0


def _print_table(report) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=160)
    title = f"probe: {report.rows_probed} row(s); genuine answer: {report.genuine_source}"
    if report.search:
        table = Table(title=f"{title}\nsearch: {report.candidates} candidate(s), budget {report.budget} per row, seed {report.seed}")
        for header in ("reward", "family", "tried", "exploited", "shortest exploit"):
            table.add_column(header, justify="right" if header in ("tried", "exploited") else "left", overflow="fold")
        for result in report.search:
            example = result.examples[0] if result.examples else None
            shown = f"[{'+'.join(example['chain'])}] {example['completion'][:160]!r}" if example else ""
            table.add_row(result.reward, result.family, str(result.tried), str(result.exploited), shown,
                          style="bold red" if result.exploited else None)
        console.print(table)
    if report.suspicious:
        table = Table(title="the file's own completions: suspicious high scores")
        for header in ("reward", "checked", "flagged", "checks", "shortest example"):
            table.add_column(header, justify="right" if header in ("checked", "flagged") else "left", overflow="fold")
        for entry in report.suspicious:
            checks = ", ".join(f"{k} {v}" for k, v in entry["by_check"].items() if v)
            example = entry["examples"][0]["completion"][:160] if entry["examples"] else ""
            table.add_row(entry["reward"], str(entry["checked"]), str(entry["flagged"]), checks, repr(example) if example else "",
                          style="bold red" if entry["flagged"] else None)
        console.print(table)
    if report.results:
        table = Table(title="named strategies")
        for header in ("reward", "strategy", "rows", "exploited", "share"):
            table.add_column(header, justify="left" if header in ("reward", "strategy") else "right")
        for result in report.results:
            share = f"{result.share:.0%}" if result.rows else "-"
            table.add_row(result.reward, result.strategy, str(result.rows), str(result.exploited), share,
                          style="bold red" if result.exploited else None)
        console.print(table)
    for note in report.notes:
        console.print(f"note: {note}", markup=False)
    for result in report.exploits:
        console.print(f"[bold]{result.reward} / {result.strategy}[/bold]: {result.description}")
        for example in result.examples:
            console.print(f"  hack {example['hack_score']:.4g} >= genuine {example['genuine_score']:.4g}: {example['hack']!r}", markup=False)
    verdict = (f"{report.found} exploit(s) found ({len(report.search_exploits)} search, {len(report.suspicious_flagged)} "
               f"suspicious, {len(report.exploits)} named)") if report.found else "no exploit found"
    console.print(verdict)
