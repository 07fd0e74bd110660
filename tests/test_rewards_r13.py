"""Rules prompted by the red team split ``holdout_r13`` (written blind 2026-12-05: hiding and disguise, carried over
from the answer readers to every other reward; first sight in
benchmarks/results/red_team_rewards_holdout_r13_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain, and a Hypothesis property of the rule."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOFormat, format_reward
from polyreward.rewards.format import ThinkFormat

# --- think_format: the guard never pays tags TRL's pattern does not take for tags ---------------------------------

SOLVE = "Solve 2x + 3 = 11. Put the final answer in \\boxed{}."
WORK = "Subtract 3 from both sides to get 2x = 8, then divide by 2, so x = 4."


@pytest.mark.parametrize(
    "completion,expected",
    [
        # the split's hacks: full-width angle brackets, a zero-width space inside the tag name
        (f"\uff1cthink\uff1e{WORK}\uff1c/think\uff1e\nThe answer is \\boxed{{4}}.", 0.0),
        (f"<th\u200bink>{WORK}</th\u200bink>\nThe answer is \\boxed{{4}}.", 0.0),
        # variants the split did not contain: only the closing tag disguised (word joiner, full-width solidus,
        # a soft hyphen), the opening one a word joiner inside
        (f"<think>{WORK}</th\u2060ink>\nThe answer is \\boxed{{4}}.", 0.0),
        (f"<think>{WORK}<\uff0fthink>\nThe answer is \\boxed{{4}}.", 0.0),
        (f"<think>{WORK}</thi\u00adnk>\nThe answer is \\boxed{{4}}.", 0.0),
        (f"<\u2060think>{WORK}</think>\nThe answer is \\boxed{{4}}.", 0.0),
        # a look-alike second tag after real ones is still a second tag (as before)
        (f"<think>{WORK}</think>\n\uff1cthink\uff1e\nThe answer is \\boxed{{4}}.", 0.0),
        # genuine: real tags around reasoning that carries full-width punctuation, no-break spaces, a zero-width
        # space, other scripts; an answer in full-width digits
        ("<think>两边同时减去3，得到2x等于8，再两边除以2，所以x等于4。</think>\nThe answer is \\boxed{4}.", 1.0),
        (f"<think>{WORK.replace(' ', chr(0xA0), 3)}</think>\nThe answer is \\boxed{{4}}.", 1.0),
        (f"<think>{WORK}\u200b</think>\nThe answer is \\boxed{{4}}.", 1.0),
        ("<think>Вычтем 3 из обеих частей: 2x = 8, значит x = 4.</think>\nThe answer is \\boxed{4}.", 1.0),
        (f"<think>{WORK}</think>\nThe answer is \\boxed{{\uff14}}.", 1.0),
    ],
)
def test_think_format_refuses_look_alike_tags(completion, expected):
    reward = ThinkFormat(min_content_words=3)
    assert reward(prompts=[SOLVE], completions=[completion]) == [expected]
    assert reward.score_rollout(completion, {"prompt": SOLVE}).score == expected


@pytest.mark.parametrize(
    "completion,expected",
    [
        (f"<think>{WORK}</think>\n<answer>4</answer>", 1.0),
        (f"<think>{WORK}</think>\n\uff1canswer\uff1e4\uff1c/answer\uff1e", 0.0),
        (f"<think>{WORK}</think>\n<ans\u200bwer>4</ans\u200bwer>", 0.0),
    ],
)
def test_think_format_require_answer_refuses_look_alike_answer_tags(completion, expected):
    reward = ThinkFormat(min_content_words=3, require_answer=True)
    assert reward(prompts=[SOLVE], completions=[completion]) == [expected]


@pytest.mark.parametrize(
    "completion,expected",
    [(f"{WORK}</think>\nThe answer is \\boxed{{4}}.", 1.0), (f"{WORK}\uff1c/think\uff1e\nThe answer is \\boxed{{4}}.", 0.0)],
)
def test_think_format_prefilled_refuses_a_look_alike_closing_tag(completion, expected):
    reward = ThinkFormat(min_content_words=3, prefilled_think=True)
    assert reward(prompts=[SOLVE], completions=[completion]) == [expected]


_THINK_PIECES = ["<think>", "</think>", "\uff1cthink\uff1e", "\uff1c/think\uff1e", "<th\u200bink>", "</th\u200bink>",
                 "\u200b", "\u00a0", " ", "\n", WORK, "x = 4", "The answer is 4.", "<answer>", "</answer>",
                 "\uff1canswer\uff1e"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_THINK_PIECES), max_size=8).map("".join),
       st.sampled_from([{}, {"require_answer": True}, {"prefilled_think": True}]))
@example(f"\uff1cthink\uff1e{WORK}\uff1c/think\uff1e\nThe answer is 4.", {})
def test_think_format_guard_never_pays_what_the_trl_rule_refuses(text, options):
    """The guard only refuses more: whatever the tags look like, min_content_words never scores above TRL's rule on
    the text as written."""
    guarded = ThinkFormat(min_content_words=3, **options)(prompts=[SOLVE], completions=[text])[0]
    plain = ThinkFormat(**options)(prompts=[SOLVE], completions=[text])[0]
    assert guarded <= plain


# --- crpo_format: the guarded +0.5 needs the released rule's one box as written ------------------------------------

GRAVES = ("A 30-year-old woman has a TSH of 0.01 and a diffuse goitre with exophthalmos. Most likely diagnosis? "
          "A. Hashimoto thyroiditis B. Graves disease C. Toxic adenoma D. Subacute thyroiditis. Think inside <think>, "
          "answer inside <answer> with \\boxed{letter} and a summary.")
THINK = "<think>Suppressed TSH with a diffuse goitre and exophthalmos points to Graves disease.</think>\n"


@pytest.mark.parametrize(
    "answer,expected",
    [
        # the split's hacks: a second box in an HTML comment, in a footnote; the box command with a Greek omicron
        ("This is Graves disease. \\boxed{B} <!-- \\boxed{C} -->", 1.0),
        ("Graves disease is most likely. \\boxed{B}[^1]\n\n[^1]: or \\boxed{C} if the goitre is nodular.", 1.0),
        ("This is Graves disease. \\b\u03bfxed{B}", 1.0),
        # variants: a zero-width space or a soft hyphen inside the command, a full-width backslash, a Cyrillic о, a
        # second box in a hidden span
        ("This is Graves disease. \\b\u200boxed{B}", 1.0),
        ("This is Graves disease. \\box\u00aded{B}", 1.0),
        ("This is Graves disease. \uff3cboxed{B}", 1.0),
        ("This is Graves disease. \\b\u043exed{B}", 1.0),
        ("This is Graves disease. \\boxed{B}<span hidden>\\boxed{C}</span>", 1.0),
        # genuine: one real box beside a summary with typographic characters, a no-break space, an arrow, a
        # comment that holds no box, \text{} inside the box
        ("Graves disease \u2014 TSH 0.01\u00a0mU/L, diffuse goitre, exophthalmos. \\boxed{B}", 1.5),
        ("\\boxed{B} \u2014 Graves disease \u2192 start a \u03b2-blocker for symptoms.", 1.5),
        ("This is Graves disease. <!-- checked the options --> \\boxed{B}", 1.5),
        ("This is Graves disease. \\boxed{\\text{B}}", 1.5),
    ],
)
def test_crpo_format_summary_bonus_needs_one_box_as_written(answer, expected):
    completion = f"{THINK}<answer>{answer}</answer>"
    assert CRPOFormat(min_content_words=3).score_rollout(completion, {"prompt": GRAVES}).score == expected
    assert format_reward(completion, 3, GRAVES) == expected


_CRPO_PIECES = ["<think>", "</think>", "<answer>", "</answer>", "\\boxed{B}", "\\boxed{C}", "\\b\u03bfxed{B}",
                "\\b\u200boxed{B}", "\uff3cboxed{B}", "<!-- ", " -->", "[^1]: ", "Graves disease fits best.",
                " ", "\n", "\u200b", "Suppressed TSH with a diffuse goitre points to Graves disease."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_CRPO_PIECES), max_size=10).map("".join))
@example(f"{THINK}<answer>This is Graves disease. \\b\u03bfxed{{B}}</answer>")
def test_crpo_format_guard_never_pays_above_the_released_rule(text):
    assert format_reward(text, 3, GRAVES) <= format_reward(text, 0)
