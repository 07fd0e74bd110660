"""Dynamic sampling (DAPO): drop the groups that carry no learning signal and refill the batch from further prompts.

DAPO (Yu et al. 2025, arXiv 2503.14476, §3.2) over-samples and filters out prompts whose G completions all
got the same accuracy (all right or all wrong): their group-relative advantages are 0, so they add nothing to the
policy gradient but still dilute the token-mean loss and shrink the effective batch. verl 0.9.1 (``algorithm.filter_groups``,
trainer/config/algorithm.py; evicted and refilled in trainer/ppo/v1/replay_buffer.py when ``np.std`` of the group's
metric is exactly 0.0, so a group scoring 0.1 + 0.2 and 0.3 counts as signal there) and OpenRLHF
(``--dynamic_filtering``) ship the same idea. Here a group is dropped when the
*combiner's* advantages give it no signal: :func:`polyreward.combiners.diagnostics.diagnose`'s per-group
``zero_signal`` (every advantage within ``tol`` of 0). That is DAPO's rule for every group-relative combiner
(a group whose rewards are constant by the combiners' one constant rule, equal up to 1e-10 of their magnitude,
gets exactly 0, so 0.1 + 0.2 against 0.3 is no signal), and it also drops groups whose distinct reward profiles
the combiner collapses to one advantage (sum-then-normalise on profiles whose weighted totals are equal), which
carry no gradient either.

Each step (a reconstruction of DAPO's Algorithm 1 with verl's legacy bound on generation batches,
``max_num_gen_batches``; the order of rounds and what is kept are this module's choice):

1. round 0 samples and scores ``prompts_per_step`` prompts from the prompt cursor;
2. the decision is made on a *copy* of the combiner (stateful combiners such as EBPO update their statistics
   only once per step, on the final batch);
3. the signal groups are kept in the order they were drawn; while fewer than ``prompts_per_step`` are kept and
   fewer than ``max_refill_rounds`` refills were made, another ``prompts_per_step`` prompts are drawn (as verl
   draws whole generation batches); signal groups beyond the target are discarded (verl's truncation);
4. when the bound is reached first, the batch is completed with dropped groups (counted as ``padded``), so every
   step trains on ``prompts_per_step × G`` rollouts and the micro-batch split always divides it. Those rows have
   zero advantage: they add no policy gradient, only KL and tokens to the dapo normaliser.

The final advantages are then computed once, by the real combiner, on the kept batch. The prompt cursor (how
many prompts the run has drawn) is saved with every checkpoint, so a resumed run draws what the uninterrupted one
would have drawn.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import torch

from polyreward.pipeline import ScoredBatch
from polyreward.trainer.policy import Rollouts


@dataclass
class Draw:
    """One generation round (or the step's final batch): prompt rows, group ids (one per rollout), rollouts, scores."""

    rows: list[dict[str, Any]]
    groups: np.ndarray  # (N,) group id of each rollout: the prompt's cursor position
    rollouts: Rollouts
    scores: ScoredBatch  # without advantages


@dataclass
class SamplingStats:
    rounds: int = 0  # generation rounds this step (1 + refills)
    dropped_groups: int = 0  # zero-signal groups seen (all rounds)
    padded_groups: int = 0  # dropped groups put back to fill the batch when the refill bound was reached
    surplus_groups: int = 0  # signal groups beyond the target, discarded
    kept: list[tuple[int, int]] = field(default_factory=list)  # (round, group within round)

    def metrics(self, groups_per_step: int) -> dict[str, float]:
        return {"dynamic_sampling/rounds": float(self.rounds), "dynamic_sampling/refill_rounds": float(self.rounds - 1),
                "dynamic_sampling/dropped_groups": float(self.dropped_groups),
                "dynamic_sampling/padded_groups": float(self.padded_groups),
                "dynamic_sampling/surplus_groups": float(self.surplus_groups),
                "dynamic_sampling/kept_signal_fraction": (groups_per_step - self.padded_groups) / groups_per_step}


def zero_signal_groups(draw: Draw, advantages: np.ndarray, tol: float) -> np.ndarray:
    """(groups,) bool in draw order: the combiner gave the group no signal (diagnose's ``zero_signal``)."""
    from polyreward.combiners.diagnostics import diagnose

    table = diagnose(draw.scores.scores, draw.groups, advantages, draw.scores.weights, draw.scores.names, tol=tol).groups
    return table["zero_signal"].to_numpy(dtype=bool)


def collect_signal_groups(draw_round: Callable[[], Draw], probe_advantages: Callable[[Draw, Any], np.ndarray], combiner: Any,
                          groups_per_step: int, num_generations: int, max_refill_rounds: int, tol: float,
                          pad_id: int) -> tuple[Draw, SamplingStats]:
    """Draw rounds until ``groups_per_step`` signal groups are kept or ``max_refill_rounds`` refills were made."""
    stats = SamplingStats()
    draws: list[Draw] = []
    kept: list[tuple[int, int]] = []
    dropped: list[tuple[int, int]] = []
    while True:
        draw = draw_round()
        draws.append(draw)
        stats.rounds += 1
        flat = zero_signal_groups(draw, probe_advantages(draw, copy.deepcopy(combiner)), tol)
        for g, no_signal in enumerate(flat):
            if no_signal:
                dropped.append((len(draws) - 1, g))
            elif len(kept) < groups_per_step:
                kept.append((len(draws) - 1, g))
            else:
                stats.surplus_groups += 1
        if len(kept) >= groups_per_step or stats.rounds > max_refill_rounds:
            break
    stats.dropped_groups = len(dropped)
    stats.padded_groups = groups_per_step - len(kept)
    chosen = sorted(kept + dropped[: stats.padded_groups])  # draw order, so the batch reads as the rounds were drawn
    stats.kept = chosen
    return concat_groups(draws, chosen, num_generations, pad_id), stats


def concat_groups(draws: list[Draw], chosen: list[tuple[int, int]], num_generations: int, pad_id: int) -> Draw:
    """The rows, rollouts and scores of the ``chosen`` (round, group) pairs as one batch (prompts re-padded on the left,
    completions on the right, to the widest of them)."""
    G = num_generations
    index = [(r, np.arange(g * G, (g + 1) * G)) for r, g in chosen]
    rows = [draws[r].rows[g] for r, g in chosen]
    groups = np.concatenate([draws[r].groups[i] for r, i in index])
    rollouts = _concat_rollouts([(draws[r].rollouts, i) for r, i in index], pad_id)
    scores = _concat_scores([(draws[r].scores, i) for r, i in index], [d.scores for d in draws])
    return Draw(rows, groups, rollouts, scores)


def _concat_rollouts(parts: list[tuple[Rollouts, np.ndarray]], pad_id: int) -> Rollouts:
    prompt_width = max(r.prompt_ids.size(1) for r, _ in parts)
    completion_width = max(r.completion_ids.size(1) for r, _ in parts)
    prompt_ids, prompt_mask, completion_ids, completion_mask, texts, terminated = [], [], [], [], [], []
    for rollouts, rows in parts:
        rows_t = torch.as_tensor(rows, device=rollouts.prompt_ids.device)
        left = prompt_width - rollouts.prompt_ids.size(1)
        right = completion_width - rollouts.completion_ids.size(1)
        prompt_ids.append(torch.nn.functional.pad(rollouts.prompt_ids[rows_t], (left, 0), value=pad_id))
        prompt_mask.append(torch.nn.functional.pad(rollouts.prompt_mask[rows_t], (left, 0), value=0))
        completion_ids.append(torch.nn.functional.pad(rollouts.completion_ids[rows_t], (0, right), value=pad_id))
        completion_mask.append(torch.nn.functional.pad(rollouts.completion_mask[rows_t], (0, right), value=0))
        texts.extend(rollouts.texts[i] for i in rows)
        terminated.append(rollouts.terminated[rows_t])
    return Rollouts(torch.cat(prompt_ids), torch.cat(prompt_mask), torch.cat(completion_ids), torch.cat(completion_mask), texts,
                    torch.cat(terminated))


def _concat_scores(parts: list[tuple[ScoredBatch, np.ndarray]], rounds: list[ScoredBatch]) -> ScoredBatch:
    first = parts[0][0]
    failed = None if first.failed is None else np.concatenate([s.failed[i] for s, i in parts])
    details = {name: {sub: [v for s, i in parts for v in np.asarray(s.details[name][sub], dtype=object)[i].tolist()]
                      for sub in subs} for name, subs in first.details.items()}
    seconds = {name: sum(s.seconds.get(name, 0.0) for s in rounds) for name in first.seconds}  # every round's scoring time
    merged = replace(first, scores=np.concatenate([s.scores[i] for s, i in parts]),
                     reasons={name: [s.reasons[name][k] for s, i in parts for k in i] for name in first.names},
                     details=details, failed=failed, advantages=None, diagnostics=None, seconds=seconds)
    if failed is not None:
        merged.failures = {name: int(failed[:, k].sum()) for k, name in enumerate(first.names) if failed[:, k].any()}
    return merged
