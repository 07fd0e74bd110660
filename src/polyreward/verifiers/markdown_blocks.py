"""Markdown structure read as it renders (holdout77): what a reader sees of a table, a collapsed ``<details>``, an
emphasised sentence and a block quote set under an answer heading, on text already normalised and without comments.

* Emphasis is presentation: ``*The answer is 5.*`` and ``_so the total is 12_`` read as their words (a phrase with a
  space inside single ``*`` or ``_`` markers, not glued to a word: ``2*x*3`` and ``a_i_j`` stay).
* A ``<details>`` element shows its ``<summary>`` line while collapsed: a summary that shows a value (``Answer: 81``,
  ``Answer: E``) is read as a line of the writer's own text before the element (the body stays set aside,
  :mod:`.reading`'s step 3); a summary of words only (``hint``, ``scratch``) shows no answer and is left as the title
  of the body it labels (``<summary>hint</summary>\\boxed{42}`` is still a hint where the body is read). A summary
  that is an answer label over a body of one short line (``<summary>Answer (click to reveal)</summary>`` then
  ``**A**``) is the writer's answer behind a spoiler: read as the line ``Answer: **A**`` where the visible text before
  it states no answer of its own (holdout100).
* A GitHub alert (``> [!NOTE]``, ``[!TIP]``, ``[!IMPORTANT]``, ``[!WARNING]``, ``[!CAUTION]``) is the writer's own
  callout: its lines are read unquoted, its title line dropped (:func:`unquoted_alerts`).
* A block quote that is the whole body of an answer heading (``#### Final answer`` then ``> **120°**``) is the writer's
  answer set off as a callout, not someone else's words: its markers are dropped. A quote anywhere else stays quoted.
* A table with one body row and a column headed as the answer (``| Question | Answer |`` over ``| ... | E (49 = 7²) |``)
  states that cell as the answer: the row is read as a line ``Answer: E (49 = 7²)`` after the table. A table of
  several rows is candidates, not one answer, and is left to the readers as written.

Linear: one regex pass per construct, each without nested quantifiers. Reconstructed rules (ours).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a phrase in single emphasis markers: not glued to a word or another marker, a space inside, no marker inside
# (the content holds no marker, so the only end is the next marker: one pass; a phrase has a space, read in _phrase)
_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]{1,600})(?<=[^\s*\\])\*(?![\w*])|"
                       r"(?<![\w\\])_(?=[^\s_])([^_\n$\\]{1,600})(?<=[^\s_])_(?!\w)")
_SUMMARY = re.compile(r"(?P<details><details\b[^<>]{0,200}>)\s*<summary\b[^<>]{0,200}>(?P<summary>[^<>\n]{1,300})</summary\s*>", re.IGNORECASE)
# a collapsed answer: a summary that is an answer label ("Answer", "Show answer", "Answer (click to reveal)") over a
# body of one short line ("**A**", "$2\\sqrt{5}$"): the writer's answer behind a spoiler, read as its answer line (holdout100)
_ANSWER_DETAILS = re.compile(
    r"<details\b[^<>]{0,200}>\s*<summary\b[^<>]{0,200}>[ \t]*(?:\*\*)?[ \t]*(?i:(?:(?:show|reveal|see|click[ \t]+to[ \t]+(?:see|reveal|show))[ \t]+)?"
    r"(?:the[ \t]+)?(?:final[ \t]+)?answer)[ \t]*(?:\*\*)?[ \t]*:?[ \t]*(?:\([^()<>\n]{0,40}\))?[ \t]*</summary\s*>(?P<body>[^<>]{1,200})</details\s*>",
    re.IGNORECASE)
# a summary that shows a value: a digit, math, or a lone capital letter at its end ("Answer: 81", "Answer: E")
_SHOWS_VALUE = re.compile(r"[\d$\\]|(?<![\w])[A-Z]\W*\Z")
# an answer heading on a line of its own ("#### Final answer", "**Answer:**", "## Réponse"), then a block quote alone
ANSWER_HEADING_WORDS = (r"(?:final[ \t]+)?(?:answer|result)|(?:réponse|respuesta|resposta|risposta|antwort|ответ)"
                        r"(?:[ \t]+final[e]?)?|(?:endgültige[ \t]+)?antwort|答案|解答|最终答案")
_QUOTED_ANSWER = re.compile(
    r"^(?P<heading>[ ]{0,3}(?:#{1,6}[ \t]+(?:\*\*)?|\*\*)[ \t]*(?i:" + ANSWER_HEADING_WORDS + r")[ \t]*[:：]?[ \t]*(?:\*\*)?"
    r"[ \t]*[:：]?[ \t]*#*[ \t]*\n(?:[ \t]*\n)*)(?P<quote>(?:[ ]{0,3}>[^\n]*(?:\n|\Z))+)(?=[ \t]*(?:\n|\Z))", re.MULTILINE)
_QUOTE_MARKER = re.compile(r"^[ ]{0,3}(?:>[ ]?)+", re.MULTILINE)
# a markdown table: header row, delimiter row, body rows (each a line with a pipe)
_TABLE = re.compile(r"^(?P<header>[ ]{0,3}\|?[^\n|]*\|[^\n]*)\n[ ]{0,3}\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)+\|?[ \t]*\n"
                    r"(?P<body>(?:[ ]{0,3}[^\n]*\|[^\n]*(?:\n|\Z))+)", re.MULTILINE)
_ANSWER_COLUMN = re.compile(r"(?:\*\*)?[ \t]*(?i:(?:final[ \t]+|my[ \t]+)?(?:answer|choice|result))[ \t]*(?:\*\*)?[ \t]*:?")


def _phrase(found: re.Match) -> str:
    """The words of an emphasised phrase (one with a space inside); a single emphasised word is left as written."""
    inner = found.group(1) or found.group(2)
    return inner if " " in inner else found.group()


# what states an answer in the visible text: then a collapsed answer after it is a second one, and stays set aside
_ANSWER_STATED = re.compile(r"\b(?:answers?|final|therefore|thus|hence)\b|\\boxed|\bso\b[^\n]{0,40}\bis\b", re.IGNORECASE)


def _answers_shown(text: str) -> str:
    """``text`` with each collapsed answer (:data:`_ANSWER_DETAILS`, a body of one line) read as the line ``Answer:
    <body>`` -- only where the visible text before it states no answer of its own ("The answer is B." then a spoiler
    with A is two answers, read as before: the spoiler set aside, its answer read for conflicts)."""
    for found in list(_ANSWER_DETAILS.finditer(text))[::-1]:
        lines = [line.strip() for line in found.group("body").split("\n") if line.strip()]
        if len(lines) == 1 and _ANSWER_STATED.search(_SUMMARY.sub(" ", text[:found.start()])) is None:
            text = f"{text[:found.start()]}\nAnswer: {lines[0]}\n{text[found.end():]}"
    return text


def _summary_shown(found: re.Match) -> str:
    summary = found.group("summary").strip()
    return f"{summary}\n{found.group('details')}" if _SHOWS_VALUE.search(summary) else found.group()


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|"):
        row = row[:-1]
    return [cell.strip() for cell in row.split("|")]


def _answer_row(table: re.Match) -> str:
    """The table, then ``Answer: <cell>`` when it has one body row and one column headed as the answer."""
    rows = [row for row in table.group("body").split("\n") if row.strip()]
    header = _cells(table.group("header"))
    answer_columns = [i for i, title in enumerate(header) if _ANSWER_COLUMN.fullmatch(title)]
    if len(rows) != 1 or len(answer_columns) != 1:
        return table.group()
    cells = _cells(rows[0])
    if len(cells) != len(header) or not cells[answer_columns[0]]:
        return table.group()
    ending = "" if table.group().endswith("\n") else "\n"
    return f"{table.group()}{ending}Answer: {cells[answer_columns[0]]}\n"


def may_hold_summary(text: str) -> bool:
    """Does ``text`` hold ``<summary`` in any case (what :data:`_SUMMARY` needs before it is searched)? Speed: a text
    without "<" holds none, and is not lower-cased to say so -- ``str.lower`` changes only cased characters, and maps
    none but "<" itself to "<" (tests/test_stop52_gates.py reads every code point)."""
    return "<" in text and "<summary" in text.lower()


# a GitHub alert: a block quote whose first line is "[!NOTE]", "[!TIP]", "[!IMPORTANT]", "[!WARNING]" or "[!CAUTION]"
_ALERT_QUOTE = re.compile(r"^[ ]{0,3}>[ \t]*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][^\n]*(?:\n|\Z)(?:[ ]{0,3}>[^\n]*(?:\n|\Z))*",
                          re.MULTILINE | re.IGNORECASE)


def unquoted_alerts(text: str) -> str:
    """``text`` with each GitHub alert (``> [!NOTE]`` then quoted lines) read as the writer's own lines: an alert is
    the writer's callout, rendered as a titled box, not someone else's words set in a quote (red team ``holdout_r54``:
    ``> [!NOTE]`` / ``> - A. Vein occlusion: diffuse hemorrhages ...`` weighs option A). Its title line is dropped.

    >>> unquoted_alerts("> [!TIP]\\n> Rates move.\\n\\nDone.")
    'Rates move.\\n\\nDone.'
    """
    if "[!" not in text:
        return text
    return _ALERT_QUOTE.sub(lambda found: _QUOTE_MARKER.sub("", found.group()[found.group().find("\n") + 1:]
                                                             if "\n" in found.group() else ""), text)


def shown_markdown(text: str) -> str:
    """``text`` (normalised, without comments) with its markdown structure read as it renders (module docstring):
    emphasis markers dropped from a phrase, a ``<details>`` summary read as a line, a block quote under an answer
    heading unquoted, a one-row table's answer cell read as an answer line."""
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(_phrase, text)
    if may_hold_summary(text):
        text = _SUMMARY.sub(_summary_shown, _answers_shown(text))
    if ">" in text:
        text = unquoted_alerts(text)
        text = _QUOTED_ANSWER.sub(lambda found: found.group("heading") + _QUOTE_MARKER.sub("", found.group("quote")), text)
    if "|" in text and "--" in text:
        text = _TABLE.sub(_answer_row, text)
    return text
