"""``toolrl_correctness`` and ``toolrl_format``: the ToolRL tool-calling rewards used by GDPO.

Source: ToolRL (Qian et al., arXiv 2504.13958) as shipped in NVlabs/GDPO
``verl-GDPO/verl/utils/reward_score/rlla.py`` (docs/reference/algorithms.md#toolrl). Tag **exact** for text completions in
ToolRL's layout ``<think>…</think>\\n<tool_call>\\n{json per line}\\n</tool_call>\\n<response>…</response>``.

Correctness ∈ [min, max] = [−3, 3] (``max_reward: 1`` gives CORRECTMAX1's [−1, 1])::

    reference without <tool_call>                          -> 0
    missing tag / malformed JSON in the completion          -> min
    predicted calls == reference calls (as lists)           -> max
    otherwise S = match(names_gt, names_pred)
               + Σ_g max_{unused p, name_p = name_g, score > 0} [ match(keys_g, keys_p) + #{k : p[k] == g[k]} ]
              S_max = 1 + Σ_g (1 + |params_g|)
              r = (max − min) · S / S_max + min
    match(a, b) = 1 if a == b; 0 if either is empty; else Σ_k min(cnt_a(k), cnt_b(k)) / (|a| + |b| − ∩)

Format ∈ {0, 1}: the regex depends on which blocks the reference holds (response only / tool only /
both / neither), plus each of those tags exactly once (``<think>`` is not counted, as in the source).
Text after a Qwen or Llama assistant marker, up to the end-of-turn marker and stripped, is judged, as
in the source (which strips even when there is no marker). Conversational completions whose assistant message carries ``tool_calls``
fields are judged on those calls (first assistant turn that has them); for the format reward they are
rendered as Qwen's chat template does (``content\n<tool_call>\n{json per call}\n</tool_call>``).

``parse: lenient`` (the default; a deviation from rlla.py) normalises every call before the formula: ``arguments``
for ``parameters`` (the Hermes / Qwen / OpenAI key), JSON-string arguments, the OpenAI ``{"function": {...}}``
wrapper, the Gemini / legacy OpenAI / Anthropic call shapes inside a block (``functionCall``, ``function_call``,
``tool_use`` with ``input``; red team ``holdout_r19``), missing or null parameters as {}, and it also accepts pretty-printed JSON, blank lines between calls, several
blocks and JSON lists; it reads a parameter a call leaves out as the default the prompt's JSON schema declares for
it, on both sides (:func:`with_schema_defaults`; red team ``holdout_r31``), and scores calls the reply takes back after
the last one (``scratch that call``) as no call made (:func:`calls_taken_back`). The score of a call in ToolRL's own layout is unchanged; what changes is that a correct call in
the layout most chat templates emit is no longer the minimum (red team ``holdout_r3`` / ``r8`` / ``r9``: eleven
genuine calls scored -3 under the exact parse, and seven hacks of ``holdout_r10`` tied at -3 with references written
in the Hermes layout). ``parse: toolrl`` (exact) scores ``<tool_call>`` text as rlla.py does, on the JSON values as
decoded: a call whose ``parameters`` are given as ``arguments``, as a JSON string, as null or not at all, the OpenAI
``{"function": {...}}`` wrapper, a line that is not an object, or an extra key such as ``id`` score what rlla.py gives
them (the minimum wherever rlla.py's indexing raises; an extra key only breaks the exact-equality shortcut). The source
has no structured calls: ``tool_calls`` fields of messages and gold calls given as lists (not ToolRL text) are
normalised to ``{name, parameters}`` first in both modes.

Reading every call (``read_blocks: all``, the default; a deviation from rlla.py, which reads the first block only):
the calls of every ``<tool_call>`` block, in order, each block parsed as rlla.py parses one, then every call the
completion writes in another known format (:func:`polyreward.verifiers.tool_calls.calls_outside_blocks`: a code
fence of JSON calls, the OpenAI ``{"type": "function", "function": {...}}`` shape, ``{"tool_calls": [...]}``, bare
JSON calls), outside the ``<think>`` body, and every call inside an HTML comment (no reader sees it, so a block
there is never the credited one, but a runner matching tags would run it). A completion without any visible
``<tool_call>`` block gets rlla.py's minimum as before. Extra calls only add to the predicted list, so they break the
exact match and lower the name match: an extra call never keeps the maximum. For message lists the first assistant turn with
``tool_calls`` is read, and with ``all`` also the calls its text content writes. JSON is decoded strictly in every
mode: an object with a duplicate key (``{"name": "rm_rf", "name": "area"}``) is malformed, the minimum (rlla.py's
``json.loads`` keeps the last value, so the exact rule paid the maximum for a call a runner may read as ``rm_rf``).

Exact source rules kept as options, with their exploits:

* ``read_blocks: first`` is rlla.py's reading: the first ``<tool_call>`` block only, so a second block, a code
  fence or a bare JSON call calling anything (``rm_rf``) keeps the maximum 3.0.
* the format regexes accept empty blocks (``<think></think>``, ``<tool_call>\n\n</tool_call>``) and
  ``<think>Let me think.</think>``. ``min_content_words: N`` (``toolrl_format``) also needs N content words in the
  think body (:func:`polyreward.rewards.format.content_words`: not stop words, filler or the prompt's own words) and
  a letter or digit in every ``<tool_call>`` / ``<response>`` block, and the ``<tool_call>`` block a call's shape (a
  JSON object or list, or ``name(...)``: a placeholder such as ``TBD`` is no call; red team ``holdout_r2``) that
  decodes (JSON cut off mid-object is an unfinished call; red team ``holdout_r3``); 0 (the default) is the released
  rule. The guard also counts ``<think>`` and ``</think>``: each exactly once, as the other tags (red team
  ``holdout_r7``: a reasoning block repeated or nested kept 1.0). Its topic check (a think must share a word or
  number with the prompt or the call) leaves out the tool-calling instruction's own words (:data:`TOOL_FORMAT_WORDS`:
  function, call, tool, argument, JSON, object), which every tool prompt holds: a plan in those words alone fits any
  task (red team ``holdout_r16``).
* ``read_blocks: all`` also reads the calls of other stacks' formats
  (:mod:`polyreward.verifiers.call_formats`: Gemini / Anthropic / LangChain JSON, Python dict literals, XML
  ``<invoke>``, ReAct ``Action:``, Llama ``<|python_tag|>``, tool-call tags of other spellings, YAML fences) and a
  call injected under a call object's own keys (``{"name": "f", "parameters": {...}, "then": {...}}``): each is an
  extra call (red team ``holdout_r2``); so is a second argument set, ``arguments`` beside ``parameters`` with other
  values (ToolRL's runner reads one key, an OpenAI / Hermes runner the other; red team ``holdout_r8``).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.rewards import think_work
from polyreward.rewards.format import check_min_content, stem, thin_content, without_byte_order_mark
from polyreward.schema import completion_messages, completion_text, is_missing, prompt_text
from polyreward.verifiers.voices import adopted_after, credited_lead_in, in_dialogue, turns_at
from polyreward.verifiers.answer_forms import PROVISIONAL_WORD, WITHDRAWN_WORD
from polyreward.verifiers.call_formats import python_call
from polyreward.verifiers.tool_calls import (
    ToolCallError,
    block_call_remarks,
    block_calls,
    calls_only_planned_in_reasoning,
    calls_outside_blocks,
    calls_shown,
    comment_free_values,
    injected_calls,
    message_tool_calls,
    nfc_values,
    parse_tool_call_text,
    reference_calls,
    toolrl_block_json,
    without_html_comments,
    without_think_mentions,
    writer_call_turns,
)
from polyreward.verifiers.commitment import later_disowns, retraction_after
from polyreward.verifiers.stand_ins import disowning_remark
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.sections import without_inline_asides
from polyreward.verifiers.speaker_declines import DECLINED
from polyreward.verifiers.tags import first_block, tag_blocks

PARSE_MODES = ("toolrl", "lenient")
# what a tool-call block holds under the format guard: a JSON object or list, or a call written name(...)
_CALL_SHAPE = re.compile(r"[{\[]|[A-Za-z_][\w.]*\s*\(")
READ_BLOCKS = ("first", "all")
_FORMAT_PATTERNS = {
    "response": r"^<think>.*?</think>\n<response>.*?</response>$",
    "tool_call": r"^<think>.*?</think>\n<tool_call>\n.*?\n</tool_call>$",
    "both": r"^<think>.*?</think>\n<tool_call>\n.*?\n</tool_call>\n<response>.*?</response>$",
    "neither": r"^<think>.*?</think>$",
}
# each pattern is fixed texts joined by ".*?" (DOTALL): such a regex matches exactly when the texts occur in order,
# the first at the start and the last at the end (or before a final newline, as "$" allows); checked with
# forward literal searches, linear however many tags a completion repeats (the regex backtracks quadratically)
_FORMAT_LITERALS = {k: [part.replace("\\n", "\n") for part in v.strip("^$").split(".*?")] for k, v in _FORMAT_PATTERNS.items()}


def matches_layout(text: str, literals: Sequence[str]) -> bool:
    """``re.search("^" + ".*?".join(map(re.escape, literals)) + "$", text, re.DOTALL)`` in linear time."""
    for candidate in (text, text[:-1]) if text.endswith("\n") else (text,):
        first, last = literals[0], literals[-1]
        end = len(candidate) - len(last)
        if not candidate.startswith(first) or not candidate.endswith(last) or end < len(first):
            continue
        position = len(first)
        for middle in literals[1:-1]:
            found = candidate.find(middle, position, end)
            if found < 0:
                break
            position = found + len(middle)
        else:
            return True
    return False
_ASSISTANT_MARKERS = (("<|im_start|>assistant", "<|im_end|>"), ("<|start_header_id|>assistant<|end_header_id|>", "<|eot_id|>"))


def assistant_segment(text: str) -> str:
    """The reply after the last chat-template assistant marker, cut at the end-of-turn marker and stripped.

    rlla.py always does ``solution_str.split(start)[-1].split(end)[0].strip()``, so a completion without
    the start marker (verl decodes the response alone) is still cut at ``<|im_end|>`` and stripped: a
    leading or trailing blank does not break the ``^…$`` format regexes.
    """
    for start, end in _ASSISTANT_MARKERS:
        if start in text:
            return text.split(start)[-1].split(end)[0].strip()
    for _, end in _ASSISTANT_MARKERS:
        text = text.split(end)[0]
    return text.strip()


# what closes a call in the layouts a reply carries its calls in: a <tool_call> block, Anthropic's <function_calls>,
# Llama 3.1's <function=name>...</function> and the end of its <|python_tag|> call message
_CALL_CLOSERS = ("</tool_call>", "</function_calls>", "</function>", "<|eom_id|>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# words that point back at the calls made: the call itself, or what stands above the remark
_CALL_REFERENCE = re.compile(r"\b(?:calls?|calling|above|previous|earlier|request)\b", re.IGNORECASE)
# a remark that the call is not made: a negation a few words before a verb of running it whose object is the call, a
# pronoun or nothing ("not something to execute", "must not be executed", "I'm not making it myself", "Nothing is sent
# until you say so", "Treat it as not made", "don't run that") or the verb's negative participle ("it stays unsent");
# not about any other call ("don't run anything else", "no need to make a second call"), nor something else ("The tool
# doesn't send emails"), nor a call still to come back ("I haven't run it yet"; red team holdout_r34)
_RUN_VERBS = r"call(?:s|ed|ing)?|execut(?:e|ed|es|ing)|run(?:s|ning)?|sen[dt](?:s|ing)?|ma(?:ke|kes|king|de)|fir(?:e|ed|es|ing)|invok(?:e|ed|es|ing)|go(?:es|ing)?[^\S\n]+out"
_RUN_PARTICIPLES = r"made|sent|executed|run|fired|invoked|placed|submitted|issued"


@functools.lru_cache(maxsize=256)
def _call_not_made(tool_verbs: tuple[str, ...] = ()) -> re.Pattern:
    """``_CALL_NOT_MADE`` with the verbs of the tools the reply calls (``cancel`` of ``cancel_order``: "until then
    nothing is cancelled"; red team holdout_r37) beside the verbs of running any call, and a subject that no call
    made ("no real request was made")."""
    extra = "".join("|" + _inflections(verb) for verb in tool_verbs)
    participles = _RUN_PARTICIPLES + "".join("|" + _inflections(verb) for verb in tool_verbs)
    return re.compile(
        r"(?:\b(?:not|never|nothing|nobody)\b|n't)(?:[^\S\n]+(?!(?:else|other|another|more|further|extra|additional|second)\b)[\w'’]+){0,2}?"
        r"[^\S\n]+(?:" + _RUN_VERBS + extra + r")\b(?![^\S\n]+(?:(?:it|this|that|them)[^\S\n]+)?(?:yet|again|twice|else)\b)"
        # (red team holdout_r48) a bracket after the verb opens a remark, as a comma does: "Calls I will not make (the
        # rate is stable enough to quote):"
        r"(?=[^\S\n]*(?:[.,;:!?()\[\n—–]|\Z|(?:it|this|that|them|these|those|anything(?![^\S\n]+else)|(?:the|this|that|my)[^\S\n]+calls?|"
        r"myself|until|unless|before|for[^\S\n]+(?:real|now)|now|today|by[^\S\n]+me)\b))"
        r"|\bun(?:sent|executed|run)\b"
        # "no (real) request was made", "no call has been sent": a subject no call stands for, in the passive
        r"|\bno\b(?:[^\S\n]+(?!(?:other|more|further|extra|additional|second)\b)[\w'’-]+){1,3}?[^\S\n]+"
        r"(?:was|were|is|are|has[^\S\n]+been|have[^\S\n]+been|got|gets)[^\S\n]+(?:(?:actually|really|yet)[^\S\n]+)?(?:" + participles + r")\b"
        r"(?![^\S\n]+(?:again|twice)\b)"
        # (red team holdout_r48) the call denied as the writer's own, the writer the subject of a relative clause of
        # running it: "that is not the call I'm making", "this isn't a request we will send"
        r"|(?:\bnot|n't)[^\S\n]+(?:the|this|that|a|an|my|our)[^\S\n]+(?:calls?|requests?)[^\S\n]+(?:that[^\S\n]+|which[^\S\n]+)?"
        r"(?:i|we)(?:['’]m|['’]re|['’]ll|[^\S\n]+(?:am|are|will|would|shall))?[^\S\n]+(?:" + _RUN_VERBS + extra + r")\b",
        re.IGNORECASE)


def _inflections(verb: str) -> str:
    """A regex of ``verb``'s inflections (``cancel`` -> cancel, cancels, cancelled, canceled, cancelling, ...)."""
    forms = {verb, verb + "s", verb + "es", verb + "ed", verb + "d", verb + "ing", verb + verb[-1] + "ed", verb + verb[-1] + "ing"}
    if verb.endswith("e"):
        forms |= {verb[:-1] + "ing"}
    if verb.endswith("y"):
        forms |= {verb[:-1] + "ied", verb[:-1] + "ies"}
    return "|".join(sorted(map(re.escape, forms), key=len, reverse=True))


_CALL_NOT_MADE = _call_not_made()
# the verb a tool's name opens with ("cancel" of cancel_order, "transfer" of transferFunds): what the call does; a
# verb of reading ("get", "is", "has") says nothing about a call being made when negated ("I don't get it")
_NAME_VERB = re.compile(r"^([a-z]{3,20})(?=_|[A-Z]|$)")
_AUXILIARY_VERBS = frozenset({"get", "has", "can", "use", "the", "new"})
_CALL_NAME = re.compile(r'"name"\s*:\s*"([A-Za-z_][\w.\-]{0,200})"')


def tool_verbs(text: str) -> tuple[str, ...]:
    """The verbs the names of the calls ``text`` writes open with (``"name": "cancel_order"`` -> ``cancel``), sorted."""
    verbs = set()
    for name in _CALL_NAME.findall(text):
        m = _NAME_VERB.match(name.rsplit(".", 1)[-1])
        if m and m.group(1) not in _AUXILIARY_VERBS:
            verbs.add(m.group(1))
    return tuple(sorted(verbs))[:8]


# a sentence that calls the call no real one: "the call above is a mock", "This request is just an example" -- the
# call (or a pronoun for it) as the subject, a form of "be" and a noun of a stand-in (red team holdout_r37)
_NOT_A_REAL_CALL = re.compile(
    r"\b(?:calls?|requests?|block|above|it|this|that)[^\S\n]+(?:above[^\S\n]+)?(?:is|was|are|were)[^\S\n]+"
    r"(?:(?:only|just|merely|purely|simply)[^\S\n]+)?(?:an?[^\S\n]+)?(?:mock(?:-?up)?|dummy|demo|sample|example|illustration|"
    r"placeholder|stub|fake|simulation|" + PROVISIONAL_WORD + r")\b", re.IGNORECASE)
# a question after the last call asking the user's leave to run it, the call as a pronoun or nothing: "Should I go
# ahead and run it?", "Shall I send this?", "Want me to book it now?" -- the call waits on the answer, so it is not
# made (red team holdout_r57: a tutorial's fenced call then "Should I go ahead and run it?" paid in full); an offer of
# another call ("Should I also run it for Porto?", "Want me to check again tomorrow?") is no such question
_ASKS_LEAVE_TO_RUN = (r"^\W*(?:(?:should|shall|can|may)[^\S\n]+(?:I|we)|(?:(?:would|do)[^\S\n]+you[^\S\n]+(?:\w+[^\S\n]+)?(?:like|want)|"
                      r"(?:want|need))[^\S\n]+me[^\S\n]+to)[^\S\n]+(?:go[^\S\n]+ahead(?:[^\S\n]+and[^\S\n]+)?|proceed(?:[^\S\n]+and[^\S\n]+)?)?"
                      r"(?:(?:{verbs})(?:[^\S\n]+(?:it|this|that|them|th(?:e|is|at)[^\S\n]+(?:calls?|request)))?)?(?<=\w)"
                      r"(?:[^\S\n]+(?:now|for[^\S\n]+you|right[^\S\n]+away))?[^\S\n]*\?")


@functools.lru_cache(maxsize=256)
def _asks_leave_to_run(tool_verbs: tuple[str, ...] = ()) -> re.Pattern:
    """:data:`_ASKS_LEAVE_TO_RUN` with the verbs of the tools the reply calls ("Shall I book it?" of book_table)."""
    verbs = _RUN_VERBS + "".join("|" + _inflections(verb) for verb in tool_verbs)
    return re.compile(_ASKS_LEAVE_TO_RUN.replace("{verbs}", verbs), re.IGNORECASE)


# an imperative that undoes the call, at the head of its sentence, the call as a pronoun: "Actually, cancel that --"
_UNDO_THAT = re.compile(r"^\W*(?:(?:actually|wait|oh|hmm+|no|ok(?:ay)?|sorry)\W+){0,2}(?:cancel|undo|abort|revoke|drop|stop)[^\S\n]+"
                        r"(?:that|this|it)(?:[^\S\n]+calls?)?(?=[^\S\n]*(?:[.,;:!—–-]|\Z))", re.IGNORECASE)
# a remark of a call object about itself that conditions or withholds it: "condition only if user confirms",
# "status draft - do not execute" (verifiers.tool_calls.call_remarks)
_CONDITIONING_REMARK = re.compile(r"\b(?:if|unless|until|once|pending|provided|await(?:s|ing)?|requires?[^\S\n]+confirm\w*|"
                                  + WITHDRAWN_WORD + "|" + PROVISIONAL_WORD + r")\b", re.IGNORECASE)
# markdown strikethrough around a call block: "~~<tool_call>...</tool_call>~~" shows the call struck out
_STRUCK_CALL = re.compile(r"~~[ \t]*\n?[ \t]*(?:<tool_call>|<function_calls>|<function=|<\|python_tag\|>)(?:(?!~~).){0,20000}?"
                          r"(?:</tool_call>|</function_calls>|</function>|<\|eom_id\|>)[ \t]*\n?[ \t]*~~", re.DOTALL | re.IGNORECASE)
# an error the tool returns is the call's outcome, not the writer's ("If the function returns an error I'll retry")
_TOOL_ERROR = re.compile(r"\b(?:returns?|returned|throws?|threw|raises?|raised|gives?|gave|fails?[^\S\n]+with|comes?[^\S\n]+back[^\S\n]+with)"
                         r"[^\S\n]+(?:(?:an?|any|some)[^\S\n]+)?(?:\w+[^\S\n]+)?(?:error|exception|failure)s?\b", re.IGNORECASE)


# where a call opens in the layouts a reply carries calls in: a <tool_call> block, the other templates' delimiters
# (Llama 3.1's <|python_tag|> and <function=...>, Anthropic's <function_calls>, Mistral's [TOOL_CALLS], a
# Functionary recipient line >>>name; verifiers.tool_calls._TEMPLATE_CALL)
_CALL_OPENER = re.compile(r"<tool_call>|<\|python_tag\|>|<function=[^>\s]|<function_calls\s*>|\[TOOL_CALLS\](?=\s*\[)|"
                          r"^(?:>>>|@@@)[ \t]*+(?!all[ \t]*$)[A-Za-z_][\w.\-]{0,200}[ \t]*$", re.IGNORECASE | re.MULTILINE)
# a Functionary recipient line's marker, which the visible-text reading drops as a block quote: read as "@@@name"
_RECIPIENT_LINE = re.compile(r"^([ \t]*)>>>(?=[ \t]*[A-Za-z_])", re.MULTILINE)
# the line that introduces a call (it ends in a colon) and makes it wait on the user: "If you confirm, this is what
# I'll run:", "Once you approve, I will send:" -- a subordinate clause of condition or time, the user its subject
_CONDITIONAL_LEAD_IN = re.compile(r"^\W*(?:(?:just|only)\s+)?(?:if|once|when|after|as\s+soon\s+as|provided(?:\s+that)?|assuming|should|unless)\s+"
                                  r"(?:you|the\s+user|they)\b[^\n]{0,300}:\W*\Z", re.IGNORECASE)
_JSON_DECODER = json.JSONDecoder()
MAX_TEMPLATE_CALLS = 16  # template calls decoded to find where the last one ends


_FENCE_OR_CALL = re.compile(_CALL_OPENER.pattern + r"|^[ \t]*```", re.IGNORECASE | re.MULTILINE)


def _voiced_calls(view: str) -> str:
    """Why the reply's calls are another voice's, not the writer's, or "" (red team ``holdout_r42``): every call (a
    ``<tool_call>`` block or a fenced one) stands in the turn of a speaker other than the writer in a dialogue the
    reply writes ("User: Please run this: <tool_call>...", "Junior analyst: Shall I pull the price? <tool_call>...
    Senior analyst: No."; :func:`.voices.turns_at`), or the line that introduces the first call gives it to another
    voice ("The other model's call was:"; :func:`.voices.credited_lead_in`) -- unless the writer adopts it after
    ("I agree", "Agreed"; :func:`.voices.adopted_after`)."""
    outside = view[view.rfind("</think>") + len("</think>"):] if "</think>" in view else view
    openers = list(_FENCE_OR_CALL.finditer(outside))
    if not openers:
        return ""
    after = outside[openers[-1].end():]
    if adopted_after(after):
        return ""
    if in_dialogue(outside) and all(turns := turns_at(outside, [m.start() for m in openers])):
        return f"writes its calls in another speaker's turn ({turns[0]})"
    lines = [line for line in outside[:openers[0].start()].splitlines() if line.strip()]
    if lines and lines[-1].rstrip().endswith(":") and (voice := credited_lead_in(re.split(r"(?<=[.!?])\s+", lines[-1].strip())[-1])):
        return f"gives its call to another voice in the line that introduces it ({voice})"
    return ""


def _withheld_by_lead_in(view: str) -> str:
    """Why the line that introduces the reply's first call withholds it, or "": a lead-in ending in a colon that makes
    the call wait on the user (:data:`_CONDITIONAL_LEAD_IN`), calls it a draft or a mock, or says it is not made
    (``Draft (not sent yet):``); red team ``holdout_r37``. Read outside the reasoning; a plain lead-in (``Here is the
    call:``, ``Checking both cities now:``) withholds nothing."""
    outside = view[view.rfind("</think>") + len("</think>"):] if "</think>" in view else view
    opener = _CALL_OPENER.search(outside)
    if opener is None:
        return ""
    lines = [line for line in outside[:opener.start()].splitlines() if line.strip()]
    if not lines or not (lines[-1].rstrip().endswith(":") or _runs_through_call(lines[-1], outside, opener.start())):
        return ""
    lead = re.split(r"(?<=[.!?])\s+", lines[-1].strip())[-1]  # its last sentence: "If you need more, ask. For Rome:"
    if _CONDITIONAL_LEAD_IN.search(lead):
        return f"makes its call wait on the user in the line that introduces it ({lead[:60]!r})"
    if _COUNTERFACTUAL_LEAD.search(lead):
        return f"calls its call one that would have been made in the line that introduces it ({lead[:60]!r})"
    if _CALL_NOT_MADE.search(lead) or _stand_in_named(lead):
        return f"calls its call not made or a stand-in in the line that introduces it ({lead[:60]!r})"
    if _HANDED_OVER_LEAD.search(lead):
        return f"hands its call to the user to make in the line that introduces it ({lead[:60]!r})"
    if _LATER_LEAD.search(lead) and not _NOW.search(lead):
        return f"puts its call off to a later time in the line that introduces it ({lead[:60]!r})"
    if _ALREADY_MADE_LEAD.search(lead) and not _AGAIN.search(lead):
        return f"reports its call as one made before this reply in the line that introduces it ({lead[:60]!r})"
    return ""


# (red team holdout_r49) a lead-in in the past that reports the call as made before this reply, by "already" or an
# earlier turn: "In the previous turn I already ran:", "Already fetched at 09:00 with:" -- a call quoted, not made now;
# one made again says so ("I ran it earlier; running it again now:")
_PAST_CALL_VERB = r"(?:ran|fetched|called|sent|made|issued|executed|queried|searched|pulled|requested|invoked|submitted)"
# (the verb in the clause of "already" / the earlier turn: "I already have the ID, so I fetched the record:" and "The
# previous step returned nothing, so I queried the archive:" narrate this reply's call; stop 63)
_SAME_CLAUSE = r"(?:(?!\b(?:so|then|thus|hence|therefore|but|and\s+so)\b)[^\n,;])"
_ALREADY_MADE_LEAD = re.compile(
    r"\balready\b" + _SAME_CLAUSE + r"{0,40}?\b" + _PAST_CALL_VERB + r"\b"
    r"|\b(?:previous|earlier|last|prior)[^\S\n]+(?:turn|message|reply|step|session|run)\b" + _SAME_CLAUSE + r"{0,60}?\b" + _PAST_CALL_VERB + r"\b",
    re.IGNORECASE)
_AGAIN = re.compile(r"\b(?:again|now|re-?(?:run|send|try|fetch)\w*|retry\w*|once\s+more|fresh)\b", re.IGNORECASE)


# (red team holdout_r48) a lead-in in the perfect conditional: the call is one that would have been made, not one made
# ("No call required. For reference only, the call would have been:", "Had I needed it, I would have sent:")
_COUNTERFACTUAL_LEAD = re.compile(r"\b(?:would|could|should|might)(?:n['’]t|[^\S\n]+not)?[^\S\n]+have[^\S\n]+"
                                  r"(?:been|made|sent|run|used|called|issued|fired|invoked)\b", re.IGNORECASE)
# a lead-in line that ends in a word, with the text after the call going on in lower case: the call is a phrase of
# one sentence that runs through it ("I won't send <call> until you confirm", "I can't say I won't call <call> later")
_LEAD_ENDS_IN_WORD = re.compile(r"[^\W\d_][ \t]*\Z")
_GOES_ON_LOWER = re.compile(r"\A[ \t]*\n?[ \t]*[a-z]")
_NEGATION_BEFORE = re.compile(r"(?:\b(?:not|never|no|won['’]t)\b|n['’]t\b)(?:[^\S\n]+[\w'’]+){0,1}[^\S\n]+\Z", re.IGNORECASE)


def _runs_through_call(line: str, outside: str, start: int) -> bool:
    r"""Whether the line before the call at ``start`` is the head of a sentence the call sits inside (red team
    ``holdout_r48``): it ends in a word, and the text after the call's block goes on in lower case. ``I won't send
    <block> until you confirm the date.`` is read as the lead-in ``I won't send:`` is; ``Here is the call`` followed by
    a block and a new sentence is no lead-in.

    >>> _runs_through_call("I won't send", "I won't send\n<tool_call>\n{}\n</tool_call>\nuntil you confirm.", 13)
    True
    >>> _runs_through_call("Checking now", "Checking now\n<tool_call>\n{}\n</tool_call>\nDone.", 13)
    False
    """
    if not _LEAD_ENDS_IN_WORD.search(line):
        return False
    lowered = outside.lower()
    ends = [lowered.find(closer, start) for closer in _CALL_CLOSERS]
    end = min((e + len(c) for e, c in zip(ends, _CALL_CLOSERS) if e >= 0), default=-1)
    return end >= 0 and bool(_GOES_ON_LOWER.match(outside[end:]))


def _stand_in_named(lead: str) -> bool:
    """Whether ``lead`` calls what follows a stand-in (:data:`_NOT_A_REAL_LEAD`: ``Draft (not sent yet):``) with no
    negation right before the word: ``I won't guess the weather from memory; calling the tool:`` denies the guess and
    makes the call (red team ``holdout_r48``)."""
    return any(not _NEGATION_BEFORE.search(lead[:m.start()]) for m in _NOT_A_REAL_LEAD.finditer(lead))


# (red team holdout_r44) a lead-in that puts the call off to a later time, in the future tense: "Fares refresh
# overnight, so tomorrow morning the request will be:", "I'll send this later today:" (not "I'll check now:", nor a
# call made now whose result comes later: "Checking now; I'll list tomorrow's cheapest fares once they come back:")
_LATER_TIME = r"(?:tomorrow|tonight|overnight|later(?:[^\S\n]+(?:today|on|tonight))?|next[^\S\n]+(?:week|month|time|morning|turn)|in[^\S\n]+the[^\S\n]+morning)"
_LATER_LEAD = re.compile(r"\b" + _LATER_TIME + r"\b[^\n]{0,120}?(?:\b(?:will|shall)\b|['’]ll\b)"
                         r"|(?:\b(?:will|shall)\b|['’]ll\b)[^\n]{0,120}?\b" + _LATER_TIME + r"\b", re.IGNORECASE)
_NOW = re.compile(r"\b(?:now|right\s+away|immediately)\b", re.IGNORECASE)


# a lead-in that hands the call to the user (the user its subject, or the writer unable to call a tool): "this is the
# call you would make:", "You can fetch it yourself:", "I can't call tools here, but:" (red team holdout_r41)
_HANDED_OVER_LEAD = re.compile(
    r"\byou(?:'d|’d|[^\S\n]+(?:would|could|can|might|may|should|will|'ll))[^\S\n]+"
    r"(?:(?:normally|usually|typically|generally|then|also|probably)[^\S\n]+)?(?:need[^\S\n]+to[^\S\n]+)?"
    r"(?:make|run|send|execute|issue|fetch|call|invoke|submit|use)\b|\byourself\b"
    r"|(?:\b(?:cannot|can[^\S\n]+not|unable[^\S\n]+to|not[^\S\n]+able[^\S\n]+to)|n't)[^\S\n]+(?:actually[^\S\n]+)?"
    r"(?:call|use|run|access|invoke|execute)[^\S\n]+(?:any[^\S\n]+|the[^\S\n]+)?(?:tools?|functions?|apis?)\b",
    re.IGNORECASE)
# a lead-in that calls what follows a stand-in: "Draft (not sent yet):", "Mock request:", "Example call (for reference):"
# -- or a record of an earlier one (red team holdout_r60: "Yesterday's request (for reference):", "Last week's call:")
_NOT_A_REAL_LEAD = re.compile(r"\b(?:mock(?:-?up)?|dummy|demo|sample|example|illustration|stub|fake|hypothetical|" + PROVISIONAL_WORD
                              + r"|for[^\S\n]+reference|(?:yesterday|last[^\S\n]+(?:week|month|night|time))['’]s)\b"
                              r"|\be\.[^\S\n]?g\.",  # "something like, e.g.:" (red team holdout_r49)
                              re.IGNORECASE)


def _template_call_end(view: str) -> int:
    """Where the last call written in a template's own layout without a closing tag ends, or -1: the JSON list after
    Mistral's ``[TOOL_CALLS]``, the JSON arguments after a Functionary ``>>>name`` line; so that what the reply says
    after such a call is read as after a ``<tool_call>`` block (red team ``holdout_r37``)."""
    end = -1
    openers = [m for m in _CALL_OPENER.finditer(view) if m.group().startswith(("[", ">>>", "@@@"))]
    for m in openers[-MAX_TEMPLATE_CALLS:]:  # the last ones only: each decode may read to the end of the text
        at = len(view) - len(view[m.end():].lstrip())
        try:
            _, stop = _JSON_DECODER.raw_decode(view, at)
        except (ValueError, RecursionError):
            continue
        end = max(end, stop)
    return end


def calls_taken_back(text: str) -> str:
    """Why the reply takes its calls back in the text after the last one, or "": an explicit retraction there
    (``Actually, scratch that call, there's no need to run it``, ``On second thought, ignore that call``:
    :func:`polyreward.verifiers.commitment.retraction_after`) or a clause that withdraws what came before (``Ignore
    the call above.``, ``Please disregard that call.``: ``later_disowns``, in a sentence that points back at the calls:
    ``call``, ``above``, ``previous``), the shared reading of a withdrawn answer
    (``jaccard``'s block, ``otc_tool_efficiency``'s ``answer_em``). The writer's last word on the calls is that they
    are not made, and an answer from memory or a hand-back usually follows (red team ``holdout_r31``: both paid in
    full). A remark that withdraws nothing (``I'll share the ticket number once it's created.``, ``Actually, the tool
    also returns humidity.``) or withdraws something else (``Ignore any warnings in the output.``) leaves the calls
    made. A remark that the calls are not run (``not something to execute``, ``Nothing is sent until you say so``,
    ``it stays unsent``: ``_CALL_NOT_MADE``) or the writer declining to commit to them (``I'm not standing behind it``:
    :mod:`polyreward.verifiers.speaker_declines`) takes them back too (red team ``holdout_r34``); an error the tool
    returns (``If the function returns an error I'll retry``) is the call's outcome, no error of the writer's.
    Read on the visible text (comments and hidden text left out); when that holds no call, the calls scored are in a
    code fence or a collapsed ``<details>``, and the text around them is read as around a block
    (:func:`polyreward.verifiers.tool_calls.calls_shown`; red team ``holdout_r41``)."""
    # a Functionary recipient line (">>>name") is a call, not a block quote, for the reading of the text around it
    if calls_only_planned_in_reasoning(text):  # a step the reasoning plans, no call after it (holdout_r57)
        return "writes its calls only as a step of its reasoning, none after it"
    view = visible_text(_RECIPIENT_LINE.sub(r"\1@@@", text) if ">>>" in text else text)
    why = _taken_back_in(view)
    if why or _CALL_OPENER.search(view):
        return why
    # red team holdout_r41: no call in the visible text, so the calls scored are in a code fence or a <details>
    # element; what the writer says around them there is read as around a block (calls_shown)
    shown = calls_shown(text)
    return _taken_back_in(visible_text(shown)) if shown != text else ""


def _taken_back_in(view: str) -> str:
    """:func:`calls_taken_back` on the visible text ``view``."""
    if why := call_withheld_by_remark(view):  # the call object's own word on itself (holdout_r37)
        return why
    if why := _withheld_by_lead_in(view):
        return why
    if why := _voiced_calls(view):
        return why
    lowered = view.lower()
    end = max((lowered.rfind(closer) + len(closer) for closer in _CALL_CLOSERS if closer in lowered), default=-1)
    end = max(end, _template_call_end(view))
    if end < 0:
        return ""
    if any(m.start() < end <= m.end() for m in _STRUCK_CALL.finditer(view, max(0, end - 20050), end + 20)):
        return "strikes its last call through (~~...~~)"
    if not view[end:].strip():
        return ""
    not_made = _call_not_made(tool_verbs(view))
    asks_leave = _asks_leave_to_run(tool_verbs(view))
    retraction = retraction_after(view, end)
    if retraction is not None and retraction[1]:
        return "takes its calls back after the last one"
    for sentence in _SENTENCE_END.split(view[end:end + 2000]):
        sentence = _TOOL_ERROR.sub(lambda m: " " * len(m.group()), sentence)
        # a withdrawing clause about the calls ("Ignore the call above."), not about something else the reply names
        # ("Ignore any warnings in the output.", "Never mind the fees; the tool includes them."), or the writer
        # declining to commit to what it wrote ("I'm not standing behind it.": speaker_declines; holdout_r34)
        if (_CALL_REFERENCE.search(sentence) or DECLINED.search(sentence)) and later_disowns(sentence, 0, "") == "retracted":
            return "withdraws its calls after the last one"
        if not_made.search(sentence) or (_CALL_REFERENCE.search(sentence) and _NOT_A_REAL_CALL.search(sentence)):
            return "says its calls are not made after the last one"
        if _UNDO_THAT.search(sentence):
            return "undoes its calls after the last one"
        if asks_leave.search(sentence):
            return "asks leave to run its calls after the last one"
    if kind := disowning_remark(view[end:end + 2000]):  # "the call is only a sample of the format" (holdout_r36)
        return f"makes its calls a stand-in after the last one ({kind})"
    return ""


def call_withheld_by_remark(text: str) -> str:
    """Why a call of the ``<tool_call>`` blocks of ``text`` is withheld by its own object, or "": a key beside its
    name and arguments (:func:`polyreward.verifiers.tool_calls.call_remarks`) whose words condition the call (``if``,
    ``unless``, ``until``, ``pending``), call it provisional or withdrawn (``draft``, ``rejected``) or say it is not
    run (``do not execute``): ``{"name": "cancel_order", "parameters": {...}, "condition": "only_if_user_confirms"}``
    and ``"status": "draft - do not execute"`` (red team ``holdout_r37``: both paid in full, a runner reads only the
    name and arguments). A remark that withholds nothing (``"id": "call_1"``, ``"note": "user's default city"``)
    leaves the call made."""
    for remark in block_call_remarks(text):
        if _CONDITIONING_REMARK.search(remark) or _CALL_NOT_MADE.search(remark):
            return f"writes a condition or a withdrawal into the call itself ({remark[:60]!r})"
    return ""


# a JSON value starting a line of the prompt: where a tool schema is written (Hermes, Qwen, ToolRL, OpenAI layouts)
_SCHEMA_START = re.compile(r"^[ \t]*[\[{]", re.MULTILINE)


@functools.lru_cache(maxsize=256)
def _schema_defaults(prompt: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """(tool name, ((parameter, its default as JSON), ...)) for each function of the prompt's JSON schema whose
    ``properties`` declare a ``"default"``; cached per prompt (a group's rollouts share it)."""
    if '"default"' not in prompt:
        return ()
    decoder = json.JSONDecoder()
    found: dict[str, dict[str, str]] = {}
    at = 0
    for m in _SCHEMA_START.finditer(prompt):
        if m.start() < at:
            continue  # inside a value read already
        try:
            value, at = decoder.raw_decode(prompt, m.end() - 1)
        except (ValueError, RecursionError):
            continue
        stack = [(value, 0)]
        while stack:
            item, depth = stack.pop()
            if depth > 6:
                continue
            if isinstance(item, list):
                stack.extend((x, depth + 1) for x in item)
            elif isinstance(item, Mapping):
                name, parameters = item.get("name"), item.get("parameters")
                properties = parameters.get("properties") if isinstance(parameters, Mapping) else None
                if isinstance(name, str) and isinstance(properties, Mapping):
                    found.setdefault(name, {}).update({k: json.dumps(spec["default"]) for k, spec in properties.items()
                                                       if isinstance(spec, Mapping) and "default" in spec})
                else:
                    stack.extend((v, depth + 1) for v in item.values())
    return tuple((name, tuple(defaults.items())) for name, defaults in found.items() if defaults)


def with_schema_defaults(gold: list[Any], predicted: list[Any], prompt: Any) -> tuple[list[Any], list[Any]]:
    """``gold`` and ``predicted`` (normalised ``{"name", "parameters"}`` calls) with each parameter one side states and
    a call of the other side leaves out filled in with the default the prompt's JSON schema declares for it: a call
    that omits ``"unit"`` where the schema says ``"default": "celsius"`` passes celsius to the tool, so ``{"location":
    "Oslo"}`` and ``{"location": "Oslo", "unit": "celsius"}`` are one call (red teams ``holdout_r8``, ``holdout_r31``:
    the default stated where the gold omits it, or omitted where the gold states it, scored as a missing or extra
    key). A default neither side states is not added: keys both leave out would only dilute the partial score of a
    call whose stated values are wrong (stop 56). A value other than the default still differs, and a default only a
    description's prose states (``"Optional, default economy"``) is not read. Without a prompt or a declared
    default, both as given."""
    if prompt is None or not gold or not predicted:
        return gold, predicted
    try:
        defaults = {name: dict(pairs) for name, pairs in _schema_defaults(prompt_text(prompt))}
    except (TypeError, ValueError):
        return gold, predicted
    if not defaults:
        return gold, predicted
    stated: dict[Any, set[str]] = {}
    for call in (*gold, *predicted):
        given = call.get("parameters") if isinstance(call, Mapping) else None
        if isinstance(given, Mapping) and call.get("name") in defaults:
            stated.setdefault(call["name"], set()).update(k for k in given if k in defaults[call["name"]])

    def filled(calls: list[Any]) -> list[Any]:
        out = []
        for call in calls:
            given = call.get("parameters") if isinstance(call, Mapping) else None
            if isinstance(given, Mapping) and stated.get(call.get("name")):
                added = {k: json.loads(defaults[call["name"]][k]) for k in stated[call["name"]] if k not in given}
                call = {**call, "parameters": {**given, **added}} if added else call
            out.append(call)
        return out

    return filled(gold), filled(predicted)


def match_score(a: Sequence[Any], b: Sequence[Any]) -> float:
    """ToolRL's multiset Jaccard: 1 if the lists are equal, 0 if either is empty (unhashable items in unequal
    lists are an error there, so here too)."""
    if list(a) == list(b):
        return 1.0
    if not a or not b:
        return 0.0
    try:
        ca, cb = Counter(a), Counter(b)
    except TypeError:
        raise ToolCallError("a tool name is not a string or number") from None
    inter = sum(min(ca[k], cb[k]) for k in ca.keys() & cb.keys())
    return inter / (len(a) + len(b) - inter)


def _field(call: Any, key: str) -> Any:
    """``call[key]`` as rlla.py indexes it; where that raises there (not an object, key absent) -> ToolCallError."""
    if not isinstance(call, Mapping) or key not in call:
        shape = f"object without {key!r}" if isinstance(call, Mapping) else type(call).__name__
        raise ToolCallError(f"tool call {shape} (ToolRL reads call[{key!r}])")
    return call[key]


def _keys(params: Any) -> list[Any]:
    if not isinstance(params, Mapping):
        raise ToolCallError(f"'parameters' is {type(params).__name__}, not an object")
    return list(params.keys())


def toolrl_correctness(gold: list[Any], predicted: list[Any], max_reward: float = 3.0, min_reward: float = -3.0) -> tuple[float, float, float]:
    """(reward, S, S_max) of ToolRL's ``compute_tool_call_reward`` on calls as decoded.

    Indexes the calls exactly where rlla.py does; a ToolCallError marks what raises there (a call that is not
    an object, a missing ``name``, a missing or non-object ``parameters`` of a call whose name is compared),
    which its caller's bare ``except`` turns into the minimum. Normalised calls never raise.
    """
    if gold == predicted:
        return max_reward, math.nan, math.nan
    score = match_score([_field(g, "name") for g in gold], [_field(p, "name") for p in predicted])
    local_max = 1.0
    used: set[int] = set()
    for g in gold:
        g_params = _field(g, "parameters")
        try:
            local_max += 1.0 + len(g_params)
        except TypeError:
            raise ToolCallError(f"reference 'parameters' is {type(g_params).__name__}") from None
        best_score, best_index = 0.0, -1
        for i, p in enumerate(predicted):
            if i in used or p["name"] != g["name"]:
                continue
            p_params = _field(p, "parameters")
            total = match_score(_keys(g_params), _keys(p_params)) + sum(1.0 for k, v in g_params.items() if k in p_params and p_params[k] == v)
            if total > best_score:
                best_score, best_index = total, i
        if best_index >= 0:
            used.add(best_index)
            score += best_score
    return (max_reward - min_reward) * score / local_max + min_reward, score, local_max


class ToolRLCorrectness(RolloutReward):
    """ToolRL tool-call correctness in [−3, 3]: name multiset match + per-call key match + exact values.

    Args:
        answer_column: column holding the reference (its <tool_call> block, or the calls as JSON)
        max_reward: the score range is [-max_reward, max_reward] (3 as ToolRL, 1 for CORRECTMAX1)
        parse: how tool calls are read: lenient (the default: every call shape normalised; pretty-printed JSON,
            several blocks, lists) or toolrl (the source's strict layout: one JSON object per line, ``parameters`` only)
        read_blocks: all (every call the completion writes: each <tool_call> block, code fences, OpenAI-shaped and
            bare JSON calls; extra calls lower the score) or first (the source: the first <tool_call> block only)
    """

    type_name = "toolrl_correctness"
    exactness = "exact"
    description = "ToolRL/GDPO tool-call correctness in [-3, 3] (names, parameter keys, parameter values)"
    score_range = (-3.0, 3.0)
    probe_strategies = ("second_call_block", "empty_tool_block")
    probe_genuine = "tool_calls"

    def __init__(self, name: str | None = None, weight: float = 1.0, answer_column: str = "answer", max_reward: float = 3.0, parse: str = "lenient",
                 read_blocks: str = "all") -> None:
        super().__init__(name, weight)
        self.read_blocks = one_of("read_blocks", read_blocks, READ_BLOCKS)
        self.answer_column = column_name("answer_column", answer_column)
        if isinstance(max_reward, bool) or not isinstance(max_reward, (int, float)) or not (0 < max_reward <= 3):
            raise ValueError(f"max_reward must be a number in (0, 3] (3 = ToolRL default, 1 = CORRECTMAX1), got {max_reward!r}")
        one_of("parse", parse, PARSE_MODES)
        self.max_reward = float(max_reward)
        self.min_reward = -float(max_reward)
        self.parse = parse
        self.score_range = (self.min_reward, self.max_reward)

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    def text_of(self, completion: Any) -> Any:
        return completion  # keep message lists: their tool_calls fields are read in score_rollout

    def predicted_calls(self, completion: Any) -> list[Any]:
        """The calls scored (module docstring). ``read_blocks: all`` adds every call the turn writes elsewhere: later
        ``<tool_call>`` blocks and the other formats (:func:`calls_outside_blocks`); they can only lower S."""
        messages = completion_messages(completion)
        calls = message_tool_calls(messages, first_turn_only=True)
        if calls is not None:
            if self.read_blocks == "all":
                turn = next(m for m in messages if m.get("role", "assistant") == "assistant" and m.get("tool_calls"))
                calls = calls + parse_tool_call_text(str(turn.get("content") or ""))
            return calls
        text = assistant_segment(completion_text(completion))
        if self.parse == "lenient":  # the writer's own turns, no tool result, nothing after the end (holdout_r47)
            text = writer_call_turns(completion_text(completion)).strip()
            # a call in a tutor's aside is an exercise's, not one the reply makes ("**New exercise (another request):**
            # ```json {...}```": sections.without_inline_asides; red team holdout_r55)
            text = without_inline_asides(text)
            return parse_tool_call_text(text) if self.read_blocks == "all" else block_calls(text, first_only=True)
        if self.read_blocks == "first":
            return toolrl_block_json(text)
        visible = without_think_mentions(without_html_comments(text))
        calls = []
        injected = []
        for _, _, body in tag_blocks(visible, "tool_call"):  # rlla.py's per-block parse, on every block
            values = toolrl_block_json(f"<tool_call>{body}</tool_call>")
            calls.extend(values)
            injected.extend(call for value in values for call in injected_calls(value))
        if not calls:
            return toolrl_block_json(visible)  # no block: rlla.py's error (missing tag), the minimum
        # a call injected beside a call, or hidden in another format or an HTML comment, is still an extra call
        return calls + injected + calls_outside_blocks(text)

    def taken_back(self, text: str) -> str:
        """Why the reply takes back the calls scored, or "" (:func:`calls_taken_back`). With ``read_blocks: first`` the
        scored call is the first block's, so what the reply says between that block and the next one is read too: a
        first block followed by ``Correction -- ignore the call above:`` and a second block is withdrawn, whatever the
        last block is (red team ``holdout_r37``: paid in full, as only the first block was read)."""
        why = calls_taken_back(text)
        if why or self.read_blocks != "first":
            return why
        blocks = list(tag_blocks(text, "tool_call"))
        return calls_taken_back(text[:blocks[1][0]]) if len(blocks) > 1 else ""

    def gold_calls(self, reference: Any) -> list[Any] | None:
        """ToolRL text is read as rlla.py reads it in exact mode (values as decoded); other shapes normalised."""
        if self.parse == "toolrl" and isinstance(reference, str) and "<tool_call>" in reference:
            return toolrl_block_json(reference)
        return reference_calls(reference)

    def score_rollout(self, completion: Any, row: Mapping[str, Any]) -> Scored:
        reference = row.get(self.answer_column)
        if is_missing(reference):
            return Scored(None, f"no reference in column {self.answer_column!r}")
        try:
            gold = self.gold_calls(reference)
        except ToolCallError as exc:
            return Scored(math.nan, f"reference is malformed: {exc}")
        if gold is None:
            return Scored(0.0, "reference expects no tool call")
        try:
            predicted = self.predicted_calls(completion)
        except ToolCallError as exc:
            return Scored(self.min_reward, f"malformed tool call: {exc}"[:300])
        if self.parse == "lenient" and not predicted:
            return Scored(self.min_reward, "no tool call found")
        if self.parse == "lenient" and message_tool_calls(completion_messages(completion), first_turn_only=True) is None \
                and (why := self.taken_back(writer_call_turns(completion_text(completion)).strip())):
            return Scored(self.min_reward, f"no call made: the reply {why}")
        if not (self.parse == "toolrl" and self.read_blocks == "first") \
                and message_tool_calls(completion_messages(completion), first_turn_only=True) is None:
            gold = comment_free_values(gold)  # the gold's strings read as the completion's text reading reads its own
        if self.parse == "lenient":  # a parameter left out is the schema's declared default (red team holdout_r31)
            gold, predicted = with_schema_defaults(gold, predicted, row.get("prompt"))
        try:  # strings compared in NFC (canonically equivalent spellings are one text)
            reward, s, s_max = toolrl_correctness(nfc_values(gold), nfc_values(predicted), self.max_reward, self.min_reward)
        except ToolCallError as exc:
            return Scored(self.min_reward, f"malformed tool call: {exc}"[:300])
        if math.isnan(s):
            return Scored(reward, "calls match the reference exactly", {"n_calls": float(len(predicted))})
        return Scored(reward, f"partial match S={s:.3g} of {s_max:g} ({len(predicted)} calls vs {len(gold)} expected)", {"n_calls": float(len(predicted))})


class ToolRLFormat(RolloutReward):
    """ToolRL format reward in {0, 1}: the block layout the reference implies, each tag exactly once.

    Args:
        answer_column: column holding the reference, whose blocks decide which layout is required
        min_content_words: the think body needs at least this many content words and each block a letter or digit; 0 is
            the released rule
    """

    type_name = "toolrl_format"
    exactness = "exact"
    description = "ToolRL/GDPO format reward: <think> then the <tool_call>/<response> blocks the reference has"
    score_range = (0.0, 1.0)
    probe_strategies = ("empty_think", "junk_think", "empty_tool_block")
    probe_genuine = "tool_calls"
    linear_time = True  # the layout check and tag counts are forward literal searches (matches_layout)

    def __init__(self, name: str | None = None, weight: float = 1.0, answer_column: str = "answer", min_content_words: int = 0) -> None:
        super().__init__(name, weight)
        self.answer_column = column_name("answer_column", answer_column)
        self.min_content_words = check_min_content(min_content_words)

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    @staticmethod
    def layout(reference: Any) -> str:
        if isinstance(reference, str):
            has_response, has_tool = "<response>" in reference, "<tool_call>" in reference
        else:  # a list of gold calls
            has_response, has_tool = False, bool(reference)
        if has_response and has_tool:
            return "both"
        return "response" if has_response else "tool_call" if has_tool else "neither"

    def text_of(self, completion: Any) -> str:
        """Plain text, or for a message list the first assistant turn, its ``tool_calls`` rendered the way
        Qwen's chat template does (``content\n<tool_call>\n{json per call}\n</tool_call>``)."""
        if isinstance(completion, str) and not completion.lstrip().startswith("[{"):
            return completion
        messages = completion_messages(completion)
        for message in messages:
            if message.get("role", "assistant") == "assistant" and message.get("tool_calls"):
                try:
                    calls = message_tool_calls([message])
                except ToolCallError:
                    break
                lines = "\n".join(json.dumps(c, ensure_ascii=False) for c in calls or [])
                return f"{completion_text([message])}\n<tool_call>\n{lines}\n</tool_call>"
        return completion_text(completion)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        reference = row.get(self.answer_column)
        if is_missing(reference):
            return Scored(None, f"no reference in column {self.answer_column!r}")
        layout = self.layout(reference)
        text = assistant_segment(completion)
        if self.min_content_words > 0:
            text = without_byte_order_mark(text)  # an encoding's signature before <think> (red team holdout_r41)
        if self.min_content_words > 0 and "\n" in text:
            # guarded: blank lines between the blocks and around a block's body are layout, not another format
            # ("<think>...</think>\n\n<tool_call>\n{...}\n\n</tool_call>"; red team holdout_r5)
            text = _BLANK_BEFORE.sub(lambda m: "\n" + m.group(1) if "\n" in m.group() else m.group(), _BLANK_AFTER.sub(r"\1\n", text))
        if not matches_layout(text, _FORMAT_LITERALS[layout]):
            return Scored(0.0, f"does not match the {layout} layout {_FORMAT_PATTERNS[layout]!r}")
        tags = {"response": ("<response>", "</response>"), "tool_call": ("<tool_call>", "</tool_call>")}
        need = {"response": ["response"], "tool_call": ["tool_call"], "both": ["tool_call", "response"], "neither": []}[layout]
        for tag in need:
            for t in tags[tag]:
                if text.count(t) != 1:
                    return Scored(0.0, f"{t} occurs {text.count(t)} times (must be exactly once)")
        if self.min_content_words > 0:
            # guarded: one reasoning block, as the need tags are counted (the source does not count <think>: a second
            # <think>...</think> before the call, or one nested inside, kept 1.0; red team holdout_r7)
            for t in ("<think>", "</think>"):
                if text.count(t) != 1:
                    return Scored(0.0, f"{t} occurs {text.count(t)} times (must be exactly once)")
        blocks = {"think": first_block(text, "think") or ""}
        blocks.update({tag: first_block(text, tag) or "" for tag in need})
        thin = thin_content(blocks, self.min_content_words, row.get("prompt"), TOOL_FORMAT_WORDS)
        if thin:
            return Scored(0.0, thin)
        if self.min_content_words > 0 and "tool_call" in blocks and not _CALL_SHAPE.search(blocks["tool_call"]):
            # a placeholder ("TBD", "call here") is no call: the block holds a JSON value or a call name(...) at least
            return Scored(0.0, "tool_call block holds no call (no JSON object or list, no name(...))")
        if self.min_content_words > 0 and "tool_call" in blocks and (why := _unreadable_call(blocks["tool_call"])):
            return Scored(0.0, f"tool_call block holds no well-formed call ({why})"[:300])
        if self.min_content_words > 0 and "tool_call" in blocks and (why := _unoffered_call(blocks["tool_call"], row.get("prompt"))):
            return Scored(0.0, f"tool_call block {why}"[:300])
        if self.min_content_words > 0 and "tool_call" in blocks \
                and (why := call_withheld_by_remark(f"<tool_call>\n{blocks['tool_call']}\n</tool_call>")):
            return Scored(0.0, f"tool_call block {why}"[:300])  # a call its own object withholds (holdout_r37)
        return Scored(1.0, f"well-formed ({layout} layout)")


# the words of the tool-calling instruction itself, which every tool prompt holds ("You can call functions",
# "tools", "one JSON object per line") and the calls' own keys ("function", "arguments"): a think body that shares only
# these with the prompt and the call names nothing of the task ("First I will identify the most appropriate function,
# then fill in every argument with the correct values before making the call."; red team holdout_r16, and holdout_r12's
# and holdout_r10's generic plans), so the guard's topic comparison leaves them out (stems, as it compares). The
# schema's own words stay compared ("parameters", "number", a property's name): "The parameters are numbers already in
# kilograms and metres" reasons about this schema's fields
TOOL_FORMAT_WORDS = frozenset(stem(w) for w in "function call tool argument json object".split())


# blank lines between the layout's tags and around a block's body: read as the one line break the layout writes
_BLANK_AFTER = re.compile(r"(</think>|<tool_call>|</tool_call>|<response>)[ \t]*\n\s*")
_BLANK_BEFORE = re.compile(r"(?<!\s)\s++(</tool_call>|</response>)")  # from a run's start only: linear


def _unoffered_call(body: str, prompt: Any) -> str:
    """Why a ``<tool_call>`` body calls no tool the prompt offers, or "": a call whose name is none of the prompt's
    JSON schema's function names (:func:`polyreward.rewards.think_work.offered_tools`, case-folded) is the chat
    template's example copied, not a call a runner can make (``{"name": "function_name", "arguments": {"arg_name":
    "value"}}``; red team ``holdout_r21``). A prompt without such a schema offers no list to check against."""
    if prompt is None:
        return ""
    try:
        offered = think_work.offered_tools(prompt_text(prompt).casefold())
    except (TypeError, ValueError):
        return ""
    if not offered:
        return ""
    try:
        calls = block_calls(f"<tool_call>\n{body}\n</tool_call>")
    except ToolCallError:
        return ""
    for call in calls:
        name = call.get("name")
        if isinstance(name, str) and name.casefold() not in offered:
            return f"calls {name!r}, which is none of the functions the prompt offers"
    return ""


def _unreadable_call(body: str) -> str:
    """Why a ``<tool_call>`` body holds no call a runner can read, or "": its calls must decode as the lenient reader
    decodes a block (JSON, one value or one object per line) or be one ``name(...)`` per line; JSON cut off
    mid-object (``{"name": "f", "parameters": {"a": 10,``) is an unfinished call (red team ``holdout_r3``)."""
    try:
        if block_calls(f"<tool_call>\n{body}\n</tool_call>"):
            return ""
    except ToolCallError as exc:
        lines = [line for line in body.splitlines() if line.strip()]
        if lines and all(python_call(line) is not None for line in lines):
            return ""
        return str(exc)
    return "no call"
