"""What the ``test_reading_*.py`` files share: one completion scored the way they score it (a fresh reward at its
defaults, one prompt, one gold), and the hostile-text property's draws and reading.

    choice = scorer(ChoiceAccuracy, PROMPT)          # choice(completion, gold, prompt=PROMPT) -> 0.0 or 1.0
    math = scorer(MathAccuracy, "Compute it.")       # math(completion, gold, prompt="Compute it.")
    choice = scorer(ChoiceAccuracy, PROMPT, gold="C")  # a default gold too: choice(completion)

    @given(junk=JUNK, letter=LETTER)
    def test_hostile_text_...(junk, letter):
        read_filled(("Answer: {l} {j}", ...), junk, letter)   # neither extractor may raise
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hypothesis import strategies as st

from polyreward.verifiers.answer_extraction import extract_answer
from polyreward.verifiers.choice import extract_letter

# the prompt of the wrist-drop question (holdout11, holdout13)
WRIST_DROP_PROMPT = ("A patient has wrist drop after a midshaft humerus fracture. Which nerve is injured?\n"
                     "A) Median nerve\nB) Ulnar nerve\nC) Axillary nerve\nD) Radial nerve\nE) Musculocutaneous nerve")

# the hostile-text properties' draws: any text up to 300 characters, and an option letter
JUNK = st.text(max_size=300)
LETTER = st.sampled_from("ABCDE")

_REQUIRED = object()


def scorer(reward: Callable[[], object], prompt: str, gold: str | object = _REQUIRED) -> Callable[..., float]:
    """``score(completion, gold, prompt)``: the score a fresh ``reward()`` gives ``completion`` for ``gold`` under
    ``prompt``; ``prompt`` (and ``gold`` when given) are the defaults."""
    default_gold = gold

    def score(completion: str, gold: str | object = default_gold, prompt: str = prompt) -> float:
        if gold is _REQUIRED:
            raise TypeError("score() needs a gold answer")
        return reward().evaluate([prompt], [completion], answer=[gold]).scores[0]

    return score


def read_filled(templates: Iterable[str], junk: str, letter: str) -> list[str]:
    """Each template filled with ``junk`` at ``{j}`` and ``letter`` at ``{l}``, read by :func:`extract_letter` and
    :func:`extract_answer` (a property asserts only that neither raises); the filled texts, for more readers."""
    texts = [template.format(j=junk, l=letter) for template in templates]
    for text in texts:
        extract_letter(text)
        extract_answer(text)
    return texts
