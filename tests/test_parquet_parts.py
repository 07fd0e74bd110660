"""A Parquet output written in parts reads as the same file written at once, whatever the chunk size: a column whose
values change type between chunks (ints in one, text in another) used to raise pyarrow's ArrowTypeError at the end
of the run; it is now stored as JSON text in every part, as a single-chunk run stores a mixed column."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward.config import Config
from polyreward.runners.score_file import score_file

CONFIG = {"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"},
          "rewards": [{"name": "format", "type": "think_format"}], "combiner": "grpo"}

scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                   st.text(max_size=5), st.lists(st.one_of(st.integers(0, 9), st.floats(0, 1)), max_size=3),
                   st.dictionaries(st.sampled_from("ab"), st.one_of(st.integers(0, 9), st.text(max_size=2)), max_size=2))


def _write(tmp_path, metas):
    path = tmp_path / "rows.jsonl"
    rows = [{"prompt": f"p{i // 2}", "completion": "<think>one two three</think> \\boxed{1}", "prompt_id": i // 2,
             "meta": meta} for i, meta in enumerate(metas)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _scored(tmp_path, path, chunk_size, name):
    out = tmp_path / name
    score_file(path, out, Config.model_validate(CONFIG), chunk_size=chunk_size)
    return pq.read_table(out)


def test_a_column_that_changes_type_between_chunks_is_text_like_a_single_chunk(tmp_path):
    path = _write(tmp_path, [0, 1, 2, "s3", "s4", "s5"])
    whole = _scored(tmp_path, path, 1000, "whole.parquet")
    parts = _scored(tmp_path, path, 2, "parts.parquet")
    assert parts.equals(whole)
    assert parts.column("meta").to_pylist() == ["0", "1", "2", '"s3"', '"s4"', '"s5"']


def test_an_empty_object_column_is_written_as_text(tmp_path):
    """Parquet has no struct without fields: a column of ``{}`` (at any depth) is JSON text, not a crash."""
    path = _write(tmp_path, [{}, {}, [{}], None])
    table = _scored(tmp_path, path, 2, "parts.parquet")
    assert table.column("meta").to_pylist() == ["{}", "{}", "[{}]", None]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(metas=st.lists(scalar, min_size=1, max_size=9), chunk_size=st.integers(1, 4))
def test_parquet_output_does_not_depend_on_the_chunk_size(tmp_path_factory, metas, chunk_size):
    tmp_path = tmp_path_factory.mktemp("pq")
    path = _write(tmp_path, metas)
    whole = _scored(tmp_path, path, 1000, "whole.parquet")
    parts = _scored(tmp_path, path, chunk_size, "parts.parquet")
    assert parts.schema.field("meta").type == whole.schema.field("meta").type
    assert parts.column("meta").to_pylist() == whole.column("meta").to_pylist()
