"""Does the bundled trainer make a model better at a task? Held-out greedy accuracy before and after, ≥ 5 seeds, CPU.

    OMP_NUM_THREADS=2 python benchmarks/trainer_learns.py                    # the full run: 5 seeds, ≤ 60 min on 2 cores
    python benchmarks/trainer_learns.py --quick                              # 1 seed, 2 steps, 16 held-out items: proves it runs
    python benchmarks/trainer_learns.py --summarise-only --runs-dir DIR      # tables and plot from finished runs

**Task.** SmolLM2-135M-Instruct (the offline ``smollm2-135m`` asset) answers "What is A + B? Reply with only the
number." for two-digit A, B (``--task two_digit_add``, the default) or one of the other generated tasks
(``one_digit``, ``subtract``, ``larger``). The only reward, in training and in evaluation, is ``accuracy``: the number
the reply commits to (the first integer after its first "=", else the first integer after a restatement of the two
operands, else its first integer) equals the answer. So the objective is correctness, not format or length:
"23 + 45 = 68", "23 + 45 equals 68." and "68" are right, "23 + 45 = 67" and a reply without a number are wrong,
and chatter after the answer costs nothing. (The project's ``math_accuracy`` is
stricter on purpose: a reply cut off by ``max_new_tokens`` after its answer, "5 * 3 = 15\n\nThis is", is no answer
there. With a 12-token budget the base model's errors would then be mostly such cut-offs, and a gain would be the
model learning to stop: format, the confound of earlier CPU runs. ``--reward math_accuracy`` selects it anyway.)

**Held-out set.** Problems are generated from a fixed seed and split by their canonical key (the unordered operand
pair for + and ×, the ordered pair otherwise): no held-out problem, and no rephrasing or operand swap of one, is in
the training set (checked, the script stops otherwise). ``--train-size`` / ``--eval-size`` set the sizes.

**Measure.** Greedy decoding (temperature 0) of every held-out prompt, once with the base model and once after
training per seed. Per seed, Δ_s = accuracy_after − accuracy_base on the same items (paired). Reported: the mean Δ with
a 95 % Student-t interval over seeds (training-seed variance), a 95 % paired bootstrap interval that resamples seeds
and held-out items together (10,000 resamples), and how many seeds improved. The result (JSON + Markdown, with date
and machine) goes to ``benchmarks/results/trainer_learns[_cuda][_quick].{json,md}`` whatever it shows; the training curves
(per-step mean over seeds) are drawn by ``polyreward report``.

**Why this task.** The base model's greedy accuracy on 48 such problems was 0.27 (2026-12-03), and its errors are
arithmetic, not form: "27 + 28 = 54", "34 + 44 = 108"; the strict ``math_accuracy`` agreed on every one of them.
On one-digit sums and products it was 0.85 by this measure (0.63 by ``math_accuracy``, the rest cut-off replies),
too close to the ceiling to show a gain. Training samples at temperature 0.7 (``--temperature``): at 1.0 the base
model's sampled replies were right 9 % of the time and 6 of 24 groups of 4 had any signal (a right and a wrong
reply); at 0.7, 16 % and 11 of 24 (2026-12-03, 24 training prompts; scored by the first number after "=" or else
the first number, which misses "44 + 23 equals 77", so both are slightly low).

**Budget.** On 2 quiet cores (SmolLM2-135M in fp32 samples ~50 tokens/s and trains ~1,000 tokens in ~20 s) a step
of 4 prompts × G 6 with 12 new tokens takes ~15-20 s, so the defaults (30 steps, 5 seeds, 100 held-out items, a
greedy evaluation of ~30 s per model) fit in 60 minutes; on a loaded machine everything stretches (the base
evaluation of 48 items took 4 minutes at load 10). Dynamic sampling (``--dynamic-sampling N``) spends more
generation on groups that carry signal.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
sys.path.insert(0, str(ROOT / "benchmarks"))

from polyreward.registry import register_reward  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
SUFFIX = " Reply with only the number."


# ------------------------------------------------------------------------------------------------ the task
def _problem(task: str, rng: random.Random) -> tuple[tuple, str, int]:
    """(canonical key, question, answer) of one generated problem."""
    if task == "two_digit_add":
        a, b = rng.randint(10, 49), rng.randint(10, 49)
        return ("+", *sorted((a, b))), f"What is {a} + {b}?", a + b
    if task == "one_digit":
        a, b, op = rng.randint(1, 9), rng.randint(1, 9), rng.choice("+*")
        return (op, *sorted((a, b))), f"What is {a} {op} {b}?", a + b if op == "+" else a * b
    if task == "subtract":
        a, b = rng.randint(10, 30), rng.randint(1, 9)
        return ("-", a, b), f"What is {a} - {b}?", a - b
    if task == "larger":
        a, b = rng.sample(range(10, 100), 2)
        return (">", *sorted((a, b))), f"Which number is larger, {a} or {b}?", max(a, b)
    raise ValueError(f"unknown task {task!r}")


def committed_answer(reply: str, operands: list[int]) -> int | None:
    """The number a reply commits to: the first integer after its first "="; else, when the reply opens by restating
    the question (its first two integers are the two operands, in either order) the integer after them; else its
    first integer. None without one. ASCII digits only (int() would read other scripts' digits too), at most 20, so a
    5,000-digit "number" is a wrong answer rather than int()'s digit-limit error."""
    if "=" in reply:
        found = re.search(r"-?[0-9]{1,20}", reply.split("=", 1)[1])
        return int(found.group()) if found else None
    numbers = [int(n) for n in re.findall(r"-?[0-9]{1,20}", reply)]
    if len(numbers) >= 3 and sorted(numbers[:2]) == sorted(operands):
        return numbers[2]
    return numbers[0] if numbers else None


@register_reward
class FirstAnswerAccuracy(RolloutReward):
    """1.0 when the number the reply commits to (:func:`committed_answer`) equals ``answer``, else 0.0.

    "23 + 45 = 68", "68", "23 + 45 equals 68." and "The answer is 68" are right; chatter after the answer costs
    nothing. Exploits considered: listing several numbers gains nothing (only the committed one counts), and a reply
    that is only the two operands commits to the first of them."""

    type_name = "bench_first_answer"
    description = "the number the reply commits to equals the answer"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("answer", "key")

    def score_rollout(self, completion: str, row) -> Scored:
        answer = committed_answer(completion, [int(x) for x in row["key"][1:]])
        if answer is None:
            return Scored(0.0, "no number")
        return Scored(float(answer == int(row["answer"])), f"answered {answer}")


def make_split(task: str, train_size: int, eval_size: int, seed: int = 37) -> tuple[list[dict], list[dict]]:
    """Disjoint training and held-out rows: distinct canonical problems, the held-out ones drawn first."""
    rng, seen, problems = random.Random(seed), set(), []
    attempts = 0
    while len(problems) < train_size + eval_size:
        attempts += 1
        if attempts > 100 * (train_size + eval_size):
            raise SystemExit(f"task {task}: only {len(problems)} distinct problems exist; lower --train-size/--eval-size")
        key, question, answer = _problem(task, rng)
        if key not in seen:
            seen.add(key)
            problems.append({"prompt": question + SUFFIX, "answer": str(answer), "key": list(key)})
    heldout, training = problems[:eval_size], problems[eval_size:]
    overlap = {tuple(r["key"]) for r in heldout} & {tuple(r["key"]) for r in training}
    if overlap:  # cannot happen by construction; the check is the benchmark's guarantee
        raise SystemExit(f"held-out problems also in training: {sorted(overlap)[:5]}")
    return training, heldout


def recipe(train_file: Path, output_dir: Path, seed: int, args: argparse.Namespace) -> dict:
    train = {"model": args.model, "dataset": str(train_file), "prompts_per_step": args.prompts_per_step,
             "num_generations": args.num_generations, "max_new_tokens": args.max_new_tokens,
             "learning_rate": args.learning_rate, "temperature": args.temperature, "lr_scheduler": "constant", "loss_type": "dapo", "epsilon_high": 0.28,
             "max_steps": args.steps, "seed": seed, "device": args.device, "output_dir": str(output_dir), "log_completions": 0,
             "mask_truncated_completions": args.mask_truncated}
    if args.dynamic_sampling is not None:
        train["dynamic_sampling"] = {"max_refill_rounds": args.dynamic_sampling}
    reward = ({"name": "accuracy", "type": "math_accuracy", "answer_column": "answer"} if args.reward == "math_accuracy"
              else {"name": "accuracy", "type": "bench_first_answer"})
    return {"rewards": [reward], "combiner": "grpo", "train": train}


# ------------------------------------------------------------------------------------------------ runs
def greedy_correct(config: dict, model: str | None, heldout_file: Path) -> list[float]:
    """Per held-out item: 1.0 when the greedy reply is right (NaN counts as wrong: no number at all)."""
    from polyreward.config import parse_config
    from polyreward.trainer.evaluate import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "eval.jsonl"
        evaluate(parse_config(config), model=model, dataset=str(heldout_file), temperature=0.0, output=out)
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [1.0 if row.get("accuracy") == 1.0 else 0.0 for row in rows]


def one_seed(seed: int, args: argparse.Namespace, train_file: Path, heldout_file: Path) -> dict:
    from polyreward.trainer.loop import train

    out = args.runs_dir / f"seed{seed}"
    shutil.rmtree(out, ignore_errors=True)
    config = recipe(train_file, out, seed, args)
    started = time.perf_counter()
    result = train(config, progress=False)
    trained = time.perf_counter()
    after = greedy_correct(config, str(result.checkpoint), heldout_file)
    shutil.rmtree(result.checkpoint)  # ~540 MB each; metrics.jsonl stays
    rows = result.metrics
    record = {"seed": seed, "steps": len(rows), "train_s": trained - started, "eval_s": time.perf_counter() - trained,
              "after_correct": after, "curve": [r["reward/accuracy/mean"] for r in rows],
              "mean_length": [r["completions/mean_length"] for r in rows], "entropy": [r["entropy"] for r in rows],
              "zero_signal_fraction": [r.get("advantage/zero_signal_fraction") for r in rows]}
    (out / "record.json").write_text(json.dumps(record), encoding="utf-8")
    return record


# ------------------------------------------------------------------------------------------------ statistics
def t_interval(values: list[float]) -> dict:
    n, mean = len(values), statistics.fmean(values)
    if n < 2:
        return {"mean": mean, "low": math.nan, "high": math.nan, "n": n}
    half = T975.get(n - 1, 1.96) * statistics.stdev(values) / math.sqrt(n)
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": n}


def paired_bootstrap(base: list[float], after: dict[int, list[float]], resamples: int = 10_000, seed: int = 0) -> dict:
    """95 % percentile interval of mean(after − base), resampling seeds and held-out items (two-stage, paired by item)."""
    rng = random.Random(seed)
    seeds, items = sorted(after), range(len(base))
    diffs = {s: [after[s][i] - base[i] for i in items] for s in seeds}
    stats = []
    for _ in range(resamples):
        chosen_seeds = [rng.choice(seeds) for _ in seeds]
        chosen_items = [rng.randrange(len(base)) for _ in items]
        stats.append(statistics.fmean(diffs[s][i] for s in chosen_seeds for i in chosen_items))
    stats.sort()
    return {"mean": statistics.fmean(v for s in seeds for v in diffs[s]), "low": stats[int(0.025 * resamples)],
            "high": stats[int(0.975 * resamples) - 1], "resamples": resamples}


def summarise(base: list[float], records: list[dict]) -> dict:
    after = {r["seed"]: r["after_correct"] for r in records}
    deltas = [statistics.fmean(after[s]) - statistics.fmean(base) for s in sorted(after)]
    return {"base_accuracy": statistics.fmean(base), "after_accuracy": t_interval([statistics.fmean(v) for v in after.values()]),
            "delta_t": t_interval(deltas), "delta_bootstrap": paired_bootstrap(base, after),
            "seeds_improved": sum(d > 0 for d in deltas), "seeds_worse": sum(d < 0 for d in deltas), "deltas": deltas}


def verdict(summary: dict) -> str:
    t, boot = summary["delta_t"], summary["delta_bootstrap"]
    if t["n"] < 2:
        return "one seed: no interval (a --quick dry run proves the pipeline, not the effect)"
    if t["low"] > 0 and boot["low"] > 0:
        return "the trained model is better than the base model on held-out items (both intervals exclude 0)"
    if t["high"] < 0 and boot["high"] < 0:
        return "the trained model is worse than the base model (both intervals exclude 0)"
    return "no change beyond noise: the intervals contain 0 (this configuration did not learn measurably in the budget)"


# ------------------------------------------------------------------------------------------------ output
def mean_curve_file(records: list[dict], runs_dir: Path) -> Path:
    steps = min(r["steps"] for r in records)
    path = runs_dir / f"mean of {len(records)} seeds" / "metrics.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"step": i + 1, "reward/accuracy/mean": statistics.fmean(r["curve"][i] for r in records),
                                        "completions/mean_length": statistics.fmean(r["mean_length"][i] for r in records),
                                        "entropy": statistics.fmean(r["entropy"][i] for r in records)}) + "\n"
                            for i in range(steps)), encoding="utf-8")
    return path


