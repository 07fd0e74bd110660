"""Small rewards for tests of the core (importable as ``toy_rewards:...`` from configs)."""

from __future__ import annotations

import math
import time

from polyreward.reward import RolloutReward, Scored


class ContainsWord(RolloutReward):
    """1.0 when the completion contains ``word``, else 0.0; None when the row's ``skip`` column is truthy."""

    type_name = "contains_word"
    description = "test reward"

    def __init__(self, name=None, weight=1.0, word: str = "yes", delay: float = 0.0):
        super().__init__(name, weight)
        if not word:
            raise ValueError("word must be a non-empty string")
        self.word = word
        self.delay = delay

    def score_rollout(self, completion, row):
        if self.delay:
            time.sleep(self.delay)
        if row.get("skip") in (True, 1, "True", "true", "1"):
            return Scored(None, "not applicable")
        hit = self.word in completion
        return Scored(float(hit), "" if hit else f"no {self.word!r}", {"length": float(len(completion))})


class Explodes(RolloutReward):
    """Raises on completions containing 'boom'."""

    type_name = "explodes"

    def score_rollout(self, completion, row):
        if "boom" in completion:
            raise RuntimeError("boom")
        return Scored(0.5)


class AnswerMatch(RolloutReward):
    type_name = "answer_match"

    def __init__(self, name=None, weight=1.0, answer_column: str = "answer"):
        super().__init__(name, weight)
        self.answer_column = answer_column

    @property
    def columns(self):
        return (self.answer_column,)

    def score_rollout(self, completion, row):
        gold = row[self.answer_column]
        if gold is None:
            return Scored(None, "no reference")
        return Scored(float(completion.strip() == str(gold).strip()))


def nan():
    return math.nan


ERRORS = {"KeyError": KeyError, "TypeError": TypeError, "ValueError": ValueError, "RecursionError": RecursionError,
          "MemoryError": MemoryError, "RuntimeError": RuntimeError}


class Raises(RolloutReward):
    """Raises ``error`` (an exception type's name) on completions containing 'boom'; 0.25 otherwise."""

    type_name = "raises"

    def __init__(self, name=None, weight=1.0, error: str = "KeyError"):
        super().__init__(name, weight)
        self.error = ERRORS[error]

    def score_rollout(self, completion, row):
        if "boom" in completion:
            raise self.error("bad rollout")
        return Scored(0.25)
