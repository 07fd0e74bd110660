"""A question that asks for the option that is NOT something ("Which of the following is NOT counted in GDP?",
"Which drug does not cause ...?") is answered in its own words: "The one not counted is C.", "D doesn't cause it."
The negation there is the question's predicate, not the writer denying the letter.

:func:`in_the_questions_words` reads a completion for such a question with each negation that repeats the
question's own negated predicate ("not counted" for "NOT counted") as that predicate, so the choice reader's checks
for a denied letter see only the writer's own negations. A predicate of truth ("NOT correct", "not true") is left as
it is: "That's not correct." after an answer withdraws it, whatever the question asks. Reconstructed rule (ours,
holdout51).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a negated predicate: "NOT counted", "does not cause", "isn't used" -> the word after the negation
_NEGATED = re.compile(r"(?:\b(?P<modal>ca|wo)n't|n't|\bnot)\s+(?P<word>[A-Za-z]{3,})\b", re.IGNORECASE)
_MODALS = {"ca": "can ", "wo": "will "}
# predicates that judge an answer itself: never the question's words
_TRUTH = {"correct", "incorrect", "right", "wrong", "true", "false", "valid", "accurate", "sure", "the", "really", "actually"}
_QUESTION = re.compile(r"[^.?!\n]*\?")


def question_negations(prompt: str) -> set[str]:
    """The predicates the prompt's questions (its sentences that end in "?") negate, lower-case ("counted" for
    "Which of the following is NOT counted in GDP?"); empty when no question negates one."""
    if "not" not in prompt.lower() and "n't" not in prompt:
        return set()
    return {m.group("word").lower() for q in _QUESTION.finditer(prompt) for m in _NEGATED.finditer(q.group())} - _TRUTH


def in_the_questions_words(prompt: str, completion: str) -> str:
    """``completion`` with each negation of a predicate the prompt's question negates read without its negation word
    ("The one not counted is C." -> "The one counted is C." for "Which ... is NOT counted ...?"); unchanged when the
    question negates nothing."""
    asked = question_negations(prompt)
    if not asked:
        return completion

    def read(match: re.Match) -> str:
        if match.group("word").lower() not in asked:
            return match.group()
        modal = match.group("modal")
        lead = _MODALS[modal.lower()] if modal else " " if match.group().startswith("n't") else ""
        return lead + match.group("word")  # "doesn't cause" -> "does cause", "can't cause" -> "can cause"

    return _NEGATED.sub(read, completion)
