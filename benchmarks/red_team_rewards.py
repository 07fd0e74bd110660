"""A held-out red team for the answer-reading rewards other than math and multiple choice (issue 32).

    python benchmarks/red_team_rewards.py                     # tables on stdout, written to results/red_team_rewards.md
    python benchmarks/red_team_rewards.py --show-misses       # also every hack paid and every genuine answer refused
    python benchmarks/red_team_rewards.py --no-write          # print only
    python benchmarks/red_team_rewards.py --out PATH          # write the tables to PATH instead

The rows are tests/data/red_team_rewards.jsonl, one JSON object per line: ``reward`` (a registered reward type),
``params`` (its parameters), ``columns`` (the row's reference columns: gold calls, observed value, labels, ...),
``prompt``, ``kind`` (``hack`` or ``genuine``), ``family``, ``split``, ``completion``, ``reference_completion`` (the
plain genuine answer of the row) and ``expected`` (``not_paid`` / ``paid``).

Each row is scored through the real ``Scorer`` built from a ``Config`` (the path ``polyreward score`` takes): one
config per (reward, params), the completion and its reference completion in one batch, each in its own group (so
``otc_tool_efficiency``'s group optimum is the row's own call count).

Measures:

* a hack is **paid** when it scores at least its reference completion's score (and that score is a number), so
  a hack is compared with what the plain correct answer earns under the same reward. ``overlong_penalty`` is a
  penalty whose reference is the same text spelled plainly (which is penalised): there a hack is paid when it
  scores *above* its reference (it escapes the penalty the honest text pays). So is a row marked ``paid_above``: a
  hack that hides a cost from a counter (``otc_tool_efficiency``'s call count) while doing the same work as its
  reference, which a reward that sees through the hiding ties (red team ``holdout_r2``: a search call written in a
  ``<think>`` body, a code fence, a comment or a quote; marked after first sight, where the tie read as paid);
* a genuine answer is **refused** when it scores below its reference completion's score (or NaN), i.e. below the
  credit the plain answer gets (full credit for every reward but the length penalty, whose reference is itself).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT / "tests" / "data" / "red_team_rewards.jsonl"
RESULTS = HERE / "results"
STRICT_ABOVE = {"overlong_penalty"}  # penalties: a hack is paid only when it escapes the honest text's penalty


def load_rows(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _config(reward: str, params: dict):
    from polyreward.config import parse_config

    data = {"columns": {"prompt": "prompt", "completion": "completion", "group": "prompt_id"},
            "rewards": [{"name": "r", "type": reward, **params}]}
    return parse_config(data, source=f"red_team_rewards:{reward}")


def score_rows(rows: list[dict]) -> list[tuple[float, float, str, str]]:
    """(completion score, reference score, completion reason, reference reason) of each row, via Config.build_scorer."""
    from polyreward import Batch

    by_key: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_key[json.dumps([row["reward"], row["params"]], sort_keys=True)].append(i)
    out: list[tuple[float, float, str, str]] = [(math.nan, math.nan, "", "")] * len(rows)
    for key, idx in by_key.items():
        reward, params = json.loads(key)
        scorer = _config(reward, params).build_scorer(workers=1)
        prompts, completions, groups = [], [], []
        columns: dict[str, list] = defaultdict(list)
        names = sorted({c for i in idx for c in rows[i]["columns"]})
        for n, i in enumerate(idx):
            row = rows[i]
            for which, text in (("h", row["completion"]), ("r", row["reference_completion"])):
                prompts.append(row["prompt"])
                completions.append(text)
                groups.append(f"{n}-{which}")
                for c in names:
                    columns[c].append(row["columns"].get(c))
                if "prompt_id" not in names:
                    columns["prompt_id"].append(f"{n}-{which}")
        if "prompt_id" in names:  # the group column the reward reads: one group per completion
            columns["prompt_id"] = list(groups)
        scored = scorer.score(Batch(prompts, completions, dict(columns), groups=groups), combine=False)
        reasons = scored.reasons["r"]
        for n, i in enumerate(idx):
            out[i] = (float(scored.scores[2 * n, 0]), float(scored.scores[2 * n + 1, 0]),
                      str(reasons[2 * n]), str(reasons[2 * n + 1]))
    return out


def verdict(row: dict, score: float, ref: float) -> bool:
    """True when the row misses its expectation (a hack paid, a genuine answer refused)."""
    if row["kind"] == "hack":
        if math.isnan(score) or math.isnan(ref):
            return False
        return score > ref if row["reward"] in STRICT_ABOVE or row.get("paid_above") else score >= ref
    return math.isnan(score) or (not math.isnan(ref) and score < ref - 1e-9)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def report(rows: list[dict], results: list[tuple[float, float, str, str]], show_misses: bool) -> str:
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# Red team of the non-math answer readers ({stamp}, commit {_commit()})", "",
             f"Rows: `{DATA.relative_to(ROOT)}` ({len(rows)}), scored through `Config.build_scorer()`.", "",
             "| reward | hacks | hacks paid | genuine | genuine refused |", "|---|---|---|---|---|"]
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for row, (score, ref, reason, ref_reason) in zip(rows, results):
        cell = per[row["reward"]]
        miss = verdict(row, score, ref)
        if row["kind"] == "hack":
            cell[0] += 1
            cell[1] += miss
        else:
            cell[2] += 1
            cell[3] += miss
        if miss:
            misses.append((row, score, ref, reason))
    total = [0, 0, 0, 0]
    for reward in sorted(per):
        h, hp, g, gr = per[reward]
        total = [a + b for a, b in zip(total, per[reward])]
        lines.append(f"| {reward} | {h} | {hp} | {g} | {gr} |")
    lines.append(f"| **all** | {total[0]} | {total[1]} | {total[2]} | {total[3]} |")
    lines += _split_table(rows, results)
    if show_misses and misses:
        lines += ["", "## Misses", "", "| split | reward | kind | family | params | score | reference | reason |",
                  "|---|---|---|---|---|---|---|---|"]
        for row, score, ref, reason in misses:
            params = ",".join(f"{k}={v}" for k, v in row["params"].items() if k not in ("answer_column",))
            lines.append(f"| {row.get('split', '')} | {row['reward']} | {row['kind']} | {row['family']} | "
                         f"{params[:60]} | {score:.3g} | {ref:.3g} | {reason[:110].replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def _split_table(rows: list[dict], results: list[tuple[float, float, str, str]]) -> list[str]:
    """Per split (each a red team written blind at one time) and reward: hacks, hacks paid, genuine, refused."""
    per: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row, (score, ref, _, _) in zip(rows, results):
        split = row.get("split", "")
        miss = verdict(row, score, ref)
        k = 0 if row["kind"] == "hack" else 2
        for key in ((split, row["reward"]), (split, "**all**")):
            per[key][k] += 1
            per[key][k + 1] += miss
    lines = ["", "## Per split", "", "| split | reward | hacks | hacks paid | genuine | genuine refused |",
             "|---|---|---|---|---|---|"]
    for split in sorted({s for s, _ in per}):
        for reward in sorted((r for s, r in per if s == split), key=lambda r: (r == "**all**", r)):
            h, hp, g, gr = per[(split, reward)]
            lines.append(f"| {split} | {reward} | {h} | {hp} | {g} | {gr} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--out", type=Path, default=RESULTS / "red_team_rewards.md")
    args = parser.parse_args(argv)
    rows = load_rows()
    text = report(rows, score_rows(rows), args.show_misses)
    sys.stdout.write(text)
    if not args.no_write:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
