"""A non-editable install works: ``pip install --no-deps --target DIR .`` copies the package the way a wheel installs
it (only what ``[tool.setuptools.packages.find]`` and ``package-data`` ship, no source tree behind it), and the
package imported from DIR scores, lists its types, imports neither pandas nor torch, and passes the core tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SMOKE = r"""
import sys
import polyreward
assert polyreward.__file__.startswith(sys.argv[1]), polyreward.__file__   # the installed copy, not src/
assert "pandas" not in sys.modules and "torch" not in sys.modules
from polyreward.config import parse_config
from polyreward.registry import reward_types, reward_class
for name in reward_types():
    reward_class(name)                                                    # every built-in type imports from the install
config = parse_config({"columns": {"completion": "response", "group": "qid"},
                       "rewards": [{"name": "math", "type": "math_accuracy", "when": {"source": "math"}},
                                   {"name": "choice", "type": "choice_accuracy", "when": {"source": "mcq"}}],
                       "combiner": "grpo", "engine": {"workers": 0}})
scorer = config.build_scorer()
rows = [{"prompt": "p", "response": r, "answer": a, "source": s, "qid": q} for r, a, s, q in
        [("\\boxed{1/2}", "0.5", "math", 1), ("\\boxed{3}", "0.5", "math", 1.0), ("The answer is B.", "B", "mcq", "2"), ("A", "B", "mcq", 2)]]
scored = scorer.score(scorer.batch(rows))
import json, math
print(json.dumps([[[None if math.isnan(v) else v for v in row] for row in scored.scores.tolist()], scored.advantages.round(4).tolist()]))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                           "--quiet", "--target", str(target), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (target / "polyreward" / "vocabulary.py").is_file() and (target / "polyreward" / "py.typed").is_file()
    assert list((target / "polyreward" / "verifiers" / "data").glob("*.json"))  # package data ships
    return target


def _env(target: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(target)}


@pytest.mark.slow
def test_the_installed_package_scores_without_the_source_tree(installed, tmp_path):
    done = subprocess.run([sys.executable, "-c", SMOKE, str(installed)], capture_output=True, text=True, env=_env(installed),
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    scores, advantages = json.loads(done.stdout.strip().splitlines()[-1])
    assert scores == [[1.0, None], [0.0, None], [None, 1.0], [None, 0.0]]
    assert advantages == pytest.approx([0.707, -0.707, 0.707, -0.707], abs=1e-3)  # qid 1 / 1.0 and "2" / 2: two groups of two


@pytest.mark.slow
def test_the_core_tests_pass_against_the_installed_package(installed, tmp_path):
    tests = ["tests/test_core.py", "tests/test_layering.py", "tests/test_pipeline.py"]
    # polyreward is imported from the install first, so every test module gets that copy
    run = ("import sys, polyreward, pytest; assert polyreward.__file__.startswith(sys.argv[1]), polyreward.__file__; "
           "sys.exit(pytest.main(sys.argv[2:]))")
    done = subprocess.run([sys.executable, "-c", run, str(installed), "-q", "-x", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
                           "-c", str(ROOT / "pyproject.toml"), *[str(ROOT / t) for t in tests]],
                          capture_output=True, text=True, env=_env(installed), cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
