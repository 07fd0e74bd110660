"""MedQA accuracy before and after a short run of the bundled trainer (the recipe in examples/train/).

    python benchmarks/medqa_before_after.py [--config examples/train/medqa_gdpo.yaml] [--steps 20] [--eval-limit 100]
                                            [--set KEY=VALUE ...] [--tag gpu]

1. greedy evaluation of the recipe's model on the held-out prompts (``examples/train/medqa_eval.jsonl``,
   100 MedQA questions never used for training): every reward's mean, i.e. accuracy and format;
2. ``--steps`` training steps with the recipe (``--set`` replaces train keys, e.g. a smaller batch on CPU);
3. the same greedy evaluation of the final checkpoint.

Writes benchmarks/results/medqa_before_after_<tag>.json (figures, settings, per-step reward means, machine,
date) and prints a summary. Greedy decoding makes the two evaluations deterministic for a given model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default=str(ROOT / "examples/train/medqa_gdpo.yaml"))
    parser.add_argument("--eval", default=str(ROOT / "examples/train/medqa_eval.jsonl"), help="held-out prompts")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--eval-limit", type=int, default=100)
    parser.add_argument("--eval-batch-size", type=int, default=100)
    parser.add_argument("--eval-max-new-tokens", type=int, default=None, help="default: the recipe's max_new_tokens")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--output-dir", default="runs/medqa_before_after")
    parser.add_argument("--tag", default=None, help="results file suffix (default: the device type)")
    args = parser.parse_args(argv)

    import torch

    from polyreward.config import parse_key_values
    from polyreward.trainer.evaluate import evaluate
    from polyreward.trainer.loop import train

    sys.path.insert(0, str(Path(__file__).parent))
    from machine_info import describe_machine

    overrides = parse_key_values(args.overrides, "--set")
    eval_overrides = {**overrides, **({"max_new_tokens": args.eval_max_new_tokens} if args.eval_max_new_tokens else {})}
    device = overrides.get("device") or ("cuda" if torch.cuda.is_available() else "cpu")
    tag = args.tag or device

    def timed_evaluate(model: str | None) -> dict:
        started = time.perf_counter()
        summary = evaluate(args.config, model=model, dataset=args.eval, limit=args.eval_limit, batch_size=args.eval_batch_size,
                           overrides=eval_overrides)
        return {**summary, "seconds": round(time.perf_counter() - started, 1)}

    before = timed_evaluate(None)
    print("before:", json.dumps(before))
    started = time.perf_counter()
    result = train(args.config, max_steps=args.steps, output_dir=args.output_dir, progress=False, overrides=overrides)
    train_seconds = time.perf_counter() - started
    print(f"trained {result.step} steps in {train_seconds:.0f} s; checkpoint {result.checkpoint}")
    after = timed_evaluate(str(result.checkpoint))
    print("after:", json.dumps(after))

    names = [k.split("/")[1] for k in before if k.startswith("reward/") and k.endswith("/mean")]
    curves = {name: [round(row[f"reward/{name}/mean"], 4) for row in result.metrics] for name in names}
    record = {
        "date": time.strftime("%Y-%m-%d"), "machine": describe_machine(), "device": device,
        "gpu": torch.cuda.get_device_name() if device == "cuda" else None,
        "torch": torch.__version__, "config": os.path.relpath(args.config, ROOT), "overrides": overrides, "steps": result.step,
        "eval": {"file": os.path.relpath(args.eval, ROOT), "rows": before["rows"], "greedy": True,
                 "max_new_tokens": args.eval_max_new_tokens},
        "before": before, "after": after, "train_seconds": round(train_seconds, 1),
        "train_reward_means_per_step": curves,
        "train_tokens_per_second": [round(row["tokens_per_second"], 1) for row in result.metrics],
        "peak_memory_mb": max(row["peak_memory_mb"] for row in result.metrics),
    }
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"medqa_before_after_{tag}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    for name in names:
        print(f"{name:<10} before {before[f'reward/{name}/mean']:.3f}  after {after[f'reward/{name}/mean']:.3f}")
    print("wrote", path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
