"""Summary statistics of a scored batch, the same for the bundled trainer (one row per step) and for
``polyreward score --report-to`` (one row for the file): per-reward mean / std / share applicable / NaN share,
the weighted total, advantage statistics with the combiner diagnostics, seconds per reward, and a table of
sample completions with their scores and reasons.

Arrays in, dicts out (numpy only); the combiner helpers are imported inside the functions that use them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def sample_std(values: np.ndarray) -> float:
    """Bessel std of finite values, exactly 0 when they are constant by the combiners' rule (not ~1e-17)."""
    from polyreward.combiners import is_constant

    return 0.0 if is_constant(values) else float(np.std(values, ddof=1))


def reward_metrics(names: list[str], weights: np.ndarray, scores: np.ndarray, groups: np.ndarray) -> dict[str, float]:
    """Per-objective and total reward statistics of one generation batch (NaN = not applicable): :func:`summary_metrics`
    of the batch's :class:`~polyreward.runners.file_summary.FileSummary` (exact means and stds: the same bits
    however the rows are cut), with the share of groups whose total is constant.

    ``frac_reward_zero_std`` counts the groups whose weighted reward is constant by the combiners' rule
    (equal up to 1e-10 of its magnitude, so three rewards of 0.1 count although their float std is ~1e-17)."""
    from polyreward.combiners import GroupIndex, constant_groups
    from polyreward.runners.file_summary import FileSummary
    from polyreward.vocabulary import weighted_total

    summary = FileSummary.of(names, weights, scores)
    total = weighted_total(summary_scores(scores, len(names)), np.asarray(weights, dtype=np.float64))
    index = GroupIndex.from_ids(groups, len(total))
    flat = constant_groups(total, index) | (index.count(~np.isnan(total)) == 0)
    return summary_metrics(summary, float(np.mean(flat)) if index.n_groups else math.nan)


def summary_scores(scores: Any, k: int) -> np.ndarray:
    """``scores`` as an (N, K) float64 matrix (a 1-D array is one reward's column)."""
    scores = np.asarray(scores, dtype=np.float64)
    return scores.reshape(-1, k) if scores.ndim != 2 else scores


def summary_metrics(summary: Any, frac_reward_zero_std: float) -> dict[str, float]:
    """``reward/<name>/{mean,std,applicable,nan_share}``, ``reward``, ``reward_std`` and ``frac_reward_zero_std`` of a
    :class:`~polyreward.runners.file_summary.FileSummary` (a batch's, or a whole file's folded part by part). The
    total is the project's weighted total (:func:`polyreward.vocabulary.weighted_total`, NaN where no reward applies)."""
    row: dict[str, float] = {}
    for name in summary.names:
        column = summary.columns[name]
        row[f"reward/{name}/mean"] = column.mean() if column.valid else math.nan
        row[f"reward/{name}/std"] = column.sample_std() if column.valid > 1 else math.nan
        row[f"reward/{name}/applicable"] = column.valid / max(column.count, 1)
        row[f"reward/{name}/nan_share"] = 1.0 - row[f"reward/{name}/applicable"] if column.count else math.nan
    total = summary.columns["reward"]
    row["reward"] = total.mean() if total.finite else math.nan  # numpy's nanmean: infinities count
    row["reward_std"] = total.sample_std(finite_only=True) if total.finite > 1 else math.nan
    row["frac_reward_zero_std"] = frac_reward_zero_std
    return row


def advantage_metrics(advantages: np.ndarray, scores: np.ndarray, groups: np.ndarray, weights: np.ndarray,
                      names: list[str]) -> dict[str, float]:
    """Summary of the advantages plus :func:`polyreward.combiners.diagnostics.diagnose` (collapse, shares, sign flips)."""
    row = {
        "advantage/mean": float(advantages.mean()),
        "advantage/std": sample_std(advantages) if advantages.size > 1 else math.nan,
        "advantage/min": float(advantages.min()),
        "advantage/max": float(advantages.max()),
        "advantage/frac_zero": float(np.mean(advantages == 0)),
    }
    from polyreward.combiners.diagnostics import diagnose

    summary = diagnose(scores, groups, advantages, weights, names).summary
    for key in ("collapsed_group_fraction", "zero_signal_fraction", "mean_profiles", "mean_advantage_values"):
        row[f"advantage/{key}"] = summary[key]
    row.update({f"advantage/{key}": value for key, value in summary.items() if key.startswith(("share/", "sign_flip_rate/"))})
    return row


def timing_metrics(seconds: Mapping[str, float]) -> dict[str, float]:
    """``time/reward/<name>``: the seconds each reward took (wall clock in :meth:`~polyreward.pipeline.Scorer.score`)."""
    return {f"time/reward/{name}": float(value) for name, value in seconds.items()}


def sample_table(names: Sequence[str], prompts: Sequence[Any], completions: Sequence[Any], scores: np.ndarray,
                 reasons: Mapping[str, Sequence[str]], advantages: np.ndarray | None = None, limit: int = 8) -> tuple[list[str], list[list[Any]]]:
    """(columns, rows) of the first ``limit`` rollouts: prompt, completion, each reward's score and reason, the
    advantage when there is one. The table trackers log as ``completions``."""
    from polyreward.schema import completion_text, prompt_text

    columns = ["prompt", "completion"] + [c for name in names for c in (name, f"{name}_reason")]
    columns += ["advantage"] if advantages is not None else []
    rows = []
    for i in range(min(limit, len(completions))):
        row: list[Any] = [_text(prompt_text, prompts[i]), _text(completion_text, completions[i])]
        for k, name in enumerate(names):
            value = float(scores[i, k])
            row += [None if math.isnan(value) else value, (reasons.get(name) or [""] * (i + 1))[i] or None]
        if advantages is not None:
            row.append(float(advantages[i]))
        rows.append(row)
    return columns, rows


def _text(render, value: Any) -> str:
    try:
        return render(value)
    except (TypeError, ValueError):  # a cell of neither shape: shown as written
        return str(value)
