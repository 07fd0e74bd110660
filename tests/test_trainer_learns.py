"""benchmarks/trainer_learns.py without a model: the held-out split, the accuracy reward and the paired statistics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmark_scripts import load_benchmark

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("trainer_learns", "trainer_learns_bench")


@settings(max_examples=25, deadline=None)
@given(task=st.sampled_from(["two_digit_add", "one_digit", "subtract", "larger"]), train=st.integers(1, 60),
       heldout=st.integers(1, 37))
def test_heldout_problems_are_never_trained_on(bench, task, train, heldout):
    """Disjoint by canonical key: no held-out problem, and no operand swap of one, appears in training."""
    assume(task != "one_digit" or train + heldout <= 90)  # 90 distinct one-digit problems (the next test: more is refused)
    training, evaluation = bench.make_split(task, train, heldout)
    assert len(training) == train and len(evaluation) == heldout
    keys = [tuple(r["key"]) for r in training + evaluation]
    assert len(set(keys)) == len(keys)
    assert not {tuple(r["key"]) for r in evaluation} & {tuple(r["key"]) for r in training}
    for row in training + evaluation:  # the key is canonical: a swapped-operand question has the same key
        if row["key"][0] in "+*>":
            assert row["key"][1] <= row["key"][2]
    for row in training + evaluation:
        assert row["prompt"].endswith(bench.SUFFIX) and row["answer"].lstrip("-").isdigit()


def test_one_digit_cannot_be_split_beyond_its_problems(bench):
    with pytest.raises(SystemExit, match="distinct problems"):
        bench.make_split("one_digit", 200, 100)  # 90 distinct problems exist (45 unordered pairs x 2 ops + squares)


@pytest.mark.parametrize(("reply", "answer", "score"), [
    ("68", "68", 1.0),
    ("23 + 45 = 68\n\nThis is because", "68", 1.0),  # chatter after the answer costs nothing
    ("23 + 45 = 67", "68", 0.0),
    ("The answer is 68.", "68", 1.0),
    ("23 + 45 equals 68.", "68", 1.0),  # a restatement of the operands is read past
    ("45 plus 23 is 68", "68", 1.0),  # in either order
    ("23 45", "68", 0.0),  # only the operands: commits to the first
    ("23 45 68 67", "68", 1.0),  # after a restatement, the next number only
    ("23 45 67 68", "68", 0.0),
    ("= 67 or 68", "68", 0.0),  # only the first number after '=' counts
    ("", "68", 0.0),
    ("no idea" * 1000, "68", 0.0),
    ("٦٨", "68", 0.0),  # Arabic-Indic digits are not read as 68 (Python's \d and int() would)
    ("= " + "6" * 5000, "68", 0.0),  # past int()'s digit limit: a wrong answer, not an error
])
def test_first_answer_accuracy(bench, reply, answer, score):
    reward = bench.FirstAnswerAccuracy()
    assert reward.score_rollout(reply, {"answer": answer, "key": ["+", 23, 45]}).score == score


@pytest.mark.parametrize(("reply", "score"), [("52", 1.0), ("52 is larger than 47", 1.0), ("Between 47 and 52, 52 is larger", 1.0),
                                              ("47", 0.0), ("47 or 52? 47", 0.0)])
def test_larger_task_where_the_answer_is_an_operand(bench, reply, score):
    assert bench.FirstAnswerAccuracy().score_rollout(reply, {"answer": "52", "key": [">", 47, 52]}).score == score


def test_subtraction_answer_equal_to_an_operand(bench):
    assert bench.FirstAnswerAccuracy().score_rollout("7", {"answer": "7", "key": ["-", 14, 7]}).score == 1.0
    assert bench.FirstAnswerAccuracy().score_rollout("14 - 7 = 7", {"answer": "7", "key": ["-", 14, 7]}).score == 1.0


def test_paired_statistics(bench):
    base = [0.0, 1.0, 0.0, 1.0]
    after = {0: [1.0, 1.0, 0.0, 1.0], 1: [1.0, 1.0, 1.0, 1.0], 2: [0.0, 1.0, 0.0, 1.0]}
    summary = bench.summarise(base, [{"seed": s, "after_correct": v} for s, v in after.items()])
    assert summary["deltas"] == pytest.approx([0.25, 0.5, 0.0])
    assert summary["delta_t"]["mean"] == pytest.approx(0.25)
    assert summary["delta_t"]["low"] < 0.25 < summary["delta_t"]["high"]
    boot = summary["delta_bootstrap"]
    assert boot["mean"] == pytest.approx(0.25) and boot["low"] <= 0.25 <= boot["high"]
    assert summary["seeds_improved"] == 2 and summary["seeds_worse"] == 0
    one = bench.summarise(base, [{"seed": 0, "after_correct": after[0]}])
    assert math.isnan(one["delta_t"]["low"]) and "one seed" in bench.verdict(one)


@pytest.mark.parametrize("cpu", [True, False])
def test_gpu_script_stages_call_existing_scripts_with_their_flags(cpu):
    """benchmarks/gpu_trainer.py: every stage's command names a benchmark script that exists and only flags that script
    declares (a renamed flag would otherwise surface on the GPU machine, in a paid call)."""
    gpu = load_benchmark("gpu_trainer", "gpu_trainer_bench")
    for stage in gpu.STAGES:
        command, limit, results = gpu.stage_commands(stage, cpu, 100)
        script = ROOT / command[1]
        assert script.exists() and limit > 0 and results
        source = script.read_text(encoding="utf-8")
        for flag in (part for part in command[2:] if part.startswith("--")):
            assert f'"{flag}"' in source, (stage, flag)
    assert "100" in gpu.stage_commands("medqa", False, 100)[0]  # the issue's >= 100 MedQA steps on the GPU
    with pytest.raises(ValueError, match="unknown stage"):
        gpu.stage_commands("warp", cpu, 1)
