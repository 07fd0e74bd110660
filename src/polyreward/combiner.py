"""The Combiner protocol: (N, K) scores + group ids (+ weights) -> (N,) advantages.

Combiners are vectorised and array-in, array-out: numpy in gives numpy out; a torch tensor in gives a
tensor on the same device and dtype. NaN in ``scores`` means "not applicable" and is left out of the
statistics. Methods that carry statistics across steps keep them in an explicit state object exposed
through :meth:`Combiner.state_dict` / :meth:`Combiner.load_state_dict`.

A combiner that needs per-row metadata besides the group ids (DRPO's domain label) names it in
``row_columns``; ``combine`` then takes each as a keyword argument (one value per row), and a config maps
each name to a data column under ``columns:`` (``columns: {domain: source}``; default: the same name).
Every other combiner keeps the three-argument ``combine``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from polyreward.reward import Exactness


class Combiner:
    """Base class of every advantage combiner.

    Class attributes:
        type_name: registry key (``combiner: {type: gdpo}`` in YAML, ``--combiner gdpo`` on the CLI).
        exactness: ``"exact"`` or ``"reconstructed"`` (shown by ``polyreward list``).
        description: one line for ``polyreward list``.
        row_columns: names of the per-row arrays ``combine`` needs as keyword arguments (``("domain",)``).
    """

    type_name: ClassVar[str] = ""
    exactness: ClassVar[Exactness] = "exact"
    description: ClassVar[str] = ""
    row_columns: ClassVar[tuple[str, ...]] = ()
    # the data column of each row_columns name; a config sets it from ``columns:`` (default: the same name)
    row_sources: Mapping[str, str] = MappingProxyType({})

    def combine(self, scores: Any, groups: Any, weights: Any = None) -> Any:
        """Advantages (N,) for scores (N, K) of rollouts in ``groups`` (N hashable ids), weights (K,)."""
        raise NotImplementedError

    def __call__(self, scores: Any, groups: Any, weights: Any = None, **rows: Any) -> Any:
        return self.combine(scores, groups, weights, **rows)

    def row_source_columns(self) -> tuple[str, ...]:
        """The data columns the per-row arrays come from (``row_sources``, else the ``row_columns`` names)."""
        return tuple(self.row_sources.get(name, name) for name in self.row_columns)

    def diagnostics(self) -> dict[str, float]:
        """Numbers about the last ``combine`` call worth logging (DRPO: per-domain advantage mass); {} by default."""
        return {}

    def state_dict(self) -> dict[str, Any]:
        """Statistics carried across steps (empty for stateless methods)."""
        return {}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state:
            raise ValueError(f"{type(self).__name__} is stateless but got state keys {sorted(state)}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def row_arrays(combiner: Combiner, columns: Mapping[str, Any], mapping: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The keyword arrays ``combiner.combine`` needs: each name of ``row_columns`` read from the data column
    ``mapping`` (default: ``combiner.row_sources``) gives it, else the column of the same name; ``{}`` for the
    usual combiner. A missing column is a ValueError naming it, the combiner and the columns there are."""
    mapping = combiner.row_sources if mapping is None else mapping
    out = {}
    for name in combiner.row_columns:
        column = mapping.get(name, name)
        if column not in columns:
            raise ValueError(
                f"combiner {combiner.type_name or type(combiner).__name__} needs a per-row {name!r} column; {column!r} is not in the "
                f"data (columns: {', '.join(map(str, columns))}); map it in the config with `columns: {{{name}: <column>}}`"
            )
        out[name] = columns[column]
    return out
