"""CPU seconds of the rewritten parsers against the regexes they replace, on adversarial completions.

The released Clinical-R1 format regex ``^<think>.*?</think>\\s*<answer>(.*?)</answer>$`` (DOTALL) backtracks
over every ``</think>``: quadratic. ``polyreward.rewards.crpo.format_parts`` returns the same match with forward
literal searches. The same for the summary-box regex ``(\\\\boxed\\{.*?\\})`` over unclosed boxes, and the KG
extractor's long clause (every mention used to scan every candidate). CPU time of this process
(``time.process_time``), one call per size, the regexes only up to the size where they take seconds::

    python benchmarks/parsing_linear.py [--markdown benchmarks/results/parsing_linear.md]
"""

from __future__ import annotations

import argparse
import datetime
import re
import time
from pathlib import Path

from polyreward.rewards.crpo import _BOX_GROUP, _FORMAT, boxed_groups, format_parts
from polyreward.verifiers import radiology_kg

from machine_info import describe_machine  # benchmarks/machine_info.py (scripts run from this folder)


def cpu(fn, text: str) -> float:
    started = time.process_time()
    fn(text)
    return time.process_time() - started


def think_ends(n: int) -> str:
    # every "</think><answer>" opens an answer the lazy (.*?)</answer>$ then scans to the end for
    return "<think>" + "</think><answer>" * (n // 17) + "</answer>x"


def think_closers(n: int) -> str:
    return "<think>" + "</think> " * (n // 9) + "</answer>"


def unclosed_boxes(n: int) -> str:
    return "\\boxed{" * (n // 7)


def long_clause(n: int) -> str:
    unit = "small right pleural effusion and mild cardiomegaly near the left lung base with edema "
    return unit * (n // len(unit))


CASES = [
    ("crpo_format, repeated </think> then </answer>", think_closers, lambda t: _FORMAT.search(t), format_parts, (4_000, 16_000, 64_000)),
    ("crpo_format, repeated </think><answer>", think_ends, lambda t: _FORMAT.search(t), format_parts, (4_000, 16_000, 64_000)),
    ("crpo_format summary box, unclosed \\boxed{", unclosed_boxes, _BOX_GROUP.findall, boxed_groups, (8_000, 32_000, 64_000)),
    ("kg extractor, one long clause", long_clause, None, lambda t: radiology_kg._extract(t, "present", radiology_kg.default_lexicon()), ()),
]
SIZES = (10_000, 100_000, 1_000_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", default=None)
    args = parser.parse_args()
    lines = [f"# Linear-time parsers vs the regexes they replace ({datetime.date.today()}, {describe_machine()})", "",
             "CPU seconds of one call (time.process_time). `python benchmarks/parsing_linear.py`.", "",
             "| case | implementation | input | CPU s |", "|---|---|---|---|"]
    for name, make, old, new, old_sizes in CASES:
        for n in old_sizes:
            lines.append(f"| {name} | released regex | {n:,} chars | {cpu(old, make(n)):.3f} |")
        for n in SIZES:
            lines.append(f"| {name} | polyreward | {n:,} chars | {cpu(new, make(n)):.4f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
