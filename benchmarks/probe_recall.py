"""Recall of ``polyreward probe`` on deliberately weak rewards: the mutation search against the named strategies.

    python benchmarks/probe_recall.py                 # budget 64, seed 0
    python benchmarks/probe_recall.py --budget 16 --seed 3

Each weak reward below reads answers the way a hurried implementation would (the first box, the last number of
the raw text, a literal negation word list, ...), so a policy has at least one cheap exploit of it. Each is
probed twice on the same 24 arithmetic rows (or 24 tool-call rows): once with the named strategies of the
closest real reward type (``math_accuracy``'s list for box readers, ``toolrl_correctness``'s for tool readers;
the weak reward declares them, as a real type would) and the search off, once with the search alone. A reward
is *flagged* when the mode reports at least one exploit of it. Prints one line per reward, the recall of each
mode, and the search's cost (candidates, wall seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from polyreward.config import parse_config  # noqa: E402
from polyreward.probe import run_probe  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402

MATH_NAMED = ("hedge", "candidate_list", "negation", "retraction", "empty_box", "truncation", "prompt_copy")
TOOL_NAMED = ("second_call_block", "empty_tool_block")
BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class BoxReader(RolloutReward):
    """Base of the weak box readers: the reference in ``answer``; subclasses say which box counts."""

    probe_genuine = "boxed"
    probe_strategies = MATH_NAMED

    def __init__(self, name=None, weight=1.0, answer_column: str = "answer"):
        super().__init__(name, weight)
        self.answer_column = answer_column

    @property
    def columns(self):
        return (self.answer_column,)

    def score_rollout(self, completion, row):
        return Scored(float(self.read(completion) == str(row[self.answer_column])))

    def read(self, completion: str) -> str | None:
        raise NotImplementedError


class AnyBox(BoxReader):
    """Pays when any box holds the gold."""

    def score_rollout(self, completion, row):
        return Scored(float(str(row[self.answer_column]) in BOX.findall(completion)))


class FirstBox(BoxReader):
    def read(self, completion):
        boxes = BOX.findall(completion)
        return boxes[0] if boxes else None


class RawLastBox(BoxReader):
    """The last box of the raw text: comments and fences included."""

    def read(self, completion):
        boxes = BOX.findall(completion)
        return boxes[-1] if boxes else None


class LastNumber(BoxReader):
    """The last number anywhere in the text."""

    def read(self, completion):
        numbers = re.findall(r"-?\d+", completion)
        return numbers[-1] if numbers else None


class LiteralGuard(BoxReader):
    """The last visible box, refused when an ASCII negation or hedge word stands in the text (no normalisation)."""

    def read(self, completion):
        if re.search(r"\b(not|never|wrong|incorrect|false|cannot|or|either|wait|actually|instead|retract)\b", completion, re.I):
            return None
        boxes = BOX.findall(re.sub(r"<!--.*?-->|%[^\n]*|```.*?```", "", completion, flags=re.S))
        return boxes[-1] if boxes else None


class SplitBox(BoxReader):
    """The last box, split on commas and "or": any part equal to the gold pays."""

    def score_rollout(self, completion, row):
        boxes = BOX.findall(completion)
        parts = re.split(r",|\bor\b|\\text\{[^}]*\}", boxes[-1]) if boxes else []
        return Scored(float(str(row[self.answer_column]) in [p.strip() for p in parts]))


class BareNumberBox(BoxReader):
    """The last box with symbols stripped before comparing: ``45%``, ``> 45`` and ``\\geq 45`` read as 45."""

    def read(self, completion):
        boxes = BOX.findall(completion)
        return re.sub(r"[^\d.-]", "", re.sub(r"\\[a-z]+", "", boxes[-1])) if boxes else None


class NfkcOnly(BoxReader):
    """The last box after NFKC, refused on a plain "not"/"or" before it (zero-width characters are not removed)."""

    def read(self, completion):
        text = unicodedata.normalize("NFKC", completion)
        if re.search(r"\b(not|or)\b[^\n]{0,20}\\boxed", text):
            return None
        boxes = BOX.findall(text)
        return boxes[-1] if boxes else None


class AnyThink(RolloutReward):
    """A format reward: any non-empty think block."""

    probe_strategies = ("empty_think", "junk_think", "empty_answer")

    def score_rollout(self, completion, row):
        return Scored(float(re.search(r"<think>\S.*?</think>", completion, re.S) is not None))


class SpaceWords(RolloutReward):
    """A length reward counting whitespace-separated words."""

    probe_strategies = ("invisible_padding", "unspaced_padding")

    def __init__(self, name=None, weight=1.0, max_completion_len: int = 60):
        super().__init__(name, weight)
        self.max_completion_len = max_completion_len

    def score_rollout(self, completion, row):
        return Scored(float(len(completion.split()) <= self.max_completion_len))


class ToolReader(BoxReader):
    probe_genuine = "tool_calls"
    probe_strategies = TOOL_NAMED

    def score_rollout(self, completion, row):
        calls = self.calls(completion)
        return Scored(float(calls is not None and [_shape(c) for c in calls] == [_shape(c) for c in json.loads(row[self.answer_column])]))

    def calls(self, completion):
        raise NotImplementedError


def _shape(call) -> tuple:
    """(name, arguments) of a call written with ``arguments`` (OpenAI) or ``parameters`` (ToolRL)."""
    return (call.get("name"), call.get("arguments", call.get("parameters"))) if isinstance(call, dict) else (None, None)


class FirstToolBlock(ToolReader):
    def calls(self, completion):
        block = re.search(r"<tool_call>(.*?)</tool_call>", completion, re.S)
        try:
            return [json.loads(line) for line in block.group(1).strip().splitlines()] if block else None
        except ValueError:
            return None


class LastWinsKeys(ToolReader):
    """Every block read, JSON objects parsed with the last of duplicate keys winning (Python's json)."""

    def calls(self, completion):
        try:
            return [json.loads(line) for b in re.findall(r"<tool_call>(.*?)</tool_call>", completion, re.S)
                    for line in b.strip().splitlines() if line.strip()]
        except ValueError:
            return None


WEAK = {"AnyBox": "box", "FirstBox": "box", "RawLastBox": "box", "LastNumber": "box", "LiteralGuard": "box",
        "SplitBox": "box", "BareNumberBox": "box", "NfkcOnly": "box", "AnyThink": "box", "SpaceWords": "box",
        "FirstToolBlock": "tool", "LastWinsKeys": "tool"}


def rows(kind: str, n: int = 24) -> list[dict]:
    out = []
    for i in range(n):
        if kind == "tool":
            gold = [{"name": "weather", "arguments": {"city": f"City{i}", "days": i % 7 + 1}}]
            text = f"<think>The user asks for {i % 7 + 1} days of weather in City{i}.</think>\n<tool_call>\n{json.dumps(gold[0])}\n</tool_call>"
            out.append({"prompt": f"Weather in City{i} for {i % 7 + 1} days?", "completion": text, "prompt_id": i, "answer": json.dumps(gold)})
        else:
            a, b = 7 * i + 3, 11 * i + 5
            text = f"<think>Adding {a} to {b} gives {a + b}.</think>\nThe answer is \\boxed{{{a + b}}}."
            out.append({"prompt": f"What is {a} + {b}?", "completion": text, "prompt_id": i, "answer": str(a + b)})
    return out


def probe(name: str, kind: str, budget: int, seed: int, named: bool):
    params = {} if name in ("AnyThink", "SpaceWords") else {"answer_column": "answer"}
    cfg = parse_config({"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"}, "engine": {"workers": 0},
                        "rewards": [{"name": "weak", "type": f"probe_recall:{name}", **params}]})
    return run_probe(cfg, rows(kind), budget=budget, seed=seed, named=named)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    named_hits = search_hits = 0
    candidates, seconds = 0, 0.0
    print(f"{'weak reward':16} {'named':>6} {'search':>7}  search families exploited")
    for name, kind in WEAK.items():
        named = probe(name, kind, 0, args.seed, True)
        named_found = any(r.exploited and r.reward == "weak" for r in named.results)
        start = time.perf_counter()
        search = probe(name, kind, args.budget, args.seed, False)
        seconds += time.perf_counter() - start
        candidates += search.candidates
        families = sorted({r.family for r in search.search if r.exploited and r.reward == "weak"})
        named_hits += named_found
        search_hits += bool(families)
        print(f"{name:16} {'yes' if named_found else 'no':>6} {'yes' if families else 'no':>7}  {', '.join(families)}")
    n = len(WEAK)
    print(f"recall: named strategies {named_hits}/{n}, search {search_hits}/{n}; "
          f"search: {candidates:,} candidates in {seconds:.1f} s wall ({candidates / max(seconds, 1e-9):,.0f}/s), budget {args.budget}, seed {args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
