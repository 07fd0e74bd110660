"""Throughput of the clinical / structured rewards on the committed example files, on one core.

For each family in examples/ (jaccard, kg, tools, forecast) the rollouts are scored reward by reward with
``reward.evaluate`` (no worker pool: these rewards are rule-based and run in-process), several passes,
best pass kept. The KG extractor's cache is cleared before every pass and the copies of each KG completion
differ by trailing spaces, so every completion is extracted afresh (references repeat within a group and hit
the cache, as in training). The anchor, measured in the
same run, is a no-op reward that only reads the completion text and builds each rollout's row; the table
shows rollouts/s, the ratio to the 5,000 rollouts/s target and to the anchor::

    python benchmarks/clinical_rewards.py [--passes 5] [--markdown benchmarks/results/clinical_rewards.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time
from pathlib import Path

from polyreward.config import load_config
from polyreward.reward import RolloutReward, Scored
from polyreward.schema import Batch
from polyreward.verifiers import radiology_kg

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FAMILIES = ("jaccard", "kg", "tools", "forecast")
TARGET = 5000.0


class NoOp(RolloutReward):
    type_name = "noop"

    def score_rollout(self, completion, row):
        return Scored(0.0)


def best_rate(reward, batch: Batch, passes: int) -> float:
    best = 0.0
    for _ in range(passes):
        radiology_kg._extract_cached.cache_clear()
        start = time.perf_counter()
        reward.evaluate(batch.prompts, batch.completions, **batch.columns)
        best = max(best, len(batch) / (time.perf_counter() - start))
    return best


def machine() -> str:
    return describe_machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=10, help="copies of each example file per pass (more rollouts per timing)")
    parser.add_argument("--markdown", type=Path, help="also write the table to this markdown file")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    lines = ["| family | reward | type | rollouts | rollouts/s | / 5,000 target | / no-op anchor |", "|---|---|---|---:|---:|---:|---:|"]
    for family in FAMILIES:
        config = load_config(EXAMPLES / family / "config.yaml")
        rows = [json.loads(line) for line in (EXAMPLES / family / "rollouts.jsonl").open(encoding="utf-8")]
        copies = [dict(row) for _ in range(args.repeat) for row in rows]
        if family == "kg":  # make every completion distinct (trailing spaces) so the extractor cache cannot serve repeats
            for i, row in enumerate(copies):
                row["completion"] = row["completion"] + " " * (i // len(rows))
        batch = Batch.from_records(copies, config.column_map)
        anchor = best_rate(NoOp(), batch, args.passes)
        for reward, entry in zip(config.build_rewards(workers=0), config.rewards):
            rate = best_rate(reward, batch, args.passes)
            lines.append(f"| {family} | {reward.name} | {entry.type} | {len(batch)} | {rate:,.0f} | {rate / TARGET:.2f} | {rate / anchor:.3f} |")
        lines.append(f"| {family} | (anchor) | no-op | {len(batch)} | {anchor:,.0f} | {anchor / TARGET:.2f} | 1.000 |")
    header = f"Clinical / structured rewards on one core, best of {args.passes} passes, {datetime.date.today().isoformat()}, {machine()}, no GPU"
    table = "\n".join(lines)
    print(header)
    print(table)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(f"# Clinical / structured reward throughput\n\n{header}\n\n{table}\n\nReproduce: `python benchmarks/clinical_rewards.py --markdown {args.markdown}`\n", encoding="utf-8")


if __name__ == "__main__":
    main()
