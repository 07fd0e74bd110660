"""What the forecast tables of the ``test_rewards_r*.py`` files share: one answer block read the way
``forecast_class_cost`` reads it (Korean PM2.5 classes, one value asked, the think first).

    forecast_in_block("Today averaged 31; tomorrow: 28 µg/m³.")          # -> 28.0
    forecast_in_block("28 µg/m³.", after=" Not confident though.")       # -> None
"""

from __future__ import annotations

from polyreward.rewards.forecast import committed_forecast
from polyreward.verifiers.forecast import class_edges

KOREA_PM25 = class_edges("korea", "pm25")


def forecast_in_block(block: str, after: str = "") -> float | None:
    """The committed forecast of ``<think>...</think><answer>{block}</answer>{after}``, or None."""
    text = f"<think>Flat day, weak winds.</think>\n<answer>{block}</answer>{after}"
    found = committed_forecast(text, 1, True, ("pm25",), None, KOREA_PM25)[0]
    return None if found is None else found[0]
