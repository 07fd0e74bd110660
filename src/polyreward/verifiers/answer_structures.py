"""A structured answer read whole: a list of solutions, a tuple of named values, labelled parts (for :mod:`.math`).

An answer that is not one number is often written as several pieces on its final line, and a reader that takes the
last value reads one piece of it::

    Solutions: $x = 3$, $x = -2$.              list   3, -2        (one variable, several values: "or" too)
    $\\lambda_1 = 2$, $\\lambda_2 = 3$.          list   2, 3         (an indexed variable: z_1, z_2, ...)
    at the points $(-2, 0)$ and $(3, 0)$.      list   (-2, 0), (3, 0)
    The solutions are zero and two.            list   0, 2         (number words)
    \\begin{aligned} x &= 2 \\\\ y &= -1 \\end{aligned}      tuple  (2, -1)  (distinct variables, never joined by "or")
    $x = 1 + 3t,\\quad y = 2 - t,\\quad t \\in \\mathbb{R}$   tuple  (1 + 3t, 2 - t), parameter t
    $x < -2$ or $x > 2$                         union  x < -2 \\cup x > 2  (inequalities in one variable)
    $x + 1$, valid for $x \\ne 1$               value  x + 1        (a restriction clause is no second value)
    x = π/2 + 2πn, n ∈ ℤ                       value  π/2 + 2πn, parameter n
    (a) 5 (b) 3   /   Center (3, -2), radius 4 parts {a: 5, b: 3} / {center: (3, -2), radius: 4}

Values joined by "or" or " / " that are not one variable's solutions are alternatives (``(1, 5) or [1, 5]``,
``no solution / all reals``): :func:`final_structure` reports them as such, so a reader that found one of them is
told the answer names two. A piece with prose in it (``4 or 16 -- not sure``), a part with two values (``(b) 3 or
7``) or anything after the structure but punctuation leave no structure: the ordinary reading decides. The gold is
read by the same rules (:func:`gold_structure`, without a lead-in). Text is normalised first (unicode math to LaTeX).
Reconstructed rule (ours, holdout65).
"""

from __future__ import annotations

from dataclasses import dataclass

from polyreward.verifiers.math_canonical import canonical
from polyreward.verifiers.math_normalize import normalize_unicode, number_from_words
from polyreward.verifiers.polynomial import parse_polynomial
from polyreward.verifiers.regex_scan import WHITE_SPACE
from polyreward.verifiers.units import unit_dimension
from polyreward.verifiers.work_avoidance import squeeze
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

MAX_CHARS = 600  # a final line longer than this is read the ordinary way


@dataclass(frozen=True)
class Structure:
    """``kind``: list, tuple, union, value, parts or alternatives; ``items`` the values (for parts, in label
    order); ``labels`` the parts' labels; ``parameters`` the free integer/real parameters named (``n \\in Z``);
    ``start``/``end`` where the structure sits in the text it was read from; ``variable`` the one variable a list
    assigns its values to ("x = 2 or x = 3"), else ""."""

    kind: str
    items: tuple[str, ...]
    labels: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    start: int = 0
    end: int = 0
    variable: str = ""


# markup that frames math, masked by spaces of the same length (offsets stay those of the text)
_FRAMES = re.compile(r"\\[,;:! ]|~|\$+|\\[()\[\]]|\*\*|\\(?:begin|end)\{(?:aligned|align\*?|gathered|gather\*?|split|array)\}(?:\{[^{}]*\})?|\\(?:left|right)(?![A-Za-z])|&")
_ANGLES = re.compile(r"\\[lr]angle(?![A-Za-z])")
_TEXT_JOIN = re.compile(r"\\text\{\s*(and|or)\s*\}")
_NAMED_TUPLE = re.compile(r"\s*\(\s*[A-Za-z](?:\s*,\s*[A-Za-z])+\s*\)\s*=\s*")  # "(x, y) = (5, 8)"
_BOXED = re.compile(r"\\(?:boxed|fbox)\{")
_ROW_BREAK = re.compile(r"\\\\|\\q?quad(?![A-Za-z])")
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])(?:[A-Za-z]{2,}|i\.e\.)(?![A-Za-z])")
_MATH_WORDS = {"sin", "cos", "tan", "cot", "sec", "csc", "ln", "log", "exp", "pi", "in", "ne", "le", "ge", "sqrt", "frac",
               "infty", "cup", "pm", "mp", "cdot", "times", "arcsin", "arccos", "arctan"}
