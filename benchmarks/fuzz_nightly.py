"""Nightly-style fuzz run: every registered reward and combiner fed hostile items; writes a results table.

    python benchmarks/fuzz_nightly.py                       # 100,000 items, seed 0
    python benchmarks/fuzz_nightly.py --items 5000 --seed 3 --out /tmp/fuzz.md

The items are shared out evenly over the targets (every registered reward type that can be built without a
model or server, and every registered combiner). The hostile inputs reuse the suite's generators:

* rewards: the pieces, bombs and odd values of ``tests/test_fuzz_rewards.py`` (unclosed tags and ``\\boxed{``,
  JSON and LaTeX bombs, ~2000-deep chat message lists, NaN/inf/10**5000 cells, bytes, non-string completions),
  the 100 KB adversarial shapes of ``tests/test_linear_time.py`` (whitespace runs, nested parentheses, unclosed
  braces, digit runs, ...), plus a few listed here (NaN/inf strings, unicode look-alikes, zero-width and control
  characters, JSON-ish junk), with realistic or hostile reference cells (``COLUMN_VALUES`` of the fuzz test);
  rewards are called column-wise as TRL calls them, ``reward(prompts=..., completions=..., **columns)``;
* combiners: the reward batches of ``tests/combiner_batches.py`` (groups of 1-33 rollouts, NaN cells, zero and
  negative weights) plus empty batches, G = 1, values up to ±1.7976931348623157e308 and subnormals, all-NaN
  rows, inf cells, odd group ids (strings, negative and huge ints, floats, tuples, None, mixed, shuffled), and
  for stateful combiners sequences of batches on one instance.

Counted per target: items, calls, escaped exceptions (for a reward anything the call raises: a bad rollout must
come back as NaN/None with a reason; for a combiner anything but the documented one-line ``ValueError`` for
invalid input), malformed outputs (a reward: wrong length, a non-number, a finite score outside
``score_range``; a combiner: wrong shape or a non-finite advantage), and the largest CPU seconds of one item at
100 KB: each 100 KB rollout is scored alone, ``time.process_time`` around the call (the main process, all its
threads) plus the CPU the engine's worker processes report for the items of that call
(:attr:`polyreward.engine.Outcome.cpu_seconds`, collected by wrapping ``WorkerPool.map``).
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import re
import sys
import time
import traceback
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))  # the suite's hostile generators
os.environ.setdefault("POLYREWARD_WORKERS", "1")  # one engine worker: a modest CPU footprint on a shared machine
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

from combiner_batches import NON_DYADIC, WEIGHTS, build_batch  # noqa: E402
from machine_info import describe_machine  # noqa: E402
from polyreward import engine, registry  # noqa: E402
from test_combiners_properties import extra_arrays  # noqa: E402
from test_fuzz_rewards import _BOMBS, _DEEP, _PIECES, COLUMN_VALUES  # noqa: E402
from test_linear_time import SHAPES  # noqa: E402

BIG = 100_000
# types that need a model or a server to be built at all: not fuzzed, named in the result
NEEDS_SERVER = {"reward_model": "needs a reward-model server (server.base_url) or local model weights"}

EXTRA_TEXTS = [
    "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e309", "-1e309", "1e-400", "0x1p-1075", "1_000_000", "١٢٣",
    "\\boxed{nan}", "\\boxed{\\infty}", "\\boxed{-\\infty}", "The answer is inf", "<answer>NaN</answer>",
    "\\boxed{" + "9" * 4400 + "}", "10**" + "9" * 50, "9" * 4301, "1e" + "9" * 30, "2^{2^{2^{2^{2^{2}}}}}",
    "С", "Α", "Ｃ", "４２", "𝟒𝟐", "ℂ", "Ⅽ", "\\boxed{４２}", "<аnswer>42</аnswer>",  # look-alikes: Cyrillic, Greek, fullwidth
    "4\u200b2", "\u200b\u200c\u200d\ufeff", "\u202eC\u202c", "C\u0301", "\\boxed{4\u200d2}", "<answer>\u200bC</answer>",
    "\x00", "\x00C\x00", "\x1b[31mC\x1b[0m", "\r\r\rC", "\x0b\x0c\x1c\x1d", "\x7f\x85\u2028\u2029", "\ud800\udc00", "\udfff",
    '{"name": "f", "parameters": {"a": NaN}}', '{"name": null}', '[{"name": 5}]', '{"name": "f", "parameters": []}',
    '{"a": 1e999}', '{"' * 50, '[{"name": "f", "parameters": {"x": ' * 300, "<tool_call>{'name': 'f'}</tool_call>",
    "<tool_call>\n" + '{"name": "f", "parameters": {}}\n' * 200 + "</tool_call>",
    "<think>" * 50 + "</think>" * 49, "<answer></answer>" * 300, "</answer><answer>" * 300, "\\boxed{}" * 300,
    "\\boxed{\\boxed{\\boxed{5}}}", "\\boxed{5" + "}" * 500, "}" * 2000 + "\\boxed{5}", "$" * 999, "\\left(" * 400,
]
ODD_VALUES = [None, 0, -1, 2**63, 10**400, 10**5000, math.nan, math.inf, -math.inf, -0.0, 1e308, 5e-324, True, False,
              b"\xff\xfe", bytearray(b"x"), [], ["a", "b"], [None], {}, {"a": 1}, ("x",), {1, 2}, object(), 3 + 4j]
ODD_MESSAGES = [
    _DEEP, {"role": "assistant", "content": r"\boxed{5}"}, [{"role": "assistant", "content": [{"type": "text", "text": r"\boxed{5}"}]}],
    [{"role": "assistant", "content": {"text": "C"}}], [{"role": "assistant"}], [[{"role": "assistant", "content": "C"}]], [None], [5],
    [{"role": "assistant", "content": None}], [{"role": None, "content": "C"}], [{"content": 5}],
]


# ------------------------------------------------------------------------------------------------ rewards
class HostileText:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.shapes = sorted(SHAPES)

    def random_unicode(self) -> str:
        r = self.rng
        out = []
        for _ in range(r.randint(0, 300)):
            band = r.random()
            if band < 0.5:
                out.append(chr(r.randint(32, 126)))
            elif band < 0.6:
                out.append(chr(r.randint(0, 31)))
            elif band < 0.9:
                out.append(chr(r.randint(0x80, 0xFFFF)))
            else:
                out.append(chr(r.randint(0x10000, 0x10FFFF)))
        return "".join(out)

    def small(self) -> str:
        r = self.rng
        kind = r.random()
        if kind < 0.25:
            return "".join(r.choice(_PIECES) for _ in range(r.randint(0, 60)))
        if kind < 0.4:
            return r.choice(_BOMBS)
        if kind < 0.5:
            return r.choice(_BOMBS) + self.random_unicode()[:40]
        if kind < 0.7:
            return r.choice(EXTRA_TEXTS)
        if kind < 0.85:
            return self.random_unicode()
        return "".join(r.choice(EXTRA_TEXTS + _PIECES) for _ in range(r.randint(1, 20)))

    def big(self) -> tuple[str, str]:
        """A ~100 KB text: a linear-time shape, a bomb repeated, or pieces repeated; and its name."""
        r = self.rng
        kind = r.random()
        if kind < 0.7:
            name = r.choice(self.shapes)
            return SHAPES[name](BIG), name
        if kind < 0.85:
            bomb = r.choice(_BOMBS + EXTRA_TEXTS)
            return (bomb * (BIG // max(len(bomb), 1) + 1))[:BIG], f"repeated {bomb[:20]!r}"
        unit = "".join(r.choice(_PIECES + EXTRA_TEXTS[:40]) for _ in range(8))
        return (unit * (BIG // max(len(unit), 1) + 1))[:BIG], f"repeated pieces {unit[:20]!r}"

    def completion(self):
        r = self.rng
        kind = r.random()
        if kind < 0.7:
            return self.small()
        if kind < 0.8:
            return [{"role": r.choice(["assistant", "user", "tool", "system"]), "content": self.small() if r.random() < 0.9 else None}
                    for _ in range(r.randint(0, 4))]
        if kind < 0.9:
            return r.choice(ODD_VALUES)
        return r.choice(ODD_MESSAGES)

    def prompt(self):
        kind = self.rng.random()
        if kind < 0.6:
            return self.small()
        if kind < 0.8:
            return [{"role": "user", "content": self.small()}]
        return self.rng.choice(ODD_VALUES)

    def cell(self, column: str):
        r = self.rng
        kind = r.random()
        if kind < 0.5 and column in COLUMN_VALUES:
            return r.choice(COLUMN_VALUES[column])
        if kind < 0.8:
            return self.small()
        return r.choice(ODD_VALUES)


class WorkerCPU:
    """Wraps ``WorkerPool.map`` so each call's outcomes report the worker CPU they used."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.items = 0
        self.total = 0.0
        original = engine.WorkerPool.map

        def map_and_count(pool, fn, items, timeout=None, affinity=None):
            outcomes = original(pool, fn, items, timeout, affinity)
            seen = set()
            for outcome in outcomes:  # identical items share one Outcome: count it once
                if id(outcome) in seen:
                    continue
                seen.add(id(outcome))
                self.items += 1
                self.seconds += outcome.cpu_seconds or 0.0
                self.total += outcome.cpu_seconds or 0.0
            return outcomes

        engine.WorkerPool.map = map_and_count

    def take(self) -> float:
        seconds, self.seconds = self.seconds, 0.0
        return seconds


