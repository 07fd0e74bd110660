"""A LaTeX ``tabular`` read as the markdown table it typesets (holdout59): one ``| cell | cell |`` line a row, the
rules (``\\hline``, ``\\toprule``, ...) dropped, a ``\\multicolumn`` cell read as its text and the empty cells it spans, a header rule after the first
row. The table readers then read it as they read a markdown table: a verdict per option, a row labelled "Answer", the
last row's value. Reconstructed rule (ours); one pass over each environment, bounded by the text's length.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_TABULAR = re.compile(r"\\begin\{(tabular\*?|tabularx)\}(?:\{[^{}\n]*\})?(?:\{(?:[^{}\n]|\{[^{}\n]*\})*\})?(?P<body>.*?)\\end\{\1\}", re.DOTALL)
_RULE = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^{}]*\}|cmidrule(?:\([^()]*\))?\{[^{}]*\})")
_MULTICOLUMN = re.compile(r"\\multicolumn\{(\d+)\}\{[^{}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_BOLD = re.compile(r"\\textbf\{((?:[^{}]|\{[^{}]*\})*)\}")
_CELL_BREAK = re.compile(r"(?<!\\)&")


def _markdown(found: re.Match) -> str:
    rows = []
    for row in re.split(r"\\\\(?:\[[^\]\n]*\])?", found.group("body")):
        row = _RULE.sub(" ", row).strip()
        if not row:
            continue
        row = _BOLD.sub(r"**\1**", _MULTICOLUMN.sub(lambda cell: cell.group(2) + " &" * min(int(cell.group(1)) - 1, 20), row))
        rows.append("| " + " | ".join(cell.strip() for cell in _CELL_BREAK.split(row)) + " |")
    if len(rows) > 1:
        rows.insert(1, "|" + "---|" * rows[0].count(" | ") + "---|")
    return "\n".join(rows)


def tabular_as_markdown(text: str) -> str:
    """``text`` with each LaTeX tabular written as a markdown table (module docstring)."""
    if "\\begin{" not in text:
        return text
    return _TABULAR.sub(_markdown, text)
