"""The judge interface: a batch of (conversation, response, criterion) -> met / not met / failed.

Every judge (``rules``, ``transformers``, ``openai``) implements :meth:`Judge.judge`::

    judge.judge([JudgeRequest(conversation, response, item), ...]) -> [Verdict(met, explanation), ...]

``met`` is True / False, or None when the judge failed on that criterion (server down, HTTP 5xx,
timeout, unparsable answer); the explanation then says why. A judge never raises for one bad
criterion and never blocks a batch past its time budget. ``met=True`` on a negative-points item means
the undesirable behaviour is present (HealthBench semantics), so the penalty applies.

:func:`build_judge` turns the ``judge:`` mapping of a reward's config into a judge, checking its keys
against the judge's constructor so a typo is an error naming the key and the allowed ones.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # a type only (the rubric schema's item); no run-time import needed
    from polyreward.rubrics.schema import RubricItem

JUDGE_TYPES: dict[str, str] = {
    "rules": "polyreward.rubrics.judge_rules:RulesJudge",
    "transformers": "polyreward.rubrics.judge_transformers:TransformersJudge",
    "openai": "polyreward.rubrics.judge_openai:OpenAIJudge",
}


@dataclass(frozen=True)
class JudgeRequest:
    """One criterion to judge: the conversation before the response (chat messages), the response text, the item."""

    conversation: tuple[Mapping[str, Any], ...]
    response: str
    item: RubricItem


@dataclass(frozen=True)
class Verdict:
    """``met`` True/False, or None when judging failed (``explanation`` says why)."""

    met: bool | None
    explanation: str = ""

    @property
    def failed(self) -> bool:
        return self.met is None

    @property
    def value(self) -> float:
        """1.0 met, 0.0 not met, NaN failed."""
        return math.nan if self.met is None else float(self.met)


def failed(reason: str) -> Verdict:
    return Verdict(None, reason[:500])


class Judge:
    """Base class; subclasses set ``type_name`` and implement :meth:`judge`."""

    type_name: ClassVar[str] = ""

    def judge(self, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        raise NotImplementedError

    def ask(self, prompts: Sequence[str], parse: Callable[[str], tuple[bool | None, str]]) -> list[Verdict]:
        """Free-form yes/no questions (e.g. "are these two answers equivalent?"): one user message per
        prompt, each answer read by ``parse(text) -> (True/False/None, explanation)``. Judges that only
        grade rubric items (``rules``) do not implement it; see :func:`can_ask`."""
        raise NotImplementedError(f"the {self.type_name or type(self).__name__} judge grades rubric items only")

    def close(self) -> None:
        """Release connections / models (optional)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def can_ask(judge: Judge) -> bool:
    """True when the judge answers free-form prompts (:meth:`Judge.ask`), not only rubric items."""
    return type(judge).ask is not Judge.ask


def _judge_class(type_name: str) -> type[Judge]:
    import importlib

    module_name, _, attr = JUDGE_TYPES[type_name].partition(":")
    return getattr(importlib.import_module(module_name), attr)


def judge_params(type_name: str) -> list[str]:
    """The keys a ``judge:`` mapping of this type accepts besides ``type``."""
    params = inspect.signature(_judge_class(type_name).__init__).parameters
    return [p for p in params if p != "self"]


def build_judge(spec: Mapping[str, Any] | Judge | None) -> Judge:
    """A judge from its config mapping ``{type: rules|transformers|openai, <params>}`` (or a Judge as is).

    ``None`` gives the ``rules`` judge. Unknown types or keys raise ValueError naming the allowed ones.
    """
    if isinstance(spec, Judge):
        return spec
    if spec is None:
        spec = {"type": "rules"}
    if not isinstance(spec, Mapping):
        raise ValueError(f"judge must be a mapping like {{type: openai, base_url: ..., model: ...}}, got {type(spec).__name__}")
    params = dict(spec)
    type_name = params.pop("type", None)
    if type_name not in JUDGE_TYPES:
        raise ValueError(f"judge.type: {type_name!r} is not a judge type; allowed: {', '.join(JUDGE_TYPES)}")
    allowed = judge_params(type_name)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"judge ({type_name}): unknown key(s) {unknown}; allowed: type, {', '.join(allowed)}")
    try:
        return _judge_class(type_name)(**params)
    except TypeError as exc:
        raise ValueError(f"judge ({type_name}): {exc}") from None
