"""No dead code in the package: no statement after a ``return``, ``raise``, ``continue`` or ``break`` in the same
block, and no private module-level name (``_PATTERN = ...``, ``def _helper``) that nothing uses.

Such code never runs, yet reads as if it did: a merge once left an earlier draft of ``turns._prompt_restart``'s
search (20 lines) after the function's ``return None``, where every reader took it for the live rule, and three
patterns outlived the rules that read them. The project runs no linter, so this walks the syntax tree of every
module under ``src/polyreward`` itself.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
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


def unused_private_names(sources: dict[str, str]) -> list[str]:
    """``module:name`` for each private name a module defines at its top level (an assignment, a function or a
    class without a decorator, which registers it) that no module's text names again (a name listed in a string,
    as ``prefilter_names(globals(), "_PATTERN")`` lists it, counts as a use)."""
    mentions = Counter(word for source in sources.values() for word in re.findall(r"\w+", source))
    unused = []
    for module, source in sources.items():
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.decorator_list:
                names = [node.name]
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [target.id for target in targets if isinstance(target, ast.Name)]
            else:
                continue
            unused += [f"{module}:{name}" for name in names if name.startswith("_") and not name.startswith("__")
                       and mentions[name] == 1]
    return unused


def test_the_scan_finds_a_private_name_nothing_uses():
    sources = {"a": "_USED = 1\n_UNUSED = 2\ndef _helper():\n    return _USED\n", "b": "from a import _helper\n"}
    assert unused_private_names(sources) == ["a:_UNUSED"]


def test_no_module_defines_a_private_name_nothing_uses():
    sources = {str(path.relative_to(PACKAGE.parent)): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}
    assert unused_private_names(sources) == []
