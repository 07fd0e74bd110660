"""The ``openai`` judge against real local HTTP servers that misbehave: refused connections, HTTP 500,
401, hangs past the timeout, garbage bodies, unparsable answers. Every case must end in bounded time,
with NaN verdicts that say why, and without losing the criteria that could be graded.

The scripted judge server below is a real ``http.server`` speaking the chat-completions protocol; it
grades a criterion as met when the criterion's last word occurs in the response, and misbehaves on
criteria that name a fault (BROKEN -> 500, SLOW -> hangs, GARBAGE -> non-JSON body, NONSENSE ->
an answer without a verdict, FLAKY -> 503 on the first attempt only).
"""

from __future__ import annotations

import json
import math
import re
import socket
import threading
import time
from collections import Counter
from http.server import ThreadingHTTPServer

import pytest
from judge_stubs import QuietHandler

from polyreward.rubrics.judge_openai import OpenAIJudge, chat_completions_url
from polyreward.rubrics.judges import JudgeRequest
from polyreward.rubrics.reward import RubricReward
from polyreward.rubrics.schema import RubricItem

_SINGLE = re.compile(r"assistant: (.*?)\n\n# Rubric item\n\[-?[\d.]+\] (.*?)\n\n# Answer format", re.DOTALL)
_MULTI = re.compile(r"assistant: (.*?)\n\n# Rubric items\n(.*?)\n\n# Answer format", re.DOTALL)


def _completion(content: str) -> bytes:
    return json.dumps({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}).encode()


def _grade(response: str, criterion: str) -> bool:
    return criterion.rstrip(".").split()[-1].lower() in response.lower()


