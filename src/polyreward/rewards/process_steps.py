"""``process``: a completion's steps, each scored by a step scorer, summarised into one score per rollout.

    steps     = segment(completion)                   lines | paragraphs | markers ("Step n:"), at most max_steps
    s_j       = scorer(prompt, steps)[j]              in [0, 1], or None: nothing to score in step j
    r         = summary({s_j : s_j is not None})      min (the weakest step) | mean | last | product
    r         = unscored                              when no step has a score (no steps, or every s_j None)

Segmentation and summaries are :mod:`polyreward.process` (:class:`~polyreward.process.ProcessScorer`). The step
scorer is named in the config as ``scorer: {kind: ..., ...}``:

* ``rule`` -- arithmetic consistency (:mod:`polyreward.rewards.step_arithmetic`): 1 when the step's checkable
  equations hold, 0 when one does not, None when it has none; or ``{kind: rule, function: "mypkg.steps:score"}``,
  a trusted callable ``(prompt, steps, row) -> one float in [0, 1] or None per step`` from the config's own text;
* ``model`` -- a local sequence-classification process reward model over each step's prefix
  (:class:`~polyreward.rewards.step_scorers.ModelStepScorer`);
* ``judge`` -- an OpenAI-compatible judge endpoint asked for one score per step
  (:class:`~polyreward.rewards.step_scorers.JudgeStepScorer`).

A step scored None is left out of the summary, so an unscorable step neither helps nor hurts; a rollout with no
scored step at all gets ``unscored`` (0.0 by default, the same as a wrong step, so writing nothing checkable is never
worth more than a checked step; null makes it "not applicable"). A scorer failure is NaN with the reason for that
rollout only. The per-step scores are in the details (``polyreward score`` writes them as columns
``<name>.step_scores``: a list per row, null for an unscored step; ``<name>.steps`` and ``<name>.scored_steps``
count them), and :meth:`ProcessReward.score_steps` returns the full :class:`~polyreward.process.ProcessScores`
(spans for :func:`polyreward.process.token_rewards`). As PAPO's process column: ``rewards: [outcome, process]``
with ``combiner: papo``. Reconstructed (ours): the reward wiring; PAPO and the summaries are as documented there.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from polyreward.process import SEGMENTS, SUMMARIES, ProcessScorer, ProcessScores
from polyreward.reward import Reward, RewardOutput, column_lists, one_of
from polyreward.vocabulary import import_callable
from polyreward.rewards.step_arithmetic import arithmetic_step_scores

SCORER_KINDS = ("rule", "model", "judge")


def build_step_scorer(spec: Mapping[str, Any] | None) -> Callable[..., Any]:
    """A step scorer from its config mapping ``{kind: rule | model | judge, ...}`` (None: the arithmetic rule).
    A bad kind or key is a ValueError naming it and the allowed ones."""
    if spec is None:
        return arithmetic_step_scores
    if not isinstance(spec, Mapping):
        raise ValueError(f"scorer: must be a mapping like {{kind: rule}}, {{kind: model, model: ./prm}} or "
                         f"{{kind: judge, base_url: ..., model: ...}}, got {spec!r}")
    params = dict(spec)
    kind = params.pop("kind", None)
    one_of("scorer.kind", kind, SCORER_KINDS)
    if kind == "rule":
        function = params.pop("function", None)
        if params:
            raise ValueError(f"scorer (rule): unknown key(s) {sorted(params)}; allowed: kind, function")
        return arithmetic_step_scores if function is None else _trusted_function(function)
    from polyreward.rewards.step_scorers import JudgeStepScorer, ModelStepScorer

    cls = ModelStepScorer if kind == "model" else JudgeStepScorer
    import inspect

    allowed = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"scorer ({kind}): unknown key(s) {unknown}; allowed: kind, {', '.join(allowed)}")
    try:
        return cls(**params)
    except TypeError as exc:
        raise ValueError(f"scorer ({kind}): {exc}") from None


def _trusted_function(function: Any) -> Callable[..., Any]:
    """``"package.module:callable"`` from the config's text (trusted, as ``type: mypkg:Class``), never model output."""
    if not isinstance(function, str) or ":" not in function:
        raise ValueError(f"scorer.function: must be 'package.module:callable', got {function!r}")
    return import_callable(function, "scorer.function")


