"""GDPO: normalise every reward within its group, take the weighted sum, then normalise over the batch.

Paper: Liu et al. 2026, "GDPO: Group reward-Decoupled Normalization Policy Optimization", arXiv 2601.05242
(NVlabs/GDPO). Default = TRL 1.16 ``multi_objective_aggregation="normalize_then_sum"`` (grpo_trainer.py
L2790-2800), reproduced to float precision. Exact.

    μ_gk = nanmean_{i∈g} R_ik ;  σ_gk = nanstd_{i∈g} R_ik         (Bessel; NaN if <= 1 valid value)
    Â_ik = (R_ik - μ_gk) / (σ_gk + 1e-4)                          (NaN stays NaN; zero-variance group -> 0)
    s_i  = Σ_k w_k Â_ik          (nansum: a None reward contributes 0); s_i = NaN if every R_ik is None
    A_i  = (s_i - nanmean_B(s)) / (nanstd_B(s) + 1e-4)            (over the whole, gathered batch)
    A    = nan_to_num(A, 0)       (rows without any reward get 0 and stay out of every statistic)

``variant`` picks the conventions of another implementation; each individual switch can still be
overridden:

| variant  | none_policy | baseline | eps  | single-rollout group | batch normalisation                     |
|----------|-------------|----------|------|----------------------|-----------------------------------------|
| trl      | exclude     | mean     | 1e-4 | contributes 0        | (s - mean)/(std + 1e-4)                 |
| nvlabs   | zero        | mean     | 1e-4 | contributes 0        | (s - mean)/(std + 1e-4)                 |
| verl     | exclude     | mean     | 1e-6 | mean 0, std 1 (R/(1+ε)) | whiten: (s - μ_tok) rsqrt(var_tok+1e-8) |
| nemo_rl  | exclude     | loo      | 1e-6 | contributes 0        | (s - mean)/std if std > 0 else s - mean |

- ``none_policy="zero"`` (NVlabs trl-0.18 fork): None -> reward 0 before any statistic.
- ``variant="nvlabs"`` with one reward (K = 1) is plain GRPO, as in the fork (GDPO only when K > 1);
  the other variants normalise a single reward the GDPO way (TRL 1.16 and verl do).
- ``batch_norm="whiten"`` (verl ``masked_whiten``): pass ``lengths`` (response token counts) to
  :meth:`GDPOCombiner.combine` for verl's token-weighted batch statistics (longer responses weigh more;
  variance with Bessel over the total token count); without lengths every rollout counts once.
  verl itself turns any NaN component into NaN advantages for the whole batch; here NaN is excluded.
  verl's token mean divides by (T + 1e-8), reproduced; a batch whose sums are all equal gets 0 here, where
  that 1e-8 leaves verl ~1e-4·s/T after the rsqrt(var + 1e-8) (the only deviation).
- ``baseline="loo"`` (NeMo-RL ``GDPOAdvantageEstimator``): b_i = mean of the *other* rollouts of the
  group, scale = unbiased std of the others, dividing (by std + eps) only where that std > 0.
- ``batch_norm="none"`` returns s_i (per-reward GRPO advantages summed; cf. MO-GRPO).
- "std > 0" / zero variance are decided by the shared constant rule (the values' range, not a computed std;
  see :mod:`polyreward.combiners.group_stats`). NeMo-RL computes the others' std as sqrt(E[r²] - E[r]²), which
  leaves ~1e-9 of float noise when the other rollouts are equal but not exactly representable (0.1, 1/3)
  and then divides by it (an advantage of ~1e6); here those others count as constant (the one deviation
  from that source).

Bounds (N scored rollouts of the batch): every batch-normalised variant |A| <= (N - 1)/sqrt(N); with
``lengths`` (whiten) |A| <= (T - 1)/sqrt(T), T the total token count; ``batch_norm="none"`` |A| <=
Σ_k |w_k| (n - 1)/sqrt(n) with the mean baseline (n valid rollouts of the group; leave-one-out has no
fixed bound: it divides by the std of the others).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.group_stats import (
    all_nan_rows,
    block_rows,
    centred_batch,
    group_unit_scale,
    is_constant,
    leave_one_out_moments,
    standardise_in_blocks,
    standardise_per_group,
    within_noise,
)
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import as_score_matrix, as_weights, check_choice, check_positive, to_output, widened
from polyreward.combiners.bounds import BatchFacts, z_bound

VARIANTS: dict[str, dict[str, Any]] = {
    "trl": {"none_policy": "exclude", "baseline": "mean", "eps": 1e-4, "singleton": "zero", "batch_norm": "sample"},
    "nvlabs": {"none_policy": "zero", "baseline": "mean", "eps": 1e-4, "singleton": "zero", "batch_norm": "sample"},
    "verl": {"none_policy": "exclude", "baseline": "mean", "eps": 1e-6, "singleton": "raw", "batch_norm": "whiten"},
    "nemo_rl": {"none_policy": "exclude", "baseline": "loo", "eps": 1e-6, "singleton": "zero", "batch_norm": "nonzero_std"},
}
BATCH_EPS = 1e-4  # TRL/NVlabs: added to the batch std
WHITEN_EPS = 1e-8  # verl masked_whiten: inside the rsqrt


class GDPOCombiner(GroupedCombiner):
    """Per-reward group normalisation, weighted sum, batch normalisation (TRL normalize_then_sum by default).

    Args:
        variant: whose conventions to follow: trl (TRL 1.16), nvlabs (the GDPO release), verl or nemo_rl
        eps: added to each standard deviation; null: the variant's
        none_policy: a None reward: exclude (out of every statistic, TRL) or zero (a reward of 0); null: the
            variant's
        baseline: what is subtracted per group: mean or loo (leave-one-out mean); null: the variant's
        singleton: a one-rollout group: zero (contributes 0) or raw (mean 0, std 1); null: the variant's
        batch_norm: the final batch normalisation: sample (mean, std + eps), whiten (verl) or nonzero_std; null: the
            variant's
    """

    type_name = "gdpo"
    exactness = "exact"
    reads_float32 = True  # float32 scores are widened one run of groups at a time (or whole, off the blocked path)
    description = "GDPO: per-reward group normalisation, weighted sum, batch norm (= TRL normalize_then_sum; nvlabs/verl/nemo_rl variants)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"variant": "nvlabs"}, {"variant": "verl"}, {"variant": "nemo_rl"}, {"batch_norm": "none"})
    reference_test = "tests/test_combiners_fidelity.py"  # the comparison with the source's code
    exactness_note = "exact (= TRL 1.16 `normalize_then_sum` to 1e-6)"
    summary = "per-reward group normalisation, weighted sum, batch normalisation"
    key_parameters = (
        "`variant`: trl \\| nvlabs (None → 0) \\| verl (eps 1e-6, a single-rollout group gets r/(1 + eps) as verl, "
        "token-weighted whitening via `combine(..., lengths=)`) \\| nemo_rl (leave-one-out baseline); each switch "
        "(`eps`, `none_policy`, `baseline`, `singleton`, `batch_norm`) overridable"
    )
    bound_text = (
        "(N − 1)/√N after the batch normalisation ((T − 1)/√T over T tokens for verl's whitening; K = 1 with "
        "`variant: nvlabs`: (n − 1)/√n)"
    )

    @classmethod
    def zero_for_constant_groups(cls, params: dict, k: int) -> bool:
        return params.get("variant", "trl") in ("trl", "nvlabs") or params.get("batch_norm") == "none"

    @classmethod
    def none_is_zero(cls, params: dict) -> bool:
        return params.get("none_policy") == "zero" or params.get("variant") == "nvlabs"

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        zn = z_bound(facts.n)
        if params.get("batch_norm") == "none":
            return facts.abs_w.sum() * zn
        if params.get("variant") == "nvlabs" and facts.k == 1:
            return zn
        return np.full_like(zn, z_bound(facts.T)) if params.get("variant") == "verl" else z_bound(facts.N)

    def __init__(
        self,
        variant: str = "trl",
        eps: float | None = None,
        none_policy: str | None = None,
        baseline: str | None = None,
        singleton: str | None = None,
        batch_norm: str | None = None,
    ) -> None:
        check_choice("variant", variant, tuple(VARIANTS))
        preset = VARIANTS[variant]
        self.variant = variant
        self.eps = float(preset["eps"] if eps is None else eps)
        self.none_policy = none_policy or preset["none_policy"]
        self.baseline = baseline or preset["baseline"]
        self.singleton = singleton or preset["singleton"]
        self.batch_norm = batch_norm or preset["batch_norm"]
        check_positive("eps", self.eps, allow_zero=True)
        check_choice("none_policy", self.none_policy, ("exclude", "zero"))
        check_choice("baseline", self.baseline, ("mean", "loo"))
        check_choice("singleton", self.singleton, ("zero", "raw"))
        check_choice("batch_norm", self.batch_norm, ("sample", "whiten", "nonzero_std", "none"))

    @property
    def uses_lengths(self) -> bool:
        """``batch_norm="whiten"`` weighs rollouts by token count: the scorer must hand it lengths everywhere."""
        return self.batch_norm == "whiten"

    def combine(self, scores: Any, groups: Any, weights: Any = None, *, lengths: Any = None) -> Any:
        """Advantages (N,); ``lengths`` (N,) token counts are used only by ``batch_norm="whiten"``."""
        if lengths is None:
            return super().combine(scores, groups, weights)
        matrix = as_score_matrix(scores)
        w = as_weights(weights, matrix.shape[1])
        token_counts = as_score_matrix(lengths)[:, 0]
        if len(token_counts) != len(matrix) or np.any(token_counts < 0):
            raise ValueError(f"lengths must be {len(matrix)} non-negative token counts, one per rollout")
        result = self.advantages_np(matrix, GroupIndex.from_ids(groups, len(matrix)), w, token_counts)
        return to_output(np.where(np.isnan(result), 0.0, result), scores)

    def advantages_np(
        self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray, lengths: np.ndarray | None = None
    ) -> np.ndarray:
        if self.none_policy == "zero":
            scores = np.nan_to_num(scores, nan=0.0)
        if self.variant == "nvlabs" and scores.shape[1] == 1:
            # The fork applies GDPO only when K > 1 (``apply_gdpo and len(reward_weights) > 1``);
            # one reward takes TRL 0.18's plain GRPO path: (w r - mean_G) / (std_G + eps).
            return standardise_per_group(scores[:, 0] * weights[0], index, self.eps, ddof=1, singleton=self.singleton)
        if self.baseline == "loo":
            scores = widened(scores)  # float32 scores (``reads_float32``) to float64 for every path but the blocked one
            per_reward = leave_one_out_advantages(scores, index, self.eps)
            unscorable, peak = all_nan_rows(scores), None
        elif index.starts is not None and index.n > block_rows(scores) and group_unit_scale(scores, index) is None:
            per_reward, unscorable, peak = _standardised_in_blocks(scores, index, self.eps, self.singleton)
        else:
            scores = widened(scores)
            per_reward = standardise_per_group(scores, index, self.eps, ddof=1, singleton=self.singleton)
            unscorable, peak = all_nan_rows(scores), None
        filled = per_reward  # a fresh array: NaN -> 0 in place (the blocked path did it already)
        if peak is None:
            np.copyto(filled, 0.0, where=np.isnan(filled))
        summed = filled @ weights  # on the whole matrix: a BLAS product's rounding of a row depends on the rows around it
        summed[unscorable] = np.nan
        abs_w = float(np.abs(weights).sum())
        return batch_normalise(summed, self.batch_norm, lengths, terms=lambda: np.abs(filled) @ np.abs(weights),
                               terms_bound=lambda: abs_w * (max_magnitude(filled) if peak is None else peak))


def _standardised_in_blocks(scores: np.ndarray, index: GroupIndex, eps: float, singleton: str):
    """(Â with NaN -> 0, the rows without any score, max |Â|) of contiguous groups, each run of whole groups
    standardised, zero-filled and measured while it is in cache (:func:`standardise_in_blocks`); the same bits as
    :func:`standardise_per_group`, :func:`all_nan_rows` and :func:`max_magnitude` on the whole batch."""
    unscorable = np.empty(len(scores), dtype=bool)
    extremes = [0.0]

    def finish(lo: int, hi: int, z: np.ndarray) -> None:
        np.copyto(z, 0.0, where=np.isnan(z))
        extremes.append(max_magnitude(z))
        unscorable[lo:hi] = all_nan_rows(scores[lo:hi])

    per_reward = standardise_in_blocks(scores, index, eps, ddof=1, singleton=singleton, then=finish)
    return per_reward, unscorable, max(extremes)


def leave_one_out_advantages(scores: np.ndarray, index: GroupIndex, eps: float) -> np.ndarray:
    """NeMo-RL: (r_i - mean of the others) / (unbiased std of the others + eps), the division only where
    that std > 0 — "> 0" decided by the shared constant rule, so others equal up to float noise (the source's
    subtraction from the group total leaves ~1e-9 there and divides by it) give the undivided difference."""
    columns = []
    for k in range(scores.shape[1]):
        x = scores[:, k]
        n, centred, others_std = leave_one_out_moments(x, index)
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = np.where(others_std > 0, centred / (others_std + eps), centred)
        columns.append(np.where(n > 1, scaled, np.where(np.isnan(x), np.nan, 0.0)))
    return np.column_stack(columns) if columns else np.zeros_like(scores)


def max_magnitude(x: np.ndarray) -> float:
    """The largest |x| of a NaN-free array, from its extremes (no |x| array)."""
    if not x.size:
        return 0.0
    return max(abs(float(np.fmax.reduce(x, axis=None))), abs(float(np.fmin.reduce(x, axis=None))))


def batch_normalise(
    summed: np.ndarray, mode: str, lengths: np.ndarray | None = None, terms: Any = None, terms_bound: Any = None
) -> np.ndarray:
    """Batch-level normalisation of the summed advantages (NaN rows excluded and kept NaN).

    ``terms`` (N,) = Σ_k |w_k Â_ik| (0 on a row whose sum is NaN), the size of what was summed: sums that cancel (r and 1 - r, weights
    1 and 1) leave values of ~1e-16 whose own range says nothing, so the batch counts as constant (A = 0)
    when its range is float noise relative to the terms (the shared constant rule) -- without it
    ``nonzero_std`` divides that noise by its own std and returns advantages of order 1.

    ``terms`` may be a function computing them, with ``terms_bound`` a function giving an upper bound of their
    maximum (Σ_k |w_k| · max |Â|, one pass without temporaries): when the range exceeds the noise level of twice
    that bound (float rounding of the terms is far below a factor 2), it exceeds the terms' own and they are never
    computed -- the usual case.
    """
    if mode == "none":
        return summed
    if terms is not None:
        valid = ~np.isnan(summed)
        # the valid rows' range and largest term without copying them out: fmax/fmin skip NaN, and a row left out has
        # terms 0 (every |Â| filled with 0) while terms are >= 0, so the maximum over all rows is the valid rows' one
        spread = np.fmax.reduce(summed) - np.fmin.reduce(summed) if valid.any() else np.nan
        decided = callable(terms) and terms_bound is not None and not within_noise(spread, 2.0 * terms_bound())
        if valid.any() and not decided:
            peak = float((terms() if callable(terms) else terms).max())
            if within_noise(spread, peak):
                return np.where(valid, 0.0, np.nan)
    if mode == "whiten":
        valid = ~np.isnan(summed)
        weight = np.ones_like(summed) if lengths is None else lengths.astype(np.float64)
        weight = np.where(valid, weight, 0.0)
        total = weight.sum()
        if total <= 1:
            return np.full_like(summed, np.nan)
        x = np.where(valid, summed, 0.0)
        if is_constant(summed[weight > 0]):
            return np.where(valid, 0.0, np.nan)
        # verl masked_mean divides by (mask.sum() + 1e-8); masked_var then applies Bessel's T/(T - 1)
        mean = (weight * x).sum() / (total + WHITEN_EPS)
        var = (weight * (x - mean) ** 2).sum() / (total + WHITEN_EPS) * total / (total - 1)
        return (summed - mean) / np.sqrt(var + WHITEN_EPS)
    centred, std = centred_batch(summed)
    if mode == "nonzero_std":
        return centred / std if std > 0 else centred
    if len(summed) == 1 or np.isnan(std):  # TRL: a batch of one row has std 0
        std = 0.0
    return centred / (std + BATCH_EPS)
