"""Throughput of the ``code_execution`` reward against a plain subprocess loop and verl's ``prime_code``, in one run.

The workload: ``--programs`` completions of an APPS-shaped stdin/stdout task (sum of two integers; a correct, a wrong
and a crashing program in turn), ``--cases`` cases each. Measured, each on the same programs and cases:

* ``code_execution`` (the reward as a config builds it, every run a fresh sandbox: namespaces, jail, own uid, limits),
  with ``--concurrency`` runs at once;
* a plain subprocess loop: ``python -I -S -c program`` with the case's input, one after another, no isolation, the
  floor any process-per-case runner pays;
* verl's ``prime_code.compute_score(completion, tests, continuous=True)`` (verl 0.9.1; runs the program in a
  multiprocessing child of the scorer, no isolation), one after another, when verl is installed.

Scores are checked to agree (the plain loop with the same comparison as the reward). Results: test cases per second
and the ratio to the plain loop; written to benchmarks/results/code_execution.md.

Usage: ``python benchmarks/code_execution.py [--programs 24] [--cases 4] [--concurrency 2]``
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine_info import describe_machine  # noqa: E402

from polyreward.rewards.code_execution import CodeExecution  # noqa: E402
from polyreward.verifiers.code_tests import compare_output  # noqa: E402

PROGRAMS = ["a, b = map(int, input().split())\nprint(a + b)",
            "a, b = map(int, input().split())\nprint(a * b)",
            "a, b = map(int, input().split())\nprint(a // (b - b))"]


def workload(programs: int, cases: int) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    pairs = [(f"{i} {i + 3}\n", f"{2 * i + 3}\n") for i in range(1, cases + 1)]
    sources = [PROGRAMS[i % len(PROGRAMS)] for i in range(programs)]
    completions = [f"```python\n{source}\n```" for source in sources]
    return sources, completions, pairs


def plain_loop(sources: list[str], pairs: list[tuple[str, str]]) -> list[float]:
    scores = []
    for source in sources:
        passed = 0
        for given, expected in pairs:
            run = subprocess.run([sys.executable, "-I", "-S", "-c", source], input=given.encode(), capture_output=True,
                                 timeout=10)
            passed += run.returncode == 0 and compare_output(run.stdout.decode(), expected)[0]
        scores.append(passed / len(pairs))
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=24)
    parser.add_argument("--cases", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    sources, completions, pairs = workload(args.programs, args.cases)
    tests = json.dumps({"inputs": [p[0] for p in pairs], "outputs": [p[1] for p in pairs]})
    runs = args.programs * args.cases
    rows = []

    reward = CodeExecution(timeout=2, concurrency=args.concurrency)
    reward.evaluate([None], completions[:1], tests=[tests])  # warm the file cache once
    started = time.perf_counter()
    ours = reward.evaluate([None] * len(completions), completions, tests=[tests] * len(completions)).scores
    ours_s = time.perf_counter() - started

    started = time.perf_counter()
    plain = plain_loop(sources, pairs)
    plain_s = time.perf_counter() - started
    assert ours == plain, (ours, plain)
    rows.append(("plain subprocess loop (no isolation), sequential", plain_s, 1.0))
    rows.append((f"code_execution, sandboxed, concurrency {args.concurrency}", ours_s, plain_s / ours_s))

    try:
        from verl.utils.reward_score import prime_code
    except ImportError:
        prime_code = None
    if prime_code is not None:
        started = time.perf_counter()
        theirs = [float(prime_code.compute_score(c, tests, continuous=True)[0]) for c in completions]
        verl_s = time.perf_counter() - started
        assert [round(s, 6) for s in theirs] == [round(s, 6) for s in ours], (theirs, ours)
        rows.append(("verl prime_code.compute_score (no isolation), sequential", verl_s, plain_s / verl_s))

    lines = [f"# code_execution throughput ({datetime.date.today().isoformat()}, {describe_machine()})", "",
             f"{args.programs} programs x {args.cases} stdin/stdout cases = {runs} runs; scores agree across runners.", "",
             "| runner | wall s | test cases / s | speed vs the plain loop |", "|---|---|---|---|"]
    for name, seconds, ratio in rows:
        lines.append(f"| {name} | {seconds:.2f} | {runs / seconds:.1f} | {ratio:.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    out = Path(__file__).resolve().parent / "results" / "code_execution.md"
    out.write_text(text)


if __name__ == "__main__":
    main()
