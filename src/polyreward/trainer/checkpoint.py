"""Checkpoints and exact resume.

``<output_dir>/checkpoint-<step>/`` holds the policy and tokenizer as a plain Hugging Face folder
(loadable by ``from_pretrained``) plus ``trainer_state.pt``: optimiser, learning-rate scheduler,
combiner state (methods such as SA-MRPO/EBPO carry statistics across steps), the rewards' state (OTC's
``running_min``: the fewest tool calls per prompt seen so far), the step and every RNG
the loop draws from (torch CPU and CUDA, numpy, Python ``random``) and the prompt cursor (how many prompts
were drawn: more than step × prompts_per_step under dynamic sampling). Prompt order is a function of
(seed, cursor position) (trainer/prompts.py), so restoring these is enough for a resumed run to repeat the
uninterrupted one on CPU bit for bit.

``trainer_state.pt`` holds only tensors and plain Python values (numpy RNG state and combiner state are
converted on the way in), so it is read with ``torch.load(weights_only=True)``, which runs no code from the
file. A state that needs more (a user combiner keeping custom objects) is refused with a clear error unless
``load_trainer_state(path, trusted=True)`` is asked for, which unpickles it: only for files you wrote.
"""

from __future__ import annotations

import pickle
import random
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import torch

STATE_FILE = "trainer_state.pt"


def capture_rng() -> dict[str, Any]:
    kind, keys, position, has_gauss, cached_gaussian = np.random.get_state()
    numpy_state = (kind, torch.from_numpy(keys.astype(np.int64)), int(position), int(has_gauss), float(cached_gaussian))
    state = {"python": random.getstate(), "numpy": numpy_state, "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng(state: dict[str, Any]) -> None:
    random.setstate(_as_tuples(state["python"]))
    kind, keys, position, has_gauss, cached_gaussian = state["numpy"]
    keys = keys.numpy() if isinstance(keys, torch.Tensor) else np.asarray(keys)
    np.random.set_state((kind, keys.astype(np.uint32), position, has_gauss, cached_gaussian))
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_checkpoint(output_dir: str | Path, step: int, *, model, tokenizer, optimizer, scheduler, combiner,
                    train_config: dict[str, Any], rewards=None, prompt_cursor: int | None = None) -> Path:
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
            "combiner": _plain(combiner.state_dict()) if combiner is not None else {},
            "rewards": _plain(rewards.state_dict()) if rewards is not None else {},
            "rng": capture_rng(),
            "train_config": train_config,
            **({"prompt_cursor": int(prompt_cursor)} if prompt_cursor is not None else {}),
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


def load_trainer_state(checkpoint: str | Path, trusted: bool = False) -> dict[str, Any]:
    """The state saved with a checkpoint. ``trusted=True`` unpickles arbitrary objects (only for files you wrote)."""
    path = Path(checkpoint) / STATE_FILE
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing; {checkpoint} is not a complete trainer checkpoint")
    if trusted:
        return torch.load(path, map_location="cpu", weights_only=False)
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(
            f"{path}: holds objects other than tensors and plain Python values ({first_line[:200]}); it was not loaded. "
            "If you wrote this checkpoint yourself, resume with train(..., resume=True, trusted_checkpoint=True) "
            "or load it with polyreward.trainer.checkpoint.load_trainer_state(path, trusted=True)"
        ) from None


def _plain(value: Any) -> Any:
    """numpy arrays and scalars as lists and Python numbers, recursively (what ``weights_only`` loading accepts)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _as_tuples(value: Any) -> Any:
    """``random.setstate`` needs tuples; a state that went through a list-producing format gets them back."""
    return tuple(_as_tuples(item) for item in value) if isinstance(value, (list, tuple)) else value
