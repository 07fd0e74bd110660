"""``polyreward serve`` keeps the contract and no door open (real subprocess servers on 127.0.0.x, bounded in time).

- stateless per request: a stateful combiner (DRPO, SA-MRPO) answers the same request the same whatever came
  before, and a client that wants its history carries ``combiner_state`` explicitly;
- OpenRLHF ``/get_reward`` without labels for a reward that needs them is refused, never a silent 0; a row routed
  away from a reward needs none of that reward's columns; ``extra_logs`` carry applicability;
- ``X-Forwarded-For`` is read only from configured proxies; a slot is taken only once the body is read; a
  slow-loris source at the connection cap leaves an authenticated client from another address served; over-broad
  ``--trust-client`` networks are refused, ``::ffff:`` forms match; a slot killed while idle sends the next request
  elsewhere; oversized uploads get 413 while the slots are busy; URL credentials never come back.
"""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

sys.path.insert(0, str(Path(__file__).parent))
from test_server import AUTH, TOKEN, start_server, stop  # noqa: E402

TESTS = Path(__file__).resolve().parent

STATEFUL = """
columns: {{prompt: prompt, completion: completion, group: prompt_id, domain: source}}
combiner: {combiner}
rewards:
  - {{name: a, type: "toy_rewards:ContainsWord", word: a, weight: 2}}
  - {{name: b, type: "toy_rewards:ContainsWord", word: b}}
"""


def _rows(seed: int) -> list[dict]:
    import random

    rng = random.Random(seed)
    return [{"prompt": f"q{p}", "completion": rng.choice(["a", "b", "ab", "x"]), "prompt_id": f"q{(p + seed) % 4}", "source": "s"}
            for p in range(3) for _ in range(4)]


def _advantages(url: str, rows, **extra):
    response = httpx.post(f"{url}/score", json={"rows": rows, "advantages": True, **extra}, headers=AUTH, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("combiner", ["drpo", "sa_mrpo"])
def test_a_stateful_combiner_is_stateless_per_request_and_its_state_travels_with_the_client(tmp_path, combiner):
    import numpy as np

    from polyreward.config import Config
    from polyreward.schema import Batch

    import yaml

    proc, url = start_server(tmp_path, "--concurrency", "2", config=STATEFUL.format(combiner=combiner))
    try:
        first = _advantages(url, _rows(0))["advantages"]
        for seed in (1, 2, 3):  # other requests in between, on either slot
            _advantages(url, _rows(seed))
        assert _advantages(url, _rows(0))["advantages"] == first
        # the client keeps the history: two steps through the server == two steps of one in-process scorer
        step1 = _advantages(url, _rows(0), combiner_state=None)
        step2 = _advantages(url, _rows(1), combiner_state=step1["combiner_state"])
    finally:
        stop(proc)
    sys.path.insert(0, str(TESTS))
    scorer = Config.model_validate(yaml.safe_load(STATEFUL.format(combiner=combiner))).build_scorer(0)
    expected = []
    for seed in (0, 1):
        batch = scorer.batch(_rows(seed))
        expected.append(scorer.score(batch).advantages)
    np.testing.assert_allclose(first, expected[0], atol=1e-9)
    np.testing.assert_allclose(step2["advantages"], expected[1], atol=1e-9)


LABELLED = """
columns: {prompt: prompt, completion: completion, group: prompt_id}
rewards:
  - {name: match, type: "toy_rewards:AnswerMatch", answer_column: answer, when: {source: math}}
  - {name: yes, type: "toy_rewards:ContainsWord", word: "yes", weight: 0.5}
"""


def test_openrlhf_labels_routing_and_extra_logs(tmp_path):
    proc, url = start_server(tmp_path, token=None, config=LABELLED)
    try:
        def get_reward(query, prompt, labels):
            body = {"query": query, "prompts": prompt}
            if labels is not ...:
                body["labels"] = labels
            return httpx.post(f"{url}/get_reward", json=body, timeout=30)

        # a label dict routing the row to the labelled reward, with the answer: scored
        ok = get_reward(["p4"], ["p"], [{"answer": "4", "source": "math"}])
        assert ok.status_code == 200 and ok.json()["rewards"] == [1.0]
        # OpenRLHF without --data.label_key: "" (or null, or none) for a reward that reads the label -> refused
        for labels in ([{"answer": "", "source": "math"}], [{"answer": None, "source": "math"}]):
            refused = get_reward(["p4"], ["p"], labels)
            assert refused.status_code == 422 and "no label" in refused.json()["error"], refused.text
        # slime: one sample without a label, for a reward that reads it -> refused the same way
        slime = httpx.post(f"{url}/slime", json={"prompt": "p", "response": "4", "label": {"answer": None, "source": "math"}}, timeout=30)
        assert slime.status_code == 422 and "no label" in slime.json()["error"]
        # several rows, one without its label: that cell failed (flagged), the others scored
        mixed = get_reward(["p4", "p4"], ["p", "p"], [{"answer": "4", "source": "math"}, {"answer": "", "source": "math"}])
        assert mixed.status_code == 200
        logs = mixed.json()["extra_logs"]
        assert logs["failed"] == [0.0, 1.0] and logs["match/applicable"] == [1.0, 0.0]
        # a row routed away from `match` needs no answer at all (the CLI scores it): 200, and no 0.0 diluting `match`
        routed = httpx.post(f"{url}/get_reward", content=json.dumps({"query": ["pyes"], "prompts": ["p"], "labels": [{"source": "chat"}]}),
                            headers={"Content-Type": "application/json"}, timeout=30)
        assert routed.status_code == 200, routed.text
        answer = json.loads(routed.text)
        assert answer["rewards"] == [0.5] and "match" not in answer["extra_logs"] and answer["extra_logs"]["match/applicable"] == [0.0]
        # verl's compute_score through the client: the routed-away row needs no answer either
        from polyreward.runners.client import RewardClient

        with RewardClient(url, token=None) as client:
            assert client.compute_score("chat", "yes", None, {"source": "chat"}) == 0.5
            with pytest.raises(ValueError, match="one value per completion"):
                client(prompts=["p", "p"], completions=["yes", "no"], source=["chat"])
        # a request mixing an applicable and a routed-away row: NaN (not 0.0) where the reward did not apply
        both = json.loads(httpx.post(f"{url}/get_reward", json={"query": ["p4", "p4"], "prompts": ["p", "p"],
                                                               "labels": [{"answer": "4", "source": "math"}, {"source": "chat"}]}).text)
        assert both["extra_logs"]["match"][0] == 1.0 and math.isnan(both["extra_logs"]["match"][1])
    finally:
        stop(proc)


def _raw(url: str, request: bytes, source: str = "127.0.0.1", timeout: float = 20) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout, source_address=(source, 0)) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            piece = sock.recv(65536)
            if not piece:
                break
            data += piece
        return data


