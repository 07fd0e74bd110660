"""``polyreward serve`` as a real subprocess on 127.0.0.1: every route, both peer payloads, 401, 413, 429, a hanging reward
(hostile clients: ``test_server_hostile.py``; the peers' own client code: ``test_peer_clients.py``).

The peer payloads are built exactly as those trainers build them:

- OpenRLHF, openrlhf/utils/remote_rm_utils.py::

      def remote_rm_fn(api_url, queries, prompts, labels, score_key="rewards"):
          scores = request_api_wrapper(api_url, {"query": queries, "prompts": prompts, "labels": labels}, score_key)
          return torch.tensor(scores)

  where ``request_api_wrapper`` does ``requests.post(url=url, json=data, headers={"Content-Type":
  "application/json"}, timeout=180)``, ``raise_for_status()``, asserts ``score_key in response`` and returns
  ``response.get(score_key)``.
- slime, slime/rollout/rm_hub/__init__.py::

      async def remote_rm(args, sample: Sample, max_retries: int = 10):
          payload = {"prompt": sample.prompt, "response": sample.response, "label": sample.label}
          ...
          async with session.post(args.rm_url, json=payload) as resp:
              resp.raise_for_status()
              return await resp.json()
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from polyreward.reward import RolloutReward, Scored  # noqa: E402

TESTS = Path(__file__).resolve().parent
TOKEN = "t0ken-for-tests"


class SleepsWhenAsked(RolloutReward):
    """1.0 when the completion says "yes", else 0.0; a completion "SLEEP s" first sleeps s seconds (a hanging reward)."""

    type_name = "test_sleeps_when_asked"

    def score_rollout(self, completion, row):
        if completion.startswith("SLEEP "):
            time.sleep(float(completion.split()[1]))
        return Scored(float("yes" in completion), "said yes" if "yes" in completion else "no yes")


CONFIG = """
columns: {prompt: prompt, completion: completion, group: prompt_id}
combiner: grpo
rewards:
  - {name: match, type: "toy_rewards:AnswerMatch", answer_column: answer}
  - {name: yes, type: "test_server:SleepsWhenAsked", weight: 0.5}
