""":func:`polyreward.io.encode_rows_with` (how ``polyreward score`` writes a part: each input row's own text with the
added columns' text put before its closing brace) writes byte for byte what building each output row and
encoding it with :func:`polyreward.io.encode_rows` writes: for any rows and added values, NaN and infinity (null),
clashing column names (the input's column keeps its place, the added value wins), a dropped ``advantage`` column,
empty rows, hostile text, nested and odd values."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.io import encode_rows, encode_rows_with

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=10)  # Cs: lone surrogates have no UTF-8
NAMES = st.sampled_from(["format", "reward", "format_reason", "advantage", "a", "é, \"x\": 1}", ""])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), TEXT,
                    st.sampled_from([-0.0, 5e-324, 1e16, 1e-7, 0.1, "}\n{", ", \"reward\": 1", "\u2028"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
                      max_leaves=6)
ROWS = st.dictionaries(st.one_of(TEXT, NAMES), VALUES, max_size=5)


def built(records, added, drop):
    """The rows the scorer built before: a copy of the input row, less ``drop``, updated with the added values."""
    rows = []
    for i, record in enumerate(records):
        row = dict(record)
        if drop is not None:
            row.pop(drop, None)
        row.update({name: values[i] for name, values in added.items()})
        rows.append(row)
    return rows


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(min_value=0, max_value=7), drop=st.sampled_from([None, "advantage"]),
       names=st.lists(NAMES, max_size=4, unique=True))
def test_same_bytes_as_building_and_encoding_the_rows(data, n, drop, names) -> None:
    records = data.draw(st.lists(ROWS, min_size=n, max_size=n))
    kinds = data.draw(st.lists(st.sampled_from(["score", "reason", "any"]), min_size=len(names), max_size=len(names)))
    score = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 1.0, 0.75]))
    reason = st.one_of(st.none(), TEXT)
    strategy = {"score": score, "reason": reason, "any": VALUES}
    added = {name: data.draw(st.lists(strategy[kind], min_size=n, max_size=n)) for name, kind in zip(names, kinds)}
    assert encode_rows_with(records, added, drop) == encode_rows(built(records, added, drop), "jsonl")


def test_typical_chunk_and_odd_values() -> None:
    records = [{"qid": i // 3, "prompt": f"q{i}", "completion": "<think>a, b: c</think> é"} for i in range(7)]
    records[2] = {}
    records[3] = {"x": math.nan}  # the fast encoder refuses NaN: written as null by the row path
    records[4] = {"format": "old", "qid": 1}  # a column the scores replace, in its place
    records[5] = {"advantage": 3.0, "qid": 2}
    added = {"format": [1.0, 0.0, math.nan, 1.0, math.inf, 0.5, -0.0], "reward": [1.0, 0.0, None, 1.0, None, 0.5, -0.0],
             "format_reason": [None, "no think block", None, "x\ny", None, "\u2028", ""],
             "format.sub": [np.float64(0.25), np.int64(3), {"k": [1, None]}, (1, 2), True, "s", 2**70]}
    for drop in (None, "advantage"):
        assert encode_rows_with(records, added, drop) == encode_rows(built(records, added, drop), "jsonl")
    clean = {name: values for name, values in added.items() if name in ("reward", "format_reason")}
    assert encode_rows_with(records, clean) == encode_rows(built(records, clean, None), "jsonl")
