"""Stop a training run at the end of the current step when SIGINT (Ctrl-C) or SIGTERM arrives.

The first signal only sets a flag: the loop finishes the step it is in, saves a checkpoint and returns, so
``--resume`` continues from there (like a SLURM pre-emption or a Ctrl-C in transformers' Trainer with a
callback). A second SIGINT raises ``KeyboardInterrupt`` at once, for when the user cannot wait for the step.
Outside the main thread (signals cannot be handled there) the context does nothing.
"""

from __future__ import annotations

import signal
import sys
import threading


class StopAtStepEnd:
    """``with StopAtStepEnd() as stop: ... if stop.requested: save and break``; ``stop.signal_name`` says which."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.signal_name: str | None = None
        self._previous: dict[int, object] = {}

    @property
    def requested(self) -> bool:
        return self.signal_name is not None

    @property
    def exit_code(self) -> int:
        """128 + the signal number, as a shell reports a process ended by it (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + int(getattr(signal, self.signal_name)) if self.signal_name else 0

    def _handle(self, signum, frame) -> None:
        if self.signal_name is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.signal_name = signal.Signals(signum).name
        print(f"\n{self.signal_name} received: finishing the current step, then saving a checkpoint "
              "(press Ctrl-C again to stop at once, without saving)", file=sys.stderr, flush=True)

    def __enter__(self) -> StopAtStepEnd:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()
