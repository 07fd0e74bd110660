"""Radiology labels read as the findings they name (red team ``holdout_r8``), for ``jaccard``'s normalised mode.

A clinician lists a report's findings in the words clinicians use: ``effusion`` (ChestX-ray14's label name) for
``pleural effusion``, ``PTX`` for ``pneumothorax``, ``enlarged cardiac silhouette`` for ``cardiomegaly``, ``rib
fractures`` for ``fracture``, ``R pleural effusion`` for ``pleural effusion``. A predicted label that is not a gold
label is read as the gold label ``g`` when

* both are whole aliases of the same finding in the KG extractor's radiology lexicon
  (:func:`polyreward.verifiers.radiology_kg.default_lexicon`: radlabels' 49 findings and their aliases, each alias
  naming one finding), or
* it is ``g`` (or an alias of ``g``'s finding) after words that only place or size it: anatomy words of that lexicon
  (``left``, ``rib``, ``pulmonary``, ``basilar``), its size words (``small``, ``trace``) and the laterality
  abbreviations ``R`` / ``L`` / ``rt`` / ``lt`` / ``bil``.

Any other word before it (``no``, ``possible``, ``old``, ``history of``, ``pericardial``) keeps the label whole, so a
hedged, denied, dated or different finding stays an extra label; a finding the gold does not hold stays extra however
it is worded. Labels outside the lexicon (ECG diagnoses) are compared as before, but for place and size words in front
of a gold label. Reconstructed rule (ours); linear in the labels.
"""

from __future__ import annotations

from functools import lru_cache

from polyreward.verifiers.radiology_kg import default_lexicon, tokenize

LATERALITY = frozenset({"r", "l", "rt", "lt", "bil", "bilat"})
FINDING_KINDS = ("disorder", "device")


@lru_cache(maxsize=1)
def qualifier_words() -> frozenset[str]:
    """Words that only place or size a finding: the lexicon's anatomy and size words, and laterality abbreviations."""
    words = set(LATERALITY)
    for key, (kind, _) in default_lexicon().phrases.items():
        if kind in ("anatomy", "size"):
            words.update(key)
    return frozenset(words)


def finding_of(tokens: tuple[str, ...]) -> str | None:
    """The lexicon finding that ``tokens`` (:func:`tokenize`) is a whole alias of, or None."""
    hit = default_lexicon().phrases.get(tokens)
    return hit[1] if hit is not None and hit[0] in FINDING_KINDS else None


def as_gold_findings(predicted: set[str], gold: set[str]) -> set[str]:
    """``predicted`` with each label that names a gold label's finding (module docstring) read as that gold label."""
    by_tokens = {tuple(tokenize(g)): g for g in gold}
    by_finding: dict[str, str] = {}
    for tokens, g in by_tokens.items():
        if (finding := finding_of(tokens)) is not None:
            by_finding.setdefault(finding, g)
    return {label if label in gold else _gold_for(tuple(tokenize(label)), by_tokens, by_finding) or label
            for label in predicted}


def _gold_for(tokens: tuple[str, ...], by_tokens: dict[tuple[str, ...], str], by_finding: dict[str, str]) -> str | None:
    qualifiers = qualifier_words()
    for start in range(len(tokens)):
        if start and tokens[start - 1] not in qualifiers:
            return None
        rest = tokens[start:]
        if rest in by_tokens:
            return by_tokens[rest]
        if (finding := finding_of(rest)) is not None and finding in by_finding:
            return by_finding[finding]
    return None
