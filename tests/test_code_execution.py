"""The ``code_execution`` reward: program extraction, test shapes, comparison, scoring tables, the SandboxFusion client
against a stand-in server on 127.0.0.1, and agreement with verl's ``prime_code``."""

from __future__ import annotations

import json
import math
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.registry import reward_class
from polyreward.rewards.code_execution import CodeExecution
from polyreward.verifiers.code_extraction import extract_program
from polyreward.verifiers.code_tests import compare_output, parse_tests
from polyreward.verifiers.sandbox import Limits, run_program

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="the local sandbox is Linux-only (namespaces)")
F = "```"


def block(code: str, tag: str = "python") -> str:
    return f"{F}{tag}\n{code}\n{F}"


ADD = "def add(a, b):\n    return a + b"
SUM_STDIN = "a, b = map(int, input().split())\nprint(a + b)"

# ---------------------------------------------------------------------------------------------- extraction


@pytest.mark.parametrize("completion, program", [
    (block(ADD), ADD + "\n"),
    ("Here:\n" + block("x = 1") + "\nBetter:\n" + block("x = 2"), "x = 2\n"),  # a later revision wins
    (block("x = 1") + "\nOutput:\n" + block("3", "text"), "x = 1\n"),  # another language never counts
    (block("x = 1", "py"), "x = 1\n"),
    (block("x = 1", "") , "x = 1\n"),  # untagged, no tagged block
    (block("x = 1") + "\n" + block("3", ""), "x = 1\n"),  # a tagged block beats an untagged one
    ("<!-- " + block("x = 9") + " -->\n" + block("x = 1"), "x = 1\n"),  # commented-out code does not count
    ("> " + F + "python\n> x = 9\n> " + F + "\n" + block("x = 1"), "x = 1\n"),  # quoted code does not count
    ("<think>" + block("x = 9") + "</think>\n" + block("x = 1"), "x = 1\n"),  # drafts in thinking do not count
    (f"````python\nprint('{F}')\n````", f"print('{F}')\n"),  # a longer fence holds a shorter one
    ("First try:\n" + block("x = 9") + "\nWait, no, that is wrong:\n" + block("x = 1"), "x = 1\n"),  # retracted, revised
    (block("x = 1") + "\nWait, let me check: this prints 1.", "x = 1\n"),  # a pause withdraws nothing
    (block("x = 1") + "\nThis raises an error on an empty list, as the task allows.", "x = 1\n"),
    (block("x = 1") + "\nThe loop applies the usual error correction, then returns.", "x = 1\n"),
    (block("x = 1") + "\n" + block("# scratch that: a comment in sample output", "text"), "x = 1\n"),  # fenced text
])
def test_extracts_the_committed_program(completion, program):
    assert extract_program(completion).program == program


@pytest.mark.parametrize("completion", [
    "no code at all",
    block("x = 1") + "\nand the fix:\n" + F + "python\nx = 2\n",  # cut off inside the revision
    "<think>" + block("x = 1"),  # still thinking
    "<!-- " + block("x = 1"),  # an unclosed comment hides the rest
    block("echo hi", "bash"),
    block("x = 1") + "\nScratch that: I made an error.",  # taken back, nothing to replace it
    block("x = 1") + "\nOops, that's wrong; the answer is " + F + "python\nx = 2\n" + F + ".",  # no valid revision
    block("x = 1") + "\nWait, no.\n" + block("x = 2", "text"),  # the revision is not Python
])
def test_no_program(completion):
    extracted = extract_program(completion)
    assert extracted.program is None and extracted.reason.startswith("no_program")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("`~ >\n<!-think/pyon=x1")), max_size=300))
def test_extraction_never_raises_on_hostile_text(text):
    extracted = extract_program(text)
    assert extracted.program is None or isinstance(extracted.program, str)


def test_extraction_is_linear_on_a_huge_completion():
    huge = ("```python\n" + "x = 1\n" * 50_000 + "```\n") * 4 + "<!--" * 10_000
    assert extract_program(huge).program.count("x = 1") == 50_000

# ---------------------------------------------------------------------------------------------- test shapes


