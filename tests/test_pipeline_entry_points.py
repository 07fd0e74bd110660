"""The same config and rollouts through every entry point give the same scores, reasons, failure counts and advantages.

Entry points (each a ``via_*`` function below, called the way its caller calls it):

- ``polyreward score`` on a file (subprocess), :meth:`polyreward.pipeline.Scorer.score` (``Config.build_scorer``);
- TRL: :func:`polyreward.integrations.trl.reward_funcs`, called as TRL 1.16's ``GRPOTrainer._calculate_rewards``
  calls them (trl/trainer/grpo_trainer.py: ``prompts=, completions=, completion_ids=, **reward_kwargs`` with
  ``log_extra``/``log_metric``), then ``PolyGRPOTrainer``'s reward step (its own ``_gathered_groups`` and
  ``_row_columns`` on the gathered rows, ``combined_advantages`` with the ``completion_mask`` token counts);
- verl: :func:`polyreward.integrations.verl.compute_score` per sample as verl 0.9.1's reward loop calls it
  (verl/experimental/reward_loop/reward_manager/naive.py: ``data_source, solution_str, ground_truth, extra_info``),
  then the ``polyreward`` advantage estimator with the components in ``non_tensor_batch`` and the ``uid`` index, as
  verl/trainer/ppo/ray_trainer.py ``compute_advantage`` passes them;
- the bundled trainer's scoring step (:func:`polyreward.trainer.loop.score_step`);
- ``polyreward serve`` over HTTP (a real server on 127.0.0.1, ``POST /score``) and
  :class:`polyreward.runners.client.RewardClient` (``score_rows``, as a TRL reward function, as ``compute_score``);
- :func:`polyreward.score_dataset` (a pandas DataFrame; the local and the Ray backend);
- :func:`polyreward.combiners.advantages` on the reference scores.

The configs: ``when:`` routing over mixed sources, renamed prompt/completion/group columns, a group-level reward, a
reward that raises (``on_reward_error: nan`` and ``raise``), GDPO with ``batch_norm: whiten`` (token lengths from
``completion_ids``), group ids given as ``1`` / ``1.0`` / ``"1"`` in one group, DRPO with per-row domains over
several steps whose question ids come as ints, floats and strings.

verl reports no reason for a reward that succeeded (its ``reward_extra_info`` holds floats only): its reasons are
the failure warnings it logs, compared for the failed cells. The client used as a TRL function or as
``compute_score`` returns the weighted total only (TRL and verl take one number), compared with the reference total.
"""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from polyreward.config import load_config
from polyreward.pipeline import RewardError
from polyreward.reward import Reward, RewardOutput
from polyreward.vocabulary import group_key

TESTS = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", "COLUMNS": "200"}
G = 4
TOKEN = "entry-points-token"


class ShortestInGroup(Reward):
    """A group-level reward: 1.0 for the rollouts with the fewest words in their group (by ``group_column``), else 0.0."""

    type_name = "test_shortest_in_group"

    def __init__(self, name=None, weight=1.0, group_column: str = "qid"):
        super().__init__(name, weight)
        self.group_column = group_column

    @property
    def columns(self):
        return (self.group_column,)

    @property
    def group_columns(self):
        return (self.group_column,)

    def evaluate(self, prompts, completions, **columns):
        words = [len(str(c).split()) for c in completions]
        fewest: dict[Any, int] = {}
        for key, count in zip(map(group_key, columns[self.group_column]), words):
            fewest[key] = min(count, fewest.get(key, count))
        scores = [float(count == fewest[group_key(g)]) for g, count in zip(columns[self.group_column], words)]
        return RewardOutput(scores, ["fewest words" if s else "more words" for s in scores])


