"""``polyreward serve --config CFG``: the config's rewards as an HTTP reward server (:mod:`polyreward.runners.server`).

    POLYREWARD_TOKEN=s3cret polyreward serve --config config.yaml --host 0.0.0.0 --port 8088 --concurrency 4
    # OpenRLHF: --remote_rm_url http://HOST:8088/get_reward     slime: --rm-url http://HOST:8088/slime
    # Python:   RewardClient(["http://HOST:8088", ...]).score_rows(rows)

Binds 127.0.0.1 by default. Binding any other address needs a bearer token in the environment variable named by
``--token-env`` (default ``POLYREWARD_TOKEN``); with the variable set, every route but ``GET /health`` needs it.
Prints one line ``serving http://HOST:PORT`` on stdout when it accepts connections (``--port 0`` picks a free port).
Exit 2 for a bad config or argument, before anything binds.
"""

from __future__ import annotations

import argparse
import os
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("--config", "-c", required=True, help="YAML config naming the rewards (and the combiner for advantages)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; anything else needs a token)")
    parser.add_argument("--port", type=int, default=8088, help="port (0 = any free port; default 8088)")
    parser.add_argument("--workers", type=int, default=None,
                        help="verification worker processes per slot (default: config engine.workers, else min(2, cores); 0 = inline)")
    parser.add_argument("--concurrency", type=int, default=2, help="requests scored at once, each with its own rewards; more get 429 (default 2)")
    parser.add_argument("--request-timeout", type=float, default=60.0,
                        help="seconds a request may take; past it the answer is NaN + reason for every rollout (default 60)")
    parser.add_argument("--max-body-bytes", type=int, default=16 * 1024 * 1024, help="larger request bodies get 413 (default 16 MiB)")
    parser.add_argument("--token-env", default="POLYREWARD_TOKEN", help="environment variable holding the bearer token (default POLYREWARD_TOKEN)")
    parser.add_argument("--label-column", default="answer", help="column the OpenRLHF labels / slime label fill (default answer)")
    parser.add_argument("--nan-reward", type=float, default=0.0, help="reward sent to OpenRLHF / slime for a rollout no reward scored (default 0.0)")
    add_set_argument(parser)


def _check(args: argparse.Namespace) -> str | None:
    """The token (None when unset); a ValueError naming the bad argument otherwise."""
    from polyreward.runners.server import is_loopback

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be between 0 and 65535 (0 = any free port), got {args.port}")
    if args.concurrency < 1:
        raise ValueError(f"--concurrency must be >= 1, got {args.concurrency}")
    if args.workers is not None and args.workers < 0:
        raise ValueError(f"--workers must be >= 0 (0 = inline), got {args.workers}")
    if not args.request_timeout > 0 or not args.max_body_bytes > 0:
        raise ValueError("--request-timeout and --max-body-bytes must be > 0")
    token = os.environ.get(args.token_env) or None
    if token is None and not is_loopback(args.host):
        raise ValueError(f"--host {args.host} is beyond loopback: set a bearer token in the environment variable {args.token_env}")
    return token


def run(args: argparse.Namespace) -> int:
    import socket

    from polyreward.config import ConfigError, load_config

    try:
        import fastapi  # noqa: F401
        import uvicorn
    except ImportError as exc:
        print(f'error: polyreward serve needs fastapi and uvicorn ({exc}): pip install -e ".[serve]" (from the source checkout)', file=sys.stderr)
        return 2
    from polyreward.runners.server import create_app

    try:
        token = _check(args)
        config = load_config(args.config, args.overrides)
        app = create_app(config, token=token, concurrency=args.concurrency, workers=args.workers, max_body_bytes=args.max_body_bytes,
                         request_timeout=args.request_timeout, label_column=args.label_column, nan_reward=args.nan_reward)
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
    except (ConfigError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2))
    shown = f"[{host}]" if ":" in host else host
    original_startup = server.startup

    async def startup(sockets=None):
        await original_startup(sockets=sockets)
        print(f"serving http://{shown}:{port} (POST /score, /get_reward, /slime; GET /health)", flush=True)

    server.startup = startup
    server.run(sockets=[sock])
    return 0
