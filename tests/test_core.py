"""The core vocabulary: schema helpers, RewardSet, registry and config validation."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

from polyreward import RewardSet, Scorer, completion_messages, completion_text, parse_config, prompt_text
from polyreward.config import ConfigError, load_config
from polyreward.schema import Batch, ColumnMap
from toy_rewards import AnswerMatch, ContainsWord, Explodes


@pytest.mark.parametrize(
    "completion, text",
    [
        ("plain", "plain"),
        (None, ""),
        (float("nan"), ""),
        ([{"role": "assistant", "content": "hi"}], "hi"),
        ([{"role": "assistant", "content": "a"}, {"role": "tool", "content": "42"}, {"role": "assistant", "content": "b"}], "a\nb"),
        ([{"role": "assistant", "content": [{"type": "text", "text": "x"}, {"type": "image"}]}], "x"),
        ('[{"role": "assistant", "content": "from csv"}]', "from csv"),
        ("[{not json", "[{not json"),
        ({"role": "assistant", "content": "single"}, "single"),
    ],
)
def test_completion_text(completion, text):
    assert completion_text(completion) == text


def test_prompt_text_and_messages():
    assert prompt_text([{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]) == "system: s\n\nuser: u"
    assert completion_messages("x") == [{"role": "assistant", "content": "x"}]
    assert completion_messages(None) == []


def test_batch_from_records_maps_columns():
    batch = Batch.from_records([{"q": "p1", "out": "c1", "answer": 1}, {"q": "p2", "out": "c2", "extra": True}], ColumnMap("q", "out"))
    assert batch.prompts == ["p1", "p2"] and batch.completions == ["c1", "c2"]
    assert batch.columns == {"answer": [1, None], "extra": [None, True]}
    # columns in the order their keys first appear over the rows, then a required column no row has
    rows = [{"b": 1, "out": "c1"}, {"out": "c2", "a": 2, "b": 3}, {"c": 4, "out": "c3", "a": 5}]
    batch = Batch.from_records(rows, ColumnMap("q", "out"), require=("z", "a"))
    assert list(batch.columns) == ["b", "a", "c", "z"]
    assert batch.columns == {"b": [1, 3, None], "a": [None, 2, 5], "c": [None, None, 4], "z": [None, None, None]}
    assert batch.prompts == [None, None, None]
    with pytest.raises(ValueError, match="prompts"):
        Batch(["a"], ["b", "c"])


def test_rewardset_matrix_nan_reasons_and_total():
    rs = RewardSet([ContainsWord(name="yes", word="yes", weight=2.0), Explodes(name="ex", weight=1.0)])
    m = Scorer(rs).score(Batch(["p"] * 3, ["yes", "boom no", "yes"], {"skip": [False, False, True]}))
    assert m.names == ["yes", "ex"]
    assert m.scores[0].tolist() == [1.0, 0.5]
    assert m.scores[1, 0] == 0.0 and math.isnan(m.scores[1, 1])
    assert m.reasons["ex"][1].startswith("error: RuntimeError: boom")
    assert math.isnan(m.scores[2, 0]) and m.reasons["yes"][2] == "not applicable"
    np.testing.assert_allclose(m.total, [2.5, 0.0, 0.5])
    assert m.details["yes"]["length"][:2] == [3.0, 7.0]


def test_rewardset_all_nan_row_total_is_nan():
    m = Scorer(RewardSet([ContainsWord(name="a")])).score(Batch(["p"], ["x"], {"skip": [True]}))
    assert math.isnan(m.total[0])


def test_rewardset_rejects_duplicate_names_and_missing_columns():
    with pytest.raises(ValueError, match="unique"):
        RewardSet([ContainsWord(name="a"), ContainsWord(name="a")])
    with pytest.raises(KeyError, match="answer"):
        Scorer(RewardSet([AnswerMatch(name="m")])).score(Batch(["p"], ["x"]))


def test_reward_is_trl_callable_and_picklable():
    reward = ContainsWord(name="has_yes")
    assert reward.__name__ == "has_yes"
    assert reward(prompts=["p", "p"], completions=["yes", "no"], skip=[False, True]) == [1.0, None]
    clone = pickle.loads(pickle.dumps(reward))
    assert clone(completions=["yes"]) == [1.0]


def _cfg(**overrides):
    base = {"rewards": [{"name": "a", "type": "toy_rewards:ContainsWord", "word": "ok"}]}
    base.update(overrides)
    return base


def test_config_builds_rewardset_with_params_and_weights():
    cfg = parse_config(_cfg(rewards=[{"name": "a", "type": "toy_rewards:ContainsWord", "word": "ok", "weight": 0.5}]))
    rs = cfg.build_rewards()
    assert rs.names == ["a"] and rs.weights.tolist() == [0.5] and rs.rewards[0].word == "ok"
    assert cfg.column_map == ColumnMap("prompt", "completion", "prompt_id")


@pytest.mark.parametrize(
    "data, message",
    [
        ({"rewards": [{"name": "a", "type": "nope"}]}, r"rewards\[0\]\.type: unknown reward type 'nope'; allowed: .*math_accuracy"),
        (_cfg(colums={}), r"colums: unknown key; allowed: columns, combiner, engine, on_reward_error, rewards, train"),
        ({"rewards": []}, r"rewards: List should have at least 1 item"),
        ({"rewards": [{"name": "a"}]}, r"rewards\[0\]\.type: Field required"),
        (_cfg(rewards=[{"name": "a", "type": "toy_rewards:ContainsWord", "wrod": "x"}]), r"unknown key\(s\) \['wrod'\].*allowed: name, type, weight, when, delay, word"),
        (_cfg(rewards=[{"name": "a", "type": "toy_rewards:ContainsWord"}, {"name": "a", "type": "toy_rewards:Explodes"}]), r"rewards\[1\]\.name: 'a' is used twice"),
        (_cfg(rewards=[{"name": "a", "type": "toy_rewards:ContainsWord", "weight": "heavy"}]), r"rewards\[0\]\.weight"),
        (_cfg(engine={"workers": -1}), r"engine\.workers"),
        (_cfg(engine={"timeout": 0}), r"engine\.timeout"),
        (_cfg(columns={"prompt": "q", "answer": "a"}), r"columns\.answer: unknown key; allowed: completion, group, prompt"),
        (_cfg(combiner="no_such_combiner"), r"combiner\.type: unknown combiner type 'no_such_combiner'; allowed: .*gdpo"),
        (["not", "a", "mapping"], r"top level must be a mapping"),
        ({"rewards": [{"name": "a", "type": "nomodule_xyz:Thing"}]}, r"cannot import reward type"),
    ],
)
def test_invalid_config_names_key_and_allowed_values(data, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(data)


def test_constructor_validation_becomes_config_error():
    cfg = parse_config(_cfg(rewards=[{"name": "a", "type": "toy_rewards:ContainsWord", "word": ""}]))
    with pytest.raises(ConfigError, match=r"rewards\[0\] \(a, type toy_rewards:ContainsWord\): word must be"):
        cfg.build_rewards()


def test_load_config_reports_yaml_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("rewards:\n  - {name: a, type: x\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml line \d+: invalid YAML"):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "missing.yaml")
