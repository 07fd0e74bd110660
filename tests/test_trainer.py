"""The bundled GRPO trainer on CPU: a short run, exact resume, learning, the CLI, config and data errors.

Rewards here are test-local and verifiable (a word appears in the completion), so these tests do not
depend on the built-in rewards. The model is the tiny random Qwen2 with the real tokenizer.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest
import yaml

torch = pytest.importorskip("torch")

from polyreward.cli import main as cli_main  # noqa: E402
from polyreward.config import ConfigError  # noqa: E402
from polyreward.pipeline import Scorer  # noqa: E402
from polyreward.registry import register_reward  # noqa: E402
from polyreward.schema import Batch  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402
from polyreward.trainer import train  # noqa: E402
from polyreward.trainer.checkpoint import latest_checkpoint, load_trainer_state  # noqa: E402
from polyreward.trainer.config import parse_train_section  # noqa: E402
from polyreward.trainer.metrics import read_metrics  # noqa: E402
from polyreward.trainer.prompts import prompt_indices, read_jsonl  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


@register_reward
class ContainsText(RolloutReward):
    """+1 when the completion contains ``text``, else 0 (a verifiable test reward)."""

    type_name = "test_contains_text"
    description = "1 when the completion contains the given text"

    def __init__(self, name: str | None = None, weight: float = 1.0, text: str = "\n") -> None:
        super().__init__(name, weight)
        self.text = text

    def score_rollout(self, completion: str, row) -> Scored:
        return Scored(1.0 if self.text in completion else 0.0)


@register_reward
class MatchesAnswer(RolloutReward):
    """+1 when the completion contains the row's ``answer`` column (exercises reference columns)."""

    type_name = "test_matches_answer"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("answer",)

    def score_rollout(self, completion: str, row) -> Scored:
        return Scored(1.0 if str(row["answer"]) in completion else 0.0)


@pytest.fixture()
def prompts_file(tmp_path):
    path = tmp_path / "prompts.jsonl"
    rows = [{"prompt": f"Write the letter {c}.", "answer": c} for c in "abcdef"]
    rows.append({"prompt": [{"role": "user", "content": "Say e."}], "answer": "e"})  # a chat-message prompt
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _config(model_dir, prompts_file, out, **train):
    return {
        "rewards": [
            {"name": "has_e", "type": "test_contains_text", "text": "e"},
            {"name": "answer", "type": "test_matches_answer", "weight": 0.5},
        ],
        "combiner": "gdpo",
        "train": {"model": str(model_dir), "dataset": str(prompts_file), "prompts_per_step": 2, "num_generations": 4,
                  "max_new_tokens": 4, "learning_rate": 1e-3, "max_steps": 2, "output_dir": str(out), **train},
    }