def declared_columns(type_name: str, reward) -> tuple[str, ...]:
    # overlong_penalty reads TRL's completion_ids without declaring it (as in test_fuzz_rewards)
    return tuple(reward.columns) + (("completion_ids",) if type_name == "overlong_penalty" else ())


def check_scores(reward, scores, n: int) -> str | None:
    if len(scores) != n:
        return f"{len(scores)} scores for {n} rollouts"
    low, high = reward.score_range
    for score in scores:
        if score is None:
            continue
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            return f"score {score!r} is not a number"
        if not math.isnan(score) and not (low - 1e-9 <= score <= high + 1e-9):
            return f"score {score} outside score_range {reward.score_range}"
    return None


def short(value, limit: int = 160) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a value whose repr fails is itself worth naming
        text = f"<repr failed: {type(exc).__name__}>"
    if len(text) > limit:
        text = f"{text[:limit // 2]}...{text[-limit // 4:]} ({len(text)} chars)"
    return text


def fuzz_reward(type_name: str, items: int, rng: random.Random, worker_cpu: WorkerCPU, batch: int, big_share: float) -> dict:
    reward = registry.reward_class(type_name)()
    columns_needed = declared_columns(type_name, reward)
    gen = HostileText(rng)
    row = {"target": type_name, "kind": "reward", "items": 0, "calls": 0, "escaped": 0, "malformed": 0, "big_items": 0,
           "max_big_cpu": 0.0, "max_big_main": 0.0, "max_big_worker": 0.0, "worst_big": "", "findings": [], "cpu": 0.0}
    n_big = max(1, round(items * big_share))
    n_small = items - n_big

    def call(prompts, completions, columns):
        row["calls"] += 1
        try:
            scores = reward(prompts=prompts, completions=completions, **columns)
        except Exception as exc:  # an escaped exception: isolate the rollout that raised
            row["escaped"] += 1
            culprit = ""
            for i in range(len(completions)):
                try:
                    reward(prompts=prompts[i:i + 1], completions=completions[i:i + 1], **{k: v[i:i + 1] for k, v in columns.items()})
                except Exception:
                    culprit = (f"completion={short(completions[i])}, prompt={short(prompts[i])}, "
                               + ", ".join(f"{k}={short(v[i])}" for k, v in columns.items()))
                    break
            if len(row["findings"]) < 3:
                row["findings"].append(f"{type(exc).__name__}: {exc!s:.300} -- rollout {culprit or '(batch only)'}\n"
                                       + "".join(traceback.format_exception(exc))[-3000:])
            return
        problem = check_scores(reward, scores, len(completions))
        if problem:
            row["malformed"] += 1
            if len(row["findings"]) < 3:
                row["findings"].append(f"malformed output: {problem}")

    start = time.process_time()
    done = 0
    while done < n_small:
        n = min(rng.choice([1, 2, 3, 7, 16, batch]), n_small - done)
        completions = [gen.completion() for _ in range(n)]
        prompts = [gen.prompt() for _ in range(n)]
        columns = {c: [gen.cell(c) for _ in range(n)] for c in columns_needed}
        call(prompts, completions, columns)
        done += n
    for _ in range(n_big):  # each 100 KB rollout alone, its CPU timed
        text, shape = gen.big()
        completion = [{"role": "assistant", "content": text}] if rng.random() < 0.2 else text
        columns = {c: [gen.big()[0] if rng.random() < 0.2 else gen.cell(c)] for c in columns_needed}
        prompt = gen.big()[0] if rng.random() < 0.1 else gen.prompt()
        worker_cpu.take()
        t0 = time.process_time()
        call([prompt], [completion], columns)
        main = time.process_time() - t0
        worker = worker_cpu.take()
        row["big_items"] += 1
        if main + worker > row["max_big_cpu"]:
            row["max_big_cpu"], row["max_big_main"], row["max_big_worker"] = main + worker, main, worker
            row["worst_big"] = shape + (" (as a message list)" if isinstance(completion, list) else "")
    row["items"] = n_small + n_big
    row["cpu"] = time.process_time() - start
    return row


