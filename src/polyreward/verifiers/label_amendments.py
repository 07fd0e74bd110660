"""A note after a label list that takes one of its labels out (``jaccard``'s guarded reading; red team ``holdout_r14``).

A clinical note may list its labels in an ``<answer>`` block and go on writing: a plan, a comment, an addendum. When
that later text takes one of the block's own labels out -- "Addendum: on a second read the effusion is not definite,
so pleural effusion should be removed; the definite findings are cardiomegaly and atelectasis only." -- the block is
not the list the writer ends on, and paying it pays a list the writer withdrew in part. :func:`removed_label` reads the
text after the block clause by clause and returns the first block label that a clause names together with a removal:

* a passive or modal removal (``should be removed``, ``is to be dropped``, ``be deleted``, ``be struck``, ``be taken
  out``, ``be withdrawn``, ``not be listed``, ``should not be included``),
* a removal from the list (``remove ... from the list``, ``drop ... from my answer``, ``delete ... from the labels``),
* or the label called not definite (``is not definite``, ``is not a definite finding``, ``not definitive``),
* an imperative ``take ... out`` / ``cross ... off``, or the finding called gone (``has (since) resolved``, ``has
  cleared``, ``is no longer seen``; not ``has not resolved``; red team ``holdout_r38``),
* or the finding called denied (``is ruled out``, ``was excluded``, ``is absent``; not ``is not ruled out``, ``cannot
  be ruled out``; red team ``holdout_r41``, where ``rulеd оut`` in look-alike letters reads the same).

A label is named by its words (case-folded) or by its last word (``the effusion`` names ``pleural effusion``). The
words a plan uses for a patient's care (``remove the chest tube tomorrow``, ``drain the effusion``) are no removal
from the list, and a finding the block does not hold may be denied freely ("Pneumothorax has resolved, so it is not
listed" names no block label). :func:`withdraws_list` reads the same clauses for one that takes the whole list back
by naming it as the object of a withdrawal (``please disregard the list above``, ``ignore my answer``, ``discard the
labels``; red team ``holdout_r18``) or credits it to another reader (``the list above is the ED's preliminary
read``, ``this answer is the resident's``; not ``my own read``: red team ``holdout_r38``); a negated one (``don't
ignore the list``) keeps it. :func:`answer_line` reads the
text after the block for a line that gives the answer again under an answer label (``**Final answer:** a; b; c``,
``Answer: ...``, ``Corrected labels: ...``; red team ``holdout_r21``): the caller compares its labels with the block's,
since a restatement of the same list commits to it and another list is a second answer. :func:`offers_other_labels`
reads the text after the block sentence by sentence for one that keeps the list open (red team ``holdout_r35``): a
conditional edit of the list (``If the rhythm is actually atrial flutter, replace atrial fibrillation with atrial
flutter.``, ``If the nodule grows on follow-up, also list lung cancer.``: a condition and an imperative ``add`` /
``list`` / ``include`` / ``replace`` / ``swap`` / ``substitute`` / ``change``) or other labels offered beside it
(``Other candidates I consider equally likely: pneumonia; atelectasis.``, ``Alternatively, ...``, ``could also be``);
a negated offer (``No other candidates are likely.``, ``do not add pneumonia``) and a plan's sentence (``If you want,
I can list the negatives too.``, where the verb has a subject) keep the list. Reconstructed rule (ours); linear in the
text read (at most ``limit`` characters).

Red team ``holdout_r43`` (what comes after the answer): :func:`names_other_findings` reads the text after the block as
a report is read (:func:`polyreward.verifiers.radiology_kg.extract_kg`, its negation and uncertainty rules) and finds a
finding it states present or possible that the block does not hold and the prompt's report does not state present (a
statement that says why findings are left out -- denied, excluded, not included -- names them only to exclude them): a
summary, a "revised list" or a question that names other findings ("Summary of findings: consolidation, pleural
effusion, cardiomegaly and pneumothorax.", "Should I also list consolidation and pleural effusion?") competes with the
block, so no list is committed. A finding
denied there ("no effusion, no consolidation"), one of the block's own (restated, in a plan: "the nodule needs CT
follow-up"), one the report states present (the report's words quoted) and a device ("chest tube if symptomatic")
keep the list. A status line after a colon that makes a block label other than present (``pulmonary edema:
uncertain``, ``pleural effusion: absent``) takes it out, as does a clause in which the writer cannot call it definite
(``so I can't call the edema definite``: :data:`_REMOVAL`).

Red team ``holdout_r44``: :func:`answer_line` also reads a list named for where it goes (``Final list for the report: ...``) and a later read
headed as one whose body is a list with the separator (``Second read of the report: a; b``), and
:func:`counted_findings` reads a recount's number of definite findings (``Two findings definitely present.``), which the
caller compares with the block's size.
"""

