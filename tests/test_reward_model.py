"""``reward_model``: a tiny randomly initialised sequence classifier (the real Qwen2.5 tokenizer from the
offline vocab, built like the tiny models of ``polyreward.trainer.assets``), scored locally and
through real servers on 127.0.0.1 that speak vLLM's ``/pooling`` and ``/classify`` formats
(vllm/entrypoints/pooling/pooling/protocol.py, vllm/entrypoints/pooling/classify/protocol.py:
``{"model", "input": [...]}`` -> ``data[i].data`` / ``data[i].probs``), and inside a real TRL
``GRPOTrainer`` run.

The local rendering and the ``logits[:, 0]`` reward are TRL's (trl/trainer/grpo_trainer.py,
``_calculate_rewards``: chat template over prompt + completion, right padding, no special tokens).
"""

from __future__ import annotations

import json
import math
import threading
from http.server import ThreadingHTTPServer

import pytest
from judge_stubs import QuietHandler

torch = pytest.importorskip("torch")

from polyreward.registry import reward_class  # noqa: E402
from polyreward.rewards.reward_model import RewardModelReward, local_model, normalized, render  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread

PROMPTS = [[{"role": "user", "content": f"What is {i} + {i}?"}] for i in range(5)]
COMPLETIONS = ["It is 2.", "I think 4.", [{"role": "assistant", "content": "6, surely."}], "8", "Ten? " * 30]


class VLLMStyleServer:
    """``POST /pooling`` and ``/classify`` over the same local model, one forward pass per request."""

    def __init__(self, model_dir, fail_first: int = 0) -> None:
        self.model = local_model(str(model_dir))
        self.inputs: list[list[str]] = []
        self.fail_first = fail_first
        server = self

        class Handler(QuietHandler):
            def do_POST(self):  # noqa: N802
                body = self.json_body()
                server.inputs.append(body["input"])
                if len(server.inputs) <= server.fail_first:
                    status, payload = 503, {"error": {"message": "loading"}}
                else:
                    logits = server.model.logits(body["input"], body.get("truncate_prompt_tokens"), "left")
                    if self.path.endswith("/pooling"):
                        data = [{"index": i, "object": "pooling", "data": row} for i, row in enumerate(logits)]
                    else:
                        data = [{"index": i, "label": "x", "probs": normalized(row, "softmax"), "num_classes": len(row)}
                                for i, row in enumerate(logits)]
                    status, payload = 200, {"object": "list", "model": body["model"], "data": data[::-1],
                                            "usage": {"prompt_tokens": 10, "total_tokens": 10}}
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def served(classifier_dir):
    servers = [VLLMStyleServer(classifier_dir), VLLMStyleServer(classifier_dir, fail_first=1)]
    yield servers
    for server in servers:
        server.close()


def test_local_scores_are_trl_logits_of_the_chat_templated_rollout(classifier_dir):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    out = RewardModelReward(model=str(classifier_dir), batch_size=2).evaluate(PROMPTS, COMPLETIONS)
    tokenizer = AutoTokenizer.from_pretrained(str(classifier_dir))
    model = AutoModelForSequenceClassification.from_pretrained(str(classifier_dir)).eval()
    for prompt, completion, score in zip(PROMPTS, COMPLETIONS, out.scores):
        turn = completion if isinstance(completion, list) else [{"role": "assistant", "content": completion}]
        text = tokenizer.apply_chat_template(prompt + turn, tokenize=False)
        with torch.inference_mode():
            logit = model(**tokenizer(text, return_tensors="pt", add_special_tokens=False)).logits[0, 0].item()
        assert score == pytest.approx(logit, abs=1e-5)
    assert len(set(out.scores)) == 5 and all(r.startswith("reward model score") for r in out.reasons)


def test_batching_does_not_change_scores(classifier_dir):
    one = RewardModelReward(model=str(classifier_dir), batch_size=1).evaluate(PROMPTS, COMPLETIONS).scores
    three = RewardModelReward(model=str(classifier_dir), batch_size=3).evaluate(PROMPTS, COMPLETIONS).scores
    assert three == pytest.approx(one, abs=1e-5)


def test_truncation_side_and_normalisation(classifier_dir):
    long = ["word " * 200 + "final answer 4"]
    left = RewardModelReward(model=str(classifier_dir), max_length=16, truncation_side="left").evaluate(PROMPTS[:1], long).scores
    right = RewardModelReward(model=str(classifier_dir), max_length=16, truncation_side="right").evaluate(PROMPTS[:1], long).scores
    model = local_model(str(classifier_dir))
    text = render(model.tokenizer, PROMPTS[0], long[0])
    ids = model.tokenizer(text, add_special_tokens=False)["input_ids"]
    assert left[0] == pytest.approx(model.logits([model.tokenizer.decode(ids[-16:])])[0][0], abs=1e-4)
    assert left != pytest.approx(right)
    raw = RewardModelReward(model=str(classifier_dir)).evaluate(PROMPTS, COMPLETIONS).scores
    sig = RewardModelReward(model=str(classifier_dir), normalize="sigmoid").evaluate(PROMPTS, COMPLETIONS).scores
    soft = RewardModelReward(model=str(classifier_dir), normalize="softmax", label_index=1).evaluate(PROMPTS, COMPLETIONS)
    assert sig == pytest.approx([1 / (1 + math.exp(-r)) for r in raw])
    assert all(0 < s < 1 for s in soft.scores) and "(softmax)" in soft.reasons[0]


