"""Resume verifies what it reuses (issue 27): every part carries its row count and the size and SHA-256 of its
bytes; a part that does not match is scored again, never copied, in every output format. And no output path may
be a file the run reads (the input, the config, a rubric file, any file a reward loads)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from polyreward.config import load_config
from polyreward.io import InputError
from polyreward.runners.parts import PartStore
from polyreward.runners.score_file import score_file
from test_io_faults import CONFIG, ENV, one_error_line, polyreward, rollouts, write_jsonl

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _interrupted_run(tmp_path: Path, cfg: Path, out: Path) -> tuple[Path, list[str]]:
    """A run stopped by a malformed line after 4 stored chunks; returns the input and its good lines."""
    good = write_jsonl(tmp_path / "good.jsonl", rollouts(48))
    lines = good.read_text().splitlines()
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join([*lines[:40], '{"qid": 10, "output": broken', *lines[41:]]) + "\n")
    with pytest.raises(InputError, match="malformed JSON line"):
        score_file(src, out, load_config(cfg), chunk_size=8)
    assert len(list(PartStore(out).folder.glob("part-*.meta.json"))) == 4
    src.write_text("\n".join(lines) + "\n")
    return src, lines


@pytest.fixture()
def cfg(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(CONFIG)
    return path


def damage(store: PartStore, index: int, how: str) -> None:
    """Damage part ``index`` where it lies in the store's rows file (all chunks, one after the other)."""
    offset, size = store.region(index)
    data = store.rows_file.read_bytes()
    part = data[offset:offset + size]
    if how == "truncate":  # the file cut inside the part (the last one, so no other part loses its bytes)
        assert offset + size == len(data)
        store.rows_file.write_bytes(data[:offset + size // 2])
    elif how == "flip_a_byte":  # same size, other bytes: "yes" -> "yep" in a completion
        assert b'"yes"' in part
        store.rows_file.write_bytes(data[:offset] + part.replace(b'"yes"', b'"yep"', 1) + data[offset + size:])
    elif how == "drop_a_line":  # the last part's last row gone
        assert offset + size == len(data)
        store.rows_file.write_bytes(data[:offset] + b"".join(part.splitlines(keepends=True)[:-1]))
    else:  # the rows file gone: every part missing
        store.rows_file.unlink()


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
@pytest.mark.parametrize("how", ["truncate", "flip_a_byte", "drop_a_line", "delete"])
def test_a_damaged_part_is_scored_again_and_no_row_is_lost(tmp_path, cfg, suffix, how):
    out = tmp_path / f"out{suffix}"
    src, _ = _interrupted_run(tmp_path, cfg, out)
    store = PartStore(out)
    damaged = 1 if how == "flip_a_byte" else 3
    damage(store, damaged, how)
    result = score_file(src, out, load_config(cfg), chunk_size=8, resume=True)
    reference = tmp_path / f"reference{suffix}"
    score_file(src, reference, load_config(cfg), chunk_size=8)
    assert out.read_bytes() == reference.read_bytes()
    assert result.rows == 48
    if how != "delete":  # a part that does not match is said; with the rows file gone, every part is (4)
        assert any(f"1 stored chunk(s) did not match their row count or checksum (first: part {damaged})" in n for n in result.notes)
    else:
        assert any("4 stored chunk(s) did not match" in n for n in result.notes)
    assert not store.folder.exists()


def test_a_part_cut_short_by_a_kill_is_cut_off_and_the_rows_are_written_once(tmp_path, cfg):
    """Bytes after the last meta's part (a chunk written, its meta never: a kill between the two) are cut off on
    resume, so the chunks scored then follow the kept ones and the rows file is the output (no second copy)."""
    out = tmp_path / "out.jsonl"
    src, _ = _interrupted_run(tmp_path, cfg, out)
    store = PartStore(out)
    with open(store.rows_file, "ab") as handle:
        handle.write(b'{"qid": 10, "output": "half a ch')
    copies = []
    real = PartStore._write_jsonl

    def watched(self, tmp, *args):
        written = real(self, tmp, *args)
        copies.append(written != self.rows_file)
        return written

    PartStore._write_jsonl = watched
    try:
        result = score_file(src, out, load_config(cfg), chunk_size=8, resume=True)
    finally:
        PartStore._write_jsonl = real
    reference = tmp_path / "reference.jsonl"
    score_file(src, reference, load_config(cfg), chunk_size=8)
    assert out.read_bytes() == reference.read_bytes() and result.rows == 48 and not result.notes
    assert copies == [False]  # the rows file itself became the output


def resumed_writes(src, out, cfg):
    """The indices of the parts a resumed run writes (the rest it reuses as stored), and its result."""
    calls = []
    real = PartStore.write

    def counting(self, index, *args, **kwargs):
        calls.append(index)
        return real(self, index, *args, **kwargs)

    PartStore.write = counting
    try:
        return calls, score_file(src, out, load_config(cfg), chunk_size=8, resume=True)
    finally:
        PartStore.write = real


def test_intact_parts_are_reused_not_rescored(tmp_path, cfg):
    out = tmp_path / "out.jsonl"
    src, _ = _interrupted_run(tmp_path, cfg, out)
    calls, result = resumed_writes(src, out, cfg)
    assert calls == [4, 5] and result.rows == 48 and not result.notes  # parts 0-3 reused as stored


def test_a_csv_output_resumes_through_the_cli_after_a_truncated_part(tmp_path, cfg):
    """The reported case: a truncated part and a .csv output died with a JSONDecodeError traceback."""
    out = tmp_path / "out.csv"
    src, _ = _interrupted_run(tmp_path, cfg, out)
    damage(PartStore(out), 3, "truncate")
    result = polyreward("score", src, "-c", cfg, "-o", out, "--chunk-size", "8", "--resume")
    assert "Traceback" not in result.stderr and "did not match their row count or checksum" in result.stderr
    polyreward("score", src, "-c", cfg, "-o", tmp_path / "ref.csv", "--chunk-size", "8")
    assert out.read_bytes() == (tmp_path / "ref.csv").read_bytes()


def test_parts_written_before_checksums_are_scored_again(tmp_path, cfg):
    out = tmp_path / "out.jsonl"
    src, _ = _interrupted_run(tmp_path, cfg, out)
    store = PartStore(out)
    for index in range(4):  # an older part format: no size, no checksum
        meta = json.loads(store.meta(index).read_text())
        del meta["bytes"], meta["sha256"]
        store.meta(index).write_text(json.dumps(meta))
    result = score_file(src, out, load_config(cfg), chunk_size=8, resume=True)
    assert result.rows == 48 and "4 stored chunk(s) did not match" in result.notes[0]


# ------------------------------------------------------------------ no output may be a file the run reads
def _copy_rubric_example(tmp_path: Path) -> Path:
    folder = tmp_path / "rubric"
    shutil.copytree(EXAMPLES / "rubric", folder)
    return folder


@pytest.mark.parametrize("target, what", [("config.yaml", "the config file"),
                                          ("rubric.json", "the file of rewards[healthbench].rubric_file")])
def test_the_output_may_not_replace_the_config_or_a_file_a_reward_loads(tmp_path, target, what):
    folder = _copy_rubric_example(tmp_path)
    victim = folder / target
    victim.rename(victim.with_suffix(".jsonl"))  # an output needs an output extension: make the victim one
    victim = victim.with_suffix(".jsonl")
    config = folder / "config.yaml" if target != "config.yaml" else victim
    if target == "rubric.json":
        config.write_text(config.read_text().replace("rubric_file: rubric.json", "rubric_file: rubric.jsonl"))
    before = victim.read_bytes()
    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(folder / "rollouts.jsonl"), "-c", str(config),
                             "-o", str(victim)], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    line = one_error_line(result)
    assert line == f"error: {victim}: the output would replace {what} ({victim}), which this run reads; choose another output path"
    assert victim.read_bytes() == before


def test_a_judge_cache_file_is_a_file_the_run_reads(tmp_path):
    from polyreward.runners.score_file import files_read

    folder = _copy_rubric_example(tmp_path)
    cache = folder / "cache.jsonl"
    cache.write_text("")
    config = folder / "config.yaml"
    config.write_text(config.read_text().replace("judge: {type: rules}", "judge: {type: rules, cache: cache.jsonl}", 1))
    found = files_read(load_config(config))
    assert found[cache] == "the file of rewards[healthbench].judge.cache"
    assert found[config] == "the config file" and found[folder / "rubric.json"].endswith("rubric_file")


def test_a_jsonl_chunk_is_keyed_by_its_lines_as_read(tmp_path, cfg):
    """A JSONL chunk's key is the hash of its lines' bytes: an edited value re-scores its chunk only, a line
    rewritten with other bytes for the same row re-scores its chunk too (never reused for other rows), a
    blank line added between rows changes no key; the output is always that of an uninterrupted run."""
    out = tmp_path / "out.jsonl"
    src, lines = _interrupted_run(tmp_path, cfg, out)
    edited = list(lines)
    # chunks of 8 keep groups of 4 whole, and a chunk's last group waits for the next: parts 0-3 hold rows 0-3,
    # 4-11, 12-19, 20-27
    edited[3] = json.dumps(json.loads(lines[3]), separators=(",", ":"))  # part 0: same row, other bytes
    row = json.loads(lines[12])
    row["output"] = "changed, yes"  # part 2: another row
    edited[12] = json.dumps(row)
    edited.insert(24, "   ")  # part 3: a blank line between its rows is no row
    src.write_text("\n".join(edited) + "\n")
    calls, result = resumed_writes(src, out, cfg)
    assert calls == [0, 2, 4, 5] and result.rows == 48
    reference = tmp_path / "reference.jsonl"
    score_file(src, reference, load_config(cfg), chunk_size=8)
    assert out.read_bytes() == reference.read_bytes()


def test_a_resume_after_the_reward_code_changed_scores_every_part_again(tmp_path, cfg, monkeypatch):
    """Parts scored by other reward code are not mixed with this code's verdicts: a user reward module edited
    between the interrupted run and the resume (here only a comment, which a hash cannot tell from a fix) makes
    the resume score all six parts, and the output is the fresh run's bytes."""
    monkeypatch.syspath_prepend(str(tmp_path))
    module = tmp_path / "edited_rewards.py"
    module.write_text((Path(__file__).parent / "toy_rewards.py").read_text())
    cfg.write_text(CONFIG.replace("toy_rewards:", "edited_rewards:"))
    out = tmp_path / "out.jsonl"
    src, _ = _interrupted_run(tmp_path, cfg, out)
    module.write_text(module.read_text() + "\n# edited after the interrupted run\n")
    calls, result = resumed_writes(src, out, cfg)
    assert calls == [0, 1, 2, 3, 4, 5] and result.rows == 48
    reference = tmp_path / "reference.jsonl"
    score_file(src, reference, load_config(cfg), chunk_size=8)
    assert out.read_bytes() == reference.read_bytes()


def test_the_package_fingerprint_follows_every_file_of_the_package(tmp_path):
    """The package's own code is in every part's key: a copy of the package hashes alike until one of its files
    changes by one comment line."""
    import polyreward

    copy = tmp_path / "copy" / "polyreward"
    shutil.copytree(Path(polyreward.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    code = "from polyreward.runners.score_file import package_fingerprint as f; print(f())"

    def fingerprint() -> str:
        env = {"PYTHONPATH": str(copy.parent), "PATH": "", "PYTHONDONTWRITEBYTECODE": "1"}
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout.strip()

    before = fingerprint()
    assert before == fingerprint() and len(before) == 64
    reader = copy / "verifiers" / "math.py"
    reader.write_text(reader.read_text() + "\n# one more line\n")
    assert fingerprint() != before