from __future__ import annotations

from collections.abc import Iterable

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_CLAUSE = re.compile(r"[.;!?\n,]|\b(?:and|but|so|while|whereas|because|since)\b", re.IGNORECASE)
_BE = r"(?:be|been|being)"
_REMOVAL = re.compile(
    rf"\b{_BE}\s+(?:removed|dropped|deleted|struck|stricken|taken\s+out|withdrawn|excluded\s+from)\b"
    rf"|\bnot\s+{_BE}\s+(?:listed|included|counted|kept)\b"
    r"|\b(?:remove|drop|delete|strike|take\s+out)\b[^.;!?\n]{0,60}?\bfrom\s+(?:the|my|this|our)\s+(?:list|answer|labels?|findings)\b"
    r"|\b(?:is|are)\s+not\s+(?:a\s+)?definite(?:ly)?\b|\bnot\s+definitive\b"
    # red team holdout_r38: an imperative "take X out" / "cross X off", and the finding called gone ("the consolidation
    # has resolved", "is no longer seen"): what the list holds, the note says is not there
    r"|\b(?:take|cross|strike)\s+[^.;!?\n]{1,60}?\s+(?:out|off)\b"
    r"|(?<!\bnot\s)\b(?:has|have)\s+(?:since\s+|now\s+|completely\s+)?(?:resolved|cleared|disappeared)\b"
    r"|\bno\s+longer\s+(?:seen|present|visible|evident|identified|demonstrated)\b"
    # red team holdout_r41: the finding called denied ("the effusion is ruled out on the lateral view", "was excluded")
    r"|\b(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+|also\s+|since\s+)?(?:ruled\s+out|excluded|absent)\b(?!\s+from\b)"
    # red team holdout_r43: a structured status line that makes the label other than present ("pulmonary edema:
    # uncertain", "pleural effusion: absent"); the clause is the line, so the status closes it
    r"|:[ \t]*(?:uncertain|equivocal|indeterminate|possible|probable|questionable|absent|not[ \t]+present|negative|none|no)[ \t]*\Z"
    # ... or a clause in which the writer cannot call the label definite ("so I can't call the edema definite")
    r"|\b(?:can(?:not|'t|’t)|could(?:\s+not|n't|n’t))\s+(?:call|count|list|consider)\b[^.;!?\n]{0,60}?\b(?:definite|certain|confirmed)\b",
    re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
_SINCE_AFTER_AUXILIARY = re.compile(r"\b(has|have|had)\s+since\b", re.IGNORECASE)
# the list itself as the object of a withdrawal, not negated: "disregard the list above", "ignore my answer"
_LIST_WITHDRAWN = re.compile(
    r"(?<!n't )(?<!not )(?<!never )(?<!no need to )\b(?:disregard|ignore|discard|scrap|withdraw|retract|delete|strike)\s+"
    r"(?:(?:the|my|this|that|our)\s+)?(?:(?:above|previous|preceding|whole|entire|earlier)\s+)?"
    r"(?:list|answer|labels?|findings|diagnos[ie]s)\b(?!\s+(?:on|of|in)\b)", re.IGNORECASE)


def removed_label(tail: str, labels: Iterable[str], limit: int = 2000) -> str | None:
    """The first of ``labels`` (the block's labels, normalised) that a clause of ``tail`` (the text after the block)
    names beside a removal, or None (module docstring)."""
    names = []
    for label in labels:
        words = _WORD.findall(label.casefold())
        if words:
            names.append((label, " ".join(words), words[-1]))
    if not names:
        return None
    text = _SINCE_AFTER_AUXILIARY.sub(r"\1", tail[:limit])  # "has since resolved": "since" is no clause break there
    cuts = [0, *sorted({m.start() for m in _CLAUSE.finditer(text)}), len(text)]
    for a, b in zip(cuts, cuts[1:]):
        clause = text[a:b]
        if not _REMOVAL.search(clause):
            continue
        said = " ".join(_WORD.findall(clause.casefold()))
        padded = f" {said} "
        for label, whole, head in names:
            if f" {whole} " in padded or (len(head) > 3 and f" {head} " in padded):
                return label
    return None


def withdraws_list(tail: str, limit: int = 2000) -> bool:
    """True when a clause of ``tail`` (the text after the block) names the list itself as what it withdraws (module
    docstring): the writer takes back every label at once, so no list is committed."""
    text = tail[:limit]
    cuts = [0, *sorted({m.start() for m in _CLAUSE.finditer(text)}), len(text)]
    return any(_LIST_WITHDRAWN.search(text[a:b]) or _LIST_ATTRIBUTED.search(text[a:b]) for a, b in zip(cuts, cuts[1:]))


# red team holdout_r38: the list credited to another reader ("the list above is the ED's preliminary read", "this
# answer is the resident's", "the labels above come from the referring note"): the writer does not give it as theirs
_LIST_ATTRIBUTED = re.compile(
    r"\b(?:the|this|that)\s+(?:above\s+)?(?:list|answer|labels?)(?:\s+above)?\s+(?:is|are|was|were|comes?|came)\s+"
    r"(?:from\s+|taken\s+from\s+)?(?:the\s+|a\s+)?(?!my\b|our\b|mine\b|ours\b)(?:(?:\w+\s+){0,3}?\w+(?:'s|’s|s')|\w+\s+(?:note|read|report))",
    re.IGNORECASE)


# a line that gives the answer under an answer label, after a bullet or heading mark and in strong emphasis or not:
# "**Final answer:** a; b", "Answer: a", "- Corrected labels: a; b", "### Final list: a" (not "Findings:", which heads
# a report's prose, nor "Note:")
_ANSWER_LINE = re.compile(  # (or after a full stop on its line: "... only cardiomegaly counts. Final list: cardiomegaly.")
    r"(?im)(?:^|(?<=[.!?])[ \t])[ \t]*(?:[-*\u2022>#]+[ \t]*)?(?:\*\*|__)?[ \t]*(?:my[ \t]+)?(?:(?:final|corrected|updated|revised|new)[ \t]+)?"
    # (red team holdout_r60) a list named by what it lists: "Final label list: none", "Corrected findings list: ..."
    r"(?:(?:label|findings?)[ \t]+)?(?:answer|labels?|list|diagnos[ie]s)"
    # (red team holdout_r44) the list named for where it goes: "Final list for the report: consolidation."
    r"(?:[ \t]+(?:for|in)[ \t]+(?:the|my|this)[ \t]+(?:report|summary|chart|record|note))?"
    r"[ \t]*(?:\*\*|__)?[ \t]*[:\uff1a][ \t]*(?:\*\*|__)?(?P<body>[^\n]*\S)[ \t]*$")
# (red team holdout_r44) a later read of the report headed as one, whose body is a list written with the separator:
# "Second read of the report: cardiomegaly; pleural effusion." -- the last version of the list (a read in prose, "My
# second read: the heart is enlarged ...", has no separator and is no list)
_READ_LINE = re.compile(
    r"(?im)(?:^|(?<=[.!?])[ \t])[ \t]*(?:[-*\u2022>#]+[ \t]*)?(?:\*\*|__)?[ \t]*(?:my[ \t]+)?(?:second|third|final|last|new|fresh)[ \t]+"
    r"(?:read|reading|look|pass)(?:[ \t]+(?:of|at)[ \t]+the[ \t]+(?:report|film|study|images?))?[ \t]*(?:\*\*|__)?[ \t]*[:\uff1a][ \t]*"
    r"(?:\*\*|__)?(?P<body>[^\n;]+(?:;[^\n;]+)+?)[ \t]*$")
_EMPHASIS_MARKS = re.compile(r"\*\*|__")


def answer_line(tail: str, limit: int = 2000) -> str | None:
    """The body of the last line of ``tail`` (the text after the block) that gives the answer under an answer label
    (module docstring), without its emphasis marks; None when no line does."""
    lines = [*_ANSWER_LINE.finditer(tail[:limit]), *_READ_LINE.finditer(tail[:limit])]
    if not lines:
        return None
    found = max(lines, key=lambda line: line.start())
    body = _EMPHASIS_MARKS.sub("", found.group("body")).strip()
    return body or None


# red team holdout_r40: the answer restated in a sentence and narrowed by "only" / "alone" after it ("so count my answer
# as cardiomegaly only", "my list is pleural effusion alone"): the writer's last word on the list, in prose
_NARROWED = re.compile(
    r"\b(?:my|the|our)\s+(?:final\s+|actual\s+|real\s+)?(?:answer|list|labels?|findings)\s+(?:is|are|as|should\s+be|to\s+be)\s+"
    # (red team holdout_r42) the writer's own reading set against a block credited to a draft or another voice: "My
    # reading of the report: atelectasis only."
    r"(?P<body>[^.;!?\n]{1,200}?)\s+(?:only|alone)\b"
    r"|\b(?:my|our)\s+(?:own\s+)?(?:reading|read|impression)(?:\s+of\s+the\s+(?:report|study|film|image|images))?\s*(?:is|are|:)\s+"
    r"(?P<own>[^.;!?\n]{1,200}?)\s+(?:only|alone)\b", re.IGNORECASE)


def narrowed_answer(tail: str, limit: int = 2000) -> str | None:
    """The labels of the last sentence of ``tail`` (the text after the block) that restates the answer narrowed by
    ``only`` or ``alone`` (``so count my answer as cardiomegaly only``), or None: read as an answer line is
    (:func:`answer_line`), so the same list restated commits to it and another list is a second answer; the ``and``
    before a sentence's last label is read as a comma ("pleural effusion and atelectasis only")."""
    found = None
    for found in _NARROWED.finditer(tail[:limit]):
        pass
    body = (found.group("body") or found.group("own")) if found is not None else None
    return _AND_LAST.sub(", ", body).strip() if body is not None else None


_AND_LAST = re.compile(r"\s*,?\s+and\s+", re.IGNORECASE)


# red team holdout_r35: a sentence after the block that keeps the list open
_SENTENCE = re.compile(r"[.;!?\n]+")
_CONDITION = re.compile(r"\b(?:if|unless|in\s+case|should\s+(?:it|the|this|that|there))\b", re.IGNORECASE)
# an imperative edit of the list: the verb opens the sentence or follows a comma, colon, bracket, "then", "also" or
# "please" (not a subject and a modal: "I can list ...", "I can also list ..." is a plan), and is not negated ("do not
# add")
_LIST_EDIT = re.compile(
    r"(?:^|[,:(]|(?<!\bcan )(?<!\bcould )(?<!\bwill )(?<!\bwould )(?<!'ll )(?<!\bmay )(?<!\bmight )\b(?:then|also|please))"
    r"[ \t]*+(?:also[ \t]++)?(?:add|list|include|replace|swap|substitute|change|switch)\b",
    re.IGNORECASE)
_OFFERED = re.compile(
    r"\b(?:other|alternative|additional|further)\s+(?:candidates?|possibilities|options|alternatives|diagnos[ie]s|answers|labels)\b"
    r"|\bequally\s+(?:likely|possible|probable)\b|\balternatively\b|\bcould\s+(?:also|equally|just\s+as\s+well)\s+be\b",
    re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:no|not|none|never|nothing|neither|nor)\b|n't\b", re.IGNORECASE)


def offers_other_labels(tail: str, limit: int = 2000) -> str | None:
    """Why a sentence of ``tail`` (the text after the block) keeps the list open, or None (module docstring): a
    conditional imperative edit of the list, or other labels offered beside it; the writer has not committed to the
    block's list, so paying the block pays a hedge whose other branch the reward never reads."""
    for sentence in _SENTENCE.split(tail[:limit]):
        sentence = sentence.strip(" \t()[]")
        if not sentence:
            continue
        if _CONDITION.search(sentence) and _LIST_EDIT.search(sentence):
            return "a note after the <answer> block edits the list under a condition"
        if _OFFERED.search(sentence) and not _NEGATED.search(sentence):
            return "a note after the <answer> block offers other labels beside the list"
    return None


# a statement of the text after the block: a sentence, a semicolon's clause, a bracket, or a clause after a word that
# gives a reason or a contrast ("..., so they are left out", "because the report denies it"); commas stay inside, so a
# denial's scope over a list ("no effusion, consolidation or pneumothorax") is read whole
_STATEMENT = re.compile(r"[.;!?\n()]+|\b(?:because|so|since|but|while|whereas|as)\b", re.IGNORECASE)
# a statement that explains why findings are not in the list (they are denied, left out, not included) names them
# only to exclude them: "Pneumothorax was left out because the report denies it.", "I'll leave effusion off",
# "Lymphadenopathy and pleural effusion are explicitly denied", "Pneumonia não entra"
_LEFT_OUT = re.compile(
    r"\b(?:den(?:y|ies|ied|ying)|negat(?:ed|es|ing|ion)|absent|exclud\w*|omit\w*|left\s+out|leav(?:e|ing)\s+(?:\w+\s+){0,3}?(?:off|out)|"
    r"not\s+(?:be\s+)?(?:included|listed|present|definite|stated|affirmed)|ruled?\s+out|neither|nor|não|nicht|kein\w*)\b"
    # a statement that interprets a finding or asks for a check names a cause to consider, no finding of the list
    # ("Findings are consistent with pneumonia", "likely represents", "Clinical correlation for infection is advised")
    r"|\b(?:consistent|compatible)\s+with\b|\b(?:suggest\w*|represent\w*|reflect\w*|likely|due\s+to|concerning\s+for|"
    r"correlat\w*|recommend\w*|advis\w*|consider\w*|evaluat\w*|differential)\b", re.IGNORECASE)


# a sentence that places the findings it names in another patient's or an earlier study's record is no finding of this
# study: "The labels of the old film (pneumothorax) were on another patient.", "the effusion was on the prior CT";
# a comparison that states a finding of this study ("Compared with the prior film, a new pneumothorax") is read
_ANOTHER_RECORD = re.compile(
    r"\b(?:another|other|different|wrong)\s+patient'?s?\b"
    r"|\b(?:of|on|from|in)\s+(?:the|that|an?)\s+(?:old|older|prior|previous|earlier)\s+"
    r"(?:films?|stud(?:y|ies)|exams?|radiographs?|x-?rays?|ct|mri|reports?|images?)\b", re.IGNORECASE)
# the sentences of the text after the block, inside which _STATEMENT cuts clauses
_SENTENCE = re.compile(r"[.!?\n]+")


def _findings_stated(text: str, statuses: tuple[str, ...] = ("disorder_present",)) -> set[str]:
    """The lexicon findings ``text`` states with one of ``statuses`` (read as a report is, conflicts kept)."""
    from polyreward.verifiers.radiology_kg import extract_kg

    kg = extract_kg(text, uncertain_as="uncertain", keep_conflicts=True)
    return {name for name, label in kg.entities if label in statuses}


def names_other_findings(tail: str, labels: Iterable[str], report: str, limit: int = 2000) -> str | None:
    """The first finding that ``tail`` (the text after the block) states present and neither the block's
    ``labels`` nor the prompt's ``report`` states present, or None (module docstring, red team ``holdout_r43``).
    ``names_other_findings("Summary: a, b and pneumothorax.", ["a"], "No pneumothorax.")`` is ``"pneumothorax"``."""
    text = tail[:limit]
    if not text.strip():
        return None
    stated = set()
    for sentence in _SENTENCE.split(text):
        if _ANOTHER_RECORD.search(sentence):
            continue
        for clause in _STATEMENT.split(sentence):
            if clause.strip() and not _LEFT_OUT.search(clause):
                stated |= _findings_stated(clause)
    if not stated:
        return None
    held = _findings_stated(". ".join(labels) + ".", ("disorder_present",)) | _findings_stated(report, ("disorder_present",))
    other = sorted(stated - held)
    return other[0] if other else None
# (red team holdout_r44) a count of the definite findings stated after the list: "Two findings definitely present.",
# "three definite findings", "2 findings are present"
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_FINDINGS_COUNTED = re.compile(
    r"\b(?P<n>one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+"
    r"(?:(?:definite|positive)\s+(?:findings?|labels?)\b"
    r"|(?:findings?|labels?)\s+(?:(?:is|are)\s+)?(?:definitely\s+|clearly\s+)?present\b)", re.IGNORECASE)


def counted_findings(tail: str, limit: int = 2000) -> int | None:
    """The number of definite findings the last count in ``tail`` (the text after the block) states, or None.

    A recount after the list that lands on another number ("Going through the report once more ...: edema;
    cardiomegaly. Two findings definitely present." after a block of three) ends on another list, as an answer line
    does (:func:`answer_line`); the caller compares it with the block's size, so a recount that lands on the same
    number ("two definite findings" after two labels) keeps the list. A count that does not say the findings are
    present or definite ("the report's three findings") is no count of the answer."""
    found = None
    for found in _FINDINGS_COUNTED.finditer(tail[:limit]):
        pass
    if found is None:
        return None
    n = found.group("n").casefold()
    return _COUNT_WORDS.get(n) or int(n)
