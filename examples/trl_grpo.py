"""GRPO with TRL 1.16 and a polyreward config, offline on CPU.

    python examples/trl_grpo.py [MODEL_DIR] [--config examples/trl/polyreward.yaml] [--combiner dvao]
                                [--trainer poly|trl] [--max-steps 2] [--output-dir /tmp/trl_grpo]

MODEL_DIR is a local causal-LM directory; without it the tiny random Qwen2 with the real Qwen2.5
tokenizer is built once (polyreward.trainer.assets.tiny_qwen2, no download). The prompts are small
arithmetic questions with an ``answer`` column, as conversational rows.

``--trainer poly`` (default) trains with ``PolyGRPOTrainer`` and the config's combiner (or
``--combiner``). ``--trainer trl`` uses the stock ``GRPOTrainer``: the config's rewards and weights,
and TRL's own ``multi_objective_aggregation="normalize_then_sum"`` when the config's combiner is GDPO.
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

HERE = Path(__file__).resolve().parent


def arithmetic_dataset(n: int = 32, seed: int = 0):
    from datasets import Dataset

    rng = random.Random(seed)
    rows = []
    for i in range(n):
        a, b = rng.randint(1, 50), rng.randint(1, 50)
        question = f"What is {a} + {b}? Think inside <think></think>, then give the answer."
        rows.append({"prompt": [{"role": "user", "content": question}], "answer": str(a + b), "prompt_id": i})
    return Dataset.from_list(rows)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", nargs="?", default=None, help="local model directory (default: tiny random Qwen2)")
    parser.add_argument("--config", default=str(HERE / "trl" / "polyreward.yaml"))
    parser.add_argument("--combiner", default=None, help="combiner type overriding the config's (poly trainer)")
    parser.add_argument("--trainer", choices=("poly", "trl"), default="poly")
    parser.add_argument("--max-steps", type=int, default=2)
    parser.add_argument("--num-generations", type=int, default=4)
    parser.add_argument("--max-completion-length", type=int, default=32)
    parser.add_argument("--output-dir", default="/tmp/polyreward_trl_grpo")
    args = parser.parse_args(argv)

    from trl import GRPOConfig, GRPOTrainer

    from polyreward.config import load_config
    from polyreward.integrations.trl import PolyGRPOTrainer, reward_funcs, reward_weights

    model = args.model
    if model is None:
        from polyreward.trainer.assets import tiny_qwen2

        model = str(tiny_qwen2())
    config = load_config(args.config)
    use_gdpo = args.trainer == "trl" and config.combiner is not None and config.combiner.type == "gdpo"
    training = GRPOConfig(
        output_dir=args.output_dir, max_steps=args.max_steps, per_device_train_batch_size=2 * args.num_generations,
        num_generations=args.num_generations, max_completion_length=args.max_completion_length, learning_rate=1e-5,
        logging_steps=1, report_to=[], use_cpu=True, bf16=False, save_strategy="no", seed=0,
        reward_weights=reward_weights(config),
        multi_objective_aggregation="normalize_then_sum" if use_gdpo else "sum_then_normalize",
    )
    common = dict(model=model, reward_funcs=reward_funcs(config), args=training, train_dataset=arithmetic_dataset())
    if args.trainer == "trl":
        trainer = GRPOTrainer(**common)
    else:
        trainer = PolyGRPOTrainer(**common, combiner=args.combiner or config)
    result = trainer.train()
    print(f"trained {trainer.state.global_step} steps, loss {result.training_loss:.4g}")
    for entry in trainer.state.log_history:
        if "loss" in entry:
            picked = {k: v for k, v in entry.items() if k.startswith(("rewards/", "poly/")) or k in ("step", "reward", "loss")}
            print(picked)
    return {"steps": trainer.state.global_step, "logs": [e for e in trainer.state.log_history if "loss" in e]}


if __name__ == "__main__":  # the guard matters: the scoring engine starts worker processes
    main()
