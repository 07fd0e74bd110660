"""``polyreward verify --gold X --pred Y [--type math|choice] [--json]``: check one answer.

Prints the verdict, the answers as extracted and compared, and the reason. Exit codes: 0 CORRECT, 1 WRONG,
2 a usage error, 3 NOT SCORED (the check does not apply: the gold is missing or cannot be read, or the check timed
out), so a script can tell a wrong answer from one that was not judged.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

CORRECT, WRONG, NOT_SCORED = 0, 1, 3  # exit codes (2 is argparse's usage error)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", required=True, help="the reference answer (trusted)")
    parser.add_argument("--pred", required=True, help="the model output: a whole completion or just the answer; '-' reads stdin")
    parser.add_argument("--type", choices=("math", "choice"), default="math", help="math equivalence or multiple choice (default: math)")
    parser.add_argument("--options", default=None, help="choice options: 'A. ...\\nB. ...' lines or a JSON object")
    parser.add_argument("--letters", default="ABCDE", help="choice letters (default: ABCDE)")
    parser.add_argument("--timeout", type=float, default=5.0, help="hard limit in seconds for the math check (default: 5)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    parser.epilog = "Exit status: 0 CORRECT, 1 WRONG, 3 NOT SCORED (the gold is missing or unreadable, or the check timed out), 2 a usage error."


def run(args: argparse.Namespace) -> int:
    pred = sys.stdin.read() if args.pred == "-" else args.pred
    if args.type == "choice":
        from polyreward.verifiers.choice import verify_choice

        verdict = verify_choice(pred=pred, ref=args.gold, letters=args.letters, options=args.options)
    else:
        from polyreward.engine import WorkerPool
        from polyreward.verifiers.math import verify

        with WorkerPool(workers=1, timeout=args.timeout) as pool:
            verdict = verify(pred=pred, ref=args.gold, pool=pool, timeout=args.timeout)
    fields = {
        "correct": verdict.ok,
        "score": verdict.score,
        "reason": verdict.reason,
        "rule": verdict.rule,
        "gold": verdict.gold,
        "pred": verdict.pred,
        "source": verdict.source,
    }
    from polyreward.verifiers.verdict import quoted

    scored = verdict.score is not None and not math.isnan(verdict.score)
    code = CORRECT if verdict.ok else WRONG if scored else NOT_SCORED
    if args.json:
        print(json.dumps(fields, ensure_ascii=False))
    else:
        print({CORRECT: "CORRECT", WRONG: "WRONG", NOT_SCORED: "NOT SCORED"}[code])
        print(f"  gold:   {quoted(verdict.gold)}")
        print(f"  pred:   {quoted(verdict.pred)}" + (f"  (found by: {verdict.source})" if verdict.source else ""))
        print(f"  reason: {verdict.reason}" + (f" [{verdict.rule}]" if verdict.rule else ""))
    return code
