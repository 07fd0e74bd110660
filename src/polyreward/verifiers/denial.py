"""Sentences of free text that deny themselves: a statement wrapped in a denial of it.

A free-text answer (a radiology report, a piece of advice) can be disowned sentence by sentence without any word
of retraction. Reconstructed rule (ours), read on the text a reader sees (:func:`polyreward.verifiers.reading`)::

    lead denial   a sentence that opens with a denial whose complement is a sentence of its own: an optional
                  subject that points at the answer (it, this, that, the result, the report, the advice) with its
                  copula, optional adverbs, then not / never / no longer / anything but / not quite / not equal
                  to / by no means / hardly, then an embedded sentence: a capitalised word ("It is no longer Call
                  911 ...", "The result is definitely not Lucency about the mediastinum ...", "not quite FINAL
                  REPORT ...") or a list number ("This is not 1. No pneumothorax. 2. ..."); or, whatever follows,
                  "the answer is not" / "my final answer is never" (the subject is the answer itself). The denied span runs to the end of the sentence (a list number
                  ends no sentence, so it is the item the number opens).
    tail denial   a sentence that ends with a denial of its own subject: "... is wrong.", "... is incorrect.",
                  "... is false.", "... cannot be right.", "... is not right / true / correct.", "... is not the
                  answer." ("Right jugular line ends at the cavoatrial junction cannot be right.").

A denial of a word inside the sentence is not a lead denial: "It is not safe to drive yourself" and "This is not a
pneumothorax" deny a predicate, their complement starts in lower case, and a negation reader handles them
clause by clause; an all-capital acronym ("It is not COVID") is a word, not a sentence (a lone capitalised
name such as "It is not Tylenol that you need" is read as a lead denial: a known false positive). A clause with no
subject of its own that disowns the text before it ("? Wrong.", "cannot be right.", "is not the answer.") is
:func:`disowns_text_before`, for the caller to treat like a retraction.

Linear in the text: one pass for the sentence ends, one anchored match per sentence.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

from polyreward.verifiers.clauses import denies_by_reference
from polyreward.verifiers.commitment import disowns_before
from polyreward.verifiers.framing import disowns_all_before
from polyreward.verifiers.speaker_declines import DECLINED

# a sentence ends at a run of . ! ? (then a space or the end), a blank line or a line break before a list item; the
# run is matched from its start only and never given back, so a 100 KB run of "!" not followed by a space costs one
# pass, not one per character; a "." right after a bare list number ("1. No pneumothorax") or between digits is no
# end, nor is a line break inside a hard-wrapped sentence ("pneumonia cannot be\n excluded.")
_SENTENCE_END = re.compile(
    r"(?<![\s(]\d)(?<![\s(]\d\d)(?<!\A\d)(?<!\A\d\d)(?<![.!?])[.!?]++(?=\s|\Z)|\n[^\S\n]*\n|\n(?=[^\S\n]*(?:[-*\u2022]|\d{1,2}[.)])\s)")
_NEGATOR = (r"(?:(?:definitely|certainly|clearly|surely|absolutely|simply|really|actually)\s+)?"
            r"(?:not(?:\s+(?:quite|really|exactly|equal\s+to))?|never|no\s+longer|anything\s+but|by\s+no\s+means|hardly)")
_LEAD = re.compile(
    r"[\s\"'*>#\-]*(?:"
    # "The answer is not <anything>": the subject is the answer itself, so the complement is the answer
    r"(?i:(?:the|my)\s+(?:final\s+)?answer\s*(?:is|was|'s|\u2019s)\s+" + _NEGATOR + r")\s*[:,\-\u2013\u2014]?\s+\S"
    # "It is not <Sentence>", "never <Sentence>": a capitalised embedded sentence or a list item
    r"|(?i:(?:(?:it|this|that|the\s+(?:final\s+)?(?:result|report|advice)|my\s+advice)\s*(?:is|was|'s|\u2019s)\s+)?"
    + _NEGATOR + r")\s*[:,\-\u2013\u2014]?\s+(?=[A-Z][a-z]|[AI]\s+[a-z]|[A-Z]{2,}[\s:]+[A-Z]{2,}|\d{1,2}[.)]\s))"
)
_TAIL = re.compile(
    r"\S\s+(?i:(?:is|was|are|were)\s+(?:wrong|incorrect|false|untrue|not\s+(?:right|true|correct|the\s+answer))|"
    r"(?:can(?:not|'t)|could\s*(?:not|n't))\s+be\s+(?:right|true|correct))\W*\Z"
)
_SUBJECTLESS_DENIAL = re.compile(r"\A\W*(?i:(?:is|was|are|were)(?:n't|\s+not)\s+(?:the|an?|my)\s+(?:answer|result|case))\W*\Z")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, the end after its closing punctuation."""
    spans, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        spans.append((start, end.end()))
        start = end.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


