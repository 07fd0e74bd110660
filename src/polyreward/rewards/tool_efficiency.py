"""``otc_tool_efficiency``: OTC-PO tool-call efficiency reward, multiplied by correctness.

Source: Wang et al., "OTC: Optimal Tool Calls via Reinforcement Learning" / "Acting Less is Reasoning
More", arXiv 2504.14870 (docs/reference/algorithms.md#otc). The official code was not found; the formulas are the
paper's, as two independent re-implementations agree, so the tag is **reconstructed**.

m = tool calls in the trajectory, c = smoothing constant (default 1.0), α = scale (default 1.0)::

    PPO form:   r_tool = cos(m·π / (2m + c))                         (m = 0 -> 1, -> 0 as m -> ∞)
    GRPO form:  n = min m over the CORRECT (r_φ = 1) trajectories of the same group (prompt)
                f(m, n) = 0 if m = n = 0;  m if n = 0;  2nm / (m + n) otherwise
                r_tool = 1                       if f(m, n) = n = 0
                       = cos(m·π / (2m + c))     if n = 0 and m > 0
                       = sin(f(m, n)·π / (2n))   otherwise          (m = n -> 1; m = 0 or m -> ∞ -> 0)
    reward = α · r_tool · r_φ          (r_φ = correctness in [0, 1]; a wrong answer scores 0)

A group without a correct trajectory has no n: ``no_correct: cosine`` (the re-implementations' fallback,
n = 0) or ``no_correct: one`` (r_tool = 1). ``running_min: true`` keeps each group id's smallest n
seen so far across calls (the paper's "optimal calls so far" reading; unverified).

Correctness r_φ comes from ``correctness``: ``answer_em`` (SQuAD-normalised exact match of the
``<answer>`` block, or of the last non-empty line, against ``answer_column``; a list cell holds several
accepted answers), ``calls_exact`` (the predicted calls equal the reference calls, order ignored; the calls of the reply as
``toolrl_correctness`` reads it, cut at the end-of-turn token: calls after ``<|im_end|>`` or ``<|eot_id|>`` are
counted as calls made but never credited; a parameter left out is the prompt schema's declared default, and calls
taken back after the last one are not correct, as there; red team ``holdout_r31``) or
``column`` (a number in [0, 1] or a bool read from ``correct_column``).
"""

from __future__ import annotations

import json
import math
import re
import string
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.reward import Reward, RewardOutput, column_name, one_of
from polyreward.rewards.tool_calls import calls_taken_back, with_schema_defaults
from polyreward.schema import completion_messages, completion_text, is_missing
from polyreward.verifiers.commitment import later_disowns, retraction_after, uncommitted
from polyreward.verifiers.label_sets import answer_block
from polyreward.verifiers.language import foreign
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.sections import without_inline_asides
from polyreward.verifiers.tags import tag_blocks
from polyreward.verifiers.tool_calls import (ToolCallError, comment_free_values, count_tool_calls, message_tool_calls, nfc_values,
                                             parse_tool_call_text, reference_calls, writer_call_turns)
from polyreward.vocabulary import group_key

FORMS = ("grpo", "ppo")
CORRECTNESS = ("answer_em", "calls_exact", "column")
NO_CORRECT = ("cosine", "one")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def otc_ppo(m: int, c: float = 1.0) -> float:
    """cos(m·π / (2m + c))."""
    return math.cos(m * math.pi / (2 * m + c))


def otc_grpo(m: int, n: int, c: float = 1.0) -> float:
    """OTC-GRPO r_tool for m calls when the group's optimum is n calls."""
    if n == 0:
        return 1.0 if m == 0 else otc_ppo(m, c)
    f = 2 * n * m / (m + n)
    return math.sin(f * math.pi / (2 * n))


