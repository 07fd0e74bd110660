"""YAML configuration: one file names the rewards, the combiner and the engine settings.

The same file drives ``polyreward score``, the TRL and verl adapters and the bundled trainer::

    columns: {prompt: prompt, completion: completion, group: prompt_id}   # defaults
    engine: {workers: 2, timeout: 5.0}                                    # defaults
    rewards:
      - {name: accuracy, type: math_accuracy, weight: 1.0, answer_column: answer}
      - {name: format, type: think_format, weight: 0.2}
    combiner: {type: gdpo}        # or just `combiner: gdpo`; optional

Every key besides ``name``, ``type`` and ``weight`` of a reward entry is passed to the reward's
constructor. A combiner that reads per-row metadata (``row_columns``, e.g. DRPO's ``domain``) finds it in the
data column of the same name, or in the one ``columns:`` names (``columns: {group: prompt_id, domain: source}``). The whole file is validated before any scoring: an error names the key and the allowed
values (:class:`ConfigError`).

YAML is read with the YAML 1.2 core schema's booleans (:func:`load_yaml`): only ``true``/``false`` are booleans,
so ``extra_body: {guided_choice: [yes, no]}`` stays the two strings a server expects (PyYAML's YAML 1.1 default
turns yes/no/on/off into booleans), and ``1e-5`` is a float as in YAML 1.2 and JSON.
"""

from __future__ import annotations

import copy
import inspect
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from polyreward import registry
from polyreward.registry import check_parameters, parameter_model
from polyreward.registry import build_combiner  # noqa: F401 -- the one way to build a combiner, re-exported
from polyreward.schema import ColumnMap
from polyreward.vocabulary import ON_REWARD_ERROR, ConfigError, UnknownTypeError, yaml_error_message  # noqa: F401 -- re-exported


class _Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 core-schema booleans (true/True/TRUE/false/False/FALSE only) and
    exponent floats without a dot (``1e-5``); every other resolver is PyYAML's."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$"),
                                    list("-+0123456789."))


MAX_WEIGHT_SUM = 1e300  # Σ|w_k|: room for scores up to 1e8 before a weighted total overflows float64
MAX_CONFIG_BYTES = 4 * 1024 * 1024  # a config is a page of YAML; more is a wrong path (a data file, /dev/zero)
MAX_YAML_NODES = 200_000  # nodes after aliases are expanded (a "billion laughs" file is refused before it is built)
MAX_YAML_DEPTH = 100


class YamlLimitError(yaml.YAMLError):
    """YAML this loader refuses to build: nested too deep, too many nodes once aliases are expanded, a number past
    Python's digit limit. ``problem`` is the one-line reason (read by :func:`yaml_error_message`)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def _check_node_size(root: Any) -> None:
    """Depth and expanded node count of a composed YAML graph, in linear time (shared alias targets are counted as
    many times as they are referenced, without building anything)."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    seen_on_path: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            seen_on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
            if size[key] > MAX_YAML_NODES:
                raise YamlLimitError(f"more than {MAX_YAML_NODES:,} values once its aliases (*name) are expanded")
            if depth[key] > MAX_YAML_DEPTH:
                raise YamlLimitError(f"nests deeper than {MAX_YAML_DEPTH} levels")
            continue
        if key in size:
            continue
        if key in seen_on_path:
            raise YamlLimitError("an alias refers to a node that contains it (a recursive structure)")
        seen_on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [item for pair in node.value for item in pair]
    return []


def load_yaml(text: str) -> Any:
    """Parse YAML text safely (no object construction) with YAML 1.2 booleans; raises ``yaml.YAMLError``, also for
    YAML nested past :data:`MAX_YAML_DEPTH` levels, past :data:`MAX_YAML_NODES` values once aliases are expanded,
    or holding an integer past Python's 4,300-digit limit (:class:`YamlLimitError`)."""
    loader = _Yaml12Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_node_size(node)
        return loader.construct_document(node)
    except RecursionError:
        raise YamlLimitError(f"nests deeper than {MAX_YAML_DEPTH} levels") from None
    except ValueError as exc:  # int("1" * 100_000): Python's limit on integer digits
        digits = "integer string conversion" in str(exc)
        raise YamlLimitError("a number has more than 4,300 digits" if digits else f"a value cannot be read: {str(exc)[:160]}") from None
    finally:
        loader.dispose()


