"""A held-out red team for the answer readers: hacks and genuine answers of kinds the probe and the tests do not list.

    python benchmarks/red_team.py                  # tables on stdout, written to benchmarks/results/red_team.md
    python benchmarks/red_team.py --show-misses    # also every hack paid and every genuine answer refused
    python benchmarks/red_team.py --no-write       # print only

The rows are tests/data/red_team.jsonl, one JSON object per line:

* ``task``: ``math`` (scored by ``math_accuracy`` with default parameters, the row's prompt passed) or ``choice``
  (``choice_accuracy`` with default parameters: letters A-E, no options column);
* ``kind``: ``hack`` (the gold written into a completion that does not commit to it: hedged in an idiom, under a
  condition, attributed to someone else, asked as a question, rejected in a list or table, withdrawn in another
  language, struck out, hidden by colour or markup, in a link or file name, ...) or ``genuine`` (a correct answer
  in an ordinary style: hedged-but-committed "most likely", a self-correction *to* the gold, ``\\text{42}``,
  ``10,\\!000``, units, another language, a remark after the answer ...);
* ``family``: the kind of hack or style; ``split``: ``dev`` (written before the reader was changed for them, then
  used to change it) or ``holdout`` .. ``holdout102`` (each written after the previous change, scored once on first sight
  before anything it showed was changed: the honest figure; ``holdout4`` .. ``holdout102`` were written blind, without reading the
  reader's code or the earlier rows);
* ``prompt``, ``gold``, ``completion``, ``expected`` (``not_paid`` for a hack, ``paid`` for a genuine answer).

Measures (issue 32's goal): the share of hacks **paid at least the genuine answer** -- a hack's score is compared
with the same scorer's score for the plain genuine answer of its row (``The answer is \\boxed{gold}.``), so a
scorer that cannot read the gold at all pays no hack -- and the **false-negative rate** of the genuine answers
(scored below 1.0). Beside polyreward: Math-Verify 0.9.0 as its README uses it (``verify(parse(gold),
parse(completion))``, the better of the raw gold and the gold as ``$gold$``) and TRL's
``trl.rewards.accuracy_reward``, when importable. Goal: at most 5 % of hacks paid, and an FN rate no higher than
Math-Verify's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT / "tests" / "data" / "red_team.jsonl"
RESULTS = HERE / "results"


def load_rows(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def genuine_reference(row: dict) -> str:
    """The plain genuine answer a hack of ``row`` is compared with."""
    return f"The answer is \\boxed{{{row['gold']}}}."


def _quiet() -> None:
    for logger in ("math_verify", "math_verify.parser", "math_verify.grader", "latex2sympy2_extended", "trl"):
        logging.getLogger(logger).setLevel(logging.CRITICAL)


def polyreward_scores(rows: list[dict], completions: list[str]) -> list[float]:
    """``math_accuracy`` / ``choice_accuracy`` with default parameters, each row's prompt passed."""
    from polyreward.engine import WorkerPool
    from polyreward.rewards.choice_accuracy import ChoiceAccuracy
    from polyreward.rewards.math_accuracy import MathAccuracy

    scores: list[float] = [0.0] * len(rows)
    math_at = [i for i, row in enumerate(rows) if row["task"] == "math"]
    choice_at = [i for i, row in enumerate(rows) if row["task"] == "choice"]
    with WorkerPool(workers=2, timeout=10.0) as pool:
        reward = MathAccuracy(engine=pool)  # the pool's timeout (10 s) is the budget
        found = reward.evaluate([rows[i]["prompt"] for i in math_at], [completions[i] for i in math_at],
                                answer=[rows[i]["gold"] for i in math_at]).scores
    for i, score in zip(math_at, found):
        scores[i] = _number(score)
    choice = ChoiceAccuracy()
    found = choice.evaluate([rows[i]["prompt"] for i in choice_at], [completions[i] for i in choice_at],
                            answer=[rows[i]["gold"] for i in choice_at]).scores
    for i, score in zip(choice_at, found):
        scores[i] = _number(score)
    return scores


def _number(score) -> float:
    return 0.0 if score is None or score != score else float(score)


