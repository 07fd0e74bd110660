"""Markup a small model breaks, read as it renders or as it was plainly meant (red team ``holdout82``: the output of
small models and early GRPO training).

* **Escaped markdown** (:func:`unescaped_markdown`): a backslash before a markdown mark (``\\*``, ``\\_``, ``\\#``) is
  markdown's escape, and LaTeX's for ``\\_`` and ``\\#``: either renderer shows the mark itself, so a reader sees
  ``**Final Answer:** 45`` in ``\\*\\*Final Answer:\\*\\* 45`` and ``a_{10}`` in ``a\\_{10}``. The text is read with the
  marks as shown, and every later rule (emphasis, answer labels, loops of answers) reads it as it reads them typed
  plainly. A doubled backslash before the mark (``\\\\*``, LaTeX's starred line break) is no escape.
* **A misspelt box** (:func:`spelled_boxes`): ``\\box{24}`` is ``\\boxed{24}`` -- plain TeX's ``\\box`` takes a box
  register's number, never a brace group, so a ``\\box`` followed by braces is the writer's box with its name cut short.
* **A final box cut off** (:func:`closed_final_box`): a ``\\boxed{`` (``\\fbox{``, ``\\framebox{``) that is the last
  thing the completion writes and never closes is read closed at the end of the text when what it holds is complete:
  on the box's own line, no word, every brace group in it closed, and the value the work before it reached at the end
  of an equation (``= \\frac{1}{2}`` ... ``The answer is \\boxed{\\frac{1}{2}``); one option letter
  (:func:`cut_off_letter`, ``... so they are mammals. \\boxed{B``) is read by the choice reader when the work before
  it names that option by its words and no other. The open box shows the text was cut off, so a value in it may be
  cut short (``\\boxed{50`` of 5050, ``\\boxed{\\frac{3``, ``\\boxed{2\\sqrt``) and a letter may be the first of two:
  anything else stays cut off, no answer -- a box that swallows two values (``\\boxed{12, 24``, ``\\boxed{B, E``), runs
  on over a line break or into words (``\\boxed{2`` then ``Wait, ... the answer is 4.``, ``\\boxed{\\text{either 7 or
  6``), is followed by anything but a full stop or a math delimiter, or a letter after work that names no option
  (``Weighing the options, the final answer is \\boxed{C``).

Each is one pass of a regex without nested quantifiers, or a brace count over the last line: linear in the text.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a markdown mark escaped by one backslash (not the second of a doubled one)
_ESCAPED_MARK = re.compile(r"(?<!\\)\\([*_#])")
# "\box" right before a brace group ("\box{24}", "\box {24}"); "\boxed", "\mbox", "\fbox" do not match
_SHORT_BOX = re.compile(r"\\box(?=[^\S\n]*\{)")
# the last box opening of a text
_BOX_OPEN = re.compile(r"\\(?:boxed|fbox|framebox)[^\S\n]*\{")
# a word in a box's content: two letters or more not after a backslash (a LaTeX command's name is no word)
_WORD = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]{2,}")
_COMMAND = re.compile(r"\\[a-zA-Z]+")
# an equals sign right before a value ("= ", "=$"), and the end of the equation right after it: a math delimiter, a
# mark that ends the clause, the end of the line ("= 50 \\cdot 101" and "= 5050" reach no 50)
_EQUALS_BEFORE = re.compile(r"=[^\S\n]*\$?[^\S\n]*\Z")
# (a full stop or comma before a digit is a decimal mark or a digit group: "= 3.5" does not reach 3; holdout116)
_EQUATION_END = re.compile(r"[^\S\n]*(?:\$+|\\\]|\\\))?[^\S\n]*(?:[.,](?!\d)|[;:!]|\n|\Z)")
# one option letter, bare, bracketed or set in a font ("B", "(B)", "\\text{B}")
_OPTION_LETTER = re.compile(r"(?:\\[a-z]+\{)?\(?[A-Z]\)?\}?")
# what may close the text after the cut-off value: spaces, a full stop, math delimiters ("$", "$$", "\\]", "\\)")
_TRAILING_MARKS = " \t\n.!$"


def unescaped_markdown(text: str) -> str:
    """``text`` with each escaped markdown mark shown as the mark (module docstring)."""
    return _ESCAPED_MARK.sub(r"\1", text) if "\\*" in text or "\\_" in text or "\\#" in text else text  # (an escape needs one)


def spelled_boxes(text: str) -> str:
    """``text`` with ``\\box{...}`` read as ``\\boxed{...}`` (module docstring)."""
    return _SHORT_BOX.sub(r"\\boxed", text) if "\\box" in text else text


def closed_final_box(text: str) -> str:
    """``text`` with a cut-off final box closed at its end (module docstring); anything else unchanged."""
    cut = _cut_off_box(text)
    if cut is None or not _complete(text[:cut[0]], cut[2].strip()):
        return text
    return text[:cut[1]] + cut[2] + "}" + text[cut[1] + len(cut[2]):]


def cut_off_letter(text: str) -> tuple[int, str] | None:
    """Where a final box cut off around one option letter starts, and the letter ("\\boxed{B", "$\\boxed{(B)$"): the
    choice reader reads it when the work before it names that option and no other (module docstring)."""
    cut = _cut_off_box(text)
    if cut is None or not _OPTION_LETTER.fullmatch(cut[2].strip()):
        return None
    return cut[0], next(char for char in cut[2] if char.isupper())


def _cut_off_box(text: str) -> tuple[int, int, str] | None:
    """The last box opened on the last line of ``text``: its start, where its content starts, and its content up to
    the end without the marks that may close the text (spaces, a full stop, math delimiters); None without one."""
    if "\\" not in text or "{" not in text:
        return None
    opened = None
    for opened in _BOX_OPEN.finditer(text, text.rstrip().rfind("\n") + 1):
        pass
    if opened is None:
        return None
    value = text[opened.end():].rstrip(_TRAILING_MARKS)
    while value.endswith(("\\]", "\\)")):
        value = value[:-2].rstrip(_TRAILING_MARKS)
    return opened.start(), opened.end(), value


def _complete(before: str, value: str) -> bool:
    """Is ``value``, cut off in an open box at the end of a text, complete (module docstring): every brace group in it
    closed, no word, and the value the work ``before`` it reached at the end of an equation ("= 24.")?"""
    if not value or _WORD.search(_COMMAND.sub(" ", value)):
        return False
    depth = 0
    for char in value:  # (a brace that closes the box before the end: the box is closed, nothing is cut off)
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    if depth:
        return False  # "\\boxed{\\frac{3": cut off inside the value
    at = before.find(value)
    while at >= 0:  # the value as the right side of an equation: "= \\frac{1}{2}", "= $24$", not "= 5050" for "50"
        if _EQUALS_BEFORE.search(before, max(0, at - 8), at) and _EQUATION_END.match(before, at + len(value)):
            return True
        at = before.find(value, at + 1)
    return False
