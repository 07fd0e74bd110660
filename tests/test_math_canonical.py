"""Exact canonical forms (no sympy) for surds, multiples of pi, trig values, intervals, sets, tuples,
matrices and linear equations: a table of (gold, prediction, decided) rows, the same rows checked
against Math-Verify 0.9.0 itself (``math_verify.verify``; Apache-2.0, huggingface/Math-Verify
``src/math_verify/grader.py``), and property tests against exact values."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.verifiers.math import verify_batch, verify_latex
from polyreward.verifiers.math_canonical import canonical, canonical_equal

# (gold, prediction, True/False when decided here, None when left to Math-Verify)
ROWS = [
    # surds and radicals
    ("\\frac{3\\sqrt{2}}{4}", "3\\sqrt{2}/4", True),
    ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}", True),
    ("\\frac{3\\sqrt{2}}{4}", "\\sqrt{\\frac{9}{8}}", True),
    ("2\\sqrt{3}", "\\sqrt{12}", True),
    ("3\\sqrt{2}", "2\\sqrt{2}+\\sqrt{2}", True),
    ("\\frac{3\\sqrt{2}}{4}", "\\frac{3\\sqrt{3}}{4}", False),
    ("\\frac{3\\sqrt{2}}{4}", "\\frac{3}{4}", False),
    ("1024", "2^{10}", True),
    ("\\sqrt{2}+\\sqrt{3}", "\\sqrt{3}+\\sqrt{2}", None),  # unlike terms
    ("\\frac{\\sqrt{2}}{2}", "0.7071", None),  # a decimal: Math-Verify's rounding decides
    # multiples of pi
    ("\\frac{3\\pi}{4}", "\\frac{3}{4}\\pi", True),
    ("\\frac{3\\pi}{4}", "0.75\\pi", True),
    ("\\frac{3\\pi}{4}", "\\pi \\cdot \\frac{3}{4}", True),
    ("\\frac{3\\pi}{4}", "\\frac{4\\pi}{3}", False),
    ("\\frac{3\\pi}{4}", "\\frac{3}{4}", False),
    # trig values at rational multiples of pi
    ("\\frac{1}{2}", "\\sin\\left(\\frac{\\pi}{6}\\right)", True),
    ("\\frac{\\sqrt{3}}{2}", "\\cos\\frac{\\pi}{6}", True),
    ("\\sqrt{3}", "\\tan(\\pi/3)", True),
    ("-1", "\\sin\\left(\\frac{3\\pi}{2}\\right)", True),
    ("-1", "\\cos(2\\pi)", False),
    ("\\frac{1}{2}", "\\sin(1)", None),
    # intervals and tuples
    ("(1, 2]", "\\left(1,2\\right]", True),
    ("(1, 2]", "(1, 2)", False),
    ("(-\\infty, 3)", "(-\\infty,3)", True),
    ("(-\\infty, 3)", "(-\\infty, 3]", False),
    ("(1, \\frac{1}{2})", "( 1 , 1/2 )", True),
    ("(1, 2, 3)", "(3, 2, 1)", False),
    ("(1, 2) \\cup (3, 4)", "(3, 4) \\cup (1, 2)", True),  # a union of intervals, in any order
    ("(1, 2) \\cup (3, 4)", "(1, 2) \\cup (3, 5)", False),
    ("(1, 2) \\cup (3, 4)", "(1, 2)", None),  # different shapes
    # finite sets
    ("\\{1, 2, 3\\}", "\\{3,2,1\\}", True),
    ("\\{1, 2\\}", "\\{1, 3\\}", False),
    ("\\{1, 2\\}", "1, 2", None),  # different shapes
    # matrices
    ("\\begin{pmatrix}9 & -6\\\\3 & -7\\end{pmatrix}", "\\begin{bmatrix}9&-6\\\\3&-7\\end{bmatrix}", True),
    ("\\begin{pmatrix}9 & -6\\\\3 & -7\\end{pmatrix}", "\\begin{pmatrix}9 & 3\\\\-6 & -7\\end{pmatrix}", False),
    ("\\begin{pmatrix}1 & 2\\end{pmatrix}", "\\begin{pmatrix}1 \\\\ 2\\end{pmatrix}", False),
    ("\\begin{vmatrix}1 & 2\\\\3 & 4\\end{vmatrix}", "-2", None),  # a determinant, not a matrix
    # linear equations
    ("y = 4x + 5", "4x - y + 5 = 0", True),
    ("y = 4x + 5", "8x - 2y + 10 = 0", True),
    ("y = 4x + 5", "x = (y-5)/4", True),
    ("y = 4x + 5", "y = 5x + 5", False),
    ("x = 5", "y = 5", False),
    ("x^2 - 1 = 0", "x^2 - 1 = 0", None),  # not linear
    ("y = 0.5x", "2y = x", None),  # decimal coefficient
    # a number next to a number or a fraction is no product: mixed numbers (3\frac{1}{2} = 7/2) go to Math-Verify
    ("\\frac{3}{2}", "3\\frac{1}{2}", None),
    ("\\frac{7}{2}", "3 \\frac12", None),
    ("6", "2 3", None),
    ("(\\frac{3}{2}, 1)", "(3\\frac{1}{2}, 1)", None),
    ("2\\sqrt{3}", "2 \\sqrt{3}", True),
]


@pytest.mark.parametrize("gold, pred, decided", ROWS)
def test_canonical_decisions(gold, pred, decided):
    assert canonical_equal(canonical(gold), canonical(pred)) is decided


@pytest.mark.parametrize("gold, pred, decided", [row for row in ROWS if row[2] is not None])
def test_math_verify_agrees_with_each_decision(gold, pred, decided):
    # verify_latex is Math-Verify's parse + verify (never the canonical path): the exact answer matches it
    assert (verify_latex(gold, pred).score == 1.0) is decided


def test_decided_pairs_never_reach_the_pool():
    golds, preds = zip(*[(g, p) for g, p, d in ROWS if d is not None])

    class NoPool:
        def map(self, *args, **kwargs):
            raise AssertionError("a canonical pair was sent to the pool")

    verdicts = verify_batch([f"\\boxed{{{p}}}" for p in preds], list(golds), pool=NoPool())
    assert all(v.rule in ("canonical", "polynomial", "numeric") for v in verdicts), [v.describe() for v in verdicts]
    assert [v.score == 1.0 for v in verdicts] == [d for _, _, d in ROWS if d is not None]


SQUARE_FREE = [1, 2, 3, 5, 6, 7, 10]


def _latex(q: Fraction, s: int, k: int, style: int) -> str:
    root = f"\\sqrt{{{s}}}" if s > 1 else ""
    pi = "\\pi" if k else ""
    sign = "-" if q < 0 else ""
    a, b = abs(q.numerator), q.denominator
    if style == 0:
        return f"{sign}\\frac{{{a}{root}{pi}}}{{{b}}}"
    if style == 1:
        return f"{sign}\\frac{{{a}}}{{{b}}}{root}{pi}"
    return f"{sign}{a}{root}{pi}/{b}"


surds = st.tuples(st.fractions(min_value=-50, max_value=50, max_denominator=12), st.sampled_from(SQUARE_FREE), st.integers(0, 1))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(surds, surds, st.integers(0, 2), st.integers(0, 2))
def test_surd_equality_is_value_equality(a, b, style_a, style_b):
    form_a, form_b = canonical(_latex(*a, style_a)), canonical(_latex(*b, style_b))
    assert form_a is not None and form_b is not None
    value = lambda q, s, k: float(q) * math.sqrt(s) * math.pi**k  # noqa: E731
    assert canonical_equal(form_a, form_b) is math.isclose(value(*a), value(*b), rel_tol=1e-12, abs_tol=1e-300)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(alphabet="0123456789\\{}()[]^_+-*/=,. &sqrtfracpiincosxy", max_size=60))
def test_hostile_text_never_raises(text):
    form = canonical(text)
    assert form is None or form[0] in ("surd", "interval", "tuple", "set", "matrix", "equation")


# --- the numeric probe in the worker (sympy side) -------------------------------------------------

# (gold, prediction, rule that decides, score): the probe only ever rejects; equal pairs go on to verify
PROBE_ROWS = [
    ("\\sin(2x)", "2\\sin(x)\\cos(x)", "math_verify", 1.0),
    ("\\sin(2x)", "2\\sin(x)", "numeric_probe", 0.0),
    ("e^{x}+1", "e^{x}-1", "numeric_probe", 0.0),
    ("\\ln(6)", "\\ln(2)+\\ln(3)", "math_verify", 1.0),
    ("\\ln(6)", "\\ln(5)", "numeric_probe", 0.0),
    ("\\frac{1}{3}", "0.333333", "math_verify", 1.0),  # Math-Verify's rounding: never rejected here
    ("x", "y", "math_verify", 0.0),  # lone symbols follow Math-Verify's symbol rules
]


@pytest.mark.parametrize("gold, pred, rule, score", PROBE_ROWS)
def test_numeric_probe(gold, pred, rule, score):
    verdict = verify_latex(gold, pred)
    assert (verdict.rule, verdict.score) == (rule, score)


@pytest.mark.parametrize("gold, pred, rule, score", [r for r in PROBE_ROWS if r[2] == "numeric_probe"])
def test_math_verify_also_rejects_what_the_probe_rejects(gold, pred, rule, score):
    from math_verify import parse, verify

    assert not verify(parse(f"${gold}$"), parse(f"${pred}$"))
