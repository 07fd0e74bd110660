"""Table tests of the rules red team ``holdout_r4`` prompted (tests/data/red_team_rewards.jsonl, split holdout_r4),
each in both directions: the hack it refuses, and a genuine answer nearby that it still pays. Examples differ from
the rows (held-out graders use the rows)."""

from __future__ import annotations

import json
import keyword
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyreward.rewards.crpo import CRPOEnglish, CRPOFormat
from polyreward.rewards.forecast import committed_forecast
from polyreward.rewards.format import ThinkFormat, content_words
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency
from polyreward.rewards.tool_calls import ToolRLCorrectness, ToolRLFormat
from polyreward.rewards.tool_efficiency import OTCToolEfficiency
from polyreward.verifiers.call_formats import call_lines, harmony_calls
from polyreward.verifiers.denial import questions
from polyreward.verifiers.label_sets import read_labels
from polyreward.verifiers.language import english_share
from polyreward.verifiers.radiology_kg import extract_kg
from polyreward.verifiers.text_forms import word_count
from polyreward.verifiers.tool_calls import block_calls, calls_outside_blocks, nfc_values, without_think_mentions

CALL = {"name": "book_table", "parameters": {"restaurant": "Chez Léon", "guests": 4}}
GOLD = "<tool_call>\n" + json.dumps(CALL, ensure_ascii=False) + "\n</tool_call>"
THINK = "<think>Four guests at Chez Léon tonight, so one book_table call with both fields.</think>\n"
ARGS = '{"restaurant": "Nobu", "guests": 4}'


# ---- tool calls: the layouts of Kimi, Harmony, generic XML tools and whole-line calls --------------------------------

@pytest.mark.parametrize("extra", [
    f"<|tool_calls_section_begin|><|tool_call_begin|>functions.book_table:1<|tool_call_argument_begin|>{ARGS}"
    "<|tool_call_end|><|tool_calls_section_end|>",
    f"<|start|>assistant<|channel|>commentary to=functions.book_table <|constrain|>json<|message|>{ARGS}<|call|>",
    f"<|channel|>commentary to=book_table<|message|>{ARGS}",
    '<tool name="book_table">\n  <param name="restaurant">Nobu</param>\n  <param name="guests">4</param>\n</tool>',
    "book_table({restaurant: 'Nobu', guests: 4})",
    'book_table(restaurant="Nobu", guests=4)',
    '[book_table(restaurant="Nobu", guests=4), book_table(restaurant="Zuma", guests=4)]',
])
def test_an_extra_call_in_another_stacks_layout_costs_the_maximum(extra):
    text = THINK + GOLD + "\n" + extra
    assert ToolRLCorrectness()(completions=[text], answer=[GOLD])[0] < 3.0
    otc = OTCToolEfficiency(correctness="calls_exact")
    assert otc(completions=[text], answer=[GOLD], prompt_id=["a"]) == [0.0]


@pytest.mark.parametrize("remark", [
    "I called book_table (one call) and will confirm once it answers.",      # a call named inside a sentence
    "Note (the restaurant closes at 23:00).",                                  # a parenthesis in prose
    "The booking id will look like functions.book_table:1 in the logs.",      # an index without arguments
    "Reply to=the user <|message|> soon",                                     # a stray marker, no recipient call
    "```python\nbook_table(restaurant='Nobu', guests=4)\n```",                  # code in a fence is code
])
def test_prose_beside_the_call_is_no_extra_call(remark):
    assert ToolRLCorrectness()(completions=[THINK + GOLD + "\n" + remark], answer=[GOLD]) == [3.0]


def test_harmony_and_kimi_calls_are_read_with_their_arguments():
    calls = harmony_calls("<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{\"tz\": \"UTC\"}<|call|>",
                          lambda body: [])
    assert calls == [{"name": "get_time", "parameters": {"tz": "UTC"}}]
    kimi = "<|tool_call_begin|>functions.get_time:0<|tool_call_argument_begin|>{\"tz\": \"UTC\"}<|tool_call_end|>"
    assert calls_outside_blocks(kimi) == [{"name": "functions.get_time", "parameters": {"tz": "UTC"}}]


@given(st.from_regex(r"[a-z]{2,8}(?:_[a-z]{2,8}){1,2}", fullmatch=True),
       st.from_regex(r"[a-z]{1,6}", fullmatch=True).filter(lambda key: not keyword.iskeyword(key)),  # "f(if=0)" is no call
       st.integers(min_value=-999, max_value=999))
