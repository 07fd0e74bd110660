"""The ``rules`` judge: checks a rubric item's ``rule`` on the response text, no model.

A rule is a mapping on the item (``"rule": {...}``), validated by :mod:`polyreward.rubrics.rule_grammar`; every
condition it names must hold for the item to be met (logical AND)::

    regex: PATTERN | [PATTERN, ...]        met if any pattern is found (RE2 search, linear time)
    not_regex: PATTERN | [PATTERN, ...]    met if no pattern is found
    contains: TEXT | [TEXT, ...]           met if any text occurs
    contains_all: [TEXT, ...]              met if every text occurs
    not_contains: TEXT | [TEXT, ...]       met if no text occurs
    min_words / max_words: INT             word count (whitespace split) within bounds, inclusive
    min_chars / max_chars: INT             character count within bounds, inclusive
    callable: "package.module:function"    imported (never eval'd; see "Trust" below) and called as
                                           fn(response, conversation=[messages], item=RubricItem, **params)
                                           -> bool or (bool, explanation)
    params: {...}                          keyword arguments for ``callable``
    ignore_case: true                      (default) case-insensitive regex / contains

This is RuscaRL's hybrid idea (``verifier:rule`` items checked by a Python function, docs/reference/libraries.md#rubric-rl)
with a declarative grammar. Inside a ``rubric`` reward, items that carry a rule are always judged here,
whatever model judge the other items use. An item without a rule, or a callable that raises, gives a
failed verdict (NaN) with the reason.

Trust. A rubric from the config (``rubric_file``, or Python code) is trusted. A rubric cell of the rollout
data is not: its ``callable`` must be one of the ready-made functions of
:mod:`polyreward.rubrics.rule_functions` or listed in the reward's ``allowed_callables`` (config), otherwise
the rubric is refused with that reason before anything is imported. Every pattern runs on RE2 (the
``google-re2`` package), whose matching time is linear in the response, so a pattern such as
``^(\\w+\\s?)+emergency`` cannot stall scoring; RE2 has no look-arounds or back-references (and its ``\\w``
is ASCII), so a pattern using them is refused in rollout data and, from a trusted rubric only, runs on
Python's ``re``. A pattern or text of a rubric in rollout data is at most ``rule_grammar.MAX_DATA_PATTERN_CHARS`` = 500
characters (RE2's cost grows with the pattern as well as the response; a longer one refuses that row's rubric
with the reason).

Every rule reads the response as a reader sees it (:func:`polyreward.verifiers.text_forms.plain_text`): NFKC,
zero-width and other invisible characters removed, Cyrillic / Greek look-alike letters as Latin, so
``wаit and see`` with a Cyrillic ``а`` or ``wa\u200bit`` still meets "recommends waiting to see".

Guarded matching (``RulesJudge(guarded=True)``, the ``rubric`` reward's ``rule_guards: true``). A keyword rule
pays for the words, whatever the response says with them: ``Never call 911 or an ambulance, do not take
aspirin`` meets "advises calling 911" and "recommends aspirin", and a bare list of the rubric's keywords meets
every positive item. With the guard, a ``regex`` / ``contains`` / ``contains_all`` hit counts only when

* no negation cue (``not``, ``never``, ``no``, ``don't``, ``avoid``, ``instead of``, ... ; not the
  pseudo-negations ``don't hesitate``, ``not only``, ``no matter``) comes before it in its clause (clauses end at
  ``. ! ? ; : ,``, dashes, brackets and line breaks), and
* its clause reads as prose: at least ``GUARD_CLAUSE_WORDS`` = 2 words, at least a sixth of them common function
  words (``the``, ``you``, ``to``, ``and``, ``is``, ``until``, ``don't``, ...; English prose has 40-50 %), so a
  keyword list is not advice.

The same holds for items whose criterion is undesirable (negative points): "do not wait and see" does not meet
"recommends waiting to see". ``not_regex`` / ``not_contains`` and the word/char bounds are unchanged. The guard is
a heuristic (a keyword list padded with function words passes it); a model judge reads meaning.

Guarded mode also reads what a reader reads and pays only advice the writer stands by (probe on examples/rubric,
2026-12-03: 18 exploits of these shapes). Reconstructed rule (ours):

* Reading: every condition (and a ``callable``) sees :func:`polyreward.verifiers.reading.answer_views`' first view,
  the visible text: no HTML / LaTeX ``%`` comments, hidden or struck-through text, fenced code, block quotes or
  footnotes. Only when that is blank (the whole answer is a quote or a code block) the text without comments is
  read, as every answer reader of the project does. Word caps still count the raw text's words.
* Commitment, for desirable items (points >= 0; a penalty's hit stands once stated, since the reader saw the
  advice): a hit does not count when a later clause that closes its sentence disowns what precedes it without
  naming anything (:func:`polyreward.verifiers.commitment.disowns_before`: "cannot be right.", "? Wrong.",
  "Kidding!", "I retract that;"), when an explicit retraction follows it (:func:`~polyreward.verifiers.commitment.retraction_after`:
  "scratch that", "I made a mistake"), or when another clause, before or after, states its opposite: a clause
  with the other polarity (an odd count of ``not``, ``never``, ``no``, ``n't``, ``cannot``) whose claim (its words
  without negations and ``do``/``does``/``did``) names the hit and ends with the hit clause's claim ("Actually, you
  should drive yourself to the hospital" against "Do not drive yourself to the hospital") or is the start of it
  ("Don't take an aspirin" against "Take an aspirin now"). A clause under a condition (``if``, ``unless``,
  ``when``, ``until``, ``in case``, ``provided``, ``except``, ``only``, also through a comma: "If you are
  allergic, do not take aspirin") qualifies the advice and is never its opposite. At most
  ``MAX_CONTRADICTION_CHECKS`` = 64 distinct hit clauses are checked per rule, each in one pass over the
  response's clauses; past that a desirable hit fails closed.
* Self-denial, for desirable items: an item whose ``regex`` / ``contains`` / ``contains_all`` hit lies in a
  sentence that denies itself (:func:`polyreward.verifiers.denial.denied_spans`: a denial wrapped around an embedded
  sentence, "It is no longer Call 911 (or your local emergency number) right now: ...", "The answer is not call 911
  ...", or a sentence that ends denying its own subject, "... cannot be right.") is not met, wherever else its words
  occur: the sentence disowns the advice it states, and a later "until the ambulance arrives" does not advise calling.
  A denial of a word ("It is not safe to wait", "It's not indigestion: call 911") is no self-denial; a capitalised
  name right after "It is not" ("It is not Tylenol you need") is read as one (a known false refusal), and a lower-case
  embedded sentence after "it is not" ("It is not call 911 right now") only as a negated clause (a known miss).
"""


