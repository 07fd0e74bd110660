"""``polyreward advantages IN --combiner NAME [--rewards a,b] [--weights 1,0.5] [--group-col C] -o OUT``

Reads a scored rollout file (JSONL, Parquet or CSV by extension), adds an ``advantage`` column computed
by the combiner within each group, writes OUT (format by extension) and prints the diagnostics summary
(collapse, objective shares, sign flips, zero-signal groups).

Which columns are rewards (:func:`choose_rewards`, shared with ``polyreward report``): ``--rewards a,b``; else the
config's reward names and weights (``--config``); else the columns ``polyreward score`` wrote as rewards (each
``X`` that has an ``X_reason`` companion); only for a file without any such column, every numeric column except
the group column, ``reward``, ``advantage``, id-like columns and sub-scores (``name.sub``, e.g. ``overlong.length``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXCLUDED = {"reward", "advantage", "step", "index", "id", "seed", "group", "prompt_id", "sample_id", "rollout_id"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("input", help="scored rollouts: .jsonl, .parquet or .csv")
    parser.add_argument("-o", "--output", required=True, help="output file (.jsonl, .parquet or .csv)")
    parser.add_argument("--combiner", default=None, help="combiner type (default: the config's, else gdpo); see `polyreward list`")
    parser.add_argument("--rewards", default=None, help="comma-separated reward columns (default: the --config rewards, else the columns polyreward score wrote as rewards)")
    parser.add_argument("--weights", default=None, help="comma-separated weights, one per reward column (default 1)")
    parser.add_argument("--group-col", default=None, help="column with the prompt/group id (default prompt_id, else prompt)")
    parser.add_argument("--config", "-c", default=None, help="a polyreward YAML: reward names, weights, group column and combiner")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="combiner parameter (YAML value), repeatable")
    parser.add_argument("--column", default="advantage", help="name of the added column (default advantage)")
    add_set_argument(parser, " (with --config)")


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


def check_params(combiner_type: str, params: dict[str, Any]) -> None:
    """ValueError naming the first ``--param`` key the combiner does not take, and the keys it does."""
    from polyreward import registry
    from polyreward.registry import parameter_model

    model = parameter_model(registry.combiner_class(combiner_type))
    allowed = set(model.model_fields)
    unknown = sorted(set(params) - allowed)
    if unknown and model.model_config.get("extra") == "forbid":
        raise ValueError(f"--param {unknown[0]}: unknown parameter of combiner {combiner_type}; allowed: {', '.join(sorted(allowed)) or '(none)'}")


def default_reward_columns(frame, group_column: str) -> list[str]:
    """The columns ``polyreward score`` wrote as rewards (``X`` with an ``X_reason`` companion), else every
    numeric column except the group column, ids, ``reward``/``advantage``, reasons and sub-scores (``a.b``)."""
    import pandas as pd

    names = [str(c) for c in frame.columns]
    scored = [name for name in names if f"{name}_reason" in names]
    if scored:
        return scored
    columns = []
    for name in names:
        lowered = name.lower()
        if name == group_column or lowered in EXCLUDED or lowered.endswith(("_id", "_reason")) or "." in name:
            continue
        if pd.api.types.is_bool_dtype(frame[name]) or pd.api.types.is_numeric_dtype(frame[name]):
            columns.append(name)
    return columns


def choose_rewards(frame, group: str, rewards: list[str] | None, weights: list[float] | None, config) -> tuple[list[str], list[float] | None]:
    """(reward columns, weights): ``rewards`` if given, else the config's names and weights, else the defaults
    above; ``weights`` must then have one value per column."""
    if rewards:
        pass
    elif config is not None:
        rewards = [r.name for r in config.rewards]
        weights = weights if weights is not None else [r.weight for r in config.rewards]
    else:
        rewards = default_reward_columns(frame, group)
        if not rewards:
            raise ValueError("no reward columns found; name them with --rewards a,b or give the scoring config with --config")
    if weights is not None and len(weights) != len(rewards):
        raise ValueError(f"--weights has {len(weights)} value(s) but there are {len(rewards)} reward column(s): {', '.join(rewards)}")
    return rewards, weights


def parse_weights(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(w) for w in text.split(",")]
    except ValueError:
        raise ValueError(f"--weights must be comma-separated numbers, got {text!r}") from None


def resolve(args: argparse.Namespace, frame) -> tuple[list[str], list[float] | None, str, Any]:
    """(reward columns, weights, group column, combiner) from the flags, the config and the data."""
    from polyreward.combiners.apply import build_combiner
    from polyreward.config import parse_key_values

    config = None
    if args.config:
        from polyreward.config import load_config

        config = load_config(args.config, args.overrides)
    elif args.overrides:
        raise ValueError("--set changes a config: give it with --config")
    group = args.group_col or (config.columns.group if config else None)
    if group is None:
        group = "prompt_id" if "prompt_id" in frame.columns else "prompt"
    prompt = config.columns.prompt if config else "prompt"
    if not args.group_col and group not in frame.columns and prompt in frame.columns:
        group = prompt  # the contract's rule: without a group column a row's group is its prompt
    rewards = [c.strip() for c in args.rewards.split(",") if c.strip()] if args.rewards else None
    rewards, weights = choose_rewards(frame, group, rewards, parse_weights(args.weights), config)
    params = parse_key_values(args.param, "--param")
    combiner_type = args.combiner or (config.combiner.type if config is not None and config.combiner is not None else "gdpo")
    check_params(combiner_type, params)
    if config is None:
        combiner = build_combiner(combiner_type, **params)
    else:  # through the config, so its columns: mapping reaches a combiner with per-row columns (DRPO's domain)
        combiner = config.build_combiner(combiner_type if args.combiner or config.combiner is None else None, **params)
    return rewards, weights, group, combiner


def print_summary(summary: dict[str, float], title: str) -> None:
    from polyreward.cli.text_table import render_table

    print(render_table(title, ["diagnostic", "value"], [[key, f"{value:.4g}"] for key, value in summary.items()], right=[1]))


def run(args: argparse.Namespace) -> int:
    from polyreward.io import check_readable, check_writable

    try:  # the paths first: a wrong one is said before pandas is even imported
        check_writable(args.output, [check_readable(args.input)],
                       reads={Path(args.config): "the config file"} if args.config and Path(args.config).is_file() else None)
        from polyreward.combiners.apply import add_advantages, reward_matrix
        from polyreward.combiners.diagnostics import diagnose

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
    print_summary({**diagnostics.summary, **combiner.diagnostics()}, title)
    single = diagnostics.summary.get("single_rollout_group_fraction", 0.0)
    if single > 0:  # group-relative advantages of a one-rollout group are 0: almost always the wrong group column
        groups = diagnostics.summary["groups"]
        print(f"warning: {single:.0%} of the {groups:.0f} groups have a single scored rollout (group column {group!r}); "
              "their advantages are 0 and they count as collapsed. Is the group column right (--group-col, columns.group)?",
              file=sys.stderr)
    print(f"wrote {args.output}")
    return 0
