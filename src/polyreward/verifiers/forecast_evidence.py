"""Numbers after a forecast that quote the prompt's observations as its reason are no second forecast.

A forecaster who has committed to a value often justifies it after the ``<answer>`` block: "<answer>62</answer>
Levels climbed through the evening to about 70 and stagnant winter air usually carries that over, so I expect a mean
near 62 µg/m³." (red team ``holdout_r12``). The forecast reward refuses any number after the block (a later number may
be a second forecast, "Actually, 120."), which refuses that plain answer. :func:`quotes_observations` reads the text
after the block clause by clause and accepts it only when every number in it is

* the committed forecast restated (the same value), not offered as a possibility, or
* a value the prompt gives (one of its observations, :func:`.givens.givens`) in a clause that reports the past: a
  verb in the past tense (``climbed``, ``peaked``, ``was``, ``kept``) and no word that opens a possibility or the
  future (a modal, ``if``, ``or``, ``tomorrow``, ``expect``, ``forecast``, ``case``, ``possible``, a question mark).

So "It could reach 72.", "Worst case 72.", "Expect between 61 and 72.", "or 72 if the wind drops" and "72 is also
plausible" (a prompt value offered as tomorrow's) still leave no committed forecast, as does any number the prompt does
not give. Negations and withdrawals after the block are read by the reward as before. Reconstructed rule (ours);
linear in the text after the block.

A bulletin also speaks of other quantities after the block (red team ``holdout_r14``): "Jongno's PM10 will likely
remain above 80", "Looking further ahead, rain on 3-12 should bring Jongno down to around 30", "That is the mean I
expect for 3-11". :func:`other_quantities_left_out` leaves out, before the numbers are read, a clause that names another
pollutant than the one forecast and not that one (a PM10, ozone or NO2 figure is no PM2.5 forecast), a sentence that
names a later horizon and not the forecast's (``further ahead``, ``the day after tomorrow``, ``next week``; a sentence
that also says ``tomorrow`` stays), neither of them offering an alternative (``or``, ``if``, ``instead``: "Or 80 over
the weekend." is read as before), and a short month-day (``3-11``, ``3/11``) that is one of the prompt's dates (a
date, no value: ``3-11`` is no range when the prompt forecasts 2025-03-11). Every other number after the block is read
as before, and negations and withdrawals anywhere after the block still withdraw the forecast.

Before the block, :func:`led_as_one_case` reads the words that lead into it: a block introduced as one case of several
("If the wind turns: ... Otherwise: <answer>60</answer>", "40 or <answer>60</answer>", "Sinon : <answer>60</answer>")
is one branch of a hedge, not a committed forecast, whether or not the other case is visible (red team ``holdout_r22``:
the other case's block was set aside in a code fence, which no reading reads).

Inside the block, :func:`foreign_after_value` reads the words after its last number as the text after the block is
read: a clause there in another language written in Latin letters ("<answer>340,8 – aber darauf würde ich keinen Cent
wetten; bitte diese Zahl nicht als Prognose verwenden.</answer>") may withdraw the value, and the English reading of
a withdrawal cannot read it (red team ``holdout_r27``). A unit or a short label after the value (``µg/m³``,
``(moderado)``: too few letters for the detector) and labels in another script (AirKorea's Korean class names, read by
the reward's label rules) are left as before.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from polyreward.verifiers.forecast_series import names_only_other_series
from fractions import Fraction

from polyreward.verifiers.commitment import hedged, qualified
from polyreward.verifiers.language import foreign
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a clause of the remark: it ends at a clause mark, a sentence's stop or a conjunction that joins two statements
_CLAUSE = re.compile(r"[,;:\n!(\[]|\.(?!\d)|\b(?:and|but|so|while|whereas|because|since)\b", re.IGNORECASE)
# a verb in the past tense: a regular past (a word of 3+ letters before "-ed") or a common irregular one
_PAST = re.compile(r"\b(?:[a-z]{3,}ed|was|were|had|rose|fell|kept|stood|held|hit|grew|went|came|began|stayed|remained|peaked)\b",
                   re.IGNORECASE)
# a word that opens a possibility or speaks of the future: the clause may offer its number as tomorrow's
_OPEN = re.compile(r"\?|\b(?:will|would|could|might|may|can|should|shall|must|if|unless|or|either|otherwise|expect\w*|"
                   r"forecast\w*|predict\w*|project\w*|estimat\w*|anticipat\w*|tomorrow|next|later|case|scenario|possib\w*|"
                   r"plausib\w*|likely|probabl\w*|maybe|perhaps|guess\w*|risk|chance|again|stays?|remains?|persists?|continues?)\b", re.IGNORECASE)


def quotes_observations(text: str, found: Sequence[tuple[float, int, int]], forecast: Sequence[float],
                        given: frozenset[Fraction]) -> bool:
    """True when every number of ``text`` (the text after the block, read: ``found`` holds each number's value and
    span) is the ``forecast`` restated or a ``given`` value in a clause that reports the past (module docstring)."""
    if not found or not given:
        return False
    marks = [(m.start(), m.end()) for m in _CLAUSE.finditer(text)]  # (in order, not overlapping: both ends sorted)
    mark_starts, mark_ends = [a for a, _ in marks], [b for _, b in marks]
    spans = [(mark_ends[i - 1] if (i := bisect_right(mark_ends, start)) else 0,
              mark_starts[j] if (j := bisect_left(mark_starts, end)) < len(marks) else len(text))
             for _, start, end in found]
    stops = [(m.start(), m.end()) for m in _SENTENCE_END.finditer(text)]
    stop_starts, stop_ends = [a for a, _ in stops], [b for _, b in stops]
    restating = {span for span, (value, _, _) in zip(spans, found) if value in forecast}
    for (value, start, end), span in zip(found, spans):
        if qualified(text, start, end) or hedged(text, start, end):
            return False
        if value in forecast:
            continue
        try:
            known = Fraction(str(value)) in given
        except (ValueError, OverflowError):
            return False
        # the number's sentence, less the clauses that restate the forecast ("so I expect a mean near 62"), must not
        # open a possibility or the future: "Levels climbed to 72 and will stay there." offers 72 as tomorrow's
        first = stop_ends[i - 1] if (i := bisect_right(stop_ends, start)) else 0
        last = stop_starts[j] if (j := bisect_left(stop_starts, end)) < len(stops) else len(text)
        rest = "".join(text[a:b] for a, b in _pieces(first, last, restating))
        if not (known and _PAST.search(text[span[0]:span[1]]) and not _OPEN.search(rest)):
            return False
    return True


_SENTENCE_END = re.compile(r"[!?\n]|\.(?!\d)")


def _pieces(first: int, last: int, cut: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches of ``[first, last)`` outside the spans ``cut``."""
    out, at = [], first
    for a, b in sorted(cut):
        if b <= first or a >= last:
            continue
        out.append((at, max(at, a)))
        at = max(at, b)
    out.append((at, last))
    return out


