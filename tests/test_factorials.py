"""Factorials and trailing punctuation in math answers: a ``!`` after a number or bracket is a factorial, not
the end of a sentence.

Table in the style of Math-Verify's regression tests (huggingface/Math-Verify ``tests/test_all.py``:
``compare_strings(gold, pred) == expected`` rows); the ``1/2004!`` vs ``1/2006!`` row is Math-Verify issue #14
(commented out in its ``tests/test_yujianll.py``). Plain Math-Verify 0.9.0 agrees with the rows marked
``mv`` (checked in :func:`test_plain_math_verify_agrees_where_it_can`); the others are fixes on top of it.
"""

from __future__ import annotations

import time

import pytest

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math import raw_math_verify
from polyreward.verifiers.math_normalize import euler_imaginary_unit, normalize_answer, size_problem, strip_trailing_punctuation

# (gold, completion, expected score)
FACTORIAL_TABLE = [
    # a factorial gold never accepts its argument
    ("10!", r"The answer is $\boxed{10}$.", 0.0),
    ("3!", r"\boxed{3}", 0.0),
    ("5!", r"\boxed{5!!}", 0.0),
    # ... and accepts its value or the same factorial
    ("10!", r"\boxed{3628800}", 1.0),
    ("10!", r"\boxed{10!}", 1.0),
    ("4!", r"\boxed{24}", 1.0),
    # a factorial answer against a number gold
    ("6", r"So the answer is \boxed{3!}", 1.0),
    ("24", r"\boxed{4!}", 1.0),
    ("120", r"The answer is $5!$", 1.0),
    ("7", r"\boxed{3!}", 0.0),
    # Math-Verify issue #14: tiny reciprocals of factorials differ
    (r"\frac{1}{2004!}", r"\boxed{\frac{1}{2006!}}", 0.0),
    ("1/2006!", r"\boxed{1/2004!}", 0.0),
    (r"\frac{1}{2006!}", r"\boxed{\frac{1}{2006!}}", 1.0),
    # an astronomically large factorial is refused (no hang), never read as its argument
    ("10000000000", r"\boxed{(10^{10})!}", 0.0),
    ("10000000000", r"\boxed{10000000000}", 1.0),
    # sentence punctuation after a plain answer is still punctuation
    ("5", "The answer is 5!", 1.0),
    ("42", r"\boxed{42}.", 1.0),
    ("7", "The answer is 7. Let me know if you need anything else!", 1.0),
    # a double factorial of an integer is n(n-2)(n-4)..., not (n!)! as Math-Verify's parser reads it
    ("15", r"\boxed{5!!}", 1.0),
    ("5!!", r"\boxed{15}", 1.0),
    ("945", r"The answer is $9!!$.", 1.0),
    ("(5!)!", r"\boxed{5!!}", 0.0),
    ("120", r"\boxed{5!!}", 0.0),
    ("5!!", r"\boxed{120}", 0.0),
    # factorials of factorials and of powers are refused before sympy unless small: (3!)! = 720
    ("720", r"\boxed{(3!)!}", 1.0),
    ("720", r"\boxed{3!!!}", 0.0),  # ((3!)!)! is 720!, not 720
    ("1", r"\boxed{(10!)!}", 0.0),
    ("1", r"\boxed{\left(10!\right)!}", 0.0),
    ("1", r"\boxed{10!!!}", 0.0),
    ("1", r"\boxed{10^{10}!}", 0.0),
    # Euler's identity: the i in an exponent of e is the imaginary unit
    ("-1", r"\boxed{e^{i\pi}}", 1.0),
    ("-1", r"\boxed{e^{\pi i}}", 1.0),
    ("-1", r"\boxed{\mathrm{e}^{i \pi}}", 1.0),
    ("1", r"\boxed{e^{i\pi}}", 0.0),
]


@pytest.fixture(scope="module")
def reward():
    # equivalence rows: "\boxed{3!}" equals 6; the default work_avoidance guard (an unevaluated factorial for a number
    # gold is no credit) is tested in test_integrity_math.py
    return MathAccuracy(timeout=10.0, work_avoidance=False)


def test_factorial_table(reward):
    golds = [g for g, _, _ in FACTORIAL_TABLE]
    completions = [c for _, c, _ in FACTORIAL_TABLE]
    out = reward.evaluate([None] * len(golds), completions, answer=golds)
    wrong = [
        f"gold={g!r} pred={c!r} expected={e} got={s} ({why})"
        for (g, c, e), s, why in zip(FACTORIAL_TABLE, out.scores, out.reasons)
        if s != e
    ]
    assert not wrong, "\n".join(wrong)
    # (10^{10})! is refused before sympy, not left to the hard timeout (no row timed out; a count, not a stopwatch)
    assert not [r for r in out.reasons if r.startswith("timeout")], out.reasons
    assert "factorial" in out.reasons[golds.index("10000000000")]


@pytest.mark.parametrize(
    "gold, pred, expected",
    [("10!", "3628800", True), ("6", "3!", True), ("10!", "10", False), (r"\frac{1}{2006!}", r"\frac{1}{2006!}", True)],
)
def test_plain_math_verify_agrees_where_it_can(gold, pred, expected):
    assert raw_math_verify(f"${gold}$", f"${pred}$") is expected


@pytest.mark.parametrize(
    "text, stripped",
    [
        ("10!", "10!"),
        ("10!.", "10!"),
        ("(n+1)!", "(n+1)!"),
        ("5!!", "5!!"),
        (r"\frac{1}{2006!}", r"\frac{1}{2006!}"),
        ("42.", "42"),
        ("42 !", "42 "),
        ("x = 3;", "x = 3"),
        (r"5\,", "5"),  # a spacing command goes whole, never leaving a lone backslash
        (r"5\!", "5"),
        ("5\\\\,", "5\\\\"),  # a row break then a comma: only the comma
        ("!", ""),
        ("", ""),
    ],
)
def test_strip_trailing_punctuation_keeps_factorials(text, stripped):
    assert strip_trailing_punctuation(text) == stripped


@pytest.mark.parametrize(
    "text, normalized",
    [("10!", "10!"), ("$3!$", "3!"), ("**5!**", "5!"), (r"\boxed{x}", r"\boxed{x}"), ("e^{i\\pi}", "e^{I\\pi}"), ("i", "i"), ("e^{x+i}", "e^{x+I}"), ("e^{\\sin x}", "e^{\\sin x}"),
     ("5!!", "15"), ("9!!", "945"), (r"\frac{1}{5!!}", r"\frac{1}{(15)}"), ("n!!", "n!!"), ("5!!!", "5!!!")],
)
def test_normalize_answer(text, normalized):
    assert normalize_answer(text) == normalized


def test_euler_rewrite_is_bounded_on_unclosed_exponents():
    text = "e^{" * 20_000 + "i"
    start = time.process_time()  # CPU seconds, not wall time (the machine may be loaded)
    assert euler_imaginary_unit(text) == text
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize(
    "text, refused",
    [("(10^{10})!", True), ("(123456)!", True), ("(3+2)!", False), ("(n+1)!", False), ("9000!", True), ("120!", False), ("{2^{5}}!", True),
     ("(10!)!", True), (r"\left(10!\right)!", True), ("(3!)!", False), ("((3!)!)!", False), ("10!!!", True), ("3!!!", False),
     ("1001!!", True), ("10^{10}!", True), ("x^{2}!", False), ("(2n-1)!!", False)],
)
def test_size_guard_refuses_huge_factorials(text, refused):
    assert (size_problem(text) is not None) is refused