def plot(records: list[dict], runs_dir: Path, name: str) -> str | None:
    files = [runs_dir / f"seed{r['seed']}" / "metrics.jsonl" for r in records] + [mean_curve_file(records, runs_dir)]
    report_dir = runs_dir / "report"
    done = subprocess.run([sys.executable, "-m", "polyreward", "report", *map(str, files), "-o", str(report_dir),
                           "--title", "trainer_learns: sampled training accuracy per step"], capture_output=True, text=True)
    if done.returncode != 0 or not (report_dir / "curves_1.png").exists():
        print(f"polyreward report failed: {done.stderr.strip()[-500:]}", file=sys.stderr)
        return None
    target = RESULTS / f"{name}.png"
    shutil.copyfile(report_dir / "curves_1.png", target)
    return str(target.relative_to(ROOT))


def _pct(x: float) -> str:
    return f"{x:+.3f}" if math.isfinite(x) else "n/a"


def markdown(report: dict) -> str:
    s, summary = report["settings"], report["summary"]
    t, boot = summary["delta_t"], summary["delta_bootstrap"]
    lines = [
        f"# Does the bundled trainer learn? `{s['task']}`, held-out greedy accuracy before and after ({s['device'].upper() if s.get('device', 'cpu') == 'cpu' else 'GPU'})", "",
        f"**Date:** {report['date']}. **Machine:** {report['machine']}. **Wall time:** {report['wall_s']:.0f} s.", "",
        f"**Command:** `{report['command']}`", "",
        f"**Setup:** {s['model']}, reward `accuracy` only (`{s['reward']}`), combiner grpo, loss dapo (ε_high 0.28), "
        f"{s['prompts_per_step']} prompts × G = {s['num_generations']}, {s['max_new_tokens']} new tokens, temperature {s.get('temperature', 1.0)}, "
        f"lr {s['learning_rate']:g} constant, {s['steps']} steps, seeds {', '.join(map(str, s['seeds']))}"
        f"{', dynamic sampling ' + str(s['dynamic_sampling']) + ' refill rounds' if s['dynamic_sampling'] is not None else ''}. "
        f"{s['train_size']} training problems, {s['eval_size']} held-out problems, disjoint by canonical key.", "",
        "| measure | value |", "|---|---|",
        f"| base model, held-out greedy accuracy | {summary['base_accuracy']:.3f} |",
        f"| after training, mean over seeds (95 % t) | {summary['after_accuracy']['mean']:.3f} "
        f"[{summary['after_accuracy']['low']:.3f}, {summary['after_accuracy']['high']:.3f}] |",
        f"| Δ = after − base, 95 % t over seeds | {_pct(t['mean'])} [{_pct(t['low'])}, {_pct(t['high'])}] |",
        f"| Δ, 95 % paired bootstrap (seeds × items) | {_pct(boot['mean'])} [{_pct(boot['low'])}, {_pct(boot['high'])}] |",
        f"| seeds improved / worse | {summary['seeds_improved']} / {summary['seeds_worse']} of {t['n']} |", "",
        f"**Verdict:** {report['verdict']}.", "",
        "| seed | held-out accuracy after | Δ | sampled accuracy, first 5 steps | last 5 steps | train s | eval s |",
        "|---|---|---|---|---|---|---|",
    ]
    for run, delta in zip(sorted(report["runs"], key=lambda r: r["seed"]), summary["deltas"]):
        lines.append(f"| {run['seed']} | {statistics.fmean(run['after_correct']):.3f} | {delta:+.3f} | "
                     f"{statistics.fmean(run['curve'][:5]):.3f} | {statistics.fmean(run['curve'][-5:]):.3f} | "
                     f"{run['train_s']:.0f} | {run['eval_s']:.0f} |")
    if report.get("plot"):
        lines += ["", f"![training accuracy per step]({Path(report['plot']).name})"]
    return "\n".join(lines) + "\n"


