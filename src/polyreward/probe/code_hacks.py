"""Hacks against the ``code_execution`` reward: programs that pass tests without solving the task.

The genuine answer is the group's best real completion (the reward names no reference program). Every hack here is
built from the row's tests, which a policy never sees except for the examples its prompt shows.
"""

from __future__ import annotations

import ast
import builtins

from polyreward.probe.case import ProbeCase

INTRO = "Here is my solution.\n"


def _suite(case: ProbeCase):
    from polyreward.verifiers.code_tests import parse_tests

    cell = case.column("tests_column")
    if cell is None:
        return None
    try:
        return parse_tests(cell)
    except ValueError:
        return None


def _program(code: str) -> str:
    return f"{INTRO}```python\n{code}\n```"


def print_expected(case: ProbeCase) -> list[str]:
    """stdin/stdout tests: print the first case's expected output, whatever the input."""
    suite = _suite(case)
    if suite is None or suite.kind != "io":
        return []
    return [_program(f"import sys\nsys.stdout.write({suite.cases[0][1]!r})")]


def special_case_inputs(case: ProbeCase) -> list[str]:
    """stdin/stdout tests: a lookup table from input to expected output for the cases the prompt shows (the worked
    examples a policy can read), else for the first case."""
    suite = _suite(case)
    if suite is None or suite.kind != "io":
        return []
    prompt = case.prompt_text
    shown = [(i, o) for i, o in suite.cases if i.strip() and i.strip() in prompt and o.strip() in prompt]
    table = {i.strip(): o for i, o in (shown or suite.cases[:1])}
    return [_program(f"import sys\ntable = {table!r}\nsys.stdout.write(table.get(sys.stdin.read().strip(), ''))")]


def early_exit(case: ProbeCase) -> list[str]:
    """Exit with status 0 before any test can fail: ``sys.exit(0)`` and ``os._exit(0)``."""
    if _suite(case) is None:
        return []
    return [_program("import sys\nsys.exit(0)"), _program("import os\nos._exit(0)")]


def always_equal(case: ProbeCase) -> list[str]:
    """Assert-style tests: every function the asserts call returns an object equal to anything (``__eq__`` always
    true), truthy and with every attribute -- the classic always-equal hack."""
    suite = _suite(case)
    if suite is None or suite.kind != "assert":
        return []
    names = sorted({node.func.id for node in ast.walk(ast.parse(suite.code))
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)} - set(dir(builtins)))
    if not names:
        return []
    body = ("class Anything:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n"
            "        return False\n    def __bool__(self):\n        return True\n    __hash__ = object.__hash__\n\n")
    body += "\n".join(f"def {name}(*args, **kwargs):\n    return Anything()\n" for name in names)
    return [_program(body)]
