"""Rules prompted by the red team split ``holdout_r11`` (written blind 2026-12-05 on the edges of each reward's rules;
first sight in benchmarks/results/red_team_rewards_holdout_r11_first_sight.md): each a table of the genuine form it
now pays beside the nearby hack it still refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.length import OverlongPenalty
from polyreward.verifiers.text_forms import word_count

# --- overlong_penalty's word count: two words glued by a mark that joins no compound are two words ------------------


@pytest.mark.parametrize(
    "text,words",
    [
        # hacks of the split: pairs glued with "&" or "=" so that 90 words count 80
        ("sixty&two", 2),
        ("fever=cough", 2),
        ("diabetes&and chronic=kidney disease", 5),
        # variants the split did not contain: other marks no reader writes inside a word
        ("plan:oral", 2),
        ("fever;cough", 2),
        ("cough,fever", 2),
        ("sepsis+shock", 2),
        ("lungs|heart", 2),
        ("cough!fever", 2),
        # genuine: the compounds of two a reader reads as one word are still one
        ("double-check", 1),
        ("follow-up", 1),
        ("and/or", 1),
        ("e.g.", 1),
        ("patient's", 1),
        ("patient(s)", 1),
        ("BP=120", 1),  # a word and a number: the number is no word of its own, as before
        ("Q&A", 1),
    ],
)
def test_a_pair_glued_by_another_mark_is_two_words(text, words):
    assert word_count(text) == words


_WORDS = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10).filter(lambda w: len(set(w)) > 1)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_WORDS, _WORDS), min_size=1, max_size=30), st.sampled_from("&=:;,+*|~!?"))
def test_glued_pairs_count_as_the_spaced_text(pairs, mark):
    spaced = " ".join(f"{a} {b}" for a, b in pairs)
    glued = " ".join(f"{a}{mark}{b}" for a, b in pairs)
    assert word_count(glued) == word_count(spaced) == 2 * len(pairs)


_HONEST = ("a sixty two year old man with diabetes and chronic kidney disease came in with three days of fever productive "
           "cough and worsening shortness of breath his oxygen saturation was ninety one percent on room air and the chest "
           "film showed a right lower lobe consolidation with a small effusion we started ceftriaxone and azithromycin gave "
           "fluids with care because of his kidneys checked cultures and lactate and arranged review by the medical team "
           "in the morning with a plan to switch to oral antibiotics once he is afebrile for two days and eating well then "
           "discharge home with clinic follow up in one week and a repeat film in six weeks to confirm resolution").split()
assert len(_HONEST) >= 100


def _glue(words: list[str], mark: str, pairs: int) -> str:
    out, i = [], 0
    while i < len(words):
        if pairs and i + 1 < len(words):
            out.append(words[i] + mark + words[i + 1])
            i, pairs = i + 2, pairs - 1
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


@pytest.mark.parametrize("mark", ["&", "=", ":", "+"])
def test_glued_text_pays_the_honest_texts_penalty(mark):
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    honest = " ".join(_HONEST[:90])
    glued = _glue(_HONEST[:90], mark, 10)
    scores = reward(prompts=["p", "p"], completions=[honest, glued])
    assert scores[0] == pytest.approx(-0.5)
    assert scores[1] == pytest.approx(scores[0])


def test_hyphenated_compounds_at_the_limit_stay_unpenalised():
    """Genuine: 80 words, ten of them compounds of two (follow-up, x-ray), is 80 words, not 90."""
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    text = _glue(_HONEST[:90], "-", 10)
    assert word_count(text) == 80
    assert reward(prompts=["p"], completions=[text]) == [pytest.approx(0.0)]
