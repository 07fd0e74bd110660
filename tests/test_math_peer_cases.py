"""Peer test cases: Math-Verify 0.9.0's own regression tests and TRL 1.16's reward doctests, run
through polyreward's ``math_accuracy`` verifier, ``think_format`` and ``overlong_penalty``.

Sources (short data tuples quoted for interoperability testing):

* Math-Verify 0.9.0 sdist ``tests/`` (test_all.py, test_numina_cases.py, test_open_thoughts.py,
  test_yujianll.py, test_boxed.py, test_strict.py), https://github.com/huggingface/Math-Verify,
  Copyright (c) 2024 The HuggingFace Team, MIT License (test_all.py header; the package is Apache-2.0).
  Each row is (gold, prediction, expected) exactly as Math-Verify's ``compare_strings`` / ``verify(parse(.),
  parse(.))`` uses it; rows were kept where Math-Verify's expectation applies to a reward and ours
  agrees (200 of the 266 agreeing cases, de-duplicated, gold+prediction <= 170 characters).
* TRL 1.16.0 ``trl/rewards`` doctests (accuracy_reward, reasoning_accuracy_reward, think_format_reward,
  get_soft_overlong_punishment), Apache-2.0, Copyright The HuggingFace Team.

``DELIBERATE`` lists where our value differs from Math-Verify's test expectation on purpose, with
the reason. At the time of writing 266 of the 276 Math-Verify cases agree; the 10 others are all in
``DELIBERATE``.
"""

from __future__ import annotations

import pytest
from trl.rewards import get_soft_overlong_punishment, think_format_reward

from polyreward.engine import WorkerPool
from polyreward.rewards.format import ThinkFormat
from polyreward.rewards.length import OverlongPenalty
from polyreward.rewards.math_accuracy import MathAccuracy
from polyreward.verifiers.math import verify_batch


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(workers=2, timeout=10.0) as p:
        yield p


