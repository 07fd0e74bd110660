"""polyreward.trainer: the bundled minimal GRPO trainer (``polyreward train``).

``from polyreward.trainer import train`` runs it from Python; torch and transformers are imported only
when it is called (install the ``train`` extra).
"""

from __future__ import annotations

from typing import Any


def train(config: Any, **kwargs: Any):
    """Train a causal LM with the rewards and combiner of ``config`` (see :func:`polyreward.trainer.loop.train`)."""
    from polyreward.trainer.loop import train as _train

    return _train(config, **kwargs)


__all__ = ["train"]
