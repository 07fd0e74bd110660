"""Small deterministic rewards for the TRL/verl integration tests.

A separate light module (no torch/trl imports) so the engine's worker processes can unpickle these
classes quickly when a test runs a reward in isolation. Referenced from YAML as
``integration_rewards:ClassName`` (the tests directory is on ``sys.path`` under pytest).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from polyreward.reward import Reward, RewardOutput, RolloutReward, Scored
from polyreward.schema import completion_messages


class LengthMod3(RolloutReward):
    """(len(text) mod 3) / 2: varied values in {0, 0.5, 1} for random completions."""

    type_name = "length_mod3"

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        return Scored((len(completion) % 3) / 2, f"len={len(completion)}", {"length": float(len(completion))})


class VowelShare(RolloutReward):
    """Share of vowels among letters; None (not applicable) for texts whose length is a multiple of 4."""

    type_name = "vowel_share"

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        if len(completion) % 4 == 0:
            return Scored(None, "length multiple of 4: not applicable")
        letters = [c for c in completion.lower() if c.isalpha()]
        if not letters:
            return Scored(0.0, "no letters")
        return Scored(sum(c in "aeiou" for c in letters) / len(letters), "vowels")


class BatchCounter(Reward):
    """Scores every rollout of a batch with the number of batches scored before it: a stateful reward whose
    state (``{"batches": n}``) a resumed run must restore to continue exactly."""

    type_name = "batch_counter"
    score_range = (0.0, math.inf)

    def __init__(self, name: str | None = None, weight: float = 1.0) -> None:
        super().__init__(name, weight)
        self.batches = 0

    def evaluate(self, prompts, completions, **columns) -> RewardOutput:
        seen, self.batches = self.batches, self.batches + 1
        return RewardOutput([float(seen)] * len(completions), [f"batch {seen}"] * len(completions))

    def state_dict(self) -> dict[str, Any]:
        return {"batches": self.batches}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.batches = int(state.get("batches", 0))


class AnswerMention(RolloutReward):
    """1.0 when the completion contains the ``answer`` column's text, else 0.0."""

    type_name = "answer_mention"

    def __init__(self, name: str | None = None, weight: float = 1.0, answer_column: str = "answer") -> None:
        super().__init__(name, weight)
        self.answer_column = answer_column

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        answer = str(row[self.answer_column])
        return Scored(float(answer in completion), "found" if answer in completion else "missing")


class ToolMessages(RolloutReward):
    """Number of ``role == "tool"`` messages plus ``tool_calls`` entries of the completion."""

    type_name = "tool_messages"
    score_range = (0.0, math.inf)

    def text_of(self, completion: Any) -> Any:
        return completion  # keep the message list: this reward counts tool traffic

    def score_rollout(self, completion: Any, row: Mapping[str, Any]) -> Scored:
        messages = completion_messages(completion)
        tools = sum(m.get("role") == "tool" for m in messages)
        calls = sum(len(m.get("tool_calls") or []) for m in messages)
        return Scored(float(tools + calls), f"{tools} tool messages, {calls} tool calls")


class Exploding(RolloutReward):
    """Raises on every batch (through ``evaluate``), to test the failure path."""

    type_name = "exploding"

    def evaluate(self, prompts, completions, **columns):
        raise RuntimeError("judge unreachable")


class Sleepy(RolloutReward):
    """Sleeps ``seconds`` per batch before scoring 1.0: a hang when run with a shorter timeout."""

    type_name = "sleepy"

    def __init__(self, name: str | None = None, weight: float = 1.0, seconds: float = 30.0) -> None:
        super().__init__(name, weight)
        self.seconds = seconds

    def evaluate(self, prompts, completions, **columns):
        time.sleep(self.seconds)
        return super().evaluate(prompts, completions, **columns)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        return Scored(1.0, "slept")


def _nap(seconds: float) -> float:
    """Hangs the way a runaway check does: on the CPU (the pool's budget is CPU time; a sleep only meets its wall cap)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return 1.0


class EngineSleepy(RolloutReward):
    """Runs its (hanging) check through the scoring engine with a hard timeout, as math rewards do: it takes the
    config's ``engine`` and its own ``timeout`` becomes that engine's budget."""

    type_name = "engine_sleepy"

    def __init__(self, name: str | None = None, weight: float = 1.0, seconds: float = 60.0, timeout: float = 1.0,
                 engine: Any = None) -> None:
        from polyreward.engine import Engine

        super().__init__(name, weight)
        self.seconds, self.engine = seconds, Engine.of(engine).with_timeout(timeout)

    def evaluate(self, prompts, completions, **columns):
        from polyreward.reward import RewardOutput

        outcomes = self.engine.map(_nap, [(self.seconds,)] * len(completions))
        return RewardOutput(
            [o.value if o.ok else math.nan for o in outcomes],
            ["ok" if o.ok else ("timeout" if o.timed_out else o.error) for o in outcomes],
        )


class LengthParity(RolloutReward):
    """len(text) mod 2 in {0, 1}; None when the length is a multiple of 4 (values exact in float32)."""

    type_name = "length_parity"

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        if len(completion) % 4 == 0:
            return Scored(None, "length multiple of 4: not applicable")
        return Scored(float(len(completion) % 2), f"len={len(completion)}")
