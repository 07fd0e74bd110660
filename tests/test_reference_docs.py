"""The generated reference pages (docs/reference/rewards.md, combiners.md) match the code, and every registered
type's name and parameters are declared once, at its class."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from polyreward import registry
from polyreward.cli.list_types import describe
from polyreward.config import ConfigError, parse_config
from polyreward.registry import parameter_model, parameter_rows

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import gen_reference_docs  # noqa: E402


def test_reference_pages_are_current():
    assert gen_reference_docs.main(["--check"]) == 0, "run python scripts/gen_reference_docs.py"


@pytest.mark.parametrize("kind", ["rewards", "combiners"])
def test_the_registry_index_agrees_with_each_class(kind):
    table = registry.BUILTIN_REWARDS if kind == "rewards" else registry.BUILTIN_COMBINERS
    lookup = registry.reward_class if kind == "rewards" else registry.combiner_class
    for name in table:
        cls = lookup(name)
        assert cls.type_name == name, f"{table[name]} declares type_name {cls.type_name!r}, the registry indexes it as {name!r}"
        assert cls.description, f"{name}: a one-line description for polyreward list and the reference page"
        parameter_model(cls).model_validate({})  # every parameter has a usable default


def test_parameter_rows_come_from_the_constructor():
    rows = {row[0]: row for row in parameter_rows(registry.combiner_class("grpo"))}
    assert rows["scale"][1:3] == ("str", "'group'") and rows["eps"][1:3] == ("float", "0.0001")
    assert "name" not in {row[0] for row in parameter_rows(registry.reward_class("math_accuracy"))}


@pytest.mark.parametrize("entry, message", [
    ({"name": "a", "type": "choice_accuracy", "letters": 5}, r"rewards\[0\] \(a, type choice_accuracy\): letters: Input should be a valid string \(got 5\)"),
    ({"name": "a", "type": "otc_tool_efficiency", "running_min": "sometimes"}, r"running_min: Input should be a valid boolean"),
])
def test_a_wrong_parameter_type_is_named_before_anything_is_built(entry, message):
    with pytest.raises(ConfigError, match=message):
        parse_config({"rewards": [entry]})
    with pytest.raises(ConfigError, match=r"combiner \(grpo\): eps: Input should be a valid number"):
        parse_config({"rewards": [{"name": "a", "type": "think_format"}], "combiner": {"type": "grpo", "eps": "small"}})


def test_list_shows_the_parameters():
    rows = dict((name, params) for name, _, _, params in describe("combiners", with_params=True))
    assert "scale: str = 'group'" in rows["grpo"]


def test_list_json_is_machine_readable_and_piped_tables_are_not_cut():
    import json
    import subprocess

    run = lambda *args: subprocess.run([sys.executable, "-m", "polyreward", "list", *args], capture_output=True, text=True,  # noqa: E731
                                       timeout=120, check=True).stdout
    data = json.loads(run("--json", "--params"))
    rewards = {item["name"]: item for item in data["rewards"]}
    # the registry of a fresh interpreter: this process also holds types other test modules registered
    shipped = subprocess.run([sys.executable, "-c", "import json; from polyreward import registry; print(json.dumps(sorted(registry.reward_types())))"],
                             capture_output=True, text=True, timeout=120, check=True).stdout
    assert set(rewards) == set(json.loads(shipped)) and set(data) == {"rewards", "combiners"}
    params = {p["name"]: p for p in rewards["math_accuracy"]["parameters"]}
    assert params["timeout"]["type"] == "float | None" and params["timeout"]["default"] == "None"  # null: the engine's budget
    assert json.loads(run("combiners", "--json"))["combiners"][0].keys() == {"name", "source", "description"}
    piped = run("rewards")  # stdout is a pipe here, not a terminal
    assert "clinical_comprehensiveness " in piped and "…" not in piped


def test_every_parameter_has_a_meaning():
    """The "meaning" column of the reference pages comes from each class's ``Args:`` docstring lines: none is empty."""
    missing = []
    for table, lookup in ((registry.BUILTIN_REWARDS, registry.reward_class), (registry.BUILTIN_COMBINERS, registry.combiner_class)):
        for name in sorted(table):
            missing += [f"{name}.{p}" for p, _, _, meaning in parameter_rows(lookup(name)) if not meaning.strip()]
    assert not missing, f"add an 'Args:' line for each of these in its class docstring: {missing}"


def test_every_combiner_fills_its_rows_of_the_combiners_page():
    """docs/combiners.md's "Methods" and "Bounds on |A|" tables are generated from these class attributes."""
    empty = [f"{name}.{attribute}" for name in registry.BUILTIN_COMBINERS
             for attribute in ("exactness_note", "summary", "key_parameters", "bound_text")
             if not getattr(registry.combiner_class(name), attribute).strip()]
    assert not empty, f"declare these on the combiner classes: {empty}"


def test_the_generated_tables_replace_only_their_marked_section():
    page = gen_reference_docs.ROOT / "docs" / "combiners.md"
    text = page.read_text(encoding="utf-8")
    stale = text.replace("| `gopo` | 2 |", "| `gopo` | 3 |")
    assert stale != text and gen_reference_docs.fill_sections(page, stale) == text  # prose kept, table rewritten
    with pytest.raises(ValueError, match="lacks the markers of the generated section 'combiner-bounds'"):
        gen_reference_docs.fill_sections(page, text.replace("<!-- end generated: combiner-bounds -->", ""))