"""


def start_server(tmp_path: Path, *args: str, token: str | None = TOKEN, config: str = CONFIG) -> tuple[subprocess.Popen, str]:
    """``polyreward serve --port 0`` in a subprocess; returns it and its URL once it accepts connections."""
    cfg = tmp_path / f"config-{len(list(tmp_path.iterdir()))}.yaml"
    cfg.write_text(config)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)}
    env.pop("POLYREWARD_TOKEN", None)
    if token is not None:
        env["POLYREWARD_TOKEN"] = token
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), "--port", "0", "--workers", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    if not line.startswith("serving "):
        proc.kill()
        raise AssertionError(f"server did not start: {line!r} {proc.stderr.read()}")
    return proc, line.split()[1]


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # a budget no ordinary request reaches on a loaded machine (a 1.5 s budget failed a plain request once under load)
    proc, url = start_server(tmp_path_factory.mktemp("srv"), "--concurrency", "1", "--request-timeout", "30",
                             "--max-body-bytes", "20000")
    yield url
    stop(proc)


@pytest.fixture(scope="module")
def short_budget_server(tmp_path_factory):
    proc, url = start_server(tmp_path_factory.mktemp("srv"), "--concurrency", "1", "--request-timeout", "1.5")
    yield url
    stop(proc)


AUTH = {"Authorization": f"Bearer {TOKEN}"}
ROWS = [
    {"prompt": "say 4", "completion": "4", "answer": "4", "prompt_id": "a"},
    {"prompt": "say 4", "completion": "yes 5", "answer": "4", "prompt_id": "a"},
    {"prompt": "say 7", "completion": "7", "answer": "7", "prompt_id": "b"},
    {"prompt": "say 7", "completion": "8", "answer": None, "prompt_id": "b"},
]


def wait_idle(url: str) -> None:
    deadline = time.time() + 20
    while httpx.get(f"{url}/health").json()["busy"] and time.time() < deadline:
        time.sleep(0.1)


def test_health_needs_no_token_and_names_the_rewards(server):
    health = httpx.get(f"{server}/health").json()
    assert health == {"status": "ok", "slots": 1, "busy": 0, "restarts": health["restarts"], "rewards": ["match", "yes"],
                      "front_lane": {"on": False, "busy": False, "answered": 0}}  # toy rewards: not declared linear-time


def test_score_returns_the_matrix_reasons_total_and_advantages(server):
    wait_idle(server)
    body = httpx.post(f"{server}/score", json={"rows": ROWS, "advantages": True}, headers=AUTH).json()
    assert body["names"] == ["match", "yes"] and body["weights"] == [1.0, 0.5]
    assert body["scores"] == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [None, 0.0]]
    assert body["reasons"]["yes"] == ["no yes", "said yes", "no yes", "no yes"]
    assert body["reasons"]["match"][3] == "no reference"
    assert body["total"] == [1.0, 0.5, 1.0, 0.0]
    # GRPO per group: a = (1.0, 0.5) -> +-0.7071; b = (1.0, 0.0) -> +-0.7071 (std with ddof=1, eps 1e-4 in TRL)
    assert [round(a, 3) for a in body["advantages"]] == [0.707, -0.707, 0.707, -0.707]
    assert body["failures"] == {"match": 0, "yes": 0} and body["timed_out"] is False


def test_openrlhf_payload_exactly_as_remote_rm_fn_sends_it(server):
    wait_idle(server)
    prompts = ["Q: say 4\nA: ", "Q: say 7\nA: "]
    queries = [prompts[0] + "4", prompts[1] + "yes 8"]
    response = httpx.post(f"{server}/get_reward", json={"query": queries, "prompts": prompts, "labels": ["4", "7"]},
                          headers={"Content-Type": "application/json", **AUTH}, timeout=180)
    response.raise_for_status()
    body = response.json()
    assert "rewards" in body
    assert body["rewards"] == [1.0, 0.5] and body["scores"] == body["rewards"]
    assert body["extra_logs"] == {"match": [1.0, 0.0], "match/applicable": [1.0, 1.0], "yes": [0.0, 1.0], "yes/applicable": [1.0, 1.0],
                                  "failed": [0.0, 0.0]}


def test_slime_payload_exactly_as_remote_rm_sends_it(server):
    wait_idle(server)
    response = httpx.post(f"{server}/slime", json={"prompt": "say 7", "response": "7", "label": "7"}, headers=AUTH)
    response.raise_for_status()
    assert response.json() == 1.0
    unlabeled = httpx.post(f"{server}/slime", json={"prompt": "say 7", "response": "8", "label": None}, headers=AUTH)
    assert unlabeled.status_code == 422 and "no label" in unlabeled.json()["error"]  # refused, never a silent 0.0


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}])
@pytest.mark.parametrize("route", ["/score", "/get_reward", "/slime"])
def test_missing_or_wrong_token_is_401(server, headers, route):
    response = httpx.post(f"{server}{route}", json={"rows": ROWS}, headers=headers)
    assert response.status_code == 401 and "bearer token" in response.json()["error"]


def test_oversized_body_is_413_with_or_without_content_length(server):
    big = {"rows": [{"prompt": "p", "completion": "x" * 30000, "answer": "4"}]}
    assert httpx.post(f"{server}/score", json=big, headers=AUTH).status_code == 413

    def chunks():  # no Content-Length: the server stops reading at the limit
        for _ in range(40):
            yield b"x" * 1000

    response = httpx.post(f"{server}/score", content=chunks(), headers=AUTH)
    assert response.status_code == 413 and "over the limit" in response.json()["error"]


def test_bad_json_and_bad_rows_are_400(server):
    assert httpx.post(f"{server}/score", content=b"{not json", headers=AUTH).status_code == 400
    response = httpx.post(f"{server}/score", json={"rows": [1, 2]}, headers=AUTH)
    assert response.status_code == 400 and "rows[0]" in response.json()["error"]
    assert httpx.post(f"{server}/get_reward", json={"query": ["a"], "prompts": [], "labels": ["x", "y"]}, headers=AUTH).status_code == 400


def test_saturated_server_answers_429_at_once(server):
    wait_idle(server)
    slow = {"rows": [{"prompt": "p", "completion": "SLEEP 1.2 yes", "answer": "x", "prompt_id": "a"}]}
    results = {}
    thread = threading.Thread(target=lambda: results.setdefault("slow", httpx.post(f"{server}/score", json=slow, headers=AUTH, timeout=30)))
    thread.start()
    deadline = time.time() + 10
    while not httpx.get(f"{server}/health").json()["busy"] and time.time() < deadline:
        time.sleep(0.02)
    refused = httpx.post(f"{server}/score", json={"rows": ROWS}, headers=AUTH)
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
    assert thread.is_alive()  # refused while the slow request still holds the slot: not queued behind it
    thread.join()
    assert results["slow"].status_code == 200 and results["slow"].json()["scores"] == [[0.0, 1.0]]


def test_a_hanging_reward_gets_a_bounded_answer_with_nan_and_reason(short_budget_server):
    server = short_budget_server
    wait_idle(server)
    rows = [{"prompt": "p", "completion": "SLEEP 60 yes", "answer": "x", "prompt_id": "a"}, {"prompt": "p", "completion": "yes", "answer": "x", "prompt_id": "a"}]
    started = time.perf_counter()
    body = httpx.post(f"{server}/score", json={"rows": rows}, headers=AUTH, timeout=60).json()
    elapsed = time.perf_counter() - started
    assert 1.4 < elapsed < 30  # the 1.5 s budget (generous bound on a loaded machine), not the 60 s sleep
    assert body["timed_out"] is True and body["scores"] == [[None, None], [None, None]] and body["total"] == [None, None]
    assert body["failures"] == {"match": 2, "yes": 2}
    assert all(r.startswith("timeout: the request's time budget of 1.5 s") for r in body["reasons"]["yes"])
    # the slot's process was killed (not left sleeping) and is rebuilt; then it scores again
    assert httpx.get(f"{server}/health").json()["restarts"] >= 1
    wait_idle(server)
    assert httpx.post(f"{server}/score", json={"rows": ROWS}, headers=AUTH).status_code == 200


def test_binding_beyond_loopback_needs_a_token(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    env = {k: v for k, v in os.environ.items() if k != "POLYREWARD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), "--host", "0.0.0.0", "--port", "0"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "POLYREWARD_TOKEN" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("args, message", [
    (["--concurrency", "0"], "--concurrency must be >= 1"),
    (["--port", "70000"], "--port must be between 0 and 65535"),
    (["--request-timeout", "0"], "--request-timeout and --max-body-bytes must be > 0"),
])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, args, message):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1


def test_a_bad_config_is_one_line_and_exit_2(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("rewards:\n  - {name: x, type: no_such_reward}\n")
    done = subprocess.run([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no_such_reward" in done.stderr and done.stderr.count("\n") == 1


def test_open_server_on_loopback_needs_no_token(tmp_path):
    proc, url = start_server(tmp_path, token=None)
    try:
        body = httpx.post(f"{url}/score", json={"rows": ROWS[:1]}).json()
        assert body["scores"] == [[1.0, 0.0]] and not math.isnan(body["total"][0])
    finally:
        stop(proc)


def test_nan_reward_fills_the_peer_routes(tmp_path):
    config = CONFIG.replace("  - {name: yes, type: \"test_server:SleepsWhenAsked\", weight: 0.5}\n", "").replace(
        "answer_column: answer}", "answer_column: answer, when: {source: math}}")
    proc, url = start_server(tmp_path, "--nan-reward", "-1", token=None, config=config)
    try:  # the one reward is routed away from this row: no reward scored it
        body = httpx.post(f"{url}/get_reward", json={"query": ["a"], "prompts": ["p"], "labels": [{"answer": "4", "source": "chat"}]}).json()
        assert body["rewards"] == [-1.0] and json.dumps(body)  # a number OpenRLHF's torch.tensor accepts
    finally:
        stop(proc)
