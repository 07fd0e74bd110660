"""An answer in another unit than the one the question asks for is another answer (holdout17, holdout18).

"How many kilograms does one crate weigh?" answered "42 lb", "How long is it in centimetres?" answered "42 mm", "What
is the area, in cm^2, ...?" answered "42 m²": the number matches the gold, the quantity does not. :func:`wrong_unit`
reads the unit written right after the answer's value (in the answer itself, ``42\\text{ lb}``, or after its last
occurrence in the completion's tail) and the units the prompt **asks** for ("how many <unit>", "in <unit>", "(in
<unit>)", "to <unit>", "per <unit>" is not asked); when the prompt asks for a unit and the answer names a known unit
that is not one of them, the answer is in another unit. Units the prompt only mentions (given data) are not asked
for, and an answer without a unit, or with a word that is no known unit ("42 apples"), is never refused here.

Known units (name, symbol and plural, US and British spelling), with square and cubic forms (``cm^2``, ``cm²``,
"square centimetres", "sq cm"): lengths mm, cm, m, km, inch, foot, yard, mile; masses mg, g, kg, tonne, pound, ounce;
times s, min, h, day, week, month, year; volumes mL, L; angles in degrees and radians.

Clinical units are units too (holdout55): :data:`COMPOUND_UNIT` is the grammar of a unit written after a number, a
unit token (letters, with an SI prefix sign ``µ``/``μ`` and a power ``^2``, ``^{2}``, ``²``) joined to others by ``/``,
``·`` or ``\\cdot`` ("22.9 kg/m²", "132.6 µmol/L", "0.5 mL/kg/h", "290 mOsm/kg", "10 U/kg", "3 N·m"; a product joins
unit-like tokens only, so "2 a·b" stays a product of variables), read by
:func:`.math_normalize.parse_numeral` as the number's unit; :func:`past_dosing_verb` reads "Give 7.5 mL" (an order to
give, administer, infuse ... the value) as the value.

Reconstructed rule (ours). Anchored regular expressions on the answer, the prompt and the last 400 characters of the
completion: linear time.
"""

from __future__ import annotations

from fractions import Fraction

from polyreward.verifiers.memo import memoized_text
from polyreward.verifiers.pattern_cache import cached_re as re  # re, its module-level patterns kept between runs

# a unit token (an SI prefix sign, letters, a power) and a compound unit: tokens joined by "/", "·" or "\cdot"
# (a power is a square or a cube, or a negative power as SI writes "per": "cm⁻³", "s^{-1}", "mol^-1"; holdout63)
_NEGATIVE_POWER = r"(?:\^\s*\{?\s*-\s*[1-4]\s*\}?|⁻[¹²³⁴])"
_UNIT_POWER = r"(?:\^\s*\{?\s*[23]\s*\}?|[²³]|" + _NEGATIVE_POWER + ")"
UNIT_TOKEN = r"[µμ]?[A-Za-z]{1,6}" + _UNIT_POWER + "?"
# (a product "·" joins unit-like tokens only, two letters or more or a one-letter SI symbol: "N·m", "kg·m²", never "a·b")
_PRODUCT_TOKEN = r"(?:[µμ][A-Za-z]{1,5}|[A-Za-z]{2,6}|[mgsLNJWVAUhK])" + _UNIT_POWER + "?"
# a product written with spaces, SI's "g cm⁻³", "m s^{-1}", "J mol⁻¹ K⁻¹": every token after the first carries a
# negative power, so "2 a b" or "3 x y" (variables) is never one
_SPACED_PRODUCT = rf"{_PRODUCT_TOKEN}(?:[^\S\n]+(?:[µμ]?[A-Za-z]{{1,5}}){_NEGATIVE_POWER}){{1,3}}"
COMPOUND_UNIT = (rf"{_SPACED_PRODUCT}|{UNIT_TOKEN}(?:[^\S\n]*/[^\S\n]*{UNIT_TOKEN}){{1,3}}|{_PRODUCT_TOKEN}(?:[^\S\n]*(?:/|·|\\cdot)[^\S\n]*{_PRODUCT_TOKEN}){{1,3}}"
                 rf"|[µμ][A-Za-z]{{1,5}}" + _UNIT_POWER + "?")
