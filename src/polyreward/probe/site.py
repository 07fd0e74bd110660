"""Where a genuine completion states its answer, and what a *different* answer of the same kind looks like.

The mutation search (:mod:`polyreward.probe.search`) knows nothing about reward types: it reads the genuine
completion as text. :func:`locate_site` finds the answer statement in it -- the last ``\\boxed{...}``, else the
last ``<tool_call>`` block, else the last ``<answer>`` block, else the last fenced code block (a program), else the
text after the reasoning -- and
:class:`Site` rewrites that statement with another value. :func:`different_value` makes a wrong value of the
same kind (another letter, another label, the last number moved far, a JSON leaf changed, another row's
answer), which the mutations plant; that is how the search knows, without any reward, that a candidate does not
commit to the genuine answer.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

MAX_VALUE_CHARS = 4_000  # a free-text answer longer than this is cut: every mutation stays bounded in size
_LABELS = ("yes", "no", "maybe")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class Site:
    """The answer statement of a completion: ``opener + value + closer`` (``\\boxed{`` ``42`` ``}``)."""

    opener: str
    value: str
    closer: str

    def statement(self, value: str | None = None) -> str:
        return f"{self.opener}{self.value if value is None else value}{self.closer}"

    @property
    def latex(self) -> bool:
        return self.opener.startswith("\\")


def _last_boxed(text: str) -> Site | None:
    start = max(text.rfind("\\boxed{"), text.rfind("\\fbox{"))
    if start < 0:
        return None
    opener = "\\boxed{" if text.startswith("\\boxed{", start) else "\\fbox{"
    depth, i = 1, start + len(opener)
    while i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return Site(opener, text[start + len(opener):i], "}")
        i += 1
    return None


def _last_block(text: str, tag: str) -> Site | None:
    end = text.rfind(f"</{tag}>")
    start = text.rfind(f"<{tag}>", 0, end if end >= 0 else None)
    if start < 0 or end < start:
        return None
    return Site(f"<{tag}>", text[start + len(tag) + 2:end], f"</{tag}>")


_FENCE = re.compile(r"```[A-Za-z0-9_+-]*\n")


def _last_fence(text: str) -> Site | None:
    """The last fenced code block (a program is the answer of a code task)."""
    openings = list(_FENCE.finditer(text))
    for opening in reversed(openings):
        end = text.find("\n```", opening.end() - 1)
        if end >= 0:
            return Site(opening.group(), text[opening.end():end], "\n```")
    return None


def split_think(text: str) -> tuple[str, str, str] | None:
    """(text before ``<think>``, the reasoning, text after ``</think>``), or None without a think block."""
    start = text.find("<think>")
    end = text.find("</think>", start + 1)
    if start < 0 or end < 0:
        return None
    return text[:start], text[start + len("<think>"):end], text[end + len("</think>"):]


def locate_site(text: str) -> Site | None:
    """The answer statement of ``text`` (module docstring); None for an empty answer."""
    for site in (_last_boxed(text), _last_block(text, "tool_call"), _last_block(text, "answer"), _last_fence(text)):
        if site is not None and site.value.strip():
            return site
    parts = split_think(text)
    rest = (parts[2] if parts else text).strip()
    return Site("", rest[-MAX_VALUE_CHARS:], "") if rest else None


def _shift_last_number(value: str) -> str | None:
    """The last number ``x`` replaced by ``x + 50 + 2|x|``: never equal, and far enough to leave any bin or class
    a coarse reward (a forecast's pollution class) puts ``x`` in."""
    matches = list(_NUMBER.finditer(value))
    if not matches:
        return None
    m = matches[-1]
    number = m.group()
    x = float(number)
    far = x + 50 + 2 * abs(x)
    shifted = f"{far:.{len(number.split('.')[1])}f}" if "." in number else str(int(far))
    return value[:m.start()] + shifted + value[m.end():]


def _json_objects(value: str) -> list[dict] | None:
    """The JSON objects of a tool-call block (one per line, or a JSON list), or None."""
    try:
        parsed = json.loads(value)
        objects = parsed if isinstance(parsed, list) else [parsed]
    except ValueError:
        objects = []
        for line in value.strip().splitlines():
            try:
                objects.append(json.loads(line))
            except ValueError:
                return None
    return objects if objects and all(isinstance(o, dict) for o in objects) else None


def _changed_leaf(obj: object) -> tuple[object, bool]:
    """``obj`` with its first scalar leaf changed (a string gets a suffix, a number moves, a boolean flips)."""
    if isinstance(obj, dict):
        out, done = {}, False
        for key, item in obj.items():
            if not done and key != "name":
                item, done = _changed_leaf(item)
            out[key] = item
        return out, done
    if isinstance(obj, list):
        for i, item in enumerate(obj):
            new, done = _changed_leaf(item)
            if done:
                return [*obj[:i], new, *obj[i + 1:]], True
        return obj, False
    if isinstance(obj, bool):
        return (not obj), True
    if isinstance(obj, (int, float)):
        return obj + 50 + 2 * abs(obj), True
    if isinstance(obj, str):
        return obj + "_other", True
    return obj, False


def calls_of(value: str) -> list[dict] | None:
    """The tool calls a value holds (JSON objects with a ``name``), or None."""
    objects = _json_objects(value)
    return objects if objects and all("name" in o for o in objects) else None


_PROSE_NEGATION = re.compile(r"\b(?:no|not|without)\s+(?:evidence\s+of\s+|signs?\s+of\s+)?(?=[A-Za-z])", re.IGNORECASE)


def contradiction(value: str) -> str | None:
    """Prose that says what ``value`` denies, for a free-text answer (a report): "There is no pneumothorax." ->
    "There is pneumothorax."; None when it denies nothing or is not prose (fewer than 2 words). Another row's
    report is no wrong answer for a free-text reward: its findings may well agree with this row's (a consistent
    sentence appended to the genuine report plants no flaw), while stating a denied finding does contradict."""
    if len(value.split()) < 2 or not _PROSE_NEGATION.search(value):
        return None

    def affirm(match: re.Match) -> str:  # "No pneumothorax." -> "There is pneumothorax." (a one-word sentence is no statement)
        start = value[:match.start()].rstrip()
        return "There is " if not start or start[-1] in ".!?:\n0123456789" else ""

    flipped = _PROSE_NEGATION.sub(affirm, value)
    return flipped if flipped.strip() and flipped != value else None


def different_value(value: str, others: Sequence[str] = (), rng: random.Random | None = None) -> str:
    """A wrong value of the same kind as ``value`` (module docstring); never equal to it."""
    stripped = value.strip()
    letter = re.fullmatch(r"\(?([A-Z])\)?", stripped)
    if letter:
        return value.replace(letter.group(1), "B" if letter.group(1) == "A" else "A")
    if stripped.lower() in _LABELS:
        return "no" if stripped.lower() != "no" else "yes"
    objects = _json_objects(stripped)
    if objects is not None:
        changed, done = _changed_leaf(objects[0])
        if not done:
            changed = {**objects[0], "name": f"{objects[0].get('name', 'call')}_other"}
        lines = [json.dumps(changed, ensure_ascii=False), *(json.dumps(o, ensure_ascii=False) for o in objects[1:])]
        return "\n" + "\n".join(lines) + "\n" if value.startswith("\n") else "\n".join(lines)
    shifted = _shift_last_number(value)
    if shifted is not None and len(stripped) <= 200:
        return shifted
    contradicted = contradiction(stripped)
    if contradicted is not None:
        return contradicted
    candidates = [o for o in others if o.strip() and o.strip() != stripped]
    if candidates:
        return (rng.choice(candidates) if rng else candidates[0])[:MAX_VALUE_CHARS]
    if shifted is not None:
        return shifted
    words = stripped.split()
    return " ".join(reversed(words)) + " (revised)" if len(words) > 1 else stripped + "_other"


@dataclass
class RowContext:
    """What a mutation knows about one probed row: its prompt, the genuine completion, its answer site and a
    planted wrong value (``wrong``), the padding size and the answers of other rows."""

    prompt: str
    genuine: str
    site: Site | None
    wrong: str | None
    pad_words: int
    others: list[str] = field(default_factory=list)

    @property
    def gold(self) -> str | None:
        return None if self.site is None else self.site.value

    @property
    def gold_statement(self) -> str | None:
        return None if self.site is None else self.site.statement()

    @property
    def wrong_statement(self) -> str | None:
        return None if self.site is None or self.wrong is None else self.site.statement(self.wrong)


def row_context(prompt: str, genuine: str, others: Sequence[str], pad_words: int) -> RowContext:
    site = locate_site(genuine)
    wrong = None if site is None else different_value(site.value, others)
    return RowContext(prompt, genuine, site, wrong, pad_words, list(others))
