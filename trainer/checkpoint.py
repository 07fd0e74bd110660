"""Checkpoints and exact resume.

``<output_dir>/checkpoint-<step>/`` holds the policy and tokenizer as a plain Hugging Face folder
(loadable by ``from_pretrained``) plus ``trainer_state.pt``: optimiser, learning-rate scheduler,
combiner state (methods such as SA-MRPO/EBPO carry statistics across steps), the step and every RNG
the loop draws from (torch CPU and CUDA, numpy, Python ``random``). Prompt order is a function of
(seed, step) (trainer/prompts.py), so restoring these is enough for a resumed run to repeat the
uninterrupted one on CPU bit for bit.

``trainer_state.pt`` is a pickle (the combiner state may hold any Python object): resume only from
checkpoints you wrote.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import torch

STATE_FILE = "trainer_state.pt"


def capture_rng() -> dict[str, Any]:
    state = {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_checkpoint(output_dir: str | Path, step: int, *, model, tokenizer, optimizer, scheduler, combiner,
                    train_config: dict[str, Any]) -> Path:
    """Write ``checkpoint-<step>`` atomically (a temporary folder renamed at the end) and return its path."""
    final = Path(output_dir) / f"checkpoint-{step}"
    tmp = final.with_name(final.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    torch.save(
        {
            "step": step,
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "combiner": combiner.state_dict() if combiner is not None else {},
            "rng": capture_rng(),
            "train_config": train_config,
        },
        tmp / STATE_FILE,
    )
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    return final


def latest_checkpoint(output_dir: str | Path) -> Path | None:
    """The complete checkpoint with the highest step in ``output_dir``, or None."""
    found = []
    for path in Path(output_dir).glob("checkpoint-*"):
        match = re.fullmatch(r"checkpoint-(\d+)", path.name)
        if match and (path / STATE_FILE).exists():
            found.append((int(match.group(1)), path))
    return max(found)[1] if found else None


def load_trainer_state(checkpoint: str | Path) -> dict[str, Any]:
    path = Path(checkpoint) / STATE_FILE
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing; {checkpoint} is not a complete trainer checkpoint")
    return torch.load(path, map_location="cpu", weights_only=False)
