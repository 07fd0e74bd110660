"""The reward server's front lane (``polyreward.runners.server_front``), with real ``polyreward serve`` subprocesses on
127.0.0.1: a config whose every reward is declared linear-time is scored in the front process, with the same answer
bytes as the slot path (the default) and the same scores and reasons as ``polyreward score``; a hostile 1 MB
row and a row that makes the released Clinical-R1 format regex backtrack quadratically finish quickly in front; the
per-field cap still applies; ``/health`` answers while the front lane scores; a request asking for advantages, and
every request of a config with any other reward, goes to a slot.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

sys.path.insert(0, str(Path(__file__).parent))
from test_server import AUTH, start_server, stop  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CAP = 1_000_000  # --max-field-chars of the servers here
LINEAR = """
columns: {prompt: prompt, completion: completion, group: prompt_id}
rewards:
  - {name: think, type: think_format, require_answer: true, min_content_words: 2}
  - {name: accuracy, type: crpo_accuracy, committed_answer: true}
  - {name: format, type: crpo_format, weight: 0.5}
  - {name: english, type: crpo_english, weight: 0.2, min_content_words: 2}
  - {name: overlong, type: overlong_penalty, weight: 0.1, max_completion_len: 400, soft_punish_cache: 100}
"""
# The released Clinical-R1 regexes backtrack quadratically on these shapes (crpo.py): _BOX_GROUP.findall on a run of
# unclosed "\\boxed{" takes 0.45 s on 16 KB, _FORMAT.search on "</think><answer>" pairs 0.25 s; this row, 200 KB of
# the first, would take them over a minute, and the 1 MB row of both, hours. The linear readings take well under a second.
PATHOLOGICAL = "<think>x</think><answer>" + "\\boxed{" * 28_000
HUGE = "<think>" + "</think><answer>\\boxed{" * ((CAP - 20) // 23)  # about 1 MB, under the cap: scored


def medqa_rows(n: int) -> list[dict]:
    rows = [json.loads(line) for line in (ROOT / "examples" / "medqa" / "rollouts.jsonl").read_text().splitlines()][:n]
    for i, row in enumerate(rows):
        row["answer"] = str(row["answer"])[0]  # "C. text": the letter is the gold crpo_accuracy reads
        row["prompt_id"] = f"g{i // 4}"
    return rows


HANDMADE = [
    "<think>The lesion spares the cortex, so the deficit is motor only.</think><answer>Motor tract. \\boxed{C}</answer>",
    "<think>Thinking.</think><answer>\\boxed{C}</answer>",
    "<think>Renal clearance doubles after the dose adjustment.</think><answer>Not \\boxed{B}, it is \\boxed{C}</answer>",
    "The answer is C.",
    "<think>Première pensée clinique détaillée.</think><answer>Réponse \\boxed{A}</answer>",
]


def rows_with_hostile() -> list[dict]:
    rows = medqa_rows(12)
    rows += [{"prompt": "Which option?", "completion": text, "answer": "C", "prompt_id": "hand"} for text in HANDMADE]
    rows.append({"prompt": "Which option?", "completion": PATHOLOGICAL, "answer": "C", "prompt_id": "hostile"})
    rows.append({"prompt": "Which option?", "completion": HUGE, "answer": "C", "prompt_id": "hostile"})
    return rows


def serve(tmp_path: Path, config: str = LINEAR, *args: str) -> tuple[subprocess.Popen, str]:
    return start_server(tmp_path, "--concurrency", "1", "--request-timeout", "60", "--max-field-chars", str(CAP), *args,
                        config=config)


@pytest.fixture(scope="module")
def lanes(tmp_path_factory):
    """{"front": url, "slot": url}: the same config, with --front-lane and without (the default)."""
    front, front_url = serve(tmp_path_factory.mktemp("front"), LINEAR, "--front-lane")
    slot, slot_url = serve(tmp_path_factory.mktemp("slot"))
    yield {"front": front_url, "slot": slot_url, "front_proc": front}
    stop(front)
    stop(slot)


def post(url: str, route: str, body: dict, timeout: float = 120) -> httpx.Response:
    response = httpx.post(f"{url}{route}", json=body, headers=AUTH, timeout=timeout)
    assert response.status_code == 200, response.text
    return response


def lane_of(url: str) -> dict:
    return httpx.get(f"{url}/health").json()["front_lane"]


def without_elapsed(raw: bytes) -> bytes:
    """The answer's bytes with the one field that differs between two runs (its ``elapsed_s``) cut out."""
    head, _, tail = raw.rpartition(b',"elapsed_s":')
    return head + tail[tail.index(b"}"):]