# ------------------------------------------------------------------ configs and rows
MIXED = """
columns: {prompt: question, completion: response, group: qid}
rewards:
  - {name: choice, type: choice_accuracy, answer_column: gold, when: {source: mcq}}
  - {name: exact, type: "toy_rewards:AnswerMatch", answer_column: gold, weight: 0.5, when: {source: [short, other]}}
  - {name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", weight: 2.0}
  - {name: ex, type: "toy_rewards:Explodes", weight: 0.3}
  - {name: shortest, type: "test_pipeline_entry_points:ShortestInGroup", group_column: qid, weight: 0.25}
combiner: {type: gdpo, batch_norm: whiten}
on_reward_error: nan
"""

# question ids as a file, a dataset and a trainer may hold them: 1, 1.0 and "1" are one group
QUESTIONS = [
    {"qids": [1, 1.0, "1", 1], "source": "mcq", "gold": "C", "question": "question A",
     "responses": ["The answer is C. yes", "C", "boom yes", "The answer is B."]},
    {"qids": [2, 2, 2, 2], "source": "short", "gold": "yes", "question": "question B",
     "responses": ["yes", "no", "yes boom", "The answer is A."]},
    {"qids": ["x", "x", "x", "x"], "source": "other", "gold": "B", "question": "question C",
     "responses": ["The answer is B.", "B", "yes", "boom"]},
]


def mixed_rows() -> list[dict]:
    rows = []
    for q in QUESTIONS:
        for i, (qid, response) in enumerate(zip(q["qids"], q["responses"])):
            rows.append({"qid": qid, "question": q["question"], "response": response, "gold": q["gold"], "source": q["source"],
                         "completion_ids": list(range(3 + 2 * i + len(response)))})  # token counts differ per rollout
    return rows


def write_config(tmp_path: Path, text: str, name: str = "cfg.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# ------------------------------------------------------------------ a result of one entry point
class Result(SimpleNamespace):
    """scores (N, K), reasons {name: [N]}, failures {name: count}, advantages (N,) or None, total (N,) or None."""


def names_of(config_path) -> list[str]:
    return [r.name for r in load_config(config_path).rewards]


def columns_of(config_path):
    return load_config(config_path).column_map


def _score_matrix(rows: list[dict], names: list[str]) -> np.ndarray:
    return np.array([[math.nan if row.get(n) is None else row[n] for n in names] for row in rows], dtype=np.float64)


# ------------------------------------------------------------------ one function per entry point
def via_cli(rows, config_path, tmp_path) -> Result:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "-c", str(config_path), "-o", str(out),
                             "--chunk-size", "5"], capture_output=True, text=True, env=ENV)
    if result.returncode == 1 and "on_reward_error: raise" in result.stderr:
        raise RewardError("cli", 0, 0, result.stderr)
    assert result.returncode == 0, result.stderr
    written = [json.loads(line) for line in out.read_text().splitlines()]
    names = names_of(config_path)
    failures = {}
    for line in result.stdout.splitlines():  # the summary table: reward | n | mean | std | NaN | failed
        cells = [c.strip() for c in line.replace("┃", "│").split("│") if c.strip()]
        if cells and cells[0] in names:
            failures[cells[0]] = int(cells[-1].split()[0])
    for row, source in zip(written, rows):
        assert {k: row[k] for k in source} == source  # input columns round-trip with their types
    return Result(scores=_score_matrix(written, names), reasons={n: [row[f"{n}_reason"] or "" for row in written] for n in names},
                  failures=failures, advantages=np.array([row["advantage"] for row in written]) if "advantage" in written[0] else None,
                  total=np.array([math.nan if row["reward"] is None else row["reward"] for row in written]))


def _from_scored(scored) -> Result:
    return Result(scores=scored.scores, reasons=scored.reasons, failures=scored.failures, advantages=scored.advantages,
                  total=scored.total)


def via_scorer(rows, config_path, tmp_path) -> Result:
    scorer = load_config(config_path).build_scorer()
    return _from_scored(scorer.score(scorer.batch(rows)))


class Recorder:
    def __init__(self):
        self.extra, self.metrics = {}, {}

    def log_extra(self, key, values):
        self.extra[key] = list(values)

    def log_metric(self, key, value):
        self.metrics[key] = value


