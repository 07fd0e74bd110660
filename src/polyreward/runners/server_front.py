"""The reward server's front lane: a config whose every reward is linear-time is scored in the front process.

A slot process (:mod:`polyreward.runners.server_slots`) is what lets ``polyreward serve`` kill a reward stuck in C
code or a regex holding the GIL: its whole process group goes at the deadline. That safety costs every request a
hop to the slot and back (the body through a pipe twice, two more process wake-ups; a profile put it among the
largest parts of a cheap 256-row request's 3.7 ms of overhead, docs/benchmarks.md "Reward server overhead"). A reward whose cost is bounded by its
input needs no such kill: its type declares it once, ``linear_time = True`` on the class
(:attr:`polyreward.reward.Reward.linear_time`: linear-time matching, no model, network, subprocess or engine
worker; ``tests/test_linear_time.py`` holds each such type to it), and the body it reads is already bounded by
``--max-body-bytes`` and ``--max-field-chars``.

What runs where:

- **front lane** (this module): when *every* reward of the config is linear-time (checked on each built reward, so
  a parameter that loads a model, such as ``overlong_penalty``'s ``tokenizer`` or ``crpo_english``'s ``measure:
  language``, sends the config to the slots), the front process builds the same rewards once and scores a request
  with the slot's own code (:meth:`~polyreward.runners.server_routes.SlotScorer.handle`: the same parsing, depth
  check, per-field cap, column check, scoring and answer, so the bytes of the answer are the slot's) on one thread
  of its own, never on the event loop: ``/health`` and the other connections go on meanwhile (the thread holds
  the GIL at most one switch interval, 5 ms, at a time).
- **slots**: everything else. A config with any reward not declared linear-time sends every request to a slot,
  as before (a request is not split between the lanes: the totals, the failure policy and the combiner need the
  whole matrix in one place, and the linear-time columns cost tens of microseconds a row against the slot's
  milliseconds). A ``/score`` request asking for advantages goes to a slot too (a combiner declares no bound:
  DRPO's k-means reads a history the client sends); so does any request that arrives while the front lane is busy.

What is traded: a front-lane request cannot be killed. At ``--request-timeout`` its client gets the same bounded
answer a slot's request gets (NaN and the reason for every rollout), but the thread finishes the request's
bounded work before the lane takes another (requests go to the slots meanwhile). A reward wrongly declared
linear-time would hold the front process's GIL, slowing the event loop, for as long as it runs.
Measured (docs/benchmarks.md "Reward server overhead"), the hop it saves is small on a 2-core host (the lane's own
hand-over between the event loop and its thread wakes the front as often): one request
at a time gains little at a low load and nothing at a load average of 5, and with several requests in flight the
lane's scoring shares the front process's interpreter lock with the event loop that moves the slots' bytes, which
lowers throughput. So the lane is off unless asked for: ``polyreward serve --front-lane``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from polyreward.runners.server_routes import NeedsSlot, RouteSettings, SlotScorer


def not_linear(config: Any) -> str | None:
    """Why the config cannot use the front lane (the first reward type not declared linear-time), or None. Read
    from the classes, before anything is built: a type that is not linear-time may load a model when built."""
    from polyreward import registry

    for entry in config.rewards:
        if getattr(registry.reward_class(entry.type), "linear_time", False) is not True:
            return f"reward {entry.name!r} (type {entry.type}) is not declared linear-time"
    return None


class FrontLane:
    """The config's rewards built in the front process, one request at a time on a thread of their own."""

    def __init__(self, scorer: SlotScorer) -> None:
        self.scorer = scorer
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="polyreward-front")
        self.busy = False
        self.answered = 0
        self.rows: int | None = None  # the rows of the request in the lane, once its body is parsed

    @classmethod
    def build(cls, config: Any, settings: RouteSettings) -> tuple[FrontLane | None, str]:
        """(the lane, or None, and one line saying which and why, for the start-up output)."""
        reason = not_linear(config)
        if reason is None:
            try:
                scorer = SlotScorer(config, 0, settings)
            except Exception as exc:  # the slots build the same rewards and report the error in their own words
                return None, f"front lane: off (the rewards could not be built here: {type(exc).__name__}: {str(exc)[:200]})"
            reason = next((f"reward {r.name!r} is not linear-time with its parameters" for r in scorer.reward_set
                           if getattr(r, "linear_time", False) is not True), None)
            if reason is None:
                return cls(scorer), "front lane: on (every reward is linear-time)"
        return None, f"front lane: off ({reason}); every request is scored in a slot process"

    def _handle(self, route: str, raw: bytes) -> tuple[int, bytes] | None:
        def accepted(n: int) -> None:
            self.rows = n

        try:
            return self.scorer.handle(route, raw, accepted, combiner=False)
        except NeedsSlot:
            return None

    async def run(self, route: str, body: Sequence[bytes], timeout: float) -> tuple[int, bytes] | None:
        """(status, JSON body) of ``route``; None when the request needs a slot (advantages). ``asyncio.TimeoutError``
        when ``timeout`` seconds pass first (:attr:`rows` then says whether its body was parsed). The lane stays busy
        until its thread has finished, past a timeout too: the work cannot be killed (it is bounded by the body)."""
        self.busy, self.rows = True, None
        raw = body[0] if len(body) == 1 else b"".join(body)
        future = asyncio.get_running_loop().run_in_executor(self.thread, self._handle, route, raw)

        def done(finished: Any) -> None:
            self.busy = False
            if not finished.cancelled() and finished.exception() is None and finished.result() is not None:
                self.answered += 1

        future.add_done_callback(done)
        return await asyncio.wait_for(asyncio.shield(future), timeout)  # shielded: a timeout leaves the thread running

    def close(self) -> None:
        self.thread.shutdown(wait=False, cancel_futures=True)
