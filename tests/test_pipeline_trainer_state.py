"""Rewards' state is checkpointed: resuming a training run whose config uses ``otc_tool_efficiency`` with
``running_min: true`` continues exactly (the per-prompt minimum tool-call counts travel with the checkpoint)."""

from __future__ import annotations

import json
import shutil

import pytest

torch = pytest.importorskip("torch")

from polyreward.config import parse_config  # noqa: E402
from polyreward.rewards.tool_efficiency import OTCToolEfficiency  # noqa: E402
from polyreward.trainer import train  # noqa: E402
from polyreward.trainer.checkpoint import load_trainer_state  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


def _config(model_dir, data, out):
    return {
        "rewards": [{"name": "otc", "type": "otc_tool_efficiency", "form": "grpo", "correctness": "column", "correct_column": "correct",
                     "group_column": "prompt_id", "running_min": True}],
        "combiner": "grpo",
        "train": {"model": str(model_dir), "dataset": str(data), "prompts_per_step": 2, "num_generations": 2, "max_new_tokens": 3,
                  "learning_rate": 1e-3, "max_steps": 3, "save_steps": 1, "output_dir": str(out), "seed": 3},
    }


def test_otc_running_min_state_round_trips():
    reward = OTCToolEfficiency(running_min=True, correctness="column")
    reward.evaluate([None] * 2, ["<tool_call>{}</tool_call>", "x"], correct=[1, 1], prompt_id=["a", "a"])
    assert reward.state_dict() == {"best_calls": {"a": 0}}
    clone = OTCToolEfficiency(running_min=True, correctness="column")
    clone.load_state_dict(json.loads(json.dumps(reward.state_dict())))
    assert clone.best_calls == reward.best_calls
    assert OTCToolEfficiency().state_dict() == {}
    with pytest.raises(ValueError, match="keeps no state without running_min"):
        OTCToolEfficiency().load_state_dict({"best_calls": {}})


def test_resume_with_otc_running_min_is_an_exact_continuation(tiny_qwen2_dir, tmp_path, monkeypatch):
    data = tmp_path / "prompts.jsonl"
    data.write_text("".join(json.dumps({"prompt": f"Write {c}.", "correct": 1, "prompt_id": f"p{c}"}) + "\n" for c in "abcdef"))

    def run(out, resume):
        config = parse_config(_config(tiny_qwen2_dir, data, out))
        rewards = config.build_rewards()
        return train(config, progress=False, resume=resume, rewards=rewards), rewards

    full, full_rewards = run(tmp_path / "full", False)
    saved = load_trainer_state(tmp_path / "full" / "checkpoint-1")["rewards"]
    assert set(saved) == {"otc"} and len(saved["otc"]["best_calls"]) == 2  # the two prompts of step 1

    resumed_dir = tmp_path / "resumed"
    resumed_dir.mkdir()
    shutil.copytree(tmp_path / "full" / "checkpoint-1", resumed_dir / "checkpoint-1")
    resumed, resumed_rewards = run(resumed_dir, True)
    assert resumed.step == 3
    assert resumed_rewards.state_dict() == full_rewards.state_dict() and len(full_rewards.state_dict()["otc"]["best_calls"]) == 6
    for a, b in zip(full.metrics[1:], resumed.metrics):
        for key in ("loss", "reward", "advantage/std"):
            assert a[key] == pytest.approx(b[key], rel=1e-6, abs=1e-9), key

    # the control: without the saved reward state the continuation forgets step 1's prompts
    monkeypatch.setattr(OTCToolEfficiency, "load_state_dict", lambda self, state: None)
    forgetful_dir = tmp_path / "forgetful"
    forgetful_dir.mkdir()
    shutil.copytree(tmp_path / "full" / "checkpoint-1", forgetful_dir / "checkpoint-1")
    _, forgetful = run(forgetful_dir, True)
    assert forgetful.state_dict() != full_rewards.state_dict()
