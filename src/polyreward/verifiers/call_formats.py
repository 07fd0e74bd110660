"""Tool calls written in the formats other runners parse, besides ToolRL's ``<tool_call>`` JSON (red team ``holdout_r2``).

:mod:`polyreward.verifiers.tool_calls` reads ``<tool_call>`` blocks, code fences of JSON calls, OpenAI-shaped and
bare JSON calls. A policy paid for its calls can write an extra call in a format those readers skip but a runner of
another stack executes; every such call counts as an extra call (never credited as one of the gold calls except where
it is a JSON call the lenient reading normalises). The formats, each a runner's documented layout:

* JSON calls of other stacks (:func:`foreign_call`): a string tool name under ``name`` / ``tool`` / ``tool_name`` /
  ``action`` / ``function`` with its arguments (an object, or a JSON string of one) under ``args``, ``input``,
  ``action_input``, ``tool_input`` or ``kwargs`` (Gemini ``{"functionCall": {"name", "args"}}``, Anthropic
  ``{"type": "tool_use", "name", "input"}``, LangChain ``{"action", "action_input"}``); such an object anywhere
  inside a decoded JSON value (a wrapper such as ``{"function_call": {...}}``, or a key of a call object other than
  its name and arguments: a call injected beside a call) is a call, to a depth of :data:`MAX_DEPTH`;
* Python literals of JSON calls (``{'name': 'x', 'parameters': {...}}``: ``ast.literal_eval``);
* Anthropic's XML ``<invoke name="x"><parameter name="k">v</parameter></invoke>``;
* ReAct's ``Action: x`` line, with the JSON of an ``Action Input:`` line after it;
* Llama's ``<|python_tag|>x.call(k="v")`` and a Python call inside a tool-call tag of another spelling
  (``<TOOL_CALL>``, ``<tool-call>``, ``<function_call>``, ``<tool_use>``; any case): a tag a runner matching tags
  case-insensitively would execute. A tag body that is neither JSON nor a Python call is one attempted call;
* YAML in a code fence with a top-level ``name:`` and a ``parameters:`` / ``arguments:`` / ``args:`` /
  ``input:`` key; TOML in a code fence (``[[tool_call]]`` / ``name = "x"`` / ``[tool_call.parameters]``), read
  with ``tomllib`` and searched as a JSON value (red team ``holdout_r3``); and the same YAML mapping in prose, at the
  top level or as a list item (``- name: x`` then ``  parameters:``), its name reading as a function's
  (:func:`yaml_item_calls`, red team ``holdout_r7``);
* a function name, then a JSON object of its arguments (:func:`named_argument_calls`): the layouts that write the
  name on its own and the arguments after it, whatever marks them -- Qwen's ``✿FUNCTION✿: x`` / ``✿ARGS✿: {...}``,
  Functionary's ``>>>x`` then ``{...}``, DeepSeek's ``<｜tool▁sep｜>x`` then a fenced ``{...}``,
  ``Function: x`` / ``Arguments: {...}``. The rule is structural: an identifier that reads as a function name
  (``snake_case``, ``dotted.name`` or ``camelCase``) with nothing between it and a decoded JSON object but
  whitespace, punctuation, special-token markers (``<|...|>``, ``<｜...｜>``), a code-fence opener and one-word
  labels ending in a colon that open their line (``✿ARGS✿:``, ``Arguments:``; ``f returns: {...}`` describes a
  result); red team ``holdout_r3``;
* a tool-call tag whose attributes name the call (``<tool_call name="x" k="v"/>``, ``<function_call name="x">``):
  the other attributes are its parameters, and a JSON object up to the closing tag is merged into them
  (:func:`attribute_calls`; red team ``holdout_r3``); also a plain ``<tool name="x">`` tag, whose
  ``<param name="k">v</param>`` (or ``<parameter ...>``) children are its parameters (red team ``holdout_r4``);
* Kimi's ``functions.x:0`` (a call index after the name, then ``<|tool_call_argument_begin|>{...}``), read by
  :func:`named_argument_calls` (red team ``holdout_r4``);
* OpenAI Harmony's ``to=functions.x ... <|message|>{...}`` (gpt-oss: the recipient in the header, the arguments as
  the message; :func:`harmony_calls`, red team ``holdout_r4``), and the same recipient header with the arguments as a
  JSON object on the next line (ChatML's ``<|im_start|>assistant to=functions.x`` then ``{...}``: red team
  ``holdout_r6``);
* a line of prose that is nothing but a call of a function-like name, ``get_weather(city="Paris")`` or
  ``get_weather({city: 'Paris'})`` (JavaScript), or a bracketed list of them (Llama 3.2's pythonic layout):
  :func:`call_lines`, each an attempted call (its keyword arguments read when they are literals). A line with
  anything else on it (``I'll call get_weather(...) next``) is prose, and a fenced code block is code, not read here
  (red team ``holdout_r4``); the line may open with a one-word label ending in a colon (NexusRaven's ``Call: x(...)``,
  ``Function: x(...)``: red team ``holdout_r6``) or a markdown list marker, and the call may sit in an inline code
  span (``* `x(k="v")` ``: red team ``holdout_r7``);
* a command line that names a function (:func:`command_calls`, red team ``holdout_r6``): a shell command
  ``x --k v`` (a ``$`` prompt before it allowed, in prose or in a code fence: a runner with a shell executes it), an
  HTTP request line ``GET /x?k=v`` (the last path segment the function, the query its parameters) or an S-expression
  ``(x :k v)``; each is one attempted call, its name reading as a function's (``snake_case``, ``dotted.name`` or
  ``camelCase``: ``pip install x`` or ``GET /index.html`` is none);
* Claude 2's ``<invoke><tool_name>x</tool_name><parameters><k>v</k></parameters></invoke>`` (the name as a child
  element, not an attribute: red team ``holdout_r6``), read with the attribute form.

Linear in the text: each scan is one regex pass; Python literals are tried at most :data:`MAX_LITERALS` times.
"""

