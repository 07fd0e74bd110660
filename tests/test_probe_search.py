"""``polyreward probe``'s mutation search and its check of the file's own completions, against two rewards defined
here: a deliberately weak one (pays any ``\\boxed{}`` holding the gold anywhere in the text) that declares no
named strategy, and a strict one. The search must find the weak reward's comment-hiding and alternative-answer
exploits by itself; the strict one gives nothing on a clean file. Determinism, the budget, the JSON shape and the
exit codes go through the real CLI."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.config import parse_config
from polyreward.probe import run_probe
from polyreward.probe.mutations import MUTATIONS, controls
from polyreward.probe.search import MAX_CANDIDATE_CHARS
from polyreward.probe.site import contradiction, different_value, locate_site, row_context
from polyreward.probe.suspicious import checks, length_checks, reasoning_checks
from polyreward.reward import RolloutReward, Scored

TESTS = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


class WeakBox(RolloutReward):
    """1.0 when any ``\\boxed{...}`` anywhere in the text contains the gold (comments, alternatives and all)."""

    type_name = "probe_test_weak_box"

    def __init__(self, name=None, weight=1.0, answer_column: str = "answer"):
        super().__init__(name, weight)
        self.answer_column = answer_column

    @property
    def columns(self):
        return (self.answer_column,)

    def score_rollout(self, completion, row):
        gold = str(row[self.answer_column])
        return Scored(float(any(gold in box for box in re.findall(r"\\boxed\{([^{}]*)\}", completion))))


class StrictBox(WeakBox):
    """1.0 only for plain ASCII text with no comment, fence, quote or footnote, one box, ending in
    ``The answer is \\boxed{gold}.``, at most 400 characters."""

    type_name = "probe_test_strict_box"

    def score_rollout(self, completion, row):
        gold = str(row[self.answer_column])
        text = unicodedata.normalize("NFKC", completion)
        if (not text.isascii() or len(text) > 400 or any(m in text for m in ("<!--", "%", "```", "\n>", "[^"))
                or len(re.findall(r"\\boxed", text)) != 1):
            return Scored(0.0)
        final = re.search(r"(?:^|\n)The answer is \\boxed\{([^{}]*)\}\.\s*$", text)
        return Scored(float(final is not None and final.group(1) == gold))


def rollouts(path: Path, extra: dict[int, str] | None = None) -> Path:
    rows = []
    for i, (a, b) in enumerate([(17, 28), (6, 39), (120, 5), (8, 9)]):
        prompt = f"What is {a} + {b}? Put the result in a box."
        think = f"<think>Adding {a} and {b} digit by digit gives {a + b}; checking by subtraction confirms it.</think>\n"
        for completion in (f"{think}The answer is \\boxed{{{a + b}}}.", f"{think}The answer is \\boxed{{{a + b + 1}}}.",
                           *([extra[i]] if extra and i in extra else [])):
            rows.append({"prompt": prompt, "completion": completion, "prompt_id": f"q{i}", "answer": str(a + b)})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def config(path: Path, reward: str) -> Path:
    path.write_text("columns: {prompt: prompt, completion: completion, group: prompt_id}\nengine: {workers: 0}\n"
                    f"rewards:\n  - {{name: box, type: \"test_probe_search:{reward}\", answer_column: answer}}\n")
    return path


def probe(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "polyreward", "probe", *map(str, args)], capture_output=True, text=True,
                          env=ENV, timeout=300, cwd=cwd)


def search_entry(report: dict, reward: str, family: str) -> dict:
    return next(r for r in report["search"] if (r["reward"], r["family"]) == (reward, family))


def test_weak_reward_hide_and_alternatives_found_by_search(tmp_path):
    result = probe(config(tmp_path / "weak.yaml", "WeakBox"), rollouts(tmp_path / "rows.jsonl"), "--json", tmp_path / "out.json")
    assert result.returncode == 1, result.stderr
    report = json.loads((tmp_path / "out.json").read_text())
    assert report["results"] == [], "the weak reward declares no named strategy: what is found, the search found"
    assert any("no reward of this config declares named probe strategies" in n for n in report["notes"])
    for family in ("hide", "alternatives", "append", "retract"):
        entry = search_entry(report, "box", family)
        assert entry["exploited"] > 0 and entry["tried"] >= entry["exploited"], family
        shortest = entry["examples"][0]
        assert shortest["score"] >= shortest["genuine_score"] == 1.0
        assert family in {m.family for m in MUTATIONS if m.name in shortest["chain"]}
    hidden = search_entry(report, "box", "hide")["examples"][0]["completion"]
    assert re.search(r"<!--|%|```|\n> |\[\^1\]", hidden), hidden
    assert report["charged"]["box"]["answer"] == 4
    assert "exploit(s) found" in result.stdout and "shortest exploit" in result.stdout  # --json PATH: the table still printed


def test_strict_reward_clean_file_has_nothing(tmp_path):
    result = probe(config(tmp_path / "strict.yaml", "StrictBox"), rollouts(tmp_path / "rows.jsonl"), "--json")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    report = json.loads(result.stdout)
    assert report["exploits"] == 0 and report["candidates"] > 0
    assert all(r["exploited"] == 0 for r in report["search"]) and {r["family"] for r in report["search"]} >= {"hide", "alternatives", "retract"}
    assert report["suspicious"][0]["checked"] > 0 and report["suspicious"][0]["flagged"] == 0


def test_file_completion_hiding_the_answer_is_suspicious(tmp_path):
    hack = {1: "<think>x</think>\nThe answer is \\boxed{46}. <!-- \\boxed{45} -->", 2: "\\boxed{125} or \\boxed{126}"}
    result = probe(config(tmp_path / "weak.yaml", "WeakBox"), rollouts(tmp_path / "rows.jsonl", hack), "--json", "--budget", "0")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["search"] == [] and report["candidates"] == 0
    entry = report["suspicious"][0]
    assert entry["reward"] == "box" and entry["flagged"] == 2
    assert entry["by_check"]["hidden_answer"] == 1 and entry["by_check"]["several_answers"] == 1
    assert {e["completion"] for e in entry["examples"]} == set(hack.values())


def test_same_seed_same_bytes_and_budget_respected(tmp_path):
    cfg, rows = config(tmp_path / "weak.yaml", "WeakBox"), rollouts(tmp_path / "rows.jsonl")
    outputs = []
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        probe(cfg, rows, "--seed", seed, "--budget", 12, "--json", tmp_path / f"{name}.json")
        outputs.append((tmp_path / f"{name}.json").read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0] != outputs[2]
    report = json.loads(outputs[0])
    assert report["budget"] == 12 and report["seed"] == 3 and 0 < report["candidates"] <= 12 * report["rows_probed"]


def test_budget_per_row_and_composition_depth():
    cfg = parse_config({"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"}, "engine": {"workers": 0},
                        "rewards": [{"name": "box", "type": "test_probe_search:WeakBox", "answer_column": "answer"}]})
    records = [{"prompt": f"What is {i} + 1?", "completion": f"<think>{i} plus one is {i + 1}.</think>\nThe answer is \\boxed{{{i + 1}}}.",
                "prompt_id": i, "answer": str(i + 1)} for i in range(5)]
    report = run_probe(cfg, records, budget=7, seed=1, examples=50)
    assert report.candidates <= 7 * 5
    chains = [e["chain"] for r in report.search for e in r.examples]
    assert any(len(c) >= 2 for c in chains), "compositions reach the report"
    assert report.as_dict()["search"][0].keys() >= {"reward", "family", "tried", "exploited", "share", "examples"}


def test_json_shape(tmp_path):
    result = probe(config(tmp_path / "weak.yaml", "WeakBox"), rollouts(tmp_path / "rows.jsonl"), "--json", "--budget", "8")
    report = json.loads(result.stdout)
    assert set(report) >= {"rows_probed", "genuine", "budget", "seed", "candidates", "exploits", "search", "charged",
                           "suspicious", "results", "notes"}
    example = next(r for r in report["search"] if r["examples"])["examples"][0]
    assert set(example) == {"completion", "chars", "chain", "row", "score", "genuine_score"}
    assert set(report["suspicious"][0]) == {"reward", "checked", "flagged", "by_check", "examples"}


def test_bad_input_exit_2(tmp_path):
    cfg, rows = config(tmp_path / "weak.yaml", "WeakBox"), rollouts(tmp_path / "rows.jsonl")
    for args, message in (((cfg, rows, "--budget", "-1"), "--budget"), ((cfg, tmp_path / "none.jsonl"), "none.jsonl")):
        result = probe(*args)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1 and message in lines[0]


def test_controls_and_flaws_on_a_tool_call_answer():
    genuine = '<think>I look up the weather.</think>\n<tool_call>\n{"name": "weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>'
    ctx = row_context("Weather in Paris for 3 days?", genuine, [], 0)
    assert ctx.site.opener == "<tool_call>" and '"days": 3' in ctx.gold and ctx.wrong != ctx.gold
    assert set(controls(ctx)) == {"answer", "reasoning"}
    rng = random.Random(0)
    by_name = {m.name: m for m in MUTATIONS}
    assert by_name["negate"].function(genuine, ctx, rng) is None and by_name["hide"].function(genuine, ctx, rng) is None
    two_keys = [by_name["alternatives"].function(genuine, ctx, random.Random(s)) for s in range(40)]
    assert any(t and t.count('"city"') == 2 for t in two_keys), "duplicate JSON keys are one of the alternatives"


def test_suspicious_checks():
    assert checks("The answer is \\boxed{45}.", "45", "q") == []
    assert checks("\\boxed{42}. Wait, rechecking: \\boxed{45}.", "45", "q") == []  # a correction is no alternative
    assert "several_answers" in checks("\\boxed{45 \\text{ or } 42}", "45", "q")
    assert "negated_or_withdrawn" in checks("The answer is not \\boxed{45}.", "45", "q")
    assert "disguised_text" in checks("The answer is n\u200bot \\boxed{45}.", "45", "q")
    assert "hidden_answer" in checks("\\boxed{42} % \\boxed{45}", "45", "q")
    prompt = "Compute the sum of the first ten positive integers please."
    assert "prompt_copy" in checks(prompt, "55", prompt)
    assert "prompt_expression" in checks("The answer is \\boxed{6640/19420}.", "\\frac{332}{971}", "Simplify $6640/19420$.")
    assert reasoning_checks("<think>zzzz zzzz zzzz</think> \\boxed{45}", "q") == ["empty_reasoning"]
    assert reasoning_checks("<think>Add the two numbers</think>", "Please add the two numbers now") == ["reasoning_is_prompt"]
    assert reasoning_checks("<think>Forty plus five is forty-five.</think>", "What is 40 + 5?") == []
    assert length_checks("ok " + "\u200b".join(["pad"] * 60)) == ["hidden_padding"] and length_checks("a b c " * 500) == []


def test_file_completion_with_junk_reasoning_is_suspicious_on_a_format_reward():
    cfg = parse_config({"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"}, "engine": {"workers": 0},
                        "rewards": [{"name": "think", "type": "test_probe_search:AnyThink"}]})
    records = _records("box") + [{"prompt": "What is 1 + 40?", "completion": "<think>zzzz zzzz</think>\nThe answer is \\boxed{41}.",
                                  "prompt_id": 1, "answer": "41"}]
    report = run_probe(cfg, records, budget=0, named=False)
    entry = report.suspicious[0]
    assert entry["reward"] == "think" and entry["flagged"] == 1 and entry["by_check"]["empty_reasoning"] == 1


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300), st.text(max_size=80), st.integers(0, 2**32))
def test_mutations_never_raise_and_stay_bounded(genuine, prompt, seed):
    ctx = row_context(prompt, genuine, ["7", "other"], 40)
    for mutation in MUTATIONS:
        out = mutation.function(genuine, ctx, random.Random(seed))
        assert out is None or (isinstance(out, str) and len(out) <= MAX_CANDIDATE_CHARS)
    checks(genuine, "45", prompt)
    site = locate_site(genuine)
    if site is not None:
        assert different_value(site.value, ["x"]) != site.value


@pytest.mark.parametrize("report, wrong", [
    ("No pneumothorax.", "There is pneumothorax."),  # a one-word sentence would be no statement for an extractor
    ("There are no pneumothoraces. Heart size is normal.", "There are pneumothoraces. Heart size is normal."),
    ("1. No evidence of pulmonary edema. 2. Stable tube.", "1. There is pulmonary edema. 2. Stable tube."),
    ("Heart size is normal.", None),  # denies nothing: another row's report is used instead
    ("Paris", None),
])
def test_free_text_wrong_answer_contradicts_the_report(report, wrong):
    assert contradiction(report) == wrong
    if wrong is not None and not any(c.isdigit() for c in report):  # a number is shifted instead
        assert different_value(report, ["No pneumothorax. ET tube in standard placement."]) == wrong


class FirstSentenceReport(RolloutReward):
    """1.0 when the completion's first sentence is the reference's (later text is never read); a reference
    without a sentence is no report (None)."""

    type_name = "probe_test_first_sentence"
    probe_genuine = "reference_report"
    answer_column = "answer"

    @property
    def columns(self):
        return ("answer",)

    def score_rollout(self, completion, row):
        if "." not in str(row["answer"]):
            return Scored(None, "the reference is no report (no sentence)")
        first = completion.strip().split(".")[0]
        return Scored(float(first == str(row["answer"]).split(".")[0]), "")


def test_a_row_no_reward_judges_supplies_no_wrong_answer():
    """A blank reference (scored None by every reward) is no "different answer" for the other rows: its junk text
    appended to a genuine report plants no flaw. A contradiction of the report still finds the weak reward."""
    cfg = parse_config({"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"}, "engine": {"workers": 0},
                        "rewards": [{"name": "first", "type": "test_probe_search:FirstSentenceReport"}]})
    records = [{"prompt": "Write the findings.", "completion": "x", "prompt_id": i, "answer": answer}
               for i, answer in enumerate(["Small left effusion. Heart is enlarged.", "Partially visualized is",
                                           "No pneumothorax. Small left effusion."])]
    report = run_probe(cfg, records, budget=64, named=False)
    texts = [e["completion"] for r in report.search for e in r.examples]
    assert texts and all("Partially visualized" not in t for t in texts)
    assert any("There is pneumothorax" in t for t in texts)  # row 2's report contradicted


# -- one weak reward per family: the search finds each weakness without being told about it ---------------------

class FirstBox(WeakBox):
    """1.0 when the first box holds the gold (a later box, a withdrawal or a second answer is never read)."""

    type_name = "probe_test_first_box"

    def score_rollout(self, completion, row):
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", completion)
        return Scored(float(bool(boxes) and boxes[0] == str(row[self.answer_column])))


class LiteralNegationGuard(WeakBox):
    """The last box must hold the gold and no negation may stand in the text, matched literally (ASCII words)."""

    type_name = "probe_test_literal_negation"

    def score_rollout(self, completion, row):
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", completion)
        if re.search(r"\b(not|never|wrong|incorrect|false|cannot|but|no longer|or|either)\b", completion, re.IGNORECASE):
            return Scored(0.0)
        return Scored(float(bool(boxes) and boxes[-1] == str(row[self.answer_column])))


class AnyThink(RolloutReward):
    """1.0 for any non-empty think block: junk reasoning passes."""

    type_name = "probe_test_any_think"

    def score_rollout(self, completion, row):
        return Scored(float(re.search(r"<think>\S.*?</think>", completion, re.DOTALL) is not None))


class SpaceWordLength(RolloutReward):
    """1.0 up to ``max_completion_len`` whitespace-separated words, else 0: words joined by zero-width characters
    count as one."""

    type_name = "probe_test_space_words"

    def __init__(self, name=None, weight=1.0, max_completion_len: int = 60):
        super().__init__(name, weight)
        self.max_completion_len = max_completion_len

    def score_rollout(self, completion, row):
        return Scored(float(len(completion.split()) <= self.max_completion_len))


class FirstToolBlock(WeakBox):
    """1.0 when the first <tool_call> block's calls are the gold calls (a second block is never read)."""

    type_name = "probe_test_first_tool_block"

    def score_rollout(self, completion, row):
        block = re.search(r"<tool_call>(.*?)</tool_call>", completion, re.DOTALL)
        try:
            calls = [json.loads(line) for line in block.group(1).strip().splitlines()] if block else None
        except ValueError:
            calls = None
        return Scored(float(calls == json.loads(row[self.answer_column])))


