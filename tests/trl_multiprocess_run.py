"""Two-process PolyGRPOTrainer run for tests/test_trl_integration.py (launched with torch.distributed.run).

Each process writes its view of every generation batch (gathered reward matrix, TRL's own
normalize_then_sum advantages for its slice, ours) to ``OUT/rank<k>.json``.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    model_dir, out = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch
    from datasets import Dataset
    from trl import GRPOConfig

    from integration_rewards import LengthMod3, LengthParity
    from polyreward.integrations.trl import PolyGRPOTrainer, reward_funcs, reward_weights

    torch.set_num_threads(1)
    rewards = [LengthMod3(name="length"), LengthParity(name="parity", weight=0.5)]
    rows = [{"prompt": [{"role": "user", "content": f"Count to {i}."}], "answer": str(i)} for i in range(8)]
    args = GRPOConfig(
        output_dir=out, max_steps=2, per_device_train_batch_size=2, num_generations=4, max_completion_length=8,
        learning_rate=1e-5, logging_steps=1, report_to=[], use_cpu=True, bf16=False, save_strategy="no", seed=0,
        reward_weights=reward_weights(rewards), multi_objective_aggregation="normalize_then_sum",
    )

    class Recording(PolyGRPOTrainer):
        batches: list = []

        def _generate_and_score_completions(self, inputs):
            output = super()._generate_and_score_completions(inputs)
            self.batches.append({key: value.tolist() for key, value in self.last_batch.items()})
            return output

    trainer = Recording(model=model_dir, reward_funcs=reward_funcs(rewards), args=args, train_dataset=Dataset.from_list(rows), combiner="gdpo")
    trainer.train()
    rank = trainer.accelerator.process_index
    with open(os.path.join(out, f"rank{rank}.json"), "w") as handle:
        json.dump({"world": trainer.accelerator.num_processes, "batches": trainer.batches}, handle)


if __name__ == "__main__":
    main()
