"""Numeric ``math_accuracy`` per row in process on rows whose answer sentence never repeats (issue #35).

``benchmarks/scoring_floor.py``'s math rows repeat their answer sentence across rows, so the reader's memories
(answer readings, clause readings) decide most rows without reading them. Here each row is a GSM-style worked
solution with its own numbers and wording ("Step 3: 17 apples plus 25 apples makes 42 apples, so the total is 42.
The answer is \\boxed{42}."), so every answer part is new to the reader: the cost of reading a new answer.

Each tree is measured in a fresh child process (``PYTHONPATH`` = that tree's ``src``), the trees alternating,
``--repeats`` times; a child builds the scorer, warms it on 200 rows of another seed, then times ``Scorer.score``
(CPU, ``time.process_time``) over ``--rows`` rows in chunks of 1,000; the least CPU per row of the repeats counts.
The verdicts of both trees must agree (the child prints a digest of its scores). ``--profile`` prints cProfile's
top functions for this tree instead. ``--instructions`` counts instead of timing: each tree's child runs under
valgrind's callgrind twice, on ``--rows`` rows and on 200, and the difference of the instructions it executed, per row,
is reported -- a figure the load of a shared machine does not move (``PYTHONHASHSEED=0``; about 50x slower)::

    python benchmarks/math_fresh_rows.py --rows 5000 --repeats 3 [--compare /tmp/main-src [--compare /tmp/old-src]] [--profile]
    python benchmarks/math_fresh_rows.py --rows 1200 --instructions [--compare /tmp/main-src]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = r"""
import hashlib, json, random, sys, time
sys.path.insert(0, sys.argv[1])
from math_fresh_rows import fresh_rows
import pathlib, tempfile
from polyreward.config import load_config
from polyreward.schema import Batch

config_path = pathlib.Path(tempfile.mkdtemp()) / "config.yaml"
config_path.write_text(CONFIG, encoding="utf-8")
config = load_config(str(config_path))
scorer = config.build_scorer(workers=0, on_reward_error="nan")
rows, profile = int(sys.argv[2]), sys.argv[3] == "1"
def score(records):
    batch = Batch.from_records(records, config.column_map, require=scorer.rewards.columns)
    return scorer.score(batch, combine=False)
score(fresh_rows(200, seed=999))
records = fresh_rows(rows, seed=1)
chunks = [records[i:i + 1000] for i in range(0, rows, 1000)]
if profile:
    import cProfile, pstats
    profiler = cProfile.Profile()
    profiler.enable()
started, digest, scores = time.process_time(), hashlib.sha256(), []
for chunk in chunks:
    result = score(chunk)
    scores.append(result)
spent = time.process_time() - started
if profile:
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(35)
for result in scores:
    digest.update(repr((result.scores.tolist(), result.reasons)).encode())
