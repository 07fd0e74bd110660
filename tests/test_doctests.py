"""Doctests of the documentation pages and of the package's docstrings run in the test suite (the suite is
what CI runs; `pytest --doctest-modules` is not).

* every ```python block with `>>>` lines in docs/**/*.md is run as a doctest, from the repository root
  (the examples read files such as examples/math/config.yaml);
* every package module whose source holds a `>>>` docstring example is imported and its doctests run.
  Only those modules are imported, so the heavy optional ones (TRL, verl, torch) stay out unless they
  carry examples.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
SOURCE = ROOT / "src"   # src/polyreward/... mirrors the import names


def doc_blocks() -> list[tuple[str, int, str]]:
    out = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
            if ">>> " in match.group(1):
                out.append((str(page.relative_to(ROOT)), text[: match.start()].count("\n") + 1, match.group(1)))
    return out


def modules_with_examples() -> list[str]:
    names = []
    for path in sorted((SOURCE / "polyreward").rglob("*.py")):
        if ">>> " not in path.read_text(encoding="utf-8"):
            continue
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


BLOCKS = doc_blocks()


def test_docs_carry_doctests():
    pages = {page for page, _, _ in BLOCKS}
    assert {"docs/python-api.md", "docs/combiners.md", "docs/rewards/math.md"} <= pages


@pytest.mark.parametrize("page,line,block", BLOCKS, ids=[f"{p}:{n}" for p, n, _ in BLOCKS])
def test_docs_page_doctest(page, line, block, monkeypatch):
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(block, {"__name__": "docs"}, f"{page}:{line}", page, line)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0, f"{page}:{line}: {runner.failures} doctest example(s) failed (output above)"


MODULES = modules_with_examples()


def test_module_doctests_are_found():
    assert "polyreward.combiners.apply" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test)
    assert runner.tries > 0, f"{name} has '>>> ' in its source but no doctest was found"
    assert runner.failures == 0, f"{name}: {runner.failures} doctest example(s) failed (output above)"
