"""``math_accuracy``: 1.0 when the completion's final answer equals the gold answer, else 0.0.

    r = 1[ verify(gold=answer_column, pred=final answer of completion) ]     None if the gold is unusable

Equivalence is Math-Verify 0.9.0 (sympy) hardened as described in :mod:`polyreward.verifiers.math`:
cheap extraction and a pure-Python numeric fast path in the main process; everything that needs
sympy runs in the config's :class:`~polyreward.engine.Engine` (worker processes with a hard per-item timeout), and
identical (gold, answer) pairs inside a batch are verified once. A killed item scores 0.0 (or NaN
with ``on_timeout: nan``) with reason ``timeout``. Same contract as TRL's ``accuracy_reward``
(gold unparseable -> ``None``), which this replaces. Tag: exact (Math-Verify semantics) with
documented fixes for Math-Verify issues #14, #60 and #65.

A gold cell holding a list (``["1/2", "0.5"]``) lists accepted alternatives: ``match: any`` (the default) scores
the best, ``match: all`` the worst; the reason names the deciding gold and the details hold each gold's score
(``gold_scores``) and the deciding one's index (``gold_index``) — :mod:`polyreward.verifiers.golds`.

Only the answer the completion commits to counts (:mod:`polyreward.verifiers.commitment`): a negated, hedged or
retracted answer, an empty or cut-off box and a completion cut off before its final statement are no answer.
``work_avoidance: true`` (the default) gives no credit to an answer that skips the work -- the prompt's own
expression, an expression or an unsimplified fraction where the gold is a number
(:mod:`polyreward.verifiers.work_avoidance`); ``false`` is plain Math-Verify equivalence. ``final_bang:
punctuation`` (default) reads "The answer is 4!" as 4, as Math-Verify does; ``factorial`` reads it as 4!.

``cache: verdicts.sqlite`` keeps the verdicts that needed the pool in a sqlite file keyed by the
normalised gold and answer and the verifier's settings, so later training steps and reruns of a file
skip sympy for pairs seen before (:mod:`polyreward.verifiers.verdict_cache`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.reward import Reward, RewardOutput, column_name, one_of
from polyreward.verifiers.answer_extraction import FINAL_BANGS
from polyreward.verifiers.golds import MATCHES, alternatives, deciding, explain
from polyreward.verifiers.math import WORKER_PRELOAD, verdict_cache, verify_batch, verify_each_gold
from polyreward.verifiers.verdict import Verdict

ON_TIMEOUT = ("zero", "nan")


class MathAccuracy(Reward):
    """Math answer correctness against ``answer_column`` (Math-Verify with a hard-timeout worker pool).

    Args:
        answer_column: column holding the gold answer
        timeout: seconds a single symbolic check may take in the worker pool before it is stopped; null: the engine's
            (engine.timeout in the config, 5 s by default)
        on_timeout: score of a stopped check: zero, or nan (not scored); either way it counts as failed in the
            summary
        judge: an OpenAI-compatible model judge ({base_url, model, ...}) consulted for pairs the rules cannot
            decide; null: none
        judge_on: which rows go to the judge: undecided (the rules could not decide) or all
        cache: sqlite file that keeps verdicts across runs (keyed by gold, prediction and settings); null: none
        match: several golds in one cell (a list): any scores the best alternative, all the worst
        work_avoidance: no credit for an answer that skips the work (the prompt's own expression, an unsimplified
            fraction for a number)
        final_bang: 'The answer is 4!' reads as 4 (punctuation, as Math-Verify) or as 4 factorial (factorial)
    """

    type_name = "math_accuracy"
    exactness = "exact"
    description = "final answer == gold (Math-Verify + numeric fast path, hard-timeout worker pool)"
    score_range = (0.0, 1.0)
    probe_strategies = ("hedge", "candidate_list", "negation", "retraction", "empty_box", "truncation", "prompt_copy")  # polyreward.probe.strategies
    probe_genuine = "boxed"
    preload = WORKER_PRELOAD  # its verifier, imported once in the engine's forkserver

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        answer_column: str = "answer",
        engine: Any = None,
        timeout: float | None = None,
        on_timeout: str = "zero",
        judge: Mapping[str, Any] | None = None,
        judge_on: str = "undecided",
        cache: str | None = None,
        match: str = "any",
        work_avoidance: bool = True,
        final_bang: str = "punctuation",
    ) -> None:
        super().__init__(name, weight)
        column_name("answer_column", answer_column)
        one_of("on_timeout", on_timeout, ON_TIMEOUT)
        from polyreward.engine import Engine  # here: importing the rewards starts no multiprocessing machinery

        # the one engine its checks run in (the config's, or a given pool); its own timeout is that engine's budget
        self.engine = Engine.of(engine) if timeout is None else Engine.of(engine).with_timeout(timeout)
        self.engine.add_preload(self.preload)
        self.answer_column = answer_column
        self.on_timeout = on_timeout
        self.match = one_of("match", match, MATCHES)
        if not isinstance(work_avoidance, bool):
            raise ValueError(f"work_avoidance must be true or false, got {work_avoidance!r}")
        self.work_avoidance = work_avoidance
        self.final_bang = one_of("final_bang", final_bang, FINAL_BANGS)
        if cache is not None and (not isinstance(cache, str) or not cache.strip()):
            raise ValueError(f"cache must be the path of a sqlite file, got {cache!r}")
        self.cache = verdict_cache(cache) if cache is not None else None
        # judge fallback (polyreward.rewards.math_judge): only rows the rule path leaves undecided go to a model judge
        if judge is not None:  # (imported here: the judge machinery is ~10 ms of every start-up that has no judge)
            from polyreward.rewards.math_judge import JudgeFallback

            self.judge_fallback = JudgeFallback(judge, judge_on)
        else:
            self.judge_fallback = None

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    @property
    def timeout(self) -> float:
        """The budget of one symbolic check: its engine's."""
        return self.engine.timeout

    def evaluate(self, prompts: Sequence[Any], completions: Sequence[Any], **columns: Sequence[Any]) -> RewardOutput:
        if self.answer_column not in columns:
            raise KeyError(f"reward {self.name!r} reads column {self.answer_column!r} that the batch does not have; available: {sorted(columns)}")
        golds = columns[self.answer_column]
        settings = {"pool": self.engine, "on_timeout": self.on_timeout, "cache": self.cache,
                    "work_avoidance": self.work_avoidance, "final_bang": self.final_bang,
                    "prompts": list(prompts) if prompts is not None and len(prompts) == len(completions) else None}
        lists = [alternatives(gold) for gold in golds]
        if all(options is None for options in lists):
            verdicts = verify_batch(completions, golds, **settings)
            reasons = [v.describe() for v in verdicts]
            details: dict[str, list[Any]] = {}
        else:
            verdicts, reasons, details = self._decide(verify_each_gold(completions, golds, **settings), lists)
        if self.judge_fallback is not None:
            return RewardOutput(*self.judge_fallback.settle(verdicts, prompts, completions, golds))
        return RewardOutput([v.score for v in verdicts], reasons, details)

    def _decide(self, each: list[list[Verdict]], lists: list[list[Any] | None]) -> tuple[list[Verdict], list[str], dict[str, list[Any]]]:
        """The deciding verdict of each row under ``match``, its reason naming the gold, and per-gold details."""
        verdicts, reasons = [], []
        details: dict[str, list[Any]] = {"gold_scores": [], "gold_index": []}
        for row_verdicts, options in zip(each, lists):
            if options is None:  # a single gold in a batch that also has lists
                verdict = row_verdicts[0]
                verdicts.append(verdict)
                reasons.append(verdict.describe())
                details["gold_scores"].append(None)
                details["gold_index"].append(None)
                continue
            scores = [v.score for v in row_verdicts]
            index = deciding(scores, self.match)
            verdict = row_verdicts[index] if index is not None else Verdict(None, "no_reference")
            verdicts.append(verdict)
            reasons.append(explain(index, options, verdict.score, verdict.describe(), self.match) if options else
                           f"no usable gold in the list in column {self.answer_column!r}")
            details["gold_scores"].append(scores)
            details["gold_index"].append(index)
        return verdicts, reasons, details

    def summary(self) -> dict[str, Any] | None:
        """With a judge: rows, rule- and judge-decided counts, the judge-decided share, the judge's counts."""
        return self.judge_fallback.summary() if self.judge_fallback is not None else None
