"""Synthetic, labelled math rollouts in the answer styles real models use (shared by
``examples/make_examples.py`` and ``benchmarks/math_scoring.py``).

Each problem comes from reasoning-gym (gsm_symbolic, basic_arithmetic, fraction_simplification,
decimal_arithmetic, polynomial_multiplication, complex_arithmetic). A completion restates the problem's reasoning (the
GSM8K chain of thought where reasoning-gym has one) and ends in one of the styles below with either
the gold answer or a wrong one, so whether it is correct is known by construction (``label``).
Styles follow what SmolLM2 / Qwen2.5 / R1-style models print: ``#### 72``, ``\\boxed{}``, "The answer
is", Minerva's "Final Answer: The final answer is $x$. I hope it is correct.", ``<think>`` +
``<answer>``, markdown bold, a bare last line, display math, python syntax for polynomials, an
unfinished ``<think>`` (no answer: label 0) and a re-boxed correction.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

TASK_MIX = (
    ("gsm_symbolic", 0.30),
    ("basic_arithmetic", 0.15),
    ("fraction_simplification", 0.20),
    ("decimal_arithmetic", 0.10),
    ("polynomial_multiplication", 0.15),
    ("complex_arithmetic", 0.10),
)


@dataclass
class Problem:
    task: str
    question: str
    answer: str  # gold as reasoning-gym gives it
    kind: str  # int | fraction | decimal | poly | complex
    reasoning: str
    value: object  # int, Fraction, str (decimal), (variable, [(coef, power), ...], unexpanded product), (re, im)


def load_problems(count: int, seed: int) -> list[Problem]:
    """``count`` problems drawn from TASK_MIX (deterministic for a seed)."""
    import reasoning_gym as rg

    problems: list[Problem] = []
    for i, (task, share) in enumerate(TASK_MIX):
        n = round(count * share) if i < len(TASK_MIX) - 1 else count - len(problems)
        dataset = rg.create_dataset(task, size=n, seed=seed + i)
        problems.extend(_problem(task, entry) for entry in dataset)
    random.Random(seed).shuffle(problems)
    return problems


def _poly_terms(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``"-896*x**5 + 2240*x**4 - 7"`` -> ("x", [(-896, 5), (2240, 4), (-7, 0)])."""
    variable = (re.findall(r"[a-z]", text) or ["x"])[0]
    terms = []
    for match in re.finditer(rf"([+-]?\d*)(\*?{variable}(?:\*\*(\d+))?)?", text.replace(" ", "")):
        if not match.group(0):
            continue
        digits = match.group(1)
        coef = int(digits) if digits not in ("", "+", "-") else (-1 if digits == "-" else 1)
        power = 0 if not match.group(2) else int(match.group(3) or 1)
        terms.append((coef, power))
    return variable, terms


def _problem(task: str, entry: dict) -> Problem:
    meta = entry["metadata"]
    answer = str(entry["answer"])
    if task == "gsm_symbolic":
        cot = meta["answer_cot"].rsplit("####", 1)[0].strip()
        return Problem(task, entry["question"], answer, "int", cot, int(answer))
    if task == "basic_arithmetic":
        reasoning = f"Let's evaluate {meta['expression']} step by step, respecting the order of operations."
        return Problem(task, entry["question"], answer, "int", reasoning, int(answer))
    if task == "fraction_simplification":
        n, d, f = meta["numerator"], meta["denominator"], meta["reduction_factor"]
        reasoning = f"The greatest common divisor of {n} and {d} is {f}.\nDividing both by {f}: {n} / {f} = {n // f} and {d} / {f} = {d // f}."
        value = Fraction(meta["simplified_numerator"], meta["simplified_denominator"])
        return Problem(task, entry["question"], answer, "fraction", reasoning, value)
    if task == "decimal_arithmetic":
        expression = entry["question"].rsplit(".", 1)[-1].replace("= ?", "").strip()
        reasoning = f"We compute {expression} carefully, keeping all significant digits."
        return Problem(task, entry["question"], answer, "decimal", reasoning, answer)
    if task == "polynomial_multiplication":
        reasoning = f"We expand {meta['polynomial_expr']} by distributing each term and combining like terms."
        variable, terms = _poly_terms(answer)
        return Problem(task, entry["question"], answer, "poly", reasoning, (variable, terms, meta["polynomial_expr"]))
    if task == "complex_arithmetic":
        (a, b), (c, d) = meta["num1"], meta["num2"]
        reasoning = f"Write z1 = {a:g} + {b:g}i and z2 = {c:g} + {d:g}i and apply '{meta['operation']}' to real and imaginary parts, using i^2 = -1."
        return Problem(task, entry["question"], answer, "complex", reasoning, tuple(int(x) for x in meta["result"]))
    raise ValueError(task)


