"""TRL 1.16 integration: reward functions from a polyreward config and PolyGRPOTrainer, against the real TRL.

Unit tests call the reward functions with exactly the keyword arguments TRL's ``_calculate_rewards``
passes; the trainer tests run real ``GRPOTrainer`` / ``PolyGRPOTrainer`` steps on CPU with the tiny
Qwen2 (fixture ``tiny_qwen2_dir``), a few seconds each.
"""

from __future__ import annotations

import asyncio
import json
import math
import pickle
import threading
import time
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")

from datasets import Dataset  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402
from trl.trainer.utils import get_callable_name  # noqa: E402

from integration_rewards import AnswerMention, Exploding, LengthMod3, LengthParity, Sleepy, ToolMessages, VowelShare  # noqa: E402,F401
from polyreward.combiners import DVAOCombiner, GDPOCombiner, SaturationAwareCombiner  # noqa: E402
from polyreward.config import parse_config  # noqa: E402
from polyreward.integrations.trl import (  # noqa: E402
    AsyncTRLRewardFunction,
    PolyGRPOTrainer,
    TRLRewardFunction,
    async_reward_funcs,
    combined_advantages,
    reward_funcs,
    reward_weights,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread

CONFIG = {
    "rewards": [
        {"name": "accuracy", "type": "math_accuracy", "weight": 1.0, "answer_column": "answer"},
        {"name": "format", "type": "think_format", "weight": 0.5},
        {"name": "length", "type": "integration_rewards:LengthMod3", "weight": 0.3},
        {"name": "vowels", "type": "integration_rewards:VowelShare", "weight": 0.2},
    ],
    "combiner": "gdpo",
}


class Recorder:
    """What TRL's log_extra / log_metric callbacks receive (TRL passes bound trainer methods)."""

    def __init__(self) -> None:
        self.extra: dict[str, list] = {}
        self.metrics: dict[str, float] = {}

    def log_extra(self, column, values):
        self.extra[column] = list(values)

    def log_metric(self, name, value):
        self.metrics[name] = value


def call(func, completions, prompts=None, recorder=None, **columns):
    """Call a reward function the way GRPOTrainer._calculate_rewards does."""
    n = len(completions)
    recorder = recorder or Recorder()
    return func(
        prompts=prompts if prompts is not None else ["What is 1+1?"] * n,
        completions=completions,
        completion_ids=[[1, 2, 3]] * n,
        trainer_state=None,
        log_extra=recorder.log_extra,
        log_metric=recorder.log_metric,
        **columns,
    )


# ------------------------------------------------------------------------------------ reward functions
def test_reward_funcs_from_config_names_and_weights(tmp_path):
    path = tmp_path / "polyreward.yaml"
    path.write_text(json.dumps(CONFIG))  # JSON is YAML
    funcs = reward_funcs(path)
    assert [f.__name__ for f in funcs] == ["accuracy", "format", "length", "vowels"]
    assert [get_callable_name(f) for f in funcs] == ["accuracy", "format", "length", "vowels"]  # what TRL logs by
    assert reward_weights(path) == [1.0, 0.5, 0.3, 0.2]
    assert reward_weights(parse_config(CONFIG)) == reward_weights(path)
    assert all(isinstance(f, TRLRewardFunction) for f in funcs)


@pytest.mark.parametrize(
    "completion, answer, expected",
    [
        ("<think>2 plus 2</think>The answer is \\boxed{4}", "4", {"accuracy": 1.0, "format": 1.0, "length": 0.5, "vowels": 9 / 30}),
        ("The answer is 5", "4", {"accuracy": 0.0, "format": 0.0, "length": 0.0, "vowels": 4 / 11}),
        ("<think>hmm</think> 7", "7", {"accuracy": 1.0, "format": 1.0, "length": 1.0, "vowels": None}),
        ("", "3", {"accuracy": 0.0, "format": 0.0, "length": 0.0, "vowels": None}),
    ],
)
def test_plain_and_conversational_completions_score_the_same(completion, answer, expected):
    funcs = {f.__name__: f for f in reward_funcs(CONFIG)}
    for name, value in expected.items():
        plain = call(funcs[name], [completion], answer=[answer])
        chat = call(
            funcs[name],
            [[{"role": "assistant", "content": completion}]],
            prompts=[[{"role": "user", "content": "What is 2+2?"}]],
            answer=[answer],
        )
        assert plain == chat
        if value is None:
            assert plain == [None], name
        else:
            assert plain[0] == pytest.approx(value), name


def test_tool_calls_and_tool_messages_reach_the_reward():
    func = TRLRewardFunction(ToolMessages(name="tools"))
    completions = [
        [{"role": "assistant", "content": "no tools"}],
        [
            {"role": "assistant", "content": None, "tool_calls": [{"type": "function", "function": {"name": "add", "arguments": {"a": 1, "b": 2}}}]},
            {"role": "tool", "name": "add", "content": "3"},
            {"role": "assistant", "content": "It is 3."},
        ],
        [
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {}}}] * 2},
            {"role": "tool", "name": "f", "content": "x"},
            {"role": "tool", "name": "f", "content": "y"},
        ],
    ]
    assert call(func, completions) == [0.0, 2.0, 4.0]