from __future__ import annotations

import ast
import bisect
import json
import re
import tomllib
from collections.abc import Mapping
from typing import Any

Call = dict[str, Any]

NAME_KEYS = ("name", "tool", "tool_name", "action", "function")
ARGUMENT_KEYS = ("args", "input", "action_input", "tool_input", "kwargs", "parameters", "arguments")
OWN_KEYS = frozenset({"name", "parameters", "arguments", "function", "type", "id"})  # a call object's own keys
MAX_DEPTH = 8
MAX_LITERALS = 32


def _arguments(value: Any) -> dict | None:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, str):
        try:
            decoded = json.loads(value) if value.strip() else {}
        except ValueError:
            return None
        return dict(decoded) if isinstance(decoded, Mapping) else None
    return None


def foreign_call(value: Any) -> Call | None:
    """The call a JSON object of another stack's shape writes (module docstring), or None (data)."""
    if not isinstance(value, Mapping):
        return None
    for name_key in NAME_KEYS:
        name = value.get(name_key)
        if not isinstance(name, str) or not name.strip():
            continue
        for key in ARGUMENT_KEYS:
            if key in value and (arguments := _arguments(value[key])) is not None:
                return {"name": name, "parameters": arguments}
    return None


_LITERAL_START = re.compile(r"\{\s*['\"]")


def literal_calls(text: str, value_calls) -> list[Call]:
    """Calls written as Python dict literals, each read with ``ast.literal_eval`` over its brace-balanced span:
    single-quoted keys, or double-quoted keys with a value JSON cannot read (Glaive's ``{"name": "f", "arguments":
    '{"k": 1}'}``, a single-quoted string; red team ``holdout_r5``). A span that is JSON is left to the JSON readers
    (read once). ``value_calls(value)`` lists the calls of a decoded value (the caller's JSON reading)."""
    calls: list[Call] = []
    position, tries = 0, 0
    while tries < MAX_LITERALS and (start := _LITERAL_START.search(text, position)) is not None:
        tries += 1
        end = _balanced_end(text, start.start())
        if end is None:
            break
        position = end
        span = text[start.start():end]
        if text[start.end() - 1] == '"':
            try:
                json.loads(span)
                continue  # JSON: the JSON readers read it
            except (ValueError, RecursionError):
                pass
        try:
            value = ast.literal_eval(span)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            position = start.start() + 1
            continue
        calls.extend(value_calls(value))
    return calls


def _balanced_end(text: str, start: int, limit: int = 20000) -> int | None:
    depth, quote, i = 0, "", start
    stop = min(len(text), start + limit)
    while i < stop:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


