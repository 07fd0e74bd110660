"""What no reader of a completion sees: step 2 of the one reading (:mod:`.reading`).

:func:`without_comments` drops what no reader sees at all, or sees struck out: HTML comments ``<!-- ... -->``,
LaTeX comments (``%`` to the end of the line, where the ``%`` is not a percent sign: ``50%`` and ``\\%`` stay),
elements hidden by style (``display:none``, ``visibility:hidden``, ``hidden``, zero font size or opacity, white
text in any colour model), LaTeX that renders nothing or is never typeset (``\\phantom``, ``\\color{white}`` and a
white colour switch, ``\\iffalse``, the ``comment`` environment), the markup of links and images (``alt``,
``href``, a link target -- a URL, a path or a file name -- and a link's quoted title, a markdown image with its alt text, a markdown link
definition ``[//]: # (...)``), struck-through text (``~~..~~``, ``<del>``,
``<s>``, ``\\sout``, ``\\cancel``, letters with a combining overlay), and everything after the end of the writer's turn
(a chat template's control token: ``<|im_end|>``, ``<|im_start|>``, ``<|eot_id|>``; a header of the writer's own
turn at the very start is only dropped). An unclosed comment hides the rest. An HTML comment of words only, after
the writer's words on its line, is read there in parentheses, as a footnote is: it may qualify the answer, never
supply one.

Why: a reward that reads what no person sees pays a policy for hiding an answer, or the words that take it back,
where a grader never looks.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from collections.abc import Iterable, Iterator

from polyreward.verifiers.comment_caveats import comment_as_caveat, doubting_comment
from polyreward.verifiers.turns import own_turn


_HTML_COMMENT_OPEN, _HTML_COMMENT_CLOSE = "<!--", "-->"
# an element a browser does not show: <span style="display:none">...</span>, <div hidden>...</div>; and one the writer
# marks as withdrawn, like struck text (holdout10): <candidate status="rejected">540</candidate>
_HIDDEN_ELEMENT = re.compile(
    r"<(?P<tag>[a-zA-Z][a-zA-Z0-9]{0,15})\b[^<>]{0,300}?(?:display\s*:\s*none|visibility\s*:\s*hidden|\bhidden\b|"
    r"\b(?:status|state|verdict)\s*=\s*[\"']?\s*(?:rejected|withdrawn|retracted|discarded|deleted|struck|invalid|wrong|incorrect|"
    r"superseded|obsolete|outdated)\b|"
    r"font-size\s*:\s*(?:0|1px|2px)(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])|"
    r"color\s*[:=]\s*[\"']?\s*(?:white|transparent|#fff\b|#ffffff\b|rgba?\(\s*255\s*,\s*255\s*,\s*255\b))"
    r"[^<>]{0,300}>|<(?P<struck>del|s|strike)\b[^<>]{0,300}>",
    re.IGNORECASE,
)
# "%" that starts a LaTeX comment: not escaped, and not a percent sign (a digit, brace or bracket right before it,
# or a number and one space before it with prose after: "50 % of")
_PERCENT = re.compile(r"(?<!\\)%")


def _drop_html_comments(text: str) -> str:
    if _HTML_COMMENT_OPEN not in text:
        return text
    parts, position = [], 0
    while (start := text.find(_HTML_COMMENT_OPEN, position)) >= 0:
        parts.append(text[position:start])
        end = text.find(_HTML_COMMENT_CLOSE, start + len(_HTML_COMMENT_OPEN))
        if end < 0:
            return " ".join(parts)
        position = end + len(_HTML_COMMENT_CLOSE)
        parts.append(comment_as_caveat(text, start, text[start + len(_HTML_COMMENT_OPEN):end]))
    parts.append(text[position:])
    return "".join(parts)


def _without_spans(text: str, spans: Iterable[tuple[int, int | None]], filler: str) -> str:
    """``text`` without each span (start, end) of ``spans`` (in order, apart), ``filler`` in its place; a span that
    never closes (end None) hides the rest of the text, as a renderer hides an element or a fence left open."""
    parts, position = [], 0
    for start, end in spans:
        parts.append(text[position:start])
        if end is None:
            return "".join(parts)
        position = end
        parts.append(filler)
    parts.append(text[position:])
    return "".join(parts)


def _drop_hidden_elements(text: str) -> str:
    if "<" not in text:
        return text

    def spans() -> Iterator[tuple[int, int | None]]:
        position = 0
        while (opening := _HIDDEN_ELEMENT.search(text, position)) is not None:
            tag = opening.group("tag") or opening.group("struck")
            closing = re.compile(rf"</{re.escape(tag)}\s*>", re.IGNORECASE).search(text, opening.end())
            yield opening.start(), None if closing is None else closing.end()
            if closing is None:
                return
            position = closing.end()
    return _without_spans(text, spans(), " ")


def _is_percent_sign(line: str, at: int) -> bool:
    before = line[:at].rstrip(" ")
    if not before:
        return False
    if at > 0 and (line[at - 1].isdigit() or line[at - 1] in ")]"):
        return True  # "50%", "(x + 1)%"; after a LaTeX group "}%" starts a comment ("\\boxed{45}% \\boxed{42}")
    after = line[at + 1:].lstrip(" ")
    return before[-1].isdigit() and (not after or not after.startswith(("\\", "$", "<", "{")))


def _drop_latex_comments(text: str) -> str:
    if "%" not in text:
        return text
    lines = text.split("\n")
    for index, line in enumerate(lines):
        for match in _PERCENT.finditer(line):
            if not _is_percent_sign(line, match.start()):
                lines[index] = line[:match.start()] + doubting_comment(line[:match.start()], line[match.end():])
                break
    return "\n".join(lines)


# LaTeX that renders nothing or deletes: \phantom{..}, \color{white}{..}, \textcolor{white}{..}, \sout{..}
# a colour a reader cannot see on a white page: white, transparent, #fff, rgb 1,1,1, RGB 255,255,255, gray 1
_WHITE = (r"(?:\{\s*(?:white|White|transparent|\#?fff|\#?FFF|\#?ffffff|\#?FFFFFF)\s*\}|\[\s*(?:rgb|RGB|HTML|gray)\s*\]\s*"
          r"\{\s*(?:1(?:\.0*)?\s*,\s*1(?:\.0*)?\s*,\s*1(?:\.0*)?|255\s*,\s*255\s*,\s*255|FFFFFF|ffffff|1(?:\.0*)?)\s*\})")
_LATEX_HIDING = re.compile(
    r"\\(?:[hv]?phantom|sout|st|xout|cancel|bcancel|xcancel|cancelto\{[^{}]{0,40}\}|textcolor\s*" + _WHITE + r"|"
    r"color\s*" + _WHITE + r")\s*\{"
)
# "{\color{white} 42}": a colour switch hides the rest of its group (or of its line when it opens none)
_COLOR_SWITCH = re.compile(r"\\color\s*" + _WHITE + r"(?!\s*\{)")
# LaTeX that is never typeset: \iffalse ... \fi, \begin{comment} ... \end{comment}
_NEVER_TYPESET = re.compile(r"\\iffalse\b.*?(?:\\fi\b|\Z)|\\begin\{comment\}.*?(?:\\end\{comment\}|\Z)", re.DOTALL)


def _drop_strikethrough(text: str) -> str:
    """``~~struck~~`` removed, pairs of markers on one line (a literal split per line: linear)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if "~~" in line:
            pieces = line.split("~~")
            kept = pieces[0::2] if len(pieces) % 2 else pieces[0:-1:2] + ["~~" + pieces[-1]]
            lines[index] = " ".join(kept)
    return "\n".join(lines)


