"""Convenience entry points: compute advantages in one call, or add an ``advantage`` column to a DataFrame of
scored rollouts (``polyreward advantages``). Both build the combiner with :func:`polyreward.registry.build_combiner`
and combine through :func:`polyreward.combiner.combine_scores`, the one combiner call the scorer makes too (the
same group identity, token lengths and per-row columns). Only the vocabulary layer is imported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from polyreward.combiner import Combiner, combine_scores
from polyreward.registry import build_combiner  # the one way to build a combiner, re-exported for this module's users


def advantages(scores: Any, groups: Any, weights: Any = None, combiner: str | Combiner | Mapping[str, Any] = "gdpo", *,
               lengths: Sequence[float] | None = None, columns: Mapping[str, Sequence[Any]] | None = None, **params: Any) -> Any:
    """Advantages (N,) of scores (N, K) grouped by ``groups`` with the named combiner (default GDPO).

    The call every entry point makes (:func:`~polyreward.combiner.combine_scores`): group ids by
    :func:`~polyreward.vocabulary.group_key` (``1``, ``1.0`` and ``"1"`` are one group), ``lengths`` (token counts,
    GDPO ``batch_norm: whiten``) and ``columns`` (per-row columns, e.g. DRPO's ``domain``) handed on; NaN
    advantages (rows with no reward) are 0. A torch tensor of scores gives a tensor back.

    >>> advantages([[1, 0], [0, 1], [1, 1], [0, 0]], ["a", "a", "b", "b"]).round(4).tolist()
    [0.0, 0.0, 1.2246, -1.2246]
    """
    built = build_combiner(combiner, **params)
    result = combine_scores(built, _numpy(scores), groups, _numpy(weights), lengths=lengths, columns=columns)
    if hasattr(scores, "detach"):  # torch in, torch out (same device and dtype)
        import torch

        return torch.as_tensor(result, dtype=scores.dtype, device=scores.device)
    return result


def _numpy(values: Any) -> Any:
    return values.detach().cpu().double().numpy() if hasattr(values, "detach") else values


def reward_matrix(frame, reward_columns: Sequence[str]) -> np.ndarray:
    """(N, K) float matrix of the named columns: None/empty -> NaN; text numbers (CSV) are parsed."""
    import pandas as pd

    missing = [c for c in reward_columns if c not in frame.columns]
    if missing:
        raise ValueError(f"reward column(s) {missing} not in the data; columns are: {', '.join(map(str, frame.columns))}")
    columns = []
    for name in reward_columns:
        values = frame[name]
        if values.dtype == object or pd.api.types.is_string_dtype(values):
            values = values.map(lambda v: None if v is None or (isinstance(v, str) and not v.strip()) else v)
        try:
            columns.append(pd.to_numeric(values, errors="raise").to_numpy(dtype=np.float64, na_value=np.nan))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"reward column {name!r} is not numeric: {exc}") from None
    if not columns:
        raise ValueError("no reward columns given")
    return np.column_stack(columns)


def add_advantages(
    frame,
    reward_columns: Sequence[str],
    weights: Any = None,
    group_column: str = "prompt_id",
    combiner: str | Combiner | Mapping[str, Any] = "gdpo",
    column: str = "advantage",
):
    """A copy of ``frame`` with an ``advantage`` column computed from ``reward_columns`` within ``group_column``.

    Rows keep their order; groups may be in any order. Missing rewards (None/NaN/empty cells) are "not
    applicable"; rows with no reward at all get advantage 0. A combiner with ``row_columns`` (DRPO's domain)
    reads them from the frame's columns (:func:`polyreward.combiner.row_arrays`).
    """
    if group_column not in frame.columns:
        raise ValueError(f"group column {group_column!r} not in the data; columns are: {', '.join(map(str, frame.columns))}")
    scores = reward_matrix(frame, list(reward_columns))
    result = frame.copy()
    result[column] = combine_scores(build_combiner(combiner), scores, frame[group_column].tolist(), weights, columns=frame)
    return result
