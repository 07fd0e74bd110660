"""The PrimeIntellect verifiers 0.4 adapter and the prime-rl / SkyRL / AReaL snippets of docs/prime-verifiers.md.

A real verifiers 0.4.0 environment scores given completions offline and gets what ``polyreward score`` gets on the
same rows of examples/math/rollouts.jsonl:

* the environment is the docs' module, loaded by id with ``vf.load_taskset`` (as ``vf-eval`` and prime-rl load one);
* each rollout's trace is built the way verifiers' interception records a model turn (``verifiers/v1/graph.py``:
  ``prepare_turn(...).commit(Response)``) and scored by ``Task.score(trace)`` (``verifiers/v1/task.py``, the call
  ``verifiers/v1/rollout.py`` makes after the agent ran), and by ``vf-replay``'s ``run_replay``
  (``verifiers/v1/cli/replay.py``) on a run saved with ``verifiers/v1/utils/trace_store.py``'s ``append_trace``;
* the combiner's advantages go through prime-rl's ``Algorithm.score_group`` hook and ``assign_advantages``, which
  prime-rl does not package apart from its GPU stack, so both are re-typed here from prime-rl commit 559b447
  (``src/prime_rl/orchestrator/algo/base.py``, ``routing.py``);
* SkyRL's ``BaseTextEnv`` / ``BaseTextEnvStepOutput`` are re-typed from SkyRL commit a956457
  (``skyrl-gym/skyrl_gym/envs/base_text_env.py``; ``extras`` as ``skyrl/train/dataset/dataset.py`` builds it);
* AReaL's call is ``reward_fn(prompt, completions, prompt_ids, completion_ids, **task_data)`` through a process
  pool (``areal/workflow/rlvr.py``, ``areal/api/reward_api.py`` at AReaL commit 4aef98d).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import math
import pickle
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import verifiers.v1 as vf
from verifiers.v1.cli.output import write_config
from verifiers.v1.cli.replay import run_replay
from verifiers.v1.configs.cli.replay import ReplayConfig
from verifiers.v1.graph import prepare_turn
from verifiers.v1.utils.trace_store import append_trace

from polyreward.integrations.prime_verifiers import PolyrewardTaskData, group_advantages, task_class, trace_batch

sys.path.insert(0, str(Path(__file__).parent))
from test_server import TOKEN, start_server, stop  # noqa: E402  (a real `polyreward serve` on 127.0.0.1)

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "prime-verifiers.md"
MATH_CONFIG = ROOT / "examples" / "math" / "config.yaml"
PROBLEMS = ("math-000", "math-001", "math-002", "math-003")   # 4 problems x 6 rollouts
ENV_ID = "polyreward-math-env"
REWARDS = ("accuracy", "format", "overlong")


def snippet(name: str) -> str:
    match = re.search(rf"<!-- snippet: {name} -->\n```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    assert match, f"docs/prime-verifiers.md has no snippet {name!r}"
    return match.group(1)


def run_async(coroutine):
    return asyncio.run(coroutine)


@pytest.fixture(scope="module")
def rows():
    lines = (ROOT / "examples" / "math" / "rollouts.jsonl").read_text(encoding="utf-8").splitlines()
    return [row for row in map(json.loads, lines) if row["prompt_id"] in PROBLEMS]


@pytest.fixture(scope="module")
def cli(rows, tmp_path_factory):
    """``polyreward score`` on the rows, with the math config plus a GDPO combiner (for the advantages)."""
    folder = tmp_path_factory.mktemp("cli")
    (folder / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    (folder / "config.yaml").write_text(MATH_CONFIG.read_text(encoding="utf-8") + "combiner: gdpo\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "polyreward", "score", "rows.jsonl", "--config", "config.yaml", "-o", "out.jsonl"],
                   cwd=folder, check=True, capture_output=True, text=True)
    scored = [json.loads(line) for line in (folder / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(scored) == len(rows)
    return {"rows": scored, "config": folder / "config.yaml"}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """The docs' environment module, importable by its id, run from the repository root (it reads examples/)."""
    folder = tmp_path_factory.mktemp("env")
    (folder / "polyreward_math_env.py").write_text(snippet("prime-env"), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        patch.chdir(ROOT)
        taskset = vf.load_taskset(vf.TasksetConfig(id=ENV_ID))
        yield taskset, {task.data.id: task for task in taskset}
        sys.modules.pop("polyreward_math_env", None)


def rollout_trace(task: vf.Task, completion: str) -> vf.Trace:
    """A finished single-turn trace of ``task`` whose model reply is ``completion``, recorded as interception does."""
    trace = vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
                     agent=vf.AgentInfo(config=vf.AgentConfig()))
    sampled = list(range(100, 100 + max(1, len(completion.split()))))
    tokens = vf.TurnTokens(prompt_ids=[1, 2, 3], completion_ids=sampled, completion_logprobs=[0.0] * len(sampled))
    reply = vf.Response(id="r", created=0, model="policy", message=vf.AssistantMessage(content=completion),
                        finish_reason="stop", tokens=tokens)
    prepare_turn(trace, [vf.UserMessage(content=task.data.prompt)]).commit(reply)
    trace.is_completed = trace.ok = True
    return trace


