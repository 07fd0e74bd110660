#!/usr/bin/env bash
# One prepared GPU run (device tool, ~2-3 min on an H200): our trainer vs TRL GRPOTrainer tokens/s with the
# SmolLM2-135M architecture and tokenizer and seed-0 random weights (both trainers load the same folder),
# 8 prompts x G = 8, 128 new tokens, bf16, loss dapo; our sampler uses the CUDA-graph decode loop
# (decode: auto). Random weights rarely emit EOS, so every rollout runs the full 128 tokens.
#
# Carry: .whl (dependency wheels, as for gpu_check.sh) and the weight-less architecture folder
# (default .gpu/smollm2-arch, written here by
#   python -c "from polyreward.trainer.assets import smollm2_architecture as a; a('.gpu/smollm2-arch')").
# The polyreward wheel in .whl may be older than this tree, so the tree's own packages are copied over it.
# Results land in $OUT (or ./gpu_out): gpu.txt, speed.log, trainer_speed_cuda_*.json.
# CPU smoke test of this script (the wheels are cp312; Python 3.11 here uses its own installed deps):
#   DEVICE=cpu EXTRA=--tiny SKIP_WHEELS=1 SITE=/tmp/site-test OUT=/tmp/gpu-out-test bash benchmarks/gpu_speed_check.sh
set -uo pipefail
OUT="${OUT:-$PWD/gpu_out}"; mkdir -p "$OUT"
ARCH="${ARCH:-.gpu/smollm2-arch}"
DEVICE="${DEVICE:-cuda}"
SITE="${SITE:-/tmp/site}"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false WANDB_DISABLED=true
export PYTHONSAFEPATH=1  # the repo's polyreward/ folder must not shadow the assembled package in $SITE
export POLYREWARD_CACHE="${POLYREWARD_CACHE:-/tmp/prcache}"
[ -f "$ARCH/config.json" ] || { echo "missing $ARCH/config.json (carry the architecture folder)" | tee "$OUT/speed.log"; exit 1; }

if [ -z "${SKIP_WHEELS:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl || exit 1
fi
python3 - "$SITE" <<'EOF' || exit 1
# polyreward from this working tree, laid out by pyproject's package-dir (trainer/ -> polyreward/trainer, ...)
import shutil, sys, tomllib
from pathlib import Path
site, root = Path(sys.argv[1]), Path.cwd()
setup = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
shutil.rmtree(site / "polyreward", ignore_errors=True)
for package in sorted(setup["packages"], key=len):
    source = root / setup["package-dir"].get(package, package.replace(".", "/"))
    shutil.copytree(source, site / package.replace(".", "/"), dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
print("polyreward copied from", root)
EOF
export PYTHONPATH="$SITE"

{ [ "$DEVICE" = cuda ] && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } 2>&1 | tee "$OUT/gpu.txt"
python3 -c "import torch, transformers, trl, polyreward.trainer.decode as d; print('torch', torch.__version__, 'transformers', transformers.__version__, 'trl', trl.__version__, 'polyreward', d.__file__)" 2>&1 | tee -a "$OUT/gpu.txt"

# step time, tokens/s and peak memory: ours (CUDA graphs) vs TRL, same random-init model, prompts, G, lengths, loss
timeout 200 python3 benchmarks/trainer.py speed --device "$DEVICE" --model "$ARCH" --repeats 1 ${EXTRA:-} 2>&1 | tail -25 | tee "$OUT/speed.log"
cp benchmarks/results/trainer_speed_"$DEVICE"_"$(basename "$ARCH")"*.json "$OUT/" 2>/dev/null
echo done
