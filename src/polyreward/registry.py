"""The registry of reward and combiner types.

Built-in types are named in the tables below as ``"module:Class"`` strings and imported only when
looked up, so ``import polyreward`` stays light. A ``"package.module:Class"`` name imports a user's own
class directly (config: ``type: mypkg.rewards:MyReward``). Third-party packages add types through the entry-point
groups ``polyreward.rewards`` and ``polyreward.combiners`` or at run time with :func:`register_reward` /
:func:`register_combiner`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from polyreward.params import check_parameters
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