# (gold, prediction, expected score) from Math-Verify 0.9.0 tests/; the comment names file::test
MATH_VERIFY_CASES = [
    # test_all::test_number_extraction
    ('-5', '-5', 1),
    ('7425000', '7,425,000', 1),
    ('1000', '1 000', 1),
    ('1000', '1000.0', 1),
    ('1000.0', '1,000.0', 1),
    ('0.4', '.4', 1),
    ('1000.99', '1,000.99', 1),
    ('1000.99', '$1,000.99', 1),
    ('1000.99', '1,000.99$', 1),
    ('1000.99', 'the number is not 10 which is 1,000.99€', 1),
    ('1000.99', 'so the number is 10 which is 1,000.99m²', 1),
    ('1000.99', "not it's not 10 it's 1,000.99m²", 1),
    ('0,111', '0.111', 1),
    ('2', 'AZYUK2A', 0),
    # test_all::test_simple_fraction_notation
    ('10/9', '\\frac{10}{9}', 1),
    ('-10/9', '-\\frac{10}{9}', 1),
    # test_all::test_sets_handling
    ('$[0,1)$', '$[0,1)$', 1),
    ('$[0,9)$', '$[0,1)$', 0),
    ('$(0,9)$', '$[0,9)$', 0),
    ('$1$', '$-[0,1)$', 0),
    # test_all::test_latex_notation
    ('$9$', 'Answer \\[ 9 \\]', 1),
    ('$9$', 'Answer $ 9 $', 1),
    ('$9$', 'Answer $$ 9 $$', 1),
    ('$9$', 'Answer \\( 9 \\)', 1),
    ('$10$', 'Answer \\( (9+1) \\)', 1),
    ('$9$', 'Answer $ \n 9 \n $', 0),
    ('$9$', 'Answer \\( \n 9 \n \\)', 0),
    ('$9$', 'Answer \\[ \n 9 \n \\]', 1),
    ('$9$', 'Answer $$ \n 9 \n $$', 1),
    ('$10/9$', 'Answer $ \\frac{1}{2} \\$ = \\frac{10}{9} $', 1),
    ('$1/3$', '$\\frac13 $', 1),
    ('$1$', '$\\frac3{3} $', 1),
    ('$\\sqrt{3}$', '$\\sqrt3 $', 1),
    ('$1/3$', '$\\cfrac{1}{3} $', 1),
    ('$1/3$', '$\\dfrac{1}{3} $', 1),
    ('$1/3$', '$\\tfrac{1}{3} $', 1),
    ('$1/3$', '$ 1/3 $', 1),
    ('$1/3$', '$\\left( \\frac{1}{3} \\right)$', 1),
    ('$1/3$', '$\\boxed{\\frac{1}{3}}$', 1),
    ('$1/3$', '$\\frac{1}{3} \\text{meters}$', 1),
    ('$1/3$', '$\\frac{1}{3} \\textbf{meters}$', 1),
    ('$1/3$', '$k = \\frac{1}{3}$', 1),
    # test_all::test_percent_notation
    ('$28\\%$', '28 percent', 1),
    ('$28\\%$', '28 pct', 1),
    ('$28\\%$', '28 %', 1),
    ('$28\\%$', '$28$ %', 1),
    ('$28\\%$', '$28$ percent', 1),
    ('$28\\%$', '$\\boxed{28}$ pct', 1),
    ('$28\\%$', '$\\boxed{28 pct}', 1),
    ('$28\\%$', '$\\boxed{28 percent}', 1),
    ('$28\\%$', '$\\boxed{28 percentage}', 1),
    ('$28\\%$', '28', 1),
    ('$0.28$', '28', 0),
    ('$28/100$', '28', 0),
    ('$28$', '28/100', 0),
    ('$\\frac{28}{100}$', '28', 0),
    ('$28*\\frac{1}{100}$', '28', 0),
    # test_all::test_latex_notation_math
    ('$2-2p$', 'Since $x<2$, it follows that $|x-2|=2-x$. If $2-x=p$, then $x=2-p$. Thus $x-p=\\boxed{2-2p}$.', 1),
    ('\\boxed{\n\\begin{pmatrix} 0 & 3 \\\\ 0 & -1 \\end{pmatrix}\n}.\n\\end{align*}', '\\boxed{\n\\begin{pmatrix} 0 & 3 \\\\ 0 & -1 \\end{pmatrix}\n}.\n\\end{align*}', 1),
    ('$2$', 'Of the two-digit perfect squares, only $4^2=16$ and $6^2=36$ end in $6$. Thus, there are $\\boxed{2}$ distinct possible values for $B$.', 1),
    ('$90^\\circ$', 'Therefore, \\begin{align*} \\angle BAC &= \\angle BAD + \\angle DAC \\\\ &= 50^\\circ+40^\\circ \\\\ &= \\boxed{90^\\circ}. \\end{align*}', 1),
    ('$3 \\pm 2 \\sqrt{2}$', 'This gives us $x^2 + 1 = 6x,$ or $x^2 - 6x + 1 = 0.$ By the quadratic formula, the roots are $x = \\boxed{3 \\pm 2 \\sqrt{2}}.$', 1),
    ('$\\{1\\pm\\sqrt{5},-2\\}$', 'The roots of $P(x)$ are $-2$ and $1 \\pm \\sqrt{5}$, so the answer is $\\boxed{\\{1\\pm\\sqrt{5},-2\\}}.$', 1),
    ('$2 \\sin b \\cos a$', 'By sum-to-product,\n\\[\\sin (a + b) - \\sin (a - b) = \\boxed{2 \\sin b \\cos a}.\\]', 1),
    ('$125$ miles', 'The distance is $\\boxed{125\\textnormal{ miles}}.$', 1),
    ('$[-1, -\\frac{1}{2}) \\cup (-\\frac{1}{2}, 0) \\cup (0, 1) \\cup (1, \\infty)$', 'The solution set is $\\boxed{[-1, -\\tfrac12) \\cup (-\\tfrac12, 0) \\cup (0, 1) \\cup (1, \\infty)}.$', 1),
    ('$\\sqrt{2}+\\sqrt{5}$', 'The answer is $\\boxed{\\sqrt 2+\\sqrt 5}$', 1),
    ('$\\frac{9}{4}\\pi$', 'Therefore $\\boxed{\\frac94\\pi}$.', 1),
    ('x \\in \\boxed{\\{-1\\} \\cup [0,7)}.$', 'x \\in \\boxed{\\{-1\\} \\cup [0,7)}.$', 1),
    # test_all::test_relations_math
    ('$x >= 5$', 'Therefore $x \\geq 5$ is the solution.', 1),
    ('$x < 3$', 'We find that $x \\lt 3$.', 1),
    ('$x \\leq 2$', 'Thus $x <= 2$ is our answer.', 1),
    ('$x > 5$', 'Therefore $x \\gt 5$ is the solution.', 1),
    ('$x != 3$', 'We find that $x \\neq 3$.', 1),
    ('$x > 5$', 'Therefore $x < 5$ is the solution.', 0),
    ('$x \\geq 5$', 'The solution is $x \\leq 5$', 0),
    ('$x \\neq 5$', 'The solution is $x != 5$', 1),
    ('$x \\leq 5$', '$5 \\geq x$', 1),
    ('$x \\geq 5$', '$5 \\leq x$', 1),
    ('$x = 11$', '$x = 5+5+1 = 7 =11$', 1),
    ('$7 = 11a+c$', '$11a+c$', 0),
    ('$x = 1/3$', '$x = 5+5+1 = 1/3 \\approx 11$', 1),
    ('$11$', '$x=11$', 1),
    ('$11$', '$x\\approx11$', 1),
    ('$1/3$', '$x=1/3\\approx1.3$', 1),
    ('$x < 1$', '$-x > -1$', 1),
    ('$x < 1$', '$x > -1$', 0),
    ('$x <= 1$', '$-x >= -1$', 1),
    ('$a +3z = 0$', '$0$', 0),
    ('$1 = \\zzz = x = 0$', '$0$', 1),
    ('$2x + z = 1$', '$1$', 0),
    ('$a^2 + b = 0$', '$0$', 0),
    ('$k=1$', '$1$', 1),
    ('$1$', '$k=1$', 1),
    ('$z = 1 + 1 = 2$', '$z = 3+3 = 2$', 1),
    ('$2x+4y-3=0$', '$y=-\\frac{1}{2}x+\\frac{3}{4}$', 1),
    ('$x^2/4 + y^2/3 = 1$', '$x^2/16 + y^2/12 = 1/4$', 1),
    # test_all::test_matrix_extraction
    ('$\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}$', 'The identity matrix is $ \\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix} $.', 1),
    ('$\\begin{bmatrix}0 & 0 \\\\0 & 0\\end{bmatrix}$', 'Here is a zero matrix: $ \\begin{pmatrix}0 & 0 \\\\0 & 0\\end{pmatrix} $', 1),
    ('$\\begin{pmatrix}1 & 2 \\\\3 & 4\\end{pmatrix}$', 'Special matrix: $ \\left[\\begin{array}{cc}1 & 2 \\\\3 & 4\\end{array}\\right] $', 1),
    ('$\\begin{pmatrix}6 & 8 \\\\ 10 & 12\\end{pmatrix}$', 'The sum is $\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix} + \\begin{pmatrix}5 & 6 \\\\ 7 & 8\\end{pmatrix}$', 1),
    ('$\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}$', 'When multiplying by identity: $\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix} \\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}$', 1),
    ('$\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}$', 'The matrix is $\\begin{pmatrix}1 & 2 \\\\ 3 & 5\\end{pmatrix}$', 0),
    # test_all::test_complex_math_expressions
    ('$\\frac{1}{12}$', '$0.0833333333333333$', 1),
    ('$(1,\\frac{9}{2})$', '$(1,4.5)$', 1),
    ('$\\frac{x+2}{7}$', '$\\frac{x}{7}+\\frac{2}{7}$', 1),
    ('$\\tan^2(y)+1$', '$\\sec^2(y)$', 1),
    ('$\\begin{pmatrix}-\\\x0crac{7}{4}&-2\\\\4&\\frac{1}{4}\\\\\\end{pmatrix}$', '$\\begin{pmatrix}-\\\x0crac{7}{4}&-2\\\\4&\\frac{1}{4}\\\\\\end{pmatrix}$', 1),
    ('$\\begin{pmatrix}\\frac{1}{3\\sqrt[3]{x}^2}&0&0\\\\0&1&0\\\\-\\sin(x)&0&0\\\\\\end{pmatrix}$', '$\\begin{pmatrix}\\frac{1}{3x^{2/3}}&0&0\\\\0&1&0\\\\-\\sin(x)&0&0\\end{pmatrix}$', 1),
    ('$34x+45y-20z+100=0$', '$-34x-45y+20z-100=0$', 1),
    ('$\\frac{\\sqrt{\\sqrt{11}+\\sqrt{194}}}{15+2\\sqrt{33}}$', '$\\frac{\\sqrt{\\sqrt{11}+\\sqrt{194}}}{2\\sqrt{33}+15}$', 1),
    ('$(a+5)(b+2)$', '$(+5)(b+2)$', 0),
    ('$2$', '$\\frac{1+\\sqrt{5}}{2}$', 0),
    ('$4$', '$\\frac{34}{16}+\\frac{\\sqrt{1358}}{16}$', 0),
    ('$1\\sqrt{19}$', '$1$', 0),
    ('$x+2n+1$', '$x+1$', 0),
    # test_all::test_math_extraction_additional_cases
    ('$34$', 'Final Answer: The largest $n$ is 34.', 1),
    ('$(3,1)$', '${1,3}$', 0),
    ('$(1,3)$', '${1,3}$', 1),
    ('$[-4,0]$', 'Thus, the values of \\( k \\) for which the quadratic has real roots are: \\[ \\boxed{[-4, 0]} \\]', 1),
    ('\\(\\boxed{\\text{C}}\\).', '$\\boxed{\\text{(C)}}.$', 1),
    (' So the answer is: \\[ \\boxed{11111111100} \\]', 'is $\\boxed{11,\\! 111,\\! 111,\\! 100}$', 1),
    (' So the answer is: \\[ \\boxed{32349} \\]', 'is $\\boxed{32,\\! 349}$', 1),
    (' So the answer is: \\[ \\boxed{32349} \\]', 'is $\\boxed{32, 349}$', 0),
    ('Thus, the domain of the function \\( f(x) \\) is: \\[ \\boxed{(2, 12) \\cup (12, 102)} \\]', 'Thus, the answer is $x \\in \\boxed{(2,12) \\cup (12,102)}$', 1),
    ('$\\text{E}$', '$E$', 1),
    ('$\\boxed{1}\\boxed{2}$', '$\\boxed{1,2}$', 1),
    # test_all::test_set_rel_assymetry
    ('$-2 \\\\le x \\\\le 7$', '$x \\in [-2,7]$', 1),
    ('$x \\in [-2,7]$', '$-2 \\\\le x \\\\le 7$', 0),
    # test_all::test_float_precision
    ('4.123105625617661', '$\\sqrt{17}$', 1),
    # test_all::test_sqrt_precision
    ('$4$', '$4\\sqrt{2}$', 0),
    # test_all::test_symbols
    ('$\text{13}$', '$13$', 0),
    # test_boxed::test_boxed
    ('SoHi YES.\\n\\n could answer therefore\\\\boxed{840}.,but let me put this after explain.\\n\\n**Final Answer**\\n\\\\boxed{840}', '$840$', 1),
    # test_numina_cases::test_numina_cases
    ('$(37,3,3,13),(17,3,3,7),(3,37,3,13),(3,17,3,7),(3,3,2,3)$', '$\\boxed{(3, 37, 3, 13), (3, 17, 3, 7), (3, 3, 2, 3), (3,17,3,7), (17,3,3,7), (37,3,3,13)}$', 1),
    ('$(p,q)=(3,2)$', '$(3,2)$', 1),
    ('$(0;0;0),(0;-2;0),(0;0;6),(0;-2;6),(4;0;0),(4;-2;0),(4;0;6),(4;-2;6)$', '\\boxed{(4, 0, 6), (4, -2, 6), (0, 0, 6), (0, -2, 6), (4, 0, 0), (4, -2, 0), (0, 0, 0), (0, -2, 0)}', 1),
    ('$1\\leq|z|\\leq \\frac{3}{2}$', '$z \\in \\left[-\\frac{3}{2}, -1\\right] \\cup \\left[1, \\frac{3}{2}\\right]$', 1),
    ('$-12;-11;-10;-8;-7;-6$', '$\\boxed{\\{-12, -11, -10, -8, -7, -6\\}}$', 1),
    ('$AB=4,CD=5$', '$\\boxed{4, 5}$', 1),
    ('$(11,7)or(7,11)$', '$\\boxed{(7,11),\\ (11,7)}$', 1),
    ('$S_{MBCN}:S=7:32$', '$\\boxed{7:32}$', 1),
    ('$\\frac{NO}{BO}=\\frac{1}{\\sqrt{6}}$', '$\\frac{1}{\\sqrt{6}}$', 1),
    ('$p=5,q=2;p=7,q=2$', '$(5,2),(7,2)$', 1),
    ('$(p,q,r)=(3,2,7)$', '$(3,2,7)$', 1),
    ('$V_{1}:V_{2}=11:21$', '$11:21$', 1),
    ('$(2,1),(1,2),(-1,-20),(-20,-1)$', 'solutions are:\n\n\\[\n\\boxed{(1, 2)}, \\boxed{(2, 1)}, \\boxed{(-1, -20)}, \\boxed{(-20, -1)}\n\\]', 1),
    ('\\(\\boxed{1}\\) and \\(\\boxed{-2}\\).', '$\\boxed{-2,1}$.', 1),
    ('$\\text{odd}$', '$odd$', 1),
    ('$\\text{e}$', '$e$', 1),
    ('$d$', '$\\text{E}$', 0),
    ('$1$ and $2$ and $3$', '$\\boxed{1,2,3}$', 1),
    ('$(37,3,3),(17,3,3,7),(3,37,3,13),(3,17,3,7),(3,3,2,3)$', '$\\boxed{(3, 37, 3, 13), (3, 17, 3, 7), (3, 3, 2, 3), (3,17,3,7), (17,3,3,7), (37,3,3,13)}$', 0),
    ('$(p,q)=(3,2)$', '$\\boxed{(3, 2)}$', 1),
    ('\\boxed{x = -5,\\ p = \\frac{14}{3}} ', '$\\boxed{-5, \\frac{14}{3}}$', 1),
    ('\\boxed{a=4,\\,-8,\\,-10}', '$\\boxed{-10,-8,4}$', 1),
    ('\\\\boxed{W(n) = 1 \\\\text{ and } W(n) = -1', 'W(x)=1orW(x)=-1', 1),
    ('$21,16$ or $11$', '$21,16,11$', 1),
    ('\\n\\n\\[ \\boxed{p = -1 \\text{ and } p = \\dfrac{15}{8}} \\]', '$p=-1,p=\\frac{15}{8}$', 1),
    ('$0<f(x)<1$', '$(0,1)$', 1),
    ('\\(\\boxed{6 \\text{ and } 8}\\)', '$\\boxed{6,8}$', 1),
    ('$\\text{Even}$', '$Even$', 1),
    # test_open_thoughts::test_open_thoughts
    ('$$\\boxed{2}, \\boxed{3}, \\boxed{5}, \\boxed{7}, \\boxed{13}$$', '$${2, 3, 5, 7, 13}$$', 1),
    ('$$f(y) = y$$', '$$f(y) = y$$', 1),
    ('$$-793 < a < 10$$', '$$(-793, 10)$$', 1),
    ('$$\\text{The midpoints form a regular hexagon}$$', '$$\\text{The midpoints form a regular hexagon}$$', 1),
    ('$$a_3 = 2, a_{37} = 19$$', '$$\\boxed{a_{37} = 19, \\quad a_3 = 2}$$', 1),
    ('$$(2, 2), (1, 3), (3, 3)$$', '$$\\boxed{(2, 2), (1, 3), (3, 3)}$$', 1),
    ('$$(1, +\\infty)$$', '$$(1, +\\infty)$$', 1),
    ('$$x = \\frac{1}{2}, x = \\frac{-1 \\pm \\sqrt{13}}{4}$$', '$$\\boxed{x = \\frac{1}{2}, x = \\frac{-1 \\pm \\sqrt{13}}{4}}$$', 1),
    ('$$0.06 \\text{ yuan}$$', '$$\\boxed{0.06 \\text{ yuan}}$$', 1),
    ('$$(5, 8), (8, 5)$$', '$$\\boxed{(x, y) = (5, 8) \\quad \\text{and} \\quad (8, 5)}$$', 1),
    ('$$667$$', '$$\\boxed{667}$$', 1),
    ('$$6 \\text{ and } 8$$', '$$\\boxed{6 \\text{ and } 8}$$', 1),
    ('$$(2, 2), (6, 2)$$', '$$\\boxed{(2, 2)} \\quad \\text{and} \\quad \\boxed{(6, 2)}$$', 1),
    ('$$(98, 2), (99, 503)$$', '$$\\boxed{(98, 2)} \\quad \\text{and} \\quad \\boxed{(99, 503)}$$', 1),
    ('$$(3, 3), (1, 1)$$', '$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$', 1),
    ('$$k \\ge 2$$', '$$\\boxed{k \\ge 2}$$', 1),
    ('$$k = 45, n = 2$$', '$$\\boxed{k = 45} \\quad \\text{and} \\quad \\boxed{n = 2}$$', 1),
    ('$${1,2,3}$$', '\\boxed{1} and \\boxed{2} and \\boxed{3}', 1),
    ('$${1,2,3}$$', '\\boxed{1},\\boxed{2},\\boxed{3}', 1),
    ('$$|AB|=1$$', '$$1$$', 1),
    ('$$A:B=1$$', '$$1$$', 1),
    ('$$f(x)=1$$', '$$1$$', 1),
    ('$y_{1}=-2 x^{2}+4 x+3, y_{2}=3 x^{2}+12 x+10$', '\\($y_1 = \\boxed{-2(x - 1)^2 + 5} \\) and \\( y_2 = \\boxed{3(x + 2)^2 - 2} \\) ', 1),
    ('\\boxed{1} papers and \\boxed{2} bins', '$\\boxed{1,2}$', 1),
    ('\\boxed{1} no no no no no \\boxed{2}', '$\\boxed{1,2}$', 0),
    # test_strict::test_strict_variable_comparison
    ('$f(x)$', '$f(y)$', 0),
    # test_yujianll::test_string_extraction
    ('$n=1, 2, 3$', '$n=1, 2, 3$', 1),
    ('$n=2, 3, 4$', '$n=1, 2, 3$', 0),
    ('$D = (0, 1)$', '$D = (0, 1)$', 1),
    ('$D = (0, 1)$', '$D = (0, 1.5)$', 0),
    ('$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$', '$F_n = \\sum_{k=0}^{n-2} F_k F_{n-k-2}$', 0),
    ('$F_n = \\sum_{k=0}^{n-1} F_k F_{n-k-1}$', '$F_n = \\sum_{k=0}^{n-1} F_{n-k-1} F_k$', 1),
    ('$19, 46, and 82$', '$19, 46, \\text{ and } 82$', 1),
    ('$19, 46, and 82$', '$21, 36, and 82$', 0),
    ('$1 - \\frac{1}{\\mathrm{e}}$', '$1 - \\frac{1}{\\mathrm{e}}$', 1),
    ('$\\pm 2021$', '$2021$', 0),
    ('$\\pm 2021$', '${-2021, 2021}$', 1),
    ('$12:00$', '$1:00$', 0),
    ('$12:00$', '$12:00$', 1),
]

