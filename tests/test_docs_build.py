"""The documentation site builds with `mkdocs build --strict` (no broken links, anchors or pages), every
page is in the navigation, the generated pages (command line, configuration keys) match the code, and
nothing in the repository points readers to notes outside it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _mkdocs_strict(project: Path, site: Path) -> tuple[int, list[str], str]:
    """``mkdocs build --strict`` of ``project``: exit code, its WARNING/ERROR lines, the whole log. No ``-q``: quiet
    mode drops the warnings before --strict counts them, so a site with broken anchors built with exit 0."""
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=project,
                            capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    output = result.stdout + result.stderr
    return result.returncode, [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))], output


def test_mkdocs_build_strict(tmp_path):
    code, warnings, output = _mkdocs_strict(ROOT, tmp_path / "site")
    assert code == 0 and not warnings, "\n".join(warnings) or output
    assert "Documentation built" in output  # the log was really read (not silenced)
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "reference" / "algorithms" / "index.html").is_file()


def test_a_broken_anchor_fails_the_strict_build(tmp_path):
    """The check above can fail: MkDocs slugs ``## math_accuracy`` as ``#math_accuracy``, so ``#math-accuracy`` is
    a broken anchor, with this project's validation settings."""
    settings = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Types\n\n[ok](#math_accuracy) [broken](#math-accuracy)\n\n"
                                                "## math_accuracy\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({"site_name": "t", "validation": settings["validation"]}), encoding="utf-8")
    code, warnings, _ = _mkdocs_strict(tmp_path, tmp_path / "site")
    assert code != 0 and len(warnings) == 1 and "#math-accuracy" in warnings[0]


def _nav_pages(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [p for v in node.values() for p in _nav_pages(v)]
    return [p for item in node for p in _nav_pages(item)]


def test_every_docs_page_is_in_the_nav_and_every_nav_entry_exists():
    nav = _nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(nav) == pages, f"not in nav: {set(pages) - set(nav)}; missing files: {set(nav) - set(pages)}"


def test_config_reference_explains_every_key():
    sys.path.insert(0, str(ROOT / "scripts"))
    import gen_cli_docs

    rows = [line for line in gen_cli_docs.render_config().splitlines() if line.startswith("| `")]
    unexplained = [row.split("`")[1] for row in rows if row.rstrip().endswith("|  |")]
    assert not unexplained, f"add a comment beside these keys in the model (or an entry in gen_cli_docs.NOTES): {unexplained}"
    keys = {row.split("`")[1] for row in rows}
    assert {"rewards[].weight", "train.loss_type", "train.dataset.loader", "on_reward_error"} <= keys
    assert set(gen_cli_docs.NOTES) <= keys, f"NOTES names keys that no longer exist: {set(gen_cli_docs.NOTES) - keys}"


def test_cli_page_is_generated_from_the_current_parsers():
    result = subprocess.run([sys.executable, "scripts/gen_cli_docs.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr + "\n(regenerate with: python scripts/gen_cli_docs.py)"
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    for flag in ("--combiners", "--config", "--param", "--resume", "--chunk-size", "--set", "--evaluate", "--served-model-name"):
        assert f"`{flag}" in page, f"docs/cli.md lacks {flag}"


NOTES = re.compile(r"\b(?:ALGORITHMS|INTEGRATIONS|LIBRARIES|ASSETS|DESIGN)" + r"\.md\b|\.\./shared/")
SKIP_DIRS = {".git", "site", "node_modules", "__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}


def test_no_references_to_notes_outside_the_repository():
    offenders = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS or part.startswith(".venv") or part.endswith(".egg-info") for part in rel.parts):
            continue
        if not path.is_file() or path.suffix not in {".py", ".md", ".yaml", ".yml", ".toml", ".sh", ".txt", ".cfg"}:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if NOTES.search(line):
                offenders.append(f"{rel}:{number}: {line.strip()[:100]}")
    assert not offenders, "point to docs/ instead:\n" + "\n".join(offenders)


# benchmarks/ files that are not benchmarks themselves: shared helpers and the GPU machine's set-up
BENCHMARK_HELPERS = {"machine_info.py", "symbolic_rollouts.py", "gpu_setup.sh"}


def test_benchmarks_page_covers_every_benchmark_and_result():
    """All benchmark figures live on docs/benchmarks.md: every script and every results table is named there."""
    page = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    bench = ROOT / "benchmarks"
    scripts = [p.name for p in sorted(bench.glob("*.py")) + sorted(bench.glob("*.sh")) if p.name not in BENCHMARK_HELPERS]
    tables = [p.name for p in sorted((bench / "results").glob("*.md"))]
    missing = [name for name in scripts + tables if name not in page]
    assert not missing, f"docs/benchmarks.md does not mention: {missing}"
