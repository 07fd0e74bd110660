"""``polyreward serve-judge``: serve a local transformers model as an OpenAI-compatible judge.

    polyreward serve-judge --model ~/models/qwen2.5-7b-instruct --port 8000
    # then, in a reward config:  judge: {type: openai, base_url: http://127.0.0.1:8000/v1, model: qwen2.5-7b-instruct}
    polyreward serve-judge --model smollm2-135m     # built-in asset, served as model: smollm2-135m

Binds 127.0.0.1 by default. Any other interface needs a bearer token in the environment variable named by
``--token-env`` (default ``POLYREWARD_JUDGE_TOKEN``; give the ``openai`` judge the same variable as its
``api_key_env``), or a trust mode given on purpose (``--trust-client NETWORK``, ``--no-token``), printed at
start-up: the rules of ``polyreward serve``. The server logic is :class:`polyreward.judges.server.JudgeServer`.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, help="local model directory (or the built-in asset names tiny-qwen2, smollm2-135m)")
    parser.add_argument("--port", type=int, default=8000, help="port (0 = any free port; default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; anything else needs a token or a trust mode)")
    parser.add_argument("--token-env", default="POLYREWARD_JUDGE_TOKEN",
                        help="environment variable holding the bearer token (default POLYREWARD_JUDGE_TOKEN)")
    parser.add_argument("--no-token", action="store_true", help="trust mode: serve any interface without a token; printed at start-up")
    parser.add_argument("--trust-client", action="append", default=[], metavar="NETWORK",
                        help="trust mode: clients in this address or network need no token; repeatable")
    parser.add_argument("--max-body-bytes", type=int, default=8 * 1024 * 1024, help="larger request bodies get 413 (default 8 MiB)")
    parser.add_argument("--header-timeout", type=float, default=10.0, help="seconds for a request's headers to arrive (default 10)")
    parser.add_argument("--body-timeout", type=float, default=30.0, help="seconds for a request body to arrive, else 408 (default 30)")
    parser.add_argument("--max-connections", type=int, default=64, help="connections served at once; more are closed (default 64)")
    parser.add_argument("--served-model-name", default=None,
                        help="model name clients send (default: a built-in asset's name as given, e.g. smollm2-135m, else the directory name)")
    parser.add_argument("--max-batch", type=int, default=8, help="requests generated together in one batch (default 8)")
    parser.add_argument("--device", default="cpu", help="torch device (default cpu)")
    parser.add_argument("--dtype", default="auto", choices=["auto", "float32", "bfloat16", "float16"])
    parser.add_argument("--verbose", action="store_true", help="log every request")


def run(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from polyreward.judges.access import access_for

    try:
        if not args.max_body_bytes > 0 or not args.header_timeout > 0 or not args.body_timeout > 0 or args.max_connections < 1:
            raise ValueError("--max-body-bytes, --header-timeout, --body-timeout and --max-connections must be > 0")
        access, trust_line = access_for(args.host, os.environ.get(args.token_env) or None, no_token=args.no_token,
                                        trusted=args.trust_client, token_env=args.token_env)
    except ValueError as exc:  # before the model loads
        print(f"error: {exc}", file=sys.stderr)
        return 2
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
                             max_batch=args.max_batch, device=args.device, dtype=args.dtype, verbose=args.verbose, access=access,
                             header_timeout=args.header_timeout, body_timeout=args.body_timeout, max_body_bytes=args.max_body_bytes,
                             max_connections=args.max_connections)
    except ImportError as exc:
        print(f'error: {exc} (install the train extra: pip install -e ".[train]")', file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if trust_line:
        print(trust_line, file=sys.stderr, flush=True)
    print(f"serving {server.model_name!r} at {server.url} (POST /chat/completions, GET /models); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
