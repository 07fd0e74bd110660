"""An answer that is one branch of alternatives the writer leaves open: one of several possibilities ("It could be
45. It could be 42.", "Maybe 45. Maybe 42.") or one case of a case split ("For even n: 45. For odd n: 42."). Read by
the math and choice readers (:mod:`.answer_extraction`, :mod:`.choice`) beside :mod:`.commitment`'s checks: an answer
that is only one branch is no committed answer.
"""

from __future__ import annotations

from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs
from typing import Callable

from polyreward.verifiers.clauses import CLAUSE_END as _CLAUSE_END
from polyreward.verifiers.number_keys import _VALUE, value_key, answer_keys
from polyreward.verifiers.regex_scan import first_ends, last_ends


_MODAL = re.compile(r"\b(?:could|might|may|maybe|perhaps|possibly|probably|likely|guess)\b", re.IGNORECASE)


def modal_alternative_before(text: str, start: int, answer: str) -> bool:
    """Is the answer at ``text[start:]`` one of several possibilities ("It could be 45. It could be 42.", "Maybe 45.
    Maybe 42."): its own clause says it may be, and one of the two clauses before says another value may be?"""
    window = text[max(0, start - 300):start]
    ends = last_ends(_CLAUSE_END, window, 3)  # (speed: the last three clause ends are all that is read)
    own = window[ends[-1]:] if ends else window
    if not _MODAL.search(own):
        return False
    earlier = window[ends[-3] if len(ends) >= 3 else 0:ends[-1]] if ends else ""
    keys = answer_keys(answer)
    for value in _VALUE.finditer(earlier):
        closes = re.match(r"[\s$*)}\]]*(?:[.,;!?]|\Z|or\b)", earlier[value.end():])  # "45.", not "3 steps"
        if closes and value_key(value.group()) not in keys and _MODAL.search(earlier[max(0, value.start() - 30):value.start()]):
            return True
    return False


# a case split: "For even n: 45. For odd n: 42.", "Without replacement 45; with replacement, 42.", "In a stable patient
# A; in an unstable one, D." -- the answer's clause opens with a condition, an earlier clause opens with the same word
# (or "with" / "without"), the two share a word of their own, and the earlier one states another value
_CASE_OPENER = re.compile(r"\A[\W_]*(if|when|whenever|unless|for|under|with|without|in|case|assuming|given)\b", re.IGNORECASE)
_CONDITION_OPENERS = frozenset({"if", "when", "whenever", "unless", "with", "without", "under", "assuming", "case"})
_CASE_PLAIN_WORDS = frozenset({"the", "a", "an", "we", "get", "gets", "it", "then", "one", "of", "to", "and", "so"})


