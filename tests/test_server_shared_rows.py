"""The ``"shared_rows"`` body of ``POST /score`` (issue #35): a client sends a prompt repeated by a group's rollouts once
per run of rows (``polyreward.runners.client.encode_rows`` / ``shared_columns``) and the server puts it back
(``polyreward.runners.server_routes.unshare_rows``). The rows read back exactly as sent (values and key order), the
answer is byte for byte that of the plain ``"rows"`` body (scores, reasons, totals, advantages grouped by the prompt's
text), a malformed body is 400, and ``RewardClient`` uses the form only with a server whose contract lists it (and
sends plain rows again to a replica that refuses it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import orjson
import pytest

from polyreward.config import load_config
from polyreward.runners.client import RewardClient, ShardFailed, encode_rows, shared_columns
from polyreward.runners.server_routes import RouteSettings, SlotScorer, parse_body, rows_of

sys.path.insert(0, str(Path(__file__).parent))
from test_server_front_lane import LINEAR, medqa_rows, rows_with_hostile, without_elapsed  # noqa: E402

GRPO = LINEAR + "combiner: {type: grpo}\n"


def slot_for(tmp_path: Path, config: str) -> SlotScorer:
    path = tmp_path / "config.yaml"
    path.write_text(config)
    return SlotScorer(load_config(path), 0, RouteSettings())


def grouped_rows() -> list[dict]:
    """MedQA rows (4 rollouts per prompt) plus hand-made ones whose prompt is not the first key, one of them alone."""
    rows = medqa_rows(24)
    rows += [{"completion": "<think>Renal.</think><answer>\\boxed{C}</answer>", "answer": "C", "prompt": "Which option?",
              "prompt_id": "late"} for _ in range(3)]
    rows.append({"completion": "The answer is C.", "prompt": "Alone", "answer": "C", "prompt_id": "alone"})
    return rows


def test_shared_rows_read_back_exactly_as_sent():
    rows = grouped_rows()
    body = encode_rows(rows, False, ["prompt"])
    payload = orjson.loads(body)
    assert "rows" not in payload and list(payload["shared"]) == ["prompt"]
    assert len(payload["shared"]["prompt"]["values"]) == 6 + 2  # 24 rows of 6 prompts, then two hand-made runs
    assert len(body) < 0.7 * len(encode_rows(rows, False))
    back = rows_of(parse_body(body))
    assert back == rows and [list(row) for row in back] == [list(row) for row in rows]  # values and key order


def test_only_a_column_worth_sharing_is_shared():
    rows = grouped_rows()
    assert shared_columns(rows, ["completion", "answer", "missing"]) == {}  # all distinct; too short; absent
    assert shared_columns(rows[:1], ["prompt"]) == {}
    mixed = [dict(row) for row in rows]
    mixed[5]["prompt"] = ["a chat", "list"]  # not a string in every row: sent as it is
    assert shared_columns(mixed, ["prompt"]) == {}
    assert encode_rows(mixed, False, ["prompt"]) == encode_rows(mixed, False)
    nan = [dict(row, score=float("nan")) for row in rows]  # not plain JSON: json.dumps of the rows, as before
    assert encode_rows(nan, False, ["prompt"]) == encode_rows(nan, False)


@pytest.mark.parametrize("config, advantages", [(LINEAR, False), (GRPO, True)], ids=["scores", "advantages-by-prompt-text"])
def test_the_answer_is_byte_for_byte_that_of_the_plain_body(tmp_path, config, advantages):
    slot = slot_for(tmp_path, config)
    rows = rows_with_hostile() + grouped_rows()
    if advantages:  # no group column: the rows are grouped by the prompt's text, which the shared form carries
        rows = [{k: v for k, v in row.items() if k != "prompt_id"} for row in rows]
    plain, shared = encode_rows(rows, advantages), encode_rows(rows, advantages, ["prompt"])
    assert b'"shared_rows"' in shared and b'"shared_rows"' not in plain
    status_plain, answer_plain = slot.handle("/score", plain, lambda n: None)
    status_shared, answer_shared = slot.handle("/score", shared, lambda n: None)
    assert status_plain == status_shared == 200
    assert without_elapsed(answer_shared) == without_elapsed(answer_plain)
    if advantages:
        assert any(a not in (0.0, None) for a in orjson.loads(answer_shared)["advantages"])


@pytest.mark.parametrize("shared, why", [
    (None, "object"),
    ({"prompt": {"values": ["Q"], "index": [0, 0]}}, "index"),
    ({"prompt": {"values": ["Q", 3], "index": [0, 0, 0]}}, "strings"),
    ({"prompt": {"values": ["Q"], "index": [0, 1, 0]}}, "index"),
    ({"prompt": {"values": ["Q"], "index": [0, -1, 0]}}, "index"),
    ({"prompt": {"values": ["Q"], "index": [0, True, 0]}}, "index"),
    ({"completion": {"values": ["Q"], "index": [0, 0, 0]}}, "null"),
    ({"prompt": ["Q"]}, "strings"),
])
def test_a_malformed_shared_body_is_400(tmp_path, shared, why):
    slot = slot_for(tmp_path, LINEAR)
    rows = [{"prompt": None, "completion": f"<answer>\\boxed{{{c}}}</answer>", "answer": "C", "prompt_id": "g"} for c in "ABC"]
    status, answer = slot.handle("/score", json.dumps({"shared_rows": rows, "shared": shared}).encode(), lambda n: None)
    assert status == 400 and why in orjson.loads(answer)["error"]


def test_the_client_sends_shared_rows_to_a_server_that_reads_them(tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    from test_server import TOKEN, start_server, stop

    rows = grouped_rows()
    proc, url = start_server(tmp_path, "--concurrency", "1", config=LINEAR)
    try:
        with RewardClient(url, token=TOKEN) as client:
            assert "shared_rows" in client.contract["body_forms"] and client._shared_columns() == ["prompt"]
            served = client.score_rows(rows)
        mixed = RewardClient(url, token=TOKEN)  # a replica older than the contract's server refuses the form: plain rows
        sent, post = [], mixed._post

        def older_replica(to, body, n):
            sent.append(body)
            if body.startswith(b'{"shared_rows"'):
                raise ShardFailed('error: HTTP 400: the body must be a JSON object with a non-empty list "rows"', False, 400)
            return post(to, body, n)

        mixed._post = older_replica
        with mixed:
            fell_back = mixed.score_rows(rows)
        assert [body.startswith(b'{"rows"') for body in sent] == [False, True]
        old = RewardClient(url, token=TOKEN)  # a server whose contract does not list the form gets plain rows
        old._contract = {k: v for k, v in client.contract.items() if k != "body_forms"}
        assert old._shared_columns() == []
        with old:
            plain = old.score_rows(rows)
    finally:
        stop(proc)
    scorer = load_config_text(tmp_path, LINEAR).build_scorer(0)
    local = scorer.score(scorer.batch(rows))
    for result in (served, plain, fell_back):
        assert int(result.unscored.sum()) == 0
        assert result.scores.tobytes() == local.scores.tobytes() and result.total.tobytes() == local.total.tobytes()
        assert result.reasons == {name: list(values) for name, values in local.reasons.items()}


def load_config_text(tmp_path: Path, text: str):
    path = tmp_path / "local.yaml"
    path.write_text(text)
    return load_config(path)
