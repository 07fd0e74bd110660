"""Test suites of a code task (the shapes datasets store them in) and the output comparison of stdin/stdout tests.

Accepted cells of the tests column:

* assert-style Python (a string that is not JSON): HumanEval/MBPP ``assert f(1) == 2`` lines or a ``check(candidate)``
  call; a list of such strings (MBPP's ``test_list``) is joined into one test file. Each top-level ``assert`` or bare
  call is one test; other statements (imports, ``def``, assignments) are set-up.
* stdin/stdout cases (APPS, CodeContests, LiveCodeBench): a list of ``{"input": ..., "output": ...}`` objects
  (``stdin``/``stdout`` also accepted), or ``{"inputs": [...], "outputs": [...]}`` as a dict or as the JSON string APPS
  stores. An input or output given as a list of lines is joined with newlines.

Call-based APPS tests (with ``fn_name``) are refused with a reason naming them (not applicable, ``None``).

Output comparison follows the common graders (LiveCodeBench, CodeContests' checker for plain tasks): both outputs are
split into lines, trailing whitespace is stripped from every line and trailing blank lines are dropped; with
``float_tolerance`` a line also matches when it has the same number of whitespace-separated tokens and each token
pair is equal or both parse as finite numbers within the tolerance (absolute or relative). verl's ``prime_code`` is
more lenient (it also accepts the same tokens in another order, as a set); that difference is documented, not copied.
"""

from __future__ import annotations

import ast
import json
import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TestSuite:
    kind: str  # "assert" or "io"
    code: str = ""
    cases: tuple[tuple[str, str], ...] = ()

    @property
    def size(self) -> int:
        return count_assert_tests(self.code) if self.kind == "assert" else len(self.cases)


def count_assert_tests(code: str) -> int:
    """Top-level ``assert`` statements and bare calls of a test file (the harness's notion of one test)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return 0
    return sum(isinstance(n, ast.Assert) or (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)) for n in tree.body)


def _text(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"a test {what} must be text or a list of lines, got {type(value).__name__}")


def parse_tests(value: Any) -> TestSuite:
    """The test suite of one row; ValueError naming what is wrong with the cell otherwise."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            try:
                value = json.loads(stripped)
            except (ValueError, RecursionError):
                return _assert_suite(value)  # a Python list or dict literal opening a test file
        else:
            return _assert_suite(value)
    if isinstance(value, dict):
        if value.get("fn_name"):
            raise ValueError("call-based tests (fn_name) are not supported; give stdin/stdout cases or assert code")
        if "inputs" not in value or "outputs" not in value:
            raise ValueError(f"a tests object needs 'inputs' and 'outputs', got keys {sorted(value)[:6]}")
        inputs, outputs = value["inputs"], value["outputs"]
        if not isinstance(inputs, list) or not isinstance(outputs, list) or len(inputs) != len(outputs):
            raise ValueError("'inputs' and 'outputs' must be lists of the same length")
        return _io_suite(list(zip(inputs, outputs)))
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, str) for v in value):
            return _assert_suite("\n".join(value))
        pairs = []
        for case in value:
            if not isinstance(case, dict):
                raise ValueError(f"a test case must be an object with input and output, got {type(case).__name__}")
            given = case.get("input", case.get("stdin"))
            expected = case.get("output", case.get("stdout", case.get("expected_output")))
            if given is None or expected is None:
                raise ValueError(f"a test case needs input and output, got keys {sorted(case)[:6]}")
            pairs.append((given, expected))
        return _io_suite(pairs)
    raise ValueError(f"tests must be assert code, a list of cases or an inputs/outputs object, got {type(value).__name__}")


def _assert_suite(code: str) -> TestSuite:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError) as exc:
        raise ValueError(f"the test code does not compile: {type(exc).__name__}: {exc}") from None
    suite = TestSuite("assert", code=code)
    if suite.size == 0:
        raise ValueError("the test code has no assert statement or check call")
    return suite


def _io_suite(pairs: list[tuple[Any, Any]]) -> TestSuite:
    if not pairs:
        raise ValueError("no test cases")
    return TestSuite("io", cases=tuple((_text(i, "input"), _text(o, "output")) for i, o in pairs))


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _number(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _tokens_close(got: str, want: str, tolerance: float) -> bool:
    a, b = got.split(), want.split()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        u, v = _number(x), _number(y)
        if u is None or v is None or not math.isclose(u, v, rel_tol=tolerance, abs_tol=tolerance):
            return False
    return True


def compare_output(got: str, want: str, float_tolerance: float | None = None) -> tuple[bool, str]:
    """(match, where the first difference is) under the rules of the module docstring."""
    a, b = _lines(got), _lines(want)
    for number, (x, y) in enumerate(zip(a, b), 1):
        if x != y and not (float_tolerance is not None and _tokens_close(x, y, float_tolerance)):
            return False, f"line {number} differs"
    if len(a) != len(b):
        return False, f"{len(a)} output lines, {len(b)} expected"
    return True, ""
