"""GRPO with process supervision: step rewards normalised over the group, each token's advantage the sum of the
normalised rewards of its own step and every later one.

Source: Shao et al. 2024, "DeepSeekMath", arXiv 2402.03300, §4.1.3 "Process Supervision RL with GRPO" (the paper's
formula; no released code). Exact to the paper; its std flavour and epsilon are not printed, so they follow GRPO's
conventions here (Bessel std as ``torch.std``, eps = 1e-6 as verl). A token-level combiner (:meth:`combine_tokens`).

    a group g of rollouts; rollout i has steps j = 1..K_i with rewards r_i^j, step j ending on token e_i^j
    R_g      = { r_i^j : i ∈ g, every step j }                       (all step rewards of the group together)
    r̃_i^j    = (r_i^j - mean(R_g)) / (std(R_g) + eps)
    A_{i,t}  = Σ_{j : e_i^j >= t} r̃_i^j                              (the normalised rewards of the steps from t on)

Inputs: ``token_rewards`` (N, T) hold each step's reward on the step's last token and NaN elsewhere; without them each rollout is one step whose reward is the
weighted total Σ_k w_k R_ik on its last token, and A_{i,t} is GRPO's outcome advantage (r_i - mean)/(std + eps) on
every token. ``combine`` (one value per rollout) is the mean of A_{i,t} over the row's tokens. verl's
``token_level_rewards`` are dense (0 on every token without a reward), so the verl estimator hands this method the
outcome only; step rewards reach it through ``combine_tokens(..., token_rewards=...)``, e.g. from
:func:`polyreward.process.token_rewards` (a step scorer's scores placed on tokenizer offsets).

Edge cases: a group whose step rewards are all equal (the shared constant rule) gives 0; a group with one step
reward in all has no std and gives 0 (as GRPO's lone rollout under TRL's rule); rows where no reward applies
(every score NaN) and their steps are left out and get 0; a step reward on a masked-out token is ignored.

Bound: per token |A_{i,t}| <= Σ_j |r̃_i^j| <= sqrt(K_i) (S_g - 1)/sqrt(S_g) with S_g step rewards in the group
(Cauchy-Schwarz over the row's steps); with one step per rollout the GRPO bound (n - 1)/sqrt(n).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiner import as_token_mask
from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import standardise_per_group
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import as_score_matrix, as_token_counts, as_weights, check_positive, to_output
from polyreward.vocabulary import weighted_total
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.magnitudes import overflow_scale


class ProcessGRPOCombiner(GroupedCombiner):
    """Step rewards z-scored over all steps of the group; a token gets the sum over its step and the later ones.

    Args:
        eps: added to the group's std of step rewards
    """

    type_name = "grpo_process"
    exactness = "exact"
    description = "GRPO with process supervision: group-normalised step rewards summed from each token on (DeepSeekMath)"
    token_level = True

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"eps": 0.0})
    reference_test = "tests/test_estimators_tokens.py"  # the comparison with the source's code
    exactness_note = "exact (DeepSeekMath §4.1.3 formula; std/eps as GRPO), **token-level**"
    summary = (
        "step rewards z-scored over all steps of the group; a token gets the sum over its step and the later ones "
        "(outcome only: GRPO)"
    )
    key_parameters = "`eps` 1e-6"
    bound_text = (
        "per token √(K_i)·(S − 1)/√S with K_i steps in the row and S step rewards in the group; one step per rollout:"
        " (n − 1)/√n"
    )

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return z_bound(facts.n)  # one step per rollout: GRPO's z-score

    def __init__(self, eps: float = 1e-6) -> None:
        check_positive("eps", eps, allow_zero=True)
        self.eps = float(eps)

    def _params(self) -> dict:
        return {} if self.eps == 1e-6 else {"eps": self.eps}

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, lengths: Any = None) -> Any:
        """Advantages (N,): the mean over each row's tokens of :meth:`combine_tokens` with one step per rollout (the
        outcome); ``lengths`` do not change it (every token of a one-step row carries the same value)."""
        matrix = as_score_matrix(scores)
        if lengths is not None:
            as_token_counts(lengths, len(matrix))  # validated as every length-taking combiner does
        tokens = self.combine_tokens(matrix, groups, weights, mask=np.ones((len(matrix), 1)))
        return to_output(tokens[:, 0], scores)

    def combine_tokens(self, scores: Any, groups: Any, weights: Any = None, *, mask: Any,
                       token_rewards: Any = None, **rows: Any) -> np.ndarray:
        """Advantages (N, T) float64 (see the module docstring); 0 where ``mask`` is 0 and on rows without a reward."""
        matrix = as_score_matrix(scores)
        index = GroupIndex.from_ids(groups, len(matrix))
        m = as_token_mask(mask, len(matrix)) > 0
        w = as_weights(weights, matrix.shape[1])
        scored = ~np.isnan(weighted_total(matrix, w))
        if token_rewards is None:
            steps = np.full(m.shape, np.nan)
            has_tokens = m.any(axis=1)
            last = m.shape[1] - 1 - np.argmax(m[:, ::-1], axis=1)
            rows_with = np.flatnonzero(has_tokens)
            # the z-score does not depend on the scale: totals that would overflow are summed at a power of two below it
            steps[rows_with, last[has_tokens]] = weighted_total(matrix * overflow_scale(matrix, w), w)[has_tokens]
        else:
            steps = np.asarray(token_rewards, dtype=np.float64)
            if steps.shape != m.shape or np.isinf(steps).any():
                raise ValueError(f"token_rewards must be finite (NaN = no step ends here) and of the mask's shape {m.shape}")
        steps = np.where(m & scored[:, None], steps, np.nan)  # only steps on response tokens of scored rows
        row_of, token_of = np.nonzero(~np.isnan(steps))
        normalised = np.zeros(m.shape)
        if len(row_of):
            step_index = GroupIndex(index.codes[row_of], index.n_groups, None)
            z = standardise_per_group(steps[row_of, token_of], step_index, self.eps, ddof=1)
            normalised[row_of, token_of] = np.nan_to_num(z, nan=0.0)  # a group of one step: no std, 0 (as GRPO)
        # A_{i,t} = Σ_{steps ending at or after t}: a reversed cumulative sum along the tokens
        advantages = np.cumsum(normalised[:, ::-1], axis=1)[:, ::-1]
        return np.where(m & scored[:, None], advantages, 0.0)
