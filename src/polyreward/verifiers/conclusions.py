"""A final answer that the writer's own reasoning does not reach (holdout13): the reasoning concludes one value and
the final line states another, with nothing between that takes the conclusion back.

    "<think> ... ad + bc = 11. So the answer is 11. </think> \\boxed{5}"
    "... = 3/9 = 1/3. Therefore the result is $\\frac{1}{3}$. **Final Answer:** $\\boxed{3}$"
    "... so Charlotte Brontë. So the best option is A) Charlotte Brontë. Final answer: D"

A reader credits a final answer as the end of the work before it; one that the work contradicts is two answers, the
second unexplained, and neither is the writer's committed answer. Read structurally: the last *concluding statement*
before the final answer -- a conclusion word (so, therefore, thus, hence) and an answer noun (answer, result, best or
correct option) then ``is`` / ``=`` / ``:`` -- names a value; when that value is another one and the stretch from it to
the final answer neither takes anything back (:func:`~.commitment.retraction_after`: "wait", "actually", "I made an
error") nor argues with anything (:func:`~.reading.dissents`: "no", "wrong", "mistake"), the answer conflicts. A
self-correction ("So the answer is 45? No -- 6·7 = 42. \\boxed{42}") says why it changed and is read as before; a
conclusion of the same value, or a reasoning that concludes nothing in these words, changes nothing. The reasoning read
includes a ``<think>`` block: what the writer thought is where its answer came from.

Reconstructed rule (ours), not a published algorithm; one regex pass over the text before the final answer.
"""

from __future__ import annotations

from collections.abc import Callable

from polyreward.verifiers.commitment import retraction_after
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from polyreward.verifiers.reading import dissents

_CONCLUSION = re.compile(
    r"\b(?:so|therefore|thus|hence|consequently)\b,?\s+(?:the\s+|my\s+|our\s+)?(?:final\s+)?"
    r"(?:answer|result|best\s+(?:option|choice|answer)|correct\s+(?:option|choice|answer))\s*(?:is|=|:)\s*",
    re.IGNORECASE,
)
_THINK_TAG = re.compile(r"</?think>")
_STATEMENT_END = re.compile(r"[.!?;\n]|</think>")


def concluded_otherwise(reasoning: str, is_other: Callable[[str], bool | None]) -> bool:
    """Does ``reasoning`` (the text before the final answer, a think block included) end its work on a concluding
    statement whose value ``is_other`` calls another value (True; the same value or no value: False / None), with
    nothing after it that takes it back or disputes anything?"""
    last = None
    for last in _CONCLUSION.finditer(reasoning):
        pass
    if last is None or is_other(reasoning[last.end():]) is not True:
        return False
    between = _THINK_TAG.sub(" ", reasoning[last.end():])
    if _STATEMENT_END.search(between) is None:
        return False  # the conclusion runs into the final answer: one statement ("Therefore, the answer is $\\boxed{..}$")
    return not dissents(between) and retraction_after(reasoning, last.end()) is None


def reasoning_before(view: str, visible: str, final_start: int) -> str:
    """The text of ``view`` (a reading with its think block) before the final answer, which sits at ``final_start`` of
    ``visible`` (the same reading without the think block, :func:`~.tags.strip_thinking`)."""
    close = view.rfind("</think>")
    after = len(view) - close - len("</think>")  # the length of the part after the think block
    if close >= 0 and after <= len(visible) and view.endswith(visible[len(visible) - after:]) and final_start >= len(visible) - after:
        return view[:len(view) - len(visible) + final_start]  # the final answer is after the think block
    return visible[:final_start]


# speed only (issue #35): the concluding statements of the whole reasoning searched by skipping to the letters they
# start with (regex_scan.first_scanned; same results)
from polyreward.verifiers.regex_scan import first_scanned  # noqa: E402

_CONCLUSION = first_scanned(_CONCLUSION)
