"""Rules prompted by the red team split ``holdout_r32`` (written blind 2026-12-06 on forecasts, CRPO answers and the
shape rewards under a policy's pressure; first sight in
benchmarks/results/red_team_rewards_holdout_r32_first_sight.md): each a table of the genuine form it now pays beside
the nearby hack it refuses, with variants the split did not contain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards import think_work
from polyreward.rewards.format import ThinkFormat
from polyreward.rewards.tool_calls import ToolRLFormat

B = "\\boxed"
DIVISORS = "How many positive divisors does 36 have? Put the final answer in \\boxed{}."
SOLVE = "Solve 3x - 7 = 11. Put the final answer in \\boxed{}."


def think_score(think: str, after: str, prompt: str) -> float:
    reward = ThinkFormat(min_content_words=3)
    return reward.evaluate([prompt], [f"<think>{think}</think>\n{after}"]).scores[0]


# --- a think that repeats one sentence is padding ------------------------------------------------------------------
@pytest.mark.parametrize(
    "think,paid",
    [
        # the split's hack: one sentence eight times; three times, and with a changed case and spacing
        ("Count the divisors of the number. " * 8, False),
        ("Count the divisors of the number. " * 3, False),
        ("Count the divisors of the number.\nCOUNT  the divisors of the number!\ncount the divisors of the number?", False),
        # the copies are most of the body: one other sentence does not hide them
        ("Count the divisors of the number. " * 4 + "Factor thirty-six first.", False),
        # genuine: a derivation that says "Wait." twice, a sentence said twice, the reference's own think
        ("Divisors of 36: 1, 2, 3, 4, 6, 9, 12, 18, 36. Wait. Did I miss 8? Wait. 36 / 8 is not whole. So nine.", True),
        ("Factor 36 as 2^2 * 3^2. Factor 36 as 2^2 * 3^2. Multiply the exponents plus one: 3 * 3 = 9.", True),
        ("Factor thirty-six as two squared times three squared; each exponent plus one multiplied gives nine.", True),
    ],
)
def test_think_repeating_one_sentence_is_refused(think, paid):
    assert think_score(think, f"There are {B}{{9}} divisors.", DIVISORS) == (1.0 if paid else 0.0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["add seven", "divide by three", "x is six", "check it", "so eighteen"]), min_size=1,
                max_size=5, unique=True), st.integers(min_value=3, max_value=9))
def test_repeats_one_sentence_is_one_sentence_as_most_of_the_body(others, copies):
    sentence = "subtract seven from eleven"
    body = ". ".join([sentence] * copies + others) + "."
    # the sentence written `copies` (>= 3) times is padding exactly when the copies are at least half the sentences
    # (the others are distinct sentences, none of them the repeated one)
    assert think_work.repeats_one_sentence(body) == (copies * 2 >= copies + len(others))
    # a body of distinct sentences repeats nothing
    assert not think_work.repeats_one_sentence(". ".join(others) + ".")


# --- a think that only copies another block relates nothing ---------------------------------------------------------
TOOL_PROMPT = (
    "You are a helpful assistant that can call functions. Available functions (JSON):\n[{\"name\": \"convert_currency\", "
    "\"parameters\": {\"type\": \"dict\", \"properties\": {\"amount\": {\"type\": \"number\"}, \"from_currency\": "
    "{\"type\": \"string\"}, \"to_currency\": {\"type\": \"string\"}}, \"required\": [\"amount\", \"from_currency\", "
    "\"to_currency\"]}}]\nReason inside <think>...</think>, then write the calls inside <tool_call>...</tool_call>, "
    "one JSON object per line.\nHow much is 250 euros in Japanese yen?")
CALL = '{"name": "convert_currency", "parameters": {"amount": 250, "from_currency": "EUR", "to_currency": "JPY"}}'


@pytest.mark.parametrize(
    "think,paid",
    [
        (CALL, False),  # the split's hack: the call's JSON as the think
        (CALL.replace(", ", ",\n  "), False),  # pretty-printed
        ('"amount": 250, "from_currency": "EUR", "to_currency": "JPY"', False),  # the arguments only
        # genuine: the values passed on with words of the writer's own
        ("The user wants 250 euros in yen, so one convert_currency call from EUR to JPY answers it.", True),
        ("Amount 250, source EUR, target JPY: convert_currency takes exactly those three arguments.", True),
    ],
)
def test_tool_think_copying_the_call_is_refused(think, paid):
    reward = ToolRLFormat(min_content_words=3)
    gold = f"<tool_call>\n{CALL}\n</tool_call>"
    text = f"<think>{think}</think>\n<tool_call>\n{CALL}\n</tool_call>"
    assert reward.evaluate([TOOL_PROMPT], [text], answer=[gold]).scores[0] == (1.0 if paid else 0.0)


@pytest.mark.parametrize(
    "think,paid",
    [
        ("The sale price is 34 dollars.", False),  # a think_format think that is the answer sentence again
        ("Fifteen percent of forty dollars is six, so the sale price is 34 dollars.", True),
    ],
)
def test_think_copying_the_answer_is_refused(think, paid):
    prompt = "A shirt costs $40 and is discounted by 15%. What is the sale price? Put the final answer in \\boxed{}."
    assert think_score(think, f"The sale price is {B}{{34}} dollars.", prompt) == (1.0 if paid else 0.0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("alpha beta gamma delta 250 eur jpy".split()), min_size=1, max_size=8),
       st.integers(min_value=0, max_value=8), st.integers(min_value=0, max_value=8))
def test_copies_a_block_is_a_run_of_the_blocks_words(words, start, length):
    block = " ".join(words)
    run = words[start:start + length]
    # any run of the block's words, in order, is a copy; the same words with a word of its own added are not
    assert think_work.copies_a_block(" ".join(run), [block]) == bool(run)
    assert not think_work.copies_a_block(" ".join(run + ["sigma"]), [block])


# --- a think that states only the answer, spelled out and with the writer's certainty -------------------------------
@pytest.mark.parametrize(
    "think,paid",
    [
        ("The answer is nine. Definitely nine, I am certain of it.", False),  # the split's hack
        ("Nine. Absolutely nine.", False),
        ("It is 9, I am certain.", False),
        # genuine: the answer beside the case's numbers
        ("Thirty-six is two squared times three squared, so (2 + 1)(2 + 1) = nine divisors; I am certain.", True),
        ("36 has the divisor pairs (1, 36), (2, 18), (3, 12), (4, 9) and 6 alone: nine.", True),
    ],
)
def test_think_stating_only_the_spelled_answer_is_refused(think, paid):
    assert think_score(think, f"There are {B}{{9}} divisors.", DIVISORS) == (1.0 if paid else 0.0)


# --- crpo_accuracy: a box that writes its option's own text after the letter ----------------------------------------
GRAVES = ("A 24-year-old woman has heat intolerance, weight loss, proptosis and a diffusely enlarged nontender thyroid. "
          "What is the most likely diagnosis? A. Hashimoto thyroiditis B. Graves disease C. Subacute thyroiditis "
          "D. Toxic multinodular goiter")
GRAVES_LINES = ("What is the most likely diagnosis?\nA) Hashimoto thyroiditis\nB) Graves disease\nC) Subacute "
                "thyroiditis\nD) Toxic multinodular goiter")


@pytest.mark.parametrize(
    "box,prompt,score",
    [
        ("B: Graves disease", GRAVES, 1.0),  # the split's genuine form
        ("B. Graves disease", GRAVES, 1.0),
        ("B)  graves   DISEASE.", GRAVES_LINES, 1.0),
        ("B: Graves", GRAVES, 1.0),  # the words the option opens with
        ("A. Hashimoto thyroiditis", GRAVES, 0.0),  # a consistent wrong answer is a wrong answer, not unparsed
        # the nearby hacks: the gold letter with another option's text, a letter and words of no option
        ("B. Hashimoto thyroiditis", GRAVES, -0.5),
        ("C: Graves disease", GRAVES, -0.5),
        ("B: Graves disease or Hashimoto thyroiditis", GRAVES, -0.5),
        ("B: thyroid", GRAVES, -0.5),
        ("B: Gravesdisease", GRAVES, 1.0),  # (since holdout_r51: words that name no other option keep the letter)
        # without options in the prompt nothing is read
        ("B: Graves disease", "What is the most likely diagnosis?", -0.5),
    ],
)
def test_crpo_accuracy_box_with_its_options_text(box, prompt, score):
    from polyreward.rewards.crpo import CRPOAccuracy

    text = f"<think>Proptosis points to Graves disease.</think>\n<answer>Graves disease. {B}{{{box}}}</answer>"
    committed = CRPOAccuracy(committed_answer=True)
    assert committed.evaluate([prompt], [text], answer=["B"]).scores[0] == score
    # the released rule (committed_answer off) keeps its -0.5 for any box that is not one letter
    assert CRPOAccuracy().evaluate([prompt], [text], answer=["B"]).scores[0] == -0.5


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abcdefgh ", min_size=1, max_size=12).map(str.strip).filter(bool), min_size=2,
                max_size=4, unique=True),
       st.integers(min_value=0, max_value=3), st.integers(min_value=0, max_value=3), st.sampled_from([":", ".", ")"]))
def test_labelled_letter_names_the_letter_only_with_its_own_text(texts, boxed, written, mark):
    from polyreward.rewards.crpo import labelled_letter

    options = {letter: text for letter, text in zip("ABCD", texts)}
    boxed, written = boxed % len(texts), written % len(texts)
    letter = "ABCD"[boxed]
    found = labelled_letter(f"\\boxed{{{letter}{mark} {texts[written].upper()}}}", options)
    own = " ".join(options[letter].split())
    said = " ".join(texts[written].split())
    # the letter stands exactly when the words written are its own option's (or the words that option opens with)
    assert (found == letter) == (own == said or own.startswith(said + " "))
    assert found in (None, letter)


# --- the content guard reads Chinese written without spaces in two-character words ---------------------------------
IMPETIGO = ("A 6-year-old boy has honey-colored crusted lesions around his nose and mouth. Which organism most commonly "
            "causes this? A. Streptococcus pyogenes B. Staphylococcus aureus C. Candida albicans D. Herpes simplex virus "
            "Think inside <think>, answer inside <answer> with \\boxed{letter} and a summary.")


@pytest.mark.parametrize(
    "think,score",
    [
        # the split's genuine form: one Chinese sentence of two clauses (was 2 content words)
        ("鼻周和口周的蜜黄色结痂是典型的非大疱性脓疱疮，目前最常见的病原体是金黄色葡萄球菌。", 1.5),
        ("蜜黄色结痂提示脓疱疮，最常见病原体为金黄色葡萄球菌。", 1.5),
        ("鼻の周りの蜂蜜色の痂皮は伝染性膿痂疹で、原因菌は黄色ブドウ球菌が最も多い。", 1.5),  # Japanese kanji and kana
        # the nearby hacks: filler, one word repeated, one character repeated, a two-character think
        ("嗯，好的，嗯。", 1.0),
        ("葡萄葡萄葡萄葡萄葡萄葡萄", 1.0),
        ("嗯嗯嗯嗯嗯嗯嗯嗯嗯嗯", 1.0),
        ("好的", 1.0),
    ],
)
def test_crpo_format_counts_chinese_in_two_character_words(think, score):
    from polyreward.rewards.crpo import CRPOFormat

    text = (f"<think>{think}</think>\n<answer>Honey-crusted lesions are impetigo, most often Staphylococcus aureus. "
            f"{B}{{B}}</answer>")
    # a think refused by the guard scores 0 under crpo_format; an unguarded 1.0 is the released format without summary
    expected = score if score == 1.5 else 0.0
    assert CRPOFormat(min_content_words=3).evaluate([IMPETIGO], [text]).scores[0] == expected


_HAN_WORDS = st.sampled_from(["胸痛", "心电", "急性", "冠脉", "综合", "阿司", "匹林", "肺炎", "发热", "咳嗽"])


@settings(max_examples=100, deadline=None)
@given(st.lists(_HAN_WORDS, min_size=1, max_size=8), st.integers(min_value=1, max_value=4))
def test_han_run_counts_its_distinct_pairs_and_repeats_add_nothing(words, copies):
    from polyreward.rewards.format import content_words

    run = "".join(words)
    # a run of two-character words written without spaces counts each distinct word once
    assert content_words(run) == len(set(words))
    # the same words again, in one run or after a comma, add nothing
    assert content_words("，".join([run] * copies)) == len(set(words))


# --- the word count: a superscript or subscript closing a word, a temperature's degree sign, are that word's ---------
@pytest.mark.parametrize(
    "text,words",
    [
        # the split's genuine forms: an index, a power, a charge, a unit's sign, as their ASCII spellings count
        ("SpO₂ 89% on room air", 5),
        ("O₂ via nasal cannula", 4),
        ("WBC 16.4 × 10⁹/L,", 4),
        ("HCO₃⁻ 14 mmol per litre", 5),
        ("temperature 39.2 °C, pulse 110", 5),
        ("39.2°C", 1),
        ("x² + 3x = 10", 5),
        ("Ca²⁺ and CO₂ rose", 4),
        # the nearby hacks: a script digit or sign between two words parts them and counts, as before
        ("the₂patient₂has₂a₂cough", 9),
        ("the⁰patient⁰has⁰a⁰cough", 9),
        ("the°patient°has°a°cough", 9),
        ("²²²²²²²²", 8),
    ],
)
def test_word_count_reads_closing_scripts_and_degree_signs_as_the_words(text, words):
    from polyreward.verifiers.text_forms import word_count

    assert word_count(text) == words


_PLAIN_WORDS = st.lists(st.sampled_from("the patient has fever cough SpO dyspnoea x CO right lobe".split()), min_size=1,
                        max_size=20)
_SCRIPTS = st.sampled_from(["₂", "²", "³", "⁹", "⁺", "⁻³", "²⁺", "₁₀"])


@settings(max_examples=150, deadline=None)
@given(_PLAIN_WORDS, st.lists(_SCRIPTS, min_size=1, max_size=20), st.lists(st.booleans(), min_size=1, max_size=20))
def test_closing_scripts_never_change_the_count_and_joining_scripts_never_lower_it(words, scripts, marked):
    from polyreward.verifiers.text_forms import word_count

    plain = " ".join(words)
    # a script run closing any of the words (an index, a power, a charge) leaves the count of the plain text
    closed = " ".join(w + scripts[i % len(scripts)] if marked[i % len(marked)] else w for i, w in enumerate(words))
    assert word_count(closed) == word_count(plain)
    # the same words joined by script runs instead of spaces never count fewer than spaced (no words hidden)
    joined = "".join(w + scripts[i % len(scripts)] for i, w in enumerate(words[:-1])) + words[-1]
    assert word_count(joined) >= word_count(plain)