# (red team holdout_r14) quantities a bulletin reports beside the forecast
_GAS = re.compile(r"\b(?:ozone|O[3₃]|NO[2₂]|nitrogen\s+dioxide|SO[2₂]|sulphur\s+dioxide|sulfur\s+dioxide|carbon\s+monoxide)\b"
                  r"|\bPM\s?(?:2\.5|25|10)\b|초미세먼지|미세먼지", re.IGNORECASE)
_LATER = re.compile(r"\b(?:further\s+ahead|(?:the\s+)?day\s+after\s+tomorrow|the\s+following\s+days?|next\s+week|"
                    r"(?:over\s+)?the\s+weekend|later\s+(?:this|in\s+the)\s+week|in\s+(?:two|three|2|3)\s+days)\b", re.IGNORECASE)
_TOMORROW = re.compile(r"(?<!after\s)\btomorrow\b", re.IGNORECASE)
# an alternative keeps its clause read as before: "Or 80 over the weekend." may offer 80 beside the forecast
_ALTERNATIVE = re.compile(r"\b(?:or|either|if|unless|otherwise|instead)\b", re.IGNORECASE)
_SHORT_DATE = re.compile(r"(?<![\d.\-/])(\d{1,2})([-/])(\d{1,2})(?![\d]|\.\d|[-/]\d)")
_ISO_DATE = re.compile(r"\b\d{4}-(\d{1,2})-(\d{1,2})\b")
# a number that counts no quantity of air (red team holdout_r39): a clock time or a synoptic hour ("issued 18:00 KST",
# "tonight's 00Z sounding", "at 06 UTC"), a day of the month as an ordinal ("for the 4th"), and the number of a place in
# a text cited ("Seinfeld & Pandis (ch. 9)", "p. 412", "section 3.2", "Table 2"): none is a concentration, so none is a
# second forecast; a plain number next to them is read as before. (red team holdout_r43) Also the marker of a numbered
# list item ("Next steps:\n1. Re-run with ...": at a line's start, before a word) and the digits of a code glued to
# capitals ("N95 masks", "FFP2", "KN95"): an item's rank and a product's name, no concentration ("1. 48 µg/m³" keeps 48)
PRODUCT_CODE_DIGITS = r"(?-i:(?<=[A-Z])(?<!PM)\d+)"  # the digits of a product's code glued to capitals: "KF94", "N95"
_NOT_A_VALUE = re.compile(
    r"(?<![\d.])(?:\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:[ap]\.?m\.?|h|hrs?))?|\d{2}\s*(?:Z|UTC|GMT|KST|CST|LST)\b|\d{1,2}(?:st|nd|rd|th)\b)"
    r"|\b(?:ch(?:ap(?:ter)?)?|p|pp|pages?|sec(?:tion)?|§|fig(?:ure)?|tables?|eq(?:uation)?|vol(?:ume)?)\.?\s*\d+(?:\.\d+)*(?:\s*[-–]\s*\d+)?"
    r"|(?:(?<=\n)|\A)[^\S\n]*\d{1,2}[.)](?=[^\S\n]+[^\W\d_])"
    r"|" + PRODUCT_CODE_DIGITS,
    re.IGNORECASE)


