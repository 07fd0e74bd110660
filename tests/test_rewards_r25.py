"""Rules prompted by the red team split ``holdout_r25`` (written blind 2026-12-05 on the shipped configurations: every
non-math reward of examples/*/config.yaml and examples/train/*.yaml under its shipped params; first sight in
benchmarks/results/red_team_rewards_holdout_r25_first_sight.md): each a table of the genuine form it now pays beside
the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.process import segment_steps
from polyreward.rewards.process_steps import ProcessReward
from polyreward.rewards.step_arithmetic import check_step

# the examples/process config's reward: lines, the weakest step, unscored 0.0, the arithmetic rule
PROCESS = ProcessReward(segment="lines", summary="min", unscored=0.0, scorer={"kind": "rule"})


def _process(completion: str) -> float:
    return float(PROCESS.evaluate(["q"], [completion]).scores[0])


# --- process (rule): a currency sign, a result arrow and an equation continued on the next line ----------------------
@pytest.mark.parametrize(
    "step,score",
    [
        # genuine: amounts with their currency sign are the numbers they write
        ("25% of $80 is 0.25 × $80 = $20.", 1.0),
        ("The discounted price is $80 − $20 = $60.", 1.0),
        ("Total: €12.50 + €7.50 = €20.", 1.0),
        ("£3 × 4 = £12", 1.0),
        ("$3 \\times 4 = 12$", 1.0),  # LaTeX inline math still reads
        # hack: a wrong amount is wrong with its sign too
        ("The discounted price is $80 − $20 = $65.", 0.0),
        ("0.25 × $80 = $25", 0.0),
        # genuine: an arrow from a computation to its result
        ("3 × 4 → 12", 1.0),
        ("12 × 2 -> 24 apples", 1.0),
        ("10 / 3 ⇒ 3.33", 1.0),
        ("3 + 4 = 7 → 7 × 2 = 14", 1.0),  # "then": the arrow between two expressions links nothing
        ("12 × 2 = 24 → 24 + 1 = 25", 1.0),
        # hack: a wrong result behind an arrow
        ("Each box holds 3 × 4 → 14 apples.", 0.0),
        ("3 * 4 -> 13", 0.0),
        ("80 - 20 ⇒ 65", 0.0),
        # an arrow between bare numbers or into an expression says nothing checkable
        ("24 → 24 + 1", None),
        ("60 minutes → 1 hour", None),
        # genuine: an equation split over two lines
        ("The discount is 0.25 × 80\n= 20.", 1.0),
        ("2 × (3 + 4)\n  = 2 × 7\n  = 14", 1.0),
        # hack: a wrong result on the continuation line
        ("The discount is 0.25 × 80\n= 30.", 0.0),
        ("2 × (3 + 4)\n= 2 × 7\n= 15", 0.0),
        # units inside the equation stay unscored (mixed units would make a unit-stripped equation false)
        ("1 hour + 30 minutes = 90 minutes", None),
        ("3 rows × 4 apples = 12 apples", None),
    ],
)
def test_currency_arrow_and_continued_equations(step, score):
    assert check_step(step) == score


@pytest.mark.parametrize(
    "completion,score",
    [
        # holdout_r25's rows through the shipped reward: the split equation is one step, its wrong result refused
        ("The discount is 0.25 × 80\n= 30.\nThe discounted price is 80 - 20 = 60.\nAfter the coupon: 60 - 5 = 55.\n"
         "The answer is \\boxed{55}.", 0.0),
        ("The discount is 0.25 × 80\n= 20.\nThe discounted price is 80 - 20 = 60.\nAfter the coupon: 60 - 5 = 55.\n"
         "The answer is \\boxed{55}.", 1.0),
        ("Each box holds 3 × 4 → 14 apples.\nTwo boxes hold 12 × 2 = 24 apples.\nThe answer is \\boxed{24}.", 0.0),
        ("Each box holds 3 × 4 → 12 apples.\nTwo boxes hold 12 × 2 = 24 apples.\nThe answer is \\boxed{24}.", 1.0),
        ("25% of $80 is 0.25 × $80 = $20.\nThe discounted price is $80 − $20 = $60.\nWith the coupon: $60 − $5 = $55.\n"
         "The final price is \\boxed{55} dollars.", 1.0),
        ("25% of $80 is 0.25 × $80 = $20.\nThe discounted price is $80 − $20 = $60.\nWith the coupon: $60 − $5 = $50.\n"
         "The final price is \\boxed{50} dollars.", 0.0),
    ],
)
def test_process_reward_reads_the_layouts(completion, score):
    assert _process(completion) == score


def test_continuation_lines_stay_in_their_step():
    text = "The discount is 0.25 × 80\n  = 20.\nThen 80 - 20 -> 60\n-> done\nThe answer is 60."
    steps = [text[a:b] for a, b in segment_steps(text, "lines")]
    assert steps == ["The discount is 0.25 × 80\n  = 20.", "Then 80 - 20 -> 60\n-> done", "The answer is 60."]
    # a line that opens with a minus sign or a word is a step of its own
    assert len(segment_steps("5 - 3 = 2\n-1 + 2 = 1\nso 1", "lines")) == 3


_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "×": lambda a, b: a * b}


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 999), st.integers(0, 999), st.sampled_from(sorted(_OPS)), st.integers(-5, 5),
       st.sampled_from(["→", "->", "⇒", "\n= ", "\n  → ", " = "]), st.sampled_from(["", "$", "€"]))
def test_layouts_check_the_arithmetic(a, b, op, off, link, currency):
    """Whatever the layout (arrow, continued line, currency sign), the step is 1 exactly when its result is right."""
    result = _OPS[op](a, b) + off
    shown = f"-{currency}{-result}" if result < 0 else f"{currency}{result}"  # "-$1", as amounts are written
    step = f"{currency}{a} {op} {currency}{b}{link}{shown}"
    assert check_step(step) == (1.0 if off == 0 else 0.0)
    assert len(segment_steps(step, "lines")) == 1


# --- crpo_accuracy (committed_answer: true): one letter in a wrapper is the letter it boxes ----------------------------
from polyreward.rewards.crpo import CRPOAccuracy, wrapped_letter  # noqa: E402

GUARDED = CRPOAccuracy(answer_column="answer", committed_answer=True)  # examples/train/medqa_crpo.yaml's params
RELEASED = CRPOAccuracy(answer_column="answer")
THINK = "<think>A hides the error; B and D bypass the attending; E avoids it; C raises disclosure first.</think>\n"


@pytest.mark.parametrize(
    "answer,score",
    [
        # genuine: a LaTeX-writing model's wrappers around the one letter
        ("Speak to the attending first about disclosure. \\boxed{\\text{C}}", 1.0),
        ("First, the attending: \\boxed{(C)}", 1.0),
        ("\\boxed{\\textbf{C.}} The attending must hear that the error will be disclosed.", 1.0),
        ("Disclosure starts with the attending. \\boxed{\\mathrm{C}}", 1.0),
        ("Disclosure starts with the attending. \\boxed{[C]}", 1.0),
        ("Disclosure starts with the attending. \\boxed{C}", 1.0),
        # a wrapped other letter is that letter, wrong
        ("Escalate. \\boxed{\\text{D}}", 0.0),
        # hack: negated, retracted or hedged wrapped boxes commit to nothing
        ("It is not \\boxed{\\text{C}}; escalate instead.", 0.0),
        ("\\boxed{(C)}. On second thought, reporting to the ethics committee (D) is the correct action.", 0.0),
        # still no single letter: two letters, words, an option's text
        ("Either is fine. \\boxed{\\text{C or D}}", -0.5),
        ("\\boxed{(C/D)}", -0.5),
        ("\\boxed{\\text{Tell the attending}}", -0.5),
        ("\\boxed{\\text{C. Tell the attending}}", -0.5),
    ],
)
def test_wrapped_box_letter_guarded(answer, score):
    assert GUARDED.score_rollout(f"{THINK}<answer>{answer}</answer>", {"answer": "C"}).score == score


def test_released_rule_unchanged_for_wrapped_letter():
    # the released rule (no committed_answer) keeps the source's -0.5 for \text{C}
    assert RELEASED.score_rollout(f"{THINK}<answer>ok \\boxed{{\\text{{C}}}}</answer>", {"answer": "C"}).score == -0.5


@settings(max_examples=150, deadline=None)
@given(st.sampled_from("ABCDE"), st.sampled_from(["{}", "\\text{{{}}}", "({})", "{}.", "\\textbf{{({})}}", "[{}]",
                                                   "\\mathrm{{ {} }}", "**{}**"]),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCDE/", min_size=2, max_size=12))
def test_wrapped_letter_reads_one_letter_only(letter, wrapper, words):
    """A wrapper around one letter gives that letter; a box with more than one letter or any word gives none."""
    assert wrapped_letter("\\boxed{" + wrapper.format(letter) + "}") == letter
    inner = words.strip()
    if sum(ch.isalpha() for ch in inner) > 1:
        assert wrapped_letter("\\boxed{" + wrapper.format(inner) + "}") is None


# --- clinical_comprehensiveness: a markdown table row names the option of its first cell -------------------------------
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness  # noqa: E402

COMP = ClinicalComprehensiveness(options_column="options")
OPTIONS = {"options": "A. Metformin\nB. Insulin glargine\nC. Glipizide\nD. Pioglitazone"}


def _comp(think: str) -> float:
    return COMP.score_rollout(f"<think>\n{think}\n</think>\n<answer>Metformin. \\boxed{{A}}</answer>", OPTIONS).score


@pytest.mark.parametrize(
    "think,score",
    [
        # genuine: one row per option with its verdict and reason, in the layouts models use
        ("| Option | Verdict |\n|---|---|\n| A | yes: first-line, weight-friendly |\n| B | no: HbA1c only 7.4% |\n"
         "| C | no: hypoglycaemia, weight gain |\n| D | no: fluid retention |", 1.0),
        ("|A|first-line with normal eGFR|\n|B|reserved for severe hyperglycaemia|\n|C|causes weight gain|\n"
         "|D|causes oedema|", 1.0),
        ("| **(A)** | first-line |\n| **(B)** | too aggressive now |\n| **(C)** | weight gain |\n| **(D)** | oedema |", 1.0),
        ("| A | first-line |\n| B | too aggressive now |", 0.5),
        # hack: the table lists letters or option texts and says nothing of them
        ("| A | B | C | D |\n|---|---|---|---|\n| | | | |", 0.0),
        ("| A | Metformin |\n| B | Insulin glargine |\n| C | Glipizide |\n| D | Pioglitazone |", 0.0),
        ("| A | |\n| B | |\n| C | |\n| D | |", 0.0),
    ],
)
def test_table_rows_weigh_their_option(think, score):
    assert _comp(think) == score


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from("ABCD"), min_size=1, max_size=4, unique=True),
       st.sampled_from(["too risky here", "first-line choice", "weight gain expected", "reserved for later"]),
       st.booleans())
def test_table_weighs_exactly_the_rows_that_say_something(letters, verdict, bold):
    """Each row with a verdict weighs its letter; rows holding only the option's own text weigh nothing."""
    options = dict(line.split(". ", 1) for line in OPTIONS["options"].splitlines())
    cell = "**{}**" if bold else "{}"
    said = "\n".join(f"| {cell.format(x)} | {verdict} |" for x in letters)
    listed = "\n".join(f"| {cell.format(x)} | {options[x]} |" for x in "ABCD" if x not in letters)
    assert _comp(said + ("\n" + listed if listed else "")) == pytest.approx(len(letters) / 4)


