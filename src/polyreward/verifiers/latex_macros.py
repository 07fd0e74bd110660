"""A completion's own LaTeX macros, read as they render: each definition expanded where the macro is used.

    expanded_macros(text) -> text with its macro definitions gone and each later use replaced by the definition

A definition renders nothing, and a use renders what the definition says, whatever the use spells out (holdout120).
So a page on which ``\\renewcommand{\\boxed}[1]{\\fbox{21}}`` comes before ``The GCD is $\\boxed{42}$`` shows a box
holding 21, and ``\\def\\ans{45}`` before ``$\\boxed{\\ans}$`` shows 45 -- while ``\\newcommand{\\res}{42}`` then
``\\boxed{\\res}`` is an answer of 42, as a reader of the rendered page sees it:

* definitions read: ``\\def\\name{body}``, ``\\def\\name#1#2{body}``, ``\\newcommand{\\name}[n]{body}``,
  ``\\renewcommand``, ``\\providecommand`` (``\\newcommand\\name`` without braces too, and the starred forms); a
  definition with an optional argument's default (``[n][default]``) is not read: it is left as written;
* a use of ``\\name`` (not followed by a letter: ``\\ansx`` is another name) after its definition is the body with
  ``#1`` .. ``#9`` replaced by the next brace groups (a use without its arguments is left as written); a later
  definition of the same name takes over from there on;
* the last :data:`MAX_DEFINITIONS` definitions are read (earlier ones are left as written), each body holds at most
  :data:`MAX_BODY` characters, and a body is expanded only by the definitions before it (TeX would expand it again),
  so the expansion is one pass over the text per definition: linear.

Reconstructed rule (ours).
"""

from __future__ import annotations

from polyreward.verifiers.math_normalize import bracket_pairs
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

MAX_DEFINITIONS = 8
MAX_BODY = 200

# the head of a definition up to its body's opening brace: "\def\ans{", "\def\pick#1{", "\renewcommand{\boxed}[1]{"
_DEFINITION = re.compile(
    r"\\def[^\S\n]*\\(?P<def_name>[A-Za-z]+)(?P<def_params>(?:#[1-9]){0,9})[^\S\n]*\{"
    r"|\\(?:(?:re)?new|provide)command\*?[^\S\n]*(?:\{[^\S\n]*\\(?P<braced_name>[A-Za-z]+)[^\S\n]*\}|\\(?P<bare_name>[A-Za-z]+))"
    r"[^\S\n]*(?:\[[^\S\n]*(?P<count>[1-9])[^\S\n]*\])?[^\S\n]*\{"
)
_PARAMETER = re.compile(r"#([1-9])")


def _arguments(text: str, start: int, count: int, pairs: dict[int, int]) -> tuple[list[str], int] | None:
    """The ``count`` brace groups right after ``start`` (spaces between them) and where they end, else None."""
    found, position = [], start
    for _ in range(count):
        while position < len(text) and text[position] in " \t":
            position += 1
        close = pairs.get(position, -1)
        if close < 0 or close - position > MAX_BODY:
            return None
        found.append(text[position + 1:close])
        position = close + 1
    return found, position


def _expanded_uses(text: str, name: str, count: int, body: str) -> str:
    """``text`` with each use of ``\\name`` replaced by ``body``, its parameters filled in."""
    use = re.compile(r"\\" + re.escape(name) + r"(?![A-Za-z])")
    pairs = bracket_pairs(text, "{", "}") if count else {}
    parts, done = [], 0
    for match in use.finditer(text):
        if match.start() < done:
            continue  # inside the arguments of a use just expanded
        found = _arguments(text, match.end(), count, pairs)
        if found is None:
            continue
        values, end = found
        parts += [text[done:match.start()], _PARAMETER.sub(lambda parameter: values[int(parameter.group(1)) - 1]
                                                           if int(parameter.group(1)) <= count else "", body)]
        done = end
    return "".join(parts) + text[done:] if parts else text


def expanded_macros(text: str) -> str:
    """``text`` with its macro definitions removed and their uses expanded (module docstring). The last definitions are
    read first, each over the text after it: a use after a redefinition is expanded by the redefinition, and a body
    holding a macro defined earlier is expanded by that earlier definition, as TeX expands it where it is used."""
    if "\\def" not in text and "command" not in text:
        return text
    for definition in reversed(list(_DEFINITION.finditer(text))[-MAX_DEFINITIONS:]):
        close = bracket_pairs(text, "{", "}").get(definition.end() - 1, -1)
        if close < 0 or close - definition.end() > MAX_BODY:
            continue  # an unclosed or overlong body: left as written
        name = definition.group("def_name") or definition.group("braced_name") or definition.group("bare_name")
        params = definition.group("def_params")
        count = len(params) // 2 if params else int(definition.group("count") or 0)
        body = text[definition.end():close]
        text = text[:definition.start()] + _expanded_uses(text[close + 1:], name, count, body)
    return text
