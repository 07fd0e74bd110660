"""Rollout files: JSONL, Parquet and CSV (chosen by extension), read in chunks and written atomically.

Reading streams chunks of row dicts so memory stays bounded whatever the file size. A malformed JSONL
line raises :class:`InputError` naming the file and line (or is skipped and counted with
``on_error="skip"``). CSV cells are read as text (``"007"`` and ``"1/2"`` stay as written); empty cells
become ``None``.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections import Counter
import json
import math
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, Literal

try:  # strict JSON lines are read 4x faster; whatever orjson refuses or reads otherwise goes through json (see _parse_line)
    from orjson import loads as _orjson_loads
except ImportError:  # pragma: no cover -- orjson is a dependency; without it every line takes the json path
    _orjson_loads = None

from polyreward.vocabulary import UserError

FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
# read-only inputs besides FORMATS: a datasets Arrow file and a folder made by Dataset.save_to_disk
INPUT_FORMATS = {**FORMATS, ".arrow": "arrow"}
OnError = Literal["fail", "skip"]


def cache_dir() -> Path:
    """Where polyreward keeps converted data and built offline models: ``$POLYREWARD_CACHE`` or ~/.cache/polyreward."""
    return Path(os.environ.get("POLYREWARD_CACHE", Path.home() / ".cache" / "polyreward"))


class InputError(UserError, ValueError):
    """A problem with an input file, naming the file and, where known, the line."""


def file_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: unknown file type {suffix or '(none)'}; use one of {', '.join(sorted(FORMATS))}")
    return FORMATS[suffix]


@dataclass
class ReadStats:
    rows: int = 0
    skipped: int = 0
    first_skipped_line: int | None = None
    surrogates: int = 0  # JSON strings holding a lone UTF-16 surrogate ("\\ud800"), read with U+FFFD in its place
    first_surrogate_line: int | None = None


def input_format(path: str | Path) -> str:
    """The format of an input: one of :data:`FORMATS`, ``"arrow"`` (a ``datasets`` Arrow file) or ``"dataset"`` (a
    folder written by ``Dataset.save_to_disk``: its ``state.json`` lists the Arrow files)."""
    path = Path(path)
    if path.is_dir():
        if (path / "dataset_dict.json").is_file():
            splits = json.loads((path / "dataset_dict.json").read_text(encoding="utf-8")).get("splits", [])
            raise InputError(f"{path}: is a DatasetDict with splits {splits}; give one split's folder, e.g. {path / (splits or ['train'])[0]}")
        if not (path / "state.json").is_file():
            raise InputError(f"{path}: is a directory, not a rollout file")  # nor a save_to_disk folder: no state.json
        return "dataset"
    suffix = path.suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputError(f"{path}: unknown file type {suffix or '(none)'}; use one of {', '.join(sorted(INPUT_FORMATS))} or a Dataset.save_to_disk folder")
    return INPUT_FORMATS[suffix]


def check_readable(path: str | Path) -> Path:
    """``path`` when it is a readable input (:func:`input_format`); an :class:`InputError` in one line otherwise."""
    path = Path(path)
    if not path.exists():
        input_format(path)  # an unknown type is named first, as before
        raise InputError(f"{path}: no such file")
    input_format(path)
    if not os.access(path, os.R_OK):
        raise InputError(f"{path}: not readable (permission denied)")
    return path


def check_writable(output: str | Path, inputs: Sequence[str | Path] = (), reads: Mapping[Path, str] | None = None) -> Path:
    """``output`` when a file can be written there without touching an input or any other file the run reads
    (``reads``: path -> what it is, e.g. "the config file"); an :class:`InputError` otherwise."""
    output = Path(output)
    file_format(output)
    folder = output.parent if str(output.parent) else Path(".")
    if output.is_dir():
        raise InputError(f"{output}: is a directory; give an output file name")
    if not folder.is_dir():
        raise InputError(f"{output}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{output}: the folder {folder} is not writable")
    for source, what in [*((source, "the input file") for source in inputs), *(reads or {}).items()]:
        same = output.resolve() == Path(source).resolve() or (output.exists() and Path(source).exists() and os.path.samefile(output, source))
        if same:
            which = "the input file" if what == "the input file" else f"{what} ({source}), which this run reads"
            raise InputError(f"{output}: the output would replace {which}; choose another output path")
    return output


def iter_chunks(path: str | Path, chunk_size: int = 1000, on_error: OnError = "fail", stats: ReadStats | None = None) -> Iterator[list[dict[str, Any]]]:
    """Yield lists of up to ``chunk_size`` row dicts in file order."""
    for rows, _ in iter_chunks_with_lines(path, chunk_size, on_error, stats, lines=False):
        yield rows


def iter_chunks_with_lines(path: str | Path, chunk_size: int = 1000, on_error: OnError = "fail", stats: ReadStats | None = None,
                           lines: bool = True) -> Iterator[tuple[list[dict[str, Any]], list[bytes] | None]]:
    """:func:`iter_chunks` with, for a JSONL input (and ``lines``), each row's line as read (its bytes, the newline
    included, a byte-order mark left out): ``(rows, lines)``, the lines parallel to the rows (a skipped malformed or
    blank line has no row and is not among them); ``lines`` is None for the other formats. The same bytes always
    parse to the same row, so the lines identify a chunk's rows for the part store without writing them again."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    stats = stats if stats is not None else ReadStats()
    path = check_readable(path)
    kind = input_format(path)
    if kind == "jsonl":
        for rows, raws in _jsonl_chunks(path, chunk_size, on_error, stats):
            stats.rows += len(rows)
            yield rows, raws if lines else None
        return
    source = {"csv": _csv_rows, "parquet": _parquet_rows, "arrow": _arrow_rows, "dataset": _dataset_rows}[kind](path, on_error, stats)
    chunk: list[dict[str, Any]] = []
    for row in source:
        chunk.append(row)
        if len(chunk) >= chunk_size:
            stats.rows += len(chunk)  # counted per chunk: this loop runs once per row
            yield chunk, None
            chunk = []
    if chunk:
        stats.rows += len(chunk)
        yield chunk, None


