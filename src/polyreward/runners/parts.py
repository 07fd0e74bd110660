"""The part store of a file being scored: the scored chunks, written once into one growing file, joined at the end.

Beside the output ``OUT`` lives the hidden folder ``.OUT.parts/``. Each scored chunk ``i`` is appended to the one
rows file ``rows.jsonl`` (the output rows, as they go into a JSONL output) and then described by
``part-i.meta.json``, written atomically (temporary name, rename): the chunk's key, its row count, where its bytes
lie in the rows file (offset, size) and their SHA-256, its score matrix (float64 bytes in base64), failure counts
and group ids, one a line. The key is a hash of the scoring settings and of the chunk's input rows (for a JSONL
input, the rows' lines as read: :func:`chunk_key`), so after any interruption — ``kill -9``, a full disk, a
malformed line fixed, a config fixed — a resumed run keeps exactly the chunks whose input and settings are
unchanged and whose bytes in the rows file still match their meta (a truncated or edited chunk is scored again,
never copied), appends the rest, and the result is byte-identical to an uninterrupted run of the final inputs, in
every output format. A chunk's bytes reach the kernel before its meta is written, so a meta never describes bytes
a killed process did not hand over; bytes after the last meta's chunk (a chunk cut short by a kill or a full disk)
are cut off when a run resumes. Nothing is fsync'ed per chunk (that wait cost more than scoring a cheap reward):
after a power cut a chunk or meta that did not reach the disk whole fails its checksum or does not parse, so
``--resume`` scores it again; the finished output is fsync'ed before its rename.

Each row is written once: when the chunks lie in the rows file in their order, one after the other (a run that was
not interrupted, or resumed after its last finished chunk; scored here or by one worker at a time), a JSONL output
without advantages *is* the rows file, renamed onto ``OUT``. Otherwise (a resumed run that scored some chunk
again, the Ray backend's chunks in the order they finished, advantages to add, a CSV or Parquet output) the output
is written from the chunks' byte ranges, JSONL ones copied inside the kernel (``os.sendfile``).

One run per output: the run holds an advisory lock (``fcntl.flock``) on ``.OUT.parts/lock`` from the moment it
prepares the folder until the output is in place; a second run on the same ``OUT`` is refused with
:class:`OutputLockedError` naming the running process, before it touches anything.

Without a combiner, :meth:`PartStore.summarise` folds the metas one at a time into the file's
:class:`~polyreward.runners.file_summary.FileSummary` (one part's scores held at a time). With one,
:meth:`PartStore.read_back` reads the score matrices of all metas (only the (N, K) floats, the group ids and a
combiner's per-row columns are held, never the rows), from which the file's scorer computes the advantages in one
combiner call over the whole file (:func:`polyreward.runners.score_file.score_file`), so batch-level statistics
(GDPO's batch normalisation, ``scale: batch``) and stateful combiners see what they would see in memory. Then
:meth:`PartStore.finish` makes ``OUT``: the rows file itself, or a file written *inside* the folder from the chunks
(each row with its advantage when there is one), renamed onto ``OUT``. Nothing is ever left beside ``OUT``: a
crash leaves only the folder, which a plain rerun replaces and ``--resume`` reuses.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import itertools
import json
import math
import os
import shutil
from collections.abc import Iterator, Mapping, Sequence
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any

import numpy as np

from polyreward.io import encode_rows, file_format, parquet_column_type, parquet_columns, parquet_table, write_atomic
from polyreward.runners.file_summary import FileSummary
from polyreward.vocabulary import ScoredBatch, UserError, group_key as canonical_group_key


class OutputError(OSError):
    """Writing a part or the output failed (no space left, a read-only folder); finished parts are kept for ``--resume``."""

    @classmethod
    def wrap(cls, exc: OSError, path: Path) -> OutputError:
        return cls(exc.errno, f"writing {path} failed: {exc.strerror or exc}")


class OutputLockedError(UserError, ValueError):
    """Another run holds the lock of this output's part folder (one line naming its process)."""


def _digest(path: Path, offset: int, size: int) -> tuple[int, str]:
    """Size and SHA-256 of the (up to) ``size`` bytes of a file from ``offset``."""
    digest, read = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        handle.seek(offset)
        while read < size and (block := handle.read(min(1 << 20, size - read))):
            digest.update(block)
            read += len(block)
    return read, digest.hexdigest()


