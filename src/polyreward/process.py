"""Process rewards: split a completion into steps, score each step, summarise, and place the step scores on tokens.

A :class:`ProcessScorer` turns N completions into :class:`ProcessScores`: each rollout's steps (text and character
spans), one score per step (NaN where the step scorer had none) and an outcome summary per rollout (the weakest step
by default, as process reward models are usually read). Two consumers:

* PAPO takes the summary as its process column: ``scores = np.column_stack([outcome, process.summary])``,
  ``PAPOCombiner().combine(scores, groups)``;
* GRPO with process supervision (``grpo_process``) takes the step scores on the tokens that end each step:
  ``token_rewards(process, offsets, width)`` gives the (N, T) array of ``combine_tokens(..., token_rewards=...)``.

The step scorer is any callable ``(prompt, steps, row) -> sequence of float | None``, one per step: a rule, a local
model or a client of a judge endpoint. A scorer that scores a whole batch at once (a model's forward passes, a judge's
concurrent requests) also has ``score_batch(prompts, texts, spans, rows)``, given only the rollouts that have steps and
answering one score list per rollout, or the exception that failed it. A scorer that raises, or returns the wrong
number of scores or a non-finite one, fails that rollout only (NaN scores and the reason), never the batch.

A step scored None (the scorer has nothing to say about it: a rule finds nothing checkable) is left out of the summary;
a rollout whose steps are all None has no summary (NaN, reason "no step scored"), never full marks by default. The
``process`` reward type (:mod:`polyreward.rewards.process_steps`) decides what such a rollout scores. Completions are
only read as text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyreward.reward import failure_reason
from polyreward.schema import completion_text

SEGMENTS = ("lines", "paragraphs", "markers")
SUMMARIES = ("min", "mean", "last", "product")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# a line that opens with "=" or a result arrow continues the equation of the line above (step_arithmetic)
_CONTINUES = re.compile(r"[ \t]*(?:[=＝→⇒⟶⟹]|->)")
_STEP_MARKER = re.compile(r"^[ \t]*(?:step|schritt|étape)[ \t]*\d{1,4}[ \t]*[:.)-]", re.IGNORECASE | re.MULTILINE)

StepScorer = Callable[[Any, list[str], Mapping[str, Any]], Sequence[float | None]]


def segment_steps(text: str, how: str = "lines", max_steps: int = 64) -> list[tuple[int, int]]:
    """Character spans (start, end) of the non-blank steps of ``text``, in order, whitespace trimmed.

    ``lines``: one step per line, a line that opens with ``=`` or an arrow (``→``, ``->``, ``⇒``) kept with the line
    above (``0.25 × 80`` / ``= 20`` is one equation split over two lines, red team ``holdout_r25``); ``paragraphs``: blocks separated by a blank line; ``markers``: a new step where a line
    starts with "Step <n>:" (text before the first marker is a step of its own). Past ``max_steps`` the rest of the text
    is one last step, so a flood of tiny steps cannot outweigh the rest. Linear in ``len(text)``.
    """
    if how not in SEGMENTS:
        raise ValueError(f"segment must be one of {', '.join(SEGMENTS)}, got {how!r}")
    if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
        raise ValueError(f"max_steps must be an integer >= 1, got {max_steps!r}")
    if how == "lines":
        cuts = [m.start() for m in re.finditer("\n", text) if not _CONTINUES.match(text, m.start() + 1)]
        bounds = list(zip([0] + [c + 1 for c in cuts], cuts + [len(text)]))
    elif how == "paragraphs":
        breaks = list(_PARAGRAPH_BREAK.finditer(text))
        bounds = list(zip([0] + [m.end() for m in breaks], [m.start() for m in breaks] + [len(text)]))
    else:
        starts = [m.start() for m in _STEP_MARKER.finditer(text)]
        if not starts or starts[0] != 0:
            starts = [0] + starts
        bounds = list(zip(starts, starts[1:] + [len(text)]))
    spans = [span for span in (_trimmed(text, a, b) for a, b in bounds) if span is not None]
    if len(spans) > max_steps:
        spans = spans[: max_steps - 1] + [(spans[max_steps - 1][0], spans[-1][1])]
    return spans


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    offset = start + (len(piece) - len(piece.lstrip()))
    return offset, offset + len(stripped)


@dataclass
class ProcessScores:
    """Step scores of N rollouts. ``step_scores[i]`` has one float per step of rollout i (NaN: no score for it);
    ``summary`` (N,) the outcome summary (NaN where no step has a score or the scorer failed); ``reasons[i]`` why a
    rollout has no summary ("" otherwise)."""

    texts: list[str]
    spans: list[list[tuple[int, int]]]
    step_scores: list[np.ndarray]
    summary: np.ndarray
    reasons: list[str] = field(default_factory=list)

    def steps(self, i: int) -> list[str]:
        return [self.texts[i][a:b] for a, b in self.spans[i]]


class ProcessScorer:
    """Segment completions into steps, score each step with ``step_scorer``, summarise per rollout.

    Args:
        step_scorer: ``(prompt, steps, row) -> one float | None per step``, or an object with ``score_batch``
        segment: how a completion splits into steps (lines, paragraphs, markers)
        summary: the per-rollout outcome of its scored steps: min (the weakest step), mean, last or product
        max_steps: the most steps per completion (the rest of the text is the last step)
    """

    def __init__(self, step_scorer: StepScorer, segment: str = "lines", summary: str = "min", max_steps: int = 64) -> None:
        if not callable(step_scorer) and not callable(getattr(step_scorer, "score_batch", None)):
            raise ValueError(f"step_scorer must be callable (prompt, steps, row) -> scores or have score_batch, "
                             f"got {type(step_scorer).__name__}")
        if summary not in SUMMARIES:
            raise ValueError(f"summary must be one of {', '.join(SUMMARIES)}, got {summary!r}")
        segment_steps("", segment, max_steps)  # validates both
        self.step_scorer = step_scorer
        self.segment = segment
        self.summary = summary
        self.max_steps = max_steps

    def score(self, prompts: Sequence[Any], completions: Sequence[Any],
              rows: Sequence[Mapping[str, Any]] | None = None) -> ProcessScores:
        """Step scores and summaries of N completions (plain text or chat messages)."""
        if len(prompts) != len(completions) or (rows is not None and len(rows) != len(completions)):
            raise ValueError(f"prompts, completions and rows must have one entry per rollout "
                             f"({len(prompts)}, {len(completions)}, {'-' if rows is None else len(rows)})")
        texts = [completion_text(c) for c in completions]
        spans = [segment_steps(t, self.segment, self.max_steps) for t in texts]
        row_of = [rows[i] if rows is not None else {} for i in range(len(texts))]
        answers = self._batch_answers(prompts, texts, spans, row_of)
        step_scores: list[np.ndarray] = []
        summary = np.full(len(texts), np.nan)
        reasons = [""] * len(texts)
        for i, (text, own) in enumerate(zip(texts, spans)):
            steps = [text[a:b] for a, b in own]
            if answers is None:
                values, reasons[i] = self._score_one(prompts[i], steps, row_of[i])
            else:
                values, reasons[i] = self._checked(answers.get(i, []), len(steps))
            step_scores.append(values)
            scored = values[~np.isnan(values)]
            if len(scored):
                summary[i] = _summarise(scored, self.summary)
            elif not reasons[i]:
                reasons[i] = "no steps" if not own else "no step scored"
        return ProcessScores(texts, spans, step_scores, summary, reasons)

    def _batch_answers(self, prompts: Sequence[Any], texts: list[str], spans: list[list[tuple[int, int]]],
                       rows: list[Mapping[str, Any]]) -> dict[int, Any] | None:
        """Rollout index -> its scores (or the exception that failed it) from ``score_batch``; None for a per-rollout
        scorer. A ``score_batch`` that raises, or answers the wrong number of rollouts, fails every rollout with steps."""
        batch = getattr(self.step_scorer, "score_batch", None)
        if batch is None:
            return None
        having = [i for i, own in enumerate(spans) if own]
        if not having:
            return {}
        try:
            answers = list(batch([prompts[i] for i in having], [texts[i] for i in having], [spans[i] for i in having],
                                 [rows[i] for i in having]))
            if len(answers) != len(having):
                raise ValueError(f"step scorer answered {len(answers)} rollouts of {len(having)}")
        except Exception as exc:  # noqa: BLE001 -- the batch call itself failed: every rollout it was given
            answers = [exc] * len(having)
        return dict(zip(having, answers))

    def _score_one(self, prompt: Any, steps: list[str], row: Mapping[str, Any]) -> tuple[np.ndarray, str]:
        if not steps:
            return np.zeros(0), ""
        try:
            raw = list(self.step_scorer(prompt, steps, row))
        except Exception as exc:  # noqa: BLE001 -- one rollout's failure, whatever the scorer raised
            return np.full(len(steps), np.nan), failure_reason(exc)
        return self._checked(raw, len(steps))

    @staticmethod
    def _checked(answer: Any, count: int) -> tuple[np.ndarray, str]:
        """One rollout's scores as floats (NaN for None), or all NaN and the reason when the answer is unusable."""
        if count == 0:
            return np.zeros(0), ""
        if isinstance(answer, BaseException):
            return np.full(count, np.nan), failure_reason(answer)
        try:
            raw = list(answer)
        except TypeError:
            return np.full(count, np.nan), f"error: step scorer returned {type(answer).__name__}, not a list of scores"
        if len(raw) != count:
            return np.full(count, np.nan), f"error: step scorer returned {len(raw)} scores for {count} steps"
        values = np.full(count, np.nan)
        for j, value in enumerate(raw):
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not math.isfinite(value):
                return np.full(count, np.nan), f"error: step {j} score {str(value)[:40]!r} is not a finite number"
            values[j] = float(value)
        return values, ""


