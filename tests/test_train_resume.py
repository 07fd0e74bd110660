"""Stopping and continuing a training run (issue 28): the learning-rate schedule across ``--resume``, a
checkpoint saved at the end of the current step on SIGINT / SIGTERM that ``--resume`` continues from, and exact
resume under dynamic sampling (issue 37: the prompt cursor is saved).

CPU, the tiny random Qwen2 with the real tokenizer, a built-in reward (so a subprocess can run the CLI).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
import yaml

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from polyreward.registry import register_reward  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402
from polyreward.trainer import train  # noqa: E402
from polyreward.trainer.checkpoint import latest_checkpoint, load_trainer_state  # noqa: E402
from polyreward.trainer.config import parse_train_section  # noqa: E402
from polyreward.trainer.loop import make_scheduler  # noqa: E402
from polyreward.trainer.metrics import read_metrics  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


@pytest.fixture()
def prompts_file(tmp_path):
    path = tmp_path / "prompts.jsonl"
    rows = [{"prompt": f"What is {i} + 1? Put the answer in \\boxed{{}}.", "answer": str(i + 1)} for i in range(6)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _config(model_dir, prompts_file, out, **train_keys):
    return {
        "rewards": [{"name": "format", "type": "think_format"}],
        "train": {"model": str(model_dir), "dataset": str(prompts_file), "prompts_per_step": 2, "num_generations": 2,
                  "max_new_tokens": 3, "learning_rate": 1e-3, "max_steps": 2, "output_dir": str(out), "device": "cpu",
                  **train_keys},
    }


def _section(**keys):
    return parse_train_section({"model": "m", "dataset": "d.jsonl", **keys})


@pytest.mark.parametrize("max_steps, warmup, iterations", [(1, 0, 1), (2, 0, 1), (5, 0, 1), (7, 2, 1), (4, 1, 2), (10, 10, 1)])
def test_linear_schedule_is_transformers_one(max_steps, warmup, iterations):
    """Update by update, the learning rate equals transformers' get_linear_schedule_with_warmup: the last update runs at
    1/(total - warmup) of the peak, never at 0."""
    cfg = _section(max_steps=max_steps, warmup_steps=warmup, num_iterations=iterations, learning_rate=3e-4)
    total = max_steps * iterations
    ours = make_scheduler(torch.optim.AdamW([torch.nn.Parameter(torch.zeros(1))], lr=cfg.learning_rate), cfg)
    reference_optimizer = torch.optim.AdamW([torch.nn.Parameter(torch.zeros(1))], lr=cfg.learning_rate)
    reference = transformers.get_linear_schedule_with_warmup(reference_optimizer, warmup, total)
    got, expected = [], []
    for _ in range(total):
        got.append(ours.get_last_lr()[0])
        expected.append(reference.get_last_lr()[0])
        ours.optimizer.step(), ours.step(), reference_optimizer.step(), reference.step()
    assert got == pytest.approx(expected, rel=1e-12, abs=0)
    assert got[-1] > 0
    if warmup == 0:
        assert got[0] == cfg.learning_rate and min(got) > 0


def test_resume_with_a_new_horizon_and_learning_rate_follows_the_uninterrupted_schedule(tiny_qwen2_dir, prompts_file, tmp_path,
                                                                                       capsys):
    """The tour's case: 2 steps, then ``--max-steps 5 --resume --set learning_rate=...``. The resumed steps log the
    learning rates of an uninterrupted 5-step run at the new rate (no lr-0 steps), and the trainer says it applied it."""
    out = tmp_path / "run"
    train(_config(tiny_qwen2_dir, prompts_file, out, max_steps=2, learning_rate=2e-6), progress=False)
    capsys.readouterr()
    resumed = train(_config(tiny_qwen2_dir, prompts_file, out, max_steps=5, learning_rate=5e-5), progress=False, resume=True)
    err = capsys.readouterr().err
    assert "at step 2: learning rate 5e-05, linear schedule over 5 steps (applied: learning_rate: 2e-06 -> 5e-05)" in err
    assert "train settings differ" not in err  # nothing else changed: not a warning, a statement of what it does
    uninterrupted = train(_config(tiny_qwen2_dir, prompts_file, tmp_path / "straight", max_steps=5, learning_rate=5e-5),
                          progress=False)
    resumed_lrs = [row["learning_rate"] for row in resumed.metrics]
    assert [row["step"] for row in resumed.metrics] == [3, 4, 5]
    assert resumed_lrs == pytest.approx([row["learning_rate"] for row in uninterrupted.metrics][2:], rel=1e-12)
    assert resumed_lrs == pytest.approx([5e-5 * 3 / 5, 5e-5 * 2 / 5, 5e-5 * 1 / 5], rel=1e-12)
    assert [row["step"] for row in read_metrics(out / "metrics.jsonl")] == [1, 2, 3, 4, 5]
    optimizer_lr = load_trainer_state(resumed.checkpoint)["optimizer"]["param_groups"][0]["initial_lr"]
    assert optimizer_lr == 5e-5  # the next resume starts from the applied rate too


@register_reward
class ParityWhenLive(RolloutReward):
    """1 when a ``live`` row's completion has an even number of characters, else 0; a constant 0.5 on other rows (groups
    that dynamic sampling drops)."""

    type_name = "test_resume_parity"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("live",)

    def score_rollout(self, completion: str, row) -> Scored:
        return Scored(float(len(completion) % 2 == 0) if row["live"] else 0.5)


def test_resume_with_dynamic_sampling_gspo_and_cispo_reproduces_the_uninterrupted_run(tiny_qwen2_dir, tmp_path):
    """Issue 37's options under exact resume: dynamic sampling draws a varying number of prompts per step, so the prompt
    cursor (not step × prompts_per_step) is saved and restored; sequence-level ratios, the CISPO loss, two iterations
    (off-policy ratios), two micro-batches and KL run in the same steps."""
    prompts = tmp_path / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"prompt": f"Tell me about {i}.", "live": i % 3 == 0}) + "\n" for i in range(9)),
                       encoding="utf-8")
    knobs = dict(max_steps=3, save_steps=1, prompts_per_step=2, num_generations=4, max_new_tokens=5, beta=0.1,
                 num_iterations=2, gradient_accumulation_steps=2, loss_type="cispo", epsilon_high=5.0,
                 importance_sampling_level="sequence", dynamic_sampling={"max_refill_rounds": 2}, learning_rate=3e-3)

    def config(out):
        return {"rewards": [{"name": "parity", "type": "test_resume_parity"}], "combiner": "grpo",
                "train": {"model": str(tiny_qwen2_dir), "dataset": str(prompts), "output_dir": str(out), "device": "cpu",
                          "log_completions": 0, **knobs}}

    full = train(config(tmp_path / "full"), progress=False)
    drawn = [row["prompts/drawn"] for row in full.metrics]
    assert any(d > 2 for d in drawn), drawn  # some step refilled: the cursor is not step × prompts_per_step
    assert load_trainer_state(tmp_path / "full" / "checkpoint-1")["prompt_cursor"] == drawn[0]

    resumed_dir = tmp_path / "resumed"
    resumed_dir.mkdir()
    shutil.copytree(tmp_path / "full" / "checkpoint-1", resumed_dir / "checkpoint-1")
    resumed = train(config(resumed_dir), progress=False, resume=True)
    assert [row["step"] for row in resumed.metrics] == [2, 3]
    for a, b in zip(full.metrics[1:], resumed.metrics):
        for key in ("loss", "kl", "reward", "grad_norm", "prompts/drawn", "dynamic_sampling/dropped_groups",
                    "dynamic_sampling/padded_groups", "advantage/std", "completions/mean_length"):
            assert a[key] == pytest.approx(b[key], rel=1e-6, abs=1e-9), key
    assert full.metrics[-1]["kl"] > 0
    pa = {k: v.detach() for k, v in full.model.state_dict().items()}
    pb = {k: v.detach() for k, v in resumed.model.state_dict().items()}
    assert all(torch.allclose(pa[k], pb[k], rtol=0, atol=1e-7) for k in pa)
    assert load_trainer_state(resumed.checkpoint)["prompt_cursor"] == sum(drawn)


def _child_env():
    """The CLI's child runs on one OpenMP thread, as this module runs the tiny model (tests/conftest.py
    one_torch_thread)."""
    return {**os.environ, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"}


def _run_cli(args, cwd, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "polyreward", *args], cwd=cwd, env=_child_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, **kwargs)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_saves_a_checkpoint_at_the_end_of_the_step_that_resume_continues(tiny_qwen2_dir, prompts_file, tmp_path,
                                                                                 signum, code):
    """``save_steps: 0`` (the first-run default) and a long run: Ctrl-C (or a scheduler's SIGTERM) after the first logged
    step still leaves a checkpoint of the last finished step, the run exits 128 + signal, and ``--resume`` goes on."""
    out = tmp_path / "run"
    config = tmp_path / "train.yaml"
    config.write_text(yaml.safe_dump(_config(tiny_qwen2_dir, prompts_file, out, max_steps=500, save_steps=0)), encoding="utf-8")
    process = _run_cli(["train", str(config), "--no-progress"], tmp_path)
    metrics = out / "metrics.jsonl"
    deadline = time.monotonic() + 600
    while not (metrics.exists() and metrics.read_text(encoding="utf-8").strip()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no step finished in 10 minutes"
        time.sleep(0.2)
    os.killpg(process.pid, signum)  # as a terminal's Ctrl-C does: to the whole process group, children included
    stdout, stderr = process.communicate(timeout=600)
    assert process.returncode == code, stdout + stderr
    checkpoint = latest_checkpoint(out)
    assert checkpoint is not None, stderr
    steps = [row["step"] for row in read_metrics(metrics)]
    stopped_at = int(checkpoint.name.split("-")[1])
    assert 1 <= stopped_at < 500 and steps == list(range(1, stopped_at + 1))  # every finished step logged and saved
    assert f"{signal.Signals(signum).name}: stopped after step {stopped_at}; checkpoint {checkpoint}" in stderr
    assert "Traceback" not in stderr

    resumed = subprocess.run([sys.executable, "-m", "polyreward", "train", str(config), "--no-progress", "--resume",
                              "--max-steps", str(stopped_at + 1)], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                             env=_child_env())
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"--resume from {checkpoint} at step {stopped_at}" in resumed.stderr
    assert [row["step"] for row in read_metrics(metrics)] == list(range(1, stopped_at + 2))
    assert latest_checkpoint(out).name == f"checkpoint-{stopped_at + 1}"


def test_a_missing_dataset_is_one_line_before_torch_loads(tmp_path):
    config = tmp_path / "train.yaml"
    config.write_text(yaml.safe_dump(_config("tiny-qwen2", tmp_path / "nope.jsonl", tmp_path / "run")), encoding="utf-8")
    code = ("import sys\nfrom polyreward.cli import main\nrc = main(['train', sys.argv[1]])\n"
            "print('torch' in sys.modules, 'transformers' in sys.modules)\nsys.exit(rc)")
    result = subprocess.run([sys.executable, "-c", code, str(config)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"error: train.dataset.path: {tmp_path / 'nope.jsonl'} is not a file"]
    assert result.stdout.split() == ["False", "False"]


def test_a_combiner_that_does_not_fit_the_rewards_is_refused_before_the_model_loads(prompts_file, tmp_path):
    """sa_gdpo's reward_mins with one value too many (two rewards): one ConfigError naming it, and no model is ever loaded (the model
    path does not even exist)."""
    from polyreward.config import ConfigError

    config = _config(tmp_path / "no-such-model", prompts_file, tmp_path / "run")
    config["rewards"].append({"name": "format_too", "type": "think_format", "require_answer": True})
    config["combiner"] = {"type": "sa_gdpo", "reward_mins": [0, 0, 0], "reward_maxs": [1, 1, 1]}
    with pytest.raises(ConfigError, match=r"^train combiner \(sa_gdpo\): reward_mins has 3 value\(s\) but scores have 2 reward"):
        train(config, progress=False)


def test_worker_pool_processes_ignore_ctrl_c_so_the_parent_decides(tmp_path):
    """Ctrl-C in a terminal signals every process of the foreground group: a verification worker that died of it would
    cost its item a NaN in the very step the trainer is finishing. Workers ignore SIGINT; the parent acts on it."""
    from polyreward.engine import WorkerPool

    with WorkerPool(workers=1, timeout=30) as pool:
        assert [o.value for o in pool.map(abs, [(-1,), (-2,)])] == [1, 2]
        worker = pool._pool[0].process
        os.kill(worker.pid, signal.SIGINT)
        time.sleep(0.5)  # a worker that did not ignore it would be gone by now
        assert worker.is_alive()
        outcomes = pool.map(abs, [(-3,), (-4,)])
        assert [(o.ok, o.value) for o in outcomes] == [(True, 3), (True, 4)] and pool._pool[0].process.pid == worker.pid
