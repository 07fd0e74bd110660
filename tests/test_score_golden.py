"""The file-scoring path writes the same bytes as before it was made faster.

``tests/data/score_golden/golden.json`` holds the SHA-256 of every output ``polyreward score`` wrote, with main's
code before the scoring-floor work, for each shipped example (JSONL, CSV and Parquet) and for rows that stress the
JSON reader and writer (NaN and infinity literals, ints past 64 bits, -0.0, subnormal and huge floats, unicode,
control characters, a lone surrogate, a duplicate key; chunks of 1000 and of 7 rows). Each run here must write
exactly those bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "data" / "score_golden"
sys.path.insert(0, str(HERE))
from record import cases, score  # noqa: E402

GOLDEN = json.loads((HERE / "golden.json").read_text(encoding="utf-8"))


def test_every_recorded_case_is_run():
    assert sorted(GOLDEN) == sorted(name for name, *_ in cases())


@pytest.mark.parametrize("case", cases(), ids=[c[0] for c in cases()])
def test_output_bytes_are_unchanged(tmp_path, case):
    name, source, config, extra = case
    assert score(name, source, config, extra, tmp_path) == GOLDEN[name], (
        f"{name}: the output differs from the one recorded before (see tests/data/score_golden/record.py)")
