"""Several acceptable golds for one rollout: which of them decides the score.

A gold cell holding a list (tuple, 1-d array) lists accepted alternatives — open-instruct issue #596 and rLLM's
``ground_truth`` lists: ``["1/2", "0.5"]``, ``["B", "D"]``. Each alternative is checked on its own and ``match``
says which verdict stands::

    match: any   score = max_j s_j   the first best gold decides (the default)
    match: all   score = min_j s_j   the first worst gold decides (every gold must be met)

Unusable alternatives (None, blank text) are dropped; alternatives whose verdict has no score (``None``: the
gold cannot be read) never decide while another one has a score; a NaN (a timeout) ranks below every number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from polyreward.schema import is_missing

MATCHES = ("any", "all")


def alternatives(ref: Any) -> list[Any] | None:
    """The usable alternatives of a gold given as a list, tuple or 1-d array; None for a single gold."""
    if isinstance(ref, (list, tuple)):
        options = list(ref)
    elif not isinstance(ref, (str, bytes)) and hasattr(ref, "tolist") and getattr(ref, "ndim", 0) == 1:
        options = list(ref.tolist())
    else:
        return None
    return [o for o in options if not (is_missing(o) or (isinstance(o, str) and not o.strip()))]


def deciding(scores: Sequence[float | None], match: str = "any") -> int | None:
    """Index of the alternative whose score stands under ``match`` (see the module docstring); None if none has one."""
    if match not in MATCHES:
        raise ValueError(f"match must be one of {', '.join(MATCHES)}, got {match!r}")
    ranked = [(-math.inf if math.isnan(s) else s, j) for j, s in enumerate(scores) if s is not None]
    if not ranked:
        return None
    best = max(r for r, _ in ranked) if match == "any" else min(r for r, _ in ranked)
    return next(j for r, j in ranked if r == best)


def explain(index: int | None, golds: Sequence[Any], score: float | None, reason: str, match: str = "any") -> str:
    """The reason a multi-gold score gets: which gold decided (1-based, as a reader counts) and its verdict's reason."""
    if index is None:
        return f"none of the {len(golds)} golds could be read" + (f": {reason}" if reason else "")
    which = f"gold {index + 1} of {len(golds)} ({str(golds[index])[:60]!r})"
    if match == "all":
        return f"{which} is the weakest: {reason}"
    if score is not None and not math.isnan(score) and score > 0:
        return f"{which} matched: {reason}"
    return f"no gold matched; {which}: {reason}"


def score_golds(golds: Sequence[Any], check: Callable[[Any], tuple[float | None, str, Mapping[str, Any]]],
                match: str = "any") -> tuple[float | None, str, dict[str, Any]]:
    """(score, reason, details) of one rollout against several golds. ``check(gold) -> (score, reason, details)``
    runs for each; the deciding one (:func:`deciding`) gives the score and its details, plus ``gold_scores`` (one
    per gold) and ``gold_index`` (0-based, None when no gold could be read)."""
    results = [check(gold) for gold in golds]
    scores = [score for score, _, _ in results]
    index = deciding(scores, match)
    score, reason, details = results[index] if index is not None else (None, results[0][1] if results else "", {})
    return score, explain(index, golds, score, reason, match), {**details, "gold_scores": scores, "gold_index": index}
