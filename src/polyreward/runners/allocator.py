"""Keep freed memory for reuse: glibc's allocator tuned for a process that moves the same large buffers again and again.

By default glibc serves a block over 128 KiB with a fresh ``mmap`` and gives the heap's free top back to the system as
soon as it passes a threshold, so a buffer freed and allocated again (a request body, a scored chunk's output text)
is new memory every time, faulted in page by page. :func:`keep_freed_memory` fixes both thresholds: blocks up to
``mmap_bytes`` come from the heap and up to ``trim_bytes`` of free heap top is kept, so the process holds at most
that much more memory, and what it holds does not grow with the work done. Without glibc nothing changes.

Used by the reward server's front and slots (:mod:`polyreward.runners.server_slots`) and by ``polyreward score``
(:mod:`polyreward.cli.score`): there a 1,000-row chunk's output text (about 200 KB, built in a few buffers of that
size) made about 870 page faults per chunk (87,000 in a 100,000-row run against 9,400 with the memory kept), 0.2 µs
of system time per row.
"""

from __future__ import annotations

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)


def keep_freed_memory(mmap_bytes: int, trim_bytes: int) -> bool:
    """Serve blocks up to ``mmap_bytes`` from the heap and keep up to ``trim_bytes`` of its free top; False without
    glibc (nothing changed). Setting the mmap threshold also stops glibc's sliding adjustment of both."""
    try:
        import ctypes

        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, mmap_bytes)) and bool(mallopt(M_TRIM_THRESHOLD, trim_bytes))


SCORE_MMAP_BYTES = 4 << 20  # polyreward score: a chunk's buffers (about 200 bytes a row) come from the heap
SCORE_TRIM_BYTES = 16 << 20  # polyreward score: free heap top kept (the run holds at most this much more)
