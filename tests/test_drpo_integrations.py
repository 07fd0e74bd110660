"""DRPO's per-row domain through the adapters: the verl advantage estimator reads it from ``non_tensor_batch``
(verl's ``data_source``, mapped by the config's ``columns:``), TRL's PolyGRPOTrainer gathers it from the dataset
rows. Both must give what the combiner gives on the same batch."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from polyreward.combiners import DRPOCombiner  # noqa: E402

CONFIG = """columns: {domain: data_source}
rewards:
  - {name: accuracy, type: crpo_accuracy, weight: 10}
  - {name: format, type: crpo_format}
combiner: drpo
"""


def test_verl_estimator_reads_the_mapped_domain_column(tmp_path):
    from omegaconf import OmegaConf

    from polyreward.integrations import verl as poly_verl

    path = tmp_path / "polyreward.yaml"
    path.write_text(CONFIG)
    algorithm = OmegaConf.create({"adv_estimator": "polyreward", "polyreward_config": str(path)})
    rng = np.random.default_rng(0)
    accuracy, fmt = rng.integers(0, 2, 12).astype(float), rng.choice([0.0, 1.0, 1.5], 12)
    non_tensor = {"accuracy": accuracy, "format": fmt, "data_source": np.array(["medqa"] * 8 + ["pubmedqa"] * 4, dtype=object)}
    index = np.repeat(["u0", "u1", "u2"], 4)
    mask = torch.ones(12, 5)
    expected = DRPOCombiner().combine(np.column_stack([accuracy, fmt]), index, [10.0, 1.0], domain=non_tensor["data_source"])
    advantages, returns = poly_verl.compute_polyreward_advantage(
        torch.zeros(12, 5), mask, index=index, config=algorithm, non_tensor_batch=non_tensor)
    torch.testing.assert_close(advantages[:, 0], torch.as_tensor(expected, dtype=torch.float32), atol=1e-6, rtol=0)
    with pytest.raises(ValueError, match="needs a per-row 'domain' column"):  # no domain in the batch: a clear error
        poly_verl.compute_polyreward_advantage(torch.zeros(12, 5), mask, index=index,
                                               config=OmegaConf.create({"polyreward_config": str(path), "polyreward_combiner": "drpo",
                                                                        "gdpo_reward_keys": ["accuracy"]}),
                                               non_tensor_batch={"accuracy": accuracy})


@pytest.mark.slow
def test_trl_trainer_gathers_the_domain_column(tiny_qwen2_dir, tmp_path):
    pytest.importorskip("trl")
    from datasets import Dataset
    from trl import GRPOConfig

    from polyreward.integrations.trl import PolyGRPOTrainer

    class Recording(PolyGRPOTrainer):
        def _generate_and_score_completions(self, inputs):
            output = super()._generate_and_score_completions(inputs)
            self.seen = getattr(self, "seen", []) + [(dict(self.last_batch), [row["data_source"] for row in inputs])]
            return output

    path = tmp_path / "polyreward.yaml"
    path.write_text(CONFIG.replace("crpo_accuracy, weight: 10", "crpo_english, weight: 1"))
    rows = [{"prompt": f"Question {i}: pick A or B.", "data_source": "medqa" if i < 3 else "pubmedqa"} for i in range(4)]
    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=2, per_device_train_batch_size=8, num_generations=4,
                      max_completion_length=8, learning_rate=1e-5, logging_steps=1, report_to=[], use_cpu=True, bf16=False,
                      save_strategy="no", seed=0)
    trainer = Recording(model=str(tiny_qwen2_dir), args=args, train_dataset=Dataset.from_list(rows), polyreward_config=str(path))
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        trainer.train()
    finally:
        torch.set_num_threads(before)
    replay = DRPOCombiner()
    for batch, domains in trainer.seen:  # the same advantages from the recorded matrices, in order (DRPO keeps history)
        expected = replay.combine(batch["rewards"].double().numpy(), batch["groups"], [1.0, 1.0], domain=domains)
        np.testing.assert_allclose(batch["advantages"].double().numpy(), expected, atol=1e-5)
    logged = [h for h in trainer.state.log_history if "loss" in h]
    assert any(k.startswith("poly/advantage_mass/") for k in logged[-1])
    assert all(math.isfinite(v) for k, v in logged[-1].items() if k.startswith("poly/advantage_mass/"))


def test_score_cli_with_drpo_reads_the_mapped_domain(tmp_path):
    import json

    from polyreward.cli import main

    completions = ["<think>Option A is wrong. B fits. The answer is B.</think><answer>B fits. \\boxed{B}</answer>",
                   "<think>hmm</think><answer>\\boxed{A}</answer>", "\\boxed{A}\\boxed{B}", "no idea"]
    rows = [{"prompt": f"q{q}", "completion": c, "prompt_id": f"q{q}", "answer": "B", "source": "medqa" if q < 4 else "pubmedqa"}
            for q in range(5) for c in completions]
    data, config, out = tmp_path / "rollouts.jsonl", tmp_path / "config.yaml", tmp_path / "scored.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config.write_text(CONFIG.replace("data_source", "source"))
    assert main(["score", str(data), "--config", str(config), "-o", str(out)]) == 0
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    scores = np.array([[r["accuracy"], r["format"]] for r in scored])
    expected = DRPOCombiner().combine(scores, [r["prompt_id"] for r in rows], [10.0, 1.0], domain=[r["source"] for r in rows])
    np.testing.assert_allclose([r["advantage"] for r in scored], expected, atol=1e-9)