_INVOKE = re.compile(r"<invoke\s+name\s*=\s*[\"']([^\"'<>]{1,200})[\"']\s*>", re.IGNORECASE)
_INVOKE_END = re.compile(r"</invoke>", re.IGNORECASE)
# Claude 2's layout: <invoke> without attributes, the name in a <tool_name> child, the arguments as the children of
# <parameters> (red team holdout_r6)
_BARE_INVOKE = re.compile(r"<invoke\s*>", re.IGNORECASE)
_TOOL_NAME = re.compile(r"<tool_name\s*>\s*([^<>]{1,200}?)\s*</tool_name\s*>", re.IGNORECASE)
_PARAMETERS = re.compile(r"<parameters\s*>(.*?)</parameters\s*>", re.DOTALL | re.IGNORECASE)
_CHILD = re.compile(r"<([A-Za-z_][\w.-]{0,100})\s*>(.*?)</\1\s*>", re.DOTALL)
# an <invoke>'s <parameter name="k"> openers, each closed by the next </parameter> (found by position: a lazy
# "(.*?)</parameter>" rescans the rest of the text from every unclosed opener; red team holdout_r31)
_PARAMETER_OPEN = re.compile(r"<parameter\s+name\s*=\s*[\"']([^\"'<>]{1,200})[\"']\s*>", re.IGNORECASE)
_PARAMETER_END = re.compile(r"</parameter>", re.IGNORECASE)
_REACT = re.compile(r"^[ \t>*_-]*Action[ \t]*:[ \t]*`?([A-Za-z_][\w.\-]{0,100})`?[ \t]*$(?:\n[ \t>*_-]*Action[ \t]+Input[ \t]*:[ \t]*(.*)$)?",
                    re.MULTILINE | re.IGNORECASE)
# the body runs to the next python tag, end-of-message token or line end (a tempered run: linear)
_PYTHON_TAG = re.compile(r"<\|python_tag\|>((?:(?!<\|python_tag\|>|<\|eom_id\|>|<\|eot_id\|>)[^\n])*)")
# a tool-call tag of another spelling than the exact <tool_call> (case, - or no separator, function/tool use)
# (FunctionGemma writes the pair as <start_function_call> ... <end_function_call>: an "end" prefix closes; red team
# holdout_r5)
_CALL_TAG = re.compile(r"<[ \t]*(/?)[ \t]*(?:(start|begin|end)[ \t_-]?)?((?:tool|function)[ \t_-]?(?:calls?|use)|toolcalls?)[ \t]*>",
                       re.IGNORECASE)
_PY_CALL = re.compile(r"^[ \t]*([A-Za-z_][\w.]{0,200})[ \t]*\((.*)\)[ \t;]*$", re.DOTALL)
_YAML_NAME = re.compile(r"^name[ \t]*:[ \t]*['\"]?([A-Za-z_][\w.\-]{0,200})['\"]?[ \t]*$", re.MULTILINE)
_YAML_ARGUMENTS = re.compile(r"^(?:parameters|arguments|args|input)[ \t]*:", re.MULTILINE)


def python_call(text: str) -> Call | None:
    """``name(k=v, ...)`` (or ``name.call(...)``, Llama's built-in tool form) as a call with its literal keyword
    arguments; None when the text is not one Python call."""
    match = _PY_CALL.match(text.strip())
    if match is None:
        return None
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name) and node.func.id == "print" and not node.keywords and len(node.args) == 1 \
            and isinstance(node.args[0], ast.Call):
        node = node.args[0]  # Gemma's tool_code convention prints the call's result: print(f(k=v)) calls f
    name = ast.unparse(node.func)
    if name.endswith(".call"):
        name = name[: -len(".call")]
    parameters = {}
    for keyword in node.keywords:
        try:
            parameters[str(keyword.arg)] = ast.literal_eval(keyword.value)
        except (ValueError, SyntaxError, TypeError, RecursionError):
            parameters[str(keyword.arg)] = ast.unparse(keyword.value)
    return {"name": name, "parameters": parameters}


def _body_calls(body: str, json_calls) -> list[Call]:
    """The calls of a tool-call tag body: JSON calls, else one Python call per line, else one attempt."""
    calls = json_calls(body)
    if calls:
        return calls
    lines = [line for line in body.splitlines() if line.strip()]
    python = [call for line in lines if (call := python_call(line)) is not None]
    return python or ([{"name": body.strip()[:60] or "?", "parameters": {}}] if body.strip() else [])


# a code fence whose info string declares a tool call (Gemma's ```tool_code, ```tool_call, ```function_call):
# a runner of that layout executes its body, so it is calls, not code (red team holdout_r5)
_TOOL_FENCE_INFO = re.compile(r"(?:tool|function)[ \t_-]?(?:code|calls?|use)", re.IGNORECASE)


def tool_fence_calls(info: str, body: str, json_calls) -> list[Call]:
    """The calls of a code fence whose info string (the opener's language word) declares a tool call: JSON calls,
    else one Python call per line, else one attempted call; [] for any other fence (code is code)."""
    if not _TOOL_FENCE_INFO.fullmatch(info.strip()):
        return []
    return _body_calls(body, json_calls)


