"""Convenience entry points: compute advantages in one call, or add an ``advantage`` column to a DataFrame of
scored rollouts (``polyreward advantages``). Both build the combiner with :func:`polyreward.config.build_combiner`
and the DataFrame path combines through :func:`polyreward.pipeline.combine_scores`, as every entry point does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from polyreward.combiner import Combiner
from polyreward.config import build_combiner  # the one way to build a combiner, re-exported for this module's users


def advantages(scores: Any, groups: Any, weights: Any = None, combiner: str | Combiner | Mapping[str, Any] = "gdpo", **params: Any) -> Any:
    """Advantages (N,) of scores (N, K) grouped by ``groups`` with the named combiner (default GDPO).

    >>> advantages([[1, 0], [0, 1], [1, 1], [0, 0]], ["a", "a", "b", "b"]).round(4).tolist()
    [0.0, 0.0, 1.2246, -1.2246]
    """
    return build_combiner(combiner, **params).combine(scores, groups, weights)


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
    from polyreward.pipeline import combine_scores

    if group_column not in frame.columns:
        raise ValueError(f"group column {group_column!r} not in the data; columns are: {', '.join(map(str, frame.columns))}")
    scores = reward_matrix(frame, list(reward_columns))
    result = frame.copy()
    result[column] = combine_scores(build_combiner(combiner), scores, frame[group_column].tolist(), weights, columns=frame)
    return result