# ------------------------------------------------------------------------------------------------ combiners
HUGE = [1.7976931348623157e308, -1.7976931348623157e308, 1.7e308, -1.7e308, 1e308, -1e308]
TINY = [5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, -0.0, 0.0]


def hostile_groups(groups: np.ndarray, rng: np.random.Generator):
    """The same partition under odd ids: strings, negative and huge ints, floats, tuples, None, mixed, shuffled."""
    labels = np.unique(groups)
    kind = int(rng.integers(0, 10))
    if kind == 0:
        return groups
    if kind == 1:
        ids = {g: f"q{g}\u200b" for g in labels}
    elif kind == 2:
        ids = {g: -int(g) * 7 - 1 for g in labels}
    elif kind == 3:
        ids = {g: 10**30 + int(g) for g in labels}
    elif kind == 4:
        ids = {g: float(g) + 0.5 for g in labels}
    elif kind == 5:
        ids = {g: ("prompt", int(g)) for g in labels}
    elif kind == 6:
        ids = {g: (None if g == labels[0] else int(g)) for g in labels}
    elif kind == 7:
        ids = {g: (str(g) if g % 2 else int(g)) for g in labels}
    elif kind == 8:
        ids = {g: int(rng.integers(-2**62, 2**62)) for g in labels}
    else:
        ids = {g: int(g) for g in labels}
    out = [ids[g] for g in groups]
    if rng.random() < 0.5 and len(out) > 1:  # interleaved rows: groups not contiguous
        perm = rng.permutation(len(out))
        return [out[i] for i in perm], perm
    return out


