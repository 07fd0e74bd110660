"""The registry of reward and combiner types, and the typed parameter model each type's constructor declares.

**Types.** Built-in types are named in the tables below as ``"module:Class"`` strings and imported only when looked
up, so ``import polyreward`` stays light; a new built-in type is one line here (docs/extending.md). A
``"package.module:Class"`` name imports a user's own class directly (config: ``type: mypkg.rewards:MyReward``).
Third-party packages add types through the entry-point groups ``polyreward.rewards`` and ``polyreward.combiners`` or
at run time with :func:`register_reward` / :func:`register_combiner`.

**Parameters.** A type declares its parameters where it is defined: the keyword arguments of ``__init__`` with
their type annotations, defaults and ``Args:`` docstring lines. :func:`parameter_model` turns them into a pydantic
model, and everything that needs the parameters reads that model: config validation (an unknown key or a value of
the wrong type is an error naming the key, before anything is built), ``polyreward list --params`` and the
generated reference pages (``scripts/gen_reference_docs.py`` -> ``docs/reference/rewards.md``,
``docs/reference/combiners.md``). ``name`` and ``weight`` belong to every reward entry and ``engine`` is
the config's engine (handed to a reward that takes it), so they are not parameters.
"""

from __future__ import annotations

import importlib
import inspect
import re
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from polyreward.vocabulary import ConfigError, UnknownTypeError

BUILTIN_REWARDS: dict[str, str] = {
    "math_accuracy": "polyreward.rewards.math_accuracy:MathAccuracy",
    "choice_accuracy": "polyreward.rewards.choice_accuracy:ChoiceAccuracy",
    "think_format": "polyreward.rewards.format:ThinkFormat",
    "overlong_penalty": "polyreward.rewards.length:OverlongPenalty",
    "jaccard": "polyreward.rewards.jaccard:JaccardReward",
    "kg_triplet_consistency": "polyreward.rewards.kg_triplet:KGTripletConsistency",
    "toolrl_correctness": "polyreward.rewards.tool_calls:ToolRLCorrectness",
    "toolrl_format": "polyreward.rewards.tool_calls:ToolRLFormat",
    "otc_tool_efficiency": "polyreward.rewards.tool_efficiency:OTCToolEfficiency",
    "forecast_class_cost": "polyreward.rewards.forecast:ForecastClassCost",
    "rubric": "polyreward.rubrics.reward:RubricReward",
    "reward_model": "polyreward.rewards.reward_model:RewardModelReward",
    "crpo_accuracy": "polyreward.rewards.crpo:CRPOAccuracy",
    "crpo_format": "polyreward.rewards.crpo:CRPOFormat",
    "crpo_english": "polyreward.rewards.crpo:CRPOEnglish",
    "clinical_faithfulness": "polyreward.rewards.clinical_reasoning:ClinicalFaithfulness",
    "clinical_comprehensiveness": "polyreward.rewards.clinical_reasoning:ClinicalComprehensiveness",
    "code_execution": "polyreward.rewards.code_execution:CodeExecution",
    "process": "polyreward.rewards.process_steps:ProcessReward",
}

BUILTIN_COMBINERS: dict[str, str] = {
    "grpo": "polyreward.combiners.grpo:GRPOCombiner",
    "dr_grpo": "polyreward.combiners.dr_grpo:DrGRPOCombiner",
    "rloo": "polyreward.combiners.rloo:RLOOCombiner",
    "gdpo": "polyreward.combiners.gdpo:GDPOCombiner",
    "dvao": "polyreward.combiners.dvao:DVAOCombiner",
    "sa_mrpo": "polyreward.combiners.sa_mrpo:SaturationAwareCombiner",
    "sa_gdpo": "polyreward.combiners.sa_gdpo:SelfAdaptiveGDPOCombiner",
    "mo_grpo": "polyreward.combiners.mo_grpo:MOGRPOCombiner",
    "papo": "polyreward.combiners.papo:PAPOCombiner",
    "mc_grpo": "polyreward.combiners.mc_grpo:MedianCenteredCombiner",
    "gopo": "polyreward.combiners.gopo:GOPOCombiner",
    "g2rpo": "polyreward.combiners.g2rpo:G2RPOCombiner",
    "ebpo": "polyreward.combiners.ebpo:EmpiricalBayesCombiner",
    "drpo": "polyreward.combiners.drpo:DRPOCombiner",
    "reinforce_plus_plus_baseline": "polyreward.combiners.reinforce_plus_plus_baseline:ReinforcePlusPlusBaselineCombiner",
    "grpo_passk": "polyreward.combiners.grpo_passk:GRPOPassKCombiner",
    "opo": "polyreward.combiners.opo:OPOCombiner",
    "gpg": "polyreward.combiners.gpg:GPGCombiner",
    "reinforce_plus_plus": "polyreward.combiners.reinforce_plus_plus:ReinforcePlusPlusCombiner",
    "grpo_process": "polyreward.combiners.grpo_process:ProcessGRPOCombiner",
    "krpo": "polyreward.combiners.krpo:KRPOCombiner",
    "aapo": "polyreward.combiners.aapo:AAPOCombiner",
    "dgpo": "polyreward.combiners.dgpo:DGPOCombiner",
    "edge_grpo": "polyreward.combiners.edge_grpo:EDGEGRPOCombiner",
    "s_grpo": "polyreward.combiners.s_grpo:SGRPOCombiner",
}

