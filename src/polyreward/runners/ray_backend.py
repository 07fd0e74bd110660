"""Score chunks of whole groups on a Ray cluster: a pool of actors, each building the RewardSet once.

The unit of work is the same as in one process: a chunk of whole groups (:func:`polyreward.runners.chunking.group_aligned`),
scored by :class:`polyreward.runners.score_file.ChunkScorer` (file rows) or :meth:`polyreward.pipeline.Scorer.score` (a
:class:`~polyreward.schema.Batch` of a dataset), with the config's scorer built once per actor. Only who holds the chunk changes::

    polyreward score rollouts.jsonl --config config.yaml -o scored.jsonl --backend ray --address auto --actors 4
    score_dataset(ds, "config.yaml", backend="ray")           # Ray started locally, or RAY_ADDRESS

How it runs (the conventional actor-pool idiom of Ray's own ``ray.util.ActorPool``, written out so a lost chunk
is visible): ``actors`` :class:`ChunkActor` s, each with ``num_cpus=1``, build the config's rewards once — with
their own local worker pool, so the hard per-item timeouts hold inside every actor — and hold one chunk at a
time; the driver keeps every actor busy and collects finished chunks with ``ray.wait``. A chunk goes only to an actor
that has answered once (its rewards are built), so the first actors up score while the others are still starting. The driver alone writes
the parts and computes advantages (one combiner call over the whole file, as in local mode), so the output is
byte-identical to ``--backend local``.

Failures: an actor that dies between chunks is restarted by Ray (``max_restarts``). A chunk whose actor dies
while scoring it (``ray.kill``, a node lost, an out-of-memory kill) comes back as a ``RayActorError``; that actor
is replaced by a fresh one and the chunk is scored again from its rows by the next free actor — a surviving one
or the replacement once Ray has placed it (``max_task_retries=0``: the re-score is ours, so it is counted in
:attr:`RayActorPool.rescored` and bounded — a chunk that kills ``max_attempts`` actors in a row stops the run with
an error naming it, instead of looping; a cluster with no CPU left for a replacement, after a node is lost, is
served by the surviving actors, or stops with an error when none survives). Each chunk's result is taken once, by its
index, so nothing is lost or written twice. A reward that raises is not an actor failure: it is NaN + reason
inside the chunk, or, under ``on_reward_error: raise``, the same :class:`~polyreward.pipeline.RewardError` as
local mode.

Ray is an optional extra (``pip install -e ".[ray]"`` from a checkout), imported only when this backend is used. Every
node needs polyreward (and the packages and files the config's rewards read) installed at the same paths.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from polyreward.config import Config
from polyreward.pipeline import ScoredBatch, Scorer
from polyreward.schema import Batch
from polyreward.runners.score_file import ChunkJob, ChunkPart, ChunkScorer

Item = TypeVar("Item")


def import_ray():
    try:
        import ray
    except ImportError as exc:  # the core install has no Ray
        raise ImportError('the Ray backend needs Ray: pip install -e ".[ray]" (from the source checkout)') from exc
    return ray


class ChunkActor:
    """What each Ray actor holds: the config's :class:`~polyreward.pipeline.Scorer`, built once (the same contract as
    the driver's: ``when:`` rules, columns, policy, combiner), and its own local worker pool (``workers``)."""

    def __init__(self, config: Config, on_reward_error: str, workers: int | None) -> None:
        self.scorer = config.build_scorer(workers).with_policy(on_reward_error)
        self.chunk = ChunkScorer(self.scorer)

    def score_records(self, records: list[dict[str, Any]]) -> ChunkPart:
        return self.chunk(records)

    def score_batch(self, batch: Batch) -> ScoredBatch:
        """Scores only: the advantages are one call over the whole split, on the driver."""
        return self.scorer.score(batch, combine=False)

    def pid(self) -> int:
        return os.getpid()


