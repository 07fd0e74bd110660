"""False negatives on genuine correct answers: polyreward's default ``math_accuracy`` beside Math-Verify and TRL.

    python benchmarks/math_false_negatives.py                 # tables on stdout, written to benchmarks/results/
    python benchmarks/math_false_negatives.py --show-misses   # also every miss of each scorer

Part 1, **genuine answers in varied model styles.** Every row is a correct answer by construction: a gold answer
(:data:`GOLDS`) spelled in one of the notations a model uses for it (``\\text{42}``, ``\\textbf{42}``, ``10,\\!000``,
``12\\text{ cm}^2``, ``90^\\circ``, ``- 5``, ``x > 3`` for an interval, ``x = 2 \\text{ or } x = 3`` for a list,
``0.\\overline{3}``, ``1.5e8``, ``\\textbf{(B) } 12``, "infinitely many" ...) and written into a completion in one of
the answer styles of :data:`STYLES` (``\\boxed{}``, Minerva's "Final Answer: The final answer is $X$. I hope it is
correct.", GSM8K ``####``, ``<answer>`` tags, a bold final line, a plain last line ...). Scored by

* polyreward ``math_accuracy`` with default parameters (the ``work_avoidance`` guard on), 2 worker processes;
* plain Math-Verify 0.9.0, ``verify(parse(gold), parse(completion))``, and the same with the gold wrapped as
  ``$gold$`` (a raw LaTeX gold is often unreadable to it) -- the better of the two is the bar;
* TRL 1.16 ``trl.rewards.accuracy_reward`` (gold unparseable -> None, counted as not paid).

The false-negative rate is the share of these correct answers not paid 1.0. Goal (issue 32): polyreward's rate <=
Math-Verify's.

Part 2, **Math-Verify's own test rows** (tests/test_math_peer_cases.py: the rows of Math-Verify 0.9.0's test suite,
``MATH_VERIFY_CASES`` and ``DELIBERATE`` at Math-Verify's expectation): how often each scorer agrees with the
expectation -- polyreward with the guard on (the default) and off, and Math-Verify itself
(``verify(parse(gold), parse(pred))`` with its default settings; some expectations hold only under a non-default
configuration of its tests).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import logging
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"

# (gold as a dataset writes it, the notations a model writes the same answer in)
GOLDS: list[tuple[str, list[str]]] = [
    ("42", ["42", "\\text{42}", "\\textbf{42}", "\\mathbf{42}", "\\mathrm{42}", "\\displaystyle 42", "42.0", "{42}"]),
    ("-5", ["-5", "- 5", "\\left( -5 \\right)", "\u22125", "-5.0"]),
    ("10000", ["10000", "10,000", "10,\\!000", "10\\,000", "10{,}000", "10 000", "\\text{10,000}"]),
    ("1234567", ["1,234,567", "1{,}234{,}567", "1\\,234\\,567", "1,\\!234,\\!567"]),
    ("12", ["12", "12\\text{ cm}^2", "12 \\text{cm}^2", "12\\ \\text{cm}^{2}", "12 square centimeters"]),
    ("5", ["5", "5 \\mathrm{m/s}", "5\\text{ m/s}", "5 m/s", "\\textbf{5}"]),
    ("18", ["18", "\\$18", "18 dollars", "\\$18.00", "18\\text{ dollars}", "\\$ 18"]),
    ("90", ["90", "90^\\circ", "90°", "90^{\\circ}", "90 degrees", "90\\degree"]),
    ("\\frac{1}{3}", ["\\frac{1}{3}", "\\cfrac{1}{3}", "\\dfrac{1}{3}", "1/3", "0.\\overline{3}", "0.(3)", "0.\\dot{3}"]),
    ("\\frac{1}{6}", ["\\frac{1}{6}", "0.1\\overline{6}", "0.1(6)", "\\tfrac{1}{6}"]),
    ("\\frac{3}{4}", ["\\frac{3}{4}", "0.75", "\\frac34", "3/4", "\\dfrac{3}{4}"]),
    ("-\\frac{1}{2}", ["-\\frac{1}{2}", "-0.5", "- \\frac{1}{2}", "\\frac{-1}{2}", "-\\dfrac12"]),
    ("150000000", ["150000000", "1.5 \\times 10^8", "1.5e8", "1.5E8", "1.5 \\times 10^{8}", "150,000,000", "1.5 \\cdot 10^8"]),
    ("0.000015", ["0.000015", "1.5 \\times 10^{-5}", "1.5e-5"]),
    ("25\\%", ["25\\%", "25%", "25 percent", "25 \\%"]),
    ("(3, \\infty)", ["(3, \\infty)", "x > 3", "x \\in (3, \\infty)", "3 < x", "(3, +\\infty)"]),
    ("[-2, 5]", ["[-2, 5]", "-2 \\le x \\le 5", "x \\in [-2, 5]", "-2 \\leq x \\leq 5"]),
    ("(1, 4)", ["(1, 4)", "1 < x < 4", "x \\in (1, 4)"]),
    ("2, 3", ["2, 3", "x = 2, x = 3", "x = 2 \\text{ or } x = 3", "x \\in \\{2, 3\\}", "\\{2, 3\\}", "3, 2", "2 \\text{ and } 3"]),
    ("\\text{(B)}", ["(B)", "B", "\\textbf{(B) } 12", "\\text{(B)}", "\\textbf{(B)}"]),
    ("\\text{infinitely many}", ["\\text{infinitely many}", "\\infty", "\\text{infinitely many solutions}", "\\text{Infinitely many}"]),
    ("\\text{no solution}", ["\\text{no solution}", "\\text{No solution}", "\\emptyset", "\\text{no solutions}", "\\varnothing"]),
    ("\\frac{\\sqrt{2}}{2}", ["\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}", "\\dfrac{\\sqrt 2}{2}", "\\tfrac{\\sqrt{2}}{2}"]),
    ("2\\pi", ["2\\pi", "2 \\pi", "\\displaystyle 2\\pi"]),
    ("3 - 2i", ["3 - 2i", "3-2i"]),
    ("x^2 + 2x + 1", ["x^2 + 2x + 1", "x^{2}+2x+1", "1 + 2x + x^2"]),
    ("7", ["7", "\\text{7}", "\\textbf{7}", "seven", "(7)"]),
    ("3.14", ["3.14", "\\approx 3.14", "3.140"]),
]

# completion templates: {a} is the answer as written in math mode, {p} as written in plain text (no $ when the
# answer has no LaTeX command)
STYLES: dict[str, str] = {
    "boxed": "First, set up the equation and solve it step by step.\nTherefore, the answer is $\\boxed{{{a}}}$.",
    "boxed_display": "We simplify each term and combine them.\n\n\\[\n\\boxed{{{a}}}\n\\]",
    "minerva": "We compute the value carefully.\nFinal Answer: The final answer is ${a}$. I hope it is correct.",
    "gsm8k": "She starts with the total and works it out step by step.\n#### {p}",
    "answer_tags": "<think>\nLet me compute this carefully and check the result.\n</think>\n<answer>{p}</answer>",
    "bold": "Putting it together:\n\n**Final answer:** ${a}$",
    "answer_line": "Solving the problem step by step gives the result.\n\nAnswer: {p}",
    "plain_last_line": "Let me work through it.\nAfter simplifying, the answer is ${a}$.",
}


def rows() -> list[tuple[str, str, str, str]]:
    """(gold, notation, style, completion) for every gold x notation x style."""
    out = []
    for gold, notations in GOLDS:
        for notation in notations:
            plain = notation if "\\" not in notation and "^" not in notation else f"${notation}$"
            for style, template in STYLES.items():
                out.append((gold, notation, style, template.format(a=notation, p=plain)))
    return out


def _quiet() -> None:
    for logger in ("math_verify", "math_verify.parser", "math_verify.grader", "latex2sympy2_extended", "trl"):
        logging.getLogger(logger).setLevel(logging.CRITICAL)


def math_verify_scores(golds: list[str], completions: list[str], wrap: bool = False) -> list[float]:
    from math_verify import parse, verify

    _quiet()
    scores = []
    for gold, completion in zip(golds, completions):
        try:
            scores.append(float(verify(parse(f"${gold}$" if wrap else gold), parse(completion))))
        except Exception:  # a peer that raises on a row scores it 0 (shown as a miss)
            scores.append(0.0)
    return scores


def trl_scores(golds: list[str], completions: list[str]) -> list[float | None]:
    from trl.rewards import accuracy_reward

    _quiet()
    return accuracy_reward([[{"role": "assistant", "content": c}] for c in completions], list(golds))


def polyreward_scores(golds: list[str], completions: list[str], work_avoidance: bool = True, prompts: list[str] | None = None) -> list[float | None]:
    from polyreward.engine import WorkerPool
    from polyreward.rewards.math_accuracy import MathAccuracy

    with WorkerPool(workers=2, timeout=10.0) as pool:
        reward = MathAccuracy(engine=pool, timeout=10.0, work_avoidance=work_avoidance)
        return reward.evaluate(prompts if prompts is not None else [None] * len(completions), completions, answer=golds).scores


# DELIBERATE rows whose Math-Verify expectation is a known Math-Verify error (its issues #14 and #60, a false positive,
# a letter it misses): the corrected label is the right answer, not the test's expectation
_KNOWN_ERRORS = ("Math-Verify false positive", "issue #", "Math-Verify misses")


def _peer_rows() -> list[tuple[str, str, int, int]]:
    """(gold, prediction, Math-Verify's expectation, corrected label) of Math-Verify's own test rows."""
    spec = importlib.util.spec_from_file_location("test_math_peer_cases", ROOT / "tests" / "test_math_peer_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [(gold, pred, expected, expected) for gold, pred, expected in module.MATH_VERIFY_CASES] + [
        (gold, pred, expected, int(ours) if any(k in why for k in _KNOWN_ERRORS) else expected)
        for gold, pred, ours, expected, why in module.DELIBERATE]


def _code(text: str) -> str:
    shown = "".join(c if c.isprintable() else "⏎" if c == "\n" else f"\\u{ord(c):04x}" for c in text)
    return "`" + shown.replace("|", "\\|").replace("`", "'") + "`"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true", help="list every miss of each scorer")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write benchmarks/results/math_false_negatives.md")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from machine_info import describe_machine

    table = rows()
    golds, completions = [r[0] for r in table], [r[3] for r in table]
    started = time.perf_counter()
    scorers = {
        "polyreward `math_accuracy` (defaults, guard on)": polyreward_scores(golds, completions),
        "Math-Verify `verify(parse(gold), parse(pred))`": math_verify_scores(golds, completions),
        "Math-Verify, gold as `$gold$`": math_verify_scores(golds, completions, wrap=True),
        "TRL `accuracy_reward`": trl_scores(golds, completions),
    }
    lines = [f"<!-- benchmarks/math_false_negatives.py, {datetime.date.today()}, {describe_machine()} -->", "",
             f"Genuine correct answers: {len(GOLDS)} golds x {sum(len(n) for _, n in GOLDS)} notations x {len(STYLES)} styles "
             f"= {len(table)} completions.", "", "| scorer | paid 1.0 | false negatives | FN rate |", "|---|---:|---:|---:|"]
    for name, scores in scorers.items():
        misses = sum(1 for s in scores if s != 1.0)
        lines.append(f"| {name} | {len(scores) - misses} | {misses} | {100 * misses / len(scores):.1f} % |")
    lines += ["", "Misses by style (polyreward / Math-Verify / Math-Verify `$gold$` / TRL):", "",
              "| style | " + " | ".join(["polyreward", "MV", "MV $gold$", "TRL"]) + " |", "|---|---:|---:|---:|---:|"]
    for style in STYLES:
        counts = [sum(1 for row, s in zip(table, scores) if row[2] == style and s != 1.0) for scores in scorers.values()]
        lines.append(f"| {style} | " + " | ".join(str(c) for c in counts) + f" (of {sum(1 for r in table if r[2] == style)}) |")
    ours = next(iter(scorers.values()))
    lines += ["", "polyreward's misses (gold, notation, style):", ""]
    lines += [f"- {_code(row[0])} {_code(row[1])} {row[2]}" for row, s in zip(table, ours) if s != 1.0] or ["- none"]
    if args.show_misses:
        for name, scores in list(scorers.items())[1:]:
            lines += ["", f"{name} misses:", ""]
            lines += [f"- {_code(row[0])} {_code(row[1])} {row[2]}" for row, s in zip(table, scores) if s != 1.0]

    peer = _peer_rows()
    peer_golds, peer_preds, expected, corrected = ([r[i] for r in peer] for i in range(4))
    agreeing = {
        "polyreward `math_accuracy` (defaults: guard on)": polyreward_scores(peer_golds, peer_preds),
        "polyreward `math_accuracy`, `work_avoidance: false`": polyreward_scores(peer_golds, peer_preds, work_avoidance=False),
        "Math-Verify itself (default settings)": math_verify_scores(peer_golds, peer_preds),
    }
    lines += ["", f"Math-Verify 0.9.0's own test rows (tests/test_math_peer_cases.py, {len(peer)} rows):", "",
              "| scorer | agrees with Math-Verify's expectation | agrees with the corrected label |", "|---|---:|---:|"]
    for name, scores in agreeing.items():
        agree = [sum(1 for s, e in zip(scores, labels) if (s == 1.0) == bool(e)) for labels in (expected, corrected)]
        lines.append(f"| {name} | {agree[0]} / {len(peer)} | {agree[1]} / {len(peer)} |")
    lines += ["", f"Corrected labels: {sum(1 for e, c in zip(expected, corrected) if e != c)} rows whose expectation is a known "
              "Math-Verify error (issues #14 and #60, the `\\mathrm{e}` false positive, the `(C)` letter it misses) take the "
              "right answer; the other expectations stand, including those that hold only under a non-default Math-Verify "
              "configuration and the decimal commas polyreward does not read."]
    guard, plain = list(agreeing.values())[:2]
    lines += ["", "Rows the guard changes (Math-Verify's expectation 1, refused as an operation on numbers):", ""]
    lines += [f"- gold {_code(g)} pred {_code(p)}" for g, p, e, a, b in zip(peer_golds, peer_preds, expected, guard, plain) if a != b] or ["- none"]
    lines += ["", f"Wall time {time.perf_counter() - started:.0f} s."]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "math_false_negatives.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
