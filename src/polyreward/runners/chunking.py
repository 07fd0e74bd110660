"""Cutting rows into chunks that keep each group whole: the one place every runner cuts its rows.

A chunk never splits a run of consecutive rows of one group (one group as :func:`polyreward.vocabulary.group_key`
says: ids ``1``, ``1.0`` and ``"1"`` are one), so group-level rewards and per-group advantages see whole groups
wherever the chunk is scored:

- :func:`group_aligned` re-cuts a stream of row chunks (``score_dataset`` through its row ranges;
  :func:`group_aligned_with_lines` the same with each row's input line beside it, for ``polyreward score``), and :func:`group_alignment` says which column to align on and warns when a file does
  not keep its groups together;
- :func:`shards` cuts a batch into ``(start, end)`` ranges for the reward servers (:class:`~polyreward.runners.client.RewardClient`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from polyreward.vocabulary import group_key

if TYPE_CHECKING:
    from polyreward.config import Config


def group_aligned(chunks: Iterable[list[dict[str, Any]]], group_column: str, on_split: Callable[[str, int], None] | None = None) -> Iterator[list[dict[str, Any]]]:
    """Re-cut chunks so no run of consecutive rows with the same group id is split between two chunks.

    Group-level rewards (e.g. OTC's minimal call count in a group) see whole groups as long as the
    file keeps each group's rows together, which rollout files do. With ``on_split``, a group id that
    comes back in a later chunk (the file is not grouped) is reported once: ``on_split(group_id, row)``,
    ``row`` being its 0-based position among the rows read. The last chunk is never cut.
    """
    for rows, _ in group_aligned_with_lines(((chunk, None) for chunk in chunks), group_column, on_split):
        yield rows


def group_aligned_with_lines(chunks: Iterable[tuple[list[dict[str, Any]], list[bytes] | None]], group_column: str,
                             on_split: Callable[[str, int], None] | None = None) -> Iterator[tuple[list[dict[str, Any]], list[bytes] | None]]:
    """:func:`group_aligned` of ``(rows, lines)`` chunks (:func:`polyreward.io.iter_chunks_with_lines`): each line list
    is cut where its rows are, so it stays parallel to them (None stays None: an input without lines)."""
    carry: list[dict[str, Any]] = []
    carry_lines: list[bytes] | None = []
    closed: set[str] = set()
    emitted = 0

    def check(rows: list[dict[str, Any]]) -> None:
        nonlocal on_split
        ids = {group_key(r.get(group_column)) for r in rows if r.get(group_column) is not None}
        back = ids & closed
        if back and on_split is not None:
            first = next(i for i, r in enumerate(rows) if group_key(r.get(group_column)) in back)
            on_split(str(rows[first].get(group_column)), emitted + first)
            on_split = None  # once
        closed.update(ids)

    chunks = iter(chunks)
    upcoming = next(chunks, None)
    while upcoming is not None:
        (chunk, chunk_lines), upcoming = upcoming, next(chunks, None)
        rows = carry + chunk if carry else chunk
        lines = None if chunk_lines is None or carry_lines is None else (carry_lines + chunk_lines if carry_lines else chunk_lines)
        if upcoming is None:
            carry, carry_lines = rows, lines
            break
        last = group_key(rows[-1].get(group_column))  # the one group key: 1, 1.0 and "1" are one group
        cut = len(rows)
        while cut > 0 and last is not None and group_key(rows[cut - 1].get(group_column)) == last:
            cut -= 1
        if cut == 0:  # the whole chunk is one group so far: keep collecting
            carry, carry_lines = rows, lines
            continue
        carry, carry_lines = rows[cut:], None if lines is None else lines[cut:]
        if on_split is not None:
            check(rows[:cut])
        emitted += cut
        yield rows[:cut], None if lines is None else lines[:cut]
    if carry:
        if on_split is not None:
            check(carry)
        yield carry, carry_lines


def group_alignment(rewardset, config: Config, warn: Callable[[str], None]):
    """The column chunks are aligned on (the group-level rewards' group column, else ``columns.group``) and, when
    some reward scores whole groups, a callback that warns if the file does not keep groups together."""
    group_columns = rewardset.group_columns
    if not group_columns:
        return config.columns.group, None
    if len(group_columns) > 1:
        warn(f"warning: group-level rewards group by different columns {list(group_columns)}; chunks keep "
             f"{group_columns[0]!r} groups together only")
    users = [r.name for r in rewardset if group_columns[0] in r.group_columns]

    def on_split(group_id: str, row: int) -> None:
        warn(f"warning: {group_columns[0]} {group_id!r} comes back at data row {row + 1} after other groups: the file "
             f"does not keep each group's rows together, so the group-level reward(s) {users} score that group in "
             f"pieces. Sort the file by {group_columns[0]!r} (or raise --chunk-size above the file's size).")

    return group_columns[0], on_split


def shards(rows: Sequence[Mapping[str, Any]], size: int, group_column: str | None) -> Iterator[tuple[int, int]]:
    """``(start, end)`` ranges of at most ``size`` rows (more when one group is larger) that keep each run of one
    group together (one group as :func:`polyreward.vocabulary.group_key` says: ids 1, 1.0 and "1" are one)."""
    start, n = 0, len(rows)

    def key(i: int) -> Any:
        return group_key(rows[i].get(group_column))

    while start < n:
        end = min(start + size, n)
        last = key(end - 1) if group_column is not None and end < n else None
        if last is not None and key(end) == last:  # the cut would split a group
            cut = end
            while cut > start and key(cut - 1) == last:
                cut -= 1
            if cut > start:
                end = cut
            else:  # one group is larger than a shard: keep it whole
                while end < n and key(end) == last:
                    end += 1
        yield start, end
        start = end
