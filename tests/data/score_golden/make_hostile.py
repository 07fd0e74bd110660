"""Writes hostile_rows.jsonl: rows whose values stress the JSON reader and writer (kept as test data; rerun only to
change it, then record the golden digests again with main's code: scripts/record_score_golden.py)."""
import json
import math
from pathlib import Path

values = [0, -0.0, 1.0, 0.1, 1e16, 1e-7, 5e-324, 1.7976931348623157e308, 2**63 - 1, 2**63, 2**64 + 1, -(2**70), 10**30,
          123456789.123456789, 3.0e22, -1.5e-300, True, False, None, "", "é ü 中文 🙂", "\u2028\u2029", "\x00\x1f\x7f",
          "tab\tnew\nline \"quote\" back\\slash", "\ufeffbom", {"nested": [1, 2.5, {"x": None}]}, [], {}, [1, "two", 3.0]]
lines = []
for i, value in enumerate(values):
    gold = ["4", "\\frac{1}{2}", "0.5", "x^2"][i % 4]
    completion = ["<think>a b c d</think> The answer is \\boxed{4}", "\\boxed{0.5}", "no think here 1/2", "<think></think>x^2"][i % 4]
    row = {"prompt": f"p{i // 3}", "completion": completion, "answer": gold, "value": value, "qid": i // 3}
    lines.append(json.dumps(row, ensure_ascii=bool(i % 2)))
# literals json writes but strict JSON does not have, and a duplicate key, a lone surrogate, spacing of another writer
lines.append('{"prompt": "p99", "completion": "\\\\boxed{4}", "answer": "4", "value": NaN, "qid": 99}')
lines.append('{"prompt":"p99","completion":"\\\\boxed{4}","answer":"4","value":Infinity,"qid":99}')
lines.append('{"prompt": "p99", "completion": "\\\\boxed{4}", "answer": "4", "value": -Infinity, "qid": 99, "qid": 100}')
lines.append('{"prompt": "p100", "completion": "lone \\ud800 surrogate \\boxed{4}", "answer": "4", "value": 1E400, "qid": 100}')
lines.append('{"prompt": "p100", "completion": "pair \\ud83d\\ude00 \\boxed{4}", "answer": "4", "value": 1.0e2, "qid": 100}')
lines.append('  {"prompt": "p100", "completion": "\\boxed{4}", "answer": "4", "value": -0, "qid": 100}  ')
Path(__file__).with_name("hostile_rows.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