def xml_value(text: str) -> Any:
    """The value of an XML ``<parameter>`` element's text: a JSON number, boolean, array or object written there is
    that value (``<parameter name="minutes">25</parameter>`` is the argument ``25``, ``["auth", "backend"]`` a list),
    as Anthropic's XML layout passes non-string arguments; any other text (``Oslo``, ``"quoted"``, ``02139``, which
    JSON does not read as a number) is the string written (red team ``holdout_r31``)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "-0123456789[{tf":
        return stripped
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return stripped
    return value if isinstance(value, (bool, int, float, list, dict)) else stripped


def _invoke_parameters(body: str) -> dict[str, Any]:
    """The ``<parameter name="k">v</parameter>`` elements of an ``<invoke>`` body, each value read by
    :func:`xml_value`; an opener no closer follows is left out (linear: closers found once, by position)."""
    closers = [m.start() for m in _PARAMETER_END.finditer(body)]
    parameters: dict[str, Any] = {}
    position = 0
    for opener in _PARAMETER_OPEN.finditer(body):
        if opener.start() < position:
            continue
        i = bisect.bisect_left(closers, opener.end())
        if i == len(closers):
            break
        parameters[opener.group(1)] = xml_value(body[opener.end():closers[i]])
        position = closers[i]
    return parameters


def python_tag_calls(text: str, json_calls) -> tuple[str, list[Call]]:
    """(``text`` with each Llama 3.1 ``<|python_tag|>`` span replaced by a line break, the calls those spans hold):
    read once here, so that a ``<|python_tag|>{"name": ..., "parameters": {...}}<|eom_id|>`` call is one call, not
    also a bare JSON object of the prose around it (red team ``holdout_r31``: counted twice, an exact call set was
    never met)."""
    calls: list[Call] = []
    if "<|python_tag|>" not in text:
        return text, calls
    return _PYTHON_TAG.sub(lambda m: calls.extend(_body_calls(m.group(1), json_calls)) or "\n", text), calls


def markup_calls(text: str, json_calls) -> list[Call]:
    """Calls of the non-JSON layouts (module docstring) in prose: XML invoke, ReAct, Llama's python tag, tool-call
    tags of other spellings. ``json_calls(body)`` reads the JSON calls of a body (the caller's reader)."""
    calls: list[Call] = []
    lowered = text.lower()
    if "<invoke" in lowered:
        ends = [m.start() for m in _INVOKE_END.finditer(text)]
        position = 0
        for match in sorted([*_INVOKE.finditer(text), *_BARE_INVOKE.finditer(text)], key=lambda m: m.start()):
            if match.start() < position:
                continue  # inside the block before
            end = ends[bisect.bisect_left(ends, match.end())] if ends and ends[-1] >= match.end() else len(text)
            body = text[match.end():end]
            position = end
            if match.re is _INVOKE:
                calls.append({"name": match.group(1).strip(),
                              "parameters": _invoke_parameters(body)})
                continue
            name = _TOOL_NAME.search(body)  # no name child: still an attempted call
            parameters = _PARAMETERS.search(body)
            calls.append({"name": name.group(1) if name else "?",
                          "parameters": {c.group(1): xml_value(c.group(2)) for c in _CHILD.finditer(parameters.group(1))}
                          if parameters else {}})
    if "action" in lowered:
        for match in _REACT.finditer(text):
            arguments = _arguments(match.group(2) or "") or {}
            calls.append({"name": match.group(1), "parameters": arguments})
    if "<|python_tag|>" in text:
        for match in _PYTHON_TAG.finditer(text):
            calls.extend(_body_calls(match.group(1), json_calls))
    if "<" in text:
        calls.extend(_tag_bodies(text, json_calls))
    if "to=" in text:
        calls.extend(harmony_calls(text, json_calls))
    return calls


# Harmony (gpt-oss): a header naming the recipient (to=functions.x, in the role or the channel part), then the
# arguments as the message, up to <|call|> (or the next special token / line end when it is missing)
_HARMONY = re.compile(r"\bto=([A-Za-z_][\w.\-]{0,200})(?:(?!<\|message\|>)[^\n]){0,200}<\|message\|>"
                      r"((?:(?!<\|(?:call|end|start|return)\|>)[^\n]){0,20000})")


# the same recipient header, the arguments a JSON object on the next line up to a special token (ChatML's
# "<|im_start|>assistant to=functions.x" then {...}<|im_end|>; red team holdout_r6)
_RECIPIENT_LINE = re.compile(r"\bto=([A-Za-z_][\w.\-]{0,200})(?:(?!<\|message\|>)[^\n]){0,200}\n[ \t]*(\{(?:(?!<\|)[^\n]){0,20000})")


def harmony_calls(text: str, json_calls) -> list[Call]:
    """The calls of Harmony's layout (module docstring): the recipient without its ``functions.`` namespace, the
    message's JSON object as the parameters ({} when it is no JSON object: an attempted call all the same, when the
    recipient reads as a function's name); and of a recipient header whose next line is a JSON object (ChatML), read
    only when that line decodes as an object (a header followed by prose is no call)."""
    calls: list[Call] = []
    for match in _RECIPIENT_LINE.finditer(text):
        arguments = _arguments(match.group(2).strip())
        if arguments is not None:
            calls.append({"name": match.group(1).removeprefix("functions."), "parameters": arguments})
    if "<|message|>" not in text:
        return calls
    for match in _HARMONY.finditer(text):
        name = match.group(1).removeprefix("functions.")
        body = match.group(2).strip()
        arguments = _arguments(body) if body.startswith("{") else None
        if arguments is None and not _FUNCTION_LIKE.search(match.group(1)):
            continue  # "to=the user <|message|> soon": a plain word and no JSON arguments is no call
        calls.append({"name": name, "parameters": arguments or {}})
    return calls


# a line that is only a call (or a bracketed list of calls, Llama 3.2's pythonic layout); the name must read as a
# function's (snake_case, dotted or camelCase), so "Note(this)" or "f(x)" in prose is not one
# a line may open with markers a runner strips before the call: Gorilla's <<function>>, Mistral's [TOOL_CALLS],
# special tokens (red team holdout_r5)
# and a one-word label ending in a colon (NexusRaven's "Call:"; red team holdout_r6)
# and a markdown list marker (- * + or 1.) with the call in an inline code span (`get_price(symbol="AAPL")`): a list of
# calls is calls, not prose (red team holdout_r7)
_LINE_MARKERS = r"(?:[ \t]*+(?:<<[A-Za-z_]{1,30}>>|\[[A-Z][A-Z_]{1,30}\]|<[|｜][^<>\n]{0,60}[|｜]>|[A-Za-z]{1,20}[ \t]*+:(?![:/])|[-*+•](?=[ \t])|\d{1,3}[.)](?=[ \t])))*+[ \t]*+"
_CALL_LINE = re.compile(rf"^{_LINE_MARKERS}`?\[?[ \t]*([A-Za-z_][\w.]{{1,200}})[ \t]*\((.{{0,2000}})\)[ \t]*\]?`?[ \t;]*$", re.MULTILINE)
_LEADING_MARKERS = re.compile(rf"^{_LINE_MARKERS}")
_JS_OBJECT_ARGUMENT = re.compile(r"^\s*\{.*\}\s*$", re.DOTALL)


def call_lines(text: str) -> list[Call]:
    """The calls of lines of prose that are nothing but calls (module docstring): each is one attempted call, its
    keyword arguments read when they are Python literals (:func:`python_call`); a list of calls on one line is
    each of them. Linear: one regex pass over the lines, each line parsed at most once."""
    calls: list[Call] = []
    if "(" not in text:
        return calls
    for match in _CALL_LINE.finditer(text):
        if not _FUNCTION_LIKE.search(match.group(1)):
            continue
        line = _LEADING_MARKERS.sub("", match.group(), count=1).strip().rstrip(";").strip()
        if line.startswith("`") and line.endswith("`") and len(line) > 1:  # an inline code span around the call
            line = line[1:-1].strip()
        if line.startswith("["):
            try:
                node = ast.parse(line, mode="eval").body
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                node = None
            if isinstance(node, ast.List) and node.elts and all(isinstance(e, ast.Call) for e in node.elts):
                calls.extend(python_call(ast.unparse(e)) or {"name": ast.unparse(e.func), "parameters": {}} for e in node.elts)
                continue
            line = line.strip("[]").strip()
        call = python_call(line)
        if call is None and _JS_OBJECT_ARGUMENT.match(match.group(2)) is None and match.group(2).strip():
            continue  # arguments that are neither Python literals nor one object: prose with parentheses
        calls.append(call or {"name": match.group(1), "parameters": {}})
    return calls


# command lines that name a function (module docstring; red team holdout_r6): a shell command with flags, an HTTP
# request line, an S-expression with keyword arguments
_VALUE = r"(?:\"[^\"\n]*\"|'[^'\n]*'|(?!-)[^\s\"'()]+)"
_FLAG = rf"--?[A-Za-z][\w-]{{0,60}}(?:(?:[ \t]*=[ \t]*|[ \t]+){_VALUE})?"
_SHELL_LINE = re.compile(rf"^[ \t]*(?:\$[ \t]+)?([A-Za-z_][\w.-]{{1,200}})((?:[ \t]+{_FLAG}){{1,50}})[ \t]*$", re.MULTILINE)
_FLAG_PAIR = re.compile(rf"--?([A-Za-z][\w-]{{0,60}})(?:(?:[ \t]*=[ \t]*|[ \t]+)({_VALUE}))?")
_HTTP_LINE = re.compile(r"^[ \t]*(?:GET|POST|PUT|PATCH|DELETE)[ \t]+(?:https?://[^\s/]+)?/?(?:[\w.~-]+/){0,20}"
                        r"([A-Za-z_][\w.-]{1,200})(?:\?(\S{0,4000}))?(?:[ \t]+HTTP/[\d.]{1,5})?[ \t]*$", re.MULTILINE)
_SEXPR_LINE = re.compile(rf"^[ \t]*\([ \t]*([A-Za-z_][\w.-]{{1,200}})((?:[ \t]+:[A-Za-z][\w-]{{0,60}}[ \t]+{_VALUE}){{1,50}})[ \t]*\)[ \t]*$",
                         re.MULTILINE)
_KEYWORD_PAIR = re.compile(rf":([A-Za-z][\w-]{{0,60}})[ \t]+({_VALUE})")


def _scalar(raw: str | None) -> Any:
    """A command line's argument: JSON when it reads as JSON (``10``, ``true``, ``"x"``), else the text unquoted."""
    if raw is None:
        return True  # a bare flag (--verbose) is set
    try:
        return json.loads(raw)
    except ValueError:
        return raw.strip("'")


def command_calls(text: str) -> list[Call]:
    """The calls of command lines that name a function (module docstring): ``x --k v``, ``GET /x?k=v`` and
    ``(x :k v)``, each line one attempted call with its arguments read as scalars; a command whose name is a plain
    word (``pip``, ``git``) is no call, nor is a path's file (``GET /index.html``). One regex pass per form."""
    from urllib.parse import parse_qsl

    calls: list[tuple[int, Call]] = []
    if "-" in text:
        for match in _SHELL_LINE.finditer(text):
            if _FUNCTION_LIKE.search(match.group(1)):
                calls.append((match.start(), {"name": match.group(1), "parameters": {
                    m.group(1): _scalar(m.group(2)) for m in _FLAG_PAIR.finditer(match.group(2))}}))
    if "/" in text:
        for match in _HTTP_LINE.finditer(text):
            if _FUNCTION_LIKE.search(match.group(1)) and "." not in match.group(1):  # index.html is a file, no function
                calls.append((match.start(), {"name": match.group(1), "parameters": {
                    k: _scalar(v) for k, v in parse_qsl(match.group(2) or "", keep_blank_values=True)}}))
    if "(" in text:
        for match in _SEXPR_LINE.finditer(text):
            if _FUNCTION_LIKE.search(match.group(1)):
                calls.append((match.start(), {"name": match.group(1), "parameters": {
                    m.group(1): _scalar(m.group(2)) for m in _KEYWORD_PAIR.finditer(match.group(2))}}))
    return [call for _, call in sorted(calls, key=lambda pair: pair[0])]


def _tag_bodies(text: str, json_calls) -> list[Call]:
    """The calls of tool-call tags of other spellings: each opener paired with the first closer of the same name
    after it (found by bisection, so many openers without closers cost one pass, not one pass each)."""
    def key(name: str) -> str:
        return re.sub(r"[ \t_-]", "", name.lower())

    openers, closers = [], {}
    for match in _CALL_TAG.finditer(text):
        if match.group(1) or (match.group(2) or "").lower() == "end":
            closers.setdefault(key(match.group(3)), []).append(match.start())
        elif match.group(3) != "tool_call" or match.group(2):  # the exact tag is read as a block
            openers.append(match)
    calls: list[Call] = []
    position = 0
    for match in openers:
        ends = closers.get(key(match.group(3)), [])
        at = bisect.bisect_left(ends, match.end())
        if match.start() < position or at == len(ends):
            continue
        body = text[match.end():ends[at]]
        position = ends[at]
        if "<invoke" not in body.lower():  # an <invoke> inside is read as one
            calls.extend(_body_calls(body, json_calls))
    return calls


def yaml_call(body: str) -> Call | None:
    """A fence body of YAML naming a call: a top-level ``name:`` and an arguments key, flat ``key: value`` pairs
    indented under it taken as the parameters (scalars as JSON reads them, else text)."""
    name = _YAML_NAME.search(body)
    arguments = _YAML_ARGUMENTS.search(body)
    if name is None or arguments is None:
        return None
    parameters: dict[str, Any] = {}
    for line in body[arguments.end():].splitlines()[1:]:
        if not line.startswith((" ", "\t")):
            break
        key, sep, value = line.strip().partition(":")
        if sep:
            try:
                parameters[key.strip()] = json.loads(value.strip())
            except ValueError:
                parameters[key.strip()] = value.strip().strip("'\"")
    return {"name": name.group(1), "parameters": parameters}


# a YAML mapping in prose (no fence) that names a function and gives its arguments on the next line, at the top level
# or as a list item ("- name: get_weather" / "  parameters:"): what a runner reading YAML output parses (red team
# holdout_r7); the name must read as a function's (snake_case, dotted or camelCase)
_YAML_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?name[ \t]*:[ \t]*['\"]?(?P<name>[A-Za-z_][\w.\-]{0,200})['\"]?[ \t]*\n"
                        r"(?P=indent)(?(dash)[ \t]{1,4})(?:parameters|arguments|args|input)[ \t]*:", re.MULTILINE)
MAX_YAML_LINES = 64


def yaml_item_calls(text: str) -> list[Call]:
    """The calls of YAML mappings written in prose, outside a code fence (:data:`_YAML_ITEM`): each item's lines,
    dedented to its mapping, read as :func:`yaml_call` reads a fence body (at most :data:`MAX_YAML_LINES` lines each)."""
    calls: list[Call] = []
    if "name" not in text:
        return calls
    for match in _YAML_ITEM.finditer(text):
        if not _FUNCTION_LIKE.search(match.group("name")):
            continue
        width = len(match.group("indent")) + len(match.group("dash") or "")
        lines = text[match.start():].split("\n", MAX_YAML_LINES)[:MAX_YAML_LINES]
        body = [lines[0][width:]]
        for line in lines[1:]:
            if len(line) - len(line.lstrip(" \t")) < width or not line.strip():
                break
            body.append(line[width:])
        call = yaml_call("\n".join(body))
        if call is not None:
            calls.append(call)
    return calls


def toml_calls(body: str, value_calls) -> list[Call]:
    """The calls of a fence body that is a TOML document (``[[tool_call]]`` / ``name = "x"``); ``value_calls(value)``
    lists the calls of the decoded value (the caller's JSON reading). [] for anything else."""
    if "=" not in body:
        return []
    try:
        value = tomllib.loads(body)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return []
    return value_calls(value)


# an identifier that reads as a function's name: snake_case, dotted.name or camelCase (a plain word is prose)
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.]{1,200}")
_FUNCTION_LIKE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]|[A-Za-z]\.[A-Za-z]|[a-z][A-Z]")
# what may stand between a function's name and its arguments: special-token markers, a code-fence opener, one-word
# labels ending in a colon ("✿ARGS✿:", "Arguments:", "Action Input:" is two words and is ReAct's, read there)
# (a label opens its line: "calculate_area returns: {...}" describes a result, it calls nothing)
_CONNECTORS = re.compile(r"<[|｜][^<>\n]{0,60}[|｜]>|\[[A-Z][A-Z_]{1,30}\]|^[ ]{0,3}(?:`{3,}|~{3,})[\w+-]*[ \t]*$|^[^\w\n]*[^\W\d_]{1,20}[^\w\s]{0,3}[ \t]*:",
                         re.MULTILINE)
