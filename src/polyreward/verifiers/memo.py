"""Memoised pure functions of one answer text: the reader calls a few of them several times on the same text.

A numeric math rollout is read in layers (extraction, commitment, the numeric fast path, the work-avoidance
guard, the several-values check) that each read the answer through its formatting
(:func:`~polyreward.verifiers.math_notation.read_through`) or parse it as a number
(:func:`~polyreward.verifiers.math_normalize.parse_numeral`): three to four calls on the same short text per
rollout, and the answers of one prompt's group repeat. :func:`memoized_text` keeps the results of such a function
for short texts only (an answer, not a 100 KB completion), in a bounded LRU cache, so memory stays flat however
many rows are scored. Only for functions whose result depends on their arguments alone and is immutable (a string,
a frozen dataclass, None): the caller gets the same object every time.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])


def memoized_text(max_chars: int = 400, maxsize: int = 16384) -> Callable[[Function], Function]:
    """Decorate ``function(text, *args)`` with an LRU cache of ``maxsize`` entries for a ``text`` (a ``str``) of at
    most ``max_chars`` characters; longer texts, other types and calls with keyword arguments are computed every time."""

    def decorate(function: Function) -> Function:
        cached = lru_cache(maxsize=maxsize)(function)

        @wraps(function)
        def call(text: Any, *args: Any, **kwargs: Any) -> Any:
            if type(text) is str and len(text) <= max_chars and not kwargs:
                return cached(text, *args)
            return function(text, *args, **kwargs)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate
