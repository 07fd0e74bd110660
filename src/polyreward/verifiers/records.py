"""A completion that is one record -- a JSON object, a TOML document or plain ``key: value`` lines with lower-case
identifier keys, the whole visible text or the end of it after prose -- read as the record reads (holdout59): the
answer is the value under the answer key at any depth, and a nested answer object gives its value or letter field
(``"answer": {"value": 13}``, ``"answer": {"letter": "D", "text": "√2"}``); a field that restates the answer in
another form (a decimal equal to it to the digits shown, the work, a reason) is no second answer; a section or field
named example / sample / alternative / rejected / distractor is no answer (``[example_output]`` beside the real
``[output]``), and an empty or null answer field answers nothing (``{"answer": null, "candidates": ["C", "E"]}``). The record is read this way only when it is clean: one
answer value, no withdrawal flag, no confidence graded low, no alternative offered, no comment, no second thought,
conclusion or denial of the answer in any other key or string -- otherwise the text reader decides as before. A tool
call that submits the answer is its arguments' record (:func:`submitted_calls`); the readers check it against the
answer the prose before it commits to. Reconstructed rules (ours), each bounded: parsing is the standard library's,
on at most 4000 characters.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass

from polyreward.verifiers.answer_forms import PROVISIONAL_WORD, WITHDRAWN_WORD, CHANGE_OF_MIND, JSON_WITHDRAWN, SECOND_ANSWER_KEY, answer_fields_disagree
from polyreward.verifiers.pattern_cache import cached_re as re

_MAX_CHARS = 4000
# the keys that hold the answer ("answer", "final_answer", "choice") and, in a nested answer object, its value field
_ANSWER_KEYS = frozenset({"answer", "final_answer", "finalanswer", "final answer", "final", "result", "choice", "selected", "option"})
_VALUE_KEYS = ("value", "answer", "letter", "choice", "option", "result")
# a key whose subtree is not the writer's answer: an example, an alternative, a rejected candidate, a distractor
_NOT_THE_ANSWER = re.compile(r"(?:^|[_\W])(?:examples?|samples?|alternatives?|alternates?|rejected|distractors?|decoys?)(?:$|[_\W])", re.IGNORECASE)
_FENCE = re.compile(r"\A```[\w-]*[ \t]*\n(?P<body>.*)\n```\Z", re.DOTALL)


@dataclass(frozen=True)
class RecordAnswer:
    """What a record that ends a completion answers: ``value`` (``""``: the answer field is empty); ``start``: where
    the record opens (0: the whole completion is the record; after it, prose the record must agree with)."""

    value: str
    start: int = 0


def _parse(text: str) -> object | None:
    """The record ``text`` is, as JSON or TOML (a fence around it is read through), or None."""
    body = text.strip()
    if not body or len(body) > _MAX_CHARS:
        return None
    if (fence := _FENCE.match(body)) is not None:
        body = fence.group("body").strip()
    if body.startswith("{"):
        try:
            return json.loads(body)
        except ValueError:
            return None
    if body.startswith("|"):
        return _field_value_table(body)
    if "=" not in body:
        return _key_value_lines(body)
    if "#" in body:
        return None  # 'answer = 210  # TODO: unverified': a comment qualifies the answer, and the text reader reads it
    try:
        return tomllib.loads(body)
    except (tomllib.TOMLDecodeError, ValueError):
        return None


# a line of a plain key-value record: "answer: A", "reason: c ≈ 299,792 km/s"
# (a YAML-style key is an identifier in lower case: "Answer: B" / "Verdict: ..." lines are prose labels, read as text)
_KEY_VALUE_LINE = re.compile(r"[ \t]*(?P<key>[a-z_][a-z0-9_]{0,30})[ \t]*:[ \t]*(?P<value>\S.*?)[ \t]*")


def _key_value_lines(body: str) -> dict[str, str] | None:
    """A record of two or more "key: value" lines, every line one (each key once, lower-case identifier keys), or None."""
    lines = [line for line in body.splitlines() if line.strip()]
    fields: dict[str, str] = {}
    for line in lines:
        match = _KEY_VALUE_LINE.fullmatch(line)
        if match is None or match.group("key").lower() in fields:
            return None
        fields[match.group("key").lower()] = match.group("value")
    return fields if len(fields) >= 2 else None


# a markdown table of two columns headed as a record's fields and their values ("| field | value |", "| key | value |")
_FIELD_TABLE_HEAD = re.compile(r"\|[ \t]*(?:field|key|name|property|attribute)[ \t]*\|[ \t]*value[ \t]*\|?", re.IGNORECASE)
_TABLE_RULE = re.compile(r"\|?[ \t]*:?-{2,}:?[ \t]*\|[ \t]*:?-{2,}:?[ \t]*\|?")


def _field_value_table(body: str) -> dict[str, str] | None:
    """A markdown table of fields and values read as the record it lays out (holdout112): ``| field | value |`` over
    ``| answer | 52 |`` / ``| status | final |`` is the record ``answer: 52`` / ``status: final``, read by the same rules
    as plain key-value lines (:func:`_key_value_lines`); any other table is None."""
    lines = body.splitlines()
    if len(lines) < 4 or not _FIELD_TABLE_HEAD.fullmatch(lines[0].strip()) or not _TABLE_RULE.fullmatch(lines[1].strip()):
        return None
    rows = []
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0] or not cells[1]:
            return None
        rows.append(f"{cells[0].replace(' ', '_')}: {cells[1]}")
    return _key_value_lines("\n".join(rows))


# a field that points at one entry of a list as the writer's pick ("final_attempt": 2, "chosen_candidate": 1)
_POINTER_KEY = re.compile(r"(?:final|chosen|selected|submitted|accepted)[ _-]?(?:attempt|candidate|try|entry|version)(?:[ _-]?(?:n|no|number|id|index))?", re.IGNORECASE)
# the field an entry is numbered by ("n": 2, "id": 2, "attempt": 2)
_ENTRY_NUMBER = ("n", "id", "no", "number", "attempt", "candidate", "try", "version", "index")


def _chosen_entry(record: dict) -> dict | None:
    """The entry a pointer field picks out of the record's list of entries (holdout112): ``{"attempts": [{"n": 1,
    "value": 9}, {"n": 2, "value": 18}], "final_attempt": 2}`` is ``{"n": 2, "value": 18}``, read as the record.
    None when the record has no such pointer, or no entry or several carry its number, or another answer field
    stands beside it (read as before)."""
    pointers = [value for key, value in record.items() if _POINTER_KEY.fullmatch(str(key)) and isinstance(value, int) and not isinstance(value, bool)]
    lists = [value for value in record.values() if isinstance(value, list) and value and all(isinstance(item, dict) for item in value)]
    if len(pointers) != 1 or len(lists) != 1 or any(str(key).lower() in _ANSWER_KEYS for key in record):
        return None
    numbered = [item for item in lists[0] if any(str(key).lower() in _ENTRY_NUMBER and item[key] == pointers[0] for key in item)]
    if len(numbered) != 1:
        return None
    return {("answer" if str(key).lower() in _VALUE_KEYS else key): value for key, value in numbered[0].items() if str(key).lower() not in _ENTRY_NUMBER}


def _scalar(value: object) -> str | None:
    """A field's value as written: a string, or a number's shortest form; None for anything else."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float):
        return json.dumps(value)
    return None


