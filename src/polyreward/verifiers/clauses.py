"""The pieces of a completion the commitment checks read: clauses, the markup around an answer, and whose words
they are.

Shared by :mod:`.commitment` (negation, alternatives, what the text says after its answer) and :mod:`.hedging`
(soft hedges and second-hand answers), so both cut the text the same way:

* a **clause** ends at ``.`` (not a decimal point), ``!``, ``?``, ``;`` or a line break (:func:`clauses`);
* **markup** between the words and the answer (``$``, ``**``, brackets, ``\\boxed{``) is stepped over;
* the **writer** of a clause is the author speaking of themselves or of their answer (``I``, ``we``, ``my``, "this
  answer", "the result"), or nobody ("(not sure)"): doubt about the world ("the evidence is uncertain") is not
  doubt about the answer (:data:`WRITER`);
* a **check** is a clause that computes or verifies (``6 \\times 7 = 42``, "let me verify"), which restates rather
  than qualifies an answer (:data:`CHECK`).

Reconstructed rule (ours), not a published algorithm. Every pattern is linear in its (bounded) window.
"""

from __future__ import annotations

import re

WINDOW = 80  # characters read on either side of an answer

MARKUP_START = re.compile(r"\A(?:[\s$*)\]}]|\\[)\]])*")
CLAUSE_END = re.compile(r"(?<!\d)\.(?!\d)|\.(?=\s|$)|[!?;\n]")
OWN_CLAUSE_END = re.compile(r"(?<!\d)\.(?!\d)|[!?;\n]")
WORDS = re.compile(r"[A-Za-z]+")
WRITER = re.compile(
    r"\b(?:I|I'm|I'd|I've|me|my|we|we're|we've|our|this|that|answer|result|solution|value|estimate|calculation|derivation)\b"
    r"|\A[\W_]*(?:(?:but|though|although|and|just|still|honestly|to\s+be\s+honest|frankly)\W+)*\Z",
    re.IGNORECASE,
)
CHECK = re.compile(r"[\d)}]\s*=|(?<!not\s)\b(?:check\w*|double-check\w*|verif(?:y|ied|ying)|confirm\w*|substitut\w*|plug\w*)\b", re.IGNORECASE)


def clauses(text: str, start: int, stop: int, ends: re.Pattern = CLAUSE_END):
    """``(start, end)`` of each clause of ``text[start:stop]`` (searched in the whole text, so a look-behind sees
    the character before ``start``)."""
    for end in ends.finditer(text, start, stop):
        yield start, end.start()
        start = end.end()
    yield start, stop
