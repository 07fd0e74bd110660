"""The ``train:`` section of a polyreward YAML file, validated up front.

One file drives scoring, the adapters and this trainer::

    rewards:
      - {name: accuracy, type: math_accuracy}
      - {name: format, type: think_format, weight: 0.2}
    combiner: gdpo
    train:
      model: smollm2-135m            # a local model folder or an asset name (trainer/assets.py)
      dataset: data/prompts.jsonl    # JSONL rows: a prompt column + the reference columns the rewards read
      num_generations: 8
      max_new_tokens: 256
      learning_rate: 1.0e-6
      loss_type: dapo
      max_steps: 200
      decode: auto                   # sampler loop: auto (CUDA graphs on GPU, eager on CPU) | eager | static | cuda_graph
      importance_sampling_level: token   # sequence = GSPO
      mask_truncated_completions: false
      dynamic_sampling: {max_refill_rounds: 3}   # DAPO: drop zero-signal groups, refill from more prompts

Defaults follow TRL 1.16's ``GRPOConfig`` where the two share a knob (temperature 1.0, epsilon 0.2,
beta 0.0, loss_type ``dapo``, num_iterations 1, max_grad_norm 1.0, linear learning-rate decay), so a run
here and a run of TRL's GRPOTrainer with the same numbers optimise the same objective.

One *step* is one generation batch: ``prompts_per_step`` prompts, ``num_generations`` completions each,
scored once, then ``num_iterations`` optimiser updates over it (each update accumulates gradients over
``gradient_accumulation_steps`` micro-batches).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from polyreward.config import Config, ConfigError, load_config


class DatasetSpec(BaseModel):
    """Where prompts come from: a JSONL file, or a loader of :mod:`polyreward.runners.packaged_datasets` with its arguments."""

    model_config = ConfigDict(extra="forbid")
    path: str | None = None
    loader: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _one_source(self) -> DatasetSpec:
        if (self.path is None) == (self.loader is None):
            raise ValueError("give exactly one of dataset.path (a JSONL file) or dataset.loader (a polyreward.runners.packaged_datasets loader)")
        return self


class DynamicSampling(BaseModel):
    """``train.dynamic_sampling``: DAPO's dynamic sampling (Yu et al. 2025, arXiv 2503.14476; verl ``filter_groups``).

    A group is dropped when the combiner gives it no signal (:func:`polyreward.combiners.diagnostics.diagnose`'s
    ``zero_signal``: every advantage within ``tol`` of 0; constant rewards give exact zeros by the combiners' constant
    rule, so float noise is no signal). Each refill round samples ``prompts_per_step`` further prompts; after
    ``max_refill_rounds`` rounds the batch is completed with dropped groups (counted as padded)."""

    model_config = ConfigDict(extra="forbid")
    max_refill_rounds: int = Field(default=3, ge=0)  # extra generation rounds per step at most (verl: max_num_gen_batches - 1)
    tol: float = Field(default=1e-6, ge=0)  # a group whose advantages are all within tol of 0 carries no signal


class TrainConfig(BaseModel):
    """Hyperparameters of the bundled GRPO trainer (the ``train:`` mapping of the YAML file)."""

    model_config = ConfigDict(extra="forbid")

    # what to train on
    model: str = Field(min_length=1)
    dataset: DatasetSpec
    prompt_column: str | None = None  # default: the config's columns.prompt
    system_prompt: str | None = None
    use_chat_template: bool = True  # ignored when the tokenizer has no chat template

    # sampling
    prompts_per_step: int = Field(default=4, ge=1)
    num_generations: int = Field(default=8, ge=2)
    temperature: float = Field(default=1.0, gt=0)
    max_new_tokens: int = Field(default=256, ge=1)
    # the sampler's decode loop (trainer/decode.py): auto = cuda_graph on CUDA, eager elsewhere;
    # eager = DynamicCache; static = StaticCache, fixed shapes, no capture; cuda_graph = static + CUDA graphs
    # (falls back to eager with a warning if capture fails)
    decode: Literal["auto", "eager", "static", "cuda_graph"] = "auto"

    # objective
    # grpo | dr_grpo | dapo: clipped surrogate, three aggregations; cispo: stop-gradient clipped ratio times log π
    # (MiniMax-M1, as TRL 1.16), token mean like dapo (trainer/loss.py has the formulas)
    loss_type: Literal["grpo", "dr_grpo", "dapo", "cispo"] = "dapo"
    # token: one importance ratio per token; sequence: GSPO's one ratio per completion, exp(mean log-ratio)
    importance_sampling_level: Literal["token", "sequence"] = "token"
    epsilon: float = Field(default=0.2, ge=0)
    # None: same as epsilon (DAPO clip-higher uses 0.28). cispo: the absolute cap on the ratio (TRL: 5.0), required
    epsilon_high: float | None = Field(default=None, ge=0)
    beta: float = Field(default=0.0, ge=0)  # weight of the k3 KL to the frozen initial model; 0 loads no reference
    # as TRL: completions that hit max_new_tokens without EOS get zero loss weight (they still count in their group's
    # advantages); counted as completions/masked_truncated
    mask_truncated_completions: bool = False
    # DAPO dynamic sampling: drop groups whose advantages carry no signal and refill from further prompts
    # (trainer/dynamic_sampling.py); null = off
    dynamic_sampling: DynamicSampling | None = None

    # optimisation
    learning_rate: float = Field(default=1e-6, gt=0)
    lr_scheduler: Literal["constant", "linear"] = "linear"
    warmup_steps: int = Field(default=0, ge=0)
    weight_decay: float = Field(default=0.0, ge=0)
    num_iterations: int = Field(default=1, ge=1)
    gradient_accumulation_steps: int = Field(default=1, ge=1)
    max_grad_norm: float | None = Field(default=1.0, gt=0)
    max_steps: int = Field(default=100, ge=1)

    # machinery
    seed: int = 0
    bf16: bool | None = None  # None: bf16 autocast on CUDA, fp32 on CPU (CPUs without AMX gain nothing)
    gradient_checkpointing: bool = False
    disable_dropout: bool = False  # as TRL's GRPOConfig: set every dropout probability to 0 (policy and reference)
    # LM head over this many tokens at a time, recomputed in the backward pass, so no (tokens x vocabulary)
    # logits are kept (trainer/lm_head.py); 0 = the whole completion's float32 logits at once
    lm_head_chunk_tokens: int = Field(default=1024, ge=0)
    device: str | None = None  # None: cuda when available, else cpu
    output_dir: str = "runs/train"
    logging_steps: int = Field(default=1, ge=1)
    # trackers each logged step also goes to: jsonl, tensorboard, wandb, trackio (metrics.jsonl in the output
    # folder is always written: resume and `polyreward report` read it)
    report_to: list[Literal["jsonl", "tensorboard", "wandb", "trackio"]] = Field(default_factory=lambda: ["jsonl"])
    run_name: str | None = None  # the run's name in wandb / trackio (default: the output folder's name)
    log_completions: int = Field(default=4, ge=0)  # rows of the `completions` table logged each logged step; 0 = none
    save_steps: int = Field(default=0, ge=0)  # 0: save only at the end

    @model_validator(mode="after")
    def _consistent(self) -> TrainConfig:
        rollouts = self.prompts_per_step * self.num_generations
        if rollouts % self.gradient_accumulation_steps:
            raise ValueError(
                f"gradient_accumulation_steps ({self.gradient_accumulation_steps}) must divide "
                f"prompts_per_step * num_generations ({rollouts})"
            )
        if self.decode == "cuda_graph" and self.device == "cpu":
            raise ValueError("decode: cuda_graph needs a CUDA device; use auto, eager or static with device: cpu")
        if self.loss_type == "cispo" and (self.epsilon_high is None or self.epsilon_high < 1):
            raise ValueError("loss_type cispo needs epsilon_high >= 1: it is the absolute cap on the importance ratio "
                             "(TRL recommends 5.0), not a clip width")
        if self.bf16 and self.device == "cpu":
            raise ValueError("bf16: autocast is only used on CUDA; set bf16: false (or leave it unset) on CPU")
        return self

    @property
    def clip_low(self) -> float:
        return self.epsilon

    @property
    def clip_high(self) -> float:
        return self.epsilon if self.epsilon_high is None else self.epsilon_high

    @property
    def rollouts_per_step(self) -> int:
        return self.prompts_per_step * self.num_generations


def parse_train_section(section: Any, source: str = "config") -> TrainConfig:
    """Validate a ``train:`` mapping; a string ``dataset`` is shorthand for ``{path: ...}``."""
    if not isinstance(section, dict):
        raise ConfigError(f"{source}: the 'train' section must be a mapping with at least 'model' and 'dataset'")
    data = dict(section)
    if isinstance(data.get("dataset"), str):
        data["dataset"] = {"path": data["dataset"]}
    try:
        return TrainConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{source}: {_describe(exc)}") from None


def _describe(exc: ValidationError) -> str:
    """``train.<key>: <problem>`` for each error; unknown keys list the allowed ones."""
    lines = []
    for err in exc.errors():
        where = ".".join(["train", *(str(p) for p in err["loc"])])
        message = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            nested = {"dataset": DatasetSpec, "dynamic_sampling": DynamicSampling}
            model = nested.get(str(err["loc"][0]), TrainConfig) if len(err["loc"]) > 1 else TrainConfig
            message = f"unknown key; allowed: {', '.join(model.model_fields)}"
        elif err["type"] == "missing":
            message = "required"
        lines.append(f"{where}: {message}")
    return "; ".join(lines)


def load_train_config(config: Config | str | Path, **overrides: Any) -> tuple[Config, TrainConfig]:
    """The whole polyreward config and its validated ``train`` section (``overrides`` replace keys of it).

    A relative ``dataset.path`` is resolved against the config file's folder, so recipes run from anywhere.
    """
    source = str(config) if not isinstance(config, Config) else config._source
    base = Path(config).parent if not isinstance(config, Config) else (config._base_dir or Path.cwd())
    full = config if isinstance(config, Config) else load_config(config)
    if full.train is None:
        raise ConfigError(f"{source}: no 'train' section; the trainer needs at least train.model and train.dataset")
    section = {**full.train, **{k: v for k, v in overrides.items() if v is not None}}
    train = parse_train_section(section, source)
    if train.dataset.path is not None and not Path(train.dataset.path).is_absolute():
        candidate = base / train.dataset.path
        if candidate.exists() or not Path(train.dataset.path).exists():
            train.dataset.path = str(candidate)
    return full, train