def trl_inputs(rows, config_path) -> list[dict]:
    """The rows as TRL's generation batch holds them: the prompt under ``prompt`` (TRL's fixed name), every dataset column."""
    columns = columns_of(config_path)
    return [{**{k: v for k, v in r.items() if k not in (columns.prompt, columns.completion)}, "prompt": r[columns.prompt]}
            for r in rows]


def via_trl(rows, config_path, tmp_path, trainer=None) -> Result:
    """TRL's reward step (every reward function, as GRPOTrainer calls them), then PolyGRPOTrainer's advantage step."""
    import torch

    from polyreward.integrations.trl import PolyGRPOTrainer, combined_advantages, reward_funcs, reward_weights

    columns = columns_of(config_path)
    funcs = reward_funcs(str(config_path))
    recorder = Recorder()
    inputs = trl_inputs(rows, config_path)
    dataset = {k: [row[k] for row in inputs] for k in inputs[0] if k not in ("prompt", "completion_ids")}
    matrix = []
    for func in funcs:
        values = func(prompts=[row["prompt"] for row in inputs], completions=[r[columns.completion] for r in rows],
                      completion_ids=[r["completion_ids"] for r in rows], trainer_state=None, log_extra=recorder.log_extra,
                      log_metric=recorder.log_metric, **dataset)
        matrix.append([math.nan if v is None else v for v in values])
    scores = np.array(matrix, dtype=np.float64).T
    names = [f.__name__ for f in funcs]
    weights = torch.tensor(reward_weights(str(config_path)), dtype=torch.float64)
    # PolyGRPOTrainer's own methods on a stand-in for the trainer (the combiner state lives on it across steps)
    if trainer is None:
        trainer = poly_trainer_stub(config_path)
    groups = PolyGRPOTrainer._gathered_groups(trainer, inputs)
    lengths = torch.tensor([len(r["completion_ids"]) for r in rows])  # completion_mask.sum(-1)
    advantages = combined_advantages(trainer.scorer, torch.tensor(scores, dtype=torch.float64), G, weights,
                                     PolyGRPOTrainer._row_columns(trainer, inputs), groups=groups, lengths=lengths).numpy()
    return Result(scores=scores, reasons={n: recorder.extra[f"{n}/reason"] for n in names},
                  failures={n: round(recorder.metrics[f"rewards/{n}/failed_frac"] * len(rows)) for n in names},
                  advantages=advantages, total=None)


def poly_trainer_stub(config_path):
    """What PolyGRPOTrainer.__init__ sets up from ``polyreward_config`` (the scorer of the config, its combiner)."""
    config = load_config(config_path)
    scorer = config.build_scorer()
    return SimpleNamespace(scorer=scorer, combiner=scorer.combiner)


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[list[str]] = []

    def emit(self, record):
        self.messages[-1].append(record.getMessage())


def verl_samples(rows, config_path):
    columns = columns_of(config_path)
    for row in rows:
        info = {k: v for k, v in row.items() if k not in (columns.completion, "gold")}
        yield {"data_source": row.get("source", "toy"), "solution_str": row[columns.completion], "ground_truth": row["gold"],
               "extra_info": info}