_STRIKE_MARK = re.compile(r"~~|</?(?:del|s|strike)\s*>|\\(?:sout|st|xout|cancel|bcancel|xcancel)\s*(?=\{)", re.IGNORECASE)


def unstruck(text: str) -> str:
    """``text`` with its strikethrough marks removed and the struck words kept (``~~A. Dextrose~~`` is ``A.
    Dextrose``; ``<del>``, ``<s>``, ``<strike>``, ``\\sout{}``, ``\\cancel{}``): for a reader of what was considered
    rather than of what is asserted -- an option struck out with its reason is an option ruled out, so weighed (red
    team ``holdout_r54``). Hidden text stays hidden."""
    return _STRIKE_MARK.sub("", text) if "~~" in text or "<" in text or "\\" in text else text


def _drop_color_switches(text: str) -> str:
    """``{\\color{white} 42}`` without what the switch colours: up to the end of the enclosing group, else the line."""
    parts, position = [], 0
    while (switch := _COLOR_SWITCH.search(text, position)) is not None:
        parts.append(text[position:switch.start()])
        depth, index = 0, switch.end()
        while index < len(text) and text[index] != "\n" and depth >= 0:
            if text[index - 1] != "\\":
                depth += {"{": 1, "}": -1}.get(text[index], 0)
            index += 1
        position = index - 1 if depth < 0 else index  # the group's closing brace stays
        parts.append(" ")
    parts.append(text[position:])
    return "".join(parts)


def _drop_latex_hiding(text: str) -> str:
    if "\\" not in text:
        return text
    if "\\iffalse" in text or "\\begin{comment}" in text:
        text = _NEVER_TYPESET.sub(" ", text)
    if "\\color" in text:
        text = _drop_color_switches(text)
    return _drop_brace_groups(text, _LATEX_HIDING)


def _drop_brace_groups(text: str, opener: re.Pattern) -> str:
    """Each match of ``opener`` (which ends just after a ``{``) removed with the rest of its brace group, nested
    braces matched, an escaped brace skipped; one pass, left to right."""
    parts, position = [], 0
    while (opening := opener.search(text, position)) is not None:
        parts.append(text[position:opening.start()])
        depth, index = 1, opening.end()
        while index < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[index], 0) if text[index - 1] != "\\" else 0
            index += 1
        position = index
        parts.append(" ")
    parts.append(text[position:])
    return "".join(parts)


