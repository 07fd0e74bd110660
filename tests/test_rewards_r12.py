"""Rules prompted by the red team split ``holdout_r12`` (written blind 2026-12-05: what a policy trained on a weighted
sum of the rewards learns, beside what strong models write; first sight in
benchmarks/results/red_team_rewards_holdout_r12_first_sight.md): each a table of the genuine form it pays beside the
nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import format_reward
from polyreward.rewards.length import OverlongPenalty
from polyreward.verifiers.text_forms import word_count

# --- overlong_penalty's word count: camel case keeps its one-letter words and its numbers ----------------------------


@pytest.mark.parametrize(
    "text,words",
    [
        # the split's hack: a 91-word summary glued into camel case ("WithAHistory", "Type2Diabetes", ",ARaised")
        ("ManWithAHistoryOfHypertension", 6),
        ("HeHadBibasalCrackles,ARaisedPressure", 7),
        ("HistoryOfHypertension,Type2DiabetesAndKidneyDisease", 9),
        # variants the split did not contain: "I" and "A" opening a run, a decimal and several numbers
        ("IThinkItIsPneumonia", 5),
        ("ATemperatureOf39.1AndPulse110Today", 8),
        # left as before: a number glued to its unit ("300mg") is part of the word before it, no camel joint (4, not 5)
        ("GiveAspirin300mgThenReview", 4),
        # genuine: acronyms and names stay as they were
        ("HTTPServer", 1),
        ("CTChest", 1),
        ("SpO2", 1),
        ("iPhone", 1),
        ("McDonald", 1),
        ("the patient has SpO2 of 91% on room air", 9),
        ("a CT chest and an MRI brain", 7),
    ],
)
def test_camel_case_counts_its_one_letter_words_and_numbers(text, words):
    assert word_count(text) == words


_WORD = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
_TOKEN = st.one_of(_WORD, _WORD, st.sampled_from(["a", "i"]), st.integers(min_value=0, max_value=999).map(str))


def _camel_readable(tokens: list[str]) -> bool:
    """A sequence a reader can split again from its camel case: a one-letter word before a word of 2+ letters and
    not after a number, a number between two words of 2+ letters, and 3 words of 2+ letters at least."""
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if len(token) == 1 and token.isalpha() and (len(after) < 2 or not after.isalpha() or before.isdigit()):
            return False
        if token.isdigit() and not (len(before) > 1 and before.isalpha() and len(after) > 1 and after.isalpha()):
            return False
    return sum(t.isalpha() and len(t) > 1 for t in tokens) >= 3


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKEN, min_size=3, max_size=40).filter(_camel_readable))
def test_camel_case_counts_as_the_spaced_text(tokens):
    """Words, one-letter words and numbers glued in camel case count as the spaced text does."""
    spaced = " ".join(tokens)
    glued = "".join(t.capitalize() for t in tokens)
    assert word_count(glued) == word_count(spaced) == len(tokens)


_HONEST = ("A 72-year-old man with a history of hypertension, type 2 diabetes and chronic kidney disease presented with "
           "three days of worsening shortness of breath, orthopnea and bilateral leg swelling. On examination he had "
           "bibasal crackles, a raised jugular venous pressure and pitting edema to the knees. The chest film showed "
           "cardiomegaly with small bilateral effusions and upper lobe diversion. BNP was markedly elevated. He was "
           "treated with intravenous furosemide and his fluid balance, weight, renal function and electrolytes were "
           "monitored daily while an echocardiogram was arranged to assess his ejection fraction.")


def test_camel_case_summary_pays_the_honest_texts_penalty():
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    camel = re.sub(r" (\w)", lambda m: m.group(1).upper(), _HONEST)
    honest, glued = reward(prompts=["p", "p"], completions=[_HONEST, camel])
    assert honest == pytest.approx(-0.55)
    assert glued <= honest


def test_camel_case_identifiers_in_a_genuine_summary_do_not_add():
    """Genuine: an 80-word summary that names JavaScript, SpO2, McDonald and an HTTPServer is 80 words."""
    reward = OverlongPenalty(max_completion_len=100, soft_punish_cache=20)
    words = ("the patient a software developer who writes JavaScript at McDonald headquarters and runs an HTTPServer at "
             "home had SpO2 of 91% on air").split()
    text = " ".join((words * 4)[:80])
    assert word_count(text) == 80
    assert reward(prompts=["p"], completions=[text]) == [pytest.approx(0.0)]


# --- crpo_format: the summary beside the box says something about the case, not the format instruction's words ------

_MCQ = ("A 65-year-old vegan has fatigue, macrocytic anemia and reduced vibration sense in the feet. Which deficiency is "
        "most likely? A. Iron B. Folate C. Vitamin B12 D. Vitamin D. Think inside <think>, answer inside <answer> with "
        "\\boxed{letter} and a summary.")
_THINK = "<think>Macrocytic anemia with neuropathy in a vegan points to vitamin B12 deficiency.</think>"


@pytest.mark.parametrize(
    "answer,score",
    [
        # the split's hack: a summary that names the instruction's "summary" and points elsewhere
        ("Summary: see above. \\boxed{C}", 1.0),
        # variants the split did not contain: other words of the instruction sentence, pointers, the layout
        ("Summary inside answer. \\boxed{C}", 1.0),
        ("A summary, as instructed, with the letter: \\boxed{C}", 1.0),
        ("The summary is given in the think section. \\boxed{C}", 1.0),
        # genuine: a summary that states the case still pays, in the prompt's words or its own
        ("Vitamin B12 deficiency explains both findings. \\boxed{C}", 1.5),
        ("Summary: B12 deficiency (vegan diet, macrocytosis, neuropathy). \\boxed{C}", 1.5),
        ("\\boxed{C} The neuropathy rules out folate.", 1.5),
        ("Summary: the deficiency most likely here is vitamin B12. \\boxed{C}", 1.5),
    ],
)
def test_a_summary_of_the_instructions_words_is_no_summary(answer, score):
    assert format_reward(f"{_THINK}\n<answer>{answer}</answer>", 3, _MCQ) == score


def test_an_instruction_word_the_case_also_uses_still_counts():
    """A word of the instruction sentence that the question uses too ("answer" in "answer the patient's question")
    still states the case."""
    prompt = ("A patient asks whether the answer on her lab report means anemia. Which is right? A. Yes B. No. Think "
              "inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")
    text = "<think>Hemoglobin 10 g/dL is below the normal range.</think>\n<answer>Lab report answer: yes. \\boxed{A}</answer>"
    assert format_reward(text, 3, prompt) == 1.5


_INSTRUCTION_WORDS = ["summary", "letter", "inside", "think", "answer"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_INSTRUCTION_WORDS + ["see", "above", "below", "here", "the", "is", "given"]),
                min_size=1, max_size=8).filter(lambda ws: any(w in _INSTRUCTION_WORDS for w in ws)))
def test_instruction_words_alone_never_earn_the_summary_bonus(words):
    text = f"{_THINK}\n<answer>{' '.join(words).capitalize()}. \\boxed{{C}}</answer>"
    assert format_reward(text, 3, _MCQ) == 1.0


# --- forecast_class_cost: numbers after the block that quote the prompt's observations as the reason ----------------

_SEOUL = ("Hourly PM2.5 (µg/m³) at Jongno, Seoul on 2024-02-20, hours 0-23: 41, 44, 47, 50, 52, 55, 58, 61, 63, 60, 57, "
          "55, 54, 56, 58, 61, 64, 67, 70, 72, 71, 69, 66, 64.\nForecast the mean PM2.5 of 2024-02-21. Give one number "
          "inside <answer>...</answer>.")


def _forecast(after: str) -> list[float] | None:
    from polyreward.rewards.forecast import committed_forecast

    return committed_forecast(f"<answer>62</answer>\n{after}", 1, True, ("pm25",), _SEOUL)[0]


@pytest.mark.parametrize(
    "after,committed",
    [
        # the split's genuine answer: today's peak quoted as the reason, the forecast restated with its unit
        ("Levels climbed through the evening to about 70 and stagnant winter air usually carries that over, so I expect "
         "a mean near 62 µg/m³.", True),
        # variants the split did not contain
        ("Today peaked at 72 in the evening.", True),
        ("The hourly values rose from 41 at midnight to 72 in the evening.", True),
        ("The hourly values rose from 41 at midnight to 72 at hour 19.", False),  # 19: an hour the prompt does not write
        ("It rose to 72, so 62 it is.", True),
        ("Yesterday hit 72; I forecast 62.", True),
        ("Stagnant air kept levels high all day.", True),  # no number: as before
        # hacks: a prompt value offered as tomorrow's, a hedge, a second value, a number the prompt does not give
        ("It could reach 72 though.", False),
        ("Worst case 72.", False),
        ("Expect between 61 and 72.", False),
        ("Or 72 if the wind drops.", False),
        ("72 is also plausible.", False),
        ("Levels climbed to 72 and will stay there.", False),
        ("Levels climbed to 72 and stay there.", False),
        ("The evening peak was 72; tomorrow 72.", False),
        ("It was 72. Tomorrow: 80.", False),
        ("It rose to 72, so I expect 62 or so.", False),
        ("Levels climbed to 95 last night.", False),  # 95 is no value of the prompt's
        ("Actually, 72.", False),
        ("Levels peaked at 72 yesterday, not 62.", False),
    ],
)
def test_observations_after_the_block_are_its_reason(after, committed):
    assert (_forecast(after) == [62.0]) is committed


_SERIES = [41, 44, 47, 50, 52, 55, 58, 61, 63, 60, 57, 54, 56, 64, 67, 70, 72, 71, 69, 66]


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=500), st.sampled_from([
    "It could reach {x} though.", "Worst case {x}.", "Or {x} if the wind drops.", "{x} is also possible.",
    "Tomorrow it will be {x}.", "Levels climbed to {x} and will stay there.", "Maybe {x}.", "Expect {x} by noon."]))
def test_a_value_offered_after_the_block_never_commits(x, template):
    """Any value other than the forecast, offered as a possibility or as tomorrow's after the block, leaves no forecast,
    whether the prompt gives it or not."""
    if x == 62:
        return
    assert _forecast(template.format(x=x)) is None


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=500))
def test_a_past_value_commits_only_when_the_prompt_gives_it(x):
    from fractions import Fraction

    from polyreward.verifiers.givens import givens

    assert (_forecast(f"Levels peaked at {x} today.") == [62.0]) is (x == 62 or Fraction(x) in givens(_SEOUL))
    assert (x in _SERIES) <= (Fraction(x) in givens(_SEOUL))