def hostile_batch(rng: np.random.Generator, k: int):
    """(scores, groups, weights, expect_error): a reward batch of the suite made hostile."""
    shape = int(rng.integers(0, 12))
    if shape == 0:
        return np.zeros((0, k)), [], rng.choice(WEIGHTS, k), False
    if shape == 1:  # G = 1 everywhere
        n = int(rng.integers(1, 40))
        sizes = [1] * n
    elif shape == 2:  # one large group, not a power of two
        sizes = [int(rng.choice([3, 5, 7, 9, 15, 31, 33, 63, 100, 257]))]
    elif shape == 3:  # many groups
        sizes = list(rng.integers(1, 12, int(rng.integers(20, 300))))
    else:
        sizes = list(rng.integers(1, 34, int(rng.integers(1, 5))))
    weights = list(rng.choice(WEIGHTS, k))
    batch = build_batch(int(rng.integers(0, 2**32 - 1)), sizes, k, str(rng.choice(["binary", "continuous", "fractions"])),
                        float(rng.choice([0.0, 0.15, 0.4, 1.0])), int(rng.integers(0, len(sizes) + 1)), weights)
    scores = batch.scores
    n = len(scores)
    expect_error = False
    twist = int(rng.integers(0, 9))
    if twist == 1:  # huge finite magnitudes
        mask = rng.random(scores.shape) < 0.5
        scores[mask] = rng.choice(HUGE, int(mask.sum()))
    elif twist == 2:  # tiny and subnormal
        mask = rng.random(scores.shape) < 0.7
        scores[mask] = rng.choice(TINY, int(mask.sum()))
    elif twist == 3:  # the whole float64 range
        scores = np.ldexp(rng.uniform(-1, 1, scores.shape), rng.integers(-1074, 1024, scores.shape))
    elif twist == 4:  # whole rows missing
        scores[rng.random(n) < 0.5] = np.nan
    elif twist == 5:  # inf: outside the contract, a one-line ValueError
        if n:
            scores[int(rng.integers(n)), int(rng.integers(k))] = rng.choice([math.inf, -math.inf])
            expect_error = True
    elif twist == 6:  # constant non-dyadic values everywhere
        scores[:] = rng.choice(NON_DYADIC)
    elif twist == 7:  # odd weights
        weights = list(rng.choice([0.0, 1e308, -1e308, 1e-300, 3.0], k))
    groups = hostile_groups(batch.groups, rng)
    if isinstance(groups, tuple):
        groups, perm = groups
        scores = scores[perm]
    return scores, groups, np.asarray(weights, dtype=float), expect_error


