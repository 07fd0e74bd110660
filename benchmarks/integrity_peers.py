"""The integrity rows of tests/test_integrity_math.py and tests/test_integrity_choice.py scored three ways.

    python benchmarks/integrity_peers.py            # markdown table on stdout
    python benchmarks/integrity_peers.py --json out.json

Columns: the row's class, completion and gold; polyreward (``math_accuracy`` / ``choice_accuracy`` with default
parameters, prompts passed); Math-Verify 0.9.0 as its README uses it (``verify(parse(gold), parse(completion))``);
TRL's ``trl.rewards.accuracy_reward`` (which calls Math-Verify with its own extraction settings). Each peer call
runs in a forked child with a hard 30 s timeout (an explosive answer can hang sympy), shown as ``timeout``. The table in
docs/rewards/math.md#integrity-rows-beside-math-verify-and-trl is this script's output.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import multiprocessing
import sys
from pathlib import Path

from polyreward.engine import WorkerPool
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0


def _rows(name: str) -> list[tuple]:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ROWS


def math_verify_score(gold: str, completion: str) -> float:
    from math_verify import parse, verify

    for logger in ("math_verify", "math_verify.parser", "math_verify.grader", "latex2sympy2_extended"):
        logging.getLogger(logger).setLevel(logging.CRITICAL)
    return float(verify(parse(gold, parsing_timeout=None), parse(completion, parsing_timeout=None), timeout_seconds=None))


def trl_score(gold: str, completion: str) -> float | None:
    from trl.rewards import accuracy_reward

    logging.getLogger("trl").setLevel(logging.CRITICAL)
    return accuracy_reward([[{"role": "assistant", "content": completion}]], [gold])[0]


def _peer(function, pairs: list[tuple[str, str]]) -> list:
    """``function(gold, completion)`` for each pair in a forked child with a hard timeout (fork: the child has this
    script's functions and the imports already made)."""
    context = multiprocessing.get_context("fork")
    results = []
    for pair in pairs:
        with context.Pool(1) as child:
            try:
                results.append(child.apply_async(function, pair).get(timeout=TIMEOUT))
            except multiprocessing.TimeoutError:
                results.append("timeout")
            except Exception as exc:  # a peer that raises on a row: shown, not fatal
                results.append(f"error: {type(exc).__name__}")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    math_rows, choice_rows = _rows("test_integrity_math"), _rows("test_integrity_choice")
    table = []
    import math_verify  # noqa: F401  (imported before the forks)
    import trl.rewards  # noqa: F401

    with WorkerPool(workers=1, timeout=30.0) as pool:
        ours = MathAccuracy(engine=pool).evaluate([r[1] for r in math_rows], [r[2] for r in math_rows], answer=[r[3] for r in math_rows]).scores
    pairs = [(r[3], r[2]) for r in math_rows]
    mv, trl = _peer(math_verify_score, pairs), _peer(trl_score, pairs)
    table += [("math", r[0], r[2], r[3], r[4], o, m, t) for r, o, m, t in zip(math_rows, ours, mv, trl)]
    ours = ChoiceAccuracy()(completions=[r[1] for r in choice_rows], answer=[r[2] for r in choice_rows])
    pairs = [(r[2], r[1]) for r in choice_rows]
    mv, trl = _peer(math_verify_score, pairs), _peer(trl_score, pairs)
    table += [("choice", r[0], r[1], r[2], r[3], o, m, t) for r, o, m, t in zip(choice_rows, ours, mv, trl)]
    if args.json:
        Path(args.json).write_text(json.dumps([dict(zip(("reward", "class", "completion", "gold", "expected", "polyreward",
                                                          "math_verify", "trl"), row)) for row in table], indent=1))

    def cell(value) -> str:
        return "–" if value is None else f"{value:g}" if isinstance(value, float) else str(value)

    def code(text: str) -> str:
        shown = "".join(c if c.isprintable() else "⏎" if c == "\n" else f"\\u{ord(c):04x}" for c in text)
        return "`" + shown.replace("|", "\\|").replace("`", "'") + "`"

    from importlib.metadata import version

    print(f"<!-- benchmarks/integrity_peers.py, math-verify {version('math-verify')}, trl {version('trl')} -->")
    print("| reward | class | completion | gold | polyreward | Math-Verify | TRL |")
    print("|---|---|---|---|---|---|---|")
    for reward, kind, completion, gold, _, ours_, mv_, trl_ in table:
        print(f"| {reward} | {kind} | {code(completion)} | {code(gold)} | {cell(ours_)} | {cell(mv_)} | {cell(trl_)} |")
    hacks = [row for row in table if row[4] == 0.0]
    for column, name in ((5, "polyreward"), (6, "Math-Verify"), (7, "TRL")):
        paid = sum(1 for row in hacks if row[column] == 1.0)
        print(f"\n{name}: {paid} of {len(hacks)} rows that should score 0 score 1", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