# an order to give the value, opening the answer: "Give 7.5 mL", "Administer 20 mL", "Infuse 125 mL/h", "Draw up 2 mL"
_DOSING_VERB = re.compile(r"\s*(?i:give|administer|infuse|inject|draw\s+up|deliver|run|set\s+(?:the\s+)?pump\s+(?:to|at)|take)[^\S\n]+"
                          r"(?=\$?[-+]?\d[\d.,]*[^\S\n]*(?:\\text\{\s*)?[µμA-Za-z])")

# canonical unit -> the words and symbols that name it (longest first inside each alternation)
_NAMES = {
    "mm": r"millimet(?:er|re)s?|mm", "cm": r"centimet(?:er|re)s?|cm", "km": r"kilomet(?:er|re)s?|km",
    "m": r"met(?:er|re)s?|m", "inch": r"inch(?:es)?", "ft": r"feet|foot|ft", "yd": r"yards?|yd", "mile": r"miles?|mi",
    "mg": r"milligrams?|mg", "mcg": r"micrograms?|mcg|[µμ]g|ug", "kg": r"kilograms?|kilos?|kg", "g": r"grams?|g", "tonne": r"tonnes?|tons?",
    "lb": r"pounds?|lbs?", "oz": r"ounces?|oz",
    "s": r"seconds?|secs?|s", "min": r"minutes?|mins?|min", "h": r"hours?|hrs?|h", "day": r"days?",
    "week": r"weeks?|wks?", "month": r"months?", "year": r"years?|yrs?",
    "mL": r"millilit(?:er|re)s?|ml|mL", "L": r"lit(?:er|re)s?|l|L",
    "deg": r"degrees?|deg|°", "rad": r"radians?|rad",
}
_CANONICAL = [(canonical, re.compile(rf"(?:{names})\Z", re.IGNORECASE if canonical not in ("mL", "L") else 0))
              for canonical, names in _NAMES.items()]
_ANY_UNIT = r"(?:(?P<square>square|sq\.?)\s+|(?P<cubic>cubic|cu\.?)\s+)?(?P<unit>" + "|".join(_NAMES.values()) + r")(?P<power>\$?\^\s*\{?\s*[23]\s*\}?|[²³])?"
# a word that opens with a known unit ("degrees Celsius", "years old", "square metres"): a value's unit of two words
OPENS_WITH_UNIT = re.compile(_ANY_UNIT + r"(?![^\W\d_])", re.IGNORECASE)
# a unit right after a value: "42 lb", "42\text{ lb}", "42\,\mathrm{kg}", "42 m²", "42 square metres"
_AFTER_VALUE = re.compile(r"\$?[^\S\n]*(?:\\[,;: ]|~)?[^\S\n]*(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*)?" + _ANY_UNIT
                          + r"(?:\s*\})?(?P<power2>\^\s*\{?\s*[23]\s*\}?|[²³])?(?![^\W\d_])")
# the unit a question asks for: "how many kilograms", "in centimetres", "(in cm^2)", "in cm$^2$" (its power set in math
# right after the word), "convert ... to metres"
_ASKED = re.compile(r"\b(?:how\s+many|in|into|to)\s+(?:\\text\{\s*)?" + _ANY_UNIT + r"(?![^\W\d_])", re.IGNORECASE)


_CLAUSE_CLOSES = re.compile(r"[\s.!)*$]*\Z")


def measure_closes(clause: str, end: int) -> bool:
    """Does a unit follow the value ending at ``clause[end]`` and close the clause ("it is 39 cm.", "c'est 540°.")? A
    measure, not a count ("3 steps"): read as another value where the clause withdraws the answer (fixhack)."""
    unit = _AFTER_VALUE.match(clause, end)
    return unit is not None and _CLAUSE_CLOSES.match(clause, unit.end()) is not None


