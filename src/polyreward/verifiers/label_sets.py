"""Label-set checks for multi-label answers: extraction from ``<answer>`` blocks, Jaccard and F1.

Pure functions (no reward semantics): the ``jaccard`` reward wraps them. The exact extraction
follows MedTVT-R1 (keke-nice/MedTVT-R1, grpo_train.py ``Jaccard_reward``): first
``<answer>(.*?)</answer>`` match (DOTALL), body stripped, split on ``;``, each label stripped,
empties dropped, set semantics, case-sensitive string equality. The block is found with literal
searches (:mod:`polyreward.verifiers.tags`), the same match in linear time.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
import unicodedata
from collections.abc import Iterable, Mapping

from polyreward.verifiers.radiology_kg import tokenize
from polyreward.verifiers.radiology_labels import finding_of
from polyreward.verifiers.span_corrections import repaired_item
from polyreward.verifiers.tags import first_block

_WHITESPACE = re.compile(r"\s+")


def answer_block(text: str) -> str | None:
    """Body of the first ``<answer>…</answer>`` block (not stripped), or None when there is none."""
    return first_block(text, "answer")


def split_labels(body: str, separator: str = ";") -> list[str]:
    """Split an answer body on ``separator``; labels are stripped and empty ones dropped."""
    return [label.strip() for label in body.strip().split(separator) if label.strip()]


# a list marker: a bullet, "1." / "1)", or a number in brackets ("(1) a; (2) b": red team holdout_r6); a bullet is
# also an emoji, a dingbat, a geometric shape or an arrow ("🫁 consolidation", "▸ edema": red team holdout_r54), but
# not a check or cross mark nor a prohibition sign, which say whether the label is chosen (_CHECKED, _UNCHECKED), and
# not a mathematical symbol ("∅ pneumothorax": none)
_BULLET_SYMBOL = ("[\u2022\u2023\u2043\u00b7\u2190-\u21ff\u25a0-\u25ff\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff\ufe0f]"
                  "(?<![\u2713\u2714\u2705\u2611\u2610\u2717\u2718\u274c\u274e\u2716\u26d4\U0001f6ab\U0001f6d1])")
_LIST_MARKER = re.compile(rf"^\s*(?:[-*•·+]|{_BULLET_SYMBOL}{{1,3}}|\d{{1,3}}[.)]|\(\d{{1,3}}\))\s+")
# markdown emphasis around a label or the whole list ("**a; b**", "`a`"): markup, not part of a label; so are double
# quotes around a label ('"a"; "b"', as a JSON list writes its strings: red team holdout_r6)
_EMPHASIS = re.compile(r'^[*_`"“”]+|[*_`"“”]+$')
# a checkbox before a label (red team holdout_r2): checked, the label is chosen ("[x] a"); unchecked, it is not ("[ ] a")
_CHECKED = re.compile(r"^(?:\[[xX✓✔]\]|[☑✅✓✔])\s*")
_UNCHECKED = re.compile(r"^(?:\[\s?\]|[☐✗✘❌])\s*")


# a label marked denied after it (red team holdout_r4): "pneumothorax: no", "pneumothorax (absent)" is not chosen
_DENIED = re.compile(r"(?<!\s)\s*(?::\s*(?:no|absent|negative|false|none|not\s+(?:present|seen))|[(\[]\s*(?:no|absent|negative|false|not\s+(?:present|seen))\s*[)\]])\s*$",
                     re.IGNORECASE)


def _flag_labels(body: str) -> list[str] | None:
    """The labels of a body that is one JSON object of findings to flags (``{"a": true, "b": false}``): the keys
    flagged true (or "yes" / "present"); None for any other body (red team ``holdout_r4``)."""
    import json

    try:
        value = json.loads(body.strip())
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not value or not all(isinstance(v, (bool, str)) for v in value.values()):
        return None
    return [k for k, v in value.items() if v is True or (isinstance(v, str) and v.strip().casefold() in ("yes", "present", "true"))]


def _list_literal(body: str) -> list[str] | None:
    """The labels of a body that is one JSON or Python list of strings (``["a", "b"]``, ``['a', 'b']``); None for any
    other body (red team ``holdout_r5``)."""
    import ast
    import json

    text = body.strip()
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return None
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(v, str) for v in value):
        return None
    return list(value)


# other list separators a single-line body may use when it has no prompt separator: a spaced pipe, a tab
_OTHER_SEPARATOR = re.compile(r"\s\|\s|\t")
# the subject and verb a sentence opens its list with ("The findings present are a, b and c.", "Findings include
# a, b"): a finding noun, affirming qualifiers only (so "possible findings are", "findings excluded are" keep their
# words and match no label), then a copula (red team holdout_r5) or a colon, before any list ("Definite findings: a; b":
# red team holdout_r6)
# red team holdout_r55: or the answer's own label, plain or bold ("Answer: a; b", "**Final answer:** a; b")
# red team holdout_r53: or the study the list is of, when it is the current one ("Current study: a; b", "Today's film:
# a; b", "Current findings: a; b"); a prior study's heading ("Prior: a; b") names no current list and stays a word
# red team holdout_r58: or the heading of the list a panel settled on, the writer's own final ("Consensus: a; b",
# "Attending sign-off:\n a; b", "Panel consensus: a; b", "Final: a; b"); a member's ("Reader 1: a") or a minority's
# ("Dissent: a") stays a word of the label
_LEAD_IN = re.compile(
    r"^\s*(?:\*\*|__)?(?:the\s+)?(?:(?:panel|committee|board|team|readers?|attending|chair|judge|mdt)(?:['\u2019]s)?\s+)?"
    r"(?:consensus|sign-?off|final|verdict|agreed(?:\s+list)?)\s*:(?:\*\*|__)?\s+|"
    r"^\s*(?:\*\*|__)?(?:the\s+)?(?:(?:definite|confirmed|main|key|final|positive)\s+)?(?:findings?|labels?|diagnos[ie]s|abnormalit(?:y|ies)|answer)"
    r"(?:\s+(?:(?:definitely\s+)?present|seen|identified))?(?:\s+(?:are|is|include|includes)\s*:?|\s*:)(?:\*\*|__)?\s+|"
    r"^\s*(?:\*\*|__)?(?:the\s+)?(?:current|today['\u2019]?s|latest|most\s+recent)(?:\s+(?:study|film|exam(?:ination)?|radiograph|cxr|"
    r"chest\s+x-?ray|image)(?:['\u2019]s)?)?(?:\s+(?:findings?|labels?))?\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)?\s*:)\s+", re.IGNORECASE)
_LAST_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
# a bracket a label carries after it ("nodule (RUL, 6 mm)"): its commas are the bracket's, not the list's (red team
# holdout_r10); an unmatched bracket ("1) a, 2) b") opens or closes nothing
_BRACKETED = re.compile(r"\([^()\n]*\)|\[[^\[\]\n]*\]")


def _comma_split(body: str) -> list[str]:
    """``body`` split at the commas outside every matched bracket (``a (b, c), d`` is two labels), in one pass."""
    inside = [(m.start(), m.end()) for m in _BRACKETED.finditer(body)] if "(" in body or "[" in body else []
    labels, start, spans = [], 0, iter(inside)
    span = next(spans, None)
    for i, ch in enumerate(body):
        while span is not None and span[1] <= i:
            span = next(spans, None)
        if ch == "," and not (span is not None and span[0] <= i < span[1]):
            labels.append(body[start:i])
            start = i + 1
    labels.append(body[start:])
    return labels


# a label denied before it (red team holdout_r7): "no pneumothorax", "without edema" names a finding absent, not chosen
_DENIED_BEFORE = re.compile(r"^\s*(?:[-*•]\s+)?(?:no|without)\s+(?=[^\W\d_])", re.IGNORECASE)
# ... except the label of a normal study, which denies no finding of its own ("No finding.", CheXpert's "No Finding";
# red team holdout_r18: the reference "no finding" itself was read as no label)
_NORMAL_STUDY = re.compile(r"^\s*(?:[-*•]\s+)?no\s+findings?\s*\.?\s*$", re.IGNORECASE)
# a header opening a line of the body that sorts the labels after it by status ("Present: a; b" / "Absent: c"): the
# labels under an affirming header are chosen, those under a denying one are not (red team holdout_r7)
_STATUS_HEADER = re.compile(
    r"^[ \t]*(?:[-*•][ \t]+)?[*_]{0,2}(present|positive|seen|confirmed|absent|negative|negatives|pertinent[ \t]+negatives|"
    r"not[ \t]+(?:present|seen)|excluded|ruled[ \t]+out)[*_]{0,2}[ \t]*:[*_]{0,2}[ \t]*", re.IGNORECASE | re.MULTILINE)
_AFFIRMING_HEADERS = frozenset({"present", "positive", "seen", "confirmed"})


def _affirmed_sections(body: str, separator: str) -> str:
    """``body`` with only the text under affirming status headers (and before the first header) when its lines open
    with status headers (:data:`_STATUS_HEADER`), else ``body``."""
    headers = list(_STATUS_HEADER.finditer(body)) if ":" in body else []
    if not headers:
        return body
    kept = [body[:headers[0].start()]]
    for i, header in enumerate(headers):
        if _WHITESPACE.sub(" ", header.group(1).casefold()) in _AFFIRMING_HEADERS:
            kept.append(body[header.end():headers[i + 1].start() if i + 1 < len(headers) else len(body)])
    return (separator if separator in body else "\n").join(part.strip() for part in kept if part.strip())


# a markdown table row of one cell ("| Cardiomegaly |") and its header rule ("|---|", "| :--- |"): red team holdout_r35
_ONE_CELL_ROW = re.compile(r"^\|([^|\n]*)\|$")
_HEADER_RULE = re.compile(r"^:?-{3,}:?$")


def _one_column_table(body: str) -> list[str] | None:
    """The cells under the header of a one-column markdown table that is the whole body ("| Finding |", "|---|",
    "| Cardiomegaly |", ...), or None when the body is no such table. The row above the rule is the column's name,
    not a label; a table of several columns (a finding and its status) is left to the other readings."""
    lines = [line.strip() for line in body.strip().splitlines() if line.strip()]
    cells = []
    for line in lines:
        row = _ONE_CELL_ROW.match(line)
        if row is None:
            return None
        cells.append(row.group(1).strip())
    rules = [i for i, cell in enumerate(cells) if _HEADER_RULE.match(cell)]
    if rules != [1]:
        return None
    return cells[2:] or None


# the words of a structure's key that name the label list ("labels", "findings", "final_labels", "answer"), and those
# that name labels taken out of it ("exclude", "absent", "removed")
_LABELS_KEY = re.compile(r"(?:^|_)(?:labels?|findings?|answers?|results?|diagnos[ie]s|list|present|positive|definite)(?:_|$)")
_EXCLUDED_KEY = re.compile(r"(?:^|_)(?:exclude[sd]?|remove[sd]?|drop(?:ped)?|absent|negatives?|denied|not_present)(?:_|$)")


def record_labels(body: str, separator: str = ";") -> tuple[list[str] | None, str] | None:
    """(labels, "") or (None, why not) of a body that is one structure naming a label list (red team ``holdout_r46``;
    :mod:`polyreward.verifiers.record_fields`): the committed label field (``{"labels": [...]}``, ``findings:`` and its
    ``- a`` items, repeated ``<label>`` elements; a final field over a draft one) less the labels an ``exclude`` /
    ``absent`` field takes out, or the first cells of the rows a table's selecting column keeps (``| label | keep
    |``). A field that withdraws the list, two different lists, or a list of lists (alternatives) is no answer.
    None: the body is no such structure (the other readings decide)."""
    from polyreward.verifiers.record_fields import committed_field, record_fields, selected_rows

    if "|" in body and (rows := selected_rows(body)) is not None:
        return [row[0] for row in rows if row and row[0]], ""
    fields = record_fields(body) if any(ch in body for ch in "{<:") else None
    if fields is None:
        return None
    chosen, why = committed_field([f for f in fields if not _EXCLUDED_KEY.search(f.key)],
                                  lambda stem: bool(_LABELS_KEY.search(stem)))
    if why:
        return None, why
    if chosen is None:
        return None
    labels = _field_labels(chosen.value, separator)
    if labels is None:
        return None, f"the {chosen.key!r} field holds no one label list ({str(chosen.value)[:60]!r})"
    out = set()
    for f in fields:
        if _EXCLUDED_KEY.search(f.key):
            out |= {label.casefold() for label in (_field_labels(f.value, separator) or [])}
    return [label for label in labels if label.casefold() not in out], ""


def _field_labels(value: object, separator: str) -> list[str] | None:
    """A field's labels: a list of strings, or a string read as a body is; None for a list of lists (alternatives)."""
    if isinstance(value, str):
        return read_labels(value, separator)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    return None


