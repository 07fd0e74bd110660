"""Per-step metrics: one JSON object per line in ``<output_dir>/metrics.jsonl`` (and in the trackers of
``train.report_to``: tensorboard, wandb, trackio — :mod:`polyreward.runners.trackers`), and a progress bar.

Every row has a ``step`` column (what ``polyreward report`` plots against) and:

* ``reward/<name>/mean`` and ``/std`` per objective (NaN-aware: only rollouts where it applies), ``reward``
  and ``reward_std`` (the weighted sum, TRL's convention) and ``frac_reward_zero_std`` (groups whose
  weighted reward is constant, which give no policy gradient);
* ``advantage/*``: mean, std, min, max, fraction exactly zero, and the diagnostics of
  :mod:`polyreward.combiners.diagnostics` (fraction of groups where distinct reward profiles collapse to
  one advantage, zero-signal groups, each objective's share of the advantage, sign-flip rates);
* ``loss``, ``kl``, ``entropy``, ``clip_ratio/low|high``, ``grad_norm``, ``updates_skipped`` (updates dropped because their
  gradient norm was not finite), ``learning_rate``;
* ``completions/mean_length|min_length|max_length|terminated``, ``completions/truncated`` (share without EOS) and
  ``completions/masked_truncated`` (rollouts given zero loss weight by ``mask_truncated_completions``);
* ``prompts/drawn`` (prompts sampled this step) and, with ``dynamic_sampling``, ``dynamic_sampling/rounds``,
  ``/refill_rounds``, ``/dropped_groups``, ``/padded_groups``, ``/surplus_groups`` and ``/kept_signal_fraction``
  (trainer/dynamic_sampling.py);
* ``reward/<name>/applicable``, ``/nan_share`` and ``/errors`` (shares of the rollouts);
* ``time/reward/<name>``: seconds each reward took in the step's scoring (find the slow one);
* ``time/step|generation|scoring|update`` (seconds), ``tokens_per_second`` (generated completion tokens
  per second of the whole step) and ``peak_memory_mb`` (the step's peak: CUDA max allocated; on CPU the process's peak RSS, reset each step on Linux).
"""

from __future__ import annotations

import json
import math
import resource
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import torch

from polyreward.runners.run_metrics import advantage_metrics, reward_metrics  # noqa: F401 (the trainer's names for them)


def reward_errors(names: list[str], scores: np.ndarray, reasons: dict[str, list[str]],
                  failed_mask: np.ndarray | None = None) -> tuple[dict[str, float], dict[str, Counter]]:
    """Share of rollouts each reward failed on as ``reward/<name>/errors``, and a count of those reasons per reward.
    ``failed_mask`` is the scorer's ``ScoredBatch.failed`` (the one failure count); without it a NaN with an
    ``error: ...`` / ``timeout`` reason counts (not a mere "not applicable")."""
    row: dict[str, float] = {}
    counts: dict[str, Counter] = {}
    for k, name in enumerate(names):
        why = reasons.get(name, [])
        if failed_mask is not None:
            failed = Counter(why[i] if i < len(why) and why[i] else "error: failed" for i in np.flatnonzero(failed_mask[:, k]))
        else:
            failed = Counter(reason for value, reason in zip(scores[:, k], why)
                             if math.isnan(value) and reason and reason.startswith(("error", "timeout")))
        row[f"reward/{name}/errors"] = sum(failed.values()) / max(scores.shape[0], 1)
        if failed:
            counts[name] = failed
    return row, counts


class ErrorReporter:
    """Prints each new reason a reward failed for (to stderr, at most ``limit`` lines per run)."""

    def __init__(self, limit: int = 20) -> None:
        self.seen: set[tuple[str, str]] = set()
        self.limit, self.printed = limit, 0

    def report(self, step: int, counts: dict[str, Counter], rollouts: int) -> None:
        for name, reasons in counts.items():
            for reason, count in reasons.most_common():
                if (name, reason) in self.seen or self.printed > self.limit:
                    continue
                self.seen.add((name, reason))
                self.printed += 1
                if self.printed > self.limit:
                    print(f"step {step}: further reward errors are not printed (see reward/<name>/errors in metrics.jsonl)",
                          file=sys.stderr)
                    return
                print(f"step {step}: reward {name!r} gave no score for {count}/{rollouts} rollouts: {reason}", file=sys.stderr)


def reset_peak_memory(device: torch.device) -> None:
    """Start a new peak: CUDA's allocator statistics, or on Linux the process's RSS high-water mark
    (writing 5 to /proc/self/clear_refs resets VmHWM); elsewhere the CPU peak is the process's lifetime peak."""
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
        return
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        pass


def peak_memory_mb(device: torch.device) -> float:
    """Peak since the last :func:`reset_peak_memory`: CUDA max allocated, or the process's peak RSS on CPU."""
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device) / 2**20
    try:
        with open("/proc/self/status") as handle:
            return next(int(line.split()[1]) for line in handle if line.startswith("VmHWM:")) / 2**10
    except (OSError, StopIteration, ValueError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
        return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a ``metrics.jsonl`` file (None where a value was not finite)."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


class ProgressBar:
    """A rich progress bar with the latest reward and loss on a terminal; elsewhere (a log file, CI, a pipe) or
    with ``enabled=False``, one plain line per step instead (:func:`step_line`), flushed at once."""

    def __init__(self, total: int, start: int, enabled: bool = True) -> None:
        self.total = total
        self.enabled = enabled and sys.stdout.isatty()
        if not self.enabled:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self.progress = Progress(
            TextColumn("[bold]train"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
            TextColumn("{task.fields[status]}"),
        )
        self.task = self.progress.add_task("train", total=total, completed=start, status="")

    def __enter__(self) -> ProgressBar:
        if self.enabled:
            self.progress.start()
        return self

    def update(self, row: dict[str, Any]) -> None:
        if self.enabled:
            status = f"reward {row.get('reward', math.nan):.3f}  loss {row.get('loss', math.nan):.4f}  len {row.get('completions/mean_length', 0):.0f}"
            self.progress.update(self.task, advance=1, status=status)
        else:
            print(step_line(row, self.total), flush=True)

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.progress.stop()


def step_line(row: dict[str, Any], total: int) -> str:
    """``step 3/20  reward 0.412  accuracy 0.375  brevity -0.06  loss 0.0213  len 11.2  6.1s``."""
    objectives = "  ".join(f"{key[len('reward/'):-len('/mean')]} {value:.3g}" for key, value in row.items()
                           if key.startswith("reward/") and key.endswith("/mean"))
    return (f"step {row.get('step')}/{total}  reward {row.get('reward', math.nan):.3f}  {objectives}  "
            f"loss {row.get('loss', math.nan):.4g}  len {row.get('completions/mean_length', math.nan):.1f}  "
            f"{row.get('time/step', math.nan):.1f}s").replace("    ", "  ")
