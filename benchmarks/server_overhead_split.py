"""Where a served 256-row cheap request spends its time outside the transport: the slot's own steps, timed in
this process on the same rows and config as ``server_overhead.py``'s ``cheap`` workload (median of 35 batches),
for the plain ``"rows"`` body and the ``"shared_rows"`` body (each run of rows with the same prompt sends it once).

    cd benchmarks && python server_overhead_split.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import orjson

import server_overhead as so  # benchmarks/server_overhead.py (scripts run from this folder)


def main() -> None:
    from polyreward.config import load_config
    from polyreward.runners.client import encode_rows
    from polyreward.runners.server_routes import RouteSettings, SlotScorer, dumps, oversized, parse_body, rows_of, scored_json

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cheap.yaml"
        path.write_text(so.CHEAP_CONFIG)
        config = load_config(path)
    scorer, slot, base = config.build_scorer(0), SlotScorer(config, 0, RouteSettings()), so.example_rows("medqa")
    steps: dict[str, list[float]] = {}

    def timed(name, fn):
        started = time.perf_counter()
        out = fn()
        steps.setdefault(name, []).append(time.perf_counter() - started)
        return out

    for b in range(40):
        sent = so.batch(base, b)
        raw = timed("client: encode body (orjson)", lambda: orjson.dumps({"rows": sent}))
        timed("client: `encode_rows`, plain rows", lambda: encode_rows(sent, False))
        packed = timed("client: `encode_rows`, prompts shared (\"shared_rows\")", lambda: encode_rows(sent, False, ["prompt"]))
        local = so.batch(base, 1_000 + b)
        timed("in process: scorer.score(scorer.batch(rows)) (the anchor)", lambda: scorer.score(scorer.batch(local)))
        fresh = orjson.dumps({"rows": so.batch(base, 2_000 + b)})
        _, answer = timed("slot: whole handle() (parse .. encode)", lambda: slot.handle("/score", fresh, lambda n: None))
        fresh_packed = encode_rows(so.batch(base, 3_000 + b), False, ["prompt"])
        timed("slot: whole handle(), prompts shared", lambda: slot.handle("/score", fresh_packed, lambda n: None))
        timed("slot: parse + depth check (`parse_body`), plain rows", lambda: rows_of(parse_body(fresh)))
        timed("slot: parse + depth check + unshare, prompts shared", lambda: rows_of(parse_body(fresh_packed)))
        rows = timed("slot: parse body (orjson)", lambda: orjson.loads(fresh))["rows"]
        keys = dict.fromkeys(k for r in rows for k in r if k not in ("prompt", "completion"))
        timed("slot: check_columns", lambda: scorer.check_columns({k: [r.get(k) for r in rows] for k in keys}, combine=False))
        timed("slot: oversized (field cap)", lambda: oversized(rows, 1_000_000))
        timed("slot: scorer.batch(rows)", lambda: scorer.batch(rows))
        s = scorer.score(scorer.batch(rows))
        failed = s.failed if s.failed is not None else np.zeros(s.scores.shape, dtype=bool)
        timed("slot: answer dict + orjson", lambda: dumps(scored_json(scorer.names, scorer.weights, s.scores, s.reasons, s.total,
                                                                      dict(s.failures), failed, None)))
        timed("client: decode answer (orjson)", lambda: orjson.loads(answer))
    print(f"body {len(raw):,} bytes ({len(packed):,} with the prompts shared), answer {len(answer):,} bytes")
    for name, values in steps.items():
        print(f"| {name} | {statistics.median(values[5:]) * 1e3:.2f} |")


if __name__ == "__main__":
    main()
