"""A forecast reaffirmed by the last clause after its ``<answer>`` block (red team ``holdout_r34``).

A forecaster often grants the uncertainty of tomorrow's air and then restates the forecast as its own: "<answer>58
</answer> If the wind picks up it could come in a bit lower, but 58 is my forecast.", "The last digit is anyone's
guess, but I'm confident in 58 as the forecast.", "I'll revisit it when tomorrow's data arrives, but for now this is the
forecast.", "Who would expect a sudden clean-up? Not me, so 25 is where I land." The forecast reward reads a modal, an
"if", a doubt word or another number after the block as a withdrawal (a later clause may take the forecast back), which
refused all four. The writer's last statement is the committed one, so :func:`affirmed_at_end` reads only the LAST
clause of the text after the block (after its last sentence end, contrast word -- ``but``, ``so``, ``yet``, ``still``
-- or clause mark) and accepts it when it is, as a whole, the forecast restated as the writer's own:

* the block's number, or ``this`` / ``that`` / ``it``, with a copula and ``my`` / ``the`` (own / final) ``forecast`` /
  ``number`` / ``estimate`` / ``prediction`` / ``call`` (``58 is my forecast``, ``for now this is the forecast``);
* the block's number ``is where I land`` / ``end up`` / ``come down`` / ``settle``;
* ``I'm confident in`` / ``sure of`` / ``certain of`` the block's number or ``it`` / ``this`` (``as the forecast``).

The clause must hold no other number, no negation and no modal, and the text after the block no other number: "until then the 58 is only a stand-in", "Treat that
number as a placeholder, not a forecast", "but 70 is my forecast" and "but it might be my forecast" affirm nothing and
are read as before. Everything before the last clause is then the forecast's caveat, not its withdrawal.
:func:`lands_on_block` (red team ``holdout_r44``) accepts a last clause that puts the forecast day at the block's value
(``..., so the day should again sit near 54.``) whatever numbers a recount shows before it. Reconstructed rule (ours);
linear in the text after the block.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# where the last clause starts: a sentence end, a clause mark or a word of contrast or consequence
_CLAUSE_BREAK = re.compile(r"[.!?;:,\n\u2014\u2013]|\b(?:but|so|yet|still|and|though|however)\b", re.IGNORECASE)
_NUMBER = r"(\d+(?:\.\d+)?)(?:[^\S\n]*(?:µg/m³|µg/m3|ug/m3|μg/m³|μg/m3))?"  # (its value: the match's one group)
_ANY_NUMBER = re.compile(r"(?<!\d)(?<!\d\.)\d+(?:\.\d+)?")  # ".70" after a sentence is 70; the 5 of 58.5 is no number
_NAMES_AND_UNITS = re.compile(r"\bPM\s*(?:2\.5|10)\b|(?:µg|μg|ug)\s*/\s*m(?:\^?3|³)", re.IGNORECASE)  # no value of their own
_OPENER = r"(?:(?:for\s+now|all\s+the\s+same|anyway|even\s+so|in\s+the\s+end|either\s+way|regardless)\W+)?"
_NOUN = r"(?:my|the)\s+(?:(?:own|final|actual)\s+)?(?:forecast|number|estimate|prediction|call)"
_AFFIRMING = re.compile(
    r"\A[^\w]*" + _OPENER +
    r"(?:(?:(?:the\s+)?" + _NUMBER + r"|this|that|it)\s+(?:is|'s|’s|remains|stays)\s+" + _NOUN +
    r"|(?:the\s+)?" + _NUMBER + r"\s+is\s+where\s+I\s+(?:land|end\s+up|come\s+down|settle)"
    r"|I(?:'m|’m|\s+am)\s+(?:(?:quite|fully|very|pretty)\s+)?(?:confident|sure|certain)\s+(?:in|of|about)\s+(?:" + _NUMBER + r"|it|this|that))"
    r"(?:\s+as\s+" + _NOUN + r")?(?:\s+for\s+(?:tomorrow|the\s+day))?[^\w]*\Z", re.IGNORECASE)


def affirmed_at_end(after: str, value: float) -> bool:
    """Is the last clause of ``after`` (the text after the ``<answer>`` block) the forecast ``value`` restated as the
    writer's own (module docstring)? A number there must be ``value``."""
    tail = after.strip()[-300:]
    if not tail or any(abs(float(n) - value) >= 1e-9 for n in _ANY_NUMBER.findall(_NAMES_AND_UNITS.sub(" ", after))):
        return False  # another number after the block ("Scratch that: 70. This is my forecast.") is read as before
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(tail.rstrip(".!?\u2026 \n"))]
    last = tail[starts[-1]:] if starts else tail
    match = _AFFIRMING.match(last)
    if match is None:
        return False
    number = next((group for group in match.groups() if group), None)
    return number is None or abs(float(number) - value) < 1e-9


