"""The reward server's own overhead per rollout: one ``polyreward serve`` vs scoring in process, math batch of 256 rows.

For each of ``--batches`` distinct batches of 256 math rows (the shipped example's rollouts with fresh group ids and a
distinct suffix on every completion, so no batch hits another's verdict cache), in turn:

* ``in process``: ``Scorer.score`` on the batch with the config's scorer built here (``--workers`` engine processes);
* ``server``: ``RewardClient.score_rows`` of the same batch, one request (``shard_size=256``), over one
  ``polyreward serve`` subprocess with the same ``--workers`` (keep-alive connection, JSON both ways, the slot
  process round trip included).

The overhead is the median over batches of (server seconds - in-process seconds) / in-process seconds, with the
per-rollout difference in microseconds. Each batch is scored first by one side then by the other, alternating which
goes first, so neither side gets the other's warm caches more often.

    cd benchmarks && python server_overhead.py [--batches 12] [--workers 2] [--markdown results/server_overhead.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "examples" / "math" / "config.yaml"
ROWS = 256


def batches(count: int) -> list[list[dict]]:
    base = [json.loads(line) for line in (ROOT / "examples" / "math" / "rollouts.jsonl").read_text().splitlines()]
    out = []
    for b in range(count):
        rows = []
        for i in range(ROWS):
            row = dict(base[i % len(base)])
            row["prompt_id"] = f"{b}-{i // 8}"
            row["completion"] = f"{row['completion']}\n(batch {b})"  # distinct text: no verdict cache across batches
            rows.append(row)
        out.append(rows)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args()

    from polyreward.config import load_config
    from polyreward.runners.client import RewardClient
    from polyreward.schema import Batch

    config = load_config(CONFIG)
    scorer = config.build_scorer(workers=args.workers)
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve", "-c", str(CONFIG), "--port", "0", "--workers", str(args.workers),
                             "--concurrency", "1"], stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().split()[1]
    data = batches(args.batches + 1)
    try:
        with RewardClient(url, shard_size=ROWS, timeout=120) as client:
            warm = data.pop()
            scorer.score(Batch.from_records(warm, config.column_map), combine=False)
            client.score_rows(warm)

            def local(rows):
                started = time.perf_counter()
                scorer.score(Batch.from_records(rows, config.column_map), combine=False)
                return time.perf_counter() - started

            def served(rows):
                started = time.perf_counter()
                result = client.score_rows(rows)
                assert int(result.unscored.sum()) == 0, result.reasons
                return time.perf_counter() - started

            pairs = []
            for b, rows in enumerate(data):
                if b % 2:
                    s, l = served(rows), local(rows)
                else:
                    l, s = local(rows), served(rows)
                pairs.append((l, s))
    finally:
        proc.terminate()
        proc.wait(10)
    overhead = statistics.median((s - l) / l for l, s in pairs)
    per_rollout_us = statistics.median((s - l) / ROWS * 1e6 for l, s in pairs)
    local_ms = statistics.median(l for l, _ in pairs) * 1e3
    served_ms = statistics.median(s for _, s in pairs) * 1e3
    stamp = datetime.date.today().isoformat()
    lines = ["# Reward server overhead: one `polyreward serve` vs in-process scoring", "",
             f"{stamp}, {describe_machine()}, no GPU; a shared machine under load from other jobs. Math example, "
             f"{len(pairs)} distinct batches of {ROWS} rows, {args.workers} engine worker process(es) on both sides, one request per batch.", "",
             "| side | median ms per batch | median overhead | per rollout |", "|---|---:|---:|---:|",
             f"| in process (`Scorer.score`) | {local_ms:.1f} | anchor | |",
             f"| one `polyreward serve` (`RewardClient.score_rows`) | {served_ms:.1f} | {overhead:+.1%} | {per_rollout_us:+.0f} µs |", "",
             f"Target: within 20 % of in-process scoring; {'met' if overhead <= 0.20 else 'NOT met'} in this run.", "",
             f"Reproduce: `cd benchmarks && python server_overhead.py --batches {args.batches} --workers {args.workers} "
             "--markdown results/server_overhead.md`"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
