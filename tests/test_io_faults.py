"""`polyreward score` under file faults and newcomer mistakes: one line and exit 2 before scoring, or a correct result,
and nothing left that blocks a plain rerun or ``--resume``."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from polyreward.config import parse_config

TESTS = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}

CONFIG = """
columns: {prompt: question, completion: output, group: qid}
rewards:
  - {name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", weight: 2.0}
  - {name: exact, type: "toy_rewards:AnswerMatch", answer_column: gold}
"""


def polyreward(*args, check=True):
    result = subprocess.run([sys.executable, "-m", "polyreward", *map(str, args)], capture_output=True, text=True, env=ENV)
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def rollouts(n: int) -> list[dict]:
    return [{"qid": i // 4, "question": f"q{i // 4}", "output": "yes" if i % 3 == 0 else str(i % 5), "gold": str(i % 5), "k": i}
            for i in range(n)]


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture()
def cfg(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(CONFIG)
    return path


def one_error_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def nothing_beside(output: Path) -> list[str]:
    return sorted(p.name for p in output.parent.glob(f".{output.name}*"))


# ------------------------------------------------------------------ resume after fixing the input or the config
def test_fixing_a_malformed_line_then_resume_rescores_only_the_rest_and_is_byte_identical(tmp_path, cfg):
    rows = rollouts(60)
    good = write_jsonl(tmp_path / "good.jsonl", rows)
    lines = good.read_text().splitlines()
    bad_lines = list(lines)
    bad_lines[25], bad_lines[45] = '{"qid": 6, "output": broken', '{"qid": 11, "output": also broken'
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(bad_lines) + "\n")
    out = tmp_path / "out.jsonl"
    parts = tmp_path / ".out.jsonl.parts"

    first = polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "8", check=False)
    assert first.returncode == 2 and f"{src}:26: malformed JSON line" in first.stderr
    assert "fix the input and rerun with --resume" in first.stderr
    before = {p.name: p.stat().st_mtime_ns for p in parts.glob("part-*.meta.json")}
    assert len(before) == 2  # chunks of 8 rows; the third waits for the next (a group may go on), which holds line 26

    bad_lines[25] = lines[25]  # fix the first bad line only: the resumed run stops at the second
    src.write_text("\n".join(bad_lines) + "\n")
    second = polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "8", "--resume", check=False)
    assert second.returncode == 2 and f"{src}:46: malformed JSON line" in second.stderr
    after = {p.name: p.stat().st_mtime_ns for p in parts.glob("part-*.meta.json")}
    assert {name: after[name] for name in before} == before, "finished chunks must not be scored again"
    assert len(after) == 4

    src.write_text("\n".join(lines) + "\n")
    polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "8", "--resume")
    polyreward("score", good, "-c", cfg, "-o", tmp_path / "ref.jsonl", "--chunk-size", "8")
    assert out.read_bytes() == (tmp_path / "ref.jsonl").read_bytes()
    assert nothing_beside(out) == []


def test_fixing_the_config_then_resume_equals_a_fresh_run_of_the_fixed_config(tmp_path, cfg):
    rows = rollouts(40)
    rows[30]["output"] = "boom"
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    broken = tmp_path / "broken.yaml"
    broken.write_text(CONFIG + '  - {name: ex, type: "toy_rewards:Explodes"}\non_reward_error: raise\n')
    out = tmp_path / "out.jsonl"
    result = polyreward("score", src, "-c", broken, "-o", out, "--chunk-size", "8", check=False)
    assert result.returncode == 1
    assert re.search(r"error: reward 'ex' failed on 1 of \d+ rollouts \(on_reward_error: raise\); first: error: RuntimeError: boom", result.stderr)
    assert "rerun with --resume" in result.stderr and not out.exists()

    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(CONFIG + '  - {name: ex, type: "toy_rewards:Explodes"}\n')  # on_reward_error: nan (the default)
    polyreward("score", src, "-c", fixed, "-o", out, "--chunk-size", "8", "--resume")
    polyreward("score", src, "-c", fixed, "-o", tmp_path / "ref.jsonl", "--chunk-size", "8")
    assert out.read_bytes() == (tmp_path / "ref.jsonl").read_bytes()
    assert json.loads(out.read_text().splitlines()[30])["ex_reason"] == "error: RuntimeError: boom"


# ------------------------------------------------------------------ checked before scoring: one line, exit 2
def test_a_missing_reference_column_is_one_line_before_scoring(tmp_path, cfg):
    src = write_jsonl(tmp_path / "in.jsonl", [{k: v for k, v in r.items() if k != "gold"} for r in rollouts(8)])
    line = one_error_line(polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False))
    assert line == "error: reward 'exact' reads column 'gold', which the data does not have; columns: ['k', 'qid']"
    assert not (tmp_path / ".o.jsonl.parts").exists() and not (tmp_path / "o.jsonl").exists()


def test_missing_column_error_names_reward_and_column():
    from polyreward.pipeline import MissingColumnError, Scorer
    from polyreward.schema import Batch

    rewards = parse_config({"rewards": [{"name": "m", "type": "toy_rewards:AnswerMatch", "answer_column": "gold"}]}).build_rewards()
    with pytest.raises(MissingColumnError) as caught:
        Scorer(rewards).score(Batch(["p"], ["x"], {"other": [1]}))
    assert (caught.value.reward, caught.value.column) == ("m", "gold") and isinstance(caught.value, KeyError)


@pytest.mark.parametrize("kind", ["parquet", "csv", "jsonl"])
def test_an_empty_input_is_an_error_for_every_format(tmp_path, cfg, kind):
    src = tmp_path / f"empty.{kind}"
    if kind == "parquet":
        pd.DataFrame({"qid": pd.Series([], dtype="int64"), "output": pd.Series([], dtype="str")}).to_parquet(src)
    else:
        src.write_text("qid,output\n" if kind == "csv" else "")
    line = one_error_line(polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False))
    assert line == f"error: {src}: no rows to score"


def test_a_zero_byte_parquet_is_one_line(tmp_path, cfg):
    src = tmp_path / "zero.parquet"
    src.write_bytes(b"")
    line = one_error_line(polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False))
    assert line.startswith(f"error: {src}: not a readable Parquet file (")


def test_by_an_unknown_column_names_it(tmp_path, cfg):
    src = write_jsonl(tmp_path / "in.jsonl", rollouts(8))
    line = one_error_line(polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", "--by", "nosuchcol", check=False))
    assert line.startswith("error: --by 'nosuchcol': no such column in") and "'qid'" in line
    polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", "--by", "reward")  # output columns are fine too


def test_a_directory_as_input_and_the_input_as_output_are_refused(tmp_path, cfg):
    folder = tmp_path / "rollouts.jsonl"
    folder.mkdir()
    assert one_error_line(polyreward("score", folder, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False)) == \
        f"error: {folder}: is a directory, not a rollout file"
    src = write_jsonl(tmp_path / "in.jsonl", rollouts(8))
    before = src.read_bytes()
    line = one_error_line(polyreward("score", src, "-c", cfg, "-o", src, check=False))
    assert line == f"error: {src}: the output would replace the input file; choose another output path"
    os.symlink(src, tmp_path / "alias.jsonl")
    one_error_line(polyreward("score", src, "-c", cfg, "-o", tmp_path / "alias.jsonl", check=False))
    assert src.read_bytes() == before


def test_a_read_only_output_folder_is_one_line(tmp_path, cfg, monkeypatch):
    """The tests run as root, which writes into a chmod 0o555 folder anyway; so the folder's permission check
    (os.access) is made to answer as it does for an ordinary user, and the real OSError path is driven too."""
    from polyreward.io import InputError
    from polyreward.runners.score_file import score_file

    src = write_jsonl(tmp_path / "in.jsonl", rollouts(8))
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == locked and mode & os.W_OK else real_access(p, mode))
    with pytest.raises(InputError, match=f"^{locked / 'o.jsonl'}: the folder {locked} is not writable$"):
        score_file(src, locked / "o.jsonl", parse_config(__import__("yaml").safe_load(CONFIG)))


def test_duplicate_csv_headers_name_the_column(tmp_path, cfg):
    src = tmp_path / "dup.csv"
    src.write_text("qid,output,gold,output\n1,yes,1,no\n")
    assert one_error_line(polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False)) == \
        f"error: {src}:1: the CSV header names column(s) ['output'] more than once"


# ------------------------------------------------------------------ failures that must not look like success
def test_a_run_where_every_row_failed_exits_non_zero_with_the_reason(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text('columns: {completion: output}\nrewards:\n  - {name: ex, type: "toy_rewards:Explodes"}\n')
    src = write_jsonl(tmp_path / "in.jsonl", [{"output": "boom"} for _ in range(5)])
    result = polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False)
    assert result.returncode == 1
    assert "error: reward 'ex' failed on every one of the 5 rows; first reason: error: RuntimeError: boom" in result.stderr
    assert (tmp_path / "o.jsonl").exists()  # the rows and their reasons are still written, for inspection


# ------------------------------------------------------------------ assembly faults
def _reference(tmp_path, cfg, src) -> bytes:
    polyreward("score", src, "-c", cfg, "-o", tmp_path / "ref.jsonl")
    return (tmp_path / "ref.jsonl").read_bytes()


def test_enospc_during_assembly_keeps_the_parts_and_leaves_no_temp_file_mock(tmp_path, cfg, monkeypatch):
    """ENOSPC injected into the final write (a mock: the one fault of this module that needs a full disk; the test
    below makes it for real on a tiny tmpfs where mounting is allowed)."""
    from polyreward.runners.parts import OutputError, PartStore
    from polyreward.runners.score_file import score_file

    config = parse_config(__import__("yaml").safe_load(CONFIG))
    src = write_jsonl(tmp_path / "in.jsonl", rollouts(40))
    reference = _reference(tmp_path, cfg, src)
    out = tmp_path / "out.jsonl"
    real = PartStore._write_jsonl

    def full_disk(self, tmp, *args):
        tmp.write_bytes(b'{"half": ')
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(PartStore, "_write_jsonl", full_disk)
    with pytest.raises(OutputError, match="No space left on device"):
        score_file(src, out, config, chunk_size=8)
    assert not out.exists() and nothing_beside(out) == [".out.jsonl.parts"]
    assert not (tmp_path / ".out.jsonl.parts" / "assembly.tmp").exists()
    monkeypatch.setattr(PartStore, "_write_jsonl", real)
    score_file(src, out, config, chunk_size=8, resume=True)
    assert out.read_bytes() == reference and nothing_beside(out) == []


def test_enospc_for_real_on_a_tiny_tmpfs(tmp_path, cfg):
    mount = tmp_path / "small"
    mount.mkdir()
    src = write_jsonl(tmp_path / "in.jsonl", rollouts(1000))
    reference = _reference(tmp_path, cfg, src)
    size = len(reference) // 2 + 65536  # half the rows fit (each row is written once: the rows file becomes the output)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True).returncode:
        pytest.skip("mounting a tmpfs needs root (the mocked test above covers the same path)")
    try:
        out = mount / "out.jsonl"
        result = polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "400", check=False)
        assert result.returncode == 1 and "No space left on device" in result.stderr and "--resume" in result.stderr
        assert not out.exists() and nothing_beside(out) == [".out.jsonl.parts"]
        assert not (mount / ".out.jsonl.parts" / "assembly.tmp").exists()
        subprocess.run(["mount", "-o", "remount,size=4m", str(mount)], check=True)
        polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "400", "--resume")
        assert out.read_bytes() == reference and nothing_beside(out) == []
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


KILL_DURING_ASSEMBLY = """
import os, signal, sys
sys.argv = ["polyreward", "score", *sys.argv[1:]]
from polyreward.runners.parts import PartStore
write_jsonl = PartStore._write_jsonl
def killed(self, tmp, *args):
    write_jsonl(self, tmp, *args)
    os.kill(os.getpid(), signal.SIGKILL)  # the output is written (the rows file itself), not yet renamed onto OUT
PartStore._write_jsonl = killed
from polyreward.cli import main
main()
"""


def test_a_kill_during_assembly_leaves_nothing_beside_the_output(tmp_path, cfg):
    src = write_jsonl(tmp_path / "in.jsonl", rollouts(40))
    reference = _reference(tmp_path, cfg, src)
    out = tmp_path / "out.jsonl"
    killed = subprocess.run([sys.executable, "-c", KILL_DURING_ASSEMBLY, str(src), "-c", str(cfg), "-o", str(out), "--chunk-size", "8"],
                            env=ENV, capture_output=True)
    assert killed.returncode == -9
    assert not out.exists() and nothing_beside(out) == [".out.jsonl.parts"]  # no .out.jsonl.tmpNNN
    assert (tmp_path / ".out.jsonl.parts" / "rows.jsonl").exists()  # the output's rows (written once), not yet renamed onto OUT
    polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "8", "--resume")
    assert out.read_bytes() == reference and nothing_beside(out) == []


# ------------------------------------------------------------------ odd values
def test_a_lone_surrogate_is_read_as_replacement_character_counted_also_with_resume_and_skip(tmp_path, cfg):
    rows = rollouts(12)
    lines = [json.dumps(r) for r in rows]
    lines[5] = lines[5].replace('"gold": "0"', '"gold": "\\ud800x"')
    lines[7] = lines[7].replace('"question": "q1"', '"question": "pair \\ud83d\\ude00 lone \\udfff"')
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "o.jsonl"
    result = polyreward("score", src, "-c", cfg, "-o", out)
    assert "warning: 2 line(s) held lone UTF-16 surrogates" in result.stderr and "first at line 6" in result.stderr
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert written[5]["gold"] == "\ufffdx" and written[7]["question"] == "pair \U0001F600 lone \ufffd"
    assert written[6]["k"] == 6 and isinstance(written[6]["k"], int)
    polyreward("score", src, "-c", cfg, "-o", tmp_path / "r.jsonl", "--resume")
    assert (tmp_path / "r.jsonl").read_bytes() == out.read_bytes()
    src.write_text("\n".join(lines[:3] + ["{broken"] + lines[3:]) + "\n")
    skipped = polyreward("score", src, "-c", cfg, "-o", tmp_path / "s.jsonl", "--on-error", "skip")
    assert "skipped 1 malformed line(s)" in skipped.stdout and len((tmp_path / "s.jsonl").read_text().splitlines()) == 12


def test_bytes_completions_are_text_and_lists_of_strings_fail_per_row(tmp_path, cfg):
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"qid": [0, 0], "question": ["q", "q"], "output": pa.array([b"yes", b"1"], type=pa.binary()),
                             "gold": ["x", "1"]}), src)
    polyreward("score", src, "-c", cfg, "-o", tmp_path / "o.jsonl")
    first, second = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert first["has_yes"] == 1.0 and second["exact"] == 1.0

    lists = write_jsonl(tmp_path / "lists.jsonl", [{"qid": 0, "question": "q", "output": ["yes", "no"], "gold": "yes"},
                                                   {"qid": 0, "question": "q", "output": "yes", "gold": "yes"}])
    result = polyreward("score", lists, "-c", cfg, "-o", tmp_path / "l.jsonl")
    first, second = [json.loads(line) for line in (tmp_path / "l.jsonl").read_text().splitlines()]
    assert first["has_yes"] is None and first["has_yes_reason"].startswith("error: TypeError: a completion must be a string or a list of chat messages")
    assert second["has_yes"] == 1.0
    assert "has_yes" in result.stdout


def test_a_write_failure_that_is_not_a_full_disk_names_its_cause_not_free_space(tmp_path, cfg, monkeypatch, capsys):
    """EIO (a failing device or network filesystem: a fault this machine cannot cause, hence the mock) is not a
    full disk, so the advice is to fix the cause printed above, not to free space."""
    from polyreward.cli import main
    from polyreward.runners.parts import PartStore

    src = write_jsonl(tmp_path / "in.jsonl", rollouts(16))

    def failing_device(self, tmp, *args):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(PartStore, "_write_jsonl", failing_device)
    out = tmp_path / "out.jsonl"
    assert main(["score", str(src), "-c", str(cfg), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"error: writing {out} failed: {os.strerror(errno.EIO)}" in err
    assert "fix the cause above and rerun with --resume" in err and "free space" not in err
