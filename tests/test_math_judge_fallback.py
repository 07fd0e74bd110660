"""``math_accuracy`` with a judge: only the pairs the rule path leaves undecided reach the judge.

The judge is a real chat-completions server on 127.0.0.1 (:class:`judge_stubs.StubServer`) answering
scripted verdicts from the table below, keyed by the reference answer in the equivalence prompt. Its
script says "equivalent" for pairs the rules call ``not_equal`` too, so a routing mistake would
change a score. Each row names the rule verdict the pair gets today (the rule verifier's behaviour is
pinned by its own tests; here it is only the routing input).
"""

from __future__ import annotations

import json
import math
import re

import pytest

from judge_stubs import StubServer
from polyreward.engine import WorkerPool
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.rewards.math_judge import UNDECIDED_REASONS, JudgeFallback, undecided
from polyreward.verifiers.verdict import Verdict

_GOLD = re.compile(r"# Reference answer\n(.*?)\n\n# Student response \(its end\)\n", re.DOTALL)

# completion, gold, rule reason, scripted judge verdict, expected score with judge_on=undecided
ROWS = [
    # undecided by rule -> the judge decides
    ("So the count is \\boxed{9^{9^{9^{9}}}}.", "9^{9^{9^9}}", "gold_unparseable", True, 1.0),
    ("That is \\boxed{2^{100000}}.", "2^{100000}", "gold_unparseable", True, 1.0),
    ("The set is \\boxed{\\mathbb{Z}_{\\ge 0}}.", "\\{0,1,2,\\dots\\}", "gold_unparseable", True, 1.0),
    ("It diverges: \\boxed{10^{10^{10}}}", "\\infty", "too_large", False, 0.0),
    ("\\boxed{9^{9^{9^{9}}}}", "5", "too_large", False, 0.0),
    ("\\boxed{\\\\}", "x", "pred_unparseable", False, 0.0),
    # decided by rule -> never sent, whatever the judge would say
    ("The answer is \\boxed{42}.", "42", "equal", False, 1.0),
    ("The answer is \\boxed{41}.", "41.5", "not_equal", True, 0.0),
    ("\\boxed{\\text{the integers}}", "\\mathbb{Z}", "not_equal", True, 0.0),
    ("I don't know.", "17", "no_answer", True, 0.0),
]
SCRIPT = {gold: met for _, gold, _, met, _ in ROWS}


def scripted(body: dict) -> str:
    gold = _GOLD.search(body["messages"][0]["content"]).group(1)
    return "```json\n" + json.dumps({"explanation": f"scripted for {gold}", "criteria_met": SCRIPT[gold]}) + "\n```"


@pytest.fixture()
def server():
    stub = StubServer(answer=scripted).start()
    yield stub
    stub.close()


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(workers=1, timeout=10.0) as workers:
        yield workers


def asked_golds(server: StubServer, bodies_before: int = 0) -> list[str]:
    return [_GOLD.search(b["messages"][0]["content"]).group(1) for b in server.bodies[bodies_before:]]


def reward_for(server: StubServer, pool, **overrides) -> MathAccuracy:
    judge = {"type": "openai", "base_url": server.url, "model": "stub", "timeout": 5, "max_retries": 1, "cache": False}
    return MathAccuracy(**{"engine": pool, "judge": judge, "timeout": 10.0, **overrides})


def _record_bodies(server: StubServer) -> None:
    server.bodies = []
    answer = server.answer

    def recording(body: dict) -> str:
        server.bodies.append(body)
        return answer(body)

    server.answer = recording


