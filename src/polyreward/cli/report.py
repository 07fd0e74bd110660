"""``polyreward report IN [IN ...] -o DIR [--kind auto|rollouts|metrics] [--labels a,b]``: PNG plots and one self-contained HTML page.

- rollouts (a scored rollout file): per-reward distributions, the advantages of several combiners side
  by side on the same data (histograms and advantage vs weighted reward), and their collapse
  diagnostics (table + bar chart).
  The reward columns and weights are chosen as by ``polyreward advantages``: ``--rewards``, else the
  ``--config`` rewards and weights, else the columns ``polyreward score`` wrote as rewards (never
  sub-scores such as ``overlong.length``).
- metrics (a trainer metrics JSONL, one row per step with a ``step`` column): grouped training curves
  (:data:`PANELS`: the weighted reward with each objective's mean, loss, entropy and KL, lengths,
  collapse fractions, ...), integer step ticks, a table of every metric's first and final value, and a
  table of the metrics that never changed (not plotted). Several metrics files (e.g. the GDPO and the
  sum-then-normalise run of the same recipe) are overlaid on the same axes, one line per run, labelled
  by ``--labels`` or by each file's folder name.

``--kind auto`` (default) picks "metrics" when the file has a ``step`` column and no completions. The
HTML page embeds every PNG as base64, so ``DIR/report.html`` can be mailed on its own.
"""

from __future__ import annotations

import argparse
import base64
import html
import math
import sys
from collections.abc import Callable
from pathlib import Path

DEFAULT_COMBINERS = "grpo,gdpo,dvao,mo_grpo,g2rpo"
PER_FIGURE = 9


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from polyreward.cli import add_set_argument

    parser.add_argument("input", nargs="+", help="scored rollouts or trainer metrics: .jsonl, .parquet or .csv "
                        "(several metrics files: their curves are overlaid)")
    parser.add_argument("--labels", default=None, help="comma-separated run names for several metrics files (default: folder names)")
    parser.add_argument("-o", "--output", required=True, help="output directory (created)")
    parser.add_argument("--kind", choices=("auto", "rollouts", "metrics"), default="auto",
                        help="what the input holds: scored rollouts (reward columns per row) or trainer metrics "
                        "(metrics.jsonl); auto (default) tells them apart by their columns")
    parser.add_argument("--rewards", default=None, help="comma-separated reward columns (rollouts; default: the --config rewards, "
                        "else the columns polyreward score wrote as rewards)")
    parser.add_argument("--config", "-c", default=None, help="the polyreward YAML the rollouts were scored with: its reward names and weights")
    parser.add_argument("--weights", default=None, help="comma-separated weights, one per reward column")
    parser.add_argument("--group-col", default=None, help="group id column (default prompt_id, else prompt)")
    parser.add_argument("--combiners", default=DEFAULT_COMBINERS, help=f"combiners to compare (default {DEFAULT_COMBINERS})")
    parser.add_argument("--title", default=None, help="page title")
    add_set_argument(parser, " (with --config)")


def detect_kind(frame) -> str:
    return "metrics" if "step" in frame.columns and "completion" not in frame.columns else "rollouts"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, never a display
    import matplotlib.pyplot as plt

    return plt


def _save(fig, directory: Path, name: str) -> Path:
    path = directory / name
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    _pyplot().close(fig)
    return path


def _grid(count: int) -> tuple[int, int]:
    cols = min(count, 3)
    return math.ceil(count / cols), cols


def reward_distributions(frame, rewards: list[str], directory: Path) -> Path:
    import numpy as np

    from polyreward.combiners.apply import reward_matrix

    plt = _pyplot()
    scores = reward_matrix(frame, rewards)
    rows, cols = _grid(len(rewards))
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    for j, name in enumerate(rewards):
        ax = axes.flat[j]
        values = scores[:, j][~np.isnan(scores[:, j])]
        ax.hist(values, bins=min(30, max(5, len(set(values.tolist())))), color="#4c72b0")
        ax.set_title(f"{name}  (n={len(values)}, N/A={len(scores) - len(values)})", fontsize=9)
    for ax in list(axes.flat)[len(rewards):]:
        ax.axis("off")
    fig.suptitle("reward distributions")
    return _save(fig, directory, "rewards.png")


