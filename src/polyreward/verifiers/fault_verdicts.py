"""A verdict that names what an option or value gets wrong, right after it (red team holdout102).

    "- (B) has the direction wrong."            "D gets the sign backwards."          "(C) has the units reversed"

An elimination answer dismisses each distractor in its own clause; besides "(B) is wrong" (the copula, read by
:mod:`.commitment`), the writer often says what the option *has* or *gets* wrong: a verb of possession, at most two
words naming the part ("the direction", "its sign", "the units"), and a word of fault. The value or letter it
follows is denied, as "(B) is wrong" denies it; "B has nothing wrong with it" and "B has no step wrong" are no
verdict. Structural (a verb, an object of one or two words, a fault word), not a list of sentences. Reconstructed
rule (ours).
"""

from __future__ import annotations

# the verdict after the value: possession verb, a short object (never "nothing" / "no ..."), a word of fault
FAULT_AFTER = (r"\A[\s,)\]]*(?:has|have|had|gets?|got)\s+(?!(?:nothing|no|none)\b)(?:(?:the|its|their|a|an)\s+)?"
               r"(?:[^\W\d_]+[^\S\n]+){1,2}?(?:wrong|backwards?|reversed|flipped|inverted|mixed\s+up|confused)\b")