def _answer_of(value: object) -> str | None:
    """The answer an answer field holds: its scalar, or a nested answer object's value / letter field."""
    if isinstance(value, dict):
        for key in _VALUE_KEYS:
            for name, inner in value.items():
                if str(name).lower() == key and (found := _scalar(inner)) is not None:
                    return found
        return None
    return _scalar(value)


def _walk(node: object, answers: list[str], words: list[str], restated: list[str], revised: list[object]) -> None:
    """Collect the answers under answer keys at any depth (skipping example / alternative subtrees) into ``answers``
    and every other key and string into ``words`` (read for a second thought), the values of fields that restate the
    answer in another form into ``restated``, and the values of revised answer fields (``revised_answer``) into
    ``revised``."""
    if isinstance(node, list):
        for item in node:
            _walk(item, answers, words, restated, revised)
    elif isinstance(node, dict):
        for key, value in node.items():
            name = str(key)
            if _SECOND_ANSWER_NAME.search(name) and value not in (None, "", [], {}):
                words.append("\0qualified")  # '"backup": "D"' beside the answer: a second answer (answer_forms.second_answers)
                continue
            if _NOT_THE_ANSWER.search(name):
                if _OFFERED_INSTEAD.search(name) and value not in (None, "", [], {}):
                    words.append("\0qualified")  # '"alternatives": [41, 43]' beside the answer: offered instead of it
                continue
            if _REVISED_KEY.fullmatch(name) and value not in (None, ""):
                revised.append(value)  # 'answer: 9600' then 'revised_answer: 9.6': the revision is the answer (holdout112)
                continue
            if _CONFIRMING_STATUS.fullmatch(name) and isinstance(value, str) and _CONFIRMED.fullmatch(value.strip()):
                continue  # '"status": "final"': the record vouches for its answer, no conclusion of its own (holdout112)
            if name.lower().replace("-", "_") in _ANSWER_KEYS:
                found = "" if value is None else _answer_of(value)  # '"answer": null': the writer states no answer (holdout100)
                answers.append(found if found is not None else "\0")  # "\0": an answer field that holds no value
                continue
            words.append(name)
            if qualifies(name, value):
                words.append("\0qualified")
            if _RESTATING_KEY.search(name) and _scalar(value) is not None:
                restated.append(_scalar(value))
            _walk(value, answers, words, restated, revised)
    elif isinstance(node, str):
        words.append(node)


