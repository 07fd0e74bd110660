"""Tool-call parsing: ``<tool_call>`` text blocks, JSON lists and TRL conversational ``tool_calls``.

Every parser except :func:`toolrl_block_json` returns calls normalised to ``{"name": str, "parameters": dict}``
(ToolRL's layout; an ``arguments`` key, as in OpenAI/TRL messages, is accepted for ``parameters`` and may be a
JSON string) or raises :class:`ToolCallError` whose message says what is malformed and where.

Two text parsers:

* :func:`toolrl_block_json` is ToolRL's exact rule (qiancheng0/ToolRL, NVlabs/GDPO ``rlla.py``):
  the first ``<tool_call>…</tool_call>`` block, stripped, split on ``"\\n"``, one JSON value per line,
  left as decoded (:func:`parse_toolrl_block` normalises them).
* :func:`parse_tool_call_text` is lenient: every block, each holding one JSON value (object or list)
  or one object per line, then the calls written in the other formats (below).

:func:`calls_outside_blocks` reads the calls written in the other formats a tool runner knows, outside the
``<tool_call>`` blocks: fenced code blocks holding JSON calls, OpenAI-shaped objects
(``{"type": "function", "function": {"name", "arguments"}}``, ``{"tool_calls": [...]}``) and bare JSON objects or
lists of calls anywhere in the text, and Llama 3.1's ``<function=name>{...}</function>``. A JSON object is a call when it has a string ``name`` and a ``parameters`` or
``arguments`` key, or a ``function`` object with a name (``{"name": "Ann", "age": 3}`` is data, not a call). The
``<think>`` body (a model may quote the call it plans) is not read. A call inside an HTML comment (``<!-- ... -->``,
which no reader sees) is never credited (the ``<tool_call>`` blocks scored are the visible ones) but is still a
call: a runner that matches tags in raw text would run it, so it counts as an extra call. Every guarded reader uses
it, so a call hidden in another format than the credited one is an extra call (reconstructed rule, ours: the
source reads its one layout only).

JSON is decoded strictly: an object with a duplicate key (``{"name": "rm_rf", "name": "area"}``, two
``"arguments"``, or two keys that read the same once normalised: ``"nаme"`` with a Cyrillic ``а``) is malformed
(:class:`ToolCallError`), where ``json.loads`` would keep the last value and a runner might execute the first.
This holds in every mode, ``rlla.py``'s exact one included (it keeps the last).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.schema import completion_messages, is_missing
from polyreward.verifiers.call_formats import (
    ARGUMENT_KEYS,
    call_lines,
    command_calls,
    LEADING_SPECIAL_TOKENS,
    MAX_DEPTH,
    NAME_KEYS,
    OWN_KEYS,
    attribute_calls,
    foreign_call,
    literal_calls,
    markup_calls,
    python_tag_calls,
    named_argument_calls,
    tool_fence_calls,
    toml_calls,
    yaml_call,
    yaml_item_calls,
)
from polyreward.verifiers.reading import INVISIBLE, normalise
from polyreward.verifiers.tags import tag_blocks, unclosed_block
from polyreward.verifiers.turns import (END_OF_SEQUENCE, END_OF_TURN, TEMPLATE_TURN_HEADER, TURN_TOKEN, WRITER_ROLES,
                                       struck_s_elements)

Call = dict[str, Any]


class ToolCallError(ValueError):
    """A malformed tool call; the message names the problem."""


class DuplicateKeyError(ToolCallError):
    """A JSON object that names one key twice."""


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; DuplicateKeyError when two keys read the same (:func:`normalise`: ``"nаme"`` with a
    Cyrillic ``а`` or ``"na\u200bme"`` is ``"name"`` to a reader)."""
    obj = dict(pairs)
    # every format character (category Cf: bidi overrides such as U+202E too) is invisible in a key
    keys = [key if key.isascii() else normalise("".join(ch for ch in key if unicodedata.category(ch) != "Cf")) for key, _ in pairs]
    if len(set(keys)) != len(keys):
        seen: set[str] = set()
        twice = next(key for key in keys if key in seen or seen.add(key))
        raise DuplicateKeyError(f"duplicate key {twice!r} in one JSON object (which value is meant is ambiguous)")
    return obj


_STRICT = json.JSONDecoder(object_pairs_hook=_refuse_duplicates)


def strict_json(text: str) -> Any:
    """``json.loads(text)`` that raises :class:`DuplicateKeyError` for an object naming a key twice."""
    return _STRICT.decode(text)


def _json(text: str, where: str) -> Any:
    try:
        return strict_json(text)
    except DuplicateKeyError as exc:
        raise ToolCallError(f"{where}: {exc}") from None
    except RecursionError:
        raise ToolCallError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:
        raise ToolCallError(f"{where}: invalid JSON ({exc})") from None


# (red team holdout_r19) the one key of another stack's call wrapper (Gemini's ``{"functionCall": {...}}``, OpenAI's
# legacy ``{"function_call": {...}}``) and the argument keys of its call object (Gemini ``args``, Anthropic ``input``)
_WRAPPER_KEYS = frozenset({"functionCall", "function_call"})
_OTHER_ARGUMENT_KEYS = ("args", "input")


def _unwrapped(obj: Any) -> Any:
    """The call object inside a one-key wrapper of another stack (:data:`_WRAPPER_KEYS`), else ``obj``: written alone
    in a ``<tool_call>`` block, ``{"functionCall": {"name": "f", "args": {...}}}`` is the one call ``f``, not a wrapper
    holding an extra call (red team ``holdout_r19``)."""
    if isinstance(obj, Mapping) and len(obj) == 1:
        key, inner = next(iter(obj.items()))
        if key in _WRAPPER_KEYS and isinstance(inner, Mapping) and isinstance(inner.get("name"), str):
            return inner
    return obj


def _arguments_read(obj: Mapping) -> frozenset[str]:
    """The other stack's argument key a call object without ``parameters`` and ``arguments`` is read by (the first of
    :data:`_OTHER_ARGUMENT_KEYS` it has), else none."""
    if "parameters" in obj or "arguments" in obj:
        return frozenset()
    return next((frozenset({key}) for key in _OTHER_ARGUMENT_KEYS if key in obj), frozenset())


