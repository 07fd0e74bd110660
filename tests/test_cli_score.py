"""`polyreward score`: formats, reasons, summary, malformed input, atomic output and kill -9 resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

TESTS = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}

CONFIG = """
columns: {prompt: question, completion: output, group: qid}
rewards:
  - {name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", weight: 2.0}
  - {name: exact, type: "toy_rewards:AnswerMatch", answer_column: gold}
"""


def polyreward(*args, check=True, **kwargs):
    result = subprocess.run([sys.executable, "-m", "polyreward", *map(str, args)], capture_output=True, text=True, env=ENV, **kwargs)
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def rollouts(n: int) -> list[dict]:
    return [{"qid": i // 4, "question": f"q{i // 4}", "output": "yes" if i % 3 == 0 else str(i % 5), "gold": str(i % 5), "skip": i % 7 == 6} for i in range(n)]


@pytest.fixture()
def setup(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rollouts(40)))
    return tmp_path, cfg, src


def read(path: Path) -> pd.DataFrame:
    if path.suffix == ".jsonl":
        return pd.read_json(path, lines=True, dtype=False)
    if path.suffix == ".csv":
        return pd.read_csv(path, dtype=str, keep_default_na=False)
    return pd.read_parquet(path)


@pytest.mark.parametrize("out_name", ["out.jsonl", "out.csv", "out.parquet"])
def test_score_adds_reward_total_and_reason_columns(setup, out_name):
    tmp, cfg, src = setup
    result = polyreward("score", src, "--config", cfg, "-o", tmp / out_name, "--chunk-size", "7", "--by", "qid")
    frame = read(tmp / out_name)
    assert len(frame) == 40
    assert {"qid", "question", "output", "gold", "skip", "has_yes", "exact", "reward", "has_yes_reason", "exact_reason", "has_yes.length"} <= set(frame.columns)
    rows = rollouts(40)
    for i in (0, 1, 6, 13):
        row = frame.iloc[i]
        expected_yes = None if rows[i]["skip"] else float("yes" in rows[i]["output"])
        got = row["has_yes"]
        if expected_yes is None:
            assert got in (None, "") or pd.isna(got)
        else:
            assert float(got) == expected_yes
    assert float(frame.iloc[1]["exact"]) == 1.0  # output "1" == gold "1"
    assert float(frame.iloc[0]["reward"]) == 2.0  # 2 * yes + 1 * (yes != "0")
    assert "scored 40 rows" in result.stdout and "per qid" in result.stdout
    assert not (tmp / f".{out_name}.parts").exists()


def test_parquet_and_csv_inputs_round_trip(setup):
    tmp, cfg, src = setup
    frame = pd.DataFrame(rollouts(12))
    frame.to_parquet(tmp / "in.parquet")
    frame.to_csv(tmp / "in.csv", index=False)
    polyreward("score", tmp / "in.parquet", "--config", cfg, "-o", tmp / "a.jsonl")
    polyreward("score", tmp / "in.csv", "--config", cfg, "-o", tmp / "b.jsonl")
    a, b = read(tmp / "a.jsonl"), read(tmp / "b.jsonl")
    assert a["has_yes"].tolist()[:6] == b["has_yes"].tolist()[:6]
    assert a["exact"].tolist() == b["exact"].tolist()


def test_malformed_line_is_named_and_skip_mode_counts(setup):
    tmp, cfg, src = setup
    lines = src.read_text().splitlines()
    lines.insert(5, '{"qid": 1, "output": broken')
    bad = tmp / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = polyreward("score", bad, "--config", cfg, "-o", tmp / "o.jsonl", check=False)
    assert result.returncode == 2
    assert f"{bad}:6: malformed JSON line" in result.stderr
    result = polyreward("score", bad, "--config", cfg, "-o", tmp / "o2.jsonl", "--on-error", "skip")
    assert "skipped 1 malformed line(s) (first at line 6)" in result.stdout
    assert len(read(tmp / "o2.jsonl")) == 40


def test_bad_config_fails_before_scoring(setup):
    tmp, cfg, src = setup
    cfg.write_text("rewards:\n  - {name: a, type: math_acuracy}\n")
    result = polyreward("score", src, "--config", cfg, "-o", tmp / "o.jsonl", check=False)
    assert result.returncode == 2
    assert "rewards[0].type: unknown reward type 'math_acuracy'; allowed:" in result.stderr
    assert not (tmp / "o.jsonl").exists() and not (tmp / ".o.jsonl.parts").exists()


def test_unknown_extension_is_a_clear_error(setup):
    tmp, cfg, src = setup
    result = polyreward("score", src, "--config", cfg, "-o", tmp / "o.txt", check=False)
    assert result.returncode == 2 and "unknown file type .txt" in result.stderr


def test_kill9_mid_file_then_resume_equals_uninterrupted_run(tmp_path):
    cfg = tmp_path / "slow.yaml"
    cfg.write_text(CONFIG.replace('weight: 2.0}', 'weight: 2.0, delay: 0.01}'))
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rollouts(600)))
    polyreward("score", src, "--config", cfg, "-o", tmp_path / "full.jsonl", "--chunk-size", "50")

    out = tmp_path / "resumed.jsonl"
    parts = tmp_path / ".resumed.jsonl.parts"
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "score", str(src), "--config", str(cfg), "-o", str(out), "--chunk-size", "50"], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (parts / "part-000002.meta.json").exists():
        assert time.monotonic() < deadline and proc.poll() is None, "scoring did not get going"
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not out.exists()
    done_before = len(list(parts.glob("part-*.meta.json")))
    assert 3 <= done_before < 12

    kept = {p.name: p.stat().st_mtime_ns for p in parts.glob("part-*.meta.json")}
    resumed = polyreward("score", src, "--config", cfg, "-o", out, "--chunk-size", "50", "--resume")
    assert f"resuming: {len(kept)} finished chunk(s)" in resumed.stderr
    assert out.read_bytes() == (tmp_path / "full.jsonl").read_bytes()
    assert not parts.exists()
    assert not list(tmp_path.glob(".resumed.jsonl*")), "nothing may be left beside the output"


def test_a_leftover_parts_folder_never_blocks_a_plain_rerun(setup):
    tmp, cfg, src = setup
    parts = tmp / ".o.jsonl.parts"
    parts.mkdir()
    (parts / "part-000000.jsonl").write_text("garbage\n")
    (parts / "part-000000.meta.json").write_text("{")
    (parts / "assembly.tmp").write_text("half")
    result = polyreward("score", src, "--config", cfg, "-o", tmp / "o.jsonl")
    assert "starting over; removed the unfinished run" in result.stderr and "--resume" in result.stderr
    polyreward("score", src, "--config", cfg, "-o", tmp / "ref.jsonl")
    assert (tmp / "o.jsonl").read_bytes() == (tmp / "ref.jsonl").read_bytes()
    assert not parts.exists()


def test_resume_with_unrelated_parts_scores_everything_again(tmp_path, setup):
    tmp, cfg, src = setup
    parts = tmp / ".o.jsonl.parts"
    parts.mkdir()
    (parts / "part-000000.jsonl").write_text('{"x": 1}\n')
    (parts / "part-000000.meta.json").write_text('{"key": "another input", "rows": 1}')
    polyreward("score", src, "--config", cfg, "-o", tmp / "o.jsonl", "--resume")
    polyreward("score", src, "--config", cfg, "-o", tmp / "ref.jsonl")
    assert (tmp / "o.jsonl").read_bytes() == (tmp / "ref.jsonl").read_bytes()


def test_chunks_never_split_a_group():
    from polyreward.runners.chunking import group_aligned

    rows = [{"g": g} for g in [1, 1, 1, 2, 2, 3, 3, 3, 3, 4]]
    chunks = list(group_aligned((rows[i : i + 2] for i in range(0, len(rows), 2)), "g"))
    assert [r for c in chunks for r in c] == rows
    assert [[r["g"] for r in c] for c in chunks] == [[1, 1, 1], [2, 2], [3, 3, 3, 3, 4]]  # the last chunk is never cut
    whole = [{"g": g} for g in [1, 2, 1, 2]]  # not grouped, but one chunk: scored in one call, nothing split
    assert list(group_aligned(iter([whole]), "g")) == [whole]
    no_group = [{"x": i} for i in range(5)]
    assert list(group_aligned(iter([no_group[:2], no_group[2:]]), "g")) == [no_group[:2], no_group[2:]]


def test_fault_inputs_give_clear_errors_or_are_skipped(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    bad_utf8 = tmp_path / "bad.jsonl"
    bad_utf8.write_bytes(b'{"qid": 1, "question": "q", "output": "yes", "gold": "1"}\n{"qid": 1, "output": "\xff\xfe"}\n'
                         b'{"qid": 2, "question": "q", "output": "no", "gold": "1"}\n')
    result = polyreward("score", bad_utf8, "--config", cfg, "-o", tmp_path / "o.jsonl", check=False)
    assert result.returncode == 2 and f"{bad_utf8}:2: not valid UTF-8" in result.stderr
    polyreward("score", bad_utf8, "--config", cfg, "-o", tmp_path / "o2.jsonl", "--on-error", "skip")
    assert len(read(tmp_path / "o2.jsonl")) == 2

    wrong_column = tmp_path / "wrong.jsonl"
    wrong_column.write_text('{"qid": 1, "completion": "yes", "gold": "1"}\n')
    result = polyreward("score", wrong_column, "--config", cfg, "-o", tmp_path / "o3.jsonl", check=False)
    assert result.returncode == 2 and "no row has the completion column 'output' (config columns.completion)" in result.stderr

    bom_csv = tmp_path / "bom.csv"
    bom_csv.write_bytes("\ufeffqid,question,output,gold\n1,q,yes,1\n".encode("utf-8"))
    polyreward("score", bom_csv, "--config", cfg, "-o", tmp_path / "o4.jsonl")
    assert list(read(tmp_path / "o4.jsonl").columns[:4]) == ["qid", "question", "output", "gold"]

    bom_jsonl = tmp_path / "bom.jsonl"
    bom_jsonl.write_bytes(b'\xef\xbb\xbf{"qid": 1, "question": "q", "output": "yes", "gold": "1"}\n')
    polyreward("score", bom_jsonl, "--config", cfg, "-o", tmp_path / "o5.jsonl")
    assert float(read(tmp_path / "o5.jsonl")["has_yes"][0]) == 1.0

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    result = polyreward("score", empty, "--config", cfg, "-o", tmp_path / "o6.jsonl", check=False)
    assert result.returncode == 2 and f"{empty}: no rows to score" in result.stderr
    assert not (tmp_path / "o6.jsonl").exists()


OTC_CONFIG = """
columns: {prompt: question, completion: output, group: qid}
rewards:
  - {name: otc, type: otc_tool_efficiency, form: grpo, group_column: qid, answer_column: gold}
"""


def _otc_rows(order):
    """Two groups of three rollouts; correct ones ("<answer>1</answer>") use 1 or 3 tool calls."""
    calls = {"a": 1, "b": 3, "c": 0}
    rows = []
    for qid, kind in order:
        text = "<tool_call>{}</tool_call>" * calls[kind] + ("<answer>1</answer>" if kind != "c" else "<answer>2</answer>")
        rows.append({"qid": qid, "question": f"q{qid}", "output": text, "gold": "1"})
    return rows


@pytest.mark.parametrize("grouped", [True, False])
def test_group_level_rewards_warn_when_the_file_does_not_keep_groups_together(tmp_path, grouped):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(OTC_CONFIG)
    order = [(1, "a"), (1, "b"), (1, "c"), (2, "a"), (2, "b"), (2, "c")]
    if not grouped:
        order = [order[0], order[3], order[1], order[4], order[2], order[5]]  # 1, 2, 1, 2, 1, 2
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in _otc_rows(order)))
    result = polyreward("score", src, "--config", cfg, "-o", tmp_path / "o.jsonl", "--chunk-size", "2", "--quiet")
    if grouped:
        assert "does not keep each group's rows together" not in result.stderr
    else:
        assert "warning: qid '1' comes back at data row 3 after other groups" in result.stderr
        assert "['otc']" in result.stderr and "Sort the file by 'qid'" in result.stderr
    # one chunk holding the whole file: every group is whole, whatever the order, so no warning
    whole = polyreward("score", src, "--config", cfg, "-o", tmp_path / "w.jsonl", "--chunk-size", "100", "--quiet")
    assert "does not keep" not in whole.stderr


def test_rewardset_group_columns():
    from polyreward.rewards.tool_efficiency import OTCToolEfficiency
    from polyreward.rewardset import RewardSet

    assert RewardSet([OTCToolEfficiency(form="grpo", group_column="qid")]).group_columns == ("qid",)
    assert RewardSet([OTCToolEfficiency(form="ppo")]).group_columns == ()


def test_negative_workers_is_a_clear_error(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rollouts(4)))
    result = polyreward("score", src, "--config", cfg, "-o", tmp_path / "o.jsonl", "--workers", "-2", check=False)
    assert result.returncode == 2 and "--workers must be >= 0" in result.stderr and "Traceback" not in result.stderr


def test_math_timeouts_are_counted_in_the_failed_column(tmp_path):
    """math_accuracy scores a stopped check 0.0 (on_timeout: zero), but the summary's `failed` column counts it: a
    1 ms budget cannot parse an integral, while the numeric fast path needs no worker at all."""
    config = tmp_path / "c.yaml"
    config.write_text("rewards:\n  - {name: acc, type: math_accuracy, timeout: 0.001}\n")
    rows = [{"completion": f"\\boxed{{\\int_0^{i} x^{i} \\sin(x) dx}}", "answer": f"\\frac{{{i}}}{{{i + 1}}} + \\cos({i})"}
            for i in (2, 3)] + [{"completion": "\\boxed{4}", "answer": "4"}, {"completion": "\\boxed{5}", "answer": "4"}]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    result = polyreward("score", src, "-c", config, "-o", out, "-q", check=False)
    assert result.returncode == 0, result.stderr
    table = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]] for line in result.stdout.splitlines()
             if line.startswith("│")}
    assert table["acc"] == ["4", "0.2500", "0.5000", "0", "2"]  # n, mean, std, NaN, failed
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["acc"] for r in scored] == [0.0, 0.0, 1.0, 0.0]
    assert all(r["acc_reason"].startswith("timeout") for r in scored[:2])