def test_only_undecided_pairs_reach_the_judge(server, pool):
    _record_bodies(server)
    reward = reward_for(server, pool)
    prompts = [[{"role": "user", "content": f"Problem {i}"}] for i in range(len(ROWS))]
    out = reward.evaluate(prompts, [r[0] for r in ROWS], answer=[r[1] for r in ROWS])
    rule_reasons = [re.match(r"\w+", r.split("rule: ", 1)[1]).group(0) for r in out.reasons]
    assert rule_reasons == [r[2] for r in ROWS]  # the table's premise: today's rule verdicts
    assert out.scores == [r[4] for r in ROWS]
    assert sorted(asked_golds(server)) == sorted(g for _, g, reason, _, _ in ROWS if reason in UNDECIDED_REASONS)
    for (_, _, reason, _, _), text, flag in zip(ROWS, out.reasons, out.details["judge_decided"]):
        sent = reason in UNDECIDED_REASONS
        assert text.startswith("judge: " if sent else "rule: ") and flag == (1.0 if sent else 0.0)
    # the problem travels with its pair (requests run concurrently, so match them by content, not arrival order)
    asked = sorted(int(re.search(r"Problem (\d+)", b["messages"][0]["content"]).group(1)) for b in server.bodies)
    assert asked == [i for i, row in enumerate(ROWS) if row[2] in UNDECIDED_REASONS]
    summary = reward.summary()
    assert summary["rows"] == 10 and summary["judge_decided"] == 6 and summary["rule_decided"] == 4
    assert summary["judge_decided_share"] == pytest.approx(0.6)
    assert summary["judge"]["endpoints"][f"{server.url}/chat/completions"]["ok"] == 6


def test_judge_on_all_sends_every_pair_with_a_gold_answer(server, pool):
    _record_bodies(server)
    reward = reward_for(server, pool, judge_on="all")
    completions = [r[0] for r in ROWS] + ["\\boxed{3}"]
    out = reward.evaluate([""] * 11, completions, answer=[r[1] for r in ROWS] + [None])
    assert out.scores[:10] == [float(r[3]) for r in ROWS]  # the judge's verdict everywhere, even over "equal"
    assert out.scores[10] is None and out.details["judge_decided"][10] is None  # no gold: never sent
    assert len(server.bodies) == 10 and reward.summary()["judge_decided_share"] == 1.0


def test_a_timeout_in_the_worker_pool_is_undecided_and_goes_to_the_judge(server):
    _record_bodies(server)
    with WorkerPool(workers=1, timeout=0.001) as hasty:  # every comparison that needs sympy is killed
        reward = reward_for(server, hasty, timeout=0.001)
        SCRIPT["\\sin(2x)"] = True
        try:
            out = reward.evaluate(["Simplify"], ["So: \\boxed{2\\sin(x)\\cos(x)}"], answer=["\\sin(2x)"])
        finally:
            del SCRIPT["\\sin(2x)"]
    assert out.scores == [1.0] and "rule: timeout" in out.reasons[0] and asked_golds(server) == ["\\sin(2x)"]


# a word gold is compared by the rules as text only: the same words are equal without the judge, anything else
# (another notation, a synonym) goes to the judge, which decides it
WORD_ROWS = [
    # a fraction in words is a number (math_normalize.value_from_words, #32): the rule decides, no judge
    ("So the answer is \\boxed{\\frac{1}{2}}.", "one half", True, 1.0, False),
    ("The answer is one half.", "one half", False, 1.0, False),
    ("The capital is \\boxed{\\text{Paris}}.", "Paris", False, 1.0, False),
    ("The answer is \\boxed{\\text{London}}.", "Paris", False, 0.0, True),
    ("The answer is \\boxed{\\text{the French capital}}.", "Paris", True, 1.0, True),
]


def test_word_golds_go_to_the_judge_unless_the_words_are_the_same(server, pool):
    verdicts = {completion: met for completion, _, met, _, _ in WORD_ROWS}  # the judge's script, keyed by the response

    def scripted_by_response(body: dict) -> str:
        prompt = body["messages"][0]["content"]
        met = next(met for completion, met in verdicts.items() if completion in prompt)
        return "```json\n" + json.dumps({"explanation": "scripted", "criteria_met": met}) + "\n```"

    server.answer = scripted_by_response
    _record_bodies(server)
    out = reward_for(server, pool).evaluate([""] * len(WORD_ROWS), [r[0] for r in WORD_ROWS], answer=[r[1] for r in WORD_ROWS])
    assert out.scores == [r[3] for r in WORD_ROWS]
    assert [flag == 1.0 for flag in out.details["judge_decided"]] == [r[4] for r in WORD_ROWS]
    assert len(server.bodies) == sum(r[4] for r in WORD_ROWS)


