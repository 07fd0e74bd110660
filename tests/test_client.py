"""``RewardClient`` against real ``polyreward serve`` subprocesses on 127.0.0.1 (two replicas, one killed mid-batch).

As a TRL reward function it is called as trl/trainer/grpo_trainer.py (``_calculate_rewards``) calls one::

    output_reward_func = reward_func(
        prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs
    )
    output_reward_func = [reward if reward is not None else torch.nan for reward in output_reward_func]

and as a verl ``compute_score`` as verl/workers/reward_manager/naive.py calls it::

    score = self.compute_score(data_source=data_source, solution_str=response_str, ground_truth=ground_truth,
                               extra_info=extra_info)
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from polyreward.runners.chunking import shards  # noqa: E402
from polyreward.runners.client import RewardClient  # noqa: E402
from polyreward.config import load_config  # noqa: E402
from polyreward.schema import Batch  # noqa: E402
from test_server import CONFIG, TOKEN, start_server, stop  # noqa: E402


def rows(n_groups: int, sleep: float = 0.0) -> list[dict]:
    out = []
    for g in range(n_groups):
        for j in range(3):
            text = ("yes " if j == 1 else "") + str(g + j % 2)
            out.append({"prompt": f"say {g}", "completion": f"SLEEP {sleep} {text}" if sleep else text, "answer": str(g), "prompt_id": f"p{g}"})
    return out


def in_process(tmp_path, batch_rows):
    config_file = tmp_path / "inproc.yaml"
    config_file.write_text(CONFIG)
    config = load_config(config_file)
    return config.build_scorer(workers=0).score(Batch.from_records(batch_rows, config.column_map, require=("answer",)))


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    procs = [start_server(tmp_path_factory.mktemp(f"s{i}"), "--concurrency", "2") for i in range(2)]
    yield procs
    for proc, _ in procs:
        if proc.poll() is None:
            stop(proc)


def assert_same(result, expected):
    assert result.names == expected.names
    np.testing.assert_array_equal(result.scores, expected.scores)
    np.testing.assert_array_equal(result.total, expected.total)
    assert result.reasons == expected.reasons and int(result.unscored.sum()) == 0


def test_client_over_two_servers_equals_in_process_scoring(two_servers, tmp_path):
    batch = rows(20)
    with RewardClient([url for _, url in two_servers], token=TOKEN, shard_size=7) as client:
        result = client.score_rows(batch)
        assert client.attempts == len(list(shards(batch, 7, "prompt_id")))  # every shard answered first time
    assert_same(result, in_process(tmp_path, batch))


def test_one_server_killed_mid_batch_still_gives_the_complete_result(tmp_path):
    (keep, url_a), (doomed, url_b) = start_server(tmp_path, "--concurrency", "2"), start_server(tmp_path, "--concurrency", "2")
    try:
        batch = rows(16, sleep=0.15)  # 16 shards of one group each, 0.45 s per shard
        client = RewardClient([url_a, url_b], token=TOKEN, shard_size=3, per_server=2, backoff=0.05, retries=4)
        threading.Timer(0.6, doomed.kill).start()  # while shards are in flight on both servers
        started = time.perf_counter()
        result = client.score_rows(batch)
        assert doomed.wait(5) is not None and time.perf_counter() - started > 0.6
        assert client.attempts > 16  # the shards lost with the killed server were sent again
        assert_same(result, in_process(tmp_path, batch))
    finally:
        stop(keep)
        if doomed.poll() is None:
            doomed.kill()


def test_no_server_reachable_is_nan_and_reason_for_every_row_not_an_exception():
    batch = rows(3)
    started = time.perf_counter()
    with RewardClient(["http://127.0.0.1:9", "http://127.0.0.1:1"], retries=2, backoff=0.01, timeout=2) as client:
        result = client.score_rows(batch)
    assert time.perf_counter() - started < 10
    assert int(result.unscored.sum()) == len(batch) and np.isnan(result.scores).all() and np.isnan(result.total).all()
    assert all("ConnectError" in r and "after 3 attempt(s)" in r for r in result.reasons["reward"])


def test_a_wrong_token_is_not_retried(two_servers):
    with RewardClient([two_servers[0][1]], token="wrong", retries=5, backoff=0.01) as client:
        result = client.score_rows(rows(2))
        assert client.attempts == 1  # one shard, one attempt: retrying cannot fix a 401
    assert int(result.unscored.sum()) == 6 and "HTTP 401" in result.reasons["reward"][0]


def test_as_a_trl_reward_function_and_a_verl_compute_score(two_servers, tmp_path):
    trl_utils = pytest.importorskip("trl.trainer.utils")
    batch = rows(4)
    client = RewardClient([url for _, url in two_servers], token=TOKEN, shard_size=3, name="remote_rewards")
    assert trl_utils.get_callable_name(client) == "remote_rewards" and not trl_utils.is_async_callable(client)
    totals = client(prompts=[r["prompt"] for r in batch], completions=[r["completion"] for r in batch],
                    completion_ids=[[1, 2]] * len(batch), answer=[r["answer"] for r in batch],
                    prompt_id=[r["prompt_id"] for r in batch], trainer_state=object())
    assert totals == in_process(tmp_path, batch).total.tolist()
    score = client.compute_score(data_source="toy", solution_str="yes 3", ground_truth="3", extra_info={"index": 0})
    assert score == 0.5  # match 0 ("yes 3" != "3"), yes 1 x weight 0.5


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", None]), max_size=40), st.integers(1, 7))
def test_shards_cover_every_row_once_and_never_split_a_group_run(groups, size):
    batch = [{"g": g} for g in groups]
    ranges = list(shards(batch, size, "g"))
    assert [i for start, end in ranges for i in range(start, end)] == list(range(len(batch)))
    for start, end in ranges:
        if end < len(batch) and batch[end]["g"] is not None:
            assert batch[end - 1]["g"] != batch[end]["g"]  # a group run continues across no cut
        run_longer = len({g for g in groups[start:end]}) == 1
        assert end - start <= size or run_longer


# ------------------------------------------------------------------------------- bad servers, failure policy, contract

class BadServer:
    """A real HTTP server on 127.0.0.1 that answers every request with ``reply(handler)`` (the stub of a broken
    proxy or a trickling server)."""

    def __init__(self, reply) -> None:
        from http.server import ThreadingHTTPServer

        from judge_stubs import QuietHandler

        class Handler(QuietHandler):
            def do_GET(self):
                reply(self)

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                reply(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def send(handler, status: int, body: bytes, content_type: str = "application/json") -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def trickle(handler) -> None:
    """200 with a body of 100,000 bytes sent one byte every 0.1 s (hours in all): each read returns in time."""
    handler.send_response(200)
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    try:
        for _ in range(100_000):
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.1)
    except OSError:
        pass


def test_a_trickling_server_is_cut_off_at_the_total_deadline_per_attempt():
    with BadServer(trickle) as server:
        started = time.perf_counter()
        with RewardClient(server.url, retries=1, backoff=0.01, timeout=1.5) as client:
            result = client.score_rows(rows(1))
            assert client.attempts == 2
        assert time.perf_counter() - started < 15  # 2 attempts x 1.5 s; the body alone would take hours
    assert int(result.unscored.sum()) == 3 and np.isnan(result.total).all()
    assert "no complete answer within 1.5 s" in result.reasons["reward"][0]


@pytest.mark.parametrize("reply, why", [
    (lambda h: send(h, 200, b"<html><body>502 Bad Gateway (proxy)</body></html>", "text/html"), "not an object"),
    (lambda h: send(h, 200, b'{"names": ["a"], "scores": [[1.0]], "total": [1.0]}'), '"scores" is not 3 rows'),
    (lambda h: send(h, 200, b'{"names": ["a"], "weights": [1], "scores": [[1], [1], ["x"]], "total": [1, 1, 1], "reasons": {"a": ["", "", ""]}}'),
     "neither a number nor null"),
    (lambda h: send(h, 200, b'{"names": ["a"], "scores": '), "not an object"),
])
def test_a_200_body_that_is_not_scores_is_a_counted_failure_never_an_exception(reply, why):
    with BadServer(reply) as server, RewardClient(server.url, retries=2, backoff=0.01, timeout=5) as client:
        result = client.score_rows(rows(1))
        assert client.attempts == 3  # retried: another replica (or a later try) may answer properly
    assert int(result.unscored.sum()) == 3 and result.failures == {"reward": 3}
    assert why in result.reasons["reward"][0] and "HTTP 200 but not /score's answer" in result.reasons["reward"][0]


def test_compute_score_never_returns_nan_when_no_server_answers():
    from polyreward.runners.client import RewardServerError

    with RewardClient("http://127.0.0.1:9", retries=1, backoff=0.01, timeout=2) as client:
        score = client.compute_score(data_source="toy", solution_str="4", ground_truth="4")
        assert score == 0.0 and client.unscored_rows == 1  # the fallback, counted
        assert client(prompts=["p"], completions=["4"], answer=["4"]) == [0.0] and client.unscored_rows == 2
    with RewardClient("http://127.0.0.1:9", retries=0, timeout=2, fallback_reward=-1.0) as client:
        assert client.compute_score(solution_str="4", ground_truth="4") == -1.0
    with RewardClient("http://127.0.0.1:9", retries=0, timeout=2, on_server_error="raise") as client:
        with pytest.raises(RewardServerError, match="ConnectError"):
            client.compute_score(solution_str="4", ground_truth="4")
    with pytest.raises(ValueError, match="finite"):
        RewardClient("http://127.0.0.1:9", fallback_reward=float("nan"))


RENAMED = """
columns: {prompt: question, completion: response, group: qid}
rewards:
  - {name: match, type: "toy_rewards:AnswerMatch", answer_column: gold}
  - {name: yes, type: "test_server:SleepsWhenAsked", weight: 0.5}
