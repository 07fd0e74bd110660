"""verl 0.9.1 integration: compute_score through verl's own reward loop, combiners through compute_advantage.

Everything runs verl's real code on CPU without Ray: the reward loop worker class that the
``reward.reward_manager.name=naive`` config builds (``RewardLoopWorker`` -> ``load_reward_manager`` ->
``get_custom_reward_fn`` -> ``NaiveRewardManager``), on a real ``DataProto`` of tokenized responses, and
``verl.trainer.ppo.ray_trainer.compute_advantage`` (the legacy trainer's call) with our estimators.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
verl = pytest.importorskip("verl")

from omegaconf import OmegaConf  # noqa: E402
from verl import DataProto  # noqa: E402
from verl.experimental.reward_loop.reward_loop import RewardLoopWorker  # noqa: E402
from verl.trainer.ppo import core_algos  # noqa: E402
from verl.trainer.ppo.ray_trainer import compute_advantage  # noqa: E402
from verl.utils.ray_utils import get_event_loop  # noqa: E402

from polyreward.combiners import DVAOCombiner, GDPOCombiner, RLOOCombiner  # noqa: E402
from polyreward.integrations import verl as poly_verl  # noqa: E402

VERL_DIR = Path(verl.__file__).parent
REWARDS = ["length", "vowels", "mention", "judge", "slow"]
WEIGHTS = [1.0, 0.5, 2.0, 1.0, 1.0]
CONFIG_YAML = """\
rewards:
  - {name: length, type: "integration_rewards:LengthMod3", weight: 1.0}
  - {name: vowels, type: "integration_rewards:VowelShare", weight: 0.5}
  - {name: mention, type: "integration_rewards:AnswerMention", weight: 2.0}
  - {name: judge, type: "integration_rewards:Exploding"}
  - {name: slow, type: "integration_rewards:EngineSleepy", seconds: 60, timeout: 0.3}
combiner: {type: dvao}
"""
SMALL_YAML = """\
rewards:
  - {name: length, type: "integration_rewards:LengthMod3", weight: 1.0}
  - {name: vowels, type: "integration_rewards:VowelShare", weight: 0.5}
  - {name: mention, type: "integration_rewards:AnswerMention", weight: 2.0}
