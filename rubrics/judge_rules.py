"""The ``rules`` judge: checks a rubric item's ``rule`` on the response text, no model.

A rule is a mapping on the item (``"rule": {...}``); every condition it names must hold for the item
to be met (logical AND)::

    regex: PATTERN | [PATTERN, ...]        met if any pattern is found (re.search)
    not_regex: PATTERN | [PATTERN, ...]    met if no pattern is found
    contains: TEXT | [TEXT, ...]           met if any text occurs
    contains_all: [TEXT, ...]              met if every text occurs
    not_contains: TEXT | [TEXT, ...]       met if no text occurs
    min_words / max_words: INT             word count (whitespace split) within bounds, inclusive
    min_chars / max_chars: INT             character count within bounds, inclusive
    callable: "package.module:function"    imported (never eval'd) and called as
                                           fn(response, conversation=[messages], item=RubricItem, **params)
                                           -> bool or (bool, explanation)
    params: {...}                          keyword arguments for ``callable``
    ignore_case: true                      (default) case-insensitive regex / contains

This is RuscaRL's hybrid idea (``verifier:rule`` items checked by a Python function, docs/reference/libraries.md#rubric-rl)
with a declarative grammar. Inside a ``rubric`` reward, items that carry a rule are always judged here,
whatever model judge the other items use. An item without a rule, or a callable that raises, gives a
failed verdict (NaN) with the reason.

Patterns come from the rubric author (trusted), the text from the policy; keep patterns free of nested
quantifiers, since Python's ``re`` has no timeout.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from polyreward.rubrics.judges import Judge, JudgeRequest, Verdict, failed

TEXT_LIST_KEYS = ("regex", "not_regex", "contains", "contains_all", "not_contains")
BOUND_KEYS = ("min_words", "max_words", "min_chars", "max_chars")
RULE_KEYS = TEXT_LIST_KEYS + BOUND_KEYS + ("callable", "params", "ignore_case")
_CALLABLE_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def _as_list(value: Any, key: str) -> list[str]:
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, Sequence) or not values or not all(isinstance(v, str) and v for v in values):
        raise ValueError(f"{key}: must be a non-empty string or a list of non-empty strings, got {value!r}")
    return list(values)


def resolve_callable(spec: str) -> Callable[..., Any]:
    """Import ``package.module:function`` (attribute paths allowed after the colon); never evaluates code."""
    if not isinstance(spec, str) or not _CALLABLE_SPEC.match(spec):
        raise ValueError(f"callable: must look like 'package.module:function', got {spec!r}")
    module_name, _, attr_path = spec.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"callable: cannot import module {module_name!r} ({exc})") from None
    for attr in attr_path.split("."):
        if not hasattr(target, attr):
            raise ValueError(f"callable: module {module_name!r} has no attribute {attr_path!r}")
        target = getattr(target, attr)
    if not callable(target):
        raise ValueError(f"callable: {spec!r} is not callable")
    return target


def validate_rule(rule: Any) -> None:
    """Raise ValueError naming the bad key when ``rule`` does not follow the grammar above."""
    if not isinstance(rule, Mapping) or not rule:
        raise ValueError(f"must be a non-empty mapping of conditions, got {rule!r}")
    unknown = sorted(set(rule) - set(RULE_KEYS))
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}; allowed: {', '.join(RULE_KEYS)}")
    if not set(rule) & (set(TEXT_LIST_KEYS) | set(BOUND_KEYS) | {"callable"}):
        raise ValueError(f"names no condition; use one of {', '.join(TEXT_LIST_KEYS + BOUND_KEYS + ('callable',))}")
    flags = 0 if rule.get("ignore_case", True) is False else re.IGNORECASE
    if not isinstance(rule.get("ignore_case", True), bool):
        raise ValueError(f"ignore_case: must be true or false, got {rule['ignore_case']!r}")
    for key in ("regex", "not_regex"):
        if key in rule:
            for pattern in _as_list(rule[key], key):
                try:
                    re.compile(pattern, flags)
                except re.error as exc:
                    raise ValueError(f"{key}: invalid regular expression {pattern!r} ({exc})") from None
    for key in ("contains", "contains_all", "not_contains"):
        if key in rule:
            _as_list(rule[key], key)
    for key in BOUND_KEYS:
        if key in rule:
            value = rule[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key}: must be a non-negative integer, got {value!r}")
    if "params" in rule:
        if "callable" not in rule:
            raise ValueError("params: only used with 'callable'")
        if not isinstance(rule["params"], Mapping):
            raise ValueError(f"params: must be a mapping, got {rule['params']!r}")
    if "callable" in rule:
        resolve_callable(rule["callable"])


def check_rule(rule: Mapping[str, Any], response: str, request: JudgeRequest | None = None) -> Verdict:
    """Apply one rule to a response; the explanation names the first condition that decided it."""
    flags = re.IGNORECASE if rule.get("ignore_case", True) else 0
    folded = response.lower() if flags else response

    def fold(text: str) -> str:
        return text.lower() if flags else text

    notes: list[str] = []
    if "regex" in rule:
        patterns = _as_list(rule["regex"], "regex")
        hit = next((p for p in patterns if re.search(p, response, flags)), None)
        if hit is None:
            return Verdict(False, f"no match for regex {patterns}")
        notes.append(f"matches /{hit}/")
    if "not_regex" in rule:
        hit = next((p for p in _as_list(rule["not_regex"], "not_regex") if re.search(p, response, flags)), None)
        if hit is not None:
            return Verdict(False, f"matches excluded regex /{hit}/")
        notes.append("no excluded pattern")
    if "contains" in rule:
        texts = _as_list(rule["contains"], "contains")
        hit = next((t for t in texts if fold(t) in folded), None)
        if hit is None:
            return Verdict(False, f"contains none of {texts}")
        notes.append(f"contains {hit!r}")
    if "contains_all" in rule:
        missing = [t for t in _as_list(rule["contains_all"], "contains_all") if fold(t) not in folded]
        if missing:
            return Verdict(False, f"missing {missing}")
        notes.append("contains all required texts")
    if "not_contains" in rule:
        hit = next((t for t in _as_list(rule["not_contains"], "not_contains") if fold(t) in folded), None)
        if hit is not None:
            return Verdict(False, f"contains excluded {hit!r}")
        notes.append("contains no excluded text")
    words, chars = len(response.split()), len(response)
    for key, count, unit in (("min_words", words, "words"), ("max_words", words, "words"), ("min_chars", chars, "chars"), ("max_chars", chars, "chars")):
        if key in rule:
            bound = rule[key]
            ok = count >= bound if key.startswith("min") else count <= bound
            if not ok:
                return Verdict(False, f"{count} {unit}, {key} is {bound}")
            notes.append(f"{count} {unit} within {key} {bound}")
    if "callable" in rule:
        fn = resolve_callable(rule["callable"])
        conversation = [dict(m) for m in request.conversation] if request is not None else []
        item = request.item if request is not None else None
        result = fn(response, conversation=conversation, item=item, **dict(rule.get("params", {})))
        explanation = ""
        if isinstance(result, tuple) and len(result) == 2:
            result, explanation = result
        if not isinstance(result, bool):
            return failed(f"rule callable {rule['callable']} returned {type(result).__name__}, expected bool or (bool, str)")
        if not result:
            return Verdict(False, str(explanation) or f"{rule['callable']} returned False")
        notes.append(str(explanation) or f"{rule['callable']} returned True")
    return Verdict(True, "; ".join(notes))


class RulesJudge(Judge):
    """Judges items by their ``rule``; an item without one fails (NaN) with a reason."""

    type_name = "rules"

    def judge(self, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        verdicts = []
        for request in requests:
            rule = request.item.rule
            if rule is None:
                verdicts.append(failed(f"the rules judge needs a 'rule' on this item: {request.item.criterion[:80]!r}"))
                continue
            try:
                verdicts.append(check_rule(rule, request.response, request))
            except Exception as exc:  # a broken user callable fails its own criterion only
                verdicts.append(failed(f"rule error: {type(exc).__name__}: {exc}"))
        return verdicts
