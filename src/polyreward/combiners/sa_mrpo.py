"""SA-MRPO: saturation-aware advantage reweighting for multi-reward policy optimisation.

Source: the SA-MRPO abstract; formula from NVlabs/GDPO @41f74c5 (SA-GDPO). RECONSTRUCTED:
the SA-MRPO paper could not be read; its abstract ("standardizes each
reward objective independently and adaptively discounts its contribution according to a batch-level
estimate of objective saturation") matches the SA-GDPO code of NVlabs/GDPO @41f74c5 almost word for word,
so the formula is SA-GDPO's (see :mod:`polyreward.combiners.sa_gdpo`):

    Â^k_i = (r^k_i - mean_G r^k) / (std_G r^k + 1e-4)
    s_k   = clip((m_k - r_min,k) / max(r_max,k - r_min,k, 1e-4), 0, 1)
    w'_k  = w_k (1 - s_k)^γ ;   A_i = BN_B(Σ_k w'_k Â^k_i)   (batch mean/std, eps 1e-4; ``batch_norm``)

What makes it a separate, stateful method (assumptions, all configurable):
- the saturation estimate m_k may be smoothed across steps: m_k ← momentum·m_k + (1 - momentum)·mean_B r^k
  (``momentum=0``: the current batch's mean only). That alone does not make it SA-GDPO: with ``momentum=0`` the
  two agree for K >= 2 rewards when ``reward_mins``/``reward_maxs`` are given (or on the first batch), but not
  for one reward (SA-GDPO then takes the fork's plain GRPO path, without saturation weighting or batch
  normalisation; here the one reward is weighted and batch-normalised: groups (1, 0, 0) and (1, 0, 1) give a top
  advantage of 1.29 here and 1.15 from SA-GDPO) nor
  from the second batch on without given ranges (the running min/max below, where SA-GDPO reads the batch's own);
- without ``reward_mins`` / ``reward_maxs``, the range of each objective is the running min/max of every
  batch seen so far (not just the current one), so saturation is judged against the history;
- γ = 1 and batch normalisation on by default (open questions in the reference).
The state (steps, smoothed means, running min/max) lives in :meth:`state_dict` / :meth:`load_state_dict`
(JSON-serialisable) and is updated with the current batch before its advantages are computed.
Bound: |A| <= (N - 1)/sqrt(N) with batch_norm (N scored rollouts), else Σ_k |w_k| (n - 1)/sqrt(n).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from polyreward.combiners.group_index import GroupIndex
from polyreward.combiners.grouped import GroupedCombiner
from polyreward.combiners.inputs import check_positive
from polyreward.combiners.bounds import BatchFacts, z_bound
from polyreward.combiners.sa_gdpo import (
    batch_range,
    check_range,
    column_means,
    range_for,
    saturation,
    saturation_weighted_advantages,
)

STATE_KEYS = ("steps", "mean", "observed_min", "observed_max")


class SaturationAwareCombiner(GroupedCombiner):
    """Per-objective standardisation discounted by (smoothed) batch saturation; carries state across steps.

    Args:
        gamma: exponent of the saturation discount (1 - s_k)^gamma
        reward_mins: the known minimum of each reward, one per reward in config order; null: the running minimum
        reward_maxs: the known maximum of each reward, one per reward in config order; null: the running maximum
        momentum: smoothing of each objective's saturation estimate across steps; 0 uses the current batch only
        batch_norm: normalise the weighted sum over the batch (mean and std) at the end
    """

    type_name = "sa_mrpo"
    exactness = "reconstructed"
    description = "SA-MRPO: per-objective standardisation discounted by a running batch-saturation estimate (SA-GDPO form)"

    # facts the shared tests and the generated docs read (declared on :class:`~polyreward.combiner.Combiner`)
    example_params = ({}, {"momentum": 0.5}, {"batch_norm": False})
    exactness_note = "reconstructed, **stateful**"
    summary = "SA-GDPO with a smoothed saturation estimate and running reward ranges"
    key_parameters = "`gamma` 1, `momentum` 0, `reward_mins`/`reward_maxs`, `batch_norm` true"
    bound_text = "(N − 1)/√N after the batch normalisation (Σ\\|w_k\\|·(n − 1)/√n without it)"

    @classmethod
    def shift_invariant(cls, params: dict, k: int, column: int) -> bool:
        return False  # batch levels

    @classmethod
    def advantage_bound(cls, params: dict, facts: BatchFacts) -> np.ndarray | None:
        return z_bound(facts.N) if params.get("batch_norm", True) else facts.abs_w.sum() * z_bound(facts.n)

    def __init__(
        self,
        gamma: float = 1.0,
        reward_mins: Sequence[float] | None = None,
        reward_maxs: Sequence[float] | None = None,
        momentum: float = 0.0,
        batch_norm: bool = True,
    ) -> None:
        check_positive("gamma", gamma, allow_zero=True)
        if not (0.0 <= float(momentum) < 1.0):
            raise ValueError(f"momentum must be in [0, 1), got {momentum!r}")
        self.gamma = float(gamma)
        self.reward_mins = check_range("reward_mins", reward_mins)
        self.reward_maxs = check_range("reward_maxs", reward_maxs)
        self.momentum = float(momentum)
        self.batch_norm = bool(batch_norm)
        self._state: dict[str, Any] = {"steps": 0, "mean": None, "observed_min": None, "observed_max": None}

    def advantages_np(self, scores: np.ndarray, index: GroupIndex, weights: np.ndarray) -> np.ndarray:
        k = scores.shape[1]
        self._check_width(k)
        mins = range_for("reward_mins", self.reward_mins, k)
        maxs = range_for("reward_maxs", self.reward_maxs, k)
        batch_min, batch_max = batch_range(scores)
        batch_mean = column_means(scores)

        state = self._state
        if state["steps"] == 0:
            mean, seen_min, seen_max = batch_mean, batch_min, batch_max
        else:
            previous = np.asarray(state["mean"], dtype=np.float64)
            mean = np.where(np.isnan(previous), batch_mean, self.momentum * previous + (1 - self.momentum) * batch_mean)
            mean = np.where(np.isnan(batch_mean), previous, mean)
            seen_min = np.minimum(np.asarray(state["observed_min"]), batch_min)
            seen_max = np.maximum(np.asarray(state["observed_max"]), batch_max)
        self._state = {
            "steps": state["steps"] + 1,
            "mean": [None if np.isnan(m) else float(m) for m in mean],
            "observed_min": [float(v) for v in seen_min],
            "observed_max": [float(v) for v in seen_max],
        }
        level = saturation(mean, seen_min if mins is None else mins, seen_max if maxs is None else maxs)
        return saturation_weighted_advantages(scores, index, weights, level, self.gamma, self.batch_norm)

    @property
    def saturation_levels(self) -> list[float] | None:
        """s_k used for the last batch (None before the first call)."""
        if self._state["steps"] == 0:
            return None
        k = len(self._state["mean"])
        mean = np.array([np.nan if m is None else m for m in self._state["mean"]])
        mins = range_for("reward_mins", self.reward_mins, k)
        maxs = range_for("reward_maxs", self.reward_maxs, k)
        level = saturation(
            mean,
            np.asarray(self._state["observed_min"]) if mins is None else mins,
            np.asarray(self._state["observed_max"]) if maxs is None else maxs,
        )
        return level.tolist()

    def _check_width(self, k: int) -> None:
        if self._state["steps"] and len(self._state["mean"]) != k:
            raise ValueError(f"{type(self).__name__} state tracks {len(self._state['mean'])} rewards but scores have {k} columns")

    def state_dict(self) -> dict[str, Any]:
        return {key: (list(value) if isinstance(value, list) else value) for key, value in self._state.items()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        missing = [key for key in STATE_KEYS if key not in state]
        extra = sorted(set(state) - set(STATE_KEYS))
        if missing or extra:
            raise ValueError(f"SA-MRPO state needs keys {list(STATE_KEYS)}; missing {missing}, unexpected {extra}")
        steps = int(state["steps"])
        if steps < 0:
            raise ValueError(f"SA-MRPO state 'steps' must be >= 0, got {steps}")
        lengths = {len(state[key]) for key in STATE_KEYS[1:] if state[key] is not None}
        if steps and (len(lengths) != 1 or any(state[key] is None for key in STATE_KEYS[1:])):
            raise ValueError("SA-MRPO state lists 'mean', 'observed_min', 'observed_max' must have one value per reward")
        self._state = {key: (list(state[key]) if isinstance(state[key], list) else state[key]) for key in STATE_KEYS}
        self._state["steps"] = steps