def _complex_text(re_part: int, im_part: int, rng: random.Random) -> str:
    """``-15 + 3i``, ``-15.0 + 3.0i``, ``3i - 15``: the forms models print for a complex number."""
    im = "i" if im_part == 1 else "-i" if im_part == -1 else f"{im_part}i"
    if im_part == 0:
        return str(re_part)
    if re_part == 0:
        return im
    style = rng.randrange(3)
    if style == 0:
        return f"{re_part} {'-' if im_part < 0 else '+'} {abs(im_part) if abs(im_part) != 1 else ''}i"
    if style == 1:
        return f"{re_part:.1f} {'-' if im_part < 0 else '+'} {abs(im_part):.1f}i"
    return f"{im} {'-' if re_part < 0 else '+'} {abs(re_part)}"


# --- answer surface forms -------------------------------------------------------------------------


def _poly_python(value: tuple) -> str:
    variable, terms = value[0], value[1]
    parts = []
    for coef, power in terms:
        power_text = "" if power == 0 else f"*{variable}" if power == 1 else f"*{variable}**{power}"
        parts.append(("-" if coef < 0 else "+") + " " + str(abs(coef)) + power_text)
    text = " ".join(parts)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _poly_latex(value: tuple) -> str:
    variable = value[0]
    text = re.sub(rf"\*{variable}\*\*(\d+)", rf"{variable}^{{\1}}", _poly_python(value))
    return text.replace(f"*{variable}", variable)


def wrong_value(problem: Problem, rng: random.Random) -> object:
    """A value that is certainly not the gold one (so its label is 0)."""
    v = problem.value
    if problem.kind == "int":
        return v + rng.choice([-10, -2, -1, 1, 2, 5, 10]) if rng.random() < 0.8 else (v * 10 if v else 1)
    if problem.kind == "fraction":
        return Fraction(v.numerator + rng.choice([1, 2]), v.denominator) if rng.random() < 0.7 else Fraction(v.denominator, v.numerator) if v != 1 else Fraction(2)
    if problem.kind == "complex":
        re_part, im_part = v
        return (re_part + rng.choice([-2, -1, 1, 3]), im_part) if rng.random() < 0.6 else (re_part, -im_part if im_part else 1)
    if problem.kind == "decimal":
        digits = list(v)
        positions = [i for i, c in enumerate(digits) if c.isdigit()]
        i = positions[min(len(positions) - 1, 1)]
        digits[i] = str((int(digits[i]) + rng.choice([1, 3, 7])) % 10)
        return "".join(digits)
    variable, terms, factored = v[0], list(v[1]), v[2]
    k = rng.randrange(len(terms))
    coef, power = terms[k]
    terms[k] = (coef + rng.choice([-3, -1, 1, 2]) or 1, power) if rng.random() < 0.7 else (-coef, power)
    # the unexpanded product with one coefficient changed: a different polynomial (no zero divisors)
    numbers = [m for m in re.finditer(r"(?<![*\d])\d+", factored)]
    m = rng.choice(numbers)
    wrong_factored = factored[:m.start()] + str(int(m.group()) + 1) + factored[m.end():]
    return variable, terms, wrong_factored


