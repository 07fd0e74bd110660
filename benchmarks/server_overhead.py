"""The reward server's own cost: one ``polyreward serve`` vs scoring in process, on batches of 256 rows.

Two workloads, each anchored on in-process scoring of the same rows in the same run:

* ``cheap``: the MedQA example's rows (letter golds) scored by rewards that cost tens of microseconds a row
  (Clinical-R1's accuracy, format and English-share rules and DAPO's overlong penalty, inline: ``--workers 0``).
  Here the server's own cost (JSON both ways, HTTP, the slot process hop) is largest against the scoring.
* ``math``: the math example's config (Math-Verify in 2 engine worker processes on both sides).

For each of ``--batches`` distinct batches (fresh group ids and a distinct suffix on every completion, so no batch
hits another's verdict cache), in turn:

* ``in process``: ``scorer.score(scorer.batch(rows))`` with the config's Scorer built here;
* ``served``: ``RewardClient.score_rows`` of the same rows, one request (``shard_size=256``), over one
  ``polyreward serve`` subprocess (``--concurrency 1``; keep-alive connection, JSON both ways). The cheap workload's
  rewards are all declared linear-time: ``--front-lane`` passes that flag on, so the server scores it in the front
  process (``polyreward.runners.server_front``) instead of its slot process (the math workload always goes to the
  slot process). The lane each server used is in the output.

Then 60 more pairs, each a fresh batch scored in process then another served: the CPU time per request of the
anchor and of the client (this process's CPU clock around each), of the front and the slot process (Linux
``/proc``, 10 ms ticks summed over the loop, while they idle during the anchor), and each process's wake-ups
(voluntary context switches). Their quotient (``CPU ratio`` = anchor CPU / client + front + slot CPU) is the
figure the load moves least: CPU time leaves out the waits for a core that move the wall-clock ratio on a shared
machine, and the pairs interleave, so a change of load moves both sides alike.

The figure is the median over batches of in-process seconds / served seconds (throughput of one request at a
time against the anchor's); each batch is scored first by one side then the other, alternating, so neither side
gets the other's warm caches more often. Also: the median time of a one-row request (the fixed cost of a round
trip), and ``pipelined``: ``--pipelined`` batches of 1,024 rows sent as four 256-row shards, two in flight, to a
server with two slots, against in-process scoring of the same 1,024 rows (two scoring processes against one: what
a trainer gets from one server, not a like-for-like cost).

Run it with the package of the tree to measure (``PYTHONPATH=SRC`` measures another tree's server and client
against the same anchor code, for a before/after):

    cd benchmarks && python server_overhead.py [--batches 40] [--workloads cheap math] [--markdown results/server_overhead.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)

ROOT = Path(__file__).resolve().parents[1]
ROWS = 256
CPU_BATCHES = 60  # pairs (in process, served) for the CPU columns (front and slot in 10 ms ticks: about 0.17 ms per request)
CHEAP_CONFIG = """\
columns: {prompt: prompt, completion: completion, group: prompt_id}
rewards:
  - {name: accuracy, type: crpo_accuracy, weight: 1.0}
  - {name: format, type: crpo_format, weight: 0.5}
  - {name: english, type: crpo_english, weight: 0.2}
  - {name: overlong, type: overlong_penalty, weight: 0.1, max_completion_len: 400, soft_punish_cache: 100}
"""
# The same three Clinical-R1 rules without the overlong penalty: its fallback word count (``verifiers.text_forms``)
# grew to about 0.3 ms a row with the red-team rounds (about 80 % of the ``cheap`` anchor on 2026-12-06), so this is
# the workload where the server's own cost is the largest share, as ``cheap`` was when issue #35 set its goal.
RULES_CONFIG = CHEAP_CONFIG.split("  - {name: overlong")[0]
GOAL = 0.8


def example_rows(example: str) -> list[dict]:
    rows = [json.loads(line) for line in (ROOT / "examples" / example / "rollouts.jsonl").read_text().splitlines()]
    if example == "medqa":  # MedQA golds are "C. text": the letter is the gold Clinical-R1's accuracy rule reads
        for row in rows:
            answer = str(row.get("answer", ""))
            if len(answer) > 1 and answer[1] == "." and answer[0].isupper():
                row["answer"] = answer[0]
    return rows


def batch(base: list[dict], number: int, size: int = ROWS) -> list[dict]:
    rows = []
    for i in range(size):
        row = dict(base[i % len(base)])
        row["prompt_id"] = f"{number}-{i // 8}"
        row["completion"] = f"{row['completion']}\n(batch {number})"  # distinct text: no verdict cache across batches
        rows.append(row)
    return rows


SERVE_FLAGS: list[str] = []  # more `polyreward serve` flags (--front-lane)


def start_server(config: Path, workers: int, concurrency: int) -> tuple[subprocess.Popen, str]:
    """``polyreward serve`` in a session of its own, as a deployed server is: with Linux's autogroup scheduling
    (``/proc/sys/kernel/sched_autogroup_enabled``) a session is one CPU group, and the slot processes start their
    own sessions, so a server left in this script's session would score its front lane in the anchor's group and
    its slots outside it, which under load favours the slots."""
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve", "-c", str(config), "--port", "0", "--workers", str(workers),
                             "--concurrency", str(concurrency), *SERVE_FLAGS], stdout=subprocess.PIPE, text=True, start_new_session=True)
    return proc, proc.stdout.readline().split()[1]


def lane(url: str) -> str:
    """Where the server scores (its /health ``front_lane``): "front lane" or "slot" (a tree without the lane: "slot")."""
    import httpx

    on = (httpx.get(f"{url}/health").json().get("front_lane") or {}).get("on")
    return "front lane" if on else "slot"


def process_costs(pids: dict[str, int]) -> dict[str, tuple[float, int]]:
    """``{name: (CPU seconds, wake-ups)}`` so far of each process, all its threads (Linux ``/proc``): user + system
    time, and voluntary context switches (each one a wait that ended, i.e. a wake-up). Empty where unreadable."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for name, pid in pids.items():
        cpu, woken = 0.0, 0
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                cpu += (int(fields[11]) + int(fields[12])) / tick
                woken += int((task / "status").read_text().split("voluntary_ctxt_switches:")[1].split()[0])
        except (OSError, IndexError, ValueError):
            return {}
        found[name] = (cpu, woken)
    return found