@pytest.fixture(scope="module")
def scored_traces(env, rows):
    """Every row's trace scored by its task's ``Task.score``, all concurrently (as a rollout pool does)."""
    _, tasks = env
    pairs = [(tasks[row["prompt_id"]], rollout_trace(tasks[row["prompt_id"]], row["completion"])) for row in rows]

    async def score_all():
        await asyncio.gather(*(task.score(trace) for task, trace in pairs))

    run_async(score_all())
    return [trace for _, trace in pairs]


def assert_matches_cli(traces, cli_rows):
    for trace, row in zip(traces, cli_rows, strict=True):
        for name in REWARDS:
            assert trace.rewards[name].score == pytest.approx(row[name], abs=1e-12), (name, row["completion"])
            assert trace.info["polyreward"]["reasons"].get(name) == row[f"{name}_reason"], name
        assert trace.reward == pytest.approx(row["reward"], abs=1e-12)


def pins(text: str) -> list[str]:
    command = text[text.index('--no-deps "verifiers=='):]
    return re.findall(r'"([A-Za-z0-9_.-]+==[^"]+)"', command[: command.index("sse-starlette") + 30])


def test_the_docs_install_line_is_the_scripts_and_is_what_is_installed():
    from importlib.metadata import version

    script = pins((ROOT / "scripts" / "install_dev.sh").read_text(encoding="utf-8"))
    assert script == pins(PAGE.read_text(encoding="utf-8")) and script[0] == "verifiers==0.4.0"
    for pin in script:
        name, wanted = pin.split("==")
        assert version(name) == wanted, pin


def test_without_verifiers_0_4_the_import_says_how_to_install_it():
    code = "import sys; sys.modules['verifiers'] = None; import polyreward.integrations.prime_verifiers"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    assert "ImportError: polyreward.integrations.prime_verifiers needs verifiers 0.4" in result.stderr
    assert "docs/prime-verifiers.md" in result.stderr


def test_the_environment_loads_by_id_with_one_task_per_problem(env):
    taskset, tasks = env
    assert type(taskset).__name__ == "MathTaskset" and len(tasks) == 48
    task = tasks["math-001"]
    assert [fn.__name__ for fn in task.hooks("reward")] == ["accuracy", "format", "overlong"]
    assert [fn._vf_weight for fn in task.hooks("reward")] == [1.0, 0.2, 0.15]
    assert type(task).data_type() is PolyrewardTaskData


def test_task_score_equals_polyreward_score(scored_traces, cli):
    assert_matches_cli(scored_traces, cli["rows"])
    assert {trace.rewards["accuracy"].score for trace in scored_traces} == {0.0, 1.0}   # both outcomes occur
    assert all(trace.info["polyreward"]["failed"] == [] for trace in scored_traces)


def test_the_trace_gives_the_rows_prompt_completion_and_columns(env, rows):
    _, tasks = env
    row = rows[7]
    task = tasks[row["prompt_id"]]
    batch = trace_batch(task.data, rollout_trace(task, row["completion"]))
    assert batch.prompts == [row["prompt"]]
    assert batch.completions == [[{"role": "assistant", "content": row["completion"]}]]
    assert batch.columns == {"answer": [row["answer"]], "task": [row["task"]]}   # info {"task": ...} is expanded


