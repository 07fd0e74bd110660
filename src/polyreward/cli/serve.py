"""``polyreward serve --config CFG``: the config's rewards as an HTTP reward server (:mod:`polyreward.runners.server`).

    POLYREWARD_TOKEN=s3cret polyreward serve --config config.yaml --host 0.0.0.0 --port 8088 --concurrency 4
    # OpenRLHF: --remote_rm_url http://HOST:8088/get_reward     slime: --rm-url http://HOST:8088/slime
    # Python:   RewardClient(["http://HOST:8088", ...]).score_rows(rows)

Binds 127.0.0.1 by default. Binding any other address needs a bearer token in the environment variable named by
``--token-env`` (default ``POLYREWARD_TOKEN``), or a trust mode given on purpose for trainers that send no
header (OpenRLHF, slime): ``--trust-client NETWORK`` (those clients need no token) or ``--no-token`` (nobody
does); the trust mode is printed at start-up. With a token set, every route but ``GET /health`` needs it.
Prints one line ``serving http://HOST:PORT`` on stdout when it accepts connections (``--port 0`` picks a free
port), after every slot process has built the rewards; with ``--front-lane``, one line on stderr saying whether the
config is scored on the front lane (every reward declared linear-time: scored in the front process,
:mod:`polyreward.runners.server_front`) or in the slot processes. Exit 2 for a bad config or argument, before anything serves.
"""

from __future__ import annotations

import argparse
import os
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("--config", "-c", required=True, help="YAML config naming the rewards (and the combiner for advantages)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; anything else needs a token or a trust mode)")
    parser.add_argument("--port", type=int, default=8088, help="port (0 = any free port; default 8088)")
    parser.add_argument("--workers", type=int, default=None,
                        help="verification worker processes per slot (default: config engine.workers, else min(2, cores); 0 = inline)")
    parser.add_argument("--concurrency", type=int, default=2,
                        help="requests scored at once, each in its own slot process (plus one on the front lane with --front-lane); "
                             "more get 429 (default 2)")
    parser.add_argument("--front-lane", action="store_true",
                        help="score a config whose every reward is declared linear-time in the front process, on a thread: no slot "
                             "hop, but no kill at the timeout, and its scoring shares the front's interpreter lock (default: every "
                             "request in a slot process)")
    parser.add_argument("--request-timeout", type=float, default=60.0,
                        help="seconds a request may score; past it the answer is NaN + reason for every rollout and its slot process is killed and rebuilt (default 60)")
    parser.add_argument("--max-body-bytes", type=int, default=16 * 1024 * 1024, help="larger request bodies get 413 (default 16 MiB)")
    parser.add_argument("--max-field-chars", type=int, default=1 << 20,
                        help="a row with a field longer than this (characters of text) is not scored: NaN + reason (default 1048576)")
    parser.add_argument("--header-timeout", type=float, default=10.0,
                        help="seconds a connection may take to send complete request headers before it is closed (default 10)")
    parser.add_argument("--body-timeout", type=float, default=30.0, help="seconds a request body may take to arrive, else 408 (default 30)")
    parser.add_argument("--max-connections", type=int, default=256,
                        help="open connections at most; at the cap the heaviest client address gives one up, else the newcomer is closed (default 256)")
    parser.add_argument("--max-connections-per-client", type=int, default=None, metavar="N",
                        help="open connections per client address at most (default: no fixed budget; the fair share at the cap)")
    parser.add_argument("--forwarded-allow-ips", action="append", default=[], metavar="NETWORK",
                        help="proxies whose X-Forwarded-For header names the client (address or network); repeatable. "
                             "Default: none, the header is ignored")
    parser.add_argument("--token-env", default="POLYREWARD_TOKEN", help="environment variable holding the bearer token (default POLYREWARD_TOKEN)")
    parser.add_argument("--no-token", action="store_true",
                        help="trust mode: serve any interface without a token (for trainers that send none); printed at start-up")
    parser.add_argument("--trust-client", action="append", default=[], metavar="NETWORK",
                        help="trust mode: clients in this address or network (e.g. 10.0.0.0/8) need no token; repeatable")
    parser.add_argument("--label-column", default="answer", help="column the OpenRLHF labels / slime label fill (default answer)")
    parser.add_argument("--nan-reward", type=float, default=0.0, help="reward sent to OpenRLHF / slime for a rollout no reward scored (default 0.0)")
    parser.add_argument("--keep-special-text", action="store_true",
                        help="score OpenRLHF / slime completions with their special-token text (<|im_end|>, </s>, ...) kept at the ends")
    parser.add_argument("--special-text", action="append", default=None, metavar="TEXT",
                        help="special-token text to cut from the ends of peer completions, instead of the built-in list; repeatable")
    parser.add_argument("--tokenizer", default=None, metavar="DIR",
                        help="also cut the special tokens of this Hugging Face tokenizer folder (tokenizer.json / tokenizer_config.json)")
    add_set_argument(parser)


