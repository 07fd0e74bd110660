"""The tool-call case the red-team rule tests share (``test_red_team_r4_rules.py``, ``test_red_team_r5_rules.py``):
one ``book_table`` call, its gold block, a think block written before it, and the check that one more call in any
stack's layout costs the maximum."""

from __future__ import annotations

import json

from polyreward.rewards.tool_calls import ToolRLCorrectness
from polyreward.rewards.tool_efficiency import OTCToolEfficiency

CALL = {"name": "book_table", "parameters": {"restaurant": "Chez Léon", "guests": 4}}
GOLD = "<tool_call>\n" + json.dumps(CALL, ensure_ascii=False) + "\n</tool_call>"
THINK = "<think>Four guests at Chez Léon tonight, so one book_table call with both fields.</think>\n"


def assert_an_extra_call_costs_the_maximum(extra: str) -> None:
    """The gold call then ``extra`` (another call, in some stack's layout): ToolRL's correctness pays less than its
    maximum, and OTC's efficiency with exact calls pays nothing."""
    text = THINK + GOLD + "\n" + extra
    assert ToolRLCorrectness()(completions=[text], answer=[GOLD])[0] < 3.0
    otc = OTCToolEfficiency(correctness="calls_exact")
    assert otc(completions=[text], answer=[GOLD], prompt_id=["a"]) == [0.0]
