"""``polyreward train CONFIG [--max-steps N] [--output-dir D] [--resume] [--set KEY.PATH=VALUE ...]``: the bundled GRPO trainer.

``polyreward train CONFIG --evaluate PROMPTS.jsonl [--model DIR] [--limit N] [--batch-size B] [--eval-output FILE]`` scores
a model instead of training it and saves every completion with its scores (default
``<train.output_dir>/evaluate-<PROMPTS stem>.jsonl``). ``--set KEY.PATH=VALUE`` replaces any config value before
validation (read as YAML: ``--set rewards.0.weight=0.5``); a key that is not a top-level config key is a key of the
``train:`` section (``--set prompts_per_step=4 --set bf16=false --set device=cpu``), for training and evaluation alike.
"""

from __future__ import annotations

import argparse
import sys

from polyreward.cli import add_set_argument
from polyreward.config import ConfigError, load_config


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="YAML file with rewards, an optional combiner and a 'train' section")
    parser.add_argument("--max-steps", type=positive_int, default=None, help="override train.max_steps")
    parser.add_argument("--output-dir", default=None, help="override train.output_dir (checkpoints and metrics.jsonl)")
    parser.add_argument("--resume", action="store_true", help="continue from the newest checkpoint in the output folder")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (e.g. in CI logs)")
    parser.add_argument("--evaluate", metavar="JSONL", default=None,
                        help="instead of training: score one greedy completion per prompt of JSONL with the config's rewards")
    parser.add_argument("--model", default=None, help="with --evaluate: the model folder to score (default: train.model)")
    parser.add_argument("--limit", type=positive_int, default=None, help="with --evaluate: score only the first N prompts")
    parser.add_argument("--batch-size", type=positive_int, default=64, help="with --evaluate: prompts decoded together (default 64)")
    parser.add_argument("--eval-output", default=None, metavar="FILE",
                        help="with --evaluate: where the completions and their scores go (.jsonl/.csv/.parquet; "
                        "default <output dir>/evaluate-<JSONL stem>.jsonl)")
    add_set_argument(parser, "; a key that is not a top-level config key is under train: (--set device=cpu)")
    parser.epilog = ("Exit status: 0 done; 2 a config, dataset or argument mistake (one line, before the model loads); 130 / 143 "
                     "stopped by SIGINT (Ctrl-C) / SIGTERM at the end of a step, after saving a checkpoint that --resume continues.")


def _check_before_work(config, output_dir: str | None) -> None:
    """The mistakes that need neither torch nor the model, said in one line before either loads."""
    from pathlib import Path

    from polyreward.trainer.config import load_train_config

    _, train_cfg = load_train_config(config, **({"output_dir": output_dir} if output_dir else {}))
    path = train_cfg.dataset.path
    if path is not None and not Path(path).is_file():
        raise ConfigError(f"train.dataset.path: {path} is not a file")


def run(args: argparse.Namespace) -> int:
    if args.evaluate is None:
        try:
            config = load_config(args.config, args.overrides, section="train")
            _check_before_work(config, args.output_dir)
        except FileNotFoundError as exc:  # a UserError (ConfigError) is reported by polyreward.cli.main
            print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
            return 2
    try:
        from polyreward.trainer.loop import train
    except ImportError as exc:
        print(f'polyreward train needs the train extra: pip install -e ".[train]" (from the source checkout); {exc}', file=sys.stderr)
        return 2
    if args.evaluate is not None:
        return _evaluate(args)
    try:
        result = train(config, max_steps=args.max_steps, output_dir=args.output_dir, resume=args.resume,
                       progress=not args.no_progress)
    except (FileNotFoundError, KeyError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    except ImportError as exc:  # e.g. gguf, which the built-in models need
        print(f'error: {exc} (install the train extra: pip install -e ".[train]")', file=sys.stderr)
        return 2
    last = result.metrics[-1] if result.metrics else {}
    if args.resume and not result.metrics and result.checkpoint is not None:
        print(f"nothing to do: {result.checkpoint} already reached step {result.step}; raise --max-steps to train further")
    print(f"trained {result.step} steps; metrics: {result.output_dir / 'metrics.jsonl'}; checkpoint: {result.checkpoint}")
    if last:
        print(f"last step: reward {last.get('reward')}, loss {last.get('loss')}")
    return result.exit_code  # 130 / 143 when SIGINT / SIGTERM stopped the run (after saving its checkpoint)


def _evaluate(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from polyreward.io import file_format
    from polyreward.trainer.config import load_train_config
    from polyreward.trainer.evaluate import evaluate

    try:
        config = load_config(args.config, args.overrides, section="train")
        overrides = {"output_dir": args.output_dir} if args.output_dir else {}
        _, train_cfg = load_train_config(config, **overrides)
        output = Path(args.eval_output or Path(train_cfg.output_dir) / f"evaluate-{Path(args.evaluate).stem}.jsonl")
        file_format(output)  # an unknown extension is refused before the model loads
        output.parent.mkdir(parents=True, exist_ok=True)
        summary = evaluate(config, model=args.model, dataset=args.evaluate, limit=args.limit, batch_size=args.batch_size,
                           overrides=overrides, output=output)
    except (FileNotFoundError, KeyError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f'error: {exc} (install the train extra: pip install -e ".[train]")', file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1))
    print(f"completions and their scores: {output}", file=sys.stderr)  # stdout stays one JSON document
    return 0
