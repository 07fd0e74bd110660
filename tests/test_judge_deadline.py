"""The judge's deadline holds against a server that trickles its answer (one byte every 0.5 s), and
the judging process exits promptly afterwards.

A per-read timeout never fires on such a server: every read gets a byte in time. The judge must
instead end each attempt at ``timeout`` after it started, give a reason naming what was still
arriving, leave no thread that keeps the interpreter from exiting, and keep later batches honest
(their own cause, not a leftover "time budget exhausted"). The client runs in a subprocess that
must exit on its own, without ``os._exit``; the servers are real sockets on 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from judge_stubs import StubServer, TrickleServer

CLIENT = textwrap.dedent("""
    import json, sys, threading, time
    from polyreward.rubrics.judge_openai import OpenAIJudge
    from polyreward.rubrics.judges import JudgeRequest
    from polyreward.rubrics.schema import RubricItem

    trickle, healthy = sys.argv[1], sys.argv[2]
    request = [JudgeRequest(({"role": "user", "content": "Chest pain."},), "Call 911.", RubricItem("Says 911", 5))]
    out = {}
    judge = OpenAIJudge(base_url=trickle, model="stub", timeout=1.5, max_retries=1, backoff=0.05, time_budget=6, cache=False)
    for batch in ("first", "second"):
        start = time.monotonic()
        verdict = judge.judge(request)[0]
        out[batch] = {"met": verdict.met, "reason": verdict.explanation, "wall": time.monotonic() - start}
    budget = OpenAIJudge(base_url=trickle, model="stub", timeout=30, max_retries=0, time_budget=2, cache=False)
    start = time.monotonic()
    verdict = budget.judge(request)[0]
    out["budget"] = {"met": verdict.met, "reason": verdict.explanation, "wall": time.monotonic() - start}
    healthy_judge = OpenAIJudge(base_url=healthy, model="stub", timeout=5, cache=False)
    out["healthy"] = {"met": healthy_judge.judge(request)[0].met}
    out["non_daemon_threads"] = [t.name for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    out["all_threads"] = threading.active_count()
    print(json.dumps(out), flush=True)
""")


@pytest.fixture(params=["body", "headers"])
def trickle(request):
    server = TrickleServer(request.param, interval=0.5)
    yield request.param, server
    server.close()


def test_trickling_server_cannot_extend_the_deadline_and_the_process_exits(trickle, tmp_path):
    mode, server = trickle
    healthy = StubServer().start()
    try:
        process = subprocess.Popen([sys.executable, "-c", CLIENT, server.url, healthy.url], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent)
        try:
            line = process.stdout.readline()  # printed after the last batch, just before the script ends
            printed = time.monotonic()
            returncode = process.wait(timeout=30)
            exit_wait = time.monotonic() - printed
        finally:
            process.kill()
            stderr = process.stderr.read()
            process.stdout.close()
            process.stderr.close()
    finally:
        healthy.close()
    assert returncode == 0 and line, stderr[-2000:]
    assert exit_wait < 2.0  # nothing left to join: the interpreter exits at once
    out = json.loads(line)
    # two attempts of 1.5 s each (+ 0.05 s back-off): the trickle would take ~100 s per answer
    for batch in ("first", "second"):
        result = out[batch]
        assert result["met"] is None
        assert 2.9 < result["wall"] < 5.0, result
        what = "response body still arriving" if mode == "body" else "no response headers yet"
        assert result["reason"].startswith(f"timeout after 1.5s ({what}") and "(2 attempt(s) max)" in result["reason"], result
        assert "budget" not in result["reason"]  # the second batch names the real cause too
    cut = out["budget"]
    assert cut["met"] is None and 1.9 < cut["wall"] < 3.5
    phase = "reading the response body from http://127.0.0.1" if mode == "body" else "waiting for http://127.0.0.1"
    assert cut["reason"].startswith(f"judge time budget of 2s exhausted while {phase}"), cut
    assert out["healthy"]["met"] is True
    assert out["non_daemon_threads"] == []
