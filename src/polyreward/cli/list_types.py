"""``polyreward list``: registered rewards and combiners, one line each.

On a terminal a table; piped or redirected, the same table at full width (no name is cut to the terminal's width);
``--json`` one JSON document ``{"rewards": [{"name", "source", "description"[, "parameters"]}], "combiners": [...]}``.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", nargs="?", choices=["rewards", "combiners"], help="only this kind")
    parser.add_argument("--params", action="store_true", help="also each type's parameters (name: type = default)")
    parser.add_argument("--json", action="store_true", help="one JSON document instead of tables (for scripts)")


def describe(kind: str, with_params: bool = False) -> list[tuple[str, ...]]:
    """(name, tag, description) for every registered type of ``kind``. The tag is ``exactness`` (exact |
    reconstructed), or the type's ``exactness_detail`` when it declares one because its parts differ (e.g.
    "exact scoring, reconstructed extractor"). ``with_params`` adds each type's parameters, from its typed
    parameter model (:mod:`polyreward.registry`)."""
    from polyreward import registry
    from polyreward.registry import parameter_rows

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


def _as_json(kind: str, row: tuple[str, ...], with_params: bool) -> dict:
    """One type as a JSON object; its parameters as ``[{name, type, default, meaning}]`` (not the table's text)."""
    from polyreward import registry
    from polyreward.registry import parameter_rows

    item = dict(zip(("name", "source", "description"), row))
    if with_params:
        try:
            cls = (registry.reward_class if kind == "rewards" else registry.combiner_class)(row[0])
            item["parameters"] = [dict(zip(("name", "type", "default", "meaning"), p)) for p in parameter_rows(cls)]
        except Exception:  # unavailable: describe() already says why
            item["parameters"] = []
    return item



def run(args: argparse.Namespace) -> int:
    import sys

    kinds = [args.kind] if args.kind else ["rewards", "combiners"]
    if args.json:
        import json

        print(json.dumps({kind: [_as_json(kind, row, args.params) for row in describe(kind)] for kind in kinds}, indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table

    # piped or redirected: no terminal width to fit, so nothing is cut ("clinical_comprehensive…")
    console = Console() if sys.stdout.isatty() else Console(width=10_000, soft_wrap=True)
    for kind in kinds:
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
