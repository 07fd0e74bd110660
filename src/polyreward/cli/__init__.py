"""The ``polyreward`` command line.

Each sub-command lives in its own module with ``add_arguments(parser)`` and ``run(args) -> int``;
the table below names them and they are imported only when chosen.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("polyreward.cli.score", "score a rollout file with the rewards of a config"),
    "verify": ("polyreward.cli.verify", "check one prediction against one gold answer"),
    "list": ("polyreward.cli.list_types", "list registered rewards and combiners"),
    "advantages": ("polyreward.cli.advantages", "turn reward columns into advantages with a combiner"),
    "report": ("polyreward.cli.report", "plots and an HTML page of rewards, advantages and training curves"),
    "train": ("polyreward.cli.train", "train a causal LM with the bundled GRPO trainer"),
    "serve-judge": ("polyreward.cli.serve_judge", "serve a local model as an OpenAI-compatible judge"),
    "serve": ("polyreward.cli.serve", "serve a config's rewards over HTTP (own schema, OpenRLHF and slime contracts)"),
    "probe": ("polyreward.cli.probe", "red-team a reward config: score hacking strategies against genuine answers built from your rows"),
}


# commands that run a model (torch): BLAS threads are theirs to use
MODEL_COMMANDS = frozenset({"train", "serve-judge"})


def add_set_argument(parser: argparse.ArgumentParser, extra: str = "") -> None:
    """``--set KEY.PATH=VALUE`` (repeatable) on a command that reads a config: applied to the YAML before it is
    validated (:func:`polyreward.config.apply_overrides`)."""
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY.PATH=VALUE",
                        help="replace a config value before validation, e.g. --set rewards.0.weight=0.5 (the value is read as "
                        f"YAML; lists by 0-based index); repeatable{extra}")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    from polyreward import __version__

    parser = argparse.ArgumentParser(prog="polyreward", description="Rewards, verifiers and advantage combiners for RL of LMs.")
    parser.add_argument("--version", action="version", version=f"polyreward {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(module).add_arguments(sub_parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    if command is not None and command not in COMMANDS:
        command = None
    if command not in MODEL_COMMANDS:
        # numpy's bundled OpenBLAS starts one busy-waiting thread per core when numpy is imported: on 2 cores about
        # 70 ms of CPU, a fifth of a one-row `polyreward score`, for matrix products these commands never run large
        # (a weighted total is summed column by column; combiners' products are N x K by K). Their results do not
        # depend on it. A user who wants BLAS threads sets the variable; the training and model-serving commands keep
        # the library's default.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    # pydantic (the config models) otherwise scans the metadata of every installed distribution for its plug-ins the
    # first time a model is built: about 40 ms of a command's start-up for instrumentation that our config models do
    # not use. A user who wants pydantic plug-ins in the command line sets the variable themselves.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    module = importlib.import_module(COMMANDS[args.command][0])
    stderr = sys.stderr
    sys.stderr = RedactingStream(stderr)  # a URL's user:password@ (a judge's base_url) never reaches the terminal
    try:
        code = int(module.run(args) or 0)
        sys.stdout.flush()  # a reader that closed the pipe early is met here, by the handler below, not at exit
        return code
    except BrokenPipeError:
        # the reader of stdout has gone ("polyreward verify ... | head -c 100"): nothing is left to tell it, and no
        # traceback; stdout goes to devnull so the interpreter's own flush at exit stays quiet. 141 = 128 + SIGPIPE,
        # what a shell reports for a command its pipe's reader closed
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except Exception as exc:
        # polyreward.vocabulary (numpy with it) is imported only here: `--version` and a command that fails early
        # need neither
        from polyreward.vocabulary import UserError

        if not isinstance(exc, UserError):
            raise
        print(f"error: {exc}", file=sys.stderr)  # a mistake of the caller's (config, input, argument): one line, exit 2
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        sys.stderr = stderr


class RedactingStream:
    """A text stream that writes through to ``stream`` with URL credentials replaced
    (:func:`polyreward.schema.redact_credentials`); everything else is the wrapped stream's."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        from polyreward.schema import redact_credentials

        return self._stream.write(redact_credentials(text) if isinstance(text, str) else text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


if __name__ == "__main__":
    sys.exit(main())
