"""The judge pool against several real servers on 127.0.0.1: load spread, a server killed mid-batch,
rate limits as the servers saw them, and 429 with ``Retry-After``.

Servers: two ``polyreward serve-judge`` servers (:class:`JudgeServer`, tiny random Qwen2 answering
through ``guided_choice``), stub chat servers from :mod:`judge_stubs` in this process, and the same stub
run as separate processes so one can be killed with SIGKILL while requests are in flight.
"""

from __future__ import annotations

import email.utils
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge_stubs import StubServer
from polyreward.rubrics.judge_openai import OpenAIJudge
from polyreward.judges.pool import TokenBucket, retry_after_seconds
from polyreward.rubrics.judges import JudgeRequest, build_judge
from polyreward.rubrics.schema import RubricItem

HERE = Path(__file__).parent


def requests_for(n: int, response: str = "Call 911 now.") -> list[JudgeRequest]:
    conversation = ({"role": "user", "content": "My chest hurts."},)
    return [JudgeRequest(conversation, response, RubricItem(f"Item {i} says 911" if i % 2 else f"Item {i} says aspirin", 5)) for i in range(n)]


def expected(n: int) -> list[bool]:
    return [bool(i % 2) for i in range(n)]


def judge_for(urls, **overrides) -> OpenAIJudge:
    params = {"base_url": urls, "model": "stub", "timeout": 5.0, "max_retries": 2, "backoff": 0.05, "concurrency": 6,
              "time_budget": 60.0, "cache": False}
    return OpenAIJudge(**{**params, **overrides})


@pytest.fixture()
def stubs():
    servers: list[StubServer] = []

    def make(**kwargs) -> StubServer:
        servers.append(StubServer(**kwargs).start())
        return servers[-1]

    yield make
    for server in servers:
        server.close()


def within(counts: list[int], tolerance: float = 0.2) -> bool:
    mean = sum(counts) / len(counts)
    return all(abs(c - mean) <= tolerance * mean for c in counts)


# -- spread ----------------------------------------------------------------------------------------


def test_load_spreads_evenly_over_three_healthy_stub_servers(stubs):
    servers = [stubs(delay=0.02) for _ in range(3)]
    judge = judge_for([s.url for s in servers], concurrency=6)
    verdicts = judge.judge(requests_for(60))
    assert [v.met for v in verdicts] == expected(60)
    seen = [len(s.arrivals) for s in servers]
    assert sum(seen) == 60 and within(seen), seen
    summary = judge.summary()["endpoints"]
    assert [summary[u]["sent"] for u in judge.urls] == seen
    assert all(summary[u]["latency_p50_s"] >= 0.02 and summary[u]["failed"] == 0 for u in judge.urls)


def test_load_spreads_over_two_serve_judge_servers(tiny_qwen2_dir):
    from polyreward.judges.server import JudgeServer

    servers = [JudgeServer(tiny_qwen2_dir, port=0, served_model_name="judge", max_batch=4).start() for _ in range(2)]
    try:
        judge = judge_for([s.url for s in servers], model="judge", concurrency=4, max_tokens=4,
                          extra_body={"guided_choice": ["yes", "no"]})
        verdicts = judge.judge(requests_for(24))
    finally:
        for server in servers:
            server.stop()
    assert all(v.met is not None for v in verdicts)  # a random model, but guided_choice always gives a verdict
    sent = [judge.summary()["endpoints"][u]["ok"] for u in judge.urls]
    assert sum(sent) == 24 and within(sent), sent


# -- a server killed mid-batch ---------------------------------------------------------------------


def _spawn_stub(log: Path, delay: float) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, str(HERE / "judge_stubs.py"), "--delay", str(delay), "--log", str(log)],
                               stdout=subprocess.PIPE, text=True)
    port = int(process.stdout.readline())
    return process, f"http://127.0.0.1:{port}/v1"