def fuzz_combiner(type_name: str, items: int, rng: np.random.Generator) -> dict:
    cls = registry.combiner_class(type_name)
    row = {"target": type_name, "kind": "combiner", "items": 0, "calls": 0, "escaped": 0, "malformed": 0, "refused": 0,
           "inf_accepted": 0, "refusals": {}, "max_call_cpu": 0.0, "worst_call": "", "findings": [], "cpu": 0.0}
    start = time.process_time()
    while row["items"] < items:
        combiner = cls()  # a fresh instance per episode; stateful ones see a sequence of batches of one width
        k = cls.max_reward_columns or int(rng.integers(1, 5))  # PAPO: exactly its two columns (outcome, process)
        for _ in range(int(rng.integers(1, 9))):
            if row["items"] >= items:
                break
            scores, groups, weights, expect_error = hostile_batch(rng, k)
            n = len(scores)
            codes = np.unique(np.asarray([str(g) for g in groups], dtype=object), return_inverse=True)[1] if n else np.zeros(0, int)
            extra = extra_arrays(combiner, codes, rng) if n else {name: np.zeros(0) for name in extra_arrays(combiner, np.zeros(1, int), rng)}
            row["items"] += 1
            row["calls"] += 1
            t0 = time.process_time()
            try:
                with np.errstate(all="ignore"):
                    out = np.asarray(combiner(scores, groups, weights, **extra), dtype=float)
            except ValueError as exc:
                if "\n" in str(exc) or not str(exc):
                    row["escaped"] += 1
                    if len(row["findings"]) < 3:
                        row["findings"].append(f"multi-line ValueError on N={n}, K={k}: {exc!s:.300}")
                else:
                    row["refused"] += 1
                    reason = re.sub(r"(?<![\w.])[-+]?\d[\d.e+-]*", "#", str(exc))[:90]
                    row["refusals"][reason] = row["refusals"].get(reason, 0) + 1
                continue
            except Exception as exc:
                row["escaped"] += 1
                if len(row["findings"]) < 3:
                    row["findings"].append(f"{type(exc).__name__} on N={n}, K={k}, groups={short(np.asarray(groups, dtype=object)[:8].tolist())}, "
                                           f"scores={short(scores[:4].tolist())}, weights={weights.tolist()}: {exc!s:.300}\n"
                                           + "".join(traceback.format_exception(exc))[-3000:])
                continue
            finally:
                used = time.process_time() - t0
                if used > row["max_call_cpu"]:
                    row["max_call_cpu"], row["worst_call"] = used, f"N={n}, K={k}"
            if expect_error:
                row["inf_accepted"] += 1
            if out.shape != (n,) or not np.isfinite(out).all():
                row["malformed"] += 1
                if len(row["findings"]) < 3:
                    bad = [int(i) for i in np.flatnonzero(~np.isfinite(out))[:3]] if out.shape == (n,) else []
                    row["findings"].append(f"output shape {out.shape} for N={n} or non-finite at rows {list(bad)}: "
                                           f"scores={short(scores[bad].tolist() if bad else scores[:3].tolist())}, out={short(out[bad].tolist() if bad else [])}, "
                                           f"weights={weights.tolist()}, groups={short(np.asarray(groups, dtype=object)[:8].tolist())}")
    row["cpu"] = time.process_time() - start
    return row