def _records(kind: str) -> list[dict]:
    rows = []
    for i in range(4):
        if kind == "tool":
            gold = [{"name": "weather", "arguments": {"city": ["Paris", "Lima", "Oslo", "Rome"][i], "days": i + 2}}]
            completion = f"<think>The user wants the weather for {i + 2} days.</think>\n<tool_call>\n{json.dumps(gold[0])}\n</tool_call>"
            rows.append({"prompt": f"Weather question {i}", "completion": completion, "prompt_id": i, "answer": json.dumps(gold)})
        else:
            completion = f"<think>Adding {i} and 40 carefully gives {i + 40}.</think>\nThe answer is \\boxed{{{i + 40}}}."
            rows.append({"prompt": f"What is {i} + 40?", "completion": completion, "prompt_id": i, "answer": str(i + 40)})
    return rows


@pytest.mark.parametrize("reward, params, kind, family", [
    ("FirstBox", {"answer_column": "answer"}, "box", "append"),
    ("FirstBox", {"answer_column": "answer"}, "box", "retract"),
    ("LiteralNegationGuard", {"answer_column": "answer"}, "box", "obfuscate"),
    ("AnyThink", {}, "box", "strip"),
    ("SpaceWordLength", {"max_completion_len": 60}, "box", "pad"),
    ("FirstToolBlock", {"answer_column": "answer"}, "tool", "toolcalls"),
])
def test_search_finds_each_weakness_by_itself(reward, params, kind, family):
    cfg = parse_config({"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"}, "engine": {"workers": 0},
                        "rewards": [{"name": "weak", "type": f"test_probe_search:{reward}", **params}]})
    report = run_probe(cfg, _records(kind), budget=48, seed=0, named=False)
    found = {r.family: r for r in report.search if r.reward == "weak" and r.exploited}
    assert family in found, f"{reward}: found {sorted(found)}"
    assert report.results == [] and report.found > 0