def surface(problem: Problem, value: object, rng: random.Random, latex: bool) -> str:
    """How a model writes ``value``: varied but always equal to it."""
    if problem.kind == "int":
        n = int(value)
        options = [str(n)]
        if abs(n) >= 1000:
            options.append(f"{n:,}")
        if n < 0:
            options.append("−" + str(-n))  # unicode minus
        if not latex:
            options += [f"{n}.0" if n >= 0 else str(n), f"{n} units" if problem.task == "gsm_symbolic" else str(n)]
            if problem.task == "gsm_symbolic" and n >= 0:
                options.append(f"${n}")
        return rng.choice(options)
    if problem.kind == "fraction":
        f = Fraction(value)
        options = [rf"\frac{{{f.numerator}}}{{{f.denominator}}}", rf"\dfrac{{{f.numerator}}}{{{f.denominator}}}"]
        if not latex:
            options.append(f"{f.numerator}/{f.denominator}")
            d = f.denominator
            while d % 2 == 0:
                d //= 2
            while d % 5 == 0:
                d //= 5
            if d == 1:
                options.append(str(float(f)))
        return rng.choice(options)
    if problem.kind == "decimal":
        return str(value)
    if problem.kind == "complex":
        return _complex_text(value[0], value[1], rng)
    variable, terms, factored = value
    if rng.random() < 0.2:
        # the unexpanded product, as models sometimes leave it: equal in value, needs sympy to check
        return factored if not latex else re.sub(r"\*\*(\d+)", r"^{\1}", factored).replace("*", " ")
    if rng.random() < 0.3:
        terms = terms[::-1]  # same polynomial, other order
    return _poly_latex((variable, terms)) if latex or rng.random() < 0.4 else _poly_python((variable, terms))


STYLES = (
    "gsm8k", "boxed", "answer_is", "minerva", "think_answer", "bold", "last_line", "display",
    "qwen_final", "reboxed", "think_answer_is", "truncated_think", "no_answer",
)
NO_ANSWER_STYLES = ("truncated_think", "no_answer")


def completion(problem: Problem, value: object, style: str, rng: random.Random) -> str:
    """A completion for ``problem`` that ends with ``value`` in ``style``."""
    r = problem.reasoning
    plain = surface(problem, value, rng, latex=False)
    tex = surface(problem, value, rng, latex=True)
    if style == "gsm8k":
        return f"{r}\n#### {plain}"
    if style == "boxed":
        return f"{r}\nTherefore, the final answer is $\\boxed{{{tex}}}$."
    if style == "answer_is":
        return f"Let's think step by step.\n{r}\nThe answer is {plain}."
    if style == "minerva":
        return f"{r}\nFinal Answer: The final answer is ${tex}$. I hope it is correct."
    if style == "think_answer":
        return f"<think>\n{r}\n</think>\n<answer>{plain}</answer>"
    if style == "bold":
        return f"{r}\n\n**Answer:** {plain}" if rng.random() < 0.5 else f"{r}\nSo the result is **{plain}**."
    if style == "last_line":
        return f"{r}\nSo the final result is {plain}" if problem.kind != "poly" else f"{r}\nResult: ${tex}$"
    if style == "display":
        return f"{r}\n\nThus:\n\\[\n{tex}\n\\]"
    if style == "qwen_final":
        return f"To solve the problem, we proceed step by step.\n\n{r}\n\n### Final Answer\n\\[\n\\boxed{{{tex}}}\n\\]"
    if style == "reboxed":
        other = surface(problem, wrong_value(problem, rng), rng, latex=True)
        return f"{r}\nSo we get $\\boxed{{{other}}}$. Wait, let me double-check the arithmetic.\nRechecking, the correct value is $\\boxed{{{tex}}}$."
    if style == "think_answer_is":
        other = surface(problem, wrong_value(problem, rng), rng, latex=False)
        return f"<think>\nFirst guess: {other}. Let me verify.\n{r}\n</think>\nThe answer is {plain}."
    if style == "truncated_think":
        return f"<think>\n{r}\nSo the answer should be {plain}, but let me re-verify each step carefully because"
    if style == "no_answer":
        return "I'm not sure how to approach this problem. Could you clarify what is being asked?"
    raise ValueError(style)


def group_rollouts(problem: Problem, prompt_id: str, size: int, rng: random.Random) -> list[dict]:
    """``size`` rollouts for one problem: a few distinct answers repeated across the group, mixed styles."""
    wrongs = [wrong_value(problem, rng) for _ in range(rng.choice([1, 1, 2]))]
    p_correct = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0, 0.5])
    rows = []
    for _ in range(size):
        style = rng.choices(STYLES, weights=[3, 3, 3, 2, 2, 2, 2, 1, 2, 1, 1, 1, 1])[0]
        correct = rng.random() < p_correct
        value = problem.value if correct else rng.choice(wrongs)
        text = completion(problem, value, style, rng)
        label = int(correct and style not in NO_ANSWER_STYLES)
        rows.append({
            "prompt": problem.question, "completion": text, "prompt_id": prompt_id, "answer": problem.answer,
            "task": problem.task, "style": style, "label": label,
        })
    return rows