def read_labels(body: str, separator: str = ";") -> list[str]:
    """The labels a reader sees in an answer body: split on ``separator`` when the body uses it; else one label per
    line of a list ("- a" / "1. a" / plain lines); else on commas outside brackets ("a, b"; ``a (b, c)`` is one label), else on a spaced ``&`` (``a & b``). A
    trailing full stop is not part of a label, nor is markdown emphasis around it (``**a; b**``). A label with a checked box (``[x] a``, ``☑ a``) is chosen, one with an unchecked box
    (``[ ] a``, ``☐ a``, ``✗ a``) is not, and is left out (red team ``holdout_r2``); so is a label marked denied
    after it (``a: no``, ``a (absent)``), and a body that is a JSON object of flags names the keys flagged true
    (red team ``holdout_r4``); a label denied before it (``no a``, ``without a``) is left out too, and a body whose
    lines open with status headers (``Present: a; b`` / ``Absent: c``) names the labels under the affirming ones
    (red team ``holdout_r7``); ``no finding`` is the normal study's label, not a denied finding (``holdout_r18``); a
    body that is a one-column markdown table names the cells under its header (``holdout_r35``). The guarded (normalised) reading: the prompt's separator is a format request, and a
    genuine answer written as a list or with commas names the same labels."""
    if (structured := record_labels(body, separator)) is not None:  # a structure's label field (holdout_r46)
        return structured[0] or []
    if body.lstrip().startswith("{") and (flags := _flag_labels(body)) is not None:
        return flags
    if body.lstrip().startswith("[") and (items := _list_literal(body)) is not None:
        return [item.strip() for item in items if item.strip()]
    if (cells := _one_column_table(body)) is not None:  # a one-column markdown table names its cells (holdout_r35)
        body = "\n".join(cells)
    body = _affirmed_sections(body, separator)
    lead = _LEAD_IN.match(body)
    body = body[lead.end():] if lead else body
    if separator in body:
        labels = body.split(separator)
    elif len([line for line in body.splitlines() if line.strip()]) > 1:
        labels = body.splitlines()
    elif _OTHER_SEPARATOR.search(body):
        labels = _OTHER_SEPARATOR.split(body)
    elif "," in body or lead:
        # a sentence's list: its subject and verb are no label, nor is the "and" before the last ("a, b and c")
        labels = _comma_split(body)
        labels[-1:] = _LAST_AND.split(labels[-1]) if len(labels) > 1 or lead else labels[-1:]
    elif " & " in body:
        labels = body.split(" & ")
    else:
        labels = [body]
    labels = [repaired_item(label) for label in labels]  # "pneumothorax -- scratch that -- cardiomegaly" (holdout_r59)
    labels = [label for label in labels
              if not _DENIED.search(label) and (not _DENIED_BEFORE.match(label) or _NORMAL_STUDY.match(label))]
    labels = [without_negative_remark(label) for label in labels]  # "atelectasis (not consolidation)" (holdout_r48)
    labels = [_EMPHASIS.sub("", _LIST_MARKER.sub("", label).strip()).strip().rstrip(".").strip() for label in labels]
    labels = [_EMPHASIS.sub("", label).strip() for label in labels]
    return [_CHECKED.sub("", label) for label in labels if label and not _UNCHECKED.match(label)]