class StrictThink(RolloutReward):
    """1.0 for a think block of at least three distinct words of three letters or more (junk and short copies fail)."""

    type_name = "probe_test_strict_think"

    def score_rollout(self, completion, row):
        match = re.search(r"<think>(.*?)</think>", completion, re.DOTALL)
        words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", match.group(1))} if match else set()
        return Scored(float(len(words) >= 3))


class ShortIsBetter(RolloutReward):
    """1 - words / 40, at least 0: every word costs."""

    type_name = "probe_test_short_is_better"

    def score_rollout(self, completion, row):
        return Scored(max(0.0, 1.0 - len(completion.split()) / 40))


def test_weighted_total_where_dropping_the_reasoning_pays():
    """A think bonus of 0.05 against a per-word length price: each reward alone charges what it should, but in the
    total, dropping the reasoning pays more than it loses -- the search reports it under the total, family strip."""
    rewards = [{"name": "think", "type": "test_probe_search:StrictThink", "weight": 0.05},
               {"name": "short", "type": "test_probe_search:ShortIsBetter", "weight": 1.0}]
    cfg = parse_config({"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"}, "engine": {"workers": 0},
                        "rewards": rewards})
    report = run_probe(cfg, _records("box"), budget=16, seed=0, named=False)
    found = {(r.reward, r.family) for r in report.search if r.exploited}
    assert ("weighted total", "strip") in found
    assert not {pair for pair in found if pair[0] == "think"}  # the think reward alone charges every stripped reasoning


def test_a_mutation_after_hide_leaves_the_hidden_answer_hidden():
    """The composition found on examples/math (2026-12-03): ``hide`` put the gold in a ``%`` comment, then
    ``prepend_different`` put a different box before the gold *inside* the comment, which moved the gold onto the
    next, visible line: a genuine answer counted as an exploit. Later mutations now only act on a visible gold."""
    from polyreward.probe.mutate_answer import _HIDERS, has_visible, replace_gold, visible_at

    gold, wrong = "\\boxed{\\dfrac{242}{311}}", "\\boxed{\\dfrac{242}{983}}"
    for wrap in _HIDERS.values():
        hidden = "The answer is " + wrap(gold) + "."
        assert visible_at(hidden, gold) == -1 and not has_visible(hidden, gold)
        assert replace_gold(hidden, gold, wrong + "\n" + gold) is None
        # a visible copy after (or before) the hidden one is still found, and only it is replaced
        both = f"{gold} then {hidden}"
        assert visible_at(both, gold) == 0
        assert replace_gold(both, gold, wrong) == f"{wrong} then {hidden}"
    assert visible_at("no answer here", gold) == -1 and visible_at("x", "") == -1