@settings(max_examples=60, deadline=None)
def test_a_line_that_is_only_a_call_is_one_call(name, key, value):
    assert call_lines(f"{name}({key}={value})") == [{"name": name, "parameters": {key: value}}]
    assert call_lines(f"Then I would run {name}({key}={value}) again.") == []


@given(st.from_regex(r"[A-Za-z][a-z]{2,10}", fullmatch=True), st.text(alphabet="abcdef xyz,", max_size=20))
@settings(max_examples=60, deadline=None)
def test_a_plain_word_with_a_parenthesis_is_no_call(word, inside):
    assert call_lines(f"{word.lower()}({inside})") == []


def test_a_tag_named_in_the_reasoning_opens_no_block():
    text = ("<think>I will answer with one <tool_call> holding book_table for Chez Léon.</think>\n" + GOLD)
    assert ToolRLCorrectness()(completions=[text], answer=[GOLD]) == [3.0]
    assert OTCToolEfficiency(correctness="calls_exact")(completions=[text], answer=[GOLD], prompt_id=["a"]) == [1.0]
    # a block opened and closed inside the reasoning is still a block (a runner matching tags runs it)
    inside = "<think>Plan: <tool_call>\n" + json.dumps({"name": "cancel", "parameters": {}}) + "\n</tool_call></think>\n" + GOLD
    assert len(block_calls(inside)) == 2
    assert ToolRLCorrectness()(completions=[inside], answer=[GOLD])[0] < 3.0


@given(st.text(alphabet="<>/abc think_ol\n", max_size=80))
@settings(max_examples=150, deadline=None)
def test_think_mentions_only_rewrite_openers_inside_think(text):
    out = without_think_mentions(text)
    assert out.count("</tool_call>") == text.count("</tool_call>")
    assert out.count("<tool_call>") <= text.count("<tool_call>")
    if "<think>" not in text:
        assert out == text


def test_a_value_in_another_unicode_normal_form_is_the_same_value():
    decomposed = GOLD.replace("é", "e\u0301")
    assert decomposed != GOLD
    assert ToolRLCorrectness()(completions=[THINK + decomposed], answer=[GOLD]) == [3.0]
    assert OTCToolEfficiency(correctness="calls_exact")(completions=[THINK + decomposed], answer=[GOLD], prompt_id=["a"]) == [1.0]
    # a look-alike letter is not a normal form: still another value
    lookalike = GOLD.replace("Léon", "Lеon")  # Cyrillic е
    assert ToolRLCorrectness()(completions=[THINK + lookalike], answer=[GOLD])[0] < 3.0


@given(st.text(max_size=30))
@settings(max_examples=100, deadline=None)
def test_nfc_values_is_idempotent_and_canonical(text):
    value = {"k": [text, {"x": text}]}
    once = nfc_values(value)
    assert nfc_values(once) == once
    assert once["k"][0] == unicodedata.normalize("NFC", text)


# ---- format guards: a think about something else, hashtags, an empty box, a summary that is the question ------------

P_MATH = "Solve 3y - 4 = 14. Put the final answer in \\boxed{}."


@pytest.mark.parametrize("think, score", [
    ("A linear equation has one unknown raised to the first power and a constant term on either side.", 0.0),
    ("I will work through this methodically and give a carefully checked final answer.", 0.0),
    ("Write your detailed reasoning here.", 0.0),
    ("#algebra #equations #linear #solving", 0.0),
    ("Add 4 to both sides: 3y = 18, then divide by 3, y = 6.", 1.0),
    ("Isolate y: move the constant over and halve nothing, just divide 18 by 3.", 1.0),
    ("Сначала прибавим 4 к обеим частям, затем разделим на три.", 1.0),   # another language: not compared
])
def test_think_format_wants_reasoning_about_this_question(think, score):
    reward = ThinkFormat(min_content_words=3)
    assert reward(prompts=[P_MATH], completions=[f"<think>{think}</think>\nSo \\boxed{{6}}."]) == [score]


def test_hashtags_are_no_content_words():
    assert content_words("#cardiology #ecg #triage #chestpain") == 0
    assert content_words("Item #3 needs an ECG; C# code aside, triage first.") >= 3