def server_pids(proc: subprocess.Popen) -> dict[str, int]:
    """The server (front) and its slot process (the front's one child with ``--concurrency 1``)."""
    try:
        children = [int(c) for task in Path(f"/proc/{proc.pid}/task").iterdir() for c in (task / "children").read_text().split()]
    except OSError:
        return {}
    return {"front": proc.pid, "slot": children[0]} if len(children) == 1 else {}


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def measure(name: str, config_path: Path, example: str, workers: int, batches: int, pipelined: int) -> dict:
    from polyreward.config import load_config
    from polyreward.runners.client import RewardClient

    base = example_rows(example)
    scorer = load_config(config_path).build_scorer(workers)
    data = [batch(base, b) for b in range(batches + 2)]
    proc, url = start_server(config_path, workers, 1)
    pairs, small = [], []
    costs: dict[str, float] = {}  # per served 256-row request: each process's CPU and wake-ups
    try:
        with RewardClient(url, shard_size=ROWS, timeout=120) as client:
            for warm in data[:2]:
                scorer.score(scorer.batch(warm))
                client.score_rows(warm)

            pids = server_pids(proc)
            where = lane(url)

            def served(rows):
                result = client.score_rows(rows)
                assert int(result.unscored.sum()) == 0, result.reasons

            for b, rows in enumerate(data[2:]):
                if b % 2:
                    s = timed(lambda: served(rows))
                    l = timed(lambda: scorer.score(scorer.batch(rows)))
                else:
                    l = timed(lambda: scorer.score(scorer.batch(rows)))
                    s = timed(lambda: served(rows))
                pairs.append((l, s))
                small.append(timed(lambda: served(rows[:1])))
            # CPU per request, each served batch after an in-process one (so a change of load or clock moves both
            # sides alike): this process's CPU clock for the anchor and for the client's side of each request (ns
            # resolution), Linux /proc for the front and slot (10 ms ticks, summed over the whole loop: they idle
            # while the anchor scores); the wake-ups of every process from /proc
            extra = [batch(base, 5_000 + b) for b in range(CPU_BATCHES)]
            fresh = [batch(base, 7_000 + b) for b in range(CPU_BATCHES)]
            pids = {"client": os.getpid(), **pids}
            local_cpu = client_cpu = 0.0
            before = process_costs(pids)
            for own, rows in zip(fresh, extra):
                started = time.process_time()
                scorer.score(scorer.batch(own))
                middle = time.process_time()
                served(rows)
                local_cpu, client_cpu = local_cpu + middle - started, client_cpu + time.process_time() - middle
            after = process_costs(pids)
            for who in after.keys() & before.keys():
                costs[f"{who}_cpu_ms"] = (after[who][0] - before[who][0]) * 1e3 / len(extra)
                costs[f"{who}_wakeups"] = (after[who][1] - before[who][1]) / len(extra)
            costs["client_cpu_ms"] = client_cpu * 1e3 / len(extra)
            costs["local_cpu_ms"] = local_cpu * 1e3 / len(extra)
    finally:
        proc.terminate()
        proc.wait(10)
    out = {"name": name, "workers": workers, "batches": len(pairs), "lane": where,
           "local_ms": statistics.median(l for l, _ in pairs) * 1e3, "served_ms": statistics.median(s for _, s in pairs) * 1e3,
           "ratio": statistics.median(l / s for l, s in pairs), "one_row_ms": statistics.median(small) * 1e3}
    out["overhead_ms"] = statistics.median(s - l for l, s in pairs) * 1e3
    out.update(costs)
    if pipelined:
        big = [batch(base, 10_000 + b, 4 * ROWS) for b in range(pipelined + 1)]
        proc, url = start_server(config_path, workers, 2)
        ratios = []
        try:
            with RewardClient(url, shard_size=ROWS, per_server=2, timeout=120) as client:
                client.score_rows(big[0])
                for b, rows in enumerate(big[1:]):
                    if b % 2:
                        s = timed(lambda: client.score_rows(rows))
                        l = timed(lambda: scorer.score(scorer.batch(rows)))
                    else:
                        l = timed(lambda: scorer.score(scorer.batch(rows)))
                        s = timed(lambda: client.score_rows(rows))
                    ratios.append(l / s)
        finally:
            proc.terminate()
            proc.wait(10)
        out["pipelined_ratio"] = statistics.median(ratios)
    return out


