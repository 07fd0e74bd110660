"""A newcomer's first hour: each mistake gets one clear line and exit 2 (or just works), asserted here.

Faults that cannot be caused on a full install (matplotlib or torch missing) are simulated in a subprocess
whose ``sys.meta_path`` refuses those imports; everything else runs for real: the CLI, the YAML loader,
``polyreward serve-judge`` on 127.0.0.1 with the tiny offline Qwen2, and the ``openai`` judge talking to it.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from polyreward import __version__
from polyreward.cli import main
from polyreward.config import load_config, parse_config
from polyreward.schema import Batch

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": "1"}

BLOCK_IMPORTS = """
import sys
class _NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NotInstalled())
from polyreward.cli import main
sys.exit(main(ARGV))
"""


def run_without(modules: set[str], argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``polyreward ARGV`` in a fresh interpreter where importing any of ``modules`` fails as if not installed."""
    code = f"BLOCKED = {sorted(modules)!r}\nARGV = {argv!r}\n" + BLOCK_IMPORTS
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=ENV, timeout=300)


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


SCORED = [  # the layout `polyreward score` writes: reward, reason, sub-score, weighted total
    {"prompt_id": "p1", "completion": "a", "accuracy": 1.0, "accuracy_reason": "correct", "overlong": 0.0,
     "overlong_reason": "length 12", "overlong.length": 12, "reward": 1.0},
    {"prompt_id": "p1", "completion": "b", "accuracy": 0.0, "accuracy_reason": "wrong", "overlong": -0.5,
     "overlong_reason": "length 40", "overlong.length": 40, "reward": -0.25},
    {"prompt_id": "p1", "completion": "c", "accuracy": 1.0, "accuracy_reason": "correct", "overlong": -1.0,
     "overlong_reason": "length 70", "overlong.length": 70, "reward": 0.5},
]


@pytest.fixture
def scored(tmp_path):
    path = tmp_path / "scored.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in SCORED))
    return path


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"polyreward {__version__}"


