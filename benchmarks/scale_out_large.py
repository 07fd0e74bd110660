"""Scale-out where per-rollout cost dominates: Ray vs local on a large symbolic-math file, a latency-bound judge
reward over 1, 2, 4 and 8 actors, and a multi-node Ray cluster simulated on this host.

    cd benchmarks && python scale_out_large.py [--math-rows 20000] [--judge-rows 800] [--nodes 1 2 4] [--sections math judge nodes]

Sections (each row a ratio against its anchor measured in the same run):

* ``math``: ``score_file`` on ``--math-rows`` rows of the symbolic mix (:mod:`symbolic_rollouts`), ``math_accuracy``,
  chunks of 1,000: local with 2 engine processes (anchor) vs ``--backend ray`` with 2 actors x 1 engine process
  (the same number of scoring processes) on a Ray instance started beforehand (``ray.init`` is paid once per
  cluster); actor start-up is inside the timing. Outputs compared byte for byte.
* ``judge``: a ``rubric`` reward whose criteria go to an OpenAI-compatible judge on 127.0.0.1 that answers after
  ``--latency`` seconds, with ``concurrency: 1`` per scorer, so each scorer is latency-bound: local (anchor) vs
  Ray with 1, 2, 4, 8 actors (Ray's logical CPUs set to 8: the actors wait, they do not compute).
* ``nodes``: ``ray.cluster_utils.Cluster`` with 1, 2, 4 nodes of 2 logical CPUs on this host, 2 actors per node,
  rewards of known cost (:mod:`known_cost_rewards`): ``SleepCost`` (I/O-bound) and ``CpuCost`` (CPU-bound), anchored
  on one node. The driver's own CPU seconds per rollout are measured in every run: 1 / that is the throughput
  at which the driver (reading, sending chunks, writing parts) becomes the bottleneck.

Writes results/scale_out_large.json and .md (date, machine).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])])  # Ray workers import known_cost_rewards

from machine_info import describe_machine  # noqa: E402
from symbolic_rollouts import symbolic_rows  # noqa: E402

from polyreward.config import parse_config  # noqa: E402
from polyreward.runners.ray_backend import RayActorPool, RayChunkScorer  # noqa: E402
from polyreward.runners.score_file import score_file  # noqa: E402


def write_rows(rows: list[dict], path: Path) -> Path:
    with open(path, "w") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    return path


def run(data: Path, out: Path, config, *, workers: int, pool: RayActorPool | None = None, chunk_size: int = 1000) -> dict:
    """One ``score_file`` run: wall seconds, the driver's CPU seconds, rows."""
    wall, cpu = time.perf_counter(), time.process_time()
    scorer = RayChunkScorer(pool) if pool is not None else None
    result = score_file(data, out, config, chunk_size=chunk_size, workers=workers, chunk_scorer=scorer)
    return {"rows": result.rows, "seconds": time.perf_counter() - wall, "driver_cpu": time.process_time() - cpu}


def on_ray(data: Path, out: Path, config, *, actors: int, workers: int, chunk_size: int = 1000) -> dict:
    """A Ray run timed twice: from creating the actors to the output (``seconds``), and from the moment every actor
    has answered (``after_start``: start-up excluded, as for a pool kept across files or training steps)."""
    import ray

    wall = time.perf_counter()
    with RayActorPool(config, actors=actors, workers=workers) as pool:
        ray.get([actor.pid.remote() for actor in pool.actors])
        started = time.perf_counter()
        measured = run(data, out, config, workers=workers, pool=pool, chunk_size=chunk_size)
        measured["after_start"] = time.perf_counter() - started
    measured["seconds"] = time.perf_counter() - wall
    measured["start_up"] = started - wall
    return measured


def row(name: str, measured: dict, anchor: dict | None, note: str = "") -> dict:
    rate = measured["rows"] / measured["seconds"]
    steady = measured["rows"] / measured.get("after_start", measured["seconds"])
    anchor = anchor or measured
    anchor_rate = anchor["rows"] / anchor["seconds"]
    anchor_steady = anchor["rows"] / anchor.get("after_start", anchor["seconds"])  # like with like: a Ray anchor's own start-up out
    return {"run": name, "rows": measured["rows"], "seconds": measured["seconds"], "rollouts_per_s": rate,
            "ratio": rate / anchor_rate, "ratio_after_start": steady / anchor_steady, "start_up_s": measured.get("start_up"),
            "after_start_s": measured.get("after_start"),
            "driver_cpu_ms_per_row": 1e3 * measured["driver_cpu"] / measured["rows"], "note": note}


def same_bytes(a: Path, b: Path) -> str:
    left, right = a.read_text().splitlines(), b.read_text().splitlines()
    differ = sum(x != y for x, y in zip(left, right)) + abs(len(left) - len(right))
    return "byte-identical" if not differ else f"{differ} line(s) differ"


