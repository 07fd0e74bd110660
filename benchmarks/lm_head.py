"""Memory and time of one policy-gradient forward + backward through ``token_logps``: whole logits vs the chunked head.

    python benchmarks/lm_head.py [--device cpu|cuda] [--models tiny-qwen2 smollm2-135m] [--batch 16] [--tokens 128]

The anchor is the whole-logits path (``lm_head_chunk_tokens: 0``, what the trainer did before and what
``logits_to_keep`` + ``log_softmax`` does in most GRPO code); the candidate is the chunked LM head
(trainer/lm_head.py, default 1024 tokens per chunk). Each measurement runs in its own process: on CPU the
peak is the growth of the process's peak RSS over the same process after loading the model and one small
warm-up call; on CUDA it is ``max_memory_allocated`` above the memory held before the call. Time is the
median of 3 calls. Results: benchmarks/results/lm_head_<device>.json and the table in trainer.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

RESULTS = Path(__file__).parent / "results"


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(model_name: str, device: str, chunk_tokens: int, batch: int, tokens: int) -> dict:
    import torch

    from polyreward.trainer import assets
    from polyreward.trainer.policy import autocast, load_policy, token_logps

    path = assets.tiny_qwen2() if model_name == "tiny-qwen2" else assets.smollm2_135m()
    model, _ = load_policy(str(path), torch.device(device))
    generator = torch.Generator().manual_seed(0)
    prompt = 32
    ids = torch.randint(100, model.config.vocab_size - 1, (batch, prompt + tokens), generator=generator).to(device)
    mask = torch.ones_like(ids)
    advantages = torch.randn(batch, 1, generator=generator).to(device)

    def step(b: int) -> None:
        with autocast(torch.device(device), device == "cuda"):
            logps, _ = token_logps(model, ids[:b], mask[:b], tokens, 1.0, with_entropy=True, chunk_tokens=chunk_tokens)
        (-(logps * advantages[:b]).mean()).backward()
        model.zero_grad(set_to_none=False)  # keep the gradient buffers: they are not what is compared
        if device == "cuda":
            torch.cuda.synchronize()

    step(1)  # warm-up: allocator, gradient buffers, kernels
    if device == "cuda":
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated() / 2**20
    else:
        before = _peak_rss_mb()
    times = []
    for _ in range(3):
        started = time.perf_counter()
        step(batch)
        times.append(time.perf_counter() - started)
    peak = (torch.cuda.max_memory_allocated() / 2**20 if device == "cuda" else _peak_rss_mb()) - before
    return {"peak_extra_mb": peak, "median_s": statistics.median(times), "times_s": times}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--models", nargs="+", default=["tiny-qwen2", "smollm2-135m"])
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--chunks", type=int, nargs="+", default=[0, 1024])
    parser.add_argument("--_one", nargs=2, metavar=("MODEL", "CHUNK"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._one:
        print(json.dumps(measure(args._one[0], args.device, int(args._one[1]), args.batch, args.tokens)))
        return 0

    sys.path.insert(0, str(Path(__file__).parent))
    from machine_info import describe_machine

    rows = []
    for model in args.models:
        for chunk in args.chunks:
            done = subprocess.run([sys.executable, __file__, "--device", args.device, "--batch", str(args.batch), "--tokens",
                                   str(args.tokens), "--_one", model, str(chunk)], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{model} chunk {chunk} failed:\n{done.stderr[-3000:]}")
            result = json.loads(done.stdout.strip().splitlines()[-1])
            rows.append({"model": model, "chunk_tokens": chunk, **result})
            print(f"{model:<14} chunk {chunk:>5}: +{result['peak_extra_mb']:8.0f} MB peak, {result['median_s']:.3f} s forward+backward")
    record = {"date": time.strftime("%Y-%m-%d"), "machine": describe_machine(), "batch": args.batch, "tokens": args.tokens,
              "rows": rows}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"lm_head_{args.device}.json").write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
