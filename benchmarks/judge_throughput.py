"""Rubric criteria judged per second: rules judge, and the ``openai`` judge against a local ``serve-judge``.

Rows (all measured in the same run):

* ``rules``: the example chest-pain rubric (13 rule items) over distinct responses, judged in-process.
* ``openai -> serve-judge``: the ``openai`` judge posting to a :class:`JudgeServer` on 127.0.0.1 that
  serves the tiny random Qwen2 (real Qwen2.5 tokenizer, ~200-token grader prompts), with vLLM-style
  ``guided_choice: [yes, no]`` so every answer parses. *cold*: empty cache, every criterion is an HTTP
  request and a forward pass; *warm*: the same batch again, answered from the (model, prompt) cache.
  The anchor is the cold run with ``concurrency: 1`` (one request at a time, so the server never
  batches); the ratio column is rate / anchor rate.
* ``transformers (yes_no)``: the in-process local-model judge on the same criteria, for the HTTP overhead.

    python benchmarks/judge_throughput.py [--criteria 104] [--markdown benchmarks/results/judge_throughput.md]

Torch runs with one intra-op thread (``--threads``): the model is tiny, and on a shared 2-core machine
OpenMP spin-waiting with two threads was up to 20x slower.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time
from pathlib import Path

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "rubric"


def machine() -> str:
    return describe_machine() + ", no GPU"


def requests(n_responses: int):
    from polyreward.rubrics.judges import JudgeRequest
    from polyreward.rubrics.reward import conversation_of
    from polyreward.rubrics.schema import load_rubric_file

    rubric = load_rubric_file(EXAMPLES / "rubric.json")
    rows = [json.loads(line) for line in (EXAMPLES / "rollouts.jsonl").read_text().splitlines()]
    out = []
    for i in range(n_responses):
        row = rows[i % len(rows)]
        response = f"{row['completion']} (variant {i})"  # distinct responses: no two prompts alike
        out.extend(JudgeRequest(conversation_of(row["prompt"]), response, item) for item in rubric)
    return out


def rate(judge, batch) -> tuple[float, int]:
    start = time.perf_counter()
    verdicts = judge.judge(batch)
    elapsed = time.perf_counter() - start
    return len(batch) / elapsed, sum(v.met is None for v in verdicts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--criteria", type=int, default=104, help="criteria per model-judge batch (default 104 = 8 responses x 13 items)")
    parser.add_argument("--rules-responses", type=int, default=2000, help="responses for the rules judge (x13 criteria)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1, help="torch intra-op threads (default 1)")
    parser.add_argument("--markdown", default=None, help="also write the table to this markdown file")
    args = parser.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch

    from polyreward.rubrics.judge_openai import OpenAIJudge
    from polyreward.rubrics.judge_rules import RulesJudge
    from polyreward.judges.server import JudgeServer
    from polyreward.rubrics.judge_transformers import TransformersJudge
    from polyreward.trainer.assets import tiny_qwen2

    torch.set_num_threads(args.threads)
    rows: list[tuple[str, str, int, float, int]] = []  # judge, cache, criteria, criteria/s, failed

    rules_batch = requests(args.rules_responses)
    RulesJudge().judge(rules_batch[:100])  # import / regex compile warm-up
    speed, failed = rate(RulesJudge(), rules_batch)
    rows.append(("rules", "-", len(rules_batch), speed, failed))

    model_dir = tiny_qwen2()
    n_responses = max(1, args.criteria // 13)
    batch = requests(n_responses)[: args.criteria]
    with JudgeServer(model_dir, port=0, served_model_name="tiny", max_batch=args.concurrency) as server:
        common = {"timeout": 120, "max_tokens": 4, "extra_body": {"guided_choice": ["yes", "no"]}}
        OpenAIJudge(server.url, "tiny", **common).judge(batch[:4])  # warm-up: first forward passes
        anchor = OpenAIJudge(server.url, "tiny", concurrency=1, **common)
        anchor_speed, failed = rate(anchor, batch)
        rows.append(("openai -> serve-judge, concurrency 1 (anchor)", "cold", len(batch), anchor_speed, failed))
        judge = OpenAIJudge(server.url, "tiny", concurrency=args.concurrency, **common)
        speed, failed = rate(judge, batch)
        rows.append((f"openai -> serve-judge, concurrency {args.concurrency}", "cold", len(batch), speed, failed))
        speed, failed = rate(judge, batch)
        rows.append((f"openai -> serve-judge, concurrency {args.concurrency}", "warm", len(batch), speed, failed))
    local = TransformersJudge(str(model_dir), mode="yes_no", batch_size=args.concurrency)
    local.judge(batch[:4])
    speed, failed = rate(local, batch)
    rows.append((f"transformers yes_no in-process, batch {args.concurrency}", "-", len(batch), speed, failed))

    lines = [
        "| judge | cache | criteria | criteria/s | / anchor | failed |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, cache, count, speed, failed in rows:
        ratio = f"{speed / anchor_speed:.2f}" if "serve-judge" in name or "transformers" in name else "-"
        lines.append(f"| {name} | {cache} | {count} | {speed:,.1f} | {ratio} | {failed} |")
    header = (f"Rubric judges, {datetime.date.today().isoformat()}, {machine()}; torch threads {args.threads}; "
              "model judge = tiny random Qwen2 (2 layers, hidden 64, Qwen2.5 tokenizer), grader prompt ~200 tokens, "
              "guided_choice yes/no.")
    table = "\n".join(lines)
    print(header + "\n\n" + table)
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(
            "# Rubric judge throughput\n\n" + header + "\n\n" + table + "\n\n"
            "Reproduce: `python benchmarks/judge_throughput.py --markdown benchmarks/results/judge_throughput.md`\n"
        )


if __name__ == "__main__":
    main()
