"""Cost of ``polyreward score`` per row against the floor of reading and writing the same rows, start-up, peak RSS.

In one run, each figure the CPU time (user + system) of a fresh child process and its waited-for children, from
``resource.getrusage(RUSAGE_CHILDREN)``; the machine may be shared, so CPU time, not wall time, and ratios taken in
the same run:

* **floor**: a child that reads the JSONL rows (``orjson.loads`` per line; stdlib ``json`` beside it) and writes each
  row back with one added float column, minus the CPU of an empty interpreter: what any scorer must at least pay
  (the orjson floor is run beside each repeat of the scoring runs of its size, the least counted: the machine's load
  a minute apart differs);
* **score**: ``polyreward score IN -c CFG -o OUT -q`` for a cheap reward (``think_format``) and for numeric
  ``math_accuracy`` (integers, decimals, fractions, a few wrong), at each ``--rows`` size; per row = (CPU of the
  run - CPU of the same command on a one-row file) / (rows - 1), so start-up is not spread over the rows;
* **start-up**: the CPU of the one-row run (the least of ``--repeats`` runs), against the empty interpreter;
* **peak RSS**: resident memory of the CLI process and all its children, summed from /proc every 20 ms;
* **stages**: in one process, the CPU per row of each stage of the cheap path (read and parse, chunk key, the reward
  through ``Scorer.score``, the whole chunk scorer with the encoding of its output rows), on the largest size up to
  100,000, with the allocator set as the tree's ``polyreward score`` sets it (:mod:`polyreward.runners.allocator`).

Each child runs with byte-code caching on (its own ``PYTHONPYCACHEPREFIX``, warmed by one untimed run), as an
installed package is. ``--compare SRC`` runs every command also with another source tree first on PYTHONPATH (e.g.
an export of main before a change), alternating the two, so before/after ratios come from the same run. Results go
to ``benchmarks/results/scoring_floor.md``::

    python benchmarks/scoring_floor.py --rows 10000 100000 1000000 --math-max-rows 100000 [--compare /tmp/main-src]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from machine_info import describe_machine  # noqa: E402
from pipeline_memory import _tree_rss  # noqa: E402

GROUP = 8
CONFIGS = {
    "think_format": "columns: {prompt: prompt, completion: completion, group: qid}\n"
                    "rewards:\n  - {name: format, type: think_format}\n",
    "math_accuracy (numeric)": "columns: {prompt: prompt, completion: completion, group: qid}\n"
                               "rewards:\n  - {name: accuracy, type: math_accuracy, answer_column: answer}\n",
}
FLOOR = """
import sys
{codec}
with open(sys.argv[1], "rb") as source, open(sys.argv[2], "wb") as out:
    for line in source:
        row = loads(line)
        row["reward"] = 1.0
        out.write(dumps(row) + b"\\n")
"""
STAGES = """
import json, sys, time
from polyreward.config import load_config
from polyreward.io import encode_rows, iter_chunks
from polyreward.runners.parts import chunk_key
from polyreward.runners.score_file import ChunkScorer, settings_fingerprint
from polyreward.schema import Batch

try:  # a tree that keys a JSONL chunk by its lines as read
    from polyreward.io import iter_chunks_with_lines
except ImportError:  # an older tree: rows only, keyed as JSON text
    iter_chunks_with_lines = None

try:  # the allocator setting the tree's `polyreward score` makes (a tree without one: as its command line runs)
    from polyreward.runners.allocator import SCORE_MMAP_BYTES, SCORE_TRIM_BYTES, keep_freed_memory
    keep_freed_memory(SCORE_MMAP_BYTES, SCORE_TRIM_BYTES)
except ImportError:
    pass
config = load_config(sys.argv[2])
scorer = config.build_scorer(workers=0, on_reward_error="nan")
settings, chunk_scorer, spent, rows = settings_fingerprint(config, "nan"), ChunkScorer(scorer), {}, 0


def timed(stage, work):
    started = time.process_time()
    result = work()
    spent[stage] = spent.get(stage, 0.0) + time.process_time() - started
    return result


if iter_chunks_with_lines is not None:
    chunks = iter(iter_chunks_with_lines(sys.argv[1], 1000))
else:
    chunks = ((records, None) for records in iter_chunks(sys.argv[1], 1000))
while (chunk := timed("read and parse", lambda: next(chunks, None))) is not None:
    records, lines = chunk
    rows += len(records)
    timed("chunk key", lambda: chunk_key(settings, records, lines) if lines is not None else chunk_key(settings, records))
    batch = Batch.from_records(records, config.column_map, require=scorer.rewards.columns)
    timed("reward (Scorer.score)", lambda: scorer.score(batch, combine=False))
    part = timed("chunk scorer and output encoding (Batch, reward, output rows, JSONL bytes)", lambda: chunk_scorer(records))
    if not hasattr(part, "data"):  # an older tree's chunk scorer returns the rows; the part store encoded them
        timed("chunk scorer and output encoding (Batch, reward, output rows, JSONL bytes)", lambda: encode_rows(part.rows, "jsonl"))