_NO_WORD = re.compile(r"[^\w]*")
# special tokens: <|x|>, DeepSeek's <｜x｜>, Mistral's bracketed [TOOL_CALLS] / [ARGS] (red team holdout_r5)
_SPECIAL_TOKEN = re.compile(r"<[|｜][^<>\n]{0,60}[|｜]>|\[[A-Z][A-Z_]{1,30}\]")
# the bracketed special token Mistral's chat template opens a reply's calls with ("[TOOL_CALLS] [{...}]"), which its
# runner strips before it decodes the JSON list (red team holdout_r10)
LEADING_SPECIAL_TOKENS = re.compile(r"^\s*(?:\[[A-Z][A-Z_]{1,30}\]\s*)+")
_OBJECT_OPEN = re.compile(r'\{\s*["}]')  # an object of arguments, or none ({})
_CALL_INDEX = re.compile(r"^:\d{1,6}(?=\s|<|$)")
LOOKBACK = 300  # characters before an object searched for its function's name
MAX_UNDECODED = 32
MAX_OBJECTS = 256  # objects looked back from; later ones are left (linear time on a text of many small objects)


def named_argument_calls(text: str, decode, is_call) -> list[Call]:
    """Calls written as a function's name and then a JSON object of its arguments (module docstring).
    ``decode(text, start)`` is the caller's strict ``raw_decode``; ``is_call(value)`` tells a call object (read by
    the caller's JSON reading, not here). Linear: each object looks back :data:`LOOKBACK` characters, and at most
    :data:`MAX_UNDECODED` starts fail to decode and :data:`MAX_OBJECTS` objects are looked back from."""
    calls: list[Call] = []
    position, failures, looked = 0, 0, 0
    while looked < MAX_OBJECTS and (start := _OBJECT_OPEN.search(text, position)) is not None:
        try:
            value, end = decode(text, start.start())
        except (ValueError, RecursionError):
            failures += 1
            if failures > MAX_UNDECODED:
                break
            position = start.start() + 1
            continue
        position = end
        if not isinstance(value, Mapping) or is_call(value):
            continue
        looked += 1
        name = _name_before(text, start.start())
        if name is not None:
            calls.append({"name": name, "parameters": dict(value)})
    return calls