def _canonical(match: re.Match) -> tuple[str, int] | None:
    """(unit, power) of a match of :data:`_ANY_UNIT`, or None for a word that names no known unit."""
    word = match.group("unit")
    unit = next((canonical for canonical, names in _CANONICAL if names.match(word)), None)
    if unit is None:
        return None
    power = 2 if match.group("square") else 3 if match.group("cubic") else 1
    for written in (match.group("power"), match.groupdict().get("power2")):
        if written:
            power = 3 if "3" in written or "³" in written else 2
    return unit, power


@memoized_text(max_chars=8192, maxsize=256)  # (speed: read for every answer found equal; the rollouts of a group share a prompt)
def asked_units(prompt: str) -> frozenset[tuple[str, int]]:
    """The (unit, power) pairs the prompt asks the answer in (module docstring)."""
    return frozenset(unit for match in _ASKED.finditer(prompt) if (unit := _canonical(match)) is not None)


def answer_unit(answer: str, completion: str) -> tuple[str, int] | None:
    """The unit written after the answer's value: in ``answer`` itself, else after the value's last occurrence in the
    completion's last 400 characters; None when there is none or it is no known unit."""
    value = re.match(r"\s*\$?\s*([-+]?\d[\d,]*(?:\.\d+)?)", answer)
    if value is None:
        return None
    found = _AFTER_VALUE.match(answer, value.end())
    if found is None and (marked := foot_or_inch_mark(answer, value.start(1), value.end())) is not None:
        return marked
    if found is None and answer[value.end():].strip(" .$}"):
        return None  # the answer goes on with something else
    if found is None:
        tail = completion[-400:]
        occurrences = list(re.finditer(r"(?<![\d.])" + re.escape(value.group(1)) + r"(?![\d])", tail))
        if not occurrences:
            return None
        found = _AFTER_VALUE.match(tail, occurrences[-1].end())
        if found is None:
            return foot_or_inch_mark(tail, occurrences[-1].start(), occurrences[-1].end())
    return _canonical(found) if found is not None else None


# the foot and inch marks right after a number (holdout115): "18'" or "18′" is 18 feet, "18\"", "18″" or "18''" is 18
# inches -- unless a quote opens before the number, which makes the mark its closing quote ("'18'")
_FOOT_INCH_MARK = re.compile(r"(?P<inch>''|[\"″])|(?P<foot>['′])(?![\w'])")


def foot_or_inch_mark(text: str, start: int, end: int) -> tuple[str, int] | None:
    """("ft", 1) or ("inch", 1) when a foot or inch mark follows the number at ``text[start:end]`` (see
    :data:`_FOOT_INCH_MARK`), else None: "The board is 18' long." states 18 feet.

    >>> foot_or_inch_mark("The board is 18' long.", 13, 15)
    ('ft', 1)
    >>> foot_or_inch_mark("It is '18'.", 7, 9) is None
    True
    """
    found = _FOOT_INCH_MARK.match(text, end)
    if found is None or text[max(0, start - 1):start] in ("'", '"', "‘", "“", "′", "″"):
        return None
    return ("inch", 1) if found.group("inch") else ("ft", 1)


# a count asked ("How many students passed?") and a percent asked anywhere in the prompt ("what percent", "%")
_COUNT_ASKED = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
_PERCENT_ASKED = re.compile(r"%|\bpercent(?:age)?\b|\bproportion\b|\bshare\b|\bfraction\b|\brate\b", re.IGNORECASE)
_UNIT_ASKED_WORD = re.compile(r"(?i:how\s+many|\bin\b|\binto\b|\bto\b)")  # (speed: compiled once)
_PERCENT_ANSWER = re.compile(r"\d\s*(?:\\?%|percent\b)")


