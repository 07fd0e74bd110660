"""No statement of the package follows a ``return``, ``raise``, ``continue`` or ``break`` in the same block.

Such code never runs, yet reads as if it did: a merge once left an earlier draft of ``turns._prompt_restart``'s
search (20 lines) after the function's ``return None``, where every reader took it for the live rule. The project
runs no linter, so this walks the syntax tree of every module under ``src/polyreward`` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "polyreward"
_ENDS_BLOCK = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def unreachable_lines(source: str) -> list[int]:
    """The line of each statement that follows a block-ending statement in the same statement list."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for before, after in zip(block, block[1:]):
                if isinstance(before, _ENDS_BLOCK):
                    found.append(after.lineno)
    return found


@pytest.mark.parametrize("source, expected", [
    ("def f():\n    return 1\n    x = 2\n", [3]),
    ("def f(xs):\n    for x in xs:\n        continue\n        print(x)\n", [4]),
    ("def f():\n    raise ValueError\n", []),
    ("def f(a):\n    if a:\n        return 1\n    return 2\n", []),
    ("def f():\n    try:\n        return 1\n    finally:\n        pass\n", []),
])
def test_the_walk_finds_statements_after_a_block_end(source, expected):
    assert unreachable_lines(source) == expected


def test_no_module_holds_unreachable_statements():
    offenders = [f"{path.relative_to(PACKAGE.parent)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
                 for line in unreachable_lines(path.read_text(encoding="utf-8"))]
    assert offenders == []
