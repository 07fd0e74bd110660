"""The ``rubric`` reward: judge every rubric item of every rollout, then score it HealthBench-style.

Config::

    rewards:
      - name: clinical
        type: rubric
        rubric_column: rubrics          # per-example rubrics (HealthBench rows); or:
        rubric_file: rubric.json        # one rubric for every example (.json / .jsonl / .yaml)
        aggregation: healthbench        # or weighted_mean (RaR explicit aggregation)
        clip: false                     # HealthBench keeps per-example scores unclipped
        on_judge_error: nan             # nan | skip | unmet
        judge: {type: openai, base_url: http://127.0.0.1:8000/v1, model: judge, timeout: 30}
        allowed_callables: []           # rule callables rubric cells of the data may name (besides the built-in ones)
        rule_guards: false              # true: rules read the visible text; a hit counts only committed (not denied, withdrawn or contradicted), in a prose clause

Scores (formulas and sources in :mod:`polyreward.rubrics.scoring`):

* ``healthbench`` [EXACT]: Σ points of met items / Σ positive points; negative items subtract when the
  undesirable behaviour is present; None (not applicable) when the rubric has no positive points.
* ``weighted_mean`` [RaR, negative items RECONSTRUCTED]: |points|-weighted share of items satisfied in
  the desired direction, in [0, 1].
* ``details``: one sub-score per ``axis:*`` tag (``axis:accuracy``, ...), the same formula on the items
  with that tag (None where the subset has no positive points, as HealthBench skips it), and
  ``judge_failures`` (count of failed criteria).
* ``reasons``: the score, then every item as ``[+7 met] criterion -- explanation``.

Judging: all (conversation, response, item) triples of the batch are de-duplicated (GRPO groups repeat
completions) and sent to the judge in one call, so a server judge can use its whole concurrency. Items
that carry a ``rule`` are always checked by the rules judge; the rest go to the configured judge
(default ``rules``).

A criterion whose judging failed (NaN verdict) is handled by ``on_judge_error``:

* ``nan`` (default): the whole example scores NaN, its reason (``error: judge failed on N of M criteria ...: <first
  failure>``, counted as a failure) naming the failed items. A rubric score
  with an unknown term is not the same quantity as the others (dropping a +10 item inflates the score,
  dropping a -10 item hides a penalty), so it is reported as missing and TRL / the combiners leave it
  out, rather than mixed in as a biased number.
* ``skip``: the failed items are left out of both sums (the score of the items that were graded; NaN
  if no positive points remain).
* ``unmet``: failed items count as not met (RuscaRL's fallback after its retries).
Axis sub-scores follow the same policy on their own items only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from polyreward.reward import Reward, RewardOutput, failure_reason
from polyreward.rubrics.judge_rules import RulesJudge
from polyreward.rubrics.judges import Judge, JudgeRequest, Verdict, build_judge
from polyreward.rubrics.schema import RubricError, RubricItem, load_rubric_file, parse_rubric
from polyreward.rubrics.scoring import AGGREGATIONS, rubric_score
from polyreward.schema import completion_text, is_missing

ON_JUDGE_ERROR = ("nan", "skip", "unmet")


def conversation_of(prompt: Any) -> tuple[dict[str, Any], ...]:
    """The prompt as chat messages: a message list as is, a string as one user message."""
    if is_missing(prompt):
        return ()
    if isinstance(prompt, str):
        from polyreward.schema import decode_messages

        decoded = decode_messages(prompt)
        return tuple(decoded) if decoded is not None else ({"role": "user", "content": prompt},)
    if isinstance(prompt, Mapping):
        return (dict(prompt),)
    if not hasattr(prompt, "__iter__"):
        raise TypeError(f"a prompt must be a string or a list of chat messages, got {type(prompt).__name__}")
    return tuple(dict(m) for m in prompt if isinstance(m, Mapping))


def _points(points: float) -> str:
    return f"{int(points):+d}" if float(points).is_integer() else f"{points:+g}"


class RubricReward(Reward):
    """Rubric score of each completion (HealthBench by default), every criterion graded by the configured judge.

    Args:
        rubric_column: column holding each row's rubric (a list of criteria with points)
        rubric_file: one rubric for every row, read from this JSON file (relative to the config) instead of
            rubric_column
        judge: who grades each criterion: {type: rules}, a local model or an OpenAI-compatible endpoint, with its
            settings
        aggregation: healthbench (points of met criteria / positive points) or weighted_mean (RaR's explicit
            aggregation)
        clip: clip the score to [0, 1] (HealthBench clips negative totals)
        on_judge_error: a criterion the judge could not grade: nan (the row is not scored), skip (left out) or unmet
            (counted as not met)
        axis_scores: also report one sub-score per rubric axis (accuracy, completeness, ...)
        allowed_callables: package.module:function names a rule may call (custom checks); nothing else is ever
            imported
        rule_guards: rules read the visible text (no comments, hidden text, or quotes beside another answer); a keyword hit counts only unnegated, in a prose clause (not in a keyword list), and not denied, withdrawn or contradicted later
    """

    type_name = "rubric"
    exactness = "exact"
    description = "HealthBench rubric score: points of met criteria / positive points, graded by a rules, local-model or OpenAI-compatible judge"
    score_range = (-math.inf, 1.0)
    probe_strategies = ("keyword_stuffing", "negated_keywords", "lookalike_harm")

    def __init__(self, name: str | None = None, weight: float = 1.0, rubric_column: str = "rubrics",
                 rubric_file: str | None = None, judge: Mapping[str, Any] | None = None,
                 aggregation: str = "healthbench", clip: bool = False, on_judge_error: str = "nan",
                 axis_scores: bool = True, allowed_callables: Sequence[str] = (), rule_guards: bool = False) -> None:
        super().__init__(name, weight)
        if not isinstance(rule_guards, bool):
            raise ValueError(f"rule_guards: must be true or false, got {rule_guards!r}")
        self.rule_guards = rule_guards
        if isinstance(allowed_callables, str) or not all(isinstance(c, str) for c in allowed_callables):
            raise ValueError(f"allowed_callables: must be a list of 'package.module:function' names, got {allowed_callables!r}")
        self.allowed_callables = tuple(allowed_callables)
        if aggregation not in AGGREGATIONS:
            raise ValueError(f"aggregation: {aggregation!r} is not allowed; allowed: {', '.join(AGGREGATIONS)}")
        if on_judge_error not in ON_JUDGE_ERROR:
            raise ValueError(f"on_judge_error: {on_judge_error!r} is not allowed; allowed: {', '.join(ON_JUDGE_ERROR)}")
        if not isinstance(clip, bool):
            raise ValueError(f"clip: must be true or false, got {clip!r}")
        if not isinstance(rubric_column, str) or not rubric_column:
            raise ValueError(f"rubric_column: must be a column name, got {rubric_column!r}")
        self.rubric_column = rubric_column
        self.rubric_file = str(rubric_file) if rubric_file is not None else None
        try:
            self.shared_rubric = load_rubric_file(Path(rubric_file)) if rubric_file is not None else None
        except RubricError as exc:
            raise ValueError(f"rubric_file: {exc}") from None
        self.judge: Judge = build_judge(judge)
        if isinstance(self.judge, RulesJudge) and rule_guards:
            self.judge = RulesJudge(guarded=True)
        self.rules = self.judge if isinstance(self.judge, RulesJudge) else RulesJudge(guarded=rule_guards)
        self.aggregation, self.clip, self.on_judge_error, self.axis_scores = aggregation, clip, on_judge_error, axis_scores
        if clip or aggregation == "weighted_mean":
            self.score_range = (0.0, 1.0)

    @property
    def columns(self) -> tuple[str, ...]:
        return () if self.shared_rubric is not None else (self.rubric_column,)

    def _rubrics(self, n: int, columns: Mapping[str, Sequence[Any]]) -> list[list[RubricItem] | str]:
        """Each rollout's rubric, or a string saying why it has none (None-score) / is invalid (NaN)."""
        if self.shared_rubric is not None:
            return [self.shared_rubric] * n
        if self.rubric_column not in columns:
            raise KeyError(
                f"reward {self.name!r} reads rubrics from column {self.rubric_column!r}, which the batch does not have; "
                f"available: {sorted(columns)} (or set rubric_file)"
            )
        out: list[list[RubricItem] | str] = []
        for i, value in enumerate(columns[self.rubric_column]):
            if is_missing(value):
                out.append("no rubric")
                continue
            try:
                out.append(parse_rubric(value, f"column {self.rubric_column!r} row {i}", self.allowed_callables))
            except RubricError as exc:
                out.append(f"error: invalid rubric: {exc}")
        return out

    def _judge_all(self, requests: list[JudgeRequest]) -> list[Verdict]:
        """Judge unique requests once; rule items by the rules judge, the rest by the configured judge."""
        unique: dict[str, int] = {}
        order: list[int] = []
        distinct: list[JudgeRequest] = []
        for request in requests:
            key = json.dumps([list(request.conversation), request.response, request.item.criterion,
                              request.item.points, list(request.item.tags), request.item.rule], sort_keys=True, default=str)
            if key not in unique:
                unique[key] = len(distinct)
                distinct.append(request)
            order.append(unique[key])
        verdicts: list[Verdict | None] = [None] * len(distinct)
        by_rule = [i for i, r in enumerate(distinct) if r.item.rule is not None]
        by_judge = [i for i, r in enumerate(distinct) if r.item.rule is None]
        for judge, indices in ((self.rules, by_rule), (self.judge, by_judge)):
            if not indices:
                continue
            try:
                results = judge.judge([distinct[i] for i in indices])
                if len(results) != len(indices):
                    raise RuntimeError(f"judge returned {len(results)} verdicts for {len(indices)} criteria")
            except Exception as exc:  # a judge must not raise, but if it does only its criteria fail
                results = [Verdict(None, f"judge error: {type(exc).__name__}: {exc}"[:500])] * len(indices)
            for i, verdict in zip(indices, results):
                verdicts[i] = verdict
        return [verdicts[i] for i in order]  # type: ignore[misc]

    def _score(self, items: Sequence[RubricItem], verdicts: Sequence[Verdict]) -> tuple[float | None, list[RubricItem]]:
        """Score under ``on_judge_error``; returns NaN (float) when failures make it unknown, plus the failed items."""
        failed_items = [item for item, v in zip(items, verdicts) if v.met is None]
        if rubric_score([item.points for item in items], [False] * len(items), self.aggregation) is None:
            return None, failed_items  # no positive points: not applicable whatever the verdicts (HealthBench)
        if failed_items and self.on_judge_error == "nan":
            return math.nan, failed_items
        kept = [(item, v) for item, v in zip(items, verdicts) if not (v.met is None and self.on_judge_error == "skip")]
        score = rubric_score([item.points for item, _ in kept], [bool(v.met) for _, v in kept], self.aggregation, self.clip)
        if score is None and failed_items and self.on_judge_error == "skip":
            return math.nan, failed_items
        return score, failed_items

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        n = len(completions)
        rubrics = self._rubrics(n, columns)
        requests: list[JudgeRequest] = []
        spans: list[tuple[int, int]] = []
        for i, rubric in enumerate(rubrics):
            start = len(requests)
            if not isinstance(rubric, str):
                try:
                    conversation = conversation_of(prompts[i] if i < len(prompts) else None)
                    response = completion_text(completions[i])
                except Exception as exc:  # a malformed prompt or completion fails its own rollout, not the judge batch
                    rubrics[i] = failure_reason(exc)
                else:
                    requests.extend(JudgeRequest(conversation, response, item) for item in rubric)
            spans.append((start, len(requests)))
        verdicts = self._judge_all(requests) if requests else []

        axes = sorted({axis for rubric in rubrics if not isinstance(rubric, str) for item in rubric for axis in item.axes})
        scores: list[float | None] = []
        reasons: list[str] = []
        details: dict[str, list[float | None]] = {}
        if self.axis_scores:
            details.update({f"axis:{axis}": [None] * n for axis in axes})
        details["judge_failures"] = [None] * n
        for i, rubric in enumerate(rubrics):
            if isinstance(rubric, str):
                scores.append(math.nan if rubric.startswith("error") else None)
                reasons.append(rubric)
                continue
            own = verdicts[spans[i][0]:spans[i][1]]
            score, failed_items = self._score(rubric, own)
            scores.append(score)
            details["judge_failures"][i] = float(len(failed_items))
            if self.axis_scores:
                for axis in axes:
                    subset = [(item, v) for item, v in zip(rubric, own) if axis in item.axes]
                    if subset:
                        sub_score, _ = self._score([s[0] for s in subset], [s[1] for s in subset])
                        details[f"axis:{axis}"][i] = sub_score
            reasons.append(self._reason(rubric, own, score, failed_items))
        return RewardOutput(scores, reasons, details)

    def _reason(self, items: Sequence[RubricItem], verdicts: Sequence[Verdict], score: float | None, failed_items: list[RubricItem]) -> str:
        if score is None:
            head = "not applicable: the rubric has no positive points"
        elif isinstance(score, float) and math.isnan(score):
            # "error: ..." marks a failure (counted by `polyreward score` and the trainer), not "not applicable"
            first = next(v.explanation for v in verdicts if v.met is None)
            head = (f"error: judge failed on {len(failed_items)} of {len(items)} criteria (on_judge_error={self.on_judge_error})"
                    f": {first.replace(chr(10), ' ')[:200]}")
        else:
            head = f"score {score:.4g} ({self.aggregation}{', clipped' if self.clip else ''})"
            if failed_items:
                head += f"; {len(failed_items)} failed criteria {'left out' if self.on_judge_error == 'skip' else 'counted as not met'}"
        lines = [head]
        for item, verdict in zip(items, verdicts):
            state = "FAILED" if verdict.met is None else ("met" if verdict.met else "not met")
            explanation = verdict.explanation.replace("\n", " ").strip()
            lines.append(f"[{_points(item.points)} {state}] {item.criterion[:100]}" + (f" -- {explanation[:160]}" if explanation else ""))
        return " | ".join(lines)

    def summary(self) -> dict[str, Any] | None:
        """The model judge's own counts (requests, failures, latency per endpoint), when it keeps any."""
        summary = getattr(self.judge, "summary", None)
        return summary() if callable(summary) and self.judge is not self.rules else None

    def __repr__(self) -> str:
        source = f"rubric_file={self.rubric_file!r}" if self.rubric_file else f"rubric_column={self.rubric_column!r}"
        return f"RubricReward(name={self.name!r}, {source}, judge={self.judge!r}, aggregation={self.aggregation!r})"
