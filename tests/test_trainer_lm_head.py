"""The chunked LM head (trainer/lm_head.py): same log-probabilities, entropies and gradients as full logits."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from polyreward.trainer.lm_head import ChunkedTokenLogps, chunked_token_logps, supports_chunked_head  # noqa: E402
from polyreward.trainer.policy import load_policy, token_logps  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread


def _full_logps(hidden, weight, targets, temperature):
    logits = (hidden @ weight.t()).float() / temperature
    logps = logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    entropy = -(logits.softmax(-1) * logits.log_softmax(-1)).sum(-1)
    return logps, entropy.detach()


def _inputs(batch=3, length=5, width=8, vocab=37, seed=0, dtype=torch.float32):
    generator = torch.Generator().manual_seed(seed)
    hidden = torch.randn(batch, length, width, generator=generator, dtype=dtype, requires_grad=True)
    weight = torch.randn(vocab, width, generator=generator, dtype=dtype, requires_grad=True)
    targets = torch.randint(vocab, (batch, length), generator=generator)
    return hidden, weight, targets


@pytest.mark.parametrize("temperature", [1.0, 0.7, 1.6])
@pytest.mark.parametrize("chunk_tokens", [1, 4, 7, 15, 1000])  # 15 = every token at once; 4 and 7 leave a ragged last chunk
def test_values_entropies_and_gradients_equal_full_logits(temperature, chunk_tokens):
    hidden, weight, targets = _inputs()
    upstream = torch.randn(3, 5, generator=torch.Generator().manual_seed(1))
    logps, entropy = chunked_token_logps(hidden, weight, targets, temperature, chunk_tokens, with_entropy=True)
    grads = torch.autograd.grad((logps * upstream).sum(), (hidden, weight))
    expected, expected_entropy = _full_logps(hidden, weight, targets, temperature)
    expected_grads = torch.autograd.grad((expected * upstream).sum(), (hidden, weight))
    assert logps.shape == entropy.shape == (3, 5)
    torch.testing.assert_close(logps, expected, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(entropy, expected_entropy, rtol=1e-5, atol=1e-5)
    for got, want in zip(grads, expected_grads):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    assert not entropy.requires_grad


def test_gradcheck_in_float64():
    hidden, weight, targets = _inputs(batch=2, length=3, width=4, vocab=6, dtype=torch.float64)

    def function(h, w):
        # float64 in, float32 log-probabilities out: compare in float64 by running the head in float64
        return ChunkedTokenLogps.apply(h.reshape(6, 4), w, targets.reshape(-1), 0.9, 4, torch.float64, False)[0].double()

    # the result is float32, so finite differences are only good to ~1e-3
    assert torch.autograd.gradcheck(function, (hidden, weight), eps=1e-3, atol=2e-3, rtol=2e-3)


def test_only_the_needed_gradient_is_computed():
    hidden, weight, targets = _inputs()
    frozen = weight.detach()
    logps, _ = chunked_token_logps(hidden, frozen, targets, 1.0, 4)
    logps.sum().backward()
    assert hidden.grad is not None and frozen.grad is None
    with torch.no_grad():
        logps, entropy = chunked_token_logps(hidden, weight, targets, 1.0, 4)
    assert not logps.requires_grad and entropy is None


def test_bf16_autocast_runs_the_head_in_bf16_like_lm_head_under_autocast():
    hidden, weight, targets = _inputs(batch=2, length=6, width=16, vocab=50)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logps, _ = chunked_token_logps(hidden, weight, targets, 1.0, 5)
        expected = torch.nn.functional.linear(hidden, weight).float().log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    assert logps.dtype == torch.float32
    torch.testing.assert_close(logps, expected, rtol=0, atol=1e-6)  # the same bf16 matmul, the same float32 softmax
    hidden_grad, weight_grad = torch.autograd.grad(logps.sum(), (hidden, weight))
    expected_grads = torch.autograd.grad(expected.sum(), (hidden, weight))
    for got, want in zip((hidden_grad, weight_grad), expected_grads):
        assert got.dtype == torch.float32
        torch.testing.assert_close(got, want, rtol=2e-2, atol=2e-2)  # bf16 matmuls, summed in another order


# ----------------------------------------------------------------------------------------- on a real model
@pytest.mark.parametrize("model_fixture", ["tiny_qwen2_dir", "tiny_gpt2_dir"])
def test_token_logps_chunked_equals_whole_logits_on_real_architectures(request, model_fixture):
    """Values, entropies and every parameter's gradient (the tied embedding included), with left padding;
    Qwen2 (rotary positions) and GPT-2 (learned absolute positions, ``transformer`` base model)."""
    model, tokenizer = load_policy(str(request.getfixturevalue(model_fixture)), torch.device("cpu"))
    model.eval()  # GPT-2 has dropout: two forwards in train mode differ whatever the head does
    assert supports_chunked_head(model)
    encoded = tokenizer(["Hi", "Write a long sentence about the weather"], return_tensors="pt", padding=True)
    completion = torch.randint(100, 5000, (2, 6), generator=torch.Generator().manual_seed(3))
    ids = torch.cat([encoded["input_ids"], completion], 1)
    mask = torch.cat([encoded["attention_mask"], torch.ones_like(completion)], 1)
    results = []
    for chunk_tokens in (0, 5):
        model.zero_grad(set_to_none=True)
        logps, entropy = token_logps(model, ids, mask, 6, temperature=0.8, with_entropy=True, chunk_tokens=chunk_tokens)
        (logps * torch.linspace(-1, 1, 12).view(2, 6)).sum().backward()
        results.append((logps.detach(), entropy, {n: p.grad.clone() for n, p in model.named_parameters()}))
    model.zero_grad(set_to_none=True)
    (whole, whole_entropy, whole_grads), (chunked, chunked_entropy, chunked_grads) = results
    torch.testing.assert_close(chunked, whole, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(chunked_entropy, whole_entropy, rtol=1e-5, atol=1e-4)
    assert whole_grads.keys() == chunked_grads.keys()
    for name in whole_grads:
        torch.testing.assert_close(chunked_grads[name], whole_grads[name], rtol=1e-4, atol=5e-5, msg=name)  # float32 sums, other order


def test_heads_with_post_processing_use_the_whole_logits():
    """Gemma 2 soft-caps its logits after the head: the chunked head would skip that, so it is not used."""
    from transformers import Gemma2Config, Gemma2ForCausalLM

    config = Gemma2Config(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
                          num_key_value_heads=1, head_dim=8, final_logit_softcapping=30.0)
    model = Gemma2ForCausalLM(config)
    assert not supports_chunked_head(model)
    ids = torch.randint(64, (1, 7))
    logps, _ = token_logps(model, ids, torch.ones_like(ids), 3, 1.0, chunk_tokens=4)  # falls back, still right
    logits = model(input_ids=ids).logits[:, -4:-1].float()
    torch.testing.assert_close(logps, logits.log_softmax(-1).gather(-1, ids[:, -3:].unsqueeze(-1)).squeeze(-1))
