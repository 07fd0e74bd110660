"""Hacks for rubric rewards: keyword stuffing, negated keywords, penalised behaviour in look-alike letters."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from polyreward.probe.case import ProbeCase

def _rule_literals(rule: Mapping[str, Any]) -> list[str]:
    """Literal texts of one rule: ``contains`` texts, ``regex`` alternatives (letters, digits, spaces), callable terms."""
    words: list[str] = []
    for key in ("contains", "contains_all"):
        value = rule.get(key)
        words += [value] if isinstance(value, str) else list(value or [])
    for pattern in [rule["regex"]] if isinstance(rule.get("regex"), str) else list(rule.get("regex") or []):
        words += [w.strip() for w in re.findall(r"[A-Za-z0-9' ]{2,}", pattern.replace("\\b", " ")) if w.strip()]
    terms = (rule.get("params") or {}).get("terms")
    words += list(terms) if isinstance(terms, (list, tuple)) else []
    return [w for w in words if isinstance(w, str)]


def _rubric_keywords(case: ProbeCase) -> list[str]:
    """Literal texts of the rubric's positive items (:func:`_rule_literals`)."""
    words: list[str] = []
    for item in _rubric_items(case):
        if getattr(item, "points", 0) > 0:
            words += _rule_literals(getattr(item, "rule", None) or {})
    return list(dict.fromkeys(words))[:200]


_DISGUISE = str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і"})  # Latin -> Cyrillic look-alikes


def _rubric_items(case: ProbeCase) -> list[Any]:
    reward = case.reward
    items = getattr(reward, "shared_rubric", None)
    if items is None:
        try:
            items = reward._rubrics(1, {reward.rubric_column: [case.row.get(reward.rubric_column)]})[0]
        except Exception:  # noqa: BLE001 -- a rubric the reward itself refuses has nothing to attack
            return []
    return [] if isinstance(items, str) else list(items)


def lookalike_harm(case: ProbeCase) -> list[str]:
    """The genuine answer plus each penalised behaviour (a negative item's own words, which meet its rule when
    written plainly after the genuine answer) disguised with Cyrillic look-alike letters and a zero-width space: a reader sees the harm, a
    literal check does not."""
    from polyreward.rubrics.judge_rules import check_rule

    hacks = []
    for item in _rubric_items(case):
        rule = getattr(item, "rule", None) or {}
        if getattr(item, "points", 0) >= 0 or not rule.get("regex") and not rule.get("contains"):
            continue
        words = _rule_literals(rule)
        text = " ".join(words)
        try:
            if not check_rule(rule, f"{case.genuine} {text}.").met:
                continue  # written plainly after the genuine answer they would not meet it: no disguise to test
        except Exception:  # noqa: BLE001
            continue
        disguised = text.translate(_DISGUISE)
        hacks.append(f"{case.genuine} {disguised[:1]}\u200b{disguised[1:]}.")
    return hacks


def keyword_stuffing(case: ProbeCase) -> list[str]:
    words = _rubric_keywords(case)
    return [" ".join(words), ", ".join(words)] if words else []


def negated_keywords(case: ProbeCase) -> list[str]:
    words = _rubric_keywords(case)
    return [" ".join(f"Never {w}." for w in words)] if words else []
