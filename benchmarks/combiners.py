"""Benchmark every registered combiner on 1,000,000 rollouts x 4 rewards, G = 8 (125,000 groups), on one CPU core.

The combiners come from the registry (a new one needs no edit here): per-row arrays a combiner declares in
``row_columns`` are made up (``domain``: four labels; any other: a positive number per row), token lengths go to
one that ``uses_lengths``, and one that refuses K = 4 is timed on the first two rewards.

Anchors, timed in the same run and interleaved with the combiner they are compared to (the machine is shared):
- TRL 1.16's own torch ops for its two aggregations (``GRPOTrainer._generate_and_score_completions``: ``view(-1, G)``,
  ``nanmean``, TRL's ``nanstd``, ``repeat_interleave``, ``nansum``), single-threaded, on float32 and float64 tensors,
  against ``grpo`` (sum_then_normalize) and ``gdpo`` (normalize_then_sum) with a tensor of the same dtype in and out
  (issue #35 goal: >= 2x TRL's time);
- torch-tensor group ids against numpy ids, through ``combine`` and through ``polyreward.advantages`` (goal: equal);
- ``advantages()`` against the bare ``combine()``;
- issue 3: GDPO <= 100 ms in numpy on one core and >= 20x a per-group Python loop (timed on a subset of groups and
  extrapolated linearly, which the table says).

    python benchmarks/combiners.py [--rollouts 1000000] [--repeats 5] [--loop-groups 10000] [--out benchmarks/results/combiners.md]

A/B mode: the TRL anchors only, in alternating processes that import polyreward from this tree and from another one
(e.g. main before a change: ``git archive <commit> src | tar -x -C /tmp/before``), so that a load that comes and goes
hits both alike; every run's ratios go to ``--ab-out``:

    python benchmarks/combiners.py --against /tmp/before/src --pairs 4 [--ab-out benchmarks/results/combiners_ab.md]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one core for the numpy measurement

import argparse
import datetime
import platform
import time
from pathlib import Path

import numpy as np

K = 4
G = 8


def pin_one_core() -> str:
    try:
        cpu = sorted(os.sched_getaffinity(0))[0]
        os.sched_setaffinity(0, {cpu})
        note = f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        note = "not pinned"
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
        note += ", threadpoolctl 1 thread"
    except ImportError:
        pass
    return note


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = int(next(l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")).split()[1])
        mem = f"{mem_kb / 1024 ** 2:.0f} GB"
    except (OSError, StopIteration, ValueError):
        mem = "? GB"
    return f"{os.cpu_count()}-core {cpu}, {mem}, Python {platform.python_version()}, numpy {np.__version__}"


def make_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    scores = np.column_stack(
        [
            rng.integers(0, 2, n),  # correctness
            rng.integers(0, 2, n),  # format
            rng.uniform(0, 1, n).round(2),  # rubric score
            -rng.exponential(0.3, n).round(3),  # length penalty
        ]
    ).astype(np.float64)
    scores[rng.random(scores.shape) < 0.01] = np.nan  # 1% "not applicable"
    return scores, np.repeat(np.arange(n // G), G)


def gdpo_python_loop(scores: np.ndarray, groups: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The naive anchor: the same TRL normalize_then_sum maths, one Python iteration per group."""
    summed = np.empty(len(scores))
    members: dict = {}
    for i, g in enumerate(groups.tolist()):
        members.setdefault(g, []).append(i)
    for rows in members.values():
        block = scores[rows]
        normalised = np.zeros_like(block)
        for k in range(block.shape[1]):
            column = block[:, k]
            valid = column[~np.isnan(column)]
            if len(valid) > 1:
                normalised[:, k] = (column - valid.mean()) / (valid.std(ddof=1) + 1e-4)
        normalised[np.isnan(normalised)] = 0.0
        summed[rows] = normalised @ weights
    summed[np.isnan(scores).all(axis=1)] = np.nan
    valid = summed[~np.isnan(summed)]
    result = (summed - valid.mean()) / (valid.std(ddof=1) + 1e-4)
    return np.nan_to_num(result)