P_MCQ = ("A 30-year-old woman has sudden pleuritic pain after a long flight. Which test first? A. CT pulmonary angiogram "
         "B. Chest X-ray C. D-dimer D. Echocardiogram. Think inside <think>, answer inside <answer> with \\boxed{letter} "
         "and a summary.")
T_MCQ = "<think>Low pretest probability after a flight: a negative D-dimer would exclude a clot without radiation.</think>\n"


@pytest.mark.parametrize("answer, score", [
    ("<answer>Which test first? \\boxed{C}</answer>", 1.0),                       # the question again
    ("<answer>Start with the D-dimer. \\boxed{}</answer>", 1.0),                   # an empty box
    ("<answer>Start with the D-dimer. \\boxed{C}</answer>", 1.5),
    ("<answer>D-dimer first: which test first is settled. \\boxed{C}</answer>", 1.5),  # quotes a few words of it
])
def test_crpo_summary_is_no_copy_of_the_question_and_the_box_holds_something(answer, score):
    assert CRPOFormat(min_content_words=3)(prompts=[P_MCQ], completions=[T_MCQ + answer]) == [score]


# ---- crpo_english: language games and padded foreign text ----------------------------------------------------------

@pytest.mark.parametrize("text, english", [
    ("Gubbive thubbe pubbatubbient ubbasubbpubbirubbin ubband ubbobtubbain ubban ubbelubbectrubbocubbardubbiogrubbam nubbow.", False),
    ("Ivegay ethay atientpay aspirinway andway obtainway anway electrocardiogramway ownay.", False),
    ("the paciente the necesita the un the electrocardiograma the y the aspirina the ahora the mismo", False),
    ("Give the patient aspirin and obtain an electrocardiogram now, then repeat troponin in three hours.", True),
    ("Bilateral basilar crackles, bilateral pitting oedema, bilateral pleural effusions: treat heart failure.", True),
])
def test_english_share_of_language_games_and_padding(text, english):
    assert (english_share(text) > 0.9) is english


def test_crpo_english_refuses_ubbi_dubbi():
    text = "<think>Thubbe pubbatubbient nubbeeds ubban ubbelubbectrubbocubbardubbiogrubbam.</think><answer>Gubbive ubbaspubbirubbin.</answer>"
    assert CRPOEnglish(measure="language", min_content_words=3)(prompts=["Answer in English."], completions=[text])[0] < 0.5


# ---- forecast: an hour's value, I'd say, a restated unit, the tag's case -------------------------------------

@pytest.mark.parametrize("body, value", [
    ("approximately 48", [48.0]),
    ("I'd say 48.", [48.0]),
    ("I would say 48 µg/m3", [48.0]),
    ("48 µg/m³ (0.048 mg/m³)", [48.0]),
    ("48 µg/m³ (≈0.05 mg/m³)", [48.0]),
    ("40~60", None),            # a range
    ("hour 14: 48", None),      # one hour's value, not the mean
    ("48 µg/m³ (0.5 mg/m³)", None),  # another value in brackets
    ("Let's say 48", None),     # a supposition, not the writer's figure
])
def test_forecast_approximation_opinion_and_restatement(body, value):
    assert committed_forecast(f"<answer>{body}</answer>", 1, block_required=True)[0] == value


def test_forecast_reads_the_answer_tag_in_any_case():
    assert committed_forecast("<ANSWER>48</ANSWER>", 1, block_required=True)[0] == [48.0]
    # a second block in any case after it is another value, so neither is committed
    assert committed_forecast("<Answer>48</Answer> <answer>12</answer>", 1, block_required=True)[0] is None
    assert committed_forecast("<answer>48</answer> <ANSWER>12</ANSWER>", 1, block_required=True)[0] is None


@given(st.integers(min_value=1, max_value=999), st.integers(min_value=0, max_value=3))
@settings(max_examples=80, deadline=None)
def test_a_restated_value_in_mg_agrees_or_is_a_second_number(value, decimals):
    restated = round(value / 1000, decimals)
    read = committed_forecast(f"<answer>{value} µg/m³ ({restated:.{decimals}f} mg/m³)</answer>", 1, block_required=True)[0]
    agrees = abs(restated * 1000 - value) <= 500 * 10 ** -decimals + 1e-9
    assert read == ([float(value)] if agrees else None)


# ---- jaccard: denied labels, flags, an ampersand -------------------------------------------------------------------

P_JA = "List the findings present, separated by ';', inside <answer>...</answer>.\n\nFINDINGS: Consolidation. No effusion."
G_JA = "<answer>consolidation</answer>"


