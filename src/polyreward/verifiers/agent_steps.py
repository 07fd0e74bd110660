"""An agent's transcript: which of its steps are the writer's words (holdout81).

A tool-using agent writes its transcript in steps (ReAct: ``Thought:`` / ``Action:`` / ``Action Input:`` /
``Observation:`` / ``Final Answer:``). Two kinds of step are not the writer's commitment, whatever value they hold:

* **an observation** -- what a tool, a search or an interpreter returned (``Observation: 2187``, ``Observation
  (search, top 3):`` and the list under it, ``Tool output: 30.0 → option D``, ``Observación:``, ``观察：``): the writer
  reads it, it does not say it. A value the writer adopts is one it states in its own words (``Final Answer: 391``,
  ``The tool confirms it: 1024``); an agent stopped by its iteration limit, or waiting on a question to the user,
  after an observation that holds the gold has answered nothing;
* **a call to a tool that does not submit the answer** (``Action: calculator[3*3*3*3*3*3*3]``, ``Action:
  calculator`` with ``Action Input: 3**7`` under it): input to a tool, as a JSON tool call is
  (:func:`.records.submitted_calls`), not a statement. A call that submits (``Action: submit_answer("B")``,
  ``Action: Finish[391]``: a tool named by :data:`.records.ANSWER_TOOL_NAME`, or ``finish``) is the writer's answer
  and stays.

Only a text with an observation step is read this way (a lone ``Action:`` line elsewhere is read as written). A step is
its label's line; when the label stands alone on its line, the block under it up to a blank line; and the lines right
after it that continue it as a tool prints them (list items, numbered or bracketed results, quotes, table rows,
indented lines) -- never a line that opens another step or a line of prose. Each step left out is replaced by a line
break, so what surrounds it stays apart. Reconstructed rule (ours); one pass over the step labels and their lines.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re
from polyreward.verifiers.records import ANSWER_TOOL_NAME

# a step label opening a line ("Thought:", "Action 2:", "**Observation:**", "Observation (search, top 3):", "Action
# Input:", "Final Answer:", "Observación:", "观察："): an observation, a call or its input is captured by kind
_STEP = re.compile(r"^[ \t]*(?:[-*>][ \t]+)?(?:\*\*)?(?:"
                   r"(?P<observed>Observation|Tool[ \t]+(?:output|result|response)|Observaci[oó]n|Observa[cç][aã]o|Beobachtung|观察|観察)"
                   r"|(?P<input>Action[ \t]+Input|Input)"
                   r"|(?P<call>Action|Acci[oó]n|A[cç][aã]o|Aktion|行动|行動)"
                   r"|Thought|Final[ \t]+Answer|Answer|Question|Pensamiento|Pensée|Gedanke|思考)"
                   r"(?:[ \t]*\d{1,3})?(?:[ \t]*\([^()\n]{0,60}\))?[ \t]*(?:\*\*)?[ \t]*[:：](?:\*\*)?",
                   re.IGNORECASE | re.MULTILINE)
AGENT_STEP = _STEP  # (read by dialogues.py too: an agent's step label is no speaker's turn)
_ANY_OBSERVATION = re.compile(r"bserva|ool |eobachtung|观察|観察")
# a call that submits the answer: the tool's name before its argument ("submit_answer(", "Finish[", "final_answer")
_SUBMITS = re.compile(r"[ \t]*[`\"']?[\w.\-]*(?:" + ANSWER_TOOL_NAME.pattern + r"|finish)", re.IGNORECASE)
# a line that continues a tool's output: a list item, a numbered or bracketed result, a quote, a table row, an indent
_CONTINUES = re.compile(r"[ \t]+\S|[ \t]*(?:[-*•>|]|\[\d{1,3}\]|\d{1,3}[.)])[ \t]")


def _step_end(text: str, start: int, stop: int) -> int:
    """Where the step whose label ends at ``start`` ends (the next label is at ``stop``): module docstring."""
    line_end = text.find("\n", start, stop)
    if line_end < 0:
        return stop
    whole = not text[start:line_end].strip()  # the label alone on its line: the block under it is the step
    while line_end < stop:
        following = text.find("\n", line_end + 1, stop)
        following = stop if following < 0 else following
        line = text[line_end + 1:following]
        if not line.strip() or not (whole or _CONTINUES.match(line)):
            break
        line_end = following
    return line_end


def writer_steps(text: str) -> str:
    """``text`` without the steps of an agent's transcript that are not the writer's words (module docstring): its
    observations and its calls to tools that do not submit the answer, each replaced by a line break. A text with no
    observation step is returned unchanged."""
    if _ANY_OBSERVATION.search(text) is None:  # (speed)
        return text
    steps = list(_STEP.finditer(text))[:500]
    if not any(step.group("observed") for step in steps):
        return text
    parts, position, calling = [], 0, False
    for number, step in enumerate(steps):
        if step.group("call"):
            calling = _SUBMITS.match(text, step.end()) is None
        elif not step.group("input"):
            calling = False
        if step.group("observed") or calling and (step.group("call") or step.group("input")):
            stop = steps[number + 1].start() if number + 1 < len(steps) else len(text)
            parts.append(text[position:step.start()])
            parts.append("\n")
            position = _step_end(text, step.end(), stop)
    parts.append(text[position:])
    return "".join(parts)
