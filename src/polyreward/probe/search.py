"""The probe's mutation search: compositions of :data:`~polyreward.probe.mutations.MUTATIONS` applied to each
row's genuine completion, scored through the config's rewards, kept where a flawed candidate scores at least the
genuine answer on a reward that charges the same flaw shown plainly.

Per row, with ``budget`` candidates (the controls come on top):

1. **Round 1** -- every flawed mutation once on the genuine completion (at most half the budget, in a seeded
   order), plus the row's controls (:func:`~polyreward.probe.mutations.controls`).
2. **Round 2** -- the rest of the budget in compositions of depth 2 or 3: one flawed mutation, chosen with weight
   ``0.25 + progress`` (its best round-1 ``(s_candidate - s_control) / (s_genuine - s_control)`` clipped to
   [0, 1], over the rows and rewards that charge its flaw), at a random place in a chain of uniformly drawn
   mutations (a zero-width or look-alike disguise, a re-encoding, a second flaw).

3. **Ablation** -- each composed exploit is replayed with one step left out (every step has its own seed, so the
   others redo exactly what they did); a step whose removal ends the exploit is *necessary*.

Reward ``k`` **charges** flaw ``f`` on row ``i`` when ``s_k(control_f) < s_k(genuine) - 1e-9``. A candidate with
flaws ``F`` is **tried** on ``k`` when ``k`` charges some ``f`` in ``F`` and both scores are finite; it
**exploits** ``k`` when ``s_k(candidate) >= s_k(genuine) - 1e-12``. The weighted total (TRL's
``Σ_k w_k s_k``) charges a flaw when a reward of positive weight does, and is tallied the same way: that is where a
cheap component outweighs the penalty (the reasoning dropped to save length). A candidate is tried under each
family of its chain that plants a flaw ``k`` charges, or plants none (a disguise); an exploit is credited to the
families of its necessary steps (all of them when no single step is necessary). Everything is drawn from
``random.Random(f"{seed}:{row}")``, so one seed gives one report.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyreward.probe.mutations import BY_NAME, FAMILIES, FLAWS, MUTATIONS, controls
from polyreward.probe.site import RowContext

MAX_CANDIDATE_CHARS = 120_000
EXAMPLE_CHARS = 1_200
TIE = 1e-12
CHARGE = 1e-9
TOTAL = "weighted total"


Step = tuple[str, int]  # (mutation name, its own seed)


def flaws_of(chain: Sequence[Step], text: str, ctx: RowContext) -> tuple[str, ...]:
    """The flaws the chain planted and the text still carries (a later cut can remove the padding)."""
    flaws = dict.fromkeys(f for f in (BY_NAME[n].flaw for n, _ in chain) if f)
    if "length" in flaws and text.count("pad") < ctx.pad_words and "x" * (16 * ctx.pad_words) not in text:
        del flaws["length"]
    return tuple(flaws)


@dataclass(frozen=True)
class Candidate:
    row: int
    text: str
    chain: tuple[Step, ...]
    flaws: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        return [n for n, _ in self.chain]


@dataclass
class FamilyResult:
    """One reward (or the weighted total) against one mutation family."""

    reward: str
    family: str
    tried: int = 0
    exploited: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"reward": self.reward, "family": self.family, "tried": self.tried, "exploited": self.exploited,
                "share": self.exploited / self.tried if self.tried else 0.0, "examples": self.examples}


# scores of candidates: (candidate scores (n, K), candidate totals (n,), genuine scores (n, K), genuine totals (n,))
Scorer = Callable[[Sequence[tuple[int, str]]], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


def _apply(chain: Sequence[Step], ctx: RowContext) -> str | None:
    text: str | None = ctx.genuine
    for name, step_seed in chain:
        text = BY_NAME[name].function(text, ctx, random.Random(step_seed))
        if text is None or len(text) > MAX_CANDIDATE_CHARS:
            return None
    return text if text != ctx.genuine else None


def _step(name: str, rng: random.Random) -> Step:
    return name, rng.getrandbits(48)


def _round_one(row: int, ctx: RowContext, rng: random.Random, cap: int, seen: set[str]) -> list[Candidate]:
    flawed = [m.name for m in MUTATIONS if m.flaw]
    rng.shuffle(flawed)
    out = []
    for name in flawed:
        if len(out) >= cap:
            break
        chain = (_step(name, rng),)
        text = _apply(chain, ctx)
        if text is not None and text not in seen:
            seen.add(text)
            out.append(Candidate(row, text, chain, flaws_of(chain, text, ctx)))
    return out


def _round_two(row: int, ctx: RowContext, rng: random.Random, n: int, weights: dict[str, float], seen: set[str]) -> list[Candidate]:
    flawed = [m.name for m in MUTATIONS if m.flaw]
    every = [m.name for m in MUTATIONS]
    out: list[Candidate] = []
    attempts = 0
    while len(out) < n and attempts < 30 * n:
        attempts += 1
        anchor = rng.choices(flawed, weights=[weights.get(f, 0.25) for f in flawed])[0]
        names = [rng.choice(every) for _ in range(rng.choice((1, 1, 2)))]
        names.insert(rng.randrange(len(names) + 1), anchor)
        if any(a == b for a, b in zip(names, names[1:])):
            continue
        chain = tuple(_step(name, rng) for name in names)
        text = _apply(chain, ctx)
        if text is not None and text not in seen:
            seen.add(text)
            out.append(Candidate(row, text, chain, flaws_of(chain, text, ctx)))
    return out


@dataclass
class SearchOutcome:
    results: list[FamilyResult]
    tried_per_row: list[int]
    charged: dict[str, dict[str, int]]  # reward -> flaw -> rows on which the reward charges it
    charged_rows: list[dict[str, list[bool]]]  # [row][flaw][reward]: the reward charges the flaw on the row


class _Search:
    def __init__(self, contexts, reward_names, weights, score, examples) -> None:
        self.contexts, self.names, self.score, self.examples = contexts, list(reward_names), score, examples
        self.K = len(reward_names)
        self.positive = np.asarray(weights, dtype=np.float64) > 0
        self.charged_rows = [{f: np.zeros(self.K, dtype=bool) for f in FLAWS} for _ in contexts]
        self.control_scores: dict[tuple[int, str], np.ndarray] = {}
        self.results = {(name, fam): FamilyResult(name, fam) for name in [*self.names, TOTAL] for fam in FAMILIES}
        self.progress: dict[str, float] = {}

    def charges(self, row: int, flaws: Sequence[str]) -> np.ndarray:
        """(K + 1,) booleans: which rewards (and, last, the weighted total) charge one of ``flaws`` on ``row``."""
        per = np.zeros(self.K, dtype=bool)
        for f in flaws:
            per |= self.charged_rows[row][f]
        return np.append(per, bool((per & self.positive).any()))

    def set_controls(self, items: Sequence[tuple[int, str]], scored) -> None:
        for j, (i, flaw) in enumerate(items):
            cand, gen = scored[0][j], scored[2][j]
            self.charged_rows[i][flaw] = np.isfinite(cand) & np.isfinite(gen) & (cand < gen - CHARGE)
            self.control_scores[(i, flaw)] = cand

    @staticmethod
    def wins(scored, j: int) -> np.ndarray:
        """(K + 1,) booleans: candidate ``j`` scores at least the genuine answer (finite scores only)."""
        s = np.append(scored[0][j], scored[1][j])
        g = np.append(scored[2][j], scored[3][j])
        return np.isfinite(s) & np.isfinite(g) & (s >= g - TIE)

    def tally(self, cands: Sequence[Candidate], scored, offset: int = 0) -> list[tuple[Candidate, np.ndarray, int]]:
        """Count tries and exploits; return the composed exploits still to ablate (candidate, wins, its row in ``scored``)."""
        pending = []
        for j, c in enumerate(cands):
            at = offset + j
            charged = self.charges(c.row, c.flaws)
            finite = np.isfinite(np.append(scored[0][at], scored[1][at])) & np.isfinite(np.append(scored[2][at], scored[3][at]))
            won = self.wins(scored, at) & charged
            for k in np.flatnonzero(charged & finite):
                for fam in self._tried_families(c, int(k)):
                    self.results[(self._name(int(k)), fam)].tried += 1
            if len(c.chain) == 1:
                self._progress(c, scored, at, charged)
                for k in np.flatnonzero(won):
                    self._credit(c, int(k), [BY_NAME[c.names[0]].family], scored, at)
            elif won.any():
                pending.append((c, won, at))
        return pending

    def _name(self, k: int) -> str:
        return TOTAL if k == self.K else self.names[k]

    def _tried_families(self, c: Candidate, k: int) -> list[str]:
        out = []
        for name in c.names:
            flaw = BY_NAME[name].flaw
            if flaw is None or flaw in c.flaws and self.charges(c.row, (flaw,))[k]:
                out.append(BY_NAME[name].family)
        return list(dict.fromkeys(out))

    def _progress(self, c: Candidate, scored, at: int, charged: np.ndarray) -> None:
        flaw = BY_NAME[c.names[0]].flaw
        control = self.control_scores.get((c.row, flaw or ""))
        if control is None:
            return
        for k in np.flatnonzero(charged[:self.K]):
            s, g, ctrl = scored[0][at][k], scored[2][at][k], control[k]
            if all(map(math.isfinite, (s, g, ctrl))) and g > ctrl:
                progress = min(1.0, max(0.0, (s - ctrl) / (g - ctrl)))
                self.progress[c.names[0]] = max(self.progress.get(c.names[0], 0.0), progress)

    def _credit(self, c: Candidate, k: int, families: Sequence[str], scored, at: int) -> None:
        score = float(scored[1][at] if k == self.K else scored[0][at][k])
        genuine = float(scored[3][at] if k == self.K else scored[2][at][k])
        tried = set(self._tried_families(c, k))
        for fam in dict.fromkeys(families):
            if fam in tried:
                result = self.results[(self._name(k), fam)]
                result.exploited += 1
                _keep_example(result, c, score, genuine, self.examples)

    def ablate(self, pending: Sequence[tuple[Candidate, np.ndarray, int]], scored) -> None:
        """Credit each composed exploit to its necessary steps (module docstring, 3.)."""
        subs: list[tuple[int, str]] = []
        index: dict[tuple[int, str], int] = {}
        plans = []
        for c, won, at in pending:
            plan = []
            for drop in range(len(c.chain)):
                chain = c.chain[:drop] + c.chain[drop + 1:]
                text = _apply(chain, self.contexts[c.row])
                if text is not None and (c.row, text) not in index:
                    index[(c.row, text)] = len(subs)
                    subs.append((c.row, text))
                flaws = () if text is None else flaws_of(chain, text, self.contexts[c.row])
                plan.append((flaws, None if text is None else index[(c.row, text)]))
            plans.append(plan)
        sub_scored = self.score(subs) if subs else None
        for (c, won, at), plan in zip(pending, plans):
            for k in np.flatnonzero(won):
                necessary = []
                for drop, (flaws, j) in enumerate(plan):
                    still = j is not None and bool(self.charges(c.row, flaws)[k]) and bool(self.wins(sub_scored, j)[k])
                    if not still:
                        necessary.append(BY_NAME[c.chain[drop][0]].family)
                self._credit(c, int(k), necessary or [BY_NAME[n].family for n in c.names], scored, at)


def run_search(contexts: Sequence[RowContext | None], reward_names: Sequence[str], weights: np.ndarray, score: Scorer, *,
               budget: int, seed: int, examples: int) -> SearchOutcome:
    """The search of the module docstring over the rows with a context (None: no genuine answer); ``budget`` 0
    scores only the controls (which rewards charge which flaw, for the check of the file's completions)."""
    rngs = {i: random.Random(f"{seed}:{i}") for i, c in enumerate(contexts) if c is not None}
    seen = {i: {contexts[i].genuine} for i in rngs}
    search = _Search(contexts, reward_names, weights, score, examples)
    control_items: list[tuple[int, str]] = []
    control_texts: list[tuple[int, str]] = []
    first: list[Candidate] = []
    for i, rng in rngs.items():
        for flaw, text in controls(contexts[i]).items():
            control_items.append((i, flaw))
            control_texts.append((i, text))
        first += _round_one(i, contexts[i], rng, (budget + 1) // 2, seen[i])
    scored = score(control_texts + [(c.row, c.text) for c in first])
    nc = len(control_items)
    search.set_controls(control_items, scored)
    pending = search.tally(first, scored, nc)  # singles: nothing to ablate
    weights_by_mutation = {name: 0.25 + p for name, p in search.progress.items()}
    second: list[Candidate] = []
    counts = {i: sum(c.row == i for c in first) for i in rngs}
    for i, rng in rngs.items():
        second += _round_two(i, contexts[i], rng, budget - counts[i], weights_by_mutation, seen[i])
    if second:
        scored2 = score([(c.row, c.text) for c in second])
        pending = search.tally(second, scored2)
        if pending:
            search.ablate(pending, scored2)
    tried = [0] * len(contexts)
    for c in (*first, *second):
        tried[c.row] += 1
    charged = {name: {f: int(sum(bool(r[f][k]) for r in search.charged_rows)) for f in FLAWS} for k, name in enumerate(reward_names)}
    charged_rows = [{f: [bool(v) for v in r[f]] for f in FLAWS} for r in search.charged_rows]
    return SearchOutcome([r for r in search.results.values() if r.tried], tried, charged, charged_rows)


def _keep_example(result: FamilyResult, c: Candidate, score: float, genuine: float, examples: int) -> None:
    """Keep the ``examples`` shortest exploiting completions (the first found among equals)."""
    if examples <= 0:
        return
    entry = {"completion": c.text if len(c.text) <= EXAMPLE_CHARS else c.text[:EXAMPLE_CHARS] + f"... ({len(c.text):,} chars)",
             "chars": len(c.text), "chain": c.names, "row": c.row, "score": score, "genuine_score": genuine}
    result.examples.append(entry)
    result.examples.sort(key=lambda e: (e["chars"], e["row"]))
    del result.examples[examples:]