def _name_before(text: str, start: int) -> str | None:
    """The function name that the text right before ``start`` ends with, past connectors only (module docstring)."""
    base = max(0, start - LOOKBACK)
    # a special token's inner words (<|tool_sep|>) are markup, not a name
    window = _SPECIAL_TOKEN.sub(lambda m: " " * len(m.group()), text[base:start])
    for match in reversed(list(_IDENTIFIER.finditer(window))):
        # Kimi writes a call index after the name (functions.get_weather:0): part of the name's token, not a gap
        rest = _CALL_INDEX.sub("", window[match.end():], count=1)
        gap = _CONNECTORS.sub(" ", "0" + rest)[1:]  # "0": the gap's start is no line start
        if not _NO_WORD.fullmatch(gap) or gap.count("\n") > 3:
            if not _FUNCTION_LIKE.search(match.group()):
                continue  # a label's word ("ARGS") or a fence's language: look further back
            return None
        before = window[:match.start()].rstrip(" \t")
        if before.endswith(("=", '"', "'", "(", ",")):  # a value (<function=x>, name="x"), read by its own layout
            return None
        if _FUNCTION_LIKE.search(match.group()):
            return match.group().rstrip(".")
    return None


# a tool-call tag whose attributes name the call: <tool_call name="x" k="v"/>, <function_call name="x">{...}</...>
_ATTRIBUTE_TAG = re.compile(r"<[ \t]*((?:tool|function)[ \t_-]?(?:calls?|use)|toolcalls?|function|call|tool)[ \t]+([^<>]{0,2000}?)(/?)>",
                            re.IGNORECASE)
