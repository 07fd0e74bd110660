"""Air-quality class thresholds and forecast-verification metrics.

Classes follow FAKER-Air (kaist-cvml/FAKER-Air ``aurora/rl/reward.py``; docs/reference/algorithms.md#forecast):
``class = torch.bucketize(x, inner_edges, right=False)``, i.e. the number of inner edges strictly below
x, so a value equal to an edge stays in the lower class (PM2.5 15 is "good", 15.1 "moderate").

Contingency metrics for a binary event ("high" = class >= high_class, equivalently x > the edge below
that class; FAKER-Air evaluates PM2.5 > 35 and PM10 > 80 with a strict ">"):

    POD  (probability of detection)          = TP / (TP + FN)
    FAR  (false alarm RATIO)                 = FP / (TP + FP)
    POFD (false alarm RATE, prob. of false detection) = FP / (FP + TN)
         (FAKER-Air's code calls this one "false_alarm_rate")
    CSI  (critical success index)            = TP / (TP + FP + FN)
    F1                                       = 2TP / (2TP + FP + FN)
    bias (frequency bias)                    = (TP + FP) / (TP + FN)

A ratio whose denominator is 0 is ``zero_division`` (NaN by default).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# Inner class edges (µg/m³, upper bound of each class but the last), by scheme and pollutant.
THRESHOLDS: dict[str, dict[str, tuple[float, ...]]] = {
    # Korea MoE forecast grades since 2018-03-27: good / moderate / bad / very bad (FAKER-Air CLASS_BOUNDS).
    "korea": {"pm25": (15.0, 35.0, 75.0), "pm10": (30.0, 80.0, 150.0)},
    # US EPA AQI after the 2024-05-06 PM NAAQS revision: good / moderate / USG / unhealthy / very unhealthy / hazardous.
    "us_epa": {"pm25": (9.0, 35.4, 55.4, 125.4, 225.4), "pm10": (54.0, 154.0, 254.0, 354.0, 424.0)},
    # US EPA AQI before 2024.
    "us_epa_2012": {"pm25": (12.0, 35.4, 55.4, 150.4, 250.4), "pm10": (54.0, 154.0, 254.0, 354.0, 424.0)},
    # China HJ 633-2012 IAQI breakpoints (excellent / good / light / moderate / heavy / severe).
    "china": {"pm25": (35.0, 75.0, 115.0, 150.0, 250.0), "pm10": (50.0, 150.0, 250.0, 350.0, 420.0)},
}
POLLUTANTS = ("pm25", "pm10")


def class_edges(scheme: str | Sequence[float], pollutant: str = "pm25") -> tuple[float, ...]:
    """Inner edges for a named scheme and pollutant, or a custom strictly increasing list (validated)."""
    if isinstance(scheme, str):
        if scheme not in THRESHOLDS:
            raise ValueError(f"thresholds must be one of {', '.join(THRESHOLDS)} or a list of increasing numbers, got {scheme!r}")
        if pollutant not in POLLUTANTS:
            raise ValueError(f"pollutant must be one of {', '.join(POLLUTANTS)}, got {pollutant!r}")
        return THRESHOLDS[scheme][pollutant]
    edges = tuple(scheme)
    if not edges or not all(isinstance(e, (int, float)) and not isinstance(e, bool) and math.isfinite(e) for e in edges):
        raise ValueError(f"thresholds must be a non-empty list of finite numbers, got {scheme!r}")
    if any(b <= a for a, b in zip(edges, edges[1:])):
        raise ValueError(f"thresholds must be strictly increasing, got {list(edges)}")
    return tuple(float(e) for e in edges)


def pm_class(value: float, edges: Sequence[float]) -> int:
    """Class index of ``value``: how many edges lie strictly below it (torch.bucketize, right=False)."""
    return bisect_left(edges, value)


@dataclass(frozen=True)
class Contingency:
    """Counts of a binary forecast event: hits, misses, false alarms, correct negatives."""

    tp: float = 0.0
    fn: float = 0.0
    fp: float = 0.0
    tn: float = 0.0

    def __add__(self, other: Contingency) -> Contingency:
        return Contingency(self.tp + other.tp, self.fn + other.fn, self.fp + other.fp, self.tn + other.tn)


def contingency(predicted: Iterable[float], observed: Iterable[float], threshold: float) -> Contingency:
    """Counts for the event ``x > threshold`` (strict); pairs with a non-finite or non-positive observation are skipped."""
    tp = fn = fp = tn = 0
    for p, o in zip(predicted, observed):
        if not (isinstance(o, (int, float)) and math.isfinite(o) and o > 0) or not math.isfinite(p):
            continue
        pe, oe = p > threshold, o > threshold
        tp += pe and oe
        fn += oe and not pe
        fp += pe and not oe
        tn += not pe and not oe
    return Contingency(tp, fn, fp, tn)


def _ratio(num: float, den: float, zero_division: float) -> float:
    return num / den if den else zero_division


def verification_metrics(table: Contingency, zero_division: float = math.nan) -> dict[str, float]:
    """POD, FAR (false alarm ratio), POFD (false alarm rate), CSI, F1 and frequency bias of a contingency table."""
    tp, fn, fp, tn = table.tp, table.fn, table.fp, table.tn
    return {
        "POD": _ratio(tp, tp + fn, zero_division),
        "FAR": _ratio(fp, tp + fp, zero_division),
        "POFD": _ratio(fp, fp + tn, zero_division),
        "CSI": _ratio(tp, tp + fp + fn, zero_division),
        "F1": _ratio(2 * tp, 2 * tp + fp + fn, zero_division),
        "bias": _ratio(tp + fp, tp + fn, zero_division),
        "TP": tp, "FN": fn, "FP": fp, "TN": tn,
    }


def metrics_from_details(details: Mapping[str, Sequence[float | None]], zero_division: float = math.nan) -> dict[str, float]:
    """Batch metrics from the per-rollout ``hits`` / ``misses`` / ``false_alarms`` / ``correct_negatives``
    sub-scores that the ``forecast_class_cost`` reward reports."""

    def total(key: str) -> float:
        return float(sum(v for v in details.get(key, ()) if v is not None and not math.isnan(v)))

    table = Contingency(total("hits"), total("misses"), total("false_alarms"), total("correct_negatives"))
    return verification_metrics(table, zero_division)
