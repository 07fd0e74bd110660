"""``polyreward probe``'s named strategies and its check of the file's own completions: no exploit of the shipped
examples' rewards with their (guarded) configs, the documented exploits of the exact-source rules when those are
configured, exit codes, JSON shape and strategy plumbing. (``--budget 0`` leaves the mutation search out: what it finds
on the shipped examples is recorded in docs/probe.md and tested with toy rewards in test_probe_search.py.)"""

from __future__ import annotations

import json

import pytest

from polyreward import registry
from polyreward.cli import main
from polyreward.probe import STRATEGIES, run_probe
from polyreward.probe.strategies import GENUINE

# "math" and "medqa" depend on the math and choice verifiers' committed-answer semantics (hedges, negations,
# retractions, candidate lists, the prompt's own expression)
GUARDED_EXAMPLES = ["forecast", "tools", "kg", "jaccard", "rubric", "math", "medqa", "process"]


def probe_json(capsys, *args: str) -> tuple[int, dict]:
    """The probe's JSON report with the mutation search off (``--budget 0``; a later ``--budget`` in ``args`` wins)."""
    rc = main(["probe", "--budget", "0", *args, "--json"])
    out = capsys.readouterr().out
    return rc, json.loads(out) if out.strip() else {}


def exploited(report: dict) -> set[tuple[str, str]]:
    return {(r["reward"], r["strategy"]) for r in report["results"] if r["exploited"]}


@pytest.mark.parametrize("example", GUARDED_EXAMPLES)
def test_shipped_examples_have_no_exploit(capsys, example):
    rc, report = probe_json(capsys, f"examples/{example}/config.yaml", f"examples/{example}/rollouts.jsonl")
    assert exploited(report) == set()
    assert all(entry["flagged"] == 0 for entry in report["suspicious"]), "no completion of the file is a suspicious high score"
    assert rc == 0 and report["rows_probed"] > 0
    assert all(r["rows"] > 0 for r in report["results"] if r["reward"] != "weighted total"), "every strategy was compared on some row"


@pytest.mark.parametrize("example", ["math", "medqa"])
def test_cheap_components_of_the_answer_examples_hold(capsys, example):
    """The format and length rewards of the math / MedQA examples (guards on) are not exploited. (Whether the
    accuracy rewards are depends on the math / choice verifiers' committed-answer semantics.)"""
    _, report = probe_json(capsys, f"examples/{example}/config.yaml", f"examples/{example}/rollouts.jsonl", "--limit", "12")
    assert {pair for pair in exploited(report) if pair[0] in ("format", "overlong")} == set()


@pytest.mark.parametrize(
    "example, overrides, expected",
    [
        ("tools", ["rewards.1.read_blocks=first"], ("correctness", "second_call_block")),  # ToolRL: first block only
        ("tools", ["rewards.0.min_content_words=0"], ("format", "empty_tool_block")),
        ("kg", ["rewards.0.min_content_words=0", "rewards.0.drop_prompt_lines=false", "rewards.0.empty_reference=score"],
         ("kg", "empty_completion")),  # CheXPO
        ("rubric", ["rewards.0.rule_guards=false"], ("healthbench", "keyword_stuffing")),
        ("rubric", ["rewards.0.rule_guards=false"], ("healthbench", "negated_keywords")),
    ],
)
def test_source_rules_show_their_documented_exploits(capsys, example, overrides, expected):
    sets = [arg for o in overrides for arg in ("--set", o)]
    rc, report = probe_json(capsys, f"examples/{example}/config.yaml", f"examples/{example}/rollouts.jsonl", *sets)
    assert rc == 1
    assert expected in exploited(report)
    result = next(r for r in report["results"] if (r["reward"], r["strategy"]) == expected)
    assert 0 < result["share"] <= 1 and result["examples"] and result["examples"][0]["hack_score"] >= result["examples"][0]["genuine_score"]


