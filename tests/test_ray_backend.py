"""``--backend ray`` on a real two-node local Ray cluster (``ray.cluster_utils.Cluster``): byte-identical to local mode.

The actor pool follows Ray's own ``ray.util.ActorPool`` (python/ray/util/actor_pool.py: submit to idle actors,
collect with ``ray.wait``), written out so a chunk lost with its actor is re-scored and counted.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from polyreward.config import load_config, parse_config  # noqa: E402
from polyreward.reward import Reward, RewardOutput  # noqa: E402
from polyreward.runners.score_file import score_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ["math", "tools", "jaccard", "kg", "forecast", "medqa"]


class GroupSize(Reward):
    """A group-level reward: each row scores the number of rows of its group in the call it got."""

    type_name = "test_group_size"
    score_range = (0.0, 1e9)

    @property
    def group_columns(self):
        return ("prompt_id",)

    @property
    def columns(self):
        return ("prompt_id",)

    def evaluate(self, prompts, completions, **columns):
        seen = Counter(columns["prompt_id"])
        return RewardOutput([float(seen[g]) for g in columns["prompt_id"]], [""] * len(completions))


@pytest.fixture(scope="module")
def cluster():
    """A real two-node Ray cluster on this machine (ray.cluster_utils.Cluster), one CPU per node."""
    from ray.cluster_utils import Cluster

    tests = str(Path(__file__).resolve().parent)
    path = os.pathsep.join(p for p in (tests, os.environ.get("PYTHONPATH", "")) if p)
    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        nodes.add_node(num_cpus=1)
        ray.init(address=nodes.address, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
        yield nodes
    finally:
        ray.shutdown()
        nodes.shutdown()


def _score(input_path, output, config, backend, actors=2, **kwargs):
    from polyreward.runners.ray_backend import RayActorPool, RayChunkScorer

    if backend == "local":
        return score_file(input_path, output, config, **kwargs), None
    with RayActorPool(config, actors=actors, workers=kwargs.get("workers")) as pool:
        progress = kwargs.pop("progress_with_pool", None)
        if progress is not None:
            kwargs["progress"] = lambda n: progress(pool, n)
        return score_file(input_path, output, config, chunk_scorer=RayChunkScorer(pool), **kwargs), pool


@pytest.mark.parametrize("example", EXAMPLES)
def test_ray_output_is_byte_identical_to_local_on_the_shipped_examples(cluster, tmp_path, example):
    config = load_config(ROOT / "examples" / example / "config.yaml")
    rollouts = ROOT / "examples" / example / "rollouts.jsonl"
    local, _ = _score(rollouts, tmp_path / "local.jsonl", config, "local", chunk_size=16, workers=1)
    remote, pool = _score(rollouts, tmp_path / "ray.jsonl", config, "ray", chunk_size=16, workers=1)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert remote.failures == local.failures and pool.rescored == 0
    # the summary's exact sums: the same integers whichever process scored which chunk
    exact = lambda result: {name: (m.count, m.nan, m.sum, m.squares, m.low, m.high) for name, m in result.summary.columns.items()}  # noqa: E731
    assert exact(remote) == exact(local) and remote.rows == local.rows


def _rows(n_groups, sizes=(3, 5, 7)):
    rows = []
    for g in range(n_groups):
        for j in range(sizes[g % len(sizes)]):
            rows.append({"prompt": f"q{g}", "completion": "yes" if (g + j) % 3 else "no", "prompt_id": f"p{g}"})
    return rows


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_an_actor_killed_mid_run_loses_and_duplicates_nothing(cluster, tmp_path):
    """ray.kill on the actor holding a chunk: that chunk is scored again on a fresh actor; output identical to local."""
    config = parse_config({"columns": {"group": "prompt_id"}, "combiner": "grpo", "rewards": [
        {"name": "word", "type": "toy_rewards:ContainsWord", "word": "yes", "delay": 0.02}]})
    data = _write(tmp_path / "in.jsonl", _rows(24))
    _score(data, tmp_path / "local.jsonl", config, "local", chunk_size=8, workers=0)
    killed = []

    def kill_one(pool, n):
        if not killed and pool.in_flight:
            ref, (number, actor) = next(iter(pool.in_flight.items()))
            ray.kill(actor)
            killed.append(number)

    result, pool = _score(data, tmp_path / "ray.jsonl", config, "ray", chunk_size=8, workers=0, progress_with_pool=kill_one)
    assert killed and pool.rescored >= 1
    out = [json.loads(line) for line in (tmp_path / "ray.jsonl").read_text().splitlines()]
    assert len(out) == 24 // 3 * 15 == result.rows
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_a_group_level_reward_gets_whole_groups_on_the_actors(cluster, tmp_path):
    """Groups of 3, 5 and 7 rows with chunks of 4: every row's score is its whole group's size, and the GRPO
    advantages (one combiner call in the driver) equal local mode's."""
    config = parse_config({"columns": {"group": "prompt_id"}, "combiner": "grpo", "rewards": [
        {"name": "size", "type": "test_ray_backend:GroupSize"},
        {"name": "word", "type": "toy_rewards:ContainsWord", "word": "yes"}]})
    rows = _rows(9)
    data = _write(tmp_path / "in.jsonl", rows)
    result, pool = _score(data, tmp_path / "ray.jsonl", config, "ray", chunk_size=4, workers=0)
    expected = Counter(r["prompt_id"] for r in rows)
    out = [json.loads(line) for line in (tmp_path / "ray.jsonl").read_text().splitlines()]
    assert [r["size"] for r in out] == [float(expected[r["prompt_id"]]) for r in rows]
    _score(data, tmp_path / "local.jsonl", config, "local", chunk_size=4, workers=0)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_score_dataset_on_ray_matches_local(cluster):
    datasets = pytest.importorskip("datasets")
    from polyreward.runners.datasets_io import score_dataset

    config = parse_config({"columns": {"group": "prompt_id"}, "combiner": "grpo", "rewards": [
        {"name": "size", "type": "test_ray_backend:GroupSize"},
        {"name": "word", "type": "toy_rewards:ContainsWord", "word": "yes"}]})
    ds = datasets.Dataset.from_list(_rows(7))
    local = score_dataset(ds, config, chunk_size=4, workers=0)
    remote = score_dataset(ds, config, chunk_size=4, workers=0, backend="ray")
    assert remote.to_list() == local.to_list()