def test_a_multi_turn_trace_and_a_message_prompt():
    """The completion is every message from the first sampled one on (tool results included); a message prompt is
    passed as message dicts."""
    Toy = task_class(TOY_CONFIG)
    task = Toy(PolyrewardTaskData(prompt=[vf.UserMessage(content="say yes")], answer="yes", info={"kind": "exact"}))
    trace = vf.Trace(task=vf.TraceTask(type="Toy", data=task.data), agent=vf.AgentInfo(config=vf.AgentConfig()))
    call = vf.ToolCall(id="c1", name="lookup", arguments='{"q": "word"}')
    first = [vf.UserMessage(content="say yes")]
    prepare_turn(trace, first).commit(vf.Response(id="1", created=0, model="m", finish_reason="tool_calls",
                                                  message=vf.AssistantMessage(content="let me look", tool_calls=[call])))
    second = [*first, trace.messages[-1], vf.ToolMessage(tool_call_id="c1", content="the word is yes")]
    prepare_turn(trace, second).commit(vf.Response(id="2", created=0, model="m", finish_reason="stop",
                                                   message=vf.AssistantMessage(content="yes")))
    trace.ok = True
    batch = trace_batch(task.data, trace)
    assert batch.prompts == [[{"role": "user", "content": "say yes"}]]
    assert [m["role"] for m in batch.completions[0]] == ["assistant", "tool", "assistant"]
    run_async(task.score(trace))
    assert trace.rewards["has_yes"].score == 1.0          # "yes" is in the assistant turns
    assert trace.rewards["gold"].score == 0.0             # the assistant turns joined are "let me look\nyes"


def test_a_task_class_of_ones_own_keeps_its_rewards_and_data_type():
    class QuizData(vf.TaskData):
        answer: str
        difficulty: str = "easy"

    class QuizTask(vf.Task[QuizData]):
        @vf.reward(weight=10.0)
        async def said_something(self, trace) -> float:
            return float(bool(trace.last_reply))

    config = {"rewards": [{"name": "gold", "type": "toy_rewards:AnswerMatch", "when": {"difficulty": "easy"}}]}
    Quiz = task_class(config, base=QuizTask, name="Quiz")
    assert issubclass(Quiz, QuizTask) and Quiz.data_type() is QuizData
    task = Quiz(QuizData(prompt="2+2?", answer="4"))
    trace = rollout_trace(task, "4")
    run_async(task.score(trace))
    assert {name: r.score for name, r in trace.rewards.items()} == {"said_something": 1.0, "gold": 1.0}
    assert trace.reward == 11.0
    hard = Quiz(QuizData(prompt="2+2?", answer="4", difficulty="hard"))   # a field of one's own is a column
    trace = rollout_trace(hard, "4")
    run_async(hard.score(trace))
    assert set(trace.rewards) == {"said_something"}


def test_vf_replay_rescores_a_saved_run_like_the_cli(env, rows, cli, tmp_path):
    """``vf-replay``'s own offline scorer, on a saved run of the environment whose traces were never scored."""
    _, tasks = env
    source, out = tmp_path / "run", tmp_path / "replay"
    config = ReplayConfig(taskset=vf.TasksetConfig(id=ENV_ID), rich=False, output_dir=out)
    write_config(config, source, "eval.json")

    async def save_and_replay():
        lock = asyncio.Lock()
        for row in rows:
            await append_trace(source, rollout_trace(tasks[row["prompt_id"]], row["completion"]), lock)
        return await run_replay(config, source, out)

    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        replayed = run_async(save_and_replay())
    assert [trace.task.data.id for trace in replayed] == [row["prompt_id"] for row in rows]
    assert_matches_cli(replayed, cli["rows"])


