"""Radiology labels read as the findings they name (red team ``holdout_r8``), for ``jaccard``'s normalised mode.

A clinician lists a report's findings in the words clinicians use: ``effusion`` (ChestX-ray14's label name) for
``pleural effusion``, ``PTX`` for ``pneumothorax``, ``enlarged cardiac silhouette`` for ``cardiomegaly``, ``rib
fractures`` for ``fracture``, ``R pleural effusion`` for ``pleural effusion``. A predicted label that is not a gold
label is read as the gold label ``g`` when

* both are whole aliases of the same finding in the KG extractor's radiology lexicon
  (:func:`polyreward.verifiers.radiology_kg.default_lexicon`: radlabels' 49 findings and their aliases, each alias
  naming one finding), or
* it is ``g`` (or an alias of ``g``'s finding) after words that place or size it as the report does: an anatomy word
  of that lexicon naming a place the report names (``rib`` where it writes "ribs", ``R`` or ``right`` where it writes
  "right", ``pulmonary`` where it writes "lungs"), or a size word the report writes (``moderate``).

A bracket after the label that holds only such words, or a measurement the report writes (``nodule (RUL, 6 mm)``
of "stable 6 mm right upper lobe nodule"; red team ``holdout_r10``), places or sizes it as those words before it do,
and so does that measurement before it (``6 mm nodule``).

Any other word before it or in its bracket (``no``, ``possible``, ``old``, ``history of``, ``pericardial``), a
measurement the report does not write (``8 mm`` for a 6 mm nodule), a place the report does not
name (``left`` for a right effusion) or a size it does not write (``massive`` for a moderate effusion: red team
``holdout_r3``) keeps the label whole, so a hedged, denied, dated, misplaced or different finding stays an extra
label; a finding the gold does not hold stays extra however it is worded. Labels outside the lexicon (ECG diagnoses)
are compared as before. Reconstructed rule (ours); linear in the labels.
"""

from __future__ import annotations

import re
from functools import lru_cache

from polyreward.verifiers.radiology_kg import LATERALITY, default_lexicon, tokenize

LATERALITY_WORDS = frozenset(LATERALITY) | frozenset({"right", "left"})
FINDING_KINDS = ("disorder", "device")
_MAX_PHRASE = 4


@lru_cache(maxsize=1)
def _places_of_word() -> dict[str, frozenset[str]]:
    """Each anatomy word of the lexicon -> the places (canonical anatomy names) whose aliases hold it."""
    places: dict[str, set[str]] = {}
    for key, (kind, name) in default_lexicon().phrases.items():
        if kind == "anatomy":
            for word in key:
                places.setdefault(word, set()).add(name)
    return {word: frozenset(names) for word, names in places.items()}


@lru_cache(maxsize=1)
def _size_words() -> frozenset[str]:
    return frozenset(word for key, (kind, _) in default_lexicon().phrases.items() if kind == "size" for word in key)


# size words that say how a finding spreads, not how large or severe it is: a report that writes "No focal
# consolidation" grades no finding's size (red team holdout_r49)
_SPREAD = frozenset({"focal", "diffuse", "patchy", "dense", "extensive", "subtle"})


# a measurement's unit: "6 mm", "2.5 cm" (a number token then the unit token) is one size word, "6 mm"
_LENGTH_UNITS = frozenset({"mm", "cm"})
# (red team holdout_r45) an approximation word right before a measurement ("~4-5 cm", "approximately 2 cm") says how
# it was measured, not another size; a comparison sign between two sides ("L > R") compares the places it names
_APPROXIMATELY = frozenset({"~", "≈", "approximately", "approx", "about", "around", "roughly", "circa", "ca"})
_COMPARISON = frozenset({">", "<", ">=", "<=", "≥", "≤"})


def _is_number(token: str) -> bool:
    return token.replace(".", "", 1).isdigit()


