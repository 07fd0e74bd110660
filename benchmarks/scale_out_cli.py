"""``polyreward score --backend ray`` through the command line, start-up included, against local mode on one host.

Three kinds of run of the ``polyreward`` command on the same file (``--rows`` rows of the symbolic math mix,
:mod:`symbolic_rollouts`, ``math_accuracy``; size it so local mode takes at least a minute):

* ``local``: ``polyreward score DATA -c CFG -o OUT`` (the default: 2 engine processes on this host) — the anchor;
* ``ray, started by the command``: ``--backend ray --actors 2`` with no cluster running: the command starts Ray
  (``ray.init``), its actors, scores and shuts Ray down — all inside the timing;
* ``ray, cluster already running``: ``ray start --head`` first (its time is reported, not counted), then
  ``--backend ray --address HOST:PORT --actors 2`` — the path for a cluster kept across files or training steps; the
  cluster is stopped after the run (``ray.init()`` without an address would join it in the next round).

The load of a shared machine drifts over minutes, so the three run in ``--rounds`` rounds, each ratio against the
local run of its round, and the table gives the medians.

For each run: wall seconds of the command; CPU seconds (user + system) of the command's process tree — and, for the
running-cluster run, of the cluster's processes during the command (Ray's daemons and the actors' workers, which
are not the command's children); the peak of the summed resident memory of those processes (sampled every 0.2 s).
Outputs are compared byte for byte with local mode's. Writes results/scale_out_cli.md and .json.

    cd benchmarks && python scale_out_cli.py [--rows 40000] [--actors 2] [--rounds 2]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine_info import describe_machine  # noqa: E402
from symbolic_rollouts import symbolic_rows  # noqa: E402

CONFIG = """\
columns: {group: prompt_id}
rewards:
  - {name: accuracy, type: math_accuracy, answer_column: answer}