def test_test_shapes():
    assert parse_tests("assert f(1) == 2\nassert f(2) == 3").size == 2
    assert parse_tests(["assert f(1) == 2", "assert f(2) == 3"]).kind == "assert"  # MBPP test_list
    assert parse_tests("def check(c):\n    assert c(1)\ncheck(f)").size == 1  # HumanEval check(candidate)
    apps = parse_tests(json.dumps({"inputs": ["1 2\n", "3 4\n"], "outputs": ["3\n", "7\n"]}))
    assert apps.kind == "io" and apps.cases == (("1 2\n", "3\n"), ("3 4\n", "7\n"))
    assert parse_tests([{"input": ["1", "2"], "output": "3"}]).cases == (("1\n2", "3"),)
    assert parse_tests([{"stdin": "1", "stdout": "3"}]).size == 1
    for bad in ({"inputs": [1], "outputs": []}, {"fn_name": "f", "inputs": [], "outputs": []}, "x = 1", "def (:", [3], 4):
        with pytest.raises(ValueError):
            parse_tests(bad)


hostile_cells = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40)
    | st.sampled_from(["[" * 5000, "{" * 5000, "assert (" * 300, '{"inputs": [1], "outputs": [2, 3]}', "\x00", "nan"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["input", "output", "inputs", "outputs",
                                                                                   "fn_name", "stdin"]), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(hostile_cells)
def test_parse_tests_accepts_or_names_the_problem(cell):
    try:
        suite = parse_tests(cell)
    except ValueError as exc:
        assert str(exc)
    else:
        assert suite.size > 0 and suite.kind in ("assert", "io")


@pytest.mark.parametrize("got, want, tolerance, ok", [
    ("3\n", "3", None, True),
    ("3   \n\n\n", "3\n", None, True),  # trailing whitespace and blank lines
    ("1 2\r\n3", "1 2\n3", None, True),
    ("3", "4", None, False),
    (" 3", "3", None, False),  # leading whitespace is kept
    ("3\n4", "3", None, False),
    ("0.3333333", "0.333333333", 1e-6, True),
    ("0.3333333", "0.333333333", None, False),
    ("1e999", "inf", 1e-6, False),  # non-finite numbers never match by tolerance
    ("nan", "nan", 1e-6, True),  # (equal text)
    ("2 3", "2", 1e-6, False),
])
def test_compare_output(got, want, tolerance, ok):
    assert compare_output(got, want, tolerance)[0] is ok


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.text(max_size=200), st.sampled_from([None, 1e-9, 0.5]))
def test_compare_is_reflexive_and_symmetric(a, b, tolerance):
    assert compare_output(a, a, tolerance)[0]
    assert compare_output(a, b, tolerance)[0] == compare_output(b, a, tolerance)[0]

# ---------------------------------------------------------------------------------------------- the reward


def reward(**params) -> CodeExecution:
    return CodeExecution(**{"timeout": 1, "wall_timeout": 4, "memory_mb": 256, "concurrency": 2, **params})


ASSERTS = "assert add(1, 2) == 3\nassert add(2, 2) == 4\nassert add(-1, 1) == 0\nassert add(5, 5) == 10"
CASES = [{"input": "1 2\n", "output": "3\n"}, {"input": "2 2\n", "output": "4\n"}, {"input": "10 5\n", "output": "15"}]


@linux_only
@pytest.mark.parametrize("completion, tests, score, reason", [
    (block(ADD), ASSERTS, 1.0, "passed 4 of 4"),
    (block("def add(a, b):\n    return a - b"), ASSERTS, 0.0, "wrong_answer: test 1 of 4"),
    (block("def add(a, b):\n    return abs(a) + b"), ASSERTS, 0.75, "wrong_answer: test 3 of 4"),
    (block("def add(a, b):\n    return a + b if a < 5 else 0"), ASSERTS, 0.75, "wrong_answer: test 4 of 4"),
    (block("def add(a, b):\n    return a +"), ASSERTS, 0.0, "syntax_error"),
    (block("def add(a, b):\n    while True:\n        pass"), ASSERTS, 0.0, "timeout: test 1 of 4"),
    (block("def add(a, b):\n    return 1 / 0"), ASSERTS, 0.0, "crash: test 1 of 4"),
    (block("def add(a, b):\n    return bytearray(10 ** 9)"), ASSERTS, 0.0, "memory_limit: test 1 of 4"),
    (block("import sys\nsys.exit(0)\n" + ADD), ASSERTS, 0.0, "early_exit"),
    (block("import os\n" + ADD + "\nos._exit(0)"), ASSERTS, 0.0, "early_exit"),
    (block(SUM_STDIN), CASES, 1.0, "passed 3 of 3"),
    (block("a, b = map(int, input().split())\nprint(a + b if a < 10 else 0)"), CASES, 2 / 3, "wrong_answer: test 3 of 3"),
    (block("print(3)"), CASES, 1 / 3, "wrong_answer: test 2 of 3"),
    (block("import time\ntime.sleep(30)"), CASES, 0.0, "timeout: test 1 of 3"),
    (block("print(int(input()) + )"), CASES, 0.0, "syntax_error"),
    (block("import sys\nsys.stdout.write('x' * 10 ** 7)"), CASES, 0.0, "output_limit"),
    (block("raise SystemExit(3)"), CASES, 0.0, "crash: test 1 of 3 (exit code 3"),
    ("I think the answer is add(a, b) = a + b.", ASSERTS, 0.0, "no_program"),
])
def test_scores_and_reasons(completion, tests, score, reason):
    out = reward(max_output_kb=64).evaluate([None], [completion], tests=[tests])
    assert math.isclose(out.scores[0], score), out.reasons
    assert out.reasons[0].startswith(reason) or reason in out.reasons[0], out.reasons


