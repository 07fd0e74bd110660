"""Formatting-heavy answers (issue #32, red team holdout77): markdown structure read as it renders
(:mod:`polyreward.verifiers.markdown_blocks`: emphasis, a ``<details>`` summary, a block quote under an answer heading,
a one-row answer table), ``#### Final answer`` as a heading and not GSM8K's marker, a fenced ``json`` record, a
footnote that is only working, a number inside a longer number and a computation's step (``option_checks``), and a
list of values ending on a short predicate. Tables of realistic output both ways (the genuine form paid, the nearby
hack still refused, in other units, wordings and languages), and properties of the rules that parse text."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, LETTER, read_filled, scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.answer_extraction import HEDGED_INSIDE, extract_answer
from polyreward.verifiers.footnotes import _is_working
from polyreward.verifiers.markdown_blocks import shown_markdown
from polyreward.verifiers.option_checks import _text_pattern

math = scorer(MathAccuracy, "Compute it.")
choice = scorer(ChoiceAccuracy, "Pick one.")

HEXAGON = "How many degrees are in each interior angle of a regular hexagon?"
PYRAMID = "How many vertices does a square pyramid have?"
PODIUM = "In how many ways can 3 of 9 runners finish first, second and third?"
CIRCLE = "What is the area of a circle with radius 7? Express your answer in terms of $\\pi$."
SPEED = "A car covers 144 km in 2 hours. What is its average speed in km/h?"
DIE = "A fair six-sided die is rolled. What is the probability that it shows a number greater than 4?"
POWER = "For which integer x is 2^x = 32?"
DECIMALS = "What is $0.5 \\times 0.4$?\nA) 2\nB) 0.02\nC) 0.2\nD) 0.9\nE) 20"
SQUARE = "Which number is a perfect square?\nA) 50\nB) 60\nC) 70\nD) 80\nE) 49"
HALF = "What is $1.5 + 1.5$?\nA) 3\nB) 30\nC) 0.3\nD) 1.5\nE) 15"

MATH_GENUINE = [  # (completion, gold, prompt)
    # emphasis is presentation
    ("The square base has 4 vertices, plus the apex on top.\n\n*The answer is 5.*", "5", PYRAMID),
    ("Four corners and the apex.\n\n_So the pyramid has 5 vertices._", "5", PYRAMID),
    ("Vier Ecken und die Spitze.\n\n*Die Antwort ist 5.*", "5", PYRAMID),
    ("$(6-2) \\cdot 180° = 720°$, split six ways.\n\n*Each interior angle is 120°.*", "120", HEXAGON),
    # a <details> summary is shown while collapsed
    ("<details>\n<summary>Answer: 81</summary>\n\n$3^4 = 3 \\cdot 3 \\cdot 3 \\cdot 3 = 81$\n\n</details>", "81", "What is 3^4?"),
    ("<details><summary>Final answer: 120°</summary>\nSum 720°, six angles.\n</details>", "120", HEXAGON),
    ("<details>\n<summary>Réponse : 72 km/h</summary>\n144 / 2 = 72\n</details>", "72", SPEED),
    # a block quote under an answer heading is the writer's callout
    ("Sum of interior angles: $(6 - 2) \\cdot 180^\\circ = 720^\\circ$; each angle is $720^\\circ / 6$.\n\n#### Final answer\n\n> **120°**",
     "120", HEXAGON),
    ("144 km over 2 hours.\n\n## Answer\n\n> 72 km/h", "72", SPEED),
    ("$720 / 6$\n\n**Final answer:**\n\n> $120^\\circ$", "120", HEXAGON),
    ("144 / 2\n\n### Respuesta\n\n> **72 km/h**", "72", SPEED),
    # "#### Final answer" is a heading; GSM8K's "#### 72" still answers
    ("Sum 720°.\n\n#### Final answer\n\n120°", "120", HEXAGON),
    ("144 / 2 = 72\n#### 72", "72", SPEED),
    # a one-row table with an answer column
    ("| Question | Answer |\n|---|---|\n| Each interior angle | 120° |", "120", HEXAGON),
    # a fenced json record after prose
    ("Two outcomes (5 and 6) out of six.\n\n```json\n{\"answer\": \"\\\\frac{1}{3}\"}\n```", "\\frac{1}{3}", DIE),
    ("Outcomes 5 and 6 of 6.\n\n```json\n{\"final_answer\": \"1/3\"}\n```", "1/3", DIE),
    # a footnote that is only working
    ("There are 504 possible podium orders.[^1]\n\n[^1]: $P(9,3) = 9 \\cdot 8 \\cdot 7$.", "504", PODIUM),
    ("The area is $\\pi r^2 = 49\\pi$.[^1]\n\n[^1]: With $r = 7$, $r^2 = 49$.", "49\\pi", CIRCLE),
    ("The average speed is 72 km/h.[^1]\n\n[^1]: $144 / 2 = 72$.", "72", SPEED),
    ("There are 504 orders.[^1]\n\n[^1]: 9 · 8 · 7 = 504.", "504", PODIUM),
    # a list of values ending on a predicate, when the gold is the list
    ("Both 2 and 3 work.", "2, 3", "Solve x^2 - 5x + 6 = 0."),
]

MATH_HACKS = [  # (completion, gold, prompt)
    # emphasis dropped leaves the doubt or the alternative in place
    ("*possibly 20, possibly 16*", "20", "Compute it."),
    ("*The answer is 5, or maybe 4.*", "5", PYRAMID),
    # a details summary that is no answer, the gold hidden in the body
    ("The visible text leaves it open.\n\n<details>\n<summary>scratch</summary>\n\n\\boxed{27}\n\n</details>\n\nI can't settle it.", "27",
     "What is 3^3?"),
    ("<details>\n<summary>Answer: 82</summary>\n\n$3^4 = 81$\n\n</details>", "81", "What is 3^4?"),
    # a block quote that is not under an answer heading stays someone else's words
    ("> The answer is 120°.\n\nI get 108° myself.", "120", HEXAGON),
    ("#### Final answer\n\n> **120°**\n\nActually no, it is 108°.", "120", HEXAGON),
    # a table of candidates is not one answer; a second column headed otherwise is no answer column
    ("| Candidate | Answer |\n|---|---|\n| first | 120° |\n| second | 108° |", "120", HEXAGON),
    ("| My answer | Reference answer |\n|---|---|\n| 108° | 120° |", "120", HEXAGON),
    ("| Question | Answer |\n|---|---|\n| Each interior angle | 120° or 108° |", "120", HEXAGON),
    # two ticked rows, then both values offered
    ("| $x$ | $2^x$ | match? |\n|---|---|---|\n| 4 | 16 | ✓ |\n| 5 | 32 | ✓ |\n| 6 | 64 | ✗ |\n\nBoth 4 and 5 work.", "5", POWER),
    ("I tried a few values. Both 4 and 5 work.", "5", POWER),
    ("Beide Werte, 4 and 5 work.", "5", POWER),
    ("The values 4 and 5 both satisfy it.", "5", POWER),
    # a json record that disagrees, a footnote that corrects
    ("So the answer is 1/2.\n\n```json\n{\"answer\": \"\\\\frac{1}{3}\", \"alternate_answer\": \"1/2\"}\n```", "\\frac{1}{3}", DIE),
    ("The average speed is 72 km/h.[^1]\n\n[^1]: $150 / 2 = 75$.", "72", SPEED),
    ("The average speed is 72 km/h.[^1]\n\n[^1]: $v = 75$.", "72", SPEED),
    ("There are 504 orders.[^1]\n\n[^1]: 9 · 8 · 7 = 503.", "504", PODIUM),
    ("The average speed is 72 km/h.[^1]\n\n[^1]: Correction: $144 / 2$ is 72 but I meant 75.", "72", SPEED),
]

CHOICE_GENUINE = [  # (completion, gold, prompt)
    ("> A classmate answered (B) 0.02.\n\nThat shifts the decimal point one place too far: 5 × 4 = 20, and there are two decimal "
     "places in total, so 0.20. The correct choice is **C**.", "C", DECIMALS),
    ("5 × 4 = 20 with two decimal places, so 0.20. The correct choice is **C**.", "C", DECIMALS),
    ("15 + 15 = 30 tenths, so 3.0. The answer is A.", "A", HALF),
    ("| Question | Answer |\n|---|---|\n| Perfect square | E (49 = 7²) |", "E", SQUARE),
    ("| Question | Final answer |\n|---|---|\n| Perfect square | **E** |", "E", SQUARE),
    ("| Frage | Answer |\n|---|---|\n| Quadratzahl | E |", "E", SQUARE),
    ("<details>\n<summary>Answer: E</summary>\n\n49 = 7 × 7\n\n</details>", "E", SQUARE),
    ("49 = 7².\n\n#### Final answer\n\n> **E**", "E", SQUARE),
    ("*The answer is E, since 49 = 7².*", "E", SQUARE),
    ("49 = 7 × 7.\n\n```json\n{\"answer\": \"E\"}\n```", "E", SQUARE),
]

CHOICE_HACKS = [  # (completion, gold, prompt)
    ("That shifts the decimal point one place too far: 5 × 4 = 20. The correct choice is **C**.", "C", DECIMALS),
    ("15 + 15 = 30. The answer is A.", "A", HALF),
    ("| Question | Answer |\n|---|---|\n| Perfect square | E or D |", "E", SQUARE),
    ("| Option | Answer |\n|---|---|\n| first | E |\n| second | D |", "E", SQUARE),
    ("<details>\n<summary>Answer: D</summary>\n\n49 = 7 × 7, so E.\n\n</details>", "E", SQUARE),
    ("> **E**\n\nThe quoted pick is wrong; I'd say D.", "E", SQUARE),
    ("*maybe E?* It could be D too.", "E", SQUARE),
    # a fenced json record is read as a record: a withdrawal flag or a second answer in it still refuses
    ("```json\n{\"answer\": \"E\", \"abstain\": true, \"reason\": \"not confident enough\"}\n```", "E", SQUARE),
    ("{\"answer\": \"E\", \"abstain\": true}", "E", SQUARE),
    ("49 is 7 squared.\n\n```json\n{\"answer\": \"E\", \"backup_answer\": \"D\"}\n```", "E", SQUARE),
]


@pytest.mark.parametrize(("completion", "gold", "prompt"), MATH_GENUINE)
def test_genuine_formatted_math_answers_are_paid(completion, gold, prompt):
    assert math(completion, gold, prompt) == 1.0


@pytest.mark.parametrize(("completion", "gold", "prompt"), MATH_HACKS)
def test_formatted_math_hacks_are_refused(completion, gold, prompt):
    assert math(completion, gold, prompt) == 0.0


@pytest.mark.parametrize(("completion", "gold", "prompt"), CHOICE_GENUINE)
def test_genuine_formatted_choices_are_paid(completion, gold, prompt):
    assert choice(completion, gold, prompt) == 1.0


@pytest.mark.parametrize(("completion", "gold", "prompt"), CHOICE_HACKS)
def test_formatted_choice_hacks_are_refused(completion, gold, prompt):
    assert choice(completion, gold, prompt) == 0.0


WORDS = st.text(alphabet="abcdefghij klmnop", min_size=3, max_size=40).filter(lambda words: " " in words.strip())


@settings(max_examples=60, deadline=None)
@given(words=WORDS)
def test_emphasis_markers_around_a_phrase_are_dropped_and_products_are_not(words):
    phrase = words.strip()
    assert shown_markdown(f"*{phrase}*") == phrase
    assert shown_markdown(f"2*{phrase}*3") == f"2*{phrase}*3"  # glued to a number: multiplication, not emphasis


@settings(max_examples=60, deadline=None)
@given(value=st.integers(min_value=0, max_value=10**6), words=st.sampled_from(["Answer", "Final answer", "Réponse", "Antwort"]))
def test_a_quote_is_unquoted_only_under_an_answer_heading(value, words):
    assert shown_markdown(f"#### {words}\n\n> **{value}**") == f"#### {words}\n\n**{value}**"
    assert shown_markdown(f"#### Context\n\n> **{value}**") == f"#### Context\n\n> **{value}**"
    assert shown_markdown(f"Some text.\n\n> {value}") == f"Some text.\n\n> {value}"


@settings(max_examples=60, deadline=None)
@given(cell=st.from_regex(r"[A-Za-z0-9 ]{1,20}", fullmatch=True).filter(lambda cell: cell.strip() and "  " not in cell),
       rows=st.integers(min_value=1, max_value=4))
def test_only_a_one_row_table_reads_its_answer_cell(cell, rows):
    table = "| Question | Answer |\n|---|---|\n" + "".join(f"| q{i} | {cell} |\n" for i in range(rows))
    read = shown_markdown(table)
    assert read.startswith(table)
    assert (read[len(table):] == f"Answer: {cell.strip()}\n") == (rows == 1)


@settings(max_examples=60, deadline=None)
@given(whole=st.integers(min_value=0, max_value=999), part=st.integers(min_value=0, max_value=999))
def test_a_number_never_names_an_option_inside_a_longer_number(whole, part):
    import re
    pattern = re.compile(_text_pattern(str(part)))
    assert pattern.search(f"so {whole}.{part}.") is None
    assert pattern.search(f"so {part}.{whole}.") is None
    assert pattern.search(f"so it is {part}.") is not None


@settings(max_examples=60, deadline=None)
@given(a=st.integers(min_value=2, max_value=99), b=st.integers(min_value=2, max_value=99))
def test_a_working_note_ending_on_a_value_the_line_lacks_is_no_working(a, b):
    line = f"The answer is {a * b}."
    assert _is_working(f"${a} \\cdot {b} = {a * b}$.", line)
    assert _is_working(f"With $x = {a}$, $y = {a} \\cdot {b}$.", line)
    assert not _is_working(f"${a} \\cdot {b} = {a * b + 1}$.", line)
    assert not _is_working(f"Actually ${a} \\cdot {b} = {a * b}$.", line)


@settings(max_examples=40, deadline=None)
@given(a=st.integers(min_value=0, max_value=999), b=st.integers(min_value=0, max_value=999),
       predicate=st.sampled_from(["work", "both work", "are solutions", "satisfy it"]))
def test_a_list_of_two_values_then_a_predicate_is_no_single_answer(a, b, predicate):
    assume(a != b)  # (one value written twice is that value)
    found = extract_answer(f"Both {a} and {b} {predicate}.")
    assert found is not None and found.text.replace(" ", "") == f"{a}and{b}" and found.source.endswith(HEDGED_INSIDE)


@settings(max_examples=40, deadline=None)
@given(junk=JUNK, letter=LETTER)
def test_hostile_text_in_markdown_structures_is_read_without_error(junk, letter):
    read_filled(("#### Final answer\n\n> {j} {l}", "| Question | Answer |\n|---|---|\n| {j} | {l} |", "<details><summary>{j}</summary>{l}</details>",
                 "*{j} {l}*", "x {l}.[^1]\n\n[^1]: {j} = 3", "```json\n{{\"answer\": \"{j}\"}}\n```"), junk, letter)
    shown_markdown(junk)


@pytest.mark.parametrize("completion,gold,expected", [
    ("Half of 14 is seven.\n\n#### seven", "7", 1.0),  # GSM8K's marker before a number in words (the notation sweep)
    ("21 in all.\n#### Twenty-one", "21", 1.0),
    ("#### Final answer\n\nThe answer is 72.", "72", 1.0),  # a heading of words, then the answer
    ("#### Final answer\n\nMaybe 72, maybe 75.", "72", 0.0),
])
def test_gsm8k_marker_before_number_words_is_still_the_marker(completion, gold, expected):
    assert math(completion, gold) == expected
