"""The summary tables of ``polyreward score`` and ``polyreward advantages``, drawn without rich (issue #35: start-up).

The drawing must match what rich's default ``Table`` printed for the same plain cells, so that a reader or a script
that parsed the old output reads the new one; where they differ on purpose (control characters escaped, markup
brackets kept as text, no wrapping at a terminal's width) the tests below say so.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.cli.text_table import render_table, width


def rich_rendering(title, headers, rows, right):
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for i, header in enumerate(headers):
        table.add_column(header, justify="right" if i in right else "left")
    for row in rows:
        table.add_row(*row)
    out = io.StringIO()
    Console(file=out, width=500, color_system=None, force_terminal=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())


CASES = [
    ("scored 40 rows -> out.jsonl", ["reward", "n", "mean", "std", "NaN", "failed"],
     [["accuracy", "40", "0.4750", "0.5057", "0", "0"], ["reward", "40", "0.4750", "0.5057", "0", "-"]], {1, 2, 3, 4, 5}),
    ("per qid", ["qid", "reward", "n", "mean", "std", "NaN"],
     [["q1", "accuracy", "4", "0.2500", "0.5000", "0"], ["a-much-longer-question-id", "format", "4", "-", "-", "4"]],
     {2, 3, 4, 5}),
    ("a title much longer than the narrow table under it", ["diagnostic", "value"], [["x", "1"]], {1}),
    ("advantages", ["diagnostic", "value"], [["share/accuracy", "0.5"], ["sign_flip_rate/format", "0.125"]], {1}),
    ("empty", ["reward", "n"], [], {1}),
]


def test_the_table_is_drawn_as_rich_drew_it():
    """Same lines as rich's default Table (HEAVY_HEAD box, title centred, padding 1) for plain cells."""
    for title, headers, rows, right in CASES:
        ours = "\n".join(line.rstrip() for line in render_table(title, headers, rows, right=right).splitlines())
        if len(title) > sum(max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)) + 3 * len(headers) + 1:
            # rich wraps a title wider than its table; ours keeps it on one line (a path is never split)
            assert ours.splitlines()[1:] == rich_rendering(title, headers, rows, right).splitlines()[-len(ours.splitlines()) + 1:]
            assert ours.splitlines()[0] == title
        else:
            assert ours == rich_rendering(title, headers, rows, right), title


def test_data_cannot_drive_the_terminal():
    """A group key from a rollout file with an escape sequence or a newline is shown escaped, on one line."""
    text = render_table("per qid", ["qid", "n"], [["\x1b[2Jq1\nq2", "3"], ["[bold]x[/bold]", "1"]], right=[1])
    assert "\x1b" not in text and "\\x1b[2Jq1\\nq2" in text
    assert "[bold]x[/bold]" in text  # brackets are text, not markup
    assert len(text.splitlines()) == 7


def test_wide_characters_keep_the_columns_straight():
    text = render_table("t", ["标签", "n"], [["肺炎", "1"], ["pneumonia", "12"], ["é", "3"]], right=[1])
    body = text.splitlines()[1:]
    assert len({width(line) for line in body}) == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.text(max_size=30), min_size=3, max_size=3), max_size=6),
       st.lists(st.text(min_size=1, max_size=12), min_size=3, max_size=3), st.text(max_size=40))
def test_every_line_of_the_box_has_one_width(rows, headers, title):
    """Whatever the cells hold (control characters, combining marks, wide characters, empty), the box is rectangular
    and has one line per row plus five."""
    lines = render_table(title, headers, rows, right=[2]).splitlines()
    assert len(lines) == len(rows) + 5
    assert len({width(line) for line in lines[1:]}) == 1
    assert all(ch.isprintable() for line in lines for ch in line)


def test_polyreward_score_prints_the_summary_without_importing_rich(tmp_path):
    """The one-row run that issue #35's start-up figure times: the summary is printed and rich is never imported
    (the progress bar is rich's only on a terminal)."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(json.dumps({"qid": i % 2, "prompt": "p", "completion": f"<think>a</think> {i}"})
                              for i in range(4)) + "\n", encoding="utf-8")
    config = tmp_path / "c.yaml"
    config.write_text("columns: {prompt: prompt, completion: completion, group: qid}\n"
                      "rewards:\n  - {name: format, type: think_format}\n", encoding="utf-8")
    code = ("import sys, runpy; sys.argv = ['polyreward', 'score', sys.argv[1], '-c', sys.argv[2], '-o', sys.argv[3], '--by', 'qid']\n"
            "from polyreward.cli import main\nstatus = main()\nprint('RICH', any(m.startswith('rich') for m in sys.modules))\n"
            "sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", code, str(rows), str(config), str(tmp_path / "out.jsonl")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "RICH False" in done.stdout
    assert "┃ reward ┃ n ┃   mean ┃    std ┃ NaN ┃ failed ┃" in done.stdout
    assert "per qid" in done.stdout and "│ format │ 4 │ 1.0000 │ 0.0000 │   0 │      0 │" in done.stdout
