"""Print the README's set-up commands, one per line, so CI runs exactly what a newcomer reads.

The set-up section is the first level-2 heading that starts with "Set-up"; each fenced ```bash
block inside it is one command. `.ci/run` executes them in order in a brand-new virtual
environment, and tests/test_readme.py checks that there are exactly two.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path


def setup_commands(readme: str) -> list[str]:
    section = re.split(r"^## ", readme, flags=re.M)
    body = next((s for s in section if s.startswith("Set-up")), None)
    if body is None:
        raise SystemExit("README.md has no '## Set-up' section")
    blocks = re.findall(r"^```bash\n(.*?)^```", body, flags=re.M | re.S)
    return [" ".join(line.strip() for line in b.strip().splitlines() if not line.lstrip().startswith("#")) for b in blocks]


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    for command in setup_commands((root / "README.md").read_text(encoding="utf-8")):
        print(command)
    sys.exit(0)