from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

from polyreward.rubrics.judges import Judge, JudgeRequest, Verdict, failed
from polyreward.rubrics.rule_grammar import compile_pattern, resolve_callable, text_list
from polyreward.verifiers.commitment import disowns_before, retraction_after
from polyreward.verifiers.denial import denied_spans
from polyreward.verifiers.reading import answer_views
from polyreward.verifiers.text_forms import plain_text, word_count

GUARD_CLAUSE_WORDS = 2
_CLAUSE_END = re.compile(r"[.!?;:,()\[\]\n\u2013\u2014]|\s-\s")
_NEGATION_CUE = re.compile(
    r"\b(?:(?:do|does|did|should|must|would|could|can|will)\s*(?:not|n't)(?!\s+(?:hesitate|delay))|"
    r"(?:don|doesn|didn|shouldn|mustn|wouldn|couldn|can|won|isn|aren)'?t(?!\s+(?:hesitate|delay))|"
    r"not(?!\s+only)|never|no(?!\s+matter)|avoid|instead\s+of|rather\s+than|without|refrain\s+from)\b",
    re.IGNORECASE)
_FUNCTION_WORDS = frozenset(
    "a an the you your yours it its this that these those to of in on at for with and or but if while until as is are "
    "be was were will can should must may might do does have has i we they he she them him her my our their there "
    "here so than then now right please not never don't could would it's that's you're i'm there's let's just very".split())
_PROSE_WORD = re.compile(r"[A-Za-z']+|\d+")


