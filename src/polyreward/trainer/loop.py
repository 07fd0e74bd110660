"""The training loop of the bundled GRPO trainer, readable top to bottom.

Each step (one generation batch):

1. take ``prompts_per_step`` rows (order fixed by seed and step, trainer/prompts.py) and sample
   ``num_generations`` completions per prompt (trainer/policy.py);
2. score every completion with the config's Scorer (its RewardSet) -> an (N, K) matrix, NaN = not applicable;
3. turn the scores into one advantage per rollout with the config's combiner (default ``grpo``,
   i.e. TRL's sum-then-normalise; ``gdpo`` normalises each reward per group first);
4. ``num_iterations`` times: accumulate the clipped surrogate loss (trainer/loss.py) over
   ``gradient_accumulation_steps`` micro-batches, clip the gradient norm, AdamW step;
5. log one metrics row (trainer/metrics.py), save a checkpoint when due (trainer/checkpoint.py), or when SIGINT /
   SIGTERM asked the run to stop (trainer/interrupt.py), and then stop.

The importance ratio uses the log-probabilities of the policy that sampled the batch: with one
iteration they equal the current ones (ratio 1, TRL's shortcut); with more, they are computed once
before the first update.
"""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from polyreward.config import Config, ConfigError, parse_config
from polyreward.pipeline import ScoredBatch, Scorer
from polyreward.rewardset import RewardSet
from polyreward.schema import Batch
from polyreward.trainer.assets import resolve_model
from polyreward.trainer.checkpoint import latest_checkpoint, load_trainer_state, restore_rng, save_checkpoint
from polyreward.trainer.config import TrainConfig, load_train_config
from polyreward.trainer.dynamic_sampling import Draw, collect_signal_groups
from polyreward.trainer.interrupt import StopAtStepEnd
from polyreward.trainer.loss import clipped_surrogate_loss
from polyreward.runners.run_metrics import sample_table, timing_metrics
from polyreward.runners.score_file import check_combiner_fits
from polyreward.runners.trackers import check_report_to, open_trackers
from polyreward.trainer.metrics import (ErrorReporter, ProgressBar, advantage_metrics, peak_memory_mb, reset_peak_memory, reward_errors,
                                        reward_metrics)
from polyreward.trainer.policy import Rollouts, TransformersSampler, autocast, load_policy, token_logps
from polyreward.trainer.prompts import load_rows, render_prompt, rows_at


@dataclass
class TrainResult:
    output_dir: Path
    step: int  # steps completed
    metrics: list[dict[str, Any]] = field(default_factory=list)  # rows written by this call
    checkpoint: Path | None = None
    model: Any = None  # the trained policy, in memory
    stopped_by: str | None = None  # "SIGINT" / "SIGTERM" when a signal ended the run early (after saving a checkpoint)
    exit_code: int = 0  # 128 + the signal number when stopped by one


def _seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _linear_schedule(total: int, warmup: int):
    def factor(update: int) -> float:  # transformers' get_linear_schedule_with_warmup, update = 0 .. total - 1
        if update < warmup:
            return update / max(1, warmup)
        return max(0.0, (total - update) / max(1, total - warmup))

    return factor


def make_scheduler(optimizer, train_cfg: TrainConfig, completed_updates: int = 0):
    """The learning-rate schedule over this run's horizon (``max_steps`` × ``num_iterations`` updates), positioned
    after ``completed_updates``: a resumed run continues the schedule of the *current* settings (a new ``max_steps``
    stretches it, a new ``learning_rate`` is its new peak), so it logs the learning rates of an uninterrupted run with
    those settings. The last update's factor is 1/(total - warmup), never 0 (transformers' scheduler)."""
    total_updates = train_cfg.max_steps * train_cfg.num_iterations
    schedule = _linear_schedule(total_updates, train_cfg.warmup_steps) if train_cfg.lr_scheduler == "linear" else (lambda _: 1.0)
    for group in optimizer.param_groups:  # a loaded optimiser state carries the old peak; the current one wins
        group["initial_lr"] = train_cfg.learning_rate
        group["lr"] = train_cfg.learning_rate
    return torch.optim.lr_scheduler.LambdaLR(optimizer, schedule, last_epoch=completed_updates - 1)


