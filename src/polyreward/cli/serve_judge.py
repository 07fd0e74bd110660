"""``polyreward serve-judge``: serve a local transformers model as an OpenAI-compatible judge.

    polyreward serve-judge --model ~/models/qwen2.5-7b-instruct --port 8000
    # then, in a reward config:  judge: {type: openai, base_url: http://127.0.0.1:8000/v1, model: qwen2.5-7b-instruct}
    polyreward serve-judge --model smollm2-135m     # built-in asset, served as model: smollm2-135m

Binds 127.0.0.1 by default (there is no authentication). The server logic is
:class:`polyreward.judges.server.JudgeServer`.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, help="local model directory (or the built-in asset names tiny-qwen2, smollm2-135m)")
    parser.add_argument("--port", type=int, default=8000, help="port (0 = any free port; default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; the server has no authentication)")
    parser.add_argument("--served-model-name", default=None,
                        help="model name clients send (default: a built-in asset's name as given, e.g. smollm2-135m, else the directory name)")
    parser.add_argument("--max-batch", type=int, default=8, help="requests generated together in one batch (default 8)")
    parser.add_argument("--device", default="cpu", help="torch device (default cpu)")
    parser.add_argument("--dtype", default="auto", choices=["auto", "float32", "bfloat16", "float16"])
    parser.add_argument("--verbose", action="store_true", help="log every request")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    try:
        import torch  # noqa: F401  (the train extra: torch, transformers, gguf)
        import transformers  # noqa: F401
    except ImportError as exc:
        print(f'polyreward serve-judge needs torch and transformers ({exc}): pip install -e ".[train]" (from the source checkout)',
              file=sys.stderr)
        return 2
    from polyreward.judges.server import JudgeServer
    from polyreward.trainer.assets import resolve_model

    if args.max_batch < 1:
        print("error: --max-batch must be >= 1", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"error: --port must be between 0 and 65535 (0 = any free port), got {args.port}", file=sys.stderr)
        return 2
    try:
        model_dir = resolve_model(args.model)
        # a built-in asset (smollm2-135m) is served under the name a config uses for it, not its cache folder's
        name = args.served_model_name or (None if Path(args.model).expanduser().is_dir() else args.model)
        server = JudgeServer(model_dir, host=args.host, port=args.port, served_model_name=name,
                             max_batch=args.max_batch, device=args.device, dtype=args.dtype, verbose=args.verbose)
    except ImportError as exc:
        print(f'error: {exc} (install the train extra: pip install -e ".[train]")', file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"serving {server.model_name!r} at {server.url} (POST /chat/completions, GET /models); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