# ------------------------------------------------------------------------------------------------ report
def write_report(path: Path, args, rewards: list[dict], combiners: list[dict], wall: float, started: str, worker_cpu) -> None:
    total = sum(r["items"] for r in rewards + combiners)
    escaped = sum(r["escaped"] for r in rewards + combiners)
    malformed = sum(r["malformed"] for r in rewards + combiners)
    worst = max(rewards, key=lambda r: r["max_big_cpu"]) if rewards else None
    lines = [
        "# Fuzz run (nightly style): every registered reward and combiner",
        "",
        f"Produced by `python benchmarks/fuzz_nightly.py --items {args.items} --seed {args.seed}` on {started};",
        f"machine: {describe_machine()} (shared with other jobs); one engine worker (`POLYREWARD_WORKERS=1`); "
        f"wall {wall:.0f} s.",
        "",
        f"**{total:,} hostile items, {escaped} escaped exceptions, {malformed} malformed outputs; "
        + (f"largest CPU of one 100 KB rollout {worst['max_big_cpu']:.3f} s ({worst['target']}).**" if worst else "**"),
        "",
        "Targets: " + f"{len(rewards)} reward types, {len(combiners)} combiners. Not fuzzed: "
        + ("; ".join(f"`{name}` ({why})" for name, why in NEEDS_SERVER.items() if name in registry.reward_types()) or "none") + ".",
        "",
        "## Rewards",
        "",
        "Called as TRL does, `reward(prompts=..., completions=..., **columns)`, in batches of 1-64; every 100 KB rollout alone.",
        "CPU of a 100 KB item = `time.process_time()` of the main process around the call + the CPU the engine's worker",
        "processes report for that call's items (`Outcome.cpu_seconds`); over the whole run the workers ran "
        f"{worker_cpu.items:,} items for {worker_cpu.total:.1f} CPU s.",
        "",
        "| reward | items | calls | escaped exceptions | malformed outputs | 100 KB items | max CPU at 100 KB (main + workers) | slowest 100 KB shape | CPU total |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in rewards:
        lines.append(f"| `{r['target']}` | {r['items']:,} | {r['calls']:,} | {r['escaped']} | {r['malformed']} | {r['big_items']} | "
                     f"{r['max_big_cpu']:.3f} s ({r['max_big_main']:.3f} + {r['max_big_worker']:.3f}) | {r['worst_big'].replace('|', '∣')} | {r['cpu']:.1f} s |")
    lines += [
        "",
        "## Combiners",
        "",
        "One item = one score matrix (N x K) with its group ids and weights, passed to `combiner(scores, groups, weights, **rows)`.",
        "A one-line `ValueError` is the documented refusal of invalid input (inf cells, a width the method does not take,",
        "advantages beyond float64); anything else raised is escaped; an output is malformed if its shape is not (N,) or any",
        "advantage is not finite (NaN cells are \"not applicable\" and must still give finite advantages).",
        "",
        "| combiner | items | escaped exceptions | malformed outputs | refused (one-line ValueError) | inf accepted | max CPU per call | its shape | CPU total |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in combiners:
        lines.append(f"| `{r['target']}` | {r['items']:,} | {r['escaped']} | {r['malformed']} | {r['refused']:,} | {r['inf_accepted']} | "
                     f"{r['max_call_cpu']:.3f} s | {r['worst_call']} | {r['cpu']:.1f} s |")
    lines += ["", "The refusals, by message (numbers replaced by #):", ""]
    for r in combiners:
        top = sorted(r["refusals"].items(), key=lambda kv: -kv[1])[:4]
        lines.append(f"* `{r['target']}`: " + "; ".join(f"{count:,} × \"{text}\"" for text, count in top))
    findings = [(r["target"], f) for r in rewards + combiners for f in r["findings"]]
    lines += ["", "## Findings", ""]
    if findings:
        for target, text in findings:
            lines += [f"* `{target}`:", "", "```text", text.rstrip(), "```", ""]
    else:
        lines.append("None: no escaped exception, no malformed output.")
    over = [r["target"] for r in rewards if r["max_big_cpu"] >= 1.0]
    lines += ["", f"Targets: 0 escaped exceptions — {'met' if escaped == 0 else '**not met**'}; "
              f"nothing over 1 s CPU at 100 KB — {'met' if not over else '**not met** (' + ', '.join(over) + ')'}.", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000, help="hostile items in all, shared out over the targets")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "fuzz_nightly.md")
    parser.add_argument("--batch", type=int, default=64, help="the largest reward batch")
    parser.add_argument("--big-share", type=float, default=0.03, help="share of each reward's items that are 100 KB rollouts")
    parser.add_argument("--only", nargs="*", help="fuzz only these targets (a quick rerun of one finding)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", message="Number of distinct clusters")  # DRPO's k-means on constant batches
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    reward_types = [t for t in registry.reward_types() if t not in NEEDS_SERVER and (not args.only or t in args.only)]
    combiner_types = [t for t in registry.combiner_types() if not args.only or t in args.only]
    per_target = max(1, args.items // max(1, len(reward_types) + len(combiner_types)))
    extra = args.items - per_target * (len(reward_types) + len(combiner_types))
    print(f"{started}: {args.items:,} items over {len(reward_types)} rewards and {len(combiner_types)} combiners "
          f"(~{per_target:,} each), seed {args.seed}", flush=True)
    worker_cpu = WorkerCPU()
    t0 = time.time()
    rewards, combiners = [], []
    for i, name in enumerate(reward_types):
        count = per_target + (1 if i < extra else 0)
        row = fuzz_reward(name, count, random.Random(f"{args.seed}:{name}"), worker_cpu, args.batch, args.big_share)
        rewards.append(row)
        print(f"[{time.time() - t0:6.0f} s] reward {name}: {row['items']:,} items, {row['escaped']} escaped, {row['malformed']} malformed, "
              f"max 100 KB CPU {row['max_big_cpu']:.3f} s ({row['worst_big'][:40]}), {row['cpu']:.1f} s CPU", flush=True)
    for j, name in enumerate(combiner_types):
        count = per_target + (1 if len(reward_types) + j < extra else 0)
        row = fuzz_combiner(name, count, np.random.default_rng([args.seed, j]))
        combiners.append(row)
        print(f"[{time.time() - t0:6.0f} s] combiner {name}: {row['items']:,} items, {row['escaped']} escaped, {row['malformed']} malformed, "
              f"{row['refused']:,} refused, max call CPU {row['max_call_cpu']:.3f} s, {row['cpu']:.1f} s CPU", flush=True)
    write_report(args.out, args, rewards, combiners, time.time() - t0, started, worker_cpu)
    print(f"wrote {args.out}", flush=True)
    bad = sum(r["escaped"] + r["malformed"] for r in rewards + combiners) + sum(r["max_big_cpu"] >= 1.0 for r in rewards)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