def chunk_key(settings: str, records: Sequence[Mapping[str, Any]], lines: Sequence[bytes] | None = None) -> str:
    """Hash of the scoring settings and a chunk's input rows: equal keys mean the stored part is still right.

    With ``lines`` (a JSONL input: each row's line as read, :func:`polyreward.io.iter_chunks_with_lines`) the rows
    are hashed as those bytes, which parse to the same rows every time, instead of being written once more as JSON
    (a third of the cost of scoring a cheap reward); otherwise (CSV, Parquet) as JSON text of the rows. The two
    kinds are told apart in the hash, and each line but a file's last ends with its newline, so joined they are
    one unambiguous text. A file rewritten with other bytes for the same rows only costs a re-score on resume."""
    digest = hashlib.sha256(settings.encode())
    if lines is not None:
        digest.update(b"\x00lines\x00")
        digest.update(b"".join(lines))
    else:
        digest.update(b"\x00rows\x00")
        digest.update(json.dumps(records, ensure_ascii=True, default=str).encode())
    return digest.hexdigest()


def group_keys(values: Sequence[Any]) -> list[str]:
    """:func:`group_key` of each value, each distinct plain id (a str or int: a group's rows share it) keyed once,
    and a run of one id (a group's rows are consecutive) looked up once."""
    if set(map(type, values)) == {int} and _INT64_MIN <= min(values) and max(values) < _INT64_END:
        return list(map(int.__repr__, values))  # the usual ids, ints within int64: each its own text, in one pass
    seen: dict[tuple[type, Any], str] = {}
    keys = []
    last_kind: type | None = None
    last_value: Any = None
    last_key = ""
    for value in values:
        kind = type(value)
        if kind is str or kind is int:
            if kind is last_kind and value == last_value:
                keys.append(last_key)
                continue
            key = seen.get((kind, value))
            if key is None:
                key = seen[(kind, value)] = group_key(value)
            keys.append(key)
            last_kind, last_value, last_key = kind, value, key
        else:
            keys.append(group_key(value))
    return keys


_INT64_MIN, _INT64_END = -(2**63), 2**63


def group_key(value: Any) -> str:
    """A group id as JSON text of its :func:`polyreward.vocabulary.group_key` (the same id in every chunk; ``1``,
    ``1.0`` and ``"1"`` one group, as in every entry point; list or dict ids keyed without recursion)."""
    if type(value) is int and _INT64_MIN <= value < _INT64_END:  # an int within int64 is its own key: its text
        return int.__repr__(value)
    key = canonical_group_key(value)
    if type(key) is int:  # the text json.dumps writes for an int or a str, without building an encoder per id
        return int.__repr__(key)
    if type(key) is str:
        return encode_basestring_ascii(key)
    return json.dumps(key, ensure_ascii=True)


def _float_text(scores: np.ndarray) -> str:
    """An (n, K) float64 score matrix as meta text: base64 of its little-endian bytes, reward by reward (each float
    bit for bit, NaN and -0.0 included, at a tenth of the cost of JSON numbers)."""
    return base64.b64encode(np.ascontiguousarray(scores.T, dtype="<f8").tobytes()).decode("ascii")


def _floats(text: str, k: int, rows: int) -> np.ndarray:
    """The (rows, K) float64 matrix :func:`_float_text` wrote."""
    return np.frombuffer(base64.b64decode(text), dtype="<f8").astype(np.float64).reshape(k, rows).T


def _copy(source: Any, target: Any, offset: int, size: int) -> None:
    """Append ``size`` bytes of the file ``source`` from ``offset`` to ``target`` (both open in binary mode): in the
    kernel (``os.sendfile``, no copy through this process) where it can, else through a buffer."""
    target.flush()  # what the buffer holds goes first; the kernel then writes at the descriptor's position
    sent = 0
    try:
        while sent < size:
            done = os.sendfile(target.fileno(), source.fileno(), offset + sent, size - sent)
            if done == 0:
                break
            sent += done
    except OSError as exc:
        if sent or exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise
    if sent < size:  # no sendfile here: the rest through a buffer
        source.seek(offset + sent)
        target.write(source.read(size - sent))


