"""What a probe strategy gets: :class:`ProbeCase` (one row, the reward under attack, the genuine answer) and the
shared texts of the genuine answers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from polyreward.schema import is_missing, prompt_text

REASONING = "I work through each step of the problem carefully and check the result twice."
SUMMARY = "Checked against every condition."
JUNK = "zzzz zzzz zzzz"


@dataclass
class ProbeCase:
    """One probed row: its prompt, its columns, the reward under attack and the genuine completion."""

    prompt: Any
    row: Mapping[str, Any]
    reward: Any
    genuine: str = ""

    @property
    def prompt_text(self) -> str:
        try:
            return prompt_text(self.prompt)
        except (TypeError, ValueError):
            return str(self.prompt or "")

    def column(self, attribute: str) -> Any:
        """The row's cell of the column the reward names in ``attribute`` (``answer_column`` ...), or None."""
        name = getattr(self.reward, attribute, None)
        value = self.row.get(name) if isinstance(name, str) else None
        return None if is_missing(value) else value
