"""``code_execution``: the share of a task's unit tests the completion's program passes, run in a sandbox.

    r = passed / n            (mode: fraction)          r = 1[passed == n]   (mode: all_pass)

``n`` is the number of tests of the row (stdin/stdout cases, or the top-level ``assert`` statements and check calls of
assert-style test code); ``None`` when the tests cell is missing or unusable; NaN when no sandbox could be made (the
run never happened, which is not the program's fault). The program is the last fenced block of the language in the
completion's visible text (:mod:`polyreward.verifiers.code_extraction`); no program scores 0.

Each run is a fresh sandboxed process (:mod:`polyreward.verifiers.sandbox`: namespaces, a read-only jail, a uid of its
own, resource limits) or a request to a SandboxFusion service (``sandbox: {url: ...}``,
:mod:`polyreward.verifiers.code_remote`). stdin/stdout cases run one process each and the expected output never enters
the sandbox; assert-style tests run once, after the program, in its process, and count only up to the harness's own
end-of-tests line, so a program that exits early (``sys.exit(0)``) passes nothing.

Concurrency: a bounded thread pool (``concurrency`` runs at once) in the scoring process. Each thread only waits on its
sandbox's pipes, and the program is its own process with its own limits, so the engine's worker pool (persistent
Python workers for CPU-bound parsing) would add a process hop and nothing else; code is never run in a worker that
scores other rewards.

Reasons start with the outcome of the first failing test: ``wrong_answer``, ``timeout``, ``memory_limit``, ``crash``,
``output_limit``, ``syntax_error``, ``early_exit``, ``no_program`` or ``sandbox_unavailable``, then the test's number
and ``passed k of n``. Tag: reconstructed (the scoring rule of APPS/CodeContests-style graders and of verl's
``prime_code``; the comparison rules are in :mod:`polyreward.verifiers.code_tests`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from polyreward.reward import Reward, RewardOutput, Scored, column_name, one_of
from polyreward.schema import completion_text, is_missing
from polyreward.verifiers.code_extraction import LANGUAGE_TAGS, extract_program
from polyreward.verifiers.code_tests import TestSuite, compare_output, parse_tests
from polyreward.verifiers.sandbox import ISOLATION, Limits, RunResult, run_program

MODES = ("fraction", "all_pass")
FAILURE_NAMES = {"timeout": "timeout", "memory": "memory_limit", "crash": "crash", "output_limit": "output_limit",
                 "compile_error": "syntax_error", "unavailable": "sandbox_unavailable"}


def _positive(key: str, value: Any, integer: bool = False) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or not math.isfinite(value) \
            or (integer and value != int(value)):
        raise ValueError(f"{key} must be a {'whole ' if integer else ''}number > 0, got {value!r}")
    return int(value) if integer else float(value)


class CodeExecution(Reward):
    """Unit tests of ``tests_column`` run against the completion's program in a sandbox.

    Args:
        tests_column: column holding the tests: assert-style code, a list of {input, output} cases, or an APPS
            inputs/outputs object (a dict or its JSON string)
        language: the fenced block's language (python)
        mode: fraction (passed / tests) or all_pass (1 when every test passes, else 0)
        timeout: CPU seconds of one run, summed over its processes (one stdin/stdout case, or the program plus all
            assert tests)
        wall_timeout: wall-clock seconds after which a run that is not computing (sleeping, blocked) is stopped; null:
            3 x timeout + 2
        memory_mb: address-space limit of the program's processes, in MB
        max_output_kb: stdout kept per run; more is an output_limit failure
        processes: processes the program may have at once (fork bombs stop here)
        float_tolerance: stdin/stdout tokens that are numbers match within this absolute or relative tolerance; null:
            exact text after stripping trailing whitespace
        network_isolation: required (refuse to run without a new network namespace) or best_effort (run anyway
            without namespaces when the kernel refuses them)
        sandbox: local, or {url: ...} of a SandboxFusion service (its /run_code endpoint)
        concurrency: sandboxed runs at once; null: POLYREWARD_SANDBOXES or min(4, CPU cores)
    """

    type_name = "code_execution"
    exactness = "reconstructed"
    description = "share of unit tests (assert or stdin/stdout) the program passes, run in a namespace sandbox"
    score_range = (0.0, 1.0)
    probe_strategies = ("print_expected", "special_case_inputs", "early_exit", "always_equal")  # polyreward.probe.code_hacks

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        tests_column: str = "tests",
        language: str = "python",
        mode: str = "fraction",
        timeout: float = 5.0,
        wall_timeout: float | None = None,
        memory_mb: int = 512,
        max_output_kb: int = 1024,
        processes: int = 16,
        float_tolerance: float | None = None,
        network_isolation: str = "required",
        sandbox: str | Mapping[str, Any] = "local",
        concurrency: int | None = None,
    ) -> None:
        super().__init__(name, weight)
        self.tests_column = column_name("tests_column", tests_column)
        self.language = one_of("language", language, tuple(LANGUAGE_TAGS))
        self.mode = one_of("mode", mode, MODES)
        self.float_tolerance = None if float_tolerance is None else _positive("float_tolerance", float_tolerance)
        self.network_isolation = one_of("network_isolation", network_isolation, ISOLATION)
        self.limits = Limits(cpu_seconds=_positive("timeout", timeout),
                             wall_seconds=None if wall_timeout is None else _positive("wall_timeout", wall_timeout),
                             memory_mb=_positive("memory_mb", memory_mb, integer=True),
                             processes=_positive("processes", processes, integer=True),
                             output_bytes=_positive("max_output_kb", max_output_kb, integer=True) * 1024)
        if concurrency is None:
            concurrency = int(os.environ.get("POLYREWARD_SANDBOXES", min(4, os.cpu_count() or 1)))
        self.concurrency = _positive("concurrency", concurrency, integer=True)
        self.sandbox = sandbox
        self.client = self._client(sandbox)

    @staticmethod
    def _client(sandbox: Any) -> Any:
        if sandbox == "local":
            return None
        if isinstance(sandbox, Mapping) and isinstance(sandbox.get("url"), str):
            from polyreward.verifiers.code_remote import SandboxFusionClient

            unknown = set(sandbox) - {"url", "request_timeout", "headers"}
            if unknown:
                raise ValueError(f"sandbox takes url, request_timeout and headers, got {sorted(unknown)}")
            return SandboxFusionClient(**sandbox)
        raise ValueError(f"sandbox must be local or {{url: http://host:port/run_code}}, got {sandbox!r}")

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.tests_column,)

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        if self.tests_column not in columns:
            raise KeyError(f"reward {self.name!r} reads column {self.tests_column!r} that the batch does not have; "
                           f"available: {sorted(columns)}")
        cells = list(columns[self.tests_column])
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="polyreward-sandbox") as pool:
            results = list(pool.map(self._score_one, completions, cells))
        return RewardOutput([r.score for r in results], [r.reason for r in results],
                            {"tests_passed": [r.details.get("tests_passed") for r in results]})

    def _score_one(self, completion: Any, cell: Any) -> Scored:
        if is_missing(cell):
            return Scored(None, f"no tests in column {self.tests_column!r}")
        try:
            suite = parse_tests(cell)
        except ValueError as exc:
            return Scored(None, f"unusable tests: {exc}")
        extracted = extract_program(completion_text(completion), self.language)
        if extracted.program is None:
            return Scored(0.0, extracted.reason, {"tests_passed": 0.0})
        if suite.kind == "io":
            passed, failure = self._run_cases(extracted.program, suite)
        else:
            passed, failure = self._run_asserts(extracted.program, suite)
        return self._scored(passed, suite.size, failure)

    def _run(self, program: str, tests: str | None = None, stdin: str = "") -> RunResult:
        if self.client is not None:
            return self.client.run(program, tests, stdin, self.limits)
        return run_program(program, tests, stdin, self.limits, self.network_isolation)

    def _run_cases(self, program: str, suite: TestSuite) -> tuple[int, tuple[str, int, str] | None]:
        passed, failure = 0, None
        for index, (given, expected) in enumerate(suite.cases):
            result = self._run(program, stdin=given)
            if result.status == "ok":
                ok, where = compare_output(result.stdout.decode("utf-8", "replace"), expected, self.float_tolerance)
                outcome = None if ok else ("wrong_answer", index, where)
            else:
                outcome = (FAILURE_NAMES[result.status], index, result.detail)
            if outcome is None:
                passed += 1
            else:
                failure = failure or outcome
                if self.mode == "all_pass" or outcome[0] in ("syntax_error", "sandbox_unavailable"):
                    break
        return passed, failure

    def _run_asserts(self, program: str, suite: TestSuite) -> tuple[int, tuple[str, int, str] | None]:
        result = self._run(program, tests=suite.code)
        passed = sum(1 for event, _, _ in result.events if event == "pass")
        failed = [(event, index, detail) for event, index, detail in result.events
                  if event in ("fail", "error", "setup_error", "memory")]
        finished = any(event == "done" for event, _, _ in result.events)
        if result.status in ("compile_error", "unavailable"):
            return 0, (FAILURE_NAMES[result.status], -1, result.detail)
        early = next(((e, d) for e, _, d in result.events if e in ("program_exit", "program_error", "bad_tests")), None)
        if early is not None:
            kind = {"program_exit": "early_exit", "program_error": "crash", "bad_tests": "bad_tests"}[early[0]]
            return 0, (kind, -1, early[1])
        if failed:
            event, index, detail = failed[0]
            kind = {"fail": "wrong_answer", "error": "crash", "setup_error": "crash", "memory": "memory_limit"}[event]
            first = (kind, index, detail)
        else:
            first = None
        if finished and result.status == "ok":
            return passed, first
        if first is None:  # stopped before its next test ran: that test is the failing one
            kind = FAILURE_NAMES.get(result.status, "crash")
            if result.status == "ok":  # exit status 0 without the harness's end line: the program left early
                kind, detail = "early_exit", "the process ended before the tests finished"
            else:
                detail = result.detail
            first = (kind, passed, detail)
        return passed, first

    def _scored(self, passed: int, total: int, failure: tuple[str, int, str] | None) -> Scored:
        details = {"tests_passed": float(passed)}
        if failure is not None and failure[0] == "sandbox_unavailable":
            return Scored(math.nan, f"sandbox_unavailable: {failure[2]}", details)
        if failure is not None and failure[0] == "bad_tests":
            return Scored(None, f"unusable tests: {failure[2]}", details)
        fraction = passed / total if total else 0.0
        if failure is None and passed == total:
            return Scored(1.0, f"passed {passed} of {total} tests", details)
        score = fraction if self.mode == "fraction" else 0.0
        kind, index, detail = failure if failure is not None else ("wrong_answer", passed, "")
        where = f"test {index + 1} of {total}" if index >= 0 else "before the tests"
        return Scored(score, f"{kind}: {where}" + (f" ({detail})" if detail else "") + f"; passed {passed} of {total}",
                      details)
