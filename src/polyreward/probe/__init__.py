"""``polyreward probe``: red-team a reward config with reward-hacking completions built from the user's rows.

:func:`run_probe` does the work (:mod:`polyreward.probe.runner`): a reward-agnostic mutation search over each row's
genuine answer (:mod:`polyreward.probe.search`, mutations in :mod:`polyreward.probe.mutations`), suspicious high
scores among the file's own completions (:mod:`polyreward.probe.suspicious`), and the named strategies each reward
type declares (``probe_strategies``, :mod:`polyreward.probe.strategies`).
"""

from polyreward.probe.mutations import FAMILIES, MUTATIONS
from polyreward.probe.runner import ProbeReport, StrategyResult, run_probe
from polyreward.probe.search import FamilyResult
from polyreward.probe.strategies import GENUINE, STRATEGIES

__all__ = ["FAMILIES", "GENUINE", "MUTATIONS", "STRATEGIES", "FamilyResult", "ProbeReport", "StrategyResult", "run_probe"]