def test_misspelt_combiner_param_names_the_key_and_the_allowed_ones(scored, tmp_path, capsys):
    assert main(["advantages", str(scored), "--combiner", "gdpo", "--param", "varient=verl", "-o", str(tmp_path / "o.jsonl")]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("polyreward advantages: error: --param varient: unknown parameter of combiner gdpo; allowed: ")
    assert "variant" in line.split("allowed: ")[1].split(", ")
    assert not (tmp_path / "o.jsonl").exists()


def test_sub_scores_are_never_objectives(scored, tmp_path, capsys):
    """Default columns: X with an X_reason companion; ``overlong.length`` (a word count) is not a reward."""
    out = tmp_path / "o.jsonl"
    assert main(["advantages", str(scored), "-o", str(out)]) == 0
    assert "rewards accuracy, overlong (group by prompt_id)" in " ".join(capsys.readouterr().out.split())
    assert main(["report", str(scored), "-o", str(tmp_path / "r"), "--combiners", "grpo"]) == 0
    assert "overlong.length" not in (tmp_path / "r" / "report.html").read_text()


def test_the_configs_rewards_and_weights_are_used(scored, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("rewards:\n  - {name: accuracy, type: think_format, weight: 1.0}\n"
                      "  - {name: overlong, type: think_format, weight: 0.0}\ncombiner: {type: grpo, scale: none}\n")
    out = tmp_path / "o.jsonl"
    assert main(["advantages", str(scored), "--config", str(config), "-o", str(out)]) == 0
    advantages = [json.loads(line)["advantage"] for line in out.read_text().splitlines()]
    assert advantages == pytest.approx([1 / 3, -2 / 3, 1 / 3])  # weight 0 on overlong: accuracy minus its group mean
    assert main(["report", str(scored), "--config", str(config), "-o", str(tmp_path / "r"), "--combiners", "grpo"]) == 0


def test_report_without_matplotlib_says_what_to_install(scored, tmp_path):
    result = run_without({"matplotlib"}, ["report", str(scored), "-o", str(tmp_path / "r")], cwd=tmp_path)
    assert result.returncode == 2
    line = one_line(result.stderr)
    assert line.startswith("polyreward report needs matplotlib: pip install -e \".[report]\"")
    assert not (tmp_path / "r").exists()


def test_serve_judge_without_torch_says_what_to_install(tmp_path):
    result = run_without({"torch"}, ["serve-judge", "--model", "tiny-qwen2", "--port", "0"], cwd=tmp_path)
    assert result.returncode == 2
    assert one_line(result.stderr).startswith("polyreward serve-judge needs torch and transformers")
    assert 'pip install -e ".[train]"' in result.stderr


def test_no_message_recommends_an_unpublished_package():
    """`pip install "polyreward[x]"` cannot resolve (not on PyPI); from a checkout it is `pip install -e ".[x]"`."""
    unpublished = re.compile(r"pip install (--\S+ )*\\?['\"]?polyreward\[")  # also inside an escaped string: \"polyreward[
    offenders = [f"{path.relative_to(ROOT)}:{n}" for folder in ("polyreward", "rewards", "rubrics", "verifiers", "combiners",
                                                              "integrations", "trainer", "examples", "scripts")
                 for path in sorted((ROOT / folder).rglob("*.py")) + sorted((ROOT / folder).rglob("*.sh"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if unpublished.search(line)]
    assert offenders == []


JUDGE_CONFIG = """
rewards:
  - name: safety
    type: rubric
    rubric_column: rubrics
    judge: {{type: openai, base_url: "{url}", model: tiny-qwen2, max_tokens: 3, max_retries: 0, timeout: 60,
             extra_body: {{guided_choice: [yes, no]}}}}
"""
RUBRIC = [{"criterion": "Advises calling emergency services.", "points": 5}]


@pytest.fixture(scope="module")
def judge_url():
    """``polyreward serve-judge --model tiny-qwen2``: the asset is served under the name a config uses for it."""
    pytest.importorskip("transformers")
    from polyreward.trainer.assets import tiny_qwen2

    tiny_qwen2()
    process = subprocess.Popen([sys.executable, "-m", "polyreward", "serve-judge", "--model", "tiny-qwen2", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV)
    try:
        line = process.stdout.readline()
        assert line.startswith("serving 'tiny-qwen2' at http://127.0.0.1:"), line or process.stderr.read()
        yield line.split(" at ")[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


def _score_one(config):
    matrix = config.build_scorer().score(Batch(["My chest hurts."], ["Call 911 now."], {"rubrics": [RUBRIC]}), combine=False)
    return matrix.scores[0, 0], matrix.reasons["safety"][0]


@pytest.mark.slow
def test_served_name_of_a_builtin_model(judge_url):
    import httpx

    assert [m["id"] for m in httpx.get(judge_url + "/models", timeout=30).json()["data"]] == ["tiny-qwen2"]


@pytest.mark.slow
def test_yes_no_in_a_judge_config_stay_strings(judge_url, tmp_path):
    """The README's `extra_body: {guided_choice: [yes, no]}`: YAML 1.1 reads booleans, which the server refuses
    (HTTP 400, every score NaN); the config loader reads YAML 1.2 booleans, so the strings reach the server."""
    path = tmp_path / "judge.yaml"
    path.write_text(JUDGE_CONFIG.format(url=judge_url))
    config = load_config(path)
    assert config.rewards[0].params["judge"]["extra_body"] == {"guided_choice": ["yes", "no"]}
    score, reason = _score_one(config)
    assert score in (0.0, 1.0), reason

    as_yaml_11 = parse_config(yaml.safe_load(path.read_text()))  # what PyYAML's default loader made of it
    assert as_yaml_11.rewards[0].params["judge"]["extra_body"] == {"guided_choice": [True, False]}
    score, reason = _score_one(as_yaml_11)
    assert math.isnan(score)
    assert reason.startswith("error: judge failed on 1 of 1 criteria (on_judge_error=nan): HTTP 400")  # a failure, counted


FIRST_RUN = ROOT / "examples" / "train" / "first_run.yaml"
TINY = ["--set", "model=tiny-qwen2", "--set", "max_new_tokens=8", "--set", "prompts_per_step=2"]  # the recipe's wiring, fast


def polyreward(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    """The CLI in a subprocess: stdout is a pipe, not a terminal (as in CI or `> log`)."""
    return subprocess.run([sys.executable, "-m", "polyreward", *argv], capture_output=True, text=True, cwd=cwd, env=ENV, timeout=600)


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """Two steps of examples/train/first_run.yaml (on the tiny Qwen2 instead of SmolLM2, to stay fast)."""
    pytest.importorskip("transformers")
    out = tmp_path_factory.mktemp("first_run") / "run"
    result = polyreward("train", str(FIRST_RUN), "--max-steps", "2", "--output-dir", str(out), *TINY, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return out, result


@pytest.mark.slow
def test_first_run_prints_one_line_per_step_off_a_terminal(first_run):
    out, result = first_run
    steps = [line for line in result.stdout.splitlines() if line.startswith("step ")]
    assert [line.split()[1] for line in steps] == ["1/2", "2/2"], result.stdout
    assert all(" accuracy " in line and " brevity " in line and " loss " in line for line in steps)
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    assert all(r["reward/brevity/mean"] is not None and -1 <= r["reward/brevity/mean"] <= 0 for r in rows)


@pytest.mark.slow
def test_resume_with_nothing_left_names_the_checkpoint(first_run):
    out, _ = first_run
    result = polyreward("train", str(FIRST_RUN), "--max-steps", "2", "--output-dir", str(out), "--resume", *TINY, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert f"nothing to do: {out / 'checkpoint-2'} already reached step 2; raise --max-steps to train further" in result.stdout
    assert f"checkpoint: {out / 'checkpoint-2'}" in result.stdout and "checkpoint: None" not in result.stdout


@pytest.mark.slow
def test_evaluate_saves_the_completions(first_run):
    out, _ = first_run
    prompts = ROOT / "examples" / "train" / "first_run_prompts.jsonl"
    result = polyreward("train", str(FIRST_RUN), "--evaluate", str(prompts), "--limit", "3", "--model", str(out / "checkpoint-2"),
                        "--output-dir", str(out), *TINY, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    saved = out / "evaluate-first_run_prompts.jsonl"
    assert f"completions and their scores: {saved}" in result.stderr
    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    assert len(rows) == 3 and rows[0]["prompt"] == "What is 7 + 7? Reply with only the number." and rows[0]["answer"] == "14"
    assert all(isinstance(r["completion"], str) and r["accuracy"] in (0.0, 1.0) and r["accuracy_reason"] for r in rows)
    assert json.loads(result.stdout)["completions"] == str(saved)  # stdout is the JSON summary alone


def test_evaluate_refuses_an_unknown_output_type_before_loading_a_model(tmp_path):
    result = polyreward("train", str(FIRST_RUN), "--evaluate", str(ROOT / "examples" / "train" / "first_run_prompts.jsonl"),
                        "--eval-output", str(tmp_path / "out.txt"), cwd=tmp_path)
    assert result.returncode == 2
    assert one_line(result.stderr).startswith(f"error: {tmp_path / 'out.txt'}: unknown file type .txt; use one of .csv, ")


# ------------------------------------------------------------------ round 2 (issue 28): one line, exit 2, before any work
def _cli(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "polyreward", *map(str, argv)], capture_output=True, text=True, cwd=cwd,
                          env=ENV, timeout=300)


def test_a_config_combiner_of_the_wrong_width_is_one_line_before_scoring(tmp_path):
    """sa_gdpo's reward_mins with 3 values for 2 rewards: said before any row is scored, as through --param."""
    config = tmp_path / "config.yaml"
    config.write_text("columns: {group: prompt_id}\nrewards:\n  - {name: a, type: think_format}\n  - {name: b, type: think_format}\n"
                      "combiner: {type: sa_gdpo, reward_mins: [0, 0, 0], reward_maxs: [1, 1, 1]}\n")
    rollouts = tmp_path / "in.jsonl"
    rollouts.write_text("".join(json.dumps({"prompt_id": i // 2, "completion": "<think>x</think> y"}) + "\n" for i in range(4)))
    result = _cli(["score", rollouts, "-c", config, "-o", tmp_path / "out.jsonl", "-q"], tmp_path)
    assert result.returncode == 2
    assert one_line(result.stderr) == "error: combiner (sa_gdpo): reward_mins has 3 value(s) but scores have 2 reward column(s)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.yaml", "in.jsonl"]  # no output, no part folder


def test_report_into_an_existing_file_is_one_line(scored, tmp_path, capsys):
    taken = tmp_path / "report.html"
    taken.write_text("mine")
    assert main(["report", str(scored), "-o", str(taken)]) == 2
    assert one_line(capsys.readouterr().err) == (f"polyreward report: error: -o {taken}: is a file; -o names a folder (created) "
                                                 "for report.html and the PNGs")
    assert taken.read_text() == "mine"


def test_advantages_into_a_missing_folder_names_the_folder(scored, tmp_path, capsys):
    target = tmp_path / "nowhere" / "o.jsonl"
    assert main(["advantages", str(scored), "-o", str(target)]) == 2
    assert one_line(capsys.readouterr().err) == (f"polyreward advantages: error: {target}: the folder {target.parent} does "
                                                 "not exist")


@pytest.mark.parametrize("text", ['[{"completion": "x"}, {"completion": "y"}]\n', '\n[\n  {"completion": "x"}\n]\n'])
def test_a_json_array_file_gets_a_hint(tmp_path, text):
    src = tmp_path / "rollouts.json"
    src.write_text(text)
    config = tmp_path / "c.yaml"
    config.write_text("rewards:\n  - {name: f, type: think_format}\n")
    result = _cli(["score", src, "-c", config, "-o", tmp_path / "out.jsonl"], tmp_path)
    assert result.returncode == 2
    assert one_line(result.stderr) == (f"error: {src}: holds a JSON array (one document), not JSON Lines (one object per line); "
                                       f"convert it into a new file first, e.g. jq -c '.[]' {src} > {tmp_path / 'rollouts.jsonl'}")


def test_report_kind_has_help():
    result = _cli(["report", "--help"], ROOT)
    assert "--kind {auto,rollouts,metrics}" in result.stdout
    assert "trainer metrics" in " ".join(result.stdout.split())


def test_readme_tour_report_agrees_with_the_advantages_step(tmp_path):
    """Tour steps 3 and 4 as the README writes them: the report's gdpo column shows the figures step 3 printed."""
    from test_readme import OTHER_BASH

    tour = [c for c, _ in OTHER_BASH if c.split()[1] in ("score", "advantages", "report") and "runs/tour" not in c]
    assert [c.split()[1] for c in tour] == ["score", "advantages", "report"]
    assert "--config examples/math/config.yaml" in tour[2]
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    printed = []
    for command in tour:
        result = subprocess.run(command, shell=True, cwd=tmp_path, env={**ENV, "COLUMNS": "200"}, capture_output=True,
                                text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        printed.append(result.stdout)
    step3 = dict(re.findall(r"│ (share/\w+|collapsed_group_fraction|sign_flip_rate/\w+) +│ +([-\d.e]+) │", printed[1]))
    assert len(step3) == 7
    page = (tmp_path / "report" / "report.html").read_text()
    header = re.search(r"<tr><th>diagnostic</th>(.*?)</tr>", page).group(1)
    gdpo = re.findall(r"<th>(\w+)</th>", header).index("gdpo") + 1
    for key, value in step3.items():
        cells = re.search(rf"<td style='text-align:left'>{re.escape(key)}</td>((?:<td>[^<]*</td>)+)", page).group(1)
        assert re.findall(r"<td>([^<]*)</td>", cells)[gdpo - 1] == value, key


def test_one_rollout_groups_are_warned_about_and_counted_as_collapsed(scored, tmp_path, capsys):
    """A group column that makes every group one rollout (here the completion): all-zero advantages, said loudly."""
    assert main(["advantages", str(scored), "--group-col", "completion", "-o", str(tmp_path / "o.jsonl")]) == 0
    captured = capsys.readouterr()
    assert one_line(captured.err) == ("warning: 100% of the 3 groups have a single scored rollout (group column 'completion'); "
                                      "their advantages are 0 and they count as collapsed. Is the group column right "
                                      "(--group-col, columns.group)?")
    rows = dict(re.findall(r"│ (collapsed_group_fraction|single_rollout_group_fraction) +│ +([\d.]+) │", captured.out))
    assert rows == {"collapsed_group_fraction": "1", "single_rollout_group_fraction": "1"}
    assert main(["advantages", str(scored), "-o", str(tmp_path / "p.jsonl")]) == 0  # prompt_id: one group of 3
    assert "warning" not in capsys.readouterr().err


IMPORTS_AFTER = """
import sys
from polyreward.cli import main
try:
    code = main(ARGV)
except SystemExit as exit_info:
    code = exit_info.code
print(sorted(m for m in ("pandas", "pyarrow", "torch", "transformers", "matplotlib") if m in sys.modules))
sys.exit(code)
"""


@pytest.mark.parametrize("argv", [["--version"], ["verify", "--gold", "3/4", "--pred", "so \\boxed{0.75}"], ["list"],
                                  ["list", "--json"], ["score", "in.jsonl", "-c", "missing.yaml", "-o", "o.jsonl"],
                                  ["advantages", "missing.jsonl", "-o", "o.jsonl"], ["train", "missing.yaml"],
                                  ["report", "missing.jsonl", "-o", "existing.txt"]])
def test_commands_that_need_no_dataframes_do_not_import_them(tmp_path, argv):
    """--version, verify, list and every mistake found before work run without pandas/pyarrow (seconds of imports)."""
    (tmp_path / "existing.txt").write_text("x")
    result = subprocess.run([sys.executable, "-c", f"ARGV = {argv!r}\n" + IMPORTS_AFTER], capture_output=True, text=True,
                            cwd=tmp_path, env=ENV, timeout=300)
    assert result.returncode in (0, 2), result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]", (argv, result.stdout[-300:])


def test_the_dev_install_fetches_only_the_two_sdists_it_needs_and_says_each_step():
    """`pip download --no-binary :all:` built every build backend from source (~14 silent minutes): the script names the
    one package per download, with --no-deps, and prints a line (with elapsed seconds) before each step."""
    script = (ROOT / "scripts" / "install_dev.sh").read_text(encoding="utf-8")
    assert ":all:" not in script
    downloads = [line.strip() for line in script.splitlines() if "$PIP download" in line]
    assert len(downloads) == 2
    for line in downloads:
        package = re.search(r"--no-binary (\S+)", line).group(1)
        assert "--no-deps" in line and f'"{package}==' in line and " -q" not in line, line  # pip's own progress shows
    steps = re.findall(r'^\s*step "(\d)/5 ', script, flags=re.M)
    assert steps == ["1", "2", "3", "4", "5"]
    result = subprocess.run(["bash", "-n", str(ROOT / "scripts" / "install_dev.sh")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_advantages_may_not_write_over_its_config(scored, tmp_path, capsys):
    config = tmp_path / "config.jsonl"  # an output extension, so only the guard stands between -o and the config
    config.write_text("rewards:\n  - {name: accuracy, type: think_format}\n")
    before = config.read_text()
    assert main(["advantages", str(scored), "--config", str(config), "-o", str(config)]) == 2
    assert one_line(capsys.readouterr().err) == (f"polyreward advantages: error: {config}: the output would replace the config "
                                                 f"file ({config}), which this run reads; choose another output path")
    assert config.read_text() == before


def test_the_example_configs_comment_commands_are_complete(tmp_path):
    """Each `polyreward score` command in an example config's comments names -o (a required flag) and files that
    exist; the rubric one, the one a newcomer copied, runs as written."""
    import shlex

    found = []
    for config in sorted((ROOT / "examples").rglob("*.yaml")):
        for line in config.read_text(encoding="utf-8").splitlines():
            command = line.lstrip("# ").split("  #")[0]
            if line.startswith("#") and "polyreward score " in command:
                found.append(shlex.split(command[command.index("polyreward score "):]))
    assert len(found) >= 3
    for argv in found:
        assert "-o" in argv and (ROOT / argv[2]).is_file() and (ROOT / argv[argv.index("--config") + 1]).is_file(), argv
    rubric = next(argv for argv in found if "examples/rubric/config.yaml" in argv)
    rubric[rubric.index("-o") + 1] = str(tmp_path / "scored.jsonl")
    result = subprocess.run([sys.executable, "-m", *rubric, "-q"], capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "scored.jsonl").is_file()