# (red team holdout_r48) a pertinent negative written beside a label, in brackets, after a spaced dash or after a
# comma: "atelectasis (not consolidation)", "pulmonary nodule — no consolidation, pleural effusion or pneumothorax",
# "edema, not pneumonia"
_NEGATIVE_REMARK = re.compile(
    r"(?:[^\S\n]*[(\[][^\S\n]*(?P<bracketed>(?:not|no|without|rather[^\S\n]+than)[^\S\n][^()\[\]\n]+)[)\]]"
    r"|[^\S\n]+[—–-][^\S\n]*(?P<dashed>(?:not|no|without)[^\S\n][^()\[\]\n]+)"
    r"|[^\S\n]*,[^\S\n]*(?:but[^\S\n]+)?(?P<comma>not[^\S\n][^(),\[\]\n]+))[^\S\n]*\.?[^\S\n]*$", re.IGNORECASE)


def without_negative_remark(label: str) -> str:
    """``label`` without a pertinent negative written beside it (:data:`_NEGATIVE_REMARK`) when the remark denies
    other findings and nothing else: each finding the KG extractor reads in it is not present, and none is the
    label's own finding. ``atelectasis (not consolidation)`` is ``atelectasis``; ``consolidation (not definite)``
    (a hedge of the label: no finding in the remark) and ``effusion (no effusion)`` stay as written.

    >>> without_negative_remark("atelectasis (not consolidation)")
    'atelectasis'
    >>> without_negative_remark("pulmonary nodule — no consolidation, pleural effusion or pneumothorax")
    'pulmonary nodule'
    >>> without_negative_remark("consolidation (not definite)")
    'consolidation (not definite)'
    """
    found = _NEGATIVE_REMARK.search(label) if "no" in label.casefold() or "without" in label.casefold() else None
    if found is None or not label[:found.start()].strip():
        return label
    from polyreward.verifiers.radiology_kg import extract_kg

    remark = found.group("bracketed") or found.group("dashed") or found.group("comma")
    statuses = {text: kind for text, kind in extract_kg(remark).entities if kind.startswith(("disorder", "devices"))}
    own = finding_of(tuple(tokenize(label[:found.start()])))
    if not statuses or any(not kind.endswith("notpresent") for kind in statuses.values()) or own in statuses:
        return label
    return label[:found.start()].strip()


