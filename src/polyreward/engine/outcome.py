"""The result of one item run by the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """Result of one item: ``value`` when ``ok``; else ``error`` says why (``"timeout"`` for a kill)."""

    ok: bool
    value: Any = None
    error: str = ""
    cpu_seconds: float | None = field(default=None, compare=False)  # the worker's CPU time on the item, when known

    @property
    def timed_out(self) -> bool:
        return self.error == "timeout"
