"""Sampling and log-probabilities of the policy on the tiny Qwen2 (real tokenizer, random weights)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from polyreward.trainer.policy import TransformersSampler, load_policy, token_logps  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread

PROMPTS = ["Hi", "Write a long sentence about the weather in Paris today."]  # different lengths: left padding matters


@pytest.fixture(scope="module")
def policy(tiny_qwen2_dir):
    return load_policy(str(tiny_qwen2_dir), torch.device("cpu"))


def test_near_zero_temperature_decodes_like_greedy_generate(policy):
    model, tokenizer = policy
    sampler = TransformersSampler(model, tokenizer, max_new_tokens=6, temperature=1e-5, bf16=False)
    rollouts = sampler.sample(PROMPTS, 2)
    model.eval()
    reference = model.generate(input_ids=rollouts.prompt_ids, attention_mask=rollouts.prompt_mask, do_sample=False, max_new_tokens=6,
                               pad_token_id=tokenizer.pad_token_id)
    model.train()
    assert torch.equal(rollouts.completion_ids, reference[:, rollouts.prompt_ids.size(1):])
    assert rollouts.completion_mask.sum().item() == 4 * 6 and rollouts.texts[0] == rollouts.texts[1]


def test_logps_of_a_padded_batch_equal_those_of_each_row_alone(policy):
    model, tokenizer = policy
    torch.manual_seed(1)
    rollouts = TransformersSampler(model, tokenizer, max_new_tokens=5, temperature=1.0, bf16=False).sample(PROMPTS, 1)
    ids = torch.cat([rollouts.prompt_ids, rollouts.completion_ids], 1)
    mask = torch.cat([rollouts.prompt_mask, rollouts.completion_mask], 1)
    with torch.no_grad():
        batched, entropy = token_logps(model, ids, mask, 5, temperature=0.7, with_entropy=True)
        for row in range(2):
            keep = rollouts.prompt_mask[row].bool()
            alone_ids = torch.cat([rollouts.prompt_ids[row][keep], rollouts.completion_ids[row]]).unsqueeze(0)
            alone, _ = token_logps(model, alone_ids, torch.ones_like(alone_ids), 5, temperature=0.7)
            assert torch.allclose(batched[row], alone[0], atol=1e-5)
        logits = model(input_ids=ids, attention_mask=mask, position_ids=(mask.cumsum(-1) - 1).clamp(min=0)).logits[:, -6:-1] / 0.7
        expected = -(logits.softmax(-1) * logits.log_softmax(-1)).sum(-1)
    assert torch.allclose(entropy, expected, atol=1e-4)
    assert (batched <= 0).all()
