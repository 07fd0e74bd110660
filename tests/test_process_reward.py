"""The ``process`` reward type: the arithmetic rule step scorer (table, disguised characters, hostile text, property
tests), the reward's summaries, details and unscored rollouts, config validation (exit 2), and the shipped
``examples/process`` through ``polyreward score`` with PAPO's advantages on the (outcome, process) columns."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward import registry
from polyreward.combiners import PAPOCombiner
from polyreward.config import load_config
from polyreward.rewards import step_arithmetic
from polyreward.rewards.process_steps import ProcessReward
from polyreward.rewards.step_arithmetic import check_step
from polyreward.vocabulary import ConfigError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "process"

RULE_TABLE = [
    # true equations
    ("3 × 4 = 12", 1.0), ("So 2 + 2 = 4.", 1.0), ("1/2 + 1/4 = 3/4", 1.0), ("0.1 + 0.2 = 0.3", 1.0),
    ("2 + 2 = 4 = 8 / 2", 1.0), ("$3 \\times 4 = 12$", 1.0), ("\\frac{6}{3} = 2", 1.0), (".5 + .5 = 1", 1.0),
    ("-3 + 5 = 2", 1.0), ("((1)) + 1 = 2", 1.0), ("10 / 3 = 3.33", 1.0), ("2 · 3 = 6 and 6 ÷ 2 = 3", 1.0),
    ("The product 3 × 4 = 12 apples", 1.0), ("In 2 hours: 60 × 2 = 120 km", 1.0), ("6 * 7 = 42", 1.0),
    # false equations
    ("3 × 4 = 13", 0.0), ("so 2+2=5", 0.0), ("2 + 2 = 4 = 9/2", 0.0), ("5 / 0 = 0", 0.0), ("10 / 3 = 3.4", 0.0),
    ("2/3 = 0.6", 0.0), ("7 / 2 = 3", 0.0), ("2 + 2 = 4 and 3 × 3 = 10", 0.0),
    # nothing checkable: no score, never a guess
    ("x = 5", None), ("12 = 12", None), ("2x + 3 = 7", None), ("x - 3 = 7", None), ("f(2) = 4", None),
    ("half of 8 = 4", None), ("3 times 4 = 12", None), ("2 + 2 = 4 times 3", None), ("3² = 9", None), ("4! = 24", None),
    ("50% of 8 = 4", None), ("1,000 + 1 = 1,001", None), ("The answer is 24.", None), ("", None),
    ("2 + 2 == 4", None), ("9" * 40 + " + 1 = 1", None),
]


@pytest.mark.parametrize("text, expected", RULE_TABLE)
def test_rule_table(text, expected):
    assert check_step(text) == expected


DISGUISED_WRONG = [
    "2\u200b + 2 = 5",            # a zero-width space inside
    "２ + ２ = ５",                # full-width digits
    "٢ + ٢ = ٥",                  # Arabic-Indic digits
    "7 \u2212 2 = 6",             # a minus sign (U+2212)
    "**2 + 2 = 5**",              # markdown bold
    "*2 + 2 = 5*",                # markdown italics
    "_2 + 2 = 5_",
    "2 + 2\u2060 = 5",            # a word joiner
    "\\(2 + 2 = 5\\)",            # LaTeX inline math
    "2 \u22c5 3 = 7",             # the dot operator
    "6 \u2215 2 = 4",             # the division slash
    "2 \u2217 3 = 7",             # the asterisk operator
    "２ ＋ ２ ＝ ５",               # full-width signs
]


@pytest.mark.parametrize("text", DISGUISED_WRONG)
def test_disguised_characters_do_not_hide_a_wrong_step(text):
    assert check_step(text) == 0.0


def test_hidden_text_earns_nothing():
    """A correct equation no reader sees (an HTML comment, struck through) is no checked step."""
    assert check_step("<!-- 1 + 1 = 2 --> I just know") is None
    assert check_step("~~1 + 1 = 2~~ trust me") is None


HOSTILE = ["1=" * 50_000, "(" * 20_000 + "1" + ")" * 20_000 + " + 1 = 2", "9" * 200_000 + " = 9", "=" * 100_000,
           "1+" * 60_000 + "1 = 2", "-" * 50_000 + "1 = 1", "\u200b=" * 30_000, "1.2.3 = 4", "1 / 0.0 = 1",
           "(1 + 2 = 3", "\ud800 1 + 1 = 2", "1 + 1 = 2 " * 20_000]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_scores_without_raising(text):
    assert check_step(text) in (None, 0.0, 1.0)


def test_the_rule_reads_each_character_a_bounded_number_of_times(monkeypatch):
    """Linear time without a clock: every character goes through the tokenizer at most a few times, however the
    equations chain or nest."""
    seen = []
    original = step_arithmetic._tokens
    monkeypatch.setattr(step_arithmetic, "_tokens", lambda side: (seen.append(len(side)), original(side))[1])
    for text in ("1 + 1 = 2 = 0.5 * 4 " * 2000, "1=" * 20_000, "3.5 = 7 / 2 = 3.50 = " * 3000, "((1+2)) = 3 " * 5000):
        seen.clear()
        check_step(text)
        assert sum(seen) <= 3 * len(text), (text[:20], sum(seen), len(text))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.text(max_size=400), st.lists(st.sampled_from(
    ["1", "2", "3.5", ".5", "0", " ", "=", "+", "-", "*", "/", "×", "÷", "(", ")", "\\frac{1}{2}", "x", "of", "**",
     "_", "\u200b", "\n", ",", ".", "!", "%", "²", "\\times", "$"]), max_size=80).map("".join)))
def test_rule_never_raises_and_scores_are_0_1_or_none(text):
    assert check_step(text) in (None, 0.0, 1.0)


_small = st.integers(min_value=-999, max_value=999)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(_small, _small, st.sampled_from(["+", "-", "*", "×"]), st.integers(min_value=-3, max_value=3))
def test_rule_agrees_with_integer_arithmetic(a, b, op, off):
    exact = {"+": a + b, "-": a - b, "*": a * b, "×": a * b}[op]
    text = f"so {a} {op} {b} = {exact + off}"
    assert check_step(text) == (1.0 if off == 0 else 0.0)


_pieces = st.lists(st.sampled_from(["3 × 4 = 12", "2 + 2 = 5", "Step 1:", "\n", "\n\n", " ", "so", "=", "x", "\u200b",
                                    "<!--", "-->", "**", "9" * 50, "(" * 30, "1=" * 30]), max_size=40).map("".join)


@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(st.lists(st.one_of(st.text(max_size=200), _pieces, st.none(), st.integers(),
                          st.lists(st.fixed_dictionaries({"role": st.just("assistant"), "content": _pieces}), max_size=2)),
                min_size=1, max_size=7),
       st.sampled_from(["min", "mean", "last", "product"]), st.sampled_from(["lines", "paragraphs", "markers"]),
       st.integers(min_value=1, max_value=5))
def test_reward_scores_stay_in_0_1_or_nan_with_a_reason(completions, summary, segment, max_steps):
    out = ProcessReward(summary=summary, segment=segment, max_steps=max_steps).evaluate([None] * len(completions), completions)
    assert len(out.scores) == len(completions)
    for i, (score, reason) in enumerate(zip(out.scores, out.reasons)):
        assert reason
        assert score is not None and (math.isnan(score) or 0.0 <= score <= 1.0)
        steps = out.details["step_scores"][i]
        assert len(steps) <= max_steps and all(v in (None, 0.0, 1.0) for v in steps)
        scored = [v for v in steps if v is not None]
        if summary == "min" and scored and not math.isnan(score):
            assert score == min(scored)
        if not scored and not math.isnan(score):
            assert score == 0.0  # unscored: never full marks


# ---------------------------------------------------------------------------------------------------- the reward


def test_registered_and_built_with_defaults():
    reward = registry.reward_class("process")()
    assert isinstance(reward, ProcessReward) and reward.exactness == "reconstructed" and reward.score_range == (0.0, 1.0)


COMPLETIONS = ["3 * 4 = 12\n12 * 2 = 24\nAnswer 24", "3 * 4 = 11\n11 * 2 = 22", "I just know it is 24", "",
               "3 * 4 = 12\nwords\n12 * 2 = 25"]


@pytest.mark.parametrize("summary, expected", [("min", [1.0, 0.0, 0.0, 0.0, 0.0]), ("mean", [1.0, 0.5, 0.0, 0.0, 0.5]),
                                               ("last", [1.0, 1.0, 0.0, 0.0, 0.0]), ("product", [1.0, 0.0, 0.0, 0.0, 0.0])])
def test_summaries_details_and_unscored_rollouts(summary, expected):
    out = ProcessReward(summary=summary).evaluate(["q"] * 5, COMPLETIONS)
    assert out.scores == expected
    assert out.details["step_scores"] == [[1.0, 1.0, None], [0.0, 1.0], [None], [], [1.0, None, 0.0]]
    assert out.details["steps"] == [3.0, 2.0, 1.0, 0.0, 3.0]
    assert out.details["scored_steps"] == [2.0, 2.0, 0.0, 0.0, 2.0]
    assert out.reasons[2].startswith("no step scored") and out.reasons[3].startswith("no steps")


def test_no_checkable_step_never_earns_full_marks():
    """Writing nothing the rule can check scores `unscored` (0 by default), not 1; null makes it not applicable."""
    assert ProcessReward().evaluate(["q"], ["It is obviously 24."]).scores == [0.0]
    assert ProcessReward(unscored=None).evaluate(["q"], ["It is obviously 24."]).scores == [None]


def test_score_steps_gives_the_spans_for_token_rewards():
    process = ProcessReward(segment="markers").score_steps(["q"], ["Step 1: 2 + 2 = 4\nStep 2: 4 * 3 = 13"])
    assert process.steps(0) == ["Step 1: 2 + 2 = 4", "Step 2: 4 * 3 = 13"]
    assert process.step_scores[0].tolist() == [1.0, 0.0] and process.summary.tolist() == [0.0]


def bad_scorer(prompt, steps, row):
    if "boom" in steps[0]:
        raise RuntimeError("scorer exploded")
    return [2.0 if "big" in s else 0.5 for s in steps]


def test_a_user_rule_failing_or_out_of_range_fails_that_rollout_only():
    reward = ProcessReward(scorer={"kind": "rule", "function": "test_process_reward:bad_scorer"})
    out = reward.evaluate(["q"] * 3, ["fine\nstill fine", "boom", "a big step"])
    assert out.scores[0] == 0.5
    assert math.isnan(out.scores[1]) and "scorer exploded" in out.reasons[1]
    assert math.isnan(out.scores[2]) and "outside [0, 1]" in out.reasons[2]
    assert out.details["step_scores"][1] == [None]


@pytest.mark.parametrize("params, message", [
    ({"summary": "max"}, "summary must be one of min, mean, last, product"),
    ({"segment": "words"}, "segment must be one of"),
    ({"max_steps": 0}, "max_steps"),
    ({"unscored": 1.5}, "unscored"),
    ({"scorer": {"kind": "oracle"}}, "scorer.kind must be one of rule, model, judge"),
    ({"scorer": {"kind": "rule", "check": "x"}}, "unknown key(s) ['check']"),
    ({"scorer": {"kind": "rule", "function": "os.path"}}, "scorer.function"),
    ({"scorer": {"kind": "model", "model": "Qwen/Qwen2.5-Math-PRM-7B"}}, "hub ids are not downloaded"),
    ({"scorer": {"kind": "model", "model": "x", "temperature": 1}}, "unknown key(s) ['temperature']"),
    ({"scorer": {"kind": "judge", "model": "m"}}, "base_url"),
    ({"scorer": {"kind": "judge", "base_url": "file:///etc", "model": "m"}}, "base_url"),
    ({"scorer": "rule"}, "scorer: Input should be a valid dictionary"),
])
def test_bad_parameters_are_one_clear_config_error(tmp_path, params, message):
    entry = {"name": "steps", "type": "process", **params}
    config = tmp_path / "config.yaml"
    config.write_text(json.dumps({"rewards": [entry]}))
    with pytest.raises(ConfigError) as caught:
        load_config(config).build_rewards(workers=0)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def _cli(*args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "polyreward", *map(str, args)], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)


def test_bad_parameter_is_exit_2_at_the_cli(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("rewards:\n  - {name: steps, type: process, summary: max}\n")
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"prompt": "q", "completion": "1 + 1 = 2"}) + "\n")
    result = _cli("score", rows, "--config", config, "-o", tmp_path / "out.jsonl")
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "summary must be one of min, mean, last, product" in errors[0]


def test_the_example_scores_with_papo_on_outcome_and_process(tmp_path):
    out = tmp_path / "scored.jsonl"
    result = _cli("score", EXAMPLE / "rollouts.jsonl", "--config", EXAMPLE / "config.yaml", "-o", out)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 12
    outcome = np.array([r["accuracy"] for r in rows], dtype=float)
    process = np.array([r["process"] for r in rows], dtype=float)
    # the example's design: right answers with clean steps, right answers with a wrong step or no work, wrong answers
    assert outcome.tolist() == [1, 1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1]
    assert process.tolist() == [1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0]
    expected = PAPOCombiner(lam=1.0, correct_threshold=1.0).combine(np.column_stack([outcome, process]),
                                                                     [r["prompt_id"] for r in rows], np.ones(2))
    np.testing.assert_allclose([r["advantage"] for r in rows], expected, rtol=1e-9, atol=1e-12)
    # among the correct answers, a wrong step costs advantage; a wrong answer earns no process credit
    assert rows[0]["advantage"] > rows[1]["advantage"] > rows[2]["advantage"] == rows[3]["advantage"]
    assert rows[1]["process.step_scores"] == [1.0, 0.0, None] and rows[1]["process.steps"] == 3
    assert "weakest: step 2" in rows[1]["process_reason"]
