"""One base for the caller's mistakes (``polyreward.vocabulary.UserError``), mapped once by ``polyreward.cli.main`` to
one ``error: <message>`` line and exit status 2, whichever command raised it."""

from __future__ import annotations

import pytest

from polyreward.cli import main
from polyreward.cli.verify import UsageError
from polyreward.io import InputError
from polyreward.rubrics.schema import RubricError
from polyreward.runners.parts import OutputError, OutputLockedError
from polyreward.verifiers.tool_calls import ToolCallError
from polyreward.vocabulary import ConfigError, MissingColumnError, RewardError, UnknownTypeError, UserError


@pytest.mark.parametrize("error, other_base", [
    (ConfigError, ValueError), (UnknownTypeError, KeyError), (MissingColumnError, KeyError), (InputError, ValueError),
    (RubricError, ValueError), (UsageError, ValueError), (OutputLockedError, ValueError),
])
def test_every_user_error_is_a_user_error_and_keeps_its_other_base(error, other_base):
    assert issubclass(error, UserError) and issubclass(error, other_base)


@pytest.mark.parametrize("error", [RewardError, OutputError, ToolCallError])
def test_failures_that_are_not_the_callers_are_no_user_error(error):
    """A reward that fails, a disk that is full, a malformed tool call in model output: not exit 2 by type."""
    assert not issubclass(error, UserError)


@pytest.mark.parametrize("argv, message", [
    (["verify", "--gold", "1", "--pred", "1", "--timeout", "0"], "error: --timeout must be a number of seconds > 0, got 0.0"),
    (["score", "-c", "examples/tools/config.yaml", "examples/tools/rollouts.jsonl", "-o", "OUT.jsonl", "--chunk-size", "0"],
     "error: --chunk-size must be >= 1"),
    (["probe", "examples/tools/config.yaml", "examples/tools/rollouts.jsonl", "--examples", "-1"],
     "error: --examples must be >= 0, got -1"),
])
def test_a_user_error_of_any_command_is_one_line_and_exit_2(capsys, tmp_path, argv, message):
    argv = [str(tmp_path / a) if a == "OUT.jsonl" else a for a in argv]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip().splitlines() == [message]
