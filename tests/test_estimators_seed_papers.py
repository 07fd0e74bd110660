"""Estimators from seed papers with public code, against that code re-typed in torch (float64) on the generated
batches of ``combiner_batches`` (group sizes 1-33, non-dyadic constant groups, NaN cells, zero/negative weights).

- KRPO: billhhh/KRPO_LLMs_RL ``train.py`` ``KalmanFilter`` + ``group_advantages`` (one fresh filter per group, the
  group's rewards in row order); the source has no None rewards, so a row where none applies is compared as absent.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combiner_batches import reward_batches
from polyreward.combiners import KRPOCombiner

torch = pytest.importorskip("torch")

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None, database=None)


class SourceKalmanFilter:
    """The release's ``KalmanFilter`` (x = 0, P = 1 at the start), in float64."""

    def __init__(self, process_var: float, meas_var: float) -> None:
        self.Q, self.R = process_var, meas_var
        self.x = torch.tensor(0.0, dtype=torch.float64)
        self.P = torch.tensor(1.0, dtype=torch.float64)

    def update(self, z):
        predicted = self.P + self.Q
        gain = predicted / (predicted + self.R)
        self.x = self.x + gain * (z - self.x)
        self.P = (1 - gain) * predicted
        return self.x, self.P


def source_group_advantages(returns, process_var=1e-5, meas_var=1e-2, eps=1e-8):
    """The release's ``group_advantages`` on one group's returns."""
    kf = SourceKalmanFilter(process_var, meas_var)
    out = []
    for r in torch.as_tensor(np.asarray(returns, dtype=np.float64)).flatten():
        mean, var = kf.update(r)
        out.append((r - mean) / (torch.sqrt(var) + eps))
    return torch.stack(out).numpy() if out else np.zeros(0)


def source_krpo(total, groups, **kwargs):
    """The release's training loop calls ``group_advantages`` once per question on its rollouts in order."""
    out = np.zeros(len(total))
    for g in np.unique(groups):
        rows = np.flatnonzero((groups == g) & ~np.isnan(total))
        out[rows] = source_group_advantages(total[rows], **kwargs)
    return out


@SETTINGS
@given(batch=reward_batches(), noise=st.sampled_from([{}, {"process_var": 1e-3, "meas_var": 0.5}, {"process_var": 0.0, "meas_var": 1.0}]))
def test_krpo_equals_the_release(batch, noise):
    total = np.where(np.all(np.isnan(batch.scores), axis=1), np.nan, np.nan_to_num(batch.scores) @ batch.weights)
    ours = KRPOCombiner(**noise).combine(batch.scores, batch.groups, batch.weights)
    np.testing.assert_allclose(ours, source_krpo(total, batch.groups, **noise), atol=1e-9, rtol=1e-9)


def test_krpo_depends_on_rollout_order_and_is_not_zero_on_a_constant_group():
    ours = KRPOCombiner().combine([1.0, 0.0, 0.0, 1.0], [0, 0, 0, 0])
    swapped = KRPOCombiner().combine([0.0, 1.0, 1.0, 0.0], [0, 0, 0, 0])
    assert not np.allclose(ours, swapped[::-1])  # the filter reads rows in order
    constant = KRPOCombiner().combine([0.7] * 5, [0] * 5)
    assert np.all(constant > 0) and constant[0] == pytest.approx(0.7 * 0.0995, rel=1e-2)