def _summarise(scored: np.ndarray, how: str) -> float:
    if how == "min":
        return float(scored.min())
    if how == "mean":
        return float(scored.mean())
    if how == "last":
        return float(scored[-1])
    return float(np.prod(scored))


def token_rewards(process: ProcessScores, offsets: Sequence[Sequence[tuple[int, int]]], width: int | None = None) -> np.ndarray:
    """(N, T) step scores on tokens, NaN elsewhere: each step's score on the token holding the step's last character.

    ``offsets[i]`` are the character spans (start, end) of rollout i's completion tokens in its completion text (a
    Hugging Face fast tokenizer's ``return_offsets_mapping=True``); T is ``width`` or the longest row. A step whose
    end no token covers (text the tokenizer dropped) goes on the row's last token at or before it."""
    n = len(process.texts)
    if len(offsets) != n:
        raise ValueError(f"offsets must have one token-span list per rollout ({n}), got {len(offsets)}")
    width = max((len(o) for o in offsets), default=0) if width is None else int(width)
    out = np.full((n, max(width, 0)), np.nan)
    for i in range(n):
        ends = np.asarray([end for _, end in offsets[i]][:width], dtype=np.int64)
        if not len(ends):
            continue
        for (_, step_end), value in zip(process.spans[i], process.step_scores[i]):
            if np.isnan(value):
                continue
            token = int(np.searchsorted(ends, step_end, side="left"))  # the first token ending at or after the step end
            token = min(token, len(ends) - 1)
            if np.isnan(out[i, token]):
                out[i, token] = value
            else:  # two steps end inside one token: their scores add, as rewards on one token do
                out[i, token] += value
    return out
