"""``polyreward probe``: red-team a reward config with hacks built from the user's own rows.

For each group of the rollout file (its first row; ``limit`` groups) the probe takes a genuine answer: built from
the row's reference (:data:`polyreward.probe.strategies.GENUINE`, by the first reward of the config that declares
a builder), else the group's best-scoring real completion. Then three sources of hacks, all scored through the
config's scorer (:meth:`polyreward.pipeline.Scorer.score`, the one scoring path; a reward that fails on a hack
scores it NaN with a reason, whatever the config's ``on_reward_error``, so a probe never stops on one):

1. **The mutation search** (:mod:`polyreward.probe.search`): compositions of reward-agnostic mutations of the
   genuine completion, ``budget`` candidates per row, seeded; a flawed candidate exploits a reward that charges
   the same flaw shown plainly yet pays the candidate at least the genuine answer's score.
2. **The file's own completions** (:mod:`polyreward.probe.suspicious`): a completion scoring at least the
   genuine answer on a reward that checks the answer, while a second, reward-independent reading says it does
   not commit to that answer.
3. **The named strategies** each reward type declares (``probe_strategies``): a hack *exploits* a reward on a row
   when it scores at least the genuine answer there (more than, for a ``strict`` strategy), counted over the rows
   where both scores are finite and the genuine answer earns more than the reward's minimum; the weighted total is
   checked the same way.

Each candidate is scored as a group of its own (with a copy of the genuine answer when a reward of the config is
group-level, so that such a reward compares the two alone), with the row's columns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyreward.probe.mutations import FLAWS
from polyreward.probe.search import TOTAL, FamilyResult, run_search
from polyreward.probe.site import RowContext, locate_site, row_context
from polyreward.probe.strategies import GENUINE, STRATEGIES, Hack, ProbeCase, strategies_of
from polyreward.probe.suspicious import CHECKS, flag, suspicious_example
from polyreward.schema import completion_text
from polyreward.vocabulary import weighted_total

EXAMPLE_CHARS = 240
SUSPICIOUS_CHARS = 1_200
DEFAULT_PAD_WORDS = 512
MAX_PAD_WORDS = 16_384
COMPLETION_COLUMNS = ("completion_ids", "completion_mask")  # describe the file's completion, not a probe candidate


@dataclass
class StrategyResult:
    """How one strategy fared against one reward (or the weighted total)."""

    reward: str
    strategy: str
    description: str
    rows: int = 0
    exploited: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.exploited / self.rows if self.rows else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"reward": self.reward, "strategy": self.strategy, "description": self.description, "rows": self.rows,
                "exploited": self.exploited, "share": self.share, "examples": self.examples}


@dataclass
class ProbeReport:
    rows_probed: int
    genuine_source: str
    results: list[StrategyResult]
    notes: list[str] = field(default_factory=list)
    search: list[FamilyResult] = field(default_factory=list)
    suspicious: list[dict[str, Any]] = field(default_factory=list)
    budget: int = 0
    seed: int = 0
    candidates: int = 0
    charged: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def exploits(self) -> list[StrategyResult]:
        """Named strategies that exploited a reward."""
        return [r for r in self.results if r.exploited]

    @property
    def search_exploits(self) -> list[FamilyResult]:
        return [r for r in self.search if r.exploited]

    @property
    def suspicious_flagged(self) -> list[dict[str, Any]]:
        return [s for s in self.suspicious if s["flagged"]]

    @property
    def found(self) -> int:
        """Everything that fails the probe: exploited strategies and families, rewards with suspicious scores."""
        return len(self.exploits) + len(self.search_exploits) + len(self.suspicious_flagged)

    def as_dict(self) -> dict[str, Any]:
        return {"rows_probed": self.rows_probed, "genuine": self.genuine_source, "budget": self.budget, "seed": self.seed,
                "candidates": self.candidates, "exploits": self.found,
                "search": [r.as_dict() for r in self.search], "charged": self.charged,
                "suspicious": self.suspicious, "results": [r.as_dict() for r in self.results], "notes": self.notes}


def first_rows_of_groups(records: Iterable[Mapping[str, Any]], group_column: str, limit: int) -> list[dict[str, Any]]:
    """The first row of each group (rows without a group id are groups of their own), at most ``limit`` of them,
    with every real completion of the group kept under ``_probe_completions``."""
    from polyreward.vocabulary import group_key

    chosen: dict[Any, dict[str, Any]] = {}
    for i, record in enumerate(records):
        key = group_key(record.get(group_column))  # the project's one group key (no recursion)
        key = ("row", i) if key is None else key  # a row without a group id is a group of its own
        if key not in chosen:
            if len(chosen) >= limit:
                continue
            chosen[key] = {**record, "_probe_completions": []}
        chosen[key]["_probe_completions"].append(record.get("completion"))
    return list(chosen.values())


def _genuine_builder(rewards: Sequence[Any]) -> tuple[Any, str] | tuple[None, str]:
    for reward in rewards:
        name = getattr(reward, "probe_genuine", None)
        if name:
            if name not in GENUINE:
                raise ValueError(f"reward type {type(reward).__name__} names unknown probe_genuine {name!r}")
            return reward, name
    return None, "best real completion of the group (no reward of the config builds one from the reference)"


def run_probe(config: Any, records: Sequence[Mapping[str, Any]], *, limit: int = 100, workers: int | None = None,
              examples: int = 2, budget: int = 64, seed: int = 0, named: bool = True) -> ProbeReport:
    """Probe ``config``'s rewards with hacks built from ``records`` (module docstring). ``budget`` candidates per
    row for the search (0: no search), ``seed`` for its draws, ``named=False`` leaves the named strategies out."""
    scorer = config.build_scorer(workers).with_policy("nan")  # a hack that breaks a reward is NaN, never a stop
    reward_set = scorer.rewards
    rewards = list(reward_set)
    columns = scorer.columns
    keys: dict[str, None] = {}
    for record in records:
        keys.update(dict.fromkeys(record))
    reward_set.check_columns(keys)  # a column no row has is a MissingColumnError naming the reward, before any scoring
    rows = first_rows_of_groups(records, columns.group, limit)
    weights = np.asarray(reward_set.weights, dtype=np.float64)
    probe = _Scoring(rows, scorer, weights)
    builder_reward, source = _genuine_builder(rewards)
    notes: list[str] = []
    file_scores = probe.file_completions()
    genuine = _genuines(rows, builder_reward, source, columns, notes, file_scores)
    probe.set_genuines(genuine)
    report = ProbeReport(len(rows), source, [], notes, budget=budget, seed=seed)
    judged = [bool(np.isfinite(row_scores).any()) for row_scores in probe.genuine_scores]
    contexts = _contexts(rows, genuine, columns, rewards, judged)
    if any(c is not None for c in contexts):
        outcome = run_search(contexts, reward_set.names, weights, probe.candidates, budget=budget, seed=seed, examples=examples)
        report.search, report.charged, report.candidates = outcome.results, outcome.charged, sum(outcome.tried_per_row)
        report.suspicious = _suspicious(rows, contexts, file_scores, probe, outcome.charged_rows, reward_set.names, examples)
    if named:
        report.results = _named_strategies(rows, genuine, scorer, weights, examples, notes)
    return report


class _Scoring:
    """Scores texts as rows of the probed groups through the config's scorer (the one scoring path)."""

    def __init__(self, rows, scorer, weights) -> None:
        self.rows, self.scorer, self.weights = rows, scorer, weights
        self.columns, self.rewards = scorer.columns, list(scorer.rewards)
        self.paired = bool(scorer.rewards.group_columns)  # a group-level reward compares each candidate with the genuine alone
        self.genuine: list[str | None] = []
        self.genuine_scores = np.zeros((0, len(self.rewards)))
        self.genuine_totals = np.zeros(0)

    def _score(self, records: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
        if not records:
            return np.zeros((0, len(self.rewards))), np.zeros(0)
        scored = self.scorer.score(self.scorer.batch(records), combine=False)
        return scored.scores, weighted_total(scored.scores, self.weights)

    def file_completions(self) -> list[list[tuple[str, np.ndarray, float]]]:
        """Each probed group's real completions with their scores, scored together as the group they are."""
        records, owners = [], []
        for i, row in enumerate(self.rows):
            for completion in row["_probe_completions"]:
                try:
                    text = completion_text(completion)
                except (TypeError, ValueError):
                    continue
                records.append(_pair_record(row, text, f"probe-file-{i}", self.columns, self.rewards))
                owners.append((i, text))
        matrix, total = self._score(records)
        out: list[list[tuple[str, np.ndarray, float]]] = [[] for _ in self.rows]
        for j, (i, text) in enumerate(owners):
            out[i].append((text, matrix[j], float(total[j])))
        return out

    def set_genuines(self, genuine: list[str | None]) -> None:
        self.genuine = genuine
        present = [i for i, g in enumerate(genuine) if g is not None]
        matrix, total = self._score([_pair_record(self.rows[i], genuine[i], f"probe-genuine-{i}", self.columns, self.rewards) for i in present])
        self.genuine_scores = np.full((len(genuine), len(self.rewards)), np.nan)
        self.genuine_totals = np.full(len(genuine), np.nan)
        self.genuine_scores[present], self.genuine_totals[present] = matrix, total

    def candidates(self, items: Sequence[tuple[int, str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(candidate scores, totals, genuine scores, totals) for (row, text) items, each a group of its own."""
        records = []
        for j, (i, text) in enumerate(items):
            if self.paired:
                records.append(_pair_record(self.rows[i], self.genuine[i], f"probe-search-{j}", self.columns, self.rewards))
            records.append(_pair_record(self.rows[i], text, f"probe-search-{j}", self.columns, self.rewards))
        matrix, total = self._score(records)
        if self.paired:
            return matrix[1::2], total[1::2], matrix[0::2], total[0::2]
        index = [i for i, _ in items]
        return matrix, total, self.genuine_scores[index], self.genuine_totals[index]


def _contexts(rows, genuine, columns, rewards, judged=None) -> list[RowContext | None]:
    """Each row's mutation context: its genuine answer, the answers of the other rows, the padding size.
    ``judged[i]`` False: no reward scores row i's genuine answer (a blank or junk reference, skipped as NaN), so
    its answer is no "different answer" for the other rows (a junk fragment appended to a genuine report plants
    no flaw)."""
    limits = [getattr(r, "max_completion_len", 0) for r in rewards]
    limits = [int(n) for n in limits if isinstance(n, int) and not isinstance(n, bool) and 0 < n]
    pad_words = min(MAX_PAD_WORDS, max(limits) + 1) if limits else DEFAULT_PAD_WORDS
    sites = [None if g is None else locate_site(g) for g in genuine]
    values = [None if s is None or (judged is not None and not judged[i]) else s.value for i, s in enumerate(sites)]
    out: list[RowContext | None] = []
    for i, (row, text) in enumerate(zip(rows, genuine)):
        if text is None:
            out.append(None)
            continue
        others = [v for v in values[i + 1:] + values[:i] if v is not None][:8]
        out.append(row_context(ProbeCase(row.get(columns.prompt), row, None).prompt_text, text, others, pad_words))
    return out


def _suspicious(rows, contexts, file_scores, probe, charged, names, examples) -> list[dict[str, Any]]:
    """Per reward: the file's completions checked (on rows where the reward charges a flaw) and those flagged
    (:mod:`polyreward.probe.suspicious`)."""
    found = {name: {"reward": name, "checked": 0, "flagged": 0, "by_check": dict.fromkeys(CHECKS, 0), "examples": []} for name in names}
    for i, ctx in enumerate(contexts):
        if ctx is None:
            continue
        for text, scores, _ in file_scores[i]:
            for k, name in enumerate(names):
                flaws = tuple(f for f in FLAWS if charged[i][f][k])
                genuine = probe.genuine_scores[i, k]
                if not flaws or not (math.isfinite(scores[k]) and math.isfinite(genuine)):
                    continue
                entry = found[name]
                entry["checked"] += 1
                if scores[k] < genuine - 1e-12:
                    continue
                fired = flag(text, ctx.genuine, ctx.gold, ctx.prompt, flaws)
                if fired:
                    entry["flagged"] += 1
                    for check in fired:
                        entry["by_check"][check] += 1
                    entry["examples"].append(suspicious_example(text, fired, float(scores[k]), float(genuine), i, SUSPICIOUS_CHARS))
    out = [e for e in found.values() if e["checked"]]
    for e in out:
        e["examples"] = sorted(e["examples"], key=lambda x: (x["chars"], x["row"]))[:examples]
    return out


def _named_strategies(rows, genuine, scorer, weights, examples, notes) -> list[StrategyResult]:
    """The strategies each reward type declares, against the genuine answer (module docstring, 3.)."""
    names, rewards, columns = scorer.names, list(scorer.rewards), scorer.columns
    hacks: list[tuple[int, Hack]] = []
    for i, row in enumerate(rows):
        if genuine[i] is None:
            continue
        for reward in rewards:
            case = ProbeCase(row.get(columns.prompt), row, reward, genuine[i])
            for strategy in strategies_of(reward):
                spec = STRATEGIES[strategy]
                for completion in spec.function(case):
                    hacks.append((i, Hack(reward.name, strategy, completion, spec.strict)))
    results = {(reward.name, s): StrategyResult(reward.name, s, STRATEGIES[s].description) for reward in rewards for s in strategies_of(reward)}
    totals = {(name, s): StrategyResult(TOTAL, f"{name}:{s}", STRATEGIES[s].description) for name, s in results}
    if hacks:
        pair_rows: list[dict[str, Any]] = []
        for j, (i, hack) in enumerate(hacks):
            for completion in (genuine[i], hack.completion):
                pair_rows.append(_pair_record(rows[i], completion, f"probe-pair-{j}", columns, rewards))
        scored = scorer.score(scorer.batch(pair_rows), combine=False)
        matrix = scored.scores
        total = weighted_total(matrix, weights)
        lowest_total = sum(w * (r.score_range[0] if w > 0 else r.score_range[1]) for w, r in zip(weights, rewards) if w)
        for j, (i, hack) in enumerate(hacks):
            g, h = 2 * j, 2 * j + 1
            k = names.index(hack.reward)
            reward = rewards[k]
            _tally(results[(hack.reward, hack.strategy)], matrix[g, k], matrix[h, k], reward.score_range[0], hack,
                   scored.reasons.get(hack.reward, [""] * len(matrix))[h], examples)
            if matrix[g, k] > reward.score_range[0]:  # where the genuine answer is already at the attacked reward's minimum, a tie says nothing
                _tally(totals[(hack.reward, hack.strategy)], total[g], total[h], lowest_total, hack, "", examples)
    if not results:
        notes.append("no reward of this config declares named probe strategies (probe_strategies); only the search ran")
    return list(results.values()) + [t for t in totals.values() if t.rows]


def _pair_record(row: Mapping[str, Any], completion: str, group: str, columns: Any, rewards: Sequence[Any]) -> dict[str, Any]:
    record = {k: v for k, v in row.items() if k != "_probe_completions" and k not in COMPLETION_COLUMNS}
    record[columns.completion] = completion
    record[columns.group] = group
    for reward in rewards:
        for column in reward.group_columns:
            record[column] = group
    return record


def _genuines(rows, builder_reward, source, columns, notes, file_scores) -> list[str | None]:
    """One genuine completion per probed row: the builder's, else the row group's best real completion by total."""
    if builder_reward is not None:
        out = [GENUINE[source](ProbeCase(row.get(columns.prompt), row, builder_reward)) for row in rows]
        skipped = sum(t is None for t in out)
        if skipped:
            notes.append(f"{skipped} row(s) have no reference {builder_reward.name!r} can build a genuine answer from; left out")
        return out
    out: list[str | None] = [None] * len(rows)
    for i, scored in enumerate(file_scores):
        best = -math.inf
        for text, _, total in scored:
            if math.isfinite(total) and total > best:
                best, out[i] = total, text
    return out


def _tally(result: StrategyResult, genuine: float, hack_score: float, minimum: float, hack: Hack, reason: str,
           examples: int) -> None:
    if not (math.isfinite(genuine) and math.isfinite(hack_score)) or genuine <= minimum:
        return
    result.rows += 1
    won = hack_score > genuine if hack.strict else hack_score >= genuine
    if not won:
        return
    result.exploited += 1
    if len(result.examples) < examples:
        text = hack.completion if len(hack.completion) <= EXAMPLE_CHARS else hack.completion[:EXAMPLE_CHARS] + f"... ({len(hack.completion):,} chars)"
        result.examples.append({"hack": text, "hack_score": float(hack_score), "genuine_score": float(genuine), "reason": reason[:200]})
