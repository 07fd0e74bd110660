"""The file summary folded part by part (polyreward.runners.file_summary): exact, so the same figures for any cut of
the rows; equal to the whole-matrix summary; memory of the join flat in rows."""

from __future__ import annotations

import json
import math
import tracemalloc
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward.config import Config
from polyreward.runners.file_summary import SUM_SCALE, FileSummary, Moments, exact_sums
from polyreward.runners.parts import PartStore
from polyreward.runners.score_file import score_file
from polyreward.vocabulary import ScoredBatch, weighted_total

any_finite = st.floats(allow_nan=False, allow_infinity=False)
score = st.one_of(st.floats(-10, 10, allow_nan=False), st.just(math.nan), st.sampled_from([0.0, -0.0, 1.0, 0.1, 1e-300, 5e-324]))


extreme = st.sampled_from([1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -5e-324, 2.2250738585072014e-308,
                           0.0, -0.0, 1.0, 0.1, -0.5, 2.0 ** 52 + 1, 1e-300])


@given(st.lists(st.one_of(any_finite, extreme), max_size=60))
def test_exact_sums_equal_the_fraction_sums(values):
    for array in (np.asarray(values, dtype=np.float64), np.asarray(values * 3, dtype=np.float64)):  # one by one / numpy
        total, squares = exact_sums(array)
        assert Fraction(total, 2 ** SUM_SCALE) == sum(map(Fraction, array.tolist()), Fraction(0))
        assert Fraction(squares, 2 ** (2 * SUM_SCALE)) == sum((Fraction(v) ** 2 for v in array.tolist()), Fraction(0))


whole = st.one_of(st.integers(-(2 ** 16) + 1, 2 ** 16 - 1).map(float), st.sampled_from([0.0, -0.0, 1.0, 65536.0, -65536.0, 0.5]))


@given(st.lists(whole, min_size=49, max_size=200))
def test_exact_sums_of_whole_numbers_equal_the_fraction_sums(values):
    """Whole numbers below 2**16 take the int64 sums (a 0.5 or a 65536 among them: the general path); both exact."""
    array = np.asarray(values, dtype=np.float64)
    total, squares = exact_sums(array)
    assert Fraction(total, 2 ** SUM_SCALE) == sum(map(Fraction, values), Fraction(0))
    assert Fraction(squares, 2 ** (2 * SUM_SCALE)) == sum((Fraction(v) ** 2 for v in values), Fraction(0))


def test_exact_sums_of_many_equal_values_do_not_overflow():
    for value in (0.9999999999999999, -0.9999999999999999, 1.7976931348623157e308, 65535.0, -65535.0):
        total, squares = exact_sums(np.full(70_000, value))
        assert Fraction(total, 2 ** SUM_SCALE) == 70_000 * Fraction(value)
        assert Fraction(squares, 2 ** (2 * SUM_SCALE)) == 70_000 * Fraction(value) ** 2


def cuts(draw_sizes: list[int], n: int) -> list[tuple[int, int]]:
    """Consecutive slices of n rows of the given (cycled) sizes."""
    out, start, i = [], 0, 0
    while start < n:
        size = draw_sizes[i % len(draw_sizes)]
        out.append((start, min(n, start + size)))
        start += size
        i += 1
    return out


def figures(moments: Moments) -> tuple:
    return (moments.count, moments.nan, moments.valid, moments.mean(), moments.std(), moments.sample_std(),
            moments.sample_std(finite_only=True), moments.constant())


def same(a: tuple, b: tuple) -> bool:
    return all((x == y and math.copysign(1, x) == math.copysign(1, y)) if isinstance(x, float) and not math.isnan(x)
               else (isinstance(y, float) and math.isnan(y)) if isinstance(x, float) else x == y for x, y in zip(a, b))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(score, min_size=0, max_size=80), st.lists(st.integers(1, 13), min_size=1, max_size=5),
       st.randoms(use_true_random=False))