def array_hint(path: str | Path) -> str:
    """The shell line that converts the JSON array in ``path`` to JSON Lines in a *new* file (``x.jsonl`` ->
    ``x.rows.jsonl``): redirecting into the file being read would truncate it before jq reads it."""
    import shlex

    path = Path(path)
    target = path.with_suffix(".jsonl")
    if target.name == path.name:
        target = path.with_name(f"{path.stem}.rows.jsonl")
    return f"jq -c '.[]' {shlex.quote(str(path))} > {shlex.quote(str(target))}"


def _jsonl_chunks(path: Path, chunk_size: int, on_error: OnError, stats: ReadStats) -> Iterator[tuple[list[dict[str, Any]], list[bytes]]]:
    """Chunks of up to ``chunk_size`` rows of a JSONL file with their lines as read (:func:`iter_chunks_with_lines`).

    The lines are read ``chunk_size`` at a time. A block whose bytes hold no run of 19 digits (orjson reads an
    integer past 64 bits as a float) and whose every line orjson reads as an object is parsed in one loop; any
    other block (a blank, malformed or non-object line, the first line's byte-order mark or JSON array, a lone
    surrogate escape, which json reads and orjson refuses) goes line by line through :func:`_jsonl_lines`, which
    decides, words and counts each line as before. A surrogate pair orjson reads as json does, so a block need
    not be searched for surrogate escapes first (that search cost a tenth of a cheap row). Both give the same rows (orjson reads strict JSON with json's values) in the same chunks: a chunk is
    handed on once full, before a malformed line after it raises, as when rows were read one by one."""
    loads = _orjson_loads
    pending: list[dict[str, Any]] = []
    pending_lines: list[bytes] = []
    lineno, seen_first = 0, False
    with open(path, "rb") as handle:
        while block := list(itertools.islice(handle, chunk_size)):
            rows = None
            first = block[0]
            if loads is not None and (seen_first or not (first.startswith(b"\xef\xbb\xbf") or first.lstrip().startswith(b"["))):
                joined = b"".join(block)
                if not _long_digits(joined):  # (a lone surrogate escape makes orjson raise: line by line below)
                    try:
                        rows = [loads(raw) for raw in block]
                    except ValueError:  # a blank or malformed line: the line-by-line path says which, as before
                        rows = None
                    if rows is not None and not all(type(row) is dict for row in rows):
                        rows = None
            if rows is not None:
                seen_first = True
                if not pending and len(rows) == chunk_size:  # the usual case: one block, one chunk, no copy
                    lineno += len(block)
                    yield rows, block
                    continue
                pending += rows
                pending_lines += block
            else:  # line by line, a chunk handed on as soon as it is full (before a bad line further down raises)
                for offset, raw in enumerate(block):
                    rows, kept, seen_first = _jsonl_lines(path, [raw], lineno + offset, on_error, stats, seen_first)
                    pending += rows
                    pending_lines += kept
                    if len(pending) >= chunk_size:
                        yield pending[:chunk_size], pending_lines[:chunk_size]
                        del pending[:chunk_size], pending_lines[:chunk_size]
            lineno += len(block)
            while len(pending) >= chunk_size:
                yield pending[:chunk_size], pending_lines[:chunk_size]
                del pending[:chunk_size], pending_lines[:chunk_size]
    if pending:
        yield pending, pending_lines