class ProcessReward(Reward):
    """Summary of per-step scores of a completion (a rule, a local process reward model or a judge per step).

    Args:
        segment: how a completion splits into steps: lines, paragraphs, or markers ("Step n:" headings)
        summary: the rollout's score from its scored steps: min (the weakest), mean, last or product
        max_steps: the most steps per completion (the rest of the text is the last step)
        scorer: the step scorer: {kind: rule} (arithmetic consistency; or function: 'pkg.mod:callable'),
            {kind: model, model: <local folder>, ...} or {kind: judge, base_url: ..., model: ..., ...}; null: rule
        unscored: score of a rollout with no scored step (no steps, or none the scorer could score); null: not
            applicable
    """

    type_name = "process"
    exactness = "reconstructed"
    description = "summary (min/mean/last/product) of per-step scores: arithmetic rule, local PRM or judge endpoint per step"
    score_range = (0.0, 1.0)

    def __init__(self, name: str | None = None, weight: float = 1.0, segment: str = "lines", summary: str = "min",
                 max_steps: int = 64, scorer: Mapping[str, Any] | None = None, unscored: float | None = 0.0) -> None:
        super().__init__(name, weight)
        one_of("segment", segment, SEGMENTS)
        one_of("summary", summary, SUMMARIES)
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps: must be an integer >= 1, got {max_steps!r}")
        if unscored is not None and (isinstance(unscored, bool) or not isinstance(unscored, (int, float))
                                     or not 0.0 <= unscored <= 1.0):
            raise ValueError(f"unscored: must be a number in [0, 1] or null, got {unscored!r}")
        self.step_scorer = build_step_scorer(scorer)
        self.scorer_kind = "rule" if scorer is None else str(scorer.get("kind"))
        self.unscored = None if unscored is None else float(unscored)
        batched = hasattr(self.step_scorer, "score_batch")  # model and judge: one call per batch (their own checks)
        self.process = ProcessScorer(self.step_scorer if batched else self._bounded, segment, summary, max_steps)

    def _bounded(self, prompt: Any, steps: list[str], row: Mapping[str, Any]) -> list[float | None]:
        """A per-rollout scorer's answer, with a score outside [0, 1] refused (the reward's declared range)."""
        scores = list(self.step_scorer(prompt, steps, row))
        for j, value in enumerate(scores):
            if isinstance(value, numbers.Real) and not isinstance(value, bool) and not 0.0 <= value <= 1.0:
                raise ValueError(f"step scorer gave step {j + 1} the score {value!r}, outside [0, 1]")
        return scores

    def score_steps(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> ProcessScores:
        """The steps, per-step scores (NaN: unscored or failed), summaries and reasons of a batch."""
        n = len(completions)
        lists = column_lists(columns, n)  # the columns of n values (TRL also passes trainer_state and the like)
        rows = [{k: v[i] for k, v in lists.items()} for i in range(n)]
        prompts = list(prompts) + [None] * (n - len(prompts))
        return self.process.score(prompts[:n], completions, rows)

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        process = self.score_steps(prompts, completions, **columns)
        scores: list[float | None] = []
        reasons: list[str] = []
        details: dict[str, list[Any]] = {"step_scores": [], "steps": [], "scored_steps": []}
        for i, summary in enumerate(process.summary.tolist()):
            values = process.step_scores[i]
            scored = [j for j, v in enumerate(values.tolist()) if not math.isnan(v)]
            reason = process.reasons[i]
            details["steps"].append(float(len(values)))
            details["scored_steps"].append(float(len(scored)) if not reason.startswith("error") else None)
            details["step_scores"].append([None if math.isnan(v) else round(v, 6) for v in values.tolist()])
            if not math.isnan(summary):
                scores.append(min(1.0, max(0.0, summary)))
                reasons.append(self._explain(process, i, scored, summary))
            elif reason in ("no steps", "no step scored"):
                scores.append(self.unscored)
                reasons.append(f"{reason} ({len(values)} step(s)); unscored rollouts score "
                               f"{'n/a' if self.unscored is None else f'{self.unscored:g}'}")
            else:
                scores.append(math.nan)
                reasons.append(reason or "error: no summary")
        return RewardOutput(scores, reasons, details)

    def _explain(self, process: ProcessScores, i: int, scored: list[int], summary: float) -> str:
        values = process.step_scores[i]
        weakest = min(scored, key=lambda j: values[j])
        a, b = process.spans[i][weakest]
        text = process.texts[i][a:b].replace("\n", " ")
        return (f"{self.process.summary} of {len(scored)} scored step(s) of {len(values)} = {summary:.4g}; "
                f"weakest: step {weakest + 1} ({values[weakest]:.3g}) {text[:80]!r}")

    def summary(self) -> dict[str, Any] | None:
        """A judge step scorer's per-endpoint counts (None for the rule and model scorers)."""
        counts = getattr(self.step_scorer, "summary", None)
        return counts() if callable(counts) else None

    def __repr__(self) -> str:
        return f"ProcessReward(name={self.name!r}, scorer={self.scorer_kind}, summary={self.process.summary!r})"