def _measurements(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """``tokens`` with each number followed by a length unit joined into one token (``("6", "mm")`` -> ``"6 mm"``),
    a range of two numbers before one unit joined into one (``("9", "11", "mm")``, the tokens of "9-11 mm" or
    "9–11 mm", -> ``"9-11 mm"``; red team ``holdout_r45``), an approximation word right before a measurement dropped
    (``("~", "4-5 cm")`` -> ``("4-5 cm",)``) and a comparison sign between two sides dropped (``("l", ">", "r")`` ->
    ``("l", "r")``)."""
    if not any(t in _LENGTH_UNITS or t in _COMPARISON for t in tokens):
        return tokens
    out: list[str] = []
    for token in tokens:
        if token in _LENGTH_UNITS and out and _is_number(out[-1]):
            unit = f"{out.pop()} {token}"
            out.append(f"{out.pop()}-{unit}" if out and _is_number(out[-1]) else unit)  # "9", "11 mm" -> "9-11 mm"
            if len(out) > 1 and out[-2] in _APPROXIMATELY:
                del out[-2]
        else:
            out.append(token)
    return tuple(t for i, t in enumerate(out)
                 if not (t in _COMPARISON and 0 < i < len(out) - 1 and out[i - 1] in LATERALITY_WORDS
                         and out[i + 1] in LATERALITY_WORDS))


# a place inside the lung: a lobe, the lingula, a part of the lung named with it ("left lung base", "right upper lobe")
_PART_OF_LUNG = re.compile(r"\b(?:lobes?|lingula|lungs?)\b")


def report_terms(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the words of ``source`` and its measurements (``6 mm``), the places it names: canonical anatomy of every
    anatomy phrase in it, and the lung when one of them lies inside it: a report that writes "right upper lobe
    nodule" places the nodule in the lung, so ``pulmonary nodule`` places it as the report does (red team
    ``holdout_r30``))."""
    tokens = tokenize(source)
    phrases = default_lexicon().phrases
    places = {phrases[key][1] for i in range(len(tokens)) for n in range(1, _MAX_PHRASE + 1)
              if (key := tuple(tokens[i:i + n])) in phrases and phrases[key][0] == "anatomy"}
    if any(_PART_OF_LUNG.search(place) for place in places):
        places.add("lung")
    return frozenset(tokens) | frozenset(_measurements(tuple(tokens))), frozenset(places)


def _placed_as_reported(word: str, words: frozenset[str], places: frozenset[str]) -> bool:
    if " " in word:  # a measurement ("6 mm"): a size the report writes
        return word in words
    word = LATERALITY.get(word, word)
    if word in _size_words():
        return word in words or not words & _size_words() - _SPREAD  # a report that grades no size (holdout_r49)
    if word in COURSE:
        return _course_as_reported(word, words)
    return bool(_places_of_word().get(word, frozenset()) & places)


# (red team holdout_r49) words of a finding's time course that keep it present now, each with its kind: "new right
# pleural effusion", "cardiomegaly (stable)", "acute pneumothorax". A dating word ("prior", "old", "history of",
# "resolved") is none of them and keeps the label whole.
COURSE = {
    **dict.fromkeys(("new", "newly", "acute", "developing"), "new"),
    **dict.fromkeys(("stable", "unchanged", "persistent", "persisting", "stationary"), "unchanged"),
    **dict.fromkeys(("increased", "increasing", "worsening", "worsened", "enlarging", "progressive", "progressing"),
                    "worse"),
    **dict.fromkeys(("decreased", "decreasing", "improving", "improved", "smaller"), "better"),
}


def _course_as_reported(word: str, words: frozenset[str]) -> bool:
    """True when the course word ``word`` (:data:`COURSE`) agrees with the report's ``words``: the report writes a word
    of the same kind (``stable`` where it writes "unchanged"), or no course word at all (``acute pneumothorax`` of a
    report that dates nothing). A course the report contradicts (``new`` of an "unchanged" effusion) does not.

    >>> _course_as_reported("stable", frozenset({"heart", "unchanged"}))
    True
    >>> _course_as_reported("new", frozenset({"effusion", "unchanged"}))
    False
    >>> _course_as_reported("acute", frozenset({"moderate", "pneumothorax"}))
    True
    """
    reported = {COURSE[w] for w in words if w in COURSE}
    return not reported or COURSE[word] in reported


@lru_cache(maxsize=1)
def _aliases_of_finding() -> dict[str, frozenset[tuple[str, ...]]]:
    """Each finding of the lexicon -> its aliases (token tuples)."""
    aliases: dict[str, set[tuple[str, ...]]] = {}
    for key, (kind, name) in default_lexicon().phrases.items():
        if kind in FINDING_KINDS:
            aliases.setdefault(name, set()).add(key)
    return {name: frozenset(keys) for name, keys in aliases.items()}


def unstated_subtype(tokens: tuple[str, ...], finding: str, words: frozenset[str],
                     places: frozenset[str] = frozenset()) -> bool:
    """True when ``tokens`` (an alias of ``finding``) is a shorter alias of it qualified by words before it or by a
    prefix glued onto its last word (``tension pneumothorax``, ``hydropneumothorax``) and the report (its ``words``
    and ``places``: :func:`report_terms`) does not state that qualifier, as a word of its own or a place it names
    (``pulmonary`` where it writes "lungs"): a subtype the report does not state (module docstring)."""
    aliases = _aliases_of_finding().get(finding, frozenset())
    for k in range(1, len(tokens)):
        if tokens[k:] in aliases:
            return not all(w in words or (places and _placed_as_reported(w, words, places))
                           or (w in COURSE and _course_as_reported(w, words)) for w in tokens[:k])  # holdout_r49
    last = tokens[-1]
    glued = any(len(a) == 1 and last != a[0] and last.endswith(a[0]) for a in aliases)
    return glued and last not in words


# (red team holdout_r56) the label of the devices as one class ("support devices", CheXpert's): a tube, a line, a drain or
# a cardiac or implanted device is one of them ("ETT; NGT", "PICC"); a foreign body (a coin, a bullet) is not
GENERIC_DEVICE = "support devices generic"
_NOT_A_SUPPORT_DEVICE = frozenset({"foreign body"})


@lru_cache(maxsize=1)
def _support_devices() -> frozenset[str]:
    """The device findings of the lexicon that the generic support-device label covers."""
    return frozenset(name for kind, name in default_lexicon().phrases.values()
                     if kind == "device" and name != GENERIC_DEVICE and name not in _NOT_A_SUPPORT_DEVICE)


def listed_as(finding: str, listed: dict[str, str] | frozenset[str]) -> str:
    """The finding of ``listed`` (the gold labels' findings) that names ``finding``: itself, or the generic support
    devices when it is a support device the gold lists only by that class (``ETT`` for "support devices")."""
    if finding not in listed and GENERIC_DEVICE in listed and finding in _support_devices():
        return GENERIC_DEVICE
    return finding


def finding_of(tokens: tuple[str, ...]) -> str | None:
    """The lexicon finding that ``tokens`` (:func:`tokenize`) is a whole alias of, or None."""
    hit = default_lexicon().phrases.get(tokens)
    return hit[1] if hit is not None and hit[0] in FINDING_KINDS else None


def as_gold_findings(predicted: set[str], gold: set[str], source: str = "") -> set[str]:
    """``predicted`` with each label that names a gold label's finding (module docstring) read as that gold label;
    ``source`` is the report (the prompt): without it only whole aliases are read."""
    by_tokens = {tuple(tokenize(g)): g for g in gold}
    by_finding: dict[str, str] = {}
    for tokens, g in by_tokens.items():
        if (finding := finding_of(tokens)) is not None:
            by_finding.setdefault(finding, g)
    words, places = report_terms(source) if source else (frozenset(), frozenset())
    qualifiers = reported_qualifiers(source) if source else {}
    out = set()
    for label in predicted:
        if label not in gold:
            tokens = _participle_last(_bracket_first(_measurements(tuple(tokenize(label)))))
            label = _gold_for(tokens, by_tokens, by_finding, words, places, qualifiers) or label
        out.add(label)
    return out


_QUALIFIER_REACH = 1


@lru_cache(maxsize=1)
def reported_qualifiers(source: str) -> dict[str, frozenset[str]]:
    """Each finding of the lexicon that the report ``source`` names -> the words it writes right before that finding's
    alias (:data:`_QUALIFIER_REACH` word, no finding's and no denial's): the report's own qualifiers of the
    finding ("subsegmental" of "representing subsegmental atelectasis"). A label that qualifies the finding with them
    qualifies it as the report does (``subsegmental atelectatic change``; red team ``holdout_r51``)."""
    tokens = tuple(tokenize(source))
    found: dict[str, set[str]] = {}
    for i in range(len(tokens)):
        for n in range(_MAX_PHRASE, 0, -1):
            finding = finding_of(tokens[i:i + n]) if i + n <= len(tokens) else None
            if finding is not None:
                before = tokens[max(0, i - _QUALIFIER_REACH):i]
                found.setdefault(finding, set()).update(w for w in before if w.isalpha() and w not in _NOT_A_QUALIFIER
                                                         and finding_of((w,)) is None)
                break
    return {finding: frozenset(qualifying) for finding, qualifying in found.items()}


# words before a finding in a report that deny, hedge or date it rather than qualify it
_NOT_A_QUALIFIER = frozenset("""no not without or and of the a an with is are there possible probable likely unlikely
suspected questionable prior old history resolved previous previously""".split())


def _participle_last(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """``tokens`` of a label that opens with a participle of a one-word finding (``fractured rib``: "fractured" of
    ``fracture``) as the finding after the words that follow it (``rib fracture``), which must then place it as the
    report does (:func:`_gold_for`; red team ``holdout_r51``); any other label unchanged."""
    if len(tokens) < 2 or finding_of(tokens[:1]) is not None:
        return tokens
    first = tokens[0]
    for ending in ("ed", "d"):
        if first.endswith(ending) and finding_of((first[:-len(ending)],)) is not None:
            return tokens[1:] + (first[:-len(ending)],)
    return tokens


_GLOSS_MARKS = frozenset({",", ":", "-", "\u2013", "\u2014"})


def _bracket_first(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """``tokens`` of ``X (a, b)`` as ``a b X``: the words of a closing bracket read as words before the label (each must
    then place or size it as the report does, :func:`_gold_for`); so are the words after a comma, colon or dash
    (``consolidation, right lower lobe``, ``pneumothorax — right apical, moderate``, ``cardiomegaly, unchanged``: red
    team ``holdout_r49``); a label without a closing bracket or such a gloss unchanged."""
    if tokens and tokens[-1] != ")" and (cut := next((i for i, t in enumerate(tokens) if t in _GLOSS_MARKS), 0)):
        inner = tuple(t for t in tokens[cut + 1:] if t not in _GLOSS_MARKS)
        return inner + tokens[:cut] if inner and "(" not in inner and ")" not in inner else tokens
    if len(tokens) < 4 or tokens[-1] != ")" or "(" not in tokens:
        return tokens
    opening = len(tokens) - 1 - tokens[::-1].index("(")
    inner = tuple(t for t in tokens[opening + 1:-1] if t != ",")
    if not inner or "(" in inner or ")" in tokens[:opening]:
        return tokens
    return inner + tokens[:opening]


def _gold_for(tokens: tuple[str, ...], by_tokens: dict[tuple[str, ...], str], by_finding: dict[str, str],
              words: frozenset[str], places: frozenset[str], qualifiers: dict[str, frozenset[str]] | None = None) -> str | None:
    reported = frozenset().union(*qualifiers.values()) if qualifiers else frozenset()
    unplaced: list[str] = []  # words before the finding that place or size nothing: each must be the report's qualifier
    for start in range(len(tokens)):
        if start and not ((places or words) and _placed_as_reported(tokens[start - 1], words, places)):
            if tokens[start - 1] not in reported:
                return None
            unplaced.append(tokens[start - 1])
        if start and tokens[start - 1] in COURSE and finding_of(tokens[start - 1:]) is not None:
            return None  # "acute rib fracture": the course word names another finding of the lexicon
        rest = tokens[start:]
        finding = finding_of(rest)
        listed = listed_as(finding, by_finding) if finding is not None else None
        if unplaced and (finding is None or not set(unplaced) <= qualifiers.get(finding, frozenset())):
            continue  # the qualifier is the report's for another finding
        if rest in by_tokens:
            return by_tokens[rest]
        if listed is not None and listed in by_finding:
            if unstated_subtype(rest, finding, words, places):
                return None
            return by_finding[listed]
    return None