def normalize_call(obj: Any, where: str = "call") -> Call:
    """``{"name", "parameters"|"arguments"}``, OpenAI's ``{"function": {...}}`` and, with neither argument key, the
    Gemini / Anthropic shapes (``{"functionCall": {"name", "args"}}``, ``{"type": "tool_use", "name", "input"}``; red
    team ``holdout_r19``) -> ``{"name", "parameters"}``."""
    obj = _unwrapped(obj)
    if isinstance(obj, Mapping) and isinstance(obj.get("function"), Mapping) and "name" not in obj:
        obj = obj["function"]
    if not isinstance(obj, Mapping):
        raise ToolCallError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    name = obj.get("name")
    if not isinstance(name, str):
        raise ToolCallError(f"{where}: missing string 'name'")
    other = _arguments_read(obj)
    params = obj.get("parameters", obj.get("arguments", obj[next(iter(other))] if other else {}))  # other: one key
    if isinstance(params, str):
        params = _json(params, f"{where} arguments") if params.strip() else {}
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise ToolCallError(f"{where}: 'parameters' must be an object, got {type(params).__name__}")
    return {"name": name, "parameters": dict(params)}


def toolrl_block_json(text: str) -> list[Any]:
    """ToolRL's exact parse, values as decoded: the first block, stripped, one JSON value per line (blank
    lines are errors, as in the source). Nothing is normalised: ``rlla.py`` indexes these values itself."""
    if "<tool_call>" not in text or "</tool_call>" not in text:
        raise ToolCallError("missing <tool_call> or </tool_call> tag")
    body = text.split("<tool_call>")[1].split("</tool_call>")[0].strip()
    return [_json(line, f"tool call line {i + 1}") for i, line in enumerate(body.split("\n"))]


def parse_toolrl_block(text: str) -> list[Call]:
    """:func:`toolrl_block_json` with every value normalised to ``{"name", "parameters"}``."""
    return [normalize_call(value, f"tool call line {i + 1}") for i, value in enumerate(toolrl_block_json(text))]


def _calls_from_value(value: Any, where: str) -> list[Call]:
    """Each value a call (ToolCallError otherwise), then the calls injected beside it (:func:`injected_calls`)."""
    items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
    calls: list[Call] = []
    for i, item in items:
        at = where if i is None else f"{where} item {i + 1}"
        calls.append(normalize_call(item, at))
        calls.extend(injected_calls(item, at))
    return calls


def injected_calls(value: Any, where: str = "call") -> list[Call]:
    """The calls written under the keys of a call object other than its own (``{"name": "f", "parameters": {...},
    "then": {"name": "rm_rf", ...}}``): a runner that walks the object would run them; always extra calls. So is a
    second argument set: a call object with both ``parameters`` and ``arguments`` that differ is two calls, since
    ToolRL's runner reads ``parameters`` and an OpenAI / Hermes runner ``arguments`` (red team ``holdout_r8``: EUR to
    JPY under one key, EUR to USD under the other, kept the maximum)."""
    value = _unwrapped(value)  # the wrapper's key holds the call itself, not one beside it (holdout_r19)
    if not isinstance(value, Mapping):
        return []
    own = OWN_KEYS | _arguments_read(value)
    calls = [call for key, item in value.items() if key not in own for call in _calls_in_value(item, f"{where} key {key!r}")]
    if "parameters" in value and "arguments" in value and isinstance(value.get("name"), str):
        try:  # arguments a runner cannot decode make no call of theirs
            second = normalize_call({"name": value["name"], "arguments": value["arguments"]}, f"{where} key 'arguments'")
            first = normalize_call({"name": value["name"], "parameters": value["parameters"]}, where)
        except ToolCallError:
            return calls
        if second != first:
            calls.append(second)
    return calls


def call_remarks(value: Any) -> list[str]:
    """The remarks a call object writes about itself: each key other than a call's own (``name``, ``parameters``,
    ``arguments``, ``function``, ``type``, ``id`` and another stack's argument key) whose value is text, a number or
    a boolean, read as ``key value`` with ``_`` as a space (``{"name": "cancel_order", "parameters": {...},
    "condition": "only_if_user_confirms"}`` -> ``condition only if user confirms``; red team ``holdout_r37``). A
    runner ignores such a key and runs the call, but what it says about the call (a condition, a draft status, "do
    not execute") is the writer's word on whether the call is made, as a sentence after the block would be. Values
    that are calls are injected calls (:func:`injected_calls`), and objects or lists are data; neither is a remark.
    Every call object of ``value`` (a call, or a list of them) is read."""
    items = value if isinstance(value, list) else [value]
    remarks: list[str] = []
    for item in items:
        item = _unwrapped(item)
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            continue
        own = OWN_KEYS | _arguments_read(item)
        for key, note in item.items():
            if key in own or not isinstance(key, str) or isinstance(note, (Mapping, list)) or note is None:
                continue
            text = json.dumps(note) if isinstance(note, bool) else str(note)
            remarks.append(f"{key} {text}".replace("_", " "))
    return remarks


def block_call_remarks(text: str) -> list[str]:
    """:func:`call_remarks` of every call object in the visible ``<tool_call>`` blocks of ``text`` (a block read as
    one JSON value, else one value per line; what does not decode has no remarks)."""
    remarks: list[str] = []
    if "<tool_call>" not in text or '"' not in text:
        return remarks
    for _, _, body in tag_blocks(without_think_mentions(without_html_comments(text)), "tool_call"):
        body = body.strip()
        try:
            values = [json.loads(body)]
        except (ValueError, RecursionError):
            values = []
            for line in body.splitlines():
                try:
                    values.append(json.loads(line))
                except (ValueError, RecursionError):
                    continue
        for value in values:
            remarks.extend(call_remarks(value))
    return remarks


