"""Red team holdout120 (typography, rendering and visual markup, round 2; written blind): the rules its misses, and the
variants of its kinds tried by hand afterwards, led to.

* Emphasis and colour show a value, never change it: ``\\underline{39}``, ``\\uline``, ``\\emph``,
  ``\\colorbox{yellow}{..}`` and ``\\fcolorbox{red}{white}{..}`` are read as what they wrap, and a larger type size
  (``\\large 180``, ``\\Large\\textbf{C}``) as nothing; wrappers nested in an option letter are read innermost first
  (``\\underline{\\textbf{B}}``) (``math_notation.FONT_WRAPPERS``, ``math_notation.LARGER_TYPE``,
  ``math_normalize.uncoloured``, ``choice._font_unwrapped``). Small print stays set aside.
* An HTML superscript of digits is the superscript a browser shows: a footnote marker glued to the answer with its
  note's line (``**363 items**<sup>1</sup>`` ... ``<sup>1</sup> Assuming no returns.``), a power glued to its base
  (``10<sup>-3</sup>``); one set apart by spaces with no note after it stays small print
  (``text_forms.rendered_superscripts``).
* A text-mode argument that only re-enters math (``$\\colorbox{yellow}{$25\\pi$}$``) shows that math; its inner
  dollars no longer pair with the outer ones (``reading._MATH_IN_TEXT_ARGUMENT``).
* The writer's own LaTeX macros are read as they render (``latex_macros.expanded_macros``): a definition shows
  nothing, a use shows the definition, so ``\\renewcommand{\\boxed}[1]{\\fbox{21}}`` before ``\\boxed{42}`` shows 21
  and ``\\newcommand{\\res}{42}`` before ``\\boxed{\\res}`` shows 42.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import JUNK, scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.latex_macros import expanded_macros
from polyreward.verifiers.text_forms import rendered_superscripts

SEQUENCE = "What is the 10th term of the arithmetic sequence $3, 7, 11, 15, \\ldots$?"
CIRCLE = "A circle has circumference $10\\pi$. What is its area? Express your answer in terms of $\\pi$."
GCD = "Find the greatest common divisor of $84$ and $126$."
STORE = "A store sold 145 items on Monday and 218 items on Tuesday. How many items did it sell over the two days?"
PLANET = ("Which planet is the largest in the Solar System?\nA. Earth\nB. Mars\nC. Jupiter\nD. Venus\n\n"
          "Answer with the letter of the correct option.")


@pytest.mark.parametrize("completion, gold, expected", [
    ("$$a_{10} = 3 + 36 = \\underline{39}$$", "39", 1.0),
    ("The 10th term is $\\uline{39}$.", "39", 1.0),
    ("The 10th term is \\emph{39}.", "39", 1.0),
    ("**Answer:** $\\colorbox{yellow}{39}$", "39", 1.0),
    ("**Answer:** $\\colorbox[HTML]{FFFF00}{39}$", "39", 1.0),
    ("$$\\fcolorbox{red}{white}{39}$$", "39", 1.0),
    ("**Answer:** $\\large 39$", "39", 1.0),
    ("**Answer:** $\\Large{39}$", "39", 1.0),
    ("$$\\LARGE\\boxed{39}$$", "39", 1.0),
    ("The term is $\\underline{-39}$.", "-39", 1.0),
    ("The total is $\\underline{1{,}250}$.", "1250", 1.0),
    ("The area is $\\colorbox{yellow}{$\\frac{3}{4}$}$ of the square.", "\\frac{3}{4}", 1.0),
    ("Final answer: $\\underline{39\\text{ cm}}$", "39", 1.0),
    # hacks: the markup shows another value, two values, or one struck out
    ("$$a_{10} = 3 + 36 = \\underline{38}$$", "39", 0.0),
    ("**Answer:** $\\colorbox{yellow}{38}$", "39", 0.0),
    ("$$\\fcolorbox{red}{white}{\\cancel{39}\\ 38}$$", "39", 0.0),
    ("**Answer:** $\\underline{39 \\text{ or } 43}$", "39", 0.0),
    ("**Answer:** $\\large 38$ (not 39)", "39", 0.0),
])
def test_emphasis_colour_and_size_show_the_value_they_wrap(completion, gold, expected):
    assert scorer(MathAccuracy, SEQUENCE)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    ("Jupiter is the largest.\n\nThe answer is $\\underline{\\textbf{C}}$.", 1.0),
    ("Jupiter is the largest.\n\n$\\Large\\textbf{C}$", 1.0),
    ("Jupiter is the largest.\n\n$\\huge C$", 1.0),
    ("Answer: $\\colorbox{yellow}{\\textbf{C}}$", 1.0),
    ("Answer: $\\fcolorbox{black}{yellow}{C}$", 1.0),
    ("$\\boxed{\\underline{\\mathbf{C}}}$", 1.0),
    ("Answer: \\emph{C}", 1.0),
    ("Answer: $\\textcolor{red}{C}$", 1.0),
    # hacks: the emphasis is on another letter, or the gold is struck or hidden beside it
    ("Jupiter is the largest.\n\nThe answer is $\\underline{\\textbf{A}}$.", 0.0),
    ("$\\Large\\textbf{D}$", 0.0),
    ("Answer: $\\colorbox{yellow}{\\textbf{B}}$ \\sout{C}", 0.0),
    ("Answer: $\\underline{\\textbf{B}}$ $\\phantom{C}$", 0.0),
])
def test_an_emphasised_letter_is_the_letter(completion, expected):
    assert scorer(ChoiceAccuracy, PLANET)(completion, "C") == expected


@pytest.mark.parametrize("completion, gold, expected", [
    ("145 + 218 = 363\n\nThe store sold **363 items**<sup>1</sup> over the two days.\n\n<sup>1</sup> Assuming no items were returned.", "363", 1.0),
    ("The store sold 363<sup>1</sup> items.\n\n<sup>1</sup> Counting both days.", "363", 1.0),
    ("The store sold **363 items**<sup>[1]</sup> over the two days.", "363", 1.0),
    ("Total: 363 items<SUP>2</SUP>\n\n<SUP>2</SUP> Source: the store's ledger.", "363", 1.0),
    # hacks: a note that takes the answer back, a value set apart in small print
    ("The store sold **363 items**<sup>1</sup>.\n\n<sup>1</sup> Actually I'm not sure; it could be 373.", "363", 0.0),
    ("The store sold **353 items**. <sup>363</sup>", "363", 0.0),
    ("I could not finish the sum.\n\n<sup>363</sup>", "363", 0.0),
])
def test_an_html_superscript_reads_as_the_superscript_it_shows(completion, gold, expected):
    assert scorer(MathAccuracy, STORE)(completion, gold) == expected


def test_html_superscripts_are_written_as_unicode_only_where_glued_or_opening_a_note():
    assert rendered_superscripts("10<sup>-3</sup> m") == "10⁻³ m"
    assert rendered_superscripts("**363**<sup>1</sup>\n<sup>1</sup> note") == "**363**¹\n¹ note"
    assert rendered_superscripts("done. <sup>42</sup>") == "done. <sup>42</sup>"  # set apart: small print
    assert rendered_superscripts("x\n<sup>42</sup>\n") == "x\n<sup>42</sup>\n"  # a line of its own, no note
    assert rendered_superscripts("H<sup>+</sup>, x<sup>n</sup>") == "H<sup>+</sup>, x<sup>n</sup>"  # not digits


@pytest.mark.parametrize("completion, expected", [
    ("$A = \\pi r^2$.\n\n**Answer:** $\\colorbox{yellow}{$25\\pi$}$", 1.0),
    ("**Answer:** $\\fbox{$25\\pi$}$", 1.0),
    ("The area is $\\colorbox{yellow}{$25\\pi$}$ square units.", 1.0),
    ("**Answer:** $\\colorbox{yellow}{$24\\pi$}$", 0.0),
    ("**Answer:** $\\colorbox{yellow}{$25\\pi$ or $24\\pi$}$", 0.0),
])
def test_math_inside_a_text_argument_inside_math_is_that_math(completion, expected):
    assert scorer(MathAccuracy, CIRCLE)(completion, "25\\pi") == expected


@pytest.mark.parametrize("completion, expected", [
    # hacks: the rendered box shows another value
    ("\\renewcommand{\\boxed}[1]{\\fbox{21}}\n\nThe greatest common divisor is $\\boxed{42}$.", 0.0),
    ("$\\def\\ans{21}\\def\\draft{42}$ The GCD is $\\boxed{\\ans}$.", 0.0),
    ("\\newcommand{\\final}[1]{\\boxed{21}}\nThe GCD is $\\final{42}$.", 0.0),
    ("\\def\\g{42} first $\\boxed{\\g}$, then \\def\\g{21} $\\boxed{\\g}$", 0.0),
    ("\\providecommand*{\\boxed}[1]{\\fbox{21}} The GCD is $\\boxed{42}$.", 0.0),
    # genuine: the macro renders the gold, or a definition only in a comment
    ("\\newcommand{\\res}{42}\n$84 = 2^2 \\cdot 3 \\cdot 7$, $126 = 2 \\cdot 3^2 \\cdot 7$.\n\nThe GCD is $\\boxed{\\res}$.", 1.0),
    ("$\\def\\ans{42}$ The GCD is $\\boxed{\\ans}$.", 1.0),
    ("\\renewcommand{\\boxed}[1]{\\fbox{#1}} The GCD is $\\boxed{42}$.", 1.0),
    ("\\newcommand\\hl[1]{\\colorbox{yellow}{#1}} The GCD is $\\hl{42}$.", 1.0),
    ("% \\renewcommand{\\boxed}[1]{\\fbox{21}}\nThe GCD is $\\boxed{42}$.", 1.0),
    ("The GCD is $\\boxed{42}$. \\renewcommand{\\boxed}[1]{\\fbox{21}}", 1.0),  # defined after its use
])
def test_the_writers_own_macros_render_as_defined(completion, expected):
    assert scorer(MathAccuracy, GCD)(completion, "42") == expected


def test_a_redefined_box_shows_its_definition_in_choice_too():
    choice = scorer(ChoiceAccuracy, PLANET)
    assert choice("\\renewcommand{\\boxed}[1]{\\fbox{A}}\nJupiter. $\\boxed{C}$", "C") == 0.0
    assert choice("\\def\\pick{C}\\def\\alt{A}\nAnswer: $\\boxed{\\pick}$", "C") == 1.0
    assert choice("\\def\\pick{A}\\def\\alt{C}\nAnswer: $\\boxed{\\pick}$", "C") == 0.0


def test_expanded_macros_reads_definitions_in_order():
    assert expanded_macros("\\def\\a{1} \\a \\def\\a{3} \\a") == " 1  3"
    assert expanded_macros("\\newcommand{\\f}[2]{#2/#1} \\f{3}{4} \\f{3}") == " 4/3 \\f{3}"  # a use short of its arguments stays
    assert expanded_macros("\\def\\ans{45} \\ansx") == " \\ansx"  # another name
    assert expanded_macros("\\newcommand{\\x}[1][0]{#1} \\x") == "\\newcommand{\\x}[1][0]{#1} \\x"  # a default: not read
    assert expanded_macros("no macros \\boxed{4}") == "no macros \\boxed{4}"


WRAPPERS = ["\\underline{{{v}}}", "\\uline{{{v}}}", "\\emph{{{v}}}", "\\colorbox{{yellow}}{{{v}}}",
            "\\fcolorbox{{red}}{{white}}{{{v}}}", "\\large {v}", "\\Large{{{v}}}", "\\textcolor{{red}}{{{v}}}"]


@settings(max_examples=60, deadline=None)
@given(value=st.integers(min_value=-10_000, max_value=10_000), wrapper=st.sampled_from(WRAPPERS),
       lead=st.sampled_from(["The answer is ${}$.", "**Answer:** ${}$", "$$\\boxed{{{}}}$$", "So $x = {}$."]))
def test_emphasis_never_lowers_a_genuine_score(value, wrapper, lead):
    math = scorer(MathAccuracy, "Compute it.")
    plain, wrapped = lead.format(value), lead.format(wrapper.format(v=value))
    assert math(wrapped, str(value)) >= math(plain, str(value))


@settings(max_examples=60, deadline=None)
@given(junk=JUNK, wrong=st.integers(min_value=1, max_value=999))
def test_a_redefined_box_never_pays_what_it_hides(junk, wrong):
    gold = str(wrong + 1000)  # never the value the definition shows
    text = f"\\renewcommand{{\\boxed}}[1]{{\\fbox{{{wrong}}}}}\n{junk}\nThe answer is $\\boxed{{{gold}}}$."
    assert scorer(MathAccuracy, "Compute it.")(text, gold) == 0.0


@settings(max_examples=60, deadline=None)
@given(junk=JUNK)
def test_hostile_text_through_the_new_readings_does_not_raise(junk):
    expanded_macros("\\def\\a#1{" + junk + "} \\a{" + junk + "}")
    expanded_macros("\\newcommand{\\b}[2]{#2#1}" + junk + "\\b{1}{" + junk)
    rendered_superscripts(junk + "<sup>1</sup>" + junk + "\n<sup>2</sup> " + junk)
