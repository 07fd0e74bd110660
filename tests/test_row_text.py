""":func:`polyreward.runners.row_text.encode_output_rows` (how ``polyreward score`` writes a chunk's output rows: orjson's
text, respaced, where it is json's text) writes byte for byte what :func:`polyreward.io.encode_rows_with` writes, for
any rows: floats of every magnitude (where orjson's and json's texts differ), integers past 64 bits, lone surrogates,
NaN, strings that look like numbers, nested values, other types, clashing and dropped columns."""

from __future__ import annotations

import datetime
import enum
import math
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.io import encode_rows_with
from polyreward.runners.row_text import _member_texts, _repeated_tails, encode_output_rows

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
NUMBER_TEXT = st.sampled_from(["1e5", "2E-7", "0.00001", "x0.0000y", "1e+16", "e", "0e", "\u2028", "}\n{", "\x00", "\\"])
FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(min_value=-1e-3, max_value=1e-3),
                   st.integers(min_value=0, max_value=2**64 - 1).map(lambda bits: struct.unpack("<d", struct.pack("<Q", bits))[0]),
                   st.sampled_from([-0.0, 5e-324, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.0001234, 1.5e-7, 0.1, 1e22]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), FLOATS, TEXT, NUMBER_TEXT)
NAMES = st.sampled_from(["format", "reward", "format_reason", "advantage", "qid", "completion", "é, \"x\": 1}"])
FLAT = st.dictionaries(st.one_of(TEXT, NAMES), SCALARS, min_size=1, max_size=6)
ODD = st.one_of(st.lists(SCALARS, max_size=2), st.dictionaries(TEXT, SCALARS, max_size=2), st.just(datetime.date(2026, 1, 2)))


def added_columns(data, names, n):
    score = st.one_of(st.none(), FLOATS, st.sampled_from([0.0, 1.0, 0.75]))
    reason = st.one_of(st.none(), TEXT, NUMBER_TEXT)
    return {name: data.draw(st.lists(st.one_of(score, reason), min_size=n, max_size=n)) for name in names}


@settings(max_examples=400, deadline=None)
@given(data=st.data(), n=st.integers(min_value=0, max_value=9), drop=st.sampled_from([None, "advantage"]),
       names=st.lists(NAMES, max_size=4, unique=True))
def test_flat_rows_same_bytes_as_the_c_encoder(data, n, drop, names) -> None:
    records = data.draw(st.lists(FLAT, min_size=n, max_size=n))
    added = added_columns(data, names, n)
    assert encode_output_rows(records, added, drop) == encode_rows_with(records, added, drop)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(min_value=1, max_value=6), names=st.lists(NAMES, max_size=3, unique=True))
def test_rows_with_odd_values_take_the_c_encoder_and_stay_identical(data, n, names) -> None:
    records = data.draw(st.lists(FLAT, min_size=n, max_size=n))
    at = data.draw(st.integers(min_value=0, max_value=n - 1))
    records[at] = {**records[at], "odd": data.draw(ODD)}
    added = added_columns(data, names, n)
    assert encode_output_rows(records, added) == encode_rows_with(records, added)


class Colour(enum.Enum):
    RED = 1


def test_typical_chunk_and_each_fallback() -> None:
    records = [{"qid": i // 4, "prompt": f"Question {i}: é", "completion": "<think>a, b: c</think>\n\\boxed{1}", "answer": "1"}
               for i in range(10)]
    added = {"format": [float(i % 2) for i in range(10)], "reward": [float(i % 2) for i in range(10)],
             "format_reason": ["ok" if i % 2 else "no think" for i in range(10)]}
    expected = encode_rows_with(records, added)
    assert encode_output_rows(records, added) == expected
    assert _member_texts(records, added, None) is not None  # the usual chunk is written by orjson
    assert _member_texts(records, {"qid": [0] * 10}, None) is None  # a clashing column: the row path places it
    assert expected.count(b"\n") == 10 and expected.startswith(b'{"qid": 0, "prompt": "Question 0: \xc3\xa9", ')
    for odd in (1e-05, 1e16, 2**64, -(2**63) - 1, math.nan, math.inf, Colour.RED, datetime.datetime(2026, 1, 2),
                True, None, [1, 2.5e-7], {"k": 1e300}, "1e5 and 0.00001"):
        changed = [dict(record) for record in records]
        changed[3]["temperature"] = odd
        assert encode_output_rows(changed, added) == encode_rows_with(changed, added), odd
    changed = [dict(record) for record in records]
    changed[3]["completion"] = "\ud800"  # a lone surrogate has no UTF-8: both refuse it alike
    with pytest.raises(UnicodeEncodeError):
        encode_rows_with(changed, added)
    with pytest.raises(UnicodeEncodeError):
        encode_output_rows(changed, added)
    assert encode_output_rows([], {}) == encode_rows_with([], {}) == b""
    assert encode_output_rows([{}, {"a": 1}], {"x": [1, 2]}) == encode_rows_with([{}, {"a": 1}], {"x": [1, 2]})
    assert encode_output_rows(records, {}) == encode_rows_with(records, {})
    nan_scores = {"format": [math.nan] * 10}  # an added NaN: the row path writes null
    assert encode_output_rows(records, nan_scores) == encode_rows_with(records, nan_scores)


REPEATED_SCORE = st.one_of(st.none(), st.sampled_from([0.0, -0.0, 1.0, 0.5, 1e-5, 1e16, 5e-324, math.nan, math.inf]), FLOATS)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(min_value=24, max_value=60), names=st.lists(NAMES, min_size=1, max_size=3, unique=True),
       pool_size=st.integers(min_value=1, max_value=3))
def test_repeated_added_values_written_once_stay_identical(data, n, names, pool_size) -> None:
    """A chunk whose added values repeat (a cheap reward's): each distinct row's text written once, the same bytes as
    the C encoder's for every row; 0.0 and -0.0, None and NaN, "1" and 1.0 never share a text."""
    records = [{"qid": i // 4, "completion": f"<think>{i}</think>", "answer": str(i)} for i in range(n)]
    kinds = {name: data.draw(st.sampled_from(["score", "reason"])) for name in names}
    pool = [{name: data.draw(REPEATED_SCORE if kinds[name] == "score" else st.one_of(st.none(), TEXT, NUMBER_TEXT))
             for name in names} for _ in range(pool_size)]
    picks = data.draw(st.lists(st.integers(min_value=0, max_value=pool_size - 1), min_size=n, max_size=n))
    added = {name: [pool[p][name] for p in picks] for name in names}
    assert encode_output_rows(records, added) == encode_rows_with(records, added)
    finite = all(v is None or isinstance(v, str) or math.isfinite(v) for values in added.values() for v in values)
    assert (_repeated_tails(added, n) is not None) == finite  # (at most 3 distinct rows in 24 or more: the path pays)


def test_repeated_tails_keep_signed_zeros_and_types_apart() -> None:
    records = [{"qid": 0}] * 16
    for added in ({"format": [0.0, -0.0] * 8}, {"format": [None, 0.0] * 8, "r": ["0.0", None] * 8},
                  {"format": [1.0] * 15 + [2.0]}):
        assert _repeated_tails(added, 16) is not None
        assert encode_output_rows(records, added) == encode_rows_with(records, added)
    assert _repeated_tails({"format": [float(i) for i in range(16)]}, 16) is None  # distinct values: the column texts
    assert _repeated_tails({"format": [1, 1.0] * 8}, 16) is None  # an int among the floats: the column texts
    assert _repeated_tails({"format": [math.nan] * 16}, 16) is None
    assert _repeated_tails({}, 16) is None