def test_group_advantages_through_prime_rls_score_group_equal_the_cli(env, scored_traces, rows, cli, monkeypatch):
    """The docs' prime-rl algorithm, with prime-rl's hook and ``assign_advantages`` re-typed from commit 559b447."""

    class Algorithm:  # src/prime_rl/orchestrator/algo/base.py: the constructor and the two hooks
        def __init__(self, config, policy_pool):
            self.policy_pool = policy_pool

        async def score_group(self, episodes):
            """Assign group-relative annotations to a finalized cohort."""

    def assign_advantages(trace, values):  # src/prime_rl/orchestrator/algo/routing.py
        nodes = [node for node in trace.nodes if any(node.mask)]
        total = sum(sum(node.mask) for node in nodes)
        advantages = [float(values)] * total if isinstance(values, (int, float)) else [float(v) for v in values]
        offset = 0
        for node in nodes:
            end = offset + sum(node.mask)
            node.advantages = advantages[offset:end]
            offset = end

    base, routing = types.ModuleType("prime_rl.orchestrator.algo.base"), types.ModuleType("prime_rl.orchestrator.algo.routing")
    base.Algorithm, routing.assign_advantages = Algorithm, assign_advantages
    for name in ("prime_rl", "prime_rl.orchestrator", "prime_rl.orchestrator.algo"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, base.__name__, base)
    monkeypatch.setitem(sys.modules, routing.__name__, routing)
    namespace: dict = {}
    exec(compile(snippet("prime-rl-algorithm"), str(PAGE), "exec"), namespace)

    episodes = [vf.Episode(task=trace.task, group=vf.GroupInfo(id=row["prompt_id"]), traces=[trace], ok=True)
                for trace, row in zip(scored_traces, rows)]
    algorithm = namespace["PolyrewardAlgorithm"](None, None, polyreward_config=str(cli["config"]))
    run_async(algorithm.score_group(episodes))   # one cohort: the CLI's batch (GDPO's batch norm spans it)
    expected = [row["advantage"] for row in cli["rows"]]
    for trace, advantage in zip(scored_traces, expected, strict=True):
        sampled = next(node for node in trace.nodes if node.sampled)
        assert sampled.advantages == pytest.approx([advantage] * sum(sampled.mask), abs=1e-9)
    assert len({round(a, 6) for a in expected}) > 2   # the advantages differ from rollout to rollout

    # without group ids the task's key groups the rollouts of a problem: the same advantages
    ungrouped = [vf.Episode(task=trace.task, traces=[trace], ok=True) for trace in scored_traces]
    assert [a for _, a in group_advantages(cli["config"], ungrouped)] == pytest.approx(expected, abs=1e-9)

    # an errored trace and another agent's (untrainable) trace are not part of the cohort
    judge = rollout_trace(env[1]["math-000"], "a judge's verdict")
    judge.agent.trainable = False
    broken = scored_traces[0].model_copy(deep=True)
    broken.ok = False
    extra = [vf.Episode(task=judge.task, traces=[judge, broken], ok=False)]
    assert [trace for trace, _ in group_advantages(cli["config"], ungrouped + extra)] == scored_traces


TOY_CONFIG = {
    "rewards": [
        {"name": "has_yes", "type": "toy_rewards:ContainsWord", "word": "yes"},
        {"name": "explodes", "type": "toy_rewards:Explodes", "weight": 2.0},
        {"name": "gold", "type": "toy_rewards:AnswerMatch", "weight": 3.0, "when": {"kind": "exact"}},
    ],
}


def score_one(task_cls, completion, **data):
    task = task_cls(PolyrewardTaskData(prompt="say yes", **data))
    trace = rollout_trace(task, completion)
    run_async(task.score(trace))
    return trace


def test_not_applicable_records_nothing_and_a_failure_is_none_with_its_reason():
    Toy = task_class(TOY_CONFIG)
    trace = score_one(Toy, "yes boom", answer="yes", info={"kind": "free"})
    assert set(trace.rewards) == {"has_yes", "explodes"}               # gold's when: rule does not select this row
    assert trace.rewards["has_yes"].score == 1.0 and trace.rewards["explodes"] is None   # failed: "did not run"
    assert trace.info["polyreward"]["failed"] == ["explodes"]
    assert "boom" in trace.info["polyreward"]["reasons"]["explodes"]
    assert trace.reward == 1.0

    trace = score_one(Toy, "yes", answer="yes", info={"kind": "exact", "skip": True})   # info keys are columns
    assert set(trace.rewards) == {"explodes", "gold"}                  # has_yes: not applicable (skip)
    assert trace.reward == pytest.approx(2.0 * 0.5 + 3.0 * 1.0)


def test_concurrent_traces_are_each_scored_once_and_read_their_own_scores(monkeypatch):
    """Task.score scores a trace once for all its reward methods, and traces scored at the same time do not mix."""
    from polyreward.integrations import prime_verifiers

    calls = []
    real = prime_verifiers._score_trace
    monkeypatch.setattr(prime_verifiers, "_score_trace", lambda *args: calls.append(args[2].id) or real(*args))
    Toy = task_class(TOY_CONFIG)
    completions = ["yes", "no", "yes boom", "nope", "yes yes"]
    tasks = [Toy(PolyrewardTaskData(prompt="say yes", answer=c, info={"kind": "exact"})) for c in completions]
    traces = [rollout_trace(task, c) for task, c in zip(tasks, completions)]

    async def score_all():
        await asyncio.gather(*(task.score(trace) for task, trace in zip(tasks, traces)))

    run_async(score_all())
    assert sorted(calls) == sorted(trace.id for trace in traces)   # 5 scorings, not 5 x 3
    assert [trace.rewards["has_yes"].score for trace in traces] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert [trace.rewards["explodes"] is None for trace in traces] == [False, False, True, False, False]


def test_on_reward_error_raise_fails_the_rollout_as_a_task_error():
    Toy = task_class({**TOY_CONFIG, "on_reward_error": "raise"})
    with pytest.raises(vf.TaskError, match="explodes"):
        score_one(Toy, "boom", answer="x", info={"kind": "free"})


