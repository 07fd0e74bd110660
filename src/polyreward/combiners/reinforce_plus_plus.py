"""REINFORCE++: per-token discounted returns, whitened over every response token of the batch (no group baseline).

Source: verl 0.9.1 ``verl/trainer/ppo/core_algos.py`` ``compute_reinforce_plus_plus_outcome_advantage``
(``algorithm.adv_estimator=reinforce_plus_plus``) with ``verl/utils/torch_functional.py`` ``masked_whiten``;
method of Hu et al. 2025, arXiv 2501.03262. Exact. A token-level combiner (:meth:`combine_tokens`).

    ρ_t   = rewards on token t (``token_rewards``; without them the weighted total Σ_k w_k R_ik of the row's
            scores on its last response token, as verl places an outcome reward), m_t the response mask
    G_t   = (ρ_t + γ G'_{t+1}) m_t,   G'_t = (ρ_t + γ G'_{t+1}) m_t + G'_{t+1} (1 - m_t),   G'_{T} = 0
            (a masked-out span, e.g. a tool observation in a multi-turn response, carries the return through unchanged)
    μ     = Σ_it m_it G_it / (M + 1e-8),  σ² = Σ_it m_it (G_it - μ)² / (M + 1e-8) · M/(M - 1),  M = Σ_it m_it
    A_it  = (G_it - μ) / sqrt(σ² + 1e-8) · m_it

``combine`` (one value per rollout, response lengths from ``lengths``) is the mean of A_it over the row's tokens;
with γ = 1 and an outcome reward every token of a row carries the same value, so that mean is verl's advantage,
computed without an (N, T) array as the whitening of r_i weighted by l_i. Rows where no reward applies are
left out of the whitening and get 0. M <= 1 (verl raises in ``masked_var``) gives 0; returns that are all equal
give 0 exactly (verl's M + 1e-8 denominator leaves ~1e-4·G/M).

Bound: |A_it| <= (M - 1)/sqrt(M), a Bessel z-score of M token values (so is the per-row mean).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from polyreward.combiner import as_token_mask
from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import as_score_matrix, as_token_counts, as_weights, check_positive, to_output
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.gdpo import batch_normalise
from polyreward.combiners.magnitudes import BOUND_EXPONENT, overflow_scale


class ReinforcePlusPlusCombiner(GroupedCombiner):
    """Discounted per-token returns whitened over the batch's tokens; verl ``reinforce_plus_plus``.

    Args:
        gamma: discount of later rewards per token (verl ``algorithm.gamma``, 1 by default)
    """

    type_name = "reinforce_plus_plus"
    exactness = "exact"
    description = "REINFORCE++: discounted per-token returns whitened over the batch's tokens (verl reinforce_plus_plus)"
    token_level = True
    dense_token_rewards = True  # NaN and 0 both mean "no reward on this token" (verl's token_level_rewards)

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"gamma": 0.9})
    lone_rollout_zero = False
    reference_test = "tests/test_estimators_tokens.py"  # the comparison with the source's code
    exactness_note = "exact (verl `reinforce_plus_plus`), **token-level**"
    summary = "discounted per-token returns whitened over the batch's tokens, no group baseline"
    key_parameters = "`gamma` 1"
    bound_text = "(M − 1)/√M per token, M the response tokens of the batch (a whitening); its per-row mean too"

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return False  # no group baseline: a batch whitening of the rewards

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # no group baseline

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return np.full(np.shape(facts.n), z_bound(facts.T))  # a whitening over the batch's T tokens

    def __init__(self, gamma: float = 1.0) -> None:
        check_positive("gamma", gamma, allow_zero=True)
        if gamma > 1:
            raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
        self.gamma = float(gamma)

    def _params(self) -> dict:
        return {} if self.gamma == 1.0 else {"gamma": self.gamma}

    @property
    def uses_lengths(self) -> bool:
        """The whitening weighs each rollout by its token count: entry points must hand the lengths."""
        return True

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, lengths: Any = None) -> Any:
        """Advantages (N,): the mean over each row's ``lengths`` tokens (one each without) of :meth:`combine_tokens`."""
        matrix = as_score_matrix(scores)
        counts = np.ones(len(matrix)) if lengths is None else as_token_counts(lengths, len(matrix))
        if self.gamma == 1.0:
            # every token of a row carries the row's reward (G_t = r_i): the whitening of r weighted by token counts,
            # without an (N, T) array (equal to the token path, tested)
            w = as_weights(weights, matrix.shape[1])
            GroupIndex.from_ids(groups, len(matrix))
            total = weighted_total(matrix * overflow_scale(matrix, w), w)
            whitened = batch_normalise(np.where(counts > 0, total, np.nan), "whiten", counts)
            return to_output(np.where(np.isfinite(whitened), whitened, 0.0), scores)
        width = max(int(np.ceil(counts.max(initial=0.0))), 1)
        mask = (np.arange(width)[None, :] < counts[:, None]).astype(np.float64)
        tokens = self.combine_tokens(matrix, groups, weights, mask=mask)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_row = tokens.sum(axis=1) / mask.sum(axis=1)
        return to_output(np.where(np.isfinite(per_row), per_row, 0.0), scores)

    def combine_tokens(self, scores: Any, groups: Any, weights: Any = None, *, mask: Any,
                       token_rewards: Any = None, **rows: Any) -> np.ndarray:
        """Advantages (N, T) float64 (see the module docstring); 0 where ``mask`` is 0 and on rows without a reward."""
        matrix = as_score_matrix(scores)
        GroupIndex.from_ids(groups, len(matrix))  # the same validation as every combiner (the method ignores groups)
        m = as_token_mask(mask, len(matrix))
        w = as_weights(weights, matrix.shape[1])
        # the whitening does not depend on the rewards' scale: rewards whose sums would overflow are computed at a
        # power of two below it (exact), as the other scale-free combiners (:mod:`polyreward.combiners.magnitudes`)
        total = weighted_total(matrix * overflow_scale(matrix, w), w)
        if token_rewards is None:
            rewards = np.zeros_like(m)
            last = (m > 0).shape[1] - 1 - np.argmax((m > 0)[:, ::-1], axis=1)  # each row's last response token
            has_tokens = (m > 0).any(axis=1)
            rewards[np.flatnonzero(has_tokens), last[has_tokens]] = total[has_tokens]
        else:
            rewards = np.nan_to_num(np.asarray(token_rewards, dtype=np.float64), nan=0.0)
            if rewards.shape != m.shape or not np.isfinite(rewards).all():
                raise ValueError(f"token_rewards must be finite (NaN = none) and of the mask's shape {m.shape}")
            rewards = rewards * _sum_scale(rewards)
        returns = np.zeros_like(m)
        running = np.zeros(len(m))
        with np.errstate(over="ignore", invalid="ignore"):
            for t in range(m.shape[1] - 1, -1, -1):  # a loop over token positions, vectorised over rows (as verl)
                new = rewards[:, t] + self.gamma * running
                returns[:, t] = new * m[:, t]
                running = new * m[:, t] + running * (1 - m[:, t])
        weight = np.where(np.isnan(total)[:, None], 0.0, m)  # rows where no reward applies: out of the statistics
        flat = np.where(weight > 0, returns, np.nan).ravel()
        with np.errstate(invalid="ignore"):
            peak = float(np.max(np.abs(flat), initial=0.0, where=~np.isnan(flat)))
        if peak > 2.0**500:  # squares would overflow: whiten at unit scale (a power of two, exact; eps stays negligible)
            flat = flat * math.ldexp(1.0, -math.frexp(peak)[1])
        whitened = batch_normalise(flat, "whiten", weight.ravel()).reshape(m.shape)
        return np.where(weight > 0, np.nan_to_num(whitened, nan=0.0), 0.0)


def _sum_scale(rewards: np.ndarray) -> float:
    """A power of two keeping every return (a sum of at most T rewards, γ <= 1) below 2**1000; 1.0 when it already is."""
    peak = float(np.abs(rewards).max(initial=0.0))
    if peak == 0.0:
        return 1.0
    exponent = math.frexp(peak)[1] + math.ceil(math.log2(max(rewards.shape[1], 1) + 1))
    return 1.0 if exponent <= BOUND_EXPONENT else math.ldexp(1.0, BOUND_EXPONENT - exponent)
