"""The shortcuts of the reward server's request path and of the Ray backend's defaults keep what they replace.

- ``RewardClient`` encodes a shard with orjson only when the server reads the same values as from ``json.dumps``
  (plain JSON types, finite floats); anything else goes through ``json.dumps`` (hypothesis over hostile values:
  NaN, infinities, 65-bit integers, lone surrogates, tuples, int keys, numpy scalars, str subclasses);
- a slot skips the per-field length scan when the whole body is not longer than the cap: no field of a body can
  hold more characters than the body has bytes (hypothesis over rows of text, chat lists and nested values);
- the JSON depth check still refuses 65 levels and takes 64, for lists and objects;
- a Ray actor gets one engine process unless ``--workers``, the config's ``engine.workers`` or
  ``POLYREWARD_WORKERS`` say otherwise.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.config import parse_config
from polyreward.runners.client import encode_rows
from polyreward.runners.server_routes import RequestProblem, oversized, parse_body

pytest.importorskip("orjson")


class Label(str):
    pass


def same_value(a, b) -> bool:
    """Equal as JSON values, NaN equal to NaN (what the server's rows hold after parsing)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b


leaves = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(["\ud800", "a\udfffb", "é😀", "</s>", "\x00"]),
    st.builds(np.float64, st.floats(allow_nan=True)), st.builds(np.int64, st.integers(-5, 5)), st.builds(Label, st.text(max_size=5)),
)
values = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.text(max_size=5), inner, max_size=4),
    st.dictionaries(st.integers(-3, 3), inner, max_size=2)), max_leaves=12)
rows = st.lists(st.dictionaries(st.sampled_from(["prompt", "completion", "answer", "options", "x"]), values, max_size=5), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(rows, st.booleans())
def test_the_server_reads_the_same_rows_from_the_fast_encoding_as_from_json_dumps(batch, advantages):
    try:
        expected = parse_body(json.dumps({"rows": batch, "advantages": advantages}, separators=(",", ":")).encode())
    except (TypeError, ValueError):  # a value JSON cannot hold: the client says so, with either encoder
        with pytest.raises((TypeError, ValueError)):
            encode_rows(batch, advantages)
        return
    assert same_value(parse_body(encode_rows(batch, advantages)), expected)


def test_plain_rows_take_orjson_and_a_nan_row_the_standard_library():
    plain = [{"prompt": "q", "completion": "é", "answer": 3, "x": [1.5, None, True]}]
    assert encode_rows(plain, False) == b'{"rows":[{"prompt":"q","completion":"\xc3\xa9","answer":3,"x":[1.5,null,true]}],"advantages":false}'
    assert b"NaN" in encode_rows([{"x": float("nan")}], False)  # the literal the server reads back as NaN, never null


texts = st.one_of(st.text(max_size=40), st.lists(st.dictionaries(st.sampled_from(["role", "content"]), st.text(max_size=20)), max_size=3),
                  st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1), st.none())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["prompt", "completion", "answer"]), texts, max_size=3), min_size=1, max_size=4),
       st.integers(min_value=1, max_value=80))
def test_no_field_is_over_the_cap_when_the_whole_body_is_not(batch, cap):
    import orjson

    for body in (json.dumps({"rows": batch}).encode(), orjson.dumps({"rows": batch})):
        if len(body) <= cap:
            assert oversized(parse_body(body)["rows"], cap) == {}


@pytest.mark.parametrize("open_, close", [(b"[", b"]"), (b'{"a":', b"}")])
def test_the_depth_check_takes_64_levels_and_refuses_65(open_, close):
    def nested(levels: int) -> bytes:
        inner = b"[]" if open_ == b"[" else b"{}"
        return open_ * (levels - 1) + inner + close * (levels - 1)

    parse_body(nested(64))
    with pytest.raises(RequestProblem, match="deeper than 64"):
        parse_body(nested(65))


def test_a_ray_actor_gets_one_engine_process_unless_told_otherwise(monkeypatch):
    from polyreward.runners.ray_backend import actor_workers

    monkeypatch.delenv("POLYREWARD_WORKERS", raising=False)
    plain = parse_config({"rewards": [{"name": "m", "type": "math_accuracy"}]})
    assert actor_workers(plain, None) == 1
    assert actor_workers(plain, 0) == 0 and actor_workers(plain, 3) == 3
    configured = parse_config({"engine": {"workers": 2}, "rewards": [{"name": "m", "type": "math_accuracy"}]})
    assert actor_workers(configured, None) is None  # the config's engine.workers decides inside the actor
    monkeypatch.setenv("POLYREWARD_WORKERS", "2")
    assert actor_workers(plain, None) is None  # so does POLYREWARD_WORKERS