def test_the_front_lane_answers_byte_for_byte_as_the_slot_path_and_as_polyreward_score(lanes, tmp_path):
    rows = rows_with_hostile()
    before = lane_of(lanes["front"])
    assert before["on"] is True and lane_of(lanes["slot"])["on"] is False
    started = time.perf_counter()
    front = post(lanes["front"], "/score", {"rows": rows})
    front_seconds = time.perf_counter() - started
    assert lane_of(lanes["front"])["answered"] == before["answered"] + 1  # scored in front, not in a slot
    slot = post(lanes["slot"], "/score", {"rows": rows})
    assert without_elapsed(front.content) == without_elapsed(slot.content)
    # the hostile rows finish quickly in front: the whole 1.2 MB request, both of them included, in seconds
    assert front_seconds < 10 and front.json()["elapsed_s"] < 5
    body = front.json()
    names = body["names"]
    assert names == ["think", "accuracy", "format", "english", "overlong"]
    hostile = {name: (body["scores"][-2][k], body["scores"][-1][k]) for k, name in enumerate(names)}
    assert hostile["format"] == (0.0, 0.0) and hostile["think"] == (0.0, 0.0) and body["failed"][-2:] == [0, 0]
    # the same rows through `polyreward score`: the same scores, reasons and totals
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (tmp_path / "c.yaml").write_text(LINEAR)
    subprocess.run([sys.executable, "-m", "polyreward", "score", str(tmp_path / "rows.jsonl"), "-c", str(tmp_path / "c.yaml"),
                    "-o", str(tmp_path / "out.jsonl")], check=True, capture_output=True)
    written = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(written) == len(rows)
    for i, row in enumerate(written):
        for k, name in enumerate(names):
            served, filed = body["scores"][i][k], row[name]
            assert (served is None and (filed is None or math.isnan(filed))) or served == filed, (i, name)
            assert body["reasons"][name][i] == (row[f"{name}_reason"] or ""), (i, name)
        assert body["total"][i] == row["reward"] or (body["total"][i] is None and row["reward"] is None), i
    assert sum(score is not None for row in body["scores"] for score in row) > len(rows)  # the rows do score


def test_the_per_field_cap_applies_on_the_front_lane(lanes):
    rows = medqa_rows(3) + [{"prompt": "p", "completion": "x" * (CAP + 1), "answer": "C", "prompt_id": "big"}]
    front, slot = (post(lanes[lane], "/score", {"rows": rows}) for lane in ("front", "slot"))
    assert without_elapsed(front.content) == without_elapsed(slot.content)
    body = front.json()
    assert body["scores"][-1] == [None] * 5 and body["failed"][-1] == 5
    assert body["reasons"]["think"][-1].startswith("input: column 'completion' holds 1,000,001 characters")
    assert all(score is not None for score in body["scores"][0][2:])  # the other rows are scored


def test_peer_routes_answer_the_same_on_both_lanes(lanes):
    rows = medqa_rows(6)
    payload = {"query": [r["prompt"] + r["completion"] + "<|im_end|>" for r in rows], "prompts": [r["prompt"] for r in rows],
               "labels": [r["answer"] for r in rows]}
    front, slot = (post(lanes[lane], "/get_reward", payload) for lane in ("front", "slot"))
    assert front.content == slot.content and len(front.json()["rewards"]) == 6
    sample = {"prompt": rows[0]["prompt"], "response": HANDMADE[0], "label": "C"}
    assert post(lanes["front"], "/slime", sample).content == post(lanes["slot"], "/slime", sample).content