def _case_words(clause: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", clause.lower()) if w not in _CASE_PLAIN_WORDS}


_CONDITIONAL_MOOD = re.compile(r"\b(?:would|could\s+have|we'd|it'd|there'd)\b", re.IGNORECASE)
_CASE_END = re.compile(_CLAUSE_END.pattern + r"|,(?=\s*(?:if|when|whenever|unless|for|under|with|without|in|case|assuming|given)\b)", re.IGNORECASE)


# a unit rate scaled up: "In one week she reads 200 pages. In two weeks, Maria reads 400 pages." -- the earlier branch's
# condition is one of a unit ("one week", "a day", "1 minute", "each ticket"), the answer's a count of the same unit
# ("two weeks", "10 minutes"): a step of the computation, not a case the writer leaves open (holdout98)
_ONE_UNIT = re.compile(r"\A[^\S\n]*(?:one|a|an|1|each|a\s+single)[^\S\n]+([a-z]{3,})\b", re.IGNORECASE)
_UNIT_COUNT = re.compile(r"\A[^\S\n]*(?:\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                         r"forty|fifty|sixty|hundred)[^\S\n]+([a-z]{3,})\b", re.IGNORECASE)


def _scaled_from_unit(earlier: str, own: str) -> bool:
    """Is ``own`` (after its opener) a count of the unit that ``earlier`` (after its opener) states one of?"""
    one, count = _ONE_UNIT.match(earlier), _UNIT_COUNT.match(own)
    if one is None or count is None:
        return False
    unit, counted = one.group(1).lower(), count.group(1).lower()
    return counted in (unit + "s", unit + "es") or counted == unit and not counted.endswith("s")


def case_alternative_before(text: str, start: int, is_other: Callable[[str], bool], end: int | None = None) -> bool:
    """Is the answer at ``text[start:end]`` one branch of a case split (see the comment above), the other branch
    before it or (given ``end``) right after it? ``is_other(clause)`` says whether a clause states a value other than
    the answer."""
    window = text[max(0, start - 300):start]
    ends = last_ends(_CASE_END, window, 3)  # (speed: the last two clauses are all that is read)
    own = window[ends[-1]:] if ends else window
    opener = _CASE_OPENER.match(own)
    if opener is None:
        return False
    word = opener.group(1).lower()
    bounds = [0] + ends
    branches = [window[first:last] for first, last in list(zip(bounds[:-1], bounds[1:]))[-2:]]
    if end is not None:  # "If we include the endpoints, 42; if we exclude them, 45."
        after = text[end:end + 300]
        cut = first_ends(_CASE_END, after, 2)
        branches += [after[first:last] for first, last in zip(cut, cut[1:] + [len(after)])][:1]
    for earlier in branches:
        other = _CASE_OPENER.match(earlier)
        if other is None or {word, other.group(1).lower()} - {"with", "without"} and other.group(1).lower() != word:
            continue
        if word in ("in", "for") and _scaled_from_unit(earlier[other.end():], own[opener.end():]):
            continue  # "In one week, 200 pages. In two weeks, 400 pages.": the rate, then the asked count of it
        if _CONDITIONAL_MOOD.search(earlier) and not _CONDITIONAL_MOOD.search(own):
            continue  # "Without the restriction there would be 48; with it, the answer is 36": a counterfactual, then the case
        mine, theirs = _case_words(own[opener.end():]), _case_words(earlier[other.end():])
        # two branches opened by the same condition ("if we include ..., 7; if we exclude ..., 9", "with the first
        # reading 720, with the second -3") split cases whatever their words; "for" / "in" / "given" also open a
        # plain statement of the problem's case ("For n = 5, 120"), so those branches must share a word
        parallel = word == other.group(1).lower() and word in _CONDITION_OPENERS or {word, other.group(1).lower()} == {"with", "without"}
        shared = mine & theirs or any(a in b or b in a for a in mine for b in theirs if min(len(a), len(b)) >= 4)
        if (parallel or shared) and is_other(earlier):
            return True
    return False


# two values offered as alternatives that hang on something the writer does not settle (holdout111): "2.4 mL or 2.5 mL
# depending on the rounding convention", "41 or 42, depending on whether ...", "it's 12 or 13 according to which
# reading you take" -- two different values joined by "or", then "depending on" / "depends on" / "according to"
_DEPENDING_PAIR = re.compile(
    r"(?<![\w.])(?P<one>[-−]?\d+(?:\.\d+)?)(?:[^\S\n]*[^\W\d_%$]{1,12}\.?)?[^\S\n]*%?[^\S\n]+or[^\S\n]+\$?(?P<two>[-−]?\d+(?:\.\d+)?)"
    r"(?:[^\S\n]*[^\W\d_%$]{1,12}\.?)?[^\S\n]*%?[,;]?[^\S\n]+(?:depending\s+on|(?:it\s+)?depends\s+on|according\s+to|based\s+on)\b",
    re.IGNORECASE)
# what settles them after: a conclusion or an answer phrase ("... depending on the convention. The problem says half
# up, so 2.5.")
_SETTLES = re.compile(r"\b(?:so|thus|therefore|hence|answer|final|here|the\s+problem|the\s+question|asked|says|states|specifies|uses)\b",
                      re.IGNORECASE)


def depending_alternative_before(text: str, start: int, answer: str) -> bool:
    """Is the answer at ``text[start:]`` one of two values the writer offered before it, in the same paragraph, as
    hanging on something ("2.4 mL or 2.5 mL depending on the rounding convention (... half-up gives 2.5)"), with
    nothing that settles which between them? Example: "To the nearest tenth that's 2.4 mL or 2.5 mL depending on the
    rounding convention. Either is defensible." leaves 2.5 one branch; "... depending on the convention. The problem
    says round half up, so 2.5." settles it."""
    paragraph = text.rfind("\n\n", 0, start)
    window_start = max(0, start - 400, paragraph + 1)
    keys = answer_keys(answer)
    for pair in _DEPENDING_PAIR.finditer(text, window_start, start + len(answer)):
        one, two = value_key(pair.group("one")), value_key(pair.group("two"))
        if one != two and keys & {one, two} and _SETTLES.search(text, pair.end(), start) is None:
            return True
    return False


# speed only (issue #35): searches skipped on texts that lack every set of words a match needs (same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_CONDITIONAL_MOOD")

# speed only (issue #35): clause ends searched by skipping to the characters they consume (regex_scan; same results)
from polyreward.verifiers.regex_scan import scan_names  # noqa: E402

scan_names(globals(), "_CASE_END")