def wrong_unit(answer: str, completion: str, prompt: str) -> str:
    """Why ``answer`` is in another unit than the one ``prompt`` asks for ("lb where the question asks for kg"), or ""."""
    if not prompt or not _UNIT_ASKED_WORD.search(prompt):
        return ""
    if _COUNT_ASKED.search(prompt) and not _PERCENT_ASKED.search(prompt) and _PERCENT_ANSWER.search(answer):
        return "a percent where the question asks how many"  # "30% of the students" for "How many students ...?" (holdout30)
    asked = asked_units(prompt)
    if not asked:
        return ""
    unit = answer_unit(answer, completion)
    if unit is None or unit in asked:
        return ""
    shown = unit[0] + ("^" + str(unit[1]) if unit[1] > 1 else "")
    wanted = " or ".join(sorted(u + ("^" + str(p) if p > 1 else "") for u, p in asked))
    return f"{shown} where the question asks for {wanted}"


def past_dosing_verb(answer: str) -> str:
    """``answer`` without an order to give its value ("Give 7.5 mL" -> "7.5 mL"): the verb of a dosing instruction
    names no quantity, so the value with its unit is the answer; ``answer`` itself when it opens with no such verb or the
    verb is not followed by a number with a unit ("Give or take 7" stays)."""
    found = _DOSING_VERB.match(answer)
    return answer[found.end():] if found else answer


# --- the dimension of a unit: what kind of quantity a value with this unit is --------------------------------------
# A unit is read token by token (:data:`COMPOUND_UNIT`): an SI prefix and a base, or a word with a fixed factor. Its
# dimension is the kinds over the tokens before the first "/" ("per") and the kinds after it, each with its factor,
# so "mg/dL" and "g/L" are one dimension (mass per volume) and convert, "µmol/L" is another (amount per volume).
_PREFIXES = {"": 1.0, "k": 1e3, "d": 1e-1, "c": 1e-2, "m": 1e-3, "µ": 1e-6, "μ": 1e-6, "mc": 1e-6, "u": 1e-6, "n": 1e-9}
_BASES = {"g": "mass", "mol": "amount", "Eq": "equivalent", "eq": "equivalent", "Osm": "osmole", "osm": "osmole",
          "L": "volume", "l": "volume", "cal": "energy", "J": "energy", "IU": "unit", "U": "unit"}
_WORDS = {"mmHg": ("pressure", 1.0), "cmH2O": ("pressure", 0.7356), "kPa": ("pressure", 7.5006), "Pa": ("pressure", 0.0075006),
          "gtt": ("drop", 1.0), "drops": ("drop", 1.0), "drop": ("drop", 1.0), "dose": ("dose", 1.0), "doses": ("dose", 1.0),
          "units": ("unit", 1.0), "unit": ("unit", 1.0), "tab": ("tablet", 1.0), "tabs": ("tablet", 1.0), "tablets": ("tablet", 1.0),
          "tablet": ("tablet", 1.0), "cm": ("length", 1e-2), "mm": ("length", 1e-3), "m": ("length", 1.0), "km": ("length", 1e3),
          "s": ("time", 1.0), "ms": ("time", 1e-3), "sec": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0), "hr": ("time", 3600.0),
          "hour": ("time", 3600.0), "hours": ("time", 3600.0), "d": ("time", 86400.0), "day": ("time", 86400.0),
          "days": ("time", 86400.0), "wk": ("time", 604800.0), "week": ("time", 604800.0), "dL": ("volume", 0.1),
          "kcal": ("energy", 1e3), "mcg": ("mass", 1e-6), "lb": ("mass", 453.59237), "lbs": ("mass", 453.59237)}
_TOKEN_SPLIT = re.compile(r"[^\S\n]*(/|·|\\cdot|\bper\b)[^\S\n]*")
_TOKEN = re.compile(r"(?P<word>[µμ]?[A-Za-z0-9]{1,8})(?P<power>\^\s*\{?\s*(?P<p>[23])\s*\}?|(?P<q>[²³]))?\Z")


