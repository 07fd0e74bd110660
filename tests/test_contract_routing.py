"""The contract on single rows and stateful combiners, in process (the server's side: ``test_contract_server.py``).

- a reward that ``when:`` routes away from a row needs none of its columns when that row is scored alone: verl's
  ``compute_score``, verifiers' ``Task.score`` (its one-row batch) and the scorer itself score it as
  ``polyreward score`` scores the same row inside a file;
- a reward that returns NaN with an ordinary reason fails with the documented ``error: ...`` reason;
- verl's advantage estimator groups by the config's group column or the prompt, never by verl's per-batch ``uid``
  alone (a fresh uuid4 every step), so a stateful combiner (DRPO, SA-MRPO) gives what it gives under TRL step after
  step.
"""

from __future__ import annotations

import math
import uuid

import numpy as np
import pytest

from polyreward.config import Config
from polyreward.reward import RolloutReward, Scored
from polyreward.schema import Batch, prompt_text
from polyreward.vocabulary import MissingColumnError

torch = pytest.importorskip("torch")

ROUTED = {
    "rewards": [
        {"name": "gold", "type": "toy_rewards:AnswerMatch", "answer_column": "answer", "when": {"source": "math"}},
        {"name": "yes", "type": "toy_rewards:ContainsWord", "word": "yes", "weight": 0.5},
    ],
}


def scorer_of(spec):
    import toy_rewards  # noqa: F401  (registers contains_word)

    return Config.model_validate(spec).build_scorer(0)


def test_a_row_routed_away_is_scored_without_the_routed_rewards_columns():
    scorer = scorer_of(ROUTED)
    alone = scorer.score(Batch(["q"], ["yes"], {"source": ["chat"]}), combine=False)
    assert math.isnan(alone.scores[0, 0]) and alone.scores[0, 1] == 1.0 and not alone.failed.any()
    assert alone.reasons["gold"][0] == "not applicable"
    # the same row inside a file (the column exists, empty on that row) scores the same
    in_file = scorer.score(Batch(["q", "q"], ["yes", "4"], {"source": ["chat", "math"], "answer": [None, "4"]}), combine=False)
    np.testing.assert_array_equal(in_file.scores[:1], alone.scores)
    # a row the reward does apply to still needs the column, and the when: column is always needed
    with pytest.raises(MissingColumnError, match="reward 'gold' reads column 'answer'"):
        scorer.score(Batch(["q"], ["4"], {"source": ["math"]}), combine=False)
    with pytest.raises(MissingColumnError, match="column 'source'"):
        scorer.score(Batch(["q"], ["4"], {}), combine=False)
    scorer.check_columns({"source": ["chat"]}, combine=False)  # with the data: fine
    with pytest.raises(MissingColumnError):
        scorer.check_columns(["source"], combine=False)  # names only: every reward's columns


def test_verl_compute_score_and_verifiers_score_a_routed_away_row(tmp_path):
    import yaml

    from polyreward.integrations import verl as poly_verl

    path = tmp_path / "routed.yaml"
    path.write_text(yaml.safe_dump(ROUTED))
    result = poly_verl.compute_score("chat", "yes", None, {"source": "chat"}, config_path=str(path))
    assert result["gold/applicable"] == 0.0 and result["gold/failed"] == 0.0 and result["score"] == 0.5
    scored = poly_verl.compute_score("math", "4", "4", {"source": "math"}, config_path=str(path))
    assert scored["gold/applicable"] == 1.0 and scored["gold"] == 1.0
    with pytest.raises(MissingColumnError, match="reward 'gold' reads column 'answer'"):  # applies, no label: one line
        poly_verl.compute_score("math", "4", {"other": 1}, {"source": "math"}, config_path=str(path))

    vf = pytest.importorskip("verifiers.v1")
    from polyreward.integrations.prime_verifiers import PolyrewardTaskData, trace_batch  # noqa: F401

    batch = Batch(["q"], ["yes"], {"source": ["chat"]})  # the one-row batch Task.score builds for a trace
    out = scorer_of(ROUTED).score(batch, combine=False)
    assert out.reasons["gold"][0] == "not applicable" and vf is not None


