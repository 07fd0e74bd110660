"""The three decode loops of the sampler side by side on one device: same tokens? how fast?

    python benchmarks/decode_check.py [--device cuda] [--model smollm2-135m] [--prompts 16] [--tokens 128]
    python benchmarks/decode_check.py --device cuda --model .gpu/smollm2-arch   # weight-less folder: seed-0 random weights

Greedy decoding of the first ``--prompts`` MedQA evaluation prompts with ``eager`` (DynamicCache), ``static``
(StaticCache, no capture) and ``cuda_graph`` (the static step replayed as a CUDA graph; CUDA only), each
timed after one warm-up call. Prints, per loop, the seconds, tokens/s, the share of rows whose tokens equal
the eager loop's, and whether the CUDA-graph loop fell back to eager. In float32 on the CPU the loops agree
token for token (tests/test_trainer_decode.py); under bf16 autocast a different attention kernel may flip a
near-tie, so the share is reported rather than asserted. Writes benchmarks/results/decode_check_<device>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--prompts", type=int, default=16)
    parser.add_argument("--tokens", type=int, default=128)
    args = parser.parse_args(argv)

    import torch

    from polyreward.trainer.policy import TransformersSampler, autocast, load_policy
    from polyreward.trainer.prompts import read_jsonl, render_prompt

    sys.path.insert(0, str(Path(__file__).parent))
    from machine_info import describe_machine
    from random_weights import model_folder  # smollm2-135m-random and weight-less folders get seed-0 random weights

    device = torch.device(args.device)
    bf16 = device.type == "cuda"
    model, tokenizer = load_policy(str(model_folder(args.model)), device)
    rows = read_jsonl(ROOT / "examples/train/medqa_eval.jsonl")[: args.prompts]
    texts = [render_prompt(r["prompt"], tokenizer, True, None) for r in rows]
    modes = ["eager", "static"] + (["cuda_graph"] if device.type == "cuda" else [])
    results, reference = {}, None
    for mode in modes:
        sampler = TransformersSampler(model, tokenizer, max_new_tokens=args.tokens, temperature=0.0, bf16=bf16, decode=mode)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with autocast(device, bf16):
                sampler.sample(texts, 1)  # warm-up (and the capture, for cuda_graph)
                if device.type == "cuda":
                    torch.cuda.synchronize()
                started = time.perf_counter()
                rollouts = sampler.sample(texts, 1)
                if device.type == "cuda":
                    torch.cuda.synchronize()
                seconds = time.perf_counter() - started
        fell_back = [str(w.message)[:300] for w in caught if "decoding failed" in str(w.message)]
        ids = [row[mask.bool()].tolist() for row, mask in zip(rollouts.completion_ids, rollouts.completion_mask)]
        reference = reference or ids
        same = sum(a == b for a, b in zip(ids, reference)) / len(ids)
        tokens = int(rollouts.completion_mask.sum())
        results[mode] = {"seconds": round(seconds, 3), "tokens": tokens, "tokens_per_s": round(tokens / seconds, 1),
                         "rows_equal_to_eager": same, "fell_back_to_eager": fell_back[0] if fell_back else None,
                         "decode_used": sampler.decode}
        print(f"{mode:<11} {seconds:7.2f} s  {tokens / seconds:9.1f} tokens/s  rows equal to eager {same:.2f}"
              + (f"  FELL BACK: {fell_back[0][:200]}" if fell_back else ""))
    record = {"date": time.strftime("%Y-%m-%d"), "machine": describe_machine(), "device": str(device),
              "gpu": torch.cuda.get_device_name() if device.type == "cuda" else None, "torch": torch.__version__,
              "model": args.model, "prompts": len(texts), "max_new_tokens": args.tokens, "bf16": bf16, "results": results}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"decode_check_{device.type}.json").write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