def combiner_comparison(frame, rewards, weights, group, names: list[str], directory: Path):
    import numpy as np

    from polyreward.rewardset import weighted_total
    from polyreward.combiners.apply import add_advantages, reward_matrix
    from polyreward.combiners.diagnostics import diagnose

    plt = _pyplot()
    scores = reward_matrix(frame, rewards)
    total = weighted_total(scores, np.ones(len(rewards)) if weights is None else np.asarray(weights, dtype=float))
    ids = frame[group].map(str).to_numpy()
    results, summaries = {}, {}
    for name in names:
        out = add_advantages(frame, rewards, weights, group, name)
        results[name] = out["advantage"].to_numpy(dtype=float)
        summaries[name] = diagnose(scores, ids, results[name], weights, rewards).summary
    fig, axes = plt.subplots(2, len(names), figsize=(3.6 * len(names), 6), squeeze=False)
    for j, name in enumerate(names):
        axes[0, j].hist(results[name], bins=40, color="#55a868")
        axes[0, j].set_title(name, fontsize=10)
        axes[1, j].scatter(total, results[name], s=6, alpha=0.4)
        axes[1, j].set_xlabel("weighted reward", fontsize=8)
    axes[0, 0].set_ylabel("count")
    axes[1, 0].set_ylabel("advantage")
    fig.suptitle("advantages of each combiner on the same rollouts")
    advantages_png = _save(fig, directory, "advantages.png")

    keys = ["collapsed_group_fraction", "zero_signal_fraction"]
    fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(names)), 3.5))
    x = np.arange(len(names))
    for i, key in enumerate(keys):
        ax.bar(x + (i - 0.5) * 0.35, [summaries[n][key] for n in names], width=0.35, label=key)
    ax.set_xticks(x, names)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title("collapse diagnostics (fraction of groups)")
    collapse_png = _save(fig, directory, "collapse.png")
    return [advantages_png, collapse_png], summaries


# Panels of the metrics report: series that share a unit and a question go on one set of axes.
# Anything not named here gets a panel of its own; a series constant over the whole run is listed in a
# table instead of drawn.
PANELS: list[tuple[str, Callable[[str], bool]]] = [
    ("reward: weighted total and each objective's mean", lambda n: n == "reward" or (n.startswith("reward/") and n.endswith("/mean"))),
    ("reward std", lambda n: n == "reward_std" or (n.startswith("reward/") and n.endswith("/std"))),
    ("loss", lambda n: n == "loss"),
    ("entropy and KL (per token)", lambda n: n in ("entropy", "kl")),
    ("completion length (tokens)", lambda n: n.startswith("completions/") and n.endswith("_length")),
    ("fractions of groups and rollouts",
     lambda n: n in ("frac_reward_zero_std", "advantage/collapsed_group_fraction", "advantage/zero_signal_fraction",
                     "advantage/frac_zero", "completions/terminated")),
    ("each objective's share of the advantage", lambda n: n.startswith("advantage/share/")),
    ("sign-flip rate per objective", lambda n: n.startswith("advantage/sign_flip_rate/")),
    ("reward applicable / failed (fraction of rollouts)", lambda n: n.startswith("reward/") and n.endswith(("/applicable", "/errors"))),
    ("advantage distribution", lambda n: n in ("advantage/mean", "advantage/std", "advantage/min", "advantage/max")),
    ("distinct reward profiles / advantage values per group", lambda n: n in ("advantage/mean_profiles", "advantage/mean_advantage_values")),
    ("clip ratio", lambda n: n.startswith("clip_ratio/")),
    ("gradient norm", lambda n: n == "grad_norm"),
    ("learning rate", lambda n: n == "learning_rate"),
    ("seconds per step", lambda n: n.startswith("time/")),
    ("generated tokens per second", lambda n: n == "tokens_per_second"),
    ("peak memory (MB)", lambda n: n == "peak_memory_mb"),
]


def _curve_order(names: list[str]) -> list[str]:
    """Metric names in panel order (per-objective rewards first), the rest after them in file order."""
    def rank(name: str) -> int:
        return next((i for i, (_, member) in enumerate(PANELS) if member(name)), len(PANELS))

    return sorted(names, key=rank)  # stable: keeps the file's order within each panel


def metric_panels(names: list[str]) -> list[tuple[str, list[str]]]:
    """``[(title, [metric, ...]), ...]``: the PANELS groups that have members, then one panel per other metric."""
    panels = [(title, [n for n in names if member(n)]) for title, member in PANELS]
    grouped = {n for _, members in panels for n in members}
    return [(t, m) for t, m in panels if m] + [(n, [n]) for n in names if n not in grouped]


def _is_flat(runs: dict, name: str) -> bool:
    values = [v for frame in runs.values() if name in frame.columns for v in frame[name].dropna().tolist()]
    return not values or max(values) - min(values) <= 1e-12 * max(1.0, abs(values[0]))


def _numeric_metrics(runs: dict) -> list[str]:
    import pandas as pd

    metrics: list[str] = []
    for frame in runs.values():
        metrics += [c for c in frame.columns if c != "step" and c not in metrics and pd.api.types.is_numeric_dtype(frame[c])
                    and frame[c].notna().any()]
    if not metrics:
        raise ValueError("the metrics file has a 'step' column but no numeric metric columns")
    return _curve_order(metrics)