def test_moments_do_not_depend_on_the_cut_or_the_order(values, sizes, random):
    whole = Moments().add(np.asarray(values))
    folded = Moments()
    for start, end in cuts(sizes, len(values)):
        folded.add(np.asarray(values[start:end]))
    shuffled = list(values)
    random.shuffle(shuffled)
    assert same(figures(whole), figures(folded))
    assert same(figures(whole), figures(Moments().add(np.asarray(shuffled))))
    finite = [v for v in values if not math.isnan(v)]
    if finite:  # the mean is the exact mean rounded once; numpy's pairwise mean is within a few units of the largest
        # term of it (not of the mean: [0.4, 0.1, -0.5] has the exact mean 9.25e-18, numpy's is 0.0)
        assert whole.mean() == float(sum(map(Fraction, finite)) / len(finite))
        assert whole.mean() == pytest.approx(float(np.mean(finite)), rel=1e-12, abs=1e-14 * max(map(abs, finite)) + 1e-300)
    if len(finite) > 1:
        assert whole.std() == pytest.approx(float(np.std(finite, ddof=1)), rel=1e-9, abs=1e-12)


def test_moments_with_infinities_follow_numpy():
    big = Moments().add(np.array([1.7e308, -1.7e308]))
    assert big.mean() == 0.0 and big.std() == math.inf
    for values in ([math.inf, 1.0], [-math.inf, 2.0, 3.0], [math.inf, -math.inf], [math.inf]):
        moments = Moments().add(np.asarray(values))
        with np.errstate(invalid="ignore"):
            assert same((moments.mean(),), (float(np.mean(values)),))
            if len(values) > 1:
                assert math.isnan(moments.std()) and math.isnan(float(np.std(values, ddof=1)))


def old_stats(values: np.ndarray) -> tuple[str, str, str, str]:
    """The CLI summary's figures as computed from the whole column before the summary was folded (numpy)."""
    finite = values[~np.isnan(values)]
    if finite.size == 0:
        return str(values.size), "-", "-", str(values.size)
    std = float(np.std(finite, ddof=1)) if finite.size > 1 else 0.0
    return str(values.size), f"{float(np.mean(finite)):.4f}", f"{std:.4f}", str(int(values.size - finite.size))


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3).flatmap(lambda k: st.tuples(
           st.just(k), st.lists(st.lists(score, min_size=k, max_size=k), min_size=1, max_size=60),
           st.lists(st.floats(-3, 3, allow_nan=False), min_size=k, max_size=k))),
       st.lists(st.integers(1, 17), min_size=1, max_size=4), st.integers(1, 4))
def test_folded_summary_equals_the_whole_matrix_summary(case, sizes, distinct):
    from polyreward.cli.score import _stats

    k, rows, weights = case
    scores = np.asarray(rows, dtype=np.float64).reshape(-1, k)
    names = [f"r{i}" for i in range(k)]
    by = [f"v{(i * 7) % distinct}" for i in range(len(scores))]
    whole = FileSummary.of(names, weights, scores, by="task", by_values=by)
    folded = FileSummary(names, np.asarray(weights), by="task")
    for start, end in cuts(sizes, len(scores)):
        folded.add(scores[start:end], by_values=by[start:end])
    assert folded.rows == whole.rows == len(scores)
    assert list(folded.groups) == list(dict.fromkeys(by)) == list(whole.groups)
    for name in [*names, "reward"]:
        assert same(figures(folded.columns[name]), figures(whole.columns[name]))
        for key in whole.groups:
            assert same(figures(folded.groups[key][name]), figures(whole.groups[key][name]))
    # the printed figures equal those the CLI printed from the whole matrix before (numpy), overall and per value
    columns = {name: scores[:, i] for i, name in enumerate(names)} | {"reward": weighted_total(scores, np.asarray(weights))}
    keys = np.asarray(by, dtype=object)
    for name, values in columns.items():
        assert _stats(folded.columns[name]) == old_stats(values)
        for key in whole.groups:
            assert _stats(folded.groups[key][name]) == old_stats(values[keys == key])
    assert np.array_equal(folded.head, scores[:64], equal_nan=True)