def _jsonl_lines(path: Path, block: list[bytes], lineno: int, on_error: OnError, stats: ReadStats, seen_first: bool,
                 ) -> tuple[list[dict[str, Any]], list[bytes], bool]:
    """The rows of ``block`` (the lines after line ``lineno``), each line decided on its own: blank lines left out,
    a malformed one an InputError naming the line (or skipped and counted), lone surrogates replaced and counted;
    with the lines kept (parallel to the rows) and whether a non-blank line has been seen."""
    rows: list[dict[str, Any]] = []
    kept: list[bytes] = []
    for lineno, raw in enumerate(block, start=lineno + 1):
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark
            raw = raw[3:]
        if not raw or raw.isspace():  # the same ASCII whitespace as strip(), without a copy of every line
            continue
        if seen_first is False and raw.lstrip().startswith(b"["):  # the first non-blank line opens a JSON array
            raise InputError(f"{path}: holds a JSON array (one document), not JSON Lines (one object per line); "
                             f"convert it into a new file first, e.g. {array_hint(path)}")
        seen_first = True
        try:
            surrogate, long_digits = _surrogate_escape(raw), _long_digits(raw)
            row = None
            if not surrogate and _orjson_loads is not None and not long_digits:
                try:
                    row = _orjson_loads(raw)
                except ValueError:
                    row = None
            if row is None:  # (orjson reads "null" as None too: json decides that line, the same way)
                row = _parse_line(raw, plain=not surrogate and not long_digits)
            if not isinstance(row, dict):
                raise ValueError(f"expected a JSON object, got {type(row).__name__}")
            if surrogate:
                row = _replace_surrogates(row, stats, lineno)
        except UnicodeDecodeError as exc:
            if _skip(on_error, stats, lineno):
                continue
            raise InputError(f"{path}:{lineno}: not valid UTF-8 ({exc.reason})") from None
        except (ValueError, RecursionError) as exc:
            if _skip(on_error, stats, lineno):
                continue
            raise InputError(f"{path}:{lineno}: malformed JSON line: {exc}") from None
        rows.append(row)
        kept.append(raw)
    return rows, kept, seen_first


def _parse_line(raw: bytes, plain: bool | None = None) -> Any:
    """One JSONL line as ``json.loads(raw.decode("utf-8"))`` reads it, the same value or the same exception.

    orjson reads strict JSON with the same values (shortest-repr floats, the last of duplicate keys at the first's
    place) but turns integers past 64 bits into floats without a word, and refuses what json accepts (NaN, Infinity,
    1e400, lone surrogate escapes) or reports otherwise (invalid UTF-8): a line with a run of 19 or more digits, or
    one orjson refuses, is read by json, which decides (and words any error) as it always did. ``plain``: the caller
    already knows whether the line holds such a run (or a surrogate escape, which json reads as well)."""
    if plain is None:
        plain = not _long_digits(raw)
    if plain and _orjson_loads is not None:
        try:
            return _orjson_loads(raw)
        except ValueError:
            pass
    return json.loads(raw.decode("utf-8"))