def test_forwarded_headers_are_read_only_from_configured_proxies(tmp_path):
    spoof = b"POST /score HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.0.0.5\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    proc, url = start_server(tmp_path, "--trust-client", "10.0.0.0/8")
    try:
        assert _raw(url, spoof).startswith(b"HTTP/1.1 401")  # the header names a trusted address: ignored
    finally:
        stop(proc)
    proc, url = start_server(tmp_path, "--trust-client", "10.0.0.0/8", "--forwarded-allow-ips", "127.0.0.1")
    try:
        assert _raw(url, spoof).startswith(b"HTTP/1.1 400")  # from the configured proxy: the client is 10.0.0.5
        assert _raw(url, spoof, source="127.0.0.2").startswith(b"HTTP/1.1 401")  # not the proxy
    finally:
        stop(proc)


@pytest.mark.parametrize("network", ["127.0.0.1/0", "0.0.0.0/0", "::/0", "10.0.0.1/8"])
def test_over_broad_trust_networks_are_one_line_and_exit_2(tmp_path, network):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(LABELLED)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(TESTS), os.environ.get("PYTHONPATH", "")))}
    out = subprocess.run([sys.executable, "-m", "polyreward", "serve", "-c", str(cfg), "--port", "0", "--trust-client", network],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--trust-client" in out.stderr, out.stderr


def test_an_ipv4_mapped_trust_entry_matches_the_ipv4_client(tmp_path):
    proc, url = start_server(tmp_path, "--trust-client", "::ffff:127.0.0.1", config=LABELLED)
    try:
        response = httpx.post(f"{url}/score", json={"rows": [{"prompt": "p", "completion": "yes", "source": "chat"}]}, timeout=30)
        assert response.status_code == 200, response.text
    finally:
        stop(proc)


SLOW = """
columns: {prompt: prompt, completion: completion, group: prompt_id}
rewards:
  - {name: yes, type: "test_server:SleepsWhenAsked"}
"""


def test_slow_uploads_hold_no_slot_and_oversized_bodies_get_413_while_busy(tmp_path):
    proc, url = start_server(tmp_path, "--concurrency", "1", "--body-timeout", "20", "--max-body-bytes", "4000", config=SLOW)
    host, port = url.removeprefix("http://").split(":")
    trickling = []
    try:
        for _ in range(2):  # two uploads that have sent their headers and 1 byte of a 100-byte body
            sock = socket.create_connection((host, int(port)), timeout=20)
            sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode()
                         + b"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            trickling.append(sock)
        time.sleep(0.5)
        rows = {"rows": [{"prompt": "p", "completion": "yes"}]}
        statuses = [httpx.post(f"{url}/score", json=rows, headers=AUTH, timeout=30).status_code for _ in range(5)]
        assert statuses == [200] * 5
        # the one slot busy with a 3-second request: an oversized upload still gets its 413, read to the end
        busy = threading.Thread(target=lambda: httpx.post(f"{url}/score", json={"rows": [{"prompt": "p", "completion": "SLEEP 3"}]},
                                                          headers=AUTH, timeout=30))
        busy.start()
        time.sleep(0.8)
        big = httpx.post(f"{url}/score", content=b"x" * 2_000_000, headers={**AUTH, "Content-Type": "application/json"}, timeout=30)
        assert big.status_code == 413, big.text
        busy.join()
    finally:
        for sock in trickling:
            sock.close()
        stop(proc)


def test_a_slow_loris_source_at_the_connection_cap_leaves_other_clients_served(tmp_path):
    """300 stalled sockets from 127.0.0.1 (reopened as the server closes them) against a cap of 256; 45 requests with
    the token from 127.0.0.2 within 30 s must all be answered."""
    proc, url = start_server(tmp_path, "--concurrency", "2", config=SLOW)
    host, port = url.removeprefix("http://").split(":")
    stop_attack = threading.Event()
    held: list[socket.socket] = []

    def attack() -> None:
        while not stop_attack.is_set():
            while len(held) < 300 and not stop_attack.is_set():
                try:
                    sock = socket.create_connection((host, int(port)), timeout=5, source_address=("127.0.0.1", 0))
                    sock.sendall(b"POST /score HTTP/1.1\r\nHost: x\r\n")  # headers never finished
                    held.append(sock)
                except OSError:
                    time.sleep(0.01)
            for sock in list(held):  # reopen what the server closed
                sock.setblocking(False)
                try:
                    if sock.recv(1) == b"":
                        held.remove(sock)
                        sock.close()
                except BlockingIOError:
                    pass
                except OSError:
                    held.remove(sock)
                    sock.close()
            time.sleep(0.05)

    attacker = threading.Thread(target=attack, daemon=True)
    attacker.start()
    try:
        deadline = time.time() + 20
        while len(held) < 300 and time.time() < deadline:
            time.sleep(0.1)
        served = 0
        started = time.time()
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=10) as client:
            for _ in range(45):
                if time.time() - started > 30:
                    break
                try:
                    response = client.post(f"{url}/score", json={"rows": [{"prompt": "p", "completion": "yes"}]}, headers=AUTH)
                    served += response.status_code == 200
                except httpx.TransportError:
                    pass
        assert served == 45, f"{served} of 45 served during the slow-loris"
    finally:
        stop_attack.set()
        attacker.join(10)
        for sock in held:
            sock.close()
        stop(proc)