def test_columns_reach_rewards_and_missing_columns_fail_loudly():
    func = TRLRewardFunction(AnswerMention(name="mention"))
    assert call(func, ["x = 42", "x = 41"], answer=["42", "42"]) == [1.0, 0.0]
    with pytest.raises(KeyError, match="remove_unused_columns"):
        call(func, ["x = 42"], solution=["42"])


def test_group_column_is_made_from_the_prompt_when_the_dataset_has_none():
    seen = {}

    class GroupSpy(LengthMod3):
        columns = ("prompt_id",)  # declares the group column it reads

        def evaluate(self, prompts, completions, **columns):
            seen.update(columns)
            return super().evaluate(prompts, completions, **columns)

    func = TRLRewardFunction(GroupSpy(name="spy"), group_column="prompt_id")
    call(func, ["a", "b", "c", "d"], prompts=["p1", "p1", "p2", "p2"])
    assert seen["prompt_id"][0] == seen["prompt_id"][1] != seen["prompt_id"][2] == seen["prompt_id"][3]
    call(func, ["a", "b"], prompts=["p1", "p1"], prompt_id=[7, 8])  # a real column wins
    assert seen["prompt_id"] == [7, 8]


def test_reasons_and_sub_scores_go_to_log_extra_and_log_metric():
    recorder = Recorder()
    func = TRLRewardFunction(LengthMod3(name="length"))
    assert call(func, ["ab", "abcd"], recorder=recorder) == [1.0, 0.5]
    assert recorder.extra == {"length/reason": ["len=2", "len=4"]}
    assert recorder.metrics == {"rewards/length/failed_frac": 0.0, "rewards/length/length": 3.0}


class NaNReward(LengthMod3):
    def score_rollout(self, completion, row):
        from polyreward.reward import Scored

        return Scored(math.nan, "verifier crashed") if "bad" in completion else super().score_rollout(completion, row)


@pytest.mark.parametrize(
    "on_error, expected",
    [("none", [None, 0.5, None]), ("zero", [0.0, 0.5, None])],
)
def test_failed_rollouts_follow_on_error_and_not_applicable_stays_none(on_error, expected):
    class Mixed(NaNReward):
        def score_rollout(self, completion, row):
            from polyreward.reward import Scored

            return Scored(None, "n/a") if completion == "skip" else super().score_rollout(completion, row)

    recorder = Recorder()
    func = TRLRewardFunction(Mixed(name="mixed"), on_error=on_error)
    assert call(func, ["bad", "abcd", "skip"], recorder=recorder) == expected
    assert recorder.extra["mixed/reason"] == ["error: non-finite score (verifier crashed)", "len=4", "n/a"]  # a NaN score is an error, its own words kept
    assert recorder.metrics["rewards/mixed/failed_frac"] == pytest.approx(1 / 3)