# a question: a sentence that opens with an auxiliary verb and ends with "?" ("Is there a pneumothorax?")
_QUESTION = re.compile(r"[\W_]*(?:is|are|was|were|do|does|did|could|can|has|have|any|should|would|might|may)\b[^.!?]*\?+\s*\Z",
                       re.IGNORECASE)


# a declarative sentence turned into a question: three or more words and a verb, ending with "?" ("The heart is
# enlarged?", "There is a small left pleural effusion?"; red team holdout_r4, found by holdout_r2's rows once the
# extractor stopped tying "left" to the heart); checked with an end test, a split and one search (linear)
_STATEMENT_VERB = re.compile(r"\b(?:is|are|was|were|has|have|shows?|demonstrates?|appears?|seems?)\b", re.IGNORECASE)


def _asked_statement(sentence: str) -> bool:
    body = sentence.rstrip()
    return body.endswith("?") and len(body.split()) >= 3 and _STATEMENT_VERB.search(body) is not None


# (red team holdout_r55) the yes / no that answers a question and leads into a statement of its own ("Are the ribs
# intact? No: a fracture of the right fifth rib is seen.", "Is there a pneumothorax? Yes -- a right apical one.")
_REPLY = re.compile(r"[ \t]*(?:yes|no|yep|nope)[ \t]*(?::|,|[\u2013\u2014]|--?)[ \t]*(?=[A-Za-z])", re.IGNORECASE)