def math_section(rows: int, folder: Path) -> list[dict]:
    import ray

    data = write_rows(symbolic_rows(rows // 8, 8, 0), folder / "symbolic.jsonl")
    config = parse_config({"columns": {"group": "prompt_id"},
                           "rewards": [{"name": "accuracy", "type": "math_accuracy", "answer_column": "answer"}]})
    local = run(data, folder / "local.jsonl", config, workers=2)
    init = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    init = time.perf_counter() - init
    try:
        remote = on_ray(data, folder / "ray.jsonl", config, actors=2, workers=1)
    finally:
        ray.shutdown()
    return [row("math file: local, 2 engine processes", local, None, "anchor"),
            row("math file: --backend ray, 2 actors x 1 engine process", remote, local,
                f"{same_bytes(folder / 'local.jsonl', folder / 'ray.jsonl')}; ray.init {init:.1f} s not counted")]


class SlowJudge:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that meets every criterion after ``latency`` seconds."""

    def __init__(self, latency: float) -> None:
        body = json.dumps({"id": "j", "object": "chat.completion", "model": "stub",
                           "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                                        "content": json.dumps({"explanation": "stub", "criteria_met": True})}}],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                time.sleep(latency)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()


def judge_section(rows: int, latency: float, folder: Path) -> list[dict]:
    import ray

    judge = SlowJudge(latency)
    rubric = [{"criterion": "Tells the user to call emergency services", "points": 5}]
    data = write_rows([{"prompt_id": f"p{i // 4}", "prompt": "I have chest pain.", "completion": f"Call 911 now ({i}).",
                        "rubrics": rubric} for i in range(rows)], folder / "rubric.jsonl")
    config = parse_config({"columns": {"group": "prompt_id"}, "rewards": [{
        "name": "rubric", "type": "rubric", "judge": {"type": "openai", "base_url": judge.url, "model": "stub", "timeout": 30,
                                                      "concurrency": 1, "cache": False}}]})
    out = []
    try:
        local = run(data, folder / "judge-local.jsonl", config, workers=0, chunk_size=10)
        out.append(row("judge rubric: local, judge concurrency 1", local, None, f"anchor; {latency * 1e3:.0f} ms per judge call"))
        ray.init(num_cpus=8, include_dashboard=False, log_to_driver=False)
        try:
            for actors in (1, 2, 4, 8):
                measured = on_ray(data, folder / f"judge-ray{actors}.jsonl", config, actors=actors, workers=0, chunk_size=10)
                out.append(row(f"judge rubric: --backend ray, {actors} actor(s)", measured, local,
                               same_bytes(folder / "judge-local.jsonl", folder / f"judge-ray{actors}.jsonl")))
        finally:
            ray.shutdown()
    finally:
        judge.close()
    return out


def nodes_section(node_counts: list[int], folder: Path) -> list[dict]:
    import ray
    from ray.cluster_utils import Cluster

    kinds = {"sleep": ({"type": "known_cost_rewards:SleepCost", "seconds": 0.01}, 2400),
             "cpu": ({"type": "known_cost_rewards:CpuCost", "seconds": 0.002}, 2400)}
    files = {kind: write_rows([{"prompt_id": f"p{i // 8}", "prompt": "q", "completion": f"a{i}"} for i in range(n)], folder / f"{kind}.jsonl")
             for kind, (_, n) in kinds.items()}
    configs = {kind: parse_config({"columns": {"group": "prompt_id"}, "rewards": [{"name": kind, **spec}]}) for kind, (spec, _) in kinds.items()}
    out, anchors = [], {}
    for nodes in node_counts:
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 2})
        for _ in range(nodes - 1):
            cluster.add_node(num_cpus=2)
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        try:
            cluster.wait_for_nodes()
            for kind in kinds:
                measured = on_ray(files[kind], folder / f"{kind}-{nodes}.jsonl", configs[kind], actors=2 * nodes, workers=0, chunk_size=100)
                anchors.setdefault(kind, measured)
                note = "anchor" if nodes == node_counts[0] else ""
                out.append(row(f"simulated cluster, {kind}-bound reward: {nodes} node(s) x 2 actors", measured, anchors[kind], note))
        finally:
            ray.shutdown()
            cluster.shutdown()
    return out


def markdown(rows: list[dict], args) -> str:
    lines = ["# Scale-out at size: Ray vs local, a latency-bound judge over actors, a simulated multi-node cluster", "",
             f"{datetime.date.today().isoformat()}, {describe_machine()}, no GPU; a shared machine under load from other jobs. "
             "Ratio = rollouts/s over the anchor row of its section (same run). Driver ms/row: the driver process's CPU time "
             "per rollout (its reading, chunk sending and part writing). Ray seconds include the actors' start-up; "
             "'after start-up' times the same run from the moment every actor answered (against the anchor's own "
             "after-start-up time when the anchor is a Ray run).", "",
             "| run | rollouts | seconds | rollouts/s | / anchor | actor start-up s | / anchor after start-up | driver CPU ms/row | note |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        start = f"{r['start_up_s']:.1f}" if r["start_up_s"] is not None else "-"
        lines.append(f"| {r['run']} | {r['rows']} | {r['seconds']:.1f} | {r['rollouts_per_s']:.0f} | {r['ratio']:.2f} | {start} | "
                     f"{r['ratio_after_start']:.2f} | {r['driver_cpu_ms_per_row']:.3f} | {r['note']} |")
    lines += ["", f"Reproduce: `cd benchmarks && python scale_out_large.py --math-rows {args.math_rows} --judge-rows {args.judge_rows} "
              f"--nodes {' '.join(map(str, args.nodes))} --sections {' '.join(args.sections)}`"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--math-rows", type=int, default=20000)
    parser.add_argument("--judge-rows", type=int, default=240)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--sections", nargs="+", default=["math", "judge", "nodes"], choices=["math", "judge", "nodes"])
    parser.add_argument("--output", default=str(HERE / "results" / "scale_out_large"))
    args = parser.parse_args()
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for section in args.sections:
            found = {"math": lambda: math_section(args.math_rows, folder),
                     "judge": lambda: judge_section(args.judge_rows, args.latency, folder),
                     "nodes": lambda: nodes_section(args.nodes, folder)}[section]()
            for r in found:
                print(json.dumps(r), flush=True)
            rows += found
    text = markdown(rows, args)
    print(text)
    Path(args.output + ".md").write_text(text)
    Path(args.output + ".json").write_text(json.dumps({"date": datetime.date.today().isoformat(), "machine": describe_machine(),
                                                       "args": vars(args), "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
