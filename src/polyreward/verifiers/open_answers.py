"""An answer the writer leaves open right after it: more members it may have (red team holdout90, #32).

    "Answer: $n = 1$, and possibly others."   (a find-all question: the set named is not claimed complete)
    "x = 2, and maybe x = 5 too."             (a second member offered as possible)

Read structurally on the words that follow the committed answer, in its sentence or the very next one: a joiner
(``,``, ``and``, ``plus``, ``or``, ``along with``, a bracket) then a modal of possibility (``possibly``, ``maybe``,
``perhaps``, ``probably``, ``potentially`` and their French, German, Spanish, Italian and Portuguese forms) before a
further member (a value, ``x = ...``, ``others``, ``more``, ``another``, ``further solutions``), or a word that says the
list goes on (``and others``, ``among others``, ``etc.``, ``and so on``, ``entre autres``, ``unter anderem``), or
``there may be others``. The answer is then no answer: the writer says it is not the whole answer. What closes a set
(``and no others``, ``and only 1``, ``there are no others``) is no such word, and a modal that opens a clause with a
subject of its own (``, and maybe we should check it``) is about something else. Reconstructed rule (ours); bounded:
the 120 characters after the answer.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

_MODAL = (r"(?:possibly|maybe|perhaps|probably|potentially|conceivably|possiblement|peut-être|vielleicht|möglicherweise|eventuell"
          r"|posiblemente|quizás?|tal\s+vez|forse|talvez|possivelmente)")
_MORE = r"more(?!\s+(?:\w+ly|than|of|to)\b)"  # ("and more importantly", "more than", "more of": no further member)
_MEMBER = (r"(?:others?|" + _MORE + r"|another|further|additional|some\s+more|a\s+few\s+more|other\s+(?:values?|solutions?|ones?|answers?|roots?"
           r"|numbers?|integers?|primes?|pairs?)|d'autres|autres|weitere|andere|mehr|otros|otras|más|altri|outros|"
           r"among\s+others|[$\\(]*\s*-?\d|[$\\(]*\s*[a-z]\s*=)")
_OPEN_AFTER = re.compile(
    r"[\s$}*_)]*(?:[.;]\s*|,\s*|\s+|\s*\(\s*)"  # the answer's end, then its sentence or the next one, or a bracket
    r"(?:(?:and|plus|or|along\s+with|et|und|y|e|o|oder|ou)\s+)?"
    r"(?:" + _MODAL + r",?\s+(?:(?:also|even|too|some|a\s+few)\s+)?(?:(?:and|plus|or)\s+)?" + _MEMBER
    + r"|(?:and|plus|&)\s+(?:others|" + _MORE + r"|so\s+on|so\s+forth)\b|among\s+others|entre\s+(?:autres|otros|otras)|unter\s+anderem|tra\s+gli\s+altri"
    r"|etc\b|\.\.\.\s*(?:\Z|\))|there\s+(?:may|might|could)\s+(?:well\s+)?be\s+(?:others|more|other))",
    re.IGNORECASE)


def left_open(completion: str, answer: str) -> bool:
    """Does the writer leave ``answer`` (as the completion writes it, its last occurrence) open right after it --
    a possible further member or a list that goes on (module docstring)?"""
    at = completion.rfind(answer) if answer else -1
    if at < 0:
        return False
    return _OPEN_AFTER.match(completion, at + len(answer), at + len(answer) + 120) is not None