def _surrogate_escape(raw: bytes) -> bool:
    """Does ``raw`` hold a \\uD800-\\uDFFF escape (half a surrogate pair, maybe alone: orjson refuses what json reads)?
    ``in`` first: 30x faster than the regex on a line without any escape."""
    return b"\\u" in raw and _SURROGATE_ESCAPE.search(raw) is not None


def _long_digits(raw: bytes) -> bool:
    """Does ``raw`` hold a run of 19 or more digits (maybe an int orjson cannot hold: |n| >= 2**63 has 19 digits or
    more)? Digits mapped to "0" and every other byte to a space, then one substring search: a tenth of what the
    regex ``[0-9]{19}`` costs on a typical line."""
    return _NINETEEN_DIGITS in raw.translate(_DIGITS_ONLY)


_DIGITS_ONLY = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
_NINETEEN_DIGITS = b"0" * 19
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # a \uD800-\uDFFF escape: maybe half a pair, maybe alone
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # json.loads joins real pairs, so any left is alone


def _replace_surrogates(value: Any, stats: ReadStats, lineno: int) -> Any:
    """Lone surrogates (valid JSON, not valid Unicode text: no UTF-8 encoding exists) -> U+FFFD, counted once per line.

    The row is scored and written like any other; the count tells how many lines had such strings.
    """
    found = False

    def fix(item: Any) -> Any:
        nonlocal found
        if isinstance(item, str):
            fixed, hits = _LONE_SURROGATE.subn("\ufffd", item)
            found = found or hits > 0
            return fixed
        if isinstance(item, dict):
            return {fix(k): fix(v) for k, v in item.items()}
        if isinstance(item, list):
            return [fix(v) for v in item]
        return item

    row = fix(value)
    if found:
        stats.surrogates += 1
        stats.first_surrogate_line = stats.first_surrogate_line or lineno
    return row


def _skip(on_error: OnError, stats: ReadStats, lineno: int) -> bool:
    if on_error != "skip":
        return False
    stats.skipped += 1
    stats.first_skipped_line = stats.first_skipped_line or lineno
    return True


def _csv_rows(path: Path, on_error: OnError, stats: ReadStats) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:  # -sig: Excel's byte-order mark is not part of the first header
        reader = csv.reader(handle)
        try:
            header = next(reader, None)
            if header is None:
                return
            repeated = sorted(name for name, times in Counter(header).items() if times > 1)  # linear: 100k columns are fine
            if repeated:
                raise InputError(f"{path}:1: the CSV header names column(s) {repeated} more than once")
            for record in reader:
                if len(record) != len(header):
                    if _skip(on_error, stats, reader.line_num):
                        continue
                    raise InputError(f"{path}:{reader.line_num}: expected {len(header)} fields, got {len(record)}")
                yield {k: (v if v != "" else None) for k, v in zip(header, record)}
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}:{reader.line_num + 1}: not valid UTF-8 ({exc.reason})") from None
        except csv.Error as exc:
            raise InputError(f"{path}:{reader.line_num}: malformed CSV: {exc}") from None


def _parquet_rows(path: Path, on_error: OnError, stats: ReadStats) -> Iterator[dict[str, Any]]:
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: not a readable Parquet file ({reason})") from None
    for batch in parquet.iter_batches(batch_size=4096):
        yield from batch.to_pylist()


def _arrow_rows(path: Path, on_error: OnError, stats: ReadStats) -> Iterator[dict[str, Any]]:
    """Rows of an Arrow IPC file as ``datasets`` writes them (the stream format; the file format is read too)."""
    import pyarrow as pa

    try:
        source = pa.memory_map(str(path))
        try:
            reader = pa.ipc.open_stream(source)
        except pa.ArrowInvalid:
            source.seek(0)
            reader = pa.ipc.open_file(source)
            batches = (reader.get_batch(i) for i in range(reader.num_record_batches))
        else:
            batches = iter(reader)
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: not a readable Arrow file ({reason})") from None
    for batch in batches:
        yield from batch.to_pylist()


