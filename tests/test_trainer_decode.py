"""The static-KV-cache decode loop (trainer/decode.py) against the eager one, on the tiny Qwen2 (CPU).

On CPU the static loop runs the exact step a CUDA graph would capture, minus the capture, so token-for-token
equality with the eager loop (greedy, and sampling with the same RNG draws) covers what the GPU path computes.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from polyreward.config import ConfigError  # noqa: E402
from polyreward.trainer.config import parse_train_section  # noqa: E402
from polyreward.trainer.decode import StaticDecoder, bucket_length, resolve_decode  # noqa: E402
from polyreward.trainer.policy import TransformersSampler, eos_token_ids, load_policy  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/conftest.py: the tiny models on one torch thread

# three lengths (1 to ~70 tokens): left padding inside the batch, and one prompt past the first 64-token bucket
PROMPTS = ["Hi", "Write a long sentence about the weather in Paris today.",
           "Explain, step by step and with a worked example, " * 7 + "how photosynthesis works."]


@pytest.fixture(scope="module")
def policy(tiny_qwen2_dir):
    return load_policy(str(tiny_qwen2_dir), torch.device("cpu"))


def _sample(policy, decode, *, temperature, max_new_tokens, prompts=PROMPTS, G=2, eos_ids=None, check_every=4, seed=7):
    model, tokenizer = policy
    sampler = TransformersSampler(model, tokenizer, max_new_tokens=max_new_tokens, temperature=temperature, bf16=False,
                                  decode=decode, check_every=check_every)
    if eos_ids is not None:
        sampler.eos_ids = eos_ids
    torch.manual_seed(seed)
    return sampler.sample(prompts, G)


def _assert_same(a, b):
    assert torch.equal(a.completion_ids, b.completion_ids)
    assert torch.equal(a.completion_mask, b.completion_mask)
    assert torch.equal(a.terminated, b.terminated)
    assert torch.equal(a.prompt_ids, b.prompt_ids) and torch.equal(a.prompt_mask, b.prompt_mask)
    assert a.texts == b.texts


@pytest.mark.parametrize("temperature, max_new_tokens, check_every, seed", [
    (0.0, 9, 4, 0),     # greedy; 9 is not a multiple of check_every
    (0.0, 16, 16, 0),
    (1.0, 9, 4, 7),     # sampling: the same uniform draws in the same order
    (1.0, 13, 1, 11),
    (0.7, 12, 5, 3),
])
def test_static_loop_gives_the_eager_tokens(policy, temperature, max_new_tokens, check_every, seed):
    eager = _sample(policy, "eager", temperature=temperature, max_new_tokens=max_new_tokens, check_every=check_every, seed=seed)
    static = _sample(policy, "static", temperature=temperature, max_new_tokens=max_new_tokens, check_every=check_every, seed=seed)
    _assert_same(eager, static)
    assert eager.completion_ids.shape == (6, max_new_tokens)


@pytest.mark.parametrize("temperature, eos_at", [(0.0, 2), (0.0, 4), (1.0, 1), (1.0, 3)])
def test_eos_mid_sequence_masks_the_rest_in_both_loops(policy, temperature, eos_at):
    """Declare the token row 0 emits at step ``eos_at`` an EOS: row 0 (and any row emitting it) stops there."""
    reference = _sample(policy, "eager", temperature=temperature, max_new_tokens=10)
    eos = int(reference.completion_ids[0, eos_at])
    eager = _sample(policy, "eager", temperature=temperature, max_new_tokens=10, eos_ids=[eos])
    static = _sample(policy, "static", temperature=temperature, max_new_tokens=10, eos_ids=[eos])
    _assert_same(eager, static)
    first = int((reference.completion_ids[0] == eos).int().argmax())
    assert eager.lengths[0] == first + 1 and bool(eager.terminated[0])
    assert (eager.completion_ids[0, first + 1:] == policy[1].pad_token_id).all()


def test_all_rows_finished_early_gives_the_eager_width(policy):
    """Every row ends at step 0 or 1: the eager loop stops at once, the static one after check_every tokens; the
    sampler trims both to the longest completion."""
    reference = _sample(policy, "eager", temperature=0.0, max_new_tokens=12)
    eos = sorted({int(t) for t in reference.completion_ids[:, :2].flatten()})
    eager = _sample(policy, "eager", temperature=0.0, max_new_tokens=12, eos_ids=eos)
    static = _sample(policy, "static", temperature=0.0, max_new_tokens=12, eos_ids=eos, check_every=8)
    _assert_same(eager, static)
    assert eager.completion_ids.size(1) <= 2 and bool(eager.terminated.all())


def test_slots_are_reused_per_shape_and_stay_correct(policy):
    """The same sampler decodes batches of two shapes repeatedly (cache reset in place between calls). Greedy: a
    cache left stale by a reused slot changes the argmax, while the last-bit differences between the static and the
    eager attention kernels do not (at temperature 1 over a 150k vocabulary they move an inverse-CDF draw to the next
    token id -- 71666 for 71667 -- on some CPUs: the stop 64 CI trial on an AMD EPYC)."""
    model, tokenizer = policy
    static = TransformersSampler(model, tokenizer, max_new_tokens=6, temperature=0.0, bf16=False, decode="static")
    eager = TransformersSampler(model, tokenizer, max_new_tokens=6, temperature=0.0, bf16=False, decode="eager")
    for prompts, G, seed in [(PROMPTS[:2], 2, 1), (PROMPTS, 1, 2), (PROMPTS[:2][::-1], 2, 3)]:
        torch.manual_seed(seed)
        a = eager.sample(prompts, G)
        torch.manual_seed(seed)
        b = static.sample(prompts, G)
        _assert_same(a, b)
    assert sorted(static.static.slots) == [(3, 128), (4, 64)]


def test_the_decode_step_traces_as_one_graph(policy):
    """No host sync or data-dependent Python branch in a step (what CUDA-graph capture forbids): dynamo traces it
    with fullgraph=True."""
    model, tokenizer = policy
    model.eval()
    decoder = StaticDecoder(model, eos_ids=eos_token_ids(model, tokenizer), pad_id=tokenizer.pad_token_id, temperature=1.0,
                            max_new_tokens=6, bf16=False, use_graphs=False)
    encoded = tokenizer(PROMPTS[:2], return_tensors="pt", padding=True)
    slot = decoder._slot(2, 64)
    with torch.no_grad():
        decoder._prefill(slot, encoded["input_ids"], encoded["attention_mask"])
        step = torch.compile(decoder._step, backend="eager", fullgraph=True)
        step(slot)
        step(slot)
    model.train()
    assert slot.positions.squeeze(1).tolist() == (encoded["attention_mask"].sum(-1) + 2).tolist()


class _NoHostSync(torch.overrides.TorchFunctionMode):
    """Raises on every tensor-to-Python conversion: what CUDA-graph capture forbids (a host sync mid-capture).

    Stricter than tracing the step with dynamo: transformers skips some data-dependent checks *only* while
    dynamo traces (``is_tracing``), so a step can trace cleanly yet still sync when run eagerly under capture.
    """

    SYNCS = {torch.Tensor.__bool__, torch.Tensor.item, torch.Tensor.tolist, torch.Tensor.__int__, torch.Tensor.__float__,
             torch.Tensor.__index__, torch.Tensor.nonzero, torch.nonzero, torch.Tensor.cpu, torch.Tensor.numpy}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in self.SYNCS:
            raise AssertionError(f"host sync inside the decode step: {getattr(func, '__name__', func)}")
        return func(*args, **(kwargs or {}))


def test_the_sync_detector_catches_a_host_sync():
    with pytest.raises(AssertionError, match="host sync inside the decode step: __bool__"), _NoHostSync():
        if torch.ones(3).all():
            pass


@pytest.mark.parametrize("bf16, temperature", [(False, 1.0), (False, 0.0), (True, 0.7)])
def test_the_decode_step_runs_eagerly_without_a_host_sync(policy, bf16, temperature):
    """The step exactly as the CUDA graph captures it (eager, not traced), with left padding in the batch."""
    model, tokenizer = policy
    model.eval()
    decoder = StaticDecoder(model, eos_ids=eos_token_ids(model, tokenizer), pad_id=tokenizer.pad_token_id,
                            temperature=temperature, max_new_tokens=6, bf16=bf16, use_graphs=False)
    encoded = tokenizer(PROMPTS[:2], return_tensors="pt", padding=True)
    assert not bool(encoded["attention_mask"].all())  # the short prompt is padded
    slot = decoder._slot(2, 64)
    with torch.no_grad():
        decoder._prefill(slot, encoded["input_ids"], encoded["attention_mask"])
        with _NoHostSync():
            decoder._step(slot)
            decoder._step(slot)
    model.train()
    assert slot.positions.squeeze(1).tolist() == (encoded["attention_mask"].sum(-1) + 2).tolist()


@pytest.mark.parametrize("length, multiple, expected", [(1, 64, 64), (64, 64, 64), (65, 64, 128), (130, 64, 192), (5, 16, 16)])
def test_bucket_length(length, multiple, expected):
    assert bucket_length(length, multiple) == expected


@pytest.mark.parametrize("mode, device, expected", [
    ("auto", "cpu", "eager"), ("auto", "cuda", "cuda_graph"), ("eager", "cuda", "eager"), ("static", "cpu", "static"),
    ("cuda_graph", "cuda", "cuda_graph"),
])
def test_resolve_decode(mode, device, expected):
    assert resolve_decode(mode, torch.device(device)) == expected


def test_cuda_graph_off_cuda_warns_and_decodes_eagerly(policy):
    with pytest.warns(UserWarning, match="cuda_graph needs a CUDA device"):
        sampler = TransformersSampler(*policy, max_new_tokens=2, temperature=1.0, bf16=False, decode="cuda_graph")
    assert sampler.decode == "eager"
    with pytest.raises(ValueError, match="decode must be one of"):
        resolve_decode("graphs", torch.device("cpu"))


@pytest.mark.parametrize("section, message", [
    ({"decode": "cuda_graph", "device": "cpu"}, "train: decode: cuda_graph needs a CUDA device"),
    ({"decode": "compiled"}, "train.decode: Input should be 'auto', 'eager', 'static' or 'cuda_graph'"),
])
def test_config_decode_key(section, message):
    with pytest.raises(ConfigError, match=message):
        parse_train_section({"model": "m", "dataset": "d.jsonl", **section})
    assert parse_train_section({"model": "m", "dataset": "d.jsonl"}).decode == "auto"


def test_a_failing_cuda_graph_path_falls_back_to_eager_with_a_warning(policy, monkeypatch):
    """Capture failures cannot be caused on a CPU: the static decoder is made to raise, as a failed capture would."""
    model, tokenizer = policy
    sampler = TransformersSampler(model, tokenizer, max_new_tokens=5, temperature=1.0, bf16=False, decode="static")
    sampler._static_decoder()  # built without graphs (CPU), then routed as on CUDA, where auto resolves to cuda_graph
    sampler.decode = "cuda_graph"

    def failed_capture(self, prompt_ids, prompt_mask):
        raise RuntimeError("operation not permitted when stream is capturing")

    monkeypatch.setattr(StaticDecoder, "decode", failed_capture)
    torch.manual_seed(5)
    with pytest.warns(UserWarning, match="CUDA-graph decoding failed .*stream is capturing.*decoding eagerly"):
        fallback = sampler.sample(PROMPTS[:2], 2)
    assert sampler.decode == "eager" and sampler.static is None
    _assert_same(fallback, _sample(policy, "eager", temperature=1.0, max_new_tokens=5, prompts=PROMPTS[:2], seed=5))


def test_bf16_autocast_static_cache_keeps_keys_and_values_in_one_dtype(policy):
    """Under bf16 autocast keys leave RoPE in float32 and values leave v_proj in bf16; a plain StaticCache then
    fails on the first update (the H200 run's fallback reason). CPU autocast reproduces it; the typed cache fixes it."""
    model, tokenizer = policy
    model.eval()
    decoder = StaticDecoder(model, eos_ids=eos_token_ids(model, tokenizer), pad_id=tokenizer.pad_token_id, temperature=0.0,
                            max_new_tokens=8, bf16=True, use_graphs=False)
    encoded = tokenizer(PROMPTS[:3], return_tensors="pt", padding=True)
    tokens = decoder.decode(encoded["input_ids"], encoded["attention_mask"])
    model.train()
    assert tokens.shape[0] == 3 and 1 <= tokens.shape[1] <= 8
    cache = next(iter(decoder.slots.values())).cache
    assert cache.layers[0].keys.dtype == cache.layers[0].values.dtype == torch.bfloat16
