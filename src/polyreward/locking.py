"""Objects that guard their counters with a ``threading.Lock`` and still pickle.

Judges, judge caches and reward helpers travel to worker processes (TRL timeout isolation, Ray actors) by pickle,
and a lock cannot be pickled: :class:`RebuildsLockWhenUnpickled` drops ``self._lock`` from the pickled state and
makes a fresh lock on the other side.
"""

from __future__ import annotations

import threading
from typing import Any


class RebuildsLockWhenUnpickled:
    """Mixin for a class whose ``self._lock`` is a ``threading.Lock``: pickles without it, unpickles with a new one."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_lock"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
