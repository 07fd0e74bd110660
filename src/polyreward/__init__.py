"""polyreward: rewards, verifiers and multi-objective advantage combiners for RL of language models.

The core (this package) holds the shared vocabulary (:mod:`polyreward.vocabulary`) and the one scoring contract
(:class:`polyreward.pipeline.Scorer`, built by ``Config.build_scorer()`` or :func:`polyreward.config.load_scorer`); the floors above
it live in ``polyreward.verifiers``, ``polyreward.rewards``, ``polyreward.rubrics``, ``polyreward.combiners``,
``polyreward.runners``, ``polyreward.integrations`` and ``polyreward.trainer``. ``import polyreward`` itself imports
nothing else (not even numpy): each public name below loads its module on first use, and none imports pandas or torch.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (8 ms): type checkers read the block below
if TYPE_CHECKING:  # what the names below are, for type checkers and editors; at run time each loads on first use
    from polyreward.combiner import Combiner
    from polyreward.config import Config, ConfigError, load_config, load_scorer, parse_config
    from polyreward.pipeline import Scorer
    from polyreward.registry import combiner_class, register_combiner, register_reward, reward_class
    from polyreward.reward import Reward, RewardOutput, RolloutReward, Scored
    from polyreward.rewardset import RewardSet
    from polyreward.runners.datasets_io import score_dataset
    from polyreward.schema import Batch, ColumnMap, completion_messages, completion_text, prompt_text
    from polyreward.vocabulary import MissingColumnError, RewardError, ScoredBatch, ScoreMatrix, group_key

__version__ = "0.1.0"

__all__ = [
    "Batch",
    "ColumnMap",
    "Combiner",
    "Config",
    "ConfigError",
    "MissingColumnError",
    "Reward",
    "RewardError",
    "RewardOutput",
    "RewardSet",
    "RolloutReward",
    "ScoreMatrix",
    "Scored",
    "ScoredBatch",
    "Scorer",
    "combiner_class",
    "completion_messages",
    "completion_text",
    "group_key",
    "load_config",
    "load_scorer",
    "parse_config",
    "prompt_text",
    "register_combiner",
    "register_reward",
    "reward_class",
    "score_dataset",
]


# Where each public name lives. ``import polyreward`` loads none of them: numpy, pydantic and YAML cost about 0.3 s of
# CPU to import, which a command that needs only part of the package (``polyreward verify``, ``--version``, a
# worker process) should not pay; ``from polyreward import Config`` loads polyreward.config then.
_PUBLIC: dict[str, str] = {
    "Combiner": "polyreward.combiner",
    **dict.fromkeys(["Config", "ConfigError", "load_config", "load_scorer", "parse_config"], "polyreward.config"),
    "Scorer": "polyreward.pipeline",
    **dict.fromkeys(["combiner_class", "register_combiner", "register_reward", "reward_class"], "polyreward.registry"),
    **dict.fromkeys(["Reward", "RewardOutput", "RolloutReward", "Scored"], "polyreward.reward"),
    "RewardSet": "polyreward.rewardset",
    "score_dataset": "polyreward.runners.datasets_io",  # it handles DataFrames, and still never imports pandas itself
    **dict.fromkeys(["Batch", "ColumnMap", "completion_messages", "completion_text", "prompt_text"], "polyreward.schema"),
    **dict.fromkeys(["MissingColumnError", "RewardError", "ScoredBatch", "ScoreMatrix", "group_key"], "polyreward.vocabulary"),
}


def __getattr__(name: str) -> object:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'polyreward' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
