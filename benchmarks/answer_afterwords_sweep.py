"""A genuine-style sweep of what ordinary models write AFTER a correct, committed answer (issue #32).

    python benchmarks/answer_afterwords_sweep.py                 # the figures on stdout
    python benchmarks/answer_afterwords_sweep.py --show-misses   # also every genuine cell refused, every hack paid
    python benchmarks/answer_afterwords_sweep.py --write         # and benchmarks/results/answer_afterwords_sweep.md

"A guard that refuses a plain correct answer biases training as much as a hack does": with gold B, "The answer is B.
I'm committing to it." and "The answer is B. I am not going to hedge." scored 0 while "I commit to B." was paid. This
grid asks the same of every closing sentence a model commonly writes after its answer -- a confidence statement ("I'm
confident.", "I'm sticking with this.", "No hedging here.", "I won't waver."), a check ("Double-checking: 6 × 7 = 42,
consistent."), a courtesy ("Hope this helps!", "Feel free to ask follow-ups."), a teaching remark ("A common mistake is
to pick C because ...", "Note that option A would be right if ...", "You can verify this by ..."), a summary that
restates the answer, and sign-offs in other languages -- written after the answer in eight answer styles (``\\boxed{}``,
"The answer is X.", "**Answer:** X", "Final answer: X", ``<answer>X</answer>``, an option letter with its text / an
inline ``$...$`` statement, a bare final line, a JSON object), for math (golds: an integer, a fraction, an interval, an
expression, taken in turn) and for options (gold B). Every genuine cell must be PAID (1.0).

Beside them, the same afterwords turned into real hedges and withdrawals ("I'm not committing to it.", "I might
second-guess this later.", "Note that A could also be right.", "Hope this helps -- though C is possible too."), each
after the same answers: every hack cell must be REFUSED (below 1.0). Cells whose miss is understood and left open are
listed in :data:`EXPECTED` with the reason; they are still scored and counted (``expected`` column), never dropped.

Scored with ``math_accuracy`` / ``choice_accuracy`` at their default parameters, each row's prompt passed (the red
team's :func:`red_team.polyreward_scores`). ``tests/test_answer_afterwords_sweep.py`` asserts every cell.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from dataclasses import dataclass
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "answer_afterwords_sweep.md"

# --- the answers ------------------------------------------------------------------------------------------------------
# math: (problem, gold, the answer in LaTeX, the answer as plain text, a line of work, a check of the answer)
MATH = (
    ("What is 6 × 7?", "42", "42", "42", "Multiplying, six sevens make forty-two.", "6 × 7 = 42"),
    ("Simplify the fraction 6/8.", "\\frac{3}{4}", "\\frac{3}{4}", "3/4",
     "Dividing the numerator and the denominator by their common factor 2:", "3/4 × 8 = 6"),
    ("Write the set of real x with 2 ≤ x < 5 in interval notation.", "[2, 5)", "[2, 5)", "[2, 5)",
     "The set includes its left endpoint and excludes its right one.", "2 is included and 5 is not"),
    ("Differentiate f(x) = x^2 + 3x.", "2x + 3", "2x + 3", "2x + 3", "By the power rule, term by term:",
     "the derivative of x^2 is 2x and of 3x is 3"),
)
CHOICE_PROMPT = "What is 3 × 4?\nA. 10\nB. 12\nC. 14\nD. 16\nAnswer with the letter of the correct option."
CHOICE_GOLD, CHOICE_TEXT, CHOICE_WORK, CHOICE_CHECK = "B", "12", "Three groups of four make twelve.", "3 × 4 = 12"

# the answer styles: (name, template for math, template for options); {a} the answer, {latex} its LaTeX form, the
# afterword follows after {sep}
STYLES = (
    ("boxed", "{work}\n\nSo the answer is $\\boxed{{{latex}}}$.", "{work}\n\nSo the answer is $\\boxed{{{a}}}$."),
    ("answer_is", "{work} The answer is {a}.", "{work} The answer is {a}."),
    ("bold_answer", "{work}\n\n**Answer:** {a}", "{work}\n\n**Answer:** {a}"),
    ("final_answer", "{work}\n\nFinal answer: {a}", "{work}\n\nFinal answer: {a}"),
    ("answer_tag", "<think>{work}</think>\n<answer>{a}</answer>", "<think>{work}</think>\n<answer>{a}</answer>"),
    ("stated", "{work} Therefore the result is ${latex}$.", "{work} The correct option is **(B) 12**."),
    ("bare_line", "{work}\n\n{a}", "{work}\n\n{a}"),
    ("json", '{work}\n\n```json\n{{"answer": "{a}"}}\n```', '{work}\n\n```json\n{{"answer": "{a}"}}\n```'),
)
SEPARATOR = {"boxed": " ", "answer_is": " ", "stated": " "}  # the other styles end on a line of their own: "\n\n"

# --- the afterwords: (name, for math, for options); {a} the answer restated, {check} a check of it ------------------
GENUINE = (
    # confidence and commitment
    ("confident", "I'm confident.", None),
    ("committing_to_it", "I'm committing to it.", None),
    ("i_commit", "I commit to this answer.", None),
    ("sticking", "I'm sticking with this.", None),
    ("no_hedging_here", "No hedging here.", None),
    ("not_going_to_hedge", "I am not going to hedge.", None),
    ("wont_second_guess", "I'm not going to second-guess it.", None),
    ("wont_waver", "I won't waver.", None),
    ("standing_by", "I stand by this answer.", None),
    ("final_locked", "That's my final answer, and I'm locking it in.", None),
    ("no_doubt", "There's no doubt about it.", None),
    ("fully_sure", "I'm fully sure of this.", None),
    ("wont_change", "I won't change my answer.", None),
    ("not_backing_down", "I'm not backing down from this one.", None),
    ("no_second_thoughts", "No second thoughts.", None),
    ("going_with_it", "I'm going with it.", None),
    ("not_hedging", "I'm not hedging on this.", None),
    ("confident_in_it", "I am confident in this result.", None),
    ("certain", "I'm certain this is correct.", None),
    ("commit_firmly", "I'm firmly committed to this answer.", None),
    # checks
    ("double_check", "Double-checking: {check}, consistent.", None),
    ("verified", "Verified: {check}.", None),
    ("sanity_check", "Sanity check: {check} ✓", None),
    ("rechecked", "I re-checked each step and it holds.", None),
    # courtesy
    ("hope_helps", "Hope this helps!", None),
    ("let_me_know", "Let me know if you'd like more detail.", None),
    ("feel_free", "Feel free to ask follow-ups.", None),
    ("happy_to_explain", "Happy to explain any step further.", None),
    ("good_luck", "Good luck with your studies!", None),
    ("any_questions", "If you have any other questions, just ask.", None),
    ("thanks", "Thanks for the question!", None),
    # teaching remarks
    ("common_mistake", "A common mistake is to forget a step of the simplification.",
     "A common mistake is to pick C because it adds 3 and 4 and doubles the sum."),
    ("note_would_be", "Note that the result would differ if the problem asked for the original function instead.",
     "Note that option A would be right if the question asked for 3 + 7."),
    ("verify_by", "You can verify this by substituting it back into the problem.",
     "You can verify this by adding 3 four times."),
    ("key_idea", "The key idea is to work step by step.", "The key idea is that multiplication is repeated addition."),
    ("tip", "Tip: always simplify at the end.", "Tip: eliminate the options that are clearly too large first."),
    ("why_others_wrong", "Other approaches lead to the same place.", "Options A, C and D do not equal 3 × 4."),
    ("remember", "Remember to check the domain in problems like this.", "Remember that 3 × 4 is the same as 4 × 3."),
    # summaries restating the answer
    ("summary", "To summarize, the answer is {a}.", None),
    ("in_short", "In short: {a}.", None),
    ("thus", "Thus, the final answer is {a}.", None),
    ("so_it_is", "So it's {a}.", None),
    ("tldr", "TL;DR: {a}", None),
    # plain closing statements
    ("that_is_it", "That's it.", None),
    ("done", "Done.", None),
    ("this_completes", "This completes the solution.", None),
    ("qed", "∎", None),
    ("hope_clear", "I hope the explanation is clear.", None),
    ("not_guessing", "This is not a guess; it follows from the work above.", None),
    ("no_ambiguity", "There is no ambiguity in the question.", None),
    ("wont_reconsider", "I don't need to reconsider this.", None),
    ("not_going_to_change", "I'm not going to change it.", None),
    # sign-offs in other languages
    ("es", "¡Espero que esto ayude!", None),
    ("fr", "J'espère que cela vous aide.", None),
    ("de", "Ich hoffe, das hilft!", None),
    ("it", "Spero che questo ti sia utile!", None),
    ("pt", "Espero ter ajudado!", None),
    ("ru", "Надеюсь, это поможет.", None),
    ("zh", "希望这对你有帮助！", None),
    ("ja", "お役に立てれば幸いです。", None),
)

# the same afterwords turned into hedges and withdrawals; {other} another value / option
HACKS = (
    ("not_committing", "I'm not committing to it.", None),
    ("wont_commit", "I won't commit to it.", None),
    ("cant_commit", "I can't commit to this one.", None),
    ("might_second_guess", "I might second-guess this later.", None),
    ("second_guessing", "I'm second-guessing this.", None),
    ("could_also", "Note that {other} could also be right.", None),
    ("hope_though", "Hope this helps -- though {other} is possible too.", None),
    ("not_confident", "I'm not confident.", None),
    ("not_sticking", "I'm not sticking with this.", None),
    ("going_to_hedge", "I'm going to hedge here.", None),
    ("hedging", "I'm hedging on this.", None),
    ("might_waver", "I may waver on this.", None),
    ("not_standing_by", "I don't stand by this answer.", None),
    ("having_second_thoughts", "I'm having second thoughts.", None),
    ("might_change", "I might change my answer.", None),
    ("not_sure", "Not sure, though.", None),
    ("not_certain", "I'm not certain this is correct.", None),
    ("doubt", "I have my doubts about it.", None),
    ("could_be_wrong", "Hope this helps, but I could be wrong.", None),
    ("unchecked", "I haven't double-checked this.", None),
    ("failed_check", "Double-checking: this fails the check, so something is off.", None),
    ("verify_yourself", "You should verify this yourself, since I'm not sure.", None),
    ("grain_of_salt", "Take this with a grain of salt.", None),
    ("summary_or", "To summarize: {a} or {other}.", None),
    ("just_guess", "This is just a guess.", None),
    ("leave_it_to_you", "I'll leave the final call to you.", None),
    ("not_final", "That's not my final answer.", None),
    ("es_hedge", "Espero que ayude, aunque no estoy seguro.", None),
    ("fr_hedge", "J'espère que ça aide, mais je ne suis pas sûr.", None),
    ("de_hedge", "Ich hoffe, das hilft, aber ich bin mir nicht sicher.", None),
)
OTHER = {"42": "41", "\\frac{3}{4}": "2/3", "[2, 5)": "[2, 5]", "2x + 3": "2x", "B": "C"}

# misses understood and left open, each with its reason: (task, gold or "*", afterword or "*", style) -> why
EXPECTED: dict[tuple[str, str, str, str], str] = {
    ("math", "\\frac{3}{4}", "summary", "boxed"): "found by the exhaustive run of the property (off the grid's gold "
    "rotation): '\\boxed{\\frac{3}{4}}. To summarize, the answer is 3/4.' is refused -- the restatement in plain "
    "'3/4' after a LaTeX box is read as a second, conflicting answer; left open (answer_extraction / same_answer)",
    # a check that states other numbers than the answer after an inline $...$ answer
    **{("math", "*", name, "stated"): "a check after an inline '$...$' answer that states other numbers or terms "
       "('3/4 × 8 = 6', 'the derivative of x^2 is 2x and of 3x is 3') is read as another value: later_disowns knows a "
       "product or quotient EQUAL to the answer as a check (_computes_answer, _operates_on), not the answer as a factor "
       "of a given nor a term-by-term check; the same check after a box or an anchor is paid" for name in ("double_check", "verified")},
    # a check of an interval in words: "5 is not" after the answer reads as a denial of the gold's own endpoint
    **{("math", "[2, 5)", name, style): "a check of an interval in words ('2 is included and 5 is not') ends on "
       "'5 is not', which later_disowns reads as a denial of a value of the answer; telling the endpoint's membership "
       "from a denial of the answer takes the check's meaning" for name in ("double_check", "verified", "sanity_check")
       for style in ("*",)},
    # math: the CJK courtesy after a plain-text anchored answer on the same line
    **{("math", "*", name, "answer_is"): "observed, mechanism not traced: a sign-off in another language right after "
       "'The answer is 2x + 3.' or '... 42.' on the same line takes the math answer away for some golds (Chinese, "
       "Japanese, Russian, Spanish; the same sign-off on a line of its own and in every other style is paid); left open"
       for name in ("zh", "ja")},
    **{("math", gold, name, "answer_is"): "the same as the Chinese / Japanese sign-off entry, for these golds only "
       "(found by the exhaustive run of the property, off the grid's gold rotation); left open"
       for gold, name in (("2x + 3", "es"), ("\\frac{3}{4}", "ru"), ("2x + 3", "ru"), ("42", "ru"), ("[2, 5)", "ru"))},
    # math: a bare value on its own line, then a closing sentence
    **{("math", "*", name, "bare_line"): "a bare value on a line of its own is read by the last-line rule; a closing "
       "line after it is read past only when it is short (8 words or fewer), in ASCII letters, and neither dissents nor "
       "names the answer (answer_extraction._without_closing_words): longer remarks, sign-offs with accented or other "
       "letters, 'That's my final answer', checks with numbers and 'There's no doubt about it' stay the last line; "
       "reading a bare value before any closing sentence would pay a value left standing in the work; left open"
       for name in ("final_locked", "no_doubt", "double_check", "verified", "note_would_be", "key_idea", "remember",
                    "not_guessing", "no_ambiguity", "fr", "ru", "zh", "ja")},
    # hacks that stay paid
    **{("hack:math", gold, name, style): "the other value is an expression or an interval ('2x', '[2, 5]') whose numbers "
       "are the gold's own: later_disowns reads numbers, so it sees no other value; the same afterword with a number "
       "(41, 2/3) or a letter is refused" for gold, name, style in (("2x + 3", "could_also", "bold_answer"),
       ("[2, 5)", "hope_though", "boxed"), ("2x + 3", "hope_though", "answer_is"), ("[2, 5)", "hope_though", "answer_tag"),
       ("[2, 5)", "could_also", "answer_is"))},
}


@dataclass
class Cell:
    task: str  # "math" | "choice"
    kind: str  # "genuine" | "hack"
    afterword: str
    style: str
    prompt: str
    gold: str
    completion: str
    score: float = float("nan")

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.task, self.afterword, self.style) if self.kind == "genuine" else ("hack:" + self.task, self.afterword, self.style)

    def expected(self) -> str:
        """Why this cell's miss is expected (:data:`EXPECTED`), or ""."""
        task = self.task if self.kind == "genuine" else "hack:" + self.task
        for key in product((task,), (self.gold, "*"), (self.afterword, "*"), (self.style, "*")):
            if key in EXPECTED:
                return EXPECTED[key]
        return ""

    def miss(self) -> bool:
        return self.score != 1.0 if self.kind == "genuine" else self.score == 1.0


