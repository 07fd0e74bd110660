"""The small summary tables the commands print, drawn without rich.

``polyreward score`` and ``polyreward advantages`` end on a table of a few rows. rich drew them, and importing rich's
console and table costs about 0.1 s of CPU on a 2-core machine: a third of a one-row ``polyreward score`` (issue #35's
start-up goal is 0.3 s). These tables need none of rich's layout (no wrapping, no markup, no colour), so they are
drawn here in rich's default box (``HEAVY_HEAD``), which keeps the output a reader or a script already knows:

    >>> print(render_table("scores", ["reward", "mean"], [["format", "1.0000"]], right=[1]))
          scores
    ┏━━━━━━━━┳━━━━━━━━┓
    ┃ reward ┃   mean ┃
    ┡━━━━━━━━╇━━━━━━━━┩
    │ format │ 1.0000 │
    └────────┴────────┘

Unlike rich's table, a cell is never wrapped or cut to a terminal's width (a log keeps whole names), brackets are
text, not markup, and a control character in a cell (a group key read from a rollout file may hold one) is shown
escaped (``\\n``, ``\\x1b``), so data cannot move the cursor or colour the terminal. Wide East Asian characters count
two columns, combining marks none. rich still draws the progress bars and the long, wrapped tables of
``polyreward list`` and ``polyreward probe``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence


def render_table(title: str, headers: Sequence[str], rows: Iterable[Sequence[str]], right: Iterable[int] = ()) -> str:
    """The table as text: ``title`` centred above it, the columns whose indexes are in ``right`` right-aligned."""
    right = set(right)
    header_cells = [shown(h) for h in headers]
    body = [[shown(str(cell)) for cell in row] for row in rows]
    widths = [max([width(h)] + [width(row[i]) for row in body]) for i, h in enumerate(header_cells)]
    aligned = [i in right for i in range(len(headers))]

    def line(cells: Sequence[str], edge: str, middle: str, end: str) -> str:
        padded = (pad(c, w, r) for c, w, r in zip(cells, widths, aligned))
        return edge + " " + f" {middle} ".join(padded) + " " + end

    def rule(left: str, fill: str, cross: str, end: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + end

    table_width = sum(widths) + 3 * len(widths) + 1
    title = shown(title)
    lines = [pad(title, table_width, centre=True).rstrip() if width(title) < table_width else title,
             rule("┏", "━", "┳", "┓"), line(header_cells, "┃", "┃", "┃"), rule("┡", "━", "╇", "┩")]
    lines += [line(row, "│", "│", "│") for row in body]
    lines.append(rule("└", "─", "┴", "┘"))
    return "\n".join(lines)


def shown(text: str) -> str:
    """``text`` with each control character escaped as Python writes it (``\\n``, ``\\x1b``); other text unchanged."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def width(text: str) -> int:
    """Terminal columns of ``text``: 2 for a wide or full-width character, 0 for a combining mark, else 1."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, columns: int, right: bool = False, centre: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` (left-aligned unless ``right`` or ``centre``)."""
    space = max(columns - width(text), 0)
    if centre:
        return " " * (space // 2) + text + " " * (space - space // 2)
    return " " * space + text if right else text + " " * space