def test_a_raising_reward_scores_none_with_its_reason():
    recorder = Recorder()
    func = TRLRewardFunction(Exploding(name="judge"))
    assert call(func, ["a", "b"], recorder=recorder) == [None, None]
    assert recorder.extra["judge/reason"] == ["error: RuntimeError: judge unreachable"] * 2
    assert recorder.metrics["rewards/judge/failed_frac"] == 1.0
    assert call(TRLRewardFunction(Exploding(name="judge"), on_error="zero"), ["a"]) == [0.0]


def test_a_hanging_reward_is_killed_at_the_timeout():
    recorder = Recorder()
    func = TRLRewardFunction(Sleepy(name="slow", seconds=600), timeout=1.0)
    start = time.monotonic()
    assert call(func, ["a", "b", "c"], recorder=recorder) == [None, None, None]
    # A sleeping reward uses no CPU, so it is stopped by the wall cap (engine wall_multiple = 10 x the 1 s budget),
    # retried once at the end of the call, then reported: 40 s alone on the 2-core machine, 50 s in one .ci/run,
    # far below the reward's own 600 s sleep.
    assert time.monotonic() - start < 150
    assert recorder.extra["slow/reason"] == ["timeout after 1 s"] * 3
    fast = TRLRewardFunction(Sleepy(name="fast", seconds=0), timeout=10.0)  # isolated and in time: scored
    assert call(fast, ["a"]) == [1.0]