"""


class TreeMonitor:
    """Samples the CPU times and resident memory of a process tree (plus processes ``extra()`` names) until stopped."""

    def __init__(self, root: int, extra=lambda: []) -> None:
        import psutil

        self.psutil, self.root, self.extra = psutil, root, extra
        self.cpu: dict[int, float] = {}
        self.start_cpu: dict[int, float] = {}
        self.peak_rss = 0
        self.stopped = threading.Event()
        for proc in self.extra():  # the cluster's CPU before the command: only its use during the command counts
            try:
                times = proc.cpu_times()
                self.start_cpu[proc.pid] = times.user + times.system + times.children_user + times.children_system
            except psutil.Error:
                pass
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _processes(self) -> list:
        psutil = self.psutil
        try:
            root = psutil.Process(self.root)
            found = [root, *root.children(recursive=True)]
        except psutil.Error:
            found = []
        for proc in self.extra():
            try:
                found += [proc, *proc.children(recursive=True)]
            except psutil.Error:
                pass
        return list({p.pid: p for p in found}.values())

    def _run(self) -> None:
        while not self.stopped.is_set():
            self.sample()
            self.stopped.wait(0.2)

    def sample(self) -> None:
        rss = 0
        for proc in self._processes():
            try:
                times = proc.cpu_times()
                self.cpu[proc.pid] = max(self.cpu.get(proc.pid, 0.0), times.user + times.system)
                rss += proc.memory_info().rss
            except self.psutil.Error:
                pass
        self.peak_rss = max(self.peak_rss, rss)

    def stop(self) -> tuple[float, float]:
        """(CPU seconds over the tree, peak resident MB)."""
        self.stopped.set()
        self.thread.join()
        cpu = sum(value - self.start_cpu.get(pid, 0.0) for pid, value in self.cpu.items())
        return cpu, self.peak_rss / 2 ** 20


def command(args: list[str], extra=lambda: [], env: dict | None = None) -> dict:
    started = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    monitor = TreeMonitor(proc.pid, extra)
    _, err = proc.communicate()
    seconds = time.perf_counter() - started
    cpu, rss = monitor.stop()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}: {err[-2000:]}")
    return {"seconds": seconds, "cpu_s": cpu, "peak_rss_mb": rss}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cluster_processes(temp_dir: str):
    """The processes of the cluster started with ``--temp-dir temp_dir`` (its daemons name the folder; the workers
    are the raylet's children, which TreeMonitor adds)."""
    import psutil

    def find() -> list:
        out = []
        for proc in psutil.process_iter(["cmdline"]):
            cmdline = " ".join(proc.info["cmdline"] or [])
            if temp_dir in cmdline and "scale_out_cli" not in cmdline:
                out.append(proc)
        return out

    return find


def stop_cluster(temp_dir: str) -> None:
    """SIGKILL this run's cluster only (``ray stop`` would stop every Ray instance of this machine's user)."""
    import psutil

    procs = []
    for proc in cluster_processes(temp_dir)():
        try:
            procs += [proc, *proc.children(recursive=True)]
        except psutil.Error:
            pass
    for proc in procs:
        try:
            proc.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(procs, timeout=10)


def same_bytes(a: Path, b: Path) -> str:
    left, right = a.read_bytes().splitlines(), b.read_bytes().splitlines()
    differ = sum(x != y for x, y in zip(left, right)) + abs(len(left) - len(right))
    return "byte-identical" if not differ else f"{differ} line(s) differ"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=40000)
    parser.add_argument("--actors", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--label", default="this tree")
    parser.add_argument("--output", default=str(HERE / "results" / "scale_out_cli"))
    args = parser.parse_args()

    import polyreward

    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    polyreward_cmd = [sys.executable, "-m", "polyreward", "score"]
    ray_cmd = [str(Path(sys.executable).with_name("ray"))]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = folder / "symbolic.jsonl"
        with open(data, "w") as handle:
            for row in symbolic_rows(args.rows // 8, 8, 0):
                handle.write(json.dumps(row) + "\n")
        config = folder / "config.yaml"
        config.write_text(CONFIG)
        base = [*polyreward_cmd, str(data), "-c", str(config), "--quiet"]

        # a loopback cluster of this run only, without Ray's token (the shared ~/.ray/auth_token may be rewritten by
        # other Ray users of this machine between `ray start` and the command); stopped before the next local and
        # started-by-the-command runs, since ray.init() without an address joins any Ray instance running here
        env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
        kinds = {"local": "local (2 engine processes)",
                 "started": f"--backend ray, {args.actors} actors, Ray started by the command",
                 "running": f"--backend ray --address HOST:PORT, {args.actors} actors, cluster already running"}
        cluster_starts = []
        for round_ in range(1, args.rounds + 1):  # the load of a shared machine drifts over minutes: rounds, each kind once
            for kind in ("local", "started", "running"):
                out = folder / f"{kind}-{round_}.jsonl"
                if kind == "local":
                    measured = command([*base, "-o", str(out)])
                elif kind == "started":
                    measured = command([*base, "-o", str(out), "--backend", "ray", "--actors", str(args.actors)])
                else:
                    port, temp_dir = free_port(), tempfile.mkdtemp(prefix="rayc", dir="/tmp")
                    start = time.perf_counter()
                    subprocess.run([*ray_cmd, "start", "--head", f"--port={port}", f"--num-cpus={args.actors}", "--include-dashboard=false",
                                    f"--temp-dir={temp_dir}", "--disable-usage-stats", "--node-ip-address=127.0.0.1"],
                                   check=True, capture_output=True, env=env)
                    cluster_starts.append(time.perf_counter() - start)
                    try:
                        measured = command([*base, "-o", str(out), "--backend", "ray", "--actors", str(args.actors),
                                            "--address", f"127.0.0.1:{port}"], extra=cluster_processes(temp_dir), env=env)
                    finally:
                        stop_cluster(temp_dir)
                        shutil.rmtree(temp_dir, ignore_errors=True)
                note = "anchor" if kind == "local" else same_bytes(folder / f"local-{round_}.jsonl", out)
                rows.append({"round": round_, "kind": kind, "run": kinds[kind], **measured, "note": note})
                print(json.dumps(rows[-1]), flush=True)
        cluster_start = statistics.median(cluster_starts)
    load_after = os.getloadavg()
    for r in rows:
        anchor = next(a for a in rows if a["round"] == r["round"] and a["kind"] == "local")
        r["ratio"] = anchor["seconds"] / r["seconds"]
        r["cpu_ratio"] = r["cpu_s"] / anchor["cpu_s"]
    summary = []
    for kind, name in kinds.items():
        mine = [r for r in rows if r["kind"] == kind]
        summary.append({"run": name, "seconds": statistics.median(r["seconds"] for r in mine),
                        "ratio": statistics.median(r["ratio"] for r in mine), "cpu_s": statistics.median(r["cpu_s"] for r in mine),
                        "cpu_ratio": statistics.median(r["cpu_ratio"] for r in mine),
                        "peak_rss_mb": max(r["peak_rss_mb"] for r in mine),
                        "note": "anchor" if kind == "local" else ", ".join(sorted({r["note"] for r in mine}))
                        + ("; ray.init, actor start-up and shutdown included" if kind == "started" else
                           f"; `ray start` took {cluster_start:.1f} s before (not counted); CPU and memory include the cluster's processes"
                           if kind == "running" else "")})
    lines = ["# `polyreward score --backend ray` through the command line vs local mode, start-up included", "",
             f"{stamp:%Y-%m-%d %H:%M} UTC, {describe_machine()}, no GPU; load average {load_before[0]:.1f} before, "
             f"{load_after[0]:.1f} after (a machine shared with other jobs). Package: {args.label} "
             f"(`{Path(polyreward.__file__).parent}`). {args.rows} rows of the symbolic math mix, `math_accuracy`. "
             f"{args.rounds} rounds, each running local, Ray started by the command and Ray on the running cluster in turn; "
             "ratio = the round's local wall seconds / this run's (throughput against local mode), median over rounds. "
             "CPU: user + system seconds "
             "of every process of the run; memory: peak of their summed resident sets.", "",
             "| run | wall s | / local | CPU s | CPU / local | peak RSS MB | note |", "|---|---:|---:|---:|---:|---:|---|"]
    for r in summary:
        lines.append(f"| {r['run']} | {r['seconds']:.1f} | {r['ratio']:.2f} | {r['cpu_s']:.1f} | {r['cpu_ratio']:.2f} | "
                     f"{r['peak_rss_mb']:.0f} | {r['note']} |")
    lines += ["", "Each round (wall s, ratio to that round's local run):", ""]
    for round_ in range(1, args.rounds + 1):
        lines.append(f"- round {round_}: " + "; ".join(f"{r['kind']} {r['seconds']:.1f} s ({r['ratio']:.2f})" for r in rows if r["round"] == round_))
    lines += ["", f"Reproduce: `cd benchmarks && python scale_out_cli.py --rows {args.rows} --actors {args.actors} --rounds {args.rounds}`"]
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.output + ".md").write_text(text)
    Path(args.output + ".json").write_text(json.dumps({"date": f"{stamp:%Y-%m-%d %H:%M} UTC", "machine": describe_machine(),
                                                       "load": [load_before[0], load_after[0]], "args": vars(args), "rows": rows,
                                                       "summary": summary},
                                                      indent=2) + "\n")


if __name__ == "__main__":
    main()
