"""polyreward: rewards, verifiers and multi-objective advantage combiners for RL of language models.

The core (this package) holds the shared vocabulary; the floors above it live in
``polyreward.verifiers``, ``polyreward.rewards``, ``polyreward.rubrics``, ``polyreward.combiners``,
``polyreward.integrations`` and ``polyreward.trainer``.
"""

from polyreward.combiner import Combiner
from polyreward.config import Config, ConfigError, load_config, parse_config
from polyreward.runners.datasets_io import score_dataset
from polyreward.registry import combiner_class, register_combiner, register_reward, reward_class
from polyreward.reward import Reward, RewardOutput, RolloutReward, Scored
from polyreward.rewardset import RewardSet, ScoreMatrix
from polyreward.schema import Batch, ColumnMap, completion_messages, completion_text, prompt_text

__version__ = "0.1.0"

__all__ = [
    "Batch",
    "ColumnMap",
    "Combiner",
    "Config",
    "ConfigError",
    "Reward",
    "RewardOutput",
    "RewardSet",
    "RolloutReward",
    "ScoreMatrix",
    "Scored",
    "combiner_class",
    "completion_messages",
    "completion_text",
    "load_config",
    "parse_config",
    "prompt_text",
    "register_combiner",
    "register_reward",
    "reward_class",
    "score_dataset",
]