def via_verl(rows, config_path, tmp_path, estimator_config=None) -> Result:
    import torch

    from polyreward.integrations import verl as poly_verl

    names = names_of(config_path)
    samples = list(verl_samples(rows, config_path))
    handler = _Capture()
    logger = logging.getLogger("polyreward.integrations.verl")
    logger.addHandler(handler)
    try:
        if any(getattr(r, "group_columns", ()) for r in load_config(config_path).build_rewards()):
            # a group-level reward needs the batch: compute_score_batch, as verl's BatchRewardManager calls it (lists)
            handler.messages.append([])
            results = poly_verl.compute_score_batch([s["data_source"] for s in samples], [s["solution_str"] for s in samples],
                                                    [s["ground_truth"] for s in samples], [s["extra_info"] for s in samples],
                                                    config_path=str(config_path), ground_truth_column="gold")
            logged = iter(handler.messages.pop())
            handler.messages = [[next(logged) for n in names if r[f"{n}/failed"]] for r in results]
        else:  # verl's per-sample reward loop
            results = []
            for sample in samples:
                handler.messages.append([])
                results.append(poly_verl.compute_score(**sample, config_path=str(config_path), ground_truth_column="gold"))
    finally:
        logger.removeHandler(handler)
    scores = np.array([[r[n] if r[f"{n}/applicable"] else math.nan for n in names] for r in results])
    failures = {n: int(sum(r[f"{n}/failed"] for r in results)) for n in names}
    reasons = {n: [next((m.split(": ", 1)[1] for m in logged if f"reward {n!r} failed" in m), "") for logged in handler.messages]
               for n in names}
    advantages = None
    if load_config(config_path).combiner is not None:
        lengths = [len(r["completion_ids"]) for r in rows]
        mask = torch.zeros(len(rows), max(lengths), dtype=torch.float64)
        for i, length in enumerate(lengths):
            mask[i, :length] = 1.0
        # verl's non_tensor_batch: the dataset's columns and the reward_extra_info of every sample
        non_tensor = {**{k: np.array([r[k] for r in rows], dtype=object) for k in rows[0]},
                      **{key: np.array([r[key] for r in results]) for key in results[0]}}
        index = np.array([r[columns_of(config_path).group] for r in rows], dtype=object)
        per_token, _ = poly_verl.compute_polyreward_advantage(torch.zeros_like(mask), mask, index=index,
                                                              config=estimator_config or {"polyreward_config": str(config_path)},
                                                              non_tensor_batch=non_tensor)
        advantages = per_token[:, 0].numpy()
    return Result(scores=scores, reasons=reasons, failures=failures, advantages=advantages, total=None)


def via_trainer(rows, config_path, tmp_path, combiner=None) -> Result:
    import torch

    from polyreward.trainer.loop import score_step
    from polyreward.trainer.policy import Rollouts

    config = load_config(config_path)
    columns = config.column_map
    prompt_rows = [{k: v for k, v in rows[i].items() if k not in (columns.completion, "completion_ids")} for i in range(0, len(rows), G)]
    n, longest = len(rows), max(len(r["completion_ids"]) for r in rows)
    ids = torch.zeros(n, longest, dtype=torch.long)
    mask = torch.zeros(n, longest, dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row["completion_ids"])] = torch.tensor(row["completion_ids"])
        mask[i, : len(row["completion_ids"])] = 1
    rollouts = Rollouts(prompt_ids=torch.zeros(n, 1, dtype=torch.long), prompt_mask=torch.ones(n, 1, dtype=torch.long),
                        completion_ids=ids, completion_mask=mask, texts=[r[columns.completion] for r in rows],
                        terminated=torch.ones(n, dtype=torch.bool))
    groups = [r[columns.group] for r in rows]  # the trainer's ids: one per prompt of the step
    scorer = config.build_scorer(combiner=combiner)  # the trainer holds the config's scorer
    scored = score_step(scorer, prompt_rows, columns.prompt, rollouts, G, groups, combine=True)
    return _from_scored(scored)


def via_score_dataset(rows, config_path, tmp_path, backend="local") -> Result:
    import pandas as pd

    from polyreward import score_dataset

    frame = score_dataset(pd.DataFrame(rows), load_config(config_path), chunk_size=5, backend=backend, warn=lambda m: None)
    names = names_of(config_path)
    records = frame.astype(object).where(frame.notna(), None).to_dict("records")
    failures = {n: sum(1 for r in records if (r.get(f"{n}_reason") or "").startswith("error")) for n in names}
    return Result(scores=_score_matrix(records, names), reasons={n: [r.get(f"{n}_reason") or "" for r in records] for n in names},
                  failures=failures, advantages=frame["advantage"].to_numpy(dtype=np.float64) if "advantage" in frame else None,
                  total=np.array([math.nan if r["reward"] is None else r["reward"] for r in records]))