def test_one_server_killed_mid_batch_the_batch_completes(tmp_path):
    logs = [tmp_path / f"server{i}.log" for i in range(3)]
    spawned = [_spawn_stub(log, delay=0.05) for log in logs]
    processes = [p for p, _ in spawned]
    victim = processes[2]

    def kill_when_busy() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if logs[2].exists() and len(logs[2].read_text().split()) >= 5:
                os.kill(victim.pid, signal.SIGKILL)
                return
            time.sleep(0.005)

    killer = threading.Thread(target=kill_when_busy, daemon=True)
    killer.start()
    try:
        judge = judge_for([url for _, url in spawned], concurrency=9)
        start = time.monotonic()
        verdicts = judge.judge(requests_for(90))
        wall = time.monotonic() - start
        killer.join(timeout=1)
    finally:
        for process in processes:
            process.kill()
            process.wait()
            process.stdout.close()
    assert victim.returncode == -signal.SIGKILL
    assert [v.met for v in verdicts] == expected(90)  # every criterion graded, the killed server's ones elsewhere
    summary = judge.summary()["endpoints"]
    dead = summary[judge.urls[2]]
    assert dead["failed"] >= 1 and dead["ok"] < 30
    assert sum(summary[u]["ok"] for u in judge.urls) == 90
    assert wall < 20


# -- rate limits, as the servers saw them ----------------------------------------------------------


def _worst_excess(times: list[float], weights: list[float], rate: float, capacity: float) -> float:
    """max over windows [t_i, t_j] of (units that started in it) - (capacity + rate * (t_j - t_i)) (<= 0: held)."""
    order = sorted(zip(times, weights))
    worst = -float("inf")
    for i in range(len(order)):
        total = 0.0
        for j in range(i, len(order)):
            total += order[j][1]
            worst = max(worst, total - (capacity + rate * (order[j][0] - order[i][0])))
    return worst


def test_requests_per_minute_overall_hold_at_the_server(stubs):
    server = stubs()
    judge = judge_for([server.url], requests_per_minute=300, concurrency=8)  # 5 per second, one second's burst
    start = time.monotonic()
    verdicts = judge.judge(requests_for(20))
    wall = time.monotonic() - start
    assert [v.met for v in verdicts] == expected(20)
    # 100 ms of timing slack per window (half a request): arrival stamps are taken in the server's threads on a loaded machine
    assert _worst_excess(server.arrivals, [1.0] * 20, 5.0, 5.0 + 0.5) <= 0
    assert 2.5 < wall < 5.5  # (20 - 5) / 5 s = 3 s: the limit holds without starving


def test_requests_per_minute_per_endpoint_hold_at_each_server(stubs):
    servers = [stubs(), stubs()]
    judge = judge_for([s.url for s in servers], endpoint_requests_per_minute=180, concurrency=8)  # 3 / s each
    verdicts = judge.judge(requests_for(18))
    assert [v.met for v in verdicts] == expected(18)
    for server in servers:
        assert _worst_excess(server.arrivals, [1.0] * len(server.arrivals), 3.0, 3.0 + 0.3) <= 0
    assert within([len(s.arrivals) for s in servers])


@pytest.mark.parametrize("usage_factor", [1.0, 2.0])
def test_tokens_per_minute_hold_with_counts_from_usage(stubs, usage_factor):
    """Admission is on the estimate (prompt characters / 4 + max_tokens), corrected by ``usage.total_tokens``
    once each answer is in: tokens started in a window of t s stay within capacity + rate * t plus what the
    estimate missed on the requests already in flight (none when the estimate is right)."""
    from polyreward.rubrics.grading import single_prompt
    from polyreward.judges.pool import estimate_tokens

    batch = requests_for(12)
    estimate = estimate_tokens([single_prompt(batch[0].conversation, batch[0].response, batch[0].item)], 8)
    usage = round(estimate * usage_factor)
    server = stubs(usage_tokens=usage)
    judge = judge_for([server.url], tokens_per_minute=60_000, concurrency=8, max_tokens=8)  # 1000 tokens / s
    start = time.monotonic()
    verdicts = judge.judge(batch)
    wall = time.monotonic() - start
    assert [v.met for v in verdicts] == expected(12)
    first_wave = math.ceil(1000 / estimate)  # started on estimates before any usage came back
    missed = first_wave * max(0.0, usage - estimate)
    assert _worst_excess(server.arrivals, [float(usage)] * 12, 1000.0, 1000.0 + missed + 0.1 * 1000) <= 0
    assert (12 * usage - 1000 - missed) / 1000 - 0.3 < wall < (12 * usage) / 1000 + 2.0


