"""``polyreward advantages IN --combiner NAME [--rewards a,b] [--weights 1,0.5] [--group-col C] -o OUT``

Reads a scored rollout file (JSONL, Parquet or CSV by extension), adds an ``advantage`` column computed
by the combiner within each group, writes OUT (format by extension) and prints the diagnostics summary
(collapse, objective shares, sign flips, zero-signal groups). Without ``--rewards``, the reward columns
are taken from ``--config`` if given, else every numeric column except the group column, ``reward``,
``advantage`` and id-like columns.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXCLUDED = {"reward", "advantage", "step", "index", "id", "seed", "group", "prompt_id", "sample_id", "rollout_id"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="scored rollouts: .jsonl, .parquet or .csv")
    parser.add_argument("-o", "--output", required=True, help="output file (.jsonl, .parquet or .csv)")
    parser.add_argument("--combiner", default=None, help="combiner type (default: the config's, else gdpo); see `polyreward list`")
    parser.add_argument("--rewards", default=None, help="comma-separated reward columns (default: from --config or all numeric columns)")
    parser.add_argument("--weights", default=None, help="comma-separated weights, one per reward column (default 1)")
    parser.add_argument("--group-col", default=None, help="column with the prompt/group id (default prompt_id, else prompt)")
    parser.add_argument("--config", default=None, help="a polyreward YAML: reward names, weights, group column and combiner")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="combiner parameter (YAML value), repeatable")
    parser.add_argument("--column", default="advantage", help="name of the added column (default advantage)")


def read_frame(path: str | Path):
    """A DataFrame from a JSONL, Parquet or CSV file (by extension)."""
    import pandas as pd

    from polyreward.io import file_format

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    kind = file_format(path)
    try:
        if kind == "jsonl":
            return pd.read_json(path, lines=True, dtype=False)
        if kind == "parquet":
            return pd.read_parquet(path)
        return pd.read_csv(path)
    except ValueError as exc:
        raise ValueError(f"{path}: cannot read as {kind}: {exc}") from None


def write_frame(frame, path: str | Path) -> None:
    from polyreward.io import write_rows

    write_rows(path, frame.astype(object).where(frame.notna(), None).to_dict(orient="records"))


def parse_params(items: list[str]) -> dict[str, Any]:
    import yaml

    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--param expects KEY=VALUE, got {item!r}")
        params[key.strip()] = yaml.safe_load(value)
    return params


def numeric_reward_columns(frame, group_column: str) -> list[str]:
    import pandas as pd

    columns = []
    for name in frame.columns:
        lowered = str(name).lower()
        if name == group_column or lowered in EXCLUDED or lowered.endswith("_id"):
            continue
        if pd.api.types.is_bool_dtype(frame[name]) or pd.api.types.is_numeric_dtype(frame[name]):
            columns.append(str(name))
    return columns


def resolve(args: argparse.Namespace, frame) -> tuple[list[str], list[float] | None, str, Any]:
    """(reward columns, weights, group column, combiner) from the flags, the config and the data."""
    from polyreward.combiners.apply import build_combiner

    config = None
    if args.config:
        from polyreward.config import load_config

        config = load_config(args.config)
    group = args.group_col or (config.columns.group if config else None)
    if group is None:
        group = "prompt_id" if "prompt_id" in frame.columns else "prompt"
    if args.rewards:
        rewards = [c.strip() for c in args.rewards.split(",") if c.strip()]
    elif config is not None:
        rewards = [r.name for r in config.rewards]
    else:
        rewards = numeric_reward_columns(frame, group)
        if not rewards:
            raise ValueError("no numeric reward columns found; name them with --rewards a,b")
    weights = None
    if args.weights:
        try:
            weights = [float(w) for w in args.weights.split(",")]
        except ValueError:
            raise ValueError(f"--weights must be comma-separated numbers, got {args.weights!r}") from None
        if len(weights) != len(rewards):
            raise ValueError(f"--weights has {len(weights)} value(s) but there are {len(rewards)} reward column(s): {', '.join(rewards)}")
    elif config is not None and not args.rewards:
        weights = [r.weight for r in config.rewards]
    params = parse_params(args.param)
    if args.combiner:
        combiner = build_combiner(args.combiner, **params)
    elif config is not None and config.combiner is not None:
        combiner = config.build_combiner(**params)
    else:
        combiner = build_combiner("gdpo", **params)
    return rewards, weights, group, combiner


def print_summary(summary: dict[str, float], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    table.add_column("diagnostic")
    table.add_column("value", justify="right")
    for key, value in summary.items():
        table.add_row(key, f"{value:.4g}")
    Console(stderr=False).print(table)


def run(args: argparse.Namespace) -> int:
    from polyreward.combiners.apply import add_advantages, reward_matrix
    from polyreward.combiners.diagnostics import diagnose

    try:
        frame = read_frame(args.input)
        rewards, weights, group, combiner = resolve(args, frame)
        result = add_advantages(frame, rewards, weights, group, combiner, column=args.column)
        diagnostics = diagnose(reward_matrix(frame, rewards), result[group].map(str).to_numpy(), result[args.column].to_numpy(), weights, rewards)
        write_frame(result, args.output)
    except (ValueError, KeyError, FileNotFoundError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"polyreward advantages: error: {message}", file=sys.stderr)
        return 2
    title = f"{type(combiner).type_name} advantages: {len(result)} rollouts, rewards {', '.join(rewards)} (group by {group})"
    print_summary(diagnostics.summary, title)
    print(f"wrote {args.output}")
    return 0
