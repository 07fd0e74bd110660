"""Model judges on a real local model: the ``transformers`` judge, the ``serve-judge`` server and the
``openai`` judge talking to it over 127.0.0.1.

The tiny Qwen2 has random weights and the real Qwen2.5 tokenizer: these tests check plumbing (chat
template, left padding, batching, parsing, caching, the HTTP protocol), not grading quality.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from polyreward.rubrics.grading import single_prompt
from polyreward.rubrics.judge_openai import OpenAIJudge
from polyreward.judges.server import JudgeServer
from polyreward.rubrics.judge_transformers import TransformersJudge
from polyreward.rubrics.judges import JudgeRequest
from polyreward.rubrics.reward import RubricReward
from polyreward.rubrics.schema import RubricItem

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread

ROOT = Path(__file__).parent.parent
CONVERSATION = ({"role": "user", "content": "I have crushing chest pain. What should I do?"},)
RESPONSES = ["Call 911 now.", "Rest, drink water and wait and see if it passes by tomorrow morning.", "Chew an aspirin."]
ITEMS = [RubricItem("Advises calling emergency services.", 10, ("axis:accuracy",)), RubricItem("Recommends waiting.", -8)]
REQUESTS = [JudgeRequest(CONVERSATION, r, item) for r in RESPONSES for item in ITEMS]


@pytest.fixture(scope="module")
def server(tiny_qwen2_dir):
    with JudgeServer(tiny_qwen2_dir, port=0, served_model_name="tiny-judge", max_batch=8) as running:
        yield running


def test_left_padding_makes_batching_invisible(server):
    lm = server.lm
    texts = [lm.chat_text([{"role": "user", "content": "x " * n}]) for n in (1, 9, 30)]
    one_by_one = [lm.generate([t], max_new_tokens=8)[0].text for t in texts]
    assert [g.text for g in lm.generate(texts, max_new_tokens=8, batch_size=3)] == one_by_one
    single = [lm.yes_probability([t])[0] for t in texts]
    assert lm.yes_probability(texts) == pytest.approx(single, abs=1e-5)
    choices = ["yes", "no", "not sure"]
    assert [g.text for g in lm.choose(texts, choices)] == [lm.choose([t], choices)[0].text for t in texts]


def test_transformers_judge_generate_is_deterministic_and_parses_or_explains(tiny_qwen2_dir):
    judge = TransformersJudge(str(tiny_qwen2_dir), max_new_tokens=12, batch_size=6)
    first = judge.judge(REQUESTS)
    assert len(first) == len(REQUESTS)
    for verdict in first:  # a random model rarely answers in format: a failed verdict must say why
        assert verdict.met in (True, False) or verdict.explanation.startswith(("empty judge answer", "unparsable judge answer"))
    assert judge.judge(REQUESTS) == first  # greedy: same batch, same verdicts
    assert TransformersJudge(str(tiny_qwen2_dir), max_new_tokens=12, batch_size=1).judge(REQUESTS) == first


def test_transformers_judge_yes_no_mode(tiny_qwen2_dir):
    verdicts = TransformersJudge(str(tiny_qwen2_dir), mode="yes_no").judge(REQUESTS)
    probabilities = [float(v.explanation.removeprefix("P(yes)=")) for v in verdicts]
    assert all(0.0 <= p <= 1.0 for p in probabilities)
    assert [v.met for v in verdicts] == [p >= 0.5 for p in probabilities]
    assert all(v.met for v in TransformersJudge(str(tiny_qwen2_dir), mode="yes_no", threshold=0.001).judge(REQUESTS))
    assert not any(v.met for v in TransformersJudge(str(tiny_qwen2_dir), mode="yes_no", threshold=0.999).judge(REQUESTS))


def test_rubric_reward_with_a_local_model_judge_and_rule_items(tiny_qwen2_dir):
    rubric = [item.to_dict() for item in ITEMS] + [{"criterion": "Mentions aspirin", "points": 3, "rule": {"contains": "aspirin"}}]
    reward = RubricReward(judge={"type": "transformers", "model": str(tiny_qwen2_dir), "mode": "yes_no"})
    out = reward.evaluate([list(CONVERSATION)] * 3, RESPONSES, rubrics=[rubric] * 3)
    assert all(isinstance(s, float) and -8 / 13 <= s <= 1.0 for s in out.scores)
    assert "[+3 met] Mentions aspirin -- contains 'aspirin'" in out.reasons[2]  # rule items never reach the model
    assert "P(yes)=" in out.reasons[0]


def test_server_protocol(server):
    client = httpx.Client(base_url=server.url, timeout=30)
    assert client.get("/models").json()["data"][0]["id"] == "tiny-judge"
    assert httpx.get(server.url.removesuffix("/v1") + "/health").json() == {"status": "ok"}
    body = {"model": "tiny-judge", "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}], "max_tokens": 5}
    reply = client.post("/chat/completions", json=body).json()
    assert reply["object"] == "chat.completion" and reply["model"] == "tiny-judge"
    assert reply["choices"][0]["message"]["role"] == "assistant" and reply["choices"][0]["finish_reason"] in ("stop", "length")
    assert reply["usage"]["completion_tokens"] <= 5
    assert reply["usage"]["total_tokens"] == reply["usage"]["prompt_tokens"] + reply["usage"]["completion_tokens"]
    choice = client.post("/chat/completions", json={**body, "guided_choice": ["yes", "no"]}).json()
    assert choice["choices"][0]["message"]["content"] in ("yes", "no")
    for bad, status, fragment in [
        ({**body, "model": "gpt-4"}, 404, "is not served here"),
        ({**body, "stream": True}, 400, "stream=true is not supported"),
        ({**body, "n": 2}, 400, "only n=1"),
        ({**body, "max_tokens": 0}, 400, "max_tokens must be an integer"),
        ({**body, "temperature": "hot"}, 400, "temperature must be a number"),
        ({**body, "messages": []}, 400, "messages must be a non-empty list"),
        ({**body, "guided_choice": []}, 400, "guided_choice must be"),
    ]:
        response = client.post("/chat/completions", json=bad)
        assert response.status_code == status and fragment in response.json()["error"]["message"]
    broken = client.post("/chat/completions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and "not valid JSON" in broken.json()["error"]["message"]
    assert client.post("/completions", json=body).status_code == 404


def test_concurrent_requests_are_batched_with_the_same_results(server):
    """Concurrent requests with different settings (free generation of 6 or 3 tokens, guided choice) are
    grouped into batches by setting; each answer equals the model run on that prompt alone."""
    lm = server.lm
    prompts = [f"Question {i}: " + "why " * i for i in range(9)]
    texts = [lm.chat_text([{"role": "user", "content": p}]) for p in prompts]
    extra = [{"max_tokens": 6}, {"max_tokens": 3}, {"max_tokens": 6, "guided_choice": ["yes", "no", "maybe"]}]
    expected = [lm.choose([t], ["yes", "no", "maybe"])[0].text if i % 3 == 2 else lm.generate([t], max_new_tokens=extra[i % 3]["max_tokens"])[0].text
                for i, t in enumerate(texts)]
    results: dict[int, str] = {}

    def ask(i: int) -> None:
        body = {"model": "tiny-judge", "messages": [{"role": "user", "content": prompts[i]}], "temperature": 0, **extra[i % 3]}
        results[i] = httpx.post(server.url + "/chat/completions", json=body, timeout=60).json()["choices"][0]["message"]["content"]

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[i] for i in range(9)] == expected


def test_openai_judge_against_serve_judge_with_guided_choice_and_cache(server):
    judge = OpenAIJudge(server.url, "tiny-judge", timeout=60, concurrency=4, max_tokens=4, extra_body={"guided_choice": ["yes", "no"]})
    verdicts = judge.judge(REQUESTS)
    assert all(v.met in (True, False) for v in verdicts)
    direct = server.lm.choose([server.lm.chat_text([{"role": "user", "content": single_prompt(r.conversation, r.response, r.item)}]) for r in REQUESTS], ["yes", "no"])
    assert [v.met for v in verdicts] == [g.text == "yes" for g in direct]  # the server path equals the in-process model
    assert judge.stats["requests"] == len(REQUESTS)
    assert judge.judge(REQUESTS) == verdicts and judge.stats["requests"] == len(REQUESTS)  # warm cache: no request


def test_openai_judge_free_generation_from_a_random_model_fails_softly(server):
    judge = OpenAIJudge(server.url, "tiny-judge", timeout=60, max_retries=1, backoff=0.01, max_tokens=8)
    start = time.monotonic()
    verdicts = judge.judge(REQUESTS[:2])
    assert time.monotonic() - start < 30
    for verdict in verdicts:
        assert verdict.met in (True, False) or ("judge answer" in verdict.explanation and "(2 attempt(s) max)" in verdict.explanation)


def test_serve_judge_cli(tiny_qwen2_dir):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen([sys.executable, "-m", "polyreward", "serve-judge", "--model", str(tiny_qwen2_dir), "--port", "0",
                                "--served-model-name", "cli-judge"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith("serving 'cli-judge' at http://127.0.0.1:"), process.stderr.read() if not line else line
        url = line.split(" at ")[1].split()[0]
        assert httpx.get(url + "/models", timeout=30).json()["data"][0]["id"] == "cli-judge"
        body = {"model": "cli-judge", "messages": [{"role": "user", "content": "ok?"}], "max_tokens": 3, "guided_choice": ["yes", "no"]}
        assert httpx.post(url + "/chat/completions", json=body, timeout=60).json()["choices"][0]["message"]["content"] in ("yes", "no")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_judge_cli_refuses_a_missing_model(tmp_path):
    result = subprocess.run([sys.executable, "-m", "polyreward", "serve-judge", "--model", str(tmp_path / "none")],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 2 and "is not a local directory" in result.stderr


@pytest.mark.parametrize("args, message", [(["--port", "99999"], "--port must be between 0 and 65535"),
                                           (["--port", "-1"], "--port must be between 0 and 65535"),
                                           (["--max-batch", "0"], "--max-batch must be >= 1")])
def test_serve_judge_refuses_bad_numbers_before_loading_a_model(capsys, args, message):
    from polyreward.cli import main as cli_main

    assert cli_main(["serve-judge", "--model", "/nonexistent", *args]) == 2
    assert message in capsys.readouterr().err