"""


def test_the_client_learns_the_servers_columns_so_trl_and_verl_calls_score_as_the_server(tmp_path):
    proc, url = start_server(tmp_path, token=None, config=RENAMED)
    try:
        with RewardClient(url) as client:
            assert client.contract["columns"]["completion"] == "response" and client.group_column == "qid"
            served = client.score_rows([{"question": "q", "response": "yes 4", "gold": "yes 4", "qid": 1}])
            assert served.total.tolist() == [1.5]
            trl = client(prompts=["q"], completions=["yes 4"], gold=["yes 4"], qid=[1])
            verl = client.compute_score(data_source="toy", solution_str="yes 4", ground_truth={"gold": "yes 4"})
            label = RewardClient(url, label_column="gold").compute_score(solution_str="yes 4", ground_truth="yes 4")
        assert trl == [1.5] and verl == 1.5 and label == 1.5
    finally:
        stop(proc)


def test_a_raise_policy_on_the_server_is_the_same_one_line_error_in_the_client(tmp_path):
    from polyreward.pipeline import RewardError

    config = ("on_reward_error: raise\ncolumns: {prompt: prompt, completion: completion}\nrewards:\n"
              '  - {name: boom, type: "toy_rewards:Explodes"}\n')
    cfg = tmp_path / "raise.yaml"
    cfg.write_text(config)
    loaded = load_config(cfg)
    with pytest.raises(RewardError) as local:
        loaded.build_scorer(workers=0, on_reward_error="raise").score(
            Batch.from_records([{"prompt": "p", "completion": "boom"}], loaded.column_map))
    proc, url = start_server(tmp_path, token=None, config=config)
    try:
        with RewardClient(url, retries=3) as client, pytest.raises(RewardError) as remote:
            client.score_rows([{"prompt": "p", "completion": "boom"}])
        assert str(remote.value) == str(local.value) and client.attempts == 1  # not retried
    finally:
        stop(proc)


def test_compute_score_refuses_a_group_level_reward_as_the_verl_adapter_does(tmp_path):
    """One verl sample has no group: with OTC's group-level reward the client's compute_score refuses, naming it
    (the in-process ``polyreward.integrations.verl.compute_score`` gives the same refusal), and score_rows still scores."""
    from pathlib import Path

    config = (Path(__file__).resolve().parents[1] / "examples" / "tools" / "config.yaml").read_text()
    proc, url = start_server(tmp_path, config=config)
    try:
        client = RewardClient([url], token=TOKEN)
        with pytest.raises(ValueError, match=r"reward\(s\) \['efficiency'\] score whole groups"):
            client.compute_score("bfcl", "<tool_call>\n[]\n</tool_call>", "[]", {"prompt": "p", "prompt_id": "q1"})
    finally:
        stop(proc)
