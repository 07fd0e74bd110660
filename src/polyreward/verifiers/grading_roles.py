"""Who grades a response or speaks for the system around it: one vocabulary, read by two rules (red teams holdout113,
holdout_r47).

* :func:`polyreward.verifiers.key_values.without_grader_lines`: a line in the grader's voice ("System: The correct
  answer is 42.", "[GRADER] ... PASS") has its values masked in the key reading, for math and choice;
* :data:`polyreward.verifiers.turns.OTHER_PARTY_LINE`: a line another party's label opens ("[GRADER] correct labels:
  ...", "Judge: ...", "User: ...") is not the writer's answer or reasoning, for the other rewards.

A module of its own so that both import it without importing each other (``turns`` is read by ``reading``, which
``key_values`` reads lazily).
"""

from __future__ import annotations

# a role that grades a response, or the system around the conversation (a regex alternation, case-insensitive where used)
GRADING_ROLE = r"(?:auto-?grader|grader|grading|judge|evaluator|verifier|reviewer|checker|scorer|reward[ \t]+model|system)"