def _params(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def test_two_step_run_via_cli_writes_metrics_and_checkpoint(tiny_qwen2_dir, prompts_file, tmp_path):
    config_path = tmp_path / "train.yaml"
    config_path.write_text(yaml.safe_dump(_config(tiny_qwen2_dir, prompts_file.name, "unused")), encoding="utf-8")
    out = tmp_path / "run"
    assert cli_main(["train", str(config_path), "--max-steps", "2", "--output-dir", str(out), "--no-progress"]) == 0
    rows = read_metrics(out / "metrics.jsonl")
    assert [r["step"] for r in rows] == [1, 2]
    for row in rows:
        assert math.isfinite(row["loss"]) and math.isfinite(row["entropy"])
        assert row["completions/max_length"] <= 4 and row["tokens_per_second"] > 0 and row["peak_memory_mb"] > 0
        assert 0.0 <= row["reward/has_e/mean"] <= 1.0 and 0.0 <= row["reward/answer/mean"] <= 1.0
        assert row["learning_rate"] > 0 and row["advantage/frac_zero"] >= 0
    checkpoint = latest_checkpoint(out)
    assert checkpoint is not None and checkpoint.name == "checkpoint-2"
    state = load_trainer_state(checkpoint)
    assert state["step"] == 2 and set(state["rng"]) >= {"python", "numpy", "torch"}
    assert (checkpoint / "config.json").exists() and (checkpoint / "tokenizer_config.json").exists()
    from transformers import AutoModelForCausalLM

    assert AutoModelForCausalLM.from_pretrained(checkpoint) is not None  # a plain, reloadable model folder
    assert cli_main(["report", str(out / "metrics.jsonl"), "-o", str(tmp_path / "report")]) == 0  # training curves
    assert (tmp_path / "report" / "report.html").exists()


def test_resume_reproduces_the_uninterrupted_run(tiny_qwen2_dir, prompts_file, tmp_path, capsys):
    # KL to the reference, two iterations per batch (importance ratios) and two micro-batches: every path of the update.
    knobs = dict(max_steps=2, save_steps=1, beta=0.1, num_iterations=2, gradient_accumulation_steps=2, loss_type="grpo",
                 epsilon_high=0.28, learning_rate=3e-3)
    full = train(_config(tiny_qwen2_dir, prompts_file, tmp_path / "full", **knobs), progress=False)
    assert full.step == 2 and len(full.metrics) == 2

    resumed_dir = tmp_path / "resumed"
    resumed_dir.mkdir()
    shutil.copytree(tmp_path / "full" / "checkpoint-1", resumed_dir / "checkpoint-1")
    shutil.copy(tmp_path / "full" / "metrics.jsonl", resumed_dir / "metrics.jsonl")
    resumed = train(_config(tiny_qwen2_dir, prompts_file, resumed_dir, **knobs), progress=False, resume=True)
    assert resumed.step == 2 and [r["step"] for r in resumed.metrics] == [2]
    assert "train settings differ" not in capsys.readouterr().err  # only output_dir changed

    a, b = full.metrics[-1], resumed.metrics[-1]
    for key in ("loss", "kl", "entropy", "reward", "grad_norm", "advantage/std", "completions/mean_length"):
        assert a[key] == pytest.approx(b[key], rel=1e-6, abs=1e-9), key
    assert a["kl"] > 0  # the reference term was active
    pa, pb = _params(full.model), _params(resumed.model)
    assert all(torch.allclose(pa[k], pb[k], rtol=0, atol=1e-7) for k in pa)
    assert [r["step"] for r in read_metrics(resumed_dir / "metrics.jsonl")] == [1, 2]


def test_a_verifiable_reward_rises(tiny_qwen2_dir, prompts_file, tmp_path):
    """Reward +1 for a newline in the completion: rare at first, learned within a few steps.

    The random model's distribution is nearly flat over 151,936 tokens at temperature 1, where no
    token is sampled twice and nothing can be reinforced; at temperature 0.1 it has a few favourite
    tokens, and the newline is one of them, sampled now and then (mean reward ~0.1 at the start). When the reward takes off
    depends on the floating-point order of the sums: seeds 0-3 reach 1.0 after 4-11 steps on one torch thread and 5-9 on
    two (seed 0 is the slowest on one thread, the module's setting), so 14 steps leave a margin of three.
    """
    config = {
        "rewards": [{"name": "newline", "type": "test_contains_text", "text": "\n"}],
        "train": {"model": str(tiny_qwen2_dir), "dataset": str(prompts_file), "prompts_per_step": 4, "num_generations": 8,
                  "max_new_tokens": 4, "temperature": 0.1, "learning_rate": 3e-3, "lr_scheduler": "constant",
                  "max_steps": 14, "seed": 0, "output_dir": str(tmp_path / "learn")},
    }
    result = train(config, progress=False)
    curve = [row["reward"] for row in result.metrics]
    first, last = sum(curve[:2]) / 2, sum(curve[-2:]) / 2
    assert first < 0.4, curve
    assert last > first + 0.4 and last > 0.7, curve


def test_accumulation_splits_give_the_same_gradient(tiny_qwen2_dir, prompts_file, tmp_path):
    """One micro-batch or four: the summed loss and its gradient are those of the whole generation batch."""
    runs = [train(_config(tiny_qwen2_dir, prompts_file, tmp_path / f"ga{n}", max_steps=1, gradient_accumulation_steps=n),
                  progress=False).metrics[0] for n in (1, 4)]
    assert runs[0]["reward"] == runs[1]["reward"]  # same samples
    assert runs[0]["loss"] == pytest.approx(runs[1]["loss"], abs=1e-6)
    assert runs[0]["grad_norm"] == pytest.approx(runs[1]["grad_norm"], rel=1e-4)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"model": "m", "dataset": "d.jsonl", "num_generatons": 4}, "num_generatons"),
        ({"model": "m", "dataset": "d.jsonl", "loss_type": "ppo"}, "loss_type"),
        ({"model": "m", "dataset": "d.jsonl", "num_generations": 1}, "num_generations"),
        ({"model": "m", "dataset": "d.jsonl", "prompts_per_step": 3, "num_generations": 3, "gradient_accumulation_steps": 2},
         "gradient_accumulation_steps"),
        ({"model": "m", "dataset": {"path": "a.jsonl", "loader": "medqa"}}, "exactly one"),
        ({"model": "m"}, "dataset"),
        ({"model": "m", "dataset": "d.jsonl", "bf16": True, "device": "cpu"}, "bf16"),
    ],
)
def test_bad_train_sections_name_the_key(section, message):
    with pytest.raises(ConfigError, match=message):
        parse_train_section(section)