def _block_calls(body: str, where: str) -> list[Call]:
    body = body.strip()
    if not body:
        raise ToolCallError(f"{where}: empty <tool_call> block")
    try:
        return _calls_from_value(strict_json(body), where)
    except DuplicateKeyError as exc:
        raise ToolCallError(f"{where}: {exc}") from None
    except (ValueError, RecursionError):
        pass
    if (values := _json_sequence(body, where)) is not None:  # pretty-printed calls one after another (Gemini, GPT's indent=2)
        return [call for value in values for call in _calls_from_value(value, where)]
    lines = [line for line in body.split("\n") if line.strip()]
    calls: list[Call] = []
    for i, line in enumerate(lines):
        value = _json(line, f"{where} line {i + 1}")
        calls.append(normalize_call(value, f"{where} line {i + 1}"))
        calls.extend(injected_calls(value, f"{where} line {i + 1}"))
    return calls


def _json_sequence(body: str, where: str) -> list[Any] | None:
    """The JSON values of a block body that is nothing but two or more of them, each opening a line, separated by
    whitespace (``{\n  "name": ...\n}\n{\n  "name": ...\n}``: one call per object, as one JSON per line reads
    them, spelled over several lines), or None. A duplicate key is malformed, as in every reading."""
    values, at = [], 0
    while at < len(body):
        try:
            value, end = _STRICT.raw_decode(body, at)
        except DuplicateKeyError as exc:
            raise ToolCallError(f"{where}: {exc}") from None
        except (ValueError, RecursionError):
            return None
        values.append(value)
        at = len(body) - len(body[end:].lstrip())
        if at < len(body) and "\n" not in body[end:at]:
            return None  # the next value does not open its line: one JSON per line is read line by line
    return values if len(values) > 1 else None


# an unclosed comment hides the rest, as in a browser; invisible characters inside a delimiter are read through, as
# everywhere else (normalise first): "-\u200b->" closes the comment a reader sees, so it cannot stretch a comment over
# calls written after it
_INVISIBLE_RUN = f"(?:{INVISIBLE})*"
_HTML_COMMENT = re.compile(
    rf"<{_INVISIBLE_RUN}!{_INVISIBLE_RUN}-{_INVISIBLE_RUN}-(?P<body>.*?)(?:-{_INVISIBLE_RUN}-{_INVISIBLE_RUN}>|\Z)", re.DOTALL)
# possessive: a line of 10,000 backticks and no line break fails once, not once per split of the run
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}+|~{3,}+)[^\n]*+\n", re.MULTILINE)
_OBJECT_START = re.compile(r'\{\s*"')
MAX_UNPARSED_OBJECTS = 32  # JSON-looking starts that do not decode, before the text counts as malformed


def without_html_comments(text: str) -> str:
    """``text`` without HTML comments (an unclosed one hides the rest), each removed without a trace, so that a
    comment inside a JSON string (``"<!-- x -->rm_rf"``) leaves the string a reader sees. Only these: a ``%`` in JSON
    is no comment."""
    return _HTML_COMMENT.sub("", text) if _may_comment(text) else text