_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def normalize_label(label: str, synonyms: Mapping[str, str] | None = None) -> str:
    """Case-fold, NFKC-normalise and collapse whitespace; then map through ``synonyms`` (keys normalised the same way)."""
    # an underscore joins a label's words as a space does (pleural_effusion; red team holdout_r5), and so does a hyphen
    # between two letters (pleural-effusion; red team holdout_r6), on both sides of the comparison
    key = _WHITESPACE.sub(" ", _WORD_HYPHEN.sub(" ", unicodedata.normalize("NFKC", label).replace("_", " "))).strip().casefold()
    if synonyms:
        return synonyms.get(key, key)
    return key


def normalize_synonyms(synonyms: Mapping[str, str]) -> dict[str, str]:
    """A synonym map with keys and values normalised (so lookups after :func:`normalize_label` hit)."""
    return {normalize_label(str(k)): normalize_label(str(v)) for k, v in synonyms.items()}


def jaccard(predicted: Iterable[str], gold: Iterable[str]) -> float:
    """|P ∩ G| / |P ∪ G| over sets; 0.0 when the union is empty (MedTVT-R1 convention)."""
    p, g = set(predicted), set(gold)
    union = p | g
    return len(p & g) / len(union) if union else 0.0


def f1(predicted: Iterable[str], gold: Iterable[str]) -> float:
    """Set F1 = 2|P ∩ G| / (|P| + |G|); 0.0 when both sets are empty."""
    p, g = set(predicted), set(gold)
    total = len(p) + len(g)
    return 2 * len(p & g) / total if total else 0.0


