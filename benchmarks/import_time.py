"""CPU time of ``import polyreward`` against ``import math_verify`` and ``import trl.rewards``, in the same run.

``import polyreward`` loads each public name on first use, so the table also times the layers a command pulls in:
``polyreward.config`` (the config models: numpy, pydantic, YAML), ``polyreward.pipeline`` (the scorer) and
``polyreward.cli.score`` with ``polyreward.runners.score_file`` (what ``polyreward score`` imports before it reads a row).

Each import runs in a fresh interpreter (``python -c``), ``--repeats`` times, alternating the modules so a busy
neighbour on the machine slows them alike; the figure is the child's CPU time (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)``) minus that of an empty interpreter measured the same way, median over the
repeats. The child also reports whether pandas or torch ended up in ``sys.modules``. Results go to
``benchmarks/results/import_time.md`` with the date and the machine::

    python benchmarks/import_time.py --repeats 7
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine_info import describe_machine  # noqa: E402

MODULES = ["polyreward", "polyreward.config", "polyreward.pipeline", "polyreward.cli.score, polyreward.runners.score_file",
           "math_verify", "trl.rewards"]
PROBE = "import sys; import {module}; print(__import__('json').dumps({{m: m in sys.modules for m in ('pandas', 'torch')}}))"
EMPTY = "import sys; print(__import__('json').dumps({}))"


def child_cpu(code: str) -> tuple[float, dict]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "import_time.md"))
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {m: [] for m in ["(empty interpreter)", *MODULES]}
    loaded: dict[str, dict] = {}
    for _ in range(args.repeats):
        times["(empty interpreter)"].append(child_cpu(EMPTY)[0])
        for module in MODULES:
            cpu, seen = child_cpu(PROBE.format(module=module))
            times[module].append(cpu)
            loaded[module] = seen
    base = statistics.median(times["(empty interpreter)"])
    lines = [
        "# `import polyreward` CPU time",
        "",
        f"{datetime.date.today().isoformat()} · {describe_machine()} · load average {os.getloadavg()[0]:.1f} at the end · "
        f"fresh interpreter per import, {args.repeats} repeats "
        "alternating the modules, median CPU time (user + system) minus an empty interpreter's "
        f"({base * 1000:.0f} ms) · `python benchmarks/import_time.py --repeats {args.repeats}`",
        "",
        "| import | CPU time (ms) | min - max (ms) | pandas loaded | torch loaded |",
        "|---|---:|---:|---|---|",
    ]
    for module in MODULES:
        values = [t - base for t in times[module]]
        lines.append(f"| `import {module}` | {statistics.median(values) * 1000:.0f} | {min(values) * 1000:.0f} - "
                     f"{max(values) * 1000:.0f} | {'yes' if loaded[module]['pandas'] else 'no'} | "
                     f"{'yes' if loaded[module]['torch'] else 'no'} |")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