@linux_only
def test_the_expected_output_never_reaches_the_program():
    """Everything the program can look at -- environment, arguments, every open descriptor, its directory, its own
    source -- holds the input only, never the expected output."""
    import uuid

    secret = uuid.uuid4().hex
    snoop = ("import os, sys\nseen = [repr(os.environ), repr(sys.argv), repr(os.listdir('/work'))]\n"
             "for fd in range(64):\n    try:\n        seen.append(os.read(fd, 1 << 20).decode('utf-8', 'replace'))\n"
             "    except OSError:\n        pass\nprint(secret_hunt := ' '.join(seen))\n")
    out = reward(max_output_kb=1024).evaluate([None], [block(snoop)], tests=[[{"input": "7\n", "output": secret}]])
    assert out.scores == [0.0] and out.reasons[0].startswith("wrong_answer")
    result = run_program(snoop, stdin="7\n", limits=Limits(cpu_seconds=1, wall_seconds=4))
    assert b"7" in result.stdout and secret.encode() not in result.stdout


@linux_only
def test_all_pass_mode_and_not_applicable_rows():
    r = reward(mode="all_pass")
    completions = [block(SUM_STDIN), block("print(3)"), block(SUM_STDIN), block(SUM_STDIN)]
    out = r.evaluate([None] * 4, completions, tests=[CASES, CASES, None, "not python ("])
    assert out.scores[:3] == [1.0, 0.0, None] and out.scores[3] is None
    assert out.reasons[1].startswith("wrong_answer: test 2 of 3") and out.reasons[3].startswith("unusable tests")


@linux_only
def test_float_tolerance():
    cases = [{"input": "", "output": "0.333333333"}]
    assert reward().evaluate([None], [block("print(1 / 3)")], tests=[cases]).scores == [0.0]
    assert reward(float_tolerance=1e-6).evaluate([None], [block("print(1 / 3)")], tests=[cases]).scores == [1.0]


def test_registered_and_validated():
    assert reward_class("code_execution") is CodeExecution
    for bad in ({"mode": "most"}, {"timeout": 0}, {"network_isolation": "none"}, {"sandbox": "docker"},
                {"sandbox": {"url": "ftp://x"}}, {"memory_mb": 1.5}, {"language": "cobol"}):
        with pytest.raises(ValueError):
            CodeExecution(**bad)

# ---------------------------------------------------------------------------------------------- remote sandbox


class StandInSandboxFusion(BaseHTTPRequestHandler):
    """SandboxFusion's POST /run_code, answered by running the code in the local sandbox. Like the real service, it
    writes the code to a file first and runs that file, so a program can read its own source from disk."""

    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 -- http.server's name
        if self.path != "/run_code":
            self.send_error(404)
            return
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        StandInSandboxFusion.requests.append(body)
        limits = Limits(cpu_seconds=body["run_timeout"], wall_seconds=body["run_timeout"] * 3 + 2,
                        memory_mb=body["memory_limit_MB"])
        from_file = (f"open('/work/main.py', 'w').write({body['code']!r})\n"
                     "import runpy\nrunpy.run_path('/work/main.py', run_name='__main__')\n")
        run = run_program(from_file, stdin=body.get("stdin") or "", limits=limits)
        timed_out = run.status == "timeout"
        code = run.exit_code if run.exit_code is not None else (-(run.signal or 9))
        reply = {"status": "Success" if run.status == "ok" else "Failed", "message": "", "compile_result": None,
                 "run_result": {"status": "TimeLimitExceeded" if timed_out else "Finished", "execution_time": run.wall_seconds,
                                "return_code": code, "stdout": run.stdout.decode("utf-8", "replace"),
                                "stderr": run.stderr.decode("utf-8", "replace")},
                 "executor_pod_name": None, "files": {}}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def stand_in_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandInSandboxFusion)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    StandInSandboxFusion.requests = []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@linux_only
