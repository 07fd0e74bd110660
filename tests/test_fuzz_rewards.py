"""Fuzz every registered reward with hostile rollouts: no exception escapes, the output has the right shape and
every finite score lies inside the reward's declared ``score_range``.

The reward types come from the registry, so a newly registered reward is fuzzed too; it is built with the
``example_params`` its class declares (none for most), and a reward that needs a server gets a real one on 127.0.0.1
(:data:`PARAMS`). Columns it reads get realistic cells from :data:`COLUMN_VALUES` or its class's ``example_cells``.
Inputs (hypothesis, fixed seed, bounded examples): random unicode, long whitespace runs, repeated and
unclosed tags, LaTeX and JSON bombs, ~250 nested parentheses, chat-message lists, non-string completions
and prompts, numbers such as NaN, inf and 10**400 in data columns, batch sizes that are not powers of two.
"""

from __future__ import annotations

import http.server
import json
import math
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyreward import registry
from polyreward.reward import Reward, RewardOutput


class _ClassifyHandler(http.server.BaseHTTPRequestHandler):
    """A tiny vLLM-style ``/classify`` server: probability = share of vowels in each input."""

    def do_POST(self):  # noqa: N802 -- http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        texts = body["input"]
        data = [{"index": i, "probs": [sum(c in "aeiou" for c in t) / max(len(t), 1)]} for i, t in enumerate(texts)]
        payload = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def classify_url():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ClassifyHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


# parameters for the types that cannot be built with none (the server URL is filled in at run time)
PARAMS = {
    "reward_model": lambda url: {"server": {"base_url": url, "model": "rm", "api": "classify", "timeout": 5, "max_retries": 0}},
}

RUBRIC = [
    {"criterion": "Says 911", "points": 5, "rule": {"regex": r"\b911\b"}},
    {"criterion": "Is rude", "points": -3, "rule": {"contains": "idiot"}},
    {"criterion": "Short", "points": 2, "rule": {"max_words": 40}},
]
# realistic cells per column name, mixed with hostile ones below
COLUMN_VALUES = {
    "answer": ["42", "C", "C. Call the attending", "yes", r"\frac{1}{2}", "10!", "<answer>pneumonia; effusion</answer>",
               '[{"name": "search", "parameters": {"q": "x"}}]', "<tool_call>\n{\"name\": \"f\", \"parameters\": {}}\n</tool_call>",
               "<think>Small left pleural effusion.</think>", ["paris", "Paris"], ["a", "b"],
               [None, "5"], ["", None], [["5"]], "nan", "None", "5!!", r"3\frac{1}{2}", (r"\sqrt{2}", "2^{1/2}")],
    "observed": ["[40, 55.5]", [12.0, 80.0], 35, "80", [None, "x"], "[1e400]"],
    "tests": ["assert f(1) == 2", '{"inputs": ["1\\n"], "outputs": ["2\\n"]}', [{"input": "1", "output": "2"}], "{", "[1e400]",
              {"inputs": [None], "outputs": [3]}, ["assert True"]],
    "rubrics": [RUBRIC, json.dumps(RUBRIC), {"rubrics": RUBRIC}, "not json", "[]", json.dumps([{"criterion": "x", "points": 10**400}]),
                [{"criterion": "x", "points": 1, "rule": {"callable": "os:system"}}], "[" * 3000 + "]" * 3000],
    "options": [{"A": "aspirin", "B": "rest", "C": "call 911"}, "A. aspirin\nB. rest\nC. call 911", '["aspirin", "rest"]', ["x", "y"]],
    "prompt_id": [0, 1, "g", 2.5],
    "completion_ids": [[1, 2, 3], list(range(300)), [], 5, "abc", None],
}

_PIECES = ["<answer>", "</answer>", "<think>", "</think>", "<tool_call>", "</tool_call>", "<response>", "</response>",
           "\\boxed{", "}", "{", "\\mathrm{", "(", ")", "$", "**", "```", "criteria_met:", "The answer is ", "Option ",
           "\n", " ", "\t", "C", "A.", "42", "!", "\\frac{1}{", "e^{i\\pi}", '{"name": "f", "parameters": {}}', "\u200b", "é"]
