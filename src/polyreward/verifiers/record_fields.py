"""A structured answer body read field by field: which field commits (red team ``holdout_r46``).

A model asked for a forecast, a label list, a report or a conclusion often writes it as a structure: a JSON object,
``key: value`` lines (YAML-style, a ``- item`` list under a key), a run of XML-ish elements, or a markdown table. The
structure's own fields say which of the values it holds is the answer, and a reader that takes every value (or the
first) reads it wrong both ways::

    {"forecast": 28, "unit": "µg/m³", "reason": "weak winds"}          28       (the other fields describe it)
    {"draft_forecast": 40, "final_forecast": 28}                        28       (the final stage supersedes the draft)
    <candidate>160</candidate><final>45</final>                         45
    findings: [a, b]  /  revised_findings: [b, c]                       [b, c]
    {"forecast": 160, "forecast": 62}                                   none     (two answers under one key)
    forecast: 28 / status: withdrawn                                    none     (a status that withdraws it)
    value_if_breeze_holds: 12 / probability_breeze_holds: 0.02 /
    most_likely_value: 38                                               none     (a low grade; another value)
    <draft>...</draft> alone                                            none     (a draft and no final)

:func:`record_fields` parses a body that is wholly one such structure (``None`` otherwise: prose is left to the
text readers); :func:`committed_field` picks the answer among the fields whose key the caller's test accepts (the
forecast's, the labels', the conclusion's key); :func:`selected_rows` reads a markdown table whose last column
selects rows (``keep`` / ``selected`` / ``send`` / ``chosen`` / ``present``). A field's stage is read from its
key's words (``draft`` / ``first`` / ``initial`` / ``candidate`` / ``working`` / ``preliminary`` / ``prior`` /
``superseded`` / ``void``: draft; ``final`` / ``revised`` / ``updated`` / ``corrected`` / ``amended`` / ``current``:
final): the last final field commits, draft
fields are superseded, and unstaged answer fields must agree. A key that names another answer beside it
(``most_likely``, ``better_supported``, ``preferred``, ``best_guess``, ``instead``, ``replacement``) is one more
unstaged answer field. A field outside the answer whose value withdraws or holds back the answer (``status:
withdrawn``, ``"status": "example template only"``, ``sign_off: not signed``; in a field that is no status, only as a
short label: ``"note": "withdrawn"``, not a reason sentence that mentions a draft) or grades the writer's confidence
low (:func:`polyreward.verifiers.records.qualifies`) leaves no answer. Reconstructed rules (ours), each bounded: at most
4000 characters are parsed, by the standard library's JSON decoder and linear line and tag scans.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from polyreward.verifiers.pattern_cache import cached_re as re
from polyreward.verifiers.records import qualifies

_MAX_CHARS = 4000


@dataclass(frozen=True)
class Field:
    """One field of a structure: ``key`` as written, lower-cased with ``-`` and spaces read as ``_``; ``value`` a
    string, a number, a bool, a list or a dict (JSON); ``attrs`` an XML element's attributes."""

    key: str
    value: object
    attrs: dict = field(default_factory=dict)

    @property
    def words(self) -> list[str]:
        return [w for w in self.key.split("_") if w]


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


class _Pairs(list):
    """A JSON object kept as its (key, value) pairs, a repeated key included."""


def _plain(value: object) -> object:
    """A parsed JSON value with its objects as dicts (a repeated nested key: the last)."""
    if isinstance(value, _Pairs):
        return {str(k): _plain(v) for k, v in value}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _json_fields(body: str) -> list[Field] | None:
    try:
        parsed = json.loads(body, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, _Pairs) or not parsed:
        return None
    return [Field(_key(k), _plain(v)) for k, v in parsed]


# an XML-ish element: <tag attr="v">text</tag> or <tag attr="v"/>; the body must be a run of them and nothing else
_ELEMENT = re.compile(r"\s*<(?P<tag>[A-Za-z_][\w\-]{0,30})(?P<attrs>(?:\s+[\w\-]+\s*=\s*\"[^\"<>]{0,80}\")*)\s*"
                      r"(?:/>|>(?P<text>[^<]{0,2000})</(?P=tag)\s*>)\s*")
_ATTR = re.compile(r"([\w\-]+)\s*=\s*\"([^\"<>]*)\"")


