"""The start-up and per-row shortcuts of issue #35 give what the long way gives.

* ``import polyreward`` loads nothing but the package (each public name on first use), and a built-in reward type is
  found without scanning the metadata of every installed distribution;
* ``think_format`` scores a batch through its own loop: the same scores and reasons as the generic per-rollout loop
  of :class:`~polyreward.reward.RolloutReward`, for every shape of completion;
* the memoised readers (:mod:`polyreward.verifiers.memo`) return what the undecorated functions return, and keep
  long texts out of their caches.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.reward import RolloutReward
from polyreward.rewards.format import ThinkFormat
from polyreward.verifiers import math_forms, math_normalize, math_notation
from polyreward.verifiers.memo import memoized_text


def _fresh(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_polyreward_loads_only_the_package():
    seen = _fresh("import sys, json, polyreward\n"
                  "print(json.dumps(sorted(m for m in ('numpy', 'pydantic', 'yaml', 'polyreward.config') if m in sys.modules)))")
    assert seen == []


def test_public_names_still_resolve_and_list():
    import polyreward

    for name in polyreward.__all__:
        assert getattr(polyreward, name) is not None, name
    assert set(polyreward.__all__) <= set(dir(polyreward))
    assert polyreward.Config.__module__ == "polyreward.config"


def test_a_built_in_type_is_found_without_reading_entry_points():
    seen = _fresh("import sys, json\nfrom polyreward.registry import reward_class, combiner_class\n"
                  "reward_class('think_format'); reward_class('math_accuracy'); combiner_class('gdpo')\n"
                  "print(json.dumps('importlib.metadata' in sys.modules))")
    assert seen is False


COMPLETIONS = st.one_of(
    st.text(max_size=60),
    st.builds(lambda a, b, c: f"{a}<think>{b}</think>{c}", st.sampled_from(["", " ", "\n", "[", "x"]), st.text(max_size=30),
              st.sampled_from(["", "42", "<answer>7</answer>", "<answer> </answer>", "<think>", " tail"])),
    st.builds(lambda body: json.dumps([{"role": "assistant", "content": body}]), st.text(max_size=30)),
    st.builds(lambda body: "  " + json.dumps([{"role": "assistant", "content": body}]), st.text(max_size=30)),
    st.lists(st.fixed_dictionaries({"role": st.sampled_from(["assistant", "user"]), "content": st.text(max_size=20)}), max_size=3),
    st.sampled_from([None, math.nan, 3, b"<think>why</think>42", ["not", "messages"], {"content": "<think>a</think>b"}]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(COMPLETIONS, max_size=6), st.booleans(), st.booleans(), st.sampled_from([0, 2]))
def test_think_format_batch_loop_equals_the_per_rollout_loop(completions, prefilled, require_answer, minimum):
    reward = ThinkFormat(prefilled_think=prefilled, require_answer=require_answer, min_content_words=minimum)
    prompts = ["Solve 2x + 3 = 11 step by step"] * len(completions)
    fast = reward.evaluate(prompts, completions)
    generic = RolloutReward.evaluate(reward, prompts, completions)
    assert [str(s) for s in fast.scores] == [str(s) for s in generic.scores]
    assert fast.reasons == generic.reasons and fast.details == generic.details


READERS = [math_notation.read_through, math_normalize.normalize_answer, math_normalize.parse_numeral, math_forms.several_values]
ANSWERS = st.one_of(st.text(max_size=40), st.sampled_from([r"\frac{3}{4}", "1,000", r"42\text{ cm}", r"90^\circ", "0.75", "$18$",
                                                             r"\boxed{5}", "x = 5, x = 6", "41, 42", "2 3/4", "5 dozen"]))


@settings(max_examples=300, deadline=None)
@given(ANSWERS)
def test_memoised_readers_return_what_the_functions_return(text):
    for reader in READERS:
        first, again = reader(text), reader(text)
        assert first == reader.__wrapped__(text) and again == first, reader.__name__


def test_long_texts_and_keyword_calls_stay_out_of_the_cache():
    calls = []

    @memoized_text(max_chars=10, maxsize=4)
    def length(text: str, extra: int = 0) -> int:
        calls.append(text)
        return len(text) + extra

    assert length("short") == length("short") == 5 and calls == ["short"]
    assert length("x" * 11) == length("x" * 11) == 11 and len(calls) == 3
    assert length("short", extra=1) == 6 and len(calls) == 4
    for i in range(10):
        length(str(i))
    assert length.cache_info().currsize == 4


def test_think_format_without_the_guard_loads_no_reader(tmp_path):
    (tmp_path / "in.jsonl").write_text(json.dumps({"prompt": "p", "completion": "<think>a b c</think> 4", "qid": 1}) + "\n")
    (tmp_path / "cfg.yaml").write_text("rewards:\n  - {name: format, type: think_format}\n")
    code = ("import json, sys\nfrom polyreward.cli import main\ncode = main(['score', 'in.jsonl', '-c', 'cfg.yaml', '-o', 'out.jsonl', '-q'])\n"
            "print(json.dumps([code] + [m for m in ('polyreward.verifiers.reading', 'polyreward.verifiers.language') if m in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [0]
    assert json.loads((tmp_path / "out.jsonl").read_text())["format"] == 1.0
