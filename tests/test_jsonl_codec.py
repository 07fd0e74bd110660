"""The fast JSON Lines reader and writer of polyreward.io give exactly what the stdlib path gave.

Reading: :func:`polyreward.io._parse_line` (orjson where it reads a line the same, json otherwise) against
``json.loads(raw.decode("utf-8"))``: the same value (types, key order, -0.0, NaN, ints past 64 bits) or the same
exception and message. Writing: :func:`polyreward.io.encode_rows` against the former per-row
``json.dumps(_clean(dict(row)), ensure_ascii=False, default=str)``, byte for byte.
"""

from __future__ import annotations

import json
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import re

from polyreward.io import _clean, _long_digits, _parse_line, encode_rows

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # Cs: lone surrogates have no UTF-8
NUMBERS = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.integers(min_value=2**63 - 3, max_value=2**64 + 3),
    st.integers(min_value=-(2**63) - 3, max_value=-(2**63) + 3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-300, max_value=1e-300),
    st.sampled_from([0.0, -0.0, 5e-324, 1.7976931348623157e308, 1e16, 1e-7, 0.1, 2.0**53, 2.0**53 + 2]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(TEXT, inner, max_size=4)), max_leaves=12)
ROWS = st.dictionaries(TEXT, VALUES, max_size=6)


def outcome(function, raw: bytes) -> str:
    """repr of the value (types, key order, -0.0, nan) or the exception's type and message."""
    try:
        return repr(function(raw))
    except Exception as exc:  # noqa: BLE001 -- compared, not hidden
        return f"{type(exc).__name__}: {exc}"


def reference_read(raw: bytes):
    return json.loads(raw.decode("utf-8"))


def reference_write(rows) -> bytes:
    return "".join(json.dumps(_clean(dict(r)), ensure_ascii=False, default=str) + "\n" for r in rows).encode("utf-8")


@settings(max_examples=400, deadline=None)
@given(ROWS, st.booleans())
def test_a_line_reads_as_json_reads_it(row, ascii_only):
    raw = json.dumps(row, ensure_ascii=ascii_only).encode("utf-8")
    assert outcome(_parse_line, raw) == outcome(reference_read, raw)


@settings(max_examples=400, deadline=None)
@given(st.from_regex(r"\A-?(0|[1-9][0-9]{0,24})(\.[0-9]{1,25})?([eE][+-]?[0-9]{1,3})?\Z"))
def test_number_text_reads_to_the_same_number(number):
    raw = b'{"n": ' + number.encode() + b"}"
    assert outcome(_parse_line, raw) == outcome(reference_read, raw)


def test_what_orjson_refuses_or_reads_otherwise_goes_the_json_way():
    lines = [b'{"a": NaN}', b'{"a": Infinity, "b": -Infinity}', b'{"a": 1E400}', b'{"a": "\\ud800 lone"}',
             b'{"a": "\\udfff"}', b'{"a": 18446744073709551616}', b'{"a": -9223372036854775809}', b'{"a": 12345678901234567890123}',
             b'{"a": "\xed\xa0\x80"}', b'{"a": "\xff"}', b'{"a": 1, "b": 2, "a": 3}', b'[1, 2]', b'"text"', b'null', b'{"a": 01}',
             b'{"a": 1} trailing', b'{"a": "\t"}', b'  {"a": -0}  \r\n', b'{"a": -0.0}', b'{"a": "x"}\x00', b"[" * 2000 + b"]" * 2000,
             b'{"a": ' + b"[" * 1500 + b"]" * 1500 + b"}", b'{"\\u00e9": "\\ud83d\\ude00"}', b""]
    for raw in lines:
        assert outcome(_parse_line, raw) == outcome(reference_read, raw), raw[:60]
    assert type(_parse_line(b'{"a": 18446744073709551616}')["a"]) is int  # never a float for an int past 64 bits


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=80) | st.text("0123456789a\"-.e", max_size=60).map(str.encode))
def test_a_run_of_nineteen_digits_is_found_as_the_regex_finds_it(raw):
    assert _long_digits(raw) == (re.search(rb"[0-9]{19}", raw) is not None)


class Odd:
    def __str__(self) -> str:
        return "odd-value"


@settings(max_examples=400, deadline=None)
@given(st.lists(ROWS, max_size=5))
def test_rows_are_written_byte_for_byte_as_before(rows):
    assert encode_rows(rows, "jsonl") == reference_write(rows)


def test_values_json_cannot_write_itself_are_written_as_before():
    rows = [
        {"nan": math.nan, "inf": [math.inf, -math.inf], "np": np.float64(1.5), "npnan": np.float64("nan"),
         "i64": np.int64(7), "f32": np.float32(0.1), "arr": np.array([1.0, np.nan]), "tuple": (1, "a"),
         "set": {1}, "bytes": b"x\x00", "odd": Odd(), "nested": {"deep": [{"x": math.nan}], 3: "int key", 2.5: None}},
        {"float key nan": {math.nan: 1}, "bool": True, "none": None, "big": 2**100, "text": "é\u2028\x00\"\\"},
        {"mapping": __import__("types").MappingProxyType({"a": np.int32(1)})},
    ]
    for row in rows:
        assert encode_rows([row], "jsonl") == reference_write([row])
    cyclic: dict = {}
    cyclic["self"] = cyclic  # refused alike (RecursionError in the value cleaning, as before)
    assert outcome(lambda rows: encode_rows(rows, "jsonl"), [cyclic]).split(":")[0] == outcome(reference_write, [cyclic]).split(":")[0]