def _xml_fields(body: str) -> list[Field] | None:
    position, found = 0, []
    while position < len(body):
        element = _ELEMENT.match(body, position)
        if element is None or element.end() == position:
            return None
        found.append(Field(_key(element.group("tag")), (element.group("text") or "").strip(),
                           dict(_ATTR.findall(element.group("attrs") or ""))))
        position = element.end()
    if not found:
        return None
    # repeated item elements (<label>a</label><label>b</label>) without attributes are one list, as a list is written
    keys = [f.key for f in found]
    if len(set(keys)) == 1 and len(found) > 1 and not any(f.attrs for f in found):
        return [Field(keys[0], [f.value for f in found])]
    return found


# a "key: value" line of a YAML-style record (a lower-case identifier key, as records.py reads), and an indented
# continuation under it: "  - item" (a list) or "  key: value" (a mapping)
_KEY_LINE = re.compile(r"(?P<key>[a-z_][a-z0-9_]{0,40})[ \t]*:(?:[ \t]+(?P<value>\S.*?))?[ \t]*")
_ITEM_LINE = re.compile(r"[ \t]+-[ \t]+(?P<item>\S.*?)[ \t]*")
_NESTED_LINE = re.compile(r"[ \t]+(?P<key>[a-z_][a-z0-9_]{0,40})[ \t]*:[ \t]*(?P<value>\S.*?)[ \t]*")


def _scalar(text: str) -> object:
    """A YAML-style value as written: a number, a bool, a flow list (``[a, b]``) or the string (quotes dropped)."""
    text = text.strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?", text):
        return float(text) if "." in text else int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.startswith("[") and text.endswith("]") and "[" not in text[1:-1]:
        return [_scalar(item) for item in text[1:-1].split(",") if item.strip()]
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _line_fields(body: str) -> list[Field] | None:
    found: list[tuple[str, object]] = []
    for line in body.splitlines():
        if not line.strip():
            continue
        if (key_line := _KEY_LINE.fullmatch(line)) is not None:
            value = key_line.group("value")
            found.append((key_line.group("key"), _scalar(value) if value is not None else None))
            continue
        if not found:
            return None
        key, value = found[-1]
        if (item := _ITEM_LINE.fullmatch(line)) is not None and (value is None or isinstance(value, list)):
            found[-1] = (key, (value or []) + [_scalar(item.group("item"))])
        elif (nested := _NESTED_LINE.fullmatch(line)) is not None and (value is None or isinstance(value, dict)):
            found[-1] = (key, {**(value or {}), nested.group("key"): _scalar(nested.group("value"))})
        else:
            return None
    if not found or (len(found) == 1 and not isinstance(found[0][1], (list, dict))):
        return None  # one "key: value" line is a labelled line of prose, read by the text readers
    return [Field(_key(k), v) for k, v in found]


def record_fields(body: str) -> list[Field] | None:
    """The fields of ``body`` when it is wholly one structure (a JSON object, XML-ish elements, ``key: value``
    lines), in order, a repeated key kept; None for anything else (module docstring)."""
    text = body.strip()
    if not text or len(text) > _MAX_CHARS:
        return None
    if text.startswith("{"):
        return _json_fields(text)
    if text.startswith("<"):
        return _xml_fields(text)
    if ":" in text:
        return _line_fields(text)
    return None


_DRAFT_WORDS = frozenset("draft drafts first initial candidate candidates working preliminary tentative provisional "
                         "original old previous prior superseded void voided".split())  # (the last three: holdout_r60)
_FINAL_WORDS = frozenset("final revised updated corrected amended current".split())
# a key that names another answer beside the writer's: "most_likely", "better_supported", "preferred", "best_guess"
_OTHER_ANSWER = re.compile(r"(?:^|_)(?:most_likely|likeliest|more_likely|better_supported|better|preferred|best_guess|"
                           r"instead|replacement|alternative|alternate|backup|fallback)(?:_|$)")
# a value outside the answer that withdraws it or holds it back: an example or template, a draft, a withdrawal, no
# sign-off ("status: withdrawn", "example template only; ... not been read", "not signed", "do not use")
_HELD_BACK = re.compile(r"\b(?:example|examples|template|sample|placeholder|not\s+(?:signed|sent|issued|final|for\s+use)|"
                        r"do\s+not\s+(?:use|send|sign)|unsigned|superseded|withdrawn|withdraw|retracted|rejected|"
                        r"discarded|cancell?ed|replaced|obsolete|draft|unverified|unconfirmed|tentative|provisional|"
                        # (red team holdout_r60) minutes and change records: "Decision: none -- deferred", "rolled back"
                        r"void|voided|deferred|tabled|pending|rolled\s+back)\b",
                        re.IGNORECASE)


