"""Rewards whose cost is known, for the scale-out benchmarks (``type: "known_cost_rewards:SleepCost"``; the folder
``benchmarks/`` must be on ``PYTHONPATH`` of every Ray worker, which :mod:`scale_out_large` arranges).

``SleepCost`` waits ``seconds`` per rollout (an I/O-bound reward: a judge call, a sandbox); ``CpuCost`` burns
``seconds`` of its own CPU time per rollout (a CPU-bound verifier). Both score 1.0."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from polyreward.reward import RolloutReward, Scored


class SleepCost(RolloutReward):
    type_name = "sleep_cost"

    def __init__(self, name: str | None = None, weight: float = 1.0, seconds: float = 0.01) -> None:
        super().__init__(name, weight)
        self.seconds = float(seconds)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        time.sleep(self.seconds)
        return Scored(1.0, "slept")


class CpuCost(RolloutReward):
    type_name = "cpu_cost"

    def __init__(self, name: str | None = None, weight: float = 1.0, seconds: float = 0.002) -> None:
        super().__init__(name, weight)
        self.seconds = float(seconds)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        end = time.process_time() + self.seconds
        while time.process_time() < end:
            pass
        return Scored(1.0, "spun")