def test_a_slot_killed_while_idle_sends_the_next_request_elsewhere(tmp_path):
    from test_server_hostile import SERVER_PIDS, slot_processes

    proc, url = start_server(tmp_path, "--concurrency", "2", config=SLOW)
    SERVER_PIDS[url] = proc.pid
    rows = {"rows": [{"prompt": "p", "completion": "yes"}]}
    try:
        deadline = time.time() + 60
        while len(slot_processes(url)) < 2 and time.time() < deadline:
            time.sleep(0.1)
        for round_ in range(2):  # one slot killed, then every live slot: whichever the next request takes is dead
            pids = slot_processes(url)
            for pid in (pids[:1] if round_ == 0 else pids):
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.3)
            statuses = []
            deadline = time.time() + 40
            while 200 not in statuses and time.time() < deadline:
                statuses.append(httpx.post(f"{url}/score", json=rows, headers=AUTH, timeout=60).status_code)
                time.sleep(0.2 if statuses[-1] == 429 else 0)
            assert 500 not in statuses and statuses[-1] == 200 and set(statuses) <= {200, 429}, statuses
    finally:
        stop(proc)


JUDGED = """
columns: {prompt: prompt, completion: completion, group: prompt_id}
rewards:
  - name: rm
    type: reward_model
    server: {base_url: "http://judgeuser:hunter2secret@127.0.0.1:9/v1", model: rm, api: pooling, timeout: 2, max_retries: 0}
"""


def test_url_credentials_never_come_back(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"prompt": "p", "completion": "c"}) + "\n")
    cfg = tmp_path / "judged.yaml"
    cfg.write_text(JUDGED)
    out = subprocess.run([sys.executable, "-m", "polyreward", "score", str(rows), "-c", str(cfg), "-o", str(tmp_path / "o.jsonl"),
                          "--workers", "0", "--quiet"], capture_output=True, text=True, timeout=120)
    written = (tmp_path / "o.jsonl").read_text() if (tmp_path / "o.jsonl").exists() else ""
    assert "hunter2secret" not in out.stderr + out.stdout + written
    assert "judgeuser" not in out.stderr + written
    proc, url = start_server(tmp_path, config=JUDGED)
    try:
        response = httpx.post(f"{url}/score", json={"rows": [{"prompt": "p", "completion": "c"}]}, headers=AUTH, timeout=60)
        assert "hunter2secret" not in response.text and "judgeuser" not in response.text
    finally:
        stop(proc)