class ProseIndex:
    """Where the clauses, negation cues and words of a response are, so that each guarded hit is checked in
    O(log n) (bisect) and a response is scanned a fixed number of times, however many hits it holds."""

    def __init__(self, response: str) -> None:
        self.text = response
        self.ends = [m.start() for m in _CLAUSE_END.finditer(response)]
        self.negations = [m.end() for m in _NEGATION_CUE.finditer(response)]
        words = list(_PROSE_WORD.finditer(response))
        self.word_starts = [m.start() for m in words]
        self.function_starts = [m.start() for m in words if m.group().lower() in _FUNCTION_WORDS]

    def clause(self, position: int) -> tuple[int, int]:
        i = bisect_right(self.ends, position - 1)
        return (self.ends[i - 1] + 1 if i else 0), (self.ends[i] if i < len(self.ends) else len(self.text))

    def counts(self, position: int) -> bool:
        """True when a hit starting at ``position`` is neither negated nor in a keyword list (module docstring)."""
        start, end = self.clause(position)
        i = bisect_right(self.negations, position)
        if i and self.negations[i - 1] > start:
            return False
        words = bisect_left(self.word_starts, end) - bisect_left(self.word_starts, start)
        functions = bisect_left(self.function_starts, end) - bisect_left(self.function_starts, start)
        return words >= GUARD_CLAUSE_WORDS and functions >= 1 and functions * 6 >= words


# words that only carry a clause's polarity or its auxiliary ("do not drive" / "do drive" / "drive"); a clause's
# claim is its other words, in order
_POLARITY_WORDS = frozenset("not never no do does did cannot".split())
_NEGATING_WORDS = frozenset("not never no cannot".split())
_CONTRACTIONS = {"can't": "can", "won't": "will", "shan't": "shall"}
_CONDITION = re.compile(r"\b(?:if|unless|when|whenever|until|in\s+case|provided|except|only)\b", re.IGNORECASE)
MAX_CONTRADICTION_CHECKS = 64  # distinct hit clauses checked per rule; past that a desirable hit fails closed


def _claim(clause: str) -> tuple[str, int]:
    """``clause``'s claim (its words without negations and do-auxiliaries, space-joined, lower case) and how many
    negations it holds: "Do not drive yourself" is ("drive yourself", 1), "Do drive yourself" ("drive yourself", 0)."""
    words, negations = [], 0
    for word in _PROSE_WORD.findall(clause.lower().replace("\u2019", "'")):
        if word in _CONTRACTIONS or word.endswith("n't"):
            negations += 1
            word = _CONTRACTIONS.get(word, word[:-3])
        elif word in _NEGATING_WORDS:
            negations += 1
        if word not in _POLARITY_WORDS:
            words.append(word)
    return " ".join(words), negations


class Commitment:
    """Whether the writer stands by a hit (guarded mode, desirable items; module docstring): no clause after it
    disowns it (:func:`~polyreward.verifiers.commitment.disowns_before`, an explicit
    :func:`~polyreward.verifiers.commitment.retraction_after`), and no other clause states the opposite of its
    clause (the same claim with the other polarity)."""

    def __init__(self, prose: ProseIndex) -> None:
        self.prose = prose
        text = prose.text
        bounds = list(zip([0] + [e + 1 for e in prose.ends], prose.ends + [len(text)]))
        # a disowning clause closes its sentence ("? Wrong.", "Kidding!"); "Wrong, it is your heart" corrects a
        # question and goes on
        self.disowned_until = max((end for start, end in bounds if text[end:end + 1] in ("", ".", "!", "?", ";", "\n")
                                   and disowns_before(text[start:end])), default=-1)
        retraction = retraction_after(text, 0)  # the last one; explicit, it takes back every hit before it
        self.retracted_until = retraction[0] if retraction is not None and retraction[1] else -1
        # a sentence wrapped in a denial of itself ("It is no longer Call 911 ... right now: ...", "... cannot be
        # right."): none of its clauses is advice the writer stands by
        self.denied = denied_spans(text)
        self.denied_starts = [start for start, _ in self.denied]
        # a clause under a condition ("If you are allergic, do not take aspirin") qualifies the advice, it does
        # not state its opposite
        clauses = [text[start:end] for start, end in bounds]
        conditional = [bool(_CONDITION.search(clause)) for clause in clauses]
        for i in range(1, len(clauses)):  # "If ..., do not X" and "Do not X, unless ...": one sentence, one condition
            if text[bounds[i][0] - 1] == ",":
                if conditional[i - 1] and _CONDITION.match(clauses[i - 1].lstrip()):
                    conditional[i] = True
                if conditional[i]:
                    conditional[i - 1] = True
        self.claims = [(f" {words}", negations % 2) for (words, negations), condition
                       in zip(map(_claim, clauses), conditional) if words and not condition]
        self.checked: dict[tuple[tuple[int, int], str], bool] = {}
        self.refused = False  # a hit was found and not stood by (named in the verdict's explanation)

    def in_denied_sentence(self, position: int) -> bool:
        i = bisect_right(self.denied_starts, position)
        return bool(i) and position < self.denied[i - 1][1]

    def stands(self, start: int, end: int) -> bool:
        text = self.prose.text
        if start < self.disowned_until or end < self.retracted_until:
            return False
        clause = self.prose.clause(start)
        hit = f" {_claim(text[start:end])[0]} "
        if (clause, hit) not in self.checked:
            if len(self.checked) >= MAX_CONTRADICTION_CHECKS:
                return False
            words, negations = _claim(text[clause[0]:clause[1]])
            key, parity = f" {words}", negations % 2
            # the opposite: another clause, with the other polarity, that names the hit and says what this clause
            # says (its claim ends with this one's: a lead-in such as "actually, you should" may come first) or
            # the start of it ("Don't take an aspirin" against "Take an aspirin now")
            self.checked[clause, hit] = not words or not any(
                other_parity != parity and hit in f"{other} " and (other.endswith(key) or f"{key} ".startswith(f"{other} "))
                for other, other_parity in self.claims)
        return self.checked[clause, hit]