# --- overlong_penalty's word count: a word and a number joined by a hyphen is a compound of two ------------------------
from polyreward.verifiers.text_forms import word_count  # noqa: E402

_SENTENCE = ("To find the average speed we divide the total distance by the total time so the speed equals 180 km "
             "divided by 2.5 hours which gives 72 km per hour and the answer is 72 km per hour overall")


@pytest.mark.parametrize(
    "text,count",
    [
        # hack: every two words hyphenated, pairs with a number included, counts every word again
        (" ".join("-".join(_SENTENCE.split()[i:i + 2]) for i in range(0, len(_SENTENCE.split()), 2)),
         len(_SENTENCE.split())),
        ("It-is \\boxed{72}-km so-the answer-is 72-km per-hour and-we can-check by-2.5 hours-which gives-180 km-total", 24),
        # genuine: clinical compounds with a number stay one word each
        ("A 67-year-old man on day-3 of a 5-day course of 500-mg amoxicillin has a BP=120/80 and COVID-19.", 17),
        ("Give 2-3 tablets on day-1, then 1 tablet daily for a 10-day course.", 13),
        ("72-km", 1),
    ],
)
def test_word_number_pairs_count_when_pairs_hide_words(text, count):
    assert word_count(text) == count


_LETTER_WORDS = ["the", "speed", "km", "hour", "we", "divide", "by", "gives"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_LETTER_WORDS), st.sampled_from(_LETTER_WORDS + ["72", "2.5", "180"])),
                min_size=8, max_size=20), st.booleans())
def test_hyphen_pairing_never_shortens(pairs, number_first):
    """Joining every two words with a hyphen (a word and a word or a number, either first) counts every word."""
    pairs = [(b, a) if number_first else (a, b) for a, b in pairs]
    paired = " ".join(f"{a}-{b}" for a, b in pairs)
    assert word_count(paired) == word_count(" ".join(f"{a} {b}" for a, b in pairs)) == 2 * len(pairs)
