"""S-GRPO: serial-group decaying reward, so that the earliest correct exit of a reasoning path earns the most.

Source: Dai, Yang and Si 2025, "S-GRPO: Early Exit via Reinforcement Learning in Reasoning Models" (arXiv
2505.07686). RECONSTRUCTED from the paper's description (no public code of the authors' was available to compare
with); the serial group itself -- one full reasoning path, cut at several positions, each cut followed by an
answer -- is made by the rollout step, and this combiner reads each rollout's ``exit_position`` (the token index
where its reasoning was cut; any increasing measure of the cut works, since only the order counts).

In each group, the scored rollouts are taken in order of exit position (earliest first; equal positions keep row
order), and with c_i = 1 when the weighted total r_i = Σ_k w_k R_ik reaches ``correct_threshold``:

    N_right(i) = Σ_{j ≤ i in that order} c_j          (correct exits up to and including i's)
    s_i        = c_i · decay^-(N_right(i) - 1)        (1, 1/2, 1/4, ... for the 1st, 2nd, 3rd correct exit)
    A_i        = s_i − mean_{j ∈ g, scored}(s_j)       (no division by the group std)

So a wrong exit earns 0 and lowers nothing but the mean, an all-wrong group has A = 0, and an all-correct group
still pushes towards its earliest exit (S-GRPO's point: the reward decays along the serial group, not a constant).
A row where every reward is None is left out (A = 0); a lone rollout gets A = 0.

Bound: |A_i| <= 1 - 1/n for n scored rollouts of the group (s lies in [0, 1] and at most one s is 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import as_score_matrix, as_weights, check_positive, to_output
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts


class SGRPOCombiner(GroupedCombiner):
    """Decaying reward along the serial group's exits, minus the group mean; reads ``exit_position`` per row.

    Args:
        decay: each later correct exit earns 1/decay of the one before (the paper's 2)
        correct_threshold: a rollout is correct when its weighted total reaches this value
    """

    type_name = "s_grpo"
    exactness = "reconstructed"
    description = "S-GRPO: decaying reward 1, 1/2, 1/4 ... along a serial group's correct exits, minus the group mean (RECONSTRUCTED)"
    row_columns = ("exit_position",)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"decay": 3.0, "correct_threshold": 0.5})
    example_row_values = {"exit_position": (16, 64, 128, 512)}
    exactness_note = "reconstructed (S-GRPO's decaying reward on given exit positions), reads a per-row `exit_position`"
    summary = "correct exits earn 1, 1/2, 1/4 ... in order of exit position, wrong ones 0; minus the group mean"
    key_parameters = "`decay` 2, `correct_threshold` 1; `columns: {exit_position: <column>}`"
    bound_text = "1 − 1/n"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return False  # an all-correct group still favours its earliest exit

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # correctness is a threshold on the total

    @classmethod
    def ties_by_row_order(cls, params: dict) -> bool:
        return True  # equal exit positions are taken in row order

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return np.where(facts.scored, 1.0 - 1.0 / np.maximum(facts.n, 1.0), 0.0)

    def __init__(self, decay: float = 2.0, correct_threshold: float = 1.0) -> None:
        check_positive("decay", decay)
        if not decay >= 1.0:
            raise ValueError(f"decay must be >= 1 (later exits earn no more than earlier ones), got {decay!r}")
        if not np.isfinite(correct_threshold):
            raise ValueError(f"correct_threshold must be a finite number, got {correct_threshold!r}")
        self.decay = float(decay)
        self.correct_threshold = float(correct_threshold)

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, exit_position: Any) -> Any:
        """Advantages (N,); ``exit_position`` (N,) where each rollout's reasoning was cut (any increasing measure)."""
        matrix = as_score_matrix(scores)
        w = as_weights(weights, matrix.shape[1])
        index = GroupIndex.from_ids(groups, len(matrix))
        total = weighted_total(matrix, w)
        scored = ~np.isnan(total)
        positions = _positions(exit_position, len(matrix), scored)
        correct = scored & (total >= self.correct_threshold)
        codes = index.codes
        order = np.lexsort((np.arange(len(matrix)), np.where(scored, positions, np.inf), codes))  # group, position, row
        running = np.cumsum(correct[order])  # correct exits so far, over the whole batch in that order
        group_of = codes[order]
        starts = np.r_[0, np.flatnonzero(np.diff(group_of)) + 1]
        before_group = np.repeat(np.r_[0, running[starts[1:] - 1]], np.diff(np.r_[starts, len(order)]))
        rank = np.empty(len(matrix))
        rank[order] = running - before_group  # N_right(i) within the group
        earned = np.where(correct, self.decay ** -(np.maximum(rank, 1.0) - 1.0), 0.0)
        count = index.sum(scored.astype(float))
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = index.sum(np.where(scored, earned, 0.0)) / count
        advantages = np.where(scored, earned - index.broadcast(mean), 0.0)
        return to_output(np.where(np.isnan(advantages), 0.0, advantages), scores)


def _positions(values: Any, n: int, scored: np.ndarray) -> np.ndarray:
    """(N,) float64 exit positions; a one-line ValueError unless every scored row has a finite one."""
    raw = values.detach().cpu().numpy() if hasattr(values, "detach") else values
    try:
        out = np.asarray([np.nan if v is None else v for v in raw] if not isinstance(raw, np.ndarray) else raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("exit_position must hold one number per rollout: where its reasoning was cut") from None
    if out.shape != (n,):
        raise ValueError(f"exit_position must hold {n} values (one per rollout), got shape {out.shape}")
    bad = scored & ~np.isfinite(out)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"exit_position must be a finite number for every scored rollout; row {row} has {float(out[row])}")
    return out
