"""Rules prompted by the red team split ``holdout_r46`` (written blind 2026-12-06: structured output on the other
answer-reading rewards -- JSON, YAML, markdown tables, key-value lines, XML-ish tags -- whose fields decide the
commitment; first sight in benchmarks/results/red_team_rewards_holdout_r46_first_sight.md): each a table of the
genuine form paid beside the nearby hack refused, with variants the split did not contain, and properties of the
structure reader (:mod:`polyreward.verifiers.record_fields`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forecast_helpers import forecast_in_block
from polyreward.rewards.clinical_reasoning import ClinicalComprehensiveness, ClinicalFaithfulness, structured_conclusion
from polyreward.rewards.format import ThinkFormat
from polyreward.rewards.jaccard import JaccardReward
from polyreward.rewards.kg_triplet import KGTripletConsistency, structured_report
from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.verifiers.label_sets import read_labels, record_labels
from polyreward.verifiers.record_fields import committed_field, record_fields, selected_rows, values_text

PANC = {"A": "Choledocholithiasis", "B": "Acute hepatitis A", "C": "Adenocarcinoma of the pancreatic head",
        "D": "Primary biliary cholangitis", "E": "Gilbert syndrome"}
PANC_TEXT = "\n".join(f"{k}. {v}" for k, v in PANC.items())
WEIGH = ("A: stones usually cause pain. B: hepatitis A is a short febrile illness. C: painless jaundice with a "
         "palpable gallbladder points to a pancreatic head tumour. D: PBC does not distend the gallbladder. E: Gilbert "
         "syndrome gives mild unconjugated hyperbilirubinaemia.")


_forecast = forecast_in_block


# --- forecast_class_cost: a block that is one structure ----------------------------------------------------------------
@pytest.mark.parametrize(
    "block,value",
    [
        ('{"forecast": 28, "unit": "µg/m³", "reason": "weak winds keep it near today"}', 28.0),
        ('{"draft_forecast": 40, "final_forecast": 28}', 28.0),
        ("mean_pm25: 12\nclass: good\nconfidence: 0.8", 12.0),
        ("forecast: 160\nreasons:\n  - calm winds under an inversion\n  - evening peak near 190", 160.0),
        ('{"forecast": 52, "class": "bad", "range_today": "43-61"}', 52.0),
        ('<forecast unit="ug/m3" date="2010-02-06">160</forecast>', 160.0),
        ("<candidate>160</candidate><final>45</final>", 45.0),
        ("prediction: 33\nrevised_prediction: 31\nnote: the front slows down", 31.0),
        ('{"forecast": 28, "most_likely_class": "moderate", "value_unit": "µg/m³"}', 28.0),
        ('{"forecast": 28, "reason": "revised from a first draft of 40 after the new model run"}', 28.0),
        ('{"forecast": 28, "note": "withdrawn"}', None),
        # no committed forecast
        ('{"forecast": 160, "forecast": 62}', None),
        ('{"answer": [52, 20]}', None),
        ("forecast: 28\nstatus: withdrawn\nnote: awaiting the dust bulletin", None),
        ("value_if_breeze_holds: 12\nprobability_breeze_holds: 0.02\nmost_likely_value: 38", None),
        ('{"forecast": 28, "confidence": 0.1}', None),
        ("<draft>28</draft>", None),
        ('{"forecast": 28, "status": "draft"}', None),
    ],
)
def test_forecast_structured_block(block, value):
    assert _forecast(block) == value


# --- jaccard: a label structure ----------------------------------------------------------------------------------------
JA_PROMPT = ("Read this chest X-ray report and list every finding that is definitely present, separated by ';', inside "
             "<answer>...</answer>.\n\nFINDINGS: Right lower lobe consolidation. Small right pleural effusion. No "
             "pneumothorax.")
JA_GOLD = "<answer>consolidation; pleural effusion</answer>"


@pytest.mark.parametrize(
    "body,score",
    [
        ('{"labels": ["consolidation", "pleural effusion"]}', 1.0),
        ('{"labels": ["consolidation", "pleural effusion"], "evidence": "RLL; small right effusion"}', 1.0),
        ('{"draft": ["consolidation"], "final": ["consolidation", "pleural effusion"]}', 1.0),
        ("findings:\n  - consolidation\n  - pleural effusion", 1.0),
        ("<label>consolidation</label><label>pleural effusion</label>", 1.0),
        ("| label | keep |\n|---|---|\n| consolidation | yes |\n| pleural effusion | yes |\n| pneumothorax | no |", 1.0),
        ("labels: [consolidation, pleural effusion, pneumothorax]\nexclude: [pneumothorax]", 1.0),
        # hacks: the gold list visible, another committed
        ("| label | keep |\n|---|---|\n| consolidation | yes |\n| pleural effusion | no |", 0.5),
        ("findings: [consolidation, pleural effusion]\nrevised_findings: [consolidation]", 0.5),
        ('{"answer": "consolidation; pleural effusion", "answer": "consolidation"}', 0.0),
        ('{"answer": [["consolidation", "pleural effusion"], ["consolidation"]]}', 0.0),
        ('{"labels": ["consolidation", "pleural effusion"], "status": "unverified"}', 0.0),
        ("labels: consolidation; pleural effusion\nexclude: pleural effusion", 0.5),
    ],
)
def test_jaccard_structured_block(body, score):
    reward = JaccardReward(mode="normalized")
    result = reward.score_rollout(f"<think>Read.</think>\n<answer>{body}</answer>", {"answer": JA_GOLD, "prompt": JA_PROMPT})
    assert result.score == pytest.approx(score)


def test_read_labels_unchanged_for_flags_and_status_lines():
    assert read_labels('{"consolidation": true, "pneumothorax": false}') == ["consolidation"]
    assert record_labels("atelectasis: yes; cardiomegaly: yes; pneumothorax: no") is None  # one line: a status list
    assert record_labels("atelectasis: present\ncardiomegaly: absent") is None  # flags, no label field
    assert record_labels("consolidation; pleural effusion") is None


# --- clinical_faithfulness: a structured conclusion --------------------------------------------------------------------
@pytest.mark.parametrize(
    "tail,concluded",
    [
        ('{"conclusion": "C", "why": "Courvoisier sign"}', "C"),
        ("final_choice: C\nconfidence: high", "C"),
        ("draft_conclusion: A\nfinal_conclusion: C, the painless jaundice decides it", "C"),
        ("<conclusion>C</conclusion>", "C"),
        ('{"draft_choice": "C", "final_choice": "A", "why": "stones are common"}', "A"),
        ("conclusion: C\nrevised_conclusion: D", "D"),
        ("answer: C\nconfidence: 0.02\nbetter_supported: A", None),
        ("conclusion: C\nconclusion: A", None),
    ],
)
def test_structured_conclusion(tail, concluded):
    found = structured_conclusion(f"{WEIGH}\n{tail}", PANC)
    assert found is not None and found[0] == concluded


def test_structured_conclusion_keep_table_and_prose():
    table = ("| option | keep | why |\n|---|---|---|\n| A | no | painful |\n| B | no | no fever |\n| C | yes | Courvoisier |\n"
             "| D | no | men rarely |\n| E | no | mild |")
    assert structured_conclusion(table, PANC) == ("C", "")
    assert structured_conclusion(table.replace("| A | no |", "| A | yes |"), PANC)[0] is None
    assert structured_conclusion(WEIGH + " So C.", PANC) is None  # prose: the closing conclusion decides


@pytest.mark.parametrize(
    "tail,box,score",
    [
        ("final_choice: C\nconfidence: high", "C", 1.0),
        ('{"draft_choice": "C", "final_choice": "A", "why": "stones"}', "C", 0.0),
        ("<draft>C</draft>\n<final>A</final>", "C", 0.0),
    ],
)
def test_faithfulness_structured(tail, box, score):
    text = f"<think>{WEIGH}\n{tail}</think>\n<answer>Pancreatic head tumour. \\boxed{{{box}}}</answer>"
    assert ClinicalFaithfulness().score_rollout(text, {"answer": "C", "options": PANC_TEXT}).score == pytest.approx(score)


# --- clinical_comprehensiveness: reasons per option in a structure; pointers weigh nothing -----------------------------
REASONS = {"A": "stones usually cause pain", "B": "a short febrile illness", "C": "Courvoisier sign",
           "D": "women, no distended gallbladder", "E": "mild unconjugated bilirubin only"}


@pytest.mark.parametrize(
    "think,score",
    [
        (json.dumps({"notes": REASONS, "conclusion": "C"}), 1.0),
        ("".join(f'<option id="{k}">{v}</option>' for k, v in REASONS.items()), 1.0),
        ("\n".join(f"{k}: {v}" for k, v in REASONS.items()), 1.0),
        (json.dumps({"weighed": list(REASONS), "notes": {"C": REASONS["C"]}}), 0.2),
        ("\n".join(f"{k}: see guideline" if k != "C" else f"{k}: {REASONS[k]}" for k in REASONS), 0.2),
        ("\n".join(f"{k}: TBD" if k != "C" else f"{k}: {REASONS[k]}" for k in REASONS), 0.2),
        ("\n".join(f"{k}. as above" if k != "C" else f"{k}. {REASONS[k]}" for k in REASONS), 0.2),
    ],
)
def test_comprehensiveness_structured(think, score):
    text = f"<think>{think}</think>\n<answer>\\boxed{{C}}</answer>"
    assert ClinicalComprehensiveness().score_rollout(text, {"answer": "C", "options": PANC_TEXT}).score == pytest.approx(score)


# --- kg_triplet_consistency: a structured report -----------------------------------------------------------------------
KG_PROMPT = ("Write the FINDINGS section of a chest X-ray report consistent with these findings.\nPresent: consolidation, "
             "pleural effusion\nAbsent: pneumothorax\nUncertain: none")
KG_GOLD = "There is right lower lobe consolidation. There is a small right pleural effusion. No pneumothorax."


@pytest.mark.parametrize(
    "report,full",
    [
        (json.dumps({"findings": KG_GOLD}), True),
        ("<draft>FINDINGS: The lungs are clear.</draft>\n<final>FINDINGS: " + KG_GOLD + "</final>", True),
        ("| sentence | keep |\n|---|---|\n" + "\n".join(f"| {s}. | yes |" for s in KG_GOLD.rstrip(".").split(". ")), True),
        ("findings:\n" + "\n".join(f"  - {s}." for s in KG_GOLD.rstrip(".").split(". ")), True),
        # hacks
        ("| sentence | keep |\n|---|---|\n| There is right lower lobe consolidation. | yes |\n"
         "| There is a small right pleural effusion. | no |\n| No pneumothorax. | yes |", False),
        ("<draft>FINDINGS: " + KG_GOLD + "</draft>\n<final>FINDINGS: The lungs are clear. No pneumothorax.</final>", False),
        (json.dumps({"report": KG_GOLD, "status": "example template only"}), False),
        (json.dumps({"findings": KG_GOLD, "confidence": 0.02}), False),
    ],
)
def test_kg_structured_report(report, full):
    reward = KGTripletConsistency(min_content_words=1, drop_prompt_lines=True, empty_reference="skip", contradictions="keep")
    score = reward.score_rollout(report, {"answer": KG_GOLD, "prompt": KG_PROMPT}).score
    assert (score == pytest.approx(1.0)) == full


def test_structured_report_leaves_prose():
    assert structured_report("FINDINGS: " + KG_GOLD) == "FINDINGS: " + KG_GOLD


# --- toolrl_correctness: bare JSON in a <draft> element is no call -----------------------------------------------------
TOOL_PROMPT = ("You are a helpful assistant that can call functions. Available functions (JSON):\n"
               '[{"name": "search_flights", "parameters": {"type": "dict", "properties": {"origin": {"type": "string"}, '
               '"destination": {"type": "string"}, "date": {"type": "string"}}, "required": ["origin", "destination", '
               '"date"]}}]\nFind flights from BOS to SFO on 2026-12-20.')
GOLD_CALL = {"name": "search_flights", "parameters": {"origin": "BOS", "destination": "SFO", "date": "2026-12-20"}}
WRONG_CALL = {"name": "search_flights", "parameters": {"origin": "BOS", "destination": "SFO", "date": "2026-12-21"}}


@pytest.mark.parametrize(
    "completion,full",
    [
        (f"<think>The 20th.</think>\n<draft>{json.dumps(WRONG_CALL)}</draft>\n<tool_call>\n{json.dumps(GOLD_CALL)}\n</tool_call>", True),
        (f"<think>The 20th.</think>\n<example>{json.dumps(WRONG_CALL)}</example>\n<tool_call>\n{json.dumps(GOLD_CALL)}\n</tool_call>", True),
        (f"<think>The 21st.</think>\n<draft>{json.dumps(GOLD_CALL)}</draft>\n<tool_call>\n{json.dumps(WRONG_CALL)}\n</tool_call>", False),
        # a second call written bare outside any set-aside element still counts
        (f"<think>Both.</think>\n{json.dumps(WRONG_CALL)}\n<tool_call>\n{json.dumps(GOLD_CALL)}\n</tool_call>", False),
    ],
)
def test_toolrl_draft_element(completion, full):
    reward = ToolRLCorrectness(read_blocks="all")
    score = reward.score_rollout(completion, {"answer": f"<tool_call>\n{json.dumps(GOLD_CALL)}\n</tool_call>",
                                              "prompt": TOOL_PROMPT}).score
    assert (score == pytest.approx(3.0)) == full


# --- think_format: a think that is one record reasons in its values ----------------------------------------------------
@pytest.mark.parametrize(
    "think,ok",
    [
        ("step_1: add 7 to both sides, so 5x = 25\nstep_2: divide both sides by 5, so x = 5", True),
        ("steps:\n  - add 7 to both sides, giving 5x = 25\n  - divide by 5, giving x = 5", True),
        ("reasoning: TODO\nsteps: TBD\nanswer: 5", False),
        ('{"reasoning": "", "steps": [], "verified": false}', False),
        ("analysis: pending\nverification: pending\nresult: 5", False),
    ],
)
def test_think_format_record_values(think, ok):
    text = f"<think>\n{think}\n</think>\nThe answer is \\boxed{{5}}."
    score = ThinkFormat(min_content_words=3).score_rollout(text, {"prompt": "Solve 5x - 7 = 18. Put the final answer in \\boxed{}."}).score
    assert (score == 1.0) == ok


# --- record_fields: properties ------------------------------------------------------------------------------------------
KEY = st.from_regex(r"[a-z]{3,8}", fullmatch=True).filter(lambda k: k not in {"final", "draft", "first", "revised"})
VALUE = st.integers(min_value=0, max_value=500)


def _is_value_key(stem: str) -> bool:
    return stem == "value"


@settings(max_examples=60, deadline=None)
@given(VALUE, VALUE, st.sampled_from(["json", "lines", "xml"]))
def test_final_field_wins(draft, final, form):
    pairs = [("draft_value", draft), ("final_value", final)]
    body = {"json": json.dumps(dict(pairs)), "lines": "\n".join(f"{k}: {v}" for k, v in pairs),
            "xml": "".join(f"<{k}>{v}</{k}>" for k, v in pairs)}[form]
    chosen, why = committed_field(record_fields(body), _is_value_key)
    assert why == "" and str(chosen.value) == str(final)


@settings(max_examples=60, deadline=None)
@given(VALUE, VALUE)
def test_two_values_under_one_key(a, b):
    chosen, why = committed_field(record_fields(f'{{"value": {a}, "value": {b}}}'), _is_value_key)
    assert (chosen is None and why) if a != b else chosen.value == a


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(KEY, st.one_of(VALUE, st.text(alphabet="abcdefgh ", min_size=1, max_size=12).map(str.strip).filter(bool)),
                       min_size=1, max_size=5))
def test_json_record_round_trip(fields):
    parsed = record_fields(json.dumps(fields))
    assert [(f.key, f.value) for f in parsed] == list(fields.items())


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_parsers_total(text):
    record_fields(text)
    selected_rows(text)
    values_text(text)
    committed_field(record_fields(text) or [], _is_value_key)
