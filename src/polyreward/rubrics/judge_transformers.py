"""The ``transformers`` judge: a local causal LM (a model directory) grades rubric items in batches.

Two modes:

* ``generate`` (default): the HealthBench-style grader prompt (:mod:`polyreward.rubrics.grading`) in
  the model's chat template, batched generation with left padding, answer parsed from JSON or a
  yes/no; an unparsable answer gives a failed verdict (NaN) with the text it could not read.
  ``temperature: 0`` (default) decodes greedily, so the same batch always gets the same verdicts.
* ``yes_no``: one forward pass per item; met when P(yes) / (P(yes) + P(no)) of the next token is at
  least ``threshold``. Always parses, deterministic, and much cheaper than generation.

The model is loaded on first use (a reward holding this judge stays cheap to build and to pickle) and
shared by every judge of the process that names the same directory, device and dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from polyreward.rubrics.grading import parse_single, single_prompt, yes_no_prompt
from polyreward.rubrics.judges import Judge, JudgeRequest, Verdict, failed
from polyreward.judges.local_lm import DTYPES, LocalLM, resolve_model_dir, shared_lm

MODES = ("generate", "yes_no")


class TransformersJudge(Judge):
    type_name = "transformers"

    def __init__(self, model: str, mode: str = "generate", batch_size: int = 8, max_new_tokens: int = 256,
                 temperature: float = 0.0, seed: int | None = 0, threshold: float = 0.5, device: str = "cpu",
                 dtype: str = "auto", max_input_tokens: int | None = None) -> None:
        self.model_dir = resolve_model_dir(model)
        if mode not in MODES:
            raise ValueError(f"mode: {mode!r} is not allowed; allowed: {', '.join(MODES)}")
        if dtype not in DTYPES:
            raise ValueError(f"dtype: {dtype!r} is not allowed; allowed: {', '.join(DTYPES)}")
        for key, value, low in (("batch_size", batch_size, 1), ("max_new_tokens", max_new_tokens, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{key}: must be an integer >= {low}, got {value!r}")
        if not isinstance(temperature, (int, float)) or temperature < 0:
            raise ValueError(f"temperature: must be >= 0 (0 = greedy), got {temperature!r}")
        if not 0.0 < threshold < 1.0:
            raise ValueError(f"threshold: must be in (0, 1), got {threshold!r}")
        self.mode, self.batch_size, self.max_new_tokens = mode, batch_size, max_new_tokens
        self.temperature, self.seed, self.threshold = float(temperature), seed, float(threshold)
        self.device, self.dtype, self.max_input_tokens = device, dtype, max_input_tokens
        self._lm: LocalLM | None = None

    @property
    def lm(self) -> LocalLM:
        if self._lm is None:
            self._lm = shared_lm(str(self.model_dir.resolve()), self.device, self.dtype, self.max_input_tokens)
        return self._lm

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_lm"] = None  # the loaded model is rebuilt lazily in the receiving process
        return state

    def judge(self, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        if not requests:
            return []
        try:
            lm = self.lm
        except Exception as exc:  # cannot load the model: every criterion fails with the reason
            return [failed(f"transformers judge: cannot load {self.model_dir}: {type(exc).__name__}: {exc}")] * len(requests)
        try:
            if self.mode == "yes_no":
                return self._judge_yes_no(lm, requests)
            return self._judge_generate(lm, requests)
        except Exception as exc:  # e.g. out of memory: this batch fails, the caller goes on
            return [failed(f"transformers judge error: {type(exc).__name__}: {exc}")] * len(requests)

    def _judge_generate(self, lm: LocalLM, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        prompts = [lm.chat_text([{"role": "user", "content": single_prompt(r.conversation, r.response, r.item)}]) for r in requests]
        generations = lm.generate(prompts, self.max_new_tokens, self.temperature, seed=self.seed, batch_size=self.batch_size)
        verdicts = []
        for generation in generations:
            met, explanation = parse_single(generation.text)
            if met is None and generation.finish_reason == "length":
                explanation += f" (answer cut at max_new_tokens={self.max_new_tokens})"
            verdicts.append(Verdict(met, explanation[:500]))
        return verdicts

    def ask(self, prompts: Sequence[str], parse: Callable[[str], tuple[bool | None, str]]) -> list[Verdict]:
        """Free-form prompts, generated as in ``generate`` mode and read by ``parse`` (``yes_no`` mode
        scores P(yes) after each prompt instead)."""
        if not prompts:
            return []
        try:
            lm = self.lm
            texts = [lm.chat_text([{"role": "user", "content": p}]) for p in prompts]
            if self.mode == "yes_no":
                return [Verdict(p >= self.threshold, f"P(yes)={p:.3f}") for p in lm.yes_probability(texts, batch_size=self.batch_size)]
            generations = lm.generate(texts, self.max_new_tokens, self.temperature, seed=self.seed, batch_size=self.batch_size)
        except Exception as exc:  # cannot load / out of memory: this batch fails, the caller goes on
            return [failed(f"transformers judge error: {type(exc).__name__}: {exc}")] * len(prompts)
        return [Verdict(met, explanation[:500]) for met, explanation in (parse(g.text) for g in generations)]

    def _judge_yes_no(self, lm: LocalLM, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        prompts = [lm.chat_text([{"role": "user", "content": yes_no_prompt(r.conversation, r.response, r.item)}]) for r in requests]
        probabilities = lm.yes_probability(prompts, batch_size=self.batch_size)
        return [Verdict(p >= self.threshold, f"P(yes)={p:.3f}") for p in probabilities]

    def __repr__(self) -> str:
        return f"TransformersJudge(model={str(self.model_dir)!r}, mode={self.mode!r})"
