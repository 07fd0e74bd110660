"""The engine handle: the one object a reward that needs worker processes is given, and the one path its timeout takes.

A reward declares the need with one fact (its constructor takes ``engine``); the config builds one Engine from its
``engine:`` section and hands it over; every item runs with ``Engine.timeout``, never with a pool's own default.
"""

from __future__ import annotations

import pickle
import sys
import textwrap

import pytest

from polyreward.config import ConfigError, parse_config
from polyreward.engine import Engine, Outcome, WorkerPool
from polyreward.rewards.math_accuracy import MathAccuracy


def square(x: int) -> int:
    return x * x


class Recording:
    """A pool that runs items inline and records the budget each call was given."""

    def __init__(self, timeout: float = 99.0) -> None:
        self.timeout, self.budgets, self.preload = timeout, [], []

    def map(self, fn, items, timeout=None, affinity=None):
        self.budgets.append(timeout)
        return [Outcome(True, fn(*item)) for item in items]

    def add_preload(self, modules):
        self.preload.extend(modules)
        return True


def test_every_item_runs_with_the_engine_s_budget_not_the_pool_s():
    pool = Recording(timeout=99.0)
    engine = Engine(timeout=2.5, pool=pool)
    assert [o.value for o in engine.map(square, [(3,), (4,)])] == [9, 16]
    assert pool.budgets == [2.5]
    assert engine.map(square, [(2,)], timeout=0.5)[0].value == 4 and pool.budgets[-1] == 0.5  # a caller's own, per call


def test_with_timeout_keeps_the_workers_and_changes_only_the_budget():
    pool = Recording()
    engine = Engine(timeout=5.0, pool=pool)
    faster = engine.with_timeout(1.0)
    assert faster.pool is engine.pool and (faster.timeout, engine.timeout) == (1.0, 5.0)
    faster.map(square, [(1,)])
    assert pool.budgets == [1.0]
    with pytest.raises(ValueError, match="timeout"):
        engine.with_timeout(0)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), True, "5"])
def test_a_bad_budget_is_one_error_naming_it(bad):
    with pytest.raises(ValueError, match="timeout must be a number of seconds > 0"):
        Engine(timeout=bad)


def test_the_config_hands_one_engine_to_every_reward_that_takes_it():
    rewards = parse_config({"engine": {"workers": 0, "timeout": 2.5}, "rewards": [
        {"name": "a", "type": "math_accuracy"},
        {"name": "b", "type": "math_accuracy", "answer_column": "gold"},
        {"name": "fmt", "type": "think_format"},
    ]}).build_rewards()
    a, b, fmt = rewards.rewards
    assert a.engine is b.engine and a.engine.timeout == b.timeout == 2.5 and a.engine.workers == 0
    assert not hasattr(fmt, "engine")  # no engine parameter: none given
    assert a(completions=["\\boxed{\\frac{1}{2}}"], answer=["0.5"]) == [1.0]


def test_a_reward_s_own_timeout_goes_into_the_engine_not_beside_it():
    rewards = parse_config({"engine": {"workers": 0, "timeout": 2.5}, "rewards": [
        {"name": "slow", "type": "math_accuracy", "timeout": 7},
        {"name": "plain", "type": "math_accuracy"},
    ]}).build_rewards(workers=0)
    slow, plain = rewards.rewards
    assert (slow.engine.timeout, plain.engine.timeout) == (7.0, 2.5)
    assert slow.engine.pool is plain.engine.pool  # the same workers, another budget
    assert "timeout" not in vars(slow)  # no second copy on the reward


def test_the_budget_reaches_the_pool_from_the_config_only():
    pool = Recording()
    reward = MathAccuracy(engine=Engine(timeout=3.0, pool=pool))
    assert reward.evaluate([None], ["\\boxed{\\sqrt{3}+\\sqrt{2}}"], answer=["\\sqrt{2}+\\sqrt{3}"]).scores == [1.0]
    assert pool.budgets == [3.0]  # the symbolic pair went to the pool with the engine's budget
    assert MathAccuracy(engine=WorkerPool(workers=0, timeout=4.0)).timeout == 4.0  # a pool of your own: its budget


def test_engine_is_not_a_config_key():
    with pytest.raises(ConfigError, match="engine"):
        parse_config({"rewards": [{"name": "a", "type": "math_accuracy", "engine": {"workers": 1}}]}).build_rewards()


def test_an_engine_travels_as_its_settings():
    engine = Engine(workers=3, timeout=1.5, memory_limit_mb=1000)
    engine.add_preload(["json"])
    copy = pickle.loads(pickle.dumps(engine))
    assert (copy.workers, copy.timeout, copy.memory_limit_mb) == (3, 1.5, 1000)
    assert copy.__getstate__()["preload"] == ["json"]
    reward = pickle.loads(pickle.dumps(MathAccuracy(engine=Engine(workers=0, timeout=2.0), timeout=4.0)))
    assert reward.timeout == 4.0 and reward(completions=["#### 4"], answer=["4"]) == [1.0]


def test_the_preload_waits_for_the_pool_the_engine_makes():
    engine = Engine(workers=7, timeout=1.0, memory_limit_mb=777)  # a worker count and cap no other test uses
    engine.add_preload(["json", "json", "decimal"])
    pool = engine.pool
    assert pool.__getstate__()["preload"] == ["json", "decimal"] and pool.memory_limit_mb == 777 and pool.workers == 7
    assert engine.pool is pool and Engine(workers=7, memory_limit_mb=777).pool is pool  # the process-wide pool


def test_a_reward_of_your_own_declares_the_need_with_the_engine_parameter(tmp_path, monkeypatch):
    """The one fact: a constructor parameter named ``engine``. A toy type from a user module gets the config's."""
    (tmp_path / "toy_engine_reward.py").write_text(textwrap.dedent('''
        from polyreward.engine import Engine
        from polyreward.reward import Reward, RewardOutput


        def length(text):
            return len(text)


        class LengthInWorkers(Reward):
            """Length of the completion, computed in the engine's workers."""

            type_name = "toy_length_in_workers"
            preload = ("json",)

            def __init__(self, name=None, weight=1.0, engine=None):
                super().__init__(name, weight)
                self.engine = Engine.of(engine)

            def evaluate(self, prompts, completions, **columns):
                outcomes = self.engine.map(length, [(c,) for c in completions])
                return RewardOutput([float(o.value) for o in outcomes], ["" for _ in outcomes])
    '''), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        rewards = parse_config({"engine": {"workers": 0, "timeout": 4.0}, "rewards": [
            {"name": "len", "type": "toy_engine_reward:LengthInWorkers"}]}).build_rewards()
        reward = rewards.rewards[0]
        assert reward.engine.timeout == 4.0 and reward.engine.workers == 0
        assert reward(completions=["abc", "hello"]) == [3.0, 5.0]
    finally:
        sys.modules.pop("toy_engine_reward", None)


def test_the_config_sets_the_workers_memory_cap():
    from polyreward.config import Config

    config = Config.model_validate({"engine": {"memory_limit_mb": 512}, "rewards": [{"name": "a", "type": "math_accuracy"}]})
    assert list(config.build_rewards())[0].engine._workers.memory_limit_mb == 512
    default = Config.model_validate({"rewards": [{"name": "a", "type": "math_accuracy"}]})
    assert list(default.build_rewards())[0].engine._workers.memory_limit_mb == 4096
    with pytest.raises(ValueError):
        Config.model_validate({"engine": {"memory_limit_mb": 1}, "rewards": [{"name": "a", "type": "math_accuracy"}]})
