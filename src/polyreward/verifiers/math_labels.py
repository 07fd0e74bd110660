"""A math question answered yes or no (true or false) in words (issue #32).

"Is 221 prime?" with gold ``\\text{no}`` is answered "No. 221 = 13 × 17, so it has factors other than 1 and itself."
The math reader looks for a value: the last expression (13 × 17) or, in "..., so it is not prime", a negation. Where
the gold is itself such a label (``yes``, ``no``, ``\\text{No}``, ``True``, ``\\textbf{false}``), the completion is also
read as a label, exactly as ``choice_accuracy`` reads PubMedQA's (:func:`.label_answers.extract_label`: the deciding
place -- a box, an answer phrase, the first word --, then the later clauses that contradict, withdraw or deny it).

The label reading is used only where the math reading commits to no value of its own: no box and no answer phrase
(``No. The answer is 42.`` is read as 42, not as "no"); a label the math reading finds itself ("**No**") is compared as
a label, in any case. A label the
completion hedges between (``Yes or no``), negates (``The answer is not yes``) or takes back is no answer, as it is for
PubMedQA.

Reconstructed rule (ours). One call of the label reader: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.label_answers import extract_label
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a gold that is a label: "no", "Yes", "\\text{no}", "\\textbf{True}", "$\\text{false}$"
_LABEL_GOLD = re.compile(r"\s*\$?\s*(?:\\(?:text|textbf|mathrm|mathbf)\s*\{\s*)?(yes|no|true|false)\s*\}?\s*\$?\s*\.?\s*", re.IGNORECASE)
_PAIRS = {"yes": ("yes", "no"), "no": ("yes", "no"), "true": ("true", "false"), "false": ("true", "false")}
# where a math reading states its own value: a box or an answer phrase (answer_extraction's strong sources)
STATED_SOURCES = ("boxed", "anchor")


def label_gold(gold: str) -> str | None:
    """The label a gold is (``yes``, ``no``, ``true``, ``false``), or None when it is a value."""
    found = _LABEL_GOLD.fullmatch(gold)
    return found.group(1).lower() if found else None


def label_answer(completion: str, gold: str, prediction) -> tuple[str, str] | None:
    """(the label the completion answers with, where it was found), where ``gold`` is a label: the math reading's own
    answer when it is a label ("**No**": compared as a label, in any case), else, where the math reading (``prediction``,
    a :class:`.math_answers.Prediction` or None) stated no value of its own, the label read as PubMedQA's is; None otherwise
    (the math reading decides)."""
    wanted = label_gold(gold)
    if wanted is None:
        return None
    if prediction is not None and (own := label_gold(prediction.text)) is not None:
        return (own, prediction.source) if own in _PAIRS[wanted] else None
    if prediction is not None and prediction.source.split("+")[-1] in STATED_SOURCES:
        return None
    found, _ = extract_label(completion, _PAIRS[wanted])
    return (found, "label") if found is not None else None
