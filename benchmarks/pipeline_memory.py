"""Memory and speed of ``polyreward score`` on a large file, with and without a combiner.

Generates a rollout file (default 1,000,000 rows, 8 rollouts per prompt, an int column ``k`` and a nested
column) in a temporary folder, then scores it twice through the real CLI (a subprocess each): with the config's
``combiner: gdpo`` (batch-normalised: the second pass over the finished parts) and without. While each run goes,
the resident memory of the CLI process and all its children is summed every 50 ms from /proc (Linux); the peak
is reported. The two configurations run in alternating rounds (``--rounds``, default 3) and rollouts per
second are compared as the ratio of their median rounds in the same run. The ratio is taken on CPU time (user +
system of the CLI and its children, from ``getrusage``): on a shared machine single rounds differ by 2x and more
in wall time while CPU time holds within a few percent; wall-clock rollouts/s are reported beside it. Finally every output row is checked against its input row: each value and its
type unchanged (ints stay ints, strings stay strings, nested values stay nested), and a float advantage on
every row of the combined run.

Targets: peak RSS < 1 GB with the combiner; rollouts/s with the combiner / without >= 0.95 (the second pass is
cheap next to scoring); every input value unchanged.

Usage: ``python benchmarks/pipeline_memory.py [--rows N] [--out benchmarks/results/pipeline_memory.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

CONFIG = """
columns: {prompt: prompt, completion: completion, group: qid}
rewards:
  - {name: format, type: think_format}
  - {name: jaccard, type: jaccard, answer_column: gold, weight: 0.5}
"""
GROUP = 8


def write_rollouts(path: Path, rows: int) -> None:
    answers = ["pneumonia", "effusion", "pneumonia; effusion", "cardiomegaly", "no finding"]
    with open(path, "w", encoding="utf-8") as out:
        for i in range(rows):
            gold = answers[(i // GROUP) % 5]
            said = answers[(i * 7 + 3) % 5]
            completion = f"<think>reading the film {i % 13}</think>\n<answer>{said}</answer>" if i % 4 else f"<answer>{said}</answer>"
            out.write(json.dumps({"qid": i // GROUP, "prompt": f"Findings of study {i // GROUP}?", "completion": completion,
                                  "gold": gold, "k": i, "meta": {"site": i % 3, "tags": ["cxr", str(i % 2)]}}) + "\n")


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every descendant (from /proc/<pid>/stat and statm)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, todo, page = 0, [root], os.sysconf("SC_PAGE_SIZE")
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm") as handle:
                total += int(handle.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            pass
        todo.extend(children.get(pid, []))
    return total


def score(src: Path, cfg: Path, out: Path) -> dict:
    command = [sys.executable, "-m", "polyreward", "score", str(src), "-c", str(cfg), "-o", str(out), "--quiet", "--workers", "0"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            stop.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = proc.communicate()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"polyreward score failed ({proc.returncode}):\n{stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": peak / 2**20}


def check_output(src: Path, out: Path, with_advantage: bool) -> dict:
    """Every input value unchanged (types included); an advantage on every row when a combiner ran."""
    changed, rows = 0, 0
    with open(src, encoding="utf-8") as a, open(out, encoding="utf-8") as b:
        for line_in, line_out in zip(a, b):
            source, written = json.loads(line_in), json.loads(line_out)
            rows += 1
            same = all(type(written[k]) is type(v) and written[k] == v for k, v in source.items())
            changed += not same or (with_advantage and not isinstance(written.get("advantage"), float))
    return {"rows_checked": rows, "rows_changed": changed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of both configurations")
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        src = folder / "rollouts.jsonl"
        t0 = time.perf_counter()
        write_rollouts(src, args.rows)
        print(f"wrote {args.rows} rows ({src.stat().st_size / 2**20:.0f} MB) in {time.perf_counter() - t0:.0f} s", flush=True)
        plain, combined = folder / "plain.yaml", folder / "combined.yaml"
        plain.write_text(CONFIG)
        combined.write_text(CONFIG + "combiner: {type: gdpo}\n")
        rounds: dict[str, list[dict]] = {"without_combiner": [], "with_combiner": []}
        for index in range(args.rounds):
            order = [("without_combiner", plain), ("with_combiner", combined)]
            for name, cfg in order if index % 2 == 0 else order[::-1]:
                out = folder / f"{name}.jsonl"
                run = score(src, cfg, out)
                run["rollouts_per_s"] = args.rows / run["seconds"]
                run["rollouts_per_cpu_s"] = args.rows / run["cpu_seconds"]
                if index == 0:
                    run.update(check_output(src, out, name == "with_combiner"))
                print(name, json.dumps(run), flush=True)
                rounds[name].append(run)
                out.unlink()
        runs = {name: {"median_rollouts_per_s": statistics.median(r["rollouts_per_s"] for r in results),
                       "median_rollouts_per_cpu_s": statistics.median(r["rollouts_per_cpu_s"] for r in results),
                       "peak_rss_mb": max(r["peak_rss_mb"] for r in results), "rounds": results,
                       **{k: results[0][k] for k in ("rows_checked", "rows_changed")}}
                for name, results in rounds.items()}
    result = {
        "benchmark": "pipeline_memory", "rows": args.rows, "group_size": GROUP,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared with other jobs), Python {platform.python_version()}",
        **runs,
        "speed_ratio_with_over_without": runs["with_combiner"]["median_rollouts_per_cpu_s"] / runs["without_combiner"]["median_rollouts_per_cpu_s"],
        "wall_speed_ratio_with_over_without": runs["with_combiner"]["median_rollouts_per_s"] / runs["without_combiner"]["median_rollouts_per_s"],
        "peak_rss_under_1gb": runs["with_combiner"]["peak_rss_mb"] < 1024,
        "types_preserved": runs["with_combiner"]["rows_changed"] == 0 and runs["without_combiner"]["rows_changed"] == 0,
    }
    print(json.dumps(result, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
