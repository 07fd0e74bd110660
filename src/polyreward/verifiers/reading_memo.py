"""Readings of one completion that several readers make alike, made once per completion (speed only).

The commitment checks (:mod:`.commitment`, :mod:`.hedging`, :mod:`.hypothetical`) each read the text around one
answer: the negation, alternative and bound checks all cut the same window before the answer and step over the same
markup (``_before(text, start)`` three times per answer), the soft-hedge checks cut the answer's clause twice. On a
fresh completion none of the text-keyed memories (:mod:`.memo`) has seen it, so each reading was made again.

:func:`per_text` keeps the results of a pure function of ``(text, *positions)`` for the one text being read: the
memory holds the text object itself and is emptied when another text comes, so it never grows past one completion's
readings and never answers for another text (one memory per thread; a string is immutable: the same object is the same text). ``ENABLED =
False`` turns every such memory off (the tests compare whole batches both ways).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])

ENABLED = True
_MAX_ENTRIES = 64  # readings of one text (a handful of positions per reader); past this the memory starts again


def per_text(function: Function) -> Function:
    """Decorate ``function(text, *args)`` (a pure function of a ``str`` and hashable arguments, whose result is
    immutable or never changed by its callers) with a memory of its results for the most recent ``text`` object."""
    local = threading.local()  # each thread reads its own completion

    @wraps(function)
    def call(text: Any, *args: Any) -> Any:
        if not ENABLED:
            return function(text, *args)
        try:
            if text is local.text:
                remembered = local.remembered
            else:
                local.text, remembered = text, local.remembered
                remembered.clear()
        except AttributeError:  # this thread's first call
            local.text, remembered = text, {}
            local.remembered = remembered
        try:
            return remembered[args]
        except KeyError:
            pass
        except TypeError:  # an unhashable argument: computed every time
            return function(text, *args)
        if len(remembered) >= _MAX_ENTRIES:
            remembered.clear()
        result = remembered[args] = function(text, *args)
        return result

    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]