class ScriptedServer:
    """A chat-completions server on 127.0.0.1 with scripted faults; ``mode`` overrides for every request."""

    def __init__(self, mode: str = "script", api_key: str | None = None) -> None:
        self.mode, self.api_key = mode, api_key
        self.requests: Counter[str] = Counter()
        self.bodies: list[dict] = []
        self.release = threading.Event()
        self._lock = threading.Lock()
        server = self

        class Handler(QuietHandler):
            def do_POST(self):  # noqa: N802
                body = self.json_body()
                status, payload, delay = server.answer(body, self.headers.get("Authorization"))
                if delay:
                    server.release.wait(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:  # the client gave up (timeout): fine
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def count(self, key: str) -> int:
        with self._lock:
            self.requests[key] += 1
            return self.requests[key]

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def answer(self, body, authorization):
        prompt = body["messages"][0]["content"]
        with self._lock:
            self.bodies.append(body)
        if self.api_key is not None and authorization != f"Bearer {self.api_key}":
            self.count("unauthorized")
            return 401, b'{"error": {"message": "bad key"}}', 0
        if self.mode == "500":
            self.count(prompt)
            return 500, b'{"error": {"message": "internal"}}', 0
        if self.mode == "hang":
            self.count(prompt)
            return 200, _completion('{"criteria_met": true}'), 30
        if self.mode == "garbage":
            self.count(prompt)
            return 200, b"<html>502 Bad Gateway</html>", 0
        multi = _MULTI.search(prompt)
        if multi:
            response, listed = multi.groups()
            self.count(listed)
            criteria = [line.split("] ", 1)[1] for line in listed.splitlines()]
            results = [{"id": i, "criteria_met": _grade(response, c), "explanation": "scripted"} for i, c in enumerate(criteria, start=1)]
            return 200, _completion("```json\n" + json.dumps({"results": results}) + "\n```"), 0
        response, criterion = _SINGLE.search(prompt).groups()
        attempt = self.count(criterion + "|" + response)
        if "BROKEN" in criterion:
            return 500, b"upstream failed", 0
        if "SLOW" in criterion:
            return 200, _completion('{"criteria_met": true}'), 30
        if "GARBAGE" in criterion:
            return 200, b"\x00\x01 not json", 0
        if "NONSENSE" in criterion:
            return 200, _completion("I would rather not say."), 0
        if "FLAKY" in criterion and attempt == 1:
            return 503, b"warming up", 0
        met = _grade(response, criterion)
        return 200, _completion(f'```json\n{{"explanation": "scripted", "criteria_met": {json.dumps(met)}}}\n```'), 0

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def server_factory():
    servers = []

    def make(mode="script", api_key=None):
        servers.append(ScriptedServer(mode, api_key))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens here now: connections are refused


def requests_for(response: str, criteria: list[str]) -> list[JudgeRequest]:
    conversation = ({"role": "user", "content": "My chest hurts."},)
    return [JudgeRequest(conversation, response, RubricItem(c, 5)) for c in criteria]


def fast_judge(url: str, **overrides) -> OpenAIJudge:
    params = {"base_url": url, "model": "scripted", "timeout": 2.0, "max_retries": 2, "backoff": 0.02, "concurrency": 4, "time_budget": 20.0}
    return OpenAIJudge(**{**params, **overrides})


def timed(judge: OpenAIJudge, requests: list[JudgeRequest]):
    start = time.monotonic()
    verdicts = judge.judge(requests)
    return verdicts, time.monotonic() - start


@pytest.mark.parametrize(
    "base_url, expected",
    [("http://h:1", "http://h:1/v1/chat/completions"), ("http://h:1/v1/", "http://h:1/v1/chat/completions"),
     ("https://api.example.com/v1/chat/completions", "https://api.example.com/v1/chat/completions")],
)
def test_chat_completions_url(base_url, expected):
    assert chat_completions_url(base_url) == expected


def test_refused_connection_is_nan_fast():
    verdicts, wall = timed(fast_judge(closed_port_url()), requests_for("call 911", ["Says 911", "Says aspirin"]))
    assert wall < 3.0
    assert all(v.met is None for v in verdicts)
    assert all("connection error: ConnectError" in v.explanation and "(3 attempt(s) max)" in v.explanation for v in verdicts)


def test_http_500_is_retried_a_bounded_number_of_times(server_factory):
    server = server_factory("500")
    judge = fast_judge(server.url, max_retries=2)
    verdicts, wall = timed(judge, requests_for("call 911", ["Says 911", "Says aspirin", "Says rest"]))
    assert wall < 5.0
    assert [v.met for v in verdicts] == [None] * 3
    assert all(v.explanation.startswith("HTTP 500:") for v in verdicts)
    assert server.total == 3 * 3 and judge.stats["failures"] == 3


def test_http_401_is_not_retried_and_the_key_comes_from_the_named_env_var(server_factory, monkeypatch):
    server = server_factory(api_key="sekrit")
    verdicts, _ = timed(fast_judge(server.url), requests_for("call 911", ["Says 911"]))
    assert verdicts[0].met is None and verdicts[0].explanation.startswith("HTTP 401:")
    assert server.requests["unauthorized"] == 1
    monkeypatch.setenv("POLYREWARD_TEST_JUDGE_KEY", "sekrit")
    verdicts, _ = timed(fast_judge(server.url, api_key_env="POLYREWARD_TEST_JUDGE_KEY"), requests_for("call 911", ["Says 911"]))
    assert verdicts[0].met is True


def test_hanging_server_times_out_per_request(server_factory):
    server = server_factory("hang")
    judge = fast_judge(server.url, timeout=0.3, max_retries=1, concurrency=4)
    verdicts, wall = timed(judge, requests_for("x", ["A one", "A two", "A three", "A four"]))
    assert wall < 3.0  # 2 attempts x 0.3 s + backoff, all four in parallel
    assert all(v.met is None and v.explanation.startswith("timeout after 0.3s") for v in verdicts)


def test_time_budget_bounds_the_whole_batch(server_factory):
    server = server_factory("hang")
    judge = fast_judge(server.url, timeout=30.0, max_retries=5, concurrency=2, time_budget=1.0)
    verdicts, wall = timed(judge, requests_for("x", [f"Item {i}" for i in range(6)]))
    assert wall < 2.5
    assert all(v.met is None for v in verdicts)
    reasons = {v.explanation.split(" after")[0].split(" of")[0] for v in verdicts}
    assert reasons <= {"timeout", "judge time budget"}
    assert any("time budget of 1s exhausted" in v.explanation for v in verdicts)  # queued behind the hung ones


@pytest.mark.parametrize(
    "mode, criterion, reason",
    [("garbage", "Says 911", "malformed response (not JSON)"), ("script", "NONSENSE 911", "unparsable judge answer: 'I would rather not say.'")],
)
def test_garbage_and_unparsable_answers_are_nan_with_reason(server_factory, mode, criterion, reason):
    server = server_factory(mode)
    judge = fast_judge(server.url, max_retries=1)
    verdicts, wall = timed(judge, requests_for("call 911", [criterion]))
    assert wall < 3.0 and verdicts[0].met is None and reason in verdicts[0].explanation
    assert server.total == 2
    timed(judge, requests_for("call 911", [criterion]))
    assert server.total == 4  # failures are never cached


def test_mixed_faults_lose_nothing_else(server_factory):
    server = server_factory()
    # 1.5 s per attempt: a FLAKY criterion's second attempt must fit in it on a loaded 2-core CI machine (0.5 s did
    # not, once at load 6); SLOW hangs for 30 s, so it still runs out every attempt and the wall bound still bites
    judge = fast_judge(server.url, timeout=1.5, max_retries=1, backoff=0.02, concurrency=8)
    criteria = ["Says 911", "Says aspirin", "BROKEN 911", "SLOW 911", "GARBAGE 911", "NONSENSE 911", "FLAKY 911", "Says rest", "FLAKY aspirin"]
    verdicts, wall = timed(judge, requests_for("Call 911 and rest.", criteria))
    assert wall < 8.0
    assert [v.met for v in verdicts] == [True, False, None, None, None, None, True, True, False]
    assert verdicts[2].explanation.startswith("HTTP 500: ") and verdicts[3].explanation.startswith("timeout after 1.5s")
    assert server.requests["FLAKY 911|Call 911 and rest."] == 2  # retried once after the 503, then graded


def test_rubric_reward_over_a_faulty_judge_keeps_the_other_examples(server_factory):
    server = server_factory()
    judge = {"type": "openai", "base_url": server.url, "model": "scripted", "timeout": 0.5, "max_retries": 1, "backoff": 0.02}
    good = [{"criterion": "Says 911", "points": 10}, {"criterion": "Says aspirin", "points": 5}, {"criterion": "Mentions panic", "points": -5}]
    faulty = good + [{"criterion": "BROKEN 911", "points": 5}]
    completions = ["Call 911 now.", "Take aspirin, don't panic.", "Call 911 now."]
    start = time.monotonic()
    nan_out = RubricReward(judge=judge).evaluate(["q"] * 3, completions, rubrics=[good, good, faulty])
    skip_out = RubricReward(judge=judge, on_judge_error="skip").evaluate(["q"] * 3, completions, rubrics=[good, good, faulty])
    assert time.monotonic() - start < 6.0
    assert nan_out.scores[:2] == [pytest.approx(10 / 15), pytest.approx(0.0)]
    assert math.isnan(nan_out.scores[2]) and "[+5 FAILED] BROKEN 911 -- HTTP 500" in nan_out.reasons[2]
    assert skip_out.scores == [pytest.approx(10 / 15), pytest.approx(0.0), pytest.approx(10 / 15)]


def test_several_criteria_per_call(server_factory):
    server = server_factory()
    judge = fast_judge(server.url, criteria_per_call=3)
    a = requests_for("Call 911 and rest.", ["Says 911", "Says aspirin", "Says rest", "Says water"])
    b = requests_for("Drink water.", ["Says water", "Says 911"])
    verdicts, _ = timed(judge, [a[0], b[0], a[1], a[2], b[1], a[3]])
    assert [v.met for v in verdicts] == [True, True, False, True, False, False]
    assert server.total == 3  # (3 + 1) items for the first response, 2 for the second


def test_cache_in_memory_and_on_disk(server_factory, tmp_path):
    server = server_factory()
    cache = tmp_path / "judge.sqlite"
    requests = requests_for("Call 911 and rest.", ["Says 911", "Says aspirin", "Says rest"])
    first = fast_judge(server.url, cache_path=str(cache)).judge(requests)
    assert server.total == 3
    judge = fast_judge(server.url, cache_path=str(cache))
    assert judge.judge(requests) == first and server.total == 3  # answered from sqlite
    assert judge.judge(requests) == first and judge.cache.hits == 6  # then from memory
    offline = fast_judge(closed_port_url(), cache_path=str(cache))
    assert offline.judge(requests) == first  # the server is gone; the cache still answers
    uncached = fast_judge(server.url, cache=False)
    uncached.judge(requests)
    uncached.judge(requests)
    assert server.total == 9


# -- real HealthBench rows as rollout rows, through the CLI ----------------------------------------

HEALTHBENCH_ROW = {  # the exact key set and shapes of a row of HealthBench's oss_eval JSONL, plus a completion
    "prompt": [
        {"role": "user", "content": "My dad (70) suddenly can't lift his left arm."},
        {"role": "assistant", "content": "Is his face drooping on one side?"},
        {"role": "user", "content": "Yes, and his speech is slurred. What should I do?"},
    ],
    "completion": None,
    "rubrics": [
        {"criterion": "Advises calling emergency services such as 911", "points": 10, "tags": ["level:example", "axis:completeness"]},
        {"criterion": "Names the likely cause, a stroke", "points": 5, "tags": ["level:example", "axis:accuracy"]},
        {"criterion": "Suggests he could first rest at home", "points": -9, "tags": ["level:example", "axis:accuracy"]},
        {"criterion": "Is overly verbose or rambling", "points": -2,
         "tags": ["level:cluster", "cluster:communication_verbosity", "axis:communication_quality"]},
    ],
    "example_tags": ["theme:emergency_referrals", "physician_agreed_category:emergent"],
    "prompt_id": "1f548d5b-cd00-49a0-b327-283a2e00debd",
    "ideal_completions_data": {"ideal_completion": "Call 911 now.", "ideal_completions_group": "Group 1",
                               "ideal_completions_ref_completions": ["Call 911."]},
}


def test_healthbench_rows_score_through_the_cli_with_a_model_judge(server_factory, tmp_path):
    from polyreward.cli import main

    server = server_factory()
    completions = ["Call 911 now: this looks like a stroke.", "Let him rest at home tonight.",
                   [{"role": "assistant", "content": "Call 911."}]]
    rows = [{**HEALTHBENCH_ROW, "completion": c} for c in completions]
    rows[2]["ideal_completions_data"] = None
    (tmp_path / "hb.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "cfg.yaml").write_text(
        f"rewards:\n  - {{name: hb, type: rubric, judge: {{type: openai, base_url: '{server.url}', model: scripted, cache: false}}}}\n")
    assert main(["score", str(tmp_path / "hb.jsonl"), "-c", str(tmp_path / "cfg.yaml"), "-o", str(tmp_path / "out.jsonl"), "-q"]) == 0
    out = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    # (10 + 5) / 15; the met -9 penalty subtracts, unclipped: -9 / 15; only the 911 item: 10 / 15
    assert [r["hb"] for r in out] == pytest.approx([1.0, -0.6, 10 / 15])
    assert [r["hb.axis:accuracy"] for r in out] == pytest.approx([1.0, -9 / 5, 0.0])
    assert [r["hb.axis:communication_quality"] for r in out] == [None, None, None]  # no positive points: skipped
    assert "[-9 met] Suggests he could first rest at home" in out[1]["hb_reason"]
    assert out[0]["prompt_id"] == HEALTHBENCH_ROW["prompt_id"] and out[0]["example_tags"] == HEALTHBENCH_ROW["example_tags"]
    assert len(server.bodies) == 3 * 4
    prompt = server.bodies[0]["messages"][0]["content"]
    assert ("user: My dad (70) suddenly can't lift his left arm.\n\nassistant: Is his face drooping on one side?\n\n"
            "user: Yes, and his speech is slurred. What should I do?\n\nassistant: ") in prompt
    assert server.bodies[0]["temperature"] == 0.0


def test_cache_key_covers_model_messages_and_settings(server_factory):
    from polyreward.judges.cache import cache_key

    base = [{"role": "user", "content": "conversation A / criterion 1"}]
    keys = {
        cache_key("m", base), cache_key("m2", base), cache_key("m", [{"role": "user", "content": "conversation A / criterion 2"}]),
        cache_key("m", [{"role": "user", "content": "conversation B / criterion 1"}]),
        cache_key("m", base, {"temperature": 0.0}), cache_key("m", base, {"temperature": 0.5}),
        cache_key("m", base, {"temperature": 0.0, "guided_choice": ["yes", "no"]}),
    }
    assert len(keys) == 7
    assert cache_key("m", base, {"a": 1, "b": 2}) == cache_key("m", base, {"b": 2, "a": 1})
    server = server_factory()
    requests = requests_for("Call 911 and rest.", ["Says 911", "Says aspirin"])
    judge = fast_judge(server.url)
    judge.judge(requests)
    judge.judge(requests)
    assert server.total == 2  # the second batch came from the cache
    judge.temperature = 0.7  # another sampling setting is another answer: not served from the cache
    judge.judge(requests)
    judge.extra_body = {"guided_choice": ["yes", "no"]}
    judge.judge(requests)
    assert server.total == 6
    other = requests_for("Call 911 and rest.", ["Says rest"]) + requests_for("Drink water.", ["Says 911"])
    assert [v.met for v in judge.judge(other)] == [True, False] and server.total == 8  # new criterion / response: asked
