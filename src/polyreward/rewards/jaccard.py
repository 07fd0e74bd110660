"""``jaccard``: multi-label diagnosis reward (MedTVT-R1), with normalised and F1 modes.

Formula (MedTVT-R1, keke-nice/MedTVT-R1 ``grpo_train.py`` ``Jaccard_reward``; docs/reference/algorithms.md#jaccard),
tag **exact** for ``mode: exact, metric: jaccard`` (the defaults)::

    P = labels in the first <answer>…</answer> block of the completion (split on ";", stripped, set)
    G = the same for the reference (or the reference list itself when the column holds a list)
    r_J = |P ∩ G| / |P ∪ G|          (0.0 if P ∪ G is empty; 0.0 if either side has no <answer> block)

Several golds (not in the source): a reference list whose items are themselves label lists (or ``<answer>``
blocks), e.g. ``[["AF", "HF"], ["AF"]]``, lists accepted alternatives; ``match: any`` (the default) scores the best,
``match: all`` the worst, and the reason and details name the deciding one (:mod:`polyreward.verifiers.golds`).

Options (not in the source): ``mode: normalized`` case-folds, NFKC-normalises and collapses whitespace
before comparing and applies a ``synonyms`` map (alias -> canonical label), and reads the completion as a reader
sees it and only a committed answer (the guarded mode; exact mode reads the raw text and the first block, as the
source, with the exploits that brings — docs/rewards/clinical.md):

* the text read is :func:`polyreward.verifiers.reading.visible_text` — zero-width and look-alike characters
  normalised, an ``<answer>`` block in an HTML or LaTeX comment, a code fence or a block quote is not read;
* the labels are read as a reader reads a list (:func:`polyreward.verifiers.label_sets.read_labels`): split on the
  separator when the block uses it, else one per line of a list (``- a``, ``1. a``), else on commas; a trailing
  full stop is dropped (the prompt's separator is a format request; ``a, b`` names the same labels as ``a; b``);
* every ``<answer>`` block must name the same label set: two different blocks ("either <answer>a</answer> or
  <answer>b</answer>", a second block appended, a withdrawal to another block) are no answer, and so is a block
  opened after the last one and left unclosed with other labels (``... </answer> <answer>pneumothorax``: red team
  ``holdout_r7``); an ``<answer>`` tag named inside the think whose first closer follows the think ("put only the
  present findings inside the <answer> tag.</think> <answer>a; b</answer>") is the tag named, not a block that runs
  across the end of the reasoning (:func:`polyreward.verifiers.tags.blocks_not_across_reasoning`; red team
  ``holdout_r28``);
* a block the text denies or hedges ("This is not <answer>a</answer>", "<answer>a</answer> is wrong",
  :func:`polyreward.verifiers.commitment.uncommitted`) or explicitly takes back after it ("<answer>a</answer>
  Scratch that.", :func:`polyreward.verifiers.commitment.retraction_after`) or withdraws in a later clause
  ("<answer>a</answer> ? Wrong.", :func:`polyreward.verifiers.commitment.later_disowns`) is no answer;
* so is a block under a header that denies it or names it an example (``NOT present:``, ``Example of the answer
  format:``, a header in another language), a block after which a clause takes back all before it (``All of the
  above were excluded.``, ``I did not look at the image.``: :mod:`polyreward.verifiers.framing`) or a note in
  another language follows (:func:`polyreward.verifiers.language.foreign`); red team ``holdout_r2``;
* so is a block one of whose labels a later note takes out ("pleural effusion should be removed", "the effusion is
  not definite": :mod:`polyreward.verifiers.label_amendments`; red team ``holdout_r14``), and so is a block a later note
  withdraws whole ("please disregard the list above", "ignore my answer": red team ``holdout_r18``), and so is a block
  after which a labelled answer line names other labels ("**Final answer:** a; b; c; pneumothorax": two answers; the
  same list restated commits to it: red team ``holdout_r21``), and so is a block after which a note edits the list under
  a condition ("If the rhythm is actually atrial flutter, replace atrial fibrillation with atrial flutter.") or offers
  other labels beside it ("Other candidates I consider equally likely: pneumonia; atelectasis."):
  :func:`polyreward.verifiers.label_amendments.offers_other_labels`; red team ``holdout_r35``; and so is a block after
  which a note says ``take X out`` or calls a label's finding resolved, credits the list to another reader, or gives
  an answer line after a full stop on its line (``... Final list: cardiomegaly.``); an edit of the form only
  (``Edit: corrected the spelling``) withdraws nothing (red team ``holdout_r38``); the answer restated in prose and
  narrowed by ``only`` / ``alone`` (``so count my answer as cardiomegaly only``) is an answer line too
  (:func:`polyreward.verifiers.label_amendments.narrowed_answer`; red team ``holdout_r40``); and so is a block after
  which the text, read as a report is, states another finding present or possible that the report does not state
  present (a summary, a revised list, a differential, a question: ``Summary of findings: ..., cardiomegaly and
  pneumothorax.``; statements of what was left out and why are skipped), or a status line makes a block label other
  than present (``pulmonary edema: uncertain``): :func:`polyreward.verifiers.label_amendments.names_other_findings`,
  red team ``holdout_r43``.

Red team ``holdout_r3`` (normalised mode): labels compare by a spelling key (plural and singular, British and
American spellings: ``pleural effusions``, ``pulmonary oedema``), an affirming status (``a (present)``) and the
``and`` before a list's last label are no part of a label, and a label qualified as the prompt's report words it
(``small left pleural effusion`` where the report writes "Small left pleural effusion") is the gold label it ends
with (:func:`polyreward.verifiers.label_sets.as_worded_in`).

Red team ``holdout_r5`` (normalised mode): a body that is one JSON or Python list of strings names its items, a
one-line list may use a spaced pipe, an underscore joins a label's words as a space does, a sentence's list loses
its subject and verb ("The findings present are a, b and c.": a finding noun with affirming qualifiers only, then a
copula) and the ``and`` before its last label, and a gold label glossed in the report's own words (``pleural
effusion: small, left`` where the report writes "Small left pleural effusion"; words only) is that label.
Red team ``holdout_r8`` (normalised mode): a label that names a gold label's finding in the words clinicians use is
that gold label (:mod:`polyreward.verifiers.radiology_labels`): an alias of the same finding in the KG extractor's
radiology lexicon (``effusion``, ``PTX``, ``enlarged cardiac silhouette``), or the gold label after words that place or
size it as the report does (``rib fractures``, ``R pleural effusion``, ``pulmonary nodule`` of a report's "ribs",
"right", "lungs"); a hedge, a denial, another finding, a place the report does not name or a size it does not write
before it keeps the label whole.
Red team ``holdout_r10`` (normalised mode): a comma inside a bracket is the bracket's, not the list's (``Nodule (RUL,
6 mm)`` is one label), and a bracket after a label holding only words that place or size it as the report does, or a
measurement the report writes, reads as those words before it (``nodule (RUL, 6 mm)`` of "stable 6 mm right upper lobe
nodule"); a hedge, another size (``8 mm``) or place in the bracket keeps the label whole.
Red team ``holdout_r18`` (normalised mode): ``no finding`` is the normal study's label, not a denied finding; an
initialism of a gold label of several words (``AF; LBBB`` for atrial fibrillation, left bundle branch block) and one
label joining gold labels with ``and`` (``Cardiomegaly and atelectasis.``) name those gold labels
(:func:`polyreward.verifiers.label_sets.as_gold_shorthand`); a conjunct that is no gold label keeps the label whole.
Red team ``holdout_r46`` (normalised mode): a block that is wholly one structure is read by its fields
(:func:`polyreward.verifiers.label_sets.record_labels`, :mod:`polyreward.verifiers.record_fields`): the label field
(``{"labels": [...]}``, ``findings:`` with ``- a`` items, repeated ``<label>`` elements, ``{"draft": [...], "final":
[...]}``'s final list) less what an ``exclude:`` / ``absent:`` field takes out, and a markdown table whose last column
selects (``| label | keep |``) names the rows it keeps; other fields (``evidence``, ``count``) describe the list. A
field that withdraws it (``"status": "rejected ..."``), two different lists under answer keys or a list of lists is
no answer.
``separator`` replaces ``;``; ``metric: f1`` scores 2|P ∩ G| / (|P| + |G|) instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from polyreward.reward import RolloutReward, Scored, column_name, one_of
from polyreward.schema import is_missing
from polyreward.verifiers.golds import MATCHES, score_golds
from polyreward.verifiers.label_sets import (
    answer_block,
    as_gold_shorthand,
    as_worded_in,
    f1,
    jaccard,
    label_keys,
    normalize_label,
    normalize_synonyms,
    read_labels,
    record_labels,
    spelling_key,
    split_labels,
)
from polyreward.schema import prompt_text
from polyreward.verifiers.commitment import later_disowns, retraction_after, uncommitted
from polyreward.verifiers.denial import disowns_text_before
from polyreward.verifiers.framing import header_frames_away
from polyreward.verifiers.label_amendments import (answer_line, counted_findings, names_other_findings, narrowed_answer,
                                                  offers_other_labels, removed_label, withdraws_list)
from polyreward.verifiers.language import foreign
from polyreward.verifiers.stand_ins import disowning_remark, keeping_remark
from polyreward.verifiers.radiology_labels import as_gold_findings
from polyreward.verifiers.reading import visible_text
from polyreward.verifiers.record_fields import superseded_answers
from polyreward.verifiers.sections import without_inline_asides
from polyreward.verifiers.tags import blocks_not_across_reasoning, tag_blocks, unclosed_block
from polyreward.verifiers.turns import invented_case_start

MODES = ("exact", "normalized")
_CLAUSE_END = re.compile(r"[.!?;\n]|\s[-\u2013\u2014]{1,2}\s|[\u2013\u2014]")
METRICS = ("jaccard", "f1")


def _decoded(value: Any) -> Any:
    """A JSON-list string (a list cell of a CSV file) as the list; anything else unchanged."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):
            decoded = None
        if isinstance(decoded, list):
            return decoded
    return value