# where a record may open after prose: a line that opens with a brace, or a record's fence (holdout77)
_RECORD_OPENS = re.compile(r"\n[ \t]*(?=\{|```[ \t]*(?:json|yaml|yml|toml))")
# the info string of a fenced block that holds a record, not code: the writer's structured answer, read as text
RECORD_FENCE_INFO = re.compile(r"[ \t]*(?:json5?|jsonc)[ \t]*", re.IGNORECASE)  # (yaml and toml hold comments: read as code)


def record_answer(text: str) -> RecordAnswer | None:
    """The answer of a completion that is one clean record, or that ends on one after prose (a submitted tool call's
    arguments: :func:`submitted_calls`), as the module docstring reads it; None: no record, no answer key, two
    answer values, a withdrawal flag, or a second thought in another field -- there the text reader decides."""
    if "=" not in text and '"' not in text and ":" not in text and "|" not in text:
        return None
    if '"op"' in text and (patched := patched_record(text)) is not None:
        found = _record_value(json.dumps(patched, ensure_ascii=False))
        return RecordAnswer(found or "")  # (a patched record with no clean answer answers nothing, never the unpatched one)
    found = _record_value(text)
    if found is not None:
        return RecordAnswer(found)
    if "{" not in text:
        return None
    for opens in _RECORD_OPENS.finditer(text, max(0, len(text) - _MAX_CHARS)):
        if text[:opens.start()].strip() and (found := _record_value(text[opens.end():])) is not None:
            return RecordAnswer(found, opens.end())
    return None


