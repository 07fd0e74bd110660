"""``--set KEY.PATH=VALUE`` on every command that reads a config: applied to the YAML, then validated like the file.

One parser (``parse_key_values``) and one walker (``apply_overrides``) serve score, advantages, report, serve and train;
a bad override is one line naming the key, exit 2, before any work starts.
"""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.config import ConfigError, apply_overrides, load_config
from test_cli_score import CONFIG, polyreward, rollouts

BASE = yaml.safe_load(CONFIG)


@pytest.mark.parametrize("items, check", [
    (["rewards.0.weight=0.5"], lambda c: c.rewards[0].weight == 0.5),
    (["rewards.-1.weight=3"], lambda c: c.rewards[1].weight == 3.0),
    (["rewards.1.answer_column=label"], lambda c: c.rewards[1].params["answer_column"] == "label"),
    (["combiner.type=gdpo", "combiner.eps=1e-6"], lambda c: (c.combiner.type, c.combiner.params) == ("gdpo", {"eps": 1e-6})),
    (["combiner=grpo"], lambda c: c.combiner.type == "grpo"),
    (["engine.workers=0", "engine.timeout=2.5"], lambda c: (c.engine.workers, c.engine.timeout) == (0, 2.5)),
    (["columns.group=question"], lambda c: c.columns.group == "question"),
    (["on_reward_error=raise"], lambda c: c.on_reward_error == "raise"),
    (["rewards.0.weight=1", "rewards.0.weight=2"], lambda c: c.rewards[0].weight == 2.0),  # the last one wins
    (["rewards=[{name: only, type: 'toy_rewards:ContainsWord'}]"], lambda c: [r.name for r in c.rewards] == ["only"]),
])
def test_overrides_that_take_effect(tmp_path, items, check):
    path = tmp_path / "cfg.yaml"
    path.write_text(CONFIG)
    assert check(load_config(path, items))
    assert load_config(path).rewards[0].weight == 2.0  # the file itself is untouched


@pytest.mark.parametrize("items, message", [
    (["rewards.2.weight=1"], "--set rewards.2.weight: rewards is a list of 2; '2' is not an index of it (0 .. 1)"),
    (["rewards.first.weight=1"], "'first' is not an index of it"),
    (["rewards.0.weight=heavy"], "with --set rewards.0.weight=heavy: rewards[0].weight: Input should be a valid number"),
    (["rewards.0.weight=.nan"], "rewards[0].weight: Value error, weight must be finite"),
    (["rewards.0.wieght=1"], "rewards[0] (has_yes): unknown key(s) ['wieght'] for type toy_rewards:ContainsWord"),
    (["rewards.0.type=nosuch"], "rewards[0].type: unknown reward type 'nosuch'"),
    (["on_reward_error=ignore"], "on_reward_error: Input should be 'nan' or 'raise'"),
    (["colour=red"], "colour: unknown key; allowed: columns, combiner, engine, on_reward_error, rewards, train"),
    (["engine.speed=9"], "engine.speed: unknown key; allowed: memory_limit_mb, timeout, workers"),
    (["on_reward_error.x=1"], "--set on_reward_error.x: on_reward_error is 'nan', not a mapping or a list, so it has no key 'x'"),
    (["rewards"], "--set 'rewards': expected KEY=VALUE"),
    (["rewards.0.weight=[1"], "the value is not valid YAML"),
])
def test_bad_overrides_name_the_key(tmp_path, items, message):
    path = tmp_path / "cfg.yaml"
    path.write_text(CONFIG + "on_reward_error: nan\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, items)
    assert message in str(info.value)


def test_train_section_shorthand_only_for_non_top_level_keys():
    data = {"rewards": [{"name": "a", "type": "format"}], "train": {"model": "m"}}
    out = apply_overrides(data, ["device=cpu", "rewards.0.weight=2", "train.seed=3"], section="train")
    assert out["train"] == {"model": "m", "device": "cpu", "seed": 3} and out["rewards"][0]["weight"] == 2
    assert data["train"] == {"model": "m"}  # the input mapping is not changed


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, width=64), st.integers(0, 1))
def test_any_finite_weight_round_trips(weight, index):
    out = apply_overrides(BASE, [f"rewards.{index}.weight={weight!r}"])
    assert out["rewards"][index]["weight"] == weight and out["rewards"][1 - index] == BASE["rewards"][1 - index]