combiner: dvao
"""
KEYS = ["score"] + [f"{n}{suffix}" for n in REWARDS for suffix in ("", "/applicable", "/failed")]


@pytest.fixture(scope="module")
def config_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("verl") / "polyreward.yaml"
    path.write_text(CONFIG_YAML)
    return str(path)


@pytest.fixture(scope="module")
def small_config_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("verl_small") / "polyreward.yaml"
    path.write_text(SMALL_YAML)
    return str(path)


def expected_result(length, vowels, mention):
    """The fixed key set: judge always fails (raises), slow always times out."""
    result = {"score": 0.0}
    total = 0.0
    for name, value, weight in (("length", length, 1.0), ("vowels", vowels, 0.5), ("mention", mention, 2.0)):
        result[name] = 0.0 if value is None else value
        result[f"{name}/applicable"] = 0.0 if value is None else 1.0
        result[f"{name}/failed"] = 0.0
        total += 0.0 if value is None else weight * value
    for name in ("judge", "slow"):
        result.update({name: 0.0, f"{name}/applicable": 0.0, f"{name}/failed": 1.0})
    result["score"] = total
    return result


# ------------------------------------------------------------------------------------ compute_score
@pytest.mark.parametrize(
    "data_source, solution, ground_truth, expected",
    [
        ("openai/gsm8k", "The answer is 4", "4", expected_result(0.0, 4 / 11, 1.0)),
        ("math", "aeiou", "x", expected_result(1.0, 1.0, 0.0)),
        ("math", "four", "4", expected_result(0.5, None, 0.0)),  # vowels n/a: 4 letters
        ("other", "", {"answer": "", "extra": 1}, expected_result(0.0, None, 1.0)),  # mapping ground truth
    ],
)
def test_compute_score_returns_fixed_finite_keys(config_path, data_source, solution, ground_truth, expected):
    result = poly_verl.compute_score(data_source, solution, ground_truth, {"index": 0}, config_path=config_path)
    assert list(result) == KEYS  # same keys, same order, for every sample and data source
    assert all(isinstance(v, float) and math.isfinite(v) for v in result.values())
    assert result == pytest.approx(expected)


SMALL_KEYS = ["score"] + [f"{n}{suffix}" for n in ("length", "vowels", "mention") for suffix in ("", "/applicable", "/failed")]
VERL_EXTRA_INFO = {"index": 3, "num_turns": 2, "rollout_reward_scores": {"tool": 1.0}, "tools_kwargs": {"calc": {}}}


@pytest.mark.parametrize(
    "ground_truth, mention, reason",
    [  # verl datasets carry every kind of ground truth; each gives the fixed keys (mention: answer in the text?)
        ("42", 1.0, None),
        (42, 1.0, None),
        (np.int64(42), 1.0, None),
        (42.5, 0.0, None),
        ([42, 43], 1.0, None),  # str(list) is in the solution
        (np.array([42, 43]), 1.0, None),  # a parquet list column: read as the same Python list
        ({"answer": "43"}, 1.0, None),  # a mapping gives one column per key
        (None, 0.0, None),
    ],
)
def test_every_ground_truth_type_gives_the_fixed_keys(small_config_path, caplog, ground_truth, mention, reason):
    solution = "x = 42, or [42, 43] or 43"
    with caplog.at_level("WARNING", logger="polyreward.integrations.verl"):
        result = poly_verl.compute_score(
            data_source="search", solution_str=solution, ground_truth=ground_truth, extra_info=dict(VERL_EXTRA_INFO),
            config_path=small_config_path, reward_router_address="127.0.0.1:1",  # keyword-only, unknown extras ignored
        )
    assert list(result) == SMALL_KEYS and all(isinstance(v, float) and math.isfinite(v) for v in result.values())
    assert result["length"] == (len(solution) % 3) / 2
    if reason is None:
        assert (result["mention"], result["mention/failed"]) == (mention, 0.0)
    else:
        assert (result["mention"], result["mention/applicable"], result["mention/failed"]) == (0.0, 0.0, 1.0)
        assert any(reason in r.getMessage() for r in caplog.records)
    plain = poly_verl.compute_score("search", solution, ground_truth, None, config_path=small_config_path)
    assert plain == result  # verl's num_turns / rollout_reward_scores / tool fields change nothing here


def test_a_missing_column_is_the_one_line_missing_column_error(small_config_path):
    """A ground truth mapping without the column a reward reads is a configuration mistake, the same
    MissingColumnError as Scorer.score and `polyreward score` give, not a per-sample failure."""
    from polyreward.vocabulary import MissingColumnError

    with pytest.raises(MissingColumnError, match="reward 'mention' reads column 'answer'") as caught:
        poly_verl.compute_score("search", "42", {"target": 42, "numbers": [1, 2]}, None, config_path=small_config_path)
    assert "\n" not in str(caught.value)


def test_misconfigurations_fail_loudly(small_config_path, tmp_path):
    with pytest.raises(ValueError, match="not_applicable_value must be a finite"):
        poly_verl.compute_score("d", "x", "1", config_path=small_config_path, not_applicable_value=float("nan"))
    clash = tmp_path / "clash.yaml"
    clash.write_text('rewards:\n  - {name: score, type: "integration_rewards:LengthMod3"}\n')
    with pytest.raises(ValueError, match=r"duplicate result keys \['score'\]"):
        poly_verl.compute_score("d", "x", "1", config_path=str(clash))


def test_failures_are_logged_with_their_reason(config_path, caplog):
    with caplog.at_level("WARNING", logger="polyreward.integrations.verl"):
        poly_verl.compute_score("math", "abc", "1", None, config_path=config_path)
    messages = [r.getMessage() for r in caplog.records]
    assert any("'judge' failed" in m and "judge unreachable" in m for m in messages)
    assert any("'slow' failed" in m and "timeout" in m for m in messages)


def test_compute_score_needs_a_config(monkeypatch, small_config_path):
    monkeypatch.delenv(poly_verl.CONFIG_ENV, raising=False)
    with pytest.raises(ValueError, match="reward_kwargs.config_path"):
        poly_verl.compute_score("d", "x", "1")
    monkeypatch.setenv(poly_verl.CONFIG_ENV, small_config_path)
    assert poly_verl.compute_score("d", "aeiou", "a")["score"] == pytest.approx(1.0 + 0.5 + 2.0)
    with pytest.raises(FileNotFoundError, match="cannot be read"):
        poly_verl.compute_score("d", "x", "1", config_path="/nonexistent/polyreward.yaml")


def test_compute_score_is_thread_safe_and_has_an_async_variant(small_config_path):
    samples = [(f"s{i % 3}", "abcdefghij"[: i % 11] + " 42" * (i % 2), str(40 + i % 4)) for i in range(48)]
    sequential = [poly_verl.compute_score(d, s, g, {"i": i}, config_path=small_config_path) for i, (d, s, g) in enumerate(samples)]
    with ThreadPoolExecutor(max_workers=8) as pool:  # how verl's reward loop runs sync functions
        threaded = list(pool.map(lambda a: poly_verl.compute_score(a[1][0], a[1][1], a[1][2], {"i": a[0]}, config_path=small_config_path), enumerate(samples)))
    assert threaded == sequential

    async def run_all():
        return await asyncio.gather(
            *(poly_verl.compute_score_async(d, s, g, {"i": i}, config_path=small_config_path) for i, (d, s, g) in enumerate(samples))
        )

    assert asyncio.run(run_all()) == sequential


# ------------------------------------------------------------------------------------ verl's reward loop
PROMPTS = ["What is 2+2?", "Name the vowels."]
RESPONSES = ["The answer is 4", "4, of course", "I think 5", "aeiou", "", "e and o"]
GROUND_TRUTHS = ["4", "4", "4", "aeiou", "aeiou", "aeiou"]
UIDS = ["u0", "u0", "u0", "u1", "u1", "u1"]


def verl_config(tiny_qwen2_dir, *overrides):
    base = OmegaConf.load(VERL_DIR / "trainer/config/_generated_ppo_trainer.yaml")
    return OmegaConf.merge(base, OmegaConf.from_dotlist([f"actor_rollout_ref.model.path={tiny_qwen2_dir}", *overrides]))


def make_dataproto(tokenizer, responses=RESPONSES, prompt_len=10, response_len=10):
    pad = tokenizer.pad_token_id
    prompts, outputs, masks = [], [], []
    for i, response in enumerate(responses):
        p = tokenizer(PROMPTS[i // 3])["input_ids"][-prompt_len:]
        r = tokenizer(response)["input_ids"][:response_len] if response else []
        prompts.append([pad] * (prompt_len - len(p)) + p)
        outputs.append(r + [pad] * (response_len - len(r)))
        masks.append([0] * (prompt_len - len(p)) + [1] * len(p) + [1] * len(r) + [0] * (response_len - len(r)))
    prompts, outputs, masks = torch.tensor(prompts), torch.tensor(outputs), torch.tensor(masks)
    return DataProto.from_dict(
        tensors={"prompts": prompts, "responses": outputs, "attention_mask": masks, "input_ids": torch.cat([prompts, outputs], 1)},
        non_tensors={
            "data_source": np.array(["toy"] * len(responses), dtype=object),
            "reward_model": np.array([{"style": "rule", "ground_truth": g} for g in GROUND_TRUTHS[: len(responses)]], dtype=object),
            "extra_info": np.array([{"index": i} for i in range(len(responses))], dtype=object),
            "uid": np.array(UIDS[: len(responses)], dtype=object),
        },
    )


@pytest.fixture(scope="module")
def scored_batch(tiny_qwen2_dir, config_path):
    """verl's naive reward manager (built from verl's own config) scoring a real DataProto with our compute_score."""
    config = verl_config(
        tiny_qwen2_dir,
        "reward.custom_reward_function.path=pkg://polyreward.integrations.verl",
        "reward.custom_reward_function.name=compute_score",
        f"reward.custom_reward_function.reward_kwargs.config_path={config_path}",
    )
    assert config.reward.reward_manager.name == "naive"
    worker = RewardLoopWorker(config)
    data = make_dataproto(worker.input_tokenizer)
    outputs = get_event_loop().run_until_complete(worker.compute_score_batch(data))
    # What RewardLoopManager.compute_rm_score does with the outputs (it only adds Ray around this).
    rm_scores = type(worker.reward_manager).assemble_rm_scores(data, [o["reward_score"] for o in outputs])
    infos = [o["reward_extra_info"] for o in outputs]
    keys = list(infos[0].keys())  # verl infers the columns from sample 0
    extras = {key: np.array([info[key] for info in infos]) for key in keys}
    return worker, data, outputs, rm_scores, extras


def test_naive_reward_manager_scores_a_dataproto_with_our_compute_score(scored_batch):
    worker, data, outputs, rm_scores, extras = scored_batch
    assert type(worker.reward_manager).__name__ == "NaiveRewardManager"
    assert all(list(o["reward_extra_info"]) == KEYS for o in outputs)
    decoded = [worker.input_tokenizer.decode(ids[ids != worker.input_tokenizer.pad_token_id], skip_special_tokens=True) for ids in data.batch["responses"]]
    for o, response, gt in zip(outputs, decoded, GROUND_TRUTHS):
        direct = poly_verl.compute_score("toy", response, gt, {"index": 0}, config_path=worker.config.reward.custom_reward_function.reward_kwargs.config_path)
        assert o["reward_extra_info"] == pytest.approx(direct)
        assert o["reward_score"] == pytest.approx(direct["score"])
    # rm_scores: the score sits on the last response token (verl's assemble_rm_scores)
    lengths = data.batch["attention_mask"][:, data.batch["prompts"].shape[1] :].sum(1)
    for i, o in enumerate(outputs):
        if lengths[i] > 0:
            assert rm_scores[i, lengths[i] - 1].item() == pytest.approx(o["reward_score"], abs=1e-6)
            assert rm_scores[i].abs().sum().item() == pytest.approx(abs(o["reward_score"]), abs=1e-6)
    assert all(np.isfinite(v.astype(float)).all() for v in extras.values())
    assert extras["judge/failed"].tolist() == [1.0] * 6 and extras["slow/failed"].tolist() == [1.0] * 6  # the step went on


def test_async_variant_through_verls_loader_and_naive_manager(scored_batch, tiny_qwen2_dir, config_path):
    """verl awaits compute_score_async (iscoroutinefunction on the loaded function) with the same results."""
    import pickle

    from verl.trainer.ppo.reward import get_custom_reward_fn, load_reward_manager

    worker, data, outputs, _, _ = scored_batch
    settings = [
        "reward.custom_reward_function.path=pkg://polyreward.integrations.verl",
        f"reward.custom_reward_function.reward_kwargs.config_path={config_path}",
    ]
    config = verl_config(tiny_qwen2_dir, *settings, "reward.custom_reward_function.name=compute_score_async")
    manager = load_reward_manager(config, worker.input_tokenizer)
    assert manager.is_async_reward_score
    again = get_event_loop().run_until_complete(asyncio.gather(*(manager.run_single(data[i : i + 1]) for i in range(len(data)))))
    assert [o["reward_extra_info"] for o in again] == [o["reward_extra_info"] for o in outputs]
    # the remote manager ships the loaded sync function to Ray actors: it must pickle
    loaded = get_custom_reward_fn(verl_config(tiny_qwen2_dir, *settings, "reward.custom_reward_function.name=compute_score"))
    assert pickle.loads(pickle.dumps(loaded))(data_source="toy", solution_str="aeiou", ground_truth="aeiou", extra_info=None) == outputs[3]["reward_extra_info"]


# ------------------------------------------------------------------------------------ advantage estimators
def legacy_batch(scored_batch):
    """The batch as the legacy trainer hands it to compute_advantage (ray_trainer.py ~L1630)."""
    _, data, _, rm_scores, extras = scored_batch
    batch = data.select(deepcopy=True)
    batch.batch["token_level_scores"] = rm_scores
    batch.batch["token_level_rewards"] = rm_scores
    batch.non_tensor_batch.update(extras)
    return batch


def algorithm(tiny_qwen2_dir, *overrides):
    return verl_config(tiny_qwen2_dir, *overrides).algorithm


def test_plugin_registers_estimators_at_import_verl():
    code = (
        "import verl\n"
        "from verl.trainer.ppo import core_algos as c\n"
        "print(c.ADV_ESTIMATOR_REGISTRY['gdpo'].__module__, c.ADV_ESTIMATOR_REGISTRY['polyreward'].__name__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "VERL_USE_EXTERNAL_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, cwd="/")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["polyreward.integrations.verl", "compute_polyreward_advantage"]
    poly_verl.register()  # idempotent in this process too
    poly_verl.register()
    assert core_algos.get_adv_estimator_fn("gdpo") is poly_verl.compute_gdpo_or_polyreward_advantage
    from verl.utils.import_utils import load_extern_object

    try:  # a second copy of the module (verl's file-path loader, importlib.reload) registers over the first
        copy_register = load_extern_object(str(Path(poly_verl.__file__)), "register")
        copy_register()
        copy_register()
        assert core_algos.get_adv_estimator_fn("polyreward").__module__ != poly_verl.__name__
        assert core_algos.get_adv_estimator_fn("gdpo").__globals__["_verl_gdpo"] is core_algos.compute_gdpo_outcome_advantage
    finally:
        poly_verl.register()
    assert core_algos.get_adv_estimator_fn("polyreward") is poly_verl.compute_polyreward_advantage
    assert poly_verl._verl_gdpo is core_algos.compute_gdpo_outcome_advantage
    with pytest.raises(ValueError, match="already been registered"):  # a foreign estimator of that name is not overwritten
        core_algos.register_adv_est("polyreward")(lambda *a, **k: None)


@pytest.mark.parametrize(
    "overrides, combiner, keys, weights",
    [
        (["algorithm.polyreward_combiner=dvao"], DVAOCombiner(), ["length", "vowels", "mention"], None),
        (
            ["algorithm.polyreward_combiner=dvao", "algorithm.gdpo_reward_keys=[length,vowels,mention]", "algorithm.gdpo_reward_weights=[1.0,0.5,2.0]"],
            DVAOCombiner(),
            ["length", "vowels", "mention"],
            [1.0, 0.5, 2.0],
        ),
        (["algorithm.polyreward_combiner={type: gdpo, variant: nvlabs}", "algorithm.gdpo_reward_keys=[length,vowels]"], GDPOCombiner(variant="nvlabs"), ["length", "vowels"], None),
        ("CONFIG", DVAOCombiner(), REWARDS, WEIGHTS),  # algorithm.polyreward_config=<the same YAML>
    ],
)
def test_compute_advantage_with_our_estimator_in_the_gdpo_slot(scored_batch, tiny_qwen2_dir, config_path, overrides, combiner, keys, weights):
    if overrides == "CONFIG":
        overrides = [f"algorithm.polyreward_config={config_path}"]
    elif "gdpo_reward_keys" not in " ".join(overrides):
        overrides = overrides + ["algorithm.gdpo_reward_keys=[length,vowels,mention]"]
    config = algorithm(tiny_qwen2_dir, "algorithm.adv_estimator=gdpo", *overrides)
    batch = compute_advantage(legacy_batch(scored_batch), adv_estimator=config.adv_estimator, config=config)
    extras = scored_batch[4]
    matrix = np.stack([np.where(extras[f"{k}/applicable"] == 1, extras[k], np.nan) for k in keys], axis=1)
    assert np.isnan(matrix).any() or keys == ["length", "vowels", "mention"]
    expected = np.nan_to_num(combiner.combine(matrix, np.array(UIDS), None if weights is None else np.array(weights)))
    mask = batch.batch["response_mask"]
    torch.testing.assert_close(batch.batch["advantages"], torch.tensor(expected, dtype=torch.float32)[:, None] * mask, atol=1e-6, rtol=0)
    torch.testing.assert_close(batch.batch["returns"], batch.batch["advantages"])


def test_gdpo_slot_without_polyreward_keys_is_verls_own_gdpo(scored_batch, tiny_qwen2_dir):
    config = algorithm(tiny_qwen2_dir, "algorithm.adv_estimator=gdpo", "algorithm.gdpo_reward_keys=[length,mention]")
    ours = compute_advantage(legacy_batch(scored_batch), adv_estimator="gdpo", config=config)
    batch = legacy_batch(scored_batch)
    batch.batch["response_mask"] = ours.batch["response_mask"]
    theirs, _ = poly_verl._verl_gdpo(
        token_level_rewards=batch.batch["token_level_rewards"], response_mask=batch.batch["response_mask"],
        index=batch.non_tensor_batch["uid"], config=config, non_tensor_batch=batch.non_tensor_batch, batch=batch.batch,
    )
    assert poly_verl._verl_gdpo is core_algos.compute_gdpo_outcome_advantage
    assert torch.equal(ours.batch["advantages"], theirs)


def test_our_gdpo_verl_variant_matches_verls_gdpo(scored_batch, tiny_qwen2_dir):
    keys = "algorithm.gdpo_reward_keys=[length,mention]"
    builtin = compute_advantage(legacy_batch(scored_batch), adv_estimator="gdpo", config=algorithm(tiny_qwen2_dir, keys))
    config = algorithm(tiny_qwen2_dir, keys, "algorithm.polyreward_combiner={type: gdpo, variant: verl}")
    ours = compute_advantage(legacy_batch(scored_batch), adv_estimator="gdpo", config=config)
    assert builtin.batch["advantages"].abs().max() > 0.1
    torch.testing.assert_close(ours.batch["advantages"], builtin.batch["advantages"], atol=1e-5, rtol=0)


def test_polyreward_estimator_on_the_summed_reward(scored_batch, tiny_qwen2_dir):
    config = algorithm(tiny_qwen2_dir, "algorithm.adv_estimator=polyreward", "algorithm.polyreward_combiner=rloo")
    batch = compute_advantage(legacy_batch(scored_batch), adv_estimator="polyreward", config=config)
    summed = scored_batch[3].sum(-1).double().numpy()
    expected = RLOOCombiner().combine(summed[:, None], np.array(UIDS))
    torch.testing.assert_close(batch.batch["advantages"], torch.tensor(expected, dtype=torch.float32)[:, None] * batch.batch["response_mask"], atol=1e-6, rtol=0)


def test_estimator_configuration_errors_are_clear(scored_batch, tiny_qwen2_dir):
    with pytest.raises(ValueError, match="polyreward_combiner"):
        compute_advantage(legacy_batch(scored_batch), adv_estimator="polyreward", config=algorithm(tiny_qwen2_dir))
    config = algorithm(tiny_qwen2_dir, "algorithm.polyreward_combiner=dvao", "algorithm.gdpo_reward_keys=[length,vowels]", "algorithm.gdpo_reward_weights=[1.0]")
    with pytest.raises(ValueError, match="1 entries for 2 reward keys"):
        compute_advantage(legacy_batch(scored_batch), adv_estimator="gdpo", config=config)
    config = algorithm(tiny_qwen2_dir, "algorithm.polyreward_combiner=dvao", "algorithm.gdpo_reward_keys=[length,nope]")
    with pytest.raises(KeyError, match="'nope' is not in the batch"):
        compute_advantage(legacy_batch(scored_batch), adv_estimator="gdpo", config=config)


# ------------------------------------------------------------------------------------ one config, three consumers
def test_one_config_drives_score_cli_trl_and_verl(small_config_path, tmp_path):
    from polyreward.cli import main
    from polyreward.integrations.trl import reward_funcs

    rows = [
        {"prompt": "What is 2+2?", "completion": c, "answer": a, "prompt_id": i // 2}
        for i, (c, a) in enumerate([("The answer is 4", "4"), ("five", "4"), ("aeiou", "x"), ("", "3")])
    ]
    rollouts = tmp_path / "rollouts.jsonl"
    rollouts.write_text("".join(json.dumps(r) + "\n" for r in rows))
    scored = tmp_path / "scored.jsonl"
    assert main(["score", str(rollouts), "--config", small_config_path, "-o", str(scored), "--quiet"]) == 0
    cli = [json.loads(line) for line in scored.read_text().splitlines()]

    funcs = reward_funcs(small_config_path)
    completions = [r["completion"] for r in rows]
    answers = [r["answer"] for r in rows]
    trl = {f.__name__: f(prompts=[r["prompt"] for r in rows], completions=completions, answer=answers) for f in funcs}
    verl_rows = [poly_verl.compute_score("toy", r["completion"], r["answer"], {"prompt": r["prompt"]}, config_path=small_config_path) for r in rows]

    for name in ("length", "vowels", "mention"):
        from_cli = [row[name] for row in cli]
        from_verl = [v[name] if v[f"{name}/applicable"] else None for v in verl_rows]
        assert [v is None for v in from_cli] == [v is None for v in trl[name]] == [v is None for v in from_verl], name
        for a, b, c in zip(from_cli, trl[name], from_verl):
            if a is not None:
                assert a == pytest.approx(b, abs=1e-12) and b == c, name


def test_readme_overrides_compose_with_verls_hydra_config_and_run(scored_batch, tiny_qwen2_dir, config_path):
    """The README's command-line overrides, composed by Hydra from verl's own ppo_trainer.yaml, drive both halves."""
    from hydra import compose, initialize_config_dir

    overrides = [
        f"actor_rollout_ref.model.path={tiny_qwen2_dir}",
        "trainer.use_v1=False",
        "algorithm.adv_estimator=gdpo",
        f"+algorithm.polyreward_config={config_path}",
        "+algorithm.polyreward_combiner={type:gdpo,variant:verl}",
        "+algorithm.gdpo_reward_keys=[length,mention]",
        "reward.reward_manager.name=naive",
        "reward.custom_reward_function.path=pkg://polyreward.integrations.verl",
        "reward.custom_reward_function.name=compute_score",
        f"+reward.custom_reward_function.reward_kwargs.config_path={config_path}",
    ]
    with initialize_config_dir(config_dir=str(VERL_DIR / "trainer" / "config"), version_base=None):
        config = compose(config_name="ppo_trainer", overrides=overrides)
    worker = RewardLoopWorker(config)
    data = make_dataproto(worker.input_tokenizer)
    outputs = get_event_loop().run_until_complete(worker.compute_score_batch(data))
    assert [o["reward_extra_info"] for o in outputs] == [o["reward_extra_info"] for o in scored_batch[2]]
    batch = compute_advantage(legacy_batch(scored_batch), adv_estimator=config.algorithm.adv_estimator, config=config.algorithm)
    builtin = compute_advantage(
        legacy_batch(scored_batch),
        adv_estimator="gdpo",  # the config's weights for these two rewards, by name: length 1.0, mention 2.0
        config=algorithm(tiny_qwen2_dir, "algorithm.gdpo_reward_keys=[length,mention]", "algorithm.gdpo_reward_weights=[1.0,2.0]"),
    )
    torch.testing.assert_close(batch.batch["advantages"], builtin.batch["advantages"], atol=1e-5, rtol=0)


def test_a_list_ground_truth_is_a_list_of_accepted_golds(tmp_path):
    """As a list cell of a rollout file (docs/integrations.md, verl constraint 9): any gold of the list matches."""
    from polyreward.config import load_config
    from polyreward.schema import Batch

    path = tmp_path / "math.yaml"
    path.write_text("engine: {workers: 0}\nrewards:\n  - {name: math, type: math_accuracy}\n")
    for gold, expected in ((["2", "3"], 1.0), (np.array([2, 3]), 1.0), (["2", "4"], 0.0)):
        result = poly_verl.compute_score("d", "The answer is \\boxed{3}", gold, None, config_path=str(path))
        assert result["math"] == expected
        config = load_config(path)
        file_score = config.build_scorer().score(
            Batch([None], ["The answer is \\boxed{3}"], {"answer": [list(np.asarray(gold).tolist())]})).scores[0, 0]
        assert file_score == expected  # the same as polyreward score on a JSONL list cell