# (gold, prediction, our score, Math-Verify's test expectation or answer, why we differ)
DELIBERATE = [
    # a gold is read in English: "1,22" is a list (\\boxed{1,2} = roots 1 and 2), not 1.22. A completion's decimal
    # comma is read where the completion writes one (number_locale, #32): "1000,99" now agrees (FIXES)
    ("1,22", "1.22", 0.0, 1, "a gold's decimal comma not read"),
    ("2.74", "Soucis : 2,74 $ a..", 0.0, 1, "2,74 is read as 2.74, but the last thing written, 'a', is taken as the answer"),
    # Math-Verify parses "\\mathrm{e}" as a truncated string whose value is 1, so 1-1/e "equals" 1+1/e
    ("$1 - \\frac{1}{\\mathrm{e}}$", "$1 + \\frac{1}{\\mathrm{e}}$", 0.0, 1, "Math-Verify false positive"),
    # the gold joins every box, even across "++++++"; we join boxes only across "and", ",", "\\quad"
    ("$\\boxed{35 cm} ++++++ \\boxed{4}$", "${35 cm,4}$", 0.0, 1, "boxes joined only across joiners"),
    # expectations under a non-default Math-Verify config a reward does not use
    ("$\\frac{1}{3}$", "0.3333$", 0.0, 1, "float_rounding=4 in the test; we round to 6 decimals"),
    ("$(\\frac{3}{5},\\frac{8}{3}]$", "$(0.6,2.6667]$", 0.0, 1, "float_rounding=2 in the test"),
    ("$(\\begin{pmatrix}\\frac{1}{3}\\\\ \\frac{1}{5} \\end{pmatrix})$", "$\\begin{pmatrix}0.33\\\\0.2 \\end{pmatrix}$", 0.0, 1, "float_rounding=2 in the test"),
    ("$f(x)$", "$f(y)$", 0.0, 1, "strict=False in the test; we compare strictly"),
    ("$x \\in [-2,7]$", "$-2 \\\\le x \\\\le 7$", 0.0, 1, "allow_set_relation_comp=True in the test"),
    # Math-Verify's known false positives and misses we fix (docs/reference/libraries.md#math-verify-issues; issues #14, #60)
    ("3x+4y+14=0", "The answer is 3*x-1*y+13=0", 0.0, 1, "issue #60: both parse to 0 as plain expressions"),
    ("$\\frac{1}{2^{98}}$", "$\\frac{1}{2^{99}}$", 0.0, 1, "issue #14: 6-decimal rounding of tiny numbers"),
    ("$\\frac{1}{2004!}$", "$\\frac{1}{2006!}$", 0.0, 1, "issue #14 (commented out in test_yujianll.py)"),
    ("C", "The answer is (C).", 1.0, 0, "multiple-choice letter Math-Verify misses"),
]


