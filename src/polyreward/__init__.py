"""polyreward: rewards, verifiers and multi-objective advantage combiners for RL of language models.

The core (this package) holds the shared vocabulary (:mod:`polyreward.vocabulary`) and the one scoring contract
(:class:`polyreward.pipeline.Scorer`, built by ``Config.build_scorer()`` or :func:`polyreward.config.load_scorer`); the floors above
it live in ``polyreward.verifiers``, ``polyreward.rewards``, ``polyreward.rubrics``, ``polyreward.combiners``,
``polyreward.runners``, ``polyreward.integrations`` and ``polyreward.trainer``. ``import polyreward`` imports
neither pandas nor torch: :func:`score_dataset` loads its module on first use.
"""

from typing import Any

from polyreward.combiner import Combiner
from polyreward.config import Config, ConfigError, load_config, load_scorer, parse_config
from polyreward.pipeline import Scorer
from polyreward.registry import combiner_class, register_combiner, register_reward, reward_class
from polyreward.reward import Reward, RewardOutput, RolloutReward, Scored
from polyreward.rewardset import RewardSet
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


def __getattr__(name: str) -> Any:
    if name == "score_dataset":  # its module handles DataFrames: loaded when asked for, so pandas is not imported here
        from polyreward.runners.datasets_io import score_dataset

        globals()["score_dataset"] = score_dataset
        return score_dataset
    raise AttributeError(f"module 'polyreward' has no attribute {name!r}")
