"""CRPO rewards with GDPO vs DRPO on the skewed clinical mix: a CPU-scale run of both recipes, plus DRPO's cost.

    python benchmarks/crpo_drpo.py [--steps 4] [--model smollm2-135m] [--prompts 4] [--generations 4] [--max-new-tokens 48]

1. ``--steps`` steps of the bundled trainer with ``examples/train/medqa_crpo.yaml`` (GDPO) and
   ``medqa_crpo_drpo.yaml`` (DRPO), same seed and prompts, small CPU settings. Per step: each objective's mean,
   each domain's share of the rollouts and of the advantage mass Σ|A| (a probe computes it for GDPO as DRPO's
   diagnostics do), step and scoring time.
2. The combiners alone on synthetic batches at recipe scale (16 questions x 8 rollouts, 5 objectives, the recipe's
   skewed domain mix), 30 consecutive steps: DRPO's time per call against GDPO's (the anchor), at the first and the
   last step -- DRPO re-clusters every domain's whole question history each step.

Writes benchmarks/results/crpo_drpo_<device>.json and .md (settings, machine, date). Rewards of a few steps of a
135M model are noise; the run shows the recipes work end to end and where DRPO puts the advantage mass.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results"
RECIPES = {"gdpo": ROOT / "examples/train/medqa_crpo.yaml", "drpo": ROOT / "examples/train/medqa_crpo_drpo.yaml"}


def mass_by_domain(advantages: np.ndarray, domains) -> dict[str, float]:
    """Each domain's share of Σ|A| and of the rollouts."""
    magnitude = np.abs(np.asarray(advantages, dtype=np.float64))
    labels = np.asarray([str(d) for d in domains], dtype=object)
    out = {}
    for d in dict.fromkeys(labels):
        rows = labels == d
        out[f"advantage_mass/{d}"] = float(magnitude[rows].sum() / magnitude.sum()) if magnitude.sum() > 0 else 0.0
        out[f"rollout_share/{d}"] = float(rows.mean())
    return out


def probe(inner):
    """``inner`` plus each domain's advantage mass in ``diagnostics()`` (reads the recipe's domain column)."""
    from polyreward.combiner import Combiner

    class DomainMassProbe(Combiner):
        type_name = inner.type_name
        row_columns = ("domain",)

        def combine(self, scores, groups, weights=None, domain=None):
            advantages = inner.combine(scores, groups, weights, **({"domain": domain} if inner.row_columns else {}))
            self.last = mass_by_domain(advantages, domain)
            return advantages

        def diagnostics(self):
            return {**inner.diagnostics(), **self.last}

        def state_dict(self):
            return inner.state_dict()

    return DomainMassProbe()


def run_recipe(name: str, args: argparse.Namespace, out: Path) -> dict:
    from polyreward.config import load_config
    from polyreward.trainer.loop import train

    overrides = {"model": args.model, "prompts_per_step": args.prompts, "num_generations": args.generations,
                 "max_new_tokens": args.max_new_tokens, "gradient_accumulation_steps": 1, "save_steps": 0, "device": "cpu"}
    started = time.perf_counter()
    result = train(RECIPES[name], max_steps=args.steps, output_dir=out / name, overrides=overrides, progress=False,
                   combiner=probe(load_config(RECIPES[name]).build_combiner()))
    steps = []
    for row in result.metrics:
        keep = ("step", "time/step", "time/scoring", "reward")
        steps.append({k: v for k, v in row.items() if k in keep or (k.startswith("reward/") and k.endswith("/mean"))
                      or k.startswith(("combiner/advantage_mass/", "combiner/rollout_share/"))})
    return {"seconds": time.perf_counter() - started, "steps": steps}


def summarise(steps: list[dict]) -> dict[str, float]:
    """Mean over steps of every per-domain share (a domain absent from a step counts 0 there)."""
    keys = sorted({k for s in steps for k in s if k.startswith("combiner/")})
    return {k.removeprefix("combiner/"): float(np.mean([s.get(k, 0.0) for s in steps])) for k in keys}


def combiner_cost(steps: int = 30, seed: int = 0) -> dict:
    from polyreward.combiners import DRPOCombiner, GDPOCombiner

    rng = np.random.default_rng(seed)
    domains = ["medqa"] * 9 + ["medmcqa/Surgery", "medmcqa/Pathology", "medmcqa/Pharmacology", "medmcqa/Anatomy"] + ["pubmedqa"] * 2
    weights = np.array([10, 1, 0.5, 1, 1.0])
    drpo, gdpo = DRPOCombiner(), GDPOCombiner()
    times = {"drpo": [], "gdpo": []}
    for step in range(steps):
        q, g = 16, 8
        scores = np.column_stack([rng.integers(0, 2, q * g), rng.choice([0, 1, 1.5], q * g), rng.uniform(0.9, 1, q * g),
                                  rng.choice([0, 0.5, 1], q * g), rng.integers(0, 6, q * g) / 5])
        groups = np.repeat(np.arange(step * q, (step + 1) * q), g)
        domain = np.repeat(rng.choice(domains, q), g)
        for name, call in (("gdpo", lambda: gdpo.combine(scores, groups, weights)),
                           ("drpo", lambda: drpo.combine(scores, groups, weights, domain=domain))):
            started = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - started)
    return {
        "steps": steps, "rollouts_per_step": 128, "questions_in_history": int(sum(len(h.vectors) for h in drpo._history.values())),
        "gdpo_ms_median": 1e3 * float(np.median(times["gdpo"])),
        "drpo_ms_first_step": 1e3 * times["drpo"][0], "drpo_ms_last_step": 1e3 * times["drpo"][-1],
        "drpo_ms_median": 1e3 * float(np.median(times["drpo"])),
        "ratio_drpo_to_gdpo_median": float(np.median(times["drpo"]) / np.median(times["gdpo"])),
    }


