"""Helpers shared by the reader's speed tests (test_import_light, test_pattern_cache, test_math_fast_paths,
test_reading_fast_paths, test_reading_gates, test_scoring_fast_paths, test_stop51_gates): a child-process prelude that
counts the regular-expression parses polyreward asks for, a way to forget every per-completion memory of the readers
between two scorings, and the batch the whole-batch tests score with and without a fast path."""

from __future__ import annotations

# Python source for ``python -c``: after it runs, ``parses`` lists each pattern source a polyreward module had ``re``
# parse (the standard library compiles its own, not counted); ``plain_parse`` is the parser to put back.
PARSE_COUNTER = """
import json, sys
from re import _parser
parses = []
plain_parse = _parser.parse


def parse(*args):
    caller = sys._getframe(1)
    while caller.f_globals.get("__name__", "").startswith("re."):
        caller = caller.f_back
    if caller.f_globals.get("__name__", "").startswith("polyreward."):
        parses.append(args[0])
    return plain_parse(*args)


_parser.parse = parse
"""


def clear_reader_memories() -> None:
    """Forget what the readers remember of earlier completions (their ``lru_cache``s and the cheap verdicts)."""
    from polyreward.verifiers import answer_extraction, clauses, commitment, hedging, hypothetical, math_forms, math_normalize
    from polyreward.verifiers import math as verifier
    from polyreward.verifiers import math_answers, math_notation, number_keys, number_locale, reading, unasserted

    for module in (commitment, hedging, hypothetical, unasserted, clauses, answer_extraction, verifier, math_forms, math_normalize,
                   math_notation, number_locale, reading, number_keys, math_answers):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    verifier._CHEAP_VERDICTS.clear()


# The seeds the whole-batch speed tests (test_math_fast_paths 7, test_reading_fast_paths and test_scoring_fast_paths 11,
# test_stop51_gates 12, test_reading_gates 23) drew their fresh rows with, each test its own 300 rows until they shared
# one default-path scoring (tests/conftest.py ``default_path_verdicts``): each now compares every seed's rows.
SPEED_TEST_SEEDS = (7, 11, 12, 23)


def fresh_and_red_team_batch(seed: int, *more_seeds: int) -> tuple[list[str], list[str], list[str]]:
    """(completions, golds, prompts): 300 rows of the fresh-row benchmark for each seed in turn (no answer sentence
    repeats within a seed) and then every red-team completion, the batch the speed tests score with and without a fast
    path."""
    import json
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parent
    sys.path.insert(0, str(tests.parent / "benchmarks"))
    from math_fresh_rows import fresh_rows

    rows = [row for each in (seed, *more_seeds) for row in fresh_rows(300, seed=each)]
    red = [json.loads(line) for line in (tests / "data" / "red_team.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    red = [r for r in red if isinstance(r.get("completion"), str) and isinstance(r.get("gold"), str)]
    completions = [r["completion"] for r in rows] + [r["completion"] for r in red]
    golds = [r["answer"] for r in rows] + [r["gold"] for r in red]
    prompts = [r["prompt"] for r in rows] + [r.get("prompt") or "" for r in red]
    return completions, golds, prompts


def fresh_verdicts(completions: list[str], golds: list[str], prompts: list[str]) -> list[str]:
    """The math verifier's verdicts on the batch (as text), every reader memory forgotten first."""
    from polyreward.verifiers import math as verifier

    clear_reader_memories()
    return [repr(v) for v in verifier.verify_batch(completions, golds, prompts=prompts, work_avoidance=True)]