_JOIN = re.compile(r",|;|(?<![A-Za-z\\])(?:and|or)(?![A-Za-z])")  # " / " is read only between words: "720 / 6" divides
_VARIABLE = r"(?:[A-Za-z]|\\[a-zA-Z]+)"
_ASSIGNMENT = re.compile(rf"\s*({_VARIABLE})\s*(?:_\{{?\s*\w+\s*\}}?|\d+)?\s*=\s*([^=]+?)\s*\Z")
_SETS = r"(?:\\mathbb\{[ZRNQC]\}|[ZRNQC](?![A-Za-z])|\\mathbb [ZRNQC])"
_PARAMETER = re.compile(rf"\s*({_VARIABLE})\s*\\in\s*{_SETS}\s*\Z")
_RESTRICTION = re.compile(rf"\s*(?:(?:valid|true|defined)\s+)?(?:(?:for|where|when|with)\s+)?(?:all\s+)?{_VARIABLE}\s*(?:\\neq?|!=)\s*[^=]+\Z")
_MEMBER_SET = re.compile(rf"\s*{_VARIABLE}\s*\\in\s*\\?\{{(.*?)\\?\}}\s*\Z")
_RELATION = re.compile(r"<|>|\\(?:leq?|geq?|lt|gt)(?![A-Za-z])")
_LETTER_LABEL = re.compile(r"(?:(?<=\s)|\A)\(([a-h])\)\s*")
_WORD_LABEL = re.compile(r"\s*(?:\\text\{\s*([A-Za-z]{3,})\s*\}|([A-Za-z]{3,}))\s*:?\s*(.+?)\s*\Z")


def _depths(text: str) -> list[int]:
    """The bracket depth before each character (``()``, ``[]``, ``{}``; a half-open interval's ``[1, 5)`` counts as
    one level). Filled a run at a time between brackets: the same list as a step per character, a fraction of the cost
    on a long line with few brackets."""
    if not _has_bracket(text):
        return [0] * len(text)  # (speed: no bracket, no level; a prose line after its box is masked has none)
    depth, out, at = 0, [], 0
    for bracket in _BRACKET.finditer(text):
        out.extend([depth] * (bracket.start() + 1 - at))  # up to and with the bracket: the depth before it
        depth = depth + 1 if bracket.group() in "([{" else max(0, depth - 1)
        at = bracket.end()
    out.extend([depth] * (len(text) - at))
    return out


_BRACKET = re.compile(r"[(\[{)\]}]")
_COMMA = re.compile(",")


def _has_bracket(text: str) -> bool:
    """Does ``text`` hold a bracket (what :data:`_BRACKET` finds)? Without one every depth is 0."""
    return "(" in text or "[" in text or "{" in text or ")" in text or "]" in text or "}" in text


