"""A command whose reader closes the pipe early (``polyreward verify ... | head -c 100``, ``polyreward list | head``)
ends quietly with exit 141 (128 + SIGPIPE, as a shell reports it), not with a Python traceback (stop 61)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(__import__("pathlib").Path(__file__).resolve().parents[1] / "src"),
                                                                     os.environ.get("PYTHONPATH", "")]))}


def _run_into_closed_pipe(*args: str) -> tuple[int, str]:
    """Run ``polyreward *args`` with stdout a pipe whose read end is closed before the command starts, so its
    first write fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "polyreward", *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, env=ENV, timeout=120)
    finally:
        os.close(write_end)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("args, codes", [
    (("verify", "--gold", "42", "--pred", "The answer is \\boxed{42}.", "--json"), {141}),
    (("verify", "--gold", "42", "--pred", "The answer is \\boxed{42}."), {141}),
    (("list", "--json"), {141}),
    (("list",), {1, 141}),  # the rich table: rich's own broken-pipe handler exits 1, quietly
])
def test_a_closed_pipe_ends_the_command_quietly(args, codes):
    code, stderr = _run_into_closed_pipe(*args)
    assert code in codes, stderr
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr


def test_an_open_pipe_still_gets_the_whole_output():
    proc = subprocess.run([sys.executable, "-m", "polyreward", "verify", "--gold", "42", "--pred", "\\boxed{42}", "--json"],
                          capture_output=True, text=True, env=ENV, timeout=120)
    assert proc.returncode == 0 and '"correct": true' in proc.stdout
