"""Seeded inputs of the bit-identity test of the combiners (tests/test_combiners_bit_identical.py).

``tests/data/combiner_golden.npz`` holds every registered combiner's advantages on these cases, computed with the
code before the speed work of issue #35 (the vectorised group ids, the incremental DRPO history). The test recomputes
them and asserts the bytes are equal, so any change of rounding shows up, not only a change beyond a tolerance.
Regenerate (only when an output is meant to change) with ``python tests/combiner_golden_cases.py``.

A case: group sizes that are not powers of two (1, 3, 5, 7, 12, 33 ...), NaN cells and whole NaN rows, constant
groups of non-dyadic values (0.1, 1/3), K = 1-4, ids as numpy ints (contiguous and shuffled), Python strings,
floats, mixed int/str and torch tensors, scores as float64, float32 and torch tensors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

GOLDEN = Path(__file__).parent / "data" / "combiner_golden.npz"
NON_DYADIC = (0.1, 1 / 3, 0.7, 2.3, -0.6, 0.2, 1 / 7)
DOMAINS = ("medqa", "medmcqa", "pubmedqa")
# extra configurations beside each combiner's defaults
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "grpo": [{"scale": "batch"}, {"scale": "none"}, {"singleton": "raw", "eps": 1e-6}],
    "gdpo": [{"variant": "nvlabs"}, {"variant": "verl"}, {"variant": "nemo_rl"}, {"batch_norm": "none"}],
}
ID_KINDS = ("int", "shuffled_int", "str", "float", "mixed", "torch", "torch_shuffled")
SCORE_KINDS = ("float64", "float32", "torch32", "torch64")


def case_list() -> list[tuple[int, str, str]]:
    """(seed, id kind, score kind): every id kind and score kind, over 14 seeds."""
    cases = []
    for seed in range(14):
        cases.append((seed, ID_KINDS[seed % len(ID_KINDS)], SCORE_KINDS[seed % len(SCORE_KINDS)]))
    return cases


def make_case(seed: int, id_kind: str, score_kind: str) -> dict[str, Any]:
    rng = np.random.default_rng(1000 + seed)
    n_groups = int(rng.integers(1, 9))
    sizes = rng.choice([1, 2, 3, 5, 6, 7, 8, 12, 33], n_groups)
    k = int(rng.integers(1, 5))
    codes = np.repeat(np.arange(n_groups), sizes)
    n = len(codes)
    kind = ("binary", "fractions", "continuous")[seed % 3]
    if kind == "binary":
        scores = rng.integers(0, 2, (n, k)).astype(float)
    elif kind == "fractions":
        scores = rng.integers(0, 8, (n, k)) / 7 + rng.integers(0, 3, (n, k)) * 0.1
    else:
        scores = rng.normal(size=(n, k)) * 2.0 + 0.5
    scores[rng.random((n, k)) < (0.0, 0.1, 0.3)[seed % 3]] = np.nan
    if n > 3 and seed % 2:
        scores[int(rng.integers(0, n))] = np.nan  # a row with no reward at all
    for g in rng.permutation(n_groups)[: int(rng.integers(0, n_groups + 1))]:  # constant groups
        scores[codes == g] = rng.choice(NON_DYADIC, k)
    order = np.arange(n)
    if id_kind in ("shuffled_int", "torch_shuffled", "mixed"):
        order = rng.permutation(n)  # groups not contiguous
    codes, scores = codes[order], scores[order]
    labels = rng.permutation(10_000)[:n_groups] - 17  # negative and positive, not in order
    groups: Any
    if id_kind in ("int", "shuffled_int"):
        groups = labels[codes].astype(np.int64)
    elif id_kind == "str":
        groups = [f"q{labels[c]}" for c in codes]
    elif id_kind == "float":
        groups = [float(labels[c]) + (0.5 if c % 2 else 0.0) for c in codes]
    elif id_kind == "mixed":
        groups = [int(labels[c]) if c % 2 else f"p{labels[c]}" for c in codes]
    else:
        import torch

        groups = torch.as_tensor(labels[codes].astype(np.int64))
    weights = np.round(rng.choice([1.0, 0.7, 2.5, 0.0, -0.3, 0.2], k), 2)
    extra = {
        "domain": np.asarray(DOMAINS, dtype=object)[codes % len(DOMAINS)],
        "reference_reward": np.nan_to_num(scores) @ np.abs(weights) - 0.1,
        "entropy": 0.2 + rng.random(n),
        "lengths": rng.integers(1, 300, n).astype(np.float64),
        # drawn last so that every value drawn before it (the golden file's inputs) stays the same
        "exit_position": rng.integers(1, 600, n).astype(np.float64),
    }
    raw = scores
    if score_kind == "float32":
        scores = scores.astype(np.float32)
    elif score_kind.startswith("torch"):
        import torch

        scores = torch.as_tensor(scores, dtype=torch.float32 if score_kind == "torch32" else torch.float64)
    return {"scores": scores, "raw": raw, "groups": groups, "weights": weights, "extra": extra}


def configurations() -> list[tuple[str, str, dict[str, Any]]]:
    """(key, registered name, params): every registered combiner with its defaults, plus :data:`VARIANTS`."""
    from polyreward import registry

    out = []
    for name in registry.combiner_types():
        out.append((name, name, {}))
        for i, params in enumerate(VARIANTS.get(name, [])):
            out.append((f"{name}#{i}", name, params))
    return out


def run(name: str, params: dict[str, Any], case: dict[str, Any]) -> np.ndarray | None:
    """The combiner's advantages on the case as float64 numpy (None when the combiner refuses the case's shape)."""
    from polyreward import registry

    combiner = registry.build_combiner({"type": name, **params})
    scores = case["scores"]
    if name == "papo":  # outcome and process: K = 2
        if np.shape(scores)[1] < 2:
            return None
        scores, weights = scores[:, :2], case["weights"][:2]
    else:
        weights = case["weights"]
    extra = {c: case["extra"][c] for c in getattr(combiner, "row_columns", ())}
    if getattr(combiner, "uses_lengths", False):
        extra["lengths"] = case["extra"]["lengths"]
    out = combiner.combine(scores, case["groups"], weights, **extra)
    if hasattr(out, "detach"):
        out = out.detach().cpu().numpy()
    return np.asarray(out)


def golden_outputs() -> dict[str, np.ndarray]:
    """Every (configuration, case) output, keyed ``config|seed``; DRPO also over the cases in sequence (its history)."""
    from polyreward import registry

    out: dict[str, np.ndarray] = {}
    cases = [(seed, make_case(seed, ids, kind)) for seed, ids, kind in case_list()]
    for key, name, params in configurations():
        for seed, case in cases:
            result = run(name, params, case)
            if result is not None:
                out[f"{key}|{seed}"] = result
    drpo = registry.build_combiner("drpo")
    for seed, case in cases:  # one combiner: each call clusters over the questions of every earlier case too
        out[f"drpo-sequence|{seed}"] = np.asarray(drpo.combine(case["raw"], case["groups"] if not hasattr(case["groups"], "numpy") else case["groups"].numpy(), case["weights"], domain=case["extra"]["domain"]))
    return out


if __name__ == "__main__":
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    outputs = golden_outputs()
    np.savez_compressed(GOLDEN, **outputs)
    print(f"{len(outputs)} outputs -> {GOLDEN}")
