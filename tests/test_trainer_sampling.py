"""Truncation masking and dynamic sampling of the bundled trainer (issue 37).

Unit tests run the real scorer and combiners on hand-made rollouts (no model); the run tests use the tiny random
Qwen2 with the real tokenizer on CPU. Exact resume with these options is in tests/test_train_resume.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from polyreward.config import ConfigError, parse_config  # noqa: E402
from polyreward.registry import register_reward  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402
from polyreward.trainer import train  # noqa: E402
from polyreward.trainer.config import parse_train_section  # noqa: E402
from polyreward.trainer.dynamic_sampling import Draw, collect_signal_groups  # noqa: E402
from polyreward.trainer.loop import loss_mask, score_step  # noqa: E402
from polyreward.trainer.policy import Rollouts, _mask_after_eos  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


@register_reward
class RowScript(RolloutReward):
    """The score the row's ``script`` column gives the completion: ``live`` = 1 when the completion has an even number
    of characters else 0; ``noise`` = 0.1 + 0.2 or 0.3 by the same parity (different floats, the same number: no
    signal by the combiners' constant rule); ``pair`` = profiles (1, 0) / (0, 0.5) with the second reward, whose
    weight 2 makes both totals 1; else the constant in ``script``."""

    type_name = "test_row_script"

    def __init__(self, name: str | None = None, weight: float = 1.0, second: bool = False) -> None:
        super().__init__(name, weight)
        self.second = second

    @property
    def columns(self) -> tuple[str, ...]:
        return ("script",)

    def score_rollout(self, completion: str, row) -> Scored:
        even = len(completion) % 2 == 0
        script = row["script"]
        if script == "live":
            return Scored(0.0 if self.second else float(even))
        if script == "noise":
            return Scored(0.0 if self.second else (0.1 + 0.2 if even else 0.3))
        if script == "pair":
            return Scored(0.5 * even if self.second else float(not even))
        return Scored(0.0 if self.second else float(script))


# ------------------------------------------------------------------------------ mask_truncated_completions
@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=7), min_size=1, max_size=5), st.sampled_from([[9], [8, 9]]))
def test_truncated_rows_are_those_trl_masks(rows, eos_ids):
    """Our rule (no EOS in the sampled tokens) equals TRL 1.16's (grpo_trainer.py:2487-2492): on the unpadded
    completion (cut after its first EOS) ``ids[-1] not in eos_and_pad``. Pad is outside the sampled vocabulary here,
    as it is for a model that never samples its pad token."""
    width = max(len(r) for r in rows)
    ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])  # right padding (0) only after the row's own tokens
    lengths = torch.tensor([len(r) for r in rows])
    ids = ids.masked_fill(torch.arange(width) >= lengths.unsqueeze(1), 7)  # filler 7 beyond a row is never EOS
    mask, terminated = _mask_after_eos(ids, eos_ids)
    mask = mask * (torch.arange(width) < lengths.unsqueeze(1)).long()  # a short row ends at its length (as max_new_tokens)
    rollouts = Rollouts(ids[:, :1], torch.ones(len(rows), 1, dtype=torch.long), ids, mask, [""] * len(rows), terminated)
    cfg = parse_train_section({"model": "m", "dataset": "d.jsonl", "mask_truncated_completions": True})
    ours = loss_mask(rollouts, cfg)

    pad_id = 100
    completion_ids_list = [ids[i][mask[i].bool()].tolist() for i in range(len(rows))]
    is_truncated = torch.tensor([ids_[-1] not in [*eos_ids, pad_id] for ids_ in completion_ids_list])  # TRL's line 2490
    trl = mask * (~is_truncated).unsqueeze(1).int()  # TRL's line 2492
    assert torch.equal(ours, trl)
    off = parse_train_section({"model": "m", "dataset": "d.jsonl"})
    assert torch.equal(loss_mask(rollouts, off), mask)


# ------------------------------------------------------------------------------ dynamic sampling (no model)
def _config(combiner="grpo", second=False):
    rewards = [{"name": "main", "type": "test_row_script"}]
    if second:
        rewards.append({"name": "other", "type": "test_row_script", "second": True, "weight": 2.0})
    return parse_config({"rewards": rewards, "combiner": combiner})


def _round(cfg, scripts, texts_per_group, start, G=2):
    """A hand-made generation round scored by the real scorer (one group per script)."""
    rows = [{"prompt": f"p{start + j}", "script": s} for j, s in enumerate(scripts)]
    texts = [t for group in texts_per_group for t in group]
    n = len(texts)
    completion_ids = torch.arange(n * 3).reshape(n, 3) + start * 100  # distinct ids, to follow rows through concatenation
    width = 2 + (start // 2) % 2  # rounds of different prompt widths (2, 3, 2, ...): concatenation must re-pad
    rollouts = Rollouts(torch.full((n, width), 5), torch.ones(n, width, dtype=torch.long), completion_ids,
                        torch.ones(n, 3, dtype=torch.long), texts, torch.ones(n, dtype=torch.bool))
    groups = np.repeat(np.arange(start, start + len(scripts)), G)
    scores = score_step(cfg.build_scorer(), rows, "prompt", rollouts, G, groups)
    return Draw(rows, groups, rollouts, scores)


def _collect(cfg, rounds, per_step=2, max_refill_rounds=3, tol=1e-6):
    from polyreward.pipeline import Scorer
    from polyreward.trainer.loop import scoring_columns

    rewards, combiner = cfg.build_rewards(), cfg.build_combiner()
    pending = iter(rounds)
    probe = lambda d, c: Scorer(rewards, combiner=c).advantages(d.scores.scores, d.groups,  # noqa: E731
                                                                 columns=scoring_columns(d.rows, "prompt", d.rollouts, 2))
    return collect_signal_groups(lambda: next(pending), probe, combiner, per_step, 2, max_refill_rounds, tol, pad_id=0)


EVEN, ODD = "ab", "abc"


def test_constant_and_float_noise_groups_are_dropped_and_refilled():
    cfg = _config()
    rounds = [
        _round(cfg, ["1", "noise"], [[EVEN, ODD], [EVEN, ODD]], start=0),  # a constant group, a 0.1 + 0.2 / 0.3 group
        _round(cfg, ["live", "0"], [[EVEN, ODD], [ODD, EVEN]], start=2),  # one signal group
        _round(cfg, ["live", "live"], [[ODD, EVEN], [EVEN, EVEN]], start=4),  # one signal, one all-even (constant)
    ]
    batch, stats = _collect(cfg, rounds)
    assert stats.rounds == 3 and stats.dropped_groups == 4 and stats.padded_groups == 0 and stats.surplus_groups == 0
    assert stats.kept == [(1, 0), (2, 0)]
    assert batch.groups.tolist() == [2, 2, 4, 4] and [r["prompt"] for r in batch.rows] == ["p2", "p4"]
    assert batch.rollouts.texts == [EVEN, ODD, ODD, EVEN]
    assert batch.scores.scores[:, 0].tolist() == [1.0, 0.0, 0.0, 1.0]
    assert batch.rollouts.completion_ids[:, 0].tolist() == [200, 203, 400, 403]  # the rows travelled with their scores
    assert batch.rollouts.prompt_ids.shape == (4, 3) and batch.rollouts.prompt_mask[:, 0].tolist() == [1, 1, 0, 0]  # left pad
    metrics = stats.metrics(2)
    assert metrics["dynamic_sampling/refill_rounds"] == 2 and metrics["dynamic_sampling/kept_signal_fraction"] == 1.0


def test_the_refill_bound_completes_the_batch_with_dropped_groups():
    cfg = _config()
    rounds = [_round(cfg, ["0", "live"], [[EVEN, EVEN], [EVEN, ODD]], start=0),
              _round(cfg, ["1", "noise"], [[EVEN, ODD], [ODD, EVEN]], start=2),
              _round(cfg, ["live", "live"], [[EVEN, ODD], [EVEN, ODD]], start=4)]  # never drawn: the bound is 1 refill
    batch, stats = _collect(cfg, rounds, max_refill_rounds=1)
    assert stats.rounds == 2 and stats.dropped_groups == 3 and stats.padded_groups == 1
    assert batch.groups.tolist() == [0, 0, 1, 1]  # the signal group and the first dropped one, in draw order
    assert stats.metrics(2)["dynamic_sampling/kept_signal_fraction"] == 0.5
    batch, stats = _collect(cfg, rounds[:1], max_refill_rounds=0)  # no refill at all: one round, padded
    assert stats.rounds == 1 and stats.padded_groups == 1


def test_surplus_signal_groups_are_discarded():
    cfg = _config()
    rounds = [_round(cfg, ["live", "0"], [[EVEN, ODD], [EVEN, ODD]], start=0),
              _round(cfg, ["live", "live"], [[ODD, EVEN], [EVEN, ODD]], start=2)]
    batch, stats = _collect(cfg, rounds)
    assert stats.kept == [(0, 0), (1, 0)] and stats.surplus_groups == 1 and batch.groups.tolist() == [0, 0, 2, 2]


@pytest.mark.parametrize(("combiner", "dropped"), [("grpo", 1), ("gdpo", 0)])
def test_a_group_the_combiner_collapses_is_dropped_only_under_that_combiner(combiner, dropped):
    """Profiles (1, 0) and (0, 0.5) at weights (1, 2): sum-then-normalise sees two totals of 1 and gives both advantage 0
    (the GDPO paper's collapse: no gradient), GDPO normalises each reward first and keeps them apart (the weights
    differ, so the two normalised rewards do not cancel). The drop rule is the combiner's own verdict."""
    cfg = _config(combiner, second=True)
    rounds = [_round(cfg, ["pair", "live"], [[EVEN, ODD], [EVEN, ODD]], start=0),
              _round(cfg, ["live", "live"], [[EVEN, ODD], [EVEN, ODD]], start=2)]
    _, stats = _collect(cfg, rounds)
    assert stats.dropped_groups == dropped


def test_a_stateful_combiner_sees_the_step_once():
    """The drop decision runs on a copy of the combiner: EBPO's running statistics are not advanced by the probe."""
    cfg = parse_config({"rewards": [{"name": "main", "type": "test_row_script"}], "combiner": "ebpo"})
    rewards, combiner = cfg.build_rewards(), cfg.build_combiner()
    before = json.dumps(combiner.state_dict(), sort_keys=True, default=str)
    from polyreward.pipeline import Scorer
    from polyreward.trainer.loop import scoring_columns

    rounds = iter([_round(cfg, ["0", "live"], [[EVEN, EVEN], [EVEN, ODD]], start=0),
                   _round(cfg, ["live", "1"], [[EVEN, ODD], [ODD, ODD]], start=2)])
    probe = lambda d, c: Scorer(rewards, combiner=c).advantages(d.scores.scores, d.groups,  # noqa: E731
                                                                 columns=scoring_columns(d.rows, "prompt", d.rollouts, 2))
    collect_signal_groups(lambda: next(rounds), probe, combiner, 2, 2, 3, 1e-6, pad_id=0)
    assert json.dumps(combiner.state_dict(), sort_keys=True, default=str) == before


@pytest.mark.parametrize(("section", "message"), [
    ({"dynamic_sampling": {"max_refill_rounds": -1}}, "train.dynamic_sampling.max_refill_rounds"),
    ({"dynamic_sampling": {"rounds": 2}}, "unknown key; allowed: max_refill_rounds, tol"),
    ({"loss_type": "cispo"}, "epsilon_high >= 1"),
    ({"loss_type": "cispo", "epsilon_high": 0.28}, "absolute cap"),
    ({"importance_sampling_level": "segment"}, "train.importance_sampling_level"),
])
def test_bad_new_keys_name_the_key(section, message):
    with pytest.raises(ConfigError, match=message):
        parse_train_section({"model": "m", "dataset": "d.jsonl", **section})


# ------------------------------------------------------------------------------ on the tiny model
@pytest.fixture()
def script_prompts(tmp_path):
    path = tmp_path / "prompts.jsonl"
    scripts = ["live", "0", "noise", "live", "1", "live", "0", "noise"]
    path.write_text("".join(json.dumps({"prompt": f"Say something ({i}).", "script": s}) + "\n" for i, s in enumerate(scripts)),
                    encoding="utf-8")
    return path


def _run_config(model_dir, prompts, out, **train_keys):
    return {"rewards": [{"name": "main", "type": "test_row_script"}], "combiner": "grpo",
            "train": {"model": str(model_dir), "dataset": str(prompts), "prompts_per_step": 2, "num_generations": 4,
                      "max_new_tokens": 6, "learning_rate": 1e-3, "max_steps": 2, "output_dir": str(out), "device": "cpu",
                      "log_completions": 0, **train_keys}}


def test_dynamic_sampling_run_counts_rounds_and_trains_on_signal_groups(tiny_qwen2_dir, script_prompts, tmp_path):
    result = train(_run_config(tiny_qwen2_dir, script_prompts, tmp_path / "run", max_steps=3,
                               dynamic_sampling={"max_refill_rounds": 3}), progress=False)
    drawn = 0
    for row in result.metrics:
        rounds = row["dynamic_sampling/rounds"]
        assert 1 <= rounds <= 4 and row["dynamic_sampling/refill_rounds"] == rounds - 1
        assert row["prompts/drawn"] == 2 * rounds
        drawn += row["prompts/drawn"]
        # the final batch has zero-signal groups only where the bound forced padding
        assert row["advantage/zero_signal_fraction"] == pytest.approx(row["dynamic_sampling/padded_groups"] / 2)
        assert row["dynamic_sampling/dropped_groups"] >= row["dynamic_sampling/padded_groups"]
    assert sum(r["dynamic_sampling/dropped_groups"] for r in result.metrics) > 0  # constant and noise rows were drawn
    from polyreward.trainer.checkpoint import load_trainer_state

    assert load_trainer_state(result.checkpoint)["prompt_cursor"] == drawn


def test_masking_truncated_completions_zeroes_their_loss(tiny_qwen2_dir, tmp_path):
    """The random model almost never samples EOS in 6 tokens: every completion is truncated, so with masking the step
    has no loss tokens (loss and gradient 0) where without it the same samples train."""
    live = tmp_path / "live.jsonl"
    live.write_text("".join(json.dumps({"prompt": f"Say something ({i}).", "script": "live"}) + "\n" for i in range(4)),
                    encoding="utf-8")
    runs = {flag: train(_run_config(tiny_qwen2_dir, live, tmp_path / str(flag), max_steps=1,
                                    mask_truncated_completions=flag), progress=False).metrics[0] for flag in (False, True)}
    off, on = runs[False], runs[True]
    assert off["reward"] == on["reward"] and off["completions/truncated"] == on["completions/truncated"] == 1.0
    assert off["completions/masked_truncated"] == 0.0 and on["completions/masked_truncated"] == 8.0
    assert on["loss"] == 0.0 and on["grad_norm"] == 0.0
    assert off["grad_norm"] > 0


@pytest.mark.parametrize("recipe", ["arithmetic_dapo.yaml", "arithmetic_gspo.yaml"])
def test_the_new_recipes_validate(recipe):
    from pathlib import Path

    from polyreward.trainer.config import load_train_config

    _, train_cfg = load_train_config(Path(__file__).parents[1] / "examples" / "train" / recipe)
    if recipe == "arithmetic_dapo.yaml":
        assert train_cfg.dynamic_sampling.max_refill_rounds == 3 and train_cfg.mask_truncated_completions
    else:
        assert train_cfg.importance_sampling_level == "sequence" and train_cfg.num_iterations == 2
