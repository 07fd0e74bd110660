#!/usr/bin/env bash
# One prepared GPU run (device tool, ~3-5 min on an H200): the three decode loops side by side, then our trainer vs TRL GRPOTrainer tokens/s with the
# SmolLM2-135M architecture and tokenizer and seed-0 random weights (both trainers load the same folder),
# 8 prompts x G = 8, 128 new tokens, bf16, loss dapo; our sampler uses the CUDA-graph decode loop
# (decode: auto). Random weights rarely emit EOS, so every rollout runs the full 128 tokens.
#
# Carry: .whl (see benchmarks/gpu_setup.sh) and the weight-less architecture folder (default .gpu/smollm2-arch,
# written by  python benchmarks/random_weights.py arch .gpu/smollm2-arch; benchmarks/trainer.py gives it seed-0 random weights).
# Results land in $OUT (or ./gpu_out): gpu.txt, decode.log, decode_check_cuda.json, speed.log, trainer_speed_cuda_*.json.
# CPU smoke test of this script (the wheels are cp312; Python 3.11 here uses its own installed deps):
#   DEVICE=cpu EXTRA=--tiny SKIP_WHEELS=1 SITE=/tmp/site-test OUT=/tmp/gpu-out-test bash benchmarks/gpu_speed_check.sh
set -uo pipefail
ARCH="${ARCH:-.gpu/smollm2-arch}"
DEVICE="${DEVICE:-cuda}"
source benchmarks/gpu_setup.sh || exit 1
[ -f "$ARCH/config.json" ] || { echo "missing $ARCH/config.json (carry the architecture folder)" | tee "$OUT/speed.log"; exit 1; }

# the decode loops (eager, static, cuda_graph) on 16 MedQA prompts x 128 tokens: same tokens? tokens/s? did capture fall back?
if [ "$DEVICE" = cuda ]; then
  timeout 150 python3 benchmarks/decode_check.py --device cuda --model "$ARCH" 2>&1 | grep -v "Loading weights" | tail -8 | tee "$OUT/decode.log"
  cp benchmarks/results/decode_check_cuda.json "$OUT/" 2>/dev/null
fi

# step time, tokens/s and peak memory: ours (CUDA graphs) vs TRL, same random-init model, prompts, G, lengths, loss
timeout 200 python3 benchmarks/trainer.py speed --device "$DEVICE" --model "$ARCH" --repeats 1 ${EXTRA:-} 2>&1 | tail -25 | tee "$OUT/speed.log"
cp benchmarks/results/trainer_speed_"$DEVICE"_"$(basename "$ARCH")"*.json "$OUT/" 2>/dev/null
echo done