def test_the_front_lane_scores_while_the_slot_processes_are_stopped(lanes):
    """The answer comes from the front process: with its slot process stopped (SIGSTOP), it is still scored."""
    proc = lanes["front_proc"]
    children = [int(c) for task in Path(f"/proc/{proc.pid}/task").iterdir() for c in (task / "children").read_text().split()]
    assert children
    for child in children:
        os.kill(child, signal.SIGSTOP)
    try:
        body = post(lanes["front"], "/score", {"rows": medqa_rows(4)}, timeout=30).json()
    finally:
        for child in children:
            os.kill(child, signal.SIGCONT)
    assert body["timed_out"] is False and len(body["scores"]) == 4 and sum(body["failed"]) == 0


def test_health_answers_while_the_front_lane_scores_a_large_request(lanes):
    text = "<think>" + "word and more words " * 40_000 + "</think><answer>\\boxed{C}</answer>"  # 800 KB a row
    rows = [{"prompt": "p", "completion": text + str(i), "answer": "C", "prompt_id": "g"} for i in range(6)]
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("answer", post(lanes["front"], "/score", {"rows": rows})))
    thread.start()
    waits, seen_busy = [], False
    while thread.is_alive():
        started = time.perf_counter()
        health = httpx.get(f"{lanes['front']}/health", timeout=10).json()
        waits.append(time.perf_counter() - started)
        seen_busy |= health["front_lane"]["busy"]
        time.sleep(0.02)
    thread.join()
    assert seen_busy and len(done["answer"].json()["scores"]) == 6
    assert max(waits) < 1.0, waits  # the event loop is not held by the scoring (it runs on the lane's thread)


COMBINED = LINEAR.replace("rewards:", "combiner: grpo\nrewards:")


def test_a_request_for_advantages_goes_to_a_slot_and_others_stay_in_front(tmp_path):
    from polyreward.config import load_config

    proc, url = serve(tmp_path, COMBINED, "--front-lane")
    try:
        rows = medqa_rows(8)
        plain = post(url, "/score", {"rows": rows}).json()
        assert lane_of(url)["answered"] == 1 and plain["advantages"] is None
        combined = post(url, "/score", {"rows": rows, "advantages": True}).json()
        assert lane_of(url)["answered"] == 1  # scored in the slot
    finally:
        stop(proc)
    (tmp_path / "c.yaml").write_text(COMBINED)
    scorer = load_config(tmp_path / "c.yaml").build_scorer(0)
    expected = scorer.score(scorer.batch(rows))
    assert combined["advantages"] == expected.advantages.tolist() and combined["scores"] == plain["scores"]


@pytest.mark.parametrize("entry, why", [
    ('{name: match, type: "toy_rewards:AnswerMatch", answer_column: answer}', "reward 'match' (type toy_rewards:AnswerMatch) is not declared linear-time"),
    ("{name: english2, type: crpo_english, measure: language}", "reward 'english2' is not linear-time with its parameters"),
])
def test_a_config_with_a_reward_not_linear_time_is_scored_in_the_slots(tmp_path, entry, why):
    proc, url = serve(tmp_path, LINEAR + f"  - {entry}\n", "--front-lane")
    try:
        assert lane_of(url) == {"on": False, "busy": False, "answered": 0}
        assert post(url, "/score", {"rows": medqa_rows(2)}).json()["timed_out"] is False
    finally:
        stop(proc)
        errors = proc.stderr.read()
    assert f"front lane: off ({why})" in errors


def test_a_front_lane_request_past_its_budget_gets_the_bounded_answer_and_the_lane_comes_back(tmp_path):
    proc, url = serve(tmp_path, LINEAR, "--front-lane", "--request-timeout", "0.3", "--max-field-chars", "2000000")
    try:
        big = [{"prompt": "p", "completion": "word " * 300_000 + str(i), "answer": "C", "prompt_id": "g"} for i in range(4)]  # 6 MB
        started = time.perf_counter()
        body = post(url, "/score", {"rows": big}).json()
        assert time.perf_counter() - started < 20
        assert body["timed_out"] is True and body["failed"] == [5] * 4
        assert all(r.startswith("timeout: the request's time budget of 0.3 s") for r in body["reasons"]["english"])
        deadline = time.time() + 60
        while lane_of(url)["busy"] and time.time() < deadline:  # the bounded work ends, and the lane is free again
            time.sleep(0.1)
        answered = lane_of(url)["answered"]
        assert post(url, "/score", {"rows": medqa_rows(2)}).json()["timed_out"] is False
        assert lane_of(url)["answered"] == answered + 1
    finally:
        stop(proc)