_runtime: dict[str, dict[str, Any]] = {"rewards": {}, "combiners": {}}


def _load(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _table(kind: str) -> dict[str, Any]:
    table: dict[str, Any] = dict(BUILTIN_REWARDS if kind == "rewards" else BUILTIN_COMBINERS)
    from importlib.metadata import entry_points  # ~0.1 s to import: only when a lookup needs the plug-ins

    for ep in entry_points(group=f"polyreward.{kind}"):
        table.setdefault(ep.name, ep.value)
    table.update(_runtime[kind])
    return table


def _lookup(kind: str, name: str) -> type:
    if ":" in name:  # "package.module:Class": a user's own type, imported from the config's trusted text
        try:
            return _load(name)
        except (ImportError, AttributeError) as exc:
            raise KeyError(f"cannot import {kind[:-1]} type {name!r}: {exc}") from None
    if name in _runtime[kind]:  # the order _table gives: run-time registrations, then built-ins, then entry points
        return _runtime[kind][name]
    builtins = BUILTIN_REWARDS if kind == "rewards" else BUILTIN_COMBINERS
    if name in builtins:  # a built-in name wins over an entry point: no need to scan every installed package's metadata
        return _load(builtins[name])
    table = _table(kind)
    if name not in table:
        singular = kind[:-1]
        raise KeyError(f"unknown {singular} type {name!r}; allowed: {', '.join(sorted(table))}")
    entry = table[name]
    return _load(entry) if isinstance(entry, str) else entry


def reward_types() -> list[str]:
    return sorted(_table("rewards"))


def combiner_types() -> list[str]:
    return sorted(_table("combiners"))


def reward_class(name: str) -> type:
    """The Reward class registered as ``name`` (KeyError listing the allowed names otherwise)."""
    return _lookup("rewards", name)


def combiner_class(name: str) -> type:
    """The Combiner class registered as ``name`` (KeyError listing the allowed names otherwise)."""
    return _lookup("combiners", name)


def register_reward(cls: type | None = None, *, name: str | None = None):
    """Register a Reward subclass under ``name`` (default: its ``type_name``). Usable as a decorator."""

    def add(c: type) -> type:
        _runtime["rewards"][name or c.type_name] = c
        return c

    return add(cls) if cls is not None else add


def register_combiner(cls: type | None = None, *, name: str | None = None):
    """Register a Combiner subclass under ``name`` (default: its ``type_name``). Usable as a decorator."""

    def add(c: type) -> type:
        _runtime["combiners"][name or c.type_name] = c
        return c

    return add(cls) if cls is not None else add


# ------------------------------------------------------------------ the parameters a type declares
NOT_PARAMETERS = frozenset({"self", "name", "weight", "engine"})


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


def build_combiner(spec: Any, **params: Any):
    """A combiner from a registry name (``"gdpo"``), a ``{type: name, **params}`` mapping or a Combiner object.

    The one place combiners are built (config, ``polyreward advantages``, the TRL and verl adapters); a bad
    name or parameter is a :class:`ConfigError` naming the combiner and the problem.
    """
    from polyreward.combiner import Combiner

    if isinstance(spec, Combiner):
        if params:
            raise ConfigError("combiner parameters can only be given with a combiner name, not with a combiner object")
        return spec
    if isinstance(spec, Mapping):
        spec = dict(spec)
        if "type" not in spec:
            raise ConfigError(f"a combiner mapping needs a 'type' key, got keys {sorted(spec)}")
        name = str(spec.pop("type"))
        params = {**spec, **params}
    elif isinstance(spec, str):
        name = spec
    else:
        raise ConfigError(f"expected a combiner name, a {{type: ...}} mapping or a Combiner, got {type(spec).__name__}")
    try:
        cls = combiner_class(name)
    except KeyError as exc:
        raise UnknownTypeError(f"combiner.type: {exc.args[0]}") from None
    try:
        check_parameters(cls, params)
    except ValueError as exc:
        raise ConfigError(f"combiner ({name}): {exc}") from None
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"combiner ({name}): {exc}") from exc
