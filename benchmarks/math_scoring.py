"""Math scoring benchmark: CPU time, wall time and label agreement of ``math_accuracy`` vs TRL and plain Math-Verify.

    python benchmarks/math_scoring.py [--prompts 250] [--symbolic-prompts 300] [--group 8] [--chunk 256] [--rounds 3]

Two labelled rollout files (rebuilt each run under ``$TMPDIR``; labels known by construction):

* **mix**: reasoning-gym problems (gsm_symbolic, basic_arithmetic, fraction_simplification,
  decimal_arithmetic, polynomial_multiplication, complex_arithmetic), ``--group`` completions per
  prompt in mixed answer styles with answers repeated inside groups (``examples/rollout_styles.py``);
* **symbolic**: radicals, multiples of pi, intervals, sets, tuples, matrices, trig values and linear
  equations (``benchmarks/symbolic_rollouts.py``).

Methods, each in a fresh Python process (no parse cache shared), alternated in ``--rounds`` rounds
(medians reported; the machine is shared, so single runs are noisy):

* ``polyreward``: ``math_accuracy`` in-process with 2 worker processes started before timing (as a
  trainer keeps them), scored in chunks of ``--chunk`` rollouts (an RL step's batch);
* ``polyreward score``: the CLI end to end (interpreter start, imports, pool start, reading, scoring,
  writing), timed from outside;
* the same checks with the pure-Python fast paths (numbers, polynomials, canonical forms) switched off
  on the symbolic file, so every pair is parsed and compared by sympy in the pool (parse once per
  text, numeric probe, Math-Verify) -- the per-core cost of what the fast paths do not cover;
* TRL's ``trl.rewards.accuracy_reward`` (the reward GRPO recipes use), on the mix;
* a plain Math-Verify loop ``verify(parse(gold), parse(completion))``; on the symbolic file the gold
  is wrapped as ``$gold$`` (without it Math-Verify cannot read most golds, which is not a fair baseline).

CPU seconds count the scoring process and its live worker processes (``resource.getrusage`` of self
and children plus ``/proc/<pid>/stat`` of each worker), so per-core efficiency is compared
independently of the worker count. The CLI rows' CPU is the whole command's, start-up included: the
process and every descendant (the worker pool's forkserver and workers; this script adopts orphans as
their subreaper and reaps them before reading ``RUSAGE_CHILDREN``), while the in-process rows (TRL, the
Math-Verify loop) count their scoring loop only, not their imports -- so the CLI's "CPU per rollout vs
anchor" is the load-free end-to-end figure, and a conservative one. Also measured: the CLI's time to its
first progress line and the total time of a one-row file.

Targets (issue 14): symbolic file CPU s/rollout <= 1/3 of the Math-Verify loop's with >= its
agreement and ``polyreward score`` >= 4x the loop end to end; mix: ``polyreward score`` >= 5x TRL.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
METHODS = {"mix": ("polyreward", "cli", "trl", "math_verify"), "symbolic": ("polyreward", "polyreward_sympy", "cli", "math_verify")}
LABELS = {
    "polyreward": "polyreward `math_accuracy` in-process (2 workers)",
    "polyreward_sympy": "same, pure-Python fast paths off (every pair parsed and compared in the 2-worker pool)",
    "cli": "`polyreward score` end to end",
    "cli_before": "`polyreward score` end to end, before (at --before)",
    "trl": "TRL `accuracy_reward`",
    "math_verify": "plain Math-Verify parse+verify loop",
}
CONFIG = """columns: {prompt: prompt, completion: completion, group: prompt_id}
engine: {workers: 2, timeout: 5.0}
rewards:
  - {name: accuracy, type: math_accuracy, answer_column: answer}
"""


def build(path: Path, prompts: int, group: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    from rollout_styles import group_rollouts, load_problems

    rng = random.Random(seed)
    rows = []
    for i, problem in enumerate(load_problems(prompts, seed)):
        rows.extend(group_rollouts(problem, f"p{i:04d}", group, rng))
    _write(path, rows)


def build_symbolic(path: Path, prompts: int, group: int, seed: int) -> None:
    sys.path.insert(0, str(HERE))
    from symbolic_rollouts import symbolic_rows

    _write(path, [{"prompt": f"symbolic problem {r['prompt_id']}", **r} for r in symbolic_rows(prompts, group, seed)])


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def _chunks(rows: list[dict], size: int):
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def _cpu_seconds(worker_pids: list[int]) -> float:
    """CPU of this process, its reaped children and the given live workers (user + system)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    ticks = os.sysconf("SC_CLK_TCK")
    for pid in worker_pids:
        try:
            fields = open(f"/proc/{pid}/stat", encoding="ascii").read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