def _masked(text: str) -> str:
    """``text`` with framing markup (``$``, ``**``, environments, ``\\boxed{`` and its brace, ``&``) as spaces and row
    breaks (``\\\\``, ``\\quad``) as commas, each the same length, so offsets stay those of ``text``."""
    text = _ROW_BREAK.sub(lambda m: "," + " " * (len(m.group()) - 1), text)
    text = _FRAMES.sub(lambda m: " " * len(m.group()), text)
    text = _TEXT_JOIN.sub(lambda m: m.group(1).center(len(m.group())), text)  # "\\quad \\text{and} \\quad"
    text = _ANGLES.sub(lambda m: ("(" if m.group() == "\\langle" else ")") + " " * (len(m.group()) - 1), text)
    for found in reversed(list(_BOXED.finditer(text))):
        depth, close = 1, None
        for i in range(found.end(), len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                close = i
                break
        if close is not None:
            text = text[:found.start()] + " " * (found.end() - found.start()) + text[found.end():close] + " " + text[close + 1:]
    return text


def _prose(piece: str) -> bool:
    """Does ``piece`` hold a word (two letters or more, no LaTeX command, not a number word)?"""
    without_text = re.sub(r"\\(?:text|mathrm|operatorname|mathbf|mathbb)\{[^{}]*\}", " ", piece)
    return any(word.lower() not in _MATH_WORDS and number_from_words(word) is None for word in _PROSE_WORD.findall(without_text))


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """``text[start:end]`` split at top-level joins (commas, semicolons, ``and``, ``or``): (start, end, joiner after)
    of each piece."""
    depths = _depths(text[start:end])
    pieces, at = [], start
    for join in _JOIN.finditer(text, start, end):
        if depths[join.start() - start] == 0:
            pieces.append((at, join.start(), join.group().strip()))
            at = join.end()
    pieces.append((at, end, ""))
    return [(s, e, j) for s, e, j in pieces if text[s:e].strip() or j]


def _value(piece: str) -> str:
    """A piece's value: a number word as its digits, else the piece stripped."""
    number = number_from_words(piece.strip()) if re.fullmatch(r"\s*[A-Za-z -]+\s*", piece) else None
    named = _NAMED_TUPLE.match(piece)
    return str(number) if number is not None else piece[named.end():].strip() if named else piece.strip()


def _lead_in_end(text: str, start: int, end: int) -> int:
    """Where the first piece's math starts after its lead-in prose and a colon ("Solutions: x = 3" -> "x = 3")."""
    words = reversed(list(_PROSE_WORD.finditer(text, start, end)))  # the last word that is prose: read from the end
    last = next((w for w in words if w.group().lower() not in _MATH_WORDS and number_from_words(w.group()) is None), None)
    if last is None:
        return start
    cut = last.end()
    return cut + re.match(r"\s*:?", text[cut:end]).end()


def _read(text: str, start: int, end: int, lead_in: bool) -> Structure | None:
    """The structure of ``text[start:end]`` (one line), or None."""
    pieces = _pieces(text, start, end)
    joiners = {joiner for _, _, joiner in pieces[:-1]}
    if lead_in and pieces:
        worded = next((i for i in reversed(range(len(pieces))) if _prose(text[pieces[i][0]:pieces[i][1]])
                       and not _RESTRICTION.match(text[pieces[i][0]:pieces[i][1]])), None)  # the last piece with prose
        pieces = pieces[worded:] if worded is not None else pieces
        if len(pieces) == 1 and "\\in" not in text[pieces[0][0]:pieces[0][1]]:
            return None  # one piece is a structure only as "x \\in \\{...\\}" (below): "..., so the answer is 42"
        joiners = {joiner for _, _, joiner in pieces[:-1]}
        first_start, first_end, joiner = pieces[0]
        math_at = _lead_in_end(text, first_start, first_end)
        pieces[0] = (math_at, first_end, joiner)
    items = [(s, e, j, _value(text[s:e])) for s, e, j in pieces]
    items = [item for item in items if item[3]]
    if not items or any(_prose(value) for *_, value in items if not _RESTRICTION.match(value)):
        return None
    values, parameters = [], []
    for s, e, joiner, value in items:
        parameter = _PARAMETER.match(value)
        if parameter is not None and values:
            parameters.append(parameter.group(1))
            continue
        if _RESTRICTION.match(value) and values and not parameters:
            continue  # "x + 1, valid for x \\ne 1"
        if parameters:
            return None  # a value after its parameter clause
        values.append((s, e, value))
    if not values:
        return None
    span = (values[0][0], items[-1][1])
    texts = [value for *_, value in values]
    if len(texts) == 1:
        member = _MEMBER_SET.match(texts[0])
        if member is not None:  # "x \\in {0, 1, -1}"
            return Structure("list", tuple(v.strip() for v in _split_top(member.group(1))), (), tuple(parameters), *span)
        if not parameters and len(items) == 1:
            return None
        return Structure("value", (texts[0].rsplit("=", 1)[-1].strip(),), (), tuple(parameters), *span)  # a chain's last side
    assignments = [_ASSIGNMENT.match(value) for value in texts]
    alternative = "or" in joiners
    if all(assignments):
        names = [found.group(1) for found in assignments]
        right = tuple(found.group(2) for found in assignments)
        if len(set(names)) == 1:
            return Structure("list", right, (), tuple(parameters), *span, names[0])  # "x = 2 or x = 3", "z_1 = ..., z_2 = ..."
        if len(set(names)) == len(names) and not alternative:
            order = sorted(range(len(names)), key=lambda i: names[i]) if all(len(n) == 1 for n in names) else range(len(names))
            return Structure("tuple", tuple(right[i] for i in order), (), tuple(parameters), *span)
        return Structure("alternatives", tuple(texts), (), (), *span) if alternative else None
    if any(assignments):
        return None
    relations = [_RELATION.search(value) for value in texts]
    if all(relations) and joiners == {"or"}:
        return Structure("union", tuple(texts), (), (), *span)  # "x < -2 or x > 2"
    if any(relations):
        return None
    return Structure("alternatives" if alternative else "list", tuple(texts), (), tuple(parameters), *span)


def _split_top(text: str) -> list[str]:
    if "," not in text:
        return [text]
    depths = _depths(text)
    cuts = [m.start() for m in _COMMA.finditer(text) if depths[m.start()] == 0]
    return [text[a + 1 if a >= 0 else 0:b] for a, b in zip([-1, *cuts], [*cuts, len(text)])]


def _parts(text: str, start: int, end: int) -> Structure | None:
    """Labelled parts in ``text[start:end]``: "(a) 5 (b) 3" (two or more letter labels, in order), or "Center (3, -2),
    radius 4" (a word before each value); each part one value, its box's content where it is boxed."""
    labels = list(_LETTER_LABEL.finditer(text, start, end))
    if len(labels) >= 2 and [m.group(1) for m in labels] == [chr(ord("a") + i) for i in range(len(labels))]:
        values = []
        for label, after in zip(labels, [*labels[1:], None]):
            part = text[label.end():after.start() if after is not None else end]
            value = _part_value(part)
            if value is None:
                return None
            values.append(value)
        return Structure("parts", tuple(values), tuple(m.group(1) for m in labels), (), labels[0].start(), end)
    pieces = _split_top(text[start:end])
    if len(pieces) < 2:
        return None
    named = [_WORD_LABEL.match(piece) for piece in pieces]
    if not all(named) or any(_prose(found.group(3)) for found in named):
        return None
    words = tuple((found.group(1) or found.group(2)).lower() for found in named)
    first = text.find(pieces[0].strip(), start) if pieces[0].strip() else start
    return Structure("parts", tuple(found.group(3).strip().rstrip(",") for found in named), words, (), first, end)


def _part_value(part: str) -> str | None:
    """One labelled part's value: its box's content, else the last right-hand side or what follows a colon; None when
    it is more than one value ("3 or 7") or prose."""
    boxes = _BOXED.findall(part)
    masked = _masked(part).strip().rstrip(".,;").strip()
    if len(boxes) > 1:
        return None
    if boxes:
        inner = part[part.find(boxes[0]) + len(boxes[0]):]
        depth, out = 1, []
        for char in inner:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                break
            out.append(char)
        value = "".join(out).strip()
    else:
        value = re.split(r"[:=]", masked)[-1].strip()
    value = _without_unit(value)
    if not value or _prose(value) or re.search(r"(?<![A-Za-z\\])or(?![A-Za-z])|\s/\s", value):
        return None
    return value


# a number and a unit word after it: "34 cm", "13 km/h", "2.5 m^2"
_MEASURE = re.compile(r"(?P<value>[-+]?\d+(?:\.\d+)?)[^\S\n]+(?P<unit>[A-Za-z][A-Za-z/^{}0-9]{0,11})")


def _without_unit(value: str) -> str:
    """A part's value without the unit written after it: "(b) 13 cm" is 13 (holdout106), where the word is a unit of
    measure (:func:`~polyreward.verifiers.units.unit_dimension`); "13 probably" stays as written (prose)."""
    measure = _MEASURE.fullmatch(value)
    if measure is None or unit_dimension(measure.group("unit")) is None:
        return value
    return measure.group("value")


def _final_line(text: str) -> tuple[int, int]:
    """The span of the text's last line, or of the display block it closes (``$$ ... $$``, ``\\[ ... \\]``)."""
    end = len(text.rstrip())
    start = text.rfind("\n", 0, end) + 1
    line = text[start:end]
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("\\begin{aligned}", "\\end{aligned}")):
        if line.strip().endswith(closer) and line.count(opener if opener != closer else "$$") < (2 if opener == closer else 1):
            block = text.rfind(opener, 0, start)
            if block >= 0:
                start = text.rfind("\n", 0, block) + 1
    marker = _LINE_MARKER.match(text, start, end)  # "#### 3, 2": GSM8K's answer marker (or a heading's) opens no item
    return (marker.end() if marker else start), end


