"""A model judge for the math answers the rule-based verifier cannot decide.

``math_accuracy`` with ``judge: {...}`` (the same judge settings as rubric rewards; ``openai`` or
``transformers``) first verifies every row by rule (:mod:`polyreward.verifiers.math`). A verdict is
*undecided* when the rule path could not compare the two answers at all:

    gold_unparseable  the gold answer has no form the verifier can read (sets in words, power towers)
    pred_unparseable  the model's answer does not parse
    too_large         the model's answer is refused as too large to evaluate (a form it does not support)
    timeout, memory   the hard per-item limit of the worker pool killed the comparison
    error: ...        the comparison crashed
    words             a word gold ("Paris", "one half", ``\text{odd}``) the answer does not spell the same way: the
                      rules compare words only as text, so "1/2" for "one half" needs the judge

Only those rows go to the judge with an equivalence-grading prompt (the problem, the reference
answer, the end of the model's response; asked for ``{"explanation", "criteria_met"}``), never a rule
verdict of "equal", "not_equal" or "no_answer", unless ``judge_on: all`` sends every row that has a
gold answer. Rows without a gold answer are never sent.

The judge's verdict gives 1.0 (equivalent) or 0.0; a judge failure (server down, no verdict after
the retries) is NaN with the judge's reason. Each reason starts with the path that decided
(``rule:`` or ``judge:``), the per-row detail ``judge_decided`` is 1.0 (judge) / 0.0 (rule) / NaN
(the judge failed) / None (no gold answer), and :meth:`JudgeFallback.summary` counts rows, judge-decided rows and their share over the
run, with the judge's own per-endpoint counts. This is the hybrid of a symbolic checker and an LLM
grader that verifiers' hybrid math rubric and NeMo-Skills' judge grading use; the routing rule and
the prompt wording are ours (reconstructed).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.locking import RebuildsLockWhenUnpickled
from polyreward.rubrics.grading import parse_single
from polyreward.rubrics.judges import Judge, build_judge, can_ask
from polyreward.schema import completion_text, is_missing, prompt_text
from polyreward.verifiers.verdict import Verdict

UNDECIDED_REASONS = frozenset({"gold_unparseable", "pred_unparseable", "too_large", "timeout", "memory"})
JUDGE_ON = ("undecided", "all")
_PROBLEM_CHARS, _GOLD_CHARS, _RESPONSE_CHARS = 3000, 1000, 3000

EQUIVALENCE_TEMPLATE = """\
You check a student's answer to a math problem against the reference answer. Decide whether the \
student's FINAL answer is mathematically equivalent to the reference answer: the same value, set, \
expression or statement, in any notation (fractions vs decimals to the shown precision, reordered \
terms, equivalent forms). Work shown before the final answer does not count, and an answer that \
hedges between several values is not equivalent.

# Problem
{problem}

# Reference answer
{gold}

# Student response (its end)
{response}

# Answer format
Reply with one JSON object in a ```json block and nothing else:
{{"explanation": "<the student's final answer and why it is or is not equivalent>", "criteria_met": true or false}}
"""


def undecided(verdict: Verdict) -> bool:
    """True when the rule-based verdict could not compare the answers (see the module docstring)."""
    return verdict.reason in UNDECIDED_REASONS or verdict.reason.startswith("error:") or (
        verdict.rule == "words" and verdict.reason == "not_equal")


def equivalence_prompt(problem: str, gold: str, response: str) -> str:
    return EQUIVALENCE_TEMPLATE.format(problem=problem[-_PROBLEM_CHARS:].strip() or "(not given)",
                                       gold=gold[:_GOLD_CHARS].strip(), response=response[-_RESPONSE_CHARS:].strip())


class JudgeFallback(RebuildsLockWhenUnpickled):
    """Routes undecided rows of a math batch to a judge and keeps the run's counts (thread-safe)."""

    def __init__(self, judge: Mapping[str, Any] | Judge, judge_on: str = "undecided") -> None:
        if judge_on not in JUDGE_ON:
            raise ValueError(f"judge_on: {judge_on!r} is not allowed; allowed: {', '.join(JUDGE_ON)}")
        self.judge = build_judge(judge)
        if not can_ask(self.judge):
            raise ValueError(f"judge.type: {self.judge.type_name!r} grades rubric items only; math equivalence needs openai or transformers")
        self.judge_on = judge_on
        self.counts = {"rows": 0, "rule_decided": 0, "judge_decided": 0, "judge_failed": 0}
        self._lock = threading.Lock()

    def routed(self, verdict: Verdict) -> bool:
        if verdict.reason == "no_reference":
            return False
        return self.judge_on == "all" or undecided(verdict)

    def settle(self, verdicts: Sequence[Verdict], prompts: Sequence[Any], completions: Sequence[Any],
               golds: Sequence[Any]) -> tuple[list[float | None], list[str], dict[str, list[float | None]]]:
        """Scores, reasons and the ``judge_decided`` detail of a batch whose rule verdicts are ``verdicts``."""
        rows = [i for i, v in enumerate(verdicts) if self.routed(v)]
        prompts_for = [equivalence_prompt(prompt_text(prompts[i]) if i < len(prompts) and not is_missing(prompts[i]) else "",
                                          str(golds[i]), completion_text(completions[i])) for i in rows]
        answers = dict(zip(rows, self.judge.ask(prompts_for, parse_single))) if rows else {}
        scores: list[float | None] = []
        reasons: list[str] = []
        decided: list[float | None] = []
        for i, verdict in enumerate(verdicts):
            rule = verdict.describe()
            if i not in answers:
                scores.append(verdict.score)
                reasons.append(f"rule: {rule}")
                decided.append(None if verdict.reason == "no_reference" else 0.0)
                continue
            answer = answers[i]
            explanation = answer.explanation.replace("\n", " ").strip()[:200]
            if answer.met is None:  # neither path decided
                scores.append(math.nan)
                reasons.append(f"judge failed: {explanation} | rule: {rule}")
                decided.append(math.nan)
            else:
                scores.append(float(answer.met))
                reasons.append(f"judge: {'equivalent' if answer.met else 'not equivalent'} -- {explanation} | rule: {rule}")
                decided.append(1.0)
        with self._lock:
            self.counts["rows"] += sum(d is not None for d in decided)
            self.counts["judge_decided"] += sum(answers[i].met is not None for i in answers)
            self.counts["judge_failed"] += sum(answers[i].met is None for i in answers)
            self.counts["rule_decided"] += sum(d == 0.0 for d in decided)
        return scores, reasons, {"judge_decided": decided}

    def summary(self) -> dict[str, Any]:
        """Rows with a gold answer, how many the rule path and the judge decided, the judge-decided share,
        and the judge's own counts (per endpoint for a served judge)."""
        with self._lock:
            out: dict[str, Any] = dict(self.counts)
        out["judge_decided_share"] = out["judge_decided"] / out["rows"] if out["rows"] else None
        if hasattr(self.judge, "summary"):
            out["judge"] = self.judge.summary()
        return out