def via_ray(rows, config_path, tmp_path) -> Result:
    """score_dataset's Ray backend on a local Ray instance whose actors import this module (the group-level reward)."""
    import ray

    # address="local": a Ray instance of its own, never a cluster someone else started on this machine (CI joined
    # one, and ray.init refused num_cpus for it)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": ENV["PYTHONPATH"]}})
    try:
        return via_score_dataset(rows, config_path, tmp_path, backend="ray")
    finally:
        ray.shutdown()


# ------------------------------------------------------------------ the reward server and its client
_SERVERS: dict[str, str] = {}


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """``polyreward serve`` per config text, started on first use (a real subprocess on 127.0.0.1), stopped at the end."""
    procs = []

    def url_for(config_path) -> str:
        text = Path(config_path).read_text()
        if text not in _SERVERS:
            folder = tmp_path_factory.mktemp("serve")
            cfg = write_config(folder, text)
            env = {**ENV, "POLYREWARD_TOKEN": TOKEN}
            proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), "--port", "0", "--workers", "0"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(folder))
            line = proc.stdout.readline()
            if not line.startswith("serving "):
                proc.kill()
                raise AssertionError(f"server did not start: {line!r} {proc.stderr.read()}")
            procs.append(proc)
            _SERVERS[text] = line.split()[1]
        return _SERVERS[text]

    yield url_for
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    _SERVERS.clear()


def via_serve(rows, config_path, tmp_path, url) -> Result:
    import httpx

    answer = httpx.post(f"{url}/score", json={"rows": rows, "advantages": True}, headers={"Authorization": f"Bearer {TOKEN}"},
                        timeout=120)
    body = answer.json()
    if answer.status_code == 422 and body.get("error_type") == "RewardError":
        raise RewardError(body["reward"], body["failed"], body["n"], body["reason"])
    assert answer.status_code == 200, body
    names = body["names"]
    return Result(scores=np.array([[math.nan if v is None else v for v in row] for row in body["scores"]], dtype=np.float64),
                  reasons={n: [r or "" for r in body["reasons"][n]] for n in names}, failures=body["failures"],
                  advantages=None if body.get("advantages") is None else np.array(body["advantages"]),
                  total=np.array([math.nan if v is None else v for v in body["total"]]))


def client_for(url):
    from polyreward.runners.client import RewardClient

    return RewardClient(url, token=TOKEN, shard_size=10_000, on_server_error="raise")


def via_client(rows, config_path, tmp_path, url) -> Result:
    with client_for(url) as client:
        result = client.score_rows(rows, advantages=True)
    return Result(scores=result.scores, reasons={n: [r or "" for r in v] for n, v in result.reasons.items()},
                  failures=result.failures, advantages=result.advantages, total=result.total)


def client_as_trl(rows, config_path, url) -> list:
    inputs = trl_inputs(rows, config_path)
    columns = columns_of(config_path)
    dataset = {k: [row[k] for row in inputs] for k in inputs[0] if k != "prompt"}
    with client_for(url) as client:
        return client(prompts=[row["prompt"] for row in inputs], completions=[r[columns.completion] for r in rows], **dataset)


def client_as_compute_score(rows, config_path, url) -> list:
    with client_for(url) as client:
        return [client.compute_score(sample["data_source"], sample["solution_str"], None,
                                     {**sample["extra_info"], "gold": sample["ground_truth"]})
                for sample in verl_samples(rows, config_path)]


def via_combiners_advantages(rows, config_path, tmp_path, reference: Result, combiner=None) -> np.ndarray:
    from polyreward.combiners import advantages

    config = load_config(config_path)
    spec = combiner if combiner is not None else config.build_combiner()
    columns = {k: [r.get(k) for r in rows] for k in rows[0]}
    return advantages(reference.scores, [r[config.column_map.group] for r in rows], config.build_rewards().weights, spec,
                      lengths=[len(r["completion_ids"]) for r in rows], columns=columns)


