"""benchmarks/random_weights.py: the random-weight model folders the speed benchmark gives both trainers.

The trainer itself never invents weights (trainer/assets.py resolves names and folders only); these helpers
live with the benchmarks, and this file checks that what they build is seeded, reused and weight-less where
it should be.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from benchmark_scripts import load_benchmark  # noqa: E402
from polyreward.trainer.policy import load_policy  # noqa: E402

random_weights = load_benchmark("random_weights")


def test_a_folder_without_weights_gets_seeded_random_weights_once(tiny_qwen2_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("POLYREWARD_CACHE", str(tmp_path / "cache"))
    arch = tmp_path / "tiny-arch"
    arch.mkdir()
    for name in random_weights.ARCHITECTURE_FILES:
        if (tiny_qwen2_dir / name).exists():
            shutil.copy2(tiny_qwen2_dir / name, arch / name)
    assert not random_weights.has_weights(arch) and random_weights.has_weights(tiny_qwen2_dir)
    built = random_weights.model_folder(str(arch))
    assert built.parent == tmp_path / "cache" / "random-init" and built.name.startswith("tiny-arch-") and built.name.endswith("-s0")
    assert random_weights.has_weights(built) and not random_weights.has_weights(arch)
    assert random_weights.model_folder(str(arch)) == built  # saved once, then reused
    assert random_weights.model_folder(str(tiny_qwen2_dir)) == tiny_qwen2_dir  # a folder with weights is used as is
    model, tokenizer = load_policy(str(built), torch.device("cpu"))
    reference, _ = load_policy(str(tiny_qwen2_dir), torch.device("cpu"))  # built with the same seed and config
    assert torch.equal(model.model.embed_tokens.weight, reference.model.embed_tokens.weight)
    assert tokenizer.eos_token == "<|im_end|>"


def test_smollm2_architecture_holds_config_and_tokenizer_only(smollm2_dir, tmp_path):
    arch = random_weights.smollm2_architecture(tmp_path / "smollm2-arch")
    names = sorted(p.name for p in arch.iterdir())
    assert {"config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"} <= set(names)
    assert not random_weights.has_weights(arch) and sum(p.stat().st_size for p in arch.iterdir()) < 5 * 2**20
    config = json.loads((arch / "config.json").read_text())
    assert (config["model_type"], config["num_hidden_layers"], config["vocab_size"]) == ("llama", 30, 49152)


def test_the_trainer_no_longer_invents_weights():
    from polyreward.trainer.assets import resolve_model

    with pytest.raises(FileNotFoundError, match="smollm2-135m-random.*not a local directory"):
        resolve_model("smollm2-135m-random")
