"""The Combiner protocol: (N, K) scores + group ids (+ weights) -> (N,) advantages.

Combiners are vectorised and array-in, array-out: numpy in gives numpy out; a torch tensor in gives a
tensor on the same device and dtype. NaN in ``scores`` means "not applicable" and is left out of the
statistics. Methods that carry statistics across steps keep them in an explicit state object exposed
through :meth:`Combiner.state_dict` / :meth:`Combiner.load_state_dict`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from polyreward.reward import Exactness


class Combiner:
    """Base class of every advantage combiner.

    Class attributes:
        type_name: registry key (``combiner: {type: gdpo}`` in YAML, ``--combiner gdpo`` on the CLI).
        exactness: ``"exact"`` or ``"reconstructed"`` (shown by ``polyreward list``).
        description: one line for ``polyreward list``.
    """

    type_name: ClassVar[str] = ""
    exactness: ClassVar[Exactness] = "exact"
    description: ClassVar[str] = ""

    def combine(self, scores: Any, groups: Any, weights: Any = None) -> Any:
        """Advantages (N,) for scores (N, K) of rollouts in ``groups`` (N hashable ids), weights (K,)."""
        raise NotImplementedError

    def __call__(self, scores: Any, groups: Any, weights: Any = None) -> Any:
        return self.combine(scores, groups, weights)

    def state_dict(self) -> dict[str, Any]:
        """Statistics carried across steps (empty for stateless methods)."""
        return {}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state:
            raise ValueError(f"{type(self).__name__} is stateless but got state keys {sorted(state)}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
