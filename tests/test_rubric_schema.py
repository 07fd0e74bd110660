"""Rubric items in HealthBench format: parsing, validation errors that say where, file formats, round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polyreward.rubrics.schema import (
    RubricError,
    RubricItem,
    load_rubric_file,
    parse_item,
    parse_rubric,
    read_healthbench,
    rubric_to_json,
    write_healthbench,
)

EXAMPLE = Path(__file__).parent.parent / "examples" / "rubric" / "rubric.json"

# A row in the exact shape of HealthBench's oss_eval JSONL (values shortened).
HEALTHBENCH_ROW = {
    "prompt": [{"role": "user", "content": "My 2 year old has a fever of 39.5C. What should I do?"}],
    "completion": "",
    "rubrics": [
        {"criterion": "Advises seeking care if the child is lethargic or has trouble breathing.", "points": 9, "tags": ["level:example", "axis:completeness"]},
        {"criterion": "Recommends aspirin for the child.", "points": -10, "tags": ["level:example", "axis:accuracy"]},
        {"criterion": "Response is concise.", "points": 2.5, "tags": ["level:cluster", "axis:communication_quality"]},
    ],
    "example_tags": ["theme:emergency_referrals"],
    "prompt_id": "1f548d5b-cd00-49a0-b327-283a2e00debd",
    "ideal_completions_data": None,
}


def test_item_str_and_axes_follow_healthbench():
    item = parse_item({"criterion": "Mentions hydration", "points": 5, "tags": ["axis:accuracy", "level:example"]})
    assert str(item) == "[5] Mentions hydration"
    assert str(RubricItem("Is rude", -2.5)) == "[-2.5] Is rude"
    assert item.axes == ("accuracy",)
    assert item.to_dict() == {"criterion": "Mentions hydration", "points": 5, "tags": ["axis:accuracy", "level:example"]}


@pytest.mark.parametrize(
    "data, message",
    [
        ("just text", "item: a rubric item must be a mapping"),
        ({"points": 3}, "item.criterion: must be a non-empty string"),
        ({"criterion": "  ", "points": 3}, "item.criterion: must be a non-empty string"),
        ({"criterion": "x"}, "item.points: missing"),
        ({"criterion": "x", "points": "5"}, "item.points: must be a finite number, got '5'"),
        ({"criterion": "x", "points": True}, "item.points: must be a finite number"),
        ({"criterion": "x", "points": float("nan")}, "item.points: must be a finite number"),
        ({"criterion": "x", "points": 1, "tags": "axis:accuracy"}, "item.tags: must be a list of strings"),
        ({"criterion": "x", "points": 1, "tags": [1]}, "item.tags: must be a list of strings"),
        ({"criterion": "x", "points": 1, "weight": 2}, "item: unknown key(s) ['weight']; allowed: criterion, points, tags, rule"),
        ({"criterion": "x", "points": 1, "rule": {"contain": "a"}}, "item.rule: unknown key(s) ['contain']"),
        ({"criterion": "x", "points": 1, "rule": {"regex": "(unclosed"}}, "item.rule: regex: invalid regular expression '(unclosed'"),
    ],
)
def test_item_validation_names_the_key(data, message):
    with pytest.raises(RubricError) as info:
        parse_item(data)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "value, count",
    [
        ([{"criterion": "a", "points": 1}], 1),
        (json.dumps([{"criterion": "a", "points": 1}, {"criterion": "b", "points": -1}]), 2),  # a CSV/parquet cell
        ({"rubrics": [{"criterion": "a", "points": 1}]}, 1),  # a HealthBench row
        ((RubricItem("a", 1.0), RubricItem("b", 2.0)), 2),
    ],
)
def test_parse_rubric_accepts_cell_shapes(value, count):
    assert len(parse_rubric(value)) == count


@pytest.mark.parametrize(
    "value, message",
    [
        ([], "rubric: the rubric is empty"),
        ("[{", "rubric: not valid JSON"),
        ({"items": []}, "rubric: a mapping must hold a 'rubrics' list"),
        (5, "rubric: must be a list of rubric items, got int"),
        ([{"criterion": "a", "points": 1}, {"criterion": "b"}], "rubric[1].points: missing"),
    ],
)
def test_parse_rubric_errors(value, message):
    with pytest.raises(RubricError) as info:
        parse_rubric(value)
    assert message in str(info.value)


def test_example_rubric_loads_with_rules():
    items = load_rubric_file(EXAMPLE)
    assert len(items) == 13
    assert sum(i.points for i in items if i.points > 0) == 39
    assert all(i.rule is not None for i in items)
    assert {a for i in items for a in i.axes} == {"accuracy", "completeness", "communication_quality", "context_awareness"}


def test_rubric_file_formats_agree(tmp_path):
    items = load_rubric_file(EXAMPLE)
    as_json = rubric_to_json(items)
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(d) + "\n" for d in as_json) + "\n")
    (tmp_path / "r.yaml").write_text(__import__("yaml").safe_dump({"rubrics": as_json}))
    (tmp_path / "r.json").write_text(json.dumps(as_json))
    for name in ("r.jsonl", "r.yaml", "r.json"):
        loaded = load_rubric_file(tmp_path / name)
        assert loaded == items
        assert [i.rule for i in loaded] == [i.rule for i in items]


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("bad.jsonl", '{"criterion": "a", "points": 1}\n\n{"criterion": "b", "points": 1, "tags": "x"}\n', "bad.jsonl line 3.tags: must be a list of strings"),
        ("bad.jsonl", '{"criterion": "a", "points": 1}\n{oops\n', "bad.jsonl line 2: invalid JSON"),
        ("bad.json", '[{"criterion": "a", "points": 1}, {"criterion": "b", "pts": 1}]', "bad.json[1]: unknown key(s) ['pts']"),
        ("bad.yaml", "rubrics:\n  - criterion: a\n    points: [1\n", "bad.yaml line"),
        ("bad.yaml", "- criterion: a\n  points: one\n", "bad.yaml[0].points: must be a finite number"),
        ("empty.jsonl", "\n", "empty.jsonl: the rubric is empty"),
        ("bad.txt", "x", "unknown rubric file type .txt; allowed: .json, .jsonl, .yaml, .yml"),
    ],
)
def test_rubric_file_errors_name_file_line_and_key(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RubricError) as info:
        load_rubric_file(path)
    assert message in str(info.value)


def test_missing_rubric_file_is_a_clear_error(tmp_path):
    with pytest.raises(RubricError, match="cannot read rubric file .*nope.json"):
        load_rubric_file(tmp_path / "nope.json")


def test_healthbench_jsonl_round_trip(tmp_path):
    source = tmp_path / "hb.jsonl"
    second = dict(HEALTHBENCH_ROW, prompt_id="2", rubrics=HEALTHBENCH_ROW["rubrics"][:1])
    source.write_text(json.dumps(HEALTHBENCH_ROW) + "\n" + json.dumps(second) + "\n")
    rows = read_healthbench(source)
    assert [len(r["rubrics"]) for r in rows] == [3, 1]
    assert rows[0]["rubrics"][1] == RubricItem("Recommends aspirin for the child.", -10.0, ("level:example", "axis:accuracy"))
    assert rows[0]["example_tags"] == ["theme:emergency_referrals"]
    out = tmp_path / "out.jsonl"
    write_healthbench(out, rows)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert written[0] == HEALTHBENCH_ROW  # points stay ints where they were ints, 2.5 stays 2.5
    assert written[1] == second


def test_healthbench_reader_names_the_line(tmp_path):
    source = tmp_path / "hb.jsonl"
    source.write_text(json.dumps(HEALTHBENCH_ROW) + "\n" + json.dumps({"prompt": []}) + "\n")
    with pytest.raises(RubricError, match=r"hb.jsonl line 2: missing key 'rubrics'"):
        read_healthbench(source)
    source.write_text(json.dumps(dict(HEALTHBENCH_ROW, rubrics=[{"criterion": "a", "points": None}])) + "\n")
    with pytest.raises(RubricError, match=r"hb.jsonl line 1.rubrics\[0\].points: must be a finite number"):
        read_healthbench(source)


def test_parquet_cells_parse_back_to_the_same_items(tmp_path):
    """Parquet turns item lists into numpy arrays, tags into arrays, and rules into structs holding every
    key seen in the column (None where a row's rule lacks it)."""
    pd = pytest.importorskip("pandas")
    rubrics = [
        HEALTHBENCH_ROW["rubrics"],
        [{"criterion": "Says 911", "points": 5, "tags": ["axis:accuracy"], "rule": {"contains": "911"}},
         {"criterion": "Short", "points": 1, "tags": [], "rule": {"max_words": 50, "contains": "call"}}],
    ]
    pd.DataFrame({"rubrics": rubrics}).to_parquet(tmp_path / "r.parquet")
    cells = pd.read_parquet(tmp_path / "r.parquet")["rubrics"].tolist()
    assert type(cells[1]).__module__ == "numpy"
    assert [parse_rubric(cell) for cell in cells] == [parse_rubric(r) for r in rubrics]
    assert [dict(i.rule) for i in parse_rubric(cells[1])] == [{"contains": "911"}, {"max_words": 50, "contains": "call"}]