_BOMBS = [
    " " * 5000, "\n" * 5000, "The answer" + " " * 2000 + "x", "<answer>" * 600, "<tool_call>" * 400, "\\boxed{" * 700,
    "\\mathrm{" * 600, "(" * 250 + "x" + ")" * 250, "criteria_met:" + " " * 3000, '{"a":' * 2000, "[" * 5000,
    "9" * 5000, "9^" * 500 + "9", r"\boxed{(10^{10})!}", "\ud800", "**" * 2000, "```json" + " " * 3000,
    r"\boxed{(10!)!}", r"\boxed{10!!!}", r"\boxed{10^{10}!}", "!" * 3000, "5!" * 1000, "A, B or " * 500, "word " * 1000 + "x^2",
    r"\boxed{\,5\,}", "\\" * 2000,
]
# a chat message list nested far deeper than any real one, and content given as parts or as a dict
_DEEP = "x"
for _ in range(2000):
    _DEEP = [{"role": "assistant", "content": _DEEP}]
texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(_PIECES), max_size=60).map("".join),
    st.sampled_from(_BOMBS),
    st.tuples(st.sampled_from(_BOMBS), st.text(max_size=40)).map("".join),
)
messages = st.lists(
    st.fixed_dictionaries({"role": st.sampled_from(["assistant", "user", "tool", "system"]), "content": st.one_of(texts, st.none())}),
    max_size=4,
)
odd_values = st.one_of(st.none(), st.integers(), st.just(10**400), st.just(10**5000), st.floats(allow_nan=True, allow_infinity=True),
                       st.binary(max_size=20), st.lists(st.text(max_size=10), max_size=3),
                       st.dictionaries(st.text(max_size=5), st.integers(), max_size=3), st.booleans())
odd_messages = st.sampled_from([
    _DEEP, {"role": "assistant", "content": r"\boxed{5}"}, [{"role": "assistant", "content": [{"type": "text", "text": r"\boxed{5}"}]}],
    [{"role": "assistant", "content": {"text": "C"}}], [{"role": "assistant"}], [[{"role": "assistant", "content": "C"}]], [None], [5],
])
completions = st.one_of(texts, texts, messages, odd_values, odd_messages)
prompts = st.one_of(texts, messages, odd_values)


def _column(name: str, reward=None):
    """Realistic cells of column ``name`` (this table, else the reward class's ``example_cells``) mixed with hostile ones."""
    cells = COLUMN_VALUES.get(name) or list(getattr(reward, "example_cells", {}).get(name, ()))
    realistic = st.sampled_from(cells) if cells else st.nothing()
    return st.one_of(realistic, realistic, texts, odd_values)


def _build(type_name: str, url: str):
    """The type built with PARAMS (a live server's URL) or the parameters its class declares (``example_params``)."""
    cls = registry.reward_class(type_name)
    params = PARAMS[type_name](url) if type_name in PARAMS else dict(cls.example_params)
    return cls(**params)


def _check(reward, out, n):
    assert len(out.scores) == n and len(out.reasons) == n
    low, high = reward.score_range
    for score, reason in zip(out.scores, out.reasons):
        assert isinstance(reason, str)
        if score is None:
            continue
        assert isinstance(score, (int, float)) and not isinstance(score, bool), f"score {score!r} is not a number"
        if math.isnan(score):
            assert reason, "a failed rollout needs a reason"
        else:
            assert low - 1e-9 <= score <= high + 1e-9, f"score {score} outside the declared range {reward.score_range}: {reason[:200]}"
    for key, values in out.details.items():
        assert len(values) == n, f"details[{key!r}] has {len(values)} values for {n} rollouts"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("type_name", registry.reward_types())
