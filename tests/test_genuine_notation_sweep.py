"""The genuine-answer sweep of ``benchmarks/math_false_negatives.py`` as a test (issue #32: no new false negatives on
the project's own labelled sets): 28 golds x 134 notations x 8 answer styles, every one a correct answer, all paid 1.0
by ``math_accuracy`` at its defaults. Found needed at stop 51, when a merged structure reading refused ``#### 3, 2``
for the gold ``2, 3`` and only the benchmark run saw it."""

from __future__ import annotations

from benchmark_scripts import load_benchmark

sweep = load_benchmark("math_false_negatives")


def test_every_genuine_notation_in_every_style_is_paid():
    rows = sweep.rows()
    assert len(rows) == 1072
    scores = sweep.polyreward_scores([gold for gold, _, _, _ in rows], [completion for _, _, _, completion in rows])
    missed = [(gold, notation, style) for (gold, notation, style, _), score in zip(rows, scores) if score != 1.0]
    assert not missed, missed