# red team holdout_r3: the forms a reader takes for the same finding (guarded, normalised mode)
_AFFIRMED = re.compile(r"(?<!\s)\s*(?:[(\[]\s*(?:present|positive|yes|confirmed|\+)\s*[)\]]|:\s*(?:present|positive|yes))\s*$")
# (red team holdout_r58) a bracket after a label that says every reader agrees on it: "pneumothorax (unanimous, 3/3
# readers)", "(agreed by all)", "(consensus)"; each of its comma-separated parts a whole agreement, so a share of the
# readers ("(2/3)", "(1 of 3 readers)") or any other word keeps the bracket part of the label
_BRACKET_AFTER = re.compile(r"(?<!\s)\s*[(\[]([^()\[\]\n]{1,60})[)\]]\s*$")
_AGREEMENT = re.compile(r"\s*(?:unanimous(?:ly)?(?:\s+agreed)?|consensus|agreed(?:\s+by\s+all(?:\s+[a-z]+)?)?|all\s+[a-z]+\s+agree|"
                        r"(?P<agree>\d{1,2})\s*(?:/|of)\s*(?P<of>\d{1,2})(?:\s+[a-z]+)?)\s*", re.IGNORECASE)


def _without_agreement(label: str) -> str:
    """``label`` without a bracket after it whose every part says all readers agree on it (:data:`_AGREEMENT`)."""
    bracket = _BRACKET_AFTER.search(label) if label.endswith((")", "]")) else None
    if bracket is None:
        return label
    parts = [_AGREEMENT.fullmatch(part) for part in bracket.group(1).split(",")]
    if all(part is not None and part.group("agree") == part.group("of") for part in parts):
        return label[:bracket.start()]
    return label