def _text_hits(folded: str, needle: str):
    position = 0
    while (found := folded.find(needle, position)) >= 0:
        yield found
        position = found + max(len(needle), 1)


def _reader_view(response: str) -> str:
    """What a reader takes as the writer's words (:func:`polyreward.verifiers.reading.answer_views`): comments and
    hidden text never; fenced code, block quotes and footnotes only when nothing else is written."""
    views = answer_views(response)
    return views[0] if views[0].strip() or len(views) == 1 else views[-1]


def check_rule(rule: Mapping[str, Any], response: str, request: JudgeRequest | None = None, guarded: bool = False) -> Verdict:
    """Apply one rule to a response; the explanation names the first condition that decided it. ``guarded``: a
    regex / contains hit counts only in a prose clause and not negated (module docstring)."""
    ignore_case = bool(rule.get("ignore_case", True))
    raw, response = response, plain_text(response)  # look-alike letters, full-width forms and zero-width characters hide no word
    if guarded:
        response = plain_text(_reader_view(raw))
    folded = response.lower() if ignore_case else response
    prose = ProseIndex(response) if guarded and set(rule) & {"regex", "contains", "contains_all"} else None
    # a desirable item's hit must also be committed; a penalty's hit stands once stated (the reader saw the advice)
    desirable = request is None or request.item.points >= 0
    commitment = Commitment(prose) if prose is not None and desirable else None

    def counts(start: int, end: int) -> bool:
        if not prose.counts(start):
            return False
        if commitment is None or commitment.stands(start, end):
            return True
        commitment.refused = True
        return False

    def guard_note() -> str:
        if prose is None:
            return ""
        if commitment is not None and commitment.refused:
            return " (negated, keyword-list, disowned or contradicted hits do not count)"
        return " (negated or keyword-list hits do not count)"

    def fold(text: str) -> str:
        return text.lower() if ignore_case else text

    def found(pattern: str, positive: bool = False) -> bool:
        compiled = compile_pattern(pattern, ignore_case)
        if prose is None or not positive:
            return compiled.search(response) is not None
        return any(counts(m.start(), m.end()) for m in compiled.finditer(response))

    def occurs(text: str, positive: bool = False) -> bool:
        if prose is None or not positive:
            return fold(text) in folded
        # str.lower() keeps the length of ASCII text; elsewhere the positions only approximate the clause
        return any(counts(at, at + len(text)) for at in _text_hits(folded, fold(text)))

    notes: list[str] = []
    if commitment is not None and commitment.denied and _stated_in_denied_sentence(rule, folded, response, ignore_case, commitment):
        return Verdict(False, "stated in a sentence that denies itself (a denial wrapped around the advice disowns "
                              "every item it states)")
    if "regex" in rule:
        patterns = text_list(rule["regex"], "regex")
        hit = next((p for p in patterns if found(p, positive=True)), None)
        if hit is None:
            return Verdict(False, f"no match for regex {patterns}" + (guard_note()))
        notes.append(f"matches /{hit}/")
    if "not_regex" in rule:
        hit = next((p for p in text_list(rule["not_regex"], "not_regex") if found(p)), None)
        if hit is not None:
            return Verdict(False, f"matches excluded regex /{hit}/")
        notes.append("no excluded pattern")
    if "contains" in rule:
        texts = text_list(rule["contains"], "contains")
        hit = next((t for t in texts if occurs(t, positive=True)), None)
        if hit is None:
            return Verdict(False, f"contains none of {texts}" + (guard_note()))
        notes.append(f"contains {hit!r}")
    if "contains_all" in rule:
        missing = [t for t in text_list(rule["contains_all"], "contains_all") if not occurs(t, positive=True)]
        if missing:
            return Verdict(False, f"missing {missing}")
        notes.append("contains all required texts")
    if "not_contains" in rule:
        hit = next((t for t in text_list(rule["not_contains"], "not_contains") if fold(t) in folded), None)
        if hit is not None:
            return Verdict(False, f"contains excluded {hit!r}")
        notes.append("contains no excluded text")
    # a cap counts what a reader sees, the larger reading: filler joined by zero-width characters (one "word" once
    # they are removed) or 2,000 letters without a space is many words; a minimum counts whitespace words only
    words, capped_words, chars = len(response.split()), max(len(response.split()), word_count(raw)), len(response)
    for key, count, unit in (("min_words", words, "words"), ("max_words", capped_words, "words"), ("min_chars", chars, "chars"), ("max_chars", chars, "chars")):
        if key in rule:
            bound = rule[key]
            ok = count >= bound if key.startswith("min") else count <= bound
            if not ok:
                return Verdict(False, f"{count} {unit}, {key} is {bound}")
            notes.append(f"{count} {unit} within {key} {bound}")
    if "callable" in rule:
        fn = resolve_callable(rule["callable"])
        conversation = [dict(m) for m in request.conversation] if request is not None else []
        item = request.item if request is not None else None
        result = fn(response, conversation=conversation, item=item, **dict(rule.get("params", {})))
        explanation = ""
        if isinstance(result, tuple) and len(result) == 2:
            result, explanation = result
        if not isinstance(result, bool):
            return failed(f"rule callable {rule['callable']} returned {type(result).__name__}, expected bool or (bool, str)")
        if not result:
            return Verdict(False, str(explanation) or f"{rule['callable']} returned False")
        notes.append(str(explanation) or f"{rule['callable']} returned True")
    return Verdict(True, "; ".join(notes))


