"""``polyreward list``: registered rewards and combiners, one line each."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", nargs="?", choices=["rewards", "combiners"], help="only this kind")
    parser.add_argument("--params", action="store_true", help="also each type's parameters (name: type = default)")


def describe(kind: str, with_params: bool = False) -> list[tuple[str, ...]]:
    """(name, tag, description) for every registered type of ``kind``. The tag is ``exactness`` (exact |
    reconstructed), or the type's ``exactness_detail`` when it declares one because its parts differ (e.g.
    "exact scoring, reconstructed extractor"). ``with_params`` adds each type's parameters, from its typed
    parameter model (:mod:`polyreward.params`)."""
    from polyreward import registry
    from polyreward.params import parameter_rows

    names = registry.reward_types() if kind == "rewards" else registry.combiner_types()
    lookup = registry.reward_class if kind == "rewards" else registry.combiner_class
    rows = []
    for name in names:
        try:
            cls = lookup(name)
            tag = getattr(cls, "exactness_detail", "") or getattr(cls, "exactness", "?")
            row: tuple[str, ...] = (name, tag, getattr(cls, "description", "") or (cls.__doc__ or "").strip().split("\n")[0])
            if with_params:
                row += ("\n".join(f"{p}: {t} = {d}" for p, t, d, _ in parameter_rows(cls)),)
        except Exception as exc:  # a broken plug-in must not hide the others
            row = (name, "unavailable", f"cannot import: {type(exc).__name__}: {exc}") + (("",) if with_params else ())
        rows.append(row)
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
        if args.params:
            table.add_column("parameters")
        for row in describe(kind, args.params):
            table.add_row(*row)
        console.print(table)
    return 0