def prompt_days(prompt: str) -> frozenset[tuple[int, int]]:
    """The (month, day) of each ISO date the prompt names ("2025-03-11")."""
    return frozenset((int(m.group(1)), int(m.group(2))) for m in _ISO_DATE.finditer(prompt))


def _pollutant(name: str) -> str:
    folded = name.casefold().replace(" ", "")
    if folded.startswith("pm"):
        return "pm10" if folded.endswith("10") else "pm25"
    return {"초미세먼지": "pm25", "미세먼지": "pm10"}.get(name, folded)


def other_quantities_left_out(after: str, pollutants: Sequence[str], days: frozenset[tuple[int, int]],
                              series: tuple[str, frozenset[str]] = ("", frozenset())) -> str:
    """``after`` (the text after the block) with the clauses about another pollutant or another of the prompt's series
    (``series``: the one asked and the others, :func:`~polyreward.verifiers.forecast_series.asked_and_other_series`;
    red team ``holdout_r53``: "Guanyuan should be near 75."), the sentences about a later
    horizon, the short month-days that are the prompt's dates and the numbers that count no quantity of air (clock
    times, ordinal days, a cited chapter or page: :data:`_NOT_A_VALUE`) blanked (module docstring); the same length.
    ``other_quantities_left_out("Issued 18:00 KST.", (), frozenset())`` leaves no digit."""
    chars = list(after)

    def blank(a: int, b: int) -> None:
        chars[a:b] = " " * (b - a)

    for m in _SHORT_DATE.finditer(after):
        if (int(m.group(1)), int(m.group(3))) in days:
            blank(m.start(), m.end())
    for m in _NOT_A_VALUE.finditer(after) if any(ch.isdigit() for ch in after) else ():
        blank(m.start(), m.end())
    bounds = [0, *sorted({m.end() for m in _SENTENCE_END.finditer(after)}), len(after)]
    for a, b in zip(bounds, bounds[1:]):
        sentence = after[a:b]
        if _LATER.search(sentence) and not _TOMORROW.search(sentence) and not _ALTERNATIVE.search(sentence):
            blank(a, b)
    if pollutants or series[1]:
        cuts = [0, *sorted({m.start() for m in _CLAUSE.finditer(after)}), len(after)]
        for a, b in zip(cuts, cuts[1:]):
            named = {_pollutant(m.group()) for m in _GAS.finditer(after, a, b)}
            if (named and not named & set(pollutants) or names_only_other_series(after[a:b], *series)) \
                    and not _ALTERNATIVE.search(after, a, b):
                blank(a, b)
    return "".join(chars)