@pytest.mark.parametrize("api, normalize", [("pooling", "none"), ("pooling", "sigmoid"), ("classify", "none")])
def test_served_scores_equal_local_scores(classifier_dir, served, api, normalize):
    local_normalize = "softmax" if api == "classify" else normalize
    local = RewardModelReward(model=str(classifier_dir), batch_size=2, normalize=local_normalize).evaluate(PROMPTS, COMPLETIONS)
    reward = RewardModelReward(
        server={"base_url": [s.url for s in served], "model": "rm", "api": api, "backoff": 0.01, "timeout": 30},
        tokenizer=str(classifier_dir), batch_size=2, normalize=normalize)
    remote = reward.evaluate(PROMPTS, COMPLETIONS)
    assert remote.scores == local.scores  # the same strings, the same chunks, the same model: bit-identical
    endpoints = reward.summary()["endpoints"]
    assert sum(e["ok"] for e in endpoints.values()) == 3 and endpoints[f"{served[1].url}/{api}"]["failed"] >= 1  # 503 retried


def test_served_model_down_is_nan_per_row_with_the_reason(classifier_dir):
    reward = RewardModelReward(server={"base_url": "http://127.0.0.1:9", "model": "rm", "max_retries": 1, "backoff": 0.01},
                               tokenizer=str(classifier_dir))
    out = reward.evaluate(PROMPTS[:2], COMPLETIONS[:2])
    assert all(math.isnan(s) for s in out.scores)
    assert all(r.startswith("error: reward model server: connection error") and "(2 attempt(s) max)" in r for r in out.reasons)


def test_bad_rows_fail_alone(classifier_dir):
    out = RewardModelReward(model=str(classifier_dir), label_index=5).evaluate(PROMPTS[:1], COMPLETIONS[:1])
    assert math.isnan(out.scores[0]) and "label_index 5 but the model gives 2 output(s)" in out.reasons[0]
    plain = RewardModelReward(model=str(classifier_dir)).evaluate(["Q: 1+1? A:", None], [" 2", None])
    assert all(math.isfinite(s) for s in plain.scores)  # plain text: prompt + completion, as TRL


@pytest.mark.parametrize(
    "params, message",
    [({}, "exactly one of model"), ({"model": "/nowhere", "server": {}}, "exactly one of model"),
     ({"model": "/nowhere"}, "not a local model directory"),
     ({"server": {"base_url": "http://h:1", "model": "rm", "api": "rerank"}}, "server.api"),
     ({"server": {"base_url": "http://h:1", "model": "rm", "api": "classify"}, "normalize": "sigmoid"}, "already returns probabilities"),
     ({"server": {"base_url": "http://h:1", "model": "rm", "retries": 3}}, "server: .*retries"),
     ({"server": {"base_url": "http://h:1", "model": "rm"}, "max_length": 8, "truncation_side": "right"}, "truncate from the left"),
     ({"server": {"base_url": "http://h:1", "model": "rm"}, "normalize": "zscore"}, "normalize")],
)
def test_bad_settings_name_the_key(params, message):
    with pytest.raises(ValueError, match=message):
        RewardModelReward(**params)


def test_two_step_trl_grpo_run_with_the_reward_model(tiny_qwen2_dir, classifier_dir, tmp_path):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from polyreward.config import parse_config
    from polyreward.integrations.trl import reward_funcs, reward_weights

    assert reward_class("reward_model") is RewardModelReward
    config = parse_config({"rewards": [
        {"name": "rm", "type": "reward_model", "weight": 1.0, "model": str(classifier_dir), "normalize": "sigmoid"},
        {"name": "format", "type": "think_format", "weight": 0.5},
    ]})
    rows = [{"prompt": [{"role": "user", "content": f"What is {i} + {i + 1}?"}], "answer": str(2 * i + 1)} for i in range(4)]
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=4, num_generations=4,
                      max_completion_length=8, learning_rate=1e-5, logging_steps=1, report_to=[], use_cpu=True, bf16=False,
                      save_strategy="no", seed=0, reward_weights=reward_weights(config))
    trainer = GRPOTrainer(model=str(tiny_qwen2_dir), reward_funcs=reward_funcs(config), args=args, train_dataset=Dataset.from_list(rows))
    trainer.train()
    logged = [entry for entry in trainer.state.log_history if "rewards/rm/mean" in entry]
    assert trainer.state.global_step == 2 and len(logged) == 2
    assert all(0.0 < entry["rewards/rm/mean"] < 1.0 for entry in logged)  # sigmoid of a random head: strictly inside