def test_concurrency_limits_hold_per_endpoint_and_overall(stubs):
    from judge_stubs import Gauge

    overall = Gauge()
    servers = [stubs(delay=0.1, gauges=(overall,)) for _ in range(3)]
    judge = judge_for([s.url for s in servers], concurrency=5, endpoint_concurrency=2)
    assert [v.met for v in judge.judge(requests_for(30))] == expected(30)
    assert max(s.in_flight.peak for s in servers) == 2 and overall.peak == 5


# -- 429 with Retry-After --------------------------------------------------------------------------


@pytest.mark.parametrize("retry_after", ["1.5", "date"])
def test_429_retry_after_is_honoured(stubs, retry_after):
    header = email.utils.formatdate(time.time() + 3.5, usegmt=True) if retry_after == "date" else retry_after
    server = stubs(rate_limit_first=1, retry_after=header)
    judge = judge_for([server.url], backoff=0.01)
    verdicts = judge.judge(requests_for(1, "Take aspirin."))
    assert verdicts[0].met is True
    assert server.statuses == [429, 200]
    gap = server.arrivals[1] - server.arrivals[0]
    # 1.5 s, or an HTTP date (whole seconds) 3.5 s after the test began: 2.5-3.5 s, less the set-up before the first request
    assert 1.5 <= gap < 4.3, gap
    assert judge.summary()["endpoints"][judge.urls[0]]["rate_limited"] == 1


def test_429_endpoint_is_avoided_while_others_serve(stubs):
    limited = stubs(rate_limit_first=10_000, retry_after="30")
    healthy = stubs()
    judge = judge_for([limited.url, healthy.url], concurrency=4)
    start = time.monotonic()
    verdicts = judge.judge(requests_for(20))
    assert [v.met for v in verdicts] == expected(20) and time.monotonic() - start < 5
    assert len(limited.arrivals) <= 4  # at most the first wave, before its Retry-After: 30 came back
    assert len(healthy.arrivals) == 20


# -- units -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header, seconds",
    [("2", 2.0), (" 0.5 ", 0.5), ("0", 0.0), ("-3", 0.0), ("Wed, 21 Oct 2015 07:28:10 GMT", 0.0), ("soon", None), ("", None), (None, None)],
)
def test_retry_after_parsing(header, seconds):
    assert retry_after_seconds(header) == seconds


def test_retry_after_http_date_is_relative_to_now():
    now = 1_700_000_000.0
    assert retry_after_seconds(email.utils.formatdate(now + 7, usegmt=True), now_wall=now) == pytest.approx(7.0, abs=1.0)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(per_minute=st.floats(6, 6000), amounts=st.lists(st.floats(0.1, 500), min_size=1, max_size=40))
def test_token_bucket_admissions_never_exceed_capacity_plus_rate(per_minute, amounts):
    bucket = TokenBucket(per_minute)
    now = bucket.stamp
    starts = []
    for amount in amounts:  # each unit starts as soon as the bucket allows it (a simulated clock)
        now += bucket.wait(amount, now)
        bucket.take(amount)
        starts.append(now)
    largest = max(amounts)
    assert _worst_excess(starts, amounts, bucket.rate, bucket.capacity + largest + 1e-6) <= 0


@pytest.mark.parametrize(
    "overrides, message",
    [({"base_url": []}, "base_url: must be an http(s) URL"), ({"base_url": ["http://a:1/v1", "http://a:1/v1"]}, "lists the same URL twice"),
     ({"base_url": ["http://a:1/v1", "ftp://b"]}, "base_url: must be an http(s) URL"),
     ({"requests_per_minute": 0}, "requests_per_minute: must be a number > 0"),
     ({"endpoint_tokens_per_minute": "many"}, "endpoint_tokens_per_minute: must be a number > 0"),
     ({"endpoint_concurrency": 0}, "endpoint_concurrency: must be an integer >= 1"),
     ({"rpm": 10}, "unknown key(s) ['rpm']")],
)
def test_bad_pool_settings_name_the_key(overrides, message):
    spec = {"type": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "m", **overrides}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        build_judge(spec)


