"""A program's printed output, then a remark that writes no value: the remark closes on the output's value.

Tool-integrated reasoning (ToRA, Qwen2.5-Math's TIR, PAL run in an interpreter) prints its result and then says
something about it::

    ```python
    print(sum(d for d in range(1, 37) if 36 % d == 0))
    ```
    ```output
    91
    ```
    This confirms the calculation.

The answer readers take fenced text only when nothing else answers, and read its last line: a remark after the
block ends the text on a line without a value, so the printed 91 was never read (red team ``holdout118``) -- though
a reader sees the remark close on it, as it closes on a bare "91" written above it. :func:`output_then_remark` gives
the last fenced block's text and the prose after it, when that block is an output block (tagged ``output``,
``stdout``, ``text``, ``console`` ..., or untagged) and the prose writes no digit and no further fence; the math
reader reads them as one text, the value and then the remark ("91\\n\\nThis confirms the calculation."), so every
rule on a remark after a stated value applies: "So that's our answer." and "Therefore, that is the final answer."
keep 91, "I need to verify this before committing.", "Hmm, that can't be right.", "This is wrong because the range
should start at 0." and "Wait, this cell never prints anything, so that output can't have come from this code."
leave no answer. A remark with a value of its own is read as before (the last line's value), and so is a text that
ends on the block.

Linear: one pass over the lines.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# the info string of a fence that shows what a program printed (an untagged fence too)
_OUTPUT_INFO = {"", "output", "out", "stdout", "result", "text", "txt", "plaintext", "console"}
_FENCE_LINE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})[ \t]*([\w-]*)[ \t]*\Z")


def output_then_remark(text: str) -> tuple[str, str] | None:
    """``(printed, remark)``: the text of the last fenced block of ``text`` when it is an output block, and the prose
    after it, when that prose is not empty and writes no digit and no fence (module docstring); else None."""
    lines = text.rstrip().split("\n")
    last = None  # (opening line, closing line, info) of the last closed block
    opened = None  # (line, fence marker, info) of the block open now
    for number, line in enumerate(lines):
        if (fence := _FENCE_LINE.match(line)) is None:
            continue
        marker, info = fence.groups()
        if opened is None:
            opened = (number, marker, info)
        elif marker[0] == opened[1][0] and len(marker) >= len(opened[1]) and not info:
            last, opened = (opened[0], number, opened[2]), None
    if opened is not None or last is None or last[2].lower() not in _OUTPUT_INFO:
        return None  # a block still open (cut off), no block, or the last block is code
    remark = "\n".join(lines[last[1] + 1:]).strip()
    printed = "\n".join(lines[last[0] + 1:last[1]]).strip()
    if not remark or not printed or re.search(r"\d|`{3}|~{3}", remark):
        return None
    return printed, remark
