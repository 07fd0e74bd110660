"""Scale-out overheads on this machine: ``--backend ray`` vs local, and ``polyreward serve`` + RewardClient vs in-process.

Rows, each anchored on the in-process run of the same rows in the same run (ratio = rollouts/s over the anchor's):

* ``file``: ``score_file`` on the shipped example rollouts repeated ``--repeat`` times (groups kept whole), local
  with ``workers`` engine processes vs Ray with ``actors`` actors of one engine process each (the same number of
  scoring processes). The Ray run joins a Ray instance started beforehand (its start-up, timed separately, is paid
  once per cluster, not per file); actor start-up is inside the timing.
* ``server``: the same rows as one batch: ``Scorer.score`` in this process vs ``RewardClient.score_rows`` over one
  and over two ``polyreward serve`` subprocesses (``--workers 0``: inline rewards), shards of 64 rows.

    cd benchmarks && python scale_out.py [--repeat 4] [--markdown results/scale_out.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)

ROOT = Path(__file__).resolve().parents[1]


def repeated(example: str, repeat: int, folder: Path) -> Path:
    """The example's rollouts ``repeat`` times, each copy with its own group ids (so groups stay whole)."""
    lines = (ROOT / "examples" / example / "rollouts.jsonl").read_text().splitlines()
    out = folder / f"{example}-x{repeat}.jsonl"
    with open(out, "w") as handle:
        for copy in range(repeat):
            for line in lines:
                row = json.loads(line)
                row["prompt_id"] = f"{copy}-{row.get('prompt_id')}"
                handle.write(json.dumps(row) + "\n")
    return out


def timed(fn):
    started = time.perf_counter()
    value = fn()
    return time.perf_counter() - started, value


def file_rows(example: str, repeat: int, workers: int, actors: int, chunk_size: int, folder: Path) -> list[tuple]:
    import ray

    from polyreward.config import load_config
    from polyreward.runners.ray_backend import RayActorPool, RayChunkScorer
    from polyreward.runners.score_file import score_file

    config = load_config(ROOT / "examples" / example / "config.yaml")
    data = repeated(example, repeat, folder)
    local_s, result = timed(lambda: score_file(data, folder / "local.jsonl", config, chunk_size=chunk_size, workers=workers))
    init_s, _ = timed(lambda: ray.init(num_cpus=actors, include_dashboard=False, log_to_driver=False))

    def on_ray():
        with RayActorPool(config, actors=actors, workers=1) as pool:
            return score_file(data, folder / "ray.jsonl", config, chunk_size=chunk_size, workers=1, chunk_scorer=RayChunkScorer(pool))

    ray_s, _ = timed(on_ray)
    ray.shutdown()
    local_lines = (folder / "local.jsonl").read_text().splitlines()
    differ = [json.loads(a) for a, b in zip(local_lines, (folder / "ray.jsonl").read_text().splitlines()) if a != b]
    same = "byte-identical: True" if not differ else (
        f"{len(differ)} row(s) differ, e.g. reasons {[v for k, v in differ[0].items() if k.endswith('_reason')]}")
    n = result.rows
    return [(f"file {example}: local, {workers} engine process(es)", n, local_s, 1.0, "anchor"),
            (f"file {example}: --backend ray, {actors} actors x 1 process", n, ray_s, local_s / ray_s,
             f"{same}; ray.init {init_s:.1f} s not counted")]


def start_server(config: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve", "-c", str(config), "--port", "0", "--workers", "0",
                             "--concurrency", "2"], stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().split()[1]


def server_rows(example: str, repeat: int, folder: Path) -> list[tuple]:
    from polyreward.runners.client import RewardClient
    from polyreward.config import load_config

    config_path = ROOT / "examples" / example / "config.yaml"
    config = load_config(config_path)
    records = [json.loads(line) for line in repeated(example, repeat, folder).read_text().splitlines()]
    scorer = config.build_scorer(workers=0)
    scorer.score(scorer.batch(records[:8]), combine=False)  # warm imports
    local_s, _ = timed(lambda: scorer.score(scorer.batch(records), combine=False))
    rows = [(f"server {example}: Scorer.score in process", len(records), local_s, 1.0, "anchor")]
    servers = [start_server(config_path) for _ in range(2)]
    try:
        for count in (1, 2):
            with RewardClient([url for _, url in servers[:count]], shard_size=64) as client:
                client.score_rows(records[:8])  # connection and server warm-up
                seconds, result = timed(lambda: client.score_rows(records))
            rows.append((f"server {example}: RewardClient over {count} polyreward serve", len(records), seconds, local_s / seconds,
                         f"failed rows: {int(result.unscored.sum())}"))
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(10)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=4)
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = file_rows("math", args.repeat, 2, 2, 96, folder)
        rows += file_rows("medqa", args.repeat * 4, 2, 2, 96, folder)
        rows += server_rows("medqa", args.repeat * 4, folder)
        rows += server_rows("math", args.repeat, folder)
    stamp = datetime.date.today().isoformat()
    lines = ["# Scale-out overheads: Ray backend and reward server", "",
             f"{stamp}, {describe_machine()}, no GPU; a shared machine under load from other jobs (2 cores for "
             f"everything: driver, actors, servers, client). Ratio = rollouts/s over the anchor row above it (same rows, same run).", "",
             "| run | rollouts | seconds | rollouts/s | / anchor | note |", "|---|---:|---:|---:|---:|---|"]
    for name, n, seconds, ratio, note in rows:
        lines.append(f"| {name} | {n} | {seconds:.2f} | {n / seconds:.0f} | {ratio:.2f} | {note} |")
    lines += ["", f"Reproduce: `cd benchmarks && python scale_out.py --repeat {args.repeat} --markdown results/scale_out.md`"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