_LINE_MARKER = re.compile(r"[^\S\n]*#{1,6}[^\S\n]*")


_TRAILING = WHITE_SPACE + ".,;!"  # what a final line's end is read past: white space (what \s matches) and stops


def final_structure(text: str) -> Structure | None:
    """The structure the completion's final line states, its lead-in prose read past ("Solutions: ..."), or None.
    ``text`` should be normalised (:func:`.math_normalize.normalize_unicode`); offsets are in ``text``."""
    start, end = _final_line(text)
    if end - start > MAX_CHARS or not may_hold_structure(text, start, end):
        return None
    labelled_start = _labelled_block(text, start)
    masked = _masked(text)
    end = start + len(masked[start:end].rstrip(_TRAILING))
    if labelled_start is not None:
        parts = _parts(text, labelled_start, end)
        if parts is not None:
            return parts
    label = re.search(r":\s*(?=\S)", masked[start:end])
    lettered = masked.find("(", start, end) >= 0 and _LETTER_LABEL.search(masked, start, end) is not None  # "(a)" needs its "("
    if lettered or (label is not None and _word_parts(masked, start + label.end(), end)):
        parts = _parts(masked, start + (label.end() if label and not lettered else 0), end)
        if parts is not None:
            return parts
    if _word_parts(masked, start, end):
        parts = _parts(masked, start, end)
        if parts is not None:
            return parts
    return _read(masked, start, end, lead_in=True) or _word_alternatives(masked, start, end)


