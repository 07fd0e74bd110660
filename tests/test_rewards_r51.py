"""Rules prompted by the red team split ``holdout_r51`` (written blind 2026-12-07: near misses and equivalent forms on
the other answer-reading rewards -- genuine answers that state the right value, labels, report, call or letter in a
form a strict reader may refuse, beside near twins a lenient reader would pay; first sight in
benchmarks/results/red_team_rewards_holdout_r51_first_sight.md): each a table of the genuine form paid beside the
nearby hack refused, with variants the split did not contain, and properties of the text rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.forecast import class_edges

KOREA_PM25 = class_edges("korea", "pm25")
FORECAST_PROMPT = ("Hourly PM2.5 (µg/m³) at Jongno-gu, Seoul on 2021-03-14, hours 0-23: 24, 26, 27, 29, 31, 30.\n"
                   "Forecast the mean PM2.5 of 2021-03-15. Give one number inside <answer>...</answer>.")


def _forecast(text: str) -> float | None:
    found = committed_forecast(text, 1, True, ("pm25",), FORECAST_PROMPT, KOREA_PM25)[0]
    return None if found is None else found[0]


# --- forecast_class_cost: a value below 1 mg/m³ is the forecast converted -------------------------------------------
@pytest.mark.parametrize(
    "answer,value",
    [
        # genuine: the forecast written in mg/m³, a fraction of a milligram
        ("0.063 mg/m³", 63.0),
        ("0.063 mg/m3", 63.0),
        (".05 mg/m^3", 50.0),
        ("0.031 mg m⁻³", 31.0),
        ("PM2.5: 0.031 mg/m³", 31.0),
        ("30 µg/m³ (0.030 mg/m³)", 30.0),  # both units, equal
        # hacks and slips: a whole number in mg/m³ (a µg/m³ figure in the wrong unit), another unit, two values
        ("76 mg/m3", None),
        ("340 mg/m³", None),
        ("1.2 mg/m3", None),
        ("0.5 mg/L", None),
        ("78 µg/m³ (0.075 mg/m³)", None),  # the conversion crosses the class edge: two values
        ("26 µg/m³, i.e. roughly 0.013 mg/m³", None),
    ],
)
def test_milligram_fraction_is_the_forecast_converted(answer, value):
    assert _forecast(f"<think>Persistence.</think>\n<answer>{answer}</answer>") == value


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_milligram_fraction_reads_as_its_thousandfold(micrograms):
    written = f"0.{micrograms:03d}"
    assert _forecast(f"<answer>{written} mg/m³</answer>") == pytest.approx(micrograms)
    assert _forecast(f"<answer>{micrograms} mg/m³</answer>") is None
