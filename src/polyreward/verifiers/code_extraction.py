"""The program a completion commits to: the last fenced code block of the task's language.

Reading rules (the committed-answer rules of the other answer-reading rewards, for code):

1. Visible text only: HTML comments (``<!-- ... -->``, an unclosed one hides the rest) and block quotes (lines
   starting with ``>``) are not the answer; with a ``</think>`` the answer is what follows the last one, and a
   ``<think>`` that is never closed means the completion ended while thinking (no program).
2. Fences are CommonMark's: a line of at least three backticks or tildes (indented at most three spaces), an info
   string naming the language, closed by a line of the same character at least as long and nothing else.
3. The program is the **last** block tagged with the language (``python``, ``py``, ``python3``; a later block of the
   same language is a revision, and it wins); a block of another language (sample output, a shell command) never
   counts. Without any tagged block, the last untagged block is taken.
4. A fence still open at the end of the completion is a cut-off answer: no program, whatever came before.
5. Prose after the program (outside any fence) with a clause that opens by explicitly taking it back ("Scratch
   that: I made an error", "Oops", "Wait, no": :func:`polyreward.verifiers.commitment.retraction_after`, explicit
   only, opening the clause: :func:`polyreward.verifiers.commitment.retraction_opening`) with no later block
   of the language leaves no program: the writer withdrew it and gave no replacement a reader can run (a mere
   pause, "Wait, let me check", does not withdraw it).

Linear time in the completion's length (one pass over the lines, no backtracking patterns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polyreward.verifiers.commitment import retraction_opening

LANGUAGE_TAGS = {"python": ("python", "py", "python3")}


_CLAUSE_BREAK = re.compile(r"(?<=[.!?;])\s+|\n")


def _opens_with_retraction(clause: str) -> bool:
    """Does the clause open with an explicit retraction ("Scratch that: ...", "Oops, that's wrong", "I made a
    mistake")? An explanation that mentions one inside a sentence ("it adds error correction") takes nothing back."""
    retraction = retraction_opening(clause)
    return retraction is not None and retraction[1]


@dataclass(frozen=True)
class Extracted:
    program: str | None
    reason: str  # why there is no program, or which block was taken


def visible_text(text: str) -> str | None:
    """The completion without HTML comments and thinking; None when it ends inside ``<think>`` (cut off)."""
    parts = []
    position = 0
    while True:
        start = text.find("<!--", position)
        if start < 0:
            parts.append(text[position:])
            break
        parts.append(text[position:start])
        end = text.find("-->", start + 4)
        if end < 0:
            break
        position = end + 3
    text = "".join(parts)
    closing = text.rfind("</think>")
    if closing >= 0:
        return text[closing + len("</think>"):]
    if "<think>" in text:
        return None
    return text


def _fence(line: str) -> tuple[str, int, str] | None:
    """(fence character, length, info string) when ``line`` opens or closes a fence."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped[:3] in ("```", "~~~"):
        return None
    char = stripped[0]
    length = len(stripped) - len(stripped.lstrip(char))
    info = stripped[length:].strip()
    if char == "`" and "`" in info:
        return None
    return char, length, info


def extract_program(completion: str, language: str = "python") -> Extracted:
    """The last fenced block of ``language`` in the visible text of ``completion`` (module docstring)."""
    tags = LANGUAGE_TAGS.get(language, (language,))
    text = visible_text(completion)
    if text is None:
        return Extracted(None, "no_program: the completion ends inside <think>")
    tagged: str | None = None
    untagged: str | None = None
    open_fence: tuple[str, int, str] | None = None
    body: list[str] = []
    prose_after: list[str] = []  # prose after the last block of the language: does it take the program back?
    for line in text.split("\n"):
        if open_fence is None:
            if line.lstrip(" ").startswith(">"):
                continue  # a quoted block is someone else's code
            if _fence(line) is None:
                prose_after.append(line)
            fence = _fence(line)
            if fence is not None:
                open_fence, body = fence, []
            continue
        fence = _fence(line)
        if fence is not None and fence[0] == open_fence[0] and fence[1] >= open_fence[1] and not fence[2]:
            code = "\n".join(body) + "\n"
            tag = open_fence[2].split()[0].lower() if open_fence[2] else ""
            if tag in tags:
                tagged, prose_after = code, []
            elif not tag:
                untagged = code
            open_fence = None
            continue
        body.append(line)
    if open_fence is not None:
        return Extracted(None, "no_program: a code block is still open at the end (cut off)")
    if tagged is not None:
        if any(_opens_with_retraction(clause) for clause in _CLAUSE_BREAK.split("\n".join(prose_after))):
            return Extracted(None, f"no_program: the text after the last ```{language} block takes it back")
        return Extracted(tagged, f"last ```{language} block")
    if untagged is not None:
        return Extracted(untagged, "last untagged ``` block")
    return Extracted(None, f"no_program: no closed ```{language} block")