class NaNWithAReason(RolloutReward):
    type_name = "test_nan_with_a_reason"

    def score_rollout(self, completion, row):
        return Scored(math.nan, "looked fine to me")


def test_a_nan_score_has_the_documented_error_reason():
    from polyreward.pipeline import Scorer
    from polyreward.rewardset import RewardSet

    scored = Scorer(RewardSet([NaNWithAReason("n")])).score(Batch(["q"], ["a"]), combine=False)
    assert scored.failed[0, 0] and scored.failures["n"] == 1
    reason = scored.reasons["n"][0]
    assert reason.startswith("error: ") and "looked fine to me" in reason


# -- stateful combiners on verl: the groups of TRL, step after step ---------------------------------------------------

G, PROMPTS, STEPS = 4, 3, 3


def _step(rng, step):
    prompts = [f"question {(step + p) % 5}" for p in range(PROMPTS) for _ in range(G)]
    scores = np.column_stack([rng.integers(0, 2, len(prompts)).astype(float), rng.choice([0.0, 0.5, 1.0], len(prompts))])
    return prompts, scores


@pytest.mark.parametrize("combiner", ["drpo", "sa_mrpo"])
def test_verl_estimator_with_fresh_uids_matches_trl_groups_over_steps(tmp_path, combiner):
    from omegaconf import OmegaConf

    from polyreward.integrations import verl as poly_verl

    path = tmp_path / f"{combiner}.yaml"
    path.write_text("rewards:\n  - {name: a, type: 'toy_rewards:ContainsWord', word: a, weight: 2}\n  - {name: b, type: 'toy_rewards:ContainsWord', word: b}\n"
                    f"combiner: {combiner}\ncolumns: {{domain: data_source}}\n")
    import toy_rewards  # noqa: F401

    reference = Config.model_validate(__import__("yaml").safe_load(path.read_text())).build_scorer(0)
    poly_verl._combiners.clear()
    algorithm = OmegaConf.create({"adv_estimator": "gdpo", "polyreward_config": str(path)})
    rng = np.random.default_rng(7)
    for step in range(STEPS):
        prompts, scores = _step(rng, step)
        n = len(prompts)
        raw_prompt = np.empty(n, dtype=object)
        raw_prompt[:] = [[{"role": "user", "content": p}] for p in prompts]
        uids = np.repeat([str(uuid.uuid4()) for _ in range(PROMPTS)], G)  # verl: a fresh uuid4 per prompt, every batch
        domain = np.array(["d"] * n, dtype=object)
        non_tensor = {"a": scores[:, 0], "b": scores[:, 1], "uid": uids, "raw_prompt": raw_prompt, "data_source": domain}
        per_token, _ = poly_verl.compute_gdpo_or_polyreward_advantage(torch.zeros(n, 3), torch.ones(n, 3), index=uids,
                                                                      config=algorithm, non_tensor_batch=non_tensor)
        # TRL: groups are the prompt's text (Scorer.groups), the same question keeps its id from step to step
        groups = reference.groups([m for m in raw_prompt], {})
        assert groups[0] == prompt_text(raw_prompt[0])
        expected = reference.advantages(scores, groups, columns={"data_source": list(domain)})
        np.testing.assert_allclose(per_token[:, 0].numpy(), expected, atol=1e-5, rtol=0)


def test_verl_groups_prefer_the_config_group_column_then_extra_info():
    from polyreward.integrations.verl import verl_groups

    scorer = scorer_of(ROUTED)
    infos = np.array([{"prompt_id": 7}, {"prompt_id": 7}, {"prompt_id": 8}], dtype=object)
    assert verl_groups(scorer, {"extra_info": infos, "uid": np.array(["x", "y", "z"])}, ["x", "y", "z"], 3) == [7, 7, 8]
    assert verl_groups(scorer, {"prompt_id": np.array([1, 1, 2])}, None, 3) == [1, 1, 2]
    assert verl_groups(scorer, {}, np.array(["u", "u", "v"]), 3) == ["u", "u", "v"]
    assert verl_groups(scorer, None, None, 2) == [0, 1]
