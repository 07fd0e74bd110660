"""Math scoring benchmark: throughput and label agreement of ``math_accuracy`` vs TRL and plain Math-Verify.

    python benchmarks/math_scoring.py [--prompts 250] [--group 8] [--chunk 256] [--seed 0]

1. Builds a labelled rollout file (``$TMPDIR/polyreward_math_rollouts.jsonl``; rebuilt each run):
   reasoning-gym problems (gsm_symbolic, basic_arithmetic, fraction_simplification,
   decimal_arithmetic, polynomial_multiplication), ``--group`` completions per prompt in mixed answer
   styles with answers repeated inside groups (``examples/rollout_styles.py``). The label says
   whether a completion's final answer equals the gold answer, known by construction.
2. Scores it, in chunks of ``--chunk`` rollouts (an RL step's batch), with
   * ``math_accuracy`` (polyreward; 2 worker processes, pool started before timing as in training),
   * the same checks with the no-sympy fast paths switched off, so every pair goes through the pool
     (what a workload of purely symbolic answers would see),
   * TRL's ``trl.rewards.accuracy_reward`` (the reward GRPO recipes use),
   * a plain Math-Verify loop: ``verify(parse(gold), parse(completion))``.
   Each method runs in a fresh Python process so no parse cache is shared between them.
3. Prints a markdown table (rollouts/s, agreement with the labels, speed-up over TRL) and writes it
   to ``benchmarks/results/math_scoring.md`` with date and machine.

Targets (issue 2): >= 99 % label agreement and >= 5x TRL's throughput on a 2-core machine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
METHODS = ("polyreward", "polyreward_pool_only", "trl", "math_verify")
LABELS = {
    "polyreward": "polyreward `math_accuracy` (2 workers)",
    "polyreward_pool_only": "same, fast paths off (every pair through the 2-worker pool)",
    "trl": "TRL `accuracy_reward`",
    "math_verify": "plain Math-Verify parse+verify loop",
}


def build(path: Path, prompts: int, group: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    from rollout_styles import group_rollouts, load_problems

    rng = random.Random(seed)
    rows = []
    for i, problem in enumerate(load_problems(prompts, seed)):
        rows.extend(group_rollouts(problem, f"p{i:04d}", group, rng))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def _chunks(rows: list[dict], size: int):
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def run_method(method: str, data: Path, chunk: int) -> dict:
    """Score ``data`` with one method in this process; returns timing and scores."""
    rows = [json.loads(line) for line in open(data, encoding="utf-8")]
    if method == "polyreward":
        from polyreward.engine import WorkerPool
        from polyreward.rewards.math_accuracy import MathAccuracy

        pool = WorkerPool(workers=2, timeout=5.0)
        reward = MathAccuracy(pool=pool)
        reward(completions=["\\boxed{x^2}", "#### 1"], answer=["x^2", "1"])  # start the workers (a trainer keeps them)

        rules: dict[str, int] = {}

        def score(batch):
            output = reward.evaluate([None] * len(batch), [r["completion"] for r in batch], answer=[r["answer"] for r in batch])
            for reason in output.reasons:  # "equal [numeric]: ..." -> which path decided
                rule = reason.split("[", 1)[1].split("]", 1)[0] if "[" in reason.split(":", 1)[0] else reason.split(":", 1)[0]
                rules[rule] = rules.get(rule, 0) + 1
            return output.scores
    elif method == "polyreward_pool_only":
        from polyreward.engine import WorkerPool
        from polyreward.verifiers.math import verify_batch

        pool = WorkerPool(workers=2, timeout=5.0)
        verify_batch(["\\boxed{x^2}", "#### 1"], ["x^2", "1"], pool=pool, fast_paths=False)

        def score(batch):
            verdicts = verify_batch([r["completion"] for r in batch], [r["answer"] for r in batch], pool=pool, fast_paths=False)
            return [v.score for v in verdicts]
    elif method == "trl":
        import logging

        from trl.rewards import accuracy_reward

        logging.getLogger("math_verify").setLevel(logging.CRITICAL)

        def score(batch):
            return accuracy_reward([[{"role": "assistant", "content": r["completion"]}] for r in batch], [r["answer"] for r in batch])
    elif method == "math_verify":
        import logging

        from math_verify import parse, verify

        logging.getLogger("math_verify").setLevel(logging.CRITICAL)

        def score(batch):
            return [float(verify(parse(r["answer"]), parse(r["completion"]))) for r in batch]
    else:
        raise ValueError(method)
    scores: list = []
    start = time.perf_counter()
    for batch in _chunks(rows, chunk):
        scores.extend(score(batch))
    seconds = time.perf_counter() - start
    extra = {}
    if method.startswith("polyreward"):
        pool.close()
    if method == "polyreward":
        extra["rules"] = rules
    return {"method": method, "seconds": seconds, "scores": scores, **extra}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(next(line for line in open("/proc/meminfo") if line.startswith("MemTotal")).split()[1])
        memory = f", {kb / 1024 / 1024:.0f} GB"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{os.cpu_count()}-core {cpu}{memory}, no GPU, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prompts", type=int, default=250)
    parser.add_argument("--group", type=int, default=8)
    parser.add_argument("--chunk", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--run", choices=METHODS, help=argparse.SUPPRESS)  # internal: one method, JSON to stdout
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "polyreward_math_rollouts.jsonl")
    args = parser.parse_args()
    if args.run:
        print(json.dumps(run_method(args.run, args.data, args.chunk)))
        return 0

    env = {**os.environ, "PYTHONHASHSEED": "0"}  # reasoning-gym's polynomial generator iterates over sets
    subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); import math_scoring as m; "
                    f"m.build(m.Path({str(args.data)!r}), {args.prompts}, {args.group}, {args.seed})"], check=True, env=env)
    rows = [json.loads(line) for line in open(args.data, encoding="utf-8")]
    labels = [row["label"] for row in rows]
    print(f"{len(rows)} rollouts, {len({r['prompt_id'] for r in rows})} prompts, {sum(labels)} labelled correct")

    results = {}
    for method in METHODS:
        out = subprocess.run([sys.executable, __file__, "--run", method, "--data", str(args.data), "--chunk", str(args.chunk)],
                             check=True, capture_output=True, text=True, env=env)
        results[method] = json.loads(out.stdout.strip().splitlines()[-1])

    trl_rate = len(rows) / results["trl"]["seconds"]
    lines = [
        f"Math scoring benchmark, {datetime.date.today().isoformat()}, {machine()}.",
        f"{len(rows)} rollouts ({args.prompts} reasoning-gym prompts x {args.group} completions, mixed answer styles), "
        f"scored in chunks of {args.chunk}; each method in a fresh process.",
        "",
        "| method | seconds | rollouts/s | agreement with labels | not scored (None) | speed vs TRL |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for method in METHODS:
        scores = results[method]["scores"]
        agree = sum(1 for s, y in zip(scores, labels) if s is not None and (s == 1.0) == bool(y))
        skipped = sum(1 for s in scores if s is None)
        rate = len(rows) / results[method]["seconds"]
        lines.append(f"| {LABELS[method]} | {results[method]['seconds']:.2f} | {rate:,.0f} | {agree / len(rows):.2%} | {skipped} | {rate / trl_rate:.1f}x |")
    ours = results["polyreward"]["scores"]
    by_task: dict[str, list[int]] = {}
    for row, s in zip(rows, ours):
        by_task.setdefault(row["task"], []).append(int(s is not None and (s == 1.0) == bool(row["label"])))
    rules = results["polyreward"]["rules"]
    lines += ["", "`math_accuracy` decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(rules.items(), key=lambda kv: -kv[1]))
              + " (math_verify = sent to the worker pool; identical pairs inside a chunk run once)."]
    lines += ["", "`math_accuracy` agreement by task: " + ", ".join(f"{t} {sum(v) / len(v):.1%} (n={len(v)})" for t, v in sorted(by_task.items()))]
    misses = [(r, s) for r, s in zip(rows, ours) if not (s is not None and (s == 1.0) == bool(r["label"]))]
    for row, s in misses[:5]:
        lines.append(f"- miss: task={row['task']} style={row['style']} label={row['label']} score={s} answer={row['answer']!r} tail={row['completion'][-80:]!r}")
    table = "\n".join(lines)
    print(table)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "math_scoring.md").write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
