# Sourced by the GPU check scripts (device tool): installs the carried wheels into $SITE, copies polyreward
# from this working tree (src/polyreward) and exports the
# environment. The device has torch, transformers and CUDA preinstalled; .whl/ holds what it lacks
# (trl, datasets, dill, multiprocess, pydantic, pydantic-core cp312, annotated-types, typing-inspection,
#  gguf, math-verify, latex2sympy2_extended, antlr4-python3-runtime 4.9.3 sdist), fetched on a networked
# machine with
#   pip download --no-deps --python-version 3.12 --only-binary=:all: -d .whl trl==1.16.0 datasets==5.2.0 dill \
#       multiprocess pydantic pydantic-core annotated-types typing-inspection gguf math-verify latex2sympy2_extended
#   pip download --no-deps --no-binary=:all: -d .whl antlr4-python3-runtime==4.9.3
# (.whl/ and .gpu/ are ignored by git: list them in the run's carry).
OUT="${OUT:-$PWD/gpu_out}"; mkdir -p "$OUT"
SITE="${SITE:-/tmp/site}"
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false WANDB_DISABLED=true
export PYTHONSAFEPATH=1  # the repo's polyreward/ folder must not shadow the assembled package in $SITE
export POLYREWARD_CACHE="${POLYREWARD_CACHE:-/tmp/prcache}"

if [ -z "${SKIP_WHEELS:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl || return 1
  python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir --target "$SITE" .whl/antlr4-*.tar.gz \
    || echo "antlr4 not installed (math-verify's LaTeX parser will be missing)"
fi
rm -rf "$SITE/polyreward" && cp -r src/polyreward "$SITE/polyreward" || return 1   # src/ mirrors the import names
echo "polyreward copied from $PWD/src"
export PYTHONPATH="$SITE"
{ command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } 2>&1 | tee "$OUT/gpu.txt"
python3 -c "import torch, transformers, trl, polyreward.trainer.decode as d; print('torch', torch.__version__, 'transformers', transformers.__version__, 'trl', trl.__version__, 'polyreward', d.__file__)" 2>&1 | tee -a "$OUT/gpu.txt"