# the key of a field that states the answer's status: "status", "state", "sign_off", "verdict", "validity", "use"
_STATUS_KEY = re.compile(r"(?:^|_)(?:status|state|sign(?:ed)?|sign_off|verdict|validity|approval|review|use|usage|flag|decision|outcome)(?:_|$)")
# a prose line that is one field of a record: "Decision: none -- deferred to the surgeon.", "Status: rolled back"
_FIELD_LINE = re.compile(r"(?m)^[ \t*_#>-]*(?P<key>[A-Za-z][A-Za-z ]{0,30}?)[ \t*_]*:[ \t*_]*(?P<value>[^\n]+)")


def held_back_status(text: str) -> str | None:
    """The first line of ``text`` that is a status field of a record (its key a status, a decision or an outcome)
    whose value withdraws or holds the answer back (:data:`_HELD_BACK`), or None (red team ``holdout_r60``): after a
    box, "Decision: none -- deferred to the cardiothoracic surgeon." or "Status: rolled back" leaves the box
    uncommitted; "Decision: CT angiography now." and "Status: executed" keep it.

    >>> held_back_status("Tabled: CTA.\\nDecision: none -- deferred to surgery.")
    'Decision: none -- deferred to surgery.'
    >>> held_back_status("Decision: CT angiography now.\\nStatus: executed") is None
    True
    """
    for line in _FIELD_LINE.finditer(text[:_MAX_CHARS]):
        if _STATUS_KEY.search(_key(line.group("key"))) and _HELD_BACK.search(line.group("value")):
            return line.group().strip(" \t*_#>-")
    return None


def stage(f: Field) -> str:
    """``draft``, ``final`` or "" by the words of the field's key (module docstring)."""
    return _stage_of(set(f.words), _DRAFT_WORDS)


def heading_stage(heading: str) -> str:
    """``draft``, ``final`` or "" by the words of a prose heading, as :func:`stage` reads a key's: "Attending final:"
    and "Final report (after MDT review):" are final, "Resident preliminary read:" and "Draft (agent 1):" draft,
    "Reader B:" neither. "first" is no stage here but an ordinal of what the line is about ("First rib: ...",
    "First film: ...")."""
    return _stage_of(set(re.findall(r"[a-z]+", heading.lower())), _HEADING_DRAFT_WORDS)


_HEADING_DRAFT_WORDS = _DRAFT_WORDS - {"first"}
# a heading: the words before a colon opening a line or a sentence ("Initial list:", "Comparison labels (prior
# 2024-02-01):", "ADDENDUM: ... also present. Corrected list:")
_HEADING = re.compile(r"(?m)(?:^|(?<=[.!?])[ \t]+)[ \t*_#>\[-]*(?P<head>[^:.!?\n]{3,60}):")
_LEAD_IN_CHARS = 200


def under_superseded_heading(text: str, start: int) -> bool:
    """Whether the answer starting at ``text[start]`` stands under a draft heading while another heading of the record
    is final (red team ``holdout_r60``: a record's sections). The answer's heading is its own line's before it, or,
    when the answer opens its line, the last line before it; its stage and the other headings' are read as
    :func:`heading_stage` reads them (a line before the answer heads it when it ends in a colon: "Draft:\\n<answer>",
    not "<think>Prior: ... Current: ...</think>\\n<answer>"). "Initial list: <answer>a</answer> ... Corrected list:
    <answer>a; b</answer>" and "Prior study labels: <answer>a; b</answer> Current study: no acute findings." put the first block under a
    superseded draft, and so does "Final assessment (v2): A. Superseded v1 (kept for audit): \\boxed{D}" its box; an
    answer under "Final list:", or under a draft with no final heading in the record, stands.

    >>> under_superseded_heading("Initial list: <answer>a</answer>\\nCorrected list: <answer>a; b</answer>", 14)
    True
    >>> under_superseded_heading("Initial list: <answer>a</answer>\\nNote: reviewed.", 14)
    False
    """
    return bool(superseded_answers(text, [start]))