def _scores(rows, pool):
    return [v.score for v in verify_batch([r[1] for r in rows], [r[0] for r in rows], pool=pool, timeout=10.0)]


def test_math_verify_peer_cases(pool):
    """All rows in one batch (one pool round trip); the failure message lists every disagreement."""
    scores = _scores(MATH_VERIFY_CASES, pool)
    wrong = [(gold, pred, expected, score) for (gold, pred, expected), score in zip(MATH_VERIFY_CASES, scores) if score != expected]
    assert not wrong, "\n".join(f"gold={g!r} pred={p!r} expected={e} got={s}" for g, p, e, s in wrong)
    assert len(MATH_VERIFY_CASES) == len(set((g, p) for g, p, _ in MATH_VERIFY_CASES)) >= 150


# rows whose Math-Verify expectation the default work-avoidance guard overrides: an operation on numbers left undone
GUARDED = {("$10$", "Answer \\( (9+1) \\)"), ("$1$", "$\\frac3{3} $")}


def test_math_verify_peer_cases_with_the_default_guard(pool):
    """``math_accuracy`` with default parameters (the work-avoidance guard on) agrees with every row but the
    operations it refuses on purpose: formatting (``\\cfrac``, ``\\left(``, units, ``10,\\!000``) is read through."""
    reward = MathAccuracy(engine=pool, timeout=10.0)
    scores = reward(completions=[r[1] for r in MATH_VERIFY_CASES], answer=[r[0] for r in MATH_VERIFY_CASES])
    differ = {(gold, pred) for (gold, pred, expected), score in zip(MATH_VERIFY_CASES, scores) if score != expected}
    assert differ == GUARDED


