"""Rubrics from rollout data are untrusted: no code is imported from them and their patterns run in linear time.

A rubric cell of the rollout file may name a rule ``callable`` only when it is a built-in rule function or the
config lists it under ``allowed_callables``; anything else is refused with a reason, for that rollout only, and the
module is never imported. Rubric patterns run on RE2, so the catastrophic pattern ``^(\\w+\\s?)+emergency`` costs
microseconds; a pattern RE2 cannot run (look-behind) is refused in data and allowed from the config's rubric file.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polyreward.rubrics.judge_rules import RulesJudge, check_rule
from polyreward.rubrics.rule_grammar import validate_rule
from polyreward.rubrics.reward import RubricReward
from polyreward.rubrics.schema import RubricError, parse_rubric

CANARY = '''
import os, pathlib
pathlib.Path(os.environ["CANARY_FILE"]).write_text("imported")
def check(response, **kwargs):
    return True
'''


@pytest.fixture()
def canary(tmp_path, monkeypatch):
    """A module that leaves a file behind when it is imported (``canary_rule:check``)."""
    (tmp_path / "canary_rule.py").write_text(CANARY)
    sentinel = tmp_path / "imported.txt"
    monkeypatch.setenv("CANARY_FILE", str(sentinel))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("canary_rule", None)
    yield sentinel
    sys.modules.pop("canary_rule", None)


def _rubric(rule):
    return json.dumps([{"criterion": "Tells the user to call 911", "points": 5, "rule": rule}])


def test_a_callable_in_rollout_data_is_refused_and_never_imported(canary):
    rubrics = [_rubric({"callable": "canary_rule:check"}), _rubric({"contains": "911"})]
    out = RubricReward().evaluate(["q", "q"], ["call 911", "call 911"], rubrics=rubrics)
    assert math.isnan(out.scores[0]) and out.scores[1] == 1.0
    assert "callable: 'canary_rule:check' is refused in a rubric from the rollout data" in out.reasons[0]
    assert "allowed_callables" in out.reasons[0]
    assert not canary.exists() and "canary_rule" not in sys.modules


def test_this_module_is_not_imported_from_data():
    was_loaded = "this" in sys.modules
    with pytest.raises(RubricError, match="refused"):
        parse_rubric(_rubric({"callable": "this:s"}))
    assert ("this" in sys.modules) == was_loaded


def test_the_config_allow_list_and_built_ins_are_accepted(canary):
    allowed = RubricReward(allowed_callables=["canary_rule:check"])
    assert allowed.evaluate(["q"], ["call 911"], rubrics=[_rubric({"callable": "canary_rule:check"})]).scores == [1.0]
    assert canary.exists()
    builtin = _rubric({"callable": "polyreward.rubrics.rule_functions:first_sentence_contains", "params": {"terms": ["911"]}})
    assert RubricReward().evaluate(["q"], ["Call 911 now. Then rest."], rubrics=[builtin]).scores == [1.0]
    with pytest.raises(ValueError, match="allowed_callables: must be a list"):
        RubricReward(allowed_callables="canary_rule:check")


def test_a_rubric_file_named_by_the_config_is_trusted(canary, tmp_path):
    path = tmp_path / "rubric.json"
    path.write_text(_rubric({"callable": "canary_rule:check"}))
    assert RubricReward(rubric_file=str(path)).evaluate(["q"], ["anything"]).scores == [1.0]


def test_catastrophic_pattern_from_data_runs_in_linear_time():
    rubric = _rubric({"regex": r"^(\w+\s?)+emergency"})
    start = time.process_time()  # CPU seconds, not wall time (the machine may be loaded)
    out = RubricReward().evaluate(["q"] * 2, ["a" * 27 + "!", "this is an emergency"], rubrics=[rubric] * 2)
    assert time.process_time() - start < 1.0  # Python's re takes ~15 s on the first completion
    assert out.scores == [0.0, 1.0]
    start = time.process_time()
    assert not check_rule({"regex": r"^(\w+\s?)+emergency"}, "word " * 20_000 + "!").met
    assert time.process_time() - start < 1.0


def test_patterns_the_linear_engine_cannot_run_are_refused_in_data_only(tmp_path):
    lookbehind = {"regex": r"(?<!not )urgent"}
    with pytest.raises(RubricError, match="needs syntax the linear-time regex engine"):
        parse_rubric(_rubric(lookbehind))
    validate_rule(lookbehind)  # a trusted rule may use Python's re syntax
    path = tmp_path / "rubric.json"
    path.write_text(_rubric(lookbehind))
    assert RubricReward(rubric_file=str(path)).evaluate(["q"] * 2, ["urgent", "not urgent"]).scores == [1.0, 0.0]
    with pytest.raises(RubricError, match="invalid regular expression"):
        parse_rubric(_rubric({"regex": "(unclosed"}))


@pytest.mark.parametrize(
    "cell, reason",
    [
        (json.dumps([{"criterion": "x", "points": 10**400}]), "points: must be a finite number, got an integer too large"),
        ([{"criterion": "x", "points": 10**400}], "points: must be a finite number"),
        ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
        ('{"rubrics": ' * 5_000 + "[]" + "}" * 5_000, "JSON nested too deeply"),
    ],
)
def test_hostile_rubric_cells_fail_their_own_rollout_only(cell, reason):
    good = [{"criterion": "Says 911", "points": 5, "rule": {"contains": "911"}}]
    out = RubricReward().evaluate(["q", "q"], ["call 911", "call 911"], rubrics=[cell, good])
    assert math.isnan(out.scores[0]) and reason in out.reasons[0]
    assert out.scores[1] == 1.0


@pytest.mark.parametrize("prompt", [12345, 3.5, object(), [1, 2, 3], {"role": "user", "content": 7}])
def test_a_non_string_prompt_fails_or_scores_its_own_rollout_only(prompt):
    good = [{"criterion": "Says 911", "points": 5, "rule": {"contains": "911"}}]
    out = RubricReward().evaluate([prompt, "q"], ["call 911", "call 911"], rubrics=[good, good])
    assert out.scores[1] == 1.0
    assert out.scores[0] == 1.0 or out.reasons[0] == f"error: TypeError: a prompt must be a string or a list of chat messages, got {type(prompt).__name__}"


def test_a_malformed_rollout_does_not_split_the_judge_batch():
    """A bad prompt or completion fails inside the reward's own loop, so the other rollouts still go to the judge in one call."""
    calls = []

    class CountingJudge(RulesJudge):
        def judge(self, requests):
            calls.append(len(requests))
            return super().judge(requests)

    reward = RubricReward()
    reward.rules = CountingJudge()
    good = [{"criterion": "Says 911", "points": 5, "rule": {"contains": "911"}}]
    out = reward.evaluate(["q", 7, "q", "q"], ["call 911", "call 911", b"\xff", "wait"], rubrics=[good] * 4)
    assert out.scores[0] == 1.0 and out.scores[3] == 0.0 and math.isnan(out.scores[1])
    assert calls == [3]


def test_polyreward_score_refuses_a_callable_in_the_rollout_file(canary, tmp_path):
    rows = [
        {"question": "q", "output": "call 911", "rubrics": json.loads(_rubric({"callable": "canary_rule:check"}))},
        {"question": "q", "output": "call 911", "rubrics": json.loads(_rubric({"contains": "911"}))},
    ]
    src = tmp_path / "rollouts.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("columns: {prompt: question, completion: output}\nrewards:\n  - {name: clinical, type: rubric}\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "--config", str(cfg), "-o", str(tmp_path / "out.jsonl")],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert out[0]["clinical"] is None or math.isnan(out[0]["clinical"])
    assert "refused in a rubric from the rollout data" in out[0]["clinical_reason"]
    assert out[1]["clinical"] == 1.0
    assert not canary.exists()