def test_defaults_follow_trl():
    cfg = parse_train_section({"model": "m", "dataset": "d.jsonl"})
    assert (cfg.loss_type, cfg.epsilon, cfg.clip_high, cfg.beta, cfg.temperature, cfg.num_iterations) == ("dapo", 0.2, 0.2, 0.0, 1.0, 1)
    assert cfg.dataset.path == "d.jsonl" and cfg.max_grad_norm == 1.0 and cfg.lr_scheduler == "linear"


def test_missing_reference_column_and_bad_jsonl_are_clear(tiny_qwen2_dir, tmp_path):
    data = tmp_path / "p.jsonl"
    data.write_text('{"prompt": "hi", "answer": "a"}\n\n{"prompt": "hi"}\n', encoding="utf-8")
    config = _config(tiny_qwen2_dir, data, tmp_path / "o")
    with pytest.raises(ConfigError, match=r"p.jsonl line 3 lacks column\(s\) \['answer'\]"):
        train(config, progress=False)
    data.write_text('{"prompt": "hi", "answer": "a"}\n{"prompt": oops}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="line 2: invalid JSON"):
        read_jsonl(data)


@pytest.mark.parametrize(("rows", "per_step", "seed"), [(7, 2, 0), (5, 5, 3), (3, 4, 1), (10, 3, 42)])
def test_prompt_order_is_a_function_of_seed_and_step(rows, per_step, seed):
    steps = 6
    order = [i for step in range(steps) for i in prompt_indices(step, per_step, rows, seed)]
    assert order == [i for step in range(steps) for i in prompt_indices(step, per_step, rows, seed)]
    for epoch_start in range(0, len(order) - rows + 1, rows):  # every full epoch is a permutation of the rows
        assert sorted(order[epoch_start: epoch_start + rows]) == list(range(rows))


@pytest.mark.parametrize("recipe", ["medqa_gdpo.yaml", "medqa_grpo.yaml", "arithmetic_gdpo.yaml", "arithmetic_grpo.yaml"])
def test_recipes_validate_and_their_prompts_load(recipe):
    from pathlib import Path

    from polyreward.trainer.config import load_train_config
    from polyreward.trainer.prompts import load_rows

    full, train_cfg = load_train_config(Path(__file__).parents[1] / "examples" / "train" / recipe)
    rewards = full.build_rewards()
    rows = load_rows(train_cfg.dataset, train_cfg.prompt_column or full.columns.prompt, rewards.columns)
    assert len(rows) >= 300 and train_cfg.model == "smollm2-135m"
    assert full.build_combiner().type_name == recipe.split("_")[1].removesuffix(".yaml")
    # the gold answers score 1 with the accuracy reward (the prompts and references line up)
    gold = [f"<think>ok</think><answer>{r['answer']}</answer>" if "medqa" in recipe else f"<think>ok</think>{r['answer']}" for r in rows[:20]]
    columns = {k: [r[k] for r in rows[:20]] for k in rows[0] if k != "prompt"}
    columns["completion_ids"] = [[1, 2, 3]] * 20
    scores = Scorer(rewards).score(Batch([r["prompt"] for r in rows[:20]], gold, columns))
    assert scores.column("accuracy").tolist() == [1.0] * 20


def test_evaluate_scores_a_checkpoint_greedily(tiny_qwen2_dir, prompts_file, tmp_path, capsys):
    config_path = tmp_path / "eval.yaml"
    config_path.write_text(yaml.safe_dump(_config(tiny_qwen2_dir, prompts_file, tmp_path / "o")), encoding="utf-8")
    from polyreward.trainer.evaluate import evaluate

    first = evaluate(config_path, limit=None, batch_size=4)
    assert first["rows"] == 7 and set(first) >= {"reward/has_e/mean", "reward/answer/mean", "reward"}
    assert first == evaluate(config_path, batch_size=4)  # greedy decoding: deterministic
    assert cli_main(["train", str(config_path), "--evaluate", str(prompts_file), "--model", str(tiny_qwen2_dir)]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 7


def test_prompts_from_a_polyreward_data_loader():
    from polyreward.trainer.config import DatasetSpec
    from polyreward.trainer.prompts import load_rows

    rows = load_rows(DatasetSpec(loader="medqa", args={"split": "test-tiny"}), "prompt", ["answer"])
    assert len(rows) == 50 and rows[0]["answer"] in "ABCDE" and "<answer>" in rows[0]["prompt"]
    with pytest.raises(ConfigError, match="unknown loader 'nope'; allowed: .*medqa"):
        load_rows(DatasetSpec(loader="nope"), "prompt", [])
    with pytest.raises(ConfigError, match="train.dataset.args"):
        load_rows(DatasetSpec(loader="medqa", args={"colour": "red"}), "prompt", [])


NAN = float("nan")


@pytest.mark.parametrize(
    ("scores", "groups", "expected"),
    [
        # two groups of 2; reward a: means over applicable rows; the weighted total uses weights (1, 0.5)
        ([[1, 0], [0, 1], [1, 1], [1, 1]], [0, 0, 1, 1],
         {"reward/a/mean": 0.75, "reward/b/mean": 0.75, "reward": 1.125, "frac_reward_zero_std": 0.5, "reward/a/applicable": 1.0}),
        # NaN = not applicable: left out of that objective's mean; a row with every reward NaN is left out of the total
        ([[1, NAN], [0, NAN], [NAN, NAN], [NAN, 1]], [0, 0, 1, 1],
         {"reward/a/mean": 0.5, "reward/b/mean": 1.0, "reward": 0.5, "frac_reward_zero_std": 0.5, "reward/a/applicable": 0.5}),
        # every group constant: no learning signal anywhere
        ([[1, 1], [1, 1], [0, 0], [0, 0]], [7, 7, 9, 9], {"reward": 0.75, "frac_reward_zero_std": 1.0}),
    ],
)
def test_reward_metrics_table(scores, groups, expected):
    import numpy as np

    from polyreward.trainer.metrics import reward_metrics

    row = reward_metrics(["a", "b"], np.array([1.0, 0.5]), np.array(scores, dtype=float), np.array(groups))
    for key, value in expected.items():
        assert row[key] == pytest.approx(value), key


def test_set_overrides_train_keys_for_training_and_evaluation(tiny_qwen2_dir, prompts_file, tmp_path, capsys):
    config_path = tmp_path / "train.yaml"
    config_path.write_text(yaml.safe_dump(_config(tiny_qwen2_dir, prompts_file, tmp_path / "unused")), encoding="utf-8")
    out = tmp_path / "run"
    assert cli_main(["train", str(config_path), "--output-dir", str(out), "--no-progress", "--set", "max_steps=1",
                     "--set", "num_generations=2", "--set", "max_new_tokens=3", "--set", "lm_head_chunk_tokens=0"]) == 0
    rows = read_metrics(out / "metrics.jsonl")
    assert [r["step"] for r in rows] == [1] and rows[0]["completions/max_length"] <= 3
    saved = load_trainer_state(latest_checkpoint(out))["train_config"]
    assert (saved["num_generations"], saved["max_new_tokens"], saved["lm_head_chunk_tokens"]) == (2, 3, 0)
    capsys.readouterr()
    assert cli_main(["train", str(config_path), "--evaluate", str(prompts_file), "--limit", "3", "--batch-size", "2",
                     "--set", "max_new_tokens=2"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 3


@pytest.mark.parametrize("args, message", [
    (["--set", "prompts_per_step"], "--set 'prompts_per_step': expected KEY=VALUE"),
    (["--set", "=4"], "expected KEY=VALUE"),
    (["--set", "prompts_per_step=[1"], "the value is not valid YAML"),
    (["--set", "colour=red"], "train.colour: unknown key; allowed: model, dataset"),
    (["--set", "num_generations=1"], "train.num_generations: Input should be greater than or equal to 2"),
])
def test_bad_set_overrides_are_refused_naming_the_key(tiny_qwen2_dir, prompts_file, tmp_path, capsys, args, message):
    config_path = tmp_path / "train.yaml"
    config_path.write_text(yaml.safe_dump(_config(tiny_qwen2_dir, prompts_file, tmp_path / "o")), encoding="utf-8")
    assert cli_main(["train", str(config_path), "--no-progress", *args]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


class _Payload:
    """Unpickling this would run ``os.system``: a checkpoint must never do that when loaded."""

    def __reduce__(self):
        import os

        return (os.system, ("touch /tmp/polyreward-pwned",))


def test_trainer_state_is_loaded_without_unpickling_code(tmp_path):
    import numpy as np

    from polyreward.trainer.checkpoint import STATE_FILE, _plain, capture_rng, restore_rng

    # a state like the trainer writes (numpy RNG, combiner state with numpy values) loads with weights_only
    np.random.seed(3)
    state = {"step": 1, "rng": capture_rng(), "combiner": _plain({"ema": np.float64(0.5), "history": np.arange(3), "n": [np.int64(2)]})}
    torch.save(state, tmp_path / STATE_FILE)
    loaded = load_trainer_state(tmp_path)
    assert loaded["combiner"] == {"ema": 0.5, "history": [0, 1, 2], "n": [2]}
    expected = np.random.rand(3)
    np.random.seed(99)
    restore_rng(loaded["rng"])
    assert np.array_equal(np.random.rand(3), expected)

    # a file holding code is refused, and the code does not run
    marker = Path("/tmp/polyreward-pwned")
    marker.unlink(missing_ok=True)
    torch.save({"step": 1, "combiner": _Payload()}, tmp_path / STATE_FILE)
    with pytest.raises(ValueError, match="holds objects other than tensors.*trusted_checkpoint=True"):
        load_trainer_state(tmp_path)
    assert not marker.exists()


def test_peak_memory_is_per_step_on_cpu():
    import numpy as np

    from polyreward.trainer.metrics import peak_memory_mb, reset_peak_memory

    cpu = torch.device("cpu")
    big = np.ones(400 * 2**20 // 8)  # 400 MB touched (far above what the rest of a test process moves by)
    high = peak_memory_mb(cpu)
    del big
    reset_peak_memory(cpu)
    low = peak_memory_mb(cpu)
    assert high > 0 and low > 0
    if Path("/proc/self/clear_refs").exists():  # Linux: the high-water mark restarts
        assert low < high - 200


@pytest.mark.parametrize("prompt, message", [
    (5, "line 2, column 'prompt': a prompt must be a string or a list of chat messages, got int"),
    ([], "line 2, column 'prompt': the chat-message list is empty"),
    ([{"content": "hi"}], "line 2, column 'prompt': chat message 0 must be an object with 'role' and 'content'"),
    (["hi"], "chat message 0 must be an object"),
])
def test_bad_prompts_are_refused_before_the_model_loads(tiny_qwen2_dir, tmp_path, prompt, message):
    data = tmp_path / "p.jsonl"
    data.write_text(json.dumps({"prompt": "ok", "answer": "a"}) + "\n" + json.dumps({"prompt": prompt, "answer": "a"}) + "\n",
                    encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(message)):
        train(_config(tiny_qwen2_dir, data, tmp_path / "o"), progress=False)
    assert not (tmp_path / "o" / "metrics.jsonl").exists()


@pytest.mark.parametrize("decode", ["eager", "static"])
def test_two_steps_on_tiny_gpt2_without_a_chat_template(tiny_gpt2_dir, prompts_file, tmp_path, decode):
    """GPT-2: learned absolute positions, no chat template (prompts go in as raw text), pad = EOS."""
    from transformers import AutoTokenizer

    assert AutoTokenizer.from_pretrained(str(tiny_gpt2_dir))("Hello world!")["input_ids"] == [15496, 995, 0]  # GPT-2's own ids
    result = train(_config(tiny_gpt2_dir, prompts_file, tmp_path / decode, decode=decode), progress=False)
    assert result.step == 2 and all(math.isfinite(r["loss"]) for r in result.metrics)
    assert all(r["completions/max_length"] <= 4 for r in result.metrics)


def test_static_decode_matches_eager_on_tiny_gpt2(tiny_gpt2_dir):
    from polyreward.trainer.policy import TransformersSampler, load_policy

    model, tokenizer = load_policy(str(tiny_gpt2_dir), torch.device("cpu"))
    prompts = ["Hi", "Write a long sentence about the weather in Paris today."]
    samples = []
    for decode in ("eager", "static"):
        torch.manual_seed(4)
        sampler = TransformersSampler(model, tokenizer, max_new_tokens=6, temperature=1.0, bf16=False, decode=decode, check_every=2)
        samples.append(sampler.sample(prompts, 2))
    assert torch.equal(samples[0].completion_ids, samples[1].completion_ids)
    assert samples[0].texts == samples[1].texts


def test_disable_dropout_makes_train_mode_log_probabilities_repeatable(tiny_gpt2_dir, prompts_file, tmp_path):
    from polyreward.trainer.loop import _disable_dropout
    from polyreward.trainer.policy import load_policy, token_logps

    model, _ = load_policy(str(tiny_gpt2_dir), torch.device("cpu"))
    ids = torch.randint(0, 50000, (2, 9), generator=torch.Generator().manual_seed(0))
    mask = torch.ones_like(ids)
    with torch.no_grad():
        assert not torch.equal(token_logps(model, ids, mask, 4, 1.0)[0], token_logps(model, ids, mask, 4, 1.0)[0])  # dropout on
        _disable_dropout(model)
        assert model.training and torch.equal(token_logps(model, ids, mask, 4, 1.0)[0], token_logps(model, ids, mask, 4, 1.0)[0])
    result = train(_config(tiny_gpt2_dir, prompts_file, tmp_path / "o", disable_dropout=True, max_steps=1), progress=False)
    assert all(m.p == 0.0 for m in result.model.modules() if isinstance(m, torch.nn.Dropout))


@register_reward
class FailsOnOddLength(RolloutReward):
    """Raises on odd-length completions (a reward bug), scores 1 otherwise."""

    type_name = "test_fails_on_odd_length"

    def score_rollout(self, completion: str, row) -> Scored:
        if len(completion) % 2:
            raise RuntimeError("odd length")
        return Scored(1.0)


def test_a_failing_reward_is_reported_and_training_goes_on(tiny_qwen2_dir, prompts_file, tmp_path, capsys):
    config = _config(tiny_qwen2_dir, prompts_file, tmp_path / "o", max_steps=2)
    config["rewards"].append({"name": "fragile", "type": "test_fails_on_odd_length"})
    result = train(config, progress=False)
    assert result.step == 2 and all(math.isfinite(r["loss"]) for r in result.metrics)
    for row in result.metrics:
        assert 0.0 <= row["reward/fragile/errors"] <= 1.0 and row["reward/has_e/errors"] == 0.0
        assert row["reward/fragile/errors"] == pytest.approx(1.0 - row["reward/fragile/applicable"])
    assert sum(r["reward/fragile/errors"] for r in result.metrics) > 0  # seeded: some completions have odd length
    printed = capsys.readouterr().err
    assert "reward 'fragile' gave no score for" in printed and "RuntimeError: odd length" in printed
    assert printed.count("RuntimeError: odd length") == 1  # each reason once per run


def test_resuming_with_other_settings_says_which_keys_differ(tiny_qwen2_dir, prompts_file, tmp_path, capsys):
    out = tmp_path / "run"
    train(_config(tiny_qwen2_dir, prompts_file, out, max_steps=1), progress=False)
    capsys.readouterr()
    resumed = train(_config(tiny_qwen2_dir, prompts_file, out, max_steps=2, seed=5, learning_rate=2e-3, save_steps=1),
                    progress=False, resume=True)
    assert resumed.step == 2
    err = capsys.readouterr().err
    assert "train settings differ from the checkpoint's (seed: 0 -> 5)" in err
    assert "(applied: learning_rate: 0.001 -> 0.002)" in err  # the schedule's keys are applied, and said so


@pytest.mark.parametrize("args", [["--limit", "0"], ["--batch-size", "-1"], ["--max-steps", "0"], ["--limit", "two"]])
def test_bad_numeric_cli_arguments_exit_2_with_a_message(tmp_path, capsys, args):
    with pytest.raises(SystemExit) as exit_info:
        cli_main(["train", str(tmp_path / "any.yaml"), "--evaluate", "x.jsonl", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "must be at least 1" in err or "expected a whole number, got 'two'" in err


def test_an_update_with_a_non_finite_gradient_is_dropped_and_counted(tiny_qwen2_dir, prompts_file, tmp_path):
    """A non-finite gradient norm (what one overflowing bf16 micro-batch gives) must not reach the optimiser: before the
    guard, SmolLM2 on MedQA (H200, bf16, 2026-12-04) had NaN weights after one such step and wrote 256-token garbage
    from then on. Here the first step's advantages are made infinite; that update is dropped (weights unchanged,
    counted in ``updates_skipped``, ``grad_norm`` NaN) and the second step trains normally."""
    import numpy as np
    from safetensors.torch import load_file

    from polyreward.combiners.grpo import GRPOCombiner

    class OverflowOnFirstCall(GRPOCombiner):
        steps = 0

        def combine(self, scores, groups, weights=None):
            out = super().combine(scores, groups, weights)
            if len(out) == 8:  # a training step's batch (2 prompts x G 4), not the 2-row check before the model loads
                type(self).steps += 1
            return np.full_like(out, np.inf) if type(self).steps == 1 else out

    out = tmp_path / "run"
    result = train(_config(tiny_qwen2_dir, prompts_file, out, max_steps=2, save_steps=1), progress=False,
                   combiner=OverflowOnFirstCall())
    first, second = result.metrics
    assert first["updates_skipped"] == 1 and math.isnan(first["grad_norm"])
    assert second["updates_skipped"] == 0 and math.isfinite(second["grad_norm"]) and second["grad_norm"] > 0
    initial = load_file(str(next(Path(tiny_qwen2_dir).glob("*.safetensors"))))
    after_one, after_two = (load_file(str(out / f"checkpoint-{k}" / "model.safetensors")) for k in (1, 2))
    assert all(torch.equal(after_one[name], initial[name]) for name in initial)
    assert all(torch.isfinite(t).all() for t in after_two.values())
    assert any(not torch.equal(after_two[name], initial[name]) for name in initial)