def actor_workers(config: Config, workers: int | None) -> int | None:
    """Engine worker processes in each actor: ``workers`` (``--workers``), else the config's ``engine.workers``, else
    ``POLYREWARD_WORKERS``, else 1. An actor holds one CPU (``num_cpus=1``), so one engine process beside it; the
    local default, min(2, cores), in every actor put twice as many scoring processes on a host as it has CPUs (and
    their memory)."""
    if workers is not None or config.engine.workers is not None or os.environ.get("POLYREWARD_WORKERS"):
        return workers
    return 1


class RayActorPool:
    """``actors`` :class:`ChunkActor` s on the cluster at ``address`` (see the module docstring).

    ``address``: ``None`` joins the Ray instance this process already started (``ray.init``) or starts a local
    one of its own (never a cluster that happens to run on the machine); ``"auto"`` or ``HOST:PORT`` connects to a
    running cluster (``ray start --head``). Use as a context manager; a Ray instance started here is shut down on
    exit.
    """

    def __init__(self, config: Config, *, on_reward_error: str = "nan", workers: int | None = None, actors: int = 2,
                 address: str | None = None, max_restarts: int = 3, max_attempts: int = 3, start_timeout: float = 120.0) -> None:
        if actors < 1:
            raise ValueError(f"--actors must be >= 1, got {actors}")
        self.config, self.policy, self.workers, self.size = config, on_reward_error, actor_workers(config, workers), actors
        self.address, self.max_restarts, self.max_attempts, self.start_timeout = address, max_restarts, max_attempts, start_timeout
        self.actors: list[Any] = []
        self.in_flight: dict[Any, tuple[int, Any]] = {}  # object ref -> (item number, actor holding it)
        self.rescored = 0  # chunks scored again after their actor died
        self._ready: set[Any] = set()  # actors that answered once (their rewards are built)
        self._started_ray = False

    def __enter__(self) -> RayActorPool:
        ray = import_ray()
        if not ray.is_initialized():
            # no address: a Ray instance of this run's own ("local"). ray.init(address=None) would join any cluster
            # found running on the machine -- another user's, with other code on its workers
            ray.init(address=self.address or "local", include_dashboard=False, log_to_driver=False)
            self._started_ray = True
        cpus = ray.cluster_resources().get("CPU", 0)
        if cpus < self.size:
            self.__exit__()
            raise ValueError(f"--actors {self.size} needs {self.size} CPUs on the Ray cluster, which has {cpus:g}")
        self._remote = ray.remote(num_cpus=1, max_restarts=self.max_restarts, max_task_retries=0)(ChunkActor)
        self.actors = [self._new_actor() for _ in range(self.size)]
        return self

    def __exit__(self, *exc: Any) -> None:
        ray = import_ray()
        for actor in self.actors:
            ray.kill(actor, no_restart=True)
        self.actors = []
        self._ready.clear()
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    def _new_actor(self) -> Any:
        return self._remote.remote(self.config, self.policy, self.workers)

    def map_unordered(self, items: Iterable[Item], method: str, payload: Callable[[Item], Any]) -> Iterator[tuple[Item, Any]]:
        """``(item, actor.method(payload(item)))`` for every item, in the order they finish, each exactly once.

        A lost item goes back to the front of the queue, for the next actor that is free: a surviving one, or the
        replacement started for the dead one once Ray has placed it. When nothing is in flight and no
        replacement gets placed within ``start_timeout`` seconds (the cluster has no free CPU left), a
        RuntimeError says so instead of waiting forever."""
        ray = import_ray()
        from ray.exceptions import ObjectLostError, RayActorError, WorkerCrashedError

        lost_actor = (RayActorError, WorkerCrashedError, ObjectLostError)
        pending = iter(items)
        held: dict[int, Item] = {}
        attempts: dict[int, int] = {}
        retry: deque[int] = deque()
        idle: deque[Any] = deque()
        # every actor is first waited for: a chunk goes to an actor that has built its rewards, so the first actors up
        # score while the others still start (their start-up overlaps the work instead of holding chunks behind it)
        starting: dict[Any, Any] = {actor.pid.remote(): actor for actor in self.actors if actor not in self._ready}
        idle.extend(actor for actor in self.actors if actor in self._ready)
        failed_starts = 0
        counter = 0
        end = object()
        exhausted = False

        def fill() -> None:
            nonlocal counter, exhausted
            while idle:
                if retry:
                    number = retry.popleft()
                else:
                    item = next(pending, end) if not exhausted else end
                    if item is end:
                        exhausted = True
                        return
                    number, held[counter] = counter, item
                    counter += 1
                actor = idle.popleft()
                self.in_flight[getattr(actor, method).remote(payload(held[number]))] = (number, actor)

        fill()
        while self.in_flight or retry or (starting and not exhausted):
            waiting = [*self.in_flight, *starting]
            done, _ = ray.wait(waiting, num_returns=1, timeout=None if self.in_flight else self.start_timeout)
            if not done:
                waiting_for = f"the {len(retry)} chunk(s) whose actors died" if retry else "the first chunk"
                raise RuntimeError(f"no Ray actor could be started in {self.start_timeout:g} s to score {waiting_for}; "
                                   "does the cluster have a free CPU?")
            ref = done[0]
            if ref in starting:
                actor = starting.pop(ref)
                try:
                    ray.get(ref)
                except lost_actor as exc:
                    failed_starts += 1
                    if failed_starts > self.max_attempts * self.size:
                        raise RuntimeError(f"Ray actors keep dying before they can score ({failed_starts} starts failed); last: "
                                           f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from exc
                    self._start_replacement(actor, starting)
                else:
                    self._ready.add(actor)
                    idle.append(actor)
                fill()
                continue
            number, actor = self.in_flight.pop(ref)
            try:
                result = ray.get(ref)
            except lost_actor as exc:
                attempts[number] = attempts.get(number, 0) + 1
                if attempts[number] >= self.max_attempts:
                    raise RuntimeError(f"chunk {number} lost its Ray actor {attempts[number]} times; last: {type(exc).__name__}: "
                                       f"{str(exc).splitlines()[0] if str(exc) else ''}") from exc
                self.rescored += 1
                retry.append(number)
                self._start_replacement(actor, starting)
                fill()
                continue
            yield held.pop(number), result
            idle.append(actor)
            fill()

    def _start_replacement(self, dead: Any, starting: dict[Any, Any]) -> None:
        ray = import_ray()
        ray.kill(dead, no_restart=True)
        self.actors.remove(dead)
        self._ready.discard(dead)
        fresh = self._new_actor()
        self.actors.append(fresh)
        starting[fresh.pid.remote()] = fresh


class RayChunkScorer:
    """The ``scorer`` of :func:`polyreward.runners.score_file.score_file` for ``--backend ray``: chunk jobs -> actors -> parts."""

    def __init__(self, pool: RayActorPool) -> None:
        self.pool = pool

    def __call__(self, jobs: Iterator[ChunkJob]) -> Iterator[tuple[ChunkJob, ChunkPart]]:
        return self.pool.map_unordered(jobs, "score_records", lambda job: job.records)


def score_on_ray(batches: Iterable[Batch], config: Config, scorer: Scorer, *,
                 actors: int = 2, address: str | None = None, workers: int | None = None) -> Iterator[ScoredBatch]:
    """The ``"ray"`` backend of :func:`polyreward.runners.datasets_io.score_dataset`: one :class:`ScoredBatch` per chunk, in order.

    ``scorer`` (built by the caller for its checks) is not shipped; each actor builds the same one from ``config``
    under the scorer's failure policy. ``address`` defaults to the ``RAY_ADDRESS`` environment variable, else a
    local Ray instance."""
    address = address if address is not None else os.environ.get("RAY_ADDRESS") or None
    with RayActorPool(config, on_reward_error=scorer.on_reward_error, workers=workers, actors=actors, address=address) as pool:
        numbered = enumerate(batches)
        ready: dict[int, ScoredBatch] = {}
        following = 0
        for (number, _), scored in pool.map_unordered(numbered, "score_batch", lambda item: item[1]):
            ready[number] = scored
            while following in ready:
                yield ready.pop(following)
                following += 1