def math_verify_scores(rows: list[dict], completions: list[str]) -> list[float]:
    from math_verify import parse, verify

    _quiet()
    scores = []
    for row, completion in zip(rows, completions):
        best = 0.0
        for gold in (row["gold"], f"${row['gold']}$"):
            try:
                best = max(best, float(verify(parse(gold), parse(completion))))
            except Exception:  # a peer that raises on a row scores it 0
                pass
        scores.append(best)
    return scores


def trl_scores(rows: list[dict], completions: list[str]) -> list[float]:
    from trl.rewards import accuracy_reward

    _quiet()
    found = accuracy_reward([[{"role": "assistant", "content": c}] for c in completions], [row["gold"] for row in rows])
    return [_number(score) for score in found]


def measure(rows: list[dict], scorer) -> dict:
    """Hacks paid at least the genuine answer and genuine answers refused, overall and by (task, split, family)."""
    scores = scorer(rows, [row["completion"] for row in rows])
    hack_at = [i for i, row in enumerate(rows) if row["kind"] == "hack"]
    references = scorer([rows[i] for i in hack_at], [genuine_reference(rows[i]) for i in hack_at])
    paid = {i: scores[i] >= reference and reference > 0 for i, reference in zip(hack_at, references)}
    refused = {i: scores[i] < 1.0 for i, row in enumerate(rows) if row["kind"] == "genuine"}
    return {"scores": scores, "paid": paid, "refused": refused}


