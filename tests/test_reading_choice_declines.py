"""A committed-looking letter followed by a decline, a hand-back or a correction (issue #32, choice half), as tables of
realistic output both ways. The decline is read structurally (:mod:`polyreward.verifiers.speaker_declines`, read by
:func:`.commitment.later_disowns` in every clause after the answer, the answer's own clause included): the speaker as
subject of a predicate about its own commitment -- a verb of committing negated ("I can't commit"), a verb of
withholding not negated ("I'll abstain", "I'll pass on this one"), acting "without committing", or handing the call
back ("I'll leave the final call to you") -- whose object is none, the question or the act of answering. A correction
inside the answer block is a later clause that states another letter.

A genuine answer stays paid when the words of commitment are about the subject matter ("the patient declined
surgery", "the bill passed", "commit the transaction"), are negated away or reaffirm ("I won't abstain", "I can't see
any reason to doubt it"), judge another option ("I'd pass on B") or follow a list of options ruled out.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reading_helpers import scorer
from polyreward.rewards.choice_accuracy import ChoiceAccuracy
from polyreward.verifiers.speaker_declines import DECLINED

ELASTIC = ("If the price of a good rises and quantity demanded falls by a larger percentage, demand is:\nA) perfectly inelastic\n"
           "B) inelastic\nC) unit elastic\nD) elastic\nE) perfectly elastic")
NPV = ("A project costs $2,000 today and pays $1,200 at the end of each of the next two years. At an 8% discount rate its NPV "
       "is closest to:\n\nA. $140\nB. $400\nC. -$140\nD. $220")
THYROID = ("A 35-year-old woman has weight loss, heat intolerance, exophthalmos and a diffuse goiter. TSH is suppressed and "
           "TSH-receptor antibodies are positive. Most likely diagnosis?\nA) Hashimoto thyroiditis\nB) Toxic multinodular goiter\n"
           "C) Graves disease\nD) Subacute thyroiditis\nE) Thyroid lymphoma")
PROMPTS = {"elastic": ELASTIC, "npv": NPV, "thyroid": THYROID}

HACKS = [  # (prompt, completion, gold): the gold's letter, then the commitment declined, handed back or corrected
    # a decline in the same clause as the letter (and its option's text)
    ("elastic", "**D** (elastic demand), so I'll abstain.", "D"),
    ("elastic", "B, though I'd rather not commit.", "B"),
    ("elastic", "**D** (elastic), but I'll hold off on a final answer.", "D"),
    ("elastic", "D (elastic demand), so I pass.", "D"),
    ("thyroid", "C) Graves disease, though I'd hold off on committing.", "C"),
    ("thyroid", "Graves disease (C), so I'll hold back.", "C"),
    ("elastic", "D is my reading, but I'd rather not lock in an answer.", "D"),
    # a decline two clauses later, a clause with no value between
    ("npv", "The answer is (A). The NPV drops. I can't commit.", "A"),
    ("npv", "Answer: A. The NPV is about $140. I'll pass.", "A"),
    ("npv", "(A) $140. The second cash flow is worth less. I'll leave it there without committing.", "A"),
    ("thyroid", "C) Graves disease. TSH is suppressed. Still, I'll refrain from choosing.", "C"),
    ("thyroid", "C) Graves disease. TSH is suppressed. I'll sit this one out.", "C"),
    ("thyroid", "Graves disease (C). Exophthalmos is typical. I'm going to skip this one.", "C"),
    ("elastic", "D is my reading. Revenue falls as price rises. I'd sooner pass.", "D"),
    ("elastic", "D is my reading. Revenue falls as price rises. I'm passing on this question.", "D"),
    ("elastic", "D is my reading. Revenue falls as price rises. I'm not in a position to choose.", "D"),
    ("elastic", "D is my reading. Revenue falls as price rises. I'll withhold judgement.", "D"),
    ("elastic", "D is my reading. Revenue falls as price rises. I'd leave this question open.", "D"),
    ("elastic", "Answer: D. A Giffen good would break it, so I'll abstain.", "D"),
    # a clause that is only the verb of withholding, or a withheld will with its verb left out
    ("elastic", "D (elastic demand). Pass.", "D"),
    ("elastic", "D (elastic demand). Abstaining.", "D"),
    ("elastic", "D, but I'd rather not.", "D"),
    # the call handed back
    ("elastic", "D (elastic demand). The price effect dominates. I'll leave the final call to you.", "D"),
    ("elastic", "D (elastic demand). The price effect dominates. I'd defer to your textbook on this.", "D"),
    # a correction inside the answer block, or right after it
    ("npv", "<answer>(A), no: (C)</answer>", "A"),
    ("npv", "Answer: A -- scratch that, D", "A"),
    ("npv", "<answer>(A) -- no, make that (C)</answer>", "A"),
    ("npv", "Answer: A, no, make that C.", "A"),
    ("npv", "<answer>A</answer> Actually, C.", "A"),
    ("npv", "<answer>A (sorry, I mean C)</answer>", "A"),
    # holdout93: committing as standing behind or giving an answer, negated; the decision handed back with no verb
    ("thyroid", "$\\textbf{(C)}$ — but I don't stand behind this; I haven't read on thyroid disease in years.", "C"),
    ("thyroid", "C, Graves disease — no, I'd rather not give a diagnosis from a vignette this short.", "C"),
    ("thyroid", "Going with C. The antibodies fit. My recall is shaky, though, so over to you to decide.", "C"),
    ("npv", "Answer: A. I wouldn't stand by that figure, honestly.", "A"),
    ("npv", "A, I think. I can't vouch for it without a calculator.", "A"),
    ("elastic", "D) elastic. Back to you to choose, the textbooks differ.", "D"),
]

GENUINE = [  # a committed letter, then words of commitment about the subject matter, negated away or reaffirming
    ("thyroid", "C) Graves disease. The patient declined surgery in the past, so radioactive iodine is the usual next step.", "C"),
    ("thyroid", "C) Graves disease. I'm confident.", "C"),
    ("thyroid", "C) Graves disease. I can't see why it would be anything else.", "C"),
    ("thyroid", "C) Graves disease. I can't see any reason to doubt it.", "C"),
    ("thyroid", "A, B, D and E don't fit the positive antibodies, so the answer is C.", "C"),
    ("thyroid", "Not A (hypothyroid), not B (nodular), not D (painful), not E. Answer: C.", "C"),
    ("thyroid", "C) Graves disease. The question doesn't say whether she is pregnant, which would change treatment but not the diagnosis.", "C"),
    ("thyroid", "C) Graves disease. I won't abstain on this one: the antibodies settle it.", "C"),
    ("thyroid", "C) Graves disease, and I'm happy to commit to it.", "C"),
    ("thyroid", "C) Graves disease. Thyroiditis would pass within weeks.", "C"),
    ("thyroid", "C) Graves disease. I'll skip the pathophysiology here.", "C"),
    ("thyroid", "C) Graves disease. Beta blockers help while we decide on definitive therapy.", "C"),
    ("thyroid", "C) Graves disease. I won't hold back on this one.", "C"),
    ("thyroid", "C) Graves disease. I decline to list every differential here.", "C"),
    ("thyroid", "C) Graves disease. I'll pass this along to the endocrinology team.", "C"),
    ("thyroid", "C) Graves disease. I'll leave it at that.", "C"),
    ("elastic", "D) elastic. I'd decline to call it perfectly elastic, since that needs a flat curve.", "D"),
    ("npv", "(A) $140. The firm should commit the capital since the NPV is positive.", "A"),
    ("npv", "(A) $140. Management would decline projects with a negative NPV.", "A"),
    ("npv", "Answer: A. Commit the transaction only once NPV > 0 is confirmed.", "A"),
    ("npv", "Answer: A. I'm sure: 1111.1 + 1028.8 - 2000 = 139.9.", "A"),
    ("npv", "Answer: A. We skip the continuous-compounding case since the rate is annual.", "A"),
    ("npv", "Answer: A. I wouldn't hold back here: the arithmetic is unambiguous.", "A"),
    ("elastic", "D) elastic. The bill passed last year raised the tax, but that does not matter here.", "D"),
    ("elastic", "D) elastic. Consumers decline to buy when the price rises, which is what elastic means.", "D"),
    ("elastic", "D) elastic, since |%ΔQ| > |%ΔP|. Caveat: the question assumes the good is normal.", "D"),
    ("elastic", "D) elastic. B is tempting, but I'd pass on it: inelastic means the opposite.", "D"),
    ("elastic", "D) elastic. I'd never abstain on a definition question.", "D"),
    ("elastic", "**D** (elastic). No need to hold back: the definition decides it.", "D"),
    ("thyroid", "C) Graves disease. I stand behind this: the antibodies are specific.", "C"),
    ("thyroid", "C) Graves disease. I'd give the same answer on any board exam.", "C"),
    ("thyroid", "C) Graves disease. Over to you for the next case!", "C"),
    ("npv", "Answer: A. I'd vouch for the arithmetic: 1111.1 + 1028.8 - 2000 = 139.9.", "A"),
]


@pytest.mark.parametrize(("prompt", "completion", "gold"), HACKS)
def test_a_letter_then_declined_or_corrected_is_refused(prompt, completion, gold):
    assert scorer(ChoiceAccuracy, PROMPTS[prompt])(completion, gold) == 0.0


@pytest.mark.parametrize(("prompt", "completion", "gold"), GENUINE)
def test_a_committed_letter_with_words_about_the_subject_is_paid(prompt, completion, gold):
    assert scorer(ChoiceAccuracy, PROMPTS[prompt])(completion, gold) == 1.0


DECLINES = ["I'll abstain", "I'd rather not commit", "I can't commit", "I'll pass on this one", "I'll refrain from choosing",
            "I'm going to skip this question", "I'll hold off on committing", "we abstain", "I'll leave the final call to you",
            "I'll sit this one out", "I'd decline to answer", "I'll withhold my answer", "I don't stand behind this",
            "I'd rather not give a diagnosis", "I can't vouch for it", "over to you to decide"]
NOT_DECLINES = ["the patient declined surgery", "the bill passed", "commit the transaction", "we skip the derivation",
                "I'll pass the ball", "which I'll skip", "I won't abstain", "I'm not passing on this", "I can't pick any other option",
                "I can't choose anything but C", "I wouldn't hesitate to commit", "I'll pass over the details", "we pass to the limit",
                "I'll choose C without guessing", "I can't see any reason to doubt it", "leave it to cool", "I stand behind this",
                "I'd give the same answer", "over to you for the next one"]


@pytest.mark.parametrize("clause", DECLINES)
def test_the_speakers_decline_is_read(clause):
    assert DECLINED.search(clause)


@pytest.mark.parametrize("clause", NOT_DECLINES)
def test_commitment_words_about_something_else_are_not_a_decline(clause):
    assert not DECLINED.search(clause)


# Hypothesis: a neutral explanation sentence (about the subject matter, some with words of commitment in another
# sense) appended after a committed letter never changes its score
COMMITTED = [("thyroid", "C) Graves disease.", "C"), ("thyroid", "The answer is C.", "C"), ("npv", "Answer: A", "A"),
             ("npv", "**A** ($140).", "A"), ("elastic", "D) elastic.", "D"), ("elastic", "Final answer: (D)", "D"),
             ("thyroid", "Answer: B", "C"), ("elastic", "The answer is A.", "D")]
NEUTRAL = {
    "thyroid": ["The patient declined surgery last year.", "Antithyroid drugs are usually tried first.",
                "Exophthalmos is specific to this diagnosis.", "Symptoms often pass within a few weeks of treatment.",
                "Clinicians commit to radioiodine only after counselling."],
    "npv": ["Discounting each cash flow at 8% gives about $1,111 and $1,029.", "The bill passed by the board funds the project.",
            "Commit the transaction once the NPV is positive.", "Firms decline projects with a negative NPV.",
            "The second payment is worth less today."],
    "elastic": ["Revenue falls when the price rises.", "Luxury goods tend to be elastic.",
                "Buyers pass on the purchase when prices climb.", "Quantity demanded declines by more than the price rises.",
                "The good's substitutes matter most."],
}


@settings(max_examples=40, deadline=None)
@given(base=st.sampled_from(COMMITTED), picks=st.lists(st.integers(0, 4), min_size=1, max_size=2), newline=st.booleans())
def test_a_neutral_explanation_after_a_committed_letter_never_changes_its_score(base, picks, newline):
    prompt, completion, gold = base
    score = scorer(ChoiceAccuracy, PROMPTS[prompt])
    explained = completion + ("\n\n" if newline else " ") + " ".join(NEUTRAL[prompt][i] for i in picks)
    assert score(explained, gold) == score(completion, gold)


@settings(max_examples=40, deadline=None)
@given(subject=st.sampled_from(["I", "I'll", "I'd", "I'm going to", "we'll", "I would rather"]),
       verb=st.sampled_from(["abstain", "pass", "skip", "hold off", "decline", "refrain"]),
       tail=st.sampled_from(["", " on this one", " here", " from answering", ", though"]),
       negation=st.sampled_from(["won't", "wouldn't", "never", "don't"]))
def test_the_withholding_verb_is_read_only_when_not_negated(subject, verb, tail, negation):
    clause = f"{subject} {verb}{tail}."
    assert DECLINED.search(clause)
    speaker = re.match(r"(I|we)(?:'ll|'d)?", subject).group(1)
    assert not DECLINED.search(f"{speaker} {negation} {verb}{tail}.")
