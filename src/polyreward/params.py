"""Typed parameter models of reward and combiner types, made once from their constructors.

A type declares its parameters where it is defined: the keyword arguments of ``__init__`` with their type
annotations, defaults and ``Args:`` docstring lines. :func:`parameter_model` turns them into a pydantic model,
and everything that needs the parameters reads that model: config validation (an unknown key or a value of
the wrong type is an error naming the key, before anything is built), ``polyreward list --params`` and the
generated reference pages (``scripts/gen_reference_docs.py`` -> ``docs/reference/rewards.md``,
``docs/reference/combiners.md``).

``name`` and ``weight`` belong to every reward entry and ``pool`` is the engine's, so they are not parameters.
"""

from __future__ import annotations

import inspect
import re
import typing
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

NOT_PARAMETERS = frozenset({"self", "name", "weight", "pool"})


@lru_cache(maxsize=None)
def parameter_model(cls: type) -> type[BaseModel]:
    """The pydantic model of ``cls``'s constructor parameters (extra keys allowed only if it takes ``**kwargs``)."""
    signature = inspect.signature(cls.__init__)
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # an annotation that does not resolve: that parameter is checked by the constructor only
        hints = {}
    fields: dict[str, Any] = {}
    takes_any = False
    for parameter in signature.parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            takes_any = True
            continue
        if parameter.name in NOT_PARAMETERS or parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        fields[parameter.name] = (hints.get(parameter.name, Any), default)
    config = ConfigDict(extra="allow" if takes_any else "forbid", arbitrary_types_allowed=True)
    return create_model(f"{cls.__name__}Parameters", __config__=config, **fields)


def check_parameters(cls: type, params: dict[str, Any]) -> None:
    """A ValueError naming each key that ``cls`` does not take or whose value has the wrong type."""
    model = parameter_model(cls)
    unknown = sorted(set(params) - set(model.model_fields)) if model.model_config.get("extra") == "forbid" else []
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}; allowed: {', '.join(sorted(model.model_fields)) or '(none)'}")
    try:
        model.model_validate(params)
    except ValidationError as exc:
        problems = [f"{'.'.join(map(str, err['loc']))}: {err['msg']} (got {err.get('input')!r})" for err in exc.errors()]
        raise ValueError("; ".join(problems)) from None


def _type_text(annotation: Any) -> str:
    if annotation is Any:
        return "any"
    text = getattr(annotation, "__name__", None) if not typing.get_args(annotation) else None
    text = text or str(annotation).replace("typing.", "").replace("collections.abc.", "")
    return text.replace("NoneType", "None")


def _arg_lines(cls: type) -> dict[str, str]:
    """``name: text`` lines of the class or ``__init__`` docstring's ``Args:`` section (continuation lines joined)."""
    found: dict[str, str] = {}
    for doc in (cls.__init__.__doc__, cls.__doc__):
        section = re.search(r"^\s*Args:\s*\n(.*?)(?:\n\s*\n|\Z)", doc or "", re.S | re.M)
        if not section:
            continue
        current = None
        for line in section.group(1).splitlines():
            match = re.match(r"^\s{2,}(\w+)(?: \([^)]*\))?:\s*(.*)$", line)
            if match and match.group(1) not in found:
                current = match.group(1)
                found[current] = match.group(2).strip()
            elif current and line.strip():
                found[current] += " " + line.strip()
    return found


def parameter_rows(cls: type) -> list[tuple[str, str, str, str]]:
    """(name, type, default, description) of each parameter, in constructor order."""
    model = parameter_model(cls)
    described = _arg_lines(cls)
    rows = []
    for name, field in model.model_fields.items():
        default = "required" if field.is_required() else repr(field.default)
        rows.append((name, _type_text(field.annotation), default, described.get(name, "")))
    return rows
