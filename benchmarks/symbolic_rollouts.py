"""Labelled rollouts with symbolic answers: radicals, multiples of pi, intervals, sets, tuples,
matrices, trig values and linear equations (the shapes where verification needs more than numbers).

Each prompt gets a gold answer in one LaTeX spelling and ``group`` completions that end in an
equivalent spelling (label 1) or a near miss (label 0), in the answer styles models print (``\\boxed``,
"The answer is $...$", Minerva's "Final Answer", a display-math last line). Whether an answer is
right is decided when it is written, so the label is known by construction. Answers repeat inside a
group as in GRPO sampling. Deterministic for a seed.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

FAMILIES = ("radical", "pi", "interval", "set", "tuple", "matrix", "trig", "equation")


def _frac(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _squarefree(rng: random.Random) -> int:
    return rng.choice([2, 3, 5, 6, 7, 10, 11, 13, 15])


def _radical(rng: random.Random) -> tuple[str, list[str], list[str]]:
    a, b, c = rng.randint(1, 9), _squarefree(rng), rng.randint(2, 9)
    g = math.gcd(a, c)
    a, c = a // g, c // g
    coef = "" if a == 1 else str(a)
    gold = f"\\frac{{{coef}\\sqrt{{{b}}}}}{{{c}}}" if c > 1 else f"{coef}\\sqrt{{{b}}}"
    right = [gold, f"{coef}\\sqrt{{{b}}}/{c}" if c > 1 else f"\\sqrt{{{a * a * b}}}", f"\\frac{{{a}}}{{{c}}}\\sqrt{{{b}}}",
             f"\\sqrt{{\\frac{{{a * a * b}}}{{{c * c}}}}}"]
    wrong = [f"\\frac{{{coef}\\sqrt{{{b + 1}}}}}{{{c}}}", f"\\frac{{{a + 1}\\sqrt{{{b}}}}}{{{c}}}", f"\\frac{{{a}}}{{{c}}}",
             f"\\frac{{{c}\\sqrt{{{b}}}}}{{{a + c}}}"]
    return gold, right, wrong


def _pi(rng: random.Random) -> tuple[str, list[str], list[str]]:
    value = Fraction(rng.randint(1, 11), rng.choice([2, 3, 4, 6, 8]))
    p, q = value.numerator, value.denominator
    head = "" if p == 1 else str(p)
    gold = f"\\frac{{{head}\\pi}}{{{q}}}" if q > 1 else f"{head}\\pi"
    right = [gold, f"{head}\\pi/{q}" if q > 1 else f"{p} \\pi", f"\\frac{{{p}}}{{{q}}}\\pi", f"\\pi \\cdot {_frac(value)}"]
    wrong = [f"\\frac{{{q}\\pi}}{{{p + q}}}", f"\\frac{{{p + 1}\\pi}}{{{q}}}", _frac(value), f"\\frac{{{head}\\pi}}{{{q + 1}}}"]
    return gold, right, wrong


def _endpoint(rng: random.Random) -> str:
    return rng.choice([str(rng.randint(-9, 9)), _frac(Fraction(rng.randint(-9, 9), rng.randint(2, 5))), "\\sqrt{2}"])


def _interval(rng: random.Random) -> tuple[str, list[str], list[str]]:
    lo, hi = sorted(rng.sample(range(-9, 10), 2))
    left, right_b = rng.choice("(["), rng.choice(")]")
    lo_s = rng.choice([str(lo), "-\\infty"]) if left == "(" else str(lo)
    gold = f"{left}{lo_s}, {hi}{right_b}"
    flip = {"(": "[", "[": "(", ")": "]", "]": ")"}
    right = [gold, f"\\left{left}{lo_s},{hi}\\right{right_b}", f"{left} {lo_s} , {hi} {right_b}"]
    wrong = [f"{left}{lo_s}, {hi + 1}{right_b}", f"{left}{lo_s}, {hi}{flip[right_b]}" if lo_s != "-\\infty" else f"({lo_s}, {hi - 1}{right_b}",
             f"{left}{lo_s}, {hi + 2}{right_b}"]
    return gold, right, wrong


def _set(rng: random.Random) -> tuple[str, list[str], list[str]]:
    items = [_endpoint(rng) for _ in range(rng.randint(2, 4))]
    items = list(dict.fromkeys(items))
    if len(items) < 2:
        items.append("42")
    gold = "\\{" + ", ".join(items) + "\\}"
    shuffled = items[::-1]
    right = [gold, "\\{" + ", ".join(shuffled) + "\\}", "\\left\\{" + ",".join(items) + "\\right\\}"]
    wrong = ["\\{" + ", ".join(items[:-1]) + "\\}", "\\{" + ", ".join(items[:-1] + ["100"]) + "\\}"]
    return gold, right, wrong


def _tuple(rng: random.Random) -> tuple[str, list[str], list[str]]:
    x, y = rng.randint(-9, 9), _frac(Fraction(rng.randint(-9, 9), rng.randint(1, 4)))
    gold = f"({x}, {y})"
    right = [gold, f"\\left({x},{y}\\right)", f"( {x} , {y} )"]
    wrong = [f"({y}, {x})" if str(x) != y else f"({x}, {x + 1})", f"({x + 1}, {y})", f"({x}, {y}, 0)"]
    return gold, right, wrong


def _matrix(rng: random.Random) -> tuple[str, list[str], list[str]]:
    a, b, c, d = (rng.randint(-9, 9) for _ in range(4))
    if b == c:
        c += 1

    def m(env: str, p: int, q: int, r: int, s: int, space: str = " ") -> str:
        return f"\\begin{{{env}}}{p}{space}&{space}{q}\\\\{r}{space}&{space}{s}\\end{{{env}}}"

    gold = m("pmatrix", a, b, c, d)
    right = [gold, m("bmatrix", a, b, c, d), m("pmatrix", a, b, c, d, "")]
    wrong = [m("pmatrix", a, c, b, d), m("pmatrix", a + 1, b, c, d), m("pmatrix", a, b, c, d + 2)]
    return gold, right, wrong


_TRIG = [
    ("\\frac{1}{2}", ["\\sin\\left(\\frac{\\pi}{6}\\right)", "\\cos(\\pi/3)", "0.5"], ["\\frac{\\sqrt{3}}{2}", "\\sin(\\pi/3)"]),
    ("\\frac{\\sqrt{3}}{2}", ["\\sin(\\pi/3)", "\\cos\\frac{\\pi}{6}", "\\frac{1}{2}\\sqrt{3}"], ["\\frac{1}{2}", "\\cos(\\pi/3)"]),
    ("\\frac{\\sqrt{2}}{2}", ["\\frac{1}{\\sqrt{2}}", "\\sin(\\pi/4)", "\\cos\\left(\\frac{\\pi}{4}\\right)"], ["\\sqrt{2}", "\\frac{\\sqrt{3}}{3}"]),
    ("\\sqrt{3}", ["\\tan(\\pi/3)", "\\frac{3}{\\sqrt{3}}"], ["\\tan(\\pi/6)", "\\frac{\\sqrt{3}}{3}"]),
    ("-1", ["\\cos(\\pi)", "\\sin\\left(\\frac{3\\pi}{2}\\right)"], ["1", "\\cos(2\\pi)"]),
]


def _trig(rng: random.Random) -> tuple[str, list[str], list[str]]:
    gold, right, wrong = rng.choice(_TRIG)
    return gold, [gold, *right], list(wrong)


def _equation(rng: random.Random) -> tuple[str, list[str], list[str]]:
    m, b = rng.choice([k for k in range(-6, 7) if k]), rng.randint(-9, 9)
    sign = "+" if b >= 0 else "-"
    gold = f"y = {m}x {sign} {abs(b)}"
    right = [gold, f"y = {b} + {m}x" if b else f"y = {m}x", f"{m}x - y {sign} {abs(b)} = 0", f"{2 * m}x - 2y {sign} {2 * abs(b)} = 0"]
    wrong = [f"y = {m + 1}x {sign} {abs(b)}", f"y = {m}x {sign} {abs(b) + 1}", f"y = {-m}x {sign} {abs(b)}"]
    return gold, right, wrong


_MAKERS = {"radical": _radical, "pi": _pi, "interval": _interval, "set": _set, "tuple": _tuple,
           "matrix": _matrix, "trig": _trig, "equation": _equation}

_STYLES = (
    lambda a: f"We simplify step by step.\nTherefore the answer is $\\boxed{{{a}}}$.",
    lambda a: f"Working through the algebra gives the result.\nThe answer is ${a}$.",
    lambda a: f"Final Answer: The final answer is ${a}$. I hope it is correct.",
    lambda a: f"Collecting everything:\n$$\n{a}\n$$",
    lambda a: f"<think>\nLet me compute carefully.\n</think>\nSo the final answer is \\boxed{{{a}}}",
)


def symbolic_rows(prompts: int, group: int, seed: int) -> list[dict]:
    """``prompts`` x ``group`` labelled rows: prompt_id, task, style, answer, completion, label."""
    rng = random.Random(seed)
    rows = []
    for i in range(prompts):
        family = FAMILIES[i % len(FAMILIES)]
        gold, right, wrong = _MAKERS[family](rng)
        # a group samples a few distinct answers and repeats them
        pool = rng.sample(right, min(2, len(right))) + rng.sample(wrong, min(2, len(wrong)))
        for _ in range(group):
            answer = rng.choice(pool)
            style = rng.randrange(len(_STYLES))
            rows.append({"prompt_id": f"s{i:04d}", "task": family, "style": f"symbolic{style}", "answer": gold,
                         "completion": _STYLES[style](answer), "label": int(answer in right)})
    return rows