print(json.dumps({stage: seconds / rows for stage, seconds in spent.items()}))
"""
CODECS = {
    "orjson": "import orjson\nloads, dumps = orjson.loads, orjson.dumps",
    "json (stdlib)": "import json\nloads = json.loads\ndef dumps(row): return json.dumps(row, ensure_ascii=False).encode()",
}


def write_rows(path: Path, rows: int) -> None:
    """Rollouts with a think block (most rows) and a numeric final answer: int, decimal or fraction, 1 in 5 wrong."""
    with open(path, "w", encoding="utf-8") as out:
        for i in range(rows):
            a, b = i % 97, i % 13 + 1
            gold, said = [(str(a + b), str(a + b)), (f"{a / 4}", f"\\frac{{{a}}}{{4}}"), (f"\\frac{{{a}}}{{{b}}}", f"{a}/{b}")][i % 3]
            if i % 5 == 4:
                said = str(a + b + 1)
            think = f"<think>add {a} and {b} step by step, then check the sum</think>" if i % 4 else ""
            out.write(json.dumps({"qid": i // GROUP, "prompt": f"Question {i // GROUP}: combine {a} and {b}.",
                                  "completion": f"{think}\nThe answer is \\boxed{{{said}}}", "answer": gold}) + "\n")


def child(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """CPU seconds of ``command`` and its waited-for children, and the peak RSS (MB) of its process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak, stop = 0, threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            stop.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = proc.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}):\n{stderr.decode(errors='replace')[-2000:]}")
    return {"cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), "rss_mb": peak / 2**20}


def environment(src: str, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = src
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each one-row (start-up) measurement")
    parser.add_argument("--math-max-rows", type=int, default=100_000, help="score math_accuracy only at sizes up to this")
    parser.add_argument("--compare", default=None, metavar="SRC", help="another source tree to measure alike (before)")
    parser.add_argument("--out", default=str(HERE / "results" / "scoring_floor.md"))
    args = parser.parse_args(argv)
    this_src = str(HERE.parent / "src")
    trees = {"this tree": this_src} | ({"compare": args.compare} if args.compare else {})
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        envs = {name: environment(src, folder / f"pycache-{i}") for i, (name, src) in enumerate(trees.items())}
        inputs = {1: folder / "rows-1.jsonl"}
        write_rows(inputs[1], 1)
        for rows in args.rows:
            inputs[rows] = folder / f"rows-{rows}.jsonl"
            write_rows(inputs[rows], rows)
        configs = {}
        for index, (name, text) in enumerate(CONFIGS.items()):
            configs[name] = folder / f"config-{index}.yaml"
            configs[name].write_text(text, encoding="utf-8")

        def score(tree: str, reward: str, rows: int) -> dict[str, float]:
            out = folder / f"out-{rows}.jsonl"
            return child([sys.executable, "-m", "polyreward", "score", str(inputs[rows]), "-c", str(configs[reward]),
                          "-o", str(out), "-q"], envs[tree])

        for tree in trees:  # compile and cache the byte code of each tree (an installed package has it)
            for reward in CONFIGS:
                score(tree, reward, 1)
        base = min(child([sys.executable, "-c", "pass"], envs["this tree"])["cpu"] for _ in range(args.repeats))
        floors = {}
        for codec, code in CODECS.items():
            floors[codec] = folder / f"floor-{len(floors)}.py"
            floors[codec].write_text(FLOOR.format(codec=code), encoding="utf-8")

        def floor(codec: str, rows: int) -> None:  # the least CPU per row of the runs so far
            cpu = child([sys.executable, str(floors[codec]), str(inputs[rows]), str(folder / "floor-out.jsonl")], envs["this tree"])["cpu"]
            known = results.setdefault("floor", {}).setdefault(codec, {})
            known[rows] = min(known.get(rows, float("inf")), (cpu - base) / rows)

        for rows in args.rows:
            for _ in range(args.repeats):
                floor("json (stdlib)", rows)
        for repeat in range(args.repeats):
            order = list(trees) if repeat % 2 == 0 else list(trees)[::-1]
            for tree in order:
                for reward in CONFIGS:
                    results.setdefault(tree, {}).setdefault(reward, {}).setdefault("start", []).append(score(tree, reward, 1))
        stage_rows = max((r for r in args.rows if r <= 100_000), default=min(args.rows))
        (folder / "stages.py").write_text(STAGES, encoding="utf-8")
        for tree in trees:  # in process, one tree at a time: where the CPU of a cheap row goes
            done = subprocess.run([sys.executable, str(folder / "stages.py"), str(inputs[stage_rows]),
                                   str(configs["think_format"])], env=envs[tree], capture_output=True, text=True, check=True)
            results.setdefault("stages", {})[tree] = json.loads(done.stdout.strip().splitlines()[-1])
        results["stage_rows"] = stage_rows
        for rows in args.rows:  # --repeats runs of each, the trees alternating; the least CPU counts (a neighbour only adds)
            for repeat in range(args.repeats):
                floor("orjson", rows)  # beside the runs it anchors: the load a minute apart differs
                for tree in trees if repeat % 2 == 0 else list(trees)[::-1]:
                    for reward in measured(rows, args):
                        run = score(tree, reward, rows)
                        best = results[tree][reward].get(rows)
                        results[tree][reward][rows] = run if best is None or run["cpu"] < best["cpu"] else {
                            **best, "rss_mb": max(best["rss_mb"], run["rss_mb"])}
            print(f"{rows} rows done", file=sys.stderr, flush=True)
    lines = report(results, trees, args, base)
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


def measured(rows: int, args: argparse.Namespace) -> list[str]:
    """The rewards scored at ``rows`` (numeric math only up to ``--math-max-rows``: it costs 100x the cheap reward)."""
    return [r for r in CONFIGS if not r.startswith("math") or rows <= args.math_max_rows]


def report(results: dict, trees: dict[str, str], args: argparse.Namespace, base: float) -> list[str]:
    load = os.getloadavg()[0]
    floor = results["floor"]["orjson"]
    command = (f"python benchmarks/scoring_floor.py --rows {' '.join(map(str, args.rows))} --math-max-rows "
               f"{args.math_max_rows} --repeats {args.repeats}")
    lines = [
        "# `polyreward score` against the read+write floor",
        "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC · {describe_machine()} · load average "
        f"{load:.1f} at the end (machine shared: CPU time, not wall) · `{command}"
        + (" --compare SRC`" if args.compare else "`"),
        "",
        "Floor: read each JSONL row and write it back with one float column, CPU per row (least of the repeats, the orjson "
        f"floor run beside each repeat of the scoring runs of the same size; empty interpreter {base * 1000:.0f} ms subtracted).",
        "",
        "| rows | orjson floor (µs/row) | stdlib json floor (µs/row) |",
        "|---:|---:|---:|",
    ]
    for rows in args.rows:
        lines.append(f"| {rows:,} | {floor[rows] * 1e6:.2f} | {results['floor']['json (stdlib)'][rows] * 1e6:.2f} |")
    lines += ["", "Per row: (CPU of the run - CPU of the one-row run) / (rows - 1). Start-up: CPU of the one-row run, "
              f"the least of {args.repeats}; each larger run also the least CPU of {args.repeats} (the machine is shared: "
              "contention only adds CPU). Peak RSS: the CLI and its children, the largest of the runs.", ""]
    header = "| tree | reward | rows | CPU (s) | µs/row | × orjson floor | peak RSS (MB) |"
    lines += [header, "|---|---|---:|---:|---:|---:|---:|"]
    for tree in trees:
        for reward in CONFIGS:
            start = results[tree][reward]["start"]
            one = min(run["cpu"] for run in start)
            lines.append(f"| {tree} | {reward} | 1 (start-up) | {one:.3f} | — | — | {max(r['rss_mb'] for r in start):.0f} |")
            for rows in args.rows:
                if reward not in measured(rows, args):
                    continue
                run = results[tree][reward][rows]
                per_row = (run["cpu"] - one) / (rows - 1)
                lines.append(f"| {tree} | {reward} | {rows:,} | {run['cpu']:.2f} | {per_row * 1e6:.1f} | "
                             f"{per_row / floor[rows]:.1f} | {run['rss_mb']:.0f} |")
    stages = results["stages"]
    lines += ["", f"Stages of the `think_format` path, in process, {results['stage_rows']:,} rows (process CPU µs/row; the "
              "whole chunk includes the reward):", "", "| stage | " + " | ".join(trees) + " |", "|---|" + "---:|" * len(trees)]
    for stage in stages["this tree"]:
        lines.append(f"| {stage} | " + " | ".join(f"{stages[tree][stage] * 1e6:.2f}" for tree in trees) + " |")
    if args.compare:
        lines += ["", f"`compare` is the source tree `{args.compare}` (the code before the change); ratios this tree / compare:", "",
                  "| reward | start-up CPU | " + " | ".join(f"µs/row at {rows:,}" for rows in args.rows) + " |",
                  "|---|---:|" + "---:|" * len(args.rows)]
        for reward in CONFIGS:
            cells = []
            ones = {t: min(r["cpu"] for r in results[t][reward]["start"]) for t in trees}
            cells.append(f"{ones['this tree'] / ones['compare']:.2f}")
            for rows in args.rows:
                if reward not in measured(rows, args):
                    cells.append("—")
                    continue
                per = {t: (results[t][reward][rows]["cpu"] - ones[t]) / (rows - 1) for t in trees}
                cells.append(f"{per['this tree'] / per['compare']:.2f}")
            lines.append(f"| {reward} | " + " | ".join(cells) + " |")
    return lines


if __name__ == "__main__":
    sys.exit(main())
