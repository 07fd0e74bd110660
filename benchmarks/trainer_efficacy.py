"""GDPO vs sum-then-normalise (GRPO on the weighted sum) with the bundled trainer, on CPU, over several seeds.

    OMP_NUM_THREADS=1 python benchmarks/trainer_efficacy.py [--steps 16] [--seeds 0 1 2 3 4] [--runs-dir DIR]
    python benchmarks/trainer_efficacy.py --summarise-only --runs-dir DIR     # table + plot from finished runs

The task is the first-run recipe (``examples/train/first_run.yaml``: SmolLM2-135M-Instruct, one-digit sums and
products "Reply with only the number") with two objectives that differ in difficulty and scale:

* ``accuracy`` (``math_accuracy``, weight 1): binary, 0 or 1 — the last number of the reply equals the answer;
* ``brevity`` (``overlong_penalty``, weight 0.5): continuous in [-1, 0] — 0 up to 4 tokens, falling linearly to -1
  at 16 tokens (``max_completion_len`` 16, ``soft_punish_cache`` 12, and ``max_new_tokens`` 16).

Both arms run the same seeds (same prompt order; the sampling diverges once the updates differ) and the same
settings; only ``combiner`` differs: ``gdpo`` normalises each reward within its group before the weighted sum,
``grpo`` normalises the weighted sum. The runs alternate (gdpo seed s, grpo seed s, ...) so that load from other
processes hits both arms alike. Each run ends with a greedy evaluation of the 32 held-out prompts
(``first_run_heldout.jsonl``), and the base model is evaluated once.

End-of-run measures per objective: the mean of the last ``--tail`` training batches (sampled at temperature 1) and
the greedy held-out mean. Reported as mean ± 95 % t-interval over seeds per arm, and the paired difference
GDPO − GRPO per seed with its t-interval (the seeds pair the arms). The curves are the per-step means over seeds,
drawn by ``polyreward report`` (two metrics files overlaid) and copied to ``benchmarks/results/efficacy_cpu.png``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
RECIPE = ROOT / "examples" / "train" / "first_run.yaml"
HELDOUT = ROOT / "examples" / "train" / "first_run_heldout.jsonl"
OBJECTIVES = ("accuracy", "brevity")
ARMS = ("gdpo", "grpo")
# the task: first_run.yaml with a tighter length budget, fewer rollouts per step and a constant learning rate
SETTINGS = {"prompts_per_step": 2, "num_generations": 4, "max_new_tokens": 16, "learning_rate": 3.0e-5,
            "lr_scheduler": "constant", "device": "cpu"}
BREVITY = {"max_completion_len": 16, "soft_punish_cache": 12}
# two-sided 95 % Student t quantiles, t_{0.975, df}
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 19: 2.093, 29: 2.045}


def config(combiner: str, steps: int, seed: int, output_dir: Path) -> dict:
    """The recipe as a mapping, with this benchmark's settings (the YAML's dataset path made absolute)."""
    import yaml

    recipe = yaml.safe_load(RECIPE.read_text(encoding="utf-8"))
    for reward in recipe["rewards"]:
        if reward["name"] == "brevity":
            reward.update(BREVITY)
    recipe["combiner"] = combiner
    recipe["train"].update(SETTINGS, max_steps=steps, seed=seed, output_dir=str(output_dir),
                           dataset=str(RECIPE.parent / recipe["train"]["dataset"]))
    return recipe


def greedy_heldout(recipe: dict, model: str | None) -> dict:
    from polyreward.config import parse_config
    from polyreward.trainer.evaluate import evaluate

    summary = evaluate(parse_config(recipe), model=model, dataset=str(HELDOUT), temperature=0.0)
    return {name: summary[f"reward/{name}/mean"] for name in OBJECTIVES}


def one_run(combiner: str, seed: int, steps: int, runs_dir: Path) -> dict:
    """Train one arm for one seed, evaluate greedily, drop the checkpoint; returns the run's record."""
    from polyreward.trainer.loop import train

    out = runs_dir / f"{combiner}-seed{seed}"
    shutil.rmtree(out, ignore_errors=True)
    recipe = config(combiner, steps, seed, out)
    started = time.perf_counter()
    result = train(recipe, progress=False)
    trained = time.perf_counter()
    heldout = greedy_heldout(recipe, str(result.checkpoint))
    shutil.rmtree(result.checkpoint)  # 1.6 GB each; the metrics file stays
    rows = result.metrics
    record = {"combiner": combiner, "seed": seed, "steps": len(rows), "train_s": trained - started,
              "eval_s": time.perf_counter() - trained, "heldout_greedy": heldout,
              "curves": {name: [r[f"reward/{name}/mean"] for r in rows] for name in OBJECTIVES},
              "mean_length": [r["completions/mean_length"] for r in rows], "entropy": [r["entropy"] for r in rows]}
    (out / "record.json").write_text(json.dumps(record), encoding="utf-8")
    return record