# "no" / "without" as the determiner of a noun of the world the forecast is reasoned from ("with no trend in the evening
# hours", "no change in the weather pattern", "without rain"): the writer's reason, which negates that noun, not the
# forecast. The nouns of a stance or of the forecast itself are excluded: "no idea", "no way", "no chance", "no forecast"
# still withdraw it.
_DETERMINER_NO = re.compile(
    r"\b(?:no|without)\s+(?:(?:clear|obvious|real|significant|major|notable|marked|new|further|strong|sign\w*)\s+)?"
    r"(?!(?:way|chance|idea|clue|confidence|certainty|guarantee|basis|sense|doubt|forecast\w*|predict\w*|estimate\w*|"
    r"answer\w*|value|number|figure|guess\w*|reliable|good|real)\b)[a-z]{3,}\b", re.IGNORECASE)
# a negated verb whose subject is a noun phrase of the world the forecast is reasoned from, opened by an article ("the
# episode has not broken", "the inversion hasn't lifted", "the front did not arrive": red team holdout_r24): the
# writer's reason, which negates that event, not the forecast. A subject that is the forecast's quantity or the
# forecast itself ("the mean won't be that high", "the estimate is not reliable", "the model has not ...") is read as
# before, and so is a pronoun or a demonstrative (:data:`_ABOUT_FORECAST`)
_WORLD_NOT = re.compile(
    r"\b(?:the|a|an)\s+(?:[a-z-]+\s+){0,2}?(?!(?:mean|average|levels?|concentrations?|readings?|values?|numbers?|"
    r"figures?|forecast\w*|predict\w*|estimat\w*|answers?|guess\w*|results?|pm|models?|methods?)\b)[a-z]{3,}\s+"
    r"(?:has|have|had|is|are|was|were|does|do|did|will|would|could|can|should|may|might|wo|ca)\s*(?:not\b|never\b|n't\b)",
    re.IGNORECASE)
# a negated verb of what an estimate is built from, whose object is an input the method leaves out ("It does not use
# meteorological forecasts (wind, boundary-layer height, precipitation)", "it doesn't account for the holiday
# traffic"): the writer's limitation of the method, which negates that input, not the forecast (red team holdout_r40).
# An object that is the forecast, a pronoun, or the data itself ("does not use any data", "doesn't consider the
# observations") is read as before
_METHOD_NOT = re.compile(
    r"(?:\b(?:does|do|did|can|could)\s*(?:not\b|n't\b)|\bcannot\b)\s+(?:fully\s+|explicitly\s+)?"
    r"(?:use|include|incorporate|consider|reflect|capture|model|account\s+for|factor\s+in|take\s+into\s+account)\s+"
    r"(?!(?:it|this|that|them|these|those|any\w*|real|actual|data|observations?|the\s+(?:data|observations?|values?|"
    r"numbers?|forecast\w*|estimate\w*|prompt|question|series|readings?))\b)[a-z]", re.IGNORECASE)
# a clause that speaks of the writer or points back at the forecast: a negation there may withdraw it
_ABOUT_FORECAST = re.compile(
    r"\b(?:i|i'm|i'd|i've|me|my|we|we're|our|you|this|that|it|it's|these|those|above|forecast\w*|predict\w*|"
    r"estimate\w*|answer\w*|value|number|figure|guess\w*|result)\b", re.IGNORECASE)


# (red team holdout_r48) a doubt denied is certainty, not a negation of the forecast: "I have no doubt it stays very
# bad.", "without (any) doubt", "beyond doubt" (the KG lexicon's pseudo-negations: "There is no doubt about the
# consolidation"); "no doubt" as a hedge of its own ("No doubt someone will say ...") is not written after a forecast
# as a subject's possession or a phrase of manner, which is all this reads
_DOUBT_DENIED = re.compile(r"\b(?:(?:i|we)[^\S\n]+(?:have|had)[^\S\n]+no|there(?:['’]s|[^\S\n]+is)[^\S\n]+no|"
                           r"(?:without|beyond)(?:[^\S\n]+(?:a|any))?)[^\S\n]+doubt\b", re.IGNORECASE)


