"""``polyreward train CONFIG [--max-steps N] [--output-dir D] [--resume]``: the bundled GRPO trainer.

``polyreward train CONFIG --evaluate PROMPTS.jsonl [--model DIR]`` scores a model instead of training it.
"""

from __future__ import annotations

import argparse
import sys

from polyreward.config import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="YAML file with rewards, an optional combiner and a 'train' section")
    parser.add_argument("--max-steps", type=int, default=None, help="override train.max_steps")
    parser.add_argument("--output-dir", default=None, help="override train.output_dir (checkpoints and metrics.jsonl)")
    parser.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in the output folder")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (e.g. in CI logs)")
    parser.add_argument("--evaluate", metavar="JSONL", default=None,
                        help="instead of training: score one greedy completion per prompt of JSONL with the config's rewards")
    parser.add_argument("--model", default=None, help="with --evaluate: the model folder to score (default: train.model)")


def run(args: argparse.Namespace) -> int:
    try:
        from polyreward.trainer.loop import train
    except ImportError as exc:
        print(f"polyreward train needs the 'train' extra (pip install 'polyreward[train]'): {exc}", file=sys.stderr)
        return 2
    if args.evaluate is not None:
        return _evaluate(args)
    try:
        result = train(args.config, max_steps=args.max_steps, output_dir=args.output_dir, resume=args.resume,
                       progress=not args.no_progress)
    except (ConfigError, FileNotFoundError, KeyError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    last = result.metrics[-1] if result.metrics else {}
    print(f"trained {result.step} steps; metrics: {result.output_dir / 'metrics.jsonl'}; checkpoint: {result.checkpoint}")
    if last:
        print(f"last step: reward {last.get('reward')}, loss {last.get('loss')}")
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    import json

    from polyreward.trainer.evaluate import evaluate

    try:
        summary = evaluate(args.config, model=args.model, dataset=args.evaluate)
    except (ConfigError, FileNotFoundError, KeyError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1))
    return 0