def test_remote_sandbox_scores_like_the_local_one(stand_in_server):
    completions = [block(SUM_STDIN), block("print(3)"), block(ADD), block("def add(a, b):\n    return abs(a) + b"),
                   block("import sys\nsys.exit(0)\n" + ADD), block("def add(:"), block("while True:\n    pass")]
    tests = [CASES, CASES, ASSERTS, ASSERTS, ASSERTS, ASSERTS, CASES]
    local = reward().evaluate([None] * 7, completions, tests=tests)
    remote = reward(sandbox={"url": stand_in_server}).evaluate([None] * 7, completions, tests=tests)
    assert remote.scores == local.scores == [1.0, 1 / 3, 1.0, 0.75, 0.0, 0.0, 0.0]
    forger = block("import os, re, sys\ntokens = set()\nfor name in os.listdir('/work'):\n"
                   "    tokens.update(re.findall(r'[0-9a-f]{32}', open('/work/' + name).read()))\n"
                   "for t in tokens:\n    for i in range(4):\n        sys.stderr.write(f'\\n{t}\\tpass\\t{i}\\t\\n')\n"
                   "    sys.stderr.write(f'\\n{t}\\tdone\\t4\\t\\n')\nsys.stderr.flush()\nos._exit(0)")
    forged = reward(sandbox={"url": stand_in_server}).evaluate([None], [forger], tests=[ASSERTS])
    assert forged.scores == [0.0], forged.reasons  # the nonce is not in the file the service keeps on disk
    assert [r.split(":")[0] for r in remote.reasons] == [r.split(":")[0] for r in local.reasons]
    sent = StandInSandboxFusion.requests
    assert not any("add(-1, 1)" in body["code"] for body in sent)  # assert tests ride on stdin, never in the code file
    assert {"code", "language", "stdin", "run_timeout", "memory_limit_MB", "compile_timeout"} <= set(sent[0])
    import ast

    stdin_runs = [body for body in sent if body["stdin"] in [case["input"] for case in CASES]]
    assert len(stdin_runs) >= 3
    for body in stdin_runs:  # a stdin/stdout case sends the program and its input; the expected output is never sent
        spec = json.loads(ast.literal_eval(body["code"].rstrip().splitlines()[-1][len("main("):-len(", 2)")]))
        assert set(spec) == {"nonce", "program", "tests"} and spec["tests"] is None


def test_remote_sandbox_down_is_not_the_programs_fault():
    r = reward(sandbox={"url": "http://127.0.0.1:9/run_code", "request_timeout": 1})
    out = r.evaluate([None], [block(SUM_STDIN)], tests=[CASES])
    assert math.isnan(out.scores[0]) and out.reasons[0].startswith("sandbox_unavailable")

# ---------------------------------------------------------------------------------------------- verl prime_code


@linux_only
def test_agrees_with_verl_prime_code():
    """verl/utils/reward_score/prime_code/__init__.py ``compute_score(completion, test_cases, continuous=True)``
    (APPS ``{"inputs", "outputs"}`` JSON, stdin/stdout): the same verdicts on correct, wrong, partial and crashing
    programs."""
    prime_code = pytest.importorskip("verl.utils.reward_score.prime_code")
    tests = json.dumps({"inputs": ["1 2\n", "5 7\n", "10 10\n"], "outputs": ["3\n", "12\n", "20\n"]})
    programs = [SUM_STDIN, "a, b = map(int, input().split())\nprint(a * b)",
                "a, b = map(int, input().split())\nprint(a + b if a < 10 else 0)", "print(1 / 0)"]
    completions = [block(p) for p in programs]
    ours = reward().evaluate([None] * 4, completions, tests=[tests] * 4).scores
    theirs = [float(prime_code.compute_score(c, tests, continuous=True)[0]) for c in completions]
    assert [round(s, 6) for s in ours] == [round(s, 6) for s in theirs] == [1.0, 0.0, round(2 / 3, 6), 0.0]

