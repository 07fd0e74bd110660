"""Imported once in the worker pool's forkserver: one Math-Verify parse and verify per answer shape.

sympy and latex2sympy import much of themselves lazily on first use (~300 ms of CPU). Paying that in
the forkserver means every worker forked from it, including each replacement after a timeout kill,
starts warm instead of spending it inside its first item's timeout.
"""

from __future__ import annotations

from polyreward.verifiers.math import verify_latex

for _gold, _pred in (
    ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}"),
    ("x^2+3x", "x(x+3)"),
    ("(1, 2]", "\\{1, 2\\}"),
    ("y = 2x + 1", "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"),
    ("\\sin(\\pi/6)", "1/2"),
):
    verify_latex(_gold, _pred)
