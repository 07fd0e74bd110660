r"""The output rows of a scored chunk as JSONL bytes, written by orjson where that gives the very same bytes.

``polyreward score`` writes each output row as ``json.dumps(row, ensure_ascii=False)`` writes it (the input row's
columns, then the added scores, total and reasons: :func:`polyreward.io.encode_rows_with`). Python's C encoder costs
about 1 µs per row of a few text columns, a third of what a cheap reward costs in all; orjson writes the same value
in a fifth of that, but in another layout. :func:`encode_output_rows` takes orjson's text where it is provably the
same and falls back to :func:`~polyreward.io.encode_rows_with` everywhere else, so the bytes never depend on which
path wrote them (``tests/test_row_text.py`` holds the two to each other with Hypothesis).

Why orjson's text, respaced, is json's text, for a row whose values are all str, int, float, bool or None:

* **Layout.** With ``OPT_INDENT_2`` orjson writes a list of such rows as ``[\n  {\n    "key": value,\n    "key":
  value\n  },\n  {\n    ...\n  }\n]``: ``": "`` between a key and its value, as json does, and a newline and four
  spaces before each member. A JSON string holds no raw newline (it is escaped), so ``",\n    "`` is always a member
  separator, written ``", "`` by json, and the rows are cut where ``"\n  },\n  {\n    "`` ends one and begins the
  next. The chunk is written in one call: one call per row cost ten times as much.
* **Strings.** Both escape ``"``, ``\``, and the control characters U+0000-U+001F (``\n``, ``\t``, ... and
  ``\u00XX`` lowercase), and write everything else as UTF-8, U+2028 and U+007F included: the same bytes for every
  code point (checked for all of them). A lone surrogate, which has no UTF-8, makes orjson raise: fallback.
* **Integers, true, false, null.** The same digits within 64 bits; a larger integer makes orjson raise: fallback.
  NaN and infinity are ``null`` in both (the row encoder's fallback writes null for them).
* **Floats.** Both write the shortest text that reads back to the same float, and agree wherever Python's ``repr``
  does not use an exponent (1e-4 <= |x| < 1e16, and 0); outside that range orjson writes an exponent of its own form
  (``1e16`` against ``1e+16``) or a long decimal (``0.00001`` against ``1e-05``). A row whose orjson text holds a digit
  followed by ``e``/``E`` or the text ``0.0000`` is therefore written by the C encoder instead (a string holding such
  text only costs that row the slower path); two million floats of every magnitude were checked against ``repr``.
* **Added values.** A cheap reward's added values repeat from row to row (think_format's score, total and reason
  take five values in all): each distinct row of them is written once and its text looked up for the rest
  (:func:`_repeated_tails`; floats compared by their bits, so ``0.0`` and ``-0.0`` stay apart). Otherwise each
  added column is written in one encoder call (:func:`~polyreward.io.added_texts`).
* **Types.** The values' exact types are checked (a subclass, a list or dict, a date, an enum is not one of the five),
  since orjson writes some other types itself where json calls ``default=str``. A chunk holding any other value
  takes the C encoder: respacing nested values cost more than the C encoder (regular expressions over every level).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from json.encoder import encode_basestring
from typing import Any

import numpy as np

from polyreward.io import added_texts, encode_row, encode_rows_with

try:
    import orjson
except ImportError:  # pragma: no cover -- orjson is a dependency; without it every chunk takes the C encoder
    orjson = None

_OPTIONS = 0 if orjson is None else (orjson.OPT_INDENT_2 | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME
                                     | orjson.OPT_PASSTHROUGH_DATACLASS)
_SCALARS = frozenset({str, int, float, bool, type(None)})
_FLOAT_OR_NONE, _STR_OR_NONE = frozenset({float, type(None)}), frozenset({str, type(None)})
_DISTINCT_SHARE = 1 / 8  # at most this share of a chunk's rows with distinct added values: their texts written once
_NUMBERS = bytes(48 if 48 <= byte <= 57 else 101 if byte in b"eE" else byte if byte in b".\x00" else 32 for byte in range(256))
# a list of one-level rows as orjson indents it: "[\n  {\n    " opens it, ",\n    " separates members, "\n  },\n  {\n    "
# separates rows and "\n  }\n]" closes it (no JSON string holds a raw newline, so none of these occurs inside a value)
_LIST_START, _LIST_END, _ROW_BETWEEN, _MEMBER = b"[\n  {\n    ", b"\n  }\n]", b"\n  },\n  {\n    ", b",\n    "


def _refuse(value: Any) -> Any:
    raise TypeError(f"not written by orjson: {type(value).__name__}")


def encode_output_rows(records: Sequence[Mapping[str, Any]], added: Mapping[str, Sequence[Any]], drop: str | None = None) -> bytes:
    """:func:`polyreward.io.encode_rows_with` ``(records, added, drop)``, byte for byte, through orjson where that
    gives the same bytes (the module docstring says where)."""
    members = _member_texts(records, added, drop) if orjson is not None else None
    if members is None:
        return encode_rows_with(records, added, drop)
    tails = _repeated_tails(added, len(members))
    if tails is not None:  # each row: its members, then its tail (the added members, the closing and next opening brace)
        pieces: list[bytes] = [b""] * (2 * len(members))
        pieces[0::2] = members
        pieces[1::2] = tails
        return b"{" + b"".join(pieces)[:-1]
    texts = added_texts(added)
    if texts is None:
        return encode_rows_with(records, added, drop)
    # each row: its members, then per added column ', "name": ' and the value's text, then the closing brace and the
    # next row's opening one (cut from the last row); interleaved in C, each column's texts encoded in one call
    # (JSON text holds no raw NUL)
    rows, stride = len(members), 2 * len(texts) + 2
    pieces: list[bytes] = [b""] * (rows * stride)
    pieces[0::stride] = members
    for k, (name, column) in enumerate(zip(added, texts)):
        pieces[2 * k + 1::stride] = [f", {encode_basestring(name)}: ".encode("utf-8")] * rows
        pieces[2 * k + 2::stride] = "\x00".join(column).encode("utf-8").split(b"\x00")
    pieces[stride - 1::stride] = [b"}\n{"] * rows
    return b"{" + b"".join(pieces)[:-1]


def _repeated_tails(added: Mapping[str, Sequence[Any]], rows: int) -> list[bytes] | None:
    """Each row's added text (``, "name": value`` per added column, then ``}\n{``), written once per distinct row of
    added values and looked up for the others; None where that does not pay (more than one distinct row in
    ``_DISTINCT_SHARE``), where a column holds other values than floats and None or strings and None, or holds NaN or
    infinity (the caller's general path decides those). A cheap reward's added values repeat: think_format's are
    (1.0, 1.0, "format ok") or one of four failures. Two rows share a text exactly when their values are the same:
    floats are compared by their bits (0.0 and -0.0 differ; no NaN is left), strings by equality, None only to None,
    and a distinct row's text is :func:`~polyreward.io.added_texts`' for its values, as every row's is otherwise."""
    if not added:
        return None
    keys = []
    for values in added.values():
        kinds = set(map(type, values))
        if kinds <= _FLOAT_OR_NONE:
            floats = np.array(values, dtype=np.float64)  # None is NaN here, and only None: a NaN or infinity turns away
            if int(np.count_nonzero(np.isfinite(floats))) != rows - values.count(None):
                return None
            keys.append(floats.view(np.int64).tolist())
        elif kinds <= _STR_OR_NONE:
            keys.append(values)
        else:
            return None
    rows_keys = list(zip(*keys))
    first = dict(zip(rows_keys, range(rows)))  # each distinct row of values, with one row that holds it
    if len(first) > rows * _DISTINCT_SHARE:
        return None
    texts = added_texts({name: [values[i] for i in first.values()] for name, values in added.items()})
    if texts is None:
        return None
    heads = [f", {encode_basestring(name)}: " for name in added]
    tails = ["".join(itertools.chain.from_iterable(zip(heads, row))) + "}\n{" for row in zip(*texts)]
    known = dict(zip(first, (tail.encode("utf-8") for tail in tails)))
    return list(map(known.__getitem__, rows_keys))


def _member_texts(records: Sequence[Mapping[str, Any]], added: Mapping[str, Sequence[Any]], drop: str | None) -> list[bytes] | None:
    """Each record's members as json writes them (its text without the braces), or None where this path does not
    cover the chunk: no rows, a record that is empty, not a plain dict or holds an added column or ``drop`` (the
    row path places those), a value that is not a str, int, float, bool or None, a value orjson refuses."""
    if not records or set(map(type, records)) != {dict} or not all(records) or not _SCALARS.issuperset(map(type, records[0].values())):
        return None  # (the first row's values checked first: a chunk of chat rows is turned away at once)
    kinds = set(map(type, itertools.chain.from_iterable(map(dict.values, records))))
    if not kinds <= _SCALARS:
        return None
    if not set(added).union((drop,) if drop is not None else ()).isdisjoint(set().union(*records)):
        return None
    try:  # the whole chunk in one call: a call per row cost ten times as much (the list, one level deeper, is cut below)
        body = orjson.dumps(records if type(records) is list else list(records), _refuse, _OPTIONS)
    except (TypeError, ValueError):  # a lone surrogate, an integer past 64 bits, a non-str key
        return None
    # two levels: each ",\n    " is a member separator (json: ", "), and the rows are cut where one ends and the next begins
    members = body.replace(_MEMBER, b", ")[len(_LIST_START):-len(_LIST_END)].split(_ROW_BETWEEN)
    if float in kinds:
        numbers = body.translate(_NUMBERS)  # digits as 0, e and E as e, "." kept, the rest blank
        if b"0e" in numbers or b"0.0000" in numbers:  # a float orjson may write otherwise (or a string): those rows by json
            for index, text in enumerate(members):
                shown = text.translate(_NUMBERS)
                if b"0e" in shown or b"0.0000" in shown:
                    members[index] = encode_row(records[index])[1:-1].encode("utf-8")
    return members