def comment_free_values(value: Any) -> Any:
    """``value`` with every string (keys and values, nested) as the text reading leaves the strings of a
    completion's calls: HTML comments removed (:func:`without_html_comments`, which drops a comment inside a JSON
    string as hidden text). Applied to the gold calls when the completion's calls are read from its text, so a gold
    argument that holds a comment (``"<!-- header --><h1>Welcome</h1>"``: markup the user asked to render) and the
    same argument written in the completion compare equal, where only the completion's lost its comment (red team
    ``holdout_r13``); calls from structured ``tool_calls`` fields are compared as written, as are rlla.py's raw
    first block's."""
    if isinstance(value, str):
        return without_html_comments(value)
    if isinstance(value, Mapping):
        return {comment_free_values(k): comment_free_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [comment_free_values(v) for v in value]
    return value


def _may_comment(text: str) -> bool:
    return "<!--" in text or ("<" in text and not text.isascii())


# (red team holdout_r46) an element whose name sets its text aside as no call made: a call written as bare JSON inside
# "<draft>...</draft>" (revised to the <tool_call> block after it), "<example>", "<rejected>" is the writer's draft,
# an example or a rejected candidate, which no runner parses outside a call block
_SET_ASIDE_ELEMENTS = ("draft", "example", "rejected", "discarded", "scratch")


def _without(text: str, tag: str, ignore_case: bool = False) -> str:
    parts, position = [], 0
    for start, end, _ in tag_blocks(text, tag, ignore_case):
        parts.append(text[position:start])
        parts.append("\n")
        position = end
    parts.append(text[position:])
    return "".join(parts)


# what a tool returned, written into the reply (by the environment between turns, or by the writer): no call made
TOOL_RESULT_TAGS = ("tool_response", "tool_result", "observation")


def writer_call_turns(text: str) -> str:
    """The text a reply makes its calls in (red team ``holdout_r47``): up to an end-of-sequence token
    (:data:`turns.END_OF_SEQUENCE`: ``<|endoftext|>``, ``</s>``, ``<eos>``, padding; generation stops there, so a call
    after it is never sent), the writer's own turns of a chat template's transcript (:data:`turns.TEMPLATE_TURN_HEADER`:
    ChatML, Llama 3, Gemma and Phi headers) -- the text before the first turn header and the body of each ``assistant``
    (or ``model``) turn,
    a ``user``, ``tool`` or ``system`` turn left out (a call the writer puts in the user's mouth is nobody's call) --
    each cut at its end-of-turn token, and without the tool results written in them (``<tool_response>``,
    ``<tool_result>``, ``<observation>`` blocks: what a tool returned, a call inside one included, is no call of the
    writer's). A call, the environment's ``<tool_response>`` in the next user turn and a summary in the writer's next
    turn make the one call; ``Do you mean NASDAQ?<|endoftext|><tool_call>...`` makes none.

    >>> writer_call_turns("<tool_call>{}</tool_call><|im_end|><|im_start|>user<tool_response>{}</tool_response><|im_end|><|im_start|>assistant Done.")
    '<tool_call>{}</tool_call>\\n Done.'
    """
    text = without_unfinished_reasoning_calls(struck_s_elements(text))  # "<s>...</s>" struck, not a token (holdout_r54)
    if TURN_TOKEN.search(text) is None:
        return without_tool_results(text)
    if (end := END_OF_SEQUENCE.search(text)) is not None:
        text = text[:end.start()]
    parts, position, role = [], 0, "assistant"
    for header in TEMPLATE_TURN_HEADER.finditer(text):
        if role in WRITER_ROLES:
            parts.append(text[position:header.start()])
        elif _invented_turn(role, text[position:header.start()]):
            role = ""  # (red team holdout_r50) the writer's own output ended before the turn it invented
            break
        role, position = (header.group("role") or header.group("tagged")).lower(), header.end()
    if role in WRITER_ROLES:
        parts.append(text[position:])
    kept = "\n".join(part[:turn_end.start()] if (turn_end := END_OF_TURN.search(part)) else part for part in parts)
    return without_tool_results(kept)


def _invented_turn(role: str, body: str) -> bool:
    """Is a ``user`` or ``system`` turn written in the reply one the writer made up: it holds no tool result (what the
    environment puts between the writer's turns is a ``<tool_response>`` / ``<observation>``), so the writer's own
    output ended before it and its later turns answer a user it invented (red team ``holdout_r50``: ``<call for
    Lisbon><|im_end|><|im_start|>user And in Porto?<|im_end|><|im_start|>assistant <call for Porto>`` makes the
    Lisbon call only)."""
    return role in ("user", "system", "human") and not any(f"<{tag}>" in body.lower() for tag in TOOL_RESULT_TAGS)


def without_unfinished_reasoning_calls(text: str) -> str:
    """``text`` cut before a ``<think>`` left open when its reasoning goes on after the last call block written in it:
    the reply was cut off while still reasoning, so the blocks it drafted there were never sent (a reasoning parser
    puts everything after an unclosed ``<think>`` into the reasoning, where no tool parser looks; red team
    ``holdout_r50``: ``<think>The call would be: <tool_call>{...}</tool_call> But should I ask the user firs`` makes
    no call). A think left open whose last words are a call block (a writer that forgot ``</think>`` before its
    call) is kept: nothing after the block says the writer was still weighing it.

    >>> without_unfinished_reasoning_calls("<think>Plan: <tool_call>{}</tool_call> or should I ask fir")
    ''
    >>> without_unfinished_reasoning_calls("<think>Plan.\\n<tool_call>{}</tool_call>")
    '<think>Plan.\\n<tool_call>{}</tool_call>'
    """
    if "<tool_call>" not in text or (body := unclosed_block(text, "think")) is None:
        return text
    closer = body.rfind("</tool_call>")
    if closer < 0 or not TURN_TOKEN.sub("", body[closer + len("</tool_call>"):]).strip():
        return text
    return text[:len(text) - len(body) - len("<think>")]


def calls_only_planned_in_reasoning(text: str) -> bool:
    """True when the reply's only calls are blocks written inside a closed ``<think>`` whose reasoning goes on after
    them, and nothing outside the reasoning writes a call (a ``<tool_call>`` block, another template's call, a fenced,
    bare or HTML-commented call): the block is a step the reasoning plans or imagines, and the answer after
    ``</think>`` -- the part a reasoning parser hands the tool parser -- makes none (red team ``holdout_r57``:
    ``<think>I could write <tool_call>{...}</tool_call> but the user asked for a poem, so no call.</think>`` and a
    limerick paid in full). The counterpart of :func:`without_unfinished_reasoning_calls` for a think that closes. A
    think whose last words are its call block (a writer that put the call before ``</think>``) is not one, nor a
    reply that also makes a call after its reasoning.

    >>> calls_only_planned_in_reasoning("<think>Plan: <tool_call>{}</tool_call> but no call.</think> A poem.")
    True
    >>> calls_only_planned_in_reasoning("<think>Plan.\\n<tool_call>{}</tool_call></think>")
    False
    """
    if "<tool_call>" not in text or "</think>" not in text:
        return False
    outside = _without(text, "think")
    try:
        if "<tool_call>" in outside or _TEMPLATE_CALL.search(outside) or calls_outside_blocks(outside):
            return False
    except ToolCallError:
        return False
    planned = False
    for _, _, body in tag_blocks(text, "think"):
        closings = list(tag_blocks(body, "tool_call"))
        if closings:
            if not re.search(r"\w", body[closings[-1][1]:]):
                return False
            planned = True
    return planned


def without_tool_results(text: str) -> str:
    """``text`` without the tool results written in it (:data:`TOOL_RESULT_TAGS` blocks, each replaced by a line
    break): what a tool returned, or what the writer says one did, is not the writer's call, answer or report (red
    team ``holdout_r47``: ``<tool_response>{"report": "The heart is enlarged. ..."}</tool_response> FINDINGS: See the
    output above.`` reports nothing of its own)."""
    lowered = text.lower()
    for tag in TOOL_RESULT_TAGS:
        if f"<{tag}>" in lowered:
            text = _without(text, tag, ignore_case=True)
    return text


def _is_call(value: Any) -> bool:
    if not isinstance(value, Mapping):
        return False
    if isinstance(value.get("function"), Mapping) and "name" not in value:
        return isinstance(value["function"].get("name"), str)
    return isinstance(value.get("name"), str) and ("parameters" in value or "arguments" in value)


def _calls_in_value(value: Any, where: str) -> list[Call]:
    """The calls a decoded JSON value holds, left to right: a call, a list of calls, ``{"tool_calls": [...]}``, a call
    of another stack's shape (:func:`polyreward.verifiers.call_formats.foreign_call`: Gemini, Anthropic, LangChain),
    or any of these inside an object that is no call (a wrapper: ``{"function_call": {...}}``) or under a call's keys
    other than its own (a call injected beside a call), to a depth of ``MAX_DEPTH``. A call's arguments are its data
    and are not searched. [] for data (``{"name": "Ann", "age": 3}``). Iterative: no nesting raises."""
    calls: list[Call] = []
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(item, list):
            stack.extend((x, depth + 1) for x in reversed(item))
            continue
        if not isinstance(item, Mapping):
            continue
        if _is_call(item):
            calls.append(normalize_call(item, where))
            rest = [v for k, v in item.items() if k not in OWN_KEYS]
        elif (call := foreign_call(item)) is not None:
            calls.append(call)
            rest = [v for k, v in item.items() if k not in OWN_KEYS and k not in NAME_KEYS and k not in ARGUMENT_KEYS]
        else:
            rest = list(item.values())
        stack.extend((v, depth + 1) for v in reversed(rest))
    return calls


def _json_calls(body: str) -> list[Call]:
    """The JSON calls of a body of text: one JSON value, else the objects in it."""
    try:
        return _calls_in_value(strict_json(body.strip()), "tag body")
    except DuplicateKeyError as exc:
        raise ToolCallError(f"tag body: {exc}") from None
    except (ValueError, RecursionError):
        return _scan_objects(body, "tag body")


def _other_formats(text: str) -> list[Call]:
    """The calls of the non-JSON layouts (:mod:`polyreward.verifiers.call_formats`): Python literals of JSON calls,
    XML invoke, ReAct, Llama's python tag, tool-call tags of other spellings."""
    calls = literal_calls(text, lambda value: _calls_in_value(value, "Python literal")) if "{" in text else []
    return calls + markup_calls(text, _json_calls) + (attribute_calls(text) if "<" in text else [])


def _scan_objects(text: str, where: str) -> list[Call]:
    """Calls among the JSON objects of free text, left to right; a decoded object is skipped whole (its inner
    objects are its own). Linear: at most :data:`MAX_UNPARSED_OBJECTS` starts fail to decode, then ToolCallError."""
    calls: list[Call] = []
    position, failures = 0, 0
    while (start := _OBJECT_START.search(text, position)) is not None:
        try:
            value, end = _STRICT.raw_decode(text, start.start())
        except DuplicateKeyError as exc:
            raise ToolCallError(f"{where}: {exc}") from None
        except (ValueError, RecursionError):
            failures += 1
            if failures > MAX_UNPARSED_OBJECTS:
                raise ToolCallError(f"{where}: more than {MAX_UNPARSED_OBJECTS} JSON objects that do not decode") from None
            position = start.start() + 1
            continue
        calls.extend(_calls_in_value(value, f"{where} JSON object"))
        position = end
    return calls


def without_json_calls(text: str) -> str:
    """``text`` with each JSON object that is or holds a tool call (:func:`_calls_in_value`: ``{"name": "f",
    "arguments": {...}}``, the OpenAI and other stacks' shapes) replaced by a space: the call written out, not words
    about it. A think body that is the call's JSON is a copy of the call, not reasoning (red team ``holdout_r31``:
    ``<think>{"name": "get_stock_price", "arguments": {"symbol": "NVDA"}}</think>`` counted ``NVDA`` as a word of its
    own); an object of arguments alone (``{"city": "Paris"}``) or data stays. Linear: decoded objects are skipped whole
    and at most :data:`MAX_UNPARSED_OBJECTS` starts fail to decode."""
    if '"' not in text or "{" not in text:
        return text
    parts: list[str] = []
    position = kept = failures = 0
    while (start := _OBJECT_START.search(text, position)) is not None:
        try:
            value, end = _STRICT.raw_decode(text, start.start())
        except (ValueError, RecursionError):
            failures += 1
            if failures > MAX_UNPARSED_OBJECTS:
                break
            position = start.start() + 1
            continue
        try:
            is_call = bool(_calls_in_value(value, "object"))
        except ToolCallError:
            is_call = True
        if is_call:
            parts.append(text[kept:start.start()] + " ")
            kept = end
        position = end
    return "".join(parts) + text[kept:]


def _may_call(text: str) -> bool:
    """False when no call format can occur in ``text`` (no brace, tag, ReAct action, fence, parenthesis, flag, path or
    YAML ``name:``): a fast path."""
    return "{" in text or "<" in text or "ction" in text or "CTION" in text or "```" in text or "~~~" in text \
        or "(" in text or "--" in text or "/" in text or "name:" in text


def calls_outside_blocks(text: str) -> list[Call]:
    """Calls written outside the visible ``<tool_call>`` blocks (module docstring): in code fences, OpenAI shape or
    bare JSON, and the other formats of :mod:`polyreward.verifiers.call_formats`, in the order they appear, not in
    ``<think>``; then every call inside an HTML comment, in any format (never credited, since no reader sees it, but
    a call all the same). Raises ToolCallError for a duplicate key."""
    if not _may_call(text):
        return []
    return _calls_in_free_text(without_html_comments(text)) + commented_calls(text)


def commented_calls(text: str) -> list[Call]:
    """The calls inside HTML comments, in any format: never credited, counted as extra calls. Each keeps its place
    in the list under its name wrapped in the comment's delimiters (``<!-- translate_text -->``), a name no gold
    call and no runner's tool has: so it can only add an unmatched call, never stand in for a gold call the
    visible text leaves out (the second of two needed calls commented out was paid in full; red team
    ``holdout_r13``), and it still counts for a call count."""
    calls: list[Call] = []
    if _may_call(text) and _may_comment(text):
        for match in _HTML_COMMENT.finditer(text):
            body = match.group("body")
            calls.extend(block_calls(body))
            calls.extend(_calls_in_free_text(body))
    return [{**call, "name": f"<!-- {call['name']} -->"} for call in calls]


def _calls_in_free_text(text: str) -> list[Call]:
    """The calls of text outside blocks; ToolCallError when the text read as a reader sees it (:func:`normalise`:
    invisible characters removed, look-alike letters and full-width forms mapped) holds more calls than as written:
    a call disguised so that a parser skips it (``{"nаme": ...}`` with a Cyrillic ``а``, a zero-width space
    inside the JSON) is a malformed call, not data."""
    fenced, prose = _read_free_text(text)
    if not text.isascii():
        plain = normalise(text, collapse_space=False)
        if plain != text and sum(map(len, _read_free_text(plain))) > len(fenced) + len(prose):
            raise ToolCallError("a call disguised by invisible or look-alike characters")
    return fenced + prose


def _fences_in(text: str):
    """Each code fence of ``text`` in order: its opening match, its body stripped and where it ends; a fence that never
    closes runs to the end of the text, as markdown shows it."""
    position = 0
    while (opening := _FENCE.search(text, position)) is not None:
        marker = opening.group(1)
        closing = re.compile(rf"^[ ]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ ]*$", re.MULTILINE).search(text, opening.end())
        position = closing.end() if closing else len(text)
        yield opening, text[opening.end():closing.start() if closing else len(text)].strip(), position


# (red team holdout_r53) a line of prose that plans a call for after the one made now: a clause that waits for the
# current call or a word of sequence, then the writer's future call ("Once this returns a booking id, I'll call
# send_confirmation(...)", "Next, I will run get_weather(...)", "After that I'd call ...")
_PLANNED_CALL = re.compile(
    r"(?im)^[^\S\n]*(?:[-*][^\S\n]+)?(?:(?:once|after|when|as[^\S\n]+soon[^\S\n]+as)\b[^\n,;:]{0,80}[,;][^\S\n]*(?:then[^\S\n]+)?"
    r"|(?:next|then|later|afterwards?|after[^\S\n]+that|subsequently)\b[,;]?[^\S\n]*)"
    r"(?:I|we)(?:['’]ll|['’]d|[^\S\n]+(?:will|would|shall|can|plan[^\S\n]+to))[^\S\n]+(?:call|run|send|use|invoke|issue|make|do)\b[^\n]*"
    r"(?:\n(?=[^\S\n]*[{\[]).*)?")


_SEQUENCE_WORD = re.compile(r"\b(?:once|after|when|soon|next|then|later|afterwards|subsequently)\b", re.IGNORECASE)


def without_planned_calls(prose: str) -> str:
    """``prose`` without its lines that plan a call for after the one made now (:data:`_PLANNED_CALL`): "Once this
    returns a booking id, I'll call send_confirmation({...})." after the block names the next step, which is no call
    of this reply, as a block led in by "tomorrow the request will be:" is none (the lead-in rule of
    ``toolrl_correctness``); the line after such a line is taken with it when it opens a JSON value. Read only in a
    reply that makes a call in a ``<tool_call>`` block (the call the plan comes after): a reply whose only call is
    "Next, I'll call: {...}" makes it now. A call made now beside a plan ("Calling it now: ...") is read as before."""
    if not _SEQUENCE_WORD.search(prose):  # (speed: most replies plan nothing)
        return prose
    return _PLANNED_CALL.sub(lambda match: "\n" * match.group().count("\n"), prose)


def _read_free_text(text: str) -> tuple[list[Call], list[Call]]:
    """(calls in code fences, calls in the prose around them) of text outside blocks and ``<think>``."""
    blocked = "<tool_call" in text.lower()  # a call made now in a block, which a planned call comes after
    text = _without(_without(text, "think"), "tool_call")
    for tag in _SET_ASIDE_ELEMENTS:  # '<draft>{"name": ...}</draft>' then the block: a draft, no call (holdout_r46)
        if f"<{tag}>" in text.lower():
            text = _without(text, tag, ignore_case=True)
    calls: list[Call] = []
    rest, position, number = [], 0, 0
    for opening, body, end in _fences_in(text):
        rest.append(text[position:opening.start()])
        position = end
        number += 1
        fence: list[Call] = []
        try:
            fence.extend(_calls_in_value(strict_json(body), f"code block {number}"))
        except DuplicateKeyError as exc:
            raise ToolCallError(f"code block {number}: {exc}") from None
        except (ValueError, RecursionError):  # not one JSON value: one call per line, YAML, or code of another language
            fence.extend(_scan_objects(body, f"code block {number}"))
            yaml = yaml_call(body)
            fence.extend([yaml] if yaml is not None else [])
            fence.extend(toml_calls(body, lambda value: _calls_in_value(value, f"code block {number}")) if yaml is None else [])
            fence.extend(_other_formats(body))
            fence.extend(command_calls(body))  # a shell command naming a function, in a fence too
        # a fence whose info string declares a tool call (```tool_code) is calls however its body is written
        calls.extend(fence or tool_fence_calls(opening.group()[len(opening.group(1)):], body, _json_calls))
    rest.append(text[position:])
    prose = without_planned_calls("".join(rest)) if blocked else "".join(rest)
    prose, tagged = python_tag_calls(prose, _json_calls)  # Llama 3.1's <|python_tag|>{...}: read once (holdout_r31)
    if "<function=" in prose.lower():  # Llama 3.1's custom-tool format: <function=name>{"arg": 1}</function>
        prose = _FUNCTION_TAG.sub(lambda m: tagged.append(_function_tag_call(m, len(tagged) + 1)) or "\n", prose)
    named = named_argument_calls(without_planned_calls(text) if blocked else text, _STRICT.raw_decode, _holds_call) if "{" in text else []
    lines = call_lines(prose) if "(" in prose else []
    yaml = yaml_item_calls(prose) if "name" in prose else []
    return calls, tagged + _scan_objects(prose, "text") + _other_formats(prose) + named + lines + yaml + command_calls(prose)


# a collapsed <details> element: its opening tag with the summary line, and its closing tag (its body is what lies
# between; found in two searches, not one pattern with a lazy body, which retries the whole rest of the text from each
# opening that is never closed: 16,000 of them took 14 s)
_DETAILS_OPENING = re.compile(r"<details\b[^>]{0,200}>\s*(?:<summary\b[^>]{0,200}>(?P<summary>.{0,300}?)</summary>)?",
                              re.IGNORECASE | re.DOTALL)
_DETAILS_CLOSING = re.compile(r"</details>", re.IGNORECASE)


def _details_opened(text: str) -> str:
    """``text`` with each ``<details>`` element written as its summary, a colon and its body on lines of their own.
    Each opening pairs with the first closing after it; once an opening has none, no later one has either."""
    parts, position = [], 0
    while (opening := _DETAILS_OPENING.search(text, position)) and (closing := _DETAILS_CLOSING.search(text, opening.end())):
        body = text[opening.end():closing.start()].strip()
        parts += [text[position:opening.start()], f"\n{(opening.group('summary') or '').strip()}:\n{body}\n"]
        position = closing.end()
    parts.append(text[position:])
    return "".join(parts)


def calls_shown(text: str) -> str:
    """``text`` with the calls a reader has to open or read past shown as ``<tool_call>`` blocks, for the reading of
    what the writer says about them: each code fence that holds a call (:func:`_read_free_text`) written as a block,
    and each ``<details>`` element opened, its summary a line that introduces its body (``<details><summary>example
    tool call (not sent)</summary><tool_call>...</tool_call></details>`` is ``example tool call (not sent):`` and the
    block). A reader of the visible text sees neither call, so the lead-in and the remarks around it went unread (red
    team ``holdout_r41``: ``I can't call tools here, but this is the call you would make:`` and a ``json`` fence, a
    call in a ``<details>`` draft, both paid in full). A fence around a ``<tool_call>`` block is unwrapped to the block
    (the block parsers read it inside the fence; red team ``holdout_r57``: a tutorial's fenced block then ``Should I go
    ahead and run it?``). Text without a fence or ``<details>`` is returned as is."""
    if "<details" in text.lower():
        text = _details_opened(text)
    if "```" not in text and "~~~" not in text:
        return text
    parts, position = [], 0
    for opening, body, end in _fences_in(text):
        if "</tool_call>" in body:  # a fence around a block: the block is read wherever it stands (holdout_r57)
            parts += [text[position:opening.start()], f"\n{body}\n"]
            position = end
            continue
        try:
            holds = any(_read_free_text(text[opening.start():end]))
        except ToolCallError:
            holds = True
        parts.append(text[position:opening.start()])
        parts.append(f"<tool_call>\n{body}\n</tool_call>" if holds else text[opening.start():end])
        position = end
    parts.append(text[position:])
    return "".join(parts)


def _holds_call(value: Any) -> bool:
    """True when a decoded JSON value is or holds a call (read by the JSON readers; a malformed one too)."""
    try:
        return bool(_calls_in_value(value, "object"))
    except ToolCallError:
        return True


# Llama 3.1's custom-tool call layout, a format a runner parses: <function=NAME>{JSON arguments}</function>; the
# arguments run to the closing tag (or the end of the line when it is missing)
_FUNCTION_TAG = re.compile(r"<function=([^>\s]{1,200})>(.*?)(?:</function>|$)", re.IGNORECASE | re.MULTILINE)


def _function_tag_call(match: re.Match, number: int) -> Call:
    """The call of one ``<function=name>{...}</function>``: arguments that are no JSON object are still a call (an
    attempt: a runner would try it), with no parameters."""
    where = f"<function=...> call {number}"
    body = match.group(2).strip()
    try:
        arguments = strict_json(body) if body else {}
    except DuplicateKeyError as exc:
        raise ToolCallError(f"{where}: {exc}") from None
    except (ValueError, RecursionError):
        arguments = {}
    return normalize_call({"name": match.group(1), "parameters": arguments if isinstance(arguments, dict) else {}}, where)


def without_think_mentions(text: str) -> str:
    """``text`` with each ``<tool_call>`` written inside a ``<think>`` body and not closed there made prose
    (``tool_call``): a reasoning that names the tag it will write (``I'll emit a single <tool_call> with ...``)
    opens no block, where pairing it with the real block's closer after ``</think>`` would read the reasoning as the
    call (red team ``holdout_r4``). A block opened and closed inside the think body stays a block (a runner matching
    tags in raw text runs it)."""
    if "<think>" not in text or "<tool_call>" not in text:
        return text
    parts, position = [], 0
    for start, end, body in tag_blocks(text, "think"):
        if "<tool_call>" not in body:
            continue
        kept, at = [], 0
        for opening, closing, _ in tag_blocks(body, "tool_call"):
            kept.append(body[at:closing])
            at = closing
        tail = body[at:].replace("<tool_call>", "tool_call")  # openers no closer in the think body follows
        body_start = start + len("<think>")
        parts.append(text[position:body_start] + "".join(kept) + tail)
        position = body_start + len(body)
    parts.append(text[position:])
    return "".join(parts)


def nfc_values(value: Any) -> Any:
    """``value`` with every string (keys and values, nested) in Unicode NFC: ``"São"`` written with a combining tilde
    is the same text as with the precomposed ``ã`` (canonical equivalence, not a look-alike), so a call is compared
    as a runner's string comparison after normalisation sees it (red team ``holdout_r4``)."""
    if isinstance(value, str):
        return value if value.isascii() else unicodedata.normalize("NFC", value)
    if isinstance(value, Mapping):
        return {nfc_values(k): nfc_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nfc_values(v) for v in value]
    return value


def block_calls(text: str, first_only: bool = False) -> list[Call]:
    """The calls of every ``<tool_call>`` block (of the first only with ``first_only``: rlla.py's reading), in order,
    each block read as :func:`parse_tool_call_text` reads it (HTML comments dropped first, a tag named inside the
    reasoning is no block: :func:`without_think_mentions`)."""
    text = without_think_mentions(without_html_comments(text))
    calls: list[Call] = []
    for i, (_, _, body) in enumerate(tag_blocks(text, "tool_call")):
        calls.extend(_block_calls(body, f"<tool_call> block {i + 1}"))
        if first_only:
            break
    return calls


def parse_tool_call_text(text: str) -> list[Call]:
    """Lenient parse of every call format (module docstring): the visible ``<tool_call>`` blocks, then the visible calls
    outside them (code fences, OpenAI shape, bare JSON), then those in HTML comments. [] unless the calls come in a
    known layout: a ``<tool_call>`` block, a code fence of JSON calls, or the whole text one JSON value of calls (so a
    call written in the middle of prose, as in a cut-off reply, is credited to no one)."""
    visible = without_html_comments(text)
    calls = block_calls(visible)
    if not calls and "<tool_call>" in visible and "</tool_call>" not in visible:
        raise ToolCallError("<tool_call> without a closing </tool_call>")
    if not calls and not _is_carrier(visible):
        return []  # a call only in prose or in a comment is no call made (it still counts as an extra one)
    return calls + (_calls_in_free_text(visible) if _may_call(visible) else []) + commented_calls(text)


# the call delimiters of other chat templates, each the counterpart of a <tool_call> block: Llama 3.1's
# <|python_tag|> (a call message) and <function=name>, Anthropic's <function_calls> block of <invoke> elements,
# Mistral's [TOOL_CALLS] token before its JSON list wherever the reply writes it (after a preamble sentence too) and Functionary's
# recipient line ``>>>name`` (``>>>all`` is its plain-text channel, no call; red team holdout_r37)
_TEMPLATE_CALL = re.compile(r"<\|python_tag\|>|<function=[^>\s]|<function_calls\s*>|\[TOOL_CALLS\](?=\s*\[)|"
                            r"^>>>[ \t]*+(?!all[ \t]*$)[A-Za-z_][\w.\-]{0,200}[ \t]*$", re.IGNORECASE | re.MULTILINE)


def _is_carrier(visible: str) -> bool:
    """True when the text carries its calls in a known layout without ``<tool_call>`` blocks: a code fence of JSON
    calls, or the whole text one JSON value of calls (a bare list), after the bracketed special token a chat template
    opens its calls with (Mistral's ``[TOOL_CALLS] [...]``), or the whole text one bracketed list of Python-style
    calls (Llama 3.2's pythonic layout, ``[f(k=1)]``; red team ``holdout_r10``); a JSON call inside prose (a
    truncated or half-written reply) is not one. A call in another template's own delimiters outside the reasoning
    (:data:`_TEMPLATE_CALL`: Llama 3.1's ``<|python_tag|>{...}<|eom_id|>`` and ``<function=name>{...}</function>``,
    Anthropic's ``<function_calls><invoke name="x">...</invoke></function_calls>``) is carried as a ``<tool_call>``
    block is: the template's runner executes it (red team ``holdout_r31``: each scored -3, "no tool call found")."""
    if _TEMPLATE_CALL.search(visible) and _TEMPLATE_CALL.search(_without(visible, "think")):
        fenced, prose = _read_free_text(visible)
        return bool(fenced or prose)
    stripped = LEADING_SPECIAL_TOKENS.sub("", visible).strip() if visible.lstrip()[:1] == "[" else visible.strip()
    if stripped.startswith("[") and stripped.endswith("]") and "\n" not in stripped and "(" in stripped \
            and not stripped.startswith(("[{", "[ {")):
        # Llama 3.2's pythonic layout, the whole reply one bracketed list of calls: "[f(k=1), g()]" (red team holdout_r10)
        return bool(call_lines(stripped))
    if stripped.startswith(("[", "{")):
        try:
            return bool(_calls_in_value(strict_json(stripped), "completion"))
        except (ValueError, RecursionError):
            return False
    return "{" in visible and bool(_read_free_text(visible)[0])


def message_tool_calls(messages: Sequence[Mapping[str, Any]], first_turn_only: bool = False) -> list[Call] | None:
    """Calls from the ``tool_calls`` fields of assistant messages (None when no message has that field)."""
    found = False
    calls: list[Call] = []
    for m, message in enumerate(messages):
        if message.get("role", "assistant") != "assistant" or not message.get("tool_calls"):
            continue
        found = True
        raw = message["tool_calls"]
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise ToolCallError(f"message {m + 1}: 'tool_calls' must be a list")
        calls.extend(normalize_call(c, f"message {m + 1} tool_calls[{i}]") for i, c in enumerate(raw))
        if first_turn_only:
            break
    return calls if found else None


def reference_calls(value: Any) -> list[Call] | None:
    """Gold calls from a reference cell: ToolRL text (None when it has no ``<tool_call>``), a list of calls,
    a JSON string of such a list, or BFCL-style ``[{"func": {"arg": value}}]``."""
    if is_missing(value):
        return None
    if isinstance(value, str):
        if "<tool_call>" in value:
            return parse_toolrl_block(value)
        stripped = value.strip()
        if not stripped.startswith(("[", "{")):
            return None
        value = _json(stripped, "reference")
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list):
        raise ToolCallError(f"reference: expected tool calls, got {type(value).__name__}")
    if not value:
        return None
    calls = []
    for i, item in enumerate(value):
        if isinstance(item, Mapping) and "name" not in item and "function" not in item and len(item) == 1:
            (name, params), = item.items()  # BFCL ground truth: {"func_name": {"arg": value}}
            item = {"name": name, "parameters": params}
        calls.append(normalize_call(item, f"reference call {i + 1}"))
    return calls