def machine(device: str) -> str:
    from machine_info import describe_machine

    import torch

    gpu = torch.cuda.get_device_name() if device == "cuda" else "no GPU used"
    return (f"{describe_machine()}, shared with other jobs, {gpu}, torch {torch.__version__}, "
            f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="two_digit_add", choices=["two_digit_add", "one_digit", "subtract", "larger"])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--reward", default="first_answer", choices=["first_answer", "math_accuracy"])
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--prompts-per-step", type=int, default=4)
    parser.add_argument("--num-generations", type=int, default=6)
    parser.add_argument("--max-new-tokens", type=int, default=12)
    parser.add_argument("--learning-rate", type=float, default=2e-5)
    parser.add_argument("--temperature", type=float, default=0.7, help="sampling temperature in training (evaluation is greedy)")
    parser.add_argument("--train-size", type=int, default=300)
    parser.add_argument("--eval-size", type=int, default=100)
    parser.add_argument("--dynamic-sampling", type=int, default=None, metavar="ROUNDS", help="max refill rounds (off by default)")
    parser.add_argument("--mask-truncated", action="store_true")
    parser.add_argument("--runs-dir", type=Path, default=Path(tempfile.gettempdir()) / "polyreward-trainer-learns")
    parser.add_argument("--summarise-only", action="store_true")
    parser.add_argument("--quick", action="store_true", help="dry run: 1 seed, 2 steps, 2 prompts x G 4, 16 held-out items")
    args = parser.parse_args(argv)
    if args.quick:
        args.seeds, args.steps, args.prompts_per_step, args.num_generations = args.seeds[:1], 2, 2, 4
        args.train_size, args.eval_size = 32, 16
        args.runs_dir = args.runs_dir.with_name(args.runs_dir.name + "-quick")
    name = "trainer_learns" + ("_cuda" if args.device == "cuda" else "") + ("_quick" if args.quick else "")
    args.runs_dir.mkdir(parents=True, exist_ok=True)
    training, heldout = make_split(args.task, args.train_size, args.eval_size)
    train_file, heldout_file = args.runs_dir / "train.jsonl", args.runs_dir / "heldout.jsonl"
    for path, rows in ((train_file, training), (heldout_file, heldout)):
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    started = time.perf_counter()
    base_file = args.runs_dir / "base.json"
    if not args.summarise_only:
        base = greedy_correct(recipe(train_file, args.runs_dir / "unused", 0, args), None, heldout_file)
        base_file.write_text(json.dumps(base), encoding="utf-8")
        print(f"base model: held-out greedy accuracy {statistics.fmean(base):.3f} ({len(base)} items, "
              f"{time.perf_counter() - started:.0f} s)", flush=True)
        for seed in args.seeds:
            record = one_seed(seed, args, train_file, heldout_file)
            print(f"seed {seed}: held-out {statistics.fmean(record['after_correct']):.3f}, sampled accuracy "
                  f"{record['curve'][0]:.3f} -> {record['curve'][-1]:.3f}, {record['train_s']:.0f} s train + "
                  f"{record['eval_s']:.0f} s eval ({time.perf_counter() - started:.0f} s so far)", flush=True)
    base = json.loads(base_file.read_text())
    records = [json.loads((args.runs_dir / f"seed{s}" / "record.json").read_text()) for s in args.seeds
               if (args.runs_dir / f"seed{s}" / "record.json").exists()]
    summary = summarise(base, records)
    report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(args.device),
              "command": "python benchmarks/trainer_learns.py " + " ".join(argv if argv is not None else sys.argv[1:]),
              "wall_s": time.perf_counter() - started,
              "settings": {"task": args.task, "model": args.model, "seeds": [r["seed"] for r in records], "steps": args.steps,
                           "prompts_per_step": args.prompts_per_step, "num_generations": args.num_generations,
                           "max_new_tokens": args.max_new_tokens, "learning_rate": args.learning_rate, "device": args.device, "reward": args.reward,
                           "temperature": args.temperature,
                           "train_size": args.train_size, "eval_size": args.eval_size, "dynamic_sampling": args.dynamic_sampling},
              "summary": summary, "runs": records, "base_correct": base}
    report["verdict"] = verdict(summary)
    report["plot"] = plot(records, args.runs_dir, name)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    (RESULTS / f"{name}.md").write_text(markdown(report), encoding="utf-8")
    print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