def test_every_config_command_takes_set(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rollouts(16)))
    polyreward("score", src, "-c", cfg, "-o", tmp_path / "s.jsonl", "-q", "--set", "rewards.0.weight=0.5")
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert rows[0]["reward"] == pytest.approx(0.5 * rows[0]["has_yes"] + rows[0]["exact"])  # weight 0.5, not the file's 2

    polyreward("advantages", tmp_path / "s.jsonl", "--config", cfg, "-o", tmp_path / "a.jsonl", "--set", "combiner=grpo",
               "--set", "rewards.0.weight=0")
    advantages = [json.loads(line)["advantage"] for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    polyreward("advantages", tmp_path / "s.jsonl", "--rewards", "exact", "--combiner", "grpo", "--group-col", "qid", "-o", tmp_path / "b.jsonl")
    alone = [json.loads(line)["advantage"] for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert advantages == pytest.approx(alone)  # weight 0 on has_yes: GRPO of exact alone

    for command in (["score", src, "-o", tmp_path / "x.jsonl"], ["advantages", tmp_path / "s.jsonl", "-o", tmp_path / "x.jsonl"],
                    ["report", tmp_path / "s.jsonl", "-o", tmp_path / "rep"], ["serve", "--port", "0"]):
        result = polyreward(*command, "--config", cfg, "--set", "rewards.9.weight=1", check=False)
        assert result.returncode == 2 and "--set rewards.9.weight: rewards is a list of 2" in result.stderr, command
        assert not (tmp_path / "x.jsonl").exists() and not (tmp_path / "rep").exists()
    result = polyreward("advantages", tmp_path / "s.jsonl", "-o", tmp_path / "x.jsonl", "--set", "combiner=grpo", check=False)
    assert result.returncode == 2 and "--set changes a config: give it with --config" in result.stderr


# ------------------------------------------------------------------ the docs' --set examples, as written
ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
SHIPPED_CONFIGS = sorted(p for p in (ROOT / "examples").rglob("*.yaml") if "rewards:" in p.read_text(encoding="utf-8"))


def _doc_set_commands() -> list[tuple[str, list[str], str | None]]:
    """(page, argv, expected error line or None) for each ``polyreward ... --set`` line of a bash block in README.md and
    docs/*.md; a ``# error: ...`` line right after a command is the error it must print."""
    import shlex

    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        lines, in_bash = page.read_text(encoding="utf-8").splitlines(), False
        for number, line in enumerate(lines):
            if line.startswith("```"):
                in_bash = line.strip() in ("```bash", "```sh", "```console")
                continue
            if not in_bash or not line.startswith("polyreward ") or "--set" not in line:
                continue
            command = line.split("  #", 1)[0].strip()
            after = lines[number + 1] if number + 1 < len(lines) else ""
            expected = after.removeprefix("# ").strip() if after.startswith("# error:") else None
            found.append((f"{page.relative_to(ROOT)}:{number + 1}", shlex.split(command)[1:], expected))
    return found


DOC_COMMANDS = _doc_set_commands()


def test_the_docs_have_set_examples_to_check():
    pages = {where.split(":")[0] for where, _, _ in DOC_COMMANDS}
    assert {"docs/ecosystem.md", "README.md", "docs/trainer.md"} <= pages
    assert any("combiner.type=grpo" in argv for _, argv, _ in DOC_COMMANDS)


@pytest.mark.parametrize("where, argv, expected", DOC_COMMANDS, ids=[w for w, _, _ in DOC_COMMANDS])
def test_each_docs_set_example_works_as_written(tmp_path, where, argv, expected):
    """score/advantages examples run for real (their -o redirected into tmp); train examples are validated, config
    and dataset included, as `polyreward train` does before the model loads."""
    from polyreward.cli.train import _check_before_work

    command, overrides = argv[0], [argv[i + 1] for i, arg in enumerate(argv) if arg == "--set"]
    if command == "train":
        config = load_config(ROOT / argv[1], overrides, section="train")
        _check_before_work(config, None)
        return
    if command not in ("score", "advantages"):  # other commands (probe, report, serve): the overrides must validate
        flagged = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg in ("-c", "--config")]
        config = flagged[0] if flagged else next(arg for arg in argv[1:] if arg.endswith((".yaml", ".yml")))
        load_config(ROOT / config, overrides)
        return
    argv = [str(tmp_path / "out.jsonl") if i and argv[i - 1] in ("-o", "--output") else arg for i, arg in enumerate(argv)]
    result = polyreward(*argv, "-q", check=False, cwd=ROOT)
    if expected is None:
        assert result.returncode == 0, f"{where}: {result.stderr}"
        assert (tmp_path / "out.jsonl").exists()
    else:
        assert result.returncode == 2 and result.stderr.strip() == expected, f"{where}: {result.stderr}"


@pytest.mark.parametrize("config", SHIPPED_CONFIGS, ids=[str(p.relative_to(ROOT)) for p in SHIPPED_CONFIGS])
def test_combiner_keys_can_be_set_on_every_shipped_config(config):
    """`combiner: gdpo` (a string) is short for {type: gdpo}: combiner.type / combiner.eps apply to either spelling."""
    section = "train" if "train:" in config.read_text(encoding="utf-8") else None
    original = load_config(config, section=section)
    if original.combiner is not None and set(original.combiner.params) - {"eps"}:
        # its own parameters (PAPO's lam) are not GRPO's: swapping the type alone is refused, naming them
        with pytest.raises(ConfigError, match="unknown key"):
            load_config(config, ["combiner.type=grpo"], section=section)
    else:
        swapped = load_config(config, ["combiner.type=grpo"], section=section)
        assert swapped.combiner.type == "grpo"
    if original.combiner is not None and original.combiner.type in ("grpo", "gdpo"):  # both take eps
        tuned = load_config(config, ["combiner.eps=0.001"], section=section)
        assert (tuned.combiner.type, tuned.combiner.params.get("eps")) == (original.combiner.type, 0.001)
