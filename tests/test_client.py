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

from polyreward.runners.client import RewardClient, shards  # noqa: E402
from polyreward.config import load_config  # noqa: E402
from polyreward.pipeline import score_batch  # noqa: E402
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
    return score_batch(Batch.from_records(batch_rows, config.column_map, require=("answer",)), config.build_rewards(workers=0))


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
    assert result.reasons == expected.reasons and result.failed_rows == 0


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
    assert result.failed_rows == len(batch) and np.isnan(result.scores).all() and np.isnan(result.total).all()
    assert all("ConnectError" in r and "after 3 attempt(s)" in r for r in result.reasons["reward"])


def test_a_wrong_token_is_not_retried(two_servers):
    with RewardClient([two_servers[0][1]], token="wrong", retries=5, backoff=0.01) as client:
        result = client.score_rows(rows(2))
        assert client.attempts == 1  # one shard, one attempt: retrying cannot fix a 401
    assert result.failed_rows == 6 and "HTTP 401" in result.reasons["reward"][0]


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