def _stated_in_denied_sentence(rule: Mapping[str, Any], folded: str, response: str, ignore_case: bool,
                               commitment: Commitment) -> bool:
    """Does a ``regex`` / ``contains`` / ``contains_all`` hit of ``rule`` lie in a sentence that denies itself
    (:func:`polyreward.verifiers.denial.denied_spans`)? Then the advice the item asks for is disowned, wherever else
    its words occur ("It is no longer Call 911 ... right now" does not advise calling, even with "until the
    ambulance arrives" further on)."""
    for pattern in text_list(rule["regex"], "regex") if "regex" in rule else ():
        if any(commitment.in_denied_sentence(m.start()) for m in compile_pattern(pattern, ignore_case).finditer(response)):
            return True
    texts = [*(text_list(rule["contains"], "contains") if "contains" in rule else ()),
             *(text_list(rule["contains_all"], "contains_all") if "contains_all" in rule else ())]
    return any(commitment.in_denied_sentence(at) for text in texts
               for at in _text_hits(folded, text.lower() if ignore_case else text))


class RulesJudge(Judge):
    """Judges items by their ``rule``; an item without one fails (NaN) with a reason."""

    type_name = "rules"

    def __init__(self, guarded: bool = False) -> None:
        if not isinstance(guarded, bool):
            raise ValueError(f"guarded: must be true or false, got {guarded!r}")
        self.guarded = guarded

    def judge(self, requests: Sequence[JudgeRequest]) -> list[Verdict]:
        verdicts = []
        for request in requests:
            rule = request.item.rule
            if rule is None:
                verdicts.append(failed(f"the rules judge needs a 'rule' on this item: {request.item.criterion[:80]!r}"))
                continue
            try:
                verdicts.append(check_rule(rule, request.response, request, self.guarded))
            except Exception as exc:  # a broken user callable fails its own criterion only
                verdicts.append(failed(f"rule error: {type(exc).__name__}: {exc}"))
        return verdicts
