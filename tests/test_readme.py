"""The README's snippets run as written.

Every ```bash and ```python block of README.md is extracted and either run here or listed in
NOT_RUN_HERE with the reason:

* the set-up section holds exactly two commands, the ones `.ci/run` runs in a fresh virtual
  environment (they take minutes, so they are checked structurally, not re-run here);
* every other shell command runs in a temporary folder (with `examples/` linked in) through this
  virtual environment's `polyreward`; where a trailing comment states the result ("CORRECT, exit 0")
  the exit status and the first output word are checked, otherwise the status must be 0;
* Python blocks are doctests (`>>>` lines with their expected output) and run as such.

The getting-started page repeats the tour step by step; its commands must be the README's.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
sys.path.insert(0, str(ROOT / "scripts"))
from readme_setup import setup_commands  # noqa: E402

# Commands of README.md that are not executed by this file, with the reason.
NOT_RUN_HERE: dict[str, str] = {
    # (none besides the two set-up commands, which .ci/run executes in a fresh venv)
}


def fenced_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S)


def sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## ", text, flags=re.M)
    return {p.split("\n", 1)[0].strip(): p for p in parts[1:]}


def commands(block: str) -> list[tuple[str, str]]:
    """(command, trailing comment) per logical line; comment-only lines and blank lines are skipped."""
    out, pending = [], ""
    for line in block.splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        line = pending + line
        pending = ""
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command, _, comment = line.partition("  #")
        out.append((command.strip(), comment.strip()))
    return out


SETUP_SECTION = next(body for title, body in sections(README).items() if title.startswith("Set-up"))
SETUP = [c for block in fenced_blocks(SETUP_SECTION, "bash") for c, _ in commands(block)]
OTHER_BASH = [c for block in fenced_blocks(README.replace(SETUP_SECTION, ""), "bash") for c in commands(block)]


def test_setup_section_holds_exactly_the_two_commands_ci_runs():
    assert SETUP == [
        "pip install -e . && polyreward score examples/math/rollouts.jsonl --config examples/math/config.yaml -o scored.jsonl",
        "bash scripts/install_dev.sh && python3 -m pytest -q -n 2 --dist loadfile",
    ]
    assert setup_commands(README) == SETUP  # what scripts/readme_setup.py hands to .ci/run
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv" in ci and "scripts/readme_setup.py" in ci
    assert re.search(r'\[ "\$\{#commands\[@\]\}" -eq 2 \]', ci), ".ci/run must insist on exactly two commands"


def test_readme_has_a_table_of_contents_and_links_into_docs():
    titles = list(sections(README))
    assert titles[0] == "Contents"
    for title in titles[1:]:
        anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        assert f"(#{anchor})" in sections(README)["Contents"], f"table of contents misses {title!r}"
    for link in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / link).is_file(), f"README links to missing {link}"
    assert "Architecture" in titles[:4], "the architecture section belongs near the top"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    work = tmp_path_factory.mktemp("readme")
    (work / "examples").symlink_to(ROOT / "examples")
    return work


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false", MPLBACKEND="Agg", COLUMNS="120")
    return env


@pytest.mark.slow
def test_every_readme_shell_command_runs(workdir):
    """In README order (later commands read earlier outputs); the stated exit codes and verdicts hold."""
    assert OTHER_BASH, "README has a tour"
    verbs = {c.split()[1] for c, _ in OTHER_BASH if c.startswith("polyreward ")}
    assert {"score", "verify", "advantages", "report", "train"} <= verbs, "the tour shows score, verify, advantages, report, train"
    for command, comment in OTHER_BASH:
        if command in NOT_RUN_HERE:
            continue
        expected = re.search(r"exit (\d+)", comment)
        result = subprocess.run(command, shell=True, cwd=workdir, env=_env(), capture_output=True, text=True, timeout=300)
        assert result.returncode == (int(expected.group(1)) if expected else 0), f"{command}\n{result.stdout}\n{result.stderr}"
        word = re.match(r"([A-Z]{3,})\b", comment)
        if word:
            assert result.stdout.split()[0] == word.group(1), f"{command}: {result.stdout}"
    assert (workdir / "scored.jsonl").is_file() and (workdir / "with_adv.jsonl").is_file()
    assert (workdir / "report" / "report.html").is_file()
    assert (workdir / "runs" / "tour" / "metrics.jsonl").is_file()


def test_not_run_here_lists_only_readme_commands():
    assert set(NOT_RUN_HERE) <= {c for c, _ in OTHER_BASH}


def test_readme_python_blocks_are_doctests_that_pass(monkeypatch):
    blocks = fenced_blocks(README, "python")
    assert blocks, "README shows the Python API"
    monkeypatch.chdir(ROOT)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        assert ">>> " in block, f"README python block {i} has no doctest lines to check"
        runner.run(parser.get_doctest(block, {}, f"README.md python block {i}", "README.md", 0))
    assert runner.failures == 0 and runner.tries > 0


def test_getting_started_tour_matches_the_readme():
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    readme = {c for c, _ in OTHER_BASH}
    tour = [c for block in fenced_blocks(page, "bash") for c, _ in commands(block)]
    assert tour[:2] == SETUP
    assert set(tour[2:]) == readme, "docs/getting-started.md and README.md show different tour commands"


def test_the_tours_outputs_are_git_ignored():
    """Running the tour from the repository root leaves nothing for `git status` to show."""
    outputs = ["scored.jsonl", "with_adv.jsonl", "report/report.html", "runs/tour/metrics.jsonl",
               "runs/first_run/checkpoint-24/config.json", "runs/rubric_scored.jsonl", "runs/math_grpo.jsonl"]
    result = subprocess.run(["git", "check-ignore", *outputs], cwd=ROOT, capture_output=True, text=True)
    if result.returncode == 128:
        pytest.skip("not a git checkout")
    assert result.stdout.split() == outputs
    written = {c.split("-o ")[1].split()[0].rstrip("/") for c, _ in OTHER_BASH if " -o " in c}
    written |= {c.split("--output-dir ")[1].split()[0] for c, _ in OTHER_BASH if "--output-dir " in c}
    written = {path if Path(path).suffix else f"{path}/report.html" for path in written}  # a folder: a file in it
    ignored = subprocess.run(["git", "check-ignore", *sorted(written)], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert sorted(ignored) == sorted(written), f"README tour writes {sorted(written)}; ignored: {ignored}"
