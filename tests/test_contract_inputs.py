"""Hostile configs and files, and first-day mistakes: one clear line and exit 2 (bounded time and memory), or the
documented behaviour, never a traceback, a hang or a silent wrong number."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polyreward.config import load_yaml

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
GOOD = "rewards:\n  - {name: f, type: think_format}\n"
ROWS = [{"prompt": "p", "completion": "<think>a</think> b", "prompt_id": 1},
        {"prompt": "p", "completion": "no think", "prompt_id": 1}]


def _bounded_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))  # a regression reading /dev/zero dies alone, not the machine


def _cli(*args: str, timeout: float = 120, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(TESTS), os.environ.get("PYTHONPATH", "")))}
    return subprocess.run([sys.executable, "-m", "polyreward", *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd,
                          preexec_fn=_bounded_memory)


def _one_line_exit_2(out: subprocess.CompletedProcess, *needles: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    for needle in needles:
        assert needle in out.stderr, out.stderr


def _rows_file(tmp_path: Path, rows=ROWS, name="rows.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# -- hostile config files -------------------------------------------------------------------------------------------

def _laughs() -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    return "\n".join(lines) + "\nrewards: *i\n"


@pytest.mark.parametrize("make, needle", [
    (lambda p: p.write_text("rewards: " + "[" * 20000 + "]" * 20000 + "\n"), "nests deeper"),
    (lambda p: p.write_text("rewards:\n  - " + "{a: " * 150 + "1" + "}" * 150 + "\n"), "nests deeper"),
    (lambda p: p.write_text(_laughs()), "aliases"),
    (lambda p: p.write_bytes(b"rewards:\n  - {name: caf\xe9, type: think_format}\n"), "not UTF-8"),
    (lambda p: p.write_text("rewards:\n  - {name: f, type: think_format, weight: " + "7" * 100_000 + "}\n"), "4,300 digits"),
    (lambda p: p.write_text("rewards:\n  - {name: a, type: think_format, weight: 1e308}\n"
                            "  - {name: b, type: think_format, weight: 1e308}\ncombiner: gdpo\n"), "weights add up"),
    (lambda p: os.mkfifo(p), "FIFO"),
    (lambda p: p.open("wb").truncate(1 << 30), "over the limit"),
])
def test_hostile_configs_are_one_line_and_exit_2(tmp_path, make, needle):
    config = tmp_path / "config.yaml"
    make(config)
    rows = _rows_file(tmp_path)
    started = time.monotonic()
    out = _cli("score", str(rows), "-c", str(config), "-o", str(tmp_path / "o.jsonl"), "--quiet", "--workers", "0")
    _one_line_exit_2(out, needle)
    assert time.monotonic() - started < 100  # bounded (a FIFO without a writer used to block forever)


@pytest.mark.parametrize("path, needle", [("/dev/zero", "is a device"), (str(ROOT), "is a directory")])
def test_dev_zero_and_a_directory_are_refused_without_reading(tmp_path, path, needle):
    out = _cli("score", str(_rows_file(tmp_path)), "-c", path, "-o", str(tmp_path / "o.jsonl"), "--quiet", timeout=60)
    _one_line_exit_2(out, needle)


def test_load_yaml_refuses_what_it_cannot_build_safely():
    import yaml

    assert load_yaml("a: [1, 2]") == {"a": [1, 2]}
    assert load_yaml("") is None
    for text in ("x: " + "[" * 5000 + "]" * 5000, _laughs(), "w: " + "1" * 5000, "a: &a [*a]"):
        with pytest.raises(yaml.YAMLError):
            load_yaml(text)


def test_a_reward_model_folder_with_an_empty_config_json_fails_at_validation(tmp_path):
    folder = tmp_path / "rm"
    folder.mkdir()
    for content in ("", "{}", "[1]"):
        (folder / "config.json").write_text(content)
        config = tmp_path / "rm.yaml"
        config.write_text(f"rewards:\n  - {{name: rm, type: reward_model, model: {folder}}}\n")
        out = _cli("score", str(_rows_file(tmp_path)), "-c", str(config), "-o", str(tmp_path / "o.jsonl"), "--quiet")
        _one_line_exit_2(out, "config.json")


# -- hostile files --------------------------------------------------------------------------------------------------

def test_a_csv_header_of_100k_columns_is_read_in_linear_time(tmp_path):
    from polyreward.io import iter_chunks

    n = 100_000
    path = tmp_path / "wide.csv"
    with path.open("w") as handle:
        handle.write(",".join(["prompt", "completion"] + [f"c{i}" for i in range(n)]) + "\n")
        for _ in range(2):
            handle.write(",".join(["p", "x"] + ["v"] * n) + "\n")
    started = time.monotonic()
    rows = [row for chunk in iter_chunks(path, 1000) for row in chunk]
    assert len(rows) == 2 and len(rows[0]) == n + 2
    assert time.monotonic() - started < 60  # quadratic: minutes; linear: about a second even on a loaded machine
    (tmp_path / "c.yaml").write_text(GOOD)
    out = _cli("score", str(path), "-c", str(tmp_path / "c.yaml"), "-o", str(tmp_path / "o.jsonl"), "--quiet", "--workers", "0")
    assert out.returncode == 0, out.stderr[-2000:]


def test_completions_that_are_null_or_not_text_fail_with_a_reason():
    from polyreward.config import parse_config
    from polyreward.schema import Batch

    scorer = parse_config({"rewards": [{"name": "f", "type": "think_format"}]}).build_scorer(0)
    batch = Batch(["p"] * 4, ["<think>a</think> b", None, {"weird": 1}, [{"role": "assistant", "content": "<think>a</think> b"}]])
    scored = scorer.score(batch, combine=False)
    assert scored.failed[:, 0].tolist() == [False, True, True, False]
    assert math.isnan(scored.scores[1, 0]) and math.isnan(scored.scores[2, 0])
    assert scored.reasons["f"][1].startswith("input:") and scored.reasons["f"][2].startswith("error:")
    assert scored.scores[0, 0] == scored.scores[3, 0]


# -- first day ------------------------------------------------------------------------------------------------------

def test_a_typo_in_columns_prompt_is_refused_before_any_work(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("columns: {prompt: promt}\n" + GOOD)
    out = _cli("score", str(_rows_file(tmp_path)), "-c", str(config), "-o", str(tmp_path / "o.jsonl"), "--quiet")
    _one_line_exit_2(out, "'promt'", "columns.prompt")


def test_empty_group_ids_are_one_clear_line(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(GOOD + "combiner: grpo\n")
    rows = [dict(ROWS[0]), {**ROWS[1], "prompt_id": None}, {**ROWS[1], "prompt_id": float("nan")}]
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")  # NaN written as the NaN literal Python reads
    out = _cli("score", str(path), "-c", str(config), "-o", str(tmp_path / "o.jsonl"), "--quiet", "--workers", "0")
    _one_line_exit_2(out, "empty group id", "row 2")


def test_without_a_group_column_a_rows_group_is_its_prompt(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(GOOD + "combiner: grpo\n")
    rows = [{"prompt": p, "completion": c} for p in ("p", "q") for c in ("<think>a</think> b", "none")]
    grouped = [{**r, "prompt_id": r["prompt"]} for r in rows]
    out_a = _cli("score", str(_rows_file(tmp_path, rows, "a.jsonl")), "-c", str(config), "-o", str(tmp_path / "a-out.jsonl"),
                 "--quiet", "--workers", "0")
    out_b = _cli("score", str(_rows_file(tmp_path, grouped, "b.jsonl")), "-c", str(config), "-o", str(tmp_path / "b-out.jsonl"),
                 "--quiet", "--workers", "0")
    assert out_a.returncode == 0 and out_b.returncode == 0, out_a.stderr + out_b.stderr
    adv = lambda name: [json.loads(line)["advantage"] for line in (tmp_path / name).read_text().splitlines()]  # noqa: E731
    assert adv("a-out.jsonl") == adv("b-out.jsonl") and adv("a-out.jsonl")[0] > 0


def test_the_json_array_hint_writes_a_new_file(tmp_path):
    from polyreward.io import InputError, iter_chunks

    path = tmp_path / "arr.jsonl"
    path.write_text(json.dumps(ROWS))
    with pytest.raises(InputError) as caught:
        list(iter_chunks(path))
    hint = str(caught.value).split("e.g. ", 1)[1]
    assert hint.startswith("jq -c '.[]' ") and not hint.endswith(f"> {path}")
    target = Path(hint.rsplit("> ", 1)[1].strip("'"))
    assert target != path and target.suffix == ".jsonl"


def test_score_dataset_takes_a_list_of_dicts_and_a_dict_of_columns():
    from polyreward.io import InputError
    from polyreward.runners.datasets_io import score_dataset

    config = {"rewards": [{"name": "f", "type": "think_format"}], "combiner": "grpo"}
    scored = score_dataset([dict(r) for r in ROWS], config)
    assert isinstance(scored, list) and [r["f"] for r in scored] == [1.0, 0.0] and "advantage" in scored[0]
    columns = {key: [r[key] for r in ROWS] for key in ROWS[0]}
    by_column = score_dataset(columns, config)
    assert by_column["f"] == [1.0, 0.0] and by_column["advantage"] == [r["advantage"] for r in scored]
    with pytest.raises(InputError, match="different lengths"):
        score_dataset({**columns, "prompt_id": [1]}, config)
    with pytest.raises(InputError, match=r"rows\[1\] is str"):
        score_dataset([ROWS[0], "oops"], config)


@pytest.mark.parametrize("command", ["advantages", "report"])
def test_dash_c_is_accepted_wherever_config_is(command):
    from polyreward.cli import build_parser

    parser = build_parser(command)
    args = parser.parse_args([command, "x.jsonl", "-c", "cfg.yaml", "-o", "out"])
    assert args.config == "cfg.yaml"


def test_ctrl_c_during_score_says_to_resume(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("rewards:\n  - {name: slow, type: 'toy_rewards:ContainsWord', delay: 0.2}\n")
    rows = _rows_file(tmp_path, [{"prompt": "p", "completion": "yes"}] * 200)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(TESTS), os.environ.get("PYTHONPATH", "")))}
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "score", str(rows), "-c", str(config), "-o", str(tmp_path / "o.jsonl"),
                             "--quiet", "--workers", "0", "--chunk-size", "5"], stderr=subprocess.PIPE, text=True, env=env,
                            # a test run started in the background inherits SIGINT ignored, and Python then never raises
                            # KeyboardInterrupt: give the child the terminal's default, as a user's Ctrl-C finds it
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    parts = tmp_path / ".o.jsonl.parts"
    deadline = time.time() + 90
    while time.time() < deadline and not (parts.exists() and any(parts.glob("*"))):
        time.sleep(0.2)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "--resume" in err and "Traceback" not in err, err


def test_the_readme_extras_line_pins_the_cpu_torch_first():
    for page in (ROOT / "README.md", ROOT / "docs" / "getting-started.md"):
        text = page.read_text(encoding="utf-8")
        assert 'pip install torch==2.13.0 && pip install -e ".[report,train]"' in text
        assert text.count('".[report,train]"') == text.count('torch==2.13.0 && pip install -e ".[report,train]"')
    install = (ROOT / "scripts" / "install_dev.sh").read_text()
    assert '"torch==2.13.0"' in install  # the same pin as the dev install


def test_a_column_of_the_wrong_length_is_named_as_such():
    from polyreward.rewards.math_accuracy import MathAccuracy

    with pytest.raises(ValueError, match="column 'answer' has 1 values for 2 completions"):
        MathAccuracy()(completions=["1", "2"], answer=["1"])
    assert MathAccuracy()(completions=["1", "2"], answer=["1", "2"]) == [1.0, 1.0]
