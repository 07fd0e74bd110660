"""Read ahead: produce the next item of an iterator in a background thread while the caller works on this one.

``polyreward score`` reads, parses, group-aligns and keys chunk k+1 (:func:`polyreward.runners.score_file.score_file`'s
job stream) while the worker pool (or the Ray actors) scores chunk k: the main thread mostly waits on the workers'
pipes then, with the GIL released, so the reading costs no extra wall time. At most ``depth`` items wait, so memory
stays bounded by ``depth + 1`` chunks. An exception raised while producing is raised in the caller, at the item where
it happened, with its own type (an ``InputError`` stays an ``InputError``); closing the consumer stops the producer.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")

_END = object()


def read_ahead(items: Iterator[T], depth: int = 1) -> Iterator[T]:
    """The items of ``items`` in order, each produced in a background thread up to ``depth`` items ahead."""
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    ready: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def offer(entry: tuple[bool, object]) -> bool:
        while not stop.is_set():
            try:
                ready.put(entry, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not offer((True, item)):
                    return
        except BaseException as exc:  # handed to the consumer, raised there
            offer((False, exc))
            return
        offer((True, _END))

    thread = threading.Thread(target=produce, name="polyreward-read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            ok, value = ready.get()
            if not ok:
                raise value  # type: ignore[misc]
            if value is _END:
                return
            yield value  # type: ignore[misc]
    finally:
        stop.set()
        thread.join(timeout=5)
