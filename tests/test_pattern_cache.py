"""The pattern store (``verifiers/pattern_cache.py``): the readers' module-level patterns and prefilters rebuilt from
a store written by an earlier run are equal to a fresh compile and derivation; a store from elsewhere is ignored;
nothing is written where Python writes no bytecode; patterns compiled per call are not kept."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from reader_probes import PARSE_COUNTER

READERS = ("polynomial", "answer_extraction", "boxes", "commitment", "hedging", "clauses", "reading", "unasserted", "hypothetical",
           "math_normalize", "work_avoidance", "math_notation", "text_forms", "math_size", "math_canonical",
           "math_forms", "math_relations", "math", "choice", "options", "option_checks", "closing_remarks", "units", "withdrawal_words", "denial", "language", "label_sets",
           "footnotes", "negation_words", "turns", "choice_forms", "answer_forms", "later_values", "sections", "asked_quantity",
           "number_keys", "option_letters", "alternative_branches", "math_answers", "verdict_rereadings", "hidden_text")

CHECK = PARSE_COUNTER + """
import importlib, re
modules = [importlib.import_module("polyreward.verifiers." + name) for name in sys.argv[1].split()]
_parser.parse = plain_parse
from polyreward.verifiers import pattern_cache
from polyreward.verifiers.regex_prefilter import Prefiltered, _derived
patterns = differ = prefilters = 0
for module in modules:
    for value in vars(module).values():
        compiled = value.compiled if isinstance(value, Prefiltered) else value
        if not isinstance(compiled, re.Pattern):
            continue
        patterns += 1
        fresh = re.compile(compiled.pattern, compiled.flags)
        differ += fresh != compiled or fresh.groupindex != compiled.groupindex
        if isinstance(value, Prefiltered):
            prefilters += 1
            differ += _derived(compiled) != (value.ignore_case, value.conjuncts)
print(json.dumps({"patterns": patterns, "prefilters": prefilters, "differ": differ, "parses": len(parses),
                  "used": len(pattern_cache._used), "added": pattern_cache._added, "store": pattern_cache.store_path()}))
"""


def _run(tmp_path, write: bool = True) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run([sys.executable, "-c", CHECK, " ".join(READERS)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_reader_patterns_from_a_warm_store_equal_a_fresh_compile_and_parse_nothing(tmp_path):
    cold = _run(tmp_path)
    assert cold["added"] and cold["differ"] == 0 and cold["parses"] > 200
    assert os.path.exists(cold["store"]) and cold["store"].startswith(str(tmp_path))
    warm = _run(tmp_path)
    assert warm["patterns"] == cold["patterns"] > 200 and warm["prefilters"] == cold["prefilters"] > 40
    assert warm["differ"] == 0  # every pattern equal (flags, source, program) and every prefilter's sets equal
    assert warm["added"] is False and warm["used"] >= warm["patterns"]
    assert warm["parses"] == 0  # the warm import parses no regular expression (start-up; see docs/benchmarks.md)


def test_a_store_from_elsewhere_is_ignored_and_replaced(tmp_path):
    store = _run(tmp_path)["store"]
    with open(store, "wb") as out:
        out.write(b"\x00not a marshal file")
    corrupt = _run(tmp_path)
    assert corrupt["differ"] == 0 and corrupt["added"] and corrupt["parses"] > 200
    import marshal

    with open(store, "rb") as source:
        header, entries = marshal.loads(source.read())
    with open(store, "wb") as out:  # another Python's store: its programs are not read
        marshal.dump((header[:2] + ("3.0.0 another python",) + header[3:], entries), out)
    foreign = _run(tmp_path)
    assert foreign["differ"] == 0 and foreign["parses"] > 200


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path):
    result = _run(tmp_path, write=False)
    assert result["differ"] == 0 and result["added"]
    assert not os.path.exists(result["store"])


def _module_body(folder, name: str, line: str):
    """A real module whose body runs ``line`` with ``re`` the pattern store's (as a reader module imports it)."""
    import importlib.util

    path = folder / f"{name}.py"
    path.write_text(f"from polyreward.verifiers.pattern_cache import cached_re as re\n{line}\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_only_module_bodies_are_kept_and_a_bad_entry_is_compiled_the_usual_way(monkeypatch, tmp_path):
    from polyreward.verifiers import pattern_cache

    monkeypatch.setattr(pattern_cache, "_entries", {})
    monkeypatch.setattr(pattern_cache, "_used", set())
    monkeypatch.setattr(pattern_cache, "_added", False)

    def per_call(word: str) -> re.Pattern:
        return pattern_cache.cached_re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)

    assert per_call("gold") == re.compile(r"\bgold\b", re.IGNORECASE)
    assert pattern_cache._entries == {}  # built from a call's arguments: never kept
    kept = _module_body(tmp_path, "kept_patterns", "KEPT = re.compile(r'(?P<word>n[o0]t)\\s+(\\d+)', re.I)").KEPT
    key = ("re", r"(?P<word>n[o0]t)\s+(\d+)", int(re.I))
    assert key in pattern_cache._entries and pattern_cache._added
    assert kept == re.compile(r"(?P<word>n[o0]t)\s+(\d+)", re.I)
    source, flags, program, groups, groupindex, indexgroup = pattern_cache._entries[key]
    pattern_cache._entries[key] = (source, flags, [255] * len(program), groups, groupindex, indexgroup)  # not a program
    again = _module_body(tmp_path, "kept_again", "AGAIN = re.compile(r'(?P<word>n[o0]t)\\s+(\\d+)', re.I)").AGAIN
    assert again == kept and again.groupindex == {"word": 1}
    derived = []
    for _ in range(2):
        value = pattern_cache.remembered("a namespace", "x", 0, lambda: derived.append(1) or (True, (frozenset({"x"}),)))
        assert value == (True, (frozenset({"x"}),))
    assert derived == [1]
