"""read_ahead: the next chunk is produced in a background thread while this one is scored, in order, bounded,
with the producer's exception raised in the caller at its item."""

from __future__ import annotations

import threading

import pytest

from polyreward.io import InputError
from polyreward.runners.read_ahead import read_ahead


def test_items_come_in_order_and_are_produced_off_the_calling_thread():
    threads = []

    def produce():
        for i in range(20):
            threads.append(threading.current_thread())
            yield i

    assert list(read_ahead(produce())) == list(range(20))
    assert threading.current_thread() not in threads


def test_the_producer_stays_at_most_depth_items_ahead():
    produced = []
    gate = threading.Event()

    def produce():
        for i in range(10):
            produced.append(i)
            yield i

    stream = read_ahead(produce(), depth=2)
    first = next(stream)
    gate.wait(0.5)  # give the producer every chance to run ahead
    assert first == 0 and len(produced) <= 1 + 2 + 1  # the item taken, two waiting, one blocked on the full queue
    assert list(stream) == list(range(1, 10))


def test_an_error_while_producing_is_raised_in_the_caller_at_its_item():
    def produce():
        yield 1
        yield 2
        raise InputError("rollouts.jsonl line 3: not JSON")

    stream = read_ahead(produce())
    assert next(stream) == 1 and next(stream) == 2
    with pytest.raises(InputError, match="line 3"):
        next(stream)


def test_closing_the_consumer_stops_the_producer():
    produced = []

    def produce():
        for i in range(10_000):
            produced.append(i)
            yield i

    stream = read_ahead(produce())
    assert next(stream) == 0
    stream.close()
    count = len(produced)
    assert count < 10 and len(produced) == count  # it stopped, and stays stopped


def test_depth_must_be_positive():
    with pytest.raises(ValueError, match="depth"):
        list(read_ahead(iter([]), depth=0))