def _token_kind(token: str) -> tuple[str, float] | None:
    """(kind, factor to the kind's base) of one unit token ("mg" -> ("mass", 0.001)), or None for no known unit."""
    found = _TOKEN.match(token.strip())
    if found is None:
        return None
    word = found.group("word")
    power = 3 if "3" in (found.group("p") or found.group("q") or "") or "³" in (found.group("q") or "") else 2 if found.group("power") else 1
    kind = _WORDS.get(word)
    if kind is None:
        for prefix in sorted(_PREFIXES, key=len, reverse=True):
            if word.startswith(prefix) and word[len(prefix):] in _BASES:
                kind = (_BASES[word[len(prefix):]], _PREFIXES[prefix])
                break
    if kind is None:
        return None
    return (kind[0] + ("^" + str(power) if power > 1 else ""), kind[1] ** power)


def unit_dimension(unit: str) -> tuple[tuple[str, ...], tuple[str, ...], float] | None:
    """The dimension of a unit as written after a value ("mg/kg/day", "µmol/L", "kg/m²", "mg per dose"): the kinds of
    its tokens over and under the first "/" (each sorted) and its factor to their base units; None when a token is no
    known unit (a word of prose, "mg of dextrose" is read as its first token only by the caller)."""
    parts = _TOKEN_SPLIT.split(unit.strip())
    tokens, signs = parts[0::2], [None] + parts[1::2]
    over: list[str] = []
    under: list[str] = []
    factor = 1.0
    for token, sign in zip(tokens, signs):
        kind = _token_kind(token)
        if kind is None:
            return None
        below = sign is not None and sign not in ("·", "\\cdot")
        (under if below else over).append(kind[0])
        factor = factor / kind[1] if below else factor * kind[1]
    return tuple(sorted(over)), tuple(sorted(under)), factor


# a unit right after a value in prose: a compound unit or one token, and "per <token>" after it ("150 mg per dose")
UNIT_AFTER_VALUE = re.compile(r"[^\S\n]*(?:\*\*|__)?[^\S\n]*(?P<unit>(?:" + COMPOUND_UNIT + "|" + UNIT_TOKEN + r")(?:[^\S\n]+per[^\S\n]+[A-Za-z]{1,8})?)(?![\w/])")


def written_unit(text: str, at: int) -> tuple[tuple[str, ...], tuple[str, ...], float] | None:
    """The dimension (:func:`unit_dimension`) of the unit written right after ``text[:at]`` (a value), or None."""
    found = UNIT_AFTER_VALUE.match(text, at)
    if found is None:
        return None
    unit = found.group("unit")
    dimension = unit_dimension(unit)
    if dimension is None and " per " in unit:
        dimension = unit_dimension(unit.split(" per ")[0])
    return dimension


# --- an SI unit with its prefix: "kPa", "mmol/L", "µA", "cm⁻³", "kW·h" (holdout63) ---------------------------------
# A unit read token by token as an SI prefix and a base symbol with a power; two units with the same bases and powers
# are one unit up to their prefixes, so a value converts between them by the ratio of their factors ("250 kPa" is
# 2.5 × 10⁵ Pa). Only SI symbols are read (no words, no non-SI units): "cal" and "J" are never one unit.
_SI_PREFIX = {"": 1, "G": 10 ** 9, "M": 10 ** 6, "k": 10 ** 3, "h": 10 ** 2, "da": 10, "d": 10 ** -1, "c": 10 ** -2,
              "m": 10 ** -3, "µ": 10 ** -6, "μ": 10 ** -6, "u": 10 ** -6, "mc": 10 ** -6, "n": 10 ** -9, "p": 10 ** -12}
_SI_TOKEN = re.compile(r"(?P<prefix>da|mc|[GMkhdcmµμunp])??(?P<base>Pa|Hz|mol|eV|Wh|g|m|L|J|W|N|V|A|s|M|C|F|T)"
                       r"(?:\^\s*\{?\s*(?P<p>-?\s*[1-4])\s*\}?|(?P<q>⁻?[¹²³⁴]))?\Z")
_SI_SPLIT = re.compile(r"[^\S\n]*(/|·|\\cdot|[^\S\n])[^\S\n]*")