def domain_mix(path: Path) -> dict[str, int]:
    return dict(Counter(json.loads(line)["domain"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()))


def write_markdown(report: dict, path: Path) -> None:
    lines = [f"# CRPO rewards: GDPO vs DRPO ({report['device']}, {report['date']})", "",
             f"Machine: {report['machine']} (shared with other jobs; times are indicative).",
             f"Settings: {json.dumps(report['settings'])}. Training mix (rows per domain): {json.dumps(report['mix'])}.", "",
             "## Objective means per step", "", "| step | combiner | " + " | ".join(report["objectives"]) + " | step s | scoring s |",
             "|---" * (len(report["objectives"]) + 5) + "|"]
    for name, run in report["runs"].items():
        for s in run["steps"]:
            values = " | ".join(f"{s.get(f'reward/{o}/mean', float('nan')):.3f}" for o in report["objectives"])
            lines.append(f"| {s['step']} | {name} | {values} | {s['time/step']:.1f} | {s['time/scoring']:.2f} |")
    lines += ["", "## Share of the advantage mass Σ|A| by domain (mean over steps) vs share of rollouts", "",
              "| domain | rollouts | GDPO mass | DRPO mass |", "|---|---|---|---|"]
    gdpo, drpo = report["runs"]["gdpo"]["domain_shares"], report["runs"]["drpo"]["domain_shares"]
    for d in sorted({k.split("/", 1)[1] for k in gdpo if k.startswith("advantage_mass/")} | {k.split("/", 1)[1] for k in drpo if k.startswith("advantage_mass/")}):
        lines.append(f"| {d} | {gdpo.get(f'rollout_share/{d}', 0):.3f} | {gdpo.get(f'advantage_mass/{d}', 0):.3f} | {drpo.get(f'advantage_mass/{d}', 0):.3f} |")
    cost = report["combiner_cost"]
    lines += ["", "## Combiner cost (synthetic batches, 16 questions x 8 rollouts, 5 objectives)", "",
              f"GDPO median {cost['gdpo_ms_median']:.2f} ms per call (anchor); DRPO first step {cost['drpo_ms_first_step']:.1f} ms, "
              f"step {cost['steps']} {cost['drpo_ms_last_step']:.1f} ms ({cost['questions_in_history']} questions in history), "
              f"median ratio DRPO/GDPO {cost['ratio_drpo_to_gdpo_median']:.0f}x. DRPO's cost is sklearn k-means fits "
              "(up to k_max + 1 per domain and step) on a history that grows every step.", "", report["note"]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--max-new-tokens", type=int, default=48)
    parser.add_argument("--output-dir", default="runs/crpo_drpo")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).parent))
    from machine_info import describe_machine

    out = Path(args.output_dir)
    runs = {}
    for name in RECIPES:
        runs[name] = run_recipe(name, args, out)
        runs[name]["domain_shares"] = summarise(runs[name]["steps"])
        print(name, f"{runs[name]['seconds']:.0f} s", json.dumps(runs[name]["domain_shares"]))
    report = {
        "date": datetime.date.today().isoformat(), "device": "cpu", "machine": describe_machine(),
        "settings": {"model": args.model, "steps": args.steps, "prompts_per_step": args.prompts, "num_generations": args.generations,
                     "max_new_tokens": args.max_new_tokens, "recipes": {k: str(v.relative_to(ROOT)) for k, v in RECIPES.items()}},
        "mix": domain_mix(ROOT / "examples/train/medqa_crpo_train.jsonl"),
        "objectives": ["accuracy", "format", "english", "faithfulness", "comprehensiveness"],
        "runs": runs, "combiner_cost": combiner_cost(),
        "note": ("A CPU-scale smoke run on a shared, loaded 2-core machine: a few steps of a 135M model with short completions, "
                 "so objective means are noise, not a learning result; a learning comparison needs the recipes' 200 steps on a GPU "
                 "(not run here)."),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "crpo_drpo_cpu.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    write_markdown(report, RESULTS / "crpo_drpo_cpu.md")
    print((RESULTS / "crpo_drpo_cpu.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