def questions(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` that ask instead of state ("Is the heart enlarged?", "Any pneumothorax?", and a
    statement asked, "The heart is enlarged?"): they assert no finding, present or absent, so a report of questions
    is no report. A clinical query in shorthand ("?PE", "Pneumonia?", "No pneumothorax?") has no verb and is left
    to the finding reader (uncertain). A question's span takes in the yes / no that answers it when a statement
    follows that word (:data:`_REPLY`: "Are the ribs intact? No: a fracture ... is seen." -- the "No" answers the
    question, it denies nothing in the statement after it; a Socratic report, red team ``holdout_r55``)."""
    asked = []
    for start, end in sentence_spans(text):
        if _QUESTION.match(text, start, end) is not None or _asked_statement(text[start:end]):
            reply = _REPLY.match(text, end)
            asked.append((start, reply.end() if reply is not None else end))
    return asked


def lead_denials(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` that open with a denial of an embedded sentence (module docstring), in order."""
    # a list number does not end a sentence, so "This is not 1. No pneumothorax." is one denied sentence
    return [(start, end) for start, end in sentence_spans(text) if _LEAD.match(text, start, end) is not None]


def tail_denials(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` that end with a denial of their own subject (module docstring), in order."""
    return [(start, end) for start, end in sentence_spans(text) if _TAIL.search(text[start:end].rstrip())]


def denied_spans(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` that deny themselves (lead and tail denials), in order."""
    return sorted({*lead_denials(text), *tail_denials(text)})


def without_denied(text: str, spans: list[tuple[int, int]] | None = None) -> str:
    """``text`` with the sentences it denies (or ``spans``) left out, each replaced by a line break so that the
    sentences around it stay apart."""
    spans = denied_spans(text) if spans is None else spans
    if not spans:
        return text
    parts, position = [], 0
    for start, end in spans:
        if start >= position:
            parts.append(text[position:start])
            parts.append("\n")
            position = end
    parts.append(text[position:])
    return "".join(parts)


# the text before regarded as something other than a statement: a verb of regarding, the text before as its object,
# "as" and a noun of a stand-in ("Take all of the above as a wild guess.", "Treat this as a placeholder.", "Consider
# the list an example.", "That list is a first draft I'll redo."; red team holdout_r34); "treat this as urgent", "read it
# as a pleural effusion" and "This is an example of cardiomegaly" name none
_REGARDED_AS = re.compile(
    r"(?:\b(?:treat|take|consider|regard|count|read|view|see)(?:s|ed|ing)?\s+(?:(?:all|each|every\s*one|any)\s+of\s+)?"
    r"(?:this|that|it|these|those|them|everything(?:\s+above)?|all\s+(?:of\s+)?this|the\s+above|"
    r"the\s+(?:report|list|labels?|findings|answer|reading|forecast|number)(?:\s+above)?)\s+(?:as\s+)?"
    # ... or described as one, with the text before as the subject ("That list is a first draft I'll redo")
    r"|\b(?:(?:this|that|the)\s+(?:report|list|answer|reading|forecast|number)|this|that|it)(?:\s+(?:is|was)|'s|’s)\s+(?:(?:only|just|merely|really)\s+)?(?=an?\s))"
    r"(?:(?:an?|only\s+an?|just\s+an?|nothing\s+(?:but|more\s+than)\s+an?|no\s+more\s+than\s+an?)\s+)?(?:(?:wild|rough|blind|pure)\s+)?"
    r"(?:(?:first|rough)\s+)?(?:placeholders?|guess(?:es|work)?|drafts?|examples?|illustrations?|sketch(?:es)?|jokes?|stand-?ins?|dumm(?:y|ies)|mock-?ups?|fillers?)\b(?!\s+of\b)",
    re.IGNORECASE)
# a quantifier over what came before: "None of the above findings ...", "Neither of these ...", "Nothing of this ..."
_NONE_OF_BEFORE = re.compile(r"\A[\W_]*(?:(?:actually|but|and|so|however|in\s+fact)\W+)*(?:none|neither|nothing)\s+of\s+"
                             r"(?:the\s+above|these|those|them|this|that|it|my|our)\b", re.IGNORECASE)


def disowns_text_before(clause: str) -> bool:
    """A clause without a subject of its own that takes back the text before it: ``disowns_before``'s denials
    and withdrawals ("? Wrong.", "cannot be right.", "That is false.") and a bare "is not the answer"; or a
    quantifier over the text before that denies it all (:func:`polyreward.verifiers.clauses.denies_by_reference`
    opened by "none of the above / these / this ...": "None of the above findings are actually present."; a
    "Nothing acute is present." names nothing before it and takes nothing back); or a quantifier over it with a
    predicate of absence, or the writer saying they did not look at the case
    (:func:`polyreward.verifiers.framing.disowns_all_before`: "All of the above are artifacts.", "I did not look at the
    image."; red team holdout_r2); or the writer declining to stand behind it (:mod:`polyreward.verifiers.speaker_declines`:
    "I wouldn't vouch for it.", "I'm not putting my name to this."; red team holdout_r34), or regarding it as a
    stand-in ("Take all of the above as a wild guess.", "Treat this as a placeholder."; red team holdout_r34)."""
    bare = _OPENING_WORDS.sub("", clause)  # "Actually, disregard the above." is "Disregard the above." (genuine sweep)
    return any(disowns_before(one) or bool(_SUBJECTLESS_DENIAL.match(one))
               or (_NONE_OF_BEFORE.match(one) is not None and denies_by_reference(one.strip()))
               or disowns_all_before(one) or DECLINED.search(one) is not None or _REGARDED_AS.search(one) is not None
               for one in ((clause, bare) if bare != clause else (clause,)))


# discourse words that open a clause without changing what it says ("Actually, ...", "Oh wait, ...", "On second
# thought, ..."): a withdrawal after them withdraws as it does alone
_OPENING_WORDS = re.compile(r"\A[\W_]*(?:(?:actually|but|and|so|however|in\s+fact|well|oh|wait|hmm+|ok(?:ay)?|sorry|"
                            r"on\s+second\s+thought|on\s+reflection)\W+)+", re.IGNORECASE)
