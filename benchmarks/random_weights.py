"""Random-weight model folders for throughput runs (benchmarks only: a trained run never wants random weights).

Random weights rarely emit EOS, so every rollout decodes the full ``max_new_tokens``: the fairest load for a
tokens/s comparison, and a way to time SmolLM2-135M on a machine that cannot hold the converted GGUF.

    python benchmarks/random_weights.py arch .gpu/smollm2-arch     # SmolLM2-135M's config + tokenizer, no weights (~4 MB)

:func:`model_folder` is what the speed benchmark passes to both trainers: ``smollm2-135m-random`` or a folder
holding only a config and a tokenizer becomes a folder with seed-0 random weights (built once, cached);
anything else goes through the trainer's :func:`~polyreward.trainer.assets.resolve_model`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

from polyreward.io import cache_dir
from polyreward.trainer.assets import publish_folder, resolve_model, smollm2_135m

ARCHITECTURE_FILES = ("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json", "chat_template.jinja",
                      "special_tokens_map.json", "vocab.json", "merges.txt")
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".gguf")


def smollm2_architecture(out: str | Path | None = None) -> Path:
    """SmolLM2-135M's config, generation config and tokenizer without weights, copied from the converted model
    folder (:func:`~polyreward.trainer.assets.smollm2_135m`, built first if needed)."""
    out = Path(out) if out is not None else cache_dir() / "smollm2-135m-arch"
    if (out / "config.json").exists():
        return out
    source = smollm2_135m()
    tmp = out.with_name(f"{out.name}.tmp{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    for name in ARCHITECTURE_FILES:
        if (source / name).exists():
            shutil.copy2(source / name, tmp / name)
    return publish_folder(tmp, out)


def has_weights(folder: Path) -> bool:
    return any(p.name.endswith(WEIGHT_SUFFIXES) for p in folder.iterdir())


def random_init(folder: str | Path, seed: int = 0) -> Path:
    """``folder`` (config + tokenizer) with random weights (``torch.manual_seed(seed)``, the architecture's own init),
    saved once under the cache dir, keyed by the config's hash."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    folder = Path(folder)
    digest = hashlib.sha256((folder / "config.json").read_bytes()).hexdigest()[:12]
    out = cache_dir() / "random-init" / f"{folder.name}-{digest}-s{seed}"
    if (out / "config.json").exists() and has_weights(out):
        return out
    tmp = out.with_name(f"{out.name}.tmp{os.getpid()}")
    shutil.copytree(folder, tmp, dirs_exist_ok=True)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(str(folder)), dtype=torch.float32)
    model.save_pretrained(tmp)
    return publish_folder(tmp, out)


def model_folder(name_or_path: str) -> Path:
    """``smollm2-135m-random`` and weight-less folders get random weights; everything else is the trainer's model."""
    if name_or_path == "smollm2-135m-random":
        return random_init(smollm2_architecture())
    path = Path(name_or_path).expanduser()
    if path.is_dir() and (path / "config.json").exists() and not has_weights(path):
        return random_init(path)
    return resolve_model(name_or_path)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "arch":
        sys.exit("usage: python benchmarks/random_weights.py arch OUT_FOLDER")
    print(smollm2_architecture(sys.argv[2]))
