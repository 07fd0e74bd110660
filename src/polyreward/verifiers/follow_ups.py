"""What a chat assistant adds for the reader after its answer: an offer, a check for understanding, a practice
problem, an AI's boilerplate disclaimer (red team ``holdout86``).

Persona and safety tuning close an answer with sentences addressed to the reader that are not a second answer to the
question: "Would you like me to also compute the circumference (6π) or give a decimal approximation (≈ 28.27)?", "Want
me to also show it as a decimal (0.75) or a percentage (75%)?", "Quick check for understanding: can you plug x = 5
back in ...? Then try 4x − 3 = 13 on your own!", "Let me know if you'd like more practice problems like these!",
"_Note: I'm an AI assistant; ... double-check calculations._". Their numbers are other quantities, other forms of the
value or another problem's, so :func:`without_follow_ups` drops such closing sentences before the answer is read.

A closing sentence is a **follow-up** when it opens (after a label such as "Note:" or "P.S.", markup or an emoji) on
one of a few closed classes: an offer (``would you like me to``, ``want me to``, ``shall I``, ``let me know if you'd
like``, ``if you'd like, I can``, ``I can also``, ``happy to``, ``hope this helps``; ``¿Quieres que ...``, ``Voulez-vous que je``, ``Soll
ich``, ``Vuoi che``, ``Quer que eu``), a check handed to the reader (``quick check for understanding``,
``check your understanding``, ``can you plug / verify / confirm ...``, ``try ... yourself / on your own``, ``your
turn``), or an AI's disclaimer of itself (``I'm an AI``, ``as an AI``) that names no number.

It is no follow-up -- it stays and is read as before -- when it speaks of the answer or of changing it, prefers or
offers a value instead, or doubts (``answer``, ``instead``, ``prefer``, ``rather``, ``change``, ``switch``, ``wrong``,
``not sure``, ``guess``, ...) or turns after a contrast (``though``, ``but``): "Let me know if you'd like me to change my answer to A (femur) instead!" offers another
answer (read by :func:`.hypothetical.hypothetical` as an offer, no statement), "... or would you prefer 12?" hedges,
"I may be wrong, though; many sources say 540°" withdraws. Only sentences at the end are dropped, on the answer's
line too ("A = πr² = 9π. Would you like me to also compute the circumference (6π)?"), and never the first sentence.

Reconstructed rule (ours). One pass over the last few sentences, each matched by an anchored pattern: linear time.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a label, markup or an emoji before the sentence ("_Note: ", "**P.S.** ", "😊 ", "> ")
_LEAD = (r"\A[\s>*_~#-]*(?:(?:note|n\.\s?b\.?|p\.\s?s\.?|ps|tip|disclaimer|reminder|btw|by\s+the\s+way|also|and|oh|(?:quick\s+)?check)\b[\s.:,!*_-]*)?"
         r"[^\w\s]{0,4}\s*")

# an offer to the reader, in the forms assistants use
OFFER = re.compile(
    r"(?:(?:would|do|did|should)\s+you\s+(?:\w+\s+)?(?:like|want|prefer)\s+me\s+to|(?:want|need)\s+me\s+to|shall\s+I|should\s+I\s+also|"
    r"(?:let\s+me\s+know|tell\s+me|feel\s+free\s+to\s+(?:ask|let\s+me\s+know|reach\s+out))\b[^.!?\n]{0,40}?\b(?:if|whether|when)\s+you\b|"
    r"if\s+you(?:'d|\s+would)?\s+(?:like|want|prefer)\b[^.!?\n]{0,20}?\bI\s+(?:can|could)\b|if\s+it\s+helps,?\s+I\s+(?:can|could)\b|"
    r"I\s+(?:can|could)\s+(?:also|change|switch|revise|update|redo)\b|"
    # ... in Spanish, French, German, Italian, Portuguese: "¿Quieres que también calcule ...?", "Voulez-vous que je ...",
    # "Soll ich auch ...", "Vuoi che ...", "Quer que eu ..."
    r"(?:¿\s*)?(?:quieres|quiere|quieren|te\s+gustar[ií]a|le\s+gustar[ií]a)\s+que\b|(?:voulez|veux|souhaitez|souhaites)[\s-]+(?:vous|tu)\s+que\s+je\b|"
    r"soll\s+ich\b|m[öo]chtest\s+du,?\s+dass\s+ich\b|m[öo]chten\s+sie,?\s+dass\s+ich\b|vuoi\s+che\b|(?:voc[êe]\s+)?quer\s+que\s+eu\b)",
    re.IGNORECASE,
)
# a pleasantry that offers more help ("Happy to explain any step", "Hope this helps!", "Any questions?"): a follow-up,
# but no offer of a value ("Hope this helps: \\boxed{42}" states its answer)
_PLEASANTRY = re.compile(r"(?:I(?:'d|\s+would)\s+be\s+(?:happy|glad)\s+to\b|(?:I'm\s+)?(?:happy|glad)\s+to\s+(?:also\s+)?(?:help|show|explain|walk|compute|go)\b|"
                         r"(?:any|other)\s+(?:more\s+)?questions\b|hope\s+(?:this|that)\s+helps\b)", re.IGNORECASE)
# a check or an exercise handed to the reader
_TO_THE_READER = re.compile(
    r"(?:(?:(?:a\s+)?quick\s+)?check\s+(?:for\s+|your\s+)understanding\b|(?:can|could)\s+you\s+(?:now\s+|also\s+)?(?:plug|substitute|check|verify|confirm|"
    r"try|solve|work\s+out)\b|(?:now\s+|then\s+)?try\b[^.!?\n]{0,80}?\b(?:yourself|on\s+your\s+own|next)\b|your\s+turn\b|"
    r"(?:now|then)\s+try\b)",
    re.IGNORECASE,
)
# an AI's disclaimer of itself (with no number of its own)
_AI_DISCLAIMER = re.compile(r"(?:(?:I'm|I\s+am)\s+(?:just\s+|only\s+)?an\s+AI\b|as\s+an\s+AI\b)", re.IGNORECASE)
FOLLOW_UP = re.compile(_LEAD + r"(?:" + OFFER.pattern + r"|" + _PLEASANTRY.pattern + r"|" + _TO_THE_READER.pattern + r")", re.IGNORECASE)
_AI_FOLLOW_UP = re.compile(_LEAD + _AI_DISCLAIMER.pattern, re.IGNORECASE)

# what makes a closing sentence speak of the answer itself: the answer, changing it, a value preferred instead, doubt
_OF_THE_ANSWER = re.compile(
    r"\b(?:answers?|instead|prefer\w*|rather|chang\w*|switch\w*|revis\w*|correct\w*|wrong|mistaken|incorrect|unsure|uncertain|"
    r"guess\w*|doubt\w*|sure|certain|expected|looking\s+for|or\s+(?:was|is|were)\s+it|"
    r"respuesta|r[ée]ponse|antwort|risposta|resposta|en\s+su\s+lugar|en\s+lugar|plut[ôo]t|stattdessen|lieber|invece|prefier\w*|pr[ée]f[ée]r\w*)\b"
    r"|\bmay\s+be\b|\bmight\s+be\b"
    # ... or turns, after a contrast, to something else ("Hope this helps -- though C is possible too": the afterwords
    # sweep, #32), which is then read as any clause after the answer is
    r"|\b(?:though|although|but|however|yet|possib\w*)\b"
    r"|\\boxed\b|\\fbox\b|:\s*[$*]*\s*[-+]?\d",  # ... or states a value itself: a box, a number right after a colon ("Hope this helps: 42")
    re.IGNORECASE,
)

_TAIL = 2000
# the gap after a sentence: its ".", "!" or "?" (and closing markup) then a space, or a line break
_SENTENCE_GAP = re.compile(r"(?<=[.!?])[_*)]*[ \t]+(?=\S)|\n+")


def is_follow_up(sentence: str) -> bool:
    """Is ``sentence`` an offer, a check handed to the reader or an AI's disclaimer of itself that does not speak of
    the answer (module docstring)?"""
    if _OF_THE_ANSWER.search(sentence):
        return False
    if FOLLOW_UP.match(sentence):
        return True
    return _AI_FOLLOW_UP.match(sentence) is not None and not re.search(r"\d", sentence)


# the key of an exercise handed to the reader, in brackets of its own: "*(Answer: 9 cm.)*", "(Solution: 72)"
_EXERCISE_KEY = re.compile(r"[\s*_]*[(\[][\s*_]*(?:answer|solution|key)[\s*_]*:[^()\[\]\n]{1,40}[)\]][\s*_.]*", re.IGNORECASE)


def _exercise_key(sentence: str, before: str) -> bool:
    """Is ``sentence`` the bracketed key of the exercise ``before`` hands to the reader (a follow-up of
    :data:`_TO_THE_READER` that asks its question)? "Check your understanding: if the perimeter were 40 cm, what would
    the width be? *(Answer: 9 cm.)*" -- the key answers the reader's exercise, not the question asked."""
    return (_EXERCISE_KEY.fullmatch(sentence) is not None and before.rstrip(" *_").endswith("?") and is_follow_up(before)
            and _TO_THE_READER.search(before) is not None)