def cpu_ratio(r: dict) -> float:
    """In-process CPU per batch / the CPU of every process a served request runs in (client, front, slot)."""
    served = r.get("client_cpu_ms", 0.0) + r["front_cpu_ms"] + r.get("slot_cpu_ms", 0.0)
    return r["local_cpu_ms"] / served if served else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--workloads", nargs="+", default=["cheap", "math"], choices=["cheap", "rules", "math"])
    parser.add_argument("--pipelined", type=int, default=10, help="1,024-row batches for the pipelined row (0 = skip)")
    parser.add_argument("--label", default="this tree", help="what the tree measured is called in the output")
    parser.add_argument("--markdown", default=None)
    parser.add_argument("--front-lane", action="store_true", help="serve with --front-lane (a tree that has the flag)")
    args = parser.parse_args()
    if args.front_lane:
        SERVE_FLAGS.append("--front-lane")

    import polyreward

    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        cheap = Path(tmp) / "cheap.yaml"
        cheap.write_text(CHEAP_CONFIG)
        rules = Path(tmp) / "rules.yaml"
        rules.write_text(RULES_CONFIG)
        for workload in args.workloads:
            if workload == "cheap":
                results.append(measure("cheap (Clinical-R1 rules + overlong, inline)", cheap, "medqa", 0, args.batches, args.pipelined))
            elif workload == "rules":
                results.append(measure("rules (Clinical-R1's three rules, inline; no word count)", rules, "medqa", 0, args.batches, args.pipelined))
            else:
                results.append(measure("math (Math-Verify, 2 engine processes)", ROOT / "examples" / "math" / "config.yaml", "math", 2,
                                       args.batches, 0))
    load_after = os.getloadavg()
    lines = ["# Reward server overhead: one `polyreward serve` vs in-process scoring, 256-row batches", "",
             f"{started:%Y-%m-%d %H:%M} UTC, {describe_machine()}, no GPU; load average {load_before[0]:.1f} before, "
             f"{load_after[0]:.1f} after (a machine shared with other jobs). Package: {args.label} "
             f"(`{Path(polyreward.__file__).parent}`). Ratio = in-process seconds / served seconds per batch, median over "
             "alternating pairs; goal: the server >= 0.8x in-process on cheap rewards.", "",
             "| workload | served by | batches | in process ms | served ms | served / in-process throughput | overhead ms per request | one-row request ms | pipelined (2 slots) | goal 0.8x |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        pipelined = f"{r['pipelined_ratio']:.2f}" if "pipelined_ratio" in r else "-"
        lines.append(f"| {r['name']} | {r['lane']} | {r['batches']} | {r['local_ms']:.1f} | {r['served_ms']:.1f} | {r['ratio']:.2f} | "
                     f"{r['overhead_ms']:.1f} | {r['one_row_ms']:.1f} | {pipelined} | {'met' if r['ratio'] >= GOAL else 'not met'} |")
    if any("front_cpu_ms" in r for r in results):
        lines += ["", "Per served 256-row request, over 60 more batches, each served after one scored in process (client and "
                  "in-process CPU: this process's CPU clock around each; front and slot: Linux `/proc`, every thread, user + "
                  "system time in 10 ms ticks summed over the loop; wake-ups = voluntary context switches, each a wait "
                  "that ended):", "",
                  "| workload | client CPU ms | client wake-ups | front CPU ms | front wake-ups | slot CPU ms (scoring included) | slot wake-ups | in-process CPU ms | CPU ratio (in process / client + front + slot) |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        lines += [f"| {r['name']} | {r.get('client_cpu_ms', float('nan')):.2f} | {r.get('client_wakeups', float('nan')):.1f} | "
                  f"{r['front_cpu_ms']:.2f} | {r['front_wakeups']:.1f} | {r['slot_cpu_ms']:.1f} | {r['slot_wakeups']:.1f} | "
                  f"{r['local_cpu_ms']:.1f} | {cpu_ratio(r):.2f} |"
                  for r in results if "front_cpu_ms" in r]
    lines += ["", f"Reproduce: `cd benchmarks && python server_overhead.py --batches {args.batches} --workloads {' '.join(args.workloads)} "
              f"--pipelined {args.pipelined}{' --front-lane' if args.front_lane else ''}`"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