def trl_sum_then_normalize(rewards_per_func, reward_weights, num_generations: int = G):
    """TRL 1.16 grpo_trainer.py ``multi_objective_aggregation == "sum_then_normalize"``, ``scale_rewards="group"``."""
    import torch
    from trl.trainer.utils import nanstd

    unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)
    rewards = (rewards_per_func * reward_weights.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable_mask] = torch.nan
    mean_grouped_rewards = torch.nanmean(rewards.view(-1, num_generations), dim=1)
    mean_grouped_rewards = mean_grouped_rewards.repeat_interleave(num_generations, dim=0)
    std_rewards = nanstd(rewards.view(-1, num_generations), dim=1)
    std_rewards = std_rewards.repeat_interleave(num_generations, dim=0)
    advantages = (rewards - mean_grouped_rewards) / (std_rewards + 1e-4)
    return torch.nan_to_num(advantages, nan=0.0)


def trl_normalize_then_sum(rewards_per_func, reward_weights, num_generations: int = G):
    """TRL 1.16 grpo_trainer.py ``multi_objective_aggregation == "normalize_then_sum"`` (GDPO)."""
    import torch
    from trl.trainer.utils import nanstd

    unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)
    grouped = rewards_per_func.view(-1, num_generations, rewards_per_func.shape[1])
    mean_k = torch.nanmean(grouped, dim=1, keepdim=True)
    std_k = nanstd(grouped, dim=1, keepdim=True)
    reward_k = ((grouped - mean_k) / (std_k + 1e-4)).view(-1, rewards_per_func.shape[1])
    rewards = (reward_k * reward_weights.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable_mask] = torch.nan
    std_rewards = nanstd(rewards).expand_as(rewards)
    advantages = (rewards - torch.nanmean(rewards)) / (std_rewards + 1e-4)
    return torch.nan_to_num(advantages, nan=0.0)


