"""The bundled trainer's GPU checks as one command: decode loops side by side, speed against TRL, MedQA before/after.

    python benchmarks/gpu_trainer.py                          # on a CUDA machine: decode, speed, medqa: an estimated 15-25 min on one H200 (never run)
    python benchmarks/gpu_trainer.py --stages medqa --medqa-steps 200
    python benchmarks/gpu_trainer.py --cpu-dry-run            # the same script end to end on CPU, tiny settings (~4 min)

It needs polyreward with the ``train`` extra and TRL installed (``pip install -e ".[train,trl]"``) and the offline
SmolLM2 asset. On the project's device tool (600 s per call, no network) ``bash benchmarks/gpu_check.sh`` first
installs the carried wheels; its ``medqa`` stage then takes ``MEDQA_STEPS=100`` (20 by default, to fit one call).

Stages (each a separate process with its own time limit, so one failure does not stop the others):

* ``decode``: benchmarks/decode_check.py: greedy decoding of 16 MedQA prompts × 128 tokens with the ``eager``,
  ``static`` and ``cuda_graph`` loops (trainer/decode.py): seconds, tokens/s, share of rows equal to eager, and whether
  the CUDA-graph loop fell back to eager (it has never been timed on a GPU);
* ``speed``: benchmarks/trainer.py speed: our step vs TRL 1.16 GRPOTrainer on the same model, prompts, G, lengths and
  loss; target tokens/s ratio ≥ 1.2 on CUDA (measured 0.84 before the CUDA-graph loop);
* ``medqa``: benchmarks/medqa_before_after.py with ``examples/train/medqa_gdpo.yaml`` for ``--medqa-steps`` (default
  100) steps: greedy accuracy on the 100 held-out MedQA questions before and after;
* ``learns``: benchmarks/trainer_learns.py with its CPU defaults but ``--device``-free (the trainer picks CUDA):
  the held-out arithmetic benchmark, 5 seeds, in a few minutes on a GPU.

Writes ``<out>/gpu_trainer.json`` (per stage: command, return code, seconds, the stage's last output lines and
result files copied from benchmarks/results/) and prints a summary. ``--out`` defaults to ``$OUT`` or ``./gpu_out``.
The CPU dry run uses the tiny random Qwen2 (decode, speed, medqa: 2 steps of 2 prompts x G 2 x 16 tokens and 4
evaluation rows; the MedQA prompts are ~500 tokens long, and with SmolLM2 one such step took 300 s on the loaded
2-core machine) and ``trainer_learns.py --quick`` (SmolLM2); its numbers mean nothing, it proves that every stage
runs and writes its files.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
STAGES = ("decode", "speed", "medqa", "learns")


def stage_commands(stage: str, cpu: bool, medqa_steps: int) -> tuple[list[str], int, list[str]]:
    """(command, time limit in seconds, result files it writes under benchmarks/results/)."""
    py = sys.executable
    if stage == "decode":
        if cpu:
            return [py, "benchmarks/decode_check.py", "--device", "cpu", "--model", "tiny-qwen2", "--prompts", "2", "--tokens", "8"], \
                300, ["decode_check_cpu.json"]
        return [py, "benchmarks/decode_check.py", "--device", "cuda"], 300, ["decode_check_cuda.json"]
    if stage == "speed":
        if cpu:
            return [py, "benchmarks/trainer.py", "speed", "--device", "cpu", "--tiny", "--repeats", "1"], 600, ["trainer_speed_cpu*.json"]
        return [py, "benchmarks/trainer.py", "speed", "--device", "cuda", "--repeats", "2"], 900, ["trainer_speed_cuda*.json"]
    if stage == "medqa":
        if cpu:
            return [py, "benchmarks/medqa_before_after.py", "--steps", "2", "--eval-limit", "4", "--eval-batch-size", "4",
                    "--eval-max-new-tokens", "16", "--set", "prompts_per_step=2", "--set", "num_generations=2", "--set", "gradient_accumulation_steps=1",
                    "--set", "max_new_tokens=16", "--set", "device=cpu", "--set", "model=tiny-qwen2",
                    "--output-dir", "/tmp/polyreward-gpu-dry/medqa", "--tag", "cpu_dry_run"], 1200, ["medqa_before_after_cpu_dry_run.json"]
        return [py, "benchmarks/medqa_before_after.py", "--steps", str(medqa_steps), "--output-dir", "/tmp/polyreward-gpu/medqa",
                "--tag", "gpu"], 3600, ["medqa_before_after_gpu.json"]
    if stage == "learns":
        if cpu:
            return [py, "benchmarks/trainer_learns.py", "--quick"], 900, ["trainer_learns_quick.json", "trainer_learns_quick.md"]
        return [py, "benchmarks/trainer_learns.py", "--device", "cuda"], 3600, ["trainer_learns.json", "trainer_learns.md"]
    raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(STAGES)}")


def run_stage(stage: str, cpu: bool, medqa_steps: int, out: Path) -> dict:
    command, limit, results = stage_commands(stage, cpu, medqa_steps)
    started = time.perf_counter()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
           "PYTHONUNBUFFERED": "1"}
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=limit)
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        code = 124
        output = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        output += f"\n(stopped after {limit} s)"
    (out / f"{stage}.log").write_text(output, encoding="utf-8")
    copied = []
    for pattern in results:
        for path in RESULTS.glob(pattern):
            shutil.copy(path, out / path.name)
            copied.append(path.name)
    lines = [line for line in output.splitlines() if line.strip() and not line.startswith(("Loading weights", "Writing model"))]
    return {"stage": stage, "command": " ".join(command), "returncode": code, "seconds": round(time.perf_counter() - started, 1),
            "results": copied, "tail": lines[-15:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stages", nargs="+", default=["decode", "speed", "medqa"], choices=STAGES)
    parser.add_argument("--medqa-steps", type=int, default=100)
    parser.add_argument("--cpu-dry-run", action="store_true", help="tiny settings on CPU: proves every stage runs")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "gpu_out")))
    args = parser.parse_args(argv)
    if not args.cpu_dry_run:
        import torch

        if not torch.cuda.is_available():
            print("no CUDA device: run with --cpu-dry-run to check the script on CPU", file=sys.stderr)
            return 2
    if args.medqa_steps < 1:
        print(f"--medqa-steps must be at least 1, got {args.medqa_steps}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu_dry_run": args.cpu_dry_run, "stages": []}
    for stage in args.stages:
        record = run_stage(stage, args.cpu_dry_run, args.medqa_steps, args.out)
        report["stages"].append(record)
        status = "ok" if record["returncode"] == 0 else f"FAILED (exit {record['returncode']})"
        print(f"== {stage}: {status}, {record['seconds']:.0f} s, results {record['results']}", flush=True)
        print("\n".join("   " + line for line in record["tail"][-6:]), flush=True)
        (args.out / "gpu_trainer.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    failed = [r["stage"] for r in report["stages"] if r["returncode"] != 0]
    print(f"wrote {args.out / 'gpu_trainer.json'}; " + (f"failed: {', '.join(failed)}" if failed else "every stage ran"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
