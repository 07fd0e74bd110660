"""``polyreward serve`` against hostile and unlucky clients, as a real subprocess on 127.0.0.1.

Each test asserts the fixed behaviour of issue 27/26/29's server items: a reward that holds the GIL does not
freeze ``/health`` and its slot is killed and rebuilt; slow-loris connections are dropped; a connection cap;
deep or malformed JSON is 400; the token guards every route but ``/health`` (``/openapi.json`` included), in
any letter case of ``Bearer`` and for a non-ASCII token sent as UTF-8; a missing column is 422;
``on_reward_error: raise`` is 422 with the RewardError's line; a field over the per-field cap is NaN + reason;
trust modes; special/EOS text cut from OpenRLHF queries; a dict label expanded into columns.
Wall-clock bounds are generous (the machine is shared): the hostile work lasts far longer than any bound.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from connection_cap import assert_over_the_cap_closed_on_arrival  # noqa: E402
from polyreward.reward import RolloutReward, Scored  # noqa: E402
from test_server import CONFIG, TOKEN, start_server, stop  # noqa: E402

AUTH = {"Authorization": f"Bearer {TOKEN}"}


class BacktracksWhenAsked(RolloutReward):
    """1.0 for "yes"; a completion "BACKTRACK n" first runs a catastrophic regex over n characters: ``re`` keeps the
    GIL for the whole match (2**n steps), the freeze a quadratic reward regex caused in the server's event loop."""

    type_name = "test_backtracks_when_asked"

    def score_rollout(self, completion, row):
        if completion.startswith("BACKTRACK "):
            re.match(r"(a|aa)+$", "a" * int(completion.split()[1]) + "b")
        return Scored(float("yes" in completion))


HOSTILE_CONFIG = CONFIG + '  - {name: hostile, type: "test_server_hostile:BacktracksWhenAsked", weight: 0.0}\n'


SERVER_PIDS: dict[str, int] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, url = start_server(tmp_path_factory.mktemp("hostile"), "--concurrency", "2", "--request-timeout", "4",
                             "--header-timeout", "1.5", "--body-timeout", "1.5", "--max-connections", "12",
                             "--max-field-chars", "5000", config=HOSTILE_CONFIG)
    SERVER_PIDS[url] = proc.pid
    yield url
    stop(proc)