# keys that may change between a run and its resumption without changing what the next steps compute, and the
# schedule's own keys, which a resumed run applies (make_scheduler) and says so
_RESUME_FREE_KEYS = {"max_steps", "output_dir", "logging_steps", "save_steps", "device", "decode", "lm_head_chunk_tokens",
                     "gradient_checkpointing"}
_SCHEDULE_KEYS = {"learning_rate", "lr_scheduler", "warmup_steps"}


def _report_resume(saved: dict[str, Any], current: dict[str, Any], checkpoint: Path, step: int) -> None:
    """Say what a resumed run does: the schedule it follows from ``step`` on, and which other settings differ (then it is
    no longer an exact continuation)."""
    applied = [f"{key}: {saved[key]!r} -> {current.get(key)!r}" for key in sorted(_SCHEDULE_KEYS)
               if key in saved and saved[key] != current.get(key)]
    print(f"--resume from {checkpoint} at step {step}: learning rate {current['learning_rate']:g}, {current['lr_scheduler']} "
          f"schedule over {current['max_steps']} steps" + (f" (applied: {'; '.join(applied)})" if applied else ""), file=sys.stderr)
    changed = [f"{key}: {saved[key]!r} -> {current.get(key)!r}" for key in sorted(saved)
               if key not in _RESUME_FREE_KEYS | _SCHEDULE_KEYS and saved[key] != current.get(key)]
    if changed:
        print(f"--resume from {checkpoint}: train settings differ from the checkpoint's ({'; '.join(changed)}); "
              "the run continues but will not repeat the uninterrupted one", file=sys.stderr)


def _disable_dropout(model) -> None:
    """Every ``nn.Dropout`` to p = 0 (TRL's ``disable_dropout_in_model``); attention dropout reads the same modules."""
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = 0.0


def score_step(scorer: Scorer, batch: list[dict[str, Any]], prompt_column: str, rollouts: Rollouts, num_generations: int,
               groups: Any = None, combine: bool = False) -> ScoredBatch:
    """The trainer's scoring step: the config's :class:`polyreward.pipeline.Scorer`, like every entry point.

    Completions are scored as TRL would: chat prompts get conversational completions
    ``[{"role": "assistant", "content": ...}]``, and a ``completion_ids`` column is added. With ``combine`` (and a
    combiner), the result holds the advantages over ``groups`` (a combiner's per-row columns, e.g. DRPO's domain,
    are dataset columns)."""
    prompts = [row[prompt_column] for row in batch for _ in range(num_generations)]
    completions = [
        [{"role": "assistant", "content": text}] if isinstance(prompt, list) else text
        for prompt, text in zip(prompts, rollouts.texts)
    ]
    columns = scoring_columns(batch, prompt_column, rollouts, num_generations)
    # token lengths: the completion_ids column
    return scorer.score(Batch(prompts, completions, columns, groups=groups), combine=combine and scorer.combiner is not None)


def scoring_columns(batch: list[dict[str, Any]], prompt_column: str, rollouts: Rollouts, num_generations: int) -> dict[str, list]:
    """The dataset's reference columns repeated per rollout, and ``completion_ids``: TRL hands every reward the unpadded
    token ids (length rewards such as overlong_penalty and length-aware combiners count them)."""
    columns = {name: [row[name] for row in batch for _ in range(num_generations)] for name in batch[0] if name != prompt_column}
    columns["completion_ids"] = [ids[mask.bool()].tolist() for ids, mask in zip(rollouts.completion_ids, rollouts.completion_mask)]
    return columns


def token_advantages(combiner: Any, scores: ScoredBatch, groups: Any, rollouts: Rollouts) -> np.ndarray:
    """(N, T) advantages of a token-level combiner over the completion tokens (outcome rewards on each row's last
    token); the scored batch's (N,) advantages stay its per-row summary for the metrics."""
    from polyreward.combiner import combine_token_scores

    return combine_token_scores(combiner, scores.scores, groups, scores.weights, mask=rollouts.completion_mask.cpu())