def _json_number(value: float) -> float | None:
    """A float as the output holds it: non-finite values (which JSON cannot write) become null."""
    return value if math.isfinite(value) else None


def _holder_pid(fd: int, patience: float = 2.0) -> str:
    """The pid the lock's holder wrote into the lock file, or ``"unknown"``.

    A run that has just taken the lock writes its pid a moment later (after checking that the file is still the
    folder's), so an empty file is read again for up to ``patience`` seconds before giving up."""
    import time

    deadline = time.monotonic() + patience
    while True:
        holder = os.pread(fd, 200, 0).decode(errors="replace").strip()
        if holder or time.monotonic() >= deadline:
            return holder or "unknown"
        time.sleep(0.01)


class PartStore:
    """Numbered, atomically written chunk files of an output in progress (see the module docstring)."""

    def __init__(self, output: str | Path) -> None:
        self.output = Path(output)
        self.folder = self.output.with_name(f".{self.output.name}.parts")
        self.lock_file = self.folder / "lock"
        self.rows_file = self.folder / "rows.jsonl"  # every chunk's output rows, appended as scored
        self._lock: int | None = None  # the open, flock'ed lock file while this store holds the output
        self._appending: Any = None  # the rows file, open for appending, while this run writes chunks
        self._end = 0  # where the next chunk goes in the rows file (its size)
        self._regions: dict[int, tuple[int, int]] = {}  # each stored chunk's (offset, size) in the rows file
        self.rescored: list[int] = []  # parts whose stored bytes did not match their meta (scored again)

    def acquire(self) -> None:
        """Take the output's lock (idempotent), or raise :class:`OutputLockedError` naming the process that holds it.

        The lock file is re-checked after locking: a run that finished in between removed the folder, and a lock on
        the unlinked file would guard nothing."""
        import fcntl

        while self._lock is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder_pid(fd)
                os.close(fd)
                raise OutputLockedError(f"{self.output}: another polyreward run (pid {holder}) is writing this output; "
                                        "wait for it to finish, or stop it, then rerun (with --resume to keep its finished chunks)") from None
            try:
                same = os.fstat(fd).st_ino == os.stat(self.lock_file).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
            self._lock = fd

    def release(self) -> None:
        """Drop the lock (the folder, if still there, stays for ``--resume``)."""
        if self._appending is not None:
            self._appending.close()
            self._appending = None
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None

    def region(self, index: int) -> tuple[int, int]:
        """Where part ``index``'s bytes lie in the rows file: (offset, size), as its meta says."""
        if index not in self._regions:
            meta = json.loads(self.meta(index).read_text(encoding="utf-8"))
            self._regions[index] = (meta["offset"], meta["bytes"])
        return self._regions[index]

    def part_lines(self, index: int) -> list[bytes]:
        """Part ``index``'s output rows, one JSON text each (a raw newline ends a row: JSON text escapes it)."""
        lines = self.part_bytes(index).split(b"\n")
        if lines[-1]:
            raise OSError(f"part {index} of {self.rows_file} does not end with a whole row; delete {self.folder} and score again")
        return lines[:-1]

    def part_bytes(self, index: int) -> bytes:
        """Part ``index``'s output rows (JSONL bytes) as stored."""
        offset, size = self.region(index)
        with open(self.rows_file, "rb") as handle:
            handle.seek(offset)
            return handle.read(size)

    def meta(self, index: int) -> Path:
        return self.folder / f"part-{index:06d}.meta.json"

    def start(self, resume: bool) -> str | None:
        """Prepare the folder; returns a one-line note when an unfinished run's folder was found."""
        try:
            return self._start(resume)
        except OSError as exc:
            raise OutputError.wrap(exc, self.folder) from exc

    def _start(self, resume: bool) -> str | None:
        note = None
        existed = self.folder.exists() and any(p.name != "lock" for p in self.folder.iterdir())
        self.acquire()
        if existed:
            if resume:
                kept = len(list(self.folder.glob("part-*.meta.json")))
                note = (f"resuming: {kept} finished chunk(s) in {self.folder}; chunks whose input or settings changed, or "
                        "whose stored bytes do not match their checksum, are scored again")
                for stray in self.folder.glob(".*tmp*"):  # half-written files of the interrupted run
                    stray.unlink(missing_ok=True)
                self._cut_unclaimed_rows()
            else:
                for path in self.folder.iterdir():  # everything but the lock this run now holds
                    if path.name != "lock":
                        shutil.rmtree(path) if path.is_dir() else path.unlink()
                note = f"note: starting over; removed the unfinished run in {self.folder} (--resume keeps its finished chunks)"
        return note

    def _cut_unclaimed_rows(self) -> None:
        """Cut the rows file after the last byte a readable meta describes: what follows is a chunk a killed run or a
        full disk cut short (written, its meta never), and the chunks scored now then follow the kept ones directly."""
        if not self.rows_file.exists():
            return
        claimed = 0
        for path in self.folder.glob("part-*.meta.json"):
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))
                claimed = max(claimed, int(meta["offset"]) + int(meta["bytes"]))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        if self.rows_file.stat().st_size > claimed:
            os.truncate(self.rows_file, claimed)

    def done(self, index: int, key: str) -> bool:
        """Is part ``index`` stored with this key (same settings, same input rows) and are its bytes in the rows file
        the ones its meta describes (size, SHA-256)? A part that fails the check is noted in :attr:`rescored`."""
        try:
            meta = json.loads(self.meta(index).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(meta, dict) or meta.get("key") != key:
            return False
        try:
            offset, size = int(meta["offset"]), int(meta["bytes"])
            intact = offset >= 0 and _digest(self.rows_file, offset, size) == (size, meta.get("sha256"))
        except (OSError, KeyError, TypeError, ValueError):
            intact = False
        if not intact:
            self.rescored.append(index)
            return False
        self._regions[index] = (offset, size)
        return True

    def write(self, index: int, key: str, data: bytes, count: int, scored: ScoredBatch, groups: Sequence[str] | None,
              row_values: Mapping[str, list[Any]] | None = None) -> None:
        """Store one scored chunk: its ``count`` output rows as JSONL bytes (``data``, as :func:`polyreward.io.encode_rows`
        writes them) appended to the rows file first, then the meta that makes the part count as done (where the bytes
        lie, their SHA-256, and of ``scored``: the scores, failure counts and first reasons). ``row_values`` are the
        per-row columns a combiner reads besides the scores (DRPO's domain)."""
        try:
            if self._appending is None:
                self._appending = open(self.rows_file, "ab", buffering=0)  # each chunk one write, straight to the kernel
                self._end = os.fstat(self._appending.fileno()).st_size
            offset = self._end
            meta = {"key": key, "rows": count, "offset": offset, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                    "scores": _float_text(scored.scores), "groups": None if groups is None else "\n".join(groups),
                    "failures": dict(scored.failures), "first_failure": dict(scored.first_failure), "row_values": dict(row_values or {})}
            view = memoryview(data)
            while view:  # checked against the meta's SHA-256 before any reuse
                view = view[self._appending.write(view):]
            self._end += len(data)
            write_atomic(self.meta(index), json.dumps(meta).encode(), sync=False)
        except OSError as exc:
            raise OutputError.wrap(exc, self.rows_file) from exc
        self._regions[index] = (offset, len(data))

    def _metas(self, count: int) -> Iterator[dict[str, Any]]:
        for index in range(count):
            yield json.loads(self.meta(index).read_text(encoding="utf-8"))

    def read_back(self, count: int, names: Sequence[str], weights: np.ndarray, groups_needed: bool = True,
                  ) -> tuple[ScoredBatch, np.ndarray | None, dict[str, list[Any]], list[int]]:
        """What the metas of parts 0 .. count-1 hold: the parts' batches joined (:meth:`ScoredBatch.concat`: scores,
        summed failure counts, first reasons; no reasons, which are in the rows), the group ids as int codes in order
        of first appearance (the same partition as the ids, so a file that keeps its groups together is grouped
        without hashing), the per-row columns kept for the combiner, and each part's row count. Without
        ``groups_needed`` (no combiner) the group ids and per-row columns are left out, so memory holds only the
        (N, K) scores."""
        k = len(names)
        parts = [ScoredBatch(list(names), weights, np.zeros((0, k)), {}, failures=dict.fromkeys(names, 0))]
        codes: dict[str, int] = {}
        groups: list[np.ndarray] | None = [] if groups_needed else None  # each part's codes (8 bytes a row, not a list of ints)
        row_values: dict[str, list[Any]] = {}
        sizes = []
        for meta in self._metas(count):
            sizes.append(meta["rows"])
            for column, values in meta.get("row_values", {}).items() if groups_needed else ():
                row_values.setdefault(column, []).extend(values)
            scores = _floats(meta["scores"], k, meta["rows"])
            parts.append(ScoredBatch(list(names), weights, scores, {}, failures=meta["failures"], first_failure=meta["first_failure"]))
            if meta["groups"] is None:
                groups = None
            elif groups is not None:
                keys = meta["groups"].split("\n") if meta["groups"] else []
                groups.append(np.fromiter((codes.setdefault(key, len(codes)) for key in keys), dtype=np.int64, count=len(keys)))
        codes_array = None if groups is None else np.concatenate(groups) if groups else np.zeros(0, dtype=np.int64)
        return ScoredBatch.concat(parts), codes_array, row_values, sizes

    def summarise(self, count: int, summary: FileSummary, scores: np.ndarray | None = None) -> list[int]:
        """Fold parts 0 .. count-1 into ``summary`` one at a time (each part's scores, failure counts and first reasons
        from its meta, its rows' ``--by`` values when the summary has ``by``) and return each part's row count, for
        :meth:`finish`. Only one part's scores are held at a time; with ``scores`` (the file's matrix, already read
        back for a combiner) each part's rows are sliced from it instead of decoded again."""
        k, start, sizes = len(summary.names), 0, []
        for index, meta in enumerate(self._metas(count)):
            rows = meta["rows"]
            part_scores = _floats(meta["scores"], k, rows) if scores is None else scores[start:start + rows]
            by_values = None
            if summary.by is not None:
                by_values = [str(json.loads(line).get(summary.by)) for line in self.part_lines(index)]
            summary.add(part_scores, meta["failures"], meta["first_failure"], by_values)
            sizes.append(rows)
            start += rows
        return sizes

    def iter_rows(self, count: int) -> Iterator[dict[str, Any]]:
        for index in range(count):
            for line in self.part_lines(index):
                yield json.loads(line)

    def finish(self, sizes: Sequence[int], advantages: np.ndarray | None = None, column: str = "advantage") -> None:
        """Join the parts (``sizes``: each part's row count, as :meth:`read_back` or :meth:`summarise` gives them) into
        the output, with ``advantages`` (N,) as an added column when given, atomically, and remove the folder. An
        :class:`OutputError` keeps the folder and leaves no temporary file."""
        tmp = self.folder / "assembly.tmp"
        try:
            kind = file_format(self.output)
            slices = list(self._slices(sizes, advantages))
            if self._appending is not None:
                self._appending.close()
                self._appending = None
            if kind == "jsonl":
                tmp = self._write_jsonl(tmp, slices, column)
            elif kind == "csv":
                self._write_csv(tmp, slices, column)
            else:
                self._write_parquet(tmp, slices, column)
            os.replace(tmp, self.output)
        except OSError as exc:
            if tmp != self.rows_file:
                tmp.unlink(missing_ok=True)
            raise OutputError.wrap(exc, self.output) from exc
        shutil.rmtree(self.folder, ignore_errors=True)  # the lock file goes with it; release() then closes it
        self.release()

    def _in_order(self, count: int) -> bool:
        """Do parts 0 .. count-1 fill the rows file exactly, in their order, one after the other?"""
        end = 0
        for index in range(count):
            offset, size = self.region(index)
            if offset != end:
                return False
            end += size
        return end == os.stat(self.rows_file).st_size

    @staticmethod
    def _slices(sizes: Sequence[int], advantages: np.ndarray | None) -> Iterator[tuple[int, np.ndarray | None]]:
        start = 0
        for index, size in enumerate(sizes):
            yield index, None if advantages is None else advantages[start:start + size]
            start += size

    def _write_jsonl(self, tmp: Path, slices: Sequence[tuple[int, np.ndarray | None]], column: str) -> Path:
        """The JSONL output, fsync'ed: the rows file itself when the chunks lie in it in order, one after the other,
        and no advantage is added (nothing written: the rows are written once); else ``tmp``, written from them."""
        if all(values is None for _, values in slices) and self._in_order(len(slices)):
            with open(self.rows_file, "rb") as handle:
                os.fsync(handle.fileno())
            return self.rows_file
        suffix = b", " + json.dumps(column).encode() + b": "
        with open(tmp, "wb") as out, open(self.rows_file, "rb") as handle:
            for index, values in slices:
                offset, size = self.region(index)
                if values is None:
                    _copy(handle, out, offset, size)
                    continue
                # Each row '{...}\n' becomes '{..., "advantage": a}\n'. JSON escapes newlines inside strings, so
                # b"}\n" occurs only where a row ends; the numbers are written by json as a list, then split.
                handle.seek(offset)
                rows = handle.read(size).split(b"}\n")
                numbers = json.dumps([_json_number(v) for v in values.tolist()] if not np.isfinite(values).all()
                                     else values.tolist())[1:-1].encode().split(b", ")
                if len(rows) != len(numbers) + 1 or rows[-1]:
                    raise OSError(f"part {index} of {self.rows_file} does not hold {len(numbers)} rows; delete {self.folder} and score again")
                tails = [suffix + number + b"}\n" for number in numbers]
                out.write(b"".join(itertools.chain.from_iterable(zip(rows, tails))))
            out.flush()
            os.fsync(out.fileno())
        return tmp

    def _rows(self, index: int, values: np.ndarray | None, column: str) -> list[dict[str, Any]]:
        rows = [json.loads(line) for line in self.part_lines(index)]
        if values is not None:
            for row, value in zip(rows, values.tolist()):
                row[column] = _json_number(value)
        return rows

    def _write_csv(self, tmp: Path, slices: Sequence[tuple[int, np.ndarray | None]], column: str) -> None:
        columns: dict[str, None] = {}
        for row in self.iter_rows(len(slices)):
            columns.update(dict.fromkeys(row))
        if slices and slices[0][1] is not None:
            columns[column] = None
        template = dict.fromkeys(columns)
        with open(tmp, "wb") as out:
            out.write(encode_rows([template], "csv").split(b"\n", 1)[0] + b"\n")
            for index, values in slices:
                out.write(encode_rows([{**template, **row} for row in self._rows(index, values, column)], "csv", header=False))
            out.flush()
            os.fsync(out.fileno())

    def _write_parquet(self, tmp: Path, slices: Sequence[tuple[int, np.ndarray | None]], column: str) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        def tables(types=None):
            for index, values in slices:
                yield parquet_table(self._rows(index, values, column), types)

        # Each part's types are inferred from its own rows (an Arrow type, or "text" where the part's values need JSON
        # text); where two parts disagree (ints in one, text or floats in another, a plain string column in one and
        # JSON text in another) the column takes the type of all its values at once, so the file's types never
        # depend on the chunk size. Only such columns are held whole, and only while their type is decided.
        schemas, kinds = [], {}
        for index, values in slices:
            table, part_kinds = parquet_columns(self._rows(index, values, column))
            schemas.append(table.schema)
            for name, kind in part_kinds.items():
                kinds.setdefault(name, set()).add(kind)
        clashing = [name for name, found in kinds.items() if len(found - {pa.null()}) > 1]
        types = None
        if clashing:
            whole: dict[str, list[Any]] = {name: [] for name in clashing}
            for index, values in slices:
                for row in self._rows(index, values, column):
                    for name in clashing:
                        whole[name].append(row.get(name))
            types = {name: parquet_column_type(values) for name, values in whole.items()}
            schemas = [t.schema for t in tables(types)]
        schema = pa.unify_schemas(schemas, promote_options="permissive")
        with pq.ParquetWriter(tmp, schema) as writer:
            for table in tables(types):
                for field in schema:
                    if field.name not in table.column_names:
                        table = table.append_column(field.name, pa.nulls(len(table), field.type))
                writer.write_table(table.select(schema.names).cast(schema))