def run_method(method: str, data: Path, chunk: int, wrap_gold: bool) -> dict:
    """Score ``data`` with one method in this process; returns wall time, CPU time and scores."""
    rows = [json.loads(line) for line in open(data, encoding="utf-8")]
    pool = None
    if method == "polyreward":
        from polyreward.engine import WorkerPool
        from polyreward.rewards.math_accuracy import MathAccuracy

        pool = WorkerPool(workers=2, timeout=5.0)
        pool.start()  # a trainer keeps its workers: their start is not timed
        reward = MathAccuracy(engine=pool)
        rules: dict[str, int] = {}

        def score(batch):
            output = reward.evaluate([None] * len(batch), [r["completion"] for r in batch], answer=[r["answer"] for r in batch])
            for reason in output.reasons:  # "equal [numeric]: ..." -> which path decided
                rule = reason.split("[", 1)[1].split("]", 1)[0] if "[" in reason.split(":", 1)[0] else reason.split(":", 1)[0]
                rules[rule] = rules.get(rule, 0) + 1
            return output.scores
    elif method == "polyreward_sympy":
        from polyreward.engine import WorkerPool
        from polyreward.verifiers.math import verify_batch

        pool = WorkerPool(workers=2, timeout=5.0)
        pool.start()
        rules = {}

        def score(batch):
            verdicts = verify_batch([r["completion"] for r in batch], [r["answer"] for r in batch], pool=pool, fast_paths=False)
            for v in verdicts:
                rules[v.rule or v.reason] = rules.get(v.rule or v.reason, 0) + 1
            return [v.score for v in verdicts]
    elif method == "trl":
        import logging

        from trl.rewards import accuracy_reward

        logging.getLogger("math_verify").setLevel(logging.CRITICAL)

        def score(batch):
            return accuracy_reward([[{"role": "assistant", "content": r["completion"]}] for r in batch], [r["answer"] for r in batch])
    elif method == "math_verify":
        import logging

        from math_verify import parse, verify

        logging.getLogger("math_verify").setLevel(logging.CRITICAL)

        def score(batch):
            return [float(verify(parse(f"${r['answer']}$" if wrap_gold else r["answer"]), parse(r["completion"]))) for r in batch]
    else:
        raise ValueError(method)
    workers = [w.process.pid for w in pool._pool] if pool is not None else []
    scores: list = []
    cpu_start, start = _cpu_seconds(workers), time.perf_counter()
    for batch in _chunks(rows, chunk):
        scores.extend(score(batch))
    seconds = time.perf_counter() - start
    replacements = [w.process.pid for w in pool._pool if w.process.pid not in workers] if pool is not None else []
    cpu = _cpu_seconds(workers + replacements) - cpu_start  # (a worker killed on a timeout takes its CPU with it)
    extra = {}
    if pool is not None:
        extra["rules"] = rules
        extra["restarts"] = pool.restarts
        pool.close()
    return {"method": method, "seconds": seconds, "cpu": cpu, "scores": scores, **extra}


def checkout(ref: str, workdir: Path) -> Path:
    """The package tree at git ``ref`` laid out for ``PYTHONPATH`` (``polyreward`` with its floors inside),
    so the CLI of an older commit runs beside this one with the same interpreter and libraries."""
    import shutil
    import tarfile

    tree = workdir / f"tree_{ref}"
    shim = workdir / f"shim_{ref}"
    tree.mkdir(exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    if (tree / "src" / "polyreward").is_dir():  # the src/ layout: the package is ready for PYTHONPATH as it is
        return tree / "src"
    shutil.copytree(tree / "polyreward", shim / "polyreward", dirs_exist_ok=True)
    for floor in ("verifiers", "rewards", "rubrics", "combiners", "integrations", "trainer"):
        if (tree / floor).is_dir() and not (shim / "polyreward" / floor).exists():
            (shim / "polyreward" / floor).symlink_to(tree / floor)
    return shim


def compile_trees(trees: list[Path]) -> None:
    """Byte-compile the package trees the command lines run from, as an installed package is: where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on the shared benchmark machine) every run would otherwise compile the
    package's sources again, 60-90 ms of each start-up that no user with an installed package pays. Then one import of
    the math reward with bytecode writing on, as any user's first run: a tree with a pattern store
    (``verifiers/pattern_cache.py``) keeps its compiled regular expressions there, as it would after that first run."""
    for tree in trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True, stdout=subprocess.DEVNULL)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-c", "import polyreward.rewards.math_accuracy"], check=True, cwd=tree,
                       env={**env, "PYTHONPATH": str(tree)})