@pytest.mark.parametrize("answer, score", [
    ("consolidation: yes; pleural effusion: no", 1.0),
    ("consolidation; pleural effusion (absent)", 1.0),
    ('{"consolidation": true, "pleural effusion": false}', 1.0),
    ('{"consolidation": "yes", "pleural effusion": "no"}', 1.0),
    ("consolidation: no; pleural effusion: no", 0.0),
    ('{"consolidation": false}', 0.0),
    ("consolidation: absent", 0.0),
])
def test_jaccard_reads_flags_and_denied_labels(answer, score):
    reward = JaccardReward(mode="normalized")
    assert reward(prompts=[P_JA], completions=[f"<answer>{answer}</answer>"], answer=[G_JA]) == [score]


@given(st.lists(st.from_regex(r"[a-z]{3,10}( [a-z]{3,10})?", fullmatch=True), min_size=2, max_size=6, unique=True))
@settings(max_examples=80, deadline=None)
def test_ampersand_lists_read_as_labels(labels):
    assert read_labels(" & ".join(labels)) == labels
    flags = {label: i % 2 == 0 for i, label in enumerate(labels)}
    assert read_labels(json.dumps(flags)) == labels[::2]


# ---- kg: an anatomy word belongs to the finding it precedes; a statement asked states nothing --------------------------

def test_anatomy_before_a_finding_locates_only_that_finding():
    kg = extract_kg("Cardiomegaly with a small right pleural effusion.")
    assert ("pleural effusion", "right", "located_at") in kg.triplets
    assert ("cardiomegaly", "right", "located_at") not in kg.triplets
    # an anatomy word after a finding still locates it
    assert ("pneumothorax", "left", "located_at") in extract_kg("There is a pneumothorax on the left.").triplets


@pytest.mark.parametrize("text, asked", [
    ("The heart is enlarged?", True),
    ("There is a small effusion?", True),
    ("Is there a pneumothorax?", True),
    ("Pneumonia?", False),              # shorthand query: uncertain, left to the finding reader
    ("No pneumothorax?", False),
    ("The heart is enlarged.", False),
])
def test_questions(text, asked):
    assert bool(questions(text)) is asked


def test_kg_pays_one_sentence_impression_and_refuses_asked_findings():
    prompt = "Write the FINDINGS.\nPresent: cardiomegaly, pleural effusion\nAbsent: pneumothorax"
    reference = "The heart is enlarged. There is a small right pleural effusion. No pneumothorax."
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, contradictions="keep")
    good = "Cardiomegaly with a small right pleural effusion; no pneumothorax."
    asked = "The heart is enlarged? There is a small right pleural effusion? No pneumothorax?"
    scores = reward(prompts=[prompt, prompt], completions=[good, asked], answer=[reference, reference])
    assert scores[0] == 1.0
    assert scores[1] < 1.0


# ---- word count: a tag between letters parts the words --------------------------------------------------------------

@given(st.lists(st.sampled_from(["the", "a", "patient", "is", "x", "febrile", "I"]), min_size=3, max_size=80),
       st.sampled_from(["<wbr>", "<br/>", "<span>", "</b>"]))
@settings(max_examples=80, deadline=None)
def test_tags_between_letters_count_as_spaces(words, tag):
    assert word_count(tag.join(words)) >= word_count(" ".join(words))


def test_markup_around_a_number_still_counts_as_before():
    assert word_count("<answer>340</answer>") == 2  # one run of 20 characters: ceil(20 / 16), as before
    assert word_count("x<sup>2</sup>") == 1


def test_a_served_prompt_with_its_chat_template_is_read_whole():
    """The off-topic think guard reads the whole prompt: a prompt served with its chat template (system turn, then the
    user's question) gives the same verdict as the plain question (tests/test_peer_clients.py found the difference:
    the question after the system turn was cut like a completion's later turn)."""
    from polyreward.rewards.format import ThinkFormat

    question = "Round (6.469+((8.780+9.549)+0.615)) to 12 significant digits."
    served = ("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n" + question
              + "<|im_end|>\n<|im_start|>assistant\n")
    completion = "<think>\nWe compute 615)) carefully, keeping all significant digits.\n</think>\n<answer>25.413</answer>"
    reward = ThinkFormat(min_content_words=3)
    assert reward(prompts=[served], completions=[completion]) == reward(prompts=[question], completions=[completion])