def _record_value(text: str) -> str | None:
    """:func:`record_answer` for a text that is one record as a whole."""
    record = _parse(text)
    if not isinstance(record, dict):
        return None
    if (chosen := _chosen_entry(record)) is not None:
        record = chosen  # '"attempts": [{"n": 1, ...}, {"n": 2, "value": 18}], "final_attempt": 2' is attempt 2 (holdout112)
    answers: list[str] = []
    words: list[str] = []
    restated: list[str] = []
    revised: list[object] = []
    _walk(record, answers, words, restated, revised)
    if revised:
        answers, words = _after_revision(revised, answers, words)
    distinct = {re.sub(r"\s+", "", answer) for answer in answers}
    if len(distinct) != 1 or "\0" in distinct:
        return None
    if distinct == {""}:
        return ""  # the answer field is empty: whatever else the record says, it answers nothing
    if JSON_WITHDRAWN.search(text) or JSON_WITHDRAWN.search(json.dumps(record, default=str)) or answer_fields_disagree(text):
        return None  # '{"answer": 24, "retracted": true}', '[result] value = 6, status = "tentative"'
    if any(not _restates(form, answers[0]) for form in restated):
        return None  # '"answer": "1/2", "decimal": 0.7': another value in another form (the text reader: two answers)
    if "?" in answers[0] or "\0qualified" in words or any(_second_thought(word, answers[0]) or _CONCLUDES.search(word) for word in words) or _second_thought(answers[0], ""):
        return None  # '"answer": "64?"', '"note": "8 or 16"', 'Explanation: The answer is D because ...'

    return answers[0]


# a field that revises the answer: "revised_answer", "corrected_answer", "updated_final_answer", "answer_revised"
_REVISED_KEY = re.compile(r"(?:revised|corrected|updated|amended|new)[ _-]?(?:final[ _-]?)?answer|answer[ _-](?:revised|corrected|updated|amended)", re.IGNORECASE)
# a status field that vouches for the answer ("status": "final", "state: submitted")
_CONFIRMING_STATUS = re.compile(r"status|state", re.IGNORECASE)
_CONFIRMED = re.compile(r"final|submitted|verified|confirmed|checked|done|complete[d]?", re.IGNORECASE)
# a comment after a plain record line's value ("9.6   # the question asks for kilometres")
_LINE_COMMENT = re.compile(r"\s+#\s+(?P<comment>.*)\Z")


def _after_revision(revised: list[object], answers: list[str], words: list[str]) -> tuple[list[str], list[str]]:
    """The answers and words of a record whose answer a field revises (holdout112): ``answer: 9600`` /
    ``revised_answer: 9.6   # the question asks for kilometres`` answers 9.6, as ``answer: A`` / ``revised_answer: B``
    / ``revision_note: ...`` answers B -- the revision is the writer's answer, the first value its draft, and words
    of revising are no second thought. Two revisions that differ, or a comment that doubts the revision, are read
    on as before (the comment joins the words)."""
    found = []
    for value in revised:
        answer = _answer_of(value)
        if answer is None:
            return ["\0"], words
        if (comment := _LINE_COMMENT.search(answer)) is not None:
            words = [*words, comment.group("comment")]
            answer = answer[:comment.start()]
        found.append(answer)
    return found, [word for word in words if not re.fullmatch(r"revision[ _-]?(?:notes?|reason|why)?|revis\w*", word.strip(), re.IGNORECASE)]


# a field other than the answer that concludes something of its own ("so D", "the answer is D", "final: ...")
_CONCLUDES = re.compile(r"\b(?:answers?|final|so|therefore|thus|hence|update[ds]?)\b", re.IGNORECASE)


# a field that grades the writer's confidence, and the grades that do not vouch for the answer
_CONFIDENCE_KEY = re.compile(r"confiden|certain|sure|credence|probab|likel", re.IGNORECASE)
_LOW_GRADE = re.compile(r"\A\W*(?:low|very\s+low|medium|moderate|mid|weak|unsure|uncertain|not\s+sure|none|no|false|guess\w*|50\s*/\s*50)\W*\Z", re.IGNORECASE)
_QUALIFYING_WORD = re.compile(r"\b" + WITHDRAWN_WORD + r"\b|\b" + PROVISIONAL_WORD + r"\b", re.IGNORECASE)


def qualifies(key: str, value: object) -> bool:
    """Does a field qualify the record's answer: a confidence graded low or unset (``"confidence": "low"``, ``0.2``,
    ``"certain": false``) or a value that calls it withdrawn or provisional (``"note": "unverified"``)? Such a
    record is read by the text reader, which weighs the qualification as it does in prose."""
    if isinstance(value, str) and _QUALIFYING_WORD.search(value):
        return True
    if not _CONFIDENCE_KEY.search(key):
        return False
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value < 0.5 if value <= 1 else value < 50
    if isinstance(value, str):
        number = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(%?)\s*", value)
        if number is not None:
            return float(number.group(1)) < (50 if number.group(2) or float(number.group(1)) > 1 else 0.5)
        return _LOW_GRADE.search(value) is not None
    return False


