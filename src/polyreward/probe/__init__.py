"""``polyreward probe``: red-team a reward config with reward-hacking completions built from the user's rows.

:func:`run_probe` does the work (:mod:`polyreward.probe.runner`); the hacks are in :mod:`polyreward.probe.strategies`,
named by each reward type's ``probe_strategies``.
"""

from polyreward.probe.runner import ProbeReport, StrategyResult, run_probe
from polyreward.probe.strategies import GENUINE, STRATEGIES

__all__ = ["GENUINE", "STRATEGIES", "ProbeReport", "StrategyResult", "run_probe"]