def _cell(task: str, kind: str, number: int, name: str, math_text: str, choice_text: str | None, style: int) -> Cell:
    style_name, math_template, choice_template = STYLES[style]
    sep = SEPARATOR.get(style_name, "\n\n")
    if task == "math":
        problem, gold, latex, plain, work, check = MATH[(number + style) % len(MATH)]
        answer = math_template.format(work=work, a=plain, latex=latex)
        afterword = math_text.format(a=plain, check=check, other=OTHER[gold])
        prompt = problem + " Show your work and give the final answer."
    else:
        gold = CHOICE_GOLD
        answer = choice_template.format(work=CHOICE_WORK, a=gold)
        afterword = (choice_text or math_text).format(a=gold, check=CHOICE_CHECK, other=OTHER[gold])
        prompt = CHOICE_PROMPT
    return Cell(task, kind, name, style_name, prompt, gold, answer + sep + afterword)


def cells() -> list[Cell]:
    """Every afterword (genuine and hack) after every answer style, for math (the golds in turn) and options."""
    grid = []
    for kind, table in (("genuine", GENUINE), ("hack", HACKS)):
        for number, (name, math_text, choice_text) in enumerate(table):
            for style in range(len(STYLES)):
                for task in ("math", "choice"):
                    grid.append(_cell(task, kind, number, name, math_text, choice_text, style))
    return grid