_AND_FIRST = re.compile(r"^(?:and|&)\s+")
_KEY_WORD = re.compile(r"[^\W\d_]+")


def _word_key(word: str) -> str:
    """One word's spelling key: British ``ae`` / ``oe`` as ``e`` (oedema, haemorrhage, anaemia), ``-our`` as ``-or``
    (tumour), and a plural as its singular (effusions, opacities); a crude key, applied to both sides."""
    if len(word) > 4:
        word = word.replace("ae", "e").replace("oe", "e")
        if word.endswith("our"):
            word = word[:-3] + "or"
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "is", "us")):
        return word[:-1]
    return word


def spelling_key(text: str) -> str:
    """``text`` (already normalised: :func:`normalize_label`) with every word as its spelling key (:func:`_word_key`)."""
    return _KEY_WORD.sub(lambda m: _word_key(m.group()), text)


def label_keys(labels: list[str]) -> list[str]:
    """Labels as a reader compares them (normalised ones): an affirming status after a label (``a (present)``,
    ``a: yes``) is no part of it, nor is the readers' agreement on it (``a (unanimous, 3/3 readers)``), nor is the ``and`` before the last of a list (``a; b; and c``), and spellings key
    as :func:`spelling_key` (red team ``holdout_r3``)."""
    keys = []
    for i, label in enumerate(labels):
        label = _without_agreement(_AFFIRMED.sub("", label))
        if i and i == len(labels) - 1:
            label = _AND_FIRST.sub("", label)
        keys.append(spelling_key(label.strip()))
    return keys


