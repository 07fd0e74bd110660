"""Record the SHA-256 of every output ``polyreward score`` writes for the shipped examples and the hostile rows.

tests/test_score_golden.py scores the same inputs and compares: the file-scoring path (reading, chunking, parts,
assembly, encoding) may get faster, never different. The digests in golden.json were recorded with the code of main
before the scoring-floor work (2026-12-03). Rerun this only when an output is meant to change (a reward scores
differently on purpose), and say so in the commit::

    PYTHONPATH=src python tests/data/score_golden/record.py
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
EXAMPLES = ["code", "forecast", "jaccard", "kg", "math", "medqa", "rubric", "tools"]
FORMATS = ["jsonl", "csv", "parquet"]


def cases() -> list[tuple[str, Path, Path, list[str]]]:
    """(name, input, config, extra CLI arguments) of every recorded run."""
    found = [(f"{name}.{fmt}", ROOT / "examples" / name / "rollouts.jsonl", ROOT / "examples" / name / "config.yaml", [])
             for name in EXAMPLES for fmt in FORMATS]
    for fmt in FORMATS:
        # chunks of 7 rows in Parquet: a column whose type differs between parts ('value') cannot be unified (a
        # known limit of the Parquet writer, an error before and after), so only one part there
        for size in (1000, 7) if fmt != "parquet" else (1000,):
            found.append((f"hostile-chunk{size}.{fmt}", HERE / "hostile_rows.jsonl", HERE / "hostile.yaml", ["--chunk-size", str(size)]))
    return found


def score(name: str, source: Path, config: Path, extra: list[str], folder: Path) -> str:
    """SHA-256 of the output of one in-process ``polyreward score`` run."""
    from polyreward.cli import main

    output = folder / name
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["score", str(source), "-c", str(config), "-o", str(output), "-q", *extra])
    if code != 0:
        raise SystemExit(f"{name}: polyreward score exited {code}")
    return hashlib.sha256(output.read_bytes()).hexdigest()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        digests = {name: score(name, source, config, extra, Path(folder)) for name, source, config, extra in cases()}
    (HERE / "golden.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {len(digests)} digests in {HERE / 'golden.json'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
