"""score_dataset on real ``datasets`` objects, and ``polyreward score`` reading what ``save_to_disk`` wrote.

The claim: a Dataset scored in memory gets exactly the columns and values ``polyreward score`` writes for the same
rows (one scoring path), a DatasetDict is scored split by split, group-level rewards see whole groups whatever the
chunk size, and a bad config or a missing column is refused before any reward runs.
"""

from __future__ import annotations

import json
import math

import pytest

datasets = pytest.importorskip("datasets")  # the optional extra; installed by dev

from polyreward import score_dataset  # noqa: E402
from polyreward.io import InputError  # noqa: E402
from polyreward.pipeline import MissingColumnError  # noqa: E402
from test_cli_score import CONFIG, OTC_CONFIG, _otc_rows, polyreward, rollouts  # noqa: E402

GDPO_CONFIG = CONFIG + "combiner: gdpo\n"


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-12, abs=1e-12) or (math.isnan(a) and math.isnan(b))
    return a == b


def _read_jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("source", ["save_to_disk", "arrow_file", "dataset_dict_split"])
def test_score_dataset_equals_the_cli_on_the_saved_dataset(tmp_path, source):
    ds = datasets.Dataset.from_list(rollouts(40))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(GDPO_CONFIG)
    if source == "dataset_dict_split":
        datasets.DatasetDict(train=ds, test=ds.select(range(8))).save_to_disk(tmp_path / "dd")
        path = tmp_path / "dd" / "train"
    else:
        ds.save_to_disk(tmp_path / "saved")
        path = tmp_path / "saved"
        if source == "arrow_file":
            path = next(path.glob("*.arrow"))
    polyreward("score", path, "--config", cfg, "-o", tmp_path / "out.jsonl", "--chunk-size", "7", "--quiet")
    cli_rows = _read_jsonl(tmp_path / "out.jsonl")

    scored = score_dataset(ds, cfg, chunk_size=7)
    assert scored.column_names == list(cli_rows[0])  # same columns, same order
    for mine, theirs in zip(scored.to_list(), cli_rows):
        assert all(_same(mine[key], theirs[key]) for key in theirs), (mine, theirs)
    assert scored["has_yes"][6] is None and scored["has_yes_reason"][6] == "not applicable"  # skip row: None, not NaN


def test_dataset_dict_is_scored_split_by_split(tmp_path):
    rows = rollouts(24)
    dd = datasets.DatasetDict(train=datasets.Dataset.from_list(rows[:16]), test=datasets.Dataset.from_list(rows[16:]))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(GDPO_CONFIG)
    scored = score_dataset(dd, cfg)
    assert isinstance(scored, datasets.DatasetDict) and set(scored) == {"train", "test"}
    alone = score_dataset(dd["test"], cfg)
    assert scored["test"]["advantage"] == pytest.approx(alone["advantage"])  # each split its own combiner batch
    assert len(scored["train"]) == 16 and "advantage" in scored["train"].column_names


@pytest.mark.parametrize("chunk_size", [1, 2, 5, 100])
def test_group_level_rewards_see_whole_groups_at_any_chunk_size(tmp_path, chunk_size):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(OTC_CONFIG)
    ds = datasets.Dataset.from_list(_otc_rows([(1, "a"), (1, "b"), (1, "c"), (2, "a"), (2, "b"), (2, "c")]))
    whole = score_dataset(ds, cfg, chunk_size=100)["otc"]
    assert score_dataset(ds, cfg, chunk_size=chunk_size)["otc"] == whole
    assert whole[0] > whole[1]  # fewer tool calls than the group's other correct rollout: a group-level comparison


def test_rescoring_replaces_the_columns_it_adds(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(GDPO_CONFIG)
    once = score_dataset(datasets.Dataset.from_list(rollouts(12)), cfg)
    twice = score_dataset(once, cfg)
    assert twice.column_names == once.column_names and twice["advantage"] == pytest.approx(once["advantage"])


def test_problems_are_named_before_any_reward_runs(tmp_path):
    ds = datasets.Dataset.from_list([{"qid": 1, "output": "yes"}])  # no gold column
    with pytest.raises(MissingColumnError, match="reward 'exact' reads column 'gold'"):
        score_dataset(ds, {"columns": {"completion": "output", "group": "qid"},
                           "rewards": [{"name": "exact", "type": "toy_rewards:AnswerMatch", "answer_column": "gold"}]})
    with pytest.raises(InputError, match="no row has the completion column 'completion'"):
        score_dataset(ds, {"rewards": [{"name": "y", "type": "toy_rewards:ContainsWord"}]})
    with pytest.raises(InputError, match="dataset: no rows to score"):
        score_dataset(ds.select([]), {"columns": {"completion": "output"}, "rewards": [{"name": "y", "type": "toy_rewards:ContainsWord"}]})
    with pytest.raises(ValueError, match="backend must be one of local"):
        score_dataset(ds, {"columns": {"completion": "output"}, "rewards": [{"name": "y", "type": "toy_rewards:ContainsWord"}]},
                      backend="spark")


def test_a_dataset_dict_folder_and_an_indices_mapping_are_refused_in_one_line(tmp_path):
    ds = datasets.Dataset.from_list(rollouts(8))
    datasets.DatasetDict(train=ds).save_to_disk(tmp_path / "dd")
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    result = polyreward("score", tmp_path / "dd", "-c", cfg, "-o", tmp_path / "o.jsonl", check=False)
    assert result.returncode == 2
    assert f"is a DatasetDict with splits ['train']; give one split's folder, e.g. {tmp_path / 'dd' / 'train'}" in result.stderr
    broken = tmp_path / "broken.arrow"
    broken.write_bytes(b"not arrow at all")
    result = polyreward("score", broken, "-c", cfg, "-o", tmp_path / "o.jsonl", check=False)
    assert result.returncode == 2 and f"{broken}: not a readable Arrow file" in result.stderr