_CHILD_PARAMETER = re.compile(r"<(param(?:eter)?)\s+name\s*=\s*[\"']([^\"'<>]{1,200})[\"']\s*>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE)
_ATTRIBUTE = re.compile(r"([A-Za-z_][\w.-]{0,100})[ \t]*=[ \t]*(?:\"([^\"]*)\"|'([^']*)')")


def attribute_calls(text: str) -> list[Call]:
    """Calls of tool-call tags that carry their name as an attribute (module docstring); a value that is JSON (a
    number, true) is read as JSON, else kept as text."""
    calls: list[Call] = []
    if "name" not in text:
        return calls
    for match in _ATTRIBUTE_TAG.finditer(text):
        attributes = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
                      for m in _ATTRIBUTE.finditer(match.group(2))}
        name = attributes.pop("name", None)
        if not name or not name.strip():
            continue
        parameters: dict[str, Any] = {}
        for key, raw in attributes.items():
            try:
                parameters[key] = json.loads(raw)
            except ValueError:
                parameters[key] = raw
        if not match.group(3):  # an opening tag: a JSON object up to its closing tag adds arguments
            closing = re.search(rf"</[ \t]*{re.escape(match.group(1))}[ \t]*>", text[match.end():match.end() + 20000],
                                re.IGNORECASE)
            body = text[match.end():match.end() + closing.start()].strip() if closing else ""
            arguments = _arguments(body) if body.startswith("{") else None
            parameters.update(arguments or {})
            if arguments is None and "<param" in body.lower():  # <param name="k">v</param> children
                parameters.update({p.group(2): p.group(3).strip() for p in _CHILD_PARAMETER.finditer(body)})
        calls.append({"name": name.strip(), "parameters": parameters})
    return calls