def interval(values: list[float]) -> dict:
    """Mean and 95 % Student-t half-width over ``values`` (seeds)."""
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return {"mean": mean, "half_width": math.nan, "n": n}
    t = T975.get(n - 1) or T975[max(k for k in T975 if k <= n - 1)]
    return {"mean": mean, "half_width": t * statistics.stdev(values) / math.sqrt(n), "n": n}


def summarise(records: list[dict], tail: int) -> dict:
    by_arm = {arm: sorted((r for r in records if r["combiner"] == arm), key=lambda r: r["seed"]) for arm in ARMS}
    paired_seeds = sorted(set.intersection(*({r["seed"] for r in runs} for runs in by_arm.values())))
    table: dict = {}
    for name in OBJECTIVES:
        end = {arm: {r["seed"]: statistics.fmean(r["curves"][name][-tail:]) for r in runs} for arm, runs in by_arm.items()}
        greedy = {arm: {r["seed"]: r["heldout_greedy"][name] for r in runs} for arm, runs in by_arm.items()}
        first = {arm: {r["seed"]: statistics.fmean(r["curves"][name][:tail]) for r in runs} for arm, runs in by_arm.items()}
        table[name] = {
            **{f"{arm}_first_{tail}_steps": interval(list(first[arm].values())) for arm in ARMS},
            **{f"{arm}_last_{tail}_steps": interval(list(end[arm].values())) for arm in ARMS},
            **{f"{arm}_heldout_greedy": interval(list(greedy[arm].values())) for arm in ARMS},
            f"gdpo_minus_grpo_last_{tail}_steps": interval([end["gdpo"][s] - end["grpo"][s] for s in paired_seeds]),
            "gdpo_minus_grpo_heldout_greedy": interval([greedy["gdpo"][s] - greedy["grpo"][s] for s in paired_seeds]),
        }
    return {"paired_seeds": paired_seeds, "tail": tail, "table": table}


def mean_curves(records: list[dict], runs_dir: Path) -> list[Path]:
    """One metrics file per arm, each column the per-step mean over seeds (what ``polyreward report`` overlays)."""
    paths = []
    for arm in ARMS:
        runs = [r for r in records if r["combiner"] == arm]
        steps = min(r["steps"] for r in runs)
        path = runs_dir / f"{arm} (mean of {len(runs)} seeds)" / "metrics.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = []
        for i in range(steps):
            row = {"step": i + 1, **{f"reward/{n}/mean": statistics.fmean(r["curves"][n][i] for r in runs) for n in OBJECTIVES},
                   "completions/mean_length": statistics.fmean(r["mean_length"][i] for r in runs),
                   "entropy": statistics.fmean(r["entropy"][i] for r in runs)}
            lines.append(json.dumps(row))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def plot(paths: list[Path], runs_dir: Path) -> Path:
    report_dir = runs_dir / "report"
    subprocess.run([sys.executable, "-m", "polyreward", "report", *map(str, paths), "-o", str(report_dir),
                    "--title", "GDPO vs sum-then-normalise (mean over seeds)"], check=True)
    target = RESULTS / "efficacy_cpu.png"
    shutil.copyfile(report_dir / "curves_1.png", target)
    return target