def test_weighted_trl_example_has_no_exploit(capsys):
    """examples/trl/polyreward.yaml: with the think guard on and the length penalty weighing less than the format
    bonus, neither an empty think block nor dropping the reasoning to save length beats a careful answer."""
    rc, report = probe_json(capsys, "examples/trl/polyreward.yaml", "examples/math/rollouts.jsonl", "--limit", "24")
    assert exploited(report) == set() and rc == 0


def test_unguarded_format_reward_is_exploited_in_the_weighted_total(capsys):
    rc, report = probe_json(capsys, "examples/trl/polyreward.yaml", "examples/math/rollouts.jsonl", "--limit", "6",
                            "--set", "rewards.1.min_content_words=0")
    assert rc == 1
    assert {("format", "empty_think"), ("format", "junk_think")} <= exploited(report)


def test_clinical_r1_released_rules_show_their_exploits(capsys):
    """The CRPO recipe ships with the guards on: no exploit. Clinical-R1's released rules (each guard set back to the
    source): empty think and junk text pay, and 'not \\boxed{C}' pays 1.0; the reconstructed objectives do not pay
    for a list of every option either way."""
    rc, report = probe_json(capsys, "examples/train/medqa_crpo.yaml", "examples/train/medqa_crpo_train.jsonl", "--limit", "8")
    assert rc == 0 and not exploited(report)
    released = ["--set", "rewards.0.committed_answer=false", "--set", "rewards.1.min_content_words=0",
                "--set", "rewards.2.min_content_words=0", "--set", "rewards.2.measure=characters"]
    rc, report = probe_json(capsys, "examples/train/medqa_crpo.yaml", "examples/train/medqa_crpo_train.jsonl", "--limit", "8", *released)
    found = exploited(report)
    assert rc == 1 and {("format", "empty_think"), ("format", "junk_think"), ("english", "junk_text")} <= found
    assert ("accuracy", "negation") in found  # crpo_accuracy reads the only box: 'not \\boxed{C}' pays 1.0
    assert not {p for p in found if p[0] in ("faithfulness", "comprehensiveness")}


def test_table_output_names_the_exploit(capsys):
    rc = main(["probe", "examples/tools/config.yaml", "examples/tools/rollouts.jsonl", "--set", "rewards.1.read_blocks=first"])
    out = capsys.readouterr().out
    assert rc == 1 and "second_call_block" in out and "rm_rf" in out and "exploit(s) found" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["examples/tools/config.yaml", "no/such/file.jsonl"], "no/such/file.jsonl"),
        (["no/such/config.yaml", "examples/tools/rollouts.jsonl"], "no/such/config.yaml"),
        (["examples/tools/config.yaml", "examples/tools/rollouts.jsonl", "--limit", "0"], "--limit"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    assert main(["probe", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and message in err[0]


def test_missing_reference_column_is_exit_2(capsys, tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"prompt": "q", "completion": "a", "prompt_id": 1}) + "\n")
    assert main(["probe", "examples/tools/config.yaml", str(rows)]) == 2
    assert "answer" in capsys.readouterr().err


def test_every_registered_strategy_and_genuine_builder_exists():
    names = registry.reward_types()
    assert "think_format" in names
    for name in names:
        cls = registry.reward_class(name)
        assert set(getattr(cls, "probe_strategies", ())) <= set(STRATEGIES), name
        assert getattr(cls, "probe_genuine", None) in (None, *GENUINE), name


def test_group_level_reward_compares_each_pair_alone():
    """OTC's GRPO form takes the group's fewest calls: each (genuine, hack) pair is a group of its own, so a hack
    that hides its calls (a bare JSON list, counted the same since the fix) only ties the genuine answer."""
    from polyreward.config import load_config

    config = load_config("examples/tools/config.yaml")
    records = [json.loads(line) for line in open("examples/tools/rollouts.jsonl", encoding="utf-8")]
    report = run_probe(config, records, limit=5, budget=0)
    bare = next(r for r in report.results if (r.reward, r.strategy) == ("efficiency", "bare_call_list"))
    assert bare.rows == 5 and bare.exploited == 0