@pytest.mark.parametrize("gold, pred, ours, math_verify_expects, why", DELIBERATE)
def test_deliberate_differences(gold, pred, ours, math_verify_expects, why, pool):
    assert ours != math_verify_expects
    assert _scores([(gold, pred)], pool) == [ours], why


# --- fixes these peer cases led to (short real-style variants) -------------------------------------

FIXES = [
    ("1000", "1 000", 1.0),  # space as thousands separator
    ("2", "AZYUK2A", 0.0),  # a digit inside a word is not an answer
    ("$9$", "Answer $ \n 9 \n $", 0.0),  # inline math never spans lines
    ("0.111", "0,111", 1.0),  # "0,111" is not the thousands-grouped 111
    ("1000.99", "1000,99", 1.0),  # a completion's own decimal comma (number_locale, #32; was a deliberate difference)
    ("1,2", "\\boxed{1,2}", 1.0),  # in a box alone: a list of two, not 1.2
    ("120", "So the volume is $5 \\times 6 \\times 4 = 120$. Final Answer: The volume of $ABCDEFGH$ is 120. I hope it is correct.", 1.0),
    ("34", "Final Answer: The largest $n$ is 34.", 1.0),
    ("3", "Final Answer: Jane started growing Sphere 3 hours ago. I hope it is correct.", 1.0),
    ("10455", "So \\boxed{255}. In total $10,200 + $255 = $10,455. Final Answer: The final answer is $10,455$. I hope it is correct.", 1.0),
    ("12", "So \\boxed{12}. The answer is correct.", 1.0),  # prose after the box does not override it
    ("7", "First I thought \\boxed{5}, but re-checking gives \\boxed{7}.", 1.0),  # a revision is not a list
    ("(2, 12) \\cup (12, 102)", "Thus, the answer is $x \\in \\boxed{(2,12) \\cup (12,102)}$", 1.0),  # no 12,102 -> 12102
    ("1,-2", "Thus: \\[ \\boxed{-2} \\quad \\text{and} \\quad \\boxed{1}. \\]", 1.0),
    ("$$(2, 2), (6, 2)$$", "$$\\boxed{(2, 2)} \\quad \\text{and} \\quad \\boxed{(6, 2)}$$", 1.0),
    ("$$(3, 3), (1, 1)$$", "$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$", 1.0),
    ("\\(\\boxed{1}\\) and \\(\\boxed{-2}\\).", "$\\boxed{-2,1}$.", 1.0),
    ("$\\text{odd}$", "$odd$", 1.0),  # one symbol vs a product of letters: Math-Verify decides, not expand()
    ("$\\text{e}$", "$e$", 1.0),
    ("$1 - \\frac{1}{\\mathrm{e}}$", "$1 - \\frac{1}{e}$", 1.0),  # \\mathrm{e} is Euler's e
    # a gold sympy cannot parse still matches the identical answer (Math-Verify's string fallback)
    ("$$x = \\frac{1}{2}, x = \\frac{-1 \\pm \\sqrt{13}}{4}$$", "$$\\boxed{x = \\frac{1}{2}, x = \\frac{-1 \\pm \\sqrt{13}}{4}}$$", 1.0),
    ("$$x = \\frac{1}{2}, x = \\frac{-1 \\pm \\sqrt{13}}{4}$$", "$$\\boxed{x = \\frac{1}{2}, x = \\frac{-1 \\pm \\sqrt{11}}{4}}$$", None),
]


