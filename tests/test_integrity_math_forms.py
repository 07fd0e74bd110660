"""The work-avoidance guard judges computation, not notation, and plain answers in ordinary notations are read right.

Issue 32: ``work_avoidance`` (on by default) called ``\\boxed{\\text{42}}``, ``\\textbf{5}``, ``\\boxed{- 5}``,
``10,\\!000``, ``90^\\circ``, ``12\\text{ cm}^2``, ``\\cfrac{1}{3}`` and ``\\displaystyle 42`` unevaluated, and
``x > 3`` for ``(3, \\infty)``, ``\\textbf{(B) } 12`` for ``\\text{(B)}``, ``0.\\overline{3}`` for 1/3 and "infinitely
many" for ``\\infty`` were missed. Table tests in both directions (the plain answer paid, the work avoided or the
wrong answer still refused) with realistic model output, and property tests of the read-through
(:func:`polyreward.verifiers.math_notation.read_through`).
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.engine import WorkerPool
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math import lettered_choice, textual_meaning, verify_batch
from polyreward.verifiers.math_canonical import canonical
from polyreward.verifiers.math_normalize import parse_numeral, repeating_decimal
from polyreward.verifiers.math_notation import read_through


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(workers=1, timeout=10.0) as p:
        yield p


ARITHMETIC = "Calculate 478 / 1 + -682."
HALVE = "What is 84 divided by 2?"

# (completion, gold, expected score, prompt) -- scored by math_accuracy with default parameters (the guard on)
PLAIN = [
    ("So the answer is $\\boxed{\\text{42}}$.", "42", 1.0, ""),
    ("The final answer is $\\boxed{\\textbf{5}}$.", "5", 1.0, ""),
    ("**Answer:** $\\mathbf{42}$", "42", 1.0, ""),
    ("Therefore $\\boxed{\\mathrm{42}}$", "42", 1.0, ""),
    ("$$\\boxed{\\displaystyle 42}$$", "42", 1.0, ""),
    ("Thus the ratio is $\\boxed{\\cfrac{1}{3}}$.", "\\frac{1}{3}", 1.0, ""),
    ("The population is $\\boxed{10,\\!000}$.", "10000", 1.0, ""),
    ("The population is $\\boxed{10\\,000}$.", "10000", 1.0, ""),
    ("The population is $\\boxed{10{,}000}$.", "10000", 1.0, ""),
    ("The population is $\\boxed{11,\\! 111,\\! 111,\\! 100}$.", "11111111100", 1.0, ""),
    ("The area is $\\boxed{12\\text{ cm}^2}$.", "12", 1.0, ""),
    ("The speed is $\\boxed{5 \\mathrm{m/s}}$.", "5", 1.0, ""),
    ("She paid $\\boxed{\\$5}$.", "5", 1.0, ""),
    ("#### 5 dollars", "5", 1.0, ""),
    ("So $\\angle ABC = \\boxed{90^\\circ}$.", "90", 1.0, ""),
    ("So the angle is \\boxed{90°}.", "90", 1.0, ""),
    ("So the angle is $\\boxed{90^{\\circ}}$.", "90", 1.0, ""),
    ("The result is $\\boxed{- 5}$.", "-5", 1.0, ""),
    ("The result is $\\boxed{\\left( 3 \\right)}$.", "3", 1.0, ""),
    ("Final Answer: The final answer is $\\textbf{1,234}$. I hope it is correct.", "1234", 1.0, ""),
    ("<answer>\\text{7}</answer>", "7", 1.0, ""),
    ("The value is $\\sqrt{17} \\approx 4.12$, so \\boxed{\\sqrt{17}}", "\\sqrt{17}", 1.0, ""),
    ("84 / 2 = 42, so \\boxed{42}", "42", 1.0, HALVE),
    # equivalence read right
    ("The inequality holds for $\\boxed{x > 3}$.", "(3, \\infty)", 1.0, ""),
    ("So $\\boxed{x \\geq 3}$.", "[3, \\infty)", 1.0, ""),
    ("So $\\boxed{x \\le 3}$.", "(-\\infty, 3]", 1.0, ""),
    ("Therefore \\boxed{3 < x < 5}.", "(3, 5)", 1.0, ""),
    ("Therefore \\boxed{-1 \\le x < 2}.", "[-1, 2)", 1.0, ""),
    ("So $x \\in \\boxed{(3, \\infty)}$.", "(3, \\infty)", 1.0, ""),
    ("The roots are \\boxed{x = 2, x = 3}.", "2, 3", 1.0, ""),
    ("The roots are \\boxed{x \\in \\{2, 3\\}}.", "2, 3", 1.0, ""),
    ("The roots are \\boxed{x = 2 \\text{ or } x = 3}.", "2, 3", 1.0, ""),
    ("The answer is $\\boxed{\\textbf{(B) } 12}$.", "\\text{(B)}", 1.0, ""),
    ("$\\boxed{\\text{(D)}\\ \\frac{1}{2}}$", "D", 1.0, ""),
    ("As a decimal, $\\boxed{0.\\overline{3}}$.", "\\frac{1}{3}", 1.0, ""),
    ("As a decimal, $\\boxed{0.(3)}$.", "1/3", 1.0, ""),
    ("As a decimal, $\\boxed{0.\\dot{3}}$.", "\\frac{1}{3}", 1.0, ""),
    ("As a decimal, $\\boxed{0.1\\overline{6}}$.", "\\frac{1}{6}", 1.0, ""),
    ("About $\\boxed{1.5e8}$ km.", "150000000", 1.0, ""),
    ("About $\\boxed{1.5E8}$ km.", "150000000", 1.0, ""),
    ("About $\\boxed{1.5 \\times 10^8}$ km.", "150000000", 1.0, ""),
    ("There are \\boxed{\\text{infinitely many}} solutions.", "\\infty", 1.0, ""),
    ("There are infinitely many solutions: \\boxed{\\infty}", "\\text{infinitely many}", 1.0, ""),
    ("The system has \\boxed{\\text{infinitely many solutions}}.", "\\text{infinitely many}", 1.0, ""),
    ("The equation has \\boxed{\\text{no solution}}.", "\\emptyset", 1.0, ""),
    ("\\boxed{\\text{None}}", "\\text{no solutions}", 1.0, ""),
    # a spot-check of forms outside the benchmark's table found these five misses (now read)
    ("The temperature is $\\boxed{45^{\\circ}\\text{C}}$.", "45", 1.0, ""),
    ("The volume is $\\boxed{6\\text{ m}^3}$.", "6", 1.0, ""),
    ("About $\\boxed{1\\text{ million}}$ people.", "1000000", 1.0, ""),
    ("The rope is $\\boxed{5\\;\\text{m}}$ long.", "5", 1.0, ""),
    ("It reads $\\boxed{120^\\circ \\text{F}}$.", "120", 1.0, ""),
]

REFUSED = [
    # remaining operations on numbers (work avoided), whatever wraps them
    ("\\boxed{2 \\times 21}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\text{2 \\times 21}}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\displaystyle 2 \\times 21}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\frac{84}{2}}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\textbf{\\frac{84}{2}}}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\cfrac{84}{2}}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\sqrt{1764}}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{\\left( 9+1 \\right)}", "10", 0.0, "", "unevaluated"),
    ("\\boxed{4!\\text{ cm}}", "24", 0.0, "", "unevaluated"),
    ("\\boxed{2^{10}\\text{ cm}}", "1024", 0.0, "", "unevaluated"),
    ("\\boxed{\\frac{\\pi}{\\pi}}", "1", 0.0, "", "unevaluated"),
    ("\\boxed{- 5 + 47}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{5\\text{ squared}}", "25", 0.0, "", "unevaluated"),
    # the prompt's own expression, disguised by formatting
    ("\\boxed{478 / 1 + -682}", "-204", 0.0, ARITHMETIC, "unevaluated"),
    ("\\boxed{\\textbf{478 / 1 + -682}}", "-204", 0.0, ARITHMETIC, "unevaluated"),
    ("\\boxed{\\displaystyle 478 \\div 1 + -682}", "-204", 0.0, ARITHMETIC, ""),
    # wrong answers in the same notations stay wrong
    ("\\boxed{\\text{43}}", "42", 0.0, "", "not_equal"),
    ("\\boxed{91^\\circ}", "90", 0.0, "", "not_equal"),
    ("\\boxed{10,\\!001}", "10000", 0.0, "", "not_equal"),
    ("\\boxed{x > 4}", "(3, \\infty)", 0.0, "", "not_equal"),
    ("\\boxed{x \\ge 3}", "(3, \\infty)", 0.0, "", "not_equal"),
    ("\\boxed{x < 3}", "(3, \\infty)", 0.0, "", "not_equal"),
    ("\\boxed{3 \\le x < 5}", "(3, 5)", 0.0, "", "not_equal"),
    ("\\boxed{x = 2, x = 4}", "2, 3", 0.0, "", "not_equal"),
    ("$\\boxed{\\textbf{(C) } 12}$", "\\text{(B)}", 0.0, "", "not_equal"),
    ("$\\boxed{(A)\\ 3 \\quad (B)\\ 12}$", "\\text{(B)}", 0.0, "", ""),  # two lettered choices: a hedge
    ("\\boxed{0.\\overline{34}}", "\\frac{1}{3}", 0.0, "", "not_equal"),
    ("\\boxed{1.5e7}", "150000000", 0.0, "", "not_equal"),
    ("\\boxed{\\text{no solution}}", "\\infty", 0.0, "", "not_equal"),
    ("\\boxed{\\text{finitely many}}", "\\text{infinitely many}", 0.0, "", "not_equal"),
    ("\\boxed{\\text{not infinitely many}}", "\\infty", 0.0, "", ""),
    ("\\boxed{42 \\text{ (or 43)}}", "42", 0.0, "", "no_answer"),  # a hedge inside the box is no answer
    # candidate lists and hedges in the newly read notations
    ("\\boxed{42\\text{ cm}, 43\\text{ cm}}", "42", 0.0, "", "not_equal [several values"),  # Math-Verify pays this
    ("\\boxed{42 \\text{ apples}, 43 \\text{ pears}}", "42", 0.0, "", "not_equal [several values"),
    ("\\boxed{\\text{42, 43}}", "42", 0.0, "", "not_equal [several values"),
    ("\\boxed{41\\text{ apples and } 42}", "42", 0.0, "", "not_equal [several values"),
    ("\\boxed{A} \\boxed{B}", "\\text{(B)}", 0.0, "", "no_answer"),
    ("\\boxed{\\textbf{(B) } 12 \\text{ or } \\textbf{(C) } 14}", "\\text{(B)}", 0.0, "", "no_answer"),
    ("$\\boxed{\\textbf{(B) } 12}$. Wait, that's wrong.", "\\text{(B)}", 0.0, "", "no_answer"),
    ("\\boxed{x > 3 \\text{ or } x < 3}", "(3, \\infty)", 0.0, "", ""),
    ("\\boxed{3 < x > 5}", "(3, \\infty)", 0.0, "", "not_equal"),
    ("\\boxed{\\text{infinitely many (or none)}}", "\\infty", 0.0, "", "no_answer"),
    ("\\boxed{0.\\overline{3} \\text{ or } 0.5}", "\\frac{1}{3}", 0.0, "", "no_answer"),
    ("\\boxed{40 < x < 45}", "42", 0.0, "", "unevaluated"),
    ("\\boxed{2\\text{x}21}", "42", 0.0, "", "unevaluated"),  # a letter dropped as a unit leaves no 221
    ("\\boxed{2\\text{x}21}", "221", 0.0, "", "unevaluated"),
    ("\\boxed{1\\text{ thousand}}", "1", 0.0, "", "not_equal"),  # a scale word is no unit
]


def _score(pool, rows):
    reward = MathAccuracy(engine=pool)
    out = reward.evaluate([row[3] for row in rows], [row[0] for row in rows], answer=[row[1] for row in rows])
    return out.scores, out.reasons


@pytest.mark.parametrize("completion, gold, expected, prompt", PLAIN)
def test_plain_answers_are_paid(pool, completion, gold, expected, prompt):
    scores, reasons = _score(pool, [(completion, gold, expected, prompt)])
    assert scores == [expected], reasons[0]


@pytest.mark.parametrize("completion, gold, expected, prompt, reason", REFUSED)
def test_work_avoided_and_wrong_answers_stay_refused(pool, completion, gold, expected, prompt, reason):
    scores, reasons = _score(pool, [(completion, gold, expected, prompt)])
    assert scores == [expected], reasons[0]
    assert reasons[0].startswith(reason), reasons[0]


def test_the_guard_off_is_plain_equivalence_on_the_same_rows(pool):
    """``work_avoidance: false`` pays the computed-but-unevaluated answers again (the guard is what refused them)."""
    rows = [row for row in REFUSED if row[0] in ("\\boxed{2 \\times 21}", "\\boxed{\\frac{84}{2}}", "\\boxed{\\cfrac{84}{2}}",
                                               "\\boxed{\\sqrt{1764}}", "\\boxed{\\left( 9+1 \\right)}", "\\boxed{- 5 + 47}")]
    assert len(rows) == 6
    scores = MathAccuracy(engine=pool, work_avoidance=False)(completions=[r[0] for r in rows], answer=[r[1] for r in rows])
    assert scores == [1.0] * len(rows)


@pytest.mark.parametrize("text, shown", [
    ("\\text{42}", "42"),
    ("\\textbf{\\mathbf{5}}", "5"),
    ("\\displaystyle 42", "42"),
    ("\\left( 3 \\right)", "3"),
    ("{42}", "42"),
    ("\\text{{0}}", "0"),
    ("\\left(1, 2\\right)", "(1, 2)"),
    ("\\frac{1}{3}", "\\frac{1}{3}"),
    ("12\\text{ cm}^2", "12"),
    ("5 \\mathrm{m/s}", "5"),
    ("9.8 \\text{m/s}^{2}", "9.8"),
    ("90^\\circ", "90"),
    ("90^{\\circ}", "90"),
    ("- 5", "-5"),
    ("x = - 5", "x =-5"),
    ("42 \\text{ (or 43)}", "42 (or 43)"),  # words that name an alternative stay
    ("5\\text{ squared}", "5 squared"),  # words that change the value stay
    ("\\text{ or }", "or"),
    ("2 \\times 21", "2 \\times 21"),  # an operation is not formatting
])
def test_read_through(text, shown):
    assert read_through(text) == shown


@pytest.mark.parametrize("text, letter", [
    ("\\textbf{(B) } 12", "B"), ("(C) \\frac{1}{2}", "C"), ("D. 7", "D"), ("B) 12", "B"),
    ("(A) 3 (B) 12", None), ("12", None), ("(x) 5", None), ("F. 3", None),
])
def test_lettered_choice(text, letter):
    assert lettered_choice(text, "ABCDE") == letter


@pytest.mark.parametrize("text, meaning", [
    ("\\infty", "infinite"), ("\\text{infinitely many}", "infinite"), ("There are infinitely many solutions", "infinite"),
    ("\\emptyset", "empty"), ("\\text{No real solutions}", "empty"), ("none", "empty"),
    ("no", None), ("\\text{finitely many}", None), ("Paris", None), ("42", None),
])
def test_textual_meaning(text, meaning):
    assert textual_meaning(text) == meaning


@pytest.mark.parametrize("text, interval", [
    ("x > 3", ("(", 3, "inf", ")")), ("x \\geq 3", ("[", 3, "inf", ")")), ("3 < x", ("(", 3, "inf", ")")),
    ("x \\le -2", ("(", "-inf", -2, "]")), ("3 < x \\le 5", ("(", 3, 5, "]")), ("5 > x > 3", ("(", 3, 5, ")")),
])
def test_inequality_is_its_interval(text, interval):
    shape, (left, (low, high), right), inexact = canonical(text)
    def plain(bound):
        return bound[0] if isinstance(bound, tuple) and bound[1] == 1 else "-inf" if isinstance(bound, tuple) else int(bound.q)
    assert (shape, left, plain(low), plain(high), right) == ("interval", *interval) and inexact


@pytest.mark.parametrize("text", ["x < 3 < y", "3 < 5", "x < y", "x > 3 > 2 > 1", "0 < f(x) < 1", "-x > -1"])
def test_not_a_one_variable_inequality(text):
    assert canonical(text) is None


# --- properties ---------------------------------------------------------------------------------------------------

WRAPPERS = ["\\text{%s}", "\\textbf{%s}", "\\mathbf{%s}", "\\mathrm{%s}", "\\displaystyle %s", "\\left(%s\\right)", "{%s}",
            "%s\\text{ cm}", "%s^\\circ", "\\boldsymbol{%s}", "\\textnormal{%s}"]
numbers = st.one_of(
    st.integers(-10**12, 10**12).map(str),
    st.decimals(min_value=-10**6, max_value=10**6, places=3, allow_nan=False, allow_infinity=False).map(lambda d: format(d, "f")),
    st.sampled_from(["0.1", "0.2", "0.3", "1.1", "2.675", "1e-7", "3.3333333", "-0.7", "1/3", "\\frac{2}{7}"]),
)


@settings(max_examples=150, deadline=None)
@given(number=numbers, wrappers=st.lists(st.sampled_from(WRAPPERS), min_size=1, max_size=3), offset=st.sampled_from([0, 1]))
def test_wrapping_a_number_in_formatting_never_changes_the_verdict(number, wrappers, offset):
    """A number (values not exactly representable in binary included), wrapped in any formatting, scores as the bare
    number -- against its own gold (paid) and against another (refused)."""
    wrapped = number
    for wrapper in wrappers:
        wrapped = wrapper % wrapped
    value = parse_numeral(number).value
    gold = str(value + offset) if value.denominator == 1 else f"\\frac{{{(value + offset).numerator}}}{{{(value + offset).denominator}}}"
    bare, dressed = verify_batch([f"\\boxed{{{number}}}", f"\\boxed{{{wrapped}}}"], [gold, gold], pool=None, work_avoidance=True)
    assert dressed.score == bare.score == (1.0 if offset == 0 else 0.0), (wrapped, dressed.describe())


@settings(max_examples=200, deadline=None)
@given(numerator=st.integers(0, 10**6), denominator=st.integers(1, 999), style=st.sampled_from(["overline", "paren", "dot"]))
def test_repeating_decimal_is_exact(numerator, denominator, style):
    """p/q written as a repeating decimal reads back as exactly p/q (no float on the way)."""
    value = Fraction(numerator, denominator)
    whole, remainder = divmod(value.numerator, value.denominator)
    digits, seen = [], {}
    while remainder and remainder not in seen:
        seen[remainder] = len(digits)
        remainder *= 10
        digits.append(str(remainder // value.denominator))
        remainder %= value.denominator
    if not remainder:
        return  # a terminating decimal: nothing repeats
    fixed, block = "".join(digits[:seen[remainder]]), "".join(digits[seen[remainder]:])
    if len(block) > 28 or len(fixed) > 28:
        return
    text = {"overline": f"{whole}.{fixed}\\overline{{{block}}}", "paren": f"{whole}.{fixed}({block})",
            "dot": f"{whole}.{fixed}\\dot{{{block[0]}}}{block[1:-1]}\\dot{{{block[-1]}}}" if len(block) > 1 else f"{whole}.{fixed}\\dot{{{block}}}"}[style]
    assert repeating_decimal(text) == value
    assert parse_numeral(text).value == value


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(list("\\{}^()[]0123456789 ,.-+x") + ["\\text{", "\\textbf{", "\\left(", "\\right)",
                                                                       "\\circ", "\\,", "\\!", "cm", " or "]), max_size=150).map("".join))
def test_read_through_is_total_and_never_grows(text):
    shown = read_through(text)
    assert isinstance(shown, str) and len(shown) <= len(text) + 2


@pytest.mark.parametrize("text", [
    "\\text{" * 5_000 + "42" + "}" * 5_000,
    "\\textbf{" * 11 + "42" + "}" * 11,
    "1" + "\\text{ cm}^2" * 20_000,
    "- " * 50_000 + "5",
    "\\left(" * 30_000 + "3" + "\\right)" * 30_000,
])
def test_huge_or_deeply_nested_answers_stay_bounded(text):
    """A huge or deeply nested answer costs little CPU (read-through gives up past its size and depth caps) and a
    wrapped number is still a number within the depth cap."""
    start = time.process_time()
    shown = read_through(text)
    verdict = verify_batch([f"\\boxed{{{text}}}"], ["42"], pool=None, work_avoidance=True)[0]
    assert time.process_time() - start < 5.0
    assert verdict.score in (0.0, 1.0)
    if text.startswith("\\textbf{" * 11):
        assert shown == "42" and verdict.score == 1.0


@settings(max_examples=150, deadline=None)
@given(value=st.integers(1_000, 10**15), separator=st.sampled_from([",", ",\\!", "\\,", "{,}", " ", ",\\! "]),
       negative=st.booleans(), offset=st.sampled_from([0, 1]))
def test_thousands_separators_are_read_through(value, separator, negative, offset):
    """An integer grouped by thousands in any of the separators models write is that integer (and never its neighbour)."""
    digits = str(value)
    head = len(digits) % 3 or 3
    grouped = separator.join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])
    sign = "-" if negative else ""
    verdict = verify_batch([f"So the total is $\\boxed{{{sign}{grouped}}}$."], [f"{sign}{value + offset}"], pool=None, work_avoidance=True)[0]
    assert verdict.score == (1.0 if offset == 0 else 0.0), verdict.describe()


@settings(max_examples=100, deadline=None)
@given(a=st.integers(2, 999), b=st.integers(2, 999), operation=st.sampled_from(["{a} \\times {b}", "{a} \\cdot {b}", "{a} + {b}", "\\frac{{{p}}}{{{b}}}"]),
       wrappers=st.lists(st.sampled_from(WRAPPERS), min_size=1, max_size=3))
def test_formatting_never_hides_an_operation(a, b, operation, wrappers):
    """An operation on numbers stays refused however it is dressed (the guard reads formatting, not around it)."""
    expression = operation.format(a=a, b=b, p=a * b)
    gold = a * b if "times" in operation or "cdot" in operation else a + b if "+" in operation else a
    for wrapper in wrappers:
        expression = wrapper % expression
    verdict = verify_batch([f"\\boxed{{{expression}}}"], [str(gold)], pool=None, work_avoidance=True)[0]
    assert verdict.score == 0.0, verdict.describe()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.lists(st.sampled_from(["\\text{", "}", "{", "(", ")", "\\overline{", "0.", "3", ",", " or ", "x", "<",
                                                          "\\le", "\\infty", "(B)", "\\dot{", "^\\circ", "\\,", "-", " "]), max_size=60).map("".join))
def test_answer_readers_are_total(text):
    """Every reader of an answer's form takes any text without raising (hostile, unbalanced, any unicode)."""
    from polyreward.verifiers.math_forms import several_values
    from polyreward.verifiers.math_normalize import normalize_answer

    answer = normalize_answer(text)
    read_through(answer)
    several_values(answer)
    lettered_choice(answer)
    textual_meaning(answer)
    canonical(answer)
    parse_numeral(answer)
    repeating_decimal(answer)
