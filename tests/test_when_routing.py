"""``rewards[].when``: one config routes each row of a mixed batch to the rewards of its data source.

The claim, made precise: a batch mixing math, MedQA and HealthBench-style rubric rows, scored by ONE config whose
rewards carry ``when: {source: ...}``, gets exactly the score matrix obtained by scoring each source on its own
with only its rewards (the cells of the other sources' rewards None / NaN, reason "not applicable"), and its GDPO
advantages equal GDPO on that assembled matrix. Rows of the example files in examples/ (real rollouts).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.combiners.gdpo import GDPOCombiner
from polyreward.config import ConfigError, parse_config
from polyreward.pipeline import MissingColumnError, combine_scores
from polyreward.schema import Batch

EXAMPLES = Path(__file__).parent.parent / "examples"
RUBRIC = str(EXAMPLES / "rubric" / "rubric.json")
REWARDS = {
    "math": {"name": "math", "type": "math_accuracy", "answer_column": "answer"},
    "medqa": {"name": "choice", "type": "choice_accuracy", "answer_column": "answer", "options_column": "options"},
    "healthbench": {"name": "rubric", "type": "rubric", "rubric_file": RUBRIC, "judge": {"type": "rules"}},
}
FORMAT = {"name": "format", "type": "think_format", "weight": 0.2}  # no `when`: every row


def _rows(source: str, groups: int) -> list[dict]:
    path = EXAMPLES / ("rubric" if source == "healthbench" else source) / "rollouts.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    keep = list(dict.fromkeys(r["prompt_id"] for r in rows))[:groups]
    return [{**r, "source": source} for r in rows if r["prompt_id"] in keep]


def _mixed() -> list[dict]:
    """Whole groups of the three sources, interleaved group by group (math, medqa, healthbench, math, ...)."""
    by_source = {s: _rows(s, 3) for s in REWARDS}
    rows = []
    for i in range(3):
        for source, source_rows in by_source.items():
            ids = list(dict.fromkeys(r["prompt_id"] for r in source_rows))
            if i < len(ids):
                rows += [r for r in source_rows if r["prompt_id"] == ids[i]]
    return rows


def _config(rewards: list[dict], combiner: str | None = None):
    return parse_config({"engine": {"workers": 0}, "rewards": rewards, **({"combiner": combiner} if combiner else {})})


def test_one_config_with_when_equals_each_source_scored_alone_then_gdpo():
    rows = _mixed()
    sources = [r["source"] for r in rows]
    assert set(sources) == set(REWARDS) and len(rows) > 20
    routed = [{**entry, "when": {"source": source}} for source, entry in REWARDS.items()] + [FORMAT]
    config = _config(routed, "gdpo")
    batch = Batch.from_records(rows, config.column_map)
    scored = config.build_scorer().score(batch)
    assert scored.names == ["math", "choice", "rubric", "format"]

    expected = np.full((len(rows), 4), np.nan)
    for k, (source, entry) in enumerate(REWARDS.items()):
        picked = [i for i, s in enumerate(sources) if s == source]
        alone_config = _config([entry, FORMAT])
        alone = alone_config.build_scorer().score(Batch.from_records([rows[i] for i in picked], alone_config.column_map))
        expected[picked, k] = alone.scores[:, 0]
        expected[picked, 3] = alone.scores[:, 1]
        assert [scored.reasons[entry["name"]][i] for i in picked] == alone.reasons[entry["name"]]
        others = [i for i, s in enumerate(sources) if s != source]
        assert all(scored.reasons[entry["name"]][i] == "not applicable" for i in others)
    np.testing.assert_array_equal(scored.scores, expected)  # NaN exactly where a reward does not apply
    assert not np.isnan(expected[:, 3]).any() and np.isfinite(expected[:, :3]).sum(axis=1).tolist() == [1] * len(rows)
    assert sum(scored.failures.values()) == 0

    weights = np.array([1.0, 1.0, 1.0, 0.2])
    gdpo = combine_scores(GDPOCombiner(), expected, batch.groups, weights)
    np.testing.assert_allclose(scored.advantages, gdpo, rtol=0, atol=1e-12)
    assert np.abs(scored.advantages).sum() > 0  # some group has spread: the test is not vacuous


def test_values_are_compared_as_text_and_lists_accept_several():
    config = _config([{"name": "yes", "type": "think_format", "when": {"level": [1, "2"], "lang": "en"}}])
    completions = ["<think>a</think>b"] * 5
    columns = {"level": [1, "1", 2, 3, None], "lang": ["en", "en", "en", "en", "en"]}
    scored = config.build_scorer().score(Batch([None] * 5, completions, columns))
    assert np.isfinite(scored.scores[:, 0]).tolist() == [True, True, True, False, False]
    assert scored.reasons["yes"][3:] == ["not applicable"] * 2


def test_rows_none_applies_to_score_none_and_the_rule_column_must_exist():
    config = _config([{"name": "f", "type": "think_format", "when": {"source": "math"}}])
    scored = config.build_scorer().score(Batch([None, None], ["x", "y"], {"source": ["medqa", "medqa"]}))
    assert np.isnan(scored.scores).all() and np.isnan(scored.total).all()
    with pytest.raises(MissingColumnError, match=r"reward 'f' reads column 'source'.*rewards f: when"):
        config.build_scorer().score(Batch([None], ["x"], {}))


@pytest.mark.parametrize("when, message", [
    ({}, "rewards[0].when: Value error, when needs at least one COLUMN: VALUE | [VALUES]"),
    ({"source": []}, "when.source must be a value or a non-empty list of values"),
    ({"source": {"a": 1}}, "when.source must be a value or a non-empty list of values"),
    ("math", "rewards[0].when: Input should be a valid dictionary"),
])
def test_bad_rules_are_config_errors(when, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]").replace("|", r"\|")):
        _config([{"name": "f", "type": "think_format", "when": when}])


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(["math", "medqa", 3, "3", None, True, "ünï", ""]), min_size=1, max_size=13),
       st.lists(st.sampled_from(["math", "medqa", 3, "True", "ünï", ""]), min_size=1, max_size=3))
def test_a_rule_scores_exactly_the_rows_whose_value_reads_as_one_of_its_values(sources, accepted):
    config = _config([{"name": "f", "type": "think_format", "when": {"source": accepted}}])
    completions = ["<think>x</think>y"] * len(sources)
    scored = config.build_scorer().score(Batch([None] * len(sources), completions, {"source": sources}))
    expected = [s is not None and str(s) in {str(a) for a in accepted} for s in sources]
    assert np.isfinite(scored.scores[:, 0]).tolist() == expected
    assert [r == "not applicable" for r in scored.reasons["f"]] == [not e for e in expected]