# What the final line must hold for :func:`final_structure` to find anything (see :func:`may_hold_structure`).
_STRUCTURE_MARKS = (",", ";", "(", "/", "and", "or", "\\\\", "quad", "\\langle", "\\in")


def may_hold_structure(text: str, start: int, end: int) -> bool:
    """False only where :func:`final_structure` finds nothing in ``text[start:end]`` (its final line), so the costly
    reading (masking the text, splitting the line) is skipped on a plain one-value line ("The answer is \\boxed{42}.").
    Exact, not a heuristic: every structure needs one of these marks in the line.

    * Masking (:func:`_masked`) keeps offsets and only writes spaces, except a row break (``\\\\``, ``\\quad``,
      ``\\qquad``) written as a comma, ``\\langle``/``\\rangle`` as a bracket, and ``\\text{and}``/``\\text{or}``
      as its word; each of those sits in the line where the mark it comes from does (the last one only within the
      ``\\text{...}`` that holds the word, which may reach over a line break: any ``\\text{`` in the text keeps the
      reading). So a comma, ";", "(", "/", "and", "or" or ``\\in`` in the masked line is a mark here.
    * Labelled parts need "(" ("(a) 5 (b) 3", also the only way :func:`_labelled_block` starts) or two pieces split at
      a comma (:func:`_word_parts`, :func:`_parts`).
    * :func:`_read` returns a structure only from two or more pieces (a joiner: comma, ";", "and", "or") or from one
      piece ``x \\in \\{...\\}``: one piece and no parameter is None.
    * :func:`_word_alternatives` needs "or" or " / " to split at."""
    line = text[start:end]
    return any(mark in line for mark in _STRUCTURE_MARKS) or "\\text{" in text


_WORD_JOIN = re.compile(r"\s/\s|(?<![A-Za-z])or(?![A-Za-z])")
_BEYOND_WORDS = re.compile(r"[^A-Za-z/\s]")


def _word_alternatives(masked: str, start: int, end: int) -> Structure | None:
    """Answers in words joined by "or" or " / " after a colon ("Answer: no solution / all reals"): alternatives."""
    colon = masked.rfind(":", start, end)
    start = colon + 1 if colon >= 0 else start
    if _BEYOND_WORDS.search(masked, start, end):
        return None  # (speed: each piece is letters and spaces, each join white space and "/" or "or": nothing else)
    pieces = [piece.strip() for piece in _WORD_JOIN.split(masked[start:end])]
    if len(pieces) < 2 or not all(re.fullmatch(r"[A-Za-z ]{2,40}", piece) for piece in pieces):
        return None
    return Structure("alternatives", tuple(pieces), (), (), start + len(masked[start:end]) - len(masked[start:end].lstrip()), end)


def _word_parts(masked: str, start: int, end: int) -> bool:
    pieces = _split_top(masked[start:end])
    return len(pieces) >= 2 and all(_WORD_LABEL.match(piece) and not _ASSIGNMENT.match(piece) for piece in pieces)


