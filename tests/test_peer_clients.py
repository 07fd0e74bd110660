"""The peers' own client code calls a real ``polyreward serve`` and gets the rewards ``polyreward score`` gives.

- **OpenRLHF 0.11.2**, installed from the package index without its heavy dependencies
  (``pip install --no-deps openrlhf==0.11.2``; ``scripts/install_dev.sh`` does it) and called as is:
  ``openrlhf.utils.agent.SingleTurnAgentExecutor`` — the per-sample path (``execute``: tokenises the prompt,
  asks the engine for token ids, decodes ``prompt_ids + action_ids`` with ``skip_special_tokens=False`` and
  posts ``{"query", "prompts", "labels"}`` to ``--remote_rm_url`` with aiohttp) and the batched path
  (``_fetch_rewards_via_http`` over whole lists). The engine stands in for vLLM's ``AsyncLLMEngine.generate``
  (the one call OpenRLHF makes): it returns token ids that end in the tokenizer's EOS id, as vLLM's do when a
  model stops — the math example's completions tokenised by the real Qwen2.5 tokenizer, and a real generation
  of the tiny random Qwen2. So every query ends in ``<|im_end|>``, the case that scored 46 of 127 correct
  answers 0 before the server cut special-token text.
- **slime**'s ``remote_rm`` is not packaged; :func:`slime_remote_rm` re-types its behaviour from
  ``slime/rollout/rm_hub/__init__.py`` of THUDM/slime at commit ``0b420f1ef4161f02d2a00d47c1318eec955a4e2e``:
  one ``{"prompt", "response", "label"}`` per sample, POSTed as JSON with a shared ``aiohttp`` session
  (total timeout 120 s), ``raise_for_status()``, the reward is ``await resp.json()``, up to 10 attempts
  with a ``min(2**attempt, 30) + random()`` second backoff.

Neither trainer sends an ``Authorization`` header: the server runs on loopback without a token (a trainer on
another machine uses ``--trust-client`` or ``--no-token``, tested in ``test_server_hostile.py``).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("fastapi")
aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("transformers")

from test_server import start_server, stop  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MATH = ROOT / "examples" / "math"


@pytest.fixture(scope="module")
def cli_rewards(tmp_path_factory) -> list[float]:
    """The weighted total ``polyreward score`` gives each row of the math example (None -> 0.0, the peers' nan_reward)."""
    out = tmp_path_factory.mktemp("cli") / "scored.jsonl"
    subprocess.run([sys.executable, "-m", "polyreward", "score", str(MATH / "rollouts.jsonl"), "-c", str(MATH / "config.yaml"),
                    "-o", str(out)], check=True, capture_output=True, timeout=600)
    return [0.0 if row["reward"] is None else row["reward"] for row in map(json.loads, out.read_text().splitlines())]


@pytest.fixture(scope="module")
def math_rows() -> list[dict]:
    return [json.loads(line) for line in (MATH / "rollouts.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def math_server(tmp_path_factory):
    proc, url = start_server(tmp_path_factory.mktemp("math"), "--concurrency", "2", token=None, config=(MATH / "config.yaml").read_text())
    yield url
    stop(proc)


@pytest.fixture(scope="module")
def tokenizer(tiny_qwen2_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_qwen2_dir)


class StoppedEngine:
    """vLLM's ``generate`` as OpenRLHF awaits it: the given action token ids (ending in EOS), finish_reason "stop"."""

    def __init__(self, action_ids: list[int], tokenizer) -> None:
        self.action_ids, self.tokenizer = action_ids, tokenizer

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        text = self.tokenizer.decode(self.action_ids, skip_special_tokens=True)
        output = SimpleNamespace(token_ids=list(self.action_ids), text=text, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[output])


def chat_prompt(tokenizer, question: str) -> str:
    return tokenizer.apply_chat_template([{"role": "user", "content": question}], tokenize=False, add_generation_prompt=True)


def eos_terminated(tokenizer, completion: str) -> list[int]:
    return tokenizer(text=completion, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]


def test_openrlhf_per_sample_executor_gets_the_cli_rewards_for_eos_terminated_math_completions(
        math_server, math_rows, cli_rewards, tokenizer):
    agent = pytest.importorskip("openrlhf.utils.agent", reason="pip install --no-deps openrlhf==0.11.2")
    executor = agent.SingleTurnAgentExecutor(remote_rm_url=f"{math_server}/get_reward")
    params = SimpleNamespace(max_tokens=1024, logprobs=None)

    async def run_all():
        outputs = []
        for row in math_rows:
            engine = StoppedEngine(eos_terminated(tokenizer, row["completion"]), tokenizer)
            outputs.append(await executor.execute(chat_prompt(tokenizer, row["prompt"]), row["answer"], params, 4096, tokenizer, engine))
        return outputs

    outputs = asyncio.run(run_all())
    decoded = [tokenizer.decode(o["observation_tokens"], skip_special_tokens=False) for o in outputs]
    assert all(text.endswith("<|im_end|>") for text in decoded)  # what OpenRLHF posted as "query"
    rewards = [o["reward"][0] for o in outputs]  # the server answers lists; OpenRLHF keeps them as sent
    assert rewards == cli_rewards
    assert sum(r > 0.9 for r in rewards) > 50  # many correct answers, none lost to the EOS text


def test_openrlhf_batched_fetch_gets_the_cli_rewards(math_server, math_rows, cli_rewards, tokenizer):
    agent = pytest.importorskip("openrlhf.utils.agent", reason="pip install --no-deps openrlhf==0.11.2")
    executor = agent.SingleTurnAgentExecutor(remote_rm_url=[f"{math_server}/get_reward"])
    prompts = [chat_prompt(tokenizer, row["prompt"]) for row in math_rows]
    queries = [tokenizer.decode(tokenizer(text=p, add_special_tokens=False)["input_ids"] + eos_terminated(tokenizer, row["completion"]),
                                skip_special_tokens=False) for p, row in zip(prompts, math_rows)]
    (answer,) = asyncio.run(executor._fetch_rewards_via_http(queries, prompts, [row["answer"] for row in math_rows]))
    assert answer["rewards"] == cli_rewards and answer["scores"] == cli_rewards
    assert set(answer["extra_logs"]) == {"accuracy", "format", "overlong", "failed", "accuracy/applicable", "format/applicable",
                                         "overlong/applicable"}


def test_openrlhf_with_a_real_tiny_model_generation(tmp_path, tiny_qwen2_dir, tokenizer):
    """The tiny random Qwen2 generates; the label is its own text (decoded without special tokens), so the reward is
    1.0 exactly when the server recovered the completion from OpenRLHF's query: prompt cut, EOS text cut."""
    import torch
    from transformers import AutoModelForCausalLM

    agent = pytest.importorskip("openrlhf.utils.agent", reason="pip install --no-deps openrlhf==0.11.2")
    model = AutoModelForCausalLM.from_pretrained(tiny_qwen2_dir)
    prompt = chat_prompt(tokenizer, "Say something.")
    prompt_ids = tokenizer(text=prompt, add_special_tokens=False, return_tensors="pt")["input_ids"]
    torch.manual_seed(0)
    generated = model.generate(prompt_ids, max_new_tokens=6, do_sample=False, pad_token_id=tokenizer.pad_token_id)[0, prompt_ids.shape[1]:]
    action = [t for t in generated.tolist() if t != tokenizer.eos_token_id][:6] + [tokenizer.eos_token_id]
    label = tokenizer.decode(action, skip_special_tokens=True)
    config = 'columns: {prompt: prompt, completion: completion}\nrewards:\n  - {name: match, type: "toy_rewards:AnswerMatch"}\n'
    proc, url = start_server(tmp_path, token=None, config=config)
    try:
        executor = agent.SingleTurnAgentExecutor(remote_rm_url=f"{url}/get_reward")
        output = asyncio.run(executor.execute(prompt, label, SimpleNamespace(max_tokens=16, logprobs=None), 4096, tokenizer,
                                              StoppedEngine(action, tokenizer)))
    finally:
        stop(proc)
    assert tokenizer.decode(output["observation_tokens"], skip_special_tokens=False).endswith("<|im_end|>")
    assert output["reward"] == [1.0] and output["extra_logs"]["failed"] == [0.0]


_slime_session: aiohttp.ClientSession | None = None


async def slime_remote_rm(rm_url: str, sample: SimpleNamespace, max_retries: int = 10):
    """slime's ``remote_rm`` (THUDM/slime ``slime/rollout/rm_hub/__init__.py``, commit 0b420f1e), re-typed: see the module docstring."""
    global _slime_session
    if _slime_session is None or _slime_session.closed:
        _slime_session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64), timeout=aiohttp.ClientTimeout(total=120))
    for attempt in range(max_retries):
        try:
            async with _slime_session.post(rm_url, json={"prompt": sample.prompt, "response": sample.response, "label": sample.label}) as resp:
                resp.raise_for_status()
                return await resp.json()
        except Exception:
            if attempt + 1 >= max_retries:
                raise
            await asyncio.sleep(min(2 ** attempt, 30) + random.random())


def test_slime_remote_rm_gets_the_cli_rewards_with_and_without_eos_text(math_server, math_rows, cli_rewards):
    global _slime_session
    samples = [SimpleNamespace(prompt=row["prompt"], response=row["completion"] + ("<|im_end|>" if i % 2 else ""), label=row["answer"])
               for i, row in enumerate(math_rows)]

    in_flight = asyncio.Semaphore(8)  # slime's rollout bounds its own concurrency; past 2 slots the server answers 429

    async def one(sample):
        async with in_flight:
            return await slime_remote_rm(f"{math_server}/slime", sample)

    async def run_all():
        global _slime_session
        try:
            return await asyncio.gather(*(one(s) for s in samples))
        finally:
            await _slime_session.close()
            _slime_session = None

    rewards = asyncio.run(run_all())
    assert [float(r) for r in rewards] == cli_rewards
