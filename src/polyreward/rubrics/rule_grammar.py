"""The grammar of a rubric item's ``rule``: which keys a rule may have, what their values must be, and which
``callable`` a rubric may name (:func:`validate_rule`), plus the two helpers the rules judge runs them with
(:func:`compile_pattern`, :func:`resolve_callable`).

A rule is a mapping on the item (``"rule": {...}``)::

    regex / not_regex: PATTERN | [PATTERN, ...]              RE2 patterns (a trusted rubric may fall back to ``re``)
    contains / contains_all / not_contains: TEXT | [TEXT, ...]
    min_words / max_words / min_chars / max_chars: INT        non-negative bounds, inclusive
    callable: "package.module:function"                       imported, never evaluated
    params: {...}                                             keyword arguments for ``callable``
    ignore_case: true | false                                 (default true)

What each condition means on a response, and the trust rules for rubrics that come with the rollout data, are
described in :mod:`polyreward.rubrics.judge_rules` (the judge that checks rules); the grammar is its own module so
that the rubric schema (:mod:`polyreward.rubrics.schema`) validates rules without importing a judge.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

import re2

TEXT_LIST_KEYS = ("regex", "not_regex", "contains", "contains_all", "not_contains")
BOUND_KEYS = ("min_words", "max_words", "min_chars", "max_chars")
RULE_KEYS = TEXT_LIST_KEYS + BOUND_KEYS + ("callable", "params", "ignore_case")
_CALLABLE_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
MAX_DATA_PATTERN_CHARS = 500  # RE2's cost grows with the pattern too: a rubric cell of the data is capped
# rule callables a rubric in rollout data may always name: the ready-made, text-only checks shipped here
BUILTIN_CALLABLES = (
    "polyreward.rubrics.rule_functions:first_sentence_contains",
    "polyreward.rubrics.rule_functions:asks_question",
)


@lru_cache(maxsize=1024)
def compile_pattern(pattern: str, ignore_case: bool, trusted: bool = True) -> Any:
    """``pattern`` compiled for RE2 (linear-time search); one RE2 cannot parse falls back to Python's ``re``
    only when ``trusted`` (a rubric from the config), else a ValueError saying why."""
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        fallback = re.compile(pattern, re.IGNORECASE if ignore_case else 0)  # re.error: not a regex at all
        if trusted:
            return fallback
        reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ValueError(
            f"pattern {pattern!r} needs syntax the linear-time regex engine (RE2) lacks ({reason}); "
            "rubrics in rollout data may only use RE2 patterns"
        ) from None


def text_list(value: Any, key: str) -> list[str]:
    """The strings of a text-list key (one string or a list of them), a ValueError naming ``key`` when it is neither."""
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


def validate_rule(rule: Any, allowed_callables: Collection[str] | None = None) -> None:
    """Raise ValueError naming the bad key when ``rule`` does not follow the grammar above.

    ``allowed_callables`` None: the rule is trusted (the config's rubric). Otherwise it comes from rollout data:
    its ``callable`` must be in ``allowed_callables`` or :data:`BUILTIN_CALLABLES` (checked before any import) and
    its patterns must be RE2 patterns."""
    if not isinstance(rule, Mapping) or not rule:
        raise ValueError(f"must be a non-empty mapping of conditions, got {rule!r}")
    unknown = sorted(set(rule) - set(RULE_KEYS))
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}; allowed: {', '.join(RULE_KEYS)}")
    if not set(rule) & (set(TEXT_LIST_KEYS) | set(BOUND_KEYS) | {"callable"}):
        raise ValueError(f"names no condition; use one of {', '.join(TEXT_LIST_KEYS + BOUND_KEYS + ('callable',))}")
    if not isinstance(rule.get("ignore_case", True), bool):
        raise ValueError(f"ignore_case: must be true or false, got {rule['ignore_case']!r}")
    ignore_case = rule.get("ignore_case", True)
    trusted = allowed_callables is None
    for key in ("regex", "not_regex"):
        if key in rule:
            for pattern in text_list(rule[key], key):
                try:
                    compile_pattern(pattern, ignore_case, trusted)
                except re.error as exc:
                    raise ValueError(f"{key}: invalid regular expression {pattern!r} ({exc})") from None
                except ValueError as exc:
                    raise ValueError(f"{key}: {exc}") from None
    for key in ("contains", "contains_all", "not_contains"):
        if key in rule:
            text_list(rule[key], key)
    if not trusted:
        for key in TEXT_LIST_KEYS:
            for text in text_list(rule[key], key) if key in rule else ():
                if len(text) > MAX_DATA_PATTERN_CHARS:
                    raise ValueError(f"{key}: a pattern or text of {len(text):,} characters; rubrics in rollout data allow "
                                     f"at most {MAX_DATA_PATTERN_CHARS}")
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
        spec = rule["callable"]
        if not trusted and spec not in (*BUILTIN_CALLABLES, *allowed_callables):
            raise ValueError(
                f"callable: {spec!r} is refused in a rubric from the rollout data (code is never imported from data); "
                "list it under the reward's allowed_callables in the config to allow it"
            )
        resolve_callable(spec)