def test_reward_metrics_of_a_batch_are_the_folded_summary_metrics():
    from polyreward.runners.run_metrics import reward_metrics, summary_metrics

    rng = np.random.default_rng(3)
    scores = np.where(rng.random((1001, 3)) < 0.1, np.nan, rng.random((1001, 3)))
    groups = np.repeat(np.arange(143), 7)
    whole = reward_metrics(["a", "b", "c"], np.array([1.0, 0.5, 2.0]), scores, groups)
    folded = FileSummary(["a", "b", "c"], np.array([1.0, 0.5, 2.0]))
    for start in range(0, 1001, 97):
        folded.add(scores[start:start + 97])
    assert summary_metrics(folded, whole["frac_reward_zero_std"]) == whole
    for k, name in enumerate("abc"):
        column = scores[:, k][~np.isnan(scores[:, k])]
        assert whole[f"reward/{name}/mean"] == pytest.approx(float(column.mean()), rel=1e-14)
        assert whole[f"reward/{name}/std"] == pytest.approx(float(np.std(column, ddof=1)), rel=1e-12)


CONFIG = {"columns": {"prompt": "question", "completion": "output", "group": "qid"},
          "rewards": [{"name": "fmt", "type": "think_format"},
                      {"name": "long", "type": "overlong_penalty", "weight": 0.5, "max_completion_len": 6, "soft_punish_cache": 3}]}


def write_rollouts(path: Path, n: int) -> None:
    texts = ["<think>a</think>answer", "plain words here", "<think>unclosed", "<think>x</think> " + "y " * 9, ""]
    with open(path, "w") as handle:
        for i in range(n):
            handle.write(json.dumps({"qid": i // 4, "question": f"q{i // 4}", "output": texts[(i * 3) % 5 if (i // 4) % 3 else 1],
                                     "task": f"t{i % 3}"}) + "\n")


@pytest.mark.parametrize("chunk_size", [1, 7, 1000])
def test_score_file_summary_does_not_depend_on_the_chunk_size(tmp_path, chunk_size):
    config = Config.model_validate(CONFIG)
    src = tmp_path / "in.jsonl"
    write_rollouts(src, 203)
    result = score_file(src, tmp_path / f"out{chunk_size}.jsonl", config, chunk_size=chunk_size, by="task", workers=0)
    assert result.scored is None and result.advantages is None  # no combiner: no (N, K) matrix is kept
    rows = [json.loads(line) for line in (tmp_path / f"out{chunk_size}.jsonl").read_text().splitlines()]
    names = result.names
    scores = np.asarray([[math.nan if r[n] is None else r[n] for n in names] for r in rows], dtype=np.float64)
    whole = FileSummary.of(names, [e.weight for e in config.rewards], scores, by="task", by_values=[str(r["task"]) for r in rows])
    assert result.rows == 203
    for name in [*names, "reward"]:
        assert same(figures(result.summary.columns[name]), figures(whole.columns[name]))
        for key in whole.groups:
            assert same(figures(result.summary.groups[key][name]), figures(whole.groups[key][name]))
    assert list(result.summary.groups) == ["t0", "t1", "t2"]


def fill_store(folder: Path, rows: int, part_rows: int = 1000, k: int = 3) -> tuple[PartStore, int]:
    store = PartStore(folder / "out.jsonl")
    store.start(resume=False)
    rng = np.random.default_rng(0)
    names = [f"r{i}" for i in range(k)]
    count = 0
    for index, start in enumerate(range(0, rows, part_rows)):
        n = min(part_rows, rows - start)
        scores = np.where(rng.random((n, k)) < 0.05, np.nan, rng.random((n, k)))
        batch = ScoredBatch(names, np.ones(k), scores, {}, failures=dict.fromkeys(names, 0))
        store.write(index, f"key{index}", b"{}\n" * n, n, batch, None)
        count += 1
    return store, count