def _micro_batches(rollouts: Rollouts, count: int):
    """Slices of the generation batch, each trimmed to its own longest completion."""
    size = rollouts.completion_ids.size(0) // count
    for start in range(0, rollouts.completion_ids.size(0), size):
        rows = slice(start, start + size)
        width = max(int(rollouts.lengths[rows].max()), 1)
        completion_mask = rollouts.completion_mask[rows, :width]
        input_ids = torch.cat([rollouts.prompt_ids[rows], rollouts.completion_ids[rows, :width]], dim=1)
        attention_mask = torch.cat([rollouts.prompt_mask[rows], completion_mask], dim=1)
        yield rows, input_ids, attention_mask, completion_mask, width


def _fixed_logps(model, rollouts: Rollouts, train: TrainConfig, bf16: bool) -> list[torch.Tensor]:
    """Log-probabilities of a frozen policy (the sampler before the update, or the reference model) per micro-batch."""
    out = []
    with torch.no_grad(), autocast(model.device, bf16):
        for _, input_ids, attention_mask, _, width in _micro_batches(rollouts, train.gradient_accumulation_steps):
            out.append(token_logps(model, input_ids, attention_mask, width, train.temperature, chunk_tokens=train.lm_head_chunk_tokens)[0])
    return out


def loss_mask(rollouts: Rollouts, train: TrainConfig) -> torch.Tensor:
    """The tokens the loss reads: the completion mask, with every truncated completion's row zeroed under
    ``mask_truncated_completions`` (TRL 1.16 grpo_trainer.py:2487-2492: no EOS = truncated)."""
    if not train.mask_truncated_completions:
        return rollouts.completion_mask
    return rollouts.completion_mask * rollouts.terminated.unsqueeze(1).to(rollouts.completion_mask.dtype)


def _update(model, ref_model, optimizer, scheduler, rollouts: Rollouts, advantages: torch.Tensor, train: TrainConfig,
            bf16: bool) -> dict[str, float]:
    """``num_iterations`` optimiser updates on one generation batch; returns loss/KL/entropy/clip metrics.

    An update whose gradient norm is not finite is not applied (the gradients are dropped, the learning-rate schedule
    still advances): ``updates_skipped`` counts them and ``grad_norm`` averages the applied ones (NaN if none was).
    Without this guard one overflowing micro-batch made every weight NaN (SmolLM2 on MedQA, bf16, H200, 2026-12-04:
    loss NaN and 256-token garbage from step 14 on)."""
    accumulation = train.gradient_accumulation_steps
    weights = loss_mask(rollouts, train)
    batch_tokens = float(weights.sum())
    old_logps = _fixed_logps(model, rollouts, train, bf16) if train.num_iterations > 1 else None
    ref_logps = _fixed_logps(ref_model, rollouts, train, bf16) if ref_model is not None else None
    totals = {"loss": 0.0, "kl": 0.0, "low": 0.0, "high": 0.0, "tokens": 0.0, "entropy": 0.0, "entropy_tokens": 0.0, "grad_norm": 0.0,
              "skipped": 0}
    for iteration in range(train.num_iterations):
        optimizer.zero_grad(set_to_none=True)
        for index, (rows, input_ids, attention_mask, _, width) in enumerate(_micro_batches(rollouts, accumulation)):
            mask = weights[rows, :width]
            with autocast(model.device, bf16):
                logps, entropy = token_logps(model, input_ids, attention_mask, width, train.temperature, with_entropy=iteration == 0,
                                             chunk_tokens=train.lm_head_chunk_tokens)
            parts = clipped_surrogate_loss(
                logps, old_logps[index] if old_logps is not None else logps.detach(),
                advantages[rows] if advantages.dim() == 1 else advantages[rows, :width], mask,  # (N, T): token-level
                loss_type=train.loss_type, clip_low=train.clip_low, clip_high=train.clip_high, beta=train.beta,
                ref_logps=ref_logps[index] if ref_logps is not None else None, max_new_tokens=train.max_new_tokens,
                accumulation=accumulation, batch_tokens=batch_tokens, importance_sampling_level=train.importance_sampling_level,
            )
            parts.loss.backward()
            totals["loss"] += float(parts.loss.detach())
            totals["kl"] += parts.kl_sum
            totals["low"] += parts.clipped_low
            totals["high"] += parts.clipped_high
            totals["tokens"] += parts.tokens
            if entropy is not None:
                totals["entropy"] += float((entropy * mask).sum())
                totals["entropy_tokens"] += float(mask.sum())
        max_norm = train.max_grad_norm if train.max_grad_norm is not None else math.inf
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))
        if math.isfinite(norm):
            totals["grad_norm"] += norm
            optimizer.step()
        else:  # an inf/NaN gradient (bf16 overflow, say) would turn every weight into NaN: the update is dropped
            totals["skipped"] += 1
            optimizer.zero_grad(set_to_none=True)
        scheduler.step()  # the schedule counts steps, applied or not
    n, tokens = train.num_iterations, max(totals["tokens"], 1.0)
    return {
        "loss": totals["loss"] / n,
        "kl": totals["kl"] / tokens if train.beta else 0.0,
        "entropy": totals["entropy"] / max(totals["entropy_tokens"], 1.0),
        "clip_ratio/low": totals["low"] / tokens,
        "clip_ratio/high": totals["high"] / tokens,
        "grad_norm": totals["grad_norm"] / (n - totals["skipped"]) if totals["skipped"] < n else math.nan,
        "updates_skipped": totals["skipped"],
    }