def read_config_text(path: Path) -> str:
    """The text of a config file, read with bounds: a regular file (not a FIFO, device or directory) of at most
    :data:`MAX_CONFIG_BYTES`, UTF-8. A :class:`ConfigError` naming the problem otherwise, in bounded time (a FIFO
    without a writer is opened non-blocking, /dev/zero or a sparse giant file is never read)."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode)
                    else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a regular file")
            raise ConfigError(f"config {path} is {kind}; give a YAML file")
        if info.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"config {path} is {info.st_size:,} bytes, over the limit of {MAX_CONFIG_BYTES:,} for a config; "
                              "is it the right file?")
        chunks, total = [], 0
        while total <= MAX_CONFIG_BYTES:
            piece = os.read(fd, 1 << 16)
            if not piece:
                break
            chunks.append(piece)
            total += len(piece)
        if total > MAX_CONFIG_BYTES:
            raise ConfigError(f"config {path} grew past the limit of {MAX_CONFIG_BYTES:,} bytes while being read")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config {path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                          "save it as UTF-8") from None


class ColumnsSection(BaseModel):
    """The structural columns, plus the data column of each per-row array a combiner reads (``domain: source``
    for DRPO's ``row_columns``); any other key is refused by :func:`parse_config`."""

    model_config = ConfigDict(extra="allow")
    prompt: str = ColumnMap.prompt  # the defaults are ColumnMap's, written once
    completion: str = ColumnMap.completion
    group: str = ColumnMap.group

    @property
    def rows(self) -> dict[str, str]:
        """``{row column name: data column}`` for the keys beyond prompt/completion/group."""
        return dict(self.model_extra or {})


class EngineSection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    workers: int | None = Field(default=None, ge=0)
    timeout: float = Field(default=5.0, gt=0)
    # address-space cap of each worker process in MB (a runaway sympy expansion is killed, not the machine); null: none
    memory_limit_mb: int | None = Field(default=4096, ge=64)


class RewardEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = Field(min_length=1)
    type: str
    weight: float = 1.0
    # score only the rows whose COLUMN holds VALUE (or one of [VALUES]); the others get None, "not applicable"
    when: dict[str, Any] | None = None

    @field_validator("when")
    @classmethod
    def _when_rule(cls, value: dict[str, Any] | None) -> dict[str, list[Any]] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("when needs at least one COLUMN: VALUE | [VALUES]")
        rule = {}
        for column, accepted in value.items():
            accepted = list(accepted) if isinstance(accepted, (list, tuple)) else [accepted]
            if not accepted or any(isinstance(v, (dict, list)) or v is None for v in accepted):
                raise ValueError(f"when.{column} must be a value or a non-empty list of values (text, numbers, booleans)")
            rule[column] = accepted
        return rule

    @field_validator("weight")
    @classmethod
    def _finite(cls, value: float) -> float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("weight must be finite")
        return value

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class CombinerEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: str

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class Config(BaseModel):
    """A validated polyreward configuration (sections other trainers read, e.g. ``train``, pass through)."""

    model_config = ConfigDict(extra="forbid")
    columns: ColumnsSection = ColumnsSection()
    engine: EngineSection = EngineSection()
    rewards: list[RewardEntry] = Field(min_length=1)
    combiner: CombinerEntry | None = None
    # what a reward that raises (or returns a non-finite score) does: NaN + reason, counted (nan) or stop (raise)
    on_reward_error: Literal["nan", "raise"] = "nan"
    train: dict[str, Any] | None = None
    # the folder of the YAML file it was read from (load_config); relative ``*_file`` reward paths resolve there
    _base_dir: Path | None = PrivateAttr(default=None)
    # where it was read from, for messages about later-validated sections ("cfg.yaml with --set device=cpu")
    _source: str = PrivateAttr(default="config")

    @field_validator("combiner", mode="before")
    @classmethod
    def _combiner_shorthand(cls, value: Any) -> Any:
        return {"type": value} if isinstance(value, str) else value

    @property
    def column_map(self) -> ColumnMap:
        return ColumnMap(self.columns.prompt, self.columns.completion, self.columns.group)

    def build_rewards(self, workers: int | None = None):
        """Instantiate the configured rewards as a :class:`~polyreward.rewardset.RewardSet`.

        A reward whose constructor takes ``engine`` (the one fact a reward that needs worker processes declares) is
        given this config's :class:`~polyreward.engine.Engine` (``engine: {workers, timeout, memory_limit_mb}``; ``workers`` overrides
        the config's), one engine for all of them, with each one's ``preload`` modules added."""
        from polyreward.rewardset import RewardSet

        engine = None
        rewards = []
        for i, entry in enumerate(self.rewards):
            cls = registry.reward_class(entry.type)
            kwargs = {key: self.resolve_file(value) if key.endswith("_file") else value for key, value in entry.params.items()}
            if "engine" in inspect.signature(cls.__init__).parameters:
                if engine is None:
                    from polyreward.engine import Engine  # here: a config without such a reward never imports the engine

                    engine = Engine(workers if workers is not None else self.engine.workers, self.engine.timeout,
                                    self.engine.memory_limit_mb)
                engine.add_preload(cls.preload)  # what this reward's workers import once (its verifier)
                kwargs["engine"] = engine
            try:
                rewards.append(cls(name=entry.name, weight=entry.weight, **kwargs))
            except (TypeError, ValueError, KeyError) as exc:
                raise ConfigError(f"rewards[{i}] ({entry.name}, type {entry.type}): {exc}") from exc
        return RewardSet(rewards, when={entry.name: entry.when for entry in self.rewards if entry.when})

    def build_scorer(self, workers: int | None = None, *, on_reward_error: str | None = None, combiner: Any = None,
                     rewards: Any = None):
        """The :class:`~polyreward.pipeline.Scorer` of this config: its rewards with their ``when:`` rules, the column
        names, the failure policy (``on_reward_error`` overrides the config's) and the combiner (``combiner`` names
        another one, or is one; none when the config names none). ``rewards`` (a
        :class:`~polyreward.rewardset.RewardSet` built in Python) replaces the configured rewards."""
        from polyreward.pipeline import Scorer

        built = self.build_combiner(combiner) if isinstance(combiner, str) else combiner if combiner is not None else self.build_combiner()
        return Scorer(rewards if rewards is not None else self.build_rewards(workers), self.column_map,
                      on_reward_error or self.on_reward_error, built)

    def resolve_file(self, value: Any) -> Any:
        """A relative path is read from the config file's folder; if only the working directory holds it
        (configs written before this rule, e.g. ``examples/rubric/rubric.json`` run from the repository root), from there."""
        if self._base_dir is None or not isinstance(value, str) or not value or Path(value).expanduser().is_absolute():
            return value
        beside_config = self._base_dir / value
        return str(beside_config) if beside_config.exists() or not Path(value).exists() else value

    def build_combiner(self, name: str | None = None, **overrides: Any):
        """Instantiate the configured combiner (or ``name``); None when neither is given."""
        if name is None and self.combiner is None:
            return None
        if name is not None:
            combiner = build_combiner(name, **overrides)
        else:
            combiner = build_combiner({"type": self.combiner.type, **self.combiner.params}, **overrides)
        if combiner.row_columns:  # where each per-row array lives in the data (columns: {domain: source})
            combiner.row_sources = {row: self.columns.rows.get(row, row) for row in combiner.row_columns}
        return combiner


def parse_key_values(items: Sequence[str], flag: str = "--param") -> dict[str, Any]:
    """``["a=1", "b=[x, y]"]`` -> ``{"a": 1, "b": ["x", "y"]}``: each value read as YAML (:func:`load_yaml`).

    The one KEY=VALUE parser of the command line (``--param``, ``--set``); a malformed item is a
    :class:`ConfigError` naming the flag and the item.
    """
    result: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"{flag} {item!r}: expected KEY=VALUE, e.g. {flag} eps=1e-6")
        try:
            result[key] = load_yaml(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"{flag} {item!r}: the value is not valid YAML ({getattr(exc, 'problem', exc)})") from None
    return result