def superseded_answers(text: str, starts: list[int]) -> set[int]:
    """The answers of ``starts`` that stand under a superseded draft heading (:func:`under_superseded_heading`), the
    record's headings read once (linear in the text whatever the number of answers)."""
    finals = [m.start() for m in _HEADING.finditer(text) if heading_stage(m.group("head")) == "final"]
    if not finals:
        return set()
    superseded = set()
    for start in starts:
        line_start = max(text.rfind("\n", max(0, start - _LEAD_IN_CHARS), start) + 1, start - _LEAD_IN_CHARS)
        lead_in, heading_line = text[line_start:start], line_start
        if not lead_in.strip():  # the answer opens its line: the heading is the last line before it, ending in a colon
            window = max(0, line_start - _LEAD_IN_CHARS)
            previous = text[window:max(0, line_start - 1)].rstrip()
            lead_in, heading_line = previous[previous.rfind("\n") + 1:], window + previous.rfind("\n") + 1
            if not lead_in.endswith(":"):
                continue
        head = _HEADING.match(lead_in.lstrip())
        if head is None or heading_stage(head.group("head")) != "draft":
            continue
        end = text.find("\n", start, start + _MAX_CHARS)  # (the answer's line, bounded: a line of 100 KB is read once)
        if finals[0] < heading_line or finals[-1] > (end if end >= 0 else start):
            superseded.add(start)
    return superseded


def _stage_of(words: set[str], draft_words: frozenset[str]) -> str:
    if words & _FINAL_WORDS:
        return "final"
    if words & draft_words:
        return "draft"
    return ""


def _stem(f: Field) -> str:
    return "_".join(w for w in f.words if w not in _FINAL_WORDS and w not in _DRAFT_WORDS)


def is_answer_field(f: Field, answer_key: Callable[[str], bool]) -> bool:
    """Does the field hold an answer: its key without its stage words is one the caller accepts, or is a stage word
    alone (``final``, ``draft``, ``candidate``), or names another answer (:data:`_OTHER_ANSWER`)?"""
    stem = _stem(f)
    return not stem or answer_key(stem) or bool(_OTHER_ANSWER.search(f.key))


def _same(a: object, b: object) -> bool:
    norm = lambda v: re.sub(r"\s+", " ", json.dumps(v, sort_keys=True, default=str).casefold())  # noqa: E731
    return norm(a) == norm(b)


def committed_field(fields: list[Field], answer_key: Callable[[str], bool]) -> tuple[Field | None, str]:
    """(the field that commits, "") or (None, why not) among ``fields`` (module docstring); (None, "") when no field
    is an answer field (the caller reads the body its own way)."""
    answers = [f for f in fields if is_answer_field(f, answer_key)]
    if not answers:
        return None, ""
    for f in fields:
        if f in answers:
            continue
        # a status-like field in any words, another field when its value is a short label ("note": "withdrawn"); a
        # reason that mentions a draft in a sentence ("revised from a first draft of 40 after the new run") is a reason
        if isinstance(f.value, str) and _HELD_BACK.search(f.value) and (
                _STATUS_KEY.search(f.key) or len(f.value.split()) <= 4):
            return None, f"the {f.key!r} field holds the answer back ({f.value[:50]!r})"
        if isinstance(f.value, str) and _HELD_BACK.search(f.key.replace("_", " ")) and f.value.strip():
            return None, f"the {f.key!r} field holds the answer back"
        if f.key in ("execute", "send", "sent", "signed", "final", "confirmed") and f.value is False:
            return None, f"the {f.key!r} field is false"
        if qualifies(f.key, f.value) and not (isinstance(f.value, str) and not _STATUS_KEY.search(f.key)
                                              and len(f.value.split()) > 4):
            return None, f"the {f.key!r} field grades the answer low ({f.value!r})"
    finals = [f for f in answers if stage(f) == "final"]
    if finals:
        return finals[-1], ""
    current = [f for f in answers if stage(f) != "draft"]
    if not current:
        return None, "the structure holds a draft and no final answer"
    if any(not _same(f.value, current[0].value) for f in current[1:]):
        keys = ", ".join(repr(f.key) for f in current)
        return None, f"the structure gives different answers under {keys}"
    return current[-1], ""


# ---------------------------------------------------------------------------------------------- markdown tables
_TABLE_ROW = re.compile(r"\|(.*)\|")
_RULE_CELL = re.compile(r":?-{3,}:?")
_SELECTING_HEADER = re.compile(r"(?:keep|kept|selected?|send|sent|chosen|choose|include[ds]?|use|final|present\??|"
                               r"in\s+answer|on\s+list|picked?)", re.IGNORECASE)
