"""``choice_accuracy``: 1.0 when the completion picks the gold option (A–E letter, option text, or
PubMedQA yes/no/maybe), else 0.0; ``None`` when the gold cannot be read.

    r = 1[ letter_or_label(completion) == letter_or_label(gold) ]

A gold cell holding a list (``["B", "D"]``) lists accepted alternatives: ``match: any`` (the default) scores the
best of them, ``match: all`` the worst; the reason names the deciding gold and the details hold each gold's
score (``gold_scores``) and the deciding one's index (``gold_index``) — :mod:`polyreward.verifiers.golds`.

Extraction tiers and reference formats: :mod:`polyreward.verifiers.choice` (reconstructed from
MedQA/PubMedQA conventions; docs/reference/libraries.md#math-verify-issues notes Math-Verify misses "The answer is (C).").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.schema import completion_text, is_missing, prompt_text
from polyreward.verifiers.choice import verify_choice
from polyreward.verifiers.options import options_in_prompt
from polyreward.verifiers.script_letters import in_latin_letters, option_alphabet
from polyreward.verifiers.golds import MATCHES, alternatives, score_golds


class ChoiceAccuracy(RolloutReward):
    """Multiple-choice correctness against ``answer_column`` (options optional in ``options_column``).

    Args:
        answer_column: column holding the gold answer (a letter, the option text, or yes/no/maybe)
        options_column: column holding the options ({letter: text}, its JSON, a list or 'A. ...' lines), so an
            answer naming the option text counts
        options_from_prompt: with no options column (or an empty cell), read the options from the prompt's own
            option lines (a run ``A. text``, ``B. text`` ... in order: :func:`polyreward.verifiers.options.options_in_prompt`),
            so "The answer is Mercury." names option C; false: letters only
        letters: the option letters a completion may pick, upper case, in order
        match: several golds in one cell (a list): any scores the best alternative, all the worst
    """

    type_name = "choice_accuracy"
    exactness = "reconstructed"
    description = "picked option == gold (A-E letter, option text, MedQA 'C. text', PubMedQA yes/no/maybe)"
    score_range = (0.0, 1.0)
    probe_strategies = ("hedge", "candidate_list", "negation", "retraction", "truncation")  # polyreward.probe.strategies
    probe_genuine = "boxed"

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        answer_column: str = "answer",
        options_column: str | None = None,
        options_from_prompt: bool = True,
        letters: str = "ABCDE",
        match: str = "any",
    ) -> None:
        super().__init__(name, weight)
        column_name("answer_column", answer_column)
        if options_column is not None and (not isinstance(options_column, str) or not options_column):
            raise ValueError(f"options_column must be a column name or null, got {options_column!r}")
        if not isinstance(letters, str) or not letters.isalpha() or not letters.isupper() or len(set(letters)) != len(letters) or len(letters) < 2:
            raise ValueError(f"letters must be distinct upper-case letters such as 'ABCDE', got {letters!r}")
        self.answer_column = answer_column
        if not isinstance(options_from_prompt, bool):
            raise ValueError(f"options_from_prompt must be true or false, got {options_from_prompt!r}")
        self.options_column = options_column
        self.options_from_prompt = options_from_prompt
        self.letters = letters
        self.match = one_of("match", match, MATCHES)

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,) + ((self.options_column,) if self.options_column else ())

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        options = row.get(self.options_column) if self.options_column else None
        prompt = prompt_text(row.get("prompt")) if not is_missing(row.get("prompt")) else ""
        if (alphabet := option_alphabet(prompt)) is not None:  # "А) ... Б) ... В) ...": В names the third option
            prompt, completion = in_latin_letters(prompt, alphabet), in_latin_letters(completion_text(completion), alphabet)
        if self.options_from_prompt and is_missing(options):
            options = options_in_prompt(prompt, self.letters) or None

        def check(gold: Any) -> tuple[float | None, str, dict[str, Any]]:
            verdict = verify_choice(pred=completion, ref=gold, letters=self.letters, options=options, prompt=prompt)
            return verdict.score, verdict.describe(), {}

        golds = alternatives(row.get(self.answer_column))
        if golds is None:
            score, reason, _ = check(row.get(self.answer_column))
            return Scored(score, reason)
        if not golds:
            return Scored(None, f"no usable gold in the list in column {self.answer_column!r}")
        return Scored(*score_golds(golds, check, self.match))