print(json.dumps({"us_per_row": spent / rows * 1e6, "digest": digest.hexdigest()[:16]}))
"""
CONFIG = ("columns: {prompt: prompt, completion: completion, group: qid}\n"
          "rewards:\n  - {name: accuracy, type: math_accuracy, answer_column: answer}\n")
NOUNS = ["apples", "marbles", "pencils", "tickets", "cookies", "stickers", "books", "coins", "eggs", "cards"]
NAMES = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jia"]
CLOSINGS = ["So the total is {s}. The answer is \\boxed{{{s}}}.", "Therefore, {n} has {s} {o} in all.\n#### {s}",
            "Adding them up gives {s}, so the final answer is \\boxed{{{s}}}.", "{n} ends with {s} {o}.\n\nAnswer: {s}",
            "Thus there are {s} {o} after step {k}. Final answer: $\\boxed{{{s}}}$"]


def fresh_rows(count: int, seed: int) -> list[dict]:
    """GSM-style rows, each with its own numbers, name, object and step count: no answer sentence repeats."""
    import random
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        a, b, c = rng.randint(2, 999), rng.randint(2, 999), rng.randint(2, 99)
        total = a + b - c
        said = total if rng.random() >= 0.2 else total + rng.choice([-10, -1, 1, 7])
        n, o, k = rng.choice(NAMES), rng.choice(NOUNS), rng.randint(2, 9)
        steps = (f"{n} starts with {a} {o}. Step {k - 1}: a friend gives {b} more, so {a} + {b} = {a + b}. "
                 f"Step {k}: {n} gives away {c}, leaving {a + b} - {c} = {said}.")
        think = f"<think>Row {i}: {a} plus {b} minus {c}, let me check it twice.</think>\n" if i % 4 else ""
        closing = rng.choice(CLOSINGS).format(s=said, n=n, o=o, k=k)
        rows.append({"qid": i // 8, "prompt": f"{n} has {a} {o}, gets {b} and gives away {c}. How many now?",
                     "completion": f"{think}{steps} {closing}", "answer": str(total)})
    return rows


def run_child(src: str, rows: int, profile: bool) -> dict | str:
    env = {**os.environ, "PYTHONPATH": src}
    code = f"CONFIG = {CONFIG!r}\n" + CHILD
    done = subprocess.run(["nice", "-n", "15", sys.executable, "-c", code, str(HERE), str(rows), "1" if profile else "0"],
                          env=env, capture_output=True, text=True, check=True)
    if profile:
        return done.stdout
    return json.loads(done.stdout.strip().splitlines()[-1])


def instructions(src: str, rows: int) -> tuple[float, str]:
    """(instructions per row, score digest) of ``src``'s child: callgrind's count on ``rows`` rows less its count on 200,
    divided by the rows between (the start-up, imports and warm-up cancel out)."""
    counts, digest = {}, ""
    for count in (200, rows):
        env = {**os.environ, "PYTHONPATH": src, "PYTHONHASHSEED": "0"}
        code = f"CONFIG = {CONFIG!r}\n" + CHILD
        done = subprocess.run(["nice", "-n", "15", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                               code, str(HERE), str(count), "0"], env=env, capture_output=True, text=True, check=True)
        counts[count] = int(next(line for line in done.stderr.splitlines() if "Collected" in line).split()[-1])
        digest = json.loads(done.stdout.strip().splitlines()[-1])["digest"] if count == rows else digest
    return (counts[rows] - counts[200]) / (rows - 200), digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compare", action="append", default=[], metavar="SRC",
                        help="another source tree (before), alternating; may be given more than once")
    parser.add_argument("--profile", action="store_true", help="cProfile this tree's run instead of timing")
    parser.add_argument("--instructions", action="store_true", help="count instructions per row under callgrind instead of timing")
    args = parser.parse_args(argv)
    this_src = str(HERE.parent / "src")
    if args.profile:
        print(run_child(this_src, args.rows, True))
        return 0
    trees = {"this tree": this_src} | {"compare" + ("" if at == 0 else f" {at + 1}"): src for at, src in enumerate(args.compare)}
    if args.instructions:
        counted = {tree: instructions(src, args.rows) for tree, src in trees.items()}
        print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {args.rows} fresh rows less 200, callgrind:")
        for tree, (per_row, digest) in counted.items():
            print(f"  {tree}: {per_row:,.0f} instructions/row (score digest {digest})")
        for tree in list(counted)[1:]:
            print(f"  ratio this / {tree}: {counted['this tree'][0] / counted[tree][0]:.3f}; "
                  f"same scores: {counted['this tree'][1] == counted[tree][1]}")
        return 0
    best: dict[str, float] = {}
    digests: dict[str, set] = {}
    for repeat in range(args.repeats):
        for tree in trees if repeat % 2 == 0 else list(trees)[::-1]:
            run = run_child(trees[tree], args.rows, False)
            best[tree] = min(best.get(tree, float("inf")), run["us_per_row"])
            digests.setdefault(tree, set()).add(run["digest"])
            print(f"{tree}: {run['us_per_row']:.1f} µs/row", file=sys.stderr, flush=True)
    load = os.getloadavg()[0]
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load {load:.1f}, {args.rows} fresh rows, "
          f"least of {args.repeats}:")
    for tree, value in best.items():
        print(f"  {tree}: {value:.1f} µs/row (score digests {sorted(digests[tree])})")
    for tree in list(trees)[1:]:
        print(f"  ratio this / {tree}: {best['this tree'] / best[tree]:.2f}; same scores: "
              f"{digests['this tree'] == digests[tree]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