# the markup of a link or an image is not read as text: "[45](https://x.org/42)" shows 45, '<img alt="42">' nothing
_PRESENTATIONAL_TAG = re.compile(
    r"<(?:a|img|span|font|div|p|abbr|iframe|video|audio|source|link|meta)\s[^<>]{0,300}>", re.IGNORECASE)
# a link target is never shown, whether a URL or a file name ("[see](answer-A.png)"): a target with a URL or path
# mark, or a file name with an extension; "[0, 1](2)" (an interval then a tag) stays. Nor is a link's title, a
# tooltip shown only on hover ('[see the solution](https://x.org/s "\\boxed{56}")', "[note](#a 'D')"; holdout107):
# any target followed by a title is a link (CommonMark's title forms "...", '...' and (...))
_LINK_TITLE = r"""[ \t]+(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'|\([^()\n]{0,300}\))"""
_LINK_TARGET = re.compile(r"(?<=\])\((?:(?:https?://|www\.|/|\.{1,2}/|#|[^()\s]{0,200}\.[A-Za-z][A-Za-z0-9]{0,5}(?=\)|" + _LINK_TITLE
                          + r"))[^()\s]{0,300}(?:" + _LINK_TITLE + r")?|[^()\s]{1,300}" + _LINK_TITLE + r")\)")
# a markdown image shows the image, not its alt text: "![\\boxed{21}](result.png)" says nothing to a reader
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]\n]{0,300}\]\([^()\n]{0,300}\)")


# a markdown link reference definition is never rendered, the usual markdown comment: "[//]: # (42)"
_LINK_DEFINITION = re.compile(
    r"^[ ]{0,3}\[(?!\^)[^\]\n]{1,40}\]:[ \t]*(?:#|<>|<?(?:https?://|www\.|/|\.{1,2}/))[^\n]*$", re.MULTILINE)


# '<font size="1">42</font>', '<font size=-2>': the smallest sizes of the old font tag are small print (read as
# <small>, set aside in step 3) rather than a presentational tag dropped with nothing else (holdout8 probe)
_SMALL_FONT_ELEMENT = re.compile(r"<font\s+size\s*=\s*[\"']?\s*(?:1|-[1-9])\s*[\"']?\s*>([^<]{0,2000})</font\s*>", re.IGNORECASE)


# plain HTML formatting is read as it renders (holdout18): "<p>Answer: <strong>C</strong></p>" is "Answer: **C**" on a
# line of its own, "<b>36</b></p>" is "**36**" -- bold as markdown bold, a block's edge as a line break, an inline tag
# as nothing (hidden, struck-out and small elements were handled before; <sub>/<sup>/<small>/<details> are left to step 3)
_BOLD_ELEMENT = re.compile(r"<(b|strong)\s*>([^<>\n]{1,200}?)</\1\s*>", re.IGNORECASE)
_BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|h[1-6]|tr|table|tbody|thead|section|article|blockquote)\s*/?>", re.IGNORECASE)
_INLINE_TAG = re.compile(r"</?(?:b|strong|i|em|u|mark|span|font|a|abbr|td|th|code|tt|big|center|label)\s*>", re.IGNORECASE)


# (red team holdout_r46) one <label> element closed and the next opened at once ("<label>cardiomegaly</label><label>
# pulmonary edema</label>") is a list of labels written as XML, one item each, not one word split by markup
_LABEL_ITEMS = re.compile(r"</label\s*>\s*<label\s*>", re.IGNORECASE)


def _rendered_html(text: str) -> str:
    if "</label" in text.lower():
        text = _LABEL_ITEMS.sub("\n", text)
    text = _BOLD_ELEMENT.sub(r"**\2**", text)
    text = _BLOCK_TAG.sub("\n", text)
    return _INLINE_TAG.sub(lambda tag: " " if tag.group().lower().strip("</>") in ("td", "th") else "", text)


def _drop_markup(text: str) -> str:
    if "]:" in text:
        text = _LINK_DEFINITION.sub("", text)
    if "<" in text:
        if "<font" in text.lower():
            text = _SMALL_FONT_ELEMENT.sub(r"<small>\1</small>", text)
        text = _rendered_html(_PRESENTATIONAL_TAG.sub(" ", text))
    if "](" in text:
        if "![" in text:
            text = _MARKDOWN_IMAGE.sub(" ", text)
        text = _LINK_TARGET.sub("", text)
    return text


def without_comments(text: str) -> str:
    """``text`` without what no reader sees or what the writer struck out: HTML and LaTeX comments, hidden HTML
    elements, ``\\phantom`` and white text, struck-through text (``~~..~~``, ``<del>``, ``\\sout``) (step 2), and
    nothing after the end of the writer's turn (a chat template's control token: :func:`.turns.own_turn`)."""
    text = own_turn(text)
    text = _drop_markup(_drop_latex_comments(_drop_hidden_elements(_drop_html_comments(text))))
    if "~~" in text:
        text = _drop_strikethrough(text)
    return _drop_latex_hiding(text)