def slot_processes(url: str) -> list[int]:
    """The server's live slot child processes (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == SERVER_PIDS[url] and fields[0] != "Z" and b"polyreward.runners.server_slots" in cmdline:
            found.append(int(stat.parent.name))
    return found


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def wait_idle(url: str) -> None:
    deadline = time.time() + 60
    while httpx.get(f"{url}/health").json()["busy"] and time.time() < deadline:
        time.sleep(0.1)


def test_health_answers_while_a_gil_holding_reward_runs_and_the_slot_is_rebuilt(server):
    wait_idle(server)
    before = httpx.get(f"{server}/health").json()["restarts"]
    hostile = {"rows": [{"prompt": "p", "completion": "BACKTRACK 60", "answer": "x", "prompt_id": "a"}]}  # 2**60 steps
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("r", httpx.post(f"{server}/score", json=hostile, headers=AUTH, timeout=120)))
    thread.start()
    deadline = time.time() + 20
    while not httpx.get(f"{server}/health").json()["busy"] and time.time() < deadline:
        time.sleep(0.05)
    waits = []
    for _ in range(5):  # the hostile request is in flight the whole time (it needs 2**60 steps)
        started = time.perf_counter()
        assert httpx.get(f"{server}/health", timeout=10).status_code == 200
        waits.append(time.perf_counter() - started)
        time.sleep(0.2)
    assert max(waits) < 1.0, waits
    # the other slot still scores
    assert httpx.post(f"{server}/score", json={"rows": [{"prompt": "p", "completion": "4", "answer": "4"}]}, headers=AUTH,
                      timeout=30).json()["scores"] == [[1.0, 0.0, 0.0]]
    thread.join(120)
    body = result["r"].json()
    assert body["timed_out"] is True and body["failures"] == {"match": 1, "yes": 1, "hostile": 1}
    assert httpx.get(f"{server}/health").json()["restarts"] == before + 1  # killed, not left running
    wait_idle(server)  # the rebuilt slot takes requests again
    assert len(slot_processes(server)) == 2  # the killed child is gone, one new child in its place
    assert httpx.post(f"{server}/score", json={"rows": [{"prompt": "p", "completion": "yes", "answer": "4"}]},
                      headers=AUTH, timeout=30).json()["scores"] == [[0.0, 1.0, 1.0]]


def test_two_hostile_requests_release_both_slots(server):
    """Before the fix two such requests kept both slots busy for minutes and every other client got 429."""
    wait_idle(server)
    before = httpx.get(f"{server}/health").json()["restarts"]
    hostile = {"rows": [{"prompt": "p", "completion": "BACKTRACK 60", "answer": "x", "prompt_id": "a"}]}
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(httpx.post(f"{server}/score", json=hostile, headers=AUTH, timeout=120)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert [a.json()["timed_out"] for a in answers] == [True, True]
    assert httpx.get(f"{server}/health").json()["restarts"] == before + 2
    wait_idle(server)  # both rebuilt: a normal request is scored, not refused
    assert httpx.post(f"{server}/score", json={"rows": [{"prompt": "p", "completion": "4", "answer": "4"}]}, headers=AUTH,
                      timeout=30).status_code == 200


def test_slow_loris_headers_are_dropped_at_the_header_deadline(server):
    sock = socket.create_connection(address(server), timeout=30)
    sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n")
    started, closed = time.perf_counter(), False
    try:
        while time.perf_counter() - started < 20:  # one header byte every 0.2 s: every byte would reset a per-read timer
            sock.sendall(b"X")
            time.sleep(0.2)
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    if not closed:
        sock.settimeout(5)
        closed = sock.recv(100) == b""
    sock.close()
    assert closed and time.perf_counter() - started < 15  # --header-timeout 1.5, generous bound


def test_a_body_that_never_arrives_is_408_and_closed(server):
    sock = socket.create_connection(address(server), timeout=30)
    sock.sendall(f"POST /score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: 1000\r\n\r\n{{\"rows\"".encode())
    reply = b""
    while chunk := sock.recv(4096):  # the server closes the connection after its answer
        reply += chunk
    sock.close()
    assert reply.startswith(b"HTTP/1.1 408") and b"did not arrive" in reply


def test_connections_over_the_cap_are_closed_on_arrival(server):
    assert_over_the_cap_closed_on_arrival(server, 12)


@pytest.mark.parametrize("body", [
    b"[" * 200_000 + b"]" * 200_000,  # deeper than the JSON parser's own recursion limit
    b'{"rows": [{"prompt": "p", "completion": ' + b"[" * 100 + b"]" * 100 + b', "answer": "4"}]}',  # deeper than 64
    b'{"rows": [{"prompt": "p", "completion": "4"',  # truncated
    b"\xff\xfe not utf-8",
])
def test_malformed_or_over_deep_bodies_are_400(server, body):
    response = httpx.post(f"{server}/score", content=body, headers=AUTH, timeout=30)
    assert response.status_code == 400, response.text
    assert "nests deeper" in response.json()["error"] or "not valid JSON" in response.json()["error"]


@pytest.mark.parametrize("path", ["/openapi.json", "/contract", "/docs", "/no-such-route"])
def test_every_route_but_health_needs_the_token(server, path):
    assert httpx.get(f"{server}{path}").status_code == 401
    assert httpx.get(f"{server}{path}", headers=AUTH).status_code in (200, 404)


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer", "bEaReR"])
def test_the_auth_scheme_is_case_insensitive(server, scheme):
    response = httpx.get(f"{server}/contract", headers={"Authorization": f"{scheme} {TOKEN}"})
    assert response.status_code == 200 and response.json()["names"] == ["match", "yes", "hostile"]


def test_a_non_ascii_token_sent_as_utf8_bytes_authenticates(tmp_path):
    token = "t\u00f6k\u00e9n-\u2603"
    proc, url = start_server(tmp_path, token=token)
    try:
        for encoding, expected in (("utf-8", 200), ("latin-1", 401)):
            sock = socket.create_connection(address(url), timeout=10)
            header = b"Authorization: Bearer " + token.encode(encoding, "replace") + b"\r\n"
            sock.sendall(b"GET /contract HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + header + b"\r\n")
            reply = sock.recv(100)
            sock.close()
            assert reply.startswith(f"HTTP/1.1 {expected}".encode()), (encoding, reply)
    finally:
        stop(proc)


def test_rows_without_a_column_the_rewards_read_are_422(server):
    response = httpx.post(f"{server}/score", json={"rows": [{"prompt": "p", "completion": "4"}]}, headers=AUTH, timeout=30)
    assert response.status_code == 422
    assert response.json()["error_type"] == "MissingColumnError" and "'answer'" in response.json()["error"]


def test_a_field_over_the_cap_is_nan_with_a_reason_and_the_other_rows_are_scored(server):
    wait_idle(server)
    rows = [{"prompt": "p", "completion": "y" * 6000, "answer": "4", "prompt_id": "a"},
            {"prompt": "p", "completion": "4", "answer": "4", "prompt_id": "a"}]
    body = httpx.post(f"{server}/score", json={"rows": rows}, headers=AUTH, timeout=30).json()
    assert body["scores"] == [[None, None, None], [1.0, 0.0, 0.0]]
    assert body["reasons"]["match"][0] == ("input: column 'completion' holds 6,000 characters, over this server's limit of "
                                           "5,000 (--max-field-chars)")
    assert body["failures"] == {"match": 1, "yes": 1, "hostile": 1} and body["failed"] == [3, 0]


def test_on_reward_error_raise_is_422_with_the_reward_errors_line(tmp_path):
    config = ("on_reward_error: raise\ncolumns: {prompt: prompt, completion: completion}\nrewards:\n"
              '  - {name: boom, type: "toy_rewards:Explodes"}\n')
    proc, url = start_server(tmp_path, token=None, config=config)
    try:
        response = httpx.post(f"{url}/score", json={"rows": [{"prompt": "p", "completion": "boom"}]}, timeout=30)
        assert response.status_code == 422
        body = response.json()
        assert body["error_type"] == "RewardError" and body["reward"] == "boom"
        assert body["error"] == "reward 'boom' failed on 1 of 1 rollouts (on_reward_error: raise); first: error: RuntimeError: boom"
        assert httpx.post(f"{url}/get_reward", json={"query": ["boom"], "prompts": [""], "labels": [None]}).status_code == 422
    finally:
        stop(proc)


def test_special_text_is_cut_from_openrlhf_queries_and_dict_labels_become_columns(server):
    prompts = ["<|im_start|>user\nsay 4<|im_end|>\n<|im_start|>assistant\n"] * 3
    queries = [prompts[0] + "4<|im_end|>", prompts[0] + "4<|im_end|>\n<|endoftext|><|endoftext|>", "<s>" + prompts[0] + "4</s>"]
    body = httpx.post(f"{server}/get_reward", json={"query": queries, "prompts": prompts, "labels": ["4", {"answer": "4"}, "4"]},
                      headers=AUTH, timeout=30).json()
    assert body["rewards"] == [1.0, 1.0, 1.0], body
    assert body["extra_logs"]["failed"] == [0.0, 0.0, 0.0]


def test_keep_special_text_scores_the_query_as_sent(tmp_path):
    proc, url = start_server(tmp_path, "--keep-special-text", token=None)
    try:
        body = httpx.post(f"{url}/get_reward", json={"query": ["Q: 4<|im_end|>"], "prompts": ["Q: "], "labels": ["4"]}).json()
        assert body["extra_logs"]["match"] == [0.0]
    finally:
        stop(proc)


def test_no_token_trust_mode_must_be_given_on_purpose_and_is_printed(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG.replace('  - {name: yes, type: "test_server:SleepsWhenAsked", weight: 0.5}\n', ""))
    env = {k: v for k, v in __import__("os").environ.items() if k != "POLYREWARD_TOKEN"}
    env["PYTHONPATH"] = str(__import__("pathlib").Path(__file__).parent)
    proc = subprocess.Popen([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), "--host", "0.0.0.0", "--port", "0",
                             "--workers", "0", "--no-token"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        port = int(line.split()[1].rsplit(":", 1)[1])
        assert "--no-token" in proc.stderr.readline()
        # OpenRLHF and slime send no Authorization header at all
        body = httpx.post(f"http://127.0.0.1:{port}/get_reward", json={"query": ["4"], "prompts": [""], "labels": ["4"]}).json()
        assert body["rewards"] == [1.0]
    finally:
        stop(proc)


def test_trust_client_lets_listed_networks_in_without_a_token(tmp_path):
    proc, url = start_server(tmp_path, "--trust-client", "127.0.0.0/8")
    try:
        assert httpx.post(f"{url}/slime", json={"prompt": "p", "response": "4", "label": "4"}).json() == 1.0
    finally:
        stop(proc)
    proc, url = start_server(tmp_path, "--trust-client", "10.0.0.0/8", token=None)
    try:
        response = httpx.post(f"{url}/slime", json={"prompt": "p", "response": "4", "label": "4"})
        assert response.status_code == 403 and "trusted networks" in response.json()["error"]
    finally:
        stop(proc)


def test_the_tokenizers_own_special_tokens_are_cut_too(tmp_path, tiny_qwen2_dir):
    proc, url = start_server(tmp_path, "--special-text", "[NOT-USED]", "--tokenizer", str(tiny_qwen2_dir), token=None)
    try:
        contract = httpx.get(f"{url}/contract").json()
        assert {"[NOT-USED]", "<|im_end|>", "<|endoftext|>", "<|im_start|>"} <= set(contract["special_text"])
        body = httpx.post(f"{url}/get_reward", json={"query": ["Q: 4<|im_end|>[NOT-USED]"], "prompts": ["Q: "], "labels": ["4"]}).json()
        assert body["extra_logs"]["match"] == [1.0]
    finally:
        stop(proc)


def test_a_folder_without_tokenizer_files_is_one_line_and_exit_2(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), "--tokenizer", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no tokenizer.json" in done.stderr and done.stderr.count("\n") == 1