def _dataset_rows(path: Path, on_error: OnError, stats: ReadStats) -> Iterator[dict[str, Any]]:
    """Rows of a ``Dataset.save_to_disk`` folder: its Arrow files in the order ``state.json`` lists them."""
    try:
        state = json.loads((path / "state.json").read_text(encoding="utf-8"))
        files = [path / entry["filename"] for entry in state["_data_files"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path / 'state.json'}: not a Dataset.save_to_disk state file ({exc})") from None
    if state.get("_indices_data_files"):
        raise InputError(f"{path}: holds an indices mapping; save it again after Dataset.flatten_indices()")
    for file in files:
        yield from _arrow_rows(file, on_error, stats)


def count_rows(path: str | Path) -> int | None:
    """Row count when cheap to know (Parquet metadata), else None."""
    if input_format(path) == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    return None


_PLAIN = (str, int, bool, type(None))


def _clean(value: Any) -> Any:
    if type(value) in _PLAIN:  # most cells: nothing to clean (checked first, for speed)
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "tolist"):  # numpy scalars / arrays
        return _clean(value.tolist())
    return value


def _encoded_default(value: Any) -> Any:
    """What :func:`_clean` makes of a value the JSON encoder cannot write itself (``_ROW_ENCODER``'s ``default``)."""
    if isinstance(value, Mapping):
        return dict(value.items())
    if hasattr(value, "tolist"):  # numpy scalars / arrays
        return value.tolist()
    return str(value)


def _row_encoder() -> Any:
    """json.dumps(row, ensure_ascii=False, default=str) built once instead of once per row (json.dumps makes a new
    encoder per call when given ``default``), refusing NaN and infinity: a row holding one is written by the _clean
    path instead. None where the C encoder is missing or takes other arguments (every row then takes that path)."""
    try:
        return json.encoder.c_make_encoder(None, _encoded_default, json.encoder.encode_basestring, None, ": ", ", ",
                                           False, False, False)
    except TypeError:  # None (pure-Python json) or another signature
        return None


_ROW_ENCODER = _row_encoder()


def _encode_row(row: Mapping[str, Any]) -> str:
    """``json.dumps(_clean(dict(row)), ensure_ascii=False, default=str)``, the same text (tests/test_jsonl_codec.py)."""
    if _ROW_ENCODER is not None and type(row) is dict:
        try:
            return "".join(_ROW_ENCODER(row, 0))
        except (ValueError, TypeError, RecursionError):  # NaN/inf (null in the output), a bad key, a cycle: as before
            pass
    return json.dumps(_clean(dict(row)), ensure_ascii=False, default=str)


def encode_rows_with(records: Sequence[Mapping[str, Any]], added: Mapping[str, Sequence[Any]], drop: str | None = None) -> bytes:
    """``encode_rows(rows, "jsonl")`` of the rows ``{**record without drop, **added}`` (each record with the i-th
    value of every added column; a column the record already holds keeps its place), byte for byte, without
    building those rows: each record is encoded as it is and the added columns' text, written once per column,
    goes before its closing brace. The JSON text of an object is its members' texts joined in order, and a
    member's text depends on its key and value only (the encoder keeps no state between members), so this is the
    same text. A record this does not cover (empty, not a plain dict, holding an added column or ``drop``, or one
    the fast encoder refuses: NaN, infinity) is built and encoded as a row, as before; so is every row when an
    added value is not plain JSON text (a NaN is written as null that way)."""
    encoder = _ROW_ENCODER
    names, columns = list(added), list(added.values())
    tails = _added_tails(added, len(records))
    if tails is None:
        return encode_rows([_extended(record, names, values, drop) for record, values in zip(records, zip(*columns))], "jsonl")
    clash = set(names) | ({drop} if drop is not None else set())
    if records and set(map(type, records)) == {dict} and all(records) and clash.isdisjoint(set().union(*records)):
        try:  # the usual chunk: every record plain, none holding an added column, none the fast encoder refuses
            lines = [join(encoder(record, 0))[:-1] + tail for record, tail, join in zip(records, tails, itertools.repeat("".join))]
            lines.append("")
            return "\n".join(lines).encode("utf-8")
        except (ValueError, TypeError, RecursionError):
            pass
    lines = []
    for i, record in enumerate(records):
        if type(record) is dict and record and clash.isdisjoint(record):
            try:
                lines.append("".join(encoder(record, 0))[:-1] + tails[i])
                continue
            except (ValueError, TypeError, RecursionError):
                pass
        lines.append(_encode_row(_extended(record, names, [column[i] for column in columns], drop)))  # as a row
    lines.append("")
    return "\n".join(lines).encode("utf-8")


