"""One line describing the machine a benchmark ran on (shared by the benchmark scripts)."""

from __future__ import annotations

import os
import platform


def describe_machine() -> str:
    """E.g. "2-core AMD EPYC 7B13, 24 GB, Python 3.11.7" (Linux /proc files when present)."""
    cpu, mem = platform.processor() or platform.machine(), ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
        kb = int(next(line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")))
        mem = f", {round(kb / 1024 ** 2)} GB"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{os.cpu_count()}-core {cpu}{mem}, Python {platform.python_version()}"