def as_worded_in(predicted: set[str], gold: set[str], source: str) -> set[str]:
    """``predicted`` with each label that is a gold label qualified as ``source`` words it (``small left pleural
    effusion`` for ``pleural effusion`` when the report writes "Small left pleural effusion") read as that gold label:
    the qualifiers are the report's own words for the finding. All three in one key space (:func:`spelling_key`)."""
    out = set()
    words = None
    for label in predicted:
        if label not in gold:
            label = next((g for g in gold if label.endswith(" " + g) and label in source), label)
        if label not in gold:  # "atrial fibrillation with rapid ventricular response" as the ECG read writes it
            label = next((g for g in gold if label.startswith(g + " ") and _WITH_FEATURE.fullmatch(label[len(g) + 1:])
                          and label in source), label)
        if label not in gold and (gloss := _GLOSS.match(label)) is not None and gloss.group(1) in gold:
            # "pleural effusion: small, left", "cardiomegaly (heart enlarged)": a gloss in the report's own words
            # describes the gold label; a gloss with any other word (a status, a hedge, another finding the report
            # does not name) keeps the label whole (red team holdout_r5)
            words = set(_KEY_WORD.findall(source)) if words is None else words
            if set(_KEY_WORD.findall(gloss.group(2) or gloss.group(3))) <= words:
                label = gloss.group(1)
        out.add(label)
    return out


# red team holdout_r38: a feature after the gold label, "with" and words only, no alternative ("with rapid
# ventricular response"; not "with or without effusion")
_WITH_FEATURE = re.compile(r"with(?: (?!or\b|and\b|without\b|possible\b|probable\b|likely\b)[^\W\d_]+){1,5}")


# a gloss is words only (letters, spaces, commas, hyphens): "(-)", ": 0", "(+)" are marks, not descriptions
_GLOSS = re.compile(r"^(.+?)\s*(?::\s*([^\W\d_]+(?:[\s,-]+[^\W\d_]+)*)|\(\s*([^\W\d_]+(?:[\s,-]+[^\W\d_]+)*)\s*\))$")


# red team holdout_r18: shorthand for gold labels that a reader takes as those labels (guarded, normalised mode)
_CONJUNCTION = re.compile(r"\s+(?:and|&|plus)\s+")
_INITIALISM = re.compile(r"(?=\d*[^\W\d_])[^\W_]{2,6}")  # letters, a digit among them: "t2dm" (red team holdout_r38)
_INITIAL_WORD = re.compile(r"[^\W\d_]+|\d+")


def initialism_of(label: str, gold: set[str]) -> str | None:
    """The one gold label of two or more words whose initials ``label`` (one word of 2-6 letters) spells (``af`` for
    ``atrial fibrillation``, ``lbbb`` for ``left bundle branch block``; a number word is spelled whole, ``t2dm`` for
    ``type 2 diabetes mellitus``: red team ``holdout_r38``); None when none or several do. A gold label
    that is a finding of the radiology lexicon is left to its aliases there (``PTX``; :mod:`radiology_labels`): ``PE``
    reads as pulmonary embolism to a clinician, not as pleural effusion (red team ``holdout_r9``)."""
    if not _INITIALISM.fullmatch(label):
        return None
    hits = [g for g in gold if len(words := _INITIAL_WORD.findall(g)) >= 2 and "".join(w[0] if w.isalpha() else w for w in words) == label
            and finding_of(tuple(tokenize(g))) is None]
    return hits[0] if len(hits) == 1 else None


def as_gold_shorthand(predicted: set[str], gold: set[str]) -> set[str]:
    """``predicted`` (keys, :func:`label_keys`) with the shorthand a clinician writes for gold labels read as them:
    an initialism of a gold label (``AF; LBBB``: :func:`initialism_of`) and one label joining gold labels with
    ``and`` / ``&`` / ``plus`` (``cardiomegaly and atelectasis``, a list written as a phrase). A conjunct that is not
    a gold label (``cardiomegaly and pneumonia`` where pneumonia is not gold) keeps the label whole, so the shorthand
    never adds a label the gold lacks."""
    def as_gold(label: str) -> str | None:
        return label if label in gold else initialism_of(label, gold)

    out: set[str] = set()
    for label in predicted:
        if label in gold:
            out.add(label)
            continue
        parts = [part.strip() for part in _CONJUNCTION.split(label)]
        named = [as_gold(part) for part in parts]
        out.update(named if all(named) else [label])  # type: ignore[arg-type]
    return out