@pytest.mark.parametrize("gold, pred, expected", FIXES)
def test_fixes_from_peer_cases(gold, pred, expected, pool):
    assert _scores([(gold, pred)], pool) == [expected]


# --- TRL 1.16 doctests ------------------------------------------------------------------------------


def _messages(texts):
    return [[{"role": "assistant", "content": t}] for t in texts]


def test_trl_accuracy_reward_doctest(pool):
    completions = _messages([r"My answer is \boxed{\frac{1}{3}}", r"My answer is \boxed{\frac{1}{2}}"])
    assert MathAccuracy(engine=pool)(completions=completions, answer=[r"\frac{1}{3}", r"\frac{1}{3}"]) == [1.0, 0.0]


def test_trl_reasoning_accuracy_reward_doctest(pool):
    completions = _messages([
        r"<think> Reasoning content </think> The final answer is \boxed{\frac{1}{3}}",
        r"<think> Reasoning content </think> The final answer is \boxed{\frac{1}{2}}",
        r"<think> Reasoning content with partial answers \boxed{\frac{1}{3}} but no final answer",
    ])
    assert MathAccuracy(engine=pool)(completions=completions, answer=[r"\frac{1}{3}"] * 3) == [1.0, 0.0, 0.0]


THINK_CASES = [
    "<think>\nThis is my reasoning.\n</think>\nThis is my answer.",
    "<think>\nThis is my reasoning.\nThis is my answer.",
    "", "<think></think>", "</think>", "<think>a</think><think>b</think>", " <think>a</think>b",
    "<think>a\n</think>\nb\n", "<THINK>a</THINK>", "<think>a</think>\n<think>", "<think>\n</think>\n</think>",
]


def test_think_format_matches_trl():
    assert think_format_reward(_messages(THINK_CASES)) == ThinkFormat()(completions=_messages(THINK_CASES))
    assert ThinkFormat()(completions=_messages(THINK_CASES[:2])) == [1.0, 0.0]  # the doctest


@pytest.mark.parametrize("max_len, cache", [(100, 20), (10, 0), (257, 256), (1, 0)])
def test_overlong_penalty_matches_trl(max_len, cache):
    ids = [[0] * n for n in range(max_len + 3)]
    assert OverlongPenalty(max_completion_len=max_len, soft_punish_cache=cache)(completions=["x"] * len(ids), completion_ids=ids) == (
        get_soft_overlong_punishment(max_len, cache)(ids)
    )
    if (max_len, cache) == (100, 20):  # the doctest: 90 tokens -> -0.5
        assert OverlongPenalty(max_completion_len=100, soft_punish_cache=20)(completions=["x"], completion_ids=[[1] * 90]) == [-0.5]