def _leading_sentence(view: str, start: int) -> str:
    """The last sentence before ``view[start:]`` (an answer block), within 300 characters: "... so treat it as yours,
    not mine." before ``<answer>``."""
    before = view[max(0, start - 300):start].rstrip()
    cut = max(before.rfind(". ", 0, len(before) - 1), before.rfind("\n", 0, len(before) - 1), before.rfind("</think>"))
    return before[cut + 1:] if cut >= 0 else before


def reference_alternatives(value: Any) -> list[Any] | None:
    """The alternatives of a reference holding several golds — a list of label lists or of ``<answer>`` blocks;
    None for one gold (a flat label list is ONE label set, as in MedTVT-R1)."""
    value = _decoded(value)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, (list, tuple)) or (isinstance(v, str) and "<answer>" in v) for v in value):
        return list(value)
    return None


def reference_labels(value: Any, separator: str) -> list[str] | None:
    """Reference labels from a list cell, a JSON-list string (CSV files) or an ``<answer>`` block; None if none."""
    value = _decoded(value)
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if not is_missing(v) and str(v).strip()]
    if isinstance(value, str):
        body = answer_block(value)
        return None if body is None else split_labels(body, separator)
    return None


class JaccardReward(RolloutReward):
    """Jaccard (or F1) overlap of the predicted and reference label sets in ``<answer>`` blocks.

    Args:
        answer_column: column holding the gold answer (<answer> text or a list of labels)
        mode: exact compares labels as written; normalized case-folds, NFKC-normalises, collapses spaces and applies
            synonyms
        metric: jaccard |P and G| / |P or G|, or f1 2|P and G| / (|P| + |G|)
        separator: text between labels inside <answer>
        synonyms: alias to canonical label map applied in normalized mode
        match: several golds in one cell (a list): any scores the best alternative, all the worst
    """

    type_name = "jaccard"
    exactness = "exact"
    description = "MedTVT-R1 multi-label Jaccard of ';'-separated labels in <answer> (normalised / F1 modes)"
    score_range = (0.0, 1.0)
    probe_genuine = "labels"

    def __init__(
        self,
        name: str | None = None,
        weight: float = 1.0,
        answer_column: str = "answer",
        mode: str = "exact",
        metric: str = "jaccard",
        separator: str = ";",
        synonyms: Mapping[str, str] | None = None,
        match: str = "any",
    ) -> None:
        super().__init__(name, weight)
        column_name("answer_column", answer_column)
        one_of("mode", mode, MODES)
        one_of("metric", metric, METRICS)
        if not isinstance(separator, str) or not separator.strip():
            raise ValueError(f"separator must be a non-blank string such as ';' or ',', got {separator!r}")
        if synonyms is not None:
            if not isinstance(synonyms, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in synonyms.items()):
                raise ValueError("synonyms must be a mapping of alias (str) -> canonical label (str)")
            if mode != "normalized":
                raise ValueError("synonyms needs mode: normalized (exact mode compares labels as written)")
        self.answer_column = answer_column
        self.mode = mode
        self.metric = metric
        self.separator = separator
        self.synonyms = normalize_synonyms(synonyms) if synonyms else None
        self.match = one_of("match", match, MATCHES)

    @property
    def columns(self) -> tuple[str, ...]:
        return (self.answer_column,)

    def _canonical(self, labels: list[str]) -> set[str]:
        if self.mode == "exact":
            return set(labels)
        return set(label_keys([normalize_label(label, self.synonyms) for label in labels]))

    def _committed_labels(self, completion: str, report: str = "") -> tuple[set[str] | None, str]:
        """The label set the visible text commits to (module docstring, guarded mode), or None and why not; ``report``:
        the prompt's text, whose findings stated present the text after the block may name (red team holdout_r43)."""
        view = visible_text(completion)
        if report and (case := invented_case_start(visible_text(report), view)) is not None:
            # a made-up next case ("Case 2:", "Report: FINDINGS: <another report>") and the block after it answer
            # that case, not the report given (red team holdout_r50)
            view = view[:case]
        blocks = list(blocks_not_across_reasoning(view, "answer", ignore_case=True))
        if not blocks:
            return None, "no <answer> block in completion"
        # a tutor's aside after the list is no second list ("Common mistake: adding 'pleural effusion' ...", "**Try it
        # yourself (new report):** ..."), unless it calls a label of the list the mistake (red team holdout_r55)
        if (read := without_inline_asides(view, read_labels(blocks[-1][2], self.separator))) != view:
            view, blocks = read, list(blocks_not_across_reasoning(read, "answer", ignore_case=True))
        for _, _, body in blocks:  # a structure whose fields withdraw the list or offer several (red team holdout_r46)
            structured = record_labels(body, self.separator)
            if structured is not None and structured[0] is None:
                return None, f"the <answer> block is a structure with no committed list: {structured[1]}"
        # red team holdout_r60: a block under a draft heading ("Initial list:", "Prior study labels:") that a final
        # heading after it supersedes ("Corrected list:", "Current study:") is not the list the record ends on
        if superseded := superseded_answers(view, [block[0] for block in blocks]):
            blocks = [block for block in blocks if block[0] not in superseded]
            if not blocks:
                return None, "the <answer> block stands under a draft heading that a final section after it supersedes"
        sets = [self._canonical(read_labels(body, self.separator)) for _, _, body in blocks]
        if any(labels != sets[0] for labels in sets[1:]):
            return None, f"{len(blocks)} <answer> blocks with different labels: no committed answer"
        # a block opened after the last one and never closed is another block, cut off: its labels count as a block's
        # ("<answer>a; b</answer> ... <answer>c; d" appends labels a reader sees; red team holdout_r7)
        opened = unclosed_block(view, "answer", ignore_case=True)
        if opened is not None and opened.strip() and self._canonical(read_labels(opened, self.separator)) != sets[0]:
            return None, "an <answer> block opened after the last one, unclosed, names other labels: no committed answer"
        for start, end, _ in blocks:
            if why := uncommitted(view, start, end):
                return None, f"the <answer> block is {why}"
        retraction = retraction_after(view, blocks[-1][1])
        if retraction is not None and retraction[1]:
            return None, "the <answer> block is taken back after it"
        # "? Wrong.", "-- that's false.": a later clause withdraws the block (numbers in later prose are not labels,
        # so another value stated there, "conflicting", does not count)
        if later_disowns(view, blocks[-1][1], "") in ("retracted", "negated"):
            return None, "the <answer> block is withdrawn after it"
        # red team holdout_r14: an addendum that takes one of the block's labels out ("pleural effusion should be removed")
        if label := removed_label(view[blocks[-1][1]:], read_labels(blocks[-1][2], self.separator)):
            return None, f"a note after the <answer> block takes {label!r} out: not the list the text ends on"
        # red team holdout_r18: a note after the block that withdraws the whole list ("please disregard the list above")
        if withdraws_list(view[blocks[-1][1]:]):
            return None, "a note after the <answer> block withdraws the list"
        # red team holdout_r35: a conditional edit of the list or other labels offered after the block
        if why := offers_other_labels(view[blocks[-1][1]:]):
            return None, why
        # red team holdout_r43: a summary, revised list, differential or question after the block that names another
        # finding as present or possible, one the block does not hold and the report does not state present
        if finding := names_other_findings(view[blocks[-1][1]:], read_labels(blocks[-1][2], self.separator), report):
            return None, f"the text after the <answer> block names another finding ({finding!r}): no committed answer"
        # red team holdout_r21: a labelled answer line after the block ("**Final answer:** a; b; c") with other labels
        restated = answer_line(view[blocks[-1][1]:])
        if restated is not None and self._canonical(read_labels(restated, self.separator)) != sets[0]:
            return None, "an answer line after the <answer> block names other labels: no committed answer"
        # red team holdout_r40: the answer restated in prose and narrowed ("so count my answer as cardiomegaly only")
        narrowed = narrowed_answer(view[blocks[-1][1]:])
        if narrowed is not None and self._canonical(read_labels(narrowed, self.separator)) != sets[0]:
            return None, "a sentence after the <answer> block narrows the answer to other labels: no committed answer"
        # red team holdout_r44: a recount after the block that counts another number of definite findings ("Two
        # findings definitely present." after three labels)
        counted = counted_findings(view[blocks[-1][1]:])
        if counted is not None and counted != len(sets[0]):
            return None, f"a sentence after the <answer> block counts {counted} definite finding(s), not the block's {len(sets[0])}"
        # red team holdout_r2: a header that denies the block or names it an example, a later clause that takes back
        # all before it ("All of the above were excluded.", "I did not look at the image."), a note in another language
        if why := header_frames_away(view, blocks[0][0]):
            return None, f"the <answer> block is no answer: {why}"
        # red team holdout_r42: the sentence that leads into the block gives the list to another voice ("I've put your
        # list in the box as requested, ... so treat it as yours, not mine.")
        if disowning_remark(_leading_sentence(view, blocks[0][0])) == "not mine":
            return None, "the sentence before the <answer> block gives the list to someone else (not mine)"
        tail = view[blocks[-1][1]:]
        if any(disowns_text_before(clause) for clause in _CLAUSE_END.split(tail[:2000])):
            return None, "a clause after the <answer> block takes it back"
        # red team holdout_r36: a note that makes the list a stand-in or hands it over ("the box can't be left empty",
        # "Список — заготовка"); a note in another language that asserts it ("Traducción: ...", "확신합니다") keeps it
        if kind := disowning_remark(tail):
            return None, f"a note after the <answer> block makes it a stand-in ({kind})"
        if tail.strip() and foreign(tail[:2000]) and not keeping_remark(tail):
            return None, "the text after the <answer> block is in another language, which may take it back"
        return sets[0], ""

    def score_rollout(self, completion: str, row: Mapping[str, Any]) -> Scored:
        reference = row.get(self.answer_column)
        if is_missing(reference):
            return Scored(None, f"no reference in column {self.answer_column!r}")
        golds = reference_alternatives(reference)
        prompt = row.get("prompt")
        if golds is None:
            return self._against(completion, reference_labels(reference, self.separator), prompt)
        def check(gold: Any) -> tuple[float | None, str, Mapping[str, Any]]:
            result = self._against(completion, reference_labels(gold, self.separator), prompt)
            return result.score, result.reason, result.details

        return Scored(*score_golds(golds, check, self.match))

    def _against(self, completion: str, gold: list[str] | None, prompt: object = None) -> Scored:
        if gold is None:
            return Scored(0.0, "reference has no <answer> block")
        if self.mode == "exact":
            body = answer_block(completion)
            if body is None:
                return Scored(0.0, "no <answer> block in completion", {"jaccard": 0.0, "f1": 0.0})
            predicted = self._canonical(split_labels(body, self.separator))
        else:
            predicted, why = self._committed_labels(completion, prompt_text(prompt) if prompt is not None else "")
            if predicted is None:
                return Scored(0.0, why, {"jaccard": 0.0, "f1": 0.0})
        gold_set = self._canonical(gold)
        source = prompt_text(prompt) if self.mode == "normalized" and prompt is not None and predicted - gold_set else ""
        if source:  # "small left pleural effusion" as the report words it is the gold "pleural effusion"
            predicted = as_worded_in(predicted, gold_set, spelling_key(normalize_label(source)))
        if self.mode == "normalized" and predicted - gold_set:  # "effusion", "PTX", "R pleural effusion" (holdout_r8)
            predicted = as_gold_findings(predicted, gold_set, prompt_text(prompt) if prompt is not None else "")
        if self.mode == "normalized" and predicted - gold_set:  # "AF; LBBB", "cardiomegaly and atelectasis" (holdout_r18)
            predicted = as_gold_shorthand(predicted, gold_set)
        j, f = jaccard(predicted, gold_set), f1(predicted, gold_set)
        score = j if self.metric == "jaccard" else f
        hits = len(predicted & gold_set)
        reason = f"{hits} of {len(gold_set)} reference labels found, {len(predicted) - hits} extra"
        return Scored(score, reason, {"jaccard": j, "f1": f})
