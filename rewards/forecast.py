"""``forecast_class_cost``: class-wise reward for particulate-matter forecasts (FAKER-Air).

Source: Kang et al., "Real-Time Long Horizon Air Quality Forecasting via Group-Relative Policy
Optimization", arXiv 2511.22169; code kaist-cvml/FAKER-Air ``aurora/rl/reward.py`` (docs/reference/algorithms.md#forecast).
Tag **exact** for the per-forecast reward (the source averages it over valid pixels of a field; here
the "pixels" are the T forecast values of one rollout)::

    c(x) = #{inner edges < x}                  (torch.bucketize, right=False: x = 15 is "good")
    high(x) = c(x) >= high_class               (default 2: "bad" or worse)
    r_t = α·1[high(pred_t) = high(obs_t)] + β·1[c(pred_t) = c(obs_t)] − γ·1[high(pred_t) ∧ ¬high(obs_t)]
    R = Σ_t s_t r_t / Σ_t s_t  over valid steps (obs_t finite and > 0, as FAKER-Air's "GT > 0" mask)

Defaults are the released GRPO run's: α = 0 (cls-coarse), β = 1 (cls-exact), γ = 0.1 (false-alarm
penalty), step weights s_t linear from 1.0 down to 0.75 ("linear") or all 1 ("uniform"). Misses are not
penalised explicitly (as in the source). Several pollutants with weights w_v (PM2.5 1.0, PM10 0.3 in
the released run) are several reward entries with those weights. The per-GT-class multipliers and the
"Recipe 2" recall/FAR constraint with its PI controller are trainer-level and not implemented here.

Reading a rollout: the observed value(s) come from ``observed_column`` (a number, numeric text, a list
or a JSON list; NaN entries are invalid steps). The forecast is the first T numbers inside the
completion's ``<answer>`` block, or else the last T numbers of the text (µg/m3 unit suffixes are ignored).
No valid observation -> NaN ("no valid observation"); too few forecast numbers -> 0.
Per-rollout sub-scores ``hits``/``misses``/``false_alarms``/``correct_negatives`` feed
:func:`polyreward.verifiers.forecast.metrics_from_details` (POD, FAR, POFD, CSI, F1).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.schema import is_missing
from polyreward.verifiers.forecast import POLLUTANTS, THRESHOLDS, class_edges, pm_class
from polyreward.verifiers.label_sets import answer_block

STEP_WEIGHTS = ("linear", "uniform")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d{1,3})?")
_UNIT = re.compile(r"(?:µ|μ|u|micro)?g\s*/\s*m(?:\^?3|³)", re.IGNORECASE)


def observed_values(value: Any) -> list[float] | None:
    """Observation cell -> list of floats (NaN for unusable entries); None if the cell is empty."""
    if is_missing(value):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            value = json.loads(text) if text.startswith("[") else float(text)
        except (ValueError, RecursionError):
            return [math.nan]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [_number(value)]
    if isinstance(value, Sequence):
        return [_number(v) for v in value]
    return [math.nan]


def _number(value: Any) -> float:
    """``value`` as a float; NaN for None, bools, text and integers beyond the float range (10**400)."""
    if value is None or isinstance(value, bool):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def forecast_values(text: str, count: int) -> list[float] | None:
    """The first ``count`` numbers of the <answer> block, else the last ``count`` numbers of the text."""
    body = answer_block(text)
    span = _UNIT.sub(" ", body if body is not None else text)
    numbers = [float(m) for m in _NUMBER.findall(span)]
    if len(numbers) < count:
        return None
    return numbers[:count] if body is not None else numbers[len(numbers) - count:]


class ForecastClassCost(RolloutReward):
    """FAKER-Air class reward: α·[same high/low side] + β·[same class] − γ·[false alarm], step-weighted mean."""

    type_name = "forecast_class_cost"
    exactness = "exact"
    description = "FAKER-Air class-wise PM forecast reward (Korean / US EPA / China / custom class thresholds)"
    score_range = (-0.1, 1.0)

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        observed_column: str = "observed",
        pollutant: str = "pm25",
        thresholds: str | Sequence[float] = "korea",
        high_class: int = 2,
        alpha: float = 0.0,
        beta: float = 1.0,
        gamma: float = 0.1,
        step_weights: str = "linear",
    ) -> None:
        super().__init__(name, weight)
        column_name("observed_column", observed_column)
        one_of("pollutant", pollutant, POLLUTANTS)
        if isinstance(thresholds, str) and thresholds not in THRESHOLDS:
            raise ValueError(f"thresholds must be one of {', '.join(THRESHOLDS)} or a list of increasing numbers, got {thresholds!r}")
        self.edges = class_edges(thresholds, pollutant)
        if isinstance(high_class, bool) or not isinstance(high_class, int) or not 1 <= high_class <= len(self.edges):
            raise ValueError(f"high_class must be an integer in 1..{len(self.edges)} (number of classes - 1), got {high_class!r}")
        for key, value in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{key} must be a finite number >= 0, got {value!r}")
        one_of("step_weights", step_weights, STEP_WEIGHTS)
        self.observed_column, self.pollutant, self.high_class = observed_column, pollutant, high_class
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)
        self.step_weights = step_weights
        self.thresholds = thresholds if isinstance(thresholds, str) else list(self.edges)
        self.score_range = (-self.gamma, self.alpha + self.beta)

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.observed_column,)

    @property
    def event_threshold(self) -> float:
        """The value above which a forecast counts as "high" (the edge below ``high_class``)."""
        return self.edges[self.high_class - 1]

    def _weights(self, steps: int) -> list[float]:
        if self.step_weights == "uniform" or steps == 1:
            return [1.0] * steps
        return [1.0 - 0.25 * t / (steps - 1) for t in range(steps)]

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        observed = observed_values(row.get(self.observed_column))
        if observed is None:
            return Scored(None, f"no observation in column {self.observed_column!r} (empty or NaN)")
        if not any(math.isfinite(o) and o > 0 for o in observed):
            return Scored(math.nan, "no valid observation (NaN or <= 0)")
        predicted = forecast_values(completion, len(observed))
        if predicted is None:
            return Scored(0.0, f"expected {len(observed)} forecast number(s), found fewer")
        weights = self._weights(len(observed))
        total = weight_sum = 0.0
        counts = {"hits": 0.0, "misses": 0.0, "false_alarms": 0.0, "correct_negatives": 0.0, "exact_class": 0.0}
        for p, o, s in zip(predicted, observed, weights):
            if not (math.isfinite(o) and o > 0):  # FAKER-Air's valid mask: GT > 0
                continue
            cp, co = pm_class(p, self.edges), pm_class(o, self.edges)
            hp, ho = cp >= self.high_class, co >= self.high_class
            r = self.alpha * (hp == ho) + self.beta * (cp == co) - self.gamma * (hp and not ho)
            total += s * r
            weight_sum += s
            key = "hits" if hp and ho else "misses" if ho else "false_alarms" if hp else "correct_negatives"
            counts[key] += 1
            counts["exact_class"] += cp == co
        valid = counts["hits"] + counts["misses"] + counts["false_alarms"] + counts["correct_negatives"]
        reason = f"{int(counts['exact_class'])}/{int(valid)} exact class, {int(counts['false_alarms'])} false alarm(s), {int(counts['misses'])} miss(es)"
        return Scored(total / weight_sum, reason, counts)