def apply_overrides(data: Mapping[str, Any], items: Sequence[str], flag: str = "--set", section: str | None = None) -> dict[str, Any]:
    """``data`` (a config mapping as read from YAML) with each ``KEY.PATH=VALUE`` of ``items`` put in place.

    ``rewards.0.weight=0.5`` walks mappings by key and lists by 0-based index; a missing mapping key is created
    (``combiner.eps=1e-6``), a list index must exist. With ``section`` (``"train"`` for ``polyreward train``), a
    key whose first part is not a top-level config key is read under that section (``--set device=cpu``). The
    result is validated afterwards exactly as the file is; a path that cannot be walked is a :class:`ConfigError`
    naming the flag and the key.
    """
    result = copy.deepcopy(dict(data))
    top_level = set(Config.model_fields)
    for dotted, value in parse_key_values(items, flag).items():
        parts = dotted.split(".")
        if section is not None and parts[0] not in top_level:
            parts = [section, *parts]
        node: Any = result
        for depth, part in enumerate(parts):
            last = depth == len(parts) - 1
            if isinstance(node, list):
                if not part.lstrip("-").isdigit() or not -len(node) <= int(part) < len(node):
                    raise ConfigError(f"{flag} {dotted}: {'.'.join(parts[:depth]) or 'top level'} is a list of {len(node)}; "
                                      f"{part!r} is not an index of it (0 .. {len(node) - 1})")
                key: Any = int(part)
            elif isinstance(node, dict):
                key = part
                if not last and node.get(key) is None:
                    node[key] = {}
                elif not last and depth == 0 and key == "combiner" and isinstance(node[key], str):
                    node[key] = {"type": node[key]}  # `combiner: gdpo` is short for {type: gdpo}: combiner.eps=... applies to it
            else:
                raise ConfigError(f"{flag} {dotted}: {'.'.join(parts[:depth])} is {node!r}, not a mapping or a list, so it has no key {part!r}")
            if last:
                node[key] = value
            else:
                node = node[key]
    return result