def _step_axis(ax) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # step 1, 2, 3 on short runs, never 1.5
    ax.set_xlabel("step", fontsize=8)
    ax.ticklabel_format(axis="y", useOffset=False)  # 0.7501, 0.7502 instead of "+7.5e-1" above the axis
    ax.tick_params(labelsize=7)


def training_curves(frames, directory: Path) -> list[Path]:
    """Grouped training curves (:data:`PANELS`); ``frames`` is one metrics frame or ``{run label: frame}`` (overlaid).
    Metrics that never change are left out (see :func:`metrics_tables`)."""
    plt = _pyplot()
    runs = frames if isinstance(frames, dict) else {"": frames}
    runs = {label: frame.sort_values("step") for label, frame in runs.items()}
    names = [n for n in _numeric_metrics(runs) if not _is_flat(runs, n)]
    panels = [(title, members) for title, members in metric_panels(names)]
    paths = []
    for start in range(0, len(panels), PER_FIGURE):
        chunk = panels[start : start + PER_FIGURE]
        rows, cols = _grid(len(chunk))
        fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.2 * rows), squeeze=False)
        for ax, (title, members) in zip(axes.flat, chunk):
            for label, frame in runs.items():
                for name in members:
                    if name not in frame.columns:
                        continue
                    data = frame[["step", name]].dropna()
                    series = name if len(members) > 1 else ""
                    text = " ".join(part for part in (label, series) if part) or None
                    ax.plot(data["step"], data[name], marker="." if len(data) < 50 else None, label=text)
            ax.set_title(title, fontsize=9)
            _step_axis(ax)
            if len(members) > 1 or len(runs) > 1:
                ax.legend(fontsize=6)
        for ax in list(axes.flat)[len(chunk):]:
            ax.axis("off")
        paths.append(_save(fig, directory, f"curves_{start // PER_FIGURE + 1}.png"))
    return paths


def metrics_tables(frames) -> str:
    """HTML: the first and last value of every metric per run, and the metrics that stayed constant."""
    runs = frames if isinstance(frames, dict) else {"": frames}
    runs = {label: frame.sort_values("step") for label, frame in runs.items()}
    names = _numeric_metrics(runs)

    def cell(frame, name: str, last: bool) -> str:
        if name not in frame.columns or not frame[name].notna().any():
            return "<td></td>"
        values = frame[["step", name]].dropna()
        step, value = values.iloc[-1 if last else 0]
        return f"<td>{value:.4g} <small>(step {int(step)})</small></td>"

    changing = [n for n in names if not _is_flat(runs, n)]
    head = "<tr><th>metric</th>" + "".join(f"<th>{html.escape(label or 'run')}: first</th><th>{html.escape(label or 'run')}: last</th>"
                                           for label in runs) + "</tr>"
    body = "".join(f"<tr><td style='text-align:left'>{html.escape(n)}</td>"
                   + "".join(cell(f, n, False) + cell(f, n, True) for f in runs.values()) + "</tr>" for n in changing)
    parts = [f"<h3>first and final values</h3><table>{head}{body}</table>"]
    flat = [n for n in names if n not in changing]
    if flat:
        rows = "".join(f"<tr><td style='text-align:left'>{html.escape(n)}</td><td>"
                       f"{next(f[n].dropna().iloc[0] for f in runs.values() if n in f.columns and f[n].notna().any()):.4g}</td></tr>"
                       for n in flat)
        parts.append(f"<h3>constant during the run (not plotted)</h3><table><tr><th>metric</th><th>value</th></tr>{rows}</table>")
    return "\n".join(parts)


def run_labels(paths: list[str | Path], labels: list[str] | None = None) -> list[str]:
    """``labels`` (checked: one per file, distinct), else each file's folder name, else its path."""
    if labels is not None:
        if len(labels) != len(paths) or len(set(labels)) != len(labels):
            raise ValueError(f"--labels needs {len(paths)} distinct name(s), one per metrics file; got {labels}")
        return labels
    for candidate in ([Path(p).parent.name or str(p) for p in paths], [Path(p).stem for p in paths], [str(p) for p in paths]):
        if len(set(candidate)) == len(candidate):
            return candidate
    return [f"run {i + 1}" for i in range(len(paths))]


def html_page(title: str, sections: list[tuple[str, list[Path], str]]) -> str:
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:1400px;margin:auto;padding:1em}img{max-width:100%}"
        "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}</style>",
        f"</head><body><h1>{html.escape(title)}</h1>",
    ]
    for heading, images, extra in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>")
        for image in images:
            data = base64.b64encode(image.read_bytes()).decode("ascii")
            parts.append(f"<p><img alt='{html.escape(image.name)}' src='data:image/png;base64,{data}'></p>")
        parts.append(extra)
    parts.append("</body></html>")
    return "\n".join(parts)


