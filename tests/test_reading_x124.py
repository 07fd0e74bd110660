"""Red team holdout124 (multi-agent debates, committees, ensembles and self-consistency; written blind): the rules
its misses, and the variants of its kinds tried by hand afterwards, led to.

* A panel's settled answer labelled ``Verdict:`` or ``Consensus:`` (``Judge's verdict: $x = 4$.``, ``Panel consensus:
  the maximum value is $3$.``, ``Consensus answer: $\\boxed{2\\sqrt{3}}$``, ``Consensus: **A. Thomas Hobbes**``) is an
  answer label, like ``Final verdict:``; ``consensus`` stays others' vote without the colon (``The forum consensus is
  B.``) and a public's consensus stays hearsay under any form (``Forum consensus: 120``;
  ``hedging.CONSENSUS_LABEL_AFTER``, ``hedging.OWN_CONSENSUS``, ``answer_extraction._ANCHOR``, ``choice._ANCHOR``).
* A verdict cut off after a choosing verb and the word for an option (``Judge: ... I select option``, ``the panel
  votes for option``) chooses nothing, whatever letter an agent gave before (``choice_forms.CUT_OFF_ANSWER``).
* A bracket's final match-up (``Final: B vs C → C``) is a round, not a bare ``Final:`` answer label
  (``choice._ANCHOR``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.rewards.math_accuracy import MathAccuracy

EXPONENT = "Solve for $x$: $2^{x+1}=32$."
MAXIMUM = "Let $a, b, c$ be positive reals with $a+b+c=3$. Find the maximum value of $ab+bc+ca$."
SUM = "What is the sum of the integers from 1 to 50?"
CONDUCTOR = ("Which of these materials is the best conductor of electricity?\nA. copper\nB. rubber\nC. glass\nD. wood\n\n"
             "Answer with the letter of the correct option.")
SEARCH = ("What is the worst-case time complexity of binary search on a sorted array of n elements?\nA. O(1)\nB. O(log n)\n"
          "C. O(n)\nD. O(n log n)\n\nAnswer with the letter of the correct option.")
ANAPHYLAXIS = ("A 30-year-old develops hives, wheezing and hypotension minutes after a bee sting. What is the first-line "
               "treatment?\nA. Oral diphenhydramine\nB. Intravenous methylprednisolone\nC. Intramuscular epinephrine\n"
               "D. Inhaled albuterol\n\nAnswer with the letter of the correct option.")
DEBATE = "Debater 1: $32 = 2^5$, so $x + 1 = 5$ and $x = 4$.\nDebater 2: $x + 1 = 32/2 = 16$, so $x = 15$.\n\n"
AGENTS = "Agent 1: Copper is a metal with free electrons — A.\nAgent 2: Wood conducts when wet — D.\n\n"


@pytest.mark.parametrize("completion, gold, prompt, expected", [
    (DEBATE + "Judge's verdict: $x = 4$. (Debater 2 divided the power by the base; $2^{16} \\neq 32$.)", "4", EXPONENT, 1.0),
    (DEBATE + "Verdict: x = 4, since 2^5 = 32.", "4", EXPONENT, 1.0),
    (DEBATE + "**Verdict:** $x = 4$ (the other route gives $2^{16}$).", "4", EXPONENT, 1.0),
    ("Expert A: equality at a = b = c = 1.\n\nPanel consensus: the maximum value is $3$.", "3", MAXIMUM, 1.0),
    ("Agent 1: 3√2. Agent 2: 2√3. Agent 1: agreed.\n\nConsensus answer: $\\boxed{3}$", "3", MAXIMUM, 1.0),
    ("Consensus (2 of 3): 1,275 -- Agent C's 1,225 dropped the last term.", "1275", SUM, 1.0),
    ("Panel consensus: 1,275", "1275", SUM, 1.0),
    # the label may name what is settled (stop 67: "Consensus forecast: 58.4" was refused in a forecast's answer block)
    ("Agents A and C agree.\n\nConsensus value: 1,275", "1275", SUM, 1.0),
    ("Consensus estimate: 1,275", "1275", SUM, 1.0),
    ("Online consensus estimate: 1,275", "1275", SUM, 0.0),
    # hacks: another verdict, doubt or a second value after the label, others' or a public's consensus
    (DEBATE + "Judge's verdict: $x = 15$. (Debater 1's $x = 4$ is overruled.)", "4", EXPONENT, 0.0),
    (DEBATE + "Verdict: undecided between 4 and 15.", "4", EXPONENT, 0.0),
    (DEBATE + "Verdict: 4 or 15 -- more rounds needed.", "4", EXPONENT, 0.0),
    ("Consensus: the maximum is $3$, though I'm not sure.", "3", MAXIMUM, 0.0),
    ("The forum consensus is \\boxed{1275}.", "1275", SUM, 0.0),
    ("Forum consensus: 1275", "1275", SUM, 0.0),
    ("No consensus: 1275 vs 1225", "1275", SUM, 0.0),
])
def test_a_verdict_or_consensus_label_heads_the_panels_answer_in_math(completion, gold, prompt, expected):
    assert scorer(MathAccuracy, prompt)(completion, gold) == expected


@pytest.mark.parametrize("completion, expected", [
    (AGENTS + "Verdict: A. (Agent 2's point applies only to wet wood.)", 1.0),
    (AGENTS + "Verdict: **A** -- copper conducts millions of times better than wet wood.", 1.0),
    (AGENTS + "Consensus: **A. copper**", 1.0),
    (AGENTS + "**Consensus:** A", 1.0),
    (AGENTS + "Panel consensus (2 of 2 after discussion): A", 1.0),
    ("Experto 1: A.\nExperto 2: A.\n\nVeredicto: A", 1.0),
    # hacks: another letter, two letters, a pending verdict, others' consensus
    (AGENTS + "Verdict: D. (Agent 1 argued A.)", 0.0),
    (AGENTS + "Verdict: A, maybe D", 0.0),
    (AGENTS + "Consensus: A or D", 0.0),
    (AGENTS + "Verdict: pending (A vs D)", 0.0),
    (AGENTS + "No consensus: A vs D", 0.0),
    ("The forum consensus is A.", 0.0),
    ("Forum consensus: A", 0.0),
    ("Online consensus: **A**", 0.0),
])
def test_a_verdict_or_consensus_label_heads_the_panels_letter(completion, expected):
    assert scorer(ChoiceAccuracy, CONDUCTOR)(completion, "A") == expected


@pytest.mark.parametrize("completion, expected", [
    ("Agent 1: Answer (B).\nAgent 2: (C).\n\nJudge: Having considered both, I select option", 0.0),
    ("Agent 1: (B).\n\nThe panel votes for option", 0.0),
    ("Agent 1: (B).\n\nModerator: after weighing the arguments, we go with the answer", 0.0),
    ("Debater A: B.\nJudge: I choose the option", 0.0),
    # finished verdicts stay
    ("Agent 1: (B).\n\nJudge: I select option B.", 1.0),
    ("Agent 1: (B).\n\nJudge: I select option (B)", 1.0),
    ("Each comparison halves the range, so O(log n). B is the one I'd pick.", 1.0),
    ("Answer: B", 1.0),
])
def test_a_verdict_cut_off_before_its_letter_chooses_nothing(completion, expected):
    assert scorer(ChoiceAccuracy, SEARCH)(completion, "B") == expected


@pytest.mark.parametrize("completion, expected", [
    ("A vs B → B\nC vs D → C\nFinal: B vs C → C (epinephrine acts in minutes)\n\nChampion: **C. Intramuscular epinephrine**", 1.0),
    ("Final: C", 1.0),
    ("Final: C (it beat B in the last round)", 1.0),
    # hacks: the gold loses the final, the final not yet played
    ("Semifinal: C vs D → C\nFinal: B vs C → B\n\nChampion: **B**", 0.0),
    ("Final: B vs C", 0.0),
    ("Final: B vs C (to be decided next round)", 0.0),
    ("Final: B vs C → ?", 0.0),
])
def test_a_brackets_final_match_up_is_a_round_not_an_answer(completion, expected):
    assert scorer(ChoiceAccuracy, ANAPHYLAXIS)(completion, "C") == expected


_SPEAKERS = st.sampled_from(["Agent 1", "Expert A (physicist)", "Solver 2", "Debater B", "Sample 3"])
_OTHER = st.sampled_from(["B", "C", "D"])
_LABEL = st.sampled_from(["Verdict:", "Consensus:", "Panel consensus:", "**Verdict:**", "Consensus answer:", "Final verdict:"])
_REMARK = st.sampled_from(["", " (the dissent is noted)", " -- copper wins easily.", ". Agent 2's objection fails."])


@settings(max_examples=40, deadline=None)
@given(speaker=_SPEAKERS, other=_OTHER, label=_LABEL, remark=_REMARK)
def test_a_labelled_verdict_for_the_gold_pays_whatever_an_agent_said(speaker, other, label, remark):
    score = scorer(ChoiceAccuracy, CONDUCTOR)
    assert score(f"{speaker}: {other}.\n\n{label} A{remark}", "A") == 1.0


@settings(max_examples=40, deadline=None)
@given(speaker=_SPEAKERS, other=_OTHER, label=_LABEL, remark=_REMARK)
def test_a_labelled_verdict_for_another_letter_never_pays_the_agents_gold(speaker, other, label, remark):
    score = scorer(ChoiceAccuracy, CONDUCTOR)
    assert score(f"{speaker}: A.\n\n{label} {other}{remark}", "A") == 0.0
    assert score(f"{speaker}: A.\n\nJudge: weighing both, I select option", "A") == 0.0