def _labelled_block(text: str, line_start: int) -> int | None:
    """Where a run of lines that open with "(a)", "(b)", ... ending with the final line starts, or None; the first
    line may have a lead-in before its "(a)" ("**Answers:** (a) 5")."""
    starts, at = [], line_start
    while True:
        line = text[at:text.find("\n", at) if text.find("\n", at) >= 0 else len(text)]
        if not re.match(r"\s*\(([a-h])\)", line):
            first = _LETTER_LABEL.search(line) if starts else None  # (speed: searched only after a labelled line)
            if first is not None and first.group(1) == "a":
                starts.append(at + first.start())
            break
        starts.append(at)
        if at == 0:
            break
        previous = text.rfind("\n", 0, at - 1)
        while previous >= 0 and not text[previous + 1:at - 1].strip():  # blank lines between the parts
            at = previous + 1
            previous = text.rfind("\n", 0, at - 1)
        at = previous + 1
    return starts[-1] if len(starts) >= 2 else None


def listed_in_label_order(gold: str, found: Structure) -> Structure | None:
    """A gold that lists plain values, one for each of the letter-labelled parts found ("7, 6" for "(a) Mean = 7
    ... (b) Median = 6"), read as those parts in label order, as a question's parts (a), (b) are answered and listed
    (holdout106); None when the parts are not lettered from (a) or the counts differ."""
    if found.kind != "parts" or list(found.labels) != [chr(ord("a") + i) for i in range(len(found.labels))]:
        return None
    items = [item.strip() for item in _split_top(gold)]
    if len(items) != len(found.items) or not all(items):
        return None
    return Structure("parts", tuple(items), found.labels)


def gold_structure(gold: str) -> Structure | None:
    """The gold read by the same rules, without a lead-in: labelled parts, a parameter clause, one variable's values
    ("x = 1, x = 4"), or None."""
    text = normalize_unicode(gold)
    if _LETTER_LABEL.search(text) or _word_parts(text, 0, len(text)):
        parts = _parts(text, 0, len(text))
        if parts is not None:
            return parts
    found = _read(_masked(text), 0, len(text), lead_in=False)
    return found if found is not None and (found.parameters or found.variable) else None


def renamed(found: Structure, gold: Structure | None) -> tuple[str, ...] | None:
    """``found``'s values with its parameters named as the gold's (``n \\in Z`` for the gold's ``k \\in Z``); None
    when the gold names parameters the answer does not (or as many)."""
    wanted = gold.parameters if gold is not None else ()
    if not wanted:
        return found.items
    if len(wanted) != len(found.parameters):
        return None
    values = found.items
    for old, new in zip(found.parameters, wanted):
        pattern = re.compile(r"(?<![A-Za-z\\])" + re.escape(old) + r"(?![A-Za-z])")
        values = tuple(pattern.sub(lambda _m, new=new: " " + new + " ", value) for value in values)
    return values


_CASES = re.compile(r"\\begin\{cases\}(.*?)\\end\{cases\}", re.DOTALL)
_CONDITION_WORDS = re.compile(r"\\text\{\s*(?:if|for|when|otherwise)?\s*\}|(?<![A-Za-z\\])(?:if|for|when)(?![A-Za-z])")


def _cases_rows(text: str) -> list[tuple[str, str]] | None:
    """The (expression, condition) rows of the one cases environment in ``text``, trailing punctuation and "if" read
    past, or None."""
    found = _CASES.findall(text)
    if len(found) != 1:
        return None
    rows = []
    for row in re.split(r"\\\\", found[0]):
        if not row.strip():
            continue
        cells = row.split("&")
        if len(cells) != 2:
            return None
        expression, condition = (_CONDITION_WORDS.sub(" ", cell).strip().strip(",.;").strip() for cell in cells)
        if not expression or not condition:
            return None
        rows.append((expression, condition))
    return rows or None


def cases_equal(gold: str, answer: str) -> bool | None:
    """Two piecewise answers (``\\begin{cases} x-2 & x \\ge 2 \\\\ 2-x & x < 2 \\end{cases}``) compared row by row, in
    any order: each expression as a polynomial (else written alike), each condition as the interval it describes (else
    written alike). None when either side is no single cases environment with two cells a row."""
    gold_rows, answer_rows = _cases_rows(gold), _cases_rows(answer)
    if gold_rows is None or answer_rows is None:
        return None

    def same(one: str, other: str, read) -> bool:
        first, second = read(one), read(other)
        return first == second if first is not None and second is not None else squeeze(one) == squeeze(other)

    def form(condition: str):
        found = canonical(condition)
        return found[1] if found is not None else None

    if len(gold_rows) != len(answer_rows):
        return False
    unmatched = list(answer_rows)
    for expression, condition in gold_rows:
        match = next((row for row in unmatched if same(expression, row[0], parse_polynomial) and same(condition, row[1], form)), None)
        if match is None:
            return False
        unmatched.remove(match)
    return True
