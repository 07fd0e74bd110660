"""Bundled trainer vs TRL 1.16 GRPOTrainer: step time (CPU) or tokens/s + peak memory (GPU).

    python benchmarks/trainer.py speed [--device cpu|cuda] [--model M] [--repeats 2] [--decode D] [--tiny]   # ours vs TRL

(GDPO vs sum-then-normalise, whether the trainer learns: benchmarks/trainer_efficacy.py.)

Speed: both trainers get the same model (CPU: the tiny random Qwen2 with the real 151,936-token
tokenizer, or ``--model smollm2-135m``; CUDA: SmolLM2-135M-Instruct, bf16 autocast), the same chat prompts, G, max_new_tokens,
temperature, loss (``dapo``, β = 0, one iteration, no gradient checkpointing for either; TRL's
default is on) and reward. Each run is a separate process; the two alternate ``--repeats`` times so
that load from other processes hits both alike. The step time is the median over the steps after
the first two (warm-up). Ratio = ours / TRL (target <= 1.0 on CPU); on CUDA, tokens/s ratio
(target >= 1.2) and peak memory. ``--decode`` sets our sampler loop (default ``auto``: CUDA graphs on
CUDA, eager on CPU; trainer/decode.py). ``--model smollm2-135m-random`` (or any folder holding only a
config and a tokenizer, e.g. one written by ``python benchmarks/random_weights.py arch DIR``) gives both
trainers the same seed-0 random weights (benchmarks/random_weights.py): throughput only (random weights
rarely emit EOS, so every rollout runs to ``max_new_tokens``). ``--tiny`` shrinks the run to 2 prompts x
G=2 x 4 tokens, 3 steps: a smoke test of the script itself.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("WANDB_DISABLED", "true")

from polyreward.registry import register_reward  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))  # sibling helpers, also under PYTHONSAFEPATH (the GPU set-up)
from random_weights import model_folder  # noqa: E402

RESULTS = Path(__file__).parent / "results"
QUESTIONS = [
    "What is 17 * 23?", "Name the organ that produces insulin.", "Solve for x: 2x + 3 = 11.", "What is the derivative of x^3?",
    "Compute 1+2+...+10.", "Which vitamin deficiency causes scurvy?", "If a train travels 60 km in 1.5 hours, what is its speed?",
    "What is the most common cause of community-acquired pneumonia?",
]


@register_reward
class ContainsText(RolloutReward):
    """1 when the completion contains ``text``."""

    type_name = "bench_contains_text"

    def __init__(self, name: str | None = None, weight: float = 1.0, text: str = "\n") -> None:
        super().__init__(name, weight)
        self.text = text

    def score_rollout(self, completion: str, row) -> Scored:
        return Scored(1.0 if self.text in completion else 0.0)


def speed_settings(device: str, model: str | None = None, decode: str = "auto", tiny: bool = False) -> dict:
    if device == "cuda":
        s = {"model": model or "smollm2-135m", "prompts": 8, "G": 8, "max_new_tokens": 128, "steps": 8, "bf16": True}
    elif model is not None and model.startswith("smollm2-135m"):  # a 135M model on CPU: fewer, shorter rollouts
        s = {"model": model, "prompts": 2, "G": 4, "max_new_tokens": 32, "steps": 5, "bf16": False}
    else:
        s = {"model": model or "tiny-qwen2", "prompts": 4, "G": 4, "max_new_tokens": 16, "steps": 7, "bf16": False}
    if tiny:
        s.update(prompts=2, G=2, max_new_tokens=4, steps=3)
    return {**s, "decode": decode}


# ----------------------------------------------------------------------------------------- one run per process
def run_ours(s: dict, device: str, out: Path) -> dict:
    import torch

    from polyreward.trainer.decode import resolve_decode
    from polyreward.trainer.loop import train

    data = out / "prompts.jsonl"
    data.write_text("".join(json.dumps({"prompt": [{"role": "user", "content": q}]}) + "\n" for q in QUESTIONS), encoding="utf-8")
    config = {
        "rewards": [{"name": "has_e", "type": "bench_contains_text", "text": "e"}],
        "train": {"model": s["model_dir"], "dataset": str(data), "prompts_per_step": s["prompts"], "num_generations": s["G"],
                  "max_new_tokens": s["max_new_tokens"], "learning_rate": 1e-6, "loss_type": "dapo", "beta": 0.0,
                  "max_steps": s["steps"], "seed": 0, "bf16": s["bf16"], "device": device, "output_dir": str(out / "ours"),
                  "decode": s["decode"]},
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = train(config, progress=False)
    failed = [str(w.message) for w in caught if "decoding failed" in str(w.message)]
    decode = resolve_decode(s["decode"], torch.device(device))
    rows = result.metrics
    # the whole process, as measured for TRL (the metrics rows hold per-step peaks)
    peak = torch.cuda.max_memory_allocated() / 2**20 if device == "cuda" else _rss_peak_mb()
    return {"step_times": [r["time/step"] for r in rows], "tokens": [r["completions/mean_length"] * s["prompts"] * s["G"] for r in rows],
            "peak_memory_mb": peak, "generation_times": [r["time/generation"] for r in rows],
            "decode": f"eager (fallback: {failed[0][:200]})" if failed else decode}


def run_trl(s: dict, device: str, out: Path) -> dict:
    import torch
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    class StepTimer(TrainerCallback):
        def __init__(self) -> None:
            self.times, self.started = [], 0.0

        def on_step_begin(self, args, state, control, **kwargs):
            self.started = time.perf_counter()

        def on_step_end(self, args, state, control, **kwargs):
            self.times.append(time.perf_counter() - self.started)

    dataset = Dataset.from_list([{"prompt": [{"role": "user", "content": q}]} for q in QUESTIONS])
    args = GRPOConfig(
        output_dir=str(out / "trl"), max_steps=s["steps"], per_device_train_batch_size=s["prompts"] * s["G"], num_generations=s["G"],
        max_completion_length=s["max_new_tokens"], learning_rate=1e-6, loss_type="dapo", beta=0.0, logging_steps=1, report_to=[],
        use_cpu=device == "cpu", bf16=s["bf16"], save_strategy="no", seed=0, gradient_checkpointing=False, disable_tqdm=True,
    )
    timer = StepTimer()
    trainer = GRPOTrainer(model=s["model_dir"], reward_funcs=[ContainsText("has_e", text="e")], args=args,
                          train_dataset=dataset, callbacks=[timer])
    trainer.train()
    lengths = [h["completions/mean_length"] for h in trainer.state.log_history if "completions/mean_length" in h]
    peak = torch.cuda.max_memory_allocated() / 2**20 if device == "cuda" else _rss_peak_mb()
    return {"step_times": timer.times, "tokens": [n * s["prompts"] * s["G"] for n in lengths], "peak_memory_mb": peak}


def _rss_peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ----------------------------------------------------------------------------------------- speed
def speed(device: str, repeats: int, model: str | None, decode: str = "auto", tiny: bool = False) -> dict:
    s = speed_settings(device, model, decode, tiny)
    s["model_dir"] = str(model_folder(s["model"]))  # both trainers load this one folder
    runs: dict[str, list[dict]] = {"ours": [], "trl": []}
    for _ in range(repeats):
        for which in ("ours", "trl"):
            with tempfile.TemporaryDirectory() as tmp:
                done = subprocess.run([sys.executable, __file__, "_one", which, device, tmp, json.dumps(s)], capture_output=True, text=True)
                if done.returncode != 0:
                    raise RuntimeError(f"{which} run failed:\n{done.stderr[-3000:]}")
                runs[which].append(json.loads(Path(tmp, "result.json").read_text()))
    summary = {}
    for which, results in runs.items():
        steady = [t for r in results for t in r["step_times"][2:]]
        tokens = [n for r in results for n in r["tokens"][2:]]
        median = statistics.median(steady)
        summary[which] = {"median_step_s": median, "min_step_s": min(steady), "max_step_s": max(steady),
                          "tokens_per_s": statistics.mean(tokens) / median,
                          "peak_memory_mb": max(r["peak_memory_mb"] for r in results), "steps_measured": len(steady)}
    summary["ratio_step_time"] = summary["ours"]["median_step_s"] / summary["trl"]["median_step_s"]
    summary["ratio_tokens_per_s"] = summary["ours"]["tokens_per_s"] / summary["trl"]["tokens_per_s"]
    summary["settings"] = s
    ours = runs["ours"]
    summary["ours"]["decode"] = sorted({r["decode"] for r in ours})
    summary["ours"]["median_generation_s"] = statistics.median(t for r in ours for t in r["generation_times"][2:])
    print(f"\nspeed ({device}, {s['model']}, {s['prompts']} prompts x G={s['G']}, {s['max_new_tokens']} new tokens, loss dapo)")
    print(f"{'trainer':<10}{'median step s':>15}{'min-max s':>16}{'tokens/s':>12}{'peak MB':>10}")
    for which in ("ours", "trl"):
        r = summary[which]
        spread = f"{r['min_step_s']:.2f}-{r['max_step_s']:.2f}"
        print(f"{which:<10}{r['median_step_s']:>15.3f}{spread:>16}{r['tokens_per_s']:>12.1f}{r['peak_memory_mb']:>10.0f}")
    print(f"step-time ratio ours/TRL = {summary['ratio_step_time']:.2f} (target <= 1.0); tokens/s ratio = {summary['ratio_tokens_per_s']:.2f}")
    print(f"ours: decode {', '.join(summary['ours']['decode'])}, median generation {summary['ours']['median_generation_s']:.3f} s of the step")
    return summary


def machine() -> str:
    import torch

    cpu = platform.processor() or platform.machine()
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    return f"{os.cpu_count()} CPU cores ({cpu}), {gpu}, Python {platform.python_version()}, torch {torch.__version__}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "_one"])
    parser.add_argument("rest", nargs="*")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--model", default=None, help="speed: tiny-qwen2 (CPU default), smollm2-135m (CUDA default), "
                        "smollm2-135m-random, or a model folder (config + tokenizer only: random weights)")
    parser.add_argument("--decode", default="auto", choices=["auto", "eager", "static", "cuda_graph"], help="speed: our sampler loop")
    parser.add_argument("--tiny", action="store_true", help="speed: 2 prompts x G=2 x 4 tokens, 3 steps (smoke test)")
    args = parser.parse_args(argv)
    if args.what == "_one":  # a single timed run in this process (called by `speed`)
        which, device, out, settings = args.rest
        s = json.loads(settings)
        result = (run_ours if which == "ours" else run_trl)(s, device, Path(out))
        Path(out, "result.json").write_text(json.dumps(result))
        return 0
    report: dict = {"date": time.strftime("%Y-%m-%d"), "machine": machine()}
    report["speed"] = speed(args.device, args.repeats, args.model, args.decode, args.tiny)
    RESULTS.mkdir(parents=True, exist_ok=True)
    tag = "".join(c if c.isalnum() or c in "-_." else "-" for c in Path(args.model).name) if args.model else ""
    name = f"trainer_{args.what}_{args.device}{'_' + tag if tag else ''}{'_tiny' if args.tiny else ''}.json"
    (RESULTS / name).write_text(json.dumps(report, indent=1))
    print(f"wrote {RESULTS / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