def test_no_exception_escapes_and_scores_stay_in_range(type_name, classify_url):
    reward = _build(type_name, classify_url)
    declared = tuple(reward.columns) + tuple(reward.optional_columns)

    @settings(max_examples=20, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
    @given(data=st.data(), n=st.integers(min_value=1, max_value=7))
    def run(data, n):
        batch_prompts = data.draw(st.lists(prompts, min_size=n, max_size=n))
        batch_completions = data.draw(st.lists(completions, min_size=n, max_size=n))
        columns = {name: data.draw(st.lists(_column(name, reward), min_size=n, max_size=n)) for name in declared}
        out = reward.evaluate(batch_prompts, batch_completions, **columns)
        _check(reward, out, n)
        assert len(reward(prompts=batch_prompts, completions=batch_completions, **columns)) == n  # the TRL call

    run()


def test_every_registered_reward_is_fuzzed():
    """A new reward type that needs parameters declares them in ``example_params`` (a live server's URL: PARAMS)."""
    for type_name in registry.reward_types():
        if type_name not in PARAMS:
            cls = registry.reward_class(type_name)
            cls(**cls.example_params)


# --- per-rollout isolation: the cases that used to null a whole batch -------------------------------------

NESTED = "(" * 250 + "x" + ")" * 250


@pytest.mark.parametrize(
    "type_name, params, bad, columns, bad_reason, good_score",
    [
        ("overlong_penalty", {"max_completion_len": 10, "soft_punish_cache": 5}, "a", {"completion_ids": [5, [1] * 7]}, "error: TypeError", -0.4),
        ("math_accuracy", {}, rf"\boxed{{{NESTED}}}", {"answer": ["x", "4"]}, "", 1.0),
        ("math_accuracy", {}, NESTED, {"answer": [NESTED, "4"]}, "", 1.0),
        ("rubric", {}, "call 911", {"rubrics": [json.dumps([{"criterion": "c", "points": 10**400}]), RUBRIC]}, "invalid rubric", 1.0),
        ("rubric", {}, "call 911", {"rubrics": ["[" * 50_000 + "]" * 50_000, RUBRIC]}, "JSON nested too deeply", 1.0),
    ],
)
def test_one_bad_rollout_never_fails_the_rest_of_its_batch(type_name, params, bad, columns, bad_reason, good_score):
    """The blast radius of the audit's cases is one rollout: ~250 nested parentheses, non-list completion_ids,
    rubric points of 10**400 and a deeply nested rubric JSON string."""
    reward = registry.reward_class(type_name)(**params)
    out = reward.evaluate([None, None], [bad, r"\boxed{4}" if type_name == "math_accuracy" else "call 911"], **columns)
    assert out.scores[1] == pytest.approx(good_score)
    assert bad_reason in out.reasons[0]
    assert out.scores[0] is not None and (math.isnan(out.scores[0]) == bool(bad_reason))


class _RaisesOnBad(Reward):
    """A batch-level reward that raises for the whole batch when any completion says BAD."""

    type_name = "raises_on_bad"

    def __init__(self, group_column=None):
        super().__init__()
        self.group_column, self.calls = group_column, []

    @property
    def columns(self):
        return (self.group_column,) if self.group_column else ()

    @property
    def group_columns(self):
        return self.columns

    def evaluate(self, prompts, completions, **columns):
        self.calls.append(len(completions))
        if any("BAD" in str(c) for c in completions):
            raise RecursionError("maximum recursion depth exceeded")
        return RewardOutput([float(len(str(c))) for c in completions], ["ok"] * len(completions))


def test_a_raising_batch_is_retried_one_rollout_at_a_time():
    reward = _RaisesOnBad()
    out = reward.evaluate([None] * 4, ["aa", "BAD", "abc", "a"])
    assert out.scores[0] == 2.0 and out.scores[2:] == [3.0, 1.0] and math.isnan(out.scores[1])
    assert out.reasons[1] == "error: RecursionError: maximum recursion depth exceeded"
    assert reward.calls == [4, 1, 1, 1, 1]
    assert reward(prompts=None, completions=["x", "BAD"])[0] == 1.0  # the TRL call path too


def test_a_group_level_reward_is_retried_one_group_at_a_time():
    reward = _RaisesOnBad(group_column="qid")
    out = reward.evaluate([None] * 5, ["a", "BAD", "abc", "ab", "x"], qid=[1, 1, 2, 2, 3])
    assert math.isnan(out.scores[0]) and math.isnan(out.scores[1]) and out.scores[2:] == [3.0, 2.0, 1.0]
    assert reward.calls == [5, 2, 2, 1]


def test_a_missing_declared_column_is_still_a_loud_configuration_error():
    with pytest.raises(KeyError, match="answer"):
        registry.reward_class("jaccard")().evaluate([None], ["x"])


def test_polyreward_score_keeps_the_other_rows_of_a_chunk(tmp_path):
    """The audit's `polyreward score` case: one bad rollout used to write null for every row of its chunk."""
    import subprocess
    import sys

    rows = [{"q": "q", "out": rf"\boxed{{{i}}}", "gold": str(i), "ids": [1] * (3 + i)} for i in range(6)]
    rows[2]["out"] = NESTED
    rows[4]["ids"] = 5
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(
        "columns: {prompt: q, completion: out}\n"
        "rewards:\n"
        "  - {name: acc, type: math_accuracy, answer_column: gold}\n"
        "  - {name: long, type: overlong_penalty, ids_column: ids, max_completion_len: 6, soft_punish_cache: 2}\n"
    )
    out = tmp_path / "out.jsonl"
    result = subprocess.run([sys.executable, "-m", "polyreward", "score", str(src), "--config", str(cfg), "-o", str(out)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["acc"] for r in scored] == [1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    assert [r["long"] for r in scored[:4]] == [0.0, 0.0, -0.5, -1.0] and scored[5]["long"] == -1.0
    assert scored[4]["long"] is None or math.isnan(scored[4]["long"])
    assert "ids must be a list of token ids, got int" in scored[4]["long_reason"]
