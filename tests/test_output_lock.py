"""One run per output (issue 29): the run holds an advisory lock (fcntl.flock) on its part folder; a second run on
the same ``-o`` is refused with one line naming the first one's pid and exit 2, and never deletes its parts."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from polyreward.config import parse_config
from polyreward.runners.parts import OutputLockedError, PartStore
from polyreward.runners.score_file import score_file
from test_io_faults import ENV, one_error_line, rollouts, write_jsonl

SLOW = """
columns: {prompt: question, completion: output, group: qid}
rewards:
  - {name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", delay: 0.05}
"""


def _score(src: Path, cfg: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "polyreward", "score", str(src), "-c", str(cfg), "-o", str(out), "--workers", "0",
                             "--chunk-size", "10", "-q"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture()
def slow(tmp_path):
    cfg = tmp_path / "slow.yaml"
    cfg.write_text(SLOW)
    return write_jsonl(tmp_path / "in.jsonl", rollouts(120)), cfg


def test_a_second_run_on_a_running_output_is_refused_naming_the_first(tmp_path, slow):
    src, cfg = slow
    out = tmp_path / "out.jsonl"
    first = _score(src, cfg, out)
    lock = PartStore(out).lock_file
    deadline = time.monotonic() + 300
    while not (lock.exists() and lock.read_text().strip()):
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    second = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "-c", str(cfg), "-o", str(out)],
                            env=ENV, capture_output=True, text=True, timeout=300)
    line = one_error_line(second)
    assert line == (f"error: {out}: another polyreward run (pid {first.pid}) is writing this output; wait for it to finish, "
                    "or stop it, then rerun (with --resume to keep its finished chunks)")
    stdout, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    assert len(out.read_text().splitlines()) == 120 and not PartStore(out).folder.exists()


def test_two_runs_started_together_give_one_refusal_and_one_complete_output(tmp_path, slow):
    src, cfg = slow
    out = tmp_path / "out.jsonl"
    runs = [_score(src, cfg, out), _score(src, cfg, out)]
    results = [(run.pid, run.wait(timeout=300), *run.communicate()) for run in runs]
    codes = sorted(code for _, code, _, _ in results)
    assert codes == [0, 2], results
    (winner,) = [pid for pid, code, _, _ in results if code == 0]
    (refused,) = [err for _, code, _, err in results if code == 2]
    assert f"another polyreward run (pid {winner}) is writing this output" in refused and "Traceback" not in refused
    reference = tmp_path / "reference.jsonl"
    score_file(src, reference, parse_config(__import__("yaml").safe_load(SLOW.replace("delay: 0.05", "delay: 0.0"))),
               chunk_size=10, workers=0)
    assert out.read_bytes() == reference.read_bytes()
    assert not PartStore(out).folder.exists()


def test_the_lock_is_released_when_a_run_fails_and_after_it_finishes(tmp_path):
    config = parse_config({"columns": {"completion": "output", "group": "qid"},
                           "rewards": [{"name": "has_yes", "type": "toy_rewards:ContainsWord"}]})
    src = tmp_path / "in.jsonl"
    src.write_text("".join(__import__("json").dumps(r) + "\n" for r in rollouts(30)) + "{broken\n")
    out = tmp_path / "out.jsonl"
    with pytest.raises(ValueError, match="malformed JSON line"):
        score_file(src, out, config, chunk_size=10, workers=0)
    holder = PartStore(out)
    stored = sorted(holder.folder.glob("part-*"))
    assert stored
    holder.acquire()  # the failed run let go: another store (another run) can take it
    with pytest.raises(OutputLockedError, match=r"pid \d+"):
        score_file(src, out, config, chunk_size=10, workers=0, resume=True)
    assert sorted(holder.folder.glob("part-*")) == stored  # the refused run removed nothing
    holder.release()
    src.write_text("".join(__import__("json").dumps(r) + "\n" for r in rollouts(30)))
    assert score_file(src, out, config, chunk_size=10, workers=0, resume=True).rows == 30
    assert not holder.folder.exists()


def test_a_holder_that_has_not_yet_written_its_pid_is_still_named(tmp_path):
    """The window the CI run hit: the winner holds the flock but writes its pid a moment later (after checking that the
    lock file is still the folder's). The refused run waits for the pid instead of printing ``pid unknown``."""
    import fcntl
    import os
    import threading

    store = PartStore(tmp_path / "out.jsonl")
    store.folder.mkdir(parents=True)
    fd = os.open(store.lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    writer = threading.Timer(0.3, lambda: os.write(fd, b"4242"))
    writer.start()
    try:
        with pytest.raises(OutputLockedError, match=r"another polyreward run \(pid 4242\)"):
            PartStore(tmp_path / "out.jsonl").acquire()
    finally:
        writer.join()
        os.close(fd)