def count_tool_calls(completion: Any, extra_tags: Sequence[str] = ()) -> int:
    """How many tool calls a trajectory made (OTC's m): ``tool_calls`` entries of assistant messages, plus the calls
    inside ``<tool_call>`` blocks of their text (a block that does not parse counts as one attempt), plus the calls
    written in the other formats (:func:`calls_outside_blocks`: code fences, OpenAI shape, bare JSON; text that does
    not parse there counts as one attempt), plus ``<tag>…</tag>`` blocks for each tag in ``extra_tags`` (e.g.
    ``search``, ``code``). A call in any format is a call, so writing calls outside the tags saves nothing."""
    messages = completion_messages(completion)
    count = sum(
        len(m["tool_calls"]) if isinstance(m.get("tool_calls"), Sequence) and not isinstance(m.get("tool_calls"), str) else 1
        for m in messages
        if m.get("role", "assistant") == "assistant" and m.get("tool_calls")
    )
    text = "\n".join(str(m.get("content") or "") for m in messages if m.get("role", "assistant") == "assistant")
    text = writer_call_turns(text)  # not after the end of the sequence, not in another role's turn or a tool result
    for i, (_, _, body) in enumerate(tag_blocks(without_think_mentions(without_html_comments(text)), "tool_call")):
        try:
            count += len(_block_calls(body, f"block {i + 1}"))
        except ToolCallError:
            count += 1
    try:
        count += len(calls_outside_blocks(text))
    except ToolCallError:
        count += 1
    for tag in extra_tags:
        count += sum(1 for _ in tag_blocks(text, tag))
    return count
