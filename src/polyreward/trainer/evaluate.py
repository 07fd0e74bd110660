"""Evaluate a policy on a prompt file with the config's rewards: one completion per prompt, greedy by default.

``evaluate("examples/train/medqa_gdpo.yaml", dataset="examples/train/medqa_eval.jsonl")`` gives the
mean of every reward (e.g. MedQA accuracy) for the configured model; pass ``model=`` a checkpoint
folder to score the trained policy (before/after comparisons). From the shell:
``polyreward train CONFIG --evaluate examples/train/medqa_eval.jsonl [--model runs/x/checkpoint-200]``.

With ``output=`` every prompt row is written back with its ``completion``, one column per reward and its
``<name>_reason`` and the weighted ``reward`` (the layout of ``polyreward score``, so ``polyreward report``
reads it); the CLI writes ``<train.output_dir>/evaluate-<prompt file>.jsonl`` unless ``--eval-output`` says where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from polyreward.config import Config
from polyreward.io import write_rows
from polyreward.trainer.assets import resolve_model
from polyreward.trainer.config import DatasetSpec, load_train_config
from polyreward.trainer.loop import score_step
from polyreward.trainer.metrics import reward_metrics
from polyreward.trainer.policy import TransformersSampler, autocast, load_policy
from polyreward.trainer.prompts import load_rows, render_prompt


def evaluate(config: Config | str | Path, *, model: str | None = None, dataset: str | None = None, limit: int | None = None,
             batch_size: int = 64, temperature: float = 0.0, device: str | None = None,
             overrides: dict[str, Any] | None = None, output: str | Path | None = None) -> dict[str, Any]:
    """Mean (and applicable share) of each reward over the prompts; ``temperature`` 0 decodes greedily.

    ``overrides`` replace ``train:`` keys (e.g. ``max_new_tokens``, ``decode``, ``device``) as in training;
    ``output`` (.jsonl, .csv or .parquet) receives the completions with their scores and reasons."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    full, train_cfg = load_train_config(config, **(overrides or {}))
    scorer = full.build_scorer()
    rewards = scorer.rewards
    prompt_column = train_cfg.prompt_column or full.columns.prompt
    spec = DatasetSpec(path=str(dataset), limit=limit) if dataset is not None else train_cfg.dataset
    rows = load_rows(spec, prompt_column, rewards.columns)
    target = torch.device(device or train_cfg.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    bf16 = train_cfg.bf16 if train_cfg.bf16 is not None else target.type == "cuda"
    policy, tokenizer = load_policy(str(resolve_model(model or train_cfg.model)), target)
    policy.eval()
    sampler = TransformersSampler(policy, tokenizer, max_new_tokens=train_cfg.max_new_tokens, temperature=temperature, bf16=bf16,
                                  decode=train_cfg.decode)
    scores, completions = [], []
    for start in range(0, len(rows), batch_size):
        batch = rows[start: start + batch_size]
        texts = [render_prompt(r[prompt_column], tokenizer, train_cfg.use_chat_template, train_cfg.system_prompt) for r in batch]
        with autocast(target, bf16):
            rollouts = sampler.sample(texts, 1)
        scores.append(score_step(scorer, batch, prompt_column, rollouts, 1))
        completions += rollouts.texts
    matrix = np.concatenate([s.scores for s in scores])
    summary = reward_metrics(scores[0].names, scores[0].weights, matrix, np.arange(len(matrix)))
    summary.pop("frac_reward_zero_std", None)  # one rollout per prompt: no groups here
    result = {"rows": len(matrix), "model": str(model or train_cfg.model), **summary}
    if output is not None:
        write_rows(output, _scored_rows(rows, completions, scores))
        result["completions"] = str(output)
    return result


def _scored_rows(rows: list[dict[str, Any]], completions: list[str], scores: list) -> list[dict[str, Any]]:
    """Each prompt row + ``completion``, every reward's score (None where NaN) and reason, and the weighted ``reward``."""
    names = scores[0].names
    reasons = {name: [r for s in scores for r in s.reasons[name]] for name in names}
    matrix = np.concatenate([s.scores for s in scores])
    totals = np.concatenate([s.total for s in scores])
    out = []
    for i, (row, text) in enumerate(zip(rows, completions)):
        record = {**row, "completion": text}
        for k, name in enumerate(names):
            record[name] = None if np.isnan(matrix[i, k]) else float(matrix[i, k])
            record[f"{name}_reason"] = reasons[name][i] or None
        record["reward"] = None if np.isnan(totals[i]) else float(totals[i])
        out.append(record)
    return out