def test_reward_functions_pickle_and_are_thread_safe():
    funcs = reward_funcs(CONFIG)
    clones = pickle.loads(pickle.dumps(funcs))
    completions = [f"<think>step {i}</think> answer {i % 5}" for i in range(16)]
    answers = [str(i % 3) for i in range(16)]
    expected = [call(f, completions, answer=answers) for f in funcs]
    assert [call(f, completions, answer=answers) for f in clones] == expected
    assert [f.__name__ for f in clones] == [f.__name__ for f in funcs]

    results: dict[int, list] = {}

    def worker(slot):
        results[slot] = [call(f, completions, answer=answers) for f in funcs]

    threads = [threading.Thread(target=worker, args=(slot,)) for slot in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(results[slot] == expected for slot in range(6))


def test_every_keyword_trl_may_pass_is_accepted_and_context_is_optional():
    """GRPOTrainer adds trainer_state/log_extra/log_metric (+ environments, rollout_func fields);
    AsyncGRPOTrainer passes none of them (docs/reference/integrations.md#trl-reward-calls, #trl-async)."""
    from transformers import TrainerState

    funcs = reward_funcs(CONFIG)
    completions = ["<think>a</think> \\boxed{4}", "abc"]
    base = [call(f, completions, answer=["4", "4"]) for f in funcs]
    extras = dict(environments=[object(), object()], env_mask=[[1, 0], [1]], image=[None, None])
    full = [call(f, completions, answer=["4", "4"], **extras) for f in funcs]
    state = TrainerState(global_step=3, max_steps=10)
    with_state = [f(prompts=["q", "q"], completions=completions, completion_ids=[[1], [2]], answer=["4", "4"],
                    trainer_state=state, log_extra=None, log_metric=None) for f in funcs]
    bare = [f(prompts=["q", "q"], completions=completions, completion_ids=[[1], [2]], answer=["4", "4"]) for f in funcs]
    assert base == full == with_state == bare
    assert base[0] == [1.0, 0.0] and base[1] == [1.0, 0.0]


def test_async_reward_funcs_are_awaited_by_trl_and_match_the_sync_ones():
    from trl.trainer.utils import is_async_callable

    sync, aio = reward_funcs(CONFIG), async_reward_funcs(CONFIG)
    assert all(isinstance(f, AsyncTRLRewardFunction) and is_async_callable(f) for f in aio)
    assert not any(is_async_callable(f) for f in sync)
    assert [get_callable_name(f) for f in aio] == [get_callable_name(f) for f in sync]
    completions = [f"<think>step {i}</think> answer {i % 5}" for i in range(8)]
    answers = [str(i % 3) for i in range(8)]
    recorder = Recorder()

    async def run_all(funcs):  # how TRL awaits its async rewards: asyncio.gather on one loop
        return await asyncio.gather(*(call(f, completions, answer=answers, recorder=recorder) for f in funcs))

    assert asyncio.run(run_all(pickle.loads(pickle.dumps(aio)))) == [call(f, completions, answer=answers) for f in sync]
    assert set(recorder.extra) == {f"{f.__name__}/reason" for f in sync}


def test_combined_advantages_reproduce_trl_normalize_then_sum_golden_vector():
    # docs/reference/integrations.md#gdpo-variants: 2 prompts x G=4, rewards (correct, format), with None.
    nan = math.nan
    rewards = torch.tensor(
        [[1, 1], [0, nan], [0, 0], [1, 0], [0, 1], [nan, nan], [0, 1], [1, 1]], dtype=torch.float32
    )
    advantages = combined_advantages(GDPOCombiner(), rewards, 4, torch.ones(2))
    expected = [1.6498, -0.707, -1.1784, 0.2357, -0.4714, 0.0, -0.4714, 0.9427]
    assert advantages.dtype == torch.float32
    assert advantages.tolist() == pytest.approx(expected, abs=1e-4)
    with pytest.raises(ValueError, match="groups of 3"):
        combined_advantages(GDPOCombiner(), rewards, 3, None)


# ------------------------------------------------------------------------------------ real trainer runs
def dataset(n_prompts: int = 8) -> Dataset:
    rows = [
        {"prompt": [{"role": "user", "content": f"What is {i} + {i + 1}? Think, then answer."}], "answer": str(2 * i + 1)}
        for i in range(n_prompts)
    ]
    return Dataset.from_list(rows)


def grpo_args(out: Path, **overrides) -> GRPOConfig:
    settings = dict(
        output_dir=str(out), max_steps=2, per_device_train_batch_size=8, num_generations=4, max_completion_length=10,
        learning_rate=1e-5, logging_steps=1, report_to=[], use_cpu=True, bf16=False, save_strategy="no", seed=0,
        temperature=1.0,
    )
    settings.update(overrides)
    return GRPOConfig(**settings)


class RecordingPolyTrainer(PolyGRPOTrainer):
    """Keeps every generation batch's ``last_batch`` (reward matrix, TRL's and our advantages)."""

    def _generate_and_score_completions(self, inputs):
        output = super()._generate_and_score_completions(inputs)
        self.batches = getattr(self, "batches", []) + [dict(self.last_batch)]
        return output


def train(trainer):
    result = trainer.train()
    assert math.isfinite(result.training_loss)
    assert trainer.state.global_step == 2
    return [h for h in trainer.state.log_history if "loss" in h]


@pytest.fixture(scope="module")
def stock_run(tiny_qwen2_dir, tmp_path_factory):
    """Stock TRL GRPOTrainer: the config's rewards, a raising and a hanging reward (1 s timeout), an async one."""
    out = tmp_path_factory.mktemp("stock")
    config = parse_config(CONFIG)
    failing = [Exploding(name="judge"), Sleepy(name="slow", seconds=60)]
    trainer = GRPOTrainer(
        model=str(tiny_qwen2_dir),
        reward_funcs=reward_funcs(config) + reward_funcs(failing, timeout=1.0) + async_reward_funcs([LengthParity(name="parity")]),
        args=grpo_args(out, reward_weights=reward_weights(config) + [1.0, 1.0, 1.0], log_completions=True),
        train_dataset=dataset(),
    )
    return trainer, train(trainer), out


NAMES = ["accuracy", "format", "length", "vowels"]


def test_stock_grpo_trainer_runs_and_logs_rewards_by_name(stock_run):
    trainer, logs, out = stock_run
    assert trainer.reward_func_names == NAMES + ["judge", "slow", "parity"]
    assert trainer.reward_weights.tolist() == pytest.approx([1.0, 0.5, 0.3, 0.2, 1.0, 1.0, 1.0])
    assert trainer.async_loop is not None  # TRL started its event loop for the async reward
    for step in logs:
        for name in NAMES + ["parity"]:
            assert f"rewards/{name}/mean" in step
            assert step[f"rewards/{name}/failed_frac"] == 0.0
        assert step["rewards/length/mean"] is not None and 0.0 <= step["rewards/length/mean"] <= 1.0
    tables = sorted((out / "completions").glob("*.parquet"))
    assert tables, "log_completions wrote no table"
    import pandas as pd

    table = pd.read_parquet(tables[-1])
    assert {f"{name}/reason" for name in NAMES + ["parity"]} <= set(table.columns)
    assert all(str(r).startswith("len=") for r in table["length/reason"])


def test_the_trainers_reward_objects_pickle(stock_run, gdpo_run):
    """AsyncGRPOTrainer ships reward functions to a spawned process (docs/reference/integrations.md#trl-async)."""
    for trainer in (stock_run[0], gdpo_run[0]):
        clones = pickle.loads(pickle.dumps(trainer.reward_funcs))
        assert [get_callable_name(f) for f in clones] == trainer.reward_func_names
    combiner = pickle.loads(pickle.dumps(gdpo_run[0].combiner))
    assert type(combiner) is GDPOCombiner
    funcs = pickle.loads(pickle.dumps(stock_run[0].reward_funcs))
    assert call(funcs[2], ["ab", "abcd"]) == [1.0, 0.5]


def test_failing_and_hanging_rewards_do_not_stop_training(stock_run):
    trainer, logs, out = stock_run
    for step in logs:  # both steps ran; the broken rewards are excluded (None), not zero
        assert step["rewards/judge/failed_frac"] == 1.0 and step["rewards/slow/failed_frac"] == 1.0
        assert step["rewards/judge/mean"] is None and step["rewards/slow/mean"] is None
        assert step["rewards/length/failed_frac"] == 0.0 and step["rewards/length/mean"] is not None
    import pandas as pd

    table = pd.read_parquet(sorted((out / "completions").glob("*.parquet"))[-1])
    assert set(table["judge/reason"]) == {"error: RuntimeError: judge unreachable"}
    assert set(table["slow/reason"]) == {"timeout after 1 s"}


@pytest.fixture(scope="module")
def gdpo_run(tiny_qwen2_dir, tmp_path_factory):
    """PolyGRPOTrainer + our GDPO while TRL itself computes normalize_then_sum on the same batch.

    The rewards take values exact in float32 ({0, 0.5, 1}, {0, 1, None}): TRL computes in float32 and the
    combiner in float64, and with arbitrary fractions (e.g. 4/11) float32 rounding alone moves TRL's
    advantages by a few 1e-6 after the two normalisations.
    """
    out = tmp_path_factory.mktemp("gdpo")
    rewards = [LengthMod3(name="length", weight=1.0), LengthParity(name="parity", weight=0.5)]
    trainer = RecordingPolyTrainer(
        model=str(tiny_qwen2_dir),
        reward_funcs=reward_funcs(rewards),
        args=grpo_args(out, reward_weights=reward_weights(rewards), multi_objective_aggregation="normalize_then_sum"),
        train_dataset=dataset(),
        combiner="gdpo",
    )
    return trainer, train(trainer)


def test_poly_gdpo_equals_trl_normalize_then_sum_on_the_same_batches(gdpo_run):
    trainer, _ = gdpo_run
    assert len(trainer.batches) == 2
    assert any(torch.isnan(b["rewards"]).any() for b in trainer.batches)  # "not applicable" cells are exercised
    for batch in trainer.batches:
        rewards = batch["rewards"]
        assert rewards.shape == (8, 2)
        assert len(set(rewards[:, 0].tolist())) > 1  # a real signal, not a degenerate batch
        assert batch["builtin_advantages"].abs().max() > 0.1
        torch.testing.assert_close(batch["advantages"], batch["builtin_advantages"], atol=1e-6, rtol=0)


def test_poly_trainer_logs_its_advantages(gdpo_run):
    trainer, logs = gdpo_run
    check_poly_logs(logs, ["length", "parity"])
    for step in logs:
        assert step["poly/advantage_mean"] == pytest.approx(0.0, abs=1e-5)
        assert step["poly/advantage_abs_mean"] > 0
        assert 0.0 <= step["frac_reward_zero_std"] <= 1.0
    last = trainer.batches[-1]["advantages"].tolist()
    assert list(trainer._logs["advantages"])[-8:] == pytest.approx(last, abs=1e-7)


def test_poly_trainer_from_a_config_file_with_dvao(tiny_qwen2_dir, tmp_path):
    path = tmp_path / "polyreward.yaml"
    path.write_text(
        "rewards:\n"
        "  - {name: length, type: 'integration_rewards:LengthMod3', weight: 2.0}\n"
        "  - {name: vowels, type: 'integration_rewards:VowelShare'}\n"
        "  - {name: mention, type: 'integration_rewards:AnswerMention'}\n"
        "combiner: {type: dvao, weighting: variance}\n"
    )
    trainer = RecordingPolyTrainer(
        model=str(tiny_qwen2_dir), args=grpo_args(tmp_path / "out"), train_dataset=dataset(), polyreward_config=str(path)
    )
    assert trainer.reward_func_names == ["length", "vowels", "mention"]
    assert trainer.reward_weights.tolist() == [2.0, 1.0, 1.0]
    assert type(trainer.combiner).__name__ == "DVAOCombiner" and trainer.combiner.weighting == "variance"
    logs = train(trainer)
    check_poly_logs(logs, ["length", "vowels", "mention"])
    for batch in trainer.batches:  # stateless: recomputing on the recorded matrix gives the same numbers
        groups = list(batch["groups"])  # each row's question: its prompt text, the same id in every step
        assert groups[:4] == [groups[0]] * 4 and groups[4:] == [groups[4]] * 4 and groups[0] != groups[4]
        assert str(groups[0]).startswith("user: What is")
        again = combined_advantages(DVAOCombiner(weighting="variance"), batch["rewards"], 4, torch.tensor([2.0, 1.0, 1.0]))
        torch.testing.assert_close(again, batch["advantages"], atol=1e-6, rtol=0)


def check_poly_logs(logs, names):
    for step in logs:
        assert {"poly/advantage_mean", "poly/advantage_std", "poly/advantage_abs_mean"} <= set(step)
        assert {"poly/collapsed_group_fraction", "poly/zero_signal_fraction", "poly/mean_profiles"} <= set(step)
        assert {f"poly/share/{n}" for n in names} | {f"poly/sign_flip_rate/{n}" for n in names} <= set(step)
        assert all(v is None or math.isfinite(v) for k, v in step.items() if k.startswith("poly/"))
        assert 0.0 <= step["poly/collapsed_group_fraction"] <= 1.0


def test_sa_mrpo_run_completes_logs_diagnostics_and_checkpoints_its_state(tiny_qwen2_dir, tmp_path):
    rewards = [LengthMod3(name="length"), VowelShare(name="vowels")]
    trainer = PolyGRPOTrainer(
        model=str(tiny_qwen2_dir),
        reward_funcs=reward_funcs(rewards),
        args=grpo_args(tmp_path, save_strategy="steps", save_steps=2),
        train_dataset=dataset(),
        combiner={"type": "sa_mrpo", "momentum": 0.5},
    )
    assert type(trainer.combiner).__name__ == "SaturationAwareCombiner"
    logs = train(trainer)
    check_poly_logs(logs, ["length", "vowels"])
    state = trainer.combiner.state_dict()
    assert state["steps"] == 2  # statistics carried across the two generation batches
    saved = json.loads((tmp_path / "checkpoint-2" / PolyGRPOTrainer.STATE_FILE).read_text())
    assert saved == json.loads(json.dumps(state))
    trainer.evaluate(eval_dataset=dataset(4))  # evaluation batches use a copy of the stateful combiner
    assert trainer.combiner.state_dict() == state

    resumed = PolyGRPOTrainer(
        model=str(tiny_qwen2_dir), reward_funcs=reward_funcs(rewards), args=grpo_args(tmp_path, max_steps=3),
        train_dataset=dataset(), combiner={"type": "sa_mrpo", "momentum": 0.5},
    )
    assert resumed.combiner.state_dict()["steps"] == 0
    resumed.train(resume_from_checkpoint=str(tmp_path / "checkpoint-2"))
    assert resumed.state.global_step == 3
    assert resumed.combiner.state_dict()["steps"] == 3  # 2 restored from the checkpoint + 1 new batch


def test_poly_trainer_checkpoints_and_restores_reward_state(tiny_qwen2_dir, tmp_path):
    """A stateful reward (here a batch counter; in practice OTC's running minimum) is saved in each checkpoint,
    one file per process, and restored by ``resume_from_checkpoint``, so the resumed run continues exactly."""
    from integration_rewards import BatchCounter

    def make(max_steps):
        rewards = [LengthMod3(name="length"), BatchCounter(name="counter")]
        trainer = PolyGRPOTrainer(model=str(tiny_qwen2_dir), reward_funcs=reward_funcs(rewards), train_dataset=dataset(),
                                  args=grpo_args(tmp_path, max_steps=max_steps, save_strategy="steps", save_steps=2),
                                  combiner={"type": "gdpo"})
        return trainer, rewards[1]

    trainer, counter = make(2)
    trainer.train()
    assert counter.batches == 2
    saved = json.loads((tmp_path / "checkpoint-2" / PolyGRPOTrainer.REWARD_STATE_FILE.format(rank=0)).read_text())
    assert saved == {"length": {}, "counter": {"batches": 2}}
    resumed, counter = make(3)
    resumed.train(resume_from_checkpoint=str(tmp_path / "checkpoint-2"))
    assert resumed.state.global_step == 3 and counter.batches == 3  # 2 restored + 1 new batch, not 1


def test_poly_trainer_under_two_processes_matches_trl_and_slices_the_gathered_batch(tiny_qwen2_dir, tmp_path):
    """Real 2-process run (gloo on CPU): one group of 4 rollouts spans both processes."""
    import os
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    script = Path(__file__).with_name("trl_multiprocess_run.py")
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_addr", "127.0.0.1",
               "--master_port", str(port), str(script), str(tiny_qwen2_dir), str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    assert [r["world"] for r in ranks] == [2, 2]
    for batch0, batch1 in zip(ranks[0]["batches"], ranks[1]["batches"], strict=True):
        assert batch0["rewards"] == batch1["rewards"]  # both processes combine the same gathered matrix
        rewards = torch.tensor(batch0["rewards"])
        groups = batch0["groups"]  # one group (the prompt's text) across two processes
        assert rewards.shape == (4, 2) and groups == [groups[0]] * 4 and groups[0].startswith("user: Count to")
        for batch in (batch0, batch1):
            assert len(batch["advantages"]) == 2
            assert batch["advantages"] == pytest.approx(batch["builtin_advantages"], abs=1e-6)
        whole = combined_advantages(GDPOCombiner(), rewards, 4, torch.tensor([1.0, 0.5]))
        assert batch0["advantages"] + batch1["advantages"] == pytest.approx(whole.tolist(), abs=1e-7)


def test_example_script_runs_offline_on_cpu(tiny_qwen2_dir, tmp_path):
    import os
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[1] / "examples" / "trl_grpo.py"
    command = [sys.executable, str(script), str(tiny_qwen2_dir), "--trainer", "poly", "--max-steps", "1",
               "--max-completion-length", "8", "--output-dir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "trained 1 steps" in done.stdout
    assert "'rewards/accuracy/mean'" in done.stdout and "'rewards/overlong/mean'" in done.stdout