IN_PROCESS = {"cli": via_cli, "scorer": via_scorer, "trl": via_trl, "verl": via_verl, "trainer": via_trainer, "score_dataset": via_score_dataset}
OVER_HTTP = {"serve": via_serve, "client": via_client}


def run_entry(entry, rows, config_path, tmp_path, servers) -> Result:
    if entry in OVER_HTTP:
        return OVER_HTTP[entry](rows, config_path, tmp_path, servers(config_path))
    return IN_PROCESS[entry](rows, config_path, tmp_path)


def _normalised(reasons):
    return {name: [r or "" for r in values] for name, values in reasons.items()}


def assert_same(entry: str, got: Result, ref: Result) -> None:
    np.testing.assert_array_equal(got.scores, ref.scores, err_msg=entry)
    ref_reasons = ref.reasons
    if entry == "verl":  # verl carries reasons of failures only (see the module docstring)
        ref_reasons = {n: [r if np.isnan(ref.scores[i, k]) and r.startswith("error") else "" for i, r in enumerate(v)]
                       for k, (n, v) in enumerate(ref.reasons.items())}
    assert _normalised(got.reasons) == _normalised(ref_reasons), entry
    assert got.failures == ref.failures, entry
    assert got.advantages is not None, f"{entry} gave no advantages"
    np.testing.assert_allclose(got.advantages, ref.advantages, rtol=0, atol=1e-12, err_msg=entry)
    if got.total is not None:
        np.testing.assert_allclose(got.total, ref.total, rtol=0, atol=1e-12, err_msg=entry)


# ------------------------------------------------------------------ the mixed config
@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    path = write_config(tmp_path_factory.mktemp("mixed"), MIXED)
    return path, via_scorer(mixed_rows(), path, None)


def test_the_mixed_batch_exercises_every_case(mixed):
    path, ref = mixed
    names = names_of(path)
    choice, exact = ref.scores[:, names.index("choice")], ref.scores[:, names.index("exact")]
    assert not np.isnan(choice[:4]).any() and np.isnan(choice[4:]).all()  # when: {source: mcq}
    assert np.isnan(exact[:4]).all() and not np.isnan(exact[4:]).any()  # when: {source: [short, other]}
    assert ref.reasons["choice"][5] == "not applicable"
    assert ref.failures == {"choice": 0, "exact": 0, "has_yes": 0, "ex": 3, "shortest": 0}
    assert ref.reasons["ex"][2] == "error: RuntimeError: boom"
    # qid 1, 1.0 and "1" are one group: the group-level reward sees the four rollouts of question A together
    assert ref.scores[:4, names.index("shortest")].tolist() == [0.0, 1.0, 0.0, 0.0]
    # token-weighted whitening: the advantages differ from the same combiner without lengths
    from polyreward.combiners import advantages

    unweighted = advantages(ref.scores, [group_key(r["qid"]) for r in mixed_rows()], load_config(path).build_rewards().weights,
                            {"type": "gdpo", "batch_norm": "sample"})
    assert np.abs(ref.advantages - unweighted).max() > 1e-3 and np.count_nonzero(ref.advantages) > 6


@pytest.mark.parametrize("entry", sorted([*IN_PROCESS, *OVER_HTTP]))
def test_every_entry_point_gives_the_same_scores_reasons_failures_and_advantages(entry, mixed, tmp_path, servers):
    path, ref = mixed
    assert_same(entry, run_entry(entry, mixed_rows(), path, tmp_path, servers), ref)


def test_the_client_as_trl_function_and_as_compute_score_gives_the_totals(mixed, servers, tmp_path):
    path, ref = mixed
    assert client_as_trl(mixed_rows(), path, servers(path)) == [None if math.isnan(t) else pytest.approx(t, abs=1e-12)
                                                                for t in ref.total]
    # compute_score is per sample (verl's reward loop): a config without the group-level reward
    per_sample = write_config(tmp_path, "\n".join(line for line in MIXED.splitlines() if "ShortestInGroup" not in line))
    totals = via_scorer(mixed_rows(), per_sample, tmp_path).total
    assert client_as_compute_score(mixed_rows(), per_sample, servers(per_sample)) == [
        0.0 if math.isnan(t) else pytest.approx(t, abs=1e-12) for t in totals]


