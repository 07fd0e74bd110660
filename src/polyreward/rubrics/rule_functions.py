"""Ready-made rule callables for the ``rules`` judge (``callable: "polyreward.rubrics.rule_functions:<name>"``).

Each takes the response text, keyword arguments ``conversation`` and ``item`` (unused here) and its
``params``, and returns ``(met, explanation)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def first_sentence(text: str) -> str:
    """The text up to the first sentence end (., ! or ? followed by whitespace)."""
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0] if text.strip() else ""


def first_sentence_contains(response: str, *, conversation: Any = None, item: Any = None, terms: Sequence[str] = ()) -> tuple[bool, str]:
    """Met when the first sentence contains any of ``terms`` (case-insensitive): "leads with the key action"."""
    if isinstance(terms, str) or not terms:
        raise ValueError("first_sentence_contains needs params: {terms: [text, ...]}")
    sentence = first_sentence(response)
    hit = next((t for t in terms if t.lower() in sentence.lower()), None)
    return (hit is not None, f"first sentence contains {hit!r}" if hit else f"first sentence has none of {list(terms)}: {sentence[:80]!r}")


def asks_question(response: str, *, conversation: Any = None, item: Any = None, min_questions: int = 1) -> tuple[bool, str]:
    """Met when the response asks at least ``min_questions`` questions (counts '?' ending a sentence)."""
    count = len(re.findall(r"\?(?=\s|$)", response))
    return count >= min_questions, f"{count} question(s)"
