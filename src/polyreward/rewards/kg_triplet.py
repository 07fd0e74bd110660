"""``kg_triplet_consistency``: knowledge-graph consistency of a generated radiology report (CheXPO-v2).

Source: Liang et al., CheXPO-v2, arXiv 2512.17213; code ecoxial2007/CheX-Phi4MM ``plugin.py``
(``ReportKG_Jaccard``), docs/reference/algorithms.md#kg-consistency. The scoring is **exact**; the default extractor is an
offline reconstruction of ReXKG (:mod:`polyreward.verifiers.radiology_kg`)::

    reference KG from the <think>…</think> span of the reference (the whole reference if it has none);
    prediction KG from the whole completion (think + answer), as in the source
    J_E = |E_p ∩ E_g| / |E_p ∪ E_g|      (1.0 if both are empty)      E = {(entity text, label)}
    J_R = |R_p ∩ R_g| / |R_p ∪ R_g|      (1.0 if both are empty)      R = {(source, target, relation)}
    r_KG = (J_E + J_R) / 2 ∈ [0, 1]

A negated finding has a different label (disorder_notpresent), so asserting what the reference negates
is a mismatch. Sub-scores (not part of r_KG): ``hallucinated_entities`` |E_p \\ E_g|,
``hallucination_rate`` |E_p \\ E_g| / |E_p| (0 when E_p is empty), and RadGraph-style F1
(radgraph ``rewards.py``, docs/reference/algorithms.md#radgraph-f1) at the ``simple`` (entity, label), ``partial``
(+ has-relation flag) and ``complete`` (+ each relation and its target) levels, 0 when either KG has
no entity; P = |H ∩ Ref| / (|H| + 1e-10), R = |H ∩ Ref| / (|Ref| + 1e-10), F1 = 2PR / (P + R + 1e-10).

Known exploits of the source rule (kept as the default) and the guards against them:

* both graphs empty gives J_E = J_R = 1, so an empty completion scores 1.0 on every row whose reference has
  no finding the extractor knows. ``min_content_words: N`` scores 0 for a completion of fewer than N content
  words (:func:`polyreward.rewards.format.content_words`), so only a written report can earn the empty-graph 1.0;
* the prompt often lists the findings ("Present: atelectasis, cardiomegaly ..."): pasting that list earns every
  entity without writing a report. ``drop_prompt_lines: true`` removes the completion's lines copied from the
  prompt before extraction (and before the content-word count): a line that also occurs in the prompt (stripped,
  case-folded), or a line of 3 or more words all of which are the prompt's (the list reworded, "Findings:
  cardiomegaly, atelectasis"; a status word such as ``none`` does not count, so ``Pleural effusion: none.`` is a
  report's line: red team ``holdout_r30``), so a pasted list yields no graph. A report's own sentences use words the prompt
  does not ("heart", "enlarged", "small", "right").

* a reference whose graph is empty (a blank or junk reference: the extractor knows none of its findings) cannot
  tell a report from a non-report: every text without a known finding (" is not the answer.") scores 1.0 there.
  ``empty_reference: skip`` scores such a row NaN ("nothing to compare with"; a combiner leaves it out) instead of
  the source's 1.0 (``empty_reference: score``, the default).

* the source's extractor keeps one label per finding (the last mention wins), so a report may state a finding
  both ways ("No pneumothorax. ... pneumothorax") at no cost. ``contradictions: keep`` (lexicon extractor) keeps
  every label a finding is given, so a report that contradicts itself no longer matches a reference that does not;
  it also reads one-word sentences, which ReXKG's preprocessing skips (``No pneumothorax. Pneumothorax.`` states the
  finding both ways; ``Cardiomegaly.`` names a finding: red team ``holdout_r7``).

Reading (always, not in the source: the project's one reading of a completion,
:func:`polyreward.verifiers.reading.visible_text`): the report is the text a reader sees — look-alike letters and
zero-width characters normalised ("Νο pneumοthοrax" in Greek letters is "No pneumothorax", a finding the
extractor must see), HTML and LaTeX comments, code fences and block quotes left out (text a reader does not see
is not part of the report, so a finding cannot hide there). After an explicit retraction ("that is wrong",
"scratch that", "I made a mistake": :func:`polyreward.verifiers.commitment.retraction_opening`: a retraction
that opens a clause, so "after correction for rotation" inside a sentence takes nothing back) in the text after
the last ``</think>``, the report is what follows it, and nothing following is no report (0.0); after a pause
("Wait, this is incorrect; the answer is ...", "Hmm") the report is what follows when a finding follows, else
the whole text (a pause withdraws nothing by itself). A report that denies itself (:mod:`polyreward.verifiers.denial`)
is read by the same rule: after the last clause that disowns the text before it ("? Wrong.", "-- that's false.",
"is not the answer.") or the last sentence that denies its own subject ("... cannot be right.", "... is wrong."),
the report is what follows; a report whose first sentence wraps a denial around an embedded sentence ("The answer is
not No pneumothorax.", "This is never No pneumothorax.", "It is anything but 1. No pneumothorax. 2. ...") is no
report (its reasoning included), since the denial's complement is the report; such a sentence further on is left
out (it states nothing). A denial of a negative finding inside a sentence ("not no pneumothorax") states nothing
either: the extractor leaves the finding out (:mod:`polyreward.verifiers.radiology_kg`), so it matches neither the
negative reference nor the positive one. A report's request section (``INDICATION:``, ``CLINICAL HISTORY:``,
``Reason for exam:``) states why the study was ordered, not what it shows, and is left unread in the completion and
the reference alike (:func:`without_request_sections`; red team ``holdout_r28``: ``rule out pneumothorax`` there read
as a pneumothorax present), and so is its comparison section (``COMPARISON:``, ``PRIOR STUDIES:``: the earlier study;
red team ``holdout_r30``). A change since the prior study stated in another word or inflection is one change
(``unchanged`` is ``stable``: :func:`with_one_word_per_change`), and a side written as its capital initial is the
side (``R pleural effusion``: :func:`with_sides_spelled`). A finding named bare at a sentence's start whose status is written in another language
("Cardiomegaly — ni hablar, ...", "Cardiomegaly：无", "Cardiomegaly? Tu parles !") states nothing the English lexicon can
read and is left out (:func:`without_foreign_statuses`; red team ``holdout_r29``). A report written as one structure
after the reasoning (:func:`structured_report`; red team ``holdout_r46``) is what its fields commit to
(:mod:`polyreward.verifiers.record_fields`): a table whose selecting column keeps some sentences (``| sentence | keep
|``) is the sentences it keeps; a record's report fields (``findings``, ``report``, ``impression``; a final field
over a draft one, ``<draft>...</draft><final>...</final>`` reads the final) are the report, and a field that
withdraws it (``"status": "example template only"``), a confidence graded low or two reports that differ under one
key leave no report (0.0).

The extractor is linear in the report: each mention looks only at the candidates inside its token window.

``extractor``: ``lexicon`` (default, offline), ``"package.module:function"`` (any callable
``text -> ReportKG | (entities, triplets)``), a local Hugging Face token-classification model folder
(entities only, labels mapped from the model's ``id2label``; no relations), or, from Python, a callable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.rewards.format import check_min_content, content_words
from polyreward.schema import is_missing, prompt_text
from polyreward.vocabulary import import_callable
from polyreward.verifiers.voices import credited_lead_in, reported_by_another
from polyreward.verifiers.commitment import retraction_opening
from polyreward.verifiers.framing import opening_header_frames_away
from polyreward.verifiers.denial import disowns_text_before, lead_denials, questions, sentence_spans, tail_denials, without_denied
from polyreward.verifiers.doubt_words import MAYBE_WORDS, OR_WORDS
from polyreward.verifiers.hedging import MODAL_WORDS
from polyreward.verifiers.radiology_kg import UNCERTAIN_AS, ReportKG, extract_kg
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.sections import without_inline_asides
from polyreward.verifiers.record_fields import committed_field, heading_stage, record_fields, selected_rows, stage
from polyreward.verifiers.stand_ins import REMARK_CHARS, disowning_remark
from polyreward.verifiers.tool_calls import without_html_comments, without_tool_results
from polyreward.verifiers.turns import invented_case_start, without_other_party_lines
from polyreward.verifiers.tags import first_block

EMPTY_REFERENCE = ("score", "skip")
CONTRADICTIONS = ("last", "keep")
_CALLABLE_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
_RADGRAPH_LABELS = {"anat-dp": "anatomy", "obs-dp": "disorder_present", "obs-da": "disorder_notpresent", "obs-u": "disorder_present"}


def set_jaccard(a: Iterable[Any], b: Iterable[Any]) -> float:
    """|A ∩ B| / |A ∪ B| with 1.0 for two empty sets (CheXPO-v2 convention)."""
    a, b = set(a), set(b)
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def radgraph_f1(hyp: ReportKG, ref: ReportKG) -> dict[str, float]:
    """RadGraph reward levels simple / partial / complete (F1 only); 0 when either KG has no entity."""
    if not hyp.entities or not ref.entities:
        return {"radgraph_simple": 0.0, "radgraph_partial": 0.0, "radgraph_complete": 0.0}

    def levels(kg: ReportKG) -> tuple[set, set, set]:
        outgoing: dict[str, list[tuple[str, str]]] = {}
        for source, target, relation in kg.triplets:
            outgoing.setdefault(source, []).append((relation, target))
        simple, partial, complete = set(), set(), set()
        for text, label in kg.entities:
            simple.add((text, label))
            rels = outgoing.get(text)
            partial.add((text, label, True) if rels else (text, label))
            if rels:
                complete.update((text.lower(), label, rel, target.lower()) for rel, target in rels)
            else:
                complete.add((text, label))
        return simple, partial, complete

    out = {}
    for name, h, r in zip(("radgraph_simple", "radgraph_partial", "radgraph_complete"), levels(hyp), levels(ref)):
        inter = len(h & r)
        p, rc = inter / (len(h) + 1e-10), inter / (len(r) + 1e-10)
        out[name] = 2 * p * rc / (p + rc + 1e-10)
    return out


_LINE_WORD = re.compile(r"[a-z0-9]+")
COPIED_LINE_WORDS = 3
# the status words of a report's label-status template ("Pleural effusion: none.", "Pneumothorax: absent.", which the
# extractor reads): a finding with its status is one item, not a list (red team holdout_r30)
_STATUS_WORDS = frozenset("present absent none negative positive yes no uncertain".split())


def own_case_report(report: str, prompt: Any) -> str:
    """``report`` up to a made-up next case written after it (red team ``holdout_r50``): a line that opens a case of
    the task's shape that is not the prompt's (:func:`polyreward.verifiers.turns.invented_case_start`: "Case 2:" then
    another findings list and its report, the prompt's instruction again with other findings) reports another patient,
    so its findings are neither this report's nor hallucinated in it. A heading the report opens with ("Report: The
    heart is enlarged.") is the report's own: only a case opened after some report text ends it.

    >>> own_case_report("The heart is enlarged.\\n\\nCase 2:\\nPresent: atelectasis", "Present: cardiomegaly")
    'The heart is enlarged.\\n\\n'
    """
    try:
        text = prompt_text(prompt)
    except (TypeError, ValueError):
        return report
    case = invented_case_start(visible_text(text), report)  # (the report is visible text: the prompt read alike)
    return report[:case] if case is not None and report[:case].strip() else report


def without_prompt_lines(completion: str, prompt: Any) -> str:
    """``completion`` without the lines copied from the prompt: a line that also occurs in it (stripped and
    case-folded), or one of at least ``COPIED_LINE_WORDS`` words besides status words that are all the prompt's
    words (its label list reworded: "Findings: cardiomegaly, atelectasis, pleural effusion"). A status word does not
    count: "Pleural effusion: none." is one finding in the label-status template of a report, which a prompt that
    writes "Absent: pleural effusion" and "Uncertain: none" would otherwise take for its list (red team
    ``holdout_r30``), while "Present: cardiomegaly, pleural effusion; Absent: pneumothorax." is still the list."""
    try:
        text = prompt_text(prompt)
    except (TypeError, ValueError):
        return completion
    seen = {line.strip().casefold() for line in text.splitlines() if line.strip()}
    vocabulary = set(_LINE_WORD.findall(text.casefold()))

    def copied(line: str) -> bool:
        words = set(_LINE_WORD.findall(line.casefold()))
        return line.strip().casefold() in seen or (len(words - _STATUS_WORDS) >= COPIED_LINE_WORDS and words <= vocabulary)

    return "\n".join(line for line in completion.splitlines() if not copied(line))


# a clause opens after a clause end and the run of spaces and punctuation that follows it: one match per run, so a
# flood of "!!!!" is read once (linear), not once per character
_CLAUSE_START = re.compile(r"(?:\A|[.!?;>\n])[\s,.;:!?\-–—*>]*")
_FINDING_LABELS = ("disorder", "devices", "obs")  # a finding, not an anatomy or size word ("the costophrenic angles")


def read_report(completion: str, extractor: Callable[[str], Any] | None = None) -> str:
    """The report a reader sees (module docstring, Reading): the visible text; after a retraction in the text after
    the last ``</think>``, only what follows it when the retraction is explicit, or when it is a pause ("Wait, this
    is incorrect; ...") followed by a finding (``extractor`` finds a disorder or device there)."""
    # an HTML comment is dropped without a trace: the shared reading keeps a worded comment after the writer's words
    # as a caveat in parentheses (it can only lower a math or choice answer), but a report's words are its findings,
    # so a comment's would be findings a reader never sees ("No acute findings. <!-- Large right pneumothorax. -->")
    # a tool's result and a line another party's label opens ("[GRADER] reference report: ...") are not the writer's
    # report (holdout_r47)
    text = visible_text(without_tool_results(without_other_party_lines(without_html_comments(completion))), code=False)
    closing = text.lower().rfind("</think>")
    answer_start = closing + len("</think>") if closing >= 0 else 0
    for clause in reversed(list(_CLAUSE_START.finditer(text, answer_start))):
        retraction = retraction_opening(text, clause.end())
        if retraction is None:
            continue  # "after correction for rotation": a word inside a sentence takes nothing back
        rest = text[retraction[0]:]
        if retraction[1] or (extractor is not None and any(label.startswith(_FINDING_LABELS) for _, label in _as_kg(extractor(rest)).entities)):
            return _undenied(rest)
        break
    answer = without_other_voices(_undenied(text[answer_start:]))
    if not answer.strip() and text[answer_start:].strip():
        return ""  # the answer disowns itself: the reasoning before it is no report either
    if opening_header_frames_away(text[answer_start:]):
        return ""  # "Example of a report in this format: ...", "To verify on the film: ..." (red team holdout_r2)
    return text[:answer_start] + answer


# a section heading on a line of its own before a structured report ("FINDINGS:")
_HEADING_LINE = re.compile(r"\A\s*[A-Za-z][A-Za-z ]{0,30}:[ \t]*\n")
# the keys of a record's report fields: the report's sections
_REPORT_KEY = re.compile(r"(?:^|_)(?:findings?|reports?|impressions?|text|body|sentences?)(?:_|$)")


def structured_report(report: str) -> str:
    """``report`` with its answer (the text after the last ``</think>``) read by its fields when it is wholly one
    structure (module docstring, red team ``holdout_r46``): the kept sentences of a table with a selecting column, or
    a record's committed report field, its ``impression`` added; "" when the structure withdraws the report; the
    report unchanged when its answer is no structure or names no report field."""
    closing = report.lower().rfind("</think>")
    head, answer = (report[:closing + 8], report[closing + 8:]) if closing >= 0 else ("", report)
    heading = _HEADING_LINE.match(answer)
    body = answer[heading.end():] if heading else answer
    if "|" in body and (rows := selected_rows(body)) is not None:
        return head + " ".join(row[0] for row in rows if row)
    fields = record_fields(body) if any(ch in body for ch in "{<:") else None
    if fields is None:
        return report
    sections = [f for f in fields if not f.key.startswith("impression")]  # the impression sums the findings up
    chosen, why = committed_field(sections, lambda key_stem: bool(_REPORT_KEY.search(key_stem)))
    if why:
        return head
    if chosen is None:
        return report
    impressions = [f for f in fields if f.key.startswith("impression") and stage(f) != "draft" and isinstance(f.value, str)]
    return head + " ".join(_report_text(f.value) for f in [chosen, *impressions])


def _report_text(value: object) -> str:
    """A report field's text: a string, or a list's items as sentences."""
    if isinstance(value, list):
        return " ".join(str(item).strip() for item in value)
    return str(value).strip()


_HEADED_LINE = re.compile(r"(?m)^[ \t]*(?P<head>[^:\n]{3,60}:)[^\n]*")


def without_other_voices(report: str) -> str:
    """``report`` without what another voice says in it (red team ``holdout_r42``): a sentence whose subject is another
    agent with a verb of reporting ("The referring physician asked about pneumonia.", "(The auto-generated draft called
    the effusion right-sided; it is left-sided.)": :func:`.voices.reported_by_another`) and a line headed by another
    voice's report ("Another model's report: \"There is consolidation ...\"": :func:`.voices.credited_lead_in`). Their
    findings are that voice's, not the writer's; the writer's own sentences stay ("I agree with the resident's
    preliminary read. There is consolidation ...")."""
    spans = [span for span in sentence_spans(report) if reported_by_another(report[span[0]:span[1]])]
    spans += [m.span() for m in _HEADED_LINE.finditer(report) if credited_lead_in(m.group("head"))]
    return without_denied(report, sorted(set(spans))) if spans else report


def without_superseded_drafts(report: str) -> str:
    """``report`` without the lines headed as a draft (a preliminary read, an agent's draft) when a line headed final
    comes after them (red team ``holdout_r58``): "Resident preliminary read: possible atelectasis at the right
    base.\nAttending final: Right lower lobe consolidation. ..." is the attending's final report, and "Draft (agent 1):
    ... consolidation ...\nCritic (agent 2): rejected.\nFinal: The lungs are clear." the clear lungs. A heading's stage
    is read as a structure's key is (:func:`.record_fields.heading_stage`); a draft with no final after it, and lines
    headed by neither ("Reader A:", "Reader B:"), are read as written. A draft's line runs to the next headed line."""
    heads = list(_HEADED_LINE.finditer(report))
    stages = [heading_stage(head.group("head")) for head in heads]
    if "final" not in stages:
        return report
    last_final = len(stages) - 1 - stages[::-1].index("final")
    drafts = [(head.start(), heads[i + 1].start()) for i, head in enumerate(heads[:last_final]) if stages[i] == "draft"]
    return without_denied(report, drafts) if drafts else report


# a statement made both ways at once: "may or may not be", "is or is not", "whether or not", "with or without"
_BOTH_WAYS = re.compile(r"\b(may|might|could|can|is|are|was|were|does|do|will|would)\s+or\s+\1\s*(?:not\b|n't\b)"
                        r"|\b(?:whether|present|there|seen)\s+or\s+not\b|\bwith\s+or\s+without\b", re.IGNORECASE)
# ... and a statement with its opposite as a tag closing the clause: "Small left pneumothorax (or not).", "..., or maybe
# not.", "No rib fracture (o quizás sí)." (red team holdout_r22): "or" in the languages a policy switches to, an optional
# adverb of possibility, then a bare yes or no word and nothing more before the clause ends ("or" right after a comma,
# a bracket or a space, read by a look-behind: a leading "\s*" was rescanned from each position of a long blank run)
_POLARITY_WORD = r"(?:not|no|yes|s[ií]|s[iì]|nicht|nein|ja|doch|pas|oui|non|não|sim|нет|да)"
_OR_OPPOSITE = re.compile(r"(?<=[,(\s])(?:" + OR_WORDS + r")\s+(?:(?:" + MODAL_WORDS + "|" + MAYBE_WORDS + r")\s+)?"
                          + _POLARITY_WORD + r"(?!\w)\s*+\)?\s*+(?=[.;!?\n]|\Z)", re.IGNORECASE)


def without_both_ways(report: str) -> str:
    """The report without its sentences that state a finding both ways ("Cardiomegaly may or may not be present."):
    such a sentence commits to neither status, so it states nothing, as a denied negative finding states nothing
    (module docstring). ReXKG reads the hedge as uncertain, which ``uncertain_as: present`` pays as the finding
    itself: a report hedging every finding both ways scored as the committed one (the genuine sweep's exploit,
    ``benchmarks/other_rewards_genuine_sweep.py``). So does a sentence whose statement is followed by its opposite as a
    tag, "or not" / "or maybe yes" in any language the doubt tables list (``Small pneumothorax (or not).``, ``No rib
    fracture is seen (o quizás sí).``; red team ``holdout_r22``): the writer claims the finding and its absence."""
    if not (_BOTH_WAYS.search(report) or _OR_OPPOSITE.search(report)):
        return report
    return without_denied(report, [span for span in sentence_spans(report)
                                   if _BOTH_WAYS.search(report[span[0]:span[1]]) or _OR_OPPOSITE.search(report[span[0]:span[1]])])


# (red team holdout_r44) a sentence that promises the report instead of giving it: a future "will" / "shall" / "'ll"
# of a verb of reporting, with no subject or the writer's, after a section heading or none ("FINDINGS: Will describe
# right lower lobe consolidation ... once the lateral film is available.", "I'll report the effusion after the CT.")
_PROMISED = re.compile(r"\A[\s*_#>-]*(?:[A-Z][A-Z ]{2,30}:\s*)?(?:(?:I|we)\s*)?(?:will|shall|['’]ll)\s+(?:then\s+|also\s+)?"
                       r"(?:describe|report|dictate|document|comment\s+on|list|note|mention|include|write\s+up|add)\b", re.IGNORECASE)


def without_promised(report: str) -> str:
    """The report without its sentences that promise a statement for later (:data:`_PROMISED`): "Will describe right
    lower lobe consolidation once the lateral film is available." states no finding now, so a report made only of
    such sentences states none (red team ``holdout_r44``). A finding in the future of the patient ("The effusion will
    likely need drainage.") or a plan ("Will follow up with CT.") is no promise of a report and stays."""
    spans = [span for span in sentence_spans(report) if _PROMISED.match(report[span[0]:span[1]])]
    return without_denied(report, spans) if spans else report


# a clause that may disown the text before it; a single line break is a hard wrap inside a sentence, not an end
_DISOWNING_CLAUSE_END = re.compile(r"[.!?;]|:(?=\s)|\n[^\S\n]*\n|\s-{1,2}\s|[\u2013\u2014]")  # ("Disregard everything above: ..."; holdout_r34)
_LETTER = re.compile(r"[A-Za-z]")


def _undenied(report: str) -> str:
    """The report without what it denies of itself (module docstring, Reading): after the last clause that
    disowns the text before it ("? Wrong.", "is not the answer.") or the last sentence that denies its own subject
    ("<report> cannot be right."), only what follows; nothing when its first sentence opens with a denial of an
    embedded sentence ("The answer is not <report>"); else without the sentences that open so
    (:mod:`polyreward.verifiers.denial`)."""
    cut = -1
    start = 0
    for clause in _DISOWNING_CLAUSE_END.finditer(report):
        if disowns_text_before(report[start:clause.start()]):
            cut = clause.end()
        start = clause.end()
    if disowns_text_before(report[start:]):
        return ""
    tails = tail_denials(report)
    if tails:
        cut = max(cut, tails[-1][1])
    if cut >= 0:
        report = report[cut:]
    asked = questions(report)  # "Is the heart enlarged?" states nothing (red team holdout_r1)
    if asked:
        report = without_denied(report, asked)
    leads = lead_denials(report)
    if not leads:
        return report
    first = next((span for span in sentence_spans(report) if _LETTER.search(report, *span)), None)
    if first is not None and leads[0][0] <= first[0]:
        return ""
    return without_denied(report, leads)


# the header of a report's request section: why the study was ordered, not what it shows ("INDICATION:", "Clinical
# history:", "**Reason for exam:**", "## CLINICAL INFORMATION:"), at a line's start; and of its comparison section,
# the earlier study this one is read against ("COMPARISON:", "Prior studies:"; red team holdout_r30)
_REQUEST_HEADER = re.compile(
    r"(?im)^[ \t]*(?:[#>*\-\u2022]+[ \t]*)?(?:\*\*|__)?(?:(?:clinical[ \t]+)?(?:indications?|history)"
    r"|comparisons?(?:[ \t]+(?:stud(?:y|ies)|exams?|examinations?))?"
    r"|prior[ \t]+(?:stud(?:y|ies)|exams?|examinations?|imaging)"
    r"|clinical[ \t]+(?:information|details|data|question|notes?)"
    r"|reason[ \t]+for[ \t]+(?:the[ \t]+)?(?:exam(?:ination)?|study|referral|request|imaging))"
    r"[ \t]*(?:\*\*|__)?[ \t]*:(?:\*\*|__)?")
_COMPARISON_HEADER = re.compile(r"(?i)comparison|prior")
# red team holdout_r38: a comparison section whose clause says what has changed since the earlier study ("the
# effusion has since resolved", "is no longer seen") states the current study's status: it is read. A nominal phrase
# ("Interval resolution of the effusion") may be a line of the earlier study's own report and stays unread
# (holdout_r30's property: a comparison section changes no graph of the findings)
_CURRENT_CHANGE = re.compile(
    r"(?i)\b(?:ha(?:s|ve)\s+(?:since\s+|now\s+|completely\s+)?(?:resolved|cleared|disappeared|improved|worsened|increased|"
    r"decreased|developed)|no\s+longer\s+(?:seen|present|visible|evident|identified))\b")
# where a section that shares its line with the rest ends: its first sentence's end, a closing quote included
# ("INDICATION: r/o PTX. FINDINGS: ...", 'HISTORY: "Cough, rule out pneumonia." The heart ...')
_SENTENCE_END = re.compile(r"[.!?][\"”'’)\]]*(?=\s|$)")
_LABEL_LINE = re.compile(r"^[ \t]*(?:[#>*\-\u2022]+[ \t]*)?(?:\*\*|__)?[A-Za-z][A-Za-z /&-]{0,40}(?:\*\*|__)?[ \t]*:")


# a sentence of the report: up to a sentence end of any script (. ! ? and the CJK, Devanagari and Arabic forms) or a
# line break; a label at its start, then a separator (a colon, a dash, a comma, of either width) or a letter of another
# script right after it ("Pleural effusion は認めません"), then the status; or a label alone before ? or ! (its status
# is the next sentence: "Cardiomegaly? Tu parles !")
_REPORT_SENTENCE = re.compile(r"[^.!?\n\u3002\uff01\uff1f\u0964\u061f]+(?:[.!?\u3002\uff01\uff1f\u0964\u061f]+|\n+|$)|\n+")
_LEAD_LABEL = re.compile(r"[ \t]*([A-Za-z][A-Za-z -]{0,40}?)[ \t]*(?:[:\uff1a\u2014\u2013,\uff0c\u3001][ \t]*|[ \t]-[ \t]*|(?=[^\x00-\x7f\s]))(.*)", re.DOTALL)
_ASKED_LABEL = re.compile(r"[ \t]*([A-Za-z][A-Za-z -]{0,40}?)[ \t]*[?!\uff01\uff1f]+\s*")
_FOREIGN_MIN = 12  # Latin letters a status needs before the language detector is asked (language.FOREIGN_MIN_LETTERS)


def _bare_finding(label: str) -> bool:
    """Whether ``label`` is a finding's name and nothing else: every word a finding, a place or a size of the lexicon
    ("Cardiomegaly", "Right lower lobe consolidation"), no verb or article that would state a status in English ("The
    heart is enlarged")."""
    from polyreward.verifiers.radiology_kg import default_lexicon, lexicon_spans, tokenize

    tokens = tokenize(label)
    spans = lexicon_spans(tokens, default_lexicon())
    if not tokens or not any(span[2] == "phrase" and span[3] in ("disorder", "device") for span in spans):
        return False
    covered = {i for span in spans if span[2] == "phrase" for i in range(span[0], span[1])}
    return len(covered) == len(tokens)


def without_foreign_statuses(report: str) -> str:
    """``report`` without the findings whose status is written in another language: a finding named bare at a
    sentence's start (:func:`_bare_finding`) whose status, the rest of that sentence (or the next sentences after a
    bare "Cardiomegaly?", up to one that names a finding or a place), the language detector gives to another language
    (:func:`polyreward.verifiers.language.foreign`). The lexicon reads English cues only, so it read "Cardiomegaly —
    ni hablar, el corazón es de tamaño normal.", "Cardiomegaly：无", "Pleural effusion: Fehlanzeige, die Randwinkel sind
    frei." as the finding present (red team ``holdout_r29``); such a sentence states nothing the reader can read and is
    left out, so the finding matches neither a present nor an absent reference, as a "Label: status" of words the
    lexicon does not know (``Cardiomegaly: nein.``, :mod:`polyreward.verifiers.radiology_kg`). A finding stated in
    English with a comment in another language after it ("The heart is enlarged — sin duda.") keeps its English
    status."""
    if report.isascii() and not any(mark in report for mark in ":-,?!"):
        return report
    from polyreward.verifiers.language import foreign

    pieces = [m.group() for m in _REPORT_SENTENCE.finditer(report) if m.group()]
    keep = [True] * len(pieces)
    for i, piece in enumerate(pieces):
        asked = _ASKED_LABEL.fullmatch(piece)
        lead = None if asked else _LEAD_LABEL.match(piece)
        label = asked.group(1) if asked else lead.group(1) if lead else None
        if label is None or not _bare_finding(label):
            continue
        status, j = ("" if asked else lead.group(2)), i + 1
        while j < len(pieces) and j <= i + 2 and (asked or (status.isascii() and sum(c.isalpha() for c in status) < _FOREIGN_MIN)) \
                and not _names_any_finding(pieces[j]):
            status, j = status + " " + pieces[j], j + 1
            asked = None
        if status.strip() and foreign(status):
            keep[i:j] = [False] * (j - i)
    return "".join(piece if kept else ("\n" if piece.endswith("\n") else " ") for piece, kept in zip(pieces, keep))


def disowned_report(report: str) -> str:
    """The class of a remark of ``report`` that makes it a stand-in or hands it over (red team ``holdout_r36``:
    "(Template wording only -- the reporting radiologist will replace it.)", "以上为报告模板示例，正式结论由主治医师填写。",
    "Escrevi isso só porque o formato pedia alguma coisa"), or "": read on the sentences after the last ``</think>``
    that name no finding or place (:func:`_names_any_finding`), so a finding's own sentence ("Tube tip 2 cm above the
    carina, for example") is never read as a remark (:func:`polyreward.verifiers.stand_ins.disowning_remark`)."""
    closing = report.lower().rfind("</think>")
    answer = report[closing + len("</think>"):] if closing >= 0 else report
    remarks, length = [], 0
    for m in _REPORT_SENTENCE.finditer(answer):
        if not m.group().strip():
            continue
        # a finding's sentence lends its remark clauses, those after a ';' or a ', though' that name no finding
        # ("There may be a right apical pneumothorax, though I'd put it at less than even odds; a skin fold is
        # likelier.": red team holdout_r39); the finding's own clause is never read as a remark
        pieces = _AFTERTHOUGHT.split(m.group())[1:] if _names_any_finding(m.group()) else [m.group()]
        for piece in pieces:
            if piece.strip() and not _names_any_finding(piece):
                remarks.append(piece)
                length += len(piece) + 1
        if length > REMARK_CHARS:  # (speed) the remark reader reads no further
            break
    return disowning_remark("\n".join(remarks))


# where a finding's sentence turns to a remark about it: a semicolon, or a comma before "though" / "although" / "but"
_AFTERTHOUGHT = re.compile(r";|,\s*(?=(?:though|although|but)\b)", re.IGNORECASE)


def _names_any_finding(text: str) -> bool:
    """Whether ``text`` names a finding or a place of the lexicon: a sentence of the report, not the status before it."""
    from polyreward.verifiers.radiology_kg import default_lexicon, lexicon_spans, tokenize

    return any(span[2] == "phrase" and span[3] in ("disorder", "device", "anatomy")
               for span in lexicon_spans(tokenize(text), default_lexicon()))


def without_request_sections(report: str) -> str:
    """``report`` without its request sections (red team ``holdout_r28``): the INDICATION / CLINICAL HISTORY / REASON
    FOR EXAM section states why the study was ordered ("Shortness of breath, rule out pneumothorax."), the question
    the report answers, not a finding of the study, so its findings are not the report's (a radiologist's FINDINGS and
    IMPRESSION are). So does the COMPARISON / PRIOR STUDIES section: it names the earlier study this one is read
    against ("COMPARISON: 01/12."), and a finding stated there is the earlier study's ("COMPARISON: Prior study showed
    right lower lobe consolidation.", then no word of it in the findings: red team ``holdout_r30``); a change since
    that study is reported in the findings ("Interval resolution of the effusion."), which are read, and so is a
    comparison section that reports one ("COMPARISON: ... the cardiomegaly has since resolved.": today's status, red
    team ``holdout_r38``). A section runs from its header to its first sentence's end on that line (the rest of the line is
    read: ``History: chest pain. The heart is enlarged.``); a header alone on its line takes the lines under it up to
    a blank line or another label's line. Every
    other section, prose without headers included, is read as before. Linear: one pass over the headers."""
    if ":" not in report or _REQUEST_HEADER.search(report) is None:
        return report
    parts, position = [], 0
    for header in _REQUEST_HEADER.finditer(report):
        if header.start() < position:
            continue
        line_end = report.find("\n", header.end())
        line_end = len(report) if line_end < 0 else line_end
        end = line_end
        if not report[header.end():line_end].strip():  # "CLINICAL HISTORY:" alone: the lines under it
            while end < len(report):
                following = report.find("\n", end + 1)
                following = len(report) if following < 0 else following
                line = report[end + 1:following]
                if not line.strip() or _LABEL_LINE.match(line):
                    break
                end = following
        else:  # its first sentence: "History: chest pain. The heart is enlarged." reports after the history
            stop = _SENTENCE_END.search(report, header.end(), line_end)
            end = stop.end() if stop is not None else line_end
        if _COMPARISON_HEADER.search(header.group()) and _CURRENT_CHANGE.search(report, header.end(), end):
            continue  # "COMPARISON: ... the cardiomegaly and pulmonary edema have since resolved.": today's status, read
        parts.append(report[position:header.start()])
        position = end
    return "".join(parts) + report[position:]


# (red team holdout_r53) a clause that states its findings of the earlier study, in the past: "Right lower lobe
# consolidation was seen on the prior study of 2023-08-30", "The previous radiograph showed cardiomegaly"
_PRIOR_STUDY = r"(?:prior|previous|earlier|preceding|last|comparison|old)[ \t]+(?:stud(?:y|ies)|films?|radiographs?|exams?|examinations?|ct|cxr|x-?rays?|imaging|reports?)"
_OF_PRIOR_STUDY = re.compile(
    r"(?i)\b(?:was|were)[ \t]+(?:\w+[ \t]+)?(?:seen|noted|present|identified|demonstrated|shown|described|visible|reported|evident)"
    r"[ \t]+(?:on|in)[ \t]+(?:the[ \t]+|a[ \t]+)?" + _PRIOR_STUDY + r"\b"
    r"|\A[ \t]*(?:the[ \t]+|a[ \t]+)?" + _PRIOR_STUDY + r"\b[^,;]{0,40}?\b(?:showed|demonstrated|described|revealed|had)\b")
# a word that states the finding now as well ("..., as was seen on the prior study, is unchanged")
_NOW_TOO = re.compile(r"(?i)\b(?:is|are|has|have|remains?|persists?|again|now|still|currently|today|unchanged|stable)\b")
_CLAUSE_END = re.compile(r"[.;](?=\s|$)|\n")


def without_prior_study_clauses(report: str) -> str:
    """``report`` without its clauses that state findings of the earlier study in the past tense (red team
    ``holdout_r53``): "Right lower lobe consolidation was seen on the prior study of 2023-08-30; it is no longer
    present." reports no consolidation today, and "The previous radiograph showed cardiomegaly." is that radiograph's
    finding, as the COMPARISON section's is (:func:`without_request_sections`). A clause that states the finding now as
    well is read ("The effusion, as was seen on the prior study, is unchanged."). Clauses end at ``.`` ``;`` or a line."""
    if "prior" not in report.lower() and "previous" not in report.lower() and "earlier" not in report.lower() \
            and "comparison" not in report.lower() and "preceding" not in report.lower():
        return report
    out, start = [], 0
    for end in [m.end() for m in _CLAUSE_END.finditer(report)] + [len(report)]:
        clause = report[start:end]
        if _OF_PRIOR_STUDY.search(clause.strip()) and not _NOW_TOO.search(clause):
            out.append(" " * (len(clause) - 1) + clause[-1:] if clause else clause)
        else:
            out.append(clause)
        start = end
    return "".join(out)


# the lexicon's change concepts that state one change in another word or inflection -> the one word each is compared
# as ("Cardiomegaly is unchanged." and "Stable cardiomegaly." say the same of the heart since the prior study; red
# team holdout_r30); the others ("new", "persistent", "residual", "resolving", "enlarging") are their own
CHANGE_WORDS = {"unchanged": "stable", "increasing": "increased", "decreasing": "decreased", "worsening": "worsened",
                "worse": "worsened", "improving": "improved"}
# a concept that names the time between the studies, not a change ("Interval resolution of the effusion" is "The
# effusion has resolved"; "interval increase" is the increase): left out of the compared graph
TIME_WORDS = frozenset({"interval"})


def with_one_word_per_change(kg: ReportKG) -> ReportKG:
    """``kg`` with each change concept (label ``concept``) and its ``modify`` triplets under one word per change
    (:data:`CHANGE_WORDS`) and without the concepts that name only the time between the studies (:data:`TIME_WORDS`),
    in the completion's and the reference's graph alike; a graph without one unchanged."""
    concepts = {text for text, label in kg.entities if label == "concept"}
    renamed, timed = concepts & CHANGE_WORDS.keys(), concepts & TIME_WORDS
    if not renamed and not timed:
        return kg
    return ReportKG(
        frozenset((CHANGE_WORDS[text] if text in renamed and label == "concept" else text, label)
                  for text, label in kg.entities if not (text in timed and label == "concept")),
        frozenset((CHANGE_WORDS[source] if source in renamed and relation == "modify" else source, target, relation)
                  for source, target, relation in kg.triplets if not (source in timed and relation == "modify")))


# a side written as its capital initial before a word of the report ("R pleural effusion", "L basilar atelectasis"):
# a capital R or L standing alone, then a blank and a small letter (not "R/O", "L5", "2 L oxygen", "ROI")
_SIDE_INITIAL = re.compile(r"(?<![\w'’./-])(?<!\d )([RL])(?=[ \t]+[a-z])")


def with_sides_spelled(report: str) -> str:
    """``report`` with each side written as its capital initial spelled out (``R pleural effusion`` -> ``right pleural
    effusion``), in the completion and the reference alike: the terse reports of a small model write the side so,
    and the extractor knows ``right`` and ``left`` only (red team ``holdout_r30``). ``R/O`` (rule out), a capital
    inside a word or a number and one after a number (``2 L`` of oxygen) are left as they are."""
    if "R" not in report and "L" not in report:
        return report
    return _SIDE_INITIAL.sub(lambda m: "right" if m.group(1) == "R" else "left", report)


def _as_kg(value: Any) -> ReportKG:
    if isinstance(value, ReportKG):
        return value
    entities, triplets = value
    return ReportKG(frozenset((str(t), str(l)) for t, l in entities), frozenset((str(s), str(t), str(r)) for s, t, r in triplets))


class TokenClassificationExtractor:
    """Entities from a LOCAL transformers token-classification model folder (no relations, no hub access)."""

    def __init__(self, model_dir: str | Path) -> None:
        self.model_dir = str(model_dir)
        self._pipeline = None

    def __getstate__(self) -> dict[str, Any]:  # the pipeline is rebuilt in each process
        return {"model_dir": self.model_dir, "_pipeline": None}

    def __call__(self, text: str) -> ReportKG:
        if self._pipeline is None:
            from transformers import pipeline

            self._pipeline = pipeline("token-classification", model=self.model_dir, tokenizer=self.model_dir, aggregation_strategy="simple", device=-1)
        entities: dict[str, str] = {}
        for item in self._pipeline(text.lower()):
            word = " ".join(str(item.get("word", "")).split()).strip()
            label = str(item.get("entity_group", item.get("entity", ""))).lower()
            if word and label:
                entities[word] = _RADGRAPH_LABELS.get(label, label)
        return ReportKG(frozenset(entities.items()))


class LexiconExtractor:
    """The offline lexicon extractor with a fixed ``uncertain_as`` and conflict rule (picklable)."""

    def __init__(self, uncertain_as: str = "present", keep_conflicts: bool = False) -> None:
        self.uncertain_as = uncertain_as
        self.keep_conflicts = keep_conflicts

    def __call__(self, text: str) -> ReportKG:
        return extract_kg(text, self.uncertain_as, keep_conflicts=self.keep_conflicts)


def resolve_extractor(extractor: str | Callable[[str], Any], uncertain_as: str,
                      keep_conflicts: bool = False) -> Callable[[str], Any]:
    if callable(extractor):
        return extractor
    if not isinstance(extractor, str) or not extractor:
        raise ValueError(f"extractor must be 'lexicon', 'module:function' or a local model folder, got {extractor!r}")
    if extractor == "lexicon":
        return LexiconExtractor(uncertain_as, keep_conflicts)
    if _CALLABLE_SPEC.match(extractor) and not Path(extractor).exists():
        return import_callable(extractor, "extractor")
    path = Path(extractor).expanduser()
    if path.is_dir() and (path / "config.json").exists():
        return TokenClassificationExtractor(path)
    raise ValueError(f"extractor must be 'lexicon', 'package.module:function' or a local model folder with config.json; got {extractor!r}")


class KGTripletConsistency(RolloutReward):
    """(Jaccard(entities) + Jaccard(triplets)) / 2 between the completion's KG and the reference's KG.

    Args:
        answer_column: column holding the reference report
        extractor: how reports become entities and relations: lexicon (offline, built in) or package.module:function
        uncertain_as: label of an uncertain finding (possible, may represent): present, notpresent or uncertain
        min_content_words: a completion with fewer content words scores 0, so only a written report earns the
            empty-graph 1.0
        drop_prompt_lines: remove the completion lines copied from the prompt (verbatim, or 3+ words all from the
            prompt) before extraction, so a pasted or reworded findings list yields no graph
        contradictions: a finding stated with two labels in one report: last (ReXKG's dict: the last mention wins)
            or keep (both labels count, so a self-contradicting report differs from the reference; lexicon only)
        empty_reference: a row whose reference graph is empty: score (the source: 1.0 for an empty prediction graph)
            or skip (NaN: no report can be judged against it)
    """

    type_name = "kg_triplet_consistency"
    exactness = "exact"
    exactness_detail = "exact scoring, reconstructed extractor"  # the default lexicon extractor stands in for ReXKG
    description = "CheXPO-v2 report KG consistency: (Jaccard(entities) + Jaccard(triplets)) / 2 (offline extractor)"
    score_range = (0.0, 1.0)
    probe_strategies = ("empty_completion", "prompt_as_completion")
    probe_genuine = "reference_report"

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        answer_column: str = "answer",
        extractor: str | Callable[[str], Any] = "lexicon",
        uncertain_as: str = "present",
        min_content_words: int = 0,
        drop_prompt_lines: bool = False,
        empty_reference: str = "score",
        contradictions: str = "last",
    ) -> None:
        super().__init__(name, weight)
        one_of("contradictions", contradictions, CONTRADICTIONS)
        if contradictions == "keep" and extractor != "lexicon":
            raise ValueError("contradictions: keep needs extractor: lexicon (another extractor returns its own graph)")
        self.contradictions = contradictions
        self.empty_reference = one_of("empty_reference", empty_reference, EMPTY_REFERENCE)
        self.min_content_words = check_min_content(min_content_words)
        if not isinstance(drop_prompt_lines, bool):
            raise ValueError(f"drop_prompt_lines must be true or false, got {drop_prompt_lines!r}")
        self.drop_prompt_lines = drop_prompt_lines
        column_name("answer_column", answer_column)
        one_of("uncertain_as", uncertain_as, UNCERTAIN_AS)
        self.answer_column = answer_column
        self.uncertain_as = uncertain_as
        self.extractor = resolve_extractor(extractor, uncertain_as, contradictions == "keep")

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    def graphs(self, completion: str, reference: str) -> tuple[ReportKG, ReportKG]:
        think = first_block(reference, "think")
        reference = think if think is not None else reference
        return (with_one_word_per_change(_as_kg(self.extractor(with_sides_spelled(without_prior_study_clauses(
                    without_request_sections(completion)))))),
                with_one_word_per_change(_as_kg(self.extractor(with_sides_spelled(without_prior_study_clauses(
                    without_request_sections(reference)))))))

    def _without_asides(self, report: str) -> str:
        """``report`` without a tutor's asides after its sentences ("Pearl: whenever you see a rib fracture, look for a
        pneumothorax.", "Common mistake: calling the retrocardiac opacity atelectasis ...":
        :func:`polyreward.verifiers.sections.without_inline_asides`; red team ``holdout_r55``); a mistake aside that
        names a finding the report itself states stays (it may deny it)."""
        read = without_inline_asides(report)
        if read == report:
            return report
        stated = [text for text, label in _as_kg(self.extractor(read)).entities if label.startswith(_FINDING_LABELS)]
        return without_inline_asides(report, stated)

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        reference = row.get(self.answer_column)
        if is_missing(reference):
            return Scored(None, f"no reference in column {self.answer_column!r}")
        if self.empty_reference == "skip":
            gold = self.graphs("", str(reference))[1]
            if not gold.entities and not gold.triplets:
                return Scored(None, "the reference graph is empty (no finding the extractor knows): nothing to "
                                    "compare a report with (empty_reference: skip)")
        completion = without_promised(without_foreign_statuses(without_both_ways(structured_report(
            without_superseded_drafts(read_report(completion, self.extractor))))))
        completion = own_case_report(completion, row.get("prompt"))  # (a made-up next case says nothing of this report)
        completion = self._without_asides(completion)
        if kind := disowned_report(completion):
            return Scored(0.0, f"no report: a remark makes it a stand-in ({kind})")
        if self.drop_prompt_lines:
            completion = without_prompt_lines(completion, row.get("prompt"))
        words = content_words(completion)
        if words < self.min_content_words:
            return Scored(0.0, f"no report: {words} content word(s) (lines copied from the prompt left out when "
                               f"drop_prompt_lines), min_content_words needs {self.min_content_words}")
        predicted, gold = self.graphs(completion, str(reference))
        j_e = set_jaccard(predicted.entities, gold.entities)
        j_r = set_jaccard(predicted.triplets, gold.triplets)
        hallucinated = predicted.entities - gold.entities
        details = {
            "entity_jaccard": j_e,
            "triplet_jaccard": j_r,
            "hallucinated_entities": float(len(hallucinated)),
            "hallucination_rate": len(hallucinated) / len(predicted.entities) if predicted.entities else 0.0,
            **radgraph_f1(predicted, gold),
        }
        missed = len(gold.entities - predicted.entities)
        reason = f"entities J={j_e:.3f}, triplets J={j_r:.3f}; {len(hallucinated)} hallucinated, {missed} missed"
        return Scored((j_e + j_r) / 2, reason, details)
