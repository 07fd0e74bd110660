"""polyreward.combiners: (N, K) reward scores + group ids -> (N,) advantages.

Every class is imported on first use (``from polyreward.combiners import GDPOCombiner``), so
``import polyreward.combiners`` stays light. ``advantages(scores, groups, combiner="gdpo")`` is the
one-call convenience; :func:`polyreward.combiners.apply.add_advantages` works on a DataFrame and
:func:`polyreward.combiners.diagnostics.diagnose` explains a combiner's output.
"""

from __future__ import annotations

import importlib
from typing import Any

from polyreward.registry import BUILTIN_COMBINERS

# class name -> module: every built-in combiner as the registry indexes it (declared once), plus the helpers
_EXPORTS: dict[str, str] = {
    **{spec.partition(":")[2]: spec.partition(":")[0].rpartition(".")[2] for spec in BUILTIN_COMBINERS.values()},
    "RankCombiner": "gopo",  # earlier names of GOPOCombiner and G2RPOCombiner
    "GaussianQuantileCombiner": "g2rpo",
    "GroupIndex": "group_index",
    "GroupedCombiner": "grouped",  # the base of a new combiner (docs/extending.md), with the group statistics it uses
    "group_moments": "group_stats",
    "weighted_total": "grouped",
    "BatchFacts": "bounds",        # the quantities a combiner states its bound on |A| in
    "z_bound": "bounds",
    "is_constant": "group_stats",  # the one "constant group" rule (range within float noise of the values' scale)
    "constant_groups": "group_stats",
    "advantages": "apply",
    "add_advantages": "apply",
    "build_combiner": "apply",
    "diagnose": "diagnostics",
    "Diagnostics": "diagnostics",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'polyreward.combiners' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"polyreward.combiners.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