# (red team holdout_r42) a number given to another voice by a possessive: "the other model's 35", "The tool's 338.9"
_VOICED_NUMBER = re.compile(r"\b(?!(?:my|our|its)\b)[A-Za-z][\w-]*['’]s?\s+(?:[a-z-]+\s+){0,2}?" + _NUMBER, re.IGNORECASE)
# the writer's own forecast stated with its number: "My forecast is 9 µg/m³", "..., 338.9, ..., is my forecast"
_OWN_FORECAST = re.compile(r"\b(?:my|our)\s+(?:own\s+|final\s+)?forecast\s+(?:is|stays|remains)\s+(?:at\s+)?(?:the\s+)?" + _NUMBER
                           + r"|(?<![\d.])" + _NUMBER + r"[^.!?\n\d]{0,80}?\b(?:is|remains)\s+(?:my|our)\s+(?:own\s+|final\s+)?forecast\b", re.IGNORECASE)
_LAST_SENTENCE = re.compile(r"(?<=[^\d\s][.!?])\s+|\n+")
_DENIED_BEFORE = re.compile(r"\b(?:not|rather\s+than|instead\s+of|unlike)\s+(?:(?:the|a|an|that|this)\s+)?(?:[a-z-]+\s+)?\Z", re.IGNORECASE)
ROUNDING = 0.5  # a value restated rounded ("The tool's 338.9 ... is my forecast" after <answer>339</answer>)


def restated_over_voices(after: str, value: float) -> bool:
    """Is the last sentence of ``after`` the writer's own forecast stated with the block's number (to rounding), every
    other number after the block being another voice's, named by a possessive, and either the same forecast or set
    aside ("not the other model's 35")? "My forecast is 9 µg/m³ (good), not the other model's 35." and "The tool's
    338.9, checked against the evening trend, is my forecast: very bad." restate a forecast of 9 and 339 (red team
    ``holdout_r42``: the writer adopts or rejects what another voice said, and commits). "My own estimate is higher,
    about 28" after a block credited to another model restates nothing."""
    sentences = [x for x in _LAST_SENTENCE.split(after.strip()) if x.strip()]
    if not sentences or (own := _OWN_FORECAST.search(sentences[-1])) is None:
        return False
    group = next(g for g in (1, 2) if own.group(g))
    stated = float(own.group(group))
    if abs(stated - value) > ROUNDING:
        return False
    spans = [own.span(group)]  # (only the restated number: "58 or 70, but 70 is my forecast" leaves 70 read)
    offset = len(after.strip()) - len(sentences[-1])
    spans = [(offset + a, offset + b) for a, b in spans]
    text = after.strip()
    for voiced in _VOICED_NUMBER.finditer(text):
        number = float(next(group for group in voiced.groups() if group))
        if abs(number - value) <= ROUNDING or _DENIED_BEFORE.search(text[:voiced.start()][-40:]):
            spans.append((voiced.start(), voiced.end()))
    parts, at = [], 0
    for a, b in sorted(spans):
        parts.append(text[at:max(at, a)])
        at = max(at, b)
    left = " ".join(parts + [text[at:]])  # (the text without the own number and the voices' numbers set aside)
    return not _ANY_NUMBER.search(_NAMES_AND_UNITS.sub(" ", left))


# (red team holdout_r44) the forecast day as the subject of the last clause, at a value: "so the day should again sit
# near 54", "and the day stays near 195", "tomorrow's mean comes out at 28"; not "would" (a supposition) nor a negation
_DAY_AT = re.compile(
    r"\A\W*(?:(?:hence|thus|therefore|then)\W+)?"
    r"(?:the\s+(?:whole\s+)?day|tomorrow|the\s+(?:daily\s+|day's\s+|day’s\s+)?(?:mean|average)|tomorrow['’]s\s+(?:mean|average|level))"
    r"(?:\s+(?:should|will))?(?:\s+(?:again|still|also))?\s+"
    r"(?:sits?|stays?|holds?|remains?|comes?\s+out|averages?|lands?|settles?|ends?\s+up|be)"
    r"(?:\s+(?:again|still))?(?:\s+(?:near|at|around|about|close\s+to|roughly))?\s+" + _NUMBER + r"[^\w]*\Z", re.IGNORECASE)


# a clause break as _CLAUSE_BREAK's, but not the decimal point of a value ("the day stays near 54.4")
_DAY_CLAUSE_BREAK = re.compile(r"\.(?!\d)|[!?;:,\n\u2014\u2013]|\b(?:but|so|yet|still|and|though|however)\b", re.IGNORECASE)


def lands_on_block(after: str, value: float) -> bool:
    """Is the last clause of ``after`` (the text after the ``<answer>`` block) the forecast day stated at the block's
    value (to :data:`ROUNDING`)? A recount or a reason after the block that ends on the same value commits to it,
    whatever numbers its working shows on the way (red team ``holdout_r44``): "Recounting the last twelve hours: 47 +
    ... + 50 = 655, a mean of 54.6, so the day should again sit near 54." and "With no front forecast before the 13th,
    what would clear the basin? The inversion holds, and the day stays near 195." keep 54 and 195; a recount that
    lands elsewhere ("..., so the day comes out near 14") and a clause with ``would`` or ``not`` affirm nothing."""
    tail = after.strip()[-300:]
    starts = [m.end() for m in _DAY_CLAUSE_BREAK.finditer(tail.rstrip(".!?\u2026 \n"))]
    last = tail[starts[-1]:] if starts else tail
    match = _DAY_AT.match(last)
    return match is not None and abs(float(match.group(1)) - value) <= ROUNDING
