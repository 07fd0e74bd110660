"""How the text around an answer frames it: a header that denies it or names it an example, a later clause that
takes it all back (red team ``holdout_r2``, for label lists and reports).

Reconstructed rules (ours), read on the visible text; each looks at one clause, so each is linear:

* **a header that frames the answer away** (:func:`header_frames_away`): the clause right before an answer block
  that ends in a colon (``NOT present on this film:``, ``Example of the answer format:``) and denies (a negation
  word), names the block an example (example, sample, template, placeholder, illustration, mock-up) or is written
  in another language (:func:`polyreward.verifiers.language.foreign`: ``Ausgeschlossen (nicht vorhanden):``): the
  block is what the header says it is, not the writer's answer. "Final labels:" or "Findings:" frame nothing;
* the same header opening a free-text answer (:func:`opening_header_frames_away`: "Example of a report in this
  format: ...", "Template (not a read of this study): ...", or a task, "To verify on the film: ...") frames all of it;
* **a clause that takes back everything before it** (:func:`disowns_all_before`): a quantifier over what came before
  (all, each, every, both, the above, these, them, all three) with a predicate of absence (negative, absent,
  excluded, ruled out, artifacts, spurious, normal, not present, not real): "All of the above are artifacts of
  positioning.", "— all negative."; or the writer saying they did not read the case (first person, a negation, a
  verb of looking or checking: "I did not look at the image.", "I cannot confirm any of this."). "All three are
  present on this film." and "None of these needs urgent drainage." take nothing back, nor does a predicate of absence
  only inside a bracketed aside ("All three labels are covered (the effusion as a negative)."; red team ``holdout_r52``).
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_HEADER_NEGATION = re.compile(r"\b(?:not|no|none|never|without|absent|excluded|ruled\s+out|negative|exclude[ds]?)\b|n't\b",
                              re.IGNORECASE)
_HEADER_EXAMPLE = re.compile(r"\b(?:examples?|samples?|templates?|placeholders?|illustrations?|illustrative|mock-?ups?|dummy)\b",
                             re.IGNORECASE)
_HEADER_START = re.compile(r"[.!?](?=\s)|\n\s*\n|\A")
# the quantifier is the clause's subject: it opens the clause ("All of the above are ...", "-- all negative"), after
# connectives at most; "opacities at both bases" quantifies nothing before it
_BACK_QUANTIFIER = re.compile(
    r"\A[\W_]*(?:(?:and|but|so|actually|however|in\s+fact|note)\W+)*"
    r"(?:(?:all|each|every|both)\b(?:\s+(?:of\s+)?(?:the\s+above|these|those|them|three|two|four|findings|labels|of\s+this))?"
    r"|the\s+above\b|these\s+(?:findings|labels|diagnoses)\b)", re.IGNORECASE)
_ABSENCE = re.compile(r"\b(?:negative|absent|excluded|ruled\s+out|artifacts?|artefacts?|spurious|normal|"
                      r"not\s+(?:present|real|seen|there)|fabricated|made\s+up)\b", re.IGNORECASE)
_ASIDE = re.compile(r"\([^()]*\)")
_NOT_READ = re.compile(
    r"\bI\s+(?:did\s*n[o']t|have\s*n[o']t|had\s*n[o']t|could\s*n[o']t|can\s*n[o']t|cannot|do\s*n[o']t|was\s+not|am\s+not\s+able\s+to|"
    r"was\s+unable\s+to|am\s+unable\s+to|never)\s+(?:\w+\s+)?(?:look|looked|see|seen|view|viewed|review|reviewed|examine|examined|read|"
    r"access|accessed|open|opened|inspect|inspected|confirm|verify|check|checked)\b", re.IGNORECASE)


def header_frames_away(text: str, start: int) -> str:
    """Why the header right before ``text[start:]`` (an answer block) frames the block away (module docstring), or "".
    A header is the clause that ends with a colon right before the block."""
    from polyreward.verifiers.language import foreign

    before = text[max(0, start - 200):start].rstrip()
    if not before.endswith(":"):
        return ""
    header = before[[m.end() for m in _HEADER_START.finditer(before)][-1]:].strip()
    if _HEADER_NEGATION.search(header):
        return "its header denies it"
    if _HEADER_EXAMPLE.search(header):
        return "its header names it an example"
    if foreign(header):
        return "its header is in another language"
    return ""


# a header that states a task, not a finding: "To verify on the film:", "To look for:"
_HEADER_TASK = re.compile(r"\A\W*to\s+[a-z]+\b", re.IGNORECASE)
_LEADING_HEADER = re.compile(r"\A[^.!?\n:]{1,120}:")


def opening_header_frames_away(text: str) -> str:
    """Why the header that opens ``text`` (its first clause, ending in a colon: "Example of a report in this format:",
    "To verify on the film:", "Template (not a read of this study):") frames what follows away, or "": it denies, names
    an example, states a task (``to`` and a verb) or is in another language. "FINDINGS:" or "COMPARISON:" frame
    nothing."""
    match = _LEADING_HEADER.match(text.lstrip())
    if match is None:
        return ""
    header = match.group()
    if _HEADER_TASK.match(header):
        return "its header states a task, not findings"
    return header_frames_away(header, len(header))


def disowns_all_before(clause: str) -> bool:
    """A clause that takes back everything before it (module docstring): a quantifier over it with a predicate of
    absence, or the writer saying they did not look at the case."""
    if _NOT_READ.search(clause):
        return True
    quantifier = _BACK_QUANTIFIER.match(clause)
    # the predicate is the clause's own words: a bracketed aside says something of one item ("All three labels are
    # covered (the effusion as a negative)" takes nothing back; red team holdout_r52)
    return quantifier is not None and _ABSENCE.search(_ASIDE.sub(" ", clause[quantifier.end():])) is not None