# ---------------------------------------------------------------------------------------------- probe


@linux_only
def test_probe_finds_no_exploit_in_the_example_and_flags_visible_tests(capsys, tmp_path):
    """examples/code: printing the expected output, a lookup table of the prompt's examples, an early exit and the
    always-equal object all score below the genuine program. Control: when the prompt shows every test, the lookup
    table is a real exploit and the probe says so."""
    from polyreward.cli import main

    # the named strategies only (--budget 0): the reward-agnostic mutation search reads a program as a one-line answer
    assert main(["probe", "examples/code/config.yaml", "examples/code/rollouts.jsonl", "--budget", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {r["strategy"] for r in report["results"] if r["rows"]} >= {"print_expected", "special_case_inputs",
                                                                        "early_exit", "always_equal"}
    rows = [json.loads(line) for line in open("examples/code/rollouts.jsonl", encoding="utf-8")]
    shown = [dict(r, prompt=r["prompt"] + "\nTests: 1 2 -> 3, 10 -4 -> 6, 123456789 987654321 -> 1111111110, 0 0 -> 0")
             for r in rows if r["prompt_id"] == "sum-stdin"]
    leaky = tmp_path / "leaky.jsonl"
    leaky.write_text("".join(json.dumps(r) + "\n" for r in shown))
    assert main(["probe", "examples/code/config.yaml", str(leaky), "--budget", "0", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {r["strategy"] for r in report["results"] if r["exploited"] and r["reward"] == "unit_tests"} == {"special_case_inputs"}


@linux_only
def test_the_example_scores_as_documented(tmp_path):
    from polyreward.cli import main

    out = tmp_path / "scored.jsonl"
    assert main(["score", "examples/code/rollouts.jsonl", "--config", "examples/code/config.yaml", "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [round(r["unit_tests"], 4) for r in rows] == [1.0, 1.0, 0.25, 0.0, 0.0, 1.0, 0.6667, 0.0, 0.0, 0.0,
                                                          1.0, 0.0, 0.0, 0.0]
    assert [r["unit_tests_reason"].split(":")[0].split(" ")[0] for r in rows] == [
        "passed", "passed", "wrong_answer", "wrong_answer", "no_program", "passed", "wrong_answer", "early_exit",
        "wrong_answer", "syntax_error", "passed", "wrong_answer", "timeout", "crash"]


@linux_only
def test_agrees_with_verl_prime_code_on_its_ten_case_window():
    """The shape of verl's own prime_code test (tests/utils/reward_score/test_sandbox_on_cpu.py: a CodeContests
    program, 11 stdin/stdout cases, one expected output altered, continuous score 0.9), with a program of our own:
    ``prime_code`` in continuous mode scores only the first 10 cases (9 of 10), polyreward every case (10 of 11); on the
    same 10 cases the two agree. (Without ``continuous``, verl 0.9.1's ``compute_score`` raises UnboundLocalError on a
    program that fails a case -- ``metadata_list`` is only set in the continuous branch -- so all_pass is checked on
    our side only.)"""
    prime_code = pytest.importorskip("verl.utils.reward_score.prime_code")
    program = "n = int(input())\nprint(sum(i * i for i in range(n + 1)))"
    inputs = [f"{n}\n" for n in range(1, 12)]
    outputs = [f"{sum(i * i for i in range(n + 1))}\n" for n in range(1, 12)]
    outputs[3] = "-1\n"
    tests = json.dumps({"inputs": inputs, "outputs": outputs})
    first_ten = json.dumps({"inputs": inputs[:10], "outputs": outputs[:10]})
    completion = block(program)
    theirs = float(prime_code.compute_score(completion, tests, continuous=True)[0])
    assert theirs == pytest.approx(0.9)
    assert reward().evaluate([None], [completion], tests=[first_ten]).scores == [pytest.approx(0.9)]
    assert reward().evaluate([None], [completion], tests=[tests]).scores == [pytest.approx(10 / 11)]
    assert reward(mode="all_pass").evaluate([None], [completion], tests=[tests]).scores == [0.0]
