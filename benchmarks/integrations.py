"""Overhead of the TRL and verl adapters over calling the rewards directly, on CPU.

For a batch of B conversational rollouts (rule rewards ``think_format`` + ``overlong_penalty``, which
are cheap, so the adapter's own cost shows), best of several passes:

* anchor: ``reward.evaluate`` for each reward (what the adapters wrap);
* TRL inline: the TRL reward functions, called with the kwargs TRL passes (log_extra/log_metric included);
* TRL isolated: the same with ``timeout=`` (each reward's batch runs in an engine worker process);
* verl: ``compute_score`` once per rollout (how verl calls it), from a cached config.

The table gives rollouts/s and the ratio to the anchor::

    python benchmarks/integrations.py [--batch 256] [--passes 5]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import tempfile
import time

CONFIG = """\
rewards:
  - {name: format, type: think_format, weight: 0.5}
  - {name: overlong, type: overlong_penalty, max_completion_len: 64, soft_punish_cache: 16}
"""


def best_of(passes: int, fn) -> float:
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()

    from polyreward.config import load_config
    from polyreward.integrations import verl as poly_verl
    from polyreward.integrations.trl import reward_funcs

    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as handle:
        handle.write(CONFIG)
        path = handle.name
    n = args.batch
    texts = [f"<think>step {i}</think> the answer is {i % 7}" if i % 3 else f"answer {i}" for i in range(n)]
    completions = [[{"role": "assistant", "content": t}] for t in texts]
    prompts = [[{"role": "user", "content": f"question {i // 8}"}] for i in range(n)]
    ids = [list(range(10 + i % 60)) for i in range(n)]
    rewards = load_config(path).build_rewards()
    inline = reward_funcs(path)
    isolated = reward_funcs(path, timeout=30.0)
    sink = {}

    def trl_call(funcs):
        for f in funcs:
            f(prompts=prompts, completions=completions, completion_ids=ids, trainer_state=None,
              log_extra=sink.__setitem__, log_metric=sink.__setitem__)

    def anchor():
        for r in rewards:
            r.evaluate(prompts, completions, completion_ids=ids)

    def verl_calls():
        for t in texts:
            poly_verl.compute_score("bench", t, "0", {}, config_path=path)

    trl_call(isolated)  # start the engine workers outside the timing
    rows = [("anchor: reward.evaluate", best_of(args.passes, anchor))]
    rows.append(("TRL reward_funcs (inline)", best_of(args.passes, lambda: trl_call(inline))))
    rows.append(("TRL reward_funcs (timeout=, isolated)", best_of(args.passes, lambda: trl_call(isolated))))
    rows.append(("verl compute_score (per sample)", best_of(args.passes, verl_calls)))
    os.unlink(path)

    base = rows[0][1]
    print(f"# integrations overhead, batch {n}, {datetime.date.today()}, {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"| path | rollouts/s | time / anchor |\n|---|---:|---:|")
    for name, seconds in rows:
        print(f"| {name} | {n / seconds:,.0f} | {seconds / base:.2f} |")


if __name__ == "__main__":
    main()
