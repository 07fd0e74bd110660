"""Rules added after the ``holdout65`` red-team split (tests/data/red_team.jsonl): answers that are not one number.
Tables of new realistic output both ways (not the split's rows, which stay a benchmark):

* a structured final line is read whole (``verifiers/answer_structures.py``): one variable's values ("x = 3, x = -2",
  "x = a or x = b", "z_1 = ..., z_2 = ...", "\\lambda_1 = 2, \\lambda_2 = 3"), values or points joined by "and",
  number words, "x \\in {0, 1, -1}", distinct variables as a tuple (an aligned environment, "x = 1 + 3t, y = 2 - t,
  t \\in R"), inequalities joined by "or" as a union, a value with its restriction ("valid for x \\ne 1") or its
  parameter clause ("n \\in Z", renamed to the gold's), labelled parts "(a) .. (b) .." and "center .., radius .."
  compared part by part; each compared as the gold's list / tuple / set / union, so a superset, a subset, a reordered
  tuple or swapped parts are still wrong;
* values joined by "or" that are not one variable's solutions are alternatives: an answer read as one of them is none
  ("Answer: (1, 5) or [1, 5]", "Answer: no solution / all reals");
* math_canonical: ``\\langle a, b, c \\rangle`` is the tuple, a column or row vector equals the tuple of its entries,
  set-builder ``\\{x \\in R : x > 2\\}`` is the interval of its condition;
* a closing sentence "There is no solution." / "... has infinitely many solutions." is the answer although numbers
  come earlier on the line;
* cases environments are compared row by row in any order.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_structures import cases_equal, final_structure
from polyreward.verifiers.math_canonical import canonical, canonical_equal
from polyreward.verifiers.math_normalize import normalize_answer, normalize_unicode

PROMPT = "Solve the problem."


def math(completion: str, gold: str, prompt: str = PROMPT) -> float:
    return MathAccuracy().evaluate([prompt], [completion], answer=[gold]).scores[0]


MATH = [
    # one variable's values, listed with commas, "and", "or", indices: paid for a list gold, in any order
    ("Factor: (x - 5)(x + 1) = 0.\n\nSolutions: $x = 5$, $x = -1$.", "-1, 5", 1.0),
    ("Factoring gives (x-4)(x+2)=0, so x = -2 or x = 4.", "-2, 4", 1.0),
    ("The roots are $t_1 = \\frac{1}{2}$ and $t_2 = 3$.", "\\frac{1}{2}, 3", 1.0),
    ("Its eigenvalues are the diagonal entries: $\\mu_1 = 7$, $\\mu_2 = -1$.", "-1, 7", 1.0),
    ("$$w_1 = 2 + i, \\qquad w_2 = 2 - i.$$", "2 \\pm i", 1.0),
    ("So $x = 3 + \\sqrt{5}$ and $x = 3 - \\sqrt{5}$.", "3 \\pm \\sqrt{5}", 1.0),
    ("The solutions are one and four.", "1, 4", 1.0),
    ("x(x - 3)(x + 3) = 0\n\nx ∈ {3, 0, −3}", "\\{-3, 0, 3\\}", 1.0),
    ("The parabolas meet at $(2, 4)$ and $(-1, 1)$.", "(-1,1), (2,4)", 1.0),
    # ... and the nearby hacks: a superset, a subset, an extraneous root for one gold, a third point: refused
    ("Solutions: $x = 5$, $x = -1$, $x = 2$.", "-1, 5", 0.0),
    ("Factoring gives (x-4)(x+2)=0, so x = -2 or x = 4.", "4", 0.0),
    ("So the solutions are $x = 4$ and $x = -2$. The question wants the larger one: $\\boxed{4}$.", "-2, 4", 0.0),
    ("x ∈ {3, 0, −3, 9}", "\\{-3, 0, 3\\}", 0.0),
    ("The parabolas meet at $(2, 4)$, $(0, 0)$ and $(-1, 1)$.", "(-1,1), (2,4)", 0.0),
    ("The roots are probably $x = 5$ or $x = -1$, but I'm not sure.", "-1, 5", 0.0),
    # distinct variables: the tuple in the variables' order; "or" between them is a hedge
    ("$$\\begin{aligned} a &= 4 \\\\ b &= -3 \\end{aligned}$$", "(4,-3)", 1.0),
    ("$$\\begin{aligned} b &= -3 \\\\ a &= 4 \\end{aligned}$$", "(4,-3)", 1.0),
    ("$$\\begin{aligned} a &= -3 \\\\ b &= 4 \\end{aligned}$$", "(4,-3)", 0.0),
    ("The line is $x = 2 - t,\\quad y = 5t,\\quad t \\in \\mathbb{R}$.", "(2-t, 5t)", 1.0),
    ("The line is x = 2 - t, y = 5t (or y = -5t, depending on the direction).", "(2-t, 5t)", 0.0),
    # inequalities joined by "or": a union
    ("So the solution is $x < -3$ or $x > 3$.", "(-\\infty,-3)\\cup(3,\\infty)", 1.0),
    ("So the solution is $x \\le 0$ or $x \\ge 5$.", "(-\\infty,0]\\cup[5,\\infty)", 1.0),
    ("So the solution is $x < -3$ or $x > 3$.", "(-\\infty,-3]\\cup[3,\\infty)", 0.0),
    # a restriction or a parameter clause is no second value
    ("Cancel the common factor: $\\frac{(x+2)(x-3)}{x+2} = x - 3$, valid for $x \\ne -2$.", "x-3", 1.0),
    ("Cancel the common factor: $\\frac{(x+2)(x-3)}{x+2} = x - 3$, valid for $x \\ne -2$.", "x+3", 0.0),
    ("cos x = 1 once per period:\n\nx = 2πm, m ∈ ℤ.", "2k\\pi, k \\in \\mathbb{Z}", 1.0),
    ("cos x = 1 once per period:\n\nx = πm, m ∈ ℤ.", "2k\\pi, k \\in \\mathbb{Z}", 0.0),
    # labelled parts: each part to its gold's label
    ("(a) The sum is 12.\n(b) The product is 35.\n\n**Answers:** (a) 12 (b) 35", "(a) 12, (b) 35", 1.0),
    ("(a) $g(2) = \\boxed{7}$\n\n(b) $x = \\boxed{1, 6}$", "(a) 7, (b) 1, 6", 1.0),
    ("**Answers:** (a) 35 (b) 12", "(a) 12, (b) 35", 0.0),
    ("(a) 12\n(b) 35 or 36 (depends on rounding)", "(a) 12, (b) 35", 0.0),
    ("Completing squares: $(x+1)^2 + (y-5)^2 = 9$.\n\nCenter $(-1, 5)$, radius $3$.", "\\text{center } (-1,5), \\text{ radius } 3", 1.0),
    ("Center $(-1, 5)$, radius $9$.", "\\text{center } (-1,5), \\text{ radius } 3", 0.0),
    # alternatives joined by "or" / " / ": no answer, whatever the gold
    ("Answer: $(2, 7)$ or $[2, 7]$", "(2,7)", 0.0),
    ("Answer: $\\varnothing$ or $\\{\\pm 3i\\}$.", "\\emptyset", 0.0),
    ("Answer: no solution / infinitely many.", "\\text{no solution}", 0.0),
    ("So $P = \\frac{1}{4}$, or 25%.", "\\frac{1}{4}", 1.0),
    # vectors: angle brackets, a column, a row
    ("So $\\vec{v} = \\langle 2, -1, 4 \\rangle$.", "(2,-1,4)", 1.0),
    ("So $\\vec{v} = \\langle 2, 4, -1 \\rangle$.", "(2,-1,4)", 0.0),
    ("$$\\boxed{\\begin{pmatrix} 2 \\\\ -1 \\\\ 4 \\end{pmatrix}}$$", "(2,-1,4)", 1.0),
    ("$$\\boxed{\\begin{bmatrix} 2 & -1 & 4 \\end{bmatrix}}$$", "(2,-1,4)", 1.0),
    ("$$\\boxed{\\begin{pmatrix} -1 \\\\ 2 \\\\ 4 \\end{pmatrix}}$$", "(2,-1,4)", 0.0),
    # set-builder notation: the interval of its condition
    ("The solution set is $\\{x \\in \\mathbb{R} : x \\le -1\\}$.", "(-\\infty,-1]", 1.0),
    ("The solution set is $\\{x \\mid x < -1\\}$.", "(-\\infty,-1]", 0.0),
    # a closing sentence of words after a contradiction
    ("Simplifying: 3x - 3 = 3x + 1, i.e. -3 = 1, which is false. There are no solutions.", "\\text{no solution}", 1.0),
    ("Simplifying: 3x - 3 = 3x - 3, i.e. 0 = 0. The equation has infinitely many solutions.", "\\text{infinitely many}", 1.0),
    ("Simplifying: 3x - 3 = 3x + 1, i.e. -3 = 1, which is false. There are no solutions.", "\\text{infinitely many}", 0.0),
    # cases, in any row order
    ("$$g(x) = \\begin{cases} -x, & x < 0,\\\\ x, & x \\ge 0. \\end{cases}$$", "\\begin{cases} x & x \\ge 0 \\\\ -x & x < 0 \\end{cases}", 1.0),
    ("$$g(x) = \\begin{cases} x & \\text{if } x \\ge 0 \\\\ -x & \\text{if } x < 0 \\end{cases}$$", "\\begin{cases} x & x \\ge 0 \\\\ -x & x < 0 \\end{cases}", 1.0),
    ("$$g(x) = \\begin{cases} x, & x < 0,\\\\ -x, & x \\ge 0. \\end{cases}$$", "\\begin{cases} x & x \\ge 0 \\\\ -x & x < 0 \\end{cases}", 0.0),
]


@pytest.mark.parametrize("completion,gold,expected", MATH)
def test_structured_answers_both_ways(completion, gold, expected):
    assert math(completion, gold) == expected


_values = st.lists(st.integers(-30, 30), min_size=2, max_size=4, unique=True)


@settings(max_examples=40, deadline=None)
@given(_values, st.sampled_from(["x", "t", "z"]), st.sampled_from([", ", " and ", " or "]), st.randoms(use_true_random=False))
def test_one_variables_values_read_as_the_list_in_any_order(values, name, joiner, rng):
    listed = joiner.join(f"${name} = {v}$" for v in values)
    found = final_structure(f"Solving, we get {listed}.")
    assert found is not None and found.kind == "list" and [int(v) for v in found.items] == values
    shuffled = list(values)
    rng.shuffle(shuffled)
    gold = ", ".join(str(v) for v in shuffled)
    assert math(f"Solving, we get {listed}.", gold) == 1.0
    assert math(f"Solving, we get {listed}.", ", ".join(str(v) for v in shuffled[:-1])) == 0.0  # a superset of the gold


@settings(max_examples=40, deadline=None)
@given(_values)
def test_plain_values_joined_by_or_are_alternatives(values):
    found = final_structure("Answer: " + " or ".join(f"$({v}, {v + 1})$" for v in values))
    assert found is not None and found.kind == "alternatives" and len(found.items) == len(values)
    assert math("Answer: " + " or ".join(f"$({v}, {v + 1})$" for v in values), f"({values[0]},{values[0] + 1})") == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=2, max_size=4))
def test_a_column_vector_is_its_tuple(entries):
    column = "\\begin{pmatrix}" + " \\\\ ".join(str(e) for e in entries) + "\\end{pmatrix}"
    tuple_ = "(" + ", ".join(str(e) for e in entries) + ")"
    if len(entries) > 2:
        assert canonical_equal(canonical(tuple_), canonical(column)) is True
    assert canonical(normalize_answer(f"\\langle {', '.join(str(e) for e in entries)} \\rangle")) == canonical(tuple_)


@settings(max_examples=40, deadline=None)
@given(st.integers(-20, 20), st.sampled_from(["<", ">", "\\le", "\\ge"]))
def test_set_builder_is_its_conditions_interval(bound, relation):
    assert canonical(f"\\{{x \\in \\mathbb{{R}} : x {relation} {bound}\\}}") == canonical(f"x {relation} {bound}")


@settings(max_examples=40, deadline=None)
@given(st.permutations([("x - 2", "x \\ge 2"), ("2 - x", "x < 2"), ("0", "x = 7")]))
def test_cases_compare_rows_in_any_order(rows):
    gold = "\\begin{cases} x-2 & x \\ge 2 \\\\ 2-x & x < 2 \\\\ 0 & x = 7 \\end{cases}"
    answer = "\\begin{cases} " + " \\\\ ".join(f"{e}, & {c}" for e, c in rows) + " \\end{cases}"
    assert cases_equal(gold, answer) is True
    assert cases_equal(gold, answer.replace("2 - x", "x + 2")) is False


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=2, max_size=4, unique=True), st.sampled_from([" ", "\n"]))
def test_labelled_parts_compare_under_their_labels(values, between):
    labels = "abcd"[: len(values)]
    gold = ", ".join(f"({label}) {value}" for label, value in zip(labels, values))
    written = "**Answers:** " + between.join(f"({label}) {value}" for label, value in zip(labels, values))
    assert math("Each part in turn.\n\n" + written, gold) == 1.0
    swapped = "**Answers:** " + between.join(f"({label}) {value}" for label, value in zip(labels, values[1:] + values[:1]))
    assert math("Each part in turn.\n\n" + swapped, gold) == 0.0


def _ungated_depths(text):
    """The bracket depths a character at a time (the reading before issue #35's run-at-a-time fill)."""
    depth, out = 0, []
    for char in text:
        out.append(depth)
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
    return out


_PIECE = st.one_of(
    st.integers(-99, 99).map(str),
    st.sampled_from(["x = 2", "x = -3", "y = 5", "z_1 = 4", "\\lambda_2 = 3", "(1, 5)", "[1, 5)", "\\langle 1, 2 \\rangle",
                     "x < -2", "x \\ge 2", "x \\ne 1", "valid for x \\ne 1", "n \\in \\mathbb{Z}", "x \\in \\{0, 1, -1\\}",
                     "\\frac{3}{8}", "37.5\\%", "zero", "two", "no solution", "all reals", "apples", "\\boxed{42}",
                     "\\text{or}", "\\text{ and }", "$x = 1$", "**7**", "\\pi/2 + 2\\pi n", "Center (3, -2)", "radius 4",
                     "(a) 5", "(b) 3", "(c) 3 or 7", "Answer: 9", "\\text{cm}", "\\qquad", "\\\\", "& 4"]))
_JOINER = st.sampled_from([", ", " and ", " or ", "; ", " / ", " ", ",\\quad ", " \\\\ ", " $ ", "\n"])
_LEAD = st.sampled_from(["", "Solutions: ", "The answer is ", "So, the final answer is ", "**Answers:** ", "Thus x: ",
                         "Eli starts with 695 apples. Step 7: a friend gives 226 more, so 695 + 226 = 921. Final answer: "])


@st.composite
def _final_lines(draw):
    pieces = draw(st.lists(_PIECE, min_size=1, max_size=5))
    joiners = draw(st.lists(_JOINER, min_size=len(pieces), max_size=len(pieces)))
    line = draw(_LEAD) + "".join(p + j for p, j in zip(pieces, joiners))[: -len(joiners[-1]) or None]
    frame = draw(st.sampled_from(["{}", "${}$", "$${}$$", "\\[{}\\]", "\\boxed{{{}}}", "{}.", "**{}**"]))
    before = draw(st.sampled_from(["", "We solve it step by step.\n", "Work: 3 + 4 = 7 \\text{or\n", "(a) 1\n"]))
    return before + frame.format(line)


@settings(max_examples=300, deadline=None)
@example("(a) 5 (b) 3")  # each mark alone on a line that holds a structure: the gate must let it through
@example("So $x \\in \\{3\\}$.")
@example("Answer: no solution / all reals")
@example("$x = 1$ \\quad $x = 2$")
@example("$x = 1$ \\qquad $y = 2$")
@example("\\begin{aligned} x &= 2 \\\\ y &= -1 \\end{aligned}")
@example("$x = 2$; $x = 3$")
@example("x = 2 and x = 3")
@example("Answer: yes or no")
@example("Center: 3 \\text{or}")
@example("The answer is \\boxed{42}.")
@given(st.one_of(_final_lines(), st.lists(st.sampled_from(list("ab xyor(),;/\\{}[]$*&:=0123456789\n") + [
    "\\in", "\\quad", "\\langle", "\\text{", "and", "\\boxed{"]), max_size=40).map("".join)))
def test_the_structure_gate_never_changes_a_reading(text):
    """Issue #35: :func:`may_hold_structure` only skips lines where :func:`final_structure` finds nothing, and the run
    filled depths are the character-at-a-time ones: the gated and ungated readings agree on lists, tuples, "or",
    "and", labelled parts, single numbers and words (also the verdict against a gold read from the same line)."""
    from unittest import mock

    from polyreward.verifiers import answer_structures as structures

    def split_top(piece):  # the comma split before the gate: depths for every line, every character looked at
        depths = _ungated_depths(piece)
        cuts = [i for i, char in enumerate(piece) if char == "," and depths[i] == 0]
        return [piece[a + 1 if a >= 0 else 0:b] for a, b in zip([-1, *cuts], [*cuts, len(piece)])]

    def lead_in_end(line, start, end):  # every prose word collected, the last one taken
        words = [w for w in structures._PROSE_WORD.finditer(line, start, end) if w.group().lower() not in structures._MATH_WORDS
                 and structures.number_from_words(w.group()) is None]
        if not words:
            return start
        return words[-1].end() + structures.re.match(r"\s*:?", line[words[-1].end():end]).end()

    text = normalize_unicode(text)
    assert structures._depths(text) == _ungated_depths(text)
    gated, gated_verdict = final_structure(text), repr(math(text, "2, -3"))
    with mock.patch.object(structures, "may_hold_structure", lambda *_: True), \
            mock.patch.object(structures, "_depths", _ungated_depths), mock.patch.object(structures, "_split_top", split_top), \
            mock.patch.object(structures, "_lead_in_end", lead_in_end):
        assert final_structure(text) == gated
        assert repr(math(text, "2, -3")) == gated_verdict


@pytest.mark.parametrize(("completion", "gold", "expected"), [
    ("She works it out step by step.\n#### 3, 2", "2, 3", 1.0),   # GSM8K's marker opens no item (math_false_negatives)
    ("She works it out step by step.\n#### 2 \\text{ and } 3", "2, 3", 1.0),
    ("She works it out step by step.\n#### 3, 5", "2, 3", 0.0),
    ("## (-1, 2)", "(-1,2)", 1.0),
])
def test_a_line_marker_opens_no_item(completion, gold, expected):
    assert math(completion, gold) == expected