# a field that states the answer in another form: "decimal", "as_percent", "approx", "rounded", "numeric_value"
_RESTATING_KEY = re.compile(r"decimal|percent|fraction|numeric|approx|rounded|float", re.IGNORECASE)
# an alternative offered beside the answer (an example, a rejected candidate or a distractor is no offer)
_OFFERED_INSTEAD = re.compile(r"alternat", re.IGNORECASE)
# a key for a second answer beside the first ('backup', 'fallback_answer', 'plan_b'): the record is no clean statement
_SECOND_ANSWER_NAME = re.compile(r"(?:^|[_\W])" + SECOND_ANSWER_KEY + r"(?:$|[_\W])", re.IGNORECASE)
_FRACTION = re.compile(r"\A\s*(?:\\[dt]?frac\{(-?\d+)\}\{(\d+)\}|(-?\d+)\s*/\s*(\d+))\s*\Z")


def _number(text: str) -> float | None:
    """A plain number or fraction as a float ("11/12", "\\frac{11}{12}", "0.9167", "91.67%"), else None."""
    text = text.strip().replace(",", "")
    if (fraction := _FRACTION.match(text)) is not None:
        top, bottom = (fraction.group(1), fraction.group(2)) if fraction.group(1) is not None else (fraction.group(3), fraction.group(4))
        return int(top) / int(bottom) if int(bottom) else None
    match = re.fullmatch(r"(-?\d+(?:\.\d+)?)\s*(%?)", text)
    if match is None:
        return None
    return float(match.group(1)) / (100 if match.group(2) else 1)


def _restates(form: str, answer: str) -> bool:
    """Is ``form`` the answer written another way, to the digits it shows ("0.9167" or "91.67%" for "11/12")?"""
    shown, value = _number(form), _number(answer)
    if shown is None or value is None:
        return False
    digits = len(form.split(".")[1].rstrip("%").strip()) if "." in form else 0
    step = 10.0 ** -(digits + (2 if form.strip().endswith("%") else 0))
    return abs(shown - value) <= step / 2 + 1e-12 or abs(shown - value * 100) <= 10.0 ** -digits / 2 + 1e-12


_NEGATION = re.compile(r"\b(?:not|no|never|avoid|doubt\w*)\b|n't\b", re.IGNORECASE)


def _second_thought(word: str, answer: str) -> bool:
    """Does a key or string of the record other than its answer change its mind (:data:`CHANGE_OF_MIND`), or deny the
    answer it names ("don't rely on B")? Values joined by
    "or" there are alternatives to the answer only when the answer is among them ("8 or 16"); "not divisible by 3 or
    5" in a step is about other numbers."""
    if answer and _NEGATION.search(word) and re.search(r"(?<![\w.])" + re.escape(answer) + r"(?![\w.])", word):
        return True  # 'verdict: "don't rely on B"': a field that denies the answer
    for match in CHANGE_OF_MIND.finditer(word):
        if match.group().lower() != "or" or (answer and re.search(r"(?<![\w.])" + re.escape(answer) + r"(?![\w.])", word)):
            return True
    return False


# a tool that submits the answer, by the name it is called by ("submit_answer", "final_answer", "respond")
ANSWER_TOOL_NAME = re.compile(r"answer|submit|final|respond", re.IGNORECASE)
# where a tool call written as JSON may open: an OpenAI "tool_calls" list, a call with a name, a function call
_CALL_OPENS = re.compile(r'\{(?=\s*"(?:tool_calls|name|type|id|function)")')


