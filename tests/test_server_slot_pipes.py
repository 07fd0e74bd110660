"""A killed slot's pipe descriptors are closed once, by the slot, before the slot thread builds the next child.

A CI run failed ``test_server_hostile.py``: after a request timed out and its slot was killed, the rebuilt slot
never came back. strace showed why: the old child's pipes were handed to asyncio/uvloop pipe transports, which
close their descriptor on the loop some time after ``close()`` (uvloop closes it twice); the slot had closed the same
descriptors at once, so the numbers were free, the slot thread's ``Popen`` got them for the new child's pipes, and the
transports' late close cut the new child off. These tests take the freed numbers on purpose, right after the kill,
and check that nothing closes them afterwards, under both event loops the server can run on. Also: a body the front
hands over in pieces (gathering writes, partial writes past the pipe's buffer) gets the answer of the whole body.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import time

import pytest

import yaml

from polyreward.config import parse_config
from polyreward.runners.server_routes import RouteSettings
from polyreward.runners.server_slots import SlotDied, SlotProcess

CONFIG = """
rewards:
  - {name: said_yes, type: "test_server_hostile:BacktracksWhenAsked"}
"""
HOSTILE = b'{"rows": [{"prompt": "p", "completion": "BACKTRACK 60", "answer": "x"}]}'
PLAIN = b'{"rows": [{"prompt": "p", "completion": "yes", "answer": "x"}]}'


@pytest.fixture(scope="module")
def spec():
    pytest.importorskip("test_server_hostile")  # the GIL-holding reward lives there
    return pickle.dumps({"config": parse_config(yaml.safe_load(CONFIG)), "workers": 0, "settings": RouteSettings()})


def grab(wanted: list[int]) -> list[int]:
    """New pipes until the ``wanted`` numbers are among them (or 64 descriptors): what a Popen on another thread
    would be given now."""
    taken: list[int] = []
    while len(taken) < 64:
        taken.extend(os.pipe())
        if set(wanted) <= set(taken):
            break
    return taken


def still_open(fds: list[int]) -> list[int]:
    alive = []
    for fd in fds:
        try:
            os.fstat(fd)
            alive.append(fd)
        except OSError:
            pass
    return alive


@pytest.mark.parametrize("run", [asyncio.run, pytest.param("uvloop", id="uvloop")], ids=["asyncio", "uvloop"])
def test_pipes_freed_by_a_kill_mid_request_are_never_closed_again(spec, run):
    if run == "uvloop":  # the server's loop when uvicorn finds uvloop (uvicorn[standard])
        run = pytest.importorskip("uvloop").run
    slot = SlotProcess(spec)
    slot.start()
    old = [slot.proc.stdin.fileno(), slot.proc.stdout.fileno()]

    async def scenario() -> tuple[list[int], list[int], type]:
        assert (await slot.request("/score", PLAIN))[0] == 200  # the pipes are in use, as in the server
        hostile = asyncio.ensure_future(slot.request("/score", HOSTILE))
        await asyncio.sleep(0.5)  # the child holds the GIL in the regex; the request waits on its pipe
        slot.kill()
        taken = grab(old)  # what the slot thread's next Popen would get, if the kill freed them
        try:
            await hostile
            outcome = type(None)
        except SlotDied as exc:
            outcome = type(exc)
        taken += grab(old)  # freed once the request saw the end, if not at the kill
        for _ in range(20):  # every callback the old child's pipes might still have queued
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        return taken, still_open(taken), outcome

    try:
        taken, alive, outcome = run(scenario())
    finally:
        slot.kill()
    try:
        assert set(old) <= set(taken), "the old pipe numbers were never freed"
        assert alive == taken, f"descriptors closed by someone else after the kill: {sorted(set(taken) - set(alive))}"
        assert outcome is SlotDied
    finally:
        for fd in taken:
            try:
                os.close(fd)
            except OSError:  # already closed by someone else: the assertion above says so
                pass


def test_a_slot_answers_after_many_kills_and_rebuilds_while_new_pipes_are_made(spec):
    """The server's cycle, many times on one SlotProcess: request, kill mid-request, rebuild, ask again."""
    uvloop = pytest.importorskip("uvloop")
    slot = SlotProcess(spec)
    slot.start()

    async def cycle() -> int:
        hostile = asyncio.ensure_future(slot.request("/score", HOSTILE))
        await asyncio.sleep(0.2)
        slot.kill()
        await asyncio.get_running_loop().run_in_executor(None, slot.start)  # the slot thread's rebuild
        try:
            await hostile
        except SlotDied:
            pass
        status, _ = await asyncio.wait_for(slot.request("/score", PLAIN), 30)
        return status

    try:
        started = time.perf_counter()
        statuses = [uvloop.run(cycle()) for _ in range(4)]
    finally:
        slot.kill()
    assert statuses == [200] * 4, statuses
    assert time.perf_counter() - started < 120


def test_a_body_handed_over_in_pieces_gets_the_answer_of_the_whole_body(spec):
    """The front writes the body as the pieces it arrived in (gathering writes): a few pieces, more pieces than one
    writev takes, and a body three times the pipe's buffer (partial writes, waits for the child to read) all get
    the answer of the body sent whole."""
    import json

    uvloop = pytest.importorskip("uvloop")
    rows = [{"prompt": "p", "completion": ("yes " if i % 3 else "no ") + "x" * 2000, "answer": "x"} for i in range(1600)]
    big = json.dumps({"rows": rows}).encode()
    assert len(big) > 3 * (1 << 20)
    slot = SlotProcess(spec)
    slot.start()

    async def asks() -> list[tuple[int, bytes]]:
        answers = []
        for body in (PLAIN, big):
            answers.append(await slot.request("/score", body))
            answers.append(await slot.request("/score", [body[:7], body[7:20], body[20:]]))
            answers.append(await slot.request("/score", [body[i:i + 3] for i in range(0, len(body), 3)][:700]
                                              + [body[2100:]]))
        return answers

    try:
        answers = uvloop.run(asks())
    finally:
        slot.kill()
    for whole, *pieces in (answers[:3], answers[3:]):
        assert whole[0] == 200
        for status, payload in pieces:
            strip = lambda raw: {k: v for k, v in json.loads(raw).items() if k != "elapsed_s"}  # noqa: E731
            assert status == 200 and strip(payload) == strip(whole[1])