def _check_entries(config: Config) -> None:
    seen: set[str] = set()
    for i, entry in enumerate(config.rewards):
        if entry.name in seen:
            raise ConfigError(f"rewards[{i}].name: {entry.name!r} is used twice; reward names must be unique")
        seen.add(entry.name)
        try:
            cls = registry.reward_class(entry.type)
        except KeyError as exc:
            raise ConfigError(f"rewards[{i}].type: {exc.args[0]}") from None
        model = parameter_model(cls)
        unknown = sorted(set(entry.params) - set(model.model_fields))
        if unknown and model.model_config.get("extra") == "forbid":
            raise ConfigError(
                f"rewards[{i}] ({entry.name}): unknown key(s) {unknown} for type {entry.type}; allowed: {', '.join(['name', 'type', 'weight', 'when'] + sorted(model.model_fields))}"
            )
        try:
            check_parameters(cls, entry.params)
        except ValueError as exc:
            raise ConfigError(f"rewards[{i}] ({entry.name}, type {entry.type}): {exc}") from None
    magnitude = sum(abs(entry.weight) for entry in config.rewards)  # inf past float64 (fsum would raise instead)
    if not magnitude <= MAX_WEIGHT_SUM:
        raise ConfigError(f"rewards: the weights add up to {magnitude:.3g} in magnitude, beyond what a weighted total of scores "
                          f"can hold in float64 (at most {MAX_WEIGHT_SUM:.0e}); only their ratios matter, so scale them down")
    _check_row_columns(config)
    if config.combiner is not None:
        try:
            cls = registry.combiner_class(config.combiner.type)
        except KeyError as exc:
            raise ConfigError(f"combiner.type: {exc.args[0]}") from None
        try:
            check_parameters(cls, config.combiner.params)
        except ValueError as exc:
            raise ConfigError(f"combiner ({config.combiner.type}): {exc}") from None


def _check_row_columns(config: Config) -> None:
    """Keys of ``columns:`` beyond prompt/completion/group must name a per-row array some combiner reads."""
    extra = config.columns.rows
    if not extra:
        return
    declared: set[str] = set()
    for name in registry.combiner_types():
        try:
            declared.update(getattr(registry.combiner_class(name), "row_columns", ()))
        except Exception:  # a broken plug-in must not break every config
            continue
    for key, value in extra.items():
        if key not in declared:
            allowed = ["completion", "group", "prompt"] + sorted(declared)
            raise ConfigError(f"columns.{key}: unknown key; allowed: {', '.join(allowed)} (per-row columns a combiner reads)")
        if not isinstance(value, str) or not value:
            raise ConfigError(f"columns.{key}: must be a column name, got {value!r}")


def _format_validation_error(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        location = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in err["loc"]).replace(".[", "[")
        message = err["msg"]
        if err["type"] == "extra_forbidden":
            section = err["loc"][:-1]
            model = Config
            for part in section:
                field = model.model_fields.get(str(part)) if hasattr(model, "model_fields") else None
                model = field.annotation if field is not None else model
            allowed = sorted(getattr(model, "model_fields", {}))
            message = f"unknown key; allowed: {', '.join(allowed)}"
        lines.append(f"{location or '(top level)'}: {message}")
    return "; ".join(lines)


def parse_config(data: Mapping[str, Any], source: str = "config") -> Config:
    """Validate a config mapping (see module docstring); raises :class:`ConfigError`."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: the top level must be a mapping with a 'rewards' list, got {type(data).__name__}")
    try:
        config = Config.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(f"{source}: {_format_validation_error(exc)}") from None
    try:
        _check_entries(config)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    return config


def load_config(path: str | Path, overrides: Sequence[str] = (), *, section: str | None = None) -> Config:
    """Read and validate a YAML config file, with the ``--set KEY.PATH=VALUE`` ``overrides`` applied first
    (:func:`apply_overrides`; ``section`` as there), so an override is checked like a line of the file."""
    path = Path(path)
    text = read_config_text(path)
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        raise ConfigError(yaml_error_message(path, exc)) from None
    data = data if data is not None else {}
    if overrides:
        if not isinstance(data, Mapping):
            raise ConfigError(f"{path}: the top level must be a mapping with a 'rewards' list, got {type(data).__name__}")
        data = apply_overrides(data, overrides, section=section)
    source = str(path) + (" with --set " + " ".join(overrides) if overrides else "")
    config = parse_config(data, source=source)
    config._base_dir, config._source = path.parent, source
    return config


def load_scorer(path: str | Path, overrides: Sequence[str] = (), *, workers: int | None = None):
    """The :class:`~polyreward.pipeline.Scorer` of a YAML config file (:func:`load_config`, then :meth:`Config.build_scorer`)."""
    return load_config(path, overrides).build_scorer(workers=workers)