def _adopt_orphans() -> None:
    """Make this process the reaper of its orphaned descendants (Linux ``PR_SET_CHILD_SUBREAPER``): a command's
    worker-pool forkserver that outlives the command is then reaped here, and its CPU counted with the command's."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _reap_descendants(limit: float = 20.0) -> None:
    """Wait (at most ``limit`` seconds) for every descendant left after the command exited (a forkserver, its workers)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(data: Path, workdir: Path, chunk: int, pythonpath: Path | None = None) -> dict:
    """``polyreward score`` end to end from outside: wall time, time to its first progress output, scores.

    Its stderr is a pseudo-terminal, so the progress bar is drawn as a user at a terminal sees it.
    """
    import pty

    config = workdir / "math.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    output = workdir / f"scored_{data.stem}.jsonl"
    output.unlink(missing_ok=True)
    command = [sys.executable, "-m", "polyreward", "score", str(data), "-c", str(config), "-o", str(output), "--chunk-size", str(chunk)]
    master, slave = pty.openpty()
    _adopt_orphans()
    _reap_descendants()  # what an earlier method left (its pool's forkserver and workers) is not this command's CPU
    cpu_before = _children_cpu()
    start = time.perf_counter()
    env = {**os.environ, "COLUMNS": "100", **({"PYTHONPATH": str(pythonpath)} if pythonpath else {})}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=slave, cwd=workdir, env=env)
    os.close(slave)
    first_output = None
    while True:
        try:
            data_read = os.read(master, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not data_read:
            break
        if first_output is None:
            first_output = time.perf_counter() - start
    process.wait()
    seconds = time.perf_counter() - start
    _reap_descendants()
    cpu = _children_cpu() - cpu_before
    os.close(master)
    if process.returncode != 0:
        raise RuntimeError(f"polyreward score failed with exit {process.returncode}")
    scores = [json.loads(line)["accuracy"] for line in open(output, encoding="utf-8")]
    return {"method": "cli_before" if pythonpath else "cli", "seconds": seconds, "cpu": cpu, "first_line": first_output, "scores": scores}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(next(line for line in open("/proc/meminfo") if line.startswith("MemTotal")).split()[1])
        memory = f", {kb / 1024 / 1024:.0f} GB"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{os.cpu_count()}-core {cpu}{memory}, no GPU, Python {platform.python_version()}"


def _agreement(scores: list, labels: list[int]) -> float:
    return sum(1 for s, y in zip(scores, labels) if s is not None and (s == 1.0) == bool(y)) / len(labels)


def _run_subprocess(method: str, data: Path, chunk: int, wrap_gold: bool, env: dict) -> dict:
    command = [sys.executable, __file__, "--run", method, "--data", str(data), "--chunk", str(chunk)] + (["--wrap-gold"] if wrap_gold else [])
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(name: str, data: Path, chunk: int, rounds: int, workdir: Path, env: dict, before: Path | None) -> tuple[list[str], dict]:
    """Every method of file ``name`` ``rounds`` times, alternating; markdown lines and the medians."""
    rows = [json.loads(line) for line in open(data, encoding="utf-8")]
    labels = [row["label"] for row in rows]
    methods = METHODS[name] + (("cli_before",) if before else ())
    runs: dict[str, list[dict]] = {m: [] for m in methods}
    for r in range(rounds):
        for method in methods if r % 2 == 0 else methods[::-1]:
            if method in ("cli", "cli_before"):
                runs[method].append(run_cli(data, workdir, chunk, before if method == "cli_before" else None))
            else:
                runs[method].append(_run_subprocess(method, data, chunk, name == "symbolic" and method == "math_verify", env))
    median = {m: {k: statistics.median(run[k] for run in runs[m]) for k in ("seconds", "cpu")} for m in methods}
    anchor = "trl" if name == "mix" else "math_verify"
    lines = [
        f"**{name}** file: {len(rows)} rollouts ({len({r['prompt_id'] for r in rows})} prompts), {sum(labels)} labelled correct; "
        f"medians of {rounds} alternating rounds; ratios against {LABELS[anchor]}.",
        "",
        "| method | wall s | rollouts/s | CPU ms / rollout | agreement | not scored (None) | wall speed-up | CPU per rollout vs anchor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for method in methods:
        scores = runs[method][-1]["scores"]
        wall, cpu = median[method]["seconds"], median[method]["cpu"]
        cpu_cell = f"{cpu / median[anchor]['cpu']:.2f}"
        lines.append(
            f"| {LABELS[method]} | {wall:.2f} | {len(rows) / wall:,.0f} | {1000 * cpu / len(rows):.2f} | {_agreement(scores, labels):.2%} | "
            f"{sum(1 for s in scores if s is None)} | {median[anchor]['seconds'] / wall:.2f}x | {cpu_cell} |"
        )
    ours = runs["polyreward"][-1]
    lines += ["", "`math_accuracy` decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(ours["rules"].items(), key=lambda kv: -kv[1]))
              + f" (worker restarts: {ours['restarts']})."]
    if "polyreward_sympy" in runs:
        pooled = runs["polyreward_sympy"][-1]
        lines += ["", "with the fast paths off, decided by: " + ", ".join(f"{k} {v}" for k, v in sorted(pooled["rules"].items(), key=lambda kv: -kv[1]))
                  + " (numeric_probe = rejected by evaluating both sides before Math-Verify's verify)."]
    by_task: dict[str, list[int]] = {}
    for row, s in zip(rows, ours["scores"]):
        by_task.setdefault(row["task"], []).append(int(s is not None and (s == 1.0) == bool(row["label"])))
    lines += ["", "`math_accuracy` agreement by task: " + ", ".join(f"{t} {sum(v) / len(v):.1%} (n={len(v)})" for t, v in sorted(by_task.items()))]
    misses = [(r, s) for r, s in zip(rows, ours["scores"]) if not (s is not None and (s == 1.0) == bool(r["label"]))]
    for row, s in misses[:5]:
        lines.append(f"- miss: task={row['task']} label={row['label']} score={s} answer={row['answer']!r} tail={row['completion'][-70:]!r}")
    first_lines = [run["first_line"] for run in runs["cli"] if run["first_line"] is not None]
    median["cli_first_line"] = statistics.median(first_lines) if first_lines else None
    return lines, median


def startup(workdir: Path, data: Path, rounds: int, before: Path | None, ref: str | None) -> list[str]:
    """The CLI's time to its first progress output and a one-row file's total time: a row the pure-Python
    paths decide, and one that needs sympy (so the worker pool starts)."""
    cases = {
        "decided without sympy": open(data, encoding="utf-8").readline(),
        "needs the worker pool": json.dumps({"prompt": "p", "prompt_id": "p0", "answer": "\\sqrt{2}+\\sqrt{3}",
                                             "completion": "So the answer is $\\boxed{\\sqrt{3}+\\sqrt{2}}$.", "label": 1}) + "\n",
    }
    lines = [f"`polyreward score` on a one-row file (stderr a terminal; medians of {rounds}):", ""]
    for name, row in cases.items():
        one = workdir / "one_row.jsonl"
        one.write_text(row, encoding="utf-8")
        for label, path in [("now", None)] + ([(f"at {ref} (before)", before)] if before else []):
            runs = [run_cli(one, workdir, 256, path) for _ in range(rounds)]
            first = statistics.median(r["first_line"] for r in runs if r["first_line"] is not None)
            total = statistics.median(r["seconds"] for r in runs)
            lines.append(f"- {name}, {label}: first progress output after {first:.2f} s, whole run {total:.2f} s")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prompts", type=int, default=250, help="mix file prompts")
    parser.add_argument("--symbolic-prompts", type=int, default=300, help="symbolic file prompts")
    parser.add_argument("--group", type=int, default=8)
    parser.add_argument("--chunk", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=tuple(METHODS), help="measure one file")
    parser.add_argument("--before", default=None, help="a git ref whose `polyreward score` is also timed (before/after)")
    parser.add_argument("--run", choices=("polyreward", "polyreward_sympy", "trl", "math_verify"), help=argparse.SUPPRESS)  # internal: one method, JSON to stdout
    parser.add_argument("--wrap-gold", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        print(json.dumps(run_method(args.run, args.data, args.chunk, args.wrap_gold)))
        return 0

    workdir = Path(tempfile.mkdtemp(prefix="polyreward_math_bench_"))
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # reasoning-gym's polynomial generator iterates over sets
    files = {"mix": workdir / "mix.jsonl", "symbolic": workdir / "symbolic.jsonl"}
    builders = {"mix": f"m.build(m.Path({str(files['mix'])!r}), {args.prompts}, {args.group}, {args.seed})",
                "symbolic": f"m.build_symbolic(m.Path({str(files['symbolic'])!r}), {args.symbolic_prompts}, {args.group}, {args.seed})"}
    names = [args.only] if args.only else list(METHODS)
    for name in names:
        subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); import math_scoring as m; {builders[name]}"],
                       check=True, env=env)
    load = os.getloadavg()[0]
    lines = [
        f"Math scoring benchmark, {datetime.date.today().isoformat()}, {machine()}; load average {load:.1f} at the start "
        "(the machine is shared by several sessions: absolute figures are noisy, ratios within a round less so).",
        f"Scored in chunks of {args.chunk} rollouts; each method in a fresh process.",
        "",
    ]
    before = checkout(args.before, workdir) if args.before else None
    compile_trees([ROOT / "src"] + ([before] if before else []))
    for name in names:
        table, _ = measure(name, files[name], args.chunk, args.rounds, workdir, env, before)
        lines += table + [""]
    lines += startup(workdir, files[names[-1]], args.rounds, before, args.before)
    lines += ["", f"Load average {os.getloadavg()[0]:.1f} at the end."]
    text = "\n".join(lines)
    print(text)
    if not args.only:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "math_scoring.md").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
