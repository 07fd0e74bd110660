"""Score a Hugging Face ``datasets.Dataset`` (or every split of a ``DatasetDict``), a pandas DataFrame, a Ray
Data dataset, a list of row dicts or a dict of columns with a config (each comes back in its own shape).

:func:`score_dataset` is the in-memory sibling of :func:`polyreward.runners.score_file.score_file`: the same checks, the
same group-aligned chunks (:func:`~polyreward.runners.chunking.group_aligned`, so group-level rewards see whole groups),
the same :class:`~polyreward.pipeline.Scorer` (built from the config: ``when:`` rules, columns, failure policy,
combiner) per chunk and one :meth:`~polyreward.pipeline.Scorer.advantages` call over the whole split, and the
same new columns as ``polyreward score`` writes (:meth:`~polyreward.pipeline.ScoredBatch.output_columns`, then
``advantage``)::

    from datasets import Dataset
    from polyreward import load_config, score_dataset

    ds = Dataset.from_list(rollouts)               # prompt, completion, answer, prompt_id columns
    scored = score_dataset(ds, load_config("config.yaml"))
    scored["accuracy"], scored["reward"], scored["advantage"]

The chunks are scored by a *backend*: ``"local"`` scores them one after the other in this process, each reward
using the engine's worker pool (``workers``; hard per-item timeouts) — the pool is where the parallel work is,
so no ``num_proc`` copies of the rewards are made. ``datasets`` is an optional dependency
(``pip install -e ".[datasets]"`` from a checkout) that this module never imports: it works on the object it is given.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from polyreward.config import Config, load_config, parse_config
from polyreward.pipeline import ScoredBatch, Scorer
from polyreward.schema import Batch

Backend = Callable[..., Iterator[ScoredBatch]]


def score_locally(batches: Iterable[Batch], config: Config, scorer: Scorer) -> Iterator[ScoredBatch]:
    """The ``"local"`` backend: score each chunk in this process with ``scorer`` (its rewards use the worker pool).

    A backend gets the chunks, the config (to build the scorer elsewhere) and the scorer built here, and yields
    one :class:`~polyreward.pipeline.ScoredBatch` per chunk (scores only: the advantages are one call over the split), in order."""
    for batch in batches:
        yield scorer.score(batch, combine=False)


def score_on_ray(batches: Iterable[Batch], config: Config, scorer: Scorer) -> Iterator[ScoredBatch]:
    """The ``"ray"`` backend: the chunks go to Ray actors (:func:`polyreward.runners.ray_backend.score_on_ray`; Ray imported only here)."""
    from polyreward.runners.ray_backend import score_on_ray as on_ray

    return on_ray(batches, config, scorer)


BACKENDS: dict[str, Backend] = {"local": score_locally, "ray": score_on_ray}


def as_config(config: Config | Mapping[str, Any] | str | Path) -> Config:
    """A :class:`Config` from a Config, a mapping (validated as a file would be) or a YAML path."""
    if isinstance(config, Config):
        return config
    if isinstance(config, Mapping):
        return parse_config(config)
    return load_config(config)


def aligned_ranges(groups: list[Any], chunk_size: int, column: str, on_split: Callable[[str, int], None] | None = None) -> Iterator[tuple[int, int]]:
    """``(start, end)`` row ranges of about ``chunk_size`` rows that never split a run of equal group ids (the
    file path's :func:`~polyreward.runners.chunking.group_aligned`, applied to the group column alone)."""
    from polyreward.runners.chunking import group_aligned

    records = iter([{column: g} for g in groups])
    chunks = iter(lambda: list(islice(records, chunk_size)), [])
    start = 0
    for chunk in group_aligned(chunks, column, on_split):
        yield start, start + len(chunk)
        start += len(chunk)


def score_dataset(
    ds: Any,
    config: Config | Mapping[str, Any] | str | Path,
    *,
    chunk_size: int = 1000,
    workers: int | None = None,
    on_reward_error: str | None = None,
    backend: str = "local",
    advantage_column: str = "advantage",
    warn: Callable[[str], None] = lambda message: print(message, file=sys.stderr),
) -> Any:
    """``ds`` with the scoring columns added: each reward's score, ``reward``, ``<name>_reason``, ``<name>.<sub>``
    and, when the config names a combiner, ``advantage_column``. A ``DatasetDict`` is scored split by split (each
    split is its own batch for the combiner) and comes back as a ``DatasetDict``; a pandas DataFrame comes back as a
    DataFrame; a Ray Data dataset is materialised on the driver (``to_pandas``), its chunks scored by ``backend``,
    and comes back as a Ray dataset (``ray.data.from_pandas``).

    Raises :class:`~polyreward.io.InputError` / :class:`~polyreward.pipeline.MissingColumnError` /
    :class:`~polyreward.config.ConfigError` before any reward runs, and
    :class:`~polyreward.pipeline.RewardError` under ``on_reward_error="raise"``.
    """
    from polyreward.io import InputError

    config = as_config(config)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(sorted(BACKENDS))}, got {backend!r}")
    if chunk_size < 1:
        raise InputError("chunk_size must be >= 1")
    if _is_ray_dataset(ds):  # materialised on the driver; the chunks still go to the chosen backend
        import ray.data

        return ray.data.from_pandas(score_dataset(ds.to_pandas(), config, chunk_size=chunk_size, workers=workers,
                                                  on_reward_error=on_reward_error, backend=backend,
                                                  advantage_column=advantage_column, warn=warn))
    if isinstance(ds, (list, tuple)):  # a list of row dicts: scored rows come back as a list of dicts
        return _score_split(RecordsTable.of_rows(ds), config, chunk_size, workers, on_reward_error or config.on_reward_error,
                            BACKENDS[backend], advantage_column, warn).rows
    if isinstance(ds, Mapping) and not hasattr(ds, "column_names"):  # {column: values}: back as {column: values}
        table = RecordsTable.of_columns(ds)
        scored = _score_split(table, config, chunk_size, workers, on_reward_error or config.on_reward_error,
                              BACKENDS[backend], advantage_column, warn)
        return {name: scored[name] for name in scored.column_names}
    if _is_data_frame(ds):
        return _score_split(FrameTable(ds), config, chunk_size, workers, on_reward_error or config.on_reward_error,
                            BACKENDS[backend], advantage_column, warn).frame
    if hasattr(ds, "column_names") and isinstance(ds.column_names, Mapping):  # a DatasetDict: {split: [columns]}
        return type(ds)({split: score_dataset(part, config, chunk_size=chunk_size, workers=workers, on_reward_error=on_reward_error,
                                              backend=backend, advantage_column=advantage_column, warn=warn)
                         for split, part in ds.items()})
    return _score_split(ds, config, chunk_size, workers, on_reward_error or config.on_reward_error, BACKENDS[backend],
                        advantage_column, warn)