def test_judge_down_gives_nan_with_the_reason_and_counts_as_failed(pool):
    judge = {"type": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "stub", "timeout": 1, "max_retries": 0, "cache": False}
    reward = MathAccuracy(engine=pool, judge=judge, timeout=10.0)
    out = reward.evaluate(["", ""], ["\\boxed{\\\\}", "\\boxed{7}"], answer=["x", "7"])
    assert math.isnan(out.scores[0]) and out.reasons[0].startswith("judge failed: connection error")
    assert out.scores[1] == 1.0 and out.reasons[1].startswith("rule: equal")
    assert math.isnan(out.details["judge_decided"][0]) and out.details["judge_decided"][1] == 0.0
    summary = reward.summary()
    assert summary["judge_failed"] == 1 and summary["judge_decided"] == 0 and summary["judge_decided_share"] == 0.0


def test_through_the_config_and_the_cli(server, tmp_path, capsys):
    from polyreward.cli import main

    rows = [{"prompt": "p", "completion": c, "answer": g} for c, g, *_ in ROWS]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "cfg.yaml").write_text(
        f"rewards:\n  - {{name: acc, type: math_accuracy, judge: {{type: openai, base_url: ['{server.url}'], model: stub}}}}\n")
    assert main(["score", str(tmp_path / "in.jsonl"), "-c", str(tmp_path / "cfg.yaml"), "-o", str(tmp_path / "out.jsonl"), "-q"]) == 0
    out = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["acc"] for r in out] == [r[4] for r in ROWS]
    assert [r["acc.judge_decided"] for r in out] == [1.0 if r[2] in UNDECIDED_REASONS else 0.0 for r in ROWS]
    # the run summary carries the reward's own counts: the judge-decided share and the judge's per-endpoint counts
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("acc: {"))
    counts = json.loads(line[len("acc: "):])
    decided = sum(r[2] in UNDECIDED_REASONS for r in ROWS)
    assert counts["judge_decided"] == decided and counts["judge_decided_share"] == decided / counts["rows"]
    assert server.url in json.dumps(counts["judge"])


@pytest.mark.parametrize(
    "verdict, expected",
    [(Verdict(None, "gold_unparseable"), True), (Verdict(0.0, "pred_unparseable"), True), (Verdict(0.0, "too_large"), True),
     (Verdict(0.0, "timeout"), True), (Verdict(math.nan, "memory"), True), (Verdict(math.nan, "error: worker died"), True),
     (Verdict(1.0, "equal"), False), (Verdict(0.0, "not_equal"), False), (Verdict(0.0, "no_answer"), False),
     (Verdict(None, "no_reference"), False)],
)
def test_undecided_reasons(verdict, expected):
    assert undecided(verdict) is expected


@pytest.mark.parametrize(
    "spec, message",
    [({"type": "rules"}, "grades rubric items only"), ({"type": "openai", "base_url": "x", "model": "m"}, "base_url"),
     ({"type": "nope"}, "is not a judge type")],
)
def test_bad_judge_settings_are_refused_up_front(spec, message):
    with pytest.raises(ValueError, match=message):
        JudgeFallback(spec)
    with pytest.raises(ValueError, match="judge_on"):
        JudgeFallback({"type": "openai", "base_url": "http://127.0.0.1:1/v1", "model": "m"}, judge_on="sometimes")


def test_a_local_transformers_judge_settles_undecided_pairs(tiny_qwen2_dir, pool):
    """``type: transformers`` in ``yes_no`` mode: one forward pass per undecided pair, always a verdict."""
    judge = {"type": "transformers", "model": str(tiny_qwen2_dir), "mode": "yes_no"}
    reward = MathAccuracy(engine=pool, judge=judge, timeout=10.0)
    out = reward.evaluate(["", ""], ["\\boxed{\\\\}", "\\boxed{7}"], answer=["x", "7"])
    assert out.scores[0] in (0.0, 1.0) and out.reasons[0].startswith("judge: ") and "P(yes)=" in out.reasons[0]
    assert out.scores[1] == 1.0 and reward.summary()["judge_decided"] == 1