def interleaved(fns: dict, repeats: int) -> dict[str, tuple[float, float]]:
    """Best (wall, CPU) seconds of each function, the functions run in turn in each repeat (a load that comes and
    goes on a shared machine then hits all of them alike)."""
    best = {name: (float("inf"), float("inf")) for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def best_of(fn, repeats: int) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds of this process) over ``repeats`` runs.

    On a shared machine the wall time includes time-slicing by other jobs; the CPU time of the pinned,
    single-threaded process is the one-core cost.
    """
    wall = cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def trl_anchors(scores: np.ndarray, groups: np.ndarray, weights: np.ndarray, repeats: int) -> list[tuple[str, str, float, float]]:
    """(combiner, dtype, TRL CPU seconds, polyreward CPU seconds): TRL's torch ops against ``grpo`` and ``gdpo``, a
    tensor of the same dtype in and out, interleaved."""
    import torch

    from polyreward.combiners.gdpo import GDPOCombiner
    from polyreward.combiners.grpo import GRPOCombiner

    anchors = []
    for dtype in (torch.float32, torch.float64):
        tensor, w_t = torch.tensor(scores, dtype=dtype), torch.tensor(weights, dtype=dtype)
        label = str(dtype).replace("torch.", "")
        timed = interleaved({
            "trl_grpo": lambda: trl_sum_then_normalize(tensor, w_t),
            "grpo": lambda: GRPOCombiner().combine(tensor, groups, weights),
            "trl_gdpo": lambda: trl_normalize_then_sum(tensor, w_t),
            "gdpo": lambda: GDPOCombiner().combine(tensor, groups, weights),
        }, repeats)
        for ours, trl in (("grpo", "trl_grpo"), ("gdpo", "trl_gdpo")):
            anchors.append((ours, label, timed[trl][1], timed[ours][1]))
    return anchors


def alternating_runs(args: argparse.Namespace) -> None:
    """``--pairs`` pairs of child processes running the TRL anchors, one importing polyreward from ``--against``, one
    from this tree, the order swapped every pair; a table of every run's figures to ``--ab-out``."""
    import json
    import subprocess
    import sys

    trees = {"before": str(Path(args.against).resolve()), "after": str((Path(__file__).parent.parent / "src").resolve())}
    runs: list[dict] = []
    for pair in range(args.pairs):
        for label in (("before", "after") if pair % 2 == 0 else ("after", "before")):
            env = {**os.environ, "PYTHONPATH": trees[label]}
            command = [sys.executable, __file__, "--anchors-only", "--rollouts", str(args.rollouts), "--repeats", str(args.repeats)]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            line = next(l for l in done.stdout.splitlines() if l.startswith("ANCHORS "))
            run = {"pair": pair + 1, "tree": label, **json.loads(line[len("ANCHORS "):])}
            if not run["module"].startswith(trees[label]):
                raise SystemExit(f"the {label} run imported polyreward from {run['module']}, not from {trees[label]}")
            runs.append(run)
            print(f"pair {pair + 1} {label}: " + ", ".join(f"{c} {d} {t / p:.2f}x ({p * 1e3:.1f} ms)" for c, d, t, p in run["anchors"])
                  + f"  load {run['load']:.1f}", flush=True)
    keys = [(c, d) for c, d, _, _ in runs[0]["anchors"]]
    lines = [
        "# Combiners against TRL's own torch ops: alternating A/B runs",
        "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC · {machine()} · one core, one thread · "
        f"{args.rollouts:,} rollouts x {K} rewards, G = {G}, 1% NaN · best of {args.repeats} per run · "
        f"`before`: polyreward imported from `{args.against}`" + (f" ({args.against_label})" if args.against_label else "")
        + "; `after`: this tree",
        "",
        "Each run is its own process, TRL and polyreward interleaved in it; the trees alternate (the order swapped every "
        "pair), so a load that comes and goes hits both alike. TRL / polyreward (polyreward's CPU ms):",
        "",
        "| pair | tree | load | " + " | ".join(f"{c} {d}" for c, d in keys) + " |",
        "|---:|---|---:|" + "---:|" * len(keys),
    ]
    for run in runs:
        cells = [f"{t / p:.2f}x ({p * 1e3:.1f})" for _, _, t, p in run["anchors"]]
        lines.append(f"| {run['pair']} | {run['tree']} | {run['load']:.1f} | " + " | ".join(cells) + " |")
    lines += ["", "Median over the runs of each tree:", "", "| tree | " + " | ".join(f"{c} {d}" for c, d in keys) + " |",
              "|---|" + "---:|" * len(keys)]
    for label in ("before", "after"):
        mine = [r for r in runs if r["tree"] == label]
        cells = []
        for i in range(len(keys)):
            ratio = float(np.median([r["anchors"][i][2] / r["anchors"][i][3] for r in mine]))
            ms = float(np.median([r["anchors"][i][3] for r in mine])) * 1e3
            cells.append(f"{ratio:.2f}x ({ms:.1f} ms)")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    out = Path(args.ab_out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rollouts", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--loop-groups", type=int, default=10_000, help="groups timed for the Python-loop anchor")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "combiners.md"))
    parser.add_argument("--against", help="A/B mode: the src directory of the polyreward to compare with (TRL anchors only)")
    parser.add_argument("--pairs", type=int, default=4, help="A/B mode: pairs of alternating runs")
    parser.add_argument("--against-label", help="A/B mode: what --against holds, for the table (e.g. 'main at fa259a5')")
    parser.add_argument("--ab-out", default=str(Path(__file__).parent / "results" / "combiners_ab.md"))
    parser.add_argument("--anchors-only", action="store_true", help=argparse.SUPPRESS)  # one A/B run (a child process)
    args = parser.parse_args()
    if args.against:
        alternating_runs(args)
        return

    pinning = pin_one_core()
    if args.anchors_only:
        import json

        import torch

        torch.set_num_threads(1)
        scores, groups = make_data(args.rollouts)
        anchors = trl_anchors(scores, groups, np.array([1.0, 0.5, 1.0, 0.2]), args.repeats)
        import polyreward

        print("ANCHORS " + json.dumps({"anchors": anchors, "load": os.getloadavg()[0], "module": polyreward.__file__}), flush=True)
        return
    import torch

    from polyreward import registry
    from polyreward.combiners.apply import advantages
    from polyreward.combiners.gdpo import GDPOCombiner

    torch.set_num_threads(1)
    scores, groups = make_data(args.rollouts)
    lengths = np.random.default_rng(1).integers(1, 2049, len(groups)).astype(np.float64)
    domains = np.array(["medqa", "medmcqa", "pubmedqa", "radiology"], dtype=object)
    weights = np.array([1.0, 0.5, 1.0, 0.2])
    rows: list[tuple[str, str, tuple[float, float], str]] = []

    for name in registry.combiner_types():
        cls = registry.combiner_class(name)
        # DRPO runs k-means over every question seen per domain, so it is timed on at most 80,000 rollouts
        n = min(len(groups), 80_000) if "domain" in cls.row_columns else len(groups)
        extra: dict = {}
        for column in cls.row_columns:
            if column == "domain":  # four domains, one per group modulo 4
                extra[column] = domains[groups[:n] % len(domains)]
            else:  # a number per row (AAPO's reference reward, EDGE-GRPO's entropy, ...): positive, varying
                extra[column] = 0.2 + np.abs(np.nan_to_num(scores[:n, 0])) + 0.1 * (groups[:n] % 3)
        if cls().uses_lengths:  # OPO, REINFORCE++-baseline, ...: response token counts weigh the rollouts
            extra["lengths"] = lengths[:n]
        data, note = scores, ""
        try:
            cls().combine(data[:64], groups[:64], weights, **{k: v[:64] for k, v in extra.items()})
        except ValueError:  # e.g. PAPO: (outcome, process), K = 2
            data, note = scores[:, :2], "K = 2 (refuses K = 4)"
        w = weights[: data.shape[1]]
        seconds = best_of(lambda: cls().combine(data[:n], groups[:n], w, **extra), args.repeats)  # fresh state each time
        note = "; ".join(filter(None, [note, f"{n:,} rollouts, 4 domains" if "domain" in extra else "",
                                       "token lengths 1-2048" if "lengths" in extra else "",
                                       "per-row numbers" if set(extra) - {"domain", "lengths"} else ""]))
        rows.append((name, cls.exactness, seconds, note))
        print(f"{name:30s} wall {seconds[0] * 1e3:8.1f} ms  cpu {seconds[1] * 1e3:8.1f} ms  {note}", flush=True)

    # TRL's torch ops against grpo/gdpo, tensor of the same dtype in and out
    anchors = trl_anchors(scores, groups, weights, args.repeats)
    for ours, label, trl, mine in anchors:
        print(f"{ours} {label}: TRL {trl * 1e3:.1f} ms, polyreward {mine * 1e3:.1f} ms CPU", flush=True)

    # torch ids against numpy ids; advantages() against combine()
    tensor_groups = torch.tensor(groups)
    ids = interleaved({
        "combine numpy ids": lambda: GDPOCombiner().combine(scores, groups, weights),
        "combine torch ids": lambda: GDPOCombiner().combine(scores, tensor_groups, weights),
        "advantages() numpy ids": lambda: advantages(scores, groups, weights),
        "advantages() torch ids": lambda: advantages(scores, tensor_groups, weights),
        "advantages() list ids": lambda: advantages(scores, groups.tolist(), weights),
    }, args.repeats)
    for name, (wall, cpu) in ids.items():
        print(f"gdpo {name}: {cpu * 1e3:.1f} ms CPU", flush=True)

    n_loop = min(args.loop_groups * G, args.rollouts)
    loop_wall, loop_cpu = best_of(lambda: gdpo_python_loop(scores[:n_loop], groups[:n_loop], weights), 1)
    loop_seconds = (loop_wall * args.rollouts / n_loop, loop_cpu * args.rollouts / n_loop)
    extrapolated = n_loop < args.rollouts
    check = np.abs(gdpo_python_loop(scores[: 8000], groups[: 8000], weights) - GDPOCombiner().combine(scores[: 8000], groups[: 8000], weights)).max()

    gdpo_wall, gdpo_cpu = next(s for n, _, s, _ in rows if n == "gdpo")
    grpo_cpu = next(s for n, _, s, _ in rows if n == "grpo")[1]
    speedup = loop_seconds[1] / gdpo_cpu
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    import polyreward

    source = Path(polyreward.__file__).resolve().parent.parent
    source = "this tree's src" if source == (Path(__file__).resolve().parent.parent / "src") else str(source)
    lines = [
        "# Combiner benchmark",
        "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC · {machine()}, torch {torch.__version__} · one core ({pinning}) · "
        f"{args.rollouts:,} rollouts x {K} rewards, G = {G} ({args.rollouts // G:,} groups), 1% NaN · best of {args.repeats} · "
        f"1-minute load average {load:.1f} on {os.cpu_count()} cores at the end · polyreward from {source}",
        "",
        "## Against TRL's own torch ops (issue #35: >= 2x)",
        "",
        "TRL 1.16's two aggregations as its trainer computes them (torch, one thread), against the combiner with a tensor of the "
        "same dtype in and out (the conversion to float64 and back included). Interleaved in the same run; CPU time.",
        "",
        "| polyreward | TRL's ops | dtype | TRL (ms) | polyreward (ms) | TRL / polyreward |",
        "|---|---|---|---:|---:|---:|",
    ]
    trl_names = {"grpo": "sum_then_normalize", "gdpo": "normalize_then_sum"}
    lines += [f"| {ours} | {trl_names[ours]} | {label} | {trl * 1e3:.1f} | {mine * 1e3:.1f} | {trl / mine:.2f}x |"
              for ours, label, trl, mine in anchors]
    base = ids["combine numpy ids"][1]
    lines += [
        "",
        "## Group ids and the `advantages()` entry point (GDPO, float64 numpy scores)",
        "",
        "| call | CPU time (ms) | / `combine` with numpy ids |",
        "|---|---:|---:|",
    ]
    lines += [f"| {name} | {cpu * 1e3:.1f} | {cpu / base:.2f} |" for name, (_, cpu) in ids.items()]
    lines += [
        "",
        "## Every registered combiner",
        "",
        "| combiner | exactness | CPU time (ms) | wall time (ms) | CPU / `grpo` | note |",
        "|---|---|---:|---:|---:|---|",
    ]
    lines += [f"| {name} | {exactness} | {cpu * 1e3:.1f} | {wall * 1e3:.1f} | {cpu / grpo_cpu:.2f} | {note} |"
              for name, exactness, (wall, cpu), note in rows]
    lines += [
        f"| gdpo, per-group Python loop (anchor) | exact | {loop_seconds[1] * 1e3:.0f} | {loop_seconds[0] * 1e3:.0f} | "
        f"{loop_seconds[1] / grpo_cpu:.0f} | "
        + (f"timed on {n_loop:,} rollouts, extrapolated linearly" if extrapolated else "measured")
        + f"; max abs diff vs vectorised {check:.1e} |",
        "",
        f"GDPO (numpy, one core): **{gdpo_cpu * 1e3:.1f} ms CPU time** ({gdpo_wall * 1e3:.1f} ms wall) "
        f"(issue 3 target <= 100 ms: {'met' if gdpo_cpu <= 0.1 else 'NOT met'} on CPU time); "
        f"**{speedup:.0f}x** the per-group Python loop in CPU time (target >= 20x: {'met' if speedup >= 20 else 'NOT met'}).",
        "",
        "The machine is shared with other jobs: wall times include time-slicing by them, and a loaded machine slows even the "
        "CPU time of this single-threaded process (caches, memory bandwidth), so compare figures within one run.",
        "",
    ]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