def si_unit(unit: str) -> tuple[tuple[tuple[str, int], ...], float] | None:
    """The bases of an SI unit with their powers (a token after "/" counts negative) and its factor to those bases
    ("kPa" -> ((("Pa", 1),), 1000.0), "mmol/L" -> ((("L", -1), ("mol", 1)), 0.001)), or None when a token is no SI
    symbol with a prefix."""
    parts = _SI_SPLIT.split(unit.strip())
    bases: dict[str, int] = {}
    factor = 1.0
    for token, sign in zip(parts[0::2], [None] + parts[1::2]):
        found = _SI_TOKEN.match(token)
        if found is None:
            return None
        written = (found.group("p") or found.group("q") or "1").replace(" ", "").translate(_SUPERSCRIPT_POWER)
        power = int(written) * (-1 if sign == "/" else 1)
        bases[found.group("base")] = bases.get(found.group("base"), 0) + power
        factor *= float(_SI_PREFIX[found.group("prefix") or ""]) ** power
    return tuple(sorted((base, power) for base, power in bases.items() if power)), factor


_SUPERSCRIPT_POWER = str.maketrans("⁻¹²³⁴", "-1234")


# speed only (issue #35): the prompt's percent words are looked for with `in` before the pattern is tried at every
# position of the prompt (4.6 -> 0.9 µs a fresh math row's prompt; same results)
from polyreward.verifiers.regex_prefilter import prefilter_names  # noqa: E402

prefilter_names(globals(), "_PERCENT_ASKED")


# a duration written in two time units, the larger first: "2 hours and 30 minutes", "2 h 30 min", "1 minute, 30 seconds"
_TIME_UNITS = {"h": 3600, "min": 60, "s": 1}
_TIME_NAMES = {"h": "hours", "min": "minutes", "s": "seconds"}
_JOIN = r"[^\S\n]*,?[^\S\n]*(?:and[^\S\n]+)?"
_COMPOUND_DURATION = re.compile(
    r"(?<![\d.])(?:(?P<hours>\d{1,4})[^\S\n]*(?:hours?|hrs?|h)(?![A-Za-z])" + _JOIN + r"(?P<minutes>\d{1,2})[^\S\n]*(?:minutes?|mins?)(?![A-Za-z])"
    r"|(?P<whole_minutes>\d{1,4})[^\S\n]*(?:minutes?|mins?)(?![A-Za-z])" + _JOIN + r"(?P<seconds>\d{1,2})[^\S\n]*(?:seconds?|secs?|s)(?![A-Za-z]))")


def durations_in_asked_unit(text: str, prompt: str) -> str:
    """``text`` with each duration written in two time units ("2 hours and 30 minutes") as one number in the time unit
    the prompt asks ("How many hours ...": "2.5 hours"; holdout106), where that number is a terminating decimal; the
    text unchanged when the prompt asks no single time unit, or the smaller part is 60 or more. (Speed, issue #35: the
    prompt's asked units are read first, remembered per prompt and read again by :func:`wrong_unit`; the completion is
    searched only when the prompt asks one time unit.)"""
    if not prompt:
        return text
    asked = [unit for unit, power in asked_units(prompt) if power == 1 and unit in _TIME_UNITS]
    if len(asked) != 1 or _COMPOUND_DURATION.search(text) is None:
        return text

    def in_asked_unit(match: re.Match) -> str:
        if match.group("hours"):
            larger, smaller, scale = int(match.group("hours")), int(match.group("minutes")), 60
        else:
            larger, smaller, scale = int(match.group("whole_minutes")), int(match.group("seconds")), 1
        if smaller >= 60:
            return match.group()  # "2 hours 75 minutes": no plain duration
        value = Fraction((larger * 60 + smaller) * scale, _TIME_UNITS[asked[0]])
        denominator = value.denominator
        for prime in (2, 5):
            while denominator % prime == 0:
                denominator //= prime
        if denominator != 1:
            return match.group()  # "2 hours 20 minutes" in hours is 7/3: left as written
        return f"{float(value):g} {_TIME_NAMES[asked[0]]}"

    return _COMPOUND_DURATION.sub(in_asked_unit, text)