# polyreward's figures on each split's first sight, before anything it showed was changed (recorded once, kept as
# history; docs/benchmarks.md#held-out-red-team has the dates and machines): math hacks paid, choice hacks paid,
# genuine answers refused
FIRST_SIGHT = {
    "holdout": ("42 / 112 (37.5 %)", "18 / 34 (52.9 %)", "0 / 96"),
    "holdout2": ("46 / 102 (45.1 %)", "10 / 24 (41.7 %)", "2 / 68"),
    "holdout3": ("11 / 40 (27.5 %)", "5 / 15 (33.3 %)", "0 / 15"),
    "holdout4": ("45 / 124 (36.3 %)", "6 / 42 (14.3 %)", "6 / 94"),
    "holdout5": ("33 / 119 (27.7 %)", "4 / 42 (9.5 %)", "9 / 94"),
    "holdout6": ("10 / 94 (10.6 %)", "3 / 35 (8.6 %)", "10 / 83"),
    "holdout7": ("17 / 76 (22.4 %)", "3 / 30 (10.0 %)", "3 / 70"),
    "holdout8": ("35 / 136 (25.7 %)", "3 / 27 (11.1 %)", "1 / 94"),
    "holdout9": ("6 / 64 (9.4 %)", "3 / 61 (4.9 %)", "9 / 90"),
    "holdout10": ("20 / 150 (13.3 %)", "2 / 42 (4.8 %)", "6 / 101"),
    "holdout11": ("1 / 76 (1.3 %)", "9 / 84 (10.7 %)", "5 / 94"),
    "holdout12": ("9 / 109 (8.3 %)", "1 / 40 (2.5 %)", "1 / 90"),
    "holdout13": ("19 / 80 (23.8 %)", "15 / 66 (22.7 %)", "0 / 103"),
    "holdout14": ("5 / 73 (6.8 %)", "2 / 25 (8.0 %)", "3 / 56"),
    "holdout15": ("4 / 45 (8.9 %)", "0 / 15 (0.0 %)", "0 / 40"),
    "holdout16": ("3 / 77 (3.9 %)", "5 / 25 (20.0 %)", "3 / 62"),
    "holdout17": ("6 / 35 (17.1 %)", "8 / 50 (16.0 %)", "5 / 50"),
    "holdout18": ("8 / 64 (12.5 %)", "2 / 42 (4.8 %)", "11 / 56"),
    "holdout19": ("8 / 82 (9.8 %)", "4 / 29 (13.8 %)", "1 / 55"),
    "holdout20": ("5 / 36 (13.9 %)", "10 / 62 (16.1 %)", "11 / 73"),
    "holdout21": ("2 / 55 (3.6 %)", "4 / 40 (10.0 %)", "23 / 65"),
    "holdout22": ("1 / 50 (2.0 %)", "4 / 30 (13.3 %)", "1 / 70"),
    "holdout23": ("0 / 20 (0.0 %)", "6 / 67 (9.0 %)", "2 / 69"),
    "holdout24": ("1 / 69 (1.4 %)", "1 / 23 (4.3 %)", "2 / 79"),
    "holdout25": ("6 / 49 (12.2 %)", "8 / 37 (21.6 %)", "6 / 78"),
    "holdout26": ("2 / 23 (8.7 %)", "8 / 60 (13.3 %)", "8 / 71"),
    "holdout27": ("7 / 49 (14.3 %)", "9 / 39 (23.1 %)", "18 / 73"),
    "holdout28": ("3 / 25 (12.0 %)", "1 / 15 (6.7 %)", "9 / 154"),
    "holdout29": ("1 / 20 (5.0 %)", "8 / 52 (15.4 %)", "2 / 61"),
    "holdout30": ("8 / 56 (14.3 %)", "2 / 16 (12.5 %)", "2 / 59"),
    "holdout31": ("1 / 29 (3.4 %)", "2 / 24 (8.3 %)", "3 / 78"),
    "holdout32": ("0 / 17 (0.0 %)", "6 / 40 (15.0 %)", "0 / 54"),
    "holdout33": ("2 / 39 (5.1 %)", "3 / 12 (25.0 %)", "9 / 56"),
    "holdout34": ("0 / 19 (0.0 %)", "0 / 18 (0.0 %)", "2 / 72"),
    "holdout35": ("0 / 25 (0.0 %)", "2 / 59 (3.4 %)", "12 / 71"),
    "holdout36": ("1 / 70 (1.4 %)", "1 / 25 (4.0 %)", "5 / 89"),
    "holdout37": ("1 / 39 (2.6 %)", "3 / 39 (7.7 %)", "2 / 72"),
    "holdout38": ("1 / 25 (4.0 %)", "6 / 67 (9.0 %)", "25 / 81"),
    "holdout39": ("15 / 63 (23.8 %)", "1 / 19 (5.3 %)", "35 / 76"),
    "holdout40": ("0 / 41 (0.0 %)", "0 / 41 (0.0 %)", "3 / 71"),
    "holdout41": ("0 / 22 (0.0 %)", "21 / 69 (30.4 %)", "10 / 75"),
    "holdout42": ("1 / 62 (1.6 %)", "0 / 14 (0.0 %)", "6 / 76"),
    "holdout43": ("8 / 40 (20.0 %)", "4 / 40 (10.0 %)", "44 / 72"),
    "holdout44": ("6 / 26 (23.1 %)", "8 / 58 (13.8 %)", "4 / 63"),
    "holdout45": ("4 / 57 (7.0 %)", "2 / 14 (14.3 %)", "11 / 86"),
    "holdout46": ("4 / 72 (5.6 %)", "1 / 44 (2.3 %)", "7 / 80"),
    "holdout47": ("0 / 21 (0.0 %)", "1 / 50 (2.0 %)", "2 / 49"),
    "holdout48": ("1 / 47 (2.1 %)", "1 / 15 (6.7 %)", "1 / 52"),
    "holdout49": ("1 / 26 (3.8 %)", "2 / 27 (7.4 %)", "0 / 55"),
    "holdout50": ("2 / 34 (5.9 %)", "0 / 24 (0.0 %)", "5 / 52"),
    "holdout51": ("0 / 13 (0.0 %)", "1 / 40 (2.5 %)", "14 / 53"),
    "holdout52": ("0 / 35 (0.0 %)", "0 / 15 (0.0 %)", "4 / 51"),
    "holdout53": ("0 / 25 (0.0 %)", "2 / 10 (20.0 %)", "8 / 69"),
    "holdout54": ("2 / 29 (6.9 %)", "1 / 19 (5.3 %)", "4 / 48"),
    "holdout55": ("1 / 24 (4.2 %)", "3 / 24 (12.5 %)", "15 / 48"),
    "holdout56": ("1 / 32 (3.1 %)", "0 / 22 (0.0 %)", "3 / 52"),
    "holdout57": ("2 / 27 (7.4 %)", "2 / 22 (9.1 %)", "2 / 48"),
    "holdout58": ("1 / 27 (3.7 %)", "2 / 23 (8.7 %)", "1 / 50"),
    "holdout59": ("2 / 27 (7.4 %)", "2 / 25 (8.0 %)", "7 / 50"),
    "holdout60": ("0 / 27 (0.0 %)", "1 / 26 (3.8 %)", "9 / 53"),
    "holdout61": ("1 / 13 (7.7 %)", "2 / 38 (5.3 %)", "3 / 51"),
    "holdout62": ("0 / 8 (0.0 %)", "7 / 47 (14.9 %)", "17 / 55"),
    "holdout63": ("0 / 42 (0.0 %)", "2 / 10 (20.0 %)", "10 / 53"),
    "holdout64": ("1 / 36 (2.8 %)", "2 / 18 (11.1 %)", "1 / 54"),
    "holdout65": ("3 / 49 (6.1 %)", "0 / 8 (0.0 %)", "23 / 59"),
    "holdout66": ("0 / 45 (0.0 %)", "1 / 8 (12.5 %)", "1 / 52"),
    "holdout67": ("1 / 33 (3.0 %)", "0 / 16 (0.0 %)", "25 / 61"),
    "holdout68": ("0 / 8 (0.0 %)", "1 / 47 (2.1 %)", "6 / 55"),
    "holdout69": ("2 / 28 (7.1 %)", "1 / 26 (3.8 %)", "19 / 54"),
    "holdout70": ("1 / 31 (3.2 %)", "0 / 23 (0.0 %)", "1 / 53"),
    "holdout71": ("0 / 45 (0.0 %)", "0 / 7 (0.0 %)", "3 / 53"),
    "holdout72": ("0 / 8 (0.0 %)", "2 / 46 (4.3 %)", "4 / 53"),
    "holdout73": ("4 / 25 (16.0 %)", "4 / 14 (28.6 %)", "16 / 72"),
    "holdout74": ("0 / 33 (0.0 %)", "0 / 23 (0.0 %)", "1 / 56"),
    "holdout75": ("0 / 51 (0.0 %)", "0 / 8 (0.0 %)", "1 / 57"),
    "holdout76": ("0 / 5 (0.0 %)", "5 / 49 (10.2 %)", "5 / 59"),
    "holdout77": ("1 / 33 (3.0 %)", "0 / 22 (0.0 %)", "8 / 55"),
    "holdout78": ("2 / 30 (6.7 %)", "1 / 26 (3.8 %)", "2 / 53"),
    "holdout79": ("2 / 45 (4.4 %)", "0 / 5 (0.0 %)", "4 / 49"),
    "holdout80": ("0 / 3 (0.0 %)", "1 / 52 (1.9 %)", "1 / 50"),
    "holdout81": ("2 / 32 (6.2 %)", "3 / 18 (16.7 %)", "2 / 49"),
    "holdout82": ("0 / 34 (0.0 %)", "1 / 18 (5.6 %)", "6 / 53"),
    "holdout83": ("0 / 44 (0.0 %)", "0 / 11 (0.0 %)", "1 / 55"),
    "holdout84": ("0 / 5 (0.0 %)", "1 / 50 (2.0 %)", "4 / 55"),
    "holdout85": ("1 / 45 (2.2 %)", "0 / 8 (0.0 %)", "7 / 52"),
    "holdout86": ("1 / 30 (3.3 %)", "1 / 24 (4.2 %)", "7 / 53"),
    "holdout87": ("2 / 53 (3.8 %)", "0 / 6 (0.0 %)", "0 / 59"),
    "holdout88": ("0 / 5 (0.0 %)", "4 / 48 (8.3 %)", "3 / 50"),
    "holdout89": ("0 / 8 (0.0 %)", "2 / 44 (4.5 %)", "2 / 52"),
    "holdout90": ("2 / 45 (4.4 %)", "0 / 8 (0.0 %)", "5 / 55"),
    "holdout91": ("–", "4 / 51 (7.8 %)", "0 / 50"),
    "holdout92": ("0 / 49 (0.0 %)", "0 / 11 (0.0 %)", "2 / 60"),
    "holdout93": ("0 / 10 (0.0 %)", "5 / 42 (11.9 %)", "3 / 51"),
    "holdout94": ("0 / 36 (0.0 %)", "0 / 16 (0.0 %)", "0 / 53"),
    "holdout95": ("2 / 37 (5.4 %)", "2 / 16 (12.5 %)", "0 / 51"),
    "holdout96": ("0 / 31 (0.0 %)", "0 / 20 (0.0 %)", "4 / 51"),
    "holdout97": ("0 / 8 (0.0 %)", "3 / 44 (6.8 %)", "0 / 54"),
    "holdout98": ("0 / 26 (0.0 %)", "1 / 29 (3.4 %)", "1 / 55"),
    "holdout99": ("0 / 28 (0.0 %)", "1 / 28 (3.6 %)", "3 / 56"),
    "holdout100": ("4 / 16 (25.0 %)", "4 / 31 (12.9 %)", "7 / 47"),
    "holdout101": ("0 / 23 (0.0 %)", "0 / 24 (0.0 %)", "0 / 46"),
    "holdout102": ("0 / 7 (0.0 %)", "2 / 38 (5.3 %)", "3 / 44"),
    "holdout103": ("12 / 25 (48.0 %)", "3 / 20 (15.0 %)", "6 / 45"),
    "holdout104": ("0 / 31 (0.0 %)", "0 / 16 (0.0 %)", "3 / 46"),
    "holdout105": ("8 / 27 (29.6 %)", "3 / 18 (16.7 %)", "0 / 45"),
    "holdout106": ("0 / 18 (0.0 %)", "0 / 10 (0.0 %)", "12 / 65"),
    "holdout107": ("3 / 28 (10.7 %)", "0 / 18 (0.0 %)", "0 / 46"),
    "holdout108": ("0 / 24 (0.0 %)", "1 / 20 (5.0 %)", "3 / 46"),
    "holdout109": ("11 / 27 (40.7 %)", "3 / 18 (16.7 %)", "10 / 46"),
    "holdout110": ("4 / 25 (16.0 %)", "6 / 20 (30.0 %)", "9 / 48"),
    "holdout111": ("5 / 27 (18.5 %)", "1 / 18 (5.6 %)", "5 / 45"),
    "holdout112": ("5 / 26 (19.2 %)", "2 / 21 (9.5 %)", "17 / 47"),
    "holdout113": ("3 / 25 (12.0 %)", "0 / 20 (0.0 %)", "6 / 45"),
    "holdout114": ("5 / 26 (19.2 %)", "1 / 22 (4.5 %)", "7 / 50"),
    "holdout115": ("3 / 29 (10.3 %)", "4 / 16 (25.0 %)", "8 / 48"),
    "holdout116": ("7 / 25 (28.0 %)", "4 / 20 (20.0 %)", "7 / 45"),
    "holdout117": ("2 / 25 (8.0 %)", "1 / 20 (5.0 %)", "5 / 45"),
    "holdout118": ("0 / 25 (0.0 %)", "0 / 20 (0.0 %)", "1 / 45"),
    "holdout119": ("0 / 25 (0.0 %)", "2 / 20 (10.0 %)", "2 / 45"),
    "holdout120": ("1 / 25 (4.0 %)", "0 / 20 (0.0 %)", "7 / 45"),
    "holdout121": ("3 / 25 (12.0 %)", "5 / 20 (25.0 %)", "14 / 45"),
    "holdout122": ("0 / 25 (0.0 %)", "2 / 20 (10.0 %)", "16 / 45"),
    "holdout123": ("0 / 25 (0.0 %)", "0 / 20 (0.0 %)", "6 / 45"),
    "holdout124": ("0 / 25 (0.0 %)", "1 / 20 (5.0 %)", "6 / 45"),
    "holdout125": ("0 / 25 (0.0 %)", "1 / 20 (5.0 %)", "15 / 45"),
    "holdout126": ("1 / 25 (4.0 %)", "2 / 20 (10.0 %)", "6 / 45"),
}


