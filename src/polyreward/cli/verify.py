"""``polyreward verify --gold X --pred Y [--prompt P] [--type math|choice] [--config CFG --reward NAME] [--json]``: check
one answer.

The pair is scored as a one-row batch by the same scorer ``polyreward score`` uses (:class:`polyreward.pipeline.Scorer`),
so the two commands give the same score and the same reason for the same pair and config: by default a
``math_accuracy`` (or, with ``--type choice``, ``choice_accuracy``) reward with its default parameters -- the
``work_avoidance`` guard on -- and with ``--config`` the config's reward named by ``--reward`` (its parameters, its
``when:`` rule, its column names). ``--prompt`` is the row's prompt (the guard refuses a copy of the prompt's own
expression only when it is given, as in a file).

Prints the verdict, the answers as extracted and compared, and the reason. Exit codes: 0 CORRECT, 1 WRONG,
2 a usage error (a bad argument or config: one line), 3 NOT SCORED (the check does not apply: the gold is missing or
cannot be read, the reward's ``when:`` rule skips the row, or the check timed out with ``on_timeout: nan``), so a
script can tell a wrong answer from one that was not judged.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from typing import Any

from polyreward.vocabulary import UserError

CORRECT, WRONG, USAGE, NOT_SCORED = 0, 1, 2, 3  # exit codes
ANSWER_TYPES = {"math": "math_accuracy", "choice": "choice_accuracy"}
# the parts of a verdict's one-line reason (polyreward.verifiers.verdict.Verdict.describe)
_DESCRIBED = re.compile(r"(?P<reason>[a-z_]+)(?: \[(?P<rule>[^\]]*)\])?: pred '(?P<pred>(?:[^'\\]|\\.)*)'(?: \((?P<source>[^)]*)\))? "
                        r"vs gold '(?P<gold>(?:[^'\\]|\\.)*)'")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gold", required=True, help="the reference answer (trusted)")
    parser.add_argument("--pred", required=True, help="the model output: a whole completion or just the answer; '-' reads stdin")
    parser.add_argument("--prompt", default=None, help="the row's prompt (optional; the work-avoidance guard refuses a copy of its expression)")
    parser.add_argument("--type", choices=tuple(ANSWER_TYPES), default="math", help="math equivalence or multiple choice (default: math)")
    parser.add_argument("--options", default=None, help="choice options: 'A. ...\\nB. ...' lines or a JSON object")
    parser.add_argument("--letters", default="ABCDE", help="choice letters (default: ABCDE)")
    parser.add_argument("--timeout", type=float, default=5.0, help="hard limit in seconds for the math check (default: 5)")
    parser.add_argument("--config", "-c", default=None, help="score with a reward of this YAML config (its parameters and columns)")
    parser.add_argument("--reward", default=None, help="with --config: the name of the reward to use (needed when it has several)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    parser.epilog = ("Exit status: 0 CORRECT, 1 WRONG, 3 NOT SCORED (the gold is missing or unreadable, the reward's when: rule "
                     "skips the row, or the check timed out), 2 a usage error.")


class UsageError(UserError, ValueError):
    """A bad argument or config, reported as one line with exit status 2."""


def _default_scorer(args: argparse.Namespace) -> tuple[Any, str, dict[str, Any]]:
    """A scorer of one reward with its default parameters (the answer in column ``answer``); math runs in an
    engine of one worker with the ``--timeout`` budget."""
    from polyreward.pipeline import Scorer
    from polyreward.rewardset import RewardSet

    if args.type == "choice":
        from polyreward.rewards.choice_accuracy import ChoiceAccuracy

        try:
            reward = ChoiceAccuracy(name="verify", letters=args.letters, options_column="options" if args.options is not None else None)
        except ValueError as exc:
            raise UsageError(f"--letters: {exc}") from exc
        row = {"answer": args.gold, **({"options": args.options} if args.options is not None else {})}
    else:
        from polyreward.engine import Engine
        from polyreward.rewards.math_accuracy import MathAccuracy

        if not args.timeout > 0:
            raise UsageError(f"--timeout must be a number of seconds > 0, got {args.timeout}")
        reward = MathAccuracy(name="verify", engine=Engine(workers=1, timeout=args.timeout))
        row = {"answer": args.gold}
    return Scorer(RewardSet([reward])), reward.name, row


def _config_scorer(args: argparse.Namespace) -> tuple[Any, str, dict[str, Any]]:
    """The config's reward ``--reward`` as a one-reward scorer, and the row's gold (and options) under its columns."""
    from polyreward.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except (ConfigError, OSError) as exc:
        raise UsageError(str(exc)) from exc
    names = [entry.name for entry in config.rewards]
    name = args.reward if args.reward is not None else names[0] if len(names) == 1 else None
    if name is None or name not in names:
        what = f"--reward {args.reward!r} is not a reward of {args.config}" if args.reward else f"{args.config} has several rewards: name one with --reward"
        raise UsageError(f"{what}; its rewards: {', '.join(names)}")
    try:
        scorer = config.build_scorer(workers=1).subset([name])
    except (ConfigError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    reward = scorer.rewards.rewards[0]
    answer_column = getattr(reward, "answer_column", None)
    if answer_column is None:
        raise UsageError(f"reward {name!r} of {args.config} does not compare an answer with a gold (no answer_column)")
    row = {answer_column: args.gold}
    options_column = getattr(reward, "options_column", None)
    if options_column and args.options is not None:
        row[options_column] = args.options
    return scorer, name, row


def score_pair(args: argparse.Namespace, pred: str) -> tuple[float | None, str]:
    """The score and reason ``polyreward score`` gives the row (``--prompt``, ``pred``, ``--gold``) under the chosen reward."""
    scorer, name, row = _config_scorer(args) if args.config else _default_scorer(args)
    columns = scorer.columns
    record = {columns.completion: pred, **row}
    if args.prompt is not None:
        record[columns.prompt] = args.prompt
    scored = scorer.score(scorer.batch([record]), combine=False)
    score = float(scored.scores[0, scored.names.index(name)])
    reason = scored.reasons.get(name, [""])[0] or ""
    return (None if math.isnan(score) else score), reason


def run(args: argparse.Namespace) -> int:
    if args.reward is not None and args.config is None:
        print("error: --reward names a reward of a --config; give the config too", file=sys.stderr)
        return USAGE
    pred = sys.stdin.read() if args.pred == "-" else args.pred
    score, reason = score_pair(args, pred)  # a UsageError is reported by polyreward.cli.main (exit USAGE)
    code = NOT_SCORED if score is None else CORRECT if score == 1.0 else WRONG
    parts = _DESCRIBED.match(reason)
    fields: dict[str, Any] = {"correct": code == CORRECT, "score": score, "reason": reason}
    if parts:  # the verdict's parts, as read from its reason (the reason is the one `polyreward score` writes)
        fields.update({"verdict": parts.group("reason"), **{key: parts.group(key) or "" for key in ("rule", "gold", "pred", "source")}})
    if args.json:
        print(json.dumps(fields, ensure_ascii=False))
        return code
    print({CORRECT: "CORRECT", WRONG: "WRONG", NOT_SCORED: "NOT SCORED"}[code])
    if parts:
        print(f"  gold:   '{parts.group('gold')}'")
        print(f"  pred:   '{parts.group('pred')}'" + (f"  (found by: {parts.group('source')})" if parts.group("source") else ""))
    print(f"  reason: {reason}")
    return code