def _added_tails(added: Mapping[str, Sequence[Any]], rows: int) -> list[str] | None:
    """Each row's text of the added columns, ``, "name": value`` per column as the row encoder writes a member, then
    the closing brace: what :func:`encode_rows_with` puts after each record's own members. None when some added value
    is not written that way (NaN, infinity: the row path writes null) or the C encoder is missing."""
    texts = added_texts(added)
    if texts is None:
        return None
    # each row's added text in one call: ', "name": {}' per column, then the closing brace
    template = "".join(", " + encode_basestring(name).replace("{", "{{").replace("}", "}}") + ": {}" for name in added) + "}}"
    return list(map(template.format, *texts)) if texts else ["}"] * rows


def added_texts(added: Mapping[str, Sequence[Any]]) -> list[list[str]] | None:
    """Each added column's values as JSON text, as the row encoder writes them inside a row; None when some value is
    not written that way (NaN, infinity: the row path writes null) or the C encoder is missing."""
    if _ROW_ENCODER is None:
        return None
    texts = [_value_texts(values) for values in added.values()]
    return None if any(column is None for column in texts) else texts


def encode_row(row: Mapping[str, Any]) -> str:
    """One output row's JSON text, as :func:`encode_rows` writes it (without the newline)."""
    return _encode_row(row)


def _extended(record: Mapping[str, Any], names: Sequence[str], values: Sequence[Any], drop: str | None) -> dict[str, Any]:
    """The row :func:`encode_rows_with` writes for ``record``: its columns (less ``drop``), then the added values."""
    row = dict(record)
    if drop is not None:
        row.pop(drop, None)
    row.update(zip(names, values))
    return row


_PLAIN_TEXT = {type(None): lambda value: "null", bool: lambda value: "true" if value else "false", int: int.__repr__,
               str: encode_basestring}


def _value_texts(values: Sequence[Any]) -> list[str] | None:
    """Each value's JSON text as the row encoder writes it inside a row (None, bool, int, str, finite float; other
    values through the encoder itself), or None when some value is not written that way (NaN, infinity: the
    row path writes null; a value the encoder refuses)."""
    kinds = set(map(type, values))
    if values and kinds <= _NUMBER_OR_NONE:  # a score column: one encoder call (it refuses NaN and infinity), cut at
        try:                                 # ", ", which no number, null, true or false holds
            texts = "".join(_ROW_ENCODER(list(values), 0))[1:-1].split(", ")
        except (ValueError, TypeError, RecursionError):
            return None
        return texts if len(texts) == len(values) else None
    if kinds == _STR:  # a reason column
        return list(map(encode_basestring, values))
    if kinds <= _STR_OR_NONE:
        return list(map(_str_or_null, values))
    texts = []
    plain = _PLAIN_TEXT
    for value in values:
        kind = type(value)
        if kind is float:
            if value - value != 0.0:  # NaN or infinity
                return None
            texts.append(float.__repr__(value))
            continue
        write = plain.get(kind)
        if write is not None:
            texts.append(write(value))
            continue
        try:
            texts.append("".join(_ROW_ENCODER(value, 0)))
        except (ValueError, TypeError, RecursionError):
            return None
    return texts


_NUMBER_OR_NONE = {float, int, bool, type(None)}
_STR = {str}
_STR_OR_NONE = {str, type(None)}


def _str_or_null(value: str | None) -> str:
    return "null" if value is None else encode_basestring(value)