def summary_table(summaries: dict[str, dict[str, float]]) -> str:
    names = list(summaries)
    keys = list(next(iter(summaries.values())))
    head = "<tr><th>diagnostic</th>" + "".join(f"<th>{html.escape(n)}</th>" for n in names) + "</tr>"
    body = "".join(
        f"<tr><td style='text-align:left'>{html.escape(k)}</td>" + "".join(f"<td>{summaries[n][k]:.4g}</td>" for n in names) + "</tr>" for k in keys
    )
    return f"<table>{head}{body}</table>"


def build_report(input_path, output_dir: str | Path, kind: str = "auto", rewards=None, weights=None, group=None,
                 combiners: str = DEFAULT_COMBINERS, title: str | None = None, labels: list[str] | None = None,
                 config=None) -> Path:
    """Write the PNGs and ``report.html`` into ``output_dir``; returns the HTML path.

    ``input_path`` is one file, or a list of metrics files to overlay (``labels`` names the runs); ``config``
    (a :class:`~polyreward.config.Config`) gives the reward columns, weights and group column of rollouts."""
    from polyreward.cli.advantages import choose_rewards, read_frame

    paths = list(input_path) if isinstance(input_path, (list, tuple)) else [input_path]
    frames = [read_frame(p) for p in paths]
    frame, input_path = frames[0], paths[0]
    kinds = [detect_kind(f) if kind == "auto" else kind for f in frames]
    if len(paths) > 1 and set(kinds) != {"metrics"}:
        raise ValueError("several input files are compared only as trainer metrics (each with a 'step' column); "
                         f"{', '.join(str(p) for p, k in zip(paths, kinds) if k != 'metrics')} is not one")
    kind = kinds[0]
    directory = Path(output_dir)
    directory.mkdir(parents=True, exist_ok=True)
    if kind == "metrics":
        for path, data in zip(paths, frames):
            if "step" not in data.columns:
                raise ValueError(f"{path}: a metrics file needs a 'step' column; columns are {', '.join(map(str, data.columns))}")
        names = run_labels(paths, labels) if len(paths) > 1 else None
        runs = dict(zip(names, frames)) if names else frame
        title = title or f"polyreward report: {' vs '.join(names) if names else Path(input_path).name}"
        sections = [("training curves", training_curves(runs, directory), metrics_tables(runs))]
        from polyreward.runners.hacking import signals_html

        types = {e.name or e.type: e.type for e in config.rewards} if config is not None else None
        sections += [(f"reward-hacking signals{f': {label}' if label else ''}", [], signals_html(f.sort_values("step").to_dict("records"), types))
                     for label, f in (runs.items() if isinstance(runs, dict) else [("", runs)])]
    else:
        title = title or f"polyreward report: {Path(input_path).name}"
        group = group or (config.columns.group if config is not None else None) or ("prompt_id" if "prompt_id" in frame.columns else "prompt")
        if group not in frame.columns:
            raise ValueError(f"group column {group!r} not in {input_path}; use --group-col")
        rewards, weights = choose_rewards(frame, group, rewards, weights, config)
        names = [c.strip() for c in combiners.split(",") if c.strip()]
        images, summaries = combiner_comparison(frame, rewards, weights, group, names, directory)
        sections = [
            ("reward distributions", [reward_distributions(frame, rewards, directory)], ""),
            ("advantages by combiner", images[:1], ""),
            ("collapse diagnostics", images[1:], summary_table(summaries)),
        ]
    page = directory / "report.html"
    page.write_text(html_page(title, sections), encoding="utf-8")
    return page


def run(args: argparse.Namespace) -> int:
    from polyreward.cli.advantages import parse_weights

    output = Path(args.output)
    if output.exists() and not output.is_dir():  # checked before any input is read or matplotlib imported
        print(f"polyreward report: error: -o {output}: is a file; -o names a folder (created) for report.html and the PNGs",
              file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401  (the report extra; checked before any file is read)
    except ImportError:
        print('polyreward report needs matplotlib: pip install -e ".[report]" (from the source checkout) or pip install matplotlib',
              file=sys.stderr)
        return 2
    rewards = [c.strip() for c in args.rewards.split(",") if c.strip()] if args.rewards else None
    try:
        weights = parse_weights(args.weights)
        labels = [c.strip() for c in args.labels.split(",")] if args.labels else None
        config = None
        if args.config:
            from polyreward.config import load_config

            config = load_config(args.config, args.overrides)
        elif args.overrides:
            raise ValueError("--set changes a config: give it with --config")
        page = build_report(args.input, args.output, args.kind, rewards, weights, args.group_col, args.combiners, args.title, labels,
                            config)
    except (ValueError, KeyError, FileNotFoundError) as exc:
        print(f"polyreward report: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {page} and {len(list(page.parent.glob('*.png')))} PNG file(s)")
    return 0