_YES = re.compile(r"(?:yes|y|true|x|✓|✔|✅|☑|keep|kept|selected|chosen|send|sent|include[ds]?|present)", re.IGNORECASE)
_NO = re.compile(r"(?:no|n|false|✗|✘|❌|drop(?:ped)?|not\s+sent|excluded?|absent|-|—|–|)", re.IGNORECASE)


def table_rows(body: str) -> tuple[list[str], list[list[str]]] | None:
    """(header cells, body rows) of a body that is wholly one markdown table (a header, its rule, rows), or None."""
    lines = [line.strip() for line in body.strip().splitlines() if line.strip()]
    if len(lines) < 3 or len(body) > _MAX_CHARS:
        return None
    rows = []
    for line in lines:
        row = _TABLE_ROW.fullmatch(line)
        if row is None:
            return None
        rows.append([cell.strip() for cell in row.group(1).split("|")])
    if not all(_RULE_CELL.fullmatch(cell) for cell in rows[1]) or any(len(r) != len(rows[0]) for r in rows):
        return None
    return rows[0], rows[2:]


def selected_rows(body: str) -> list[list[str]] | None:
    """The rows a table's selecting column keeps (``| label | keep |`` with ``yes`` / ``no``; ``| option | keep | why
    |``), without that column, or None when the body is no table, no column after the first has a selecting header
    (``keep``, ``selected``, ``send``, ``chosen``, ``present``), or a cell of that column is neither a yes nor a no (a
    reason, a number: a table of another kind)."""
    table = table_rows(body)
    if table is None or len(table[0]) < 2:
        return None
    column = next((i for i, cell in enumerate(table[0]) if i and _SELECTING_HEADER.fullmatch(cell)), None)
    if column is None:
        return None
    kept = []
    for row in table[1]:
        if _YES.fullmatch(row[column]):
            kept.append(row[:column] + row[column + 1:])
        elif not _NO.fullmatch(row[column]):
            return None
    return kept


def trailing_record(text: str, max_lines: int = 20) -> list[Field] | None:
    """The fields of the longest run of the text's last lines (at most ``max_lines``) that is wholly one structure
    (:func:`record_fields`): a reasoning in prose that ends on ``conclusion: D`` / ``{"conclusion": "B"}`` /
    ``<conclusion>E</conclusion>`` lines; None when its last line is no part of one."""
    lines = text.rstrip().splitlines()
    for start in range(max(0, len(lines) - max_lines), len(lines)):
        if (fields := record_fields("\n".join(lines[start:]))) is not None:
            return fields
    return None


def rendered_lines(body: str) -> str | None:
    """A body that is wholly one JSON object or run of XML-ish elements as ``Key: value`` lines, nested objects
    flattened and keys as written (``{"notes": {"A": "..."}}`` -> ``A: ...``; ``<option id="D">...</option>`` -> ``D:
    ...``, an element's ``id`` naming it), for readers of ``X: ...`` lines; None for any other body."""
    text = body.strip()
    if not text or len(text) > _MAX_CHARS:
        return None
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if not isinstance(parsed, dict):
            return None
        lines: list[str] = []
        _flatten(parsed, lines)
        return "\n".join(lines)
    if text.startswith("<") and (fields := _xml_fields(text)) is not None:
        return "\n".join(f"{f.attrs.get('id', f.key)}: {f.value}" for f in fields)
    return None


def _flatten(node: object, lines: list[str], key: str = "", keys: bool = True) -> None:
    """The scalars of ``node`` as lines, each after its key (``Key: value``) unless ``keys`` is False."""
    if isinstance(node, dict):
        for name, value in node.items():
            _flatten(value, lines, str(name), keys)
    elif isinstance(node, list):
        for item in node:
            _flatten(item, lines, key, keys)
    elif node is not None:
        lines.append(f"{key}: {node}" if key and keys else str(node))


def values_text(body: str) -> str | None:
    """The values of a body that is wholly one structure (:func:`record_fields`), one per line, its keys left out
    (``reasoning: TODO`` / ``steps: TBD`` says ``TODO`` and ``TBD``: a key names a field of a schema, not a thought);
    None for any other body."""
    fields = record_fields(body)
    if fields is None:
        return None
    lines: list[str] = []
    for f in fields:
        _flatten(f.value, lines, keys=False)
    return "\n".join(lines)