def _is_data_frame(ds: Any) -> bool:
    """A pandas DataFrame, asked without importing pandas (``import polyreward`` stays free of it)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(ds, pandas.DataFrame)


def _is_ray_dataset(ds: Any) -> bool:
    return type(ds).__module__.startswith("ray.data") and callable(getattr(ds, "to_pandas", None))


class RecordsTable:
    """Rows in plain Python (a list of dicts) seen through the few ``datasets.Dataset`` methods :func:`_score_split`
    uses. A key some rows lack is None in those rows, as in a JSONL file."""

    def __init__(self, rows: list[dict[str, Any]], names: list[str]) -> None:
        self.rows, self._names = rows, names

    @classmethod
    def of_rows(cls, rows: Sequence[Any]) -> RecordsTable:
        from polyreward.io import InputError

        names: dict[str, None] = {}
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise InputError(f"rows[{i}] is {type(row).__name__}, not a dict of column values (a list of rows must hold dicts)")
            names.update(dict.fromkeys(str(k) for k in row))
        return cls([dict(row) for row in rows], list(names))

    @classmethod
    def of_columns(cls, columns: Mapping[str, Any]) -> RecordsTable:
        from polyreward.io import InputError
        from polyreward.schema import as_column

        lists = {}
        for name, values in columns.items():
            try:
                lists[str(name)] = as_column(values, str(name))
            except TypeError as exc:
                raise InputError(f"dataset: {exc}") from None
        lengths = {name: len(values) for name, values in lists.items()}
        if len(set(lengths.values())) > 1:
            raise InputError(f"dataset: the columns have different lengths ({', '.join(f'{k}: {v}' for k, v in lengths.items())}); "
                             "every column needs one value per row")
        n = next(iter(lengths.values()), 0)
        return cls([{name: values[i] for name, values in lists.items()} for i in range(n)], list(lists))

    @property
    def column_names(self) -> list[str]:
        return list(self._names)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            part = self.rows[key]
            return {name: [row.get(name) for row in part] for name in self._names}
        return [row.get(key) for row in self.rows]

    def remove_columns(self, names: list[str]) -> RecordsTable:
        drop = set(names)
        return RecordsTable([{k: v for k, v in row.items() if k not in drop} for row in self.rows], [n for n in self._names if n not in drop])

    def add_column(self, name: str, values: list[Any]) -> RecordsTable:
        return RecordsTable([{**row, name: value} for row, value in zip(self.rows, values)], [*self._names, name])


class FrameTable:
    """A pandas DataFrame seen through the few ``datasets.Dataset`` methods :func:`_score_split` uses, so frames and
    datasets share one scoring path. Values come back as Python objects (``ints stay ints``), not numpy scalars."""

    def __init__(self, frame: Any) -> None:
        if frame.columns.duplicated().any():
            from polyreward.io import InputError

            raise InputError(f"dataframe: duplicate column(s) {sorted(set(frame.columns[frame.columns.duplicated()]))}")
        self.frame = frame

    @property
    def column_names(self) -> list[str]:
        return [str(c) for c in self.frame.columns]

    def __len__(self) -> int:
        return len(self.frame)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            part = self.frame.iloc[key]
            return {str(c): part[c].astype(object).tolist() for c in part.columns}
        return self.frame[key].astype(object).tolist()

    def remove_columns(self, names: list[str]) -> FrameTable:
        return FrameTable(self.frame.drop(columns=names))

    def add_column(self, name: str, values: list[Any]) -> FrameTable:
        import pandas as pd

        frame = self.frame.copy()
        column = pd.Series(values, index=frame.index, dtype=object)
        # a numeric column without gaps gets a numeric dtype; one with None (not applicable) keeps its None
        frame[name] = column if column.isna().any() else column.infer_objects()
        return FrameTable(frame)


def _score_split(ds: Any, config: Config, chunk_size: int, workers: int | None, policy: str, backend: Backend,
                 advantage_column: str, warn: Callable[[str], None]) -> Any:
    from polyreward.io import InputError
    from polyreward.runners.chunking import group_alignment
    from polyreward.runners.score_file import check_columns, combiner_columns

    if len(ds) == 0:
        raise InputError("dataset: no rows to score")
    scorer = config.build_scorer(workers, on_reward_error=policy)
    columns, combiner = scorer.columns, scorer.combiner
    check_columns(set(ds.column_names), scorer.rewards, config, combiner, None, "dataset")
    align_column, on_split = group_alignment(scorer.rewards, config, warn)
    groups = ds[align_column] if align_column in ds.column_names else [None] * len(ds)
    ranges = list(aligned_ranges(groups, chunk_size, align_column, on_split))

    def batches() -> Iterator[Batch]:
        for start, end in ranges:
            rows = ds[start:end]
            cols = {name: values for name, values in rows.items() if name not in (columns.prompt, columns.completion)}
            yield Batch(rows.get(columns.prompt), rows[columns.completion], cols, cols.get(columns.group))

    added: dict[str, list[Any]] = {}
    blocks: list[np.ndarray] = []
    done = 0
    for scored in backend(batches(), config, scorer):
        n = len(scored.scores)
        for name, values in scored.output_columns().items():
            added.setdefault(name, [None] * done).extend(values)
        for values in added.values():  # a sub-score some chunks lack is None in their rows
            values.extend([None] * (done + n - len(values)))
        blocks.append(scored.scores)
        done += n
    if combiner is not None:  # per-row data of the contract: the combiner's columns and the token ids (lengths)
        row_values = {c: ds[c] for c in combiner_columns(combiner)}
        added[advantage_column] = scorer.advantages(np.concatenate(blocks), ds[columns.group], columns=row_values).tolist()
    out = ds.remove_columns([name for name in added if name in ds.column_names])
    for name, values in added.items():
        out = out.add_column(name, values)
    return out