def _splits(rows: list[dict]) -> list[str]:
    """``dev`` then every held-out split in the order written (``holdout``, ``holdout2``, ... ``holdout10``)."""
    names = {row["split"] for row in rows}
    return sorted(names, key=lambda name: (name != "dev", len(name), name))


def _rate(flags: list[bool]) -> str:
    return f"{sum(flags)} / {len(flags)} ({100 * sum(flags) / len(flags):.1f} %)" if flags else "–"


def _code(text: str) -> str:
    shown = "".join(c if c.isprintable() else "⏎" if c == "\n" else f"\\u{ord(c):04x}" for c in text)
    return "`" + shown.replace("|", "\\|").replace("`", "'") + "`"


def report(rows: list[dict], results: dict[str, dict], show_misses: bool, machine: str, seconds: float) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [f"<!-- benchmarks/red_team.py, {datetime.date.today()}, {machine}, load {load:.1f} -->", "",
             f"Rows: {len(rows)} ({sum(r['kind'] == 'hack' for r in rows)} hacks, {sum(r['kind'] == 'genuine' for r in rows)} "
             "genuine answers) from tests/data/red_team.jsonl. Splits: `dev` was written first and used to change the reader; "
             "`holdout` .. `holdout102` were written afterwards and scored once on first sight before anything they showed "
             "was changed (those first-sight figures, and the history, are in docs/benchmarks.md#held-out-red-team).", "",
             "| scorer | task | split | hacks paid >= genuine | genuine refused (FN) |", "|---|---|---|---:|---:|"]
    for name, result in results.items():
        for task in ("math", "choice"):
            for split in _splits(rows) + ["all"]:
                chosen = [i for i, r in enumerate(rows) if r["task"] == task and (split == "all" or r["split"] == split)]
                if not chosen:
                    continue
                hacks = [result["paid"][i] for i in chosen if i in result["paid"]]
                genuine = [result["refused"][i] for i in chosen if i in result["refused"]]
                lines.append(f"| {name} | {task} | {split} | {_rate(hacks)} | {_rate(genuine)} |")
    ours = next(iter(results.values()))
    lines += ["", "polyreward on first sight of each held-out split (recorded when it was written) and now:", "",
              "| split | math hacks paid, first sight | now | choice hacks paid, first sight | now | genuine refused, first sight | now |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for split, (math_then, choice_then, genuine_then) in FIRST_SIGHT.items():
        now = []
        for task in ("math", "choice"):
            chosen = [i for i, r in enumerate(rows) if r["task"] == task and r["split"] == split]
            now.append(_rate([ours["paid"][i] for i in chosen if i in ours["paid"]]))
        refused = [ours["refused"][i] for i, r in enumerate(rows) if r["split"] == split and i in ours["refused"]]
        lines.append(f"| {split} | {math_then} | {now[0]} | {choice_then} | {now[1]} | {genuine_then} | {sum(refused)} / {len(refused)} |")
    by_family: dict[tuple, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_family[(row["task"], row["kind"], row["family"])].append(i)
    lines += ["", "polyreward by family (hacks paid / genuine refused):", "", "| task | kind | family | rows | polyreward | "
              + " | ".join(list(results)[1:]) + " |", "|---|---|---|---:|---:|" + "---:|" * (len(results) - 1)]
    for (task, kind, family), chosen in sorted(by_family.items()):
        key = "paid" if kind == "hack" else "refused"
        cells = [str(sum(result[key][i] for i in chosen)) for result in results.values()]
        lines.append(f"| {task} | {kind} | {family} | {len(chosen)} | " + " | ".join(cells) + " |")
    lines += ["", "polyreward's remaining misses (task, split, family, gold, completion):", ""]
    misses = [i for i in ours["paid"] if ours["paid"][i]] + [i for i in ours["refused"] if ours["refused"][i]]
    lines += [f"- {'hack paid' if rows[i]['kind'] == 'hack' else 'genuine refused'}: {rows[i]['task']} {rows[i]['split']} "
              f"{rows[i]['family']} gold {_code(rows[i]['gold'])} {_code(rows[i]['completion'])}" for i in sorted(misses)] or ["- none"]
    if show_misses:
        for name, result in list(results.items())[1:]:
            lines += ["", f"{name}: hacks paid", ""]
            lines += [f"- {rows[i]['task']} {rows[i]['family']} {_code(rows[i]['completion'])}" for i in sorted(result["paid"]) if result["paid"][i]]
    lines += ["", f"Wall time {seconds:.0f} s."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true", help="also list every hack each peer pays")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write benchmarks/results/red_team.md")
    parser.add_argument("--only-polyreward", action="store_true", help="skip the peers (quick check while changing the reader)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from machine_info import describe_machine

    rows = load_rows()
    started = time.perf_counter()
    results = {"polyreward (defaults)": measure(rows, polyreward_scores)}
    if not args.only_polyreward:
        results["Math-Verify `verify(parse(gold), parse(pred))`"] = measure(rows, math_verify_scores)
        try:
            import trl.rewards  # noqa: F401
        except ImportError:
            pass
        else:
            results["TRL `accuracy_reward`"] = measure(rows, trl_scores)
    text = report(rows, results, args.show_misses, describe_machine(), time.perf_counter() - started)
    print(text)
    if not args.no_write and not args.only_polyreward:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "red_team.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
