"""``<tag>…</tag>`` blocks found in linear time.

``re.finditer(r"<tag>(.*?)</tag>", text, re.DOTALL)`` retries the lazy ``.*?`` from every opening tag,
so a completion of many ``<answer>`` openers and no closer costs time quadratic in its length. These
helpers find the same blocks with two forward literal searches per block, so every character is looked
at a bounded number of times:

* :func:`tag_blocks` -- every block, left to right, non-overlapping: exactly the matches of the regex
  above (a block opens at the leftmost opener and ends at the first closer after it; the next search
  starts after that closer);
* :func:`first_block` / :func:`last_block` -- the body of the first / last of them, or None;
* :func:`blocks_not_across_reasoning` -- the blocks of :func:`tag_blocks` where none runs across a ``</think>``
  (an opener in the reasoning whose closer follows the reasoning is the tag named, not a block);
* :func:`unclosed_block` -- the text after an opener that no closer follows (a block cut off), or None.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache


@lru_cache(maxsize=64)
def _literals(tag: str, ignore_case: bool) -> tuple[re.Pattern, re.Pattern]:
    flags = re.IGNORECASE if ignore_case else 0
    return re.compile(re.escape(f"<{tag}>"), flags), re.compile(re.escape(f"</{tag}>"), flags)


def tag_blocks(text: str, tag: str, ignore_case: bool = False) -> Iterator[tuple[int, int, str]]:
    """``(start, end, body)`` of each ``<tag>body</tag>`` block in ``text``, left to right."""
    opener, closer = _literals(tag, ignore_case)
    position = 0
    while (opening := opener.search(text, position)) is not None:
        closing = closer.search(text, opening.end())
        if closing is None:  # no closer after this opener, so none after any later opener either
            return
        yield opening.start(), closing.end(), text[opening.end():closing.start()]
        position = closing.end()


def blocks_not_across_reasoning(text: str, tag: str, ignore_case: bool = False) -> Iterator[tuple[int, int, str]]:
    """``(start, end, body)`` of the ``<tag>body</tag>`` blocks of ``text`` as :func:`tag_blocks` finds them, except
    that a block never runs across the end of the reasoning: an opener before a ``</think>`` whose first closer
    follows that ``</think>`` is the tag's name written in the reasoning ("The <answer> tag should hold one
    number.</think> <answer>48</answer>"), not the opening of a block that swallows the rest of the think, so the
    search goes on after the last ``</think>`` before that closer (red team ``holdout_r28``). A block wholly inside
    the think or wholly after it is found as before. Linear: each stretch is searched a bounded number of times."""
    opener, closer = _literals(tag, ignore_case)
    think_end = _literals("think", True)[1]
    position = 0
    while (opening := opener.search(text, position)) is not None:
        closing = closer.search(text, opening.end())
        if closing is None:
            return
        ended = None
        for ended in think_end.finditer(text, opening.end(), closing.start()):
            pass
        if ended is not None:  # the opener stands in the reasoning, its closer after it: a mention of the tag
            position = ended.end()
            continue
        yield opening.start(), closing.end(), text[opening.end():closing.start()]
        position = closing.end()


def first_block(text: str, tag: str, ignore_case: bool = False) -> str | None:
    """Body of the first ``<tag>…</tag>`` block (``re.search`` semantics), or None."""
    return next((body for _, _, body in tag_blocks(text, tag, ignore_case)), None)


def last_block(text: str, tag: str, ignore_case: bool = False) -> str | None:
    """Body of the last ``<tag>…</tag>`` block (the last of ``re.findall``), or None."""
    body = None
    for _, _, body in tag_blocks(text, tag, ignore_case):
        pass
    return body


def unclosed_block(text: str, tag: str, ignore_case: bool = False) -> str | None:
    """The text after the last ``<tag>`` when no ``</tag>`` follows it (the block was cut off), else None."""
    opener, closer = _literals(tag, ignore_case)
    last = None
    for last in opener.finditer(text):
        pass
    if last is None or closer.search(text, last.end()) is not None:
        return None
    return text[last.end():]


def strip_thinking(text: str) -> str:
    """``text`` without its reasoning: the part after the last ``</think>``, and what stands before the first
    ``<think>`` (an answer written before the think block is still written); ``""`` when a ``<think>`` is left open.
    Without an opener (chat templates that put ``<think>`` in the prompt) everything up to ``</think>`` is reasoning."""
    close = text.rfind("</think>")
    if close >= 0:
        opened = text.find("<think>", 0, close)
        before = text[:opened] if opened > 0 and text[:opened].strip() else ""
        return before + text[close + len("</think>"):]
    if "<think>" in text:
        # a think block left open: no answer, unless a final-answer heading stands after the reasoning in it
        # ("<think> ... = 30.\n\n**Final Answer**\n\\boxed{30}"; holdout27)
        heading = None
        for heading in _FINAL_HEADING.finditer(text, text.find("<think>")):
            pass
        return text[heading.start():] if heading is not None else ""
    return text


# a heading that opens the final answer on a line of its own: "**Final Answer**", "Final answer:", "## Final Answer"
_FINAL_HEADING = re.compile(r"^[ \t]*(?:#{1,4}[ \t]*)?(?:\*\*)?[ \t]*final[ \t]+answer[ \t]*(?:\*\*)?[ \t]*:?[ \t]*(?:\*\*)?[ \t]*(?=\S|$)",
                            re.IGNORECASE | re.MULTILINE)