def test_combiners_advantages_gives_the_scorer_advantages(mixed):
    path, ref = mixed
    np.testing.assert_allclose(via_combiners_advantages(mixed_rows(), path, None, ref), ref.advantages, rtol=0, atol=1e-12)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_ray_backend_gives_the_same(mixed, tmp_path):
    path, ref = mixed
    assert_same("ray", via_ray(mixed_rows(), path, tmp_path), ref)


def test_verl_per_sample_compute_score_refuses_a_group_level_reward(mixed):
    from polyreward.integrations import verl as poly_verl

    path, _ = mixed
    sample = next(verl_samples(mixed_rows(), path))
    with pytest.raises(ValueError, match=r"\['shortest'\] score whole groups.*compute_score_batch"):
        poly_verl.compute_score(**sample, config_path=str(path), ground_truth_column="gold")


def test_whiten_without_token_lengths_is_one_line_before_scoring(mixed, tmp_path):
    from polyreward.vocabulary import MissingColumnError

    path, _ = mixed
    rows = [{k: v for k, v in r.items() if k != "completion_ids"} for r in mixed_rows()]
    scorer = load_config(path).build_scorer()
    with pytest.raises(MissingColumnError, match="combiner 'gdpo' reads column 'completion_ids'"):
        scorer.score(scorer.batch(rows))
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "-c", str(path), "-o", str(tmp_path / "o.jsonl")],
                          capture_output=True, text=True, env=ENV)
    assert done.returncode == 2 and "completion_ids" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


# ------------------------------------------------------------------ the failure policy
FAILING = """
columns: {{prompt: question, completion: response, group: qid}}
rewards:
  - {{name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", when: {{source: [mcq, short]}}}}
  - {{name: bad, type: "toy_rewards:Raises", error: {error}}}
combiner: grpo
on_reward_error: {policy}
"""


@pytest.mark.parametrize("policy", ["nan", "raise"])
@pytest.mark.parametrize("error", ["KeyError", "RecursionError", "MemoryError"])
def test_a_raising_reward_is_handled_the_same_at_every_entry_point(error, policy, tmp_path, servers):
    config_path = write_config(tmp_path, FAILING.format(error=error, policy=policy))
    rows = mixed_rows()
    entries = sorted([*IN_PROCESS, *OVER_HTTP])
    if policy == "raise":
        for name in entries:
            with pytest.raises(RewardError, match=f"failed on|{error}") as caught:
                run_entry(name, rows, config_path, tmp_path, servers)
            assert "bad" in str(caught.value) and error in str(caught.value), name
        with pytest.raises(RewardError, match="bad"):
            client_as_trl(rows, config_path, servers(config_path))
        return
    ref = via_scorer(rows, config_path, tmp_path)
    assert ref.failures == {"has_yes": 0, "bad": 3}
    assert [r for r in ref.reasons["bad"] if r] == [f"error: {error}: " + ("'bad rollout'" if error == "KeyError" else "bad rollout")] * 3
    for name in entries:
        assert_same(name, run_entry(name, rows, config_path, tmp_path, servers), ref)


# ------------------------------------------------------------------ several steps of a stateful combiner
DRPO = """
columns: {prompt: question, completion: response, group: qid, domain: source}
rewards:
  - {name: exact, type: "toy_rewards:AnswerMatch", answer_column: gold}
  - {name: has_yes, type: "toy_rewards:ContainsWord", word: "yes", weight: 0.5}
combiner: drpo
"""
POOL = [("q0", "medqa", "4"), ("q1", "medqa", "yes"), ("q2", "pubmedqa", "7"), ("q3", "pubmedqa", "no"), ("q4", "medqa", "9")]
STEPS = [[0, 1, 2], [3, 0, 4], [2, 1, 3]]  # questions come back in later steps, at other positions
ANSWERS = [["4", "yes", "4 yes", "5"], ["yes", "no", "yes", "x"], ["7", "8", "yes 7", "7"], ["no", "no yes", "yes", "n"],
           ["9", "9", "1", "yes"]]