def negates_forecast(after: str, negation: re.Pattern) -> bool:
    """Whether a negation (``negation``: the reward's negation words) in the text after the block may withdraw the
    forecast: one in a clause that speaks of the writer or points back at the forecast (``I'm not sure``, ``It won't
    be that high``, ``That is not right``), or one that is more than the determiner of a noun of the world (``No.``,
    ``not 40``, ``it isn't``) or the negated verb of a noun of the world (:data:`_WORLD_NOT`: ``the episode has
    not broken``; red team ``holdout_r24``). ``Justification: persistence of today's mean, with no trend in the evening
    hours, gives 341 µg/m³.`` negates the trend, not the forecast (a genuine justification the reward refused: the genuine
    sweep, ``benchmarks/other_rewards_genuine_sweep.py``; red team ``holdout_r12`` left it open); ``It does not use
    meteorological forecasts`` negates an input of the method (:data:`_METHOD_NOT`; red team ``holdout_r40``)."""
    if not negation.search(after):
        return False
    for piece in _CLAUSE.split(after):
        piece = _METHOD_NOT.sub(" ", piece) if piece else piece
        piece = _DOUBT_DENIED.sub(" ", piece) if "doubt" in piece.casefold() else piece
        if piece and negation.search(piece) and (
                _ABOUT_FORECAST.search(piece) or negation.search(_DETERMINER_NO.sub(" ", _WORLD_NOT.sub(" ", piece)))):
            return True
    return False


# a remark after the value comparing it with a day the prompt gives, by a percentage: "340.8 µg/m³, about 30% above
# today's mean" (red team holdout_r6); read by :func:`without_relative_change`
RELATIVE_CHANGE = re.compile(
    r"(?<=\S)\s*[,(;]\s*(?:about|around|roughly|some|nearly|almost)?\s*\d+(?:\.\d+)?\s*%\s+(?:above|below|(?:higher|lower|more|less)\s+than|"
    r"(?:up|down)\s+(?:on|from))\s+(?:today|yesterday|the\s+(?:previous|prior|last)\s+day)(?:'s|’s)?"
    r"(?:\s+(?:daily\s+)?(?:mean|average|level|value|reading|concentration))?\s*\)?\s*\.?\s*$", re.IGNORECASE)


def without_relative_change(span: str) -> str:
    """``span`` without a closing remark that compares its value with today's or yesterday's by a percentage (the
    prompt's day, no value of its own): it describes the forecast, it forecasts nothing else. A change with a value
    ("30% above today's 260"), a hedge ("could be 30% higher") or any other reference keeps its number (two numbers:
    no forecast)."""
    return RELATIVE_CHANGE.sub("", span) if "%" in span else span


# the markup a block's lead may end in before the block opens ("**Otherwise:** <answer>60</answer>")
_LEAD_MARKUP = " \t\n*_"


def led_as_one_case(lead: str) -> bool:
    """Whether ``lead``, the text right before the ``<answer>`` block, leads into the block as one case of several:
    it ends in "otherwise", "else", "or", "either", "alternatively" or their words in other languages, with at most a
    comma or colon after (:func:`.commitment.hedged`'s reading of a value after them, applied to the block's value).
    "... no reason to expect otherwise." ends a sentence, so it leads into nothing (module docstring)."""
    lead = lead.rstrip(_LEAD_MARKUP)
    return bool(lead) and hedged(lead + " 0", len(lead) + 1, len(lead) + 2)


# after the value: the text after the block's last digit; a letter of a script other than Latin (not a lone µ)
_LAST_DIGIT = re.compile(r"\d(?!.*\d)", re.DOTALL)
_OTHER_SCRIPT = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f\u1e00-\u1eff\u00b5\u03bc]")


def foreign_after_value(span: str) -> bool:
    """Whether the block's words after its last number are a clause in another language written in Latin letters
    (module docstring, red team ``holdout_r27``): :func:`.language.foreign` on them, where they hold no letter of
    another script (those are labels the reward reads by its own rules); the reward passes the block with its unit
    left out (`µg/m³`)."""
    last = _LAST_DIGIT.search(span)
    tail = span[last.end():] if last else ""
    return bool(tail.strip()) and not _OTHER_SCRIPT.search(tail) and foreign(tail)