def peak_bytes(work) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_joining_memory_does_not_grow_with_rows(tmp_path):
    """tracemalloc's peak while the summary of 10,000 and of 100,000 rows (parts of 1,000, 3 rewards) is folded:
    about one part's worth either way, while reading the whole matrix back grows tenfold."""
    peaks, whole = {}, {}
    for rows in (10_000, 100_000):
        store, count = fill_store(tmp_path / str(rows), rows)
        peaks[rows] = peak_bytes(lambda: store.summarise(count, FileSummary(["r0", "r1", "r2"], np.ones(3))))
        whole[rows] = peak_bytes(lambda: store.read_back(count, ["r0", "r1", "r2"], np.ones(3), groups_needed=False))
        store.release()
    assert peaks[100_000] < 1_000_000 and peaks[10_000] < 1_000_000  # a part's floats and meta text: ~0.2 MB
    assert peaks[100_000] - peaks[10_000] < 64_000  # the per-part row counts (8 bytes a part) and noise
    assert whole[100_000] > 5 * whole[10_000] and whole[100_000] > 2_400_000  # the old way: N x K floats and more


def test_exact_sums_in_slices_equal_one_go(monkeypatch):
    import polyreward.runners.file_summary as file_summary

    values = np.random.default_rng(1).random(100) * 10 - 5
    whole = exact_sums(values)
    monkeypatch.setattr(file_summary, "_MOST", 7)
    assert exact_sums(values) == whole
    assert Fraction(whole[0], 2 ** SUM_SCALE) == sum(map(Fraction, values.tolist()))


@pytest.mark.parametrize("combiner", [None, {"type": "grpo"}])
def test_report_to_row_is_the_whole_matrix_metrics_for_any_chunk_size(tmp_path, combiner):
    """--report-to's row (folded summary, groups streamed from the output) equals the trainer's reward_metrics of the
    whole matrix with the group ids as the tracker always took them (a row without one: a group of its own)."""
    from polyreward.runners.run_metrics import reward_metrics
    from polyreward.runners.trackers import log_scored_file
    from polyreward.vocabulary import group_ids

    config = Config.model_validate({**CONFIG, **({"combiner": combiner} if combiner else {})})
    src = tmp_path / "in.jsonl"
    write_rollouts(src, 203)
    if combiner is None:  # some rows without a group id
        lines = src.read_text().splitlines()
        src.write_text("".join((line.replace('"qid": ', '"other": ') if i % 5 == 3 else line) + "\n" for i, line in enumerate(lines)))
    logged = []
    for chunk_size in (1, 9, 1000):
        out = tmp_path / f"out{chunk_size}.jsonl"
        result = score_file(src, out, config, chunk_size=chunk_size, workers=0)
        log_scored_file(result, out, config, ["jsonl"], tmp_path / f"run{chunk_size}")
        (row,) = [json.loads(line) for line in (tmp_path / f"run{chunk_size}" / "metrics.jsonl").read_text().splitlines()]
        logged.append({k: v for k, v in row.items() if not k.startswith(("time/", "_"))})
    assert logged[0] == logged[1] == logged[2]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    scores = np.asarray([[math.nan if r[n] is None else r[n] for n in result.names] for r in rows], dtype=np.float64)
    ids = group_ids([r.get("qid") if r.get("qid") is not None else f"row {i}" for i, r in enumerate(rows)])
    expected = reward_metrics(result.names, np.asarray([e.weight for e in config.rewards]), scores, ids)
    assert 0.0 < expected["frac_reward_zero_std"] < 1.0
    for key, value in expected.items():
        assert logged[0][key] == (None if math.isnan(value) else value), key
    assert ("advantage/mean" in logged[0]) == (combiner is not None)


def test_cli_prints_the_same_summary_for_any_chunk_size(tmp_path):
    from test_cli_score import CONFIG as CLI_CONFIG, polyreward, rollouts

    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CLI_CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rollouts(157)))
    printed = set()
    for chunk_size in (1, 6, 1000):
        out = tmp_path / "out.jsonl"
        result = polyreward("score", src, "--config", cfg, "-o", out, "--chunk-size", chunk_size, "--by", "gold", "-q")
        printed.add(result.stdout)
    (stdout,) = printed
    assert "scored 157 rows" in stdout and "per gold" in stdout