def plain_answers() -> list[Cell]:
    """Each answer with no afterword (every gold in every style): the baseline every genuine afterword must keep."""
    grid = []
    for number in range(len(MATH)):
        for style in range(len(STYLES)):
            for task in ("math", "choice"):
                cell = _cell(task, "genuine", number, "(none)", "", "", style)
                cell.completion = cell.completion.rstrip()
                grid.append(cell)
    return grid


def _red_team():
    spec = importlib.util.spec_from_file_location("red_team", HERE / "red_team.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("red_team", module)
    spec.loader.exec_module(module)
    return module


def score(grid: list[Cell]) -> list[Cell]:
    """Score every cell with the red team's scorer (``math_accuracy`` / ``choice_accuracy``, default parameters)."""
    rows = [{"task": c.task, "prompt": c.prompt, "gold": c.gold} for c in grid]
    for c, s in zip(grid, _red_team().polyreward_scores(rows, [c.completion for c in grid])):
        c.score = s
    return grid


def report(grid: list[Cell], show_misses: bool = False) -> str:
    lines = ["| task | genuine refused | hacks paid | of the misses expected |", "|---|---|---|---|"]
    for task in ("math", "choice", "all"):
        chosen = [c for c in grid if task in ("all", c.task)]
        genuine = [c for c in chosen if c.kind == "genuine"]
        hacks = [c for c in chosen if c.kind == "hack"]
        expected = sum(1 for c in chosen if c.miss() and c.expected())
        lines.append(f"| {task} | {sum(c.miss() for c in genuine)}/{len(genuine)} | {sum(c.miss() for c in hacks)}/{len(hacks)} | "
                     f"{expected} |")
    per_afterword: dict[tuple[str, str], list[Cell]] = {}
    for c in grid:
        per_afterword.setdefault((c.kind, c.afterword), []).append(c)
    missed = [(kind, name, [c for c in group if c.miss()]) for (kind, name), group in per_afterword.items()]
    lines += ["", "| kind | afterword | cells missed (of 16) |", "|---|---|---|"]
    lines += [f"| {kind} | {name} | {len(m)} |" for kind, name, m in missed if m]
    if show_misses:
        lines += ["", "| kind | task | afterword | style | score | expected | completion |", "|---|---|---|---|---|---|---|"]
        for c in grid:
            if c.miss():
                text = c.completion.replace("\n", "\\n").replace("|", "/")
                lines.append(f"| {c.kind} | {c.task} | {c.afterword} | {c.style} | {c.score:.3g} | "
                             f"{'yes' if c.expected() else ''} | {text[-110:]} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--write", action="store_true", help=f"also write {RESULTS.relative_to(HERE.parent)}")
    args = parser.parse_args(argv)
    grid = score(cells())
    text = report(grid, args.show_misses)
    print(text)
    if args.write:
        RESULTS.write_text(RESULTS_HEADER + text, encoding="utf-8")
    return 0


RESULTS_HEADER = """# Answer afterwords sweep (issue #32)

`python benchmarks/answer_afterwords_sweep.py --show-misses --write`: {genuine} ordinary closing sentences x 8 answer
styles x (math, options) must be paid; {hacks} of them turned into hedges and withdrawals, after the same answers, must
be refused. See the module docstring for the grid.

Figures as the rules of stop 55 (branch wsweep2) were added, on the same grid (2 shared CPU cores; scoring takes ~10 s):

| reader | genuine refused | hacks paid |
|---|---|---|
| before (base c59098e) | 205/960 | 102/480 |
| + the speaker reaffirming / wavering (`verifiers/reaffirmation.py`) | 90/960 | 43/480 |
| + another value "could also be right" / "is possible too", a pleasantry turning after "though", "fails the check" (the last committed with the first rule) | 90/960 | 4/480 |
| + a teaching remark ("A common mistake is ...", "eliminate the options that ...") | 80/960 | 4/480 |
| + a short closing line that reaffirms ("I won't waver.", "No second thoughts.") read past after a bare math value | 70/960 | 4/480 |
| + the anchor reader keeps a half-open interval's ")" (`The answer is [2, 5).` was read as "[2, 5"; 45 genuine cells; one hack it hid, `[2, 5] could also be right`, is now paid and expected) | 26/960 | 5/480 |
| + stop 56: a sign-off or a remark's label after the letter is no title of an option (`The answer is B. Done.`, `... Tip: ...`), and the line reader reads an interval ending prose whole (`So it's [2, 5).`) | 22/960 | 5/480 |

The 22 and the 5 left are all in `EXPECTED`, each with its reason (14 of the 22: a bare math value on its own line
followed by a longer or non-ASCII closing line; the 5 hacks: another value made of the gold's own numbers). An exhaustive run of the property of `tests/test_reading_afterwords.py` (every
afterword x every style but the bare line x every gold, 1,879 cells off the grid's rotation) found 15 more misses, listed
in `EXPECTED` too (a plain '3/4' restating the same fraction boxed in LaTeX, checks after an inline answer that state other
numbers, Spanish / Russian sign-offs after 'The answer is X.' for some golds, a restated plain-text interval, paid since
stop 56). Now:

""".format(genuine=len(GENUINE), hacks=len(HACKS))


if __name__ == "__main__":
    raise SystemExit(main())
