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


# a letter the writer says is not what a question asks for: "(C) is not a perfect square", "B isn't prime" -- the
# letter, its verb, the negation, an article, then the predicate's first word
_LETTER_DENIED = re.compile(r"(?P<lead>(?<![\w(])\(?[A-J]\)?[ \t]+(?:(?:is|are|was|does|do|can|will)[ \t]+not|(?:is|are|was|does|do|ca|wo)n't)"
                            r"[ \t]+)(?P<article>(?:(?:a|an|the|be)[ \t]+)?)(?P<word>[A-Za-z]{3,})\b")
# a question that negates, asks for the least or the exception: its predicate denied is its answer, not a denial
_NEGATING_QUESTION = re.compile(r"\b(?:not|no|never|none|except|least|false|incorrect|untrue)\b|n't\b", re.IGNORECASE)
# words of a question no predicate is made of
_NOT_PREDICATES = {"which", "what", "following", "these", "those", "options", "option", "choice", "only", "just",
                   "merely", "simply", "necessarily", "always", "that", "this", "there", "here", "have", "from", "with"}


def question_predicates(prompt: str) -> set[str]:
    """The words (three letters or more) of the prompt's questions that negate nothing (its sentences that end in
    "?"), lower-case: what a question asks the chosen option to be ("perfect", "square" for "Which of the following
    numbers is a perfect square?")."""
    return {word.lower() for q in _QUESTION.finditer(prompt) if not _NEGATING_QUESTION.search(q.group())
            for word in re.findall(r"[A-Za-z]{3,}", q.group())} - _NOT_PREDICATES - _TRUTH


def in_the_questions_words(prompt: str, completion: str) -> str:
    """``completion`` with each negation of a predicate the prompt's question negates read without its negation word
    ("The one not counted is C." -> "The one counted is C." for "Which ... is NOT counted ...?"), and each letter
    the writer says is not what a question that negates nothing asks for read as a letter called not correct ("(C)
    is not a perfect square" -> "(C) is not correct: a perfect square" for "Which ... is a perfect square?": the
    writer denies C in the question's own words, holdout54); unchanged when neither is there."""
    if "not" in completion or "n't" in completion:
        completion = _denied_letters(prompt, completion)
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


def _denied_letters(prompt: str, completion: str) -> str:
    if _LETTER_DENIED.search(completion) is None:
        return completion
    predicates = question_predicates(prompt)

    def read(match: re.Match) -> str:
        if match.group("word").lower() not in predicates:
            return match.group()
        return match.group("lead") + "correct: " + match.group("article") + match.group("word")

    return _LETTER_DENIED.sub(read, completion)