def drpo_rows(step: int) -> list[dict]:
    """One step's rollouts; the question ids come as ints in step 0, floats in step 1 and strings in step 2."""
    rows = []
    for q in STEPS[step]:
        qid = (q, float(q), str(q))[step]
        name, source, gold = POOL[q]
        for j, response in enumerate(ANSWERS[q]):
            rows.append({"qid": qid, "question": f"{name}: what is it?", "response": response, "gold": gold, "source": source,
                         "completion_ids": list(range(2 + j))})
    return rows


def test_drpo_over_several_steps_is_the_same_at_every_stateful_entry_point(tmp_path):
    import copy

    path = write_config(tmp_path, DRPO)
    scorer = load_config(path).build_scorer()
    reference = [scorer.score(scorer.batch(drpo_rows(step))) for step in range(len(STEPS))]  # one scorer, three steps
    combiner = load_config(path).build_combiner()
    trainer_stub = poly_trainer_stub(path)
    trainer_combiner = load_config(path).build_combiner()
    estimator = {"polyreward_config": str(path)}
    for step, ref in enumerate(reference):
        rows = drpo_rows(step)
        got = {
            "trl": via_trl(rows, path, tmp_path, trainer=trainer_stub).advantages,
            "verl": via_verl(rows, path, tmp_path, estimator_config=estimator).advantages,
            "trainer": via_trainer(rows, path, tmp_path, combiner=trainer_combiner).advantages,
            "combiners.advantages": via_combiners_advantages(rows, path, tmp_path, _from_scored(ref), combiner=combiner),
        }
        for entry, advantages in got.items():
            np.testing.assert_allclose(advantages, ref.advantages, rtol=0, atol=1e-12, err_msg=f"{entry}, step {step}")
    # the same steps keyed by position (arange(N) // G, restarting every step) cluster other questions from step 1 on
    positional = load_config(path).build_combiner()
    for step, ref in enumerate(reference):
        scores = ref.scores
        by_position = positional.combine(scores, np.arange(len(scores)) // G, ref.weights,
                                         domain=np.array([r["source"] for r in drpo_rows(step)], dtype=object))
        if step == 0:
            np.testing.assert_allclose(by_position, ref.advantages, rtol=0, atol=1e-12)
        else:
            assert np.abs(by_position - ref.advantages).max() > 1e-6, step
    assert copy.deepcopy(scorer.combiner.state_dict()) == trainer_combiner.state_dict() == combiner.state_dict()


def test_trl_groups_by_prompt_text_when_the_dataset_has_no_group_column(tmp_path):
    """Without the config's group column TRL's rows are grouped by their prompt: the same question, the same id."""
    from polyreward.integrations.trl import PolyGRPOTrainer

    path = write_config(tmp_path, DRPO)
    stub = poly_trainer_stub(path)
    inputs = [{k: v for k, v in row.items() if k != "qid"} for row in trl_inputs(drpo_rows(0), path)]
    groups = PolyGRPOTrainer._gathered_groups(stub, inputs)
    assert groups == [row["prompt"] for row in inputs] and len(set(groups)) == 3


# ------------------------------------------------------------------ group identity
@pytest.mark.parametrize("ids", [[1, 1.0, "1", np.int64(1)], [[1, [2]], [1, [2.0]], ["1", ["2"]], (1, (2,))]])
def test_one_group_key_for_every_spelling_of_an_id(ids):
    assert len({group_key(i) for i in ids}) == 1


def test_a_hostile_nested_id_is_one_group_not_a_crash():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert group_key(deep) == "[" * 100_001 + "]" * 100_001
    assert group_key(10**5000).startswith("int:") and group_key(float("nan")) is None