def test_verifiers_config_reweights_a_polyreward_reward():
    """The methods are ordinary @vf.reward methods: ``--env.taskset.task.rewards.<name>.weight`` applies."""
    Toy = task_class(TOY_CONFIG)
    task = Toy(PolyrewardTaskData(prompt="say yes", answer="yes", info={"kind": "exact"}),
               vf.TaskConfig(rewards={"gold": vf.RewardFunctionConfig(weight=0.5)}))
    trace = rollout_trace(task, "yes")
    run_async(task.score(trace))
    assert trace.rewards["gold"].weight == 0.5 and trace.rewards["gold"].score == 1.0
    assert trace.reward == pytest.approx(1.0 + 2.0 * 0.5 + 0.5 * 1.0)


def test_a_reward_named_like_a_task_attribute_is_refused():
    with pytest.raises(ValueError, match=r"\['score'\] are attributes of Task"):
        task_class({"rewards": [{"name": "score", "type": "toy_rewards:ContainsWord"}]})


def test_skyrl_environment_snippet_steps_to_the_cli_reward(rows, cli, monkeypatch):
    class BaseTextEnv:  # skyrl-gym/skyrl_gym/envs/base_text_env.py @ a956457 (what the snippet relies on)
        def __init__(self):
            self.turns, self.max_turns = 0, 1

    def BaseTextEnvStepOutput(**fields):  # a TypedDict there: observations, reward, done, metadata
        return dict(fields)

    module = types.ModuleType("skyrl_gym.envs.base_text_env")
    module.BaseTextEnv, module.BaseTextEnvStepOutput = BaseTextEnv, BaseTextEnvStepOutput
    for name in ("skyrl_gym", "skyrl_gym.envs"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    exec(compile(snippet("skyrl-env"), str(PAGE), "exec"), namespace)
    for row, expected in zip(rows, cli["rows"], strict=True):
        # a SkyRL sample: prompt and env_class are popped, the rest is `extras` (skyrl/train/dataset/dataset.py)
        extras = {"data_source": "math", "reward_spec": {"method": "rule", "ground_truth": row["answer"]},
                  "extra_info": {"task": row["task"]}}
        step = namespace["PolyrewardMathEnv"](env_config=None, extras=extras).step(row["completion"])
        assert step["done"] and step["reward"] == pytest.approx(expected["reward"], abs=1e-12)
        assert step["metadata"]["accuracy"] == expected["accuracy"]


def test_areal_reward_function_snippet_gives_the_cli_reward(rows, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    reward_fn = import_snippet("areal-reward", tmp_path, monkeypatch).polyreward_reward_fn
    assert pickle.loads(pickle.dumps(reward_fn)) is reward_fn   # AsyncRewardWrapper ships it to a process pool
    for row, expected in zip(rows, cli["rows"], strict=True):
        completion = row["completion"] + "<|im_end|>"           # tokenizer.decode keeps the EOS text
        data = {"answer": row["answer"], "task": row["task"], "prompt_id": row["prompt_id"], "style": row["style"]}
        reward = reward_fn(row["prompt"], completion, [1, 2, 3], [4, 5], **data)
        assert isinstance(reward, float) and math.isfinite(reward)
        assert reward == pytest.approx(expected["reward"], abs=1e-12)


def import_snippet(name: str, folder: Path, monkeypatch):
    (folder / "my_rewards.py").write_text(snippet(name), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, "my_rewards", raising=False)
    return importlib.import_module("my_rewards")


def test_areal_reward_function_on_a_reward_server_gives_the_cli_reward(rows, cli, tmp_path, monkeypatch):
    proc, url = start_server(tmp_path, config=MATH_CONFIG.read_text(encoding="utf-8"))
    try:
        monkeypatch.setenv("POLYREWARD_URLS", url)
        monkeypatch.setenv("POLYREWARD_TOKEN", TOKEN)
        module = import_snippet("areal-reward-server", tmp_path, monkeypatch)
        for row, expected in zip(rows, cli["rows"], strict=True):
            data = {"answer": row["answer"], "task": row["task"], "prompt_id": row["prompt_id"], "style": row["style"]}
            reward = module.polyreward_reward_fn(row["prompt"], row["completion"] + "<|im_end|>", [1, 2, 3], [4, 5], **data)
            assert reward == pytest.approx(expected["reward"], abs=1e-12)
        assert module.client.attempts == len(rows)   # every reward came from the server, none from a fallback
        module.client.close()
    finally:
        stop(proc)
