"""The base class of the numpy combiners (:class:`GroupedCombiner`): validate and convert the inputs, index the
groups, compute the method's advantages at an overflow-safe scale, and give them back in the input's container.

Conventions shared by all combiners (tested for every method):
- ``scores`` is (N, K) (a 1-D array is K = 1); NaN = "not applicable" and is left out of every statistic;
  ``inf`` is an error (a reward must say "not applicable" with NaN/None, not with infinity).
- ``weights`` has length K (default all 1); anything else is an error.
- numpy in -> numpy out (same float dtype, float64 for non-float input); a torch tensor in -> a tensor out
  on the same device and dtype (computed in float64 numpy on the CPU and moved back).
- a group is "constant" by the one rule of :mod:`polyreward.combiners.group_stats`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiner import Combiner
from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.inputs import as_score_matrix, as_token_counts, as_weights, forget_extremes, to_output
from polyreward.combiners.magnitudes import scaled_advantages
from polyreward.vocabulary import weighted_total  # noqa: F401 -- the one weighted total (core), as polyreward.combiners.weighted_total


class GroupedCombiner(Combiner):
    """A combiner implemented on float64 numpy arrays; subclasses implement :meth:`advantages_np`.

    ``combine`` validates, converts (numpy/torch/lists), builds the group index, calls
    ``advantages_np`` and converts back. Rows the method cannot score get 0 (never NaN).
    """

    # True for a combiner whose ``advantages_np`` takes float32 scores as they come (an (N, K) float32 array) and widens
    # what it needs to float64 itself (e.g. one block at a time), and returns a new array of its own (its NaN are set
    # to 0 in place); the others always get a float64 matrix
    reads_float32 = False

    def combine(self, scores: Any, groups: Any, weights: Any = None) -> Any:
        matrix = as_score_matrix(scores, keep_float32=self.reads_float32, remember_extremes=True)
        try:
            w = as_weights(weights, matrix.shape[1])
            index = GroupIndex.from_ids(groups, matrix.shape[0])
            result = self.advantages_np(matrix, index, w)
        finally:
            forget_extremes()
        if self.reads_float32:
            np.copyto(result, 0.0, where=np.isnan(result))
        else:
            result = np.where(np.isnan(result), 0.0, result)
        return to_output(result, scores)

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        """``_advantages`` at the overflow-safe scale the class's ``reward_scale`` allows, checked finite
        (:func:`~polyreward.combiners.magnitudes.scaled_advantages`); override it to take over the whole computation."""
        return scaled_advantages(self, self._advantages, scores, index, weights)

    def _advantages(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        """The method's advantages (N,) on float64 arrays: NaN cells are "not applicable", NaN out means A = 0."""
        raise NotImplementedError

    def combine_with_lengths(self, scores: Any, groups: Any, weights: Any, lengths: Any) -> Any:
        """``combine`` for a method whose ``advantages_np`` also takes ``lengths=`` (N,) token counts (None: every
        rollout counts as one token); validation, NaN -> 0 and numpy/torch dispatch as :meth:`combine`."""
        matrix = as_score_matrix(scores)
        w = as_weights(weights, matrix.shape[1])
        index = GroupIndex.from_ids(groups, matrix.shape[0])
        counts = None if lengths is None else as_token_counts(lengths, matrix.shape[0])
        result = self.advantages_np(matrix, index, w, lengths=counts)
        return to_output(np.where(np.isnan(result), 0.0, result), scores)

    def _params(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self._params().items())
        return f"{type(self).__name__}({params})"
