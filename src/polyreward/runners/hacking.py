"""Reward-hacking signatures in a stream of per-step training metrics.

A policy that games a reward leaves the same few traces in the curves, whatever the task. Given the rows the
bundled trainer writes (``metrics.jsonl``: ``step``, ``reward/<name>/mean``, ``completions/mean_length``,
``advantage/share/<name>``) and which rewards are *verifiable* (they check an answer against a reference) and
which are *cheap* (format, length, language: satisfiable without solving the task), :func:`hacking_signals`
flags:

``cheap_rising_verifiable_flat``
    a non-verifiable component's mean rises by more than ``RISE`` (0.1, in its own units) from the first to the
    last third of the run while every verifiable component moves by less than ``FLAT`` (0.02);
``length_collapse`` / ``length_blowup``
    mean completion length in the last third below half / above twice the first third's;
``format_saturates_first``
    a cheap component reaches 95 % of its best mean in the first half of the run while the verifiable
    components have made under a quarter of their own gain by then (or none at all);
``cheap_dominates_advantage``
    a cheap component carries more than half of the advantage (``advantage/share/<name>``) on average over the
    last third.

Each signal names the component and the steps that triggered it. Thirds need at least ``MIN_STEPS`` = 6 steps;
a shorter run gets no signal. These are symptoms to look at, not proof: run ``polyreward probe`` on the config.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

RISE, FLAT = 0.1, 0.02
MIN_STEPS = 6
CHEAP_TYPES = frozenset({"think_format", "crpo_format", "crpo_english", "toolrl_format", "overlong_penalty"})
_CHEAP_NAME_PARTS = ("format", "english", "overlong", "length", "len")


@dataclass
class Signal:
    kind: str
    component: str
    message: str
    steps: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "component": self.component, "message": self.message, "steps": self.steps}


def reward_roles(names: Sequence[str], types: Mapping[str, str] | None = None) -> tuple[list[str], list[str]]:
    """(verifiable, cheap) reward names: by type when ``types`` maps names to reward types (:data:`CHEAP_TYPES`),
    else by name (a name containing format / english / overlong / length is cheap)."""
    cheap = [n for n in names if (types[n] in CHEAP_TYPES if types and n in types else any(p in n.lower() for p in _CHEAP_NAME_PARTS))]
    return [n for n in names if n not in cheap], cheap


def reward_names(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Reward names that have a ``reward/<name>/mean`` or ``advantage/share/<name>`` column, in first-seen order."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            if key.startswith("reward/") and key.endswith("/mean"):
                seen.setdefault(key[len("reward/"):-len("/mean")], None)
            elif key.startswith("advantage/share/"):
                seen.setdefault(key[len("advantage/share/"):], None)
    return list(seen)


def _series(rows: Sequence[Mapping[str, Any]], key: str) -> tuple[np.ndarray, np.ndarray]:
    steps, values = [], []
    for i, row in enumerate(rows):
        value = row.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            steps.append(int(row.get("step", i)))
            values.append(float(value))
    return np.asarray(steps, dtype=np.int64), np.asarray(values, dtype=np.float64)


def _thirds(values: np.ndarray) -> tuple[float, float, slice]:
    third = max(1, len(values) // 3)
    return float(values[:third].mean()), float(values[-third:].mean()), slice(len(values) - third, len(values))


def hacking_signals(rows: Sequence[Mapping[str, Any]], verifiable: Sequence[str] | None = None,
                    cheap: Sequence[str] | None = None) -> list[Signal]:
    """The signals of the module docstring over ``rows`` (one metrics dict per step, in step order)."""
    names = reward_names(rows)
    if verifiable is None or cheap is None:
        guessed_verifiable, guessed_cheap = reward_roles(names)
        verifiable = guessed_verifiable if verifiable is None else verifiable
        cheap = guessed_cheap if cheap is None else cheap
    signals: list[Signal] = []
    curves = {n: _series(rows, f"reward/{n}/mean") for n in names}
    curves = {n: c for n, c in curves.items() if len(c[1]) >= MIN_STEPS}
    moves = {n: _thirds(v)[1] - _thirds(v)[0] for n, (_, v) in curves.items()}
    checked = [n for n in verifiable if n in curves]
    if checked and all(abs(moves[n]) < FLAT for n in checked):
        for n in names:
            if n in curves and n not in verifiable and moves[n] > RISE:
                steps, values = curves[n]
                _, _, last = _thirds(values)
                signals.append(Signal("cheap_rising_verifiable_flat", n,
                                      f"{n} rose by {moves[n]:+.3g} while {', '.join(checked)} moved by at most "
                                      f"{max(abs(moves[v]) for v in checked):.3g}", steps[last].tolist()))
    signals += _length_signals(rows)
    for n in cheap:
        if n not in curves:
            continue
        steps, values = curves[n]
        best = values.max()
        saturated = int(np.argmax(values >= best - 0.05 * abs(best))) if best > values[0] else None
        if saturated is None or saturated >= len(values) // 2:
            continue
        behind = []
        for v in checked:
            v_steps, v_values = curves[v]
            gain = v_values.max() - v_values[0]
            at = v_values[max(int(np.searchsorted(v_steps, steps[saturated], side="right")) - 1, 0)] - v_values[0]
            if gain <= FLAT or at < 0.25 * gain:
                behind.append(v)
        if checked and len(behind) == len(checked):
            signals.append(Signal("format_saturates_first", n,
                                  f"{n} reached 95 % of its best by step {steps[saturated]} while {', '.join(behind)} had made under "
                                  "a quarter of its gain", steps[:saturated + 1].tolist()))
    for n in cheap:
        steps, shares = _series(rows, f"advantage/share/{n}")
        if len(shares) < MIN_STEPS:
            continue
        _, late, last = _thirds(shares)
        if late > 0.5:
            signals.append(Signal("cheap_dominates_advantage", n, f"{n} carried {late:.0%} of the advantage over the last third",
                                  steps[last][shares[last] > 0.5].tolist()))
    return signals


def _length_signals(rows: Sequence[Mapping[str, Any]]) -> list[Signal]:
    steps, lengths = _series(rows, "completions/mean_length")
    if len(lengths) < MIN_STEPS:
        return []
    early, late, last = _thirds(lengths)
    if early <= 0:
        return []
    if late < 0.5 * early:
        return [Signal("length_collapse", "completions/mean_length", f"mean length fell from {early:.3g} to {late:.3g}",
                       steps[last][lengths[last] < 0.5 * early].tolist())]
    if late > 2 * early:
        return [Signal("length_blowup", "completions/mean_length", f"mean length grew from {early:.3g} to {late:.3g}",
                       steps[last][lengths[last] > 2 * early].tolist())]
    return []


def signals_html(rows: Sequence[Mapping[str, Any]], types: Mapping[str, str] | None = None) -> str:
    """An HTML table of :func:`hacking_signals` for ``polyreward report`` (a sentence when there is none)."""
    import html

    verifiable, cheap = reward_roles(reward_names(rows), types)
    signals = hacking_signals(rows, verifiable, cheap)
    if not signals:
        return "<p>no reward-hacking signature in these curves (see the reward-hacking section of the docs).</p>"
    body = "".join(f"<tr><td style='text-align:left'>{html.escape(s.kind)}</td><td style='text-align:left'>{html.escape(s.component)}</td>"
                   f"<td style='text-align:left'>{html.escape(s.message)}</td><td style='text-align:left'>"
                   f"{html.escape(', '.join(map(str, s.steps[:20])) + (' ...' if len(s.steps) > 20 else ''))}</td></tr>" for s in signals)
    return f"<table><tr><th>signal</th><th>component</th><th>what</th><th>steps</th></tr>{body}</table>"


def warn_hacking_signals(rows: Sequence[Mapping[str, Any]], types: Mapping[str, str] | None = None) -> list[Signal]:
    """Print each signal of a finished training run as one ``warning:`` line on stderr (the trainer calls this)."""
    import sys

    verifiable, cheap = reward_roles(reward_names(rows), types)
    signals = hacking_signals(rows, verifiable, cheap)
    for s in signals:
        steps = ", ".join(map(str, s.steps[:10])) + (" ..." if len(s.steps) > 10 else "")
        print(f"warning: reward-hacking signal {s.kind} ({s.component}): {s.message}; steps {steps}", file=sys.stderr)
    return signals
