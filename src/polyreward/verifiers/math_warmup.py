"""Imported once in the worker pool's forkserver: one Math-Verify parse and verify per family of answer shapes.

sympy and latex2sympy import much of themselves lazily on first use (~300 ms of CPU). Paying that in
the forkserver means every worker forked from it, including each replacement after a timeout kill,
starts warm instead of spending it inside its first item's timeout.
"""

from __future__ import annotations

from polyreward.verifiers.math import verify_latex

for _gold, _pred in (  # ~0.25 s of CPU once, instead of in every worker's first items
    ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}"),  # the LaTeX grammar, simplify
    ("(1, 2]", "\\{1, 2\\}"),  # sets and intervals
    ("y = 2x + 1", "2x - y + 1 = 0"),  # relations and solve
):
    verify_latex(_gold, _pred)