def _check(args: argparse.Namespace):
    """The access rule and its start-up line; a ValueError naming the bad argument otherwise."""
    from polyreward.judges.access import access_for

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be between 0 and 65535 (0 = any free port), got {args.port}")
    if args.concurrency < 1:
        raise ValueError(f"--concurrency must be >= 1, got {args.concurrency}")
    if args.workers is not None and args.workers < 0:
        raise ValueError(f"--workers must be >= 0 (0 = inline), got {args.workers}")
    if not args.request_timeout > 0 or not args.max_body_bytes > 0:
        raise ValueError("--request-timeout and --max-body-bytes must be > 0")
    if not args.header_timeout > 0 or not args.body_timeout > 0 or args.max_connections < 1 or args.max_field_chars < 1:
        raise ValueError("--header-timeout, --body-timeout, --max-connections and --max-field-chars must be > 0")
    if args.max_connections_per_client is not None and args.max_connections_per_client < 1:
        raise ValueError(f"--max-connections-per-client must be >= 1, got {args.max_connections_per_client}")
    token = os.environ.get(args.token_env) or None
    return access_for(args.host, token, no_token=args.no_token, trusted=args.trust_client, token_env=args.token_env)


def run(args: argparse.Namespace) -> int:
    import socket

    from polyreward.config import load_config

    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        print(f'error: polyreward serve needs fastapi and uvicorn ({exc}): pip install -e ".[serve]" (from the source checkout)', file=sys.stderr)
        return 2
    from polyreward.runners.server import create_app, run_server
    from polyreward.runners.server_routes import SPECIAL_TEXT, RouteSettings, tokenizer_special_text
    from polyreward.runners.server_slots import SlotStartError

    from polyreward.judges.access import parse_networks

    try:
        access, trust_line = _check(args)
        proxies = parse_networks(args.forwarded_allow_ips, flag="--forwarded-allow-ips")
        special = () if args.keep_special_text else tuple(dict.fromkeys(
            (*(args.special_text or SPECIAL_TEXT), *(tokenizer_special_text(args.tokenizer) if args.tokenizer else ()))))
        config = load_config(args.config, args.overrides)
        settings = RouteSettings(label_column=args.label_column, nan_reward=args.nan_reward, max_field_chars=args.max_field_chars,
                                 special_text=special)
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        app = create_app(config, access=access, concurrency=args.concurrency, workers=args.workers, max_body_bytes=args.max_body_bytes,
                         request_timeout=args.request_timeout, body_timeout=args.body_timeout, settings=settings,
                         front_lane=args.front_lane,
                         on_lane=(lambda line: print(line, file=sys.stderr, flush=True)) if args.front_lane else None)
    except (ValueError, OSError, SlotStartError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if trust_line:
        print(trust_line, file=sys.stderr, flush=True)

    def started() -> None:
        print(f"serving http://{shown}:{port} (POST /score, /get_reward, /slime; GET /contract, /health)", flush=True)

    run_server(app, sock, header_timeout=args.header_timeout, max_connections=args.max_connections,
               max_per_client=args.max_connections_per_client, forwarded_allow=proxies, on_started=started)
    return 0
