"""A cache of judge responses keyed by (model, prompt), in memory and optionally on disk (sqlite).

Only answers that parsed into verdicts are stored, so a garbled answer is asked again next time. The
key is a SHA-256 of the model name, the exact request messages and the request settings that change
the answer (temperature, max_tokens, extra body fields such as ``guided_choice``): change the prompt
template, the conversation, the response, the criterion or a setting and it is a different key. The
server URL is left out on purpose, so a cache filled against one server answers for another that
serves the same model name. The sqlite file can be shared
by several processes (sqlite's own locking; writes are single statements).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from polyreward.locking import RebuildsLockWhenUnpickled


def cache_key(model: str, messages: Sequence[Mapping[str, Any]], settings: Mapping[str, Any] | None = None) -> str:
    record: dict[str, Any] = {"model": model, "messages": list(messages)}
    if settings:
        record["settings"] = dict(settings)
    payload = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache(RebuildsLockWhenUnpickled):
    """``get(key) -> str | None`` / ``put(key, text)``; thread-safe; picklable (reopens the file lazily)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path).expanduser() if path else None
        self._memory: dict[str, str] = {}
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0

    def _connection(self) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=10.0)
            self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT NOT NULL)")
            self._db.commit()
        return self._db

    def get(self, key: str) -> str | None:
        with self._lock:
            text = self._memory.get(key)
            if text is None and (db := self._connection()) is not None:
                row = db.execute("SELECT text FROM responses WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    text = self._memory[key] = row[0]
            if text is None:
                self.misses += 1
            else:
                self.hits += 1
            return text

    def put(self, key: str, text: str) -> None:
        with self._lock:
            self._memory[key] = text
            if (db := self._connection()) is not None:
                db.execute("INSERT OR REPLACE INTO responses (key, text) VALUES (?, ?)", (key, text))
                db.commit()

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()

    def __len__(self) -> int:
        return len(self._memory)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_db"] = None  # reopened on first use in the other process
        return state
