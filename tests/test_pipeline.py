"""polyreward.pipeline: a Batch from any column type, Scorer.score, the one failure policy and the weighted total."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz_rewards import PARAMS, RUBRIC, classify_url  # noqa: F401 -- the real 127.0.0.1 /classify server fixture

from polyreward import registry
from polyreward.config import ConfigError, build_combiner, parse_key_values
from polyreward.pipeline import MissingColumnError, RewardError, Scorer
from polyreward.reward import Reward, RewardOutput, RolloutReward, Scored
from polyreward.rewardset import RewardSet, weighted_total
from polyreward.schema import Batch, as_column

# ------------------------------------------------------------------ column types, for every registered reward
N = 6
COMPLETIONS = ["<think>ok</think>\n<answer>42</answer>", "The answer is C. Call 911 now.", r"yes \boxed{\frac{1}{2}}",
               "<answer>pneumonia; effusion</answer>", '<tool_call>\n{"name": "search", "parameters": {"q": "x"}}\n</tool_call>',
               r"\boxed{0.5}"]
PROMPTS = [f"question {i}" for i in range(N)]
COLUMNS = {  # type-homogeneous realistic cells, so every container can hold them
    "answer": ["42", "C", "yes", "<answer>pneumonia; effusion</answer>", '[{"name": "search", "parameters": {"q": "x"}}]', r"\frac{1}{2}"],
    "options": [{"A": "aspirin", "B": "rest", "C": "call 911"}] * N,
    "observed": [[40.0, 55.5], [12.0, 80.0], [35.0, 36.0], [1.0, 2.0], [80.0, 81.0], [0.5, 0.25]],
    "prompt_id": [0, 0, 1, 1, 2, 2],
    "rubrics": [json.dumps(RUBRIC)] * N,
    "completion_ids": [[i, i + 1, i + 2] for i in range(N)],
    "tests": ["assert f(1) == 2"] * N,  # code_execution (no completion here holds a program: no_program, quickly)
}


def _numeric(values) -> bool:
    flat = [v for row in values for v in (row if isinstance(row, list) else [row])]
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in flat)


def _convert(kind: str, values):
    if kind == "list":
        return list(values)
    if kind == "tuple":
        return tuple(values)
    if kind == "numpy":
        return np.array(values, dtype=object if isinstance(values[0], dict) else None)
    if kind == "pandas":
        return pd.Series(values)
    if kind == "pyarrow":
        return pa.array(values)
    return torch.tensor(values) if _numeric(values) else list(values)  # torch holds numbers only


KINDS = ["list", "tuple", "numpy", "pandas", "pyarrow", "torch"]


def _reward(type_name: str, url: str) -> Reward:
    cls = registry.reward_class(type_name)
    return cls(**(PARAMS[type_name](url) if type_name in PARAMS else dict(cls.example_params)))


def _cells(reward: Reward, name: str) -> list:
    """N realistic cells of column ``name``: this module's, else the reward class's ``example_cells`` repeated."""
    if name in COLUMNS:
        return COLUMNS[name]
    declared = list(reward.example_cells.get(name, ()))
    assert declared, f"declare example_cells for column {name!r} on {type(reward).__name__}"
    return [declared[i % len(declared)] for i in range(N)]


@pytest.mark.parametrize("type_name", registry.reward_types())
def test_every_column_type_gives_the_list_result_for_every_reward(type_name, classify_url):  # noqa: F811
    reward = _reward(type_name, classify_url)
    names = set(reward.columns) | {"completion_ids"}
    cells = {c: _cells(reward, c) for c in names}
    reference = Scorer(RewardSet([reward])).score(Batch(PROMPTS, COMPLETIONS, cells))
    direct_reference = reward(prompts=PROMPTS, completions=COMPLETIONS, **cells)
    for kind in KINDS:
        text = (lambda v: list(v)) if kind == "torch" else (lambda v: _convert(kind, v))
        columns = {c: _convert(kind, cells[c]) for c in names}
        scored = Scorer(RewardSet([reward])).score(Batch(text(PROMPTS), text(COMPLETIONS), columns))
        np.testing.assert_array_equal(scored.scores, reference.scores, err_msg=kind)
        assert scored.reasons == reference.reasons, kind
        assert scored.details == reference.details, kind
        direct = reward(prompts=text(PROMPTS), completions=text(COMPLETIONS), **columns)  # the TRL convention, no Batch
        assert [None if s is None or (isinstance(s, float) and math.isnan(s)) else s for s in direct] == \
            [None if s is None or (isinstance(s, float) and math.isnan(s)) else s for s in direct_reference], kind


def test_a_numpy_answer_column_reaches_choice_accuracy():
    """The regression: a numpy column was dropped at the reward boundary ("gold_unparseable" for every row)."""
    reward = registry.reward_class("choice_accuracy")()
    scores = reward(prompts=["q"] * 2, completions=["The answer is C.", "The answer is B."], answer=np.array(["C", "C"]))
    assert scores == [1.0, 0.0]


@pytest.mark.parametrize("values, expected", [
    (np.array([1, 2]), [1, 2]), (pd.Series([1.5, None]), [1.5, math.nan]), (pa.chunked_array([[1], [2]]), [1, 2]),
    (torch.tensor([[1, 2], [3, 4]]), [[1, 2], [3, 4]]), (np.array([np.array([1, 2]), None], dtype=object), [[1, 2], None]),
    ((1, "a"), [1, "a"]),
])
def test_as_column_gives_python_values(values, expected):
    column = as_column(values, "c")
    assert type(column) is list
    assert json.dumps(column) == json.dumps(expected)  # NaN and ints compare as written
    assert all(type(v) is type(e) for v, e in zip(column, expected) if v is not None)


@pytest.mark.parametrize("bad", ["text", 5, {"a": 1}])
def test_a_column_that_is_not_a_sequence_is_refused_naming_it(bad):
    with pytest.raises(TypeError, match="column 'answer'"):
        Batch(["p"], ["c"], {"answer": bad})


def test_lengths_are_checked():
    with pytest.raises(ValueError, match="column 'answer' has 1 values, expected 2"):
        Batch(["p", "q"], ["c", "d"], {"answer": ["x"]})
    with pytest.raises(ValueError, match="2 prompts but 1 completions"):
        Batch(["p", "q"], ["c"])
    with pytest.raises(ValueError, match="1 group ids but 2 completions"):
        Batch(None, ["c", "d"], groups=[0])


# ------------------------------------------------------------------ the failure policy
class RaisesIn(RolloutReward):
    """Raises ``error`` on rollouts whose completion contains 'boom'."""

    type_name = "raises_in_rollout"

    def __init__(self, name=None, weight=1.0, error: str = "KeyError"):
        super().__init__(name, weight)
        self.error = error

    def score_rollout(self, completion, row):
        if "boom" in completion:
            raise {"KeyError": KeyError, "TypeError": TypeError, "ValueError": ValueError, "RecursionError": RecursionError,
                   "MemoryError": MemoryError}[self.error]("bad rollout")
        return Scored(1.0)


class ReturnsJunk(Reward):
    type_name = "returns_junk"

    def evaluate(self, prompts, completions, **columns):
        return RewardOutput([1.0, math.inf, "x", None][: len(completions)], ["", "", "", "n/a"][: len(completions)])


ERRORS = ["KeyError", "TypeError", "ValueError", "RecursionError", "MemoryError"]


@pytest.mark.parametrize("error", ERRORS)
def test_every_exception_type_fails_only_its_rollout_under_nan_and_stops_under_raise(error):
    rewards = RewardSet([RaisesIn(name="r", error=error)])
    batch = Batch(None, ["fine", "boom", "fine"])
    scored = Scorer(rewards).score(batch)
    assert scored.scores[:, 0].tolist()[::2] == [1.0, 1.0] and math.isnan(scored.scores[1, 0])
    assert scored.failures == {"r": 1} and scored.failed[:, 0].tolist() == [False, True, False]
    assert scored.reasons["r"][1].startswith(f"error: {error}: ")
    with pytest.raises(RewardError, match=rf"reward 'r' failed on 1 of 3 rollouts \(on_reward_error: raise\); first: error: {error}"):
        Scorer(rewards, on_reward_error="raise").score(batch)


def test_non_finite_and_non_numeric_scores_are_failures_and_none_is_not():
    scored = Scorer(RewardSet([ReturnsJunk(name="j")])).score(Batch(None, ["a", "b", "c", "d"]))
    assert scored.failures == {"j": 2} and scored.failed[:, 0].tolist() == [False, True, True, False]
    assert scored.reasons["j"] == ["", "error: non-finite score", "error: non-numeric score 'x'", "n/a"]
    with pytest.raises(ValueError, match="on_reward_error must be one of nan, raise"):
        Scorer(RewardSet([ReturnsJunk()]), on_reward_error="zero").score(Batch(None, ["a"]))


def test_missing_columns_are_checked_before_any_reward_runs():
    calls = []

    class Counting(RolloutReward):
        def score_rollout(self, completion, row):
            calls.append(completion)
            return Scored(1.0)

    rewards = RewardSet([Counting(name="first"), registry.reward_class("choice_accuracy")(name="choice")])
    with pytest.raises(MissingColumnError, match="reward 'choice' reads column 'answer', which the data does not have"):
        Scorer(rewards).score(Batch(None, ["x"]))
    assert calls == []


def test_a_combiner_needs_group_ids_and_gets_them():
    rewards = RewardSet([RaisesIn(name="r")])
    with pytest.raises(ValueError, match="needs the batch's group ids"):
        Scorer(rewards, combiner=build_combiner("grpo")).score(Batch(None, ["a", "b"]))
    scored = Scorer(rewards, combiner=build_combiner("grpo")).score(Batch(None, ["a", "boom", "a", "a"], groups=[[1], [1], {"g": 2}, {"g": 2}]))
    assert scored.advantages.tolist() == [0.0, 0.0, 0.0, 0.0]  # list / dict ids group; a failed row gets 0


# ------------------------------------------------------------------ one implementation each
@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(math.nan)), min_size=3, max_size=3), min_size=1, max_size=9),
       st.lists(st.floats(-3, 3), min_size=3, max_size=3))
def test_weighted_total_is_the_nansum_of_applicable_rewards(rows, weights):
    scores = np.array(rows, dtype=np.float64)
    total = weighted_total(scores, np.array(weights))
    for i, row in enumerate(rows):
        applicable = [w * v for v, w in zip(row, weights) if not math.isnan(v)]
        if applicable:
            assert total[i] == pytest.approx(math.fsum(applicable), rel=1e-9, abs=1e-6)
        else:
            assert math.isnan(total[i])


@pytest.mark.parametrize("items, expected", [
    (["eps=1e-6", "variant=verl"], {"eps": 1e-6, "variant": "verl"}),
    (["scale=batch", "x=[1, 2]", "flag=true", "word=yes", "empty="], {"scale": "batch", "x": [1, 2], "flag": True, "word": "yes", "empty": None}),
    (["a = 3"], {"a": 3}),
])
def test_parse_key_values(items, expected):
    assert parse_key_values(items) == expected


@pytest.mark.parametrize("item, message", [("varient", "expected KEY=VALUE"), ("=3", "expected KEY=VALUE"), ("x=[1", "not valid YAML")])
def test_parse_key_values_errors_name_the_flag_and_item(item, message):
    with pytest.raises(ConfigError, match=rf"--param '{item}'.*{message}" if "[" not in item else message):
        parse_key_values([item])


@pytest.mark.parametrize("spec, params, message", [
    ("nosuch", {}, "unknown combiner type 'nosuch'"), ({"eps": 1}, {}, "needs a 'type' key"),
    ("grpo", {"varient": "x"}, r"combiner \(grpo\): unknown key\(s\) \['varient'\]"), ("grpo", {"scale": "x"}, r"combiner \(grpo\): scale"),
])
def test_build_combiner_errors_are_config_errors(spec, params, message):
    with pytest.raises(ConfigError, match=message):
        build_combiner(spec, **params)


def test_build_combiner_forms_agree():
    a = build_combiner("gdpo", variant="nvlabs")
    b = build_combiner({"type": "gdpo", "variant": "nvlabs"})
    assert a.none_policy == b.none_policy == "zero" and build_combiner(a) is a


# ------------------------------------------------------------------ rank combiners and the constant rule
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@pytest.mark.parametrize("spec", [{"type": "gopo", "ties": "average"}, "g2rpo", {"type": "g2rpo", "mapping": "w2"}])
def test_rank_combiners_tie_values_the_constant_rule_calls_equal(spec):
    """0.1 + 0.7 and 0.3 + 0.5 differ by one ulp: one constant group for every combiner, so no rank spread."""
    from polyreward.combiners import advantages, is_constant

    scores = np.array([[0.1, 0.7], [0.3, 0.5], [0.0, 0.0], [1.0, 0.0]])
    assert 0.1 + 0.7 != 0.3 + 0.5 and is_constant(np.array([0.1 + 0.7, 0.3 + 0.5]))
    got = advantages(scores, [0, 0, 1, 1], [1.0, 1.0], spec)
    assert got[:2].tolist() == [0.0, 0.0] and got[2] < 0 < got[3]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=8), st.integers(0, 3))
def test_gopo_and_g2rpo_ignore_float_noise(values, ulps):
    """Moving every value by a few ulps never changes GOPO's or G²RPO's advantages (ties stay ties, order stays order)."""
    from polyreward.combiners import advantages

    base = np.array(values)
    noisy = base.copy()
    for _ in range(ulps):
        noisy = np.nextafter(noisy, np.inf)
    groups = [0] * len(values)
    for spec in ({"type": "gopo", "ties": "average"}, "g2rpo"):
        np.testing.assert_allclose(advantages(noisy[:, None], groups, None, spec), advantages(base[:, None], groups, None, spec),
                                   rtol=0, atol=1e-12)


def test_file_chunks_keep_one_group_together_whatever_its_ids_spelling():
    """polyreward score cuts chunks between groups by the one group key: 1, 1.0 and "1" stay in one chunk."""
    from polyreward.runners.chunking import group_aligned

    rows = [{"qid": q} for q in (0, 0, 1, 1.0, "1", 1, 2, 3)]
    chunks = list(group_aligned(iter([rows[:3], rows[3:5], rows[5:7], rows[7:]]), "qid"))  # the last chunk is never cut
    assert [[r["qid"] for r in chunk] for chunk in chunks] == [[0, 0], [1, 1.0, "1", 1], [2, 3]]