def test_score_dataset_takes_pandas_and_ray_data_on_either_backend(cluster):
    """A pandas DataFrame comes back as a DataFrame and a Ray Data dataset as a Ray dataset, with the same values
    as the Hugging Face Dataset path (ints stay ints), scored locally or by the actors."""
    import pandas as pd
    import ray.data

    datasets = pytest.importorskip("datasets")
    from polyreward.runners.datasets_io import score_dataset

    config = parse_config({"columns": {"group": "prompt_id"}, "combiner": "grpo", "rewards": [
        {"name": "size", "type": "test_ray_backend:GroupSize"},
        {"name": "word", "type": "toy_rewards:ContainsWord", "word": "yes"}]})
    rows = _rows(7)
    expected = score_dataset(datasets.Dataset.from_list(rows), config, chunk_size=4, workers=0).to_list()
    for backend in ("local", "ray"):
        frame = score_dataset(pd.DataFrame(rows), config, chunk_size=4, workers=0, backend=backend)
        assert isinstance(frame, pd.DataFrame) and frame.to_dict("records") == expected
        remote = score_dataset(ray.data.from_items(rows), config, chunk_size=4, workers=0, backend=backend)
        assert isinstance(remote, ray.data.Dataset)
        assert remote.to_pandas().to_dict("records") == expected


def test_cli_backend_ray_joins_a_running_instance_and_matches_local(cluster, tmp_path, capsys):
    from polyreward.cli import main

    example = ROOT / "examples" / "medqa"
    args = [str(example / "rollouts.jsonl"), "-c", str(example / "config.yaml"), "-q", "--workers", "0", "--chunk-size", "32"]
    assert main(["score", *args, "-o", str(tmp_path / "local.jsonl")]) == 0
    assert main(["score", *args, "-o", str(tmp_path / "ray.jsonl"), "--backend", "ray", "--actors", "2"]) == 0
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert main(["score", *args, "-o", str(tmp_path / "x.jsonl"), "--backend", "ray", "--actors", "5"]) == 2
    assert "needs 5 CPUs" in capsys.readouterr().err
    missing = ["score", str(tmp_path / "absent.jsonl"), "-c", str(example / "config.yaml"), "-o", str(tmp_path / "y.jsonl")]
    assert main([*missing, "--backend", "ray"]) == 2
    assert capsys.readouterr().err.strip() == f"error: {tmp_path / 'absent.jsonl'}: no such file"


def test_a_node_lost_mid_run_loses_nothing(cluster, tmp_path):
    """A third 1-CPU node joins, three actors run, and that node is removed while the run goes on. No CPU is
    left for a replacement, so the surviving actors score the lost chunk and the rest."""
    config = parse_config({"columns": {"group": "prompt_id"}, "combiner": "grpo", "rewards": [
        {"name": "word", "type": "toy_rewards:ContainsWord", "word": "yes", "delay": 0.02}]})
    data = _write(tmp_path / "in.jsonl", _rows(18))
    _score(data, tmp_path / "local.jsonl", config, "local", chunk_size=8, workers=0)
    extra = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    removed = []

    def lose_node(pool, n):
        if not removed:
            cluster.remove_node(extra)
            removed.append(True)

    result, pool = _score(data, tmp_path / "ray.jsonl", config, "ray", actors=3, chunk_size=8, workers=0,
                          progress_with_pool=lose_node)
    assert removed and result.rows == 18 // 3 * 15
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
