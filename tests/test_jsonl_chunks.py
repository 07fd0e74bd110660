"""The JSONL chunk reader (:func:`polyreward.io.iter_chunks_with_lines`) parses a clean block of lines in one loop
and every other block line by line; whatever the file holds, it gives what deciding each line on its own gives
(:func:`polyreward.io._jsonl_lines` over the whole file, cut into chunks of ``chunk_size`` rows): the same rows
(types, key order, -0.0, ints past 64 bits, U+FFFD for lone surrogates), the same lines beside them, the same
error naming the same line, the same skip and surrogate counts. The lines key a chunk for ``--resume``, so they
must be exactly the bytes each row was read from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward.io import InputError, ReadStats, _jsonl_lines, iter_chunks, iter_chunks_with_lines
from polyreward.runners.chunking import group_aligned, group_aligned_with_lines

PIECES = [
    b'{"a": 1, "b": "x"}\n',
    b'{"qid": 3, "completion": "caf\xc3\xa9, \\"quoted\\", tab\\t"}\n',
    b'  {"spaced" : [1, 2.5, -0.0, true, null]}  \r\n',
    b"\n",
    b"   \n",
    b'{"big": 123456789012345678901234}\n',  # past 64 bits: json decides, an int stays an int
    b'{"lone": "\\ud800"}\n',  # a lone surrogate escape: U+FFFD, counted
    b'{"pair": "\\ud83d\\ude00"}\n',
    b'{"nan": NaN}\n',  # json reads NaN, orjson refuses
    b'{"broken": \n',
    b"null\n",
    b"[1, 2]\n",
    b'"text"\n',
    b'{"bad utf8": "\xff"}\n',
    b'{"dup": 1, "dup": 2}\n',
    b'{"esc": "\\u00e9\\/"}\n',
]


def reference(path: Path, chunk_size: int, on_error: str) -> tuple[str, list, list, tuple]:
    """Each line decided on its own, then cut into chunks: the behaviour the block reader must keep."""
    stats = ReadStats()
    try:
        with open(path, "rb") as handle:  # the lines as a file is iterated: cut after each b"\\n" only
            rows, kept, _ = _jsonl_lines(path, handle.readlines(), 0, on_error, stats, False)
    except InputError as exc:
        return f"InputError: {exc}", [], [], ()
    chunks = [rows[i:i + chunk_size] for i in range(0, len(rows), chunk_size)]
    lines = [kept[i:i + chunk_size] for i in range(0, len(kept), chunk_size)]
    return "ok", [repr(c) for c in chunks], lines, (len(rows), stats.skipped, stats.first_skipped_line, stats.surrogates, stats.first_surrogate_line)


def read(path: Path, chunk_size: int, on_error: str) -> tuple[str, list, list, tuple]:
    stats = ReadStats()
    try:
        chunks = list(iter_chunks_with_lines(path, chunk_size, on_error, stats))
    except InputError as exc:
        return f"InputError: {exc}", [], [], ()
    return ("ok", [repr(rows) for rows, _ in chunks], [lines for _, lines in chunks],
            (stats.rows, stats.skipped, stats.first_skipped_line, stats.surrogates, stats.first_surrogate_line))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.sampled_from(range(len(PIECES))), min_size=1, max_size=40),
       clean=st.integers(min_value=0, max_value=30), chunk_size=st.sampled_from([1, 2, 3, 7, 16, 1000]),
       on_error=st.sampled_from(["fail", "skip"]), bom=st.booleans(), last_newline=st.booleans())
def test_block_reader_decides_every_line_as_the_line_reader(tmp_path: Path, picks, clean, chunk_size, on_error, bom, last_newline) -> None:
    lines = [PIECES[0]] * clean + [PIECES[i] for i in picks]  # clean runs take the one-loop path, the rest the other
    data = (b"\xef\xbb\xbf" if bom else b"") + b"".join(lines)
    if not last_newline:
        data = data.rstrip(b"\n")
    path = tmp_path / "rows.jsonl"
    path.write_bytes(data)
    assert read(path, chunk_size, on_error) == reference(path, chunk_size, on_error)


def test_clean_file_gives_its_lines_as_read(tmp_path: Path) -> None:
    rows = [{"qid": i // 3, "text": f"row {i}, é"} for i in range(10)]
    text = "".join(json.dumps(r, ensure_ascii=i % 2 == 0) + "\n" for i, r in enumerate(rows))
    path = tmp_path / "rows.jsonl"
    path.write_text(text, encoding="utf-8")
    chunks = list(iter_chunks_with_lines(path, 4))
    assert [len(c) for c, _ in chunks] == [4, 4, 2]
    assert [row for c, _ in chunks for row in c] == rows
    assert b"".join(line for _, lines in chunks for line in lines) == text.encode()
    assert [row for c in iter_chunks(path, 4) for row in c] == rows


def test_first_line_json_array_is_refused_in_either_path(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text('[{"a": 1},\n{"a": 2}]\n', encoding="utf-8")
    with pytest.raises(InputError, match="JSON array"):
        list(iter_chunks_with_lines(path, 1000))


@given(groups=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=12), size=st.integers(min_value=1, max_value=9))
def test_group_aligned_cuts_lines_where_it_cuts_rows(groups, size) -> None:
    rows = [{"g": g_index, "i": i} for g_index, count in enumerate(groups) for i in range(count)]
    lines = [json.dumps(r).encode() + b"\n" for r in rows]
    chunks = [(rows[i:i + size], lines[i:i + size]) for i in range(0, len(rows), size)]
    with_lines = list(group_aligned_with_lines(chunks, "g"))
    assert [r for r, _ in with_lines] == list(group_aligned([c for c, _ in chunks], "g"))
    for cut_rows, cut_lines in with_lines:
        assert [json.loads(line) for line in cut_lines] == cut_rows
    assert all(lines is None for _, lines in group_aligned_with_lines([(c, None) for c, _ in chunks], "g"))


@given(st.lists(st.one_of(st.integers(min_value=-(2**64), max_value=2**64), st.sampled_from([1, 1, 2, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1]),
                          st.sampled_from(["1", "01", "a", "a", "1.0"]), st.booleans(), st.none(), st.floats(allow_nan=True),
                          st.lists(st.integers(), max_size=2)), max_size=30))
def test_group_keys_are_group_key_of_each_value(values) -> None:
    from polyreward.runners.parts import group_key, group_keys

    assert group_keys(values) == [group_key(v) for v in values]


@given(blank_at=st.lists(st.integers(min_value=0, max_value=30), max_size=4), bad_at=st.integers(min_value=0, max_value=30),
       chunk_size=st.sampled_from([1, 3, 4, 8]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_full_chunk_before_a_bad_line_is_handed_on(tmp_path: Path, blank_at, bad_at, chunk_size) -> None:
    """As when rows were read one by one: each chunk that fills before the malformed line is yielded before the error
    (an interrupted ``polyreward score`` keeps those parts for ``--resume``)."""
    lines = [json.dumps({"i": i}).encode() + b"\n" for i in range(31)]
    lines[bad_at] = b'{"i": broken\n'
    for position in sorted(set(blank_at), reverse=True):
        lines.insert(position, b"\n")
    path = tmp_path / "rows.jsonl"
    path.write_bytes(b"".join(lines))
    good_rows = sum(1 for line in lines[:lines.index(b'{"i": broken\n')] if line.strip())
    got = []
    with pytest.raises(InputError, match="malformed JSON line"):
        for rows, _ in iter_chunks_with_lines(path, chunk_size):
            got.append(rows)
    assert [len(rows) for rows in got] == [chunk_size] * (good_rows // chunk_size)