def train(config: Config | dict | str | Path, *, max_steps: int | None = None, output_dir: str | Path | None = None,
          resume: bool = False, progress: bool = True, rewards: RewardSet | None = None, combiner: Any = None,
          overrides: dict[str, Any] | None = None, trusted_checkpoint: bool = False) -> TrainResult:
    """Train the configured model; ``config`` is a YAML path, a mapping or a parsed :class:`~polyreward.config.Config`.

    ``max_steps`` / ``output_dir`` and ``overrides`` (any ``train:`` keys) replace the file's values; ``resume``
    continues from the newest checkpoint in the output folder (its ``trainer_state.pt`` is read without
    unpickling code; ``trusted_checkpoint=True`` allows arbitrary objects, for your own files only).
    ``rewards`` / ``combiner`` replace what the config would build (handy from Python).

    The learning-rate schedule always follows the current settings (:func:`make_scheduler`), also on resume. SIGINT or
    SIGTERM (in the main thread) stops the run at the end of the current step after saving a checkpoint; the result
    then has ``stopped_by`` ("SIGINT" / "SIGTERM") and ``exit_code`` (130 / 143) set.
    """
    if isinstance(config, dict):
        config = parse_config(config)
    section = {**(overrides or {}), **({"max_steps": max_steps} if max_steps is not None else {}),
               **({"output_dir": str(output_dir)} if output_dir else {})}
    full, train_cfg = load_train_config(config, **section)
    try:
        check_report_to(train_cfg.report_to, "train.report_to")  # a tracker not installed: said before the model loads
    except ImportError as exc:
        raise ConfigError(str(exc)) from None
    out = Path(train_cfg.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    device = torch.device(train_cfg.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    bf16 = train_cfg.bf16 if train_cfg.bf16 is not None else device.type == "cuda"
    _seed_everything(train_cfg.seed)

    scorer = full.build_scorer(rewards=rewards, combiner=combiner if combiner is not None else None if full.combiner else "grpo")
    rewards, combiner = scorer.rewards, scorer.combiner  # the scorer's: its state is saved in every checkpoint
    check_combiner_fits(combiner, rewards.names, rewards.weights, "train combiner")  # before the model loads
    prompt_column = train_cfg.prompt_column or full.columns.prompt
    rows = load_rows(train_cfg.dataset, prompt_column, (*rewards.columns, *combiner.row_source_columns()))

    model_path = str(resolve_model(train_cfg.model))
    checkpoint = latest_checkpoint(out) if resume else None
    if resume and checkpoint is None:
        print(f"--resume: no checkpoint in {out}; starting at step 0")
    model, tokenizer = load_policy(str(checkpoint or model_path), device, train_cfg.gradient_checkpointing)
    ref_model = None
    if train_cfg.beta > 0:  # the frozen initial policy, even when resuming
        ref_model, _ = load_policy(model_path, device)
        ref_model.eval().requires_grad_(False)
    if train_cfg.disable_dropout:
        for module in [model, *([ref_model] if ref_model is not None else [])]:
            _disable_dropout(module)
    optimizer = torch.optim.AdamW(model.parameters(), lr=train_cfg.learning_rate, weight_decay=train_cfg.weight_decay)

    start = 0
    if checkpoint is not None:
        state = load_trainer_state(checkpoint, trusted=trusted_checkpoint)
        start = state["step"]
        _report_resume(state.get("train_config") or {}, train_cfg.model_dump(), checkpoint, start)
        optimizer.load_state_dict(state["optimizer"])
        combiner.load_state_dict(state["combiner"])
        rewards.load_state_dict(state.get("rewards", {}))  # OTC running_min's per-prompt minimum
        restore_rng(state["rng"])  # last: loading the models above may draw random numbers
    scheduler = make_scheduler(optimizer, train_cfg, start * train_cfg.num_iterations)
    sampler = TransformersSampler(model, tokenizer, max_new_tokens=train_cfg.max_new_tokens, temperature=train_cfg.temperature,
                                  bf16=bf16, decode=train_cfg.decode)  # samples from the policy itself: always the current weights
    trackers = open_trackers(["jsonl", *train_cfg.report_to], out, run_name=train_cfg.run_name or out.name,
                             config={"train": train_cfg.model_dump(mode="json"), "rewards": [e.model_dump(mode="json") for e in full.rewards]},
                             resume_step=start if checkpoint is not None else None)
    result = TrainResult(out, start, model=model, checkpoint=checkpoint)  # replaced by the next save
    G = train_cfg.num_generations
    errors = ErrorReporter()
    cursor = start * train_cfg.prompts_per_step if checkpoint is None else state.get("prompt_cursor", start * train_cfg.prompts_per_step)
    timer = {"generation": 0.0}

    def draw_round(combine: bool = False) -> Draw:
        """The next prompts_per_step prompts from the cursor, G completions each, scored (with advantages if ``combine``)."""
        nonlocal cursor
        positions = range(cursor, cursor + train_cfg.prompts_per_step)
        cursor += train_cfg.prompts_per_step
        batch = [rows[i] for i in rows_at(positions, len(rows), train_cfg.seed)]
        texts = [render_prompt(r[prompt_column], tokenizer, train_cfg.use_chat_template, train_cfg.system_prompt) for r in batch]
        t0 = time.perf_counter()
        rollouts = sampler.sample(texts, G)
        timer["generation"] += time.perf_counter() - t0
        groups = np.repeat(np.asarray(positions), G)  # the prompt's cursor position: unique over the run
        scores = score_step(scorer, batch, prompt_column, rollouts, G, groups, combine=combine)
        return Draw(batch, groups, rollouts, scores)

    def _advantages(draw: Draw, with_combiner: Any) -> np.ndarray:
        return scorer.with_combiner(with_combiner).advantages(
            draw.scores.scores, draw.groups, columns=scoring_columns(draw.rows, prompt_column, draw.rollouts, G))

    with trackers, ProgressBar(train_cfg.max_steps, start, enabled=progress) as bar, StopAtStepEnd() as stop:
        for step in range(start, train_cfg.max_steps):
            reset_peak_memory(device)
            t_start = time.perf_counter()
            timer["generation"] = 0.0

            # 1-3. sample G completions for each prompt, score them, turn the (N, K) scores into advantages
            cursor_before = cursor
            if train_cfg.dynamic_sampling is None:
                draw = draw_round(combine=True)
                advantages, sampling_row = draw.scores.advantages, {}
            else:
                settings = train_cfg.dynamic_sampling
                draw, stats = collect_signal_groups(
                    draw_round, lambda d, probe: _advantages(d, probe), combiner, train_cfg.prompts_per_step, G,
                    settings.max_refill_rounds, settings.tol, tokenizer.pad_token_id)
                advantages, sampling_row = _advantages(draw, combiner), stats.metrics(train_cfg.prompts_per_step)
            batch, rollouts, scores, groups = draw.rows, draw.rollouts, draw.scores, draw.groups
            t_generated = t_start + timer["generation"]
            t_scored = time.perf_counter()

            # 4. policy update(s)
            adv = torch.as_tensor(advantages, dtype=torch.float32, device=device)
            if getattr(combiner, "token_level", False):  # REINFORCE++, process GRPO: the combiner's own (N, T) advantages over the tokens
                adv = torch.as_tensor(token_advantages(combiner, scores, groups, rollouts), dtype=torch.float32, device=device)
            lr = scheduler.get_last_lr()[0]
            update = _update(model, ref_model, optimizer, scheduler, rollouts, adv, train_cfg, bf16)
            t_end = time.perf_counter()

            # 5. log and checkpoint
            lengths = rollouts.lengths.float()
            error_shares, error_reasons = reward_errors(scores.names, scores.scores, scores.reasons, scores.failed)
            errors.report(step + 1, error_reasons, len(rollouts.texts))
            row = {"step": step + 1, **update, "learning_rate": lr,
                   **reward_metrics(scores.names, scores.weights, scores.scores, groups), **error_shares,
                   **advantage_metrics(advantages, scores.scores, groups, scores.weights, scores.names),
                   **{f"combiner/{key}": value for key, value in combiner.diagnostics().items()}, **timing_metrics(scores.seconds),
                   "completions/mean_length": float(lengths.mean()), "completions/min_length": float(lengths.min()),
                   "completions/max_length": float(lengths.max()), "completions/terminated": float(rollouts.terminated.float().mean()),
                   "completions/truncated": float((~rollouts.terminated).float().mean()),
                   "completions/masked_truncated": float((~rollouts.terminated).sum()) if train_cfg.mask_truncated_completions else 0.0,
                   **sampling_row, "prompts/drawn": float(cursor - cursor_before),
                   "time/step": t_end - t_start, "time/generation": t_generated - t_start, "time/scoring": t_scored - t_generated,
                   "time/update": t_end - t_scored, "tokens_per_second": float(lengths.sum()) / (t_end - t_start),
                   "peak_memory_mb": peak_memory_mb(device)}
            result.step = step + 1
            result.metrics.append(row)
            if (step + 1) % train_cfg.logging_steps == 0 or step + 1 == train_cfg.max_steps:
                trackers.log(row, step + 1)
                if train_cfg.log_completions:
                    prompts = [r[prompt_column] for r in batch for _ in range(G)]
                    trackers.log_table("completions", *sample_table(scores.names, prompts, rollouts.texts, scores.scores, scores.reasons,
                                                                    advantages, train_cfg.log_completions), step + 1)
            bar.update(row)
            if (step + 1 == train_cfg.max_steps or (train_cfg.save_steps and (step + 1) % train_cfg.save_steps == 0)
                    or stop.requested):
                result.checkpoint = save_checkpoint(out, step + 1, model=model, tokenizer=tokenizer, optimizer=optimizer,
                                                    scheduler=scheduler, combiner=combiner, train_config=train_cfg.model_dump(),
                                                    rewards=rewards, prompt_cursor=cursor)
            if stop.requested and step + 1 < train_cfg.max_steps:
                if (step + 1) % train_cfg.logging_steps:  # the last row before the stop is always logged
                    trackers.log(row, step + 1)
                result.stopped_by, result.exit_code = stop.signal_name, stop.exit_code
                print(f"{stop.signal_name}: stopped after step {step + 1}; checkpoint {result.checkpoint}; "
                      "run the same command with --resume to continue", file=sys.stderr)
                break
    from polyreward.runners.hacking import warn_hacking_signals

    warn_hacking_signals(result.metrics, {r.name: getattr(r, "type_name", "") for r in rewards})
    dropped = [row["step"] for row in result.metrics if row.get("updates_skipped")]
    if dropped:
        print(f"warning: {len(dropped)} step(s) had a gradient that was not finite and were not applied (steps "
              f"{', '.join(map(str, dropped[:10]))}{' ...' if len(dropped) > 10 else ''}): lower the learning rate, "
              "or train in float32 (bf16: false)", file=sys.stderr)
    return result
