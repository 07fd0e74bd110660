"""Helpers shared by the reader's speed tests (test_import_light, test_pattern_cache, test_math_fast_paths,
test_reading_fast_paths): a child-process prelude that counts the regular-expression parses polyreward asks for, and a
way to forget every per-completion memory of the readers between two scorings."""

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
    from polyreward.verifiers import math_notation, unasserted

    for module in (commitment, hedging, hypothetical, unasserted, clauses, answer_extraction, verifier, math_forms, math_normalize,
                   math_notation):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    verifier._CHEAP_VERDICTS.clear()