def _calls(record: object) -> list[tuple[str, object]] | None:
    """The (name, arguments) of the tool calls a parsed JSON object is (a Hermes / bare call, an OpenAI
    ``tool_calls`` list, one OpenAI call), or None when it is no tool call. Arguments written as a JSON string
    (OpenAI) are parsed."""
    if not isinstance(record, dict):
        return None
    if isinstance(record.get("tool_calls"), list) and len(record) <= 3:
        found = [_calls(call) for call in record["tool_calls"]]
        return None if any(calls is None for calls in found) else [call for calls in found for call in calls]
    if isinstance(record.get("function"), dict):
        return _calls(record["function"])
    arguments = record.get("arguments", record.get("parameters"))
    if not isinstance(record.get("name"), str) or arguments is None:
        return None
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    return [(record["name"], arguments)]


def submitted_calls(text: str) -> str:
    """``text`` with each tool call written as JSON read as what it says (holdout59): a call to a tool that submits
    the answer (:data:`ANSWER_TOOL_NAME`) is its arguments, one record the answer readers read like any other
    (``{"tool_calls": [{"function": {"name": "submit_answer", "arguments": "{\\"answer\\": 120}"}}]}`` reads
    ``{"answer": 120}``); a call to any other tool is input to it, no text. Two submitted calls are two records."""
    if '"arguments"' not in text and '"parameters"' not in text:
        return text
    decoder, parts, position = json.JSONDecoder(), [], 0
    for opens in _CALL_OPENS.finditer(text):
        if opens.start() < position:
            continue
        try:
            record, end = decoder.raw_decode(text, opens.start())
        except ValueError:
            continue
        calls = _calls(record)
        if calls is None:
            continue
        parts.append(text[position:opens.start()])
        parts.append("\n".join(json.dumps(arguments, ensure_ascii=False) for name, arguments in calls if ANSWER_TOOL_NAME.search(name)) or "\n")
        position = end
    return "".join(parts) + text[position:] if parts else text


# a line that opens a JSON object or array: where a record, or a patch to it, may stand
_JSON_OPENS = re.compile(r"^[ \t]*(?=[\[{])", re.MULTILINE)
_PATCH_OPS = frozenset({"add", "replace", "remove"})


def patched_record(text: str) -> dict | None:
    """The record a completion ends on once the JSON Patch (RFC 6902) the writer writes after it is applied (holdout112):
    ``{"answer": 45, ...}`` then ``[{"op": "replace", "path": "/answer", "value": 42}]`` is the record ``{"answer":
    42, ...}``, so the writer's patch decides the answer as a corrected record would. Only ``add``, ``replace`` and
    ``remove`` on paths into the record; anything else (another op, a path that is not there, a second record or
    patch after the first, words after the patch) is None, and the text reader reads the text as before."""
    decoder = json.JSONDecoder()
    record, patch, end = None, None, 0
    for opens in _JSON_OPENS.finditer(text):
        if opens.end() < end:
            continue
        try:
            found, end = decoder.raw_decode(text, opens.end())
        except ValueError:
            return None
        if record is None and isinstance(found, dict):
            record = found
        elif record is not None and patch is None and _is_patch(found):
            patch = found
        else:
            return None
    if record is None or patch is None or text[end:].strip():
        return None
    for operation in patch:
        if not _apply(record, operation):
            return None
    return record


def _is_patch(found: object) -> bool:
    """Is ``found`` a JSON Patch: a list of operations, each with an ``op`` and a ``path``?"""
    return isinstance(found, list) and bool(found) and all(
        isinstance(item, dict) and isinstance(item.get("op"), str) and isinstance(item.get("path"), str) for item in found)


def _apply(record: dict, operation: dict) -> bool:
    """Apply one ``add`` / ``replace`` / ``remove`` to ``record`` in place (a JSON Pointer into objects only); False
    when the operation is of another kind or its path does not lead into the record."""
    if operation["op"] not in _PATCH_OPS or not operation["path"].startswith("/") or (operation["op"] != "remove" and "value" not in operation):
        return False
    *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in operation["path"][1:].split("/")]
    node: object = record
    for part in parents:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    if not isinstance(node, dict) or (operation["op"] != "add" and last not in node):
        return False
    if operation["op"] == "remove":
        del node[last]
    else:
        node[last] = operation["value"]
    return True