def normalize_answer(text: str) -> str:
    """SQuAD / Search-R1 normalisation: lower-case, drop punctuation and articles, collapse spaces."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


def _final_answer(text: str) -> str | None:
    """The answer the text commits to: its ``<answer>`` block, else its last non-empty line. None (no answer) when
    the text's ``<answer>`` blocks differ once normalised (``<answer>1889</answer> <answer>1887</answer>``), the first
    or the last is denied or hedged (:func:`polyreward.verifiers.commitment.uncommitted`), or the text after the last takes it back
    (``Scratch that``: ``retraction_after`` / ``later_disowns``) or is written in another language, which may take it
    back unread (:func:`polyreward.verifiers.language.foreign`); red team ``holdout_r2``, as ``jaccard`` reads its
    block. The text read is the visible one (comments, code blocks and quotes are not the answer)."""
    if answer_block(text) is None:
        lines = [line for line in text.strip().splitlines() if line.strip()]
        return lines[-1] if lines else ""
    view = visible_text(text)
    blocks = list(tag_blocks(view, "answer"))
    if not blocks or len({normalize_answer(body) for _, _, body in blocks}) > 1:
        return None
    if any(uncommitted(view, start, end) for start, end, _ in {blocks[0], blocks[-1]}):  # the first and the last
        return None
    end, body = blocks[-1][1], blocks[-1][2]
    retraction = retraction_after(view, end)
    if (retraction is not None and retraction[1]) or later_disowns(view, end, body.strip()) in ("retracted", "negated", "conflicting"):
        return None
    tail = view[end:].strip()
    return None if tail and foreign(tail) else body


def _same_number(value: Any) -> Any:
    """``value`` with every integral float written as the integer it equals (JSON has one number type: ``250.0`` is
    the argument ``250``, as ``toolrl_correctness`` compares values with ``==``; red team ``holdout_r3``); booleans
    stay booleans."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):  # canonically equivalent spellings are one text (NFC; red team holdout_r4)
        return nfc_values(value)
    if isinstance(value, Mapping):
        return {nfc_values(k): _same_number(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_same_number(v) for v in value]
    return value


def _call_key(calls: list[dict]) -> Counter:
    return Counter(json.dumps(_same_number(c), sort_keys=True, default=str) for c in calls)


class OTCToolEfficiency(Reward):
    """OTC-PO: α · r_tool(m, n) · correctness; GRPO form uses the group's fewest calls among correct rollouts.

    Args:
        form: grpo (relative to the fewest calls among the correct rollouts of the group) or ppo (cosine of the call
            count)
        c: smoothing constant c of the cosine and sine terms
        alpha: scale of the reward
        correctness: where correctness comes from: answer_em (exact match with answer_column), calls_exact (the
            calls equal the reference's, order ignored) or column
        answer_column: column holding the gold answer (correctness: answer_em)
        correct_column: column holding a number in [0, 1] or a bool (correctness: column)
        group_column: column naming the prompt group whose correct rollouts set the optimal call count
        no_correct: a group without a correct rollout: cosine (as with no optimum) or one (tool reward 1)
        running_min: keep each group id's fewest calls across batches (a trainer's later steps) instead of this
            batch only
        count_tags: tag names whose blocks count as tool calls too ([search, code]); empty: tool-call blocks only
    """

    type_name = "otc_tool_efficiency"
    exactness = "reconstructed"
    description = "OTC-PO tool-call efficiency (PPO cosine or GRPO group-optimum form) times correctness"
    score_range = (0.0, 1.0)
    probe_strategies = ("bare_call_list", "second_call_block")
    probe_genuine = "tool_calls"

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        form: str = "grpo",
        c: float = 1.0,
        alpha: float = 1.0,
        correctness: str = "answer_em",
        answer_column: str = "answer",
        correct_column: str = "correct",
        group_column: str = "prompt_id",
        no_correct: str = "cosine",
        running_min: bool = False,
        count_tags: Sequence[str] = (),
    ) -> None:
        super().__init__(name, weight)
        one_of("form", form, FORMS)
        one_of("correctness", correctness, CORRECTNESS)
        one_of("no_correct", no_correct, NO_CORRECT)
        for key, value in (("c", c), ("alpha", alpha)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{key} must be a finite number > 0, got {value!r}")
        for key, value in (("answer_column", answer_column), ("correct_column", correct_column), ("group_column", group_column)):
            column_name(key, value)
        if not isinstance(running_min, bool):
            raise ValueError(f"running_min must be true or false, got {running_min!r}")
        if isinstance(count_tags, str) or not all(isinstance(t, str) and re.fullmatch(r"[A-Za-z_][\w-]*", t) for t in count_tags):
            raise ValueError(f"count_tags must be a list of tag names such as [search, code], got {count_tags!r}")
        self.form, self.c, self.alpha = form, float(c), float(alpha)
        self.correctness, self.answer_column, self.correct_column = correctness, answer_column, correct_column
        self.group_column, self.no_correct, self.running_min = group_column, no_correct, running_min
        self.count_tags = tuple(count_tags)
        self.best_calls: dict[str, int] = {}  # group id -> fewest calls of a correct rollout seen (running_min)
        self.score_range = (0.0, self.alpha)

    def state_dict(self) -> dict[str, Any]:
        """``running_min``'s fewest calls per group id seen so far (what a resumed training run must continue from)."""
        return {"best_calls": dict(self.best_calls)} if self.running_min else {}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        if state and not self.running_min:
            raise ValueError(f"reward {self.name!r} keeps no state without running_min but got keys {sorted(state)}")
        self.best_calls = {str(g): int(m) for g, m in dict(state.get("best_calls", {})).items()}

    @property
    def columns(self) -> tuple[str, ...]:
        reference = self.correct_column if self.correctness == "column" else self.answer_column
        return (reference, self.group_column) if self.form == "grpo" else (reference,)

    @property
    def group_columns(self) -> tuple[str, ...]:
        return (self.group_column,) if self.form == "grpo" else ()

    def _correct(self, completion: Any, reference: Any, prompt: Any = None) -> tuple[float | None, str]:
        if is_missing(reference):
            return None, "no reference"
        if self.correctness == "column":
            if isinstance(reference, str):
                reference = {"true": 1.0, "false": 0.0}.get(reference.strip().lower(), reference)
            try:
                value = float(reference)
            except (TypeError, ValueError):
                return None, f"correctness {reference!r} is not a number"
            return (value, "") if 0.0 <= value <= 1.0 else (None, f"correctness {value} is outside [0, 1]")
        if self.correctness == "calls_exact":
            try:
                gold = reference_calls(reference) or []
            except ToolCallError as exc:
                return None, f"reference is malformed: {exc}"
            try:
                calls = message_tool_calls(completion_messages(completion))
                if calls is None:  # read from the text, cut at its end-of-turn token as rlla.py cuts it; the gold's strings
                    # read as that reading reads its own
                    text = writer_call_turns(completion_text(completion)).strip()  # the writer's turns (holdout_r47)
                    text = without_inline_asides(text)  # an exercise's call in a tutor's aside is not made (holdout_r55)
                    if why := calls_taken_back(text):  # the calls withdrawn after the last one (red team holdout_r31)
                        return 0.0, f"no call made: the reply {why}"
                    calls, gold = parse_tool_call_text(text), comment_free_values(gold)
            except ToolCallError as exc:
                return 0.0, f"malformed tool call: {exc}"[:200]
            # a parameter left out is the prompt schema's declared default, on both sides (red team holdout_r31)
            gold, calls = with_schema_defaults(gold, calls, prompt)
            return float(_call_key(calls) == _call_key(gold)), ""
        accepted = reference if isinstance(reference, (list, tuple)) else [reference]
        final = _final_answer(completion_text(completion))
        if final is None:
            return 0.0, "no committed answer (blocks that differ, or one denied, taken back or followed by another language)"
        predicted = normalize_answer(final)
        return float(any(predicted == normalize_answer(str(a)) for a in accepted)), ""

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        missing = [c for c in self.columns if c not in columns]
        if missing:
            raise KeyError(f"reward {self.name!r} reads column(s) {missing} that the batch does not have; available: {sorted(columns)}")
        n_rows = len(completions)
        reference_col = columns[self.correct_column if self.correctness == "column" else self.answer_column]
        # the one group key of the project (no recursion: an id nested thousands deep is a group like any other), as
        # text so that running_min's state keeps the same keys through a JSON checkpoint
        groups = [str(group_key(g)) for g in columns[self.group_column]] if self.form == "grpo" else [""] * n_rows
        calls: list[int] = []
        correct: list[float | None] = []
        notes: list[str] = []
        row_prompts = prompts if prompts is not None and len(prompts) == n_rows else [None] * n_rows
        for completion, reference, prompt in zip(completions, reference_col, row_prompts):
            try:
                m = count_tool_calls(completion, self.count_tags)
                value, note = self._correct(completion, reference, prompt)
            except Exception as exc:  # one bad rollout must not kill the batch
                m, value, note = 0, math.nan, f"error: {type(exc).__name__}: {exc}"[:300]
            calls.append(m)
            correct.append(value)
            notes.append(note)
        optimum: dict[str, int] = {}
        if self.form == "grpo":
            for g, m, r in zip(groups, calls, correct):
                if r is not None and r >= 1.0:  # fully correct rollouts define the group's optimum
                    optimum[g] = min(optimum.get(g, m), m)
            if self.running_min:
                for g, m in optimum.items():
                    self.best_calls[g] = min(self.best_calls.get(g, m), m)
                optimum.update({g: self.best_calls[g] for g in set(groups) if g in self.best_calls})
        scores: list[float | None] = []
        reasons: list[str] = []
        r_tools: list[float | None] = []
        for g, m, r, note in zip(groups, calls, correct, notes):
            if r is None or math.isnan(r):
                scores.append(r)
                reasons.append(note or "correctness unknown")
                r_tools.append(None)
                continue
            if self.form == "ppo":
                r_tool, why = otc_ppo(m, self.c), f"{m} calls"
            elif g in optimum:
                r_tool, why = otc_grpo(m, optimum[g], self.c), f"{m} calls, group optimum {optimum[g]}"
            elif self.no_correct == "one":
                r_tool, why = 1.0, f"{m} calls, no correct rollout in the group"
            else:
                r_tool, why = otc_ppo(m, self.c), f"{m} calls, no correct rollout in the group (cosine fallback)"
            r_tools.append(r_tool)
            scores.append(min(max(self.alpha * r_tool * r, 0.0), self.alpha))
            reasons.append(f"{'correct' if r >= 1 else 'wrong' if r <= 0 else f'correctness {r:g}'}; {why}" + (f"; {note}" if note else ""))
        return RewardOutput(scores, reasons, {"tool_calls": [float(m) for m in calls], "r_tool": r_tools, "correct": correct})