def _cell(value: dict, signed: bool = False) -> str:
    return f"{value['mean']:{'+' if signed else ''}.3f} ± {value['half_width']:.3f}"


def verdict(diff: dict) -> str:
    low, high = diff["mean"] - diff["half_width"], diff["mean"] + diff["half_width"]
    if low > 0:
        return "GDPO higher (the interval excludes 0)"
    if high < 0:
        return "sum-then-normalise higher (the interval excludes 0)"
    return "no difference beyond noise (the interval contains 0)"


def markdown(report: dict) -> str:
    """``efficacy_cpu.md``: settings, the per-objective table (mean ± 95 % t-interval over seeds) and the verdicts."""
    tail, table, s = report["tail"], report["table"], report["settings"]
    base = report["base_model_heldout_greedy"] or {}
    durations = [r["train_s"] + r["eval_s"] for r in report["runs"]]
    lines = [
        "# GDPO vs sum-then-normalise: the bundled trainer on the first-run arithmetic task (CPU)", "",
        f"**Date:** {report['date']}. **Machine:** {report['machine']}. One run (training + held-out evaluation) took "
        f"{min(durations):.0f}-{max(durations):.0f} s on the loaded machine.", "",
        f"**Task** (`benchmarks/trainer_efficacy.py`, recipe `{report['recipe']}`): SmolLM2-135M-Instruct, 64 prompts "
        "\"What is A op B? Reply with only the number.\" (A, B in 1..9, + or ×). Two objectives that differ in difficulty "
        "and scale: `accuracy` (`math_accuracy`, weight 1, binary 0/1) and `brevity` (`overlong_penalty`, weight 0.5, "
        f"continuous in [-1, 0]: 0 up to 4 tokens, -1 at {s['brevity']['max_completion_len']} tokens).", "",
        f"**Settings:** {s['prompts_per_step']} prompts × G = {s['num_generations']} per step, {s['max_new_tokens']} new tokens, "
        f"temperature 1, loss dapo, β = 0, lr {s['learning_rate']:g} ({s['lr_scheduler']}), {s['steps']} steps, fp32, "
        f"seeds {', '.join(map(str, s['seeds']))} for each combiner (the same seeds, runs alternating). Only `combiner` differs: "
        "`gdpo` normalises each reward within its group, then sums; `grpo` normalises the weighted sum (TRL's default).", "",
        "```bash", f"OMP_NUM_THREADS=1 python benchmarks/trainer_efficacy.py --steps {s['steps']} --seeds {' '.join(map(str, s['seeds']))}", "```", "",
        f"Mean ± 95 % t-interval over {len(s['seeds'])} seeds. \"Training batches\" are the rollouts sampled at temperature 1 "
        f"(mean of the first / last {tail} steps, {tail * s['prompts_per_step'] * s['num_generations']} rollouts per run); "
        "\"held-out greedy\" is one greedy completion for each of the 32 prompts of `first_run_heldout.jsonl` after the last step. "
        "The difference column pairs the runs by seed.", "",
        "| objective | measure | base model | GDPO | sum-then-normalise | GDPO − sum-then-normalise |", "|---|---|---|---|---|---|",
    ]
    for name in OBJECTIVES:
        t = table[name]
        lines.append(f"| {name} | training batches, first {tail} steps | | {_cell(t[f'gdpo_first_{tail}_steps'])} | "
                     f"{_cell(t[f'grpo_first_{tail}_steps'])} | |")
        lines.append(f"| {name} | training batches, last {tail} steps | | {_cell(t[f'gdpo_last_{tail}_steps'])} | "
                     f"{_cell(t[f'grpo_last_{tail}_steps'])} | {_cell(t[f'gdpo_minus_grpo_last_{tail}_steps'], True)} |")
        lines.append(f"| {name} | held-out greedy, after | {base.get(name, float('nan')):.3f} | {_cell(t['gdpo_heldout_greedy'])} | "
                     f"{_cell(t['grpo_heldout_greedy'])} | {_cell(t['gdpo_minus_grpo_heldout_greedy'], True)} |")
    lines += ["", "**Verdict per objective (paired difference, 95 %):**", ""]
    for name in OBJECTIVES:
        t = table[name]
        lines.append(f"- {name}: training batches, {verdict(t[f'gdpo_minus_grpo_last_{tail}_steps'])}; "
                     f"held-out greedy, {verdict(t['gdpo_minus_grpo_heldout_greedy'])}.")
    lines += ["", "Per run (last " + str(tail) + " training steps / held-out greedy):", "",
              "| seed | combiner | accuracy | brevity | held-out accuracy | held-out brevity |", "|---|---|---|---|---|---|"]
    for run in sorted(report["runs"], key=lambda r: (r["seed"], r["combiner"])):
        end = {n: statistics.fmean(run["curves"][n][-tail:]) for n in OBJECTIVES}
        lines.append(f"| {run['seed']} | {run['combiner']} | {end['accuracy']:.3f} | {end['brevity']:.3f} | "
                     f"{run['heldout_greedy']['accuracy']:.3f} | {run['heldout_greedy']['brevity']:.3f} |")
    lines += ["", "Curves (per-step mean over seeds of the training batches; `polyreward report` overlay of the two arms):", "",
              f"![GDPO vs sum-then-normalise]({Path(report['plot']).name})", "",
              "Raw numbers, per-step curves of every run included: `efficacy_cpu.json`.", ""]
    return "\n".join(lines)


