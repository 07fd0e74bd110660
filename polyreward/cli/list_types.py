"""``polyreward list``: registered rewards and combiners, one line each."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", nargs="?", choices=["rewards", "combiners"], help="only this kind")


def describe(kind: str) -> list[tuple[str, str, str]]:
    """(name, exact|reconstructed, description) for every registered type of ``kind``."""
    from polyreward import registry

    names = registry.reward_types() if kind == "rewards" else registry.combiner_types()
    lookup = registry.reward_class if kind == "rewards" else registry.combiner_class
    rows = []
    for name in names:
        try:
            cls = lookup(name)
            rows.append((name, getattr(cls, "exactness", "?"), getattr(cls, "description", "") or (cls.__doc__ or "").strip().split("\n")[0]))
        except Exception as exc:  # a broken plug-in must not hide the others
            rows.append((name, "unavailable", f"cannot import: {type(exc).__name__}: {exc}"))
    return rows


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for kind in [args.kind] if args.kind else ["rewards", "combiners"]:
        table = Table(title=kind)
        table.add_column("name")
        table.add_column("source")
        table.add_column("description")
        for row in describe(kind):
            table.add_row(*row)
        console.print(table)
    return 0
