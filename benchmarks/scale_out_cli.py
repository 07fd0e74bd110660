"""``polyreward score --backend ray`` through the command line, start-up included, against local mode on one host.

Three runs of the ``polyreward`` command on the same file (``--rows`` rows of the symbolic math mix,
:mod:`symbolic_rollouts`, ``math_accuracy``; size it so local mode takes at least a minute), in this order:

* ``local``: ``polyreward score DATA -c CFG -o OUT`` (the default: 2 engine processes on this host) — the anchor;
* ``ray, started by the command``: ``--backend ray --actors 2`` with no cluster running: the command starts Ray
  (``ray.init``), its actors, scores and shuts Ray down — all inside the timing;
* ``ray, cluster already running``: ``ray start --head`` first (its time is reported, not counted), then
  ``--backend ray --address HOST:PORT --actors 2`` — the path for a cluster kept across files or training steps.

For each run: wall seconds of the command; CPU seconds (user + system) of the command's process tree — and, for the
running-cluster run, of the cluster's processes during the command (Ray's daemons and the actors' workers, which
are not the command's children); the peak of the summed resident memory of those processes (sampled every 0.2 s).
Outputs are compared byte for byte with local mode's. Writes results/scale_out_cli.md and .json.

    cd benchmarks && python scale_out_cli.py [--rows 32000] [--actors 2]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import socket
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
    parser.add_argument("--rows", type=int, default=32000)
    parser.add_argument("--actors", type=int, default=2)
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

        local = command([*base, "-o", str(folder / "local.jsonl")])
        rows.append({"run": "local (2 engine processes)", **local, "note": "anchor"})
        print(json.dumps(rows[-1]), flush=True)

        ray_started = command([*base, "-o", str(folder / "ray.jsonl"), "--backend", "ray", "--actors", str(args.actors)])
        rows.append({"run": f"--backend ray, {args.actors} actors, Ray started by the command", **ray_started,
                     "note": f"{same_bytes(folder / 'local.jsonl', folder / 'ray.jsonl')}; ray.init, actor start-up and shutdown included"})
        print(json.dumps(rows[-1]), flush=True)

        port, temp_dir = free_port(), tempfile.mkdtemp(prefix="rayc", dir="/tmp")
        # a loopback cluster of this run only, without Ray's token (the shared ~/.ray/auth_token may be rewritten by
        # other Ray users of this machine between `ray start` and the command)
        env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
        start = time.perf_counter()
        subprocess.run([*ray_cmd, "start", "--head", f"--port={port}", f"--num-cpus={args.actors}", "--include-dashboard=false",
                        f"--temp-dir={temp_dir}", "--disable-usage-stats", "--node-ip-address=127.0.0.1"], check=True, capture_output=True, env=env)
        cluster_start = time.perf_counter() - start
        try:
            running = command([*base, "-o", str(folder / "ray-running.jsonl"), "--backend", "ray", "--actors", str(args.actors),
                               "--address", f"127.0.0.1:{port}"], extra=cluster_processes(temp_dir), env=env)
        finally:
            stop_cluster(temp_dir)
        rows.append({"run": f"--backend ray --address HOST:PORT, {args.actors} actors, cluster already running", **running,
                     "note": f"{same_bytes(folder / 'local.jsonl', folder / 'ray-running.jsonl')}; `ray start` took "
                             f"{cluster_start:.1f} s before (not counted); CPU and memory include the cluster's processes"})
        print(json.dumps(rows[-1]), flush=True)
    load_after = os.getloadavg()
    for r in rows:
        r["ratio"] = rows[0]["seconds"] / r["seconds"]
        r["cpu_ratio"] = r["cpu_s"] / rows[0]["cpu_s"]
    lines = ["# `polyreward score --backend ray` through the command line vs local mode, start-up included", "",
             f"{stamp:%Y-%m-%d %H:%M} UTC, {describe_machine()}, no GPU; load average {load_before[0]:.1f} before, "
             f"{load_after[0]:.1f} after (a machine shared with other jobs). Package: {args.label} "
             f"(`{Path(polyreward.__file__).parent}`). {args.rows} rows of the symbolic math mix, `math_accuracy`. "
             "Ratio = local wall seconds / this run's (throughput against local mode, same run). CPU: user + system seconds "
             "of every process of the run; memory: peak of their summed resident sets.", "",
             "| run | wall s | / local | CPU s | CPU / local | peak RSS MB | note |", "|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['run']} | {r['seconds']:.1f} | {r['ratio']:.2f} | {r['cpu_s']:.1f} | {r['cpu_ratio']:.2f} | "
                     f"{r['peak_rss_mb']:.0f} | {r['note']} |")
    lines += ["", f"Reproduce: `cd benchmarks && python scale_out_cli.py --rows {args.rows} --actors {args.actors}`"]
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.output + ".md").write_text(text)
    Path(args.output + ".json").write_text(json.dumps({"date": f"{stamp:%Y-%m-%d %H:%M} UTC", "machine": describe_machine(),
                                                       "load": [load_before[0], load_after[0]], "args": vars(args), "rows": rows},
                                                      indent=2) + "\n")


if __name__ == "__main__":
    main()
