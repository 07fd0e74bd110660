"""Adding a reward or a combiner is one file plus one registration line (docs/extending.md).

A toy reward and a toy combiner are written to a temporary module that registers each with one decorator line; with
no other edit they are listed by ``polyreward list`` (table and ``--json``), validated in a config (a bad parameter is
one line naming it), scored end to end, written into the generated docs, and put through the same machinery the
shared tests run over every built-in type: the combiner property tests (bound, zeros, permutations, shifts), the
shared combiner semantics and float-range checks, the reward fuzz test and the container test. A toy whose declared
bound is wrong is caught by that machinery, so the checks have teeth.
"""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
import uuid
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_combiner_magnitudes as magnitudes
import test_combiners_properties as properties
import test_combiners_semantics as semantics
import test_fuzz_rewards as fuzz
import test_pipeline as pipeline
from combiner_batches import RewardBatch, batch_sequences, reward_batches
from polyreward import registry
from polyreward.cli import main
from polyreward.config import ConfigError, parse_config

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import gen_reference_docs  # noqa: E402

# The shared test modules are imported above, before any toy is registered, as pytest imports them at collection:
# the tables they build at import (every registered type) hold the shipped types only.

TOY_MODULE = '''
"""A plug-in: one reward and one combiner, each registered by one line."""

import numpy as np

from polyreward.combiners import GroupedCombiner, group_moments, weighted_total
from polyreward.registry import register_combiner, register_reward
from polyreward.reward import RolloutReward, Scored


@register_reward
class KeywordReward(RolloutReward):
    """1 when the completion names the row's keyword at least ``min_count`` times, else 0.

    Args:
        case_sensitive: compare the keyword with the text as written (false: both lower-cased)
        min_count: how many times the keyword must appear
    """

    type_name = "toy_keyword"
    exactness = "reconstructed"
    description = "toy: 1 when the completion names the row's keyword"
    score_range = (0.0, 1.0)
    probe_strategies = ("junk_text",)
    example_cells = {"keyword": ("paris", "42", "", "Émile")}

    def __init__(self, name: str | None = None, weight: float = 1.0, case_sensitive: bool = False, min_count: int = 1):
        super().__init__(name, weight)
        if min_count < 1:
            raise ValueError(f"min_count must be >= 1, got {min_count}")
        self.case_sensitive = case_sensitive
        self.min_count = min_count

    @property
    def columns(self):
        return ("keyword",)

    def score_rollout(self, completion, row):
        keyword = str(row["keyword"] or "")
        if not keyword.strip():
            return Scored(None, "no keyword")
        text = completion if self.case_sensitive else completion.lower()
        found = text.count(keyword if self.case_sensitive else keyword.lower())
        return Scored(1.0 if found >= self.min_count else 0.0, f"{found} mention(s)")


@register_combiner
class CentredCombiner(GroupedCombiner):
    """A_i = scale · (r_i - mean of its group), r_i the weighted reward sum.

    Args:
        scale: multiplies every advantage
    """

    type_name = "toy_centred"
    exactness = "reconstructed"
    description = "toy: scaled deviation from the group mean"
    reward_scale = "equivariant"  # r - mean scales with the rewards: computed at a safe scale near 1e308
    example_params = ({}, {"scale": 0.5})
    exactness_note = "reconstructed (a toy)"
    summary = "scale · (r − mean_G)"
    key_parameters = "`scale` 1"
    bound_text = "scale · Δ"

    def __init__(self, scale: float = 1.0):
        if not scale > 0:
            raise ValueError(f"scale must be > 0, got {scale}")
        self.scale = float(scale)

    @classmethod
    def advantage_bound(cls, params, facts):
        return BOUND_FACTOR * params.get("scale", 1.0) * facts.range

    def _advantages(self, scores, index, weights):
        return self.scale * group_moments(weighted_total(scores, weights), index)[3]


BOUND_FACTOR = 1.0
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy plug-in, imported from a temporary folder into a registry that forgets it after the test."""
    monkeypatch.setitem(registry._runtime, "rewards", {})
    monkeypatch.setitem(registry._runtime, "combiners", {})
    name = f"toy_plugin_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(TOY_MODULE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(name)
    yield module
    sys.modules.pop(name, None)


def test_listed_by_the_registry_and_the_cli(toy, capsys):
    assert "toy_keyword" in registry.reward_types() and "toy_centred" in registry.combiner_types()
    assert main(["list", "--json", "--params"]) == 0
    data = json.loads(capsys.readouterr().out)
    reward = next(item for item in data["rewards"] if item["name"] == "toy_keyword")
    assert reward["source"] == "reconstructed" and reward["description"].startswith("toy:")
    assert [p["name"] for p in reward["parameters"]] == ["case_sensitive", "min_count"]
    combiner = next(item for item in data["combiners"] if item["name"] == "toy_centred")
    assert combiner["parameters"] == [{"name": "scale", "type": "float", "default": "1.0", "meaning": "multiplies every advantage"}]
    assert main(["list", "combiners"]) == 0
    assert "toy_centred" in capsys.readouterr().out


def test_a_config_naming_them_validates_and_scores(toy):
    config = parse_config({"rewards": [{"name": "kw", "type": "toy_keyword", "min_count": 1}],
                           "combiner": {"type": "toy_centred", "scale": 2.0}, "engine": {"workers": 0}})
    scorer = config.build_scorer()
    rows = [{"prompt": "p", "completion": c, "keyword": "paris", "prompt_id": g}
            for c, g in [("Paris.", 0), ("Lyon.", 0), ("paris", 1), ("paris!", 1)]]
    scored = scorer.score(scorer.batch(rows))
    assert scored.scores[:, 0].tolist() == [1.0, 0.0, 1.0, 1.0]
    assert scored.advantages.tolist() == [1.0, -1.0, 0.0, 0.0]  # 2 · (r - group mean)


@pytest.mark.parametrize("config, message", [
    ({"rewards": [{"name": "kw", "type": "toy_keyword", "min_count": "often"}]},
     r"rewards\[0\] \(kw, type toy_keyword\): min_count: Input should be a valid integer"),
    ({"rewards": [{"name": "kw", "type": "toy_keyword", "casesensitive": True}]}, r"unknown key\(s\) \['casesensitive'\]"),
    ({"rewards": [{"name": "kw", "type": "toy_keyword"}], "combiner": {"type": "toy_centred", "scale": "big"}},
     r"combiner \(toy_centred\): scale: Input should be a valid number"),
    ({"rewards": [{"name": "kw", "type": "toy_keyword"}], "combiner": {"type": "toy_centred", "scale": -1}},
     r"combiner \(toy_centred\): scale must be > 0, got -1"),
])
def test_bad_parameters_are_one_clear_error(toy, config, message):
    with pytest.raises(ConfigError, match=message) as caught:
        parse_config(config).build_scorer()
    assert "\n" not in str(caught.value)


def test_the_generated_docs_include_them(toy):
    rewards = {**registry.BUILTIN_REWARDS, "toy_keyword": registry.reward_class("toy_keyword")}
    page = gen_reference_docs.render("rewards", types=rewards)
    assert "## toy_keyword" in page and "| `min_count` | `int` | `1` | how many times the keyword must appear |" in page
    combiners = {**registry.BUILTIN_COMBINERS, "toy_centred": registry.combiner_class("toy_centred")}
    assert "| `toy_centred` | `CentredCombiner` | reconstructed (a toy) | scale · (r − mean_G) | `scale` 1 |" in \
        gen_reference_docs.combiner_methods(combiners)
    assert "| `toy_centred` | scale · Δ |" in gen_reference_docs.combiner_bounds(combiners)
    docs = gen_reference_docs.ROOT / "docs" / "combiners.md"
    filled = gen_reference_docs.fill_sections(docs, docs.read_text(encoding="utf-8"), combiners)
    assert "`toy_centred`" in filled and filled.count("<!-- generated:") == 2


SETTINGS = settings(max_examples=15, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def test_the_combiner_property_machinery_runs_over_it(toy):
    @SETTINGS
    @given(batches=batch_sequences(), raw=reward_batches(), seed=st.integers(0, 2**16), data=st.data())
    def check(batches, raw, seed, data):
        properties.check_over_batches("toy_centred", batches, seed)
        properties.check_shift("toy_centred", raw, seed, 0.37)
        magnitudes.check_extremes("toy_centred", data)

    check()
    for shared in (semantics.test_nan_cells_are_excluded_and_all_nan_rows_get_zero, semantics.test_single_rollout_groups,
                   semantics.test_zero_variance_groups, semantics.test_inf_is_a_clear_error,
                   semantics.test_weights_length_mismatch_is_a_clear_error, semantics.test_hashable_ids_in_any_order,
                   semantics.test_numpy_in_numpy_out_and_1d_scores, magnitudes.test_an_empty_batch_gives_an_empty_array,
                   magnitudes.test_every_reward_missing_gives_zero):
        shared("toy_centred")


def test_a_wrong_declared_bound_is_caught(toy, monkeypatch):
    batch = RewardBatch(np.array([[0.0], [1.0], [0.0], [3.0]]), np.array([0, 0, 1, 1]), np.array([1.0]),
                        np.zeros(4, dtype=bool))
    properties.check_over_batches("toy_centred", [batch], 0)  # the true bound holds
    monkeypatch.setattr(toy, "BOUND_FACTOR", 0.4)  # |A| = Δ/2 exceeds 0.4 Δ
    with pytest.raises(AssertionError, match="above the documented bound"):
        properties.check_over_batches("toy_centred", [batch], 0)
    monkeypatch.delattr(toy.CentredCombiner, "advantage_bound")  # the base class: every combiner must state one
    with pytest.raises(pytest.fail.Exception, match="toy_centred states no bound on \\|A\\|: define advantage_bound"):
        properties.check_over_batches("toy_centred", [batch], 0)


def test_the_reward_fuzz_and_container_machinery_runs_over_it(toy):
    reward = fuzz._build("toy_keyword", url="")

    @SETTINGS
    @given(data=st.data(), n=st.integers(min_value=1, max_value=7))
    def check(data, n):
        prompts = data.draw(st.lists(fuzz.prompts, min_size=n, max_size=n))
        completions = data.draw(st.lists(fuzz.completions, min_size=n, max_size=n))
        columns = {name: data.draw(st.lists(fuzz._column(name, reward), min_size=n, max_size=n))
                   for name in tuple(reward.columns) + tuple(reward.optional_columns)}
        fuzz._check(reward, reward.evaluate(prompts, completions, **columns), n)

    check()
    pipeline.test_every_column_type_gives_the_list_result_for_every_reward("toy_keyword", "")
