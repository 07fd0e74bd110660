"""The Combiner protocol: (N, K) scores + group ids (+ weights) -> (N,) advantages.

Combiners are vectorised and array-in, array-out: numpy in gives numpy out; a torch tensor in gives a
tensor on the same device and dtype. NaN in ``scores`` means "not applicable" and is left out of the
statistics. Methods that carry statistics across steps keep them in an explicit state object exposed
through :meth:`Combiner.state_dict` / :meth:`Combiner.load_state_dict`.

A combiner that needs per-row metadata besides the group ids (DRPO's domain label) names it in
``row_columns``; ``combine`` then takes each as a keyword argument (one value per row), and a config maps
each name to a data column under ``columns:`` (``columns: {domain: source}``; default: the same name).
Every other combiner keeps the three-argument ``combine``.

Token- or step-level advantages: every combiner also answers :meth:`Combiner.combine_tokens`, (N, T) advantages over a
(N, T) mask of response tokens (or steps). By default that is ``combine``'s per-row value on each of the row's tokens,
as verl and TRL broadcast outcome advantages; a method whose advantage varies within a response (REINFORCE++'s
discounted returns, process-supervised GRPO) sets ``token_level = True`` and overrides it, reading per-token rewards
(``token_rewards``: a reward on the token that earns it, NaN elsewhere). :func:`combine_token_scores` is the call the
trainer and the verl estimator make for such a combiner.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from polyreward.vocabulary import Exactness, MissingColumnError, group_ids


class Combiner:
    """Base class of every advantage combiner.

    Class attributes:
        type_name: registry key (``combiner: {type: gdpo}`` in YAML, ``--combiner gdpo`` on the CLI).
        exactness: ``"exact"`` or ``"reconstructed"`` (shown by ``polyreward list``).
        description: one line for ``polyreward list``.
        row_columns: names of the per-row arrays ``combine`` needs as keyword arguments (``("domain",)``).
    """

    type_name: ClassVar[str] = ""
    exactness: ClassVar[Exactness] = "exact"
    description: ClassVar[str] = ""
    row_columns: ClassVar[tuple[str, ...]] = ()
    # True when the advantage varies within a response: combine_tokens is then the method's own output (combine its
    # per-row summary), and entry points that can take (N, T) advantages use it. Such a combiner keeps no state.
    token_level: ClassVar[bool] = False
    # the data column of each row_columns name; a config sets it from ``columns:`` (default: the same name)
    row_sources: Mapping[str, str] = MappingProxyType({})
    # How the advantages follow rewards multiplied by c > 0: "invariant" (z-scores), "equivariant" (r - mean) or None
    # (thresholds on raw values). A GroupedCombiner computes its ``_advantages`` at the overflow-safe scale this allows
    # and refuses an infinite result in one line (:mod:`polyreward.combiners.magnitudes`).
    reward_scale: ClassVar[str | None] = None

    # ---- Facts the shared tests and the generated docs read (docs/extending.md). A new combiner declares them here
    # ---- and gets the property tests, the docs rows and `polyreward list` with no other edit.
    #: parameter variants the property tests run (the defaults first)
    example_params: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    #: per-row numbers (not labels) the tests draw for a ``row_columns`` name (AAPO's reference reward); a row column
    #: not named here gets one label per group
    example_row_values: ClassVar[Mapping[str, tuple[Any, ...]]] = MappingProxyType({})
    #: the most reward columns ``combine`` takes (PAPO: outcome and process), None: any number
    max_reward_columns: ClassVar[int | None] = None
    #: True when reordering the rows of a group changes the advantages (a filter that reads a group in row order)
    row_order_dependent: ClassVar[bool] = False
    #: True when a rollout alone in its group gets A = 0 (no group-relative signal); False for A = r conventions
    lone_rollout_zero: ClassVar[bool] = True
    #: the test file that compares an ``exactness = "exact"`` combiner with its source's code (tests/...)
    reference_test: ClassVar[str] = ""
    #: cells of the generated tables in docs/combiners.md: the exactness with its source, what the method does,
    #: its key parameters with defaults, and the bound on |A| its docstring states (markdown)
    exactness_note: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    key_parameters: ClassVar[str] = ""
    bound_text: ClassVar[str] = ""

    @classmethod
    def zero_for_constant_groups(cls, params: Mapping[str, Any], k: int) -> bool:
        """Does the method promise A = 0 (to 1e-9) for a group of >= 2 rollouts that repeat one score row, built with
        ``params`` on K = ``k`` reward columns? (default True: a group-relative method has no signal there)"""
        return True

    @classmethod
    def shift_invariant(cls, params: Mapping[str, Any], k: int, column: int) -> bool:
        """Is the method unchanged by adding a constant to objective ``column`` inside one group? (default True)"""
        return True

    @classmethod
    def none_is_zero(cls, params: Mapping[str, Any]) -> bool:
        """True for variants that, as their source, read a None reward as 0 before any statistic."""
        return False

    @classmethod
    def ties_by_row_order(cls, params: Mapping[str, Any]) -> bool:
        """True when row order breaks ties, so a row permutation keeps only each group's multiset of advantages."""
        return False

    @classmethod
    def advantage_bound(cls, params: Mapping[str, Any], facts: Any) -> Any:
        """The bound on |A| per row (an array, or None when the method has none and its docstring says why), in the
        quantities of a :class:`~polyreward.combiners.bounds.BatchFacts`. Every combiner must state one."""
        raise NotImplementedError(f"combiner {cls.type_name or cls.__name__} states no bound on |A|: define "
                                  "advantage_bound (return None when the method has none, and say why)")

    def combine(self, scores: Any, groups: Any, weights: Any = None) -> Any:
        """Advantages (N,) for scores (N, K) of rollouts in ``groups`` (N hashable ids), weights (K,)."""
        raise NotImplementedError

    def combine_tokens(self, scores: Any, groups: Any, weights: Any = None, *, mask: Any,
                       token_rewards: Any = None, **rows: Any) -> np.ndarray:
        """Advantages (N, T) float64 over the tokens (or steps) ``mask`` (N, T) marks with 1, and 0 where it is 0.

        ``token_rewards`` (N, T), read by token-level methods only: each reward on the token that earns it (a step's
        score on the step's last token; verl's ``token_level_rewards``), NaN where there is none. The default, for
        every sequence-level combiner: ``combine`` (with ``lengths`` = the mask's row sums when it takes them) on each
        of the row's tokens, A_it = A_i · mask_it."""
        weight = as_token_mask(mask, np.shape(scores)[0] if np.ndim(scores) else 0)
        if "lengths" in inspect.signature(self.combine).parameters:
            rows.setdefault("lengths", weight.sum(axis=1))
        per_row = self.combine(scores, groups, weights, **rows)
        per_row = np.asarray(per_row.detach().cpu() if hasattr(per_row, "detach") else per_row, dtype=np.float64)
        return per_row[:, None] * weight

    def __call__(self, scores: Any, groups: Any, weights: Any = None, **rows: Any) -> Any:
        return self.combine(scores, groups, weights, **rows)

    @property
    def uses_lengths(self) -> bool:
        """Whether ``combine`` reads per-row token lengths (GDPO's ``batch_norm: whiten``); then every entry point must
        give them (:func:`combine_scores` refuses to go on without)."""
        return False

    def row_source_columns(self) -> tuple[str, ...]:
        """The data columns the per-row arrays come from (``row_sources``, else the ``row_columns`` names)."""
        return tuple(self.row_sources.get(name, name) for name in self.row_columns)

    def data_columns(self) -> tuple[str, ...]:
        """Every data column the combiner reads per row: its per-row columns and, when it :attr:`uses_lengths`, the
        ``completion_ids`` whose lengths are the token counts (a rollout file or dataset carries them there)."""
        return self.row_source_columns() + (("completion_ids",) if self.uses_lengths else ())

    def diagnostics(self) -> dict[str, float]:
        """Numbers about the last ``combine`` call worth logging (DRPO: per-domain advantage mass); {} by default."""
        return {}

    def state_dict(self) -> dict[str, Any]:
        """Statistics carried across steps (empty for stateless methods)."""
        return {}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state:
            raise ValueError(f"{type(self).__name__} is stateless but got state keys {sorted(state)}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def row_arrays(combiner: Combiner, columns: Mapping[str, Any], mapping: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The keyword arrays ``combiner.combine`` needs: each name of ``row_columns`` read from the data column
    ``mapping`` (default: ``combiner.row_sources``) gives it, else the column of the same name; ``{}`` for the
    usual combiner. A missing column is a ValueError naming it, the combiner and the columns there are."""
    mapping = combiner.row_sources if mapping is None else mapping
    out = {}
    for name in combiner.row_columns:
        column = mapping.get(name, name)
        if column not in columns:
            raise ValueError(
                f"combiner {combiner.type_name or type(combiner).__name__} needs a per-row {name!r} column; {column!r} is not in the "
                f"data (columns: {', '.join(map(str, columns))}); map it in the config with `columns: {{{name}: <column>}}`"
            )
        out[name] = columns[column]
    return out


def token_lengths(columns: Mapping[str, Sequence[Any]], lengths: Sequence[float] | None = None) -> np.ndarray | None:
    """The per-row token lengths of the contract: ``lengths`` when the entry point knows them (verl's response mask,
    TRL's completion mask, the trainer's), else the length of each row's ``completion_ids`` (what TRL hands reward
    functions and a rollout file can carry); None when neither is there."""
    if lengths is not None:
        return np.asarray(lengths, dtype=np.float64)
    ids = columns.get("completion_ids") if columns is not None else None
    if ids is None:
        return None
    return np.asarray([0 if v is None else len(v) for v in ids], dtype=np.float64)


def as_token_mask(mask: Any, n: int) -> np.ndarray:
    """(N, T) float64 copy of a token mask (numpy, torch or nested lists); ValueError unless N rows of finite values >= 0."""
    values = mask.detach().cpu().double().numpy() if hasattr(mask, "detach") else np.asarray(mask, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] != n:
        raise ValueError(f"mask must be (N, T) with N = {n} rows (one per rollout), got shape {values.shape}")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("mask must hold finite values >= 0 (1 = a response token or step, 0 = padding)")
    return values


def combine_token_scores(
    combiner: Any, scores: Any, groups: Sequence[Any], weights: Any = None, *, mask: Any, token_rewards: Any = None,
    columns: Mapping[str, Sequence[Any]] | None = None,
) -> np.ndarray:
    """Advantages (N, T) float64 from a combiner over the response tokens ``mask`` marks: the token-level twin of
    :func:`combine_scores` (same group identity and per-row columns; the token lengths are the mask's row sums).
    NaN becomes 0, and every position the mask leaves out is 0."""
    matrix = np.asarray(scores, dtype=np.float64)
    weight = as_token_mask(mask, len(matrix))
    extra: dict[str, Any] = {}
    if getattr(combiner, "row_columns", ()):
        rows = row_arrays(combiner, columns if columns is not None else {})
        extra.update({name: np.asarray(list(values), dtype=object) for name, values in rows.items()})
    if token_rewards is not None:
        token_rewards = (token_rewards.detach().cpu().double().numpy() if hasattr(token_rewards, "detach")
                         else np.asarray(token_rewards, dtype=np.float64))
        if token_rewards.shape != weight.shape:
            raise ValueError(f"token_rewards must have the mask's shape {weight.shape}, got {token_rewards.shape}")
    advantages = np.asarray(combiner.combine_tokens(matrix, group_ids(groups), weights, mask=weight,
                                                    token_rewards=token_rewards, **extra), dtype=np.float64)
    if advantages.shape != weight.shape:
        raise ValueError(f"combiner {type(combiner).__name__} returned token advantages of shape {advantages.shape}, "
                         f"expected {weight.shape}")
    return np.where(weight > 0, np.nan_to_num(advantages, nan=0.0), 0.0)


def combine_scores(
    combiner: Any, scores: Any, groups: Sequence[Any], weights: Any = None, *, lengths: Sequence[float] | None = None,
    columns: Mapping[str, Sequence[Any]] | None = None,
) -> np.ndarray:
    """Advantages (N,) float64 from a combiner: the one combiner call of the project. NaN (a row where no reward
    applied) becomes 0, as in TRL and verl.

    Group ids pass through :func:`~polyreward.vocabulary.group_ids` (``1``, ``1.0`` and ``"1"`` are one group; the
    ids are keys, the same for the same question in every step). A combiner whose ``combine`` takes ``lengths`` gets
    the token counts; one that :attr:`~Combiner.uses_lengths` and gets none is a
    :class:`~polyreward.vocabulary.MissingColumnError`. A combiner that declares ``row_columns`` (DRPO's domain) gets
    each as a keyword argument read from ``columns`` through :func:`row_arrays`.
    """
    matrix = np.asarray(scores, dtype=np.float64)
    extra: dict[str, Any] = {}
    lengths = token_lengths(columns if columns is not None else {}, lengths)
    if getattr(combiner, "uses_lengths", False) and lengths is None:
        name = getattr(combiner, "type_name", "") or type(combiner).__name__
        raise MissingColumnError(name, "completion_ids", sorted(columns or {}), kind="combiner",
                                 hint="token lengths: give lengths=, or a completion_ids column of token ids per row")
    if lengths is not None and "lengths" in inspect.signature(combiner.combine).parameters:
        extra["lengths"] = np.asarray(lengths, dtype=np.float64)
    if getattr(combiner, "row_columns", ()):
        rows = row_arrays(combiner, columns if columns is not None else {})
        extra.update({name: np.asarray(list(values), dtype=object) for name, values in rows.items()})
    advantages = np.asarray(combiner.combine(matrix, group_ids(groups), weights, **extra), dtype=np.float64)
    if advantages.shape != (len(matrix),):
        raise ValueError(f"combiner {type(combiner).__name__} returned shape {advantages.shape}, expected ({len(matrix)},)")
    return np.nan_to_num(advantages, nan=0.0)
