"""The base of combiners whose advantages read each rollout's token count (OPO's length-weighted baseline, DGPO's
token ratio, REINFORCE++-baseline's token-weighted whitening).

A subclass implements ``_advantages(scores, index, weights, lengths)``; this class declares that every entry point
must hand the lengths (:attr:`uses_lengths`), takes them as ``combine(..., lengths=)`` (validated as token counts,
None: every rollout counts one token) and computes at the safe scale its ``reward_scale`` allows
(:func:`~polyreward.combiners.magnitudes.scaled_advantages`).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.magnitudes import scaled_advantages


class LengthWeightedCombiner(GroupedCombiner):
    """A grouped combiner that reads (N,) token counts; subclasses implement :meth:`_advantages`."""

    @property
    def uses_lengths(self) -> bool:
        """The method weighs rollouts by their token counts: entry points must hand the lengths."""
        return True

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, lengths: Any = None) -> Any:
        """Advantages (N,); ``lengths`` (N,) response token counts."""
        return self.combine_with_lengths(scores, groups, weights, lengths)

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray,
                      lengths: np.ndarray | None = None) -> np.ndarray:
        return scaled_advantages(self, functools.partial(self._advantages, lengths=lengths), scores, index, weights)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray,
                    lengths: np.ndarray | None) -> np.ndarray:
        raise NotImplementedError
