"""What every combiner does to its inputs and output: scores to an (N, K) float64 matrix (``inf`` refused, NaN kept
as "not applicable"), weights to a length-K vector, token counts to an (N,) vector, the result back into the container
type of the scores (numpy stays numpy in its float dtype; a torch tensor comes back a tensor on its device and dtype),
and the checks of a combiner's parameters.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

import numpy as np

# The last float64 matrix this thread made from float32 scores (a private copy no caller sees or changes): its values
# are float32 values, so |x| < 2**128 and any non-zero |x| >= 2**-149, which decides the overflow and unit-scale
# checks (:func:`from_float32`) without a pass over the matrix.
_FLOAT32_ORIGIN = threading.local()


def check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


def check_positive(name: str, value: float, allow_zero: bool = False) -> None:
    ok = value >= 0 if allow_zero else value > 0
    if not (isinstance(value, (int, float)) and np.isfinite(value) and ok):
        raise ValueError(f"{name} must be a finite number {'>= 0' if allow_zero else '> 0'}, got {value!r}")


def is_torch(x: Any) -> bool:
    """A torch tensor (read from its type, so torch is never imported here)."""
    return type(x).__module__.startswith("torch") and hasattr(x, "detach")


def as_score_matrix(scores: Any, keep_float32: bool = False, remember_extremes: bool = False) -> np.ndarray:
    """(N, K) float64 copy of scores (1-D -> K = 1); raises ValueError on inf or a bad shape.

    ``keep_float32``: float32 scores (numpy or torch) come back as an (N, K) float32 array, not widened (a view of
    the caller's memory, never written to): for a combiner that widens what it needs itself (``reads_float32``).
    ``remember_extremes``: a float64 matrix's extremes, found by the inf check, are kept for one read by
    :func:`extremes` (the overflow check of the same call; :func:`forget_extremes` when the call ends)."""
    forget_extremes()
    _EXTREMES.wanted = remember_extremes
    if is_torch(scores):
        tensor = scores.detach().to("cpu")
        if str(tensor.dtype) == "torch.float32":
            # float32 -> float64 is exact either way; numpy's conversion is ~2x torch's single-threaded one; inf is
            # looked for in the float32 values (half the bytes, the same cells)
            narrow = _as_matrix(tensor.numpy())
            _refuse_inf(narrow)
            return narrow if keep_float32 else _widened(narrow)
        arr = tensor.double().numpy()
    elif isinstance(scores, np.ndarray) and scores.dtype == np.float32:  # the same for a float32 numpy array
        narrow = _as_matrix(scores)
        _refuse_inf(narrow)
        return narrow if keep_float32 else _widened(narrow)
    else:
        try:
            arr = np.asarray(scores, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"scores must be numeric (None/NaN for not applicable): {exc}") from None
    arr = _as_matrix(arr)
    _refuse_inf(arr)
    return arr


def widened(narrow: np.ndarray) -> np.ndarray:
    """float64 scores as they are; float32 ones as their float64 copy (exact), remembered as float32 values."""
    return narrow if narrow.dtype == np.float64 else _widened(narrow)


def _widened(narrow: np.ndarray) -> np.ndarray:
    """The float64 copy of float32 scores, remembered as holding float32 values (:func:`from_float32`)."""
    wide = narrow.astype(np.float64)
    _FLOAT32_ORIGIN.matrix = weakref.ref(wide)
    return wide


def from_float32(x: np.ndarray) -> bool:
    """Are all of ``x``'s values float32 values: a float32 array, or the float64 matrix :func:`as_score_matrix` just
    made from float32 scores?"""
    if x.dtype == np.float32:
        return True
    ref = getattr(_FLOAT32_ORIGIN, "matrix", None)
    return ref is not None and ref() is x


def _as_matrix(arr: np.ndarray) -> np.ndarray:
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"scores must be (N, K) or (N,), got shape {arr.shape}")
    return arr


def extremes(x: np.ndarray) -> tuple[float, float]:
    """(largest, smallest) value of ``x`` ignoring NaN (NaN, NaN when there is none; ``x`` not empty): two fast passes,
    or none for the matrix :func:`as_score_matrix` has just checked, which remembers them for one read."""
    ref = getattr(_EXTREMES, "matrix", None)
    forget_extremes()
    if ref is not None and ref() is x:
        return _EXTREMES.values
    return float(np.fmax.reduce(x, axis=None)), float(np.fmin.reduce(x, axis=None))


def forget_extremes() -> None:
    """Drop what :func:`as_score_matrix` remembered (a float64 matrix may be the caller's array, changed later)."""
    _EXTREMES.matrix = None
    _EXTREMES.wanted = False


# The extremes of the float64 matrix this thread has just checked for inf (scores handed over as float64), for one read
# by the overflow check of the same call (:func:`extremes`) instead of a second pass over the matrix.
_EXTREMES = threading.local()


def _refuse_inf(arr: np.ndarray) -> None:
    """ValueError naming the first inf cell of an (N, K) array (row, column) and how many there are."""
    if arr.size:  # inf among the values <=> an infinite extreme (fmax and fmin skip NaN); kept for the overflow check
        high, low = float(np.fmax.reduce(arr, axis=None)), float(np.fmin.reduce(arr, axis=None))
        if arr.dtype == np.float64 and getattr(_EXTREMES, "wanted", False):
            _EXTREMES.matrix, _EXTREMES.values = weakref.ref(arr), (high, low)
        if high != np.inf and low != -np.inf:
            return
    infinite = np.isinf(arr)
    if infinite.any():
        row, col = np.argwhere(infinite)[0]
        raise ValueError(
            f"scores contain inf ({int(infinite.sum())} cells, first at row {row}, column {col}); "
            "use NaN/None for 'not applicable' and keep rewards finite"
        )


def as_weights(weights: Any, k: int) -> np.ndarray:
    if weights is None:
        return np.ones(k)
    if is_torch(weights):
        weights = weights.detach().cpu().numpy()
    w = np.asarray(weights, dtype=np.float64).reshape(-1)
    if len(w) != k:
        raise ValueError(f"weights has length {len(w)} but scores have {k} reward column(s); give one weight per reward")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"weights must be finite, got {w.tolist()}")
    return w


def to_output(result: np.ndarray, like: Any) -> Any:
    """Advantages in the container type of the input scores (numpy/torch, same device and float dtype)."""
    if is_torch(like):
        import torch

        dtype = like.dtype if like.is_floating_point() else torch.get_default_dtype()
        return torch.from_numpy(np.ascontiguousarray(result)).to(device=like.device, dtype=dtype)
    if isinstance(like, np.ndarray) and like.dtype.kind == "f":
        return result.astype(like.dtype, copy=False)
    return result


def as_token_counts(lengths: Any, n: int) -> np.ndarray:
    """(N,) float64 token counts from ``lengths`` (list, numpy or torch); ValueError unless N finite values >= 0."""
    counts = as_score_matrix(lengths)[:, 0] if np.size(lengths) else np.zeros(0)
    if len(counts) != n or np.isnan(counts).any() or np.any(counts < 0):
        raise ValueError(f"lengths must be {n} non-negative token counts, one per rollout")
    return counts