def machine() -> str:
    import platform

    import torch
    import transformers

    return (f"{os.cpu_count()} CPU cores ({platform.processor() or platform.machine()}), shared with other jobs, no GPU, "
            f"Python {platform.python_version()}, torch {torch.__version__}, transformers {transformers.__version__}, "
            f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=16)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--tail", type=int, default=5, help="end-of-run measure: mean of the last TAIL training batches")
    parser.add_argument("--runs-dir", type=Path, default=Path(tempfile.gettempdir()) / "polyreward-efficacy-cpu")
    parser.add_argument("--summarise-only", action="store_true", help="read the finished runs' record.json files")
    args = parser.parse_args(argv)
    args.runs_dir.mkdir(parents=True, exist_ok=True)
    base_file = args.runs_dir / "base_model.json"
    if not args.summarise_only:
        started = time.perf_counter()
        base_file.write_text(json.dumps(greedy_heldout(config("grpo", 1, 0, args.runs_dir / "unused"), None)), encoding="utf-8")
        for seed in args.seeds:
            for arm in ARMS:
                record = one_run(arm, seed, args.steps, args.runs_dir)
                end = {n: round(statistics.fmean(record["curves"][n][-args.tail:]), 3) for n in OBJECTIVES}
                print(f"{arm} seed {seed}: last {args.tail} steps {end}, held-out greedy {record['heldout_greedy']}, "
                      f"{record['train_s']:.0f} s train + {record['eval_s']:.0f} s eval "
                      f"({time.perf_counter() - started:.0f} s so far)", flush=True)
    records = [json.loads(p.read_text()) for p in sorted(args.runs_dir.glob("*-seed*/record.json"))]
    report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(), "recipe": str(RECIPE.relative_to(ROOT)),
              "settings": {**SETTINGS, "steps": args.steps, "brevity": BREVITY, "seeds": sorted({r["seed"] for r in records})},
              "base_model_heldout_greedy": json.loads(base_file.read_text()) if base_file.exists() else None,
              **summarise(records, args.tail), "runs": records}
    report["plot"] = str(plot(mean_curves(records, args.runs_dir), args.runs_dir).relative_to(ROOT))
    (RESULTS / "efficacy_cpu.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    (RESULTS / "efficacy_cpu.md").write_text(markdown(report), encoding="utf-8")
    for name, rows in report["table"].items():
        for key, value in rows.items():
            print(f"{name:<9} {key:<32} {value['mean']:+.3f} ± {value['half_width']:.3f} (n={value['n']})")
    print(f"wrote {RESULTS / 'efficacy_cpu.json'}, efficacy_cpu.md and {report['plot']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