# -- where judges run: inside an event loop (async TRL rewards), after pickling (worker processes) ---------


def test_a_judge_called_inside_a_running_event_loop(stubs):
    import asyncio

    server = stubs()
    judge = judge_for([server.url])

    async def reward_step():  # what an async reward function does when it calls a sync judge
        return judge.judge(requests_for(4))

    verdicts = asyncio.run(reward_step())
    assert [v.met for v in verdicts] == expected(4)
    assert [t.name for t in threading.enumerate() if t.name == "judge-batch"] == []  # the helper thread is gone


def test_a_pickled_judge_keeps_its_settings_and_works(stubs):
    import pickle

    servers = [stubs(), stubs()]
    judge = judge_for([s.url for s in servers], requests_per_minute=6000, endpoint_concurrency=2)
    judge.judge(requests_for(4))
    copy = pickle.loads(pickle.dumps(judge))
    assert copy.urls == judge.urls and copy.pool.overall.limits == judge.pool.overall.limits
    assert [v.met for v in copy.judge(requests_for(6))] == expected(6)
    assert copy.summary()["attempts"] == 10 and judge.summary()["attempts"] == 4  # counts travel, then diverge


def test_without_httpx_the_config_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "httpx", None)  # as if the judge extra were not installed
    with pytest.raises(ValueError, match=r'needs httpx: pip install -e "\.\[judge\]"'):
        build_judge({"type": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "m"})


def test_the_api_key_is_read_per_request_and_never_pickled(stubs, monkeypatch):
    import pickle

    server = stubs()
    monkeypatch.setenv("POLYREWARD_TEST_POOL_KEY", "sekrit-1")
    judge = judge_for([server.url], api_key_env="POLYREWARD_TEST_POOL_KEY")
    assert b"sekrit" not in pickle.dumps(judge)
    judge.judge(requests_for(1))
    monkeypatch.setenv("POLYREWARD_TEST_POOL_KEY", "sekrit-2")  # a rotated key is used from the next request on
    judge.judge(requests_for(2)[1:])
    assert server.authorizations == ["Bearer sekrit-1", "Bearer sekrit-2"]


# -- dead endpoints fail fast ----------------------------------------------------------------------


def _refusing_url() -> str:
    """A 127.0.0.1 URL where nothing listens (a port just released), so every connection is refused."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_refused_endpoint_is_marked_down_and_the_batch_fails_fast_naming_the_url():
    """The reported case: 6 rows against a URL that refuses connections took 234 attempts and 252 s. Now the endpoint
    is down after DOWN_AFTER refusals and every request fails at once with the URL; counted in attempts, not seconds."""
    from polyreward.judges.pool import DOWN_AFTER

    url = _refusing_url()
    judge = judge_for([url], max_retries=50, backoff=0.05, time_budget=600.0, concurrency=2)
    verdicts = judge.judge(requests_for(6))
    assert all(v.met is None for v in verdicts)
    reasons = {v.explanation for v in verdicts}
    assert all(f"every endpoint is down ({url}" in r and "connections refused in a row" in r for r in reasons), reasons
    summary = judge.summary()
    assert summary["attempts"] <= DOWN_AFTER + 2  # two in flight when the third refusal came, then none
    assert summary["endpoints"][judge.urls[0]]["down"] is True


def test_a_refused_endpoint_beside_a_healthy_one_is_avoided(stubs):
    healthy = stubs()
    dead = _refusing_url()
    judge = judge_for([dead, healthy.url], max_retries=5, concurrency=4)
    verdicts = judge.judge(requests_for(40))
    assert [v.met for v in verdicts] == expected(40)
    endpoints = judge.summary()["endpoints"]
    assert endpoints[judge.urls[0]]["down"] is True and endpoints[judge.urls[0]]["sent"] <= 3 + 4
    assert endpoints[judge.urls[1]]["ok"] == 40
