"""An optional persistent cache of expensive verdicts: sqlite, keyed by the compared texts and settings.

RL training scores the same (gold, answer) pairs step after step, and a file is often rescored after a
config change. Verdicts that needed the worker pool (sympy parsing and comparison, milliseconds each)
are stored under ``sha256(settings, gold, pred)``, where ``settings`` names everything that can change
the verdict (a digest of the verifier modules' source, the Math-Verify version, the size guard). Cheap verdicts are
not stored (computing them is faster than the lookup), nor are timeouts and errors (they depend on the
machine's load and the timeout, not on the texts).

The file may be shared by several processes: sqlite's WAL journal lets readers and one writer work at
once, and ``INSERT OR IGNORE`` makes concurrent writes of the same verdict harmless.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from polyreward.verifiers.verdict import Verdict

_SCHEMA = "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, score REAL, reason TEXT NOT NULL, rule TEXT NOT NULL)"
_BATCH = 500  # sqlite's limit on parameters per statement is 999 in old builds


class VerdictCache:
    """Verdicts by (settings, gold, pred) in the sqlite file at ``path`` (created on first use)."""

    def __init__(self, path: str | Path, settings: str = "") -> None:
        self.path = Path(path)
        self.settings = settings
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def _db(self) -> sqlite3.Connection:
        if self._connection is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)
            self._connection = connection
        return self._connection

    def key(self, gold: str, pred: str) -> str:
        return hashlib.sha256("\x1f".join((self.settings, gold, pred)).encode("utf-8", "surrogatepass")).hexdigest()

    def get_many(self, pairs: Sequence[tuple[str, str]]) -> list[Verdict | None]:
        """The stored verdict of each (gold, pred) pair, None where there is none."""
        keys = [self.key(g, p) for g, p in pairs]
        found: dict[str, Verdict] = {}
        with self._lock:
            db = self._db()
            for start in range(0, len(keys), _BATCH):
                chunk = keys[start:start + _BATCH]
                rows = db.execute(f"SELECT key, score, reason, rule FROM verdicts WHERE key IN ({','.join('?' * len(chunk))})", chunk)
                for key, score, reason, rule in rows:
                    found[key] = Verdict(score, reason, rule=rule)
        out = []
        for (gold, pred), key in zip(pairs, keys):
            cached = found.get(key)
            out.append(None if cached is None else Verdict(cached.score, cached.reason, gold, pred, cached.rule))
        self.hits += sum(v is not None for v in out)
        self.misses += sum(v is None for v in out)
        return out

    def put_many(self, entries: Iterable[tuple[str, str, Verdict]]) -> None:
        """Store (gold, pred, verdict) entries; an existing entry is kept."""
        rows = [(self.key(g, p), v.score, v.reason, v.rule) for g, p, v in entries]
        if not rows:
            return
        with self._lock:
            db = self._db()
            db.execute("BEGIN")
            db.executemany("INSERT OR IGNORE INTO verdicts VALUES (?, ?, ?, ?)", rows)
            db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def __getstate__(self) -> dict[str, Any]:  # travels (TRL pickles rewards) as its path and settings
        return {"path": str(self.path), "settings": self.settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], state["settings"])


# the cache key's name for the math verifier; its rules are named by the digest of its source (:func:`verifier_rules`)
VERIFIER_RULES = "2026-12-05.1"


def verifier_rules() -> str:
    """A digest of every module of ``polyreward.verifiers`` (their source bytes, in name order): any change to a rule
    that can change a verdict changes it, so a persistent cache of an older reader's verdicts stops matching without
    anyone remembering to bump a version."""
    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.name.encode() + b"\0" + module.read_bytes())
    return digest.hexdigest()[:16]


def math_verdict_cache(path: str | Path, guard: bool = True) -> VerdictCache:
    """A :class:`VerdictCache` at ``path`` keyed by the math verifier's settings and rules (:func:`verifier_rules`;
    ``polyreward.verifiers.math.verdict_cache``)."""
    from importlib.metadata import version

    from polyreward.verifiers.math_worker import REL_TOL

    return VerdictCache(path, f"polyreward-math {VERIFIER_RULES} {verifier_rules()}|math-verify {version('math-verify')}|guard={guard}|rel_tol={REL_TOL}")