def encode_rows(rows: Sequence[Mapping[str, Any]], kind: str, header: bool = True) -> bytes:
    """Serialise rows for ``kind``; NaN/inf become null (JSON) or empty (CSV)."""
    if kind == "jsonl":
        encoder, lines = _ROW_ENCODER, []
        for row in rows:  # _encode_row inline for a plain dict: one function call less per row
            if encoder is not None and type(row) is dict:
                try:
                    lines.append("".join(encoder(row, 0)))
                    continue
                except (ValueError, TypeError, RecursionError):
                    pass
            lines.append(_encode_row(row))
        lines.append("")
        return "\n".join(lines).encode("utf-8")
    if kind == "csv":
        columns: dict[str, None] = {}
        for r in rows:
            columns.update(dict.fromkeys(r))
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        if header:
            writer.writerow(list(columns))
        for r in rows:
            writer.writerow([_csv_cell(r.get(c)) for c in columns])
        return buffer.getvalue().encode("utf-8")
    raise ValueError(f"encode_rows does not write {kind}")


def _csv_cell(value: Any) -> str:
    value = _clean(value)
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def write_atomic(path: str | Path, data: bytes, tmp: str | Path | None = None, sync: bool = True) -> None:
    """Write ``data`` to ``path`` so readers see either the old file or the whole new one.

    The bytes go to ``tmp`` (default ``.NAME.tmpPID`` beside ``path``) first; a failed write (a full disk)
    removes it before the error goes on. With ``sync`` (the default) they reach the disk before the rename; a caller
    that checks what it reads back (the part store keeps each part's SHA-256) may skip that wait.
    """
    path = Path(path)
    tmp = Path(tmp) if tmp is not None else path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def parquet_table(rows: Sequence[Mapping[str, Any]], types: Mapping[str, Any] | None = None):
    """A pyarrow Table of ``rows``; a column whose values no one Arrow type holds (mixed nested values) is stored as JSON
    text. ``types`` fixes a column's type (an Arrow type, or ``"text"`` for JSON text): a file written in parts passes
    the type of the whole column (:func:`parquet_column_type`) where its parts disagree, so that the file reads as it
    would had it been written at once."""
    return parquet_columns(rows, types)[0]


def parquet_columns(rows: Sequence[Mapping[str, Any]], types: Mapping[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """(:func:`parquet_table` of ``rows``, each column's kind: its Arrow type, or ``"text"`` where it is JSON text)."""
    import pyarrow as pa

    columns: dict[str, None] = {}
    for r in rows:
        columns.update(dict.fromkeys(r))
    data, kinds = {}, {}
    for c in columns:
        data[c], kinds[c] = _parquet_column([_clean(r.get(c)) for r in rows], (types or {}).get(c))
    return pa.table(data), kinds


def parquet_column_type(values: Sequence[Any]) -> Any:
    """The Arrow type :func:`parquet_table` gives a column of these values, or ``"text"`` when it stores them as JSON text."""
    return _parquet_column([_clean(v) for v in values])[1]


def _parquet_column(values: list[Any], kind: Any = None) -> tuple[Any, Any]:
    """(array, kind) of cleaned ``values``: the Arrow type inferred (or ``kind``), else JSON text (``"text"``)."""
    import pyarrow as pa

    try:
        if kind != "text":
            array = pa.array(values, type=kind)
            if _parquet_writable(array.type):
                return array, array.type
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        pass
    return pa.array([None if v is None else json.dumps(v, ensure_ascii=False, default=str) for v in values], type=pa.string()), "text"


def _parquet_writable(kind: Any) -> bool:
    """Parquet has no struct without fields ({} values): such a column, at any depth, is stored as JSON text."""
    import pyarrow as pa

    if pa.types.is_struct(kind):
        return kind.num_fields > 0 and all(_parquet_writable(kind.field(i).type) for i in range(kind.num_fields))
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return _parquet_writable(kind.value_type)
    if pa.types.is_map(kind):
        return _parquet_writable(kind.key_type) and _parquet_writable(kind.item_type)
    return True


def write_rows(path: str | Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Write a whole table atomically in the format its extension names."""
    kind = file_format(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        buffer = io.BytesIO()
        pq.write_table(parquet_table(rows), buffer)
        write_atomic(path, buffer.getvalue())
    else:
        write_atomic(path, encode_rows(rows, kind))
