"""``think_format``: 1.0 when the completion is ``<think>reasoning</think>answer``, else 0.0.

TRL ``trl.rewards.think_format_reward`` (exact)::

    r = 1 if re.match(r"^<think>(?!.*<think>)(.*?)</think>.*$", completion, re.DOTALL) else 0

i.e. the completion starts with ``<think>``, holds no second ``<think>``, and closes it. Options:

* ``prefilled_think: true`` -- the chat template already put ``<think>`` in the prompt (Qwen3,
  DeepSeek-R1 templates; TRL PR #7141), so the completion must *not* start with it:
  ``^(?!.*<think>)(.*?)</think>.*$``.
* ``require_answer: true`` -- after ``</think>`` there must be exactly one ``<answer>...</answer>``
  block and nothing but whitespace after it. Anchored with ``\\Z`` and no ``re.MULTILINE``, so open-r1's
  hole (``MULTILINE`` lets ``$`` match at any line end, accepting trailing junk and a second block)
  is closed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from polyreward.reward import RolloutReward, Scored

_THINK = r"(?!.*<think>)(.*?)</think>"
_ANSWER = r"\s*<answer>(?!.*<answer>)(.*?)</answer>\s*\Z"


class ThinkFormat(RolloutReward):
    """``<think>...</think>`` format check (TRL semantics), optionally prefilled and/or with ``<answer>``."""

    type_name = "think_format"
    exactness = "exact"
    description = "TRL think_format_reward: <think>...</think> then the answer (prefilled / <answer> options)"
    score_range = (0.0, 1.0)

    def __init__(self, name: str | None = None, weight: float = 1.0, prefilled_think: bool = False, require_answer: bool = False) -> None:
        super().__init__(name, weight)
        for key, value in (("prefilled_think", prefilled_think), ("require_answer", require_answer)):
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, got {value!r}")
        self.prefilled_think = prefilled_think
        self.require_answer = require_answer
        pattern = ("^" if prefilled_think else "^<think>") + _THINK + (_ANSWER if require_answer else ".*$")
        self._pattern = re.compile(pattern, re.DOTALL)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        if self._pattern.match(completion):
            return Scored(1.0, "format ok")
        opening = "" if self.prefilled_think else "<think>"
        if opening and not completion.startswith(opening):
            return Scored(0.0, "does not start with <think>")
        if "</think>" not in completion:
            return Scored(0.0, "no </think>")
        if completion.count("<think>") > (0 if self.prefilled_think else 1):
            return Scored(0.0, "more than one <think>")
        return Scored(0.0, "no single <answer>...</answer> block at the end" if self.require_answer else "format mismatch")