def without_follow_ups(text: str) -> str:
    """``text`` without the follow-up sentences that close it (module docstring); unchanged when it has none, and
    never cut to nothing: its first sentence stays."""
    body = text.rstrip()
    tail = max(0, len(body) - _TAIL)  # follow-ups close the text: only its last characters are read (bounded time)
    at = (tail,) if tail else ()  # (a search from the start is filtered by its words: prefilter_names below)
    if not (OFFER.search(body, *at) or _PLEASANTRY.search(body, *at) or _TO_THE_READER.search(body, *at) or _AI_DISCLAIMER.search(body, *at)):
        return text  # (speed)
    starts = [gap.end() for gap in _SENTENCE_GAP.finditer(body, tail)][-6:]  # the last six sentences at most (never the first)
    cut = end = len(body)
    for number in range(len(starts) - 1, -1, -1):
        start = starts[number]
        sentence = body[start:end]
        if not re.search(r"\w", sentence):
            end = start  # an emoji or a mark after the sentence ("... in more detail. 😊"): it goes with the follow-up before it
            continue
        if number and end == len(body) and _exercise_key(sentence, body[starts[number - 1]:start]):
            cut = end = start  # "Check your understanding: ... what would the width be? *(Answer: 9 cm.)*" (holdout109)
            continue
        if not is_follow_up(sentence):
            break
        cut = end = start
    return text if cut == len(body) else body[:cut].rstrip()


from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

# (speed) the four searches of every completion's last 2,000 characters are skipped where the text holds none of their
# word sets (about 160 µs a fresh math row searched plain, 13 µs filtered: docs/benchmarks.md, fourteenth pass);
# FOLLOW_UP and _AI_FOLLOW_UP above are built from the plain patterns
prefilter_names(globals(), "OFFER _PLEASANTRY _TO_THE_READER _AI_DISCLAIMER")
